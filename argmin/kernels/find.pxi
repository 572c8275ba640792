# Find: the first (or last) index of a key in a contiguous run of elements
# known to hold it, the search that follows a reduction of keys.

cdef extern from "find.h":
    int64_t find8 "argmin_find8"(const char* p, int64_t n, int8_t bits, int last) nogil
    int64_t find16 "argmin_find16"(const char* p, int64_t n, int16_t bits, int last) nogil
    int64_t find32 "argmin_find32"(const char* p, int64_t n, int32_t bits, int last) nogil
    int64_t find64 "argmin_find64"(const char* p, int64_t n, int64_t bits, int last) nogil


cdef inline Py_ssize_t find_bits(const char* p, Py_ssize_t n, key_t bits, tie_t* tie) noexcept nogil:
    # First (or last) index of the bit pattern `bits` among the n contiguous
    # elements at p, or -1 (find.h).
    cdef int last = tie_t is last_tie
    if key_t is int8_t:
        return find8(p, n, bits, last)
    elif key_t is int16_t:
        return find16(p, n, bits, last)
    elif key_t is int32_t:
        return find32(p, n, bits, last)
    else:
        return find64(p, n, bits, last)


cdef inline int32_t find_key(
    const char* p, int32_t n, key_t target, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # First (or last) index of target among the keys of n contiguous
    # elements at p: the minimum (or maximum) of the matching positions, one
    # vectorized pass over them all.  Where none is target: n for the first
    # index, -1 for the last (callers search runs that hold it).
    cdef int32_t i, candidate, found = -1 if tie_t is last_tie else n
    cdef key_t k
    for i in range(n):
        k = load(p + i * sizeof(key_t), inf_bits, coding, True)
        if tie_t is last_tie:
            candidate = i if k == target else -1
            found = candidate if candidate > found else found
        else:
            candidate = i if k == target else n
            found = candidate if candidate < found else found
    return found


cdef enum:
    # Fewest bytes of a run searched up to the match (find_bits): in shorter
    # ones the branch that ends the search, mispredicted about once a run,
    # costs more than comparing every element.
    EARLY_EXIT_BYTES = 1024


cdef inline Py_ssize_t find_index(
    const char* p, Py_ssize_t n, key_t target, key_t inf_bits, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # First (or last) index of target among the keys of the n contiguous
    # elements at p (n < 2**31), which hold it.  A key of one bit pattern
    # only (exact_key) in a run of EARLY_EXIT_BYTES or more is searched as
    # those bits, up to its first (last) match; other keys, and shorter
    # runs, by the keys of all the elements.
    if exact_key(target, coding) and n * <Py_ssize_t>sizeof(key_t) >= EARLY_EXIT_BYTES:
        return find_bits(p, n, element_bits(target, coding), tie)
    return find_key(p, <int32_t>n, target, inf_bits, coding, tie)
