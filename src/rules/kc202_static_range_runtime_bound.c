/* KC202 static-range-runtime-bound: tl.static_range with a bound that is
 * not a compile-time constant. */
#include "rule_util.h"

#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags `tl.static_range` loops whose start, end or step is not a\n"
    "`tl.constexpr`: a plain kernel argument, a `tl.program_id`, a loaded value\n"
    "or anything computed from them. `len(xs)` of a tuple is a compile-time\n"
    "value whatever the tuple holds (Triton evaluates `len` when it compiles and\n"
    "wraps the result in a constexpr).\n"
    "\n"
    "## Why is this bad?\n"
    "`tl.static_range` unrolls at compile time, so its bounds must be known at\n"
    "compile time; the kernel fails to compile (\"static_range bounds must be\n"
    "constexpr\"). Making the bound a `tl.constexpr` compiles, but a fresh kernel\n"
    "per value and a fully unrolled body (KC201).\n"
    "\n"
    "## Example\n"
    "```python\n"
    "@triton.jit\n"
    "def kernel(x_ptr, N, BLOCK_N: tl.constexpr):\n"
    "    for start in tl.static_range(0, N, BLOCK_N):   # N is a runtime argument\n"
    "        ...\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "    for start in tl.range(0, N, BLOCK_N):\n"
    "        ...\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Use `tl.range` (or `range`): a runtime loop. The fix-it replaces the callee.\n"
    "\n"
    "## References\n"
    "- Triton language reference, `triton.language.static_range`.\n"
    "- triton-lang/triton `python/triton/compiler/code_generator.py`: `len` is\n"
    "  one of the statically implemented functions, its result a constexpr.\n"
    "- kcheck seed 000: the cross-entropy kernel as posted does not compile.\n";

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    kc_arena *ar = kc_rule_arena(ctx);
    for (uint32_t i = 0; i < k->loops.len; i++) {
        const kc_loop *l = &k->loops.data[i];
        if (l->kind != KC_LOOP_STATIC_RANGE || !kc_span_valid(l->runtime_bound_span))
            continue;
        const char *bound = kc_rule_span_text(ctx, l->runtime_bound_span);
        kc_diag *d = kc_report(ctx, k, l->runtime_bound_span,
                               "`%s` needs compile-time bounds, but `%s` is not a tl.constexpr: the kernel does not "
                               "compile",
                               l->callee_text ? l->callee_text : "tl.static_range", bound);
        if (l->runtime_bound_symbol != KC_NONE) {
            const kc_symbol *s = &k->symbols.data[l->runtime_bound_symbol];
            kc_diag_note(d, "%s is a runtime argument of `%s` (line %u), declared without `: tl.constexpr`", s->name,
                         k->name, s->span.line);
            if (s->facts & KC_SF_SIZE)
                kc_diag_note(d, "declaring %s a tl.constexpr would compile, but would recompile for every %s and "
                             "unroll the loop fully (KC201)",
                             s->name, s->name);
        } else {
            kc_diag_note(d, "`%s` is computed at run time (from program ids, loads or runtime arguments)", bound);
        }
        if (l->callee_text && strlen(l->callee_text) >= strlen("static_range")) {
            const char *rng = kc_arena_printf(ar, "%.*srange", (int)(strlen(l->callee_text) - strlen("static_range")),
                                              l->callee_text);
            kc_diag_fix(d, kc_arena_printf(ar, "use `%s`, a runtime loop", rng), l->callee_span, rng);
        }
    }
}

const kc_rule kc202_static_range_runtime_bound = {
    .id = "KC202",
    .slug = "static-range-runtime-bound",
    .summary = "tl.static_range with a bound that is not tl.constexpr: the kernel does not compile.",
    .severity = KC_SEV_ERROR,
    .langs = KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_COMPILE_ERROR,
};
