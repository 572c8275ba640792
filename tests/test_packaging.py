"""What the installed package carries: type stubs that match the compiled module, licence, version."""

import ast
import inspect
from importlib import metadata, resources

import argmin
from argmin import _kernels


def _stub_functions():
    tree = ast.parse(resources.files("argmin").joinpath("_kernels.pyi").read_text())
    return {
        node.name: [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def test_kernel_stubs_match_the_compiled_module():
    public = {name for name in dir(_kernels) if not name.startswith("_")}
    stubs = _stub_functions()
    assert set(stubs) == public
    for name, parameters in stubs.items():
        assert list(inspect.signature(getattr(_kernels, name)).parameters) == parameters, name


def test_typed_package():
    assert resources.files("argmin").joinpath("py.typed").is_file()


def test_distribution_metadata():
    assert argmin.__version__ == metadata.version("argmin")
    dist = metadata.distribution("argmin")
    assert dist.metadata["License-Expression"] == "BSD-3-Clause"
    licences = [f for f in dist.files if f.name == "LICENSE"]
    assert licences and "BSD" in licences[0].read_text()
