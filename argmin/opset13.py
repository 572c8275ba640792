"""ONNX ArgMin and ArgMax, version 13 (opsets 13 and later)."""

from ._api import opset_operator

__all__ = ["ArgMax", "ArgMin"]

ArgMin, ArgMax = opset_operator(13, "ArgMin"), opset_operator(13, "ArgMax")
__test__ = {"ArgMin": ArgMin, "ArgMax": ArgMax}  # doctest finds functions made elsewhere here
