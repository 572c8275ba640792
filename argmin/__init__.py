"""ONNX ArgMin and ArgMax (opsets 1, 11, 12 and 13), exact and fast, for numpy arrays.

``argmin.opset1``, ``argmin.opset11``, ``argmin.opset12`` and
``argmin.opset13`` each hold the ``ArgMin`` and ``ArgMax`` of their opset;
``argmin.ArgMin`` and ``argmin.ArgMax`` are the latest, and `argmin.argmin`
and `argmin.argmax` the same with Python-style defaults and a thread count.
`argmin.min_argmin` and `argmin.max_argmax` give the values with the
indices, and `argmin.numpy` holds numpy's ``argmin`` and ``argmax``, with
numpy's signature.
"""

try:
    from . import _cpu  # noqa: F401
except ImportError:  # pragma: no cover - depends on where Python is started
    import os.path as _path

    _here = _path.dirname(_path.abspath(__file__))
    if not _path.exists(_path.join(_here, "..", "meson.build")):
        raise
    raise ImportError(
        f"argmin is being imported from its source tree ({_here}), where its kernels are "
        "not built. Run Python from another directory after `pip install .`, or install "
        "it editable: pip install --no-build-isolation -e . (see CONTRIBUTING.md)"
    ) from None

from . import numpy, opset1, opset11, opset12, opset13
from . import _rules
from . import _docs
from ._api import arg_reduce as _arg_reduce
from ._api import kernel_variant, kernel_variants
from ._rules import OPSETS
from .opset13 import ArgMax, ArgMin


def _installed_version():
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("argmin")
    except PackageNotFoundError:  # pragma: no cover - not installed
        return "unknown"


__version__ = _installed_version()

__all__ = [
    "ArgMax",
    "ArgMin",
    "BFLOAT16",
    "ELEMENT_TYPES",
    "OPSETS",
    "argmax",
    "argmin",
    "kernel_variant",
    "kernel_variants",
    "max_argmax",
    "min_argmin",
    "numpy",
    "opset1",
    "opset11",
    "opset12",
    "opset13",
]


def __getattr__(name):
    # BFLOAT16 and ELEMENT_TYPES import ml_dtypes, which is slow: only when asked for.
    if name in ("BFLOAT16", "ELEMENT_TYPES"):
        return getattr(_rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"BFLOAT16", "ELEMENT_TYPES"})


def argmin(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return _arg_reduce(data, axis, keepdims, select_last_index, 13, num_threads)


def argmax(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return _arg_reduce(data, axis, keepdims, select_last_index, 13, num_threads, maximum=True)


def min_argmin(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return _arg_reduce(data, axis, keepdims, select_last_index, 13, num_threads, values=True)


def max_argmax(data, axis=0, keepdims=True, select_last_index=False, *, num_threads=None):
    return _arg_reduce(data, axis, keepdims, select_last_index, 13, num_threads, maximum=True,
                       values=True)


argmin.__doc__ = _docs.function_docstring("ArgMin")
argmax.__doc__ = _docs.function_docstring("ArgMax")
min_argmin.__doc__ = _docs.values_docstring("ArgMin")
max_argmax.__doc__ = _docs.values_docstring("ArgMax")
