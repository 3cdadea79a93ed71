/* KC404 global-memory-race: programs (blocks) that store different values
 * to the same global location in one launch, with no atomic and no
 * ordering.
 *
 * Reads: each store's offset (which program ids its address depends on:
 * kc_atom.programs, KC_ATOM_PROGRAM ids), its guards and mask (a store
 * under `if i_v == 0` is one program's), what the stored value depends on
 * (kc_access.value_deps), the program ids the kernel uses elsewhere, and
 * the launches' grids (an axis every launch makes one program wide is
 * not a race; a kernel not launched in the file is not judged). Reported where kcheck can tell: the address does not
 * depend on a grid axis the kernel spreads work over, and the value does.
 * CUDA: blocks (blockIdx), for stores by assignment (`out[i] = v`). */
#include "rule_util.h"

#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a store whose address is the same for every program along a grid\n"
    "axis while the value stored differs between them: programs that split\n"
    "the work along that axis (the kernel reads `tl.program_id(axis)` and\n"
    "indexes by it elsewhere) all write the same location, with no atomic\n"
    "and no guard choosing one program (`if i_v == 0:`). A read-modify-write\n"
    "of such a location (`acc = tl.load(p); tl.store(p, acc + x)`) is the\n"
    "same race: updates are lost. Stores of one value by every program,\n"
    "axes that every launch makes one program wide, and kernels with no launch\n"
    "in the file (whose grid kcheck does not read) are not reported, nor stores in a compile-time branch (`if constexpr`, a\n"
    "`tl.constexpr` flag), whose launches may make the axis one wide. In\n"
    "CUDA the programs are blocks (`blockIdx`), stores are followed where they\n"
    "are assignments (`out[0] = v`), and a value read from shared memory is\n"
    "taken to differ from block to block.\n"
    "\n"
    "## Why is this bad?\n"
    "Programs of one launch run in no defined order, and Triton has no\n"
    "barrier between them: the location ends up holding whichever program\n"
    "wrote last, a different one from run to run (or, for a read-modify-\n"
    "write, the sum of some of the updates). Results are nondeterministic and\n"
    "wrong only at the sizes that give the axis more than one program\n"
    "(flash-linear-attention 5659576e: every V-split program stored the\n"
    "same `z`; fixed with `if i_v == 0`).\n"
    "\n"
    "## Example\n"
    "```python\n"
    "i_v, i_bh = tl.program_id(0), tl.program_id(1)\n"
    "o = tl.load(v + i_bh * V + i_v * BV + tl.arange(0, BV))\n"
    "tl.store(z + i_bh, tl.sum(o, axis=0))     # every i_v writes z[i_bh]\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "tl.atomic_add(z + i_bh, tl.sum(o, axis=0))  # or: if i_v == 0: tl.store(...)\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Make the address depend on the axis (one slot per program, reduced\n"
    "afterwards), accumulate with `tl.atomic_add`, or store from one program\n"
    "of the axis (`if tl.program_id(axis) == 0:`) when they all compute the\n"
    "same value.\n"
    "\n"
    "## References\n"
    "- fla-org/flash-linear-attention 5659576e (every V-split program stored the same `z`).\n"
    "- fla-org/flash-linear-attention#1018; karpathy/llm.c 0f144e3.\n";

/* The grid axes an index depends on through program ids; *unknown when a
 * term depends on some program id kcheck cannot name. */
static uint8_t index_programs(const kc_index *x, bool *unknown)
{
    uint8_t axes = 0;
    if (!x)
        return 0;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind == KC_ATOM_PROGRAM)
                axes |= (uint8_t)(1u << (a->id & 7));
            else if (a->programs)
                axes |= a->programs;
            else if (a->flags & KC_AF_PROGRAM)
                *unknown = true;
        }
    return axes;
}

static uint8_t deps_programs(kc_deps d, bool *unknown)
{
    if ((d.flags & KC_AF_PROGRAM) && !d.programs)
        *unknown = true;
    return d.programs;
}

/* The grid axes the kernel spreads its work over: those its accesses index by. */
static uint8_t used_axes(const kc_kernel *k)
{
    uint8_t u = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        bool unk = false;
        u |= index_programs(k->accesses.data[i].offset, &unk);
    }
    return u;
}

/* Does every launch of the kernel in the file run one program along each
 * of `axes` (a grid written with 1 there, or with fewer axes)? */
static bool single_program(const kc_model *m, const kc_kernel *k, uint8_t axes)
{
    bool seen = false;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (!l->kernel || strcmp(l->kernel, k->name))
            continue;
        seen = true;
        for (unsigned ax = 0; ax < 3; ax++) {
            if (!((axes >> ax) & 1))
                continue;
            const kc_grid_axis *g = &l->grid[ax];
            bool one = (g->hazard == KC_GRID_CONST && g->value == 1) || (!g->text && ax > 0 && l->grid[0].text);
            if (!one)
                return false;
        }
    }
    return seen;
}

/* Is the store under `if S == 1:` (or the else of `if S > 1:`) for a size S that sizes grid axis `ax`
 * at every launch (`grid = (..., META["SPLIT_K"])` with the store in the
 * SPLIT_K == 1 branch and an atomic in the other)? */
static bool guarded_single(const kc_model *m, const kc_kernel *k, const kc_access *a, unsigned ax)
{
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t i = 0; i < cd->ntested && (cd->negated ? cd->ntested == 1 : true); i++) {
            const kc_pred *p = &cd->tested[i];
            int64_t v;
            uint32_t sym = kc_index_symbol(p->lhs);
            if (sym == KC_NONE || !kc_index_is_const(p->rhs, &v) || sym >= k->symbols.len)
                continue;
            /* the branch runs only when S is 1 (or less): `S == 1`, `S <= 1`,
             * or the else of `S > 1` */
            bool one = cd->negated ? ((p->op == KC_CMP_GT && v == 1) || (p->op == KC_CMP_GE && v == 2))
                                   : ((p->op == KC_CMP_EQ && v == 1) || (p->op == KC_CMP_LE && v == 1) ||
                                      (p->op == KC_CMP_LT && v == 2));
            if (!one)
                continue;
            const char *name = k->symbols.data[sym].name;
            bool all = false, any = false;
            for (uint32_t l = 0; l < m->launches.len; l++) {
                const kc_launch *L = &m->launches.data[l];
                if (!L->kernel || strcmp(L->kernel, k->name))
                    continue;
                any = true;
                all = L->grid[ax].text && strstr(L->grid[ax].text, name);
                if (!all)
                    break;
            }
            if (any && all)
                return true;
        }
    }
    return false;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    uint8_t used = used_axes(k);
    bool launched = false;
    for (uint32_t i = 0; i < m->launches.len && !launched; i++)
        launched = m->launches.data[i].kernel && !strcmp(m->launches.data[i].kernel, k->name);
    /* Without a launch in the file kcheck cannot read the grid, so it cannot
     * tell how many programs an axis has (a kernel written for a grid one
     * program wide along it is fine; the launches other files make are read
     * for their arguments, not their grids). */
    if (!used || k->is_device_function || !launched)
        return;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->kind != KC_ACC_STORE || a->space != KC_MEM_GLOBAL || !a->offset || a->base == KC_NONE)
            continue;
        bool unknown = false;
        uint8_t addr = index_programs(a->offset, &unknown);
        if (a->masked)
            addr |= deps_programs(a->mask_deps, &unknown);
        uint32_t hops = 0;
        bool specialized = false;
        for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
            kc_deps cd = k->conds.data[c].deps;
            addr |= deps_programs(cd, &unknown);
            /* a compile-time branch (`if constexpr (!UseAuxBuffer)`, a
             * tl.constexpr flag): its launches may make the axis one wide
             * (llm.c launches that variant only when gridDim.y is 1) */
            specialized |= !cd.axes && !cd.flags && !cd.loops;
        }
        if (unknown || specialized)
            continue;
        uint8_t free_axes = (uint8_t)(used & ~addr);
        uint8_t racing = (uint8_t)(free_axes & a->value_deps.programs);
        /* the same value from every program of an axis (redundant writes,
         * benign in effect) is not reported */
        if (!racing || single_program(m, k, racing))
            continue;
        unsigned ax = 0;
        while (!((racing >> ax) & 1))
            ax++;
        if (guarded_single(m, k, a, ax))
            continue;
        bool rmw = false;
        for (uint32_t j = 0; j < k->accesses.len && !rmw; j++) {
            const kc_access *r = &k->accesses.data[j];
            rmw = r->kind == KC_ACC_LOAD && r->base == a->base && j < i &&
                  kc_index_equal(r->offset, a->offset);
        }
        bool cuda = m->lang == KC_LANG_CUDA;
        static const char *const bid[] = {"blockIdx.x", "blockIdx.y", "blockIdx.z"};
        kc_arena *ar = kc_rule_arena(ctx);
        const char *id = cuda ? bid[ax < 3 ? ax : 0] : kc_arena_printf(ar, "tl.program_id(%u)", ax);
        kc_diag *d = kc_report(ctx, k, kc_access_point(a),
                               "every %s along %s %s the same addresses of `%s`, and the value stored differs "
                               "between them: the %ss race",
                               cuda ? "block" : "program", cuda ? kc_arena_printf(ar, "`%s`", id)
                                                               : kc_arena_printf(ar, "grid axis %u", ax),
                               rmw ? "reads, updates and stores back" : "stores to", a->base_name ? a->base_name : "?",
                               cuda ? "block" : "program");
        kc_diag_note(d, "the address `%s` does not depend on `%s`, which this kernel splits its work by (its other "
                     "accesses index by it), and nothing chooses one %s; the value does depend on it, so the "
                     "location keeps whichever wrote last%s",
                     a->addr_text ? a->addr_text : "", id, cuda ? "block" : "program of that axis",
                     rmw ? ", and updates of the others are lost" : "");
        kc_diag_note(d, "make the address depend on `%s` (one slot per %s, reduced after), accumulate with `%s`, or "
                     "store from one %s (`%s`) when they all compute the same value",
                     id, cuda ? "block" : "program", cuda ? "atomicAdd" : "tl.atomic_add", cuda ? "block" : "program",
                     kc_arena_printf(ar, cuda ? "if (%s == 0)" : "if %s == 0:", id));
    }
}

const kc_rule kc404_global_memory_race = {
    .id = "KC404",
    .slug = "global-memory-race",
    .summary = "Programs of one launch storing different values to the same global location without an atomic.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_TRITON | KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_WRONG_RESULT,
};
