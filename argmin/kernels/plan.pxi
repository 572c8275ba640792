# Planning: how a layout's work is cut into items for the threads, and the
# scratch memory each thread needs.  Pure functions of the layout, the
# element size, the thread count and the Tuning (plan_of shows their result).

cdef enum:
    # Bytes that a row of a column tile spans: long enough to stream, short
    # enough that the tile's running best and row numbers stay in cache.
    TILE_BYTES = 16384
    # Fewest short rows of a tile: a work item's set-up and its output cost
    # about as much as a short row of a few KiB.
    MIN_TILE_ROWS = 4
    # A tile of short rows on one thread, where no thread waits for another's
    # work, spans up to SHORT_TILE_BYTES of rows, SHORT_TILE_ROWS at most (its
    # best keys and indices stay in the first-level cache), but no less than
    # TILE_BYTES: fewer items to set up.  Not in output blocks (plan_blocks),
    # whose tiles are narrower, nor where the rows are asked for ahead.
    SHORT_TILE_BYTES = 1 << 17
    SHORT_TILE_ROWS = 1024
    # Fewest elements that a thread takes when the reduced axis of a row or
    # a column tile is split between threads.
    MIN_SPLIT = 1 << 16
    # Column tiles too few for the threads are cut narrower only where each
    # piece keeps SPLIT_TILE_BYTES; otherwise they stay whole and the threads
    # take chunks of the reduced axis instead.
    SPLIT_TILE_BYTES = 4096
    # Short rows in output blocks: rows of at most BLOCK_ROW_BYTES, or twice
    # that in tiles of at least BLOCK_TILE_BYTES, or of any length when the
    # tiles of a block are whole columns of at most BLOCK_COLUMN_BYTES that
    # follow each other in memory, read as one (see plan_blocks).
    BLOCK_ROW_BYTES = 128
    BLOCK_TILE_BYTES = 4096
    BLOCK_COLUMN_BYTES = 1 << 20


cdef struct Tiling:
    # How the work is cut: `outer` outer positions (or blocks of them), each
    # in `tiles` column tiles of at most tile_len elements, the first tile
    # `shift` elements short so that the others start on a cache line; the
    # reduced axis in `splits` chunks of `chunk` positions.  items = outer *
    # tiles, and work = items * splits work items, on `threads` threads.
    Py_ssize_t outer
    Py_ssize_t tile_len
    Py_ssize_t shift
    Py_ssize_t tiles
    Py_ssize_t items
    Py_ssize_t splits
    Py_ssize_t chunk
    Py_ssize_t work
    int threads
    # The ways: pack_rows, narrow columns whose rows follow each other;
    # grouped, columns whose rows follow each other folded a group of lanes at
    # a time; short_rows, the columns are short contiguous rows, read row by
    # row, asked for ahead where ask_rows.
    bint pack_rows
    bint grouped
    bint short_rows
    bint ask_rows
    # A work item takes `block` positions of the innermost outer axis at once
    # (see plan_blocks and block_len), whose output is written past the
    # caches when stream_out; the first block of the axis `block_shift`
    # positions short (see line_shift).
    Py_ssize_t block
    Py_ssize_t block_shift
    bint stream_out
    # Each thread's scratch: head_bytes of best keys and indices, `slack`
    # bytes to shift the chunk's running best within ALIAS_SPAN, and two
    # arrays of chunk_bytes (running best keys and rows).
    Py_ssize_t head_bytes
    Py_ssize_t slack
    Py_ssize_t chunk_bytes
    Py_ssize_t thread_bytes


cdef inline Py_ssize_t tile_span(
    const Layout* layout, const Tiling* tiling, Py_ssize_t tile, Py_ssize_t* first,
) noexcept nogil:
    # First column position of a tile, and its width.
    cdef Py_ssize_t start = tile * tiling.tile_len - tiling.shift
    first[0] = max(start, 0)
    return min(start + tiling.tile_len, layout.column_len) - first[0]


cdef inline Py_ssize_t axis_blocks(Py_ssize_t inner, const Tiling* tiling) noexcept nogil:
    # Blocks of an innermost outer axis of `inner` positions, the first
    # block_shift positions short.
    return (inner + tiling.block_shift + tiling.block - 1) // tiling.block


cdef inline Py_ssize_t block_len(const Layout* layout, Py_ssize_t size) noexcept nogil:
    # The positions of a block: OUT_BLOCK, a cache line of int64 indices; with
    # the values, a line of values, CACHE_LINE / size (OUT_BLOCK or a whole
    # number of them, for sizes 1 to 8).  Where the blocks start on lines of
    # indices (see line_shift) and the output's strides are whole lines of
    # values, no other block writes to the lines of either (the values' array
    # starts its lines where the indices' array does: see new_values).
    if layout.values == NULL:
        return OUT_BLOCK
    return max(<Py_ssize_t>OUT_BLOCK, CACHE_LINE // size)


cdef inline Py_ssize_t line_shift(const Layout* layout) noexcept nogil:
    # For blocks of the innermost outer axis (output stride 1) written past
    # the caches: how many positions the first block leaves out, so that each
    # other block's output starts a cache line, not part of one (numpy's
    # outputs start on 16 bytes).  Only where every other output stride is a
    # whole number of lines, so that all the blocks start on one; otherwise 0.
    cdef int d
    if layout.column_out_stride[0] % OUT_BLOCK:
        return 0
    for d in range(layout.outer_ndim - 1):
        if layout.outer_out_stride[d] % OUT_BLOCK:
            return 0
    return <size_t>layout.out // sizeof(int64_t) % OUT_BLOCK


cdef inline bint reads_short_rows(
    const Layout* layout, Py_ssize_t size, const Tuning* tuning,
) noexcept nogil:
    # Whether the layout's contiguous rows, not long rows, are read as short
    # rows (short_row) rather than as strided columns.
    cdef Py_ssize_t n = layout.reduced_len
    # Rows that follow each other and are written one after another.
    cdef bint consecutive = (layout.column_ndim == 1 and layout.column_stride == n * size
                             and -1 <= layout.column_out_stride[0] <= 1)
    return (layout.column_ndim > 0 and layout.reduced_stride == size
            and short_row(n, size, consecutive, tuning))


cdef inline int call_pace_kind(
    const Layout* layout, Py_ssize_t size, const Tuning* tuning,
) noexcept nogil:
    # The pace_kind of a call of this layout: the way its plan reads it.
    return pace_kind(size, layout.column_ndim == 0 and layout.reduced_stride == size,
                     reads_short_rows(layout, size, tuning))


cdef void choose_ways(
    const Layout* layout, Py_ssize_t size, const Tuning* tuning, Tiling* tiling,
) noexcept nogil:
    # Columns whose rows follow each other: grouped rows (see column_chunk),
    # or narrower ones read as rows of lanes (packed_column_argmin), one tile
    # a column.  Contiguous rows: short rows, unless read as strided columns.
    cdef Py_ssize_t n = layout.reduced_len
    cdef bint rows_follow = (layout.column_ndim > 0 and layout.column_stride == size
                             and layout.reduced_stride == layout.column_len * size)
    tiling.grouped = rows_follow and grouped_rows(layout.column_len, size)
    tiling.pack_rows = (rows_follow and not tiling.grouped
                        and 2 * layout.column_len * size <= PACK_BYTES)
    tiling.short_rows = reads_short_rows(layout, size, tuning)
    # Rows of an input from memory are asked for ahead on every CPU: the
    # hardware prefetchers, which follow a stream they have seen miss, fall
    # behind where each row ends in its own index and search, and where
    # short rows are read a tile of rows (several streams) at a time.
    tiling.ask_rows = (tuning.ask_rows
                       or tiling.outer * layout.column_len * n * size >= tuning.stream_bytes)


cdef int block_axis(const Layout* layout) noexcept nogil:
    # The innermost outer axis written next to each other (output stride 1),
    # or -1.
    cdef int d = layout.outer_ndim - 1
    while d >= 0 and layout.outer_out_stride[d] != 1:
        d -= 1
    return d


cdef const Layout* plan_blocks(
    const Layout* layout, Py_ssize_t size, const Tuning* tuning, int num_threads,
    Py_ssize_t* widest, Tiling* tiling, Layout* blocked,
) noexcept nogil:
    # Short rows and columns write an output element each: where their
    # column is written far apart but an outer axis next to each other (the
    # first axis of a Fortran array), a work item reads a block of tiles of
    # that axis (block_len), side by side (short rows) or one after another
    # (columns), and writes whole lines of output.  That axis becomes the
    # innermost outer one, in `blocked`, the returned layout (the outer axes
    # can be walked in any order).  Short rows only of up to BLOCK_ROW_BYTES,
    # or twice that in tiles of BLOCK_TILE_BYTES or more, unless a block is
    # read as one (whole columns); columns only where the blocks leave a work
    # item for each thread (blocks are not split along the reduced axis).
    cdef Py_ssize_t n = layout.reduced_len, block = block_len(layout, size), inner, blocks
    cdef int e, d = block_axis(layout)
    cdef bint blocks_pay = False, whole = False
    tiling.block = 1
    tiling.block_shift = 0
    tiling.stream_out = False
    if layout.column_ndim != 1 or d < 0:
        return layout
    inner = layout.outer_len[d]
    blocks = tiling.outer // inner * ((inner + block - 1) // block)
    # Short rows that follow each other, in columns that follow each other
    # along that axis: a column a tile, a block's tiles read as one.
    whole = (tiling.short_rows and layout.column_stride == n * size
             and layout.outer_stride[d] == layout.column_len * n * size
             and layout.column_len * max(n * size, block * (size + 8)) <= BLOCK_COLUMN_BYTES)
    if tiling.short_rows:
        blocks_pay = (whole or n * size <= BLOCK_ROW_BYTES
                      or (n * size <= 2 * BLOCK_ROW_BYTES
                          and widest[0] * n * size >= BLOCK_TILE_BYTES))
    else:
        blocks_pay = (not -OUT_BLOCK <= layout.column_out_stride[0] <= OUT_BLOCK
                      and blocks * ((layout.column_len + widest[0] - 1) // widest[0])
                      >= num_threads)
    if not blocks_pay:
        return layout
    if d < layout.outer_ndim - 1:
        blocked[0] = layout[0]
        for e in range(d, layout.outer_ndim - 1):
            blocked.outer_len[e] = layout.outer_len[e + 1]
            blocked.outer_stride[e] = layout.outer_stride[e + 1]
            blocked.outer_out_stride[e] = layout.outer_out_stride[e + 1]
        blocked.outer_len[layout.outer_ndim - 1] = layout.outer_len[d]
        blocked.outer_stride[layout.outer_ndim - 1] = layout.outer_stride[d]
        blocked.outer_out_stride[layout.outer_ndim - 1] = 1
        layout = blocked
    tiling.block = block
    tiling.stream_out = tiling.outer * layout.column_len * n * size >= tuning.stream_bytes
    if tiling.stream_out:
        tiling.block_shift = line_shift(layout) if tuning.block_shift < 0 else tuning.block_shift
    if whole:
        widest[0] = layout.column_len
    else:
        # A longer block's tiles narrower, its scratch no more than that of
        # OUT_BLOCK positions' tiles (but OUT_BLOCK wide: lines of values).
        widest[0] = min(widest[0], max(<Py_ssize_t>OUT_BLOCK,
                                       TILE_BYTES // max(size, layout.column_stride)
                                       * OUT_BLOCK // block))
    tiling.outer = tiling.outer // inner * axis_blocks(inner, tiling)
    return layout


cdef Py_ssize_t thread_tile_len(
    const Layout* layout, Py_ssize_t size, int num_threads, Py_ssize_t widest,
    const Tiling* tiling,
) noexcept nogil:
    # The tiles' length: widest, or narrower tiles (of whole cache lines)
    # that give every thread some where the tiles are fewer than the threads;
    # not of packed or grouped rows, whose threads take chunks of the reduced
    # axis instead, nor pieces under SPLIT_TILE_BYTES where it is long enough.
    cdef Py_ssize_t narrow, line = CACHE_LINE // size
    if (num_threads <= 1 or tiling.pack_rows or tiling.grouped
            or tiling.outer * ((layout.column_len + widest - 1) // widest) >= num_threads):
        return widest
    narrow = (layout.column_len + num_threads - 1) // num_threads
    narrow = min(max(line, (narrow + line - 1) & ~(line - 1)), widest)
    if (narrow * size >= SPLIT_TILE_BYTES or layout.reduced_len * widest < 2 * MIN_SPLIT
            or tiling.block > 1):
        return narrow
    return widest


cdef void plan_scratch(const Layout* layout, Py_ssize_t size, Tiling* tiling) noexcept nogil:
    # Each thread's scratch starts on its own pair of cache lines: threads
    # that wrote to one line would take it from each other on every row.  A
    # chunk's running best holds a tile, or a row of lanes (otherwise it stays
    # small: a small malloc is a fast one), or for short rows, which keep no
    # running best, nothing; when it spans ALIAS_SPAN or more, it and its
    # rows each take a whole number of ALIAS_SPAN, SCRATCH_SHIFT past the
    # input in that span (see execute.pxi).
    cdef Py_ssize_t capacity = (0 if tiling.short_rows else PACK_BYTES // size if tiling.pack_rows
                                else max(tiling.tile_len, group_lanes(size)))
    cdef Py_ssize_t align
    tiling.head_bytes = (tiling.block * tiling.tile_len * (size + sizeof(int64_t)) + 127) & ~127
    tiling.slack = ALIAS_SPAN if capacity * size >= ALIAS_SPAN else 0
    align = max(tiling.slack, 128)
    tiling.chunk_bytes = (capacity * size + align - 1) & ~(align - 1)
    tiling.thread_bytes = tiling.head_bytes + tiling.slack + 2 * tiling.chunk_bytes


cdef void plan_split(
    const Layout* layout, Py_ssize_t size, int num_threads, Tiling* tiling,
) noexcept nogil:
    # Tiles that start on a cache line (a vector load that straddles two
    # lines costs about as much as two), and the reduced axis split between
    # threads that the items leave without work, in chunks of MIN_SPLIT
    # elements or more (not for blocks).
    cdef Py_ssize_t n = layout.reduced_len, tile_len = tiling.tile_len
    cdef Py_ssize_t misalign = <size_t>layout.data % CACHE_LINE
    tiling.shift = 0
    if (layout.column_ndim > 0 and layout.column_stride == size and layout.column_len > tile_len
            and misalign % size == 0 and misalign > 0):
        tiling.shift = tile_len - (CACHE_LINE - misalign) // size
    tiling.tiles = (layout.column_len + tiling.shift + tile_len - 1) // tile_len
    tiling.items = tiling.outer * tiling.tiles
    tiling.splits = 1
    if (num_threads > 1 and tiling.items < num_threads and n * tile_len >= 2 * MIN_SPLIT
            and tiling.block == 1):
        tiling.splits = min((num_threads + tiling.items - 1) // tiling.items,
                            n * tile_len // MIN_SPLIT)
    tiling.chunk = (n + tiling.splits - 1) // tiling.splits
    tiling.splits = (n + tiling.chunk - 1) // tiling.chunk
    tiling.work = tiling.items * tiling.splits
    tiling.threads = <int>min(<Py_ssize_t>num_threads, tiling.work, MAX_THREADS)


cdef const Layout* plan(
    const Layout* layout, Py_ssize_t size, const Tuning* tuning, int num_threads,
    Tiling* tiling, Layout* blocked,
) noexcept nogil:
    # The tiling of a layout with at least one outer position, on at most
    # num_threads threads; returns the layout to run it on (see plan_blocks).
    # A tile spans TILE_BYTES of each row: strided tiles (short rows read as
    # columns) are shorter, so that the lines they touch stay in cache until
    # the next row reads them.  A tile of short rows spans TILE_BYTES of rows
    # (on one thread, more: see SHORT_TILE_BYTES), but at least MIN_TILE_ROWS
    # of them.
    cdef Py_ssize_t widest, spread = max(size, layout.column_stride)
    cdef int d
    tiling.outer = 1
    for d in range(layout.outer_ndim):
        tiling.outer *= layout.outer_len[d]
    choose_ways(layout, size, tuning, tiling)
    widest = min(layout.column_len, max(MIN_TILE_ROWS if tiling.short_rows else 1,
                                        TILE_BYTES // spread))
    layout = plan_blocks(layout, size, tuning, num_threads, &widest, tiling, blocked)
    if tiling.short_rows and num_threads == 1 and tiling.block == 1 and not tiling.ask_rows:
        widest = min(layout.column_len,
                     max(widest, min(SHORT_TILE_BYTES // spread, <Py_ssize_t>SHORT_TILE_ROWS)))
    tiling.tile_len = thread_tile_len(layout, size, num_threads, widest, tiling)
    plan_split(layout, size, num_threads, tiling)
    plan_scratch(layout, size, tiling)
    return layout
