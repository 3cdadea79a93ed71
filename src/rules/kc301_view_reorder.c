/* KC301 view-reorder: tl.view / tl.reshape(can_reorder=True) whose element
 * order is then observed. */
#include "rule_util.h"

#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags `tl.view(x, shape)` and `tl.reshape(x, shape, can_reorder=True)` when\n"
    "the result is used where element order matters: combined element-wise with\n"
    "another block, used as an address or a mask, stored, or fed to `tl.dot`.\n"
    "A result that is only reduced as a whole is not reported, nor a view to a\n"
    "single element (`[1]`, `[1, 1]`), which has no order to change, nor one to\n"
    "the shape its input already has (Triton folds it away). Where the input's\n"
    "shape is not known (a parameter of a `@triton.jit` helper, the result of a\n"
    "helper), the finding is a note that says so.\n"
    "\n"
    "## Why is this bad?\n"
    "These calls promise the same elements in *some* order, not in the order\n"
    "of a row-major reshape: the compiler may hand back the elements in the\n"
    "order of its register layout. The kernel can then silently pair the\n"
    "wrong elements. It often works on small cases and breaks with other\n"
    "layouts; measured with Triton 3.6 on an H200, reshaping a `tl.dot` result\n"
    "this way reordered the elements in 6 of 6 tries. `tl.view` is deprecated.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "q = tl.view(q, (1, HEAD_DIM))\n"
    "s = tl.sum(q * k, axis=1)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "q = q[None, :]                     # or tl.reshape(q, (1, HEAD_DIM))\n"
    "s = tl.sum(q * k, axis=1)\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Index with `None` to add unit dimensions (`x[None, :]`, `x[:, None]`), or\n"
    "use `tl.reshape(x, shape)` (order-preserving; `can_reorder` defaults to\n"
    "False). The fix-it does this.\n"
    "\n"
    "## References\n"
    "- triton-lang/triton#2829, #2157, #2454; PR #3480 (tl.view semantics).\n"
    "- kcheck seed 003 (\"Mismatch behavior between for-loop and SIMD\").\n";

/* A shape of one element (`[1]`, `[1, 1]`): a view to it has no order to
 * change. */
static bool one_element(const kc_shape *s)
{
    for (unsigned i = 0; i < s->rank && i < KC_MAX_RANK; i++)
        if (s->dims[i].value != 1)
            return false;
    return s->rank > 0;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_strbuf from = {0}, to = {0};
    for (uint32_t i = 0; i < k->reorders.len; i++) {
        const kc_reorder *r = &k->reorders.data[i];
        if (!r->use_kind || one_element(&r->to))
            continue;
        from.len = to.len = 0;
        if (from.data)
            from.data[0] = '\0';
        if (to.data)
            to.data[0] = '\0';
        if (r->from_unknown)
            kc_sb_appendf(&from, "a shape not known here");
        else
            kc_model_format_shape(k, &r->from, &from);
        kc_model_format_shape(k, &r->to, &to);
        kc_diag *d = kc_report(ctx, k, r->span,
                               "`%s` may reorder the elements of `%s` (%s -> %s), and the result is %s on line %u",
                               r->callee_text, r->arg_text, kc_sb_str(&from), kc_sb_str(&to), r->use_kind,
                               r->use_span.line);
        if (r->from_unknown) {
            /* a view to the shape the block already has folds away: it
             * reorders nothing, and kcheck cannot tell that it is not one */
            kc_diag_note(d, "the shape of `%s` is not known here (a helper's parameter or result, or branches that give "
                         "it different shapes); if it already is %s, the call folds away and reorders nothing; "
                         "reported as a note",
                         r->arg_text, kc_sb_str(&to));
            d->severity = KC_SEV_NOTE;
        }
        if (r->can_reorder_kw)
            kc_diag_note(d, "can_reorder=True lets the compiler return the elements in any order");
        else
            kc_diag_note(d, "tl.view is tl.reshape(..., can_reorder=True): it keeps the elements, not their order "
                         "(and it is deprecated)");
        kc_diag_note(d, "element order matters there: the elements are paired position by position");
        if (r->from_dot)
            kc_diag_note(d, "the input is a tl.dot result, whose register layout differs from row-major: measured "
                         "on Triton 3.6, such reshapes reordered elements in 6 of 6 tries");
        else
            kc_diag_note(d, "on simple blocked layouts it often keeps the order, so tests pass until the layout "
                         "changes (other shapes, num_warps, or a tl.dot input)");
        if (r->fix_text)
            kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "use `%s`, which keeps the order", r->fix_text),
                        r->span, r->fix_text);
    }
    (void)m;
    kc_sb_free(&from);
    kc_sb_free(&to);
}

const kc_rule kc301_view_reorder = {
    .id = "KC301",
    .slug = "view-reorder",
    .summary = "tl.view / tl.reshape(can_reorder=True) result used where element order matters.",
    .severity = KC_SEV_ERROR,
    .langs = KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_WRONG_RESULT,
};
