/* What the kernels need from the compiler, OpenMP and the CPU, with a
 * portable fallback for each. */
#ifndef ARGMIN_PLATFORM_H
#define ARGMIN_PLATFORM_H
#include <stdint.h>
#include <string.h>

/* OpenMP: threads a parallel region would use, the calling thread's number,
 * a monotonic clock in seconds, and whether the caller is inside a parallel
 * region.  Without OpenMP: one thread, and a clock that stands still (no
 * call is parallel then). */
#ifdef _OPENMP
#include <omp.h>
#define argmin_max_threads() omp_get_max_threads()
#define argmin_thread_num() omp_get_thread_num()
#define argmin_seconds() omp_get_wtime()
#define argmin_in_parallel() omp_in_parallel()
#else
#define argmin_max_threads() 1
#define argmin_thread_num() 0
#define argmin_seconds() 0.0
#define argmin_in_parallel() 0
#endif

/* The vector extensions this CPU runs: 0 none beyond the baseline, 2 AVX2
 * (with FMA and BMI2), 3 AVX-512 (F, BW, VL and DQ) as well. */
static int argmin_cpu_level(void) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    __builtin_cpu_init();
    if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
          && __builtin_cpu_supports("bmi2")))
        return 0;
    if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
          && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")))
        return 2;
    return 3;
#else
    return 0;
#endif
}

/* The level, as argmin_cpu_level counts, that this translation unit is
 * compiled for: its variant's flags, not the CPU's. */
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) \
    && defined(__AVX512DQ__)
#define ARGMIN_COMPILED_LEVEL 3
#elif defined(__AVX2__) && defined(__FMA__) && defined(__BMI2__)
#define ARGMIN_COMPILED_LEVEL 2
#else
#define ARGMIN_COMPILED_LEVEL 0
#endif

/* Whether it is compiled with AddressSanitizer (GCC defines the first macro;
 * clang answers __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define ARGMIN_ADDRESS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARGMIN_ADDRESS_SANITIZED 1
#endif
#endif
#ifndef ARGMIN_ADDRESS_SANITIZED
#define ARGMIN_ADDRESS_SANITIZED 0
#endif

/* Whether Intel made this CPU (the default of Tuning.ask_rows). */
static int argmin_cpu_is_intel(void) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_is("intel");
#else
    return 0;
#endif
}

/* Bytes of the widest vector register this build uses. */
#if defined(__AVX512F__)
#define ARGMIN_REGISTER_BYTES 64
#elif defined(__AVX2__)
#define ARGMIN_REGISTER_BYTES 32
#else
#define ARGMIN_REGISTER_BYTES 16
#endif

/* A read of the line at p asked for ahead, into every cache level, or into
 * the second level and beyond. */
#if defined(__GNUC__) || defined(__clang__)
#define argmin_prefetch(p) __builtin_prefetch((p), 0, 3)
#define argmin_prefetch_l2(p) __builtin_prefetch((p), 0, 2)
#else
#define argmin_prefetch(p) ((void)(p))
#define argmin_prefetch_l2(p) ((void)(p))
#endif

/* A store of one int64 that bypasses the caches (x86-64: non-temporal), and
 * the fence that orders such stores before any later one. */
#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
#include <intrin.h>
#define argmin_store_past_caches(p, v) _mm_stream_si64x((__int64*)(p), (__int64)(v))
#define argmin_drain_stores() _mm_sfence()
#elif defined(__x86_64__)
#include <emmintrin.h>
#define argmin_store_past_caches(p, v) _mm_stream_si64((long long*)(p), (long long)(v))
#define argmin_drain_stores() _mm_sfence()
#else
#define argmin_store_past_caches(p, v) (*(p) = (v))
#define argmin_drain_stores() ((void)0)
#endif

/* The cache line of eight int64 at q (anywhere) stored past the caches at p
 * (on a cache line). */
#if (defined(__x86_64__) || defined(_M_X64)) && defined(__AVX512F__)
#include <immintrin.h>
#define argmin_line_past_caches(p, q) \
    _mm512_stream_si512((void *)(p), _mm512_loadu_si512((const void *)(q)))
#elif (defined(__x86_64__) || defined(_M_X64)) && defined(__AVX__)
#include <immintrin.h>
#define argmin_line_past_caches(p, q) ( \
    _mm256_stream_si256((__m256i *)(p), _mm256_loadu_si256((const __m256i *)(q))), \
    _mm256_stream_si256((__m256i *)(p) + 1, _mm256_loadu_si256((const __m256i *)(q) + 1)))
#elif defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define argmin_line_past_caches(p, q) ( \
    _mm_stream_si128((__m128i *)(p), _mm_loadu_si128((const __m128i *)(q))), \
    _mm_stream_si128((__m128i *)(p) + 1, _mm_loadu_si128((const __m128i *)(q) + 1)), \
    _mm_stream_si128((__m128i *)(p) + 2, _mm_loadu_si128((const __m128i *)(q) + 2)), \
    _mm_stream_si128((__m128i *)(p) + 3, _mm_loadu_si128((const __m128i *)(q) + 3)))
#else
#define argmin_line_past_caches(p, q) memcpy((p), (q), 64)
#endif

/* Tags the kernels are specialised by (keys.pxi): never defined, only
 * pointed to. */
typedef struct argmin_signed_min_s argmin_signed_min;
typedef struct argmin_unsigned_min_s argmin_unsigned_min;
typedef struct argmin_float_min_s argmin_float_min;
typedef struct argmin_signed_max_s argmin_signed_max;
typedef struct argmin_unsigned_max_s argmin_unsigned_max;
typedef struct argmin_float_max_s argmin_float_max;
typedef struct argmin_float_nanmin_s argmin_float_nanmin;
typedef struct argmin_float_nanmax_s argmin_float_nanmax;
typedef struct argmin_first_tie_s argmin_first_tie;
typedef struct argmin_last_tie_s argmin_last_tie;
#endif
