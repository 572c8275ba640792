"""ArgMin and ArgMax against the numpy oracle: every element type, rank, axis, flag, opset and
layout."""

import itertools

import numpy as np
import pytest

import argmin
from argmin import opset1, opset11, opset12, opset13

from . import oracle
from .layouts import LAYOUTS

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

SHAPES = [(1,), (6,), (3, 4), (1, 5), (4, 1), (2, 3, 5), (3, 1, 4, 2), (2, 3, 1, 2, 3)]
OPSETS = {1: opset1, 11: opset11, 12: opset12, 13: opset13}


def sample(dtype, shape, rng):
    """Values drawn from a small pool with the type's special values: many ties."""
    pool = np.concatenate([oracle.special_values(dtype), np.arange(-3, 4).astype(dtype)])
    if oracle.is_float(dtype) and rng.random() < 0.5:
        pool = pool[~np.isnan(pool.astype(np.float64))]
    return rng.choice(pool, size=shape)


def check_op(operator, result, data, axis, keepdims, select_last_index):
    expected = operator.oracle(data, axis, keepdims, select_last_index)
    assert type(result) is np.ndarray
    assert result.dtype == np.int64
    assert result.flags.c_contiguous
    assert result.shape == expected.shape
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_every_axis_flag_and_layout(dtype, layout, kernels, operator):
    rng = np.random.default_rng(abs(hash((str(dtype), layout))) % 2**32)
    for shape in SHAPES:
        for _ in range(3):
            data = LAYOUTS[layout](sample(dtype, shape, rng), rng)
            before = data.copy()
            for axis in range(-data.ndim, data.ndim):
                for keepdims, last in itertools.product((0, 1), (0, 1)):
                    result = operator.function(data, axis, keepdims, last)
                    check_op(operator, result, data, axis, keepdims, last)
            assert data.tobytes() == before.tobytes()


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
@pytest.mark.parametrize("opset", OPSETS)
def test_opsets(dtype, opset, operator):
    if dtype == oracle.BFLOAT16 and opset < 13:
        pytest.skip("bfloat16 is refused before opset 13 (tested in test_bad_input)")
    rng = np.random.default_rng(opset)
    op = getattr(OPSETS[opset], operator.name)
    for shape in SHAPES:
        data = sample(dtype, shape, rng)
        for axis in range(-data.ndim, data.ndim):
            for keepdims in (0, 1, False, True, np.int64(1), np.bool_(False)):
                check_op(operator, op(data, axis=axis, keepdims=keepdims), data, axis, keepdims, 0)
                if opset >= 12:
                    for last in (0, 1, True, np.uint8(1)):
                        result = op(data, axis=axis, keepdims=keepdims, select_last_index=last)
                        check_op(operator, result, data, axis, keepdims, last)


@pytest.mark.parametrize("opset", OPSETS)
def test_defaults(opset, operator):
    data = np.array([[3, 1, 1], [0, 0, 9]], dtype=np.float32)
    check_op(operator, getattr(OPSETS[opset], operator.name)(data), data, 0, 1, 0)
    check_op(operator, operator.function(data), data, 0, 1, 0)


def test_latest_operators_are_opset13():
    assert argmin.ArgMin is opset13.ArgMin
    assert argmin.ArgMax is opset13.ArgMax


def test_rank_zero_result_is_an_array(operator):
    result = operator.function(np.array([4.0, -1.0, 2.0]), axis=0, keepdims=False)
    assert type(result) is np.ndarray and result.ndim == 0
    assert result == {"ArgMin": 1, "ArgMax": 0}[operator.name]


def test_empty_non_reduced_axis(operator):
    for dtype in oracle.ELEMENT_TYPES:
        data = np.zeros((0, 3, 2), dtype)
        for axis, keepdims in itertools.product((1, 2, -1), (0, 1)):
            check_op(operator, operator.function(data, axis, keepdims), data, axis, keepdims, 0)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_array_likes(dtype, operator):
    values = sample(dtype, (3, 4), np.random.default_rng(7))

    class Wrapper:
        def __array__(self, dtype=None, copy=None):
            return values

    for data in (values.tolist(), tuple(map(tuple, values.tolist())), Wrapper()):
        if isinstance(data, (list, tuple)) and dtype.kind not in "iu":
            continue  # Python floats become float64
        result = operator.function(data, axis=1)
        # As numpy converts them: lists of ints become int64, or float64 beyond int64.
        check_op(operator, result, np.asarray(data), 1, 1, 0)
    floats = [[2.5, -1.0], [0.0, 7.0]]
    check_op(operator, operator.function(floats, axis=1), np.array(floats), 1, 1, 0)


@pytest.mark.parametrize("dtype", oracle.INTEGER_TYPES, ids=str)
def test_integers_compare_exactly(dtype, operator):
    # Values that collide when rounded through float64 (or float32).
    info = np.iinfo(dtype)
    big = info.max
    data = np.array([big, big - 1, big], dtype=dtype)
    check_op(operator, operator.function(data), data, 0, 1, 0)
    data = np.array([info.min + 1, info.min, info.min + 1], dtype=dtype)
    check_op(operator, operator.function(data, select_last_index=True), data, 0, 1, 1)


def test_int64_and_uint64_beyond_float(operator):
    # Values that float64 rounds to one: ArgMin's index, then ArgMax's.
    expected = {"ArgMin": (1, 1, 0, 2), "ArgMax": (0, 2, 1, 0)}[operator.name]
    data = np.array([2**53 + 1, 2**53, 2**53 + 1], dtype=np.int64)
    assert operator.function(data) == expected[0]
    data = np.array([2**63, 5, 2**64 - 1], dtype=np.uint64)
    assert operator.function(data) == expected[1]
    data = np.array([2**53, 2**53 + 1, 2**53], dtype=np.int64)
    assert operator.function(data) == expected[2]
    data = np.array([2**64 - 1, 2**64 - 2, 5], dtype=np.uint64)
    assert operator.function(data) == expected[3]


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_float_order(dtype, operator):
    def run(values, last=False):
        data = np.array(values, dtype=np.float64).astype(dtype)
        result = operator.function(data, select_last_index=last)
        check_op(operator, result, data, 0, 1, last)
        return int(result[0])

    nan, inf = np.nan, np.inf
    tiny = float((oracle.special_values(dtype)[11]))  # smallest subnormal
    # Each case: values, last, ArgMin's index, ArgMax's index.
    cases = [([1.0, nan, -inf, nan], False, 1, 1), ([1.0, nan, -inf, nan], True, 3, 3),
             ([0.0, -0.0, 1.0], False, 0, 2), ([0.0, -0.0, 1.0], True, 1, 2),
             ([0.0, -0.0, -1.0], True, 2, 1), ([-0.0, 0.0, -1.0], False, 2, 0),
             ([inf, -inf, -inf, 3.0], False, 1, 0), ([inf, -inf, -inf, 3.0], True, 2, 0),
             ([-inf, inf, inf, nan], False, 3, 3), ([-inf, inf, inf, 3.0], True, 0, 2),
             ([tiny, 0.0, -tiny], False, 2, 0), ([tiny, 0.0], False, 1, 0)]
    for values, last, at_min, at_max in cases:
        assert run(values, last) == (at_max if operator.name == "ArgMax" else at_min), values
