/* The lane-wise minimum and maximum of 64-bit integers, signed (epi64) and
 * unsigned (epu64), which AVX2 lacks: a comparison and a blend, unsigned
 * lanes compared as signed with their top bits flipped. */
#ifndef ARGMIN_AVX2_MIN64_H
#define ARGMIN_AVX2_MIN64_H
#include <immintrin.h>
#include <stdint.h>

static inline __m256i argmin_min_epi64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}
static inline __m256i argmin_max_epi64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b));
}
static inline __m256i argmin_flip64(__m256i a) {
    return _mm256_xor_si256(a, _mm256_set1_epi64x(INT64_MIN));
}
static inline __m256i argmin_min_epu64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(argmin_flip64(a), argmin_flip64(b)));
}
static inline __m256i argmin_max_epu64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(argmin_flip64(a), argmin_flip64(b)));
}
#endif
