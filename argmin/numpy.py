"""numpy's ``argmin`` and ``argmax``, with numpy's signature, computed by argmin's kernels.

`argmin`, `argmax`, `nanargmin` and `nanargmax` take the arguments of
`numpy.argmin`, `numpy.argmax`, `numpy.nanargmin` and `numpy.nanargmax`,
with the same defaults, and give the same results, of the same types, with
the same exceptions.  Arrays of the twelve ONNX element
types are read in place by argmin's kernels, and ``out`` is written by them
directly.  Anything else is handed to numpy itself: other element types
(bool, complex, datetime64, timedelta64, object, strings), array
subclasses, objects with an ``argmin``/``argmax`` method or numpy's
``__array_function__`` protocol, empty and 0-d arrays, and arguments that
numpy refuses, so that numpy raises its own exception.
"""

import operator

import numpy as np

from . import _api

__all__ = ["argmax", "argmin", "nanargmax", "nanargmin"]


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg_reduce(a, axis, out, keepdims, maximum=False)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg_reduce(a, axis, out, keepdims, maximum=True)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _arg_reduce(a, axis, out, keepdims, maximum=False, skip_nan=True)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _arg_reduce(a, axis, out, keepdims, maximum=True, skip_nan=True)


# The Returns section of the four docstrings.
_RETURNS = """Returns
-------
numpy.intp or numpy.ndarray of intp
    The indices, of ``a``'s shape without ``d_axis`` (with length 1 there
    under ``keepdims``); a scalar when that shape is ``()`` and ``out`` is
    not given; ``out`` itself when given.  With ``axis=None``, an index
    into the flattened array."""

_DOC = """Indices of the {extreme} values along an axis, as `numpy.{name}` gives them.

A drop-in for `numpy.{name}`, computed by argmin's kernels (ONNX {op}-13
semantics, which are numpy's: the first index on ties, the first NaN
counting as the {extreme}, -0.0 equal to +0.0).

Parameters
----------
a : array_like, shape (d_0, ..., d_{{r-1}})
    Input.  A numpy array of element type float16, bfloat16
    (``ml_dtypes.bfloat16``), float32, float64, int8, int16, int32,
    int64, uint8, uint16, uint32 or uint64, in any layout or byte order,
    is read in place (but for a byte order other than the machine's);
    other inputs are handled by `numpy.{name}` itself.
axis : int, optional
    The axis to reduce, in ``[-r, r - 1]``.  By default the flattened
    array, in C order, is reduced: without a copy, whatever the layout.
out : numpy.ndarray, optional
    Where to write the result: of the result's shape, and of a type that
    numpy casts ``intp`` to.  A C-contiguous ``intp`` array is written by
    the kernels directly.
keepdims : bool, default False
    Keep the reduced axes with length 1.

{returns}

Raises
------
numpy.exceptions.AxisError
    If ``axis`` is out of range.
TypeError
    If ``axis`` is not an integer, ``out`` is not an array, or ``intp``
    does not cast safely to ``out``'s type.
ValueError
    If ``a`` is empty along the reduced axis (or empty, with
    ``axis=None``), or ``out`` has the wrong shape.

Examples
--------
>>> import numpy as np
>>> import argmin.numpy
>>> x = np.array([[4, 1, 1], [0, 7, 0]], dtype=np.float32)
>>> int(argmin.numpy.{name}(x))
{flat}
>>> argmin.numpy.{name}(x, axis=1)
array({rows})
>>> buf = np.empty(3, dtype=np.intp)
>>> argmin.numpy.{name}(x, axis=0, out=buf) is buf
True
"""

argmin.__doc__ = _DOC.format(extreme="minimum", name="argmin", op="ArgMin", flat=3,
                             rows="[1, 0]", returns=_RETURNS)
argmax.__doc__ = _DOC.format(extreme="maximum", name="argmax", op="ArgMax", flat=4,
                             rows="[0, 1]", returns=_RETURNS)

_NAN_DOC = """Indices of the {extreme} numbers along an axis, NaN skipped, as `numpy.{name}`.

A drop-in for `numpy.{name}`, computed by argmin's kernels in one pass over
``a``, read in place and never modified.  Every number beats NaN: the
index of the {extreme} number of each slice, the first among equal ones
(-0.0 equal to +0.0).  An integer array gives what `numpy.{plain}` gives.
Two cases differ from numpy's (see the semantics page): bfloat16
(``ml_dtypes.bfloat16``) skips NaN here, where numpy's does not; and where
a slice's only numbers are {infinity}, numpy's can give a NaN's index (it
reads NaN as {infinity}), this one the first {infinity}'s.  Array subclasses
and an ``out`` of another type than ``intp`` are handed to numpy's own.

Parameters
----------
a : array_like, shape (d_0, ..., d_{{r-1}})
    Input.  A numpy array of element type float16, bfloat16, float32,
    float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64, in
    any layout or byte order, is read in place (but for a byte order other
    than the machine's); other inputs are handled by `numpy.{name}`
    itself.
axis : int, optional
    The axis to reduce, in ``[-r, r - 1]``.  By default the flattened
    array, in C order, is reduced: without a copy, whatever the layout.
out : numpy.ndarray, optional
    Where to write the result: of the result's shape, and of a type that
    numpy casts ``intp`` to.  Left as it was where an error is raised.
keepdims : bool, default False
    Keep the reduced axes with length 1.

{returns}

Raises
------
ValueError
    ``"All-NaN slice encountered"`` where a slice (with ``axis=None``, the
    whole array) holds only NaN, as numpy's does; if ``a`` is empty along
    the reduced axis, or ``out`` has the wrong shape.
numpy.exceptions.AxisError
    If ``axis`` is out of range.
TypeError
    If ``axis`` is not an integer, ``out`` is not an array, or ``intp``
    does not cast safely to ``out``'s type.

See Also
--------
argmin.{name} : the same with an index of your choice for all-NaN slices.

Examples
--------
>>> import numpy as np
>>> import argmin.numpy
>>> x = np.array([[np.nan, 4.0, 1.0], [0.0, np.nan, 7.0]], dtype=np.float32)
>>> int(argmin.numpy.{name}(x))
{flat}
>>> argmin.numpy.{name}(x, axis=1)
array({rows})
"""

nanargmin.__doc__ = _NAN_DOC.format(extreme="minimum", name="nanargmin", plain="argmin",
                                    infinity="+inf", flat=3, rows="[2, 0]", returns=_RETURNS)
nanargmax.__doc__ = _NAN_DOC.format(extreme="maximum", name="nanargmax", plain="argmax",
                                    infinity="-inf", flat=5, rows="[1, 2]", returns=_RETURNS)


def _arg_reduce(a, axis, out, keepdims, maximum, skip_nan=False):
    """`argmin` (`argmax` with ``maximum``; `nanargmin` and `nanargmax` with ``skip_nan``):
    the kernels where they apply, numpy otherwise.  The kernels' compiled entry answers the
    common call of `argmin` and `argmax`; this handles the others."""
    if out is None and not skip_nan:
        found = _api.kernels.quick_numpy(a, axis, keepdims, maximum)
        if found is not None:
            return found
    if type(a) is not np.ndarray:
        name = _name(maximum, skip_nan)
        if isinstance(a, np.ndarray) or hasattr(a, name) or hasattr(a, "__array_function__"):
            return _numpy(a, axis, out, keepdims, maximum, skip_nan)
        a = np.asarray(a)
    data = _native(a)
    keepdims = bool(keepdims)
    if data is None or data.ndim == 0 or data.size == 0:
        return _numpy(a, axis, out, keepdims, maximum, skip_nan)
    if axis is not None:
        try:
            axis = operator.index(axis)
        except TypeError:
            return _numpy(a, axis, out, keepdims, maximum, skip_nan)
        if not -data.ndim <= axis < data.ndim:
            return _numpy(a, axis, out, keepdims, maximum, skip_nan)
        axis %= data.ndim
    shape = _result_shape(data.shape, axis, keepdims)
    if out is None:
        indices = _reduce(data, axis, keepdims, maximum, skip_nan)
        return indices[()] if indices.ndim == 0 else indices
    if not _takes_result(out, shape):
        return _numpy(a, axis, out, keepdims, maximum, skip_nan)
    if axis is not None and not skip_nan and _writes_directly(out, data):
        return _api.reduce_checked(data, axis, keepdims, last=False, maximum=maximum, out=out)
    out[...] = _reduce(data, axis, keepdims, maximum, skip_nan)
    return out


def _name(maximum, skip_nan):
    """The name of numpy's function: argmin, argmax, nanargmin or nanargmax."""
    return ("nan" if skip_nan else "") + ("argmax" if maximum else "argmin")


def _numpy(a, axis, out, keepdims, maximum, skip_nan=False):
    """numpy's own answer (or exception); ``keepdims`` passed only when set, as numpy's
    default passes it to an ``argmin``/``argmax`` method only then."""
    function = getattr(np, _name(maximum, skip_nan))
    if keepdims:
        return function(a, axis=axis, out=out, keepdims=True)
    return function(a, axis=axis, out=out)


def _native(a):
    """``a`` in the native byte order of its element type, or None if that is not one of
    the twelve the kernels read."""
    dtype = a.dtype
    if dtype in _api._ACCEPTED[13] and dtype.names is None:
        return a
    try:
        return a.astype(_api.native_type(dtype, 13), copy=False)
    except TypeError:
        return None


def _result_shape(shape, axis, keepdims):
    """The shape of the result: ``shape`` without ``axis`` (all of it for None), or with
    length 1 there under ``keepdims``."""
    if axis is None:
        return (1,) * len(shape) if keepdims else ()
    return shape[:axis] + ((1,) if keepdims else ()) + shape[axis + 1:]


def _takes_result(out, shape):
    """Whether ``out`` is a writeable ``intp`` array of ``shape``; any other ``out`` is left
    to numpy, which casts to it or refuses it."""
    return (isinstance(out, np.ndarray) and out.dtype == np.intp and out.dtype.isnative
            and out.shape == shape and out.flags.writeable)


def _writes_directly(out, data):
    """Whether the kernels may write the result into ``out`` itself: a plain aligned
    C-contiguous array, apart from ``data``."""
    flags = out.flags
    return (type(out) is np.ndarray and flags.c_contiguous and flags.aligned
            and not np.may_share_memory(out, data))


def _reduce(data, axis, keepdims, maximum, skip_nan=False):
    """The indices of ``data`` (native, non-empty, of rank >= 1) along ``axis``, or into
    its C-order flattening for None, as a new array of the result's shape.

    Raises
    ------
    ValueError
        With ``skip_nan``, where a slice holds only NaN.
    """
    if axis is not None and not skip_nan:
        return _api.reduce_checked(data, axis, keepdims, last=False, maximum=maximum)
    if axis is not None:
        values, indices = _api.reduce_checked(data, axis, keepdims, last=False,
                                              maximum=maximum, values=True, skip_nan=True)
        if _api.kernels.settle_all_nan(values, indices, None) >= 0:
            raise ValueError("All-NaN slice encountered")
        return indices
    index = _flat_index(data, maximum, skip_nan)
    if skip_nan and np.isnan(float(data[np.unravel_index(index, data.shape)])):
        raise ValueError("All-NaN slice encountered")
    return np.full((1,) * data.ndim if keepdims else (), index, dtype=np.intp)


def _flat_index(data, maximum, skip_nan):
    """The index of the minimum (maximum) of ``data`` flattened in C order, read in place;
    with ``skip_nan``, of its minimum (maximum) number, where it has one.

    The innermost axes that one stride walks in C order are merged into one,
    a view: data[outer, inner].  Each row's winner and its value are found in
    one pass; the first winning row holds the first winning element in C order,
    since rows are in C order and each row's winner is its first.
    """
    rows = _merge_inner(data)
    if rows.ndim == 1:
        return int(_api.reduce_checked(rows, 0, keepdims=False, last=False, maximum=maximum,
                                       skip_nan=skip_nan))
    values, indices = _api.reduce_checked(rows, rows.ndim - 1, keepdims=False, last=False,
                                          maximum=maximum, values=True, skip_nan=skip_nan)
    row = _flat_index(values, maximum, skip_nan)
    return row * rows.shape[-1] + int(indices.reshape(-1)[row])


def _merge_inner(data):
    """``data`` as a view whose last axis merges its innermost axes that are evenly spaced in
    C order (all of them, for a 1-d view, where one stride walks the whole array)."""
    shape, strides = data.shape, data.strides
    inner, step, d = 1, None, data.ndim
    while d > 0:
        length = shape[d - 1]
        if length != 1:
            if step is not None and strides[d - 1] != step * inner:
                break
            if step is None:
                step = strides[d - 1]
            inner *= length
        d -= 1
    return data.reshape(shape[:d] + (inner,))
