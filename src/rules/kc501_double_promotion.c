/* KC501 double-promotion: float device code silently computing in double
 * precision (unsuffixed literals, double math functions). */
#include "rule_util.h"

#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags float device code (kernels and `__device__` functions) that computes in\n"
    "double precision by accident:\n"
    "\n"
    "- an unsuffixed floating literal combined with a float value (`x * 0.5`,\n"
    "  `acc += 1e-6`), when the result goes back into a float: the float is\n"
    "  converted to double, the arithmetic runs on the fp64 units, and the result\n"
    "  is converted back;\n"
    "- a math function that resolves to its double version because its argument\n"
    "  is such a promoted value (`exp(x * 2.0)` calls `double exp(double)`), and\n"
    "  `pow(x, 2)` with a float `x` and an integer exponent, which the C++\n"
    "  library's `pow(T, U)` template computes in double.\n"
    "\n"
    "Arithmetic on genuine doubles (double variables, explicit casts) and\n"
    "comparisons are left alone; so is template code whose types are not known.\n"
    "\n"
    "## Why is this bad?\n"
    "Consumer and inference GPUs have little fp64 throughput: 1/32 of fp32 on a T4,\n"
    "1/64 on many GeForce parts. A stray `0.5` in an activation can make a kernel\n"
    "several times slower; measured here on an H200 (which has full-rate fp64) a\n"
    "GELU loop with double literals took 0.53 ms against 0.21 ms (2.6x). It also\n"
    "costs registers (a double takes two).\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "float y = 0.5 * x * (1.0 + tanhf(0.7978845608 * (x + 0.044715 * x * x * x)));\n"
    "float e = exp(x * 2.0);\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "float y = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));\n"
    "float e = expf(x * 2.0f);\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Add the `f` suffix to the literals (fix-it), call the float function (`expf`,\n"
    "`sqrtf`, `powf`; fix-it), or `static_cast<T>(0.5)` in templates. Compile with\n"
    "`-Xptxas -warn-double-usage` (or look for `f64` in the PTX) to find the rest.\n"
    "\n"
    "## References\n"
    "- AliceO2Group/AliceO2 PR #15689 (a division forced into double cost 23% of the\n"
    "  stalls of ITS tracking kernels).\n"
    "- ccsb-scripps/AutoDock-GPU PR #123 (\"make sure no doubles appear in single\n"
    "  precision kernels\": 1.0 instead of 1.0f).\n"
    "- CUDA C++ Best Practices Guide, \"Promotions to Doubles and Truncations to Floats\".\n";

/* The literal as the message shows it: `0.5`, or `0.5` (from `SCALE`). */
static const char *shown(kc_arena *ar, const kc_literal *l)
{
    return l->macro ? kc_arena_printf(ar, "`%s` (from `%s`)", l->text, l->macro) : kc_arena_printf(ar, "`%s`", l->text);
}

static void literals(const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    bool *done = calloc(k->literals.len ? k->literals.len : 1, sizeof *done);
    for (uint32_t i = 0; i < k->literals.len; i++) {
        if (done[i])
            continue;
        const kc_literal *l = &k->literals.data[i];
        /* All the literals of one line: one diagnostic, one fix-it. */
        kc_strbuf names = {0};
        unsigned n = 0, fixable = 0;
        for (uint32_t j = i; j < k->literals.len; j++) {
            const kc_literal *o = &k->literals.data[j];
            if (done[j] || o->span.line != l->span.line)
                continue;
            done[j] = true;
            if (n < 6)
                kc_sb_appendf(&names, "%s%s", n ? ", " : "", shown(ar, o));
            n++;
            fixable += o->fix_text != NULL;
        }
        if (n > 6)
            kc_sb_append(&names, ", ...");
        const char *ctxt = l->context && strlen(l->context) <= 60 ? l->context
                                                                   : kc_arena_printf(ar, "%.57s...", l->context ? l->context : "");
        kc_diag *d;
        if (n == 1)
            d = kc_report(ctx, k, l->span,
                          "double-precision literal %s promotes `%s` to double: the float operand is converted "
                          "and the arithmetic runs in fp64",
                          shown(ar, l), ctxt);
        else
            d = kc_report(ctx, k, l->span,
                          "%u double-precision literals (%s) promote float arithmetic on this line to fp64, "
                          "starting with `%s`",
                          n, kc_sb_str(&names), ctxt);
        kc_sb_free(&names);
        if (l->loop != KC_NONE && l->loop < k->loops.len)
            kc_diag_note(d, "it runs in %s", kc_loop_describe(ctx, k, &k->loops.data[l->loop]));
        kc_diag_note(d, "the result is stored back as float, so the double precision is lost anyway; fp64 runs at "
                     "1/32 of the fp32 rate on a T4 (2.6x slower measured for a GELU loop even on an H200)");
        bool first = true;
        for (uint32_t j = i; fixable && j < k->literals.len; j++) {
            const kc_literal *o = &k->literals.data[j];
            if (o->span.line != l->span.line || !o->fix_text)
                continue;
            if (first)
                kc_diag_fix(d, n == 1 ? kc_arena_printf(ar, "write %s", o->fix_text) : "add the f suffix to the literals",
                            o->span, o->fix_text);
            else
                kc_diag_fix_edit(d, o->span, o->fix_text);
            first = false;
        }
        if (fixable < n)
            kc_diag_note(d, "a literal that comes from a macro gets no fix-it: add the `f` suffix in the macro's "
                         "definition (or cast it to float)");
    }
    free(done);
}

static void math_calls(const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        if (!(c->flags & KC_CALL_DOUBLE_MATH))
            continue;
        const char *call = kc_rule_span_text(ctx, c->span);
        if (strlen(call) > 60)
            call = kc_arena_printf(ar, "%.57s...", call);
        kc_span at = kc_span_valid(c->callee_span) ? c->callee_span : c->span;
        kc_diag *d = kc_report(ctx, k, at, "`%s` calls the double-precision `%s`: %s", call, c->callee,
                               (c->flags & KC_CALL_POW_INT)
                                   ? "a float base with an integer exponent makes the C++ library's pow(T, U) "
                                     "promote both to double"
                                   : "its argument is float data promoted to double");
        if (c->loop != KC_NONE && c->loop < k->loops.len)
            kc_diag_note(d, "it runs in %s", kc_loop_describe(ctx, k, &k->loops.data[c->loop]));
        kc_diag_note(d, "double-precision transcendental functions take tens of fp64 instructions; the float "
                     "version is `%sf` (or keep the argument float: with float arguments C++ overloads pick the "
                     "float function)",
                     c->callee);
        if (c->fix_text && kc_span_valid(c->callee_span))
            kc_diag_fix(d, kc_arena_printf(ar, "call %s", c->fix_text), c->callee_span, c->fix_text);
    }
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    literals(k, ctx);
    math_calls(k, ctx);
}

const kc_rule kc501_double_promotion = {
    .id = "KC501",
    .slug = "double-promotion",
    .summary = "Unsuffixed floating literals or double-precision math calls that silently make float device code "
               "compute in fp64.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_PERF_RUNTIME,
};
