/* KC000 invalid-suppression — kcheck's own diagnostic: a `kcheck:` comment that
 * cannot be read (unknown rule, malformed list, unknown directive).
 * Reported by the suppression pass of the engine (kc_suppress.c), not by a
 * check of the kernel model, so it has no check function. */
#include "kc_rule.h"

const kc_rule kc000_invalid_suppression = {
    .id = "KC000",
    .slug = "invalid-suppression",
    .summary = "A `kcheck:` comment that kcheck cannot read: unknown rule, malformed list or unknown directive.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = "## What it does\n"
           "Flags `kcheck:` comments that are not a valid directive: a rule name in\n"
           "`kcheck: ignore[...]` or `kcheck: ignore-file[...]` that is neither a rule\n"
           "ID (`KC101`) nor a slug (`uncoalesced-access`), an empty or unterminated\n"
           "list, or a directive other than `ignore`, `ignore-file` and `verify`.\n"
           "\n"
           "## Why is this bad?\n"
           "A suppression with a misspelt rule name suppresses nothing: the finding it\n"
           "was meant to silence is still reported, or worse, a later finding of the\n"
           "intended rule is not, and nobody notices why.\n"
           "\n"
           "## Example\n"
           "```python\n"
           "    x = tl.load(p + rows * N)  # kcheck: ignore[KC1O1]\n"
           "```\n"
           "\n"
           "## Use instead\n"
           "```python\n"
           "    x = tl.load(p + rows * N)  # kcheck: ignore[KC101]\n"
           "```\n"
           "\n"
           "## Fix\n"
           "Correct the rule name (`kcheck --list-rules`). kcheck's own diagnostics\n"
           "(KC0xx) cannot be suppressed by comments; `--ignore KC000` turns this one off.\n"
           "\n"
           "## References\n"
           "- `docs/ci.md`, section \"Suppressing findings\".\n",
    .options = NULL,
    .check = NULL,
    .verify = KC_VERIFY_NONE,
};
