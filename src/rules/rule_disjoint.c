/* rule_disjoint.c — when two accesses of one shared array cannot meet
 * within a pass: facts of thread indices and guards that the race rule
 * (KC402) uses beside its own. */
#include "rule_disjoint.h"

#include "rule_util.h"

/* Does a strict comparison on `w`'s condition chain keep thread index
 * `lane` (axis ax) from being `v` (`i > k`, `k < i`, `i != k`)? */
static bool lane_kept_from(kc_arena *ar, const kc_kernel *k, uint32_t guard, unsigned ax, const kc_index *v)
{
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            if (pr->op != KC_CMP_LT && pr->op != KC_CMP_GT && pr->op != KC_CMP_NE)
                continue;
            for (int side = 0; side < 2; side++) {
                const kc_index *l = side ? pr->rhs : pr->lhs, *o = side ? pr->lhs : pr->rhs;
                if (!l || !o || l->nmono != 1 || l->mono[0].coef != 1 || l->mono[0].nfac != 1 ||
                    l->mono[0].fac[0].kind != KC_ATOM_LANE || l->mono[0].fac[0].id != ax)
                    continue;
                const kc_index *d = kc_index_sub(ar, o, v);
                int64_t z;
                if (d && kc_index_is_const(d, &z) && z == 0)
                    return true;
            }
        }
    }
    return false;
}

/* The spread of the unit thread terms of x other than axis `skip`
 * (`threadIdx.x` in `threadIdx.x + C * threadIdx.y`): its largest value,
 * from the launch, or below |c| where no launch sizes it (a `__device__`
 * step of a tile kernel: `t[x + C * y]` written from every thread of the
 * block is one element per thread only if x < |C|); -1 when a thread term
 * is of another form. Sets *rest to the terms without threads. */
static int64_t lane_spread(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_index *x, int skip,
                           int64_t c, const kc_index **rest)
{
    int64_t spread = 0, ac = c < 0 ? -c : c;
    kc_index *r = kc_arena_alloc(ar, sizeof *r);
    *r = *x;
    kc_mono *ms = kc_arena_alloc(ar, (x->nmono ? x->nmono : 1) * sizeof *ms);
    unsigned n = 0;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        bool thread = false;
        for (unsigned f = 0; f < mo->nfac; f++)
            thread |= mo->fac[f].kind == KC_ATOM_LANE || mo->fac[f].kind == KC_ATOM_DATA;
        if (!thread) {
            ms[n++] = *mo;
            continue;
        }
        if (mo->nfac != 1 || mo->fac[0].kind != KC_ATOM_LANE || mo->coef <= 0)
            return -1;
        if ((int)mo->fac[0].id == skip)
            continue;
        int64_t b = kc_launch_block_dim(m, k, mo->fac[0].id);
        if (b > 0)
            spread += mo->coef * (b - 1);
        else if (mo->coef == 1)
            spread += ac - 1;
        else
            return -1;
    }
    r->mono = ms;
    r->nmono = (uint16_t)n;
    *rest = r;
    return spread;
}

/* Does `w` write row `threadIdx.<ax>` of a tile of rows of C and `r` read
 * row v of it, where `w`'s guard keeps the writing threads off row v (`if
 * (i > k) B[j + i * NT] -= A[k + i * NT] * B[j + k * NT]`, the elimination
 * step of a dense LU or Cholesky factorization with i = threadIdx.y)? Both
 * indices are C times a row plus thread terms below C, so they meet only
 * where the writing thread's row is v. */
bool kc_pivot_excluded(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w,
                           const kc_access *r)
{
    const kc_index *wi = w->offset, *ri = r->offset;
    if (!wi || !ri)
        return false;
    for (unsigned ax = 0; ax < 3; ax++) {
        int64_t c = 0;
        for (unsigned i = 0; i < wi->nmono; i++)
            if (wi->mono[i].nfac == 1 && wi->mono[i].fac[0].kind == KC_ATOM_LANE && wi->mono[i].fac[0].id == ax)
                c += wi->mono[i].coef;
        if (c <= 1)
            continue;
        const kc_index *wrest, *rrest;
        int64_t sw = lane_spread(ar, m, k, wi, (int)ax, c, &wrest), sr = lane_spread(ar, m, k, ri, -1, c, &rrest);
        int64_t z;
        if (sw < 0 || sr < 0 || sw >= c || sr >= c || !kc_index_is_const(wrest, &z) || z != 0)
            continue;
        /* v: the read's thread-free part, a multiple of c */
        bool whole = true;
        for (unsigned i = 0; i < rrest->nmono && whole; i++)
            whole = rrest->mono[i].coef % c == 0;
        if (!whole)
            continue;
        kc_index *v = kc_arena_alloc(ar, sizeof *v);
        *v = *rrest;
        kc_mono *ms = kc_arena_alloc(ar, (rrest->nmono ? rrest->nmono : 1) * sizeof *ms);
        for (unsigned i = 0; i < rrest->nmono; i++) {
            ms[i] = rrest->mono[i];
            ms[i].coef /= c;
        }
        v->mono = ms;
        kc_deps vd = kc_index_deps(v);
        if (!vd.axes && !(vd.flags & (KC_AF_THREAD | KC_AF_DATA)) && lane_kept_from(ar, k, w->guard, ax, v))
            return true;
    }
    return false;
}

int64_t kc_lane_guard_bound(const kc_kernel *k, const kc_access *w, const kc_access *r, unsigned axis)
{
    int64_t best = 0;
    unsigned hops = 0;
    for (uint32_t c = w->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (cd->negated || !kc_guard_has(k, r->guard, c))
            continue;
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            int64_t g;
            if (!pr->lhs || !pr->rhs || (pr->op != KC_CMP_LT && pr->op != KC_CMP_LE) || pr->lhs->nmono != 1 ||
                pr->lhs->mono[0].coef != 1 || pr->lhs->mono[0].nfac != 1 ||
                pr->lhs->mono[0].fac[0].kind != KC_ATOM_LANE || pr->lhs->mono[0].fac[0].id != axis ||
                !kc_index_is_const(pr->rhs, &g))
                continue;
            g += pr->op == KC_CMP_LE;
            if (g > 0 && (!best || g < best))
                best = g;
        }
    }
    return best;
}

/* Monomial `m` without one factor equal to `s` into `out`; false when it
 * has no such factor or more than one. */
static bool mono_without(const kc_mono *m, const kc_atom *s, kc_mono *out)
{
    unsigned n = 0, hits = 0;
    *out = *m;
    for (unsigned f = 0; f < m->nfac; f++) {
        if (kc_atom_same(&m->fac[f], s))
            hits++;
        else
            out->fac[n++] = m->fac[f];
    }
    out->nfac = (uint8_t)n;
    return hits == 1;
}

static bool same_factors(const kc_mono *a, const kc_mono *b)
{
    if (a->nfac != b->nfac)
        return false;
    for (unsigned f = 0; f < a->nfac; f++)
        if (!kc_atom_same(&a->fac[f], &b->fac[f]))
            return false;
    return true;
}

/* Is `rest` Q * (S + c): S one symbol, c >= 0, every term of Q a loop
 * variable's? Splitting on S: the terms with S give Q, the others must be
 * c times Q's terms, term by term. */
static bool whole_rows_of(const kc_index *rest, const kc_atom *s)
{
    kc_mono q[KC_INDEX_MAX_MONOS], o[KC_INDEX_MAX_MONOS];
    unsigned nq = 0, no = 0;
    for (unsigned i = 0; i < rest->nmono && i < KC_INDEX_MAX_MONOS; i++) {
        kc_mono t;
        if (mono_without(&rest->mono[i], s, &t)) {
            if (!kc_mono_has_kind(&t, KC_ATOM_LOOP))
                return false;
            q[nq++] = t;
        } else if (t.nfac == rest->mono[i].nfac) { /* no S in it */
            o[no++] = rest->mono[i];
        } else
            return false; /* S squared */
    }
    if (!nq || (no && no != nq))
        return false;
    int64_t c = 0;
    for (unsigned i = 0; i < no; i++) {
        unsigned j = 0;
        while (j < nq && !same_factors(&o[i], &q[j]))
            j++;
        if (j == nq || o[i].coef % q[j].coef != 0)
            return false;
        int64_t ci = o[i].coef / q[j].coef;
        if (ci < 0 || (i && ci != c))
            return false;
        c = ci;
    }
    return true;
}

bool kc_rows_of_unknown_length(const kc_kernel *k, const kc_index *rest)
{
    if (!rest)
        return false;
    for (unsigned i = 0; i < rest->nmono; i++)
        for (unsigned f = 0; f < rest->mono[i].nfac; f++) {
            const kc_atom *a = &rest->mono[i].fac[f];
            if (a->kind == KC_ATOM_SYMBOL && a->id < k->symbols.len &&
                k->symbols.data[a->id].kind == KC_SYM_CONSTEXPR && whole_rows_of(rest, a))
                return true;
        }
    return false;
}

/* The least value loop variable `l`'s term c * v takes in any pass, where
 * the loop shows it: a variable only shifted right or divided from a
 * constant start S >= 0 stays within [0, S]; one stepped up by a constant
 * from a constant start never goes below it. */
static bool loop_term_min(const kc_kernel *k, uint32_t l, int64_t c, int64_t *out)
{
    if (l >= k->loops.len)
        return false;
    const kc_loop *lp = &k->loops.data[l];
    int64_t s, st;
    if (!lp->start || !kc_index_is_const(lp->start, &s))
        return false;
    if (lp->shrinks && s >= 0) {
        *out = c < 0 ? c * s : 0;
        return true;
    }
    if (c > 0 && lp->step && kc_index_is_const(lp->step, &st) && st > 0) {
        *out = c * s;
        return true;
    }
    return false;
}

bool kc_index_positive_in_pass(const kc_kernel *k, const kc_index *x)
{
    if (!x)
        return false;
    int64_t least = 0;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        int64_t t;
        if (m->nfac == 0)
            least += m->coef;
        else if (m->nfac == 1 && m->fac[0].kind == KC_ATOM_LOOP && loop_term_min(k, m->fac[0].id, m->coef, &t))
            least += t;
        else
            return false;
        if (least < -((int64_t)1 << 40) || least > ((int64_t)1 << 40))
            return false;
    }
    return least > 0;
}
