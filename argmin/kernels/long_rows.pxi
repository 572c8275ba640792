# Long rows: a contiguous reduced axis read one row at a time, each a
# vectorized lane-wise minimum of blocks, and only a block that improves the
# running minimum searched again (from cache) for its index.

cdef enum:
    # Bytes of a block of a row, scanned with a lane-wise minimum before its
    # index is searched.
    BLOCK_BYTES = 4096
    # Bytes searched at once for the index of a block's minimum.
    FIND_BYTES = 256
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


cdef Py_ssize_t find(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t target,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # First (or last) index in [start, stop) of a contiguous run (at most a
    # block) that holds target.  Chunk by chunk from the near end, each chunk
    # a vectorized minimum (or maximum) of its matching positions: one
    # branch to mispredict, when the chunk that holds target is reached.
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t)
    cdef int32_t k, candidate, found, n, chunk = FIND_BYTES // sizeof(key_t)
    cdef Py_ssize_t first
    cdef const char* q
    if tie_t is last_tie:
        first = stop
        while True:
            n = <int32_t>min(<Py_ssize_t>chunk, first - start)
            first -= n
            q = p + first * size
            found = -1
            for k in range(n):
                candidate = k if load(q + k * size, inf_bits, coding) == target else -1
                found = candidate if candidate > found else found
            if found >= 0:
                return first + found
    else:
        first = start
        while True:
            n = <int32_t>min(<Py_ssize_t>chunk, stop - first)
            q = p + first * size
            found = n
            for k in range(n):
                candidate = k if load(q + k * size, inf_bits, coding) == target else n
                found = candidate if candidate < found else found
            if found < n:
                return first + found
            first += n


cdef Py_ssize_t row_argmin(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t* best, bint ask_rows,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Index of the best key of the contiguous elements [start, stop),
    # start < stop; best receives that key.  Block by block: a lane-wise
    # minimum, and only a block that improves the running minimum is searched
    # again for its index (in cache by then).  A row of less than
    # ASKED_ROW_BYTES, or any row where ask_rows, is asked for PREFETCH_BYTES
    # ahead, every line of each lane step.
    # `lanes` is a local array, not a pointer into one: GCC then knows that
    # no load from p reads it and keeps the lanes in registers across steps.
    cdef key_t lanes[MAX_LANES]
    cdef key_t minimum = load(p + start * sizeof(key_t), inf_bits, coding)
    cdef Py_ssize_t width = lane_count(minimum)
    cdef Py_ssize_t block = BLOCK_BYTES // sizeof(key_t)
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t)
    cdef Py_ssize_t i = start, j, k, t, steps, best_index = start
    cdef bint ask = ask_rows or (stop - start) * size < ASKED_ROW_BYTES
    cdef key_t block_min, v
    cdef key_t floor = key_min(minimum)
    while i < stop and stop - start >= width:
        # The last block ends at the row's end, overlapping the one before it
        # rather than leave the rest to a scalar scan: an element seen again
        # changes neither the minimum nor, taken by `better`, its index.
        i = min(i, stop - width)
        if minimum == floor:
            # Nothing is below the floor: the first index is final, the last
            # one is the floor's last occurrence in the rest of the row.
            if tie_t is last_tie:
                j = stop - 1
                while j >= i and load(p + j * size, inf_bits, coding) != floor:
                    j -= 1
                if j >= i:
                    best_index = j
            best[0] = minimum
            return best_index
        # A block of whole lane widths: a full block, or what the row has left
        # in whole lane widths, or the last lane width of the row.
        steps = min(block, stop - i) // width
        for j in range(width):
            lanes[j] = ~floor
        for t in range(steps):
            if ask:
                for k in range(width * size // CACHE_LINE):
                    prefetch(p + (i + t * width) * size + PREFETCH_BYTES + k * CACHE_LINE)
            for j in range(width):
                v = load(p + (i + t * width + j) * size, inf_bits, coding, size < 8)
                lanes[j] = v if v < lanes[j] else lanes[j]
        block_min = ~floor
        for j in range(width):
            block_min = lanes[j] if lanes[j] < block_min else block_min
        if better(block_min, minimum, tie):
            minimum = block_min
            best_index = find(p, i, i + steps * width, block_min, inf_bits, coding, tie)
        i += steps * width
    best[0] = minimum
    return scan(p, size, i, stop, best, best_index, inf_bits, coding, tie)
