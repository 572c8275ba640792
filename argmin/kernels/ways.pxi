# Ways of reading a contiguous reduced axis: row by row (long_rows.pxi), a
# tile of short rows at a time (short_rows.pxi), or across the rows as
# strided columns (columns.pxi).  Pure functions of the row's length, the
# element size, the build's vectors and the Tuning.

cdef inline Py_ssize_t short_row_min(Py_ssize_t size) noexcept nogil:
    # Fewest elements of a short row of `size`-byte elements: paired rows
    # fold whole MIN_LANES lanes; in registers (VECTOR_PAIRS), two.
    if VECTOR_PAIRS and size <= 2:
        return 2
    return MIN_LANES if size <= 2 else 1


cdef inline Py_ssize_t short_row_max(Py_ssize_t size) noexcept nogil:
    # Most elements of a short row of `size`-byte elements: 8-bit rows, and
    # 16-bit rows unless vectors of pairs take one register, SHORT_ROW_MAX,
    # the most that paired rows take; other 16-bit rows hold SHORT_ROW_BYTES,
    # and rows of 32- and 64-bit elements WIDE_ROW_BYTES: extreme_key reduces
    # both.
    if size == 1 or (size == 2 and REGISTER_BYTES < VECTOR_BYTES):
        return SHORT_ROW_MAX
    return (SHORT_ROW_BYTES if size == 2 else WIDE_ROW_BYTES) // size


cdef inline Py_ssize_t default_min_row_len(Py_ssize_t size) noexcept nogil:
    # Fewest elements of a row of `size`-byte elements read as a short row
    # rather than as strided columns, when Tuning.min_row_len is -1 (except
    # rows read together: see short_row): 8 for keys paired in vectors, 16
    # otherwise.
    cdef Py_ssize_t widest = 4 if REGISTER_BYTES == VECTOR_BYTES else 2
    return 8 if VECTOR_PAIRS and 2 <= size <= widest else 16


cdef inline bint long_row(Py_ssize_t n, Py_ssize_t size, const Tuning* tuning) noexcept nogil:
    # Whether a contiguous row of n `size`-byte elements is read on its own
    # (row_argmin).
    return n > (tuning.short_row_len if tuning.short_row_len >= 0 else short_row_max(size))


cdef inline bint short_row(
    Py_ssize_t n, Py_ssize_t size, bint consecutive, const Tuning* tuning,
) noexcept nogil:
    # Whether contiguous rows of n `size`-byte elements that are not long
    # rows are read as short rows (short_rows_argmin), rather than across the
    # rows as strided columns; consecutive: they follow each other and are
    # written one after another.  Such rows of a size read several to a vector
    # (read_together) are short rows by default however short.
    cdef Py_ssize_t fewest = (tuning.min_row_len if tuning.min_row_len >= 0
                              else 2 if consecutive and read_together(n, size)
                              else default_min_row_len(size))
    return n >= fewest and short_row_min(size) <= n <= short_row_max(size)
