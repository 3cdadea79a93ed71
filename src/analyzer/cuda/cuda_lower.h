/* cuda_lower.h — lowering a parsed CUDA translation unit into the kernel
 * model (internal to the CUDA front end).
 *
 * The files stack, each calling only those below it:
 *   frontend_cuda.c  the front end object: flags, parsing, the header cache
 *   cuda_lower.c     the translation-unit walk: kernels, device functions,
 *                    launches, what calls pass
 *   cuda_launch.c    what a launch's configuration and arguments are worth:
 *                    block sizes, grid axes, multiples of the block, bounds
 *                    over the host variables (cuda_launch.h)
 *   cuda_host.c      facts of the host code (error checks after launches;
 *                    cuda_host.h)
 *   cuda_use.c       how host code uses a call's value (cuda_use.h)
 *   cuda_stmt.c ...  the interpreter of function bodies (cuda_walk.h)
 *   cuda_facts.c     syntactic facts of device code, bounds checks
 *                    (cuda_facts.h)
 *   cuda_tu.c        cursor, span, token and type helpers (cuda_tu.h)
 */
#ifndef KC_CUDA_LOWER_H
#define KC_CUDA_LOWER_H

#include "cuda_tu.h"

/* Walks the main file of `tu` and fills `m`: kernels (templates from their
 * primary template), device functions that access memory, launches. */
/* holes: statements the parse dropped (cuda_tu.h), recorded as calls that
 * may synchronize where they stood. */
void kc_cuda_lower_tu(CXTranslationUnit tu, const kc_source *src, kc_model *m, const kc_cuda_hole *holes,
                      uint32_t nholes);

#endif
