/* cuda_lower.h — lowering a parsed CUDA translation unit into the kernel
 * model (internal to the CUDA front end).
 *
 * The files stack, each calling only those below it:
 *   frontend_cuda.c  the front end object: flags, parsing, the header cache
 *   cuda_lower.c     the translation-unit walk: kernels, device functions,
 *                    launches, what calls pass
 *   cuda_host.c      facts of the host code (error checks after launches)
 *   cuda_stmt.c ...  the interpreter of function bodies (cuda_walk.h)
 *   cuda_facts.c     syntactic facts of device code, bounds checks
 *   cuda_tu.c        cursor, span, token and type helpers (cuda_tu.h)
 */
#ifndef KC_CUDA_LOWER_H
#define KC_CUDA_LOWER_H

#include "cuda_tu.h"

/* Walks the main file of `tu` and fills `m`: kernels (templates from their
 * primary template), device functions that access memory, launches. */
void kc_cuda_lower_tu(CXTranslationUnit tu, const kc_source *src, kc_model *m);

/* ---- the abstract interpreter (cuda_stmt.c) ---- */

/* Lowers function `fn` (a kernel, or a device function when `device_fn`)
 * into `k`: parameters, symbols, loops, conditions, accesses, barriers. */
void kc_cuda_lower_function(kc_cuda_tu *t, CXCursor fn, kc_kernel *k, bool device_fn);

/* ---- host code (cuda_host.c) ---- */

/* Host code of the main file: marks the launches that an error check
 * follows (kc_launch.error_checked, in_host_code) and records the runtime
 * API calls returning cudaError_t (kc_model.host_calls). */
void kc_cuda_host_facts(kc_cuda_tu *t);

#endif
