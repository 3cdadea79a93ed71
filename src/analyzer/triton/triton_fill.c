/* triton_fill.c — what the lanes that a load's mask turns off hold, as
 * they flow through element-wise operations into uses that combine lanes
 * (reductions, the K axis of tl.dot): KC306's facts.
 *
 * A masked load without `other=` leaves its masked-out lanes undefined
 * (Triton's contract: any value, NaN included); with `other=c` they hold c.
 * A value carries, per lane axis, whether such lanes are in it, and what
 * they hold (kc_fill) under four hypotheses: the load as written, and the
 * load given other= 0, -inf or +inf (the fix-it picks the one that is
 * neutral for every use). Element-wise arithmetic transforms what they
 * hold (exp(0) is 1, x / 0 is inf); tl.where with the load's mask (or
 * another bound on the same axis) replaces them; a use that combines
 * lanes along an axis that holds them records a kc_lane_flow. Operations
 * this file does not know keep only undefined lanes, so that analysis
 * stays quiet when it cannot tell. Calls triton_value.c only (which
 * keeps the values' own questions: tt_junk, tt_junk_merge).
 */
#include "triton_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- literals ---- */

/* The node's text without white space, parentheses around it, and quotes
 * normalised to '. */
static void squeeze(const char *t, char *out, size_t n)
{
    size_t j = 0;
    for (; *t && j + 1 < n; t++) {
        if (isspace((unsigned char)*t))
            continue;
        out[j++] = *t == '"' ? '\'' : *t;
    }
    out[j] = 0;
    while (j >= 2 && out[0] == '(' && out[j - 1] == ')') {
        memmove(out, out + 1, j - 2);
        j -= 2;
        out[j] = 0;
    }
}

static uint8_t inf_fill(const char *s, bool neg)
{
    static const char *const infs[] = {"float('inf')", "math.inf", "np.inf", "numpy.inf", "torch.inf", "inf",
                                       "float('infinity')", NULL};
    if (!strcmp(s, "float('-inf')") || !strcmp(s, "float('-infinity')"))
        return neg ? KC_FILL_POS_INF : KC_FILL_NEG_INF;
    if (!strcmp(s, "float('nan')") || !strcmp(s, "math.nan"))
        return KC_FILL_NAN;
    for (unsigned i = 0; infs[i]; i++)
        if (!strcmp(s, infs[i]))
            return neg ? KC_FILL_NEG_INF : KC_FILL_POS_INF;
    return KC_FILL_NONE;
}

static uint8_t number_fill(const char *s, bool neg)
{
    char *end = NULL;
    if (!*s || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
        return KC_FILL_NONE;
    double v = strtod(s, &end);
    if (!end || *end)
        return KC_FILL_NONE;
    if (v == 0)
        return KC_FILL_ZERO;
    if (v >= 1e4)
        return neg ? KC_FILL_NEG_BIG : KC_FILL_POS_BIG;
    return neg ? KC_FILL_NEG : KC_FILL_POS;
}

uint8_t tt_fill_literal(tt_ctx *c, TSNode n)
{
    if (ts_node_is_null(n))
        return KC_FILL_NONE;
    uint32_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    if (len == 0 || len > 48)
        return KC_FILL_NONE;
    char buf[64];
    squeeze(tt_text(c->mod, n), buf, sizeof buf);
    const char *s = buf;
    bool neg = false;
    while (*s == '-' || *s == '+') {
        neg ^= *s == '-';
        s++;
    }
    uint8_t f = inf_fill(s, neg);
    return f != KC_FILL_NONE ? f : number_fill(s, neg);
}

/* ---- the algebra of what masked-out lanes hold ---- */

static uint8_t neg_fill(uint8_t f)
{
    switch (f) {
    case KC_FILL_POS: return KC_FILL_NEG;
    case KC_FILL_NEG: return KC_FILL_POS;
    case KC_FILL_NEG_BIG: return KC_FILL_POS_BIG;
    case KC_FILL_POS_BIG: return KC_FILL_NEG_BIG;
    case KC_FILL_NEG_INF: return KC_FILL_POS_INF;
    case KC_FILL_POS_INF: return KC_FILL_NEG_INF;
    default: return f;
    }
}

static int sign_of(uint8_t f)
{
    switch (f) {
    case KC_FILL_POS: case KC_FILL_POS_BIG: case KC_FILL_POS_INF: return 1;
    case KC_FILL_NEG: case KC_FILL_NEG_BIG: case KC_FILL_NEG_INF: return -1;
    default: return 0;
    }
}

static uint8_t add_fill(uint8_t x, uint8_t y)
{
    if (x == KC_FILL_ZERO)
        return y;
    if (y == KC_FILL_ZERO)
        return x;
    if (x == KC_FILL_ANY || y == KC_FILL_ANY)
        return KC_FILL_ANY;
    bool xi = x == KC_FILL_NEG_INF || x == KC_FILL_POS_INF, yi = y == KC_FILL_NEG_INF || y == KC_FILL_POS_INF;
    if (xi && yi)
        return x == y ? x : KC_FILL_NAN;
    if (xi)
        return x;
    if (yi)
        return y;
    bool xb = x == KC_FILL_NEG_BIG || x == KC_FILL_POS_BIG, yb = y == KC_FILL_NEG_BIG || y == KC_FILL_POS_BIG;
    if (xb && yb)
        return x == y ? x : KC_FILL_ANY;
    if (xb)
        return x;
    if (yb)
        return y;
    if (x == y && (x == KC_FILL_POS || x == KC_FILL_NEG))
        return x;
    return KC_FILL_ANY;
}

static uint8_t mul_fill(uint8_t x, uint8_t y)
{
    /* Undefined lanes times lanes that are 0: 0 unless the garbage is NaN
     * or an infinity, which kcheck does not presume (the register usually
     * holds a finite value). */
    if ((x == KC_FILL_UNDEF && y == KC_FILL_ZERO) || (y == KC_FILL_UNDEF && x == KC_FILL_ZERO))
        return KC_FILL_ZERO;
    if (x == KC_FILL_UNDEF || y == KC_FILL_UNDEF)
        return KC_FILL_UNDEF;
    if (x == KC_FILL_NAN || y == KC_FILL_NAN)
        return KC_FILL_NAN;
    bool xi = x == KC_FILL_NEG_INF || x == KC_FILL_POS_INF, yi = y == KC_FILL_NEG_INF || y == KC_FILL_POS_INF;
    if (x == KC_FILL_ZERO || y == KC_FILL_ZERO)
        return (xi || yi) ? KC_FILL_NAN : KC_FILL_ZERO; /* a block's own lanes are taken to be finite */
    if (x == KC_FILL_ANY || y == KC_FILL_ANY)
        return KC_FILL_ANY;
    int sx = sign_of(x), sy = sign_of(y);
    if (xi || yi) {
        if (sx && sy)
            return sx * sy > 0 ? KC_FILL_POS_INF : KC_FILL_NEG_INF;
        return KC_FILL_ANY; /* an infinity of a sign kcheck does not know */
    }
    if (x == KC_FILL_NEG_BIG || x == KC_FILL_POS_BIG || y == KC_FILL_NEG_BIG || y == KC_FILL_POS_BIG)
        return KC_FILL_ANY;
    if (sx && sy)
        return sx * sy > 0 ? KC_FILL_POS : KC_FILL_NEG;
    return KC_FILL_NONZERO;
}

static uint8_t div_fill(uint8_t x, uint8_t y)
{
    if (y == KC_FILL_ZERO)
        return KC_FILL_NAN; /* x / 0: an infinity, or NaN for 0 / 0 */
    bool xi = x == KC_FILL_NEG_INF || x == KC_FILL_POS_INF, yi = y == KC_FILL_NEG_INF || y == KC_FILL_POS_INF;
    if (yi)
        return xi ? KC_FILL_NAN : (x == KC_FILL_ANY ? KC_FILL_ANY : KC_FILL_ZERO);
    if (x == KC_FILL_ZERO)
        return KC_FILL_ZERO;
    if (x == KC_FILL_ANY || y == KC_FILL_ANY)
        return KC_FILL_ANY;
    int sx = sign_of(x), sy = sign_of(y);
    if (xi)
        return sx && sy ? (sx * sy > 0 ? KC_FILL_POS_INF : KC_FILL_NEG_INF) : KC_FILL_ANY;
    if (x == KC_FILL_NEG_BIG || x == KC_FILL_POS_BIG || y == KC_FILL_NEG_BIG || y == KC_FILL_POS_BIG)
        return KC_FILL_ANY;
    if (sx && sy)
        return sx * sy > 0 ? KC_FILL_POS : KC_FILL_NEG;
    return KC_FILL_NONZERO;
}

/* x op y where one or both hold masked-out lanes (an operand that does not
 * is described as what its own lanes are: a literal's class, NONZERO for
 * a value uniform along the block, ANY for a block of its own values). */
static uint8_t combine(const char *op, uint8_t x, uint8_t y)
{
    if (!strcmp(op, "*"))
        return mul_fill(x, y);
    if (x == KC_FILL_UNDEF || y == KC_FILL_UNDEF)
        return KC_FILL_UNDEF;
    if (x == KC_FILL_NAN || y == KC_FILL_NAN)
        return KC_FILL_NAN;
    if (!strcmp(op, "+"))
        return add_fill(x, y);
    if (!strcmp(op, "-"))
        return add_fill(x, neg_fill(y));
    if (!strcmp(op, "*"))
        return mul_fill(x, y);
    if (!strcmp(op, "/"))
        return div_fill(x, y);
    return KC_FILL_ANY;
}

/* One element-wise function of what the lanes hold. */
static uint8_t apply_fn(const char *fn, uint8_t f)
{
    if (f == KC_FILL_UNDEF || f == KC_FILL_NAN || f == KC_FILL_NONE)
        return f;
    if (!strcmp(fn, "neg"))
        return neg_fill(f);
    if (!strcmp(fn, "to") || !strcmp(fn, "cast"))
        return f;
    if (f == KC_FILL_ANY)
        return KC_FILL_ANY;
    if (!strcmp(fn, "exp") || !strcmp(fn, "exp2")) {
        if (f == KC_FILL_NEG_INF || f == KC_FILL_NEG_BIG)
            return KC_FILL_ZERO;
        if (f == KC_FILL_POS_INF || f == KC_FILL_POS_BIG)
            return KC_FILL_POS_INF;
        return KC_FILL_POS;
    }
    if (!strcmp(fn, "log") || !strcmp(fn, "log2")) {
        if (f == KC_FILL_ZERO)
            return KC_FILL_NEG_INF;
        if (f == KC_FILL_POS_INF)
            return KC_FILL_POS_INF;
        if (sign_of(f) < 0)
            return KC_FILL_NAN;
        return KC_FILL_ANY;
    }
    if (!strcmp(fn, "sqrt") || !strcmp(fn, "sqrt_rn")) {
        if (sign_of(f) < 0)
            return KC_FILL_NAN;
        return f == KC_FILL_ZERO || f == KC_FILL_POS_INF ? f : (sign_of(f) > 0 ? KC_FILL_POS : KC_FILL_ANY);
    }
    if (!strcmp(fn, "rsqrt")) {
        if (f == KC_FILL_ZERO)
            return KC_FILL_POS_INF;
        if (sign_of(f) < 0)
            return KC_FILL_NAN;
        return f == KC_FILL_POS_INF ? KC_FILL_ZERO : (sign_of(f) > 0 ? KC_FILL_POS : KC_FILL_ANY);
    }
    if (!strcmp(fn, "abs")) {
        if (f == KC_FILL_ZERO)
            return f;
        if (f == KC_FILL_NEG_INF || f == KC_FILL_POS_INF)
            return KC_FILL_POS_INF;
        if (f == KC_FILL_NEG_BIG || f == KC_FILL_POS_BIG)
            return KC_FILL_POS_BIG;
        return KC_FILL_POS;
    }
    if (!strcmp(fn, "sigmoid"))
        return f == KC_FILL_NEG_INF || f == KC_FILL_NEG_BIG ? KC_FILL_ZERO : KC_FILL_POS;
    if (!strcmp(fn, "tanh") || !strcmp(fn, "sin") || !strcmp(fn, "erf") || !strcmp(fn, "log1p") ||
        !strcmp(fn, "expm1"))
        return f == KC_FILL_ZERO ? KC_FILL_ZERO : KC_FILL_ANY;
    if (!strcmp(fn, "cos"))
        return f == KC_FILL_ZERO ? KC_FILL_POS : KC_FILL_ANY;
    return KC_FILL_ANY;
}

/* ---- propagation ---- */

void tt_junk_load(tt_ctx *c, tv *v, uint32_t acc, const tv *mask, TSNode othern, const tv *other)
{
    tt_junk_clear(v);
    if (!mask || mask->kind == TV_NONE || v->shape_unknown || v->shape.rank == 0)
        return;
    kc_deps md = tt_deps_to_rank(tt_deps(mask), mask->shape.rank, v->shape.rank);
    uint8_t axes = (uint8_t)(md.axes & ((1u << v->shape.rank) - 1));
    if (!axes)
        return;
    uint8_t as_written = KC_FILL_UNDEF;
    if (!ts_node_is_null(othern)) {
        as_written = tt_fill_literal(c, othern);
        if (as_written == KC_FILL_NONE) {
            int64_t x;
            as_written = other && tt_is_const(other, &x) ? (x == 0 ? KC_FILL_ZERO : x > 0 ? KC_FILL_POS : KC_FILL_NEG)
                                                         : KC_FILL_ANY;
        }
    }
    v->junk_axes = axes;
    for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
        if ((axes >> ax) & 1) {
            v->fill[ax][KC_FILL_AS_WRITTEN] = as_written;
            v->fill[ax][KC_FILL_IF_ZERO] = KC_FILL_ZERO;
            v->fill[ax][KC_FILL_IF_NEG_INF] = KC_FILL_NEG_INF;
            v->fill[ax][KC_FILL_IF_POS_INF] = KC_FILL_POS_INF;
        }
    v->junk_load = acc;
}

static bool has_junk_on(const tv *v, unsigned ax)
{
    if (!((v->junk_axes >> ax) & 1))
        return false;
    return v->fill[ax][KC_FILL_AS_WRITTEN] != KC_FILL_NONE;
}

static void set_via(tt_ctx *c, tv *r, const tv *from, TSNode at)
{
    bool changed = false;
    for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
        if (((r->junk_axes >> ax) & 1) && r->fill[ax][KC_FILL_AS_WRITTEN] != from->fill[ax][KC_FILL_AS_WRITTEN])
            changed = true;
    if (changed && !ts_node_is_null(at)) {
        r->junk_via = tt_short_text(c, at);
        r->junk_via_span = tt_span(at);
    } else {
        r->junk_via = from->junk_via;
        r->junk_via_span = from->junk_via_span;
    }
}

/* What an operand is, as lanes masked out along axis `ax` of another
 * operand go, where it has none of its own: a literal's class, NONZERO
 * when uniform along that axis (a scalar, a broadcast row), else ANY (a
 * block with values of its own there: an accumulator, another load). */
static uint8_t plain_operand(tt_ctx *c, const tv *v, TSNode n, unsigned ax, unsigned rank)
{
    uint8_t lit = tt_fill_literal(c, n);
    if (lit != KC_FILL_NONE)
        return lit;
    int64_t k;
    if (tt_is_const(v, &k))
        return k == 0 ? KC_FILL_ZERO : k > 0 ? KC_FILL_POS : KC_FILL_NEG;
    if (v->shape_unknown || v->kind != TV_NUM || v->shape.rank > rank)
        return KC_FILL_ANY;
    kc_deps d = tt_deps_to_rank(tt_deps(v), v->shape.rank, rank);
    if ((d.axes >> ax) & 1)
        return KC_FILL_ANY;
    if (ax >= rank - v->shape.rank) {
        const kc_dim *dm = &v->shape.dims[ax - (rank - v->shape.rank)];
        if (!(dm->symbol == KC_NONE && dm->value == 1))
            return KC_FILL_ANY;
    }
    return KC_FILL_NONZERO;
}

/* Do loads `a` and `b` turn off the same lanes (their masks are the same
 * comparisons)? */
static bool same_lanes(tt_ctx *c, uint32_t a, uint32_t b)
{
    if (a == b)
        return true;
    if (a >= c->k->accesses.len || b >= c->k->accesses.len)
        return false;
    const kc_access *x = &c->k->accesses.data[a], *y = &c->k->accesses.data[b];
    if (x->mask_text && y->mask_text && !strcmp(x->mask_text, y->mask_text))
        return true;
    if (!x->nmask_preds || x->nmask_preds != y->nmask_preds)
        return false;
    for (uint32_t i = 0; i < x->nmask_preds; i++) {
        const kc_pred *p = &x->mask_preds[i];
        bool found = false;
        for (uint32_t j = 0; j < y->nmask_preds && !found; j++) {
            const kc_pred *q = &y->mask_preds[j];
            found = p->op == q->op && kc_index_equal(p->lhs, q->lhs) && kc_index_equal(p->rhs, q->rhs);
        }
        if (!found)
            return false;
    }
    return true;
}

static bool bad_fill(uint8_t f)
{
    return f == KC_FILL_UNDEF || f == KC_FILL_NAN;
}

void tt_junk_binop(tt_ctx *c, tv *r, const char *op, const tv *a, const tv *b, TSNode an, TSNode bn, TSNode at)
{
    bool ja = tt_junk(a), jb = tt_junk(b);
    tt_junk_clear(r);
    if ((!ja && !jb) || r->shape_unknown || r->kind != TV_NUM)
        return;
    unsigned rank = r->shape.rank;
    tv A = *r, B = *r;
    tt_junk_to_rank(&A, a);
    tt_junk_to_rank(&B, b);
    bool both = tt_junk(&A) && tt_junk(&B);
    bool same = both && same_lanes(c, a->junk_load, b->junk_load);
    /* Masks that turn off different lanes: a value carries one load's
     * lanes, so follow the operand whose lanes are undefined or NaN (its
     * lanes meet the other's own values, or its zeros); lanes of either
     * times zeros of the other are not followed (the zeros may cover them). */
    const tv *j = tt_junk(&A) ? &A : &B;
    bool drop_b = false, drop_a = false;
    if (same && a->junk_load != b->junk_load) {
        /* the same lanes from two loads: report the one that leaves them undefined */
        bool ua = false;
        for (unsigned ax = 0; ax < rank && ax < KC_MAX_RANK; ax++)
            ua |= has_junk_on(&A, ax) && bad_fill(A.fill[ax][0]);
        if (!ua)
            j = &B;
    }
    if (both && !same) {
        bool ua = false, ub = false, za = false, zb = false;
        for (unsigned ax = 0; ax < rank && ax < KC_MAX_RANK; ax++) {
            ua |= has_junk_on(&A, ax) && bad_fill(A.fill[ax][0]);
            ub |= has_junk_on(&B, ax) && bad_fill(B.fill[ax][0]);
            za |= has_junk_on(&A, ax) && A.fill[ax][0] == KC_FILL_ZERO;
            zb |= has_junk_on(&B, ax) && B.fill[ax][0] == KC_FILL_ZERO;
        }
        if (!strcmp(op, "*") && (za || zb))
            return;
        if (ua) {
            drop_b = true;
        } else if (ub) {
            drop_a = true;
            j = &B;
        } else {
            return;
        }
    }
    for (unsigned ax = 0; ax < rank && ax < KC_MAX_RANK; ax++) {
        bool ia = !drop_a && has_junk_on(&A, ax), ib = !drop_b && has_junk_on(&B, ax);
        if (!ia && !ib)
            continue;
        uint8_t pa = ia ? 0 : (drop_a ? KC_FILL_ANY : plain_operand(c, a, an, ax, rank));
        uint8_t pb = ib ? 0 : (drop_b ? KC_FILL_ANY : plain_operand(c, b, bn, ax, rank));
        for (unsigned h = 0; h < KC_FILL_NHYP; h++) {
            uint8_t x = ia ? A.fill[ax][h] : pa, y = ib ? B.fill[ax][h] : pb;
            /* Two loads of the same lanes: a hypothesis fixes the tracked
             * one, and the other too when it is undefined as well (it is
             * reported, with the same fix); else it stays as written. */
            if (ia && ib && a->junk_load != b->junk_load) {
                const tv *other = j == &A ? &B : &A;
                uint8_t as_written = other->fill[ax][KC_FILL_AS_WRITTEN];
                if (as_written != KC_FILL_UNDEF) {
                    if (j == &A)
                        y = as_written;
                    else
                        x = as_written;
                }
            }
            r->fill[ax][h] = combine(op, x, y);
        }
        r->junk_axes |= (uint8_t)(1u << ax);
    }
    r->junk_load = j->junk_load;
    set_via(c, r, j, at);
}

void tt_junk_unary(tt_ctx *c, tv *r, const char *fn, const tv *x, TSNode at)
{
    if (!tt_junk(x) || r->shape_unknown) {
        tt_junk_clear(r);
        return;
    }
    tv X = *r;
    tt_junk_to_rank(&X, x);
    tt_junk_clear(r);
    for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
        if ((X.junk_axes >> ax) & 1)
            for (unsigned h = 0; h < KC_FILL_NHYP; h++)
                r->fill[ax][h] = apply_fn(fn, X.fill[ax][h]);
    r->junk_axes = X.junk_axes;
    r->junk_load = X.junk_load;
    set_via(c, r, &X, at);
}

/* How `cond` of a tl.where splits, along each axis of a rank-`rank` block,
 * the lanes of load `load`: pol[ax] = +1 it is true on the lanes the load's
 * mask keeps along ax (a comparison of that mask, or a bound `idx < n` on
 * an index varying along ax), so the masked-out lanes take the false
 * branch; -1 it is true on them (`idx >= n`); 0 kcheck cannot tell (taken
 * to pick the other branch, as intended); 2 nothing bounds that axis (the
 * lanes go through unchanged: `k >= offs_m`, a causal mask, or a bound on
 * rows only). */
static void cond_polarity(tt_ctx *c, const tv *cond, uint32_t load, unsigned rank, int *pol)
{
    for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
        pol[ax] = 0;
    if (cond->kind != TV_BOOL || cond->npreds == 0)
        return;
    for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
        pol[ax] = 2;
    const kc_access *ld = load < c->k->accesses.len ? &c->k->accesses.data[load] : NULL;
    for (uint32_t i = 0; i < cond->npreds; i++) {
        const kc_pred *p = &cond->preds[i];
        if (!p->lhs || !p->rhs) {
            for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
                pol[ax] = pol[ax] == 2 ? 0 : pol[ax];
            continue;
        }
        kc_deps l = tt_deps_to_rank(kc_index_deps(p->lhs), p->lhs->shape.rank, rank);
        kc_deps rr = tt_deps_to_rank(kc_index_deps(p->rhs), p->rhs->shape.rank, rank);
        bool mask_pred = false;
        for (uint32_t j = 0; ld && j < ld->nmask_preds && !mask_pred; j++) {
            const kc_pred *q = &ld->mask_preds[j];
            mask_pred = q->op == p->op && kc_index_equal(q->lhs, p->lhs) && kc_index_equal(q->rhs, p->rhs);
        }
        int here;
        if (mask_pred)
            here = 1;
        else if ((l.axes != 0) != (rr.axes != 0)) {
            int below = p->op == KC_CMP_LT || p->op == KC_CMP_LE ? 1 : p->op == KC_CMP_GT || p->op == KC_CMP_GE ? -1 : 0;
            here = l.axes ? below : -below;
        } else
            continue;
        uint8_t axes = l.axes | rr.axes;
        for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
            if ((axes >> ax) & 1)
                pol[ax] = here;
    }
}

/* Along axis ax, the masked-out lanes of `r` take branch `br` (node bn):
 * that branch's own masked-out lanes there, a literal, or its values
 * (not tracked). */
static void take_branch(tt_ctx *c, tv *r, unsigned ax, const tv *br, TSNode bn)
{
    if (has_junk_on(br, ax)) {
        memcpy(r->fill[ax], br->fill[ax], sizeof r->fill[ax]);
        r->junk_axes |= (uint8_t)(1u << ax);
        return;
    }
    uint8_t lit = tt_fill_literal(c, bn);
    if (lit == KC_FILL_NONE)
        return;
    for (unsigned h = 0; h < KC_FILL_NHYP; h++)
        r->fill[ax][h] = lit;
    r->junk_axes |= (uint8_t)(1u << ax);
}

void tt_junk_where(tt_ctx *c, tv *r, const tv *cond, const tv *a, const tv *b, TSNode an, TSNode bn)
{
    bool ja = tt_junk(a), jb = tt_junk(b);
    tt_junk_clear(r);
    if ((!ja && !jb) || r->shape_unknown)
        return;
    unsigned rank = r->shape.rank;
    tv A = *r, B = *r;
    tt_junk_to_rank(&A, a);
    tt_junk_to_rank(&B, b);
    const tv *j = ja ? &A : &B;
    int pol[KC_MAX_RANK];
    cond_polarity(c, cond, j->junk_load, rank, pol);
    for (unsigned ax = 0; ax < rank && ax < KC_MAX_RANK; ax++) {
        bool ia = has_junk_on(&A, ax), ib = has_junk_on(&B, ax);
        if (!ia && !ib)
            continue;
        if (pol[ax] == 2)
            take_branch(c, r, ax, ia ? &A : &B, (TSNode){0});
        else if (pol[ax] == 0) {
            if (!(ia && ib))
                take_branch(c, r, ax, ia ? &B : &A, ia ? bn : an);
        } else if (pol[ax] > 0)
            take_branch(c, r, ax, &B, bn);
        else
            take_branch(c, r, ax, &A, an);
    }
    if (r->junk_axes) {
        r->junk_load = j->junk_load;
        r->junk_via = j->junk_via;
        r->junk_via_span = j->junk_via_span;
    }
}

/* ---- uses that combine lanes ---- */

static kc_sink_kind sink_of(const char *name)
{
    if (!strcmp(name, "sum"))
        return KC_SINK_SUM;
    if (!strcmp(name, "max") || !strcmp(name, "argmax"))
        return KC_SINK_MAX;
    if (!strcmp(name, "min") || !strcmp(name, "argmin"))
        return KC_SINK_MIN;
    return KC_SINK_OTHER;
}

static void record_flow(tt_ctx *c, TSNode call, TSNode calleen, kc_sink_kind kind, int axis, bool dot,
                        const tv *x, const uint8_t *fill)
{
    kc_lane_flow f;
    memset(&f, 0, sizeof f);
    f.span = tt_span(call);
    f.sink = ts_node_is_null(calleen) ? "the reduction" : tt_short_text(c, calleen);
    f.kind = kind;
    f.axis = axis;
    f.dot = dot;
    f.load = x->junk_load;
    memcpy(f.fill, fill, sizeof f.fill);
    f.via = x->junk_via;
    f.via_span = x->junk_via_span;
    f.loop = c->loop;
    kc_vec_push(&c->k->lane_flows, f);
}

void tt_junk_reduce(tt_ctx *c, TSNode call, TSNode calleen, const char *name, const tv *x, TSNode axisn)
{
    if (!tt_junk(x) || x->shape_unknown)
        return;
    int axis = -1;
    if (!ts_node_is_null(axisn)) {
        tv ax = c->eval(c, axisn);
        int64_t a;
        if (ax.kind != TV_NONE) {
            if (!tt_is_const(&ax, &a))
                return;
            if (a < 0)
                a += x->shape.rank;
            if (a < 0 || a >= x->shape.rank)
                return;
            axis = (int)a;
        }
    }
    if (axis >= 0) {
        if (has_junk_on(x, (unsigned)axis)) /* else the masked-out lanes stay in rows of their own */
            record_flow(c, call, calleen, sink_of(name), axis, false, x, x->fill[axis]);
        return;
    }
    for (unsigned ax = 0; ax < x->shape.rank && ax < KC_MAX_RANK; ax++)
        if (has_junk_on(x, ax))
            record_flow(c, call, calleen, sink_of(name), -1, false, x, x->fill[ax]);
}

void tt_junk_dot(tt_ctx *c, TSNode call, TSNode calleen, const tv *a, const tv *b)
{
    if (a->shape_unknown || b->shape_unknown || a->shape.rank < 2 || b->shape.rank < 2)
        return;
    unsigned ka = a->shape.rank - 1, kb = b->shape.rank - 2;
    bool ia = has_junk_on(a, ka), ib = has_junk_on(b, kb);
    for (int side = 0; side < 2; side++) {
        if (!(side ? ib : ia))
            continue;
        const tv *x = side ? b : a, *y = side ? a : b;
        unsigned kx = side ? kb : ka, ky = side ? ka : kb;
        bool iy = side ? ia : ib;
        uint8_t fill[KC_FILL_NHYP];
        /* What is summed is the product of the two operands' K lanes: the
         * other operand's lanes there are its own masked-out lanes (taken
         * to be fixed the same way when they are undefined too, or come
         * from the same load) or its values. */
        for (unsigned h = 0; h < KC_FILL_NHYP; h++) {
            uint8_t yf = KC_FILL_ANY;
            if (iy)
                yf = y->fill[ky][y->junk_load == x->junk_load || y->fill[ky][0] == KC_FILL_UNDEF ? h : 0];
            fill[h] = combine("*", x->fill[kx][h], yf);
        }
        record_flow(c, call, calleen, KC_SINK_SUM, (int)kx, true, x, fill);
    }
}
