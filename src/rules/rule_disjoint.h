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

/* The thread components the conditions around `guard` vary along; 7 when
 * one varies with the thread in a way kcheck cannot place. Threads that
 * differ only in the other components run the same statements. */
uint8_t kc_guard_axes(const kc_kernel *k, uint32_t guard);

/* Do `w` and `r` touch disjoint ranges of the array, whatever the threads
 * and passes, by the block's extents (the launch's, else the hardware's,
 * or ext[c] threads along component c where that is positive and less)
 * and the loops' ranges? ext may be NULL. */
bool kc_disjoint_ranges(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r,
                        const int64_t ext[3]);

/* Within one pass, are `w` and `r` apart under their guards `tid < B`? */
bool kc_disjoint_guarded(kc_arena *ar, const kc_kernel *k, const kc_access *w, const kc_access *r);

/* Accesses of one array of two or more dimensions whose subscripts' ranges
 * never meet in some dimension. */
bool kc_disjoint_subscripts(const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r);

/* Is the element `r` reads one that only the reading thread itself writes
 * at `w` (row 0, under `threadIdx.y == 0`, reading `buf[tx]` of a store
 * `buf[32 * ty + tx]` that gives every thread its own element), or the
 * element `w` writes one that only the writing thread reads? ext[c], where
 * positive, bounds the threads along component c (may be NULL). */
bool kc_own_element(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r,
                    const int64_t ext[3]);

/* Thread by thread, over the threads each access may run on (each
 * component its index names bounded by the launch, ext[c], or a guard;
 * at most 4096 a side): is no element that one thread writes at `w` read
 * by another at `r`? False when kcheck cannot enumerate them. */
bool kc_disjoint_by_threads(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w,
                            const kc_access *r, const int64_t ext[3]);

#endif
