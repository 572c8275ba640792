# Extremes: the best key of a contiguous run of 16-, 32- or 64-bit elements,
# from a vector minimum (or maximum) of the elements themselves (extreme.h):
# of their numbers for float32 and float64, where no NaN is among them, of
# their bits as signed or unsigned integers for the integer types.  That is
# one instruction a vector, where turning each element into its key takes
# one or more.  float16 and bfloat16, which no vector unit here compares,
# are folded into signed integers in the vector loop.

cdef extern from "extreme.h":
    ctypedef struct Run "argmin_run":
        pass
    int extreme_f32 "argmin_extreme_f32"(
        const char* p, int64_t n, int largest, int last, int skip_nan, float* out,
        Run* run) nogil
    int extreme_f64 "argmin_extreme_f64"(
        const char* p, int64_t n, int largest, int last, int skip_nan, double* out,
        Run* run) nogil
    int extreme_h16 "argmin_extreme_h16"(
        const char* p, int64_t n, int largest, int last, int16_t inf, int16_t* out,
        Run* run) nogil
    int extreme_i16 "argmin_extreme_i16"(
        const char* p, int64_t n, int largest, int last, int is_unsigned, int16_t* out,
        Run* run) nogil
    int extreme_i32 "argmin_extreme_i32"(
        const char* p, int64_t n, int largest, int last, int is_unsigned, int32_t* out,
        Run* run) nogil
    int extreme_i64 "argmin_extreme_i64"(
        const char* p, int64_t n, int largest, int last, int is_unsigned, int64_t* out,
        Run* run) nogil
    int64_t index_f32 "argmin_index_f32"(const Run* run, const char* p, int last) nogil
    int64_t index_f64 "argmin_index_f64"(const Run* run, const char* p, int last) nogil
    int64_t index_h16 "argmin_index_h16"(const Run* run, const char* p, int last) nogil
    int64_t index_i16 "argmin_index_i16"(const Run* run, const char* p, int last) nogil
    int64_t index_i32 "argmin_index_i32"(const Run* run, const char* p, int last) nogil
    int64_t index_i64 "argmin_index_i64"(const Run* run, const char* p, int last) nogil
    Py_ssize_t EXTREME_LANES "ARGMIN_EXTREME_LANES"(Py_ssize_t size) nogil
    enum: RUN_BYTES "ARGMIN_RUN_BYTES"
    # Bytes of the floats' and of the integers' vectors; 0 where no vector
    # loop takes them.
    enum: EXTREME_BYTES "ARGMIN_EXTREME_BYTES"
    enum: INT_EXTREME_BYTES "ARGMIN_IEXTREME_BYTES"


cdef inline bint extreme_takes(const key_t* key, Py_ssize_t n, coding_t* coding) noexcept nogil:
    # Whether extreme_key takes runs of n of these keys (but for runs it
    # refuses for their elements: see extreme_key); runs it never takes are
    # always reduced by their keys.  It takes runs from EXTREME_LANES to
    # RUN_BYTES long of all but 8-bit elements: of float32 and float64 on
    # every target with vectors, and of integers, float16 and bfloat16
    # (folded into integers) where this target has a vector loop for
    # integers.
    cdef bint vector_loop = (INT_EXTREME_BYTES != 0 if key_t is int16_t or not floating(coding)
                             else EXTREME_BYTES != 0)
    return (key_t is not int8_t and vector_loop and n >= EXTREME_LANES(sizeof(key_t))
            and n * <Py_ssize_t>sizeof(key_t) <= RUN_BYTES)


cdef inline bint half_float(key_t k, coding_t* coding) noexcept nogil:
    # Whether the elements are float16 or bfloat16, whose runs extreme_key
    # refuses for their elements (a NaN, a zero that the other zero may tie)
    # often enough, a NaN coming with others, that its callers stop asking,
    # each refusal costing a vector pass: a long row's blocks after a refused
    # block, searched short rows after a row that held a NaN.
    return key_t is int16_t and floating(coding)


cdef inline bint extreme_key(
    const char* p, Py_ssize_t n, key_t* best, Run* run, key_t inf_bits, coding_t* coding,
    tie_t* tie,
) noexcept nogil:
    # The best key of the n contiguous elements at p into best[0], and into
    # run what extreme_index reads, for a run that extreme_takes takes (its
    # callers check, once for runs of one length); False, and both unset,
    # where a NaN is among the elements (but for float32 and float64 with the
    # NaN-skipping codings: where no number but an infinity is), where the
    # best float16 or bfloat16 is a zero of the sign that its other zero may
    # equal (see extreme.h), and where the best float32 or float64 is a zero
    # or a subnormal and the CPU reads subnormals as zero (see extreme.h).
    cdef float single = 0
    cdef double double_ = 0
    cdef key_t bits = 0
    cdef bint found = False
    cdef int largest = maximizing(coding)
    cdef int last = tie_t is last_tie
    cdef int is_unsigned = coding_t is unsigned_min or coding_t is unsigned_max
    cdef int skip_nan = coding_t is float_nanmin or coding_t is float_nanmax
    if floating(coding) and key_t is int32_t:
        found = extreme_f32(p, n, largest, last, skip_nan, &single, run)
        memcpy(&bits, &single, sizeof(key_t))
    elif floating(coding) and key_t is int64_t:
        found = extreme_f64(p, n, largest, last, skip_nan, &double_, run)
        memcpy(&bits, &double_, sizeof(key_t))
    elif key_t is int16_t and floating(coding):
        found = extreme_h16(p, n, largest, last, inf_bits, &bits, run)
    elif key_t is int16_t:
        found = extreme_i16(p, n, largest, last, is_unsigned, &bits, run)
    elif key_t is int32_t:
        found = extreme_i32(p, n, largest, last, is_unsigned, &bits, run)
    elif key_t is int64_t:
        found = extreme_i64(p, n, largest, last, is_unsigned, &bits, run)
    if found:
        best[0] = load(<const char*>&bits, inf_bits, coding)
    return found


cdef inline Py_ssize_t extreme_index(
    const char* p, key_t best, const Run* run, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # The first (or last) index of best, the key that extreme_key gave for
    # the contiguous elements at p, with the same tie, from what it left in
    # run (extreme.h); best only selects the function of its key type.
    # Called only where extreme_key returned True, so never for the type
    # extreme_takes refuses (8-bit elements): its keys reach a branch here
    # only to compile.
    cdef int last = tie_t is last_tie
    if floating(coding) and key_t is int32_t:
        return index_f32(run, p, last)
    elif floating(coding) and key_t is int64_t:
        return index_f64(run, p, last)
    elif floating(coding) and key_t is int16_t:
        return index_h16(run, p, last)
    elif key_t is int16_t:
        return index_i16(run, p, last)
    elif key_t is int32_t:
        return index_i32(run, p, last)
    else:
        return index_i64(run, p, last)
