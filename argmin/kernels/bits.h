/* The positions of the first and the last set bit of a nonzero 64-bit mask:
 *   ARGMIN_FIRST_BIT(m), ARGMIN_LAST_BIT(m) */
#ifndef ARGMIN_BITS_H
#define ARGMIN_BITS_H
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define ARGMIN_FIRST_BIT(m) __builtin_ctzll(m)
#define ARGMIN_LAST_BIT(m) (63 - __builtin_clzll(m))
#else
#include <intrin.h>
static inline int argmin_first_bit(uint64_t m) {
    unsigned long i;
    _BitScanForward64(&i, m);
    return (int)i;
}
static inline int argmin_last_bit(uint64_t m) {
    unsigned long i;
    _BitScanReverse64(&i, m);
    return (int)i;
}
#define ARGMIN_FIRST_BIT(m) argmin_first_bit(m)
#define ARGMIN_LAST_BIT(m) argmin_last_bit(m)
#endif
#endif
