/* kc_rule_util.h — small helpers shared by rules: model questions phrased
 * the way diagnostics need them. Model-only: no front end headers. */
#ifndef KC_RULE_UTIL_H
#define KC_RULE_UTIL_H

#include "kc_rule.h"

/* The span a diagnostic about an access points at: its address expression
 * when known, else the whole access. */
kc_span kc_access_point(const kc_access *a);

/* A symbol of the expression that is known to be large: a problem size or
 * an outer stride (and not presumed to be an innermost stride of 1).
 * Returns its id or KC_NONE. */
uint32_t kc_index_large_symbol(const kc_kernel *k, const kc_index *x);

/* Describes loop `l` for messages: "the loop over `index` (tl.static_range,
 * line 25; ceil(N / BLOCK_SIZE_N) passes)". Arena string. */
const char *kc_loop_describe(kc_rule_ctx *ctx, const kc_kernel *k, const kc_loop *l);

/* "N = input.shape[1] at the launch on line 50" style text for a symbol;
 * NULL when nothing is known. Arena string. */
const char *kc_symbol_evidence(kc_rule_ctx *ctx, const kc_kernel *k, uint32_t sym);

#endif
