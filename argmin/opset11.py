"""ONNX ArgMin, version 11 (opsets 11 and later, until 12)."""

from ._api import opset_operator

__all__ = ["ArgMin"]

ArgMin = opset_operator(11)
__test__ = {"ArgMin": ArgMin}  # doctest finds functions made elsewhere only here
