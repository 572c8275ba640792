"""ONNX ArgMin and ArgMax (opset 13) for Dask arrays, computed chunk by chunk by argmin.

`ArgMin` and `ArgMax` build a lazy tree reduction: argmin's kernel reduces
each chunk to the index and the value of its minimum (or maximum), in one
pass (`argmin.min_argmin`, `argmin.max_argmax`), and a
combine step picks, among neighbouring chunks, the one whose value wins,
comparing the values with the same kernel (in the element type itself, NaN
winning, ties to the first chunk or, with ``select_last_index``, the last).
`nanargmin` and `nanargmax` do the same with NaN skipped (`argmin.nanargmin`),
so that a chunk whose slice holds only NaN, whose value is NaN, loses to any
other: only a slice that is all NaN in every chunk gives ``all_nan``.
Needs the ``dask`` extra (``pip install '.[dask]'`` from the source); runs on
any Dask scheduler, including ``dask.distributed``.
"""

import functools
import itertools
import math

import numpy as np

from . import _api, _extras, _nanarg, _rules

da = _extras.require("dask.array", "argmin.dask", "Dask's arrays, argmin's dask extra",
                     "pip install 'dask[array]' distributed")

__all__ = ["ArgMax", "ArgMin", "nanargmax", "nanargmin"]
__dir__ = _extras.public_dir(__all__)

_OPSET = 13


def ArgMin(x, axis=0, keepdims=1, select_last_index=0, *, split_every=None):
    return _arg_reduce(x, axis, keepdims, select_last_index, split_every, maximum=False)


def ArgMax(x, axis=0, keepdims=1, select_last_index=0, *, split_every=None):
    return _arg_reduce(x, axis, keepdims, select_last_index, split_every, maximum=True)


def nanargmin(x, axis=0, keepdims=True, select_last_index=False, *, all_nan="raise",
              split_every=None):
    return _arg_reduce(x, axis, keepdims, select_last_index, split_every, maximum=False,
                       skip_nan=True,
                       placeholder=_nanarg.placeholder_of(all_nan, "nanargmin"))


def nanargmax(x, axis=0, keepdims=True, select_last_index=False, *, all_nan="raise",
              split_every=None):
    return _arg_reduce(x, axis, keepdims, select_last_index, split_every, maximum=True,
                       skip_nan=True,
                       placeholder=_nanarg.placeholder_of(all_nan, "nanargmax"))


ArgMin.__doc__ = """Lazy indices of the minimum elements of ``x`` along ``axis`` (ONNX ArgMin-13).

    Follows the ONNX operator ArgMin, version 13 (``ai.onnx`` opset 13),
    exactly as `argmin.opset13.ArgMin` does for a numpy array: ties give the
    first index, or the last with ``select_last_index=1``; NaN counts as the
    minimum; -0.0 and +0.0 are equal; integers are compared as integers.
    Indices count from the start of ``x``, across its chunks.  The arguments
    are checked now, with the exceptions `argmin.opset13.ArgMin` raises; the
    data are read when the result is computed.

    Parameters
    ----------
    x : dask.array.Array, shape (d_0, ..., d_{r-1})
        Input of rank ``r >= 1``, of element type float16, bfloat16
        (``ml_dtypes.bfloat16``), float32, float64, int8, int16, int32,
        int64, uint8, uint16, uint32 or uint64, with numpy chunks in any
        layout or byte order, and chunk sizes known along ``axis``.  Any
        other array_like is first turned into one with
        ``dask.array.asarray``.
    axis : int, default 0
        The axis to reduce, in ``[-r, r - 1]``.
    keepdims : {1, 0}, default 1
        Keep the reduced axis with length 1 (1) or drop it (0).
    select_last_index : {0, 1}, default 0
        When the minimum occurs several times (or several NaNs), give the
        first index (0) or the last (1).
    split_every : int or dict, optional
        At most this many chunks along ``axis`` go into one combine step, as
        in `dask.array.reduction`; by default Dask's configuration decides.

    Returns
    -------
    dask.array.Array of int64
        Shape ``(d_0, ..., 1, ..., d_{r-1})`` with ``keepdims=1``, or the
        shape without ``d_axis`` with ``keepdims=0``, chunked like ``x`` on
        the other axes, with one chunk along the reduced axis.

    Raises
    ------
    TypeError
        For another element type, masked chunks (ONNX tensors have no mask),
        or a non-integer ``axis``.
    numpy.exceptions.AxisError
        If ``axis`` is out of range, or ``x`` has rank 0.
    ValueError
        If the reduced axis has length 0, its chunk sizes are unknown, or
        ``keepdims`` or ``select_last_index`` is not 0 or 1.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> import argmin.dask
    >>> x = da.from_array(np.array([[3, 1, 3, 1], [0, 5, 0, 5]], dtype=np.int32),
    ...                   chunks=(1, 2))
    >>> argmin.dask.ArgMin(x, axis=1, keepdims=0).compute()
    array([1, 0])
    >>> argmin.dask.ArgMin(x, axis=1, keepdims=0, select_last_index=1).compute()
    array([3, 2])
    """
# The same contract for the maximum, with the example's answers for it.
ArgMax.__doc__ = (ArgMin.__doc__.replace("ArgMin", "ArgMax").replace("minimum", "maximum")
                  .replace("array([1, 0])", "array([0, 1])")
                  .replace("array([3, 2])", "array([2, 3])"))


nanargmin.__doc__ = """Lazy indices of the minimum numbers of ``x`` along ``axis``, NaN skipped.

    `argmin.nanargmin` for Dask arrays: every number beats NaN, ties give
    the first index (the last with ``select_last_index``), -0.0 equals
    +0.0, and indices count from the start of ``x``, across its chunks.  A
    chunk whose part of a slice is all NaN leaves the slice to the other
    chunks; a slice that is all NaN in every chunk gives ``all_nan``.  The
    arguments are checked now; the data are read, and an all-NaN slice
    raises, when the result is computed.

    Parameters
    ----------
    x : dask.array.Array, shape (d_0, ..., d_{r-1})
        Input of rank ``r >= 1``, of the element types of `argmin.nanargmin`,
        with numpy chunks and chunk sizes known along ``axis``.  Any other
        array_like is first turned into one with ``dask.array.asarray``.
    axis : int, default 0
        The axis to reduce, in ``[-r, r - 1]``.
    keepdims : bool, default True
        Keep the reduced axis with length 1, or drop it.
    select_last_index : bool, default False
        Among equal minimum numbers, give the last index.
    all_nan : "raise" or int, default "raise"
        What a slice that holds only NaN gives: ValueError when computed,
        as `numpy.nanargmin` raises, or this integer in its place.
    split_every : int or dict, optional
        At most this many chunks along ``axis`` go into one combine step, as
        in `dask.array.reduction`.

    Returns
    -------
    dask.array.Array of int64
        The shape of `argmin.nanargmin`'s result, chunked like ``x`` on the
        other axes, with one chunk along the reduced axis.

    Raises
    ------
    TypeError
        For another element type, masked chunks, a non-integer ``axis``, or
        an ``all_nan`` that is neither ``"raise"`` nor an integer.
    numpy.exceptions.AxisError
        If ``axis`` is out of range, or ``x`` has rank 0.
    ValueError
        If the reduced axis has length 0 or unknown chunk sizes, a flag is
        not 0 or 1, or ``all_nan`` is another string; when computed, where a
        slice holds only NaN and ``all_nan="raise"``.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> import argmin.dask
    >>> x = da.from_array(np.array([[np.nan, 3.0, np.nan, 1.0],
    ...                             [np.nan, np.nan, np.nan, np.nan]]), chunks=(1, 2))
    >>> argmin.dask.nanargmin(x, axis=1, keepdims=False, all_nan=-1).compute()
    array([ 3, -1])
    """
nanargmax.__doc__ = (nanargmin.__doc__.replace("nanargmin", "nanargmax")
                     .replace("minimum", "maximum").replace("array([ 3, -1])", "array([ 1, -1])"))

def _arg_reduce(x, axis, keepdims, select_last_index, split_every, maximum, skip_nan=False,
                placeholder=None):
    """`ArgMin` (`ArgMax` with ``maximum``) of ``x``; with ``skip_nan``, `nanargmin`
    (`nanargmax`) whose all-NaN slices give ``placeholder`` (None: raise)."""
    op = _nanarg.NAMES[maximum] if skip_nan else _rules.OPERATORS[maximum]
    if not isinstance(x, da.Array):
        x = da.asarray(_api.as_tensor(x, op))
    _api.as_tensor(x._meta, op)  # masked chunks are refused like masked arrays
    native = _rules.check_element_type(x.dtype, _OPSET, op)
    keepdims = _rules.check_flag(keepdims, "keepdims", op)
    last = _rules.check_flag(select_last_index, "select_last_index", op)
    axis = _rules.normalize_axis(axis, x.ndim, op)
    _rules.check_axis_length(x.shape, axis, op)
    sizes = x.chunks[axis]
    if any(math.isnan(size) for size in sizes):
        raise ValueError(
            f"{op} needs the chunk sizes along axis {axis}, which are unknown; "
            "call x.compute_chunk_sizes() first"
        )
    if 0 in sizes:
        sizes = tuple(size for size in sizes if size)
        x = x.rechunk({axis: sizes})

    record = np.dtype([("value", native), ("index", np.int64)], align=True)
    records = x.map_blocks(
        _chunk_best,
        axis=axis,
        last=last,
        maximum=maximum,
        skip_nan=skip_nan,
        record=record,
        offsets=tuple(itertools.accumulate(sizes[:-1], initial=0)),
        chunks=tuple((1,) * len(c) if d == axis else c for d, c in enumerate(x.chunks)),
        dtype=record,
        meta=np.empty((0,) * x.ndim, dtype=record),
    )
    out_ndim = x.ndim if keepdims else x.ndim - 1
    return da.reduction(
        records,
        chunk=_keep,
        combine=functools.partial(_combine, last=last, maximum=maximum, skip_nan=skip_nan),
        aggregate=functools.partial(_aggregate, last=last, maximum=maximum, skip_nan=skip_nan,
                                    placeholder=placeholder),
        axis=axis,
        keepdims=keepdims,
        dtype=np.int64,
        split_every=split_every,
        name=op.lower(),
        meta=np.empty((0,) * out_ndim, dtype=np.int64),
    )


def _chunk_best(block, axis, last, maximum, skip_nan, record, offsets, block_id=None):
    """The minimum (or maximum) of one chunk along ``axis``: its value and its index in ``x``."""
    value, index = _api.arg_reduce(block, axis, keepdims=True, select_last_index=last,
                                   opset=_OPSET, maximum=maximum, values=True,
                                   skip_nan=skip_nan)
    result = np.empty(index.shape, dtype=record)
    result["value"] = value
    result["index"] = index
    result["index"] += offsets[block_id[axis]]
    return result


def _keep(records, axis, keepdims, computing_meta=False):
    """The per-chunk step of the reduction: the records are already reduced.

    Dask asks for the type of the result with ``computing_meta=True``: int64.
    """
    if computing_meta:
        return _int64_meta(records)
    return records


def _int64_meta(array):
    return np.empty((0,) * array.ndim, dtype=np.int64)


def _combine(records, axis, keepdims, last, maximum, skip_nan):
    """The winning record along ``axis`` among records of consecutive chunks."""
    if records.dtype.names is None:  # Dask probing the result type with int64 metadata
        return _int64_meta(records)
    (axis,) = axis
    winner = _api.arg_reduce(records["value"], axis, keepdims=True, select_last_index=last,
                             opset=_OPSET, maximum=maximum, skip_nan=skip_nan)
    return np.take_along_axis(records, winner, axis)


def _aggregate(records, axis, keepdims, last, maximum, skip_nan, placeholder):
    """The global index of the minimum (or maximum) from the records of all chunks; where NaN
    is skipped, a slice that holds only NaN gives ``placeholder`` (None: ValueError)."""
    if records.dtype.names is None:  # Dask probing the result type with int64 metadata
        return _int64_meta(records)
    best = _combine(records, axis, keepdims=True, last=last, maximum=maximum,
                    skip_nan=skip_nan)
    index = best["index"].copy()
    if skip_nan:
        _api.settle_all_nan(np.ascontiguousarray(best["value"]), index, placeholder,
                            _nanarg.NAMES[maximum], axis[0], keepdims=True, located=False)
    if not keepdims:
        index = np.squeeze(index, axis=axis)
    return index
