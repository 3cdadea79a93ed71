/* kc_bound.h — one-sided bounds on a value, as a polynomial divided by a
 * positive constant (num / den).
 *
 * A CUDA launch's grid and block sizes are bounded from above and its
 * arguments from both sides by polynomials over the host variables they
 * are computed from (KC_ATOM_HOST atoms): `batch_size / 32` is at most
 * batch_size / 32, `(n + 255) / 256` at least n / 256. The variables are
 * taken to be non-negative (sizes and counts), so a polynomial whose
 * coefficients are all non-negative is non-negative: kc_bound_nonneg
 * decides `a >= b` from that alone, and says no when it cannot tell.
 *
 * Ownership: the polynomials live in the arena passed to the functions.
 */
#ifndef KC_BOUND_H
#define KC_BOUND_H

#include "kc_index.h"

typedef struct kc_bound {
    const kc_index *num; /* NULL: no bound */
    int64_t den;         /* > 0 */
} kc_bound;

static inline bool kc_bound_known(kc_bound b) { return b.num != NULL && b.den > 0; }
kc_bound kc_bound_const(kc_arena *a, int64_t v);
/* The sum, difference, product of two bounds; scaled by an integer;
 * divided by a positive integer. An unknown bound (num NULL) when either is
 * unknown or the result overflows. */
kc_bound kc_bound_add(kc_arena *a, kc_bound x, kc_bound y);
kc_bound kc_bound_sub(kc_arena *a, kc_bound x, kc_bound y);
kc_bound kc_bound_mul(kc_arena *a, kc_bound x, kc_bound y);
kc_bound kc_bound_scale(kc_arena *a, kc_bound x, int64_t c);
kc_bound kc_bound_div(kc_bound x, int64_t c);
/* Is every coefficient of x's polynomial >= 0 (x >= 0 for non-negative
 * variables)? False for an unknown bound. */
bool kc_bound_nonneg(kc_bound x);
/* The same, with a constant term > 0 (x > 0). */
bool kc_bound_positive(kc_bound x);

#endif
