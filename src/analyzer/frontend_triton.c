/* Triton front end (tree-sitter). Placeholder until the real one lands. */
#include "kc_frontend.h"

#include <stdlib.h>

struct kc_triton_frontend {
    const kc_options *opts;
};

kc_triton_frontend *kc_triton_frontend_new(const kc_options *opts)
{
    kc_triton_frontend *fe = kc_xcalloc(1, sizeof *fe);
    fe->opts = opts;
    return fe;
}

void kc_triton_frontend_delete(kc_triton_frontend *fe) { free(fe); }

kc_model *kc_triton_lower(kc_triton_frontend *fe, const kc_source *src, kc_file_errors *errs)
{
    (void)fe;
    return kc_model_new(src, KC_LANG_TRITON);
}
