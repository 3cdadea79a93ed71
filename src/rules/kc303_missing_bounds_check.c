/* KC303 missing-bounds-check: a tiled index (program id times the tile
 * size plus the lane: `pid * BLOCK + tl.arange(0, BLOCK)`, `blockIdx.x *
 * blockDim.x + threadIdx.x`, or a loop stepping by the tile) used in an
 * address with no mask or guard against the size.
 *
 * Reads: kc_access.offset, .bounds_checked (the front end sets it when the
 * mask or guard compares the index with a bound), .mask_preds, .masked,
 * .guard/kc_cond (compile-time conditions), kc_kernel.compares (bounds the
 * kernel computed), kc_symbol facts and multiple_of (sizes asserted to be
 * multiples of the tile), kc_launch.grid_text. */
#include "rule_util.h"

#include <inttypes.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char doc[] =
    "## What it does\n"
    "Flags a global load or store whose index is tiled across programs (blocks)\n"
    "and lanes, `pid * BLOCK + tl.arange(0, BLOCK)` or `blockIdx.x * blockDim.x +\n"
    "threadIdx.x` (or a loop `for off in range(0, N, BLOCK)` plus `tl.arange`), when\n"
    "no mask, `boundary_check` or guard compares that index with a bound while\n"
    "the kernel takes a size argument. It also flags a mask that bounds the other\n"
    "axes of a 2-D tile but not the tiled one, and names a bound the kernel\n"
    "computed but did not pass (`mask = offs < n` followed by an unmasked store).\n"
    "A program id reduced modulo a rounded-up tile count (`i_k = pid % NK` with\n"
    "`NK = tl.cdiv(K, BK)`) steps over K's tiles, and the size named is K; each\n"
    "tile of a 2-D offset is judged. In Triton it also flags an unmasked access\n"
    "whose lanes `tl.arange(0, BK)` form one tile that every launch makes at least\n"
    "as large as a size (`BK = triton.next_power_of_2(K)`): the lanes from K on\n"
    "lie past it whenever K is not a power of two.\n"
    "\n"
    "It stays quiet when the size is asserted to be a multiple of the tile\n"
    "(`tl.static_assert(N % BLOCK == 0)`, `tl.assume`, an `assert`, or in the\n"
    "function that launches it before every launch: `assert T % 64 == 0`, `if n %\n"
    "BLOCK: raise ...`), when the launch grid visibly covers the size exactly (`n\n"
    "// BLOCK` programs; per axis, through variables: every launch counting the\n"
    "tile's axis by floor division), when the kernel returns early for whole tiles\n"
    "past a bound (`if pid_m * BLOCK_M >= num_tokens_post_padded: return`: it\n"
    "presumes a count padded to the tile), when the tile runs along rows whose\n"
    "length the launch rounds up to a multiple of it (`Lse + off_hb *\n"
    "seqlen_q_rounded + offs_m`, `seqlen_q_rounded = math.ceil(seqlen_q / 128) *\n"
    "128`: the last tile ends where its padded row does), or by the stride of a\n"
    "dimension the launching code allocates padded past the rounded-up grid\n"
    "(`tmp.stride(2)` of `torch.empty((B, H, L + 256))` with a grid of\n"
    "`triton.cdiv(L, 128)` and a tile of 128), inside a branch specialized on a\n"
    "compile-time flag (`if EVEN_N:`), and when the kernel has no size argument\n"
    "at all, unless every launch rounds the tile's axis up (`cdiv(x.numel(), B)`\n"
    "programs: the last runs past `x`; a note where the extent divided is not\n"
    "an element count, which such a kernel may presume a multiple of the\n"
    "tile). In Triton, a tile index that a program id picks is a note where\n"
    "the kernel also reads or writes through a block pointer whose block the\n"
    "same program id picks and that has no `boundary_check`: the kernel\n"
    "presumes whole tiles along that axis (its block access would run past the\n"
    "end too), and the note says both need bounds where the size may not be a\n"
    "multiple. The size named is the one the launches divide for the tile's axis\n"
    "(`N_CTX` for `triton.cdiv(T, BLOCK_M)` passed as `N_CTX=T`), else one named\n"
    "after the tile (`M` for `BLOCK_M`) or a count-like argument that bounds\n"
    "nothing; where none is known, the message says \"the end\". A CUDA kernel is reported only when a\n"
    "launch in the same file rounds its grid up (`(n + 255) / 256`): CUDA code\n"
    "bounds its threads in many ways kcheck does not follow (stage widths,\n"
    "launches that cover the data exactly, flags, preconditions). A rounded-up\n"
    "division of a constant size that the block divides (`(65536 - 1) / 32 + 1`,\n"
    "through the launching function's locals) covers the size exactly and is no\n"
    "such launch, and neither is `(size_t)(ceil((float)n) / 256.f)`, the ceiling of\n"
    "the size alone, truncated: whole blocks only. A guard whose bound kcheck\n"
    "cannot read (`if (j < _PB_M)`, a macro from a header it did not find) is\n"
    "a guard: the index is bounded, by what it cannot tell.\n"
    "\n"
    "## Why is this bad?\n"
    "The grid is rounded up (`triton.cdiv(n, BLOCK)`, `(n + 255) / 256`), so the\n"
    "last tile runs past the end whenever the size is not a multiple of the tile:\n"
    "an unmasked load reads past the buffer (garbage, or an illegal address), an\n"
    "unmasked store writes into the next row or the next allocation. Tests with\n"
    "tile-aligned sizes never see it.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "mask = offs < n\n"
    "x = tl.load(x_ptr + offs, mask=mask)\n"
    "tl.store(y_ptr + offs, x * 2)          # mask computed, not passed\n"
    "```\n"
    "```cuda\n"
    "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "y[i] = a * x[i] + y[i];               // no `if (i < n)`\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "tl.store(y_ptr + offs, x * 2, mask=mask)\n"
    "```\n"
    "```cuda\n"
    "if (i < n) y[i] = a * x[i] + y[i];\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Pass the bound as the mask (`mask=offs < n`, with `other=` for loads whose\n"
    "padding is used), guard the access (`if (i < n)`), or assert that the size is\n"
    "a multiple of the tile where that is a real precondition. When another access\n"
    "with the same index is masked, the fix-it passes the same mask.\n"
    "\n"
    "## References\n"
    "- Dao-AILab/flash-attention#2789 (store without its computed mask), PR #2790.\n"
    "- karpathy/llm.c#794.\n";

/* ---- tiles ---- */

/* Two Triton aranges of the same range are the same lanes. */
static bool lane_equiv(const kc_kernel *k, const kc_atom *a, const kc_atom *b)
{
    if (a->kind != KC_ATOM_LANE || b->kind != KC_ATOM_LANE)
        return false;
    if (a->id == b->id)
        return true;
    if (a->id >= k->aranges.len || b->id >= k->aranges.len)
        return false;
    const kc_arange *x = &k->aranges.data[a->id], *y = &k->aranges.data[b->id];
    bool same_len = (x->len.value >= 0 && x->len.value == y->len.value) ||
                    (x->len.symbol != KC_NONE && x->len.symbol == y->len.symbol);
    return same_len && x->start == y->start;
}

/* Factors of m other than the one at `skip` (and other than the atom
 * `also`, once, when given) equal those of `want` (other than `wskip`)? */
static bool rest_equal(const kc_mono *m, int skip, const kc_atom *also, const kc_mono *want, int wskip)
{
    kc_atom a[KC_MONO_MAX_FACTORS], b[KC_MONO_MAX_FACTORS];
    unsigned na = 0, nb = 0;
    bool used_also = also == NULL;
    for (unsigned i = 0; i < m->nfac; i++) {
        if ((int)i == skip)
            continue;
        if (!used_also && kc_atom_same(&m->fac[i], also)) {
            used_also = true;
            continue;
        }
        a[na++] = m->fac[i];
    }
    if (!used_also)
        return false;
    for (unsigned i = 0; i < want->nfac; i++)
        if ((int)i != wskip)
            b[nb++] = want->fac[i];
    if (na != nb)
        return false;
    bool used[KC_MONO_MAX_FACTORS] = {false};
    for (unsigned i = 0; i < na; i++) {
        bool f = false;
        for (unsigned j = 0; j < nb && !f; j++)
            if (!used[j] && kc_atom_same(&a[i], &b[j]))
                used[j] = f = true;
        if (!f)
            return false;
    }
    return true;
}

typedef struct tile {
    const kc_atom *lane;    /* the lane factor */
    const kc_atom *step;    /* the program/loop factor */
    const kc_mono *lane_mono;
    int64_t extent;         /* tile extent when constant, else -1 */
    uint32_t extent_symbol; /* symbolic extent, or KC_NONE */
    bool by_loop;           /* a loop steps over the tiles */
    bool stepped;           /* the loop variable itself steps by the extent (off + arange) */
} tile;

/* Is the expression text a remainder at its top level (`i_bh % H`,
 * `(a + b) % n`), rather than a sum with one inside (`group_id * GROUP_M +
 * (pid % group_size)`)? */
static bool top_level_remainder(const char *t)
{
    int depth = 0;
    bool rem = false;
    for (const char *p = t; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth > 0)
            depth--;
        else if (depth == 0 && (*p == '+' || (*p == '-' && p > t)))
            return false;
        else if (depth == 0 && *p == '%')
            rem = true;
    }
    return rem;
}

/* A program or loop index that steps over tiles. An index reduced modulo
 * something (`i_bh % H`) ranges exactly over its modulus: not a tile count
 * rounded up. A grouped ordering (`pid_m = group_id * GROUP_M + (pid %
 * group_size)`) still counts tiles. */
static bool step_atom_k(const kc_kernel *k, const kc_atom *a)
{
    if (a->kind == KC_ATOM_PROGRAM || a->kind == KC_ATOM_LOOP)
        return true;
    if (a->kind != KC_ATOM_OPAQUE || !(a->flags & KC_AF_PROGRAM) || (a->flags & KC_AF_THREAD))
        return false;
    /* (`pid % NK` with `NK = tl.cdiv(K, BK)` ranges over tiles rounded up) */
    return !k || (a->id < k->opaques.len && k->opaques.data[a->id].text &&
                  (k->opaques.data[a->id].mod_tiles || !top_level_remainder(k->opaques.data[a->id].text)));
}

static bool step_atom(const kc_atom *a) { return step_atom_k(NULL, a); }

/* Finds a tile `F * c * B + c * L` in the offset. */
static bool find_tile(const kc_kernel *k, const kc_index *off, tile *t, unsigned *from)
{
    t->stepped = false;
    for (unsigned i = *from; i < off->nmono; i++) {
        *from = i + 1;
        const kc_mono *lm = &off->mono[i];
        int li = -1;
        for (unsigned f = 0; f < lm->nfac; f++)
            if (lm->fac[f].kind == KC_ATOM_LANE)
                li = li < 0 ? (int)f : -2;
        if (li < 0)
            continue;
        const kc_atom *lane = &lm->fac[li];
        /* The lane's extent. */
        int64_t B = -1;
        uint32_t Bsym = KC_NONE;
        kc_atom bdim = {0};
        bool threads = off->space == KC_SPACE_THREADS;
        if (threads) {
            bdim = kc_atom_make(KC_ATOM_BLOCK_DIM, lane->id, (kc_deps){0});
        } else if (lane->id < k->aranges.len) {
            B = k->aranges.data[lane->id].len.value;
            Bsym = k->aranges.data[lane->id].len.symbol;
            /* tl.arange(0, D) over a whole dimension (D a problem size):
             * the program index picks a row, not a tile */
            if (Bsym != KC_NONE && Bsym < k->symbols.len &&
                (k->symbols.data[Bsym].facts & (KC_SF_PROBLEM_SIZE | KC_SF_SHAPE_ARG)))
                continue;
        } else {
            continue;
        }
        for (unsigned j = 0; j < off->nmono; j++) {
            const kc_mono *pm = &off->mono[j];
            if (j == i)
                continue;
            for (unsigned f = 0; f < pm->nfac; f++) {
                const kc_atom *F = &pm->fac[f];
                if (!step_atom_k(k, F))
                    continue;
                bool ok = false, by_loop = false;
                if (threads) {
                    ok = pm->coef == lm->coef && rest_equal(pm, (int)f, &bdim, lm, li);
                    /* a hard-coded block size: blockIdx.x * 256 + threadIdx.x */
                    if (!ok && lm->coef != 0 && pm->coef % lm->coef == 0 && pm->coef / lm->coef >= 32 &&
                        rest_equal(pm, (int)f, NULL, lm, li)) {
                        ok = true;
                        B = pm->coef / lm->coef;
                    }
                } else {
                    if (B > 0 && pm->coef == lm->coef * B && rest_equal(pm, (int)f, NULL, lm, li))
                        ok = true;
                    kc_atom bs = kc_atom_make(KC_ATOM_SYMBOL, Bsym, (kc_deps){0});
                    if (!ok && Bsym != KC_NONE && pm->coef == lm->coef && rest_equal(pm, (int)f, &bs, lm, li))
                        ok = true;
                }
                if (!ok && F->kind == KC_ATOM_LOOP && F->id < k->loops.len && pm->coef == lm->coef &&
                    rest_equal(pm, (int)f, NULL, lm, li)) {
                    /* off + arange(0, B) with the loop stepping by B */
                    const kc_loop *lp = &k->loops.data[F->id];
                    int64_t st;
                    if (lp->step && kc_index_is_const(lp->step, &st) && st > 1 && (st == B || B < 0)) {
                        ok = by_loop = t->stepped = true;
                        B = st;
                    } else if (Bsym != KC_NONE && kc_index_symbol(lp->step) == Bsym) {
                        ok = by_loop = t->stepped = true;
                    }
                }
                if (!ok)
                    continue;
                by_loop |= F->kind == KC_ATOM_LOOP;
                t->lane = lane;
                t->step = F;
                t->lane_mono = lm;
                t->extent = B;
                t->extent_symbol = threads ? KC_NONE : Bsym;
                t->by_loop = by_loop;
                return true;
            }
        }
    }
    return false;
}

/* ---- bounds ---- */

static bool lane_side(const kc_kernel *k, const kc_index *x, const tile *t)
{
    if (!x)
        return false;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (lane_equiv(k, &x->mono[i].fac[f], t->lane))
                return true;
    return false;
}

/* Another program/loop index than the tile's own (a different tile). */
static bool foreign_step(const kc_index *x, const tile *t, bool *own)
{
    bool f = false;
    if (!x)
        return false;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned j = 0; j < x->mono[i].nfac; j++) {
            const kc_atom *a = &x->mono[i].fac[j];
            if (!step_atom(a))
                continue;
            if (kc_atom_same(a, t->step))
                *own = true;
            else
                f = true;
        }
    return f;
}

/* Does `x` name the index of a loop that starts at the tile's own program
 * index and counts up (`for k in range(k_start, k_end)`, the tile `k_start
 * * BK + tl.arange(0, BK)`)? On pass k a pointer that starts at that tile
 * and moves by BK a pass is at `k * BK + lanes`, one that stays is where
 * pass k_start was: a mask `lanes < n - k * BK` bounds either. */
static bool loop_from_step(const kc_kernel *k, const kc_index *x, const tile *t)
{
    for (unsigned i = 0; x && i < x->nmono; i++)
        for (unsigned j = 0; j < x->mono[i].nfac; j++) {
            const kc_atom *a = &x->mono[i].fac[j];
            if (a->kind != KC_ATOM_LOOP || a->id >= k->loops.len)
                continue;
            const kc_loop *lp = &k->loops.data[a->id];
            int64_t st = 0;
            if (!lp->start || lp->start->nmono != 1 || lp->start->mono[0].coef != 1 ||
                lp->start->mono[0].nfac != 1 || !kc_atom_same(&lp->start->mono[0].fac[0], t->step) ||
                (lp->step && (!kc_index_is_const(lp->step, &st) || st <= 0)))
                continue;
            return true;
        }
    return false;
}

/* A comparison that bounds the tile's index: one side has the tile's
 * lanes and the tile's own program/loop index appears in it (`offs < n`,
 * `tl.arange(0, B) < n - pid * B`); `cols < n_cols` bounds other lanes. */
static bool pred_bounds(const kc_kernel *k, const kc_pred *p, const tile *t)
{
    if (p->op == KC_CMP_EQ || p->op == KC_CMP_NE)
        return false;
    bool l = lane_side(k, p->lhs, t), r = lane_side(k, p->rhs, t);
    if (l == r)
        return false;
    bool own = false; /* set by either side */
    (void)foreign_step(p->lhs, t, &own);
    (void)foreign_step(p->rhs, t, &own);
    return own || loop_from_step(k, p->lhs, t) || loop_from_step(k, p->rhs, t);
}

static bool symbol_multiple(const kc_kernel *k, const kc_symbol *s, const tile *t)
{
    if (s->multiple_of > 0 && t->extent > 0 && s->multiple_of % t->extent == 0)
        return true;
    if (s->multiple_of_symbol != KC_NONE && s->multiple_of_symbol == t->extent_symbol)
        return true;
    if (s->multiple_of_symbol != KC_NONE && t->extent > 0 && s->multiple_of_symbol < k->symbols.len) {
        const kc_symbol *b = &k->symbols.data[s->multiple_of_symbol];
        if (b->has_value && b->value > 0 && b->value % t->extent == 0)
            return true;
    }
    if (s->nvalues > 0 && t->extent > 0) {
        bool all = true;
        for (uint32_t i = 0; i < s->nvalues; i++)
            all &= s->values[i] % t->extent == 0;
        return all;
    }
    /* every size a launch passes against every tile it passes (pytest's
     * parametrize crosses them): N in {512, 1024}, BLOCK_N in {32, 64} */
    if (s->nvalues > 0 && t->extent <= 0 && t->extent_symbol != KC_NONE && t->extent_symbol < k->symbols.len) {
        const kc_symbol *b = &k->symbols.data[t->extent_symbol];
        bool all = b->nvalues > 0;
        for (uint32_t i = 0; i < b->nvalues && all; i++)
            for (uint32_t j = 0; j < s->nvalues && all; j++)
                all = b->values[i] > 0 && s->values[j] % b->values[i] == 0;
        if (all)
            return true;
    }
    /* `assert Tq % 64 == 0` with every config's BLOCK_M = 64 */
    if (s->multiple_of > 0 && t->extent <= 0 && t->extent_symbol != KC_NONE && t->extent_symbol < k->symbols.len) {
        const kc_symbol *b = &k->symbols.data[t->extent_symbol];
        bool all = b->nvalues > 0;
        for (uint32_t i = 0; i < b->nvalues; i++)
            all &= b->values[i] > 0 && s->multiple_of % b->values[i] == 0;
        return all;
    }
    return false;
}

static bool is_size(const kc_symbol *s)
{
    return (s->kind == KC_SYM_PARAM || s->kind == KC_SYM_CONSTEXPR) && !(s->facts & KC_SF_POINTER) &&
           (s->facts & (KC_SF_PROBLEM_SIZE | KC_SF_SHAPE_ARG));
}

static bool index_has_symbol(const kc_index *x, uint32_t sym)
{
    if (!x)
        return false;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (x->mono[i].fac[f].kind == KC_ATOM_SYMBOL && x->mono[i].fac[f].id == sym)
                return true;
    return false;
}

/* Names that say "element count": n, N, numel, n_elements, size, length,
 * num_tokens, seq_len, ... */
static bool size_like_name(const char *n)
{
    size_t l = strlen(n);
    if (l == 1)
        return n[0] == 'n' || n[0] == 'N';
    static const char *const parts[] = {"numel", "n_elements", "size", "length", "len", "count", NULL};
    for (unsigned i = 0; parts[i]; i++)
        if (strstr(n, parts[i]))
            return !strstr(n, "stride") && !strstr(n, "BLOCK") && !strstr(n, "block");
    return (!strncmp(n, "num_", 4) || !strncmp(n, "n_", 2)) && !strstr(n, "stride");
}

static bool param_is_integer(const kc_kernel *k, const kc_symbol *s)
{
    if (s->param == KC_NONE || s->param >= k->params.len)
        return false;
    const char *t = k->params.data[s->param].type;
    if (!t || !*t)
        return true; /* untyped (Python): not known to be a float */
    return strstr(t, "int") || strstr(t, "size_t") || strstr(t, "long") || strstr(t, "short");
}

/* A size argument (the launch passes x.numel() / x.shape[0], or an integer
 * named like a count) that bounds nothing in the kernel: the bound the
 * tiles were meant to respect. */
static bool unused_size(const kc_kernel *k, uint32_t sym)
{
    const kc_symbol *s = &k->symbols.data[sym];
    if (s->kind != KC_SYM_PARAM || (s->facts & KC_SF_POINTER) || !param_is_integer(k, s))
        return false;
    if (!(s->facts & KC_SF_SHAPE_ARG) && !size_like_name(s->name))
        return false;
    for (uint32_t i = 0; i < k->compares.len; i++)
        if (index_has_symbol(k->compares.data[i].lhs, sym) || index_has_symbol(k->compares.data[i].rhs, sym))
            return false;
    for (uint32_t i = 0; i < k->loops.len; i++)
        if (index_has_symbol(k->loops.data[i].end, sym) || index_has_symbol(k->loops.data[i].start, sym))
            return false;
    for (uint32_t i = 0; i < k->accesses.len; i++)
        if (index_has_symbol(k->accesses.data[i].offset, sym))
            return false;
    return true;
}

/* An index side whose lanes went through something opaque (a merge of
 * branches, a call): what it bounds is not known. */
static bool opaque_lanes(const kc_index *x)
{
    if (!x)
        return true;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (x->mono[i].fac[f].kind == KC_ATOM_OPAQUE && (x->mono[i].fac[f].flags & KC_AF_THREAD))
                return true;
    return false;
}

static bool in_specialized_branch(const kc_kernel *k, uint32_t cond)
{
    for (uint32_t g = 0; cond != KC_NONE && cond < k->conds.len && g < 10000; g++) {
        const kc_cond *c = &k->conds.data[cond];
        if (!c->deps.axes && !c->deps.flags && !c->deps.loops)
            return true;
        cond = c->parent;
    }
    return false;
}

static const char *what_of(const kc_access *a)
{
    return a->kind == KC_ACC_STORE ? "store to" : a->kind == KC_ACC_ATOMIC ? "atomic on" : "load from";
}


/* How the kernel's launches size its grid: a grid that rounds up
 * (triton.cdiv, (n + B - 1) // B) runs a partial last tile; one written
 * without rounding (n // B, (N,)) covers the size exactly. A grid named by
 * a variable says nothing. */
static void launch_grids(const kc_model *m, const kc_kernel *k, const char **cdiv_grid, bool *exact_grid)
{
    *cdiv_grid = NULL;
    *exact_grid = false;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (!kc_launch_may_run(l, k) || !l->grid_text)
            continue;
        bool literal = strchr(l->grid_text, '(') || strchr(l->grid_text, '[');
        /* a grid named by a variable, read through it (`grid = (B, H)`):
         * its axes as the front end resolved them */
        bool resolved = false, rounds = false, exact = false;
        for (unsigned ax = 0; ax < 3; ax++) {
            const kc_grid_axis *g = &l->grid[ax];
            if (!g->text)
                continue;
            resolved = true;
            /* a rounded-up division that the front end shows exact (a
             * constant size the block divides) covers the size */
            exact |= g->cover == KC_COVER_FLOOR && l->in_host_code;
            if (g->cover == KC_COVER_FLOOR && l->in_host_code)
                continue;
            rounds |= g->cover == KC_COVER_ROUNDS_UP || kc_text_rounds_up(g->text);
        }
        bool text_rounds = !exact && kc_text_rounds_up(l->grid_text);
        if (text_rounds || rounds)
            *cdiv_grid = l->grid_text;
        else if (literal || resolved)
            *exact_grid = true;
    }
}

/* An access whose guard or mask is known: does the mask leave the tile's
 * axis unbounded (it bounds only other axes)? False also when it cannot
 * tell (a predicate kcheck does not follow). */
static bool mask_misses_tile(const kc_kernel *k, const kc_access *a, const tile *t)
{
    if (!a->masked || a->nmask_preds == 0)
        return false;
    bool all_known = true, covers = false;
    for (uint32_t p = 0; p < a->nmask_preds; p++) {
        const kc_pred *pr = &a->mask_preds[p];
        if (!pr->lhs || !pr->rhs || pr->op == KC_CMP_EQ || pr->op == KC_CMP_NE || opaque_lanes(pr->lhs) ||
            opaque_lanes(pr->rhs))
            all_known = false;
        else if (pred_bounds(k, pr, t))
            covers = true;
        else {
            /* the row index itself is bounded (rows of full width) */
            bool own = false;
            foreign_step(pr->lhs, t, &own);
            foreign_step(pr->rhs, t, &own);
            covers |= own;
        }
    }
    return !covers && all_known;
}

/* The symbol `N` of a `cdiv(N, B)` text, or KC_NONE. */
static uint32_t cdiv_numerator(const kc_kernel *k, const char *txt)
{
    const char *p = strstr(txt, "cdiv(");
    if (!p)
        return KC_NONE;
    p += 5;
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, ", )");
    if (p[n] != ',' && p[n] != ' ')
        return KC_NONE;
    for (uint32_t s = 0; s < k->symbols.len; s++)
        if (strlen(k->symbols.data[s].name) == n && !strncmp(k->symbols.data[s].name, p, n) &&
            k->symbols.data[s].kind != KC_SYM_LOCAL)
            return s;
    return KC_NONE;
}

/* A tile stepped by a loop: does the loop run to a run-time size that is
 * not known to be a multiple of the tile? The loop end must be a run-time
 * size itself (range(0, N, BLOCK)) or a rounded-up tile count
 * (range(0, tl.cdiv(K, BLOCK_K))): an end like `num_steps - 1` or
 * `prev_multiple_of(K, BLOCK)` usually leaves the tail to separate code.
 * *size: the size parameter that ends it, or KC_NONE. */
static bool loop_reaches_size(const kc_kernel *k, const tile *t, uint32_t *size)
{
    *size = KC_NONE;
    const kc_loop *lp = &k->loops.data[t->step->id];
    if (!lp->end)
        return false;
    bool runtime_end = false, multiple = false;
    if (lp->end->nmono == 1 && lp->end->mono[0].nfac == 1 && lp->end->mono[0].coef == 1) {
        const kc_atom *x = &lp->end->mono[0].fac[0];
        if (x->kind == KC_ATOM_SYMBOL && x->id < k->symbols.len) {
            const kc_symbol *s = &k->symbols.data[x->id];
            runtime_end = s->kind == KC_SYM_PARAM;
            multiple = symbol_multiple(k, s, t);
            if (runtime_end)
                *size = x->id;
        } else if (x->kind == KC_ATOM_OPAQUE && x->id < k->opaques.len && k->opaques.data[x->id].text &&
                   strstr(k->opaques.data[x->id].text, "cdiv(") && !t->stepped) {
            /* a count of tiles of this extent: cdiv(K, BLOCK_K) for k * BLOCK_K + arange */
            const char *txt = k->opaques.data[x->id].text;
            char num[32];
            snprintf(num, sizeof num, "%" PRId64, t->extent);
            runtime_end = (t->extent_symbol != KC_NONE && t->extent_symbol < k->symbols.len &&
                           strstr(txt, k->symbols.data[t->extent_symbol].name)) ||
                          (t->extent > 0 && strstr(txt, num));
            if (runtime_end)
                *size = cdiv_numerator(k, txt);
            multiple = runtime_end && *size != KC_NONE && symbol_multiple(k, &k->symbols.data[*size], t);
        }
    }
    return runtime_end && !multiple;
}

/* The size the tile's extent is named after, by the convention kernels
 * follow (`BLOCK_M` / `BLOCK_SIZE_M` / `block_m` tiles `M` / `m` /
 * `size_m`), or KC_NONE. */
static uint32_t paired_size(const kc_kernel *k, const tile *t)
{
    if (t->extent_symbol == KC_NONE || t->extent_symbol >= k->symbols.len)
        return KC_NONE;
    const char *e = k->symbols.data[t->extent_symbol].name;
    static const char *const prefixes[] = {"BLOCK_SIZE_", "block_size_", "BLOCK_", "block_", "BLOCK", "block", NULL};
    const char *axis = NULL;
    for (unsigned i = 0; prefixes[i] && !axis; i++)
        if (!strncmp(e, prefixes[i], strlen(prefixes[i])) && e[strlen(prefixes[i])])
            axis = e + strlen(prefixes[i]);
    if (!axis || strlen(axis) > 8)
        return KC_NONE;
    for (uint32_t sym = 0; sym < k->symbols.len; sym++) {
        const kc_symbol *s = &k->symbols.data[sym];
        if (sym == t->extent_symbol || s->kind != KC_SYM_PARAM || (s->facts & KC_SF_POINTER) || !param_is_integer(k, s))
            continue;
        const char *n = s->name;
        if (!strcasecmp(n, axis) ||
            ((!strncasecmp(n, "size_", 5) || !strncasecmp(n, "num_", 4)) && !strcasecmp(strchr(n, '_') + 1, axis)))
            return sym;
    }
    return KC_NONE;
}

/* One access whose tiled index may run past a size. */
typedef struct finding {
    const kc_access *a;
    uint32_t index;          /* of `a` among the kernel's accesses */
    tile t;
    bool uncovered_axis;     /* masked, but not along the tile's axis */
    uint32_t size;           /* the size symbol it runs past, or KC_NONE */
    const kc_pred *computed; /* a bound the kernel computed for this index */
    const kc_access *twin;   /* an access with the same index that is masked */
    bool size_unsure;        /* `size` ties the tile but is not known to be what it runs over */
    bool numel_extent;       /* every launch rounds the tile's axis up over a tensor's element count */
} finding;

/* An index with lanes of any arange or thread, or another tile's program
 * or loop index: not a size. */
static bool tiled_side(const kc_index *x, const tile *t)
{
    bool own = false;
    if (foreign_step(x, t, &own))
        return true;
    for (unsigned i = 0; x && i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind == KC_ATOM_LANE || (a->kind == KC_ATOM_OPAQUE && (a->flags & KC_AF_THREAD)))
                return true;
        }
    return false;
}

/* A bound the kernel computed for the tile's index against a size
 * (`offs < n`, `tl.arange(0, B) < n - pid * B`): the side without the
 * tile's lanes has no lanes and no other tile's index. A causal mask
 * `q_idx[:, None] >= k_idx[None, :]` compares two tiles, not a size. */
static bool size_bound(const kc_kernel *k, const kc_pred *p, const tile *t)
{
    if (!pred_bounds(k, p, t))
        return false;
    bool lanes_left = lane_side(k, p->lhs, t);
    bool upper = lanes_left ? (p->op == KC_CMP_LT || p->op == KC_CMP_LE) : (p->op == KC_CMP_GT || p->op == KC_CMP_GE);
    return upper && !tiled_side(lanes_left ? p->rhs : p->lhs, t);
}

/* Is the symbol the extent of a tile (a tl.arange length) rather than a
 * size the tiles cover? */
static bool tile_extent_symbol(const kc_kernel *k, uint32_t sym)
{
    for (uint32_t i = 0; i < k->aranges.len; i++)
        if (k->aranges.data[i].len.symbol == sym)
            return true;
    return false;
}

/* What ties the tile to a size: a bound the kernel computed for this
 * index, another access with the same index that is masked, the loop's
 * end, or a size argument that bounds nothing. False when nothing does. */
static bool tie_to_size(const kc_kernel *k, finding *f)
{
    const tile *t = &f->t;
    for (uint32_t p = 0; p < k->compares.len && !f->computed; p++)
        if (size_bound(k, &k->compares.data[p], t))
            f->computed = &k->compares.data[p];
    for (uint32_t j = 0; j < k->accesses.len && !f->twin; j++) {
        const kc_access *b = &k->accesses.data[j];
        if (j == f->index || !b->masked || !b->bounds_checked || !b->offset || !b->mask_text ||
            !kc_index_equal(b->offset, f->a->offset))
            continue;
        for (uint32_t p = 0; p < b->nmask_preds && !f->twin; p++)
            if (pred_bounds(k, &b->mask_preds[p], t))
                f->twin = b;
    }
    if (f->size == KC_NONE && f->computed) {
        for (uint32_t s = 0; s < k->symbols.len && f->size == KC_NONE; s++)
            if ((index_has_symbol(f->computed->lhs, s) || index_has_symbol(f->computed->rhs, s)) &&
                k->symbols.data[s].kind != KC_SYM_LOCAL && s != t->extent_symbol && !tile_extent_symbol(k, s))
                f->size = s;
    }
    bool other = !f->computed && !f->twin && !t->by_loop;
    if (f->size == KC_NONE && other) {
        for (uint32_t s = 0; s < k->symbols.len && f->size == KC_NONE; s++)
            if (unused_size(k, s))
                f->size = s;
        /* Some size bounds nothing, so the tile is unguarded; the one it
         * runs past is the size its extent is named after, when there is
         * one (`m` for `block_m`), not the first unused argument. */
        uint32_t named = f->size != KC_NONE ? paired_size(k, t) : (uint32_t)KC_NONE;
        uint32_t unused = 0;
        for (uint32_t s = 0; s < k->symbols.len; s++)
            unused += unused_size(k, s);
        if (named != KC_NONE)
            f->size = named;
        else /* which of them the tile covers is not known; a tensor extent
              * (`B`, `H`, `max_blks`) is as likely another axis's */
            f->size_unsure = unused > 1 || (f->size != KC_NONE && !size_like_name(k->symbols.data[f->size].name));
    }
    return !(f->size == KC_NONE && other);
}

/* Is the tile one element wide at every launch and autotune config
 * (`XBLOCK: tl.constexpr` = 1 in each)? Then `pid * 1 + arange(0, 1)`
 * visits one element per program, and a grid of cdiv(n, 1) = n programs
 * covers the size exactly: any size is a multiple of 1. */
static bool tile_of_one(const kc_kernel *k, const tile *t)
{
    if (t->extent == 1)
        return true;
    if (t->extent_symbol == KC_NONE || t->extent_symbol >= k->symbols.len)
        return false;
    const kc_symbol *s = &k->symbols.data[t->extent_symbol];
    bool all = s->nvalues > 0;
    for (uint32_t i = 0; i < s->nvalues; i++)
        all &= s->values[i] == 1;
    return all;
}

/* Is the size asserted to be a multiple of the tile? */
static bool asserted_multiple(const kc_kernel *k, const finding *f)
{
    /* the size it runs past is one every launch passes as a multiple
     * (`m = n = k = 64` with tiles of 32 in a test) */
    if (f->size != KC_NONE && !f->size_unsure && f->size < k->symbols.len &&
        k->symbols.data[f->size].nvalues > 0 && symbol_multiple(k, &k->symbols.data[f->size], &f->t))
        return true;
    for (uint32_t s = 0; s < k->symbols.len; s++)
        if (is_size(&k->symbols.data[s]) && symbol_multiple(k, &k->symbols.data[s], &f->t) &&
            (s == f->size || f->size == KC_NONE || f->size_unsure))
            return true;
    return false;
}

/* Does the kernel compare the tile's program index itself, without its
 * lanes, with a size (`if pid_m * BLOCK_M >= num_tokens_post_padded:
 * return`, `if pid >= num_tiles: return`)? It bounds whole tiles: it
 * presumes the size is a multiple of the tile (a padded count), which
 * kcheck cannot check. */
static bool tile_start_bound(const kc_kernel *k, const tile *t)
{
    for (uint32_t p = 0; p < k->compares.len; p++) {
        const kc_pred *pr = &k->compares.data[p];
        if (!pr->lhs || !pr->rhs || pr->op == KC_CMP_EQ || pr->op == KC_CMP_NE)
            continue;
        if (lane_side(k, pr->lhs, t) || lane_side(k, pr->rhs, t) || opaque_lanes(pr->lhs) || opaque_lanes(pr->rhs))
            continue;
        bool own_l = false, own_r = false;
        bool fl = foreign_step(pr->lhs, t, &own_l), fr = foreign_step(pr->rhs, t, &own_r);
        if ((own_l && !own_r && !fr) || (own_r && !own_l && !fl))
            return true;
    }
    return false;
}

/* Does the tile run along rows whose length is a multiple of the tile
 * (`TMP + off_hb * seqlen_q_rounded + offs_m`, the launch passing
 * `seqlen_q_rounded = math.ceil(seqlen_q / 128) * 128` for a tile of 128)?
 * Its last tile then ends where its padded row ends, inside the buffer. */
static bool padded_row(const kc_kernel *k, const finding *f)
{
    if (f->t.lane_mono->nfac != 1 || f->t.by_loop)
        return false; /* the lanes are not the unit-stride position in the row */
    const kc_index *off = f->a->offset;
    for (unsigned i = 0; i < off->nmono; i++) {
        const kc_mono *mo = &off->mono[i];
        bool lanes = false;
        uint32_t row = KC_NONE;
        for (unsigned j = 0; j < mo->nfac; j++) {
            const kc_atom *x = &mo->fac[j];
            if (x->kind == KC_ATOM_LANE || (x->flags & KC_AF_THREAD))
                lanes = true;
            else if (x->kind == KC_ATOM_SYMBOL && x->id < k->symbols.len &&
                     symbol_multiple(k, &k->symbols.data[x->id], &f->t))
                row = x->id;
        }
        if (!lanes && row != KC_NONE)
            return true;
    }
    return false;
}

/* Does the tile, along grid axis ax, step by a stride of a dimension every
 * launch allocates padded past what the rounded-up axis covers
 * (`offs_m * stride_tmp_s` with `tmp.stride(2)` of `torch.empty((B, H, L +
 * 256))` and a grid of `triton.cdiv(L, 128)`, a tile of 128)? The last
 * tile then ends inside the padding. */
static bool padded_stride(const kc_kernel *k, const finding *f, int ax)
{
    int64_t ext = f->t.extent;
    if (ax < 0 || ext <= 0)
        return false;
    const kc_mono *mo = f->t.lane_mono;
    for (unsigned j = 0; j < mo->nfac; j++) {
        const kc_atom *x = &mo->fac[j];
        if (x->kind != KC_ATOM_SYMBOL || x->id >= k->symbols.len)
            continue;
        const kc_symbol *s = &k->symbols.data[x->id];
        if ((s->padded_axes & (1u << ax)) && ext <= s->padded_extra + 1)
            return true;
    }
    return false;
}

/* The grid axis a program tile runs along, or -1 (a loop, or a program
 * index kcheck derived through something else). */
static int tile_axis(const tile *t)
{
    return !t->by_loop && t->step->kind == KC_ATOM_PROGRAM && t->step->id < 3 ? (int)t->step->id : -1;
}

/* Is `g` the grid's extent along `ax`: tl.num_programs(ax), or a parameter
 * that every launch of the kernel passes as that axis of its grid
 * (`N_BLOCK` of `grid = (M, N_BLOCK)`)? */
static bool grid_extent(const kc_model *m, const kc_kernel *k, const kc_index *g, int ax)
{
    if (!g || g->nmono != 1 || g->mono[0].coef != 1 || g->mono[0].nfac != 1)
        return false;
    const kc_atom *x = &g->mono[0].fac[0];
    if (x->kind == KC_ATOM_GRID_DIM)
        return x->id == (uint32_t)ax;
    if (x->kind != KC_ATOM_SYMBOL || x->id >= k->symbols.len || k->symbols.data[x->id].param >= k->params.len)
        return false;
    const kc_param *p = &k->params.data[k->symbols.data[x->id].param];
    unsigned seen = 0;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *l = &m->launches.data[i];
        if (!kc_launch_may_run(l, k))
            continue;
        const kc_launch_arg *arg = kc_launch_arg_for(k, l, p);
        if (!arg || !arg->text || !l->grid[ax].text || strcmp(arg->text, l->grid[ax].text))
            return false;
        seen++;
    }
    return seen > 0;
}

/* Does a condition the access runs under say that its program is not the
 * last along `ax` (`pid != N_BLOCK - 1`, `not is_last` with `is_last = pid
 * == N_BLOCK - 1`, `pid + 1 < tl.num_programs(1)`)? Every other program's
 * tile lies within the extent the grid rounds up: a branch for them needs
 * no mask (MagiAttention's range ops mask only the last block). */
static bool not_last_program(const kc_model *m, const kc_kernel *k, kc_arena *ar, uint32_t cond, int ax)
{
    kc_atom pa = kc_atom_make(KC_ATOM_PROGRAM, (uint32_t)ax, (kc_deps){0});
    for (uint32_t g = 0; cond != KC_NONE && cond < k->conds.len && g < 10000; g++) {
        const kc_cond *c = &k->conds.data[cond];
        for (uint32_t i = 0; !c->negated && i < c->npreds; i++) {
            const kc_pred *p = &c->preds[i];
            if ((p->op != KC_CMP_NE && p->op != KC_CMP_LT) || !p->lhs || !p->rhs)
                continue;
            int64_t one;
            const kc_index *lc = kc_index_coef_of(ar, p->lhs, KC_ATOM_PROGRAM, pa.id);
            const kc_index *rc = kc_index_coef_of(ar, p->rhs, KC_ATOM_PROGRAM, pa.id);
            if (!lc || !kc_index_is_const(lc, &one) || one != 1 || (rc && !(kc_index_is_const(rc, &one) && one == 0)))
                continue;
            /* extent = rhs - (lhs - pid) + 1 */
            const kc_index *pid = kc_index_atom(ar, pa, p->lhs->bits, p->lhs->space, NULL);
            const kc_index *rest = kc_index_sub(ar, p->lhs, pid);
            const kc_index *ext = kc_index_add(ar, kc_index_sub(ar, p->rhs, rest),
                                               kc_index_const(ar, 1, p->rhs->bits, p->rhs->space));
            if (grid_extent(m, k, ext, ax))
                return true;
        }
        cond = c->parent;
    }
    return false;
}

/* The fix: the twin's mask inserted before the call's closing
 * parenthesis, or the advice. */
static void add_fix(kc_rule_ctx *ctx, kc_diag *d, const finding *f, const char *ext)
{
    kc_arena *ar = kc_rule_arena(ctx);
    const kc_access *a = f->a, *twin = f->twin;
    if (twin && !f->uncovered_axis && a->masked == false) {
        const char *call = kc_rule_span_text(ctx, a->span);
        size_t n = strlen(call);
        if (n >= 2 && call[n - 1] == ')' && !strchr(twin->mask_text, '\n')) {
            size_t q = n - 1;
            while (q > 0 && (call[q - 1] == ' ' || call[q - 1] == '\n' || call[q - 1] == '\t'))
                q--;
            bool comma = q > 0 && call[q - 1] == ',';
            kc_span ins = {a->span.end_line, a->span.end_col - 1, a->span.end_line, a->span.end_col - 1};
            const char *txt = kc_arena_printf(ar, "%smask=%s", comma ? " " : ", ", twin->mask_text);
            kc_diag_fix(d,
                        kc_arena_printf(ar, "pass `mask=%s`, the mask of the %s on line %u with the same index",
                                        twin->mask_text, twin->kind == KC_ACC_LOAD ? "load" : "store",
                                        twin->span.line),
                        ins, txt);
        }
        return;
    }
    kc_diag_note(d, "fix: bound the index by the size (a mask `offs < n`%s, a guard `if (i < n)`), or assert "
                 "that the size is a multiple of %s",
                 a->kind == KC_ACC_LOAD ? " with `other=` for padding that is used" : "", ext);
}

/* The extent of the tile as the diagnostic names it. */
static void tile_extent(const kc_kernel *k, const finding *f, kc_strbuf *ext)
{
    const tile *t = &f->t;
    if (t->extent_symbol != KC_NONE && t->extent_symbol < k->symbols.len)
        kc_sb_append(ext, k->symbols.data[t->extent_symbol].name);
    else if (t->extent > 0)
        kc_sb_appendf(ext, "%" PRId64, t->extent);
    else if (t->lane->kind == KC_ATOM_LANE && f->a->offset->space == KC_SPACE_THREADS)
        kc_sb_appendf(ext, "blockDim.%c", "xyz"[t->lane->id < 3 ? t->lane->id : 0]);
    else
        kc_sb_append(ext, "the tile");
}

/* The sizes the launches pass, where one of them is not a multiple of a
 * tile they pass: that pair. */
static void not_multiple_note(const kc_kernel *k, kc_diag *d, const kc_symbol *s, const tile *t)
{
    const kc_symbol *b = t->extent <= 0 && t->extent_symbol < k->symbols.len ? &k->symbols.data[t->extent_symbol] : NULL;
    uint32_t nb = t->extent > 0 ? 1 : b ? b->nvalues : 0;
    for (uint32_t j = 0; j < s->nvalues; j++)
        for (uint32_t i = 0; i < nb; i++) {
            int64_t e = t->extent > 0 ? t->extent : b->values[i];
            if (e > 0 && s->values[j] % e != 0) {
                if (s->nvalues == 1 && s->value_origin)
                    kc_diag_note(d, "%s passes `%s` = %lld, not a multiple of %s%s%lld", s->value_origin, s->name,
                                 (long long)s->values[j], b ? b->name : "", b ? " = " : "", (long long)e);
                else
                    kc_diag_note(d, "`%s` = %lld is among the values passed to it (the first by %s), not a multiple "
                                 "of %s%s%lld",
                                 s->name, (long long)s->values[j], s->value_origin ? s->value_origin : "a launch",
                                 b ? b->name : "", b ? " = " : "", (long long)e);
                return;
            }
        }
}

static void report(kc_rule_ctx *ctx, const kc_kernel *k, const finding *f, const char *cdiv_grid, const char *cover_why)
{
    kc_arena *ar = kc_rule_arena(ctx);
    const kc_access *a = f->a;
    const tile *t = &f->t;
    const char *base = a->base_name ? a->base_name : "memory";
    char lb[256], sb[256];
    const char *lane = kc_atom_name(k, t->lane, lb, sizeof lb);
    const char *step = kc_atom_name(k, t->step, sb, sizeof sb);
    kc_strbuf ext = {0};
    tile_extent(k, f, &ext);
    /* a loop over a count of tiles (`range(0, num_block)`) ends at the last
     * whole tile: the count is not the extent it runs past */
    bool count_end = t->by_loop && !t->stepped && f->size != KC_NONE && t->step->id < k->loops.len &&
                     kc_index_symbol(k->loops.data[t->step->id].end) == f->size;
    const char *sz = f->size != KC_NONE && !f->size_unsure && !count_end ? k->symbols.data[f->size].name : NULL;
    const char *tix = t->stepped ? kc_arena_printf(ar, "%s + %s", step, lane)
                                 : kc_arena_printf(ar, "%s*%s + %s", step, kc_sb_str(&ext), lane);
    kc_diag *d;
    if (f->uncovered_axis)
        d = kc_report(ctx, k, kc_span_valid(a->mask_span) ? a->mask_span : kc_access_point(a),
                      "%s `%s`: the mask `%s` does not bound the tiled index %s", what_of(a), base,
                      a->mask_text ? a->mask_text : "", tix);
    else
        d = kc_report_access(ctx, k, a, "%s `%s` is not bounds-checked: the tiled index %s runs "
                      "past %s%s%s in the last %s",
                      what_of(a), base, tix, sz ? "`" : "the end", sz ? sz : "", sz ? "`" : "",
                      t->by_loop ? "pass" : "program");
    kc_strbuf off = {0};
    kc_model_format_index(k, a->offset, &off);
    kc_diag_note(d, "element offset: %s", kc_sb_str(&off));
    if (t->by_loop)
        kc_diag_note(d, "%s steps by %s: its last pass covers the tail only when the bound is a multiple of %s",
                     kc_loop_describe(ctx, k, &k->loops.data[t->step->id]), kc_sb_str(&ext), kc_sb_str(&ext));
    else if (cover_why)
        kc_diag_note(d, "%s, which rounds up: the last program's lanes go past the end whenever the size is not a "
                     "multiple of %s",
                     cover_why, kc_sb_str(&ext));
    else if (cdiv_grid)
        kc_diag_note(d, "the launch grid `%s` rounds up, so the last program's lanes go past the end whenever the "
                     "size is not a multiple of %s",
                     cdiv_grid, kc_sb_str(&ext));
    else
        kc_diag_note(d, "unless %s is a multiple of %s (assumed not: nothing asserts it), the last %s reaches "
                     "past the end",
                     sz ? sz : "the size", kc_sb_str(&ext), t->by_loop ? "pass" : "program");
    if (f->size == KC_NONE && !f->computed && !f->twin && cover_why && !f->uncovered_axis) {
        kc_diag_note(d, "the kernel takes no size to bound it by: pass the extent the launch divides, mask by it");
        /* a tensor's element count is any size; another extent (heads,
         * columns) may be one the kernel presumes a multiple of the tile */
        if (!f->numel_extent) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "a note: the extent divided is not a tensor's element count, which could be any size, "
                         "and a kernel that takes no size may presume it a multiple of the tile");
        }
    }
    if (count_end)
        kc_diag_note(d, "the loop runs `%s` tiles of %s: past the end whenever that count was rounded up",
                     k->symbols.data[f->size].name, kc_sb_str(&ext));
    if (sz) {
        const char *ev = kc_symbol_evidence(ctx, k, f->size);
        if (ev)
            kc_diag_note(d, "%s", ev);
        not_multiple_note(k, d, &k->symbols.data[f->size], t);
    }
    const kc_access *whole = f->uncovered_axis || t->by_loop || !t->step || t->step->kind != KC_ATOM_PROGRAM
                                 ? NULL
                                 : kc_kernel_unchecked_block_ptr(k, t->step->id);
    if (whole) {
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "the kernel's block-pointer %s on line %u, whose block the same program id picks, has no "
                     "`boundary_check` either: the kernel presumes whole tiles along this axis; reported as a note "
                     "(where the size may not be a multiple, both need bounds)",
                     whole->kind == KC_ACC_STORE ? "store" : "load", whole->span.line);
    }
    if (f->computed)
        kc_diag_note(d, "the kernel computes the bound `%s` on line %u, but this %s does not use it",
                     kc_rule_span_text(ctx, f->computed->span), f->computed->span.line,
                     a->kind == KC_ACC_LOAD ? "load" : "store");
    if (a->kind == KC_ACC_STORE)
        kc_diag_note(d, "an out-of-bounds store writes into the next row or the next allocation");
    else if (a->kind == KC_ACC_LOAD)
        kc_diag_note(d, "an out-of-bounds load reads garbage or faults (illegal memory access)");
    add_fix(ctx, d, f, kc_sb_str(&ext));
    kc_sb_free(&ext);
    kc_sb_free(&off);
}

/* Triton: access a has no mask and a lane `tl.arange(0, B)` whose extent
 * every launch passes as at least a size the kernel takes (`BK =
 * triton.next_power_of_2(K)`): the one tile covers K and runs past it
 * whenever K is not B (not a power of two). Reported as such. */
static bool wide_tile(kc_rule_ctx *ctx, const kc_kernel *k, const kc_access *a)
{
    if (k->lang != KC_LANG_TRITON || a->masked || a->bounds_checked || a->block_ptr || a->kind == KC_ACC_ATOMIC)
        return false;
    for (unsigned i = 0; i < a->offset->nmono; i++) {
        const kc_mono *mo = &a->offset->mono[i];
        if (mo->nfac != 1 || mo->fac[0].kind != KC_ATOM_LANE || mo->coef != 1 || mo->fac[0].id >= k->aranges.len)
            continue;
        const kc_arange *ar = &k->aranges.data[mo->fac[0].id];
        uint32_t B = ar->len.symbol;
        if (ar->start != 0 || B == KC_NONE || B >= k->symbols.len)
            continue;
        const kc_symbol *bs = &k->symbols.data[B];
        uint32_t S = bs->at_least_symbol;
        if (S == KC_NONE || S >= k->symbols.len || bs->at_least_cap)
            continue;
        const kc_symbol *ss = &k->symbols.data[S];
        /* (a size asserted a multiple of the tile is the tile; so is one
         * every launch passes as a power of two) */
        bool pow2 = ss->nvalues > 0;
        for (uint32_t v = 0; v < ss->nvalues; v++)
            pow2 &= ss->values[v] > 0 && (ss->values[v] & (ss->values[v] - 1)) == 0;
        if (ss->multiple_of_symbol == B || pow2)
            continue;
        const char *base = a->base_name ? a->base_name : "memory";
        kc_diag *d = kc_report_access(ctx, k, a,
                                      "%s `%s` is not bounds-checked: the lanes `%s` run past `%s` whenever `%s` is "
                                      "not a power of two",
                                      what_of(a), base, ar->text ? ar->text : "tl.arange", ss->name, ss->name);
        const char *ev = bs->at_least_evidence ? bs->at_least_evidence : "every launch passes it at least as large";
        kc_diag_note(d, "%s: one tile covers all of `%s`, and its lanes from `%s` on lie past it", ev, ss->name,
                     ss->name);
        kc_diag_note(d, "%s", a->kind == KC_ACC_STORE
                                  ? "an out-of-bounds store writes into the next row or the next allocation"
                                  : "an out-of-bounds load reads garbage or faults (illegal memory access)");
        kc_diag_note(d, "fix: mask the lanes, `mask=%s < %s` (with `other=` for a load), as the other accesses of "
                     "the row do",
                     ar->text ? ar->text : "offs", ss->name);
        return true;
    }
    return false;
}

/* Is the tile f->t of access f->a one that runs past its size (reported
 * then)? */
static bool judge_tile(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx, const finding *fp,
                       const char *cdiv_grid, bool exact_grid)
{
    finding f = *fp; /* (what it learns of one tile stays with that tile) */
    const kc_access *a = f.a;
    if (a->bounds_checked) {
        if (!mask_misses_tile(k, a, &f.t))
            return false;
        f.uncovered_axis = true;
    }
    if (f.t.by_loop && !loop_reaches_size(k, &f.t, &f.size))
        return false;
    int ax = tile_axis(&f.t);
    /* every launch floors the tile's axis (`Tkv // BLOCK_N`): no program
     * runs past the extent */
    if (ax >= 0 && k->grid_cover[ax].cover == KC_COVER_FLOOR)
        return false;
    if (ax >= 0 && not_last_program(m, k, kc_rule_arena(ctx), a->guard, ax))
        return false;
    bool rounds_up = ax >= 0 && k->grid_cover[ax].cover == KC_COVER_ROUNDS_UP;
    /* `pid % tl.cdiv(K, BK)`: the tiles are K's */
    const kc_opaque *mo = f.t.step->kind == KC_ATOM_OPAQUE && f.t.step->id < k->opaques.len
                              ? &k->opaques.data[f.t.step->id] : NULL;
    if (mo && mo->mod_tiles && mo->tiles_of < k->symbols.len)
        f.size = mo->tiles_of;
    /* untied to a size argument: still one when every launch rounds the axis up */
    if (tile_of_one(k, &f.t) || (!tie_to_size(k, &f) && !rounds_up))
        return false;
    if (rounds_up && k->grid_cover[ax].size != KC_NONE && !f.computed) {
        /* the extent the launches divide is the one it runs past */
        f.size = k->grid_cover[ax].size;
        f.size_unsure = false;
    }
    if (asserted_multiple(k, &f))
        return false;
    if (!f.t.by_loop && exact_grid && !f.computed && !f.twin && !rounds_up)
        return false;
    if (!f.t.by_loop && !f.computed && !f.twin && tile_start_bound(k, &f.t))
        return false;
    if (padded_row(k, &f) || (rounds_up && padded_stride(k, &f, ax)))
        return false;
    f.numel_extent = rounds_up && k->grid_cover[ax].numel;
    report(ctx, k, &f, cdiv_grid, rounds_up ? k->grid_cover[ax].why : NULL);
    return true;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    const char *cdiv_grid;
    bool exact_grid;
    launch_grids(m, k, &cdiv_grid, &exact_grid);
    /* CUDA code bounds its threads in more ways than kcheck follows (sizes
     * that are stage widths, launches that cover the data exactly or round
     * down, flags, preconditions): 50 of 51 findings on five CUDA code bases
     * were false without this. A CUDA kernel is only reported when a launch
     * in the file rounds its grid up, so the last block is known to be
     * partial. */
    if (m->lang == KC_LANG_CUDA && !cdiv_grid)
        return;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space != KC_MEM_GLOBAL || !a->offset || a->block_ptr || in_specialized_branch(k, a->guard))
            continue;
        /* every tile of the offset (a 2-D tile has one per axis), until
         * one is reported */
        unsigned from = 0, tiles = 0;
        finding f = {.a = a, .index = i, .size = KC_NONE};
        while (find_tile(k, a->offset, &f.t, &from)) {
            tiles++;
            if (judge_tile(m, k, ctx, &f, cdiv_grid, exact_grid))
                break;
        }
        if (!tiles)
            wide_tile(ctx, k, a);
    }
}

const kc_rule kc303_missing_bounds_check = {
    .id = "KC303",
    .slug = "missing-bounds-check",
    .summary = "Tiled index (program id * tile + lane) used in an address with no mask or guard against the size.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_MEMORY,
};
