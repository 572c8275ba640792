"""ONNX ArgMin and ArgMax, version 1 (opset 1)."""

from ._api import opset_operator

__all__ = ["ArgMax", "ArgMin"]

ArgMin, ArgMax = opset_operator(1, "ArgMin"), opset_operator(1, "ArgMax")
__test__ = {"ArgMin": ArgMin, "ArgMax": ArgMax}  # doctest finds functions made elsewhere here
