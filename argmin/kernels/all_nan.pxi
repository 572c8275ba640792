# All-NaN slices: where NaN is skipped (nanargmin, nanargmax), a slice's
# value is NaN only where the slice holds nothing but NaN (see keys.pxi), so
# its value, found with its index, tells those slices apart in one pass over
# the output.

cdef inline bint nan_bits(const char* p, Py_ssize_t size, int64_t inf_bits) noexcept nogil:
    # Whether the float of `size` bytes at p, whose infinity's bits are
    # inf_bits, is NaN: its magnitude beyond the infinity's.
    cdef int16_t half
    cdef int32_t single
    cdef int64_t double_
    if size == 2:
        memcpy(&half, p, 2)
        return (half & 0x7fff) > inf_bits
    if size == 4:
        memcpy(&single, p, 4)
        return (single & 0x7fffffff) > inf_bits
    memcpy(&double_, p, 8)
    return (double_ & INT64_MAX) > inf_bits


cdef enum:
    # Values tested for NaN at once, without a branch (a loop that vectorizes),
    # before a run that holds one is searched for it.
    NAN_RUN = 256


cdef inline bint any_nan(
    const char* p, Py_ssize_t n, Py_ssize_t size, int64_t inf_bits,
) noexcept nogil:
    # Whether one of the n floats of `size` bytes at p is NaN.
    cdef Py_ssize_t i
    cdef bint found = False
    if size == 2:
        for i in range(n):
            found |= nan_bits(p + 2 * i, 2, inf_bits)
    elif size == 4:
        for i in range(n):
            found |= nan_bits(p + 4 * i, 4, inf_bits)
    else:
        for i in range(n):
            found |= nan_bits(p + 8 * i, 8, inf_bits)
    return found


cdef Py_ssize_t first_nan(
    const char* p, Py_ssize_t n, Py_ssize_t size, int64_t inf_bits,
) noexcept nogil:
    # The index of the first NaN among the n floats of `size` bytes at p, or -1.
    cdef Py_ssize_t start = 0, i
    while start < n:
        if any_nan(p + start * size, min(<Py_ssize_t>NAN_RUN, n - start), size, inf_bits):
            for i in range(start, n):
                if nan_bits(p + i * size, size, inf_bits):
                    return i
        start += NAN_RUN
    return -1


cpdef Py_ssize_t settle_all_nan(cnp.ndarray values, cnp.ndarray indices, placeholder) except -2:
    """The position, in C order, of the first NaN among ``values`` (C-contiguous, of one of
    the kernels' element types), or -1 where none is; where ``placeholder`` is an int, it
    first replaces the element of ``indices`` (C-contiguous int64, as many) at every NaN."""
    cdef int row
    if values is None or indices is None:
        raise TypeError("settle_all_nan takes two arrays")
    row = element_row(<cnp.dtype>cnp.PyArray_DESCR(values))
    cdef Py_ssize_t size = cnp.PyArray_ITEMSIZE(values), n = cnp.PyArray_SIZE(values), i
    cdef Py_ssize_t first = -1
    cdef const char* p = <const char*>cnp.PyArray_DATA(values)
    cdef int64_t* out = <int64_t*>cnp.PyArray_DATA(indices)
    cdef int64_t inf_bits = INF_BITS[row]
    cdef bint replace = placeholder is not None
    cdef int64_t index = placeholder if replace else 0
    if not (cnp.PyArray_IS_C_CONTIGUOUS(values) and cnp.PyArray_IS_C_CONTIGUOUS(indices)
            and cnp.PyArray_TYPE(indices) == cnp.NPY_INT64 and cnp.PyArray_SIZE(indices) == n):
        raise ValueError("settle_all_nan takes C-contiguous values and int64 indices, as many")
    if row < INTEGER_ROWS:
        return -1
    first = first_nan(p, n, size, inf_bits)
    if replace and first >= 0:
        for i in range(first, n):
            if nan_bits(p + i * size, size, inf_bits):
                out[i] = index
    return first
