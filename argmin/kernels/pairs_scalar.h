/* The operations of pairs.h without AVX-512BW or AVX2: ARGMIN_VECTOR_PAIRS is 0, the
 * kernels pair keys in arrays instead, and these only let them compile; they are never
 * called. */
#include <stdint.h>
#include <string.h>

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
                                        const argmin_vec *pair_bits) {
    (void)lo, (void)hi, (void)piece;
    return pair_bits[0];
}

static inline argmin_vec argmin_pairs32(const char *lo, const char *hi, int piece,
                                        const argmin_vec *pair_bits) {
    (void)lo, (void)hi, (void)piece;
    return pair_bits[0];
}

static inline argmin_vec argmin_float_pairs16(const char *lo, const char *hi, int piece,
                                              const argmin_vec *pair_bits, int16_t inf_bits,
                                              int16_t nan_key) {
    (void)lo, (void)hi, (void)piece, (void)inf_bits, (void)nan_key;
    return pair_bits[0];
}

static inline argmin_vec argmin_float_pairs32(const char *lo, const char *hi, int piece,
                                              const argmin_vec *pair_bits, int32_t inf_bits,
                                              int32_t nan_key) {
    (void)lo, (void)hi, (void)piece, (void)inf_bits, (void)nan_key;
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
