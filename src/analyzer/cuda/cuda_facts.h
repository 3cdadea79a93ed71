/* cuda_facts.h — facts of device code that need no interpretation
 * (internal to the CUDA front end; cuda_facts.c, called by cuda_stmt.c). */
#ifndef KC_CUDA_FACTS_H
#define KC_CUDA_FACTS_H

#include "cuda_tu.h"

/* Syntactic facts of one function definition in device code (its own
 * body, not the functions it calls): double-precision literals and math
 * calls, legacy warp intrinsics, low-precision accumulators (KC403,
 * KC501, KC502). Loop ids come from the loops already lowered into k. */
void kc_cuda_device_facts(kc_cuda_tu *t, CXCursor fn, kc_kernel *k);
/* Fills bounds_checked of every access of k from its guards. */
void kc_cuda_bounds_checks(kc_kernel *k);

#endif
