"""How to read short contiguous rows: GB/s of each way, by element type and row length.

``python benchmarks/rows.py`` reduces 32 MiB C arrays of shape (rows, n) along axis 1 on one
thread, each way forced in turn with ``row_limits`` (``argmin/_kernels.pyx``):

- *columns*: across the rows, as strided columns;
- *short*: a tile of rows (rows within ``short_row_bounds(itemsize)`` elements): 8- and
  16-bit elements of rows of up to 256 paired with their positions and reduced many rows to
  a vector, other rows a vectorized minimum and a search per row;
- *rows*: row by row, in blocks (the way for long rows).

``*`` marks the way that the limits in use pick for each row (``row_way``), the one that
measured fastest on the machine where they were set (with AVX-512BW, rows of 8-, 16- and
32-bit elements of 2 to 32 bytes, a power of two, are read several to a vector: see
``reduce_layout``).
"""

import numpy as np
from compare import timeit

import argmin
from argmin import _api

HUGE = 1 << 40
WAYS = {"columns": (HUGE, HUGE), "short": (HUGE, 0), "rows": (0, 0)}


def short_row(n, itemsize):
    fewest, most = _api.kernels.short_row_bounds(itemsize)
    return fewest <= n <= most


def main():
    limits = _api.kernels.row_limits()
    rng = np.random.default_rng(0)
    print(f"limits in use (short_row_len, min_row_len; -1: the defaults): {limits}")
    print(f"{'dtype':<8} {'n':>5} {'bytes':>6}" + "".join(f"{way:>10}" for way in WAYS) + "  GB/s")
    for dtype in ("uint8", "int16", "float32", "float64"):
        itemsize = np.dtype(dtype).itemsize
        for nbytes in (2, 4, 8, 12, 16, 32, 64, 96, 128, 256, 512, 1024, 2048, 4096):
            n = nbytes // itemsize
            if n < 2:
                continue
            x = rng.integers(1, 101, size=((32 << 20) // nbytes, n)).astype(dtype)
            chosen = _api.kernels.row_way(n, itemsize)  # with the limits in use
            cells = []
            for way, forced in WAYS.items():
                if way == "short" and not short_row(n, itemsize):
                    cells.append(f"{'-':>9} ")
                    continue
                _api.kernels.row_limits(forced)
                seconds = timeit(lambda: argmin.argmin(x, axis=1, num_threads=1), 15)
                mark = "*" if way == chosen else " "
                cells.append(f"{x.nbytes / seconds / 1e9:>9.1f}{mark}")
            _api.kernels.row_limits(limits)
            print(f"{dtype:<8} {n:>5} {nbytes:>6}" + "".join(cells))


if __name__ == "__main__":
    main()
