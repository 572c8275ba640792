# Columns: another axis is contiguous (or the reduced axis is, in rows of a
# few elements).  A tile of that axis keeps a running best key and row per
# element while the reduced axis is walked on the outside, several rows at a
# time, so memory is read in order.  Columns whose rows follow each other are
# read a group of lanes at a time over a batch of rows, the running best held
# in registers, or, a few elements wide, many rows at a time as one row of
# lanes (packed_column_argmin).

cdef enum:
    # Rows of a column tile folded into its running best at once, where the
    # tile is narrower than its rows or they span FOLD_ROW_BYTES or more; those
    # streams are left to the hardware prefetchers.
    FOLD_ROWS = 8
    FOLD_ROW_BYTES = 4096
    # Most bytes of the row of lanes that narrow columns are read as
    # (packed_column_argmin), unless they fill a group of lanes.
    PACK_BYTES = 1024
    # Rows that follow each other, from a group of lanes (group_lanes) to
    # GROUP_ROW_BYTES long, are folded a group at a time, the group's running
    # best held in registers over a batch of one row less than
    # GROUP_BATCH_BYTES, and asked for GROUP_PREFETCH_BYTES ahead.
    GROUP_ROW_BYTES = 256
    GROUP_BATCH_BYTES = 4096
    GROUP_PREFETCH_BYTES = 8192


cdef inline key_t chunk_rows(key_t k) noexcept nogil:
    # Most rows a column chunk spans: its row numbers must fit in key_t.
    if key_t is int8_t:
        return 127
    elif key_t is int16_t:
        return 32767
    else:
        return 1 << 30


cdef inline key_t column_key(const char* p, key_t inf_bits, coding_t* coding) noexcept nogil:
    # The key of the element at p as column tiles keep it: unflipped (see
    # load), so that ArgMax flips no float's bits; column_chunk_keys turns a
    # tile's keys back.
    return load(p, inf_bits, coding, True, False, True)


cdef inline key_t worst_column_key(key_t inf_bits, coding_t* coding) noexcept nogil:
    # load's worst key (~key_min), unflipped (the least key where
    # flips_back): every column key ties with it or beats it.
    return ~key_min(inf_bits) ^ (direction(inf_bits, coding) if flips_back(coding) else 0)


cdef inline void column_chunk_keys(
    key_t* chunk_best, Py_ssize_t width, coding_t* coding,
) noexcept nogil:
    # A column tile's running best keys, from column_key's to load's: once a
    # chunk, after its last fold and before its keys are read.
    cdef Py_ssize_t j
    if flips_back(coding):
        for j in range(width):
            chunk_best[j] = ~chunk_best[j]


cdef inline void fold(
    key_t v, key_t r, key_t* best, key_t* index, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Take the column key v of row r into a running best and its row.
    cdef bint take = unflipped_better(v, best[0], coding, tie)
    best[0] = v if take else best[0]
    index[0] = r if take else index[0]


cdef inline void fold_row_at(
    const char* row, Py_ssize_t r, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t stride,
    key_t* chunk_best, key_t* chunk_index, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Fold row number r, at `row`, into the running best of the tile
    # elements [start, stop).
    cdef Py_ssize_t j
    cdef key_t b, i
    for j in range(start, stop):
        b = chunk_best[j]
        i = chunk_index[j]
        fold(column_key(row + j * stride, inf_bits, coding), <key_t>r, &b, &i, coding, tie)
        # Stored unconditionally: a conditional store would branch.
        chunk_best[j] = b
        chunk_index[j] = i


cdef inline void fold_rows_at(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r,
    Py_ssize_t start, Py_ssize_t stop, Py_ssize_t stride,
    key_t* chunk_best, key_t* chunk_index, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # The same for FOLD_ROWS rows, from row number r at `row`: several
    # streams read in parallel, and the running best loaded and stored once.
    cdef Py_ssize_t j, row_gap = reduced_stride
    cdef key_t b, i
    cdef const char* q
    for j in range(start, stop):
        b = chunk_best[j]
        i = chunk_index[j]
        # Written out: a loop over the rows here would not vectorize.
        q = row + j * stride
        fold(column_key(q, inf_bits, coding), <key_t>r, &b, &i, coding, tie)
        fold(column_key(q + row_gap, inf_bits, coding), <key_t>(r + 1), &b, &i, coding, tie)
        fold(column_key(q + 2 * row_gap, inf_bits, coding), <key_t>(r + 2), &b, &i, coding, tie)
        fold(column_key(q + 3 * row_gap, inf_bits, coding), <key_t>(r + 3), &b, &i, coding, tie)
        fold(column_key(q + 4 * row_gap, inf_bits, coding), <key_t>(r + 4), &b, &i, coding, tie)
        fold(column_key(q + 5 * row_gap, inf_bits, coding), <key_t>(r + 5), &b, &i, coding, tie)
        fold(column_key(q + 6 * row_gap, inf_bits, coding), <key_t>(r + 6), &b, &i, coding, tie)
        fold(column_key(q + 7 * row_gap, inf_bits, coding), <key_t>(r + 7), &b, &i, coding, tie)
        chunk_best[j] = b
        chunk_index[j] = i


cdef inline void fold_tile(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r, Py_ssize_t count,
    Py_ssize_t width, Py_ssize_t stride, key_t* chunk_best, key_t* chunk_index,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Fold `count` rows (FOLD_ROWS or one) into a column tile's running best.
    # One row of a contiguous tile goes FOLD_ROWS cache lines at a time, each
    # asked for ahead of the loads.
    cdef Py_ssize_t j = 0, k, span = FOLD_ROWS * (CACHE_LINE // sizeof(key_t))
    if stride != <Py_ssize_t>sizeof(key_t):
        # A strided tile, folded one row at a time (see column_chunk).
        fold_row_at(row, r, 0, width, stride, chunk_best, chunk_index, inf_bits, coding, tie)
        return
    if count == FOLD_ROWS:
        # (After the test above: the compiler then knows the tile is
        # contiguous, and vectorizes.)
        fold_rows_at(row, reduced_stride, r, 0, width, stride, chunk_best, chunk_index,
                     inf_bits, coding, tie)
        return
    while j < width:
        for k in range(FOLD_ROWS):
            prefetch(row + j * stride + k * CACHE_LINE + PREFETCH_BYTES)
        fold_row_at(row, r, j, min(j + span, width), stride, chunk_best, chunk_index,
                    inf_bits, coding, tie)
        j += span


cdef inline Py_ssize_t group_lanes(Py_ssize_t size) noexcept nogil:
    # Lanes of a group of grouped rows: a cache line, but at least
    # MIN_LANES (the compiler unrolls fewer into scalar code).
    return max(CACHE_LINE // size, MIN_LANES)


cdef inline bint grouped_rows(Py_ssize_t width, Py_ssize_t size) noexcept nogil:
    # Whether rows of `width` elements that follow each other are folded a
    # group of lanes at a time (see GROUP_ROW_BYTES).
    return group_lanes(size) <= width and width * size <= GROUP_ROW_BYTES


cdef inline void fold_group(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r, Py_ssize_t count,
    Py_ssize_t lines, key_t* chunk_best, key_t* chunk_index,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Fold `count` rows, from row number r at `row`, into the running best of
    # a group of lanes, held in registers meanwhile; ask for `lines` cache
    # lines of each row ahead.
    cdef key_t lane_best[MAX_LANES]
    cdef key_t lane_index[MAX_LANES]
    cdef Py_ssize_t u, j, size = sizeof(key_t)
    for j in range(group_lanes(sizeof(key_t))):
        lane_best[j] = chunk_best[j]
        lane_index[j] = chunk_index[j]
    for u in range(count):
        for j in range(lines):
            prefetch(row + u * reduced_stride + j * CACHE_LINE + GROUP_PREFETCH_BYTES)
        for j in range(group_lanes(sizeof(key_t))):
            fold(column_key(row + u * reduced_stride + j * size, inf_bits, coding),
                 <key_t>(r + u), &lane_best[j], &lane_index[j], coding, tie)
    for j in range(group_lanes(sizeof(key_t))):
        chunk_best[j] = lane_best[j]
        chunk_index[j] = lane_index[j]


cdef void column_chunk(
    const char* p, Py_ssize_t reduced_stride, Py_ssize_t rows,
    Py_ssize_t width, Py_ssize_t stride, key_t* chunk_best, key_t* chunk_index,
    const char* input_end, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # For each of `width` elements of a column tile (spaced by stride), the
    # best column key over the rows [0, rows) and its row (column_chunk_keys
    # then turns the keys into load's).  Row numbers are kept in the key's
    # own type, so the compare-and-select vectorizes lane for lane.
    cdef Py_ssize_t j, count, r = 0, group = group_lanes(sizeof(key_t))
    # The worst key, and row 0: `<` (where flips_back, `>`) keeps row 0 when
    # the column holds only the worst key, `<=` (`>=`) takes every row.
    for j in range(width):
        chunk_best[j] = worst_column_key(inf_bits, coding)
        chunk_index[j] = 0
    if (stride == <Py_ssize_t>sizeof(key_t) and reduced_stride == width * stride
            and grouped_rows(width, stride)):
        # Grouped rows: the last group of a batch may overlap the one before
        # it, as folding an element again changes nothing.
        while r < rows:
            count = min(rows - r, GROUP_BATCH_BYTES // reduced_stride - 1)
            j = 0
            while j < width:
                j = min(j, width - group)
                fold_group(p + r * reduced_stride + j * stride, reduced_stride, r, count,
                           (reduced_stride + CACHE_LINE - 1) // CACHE_LINE if j == 0 else 0,
                           chunk_best + j, chunk_index + j, inf_bits, coding, tie)
                j += group
            r += count
        return
    if (stride == <Py_ssize_t>sizeof(key_t) and width < group
            and p + (rows - 1) * reduced_stride + group * stride <= input_end):
        # A tile narrower than a group of lanes, folded as one group whose
        # lanes past the tile read whatever follows it in the input, and are
        # left out.
        for j in range(width, group):
            chunk_best[j] = worst_column_key(inf_bits, coding)
            chunk_index[j] = 0
        fold_group(p, reduced_stride, 0, rows,
                   min((reduced_stride + CACHE_LINE - 1) // CACHE_LINE,
                       (group * stride + CACHE_LINE - 1) // CACHE_LINE),
                   chunk_best, chunk_index, inf_bits, coding, tie)
        return
    while r < rows:
        # Rows that follow each other in memory are one stream already (up
        # to FOLD_ROW_BYTES), and a strided tile's loads are scalar anyway.
        if (r + FOLD_ROWS <= rows and stride == <Py_ssize_t>sizeof(key_t)
                and (reduced_stride != width * stride or reduced_stride >= FOLD_ROW_BYTES)):
            fold_tile(p + r * reduced_stride, reduced_stride, r, FOLD_ROWS, width, stride,
                      chunk_best, chunk_index, inf_bits, coding, tie)
            r += FOLD_ROWS
        else:
            fold_tile(p + r * reduced_stride, reduced_stride, r, 1, width, stride,
                      chunk_best, chunk_index, inf_bits, coding, tie)
            r += 1


cdef inline void take_if(
    bint take, key_t v, int64_t row, key_t* best, int64_t* index,
) noexcept nogil:
    # best and index become v and row where take, by masks rather than a
    # branch (GCC compiles such selects into branches).
    cdef int64_t mask = -<int64_t>take
    best[0] = <key_t>((v & <key_t>mask) | (best[0] & ~<key_t>mask))
    index[0] = (row & mask) | (index[0] & ~mask)


cdef inline void merge_lanes_at(
    const key_t* lane_best, const key_t* lane_index, int64_t first, Py_ssize_t step,
    Py_ssize_t width, key_t* best, int64_t* index, bint masks, tie_t* tie,
) noexcept nogil:
    # Take lane c, the best key lane_best[c] at row first + lane_index[c] * step,
    # into best[c] and index[c] for c < width: the smaller key, or on a tie
    # the first (or last) row.  With masks, without a branch: GCC compiles
    # the selects into branches, which ties mispredict when they take the
    # later row (the last index).
    cdef Py_ssize_t c
    cdef int64_t row, take
    cdef key_t v
    for c in range(width):
        v = lane_best[c]
        row = first + <int64_t>lane_index[c] * step
        if tie_t is last_tie:
            take = (v < best[c]) | ((v == best[c]) & (row > index[c]))
        else:
            take = (v < best[c]) | ((v == best[c]) & (row < index[c]))
        if masks:
            take_if(take, v, row, &best[c], &index[c])
        else:
            best[c] = v if take else best[c]
            index[c] = row if take else index[c]


cdef inline void merge_lanes(
    const key_t* lane_best, const key_t* lane_index, int64_t first, Py_ssize_t step,
    Py_ssize_t width, key_t* best, int64_t* index, tie_t* tie,
) noexcept nogil:
    # merge_lanes_at with masks for the last index from 8 columns.
    if tie_t is last_tie and width >= 8:
        merge_lanes_at(lane_best, lane_index, first, step, width, best, index, True, tie)
    else:
        merge_lanes_at(lane_best, lane_index, first, step, width, best, index, False, tie)


cdef Py_ssize_t packed_column_argmin(
    const char* p, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t width,
    key_t* best, int64_t* index, key_t* chunk_best, key_t* chunk_index,
    const char* input_end, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # Columns of a few contiguous elements whose rows follow each other: the
    # rows are read `pack` at a time as one row of pack * width lanes (lane l
    # holds column l % width of row l // width), so that a vector holds many
    # rows: grouped rows of up to two groups of lanes where a whole number of
    # rows fills one at least, or else up to PACK_BYTES.  The rows left over,
    # fewer than pack, are the first lanes of one more row of lanes, where the
    # last chunk has room for it.  Sets best and index from rows [start, end)
    # and returns end, the first row left out.
    cdef Py_ssize_t size = sizeof(key_t), rows = chunk_rows(inf_bits)
    cdef Py_ssize_t pack = min(2 * group_lanes(size), GROUP_ROW_BYTES // size) // width
    cdef Py_ssize_t lanes, end, k = start, count, q, c
    cdef bint grouped = grouped_rows(pack * width, size)
    if not grouped:
        pack = PACK_BYTES // size // width
    lanes = pack * width
    end = start + (stop - start) // pack * pack
    if grouped and stop - start < 2 * lanes and group_lanes(size) * size <= 2 * REGISTER_BYTES:
        # Fewer rows than twice the lanes: merging the lanes would cost more
        # than reading the rows one by one, a group of lanes at a time (see
        # column_chunk), where a group is at most two registers.
        end = start
    for c in range(width):
        best[c] = ~key_min(inf_bits)
        index[c] = -1 if tie_t is last_tie else INT64_MAX
    while k < end:
        count = min(rows, (end - k) // pack)
        column_chunk(p + k * width * size, lanes * size, count, lanes, size, chunk_best,
                     chunk_index, input_end, inf_bits, coding, tie)
        if k + count * pack == end and end < stop and count < rows:
            fold_tile(p + end * width * size, lanes * size, count, 1, (stop - end) * width,
                      size, chunk_best, chunk_index, inf_bits, coding, tie)
            end = stop
        column_chunk_keys(chunk_best, lanes, coding)
        # Lane j = q * width + c: column c of the q-th row of each row of lanes.
        for q in range(pack):
            merge_lanes(chunk_best + q * width, chunk_index + q * width, k + q, pack,
                        width, best, index, tie)
        k += rows * pack
    return end


cdef void column_argmin(
    const char* p, Py_ssize_t reduced_stride, Py_ssize_t start, Py_ssize_t stop,
    Py_ssize_t width, Py_ssize_t stride, key_t* best, int64_t* index,
    key_t* chunk_best, key_t* chunk_index, bint pack_rows, const char* input_end,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # For each element of a column tile, the best key over reduced positions
    # [start, stop) and its position: chunk by chunk, merged in axis order;
    # with pack_rows, most rows read as rows of lanes (packed_column_argmin).
    cdef Py_ssize_t j, k = start, rows = chunk_rows(inf_bits)
    cdef bint started = False
    if pack_rows:
        k = packed_column_argmin(p, start, stop, width, best, index, chunk_best,
                                 chunk_index, input_end, inf_bits, coding, tie)
        started = k > start
    while k < stop:
        if stride == <Py_ssize_t>sizeof(key_t):
            # Compiled apart: a contiguous tile vectorizes.
            column_chunk(p + k * reduced_stride, reduced_stride, min(rows, stop - k),
                         width, sizeof(key_t), chunk_best, chunk_index, input_end,
                         inf_bits, coding, tie)
        else:
            column_chunk(p + k * reduced_stride, reduced_stride, min(rows, stop - k),
                         width, stride, chunk_best, chunk_index, input_end,
                         inf_bits, coding, tie)
        column_chunk_keys(chunk_best, width, coding)
        if not started:
            for j in range(width):
                best[j] = chunk_best[j]
                index[j] = k + chunk_index[j]
            started = True
        else:
            # By masks: for the last index, a later chunk that ties takes the
            # element, and whether one does is as good as random.
            for j in range(width):
                take_if(better(chunk_best[j], best[j], tie), chunk_best[j],
                        k + chunk_index[j], &best[j], &index[j])
        k += rows
