"""ONNX ArgMin, version 1 (opset 1)."""

from ._api import opset_operator

__all__ = ["ArgMin"]

ArgMin = opset_operator(1)
__test__ = {"ArgMin": ArgMin}  # doctest finds functions made elsewhere only here
