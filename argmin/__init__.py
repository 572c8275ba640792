"""ONNX ArgMin (opsets 1, 11, 12 and 13), exact and fast, for numpy arrays.

``argmin.opset1``, ``argmin.opset11``, ``argmin.opset12`` and
``argmin.opset13`` each hold the ``ArgMin`` of their opset; ``argmin.ArgMin``
is the latest, and `argmin.argmin` the same with Python-style defaults and a
thread count.
"""

try:
    from . import _kernels  # noqa: F401
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

from . import opset1, opset11, opset12, opset13
from . import _rules
from ._api import arg_min as _arg_min
from ._rules import OPSETS
from .opset13 import ArgMin


def _installed_version():
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("argmin")
    except PackageNotFoundError:  # pragma: no cover - not installed
        return "unknown"


__version__ = _installed_version()

__all__ = [
    "ArgMin",
    "BFLOAT16",
    "ELEMENT_TYPES",
    "OPSETS",
    "argmin",
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
    """Indices of the minimum elements of ``data`` along ``axis`` (ONNX ArgMin-13).

    The same operation as `argmin.ArgMin` (ONNX ArgMin-13), with booleans
    for the flags and a choice of thread count.  Ties give the first index,
    or the last with ``select_last_index=True``; NaN counts as the minimum;
    -0.0 and +0.0 are equal.

    Parameters
    ----------
    data : array_like, shape (d_0, ..., d_{r-1})
        Input of rank ``r >= 1``, of element type float16, bfloat16
        (``ml_dtypes.bfloat16``), float32, float64, int8, int16, int32,
        int64, uint8, uint16, uint32 or uint64, in any memory layout or byte
        order.  It is never written to and never copied (but for a byte
        order other than the machine's).
    axis : int, default 0
        The axis to reduce, in ``[-r, r - 1]``.
    keepdims : bool, default True
        Keep the reduced axis with length 1, or drop it.
    select_last_index : bool, default False
        On ties, give the last index instead of the first.
    num_threads : int, optional
        Most OpenMP threads to use; more than 1024 count as 1024.  By
        default, as many as OpenMP allows (``OMP_NUM_THREADS``, or a
        ``threadpoolctl`` limit in the calling thread) less those that
        other argmin calls of the process run at the same moment, and one
        inside an OpenMP parallel region.  A default call whose threads
        took longer than one thread would have (cores busy with other
        work) makes the next default calls run on one thread until they
        have spent 4 times that loss (up to 64 times where threads keep
        failing); then threads are tried again.  Small inputs use one
        thread whatever this says, and so does a process forked from one
        that had run threads (OpenMP cannot start there).  The result does
        not depend on it.

    Returns
    -------
    numpy.ndarray of int64
        Shape ``(d_0, ..., 1, ..., d_{r-1})`` with ``keepdims``, or the shape
        without ``d_axis``.  C-contiguous and newly allocated; 0-d when the
        result has rank 0.

    Raises
    ------
    TypeError
        For an element type outside the list above, a masked array, or a
        non-integer ``axis``.
    numpy.exceptions.AxisError
        If ``axis`` is out of range, or ``data`` has rank 0.
    ValueError
        If the reduced axis has length 0, a flag is not 0/1/False/True, or
        ``num_threads`` is not a positive integer.

    Examples
    --------
    >>> import numpy as np
    >>> import argmin
    >>> x = np.array([[4, 1, 1], [0, 7, 0]], dtype=np.uint8)
    >>> argmin.argmin(x, axis=1, keepdims=False)
    array([1, 0])
    >>> argmin.argmin(x, axis=1, keepdims=False, select_last_index=True)
    array([2, 2])
    """
    return _arg_min(data, axis, keepdims, select_last_index, 13, num_threads)
