"""Every position of the vector loops over a contiguous run: the vector reduction of its
elements (four accumulators, the last four vectors ending at the run's end) and, in runs of
EARLY_EXIT_BYTES or more, the search for the best one's index (a vector at a time, from
either end, the last one overlapping). Lengths around one, two, four and eight vectors of
every variant (16, 32 and 64 bytes) and around EARLY_EXIT_BYTES, rows
read one by one and a tile at a time, the best element in each position, tied with another
one vector, one lane and half a run away, and NaN in each position."""

import numpy as np
import pytest

from argmin._tuning import tuned

from . import oracle
from .test_lengths import check_all

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

HUGE = 1 << 40
# Rows read one by one (long rows), and a tile of rows at a time (short rows).
WAYS = {"one by one": dict(short_row_len=0, min_row_len=0),
        "tiles": dict(short_row_len=HUGE, min_row_len=0)}


# Bytes from which a run's index is searched a vector at a time, up to the match (find.pxi).
EARLY_EXIT_BYTES = 1024


def lengths(dtype):
    """Run lengths on both sides of 1, 2, 4 and 8 vectors of 16, 32 and 64 bytes, and of
    EARLY_EXIT_BYTES and that and a vector of each width more."""
    found = set()
    for vector in (16, 32, 64):
        for count in (1, 2, 4, 8):
            n = count * vector // dtype.itemsize
            found.update((n - 1, n, n + 1))
        n = (EARLY_EXIT_BYTES + vector) // dtype.itemsize
        found.update((n - 1, n + 1))
    n = EARLY_EXIT_BYTES // dtype.itemsize
    found.update((n - 1, n, n + 1))
    return sorted(n for n in found if n >= 2)


def lows(dtype):
    """Values below the background, each with the value that ties it: a number, the type's
    smallest (or -inf), and for floats a zero tied with the zero of the other sign."""
    if oracle.is_float(dtype):
        pairs = [(1.5, 1.5), (-np.inf, -np.inf), (-0.0, 0.0), (0.0, -0.0)]
    else:
        info = np.iinfo(dtype)
        pairs = [(3, 3), (int(info.min), int(info.min))]
    return [tuple(np.array(v).astype(dtype) for v in pair) for pair in pairs]


def square_rows(dtype, seed):
    """For each length n: (n, an (n, n) background, its row indices)."""
    rng = np.random.default_rng(seed)
    for n in lengths(dtype):
        yield n, background(dtype, (n, n), rng), np.arange(n)


def background(dtype, shape, rng):
    """Values above the lows: for unsigned integers, half of them with the top bit set (above
    it as unsigned, below it as signed)."""
    values = rng.uniform(10, 100, shape)
    if dtype.kind == "u":
        top = np.array(1 << (8 * dtype.itemsize - 1), dtype=dtype)
        return values.round().astype(dtype) | rng.integers(0, 2, shape).astype(dtype) * top
    return values.round().astype(dtype) if dtype.kind == "i" else values.astype(dtype)


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_best_in_every_position(dtype, way, kernels):
    # Row i of an (n, n) array holds the best element at i; then tied with
    # the same value (or a zero of the other sign) one lane, one vector of
    # each width and half a row further on.
    with tuned(**WAYS[way]):
        for n, base, rows in square_rows(dtype, 42):
            for low, tie in lows(dtype):
                x = base.copy()
                x[rows, rows] = low
                check_all(x, 1)
                lanes = {1, n // 2} | {vector // dtype.itemsize for vector in (16, 32, 64)}
                for shift in sorted(s for s in lanes if 0 < s < n):
                    y = x.copy()
                    y[rows, (rows + shift) % n] = tie
                    check_all(y, 1)


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
def test_nan_in_every_position(dtype, way, kernels):
    # Row i holds a NaN at i, alone, beside a -inf, and with a second NaN
    # half a row on: the NaN's index wins, the first or the last.
    with tuned(**WAYS[way]):
        for n, x, rows in square_rows(dtype, 43):
            x[rows, rows] = np.nan
            check_all(x, 1)
            x[rows, (rows + 1) % n] = -np.inf
            check_all(x, 1)
            x[rows, (rows + n // 2) % n] = np.nan
            check_all(x, 1)
