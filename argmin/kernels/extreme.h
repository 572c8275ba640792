/* Extremes: the smallest (or, where largest, the largest) of the n contiguous
 * float32, float64, or 32- or 64-bit integers at p (p need not be aligned),
 * and then, asked apart, the span of the run that holds its first (or, where
 * last, its last) occurrence:
 *   int argmin_extreme_f32(const char *p, int64_t n, int largest, int skip_nan,
 *                          float *out, argmin_spans *spans)
 *   int argmin_extreme_f64(..., double *out, argmin_spans *spans)
 *   int argmin_extreme_i32(const char *p, int64_t n, int largest, int is_unsigned,
 *                          int32_t *out, argmin_spans *spans)
 *   int argmin_extreme_i64(..., int64_t *out, argmin_spans *spans)
 *   void argmin_span_f32(const argmin_spans *spans, int last, int64_t *from, int64_t *to)
 *   (and _f64, _i32, _i64, each of the spans its extreme left)
 * n is at least ARGMIN_EXTREME_LANES(size), four vectors of elements, and
 * at most ARGMIN_RUN_BYTES / size (see below).  On
 * success they return 1 and the extreme in *out, and leave in *spans what
 * argmin_span_* reads to give the span, [*from, *to).
 *
 * Floats are compared as numbers: -0.0 and +0.0 compare equal, so either
 * may come out for a zero, and the span holds the first (last) element equal
 * to it as a number.  Integers are compared as their bits, signed or (where
 * is_unsigned) unsigned.  The extremes return 0, and leave the outputs unset:
 * where an element is NaN, which no comparison orders, unless skip_nan;
 * where skip_nan and no element but the infinity of the other direction (or
 * NaN) was seen, which only the keys tell apart; where the extreme is a zero
 * or a subnormal and the CPU reads subnormal operands as zero (x86's DAZ,
 * which a library may set for the whole process: it would make subnormals
 * and zeros compare equal, but changes no order of a normal number); and on
 * targets with no vector loop for the type (integers on the SSE2 baseline).
 *
 * Four vector accumulators (one would leave the loop bound by the latency
 * of its comparisons), each taking the lesser of itself and the next vector:
 * min(v, m) is v < m ? v : m, so a NaN element never enters, and an
 * unordered comparison of each two vectors marks it.  With skip_nan the
 * accumulators start from the first vectors each taken with that infinity,
 * so no lane holds a NaN, and nothing is marked.  The last four vectors end
 * at the run's end, overlapping those before them: an element seen twice
 * changes no extreme.
 *
 * The run, of at most ARGMIN_RUN_BYTES, is read in spans of
 * ARGMIN_SPAN_BYTES (the last may be shorter), each folded into one vector
 * of lane-wise extremes that is kept.
 * The first (last) span whose vector holds the extreme holds its first (last)
 * occurrence: the search for its index need read only that span.  Finding
 * that span is left to a second call, which a caller makes only for a run
 * whose index it needs: most runs of a long row never improve on the ones
 * before them. */
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
#define ARGMIN_ANY_EQUAL(v, g, S) (ARGMIN_OP(cmp, S##_mask)(v, ARGMIN_OP(set1, S)(g), _CMP_EQ_OQ) != 0)
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
#define ARGMIN_MARK_NAN(marks, a, b, S) ARGMIN_OP(or, S)(marks, ARGMIN_OP(cmp, S)(a, b, _CMP_UNORD_Q))
#define ARGMIN_ANY_NAN(marks, S) (ARGMIN_OP(movemask, S)(marks) != 0)
#define ARGMIN_ANY_EQUAL(v, g, S) \
    (ARGMIN_OP(movemask, S)(ARGMIN_OP(cmp, S)(v, ARGMIN_OP(set1, S)(g), _CMP_EQ_OQ)) != 0)
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
#define ARGMIN_ANY_EQUAL(v, g, S) \
    (ARGMIN_OP(movemask, S)(ARGMIN_OP(cmpeq, S)(v, ARGMIN_OP(set1, S)(g))) != 0)
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

/* Bytes of a span, the most spans of a run, and so the most bytes of a run
 * (see above). */
#define ARGMIN_SPAN_BYTES 1024
#define ARGMIN_SPANS 16
#define ARGMIN_RUN_BYTES (ARGMIN_SPANS * ARGMIN_SPAN_BYTES)

/* What an extreme leaves for argmin_span_*: each span's vector (the first
 * ARGMIN_EXTREME_BYTES of each row of `vector`), the run's length, the
 * spans' length and count, and the extreme. */
typedef struct {
    unsigned char vector[ARGMIN_SPANS][64];
    int64_t n, span_len;
    int count;
    union {
        float f32;
        double f64;
        int32_t i32;
        int64_t i64;
    } extreme;
} argmin_spans;

/* The loop over a run's spans, for every type: V the vector type, T the
 * element type, LOAD(q) the vector at q, STORE(q, v), TAKE(v, m) the extreme
 * of each lane, m's where either is NaN, FIRST(v) what an accumulator starts
 * from, MARK(a, b) told of each two vectors read.  It leaves the spans in
 * *spans, and all of them taken in `total` (which starts from the first
 * vector, read again in the first span). */
#define ARGMIN_READ_FOUR(T, LOAD, MARK)                                            \
    at = i < n - step ? i : n - step;                                              \
    v0 = LOAD(p + at * (int64_t)sizeof(T));                                        \
    v1 = LOAD(p + (at + lanes) * (int64_t)sizeof(T));                              \
    v2 = LOAD(p + (at + 2 * lanes) * (int64_t)sizeof(T));                          \
    v3 = LOAD(p + (at + 3 * lanes) * (int64_t)sizeof(T));                          \
    MARK(v0, v1);                                                                  \
    MARK(v2, v3);
#define ARGMIN_SPAN_LOOP(V, T, LOAD, STORE, TAKE, FIRST, MARK)                     \
    const int64_t lanes = ARGMIN_EXTREME_BYTES / sizeof(T), step = 4 * lanes;     \
    const int64_t span_len = ARGMIN_SPAN_BYTES / sizeof(T);                        \
    int64_t start, stop, i, at;                                                    \
    V v0, v1, v2, v3, m0, m1, m2, m3, span, total = FIRST(LOAD(p));                \
    int count = 0;                                                                 \
    for (start = 0; start < n; start = stop) {                                     \
        stop = n - start > span_len ? start + span_len : n;                        \
        i = start;                                                                 \
        ARGMIN_READ_FOUR(T, LOAD, MARK)                                            \
        m0 = FIRST(v0), m1 = FIRST(v1), m2 = FIRST(v2), m3 = FIRST(v3);            \
        for (i = start + step; i < stop; i += step) {                              \
            ARGMIN_READ_FOUR(T, LOAD, MARK)                                        \
            m0 = TAKE(v0, m0), m1 = TAKE(v1, m1), m2 = TAKE(v2, m2), m3 = TAKE(v3, m3); \
        }                                                                          \
        span = TAKE(TAKE(m0, m1), TAKE(m2, m3));                                   \
        STORE(spans->vector[count], span);                                         \
        total = TAKE(span, total);                                                 \
        count++;                                                                   \
    }                                                                              \
    spans->n = n;                                                                  \
    spans->span_len = span_len;                                                    \
    spans->count = count;

/* argmin_span_K: the first (last) span whose vector has a lane for which
 * HOLDS(vector at q, g), g the extreme of type T, into [*from, *to).  Every
 * span is tested, without a branch, into a bit each (a branch would be
 * mispredicted about once a run).  A span's first vectors start at most four
 * vectors before the run's end. */
#define ARGMIN_SPAN(K, T, HOLDS)                                                   \
    static inline void argmin_span_##K(                                            \
        const argmin_spans *spans, int last, int64_t *from, int64_t *to) {         \
        const int64_t n = spans->n, span_len = spans->span_len;                    \
        const int64_t step = ARGMIN_EXTREME_LANES(sizeof(T));                      \
        const T g = spans->extreme.K;                                              \
        uint64_t holding = 0;                                                      \
        int64_t k = 0;                                                             \
        if (spans->count > 1) {                                                    \
            for (k = 0; k < spans->count; k++)                                     \
                holding |= (uint64_t)HOLDS(spans->vector[k], g) << k;              \
            k = last ? ARGMIN_LAST_BIT(holding) : ARGMIN_FIRST_BIT(holding);       \
        }                                                                          \
        *from = k * span_len < n - step ? k * span_len : n - step;                 \
        *to = n - k * span_len > span_len ? (k + 1) * span_len : n;                \
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
#define ARGMIN_FFIRST_s(a) (skip_nan ? ARGMIN_FTAKE_s(a, ARGMIN_OP(set1, s)(worst)) : (a))
#define ARGMIN_FFIRST_d(a) (skip_nan ? ARGMIN_FTAKE_d(a, ARGMIN_OP(set1, d)(worst)) : (a))
#define ARGMIN_FMARK_s(a, b) if (!skip_nan) marks = ARGMIN_MARK_NAN(marks, a, b, s)
#define ARGMIN_FMARK_d(a, b) if (!skip_nan) marks = ARGMIN_MARK_NAN(marks, a, b, d)
#define ARGMIN_FHOLDS_s(q, g) ARGMIN_ANY_EQUAL(ARGMIN_FLOAD_s(q), g, s)
#define ARGMIN_FHOLDS_d(q, g) ARGMIN_ANY_EQUAL(ARGMIN_FLOAD_d(q), g, d)
#define ARGMIN_EXTREME(K, S, T, NORMAL_MIN)                                        \
    static inline int argmin_extreme_f##K(                                         \
        const char *p, int64_t n, int largest, int skip_nan,                       \
        T *out, argmin_spans *spans) {                                             \
        const T worst = largest ? -(T)INFINITY : (T)INFINITY;                      \
        ARGMIN_NAN_MARKS(S) marks = ARGMIN_NO_NAN(S);                              \
        T g;                                                                       \
        ARGMIN_SPAN_LOOP(ARGMIN_VF(S), T, ARGMIN_FLOAD_##S, ARGMIN_FSTORE_##S,     \
                         ARGMIN_FTAKE_##S, ARGMIN_FFIRST_##S, ARGMIN_FMARK_##S)    \
        if (!skip_nan && ARGMIN_ANY_NAN(marks, S))                                 \
            return 0;                                                              \
        g = ARGMIN_REDUCE(total, largest, S);                                      \
        if (g < NORMAL_MIN && g > -NORMAL_MIN && (_mm_getcsr() & ARGMIN_DAZ))      \
            return 0;                                                              \
        if (skip_nan && g == worst)                                                \
            return 0;                                                              \
        spans->extreme.f##K = g;                                                   \
        *out = g;                                                                  \
        return 1;                                                                  \
    }                                                                              \
    ARGMIN_SPAN(f##K, T, ARGMIN_FHOLDS_##S)
#else
/* Elsewhere the keys' vectorized loops decide. */
#define ARGMIN_EXTREME(K, S, T, NORMAL_MIN)                                        \
    static inline int argmin_extreme_f##K(                                         \
        const char *p, int64_t n, int largest, int skip_nan,                       \
        T *out, argmin_spans *spans) {                                             \
        (void)p, (void)n, (void)largest, (void)skip_nan, (void)out, (void)spans;   \
        return 0;                                                                  \
    }                                                                              \
    static inline void argmin_span_f##K(                                           \
        const argmin_spans *spans, int last, int64_t *from, int64_t *to) {         \
        (void)spans, (void)last, (void)from, (void)to;                             \
    }
#endif
ARGMIN_EXTREME(32, s, float, FLT_MIN)
ARGMIN_EXTREME(64, d, double, DBL_MIN)

/* The integers' loops: M(op, u, K) for each direction, signedness and width. */
#define ARGMIN_EACH_INT(M) \
    M(min, i, 32) M(max, i, 32) M(min, u, 32) M(max, u, 32) \
    M(min, i, 64) M(max, i, 64) M(min, u, 64) M(max, u, 64)
#if defined(__AVX512F__)
#define ARGMIN_IEXTREME_BYTES 64
typedef __m512i argmin_vi;
#define ARGMIN_ILOAD(p) _mm512_loadu_si512((const void *)(p))
#define ARGMIN_ISTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define ARGMIN_IOP(op, u, K) _mm512_##op##_ep##u##K
#define ARGMIN_IREDUCE(op, u, K, v) _mm512_reduce_##op##_ep##u##K(v)
#define ARGMIN_IHOLDS32(q, g) (_mm512_cmpeq_epi32_mask(ARGMIN_ILOAD(q), _mm512_set1_epi32(g)) != 0)
#define ARGMIN_IHOLDS64(q, g) (_mm512_cmpeq_epi64_mask(ARGMIN_ILOAD(q), _mm512_set1_epi64(g)) != 0)
#elif defined(__AVX2__)
#define ARGMIN_IEXTREME_BYTES 32
typedef __m256i argmin_vi;
#define ARGMIN_ILOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ARGMIN_ISTORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define ARGMIN_IOP(op, u, K) argmin_##op##_ep##u##K
#define ARGMIN_IREDUCE(op, u, K, v) argmin_reduce_##op##_ep##u##K(v)
#define ARGMIN_IHOLDS32(q, g) \
    (_mm256_movemask_epi8(_mm256_cmpeq_epi32(ARGMIN_ILOAD(q), _mm256_set1_epi32(g))) != 0)
#define ARGMIN_IHOLDS64(q, g) \
    (_mm256_movemask_epi8(_mm256_cmpeq_epi64(ARGMIN_ILOAD(q), _mm256_set1_epi64x(g))) != 0)
#include "avx2_min64.h"
#define argmin_min_epi32 _mm256_min_epi32
#define argmin_max_epi32 _mm256_max_epi32
#define argmin_min_epu32 _mm256_min_epu32
#define argmin_max_epu32 _mm256_max_epu32
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
ARGMIN_EACH_INT(ARGMIN_REDUCE_INT)
#else
#define ARGMIN_IEXTREME_BYTES 0
#endif

#if ARGMIN_IEXTREME_BYTES
#define ARGMIN_SAME(a) (a)
#define ARGMIN_UNMARKED(a, b)
/* One direction and signedness: op min or max, u i or u. */
#define ARGMIN_IEXTREME(op, u, K)                                                  \
    static inline int##K##_t argmin_##op##_ep##u##K##_run(                         \
        const char *p, int64_t n, argmin_spans *spans) {                           \
        ARGMIN_SPAN_LOOP(argmin_vi, int##K##_t, ARGMIN_ILOAD, ARGMIN_ISTORE,       \
                         ARGMIN_IOP(op, u, K), ARGMIN_SAME, ARGMIN_UNMARKED)       \
        return spans->extreme.i##K = ARGMIN_IREDUCE(op, u, K, total);              \
    }
ARGMIN_EACH_INT(ARGMIN_IEXTREME)
ARGMIN_SPAN(i32, int32_t, ARGMIN_IHOLDS32)
ARGMIN_SPAN(i64, int64_t, ARGMIN_IHOLDS64)
#endif

#define ARGMIN_EXTREME_INT(K)                                                      \
    static inline int argmin_extreme_i##K(                                         \
        const char *p, int64_t n, int largest, int is_unsigned,                    \
        int##K##_t *out, argmin_spans *spans) {                                    \
        ARGMIN_EXTREME_INT_RUN(K)                                                  \
    }
#if ARGMIN_IEXTREME_BYTES
#define ARGMIN_EXTREME_INT_RUN(K)                                                  \
    if (is_unsigned)                                                               \
        *out = largest ? argmin_max_epu##K##_run(p, n, spans)                      \
                       : argmin_min_epu##K##_run(p, n, spans);                     \
    else                                                                           \
        *out = largest ? argmin_max_epi##K##_run(p, n, spans)                      \
                       : argmin_min_epi##K##_run(p, n, spans);                     \
    return 1;
#else
#define ARGMIN_EXTREME_INT_RUN(K)                                                  \
    (void)p, (void)n, (void)largest, (void)is_unsigned, (void)out, (void)spans;    \
    return 0;
/* Never called: the extremes above take no run. */
#define ARGMIN_NO_SPAN(K)                                                          \
    static inline void argmin_span_i##K(                                           \
        const argmin_spans *spans, int last, int64_t *from, int64_t *to) {         \
        (void)spans, (void)last, (void)from, (void)to;                             \
    }
ARGMIN_NO_SPAN(32)
ARGMIN_NO_SPAN(64)
#endif
ARGMIN_EXTREME_INT(32)
ARGMIN_EXTREME_INT(64)
#endif
