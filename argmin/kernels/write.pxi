# Writing the output: the indices of a tile, of one outer position or of a
# block of them, turned from memory positions into ONNX indices and stored
# along the output's own strides; and, when asked for, the elements at those
# indices, made from their keys (or copied from the input where a key stands
# for more than one element's bits).

cdef enum:
    # Outer positions whose outputs lie next to each other that a work item
    # takes at once, or (with the values, see block_len) that it writes at
    # once: a cache line of int64 indices (see plan_blocks).
    OUT_BLOCK = 8


cdef inline void locate(
    const Layout* layout, Py_ssize_t outer, const char** data, int64_t** out,
) noexcept nogil:
    # Input and output addresses of the outer position `outer` (row-major).
    cdef int d
    cdef Py_ssize_t i
    cdef const char* p = layout.data
    cdef int64_t* o = layout.out
    for d in range(layout.outer_ndim - 1, 0, -1):
        i = outer % layout.outer_len[d]
        outer = outer // layout.outer_len[d]
        p += i * layout.outer_stride[d]
        o += i * layout.outer_out_stride[d]
    if layout.outer_ndim > 0:
        # What is left is the outermost index: no division for one axis.
        p += outer * layout.outer_stride[0]
        o += outer * layout.outer_out_stride[0]
    data[0] = p
    out[0] = o


cdef inline Py_ssize_t column_offset(
    const Layout* layout, Py_ssize_t column, Py_ssize_t* position,
) noexcept nogil:
    # The output offset of column position `column` over the column axes,
    # its index on each of them left in `position`.
    cdef int d
    cdef Py_ssize_t offset = 0
    for d in range(layout.column_ndim - 1, -1, -1):
        position[d] = column % layout.column_axis_len[d]
        column = column // layout.column_axis_len[d]
        offset += position[d] * layout.column_out_stride[d]
    return offset


cdef inline Py_ssize_t next_offset(
    const Layout* layout, Py_ssize_t* position, Py_ssize_t offset,
) noexcept nogil:
    # The output offset of the column position after `position` (which
    # becomes it), from `offset`, that of `position`.
    cdef int d = layout.column_ndim - 1
    position[d] += 1
    offset += layout.column_out_stride[d]
    while position[d] == layout.column_axis_len[d] and d > 0:
        offset -= position[d] * layout.column_out_stride[d]
        position[d] = 0
        d -= 1
        position[d] += 1
        offset += layout.column_out_stride[d]
    return offset


cdef void write_positions(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    const int64_t* index, int64_t flip, int64_t shift,
) noexcept nogil:
    # write_tile for column positions [first, first + width) of several
    # column axes, one after another.
    cdef Py_ssize_t position[MAX_DIMS]
    cdef Py_ssize_t j, offset = column_offset(layout, first, position)
    for j in range(width):
        o[offset] = (index[j] ^ flip) + shift
        offset = next_offset(layout, position, offset)


cdef void write_across(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    const int64_t* index, int64_t flip, int64_t shift,
) noexcept nogil:
    # write_tile for two column axes, the outer one contiguous in the output
    # and the inner one spread out (a Fortran array along its last axis): in
    # column order, each output element would fall on a line of its own.
    # The whole rows of the inner axis are written OUT_BLOCK of its positions
    # at a time, each down all the rows: OUT_BLOCK lines filled in order,
    # from one line of indices.  The rows cut by the tile's ends are written
    # one position after another.
    cdef Py_ssize_t inner = layout.column_axis_len[1]
    cdef Py_ssize_t outer_stride = layout.column_out_stride[0]
    cdef Py_ssize_t inner_stride = layout.column_out_stride[1]
    cdef Py_ssize_t head = min(width, (inner - first % inner) % inner)
    cdef Py_ssize_t rows = (width - head) // inner, tail = head + rows * inner
    cdef Py_ssize_t row = (first + head) // inner, r, t, u
    cdef const int64_t* rows_index = index + head
    write_positions(layout, o, first, head, index, flip, shift)
    for t in range((inner + OUT_BLOCK - 1) // OUT_BLOCK):
        for r in range(rows):
            for u in range(t * OUT_BLOCK, min((t + 1) * OUT_BLOCK, inner)):
                o[(row + r) * outer_stride + u * inner_stride] = (
                    (rows_index[r * inner + u] ^ flip) + shift)
    write_positions(layout, o, first + tail, width - tail, index + tail, flip, shift)


cdef inline void write_line(char* p, const int64_t* line, bint past_caches) noexcept nogil:
    # Store a cache line's bytes, `line`, at p: past the caches if
    # past_caches, as one vector where p starts a cache line, or as OUT_BLOCK
    # int64 where it starts one of those (otherwise through the caches).
    cdef Py_ssize_t b
    if past_caches and <size_t>p % CACHE_LINE == 0:
        line_past_caches(<int64_t*>p, line)
    elif past_caches and <size_t>p % sizeof(int64_t) == 0:
        for b in range(OUT_BLOCK):
            store_past_caches(<int64_t*>p + b, line[b])
    else:
        memcpy(p, line, CACHE_LINE)


cdef void write_tile(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    Py_ssize_t streams, bint apart, const int64_t* index, bint past_caches,
) noexcept nogil:
    # Write the indices of column positions [first, first + width) to the
    # output of one outer position, o, or of `streams` (at most OUT_BLOCK)
    # outer positions one after another in the output (one column axis only),
    # index[j * streams + b], or index[b * width + j] when apart, those past
    # the caches if past_caches (blocks of several positions only).
    # A memory position i is the ONNX index i, or reduced_len - 1 - i when
    # the reduced axis was walked backwards: (i ^ flip) + shift, without a
    # branch, and the strides held in locals (the stores could change the
    # layout, for all the compiler knows), so that the copies vectorize.
    cdef Py_ssize_t j = 0, b, u, stride
    cdef Py_ssize_t step = 1 if apart else streams, across = width if apart else 1
    cdef int64_t flip = -1 if layout.flip else 0
    cdef int64_t shift = layout.reduced_len if layout.flip else 0
    cdef int64_t lines[OUT_BLOCK * OUT_BLOCK]
    if layout.column_ndim == 0:
        o[0] = (index[0] ^ flip) + shift   # rows: one element
    elif layout.column_ndim == 1:
        stride = layout.column_out_stride[0]
        if streams == 1:
            for j in range(width):
                o[(first + j) * stride] = (index[j] ^ flip) + shift
        else:
            if streams == OUT_BLOCK:
                # Whole lines: OUT_BLOCK column positions at a time, their
                # indices gathered into a buffer of lines (transposed when
                # apart: the compiler vectorizes the loop pair) stored whole.
                while j + OUT_BLOCK <= width:
                    if apart:
                        for u in range(OUT_BLOCK):
                            for b in range(OUT_BLOCK):
                                lines[u * OUT_BLOCK + b] = (index[b * width + j + u] ^ flip) + shift
                    else:
                        for u in range(OUT_BLOCK * OUT_BLOCK):
                            lines[u] = (index[j * OUT_BLOCK + u] ^ flip) + shift
                    for u in range(OUT_BLOCK):
                        write_line(<char*>&o[(first + j + u) * stride], &lines[u * OUT_BLOCK],
                                   past_caches)
                    j += OUT_BLOCK
            if past_caches:
                while j < width:
                    for b in range(streams):
                        store_past_caches(&o[(first + j) * stride + b],
                                          (index[j * step + b * across] ^ flip) + shift)
                    j += 1
                drain_stores()
            else:
                while j < width:
                    for b in range(streams):
                        o[(first + j) * stride + b] = (index[j * step + b * across] ^ flip) + shift
                    j += 1
    elif (layout.column_ndim == 2 and -1 <= layout.column_out_stride[0] <= 1
            and not -OUT_BLOCK <= layout.column_out_stride[1] <= OUT_BLOCK):
        write_across(layout, o, first, width, index, flip, shift)
    else:
        write_positions(layout, o, first, width, index, flip, shift)


cdef inline Py_ssize_t block_at(
    Py_ssize_t j, Py_ssize_t b, Py_ssize_t width, Py_ssize_t streams, bint apart,
) noexcept nogil:
    # Where the result of column position j of outer position b of a tile of
    # `streams` outer positions lies, as reduce_item holds it: at b * width +
    # j when apart; otherwise in the group of OUT_BLOCK positions that holds
    # b (at g * width, g its first), as write_tile reads `index` for them.
    cdef Py_ssize_t g = b - b % OUT_BLOCK
    if apart:
        return b * width + j
    return g * width + j * min(<Py_ssize_t>OUT_BLOCK, streams - g) + b - g


cdef inline bint decode_block(
    const key_t* best, Py_ssize_t width, Py_ssize_t j, bint apart, key_t* v,
    Py_ssize_t out_stride, coding_t* coding, bint past_caches,
) noexcept nogil:
    # decode_tile for column positions [j, j + OUT_BLOCK) of a whole block
    # of a line of values (CACHE_LINE / sizeof(key_t) outer positions): their
    # values made into a buffer of OUT_BLOCK lines, one for each column
    # position (gathered across the block when apart), each line then stored
    # at once to v, the values of the block's column position 0: past the
    # caches if past_caches and every line starts a cache line (a part of a
    # line, the rest of which another block writes, goes through the caches).
    # Returns whether all keys were exact.
    cdef int64_t buffer[OUT_BLOCK * OUT_BLOCK]
    cdef key_t* lines = <key_t*>buffer
    cdef Py_ssize_t u, b, g, keys = CACHE_LINE // sizeof(key_t)
    cdef bint exact = True
    cdef bint whole_lines = (<size_t>&v[j * out_stride] % CACHE_LINE == 0
                             and out_stride * sizeof(key_t) % CACHE_LINE == 0)
    if apart:
        for u in range(OUT_BLOCK):
            for b in range(keys):
                lines[u * keys + b] = best[b * width + j + u]
    else:
        for g in range(keys // OUT_BLOCK):
            for u in range(OUT_BLOCK):
                memcpy(&lines[u * keys + g * OUT_BLOCK],
                       &best[g * OUT_BLOCK * width + (j + u) * OUT_BLOCK],
                       OUT_BLOCK * sizeof(key_t))
    for u in range(OUT_BLOCK * keys):
        exact &= exact_key(lines[u], coding)
        lines[u] = element_bits(lines[u], coding)
    for u in range(OUT_BLOCK):
        write_line(<char*>&v[(j + u) * out_stride], &buffer[u * OUT_BLOCK],
                   past_caches and whole_lines)
    return exact


cdef bint decode_tile(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    Py_ssize_t streams, bint apart, const key_t* best, key_t* values, coding_t* coding,
    bint past_caches,
) noexcept nogil:
    # The winning elements of the tile whose indices reduce_item writes
    # (write_tile, for each group of OUT_BLOCK of its `streams` outer
    # positions) at o, made from their keys, `best` (laid out as block_at
    # says), and stored to `values` (layout.values) at their indices'
    # places, those of whole blocks of a line past the caches if past_caches.
    # Returns whether every key was exact (exact_key); the elements of the
    # others are still to be copied from the input (copy_inexact).  The
    # layout's fields are read into locals first: a store of 8-bit values
    # could change them, for all the compiler knows.
    cdef Py_ssize_t j, b, at, offset
    cdef Py_ssize_t out_stride
    cdef Py_ssize_t position[MAX_DIMS]
    cdef key_t* v = values + (o - layout.out_start)
    cdef bint exact = True
    if layout.column_ndim == 0:
        v[0] = element_bits(best[0], coding)
        exact = exact_key(best[0], coding)
    elif layout.column_ndim == 1 and streams == 1:
        out_stride = layout.column_out_stride[0]
        for j in range(width):
            v[(first + j) * out_stride] = element_bits(best[j], coding)
            exact &= exact_key(best[j], coding)
    elif layout.column_ndim == 1:
        out_stride = layout.column_out_stride[0]
        j = 0
        while streams * <Py_ssize_t>sizeof(key_t) == CACHE_LINE and j + OUT_BLOCK <= width:
            exact &= decode_block(best, width, j, apart, v + first * out_stride, out_stride,
                                  coding, past_caches)
            j += OUT_BLOCK
        if j > 0 and past_caches:
            drain_stores()
        while j < width:
            for b in range(streams):
                at = block_at(j, b, width, streams, apart)
                v[(first + j) * out_stride + b] = element_bits(best[at], coding)
                exact &= exact_key(best[at], coding)
            j += 1
    else:  # one outer position (see write_tile)
        offset = column_offset(layout, first, position)
        for j in range(width):
            v[offset] = element_bits(best[j], coding)
            exact &= exact_key(best[j], coding)
            offset = next_offset(layout, position, offset)
    return exact


cdef void copy_inexact(
    const Layout* layout, const char* p, Py_ssize_t stream_stride, int64_t* o,
    Py_ssize_t first, Py_ssize_t width, Py_ssize_t streams, bint apart, const int64_t* index,
    const key_t* best, key_t* values, coding_t* coding,
) noexcept nogil:
    # What decode_tile left undone: the winning elements whose keys are not
    # exact, copied bit for bit from the input to their places in `values`
    # (the NaN payload or the zero's sign that won).  p is the input of
    # column position `first` of the first outer position, stream_stride the
    # distance to the next one's; index holds memory positions along the
    # reduced axis, laid out as best (block_at).  The layout's fields are
    # read into locals, as in decode_tile.  (The shapes are decode_tile's.)
    cdef Py_ssize_t j, b, at, offset
    cdef Py_ssize_t reduced_stride = layout.reduced_stride, column_stride = layout.column_stride
    cdef Py_ssize_t out_stride
    cdef Py_ssize_t position[MAX_DIMS]
    cdef key_t* v = values + (o - layout.out_start)
    if layout.column_ndim == 0:
        memcpy(v, p + index[0] * reduced_stride, sizeof(key_t))   # its one key was not exact
    elif layout.column_ndim == 1:
        out_stride = layout.column_out_stride[0]
        for j in range(width):
            for b in range(streams):
                at = block_at(j, b, width, streams, apart)
                if not exact_key(best[at], coding):
                    memcpy(&v[(first + j) * out_stride + b],
                           p + b * stream_stride + j * column_stride + index[at] * reduced_stride,
                           sizeof(key_t))
    else:  # one outer position (see write_tile)
        offset = column_offset(layout, first, position)
        for j in range(width):
            if not exact_key(best[j], coding):
                memcpy(&v[offset], p + j * column_stride + index[j] * reduced_stride,
                       sizeof(key_t))
            offset = next_offset(layout, position, offset)


cdef inline void write_values(
    const Layout* layout, const char* p, Py_ssize_t stream_stride, int64_t* o,
    Py_ssize_t first, Py_ssize_t width, Py_ssize_t streams, bint apart, const int64_t* index,
    const key_t* best, coding_t* coding, bint past_caches,
) noexcept nogil:
    # The winning elements of a tile, written beside its indices to
    # layout.values: from their keys, best, and for keys that are not exact
    # from the input, at p (see copy_inexact).
    cdef key_t* values = <key_t*>layout.values
    if not decode_tile(layout, o, first, width, streams, apart, best, values, coding,
                       past_caches):
        copy_inexact(layout, p, stream_stride, o, first, width, streams, apart, index, best,
                     values, coding)
