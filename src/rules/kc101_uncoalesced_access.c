#include "kc_rule.h"

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx) { (void)m; (void)k; (void)ctx; }

const kc_rule kc101_uncoalesced_access = {
    .id = "KC101",
    .slug = "uncoalesced-access",
    .summary = "placeholder",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = "",
    .check = check,
};
