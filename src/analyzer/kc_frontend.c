#include "kc_frontend.h"

#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

struct kc_frontend {
    const kc_options *opts;
    kc_cuda_frontend *cuda;     /* created on first use */
    kc_triton_frontend *triton; /* created on first use */
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool kc_lang_for_path(const char *path, kc_lang *lang)
{
    if (ends_with(path, ".cu") || ends_with(path, ".cuh")) {
        *lang = KC_LANG_CUDA;
        return true;
    }
    if (ends_with(path, ".py")) {
        *lang = KC_LANG_TRITON;
        return true;
    }
    return false;
}

kc_frontend *kc_frontend_new(const kc_options *opts)
{
    kc_frontend *fe = kc_xcalloc(1, sizeof *fe);
    fe->opts = opts;
    return fe;
}

void kc_frontend_delete(kc_frontend *fe)
{
    if (!fe)
        return;
    if (fe->cuda)
        kc_cuda_frontend_delete(fe->cuda);
    if (fe->triton)
        kc_triton_frontend_delete(fe->triton);
    free(fe);
}

kc_model *kc_frontend_lower(kc_frontend *fe, const kc_source *src, kc_lang lang,
                            kc_file_errors *errs)
{
    if (lang == KC_LANG_CUDA) {
        if (!fe->cuda)
            fe->cuda = kc_cuda_frontend_new(fe->opts);
        if (!fe->cuda) {
            kc_file_errors_add(errs, 0, 0, "the CUDA front end could not start (libclang)");
            return NULL;
        }
        return kc_cuda_lower(fe->cuda, src, errs);
    }
    if (!fe->triton)
        fe->triton = kc_triton_frontend_new(fe->opts);
    if (!fe->triton) {
        kc_file_errors_add(errs, 0, 0, "the Triton front end could not start (tree-sitter)");
        return NULL;
    }
    return kc_triton_lower(fe->triton, src, errs);
}

char *kc_frontend_versions(void)
{
    CXString v = clang_getClangVersion();
    char *s = kc_xasprintf("%s; tree-sitter-python 0.23.6", clang_getCString(v));
    clang_disposeString(v);
    return s;
}
