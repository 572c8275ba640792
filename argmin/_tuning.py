"""How the kernels choose their loops: a `Tuning` handed to each call, set with `tuned`.

The results never depend on it, only which loop computes them; tests use it to force each
loop, and benchmarks to measure where each pays.  It reaches whichever compiled variant of
the kernels is in use (`argmin._api.kernels`; `argmin._api.plan` shows its effect), and
holds for the current thread or task (a `contextvars.ContextVar`), so other threads keep
theirs.

Examples
--------
>>> import numpy as np
>>> from argmin import _api, _tuning
>>> with _tuning.tuned(short_row_len=0):
...     _api.plan(np.zeros((100, 64), np.float32), 1)["way"]
'rows'
"""

import contextlib
import contextvars
import dataclasses


@dataclasses.dataclass(frozen=True)
class Tuning:
    """Thresholds by which a call chooses its loops; None keeps the kernels' default.

    Attributes
    ----------
    parallel_bytes : int or None
        Fewest input bytes for which a call runs on more than one thread.
    parallel_seconds : float or None
        Fewest seconds a default call (``num_threads=None``) must be expected to take
        on one thread to run on more than one: at the pace that the last default call
        of its element size and way of reading kept on one thread, or before any, at
        1 TB/s. 0 lets every call from ``parallel_bytes`` on try threads.
    short_row_len : int or None
        Contiguous rows of more elements are read one by one; -1: the default of the
        element size (`row_way` shows the way each row takes).
    min_row_len : int or None
        Contiguous rows of fewer elements are read across the rows, as strided columns;
        -1: the default of the element size.
    prefetch_rows : bool or None
        Whether rows read one at a time are asked for ahead in software too (by
        default on Intel CPUs only); the rows of an input of ``stream_bytes``
        or more are asked for ahead on every CPU.
    stream_bytes : int or None
        Fewest input bytes for which output blocks are written past the caches.
    block_shift : int or None
        Positions the first output block of an axis leaves out, 0 to 7, or -1 to
        align the other blocks' output on cache lines.
    """

    parallel_bytes: int | None = None
    parallel_seconds: float | None = None
    short_row_len: int | None = None
    min_row_len: int | None = None
    prefetch_rows: bool | None = None
    stream_bytes: int | None = None
    block_shift: int | None = None

    def __post_init__(self):
        for name in ("parallel_bytes", "stream_bytes"):
            _check_int(self, name, 0)
        for name in ("short_row_len", "min_row_len"):
            _check_int(self, name, -1)
        _check_int(self, "block_shift", -1, 7)
        _check_seconds(self, "parallel_seconds")
        if self.prefetch_rows is not None and not isinstance(self.prefetch_rows, bool):
            raise TypeError(f"prefetch_rows must be a bool or None, got {self.prefetch_rows!r}")


def _check_int(tuning, name, low, high=None):
    value = getattr(tuning, name)
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, got {value!r}")
    if value < low or (high is not None and value > high):
        allowed = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {allowed}, got {value}")


def _check_seconds(tuning, name):
    value = getattr(tuning, name)
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number or None, got {value!r}")
    if not 0 <= value < float("inf"):
        raise ValueError(f"{name} must be >= 0 and finite, got {value}")


#: The Tuning in force in this context, or None for the defaults; the kernels' compiled
#: entry reads it (`argmin._api`).
tuning_var = contextvars.ContextVar("argmin_tuning", default=None)

#: The Tuning in force in this context, or None for the defaults.
current = tuning_var.get

#: Empty until the first `tuned` block of the process: until then no context holds a
#: Tuning (`current()` is None everywhere), and `argmin._api` need not ask.
ever_tuned = []


@contextlib.contextmanager
def tuned(**fields):
    """Run the block with these `Tuning` fields changed (the others as they are).

    Raises
    ------
    TypeError
        For a name that is not a field of `Tuning`, or a value of the wrong type.
    ValueError
        For a value out of its field's range.
    """
    tuning = dataclasses.replace(current() or Tuning(), **fields)
    token = tuning_var.set(tuning)
    if not ever_tuned:
        ever_tuned.append(True)
    try:
        yield tuning
    finally:
        tuning_var.reset(token)
