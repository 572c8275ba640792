"""ONNX ArgMin, version 1 (opset 1)."""

from ._api import arg_min
from ._docs import opset_docstring

__all__ = ["ArgMin"]


def ArgMin(data, axis=0, keepdims=1):
    return arg_min(data, axis, keepdims, 0, 1)


ArgMin.__doc__ = opset_docstring(1, """
    >>> import numpy as np
    >>> from argmin import opset1
    >>> opset1.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.float32), axis=1)
    array([[1],
           [0]])
""")
