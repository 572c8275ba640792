"""ONNX ArgMin, version 13 (opsets 13 and later)."""

from ._api import arg_min
from ._docs import opset_docstring

__all__ = ["ArgMin"]


def ArgMin(data, axis=0, keepdims=1, select_last_index=0):
    return arg_min(data, axis, keepdims, select_last_index, 13)


ArgMin.__doc__ = opset_docstring(13, """
    >>> import ml_dtypes
    >>> import numpy as np
    >>> from argmin import opset13
    >>> x = np.array([[2.0, np.nan], [3.0, -1.0]], dtype=ml_dtypes.bfloat16)
    >>> opset13.ArgMin(x, axis=1, keepdims=0)
    array([1, 1])
""")
