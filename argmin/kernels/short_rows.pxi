# Short rows: a contiguous reduced axis too short for long rows' blocks, read
# a tile of rows at a time.  8- and 16-bit keys (and, where vectors of pairs
# run in registers, 32-bit keys) are paired with their positions
# (paired_rows.pxi, paired_vectors.pxi); other rows, and 16-bit rows that
# extreme_key takes too long for a register of pairs, are reduced, then
# searched for their best key's index (searched_rows_argmin).

cdef enum:
    # Most elements of a short row of 8- or 16-bit keys paired with their
    # positions: they fit in the 8 bits of a pair.  Other short rows hold at
    # most SHORT_ROW_BYTES, or of 32- and 64-bit elements WIDE_ROW_BYTES,
    # the longest run extreme_key takes (see short_row_max in ways.pxi).
    SHORT_ROW_MAX = 256
    SHORT_ROW_BYTES = 2048
    WIDE_ROW_BYTES = RUN_BYTES


cdef inline key_t keyed_minimum(
    const char* q, int32_t n, key_t* keys, bint* nans, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # The best key of the n contiguous elements at q, a vectorized reduction
    # of their keys; for floating-point elements (whose keys cost several
    # instructions each) the keys are copied to `keys`.  Those keys are first
    # taken without their NaN test (load's nan_past), and again with it only
    # where they show a NaN, or where nans (the last row reduced by its keys
    # held a NaN); nans receives whether this row holds one (for the
    # NaN-skipping codings, whose NaN is no minimum, it stays set once a row
    # held one).
    cdef Py_ssize_t size = sizeof(key_t)
    cdef int32_t i
    cdef key_t minimum = ~key_min(inf_bits), most, v
    if floating(coding) and not nans[0]:
        most = key_min(inf_bits)
        for i in range(n):
            v = load(q + i * size, inf_bits, coding, True, True)
            keys[i] = v
            minimum = v if v < minimum else minimum
            most = v if v > most else most
        nans[0] = has_nan_keys(minimum, most, inf_bits, coding)
    if not floating(coding) or nans[0]:
        minimum = ~key_min(inf_bits)
        for i in range(n):
            v = load(q + i * size, inf_bits, coding, True)
            if floating(coding):
                keys[i] = v
            minimum = v if v < minimum else minimum
        if coding_t is float_min or coding_t is float_max:
            nans[0] = minimum == key_min(inf_bits)
    return minimum


cdef inline int64_t row_index(
    const char* q, int32_t n, bint found, key_t* minimum, const Run* run, key_t* keys,
    bint* nans, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # The index of the best key of the n contiguous elements at q:
    # extreme_index's where extreme_key found that key (in minimum, with run);
    # else keyed_minimum's key into minimum, and a search of the row, or of
    # the keys that keyed_minimum copied.
    if found:
        return extreme_index(q, minimum[0], run, coding, tie)
    minimum[0] = keyed_minimum(q, n, keys, nans, inf_bits, coding)
    # A floating-point row's copy holds keys: read back as they are.
    if floating(coding):
        return find_index(<const char*>keys, n, minimum[0], inf_bits, <signed_min*>NULL, tie)
    return find_index(q, n, minimum[0], inf_bits, coding, tie)


cdef inline void searched_rows_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint ask_rows, key_t* keys,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # short_rows_argmin for rows whose best key is searched for: each row's
    # best key is extreme_key's where it takes the row (extreme_takes takes
    # rows of this length, and the row's elements do not make it refuse), and
    # its index then extreme_index's; else as row_index finds them.  Tile by
    # tile, in the order a tile's rows lie in memory where they follow each
    # other (a Fortran array's).  Rows in the caches (not ask_rows) two at a
    # time, both extremes before either index: a row's index waits on a chain
    # of dependent instructions (its extreme, then its search), and the second
    # row's extreme runs meanwhile.  Rows from memory, asked for PREFETCH_BYTES
    # ahead, wait on memory instead and lose time to pairs: they are taken one
    # at a time.  A float16 or bfloat16 row after one that held a NaN (nans) is
    # reduced by its keys at once (half_float).
    cdef Py_ssize_t size = sizeof(key_t), r, b, j, k, ahead, lines
    cdef bint vector = extreme_takes(best, stop - start, coding)
    cdef Py_ssize_t step = 1 if ask_rows else 2
    cdef int32_t n = <int32_t>(stop - start)
    cdef const char* q
    cdef key_t first = 0, second = 0
    cdef bint nans = False, first_found, second_found, pair, by_keys
    cdef Run first_run, second_run
    ahead = rows_ahead(PREFETCH_BYTES, row_stride) if ask_rows else 0
    lines = (n * size + CACHE_LINE - 1) // CACHE_LINE if ask_rows else 0
    for b in range(streams):
        r = 0
        while r < width:
            j = r * streams + b
            q = p + r * row_stride + b * stream_stride + start * size
            pair = step == 2 and r + 1 < width
            for k in range(lines):
                prefetch(q + ahead + k * CACHE_LINE)
            by_keys = not vector or half_float(first, coding) and nans
            first_found = not by_keys and extreme_key(q, n, &first, &first_run, inf_bits,
                                                      coding, tie)
            second_found = False
            if pair and not by_keys:
                second_found = extreme_key(q + row_stride, n, &second, &second_run,
                                           inf_bits, coding, tie)
            index[j] = start + row_index(q, n, first_found, &first, &first_run, keys, &nans,
                                         inf_bits, coding, tie)
            best[j] = first
            if pair:
                index[j + streams] = start + row_index(q + row_stride, n, second_found, &second,
                                                       &second_run, keys, &nans, inf_bits,
                                                       coding, tie)
                best[j + streams] = second
            r += step


cdef void short_rows_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint ask_rows, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Rows too short for row_argmin's blocks (short_row_max): `streams` tiles
    # stream_stride apart, each of `width` rows row_stride apart, read a row
    # of each tile in turn (rows searched for their index: tile by tile); of
    # each row, the elements [start, stop).  Sets best and index of row j of
    # tile b at j * streams + b.  8- and 16-bit keys are paired with their
    # positions in pieces of at least MIN_LANES elements (a row split between
    # threads can leave a shorter piece), in registers where VECTOR_PAIRS
    # from two elements, 32-bit keys too.  Other pieces, rows of more than
    # SHORT_ROW_MAX (whose positions would not fit in a pair's 8 bits), and
    # other keys are reduced, then searched; so are 16-bit pieces too long
    # for a register of pairs that extreme_key takes: its vector extreme
    # reads four vectors of elements with an instruction each, where pairing
    # takes several an element.
    cdef Py_ssize_t size = sizeof(key_t), n = stop - start
    # The floating-point keys of a row (WIDE_ROW_BYTES at most, at up to
    # ALIAS_SPAN in), or the lanes of paired rows and their halves (fewer
    # bytes), on whole cache lines.
    cdef char memory[ALIAS_SPAN + WIDE_ROW_BYTES + CACHE_LINE]
    cdef int32_t* lanes = <int32_t*>on_cache_line(memory)
    cdef int32_t* halved = lanes + PAIRED_ROWS * MIN_LANES
    # The copy of a row's keys SCRATCH_SHIFT past the rows in ALIAS_SPAN (platform.pxi),
    # on a cache line: its stores then never hold up the loads of the rows.
    cdef key_t* keys = <key_t*>(<char*>lanes + (
        (<size_t>p + SCRATCH_SHIFT - <size_t>lanes) & (ALIAS_SPAN - 1) & ~(<size_t>127)))
    cdef bint in_registers = (key_t is not int64_t and VECTOR_PAIRS and n >= 2
                              and n * size <= VECTOR_ROW_BYTES)
    if key_t is int16_t and not in_registers and extreme_takes(best, n, coding):
        searched_rows_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                             index, ask_rows, keys, inf_bits, coding, tie)
    elif in_registers:
        paired_vectors_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                              index, ask_rows, inf_bits, coding, tie)
    elif key_t is int8_t and MIN_LANES <= n <= SHORT_ROW_MAX:
        paired_rows_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                           index, ask_rows, <int16_t*>lanes, <int16_t*>halved,
                           inf_bits, coding, tie)
    elif key_t is int16_t and MIN_LANES <= n <= SHORT_ROW_MAX:
        paired_rows_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                           index, ask_rows, lanes, halved, inf_bits, coding, tie)
    else:
        searched_rows_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                             index, ask_rows, keys, inf_bits, coding, tie)
