# Keys: every element is read as a signed integer of its own width whose
# integer order is the reduction's order, so the loops only compare integers.
#
# For ArgMin (the *_min codings):
# - signed integers are their own key;
# - unsigned integers have their top bit flipped, which maps 0 to the
#   smallest key: every type is compared as signed integers of its width;
# - floating-point values (float16, bfloat16, float32, float64) turn from
#   sign-magnitude into two's complement, so that -0.0 and +0.0 share the
#   key 0, and every NaN gets the smallest key of the width.
# For ArgMax (the *_max codings) each number's key is the ArgMin key with all
# its bits flipped (~k reverses the order, without overflow), and every NaN
# again gets the smallest key.  So in both directions the smallest key is the
# best, NaN wins, and the tie rule picks among equal keys: `<` keeps the first
# index of the best key, `<=` the last one.  (Keys loaded unflipped, see
# load, are floats' ArgMax keys with their bits flipped back: there the
# largest wins.)
# The NaN-skipping codings (float_nanmin, float_nanmax: nanargmin and
# nanargmax) key the numbers as float_min and float_max do, and every NaN
# with the largest key of the width instead (nan_key), which no number has
# (a float's magnitude is at most its infinity's bits): every number beats
# a NaN, and a slice's best key is NaN's only where all its elements are
# NaN.
#
# The codings are invertible but for NaN (every payload has NaN's key) and
# zero (-0.0 and +0.0 share a key): element_bits turns any other key back
# into its element's bits, and exact_key tells which keys those are.

cdef extern from "platform.h":
    # The tags of the codings and of the tie rules.  Functions that take a
    # pointer to one are compiled once per tag; the pointer is always NULL.
    ctypedef struct signed_min "argmin_signed_min"
    ctypedef struct unsigned_min "argmin_unsigned_min"
    ctypedef struct float_min "argmin_float_min"
    ctypedef struct signed_max "argmin_signed_max"
    ctypedef struct unsigned_max "argmin_unsigned_max"
    ctypedef struct float_max "argmin_float_max"
    ctypedef struct float_nanmin "argmin_float_nanmin"
    ctypedef struct float_nanmax "argmin_float_nanmax"
    ctypedef struct first_tie "argmin_first_tie"
    ctypedef struct last_tie "argmin_last_tie"


ctypedef fused key_t:
    int8_t
    int16_t
    int32_t
    int64_t

# A key paired with its position in a short row, in twice the key's width
# (see paired_rows.pxi).
ctypedef fused wide_t:
    int16_t
    int32_t

# How the stored bits become a key, and in which direction the reduction goes.
ctypedef fused coding_t:
    signed_min
    unsigned_min
    float_min
    signed_max
    unsigned_max
    float_max
    float_nanmin
    float_nanmax

# Which index of the best key wins: the first or the last in memory order.
ctypedef fused tie_t:
    first_tie
    last_tie


cdef inline key_t key_min(key_t k) noexcept nogil:
    # The smallest key of the width: NaN's key for float_min and float_max.
    if key_t is int8_t:
        return INT8_MIN
    elif key_t is int16_t:
        return INT16_MIN
    elif key_t is int32_t:
        return INT32_MIN
    else:
        return INT64_MIN


cdef inline bint floating(coding_t* coding) noexcept nogil:
    return (coding_t is float_min or coding_t is float_max or coding_t is float_nanmin
            or coding_t is float_nanmax)


cdef inline bint maximizing(coding_t* coding) noexcept nogil:
    # Whether the coding is ArgMax's (the best key is the largest element's).
    return (coding_t is signed_max or coding_t is unsigned_max or coding_t is float_max
            or coding_t is float_nanmax)


cdef inline key_t nan_key(key_t k, coding_t* coding) noexcept nogil:
    # Every NaN's key: the smallest of the width, so NaN wins, but for the
    # NaN-skipping codings, where it is the largest, so every number wins.
    return ~key_min(k) if coding_t is float_nanmin or coding_t is float_nanmax else key_min(k)


cdef inline key_t direction(key_t k, coding_t* coding) noexcept nogil:
    # What a number's ArgMin key is xor-ed with: all ones for ArgMax.
    return -1 if maximizing(coding) else 0


cdef inline key_t key_flip(key_t k, coding_t* coding) noexcept nogil:
    # What the stored bits of an integer are xor-ed with to make its key; for
    # a float, what its ArgMin key is xor-ed with (NaNs aside).
    if coding_t is unsigned_min or coding_t is unsigned_max:
        return key_min(k) ^ direction(k, coding)
    else:
        return direction(k, coding)


# All bits set, held in memory rather than known to the compiler.  An
# ArgMax key of an integer is a NOT (key_flip: of the integer, or of it with
# its sign bit flipped), which GCC vectorizes, where it knows the operand is
# all ones, as a vpternlog that also reads the register it writes: each
# vector's NOT then waits for the one before.  An xor with a register holding
# key_flip & all_ones has no such chain.  Only ArgMax's codings read it, and
# not where keys are loaded unflipped (column tiles): a loop that stores
# int64 could change it, for all the compiler knows, which then guards the
# loop with a check that its stores miss all_ones; ArgMin's flips are
# constants, which cost nothing.
cdef int64_t all_ones = -1


cdef inline key_t load(
    const char* p, key_t inf_bits, coding_t* coding, bint select_free=False, bint nan_past=False,
    bint unflipped=False,
) noexcept nogil:
    # The key of the element at p; p need not be aligned.  select_free: the
    # same key by arithmetic alone, for a minimum reduction (GCC vectorizes
    # one only over operands without a select) and for the folds of column
    # tiles (where GCC would merge the selects into the or-equal compare of
    # the last index); elsewhere the selects cost less.  nan_past: a float's
    # key as if it were no NaN, by arithmetic alone: a NaN's key then lies
    # beyond the infinities' keys (see has_nan_keys), for reductions that look
    # for such keys afterwards rather than test each element.  unflipped: where
    # flips_back, the key xor direction, NaN's too, for loops that then take
    # the largest key (see unflipped_better) and flip no element's bits.
    cdef key_t bits, magnitude, sign, nan
    cdef bint back = unflipped and flips_back(coding)
    cdef key_t flip = 0 if back else direction(inf_bits, coding)
    cdef key_t nan_bits = nan_key(inf_bits, coding) ^ (direction(inf_bits, coding) if back else 0)
    memcpy(&bits, p, sizeof(key_t))
    if maximizing(coding) and not floating(coding):
        return bits ^ (key_flip(bits, coding) & <key_t>all_ones)
    if not floating(coding):
        return bits ^ key_flip(bits, coding)
    magnitude = bits & ~key_min(bits)
    if select_free or nan_past:
        # All ones for a negative value (whose magnitude is negated), and for a NaN.
        sign = bits >> (8 * sizeof(key_t) - 1)
        if nan_past:
            return ((magnitude ^ sign) - sign) ^ flip
        nan = -<key_t>(magnitude > inf_bits)
        return ((((magnitude ^ sign) - sign) ^ flip) & ~nan) | (nan_bits & nan)
    if magnitude > inf_bits:
        return nan_bits
    return (-magnitude if bits < 0 else magnitude) ^ flip


cdef inline bint has_nan_keys(
    key_t smallest, key_t largest, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Whether keys loaded with nan_past, of which `smallest` and `largest`
    # are the extremes, include a NaN's: a key beyond those of the infinities.
    cdef key_t a = inf_bits ^ direction(inf_bits, coding)
    cdef key_t b = -inf_bits ^ direction(inf_bits, coding)
    return largest > max(a, b) or smallest < min(a, b)


cdef inline bint better(key_t candidate, key_t best, tie_t* tie) noexcept nogil:
    # Whether candidate, met after best in memory order, takes its place.
    if tie_t is last_tie:
        return candidate <= best
    else:
        return candidate < best


cdef inline bint flips_back(coding_t* coding) noexcept nogil:
    # Whether load's unflipped keys are its keys xor direction: ArgMax's
    # floats, whose keys take several instructions, of which the flip would
    # be one more a vector.  An integer's key is its bits xor a flip, one
    # instruction, which also has the compiler read each vector once rather
    # than as the operand of both the comparison and the select: its keys
    # keep their flip.
    return maximizing(coding) and floating(coding)


cdef inline bint unflipped_better(
    key_t candidate, key_t best, coding_t* coding, tie_t* tie,
) noexcept nogil:
    # better for keys loaded unflipped: the largest is best where flips_back.
    return better(best, candidate, tie) if flips_back(coding) else better(candidate, best, tie)


cdef inline bint exact_key(key_t k, coding_t* coding) noexcept nogil:
    # Whether k is the key of one element's bits only: every integer key; a
    # float's unless it is NaN's or zero's.
    if not floating(coding):
        return True
    # (`&`, not `and`: no branch, so that loops over keys vectorize.)
    return (k != nan_key(k, coding)) & (k != direction(k, coding))


cdef inline key_t element_bits(key_t k, coding_t* coding) noexcept nogil:
    # The bits of the element whose key is k, where exact_key(k); anything
    # otherwise.  A float's ArgMin key is its magnitude, negated for a
    # negative value: key_min - a is the sign bit and -a, and cannot
    # overflow for any negative a.
    cdef key_t a = k ^ key_flip(k, coding)
    if not floating(coding):
        return a
    return (key_min(a) - a) if a < 0 else a
