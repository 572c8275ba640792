/* Vectors of 64 bytes for the paired short rows of argmin/_kernels.pyx
 * (paired_vectors_argmin): keys of 8, 16 or 32 bits, each paired with its
 * position in its row in an integer of twice its width,
 * (key << width) ^ position bits, and the pairs of several rows halved
 * together.  Each operation is a few AVX-512BW instructions on registers.
 *
 * Without AVX-512BW, ARGMIN_VECTOR_PAIRS is 0 and the kernels pair keys in
 * arrays instead (paired_rows_argmin): these operations written as plain
 * loops or as GCC vector extensions, on two or four registers a vector,
 * measured 2 to 30 times slower than paired_rows_argmin with GCC 12 (AVX2
 * and baseline builds).  The ones below then only let the kernels compile,
 * and are never called. */
#include <stdint.h>
#include <string.h>

#if defined(__AVX512BW__)
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
    uint32_t lo4, hi4;
    uint16_t lo2, hi2;
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
    if (piece == 4) {
        memcpy(&lo4, lo, 4);
        memcpy(&hi4, hi, 4);
        return _mm512_set1_epi64((long long)((uint64_t)hi4 << 32 | lo4));
    }
    memcpy(&lo2, lo, 2);
    memcpy(&hi2, hi, 2);
    return _mm512_set1_epi32((int)((uint32_t)hi2 << 16 | lo2));
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
 * hi, likewise, each key of a float whose infinity's bits are inf_bits when
 * inf_bits is not 0: sign-magnitude turned into two's complement, every NaN
 * the smallest key.  MASK holds a bit per key. */
#define ARGMIN_PAIRS(K, P, MASK)                                                               \
    static inline argmin_vec argmin_pairs##K(const char *lo, const char *hi, int piece,        \
                                             const argmin_vec *pair_bits, int##K##_t inf_bits) { \
        __m512i keys = argmin_load_keys(lo, hi, piece);                                        \
        if (inf_bits) {                                                                        \
            __m512i magnitude = _mm512_and_si512(keys, _mm512_set1_epi##K(INT##K##_MAX));      \
            __m512i sign = _mm512_srai_epi##K(keys, K - 1);                                    \
            MASK nan = _mm512_cmpgt_epi##K##_mask(magnitude, _mm512_set1_epi##K(inf_bits));    \
            keys = _mm512_mask_mov_epi##K(                                                     \
                _mm512_sub_epi##K(_mm512_xor_si512(magnitude, sign), sign), nan,               \
                _mm512_set1_epi##K(INT##K##_MIN));                                             \
        }                                                                                      \
        return _mm512_min_epi##P(                                                              \
            _mm512_xor_si512(_mm512_slli_epi##P(keys, K), pair_bits[0]),                       \
            _mm512_ternarylogic_epi##P(keys, _mm512_set1_epi##P((int##P##_t)(~0ull << K)),     \
                                       pair_bits[1], 0x6a));                                   \
    }

ARGMIN_PAIRS(16, 32, __mmask32)
ARGMIN_PAIRS(32, 64, __mmask16)

static inline argmin_vec argmin_min16(argmin_vec a, argmin_vec b) { return _mm512_min_epi16(a, b); }

static inline argmin_vec argmin_min32(argmin_vec a, argmin_vec b) { return _mm512_min_epi32(a, b); }

static inline argmin_vec argmin_min64(argmin_vec a, argmin_vec b) { return _mm512_min_epi64(a, b); }

/* Lane k of the first half: the smaller of lanes 2k and 2k + 1 of a; of
 * the second half, of b. */
static const int16_t argmin_even_lanes[32] = {
    0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
    32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62};

/* argmin_halveW for lanes of W bits: EVEN, the even lanes' numbers in lanes
 * of W bits (the odd ones follow them), from argmin_even_lanes. */
#define ARGMIN_HALVE(W, EVEN)                                                              \
    static inline argmin_vec argmin_halve##W(argmin_vec a, argmin_vec b) {                 \
        __m512i even = EVEN, odd = _mm512_add_epi##W(even, _mm512_set1_epi##W(1));         \
        return _mm512_min_epi##W(_mm512_permutex2var_epi##W(a, even, b),                   \
                                 _mm512_permutex2var_epi##W(a, odd, b));                   \
    }

ARGMIN_HALVE(16, _mm512_loadu_si512(argmin_even_lanes))
ARGMIN_HALVE(32, _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)argmin_even_lanes)))
ARGMIN_HALVE(64, _mm512_cvtepi16_epi64(_mm_loadu_si128((const __m128i *)argmin_even_lanes)))

#else

#define ARGMIN_VECTOR_PAIRS 0

typedef struct {
    int64_t lanes[8];
} argmin_vec;

static inline argmin_vec argmin_load(const void *p) {
    argmin_vec v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void argmin_store(void *p, argmin_vec v) { memcpy(p, &v, sizeof(v)); }

static inline argmin_vec argmin_pairs8(const char *lo, const char *hi, int piece,
                                       const argmin_vec *pair_bits) {
    (void)lo, (void)hi, (void)piece;
    return pair_bits[0];
}

static inline argmin_vec argmin_pairs16(const char *lo, const char *hi, int piece,
                                        const argmin_vec *pair_bits, int16_t inf_bits) {
    (void)lo, (void)hi, (void)piece, (void)inf_bits;
    return pair_bits[0];
}

static inline argmin_vec argmin_pairs32(const char *lo, const char *hi, int piece,
                                        const argmin_vec *pair_bits, int32_t inf_bits) {
    (void)lo, (void)hi, (void)piece, (void)inf_bits;
    return pair_bits[0];
}

static inline argmin_vec argmin_min16(argmin_vec a, argmin_vec b) { return (void)b, a; }
static inline argmin_vec argmin_min32(argmin_vec a, argmin_vec b) { return (void)b, a; }
static inline argmin_vec argmin_min64(argmin_vec a, argmin_vec b) { return (void)b, a; }
static inline argmin_vec argmin_halve16(argmin_vec a, argmin_vec b) { return (void)b, a; }
static inline argmin_vec argmin_halve32(argmin_vec a, argmin_vec b) { return (void)b, a; }
static inline argmin_vec argmin_halve64(argmin_vec a, argmin_vec b) { return (void)b, a; }

#endif
