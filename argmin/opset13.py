"""ONNX ArgMin, version 13 (opsets 13 and later)."""

from ._api import arg_min

__all__ = ["ArgMin"]


def ArgMin(data, axis=0, keepdims=1, select_last_index=0):
    """Indices of the minimum elements of ``data`` along ``axis`` (ONNX ArgMin-13).

    Follows the ONNX operator ArgMin, version 13 (``ai.onnx`` opset 13,
    section "ArgMin-13" of the ONNX operator changelog), which adds bfloat16
    to version 12.  NaN counts as the minimum.

    Parameters
    ----------
    data : array_like, shape (d_0, ..., d_{r-1})
        Input tensor of rank ``r >= 1``, of element type float16, bfloat16
        (``ml_dtypes.bfloat16``), float32, float64, int8, int16, int32,
        int64, uint8, uint16, uint32 or uint64, in any memory layout or byte
        order.
    axis : int, default 0
        The axis to reduce, in ``[-r, r - 1]``.
    keepdims : {1, 0}, default 1
        Keep the reduced axis with length 1 (1) or drop it (0).
    select_last_index : {0, 1}, default 0
        When the minimum occurs several times (or several NaNs), give the
        first index (0) or the last (1).

    Returns
    -------
    numpy.ndarray of int64
        Shape ``(d_0, ..., 1, ..., d_{r-1})`` with ``keepdims=1``, or the
        shape without ``d_axis`` with ``keepdims=0``.  C-contiguous and newly
        allocated; 0-d when the result has rank 0.

    Raises
    ------
    TypeError
        For another element type, a masked array, or a non-integer ``axis``.
    numpy.exceptions.AxisError
        If ``axis`` is out of range, or ``data`` has rank 0.
    ValueError
        If the reduced axis has length 0, or ``keepdims`` or
        ``select_last_index`` is not 0 or 1.

    Examples
    --------
    >>> import ml_dtypes
    >>> import numpy as np
    >>> from argmin import opset13
    >>> x = np.array([[2.0, np.nan], [3.0, -1.0]], dtype=ml_dtypes.bfloat16)
    >>> opset13.ArgMin(x, axis=1, keepdims=0)
    array([1, 1])
    """
    return arg_min(data, axis, keepdims, select_last_index, 13)
