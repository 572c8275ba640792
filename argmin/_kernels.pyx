"""ArgMin kernels: reduce a strided N-d array along one axis, in place.

Every element type is read through a signed integer *key* of its own width
whose integer order is the ONNX order of the values:

- signed integers are their own key; unsigned integers have their top bit
  flipped, which maps 0 to the smallest key: every type is compared as
  signed integers of its width (GCC's code for unsigned keys measured up to
  half as fast on short rows);
- floating-point values (float16, bfloat16, float32, float64) turn from
  sign-magnitude into two's complement, so that -0.0 and +0.0 share the key 0,
  and every NaN gets the smallest key of the width, which makes NaN the
  minimum and lets ties decide between NaNs.

The kernels then only compare integers: ``<`` keeps the first index of the
minimum, ``<=`` the last one.  Three loop shapes cover every layout:

- *rows*: the reduced axis is contiguous; each output element scans its row in
  blocks, each a vectorized lane-wise minimum, and only a block that improves
  the running minimum is searched again (from cache) for the index;
- *short rows*: the reduced axis is contiguous and short; a tile of rows is
  read row after row.  8- and 16-bit keys in rows of up to 256 are paired
  with their positions in integers of twice their width, each row folded
  into lanes of pairs, and the lanes of many rows halved together, neighbour
  with neighbour, so that a vector holds lanes of several rows (with
  AVX-512BW or AVX2, 32-bit keys too, in rows of up to 128 elements and 256
  bytes, each row's pairs one vector, built in registers, or several rows a
  vector).  Other rows: each row's minimum is a vectorized reduction that
  keeps the row's keys, and its index a vectorized search of those keys;
- *columns*: another axis is contiguous (or the reduced axis is, in rows of a
  few elements); a tile of that axis keeps a running minimum and index per
  element while the reduced axis is walked on the outside, several rows at a
  time, so memory is read in order.  Columns whose rows follow each other
  are read a cache line of lanes at a time over a batch of rows, the running
  minimum held in registers, or, a few elements wide, many rows at a time as
  one row of lanes.

Short rows, and columns, whose outputs lie far apart while those of an outer
axis lie next to each other (the first axis of a Fortran array), are read
eight positions of that axis at a time, so that whole lines of output are
written.  Streams are prefetched ahead of the loads where that measured
faster than the hardware prefetchers alone: paired short rows read side by
side, or several to a vector, everywhere; long rows, short rows kept for a
search, and paired short rows read one at a time only on Intel CPUs
(``prefetch_rows``).

Work is split over OpenMP threads by output element, or, when there are fewer
output tiles than threads (and the tiles are not in blocks), also
along the reduced axis; partial results are merged in axis order so that ties
resolve the same for every thread count.
"""

cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport (
    INT8_MIN, INT16_MIN, INT32_MIN, INT64_MAX, INT64_MIN,
    int8_t, int16_t, int32_t, int64_t,
)
from libc.math cimport NAN, isnan
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cnp.import_array()


cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    #define argmin_max_threads() omp_get_max_threads()
    #define argmin_thread_num() omp_get_thread_num()
    #else
    #define argmin_max_threads() 1
    #define argmin_thread_num() 0
    #endif
    """
    int argmin_max_threads() nogil
    int argmin_thread_num() nogil


cdef extern from *:
    """
    static int argmin_cpu_level(void) {
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
        __builtin_cpu_init();
        if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
              && __builtin_cpu_supports("bmi2")))
            return 0;
        if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
              && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")))
            return 2;
        return 3;
    #else
        return 0;
    #endif
    }

    static int argmin_cpu_is_intel(void) {
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
        __builtin_cpu_init();
        return __builtin_cpu_is("intel");
    #else
        return 0;
    #endif
    }
    """
    # What the CPU runs (see cpu_level), and whether Intel made it (see ask_rows).
    int argmin_cpu_level() nogil
    int argmin_cpu_is_intel() nogil


cdef extern from *:
    """
    #if defined(__AVX512F__)
    #define ARGMIN_REGISTER_BYTES 64
    #elif defined(__AVX2__)
    #define ARGMIN_REGISTER_BYTES 32
    #else
    #define ARGMIN_REGISTER_BYTES 16
    #endif
    """
    # Bytes of the widest vector register the build uses.
    enum: REGISTER_BYTES "ARGMIN_REGISTER_BYTES"


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define argmin_prefetch(p) __builtin_prefetch((p), 0, 3)
    #define argmin_prefetch_l2(p) __builtin_prefetch((p), 0, 2)
    #else
    #define argmin_prefetch(p) ((void)(p))
    #define argmin_prefetch_l2(p) ((void)(p))
    #endif
    """
    void prefetch "argmin_prefetch"(const void* p) nogil
    void prefetch_l2 "argmin_prefetch_l2"(const void* p) nogil   # into the second-level cache


cdef extern from *:
    """
    #if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
    #include <intrin.h>
    #define argmin_store_past_caches(p, v) _mm_stream_si64x((__int64*)(p), (__int64)(v))
    #define argmin_drain_stores() _mm_sfence()
    #elif defined(__x86_64__)
    #include <emmintrin.h>
    #define argmin_store_past_caches(p, v) _mm_stream_si64((long long*)(p), (long long)(v))
    #define argmin_drain_stores() _mm_sfence()
    #else
    #define argmin_store_past_caches(p, v) (*(p) = (v))
    #define argmin_drain_stores() ((void)0)
    #endif
    """
    # A store that bypasses the caches (x86-64: a non-temporal store), and
    # the fence after such stores that orders them before any later one.
    void store_past_caches "argmin_store_past_caches"(int64_t* p, int64_t v) nogil
    void drain_stores "argmin_drain_stores"() nogil


cdef extern from *:
    """
    #if (defined(__x86_64__) || defined(_M_X64)) && defined(__AVX512F__)
    #include <immintrin.h>
    #define argmin_line_past_caches(p, q) \
        _mm512_stream_si512((void *)(p), _mm512_loadu_si512((const void *)(q)))
    #elif (defined(__x86_64__) || defined(_M_X64)) && defined(__AVX__)
    #include <immintrin.h>
    #define argmin_line_past_caches(p, q) ( \
        _mm256_stream_si256((__m256i *)(p), _mm256_loadu_si256((const __m256i *)(q))), \
        _mm256_stream_si256((__m256i *)(p) + 1, _mm256_loadu_si256((const __m256i *)(q) + 1)))
    #elif defined(__x86_64__) || defined(_M_X64)
    #include <emmintrin.h>
    #define argmin_line_past_caches(p, q) ( \
        _mm_stream_si128((__m128i *)(p), _mm_loadu_si128((const __m128i *)(q))), \
        _mm_stream_si128((__m128i *)(p) + 1, _mm_loadu_si128((const __m128i *)(q) + 1)), \
        _mm_stream_si128((__m128i *)(p) + 2, _mm_loadu_si128((const __m128i *)(q) + 2)), \
        _mm_stream_si128((__m128i *)(p) + 3, _mm_loadu_si128((const __m128i *)(q) + 3)))
    #else
    #include <string.h>
    #define argmin_line_past_caches(p, q) memcpy((p), (q), 64)
    #endif
    """
    # The cache line of eight int64 at q (anywhere) stored past the caches
    # at p (on a cache line).
    void line_past_caches "argmin_line_past_caches"(int64_t* p, const int64_t* q) nogil


cdef extern from *:
    """
    typedef struct argmin_integer_coding_s argmin_integer_coding;
    typedef struct argmin_float_coding_s argmin_float_coding;
    typedef struct argmin_unsigned_coding_s argmin_unsigned_coding;
    """
    ctypedef struct integer_coding "argmin_integer_coding"
    ctypedef struct unsigned_coding "argmin_unsigned_coding"
    ctypedef struct float_coding "argmin_float_coding"


ctypedef fused key_t:
    int8_t
    int16_t
    int32_t
    int64_t

# A key paired with its position in a short row, in twice the key's width
# (see paired_rows_argmin).
ctypedef fused wide_t:
    int16_t
    int32_t

# How the stored bits become a key: as they are (signed integers), with the
# top bit flipped (unsigned integers, whose order then is the keys' order),
# or from sign-magnitude floating point.
ctypedef fused coding_t:
    integer_coding
    unsigned_coding
    float_coding


cdef enum:
    # Bytes that a row of a column tile spans: long enough to stream, short
    # enough that the tile's running minimum and row numbers stay in cache.
    TILE_BYTES = 16384
    # Bytes of a block of a row, scanned with a lane-wise minimum before its
    # index is searched.
    BLOCK_BYTES = 4096
    # Bytes searched at once for the index of a block's minimum.
    FIND_BYTES = 256
    # Lanes of a row's lane-wise minimum: LANE_BYTES, four 256-bit or two
    # 512-bit registers (fewer leave the loop unvectorized or latency-bound),
    # but at least MIN_LANES (the compiler unrolls fewer into scalar code), so
    # at most MAX_LANES.
    LANE_BYTES = 128
    MIN_LANES = 32
    MAX_LANES = 128
    CACHE_LINE = 64
    # Bytes of a vector of pairs (see _pairs.h), and most elements and bytes
    # of a row whose keys are paired in vectors (paired_vectors_argmin).
    # Measured, C arrays (rows, n) along axis 1, 64 MiB, 2 threads: 32-bit
    # rows of 96 and 128 elements 1.1 to 1.6 times as fast with their keys
    # kept for a search, 8-bit rows of 192 and 256 1.15 to 1.4 times as fast
    # paired in arrays (paired_rows_argmin), 16-bit rows of 128 and 8-bit rows
    # of 128 as fast in vectors or faster (their positions are set up again
    # for each tile of a few rows).
    VECTOR_BYTES = 64
    VECTOR_ROW_LEN = 128
    VECTOR_ROW_BYTES = 256
    # Fewest elements that a thread takes when the reduced axis of a row or
    # a column tile is split between threads.
    MIN_SPLIT = 1 << 16
    # Column tiles too few for the threads are cut narrower only where each
    # piece keeps SPLIT_TILE_BYTES; otherwise they stay whole and the threads
    # take chunks of the reduced axis instead.  Measured, C arrays (rows, n)
    # along axis 0, 64 MiB, 2 threads, chunks against tiles of half a row:
    # rows of 1 to 4 KiB 1.15 to 1.6 times as fast, rows of 8 and 16 KiB 0.8
    # to 1.0.
    SPLIT_TILE_BYTES = 4096
    MAX_DIMS = 64
    MAX_THREADS = 1024
    # Rows of a column tile folded into its running minimum at once, where
    # the tile is narrower than its rows or they span FOLD_ROW_BYTES or more
    # (a whole row a tile, measured on one thread, 64 MiB C arrays along
    # axis 0, against a row at a time: rows of 4 to 16 KiB 1.0 to 2.2 times
    # as fast, of 2 KiB 0.7 to 1.25).  The FOLD_ROWS streams are left to the
    # hardware prefetchers: measured against asking for each 1 KiB ahead,
    # (64, 512, m) and (1024, m) C arrays along axis 0, 1.1 to 1.47 times as
    # fast on one thread, 1.06 to 1.31 on two (4 KiB ahead, 32 KiB in the
    # first-level cache, was slower still).
    FOLD_ROWS = 8
    FOLD_ROW_BYTES = 4096
    # Outer positions of short rows that a work item takes at once when
    # they are written next to each other: a cache line of int64 indices;
    # for rows of at most BLOCK_ROW_BYTES, or twice that in tiles of at
    # least BLOCK_TILE_BYTES (measured with (64 to 128, 512, m) and
    # (64, 64 or 8, 8, ..., m) Fortran arrays along axis 0: up to 2.9 times as
    # fast; rows of 512 bytes gained nothing, of 1 KiB lost 14%, and of 256
    # bytes in tiles of 8 rows lost 32%), or of any length when the tiles
    # of a block are whole columns read as one (see BLOCK_COLUMN_BYTES).
    OUT_BLOCK = 8
    BLOCK_ROW_BYTES = 128
    BLOCK_TILE_BYTES = 4096
    # Short rows that follow each other in a column of at most
    # BLOCK_COLUMN_BYTES (and whose block's best keys and indices take no
    # more), whose columns follow each other along the blocked axis, take a
    # whole column a tile: the tiles of a block then follow each other in
    # memory and are read as one.  Measured, Fortran arrays
    # (n, 256 to 2048, m) along axis 0, 64 MiB, 2 threads, against tiles of
    # TILE_BYTES a row of each read in turn: rows of 64 elements, float32 1.25
    # to 1.5 times as fast, int16 1.0 to 1.3, uint8 1.1 to 1.4 (AVX2 1.1);
    # against no blocks (rows of 512 bytes to 2 KiB): float64 and int64
    # rows of 64 1.23, float32 rows of 256 1.12, float64 rows of 128 and
    # 256 1.15 and 1.03 (AVX2 1.0 to 1.03).
    BLOCK_COLUMN_BYTES = 1 << 20
    # Most elements of a short row of 8- or 16-bit keys paired with their
    # positions: they fit in the 8 bits of a pair.  Other short rows are
    # searched again for their minimum, up to SHORT_ROW_BYTES (see
    # short_row_max, short_rows_argmin).
    # Measured against row_argmin, C arrays (rows, n) along axis 1, 64 MiB,
    # 2 threads, AVX-512, random values and values 1 to 100 (whose minimum
    # row_argmin finds early): 16-bit rows of 300 to 1024 elements 1.07 to
    # 2.2 times as fast (0.87 for integer rows of 300 of values 1 to 100),
    # 32-bit rows of 256 to 512 1.34 to 1.81, 64-bit rows of 256 1.09 to
    # 1.54; 8-bit rows of 300 to 1024 0.70 to 1.24 times (left to
    # row_argmin); rows of 4 KiB (against row_argmin as it was before its
    # last block overlapped) 0.6 to 1.05 times.
    SHORT_ROW_MAX = 256
    SHORT_ROW_BYTES = 2048
    # Short rows of 8- and 16-bit keys whose lanes are halved together.
    PAIRED_ROWS = 64
    # Most bytes of the row of lanes that narrow columns are read as.  As
    # grouped rows instead where they fill a group of lanes (at most two):
    # measured, 64 MiB, 2 threads, against rows of lanes of PACK_BYTES, the
    # rows left over read with them: C arrays (n, 2) and (n, 16) along axis
    # 0, uint8 1.25, int16 1.05 to 1.15, float32 1.1, float64 1.6 to 1.8 times
    # as fast; (m, 1000, 3 to 8) along axis 1, float32 1.5 to 2.9, 8- and
    # 16-bit 2 to 11 times.
    PACK_BYTES = 1024
    # Rows that follow each other, from a group of lanes (group_lanes) to
    # GROUP_ROW_BYTES long, are folded a group at a time, the group's running
    # minimum held in registers over a batch of one row less than
    # GROUP_BATCH_BYTES, and asked for GROUP_PREFETCH_BYTES ahead.  Measured
    # against reading them as packed rows, 64 MiB, 2 threads: (64, 512, m)
    # Fortran arrays along axis 1 uint8 37 to 51 GB/s, float16 46 to 69,
    # float32 57 to 79; C arrays (n, 32 to 256) along axis 0 up to 1.5 times
    # as fast; rows of 512 bytes 3% to 10% slower.  Prefetches 4 KiB ahead,
    # and batches of 16 KiB, or of a whole 4 KiB (for rows of 256 bytes, on
    # one thread: uint8 30 to 33 against 35 to 40 GB/s), were slower.
    GROUP_ROW_BYTES = 256
    GROUP_BATCH_BYTES = 4096
    GROUP_PREFETCH_BYTES = 8192
    # Loads and earlier stores whose addresses agree in their low 12 bits
    # (ALIAS_SPAN) wait for each other as if they were the same address.
    # The running minimum of a column chunk is stored SCRATCH_SHIFT bytes
    # past the input in that span: a fold's loads then never meet its recent
    # stores there.  Measured with (64, 512, m) C arrays along axis 0 (rows a
    # multiple of 4 KiB apart) in cache, the input moved within its page and
    # the scratch left where malloc put it: at half of the offsets, 36 against
    # 64 GB/s (uint8) and 35 against 57 to 66 (int16).
    ALIAS_SPAN = 4096
    SCRATCH_SHIFT = 3072
    # Pages of memory (the smallest), and the fewest bytes of output whose
    # pages are touched before blocks are written (see reduce_layout):
    # glibc's malloc hands back smaller ones from memory it keeps, already
    # mapped (its threshold for fresh memory grows up to 32 MiB).
    PAGE_BYTES = 4096
    TOUCH_BYTES = 32 << 20
    # How far ahead of the loads a stream is asked for.
    PREFETCH_BYTES = 4096
    # Contiguous rows of fewer bytes are asked for ahead (row_argmin); longer
    # ones too where ask_rows.
    ASKED_ROW_BYTES = 1024
    # How far ahead each of the OUT_BLOCK streams of paired short rows is
    # asked for (measured: 512 to 1024 bytes), and a single stream of them
    # where ask_rows (paired_rows_argmin).
    BLOCK_PREFETCH_BYTES = 512
    # Paired rows in registers, being faster, ask for each stream twice:
    # into the first-level cache VECTOR_PREFETCH_BYTES ahead, and into the
    # second VECTOR_PREFETCH_L2_BYTES ahead.  Measured with (64, 512, m)
    # Fortran arrays along axis 0, 64 MiB: 1024 bytes up to 10% faster than
    # 512 for int16 and float16 on 2 threads, the same for uint8, 2048 and
    # 4096 no better; the second prefetch, on one thread, int16 and uint16 14%
    # faster, float32, int32 and uint32 12% to 26%, 8-bit types within 4%
    # either way, 4096 bytes no better.
    VECTOR_PREFETCH_BYTES = 1024
    VECTOR_PREFETCH_L2_BYTES = 2048


# Contiguous rows of more than short_row_len elements (-1: short_row_max)
# are read one by one (row_argmin), shorter ones a tile of rows at a time
# (short_rows_argmin), except those of fewer than min_row_len elements (-1:
# default_min_row_len, or 2 for rows read together), or outside the bounds
# of short_rows_argmin (short_row_min, short_row_max), which are read across
# the rows, as strided columns (see long_row and short_row; measured with
# benchmarks/rows.py, and the arrays of default_min_row_len).
cdef Py_ssize_t short_row_len = -1
cdef Py_ssize_t min_row_len = -1

# Whether rows read one at a time, which the hardware prefetchers follow, are
# asked for ahead in software too: rows of ASKED_ROW_BYTES or more
# (row_argmin), short rows kept for a search (short_rows_argmin, in every
# stream), and short rows paired in a single stream.
# Measured with C arrays along their last axis, 64 MiB, 1 and 2 threads,
# random values.  On an Intel Xeon (AVX-512, 2 cores of a server whose 480
# MiB last-level cache held the inputs: main memory was not measured there;
# one core alone read at most 26 GB/s, latency-bound), asked for:
# rows of 1 and 2 KiB 1.1 to 1.64 times as fast, of 4096 elements 1.04 to
# 1.24, of 32768 0.99 to 1.18, and float64 rows of 64 along the first axis of
# Fortran arrays 1.3; uint8 rows of 32768, which their minimum 0 ends early,
# 0.67 times (the 4 KiB asked for past it wasted).  On AMD EPYC Zen 4 and Zen
# 3 (AVX-512 and AVX2), left to the hardware prefetchers: rows of 2 KiB 1.1
# to 1.8 times as fast, of 256 bytes to 1 KiB 0.95 to 1.28, of 3000 and
# 30000 elements 1.0 to 1.57, of 1000 about the same.  So: asked for on
# Intel CPUs.  The same for short rows paired with their positions in a
# single stream (pair_rows, paired_rows_argmin), C arrays (rows, n) along
# axis 1: on the Intel Xeon, asked for, rows of 40 to 256 1.0 to 1.31 times
# as fast (8-bit rows of 160 to 256 1.0 to 1.08); on AMD EPYC, left to the
# hardware prefetchers, rows of 40 to 128 1.0 to 1.25 times as fast, and
# Fortran arrays (64 and 128, 512, m) along axis 0 0.99 to 1.14.
cdef bint ask_rows = argmin_cpu_is_intel()

# Inputs of at least stream_bytes come from memory rather than a cache, and
# their output blocks are written past the caches: the lines of a tile's
# blocks lie a row of the output apart, so that through the caches each is
# read before it is written, in a few cache sets.  Measured with (64, 512, m)
# Fortran arrays along axis 0, the output read after each call: uint8 and
# int16 7% to 10% faster from 32 MiB, the same at 16 MiB, up to 25% slower
# at 1 to 4 MiB; float32 unchanged.  Contiguous outputs measured up to 10%
# slower past the caches, at any size.
cdef Py_ssize_t stream_bytes = 32 << 20
# The first block's shift of those blocks (see line_shift), unless -1.
cdef Py_ssize_t block_shift_set = -1

# Whether a call of this module has run OpenMP threads.
cdef bint threads_have_run = False

include "_threads.pxi"


cdef struct Layout:
    # The input, its reduced axis and the output, in bytes and in elements.
    const char* data
    const char* end           # one past the input's last byte
    Py_ssize_t reduced_len
    Py_ssize_t reduced_stride
    bint flip                 # the reduced axis was walked backwards
    bint last                 # select_last_index, in memory order
    int64_t* out
    int64_t* out_start        # the output's lowest address
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


cdef inline key_t key_min(key_t k) noexcept nogil:
    # The smallest key of the width: NaN's key for the floating types.
    if key_t is int8_t:
        return INT8_MIN
    elif key_t is int16_t:
        return INT16_MIN
    elif key_t is int32_t:
        return INT32_MIN
    else:
        return INT64_MIN


cdef inline key_t load(
    const char* p, key_t inf_bits, coding_t* coding, bint select_free=False, bint nan_past=False,
) noexcept nogil:
    # The key of the element at p; p need not be aligned.  select_free: the
    # same key by arithmetic alone, for a minimum reduction (GCC vectorizes
    # one only over operands without a select) and for the folds of column
    # tiles (where GCC merged the selects into the `<=` of the last index:
    # twice the compares, up to 25% slower than `<`); elsewhere the selects
    # cost less.  nan_past: a float's key as if it were no NaN, by
    # arithmetic alone: a NaN's key then lies past the infinities' (above
    # inf_bits, or below -inf_bits), for reductions that look for such keys
    # afterwards rather than pay for the NaN test of each element.
    cdef key_t bits, magnitude, sign, nan
    memcpy(&bits, p, sizeof(key_t))
    if coding_t is integer_coding:
        return bits
    elif coding_t is unsigned_coding:
        return bits ^ key_min(bits)
    magnitude = bits & ~key_min(bits)
    if select_free or nan_past:
        # All ones for a negative value (whose magnitude is negated), and for a NaN.
        sign = bits >> (8 * sizeof(key_t) - 1)
        if nan_past:
            return (magnitude ^ sign) - sign
        nan = -<key_t>(magnitude > inf_bits)
        return (((magnitude ^ sign) - sign) & ~nan) | (key_min(bits) & nan)
    if magnitude > inf_bits:
        return key_min(bits)
    return -magnitude if bits < 0 else magnitude


cdef inline void* on_cache_line(void* p) noexcept nogil:
    # p rounded up to a cache line, for stack arrays that vectors store to
    # and load from: a vector that straddles two lines costs about as much
    # as two (measured 5% to 30% slower).
    return <void*>((<size_t>p + CACHE_LINE - 1) & ~(<size_t>(CACHE_LINE - 1)))


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


cdef inline key_t chunk_rows(key_t k) noexcept nogil:
    # Most rows a column chunk spans: its row numbers must fit in key_t.
    if key_t is int8_t:
        return 127
    elif key_t is int16_t:
        return 32767
    else:
        return 1 << 30


cdef inline void fold(
    key_t v, key_t r, key_t* best, key_t* index, bint last,
) noexcept nogil:
    # Take the value v of row r into a running minimum and its row.
    cdef bint take = better(v, best[0], last)
    best[0] = v if take else best[0]
    index[0] = r if take else index[0]


cdef inline void fold_row_at(
    const char* row, Py_ssize_t r, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t stride,
    key_t* chunk_best, key_t* chunk_index, bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Fold row number r, at `row`, into the running minimum of the tile
    # elements [start, stop).
    cdef Py_ssize_t j
    cdef key_t b, i
    for j in range(start, stop):
        b = chunk_best[j]
        i = chunk_index[j]
        fold(load(row + j * stride, inf_bits, coding, True), <key_t>r, &b, &i, last)
        # Stored unconditionally: a conditional store would branch.
        chunk_best[j] = b
        chunk_index[j] = i


cdef inline void fold_rows_at(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r,
    Py_ssize_t start, Py_ssize_t stop, Py_ssize_t stride,
    key_t* chunk_best, key_t* chunk_index, bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # The same for FOLD_ROWS rows, from row number r at `row`: several
    # streams read in parallel, and the running minimum loaded and stored once.
    cdef Py_ssize_t j
    cdef key_t b, i
    cdef const char* q
    for j in range(start, stop):
        b = chunk_best[j]
        i = chunk_index[j]
        # Written out: a loop over the rows here would not vectorize.
        q = row + j * stride
        fold(load(q, inf_bits, coding, True), <key_t>r, &b, &i, last)
        fold(load(q + reduced_stride, inf_bits, coding, True), <key_t>(r + 1), &b, &i, last)
        fold(load(q + 2 * reduced_stride, inf_bits, coding, True), <key_t>(r + 2), &b, &i, last)
        fold(load(q + 3 * reduced_stride, inf_bits, coding, True), <key_t>(r + 3), &b, &i, last)
        fold(load(q + 4 * reduced_stride, inf_bits, coding, True), <key_t>(r + 4), &b, &i, last)
        fold(load(q + 5 * reduced_stride, inf_bits, coding, True), <key_t>(r + 5), &b, &i, last)
        fold(load(q + 6 * reduced_stride, inf_bits, coding, True), <key_t>(r + 6), &b, &i, last)
        fold(load(q + 7 * reduced_stride, inf_bits, coding, True), <key_t>(r + 7), &b, &i, last)
        chunk_best[j] = b
        chunk_index[j] = i


cdef inline void fold_lines(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r, Py_ssize_t count,
    Py_ssize_t width, Py_ssize_t stride, key_t* chunk_best, key_t* chunk_index,
    bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Fold `count` rows (FOLD_ROWS or one) into a column tile's running
    # minimum.  One row of a contiguous tile goes FOLD_ROWS cache lines at a
    # time, each asked for ahead of the loads.
    cdef Py_ssize_t j = 0, k, span = FOLD_ROWS * (CACHE_LINE // sizeof(key_t))
    if stride != <Py_ssize_t>sizeof(key_t):
        # A strided tile, folded one row at a time (see column_chunk).
        fold_row_at(row, r, 0, width, stride, chunk_best, chunk_index, last,
                    inf_bits, coding)
        return
    if count == FOLD_ROWS:
        # (After the test above: the compiler then knows the tile is
        # contiguous, and vectorizes.)
        fold_rows_at(row, reduced_stride, r, 0, width, stride, chunk_best, chunk_index,
                     last, inf_bits, coding)
        return
    while j < width:
        for k in range(FOLD_ROWS):
            prefetch(row + j * stride + k * CACHE_LINE + PREFETCH_BYTES)
        fold_row_at(row, r, j, min(j + span, width), stride, chunk_best, chunk_index,
                    last, inf_bits, coding)
        j += span


cdef inline void fold_tile(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r, Py_ssize_t count,
    Py_ssize_t width, Py_ssize_t stride, key_t* chunk_best, key_t* chunk_index,
    bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # fold_lines with `last` as a constant: each loop is compiled branch-free.
    if last:
        fold_lines(row, reduced_stride, r, count, width, stride, chunk_best, chunk_index,
                   True, inf_bits, coding)
    else:
        fold_lines(row, reduced_stride, r, count, width, stride, chunk_best, chunk_index,
                   False, inf_bits, coding)


cdef inline Py_ssize_t group_lanes(Py_ssize_t size) noexcept nogil:
    # Lanes of a group of grouped rows: a cache line, but at least
    # MIN_LANES (the compiler unrolls fewer into scalar code).
    return max(CACHE_LINE // size, MIN_LANES)


cdef inline bint grouped_rows(Py_ssize_t width, Py_ssize_t size) noexcept nogil:
    # Whether rows of `width` elements that follow each other are folded a
    # group of lanes at a time (see GROUP_ROW_BYTES).
    return group_lanes(size) <= width and width * size <= GROUP_ROW_BYTES


cdef inline void fold_group_at(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r, Py_ssize_t count,
    Py_ssize_t lines, key_t* chunk_best, key_t* chunk_index, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Fold `count` rows, from row number r at `row`, into the running
    # minimum of a group of lanes, held in registers meanwhile; ask for
    # `lines` cache lines of each row ahead.
    cdef key_t lane_best[MAX_LANES]
    cdef key_t lane_index[MAX_LANES]
    cdef Py_ssize_t u, j, size = sizeof(key_t)
    for j in range(group_lanes(sizeof(key_t))):
        lane_best[j] = chunk_best[j]
        lane_index[j] = chunk_index[j]
    for u in range(count):
        for j in range(lines):
            prefetch(row + u * reduced_stride + j * CACHE_LINE + GROUP_PREFETCH_BYTES)
        for j in range(group_lanes(sizeof(key_t))):
            fold(load(row + u * reduced_stride + j * size, inf_bits, coding, True),
                 <key_t>(r + u), &lane_best[j], &lane_index[j], last)
    for j in range(group_lanes(sizeof(key_t))):
        chunk_best[j] = lane_best[j]
        chunk_index[j] = lane_index[j]


cdef inline void fold_group(
    const char* row, Py_ssize_t reduced_stride, Py_ssize_t r, Py_ssize_t count,
    Py_ssize_t lines, key_t* chunk_best, key_t* chunk_index, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # fold_group_at with `last` as a constant.
    if last:
        fold_group_at(row, reduced_stride, r, count, lines, chunk_best, chunk_index, True,
                      inf_bits, coding)
    else:
        fold_group_at(row, reduced_stride, r, count, lines, chunk_best, chunk_index, False,
                      inf_bits, coding)


cdef void column_chunk(
    const char* p, Py_ssize_t reduced_stride, Py_ssize_t rows,
    Py_ssize_t width, Py_ssize_t stride, key_t* chunk_best, key_t* chunk_index,
    bint last, key_t inf_bits, coding_t* coding, const char* input_end,
) noexcept nogil:
    # For each of `width` elements of a column tile (spaced by stride), the
    # minimum over the rows [0, rows) and its row.  Row numbers are kept in
    # the key's own type, so the compare-and-select vectorizes lane for lane.
    cdef Py_ssize_t j, count, r = 0, group = group_lanes(sizeof(key_t))
    # The largest key, and row 0: `<` keeps row 0 when the column holds only
    # the largest key, `<=` takes every row.
    for j in range(width):
        chunk_best[j] = ~key_min(inf_bits)
        chunk_index[j] = 0
    if (stride == <Py_ssize_t>sizeof(key_t) and reduced_stride == width * stride
            and grouped_rows(width, stride)):
        # Grouped rows: the last group of a batch may overlap the one before
        # it, as folding an element again changes nothing.
        while r < rows:
            count = min(rows - r, GROUP_BATCH_BYTES // reduced_stride - 1)
            j = 0
            while j < width:
                j = min(j, width - group)
                fold_group(p + r * reduced_stride + j * stride, reduced_stride, r, count,
                           (reduced_stride + CACHE_LINE - 1) // CACHE_LINE if j == 0 else 0,
                           chunk_best + j, chunk_index + j, last, inf_bits, coding)
                j += group
            r += count
        return
    if (stride == <Py_ssize_t>sizeof(key_t) and width < group
            and p + (rows - 1) * reduced_stride + group * stride <= input_end):
        # A tile narrower than a group of lanes, folded as one group whose
        # lanes past the tile read whatever follows it in the input, and
        # are left out.  Measured, C arrays (m, n, w) along axis 1, 64 MiB,
        # 2 threads, against a row at a time: (m, 7, 7) 2 to 4 times as fast,
        # (m, 3, 3) 1.25 to 2; with rows of fewer than twice the lanes not
        # packed (see packed_column_argmin), (m, 16 to 128, 16) uint8 3 to 7
        # times, float32 0.9 to 1.4.
        for j in range(width, group):
            chunk_best[j] = ~key_min(inf_bits)
            chunk_index[j] = 0
        fold_group(p, reduced_stride, 0, rows,
                   min((reduced_stride + CACHE_LINE - 1) // CACHE_LINE,
                       (group * stride + CACHE_LINE - 1) // CACHE_LINE),
                   chunk_best, chunk_index, last, inf_bits, coding)
        return
    while r < rows:
        # Rows that follow each other in memory are one stream already (up
        # to FOLD_ROW_BYTES), and a strided tile's loads are scalar anyway.
        if (r + FOLD_ROWS <= rows and stride == <Py_ssize_t>sizeof(key_t)
                and (reduced_stride != width * stride or reduced_stride >= FOLD_ROW_BYTES)):
            fold_tile(p + r * reduced_stride, reduced_stride, r, FOLD_ROWS, width, stride,
                      chunk_best, chunk_index, last, inf_bits, coding)
            r += FOLD_ROWS
        else:
            fold_tile(p + r * reduced_stride, reduced_stride, r, 1, width, stride,
                      chunk_best, chunk_index, last, inf_bits, coding)
            r += 1


cdef inline Py_ssize_t lane_count(key_t k) noexcept nogil:
    # Lanes of a row's lane-wise minimum (see LANE_BYTES).
    return max(LANE_BYTES // sizeof(key_t), MIN_LANES)


cdef Py_ssize_t find(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t target, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # First (or last) index in [start, stop) of a contiguous run (at most a
    # block) that holds target.  Chunk by chunk from the near end, each chunk
    # a vectorized minimum (or maximum) of its matching positions: one
    # branch to mispredict, when the chunk that holds target is reached.
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t)
    cdef int32_t k, candidate, found, n, chunk = FIND_BYTES // sizeof(key_t)
    cdef Py_ssize_t first
    cdef const char* q
    if last:
        first = stop
        while True:
            n = <int32_t>min(<Py_ssize_t>chunk, first - start)
            first -= n
            q = p + first * size
            found = -1
            for k in range(n):
                candidate = k if load(q + k * size, inf_bits, coding) == target else -1
                found = candidate if candidate > found else found
            if found >= 0:
                return first + found
    else:
        first = start
        while True:
            n = <int32_t>min(<Py_ssize_t>chunk, stop - first)
            q = p + first * size
            found = n
            for k in range(n):
                candidate = k if load(q + k * size, inf_bits, coding) == target else n
                found = candidate if candidate < found else found
            if found < n:
                return first + found
            first += n


cdef Py_ssize_t row_argmin(
    const char* p, Py_ssize_t start, Py_ssize_t stop, key_t* best, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Index of the minimum of the contiguous elements [start, stop), start < stop.
    # best receives the minimum's key.  Block by block: a lane-wise minimum,
    # and only a block that improves the running minimum is searched again
    # for its index (in cache by then).  A row of less than ASKED_ROW_BYTES
    # is asked for PREFETCH_BYTES ahead, every line of each lane step; longer
    # rows too where ask_rows, and are otherwise left to the hardware
    # prefetchers.
    # A local array, not a pointer into one: GCC then knows that no load
    # from p reads it and keeps the lanes in registers across the steps (the
    # lanes stored and loaded back at each step measured 1.1 to 1.4 times as
    # slow, rows of 2 to 64 KiB on one thread).
    cdef key_t lanes[MAX_LANES]
    cdef key_t minimum = load(p + start * sizeof(key_t), inf_bits, coding)
    cdef Py_ssize_t width = lane_count(minimum)
    cdef Py_ssize_t block = BLOCK_BYTES // sizeof(key_t)
    cdef Py_ssize_t size = <Py_ssize_t>sizeof(key_t)
    cdef Py_ssize_t i = start, j, k, t, steps, best_index = start
    cdef bint ask = ask_rows or (stop - start) * size < ASKED_ROW_BYTES
    cdef key_t block_min, v
    cdef key_t floor = key_min(minimum)
    while i < stop and stop - start >= width:
        # The last block ends at the row's end, overlapping the one before it
        # rather than leave the rest to a scalar scan: an element seen again
        # changes neither the minimum nor, taken by `better`, its index.
        # Measured, rows of 300, 1000 and 3000 elements, 64 MiB, 2 threads:
        # 8- and 16-bit keys 1.13 to 1.93 times as fast (up to 127 and 63
        # elements were scanned), 32- and 64-bit keys unchanged.
        i = min(i, stop - width)
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
        # A block of whole lane widths: a full block, or what the row has left
        # in whole lane widths, or the last lane width of the row.
        steps = min(block, stop - i) // width
        for j in range(width):
            lanes[j] = ~floor
        for t in range(steps):
            if ask:
                for k in range(width * size // CACHE_LINE):
                    prefetch(p + (i + t * width) * size + PREFETCH_BYTES + k * CACHE_LINE)
            for j in range(width):
                v = load(p + (i + t * width + j) * size, inf_bits, coding, size < 8)
                lanes[j] = v if v < lanes[j] else lanes[j]
        block_min = ~floor
        for j in range(width):
            block_min = lanes[j] if lanes[j] < block_min else block_min
        if better(block_min, minimum, last):
            minimum = block_min
            best_index = find(p, i, i + steps * width, block_min, last, inf_bits, coding)
        i += steps * width
    best[0] = minimum
    return scan(p, size, i, stop, best, best_index, last, inf_bits, coding)


cdef inline int32_t find_key(
    const char* p, int32_t n, key_t target, bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # First (or last) index of target among the keys of n contiguous
    # elements at p: the minimum (or maximum) of the matching positions, one
    # vectorized pass.
    cdef int32_t i, candidate, found = -1 if last else n
    cdef key_t k
    for i in range(n):
        k = load(p + i * sizeof(key_t), inf_bits, coding, True)
        if last:
            candidate = i if k == target else -1
            found = candidate if candidate > found else found
        else:
            candidate = i if k == target else n
            found = candidate if candidate < found else found
    return found


cdef inline int32_t find_in_row(
    const char* p, int32_t n, key_t target, bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # find_key with `last` as a constant: each loop is compiled branch-free.
    if last:
        return find_key(p, n, target, True, inf_bits, coding)
    return find_key(p, n, target, False, inf_bits, coding)


cdef inline Py_ssize_t short_row_min(Py_ssize_t size) noexcept nogil:
    # Fewest elements of a short row of `size`-byte elements: paired rows
    # fold whole MIN_LANES lanes; in registers (VECTOR_PAIRS), two.
    if VECTOR_PAIRS and size <= 2:
        return 2
    return MIN_LANES if size <= 2 else 1


cdef inline Py_ssize_t short_row_max(Py_ssize_t size) noexcept nogil:
    # Most elements of a short row of `size`-byte elements.  8-bit rows, and
    # without AVX-512BW 16-bit rows, are only paired: AVX2, 64 MiB, 2
    # threads, 16-bit keys kept for a search measured 0.89 to 1.10 times as
    # fast as row_argmin for int16 rows of 512 and 1024 (float16 rows of 300
    # to 1024 1.4 to 2.1 times), before row_argmin's last block overlapped,
    # and 0.8 to 0.96 times since (int16 and float16 rows of 512).
    if size == 1 or (size == 2 and REGISTER_BYTES < VECTOR_BYTES):
        return SHORT_ROW_MAX
    return SHORT_ROW_BYTES // size


cdef inline bint read_together(Py_ssize_t n, Py_ssize_t size) noexcept nogil:
    # Whether rows of n `size`-byte elements that follow each other are read
    # several to a vector of pairs (paired_vectors_argmin): rows of 2 to 32
    # bytes, a power of two, of at least two 8-, 16- or 32-bit elements; with
    # AVX2 (a vector in two registers), of 8-bit elements, or of 16 bytes or
    # more of 16-bit ones.  Measured with AVX2, C arrays (rows, n) along axis
    # 1, 64 MiB, 2 threads: uint8 rows of 2 to 16 1.1 to 2.3 times as fast as
    # strided columns, int16 and float16 rows of 8 and 16 1.2 to 2.0 times as
    # fast as a vector each; int16 and float16 rows of 4 0.83 to 0.94 times
    # as fast as strided columns, float32 and int32 rows of 2 and 4 0.75 to
    # 0.88.
    return (VECTOR_PAIRS and n >= 2 and n * size < VECTOR_BYTES
            and n * size & (n * size - 1) == 0
            and (size <= 4 if REGISTER_BYTES == VECTOR_BYTES
                 else size == 1 or (size == 2 and n * size >= 16)))


cdef inline Py_ssize_t default_min_row_len(Py_ssize_t size) noexcept nogil:
    # Fewest elements of a row of `size`-byte elements read as a short row
    # rather than as strided columns, when min_row_len is -1 (except rows
    # that follow each other, read together: see short_row).  Measured, 64
    # MiB, 2 threads, C arrays (rows, n) along axis 1 and Fortran arrays (n,
    # 512, m) along axis 0: with VECTOR_PAIRS, short rows of 8 to 15 elements
    # 1.25 to 3.6 times as fast (16-bit keys) and 1.24 to 5.5 times (32-bit
    # keys); 32-bit rows of 5 to 7 in C arrays 11% to 23% slower, 8-bit rows
    # of 9 to 15 in Fortran arrays up to 13% slower, and shorter rows up to
    # twice as slow.  Keys kept for a search (64-bit keys; 32-bit keys
    # without VECTOR_PAIRS), rows of 4 to 12 in C arrays: 12% to 75% slower.
    # With AVX2, 16-bit rows of 8 1.1 to 1.27 times as fast, 32-bit rows of
    # 8 0.88 to 1.12.
    cdef Py_ssize_t widest = 4 if REGISTER_BYTES == VECTOR_BYTES else 2
    return 8 if VECTOR_PAIRS and 2 <= size <= widest else 16


cdef inline bint long_row(Py_ssize_t n, Py_ssize_t size) noexcept nogil:
    # Whether a contiguous row of n `size`-byte elements is read on its own
    # (row_argmin).
    return n > (short_row_len if short_row_len >= 0 else short_row_max(size))


cdef inline bint short_row(Py_ssize_t n, Py_ssize_t size, bint consecutive) noexcept nogil:
    # Whether contiguous rows of n `size`-byte elements that are not long
    # rows are read as short rows (short_rows_argmin), rather than across the
    # rows as strided columns; consecutive: they follow each other and are
    # written one after another.  Such rows of a size read several to a vector
    # (read_together) are short rows by default however short: measured
    # against strided columns, 64 MiB, 2 threads, 1.3 to 2 times as fast
    # (uint8 rows of 2, 4 and 8 elements, int16 and float16 rows of 2 and 4,
    # float32 rows of 2 and 4).
    cdef Py_ssize_t fewest = (min_row_len if min_row_len >= 0
                              else 2 if consecutive and read_together(n, size)
                              else default_min_row_len(size))
    return n >= fewest and short_row_min(size) <= n <= short_row_max(size)


cdef inline void fold_pairs(
    const char* q, Py_ssize_t s, wide_t* lanes, bint first, bint last,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Fold the elements [s, s + MIN_LANES) of a short row into its lanes,
    # each as its key paired with its position (see paired_rows_argmin).
    cdef Py_ssize_t l, size = sizeof(key_t)
    cdef wide_t v
    # Positions count down from 255 for the last index.
    cdef wide_t base = <wide_t>(255 - s if last else s)
    cdef wide_t step = -1 if last else 1
    q += s * size
    for l in range(MIN_LANES):
        v = <wide_t>load(q + l * size, inf_bits, coding, True) * 256 + base + step * <wide_t>l
        lanes[l] = v if first or v < lanes[l] else lanes[l]


cdef inline void halve_pairs(const wide_t* lanes, wide_t* halved, Py_ssize_t count) noexcept nogil:
    # halved[k] = min(lanes[2k], lanes[2k + 1]) for k < count: neighbouring
    # lanes, of one row or of the next, a vector of them at a time.
    cdef Py_ssize_t k
    cdef wide_t a, b
    for k in range(count):
        a = lanes[2 * k]
        b = lanes[2 * k + 1]
        halved[k] = b if b < a else a


cdef inline Py_ssize_t rows_ahead(Py_ssize_t nbytes, Py_ssize_t row_stride) noexcept nogil:
    # How far ahead to ask for a row: past nbytes, by whole rows.
    return (nbytes // max(row_stride, 1) + 1) * row_stride


cdef inline const char* next_row(
    const char* q, const char** row, Py_ssize_t* b, Py_ssize_t streams,
    Py_ssize_t stream_stride, Py_ssize_t row_stride,
) noexcept nogil:
    # The row read after q when a row of each of `streams` tiles is read in
    # turn: the same row of the next tile (b), or the next row (row) of the
    # first tile.
    b[0] += 1
    if b[0] < streams:
        return q + stream_stride
    b[0] = 0
    row[0] += row_stride
    return row[0]


cdef inline void take_pair(
    int64_t pair, int shift, Py_ssize_t start, bint last, key_t* best, int64_t* index,
) noexcept nogil:
    # A row's smallest pair: its key, above `shift` bits, and its position in
    # the low 8 bits, stored as 255 - position for the last index.
    best[0] = <key_t>(pair >> shift)
    index[0] = start + (255 - (pair & 255) if last else pair & 255)


cdef void paired_rows_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint last, key_t inf_bits, coding_t* coding,
    wide_t* lanes, wide_t* halved,
) noexcept nogil:
    # short_rows_argmin for 8- and 16-bit keys, in rows (or pieces of rows)
    # of at least MIN_LANES elements.  Each key is paired with its
    # position in the row (8 bits: such rows have at most SHORT_ROW_MAX) in
    # an integer of twice its width, whose order is the key's, then the
    # position's: the smallest pair holds the row's minimum and its first
    # index, found without a search.  Each row folds its pairs into
    # MIN_LANES lanes (fewer are unrolled into scalar code), the last
    # MIN_LANES elements overlapping the others when the row is not a whole
    # number of lanes (an element taken twice is the same pair twice).  Then
    # the lanes of PAIRED_ROWS rows are halved together, neighbour with
    # neighbour, so that a vector holds lanes of several rows: no row is
    # reduced across a vector on its own.  Measured 1.3 to 2.3 times as fast
    # as keeping the keys for a search.
    cdef Py_ssize_t size = sizeof(key_t), n = stop - start, j = 0, k, s, rows, count, b = 0
    cdef Py_ssize_t ahead = rows_ahead(BLOCK_PREFETCH_BYTES, row_stride)
    cdef Py_ssize_t lines = (n * size + CACHE_LINE - 1) // CACHE_LINE
    cdef const char* row = p + start * size   # of the first tile
    cdef const char* q = row
    cdef wide_t* swap
    while j < width * streams:
        rows = min(<Py_ssize_t>PAIRED_ROWS, width * streams - j)
        for k in range(rows):
            if streams > 1 or ask_rows:
                for s in range(lines):
                    prefetch(q + ahead + s * CACHE_LINE)
            fold_pairs(q, 0, lanes + k * MIN_LANES, True, last, inf_bits, coding)
            s = MIN_LANES
            while s < n:
                s = min(s, n - MIN_LANES)   # the last lanes' worth overlaps
                fold_pairs(q, s, lanes + k * MIN_LANES, False, last, inf_bits, coding)
                s += MIN_LANES
            q = next_row(q, &row, &b, streams, stream_stride, row_stride)
        count = rows * MIN_LANES
        while count > rows:
            count //= 2
            halve_pairs(lanes, halved, count)
            swap = lanes
            lanes = halved
            halved = swap
        for k in range(rows):
            take_pair(lanes[k], 8, start, last, &best[j + k], &index[j + k])
        j += rows


cdef extern from "_pairs.h":
    # 64 bytes of lanes in registers, and the operations of
    # paired_vectors_argmin on them, where VECTOR_PAIRS (AVX-512BW or AVX2).
    const bint VECTOR_PAIRS "ARGMIN_VECTOR_PAIRS"
    ctypedef struct vec_t "argmin_vec":
        pass
    vec_t load_vec "argmin_load"(const void* p) nogil
    void store_vec "argmin_store"(void* p, vec_t v) nogil
    vec_t pairs8 "argmin_pairs8"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits) nogil
    vec_t pairs16 "argmin_pairs16"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits, int16_t inf_bits) nogil
    vec_t pairs32 "argmin_pairs32"(
        const char* lo, const char* hi, int piece, const vec_t* pair_bits, int32_t inf_bits) nogil
    vec_t min16 "argmin_min16"(vec_t a, vec_t b) nogil
    vec_t min32 "argmin_min32"(vec_t a, vec_t b) nogil
    vec_t min64 "argmin_min64"(vec_t a, vec_t b) nogil
    void halve16 "argmin_halve16"(vec_t* v, Py_ssize_t count, int level) nogil
    void halve32 "argmin_halve32"(vec_t* v, Py_ssize_t count, int level) nogil
    void halve64 "argmin_halve64"(vec_t* v, Py_ssize_t count, int level) nogil
    vec_t spread16 "argmin_spread16"(vec_t v, vec_t index) nogil
    vec_t spread32 "argmin_spread32"(vec_t v, vec_t index) nogil
    vec_t spread64 "argmin_spread64"(vec_t v, vec_t index) nogil


cdef inline vec_t pair_up(
    const char* lo, const char* hi, int piece, const vec_t* pair_bits, key_t inf_bits,
    coding_t* coding,
) noexcept nogil:
    # The pairs of the keys at lo and hi, in pieces of `piece` bytes (see _pairs.h).
    if key_t is int8_t:
        return pairs8(lo, hi, piece, pair_bits)
    elif key_t is int16_t:
        return pairs16(lo, hi, piece, pair_bits, inf_bits if coding_t is float_coding else 0)
    return pairs32(lo, hi, piece, pair_bits, <int32_t>inf_bits if coding_t is float_coding else 0)


cdef inline vec_t lower(vec_t a, vec_t b, key_t k) noexcept nogil:
    if key_t is int8_t:
        return min16(a, b)
    elif key_t is int16_t:
        return min32(a, b)
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
    return (<const int64_t*>pairs)[k]


cdef inline vec_t row_pairs(
    const char* q, Py_ssize_t second, int piece, Py_ssize_t vectors, const Py_ssize_t* offsets,
    const vec_t* positions, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # For paired_vectors_argmin: the pairs of the row at q, each the smaller
    # of two neighbours, the smaller of each vector's.
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
    Py_ssize_t lines, Py_ssize_t ahead, Py_ssize_t far, vec_t* pairs,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # For paired_vectors_argmin: pairs[r * streams + b], the smaller pair of
    # each two neighbours of row r of tile b, for tile_rows rows from `row`.
    # The streams of several tiles are asked for ahead, each twice; a single
    # one PREFETCH_BYTES ahead (whole rows) where ask_rows, a row's first
    # line outside a loop (8-bit rows of 64, Fortran arrays along axis 0, 64
    # MiB: 1.03 to 1.08 times as fast), and is otherwise left to the
    # hardware prefetchers.
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


cdef void paired_vectors_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # paired_rows_argmin with a row's pairs in a register, where VECTOR_PAIRS,
    # for 8-, 16- and 32-bit keys in rows of up to VECTOR_ROW_LEN elements and
    # VECTOR_ROW_BYTES: measured in cache, on one thread, 1.3 to 2.1 times
    # as fast as paired rows in arrays (8- and 16-bit rows of 64 elements),
    # and 1.4 to 2.5 times as fast as 32-bit keys kept for a search (rows of
    # 16 to 64 elements); longer rows measured slower from memory (see
    # VECTOR_ROW_LEN); with AVX2, 64 MiB, 2 threads, Fortran arrays (n, 512,
    # m) along axis 0 and C arrays (rows, n) along axis 1, 8- and 16-bit rows
    # of 16 to 128 1.45 to 2.25 times as fast as paired in arrays, 32-bit rows
    # of 16 to 64 1.06 to 1.57 times as fast as kept for a search (float32
    # rows of 64 in C arrays 0.9).  A pair is the key shifted up, xor the bits
    # of its position (255 - position for the last index) and, for unsigned
    # keys, of the flipped top bit.  A row is read a vector at a time, the last
    # overlapping the others when the row is not a whole number of vectors,
    # or, shorter than a vector, as two overlapping pieces of the most bytes
    # of 32, 16, 8, 4 or 2 that it holds, repeated to fill the vector; of
    # each vector, the smaller pair of each two neighbours.  One vector of
    # pairs per row (rows that follow each other, read_together: 2 to 32
    # rows a vector, measured in cache 1.3 to 2.2 times as fast as a vector
    # each for rows of 16 and 32 bytes); then the vectors of as many rows as
    # a vector has pairs are halved together, until lane k holds row k's
    # smallest pair (see _pairs.h).
    cdef Py_ssize_t size = sizeof(key_t), n = stop - start, j = 0, k, e, c, rows, count
    cdef Py_ssize_t group = VECTOR_BYTES // (2 * size), length = VECTOR_BYTES // size
    # Whole tile rows a group: a row of each tile (streams <= OUT_BLOCK <= group).
    cdef Py_ssize_t r = 0, tile_rows, group_rows = group // streams
    cdef Py_ssize_t vectors = max(1, (n + length - 1) // length)
    cdef Py_ssize_t ahead = rows_ahead(VECTOR_PREFETCH_BYTES, row_stride)
    cdef Py_ssize_t far = rows_ahead(VECTOR_PREFETCH_L2_BYTES, row_stride)
    cdef Py_ssize_t lines = (n * size + CACHE_LINE - 1) // CACHE_LINE
    # The pieces of a row's first vector: their bytes, elements, and where
    # the second piece starts.
    cdef int piece = VECTOR_BYTES
    while piece > n * size:
        piece //= 2
    cdef Py_ssize_t piece_len = piece // size
    cdef Py_ssize_t second = (n - piece_len) * size
    # Rows that follow each other, read together: `per` of them a vector.
    # Such a row is a whole piece, so the pair bits of its pieces are those of
    # the rows of a vector: e % n.
    cdef Py_ssize_t per = (VECTOR_BYTES // (n * size) if streams == 1 and row_stride == n * size
                           and read_together(n, size) else 1)
    cdef const char* row = p + start * size   # the next row of the first tile
    # Each vector's offset in a row, the pair bits of its even and odd
    # elements.
    cdef Py_ssize_t offsets[VECTOR_ROW_BYTES / VECTOR_BYTES]
    cdef vec_t positions[2 * VECTOR_ROW_BYTES / VECTOR_BYTES]
    cdef vec_t pairs[32]
    cdef int64_t memory[16 + 8]   # two vectors, and a cache line more
    cdef char* even = <char*>on_cache_line(memory)
    cdef char* odd = even + VECTOR_BYTES
    cdef int64_t position, flip = 0
    if coding_t is unsigned_coding:
        # A pair's top bit.
        flip = 0x8000 if key_t is int8_t else 0x80000000 if key_t is int16_t else INT64_MIN
    for c in range(vectors):
        offsets[c] = max(0, min(c * length, n - length)) * size
        for e in range(length):
            # Row positions: the element's offset in the vector, or in its
            # piece, the odd pieces at n - piece_len (a power of two: no
            # divisions, which would cost more than a tile of a few rows).
            position = offsets[c] // size + (e & (piece_len - 1))
            if e & piece_len:
                position += n - piece_len
            position = (255 - position if last else position) ^ flip
            set_pair(even if e % 2 == 0 else odd, e // 2, position, inf_bits)
        positions[2 * c] = load_vec(even)
        positions[2 * c + 1] = load_vec(odd)
    # Rows read together: their vectors spread as lanes of `per` rows
    # (spread), halved from level `spread_level` on.
    cdef vec_t spreading = positions[0]
    cdef int level, spread_level = 0
    if per > 1:
        for e in range(group):
            set_pair(even, e, (e % per) * (group // per) + e // per, inf_bits)
        spreading = load_vec(even)
        while 1 << spread_level < per:
            spread_level += 1
    while j < width * streams:
        tile_rows = min(group_rows, width - r)
        rows = tile_rows * streams
        if per > 1 and rows == group:
            # Row k's pairs are n / 2 lanes from (k % per) * n / 2 of vector
            # k / per, spread as the single rows' lanes after their first
            # halvings, so in the end too lane k holds row k's pair.  The
            # stream asked for PREFETCH_BYTES ahead (measured, C arrays along
            # axis 1, 2 threads: 5% to 9% faster than the hardware
            # prefetchers alone, for uint8 rows of 16 and 32, int16 rows of
            # 16, float32 rows of 8).
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
            # Rows of a vector or more: their first piece a whole vector, a
            # constant in this call's loads (measured with AVX2, Fortran
            # arrays (64, 512, m) along axis 0, 64 MiB, 2 threads: uint8 1.12
            # to 1.26 times as fast, int16 1.13 to 1.17).  Not for 32-bit
            # keys: float32 rows of 32 and 64 gained 2% to 14%, but the code
            # GCC made for float32 rows of 128 to 512, whose keys are kept
            # for a search, read them 0.75 times as fast.
            if piece == VECTOR_BYTES and key_t is not int32_t:
                pair_rows(row, row_stride, tile_rows, stream_stride, streams, VECTOR_BYTES, second,
                          vectors, offsets, positions, lines, ahead, far, pairs, inf_bits, coding)
            else:
                pair_rows(row, row_stride, tile_rows, stream_stride, streams, piece, second,
                          vectors, offsets, positions, lines, ahead, far, pairs, inf_bits, coding)
            row += tile_rows * row_stride
            for k in range(rows, group):
                pairs[k] = pairs[0]   # lanes of no row
        while count > 1:
            count //= 2
            halve(pairs, count, level, inf_bits)
            level += 1
        store_vec(even, pairs[0])
        for k in range(rows):
            take_pair(get_pair(even, k, inf_bits), 8 * size, start, last,
                      &best[j + k], &index[j + k])
        j += rows
        r += tile_rows


cdef void short_rows_argmin(
    const char* p, Py_ssize_t row_stride, Py_ssize_t width,
    Py_ssize_t stream_stride, Py_ssize_t streams, Py_ssize_t start, Py_ssize_t stop,
    key_t* best, int64_t* index, bint last, key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Rows too short for row_argmin's blocks (short_row_max): `streams` tiles
    # stream_stride apart, each of `width` rows row_stride apart, read a row
    # of each tile in turn; of each row, the elements [start, stop).  Sets best
    # and index of row j of tile b at j * streams + b.  8- and 16-bit keys are
    # paired with their positions (paired_rows_argmin) in pieces of at least
    # MIN_LANES elements: a row split between threads (rows that overlap in
    # memory, many threads) can leave a shorter piece.  With AVX-512BW or
    # AVX2, in registers (paired_vectors_argmin), from two elements, 32-bit
    # keys too (see VECTOR_ROW_LEN).  Other pieces, rows of more than
    # SHORT_ROW_MAX (whose positions would not fit in a pair's 8 bits), and
    # other keys, whose pairs in arrays would take 64 bits or more (measured
    # slower): each row's minimum is a vectorized reduction, whose index is
    # then searched for in a second pass: over a copy of the keys for
    # floating-point elements (whose keys cost several instructions each:
    # the row itself measured 0.65 to 0.95 times as fast), over the row
    # itself for integers.  A copy of integer keys ran at a third to half
    # speed in some processes and not in others, the same build and input
    # (64 MiB C arrays along axis 1, 1 and 2 threads: int64 rows of 256,
    # int32 rows of 512, int16 rows of 1024); without it, those rows and
    # rows of 16 to 200 measured 1.0 to 3.2 times as fast, as fast as the
    # copy at its best (the same with AVX2 and without).  Floating-point
    # keys are first taken without their NaN test (load's nan_past), and
    # again with it only for a row whose keys show a NaN, and at once for the
    # rows after one that held a NaN, until one holds none: measured, C
    # arrays (64, 512, m) along axis 2, 64 MiB, float16, bfloat16, float32
    # and float64 rows 1.02 to 1.15 times as fast (float32 rows each with a
    # NaN as fast).  Those rows are asked for PREFETCH_BYTES ahead, a burst
    # of a row's lines, where ask_rows, and are otherwise left to the
    # hardware prefetchers.
    cdef Py_ssize_t size = sizeof(key_t), r, b, j, k, ahead, lines
    cdef int32_t i, n = <int32_t>(stop - start)
    cdef const char* q
    cdef key_t minimum, most, v
    cdef bint nans = False
    # The floating-point keys of a row (SHORT_ROW_BYTES at most), or the
    # lanes of paired rows and their halves, on whole cache lines.
    cdef int32_t memory[2 * PAIRED_ROWS * MIN_LANES + 16]   # and a cache line more
    cdef int32_t* lanes = <int32_t*>on_cache_line(memory)
    cdef int32_t* halved = lanes + PAIRED_ROWS * MIN_LANES
    if (key_t is not int64_t and VECTOR_PAIRS and 2 <= n <= VECTOR_ROW_LEN
            and n * size <= VECTOR_ROW_BYTES):
        paired_vectors_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                              index, last, inf_bits, coding)
        return
    if key_t is int8_t and MIN_LANES <= n <= SHORT_ROW_MAX:
        paired_rows_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                           index, last, inf_bits, coding, <int16_t*>lanes, <int16_t*>halved)
        return
    elif key_t is int16_t and MIN_LANES <= n <= SHORT_ROW_MAX:
        paired_rows_argmin(p, row_stride, width, stream_stride, streams, start, stop, best,
                           index, last, inf_bits, coding, lanes, halved)
        return
    ahead = rows_ahead(PREFETCH_BYTES, row_stride) if ask_rows else 0
    lines = (n * size + CACHE_LINE - 1) // CACHE_LINE if ask_rows else 0
    for r in range(width):
        for b in range(streams):
            j = r * streams + b
            q = p + r * row_stride + b * stream_stride + start * size
            for k in range(lines):
                prefetch(q + ahead + k * CACHE_LINE)
            minimum = ~key_min(inf_bits)
            if coding_t is float_coding and not nans:
                # Keys with a NaN's past the infinities', and their largest:
                # the row is read again for its NaNs only where it holds one.
                most = key_min(inf_bits)
                for i in range(n):
                    v = load(q + i * size, inf_bits, coding, True, True)
                    (<key_t*>lanes)[i] = v
                    minimum = v if v < minimum else minimum
                    most = v if v > most else most
                nans = most > inf_bits or minimum < -inf_bits
            if coding_t is not float_coding or nans:
                minimum = ~key_min(inf_bits)
                for i in range(n):
                    v = load(q + i * size, inf_bits, coding, True)
                    if coding_t is float_coding:
                        (<key_t*>lanes)[i] = v
                    minimum = v if v < minimum else minimum
                if coding_t is float_coding:
                    # A NaN: the next row is read with NaN keys at once.
                    nans = minimum == key_min(inf_bits)
            if coding_t is float_coding:
                index[j] = start + find_in_row(<const char*>lanes, n, minimum, last, inf_bits,
                                               <integer_coding*>NULL)
            else:
                index[j] = start + find_in_row(q, n, minimum, last, inf_bits, coding)
            best[j] = minimum


cdef inline void merge_lanes_at(
    const key_t* lane_best, const key_t* lane_index, int64_t first, Py_ssize_t step,
    Py_ssize_t width, key_t* best, int64_t* index, bint last, bint masks,
) noexcept nogil:
    # Take lane c, the minimum lane_best[c] at row first + lane_index[c] * step,
    # into best[c] and index[c] for c < width: the smaller key, or on a tie
    # the first (or last) row.  With masks, without a branch: GCC compiles
    # the selects into branches, which ties mispredict when they take the
    # later row (the last index).
    cdef Py_ssize_t c
    cdef int64_t row, take
    cdef key_t v
    for c in range(width):
        v = lane_best[c]
        row = first + <int64_t>lane_index[c] * step
        take = (v < best[c]) | ((v == best[c]) & ((row > index[c]) if last else (row < index[c])))
        if masks:
            take = -take
            best[c] = <key_t>((v & <key_t>take) | (best[c] & ~<key_t>take))
            index[c] = (row & take) | (index[c] & ~take)
        else:
            best[c] = v if take else best[c]
            index[c] = row if take else index[c]


cdef inline void merge_lanes(
    const key_t* lane_best, const key_t* lane_index, int64_t first, Py_ssize_t step,
    Py_ssize_t width, key_t* best, int64_t* index, bint last,
) noexcept nogil:
    # merge_lanes_at with `last` as a constant, and masks for the last index
    # from 8 columns.  Measured, C arrays (n, w) along axis 0, 64 MiB, 2
    # threads, 8-bit keys (merged every 127 rows of lanes): the last index
    # with masks, w of 8 to 32 1.1 to 1.8 times as fast, 2 and 4 0.85 to 0.95;
    # the first index 0.8 to 0.9.
    if last and width >= 8:
        merge_lanes_at(lane_best, lane_index, first, step, width, best, index, True, True)
    elif last:
        merge_lanes_at(lane_best, lane_index, first, step, width, best, index, True, False)
    else:
        merge_lanes_at(lane_best, lane_index, first, step, width, best, index, False, False)


cdef Py_ssize_t packed_column_argmin(
    const char* p, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t width,
    key_t* best, int64_t* index, key_t* chunk_best, key_t* chunk_index, bint last,
    key_t inf_bits, coding_t* coding, const char* input_end,
) noexcept nogil:
    # Columns of a few contiguous elements whose rows follow each other: the
    # rows are read `pack` at a time as one row of pack * width lanes (lane l
    # holds column l % width of row l // width), so that a vector holds many
    # rows: grouped rows of up to two groups of lanes where a whole number of
    # rows fills one at least (see PACK_BYTES), or else up to PACK_BYTES.
    # The rows left over, fewer than pack, are the first lanes of one more
    # row of lanes, where the last chunk has room for it.  Sets best and index
    # from rows [start, end) and returns end, the first row left out.
    cdef Py_ssize_t size = sizeof(key_t), rows = chunk_rows(inf_bits)
    cdef Py_ssize_t pack = min(2 * group_lanes(size), GROUP_ROW_BYTES // size) // width
    cdef Py_ssize_t lanes, end, k = start, count, q, c
    cdef bint grouped = grouped_rows(pack * width, size)
    if not grouped:
        pack = PACK_BYTES // size // width
    lanes = pack * width
    end = start + (stop - start) // pack * pack
    if grouped and stop - start < 2 * lanes and group_lanes(size) * size <= 2 * REGISTER_BYTES:
        # Fewer rows than twice the lanes: merging the lanes would cost more
        # than reading the rows one by one, a group of lanes at a time (see
        # column_chunk), where a group is at most two registers.
        end = start
    for c in range(width):
        best[c] = ~key_min(inf_bits)
        index[c] = -1 if last else INT64_MAX
    while k < end:
        count = min(rows, (end - k) // pack)
        column_chunk(p + k * width * size, lanes * size, count, lanes, size, chunk_best,
                     chunk_index, last, inf_bits, coding, input_end)
        if k + count * pack == end and end < stop and count < rows:
            fold_tile(p + end * width * size, lanes * size, count, 1, (stop - end) * width,
                      size, chunk_best, chunk_index, last, inf_bits, coding)
            end = stop
        # Lane j = q * width + c: column c of the q-th row of each row of lanes.
        for q in range(pack):
            merge_lanes(chunk_best + q * width, chunk_index + q * width, k + q, pack,
                        width, best, index, last)
        k += rows * pack
    return end


cdef void column_argmin(
    const char* p, Py_ssize_t reduced_stride, Py_ssize_t start, Py_ssize_t stop,
    Py_ssize_t width, Py_ssize_t stride, key_t* best, int64_t* index,
    key_t* chunk_best, key_t* chunk_index, bint last, bint pack_rows,
    key_t inf_bits, coding_t* coding, const char* input_end,
) noexcept nogil:
    # For each element of a column tile, the minimum over reduced positions
    # [start, stop) and its position: chunk by chunk, merged in axis order;
    # with pack_rows, most rows read as rows of lanes (packed_column_argmin).
    cdef Py_ssize_t j, k = start, rows = chunk_rows(inf_bits)
    cdef bint started = False
    if pack_rows:
        k = packed_column_argmin(p, start, stop, width, best, index, chunk_best,
                                 chunk_index, last, inf_bits, coding, input_end)
        started = k > start
    while k < stop:
        if stride == <Py_ssize_t>sizeof(key_t):
            # Compiled apart: a contiguous tile vectorizes.
            column_chunk(p + k * reduced_stride, reduced_stride, min(rows, stop - k),
                         width, sizeof(key_t), chunk_best, chunk_index, last,
                         inf_bits, coding, input_end)
        else:
            column_chunk(p + k * reduced_stride, reduced_stride, min(rows, stop - k),
                         width, stride, chunk_best, chunk_index, last,
                         inf_bits, coding, input_end)
        if not started:
            for j in range(width):
                best[j] = chunk_best[j]
                index[j] = k + chunk_index[j]
            started = True
        else:
            for j in range(width):
                if better(chunk_best[j], best[j], last):
                    best[j] = chunk_best[j]
                    index[j] = k + chunk_index[j]
        k += rows


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


cdef void write_positions(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    const int64_t* index, int64_t flip, int64_t shift,
) noexcept nogil:
    # write_tile for column positions [first, first + width) of several
    # column axes, one after another.
    cdef int d, last_axis = layout.column_ndim - 1
    cdef Py_ssize_t j, offset = 0, rest = first
    cdef Py_ssize_t position[MAX_DIMS]
    for d in range(last_axis, -1, -1):
        position[d] = rest % layout.column_axis_len[d]
        rest = rest // layout.column_axis_len[d]
        offset += position[d] * layout.column_out_stride[d]
    for j in range(width):
        o[offset] = (index[j] ^ flip) + shift
        d = last_axis
        position[d] += 1
        offset += layout.column_out_stride[d]
        while position[d] == layout.column_axis_len[d] and d > 0:
            offset -= position[d] * layout.column_out_stride[d]
            position[d] = 0
            d -= 1
            position[d] += 1
            offset += layout.column_out_stride[d]


cdef void write_across(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    const int64_t* index, int64_t flip, int64_t shift,
) noexcept nogil:
    # write_tile for two column axes, the outer one contiguous in the output
    # and the inner one spread out (a Fortran array along its last axis): in
    # column order, each output element would fall on a line of its own.
    # The whole rows of the inner axis are written OUT_BLOCK of its positions
    # at a time, each down all the rows: OUT_BLOCK lines filled in order,
    # from one line of indices (measured with (64, 512, 4 to 64) uint8
    # Fortran arrays along axis 2, in cache, one thread: 4 to 10 times as
    # fast).  The rows cut by the tile's ends are written one position after
    # another.
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


cdef inline void write_line(int64_t* p, const int64_t* line, bint past_caches) noexcept nogil:
    # Store a line of OUT_BLOCK indices at p: past the caches if
    # past_caches, as one vector where p starts a cache line.
    cdef Py_ssize_t b
    if past_caches and <size_t>p % CACHE_LINE == 0:
        line_past_caches(p, line)
    elif past_caches:
        for b in range(OUT_BLOCK):
            store_past_caches(&p[b], line[b])
    else:
        memcpy(p, line, CACHE_LINE)


cdef void write_tile(
    const Layout* layout, int64_t* o, Py_ssize_t first, Py_ssize_t width,
    Py_ssize_t streams, bint apart, const int64_t* index, bint past_caches,
) noexcept nogil:
    # Write the indices of column positions [first, first + width) to the
    # output of one outer position, o, or of `streams` outer positions one
    # after another in the output (one column axis only), index[j * streams + b],
    # or index[b * width + j] when apart, those past the caches if past_caches
    # (blocks of several positions only).
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
                # Whole blocks: OUT_BLOCK column positions at a time, their
                # indices gathered into a buffer of lines (transposed when
                # apart: the compiler vectorizes the loop pair) stored whole.
                # Measured against an index at a time, Fortran arrays
                # (n, 512, m) along axis 0, rows of 16 to 128 elements: 64
                # MiB, 2 threads, 1.0 to 1.19 times as fast; 4 to 16 MiB, one
                # thread, 1.04 to 1.11.
                while j + OUT_BLOCK <= width:
                    if apart:
                        for u in range(OUT_BLOCK):
                            for b in range(OUT_BLOCK):
                                lines[u * OUT_BLOCK + b] = (index[b * width + j + u] ^ flip) + shift
                    else:
                        for u in range(OUT_BLOCK * OUT_BLOCK):
                            lines[u] = (index[j * OUT_BLOCK + u] ^ flip) + shift
                    for u in range(OUT_BLOCK):
                        write_line(&o[(first + j + u) * stride], &lines[u * OUT_BLOCK], past_caches)
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


cdef struct Scratch:
    # One thread's working memory for a column tile.
    void* best
    int64_t* index
    void* chunk_best
    void* chunk_index


cdef struct Tiling:
    # How the work is cut: column tiles of at most tile_len elements, the
    # first tile `shift` elements short so that the others start on a cache
    # line; the reduced axis in `splits` chunks of `chunk` positions.
    # pack_rows: the columns are narrow and their rows follow each other.
    # short_rows: the columns are short contiguous rows, read row by row.
    # A work item takes `block` positions of the innermost outer axis at once
    # (see reduce_layout), whose output is written past the caches when
    # stream_out; the first block of the axis `block_shift` positions short
    # (see line_shift).
    Py_ssize_t tile_len
    Py_ssize_t shift
    Py_ssize_t tiles
    Py_ssize_t splits
    Py_ssize_t chunk
    bint pack_rows
    bint short_rows
    Py_ssize_t block
    Py_ssize_t block_shift
    bint stream_out


cdef inline Py_ssize_t tile_span(
    const Layout* layout, const Tiling* tiling, Py_ssize_t tile, Py_ssize_t* first,
) noexcept nogil:
    # First column position of a tile, and its width.
    cdef Py_ssize_t start = tile * tiling.tile_len - tiling.shift
    first[0] = max(start, 0)
    return min(start + tiling.tile_len, layout.column_len) - first[0]


cdef inline Py_ssize_t axis_blocks(Py_ssize_t inner, const Tiling* tiling) noexcept nogil:
    # Blocks of an innermost outer axis of `inner` positions, the first
    # block_shift positions short.
    return (inner + tiling.block_shift + tiling.block - 1) // tiling.block


cdef Py_ssize_t reduce_item(
    const Layout* layout, const Tiling* tiling, Py_ssize_t w, Scratch* scratch,
    key_t* partial_best, int64_t* partial_index,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Work item w: one column tile (or row) of one outer position, or of a
    # block of them, over one chunk of the reduced axis.  Writes the output,
    # or the partial result when the reduced axis is split; returns the
    # number of elements it read.
    cdef key_t* best = <key_t*>scratch.best
    cdef int64_t* index = scratch.index
    # Divisions cost more than a row of a few hundred bytes: none when
    # there is one split and one tile (rows).
    cdef Py_ssize_t splits = tiling.splits, tiles = tiling.tiles, tile_len = tiling.tile_len
    cdef Py_ssize_t item = w // splits if splits > 1 else w
    cdef Py_ssize_t start = (w % splits) * tiling.chunk if splits > 1 else 0
    cdef Py_ssize_t stop = min(start + tiling.chunk, layout.reduced_len)
    cdef Py_ssize_t first, width = tile_span(layout, tiling, item % tiles if tiles > 1 else 0, &first)
    cdef Py_ssize_t position = item // tiles if tiles > 1 else item, streams = 1
    cdef Py_ssize_t inner, blocks, b, begin, stream_stride = 0
    cdef const char* p
    cdef int64_t* o
    cdef bint apart = not tiling.short_rows
    if tiling.block > 1:
        # A block of the innermost outer axis: its first position, and how
        # many it holds (fewer at the ends of the axis).
        inner = layout.outer_len[layout.outer_ndim - 1]
        blocks = axis_blocks(inner, tiling)
        begin = position % blocks * tiling.block - tiling.block_shift
        streams = min(begin + tiling.block, inner) - max(begin, 0)
        position = position // blocks * inner + max(begin, 0)
        stream_stride = layout.outer_stride[layout.outer_ndim - 1]
    locate(layout, position, &p, &o)
    p += first * layout.column_stride
    if tiling.short_rows and streams > 1 and stream_stride == width * layout.column_stride:
        # A block of tiles that follow each other in memory (each tile a whole
        # column): read as one tile, one row after another, and written
        # apart.  Measured, Fortran arrays (16, 512, m) along axis 0, 2
        # threads: in cache 1.1 to 2.5 times as fast as a row of each tile in
        # turn, from memory 1.02 to 1.3.
        short_rows_argmin(p, layout.column_stride, width * streams, 0, 1, start, stop,
                          best, index, layout.last, inf_bits, coding)
        apart = True
    elif tiling.short_rows:
        short_rows_argmin(p, layout.column_stride, width, stream_stride, streams, start, stop,
                          best, index, layout.last, inf_bits, coding)
    elif layout.column_ndim > 0:
        for b in range(streams):
            column_argmin(p + b * stream_stride, layout.reduced_stride, start, stop, width,
                          layout.column_stride, best + b * width, index + b * width,
                          <key_t*>scratch.chunk_best, <key_t*>scratch.chunk_index,
                          layout.last, tiling.pack_rows, inf_bits, coding, layout.end)
    elif layout.reduced_stride == <Py_ssize_t>sizeof(key_t):
        index[0] = row_argmin(p, start, stop, best, layout.last, inf_bits, coding)
    else:
        best[0] = load(p + start * layout.reduced_stride, inf_bits, coding)
        index[0] = scan(p, layout.reduced_stride, start + 1, stop, best, start,
                        layout.last, inf_bits, coding)
    if splits == 1:
        write_tile(layout, o, first, width, streams, apart, index, tiling.stream_out)
    else:
        memcpy(partial_best + w * tile_len, best, width * sizeof(key_t))
        memcpy(partial_index + w * tile_len, index, width * sizeof(int64_t))
    return width * streams * (stop - start)


cdef void reduce_items(
    const Layout* layout, const Tiling* tiling, Py_ssize_t begin, Py_ssize_t end,
    Scratch* scratch, Pace* pace, key_t* partial_best, int64_t* partial_index,
    key_t inf_bits, coding_t* coding,
) noexcept nogil:
    # Work items [begin, end) on one thread, their time and elements added to pace.
    cdef double start = argmin_seconds()
    cdef Py_ssize_t w
    for w in range(begin, end):
        pace.elements += reduce_item(layout, tiling, w, scratch, partial_best, partial_index,
                                     inf_bits, coding)
    pace.busy += argmin_seconds() - start


cdef void merge_item(
    const Layout* layout, const Tiling* tiling, Py_ssize_t item,
    const key_t* partial_best, int64_t* partial_index,
) noexcept nogil:
    # Merge the splits of one item in axis order, and write the output.
    cdef Py_ssize_t splits = tiling.splits, tile_len = tiling.tile_len
    cdef Py_ssize_t column, width = tile_span(layout, tiling, item % tiling.tiles, &column)
    cdef Py_ssize_t j, w, first = item * splits
    cdef const char* p
    cdef int64_t* o
    cdef key_t k
    cdef int64_t i
    locate(layout, item // tiling.tiles, &p, &o)
    for j in range(width):
        k = partial_best[first * tile_len + j]
        i = partial_index[first * tile_len + j]
        for w in range(first + 1, first + splits):
            if better(partial_best[w * tile_len + j], k, layout.last):
                k = partial_best[w * tile_len + j]
                i = partial_index[w * tile_len + j]
        partial_index[first * tile_len + j] = i
    write_tile(layout, o, column, width, 1, False, partial_index + first * tile_len, False)


cdef inline Py_ssize_t line_shift(const Layout* layout) noexcept nogil:
    # For blocks of OUT_BLOCK positions of the innermost outer axis (output
    # stride 1) written past the caches: how many positions the first block
    # leaves out, so that each other block's output is a whole cache line,
    # not parts of two (numpy's outputs start on 16 bytes).  Only where every
    # other output stride is a whole number of lines, so that all the blocks
    # start on one; otherwise 0.  Measured, Fortran arrays (n, 512, m) along
    # axis 0, 64 MiB, 2 threads: rows of 64 elements 1.05 (float64) to 1.46
    # (8-bit keys) times as fast, rows of 16 the same to 1.63 times.  Not
    # through the caches: 8 and 16 MiB, the same to 0.85 times (an extra
    # block, the first and last short, for 2 threads).
    cdef int d
    if layout.column_out_stride[0] % OUT_BLOCK:
        return 0
    for d in range(layout.outer_ndim - 1):
        if layout.outer_out_stride[d] % OUT_BLOCK:
            return 0
    return <size_t>layout.out // sizeof(int64_t) % OUT_BLOCK


cdef void touch_pages(char* p, Py_ssize_t nbytes, int num_threads) noexcept nogil:
    # A zero written to every page of nbytes at p, the pages split evenly
    # between the threads: a byte every PAGE_BYTES from p, and the last one
    # (p need not start a page).
    cdef Py_ssize_t k
    for k in prange((nbytes + PAGE_BYTES - 1) // PAGE_BYTES + 1, schedule='static',
                    num_threads=num_threads):
        p[min(k * PAGE_BYTES, nbytes - 1)] = 0


cdef int reduce_layout(
    const Layout* layout, int num_threads, key_t inf_bits, coding_t* coding, double* excess,
) noexcept nogil:
    # Fill layout.out; -1 when the scratch memory could not be had.  On more
    # than one thread, set excess to what the threads cost (threads_excess);
    # otherwise leave it.
    global threads_have_run
    cdef Py_ssize_t n = layout.reduced_len
    cdef Py_ssize_t size = sizeof(key_t)
    cdef Py_ssize_t outer = 1, widest, tile_len, chunk_capacity, items, work, w, t, inner, blocks
    cdef Py_ssize_t narrow, out_bytes
    cdef Py_ssize_t misalign
    cdef bint rows_follow, grouped, blocks_pay, whole, consecutive
    cdef Py_ssize_t thread_bytes, head_bytes, chunk_bytes, slack
    cdef char* chunk
    cdef Tiling tiling
    cdef char* memory = NULL
    cdef Scratch scratch[MAX_THREADS]
    cdef Pace pace[MAX_THREADS]
    cdef Py_ssize_t chunks
    cdef double start
    cdef key_t* partial_best = NULL
    cdef int64_t* partial_index = NULL
    cdef Layout blocked
    cdef int d, e
    for d in range(layout.outer_ndim):
        outer *= layout.outer_len[d]
    if outer == 0:
        return 0
    out_bytes = outer * layout.column_len * sizeof(int64_t)
    # A tile spans TILE_BYTES of each row: strided tiles (short rows read as
    # columns) are shorter, so that the lines they touch stay in cache until
    # the next row reads them.
    widest = min(layout.column_len, max(1, TILE_BYTES // max(size, layout.column_stride)))
    tile_len = widest
    # Columns whose rows follow each other: grouped rows (see column_chunk),
    # or narrower ones read as rows of lanes (packed_column_argmin), one tile
    # a column.
    rows_follow = (layout.column_ndim > 0 and layout.column_stride == size
                   and layout.reduced_stride == layout.column_len * size)
    grouped = rows_follow and grouped_rows(layout.column_len, size)
    tiling.pack_rows = (rows_follow and not grouped
                        and 2 * layout.column_len * size <= PACK_BYTES)
    # Rows that follow each other and are written one after another (see
    # short_row).
    consecutive = (layout.column_ndim == 1 and layout.column_stride == n * size
                   and -1 <= layout.column_out_stride[0] <= 1)
    tiling.short_rows = (layout.column_ndim > 0 and layout.reduced_stride == size
                         and short_row(n, size, consecutive))
    # Short rows, and columns, write an output element each: where their
    # column is written far apart but an outer axis next to each other (the
    # first axis of a Fortran array), a work item reads `block` tiles of that
    # axis, side by side (short rows) or one after another (columns), and
    # writes whole lines of output.  That axis becomes the innermost outer one
    # (in a copy of the layout): the outer axes can be walked in any order.
    # Short rows only of up to BLOCK_ROW_BYTES, or twice that in tiles of
    # BLOCK_TILE_BYTES or more: longer rows write too little output for the
    # blocks' scattered reads to pay, unless a block is read as one (see
    # BLOCK_COLUMN_BYTES).  Columns only where the blocks leave a
    # work item for each thread (blocks are not split along the reduced
    # axis).  Columns in blocks measured, 64 MiB, 2 threads: Fortran arrays
    # (n, 512 or 500, m) along axis 0, rows of 2 to 15 elements, 1.05 to 1.9
    # times as fast (2 to 6 times where m is a power of two, whose output
    # lines fall in the same cache sets; 0.88 times for float64 rows of 15);
    # columns whose rows follow each other, (n, 64, m) transposed from
    # Fortran order, n of 12 to 1000 elements: 1.1 to 1.6 times as fast.
    tiling.block = 1
    tiling.block_shift = 0
    tiling.stream_out = False
    blocks_pay = whole = False
    d = layout.outer_ndim - 1
    while d >= 0 and layout.outer_out_stride[d] != 1:
        d -= 1
    if layout.column_ndim == 1 and d >= 0:
        inner = layout.outer_len[d]
        blocks = outer // inner * ((inner + OUT_BLOCK - 1) // OUT_BLOCK)
        # Short rows that follow each other, in columns that follow each other
        # along that axis: a column in a tile, a block's tiles read as one
        # (see reduce_item).
        whole = (tiling.short_rows and layout.column_stride == n * size
                 and layout.outer_stride[d] == layout.column_len * n * size
                 and layout.column_len * max(n * size, OUT_BLOCK * (size + 8))
                 <= BLOCK_COLUMN_BYTES)
        if tiling.short_rows:
            blocks_pay = (whole or n * size <= BLOCK_ROW_BYTES
                          or (n * size <= 2 * BLOCK_ROW_BYTES
                              and widest * n * size >= BLOCK_TILE_BYTES))
        else:
            blocks_pay = (not -OUT_BLOCK <= layout.column_out_stride[0] <= OUT_BLOCK
                          and blocks * ((layout.column_len + widest - 1) // widest)
                          >= num_threads)
    if blocks_pay:
        if d < layout.outer_ndim - 1:
            blocked = layout[0]
            for e in range(d, layout.outer_ndim - 1):
                blocked.outer_len[e] = layout.outer_len[e + 1]
                blocked.outer_stride[e] = layout.outer_stride[e + 1]
                blocked.outer_out_stride[e] = layout.outer_out_stride[e + 1]
            blocked.outer_len[layout.outer_ndim - 1] = layout.outer_len[d]
            blocked.outer_stride[layout.outer_ndim - 1] = layout.outer_stride[d]
            blocked.outer_out_stride[layout.outer_ndim - 1] = 1
            layout = &blocked
        tiling.block = OUT_BLOCK
        tiling.stream_out = outer * layout.column_len * n * size >= stream_bytes
        if tiling.stream_out:
            tiling.block_shift = (line_shift(layout) if block_shift_set < 0
                                  else block_shift_set)
        if whole:
            tile_len = widest = layout.column_len
        outer = outer // inner * axis_blocks(inner, &tiling)
    if (num_threads > 1 and not tiling.pack_rows
            and not grouped
            and outer * ((layout.column_len + tile_len - 1) // tile_len) < num_threads):
        # Narrower tiles (of whole cache lines) give every thread some; not
        # of packed or grouped rows, whose threads take chunks of the reduced
        # axis instead, where it is long enough (grouped int16 rows of 64
        # measured 20 GB/s in tiles of half a row on 2 threads, 66 in chunks),
        # nor pieces under SPLIT_TILE_BYTES where it is long enough.
        narrow = (layout.column_len + num_threads - 1) // num_threads
        narrow = max(CACHE_LINE // size,
                     (narrow + CACHE_LINE // size - 1) & ~(CACHE_LINE // size - 1))
        narrow = min(narrow, widest)
        if (narrow * size >= SPLIT_TILE_BYTES or n * tile_len < 2 * MIN_SPLIT
                or tiling.block > 1):
            tile_len = narrow
    # A chunk's running minimum holds a tile, or a row of lanes (otherwise
    # it stays small: a small malloc is a fast one).
    chunk_capacity = PACK_BYTES // size if tiling.pack_rows else max(tile_len, group_lanes(size))
    tiling.shift = 0
    misalign = <size_t>layout.data % CACHE_LINE
    if (layout.column_ndim > 0 and layout.column_stride == size and layout.column_len > tile_len
            and misalign % size == 0 and misalign > 0):
        # Tiles that start on a cache line: a vector load that straddles
        # two lines costs about as much as two.
        tiling.shift = tile_len - (CACHE_LINE - misalign) // size
    tiling.tile_len = tile_len
    tiling.tiles = (layout.column_len + tiling.shift + tile_len - 1) // tile_len
    items = outer * tiling.tiles
    # Each thread's scratch starts on its own pair of cache lines: threads
    # that wrote to one line would take it from each other on every row.
    # Its running minimum and row numbers, when they span ALIAS_SPAN or
    # more, each take a whole number of ALIAS_SPAN and start SCRATCH_SHIFT
    # past the input in that span (shorter ones are left where they fall:
    # the larger allocation cost small calls 10%).
    head_bytes = (tiling.block * tile_len * (size + sizeof(int64_t)) + 127) & ~127
    slack = ALIAS_SPAN if chunk_capacity * size >= ALIAS_SPAN else 0
    chunk_bytes = (chunk_capacity * size + max(slack, 128) - 1) & ~(max(slack, 128) - 1)
    thread_bytes = head_bytes + slack + 2 * chunk_bytes
    tiling.splits = 1
    if (num_threads > 1 and items < num_threads and n * tile_len >= 2 * MIN_SPLIT
            and tiling.block == 1):
        tiling.splits = min((num_threads + items - 1) // items, n * tile_len // MIN_SPLIT)
    tiling.chunk = (n + tiling.splits - 1) // tiling.splits
    tiling.splits = (n + tiling.chunk - 1) // tiling.chunk
    work = items * tiling.splits
    num_threads = <int>min(<Py_ssize_t>num_threads, work, MAX_THREADS)

    memory = <char*>malloc(num_threads * thread_bytes + 128)
    if tiling.splits > 1:
        partial_best = <key_t*>malloc(work * tile_len * sizeof(key_t))
        partial_index = <int64_t*>malloc(work * tile_len * sizeof(int64_t))
    if memory == NULL or (tiling.splits > 1 and (partial_best == NULL or partial_index == NULL)):
        free(memory)
        free(partial_best)
        free(partial_index)
        return -1
    for t in range(num_threads):
        scratch[t].index = <int64_t*>(
            <char*>((<size_t>memory + 127) & ~(<size_t>127)) + t * thread_bytes)
        scratch[t].best = scratch[t].index + tiling.block * tile_len
        chunk = <char*>scratch[t].index + head_bytes
        if slack > 0:
            chunk += (<size_t>layout.data + SCRATCH_SHIFT - <size_t>chunk) & (ALIAS_SPAN - 1) & ~127
        scratch[t].chunk_best = chunk
        scratch[t].chunk_index = chunk + chunk_bytes

    if num_threads > 1:
        threads_have_run = True
        if tiling.block > 1 and out_bytes >= TOUCH_BYTES:
            # Blocks write lines all over the output, each thread: the
            # operating system clears a page of fresh memory at its first
            # write, one thread at a time, the others waiting for it.
            # Touched first, the pages split between the threads, Fortran
            # arrays (2 and 16, 512, m) along axis 0, 64 MiB, 2 threads:
            # outputs of 32 to 256 MiB 1.25 to 1.32 times as fast.  (Outputs
            # written in order measured up to 17% slower touched first:
            # their pages are cleared as they are written, the threads apart.)
            touch_pages(<char*>layout.out_start, out_bytes, num_threads)
        # The threads claim chunks of consecutive items one at a time: one that
        # starts late finds little or nothing left (see _threads.pxi).
        chunks = min(work, CHUNKS_PER_THREAD * num_threads)
        for t in range(num_threads):
            pace[t].busy = 0
            pace[t].elements = 0
        start = argmin_seconds()
        for w in prange(chunks, schedule='dynamic', num_threads=num_threads):
            t = argmin_thread_num()
            reduce_items(layout, &tiling, w * work // chunks, (w + 1) * work // chunks,
                         &scratch[t], &pace[t], partial_best, partial_index, inf_bits, coding)
        excess[0] = threads_excess(argmin_seconds() - start, pace, num_threads)
    else:
        # Without entering OpenMP at all: small inputs cost no more than a loop.
        for w in range(work):
            reduce_item(layout, &tiling, w, &scratch[0], partial_best, partial_index,
                        inf_bits, coding)
    if tiling.splits > 1:
        for w in range(items):
            merge_item(layout, &tiling, w, partial_best, partial_index)
    free(memory)
    free(partial_best)
    free(partial_index)
    return 0


cdef int run(const Layout* layout, cnp.dtype dtype, int num_threads, double* excess) except -1:
    # reduce_layout with the key type and coding of dtype, without the GIL.
    cdef int status
    cdef char kind = dtype.kind
    cdef Py_ssize_t size = dtype.itemsize
    if dtype.type_num == bfloat16_num:
        with nogil:
            status = reduce_layout[int16_t, float_coding](layout, num_threads, 0x7f80, NULL, excess)
    elif kind == b'f' and size == 2:
        with nogil:
            status = reduce_layout[int16_t, float_coding](layout, num_threads, 0x7c00, NULL, excess)
    elif kind == b'f' and size == 4:
        with nogil:
            status = reduce_layout[int32_t, float_coding](
                layout, num_threads, 0x7f800000, NULL, excess)
    elif kind == b'f' and size == 8:
        with nogil:
            status = reduce_layout[int64_t, float_coding](
                layout, num_threads, 0x7ff0000000000000, NULL, excess)
    elif kind == b'i' and size == 1:
        with nogil:
            status = reduce_layout[int8_t, integer_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'i' and size == 2:
        with nogil:
            status = reduce_layout[int16_t, integer_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'i' and size == 4:
        with nogil:
            status = reduce_layout[int32_t, integer_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'i' and size == 8:
        with nogil:
            status = reduce_layout[int64_t, integer_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'u' and size == 1:
        with nogil:
            status = reduce_layout[int8_t, unsigned_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'u' and size == 2:
        with nogil:
            status = reduce_layout[int16_t, unsigned_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'u' and size == 4:
        with nogil:
            status = reduce_layout[int32_t, unsigned_coding](layout, num_threads, 0, NULL, excess)
    elif kind == b'u' and size == 8:
        with nogil:
            status = reduce_layout[int64_t, unsigned_coding](layout, num_threads, 0, NULL, excess)
    else:
        raise TypeError(f"no ArgMin kernel for element type {dtype}")
    if status < 0:
        raise MemoryError("ArgMin could not allocate its scratch memory")
    return 0


def threads_started():
    """Whether a call has run OpenMP threads in this process."""
    return threads_have_run


# Fewest input bytes for which a call uses more than one thread (measured with
# benchmarks/threshold.py).
cdef Py_ssize_t parallel_bytes = 1 << 17


def parallel_threshold(nbytes=None):
    """Fewest input bytes for which a call uses more than one thread.

    With ``nbytes``, set it (for measuring where threads start to pay) and
    return the previous value.
    """
    global parallel_bytes
    previous = parallel_bytes
    if nbytes is not None:
        parallel_bytes = nbytes
    return previous


def prefetch_rows(ask=None):
    """Whether rows read one at a time are asked for ahead in software.

    Long rows, short rows kept for a search, and short rows paired with their
    positions in a single stream.  True by default on Intel CPUs, where that
    measured faster, and False elsewhere, where the hardware prefetchers alone
    did.  With ``ask``, set it (for tests and measurements) and return the
    previous value.
    """
    global ask_rows
    previous = ask_rows
    if ask is not None:
        ask_rows = ask
    return previous


def stream_threshold(nbytes=None):
    """Fewest input bytes for which output blocks are written past the caches.

    With ``nbytes``, set it (for tests and measurements) and return the
    previous value.
    """
    global stream_bytes
    previous = stream_bytes
    if nbytes is not None:
        stream_bytes = nbytes
    return previous


def block_shift(shift=None):
    """Positions the first output block of an axis leaves out, or -1: as ``line_shift`` finds.

    With ``shift`` (-1 to 7), set it (for tests) and return the previous value.
    """
    global block_shift_set
    previous = block_shift_set
    if shift is not None:
        if not -1 <= shift < OUT_BLOCK:
            raise ValueError(f"shift {shift} is not in [-1, {OUT_BLOCK})")
        block_shift_set = shift
    return previous


def short_row_bounds(Py_ssize_t itemsize):
    """The fewest and most elements of a row read as a short row, whatever ``row_limits``.

    Rows of 8- and 16-bit elements are paired with their positions in
    ``MIN_LANES`` lanes, so they need as many elements (with AVX-512BW or
    AVX2, in registers, two), and hold at most 256 (a pair's position has 8
    bits), except 16-bit elements with AVX-512BW, whose rows of more than 256
    are searched again for their minimum.  Rows of wider elements hold at
    most 2 KiB.
    """
    return short_row_min(itemsize), short_row_max(itemsize)


def row_way(Py_ssize_t n, Py_ssize_t itemsize):
    """How the rows of a C array of shape (rows, n) are read along axis 1.

    With the ``row_limits`` in use: ``"rows"`` one by one, ``"short"`` a tile
    of rows at a time, or ``"columns"`` across the rows, as strided columns.
    """
    if long_row(n, itemsize):
        return "rows"
    return "short" if short_row(n, itemsize, True) else "columns"


def row_limits(limits=None):
    """How contiguous rows are read: ``(short_row_len, min_row_len)``.

    Rows of more than ``short_row_len`` elements are read one by one, shorter
    ones a tile of rows at a time, except those of fewer than
    ``min_row_len`` elements, or outside ``short_row_bounds(itemsize)``, which
    are read across the rows, as strided columns.  -1 (the default) stands for
    the measured defaults, which depend on the element size (see ``row_way``).
    With ``limits``, set them (for measuring where each way pays) and return
    the previous ones.
    """
    global short_row_len, min_row_len
    previous = (short_row_len, min_row_len)
    if limits is not None:
        short_row_len, min_row_len = limits
    return previous


# The type number numpy gave ``ml_dtypes.bfloat16`` (a user type, so not fixed).
cdef int bfloat16_num = -1


def set_bfloat16(cnp.dtype dtype):
    """Register ``ml_dtypes.bfloat16``'s dtype, read as bfloat16 by the kernels."""
    global bfloat16_num
    bfloat16_num = dtype.type_num


def cpu_level():
    """Vector extensions of this CPU that the kernels can use.

    0: none beyond the architecture's baseline; 2: AVX2 (with FMA and BMI2);
    3: AVX-512 (F, BW, VL and DQ) as well.
    """
    return argmin_cpu_level()


def max_threads():
    """Threads an OpenMP parallel region would use now (1 without OpenMP).

    Follows OMP_NUM_THREADS and the limits threadpoolctl sets.
    """
    return argmin_max_threads()


def reduce_axis(cnp.ndarray data not None, int axis, bint keepdims, bint last, int num_threads):
    """ArgMin of ``data`` along ``axis`` as a new C-contiguous int64 array.

    The caller has checked the arguments: ``data`` has native byte order, a
    supported element type and at least one dimension, ``0 <= axis < ndim``,
    and ``data.shape[axis] > 0``.  ``num_threads`` is an upper bound, or 0 for
    the default, which the thread governor sets (see ``thread_debt``); small
    inputs use one thread.
    """
    cdef Layout layout
    cdef int ndim = cnp.PyArray_NDIM(data)
    if not 0 <= axis < ndim:
        raise ValueError(f"axis {axis} is not in [0, {ndim})")
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(data)
    cdef cnp.npy_intp* strides = cnp.PyArray_STRIDES(data)
    cdef cnp.npy_intp out_shape[MAX_DIMS]
    cdef cnp.npy_intp out_strides[MAX_DIMS]   # in elements, per input axis
    cdef cnp.npy_intp size = cnp.PyArray_ITEMSIZE(data)
    cdef Py_ssize_t n = shape[axis], length, stride, out_stride, column_stride
    cdef int d, e, out_ndim = 0, m = 0, merged
    cdef Py_ssize_t nbytes
    cdef double excess
    cdef bint rows
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
    layout.out = layout.out_start = <int64_t*>cnp.PyArray_DATA(out)
    layout.reduced_len = n
    layout.reduced_stride = strides[axis] if n > 1 else size
    layout.flip = layout.reduced_stride < 0
    if layout.flip:
        layout.data += (n - 1) * layout.reduced_stride
        layout.reduced_stride = -layout.reduced_stride
    layout.last = last != layout.flip

    # The other axes, longer than 1, read forwards, by decreasing stride.
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

    # Axes that are contiguous with each other in input and output merge:
    # fewer outer positions to walk, and a column's output written as one run.
    merged = 0
    for d in range(m):
        if (merged > 0 and layout.outer_stride[merged - 1] == layout.outer_len[d] * layout.outer_stride[d]
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
    m = merged

    # Rows when the reduced axis is contiguous and not short (or is the only
    # axis); columns otherwise, along the least spread-out axes.
    column_stride = layout.outer_stride[m - 1] if m > 0 else 0
    if m == 0:
        rows = True
    elif layout.reduced_stride == size:
        rows = long_row(n, size)
    elif column_stride == size:
        rows = False
    else:
        rows = layout.reduced_stride < column_stride
    layout.column_ndim = 0
    layout.column_len = 1
    layout.column_stride = column_stride
    if not rows:
        # The innermost axis, and the axes that continue it evenly in the
        # input, and for contiguous rows (an output element each) in the
        # output too.
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
    layout.end = layout.data + size
    for d in range(ndim):
        layout.end += (shape[d] - 1) * abs(strides[d])

    nbytes = n * cnp.PyArray_SIZE(out) * size
    if nbytes < parallel_bytes:
        run(&layout, <cnp.dtype>data.dtype, 1, &excess)
    else:
        governed(&layout, <cnp.dtype>data.dtype, num_threads, nbytes)
    return out


cdef int governed(
    const Layout* layout, cnp.dtype dtype, int num_threads, Py_ssize_t nbytes,
) except -1:
    # run() on the threads plan_threads gives; a default call (num_threads 0)
    # then settles with the governor (see _threads.pxi), but for the one whose
    # threads this process started (its time includes starting them).
    cdef double excess = NAN, start = argmin_seconds()
    cdef bint started = threads_have_run
    cdef int threads = plan_threads(num_threads, argmin_max_threads(), argmin_in_parallel(),
                                    nbytes, &governor)
    governor.threads_in_use += threads
    try:
        run(layout, dtype, threads, &excess)
    finally:
        governor.threads_in_use -= threads
    if num_threads == 0 and (started or isnan(excess)):
        settle(&governor, argmin_seconds() - start, excess, nbytes)
    return 0
