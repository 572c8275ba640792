# Long rows: a contiguous reduced axis read one row at a time, block by block,
# each block's best key a vectorized reduction, and only the last block to
# improve the running minimum searched for its index: a block that
# extreme_key reduces at once, from cache; a block of keys once the row is
# read or its floor reached.

cdef enum:
    # Bytes of a block of a row, scanned with a lane-wise minimum before its
    # index is searched: the longest run that extreme_key takes, whose
    # search reads four vectors of it.  A row asked for ahead is read in
    # blocks of ASKED_BLOCK_BYTES, of 8-bit elements ASKED_8BIT_BLOCK_BYTES:
    # fewer requests at a time, which the memory system keeps up with.  A
    # block of a type that extreme_key takes asks for its lines ahead at its
    # start; a block of the others (8-bit elements, and on targets without
    # the vector loop, more: see extreme_takes) asks for a step's lines with
    # each step (keyed_block_min).
    BLOCK_BYTES = RUN_BYTES
    ASKED_BLOCK_BYTES = 4096
    ASKED_8BIT_BLOCK_BYTES = 512
    # Lanes of a row's lane-wise minimum: LANE_BYTES, four 256-bit or two
    # 512-bit registers (fewer leave the loop unvectorized or latency-bound),
    # but at least MIN_LANES (the compiler unrolls fewer into scalar code), so
    # at most MAX_LANES.
    LANE_BYTES = 128
    MIN_LANES = 32
    MAX_LANES = 128
    # How far ahead of the loads a stream is asked for.
    PREFETCH_BYTES = 4096
    # Rows of fewer bytes are always asked for ahead; longer ones where
    # Tuning.ask_rows.
    ASKED_ROW_BYTES = 1024


cdef inline Py_ssize_t scan(
    const char* p, Py_ssize_t stride, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, Py_ssize_t best_index, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Element by element over [start, stop): update best, return its index.
    cdef Py_ssize_t i
    cdef key_t v
    for i in range(start, stop):
        v = load(p + i * stride, inf_bits, coding)
        if better(v, best[0], tie):
            best[0] = v
            best_index = i
    return best_index


cdef inline Py_ssize_t lane_count(key_t k) noexcept nogil:
    # Lanes of a row's lane-wise minimum (see LANE_BYTES).
    return max(LANE_BYTES // sizeof(key_t), MIN_LANES)


cdef inline void fold_step(
    const char* q, key_t* lanes, Py_ssize_t width, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # The keys of the `width` contiguous elements at q folded into the lanes.
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t), j
    cdef key_t v
    for j in range(width):
        v = load(q + j * size, inf_bits, coding, size < 8)
        lanes[j] = v if v < lanes[j] else lanes[j]


cdef inline key_t keyed_block_min(
    const char* p, Py_ssize_t steps, Py_ssize_t width, bint ask, key_t inf_bits,
    coding_t* coding,
) noexcept nogil:
    # The smallest key of the steps * width contiguous elements at p: a
    # lane-wise minimum of `width` lanes.  Where ask, each step asks for the
    # lines PREFETCH_BYTES past its own (in a loop of its own: the loop that
    # does not ask stays as the compiler makes it alone).
    # `lanes` is a local array, not a pointer into one: GCC then knows that
    # no load from p reads it and keeps the lanes in registers across steps.
    cdef key_t lanes[MAX_LANES]
    cdef Py_ssize_t step = width * <Py_ssize_t>sizeof(key_t), j, t
    cdef key_t block_min = ~key_min(inf_bits)
    for j in range(width):
        lanes[j] = block_min
    if ask:
        for t in range(steps):
            for j in range(step // CACHE_LINE):
                prefetch(p + t * step + PREFETCH_BYTES + j * CACHE_LINE)
            fold_step(p + t * step, lanes, width, inf_bits, coding)
    else:
        for t in range(steps):
            fold_step(p + t * step, lanes, width, inf_bits, coding)
    for j in range(width):
        block_min = lanes[j] if lanes[j] < block_min else block_min
    return block_min


cdef inline Py_ssize_t pending_index(
    const char* p, Py_ssize_t pending, Py_ssize_t n, key_t minimum, Py_ssize_t index,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # The running minimum's index: `index`, or where pending >= 0 (a block of
    # keys of n elements at `pending` was the last block to improve it), its
    # index in that block.
    if pending < 0:
        return index
    return pending + find_index(p + pending * sizeof(key_t), n, minimum, inf_bits, coding, tie)


cdef Py_ssize_t row_argmin(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t* best, bint ask_rows,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Index of the best key of the contiguous elements [start, stop),
    # start < stop; best receives that key.  Block by block: the block's
    # best key, from extreme_key or else from its keys.  A block that
    # extreme_key reduces and that improves the running minimum is searched
    # at once (in cache), in the four vectors that hold it (extreme_index); a
    # block of keys only where it is the last block to improve it (pending),
    # once the row is read or its floor reached.  Where last, every block that
    # ties the minimum improves it: most 512-byte blocks of 8-bit keys do.  A
    # row of less than ASKED_ROW_BYTES, or any row where ask_rows, is asked
    # for PREFETCH_BYTES ahead.
    cdef key_t minimum = load(p + start * sizeof(key_t), inf_bits, coding)
    cdef Py_ssize_t width = lane_count(minimum)
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t)
    cdef Py_ssize_t i = start, j, n, best_index = start, pending = -1, pending_len = 0
    cdef bint ask = ask_rows or (stop - start) * size < ASKED_ROW_BYTES
    cdef Py_ssize_t block = BLOCK_BYTES // size
    cdef key_t block_min
    cdef Run run
    cdef bint extreme, vector, tries = True
    cdef key_t floor = key_min(minimum)
    if ask:
        block = (ASKED_8BIT_BLOCK_BYTES if key_t is int8_t else ASKED_BLOCK_BYTES) // size
    while i < stop and stop - start >= width:
        # The last block ends at the row's end, overlapping the one before it
        # rather than leave the rest to a scalar scan: an element seen again
        # changes neither the minimum nor, taken by `better`, its index.
        i = min(i, stop - width)
        if minimum == floor:
            # Nothing is below the floor: the first index is final (in the
            # pending block, if any), the last one is the floor's last
            # occurrence in the rest of the row, if any.
            best[0] = minimum
            if tie_t is last_tie:
                j = stop - 1
                while j >= i and load(p + j * size, inf_bits, coding) != floor:
                    j -= 1
                if j >= i:
                    return j
            return pending_index(p, pending, pending_len, minimum, best_index,
                                 inf_bits, coding, tie)
        # A block of whole lane widths: a full block, or what the row has left
        # in whole lane widths, or the last lane width of the row.
        n = min(block, stop - i) // width * width
        vector = tries and extreme_takes(&minimum, n, coding)
        if ask and vector:
            for j in range(n * size // CACHE_LINE):
                prefetch(p + i * size + PREFETCH_BYTES + j * CACHE_LINE)
        extreme = vector and extreme_key(p + i * size, n, &block_min, &run, inf_bits, coding, tie)
        # float16 and bfloat16: after a block refused (a NaN, or a zero that
        # the other zero may tie), the row's other blocks go to their keys.
        tries = extreme or not half_float(minimum, coding)
        if not extreme:
            block_min = keyed_block_min(p + i * size, n // width, width, ask and not vector,
                                        inf_bits, coding)
        if better(block_min, minimum, tie):
            minimum = block_min
            if extreme:
                pending = -1
                best_index = i + extreme_index(p + i * size, block_min, &run, coding, tie)
            else:
                pending = i
                pending_len = n
        i += n
    best[0] = minimum
    best_index = pending_index(p, pending, pending_len, minimum, best_index, inf_bits, coding, tie)
    return scan(p, size, i, stop, best, best_index, inf_bits, coding, tie)
