"""ONNX ArgMin, version 11 (opsets 11 and later, until 12)."""

from ._api import arg_min
from ._docs import opset_docstring

__all__ = ["ArgMin"]


def ArgMin(data, axis=0, keepdims=1):
    return arg_min(data, axis, keepdims, 0, 11)


ArgMin.__doc__ = opset_docstring(11, """
    >>> import numpy as np
    >>> from argmin import opset11
    >>> opset11.ArgMin(np.array([[2, 1], [3, 10]], dtype=np.int32), axis=-1, keepdims=0)
    array([1, 0])
""")
