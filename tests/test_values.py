"""min_argmin and max_argmax: the indices of argmin and argmax, and the input's own elements at
them, bit for bit.  (test_lengths checks them too, at every size and way of reading.)"""

import itertools
import re

import numpy as np
import pytest

from . import oracle
from .layouts import LAYOUTS
from .test_oracle import SHAPES, sample


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
