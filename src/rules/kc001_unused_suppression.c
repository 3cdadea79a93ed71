/* KC001 unused-suppression — kcheck's own diagnostic: a suppression comment that
 * matched no finding (with --report-unused-suppressions).
 * Reported by the suppression pass of the engine (kc_suppress.c), not by a
 * check of the kernel model, so it has no check function. */
#include "kc_rule.h"

const kc_rule kc001_unused_suppression = {
    .id = "KC001",
    .slug = "unused-suppression",
    .summary = "A suppression comment that matched no finding (reported with --report-unused-suppressions).",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = "## What it does\n"
           "With `--report-unused-suppressions`, flags `kcheck: ignore` and\n"
           "`kcheck: ignore-file` comments, or single rule names in their lists, that\n"
           "suppressed no finding. A rule that is not enabled for the file (by\n"
           "`--select`, `--ignore` or configuration) is not reported: kcheck cannot\n"
           "tell whether it would have matched.\n"
           "\n"
           "## Why is this bad?\n"
           "A stale suppression hides the next real finding on that line. Suppressions\n"
           "should be removed once the code they excused is fixed.\n"
           "\n"
           "## Example\n"
           "```cuda\n"
           "    y[i] = x[i];  // kcheck: ignore[KC101]   (the access is coalesced now)\n"
           "```\n"
           "\n"
           "## Use instead\n"
           "```cuda\n"
           "    y[i] = x[i];\n"
           "```\n"
           "\n"
           "## Fix\n"
           "Delete the comment, or the rule name from its list.\n"
           "\n"
           "## References\n"
           "- ruff's RUF100 (unused `noqa`), clang-tidy's `NOLINT` checks.\n",
    .options = NULL,
    .check = NULL,
    .verify = KC_VERIFY_NONE,
};
