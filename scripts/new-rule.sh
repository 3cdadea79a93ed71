#!/usr/bin/env bash
# Scaffolds a new rule: the rule file, its rules.def entry and its fixture
# directory. Fill in the check, the doc and the fixtures, then regenerate the
# docs (scripts/gen-rule-docs.sh build/kcheck docs).
#   scripts/new-rule.sh KC401 barrier-divergence cuda|triton|both
set -euo pipefail
cd "$(dirname "$0")/.."
id=$1 slug=$2 langs=${3:-both}
[[ $id =~ ^KC[0-9]{3}$ ]] || { echo "rule ID must look like KC401" >&2; exit 2; }
[[ $slug =~ ^[a-z0-9]+(-[a-z0-9]+)*$ ]] || { echo "slug must be lower-case-with-dashes" >&2; exit 2; }
sym="$(echo "$id" | tr A-Z a-z)_$(echo "$slug" | tr - _)"
file=src/rules/$sym.c
[ -e "$file" ] && { echo "$file exists" >&2; exit 2; }
case $langs in
cuda) bits=KC_LANG_BIT_CUDA; exts=cu ;;
triton) bits=KC_LANG_BIT_TRITON; exts=py ;;
both) bits="KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON"; exts="cu py" ;;
*) echo "languages: cuda, triton or both" >&2; exit 2 ;;
esac
cat > "$file" <<C
/* $id $slug: TODO one line. */
#include "rule_util.h"

static const char doc[] =
    "## What it does\n"
    "TODO\n"
    "\n"
    "## Why is this bad?\n"
    "TODO\n"
    "\n"
    "## Example\n"
    "TODO\n"
    "\n"
    "## Use instead\n"
    "TODO\n"
    "\n"
    "## Fix\n"
    "TODO\n"
    "\n"
    "## References\n"
    "TODO\n";

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    (void)k;
    (void)ctx;
}

const kc_rule $sym = {
    .id = "$id",
    .slug = "$slug",
    .summary = "TODO: one sentence.",
    .severity = KC_SEV_WARNING,
    .langs = $bits,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_NONE, /* how verify mode confirms a finding (kc_rule.h) */
};
C
# before kcheck's own diagnostics (KC0xx), which rules.def lists last
sed -i "/^KC_RULE(kc000_/i KC_RULE($sym)" src/rules/rules.def
mkdir -p "tests/fixtures/${id}_$slug"
for e in $exts; do
    c='#'; [ "$e" = cu ] && c='//'
    printf '%s TODO: a kernel with the problem; put the expectation under the line:\n%s      ^ %s "text of the message"\n' "$c" "$c" "$id" > "tests/fixtures/${id}_$slug/bad_TODO.$e"
    printf '%s TODO: the correct kernel, which must stay clean.\n' "$c" > "tests/fixtures/${id}_$slug/ok_TODO.$e"
done
echo "created $file, tests/fixtures/${id}_$slug/ and the rules.def entry"
