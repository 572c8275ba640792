/* The lane-wise minimum and maximum of signed 64-bit integers, which AVX2
 * lacks: a comparison and a blend.  (Unsigned lanes are compared as these
 * with their top bits flipped: see ARGMIN_U64 in extreme.h.) */
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
#endif
