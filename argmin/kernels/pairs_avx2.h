/* The operations of pairs.h with AVX2: each on a pair of registers. */
#include "avx2_min64.h"
#include "pairs_join.h"
#include <immintrin.h>

#define ARGMIN_VECTOR_PAIRS 1

/* The bytes [0, 32) of the vector in lo, [32, 64) in hi. */
typedef struct {
    __m256i lo, hi;
} argmin_vec;

static inline argmin_vec argmin_load(const void *p) {
    argmin_vec v = {_mm256_loadu_si256((const __m256i *)p),
                    _mm256_loadu_si256((const __m256i *)((const char *)p + 32))};
    return v;
}

static inline void argmin_store(void *p, argmin_vec v) {
    _mm256_storeu_si256((__m256i *)p, v.lo);
    _mm256_storeu_si256((__m256i *)((char *)p + 32), v.hi);
}

/* 64 bytes of keys, as with AVX-512BW above. */
static inline argmin_vec argmin_load_keys(const char *lo, const char *hi, int piece) {
    argmin_vec v;
    if (piece == 64)
        return argmin_load(lo);
    if (piece == 32) {
        v.lo = _mm256_loadu_si256((const __m256i *)lo);
        v.hi = _mm256_loadu_si256((const __m256i *)hi);
    } else if (piece == 16) {
        v.lo = v.hi = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
            _mm_loadu_si128((const __m128i *)hi), 1);
    } else if (piece == 8) {
        v.lo = v.hi = _mm256_broadcastsi128_si256(_mm_unpacklo_epi64(
            _mm_loadl_epi64((const __m128i *)lo), _mm_loadl_epi64((const __m128i *)hi)));
    } else if (piece == 4) {
        v.lo = v.hi = _mm256_set1_epi64x((long long)argmin_join4(lo, hi));
    } else {
        v.lo = v.hi = _mm256_set1_epi32((int)argmin_join2(lo, hi));
    }
    return v;
}

/* 16 pairs of 16 bits from 32 8-bit keys, as argmin_pairs8 does. */
static inline __m256i argmin_pairs8_of(__m256i keys, __m256i even_bits, __m256i odd_bits) {
    return _mm256_min_epi16(
        _mm256_xor_si256(_mm256_slli_epi16(keys, 8), even_bits),
        _mm256_xor_si256(_mm256_and_si256(keys, _mm256_set1_epi16((short)0xff00)), odd_bits));
}

static inline argmin_vec argmin_pairs8(const char *lo, const char *hi, int piece,
                                       const argmin_vec *pair_bits) {
    argmin_vec keys = argmin_load_keys(lo, hi, piece), v;
    v.lo = argmin_pairs8_of(keys.lo, pair_bits[0].lo, pair_bits[1].lo);
    v.hi = argmin_pairs8_of(keys.hi, pair_bits[0].hi, pair_bits[1].hi);
    return v;
}

/* argmin_float_keysK: float keys of K bits whose infinity's bits are
 * inf_bits, as two's complement, every NaN nan_key: the magnitude,
 * negated where the key is negative (psignw, psignd; -0.0 gives 0, as +0.0
 * does). */
#define ARGMIN_FLOAT_KEYS(K)                                                                   \
    static inline __m256i argmin_float_keys##K(__m256i keys, int##K##_t inf_bits,                \
                                                   int##K##_t nan_key) {                      \
        __m256i magnitude = _mm256_and_si256(keys, _mm256_set1_epi##K(INT##K##_MAX));          \
        __m256i nan = _mm256_cmpgt_epi##K(magnitude, _mm256_set1_epi##K(inf_bits));            \
        return _mm256_blendv_epi8(_mm256_sign_epi##K(magnitude, keys),                         \
                                  _mm256_set1_epi##K(nan_key), nan);                          \
    }

ARGMIN_FLOAT_KEYS(16)
ARGMIN_FLOAT_KEYS(32)

/* argmin_pairsK and argmin_float_pairsK, as with AVX-512BW, of each register
 * of keys in turn (argmin_pairsK_of): MIN, the minimum of lanes of 2K bits;
 * HIGH, those lanes with their top K bits set. */
#define ARGMIN_PAIRS(K, P, MIN, HIGH)                                                          \
    static inline __m256i argmin_pairs##K##_of(__m256i keys, __m256i even_bits,               \
                                               __m256i odd_bits) {                            \
        return MIN(_mm256_xor_si256(_mm256_slli_epi##P(keys, K), even_bits),                  \
                   _mm256_xor_si256(_mm256_and_si256(keys, HIGH), odd_bits));                  \
    }                                                                                          \
    static inline argmin_vec argmin_pairs##K(const char *lo, const char *hi, int piece,        \
                                             const argmin_vec *pair_bits) {                    \
        argmin_vec keys = argmin_load_keys(lo, hi, piece), v;                                  \
        v.lo = argmin_pairs##K##_of(keys.lo, pair_bits[0].lo, pair_bits[1].lo);                \
        v.hi = argmin_pairs##K##_of(keys.hi, pair_bits[0].hi, pair_bits[1].hi);                \
        return v;                                                                              \
    }                                                                                          \
    static inline argmin_vec argmin_float_pairs##K(const char *lo, const char *hi, int piece,  \
                                                   const argmin_vec *pair_bits,                \
                                                   int##K##_t inf_bits, int##K##_t nan_key) {  \
        argmin_vec keys = argmin_load_keys(lo, hi, piece), v;                                  \
        v.lo = argmin_pairs##K##_of(argmin_float_keys##K(keys.lo, inf_bits, nan_key),          \
                                    pair_bits[0].lo, pair_bits[1].lo);                         \
        v.hi = argmin_pairs##K##_of(argmin_float_keys##K(keys.hi, inf_bits, nan_key),          \
                                    pair_bits[0].hi, pair_bits[1].hi);                         \
        return v;                                                                              \
    }

ARGMIN_PAIRS(16, 32, _mm256_min_epi32, _mm256_set1_epi32((int)0xffff0000u))
ARGMIN_PAIRS(32, 64, argmin_min_epi64, _mm256_set1_epi64x((long long)(~0ull << 32)))

/* argmin_minW: MIN of each register. */
#define ARGMIN_MIN(W, MIN)                                                                     \
    static inline argmin_vec argmin_min##W(argmin_vec a, argmin_vec b) {                       \
        a.lo = MIN(a.lo, b.lo);                                                                \
        a.hi = MIN(a.hi, b.hi);                                                                \
        return a;                                                                              \
    }

ARGMIN_MIN(16, _mm256_min_epi16)
ARGMIN_MIN(32, _mm256_min_epi32)
ARGMIN_MIN(64, argmin_min_epi64)

/* argmin_halvedW(v): lane k the smaller of lanes 2k and 2k + 1 of v, in a
 * register.  The even and the odd lanes of each 128-bit half of v.lo and
 * v.hi are gathered, taken in turn from v.lo and v.hi, so that their minimum
 * holds the lanes in the 64-bit order 0, 2, 1, 3. */
static inline __m256i argmin_halved16(argmin_vec v) {
    const __m256i split = _mm256_setr_epi8(
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    __m256i lo = _mm256_shuffle_epi8(v.lo, split), hi = _mm256_shuffle_epi8(v.hi, split);
    return _mm256_permute4x64_epi64(
        _mm256_min_epi16(_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi)), 0xd8);
}

static inline __m256i argmin_halved32(argmin_vec v) {
    __m256 lo = _mm256_castsi256_ps(v.lo), hi = _mm256_castsi256_ps(v.hi);
    return _mm256_permute4x64_epi64(
        _mm256_min_epi32(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88)),
                         _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0xdd))),
        0xd8);
}

static inline __m256i argmin_halved64(argmin_vec v) {
    return _mm256_permute4x64_epi64(argmin_min_epi64(_mm256_unpacklo_epi64(v.lo, v.hi),
                                                     _mm256_unpackhi_epi64(v.lo, v.hi)),
                                    0xd8);
}

/* argmin_halveW: with AVX2, a vector of lanes of 2^level rows holds row i
 * in its i-th 2^level-th; of v[2k], the smaller of each two neighbouring
 * lanes fill the first half of v[k], of v[2k + 1] the second. */
#define ARGMIN_HALVE(W)                                                                        \
    static inline void argmin_halve##W(argmin_vec *v, ptrdiff_t count, int level) {            \
        ptrdiff_t k;                                                                           \
        (void)level;                                                                           \
        for (k = 0; k < count; k++) {                                                          \
            argmin_vec h = {argmin_halved##W(v[2 * k]), argmin_halved##W(v[2 * k + 1])};       \
            v[k] = h;                                                                          \
        }                                                                                      \
    }

ARGMIN_HALVE(16)
ARGMIN_HALVE(32)
ARGMIN_HALVE(64)

/* A vector of rows one after another is already lanes of those rows. */
static inline argmin_vec argmin_spread16(argmin_vec v, argmin_vec index) { return (void)index, v; }
static inline argmin_vec argmin_spread32(argmin_vec v, argmin_vec index) { return (void)index, v; }
static inline argmin_vec argmin_spread64(argmin_vec v, argmin_vec index) { return (void)index, v; }
