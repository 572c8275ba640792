/* The smallest (or, where largest, the largest) of the n contiguous float32
 * or float64 at p, compared as numbers (p need not be aligned):
 *   int argmin_extreme_f32(const char *p, int64_t n, int largest, int skip_nan, float *out)
 *   int argmin_extreme_f64(const char *p, int64_t n, int largest, int skip_nan, double *out)
 * n is at least ARGMIN_EXTREME_LANES(size), four vectors of elements.  They
 * return 0, and leave *out unset, where an element is NaN, which no
 * comparison orders, unless skip_nan; where skip_nan and no element but the
 * infinity of the other direction (or NaN) was seen, which only the keys
 * tell apart; where the CPU reads subnormal operands as zero (x86's DAZ,
 * which a library may set for the whole process), which would make
 * subnormals and zeros compare equal; and on targets with no vector loop.
 * Otherwise 1.
 *
 * Four vector accumulators (one would leave the loop bound by the latency
 * of its comparisons), each taking the lesser of itself and the next vector:
 * min(v, m) is v < m ? v : m, so a NaN element never enters, and an
 * unordered comparison of each vector with itself marks it.  With skip_nan
 * the accumulators start at that infinity and take the first vectors too,
 * so no lane holds a NaN.  The last four vectors end at the run's end,
 * overlapping those before them: an element seen twice changes no extreme.
 * -0.0 and +0.0 compare equal, so either may come out for a zero. */
#ifndef ARGMIN_EXTREME_H
#define ARGMIN_EXTREME_H
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__AVX512F__)
#include <immintrin.h>
#define ARGMIN_EXTREME_BYTES 64
#define ARGMIN_VF(S) ARGMIN_VF512##S
#define ARGMIN_VF512s __m512
#define ARGMIN_VF512d __m512d
#define ARGMIN_OP(op, S) _mm512_##op##_p##S
/* The NaN marks: a mask register's bits, or'ed together. */
#define ARGMIN_NAN_MARKS(S) unsigned
#define ARGMIN_NO_NAN(S) 0u
#define ARGMIN_MARK_NAN(marks, v, S) ((marks) | ARGMIN_OP(cmp, S##_mask)(v, v, _CMP_UNORD_Q))
#define ARGMIN_ANY_NAN(marks, S) ((marks) != 0)
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
#define ARGMIN_MARK_NAN(marks, v, S) ARGMIN_OP(or, S)(marks, ARGMIN_OP(cmp, S)(v, v, _CMP_UNORD_Q))
#define ARGMIN_ANY_NAN(marks, S) (ARGMIN_OP(movemask, S)(marks) != 0)
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
#define ARGMIN_MARK_NAN(marks, v, S) ARGMIN_OP(or, S)(marks, ARGMIN_OP(cmpunord, S)(v, v))
#define ARGMIN_ANY_NAN(marks, S) (ARGMIN_OP(movemask, S)(marks) != 0)
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

#if ARGMIN_EXTREME_BYTES
#define ARGMIN_EXTREME(K, S, T)                                                    \
    static inline int argmin_extreme_f##K(                                         \
        const char *p, int64_t n, int largest, int skip_nan, T *out) {             \
        typedef ARGMIN_VF(S) vector;                                               \
        const int64_t lanes = ARGMIN_EXTREME_BYTES / sizeof(T);                    \
        const T start = largest ? -(T)INFINITY : (T)INFINITY;                      \
        ARGMIN_NAN_MARKS(S) marks = ARGMIN_NO_NAN(S);                              \
        vector m[4], v;                                                            \
        int64_t i, at;                                                             \
        int k;                                                                     \
        if (_mm_getcsr() & ARGMIN_DAZ)                                             \
            return 0;                                                              \
        for (k = 0; k < 4; k++)                                                    \
            m[k] = ARGMIN_OP(loadu, S)((const T *)(p + k * ARGMIN_EXTREME_BYTES)); \
        for (k = 0; k < 4; k++) {                                                  \
            marks = ARGMIN_MARK_NAN(marks, m[k], S);                               \
            if (skip_nan)                                                          \
                m[k] = largest ? ARGMIN_OP(max, S)(m[k], ARGMIN_OP(set1, S)(start)) \
                               : ARGMIN_OP(min, S)(m[k], ARGMIN_OP(set1, S)(start)); \
        }                                                                          \
        for (i = 4 * lanes; i < n; i += 4 * lanes) {                               \
            at = i < n - 4 * lanes ? i : n - 4 * lanes;                            \
            for (k = 0; k < 4; k++) {                                              \
                v = ARGMIN_OP(loadu, S)((const T *)(p + (at + k * lanes) * sizeof(T))); \
                marks = ARGMIN_MARK_NAN(marks, v, S);                              \
                m[k] = largest ? ARGMIN_OP(max, S)(v, m[k]) : ARGMIN_OP(min, S)(v, m[k]); \
            }                                                                      \
        }                                                                          \
        if (!skip_nan && ARGMIN_ANY_NAN(marks, S))                                 \
            return 0;                                                              \
        if (largest) {                                                             \
            v = ARGMIN_OP(max, S)(ARGMIN_OP(max, S)(m[0], m[1]),                   \
                                  ARGMIN_OP(max, S)(m[2], m[3]));                  \
        } else {                                                                   \
            v = ARGMIN_OP(min, S)(ARGMIN_OP(min, S)(m[0], m[1]),                   \
                                  ARGMIN_OP(min, S)(m[2], m[3]));                  \
        }                                                                          \
        *out = ARGMIN_REDUCE(v, largest, S);                                       \
        return !skip_nan || *out != start;                                         \
    }
#else
/* Elsewhere the keys' vectorized loops decide. */
#define ARGMIN_EXTREME(K, S, T)                                                    \
    static inline int argmin_extreme_f##K(                                         \
        const char *p, int64_t n, int largest, int skip_nan, T *out) {             \
        (void)p, (void)n, (void)largest, (void)skip_nan, (void)out;                \
        return 0;                                                                  \
    }
#endif
ARGMIN_EXTREME(32, s, float)
ARGMIN_EXTREME(64, d, double)

/* The smallest (or largest) of the n contiguous 32- or 64-bit integers at p,
 * signed or (where is_unsigned) unsigned, into *out as their bits; n is at
 * least ARGMIN_EXTREME_LANES(size):
 *   int argmin_extreme_i32(const char *p, int64_t n, int largest, int is_unsigned, int32_t *out)
 *   int argmin_extreme_i64(const char *p, int64_t n, int largest, int is_unsigned, int64_t *out)
 * They return 0, and leave *out unset, where this target has no vector loop
 * for them (the SSE2 baseline), and 1 otherwise: the same four accumulators
 * as for floats. */
/* M(op, u, K) for each direction, signedness and width. */
#define ARGMIN_EACH_INT(M) \
    M(min, i, 32) M(max, i, 32) M(min, u, 32) M(max, u, 32) \
    M(min, i, 64) M(max, i, 64) M(min, u, 64) M(max, u, 64)
#if defined(__AVX512F__)
#define ARGMIN_IEXTREME_BYTES 64
typedef __m512i argmin_vi;
#define ARGMIN_ILOAD(p) _mm512_loadu_si512((const void *)(p))
#define ARGMIN_IOP(op, u, K) _mm512_##op##_ep##u##K
#define ARGMIN_IREDUCE(op, u, K, v) _mm512_reduce_##op##_ep##u##K(v)
#elif defined(__AVX2__)
#define ARGMIN_IEXTREME_BYTES 32
typedef __m256i argmin_vi;
#define ARGMIN_ILOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ARGMIN_IOP(op, u, K) argmin_##op##_ep##u##K
#define ARGMIN_IREDUCE(op, u, K, v) argmin_reduce_##op##_ep##u##K(v)
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
/* One direction and signedness: op min or max, u i or u. */
#define ARGMIN_IEXTREME(op, u, K)                                                  \
    static inline int##K##_t argmin_##op##_ep##u##K##_run(const char *p, int64_t n) { \
        const int64_t lanes = ARGMIN_IEXTREME_BYTES / (K / 8);                     \
        argmin_vi m[4];                                                            \
        int64_t i, at;                                                             \
        int k;                                                                     \
        for (k = 0; k < 4; k++)                                                    \
            m[k] = ARGMIN_ILOAD(p + k * ARGMIN_IEXTREME_BYTES);                    \
        for (i = 4 * lanes; i < n; i += 4 * lanes) {                               \
            at = i < n - 4 * lanes ? i : n - 4 * lanes;                            \
            for (k = 0; k < 4; k++)                                                \
                m[k] = ARGMIN_IOP(op, u, K)(                                       \
                    ARGMIN_ILOAD(p + (at + k * lanes) * (K / 8)), m[k]);           \
        }                                                                          \
        return ARGMIN_IREDUCE(op, u, K, ARGMIN_IOP(op, u, K)(                      \
            ARGMIN_IOP(op, u, K)(m[0], m[1]), ARGMIN_IOP(op, u, K)(m[2], m[3])));  \
    }
ARGMIN_EACH_INT(ARGMIN_IEXTREME)
#endif

#define ARGMIN_EXTREME_INT(K)                                                      \
    static inline int argmin_extreme_i##K(                                         \
        const char *p, int64_t n, int largest, int is_unsigned, int##K##_t *out) { \
        ARGMIN_EXTREME_INT_RUN(K)                                                  \
    }
#if ARGMIN_IEXTREME_BYTES
#define ARGMIN_EXTREME_INT_RUN(K)                                                  \
    if (is_unsigned)                                                               \
        *out = largest ? argmin_max_epu##K##_run(p, n) : argmin_min_epu##K##_run(p, n); \
    else                                                                           \
        *out = largest ? argmin_max_epi##K##_run(p, n) : argmin_min_epi##K##_run(p, n); \
    return 1;
#else
#define ARGMIN_EXTREME_INT_RUN(K)                                                  \
    (void)p, (void)n, (void)largest, (void)is_unsigned, (void)out;                 \
    return 0;
#endif
ARGMIN_EXTREME_INT(32)
ARGMIN_EXTREME_INT(64)
#endif
