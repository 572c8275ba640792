"""ONNX ArgMin and ArgMax, version 12 (opset 12)."""

from ._api import opset_operator

__all__ = ["ArgMax", "ArgMin"]

ArgMin, ArgMax = opset_operator(12, "ArgMin"), opset_operator(12, "ArgMax")
__test__ = {"ArgMin": ArgMin, "ArgMax": ArgMax}  # doctest finds functions made elsewhere here
