/* cuda_recover.h — launches of the file's kernels that the parse lost.
 *
 * A launch written inside a macro that a missing header defines
 * (`DISPATCH_FLOAT_AND_HALF(t, 0, "name", kernel<<<blocks, 512>>>(...););`)
 * is a syntax error to clang, which drops the statement: the kernel then
 * looks never launched, and the rules that read launches (KC404 judges only
 * launched kernels) say nothing. These launches are found in the text:
 * the kernel's name and the `<<<grid, block>>>` configuration as written,
 * nothing else (kc_launch.recovered). */
#ifndef KC_CUDA_RECOVER_H
#define KC_CUDA_RECOVER_H

#include "kc_model.h"
#include "kc_source.h"

/* Adds to m the `name<<<...>>>` launches of kernels defined in the file
 * that are in the text (outside comments and strings) but not among
 * m->launches. Returns how many it added. */
uint32_t kc_cuda_recover_launches(kc_model *m, const kc_source *src);

#endif
