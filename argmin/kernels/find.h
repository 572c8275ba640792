/* The first or the last position of a bit pattern among the n contiguous
 * elements of 8, 16, 32 or 64 bits at p (p need not be aligned), or -1 where
 * none holds it:
 *   argmin_findK(p, n, bits, last)
 * One vector register of elements is compared at a time, from the near end,
 * and the first one that holds the pattern ends the search: a search costs
 * the elements up to the match, and one branch to mispredict.
 *
 * A run that is not a whole number of vectors ends with a vector that
 * overlaps the one compared before it.  Its elements already compared do not
 * hold the pattern, so its match nearest the start (or, for the last
 * position, the end) is still the run's.  A run shorter than one vector is
 * compared element by element. */
#ifndef ARGMIN_FIND_H
#define ARGMIN_FIND_H
#include <stdint.h>
#include <string.h>

#include "bits.h"

/* Per target: the bytes of a vector, and ARGMIN_MATCHK(p, bits), a mask of
 * the elements of the vector at p that equal bits, element i at bit
 * i * ARGMIN_MASK_BITS(K) (all its bits set). */
#if defined(__AVX512BW__)
#include <immintrin.h>
#define ARGMIN_FIND_BYTES 64
#define ARGMIN_MASK_BITS(K) 1
#define ARGMIN_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define ARGMIN_MATCH8(p, b) _mm512_cmpeq_epi8_mask(ARGMIN_LOAD(p), _mm512_set1_epi8(b))
#define ARGMIN_MATCH16(p, b) _mm512_cmpeq_epi16_mask(ARGMIN_LOAD(p), _mm512_set1_epi16(b))
#define ARGMIN_MATCH32(p, b) _mm512_cmpeq_epi32_mask(ARGMIN_LOAD(p), _mm512_set1_epi32(b))
#define ARGMIN_MATCH64(p, b) _mm512_cmpeq_epi64_mask(ARGMIN_LOAD(p), _mm512_set1_epi64(b))
#elif defined(__AVX2__)
#include <immintrin.h>
#define ARGMIN_FIND_BYTES 32
#define ARGMIN_MASK_BITS(K) ((K) / 8)
#define ARGMIN_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ARGMIN_BYTE_MASK(v) ((uint32_t)_mm256_movemask_epi8(v))
#define ARGMIN_MATCH8(p, b) ARGMIN_BYTE_MASK(_mm256_cmpeq_epi8(ARGMIN_LOAD(p), _mm256_set1_epi8(b)))
#define ARGMIN_MATCH16(p, b) \
    ARGMIN_BYTE_MASK(_mm256_cmpeq_epi16(ARGMIN_LOAD(p), _mm256_set1_epi16(b)))
#define ARGMIN_MATCH32(p, b) \
    ARGMIN_BYTE_MASK(_mm256_cmpeq_epi32(ARGMIN_LOAD(p), _mm256_set1_epi32(b)))
#define ARGMIN_MATCH64(p, b) \
    ARGMIN_BYTE_MASK(_mm256_cmpeq_epi64(ARGMIN_LOAD(p), _mm256_set1_epi64x(b)))
#elif defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define ARGMIN_FIND_BYTES 16
#define ARGMIN_MASK_BITS(K) ((K) / 8)
#define ARGMIN_LOAD(p) _mm_loadu_si128((const __m128i *)(p))
#define ARGMIN_BYTE_MASK(v) ((uint32_t)_mm_movemask_epi8(v))
#define ARGMIN_MATCH8(p, b) ARGMIN_BYTE_MASK(_mm_cmpeq_epi8(ARGMIN_LOAD(p), _mm_set1_epi8(b)))
#define ARGMIN_MATCH16(p, b) ARGMIN_BYTE_MASK(_mm_cmpeq_epi16(ARGMIN_LOAD(p), _mm_set1_epi16(b)))
#define ARGMIN_MATCH32(p, b) ARGMIN_BYTE_MASK(_mm_cmpeq_epi32(ARGMIN_LOAD(p), _mm_set1_epi32(b)))
/* SSE2 compares 32-bit halves: a 64-bit element matches where both do. */
#define ARGMIN_MATCH64(p, b) ARGMIN_BYTE_MASK(argmin_both_halves( \
    _mm_cmpeq_epi32(ARGMIN_LOAD(p), _mm_set1_epi64x(b))))
static inline __m128i argmin_both_halves(__m128i c) {
    return _mm_and_si128(c, _mm_shuffle_epi32(c, _MM_SHUFFLE(2, 3, 0, 1)));
}
#else
#define ARGMIN_FIND_BYTES 0
#endif

#if ARGMIN_FIND_BYTES
/* The vector loop; `lanes` elements a vector.  From the start, the vector at
 * i is the one at min(i, n - lanes); from the end, at max(i, 0). */
#define ARGMIN_FIND_VECTORS(K)                                                     \
    const int64_t lanes = ARGMIN_FIND_BYTES / (K / 8);                             \
    int64_t i, at;                                                                 \
    uint64_t m;                                                                    \
    if (n >= lanes && !last) {                                                     \
        for (i = 0; i < n; i += lanes) {                                           \
            at = i < n - lanes ? i : n - lanes;                                    \
            m = ARGMIN_MATCH##K(p + at * (K / 8), bits);                           \
            if (m)                                                                 \
                return at + ARGMIN_FIRST_BIT(m) / ARGMIN_MASK_BITS(K);             \
        }                                                                          \
        return -1;                                                                 \
    }                                                                              \
    if (n >= lanes) {                                                              \
        for (i = n - lanes; i > -lanes; i -= lanes) {                              \
            at = i > 0 ? i : 0;                                                    \
            m = ARGMIN_MATCH##K(p + at * (K / 8), bits);                           \
            if (m)                                                                 \
                return at + ARGMIN_LAST_BIT(m) / ARGMIN_MASK_BITS(K);              \
        }                                                                          \
        return -1;                                                                 \
    }
#else
#define ARGMIN_FIND_VECTORS(K)
#endif

/* The element loop, for runs shorter than a vector. */
#define ARGMIN_FIND_ELEMENTS(K)                                                    \
    int64_t k;                                                                     \
    int##K##_t v;                                                                  \
    for (k = 0; k < n; k++) {                                                      \
        int64_t j = last ? n - 1 - k : k;                                          \
        memcpy(&v, p + j * (K / 8), K / 8);                                        \
        if (v == bits)                                                             \
            return j;                                                              \
    }                                                                              \
    return -1;

#define ARGMIN_FIND(K)                                                             \
    static inline int64_t argmin_find##K(                                          \
        const char *p, int64_t n, int##K##_t bits, int last) {                     \
        ARGMIN_FIND_VECTORS(K)                                                     \
        ARGMIN_FIND_ELEMENTS(K)                                                    \
    }

ARGMIN_FIND(8)
ARGMIN_FIND(16)
ARGMIN_FIND(32)
ARGMIN_FIND(64)
#endif
