"""ONNX ArgMin and ArgMax (opsets 1, 11, 12 and 13), exact and fast, for numpy arrays.

``argmin.opset1``, ``argmin.opset11``, ``argmin.opset12`` and
``argmin.opset13`` each hold the ``ArgMin`` and ``ArgMax`` of their opset;
``argmin.ArgMin`` and ``argmin.ArgMax`` are the latest, and `argmin.argmin`
and `argmin.argmax` the same with Python-style defaults and a thread count.
`argmin.min_argmin` and `argmin.max_argmax` give the values with the
indices; `argmin.nanargmin` and `argmin.nanargmax` skip NaN; and
`argmin.numpy` holds numpy's ``argmin``, ``argmax``, ``nanargmin`` and
``nanargmax``, with numpy's signatures.
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
from . import _api, _docs, _nanarg, _rules
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
    "nanargmax",
    "nanargmin",
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


argmin = _api.public(_api.kernels.argmin, __name__, "argmin",
                     _docs.function_docstring("ArgMin"))
argmax = _api.public(_api.kernels.argmax, __name__, "argmax",
                     _docs.function_docstring("ArgMax"))
min_argmin = _api.public(_api.kernels.min_argmin, __name__, "min_argmin",
                         _docs.values_docstring("ArgMin"))
max_argmax = _api.public(_api.kernels.max_argmax, __name__, "max_argmax",
                         _docs.values_docstring("ArgMax"))
nanargmin = _api.public(_api.kernels.nanargmin, __name__, "nanargmin",
                        _nanarg.docstring(maximum=False))
nanargmax = _api.public(_api.kernels.nanargmax, __name__, "nanargmax",
                        _nanarg.docstring(maximum=True))
