"""argmin.numpy against numpy itself: the behaviours numpy's own argmin and argmax tests check
(numpy/_core/tests/test_multiarray.py), for the same arguments, results, types and errors."""

import inspect
import itertools
import tracemalloc

import numpy as np
import pytest

import argmin.numpy

from . import oracle
from .layouts import LAYOUTS

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

PAIRS = {"argmin": (argmin.numpy.argmin, np.argmin), "argmax": (argmin.numpy.argmax, np.argmax)}
# Shapes and axes of numpy's keepdims cases.
SIZES = [(), (3,), (3, 2), (2, 3), (3, 3), (2, 3, 4), (4, 3, 2), (1, 2, 3, 4), (2, 3, 4, 1),
         (3, 4, 1, 2), (4, 1, 2, 3)]
AXES = [None, 0, 1, 2, 3, -1]


@pytest.fixture(params=list(PAIRS))
def pair(request):
    """argmin.numpy's function and numpy's, for argmin and for argmax."""
    return PAIRS[request.param]


def same(actual, expected):
    """The same result: value, type, and for arrays shape and element type."""
    assert type(actual) is type(expected)
    if isinstance(expected, np.ndarray):
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def raised(function, *args, **kwargs):
    """The type and message of what function(*args, **kwargs) raises."""
    with pytest.raises(Exception) as error:
        function(*args, **kwargs)
    return error.type, str(error.value)


def test_signature_is_numpys(pair):
    ours, theirs = (inspect.signature(f).parameters for f in pair)
    assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()]
    assert [ours[name].default for name in ("axis", "out")] == [None, None]
    assert ours["keepdims"].default is False


def known_cases():
    """numpy's cases with known ArgMin answers: runs of ties, signed patterns, and NaN placed
    at the ends of vector blocks, for every integer and float type."""
    unsigned = [([1] * 8 + [0] * 7, 8), ([3, 3, 3, 3, 2, 2, 2, 2], 4),
                ([0, 1, 2, 3, 4, 5, 6, 7], 0), ([7, 6, 5, 4, 3, 2, 1, 0], 7)]
    signed = unsigned + [([1, 2, 3, 4, -4, -3, -2, -1], 4), ([1, 2, 3, 4, -1, -2, -3, -4], 7)]
    nans = [([0, 1, 2, 3, np.nan], 4), ([0, 1, 2, np.nan, 3], 3), ([np.nan, 0, 1, 2, 3], 0),
            ([np.nan, 0, np.nan, 2, 3], 0)]
    nans += [([1] * (k * 5 - 1) + [np.nan], k * 5 - 1) for k in (2, 4, 8, 16, 32)]
    for values, index in unsigned:
        for dtype in oracle.INTEGER_TYPES:
            yield np.array(values, dtype=dtype), index
    for values, index in signed:
        for dtype in [t for t in oracle.ELEMENT_TYPES if t.kind in "if" or t == oracle.BFLOAT16]:
            yield np.array(values).astype(dtype), index
    for values, index in nans:
        for dtype in oracle.FLOAT_TYPES:
            yield np.array(values).astype(dtype), index


@pytest.mark.parametrize("name", list(PAIRS))
def test_known_answers(name):
    ours, theirs = PAIRS[name]
    opposite = PAIRS["argmin" if name == "argmax" else "argmax"][1]
    for x, index in known_cases():
        if name == "argmax":  # the minimum becomes the maximum, NaN stays NaN
            x = x.max() - x if x.dtype.kind == "u" else -x
        same(ours(x), theirs(x))
        assert ours(x) == index, (x, x.dtype)
        # Losing values past a few vector blocks.
        numbers = x[~np.isnan(x.astype(np.float64))]
        losers = np.repeat(numbers[opposite(numbers)], 513)
        assert ours(np.concatenate([x, losers])) == index
        assert ours(np.concatenate([losers, x])) == index + 513


@pytest.mark.parametrize("dtype", oracle.INTEGER_TYPES, ids=str)
def test_extreme_signed_and_unsigned_values(dtype, pair):
    info = np.iinfo(dtype)
    for values in ([1, info.min, info.min + 1, info.max], [info.max, 0, info.max, info.min],
                   [info.min] * 3 + [info.max] * 3):
        x = np.array(values, dtype=dtype)
        same(pair[0](x), pair[1](x))


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("axis", AXES)
def test_axes_keepdims_and_out(size, axis, pair):
    ours, theirs = pair
    rng = np.random.default_rng(len(size))
    x = rng.normal(size=size)
    try:
        theirs(x, axis=axis)
    except np.exceptions.AxisError:
        assert raised(ours, x, axis=axis) == raised(theirs, x, axis=axis)
        return
    for data in (x, x.T, np.asfortranarray(x)):
        expected = theirs(data, axis=axis)
        same(ours(data, axis=axis), expected)
        kept = theirs(data, axis=axis, keepdims=True)
        same(ours(data, axis=axis, keepdims=True), kept)
        for shape, keepdims in ((np.shape(expected), False), (kept.shape, True)):
            for out in (np.empty(shape, dtype=np.intp),
                        np.empty(shape + (2,), dtype=np.intp)[..., 0]):
                assert ours(data, axis, out, keepdims=keepdims) is out
                np.testing.assert_array_equal(out, theirs(data, axis, keepdims=keepdims))
        if kept.ndim:
            wrong = list(kept.shape)
            wrong[axis if axis is not None else 0] = 2
            out = np.empty(wrong, dtype=np.intp)
            assert raised(ours, data, axis, out, keepdims=True) == raised(
                theirs, data, axis, np.empty(wrong, dtype=np.intp), keepdims=True)


def test_output_shape_and_type_refused_as_numpy_does(pair):
    ours, theirs = pair
    x = np.ones((10, 5))
    for out in (np.ones(11, dtype=np.intp), np.ones((2, 5), dtype=np.intp),
                np.ones((1, 10), dtype=np.intp), np.ones(10, dtype=np.float64),
                np.ones(10, dtype=np.uint64), [0] * 10):
        assert raised(ours, x, -1, out) == raised(theirs, x, -1, out)
    readonly = np.ones(10, dtype=np.intp)
    readonly.flags.writeable = False
    assert raised(ours, x, -1, readonly) == raised(theirs, x, -1, readonly)
    out = np.ones(10, dtype=np.intp)
    assert ours(x, -1, out=out) is out
    np.testing.assert_array_equal(out, theirs(x, -1))


@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.dtype(">i8")], ids=str)
def test_out_of_another_integer_type(dtype, pair):
    # numpy casts its intp result to these.
    ours, theirs = pair
    x = np.random.default_rng(3).normal(size=(4, 6))
    mine, numpys = np.zeros(6, dtype=dtype), np.zeros(6, dtype=dtype)
    assert ours(x, 0, mine) is mine
    theirs(x, 0, numpys)
    same(mine, numpys)


@pytest.mark.parametrize("ndim", [0, 1, 2])
def test_result_is_out(ndim, pair):
    x = np.ones((4,) + (256,) * ndim)
    out = np.empty((256,) * ndim, dtype=np.intp)
    assert pair[0](x, axis=0, out=out) is out


def test_positional_axis_and_out_as_ndarray_methods_take_them(pair):
    ours, theirs = pair
    x = np.random.default_rng(4).normal(size=(2, 3))
    out1, out2 = np.zeros(2, dtype=np.intp), np.zeros(2, dtype=np.intp)
    same(ours(x, 1, out1), theirs(x, 1, out2))
    same(out1, out2)
    out1, out2 = np.zeros(3, dtype=np.intp), np.zeros(3, dtype=np.intp)
    same(ours(x, out=out1, axis=0), getattr(x, theirs.__name__)(out=out2, axis=0))


@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_onnx_types_in_every_layout(dtype, layout, keepdims, axis, pair):
    rng = np.random.default_rng(abs(hash((str(dtype), layout))) % 2**32)
    pool = np.concatenate([oracle.special_values(dtype), np.arange(-3, 4).astype(dtype)])
    for shape in [(1,), (7,), (3, 4), (2, 3, 5), (40, 3)]:
        x = LAYOUTS[layout](rng.choice(pool, size=shape), rng)
        before = x.tobytes()
        expected = pair[1](oracle.exact(x), axis=axis, keepdims=keepdims)
        same(pair[0](x, axis=axis, keepdims=keepdims), expected)
        assert x.tobytes() == before


@pytest.mark.parametrize("x", [
    np.array([0, 1, 2, 3, complex(0, np.nan)]),
    np.array([complex(1, 0), complex(1, 1), complex(0, 3)]),
    np.array(["2010", "NaT", "2030"], dtype="M8[D]"),
    np.array([3, -1, "NaT"], dtype="m8[s]"),
    np.array([False, False, True, False]),
    np.array(["aa", "b", "ab"]),
    np.array([3, None, 1], dtype=object)[[0, 2]],
    np.array([b"zz", b"a"]),
], ids=["complex nan", "complex", "datetime64", "timedelta64", "bool", "str", "object", "bytes"])
def test_other_types_are_numpys(x, pair):
    for axis, keepdims in itertools.product((None, 0, -1), (False, True)):
        same(pair[0](x, axis, keepdims=keepdims), pair[1](x, axis, keepdims=keepdims))


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_array_likes_and_subclasses_are_numpys(pair):
    ours, theirs = pair
    nested = [[3, 1, 2], [0, 5, 4]]
    for axis in (None, 0, 1):
        same(ours(nested, axis), theirs(nested, axis))
    same(ours(5), theirs(5))
    same(ours(2.5, axis=None, keepdims=True), theirs(2.5, axis=None, keepdims=True))
    masked = np.ma.array([3.0, 1.0, 2.0], mask=[False, True, False])
    same(ours(masked), theirs(masked))
    matrix = np.matrix([[3, 1], [0, 2]])
    same(ours(matrix, axis=0), theirs(matrix, axis=0))


def test_refusals_are_numpys(pair):
    ours, theirs = pair
    x = np.ones((2, 3), dtype=np.float32)
    for args, kwargs in [((x, 2), {}), ((x, -3), {}), ((x, 1.0), {}), ((x, (0,)), {}),
                         ((np.empty((0, 3)),), {}), ((np.empty((0, 3)), 0), {}),
                         ((np.array(1.0), 1), {})]:
        assert raised(ours, *args, **kwargs) == raised(theirs, *args, **kwargs)
    same(ours(np.empty((0, 3)), 1), theirs(np.empty((0, 3)), 1))
    same(ours(x, np.int64(1)), theirs(x, np.int64(1)))


def allocated(function, *args, **kwargs):
    """Bytes numpy allocated at most during function(*args, **kwargs)."""
    tracemalloc.start()
    try:
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_out_is_written_without_a_temporary(pair):
    x = np.random.default_rng(5).normal(size=(100_000, 2))
    out = np.empty(100_000, dtype=np.intp)
    assert allocated(pair[0], x, 1, out) < out.nbytes // 10
    np.testing.assert_array_equal(out, pair[1](x, 1))


def test_flattened_strided_input_is_not_copied(pair):
    # The whole array, in C order, from views that no single stride walks.
    x = np.random.default_rng(6).normal(size=(400, 600))
    for view in (x[:, ::2], x[::3, 1:-1], x.T, x[::-1, ::-2]):
        assert allocated(pair[0], view) < view.nbytes // 10
        same(pair[0](view), pair[1](view))
