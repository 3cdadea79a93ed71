/* libFuzzer: Python/Triton source -> tree-sitter front end -> every rule,
 * suppressions, fingerprints, text reporter, fix-its and their re-check. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static kc_frontend *fe;
    if (!fe)
        fe = kc_frontend_new(fuzz_options());
    fuzz_pipeline(fe, KC_LANG_TRITON, "fuzz.py", data, size);
    return 0;
}
