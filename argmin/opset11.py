"""ONNX ArgMin, version 11 (opsets 11 and later, until 12)."""

from ._api import arg_min

__all__ = ["ArgMin"]


def ArgMin(data, axis=0, keepdims=1):
    """Indices of the minimum elements of ``data`` along ``axis`` (ONNX ArgMin-11).

    Follows the ONNX operator ArgMin, version 11 (``ai.onnx`` opset 11,
    section "ArgMin-11" of the ONNX operator changelog): as version 1, with
    the accepted range of ``axis`` stated as ``[-r, r - 1]`` and the input
    required to be non-empty along it.  Ties give the first index; NaN counts
    as the minimum.

    Parameters
    ----------
    data : array_like, shape (d_0, ..., d_{r-1})
        Input tensor of rank ``r >= 1``, of element type float16, float32,
        float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64,
        in any memory layout or byte order.
    axis : int, default 0
        The axis to reduce, in ``[-r, r - 1]``.
    keepdims : {1, 0}, default 1
        Keep the reduced axis with length 1 (1) or drop it (0).

    Returns
    -------
    numpy.ndarray of int64
        Shape ``(d_0, ..., 1, ..., d_{r-1})`` with ``keepdims=1``, or the
        shape without ``d_axis`` with ``keepdims=0``.  C-contiguous and newly
        allocated; 0-d when the result has rank 0.

    Raises
    ------
    TypeError
        For another element type (bfloat16 needs opset 13), a masked array,
        or a non-integer ``axis``.
    numpy.exceptions.AxisError
        If ``axis`` is out of range, or ``data`` has rank 0.
    ValueError
        If the reduced axis has length 0, or ``keepdims`` is not 0 or 1.

    Examples
    --------
    >>> import numpy as np
    >>> from argmin import opset11
    >>> opset11.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.int32), axis=-1, keepdims=0)
    array([1, 0])
    """
    return arg_min(data, axis, keepdims, 0, 11)
