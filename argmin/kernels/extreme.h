/* Extremes: the smallest (or, where largest, the largest) of the n contiguous
 * float32, float64, float16, bfloat16, or 16-, 32- or 64-bit integers at p
 * (p need not be aligned),
 * and then, asked apart, the index of its first (or, where last, its last)
 * occurrence:
 *   int argmin_extreme_f32(const char *p, int64_t n, int largest, int last,
 *                          int skip_nan, float *out, argmin_run *run)
 *   int argmin_extreme_f64(..., double *out, argmin_run *run)
 *   int argmin_extreme_i32(const char *p, int64_t n, int largest, int last,
 *                          int is_unsigned, int32_t *out, argmin_run *run)
 *   int argmin_extreme_i64(..., int64_t *out, argmin_run *run)
 *   (and _i16, int16_t)
 *   int argmin_extreme_h16(const char *p, int64_t n, int largest, int last,
 *                          int16_t inf, int16_t *out, argmin_run *run)
 *   int64_t argmin_index_f32(const argmin_run *run, const char *p, int last)
 *   (and _f64, _h16, _i16, _i32, _i64, each of the run at p its extreme
 *   left, with the same last)
 * n is at least ARGMIN_EXTREME_LANES(size), four vectors of elements, and
 * at most ARGMIN_RUN_BYTES / size.  On success they return 1 and the extreme
 * in *out, and leave in *run what argmin_index_* reads to give its index.
 *
 * argmin_extreme_h16 takes float16 or bfloat16 (inf: the bits of their
 * infinity, the most a number's magnitude has), whose numbers no vector unit
 * here compares, by their bits folded into signed order: a negative value's
 * magnitude bits flipped (an involution).  The order of those keys is the
 * numbers', but for NaN and for -0.0 and +0.0, whose keys differ (-1 and 0).
 * It takes the least key (where largest, the greatest), puts out the bits of
 * the number it stands for, and returns 0 where an element is NaN, and where
 * the extreme is -0.0 (where largest, +0.0), which the other zero may equal:
 * the lanes' block starts do not tell the zeros apart.  Any other key is one
 * number's, found by its bits.
 *
 * Floats are compared as numbers: -0.0 and +0.0 compare equal, so either
 * may come out for a zero, and its index is that of the first (last) element
 * equal to it as a number.  Integers are compared as their bits, signed or (where
 * is_unsigned) unsigned.  The extremes return 0, and leave the outputs unset:
 * where an element is NaN, which no comparison orders, unless skip_nan;
 * where skip_nan and no element but the infinity of the other direction (or
 * NaN) was seen, which only the keys tell apart; where the extreme is a zero
 * or a subnormal and the CPU reads subnormal operands as zero (x86's DAZ,
 * which a library may set for the whole process: it would make subnormals
 * and zeros compare equal, but changes no order of a normal number); and on
 * targets with no vector loop for the type (integers, float16 and bfloat16
 * on the SSE2 baseline).
 *
 * The run is read four vectors at a time, a block, folded into one vector of
 * lane-wise extremes, `block`: min(v, m) is v < m ? v : m, so an unordered
 * comparison of each two vectors read marks a NaN, which could enter.  With
 * skip_nan each vector is first taken with the infinity of the other
 * direction, so no lane holds a NaN, and nothing is marked.  Where the run
 * holds eight blocks or more and p, on an element, is not on a vector's
 * width, the second block starts `head` elements in, where that width
 * starts, overlapping the first: then no vector of the blocks between the
 * first and the last straddles two cache lines.  The last block ends at the
 * run's end, overlapping those before it.  An element seen twice changes no
 * extreme.
 *
 * The running extreme `best` takes each block lane by lane, and each lane
 * keeps where the block starts that its extreme came from: the first block
 * that made it strictly better (where last, the last block that made it
 * better or equal).  The blocks, all as long, cover the run and start each
 * after the one before it, so among the lanes that hold the extreme, the
 * least (where last, the greatest) start is that of the first (last) block
 * to hold it, which holds its first (last) occurrence: the search for its
 * index reads only that block, without a branch.  That search is left to a
 * second call, which a caller makes only for a run whose index it needs:
 * most runs of a long row never improve on the ones before them. */
#ifndef ARGMIN_EXTREME_H
#define ARGMIN_EXTREME_H
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#define ARGMIN_EXTREME_BYTES 64
#define ARGMIN_VF(S) ARGMIN_VF512##S
#define ARGMIN_VF512s __m512
#define ARGMIN_VF512d __m512d
#define ARGMIN_OP(op, S) _mm512_##op##_p##S
/* The NaN marks: a mask register's bits, or'ed together; ARGMIN_MARK_NAN
 * marks the lanes where a or b is NaN. */
#define ARGMIN_NAN_MARKS(S) unsigned
#define ARGMIN_NO_NAN(S) 0u
#define ARGMIN_MARK_NAN(marks, a, b, S) ((marks) | ARGMIN_OP(cmp, S##_mask)(a, b, _CMP_UNORD_Q))
#define ARGMIN_ANY_NAN(marks, S) ((marks) != 0)
/* Block starts (see above), a lane of the elements' width K each: the
 * vector type, a K-bit integer in every lane, and ARGMIN_SELECT(keep, a, b,
 * K), a's lanes where keep, else b's; keep from ARGMIN_FEQUAL, the lanes
 * where two vectors of floats are equal as numbers (or ARGMIN_IEQUAL##K
 * below), and ARGMIN_LANE_BITS(keep, K) it as lane i at bit i. */
typedef __m512i argmin_vstart;
#define ARGMIN_BROADCAST16(at) _mm512_set1_epi16((int16_t)(at))
#define ARGMIN_BROADCAST32(at) _mm512_set1_epi32((int32_t)(at))
#define ARGMIN_BROADCAST64(at) _mm512_set1_epi64(at)
#define ARGMIN_SLOAD(q) _mm512_loadu_si512((const void *)(q))
#define ARGMIN_SSTORE(q, v) _mm512_storeu_si512((void *)(q), v)
#define ARGMIN_SELECT(keep, a, b, K) _mm512_mask_blend_epi##K(keep, b, a)
#define ARGMIN_FEQUAL(a, b, S) ARGMIN_OP(cmp, S##_mask)(a, b, _CMP_EQ_OQ)
#define ARGMIN_LANE_BITS(keep, K) ((unsigned)(keep))
/* From the integers' reductions below. */
#define ARGMIN_REDUCE_START(v, last, K) \
    ((last) ? ARGMIN_IREDUCE(max, i, K, v) : ARGMIN_IREDUCE(min, i, K, v))
#define ARGMIN_REDUCE(v, largest, S) \
    ((largest) ? ARGMIN_OP(reduce_max, S)(v) : ARGMIN_OP(reduce_min, S)(v))
#elif defined(__AVX2__)
#include <immintrin.h>
#define ARGMIN_EXTREME_BYTES 32
#define ARGMIN_VF(S) ARGMIN_VF256##S
#define ARGMIN_VF256s __m256
#define ARGMIN_VF256d __m256d
#define ARGMIN_OP(op, S) _mm256_##op##_p##S
/* The NaN marks: a vector of all-ones lanes where a NaN was, or'ed together. */
#define ARGMIN_NAN_MARKS(S) ARGMIN_VF(S)
#define ARGMIN_NO_NAN(S) ARGMIN_OP(setzero, S)()
#define ARGMIN_MARK_NAN(marks, a, b, S) \
    ARGMIN_OP(or, S)(marks, ARGMIN_OP(cmp, S)(a, b, _CMP_UNORD_Q))
#define ARGMIN_ANY_NAN(marks, S) (ARGMIN_OP(movemask, S)(marks) != 0)
/* Block starts: keep is a vector of all-ones lanes. */
typedef __m256i argmin_vstart;
#define ARGMIN_BROADCAST16(at) _mm256_set1_epi16((int16_t)(at))
#define ARGMIN_BROADCAST32(at) _mm256_set1_epi32((int32_t)(at))
#define ARGMIN_BROADCAST64(at) _mm256_set1_epi64x(at)
#define ARGMIN_SLOAD(q) _mm256_loadu_si256((const __m256i *)(q))
#define ARGMIN_SSTORE(q, v) _mm256_storeu_si256((__m256i *)(q), v)
#define ARGMIN_SELECT(keep, a, b, K) _mm256_blendv_epi8(b, a, keep)
#define ARGMIN_FEQUAL(a, b, S) _mm256_castp##S##_si256(ARGMIN_OP(cmp, S)(a, b, _CMP_EQ_OQ))
#define ARGMIN_LANE_BITS(keep, K) ARGMIN_LANE_BITS##K(keep)
/* 16-bit lanes packed to bytes, each half of the vector on its own. */
#define ARGMIN_LANE_BITS16(keep) argmin_lane_bits16(keep)
static inline unsigned argmin_lane_bits16(__m256i keep) {
    unsigned m = (unsigned)_mm256_movemask_epi8(_mm256_packs_epi16(keep, _mm256_setzero_si256()));
    return (m & 0xffu) | (m >> 8 & 0xff00u);
}
#define ARGMIN_LANE_BITS32(keep) ((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(keep)))
#define ARGMIN_LANE_BITS64(keep) ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(keep)))
/* From the integers' reductions below. */
#define ARGMIN_REDUCE_START(v, last, K) \
    ((last) ? argmin_reduce_max_epi##K(v) : argmin_reduce_min_epi##K(v))
/* The two halves folded into one SSE vector, then reduced as SSE does. */
#define ARGMIN_REDUCE(v, largest, S) argmin_reduce128##S( \
    (largest) ? _mm_max_p##S(_mm256_castp##S##256_p##S##128(v), _mm256_extractf128_p##S(v, 1)) \
              : _mm_min_p##S(_mm256_castp##S##256_p##S##128(v), _mm256_extractf128_p##S(v, 1)), \
    largest)
#elif defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define ARGMIN_EXTREME_BYTES 16
#define ARGMIN_VF(S) ARGMIN_VF128##S
#define ARGMIN_VF128s __m128
#define ARGMIN_VF128d __m128d
#define ARGMIN_OP(op, S) _mm_##op##_p##S
#define ARGMIN_NAN_MARKS(S) ARGMIN_VF(S)
#define ARGMIN_NO_NAN(S) ARGMIN_OP(setzero, S)()
#define ARGMIN_MARK_NAN(marks, a, b, S) ARGMIN_OP(or, S)(marks, ARGMIN_OP(cmpunord, S)(a, b))
#define ARGMIN_ANY_NAN(marks, S) (ARGMIN_OP(movemask, S)(marks) != 0)
/* Block starts: keep is a vector of all-ones lanes. */
typedef __m128i argmin_vstart;
#define ARGMIN_BROADCAST32(at) _mm_set1_epi32((int32_t)(at))
#define ARGMIN_BROADCAST64(at) _mm_set1_epi64x(at)
#define ARGMIN_SLOAD(q) _mm_loadu_si128((const __m128i *)(q))
#define ARGMIN_SSTORE(q, v) _mm_storeu_si128((__m128i *)(q), v)
#define ARGMIN_SELECT(keep, a, b, K) _mm_or_si128(_mm_and_si128(keep, a), _mm_andnot_si128(keep, b))
#define ARGMIN_FEQUAL(a, b, S) _mm_castp##S##_si128(ARGMIN_OP(cmpeq, S)(a, b))
#define ARGMIN_LANE_BITS(keep, K) ARGMIN_LANE_BITS##K(keep)
#define ARGMIN_LANE_BITS32(keep) ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(keep)))
#define ARGMIN_LANE_BITS64(keep) ((unsigned)_mm_movemask_pd(_mm_castsi128_pd(keep)))
#define ARGMIN_REDUCE_START(v, last, K) argmin_reduce_start##K(v, last)
/* The least (where last, the greatest) of the K-bit lanes of v. */
#define ARGMIN_REDUCE_START_K(K)                                                   \
    static inline int##K##_t argmin_reduce_start##K(__m128i v, int last) {         \
        int##K##_t lane[16 / (K / 8)], k;                                          \
        int j;                                                                     \
        _mm_storeu_si128((__m128i *)lane, v);                                      \
        for (k = lane[0], j = 1; j < 16 / (K / 8); j++)                            \
            k = (last ? lane[j] > k : lane[j] < k) ? lane[j] : k;                  \
        return k;                                                                  \
    }
ARGMIN_REDUCE_START_K(32)
ARGMIN_REDUCE_START_K(64)
#define ARGMIN_REDUCE(v, largest, S) argmin_reduce128##S(v, largest)
#else
#define ARGMIN_EXTREME_BYTES 0
#endif

/* Lanes of float32 (S s) and float64 (S d) in an SSE vector reduced to one. */
#if ARGMIN_EXTREME_BYTES == 16 || ARGMIN_EXTREME_BYTES == 32
static inline float argmin_reduce128s(__m128 v, int largest) {
    __m128 h = _mm_movehl_ps(v, v);
    v = largest ? _mm_max_ps(v, h) : _mm_min_ps(v, h);
    h = _mm_shuffle_ps(v, v, 1);
    v = largest ? _mm_max_ps(v, h) : _mm_min_ps(v, h);
    return _mm_cvtss_f32(v);
}
static inline double argmin_reduce128d(__m128d v, int largest) {
    __m128d h = _mm_unpackhi_pd(v, v);
    v = largest ? _mm_max_pd(v, h) : _mm_min_pd(v, h);
    return _mm_cvtsd_f64(v);
}
#endif

/* MXCSR's denormals-are-zero bit. */
#define ARGMIN_DAZ 0x40

/* Elements of four vectors of `size`-byte elements: the fewest n takes. */
#define ARGMIN_EXTREME_LANES(size) \
    (ARGMIN_EXTREME_BYTES ? 4 * ARGMIN_EXTREME_BYTES / (size) : 1)

/* The most bytes of a run: long rows' blocks and short rows are no longer,
 * and a block's start fits in a lane of the elements' width, 16 bits or
 * more. */
#define ARGMIN_RUN_BYTES 16384
_Static_assert(ARGMIN_RUN_BYTES / 2 - 1 <= INT16_MAX,
               "a block start of a run of 16-bit elements fits in a 16-bit lane");

/* What an extreme leaves for argmin_index_*: the running extreme `best` and
 * the lanes' block starts `at` (the first ARGMIN_EXTREME_BYTES of each), and
 * the extreme. */
typedef struct {
    unsigned char best[64], at[64];
    union {
        float f32;
        double f64;
        int16_t i16, h16;   /* h16: the bits of a float16 or bfloat16 */
        int32_t i32;
        int64_t i64;
    } extreme;
    /* Of an argmin_extreme_h16 run: its extreme's key, as `best` holds it. */
    int16_t h16_key;
} argmin_run;

/* The loop over a run's blocks, for every type: V the vector type, T the
 * element type and K its bits, LOAD(q) the vector at q, STORE(q, v),
 * TAKE(v, m) the extreme of each lane (m's where either is NaN), CLEAN(v) a
 * vector as it is taken, MARK(a, b) told of each two vectors read, EQUAL(a,
 * b) the lanes where a and b are equal.  It leaves the running extreme in
 * `best`, and it and the lanes' block starts in *run. */
#define ARGMIN_BLOCK_LOOP(V, T, K, LOAD, STORE, TAKE, CLEAN, MARK, EQUAL)          \
    const int64_t lanes = ARGMIN_EXTREME_BYTES / sizeof(T), step = 4 * lanes;     \
    /* The second block's start: head < lanes, so no element is left out. */    \
    const int64_t head = n < 8 * step || (uintptr_t)p % sizeof(T) ? 0              \
        : (int64_t)((0 - (uintptr_t)p) % ARGMIN_EXTREME_BYTES / sizeof(T));       \
    const int64_t second = head > 0 ? head : step;                                 \
    int64_t i, at;                                                                 \
    V v0, v1, v2, v3, block, taken, best = CLEAN(LOAD(p));                         \
    argmin_vstart starts = ARGMIN_BROADCAST##K(0), here;                           \
    for (i = 0; i < n; i = i == 0 ? second : i + step) {                           \
        at = i < n - step ? i : n - step;                                          \
        v0 = LOAD(p + at * (int64_t)sizeof(T));                                    \
        v1 = LOAD(p + (at + lanes) * (int64_t)sizeof(T));                          \
        v2 = LOAD(p + (at + 2 * lanes) * (int64_t)sizeof(T));                      \
        v3 = LOAD(p + (at + 3 * lanes) * (int64_t)sizeof(T));                      \
        MARK(v0, v1);                                                              \
        MARK(v2, v3);                                                              \
        block = TAKE(TAKE(CLEAN(v0), CLEAN(v1)), TAKE(CLEAN(v2), CLEAN(v3)));      \
        taken = TAKE(block, best);                                                 \
        here = ARGMIN_BROADCAST##K(at);                                            \
        starts = last ? ARGMIN_SELECT(EQUAL(taken, block), here, starts, K)        \
                      : ARGMIN_SELECT(EQUAL(taken, best), starts, here, K);        \
        best = taken;                                                              \
    }                                                                              \
    STORE(run->best, best);                                                        \
    ARGMIN_SSTORE(run->at, starts);

/* argmin_index_NAME: the first (where last, the last) index of the run's
 * extreme g, of type T of K bits, in the run at p: in the block at the least
 * (greatest) start among the lanes whose running extreme holds it, as KEY
 * (where HOLDS(running extreme, KEY); the other lanes' starts are replaced
 * by one that loses), the first (last) of its lanes where HOLDS(vector at
 * q, g), its vectors' lane bits side by side (in two words where 16-bit
 * elements fill more than 64 lanes).  No branch depends on the elements:
 * which lane holds the extreme is as good as random. */
#define ARGMIN_INDEX(NAME, T, K, KEY, HOLDS)                                       \
    static inline int64_t argmin_index_##NAME(                                     \
        const argmin_run *run, const char *p, int last) {                          \
        const int64_t lanes = ARGMIN_EXTREME_BYTES / sizeof(T);                    \
        const T g = run->extreme.NAME;                                             \
        const int64_t k = ARGMIN_REDUCE_START(ARGMIN_SELECT(                       \
            HOLDS(run->best, KEY), ARGMIN_SLOAD(run->at),                          \
            ARGMIN_BROADCAST##K(last ? -1 : INT##K##_MAX), K), last, K);           \
        uint64_t equal[2] = {0, 0};                                                \
        int64_t j;                                                                 \
        for (j = 0; j < 4 * lanes; j += lanes)                                     \
            equal[j / 64] |= (uint64_t)ARGMIN_LANE_BITS(                           \
                HOLDS(p + (k + j) * (int64_t)sizeof(T), g), K) << (j % 64);        \
        /* The word of the first (last) match: word 0 where all 4 * lanes bits     \
         * fit in it (all but 16-bit lanes of 512-bit vectors); else taken by      \
         * its place in `equal`, not by a branch (nor a select, which a            \
         * compiler may make one): which word holds it is as good as random,       \
         * and a missed branch on the elements holds up the next rows' loads. */   \
        {                                                                          \
            const int w = 4 * lanes <= 64 ? 0                                      \
                : last ? equal[1] != 0 : equal[0] == 0;                            \
            return k + 64 * w                                                      \
                + (last ? ARGMIN_LAST_BIT(equal[w]) : ARGMIN_FIRST_BIT(equal[w])); \
        }                                                                          \
    }

#if ARGMIN_EXTREME_BYTES
/* The float loop's parts, over the function's largest, skip_nan, worst (the
 * infinity a lane with no number holds) and marks. */
#define ARGMIN_FLOAD_s(q) ARGMIN_OP(loadu, s)((const float *)(q))
#define ARGMIN_FLOAD_d(q) ARGMIN_OP(loadu, d)((const double *)(q))
#define ARGMIN_FSTORE_s(q, v) ARGMIN_OP(storeu, s)((float *)(q), v)
#define ARGMIN_FSTORE_d(q, v) ARGMIN_OP(storeu, d)((double *)(q), v)
#define ARGMIN_FTAKE_s(a, m) (largest ? ARGMIN_OP(max, s)(a, m) : ARGMIN_OP(min, s)(a, m))
#define ARGMIN_FTAKE_d(a, m) (largest ? ARGMIN_OP(max, d)(a, m) : ARGMIN_OP(min, d)(a, m))
#define ARGMIN_FCLEAN_s(a) (skip_nan ? ARGMIN_FTAKE_s(a, ARGMIN_OP(set1, s)(worst)) : (a))
#define ARGMIN_FCLEAN_d(a) (skip_nan ? ARGMIN_FTAKE_d(a, ARGMIN_OP(set1, d)(worst)) : (a))
#define ARGMIN_FMARK_s(a, b) if (!skip_nan) marks = ARGMIN_MARK_NAN(marks, a, b, s)
#define ARGMIN_FMARK_d(a, b) if (!skip_nan) marks = ARGMIN_MARK_NAN(marks, a, b, d)
#define ARGMIN_FEQUAL_s(a, b) ARGMIN_FEQUAL(a, b, s)
#define ARGMIN_FEQUAL_d(a, b) ARGMIN_FEQUAL(a, b, d)
#define ARGMIN_FHOLDS_s(q, g) ARGMIN_FEQUAL_s(ARGMIN_FLOAD_s(q), ARGMIN_OP(set1, s)(g))
#define ARGMIN_FHOLDS_d(q, g) ARGMIN_FEQUAL_d(ARGMIN_FLOAD_d(q), ARGMIN_OP(set1, d)(g))
#define ARGMIN_EXTREME(K, S, T, NORMAL_MIN)                                        \
    static inline int argmin_extreme_f##K(                                         \
        const char *p, int64_t n, int largest, int last, int skip_nan,             \
        T *out, argmin_run *run) {                                                 \
        const T worst = largest ? -(T)INFINITY : (T)INFINITY;                      \
        ARGMIN_NAN_MARKS(S) marks = ARGMIN_NO_NAN(S);                              \
        T g;                                                                       \
        ARGMIN_BLOCK_LOOP(ARGMIN_VF(S), T, K, ARGMIN_FLOAD_##S, ARGMIN_FSTORE_##S, \
                          ARGMIN_FTAKE_##S, ARGMIN_FCLEAN_##S, ARGMIN_FMARK_##S,  \
                          ARGMIN_FEQUAL_##S)                                       \
        if (!skip_nan && ARGMIN_ANY_NAN(marks, S))                                 \
            return 0;                                                              \
        g = ARGMIN_REDUCE(best, largest, S);                                        \
        if (g < NORMAL_MIN && g > -NORMAL_MIN && (_mm_getcsr() & ARGMIN_DAZ))      \
            return 0;                                                              \
        if (skip_nan && g == worst)                                                \
            return 0;                                                              \
        run->extreme.f##K = g;                                                     \
        *out = g;                                                                  \
        return 1;                                                                  \
    }                                                                              \
    ARGMIN_INDEX(f##K, T, K, g, ARGMIN_FHOLDS_##S)
#else
/* Elsewhere the keys' vectorized loops decide. */
#define ARGMIN_EXTREME(K, S, T, NORMAL_MIN)                                        \
    static inline int argmin_extreme_f##K(                                         \
        const char *p, int64_t n, int largest, int last, int skip_nan,             \
        T *out, argmin_run *run) {                                                 \
        (void)p, (void)n, (void)largest, (void)last, (void)skip_nan, (void)out;    \
        (void)run;                                                                 \
        return 0;                                                                  \
    }                                                                              \
    static inline int64_t argmin_index_f##K(                                       \
        const argmin_run *run, const char *p, int last) {                          \
        (void)run, (void)p, (void)last;                                            \
        return 0;                                                                  \
    }
#endif

/* The integers' loops: M(op, u, K, as, flip) for each direction, signedness
 * (u: i signed, u unsigned) and width, whose lanes are taken xor flip and
 * compared with signedness `as`: as the type's own, with flip 0, but for
 * unsigned 64-bit lanes where the vector unit compares 64-bit lanes as signed
 * only (ARGMIN_U64, per target). */
#define ARGMIN_EACH_INT(M) \
    M(min, i, 16, i, 0) M(max, i, 16, i, 0) M(min, u, 16, u, 0) M(max, u, 16, u, 0) \
    M(min, i, 32, i, 0) M(max, i, 32, i, 0) M(min, u, 32, u, 0) M(max, u, 32, u, 0) \
    M(min, i, 64, i, 0) M(max, i, 64, i, 0) ARGMIN_U64(M, min) ARGMIN_U64(M, max)
/* The two halves of a 256-bit vector of 16-bit lanes folded into one. */
#define ARGMIN_HALVES128(op, u, v) \
    _mm_##op##_ep##u##16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))
#if defined(__AVX512F__)
/* The AVX-512 kernels have AVX512BW, which the 16-bit lanes take. */
#define ARGMIN_IEXTREME_BYTES 64
typedef __m512i argmin_vi;
#define ARGMIN_ILOAD(p) _mm512_loadu_si512((const void *)(p))
#define ARGMIN_ISTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define ARGMIN_IXOR(a, b) _mm512_xor_si512(a, b)
#define ARGMIN_IOP(op, u, K) _mm512_##op##_ep##u##K
#define ARGMIN_U64(M, op) M(op, u, 64, u, 0)
#define ARGMIN_IREDUCE(op, u, K, v) ARGMIN_IREDUCE##K(op, u, v)
#define ARGMIN_IREDUCE16(op, u, v) argmin_reduce_##op##_ep##u##16(v)
#define ARGMIN_IREDUCE32(op, u, v) _mm512_reduce_##op##_ep##u##32(v)
#define ARGMIN_IREDUCE64(op, u, v) _mm512_reduce_##op##_ep##u##64(v)
#define ARGMIN_IEQUAL16(a, b) _mm512_cmpeq_epi16_mask(a, b)
#define ARGMIN_IEQUAL32(a, b) _mm512_cmpeq_epi32_mask(a, b)
#define ARGMIN_IEQUAL64(a, b) _mm512_cmpeq_epi64_mask(a, b)
/* 16-bit lanes, which AVX-512 does not reduce, folded to 128 bits. */
#define ARGMIN_FOLD128_16(op, u, v) ARGMIN_HALVES128(op, u, \
    _mm256_##op##_ep##u##16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1)))
/* The keys of float16 or bfloat16 bits v (see argmin_extreme_h16): the
 * magnitude bits flipped where the sign is set. */
static inline __m512i argmin_half_keys(__m512i v) {
    return _mm512_xor_si512(v, _mm512_and_si512(
        _mm512_srai_epi16(v, 15), _mm512_set1_epi16(INT16_MAX)));
}
#elif defined(__AVX2__)
#define ARGMIN_IEXTREME_BYTES 32
typedef __m256i argmin_vi;
#define ARGMIN_ILOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ARGMIN_ISTORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define ARGMIN_IXOR(a, b) _mm256_xor_si256(a, b)
#define ARGMIN_IOP(op, u, K) argmin_##op##_ep##u##K
/* AVX2 compares 64-bit lanes as signed only: unsigned ones are taken with
 * their top bits flipped, which orders them as signed lanes. */
#define ARGMIN_U64(M, op) M(op, u, 64, i, INT64_MIN)
#define ARGMIN_IREDUCE(op, u, K, v) argmin_reduce_##op##_ep##u##K(v)
#define ARGMIN_IEQUAL16(a, b) _mm256_cmpeq_epi16(a, b)
#define ARGMIN_IEQUAL32(a, b) _mm256_cmpeq_epi32(a, b)
#define ARGMIN_IEQUAL64(a, b) _mm256_cmpeq_epi64(a, b)
#include "avx2_min64.h"
#define argmin_min_epi16 _mm256_min_epi16
#define argmin_max_epi16 _mm256_max_epi16
#define argmin_min_epu16 _mm256_min_epu16
#define argmin_max_epu16 _mm256_max_epu16
#define argmin_min_epi32 _mm256_min_epi32
#define argmin_max_epi32 _mm256_max_epi32
#define argmin_min_epu32 _mm256_min_epu32
#define argmin_max_epu32 _mm256_max_epu32
#define ARGMIN_FOLD128_16(op, u, v) ARGMIN_HALVES128(op, u, v)
/* The keys of float16 or bfloat16 bits v, as above. */
static inline __m256i argmin_half_keys(__m256i v) {
    return _mm256_xor_si256(v, _mm256_and_si256(
        _mm256_srai_epi16(v, 15), _mm256_set1_epi16(INT16_MAX)));
}
/* A vector's lanes reduced to one: halves folded onto halves. */
#define ARGMIN_REDUCE_INT(op, u, K)                                                \
    static inline int##K##_t argmin_reduce_##op##_ep##u##K(__m256i v) {            \
        int##K##_t lane[32 / (K / 8)];                                             \
        v = argmin_##op##_ep##u##K(v, _mm256_permute2x128_si256(v, v, 1));         \
        v = argmin_##op##_ep##u##K(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2))); \
        if (K == 32)                                                               \
            v = argmin_##op##_ep##u##K(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1))); \
        memcpy(lane, &v, sizeof(int##K##_t));                                      \
        return lane[0];                                                            \
    }
ARGMIN_REDUCE_INT(min, i, 32) ARGMIN_REDUCE_INT(max, i, 32)
ARGMIN_REDUCE_INT(min, u, 32) ARGMIN_REDUCE_INT(max, u, 32)
ARGMIN_REDUCE_INT(min, i, 64) ARGMIN_REDUCE_INT(max, i, 64)
#else
#define ARGMIN_IEXTREME_BYTES 0
#endif

#if ARGMIN_IEXTREME_BYTES
/* ARGMIN_INDEX sizes the vectors of block starts by the floats' vectors. */
_Static_assert(ARGMIN_IEXTREME_BYTES == ARGMIN_EXTREME_BYTES,
               "the integers' vectors are as wide as the floats'");
/* 16-bit lanes reduced to one: folded to 128 bits, then halves onto halves. */
#define ARGMIN_REDUCE_INT16(op, u)                                                 \
    static inline int16_t argmin_reduce_##op##_ep##u##16(argmin_vi v) {            \
        __m128i h = ARGMIN_FOLD128_16(op, u, v);                                   \
        h = _mm_##op##_ep##u##16(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(1, 0, 3, 2))); \
        h = _mm_##op##_ep##u##16(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(2, 3, 0, 1))); \
        h = _mm_##op##_ep##u##16(h, _mm_srli_epi32(h, 16));                        \
        return (int16_t)_mm_cvtsi128_si32(h);                                      \
    }
ARGMIN_REDUCE_INT16(min, i)
ARGMIN_REDUCE_INT16(max, i)
ARGMIN_REDUCE_INT16(min, u)
ARGMIN_REDUCE_INT16(max, u)
#define ARGMIN_SAME(a) (a)
#define ARGMIN_UNMARKED(a, b)
/* One direction and signedness: op min or max, u i or u, its lanes taken xor
 * flip (in the function's vector `flips`) and compared as `as` (see
 * ARGMIN_EACH_INT).  An xor leaves equal lanes equal, so the block starts are
 * kept as without it; and it is its own inverse: the running extreme is
 * stored, and its extreme put out, xor flip again, as the elements' bits. */
#define ARGMIN_IFLIP(v) ARGMIN_IXOR(v, flips)
#define ARGMIN_IFLIP_STORE(q, v) ARGMIN_ISTORE(q, ARGMIN_IFLIP(v))
#define ARGMIN_IEXTREME(op, u, K, as, flip)                                        \
    static inline int##K##_t argmin_##op##_ep##u##K##_run(                         \
        const char *p, int64_t n, int last, argmin_run *run) {                     \
        const argmin_vi flips = ARGMIN_BROADCAST##K(flip);                         \
        ARGMIN_BLOCK_LOOP(argmin_vi, int##K##_t, K, ARGMIN_ILOAD,                  \
                          ARGMIN_IFLIP_STORE, ARGMIN_IOP(op, as, K), ARGMIN_IFLIP, \
                          ARGMIN_UNMARKED, ARGMIN_IEQUAL##K)                       \
        return run->extreme.i##K =                                                 \
            (int##K##_t)(ARGMIN_IREDUCE(op, as, K, best) ^ (flip));                \
    }
ARGMIN_EACH_INT(ARGMIN_IEXTREME)
/* Integers are compared as their bits: unsigned extremes, held as signed
 * integers, are equal where their bits are. */
#define ARGMIN_IHOLDS16(q, g) ARGMIN_IEQUAL16(ARGMIN_ILOAD(q), ARGMIN_BROADCAST16(g))
#define ARGMIN_IHOLDS32(q, g) ARGMIN_IEQUAL32(ARGMIN_ILOAD(q), ARGMIN_BROADCAST32(g))
#define ARGMIN_IHOLDS64(q, g) ARGMIN_IEQUAL64(ARGMIN_ILOAD(q), ARGMIN_BROADCAST64(g))
ARGMIN_INDEX(i16, int16_t, 16, g, ARGMIN_IHOLDS16)
ARGMIN_INDEX(i32, int32_t, 32, g, ARGMIN_IHOLDS32)
ARGMIN_INDEX(i64, int64_t, 64, g, ARGMIN_IHOLDS64)
/* float16 and bfloat16: the keys (argmin_half_keys) of the vector at q, the
 * least of them (where largest, the greatest) taken, the other extreme into
 * `other`; the index of the extreme's bits, which the running extreme holds
 * as its key. */
#define ARGMIN_HLOAD(q) argmin_half_keys(ARGMIN_ILOAD(q))
#define ARGMIN_HMIN(a, b) ARGMIN_IOP(min, i, 16)(a, b)
#define ARGMIN_HMAX(a, b) ARGMIN_IOP(max, i, 16)(a, b)
#define ARGMIN_HTAKE(a, b) (largest ? ARGMIN_HMAX(a, b) : ARGMIN_HMIN(a, b))
#define ARGMIN_HMARK(a, b) \
    other = largest ? ARGMIN_HMIN(other, ARGMIN_HMIN(a, b)) : ARGMIN_HMAX(other, ARGMIN_HMAX(a, b))
ARGMIN_INDEX(h16, int16_t, 16, run->h16_key, ARGMIN_IHOLDS16)
#endif

static inline int argmin_extreme_h16(
    const char *p, int64_t n, int largest, int last, int16_t inf, int16_t *out,
    argmin_run *run) {
#if ARGMIN_IEXTREME_BYTES
    argmin_vi other = ARGMIN_BROADCAST16(largest ? INT16_MAX : INT16_MIN);
    int16_t g, least, most;
    ARGMIN_BLOCK_LOOP(argmin_vi, int16_t, 16, ARGMIN_HLOAD, ARGMIN_ISTORE,
                      ARGMIN_HTAKE, ARGMIN_SAME, ARGMIN_HMARK, ARGMIN_IEQUAL16)
    g = largest ? ARGMIN_IREDUCE(max, i, 16, best) : ARGMIN_IREDUCE(min, i, 16, best);
    least = largest ? ARGMIN_IREDUCE(min, i, 16, other) : g;
    most = largest ? g : ARGMIN_IREDUCE(max, i, 16, other);
    /* A number's key lies in [-inf - 1, inf]; a NaN's, beyond. */
    if (least < -inf - 1 || most > inf || g == (largest ? 0 : -1))
        return 0;
    run->h16_key = g;
    *out = run->extreme.h16 = g < 0 ? g ^ INT16_MAX : g;
    return 1;
#else
    (void)p, (void)n, (void)largest, (void)last, (void)inf, (void)out, (void)run;
    return 0;
#endif
}

#define ARGMIN_EXTREME_INT(K)                                                      \
    static inline int argmin_extreme_i##K(                                         \
        const char *p, int64_t n, int largest, int last, int is_unsigned,          \
        int##K##_t *out, argmin_run *run) {                                        \
        ARGMIN_EXTREME_INT_RUN(K)                                                  \
    }
#if ARGMIN_IEXTREME_BYTES
#define ARGMIN_EXTREME_INT_RUN(K)                                                  \
    if (is_unsigned)                                                               \
        *out = largest ? argmin_max_epu##K##_run(p, n, last, run)                  \
                       : argmin_min_epu##K##_run(p, n, last, run);                 \
    else                                                                           \
        *out = largest ? argmin_max_epi##K##_run(p, n, last, run)                  \
                       : argmin_min_epi##K##_run(p, n, last, run);                 \
    return 1;
#else
#define ARGMIN_EXTREME_INT_RUN(K)                                                  \
    (void)p, (void)n, (void)largest, (void)last, (void)is_unsigned, (void)out;     \
    (void)run;                                                                     \
    return 0;
/* Never called: the extremes above take no run. */
#define ARGMIN_NO_INDEX(NAME)                                                      \
    static inline int64_t argmin_index_##NAME(                                     \
        const argmin_run *run, const char *p, int last) {                          \
        (void)run, (void)p, (void)last;                                            \
        return 0;                                                                  \
    }
ARGMIN_NO_INDEX(h16)
ARGMIN_NO_INDEX(i16)
ARGMIN_NO_INDEX(i32)
ARGMIN_NO_INDEX(i64)
#endif
ARGMIN_EXTREME_INT(16)
ARGMIN_EXTREME_INT(32)
ARGMIN_EXTREME_INT(64)
ARGMIN_EXTREME(32, s, float, FLT_MIN)
ARGMIN_EXTREME(64, d, double, DBL_MIN)
#endif
