/* rule_disjoint.c — when two accesses of one shared array cannot meet
 * within a pass: facts of thread indices and guards that the race rule
 * (KC402) uses beside its own. */
#include "rule_disjoint.h"

#include "rule_util.h"

#include <stdlib.h>

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

/* The thread components the conditions around `guard` vary along; 7 when
 * one varies with the thread in a way kcheck cannot place. Threads that
 * differ only in the other components run the same statements. (A
 * comparison's dependence is its sides' difference's, as the front end
 * computes it: `task < ntasks + tx` with `task = tx + 64 * pass` is the
 * same for every thread.) */
uint8_t kc_guard_axes(const kc_kernel *k, uint32_t guard)
{
    uint8_t axes = 0;
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        kc_deps d = k->conds.data[c].deps;
        axes |= d.axes;
        if ((d.flags & KC_AF_THREAD) && !d.axes)
            return 7;
    }
    return axes & 7;
}

/* The values an index takes, as far as the block's extents (the launch's,
 * else the hardware's 1024 threads) and the loops' starts and trip counts
 * bound them: [*lo, *hi], *hi_open when unbounded above (a loop that counts
 * up from its start with no known number of passes). False when a term is
 * not bounded so (a symbol, a loaded value). */
static bool index_interval(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_index *x,
                           const int64_t ext[3], int64_t *lo, int64_t *hi, bool *hi_open, unsigned depth)
{
    *lo = *hi = 0;
    *hi_open = false;
    for (unsigned i = 0; x && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        int64_t c = mo->coef, from, span;
        if (mo->nfac == 0) {
            from = span = c;
        } else if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id < 3) {
            int64_t bd = kc_block_dim_bound(m, k, mo->fac[0].id);
            if (ext && ext[mo->fac[0].id] > 0 && ext[mo->fac[0].id] < bd)
                bd = ext[mo->fac[0].id];
            if (__builtin_mul_overflow(c, bd - 1, &span))
                return false;
            from = 0;
        } else if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LOOP && mo->fac[0].id < k->loops.len && c > 0) {
            const kc_loop *l = &k->loops.data[mo->fac[0].id];
            int64_t start, step, end, last, trips = l->trip_count > 0 ? l->trip_count : l->trip_max;
            if (!kc_index_is_const(l->step, &step) || step <= 0)
                return false;
            if (!kc_index_is_const(l->start, &start)) {
                /* a start that varies with the thread (`for (n =
                 * threadIdx.y; n < 3; n += 4)`): the atom counts passes
                 * and the variable is start + step * pass, so an index
                 * holding c * start + c * step * pass is c * n, from
                 * c * (the start's least value) to c * (end - 1) */
                int64_t cv = c / step, slo, shi;
                bool sopen;
                kc_index part = {.mono = mo, .nmono = 1, .bits = x->bits, .space = x->space};
                const kc_index *rest = c % step == 0 && depth < 4 && l->start && l->end &&
                                               kc_index_is_const(l->end, &end)
                                           ? kc_index_sub(ar, kc_index_sub(ar, x, &part),
                                                          kc_index_scale(ar, l->start, cv))
                                           : NULL;
                if (!rest || kc_index_depends_on_loop(rest, mo->fac[0].id) ||
                    !index_interval(ar, m, k, l->start, ext, &slo, &shi, &sopen, depth + 1) ||
                    !index_interval(ar, m, k, rest, ext, lo, hi, hi_open, depth + 1))
                    return false;
                int64_t a, b;
                if (__builtin_mul_overflow(cv, slo, &a) || __builtin_mul_overflow(cv, end - 1, &b) ||
                    __builtin_add_overflow(*lo, a < b ? a : b, lo) || __builtin_add_overflow(*hi, a < b ? b : a, hi))
                    return false;
                return true;
            }
            if (__builtin_mul_overflow(c, start, &from))
                return false;
            span = from;
            /* a counted loop (`b < 21`) ends at its last pass's value; a
             * `break` only ends it sooner */
            if (trips > 0 && !__builtin_mul_overflow(step, trips - 1, &last) &&
                !__builtin_add_overflow(start, last, &last) && !__builtin_mul_overflow(c, last, &last))
                span = last;
            else
                *hi_open = true;
        } else {
            return false;
        }
        int64_t a = from < span ? from : span, b = from < span ? span : from;
        if (__builtin_add_overflow(*lo, a, lo) || __builtin_add_overflow(*hi, b, hi))
            return false;
    }
    return x != NULL;
}

/* Do `w` and `r` touch disjoint ranges of the array, whatever the threads
 * and passes (`shared_keys[tx + 16*ty]` in [256, 512) under `dim3(16, 16)`
 * and `shared_topk[16*kb + tx]` from 768 up, two regions of one buffer)? */
bool kc_disjoint_ranges(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r,
                        const int64_t ext[3])
{
    int64_t wl, wh, rl, rh;
    bool wo, ro;
    if (!index_interval(ar, m, k, w->offset, ext, &wl, &wh, &wo, 0) ||
        !index_interval(ar, m, k, r->offset, ext, &rl, &rh, &ro, 0))
        return false;
    return (!wo && wh < rl) || (!ro && rh < wl);
}

/* Is every term of l at least 0: positive multiples of thread indices,
 * block extents and loop variables that count up from 0 or more (or that
 * count passes, for a loop from the thread's index)? */
static bool nonneg_terms(const kc_kernel *k, const kc_index *l)
{
    for (unsigned i = 0; i < l->nmono; i++) {
        const kc_mono *mo = &l->mono[i];
        if (mo->coef <= 0)
            return false;
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *at = &mo->fac[f];
            int64_t step, start;
            if (at->kind == KC_ATOM_LANE || at->kind == KC_ATOM_BLOCK_DIM)
                continue;
            if (at->kind != KC_ATOM_LOOP || at->id >= k->loops.len)
                return false;
            /* a loop from the thread's index by a step: the atom counts
             * passes */
            const kc_loop *lp = &k->loops.data[at->id];
            if (lp->start && !kc_index_is_const(lp->start, &start) && !lp->shrinks && lp->step &&
                kc_index_deps(lp->start).axes)
                continue;
            if (!lp->start || !lp->step || start < 0 || !kc_index_is_const(lp->step, &step) || step <= 0)
                return false;
        }
    }
    return true;
}

/* The range [lo, hi] of an index `c * L + u` (u the same for every thread)
 * under a guard `L < B` on its condition chain, L a sum of thread indices
 * and loop variables that is never negative (`threadIdx.x`, or a
 * block-stride loop's `m` from threadIdx.x by blockDim.x under `m < n`):
 * L in [0, B - 1]. False when it is not of that form. */
static bool guarded_range(kc_arena *ar, const kc_kernel *k, const kc_access *a, const kc_index **lo,
                          const kc_index **hi)
{
    const kc_index *x = a->offset;
    int64_t cx = 0;
    for (unsigned i = 0; x && i < x->nmono; i++)
        if (x->mono[i].nfac == 1 && x->mono[i].fac[0].kind == KC_ATOM_LANE && x->mono[i].fac[0].id == 0)
            cx += x->mono[i].coef;
    if (!x || cx == 0)
        return false;
    unsigned hops = 0;
    for (uint32_t ci = a->guard; ci != KC_NONE && ci < k->conds.len && hops++ < 10000;
         ci = k->conds.data[ci].parent) {
        const kc_cond *cd = &k->conds.data[ci];
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            /* `L < B`, or written the other way round: `B > L` (a tree
             * reduction's `for (j = N / 2; j > tid; j /= 2)`) */
            bool flip = pr->op == KC_CMP_GT || pr->op == KC_CMP_GE;
            const kc_index *l = flip ? pr->rhs : pr->lhs, *r = flip ? pr->lhs : pr->rhs;
            kc_cmp op = flip ? (pr->op == KC_CMP_GT ? KC_CMP_LT : KC_CMP_LE) : pr->op;
            kc_deps rd = r ? kc_index_deps(r) : (kc_deps){.flags = KC_AF_DATA};
            if ((op != KC_CMP_LT && op != KC_CMP_LE) || !l || rd.axes || (rd.flags & (KC_AF_THREAD | KC_AF_DATA)))
                continue;
            int64_t cl = 0;
            for (unsigned i = 0; i < l->nmono; i++)
                if (l->mono[i].nfac == 1 && l->mono[i].fac[0].kind == KC_ATOM_LANE && l->mono[i].fac[0].id == 0)
                    cl += l->mono[i].coef;
            if (cl <= 0 || cx % cl != 0 || !nonneg_terms(k, l))
                continue;
            int64_t c = cx / cl;
            const kc_index *u = kc_index_sub(ar, x, kc_index_scale(ar, l, c));
            if (!u)
                continue;
            kc_deps ud = kc_index_deps(u);
            if (ud.axes || (ud.flags & (KC_AF_THREAD | KC_AF_DATA)))
                continue;
            /* the largest L: B - 1, or B for `<=` */
            const kc_index *bound = op == KC_CMP_LT ? kc_index_sub(ar, r, kc_index_const(ar, 1, 64, KC_SPACE_THREADS)) : r;
            const kc_index *far = bound ? kc_index_add(ar, u, kc_index_scale(ar, bound, c)) : NULL;
            if (!far)
                continue;
            *lo = c > 0 ? u : far;
            *hi = c > 0 ? far : u;
            return true;
        }
    }
    return false;
}

/* Within one pass, are `w` and `r` apart under their guards: one's range
 * ends before the other's begins (`s[tid]` written and `s[2 * i - 1 - tid]`
 * read under `tid < i`: [0, i - 1] and [i, 2i - 1], a folding reduction;
 * `s[64 + tid]` written and `s[tid + i]` read under `tid < i`, i halved
 * from 32: [64, 63 + i] and [i, 2i - 1])? */
bool kc_disjoint_guarded(kc_arena *ar, const kc_kernel *k, const kc_access *w, const kc_access *r)
{
    const kc_index *wl, *wh, *rl, *rh;
    if (!guarded_range(ar, k, w, &wl, &wh) || !guarded_range(ar, k, r, &rl, &rh))
        return false;
    int64_t d;
    const kc_index *a = kc_index_sub(ar, rl, wh), *b = kc_index_sub(ar, wl, rh);
    return (a && kc_index_is_const(a, &d) && d > 0) || (b && kc_index_is_const(b, &d) && d > 0) ||
           kc_index_positive_in_pass(k, a) || kc_index_positive_in_pass(k, b);
}

/* The largest threadIdx along axis `ax` for access a: below the launch's
 * block, and below what a guard on its condition chain allows (`i < 4`,
 * `threadIdx.y + 4 < 8`: c * threadIdx + c0 < R with constants); -1 when
 * neither bounds it. */
static int64_t lane_max(const kc_model *m, const kc_kernel *k, const kc_access *a, unsigned ax)
{
    int64_t bd = kc_launch_block_dim(m, k, ax), best = bd > 0 ? bd - 1 : -1;
    unsigned hops = 0;
    for (uint32_t ci = a->guard; ci != KC_NONE && ci < k->conds.len && hops++ < 10000; ci = k->conds.data[ci].parent) {
        const kc_cond *cd = &k->conds.data[ci];
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            int64_t r, c = 0, c0 = 0;
            if ((pr->op != KC_CMP_LT && pr->op != KC_CMP_LE) || !pr->lhs || !pr->rhs || !kc_index_is_const(pr->rhs, &r))
                continue;
            bool ok = true;
            for (unsigned i = 0; i < pr->lhs->nmono && ok; i++) {
                const kc_mono *mo = &pr->lhs->mono[i];
                if (mo->nfac == 0)
                    c0 += mo->coef;
                else if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id == ax && !c)
                    c = mo->coef;
                else
                    ok = false;
            }
            if (!ok || c <= 0)
                continue;
            int64_t top = r - c0 - (pr->op == KC_CMP_LT ? 1 : 0);
            int64_t mx = top >= 0 ? top / c : -1;
            if (mx >= 0 && (best < 0 || mx < best))
                best = mx;
        }
    }
    return best;
}

/* The values [lo, hi] of subscript x of access a: constants and threadIdx
 * terms bounded by lane_max; false for anything else. */
static bool sub_interval(const kc_model *m, const kc_kernel *k, const kc_access *a, const kc_index *x, int64_t *lo,
                         int64_t *hi)
{
    *lo = *hi = 0;
    for (unsigned i = 0; x && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        int64_t span;
        if (mo->nfac == 0) {
            *lo += mo->coef;
            *hi += mo->coef;
            continue;
        }
        if (mo->nfac != 1 || mo->fac[0].kind != KC_ATOM_LANE || mo->fac[0].id > 2)
            return false;
        int64_t top = lane_max(m, k, a, mo->fac[0].id);
        if (top < 0 || top > 1024 || __builtin_mul_overflow(mo->coef, top, &span))
            return false;
        if (span > 0)
            *hi += span;
        else
            *lo += span;
    }
    return x != NULL;
}

/* Accesses of one array of two or more dimensions, by subscripts: apart
 * where, in some dimension, their subscripts' ranges never meet (the halo
 * of a stencil tile filled under `if (j < 4)`: rows [0, 3] written, rows
 * [63, 66] read). Subscripts lie within their dimensions in correct code,
 * so elements with different subscripts in one dimension differ. */
bool kc_disjoint_subscripts(const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r)
{
    if (w->nsubs < 2 || w->nsubs != r->nsubs || w->base != r->base || w->base == KC_NONE)
        return false;
    for (unsigned d = 0; d < w->nsubs; d++) {
        int64_t wl, wh, rl, rh;
        if (sub_interval(m, k, w, w->subs[d], &wl, &wh) && sub_interval(m, k, r, r->subs[d], &rl, &rh) &&
            (wh < rl || rh < wl))
            return true;
    }
    return false;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* x with the pass of every loop that makes at most one pass from a start
 * that varies with the thread (`for (n = threadIdx.y; n < 3; n += 8)`,
 * where n is threadIdx.y + 8 * pass) as 0. */
static const kc_index *fold_single_passes(kc_arena *ar, const kc_kernel *k, const kc_index *x)
{
    const kc_index *out = kc_index_const(ar, 0, x->bits, x->space);
    for (unsigned i = 0; out && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        bool zero = false;
        for (unsigned f = 0; f < mo->nfac && !zero; f++) {
            if (mo->fac[f].kind != KC_ATOM_LOOP || mo->fac[f].id >= k->loops.len)
                continue;
            const kc_loop *l = &k->loops.data[mo->fac[f].id];
            kc_deps d = l->start ? kc_index_deps(l->start) : (kc_deps){0};
            zero = (l->trip_count == 1 || (l->trip_count < 0 && l->trip_max == 1)) &&
                   (d.axes || (d.flags & KC_AF_THREAD));
        }
        kc_index part = {.mono = mo, .nmono = 1, .bits = x->bits, .space = x->space};
        if (!zero)
            out = kc_index_add(ar, out, &part);
    }
    return out;
}

/* The thread components a condition chain pins to one value (`if
 * (threadIdx.y == 0)`, `ty < 1`, `n == 2` with n = threadIdx.y in a loop
 * of one pass): bit c of the result, the value in val[c]. */
static uint8_t pinned_lanes(kc_arena *ar, const kc_kernel *k, uint32_t guard, int64_t val[3])
{
    uint8_t pins = 0;
    unsigned hops = 0;
    for (uint32_t ci = guard; ci != KC_NONE && ci < k->conds.len && hops++ < 10000; ci = k->conds.data[ci].parent) {
        const kc_cond *cd = &k->conds.data[ci];
        for (uint32_t p = 0; !cd->negated && p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            int64_t v;
            const kc_index *l = pr->lhs ? fold_single_passes(ar, k, pr->lhs) : NULL;
            if (!l || !pr->rhs || l->nmono != 1 || l->mono[0].coef != 1 || l->mono[0].nfac != 1 ||
                l->mono[0].fac[0].kind != KC_ATOM_LANE || l->mono[0].fac[0].id > 2 || !kc_index_is_const(pr->rhs, &v))
                continue;
            if (pr->op == KC_CMP_LT && v == 1)
                v = 0;
            else if (pr->op == KC_CMP_LE && v == 0)
                v = 0;
            else if (pr->op != KC_CMP_EQ)
                continue;
            pins |= (uint8_t)(1u << l->mono[0].fac[0].id);
            val[l->mono[0].fac[0].id] = v;
        }
    }
    return pins;
}

/* x with the pinned thread components replaced by their values; NULL when
 * a pinned component appears in a product. */
static const kc_index *pin_lanes(kc_arena *ar, const kc_index *x, uint8_t pins, const int64_t val[3])
{
    const kc_index *out = kc_index_const(ar, 0, x->bits, x->space);
    for (unsigned i = 0; out && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        bool lane = false;
        for (unsigned f = 0; f < mo->nfac; f++)
            if (mo->fac[f].kind == KC_ATOM_LANE && mo->fac[f].id < 3 && (pins & (1u << mo->fac[f].id)))
                lane = true;
        if (lane && mo->nfac != 1)
            return NULL;
        kc_index part = {.mono = mo, .nmono = 1, .bits = x->bits, .space = x->space};
        out = lane ? kc_index_add(ar, out, kc_index_const(ar, mo->coef * val[mo->fac[0].id], x->bits, x->space))
                   : kc_index_add(ar, out, &part);
    }
    return out;
}

/* Does the access's index give every thread of the block an element of
 * its own: a sum of constant multiples of threadIdx components, each
 * coefficient at least the one below it times that component's extent
 * (`32 * ty + tx` under 32 threads along x; `9 * tx + ty` under 8 along
 * y), plus terms the same for every thread? The extent is the launch's or
 * a guard's, else ext[c] where positive. Where none gives it, a store that
 * every thread along the component does is its own evidence: two threads
 * writing one element there would be a write-write race on every run, so
 * the block is that narrow in code that works (`sdata[tx * (blocky + 1) +
 * ty] = val` in a helper whose kernels are launched elsewhere). */
static bool lanes_injective(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *a,
                            const kc_index *x, const int64_t ext[3])
{
    int64_t coef[3] = {0, 0, 0};
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id < 3) {
            coef[mo->fac[0].id] += mo->coef;
            continue;
        }
        kc_index part = {.mono = mo, .nmono = 1, .bits = x->bits, .space = x->space};
        kc_deps d = kc_index_deps(&part);
        if (d.axes || (d.flags & (KC_AF_THREAD | KC_AF_DATA)))
            return false;
    }
    unsigned order[3], n = 0;
    for (unsigned c = 0; c < 3; c++)
        if (coef[c]) {
            unsigned j = n++;
            while (j > 0 && abs64(coef[order[j - 1]]) > abs64(coef[c])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = c;
        }
    uint8_t varies = kc_guard_axes(k, a->guard);
    for (unsigned j = 0; j + 1 < n; j++) {
        int64_t e = lane_max(m, k, a, order[j]) + 1, need;
        if (e <= 0 && ext && ext[order[j]] > 0)
            e = ext[order[j]];
        if (e <= 0 && a->kind == KC_ACC_STORE && !(varies & (1u << order[j])))
            continue;
        if (e <= 0 || __builtin_mul_overflow(abs64(coef[order[j]]), e, &need) || abs64(coef[order[j + 1]]) < need)
            return false;
    }
    return n > 0;
}

/* Is the element `r` reads one that only the reading thread itself writes
 * at `w`: under `if (threadIdx.y == 0)` the read `buf[tx]` is the write
 * `buf[tx + 32 * ty]` of the same thread, and no other thread writes
 * there (a reduction over y whose row 0 is read back, then refilled)? Or,
 * the other way round, is the element `w` writes read only by the writing
 * thread (`gx[2048]` written under `n == 2`, n = threadIdx.y, and read as
 * `gx[1024 * n]`, which is that element only in row 2)? */
bool kc_own_element(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r,
                    const int64_t ext[3])
{
    const kc_index *wf = fold_single_passes(ar, k, w->offset), *rf = fold_single_passes(ar, k, r->offset);
    if (!wf || !rf)
        return false;
    for (int side = 0; side < 2; side++) {
        const kc_access *pinned = side ? w : r, *other = side ? r : w;
        int64_t val[3] = {0, 0, 0};
        uint8_t pins = pinned_lanes(ar, k, pinned->guard, val);
        const kc_index *wp = pins ? pin_lanes(ar, wf, pins, val) : wf;
        const kc_index *rp = pins ? pin_lanes(ar, rf, pins, val) : rf;
        if (wp && rp && kc_index_equal(wp, rp) && lanes_injective(ar, m, k, other, other == w ? wf : rf, ext))
            return true;
    }
    return false;
}

/* ---- thread by thread ---------------------------------------------------- */

/* An index split into its threadIdx terms (coefficients per component,
 * passes of one-pass loops folded to 0) and the rest, which must be the
 * same for every thread. False when a term varies with the thread in
 * another way (a product, a split, loaded data). */
typedef struct lane_form {
    int64_t coef[3];
    const kc_index *rest;
} lane_form;

static bool lane_form_of(kc_arena *ar, const kc_kernel *k, const kc_index *x, lane_form *f)
{
    x = x ? fold_single_passes(ar, k, x) : NULL;
    if (!x)
        return false;
    f->coef[0] = f->coef[1] = f->coef[2] = 0;
    f->rest = kc_index_const(ar, 0, x->bits, x->space);
    for (unsigned i = 0; f->rest && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id < 3) {
            f->coef[mo->fac[0].id] += mo->coef;
            continue;
        }
        kc_index part = {.mono = mo, .nmono = 1, .bits = x->bits, .space = x->space};
        kc_deps d = kc_index_deps(&part);
        if (d.axes || (d.flags & KC_AF_THREAD))
            return false;
        f->rest = kc_index_add(ar, f->rest, &part);
    }
    return f->rest != NULL;
}

/* The most a thread's component `ax` can be at access a: the launch's
 * block, else ext[ax], else a guard on its chain of the form `c * t + c0
 * < R`, `<= R` or `== R` with constants (one-pass loops folded); -1 when
 * nothing bounds it. */
static int64_t axis_cap(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *a, unsigned ax,
                        const int64_t ext[3])
{
    int64_t bd = kc_launch_block_dim(m, k, ax), best = bd > 0 ? bd - 1 : ext && ext[ax] > 0 ? ext[ax] - 1 : -1;
    unsigned hops = 0;
    for (uint32_t ci = a->guard; ci != KC_NONE && ci < k->conds.len && hops++ < 10000; ci = k->conds.data[ci].parent) {
        const kc_cond *cd = &k->conds.data[ci];
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            lane_form l, r;
            int64_t lc, rc;
            if ((pr->op != KC_CMP_LT && pr->op != KC_CMP_LE && pr->op != KC_CMP_EQ) || !lane_form_of(ar, k, pr->lhs, &l) ||
                !lane_form_of(ar, k, pr->rhs, &r) || !kc_index_is_const(l.rest, &lc) || !kc_index_is_const(r.rest, &rc) ||
                r.coef[0] || r.coef[1] || r.coef[2] || l.coef[ax] <= 0)
                continue;
            bool only = true;
            for (unsigned o = 0; o < 3; o++)
                if (o != ax && l.coef[o] < 0)
                    only = false;
            if (!only)
                continue;
            /* other components only add: t <= (R - c0 [- 1]) / c */
            int64_t top = rc - lc - (pr->op == KC_CMP_LT ? 1 : 0);
            int64_t mx = top >= 0 ? top / l.coef[ax] : -1;
            if (mx >= 0 && (best < 0 || mx < best))
                best = mx;
        }
    }
    return best;
}

/* Coefficients and constant small enough that a thread's value cannot
 * overflow (components below 4096). */
static bool small_form(const lane_form *f, int64_t c)
{
    const int64_t lim = (int64_t)1 << 40;
    return c < lim && c > -lim && f->coef[0] < lim && f->coef[0] > -lim && f->coef[1] < lim && f->coef[1] > -lim &&
           f->coef[2] < lim && f->coef[2] > -lim;
}

/* Does thread t run code under `guard`: 0 when a comparison on its chain
 * made of threadIdx terms and constants fails for it, 1 otherwise (the
 * rest taken to hold, which can only add threads). */
static bool thread_runs(kc_arena *ar, const kc_kernel *k, uint32_t guard, const int64_t t[3])
{
    unsigned hops = 0;
    for (uint32_t ci = guard; ci != KC_NONE && ci < k->conds.len && hops++ < 10000; ci = k->conds.data[ci].parent) {
        const kc_cond *cd = &k->conds.data[ci];
        if (!(cd->deps.axes || (cd->deps.flags & KC_AF_THREAD)))
            continue;
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            lane_form l, r;
            int64_t lc, rc;
            if (!lane_form_of(ar, k, pr->lhs, &l) || !lane_form_of(ar, k, pr->rhs, &r) ||
                !kc_index_is_const(l.rest, &lc) || !kc_index_is_const(r.rest, &rc) || !small_form(&l, lc) ||
                !small_form(&r, rc))
                continue;
            int64_t a = lc + l.coef[0] * t[0] + l.coef[1] * t[1] + l.coef[2] * t[2];
            int64_t b = rc + r.coef[0] * t[0] + r.coef[1] * t[1] + r.coef[2] * t[2];
            kc_cmp op = pr->op;
            bool ok = op == KC_CMP_LT ? a < b : op == KC_CMP_LE ? a <= b : op == KC_CMP_GT ? a > b
                    : op == KC_CMP_GE ? a >= b : op == KC_CMP_EQ ? a == b : a != b;
            if (!ok)
                return false;
        }
    }
    return true;
}

typedef struct elem_thread {
    int64_t elem, tid;
} elem_thread;

static int by_elem(const void *a, const void *b)
{
    const elem_thread *x = a, *y = b;
    return x->elem < y->elem ? -1 : x->elem > y->elem ? 1 : (x->tid > y->tid) - (x->tid < y->tid);
}

#define KC_THREADS_TRIED 4096

bool kc_disjoint_by_threads(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w,
                            const kc_access *r, const int64_t ext[3])
{
    lane_form fw, fr;
    int64_t d;
    if (!lane_form_of(ar, k, w->offset, &fw) || !lane_form_of(ar, k, r->offset, &fr))
        return false;
    const kc_index *delta = kc_index_sub(ar, fr.rest, fw.rest);
    if (!delta || !kc_index_is_const(delta, &d) || d > ((int64_t)1 << 40) || d < -((int64_t)1 << 40))
        return false;
    for (unsigned ax = 0; ax < 3; ax++)
        if (fw.coef[ax] > ((int64_t)1 << 40) || fw.coef[ax] < -((int64_t)1 << 40) || fr.coef[ax] > ((int64_t)1 << 40) ||
            fr.coef[ax] < -((int64_t)1 << 40))
            return false;
    /* the threads each side may run on: every component they name bounded */
    int64_t cap_w[3], cap_r[3], nw = 1, nr = 1;
    bool loose = false; /* a component neither index names, with more than one thread */
    for (unsigned ax = 0; ax < 3; ax++) {
        bool named = fw.coef[ax] || fr.coef[ax];
        cap_w[ax] = axis_cap(ar, m, k, w, ax, ext);
        cap_r[ax] = axis_cap(ar, m, k, r, ax, ext);
        if (!named) {
            int64_t bd = kc_launch_block_dim(m, k, ax);
            loose |= bd != 1;
            cap_w[ax] = cap_r[ax] = 0;
            continue;
        }
        if (cap_w[ax] < 0 || cap_r[ax] < 0 || cap_w[ax] >= KC_THREADS_TRIED || cap_r[ax] >= KC_THREADS_TRIED)
            return false;
        nw *= cap_w[ax] + 1;
        nr *= cap_r[ax] + 1;
        if (nw > KC_THREADS_TRIED || nr > KC_THREADS_TRIED)
            return false;
    }
    elem_thread *we = kc_arena_alloc(ar, (size_t)nw * sizeof *we);
    int64_t n = 0;
    for (int64_t z = 0; z <= cap_w[2]; z++)
        for (int64_t y = 0; y <= cap_w[1]; y++)
            for (int64_t x = 0; x <= cap_w[0]; x++) {
                int64_t t[3] = {x, y, z};
                if (!thread_runs(ar, k, w->guard, t))
                    continue;
                we[n].elem = fw.coef[0] * x + fw.coef[1] * y + fw.coef[2] * z;
                we[n].tid = x + (cap_w[0] + 1) * (y + (cap_w[1] + 1) * z);
                n++;
            }
    qsort(we, (size_t)n, sizeof *we, by_elem);
    for (int64_t z = 0; z <= cap_r[2]; z++)
        for (int64_t y = 0; y <= cap_r[1]; y++)
            for (int64_t x = 0; x <= cap_r[0]; x++) {
                int64_t t[3] = {x, y, z};
                if (!thread_runs(ar, k, r->guard, t))
                    continue;
                int64_t e = fr.coef[0] * x + fr.coef[1] * y + fr.coef[2] * z + d;
                /* writers of e: any but this very thread is a conflict */
                int64_t lo = 0, hi = n;
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (we[mid].elem < e)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                int64_t self = x + (cap_w[0] + 1) * (y + (cap_w[1] + 1) * z);
                bool mine = x <= cap_w[0] && y <= cap_w[1] && z <= cap_w[2];
                for (int64_t i = lo; i < n && we[i].elem == e; i++)
                    if (loose || !mine || we[i].tid != self)
                        return false;
            }
    return true;
}
