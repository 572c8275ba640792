"""ArgMin kernels: reduce a strided N-d array along one axis, in place.

Every element type is read through an integer *key* of its own width whose
integer order is the ONNX order of the values:

- integers are their own key;
- floating-point values (float16, bfloat16, float32, float64) turn from
  sign-magnitude into two's complement, so that -0.0 and +0.0 share the key 0,
  and every NaN gets the smallest key of the width, which makes NaN the
  minimum and lets ties decide between NaNs.

The kernels then only compare integers: ``<`` keeps the first index of the
minimum, ``<=`` the last one.  Two loop shapes cover every layout:

- *rows*: the reduced axis is contiguous; each output element scans its row in
  blocks, with a vectorized lane-wise minimum, and only a block that improves
  the running minimum is searched for the index;
- *columns*: another axis is contiguous (or the reduced axis is not); a tile of
  that axis keeps a running minimum and index per element while the reduced
  axis is walked on the outside, so memory is read in order.

Work is split over OpenMP threads by output element, or, when there are fewer
output tiles than threads, also along the reduced axis; partial results are
merged in axis order so that ties resolve the same for every thread count.
"""

cimport numpy as cnp
from cython.parallel cimport parallel, prange
from libc.stdint cimport (
    INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN,
    int8_t, int16_t, int32_t, int64_t,
    uint8_t, uint16_t, uint32_t, uint64_t,
)
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cnp.import_array()


cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    #define argmin_max_threads() omp_get_max_threads()
    #else
    #define argmin_max_threads() 1
    #endif
    """
    int argmin_max_threads() nogil


cdef extern from *:
    """
    typedef struct argmin_integer_coding_s argmin_integer_coding;
    typedef struct argmin_float_coding_s argmin_float_coding;
    """
    ctypedef struct integer_coding "argmin_integer_coding"
    ctypedef struct float_coding "argmin_float_coding"


ctypedef fused key_t:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t

# How the stored bits become a key: as they are (integers), or from
# sign-magnitude floating point.
ctypedef fused coding_t:
    integer_coding
    float_coding


cdef enum:
    # Elements of a column tile: the running minimum and index of a tile stay
    # in the first level of cache.
    TILE = 1024
    # Bytes of a block of a row, scanned with a lane-wise minimum before its
    # index is searched.
    BLOCK_BYTES = 4096
    # Bytes of the lane-wise minimum: four 256-bit or two 512-bit registers.
    LANE_BYTES = 128
    # Fewest elements of the reduced axis that a thread takes when a row or a
    # column is split between threads.
    MIN_SPLIT = 1 << 16
    # Fewest input bytes for which a call uses more than one thread.
    PARALLEL_BYTES = 1 << 18
    MAX_DIMS = 64


cdef struct Layout:
    # The input, its reduced axis and the output, in bytes and in elements.
    const char* data
    Py_ssize_t reduced_len
    Py_ssize_t reduced_stride
    bint flip                 # the reduced axis was walked backwards
    bint last                 # select_last_index, in memory order
    int64_t* out
    # The column axis (length 1 for rows).
    Py_ssize_t column_len
    Py_ssize_t column_stride
    Py_ssize_t column_out_stride
    # The other axes, outermost first.
    int outer_ndim
    Py_ssize_t outer_len[MAX_DIMS]
    Py_ssize_t outer_stride[MAX_DIMS]
    Py_ssize_t outer_out_stride[MAX_DIMS]


cdef inline key_t key_min(key_t k) noexcept nogil:
    # The smallest key of the width: NaN's key for the floating types.
    if key_t is int8_t:
        return INT8_MIN
    elif key_t is int16_t:
        return INT16_MIN
    elif key_t is int32_t:
        return INT32_MIN
    elif key_t is int64_t:
        return INT64_MIN
    else:
        return 0


cdef inline key_t load(const char* p, key_t inf_bits, coding_t* coding) noexcept nogil:
    # The key of the element at p; p need not be aligned.
    cdef key_t bits, magnitude
    memcpy(&bits, p, sizeof(key_t))
    if coding_t is integer_coding:
        return bits
    else:
        magnitude = bits & ~key_min(bits)
        if magnitude > inf_bits:
            return key_min(bits)
        return -magnitude if bits < 0 else magnitude


cdef inline bint better(key_t candidate, key_t best, bint last) noexcept nogil:
    return candidate <= best if last else candidate < best


cdef inline Py_ssize_t scan(
    const char* p, Py_ssize_t stride, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, Py_ssize_t best_index, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Element by element over [start, stop): update best, return its index.
    cdef Py_ssize_t i
    cdef key_t v
    for i in range(start, stop):
        v = load(p + i * stride, inf_bits, coding)
        if better(v, best[0], last):
            best[0] = v
            best_index = i
    return best_index


cdef Py_ssize_t find(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t target, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # First (or last) index in [start, stop) of a contiguous run that holds target.
    cdef Py_ssize_t i
    if last:
        i = stop - 1
        while load(p + i * <Py_ssize_t>sizeof(key_t), inf_bits, coding) != target:
            i -= 1
    else:
        i = start
        while load(p + i * <Py_ssize_t>sizeof(key_t), inf_bits, coding) != target:
            i += 1
    return i


cdef Py_ssize_t row_argmin(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t* best, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Index of the minimum of the contiguous elements [start, stop), start < stop.
    # best receives the minimum's key.
    cdef key_t lanes[LANE_BYTES]
    cdef Py_ssize_t width = LANE_BYTES // sizeof(key_t)
    cdef Py_ssize_t block = BLOCK_BYTES // sizeof(key_t)
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t)
    cdef Py_ssize_t i = start, j, t, best_index = start
    cdef key_t v, block_min
    cdef key_t minimum = load(p + start * size, inf_bits, coding)
    cdef key_t floor = key_min(minimum)
    while i + block <= stop:
        if minimum == floor:
            # Nothing is below the floor: the first index is final, the last
            # one is the floor's last occurrence in the rest of the row.
            if last:
                j = stop - 1
                while j >= i and load(p + j * size, inf_bits, coding) != floor:
                    j -= 1
                if j >= i:
                    best_index = j
            best[0] = minimum
            return best_index
        for j in range(width):
            lanes[j] = load(p + (i + j) * size, inf_bits, coding)
        for t in range(1, block // width):
            for j in range(width):
                v = load(p + (i + t * width + j) * size, inf_bits, coding)
                lanes[j] = v if v < lanes[j] else lanes[j]
        block_min = lanes[0]
        for j in range(1, width):
            block_min = lanes[j] if lanes[j] < block_min else block_min
        if better(block_min, minimum, last):
            minimum = block_min
            best_index = find(p, i, i + block, block_min, last, inf_bits, coding)
        i += block
    best[0] = minimum
    return scan(p, size, i, stop, best, best_index, last, inf_bits, coding)


cdef void column_argmin(
    const char* p, Py_ssize_t reduced_stride, Py_ssize_t start, Py_ssize_t stop,
    Py_ssize_t width, Py_ssize_t stride, key_t* best, int64_t* index, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # For each of `width` elements of a column tile (spaced by stride), the
    # minimum over reduced positions [start, stop) and its position.
    cdef Py_ssize_t j, k
    cdef const char* row = p + start * reduced_stride
    cdef key_t v
    cdef bint take
    for j in range(width):
        best[j] = load(row + j * stride, inf_bits, coding)
        index[j] = start
    for k in range(start + 1, stop):
        row = p + k * reduced_stride
        if last:
            for j in range(width):
                v = load(row + j * stride, inf_bits, coding)
                take = v <= best[j]
                best[j] = v if take else best[j]
                index[j] = k if take else index[j]
        else:
            for j in range(width):
                v = load(row + j * stride, inf_bits, coding)
                take = v < best[j]
                best[j] = v if take else best[j]
                index[j] = k if take else index[j]


cdef inline void column_tile(
    const char* p, Py_ssize_t reduced_stride, Py_ssize_t start, Py_ssize_t stop,
    Py_ssize_t width, Py_ssize_t stride, key_t* best, int64_t* index, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # column_argmin, with the contiguous tile compiled apart so that it vectorizes.
    if stride == <Py_ssize_t>sizeof(key_t):
        column_argmin(p, reduced_stride, start, stop, width, sizeof(key_t),
                      best, index, last, inf_bits, coding)
    else:
        column_argmin(p, reduced_stride, start, stop, width, stride,
                      best, index, last, inf_bits, coding)



cdef inline void locate(
    const Layout* layout, Py_ssize_t outer, const char** data, int64_t** out,
) noexcept nogil:
    # Input and output addresses of the outer position `outer` (row-major).
    cdef int d
    cdef Py_ssize_t i
    cdef const char* p = layout.data
    cdef int64_t* o = layout.out
    for d in range(layout.outer_ndim - 1, -1, -1):
        i = outer % layout.outer_len[d]
        outer = outer // layout.outer_len[d]
        p += i * layout.outer_stride[d]
        o += i * layout.outer_out_stride[d]
    data[0] = p
    out[0] = o


cdef inline int64_t logical(const Layout* layout, int64_t i) noexcept nogil:
    # Memory position along the reduced axis -> ONNX index.
    return layout.reduced_len - 1 - i if layout.flip else i


cdef void reduce_item(
    const Layout* layout, Py_ssize_t w, Py_ssize_t tiles, Py_ssize_t splits,
    Py_ssize_t chunk, key_t* partial_best, int64_t* partial_index,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Work item w: one column tile (or row) of one outer position, over one
    # chunk of the reduced axis.  Writes the output, or the partial result
    # when the reduced axis is split.
    cdef key_t best[TILE]
    cdef int64_t index[TILE]
    cdef Py_ssize_t item = w // splits
    cdef Py_ssize_t start = (w % splits) * chunk
    cdef Py_ssize_t stop = min(start + chunk, layout.reduced_len)
    cdef Py_ssize_t tile = item % tiles
    cdef Py_ssize_t width = min(<Py_ssize_t>TILE, layout.column_len - tile * TILE)
    cdef Py_ssize_t j
    cdef const char* p
    cdef int64_t* o
    locate(layout, item // tiles, &p, &o)
    p += tile * TILE * layout.column_stride
    o += tile * TILE * layout.column_out_stride
    if layout.column_len > 1:
        column_tile(p, layout.reduced_stride, start, stop, width,
                    layout.column_stride, best, index, layout.last,
                    inf_bits, coding)
    elif layout.reduced_stride == <Py_ssize_t>sizeof(key_t):
        index[0] = row_argmin(p, start, stop, best, layout.last, inf_bits, coding)
    else:
        best[0] = load(p + start * layout.reduced_stride, inf_bits, coding)
        index[0] = scan(p, layout.reduced_stride, start + 1, stop, best, start,
                        layout.last, inf_bits, coding)
    if splits == 1:
        for j in range(width):
            o[j * layout.column_out_stride] = logical(layout, index[j])
    else:
        memcpy(partial_best + w * TILE, best, width * sizeof(key_t))
        memcpy(partial_index + w * TILE, index, width * sizeof(int64_t))


cdef void merge_item(
    const Layout* layout, Py_ssize_t item, Py_ssize_t tiles, Py_ssize_t splits,
    const key_t* partial_best, const int64_t* partial_index,
) noexcept nogil:
    # Merge the splits of one item in axis order, and write the output.
    cdef Py_ssize_t tile = item % tiles
    cdef Py_ssize_t width = min(<Py_ssize_t>TILE, layout.column_len - tile * TILE)
    cdef Py_ssize_t j, w, first = item * splits
    cdef const char* p
    cdef int64_t* o
    cdef key_t k
    cdef int64_t i
    locate(layout, item // tiles, &p, &o)
    o += tile * TILE * layout.column_out_stride
    for j in range(width):
        k = partial_best[first * TILE + j]
        i = partial_index[first * TILE + j]
        for w in range(first + 1, first + splits):
            if better(partial_best[w * TILE + j], k, layout.last):
                k = partial_best[w * TILE + j]
                i = partial_index[w * TILE + j]
        o[j * layout.column_out_stride] = logical(layout, i)


cdef int reduce_layout(
    const Layout* layout, int num_threads, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Fill layout.out; -1 when the scratch memory could not be had.
    cdef Py_ssize_t n = layout.reduced_len
    cdef Py_ssize_t tiles = (layout.column_len + TILE - 1) // TILE
    cdef Py_ssize_t items = tiles, splits = 1, chunk, work, w
    cdef key_t* partial_best = NULL
    cdef int64_t* partial_index = NULL
    cdef int d
    for d in range(layout.outer_ndim):
        items *= layout.outer_len[d]
    if items == 0:
        return 0
    if num_threads > 1 and items < num_threads and n >= 2 * MIN_SPLIT:
        splits = min((num_threads + items - 1) // items, n // MIN_SPLIT)
    chunk = (n + splits - 1) // splits
    splits = (n + chunk - 1) // chunk
    work = items * splits
    if splits > 1:
        partial_best = <key_t*>malloc(work * TILE * sizeof(key_t))
        partial_index = <int64_t*>malloc(work * TILE * sizeof(int64_t))
        if partial_best == NULL or partial_index == NULL:
            free(partial_best)
            free(partial_index)
            return -1
    num_threads = <int>min(<Py_ssize_t>num_threads, work)
    for w in prange(work, schedule='static', num_threads=num_threads,
                    use_threads_if=num_threads > 1):
        reduce_item(layout, w, tiles, splits, chunk, partial_best, partial_index,
                    inf_bits, coding)
    if splits > 1:
        for w in range(items):
            merge_item(layout, w, tiles, splits, partial_best, partial_index)
        free(partial_best)
        free(partial_index)
    return 0


cdef int run(const Layout* layout, cnp.dtype dtype, int num_threads) except -1:
    # reduce_layout with the key type and coding of dtype, without the GIL.
    cdef int status
    cdef char kind = dtype.kind
    cdef Py_ssize_t size = dtype.itemsize
    if dtype.type_num == bfloat16_num:
        with nogil:
            status = reduce_layout[int16_t, float_coding](layout, num_threads, 0x7f80, NULL)
    elif kind == b'f' and size == 2:
        with nogil:
            status = reduce_layout[int16_t, float_coding](layout, num_threads, 0x7c00, NULL)
    elif kind == b'f' and size == 4:
        with nogil:
            status = reduce_layout[int32_t, float_coding](
                layout, num_threads, 0x7f800000, NULL)
    elif kind == b'f' and size == 8:
        with nogil:
            status = reduce_layout[int64_t, float_coding](
                layout, num_threads, 0x7ff0000000000000, NULL)
    elif kind == b'i' and size == 1:
        with nogil:
            status = reduce_layout[int8_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'i' and size == 2:
        with nogil:
            status = reduce_layout[int16_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'i' and size == 4:
        with nogil:
            status = reduce_layout[int32_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'i' and size == 8:
        with nogil:
            status = reduce_layout[int64_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'u' and size == 1:
        with nogil:
            status = reduce_layout[uint8_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'u' and size == 2:
        with nogil:
            status = reduce_layout[uint16_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'u' and size == 4:
        with nogil:
            status = reduce_layout[uint32_t, integer_coding](layout, num_threads, 0, NULL)
    elif kind == b'u' and size == 8:
        with nogil:
            status = reduce_layout[uint64_t, integer_coding](layout, num_threads, 0, NULL)
    else:
        raise TypeError(f"no ArgMin kernel for element type {dtype}")
    if status < 0:
        raise MemoryError("ArgMin could not allocate its scratch memory")
    return 0


# The type number numpy gave ``ml_dtypes.bfloat16`` (a user type, so not fixed).
cdef int bfloat16_num = -1


def set_bfloat16(cnp.dtype dtype):
    """Register ``ml_dtypes.bfloat16``'s dtype, read as bfloat16 by the kernels."""
    global bfloat16_num
    bfloat16_num = dtype.type_num


def max_threads():
    """Threads an OpenMP parallel region would use now (1 without OpenMP).

    Follows OMP_NUM_THREADS and the limits threadpoolctl sets.
    """
    return argmin_max_threads()


def reduce_axis(cnp.ndarray data not None, int axis, bint keepdims, bint last, int num_threads):
    """ArgMin of ``data`` along ``axis`` as a new C-contiguous int64 array.

    The caller has checked the arguments: ``data`` has native byte order, a
    supported element type and at least one dimension, ``0 <= axis < ndim``,
    and ``data.shape[axis] > 0``.  ``num_threads`` is an upper bound; small
    inputs use one thread.
    """
    cdef Layout layout
    cdef int ndim = cnp.PyArray_NDIM(data)
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(data)
    cdef cnp.npy_intp* strides = cnp.PyArray_STRIDES(data)
    cdef cnp.npy_intp out_shape[MAX_DIMS]
    cdef cnp.npy_intp out_strides[MAX_DIMS]   # in elements, per input axis
    cdef cnp.npy_intp size = cnp.PyArray_ITEMSIZE(data)
    cdef Py_ssize_t n = shape[axis], length, stride, out_stride, column_stride
    cdef int d, out_ndim = 0, m = 0, column = -1
    cdef cnp.ndarray out

    for d in range(ndim):
        if d != axis:
            out_shape[out_ndim] = shape[d]
            out_ndim += 1
        elif keepdims:
            out_shape[out_ndim] = 1
            out_ndim += 1
    out = cnp.PyArray_EMPTY(out_ndim, out_shape, cnp.NPY_INT64, 0)
    if cnp.PyArray_SIZE(out) == 0:
        return out
    stride = 1
    for d in range(ndim - 1, -1, -1):
        if d != axis:
            out_strides[d] = stride
            stride *= shape[d]

    layout.data = <const char*>cnp.PyArray_DATA(data)
    layout.out = <int64_t*>cnp.PyArray_DATA(out)
    layout.reduced_len = n
    layout.reduced_stride = strides[axis] if n > 1 else size
    layout.flip = layout.reduced_stride < 0
    if layout.flip:
        layout.data += (n - 1) * layout.reduced_stride
        layout.reduced_stride = -layout.reduced_stride
    layout.last = last != layout.flip

    # The other axes, longer than 1, read forwards, merged where they are
    # contiguous with each other in the input and the output.
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
        if (m > 0 and layout.outer_stride[m - 1] == length * stride
                and layout.outer_out_stride[m - 1] == length * out_stride):
            layout.outer_len[m - 1] *= length
            layout.outer_stride[m - 1] = stride
            layout.outer_out_stride[m - 1] = out_stride
            continue
        layout.outer_len[m] = length
        layout.outer_stride[m] = stride
        layout.outer_out_stride[m] = out_stride
        m += 1

    # Rows when the reduced axis is contiguous (or no less spread out than any
    # other axis), columns along the least spread-out other axis otherwise.
    for d in range(m):
        if column < 0 or layout.outer_stride[d] < layout.outer_stride[column]:
            column = d
    if (column < 0 or layout.reduced_stride == size
            or (layout.outer_stride[column] != size
                and layout.reduced_stride <= layout.outer_stride[column])):
        layout.column_len = 1
        layout.column_stride = 0
        layout.column_out_stride = 0
    else:
        layout.column_len = layout.outer_len[column]
        layout.column_stride = layout.outer_stride[column]
        layout.column_out_stride = layout.outer_out_stride[column]
        for d in range(column, m - 1):
            layout.outer_len[d] = layout.outer_len[d + 1]
            layout.outer_stride[d] = layout.outer_stride[d + 1]
            layout.outer_out_stride[d] = layout.outer_out_stride[d + 1]
        m -= 1
    layout.outer_ndim = m

    if n * cnp.PyArray_SIZE(out) * size < PARALLEL_BYTES:
        num_threads = 1
    run(&layout, <cnp.dtype>data.dtype, num_threads)
    return out
