"""What the installed package carries: type stubs that match the compiled module, licence, version."""

import ast
import inspect
from importlib import metadata, resources
from pathlib import Path

import pytest

import argmin
from argmin import _api, _cpu

from .fresh import run_code, run_python


def _stub_functions(name):
    tree = ast.parse(resources.files("argmin").joinpath(f"{name}.pyi").read_text())
    return {
        node.name: [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


# The kernel variants share one stub file, and the variant in use stands for them all
# (tests/test_variants.py checks that each has the same functions).
@pytest.mark.parametrize("stubs,module", [("_kernels", _api.kernels), ("_cpu", _cpu)])
def test_stubs_match_the_compiled_modules(stubs, module):
    public = {name for name in dir(module) if not name.startswith("_")}
    functions = _stub_functions(stubs)
    assert set(functions) == public
    for name, parameters in functions.items():
        assert list(inspect.signature(getattr(module, name)).parameters) == parameters, name


def test_typed_package():
    assert resources.files("argmin").joinpath("py.typed").is_file()


def test_distribution_metadata():
    assert argmin.__version__ == metadata.version("argmin")
    dist = metadata.distribution("argmin")
    assert dist.metadata["License-Expression"] == "BSD-3-Clause"
    licences = [f for f in dist.files if f.name == "LICENSE"]
    assert licences and "BSD" in licences[0].read_text()


def test_namespace_holds_only_the_api():
    leaked = {"version", "Path", "PackageNotFoundError"} & set(dir(argmin))
    assert not leaked
    assert set(argmin.__all__) <= set(dir(argmin))


@pytest.mark.parametrize("module,missing,extra", [("argmin.onnx", "onnx", "onnx"),
                                                  ("argmin.dask", "dask", "'dask[array]'")])
def test_a_missing_extra_is_named(module, missing, extra):
    # A Python that cannot import the extra's package: the error says which extra to install.
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            f"try:\n    import {module}\n"
            "except ModuleNotFoundError as error:\n    print(error)\n")
    done = run_code(code)
    assert done.returncode == 0, done.stderr
    assert f"pip install {extra}" in done.stdout and "extra" in done.stdout


def test_import_leaves_ml_dtypes_until_bfloat16_is_seen():
    # ml_dtypes' extension takes most of an import's time: loaded only for a bfloat16 input.
    code = ("import sys, numpy as np, argmin\n"
            "before = 'ml_dtypes' in sys.modules\n"
            "argmin.argmin(np.arange(5.0)); argmin.opset11.ArgMin(np.arange(3))\n"
            "after_numeric = 'ml_dtypes' in sys.modules\n"
            "import ml_dtypes\n"
            "x = np.array([3.0, -1.0, -1.0], dtype=ml_dtypes.bfloat16)\n"
            "print(before, after_numeric, int(argmin.argmin(x, select_last_index=True)[0]),\n"
            "      argmin.BFLOAT16 == x.dtype, argmin.ELEMENT_TYPES[13][-1] == x.dtype)\n")
    done = run_code(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "2", "True", "True"]


@pytest.mark.parametrize("module, api", [
    ("argmin.onnx", ["ArgMax", "ArgMin"]),
    ("argmin.dask", ["ArgMax", "ArgMin", "nanargmax", "nanargmin"]),
])
def test_integration_namespaces_list_only_their_api(module, api):
    imported = pytest.importorskip(module)
    assert dir(imported) == api


def test_import_from_the_source_tree_says_how_to_install():
    root = Path(__file__).resolve().parents[1]
    if not (root / "meson.build").exists():
        pytest.skip("the tests are not in a source checkout")
    done = run_code("import argmin", cwd=root)
    if done.returncode == 0:
        pytest.skip("an editable install: the source tree imports")
    assert "source tree" in done.stderr and "pip install --no-build-isolation -e ." in done.stderr
    assert "circular import" not in done.stderr
    assert done.stderr.count("Traceback") == 1  # no chained exception


def test_python_m_pytest_runs_from_the_checkout():
    # `python -m pytest` puts the checkout first on sys.path: the tests still import the
    # installed argmin, not the checkout's argmin/ folder (no kernels there).
    root = Path(__file__).resolve().parents[1]
    if not (root / "meson.build").exists():
        pytest.skip("the tests are not in a source checkout")
    done = run_python("-m", "pytest", "-q", "-p", "no:cacheprovider",
                      "tests/test_packaging.py::test_typed_package", cwd=root)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 passed" in done.stdout


def _imports_within(package):
    """Each module of ``package`` (a folder) with the modules of the package it imports."""
    modules = {path.stem: path for path in package.glob("*.py")}
    imports = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {
                    alias.name for alias in node.names}
        imports[name] = found & set(modules) - {name}
    return imports


def test_no_module_imports_one_that_imports_it_back():
    imports = _imports_within(Path(argmin.__file__).parent)
    for module in imports:
        reached, todo = set(), list(imports[module])
        while todo:
            other = todo.pop()
            if other not in reached:
                reached.add(other)
                todo.extend(imports[other])
        assert module not in reached, f"argmin.{module} imports a module that imports it back"
