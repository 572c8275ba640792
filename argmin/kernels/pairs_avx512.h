/* The operations of pairs.h with AVX-512BW: each a few instructions on one register. */
#include "pairs_join.h"
#include <immintrin.h>

#define ARGMIN_VECTOR_PAIRS 1

typedef __m512i argmin_vec;

static inline argmin_vec argmin_load(const void *p) { return _mm512_loadu_si512(p); }

static inline void argmin_store(void *p, argmin_vec v) { _mm512_storeu_si512(p, v); }

/* 64 bytes of keys: those at lo when piece is 64, else pieces of `piece`
 * bytes from lo and hi in turn (32: lo, hi; 16: lo, hi, lo, hi; 8, 4 or 2:
 * lo, hi, lo, hi, ...). */
static inline __m512i argmin_load_keys(const char *lo, const char *hi, int piece) {
    __m256i both;
    if (piece == 64)
        return _mm512_loadu_si512(lo);
    if (piece == 32)
        return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)lo)),
                                  _mm256_loadu_si256((const __m256i *)hi), 1);
    if (piece == 16) {
        both = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
            _mm_loadu_si128((const __m128i *)hi), 1);
        return _mm512_inserti64x4(_mm512_castsi256_si512(both), both, 1);
    }
    if (piece == 8)
        return _mm512_broadcast_i32x4(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)lo),
                                                         _mm_loadl_epi64((const __m128i *)hi)));
    if (piece == 4)
        return _mm512_set1_epi64((long long)argmin_join4(lo, hi));
    return _mm512_set1_epi32((int)argmin_join2(lo, hi));
}

/* 32 pairs of 16 bits from 64 8-bit keys at lo and hi (see
 * argmin_load_keys): the smaller of (key[2i] << 8) ^ pair_bits[0][i] and
 * (key[2i + 1] << 8) ^ pair_bits[1][i]. */
static inline argmin_vec argmin_pairs8(const char *lo, const char *hi, int piece,
                                       const argmin_vec *pair_bits) {
    __m512i keys = argmin_load_keys(lo, hi, piece);
    return _mm512_min_epi16(
        _mm512_xor_si512(_mm512_slli_epi16(keys, 8), pair_bits[0]),
        _mm512_ternarylogic_epi32(keys, _mm512_set1_epi16((short)0xff00), pair_bits[1], 0x6a));
}

/* argmin_pairsK: 512 / (2K) pairs of 2K bits from the K-bit keys at lo and
 * hi, likewise; argmin_float_pairsK: the same of the keys of floats whose
 * infinity's bits are inf_bits: sign-magnitude turned into two's complement,
 * every NaN nan_key (the pair bits then turn it into NaN's key: the
 * smallest, or for nanargmin and nanargmax the largest).  MASK holds a bit
 * per key. */
#define ARGMIN_PAIRS(K, P, MASK)                                                               \
    static inline argmin_vec argmin_pairs##K##_of(__m512i keys, const argmin_vec *pair_bits) { \
        return _mm512_min_epi##P(                                                              \
            _mm512_xor_si512(_mm512_slli_epi##P(keys, K), pair_bits[0]),                       \
            _mm512_ternarylogic_epi##P(keys, _mm512_set1_epi##P((int##P##_t)(~0ull << K)),     \
                                       pair_bits[1], 0x6a));                                   \
    }                                                                                          \
    static inline argmin_vec argmin_pairs##K(const char *lo, const char *hi, int piece,        \
                                             const argmin_vec *pair_bits) {                    \
        return argmin_pairs##K##_of(argmin_load_keys(lo, hi, piece), pair_bits);               \
    }                                                                                          \
    static inline argmin_vec argmin_float_pairs##K(const char *lo, const char *hi, int piece,  \
                                                   const argmin_vec *pair_bits,                \
                                                   int##K##_t inf_bits, int##K##_t nan_key) {  \
        __m512i keys = argmin_load_keys(lo, hi, piece);                                        \
        __m512i magnitude = _mm512_and_si512(keys, _mm512_set1_epi##K(INT##K##_MAX));          \
        __m512i sign = _mm512_srai_epi##K(keys, K - 1);                                        \
        MASK nan = _mm512_cmpgt_epi##K##_mask(magnitude, _mm512_set1_epi##K(inf_bits));        \
        keys = _mm512_mask_mov_epi##K(_mm512_sub_epi##K(_mm512_xor_si512(magnitude, sign), sign), \
                                      nan, _mm512_set1_epi##K(nan_key));                       \
        return argmin_pairs##K##_of(keys, pair_bits);                                          \
    }

ARGMIN_PAIRS(16, 32, __mmask32)
ARGMIN_PAIRS(32, 64, __mmask16)

static inline argmin_vec argmin_min16(argmin_vec a, argmin_vec b) { return _mm512_min_epi16(a, b); }

static inline argmin_vec argmin_min32(argmin_vec a, argmin_vec b) { return _mm512_min_epi32(a, b); }

static inline argmin_vec argmin_min64(argmin_vec a, argmin_vec b) { return _mm512_min_epi64(a, b); }

/* The lanes of several rows are halved together, neighbour with neighbour,
 * in place: argmin_halveW(v, count, level), for lanes of W bits, of 2^level
 * rows a vector, sets v[k], for k < count, to lanes of twice the rows: the
 * smaller of each two neighbouring lanes of each row of v[2k] and v[2k + 1].
 *
 * 32- and 64-bit lanes of 2^level rows hold row i in the i-th 2^level-th of
 * the vector: the smaller of lanes 2k and 2k + 1 of v[2k] fill the first half
 * of v[k], those of v[2k + 1] the second (two permutations, vpermt2d or
 * vpermt2q, and a minimum). */
static const int16_t argmin_even_lanes[16] = {
    0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};

/* EVEN: the even lanes' numbers in lanes of W bits (the odd ones follow
 * them), from argmin_even_lanes. */
#define ARGMIN_HALVE(W, EVEN)                                                                  \
    static inline void argmin_halve##W(argmin_vec *v, ptrdiff_t count, int level) {            \
        __m512i even = EVEN, odd = _mm512_add_epi##W(even, _mm512_set1_epi##W(1)), a, b;       \
        ptrdiff_t k;                                                                           \
        (void)level;                                                                           \
        for (k = 0; k < count; k++) {                                                          \
            a = v[2 * k];                                                                      \
            b = v[2 * k + 1];                                                                  \
            v[k] = _mm512_min_epi##W(_mm512_permutex2var_epi##W(a, even, b),                   \
                                     _mm512_permutex2var_epi##W(a, odd, b));                   \
        }                                                                                      \
    }

ARGMIN_HALVE(32, _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)argmin_even_lanes)))
ARGMIN_HALVE(64, _mm512_cvtepi16_epi64(_mm_loadu_si128((const __m128i *)argmin_even_lanes)))

/* 16-bit lanes of 2^level rows hold row i in the lanes i modulo 2^level: the
 * vector's units of 2^level lanes hold a lane of each row in turn.  The even
 * units of v[k] are the smaller of each two neighbouring units of v[2k], its
 * odd units those of v[2k + 1]: two blends, one of them with its neighbouring
 * units swapped (units of 16 to 256 bits below), and a minimum, in place of
 * two 16-bit permutations (vpermt2w).  Wider lanes are halved with
 * permutations (ARGMIN_HALVE), which take one cycle for them. */
static inline __m512i argmin_swap16(__m512i x) { return _mm512_rol_epi32(x, 16); }
static inline __m512i argmin_swap32(__m512i x) { return _mm512_rol_epi64(x, 32); }
static inline __m512i argmin_swap64(__m512i x) { return _mm512_shuffle_epi32(x, 0x4e); }
static inline __m512i argmin_swap128(__m512i x) { return _mm512_shuffle_i64x2(x, x, 0xb1); }
static inline __m512i argmin_swap256(__m512i x) { return _mm512_shuffle_i64x2(x, x, 0x4e); }

/* ODD: the odd units' lanes. */
#define ARGMIN_HALVE_UNITS(UNIT, ODD)                                                          \
    for (k = 0; k < count; k++) {                                                              \
        a = v[2 * k];                                                                          \
        b = v[2 * k + 1];                                                                      \
        v[k] = _mm512_min_epi16(_mm512_mask_blend_epi16(ODD, a, b),                            \
                                argmin_swap##UNIT(_mm512_mask_blend_epi16(ODD, b, a)));        \
    }

static inline void argmin_halve16(argmin_vec *v, ptrdiff_t count, int level) {
    ptrdiff_t k;
    __m512i a, b;
    switch (level) {
    case 0:
        ARGMIN_HALVE_UNITS(16, 0xaaaaaaaa)
        break;
    case 1:
        ARGMIN_HALVE_UNITS(32, 0xcccccccc)
        break;
    case 2:
        ARGMIN_HALVE_UNITS(64, 0xf0f0f0f0)
        break;
    case 3:
        ARGMIN_HALVE_UNITS(128, 0xff00ff00)
        break;
    default:
        ARGMIN_HALVE_UNITS(256, 0xffff0000)
    }
}

/* argmin_spreadW(v, index): a vector of rows one after another, each in as
 * many lanes, as lanes of those rows (see argmin_halveW): for 16-bit lanes,
 * lane l from lane index[l] = (l % rows) * lanes a row + l / rows; 32- and
 * 64-bit lanes are already. */
static inline argmin_vec argmin_spread16(argmin_vec v, argmin_vec index) {
    return _mm512_permutexvar_epi16(index, v);
}

static inline argmin_vec argmin_spread32(argmin_vec v, argmin_vec index) { return (void)index, v; }
static inline argmin_vec argmin_spread64(argmin_vec v, argmin_vec index) { return (void)index, v; }
