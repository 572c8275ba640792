"""The reference: plain numpy, as the ONNX reference implementation computes ArgMin and ArgMax.

``numpy.argmin`` and ``numpy.argmax`` on an exact upcast (every float type to float64, integers
as they are), with ``numpy.flip`` for ``select_last_index``, as
``onnx.reference`` does.  Nothing here calls argmin.
"""

import ml_dtypes
import numpy as np

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

#: The twelve element types of ONNX ArgMin-13.
ELEMENT_TYPES = (
    np.dtype("float16"), BFLOAT16, np.dtype("float32"), np.dtype("float64"),
    np.dtype("int8"), np.dtype("int16"), np.dtype("int32"), np.dtype("int64"),
    np.dtype("uint8"), np.dtype("uint16"), np.dtype("uint32"), np.dtype("uint64"),
)
FLOAT_TYPES = tuple(t for t in ELEMENT_TYPES if t.kind == "f" or t == BFLOAT16)
INTEGER_TYPES = tuple(t for t in ELEMENT_TYPES if t.kind in "iu")


def is_float(dtype):
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or dtype.newbyteorder("=") == BFLOAT16


def exact(x):
    """``x`` in a type numpy compares exactly: floats as float64."""
    x = np.asarray(x)
    return x.astype(np.float64) if is_float(x.dtype) else x.astype(x.dtype.newbyteorder("="))


def _reduce(find, x, axis, keepdims, select_last_index):
    """``find`` (numpy.argmin or numpy.argmax) as ONNX computes it: int64, the first (or last)
    index, on the exact upcast."""
    y = exact(x)
    if select_last_index:
        n = y.shape[axis]
        result = n - 1 - find(np.flip(y, axis), axis=axis, keepdims=bool(keepdims))
    else:
        result = find(y, axis=axis, keepdims=bool(keepdims))
    return np.asarray(result, dtype=np.int64)


def argmin(x, axis=0, keepdims=True, select_last_index=False):
    """ONNX ArgMin by numpy: the first (or last) index of the minimum, NaN first."""
    return _reduce(np.argmin, x, axis, keepdims, select_last_index)


def argmax(x, axis=0, keepdims=True, select_last_index=False):
    """ONNX ArgMax by numpy: the first (or last) index of the maximum, NaN first."""
    return _reduce(np.argmax, x, axis, keepdims, select_last_index)


def _nan_reduce(find, x, axis, keepdims, select_last_index, all_nan):
    """``find`` (numpy.nanargmin or numpy.nanargmax) on the exact upcast, int64, the first
    (or last) index, with ``all_nan`` for a slice that holds only NaN (where numpy raises).
    Where numpy's lands on a NaN (it reads NaN as the infinity the slice's only numbers
    are), the first (last) of those infinities instead."""
    y = exact(x)
    if select_last_index:
        y = np.flip(y, axis)
    nan = np.isnan(y) if is_float(x.dtype) else np.zeros(y.shape, bool)
    empty = nan.all(axis=axis, keepdims=True)
    result = find(np.where(empty, 0, y), axis=axis, keepdims=True)
    if is_float(x.dtype):
        landed = np.take_along_axis(nan, result, axis) & ~empty
        infinity = np.inf if find is np.nanargmin else -np.inf
        result = np.where(landed, np.argmax(y == infinity, axis, keepdims=True), result)
    if select_last_index:
        result = y.shape[axis] - 1 - result
    result = np.where(empty, all_nan, result).astype(np.int64)
    return result if keepdims else np.squeeze(result, axis)


def nanargmin(x, axis=0, keepdims=True, select_last_index=False, all_nan=-1):
    """numpy.nanargmin as `argmin.nanargmin` promises it: NaN skipped, ``all_nan`` for a slice
    of NaN only."""
    return _nan_reduce(np.nanargmin, x, axis, keepdims, select_last_index, all_nan)


def nanargmax(x, axis=0, keepdims=True, select_last_index=False, all_nan=-1):
    """numpy.nanargmax likewise."""
    return _nan_reduce(np.nanargmax, x, axis, keepdims, select_last_index, all_nan)


def elements_at(x, indices, axis, keepdims):
    """The elements of ``x`` at ``indices`` along ``axis`` (a result of `argmin` or `argmax`
    with those ``keepdims``), in the native byte order of x's type: what a values-and-indices
    reduction gives."""
    x = np.asarray(x)
    x = x.astype(x.dtype.newbyteorder("="), copy=False)
    if not keepdims:
        indices = np.expand_dims(indices, axis)
    found = np.take_along_axis(x, indices, axis)
    return found if keepdims else np.squeeze(found, axis)


def assert_same_bits(actual, expected):
    """``actual`` and ``expected`` are arrays of one type, shape and bits (NaN payloads,
    signed zeros)."""
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    bits = f"u{actual.dtype.itemsize}"
    np.testing.assert_array_equal(actual.view(bits), expected.view(bits))


def special_values(dtype):
    """Values that test the order: extremes, ties, and for floats NaN, +-0, +-inf, subnormals."""
    dtype = np.dtype(dtype)
    if is_float(dtype):
        info = ml_dtypes.finfo(dtype) if dtype == BFLOAT16 else np.finfo(dtype)
        values = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0,
                  float(info.max), float(info.min), float(info.tiny),
                  float(info.smallest_subnormal), -float(info.smallest_subnormal)]
        return np.array(values, dtype=np.float64).astype(dtype)
    info = np.iinfo(dtype)
    values = [info.min, info.min + 1, info.max, info.max - 1, 0, 1]
    if info.min < 0:
        values += [-1]
    return np.array(values, dtype=dtype)
