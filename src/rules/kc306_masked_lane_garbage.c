/* KC306 masked-lane-garbage: lanes that a load's mask turns off, holding
 * undefined values (no `other=`) or a value that is not neutral for what
 * follows, reach a reduction or the K axis of tl.dot.
 *
 * Reads: kc_kernel.lane_flows (the front end follows what the masked-out
 * lanes hold through element-wise operations, under the load as written
 * and under each neutral other=), and the loads (kc_access) they come from.
 * One diagnostic per load, at the load; a fix-it sets other= when one
 * neutral value suits every use of the load. */
#include "rule_util.h"

#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a masked `tl.load` whose masked-out lanes reach a use that combines\n"
    "lanes along the masked axis (`tl.sum`, `tl.max`, `tl.min`, `tl.argmax`,\n"
    "`tl.argmin`, `tl.reduce`, the K axis of `tl.dot`) holding something that\n"
    "is not that use's neutral element: undefined values when the load has no\n"
    "`other=`, or an `other=` turned non-neutral by the arithmetic in between\n"
    "(`other=0.0` through `tl.exp` becomes 1; `x / y` with `y`'s lanes 0\n"
    "becomes an infinity; `0.0 - mean` is `-mean`). A `tl.where` on the\n"
    "load's mask (or on another bound of the same index) in between replaces\n"
    "those lanes, and lanes masked along an axis that is not reduced stay in\n"
    "rows of their own (stored under the same mask): neither is reported.\n"
    "\n"
    "## Why is this bad?\n"
    "Triton defines a masked-out element of `tl.load` only through `other=`:\n"
    "without it the lane holds whatever the register held, NaN included, and\n"
    "what it holds differs between compilers, backends and releases (flagos-ai/\n"
    "FlagGems#969: `tl.dot` of K tiles loaded without `other=` gave wrong\n"
    "products on one backend and right ones on another). A reduction or a\n"
    "`tl.dot` over the masked axis adds those lanes into every result: the\n"
    "kernel is right only when the size is a multiple of the block, which is\n"
    "what tests usually use. A neutral value has to survive the arithmetic\n"
    "too: a softmax that loads with `other=0.0` sums `exp(0 - max)` for every\n"
    "masked-out lane.\n"
    "\n"
    "On NVIDIA GPUs Triton 3.6 sets the register of a masked-out lane to 0\n"
    "before the predicated load (`mov.u32 %r, 0x0`, measured on an H200 for\n"
    "fp32, fp16 and bf16 blocks, pipelined or not:\n"
    "`bench/premise/lanes_grid_premises.py`,\n"
    "`docs/measurements/kc306-kc602-premises-h200.txt`): a load without\n"
    "`other=` reads 0 there today. So a finding is a **warning** when the\n"
    "result is wrong on NVIDIA too (an `other=` that is not neutral, or lanes\n"
    "for which 0 is not neutral: a softmax sum of `exp(0 - max)`), and a\n"
    "**note** when it is right on NVIDIA and wrong only where a backend\n"
    "leaves the lanes undefined (a sum or a dot of lanes without `other=`).\n"
    "\n"
    "kcheck judges a sum or a dot as needing 0, a max -inf and a min +inf;\n"
    "`other=0.0` into a max (right for non-negative data) is not reported, and\n"
    "the values of the block's own lanes are taken to be finite.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K)\n"
    "b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K)\n"
    "acc += tl.dot(a, b)\n"
    "\n"
    "x = tl.load(X + cols, mask=cols < N, other=0.0)\n"
    "e = tl.exp(x - tl.max(x, axis=0))\n"
    "s = tl.sum(e, axis=0)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)\n"
    "b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)\n"
    "acc += tl.dot(a, b)\n"
    "\n"
    "x = tl.load(X + cols, mask=cols < N, other=-float(\"inf\"))\n"
    "e = tl.exp(x - tl.max(x, axis=0))\n"
    "s = tl.sum(e, axis=0)\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Give the load the neutral element of what consumes it: `other=0.0` for a\n"
    "sum or a dot, `other=-float(\"inf\")` for a max or for a sum of `exp`,\n"
    "`float(\"inf\")` for a min (for an integer tensor, the type's minimum or\n"
    "maximum instead of an infinity). The fix-it sets `other=` when one value\n"
    "is neutral for every use of the load; otherwise select the neutral value\n"
    "just before each use with `tl.where(mask, x, neutral)`.\n"
    "\n"
    "## References\n"
    "- flagos-ai/FlagGems#969 (`mm_kernel`: K tiles loaded without `other=` into `tl.dot`).\n"
    "- state-spaces/mamba bb3a82a (a `tl.where` whose mask let the lanes past the sequence end through into `tl.dot`).\n"
    "- Triton `tl.load` documentation: `other` is the value of masked-out elements.\n";

typedef enum judgement { J_QUIET = 0, J_GOOD, J_BAD } judgement;

static judgement judge(kc_sink_kind k, uint8_t f)
{
    if (f == KC_FILL_UNDEF || f == KC_FILL_NAN)
        return J_BAD;
    if (f == KC_FILL_NONE || f == KC_FILL_ANY)
        return J_QUIET;
    switch (k) {
    case KC_SINK_SUM: return f == KC_FILL_ZERO ? J_GOOD : J_BAD;
    case KC_SINK_MAX:
        if (f == KC_FILL_NEG_INF || f == KC_FILL_NEG_BIG)
            return J_GOOD;
        return f == KC_FILL_POS_INF || f == KC_FILL_POS_BIG ? J_BAD : J_QUIET;
    case KC_SINK_MIN:
        if (f == KC_FILL_POS_INF || f == KC_FILL_POS_BIG)
            return J_GOOD;
        return f == KC_FILL_NEG_INF || f == KC_FILL_NEG_BIG ? J_BAD : J_QUIET;
    default: return J_QUIET;
    }
}

static const char *fill_name(uint8_t f)
{
    switch (f) {
    case KC_FILL_UNDEF: return "undefined values";
    case KC_FILL_ZERO: return "0";
    case KC_FILL_POS: return "positive values";
    case KC_FILL_NEG: return "negative values";
    case KC_FILL_NONZERO: return "nonzero values";
    case KC_FILL_NEG_BIG: return "large negative values";
    case KC_FILL_POS_BIG: return "large positive values";
    case KC_FILL_NEG_INF: return "-inf";
    case KC_FILL_POS_INF: return "+inf";
    case KC_FILL_NAN: return "NaN or infinities";
    default: return "unknown values";
    }
}

static const char *fill_adj(uint8_t f)
{
    switch (f) {
    case KC_FILL_POS: return "positive";
    case KC_FILL_NEG: return "negative";
    case KC_FILL_NONZERO: return "nonzero";
    case KC_FILL_NEG_BIG: return "large and negative";
    case KC_FILL_POS_BIG: return "large and positive";
    case KC_FILL_NEG_INF: return "-inf";
    case KC_FILL_POS_INF: return "+inf";
    case KC_FILL_NAN: return "NaN or infinite";
    case KC_FILL_UNDEF: return "undefined";
    default: return "something else";
    }
}

static const char *needs(kc_sink_kind k)
{
    switch (k) {
    case KC_SINK_SUM: return "0 (its neutral element)";
    case KC_SINK_MAX: return "-inf (its neutral element)";
    case KC_SINK_MIN: return "+inf (its neutral element)";
    default: return "defined values";
    }
}

static const char *const hyp_text[KC_FILL_NHYP] = {NULL, "0.0", "float(\"-inf\")", "float(\"inf\")"};

/* The neutral other= that makes every use of load `load` right, or 0. */
static unsigned fix_hypothesis(const kc_kernel *k, uint32_t load)
{
    for (unsigned h = KC_FILL_IF_ZERO; h < KC_FILL_NHYP; h++) {
        bool ok = true;
        for (uint32_t i = 0; ok && i < k->lane_flows.len; i++) {
            const kc_lane_flow *f = &k->lane_flows.data[i];
            if (f->load != load)
                continue;
            judgement as_written = judge(f->kind, f->fill[KC_FILL_AS_WRITTEN]), fixed = judge(f->kind, f->fill[h]);
            ok = fixed != J_BAD && (as_written != J_BAD || fixed == J_GOOD);
        }
        if (ok)
            return h;
    }
    return 0;
}

static const char *where_text(kc_rule_ctx *ctx, const kc_lane_flow *f)
{
    kc_arena *ar = kc_rule_arena(ctx);
    if (f->dot)
        return kc_arena_printf(ar, "`%s` (line %u) along its K axis", f->sink, f->span.line);
    if (f->axis < 0)
        return kc_arena_printf(ar, "`%s` (line %u) over the whole block", f->sink, f->span.line);
    return kc_arena_printf(ar, "`%s` (line %u) along axis %d", f->sink, f->span.line, f->axis);
}

/* Is the use wrong on the NVIDIA backend, which loads 0 into the
 * masked-out lanes of a load without other= (Triton 3.6 on an H200 emits
 * `mov.u32 %r, 0x0` before the predicated load; bench/premise)? */
static bool wrong_on_nvidia(const kc_lane_flow *f)
{
    if (f->fill[KC_FILL_AS_WRITTEN] != KC_FILL_UNDEF)
        return true;
    return judge(f->kind, f->fill[KC_FILL_IF_ZERO]) == J_BAD;
}

static void report_load(kc_rule_ctx *ctx, const kc_kernel *k, const kc_access *ld, const kc_lane_flow *first,
                        uint32_t nbad, bool nvidia)
{
    kc_arena *ar = kc_rule_arena(ctx);
    uint8_t fill = first->fill[KC_FILL_AS_WRITTEN];
    const char *other = ld->has_other ? kc_rule_span_text(ctx, ld->other_span) : NULL;
    kc_diag *d;
    if (!ld->has_other)
        d = kc_report(ctx, k, ld->span,
                      "masked-out lanes of this load reach %s holding undefined values: the load has no `other=`",
                      where_text(ctx, first));
    else
        d = kc_report(ctx, k, ld->has_other && kc_span_valid(ld->other_span) ? ld->other_span : ld->span,
                      "masked-out lanes of this load reach %s as %s (`other=%s`%s%s%s)", where_text(ctx, first),
                      fill_name(fill), other, first->via ? " through `" : "", first->via ? first->via : "",
                      first->via ? "`" : "");
    const char *mask = ld->mask_text ? ld->mask_text : "the mask";
    if (!nvidia) {
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "right on NVIDIA GPUs today, wrong where a backend leaves the lanes undefined: Triton 3.6 "
                     "loads 0 into them (it sets the register to 0 before the predicated load; measured on an "
                     "H200), and 0 is neutral here, but Triton's contract leaves them undefined and other backends "
                     "differ (flagos-ai/FlagGems#969: wrong on CPU)");
    } else if (!ld->has_other) {
        kc_diag_note(d, "wrong on NVIDIA GPUs too: Triton 3.6 loads 0 into the masked-out lanes of a load "
                     "without `other=` (measured on an H200), and 0 is not neutral for this use");
    }
    if (!ld->has_other)
        kc_diag_note(d, "the mask `%s` turns lanes off along the axis that `%s` combines, and Triton leaves a "
                     "masked-out element of a load without `other=` undefined (whatever the register held, NaN "
                     "included; it differs between backends and releases): the result is garbage whenever the "
                     "mask is partial, e.g. a last tile past the end",
                     mask, first->sink);
    else
        kc_diag_note(d, "the mask `%s` turns lanes off along the axis that `%s` combines, and `%s` needs %s "
                     "there: every masked-out lane%s adds into the result whenever the mask is partial",
                     mask, first->sink, first->sink, needs(first->kind),
                     first->via ? kc_arena_printf(ar, " (which `%s` on line %u makes %s)", first->via,
                                                  first->via_span.line, fill_adj(fill))
                                : "");
    if (nbad > 1)
        kc_diag_note(d, "the same lanes reach %u other uses that combine them", nbad - 1);
    unsigned h = fix_hypothesis(k, ld->id);
    if (h && !ld->has_other && kc_span_valid(ld->mask_span)) {
        kc_span at = {ld->mask_span.end_line, ld->mask_span.end_col, ld->mask_span.end_line, ld->mask_span.end_col};
        kc_diag_fix(d, kc_arena_printf(ar, "pass `other=%s`", hyp_text[h]), at,
                    kc_arena_printf(ar, ", other=%s", hyp_text[h]));
    } else if (h && ld->has_other && kc_span_valid(ld->other_span)) {
        kc_diag_fix(d, kc_arena_printf(ar, "use `other=%s`", hyp_text[h]), ld->other_span, hyp_text[h]);
    } else {
        kc_diag_note(d, "no one `other=` is neutral for every use of this load: select the neutral value just "
                     "before `%s` with `tl.where(%s, x, ...)`",
                     first->sink, mask);
    }
    if (h == KC_FILL_IF_NEG_INF || h == KC_FILL_IF_POS_INF)
        kc_diag_note(d, "for an integer tensor use the type's %s instead of an infinity",
                     h == KC_FILL_IF_NEG_INF ? "minimum" : "maximum");
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    for (uint32_t i = 0; i < k->lane_flows.len; i++) {
        const kc_lane_flow *f = &k->lane_flows.data[i];
        if (judge(f->kind, f->fill[KC_FILL_AS_WRITTEN]) != J_BAD || f->load >= k->accesses.len)
            continue;
        /* one diagnostic per load: at its first bad use */
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = k->lane_flows.data[j].load == f->load &&
                   judge(k->lane_flows.data[j].kind, k->lane_flows.data[j].fill[KC_FILL_AS_WRITTEN]) == J_BAD;
        if (seen)
            continue;
        uint32_t nbad = 0;
        const kc_lane_flow *shown = f;
        bool nvidia = false;
        for (uint32_t j = i; j < k->lane_flows.len; j++) {
            const kc_lane_flow *g = &k->lane_flows.data[j];
            if (g->load != f->load || judge(g->kind, g->fill[KC_FILL_AS_WRITTEN]) != J_BAD)
                continue;
            nbad++;
            if (!nvidia && wrong_on_nvidia(g)) {
                nvidia = true;
                shown = g; /* the use that is wrong on NVIDIA too */
            }
        }
        report_load(ctx, k, &k->accesses.data[f->load], shown, nbad, nvidia);
    }
}

const kc_rule kc306_masked_lane_garbage = {
    .id = "KC306",
    .slug = "masked-lane-garbage",
    .summary = "Masked-out lanes of a load (no other=, or a non-neutral one) flow into a reduction or tl.dot.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_WRONG_RESULT,
};
