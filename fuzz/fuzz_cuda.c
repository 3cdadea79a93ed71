/* libFuzzer: CUDA source -> libclang front end in shim mode (kcheck's
 * stand-in headers) -> every rule, suppressions, fingerprints, text
 * reporter, fix-its and their re-check; and the scan for the file's
 * preamble (the leading directives precompiled by the header cache). */
#include "fuzz_common.h"

#include "cuda_pch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static kc_frontend *fe;
    if (!fe)
        fe = kc_frontend_new(fuzz_options()); /* shim mode: the default */
    size_t pre = kc_cuda_preamble_len((const char *)data, size);
    if (pre > size)
        __builtin_trap(); /* the preamble is a prefix of the file */
    fuzz_pipeline(fe, KC_LANG_CUDA, "fuzz.cu", data, size);
    return 0;
}
