# Executing a plan: the work items on the threads, the partial results of a
# split reduced axis merged in axis order (so that ties resolve the same for
# every thread count), and the output written.

cdef enum:
    # Fewest bytes of output whose pages are touched before blocks are
    # written (see reduce_layout): glibc's malloc hands back smaller ones from
    # memory it keeps, already mapped.
    TOUCH_BYTES = 32 << 20
    # Most scratch bytes a call takes on the stack rather than from malloc:
    # those of a small call's one thread.
    STACK_SCRATCH = 4096
    # Longest row that a call of one row on one thread reads without a plan.
    PLANLESS_ROW_BYTES = 4096


cdef struct Scratch:
    # One thread's working memory for a column tile.
    void* best
    int64_t* index
    void* chunk_best
    void* chunk_index


cdef Py_ssize_t reduce_item(
    const Layout* layout, const Tiling* tiling, Py_ssize_t w, Scratch* scratch,
    key_t* partial_best, int64_t* partial_index, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Work item w: one column tile (or row) of one outer position, or of a
    # block of them, over one chunk of the reduced axis.  Writes the output,
    # or the partial result when the reduced axis is split; returns the
    # number of elements it read.  A block's results are held in `best` and
    # `index` as write_tile reads them, for its groups of OUT_BLOCK positions
    # one after another (see block_at).
    cdef key_t* best = <key_t*>scratch.best
    cdef int64_t* index = scratch.index
    # No divisions where there is one split and one tile (rows): they would
    # cost more than a short row.
    cdef Py_ssize_t splits = tiling.splits, tiles = tiling.tiles, tile_len = tiling.tile_len
    cdef Py_ssize_t item = w // splits if splits > 1 else w
    cdef Py_ssize_t start = (w % splits) * tiling.chunk if splits > 1 else 0
    cdef Py_ssize_t stop = min(start + tiling.chunk, layout.reduced_len)
    cdef Py_ssize_t first, width = tile_span(layout, tiling, item % tiles if tiles > 1 else 0, &first)
    cdef Py_ssize_t position = item // tiles if tiles > 1 else item, streams = 1
    cdef Py_ssize_t inner, blocks, b, g, groups, begin, stream_stride = 0
    cdef const char* p
    cdef int64_t* o
    cdef bint apart = not tiling.short_rows
    if tiling.block > 1:
        # A block of the innermost outer axis: its first position, and how
        # many it holds (fewer at the ends of the axis).
        inner = layout.outer_len[layout.outer_ndim - 1]
        blocks = axis_blocks(inner, tiling)
        begin = position % blocks * tiling.block - tiling.block_shift
        streams = min(begin + tiling.block, inner) - max(begin, 0)
        position = position // blocks * inner + max(begin, 0)
        stream_stride = layout.outer_stride[layout.outer_ndim - 1]
    groups = (streams + OUT_BLOCK - 1) // OUT_BLOCK
    locate(layout, position, &p, &o)
    p += first * layout.column_stride
    if tiling.short_rows and streams > 1 and stream_stride == width * layout.column_stride:
        # A block of tiles that follow each other in memory (each tile a whole
        # column): read as one tile, one row after another, and written apart.
        short_rows_argmin(p, layout.column_stride, width * streams, 0, 1, start, stop,
                          best, index, tiling.ask_rows, inf_bits, coding, tie)
        apart = True
    elif tiling.short_rows:
        for g in range(groups):
            b = g * OUT_BLOCK
            short_rows_argmin(p + b * stream_stride, layout.column_stride, width, stream_stride,
                              min(<Py_ssize_t>OUT_BLOCK, streams - b), start, stop,
                              best + b * width, index + b * width, tiling.ask_rows, inf_bits,
                              coding, tie)
    elif layout.column_ndim > 0:
        for b in range(streams):
            column_argmin(p + b * stream_stride, layout.reduced_stride, start, stop, width,
                          layout.column_stride, best + b * width, index + b * width,
                          <key_t*>scratch.chunk_best, <key_t*>scratch.chunk_index,
                          tiling.pack_rows, layout.end, inf_bits, coding, tie)
    elif layout.reduced_stride == <Py_ssize_t>sizeof(key_t):
        index[0] = row_argmin(p, start, stop, best, tiling.ask_rows, inf_bits, coding, tie)
    else:
        best[0] = load(p + start * layout.reduced_stride, inf_bits, coding)
        index[0] = scan(p, layout.reduced_stride, start + 1, stop, best, start,
                        inf_bits, coding, tie)
    if splits == 1:
        for g in range(groups):
            b = g * OUT_BLOCK
            write_tile(layout, o + b, first, width, min(<Py_ssize_t>OUT_BLOCK, streams - b), apart,
                       index + b * width, tiling.stream_out)
        if layout.values != NULL:
            write_values(layout, p, stream_stride, o, first, width, streams, apart, index, best,
                         coding, tiling.stream_out)
    else:
        memcpy(partial_best + w * tile_len, best, width * sizeof(key_t))
        memcpy(partial_index + w * tile_len, index, width * sizeof(int64_t))
    return width * streams * (stop - start)


cdef void reduce_items(
    const Layout* layout, const Tiling* tiling, Py_ssize_t begin, Py_ssize_t end,
    Scratch* scratch, Pace* pace, key_t* partial_best, int64_t* partial_index,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Work items [begin, end) on one thread, their time and elements added to pace.
    cdef double start = argmin_seconds()
    cdef Py_ssize_t w
    for w in range(begin, end):
        pace.elements += reduce_item(layout, tiling, w, scratch, partial_best, partial_index,
                                     inf_bits, coding, tie)
    pace.busy += argmin_seconds() - start


cdef void merge_item(
    const Layout* layout, const Tiling* tiling, Py_ssize_t item,
    key_t* partial_best, int64_t* partial_index, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Merge the splits of one item in axis order, and write the output.
    cdef Py_ssize_t splits = tiling.splits, tile_len = tiling.tile_len
    cdef Py_ssize_t column, width = tile_span(layout, tiling, item % tiling.tiles, &column)
    cdef Py_ssize_t j, w, first = item * splits
    cdef const char* p
    cdef int64_t* o
    cdef key_t k
    cdef int64_t i
    locate(layout, item // tiling.tiles, &p, &o)
    for j in range(width):
        k = partial_best[first * tile_len + j]
        i = partial_index[first * tile_len + j]
        for w in range(first + 1, first + splits):
            if better(partial_best[w * tile_len + j], k, tie):
                k = partial_best[w * tile_len + j]
                i = partial_index[w * tile_len + j]
        partial_best[first * tile_len + j] = k
        partial_index[first * tile_len + j] = i
    write_tile(layout, o, column, width, 1, False, partial_index + first * tile_len, False)
    if layout.values != NULL:
        write_values(layout, p + column * layout.column_stride, 0, o, column, width, 1, False,
                     partial_index + first * tile_len, partial_best + first * tile_len, coding,
                     False)


cdef void touch_pages(char* p, Py_ssize_t nbytes, int num_threads) noexcept nogil:
    # A zero written to every page of nbytes at p, the pages split evenly
    # between the threads: a byte every PAGE_BYTES from p, and the last one
    # (p need not start a page).  The operating system clears a page of
    # fresh memory at its first write, one thread at a time; blocks write
    # lines all over the output, so each thread would wait for the others'.
    cdef Py_ssize_t k
    for k in prange((nbytes + PAGE_BYTES - 1) // PAGE_BYTES + 1, schedule='static',
                    num_threads=num_threads):
        p[min(k * PAGE_BYTES, nbytes - 1)] = 0


cdef void set_scratch(
    const Layout* layout, const Tiling* tiling, char* memory, Scratch* scratch,
) noexcept nogil:
    # Each thread's part of `memory` (tiling.threads * thread_bytes + 128
    # bytes), as plan_scratch laid it out.
    cdef char* chunk
    cdef int t
    for t in range(tiling.threads):
        scratch[t].index = <int64_t*>(
            <char*>((<size_t>memory + 127) & ~(<size_t>127)) + t * tiling.thread_bytes)
        scratch[t].best = scratch[t].index + tiling.block * tiling.tile_len
        chunk = <char*>scratch[t].index + tiling.head_bytes
        if tiling.slack > 0:
            chunk += ((<size_t>layout.data + SCRATCH_SHIFT - <size_t>chunk)
                      & (ALIAS_SPAN - 1) & ~127)
        scratch[t].chunk_best = chunk
        scratch[t].chunk_index = chunk + tiling.chunk_bytes


cdef void run_items(
    const Layout* layout, const Tiling* tiling, Scratch* scratch, key_t* partial_best,
    int64_t* partial_index, double* excess, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Every work item.  On several threads they claim chunks of consecutive
    # items one at a time (a thread that starts late finds little or nothing
    # left: see threads.pxi), and excess receives what the threads cost.
    # On one thread without entering OpenMP: small inputs cost no more than a
    # loop.
    cdef Pace pace[MAX_THREADS]
    cdef Py_ssize_t w, chunks, work = tiling.work
    cdef int t, threads = tiling.threads
    cdef double start
    if threads == 1:
        for w in range(work):
            reduce_item(layout, tiling, w, &scratch[0], partial_best, partial_index,
                        inf_bits, coding, tie)
        return
    chunks = min(work, CHUNKS_PER_THREAD * threads)
    for t in range(threads):
        pace[t].busy = 0
        pace[t].elements = 0
    start = argmin_seconds()
    for w in prange(chunks, schedule='dynamic', num_threads=threads):
        t = argmin_thread_num()
        reduce_items(layout, tiling, w * work // chunks, (w + 1) * work // chunks,
                     &scratch[t], &pace[t], partial_best, partial_index, inf_bits, coding, tie)
    excess[0] = threads_excess(argmin_seconds() - start, pace, threads)


cdef inline bint planless(const Layout* layout, int num_threads, Py_ssize_t size) noexcept nogil:
    # Whether the call is one contiguous row of up to PLANLESS_ROW_BYTES on
    # one thread, and only its index: row_argmin alone gives what the plan's
    # one work item would (a row that short gains nothing from being asked
    # for ahead, whatever the tuning).
    return (num_threads == 1 and layout.outer_ndim == 0 and layout.column_ndim == 0
            and layout.values == NULL and layout.reduced_stride == size
            and layout.reduced_len * size <= PLANLESS_ROW_BYTES)


cdef int reduce_layout(
    const Layout* layout, const Tuning* tuning, int num_threads, double* excess,
    key_t* key, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Fill layout.out with the reduction of the key type, coding and tie
    # rule that the tags name (all NULL); -1 when the scratch memory could not
    # be had.  On more than one thread, set excess to what the threads cost
    # (threads_excess); otherwise leave it.  Scratch of up to STACK_SCRATCH
    # bytes is taken on the stack.
    global threads_have_run
    cdef key_t inf_bits = <key_t>layout.inf_bits
    cdef Py_ssize_t size = sizeof(key_t), w, out_bytes = layout.column_len * sizeof(int64_t)
    cdef Py_ssize_t values_bytes
    cdef Tiling tiling
    cdef Layout blocked
    cdef Scratch scratch[MAX_THREADS]
    cdef char on_stack[STACK_SCRATCH]
    cdef key_t best_key
    cdef char* memory
    cdef key_t* partial_best = NULL
    cdef int64_t* partial_index = NULL
    cdef int d
    for d in range(layout.outer_ndim):
        out_bytes *= layout.outer_len[d]
    if out_bytes == 0:
        return 0
    if planless(layout, num_threads, size):
        w = row_argmin(layout.data, 0, layout.reduced_len, &best_key, False, inf_bits, coding,
                       tie)
        layout.out[0] = layout.reduced_len - 1 - w if layout.flip else w  # as write_tile
        return 0
    layout = plan(layout, size, tuning, num_threads, &tiling, &blocked)
    memory = on_stack
    if tiling.threads * tiling.thread_bytes + 128 > STACK_SCRATCH:
        memory = <char*>malloc(tiling.threads * tiling.thread_bytes + 128)
    if tiling.splits > 1:
        partial_best = <key_t*>malloc(tiling.work * tiling.tile_len * sizeof(key_t))
        partial_index = <int64_t*>malloc(tiling.work * tiling.tile_len * sizeof(int64_t))
    if memory == NULL or (tiling.splits > 1 and (partial_best == NULL or partial_index == NULL)):
        if memory != on_stack:
            free(memory)
        free(partial_best)
        free(partial_index)
        return -1
    set_scratch(layout, &tiling, memory, scratch)
    if tiling.threads > 1:
        threads_have_run = True
        values_bytes = out_bytes // sizeof(int64_t) * size if layout.values != NULL else 0
        if tiling.block > 1 and out_bytes >= TOUCH_BYTES:
            touch_pages(<char*>layout.out_start, out_bytes, tiling.threads)
        if tiling.block > 1 and values_bytes >= TOUCH_BYTES:
            touch_pages(layout.values, values_bytes, tiling.threads)
    run_items(layout, &tiling, scratch, partial_best, partial_index, excess, inf_bits, coding,
              tie)
    if tiling.splits > 1:
        for w in range(tiling.items):
            merge_item(layout, &tiling, w, partial_best, partial_index, coding, tie)
    if memory != on_stack:
        free(memory)
    free(partial_best)
    free(partial_index)
    return 0
