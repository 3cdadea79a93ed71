/* KC201 large-static-unroll: a loop fully unrolled at compile time whose
 * trip count is large or grows with a problem size. */
#include "rule_util.h"

#include <inttypes.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags loops that the compiler unrolls completely when the number of\n"
    "copies is large: `tl.static_range` and `#pragma unroll` loops whose trip\n"
    "count is above `KC201.max-trip-count`, that walk a problem size such as a\n"
    "vocabulary or sequence length in blocks, and `#pragma unroll N` /\n"
    "`loop_unroll_factor=N` above the same limit. A `tl.static_range` bound that\n"
    "is not a `tl.constexpr` at all is KC202. A problem-sized bound is a warning\n"
    "when a launch passes a tensor extent for it (`x.shape[1]`); when it is only\n"
    "compared in the kernel (`cols < E`), it may as well be a handful of heads or\n"
    "experts, and the finding is a note that says so. A loop whose block every\n"
    "launch sizes to cover the bound (`BLOCK_N=triton.next_power_of_2(E)` next to\n"
    "`E=E`, or `max()` of it and a constant) makes one pass and is not reported;\n"
    "a capped block (`min(triton.next_power_of_2(V), 4096)`) does not cover it.\n"
    "Launches are read in the file and, for a kernel the file does not launch, in\n"
    "the files of the same run that import it (`from .kernels import k`).\n"    "A fully unrolled loop that indexes a register array (a local array) with a\n"
    "value that changes with the loop is not reported: full unrolling is what\n"
    "keeps the array in registers, and a bounded factor moves it to local memory.\n"
    "So is a large factor over such a loop. A factor at least the loop's\n"
    "compile-time trip count (`#pragma unroll 128` over `LDGS` passes) unrolls it\n"
    "fully and is judged as a full unroll of that many copies. In CUDA, a full\n"
    "unroll of a loop that one thread of the block runs once (in no other loop,\n"
    "under `tid == 0`: a final scan after the block's reduction), in a kernel\n"
    "whose threads all run another loop, is a note: a one-off tail beside the\n"
    "block's work.\n"
    "\n"
    "## Why is this bad?\n"
    "Every iteration becomes a copy of the body: code size, register pressure\n"
    "and compile time grow with the trip count, and a problem-sized bound means\n"
    "a new, ever larger compile for every size. Measured on an H200 with\n"
    "Triton 3.6 on kcheck's seed 000 (cross-entropy, N = 32000 classes): 7 s to\n"
    "compile with BLOCK_N = 1024 and 186 s with BLOCK_N = 256, and the kernel\n"
    "ran 3.5x slower than a `tl.range` version.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "for start in tl.static_range(0, N, BLOCK_N):   # N: tl.constexpr vocabulary size\n"
    "    ...\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "for start in tl.range(0, N, BLOCK_N):          # a runtime loop; N can be a plain int\n"
    "    ...\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Use `tl.range` (optionally with `loop_unroll_factor=` or `num_stages=`) or,\n"
    "in CUDA, `#pragma unroll 32` (a bounded factor) instead of full unrolling.\n"
    "The fix-it replaces `tl.static_range` with `tl.range`. An explicit factor\n"
    "above the limit is lowered to the limit: measured on an H200\n"
    "(`bench/cuda_unroll_bench.sh`), an n-body tile loop ran 2.83 ms with\n"
    "`#pragma unroll 128`, 2.89 ms with 32 and 3.20 ms with 8, in 2424, 696 and\n"
    "376 instructions; a memory-bound grid-stride sum ran 0.57 ms with every\n"
    "factor from 1 to 128 (40 to 800 instructions).\n"
    "\n"
    "## References\n"
    "- triton-lang/triton#8908; triton-ascend#2246 (compile time of static_range).\n"
    "- kcheck seed 000 measurements (docs/verify-results.md).\n"
    "- The premise, measured on an H200 (`bench/cuda_unroll_bench.sh`, docs/precision.md,\n"
    "  \"KC201's unroll factors on a GPU\"): an n-body tile loop gains 2% past 32 copies\n"
    "  for 3.5x the SASS, a memory-bound grid-stride loop gains nothing at any factor,\n"
    "  and lowering to 2-8 costs the tile loop 11-17%: the fix-it lowers to 32.\n"
    "- Full unrolls of a compile-time trip count, measured on an H100\n"
    "  (`bench/premise/kc201_full_unroll_body.sh`,\n"
    "  docs/measurements/kc201-full-unroll-h100-2026-12-06.txt): a shared-memory FMA loop\n"
    "  run once took 1.1x (48 passes), 1.9x (128), 1.8x (256) and 5x (512) the time of\n"
    "  `#pragma unroll 32`; repeated over the same operands it ran 4.7x, 2.3x and 1.9x\n"
    "  faster fully unrolled up to 256 passes (operands kept in registers, 55 to 255 of\n"
    "  them) and 1.6x slower at 512. `#pragma unroll 4` was never faster than 32.\n";

static const kc_rule_option_doc options[] = {
    {"max-trip-count", "32", "largest number of fully unrolled iterations accepted"},
    {NULL, NULL, NULL},
};

/* The first problem-size symbol in the loop's bound, or KC_NONE. */
static uint32_t size_symbol(const kc_kernel *k, const kc_loop *l)
{
    if (!l->end)
        return KC_NONE;
    for (unsigned i = 0; i < l->end->nmono; i++)
        for (unsigned f = 0; f < l->end->mono[i].nfac; f++) {
            const kc_atom *a = &l->end->mono[i].fac[f];
            if (a->kind == KC_ATOM_SYMBOL && a->id < k->symbols.len &&
                (k->symbols.data[a->id].facts & KC_SF_PROBLEM_SIZE))
                return a->id;
        }
    return KC_NONE;
}

/* Does loop L (or a loop inside it) index a register array with a value
 * that changes with L? */
static bool indexes_register_array(const kc_kernel *k, uint32_t L)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space == KC_MEM_LOCAL && a->loop != KC_NONE && kc_loop_within(k, a->loop, L) && a->offset &&
            kc_index_depends_on_loop(a->offset, L))
            return true;
    }
    return false;
}

/* Every launch passes a block at least the loop's bound
 * (`BLOCK_N=triton.next_power_of_2(E)` next to `E=E`): 0, one pass; with
 * a cap (`min(next_power_of_2(E), 32768)`), the cap; -1 otherwise. */
static int64_t covering_block(const kc_kernel *k, const kc_loop *l, uint32_t sz)
{
    uint32_t bs = kc_index_symbol(l->step);
    int64_t st0 = 0;
    if (bs == KC_NONE || bs >= k->symbols.len || k->symbols.data[bs].at_least_symbol != sz ||
        kc_index_symbol(l->end) != sz || (l->start && !(kc_index_is_const(l->start, &st0) && st0 >= 0)))
        return -1;
    return k->symbols.data[bs].at_least_cap;
}

/* `min(triton.next_power_of_2(E), 32768)` at every launch: one pass up to
 * the cap, ceil(E / cap) past it; many copies only for a dimension past 32
 * caps (a million columns for 32768): a note that gives the bound. */
static void capped_note(kc_diag *d, const kc_symbol *sy, const kc_symbol *block, int64_t cap)
{
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "every launch passes a block of at least min(%s, %" PRId64 ") (%s): at most ceil(%s / %" PRId64
                 ") copies, more than 32 only once %s passes %" PRId64 "; reported as a note",
                 sy->name, cap, block->at_least_evidence ? block->at_least_evidence : "", sy->name, cap, sy->name,
                 cap * 32);
}

/* CUDA: a loop that one thread of the block runs once (in no other loop,
 * under `tx == 0`: a block's final scan after its reduction), in a kernel
 * whose threads all run another loop: the one-off tail costs little next
 * to the block's work, whatever its unroll. The condition, or NULL. */
static const char *once_per_block(const kc_kernel *k, uint32_t li)
{
    const kc_loop *l = &k->loops.data[li];
    if (k->lang != KC_LANG_CUDA || l->parent != KC_NONE)
        return NULL;
    const char *who = NULL;
    for (uint32_t i = 0; i < k->accesses.len && !who; i++)
        if (k->accesses.data[i].loop != KC_NONE && kc_loop_within(k, k->accesses.data[i].loop, li))
            who = kc_guard_one_thread(k, k->accesses.data[i].guard);
    if (!who)
        return NULL;
    /* another loop, outside this one, that the one-thread condition does
     * not cover (all threads run it) */
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->loop != KC_NONE && !kc_loop_within(k, a->loop, li) && !kc_guard_one_thread(k, a->guard))
            return who;
    }
    return NULL;
}

/* The fix of a full unroll: a runtime loop (Triton), a bounded factor
 * with what it was measured to cost and gain (CUDA). */
static void full_unroll_fix(kc_rule_ctx *ctx, kc_diag *d, const kc_kernel *k, const kc_loop *l, bool is_static,
                            int64_t limit)
{
    if (is_static && l->callee_text) {
        const char *rng = kc_arena_printf(kc_rule_arena(ctx), "%.*srange",
                                          (int)(strlen(l->callee_text) - strlen("static_range")),
                                          l->callee_text);
        kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "use `%s` (a runtime loop)", rng),
                    l->callee_span, rng);
    } else {
        /* measured (bench/premise/kc201_full_unroll_body.sh): 4 is never
         * faster than the limit, and slower for the n-body tile loop */
        const char *lim = kc_arena_printf(kc_rule_arena(ctx), "%" PRId64, limit);
        if (k->lang == KC_LANG_CUDA)
            kc_diag_note(d, "measured on an H100: a loop of 128 passes run once ran 1.9x slower fully "
                         "unrolled than with `#pragma unroll 32` (48 passes: 1.1x), while the same loop "
                         "repeated over the same operands ran 2.3x faster fully unrolled (its operands "
                         "stay in registers); time both where the loop sits in an outer loop");
        if (kc_span_valid(l->unroll_span))
            kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "unroll by a bounded factor: `#pragma unroll %s`", lim),
                        l->unroll_span, kc_arena_printf(kc_rule_arena(ctx), "#pragma unroll %s", lim));
        else
            kc_diag_note(d, "fix: `#pragma unroll %s` (a bounded factor) or no pragma", lim);
    }
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    int64_t limit = kc_rule_option_int(ctx, "max-trip-count", 32);
    for (uint32_t i = 0; i < k->loops.len; i++) {
        const kc_loop *l = &k->loops.data[i];
        if (l->unroll == KC_UNROLL_NONE || l->unroll == KC_UNROLL_DISABLE)
            continue;
        if (kc_span_valid(l->runtime_bound_span))
            continue; /* not a compile-time loop at all: KC202 */
        bool is_static = l->kind == KC_LOOP_STATIC_RANGE;
        const char *what = is_static ? kc_arena_printf(kc_rule_arena(ctx), "`%s`", l->callee_text)
                                     : "`#pragma unroll`";
        kc_span at = is_static ? l->range_span : (kc_span_valid(l->unroll_span) ? l->unroll_span : l->span);
        /* A factor at least the trip count unrolls fully: `#pragma unroll
         * 128` over LDGS passes makes LDGS copies, as a bare pragma would. */
        bool factor_is_full = l->unroll == KC_UNROLL_COUNT && l->trip_count >= 0 && l->trip_count <= l->unroll_count;
        if (factor_is_full && !is_static)
            what = kc_arena_printf(kc_rule_arena(ctx), "`#pragma unroll %" PRId64 "` (a factor at least the trip count)",
                                   l->unroll_count);
        if (l->unroll == KC_UNROLL_COUNT && !factor_is_full) {
            if (l->unroll_count <= limit)
                continue;
            /* over a register array the factor is what keeps it in
             * registers; a lower one would move it to local memory */
            if (indexes_register_array(k, i))
                continue;
            kc_diag *d = kc_report(ctx, k, at, "unroll factor %" PRId64 " is above the limit of %" PRId64
                                   ": %" PRId64 " copies of the loop body",
                                   l->unroll_count, limit, l->unroll_count);
            kc_diag_note(d, "%s", kc_loop_describe(ctx, k, l));
            kc_diag_note(d, "past a few dozen copies the code grows and the speed does not: measured on an H200, an "
                         "n-body tile loop (20 flops a pass) ran 2%% slower with 32 copies than with 128, in 3.5x less "
                         "code, and a memory-bound grid-stride loop ran at the same speed with any factor");
            const char *lim = kc_arena_printf(kc_rule_arena(ctx), "%" PRId64, limit);
            if (kc_span_valid(l->unroll_span) && k->lang == KC_LANG_CUDA)
                kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "unroll by at most %s: `#pragma unroll %s`", lim, lim),
                            l->unroll_span, kc_arena_printf(kc_rule_arena(ctx), "#pragma unroll %s", lim));
            else if (kc_span_valid(l->unroll_span))
                kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "unroll by at most %s: `loop_unroll_factor=%s`", lim, lim),
                            l->unroll_span, lim);
            else
                kc_diag_note(d, "fix: unroll by at most %s", lim);
            continue;
        }
        /* Full unroll. A register array indexed by the loop stays in
         * registers only when every index is a constant, that is when the
         * loop is fully unrolled: a bounded factor moves it to local memory
         * (measured 10x slower for an array of 64 on an H200). */
        if (indexes_register_array(k, i))
            continue;
        if (l->trip_count >= 0) {
            if (l->trip_count <= limit)
                continue;
            kc_diag *d = kc_report(ctx, k, at,
                                   "%s fully unrolls %" PRId64 " iterations (the limit is %" PRId64
                                   "): %" PRId64 " copies of the loop body",
                                   what, l->trip_count, limit, l->trip_count);
            char num[32];
            snprintf(num, sizeof num, "%" PRId64, l->trip_count);
            if (l->trip_text && *l->trip_text && strcmp(l->trip_text, num) != 0)
                kc_diag_note(d, "trip count %s = %" PRId64, l->trip_text, l->trip_count);
            /* Where the values came from. */
            if (l->end)
                for (unsigned mi = 0; mi < l->end->nmono; mi++)
                    for (unsigned f = 0; f < l->end->mono[mi].nfac; f++) {
                        const kc_atom *a = &l->end->mono[mi].fac[f];
                        if (a->kind == KC_ATOM_SYMBOL && a->id < k->symbols.len && k->symbols.data[a->id].value_origin)
                            kc_diag_note(d, "%s = %" PRId64 " from %s", k->symbols.data[a->id].name,
                                         k->symbols.data[a->id].value, k->symbols.data[a->id].value_origin);
                    }
            for (uint32_t s = 0; s < k->symbols.len; s++) {
                const kc_symbol *sy = &k->symbols.data[s];
                if (sy->has_value && sy->value_origin && l->end_text && strcmp(l->end_text, sy->name) == 0)
                    kc_diag_note(d, "%s = %" PRId64 " from %s", sy->name, sy->value, sy->value_origin);
            }
            kc_diag_note(d, "each copy adds its instructions and registers; compile time grows with the count");
            const char *who = once_per_block(k, i);
            if (who) {
                d->severity = KC_SEV_NOTE;
                kc_diag_note(d, "reported as a note: it runs once per block, in no other loop, in the one thread "
                             "`%s` lets in, beside the loops every thread runs: its time is a small part of the "
                             "block's",
                             who);
            }
            full_unroll_fix(ctx, d, k, l, is_static, limit);
            continue;
        }
        uint32_t sz = size_symbol(k, l);
        if (sz == KC_NONE)
            continue; /* unknown but not problem-sized: stay quiet */
        /* A problem dimension walked one by one (heads, experts) is often
         * small; one walked in blocks (a vocabulary in BLOCK_N chunks) is
         * large enough to need tiling. Only the latter is reported. */
        int64_t step;
        if (!l->step || (kc_index_is_const(l->step, &step) && step == 1))
            continue;
        const kc_symbol *sy = &k->symbols.data[sz];
        uint32_t bs = kc_index_symbol(l->step);
        int64_t cap = covering_block(k, l, sz);
        if (cap == 0)
            continue; /* one pass */
        /* A launch that passes a tensor extent says the bound is a problem
         * size; a comparison in the kernel alone (`cols < E`) does not say
         * how large it gets: heads and experts are bounds too. */
        bool extent = (sy->facts & KC_SF_SHAPE_ARG) != 0;
        kc_diag *d;
        if (extent) {
            d = kc_report(ctx, k, at,
                          "%s fully unrolls %s iterations, and %s is a problem size: the unrolled code grows "
                          "with the input",
                          what, l->trip_text ? l->trip_text : "?", sy->name);
        } else {
            d = kc_report(ctx, k, at,
                          "%s fully unrolls %s iterations, and %s looks like a problem size: if it can be large, "
                          "the unrolled code grows with it",
                          what, l->trip_text ? l->trip_text : "?", sy->name);
            d->severity = KC_SEV_NOTE;
        }
        if (cap > 0)
            capped_note(d, sy, &k->symbols.data[bs], cap);
        const char *ev = extent ? kc_symbol_evidence(ctx, k, sz) : NULL;
        if (ev)
            kc_diag_note(d, "%s", ev);
        else if (sy->size_evidence)
            kc_diag_note(d, "%s: %s", sy->name, sy->size_evidence);
        if (!extent && k->lang == KC_LANG_TRITON && k->launches_seen == 0)
            kc_diag_note(d, "assumed: kcheck saw no launch of `%s` (none in this file, nor in the files of this run "
                         "that import it), so it cannot tell a large %s (a vocabulary) from a small one (heads, "
                         "experts); check the package that launches it to let kcheck read what the launch passes",
                         k->name, sy->name);
        else if (!extent)
            kc_diag_note(d, "assumed: no launch kcheck saw (in this file, or in the files of this run that import "
                         "it) passes a tensor extent as %s, so kcheck cannot tell a large dimension (a vocabulary) "
                         "from a small one (heads, experts)",
                         sy->name);
        kc_diag_note(d, "the trip count is unbounded at compile time: every distinct %s compiles a new kernel "
                     "holding %s copies of the loop body",
                     sy->name, l->trip_text ? l->trip_text : "one per iteration");
        if (is_static && l->callee_text) {
            const char *rng = kc_arena_printf(kc_rule_arena(ctx), "%.*srange",
                                              (int)(strlen(l->callee_text) - strlen("static_range")), l->callee_text);
            kc_diag_fix(d, kc_arena_printf(kc_rule_arena(ctx), "use `%s` (a runtime loop)", rng), l->callee_span,
                        rng);
        }
    }
}

const kc_rule kc201_large_static_unroll = {
    .id = "KC201",
    .slug = "large-static-unroll",
    .summary = "Fully unrolled loop (tl.static_range, #pragma unroll) with a large or problem-sized trip count.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = options,
    .check = check,
    .verify = KC_VERIFY_PERF_COMPILE,
};
