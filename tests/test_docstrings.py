"""The examples in the public docstrings run and print what they show."""

import doctest
from pathlib import Path

import pytest

import argmin


@pytest.mark.parametrize(
    "name", ["argmin", "argmin.opset1", "argmin.opset11", "argmin.opset12", "argmin.opset13",
             "argmin.onnx", "argmin.dask", "argmin.numpy", "argmin._api"],
)
def test_docstring_examples(name):
    module = pytest.importorskip(name)  # argmin.onnx and argmin.dask need their extras
    results = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert results.attempted > 0
    assert results.failed == 0


def test_readme_examples():
    readme = Path(__file__).resolve().parents[1] / "README.md"
    if not readme.exists():
        pytest.skip("README.md is not beside the tests (an installed copy of the tests)")
    results = doctest.testfile(str(readme), module_relative=False,
                               optionflags=doctest.NORMALIZE_WHITESPACE)
    assert results.attempted > 0
    assert results.failed == 0
