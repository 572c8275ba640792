"""ONNX ArgMin, version 12 (opset 12)."""

from ._api import opset_operator

__all__ = ["ArgMin"]

ArgMin = opset_operator(12)
__test__ = {"ArgMin": ArgMin}  # doctest finds functions made elsewhere only here
