/* Vectors of 64 bytes for the paired short rows of argmin/_kernels.pyx
 * (paired_vectors_argmin): keys of 8, 16 or 32 bits, each paired with its
 * position in its row in an integer of twice its width,
 * (key << width) ^ position bits, and the pairs of several rows halved
 * together.  With AVX-512BW, each operation is a few instructions on one
 * register; with AVX2, on two.
 *
 * Without either, ARGMIN_VECTOR_PAIRS is 0 and the kernels pair keys in
 * arrays instead (paired_rows_argmin): these operations written as plain
 * loops or as GCC vector extensions measured 2 to 30 times slower than
 * paired_rows_argmin with GCC 12.  The ones below then only let the kernels
 * compile, and are never called. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* For pieces of 4 and 2 bytes (argmin_load_keys): those at lo, then those
 * at hi, in one integer. */
static inline uint64_t argmin_join4(const char *lo, const char *hi) {
    uint32_t a, b;
    memcpy(&a, lo, 4);
    memcpy(&b, hi, 4);
    return (uint64_t)b << 32 | a;
}

static inline uint32_t argmin_join2(const char *lo, const char *hi) {
    uint16_t a, b;
    memcpy(&a, lo, 2);
    memcpy(&b, hi, 2);
    return (uint32_t)b << 16 | a;
}

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
 * units swapped (units of 16 to 256 bits below), and a minimum: measured
 * with Fortran arrays (64, 512, m) along axis 0, 64 MiB, int8 and uint8 1.1
 * to 1.2 times as fast as halving the other way, with two 16-bit
 * permutations (vpermt2w, two cycles each).  32-bit lanes halved this way
 * (vpermt2d taking one cycle) measured 0.83 times as fast, int16 rows of 64
 * in cache. */
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

#elif defined(__AVX2__)
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

/* The smaller of each two lanes of 64 bits (AVX2 has no such minimum). */
static inline __m256i argmin_min_epi64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
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
 * inf_bits, as two's complement, every NaN the smallest key: the magnitude,
 * negated where the key is negative (psignw, psignd; -0.0 gives 0, as +0.0
 * does). */
#define ARGMIN_FLOAT_KEYS(K)                                                                   \
    static inline __m256i argmin_float_keys##K(__m256i keys, int##K##_t inf_bits) {            \
        __m256i magnitude = _mm256_and_si256(keys, _mm256_set1_epi##K(INT##K##_MAX));          \
        __m256i nan = _mm256_cmpgt_epi##K(magnitude, _mm256_set1_epi##K(inf_bits));            \
        return _mm256_blendv_epi8(_mm256_sign_epi##K(magnitude, keys),                         \
                                  _mm256_set1_epi##K(INT##K##_MIN), nan);                      \
    }

ARGMIN_FLOAT_KEYS(16)
ARGMIN_FLOAT_KEYS(32)

/* argmin_pairsK, as with AVX-512BW, of each register of keys in turn
 * (argmin_pairsK_of): MIN, the minimum of lanes of 2K bits; HIGH, those
 * lanes with their top K bits set. */
#define ARGMIN_PAIRS(K, P, MIN, HIGH)                                                          \
    static inline __m256i argmin_pairs##K##_of(__m256i keys, __m256i even_bits,               \
                                               __m256i odd_bits, int##K##_t inf_bits) {       \
        if (inf_bits)                                                                          \
            keys = argmin_float_keys##K(keys, inf_bits);                                       \
        return MIN(_mm256_xor_si256(_mm256_slli_epi##P(keys, K), even_bits),                  \
                   _mm256_xor_si256(_mm256_and_si256(keys, HIGH), odd_bits));                  \
    }                                                                                          \
    static inline argmin_vec argmin_pairs##K(const char *lo, const char *hi, int piece,        \
                                             const argmin_vec *pair_bits, int##K##_t inf_bits) { \
        argmin_vec keys = argmin_load_keys(lo, hi, piece), v;                                  \
        v.lo = argmin_pairs##K##_of(keys.lo, pair_bits[0].lo, pair_bits[1].lo, inf_bits);      \
        v.hi = argmin_pairs##K##_of(keys.hi, pair_bits[0].hi, pair_bits[1].hi, inf_bits);      \
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
static inline void argmin_halve16(argmin_vec *v, ptrdiff_t count, int level) {
    (void)v, (void)count, (void)level;
}
static inline void argmin_halve32(argmin_vec *v, ptrdiff_t count, int level) {
    (void)v, (void)count, (void)level;
}
static inline void argmin_halve64(argmin_vec *v, ptrdiff_t count, int level) {
    (void)v, (void)count, (void)level;
}
static inline argmin_vec argmin_spread16(argmin_vec v, argmin_vec index) { return (void)index, v; }
static inline argmin_vec argmin_spread32(argmin_vec v, argmin_vec index) { return (void)index, v; }
static inline argmin_vec argmin_spread64(argmin_vec v, argmin_vec index) { return (void)index, v; }

#endif
