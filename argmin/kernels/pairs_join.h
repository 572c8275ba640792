/* Pieces of 4 and 2 bytes of a row for argmin_load_keys: those at lo, then
 * those at hi, in one integer. */
#ifndef ARGMIN_PAIRS_JOIN_H
#define ARGMIN_PAIRS_JOIN_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
#endif
