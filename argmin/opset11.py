"""ONNX ArgMin and ArgMax, version 11 (opsets 11 and later, until 12)."""

from ._api import opset_operator

__all__ = ["ArgMax", "ArgMin"]

ArgMin, ArgMax = opset_operator(11, "ArgMin"), opset_operator(11, "ArgMax")
__test__ = {"ArgMin": ArgMin, "ArgMax": ArgMax}  # doctest finds functions made elsewhere here
