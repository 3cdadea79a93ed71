/* kc_triton_frontend.h — the Triton front end's entry points, for the door
 * (src/analyzer/kc_frontend.c) and nothing else: everything else reaches a
 * front end through kc_frontend.h. */
#ifndef KC_TRITON_FRONTEND_H
#define KC_TRITON_FRONTEND_H

#include "kc_diag.h"
#include "kc_model.h"
#include "kc_options.h"

/* Triton kernels of one Python file; a kc_triton_frontend holds a
 * tree-sitter parser and is used by one thread. */
typedef struct kc_triton_frontend kc_triton_frontend;
kc_triton_frontend *kc_triton_frontend_new(const kc_options *opts);
void kc_triton_frontend_delete(kc_triton_frontend *fe);
kc_model *kc_triton_lower(kc_triton_frontend *fe, const kc_source *src, const kc_peers *peers,
                          kc_file_errors *errs);

#endif
