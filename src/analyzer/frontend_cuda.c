/* CUDA front end (libclang). Placeholder until the real one lands. */
#include "kc_frontend.h"

#include <stdlib.h>

struct kc_cuda_frontend {
    const kc_options *opts;
};

kc_cuda_frontend *kc_cuda_frontend_new(const kc_options *opts)
{
    kc_cuda_frontend *fe = kc_xcalloc(1, sizeof *fe);
    fe->opts = opts;
    return fe;
}

void kc_cuda_frontend_delete(kc_cuda_frontend *fe) { free(fe); }

kc_model *kc_cuda_lower(kc_cuda_frontend *fe, const kc_source *src, kc_file_errors *errs)
{
    (void)fe;
    return kc_model_new(src, KC_LANG_CUDA);
}
