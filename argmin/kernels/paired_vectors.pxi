# Paired vectors: short rows of 8-, 16- and 32-bit keys paired with their
# positions as in paired_rows.pxi, a row's pairs held in a register
# (pairs.h), where VECTOR_PAIRS (AVX-512BW or AVX2).

cdef extern from "pairs.h":
    # 64 bytes of lanes in registers, and the operations on them.
    const bint VECTOR_PAIRS "ARGMIN_VECTOR_PAIRS"
    ctypedef struct vec_t "argmin_vec":
        pass
    vec_t load_vec "argmin_load"(const void* p) nogil
    void store_vec "argmin_store"(void* p, vec_t v) nogil
    vec_t pairs8 "argmin_pairs8"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits) nogil
    vec_t pairs16 "argmin_pairs16"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits) nogil
    vec_t pairs32 "argmin_pairs32"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits) nogil
    vec_t float_pairs16 "argmin_float_pairs16"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits, int16_t inf_bits,
        int16_t nan_key) nogil
    vec_t float_pairs32 "argmin_float_pairs32"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits, int32_t inf_bits,
        int32_t nan_key) nogil
    vec_t min16 "argmin_min16"(vec_t a, vec_t b) nogil
    vec_t min32 "argmin_min32"(vec_t a, vec_t b) nogil
    vec_t min64 "argmin_min64"(vec_t a, vec_t b) nogil
    void halve16 "argmin_halve16"(vec_t* v, Py_ssize_t count, int level) nogil
    void halve32 "argmin_halve32"(vec_t* v, Py_ssize_t count, int level) nogil
    void halve64 "argmin_halve64"(vec_t* v, Py_ssize_t count, int level) nogil
    vec_t spread16 "argmin_spread16"(vec_t v, vec_t index) nogil
    vec_t spread32 "argmin_spread32"(vec_t v, vec_t index) nogil
    vec_t spread64 "argmin_spread64"(vec_t v, vec_t index) nogil


cdef enum:
    # Bytes of a vector of pairs, and most bytes of a row whose pairs are
    # held in vectors: of 8-bit keys SHORT_ROW_MAX, whose positions fill a
    # pair's 8 bits.
    VECTOR_BYTES = 64
    VECTOR_ROW_BYTES = 256
    # Each stream of several read side by side is asked for twice: into the
    # first-level cache VECTOR_PREFETCH_BYTES ahead, into the second
    # VECTOR_PREFETCH_L2_BYTES ahead.
    VECTOR_PREFETCH_BYTES = 1024
    VECTOR_PREFETCH_L2_BYTES = 2048


cdef inline bint read_together(Py_ssize_t n, Py_ssize_t size) noexcept nogil:
    # Whether rows of n `size`-byte elements that follow each other are read
    # several to a vector of pairs (paired_vectors_argmin): rows of 2 to 32
    # bytes, a power of two, of at least two 8-, 16- or 32-bit elements; where
    # a vector takes two registers (AVX2), of 8-bit elements, or of 16 bytes
    # or more of 16-bit ones.
    return (VECTOR_PAIRS and n >= 2 and n * size < VECTOR_BYTES
            and n * size & (n * size - 1) == 0
            and (size <= 4 if REGISTER_BYTES == VECTOR_BYTES
                 else size == 1 or (size == 2 and n * size >= 16)))


cdef inline vec_t pair_up(
    const char* lo, const char* hi, int piece, const vec_t* pair_bits, key_t inf_bits,
    coding_t* coding,
) noexcept nogil:
    # The pairs of the keys at lo and hi, in pieces of `piece` bytes (see
    # pairs.h).  A float's NaN becomes the key that the pair bits turn into
    # its key (nan_key).
    cdef key_t nan_bits = nan_key(inf_bits, coding) ^ direction(inf_bits, coding)
    if key_t is int8_t:
        return pairs8(lo, hi, piece, pair_bits)
    elif key_t is int16_t and floating(coding):
        return float_pairs16(lo, hi, piece, pair_bits, inf_bits, nan_bits)
    elif key_t is int16_t:
        return pairs16(lo, hi, piece, pair_bits)
    elif floating(coding):
        return float_pairs32(lo, hi, piece, pair_bits, <int32_t>inf_bits, <int32_t>nan_bits)
    else:
        return pairs32(lo, hi, piece, pair_bits)


cdef inline vec_t lower(vec_t a, vec_t b, key_t k) noexcept nogil:
    if key_t is int8_t:
        return min16(a, b)
    elif key_t is int16_t:
        return min32(a, b)
    else:
        return min64(a, b)


cdef inline void halve(vec_t* v, Py_ssize_t count, int level, key_t k) noexcept nogil:
    if key_t is int8_t:
        halve16(v, count, level)
    elif key_t is int16_t:
        halve32(v, count, level)
    else:
        halve64(v, count, level)


cdef inline vec_t spread(vec_t v, vec_t index, key_t k) noexcept nogil:
    if key_t is int8_t:
        return spread16(v, index)
    elif key_t is int16_t:
        return spread32(v, index)
    else:
        return spread64(v, index)


cdef inline void set_pair(char* pairs, Py_ssize_t k, int64_t pair, key_t key) noexcept nogil:
    # Pair k of the pairs of `key`'s type at `pairs`, set to `pair`.
    if key_t is int8_t:
        (<int16_t*>pairs)[k] = <int16_t>pair
    elif key_t is int16_t:
        (<int32_t*>pairs)[k] = <int32_t>pair
    else:
        (<int64_t*>pairs)[k] = pair


cdef inline int64_t get_pair(const char* pairs, Py_ssize_t k, key_t key) noexcept nogil:
    if key_t is int8_t:
        return (<const int16_t*>pairs)[k]
    elif key_t is int16_t:
        return (<const int32_t*>pairs)[k]
    else:
        return (<const int64_t*>pairs)[k]


cdef inline vec_t row_pairs(
    const char* q, Py_ssize_t second, int piece, Py_ssize_t vectors, const Py_ssize_t* offsets,
    const vec_t* positions, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # The pairs of the row at q, each the smaller of two neighbours, the
    # smaller of each vector's.
    cdef Py_ssize_t c
    cdef vec_t v = pair_up(q, q + second, piece, positions, inf_bits, coding)
    for c in range(1, vectors):
        # Whole vectors: a single load, hi unused.
        v = lower(v, pair_up(q + offsets[c], q, VECTOR_BYTES, positions + 2 * c,
                             inf_bits, coding), inf_bits)
    return v


cdef inline void pair_rows(
    const char* row, Py_ssize_t row_stride, Py_ssize_t tile_rows,
    Py_ssize_t stream_stride, Py_ssize_t streams, int piece, Py_ssize_t second,
    Py_ssize_t vectors, const Py_ssize_t* offsets, const vec_t* positions,
    Py_ssize_t lines, Py_ssize_t ahead, Py_ssize_t far, vec_t* pairs, bint ask_rows,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # pairs[r * streams + b], the smaller pair of each two neighbours of row r
    # of tile b, for tile_rows rows from `row`.  The streams of several tiles
    # are asked for ahead, each twice; a single one PREFETCH_BYTES ahead
    # (whole rows) where ask_rows, a row's first line outside the loop over
    # its lines.
    cdef Py_ssize_t r, b, h, k = 0, single
    cdef const char* q
    if streams == 1:
        single = rows_ahead(PREFETCH_BYTES, row_stride) if ask_rows else 0
        for r in range(tile_rows):
            if ask_rows:
                prefetch(row + single)
                for h in range(1, lines):
                    prefetch(row + single + h * CACHE_LINE)
            pairs[r] = row_pairs(row, second, piece, vectors, offsets, positions, inf_bits, coding)
            row += row_stride
        return
    for r in range(tile_rows):
        q = row
        for b in range(streams):
            for h in range(lines):
                prefetch(q + ahead + h * CACHE_LINE)
                prefetch_l2(q + far + h * CACHE_LINE)
            pairs[k] = row_pairs(q, second, piece, vectors, offsets, positions, inf_bits, coding)
            k += 1
            q += stream_stride
        row += row_stride


cdef inline void set_positions(
    Py_ssize_t n, Py_ssize_t piece_len, Py_ssize_t vectors, Py_ssize_t per,
    Py_ssize_t* offsets, vec_t* positions, vec_t* spreading, char* even, char* odd,
    key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # For rows of n elements read `vectors` vectors a row, the first as two
    # pieces of piece_len elements, `per` rows a vector: each vector's offset
    # in a row, and the pair bits of its even and odd elements (the key flip
    # in the key's half, the row position, or 255 - position for the last
    # index, in the other); for rows read together, the lanes that spread
    # their vectors as lanes of single rows.
    cdef Py_ssize_t size = sizeof(key_t), length = VECTOR_BYTES // sizeof(key_t)
    cdef Py_ssize_t group = VECTOR_BYTES // (2 * sizeof(key_t)), c, e
    cdef int64_t position
    cdef int64_t flip = <int64_t>(<uint64_t><int64_t>key_flip(inf_bits, coding) << (8 * size))
    for c in range(vectors):
        offsets[c] = max(0, min(c * length, n - length)) * size
        for e in range(length):
            # The element's offset in the vector, or in its piece, the odd
            # pieces at n - piece_len (a power of two: no divisions).
            position = offsets[c] // size + (e & (piece_len - 1))
            if e & piece_len:
                position += n - piece_len
            position = (255 - position if tie_t is last_tie else position) ^ flip
            set_pair(even if e % 2 == 0 else odd, e // 2, position, inf_bits)
        positions[2 * c] = load_vec(even)
        positions[2 * c + 1] = load_vec(odd)
    spreading[0] = positions[0]
    if per > 1:
        for e in range(group):
            set_pair(even, e, (e % per) * (group // per) + e // per, inf_bits)
        spreading[0] = load_vec(even)


cdef void paired_vectors_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint ask_rows, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # paired_rows_argmin with a row's pairs in a register, for 8-, 16- and
    # 32-bit keys in rows of 2 elements to VECTOR_ROW_BYTES.  A row is read
    # a vector at a time, the last overlapping the others when the row is
    # not a whole number of vectors, or, shorter than a vector, as two
    # overlapping pieces of the most bytes of 32, 16, 8, 4 or 2 that it
    # holds, repeated to fill the vector; of each vector, the smaller pair of
    # each two neighbours.  One vector of pairs per row, or several rows a
    # vector where they follow each other (read_together); then the vectors
    # of as many rows as a vector has pairs are halved together, until lane
    # k holds row k's smallest pair.
    cdef Py_ssize_t size = sizeof(key_t), n = stop - start, j = 0, k, rows, count
    cdef Py_ssize_t group = VECTOR_BYTES // (2 * size), length = VECTOR_BYTES // size
    # Whole tile rows a group: a row of each tile (streams <= OUT_BLOCK <= group).
    cdef Py_ssize_t r = 0, tile_rows, group_rows = group // streams
    cdef Py_ssize_t ahead = rows_ahead(VECTOR_PREFETCH_BYTES, row_stride)
    cdef Py_ssize_t far = rows_ahead(VECTOR_PREFETCH_L2_BYTES, row_stride)
    cdef Py_ssize_t lines = (n * size + CACHE_LINE - 1) // CACHE_LINE
    cdef Py_ssize_t vectors = max(1, (n + length - 1) // length)
    # The pieces of a row's first vector: their bytes, elements, and where
    # the second piece starts.
    cdef int piece = VECTOR_BYTES
    while piece > n * size:
        piece //= 2
    cdef Py_ssize_t piece_len = piece // size
    cdef Py_ssize_t second = (n - piece_len) * size
    # Rows that follow each other, read together: `per` of them a vector.
    # Such a row is a whole piece, so the pair bits of its pieces are those
    # of the rows of a vector.
    cdef Py_ssize_t per = (VECTOR_BYTES // (n * size) if streams == 1 and row_stride == n * size
                           and read_together(n, size) else 1)
    cdef const char* row = p + start * size   # the next row of the first tile
    cdef Py_ssize_t offsets[VECTOR_ROW_BYTES / VECTOR_BYTES]
    cdef vec_t positions[2 * VECTOR_ROW_BYTES / VECTOR_BYTES]
    cdef vec_t pairs[32]
    cdef vec_t spreading
    cdef int64_t memory[16 + 8]   # two vectors, and a cache line more
    cdef char* even = <char*>on_cache_line(memory)
    cdef int level, spread_level = 0
    set_positions(n, piece_len, vectors, per, offsets, positions, &spreading, even,
                  even + VECTOR_BYTES, inf_bits, coding, tie)
    while 1 << spread_level < per:
        spread_level += 1
    while j < width * streams:
        tile_rows = min(group_rows, width - r)
        rows = tile_rows * streams
        if per > 1 and rows == group:
            # Row k's pairs are n / 2 lanes from (k % per) * n / 2 of vector
            # k / per, spread as the single rows' lanes after their first
            # halvings, so in the end too lane k holds row k's pair.
            count = group // per
            level = spread_level
            for k in range(count):
                prefetch(row + PREFETCH_BYTES)
                pairs[k] = spread(pair_up(row, row, VECTOR_BYTES, positions, inf_bits, coding),
                                  spreading, inf_bits)
                row += VECTOR_BYTES
        else:
            count = group
            level = 0
            # Rows of a vector or more (but of 32-bit keys): their first piece
            # a whole vector, a constant in this call's loads.
            if piece == VECTOR_BYTES and key_t is not int32_t:
                pair_rows(row, row_stride, tile_rows, stream_stride, streams, VECTOR_BYTES,
                          second, vectors, offsets, positions, lines, ahead, far, pairs,
                          ask_rows, inf_bits, coding)
            else:
                pair_rows(row, row_stride, tile_rows, stream_stride, streams, piece, second,
                          vectors, offsets, positions, lines, ahead, far, pairs, ask_rows,
                          inf_bits, coding)
            row += tile_rows * row_stride
            for k in range(rows, group):
                pairs[k] = pairs[0]   # lanes of no row
        while count > 1:
            count //= 2
            halve(pairs, count, level, inf_bits)
            level += 1
        store_vec(even, pairs[0])
        for k in range(rows):
            take_pair(get_pair(even, k, inf_bits), 8 * size, start, &best[j + k], &index[j + k],
                      tie)
        j += rows
        r += tile_rows
