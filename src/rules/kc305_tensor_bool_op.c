/* KC305 tensor-bool-op: Python `and` / `or` / `not` applied to block
 * tensors.
 *
 * Reads: kc_kernel.block_logic (the front end records an and/or/not chain
 * only when its result is known to be a block, with the `&`/`|`/`~`
 * spelling when every operand is boolean). */
#include "rule_util.h"

static const char doc[] =
    "## What it does\n"
    "Flags Python's `and`, `or` and `not` applied to Triton blocks (masks and\n"
    "comparisons of `tl.arange` indices), e.g. `mask = row_offset < M and col_mask`.\n"
    "Scalar conditions (`if pid < n and x:` on scalars, `constexpr` flags) are fine\n"
    "and are not reported.\n"
    "\n"
    "## Why is this bad?\n"
    "`and`/`or`/`not` are Python's truth-value operators. On a block Triton 3.x\n"
    "falls back to an element-wise `logical_and` with a deprecation warning\n"
    "(\"Logical operators 'and' and 'or' are deprecated for non-scalar tensors\"),\n"
    "floods logs at every compile, and the fallback is slated to go: kernels that\n"
    "rely on it break on upgrade. Today it computes the same as `&`: measured\n"
    "with Triton 3.6.0 on an H200, `(a < n) and (b > 0)` on 1024-element blocks\n"
    "compiled, printed the deprecation and matched `&` on every lane\n"
    "(`bench/premise/triton_premises.py`, docs/measurements/triton-premises-h200.txt),\n"
    "so this is a warning, not an error. On non-boolean blocks the fallback\n"
    "bitcasts to `int1` and does not compile, and older releases reject chains\n"
    "like `a and b and c`. The usual hand rewrite is wrong too: `&` binds tighter\n"
    "than `<`, so `x < M & y < N` means `x < (M & y) < N`.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "mask = row_offset < M and col_mask\n"
    "x = tl.load(ptrs, mask=not done and mask)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "mask = (row_offset < M) & col_mask\n"
    "x = tl.load(ptrs, mask=~done & mask)\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Use `&`, `|` and `~`, with parentheses around comparisons. The fix-it\n"
    "rewrites the whole chain when every operand is a boolean block or scalar;\n"
    "for a non-boolean operand (`not x` on an integer block) write the comparison\n"
    "you mean (`x == 0`).\n"
    "\n"
    "## References\n"
    "- flagos-ai/FlagGems#1325 (generated kernels using `and`/`or` on tensor conditions), #5744.\n"
    "- Triton `code_generator.py` `visit_BoolOp` (the deprecation warning).\n";

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    for (uint32_t i = 0; i < k->block_logic.len; i++) {
        const kc_block_logic *b = &k->block_logic.data[i];
        const char *sym = b->op[0] == 'a' ? "&" : b->op[0] == 'o' ? "|" : "~";
        kc_diag *d = kc_report(ctx, k, kc_span_valid(b->op_span) ? b->op_span : b->span,
                               "deprecated Python `%s` on a block tensor: use `%s`%s", b->op, sym,
                               b->op[0] == 'n' ? "" : " with parentheses around the comparisons");
        kc_diag_note(d, "`%s` is evaluated element-wise only through a deprecated fallback: Triton 3.6 computes what "
                     "`%s` would, and warns \"Logical operators 'and' and 'or' are deprecated for non-scalar tensors\" "
                     "at every compile; non-boolean blocks and longer chains fail to compile on some releases",
                     kc_rule_span_text(ctx, b->span), sym);
        if (b->op[0] != 'n')
            kc_diag_note(d, "`%s` binds tighter than `<`: `x < M %s y < N` would mean `x < (M %s y) < N`, so keep the "
                         "parentheses",
                         sym, sym, sym);
        if (b->fix_text)
            kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "use `%s`", b->fix_text), b->span, b->fix_text);
        else
            kc_diag_note(d, "an operand is not boolean: `%s` would act bit by bit; compare it explicitly "
                         "(`x != 0`) before combining",
                         sym);
    }
}

const kc_rule kc305_tensor_bool_op = {
    .id = "KC305",
    .slug = "tensor-bool-op",
    .summary = "Python and/or/not applied to block tensors (deprecated): use &, | and ~ with parentheses.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_NONE, /* it compiles and computes what `&` does (see the doc) */
};
