"""min_argmin and max_argmax: the indices of argmin and argmax, and the input's own elements at
them, bit for bit.  (test_lengths checks them too, at every size and way of reading.)"""

import itertools
import re

import numpy as np
import pytest

from . import oracle
from .layouts import LAYOUTS
from .test_oracle import SHAPES, sample

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels


def check_values(operator, data, axis, keepdims, last):
    values, indices = operator.with_values(data, axis, keepdims, last)
    expected = operator.function(data, axis, keepdims, last)
    np.testing.assert_array_equal(indices, expected)
    assert indices.dtype == np.int64 and indices.flags.c_contiguous
    assert type(values) is np.ndarray and values.flags.c_contiguous
    oracle.assert_same_bits(values, oracle.elements_at(data, expected, axis, keepdims))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_every_axis_flag_and_layout(dtype, layout, kernels, operator):
    rng = np.random.default_rng(abs(hash((str(dtype), layout, "values"))) % 2**32)
    for shape in SHAPES:
        data = LAYOUTS[layout](sample(dtype, shape, rng), rng)
        before = data.copy()
        for axis in range(-data.ndim, data.ndim):
            for keepdims, last in itertools.product((False, True), (False, True)):
                check_values(operator, data, axis, keepdims, last)
        assert data.tobytes() == before.tobytes()


def bit_patterns(dtype, rng):
    """Every bit pattern of an 8- or 16-bit type; of a wider one, the patterns next to each
    power of two, their complements and both signs of all these (the limits, zeros,
    infinities, the least and greatest NaNs), the oracle's special values, and random ones."""
    size = np.dtype(dtype).itemsize
    unsigned = np.dtype(f"u{size}")
    if size <= 2:
        return np.arange(2 ** (8 * size), dtype=np.uint64).astype(unsigned).view(dtype)
    powers = np.uint64(1) << np.arange(8 * size, dtype=np.uint64)
    near = np.concatenate([powers - np.uint64(1), powers, powers + np.uint64(1)])
    near = near & np.uint64(2 ** (8 * size) - 1)
    near = near.astype(unsigned)
    near = np.concatenate([near, ~near])
    near = np.concatenate([near, near ^ (unsigned.type(1) << unsigned.type(8 * size - 1))])
    special = np.asarray(oracle.special_values(dtype), dtype=dtype).view(unsigned)
    random = rng.integers(0, 2 ** (8 * size), 4000, dtype=unsigned, endpoint=False)
    return np.concatenate([near, special, random]).view(dtype)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_every_bit_pattern_comes_back(dtype, kernels, operator):
    # Each pattern wins its own column of equal elements: the value given back is made from
    # the winning key, or copied from the input for NaN's and zero's keys, which stand for
    # several patterns.  Read as columns; as rows of 2 and of 33 (short rows, paired or
    # searched); and as Fortran rows of 2 whose outputs lie far apart (blocks).
    patterns = bit_patterns(dtype, np.random.default_rng(8))
    patterns = patterns[:patterns.size // 64 * 64]
    twice = np.stack([patterns, patterns])
    inputs = ((twice, 0, 1), (np.ascontiguousarray(twice.T), 1, 1),
              (np.repeat(patterns[:, None], 33, axis=1), 1, 32),
              (np.asfortranarray(twice.reshape(2, 8, -1)), 0, 1))
    for data, axis, last_index in inputs:
        expected = patterns.reshape(np.delete(data.shape, axis))
        for last in (False, True):
            values, indices = operator.with_values(data, axis, False, last)
            np.testing.assert_array_equal(indices, np.full(expected.shape, last_index * last))
            oracle.assert_same_bits(values, expected)


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_signed_zero_that_wins(dtype, operator):
    # -0.0 and +0.0 are equal: the one at the winning index is given back, sign and all.
    x = np.array([1.0, -0.0, 0.0, -0.0, 0.0, 1.0]).astype(dtype)
    x = -x if operator.maximum else x
    for last, index in ((False, 1), (True, 4)):
        values, indices = operator.with_values(x, 0, False, last)
        assert int(indices) == index
        oracle.assert_same_bits(values, x[index:index + 1].reshape(()))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_empty_and_rank_zero_results(dtype, operator):
    values, indices = operator.with_values(np.zeros((0, 3), dtype=dtype), 1, False)
    assert values.shape == indices.shape == (0,) and values.dtype == dtype
    values, indices = operator.with_values(np.arange(5).astype(dtype), 0, False)
    assert values.shape == indices.shape == ()


def test_byteswapped_input_gives_native_values(operator):
    x = np.arange(12, dtype=">f4").reshape(3, 4)
    values, indices = operator.with_values(x, 1, False)
    assert values.dtype == np.dtype("float32")
    np.testing.assert_array_equal(values, x.max(axis=1) if operator.maximum else x.min(axis=1))


def test_refusals_are_those_of_the_indices(operator):
    # The same checks, with the same messages, as argmin and argmax.
    for bad in (dict(axis=2), dict(keepdims=2), dict(select_last_index="yes"),
                dict(num_threads=0)):
        with pytest.raises(Exception) as indices_error:
            operator.function(np.ones((2, 2)), **bad)
        with pytest.raises(indices_error.type, match=re.escape(str(indices_error.value))):
            operator.with_values(np.ones((2, 2)), **bad)
