/* KC502 low-precision-accumulation: sums and dot products accumulated in
 * fp16/bf16.
 *
 * Reads: kc_kernel.accums (front ends record loop-carried accumulators of a
 * narrow type, tl.dot(..., out_dtype=<narrow>) and reductions of narrow
 * blocks; decl_span/fix_text name the type to widen). */
#include "rule_util.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags sums and dot products accumulated in a 16-bit (or 8-bit) float type:\n"
    "\n"
    "- an accumulator declared narrow and updated across loop passes:\n"
    "  `acc = tl.zeros(..., dtype=tl.float16)` then `acc += x` or\n"
    "  `acc = tl.dot(a, b, acc)`; a `__half` / `__nv_bfloat16` accumulator\n"
    "  updated in a CUDA loop;\n"
    "- `tl.dot(..., out_dtype=tl.float16)` (the K-reduction itself is narrow);\n"
    "- `tl.sum` of a block known to be fp16/bf16.\n"
    "\n"
    "Values whose element type is not known (loads from pointers of unknown type)\n"
    "are not reported, nor is a CUDA variable that each pass rewrites before it\n"
    "adds to it, by an assignment or through an out-pointer on the same path\n"
    "(`cmul(a, w, &z_re, &z_im); z_re = __hadd2(e, z_re);`): a two-term sum per\n"
    "pass, nothing carried across passes. Nor is a sum of few terms: a loop of\n"
    "few passes (up to 64 in fp16, 8 in bf16), such as a warp's butterfly\n"
    "reduction, whose variable is divided each pass (`mask >>= 1`) and so ends\n"
    "within its width wherever it starts. In a `__device__` helper whose loop\n"
    "runs a parameter of the helper (`for (i = 0; i < count; i++)`) and nothing\n"
    "shows that parameter to be a problem size, the length of the sum is the\n"
    "callers' choice: a note that says so.\n"
    "\n"
    "## Why is this bad?\n"
    "fp16 has 11 significant bits, bf16 only 8: once a running sum is 2^11 (2^8)\n"
    "times larger than the terms added to it, each addition rounds most of the\n"
    "term away. A bf16 sum of ones stops at 256; a dot product over K = 4096 in\n"
    "fp16 loses about 3 decimal digits. The loss grows with the problem size\n"
    "(sequence length, vocabulary, hidden size), so tests on small shapes pass.\n"
    "Tensor cores accumulate in fp32 at the same speed, so the narrow\n"
    "accumulator buys nothing.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float16)\n"
    "for k in range(0, K, BLOCK_K):\n"
    "    acc += tl.dot(a, b, out_dtype=tl.float16)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n"
    "for k in range(0, K, BLOCK_K):\n"
    "    acc = tl.dot(a, b, acc)\n"
    "c = acc.to(tl.float16)        # round once, at the end\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Accumulate in fp32 and convert once when storing. In Triton the fix-it\n"
    "changes the accumulator's dtype argument (or `out_dtype`) to `float32`;\n"
    "the store converts to the output's type. In CUDA it declares a `__half` or\n"
    "`__nv_bfloat16` accumulator `float` and converts what each `+=` or\n"
    "`acc = acc + x` adds (`static_cast<float>(x)`): these types convert to\n"
    "several built-in types, so `float += __half` alone is ambiguous and does\n"
    "not compile (nvcc 13.0). An accumulator also updated through an intrinsic\n"
    "(`__hadd`, `__hfma`) gets no fix-it: the intrinsic takes 16-bit operands.\n"
    "\n"
    "## References\n"
    "- linkedin/Liger-Kernel PR #950 (fp32 accumulation).\n"
    "- pytorch/pytorch PR #188998; PR #60387 (\"Accumulate 16-bit float sums in 32-bit accumulators\").\n";

/* Two statements of one accumulator: the same variable, declared at the same place. */
static bool same_accumulator(const kc_accum *p, const kc_accum *q)
{
    return p->var && q->var && !strcmp(p->var, q->var) && p->decl_span.line == q->decl_span.line &&
           p->decl_span.col == q->decl_span.col;
}

/* Passes of every loop the accumulator persists across (from its loop out
 * to its outer loop), -1 when one is unknown. */
static int64_t accumulated_passes(const kc_kernel *k, const kc_accum *ac)
{
    if (ac->passes_unknown || ac->loop == KC_NONE || ac->loop >= k->loops.len)
        return -1;
    int64_t n = 1;
    for (uint32_t l = ac->loop; l != KC_NONE && l < k->loops.len; l = k->loops.data[l].parent) {
        int64_t t = kc_loop_passes_at_most(&k->loops.data[l]);
        if (t < 0 || (t > 0 && n > INT64_MAX / t))
            return -1;
        n *= t;
        if (ac->outer_loop == KC_NONE || l == ac->outer_loop)
            break;
    }
    return n;
}

/* What a 16-bit (or 8-bit) float type keeps: its significant bits as the
 * message says them, and the most terms a sum in it can take before an
 * addition keeps fewer than 5 of a term's bits (2^6 for fp16's 11, 2^3
 * for bf16's 8, none for fp8). */
typedef struct narrow_float {
    const char *bits;
    int64_t few_terms;
} narrow_float;

static narrow_float narrow_of(const char *dt)
{
    if (!strcmp(dt, "fp8"))
        return (narrow_float){"3 or 4", 0};
    if (!strcmp(dt, "bf16") || strstr(dt, "bfloat16") || strstr(dt, "BFloat16"))
        return (narrow_float){"8", 8};
    return (narrow_float){"11", KC_NARROW_SUM_TERMS};
}

/* In a __device__ helper, the parameter of the helper that bounds the
 * accumulator's loop (`for (int i = 0; i < count; i++)`), when nothing
 * shows it to be a problem size: how many terms are summed is its
 * callers' choice. NULL otherwise. */
static const char *helper_count(const kc_kernel *k, const kc_accum *ac)
{
    if (!k->is_device_function || ac->loop == KC_NONE || ac->loop >= k->loops.len)
        return NULL;
    const kc_index *end = k->loops.data[ac->loop].end;
    const char *name = NULL;
    for (unsigned i = 0; end && i < end->nmono; i++)
        for (unsigned f = 0; f < end->mono[i].nfac; f++) {
            const kc_atom *a = &end->mono[i].fac[f];
            if (a->kind != KC_ATOM_SYMBOL || a->id >= k->symbols.len)
                return NULL;
            const kc_symbol *s = &k->symbols.data[a->id];
            if (s->kind != KC_SYM_PARAM || (s->facts & KC_SF_PROBLEM_SIZE))
                return NULL;
            name = s->name;
        }
    return name;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    kc_arena *ar = kc_rule_arena(ctx);
    for (uint32_t i = 0; i < k->accums.len; i++) {
        const kc_accum *ac = &k->accums.data[i];
        /* One finding per declaration: later updates of the same
         * accumulator become a note of the first. */
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = kc_span_valid(ac->decl_span) && k->accums.data[j].kind == ac->kind &&
                   same_accumulator(&k->accums.data[j], ac);
        if (seen)
            continue;
        const char *dt = ac->dtype ? ac->dtype : "a 16-bit type";
        /* A loop of few passes sums few terms: the error is bounded by the
         * loop, not by the problem size. */
        int64_t passes = accumulated_passes(k, ac);
        if (ac->var && passes >= 0 && passes <= narrow_of(dt).few_terms)
            continue;
        const char *decl = kc_rule_span_text(ctx, ac->decl_span);
        kc_diag *d;
        if (ac->kind == KC_ACCUM_REDUCE) {
            d = kc_report(ctx, k, ac->span, "the sum of a %s block is accumulated in %s", dt, dt);
            kc_diag_note(d, "a reduction keeps its input's float type: every partial sum is rounded to %s", dt);
        } else if (!ac->var) {
            d = kc_report(ctx, k, ac->span, "the dot product accumulates in %s (`out_dtype=%s`)", dt, decl);
            kc_diag_note(d, "out_dtype is the accumulator's type: the whole K-reduction is summed in %s, not only "
                         "the result",
                         dt);
        } else {
            d = kc_report(ctx, k, ac->span, "`%s` accumulates in %s across the loop: every %s rounds the running %s "
                          "to %s",
                          ac->var, dt, ac->kind == KC_ACCUM_DOT ? "multiply-add" : "addition",
                          ac->kind == KC_ACCUM_DOT ? "product sum" : "sum", dt);
            if (kc_span_valid(ac->decl_span))
                kc_diag_note(d, "`%s` is declared %s on line %u (`%s`)", ac->var, dt, ac->decl_span.line, decl);
            if (ac->loop != KC_NONE && ac->loop < k->loops.len)
                kc_diag_note(d, "it is updated in %s", kc_loop_describe(ctx, k, &k->loops.data[ac->loop]));
            if (ac->outer_loop != KC_NONE && ac->outer_loop != ac->loop && ac->outer_loop < k->loops.len)
                kc_diag_note(d, "and keeps accumulating across %s%s",
                             kc_loop_describe(ctx, k, &k->loops.data[ac->outer_loop]),
                             passes >= 0 ? kc_arena_printf(ar, ": %" PRId64 " additions in all", passes) : "");
            for (uint32_t j = i + 1; j < k->accums.len; j++)
                if (same_accumulator(&k->accums.data[j], ac))
                    kc_diag_note(d, "it is also updated on line %u", k->accums.data[j].span.line);
        }
        kc_diag_note(d, "%s keeps %s significant bits: once the sum is that many powers of two larger than a term, "
                     "the term is mostly rounded away, and the error grows with the reduction length",
                     dt, narrow_of(dt).bits);
        const char *count = passes < 0 ? helper_count(k, ac) : NULL;
        if (count) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "the loop runs `%s` passes, a parameter of the helper `%s`: the sum is long only if its "
                         "callers pass a large `%s` (up to %lld passes in %s lose little), which kcheck does not "
                         "follow; reported as a note",
                         count, k->name, count, (long long)narrow_of(dt).few_terms, dt);
        }
        /* The widening is one fix-it: the declaration and what each
         * statement of the accumulator needs with it, or nothing. */
        bool fixable = ac->fix_text && kc_span_valid(ac->decl_span);
        for (uint32_t j = i; j < k->accums.len && fixable; j++) {
            const kc_accum *p = &k->accums.data[j];
            if (same_accumulator(p, ac))
                fixable = !(p->operand_fix && !*p->operand_fix);
        }
        if (fixable) {
            size_t edits = 0;
            for (uint32_t j = i; j < k->accums.len; j++) {
                const kc_accum *p = &k->accums.data[j];
                edits += same_accumulator(p, ac) && p->operand_fix && kc_span_valid(p->operand_span);
            }
            kc_diag_fix(d,
                        edits ? kc_arena_printf(ar, "accumulate in fp32: declare `%s` as `%s` and convert what is "
                                                    "added to it (%zu statement%s)",
                                                ac->var, ac->fix_text, edits, edits == 1 ? "" : "s")
                              : kc_arena_printf(ar, "accumulate in fp32: `%s`", ac->fix_text),
                        ac->decl_span, ac->fix_text);
            for (uint32_t j = i; j < k->accums.len; j++) {
                const kc_accum *p = &k->accums.data[j];
                if (same_accumulator(p, ac) && p->operand_fix && kc_span_valid(p->operand_span))
                    kc_diag_fix_edit(d, p->operand_span, p->operand_fix);
            }
        } else {
            kc_diag_note(d, "fix: accumulate in fp32 and convert once at the end");
        }
    }
}

const kc_rule kc502_low_precision_accumulation = {
    .id = "KC502",
    .slug = "low-precision-accumulation",
    .summary = "Sums and dot products accumulated in fp16/bf16 (narrow accumulators, out_dtype, sums of narrow "
               "blocks).",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_WRONG_RESULT,
};
