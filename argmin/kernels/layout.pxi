# The layout: an input array and its output seen as a reduced axis, a column
# (axes evenly spaced in the input, read together) and outer axes, every
# stride positive, so that the loops only walk forwards.

cdef struct Layout:
    # The input, its reduced axis and the output, in bytes and in elements.
    const char* data
    const char* end           # one past the input's last byte
    int64_t inf_bits          # a float's infinity, in its bits; 0 for integers
    Py_ssize_t reduced_len
    Py_ssize_t reduced_stride
    bint flip                 # the reduced axis was walked backwards
    bint last                 # select_last_index, in memory order
    int64_t* out
    int64_t* out_start        # the output's lowest address
    # Where the winning elements go (NULL: indices only): an array of the
    # output's shape and strides, in elements of the input's type.
    char* values
    # The column: axes whose input positions are evenly spaced by
    # column_stride (the row's single element in rows mode), innermost last.
    Py_ssize_t column_len
    Py_ssize_t column_stride
    int column_ndim
    Py_ssize_t column_axis_len[MAX_DIMS]
    Py_ssize_t column_out_stride[MAX_DIMS]
    # The other axes, outermost first.
    int outer_ndim
    Py_ssize_t outer_len[MAX_DIMS]
    Py_ssize_t outer_stride[MAX_DIMS]
    Py_ssize_t outer_out_stride[MAX_DIMS]


cdef int sort_outer(
    Layout* layout, int ndim, int axis, const cnp.npy_intp* shape, const cnp.npy_intp* strides,
    const Py_ssize_t* out_strides,
) noexcept:
    # The axes but the reduced one, longer than 1, read forwards, by
    # decreasing stride, into the outer axes; returns how many.
    cdef int d, e, m = 0
    cdef Py_ssize_t length, stride, out_stride
    for d in range(ndim):
        length = shape[d]
        if d == axis or length == 1:
            continue
        stride = strides[d]
        out_stride = out_strides[d]
        if stride < 0:
            layout.data += (length - 1) * stride
            layout.out += (length - 1) * out_stride
            stride = -stride
            out_stride = -out_stride
        e = m
        while e > 0 and layout.outer_stride[e - 1] < stride:
            layout.outer_len[e] = layout.outer_len[e - 1]
            layout.outer_stride[e] = layout.outer_stride[e - 1]
            layout.outer_out_stride[e] = layout.outer_out_stride[e - 1]
            e -= 1
        layout.outer_len[e] = length
        layout.outer_stride[e] = stride
        layout.outer_out_stride[e] = out_stride
        m += 1
    return m


cdef int merge_outer(Layout* layout, int m) noexcept:
    # Outer axes contiguous with each other in input and output merged: fewer
    # outer positions to walk, and a column's output written as one run.
    # Returns how many are left.
    cdef int d, merged = 0
    for d in range(m):
        if (merged > 0
                and layout.outer_stride[merged - 1] == layout.outer_len[d] * layout.outer_stride[d]
                and layout.outer_out_stride[merged - 1]
                == layout.outer_len[d] * layout.outer_out_stride[d]):
            layout.outer_len[merged - 1] *= layout.outer_len[d]
            layout.outer_stride[merged - 1] = layout.outer_stride[d]
            layout.outer_out_stride[merged - 1] = layout.outer_out_stride[d]
        else:
            layout.outer_len[merged] = layout.outer_len[d]
            layout.outer_stride[merged] = layout.outer_stride[d]
            layout.outer_out_stride[merged] = layout.outer_out_stride[d]
            merged += 1
    return merged


cdef void take_column(Layout* layout, int m, Py_ssize_t size, const Tuning* tuning) noexcept:
    # Rows when the reduced axis is contiguous and long (or is the only axis);
    # columns otherwise, along the least spread-out axes: the innermost outer
    # axis, and those that continue it evenly in the input (and, for
    # contiguous rows, an output element each, in the output too).
    cdef Py_ssize_t column_stride = layout.outer_stride[m - 1] if m > 0 else 0
    cdef bint rows
    cdef int d, e
    if m == 0:
        rows = True
    elif layout.reduced_stride == size:
        rows = long_row(layout.reduced_len, size, tuning)
    elif column_stride == size:
        rows = False
    else:
        rows = layout.reduced_stride < column_stride
    layout.column_ndim = 0
    layout.column_len = 1
    layout.column_stride = column_stride
    if not rows:
        d = m - 1
        while d >= 0 and layout.outer_stride[d] == layout.column_len * column_stride and (
                layout.reduced_stride != size or layout.outer_out_stride[d]
                == layout.column_len * layout.outer_out_stride[m - 1]):
            layout.column_len *= layout.outer_len[d]
            d -= 1
        layout.column_ndim = m - 1 - d
        for e in range(layout.column_ndim):
            layout.column_axis_len[e] = layout.outer_len[d + 1 + e]
            layout.column_out_stride[e] = layout.outer_out_stride[d + 1 + e]
        m = d + 1
    layout.outer_ndim = m


cdef void set_layout(
    Layout* layout, const char* data, int ndim, const cnp.npy_intp* shape,
    const cnp.npy_intp* strides, Py_ssize_t size, int axis, bint last, int64_t* out,
    int64_t inf_bits, const Tuning* tuning,
) noexcept:
    # The layout of reducing the array at `data` (of `ndim` axes of `shape`
    # and `strides`, elements of `size` bytes) along `axis` into `out`,
    # C-contiguous, of its shape without that axis (or with it as 1).
    cdef int d
    cdef Py_ssize_t out_strides[MAX_DIMS]   # in elements, per input axis
    cdef Py_ssize_t n = shape[axis], stride = 1
    for d in range(ndim - 1, -1, -1):
        if d != axis:
            out_strides[d] = stride
            stride *= shape[d]
    layout.data = data
    layout.inf_bits = inf_bits
    layout.out = layout.out_start = out
    layout.values = NULL
    layout.reduced_len = n
    layout.reduced_stride = strides[axis] if n > 1 else size
    layout.flip = layout.reduced_stride < 0
    if layout.flip:
        layout.data += (n - 1) * layout.reduced_stride
        layout.reduced_stride = -layout.reduced_stride
    layout.last = last != layout.flip
    take_column(layout, merge_outer(layout, sort_outer(layout, ndim, axis, shape, strides,
                                                       out_strides)), size, tuning)
    layout.end = layout.data + size
    for d in range(ndim):
        layout.end += (shape[d] - 1) * abs(strides[d])
