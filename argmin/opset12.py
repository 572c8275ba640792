"""ONNX ArgMin, version 12 (opset 12)."""

from ._api import arg_min
from ._docs import opset_docstring

__all__ = ["ArgMin"]


def ArgMin(data, axis=0, keepdims=1, select_last_index=0):
    return arg_min(data, axis, keepdims, select_last_index, 12)


ArgMin.__doc__ = opset_docstring(12, """
    >>> import numpy as np
    >>> from argmin import opset12
    >>> opset12.ArgMin(np.array([[2, 2], [3, 10]], dtype=np.float32), axis=1,
    ...                select_last_index=1)
    array([[1],
           [0]])
""")
