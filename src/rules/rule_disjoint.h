/* rule_disjoint.h — when two accesses of one shared array cannot meet
 * (private to the rules). */
#ifndef KC_RULE_DISJOINT_H
#define KC_RULE_DISJOINT_H

#include "kc_model.h"

#include <stdbool.h>

/* Does `w` write row `threadIdx.<ax>` of a tile of rows of C and `r` read
 * row v of it, where `w`'s guard keeps the writers off row v (`if (i > k)
 * B[j + i * NT] -= A[k + i * NT] * B[j + k * NT]`)? */
bool kc_pivot_excluded(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r);

/* The bound G of a guard `threadIdx.<axis> < G` (or `<= G - 1`, G a
 * constant) that both `w` and `r` are under, so the threads that make
 * them differ by less than G along that axis; 0 if there is none. */
int64_t kc_lane_guard_bound(const kc_kernel *k, const kc_access *w, const kc_access *r, unsigned axis);

/* Is the difference of two offsets whole rows of a tile whose row length
 * is a compile-time constant with no value kcheck knows (`s[i * (NRHS + 1)
 * + tx]` and `s[j * (NRHS + 1) + tx]`, NRHS a template parameter, i and j
 * loop variables)? Each thread owns a column of such a tile when the
 * block is at most a row wide, which kcheck cannot check. */
bool kc_rows_of_unknown_length(const kc_kernel *k, const kc_index *rest);

/* Is `x`, made of constants and loop variables, above 0 in every pass, by
 * what the loops show of their variables' ranges (65 - 2 * s with s only
 * halved from 32)? */
bool kc_index_positive_in_pass(const kc_kernel *k, const kc_index *x);

#endif
