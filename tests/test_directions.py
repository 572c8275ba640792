"""The kernels' ArgMax direction against numpy.argmax: every element type, each way of reading
rows, layouts that reach every loop, lengths at the ends of lanes and pieces, NaNs, threads."""

import numpy as np
import pytest

from argmin import _api, _tuning

from . import oracle

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

HUGE = 1 << 40
# Each way of reading contiguous rows, forced with the tuning (as in test_lengths.py).
WAYS = {"columns": dict(short_row_len=HUGE, min_row_len=HUGE),
        "short": dict(short_row_len=HUGE, min_row_len=0),
        "short past caches": dict(short_row_len=HUGE, min_row_len=0, stream_bytes=0),
        "rows": dict(short_row_len=0, min_row_len=0)}
LENGTHS = (2, 3, 4, 7, 8, 15, 16, 17, 32, 33, 64, 65, 128, 129, 255, 256, 257, 1025, 5000)


# The kernels are called directly here, so they learn bfloat16's type number as argmin would.
_api._accept_bfloat16(oracle.BFLOAT16)


def kernel_argmax(x, axis, last, threads):
    return _api.kernels.reduce_axis(x, axis, False, last, threads, True, _tuning.current())


def check(x, axis, threads=(1, 3)):
    for last in (False, True):
        expected = oracle.argmax(x, axis, False, last)
        for count in threads:
            np.testing.assert_array_equal(kernel_argmax(x, axis, last, count), expected,
                                          err_msg=f"axis={axis} last={last} threads={count}")


def pools(dtype, rng):
    """Values with the type's edges (NaN, +-inf, +-0, extremes) and without: in the first,
    the largest decides most rows that hold it; in the second, ties among few values."""
    special = oracle.special_values(dtype)
    plain = special[~np.isnan(oracle.exact(special))] if oracle.is_float(dtype) else special
    return [special, rng.choice(plain, 3)]


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_argmax_each_way(dtype, way, kernels, every):
    rng = np.random.default_rng(21)
    with _tuning.tuned(parallel_bytes=0, **WAYS[way]):
        for n in LENGTHS if every else LENGTHS[::3]:
            for pool in pools(dtype, rng):
                x = rng.choice(pool, size=(37, n))
                check(x, 1)
                check(x[:, ::-1], 1, (1,))
                check(np.asfortranarray(rng.choice(pool, size=(n, 7, 19))), 0)
                check(rng.choice(pool, size=(n, 3)), 0, (1,))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_argmax_columns(dtype, kernels):
    # Columns folded a tile at a time, grouped rows, packed narrow columns, strided tiles,
    # and long reduced axes split between threads.
    rng = np.random.default_rng(22)
    for pool in pools(dtype, rng):
        for width in (2, 5, 40, 300):
            check(rng.choice(pool, size=(1000, width)), 0)
        check(rng.choice(pool, size=(300, 64, 3))[:, ::3], 0)
        check(rng.choice(pool, size=(200_001, 2)), 0, (1, 4))
        check(rng.choice(pool, size=(2, 200_001)), 1, (1, 4))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_argmax_columns_of_the_least_value(dtype, kernels):
    # Column tiles take ArgMax's keys unflipped, starting from the worst: the type's least
    # value ties with it (an integer's minimum) or beats it (-inf), across chunks (127 rows
    # for 8-bit keys), and once broken by one larger value; in packed narrow columns, grouped
    # rows, tiles a row at a time and eight rows at a time (rows apart), and strided tiles.
    least = (np.array(-np.inf).astype(dtype) if oracle.is_float(dtype)
             else np.array(np.iinfo(dtype).min, dtype))
    for rows, width in ((300, 2), (300, 5), (255, 40), (129, 300), (3, 64), (300, 600)):
        x = np.full((rows, width), least)
        check(x, 0, (1,))
        check(x[:, :width // 2], 0, (1,))
        x[rows // 2, ::2] = np.ones((), dtype)
        check(x, 0, (1,))
        check(x[:, :width // 2], 0, (1,))
    check(np.full((300, 64, 3), least)[:, ::3], 0, (1,))
