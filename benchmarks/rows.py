"""How to read short contiguous rows: GB/s of each way, by element type and row length.

``python benchmarks/rows.py`` reduces 32 MiB C arrays of shape (rows, n) along axis 1 on one
thread, each way forced in turn with ``argmin._tuning.tuned(short_row_len=..., min_row_len=...)``:

- *columns*: across the rows, as strided columns;
- *short*: a tile of rows (rows within ``short_row_bounds(itemsize)`` elements): 8- and
  16-bit elements of rows of up to 256 paired with their positions and reduced many rows to
  a vector, other rows a vectorized minimum and a search per row;
- *rows*: row by row, in blocks (the way for long rows).

``*`` marks the way that the default tuning picks for each row (``argmin._api.row_way``);
rows of 2 to 32 bytes, a power of two, may be read several to a vector (``read_together`` in
``argmin/kernels/paired_vectors.pxi``).
"""

import numpy as np
from compare import timeit

import argmin
from argmin import _api, _tuning

HUGE = 1 << 40
WAYS = {"columns": (HUGE, HUGE), "short": (HUGE, 0), "rows": (0, 0)}


def short_row(n, itemsize):
    fewest, most = _api.kernels.short_row_bounds(itemsize)
    return fewest <= n <= most


def main():
    rng = np.random.default_rng(0)
    defaults = _api.tuning_defaults()
    print(f"default short_row_len, min_row_len (-1: by element size): "
          f"{defaults['short_row_len']}, {defaults['min_row_len']}")
    print(f"{'dtype':<8} {'n':>5} {'bytes':>6}" + "".join(f"{way:>10}" for way in WAYS) + "  GB/s")
    for dtype in ("uint8", "int16", "float32", "float64"):
        itemsize = np.dtype(dtype).itemsize
        for nbytes in (2, 4, 8, 12, 16, 32, 64, 96, 128, 256, 512, 1024, 2048, 4096):
            n = nbytes // itemsize
            if n < 2:
                continue
            x = rng.integers(1, 101, size=((32 << 20) // nbytes, n)).astype(dtype)
            chosen = _api.row_way(n, itemsize)  # with the default tuning
            cells = []
            for way, forced in WAYS.items():
                if way == "short" and not short_row(n, itemsize):
                    cells.append(f"{'-':>9} ")
                    continue
                with _tuning.tuned(short_row_len=forced[0], min_row_len=forced[1]):
                    seconds = timeit(lambda: argmin.argmin(x, axis=1, num_threads=1), 15)
                mark = "*" if way == chosen else " "
                cells.append(f"{x.nbytes / seconds / 1e9:>9.1f}{mark}")
            print(f"{dtype:<8} {n:>5} {nbytes:>6}" + "".join(cells))


if __name__ == "__main__":
    main()
