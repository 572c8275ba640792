"""ONNX ArgMin, version 13 (opsets 13 and later)."""

from ._api import opset_operator

__all__ = ["ArgMin"]

ArgMin = opset_operator(13)
__test__ = {"ArgMin": ArgMin}  # doctest finds functions made elsewhere only here
