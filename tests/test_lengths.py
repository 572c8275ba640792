"""Lengths and positions that hit the ends of SIMD lanes, blocks, column tiles and thread chunks."""

import itertools

import numpy as np
import pytest

import argmin
from argmin import _api
from argmin._api import plan
from argmin._tuning import tuned

from . import oracle
from .conftest import OPERATORS

# Reaches the kernels: .ci/run runs these on every compiled variant.
pytestmark = pytest.mark.kernels

LENGTHS = [1, 2, 7, 8, 15, 16, 17, 31, 33, 63, 65, 255, 257, 1023, 1025,
           2047, 2049, 4095, 4097, 8193]
LONG = 3_000_017  # a few million: split between threads
# Bytes of a block of a row read one by one (long_rows.pxi), in the caches and
# when asked for ahead (of 8-bit elements, ASKED_8BIT_BLOCK_BYTES), and of four
# vectors of the widest variant (AVX-512), the block of a run whose extreme
# each lane keeps apart for the search of its index (extreme.h; narrower
# variants' blocks are a half and a quarter of it).  The longest short row of
# 32- or 64-bit elements is a block.
BLOCK_BYTES = 16384
ASKED_BLOCK_BYTES = 4096
ASKED_8BIT_BLOCK_BYTES = 512
QUAD_BYTES = 256
THREADS = (1, 2, 3, 8)
# Each way of reading contiguous rows, forced for every length with the tuning
# (short_row_len, min_row_len): across the rows as strided columns, a tile of
# short rows (within short_row_bounds, strided columns outside them), the same
# with output blocks written past the caches (stream_bytes), and row by row.
HUGE = 1 << 40
ROW_WAYS = {"columns": ((HUGE, HUGE), HUGE), "short": ((HUGE, 0), HUGE),
            "short past caches": ((HUGE, 0), 0), "rows": ((0, 0), HUGE)}


def background(dtype, n, rng, descending):
    """Values above the ones the tests place: random, or descending (every block improves)."""
    if descending:
        values = np.linspace(100, 10, n)
    else:
        values = rng.uniform(10, 100, n)
    return values.round().astype(dtype) if dtype.kind in "iu" else values.astype(dtype)


def low_values(dtype):
    """Values below the background: a minimum, and the smallest key of the type."""
    if oracle.is_float(dtype):
        return [np.array(1.5).astype(dtype), np.array(-np.inf).astype(dtype),
                np.array(np.nan).astype(dtype)]
    info = np.iinfo(dtype)
    return [np.array(3).astype(dtype), np.array(info.min).astype(dtype)]


def asked_block_bytes(dtype):
    """Bytes of a block of a row of dtype asked for ahead."""
    return ASKED_8BIT_BLOCK_BYTES if dtype.itemsize == 1 else ASKED_BLOCK_BYTES


def positions(n, dtype):
    """Where to put the low values: the ends, and both sides of lane, block and chunk edges."""
    edges = {0, n - 1, n // 2, n // 3}
    for unit in (128 // dtype.itemsize, QUAD_BYTES // dtype.itemsize, 1024 // dtype.itemsize,
                 asked_block_bytes(dtype) // dtype.itemsize, BLOCK_BYTES // dtype.itemsize, 1024):
        for k in (1, 2, 3):
            edges.update((k * unit - 1, k * unit))
    for threads in (2, 3, 8):
        chunk = -(-n // threads)
        edges.update((chunk - 1, chunk, 2 * chunk - 1, 2 * chunk))
    return sorted(p for p in edges if 0 <= p < n)


def cases(dtype, n, rng):
    """Arrays of length n with single minima, ties and NaNs at the chosen positions."""
    where = positions(n, dtype)
    for descending in (False, True):
        base = background(dtype, n, rng, descending)
        for low in low_values(dtype):
            for i, p in enumerate(where):
                x = base.copy()
                x[p] = low
                yield x
                q = where[(i + len(where) // 2) % len(where)]
                x = x.copy()
                x[q] = low  # a tie (or two NaNs) at p and q
                yield x


def edge_values(dtype):
    """Values at the edges of the keys: for floating types signed zeros, infinity and a
    negative number; for integers the largest value and both sides of the top bit."""
    if oracle.is_float(dtype):
        return np.array([0.0, -0.0, np.inf, -2.5]).astype(dtype)
    info = np.iinfo(dtype)
    top = 1 << (info.bits - 1)
    return np.array([int(info.max), top - 1 if info.min == 0 else -1,
                     top if info.min == 0 else 0], dtype=dtype)


@pytest.fixture(params=list(ROW_WAYS))
def row_way(request, kernels):
    """Each way of reading contiguous rows in turn, with threads even for small inputs."""
    (short_row_len, min_row_len), stream_bytes = ROW_WAYS[request.param]
    with tuned(short_row_len=short_row_len, min_row_len=min_row_len, stream_bytes=stream_bytes,
               parallel_bytes=0):
        yield request.param


def check_all(data, axis, thread_counts=(1,)):
    # The indices, on each thread count; and the values with them on the
    # most threads (a reduced axis split between threads is merged apart).
    for operator in OPERATORS:
        x = operator.arranged(data)
        for last in (False, True):
            expected = operator.oracle(x, axis, False, last)
            for threads in thread_counts:
                result = operator.function(x, axis, False, last, num_threads=threads)
                np.testing.assert_array_equal(result, expected,
                                              err_msg=f"{operator.name} threads={threads}")
            values, indices = operator.with_values(x, axis, False, last,
                                                   num_threads=thread_counts[-1])
            np.testing.assert_array_equal(indices, expected, err_msg=f"{operator.name} values")
            oracle.assert_same_bits(values, oracle.elements_at(x, expected, axis, False))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_rows(dtype, kernels):
    # The reduced axis is contiguous: 1-D, and rows of a 2-D array.
    rng = np.random.default_rng(1)
    for n in LENGTHS:
        for x in cases(dtype, n, rng):
            check_all(x, 0)
            check_all(np.stack([x, x[::-1], x]), 1)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_row_ends(dtype, kernels):
    # Rows read one by one whose length is not a whole number of lanes (128
    # bytes, at least 32 lanes): the last block ends at the row's end and
    # overlaps the one before it.  Minima, ties and NaNs in the overlap, in the
    # part read once, and one in each.
    lanes = max(128 // dtype.itemsize, 32)
    block = BLOCK_BYTES // dtype.itemsize
    rng = np.random.default_rng(16)
    with tuned(short_row_len=0, min_row_len=0):
        for n in (lanes + 1, 2 * lanes - 1, 3 * lanes + lanes // 2, block + 1,
                  block + lanes - 1, 2 * block + 5):
            once = n // lanes * lanes   # where the overlapping block's new elements start
            ends = [0, n - lanes, once - 1, once, n - 1]
            pairs = [(p, p) for p in ends] + [(n - lanes, n - 1), (once - 1, once),
                                               (0, n - 1), (n - lanes, once - 1)]
            for descending in (False, True):
                base = background(dtype, n, rng, descending)
                for low in low_values(dtype):
                    for p, q in pairs:
                        x = base.copy()
                        x[p] = x[q] = low
                        check_all(np.stack([x, x[::-1]]), 1)


def tie_positions(runs, dtype):
    """Both sides of the edges of blocks of four vectors of each variant, near either end of
    each run [start, stop) in runs, and of its last block, which starts a block before stop."""
    quad = QUAD_BYTES // dtype.itemsize
    edges = set()
    for start, stop in runs:
        edges.update((start, start + 1, stop - 2, stop - 1))
        for block in (quad // 4, quad // 2, quad):
            whole = start + (stop - start) // block * block
            for k in range(4):
                for edge in (start + k * block, stop - k * block, whole - k * block):
                    edges.update((edge - 1, edge, edge + 1))
    return sorted(edges)


def critical_pairs(start, stop, dtype):
    """Ties in the run [start, stop) that a wrong block or lane would get wrong, for the
    blocks of each variant: the same lane of two blocks one after the other; and, where the
    last block overlaps the one before it, a tie in the overlap (read twice) against one
    read only in the last block, and across the overlap's ends."""
    quad = QUAD_BYTES // dtype.itemsize
    pairs = set()
    for block in (quad // 4, quad // 2, quad):
        whole = start + (stop - start) // block * block   # where the last whole block ends
        last = stop - block                                 # where the last block starts
        before = whole - block if whole < stop else last - block   # the block before the last
        for lane in (0, 1, block - 1):
            pairs.add((start + lane, start + lane + block))
            pairs.add((before + lane, last + lane))
        pairs.update({(last, whole), (last, stop - 1), (last - 1, last), (whole - 1, whole),
                      (whole - 1, stop - 1)})
    return {(p, q) for p, q in pairs if start <= p < q < stop}


def row_runs(n, dtype, way):
    """The runs [start, stop) that a row of n elements is reduced in, the way it is read:
    the whole row where it is a short row, else blocks of BLOCK_BYTES (asked for ahead,
    asked_block_bytes), the one before the last the rest in whole lanes (long_rows.pxi:
    max(128 bytes, 32 elements)), and the last the row's last lanes."""
    if way == "short":
        return [(0, n)]
    asked = way == "rows asked ahead"
    block = (asked_block_bytes(dtype) if asked else BLOCK_BYTES) // dtype.itemsize
    lanes = max(128 // dtype.itemsize, 32)
    runs = [(s, s + min(block, n - s) // lanes * lanes) for s in range(0, n - lanes + 1, block)]
    return runs + [(n - lanes, n)] if runs[-1][1] < n else runs


# The tuning that reads contiguous rows each way that splits them into runs.
RUN_WAYS = {"short": dict(short_row_len=HUGE, min_row_len=0),
            "rows": dict(short_row_len=0, prefetch_rows=False),
            "rows asked ahead": dict(short_row_len=0, prefetch_rows=True)}

# Element types whose runs the extremes reduce (extremes.pxi): all but 8-bit
# ones.  Short 8-bit rows are paired (test_short_rows); their long rows are
# read here too.
EXTREME_TYPES = [t for t in oracle.ELEMENT_TYPES if t.itemsize >= 2]
TIE_WAYS = [(dtype, way) for way in ("short", "rows", "rows asked ahead")
            for dtype in (EXTREME_TYPES if way == "short" else oracle.ELEMENT_TYPES)]


@pytest.mark.parametrize(("dtype", "way"), TIE_WAYS, ids=lambda v: str(v))
def test_ties_across_blocks(dtype, way, kernels):
    # The extremes of 16-, 32- and 64-bit runs keep, lane by lane, where the
    # block of four vectors starts that the lane's extreme came from, and
    # search only the first (or last) block that holds the run's extreme: the
    # best value twice (critical_pairs, and pairs of tie_positions: in one
    # lane of two blocks, in two lanes of one block or of two, at either end
    # of a block or of a run, in the last block, which overlaps the one before
    # it; -0.0 and +0.0 once each, in either order; and NaN, which nanargmin
    # and nanargmax skip), in rows read as short rows (from just over the
    # longest row read in a register of pairs, 256 bytes, to the longest
    # short row) and in rows read one by one (a run
    # and a half, and a run and one and a half AVX-512 blocks: for 16- and
    # 32-bit elements on AVX-512, the run before the row's last lane width is
    # no whole number of blocks).
    quad = QUAD_BYTES // dtype.itemsize
    block = BLOCK_BYTES // dtype.itemsize
    if way == "short":
        shortest, longest = _api.kernels.short_row_bounds(dtype.itemsize)
        unpaired = {2: 129, 4: 65}.get(dtype.itemsize, quad)
        lengths = sorted(n for n in {unpaired, unpaired + 3, 3 * quad - 5,
                                     8 * quad + quad // 2 + 1, longest - 3, longest}
                         if max(shortest, unpaired) <= n <= longest)
    else:
        lengths = (block * 3 // 2 + 7, block + quad + quad // 2 + 5)
    rng = np.random.default_rng(17)
    with tuned(**RUN_WAYS[way]):
        for n in lengths:
            runs = row_runs(n, dtype, way)
            runs = sorted(set(runs[:2] + runs[-2:]))
            pairs = list(itertools.combinations(tie_positions(runs, dtype), 2))
            if len(pairs) > 240:
                pairs = [pairs[k] for k in sorted(rng.choice(len(pairs), 240, replace=False))]
            pairs = sorted(set(pairs).union(*(critical_pairs(s, e, dtype) for s, e in runs)))
            pairs = [(p, q) for p, q in pairs if 0 <= p < q < n]
            for descending in (False, True):
                base = background(dtype, n, rng, descending)
                lows = [(low, low) for low in low_values(dtype)]
                if oracle.is_float(dtype):
                    zeros = np.array([-0.0, 0.0]).astype(dtype)
                    lows += [(zeros[0], zeros[1]), (zeros[1], zeros[0])]
                for low_p, low_q in lows:
                    rows = []
                    for p, q in pairs:
                        x = base.copy()
                        x[p], x[q] = low_p, low_q
                        rows.append(x)
                    check_all(np.stack(rows), 1)
                    if oracle.is_float(dtype):
                        check_nan_skipping(np.stack(rows))


# float16 and bfloat16 in short rows only: their loop is that of the 16-bit
# integers, and numpy, the oracle, takes seconds over their long rows.
LINE_WAYS = [(dtype, way) for way in ("short", "rows") for dtype in EXTREME_TYPES
             if way == "short" or not oracle.is_float(dtype) or dtype.itemsize > 2]


@pytest.mark.parametrize(("dtype", "way"), LINE_WAYS, ids=lambda v: str(v))
def test_blocks_from_a_cache_line(dtype, way, kernels):
    # A run of eight blocks or more that does not start on a vector's width
    # reads its first block where it starts, then blocks from that width on
    # (head elements in), the second overlapping the first (extreme.h): the
    # best value twice (-0.0 once and +0.0 once, and NaN), at each end of the
    # first two blocks of each variant and of their overlap, in rows at every
    # element offset from a cache line; NaN skipped too.
    quad = QUAD_BYTES // dtype.itemsize
    per_line = 64 // dtype.itemsize
    shortest, longest = _api.kernels.short_row_bounds(dtype.itemsize)
    if way == "short":
        # Eight AVX-512 blocks and a part; or, where short rows end sooner
        # (16-bit rows with AVX-512BW), the longest, eight blocks exactly.
        n = min(8 * quad + quad // 2 + 3, longest)
        if n < max(shortest, 8 * quad):
            pytest.skip(f"no short rows of eight blocks of {dtype} on this variant")
    else:
        n = BLOCK_BYTES // dtype.itemsize + 5
    rng = np.random.default_rng(19)
    stride = -(-n // per_line) * per_line + per_line   # whole lines a row
    lows = [(low, low) for low in low_values(dtype)]
    if oracle.is_float(dtype):
        lows.append((np.array(-0.0).astype(dtype), np.array(0.0).astype(dtype)))
    with tuned(**RUN_WAYS[way]):
        for offset in range(per_line):
            edges = set()
            # The heads and blocks of the variants' vectors: 16, 32 and 64 bytes.
            for block in (quad // 4, quad // 2, quad):
                head = -offset % (block // 4)
                for edge in (0, head, block, head + block, head + 2 * block):
                    edges.update((edge - 1, edge, edge + 1))
            pairs = list(itertools.combinations(sorted(e for e in edges if 0 <= e < n), 2))
            base = background(dtype, n, rng, False)
            for low_p, low_q in lows:
                memory = np.zeros((len(pairs) + 1) * stride * dtype.itemsize + 64, np.uint8)
                first = (-memory.ctypes.data % 64) // dtype.itemsize + offset
                rows = memory.view(dtype)[first:first + len(pairs) * stride]
                rows = rows.reshape(len(pairs), stride)[:, :n]
                rows[...] = base
                for r, (p, q) in enumerate(pairs):
                    rows[r, p], rows[r, q] = low_p, low_q
                check_all(rows, 1)
                if oracle.is_float(dtype):
                    check_nan_skipping(rows)


def check_nan_skipping(data):
    # nanargmin and nanargmax along the rows of data, none of them all NaN.
    for function, expected in ((argmin.nanargmin, oracle.nanargmin),
                               (argmin.nanargmax, oracle.nanargmax)):
        for last in (False, True):
            np.testing.assert_array_equal(function(data, 1, False, last),
                                          expected(data, 1, False, last),
                                          err_msg=f"{function.__name__} last={last}")


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_columns(dtype, kernels):
    # The reduced axis is strided and another axis contiguous.
    rng = np.random.default_rng(2)
    for n in LENGTHS:
        for x in cases(dtype, n, rng):
            check_all(np.stack([x, x[::-1], x], axis=1), 0)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_column_tiles(dtype, kernels):
    # Many columns: the edges of column tiles, with ties and NaNs within columns;
    # rows folded several at a time (rows of a tile, or whole rows of 4 KiB or
    # more) and one at a time (the rest).
    rng = np.random.default_rng(3)
    for n in LENGTHS:
        pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
        data = rng.choice(pool, size=(19, n))
        check_all(data, 0)
        check_all(np.asfortranarray(data.T), 1)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_column_tiles_written_across(dtype, kernels):
    # Fortran arrays along their last axis: two column axes, the outer one
    # contiguous in the output and the inner one spread out, written a block
    # of inner positions at a time down the whole rows of a tile, the rows
    # that the tile's ends cut one position after another.  Inner axes of
    # fewer positions than a block, a block and more; tiles that start and
    # end inside a row, also cut short for threads; axes walked backwards;
    # the reduced axis split between threads, whose pieces are merged and
    # then written.
    rng = np.random.default_rng(16)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    tile = 16384 // dtype.itemsize
    with tuned(parallel_bytes=0):
        for inner in (3, 8, 9, 64, 67):
            outer = 2 * tile // inner + 5
            data = np.asfortranarray(rng.choice(pool, size=(inner, outer, 3)))
            check_all(data, 2, (1, 3, 8))
            check_all(data[::-1, 1:, :], 2)
            check_all(data[:, ::-1, ::-1], 2)
        check_all(np.asfortranarray(rng.choice(pool, size=(9, 7, 4096))), 2, (3, 16))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_columns_apart(dtype, kernels):
    # Rows of the columns not next to each other in memory: several rows are
    # folded at once, then the rest one by one.
    rng = np.random.default_rng(6)
    for n in LENGTHS:
        for x in cases(dtype, n, rng):
            wide = np.zeros((n, 5), dtype)
            wide[:, :3] = np.stack([x, x[::-1], x], axis=1)
            check_all(wide[:, :3], 0)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
@pytest.mark.parametrize("width", [2, 3, 4, 5, 8, 16, 17, 100, 300])
def test_narrow_columns(dtype, width, kernels, every):
    # Columns whose rows follow each other: many rows are read as one row of
    # lanes, and the rows left over one by one.
    rng = np.random.default_rng(8)
    lengths = LENGTHS + [16319, 16320, 16321, 40000] if width < 100 else [7, 8, 9, 63, 65, 257]
    lengths = lengths if every else lengths[::3] + lengths[-1:]
    for n in lengths:
        for x in cases(dtype, n, rng) if n < 5000 else [background(dtype, n, rng, False)]:
            check_all(np.stack([np.roll(x, 7 * c) for c in range(width)], axis=1), 0,
                      THREADS if n > 5000 else (1,))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_grouped_rows(dtype, kernels, every):
    # Rows that follow each other, from a group of lanes (a cache line, at
    # least 32 lanes) to 256 bytes long: a group of lanes at a time, over
    # batches of rows just under 4 KiB (the last group overlapping the one
    # before), in chunks of 127 rows for 8-bit keys; the reduced axis split
    # between threads.  As rows of a C array along axis 0, and as the slabs
    # of a Fortran array along axis 1.  Widths just outside the bounds, read
    # as packed rows or row by row, alongside.
    rng = np.random.default_rng(11)
    group = max(64 // dtype.itemsize, 32)
    most = 256 // dtype.itemsize
    inside = {w for w in (group, group + 1, 2 * group - 1, 3 * group + 8, most) if w <= most}
    for width in sorted(inside | {group - 1, most + 1}):
        for n in ((1, 127, 128, 255, 300) if every else (128, 300)) if width in inside else ():
            for x in cases(dtype, n, rng):
                check_all(np.stack([np.roll(x, 5 * c) for c in range(width)], axis=1), 0)
        x = background(dtype, 40_000, rng, False)
        data = np.stack([np.roll(x, 5 * c) for c in range(width)], axis=1)
        data[[7, 20_000, 39_999], [0, 0, width - 1]] = low_values(dtype)[0]
        check_all(data, 0, THREADS)
        slabs = np.asfortranarray(np.stack([data[:300], data[300:600][::-1]], axis=2).transpose(1, 0, 2))
        with tuned(parallel_bytes=0):
            check_all(slabs, 1, THREADS)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
@pytest.mark.parametrize("stream_bytes, shift", [(HUGE, -1), (0, -1), (0, 3), (0, 7)],
                         ids=["cached", "past caches", "shift 3", "shift 7"])
def test_blocked_columns(dtype, stream_bytes, shift, kernels):
    # Columns written far apart while an outer axis is written next to each
    # other (the first axis of a Fortran array): eight positions of that axis
    # at a time (more with the values: test_blocks_of_a_line_of_values), one
    # after another, then whole output lines (past the caches or not).  Contiguous rows read as columns for every length; whole
    # blocks and a part, fewer than a block, axes walked backwards, that axis
    # outermost in memory, columns whose rows follow each other; outputs
    # whose lines all start alike (their other strides whole lines), whose
    # first block past the caches is cut short to end on a line (as it falls,
    # or by a set shift); threads, even for small inputs, and more threads
    # than blocks and items (not in blocks: the reduced axis split between
    # threads, in two chunks).
    rng = np.random.default_rng(16)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    with tuned(short_row_len=HUGE, min_row_len=HUGE, stream_bytes=stream_bytes, block_shift=shift,
               parallel_bytes=0):
        for n in (2, 3, 15, 300):
            x = np.asfortranarray(rng.choice(pool, size=(n, 37, 19)))
            check_all(x, 0, (1, 2, 3))
            check_all(x[::-1, :, 1:], 0, (1, 3))
            check_all(x[:, ::-1, :5], 0, (1, 3))
            check_all(np.asfortranarray(rng.choice(pool, size=(n, 3, 5, 11))), 0, (1, 3))
            follow = np.asfortranarray(rng.choice(pool, size=(40, n, 13))).transpose(1, 0, 2)
            check_all(follow, 0, (1, 2))
            check_all(follow[:, ::-1, ::-1], 0)
            lines = np.asfortranarray(rng.choice(pool, size=(n, 5, 3, 16)))
            check_all(lines, 0, (1, 3))
            check_all(lines[:, ::-1, :, 8:], 0, (1, 2))
            check_all(x[:, ::-1], 0)
            wide = np.asfortranarray(rng.choice(pool, size=(n, 37, 24)))
            check_all(wide, 0, (1, 2, 3))
            check_all(wide[:, ::-1], 0, (1, 3))
            check_all(wide[::-1], 0)
        x = np.asfortranarray(rng.choice(pool, size=(140_000, 2, 9)))
        x[[69_999, 70_000, 70_000, 5, 139_999], [0, 0, 1, 1, 1], [0, 8, 8, 8, 8]] = low_values(dtype)[0]
        check_all(x, 0, (1, 32))


@pytest.mark.parametrize("dtype", [np.dtype("uint8"), np.dtype("float32")], ids=str)
def test_blocks_into_fresh_output(dtype, kernels):
    # Blocks written into an output of 32 MiB or more, whose pages the
    # threads touch before they write the blocks: rows of 2 along the first
    # axis of a Fortran array, forwards and backwards.
    rng = np.random.default_rng(17)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    x = np.asfortranarray(rng.choice(pool, size=(2, 512, 8200)))
    assert x[0].size * 8 > 32 << 20  # TOUCH_BYTES in argmin/kernels/execute.pxi
    check_all(x, 0, (1, 2, 3))
    check_all(x[:, ::-1, ::-1], 0, (2,))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
@pytest.mark.parametrize("stream_bytes, shift", [(HUGE, -1), (0, -1), (0, 5)],
                         ids=["cached", "past caches", "shift 5"])
def test_blocks_of_a_line_of_values(dtype, stream_bytes, shift, kernels):
    # With the values, a block takes as many outer positions as a cache line
    # of values holds (8 to 64), whose indices are written eight at a time:
    # whole blocks and a part of an axis of 2 lines and 5 positions, or of 3
    # lines (whose blocks past the caches start on lines of both arrays), the
    # first block cut short (as it falls, or by a set shift); short rows read
    # as one tile (whole columns) or side by side, eight tiles at a time (rows
    # apart), forwards and backwards; rows read as strided columns; that axis
    # outermost in memory, under another outer axis; columns of several
    # tiles; values on one thread and on three.
    rng = np.random.default_rng(19)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    line = 64 // dtype.itemsize
    with tuned(stream_bytes=stream_bytes, block_shift=shift, parallel_bytes=0):
        for n, inner in itertools.product((2, 16, 40), (2 * line + 5, 3 * line)):
            x = np.asfortranarray(rng.choice(pool, size=(n, 19, inner)))
            unsigned = x.view(f"u{dtype.itemsize}")   # planned alike; known to the kernels
            assert plan(unsigned, 0, values=True)["block"] == max(8, line)
            check_all(x, 0, (1, 3))
            check_all(x[:, 1:], 0, (3, 1))
            check_all(x[::-1], 0, (3, 1))
            check_all(x[::-1, 1:], 0)
            with tuned(short_row_len=HUGE, min_row_len=HUGE):
                check_all(x, 0, (3, 1))
                check_all(x[::-1, 1:], 0)
        check_all(np.asfortranarray(rng.choice(pool, size=(16, 9, 2, 3 * line))), 0, (1, 3))
        check_all(np.asfortranarray(rng.choice(pool, size=(2, 3000, 3 * line + 3))), 0, (3, 1))
    values, indices = argmin.min_argmin(x, 0)
    assert values.ctypes.data % 64 == indices.ctypes.data % 64 // 8 * dtype.itemsize
    assert values.base.dtype == np.uint8 and values.flags.writeable and values.flags.c_contiguous


@pytest.mark.parametrize("dtype", [np.dtype("int8"), np.dtype("uint8")], ids=str)
@pytest.mark.parametrize("width", [2, 3])
def test_narrow_columns_across_chunks(dtype, width, kernels):
    # Row numbers of 8-bit keys are counted in chunks of 127 rows of lanes,
    # each of `pack` rows, up to two groups of 64 lanes: minima and ties on
    # both sides of the chunk edges, and in the rows left over after whole
    # rows of lanes, read as one more row of lanes where the last chunk has
    # room for it, and one by one where it is full.
    rng = np.random.default_rng(10)
    pack = 128 // width
    for n in (2 * 127 * pack + 5, 2 * 127 * pack - pack + 5):
        base = background(dtype, n, rng, False)
        edges = sorted({e + d for e in range(127 * pack, n, 127 * pack) for d in (-1, 0)})
        for low in low_values(dtype):
            x = np.stack([np.roll(base, c) for c in range(width)], axis=1)
            x[edges[0], 0] = x[n - 1, 0] = low  # a tie across chunks
            x[edges[-1], 1] = x[n - 3, 1] = low
            check_all(x, 0)
            x[n - 2, 0] = x[n - 4, 1] = low  # ties within the rows left over
            check_all(x, 0)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_narrow_column_items(dtype, kernels, every):
    # Many items of a few narrow columns, (m, n, w) along axis 1: tiles
    # narrower than a group of lanes read a group wide, the lanes past them
    # left out (a row at a time for the last items, where a group would run
    # past the input); rows of lanes only from twice the lanes; the rows
    # apart (a slice), following each other, or all the same row (a
    # broadcast, stride 0); threads, even for small inputs.
    rng = np.random.default_rng(12)
    with tuned(parallel_bytes=0):
        for width in (1, 2, 3, 7, 16, 17) if every else (1, 3, 17):
            for n in (1, 2, 7, 16, 63, 64, 127, 128, 129, 300) if every else (1, 7, 64, 129, 300):
                for x in list(cases(dtype, n, rng))[::11]:
                    data = np.stack([np.stack([np.roll(x, 3 * c + i) for c in range(width + 2)],
                                              axis=1) for i in range(5)])
                    check_all(np.ascontiguousarray(data[:, :, :width]), 1, (1, 2, 3))
                    check_all(data[:, :, 1:width + 1], 1, (1, 3))
                check_all(np.broadcast_to(data[:, :1, 1:width + 1], data[:, :, :width].shape), 1,
                          (1, 2))


def test_narrow_columns_across_threads(kernels):
    # Few narrow columns and a long reduced axis: split between threads.
    rng = np.random.default_rng(9)
    data = rng.integers(1, 5, size=(300_001, 3)).astype(np.uint8)
    # Ties in columns 0 and 2, in different threads' chunks.
    data[[5, 150_000, 150_000, 7, 299_999], [0, 0, 1, 2, 2]] = 0
    check_all(data, 0, THREADS)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_short_rows(dtype, row_way, every):
    # Rows of a few to a thousand elements (both ends of pieces of 2 to 64
    # bytes of a vector of pairs, of rows paired in vectors, of pairs' 8-bit
    # positions and of short rows), read each way: one after another,
    # backwards, apart, repeated (a zero stride), and along the first axis of
    # 3-D and 4-D Fortran arrays, whose output is written across the rows.
    rng = np.random.default_rng(13)
    values = np.concatenate([background(dtype, 4, rng, False), edge_values(dtype)])
    lows = low_values(dtype)
    if oracle.is_float(dtype):
        lows.append(np.array(-np.nan).astype(dtype))
    # With the lowest values, which decide every row that holds them, and without.
    pools = [np.concatenate([lows, values]), values]
    lengths = (2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
               512, 513, 1024, 1025)
    for n in lengths if every else lengths[::4]:
        for pool in pools:
            x = rng.choice(pool, size=(37, n))
            check_all(x, 1, (1, 3))
            # Rows reduced together in groups (of 8 to 64): whole groups and a part.
            check_all(rng.choice(pool, size=(130, n)), 1)
            check_all(x[:, ::-1], 1)
            check_all(rng.choice(pool, size=(37, n + 5))[:, 2:n + 2], 1)
            check_all(np.broadcast_to(x[5], (37, n)), 1)
            # Output lines filled a block of the last axis at a time, whole or
            # not: its tiles read as one where they follow each other in memory.
            fortran = np.asfortranarray(rng.choice(pool, size=(n, 7, 19)))
            check_all(fortran, 0, (1, 3))
            check_all(fortran[:, 1:, ::2], 0, (1, 3))
            check_all(fortran[::-1], 0)
            # Whole blocks of indices whose output lines start on a cache
            # line: tiles read as one, and (rows apart, 8 of each 9) side by
            # side.
            fortran = np.asfortranarray(rng.choice(pool, size=(n, 9, 16)))
            check_all(fortran, 0, (1, 3))
            check_all(fortran[::-1, ::-1], 0)
            check_all(fortran[:, 1:], 0, (1, 3))
            # The same with the output-contiguous axis outermost in memory.
            fortran = np.asfortranarray(rng.choice(pool, size=(n, 3, 5, 11)))
            check_all(fortran, 0, (1, 3))
            check_all(fortran[::-1, :, ::2, 1:], 0)
            # Blocks of an outer axis next to two axes of rows that follow
            # each other in the output (one column of 15 rows).
            check_all(rng.choice(pool, size=(11, 3, 5, n)).transpose(1, 2, 0, 3), 3, (1, 3))
    # Columns of several tiles, in blocks: a whole column a tile (its rows
    # and the columns follow each other), whole blocks and a part, or cut
    # narrower for threads.
    check_all(np.asfortranarray(rng.choice(pools[1], size=(64, 300, 11))), 0, (1, 2, 5))


@pytest.mark.parametrize("dtype", [np.dtype(name) for name in ("uint8", "int16", "float32", "int64")],
                         ids=str)
@pytest.mark.parametrize("ask", [False, True], ids=["hardware prefetch", "asked ahead"])
def test_rows_asked_ahead_or_not(dtype, ask, kernels):
    # Long rows, short rows kept for a search (300 elements) and short rows
    # paired with their positions (64 and 200), asked for ahead in software
    # or left to the hardware prefetchers, whatever this CPU's default:
    # forwards and backwards, the last rows' requests reaching past the
    # input, and rows along the first axis of a Fortran array, read in blocks.
    rng = np.random.default_rng(18)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    with tuned(prefetch_rows=ask):
        for n in (64, 200, 300, 1025, 5000):
            x = rng.choice(pool, size=(70, n))
            check_all(x, 1, (1, 3))
            check_all(x[::-1, ::-1], 1)
        check_all(np.asfortranarray(rng.choice(pool, size=(300, 7, 19))), 0, (1, 3))


def nan_bits(dtype):
    """Bit patterns of NaNs of both signs: the smallest and largest payloads, a quiet NaN
    and a signalling one between."""
    unsigned = np.dtype(f"u{dtype.itemsize}")
    sign = 1 << (8 * dtype.itemsize - 1)
    inf = int(np.array(np.inf).astype(dtype).view(unsigned))
    quiet = int(np.array(np.nan).astype(dtype).view(unsigned)) & (sign - 1)
    payloads = [inf + 1, (inf + 1 + quiet) // 2, quiet, sign - 1]
    return np.array(payloads + [sign | bits for bits in payloads], dtype=unsigned)


@pytest.mark.parametrize("dtype", oracle.FLOAT_TYPES, ids=str)
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_nan_payloads(dtype, row_way):
    # Rows of none to five NaNs of several payloads and signs, whose keys
    # differ, although every NaN is the minimum: the first (or last) NaN wins,
    # whichever its key; nanargmin and nanargmax skip them all.  Rows read
    # each way, and down the columns.
    rng = np.random.default_rng(16)
    nans = nan_bits(dtype)
    for n in (2, 7, 16, 33, 64, 65, 128, 256, 300, 1024, 1025, 4097):
        x = rng.uniform(-100, 100, (23, n)).astype(dtype)
        bits = x.view(nans.dtype)
        for row, count in enumerate(rng.integers(0, 6, 23)):
            bits[row, rng.choice(n, min(count, n), replace=False)] = rng.choice(nans, min(count, n))
        check_all(x, 1, (1, 3))
        check_all(x[:, ::-1], 1)
        if n > 5:   # no row all NaN
            check_nan_skipping(x)
        check_all(np.asfortranarray(x.T), 0, (1, 3))
        # Rows along the first axis of a Fortran array, eight tiles at a time.
        check_all(np.asfortranarray(x[:21].T.reshape(n, 7, 3)), 0, (1, 3))
        check_all(np.ascontiguousarray(x.T), 0)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_short_rows_in_several_tiles(dtype, kernels):
    # Short rows of each way on one thread, not asked for ahead, in three
    # tiles of rows and a part (the plan's tile_len, wider on one thread than
    # on several): every row its own minimum, ties and NaNs, and rows
    # without NaN.
    rng = np.random.default_rng(20)
    values = background(dtype, 4, rng, False)
    pools = [np.concatenate([low_values(dtype), values]), values]
    shortest, longest = _api.kernels.short_row_bounds(dtype.itemsize)
    with tuned(prefetch_rows=False, stream_bytes=HUGE):
        for n in sorted({n for n in (16, 64, 300, longest) if shortest <= n <= longest}):
            # Planned on more rows than three of the widest tiles (of unsigned
            # integers of the size: the plan reads only the layout).
            rows = 4 * max(1024, BLOCK_BYTES // (n * dtype.itemsize))
            planned = plan(np.empty((rows, n), f"u{dtype.itemsize}"), 1, 1)
            assert planned["way"] == "short" and planned["tiles"] >= 3, planned
            for pool in pools:
                check_all(rng.choice(pool, size=(3 * planned["tile_len"] + 5, n)), 1)


@pytest.mark.parametrize("dtype", [t for t in oracle.ELEMENT_TYPES if t.itemsize > 1], ids=str)
def test_short_rows_searched_in_pairs(dtype, kernels):
    # Short rows searched for their best key's index are taken two at a time
    # (16-bit rows of 200 elements where this build has a vector loop for
    # them, of 300 only where AVX-512BW reads them as short rows).  Each row
    # of a pair takes the vector extreme or falls back to its keys
    # (floating-point rows with a NaN), in
    # every combination, with the best key once or twice in the row, and a
    # row left over at the end of an odd tile: pairs of rows, their end and
    # their start moved one row along, tiles cut by threads, and rows asked
    # for ahead, taken one at a time (test_short_rows reads tiles of Fortran
    # arrays, a row of each in turn).
    rng = np.random.default_rng(21)
    marks = [0, 1, 1, 0, 1, 1, 0, 0, 1, 2, 2, 0, 2, 1, 0]
    longest = _api.kernels.short_row_bounds(dtype.itemsize)[1]
    for n in (64, 300) if dtype.itemsize > 2 else (200, 300):
        for low in low_values(dtype):
            x = background(dtype, len(marks) * n, rng, False).reshape(len(marks), n)
            for row, mark in enumerate(marks):
                x[row, rng.choice(n, mark, replace=False)] = low
            for ask in (False, True):
                with tuned(prefetch_rows=ask, stream_bytes=HUGE):
                    if n <= longest:
                        assert plan(x, 1, 1)["way"] == "short"
                    for rows in (1, 2, 3, len(marks)):
                        check_all(x[:rows], 1)
                        check_all(x[1:rows + 1], 1)
                    check_all(x, 1, (2, 3))
                    check_all(x[::-1], 1)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_short_rows_split_between_threads(dtype):
    # Rows that overlap in memory (a broadcast row) and many threads: each
    # row is split between threads, into pieces of a few elements.  Lower
    # values lie just past the row, where a piece read too far would find them.
    rng = np.random.default_rng(15)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    # The case of rows of 128 splits them in two pieces of 64, paired from
    # the middle of the row for 8-, 16- and 32-bit keys; the next two split
    # 8-bit rows of 57 and 29 into pieces of 29 and 28, and 15 and 14 (read
    # as two overlapping pieces of 16 and 8 bytes); the last three split rows
    # of 1024, 1000 and 513 in two: 16-bit pieces of 512 and 500, and of
    # 257 and 256, searched with AVX-512BW.
    for n, rows, threads in [(63, 69637, 34), (48, 118273, 44), (33, 254016, 64),
                             (63, 139364, 67), (128, 68609, 67), (57, 98673, 44),
                             (29, 345268, 77), (1024, 1000, 9), (1000, 1148, 7),
                             (513, 2036, 9)]:
        memory = np.concatenate([rng.choice(pool, size=n), np.repeat(low_values(dtype)[-1:], 64)])
        check_all(np.broadcast_to(memory[:n], (rows, n)), 1, (threads,))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_rows_across_threads_each_way(dtype, row_way):
    # Two long rows, more threads than rows: each row is split between
    # threads, with minima only past the first chunk, and at both ends.
    rng = np.random.default_rng(14)
    n = 200_003
    data = np.stack([background(dtype, n, rng, False) for _ in range(2)])
    for low in low_values(dtype):
        x = data.copy()
        x[0, [n // 2 + 1, 2 * n // 3 + 1]] = low
        x[1, [0, n // 2, n - 1]] = low
        check_all(x, 1, THREADS)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_strided_column_tiles(dtype, kernels):
    # Tiles of strided columns are shorter: columns of a sliced array, and
    # rows of a few elements, which are read as columns across the rows (with
    # AVX-512BW, rows of 2 8- to 32-bit elements are read together instead,
    # and 16- and 32-bit rows of 15 as short rows; with AVX2, rows of 2 8-bit
    # elements and 16-bit rows of 15).
    rng = np.random.default_rng(11)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    # Columns more than a tile apart: tiles of one column.
    check_all(rng.choice(pool, size=(3, 17 * 16385))[:, ::16385], 0)
    for n in LENGTHS:
        check_all(rng.choice(pool, size=(5, 3 * n))[:, ::3], 0)
        for length in (2, 7, 15):
            check_all(rng.choice(pool, size=(n, length)), 1)


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_strided_column_tiles_across_threads(dtype, kernels):
    # Fewer tiles than threads: the tiles are cut narrower, never wider than
    # a strided tile's span (whose scratch holds no more).
    rng = np.random.default_rng(12)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    length = 64 // dtype.itemsize
    x = rng.choice(pool, size=(64, 257 * length))[:, ::257]
    with tuned(parallel_bytes=0):  # threads even for this small input
        check_all(x, 0, (1, 3, 8))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_column_tiles_from_any_byte(dtype, kernels):
    # Columns longer than a tile, starting anywhere within a cache line: the
    # first tile is cut short so that the others start on one.
    rng = np.random.default_rng(7)
    pool = np.concatenate([low_values(dtype), background(dtype, 4, rng, False)])
    columns = 2 * 16384 // dtype.itemsize + 37
    data = rng.choice(pool, size=(19, columns))
    buffer = np.zeros(data.nbytes + 64, np.uint8)
    for offset in range(0, 64, dtype.itemsize):
        x = buffer[offset:offset + data.nbytes].view(dtype).reshape(data.shape)
        x[...] = data
        check_all(x, 0, (1, 2, 3, 8))
    # A column of a few lines, rows apart, and more threads than tiles: the
    # tiles are cut narrower (still starting on a line) and the reduced axis
    # is split between threads.
    tall = rng.choice(pool, size=(8192, 2 * 64 // dtype.itemsize + 3))
    buffer = np.zeros(2 * tall.nbytes + 64, np.uint8)
    for offset in (0, dtype.itemsize):
        wide = buffer[offset:offset + 2 * tall.nbytes].view(dtype).reshape(8192, -1)
        x = wide[:, :tall.shape[1]]
        x[...] = tall
        check_all(x, 0, (1, 2, 3, 8))


@pytest.mark.parametrize("dtype", oracle.ELEMENT_TYPES, ids=str)
def test_long_rows_across_threads(dtype, kernels):
    rng = np.random.default_rng(4)
    base = background(dtype, LONG, rng, False)
    for low in low_values(dtype):
        for p, q in [(0, LONG - 1), (LONG // 2 - 1, LONG // 2), (LONG // 3, 2 * (-(-LONG // 3))),
                     (-(-LONG // 8) - 1, -(-LONG // 8))]:
            x = base.copy()
            x[p] = x[q] = low
            check_all(x, 0, THREADS)
            x[p] = base[p]
            check_all(x, 0, THREADS)


@pytest.mark.parametrize("dtype", [np.dtype("float32"), np.dtype("int8"), oracle.BFLOAT16], ids=str)
def test_long_columns_across_threads(dtype, kernels):
    # Few columns and a long reduced axis: the columns are split between threads.
    rng = np.random.default_rng(5)
    n = LONG // 3
    data = np.stack([background(dtype, n, rng, False) for _ in range(3)], axis=1)
    for low in low_values(dtype):
        x = data.copy()
        x[n // 2 - 1, 0] = x[n // 2, 0] = low
        x[0, 1] = x[n - 1, 1] = low
        x[n // 3, 2] = x[2 * n // 3 + 1, 2] = low
        check_all(x, 0, THREADS)
