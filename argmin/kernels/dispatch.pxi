# The dispatch table: one specialisation of reduce_layout for each element
# type, direction and tie rule.  Every entry is called through one pointer
# type, whose three void* stand for the specialisation's tag pointers (all
# NULL, never read).  C leaves a call through a pointer of another type
# undefined; every ABI the build targets passes all object pointers alike,
# which is what CPython's own method tables rely on too.

ctypedef int (*reduce_fn)(
    const Layout* layout, const Tuning* tuning, int num_threads, double* excess,
    void* key, void* coding, void* tie) noexcept nogil

cdef enum:
    # The rows of the table: int8 to int64, uint8 to uint64, float16,
    # float32, float64, bfloat16.
    UNSIGNED_ROWS = 4
    INTEGER_ROWS = 8
    FLOAT_ROWS = 7        # + log2(itemsize): float16 at 8
    BFLOAT16_ROW = 11
    ELEMENT_ROWS = 12

cdef enum:
    # What a call looks for, the table's second index: ArgMax adds MAXIMUM to
    # ArgMin, and nanargmin and nanargmax add SKIP_NAN.
    MAXIMUM = 1
    SKIP_NAN = 2
    GOALS = 4

# REDUCE[row][goal][last]
cdef reduce_fn REDUCE[ELEMENT_ROWS][GOALS][2]
# A float's infinity, in the bits of its row's type; 0 for integers.
cdef int64_t INF_BITS[ELEMENT_ROWS]
INF_BITS[:] = [0, 0, 0, 0, 0, 0, 0, 0, 0x7c00, 0x7f800000, 0x7ff0000000000000, 0x7f80]


cdef void fill(reduce_fn* ties, key_t* key, coding_t* coding) noexcept:
    ties[0] = <reduce_fn>reduce_layout[key_t, coding_t, first_tie]
    ties[1] = <reduce_fn>reduce_layout[key_t, coding_t, last_tie]


fill(REDUCE[0][0], <int8_t*>NULL, <signed_min*>NULL)
fill(REDUCE[0][1], <int8_t*>NULL, <signed_max*>NULL)
fill(REDUCE[1][0], <int16_t*>NULL, <signed_min*>NULL)
fill(REDUCE[1][1], <int16_t*>NULL, <signed_max*>NULL)
fill(REDUCE[2][0], <int32_t*>NULL, <signed_min*>NULL)
fill(REDUCE[2][1], <int32_t*>NULL, <signed_max*>NULL)
fill(REDUCE[3][0], <int64_t*>NULL, <signed_min*>NULL)
fill(REDUCE[3][1], <int64_t*>NULL, <signed_max*>NULL)
fill(REDUCE[4][0], <int8_t*>NULL, <unsigned_min*>NULL)
fill(REDUCE[4][1], <int8_t*>NULL, <unsigned_max*>NULL)
fill(REDUCE[5][0], <int16_t*>NULL, <unsigned_min*>NULL)
fill(REDUCE[5][1], <int16_t*>NULL, <unsigned_max*>NULL)
fill(REDUCE[6][0], <int32_t*>NULL, <unsigned_min*>NULL)
fill(REDUCE[6][1], <int32_t*>NULL, <unsigned_max*>NULL)
fill(REDUCE[7][0], <int64_t*>NULL, <unsigned_min*>NULL)
fill(REDUCE[7][1], <int64_t*>NULL, <unsigned_max*>NULL)
fill(REDUCE[8][0], <int16_t*>NULL, <float_min*>NULL)
fill(REDUCE[8][1], <int16_t*>NULL, <float_max*>NULL)
fill(REDUCE[9][0], <int32_t*>NULL, <float_min*>NULL)
fill(REDUCE[9][1], <int32_t*>NULL, <float_max*>NULL)
fill(REDUCE[10][0], <int64_t*>NULL, <float_min*>NULL)
fill(REDUCE[10][1], <int64_t*>NULL, <float_max*>NULL)
fill(REDUCE[11][0], <int16_t*>NULL, <float_min*>NULL)
fill(REDUCE[11][1], <int16_t*>NULL, <float_max*>NULL)
fill(REDUCE[8][2], <int16_t*>NULL, <float_nanmin*>NULL)
fill(REDUCE[8][3], <int16_t*>NULL, <float_nanmax*>NULL)
fill(REDUCE[9][2], <int32_t*>NULL, <float_nanmin*>NULL)
fill(REDUCE[9][3], <int32_t*>NULL, <float_nanmax*>NULL)
fill(REDUCE[10][2], <int64_t*>NULL, <float_nanmin*>NULL)
fill(REDUCE[10][3], <int64_t*>NULL, <float_nanmax*>NULL)
fill(REDUCE[11][2], <int16_t*>NULL, <float_nanmin*>NULL)
fill(REDUCE[11][3], <int16_t*>NULL, <float_nanmax*>NULL)


cdef void share_integer_goals() noexcept:
    # Integers have no NaN to skip: their NaN-skipping goals run ArgMin's and
    # ArgMax's entries.
    cdef int row, goal
    for row in range(INTEGER_ROWS):
        for goal in range(MAXIMUM + 1):
            REDUCE[row][SKIP_NAN + goal][0] = REDUCE[row][goal][0]
            REDUCE[row][SKIP_NAN + goal][1] = REDUCE[row][goal][1]


share_integer_goals()


# The type number numpy gave ``ml_dtypes.bfloat16`` (a user type, so not
# fixed): process state, set once bfloat16 is first seen.
cdef int bfloat16_num = -1


cdef int element_row(cnp.dtype dtype) except -1:
    # The table row of dtype.
    cdef Py_ssize_t size = dtype.itemsize
    cdef int rank = 0 if size == 1 else 1 if size == 2 else 2 if size == 4 else 3
    if dtype.type_num == bfloat16_num:
        return BFLOAT16_ROW
    if dtype.kind == b'i' and size <= 8:
        return rank
    if dtype.kind == b'u' and size <= 8:
        return UNSIGNED_ROWS + rank
    if dtype.kind == b'f' and 2 <= size <= 8:
        return FLOAT_ROWS + rank
    raise TypeError(f"no ArgMin or ArgMax kernel for element type {dtype}")


cdef enum:
    # A call on one thread of fewer input bytes keeps the GIL: letting it go
    # and taking it back costs two lock operations, as much as the work of a
    # small call, while other Python threads would wait no longer than that
    # work takes.
    HELD_GIL_BYTES = 1 << 14


cdef int run(
    const Layout* layout, const Tuning* tuning, int row, int goal, int num_threads,
    double* excess, bint release,
) except -1:
    # The table's entry for the element row, goal and tie; without the GIL
    # where `release` (always on more than one thread).
    cdef reduce_fn entry = REDUCE[row][goal][layout.last]
    cdef int status
    if release or num_threads != 1:
        with nogil:
            status = entry(layout, tuning, num_threads, excess, NULL, NULL, NULL)
    else:
        status = entry(layout, tuning, num_threads, excess, NULL, NULL, NULL)
    if status < 0:
        raise MemoryError(
            f"{'ArgMax' if goal & MAXIMUM else 'ArgMin'} could not allocate its scratch memory")
    return 0
