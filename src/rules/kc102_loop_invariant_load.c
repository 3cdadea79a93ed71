/* KC102 loop-invariant-load: a load repeated in every pass of a loop
 * although its address does not change. */
#include "rule_util.h"

#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a global-memory load inside a loop whose address does not depend on\n"
    "the loop: not on the induction variable, nor on anything the loop body\n"
    "assigns. Loads under a condition that depends on the loop, loads from\n"
    "buffers the loop also writes (and, when the address comes from loaded\n"
    "values, loads in loops that write any memory), volatile loads (also through\n"
    "a typedef), and shared-, constant- and local-memory loads are not reported;\n"
    "a pointer parameter of a `__device__` function that every call in the file\n"
    "passes a local array of the caller (`int vl[2]`) points to local memory.\n"
    "A mask that changes with the loop does not make the load variant: the\n"
    "load is still issued in every pass.\n"
    "\n"
    "## Why is this bad?\n"
    "The same bytes are fetched again in every pass: extra instructions,\n"
    "extra memory traffic and, when the address is scattered (see KC101), a\n"
    "full memory transaction per lane per pass. A common form is a masked load\n"
    "that can only hit in one pass, such as the target logit of a cross-entropy\n"
    "row read inside the loop over the vocabulary.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "for start in tl.range(0, N, BLOCK_N):\n"
    "    ...\n"
    "    t = tl.load(x_ptr + rows * N + target,\n"
    "                mask=(target >= start) & (target < start + BLOCK_N), other=0.0)\n"
    "    picked += t\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "picked = tl.load(x_ptr + rows * N + target, mask=rows < M, other=0.0)\n"
    "for start in tl.range(0, N, BLOCK_N):\n"
    "    ...\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Hoist the load (and its address computation) above the loop and reuse the\n"
    "value; if it was masked to one pass, load it once with a mask that does\n"
    "not depend on the loop.\n"
    "\n"
    "## References\n"
    "- triton-lang/triton: \"Cross Entropy Loss performance issue\" (the kernel in\n"
    "  kcheck's seed 000).\n";

/* Does the loop store to `base` (or, with `any`, to memory at all)? */
static bool stored_in_loop(const kc_kernel *k, uint32_t base, uint32_t loop, bool any)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *s = &k->accesses.data[i];
        if (s->kind == KC_ACC_LOAD || s->loop == KC_NONE || !kc_loop_within(k, s->loop, loop))
            continue;
        if (any || base == KC_NONE || s->base == KC_NONE || s->base == base)
            return true;
    }
    return false;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->kind != KC_ACC_LOAD || a->loop == KC_NONE || a->loop >= k->loops.len || !a->offset)
            continue;
        /* Constant memory is served by its own cache (scalars are operands
         * of the instruction); a volatile load must be repeated. */
        if (a->space != KC_MEM_GLOBAL || a->is_volatile)
            continue;
        uint32_t L = a->loop;
        if (kc_index_depends_on_loop(a->offset, L))
            continue;
        /* Loaded only in some passes (under `if i == 0:`): not repeated. */
        if (kc_cond_chain_depends_on_loop(k, a->guard, L))
            continue;
        /* An address computed from loaded values may change when the loop
         * stores (`t[off[b]]` with `off[b]` updated in the loop). */
        if (stored_in_loop(k, a->base, L, (kc_index_deps(a->offset).flags & KC_AF_DATA) != 0))
            continue;
        const kc_loop *lp = &k->loops.data[L];
        kc_diag *d = kc_report(ctx, k, kc_access_point(a),
                               "loop-invariant load from `%s`: the address does not change with %s, yet it is "
                               "loaded again in every pass",
                               a->base_name ? a->base_name : "memory",
                               lp->var ? kc_arena_printf(kc_rule_arena(ctx), "`%s`", lp->var) : "the loop");
        kc_diag_note(d, "%s", kc_loop_describe(ctx, k, lp));
        kc_diag_note(d, "element offset: %s (no term depends on the loop)", kc_model_index_str(m, k, a->offset));
        if (a->masked && (a->mask_deps.loops & kc_loop_bit(L)))
            kc_diag_note(d, "the mask `%s` changes with the loop, so the lanes that hit differ between passes, but "
                         "the load and its address arithmetic are issued in every pass",
                         a->mask_text);
        if (lp->kind == KC_LOOP_STATIC_RANGE)
            kc_diag_note(d, "the loop is unrolled at compile time: every unrolled copy carries its own copy of "
                         "this load");
        if (a->masked && (a->mask_deps.loops & kc_loop_bit(L)))
            kc_diag_note(d, "fix: load it once before the loop with a mask that does not depend on the loop, and "
                         "use the value inside");
        else
            kc_diag_note(d, "fix: hoist the load above the loop and reuse the value");
    }
}

const kc_rule kc102_loop_invariant_load = {
    .id = "KC102",
    .slug = "loop-invariant-load",
    .summary = "Load inside a loop whose address does not depend on the loop: hoist it out.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_PERF_RUNTIME,
};
