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
 * depend on a grid axis (or one half of a split axis, KC_PROG_LO/HI) the
 * kernel spreads work over, and the value does; or a store to a fixed
 * location by the programs a condition on their ids picks, which the
 * other programs access in the same launch.
 * CUDA: blocks (blockIdx), for stores by assignment (`out[i] = v`). */
#include "rule_util.h"

#include <ctype.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags two shapes of race between the programs (CUDA: blocks) of one\n"
    "launch on a global location, with no atomic and no ordering:\n"
    "\n"
    "- a store whose address is the same for every program along a grid\n"
    "  axis while the value stored differs between them: programs that split\n"
    "  the work along that axis (the kernel reads `tl.program_id(axis)` and\n"
    "  indexes by it elsewhere) all write the same location, with no guard\n"
    "  choosing one program (`if i_v == 0:`). A read-modify-write of such a\n"
    "  location (`acc = tl.load(p); tl.store(p, acc + x)`) is the same race:\n"
    "  updates are lost. One axis split in two (`pid_m = pid // num_pid_n`,\n"
    "  `pid_n = pid % num_pid_n`) counts as two: an address made of `pid_m`\n"
    "  alone is shared by the programs that differ in `pid_n`;\n"
    "- a store to one fixed location made only by the programs a condition on\n"
    "  their ids picks (`if (blockIdx.x == 0 && threadIdx.x == 0) acc[0] = 0;`)\n"
    "  while the other programs read or update that location in the same\n"
    "  launch: they may run first.\n"
    "\n"
    "A store of one value, computed from memory, by every program along an\n"
    "axis (value-split attention storing its `lse` from each V split) is a\n"
    "note: redundant stores that race, harmless only while every program\n"
    "computes the same bits.\n"
    "\n"
    "Not reported: constants stored by every program (`tl.store(flags + i,\n"
    "1)`), stores made where loaded data picks the program (the last program\n"
    "of a ticket counter), loops some programs run no pass of, axes that every\n"
    "launch makes one program wide, kernels with no launch in the file (whose\n"
    "grid kcheck does not read), kernels ordered by a cooperative `grid.sync()`\n"
    "or a distributed barrier, stores after a spin wait on an atomic (`while\n"
    "tl.atomic_add(lock, 0, sem=\"acquire\") < pid: pass`: a lock of the\n"
    "kernel's own orders the programs), and stores under a branch on values every\n"
    "program shares (a CUDA `if constexpr` or template parameter, a kernel\n"
    "argument, a `tl.constexpr` flag) that a launch may tie to the grid: one\n"
    "it does not pass, or passes as an expression sharing a name with the\n"
    "axis's grid size (apex launches its clearing mode as\n"
    "`dim3 blocks(clear ? 1 : n)`), and a store in one arm of such a branch\n"
    "whose other arm updates the same address atomically (`if KD == D:\n"
    "tl.store(p, o)` / `else: tl.atomic_add(p, o)`: the author's configuration\n"
    "with one program per location).\n"
    "\n"
    "## Why is this bad?\n"
    "Programs of one launch run in no defined order, and nothing orders them\n"
    "within a launch (`__syncthreads()` orders one block's threads; Triton has\n"
    "no barrier between programs): the location ends up holding whichever\n"
    "program wrote last, a different one from run to run (or, for a read-\n"
    "modify-write, the sum of some of the updates), and an initialisation by\n"
    "one block can wipe out updates other blocks made before it. Results are\n"
    "nondeterministic and wrong only at the sizes that give the axis more than\n"
    "one program (flash-linear-attention 5659576e: every V-split program\n"
    "stored the same `z`; mamba 620cd981: every `pid_n` program stored its\n"
    "partial `dD` to one slot; TransformerEngine 98c2ea2a: block 0 zeroed\n"
    "the loss that the other blocks were adding to).\n"
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
    "afterwards), accumulate with `tl.atomic_add` / `atomicAdd`, or store from\n"
    "one program of the axis (`if tl.program_id(axis) == 0:`) when they all\n"
    "compute the same value. Initialise a location the other programs update\n"
    "before the launch (`cudaMemsetAsync`, `torch.zeros`).\n"
    "\n"
    "## References\n"
    "- fla-org/flash-linear-attention 5659576e (every V-split program stored the same `z`).\n"
    "- state-spaces/mamba 620cd981 (PR #827: the partial `dD` of every `pid_n` program stored to one slot).\n"
    "- NVIDIA/TransformerEngine 98c2ea2a and c7f04fe2 (PR #2758: block 0 initialising what other blocks update and read).\n"
    "- Premise on an H200 (`bench/premise/kc404_race_premises.py`, `docs/measurements/kc404-race-shapes-h200.txt`): a\n"
    "  split axis with 16 N tiles gave 20 different results in 20 runs; a block initialising what the others\n"
    "  update was wrong in 500 of 500 launches when it ran after the first wave, 0 of 500 as block 0.\n"
    "- fla-org/flash-linear-attention#1018; karpathy/llm.c 0f144e3.\n";

/* The grid axes an index depends on through program ids (KC_PROG_* bits:
 * an axis, or the quotient or remainder half of one); *unknown when a
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
                axes |= a->id < 3 ? KC_PROG_AXIS(a->id) : KC_PROG_ALL;
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

/* Is L a launch of kernel k? */
static bool launches_kernel(const kc_launch *L, const kc_kernel *k)
{
    return kc_launch_may_run(L, k); /* an instantiation: its own template arguments */
}

/* The first grid axis with a bit in `bits` (KC_PROG_* bits). */
static unsigned first_axis(uint8_t bits)
{
    unsigned ax = 0;
    while (ax < 2 && !(bits & KC_PROG_AXIS(ax)))
        ax++;
    return ax;
}

/* The program ids an access's address depends on: its offset's, or those
 * picking a block pointer's block. */
static uint8_t access_programs(const kc_access *a, bool *unknown)
{
    if (a->block_ptr && !a->offset)
        return deps_programs(a->block_ptr_deps, unknown);
    return index_programs(a->offset, unknown);
}

/* The grid axes the kernel spreads its work over: those its accesses index
 * by. A value read back from shared memory is taken to differ between
 * blocks along every axis (KC_PROG_ALL: what filled it is not followed);
 * an address made of it is no sign that the kernel splits its work along
 * an axis it never names. */
static uint8_t used_axes(const kc_kernel *k)
{
    uint8_t u = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->block_ptr && !a->offset) {
            bool unk = false;
            u |= deps_programs(a->block_ptr_deps, &unk);
            continue;
        }
        for (unsigned j = 0; a->offset && j < a->offset->nmono; j++)
            for (unsigned f = 0; f < a->offset->mono[j].nfac; f++) {
                const kc_atom *at = &a->offset->mono[j].fac[f];
                if (at->kind == KC_ATOM_PROGRAM)
                    u |= at->id < 3 ? KC_PROG_AXIS(at->id) : KC_PROG_ALL;
                else if (at->programs != KC_PROG_ALL)
                    u |= at->programs;
            }
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
        if (!launches_kernel(l, k))
            continue;
        seen = true;
        for (unsigned ax = 0; ax < 3; ax++) {
            if (!(axes & KC_PROG_AXIS(ax)))
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
                if (!launches_kernel(L, k))
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

/* Do texts a and b name a common variable (words of Python syntax and the
 * modules every launch names aside)? */
static bool share_name(const char *a, const char *b)
{
    static const char *const common[] = {"None", "True", "False", "is",    "not",  "and", "or",  "if",
                                         "else", "in",   "META",  "triton", "tl",  "torch", "math", "cdiv",
                                         "max",  "min",  "int",   "len",   "lambda"};
    for (const char *p = a; p && *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > a && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            p++;
            continue;
        }
        size_t n = 0;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        bool skip = false;
        for (size_t c = 0; c < sizeof common / sizeof *common && !skip; c++)
            skip = strlen(common[c]) == n && !strncmp(common[c], p, n);
        if (!skip) {
            char w[96];
            if (n < sizeof w) {
                memcpy(w, p, n);
                w[n] = 0;
                if (kc_text_has_word(b, w, n))
                    return true;
            }
        }
        p += n;
    }
    return false;
}

/* Does the launch's grid along `ax` (3: any axis) mention `name` or share
 * a variable with `arg`? */
static bool grid_mentions(const kc_launch *L, unsigned ax, const char *name, const char *arg)
{
    for (unsigned a = 0; a < 3; a++) {
        const char *g = L->grid[a].text;
        if ((ax == 3 || a == ax) && g && (kc_text_has_word(g, name, strlen(name)) || share_name(arg, g)))
            return true;
    }
    return ax == 3 && L->grid_text && (kc_text_has_word(L->grid_text, name, strlen(name)) || share_name(arg, L->grid_text));
}

/* A branch on values every program shares (`if HAS_D:`, `if
 * (clear_overflow_first)`, `if constexpr (...)`) may be the variant its
 * launches pick only when the axis is one program wide (llm.c launches its
 * `!UseAuxBuffer` variant only when gridDim.y is 1; apex 758826fc launches
 * `clear_overflow_first ? 1 : n` blocks). The branch is tied to grid axis
 * `ax` (3: any) unless every launch passes every parameter the condition
 * names, with an expression that shares no variable with the axis's size
 * (`HAS_D=D is not None` against `cdiv(headdim, BLOCK_N)`). A template
 * parameter is no launch argument: always tied. */
static bool branch_tied(const kc_model *m, const kc_kernel *k, const kc_cond *cd, unsigned ax)
{
    if (!cd->text)
        return true;
    unsigned named = 0;
    for (uint32_t s = 0; s < k->symbols.len; s++) {
        const kc_symbol *sy = &k->symbols.data[s];
        if ((sy->kind != KC_SYM_CONSTEXPR && sy->kind != KC_SYM_PARAM) || !sy->name ||
            !kc_text_has_word(cd->text, sy->name, strlen(sy->name)))
            continue;
        named++;
        for (uint32_t l = 0; l < m->launches.len; l++) {
            const kc_launch *L = &m->launches.data[l];
            if (!launches_kernel(L, k))
                continue;
            const char *arg = NULL;
            for (uint32_t a = 0; a < L->args.len && !arg; a++)
                if (L->args.data[a].param && !strcmp(L->args.data[a].param, sy->name))
                    arg = L->args.data[a].text ? L->args.data[a].text : "";
            if (!arg || (ax < 3 && !L->grid[ax].text) || grid_mentions(L, ax, sy->name, arg))
                return true;
        }
    }
    return named == 0;
}

/* Is the access under a branch on shared values that is tied to grid axis
 * `ax` (3: any)? */
static bool in_tied_branch(const kc_model *m, const kc_kernel *k, const kc_access *a, unsigned ax)
{
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (!cd->deps.axes && !cd->deps.flags && !cd->deps.loops && branch_tied(m, k, cd, ax))
            return true;
    }
    return false;
}

/* Is the store in one arm of a branch on shared values (a `tl.constexpr`,
 * an argument) whose other arm updates the same location atomically
 * (`if KD == D: tl.store(p, o) else: tl.atomic_add(p, o)`)? The author
 * chose per configuration between one writer and many: the plain store is
 * the configuration with one program per location (linghe's lightning
 * attention, where `KD == D` leaves the split axis one program wide). */
static bool atomic_in_other_arm(const kc_kernel *k, const kc_access *a)
{
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (cd->deps.axes || cd->deps.flags || cd->deps.loops)
            continue;
        for (uint32_t i = 0; i < k->accesses.len; i++) {
            const kc_access *b = &k->accesses.data[i];
            if (b->kind != KC_ACC_ATOMIC || !kc_access_same_base(a, b) || !a->offset || !b->offset ||
                !kc_index_equal(a->offset, b->offset) || kc_access_fields_apart(a, b))
                continue;
            for (uint32_t g = b->guard, h = 0; g != KC_NONE && g < k->conds.len && h++ < 10000;
                 g = k->conds.data[g].parent) {
                const kc_cond *bd = &k->conds.data[g];
                if (bd != cd && kc_span_same(bd->span, cd->span) && bd->negated != cd->negated)
                    return true;
            }
        }
    }
    return false;
}

/* A term of the kernel's addresses that depends on exactly `half` of a
 * program id (`tl.program_id(0) % num_pid_n`), for messages; NULL if none. */
static const char *half_text(const kc_kernel *k, uint8_t half, char *buf, size_t n)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_index *x = k->accesses.data[i].offset;
        for (unsigned mo = 0; x && mo < x->nmono; mo++)
            for (unsigned f = 0; f < x->mono[mo].nfac; f++) {
                const kc_atom *a = &x->mono[mo].fac[f];
                if (a->kind == KC_ATOM_OPAQUE && a->programs == half && a->id < k->opaques.len &&
                    k->opaques.data[a->id].text && strlen(k->opaques.data[a->id].text) < 80) {
                    snprintf(buf, n, "%s", k->opaques.data[a->id].text);
                    return buf;
                }
            }
    }
    return NULL;
}

/* Does some launch of the kernel hide arguments behind a `**kwargs` splat? */
static bool args_hidden(const kc_model *m, const kc_kernel *k)
{
    for (uint32_t i = 0; i < m->launches.len; i++)
        if (launches_kernel(&m->launches.data[i], k) && m->launches.data[i].partial_args)
            return true;
    return false;
}

static bool launched_in_file(const kc_model *m, const kc_kernel *k)
{
    for (uint32_t i = 0; i < m->launches.len; i++)
        if (launches_kernel(&m->launches.data[i], k))
            return true;
    return false;
}

/* The program ids a store's address, mask and guards depend on (*unknown:
 * some the model cannot name). */
static uint8_t store_pins(const kc_kernel *k, const kc_access *a, bool *unknown)
{
    uint8_t addr = access_programs(a, unknown);
    if (a->masked)
        addr |= deps_programs(a->mask_deps, unknown);
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent)
        addr |= deps_programs(k->conds.data[c].deps, unknown);
    /* a loop that some programs run no pass of picks programs like a guard
     * (`for _ in range(0, tl.where(pid == 0, 1, 0))`) */
    hops = 0;
    for (uint32_t l = a->loop; l != KC_NONE && l < k->loops.len && hops++ < 10000; l = k->loops.data[l].parent) {
        const kc_loop *lp = &k->loops.data[l];
        const kc_index *b[3] = {lp->start, lp->end, lp->step};
        for (int i = 0; i < 3; i++)
            if (b[i])
                addr |= deps_programs(kc_index_deps(b[i]), unknown);
    }
    return addr;
}

/* Does the access run only where loaded data says so: a guard or a loop
 * bound that depends on memory (the last program of a ticket counter,
 * `if count == tl.num_programs(0) - 1:`), or a loop whose bounds are not
 * known? */
static bool data_picked(const kc_kernel *k, const kc_access *a)
{
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent)
        if (k->conds.data[c].deps.flags & KC_AF_DATA)
            return true;
    hops = 0;
    for (uint32_t l = a->loop; l != KC_NONE && l < k->loops.len && hops++ < 10000; l = k->loops.data[l].parent) {
        const kc_loop *lp = &k->loops.data[l];
        if (!lp->end)
            return true;
        const kc_index *b[3] = {lp->start, lp->end, lp->step};
        for (int i = 0; i < 3; i++)
            if (b[i] && (kc_index_deps(b[i]).flags & KC_AF_DATA))
                return true;
    }
    return false;
}

static void report_race(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx, uint32_t i, uint8_t racing)
{
    const kc_access *a = &k->accesses.data[i];
    unsigned ax = first_axis(racing);
    uint8_t part = (uint8_t)(racing & KC_PROG_AXIS(ax));
    bool rmw = false;
    for (uint32_t j = 0; j < k->accesses.len && !rmw; j++) {
        const kc_access *r = &k->accesses.data[j];
        rmw = r->kind == KC_ACC_LOAD && r->base == a->base && j < i && kc_index_equal(r->offset, a->offset) &&
              !kc_access_fields_apart(r, a);
    }
    bool cuda = m->lang == KC_LANG_CUDA;
    static const char *const bid[] = {"blockIdx.x", "blockIdx.y", "blockIdx.z"};
    kc_arena *ar = kc_rule_arena(ctx);
    const char *id = cuda ? bid[ax] : kc_arena_printf(ar, "tl.program_id(%u)", ax);
    const char *who = cuda ? "block" : "program";
    /* one half of a split axis: the programs that share the other half race */
    char hb[96], ob[96];
    const char *half = part != KC_PROG_AXIS(ax) ? half_text(k, part, hb, sizeof hb) : NULL;
    const char *other = half ? half_text(k, (uint8_t)(KC_PROG_AXIS(ax) & ~part), ob, sizeof ob) : NULL;
    kc_diag *d = half ? kc_report_access(ctx, k, a,
                                  "the %ss that differ only in `%s` %s the same addresses of `%s`, and the value "
                                  "stored differs between them: they race",
                                  who, half, rmw ? "read, update and store back" : "store to",
                                  a->base_name ? a->base_name : "?")
                      : kc_report_access(ctx, k, a,
                                  "every %s along %s %s the same addresses of `%s`, and the value stored differs "
                                  "between them: the %ss race",
                                  who, cuda ? kc_arena_printf(ar, "`%s`", id) : kc_arena_printf(ar, "grid axis %u", ax),
                                  rmw ? "reads, updates and stores back" : "stores to",
                                  a->base_name ? a->base_name : "?", who);
    if (half)
        kc_diag_note(d, "the address `%s` depends on `%s` but not on `%s`, which splits the same grid axis %u; "
                     "the value does depend on it, so whenever `%s` takes more than one value the location "
                     "keeps whichever %s wrote last%s",
                     a->addr_text ? a->addr_text : "", other ? other : id, half, ax, half, who,
                     rmw ? ", and updates of the others are lost" : "");
    else
        kc_diag_note(d, "the address `%s` does not depend on `%s`, which this kernel splits its work by (its other "
                     "accesses index by it), and nothing chooses one %s; the value does depend on it, so the "
                     "location keeps whichever wrote last%s",
                     a->addr_text ? a->addr_text : "", id, cuda ? "block" : "program of that axis",
                     rmw ? ", and updates of the others are lost" : "");
    const char *by = half ? half : id;
    kc_diag_note(d, "make the address depend on `%s` (one slot per %s, reduced after), accumulate with `%s`, or "
                 "store from one %s (`%s`) when they all compute the same value",
                 by, who, cuda ? "atomicAdd" : "tl.atomic_add", who,
                 kc_arena_printf(ar, cuda ? "if (%s == 0)" : "if %s == 0:", by));
}

/* Is `guard` under a condition written as `text` (a second `if
 * (blockIdx.x == 0)` block picks the same programs)? */
static bool guard_has_text(const kc_kernel *k, uint32_t guard, const char *text)
{
    uint32_t hops = 0;
    for (uint32_t c = guard; text && c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent)
        if (!k->conds.data[c].negated && k->conds.data[c].text && !strcmp(k->conds.data[c].text, text))
            return true;
    return false;
}

/* A store to one fixed location made by the programs one condition picks
 * (`if (blockIdx.x == 0 && threadIdx.x == 0) aux_loss[0] = 0;`) while the
 * other programs of the same launch read or update that location: nothing
 * orders programs within a launch, so the others may run first. */
static void check_pick(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    for (uint32_t b = 0; b < k->barriers.len; b++)
        if (k->barriers.data[b].name &&
            (strstr(k->barriers.data[b].name, "grid") || strstr(k->barriers.data[b].name, "distributed")))
            return; /* a cooperative launch's grid.sync(), a distributed barrier: ordered */
    bool cuda = m->lang == KC_LANG_CUDA;
    const char *who = cuda ? "block" : "program";
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *s = &k->accesses.data[i];
        if (s->kind != KC_ACC_STORE || s->space != KC_MEM_GLOBAL || !s->offset || s->base == KC_NONE)
            continue;
        bool unknown = false;
        if (index_programs(s->offset, &unknown) || unknown)
            continue;
        uint32_t pick = kc_guard_program_pick(k, s->guard);
        if (pick == KC_NONE)
            continue;
        const kc_cond *pc = &k->conds.data[pick];
        if (single_program(m, k, pc->deps.programs ? pc->deps.programs : KC_PROG_ALL) || in_tied_branch(m, k, s, 3))
            continue;
        const kc_access *r = NULL;
        for (uint32_t j = 0; j < k->accesses.len && !r; j++) {
            const kc_access *o = &k->accesses.data[j];
            if (j != i && o->base == s->base && o->space == KC_MEM_GLOBAL && kc_index_equal(o->offset, s->offset) &&
                !kc_access_fields_apart(o, s) && !kc_guard_has(k, o->guard, pick) && !guard_has_text(k, o->guard, pc->text) &&
                kc_guard_program_pick(k, o->guard) == KC_NONE)
                r = o;
        }
        if (!r)
            continue;
        const char *name = s->base_name ? s->base_name : "?";
        const char *where = !s->addr_text ? name
                            : cuda && s->addr_text[0] != '*' ? kc_arena_printf(kc_rule_arena(ctx), "%s[%s]", name, s->addr_text)
                                          : s->addr_text;
        const char *verb = r->kind == KC_ACC_ATOMIC ? "update" : r->kind == KC_ACC_LOAD ? "read" : "store to";
        kc_diag *d = kc_report_access(ctx, k, s,
                               "only the %ss where `%s` holds store to `%s`, which the other %ss of the same launch "
                               "%s (line %u), and nothing orders the %ss of a launch: the %ss race",
                               who, pc->text ? pc->text : "?", where, who, verb,
                               kc_access_point(r).line, who, who);
        kc_diag_note(d, "%ss of one launch run in no defined order%s, so %s",
                     who, cuda ? " and `__syncthreads()` orders the threads of one block only" : "",
                     r->kind == KC_ACC_ATOMIC ? "updates made before this store are wiped out by it"
                     : r->kind == KC_ACC_LOAD ? "a read may come before this store and see the previous launch's value"
                                              : "the location keeps whichever store comes last");
        int64_t first;
        bool block0 = false;
        for (uint32_t p = 0; p < pc->npreds && !block0; p++)
            block0 = pc->preds[p].op == KC_CMP_EQ && kc_index_is_const(pc->preds[p].rhs, &first) && first == 0 &&
                     (kc_index_deps(pc->preds[p].lhs).flags & KC_AF_PROGRAM);
        if (block0)
            kc_diag_note(d, "GPUs start %s 0 first in practice, so this may not show on an idle GPU (on an H200, 0 of "
                         "1,500 launches of this shape were wrong, and all were when the initialiser ran after the "
                         "first wave); CUDA does not promise that order, and %s 0 can run late when the launch shares "
                         "the GPU",
                         who, who);
        kc_diag_note(d, "%s%s", cuda ? "set the location before the launch (`cudaMemsetAsync`, or a kernel of its own "
                                       "launched first)"
                                     : "set the location before the launch (allocate it with `torch.zeros`, or "
                                       "zero it in the launcher)",
                     r->kind != KC_ACC_LOAD ? ""
                     : cuda                 ? ", or compute the value in every block instead of reading it"
                                            : ", or compute the value in every program instead of reading it");
    }
}

/* Every program along a whole axis stores one value, computed from
 * memory, to the same addresses (flash-linear-attention 5659576e,
 * 2cec2a33: the `z` and `lse` of value-split attention): redundant stores
 * that race, harmless only while every program computes the same bits. */
static void report_same_value(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx, const kc_access *a,
                              uint8_t axes)
{
    unsigned ax = first_axis(axes);
    if (single_program(m, k, KC_PROG_AXIS(ax)) || guarded_single(m, k, a, ax) || in_tied_branch(m, k, a, ax) ||
        data_picked(k, a))
        return;
    kc_arena *ar = kc_rule_arena(ctx);
    const char *id = kc_arena_printf(ar, "tl.program_id(%u)", ax);
    kc_diag *d = kc_report_access(ctx, k, a,
                           "every program along grid axis %u stores the same value to the same addresses of `%s`: "
                           "neither the address `%s` nor the value depends on `%s`",
                           ax, a->base_name ? a->base_name : "?", a->addr_text ? a->addr_text : "", id);
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "the programs of that axis split the kernel's other work (its other accesses index by `%s`), so "
                 "this store repeats once per program and the copies race; the result holds only while every "
                 "program computes the same bits (flash-linear-attention fixed this twice, 5659576e and 2cec2a33)",
                 id);
    kc_diag_note(d, "store from one program: `if %s == 0:`", id);
}

/* Does the store come after a spin wait on an atomic (`while
 * tl.atomic_add(lock, 0, sem="acquire") < pid: pass`, `while
 * (atomicCAS(lock, 0, 1) != 0);`): a loop whose condition is an atomic
 * access, which the programs leave in an order of their own making? Then
 * the programs are not unordered, which the rule's premise needs (what
 * order the lock gives is the kernel's business). */
static bool after_spin_wait(const kc_kernel *k, const kc_access *a)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *w = &k->accesses.data[i];
        if (w->kind != KC_ACC_ATOMIC || w->loop == KC_NONE || w->loop >= k->loops.len)
            continue;
        const kc_loop *lp = &k->loops.data[w->loop];
        if (lp->kind == KC_LOOP_WHILE && kc_span_inside(w->span, lp->range_span) &&
            (a->span.line > lp->span.line || (a->span.line == lp->span.line && a->span.col > lp->span.col)))
            return true;
    }
    return false;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    uint8_t used = used_axes(k);
    /* Without a launch in the file kcheck cannot read the grid, so it cannot
     * tell how many programs an axis has (a kernel written for a grid one
     * program wide along it is fine; the launches other files make are read
     * for their arguments, not their grids). */
    if (k->is_device_function || !launched_in_file(m, k))
        return;
    check_pick(m, k, ctx);
    if (!used)
        return;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->kind != KC_ACC_STORE || a->space != KC_MEM_GLOBAL || (!a->offset && !a->block_ptr) ||
            a->base == KC_NONE)
            continue;
        bool unknown = false;
        uint8_t addr = store_pins(k, a, &unknown);
        if (unknown)
            continue;
        uint8_t free_axes = (uint8_t)(used & ~addr);
        uint8_t racing = (uint8_t)(free_axes & a->value_deps.programs);
        if (!racing) {
            /* the same value, computed from memory, from every program of an
             * axis: a note (a constant flag `tl.store(done + i, 1)` is not) */
            uint8_t whole = 0;
            for (unsigned x = 0; x < 3; x++)
                if ((free_axes & KC_PROG_AXIS(x)) == KC_PROG_AXIS(x))
                    whole |= KC_PROG_AXIS(x);
            if (m->lang == KC_LANG_TRITON && whole && (a->value_deps.flags & KC_AF_DATA))
                report_same_value(m, k, ctx, a, whole);
            continue;
        }
        if (single_program(m, k, racing))
            continue;
        unsigned ax = first_axis(racing);
        if (guarded_single(m, k, a, ax) || in_tied_branch(m, k, a, ax) || atomic_in_other_arm(k, a) ||
            after_spin_wait(k, a))
            continue;
        /* a split whose divisor the launches size (`tl.cdiv(K, BK)`) is
         * judged only where every launch shows its arguments */
        if ((racing & KC_PROG_AXIS(ax)) != KC_PROG_AXIS(ax) && args_hidden(m, k))
            continue;
        report_race(m, k, ctx, i, racing);
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
