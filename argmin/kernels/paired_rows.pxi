# Paired rows: short rows of 8- and 16-bit keys, each key paired with its
# position in the row in an integer of twice its width, whose order is the
# key's, then the position's.  The smallest pair holds the row's best key and
# its first index, found without a search (the last index: positions stored
# as 255 - position).

cdef enum:
    # Short rows of 8- and 16-bit keys whose lanes are halved together.
    PAIRED_ROWS = 64
    # How far ahead each stream of paired rows read side by side is asked for.
    BLOCK_PREFETCH_BYTES = 512


cdef inline void fold_pairs(
    const char* q, Py_ssize_t s, wide_t* lanes, bint first,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Fold the elements [s, s + MIN_LANES) of a short row into its lanes,
    # each as its key paired with its position; `first`: the lanes are new.
    cdef Py_ssize_t l, size = sizeof(key_t)
    cdef wide_t v
    cdef wide_t base = <wide_t>(255 - s if tie_t is last_tie else s)
    cdef wide_t step = -1 if tie_t is last_tie else 1
    q += s * size
    for l in range(MIN_LANES):
        v = <wide_t>load(q + l * size, inf_bits, coding, True) * 256 + base + step * <wide_t>l
        lanes[l] = v if first or v < lanes[l] else lanes[l]


cdef inline void halve_pairs(const wide_t* lanes, wide_t* halved, Py_ssize_t count) noexcept nogil:
    # halved[k] = min(lanes[2k], lanes[2k + 1]) for k < count: neighbouring
    # lanes, of one row or of the next, a vector of them at a time.
    cdef Py_ssize_t k
    cdef wide_t a, b
    for k in range(count):
        a = lanes[2 * k]
        b = lanes[2 * k + 1]
        halved[k] = b if b < a else a


cdef inline Py_ssize_t rows_ahead(Py_ssize_t nbytes, Py_ssize_t row_stride) noexcept nogil:
    # How far ahead to ask for a row: past nbytes, by whole rows.
    return (nbytes // max(row_stride, 1) + 1) * row_stride


cdef inline const char* next_row(
    const char* q, const char** row, Py_ssize_t* b, Py_ssize_t streams,
    Py_ssize_t stream_stride, Py_ssize_t row_stride,
) noexcept nogil:
    # The row read after q when a row of each of `streams` tiles is read in
    # turn: the same row of the next tile (b), or the next row (row) of the
    # first tile.
    b[0] += 1
    if b[0] < streams:
        return q + stream_stride
    b[0] = 0
    row[0] += row_stride
    return row[0]


cdef inline void take_pair(
    int64_t pair, int shift, Py_ssize_t start, key_t* best, int64_t* index, tie_t* tie,
) noexcept nogil:
    # A row's smallest pair: its key, above `shift` bits, and its position in
    # the low 8 bits, stored as 255 - position for the last index.
    best[0] = <key_t>(pair >> shift)
    index[0] = start + (255 - (pair & 255) if tie_t is last_tie else pair & 255)


cdef void paired_rows_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint ask_rows, wide_t* lanes, wide_t* halved,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # short_rows_argmin for 8- and 16-bit keys in arrays (where neither a
    # register of pairs nor extreme_key takes them), in rows (or pieces
    # of rows) of MIN_LANES to SHORT_ROW_MAX elements.  Each row folds its
    # pairs into MIN_LANES lanes (fewer are unrolled into scalar code), the
    # last MIN_LANES elements overlapping the others when the row is not a
    # whole number of lanes (an element taken twice is the same pair twice).
    # Then the lanes of PAIRED_ROWS rows are halved together, neighbour with
    # neighbour, so that a vector holds lanes of several rows: no row is
    # reduced across a vector on its own.  Streams read side by side, or a
    # single one where ask_rows, are asked for BLOCK_PREFETCH_BYTES ahead.
    cdef Py_ssize_t size = sizeof(key_t), n = stop - start, j = 0, k, s, rows, count, b = 0
    cdef Py_ssize_t ahead = rows_ahead(BLOCK_PREFETCH_BYTES, row_stride)
    cdef Py_ssize_t lines = (n * size + CACHE_LINE - 1) // CACHE_LINE
    cdef const char* row = p + start * size   # of the first tile
    cdef const char* q = row
    cdef wide_t* swap
    while j < width * streams:
        rows = min(<Py_ssize_t>PAIRED_ROWS, width * streams - j)
        for k in range(rows):
            if streams > 1 or ask_rows:
                for s in range(lines):
                    prefetch(q + ahead + s * CACHE_LINE)
            fold_pairs(q, 0, lanes + k * MIN_LANES, True, inf_bits, coding, tie)
            s = MIN_LANES
            while s < n:
                s = min(s, n - MIN_LANES)   # the last lanes' worth overlaps
                fold_pairs(q, s, lanes + k * MIN_LANES, False, inf_bits, coding, tie)
                s += MIN_LANES
            q = next_row(q, &row, &b, streams, stream_stride, row_stride)
        count = rows * MIN_LANES
        while count > rows:
            count //= 2
            halve_pairs(lanes, halved, count)
            swap = lanes
            lanes = halved
            halved = swap
        for k in range(rows):
            take_pair(lanes[k], 8, start, &best[j + k], &index[j + k], tie)
        j += rows
