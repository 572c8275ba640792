/* Vectors of 64 bytes for paired short rows (paired_vectors.pxi): keys of 8,
 * 16 or 32 bits, each paired with its position in its row in an integer of
 * twice its width, (key << width) ^ pair bits, and the pairs of several rows
 * halved together.  The pair bits hold the position (255 - position for the
 * last index) and, in the key's half, the bits that turn the loaded bits into
 * the key (key_flip in keys.pxi).
 *
 * One header per target, the same operations in each:
 *   argmin_load, argmin_store      a vector from and to memory;
 *   argmin_pairsK                  the pairs of K-bit keys, the smaller of each two neighbours;
 *   argmin_minW                    the lane-wise minimum of W-bit pairs;
 *   argmin_halveW                  lanes of several rows halved together;
 *   argmin_spreadW                 rows read together spread as lanes of single rows.
 * ARGMIN_VECTOR_PAIRS is 1 where they run in registers (AVX-512BW, AVX2). */
#if defined(__AVX512BW__)
#include "pairs_avx512.h"
#elif defined(__AVX2__)
#include "pairs_avx2.h"
#else
#include "pairs_scalar.h"
#endif
