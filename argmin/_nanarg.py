"""nanargmin and nanargmax: what ``all_nan`` takes, the error of an all-NaN slice, the docstring.

The calls themselves run in the kernels (``nanargmin``, ``nanargmax`` and ``settle_all_nan``),
or through `argmin._api.nan_reduce`.
"""

import operator

import numpy as np

#: The operators, in the order of `argmin._rules.OPERATORS`.
NAMES = ("nanargmin", "nanargmax")


def placeholder_of(all_nan, op):
    """None for ``all_nan="raise"``, else the int ``all_nan`` of the function named ``op``.

    Raises
    ------
    TypeError
        For anything but ``"raise"`` or an integer (a bool is not one).
    ValueError
        For another string, or an integer that int64 does not hold.
    """
    if type(all_nan) is int and -2**63 <= all_nan < 2**63:
        return all_nan
    if isinstance(all_nan, str):
        if all_nan != "raise":
            raise ValueError(f"{op}: all_nan must be 'raise' or an integer index, "
                             f"got {all_nan!r}")
        return None
    if isinstance(all_nan, (bool, np.bool_)):
        raise TypeError(f"{op}: all_nan must be 'raise' or an integer index, got {all_nan!r}")
    try:
        placeholder = operator.index(all_nan)
    except TypeError:
        raise TypeError(f"{op}: all_nan must be 'raise' or an integer index, got "
                        f"{type(all_nan).__name__} {all_nan!r}") from None
    if not -2**63 <= placeholder < 2**63:
        raise ValueError(f"{op}: all_nan={placeholder} does not fit the int64 indices")
    return placeholder


def all_nan_error(first, shape, op, axis, keepdims, located=True):
    """The ValueError of an all-NaN slice, the one at position ``first`` (C order) of a result
    of ``shape``, that names it as ``data[i, ..., :, ...]`` (``:`` at ``axis``, a valid axis of
    ``data``) where ``located`` (the shape is the whole result's), or its axis only otherwise."""
    axis = operator.index(axis) % (len(shape) if keepdims else len(shape) + 1)
    at = [str(i) for i in np.unravel_index(first, shape)]
    if keepdims:
        at[axis] = ":"
    else:
        at.insert(axis, ":")
    where = f"data[{', '.join(at)}]" if located else f"a slice along axis {axis}"
    return ValueError(
        f"All-NaN slice encountered: {op} of {where} has no number to give the index of; "
        "pass all_nan=-1 (or another integer) to get that index for such slices instead")


_DOC = """Indices of the {extreme} numbers of ``data`` along ``axis``, NaN skipped.

ONNX {op}-13 (`argmin.{plain}`) with NaN read as a missing value rather
than as the {extreme}: every number beats NaN, so each slice gives the
index of its {extreme} number, the first among equal ones (or the last,
with ``select_last_index``), -0.0 equal to +0.0.  This is
`numpy.{name}`'s rule (pandas' ``idx{short}`` and xarray's ``arg{short}``
skip NaN the same way), computed in one pass over ``data``, which is
read in place and never modified (byte-swapped input alone is converted
first), on the kernels and threads of `argmin.{plain}`.  Integer types
have no NaN: they give what `argmin.{plain}` gives.

Parameters
----------
data : array_like, shape (d_0, ..., d_{{r-1}})
    Input of rank ``r >= 1``, of element type float16, bfloat16
    (``ml_dtypes.bfloat16``), float32, float64, int8, int16, int32, int64,
    uint8, uint16, uint32 or uint64, in any memory layout or byte order.
axis : int, default 0
    The axis to reduce, in ``[-r, r - 1]``.
keepdims : bool, default True
    Keep the reduced axis with length 1, or drop it.
select_last_index : bool, default False
    Among equal {extreme} numbers, give the last index instead of the
    first.
all_nan : "raise" or int, default "raise"
    What a slice that holds only NaN gives: ``"raise"`` raises ValueError,
    as `numpy.{name}` does, naming the first such slice; an integer (for
    example ``-1``) is put in the result in that slice's place.
num_threads : int, optional
    At most this many threads, as for `argmin.{plain}`.

Returns
-------
numpy.ndarray of int64
    Shape ``(d_0, ..., 1, ..., d_{{r-1}})`` with ``keepdims``, or the shape
    without ``d_axis`` otherwise.  C-contiguous and newly allocated; 0-d
    when the result has rank 0.

Raises
------
ValueError
    Where a slice holds only NaN and ``all_nan="raise"``; if the reduced
    axis has length 0; if ``keepdims`` or ``select_last_index`` is not a
    bool or 0 or 1, ``num_threads`` not a positive integer, or ``all_nan``
    another string or an integer beyond int64.
TypeError
    For another element type, a masked array, a non-integer ``axis``, or an
    ``all_nan`` that is neither ``"raise"`` nor an integer.
numpy.exceptions.AxisError
    If ``axis`` is out of range, or ``data`` has rank 0.

See Also
--------
argmin.numpy.{name} : numpy's signature and defaults.
argmin.{plain} : NaN counted as the {extreme}, as ONNX does.

Examples
--------
>>> import numpy as np
>>> import argmin
>>> x = np.array([[np.nan, 4.0, 1.0], [np.nan, np.nan, np.nan]], dtype=np.float32)
>>> argmin.{name}(x, axis=1, keepdims=False, all_nan=-1)
array([ {first}, -1])
>>> argmin.{name}(x[:1], axis=1, keepdims=False)
array([{first}])
"""


def docstring(maximum):
    """The docstring of ``argmin.nanargmin`` (``argmin.nanargmax`` with ``maximum``)."""
    if maximum:
        return _DOC.format(extreme="maximum", op="ArgMax", plain="argmax", name="nanargmax",
                           short="max", first=1)
    return _DOC.format(extreme="minimum", op="ArgMin", plain="argmin", name="nanargmin",
                       short="min", first=2)
