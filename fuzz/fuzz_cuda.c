/* libFuzzer: CUDA source -> libclang front end in shim mode (kcheck's
 * stand-in headers) -> every rule, suppressions, fingerprints, text
 * reporter, fix-its and their re-check. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static kc_frontend *fe;
    if (!fe)
        fe = kc_frontend_new(fuzz_options()); /* shim mode: the default */
    fuzz_pipeline(fe, KC_LANG_CUDA, "fuzz.cu", data, size);
    return 0;
}
