/* KC102 loop-invariant-load: a load repeated in every pass of a loop
 * although its address does not change. */
#include "rule_util.h"

#include <ctype.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a global-memory load inside a loop whose address does not depend on\n"
    "the loop (not on the induction variable, nor on anything the loop body\n"
    "assigns) and that the compiler cannot move out of the loop by itself:\n"
    "\n"
    "- Triton: the load's mask changes with the loop (the lanes that hit\n"
    "  differ between passes), or the loop also stores or does an atomic.\n"
    "- CUDA: the loop stores or does an atomic through a pointer that may\n"
    "  overlap the loaded one (neither of them `__restrict__`), or holds a\n"
    "  barrier (`__syncthreads()`, `__syncwarp()`) or a fence\n"
    "  (`__threadfence()`) while the loaded pointer is not `__restrict__`.\n"
    "\n"
    "A load from a loop that does none of this is hoisted by nvcc -O3 and by\n"
    "Triton on their own and is not reported; nor are stores to shared memory\n"
    "or to register arrays, which cannot reach a global word. Loads under a\n"
    "condition that depends on the loop (one that reads memory the loop stores\n"
    "to does: a `__device__` counter that one thread moves every pass), loads\n"
    "from buffers the loop also\n"
    "writes (and, when the address comes from loaded values, loads in loops\n"
    "that write any memory), volatile loads (also through a typedef), and\n"
    "shared-, constant- and local-memory loads are not reported; a pointer\n"
    "parameter of a `__device__` function that every call in the file passes\n"
    "a local array of the caller (`int vl[2]`) points to local memory, and one\n"
    "of a function nothing in the file calls may point anywhere (registers\n"
    "after inlining, shared memory): its loads are not judged; a pointer a\n"
    "function passes on from its own parameter points where that function's\n"
    "callers point it (nowhere known, when nothing calls it). A `__device__` or\n"
    "`__shared__` variable given by reference to a function kcheck cannot see\n"
    "into (`merge(buf, len)` with `int &len`) may be written there. A wait loop's\n"
    "poll is not reported: the load whose value the condition of a loop with no\n"
    "variable of its own tests (`do { tmp = flag[i]; __threadfence(); } while\n"
    "(tmp > 0);`, `while (flag[i] == 0)`), which ends only when another thread\n"
    "changes the word. A store that\n"
    "its block follows with a `break` out of the loop or a `return` (no\n"
    "`continue` between) is on no path to a later pass and does not count.\n"
    "Calls kcheck cannot see into are not taken to write memory, but one given a\n"
    "pointer (`curand_uniform(&state)`) may return something else in every\n"
    "pass, as may a variable whose initializer did not parse; an address made\n"
    "of either is not invariant. A `for` loop whose\n"
    "variable's declaration did not parse (`for (cuda::index_t i = ...` with the\n"
    "type from a missing header) leaves its loads with an address kcheck cannot\n"
    "express unjudged: that part may be the variable. A `for` increment the\n"
    "parse dropped (`j += CU1DBLOCK` with the macro from a missing header)\n"
    "still steps its variable, by an amount not known, and a local whose\n"
    "declaration was lost (`const index_t n = ...` with the type missing), or\n"
    "what is left of an expression that names it, may change in every pass:\n"
    "addresses made of them are not invariant. A grid-stride loop\n"
    "(`for (i = blockIdx.x; i < n; i += gridDim.x)`, or from `blockIdx.x *\n"
    "blockDim.x + threadIdx.x` by `blockDim.x * gridDim.x`) that every launch in\n"
    "the file gives as many blocks as `n` has values (`n` blocks; `(n + B - 1) /\n"
    "B` or `DIVUP(n, B)` blocks of B threads) makes one pass in every thread:\n"
    "its loads are made once and are not reported. A pointer declared with a\n"
    "qualifier macro kcheck cannot expand (`int *PROJ_RESTRICT p`, the macro\n"
    "from a header it did not find) may be `__restrict__` in the build: it is\n"
    "not taken to alias. A load in a loop of a\n"
    "`__device__` function is reported once, in that function, not again at\n"
    "each kernel that inlines it.\n"
    "\n"
    "In Triton, a block reloaded in a loop where each pass also moves at least\n"
    "two new blocks as large (a norm's weight vector beside the rows a\n"
    "persistent loop loads and stores) is a note for the same reason: after the\n"
    "first pass the block is in L1 or L2 (round 56 judged 3 of 3 such warnings\n"
    "immaterial; `bench/premise/kc102_triton_row_reload.py` on an H200: 1.00x\n"
    "at rows of 128 and 4096 bf16, 1.04x at 1024, 1.10x at 8192, where the\n"
    "note says to hoist). A scalar reloaded beside at least one block that each\n"
    "pass moves anew (a window's bounds beside a key tile and a `tl.dot`) is a note\n"
    "too: `bench/premise/kc102_triton_scalar_reload.py` on an H100 measured 1.02x\n"
    "to 1.06x beside a tile and a dot, 1.00x beside a row copy. A block reloaded\n"
    "beside a single block as large, or a scalar in a loop that moves no block,\n"
    "stays a warning.\n"
    "\n"
    "In CUDA, a reload in a loop that also moves new data in every pass (an\n"
    "access whose address changes with the loop, such as the store that keeps\n"
    "the load there) is reported as a note: after the first pass the word is in\n"
    "L1, and the pass's cost is the moving data's. Round 48 judged 20 of 20\n"
    "such warnings immaterial (a block-uniform or coalesced word beside a row\n"
    "copy or atomics), and `bench/premise/kc102_uniform_reload.sh` measured it\n"
    "on an H100: beside a coalesced row copy the reload costs 1.00x its hoisted\n"
    "twin (warp-uniform or per-thread), while as the only memory access of a\n"
    "dependent FMA chain it costs 32.9x\n"
    "(`docs/measurements/kc102-premise-and-verify-h100-2026-12-06.txt`). A\n"
    "reload that is the loop's only moving traffic stays a warning, and so does\n"
    "one kept by a barrier in a loop whose passes move only shared memory:\n"
    "`bench/premise/kc102_barrier_reload.sh` measured hoisting it 1.22x faster\n"
    "beside a barrier and an FMA chain, 1.73x beside one shared load, and 1.12x\n"
    "in a pass of eight shared loads and ~24 FMAs, the shape of generated\n"
    "integral kernels (`docs/measurements/kc102-barrier-reload-h100-2026-12-07.txt`).\n"
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
    "not depend on the loop. In CUDA, declaring the loaded pointer\n"
    "`__restrict__` lets nvcc hoist it, where nothing the kernel writes\n"
    "overlaps it.\n"
    "\n"
    "## References\n"
    "- triton-lang/triton: \"Cross Entropy Loss performance issue\" (the kernel in\n"
    "  kcheck's seed 000).\n"
    "- The premise, measured: `bench/premise/kc102_hoist.py` and `kc102_hoist.cu`\n"
    "  count the loads left in each loop in nvcc 13.0 -O3 PTX and SASS (sm_90)\n"
    "  and in Triton 3.6's TTGIR and PTX on an H200\n"
    "  (`docs/measurements/kc102-kc402-premises-h200.txt`): of 25 CUDA loops, the\n"
    "  invariant load stays in the 10 with a possibly aliasing store, atomic,\n"
    "  barrier or fence, and is hoisted from the 15 others; of 8 Triton loops, it\n"
    "  stays where the mask changes or the loop stores.\n"
    "- A store followed by `break` (`tests/fixtures/KC102_loop-invariant-load/\n"
    "  ok_store_then_break.cu`), nvcc 13.0 -O3 -arch=sm_90 -ptx: the bound\n"
    "  `rowptr[t + 1]` is loaded once, before the loop; with `continue` in\n"
    "  place of the `break` it is loaded again after the store in every pass.\n";

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

/* Is the load under a condition, in loop L, that reads memory the loop
 * stores to (`if (i - lNodesCur < n)` with `lNodesCur` a `__device__`
 * variable that thread 0 moves every pass)? Its value may change between
 * passes, and so may whether the load is made. */
static bool guard_reads_stored(const kc_kernel *k, const kc_access *a, uint32_t L)
{
    unsigned hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        /* (the loop's own condition holds in every pass that runs) */
        if (cd->loop == KC_NONE || !kc_loop_within(k, cd->loop, L) || kc_span_inside(cd->span, k->loops.data[L].span))
            continue;
        for (uint32_t i = 0; i < k->accesses.len; i++) {
            const kc_access *r = &k->accesses.data[i];
            /* (read in the condition as written: inside a macro every
             * access maps to the macro's name) */
            if (r == a || r->kind != KC_ACC_LOAD || r->base == KC_NONE || !kc_span_inside(r->span, cd->span) ||
                !cd->text || !r->base_name || !kc_text_has_word(cd->text, r->base_name, strlen(r->base_name)))
                continue;
            for (uint32_t j = 0; j < k->accesses.len; j++) {
                const kc_access *st = &k->accesses.data[j];
                if (st->kind != KC_ACC_LOAD && st->base == r->base && st->loop != KC_NONE &&
                    kc_loop_within(k, st->loop, L))
                    return true;
            }
        }
    }
    return false;
}

/* Is the load what a wait loop polls: a loop with no variable of its own
 * whose condition tests what the load read (`do { tmp = flag[i];
 * __threadfence(); } while (tmp > 0);`, `while (flag[i] == 0)`)? It ends
 * only when another thread changes the word, so the reload is the point
 * (superlu_dist's dependency counters, which other blocks decrement). */
static bool polled(const kc_access *a, const kc_loop *lp)
{
    if (!lp->cond_text)
        return false;
    /* (the variable the load fills is no variable the loop steps, though
     * the condition names it) */
    if (a->value_name && kc_text_has_word(lp->cond_text, a->value_name, strlen(a->value_name)))
        return !lp->var || strcmp(lp->var, a->value_name) == 0;
    return !lp->var && kc_span_inside(a->span, lp->range_span);
}

/* `__restrict__`, or declared with a qualifier macro kcheck could not
 * expand (`FINUFFT_RESTRICT`, from a header it did not find), which in the
 * build may be `__restrict__`: not taken to alias either way. */
static bool restrict_param(const kc_kernel *k, uint32_t sym)
{
    if (sym == KC_NONE)
        return false;
    for (uint32_t i = 0; i < k->params.len; i++)
        if (k->params.data[i].symbol == sym)
            return k->params.data[i].is_restrict || k->params.data[i].restrict_unknown;
    return false;
}

/* What in the loop keeps the compiler from hoisting the load by itself
 * (docs/measurements/kc102-kc402-premises-h200.txt). With no such thing
 * nvcc -O3 and Triton 3.6 move a load whose address (and mask) do not
 * change out of the loop on their own, and there is nothing to report. */
typedef enum keep_kind { KEEP_NONE = 0, KEEP_WRITE, KEEP_SYNC } keep_kind;

typedef struct keeper {
    keep_kind kind;
    const char *what; /* "a store to `out`", "`__syncthreads()`" */
    kc_span at;
} keeper;

static keeper why_kept(const kc_kernel *k, const kc_access *a, uint32_t L, kc_rule_ctx *ctx)
{
    keeper r = {KEEP_NONE, NULL, {0, 0, 0, 0}};
    kc_arena *ar = kc_rule_arena(ctx);
    bool cuda = k->lang == KC_LANG_CUDA;
    /* A __restrict__ pointer tells nvcc that nothing else in the kernel
     * writes what it points to: the load is hoisted past stores, atomics
     * and barriers alike. */
    if (cuda && restrict_param(k, a->base))
        return r;
    /* Nor can anything change an object declared const. */
    if (a->base != KC_NONE && a->base < k->symbols.len && (k->symbols.data[a->base].facts & KC_SF_READ_ONLY))
        return r;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *s = &k->accesses.data[i];
        if (s->kind == KC_ACC_LOAD || s->loop == KC_NONE || !kc_loop_within(k, s->loop, L))
            continue;
        /* Shared, local and constant memory cannot hold a global word. */
        if (cuda && s->space != KC_MEM_GLOBAL && s->space != KC_MEM_UNKNOWN)
            continue;
        /* A store the loop is left right after (`out[i] = v; break;`) is
         * on no path to a later pass: nvcc hoists past it. */
        if (cuda && (s->returns || (s->breaks_loop && s->loop == L)))
            continue;
        if (cuda && restrict_param(k, s->base))
            continue;
        const char *verb = s->kind == KC_ACC_ATOMIC ? "an atomic on" : "a store to";
        r.kind = KEEP_WRITE;
        r.what = s->base_name ? kc_arena_printf(ar, "%s `%s`", verb, s->base_name)
                              : kc_arena_printf(ar, "%s memory", verb);
        r.at = s->span;
        return r;
    }
    if (!cuda)
        return r;
    for (uint32_t i = 0; i < k->barriers.len; i++) {
        const kc_barrier *b = &k->barriers.data[i];
        if (b->loop != KC_NONE && kc_loop_within(k, b->loop, L)) {
            r.kind = KEEP_SYNC;
            r.what = kc_arena_printf(ar, "`%s()`", b->name);
            r.at = b->span;
            return r;
        }
    }
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        if ((c->flags & KC_CALL_FENCE) && c->loop != KC_NONE && kc_loop_within(k, c->loop, L)) {
            r.kind = KEEP_SYNC;
            r.what = kc_arena_printf(ar, "`%s()`", c->callee);
            r.at = c->span;
            return r;
        }
    }
    return r;
}

/* Does the index hold a part kcheck could not express (a name whose
 * declaration it lost, a non-polynomial sub-expression)? */
static bool has_opaque(const kc_index *x)
{
    for (unsigned i = 0; x && i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (x->mono[i].fac[f].kind == KC_ATOM_OPAQUE)
                return true;
    return false;
}

/* Is load `a` of kernel k reported, and why is it kept in its loop? */
static bool reportable(const kc_model *m, const kc_kernel *k, const kc_access *a, kc_rule_ctx *ctx, keeper *why,
                       bool *varying_mask)
{
    /* a load nothing uses is removed by the compiler: nothing is reloaded */
    if (a->kind != KC_ACC_LOAD || a->loop == KC_NONE || a->loop >= k->loops.len || !a->offset || a->discarded)
        return false;
    /* Constant memory is served by its own cache (scalars are operands
     * of the instruction); a volatile load must be repeated. */
    if (a->space != KC_MEM_GLOBAL || a->is_volatile)
        return false;
    uint32_t L = a->loop;
    if (kc_index_depends_on_loop(a->offset, L))
        return false;
    /* A for loop whose variable kcheck lost (its declaration did not
     * parse: `for (cuda::index_t i = ...` with the type from a missing
     * header), and an address with a part it could not express: that
     * part may be the variable, so whether the address changes with
     * the loop is not known. */
    if (k->loops.data[L].kind == KC_LOOP_FOR && !k->loops.data[L].var && has_opaque(a->offset))
        return false;
    /* Loaded only in some passes (under `if i == 0:`): not repeated. */
    if (kc_cond_chain_depends_on_loop(k, a->guard, L) || guard_reads_stored(k, a, L) ||
        polled(a, &k->loops.data[L]))
        return false;
    /* An address computed from loaded values may change when the loop
     * stores (`t[off[b]]` with `off[b]` updated in the loop). */
    if (stored_in_loop(k, a->base, L, (kc_index_deps(a->offset).flags & KC_AF_DATA) != 0))
        return false;
    /* A mask that changes with the loop keeps a Triton load in the loop
     * whatever else the loop does; otherwise the compiler hoists it
     * unless something in the loop may change the word. */
    *varying_mask = k->lang == KC_LANG_TRITON && a->masked && (a->mask_deps.loops & kc_loop_bit(L));
    *why = why_kept(k, a, L, ctx);
    if (!*varying_mask && why->kind == KEEP_NONE)
        return false;
    /* A grid-stride loop that the launches give a block per value
     * makes one pass: the load is made once per thread. */
    if (kc_loop_one_pass_per_thread(m, k, &k->loops.data[L]))
        return false;
    return true;
}

/* Triton: does b's block hold at least a's: each extent of a's block (a
 * constant, or a constexpr by name) among b's, each used once? */
static bool covers(const kc_access *b, const kc_access *a)
{
    const kc_shape *sa = &a->offset->shape, *sb = &b->offset->shape;
    if (sa->rank == 0 || sa->rank > sb->rank || sb->rank > KC_MAX_RANK)
        return false;
    bool used[KC_MAX_RANK] = {false};
    for (unsigned x = 0; x < sa->rank; x++) {
        bool found = false;
        for (unsigned y = 0; y < sb->rank && !found; y++) {
            const kc_dim *da = &sa->dims[x], *db = &sb->dims[y];
            found = !used[y] && ((da->value > 0 && db->value >= da->value) ||
                                 (da->symbol != KC_NONE && da->symbol == db->symbol));
            used[y] |= found;
        }
        if (!found)
            return false;
    }
    return true;
}

/* Which moving accesses moving_accesses counts. */
typedef enum mover_kind {
    MOVERS_ANY,      /* every one */
    MOVERS_AS_LARGE, /* Triton: blocks at least as large as a's (covers) */
    MOVERS_BLOCKS,   /* Triton: blocks, rank 1 or more */
} mover_kind;

/* How many other global accesses of loop L move to a new address in
 * every pass (the loop's real traffic), of the kind `which`, the first in
 * *first. */
static unsigned moving_accesses(const kc_kernel *k, const kc_access *a, uint32_t L, mover_kind which,
                                const kc_access **first)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b == a || b->space != KC_MEM_GLOBAL || !b->offset || b->loop == KC_NONE || !kc_loop_within(k, b->loop, L) ||
            !kc_index_depends_on_loop(b->offset, L) || (which == MOVERS_AS_LARGE && !covers(b, a)) ||
            (which == MOVERS_BLOCKS && b->offset->shape.rank == 0))
            continue;
        if (!n++)
            *first = b;
    }
    return n;
}

/* Triton: is the access's address a pointer variable as written
 * (`tl.load(q_ptr)`), which the code steps by assignment? */
static bool bare_pointer(const kc_access *a)
{
    const char *t = a->addr_text;
    if (!t || !*t || !(isalpha((unsigned char)*t) || *t == '_'))
        return false;
    for (; *t; t++)
        if (!isalnum((unsigned char)*t) && *t != '_')
            return false;
    return true;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        keeper why;
        bool varying_mask;
        if (!reportable(m, k, a, ctx, &why, &varying_mask))
            continue;
        uint32_t L = a->loop;
        const kc_loop *lp = &k->loops.data[L];
        const char *name = a->base_name ? a->base_name : "memory";
        /* an inlined load is reported once, by the function that reports it
         * in its own model (the registry drops the repeats) */
        kc_diag *d = kc_report_access(ctx, k, a,
                               "loop-invariant load from `%s`: the address does not change with %s, yet it is "
                               "loaded again in every pass",
                               name, lp->var ? kc_arena_printf(kc_rule_arena(ctx), "`%s`", lp->var) : "the loop");
        kc_diag_note(d, "%s", kc_loop_describe(ctx, k, lp));
        kc_diag_note(d, "element offset: %s (no term depends on the loop)", kc_model_index_str(m, k, a->offset));
        if (varying_mask)
            kc_diag_note(d, "the mask `%s` changes with the loop, so the lanes that hit differ between passes, but "
                         "the load and its address arithmetic are issued in every pass: no compiler can hoist a load "
                         "whose mask changes",
                         a->mask_text);
        else if (k->lang == KC_LANG_CUDA)
            kc_diag_note(d, "nvcc -O3 keeps it in the loop because of %s on line %u: %s", why.what, why.at.line,
                         why.kind == KEEP_WRITE
                             ? kc_arena_printf(kc_rule_arena(ctx),
                                               "it may write `%s` (neither pointer is `__restrict__`); without it "
                                               "nvcc would hoist the load itself",
                                               name)
                             : kc_arena_printf(kc_rule_arena(ctx),
                                               "another thread may write `%s` before it (`%s` is not "
                                               "`__restrict__`); without it nvcc would hoist the load itself",
                                               name, name));
        else
            kc_diag_note(d, "Triton keeps it in the loop because of %s on line %u; in a loop that stores nothing "
                         "it would hoist the load itself",
                         why.what, why.at.line);
        if (lp->kind == KC_LOOP_STATIC_RANGE)
            kc_diag_note(d, "the loop is unrolled at compile time: every unrolled copy carries its own copy of "
                         "this load");
        /* CUDA: the reload hits L1 after the first pass; beside accesses
         * that move new data in every pass it is a small part of the
         * pass (round 48: 20 of 20 such findings judged immaterial) */
        const kc_access *mover = NULL;
        unsigned moving =
            !varying_mask && k->lang == KC_LANG_CUDA ? moving_accesses(k, a, L, MOVERS_ANY, &mover) : 0;
        /* Triton: a reloaded block beside at least two blocks as large
         * that each pass moves anew (a norm's weight beside the rows) */
        unsigned big =
            !varying_mask && k->lang == KC_LANG_TRITON ? moving_accesses(k, a, L, MOVERS_AS_LARGE, &mover) : 0;
        /* Triton: a scalar reloaded beside at least one block the pass
         * moves anew (a window's bounds beside a key tile and a dot) */
        const kc_access *block_mover = NULL;
        unsigned blocks = !varying_mask && k->lang == KC_LANG_TRITON && a->offset->shape.rank == 0
                              ? moving_accesses(k, a, L, MOVERS_BLOCKS, &block_mover)
                              : 0;
        if (blocks) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "after the first pass the scalar is in L1, and every pass also moves %u block%s of new "
                         "data (`%s`, line %u): the reload is a small part of a pass (measured on an H100: 1.02x to "
                         "1.06x its hoisted twin beside a key tile and a `tl.dot`, 1.00x beside a row copy); "
                         "reported as a note",
                         blocks, blocks == 1 ? "" : "s",
                         block_mover->base_name ? block_mover->base_name : "memory", block_mover->span.line);
        } else if (big >= 2) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "after the first pass the block is in L1 or L2, and every pass also moves %u blocks of "
                         "new data at least as large (`%s`, line %u): the reload is a small part of a pass (an "
                         "RMSNorm backward's weight on an H200: 1.00x to 1.04x its hoisted twin up to rows of 4096, "
                         "1.10x at 8192); reported as a note",
                         big, mover->base_name ? mover->base_name : "memory", mover->span.line);
        }
        if (moving) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "after the first pass the word is in L1, and every pass also makes %u access%s that "
                         "move%s new data (`%s`, line %u): the reload is a small part of a pass (measured on an "
                         "H100 beside a row copy: 1.00x its hoisted twin); reported as a note",
                         moving, moving == 1 ? "" : "es", moving == 1 ? "s" : "",
                         mover->base_name ? mover->base_name : "memory", mover->span.line);
        }
        /* Triton: the only access of the loop through a pointer variable
         * that the loop does not step, where it steps every other one
         * (`dq_ptr -= d` beside `q = tl.load(q_ptr)`): maybe a step is
         * missing */
        const kc_access *other = NULL;
        unsigned movers =
            k->lang == KC_LANG_TRITON && bare_pointer(a) ? moving_accesses(k, a, L, MOVERS_ANY, &other) : 0;
        bool alone = movers >= 2;
        for (uint32_t j = 0; alone && j < k->accesses.len; j++) {
            const kc_access *b = &k->accesses.data[j];
            if (b == a || b->space != KC_MEM_GLOBAL || b->discarded || b->loop == KC_NONE ||
                !kc_loop_within(k, b->loop, L))
                continue;
            alone = bare_pointer(b) && b->offset && kc_index_depends_on_loop(b->offset, L);
        }
        if (alone)
            kc_diag_note(d, "every other access of the loop moves with it (%u, `%s` on line %u the first): if `%s` "
                         "should move too, the pointer's step is missing, a wrong result rather than a slow one",
                         movers, other->base_name ? other->base_name : "memory", other->span.line, name);
        if (varying_mask)
            kc_diag_note(d, "fix: load it once before the loop with a mask that does not depend on the loop, and "
                         "use the value inside");
        else if (k->lang == KC_LANG_CUDA)
            kc_diag_note(d, "fix: hoist the load above the loop and reuse the value (or declare `%s` "
                         "`__restrict__` if nothing the kernel writes overlaps it)",
                         name);
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
