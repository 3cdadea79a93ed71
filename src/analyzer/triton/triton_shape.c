/* triton_shape.c — arithmetic on blocks and what it does to their shapes:
 * shapes written as tuples; arithmetic, comparisons and boolean
 * combinations (with the integer products KC304 checks); broadcasting by
 * subscripts (x[:, None]); reductions, reshapes (with the reorders KC301
 * tracks) and permutations. Calls triton_value.c; the value a subscript
 * applies to is evaluated through the context's `eval`.
 */
#include "triton_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- shapes from tuples ---- */

static kc_dim dim_of(const tv *v)
{
    kc_dim d = {-1, KC_NONE};
    int64_t x;
    if (tt_is_const(v, &x))
        d.value = x;
    if (v->sym != KC_NONE)
        d.symbol = v->sym;
    return d;
}

bool tt_shape_from(const tv *v, kc_shape *s)
{
    memset(s, 0, sizeof *s);
    if (v->kind == TV_TUPLE) {
        if (v->ntuple > KC_MAX_RANK)
            return false;
        s->rank = (uint8_t)v->ntuple;
        for (uint32_t i = 0; i < v->ntuple; i++)
            s->dims[i] = dim_of(&v->tuple[i]);
        return true;
    }
    if (v->kind == TV_NUM) { /* tl.zeros(BLOCK, ...) is not valid, but [BLOCK] is */
        s->rank = 1;
        s->dims[0] = dim_of(v);
        return true;
    }
    return false;
}

static void format_dim(tt_ctx *c, const kc_dim *d, kc_strbuf *sb)
{
    if (d->symbol != KC_NONE && d->symbol < c->k->symbols.len)
        kc_sb_append(sb, c->k->symbols.data[d->symbol].name);
    else if (d->value >= 0)
        kc_sb_appendf(sb, "%" PRId64, d->value);
    else
        kc_sb_append(sb, "?");
}

/* ---- arithmetic ---- */

const char *tt_op_of(TSNode n)
{
    TSNode op = tt_field(n, "operator");
    if (!ts_node_is_null(op))
        return ts_node_type(op);
    /* a comparison's operators have no single field: its last one */
    const char *last = "";
    for (uint32_t i = 0; TT_IS(n, comparison_operator) && i < ts_node_child_count(n); i++)
        if (!ts_node_is_named(ts_node_child(n, i)))
            last = ts_node_type(ts_node_child(n, i));
    return last;
}

tv tt_num_of(tt_ctx *c, const tv *v, TSNode at)
{
    if (v->kind == TV_NUM && v->idx)
        return *v;
    tv r = tt_opaque(c, at, tt_deps(v), &v->shape, v->bits);
    r.taint = v->taint;
    r.ce = v->ce;
    r.is_float = v->is_float;
    r.shape_unknown = v->shape_unknown;
    r.from_dot = v->from_dot;
    r.prods = v->prods;
    r.vague = v->vague;
    r.elt = v->elt;
    return r;
}

static kc_cmp cmp_of(const char *op)
{
    if (!strcmp(op, "<"))
        return KC_CMP_LT;
    if (!strcmp(op, "<="))
        return KC_CMP_LE;
    if (!strcmp(op, ">"))
        return KC_CMP_GT;
    if (!strcmp(op, ">="))
        return KC_CMP_GE;
    if (!strcmp(op, "=="))
        return KC_CMP_EQ;
    if (!strcmp(op, "!=") || !strcmp(op, "<>"))
        return KC_CMP_NE;
    return 0;
}

static bool varies(const tv *v)
{
    kc_deps d = tt_deps(v);
    return d.axes || (d.flags & (KC_AF_THREAD | KC_AF_PROGRAM)) || d.loops;
}

/* An upper bound that is the smaller of two (`x < tl.minimum(B, n - s)`,
 * `min(B, n - s) > x`) is both bounds: p (two slots) becomes `x < B` and
 * `x < n - s`. p[1].op stays 0 otherwise. */
static void split_min_bound(const tv *a, const tv *b, kc_pred *p)
{
    memset(&p[1], 0, sizeof p[1]);
    bool upper_rhs = p->op == KC_CMP_LT || p->op == KC_CMP_LE;
    bool upper_lhs = p->op == KC_CMP_GT || p->op == KC_CMP_GE;
    const tv *m = upper_rhs ? b : upper_lhs ? a : NULL;
    if (!m || m->kind != TV_NUM || !m->min_of[0] || !m->min_of[1] || !p->lhs || !p->rhs)
        return;
    p[1] = p[0];
    if (upper_rhs) {
        p[0].rhs = m->min_of[0];
        p[1].rhs = m->min_of[1];
    } else {
        p[0].lhs = m->min_of[0];
        p[1].lhs = m->min_of[1];
    }
}

/* Does `x` hold 0 in every lane that its load's mask turned off (`c =
 * tl.load(p, mask=m, other=0)`, and values computed from it that keep
 * them 0)? */
static bool zero_outside_load_mask(const tt_ctx *c, const tv *x)
{
    if (!x->junk_axes || x->junk_load >= c->k->accesses.len)
        return false;
    for (unsigned ax = 0; ax < KC_MAX_RANK; ax++)
        if ((x->junk_axes & (1u << ax)) && x->fill[ax][KC_FILL_AS_WRITTEN] != KC_FILL_ZERO)
            return false;
    return c->k->accesses.data[x->junk_load].nmask_preds > 0;
}

/* `x > 0`, `x != 0` (or mirrored) with x 0 wherever its load's mask is off
 * holds only where that mask holds: the load's bounds are the result's
 * too (`x_mask = cnt > 0` after `cnt = tl.load(..., mask=k < n, other=0)`
 * bounds k by n). Appends them to r. */
static void implied_load_bounds(tt_ctx *c, tv *r, kc_cmp cmp, const tv *a, const tv *b, TSNode an, TSNode bn)
{
    const tv *x = NULL;
    if ((cmp == KC_CMP_GT || cmp == KC_CMP_NE) && tt_fill_literal(c, bn) == KC_FILL_ZERO)
        x = a;
    else if ((cmp == KC_CMP_LT || cmp == KC_CMP_NE) && tt_fill_literal(c, an) == KC_FILL_ZERO)
        x = b;
    if (!x || !zero_outside_load_mask(c, x))
        return;
    const kc_access *ld = &c->k->accesses.data[x->junk_load];
    kc_pred *p = kc_arena_alloc(c->a, (r->npreds + ld->nmask_preds) * sizeof *p);
    memcpy(p, r->preds, r->npreds * sizeof *p);
    memcpy(p + r->npreds, ld->mask_preds, ld->nmask_preds * sizeof *p);
    r->preds = p;
    r->npreds += ld->nmask_preds;
}

tv tt_compare(tt_ctx *c, TSNode at, const char *op, const tv *a, const tv *b, TSNode an, TSNode bn)
{
    tv r = tt_unknown();
    r.kind = TV_BOOL;
    r.shape = tt_shape_of2(a, b);
    r.shape_unknown = a->shape_unknown || b->shape_unknown;
    r.ce = a->ce && b->ce;
    r.deps = tt_deps_or(tt_deps_to_rank(tt_deps(a), a->shape.rank, r.shape.rank),
                     tt_deps_to_rank(tt_deps(b), b->shape.rank, r.shape.rank));
    r.taint = a->taint | b->taint;
    r.random = (a->random && (b->random || !tt_has_extent(b))) || (b->random && !tt_has_extent(a));
    r.vague = tt_is_vague(a) || tt_is_vague(b);
    r.elt = TT_ELT_BOOL;
    tt_observe_combine(c, a, b, at, "compared with", an, bn);
    kc_cmp cmp = cmp_of(op);
    if (cmp) {
        kc_pred *p = kc_arena_alloc(c->a, 2 * sizeof *p);
        p->op = cmp;
        p->lhs = a->kind == TV_NUM ? a->idx : NULL;
        p->rhs = b->kind == TV_NUM ? b->idx : NULL;
        p->span = tt_span(at);
        r.preds = p;
        r.npreds = 1;
        split_min_bound(a, b, p);
        if (p[1].op)
            r.npreds = 2;
        for (uint32_t i = 0; i < r.npreds; i++)
            if (cmp != KC_CMP_EQ && cmp != KC_CMP_NE && p[i].lhs && p[i].rhs && !a->is_float && !b->is_float)
                kc_vec_push(&c->k->compares, p[i]);
        if (p->lhs && p->rhs && !a->is_float && !b->is_float && !c->asserting &&
            ((kc_index_deps(p->lhs).flags | kc_index_deps(p->rhs).flags) & KC_AF_DATA)) {
            kc_test t = {.pred = *p, .cond = c->cond};
            kc_vec_push(&c->k->data_tests, t);
        }
        if (cmp != KC_CMP_EQ && cmp != KC_CMP_NE) {
            char *ev = kc_xasprintf("it bounds `%s` on line %u", tt_text(c->mod, at),
                                    ts_node_start_point(at).row + 1);
            if (varies(a) && !varies(b))
                tt_mark_size(c, b->idx, ev, true);
            else if (varies(b) && !varies(a))
                tt_mark_size(c, a->idx, ev, true);
            free(ev);
        }
        implied_load_bounds(c, &r, cmp, a, b, an, bn);
    }
    return r;
}

tv tt_bool_combine(tt_ctx *c, const tv *a, const tv *b, bool is_and)
{
    tv r = tt_unknown();
    r.kind = TV_BOOL;
    r.shape = tt_shape_of2(a, b);
    r.shape_unknown = a->shape_unknown || b->shape_unknown;
    r.ce = a->ce && b->ce;
    r.deps = tt_deps_or(tt_deps_to_rank(tt_deps(a), a->shape.rank, r.shape.rank),
                     tt_deps_to_rank(tt_deps(b), b->shape.rank, r.shape.rank));
    r.taint = a->taint | b->taint;
    r.vague = tt_is_vague(a) || tt_is_vague(b);
    r.elt = TT_ELT_BOOL;
    if (is_and && a->kind == TV_BOOL && b->kind == TV_BOOL) {
        uint32_t n = a->npreds + b->npreds;
        kc_pred *p = kc_arena_alloc(c->a, (n ? n : 1) * sizeof *p);
        if (a->npreds)
            memcpy(p, a->preds, a->npreds * sizeof *p);
        if (b->npreds)
            memcpy(p + a->npreds, b->preds, b->npreds * sizeof *p);
        r.preds = p;
        r.npreds = n;
    }
    return r;
}

/* The operand spelled so that it is computed in 64 bits. */
static const char *widened(tt_ctx *c, TSNode n)
{
    TSNode u = n;
    const char *t = tt_text(c->mod, n);
    if (strchr(t, '\n'))
        return NULL;
    bool simple = TT_IS(u, identifier) || TT_IS(u, call) || TT_IS(u, subscript) ||
                  TT_IS(u, attribute) || TT_IS(u, parenthesized_expression);
    return simple ? kc_arena_printf(c->a, "%s.to(%s.int64)", t, c->tl_alias)
                  : kc_arena_printf(c->a, "(%s).to(%s.int64)", t, c->tl_alias);
}

/* An integer product of two values that both vary at run time (KC304). */
static void record_product(tt_ctx *c, TSNode at, TSNode an, TSNode bn, const tv *x, const tv *y, tv *r)
{
    int64_t k;
    if (!x->idx || !y->idx || !r->idx || x->is_float || y->is_float || r->is_float ||
        kc_index_is_const(x->idx, &k) || kc_index_is_const(y->idx, &k) || ts_node_is_null(an) || ts_node_is_null(bn))
        return;
    if (tt_elt_low(x->elt) || tt_elt_low(y->elt) || x->elt == TT_ELT_FP32 || y->elt == TT_ELT_FP32 ||
        x->elt == TT_ELT_FP64 || y->elt == TT_ELT_FP64 || x->elt == TT_ELT_PYFLOAT || y->elt == TT_ELT_PYFLOAT)
        return;
    r->prods |= 1ull << (c->k->products.len % 64);
    kc_product p;
    memset(&p, 0, sizeof p);
    p.span = tt_span(at);
    p.text = tt_short_text(c, at);
    p.value = r->idx;
    p.lhs = x->idx;
    p.rhs = y->idx;
    p.lhs_span = tt_span(an);
    p.rhs_span = tt_span(bn);
    p.lhs_text = tt_short_text(c, an);
    p.rhs_text = tt_short_text(c, bn);
    p.lhs_widened = widened(c, an);
    p.rhs_widened = widened(c, bn);
    p.bits = r->bits;
    kc_vec_push(&c->k->products, p);
}

/* Is x a program id itself (`tl.program_id(0)`, `pid`), not a value made
 * from one (a remainder of an earlier split, a merge of branches)? */
static bool is_program_id(const kc_index *x)
{
    return x && x->nmono == 1 && x->mono[0].coef == 1 && x->mono[0].nfac == 1 &&
           x->mono[0].fac[0].kind == KC_ATOM_PROGRAM;
}

/* The assignments `name = ...` in a function (tt_walk visitor). */
typedef struct assign_scan {
    tt_module *m;
    const char *name;
    TSNode right;
    uint32_t seen;
} assign_scan;

static bool visit_assign(TSNode n, void *ud)
{
    assign_scan *as = ud;
    if (TT_IS(n, assignment) && tt_text_eq(as->m, tt_field(n, "left"), as->name)) {
        as->right = tt_field(n, "right");
        as->seen++;
    }
    return true;
}

/* Is the divisor `d` (a name assigned once in the function, or the call
 * itself) `tl.cdiv(A, B)` with every launch passing B =
 * triton.next_power_of_2(A) (kc_symbol.at_least_symbol), so that it is 1:
 * `pid % NK` is then 0 and `pid // NK` the whole id (NK = tl.cdiv(K, BK),
 * BK covering K). */
static bool divisor_is_one(tt_ctx *c, TSNode d)
{
    tt_module *md = c->mod;
    d = tt_unparen(d);
    if (TT_IS(d, identifier)) {
        TSNode fn = tt_enclosing_function(d);
        assign_scan as = {.m = md, .name = tt_text(md, d)};
        if (!ts_node_is_null(fn))
            tt_walk(fn, visit_assign, &as);
        if (as.seen != 1)
            return false;
        d = tt_unparen(as.right);
    }
    if (!TT_IS(d, call))
        return false;
    const char *q = tt_qualify(md, tt_field(d, "function"));
    if (!q || (strcmp(q, "triton.cdiv") && strcmp(q, "triton.language.cdiv")))
        return false;
    TSNode args = tt_field(d, "arguments");
    if (ts_node_named_child_count(args) != 2)
        return false;
    uint32_t a = kc_kernel_find_symbol(c->k, tt_text(md, ts_node_named_child(args, 0)));
    uint32_t b = kc_kernel_find_symbol(c->k, tt_text(md, ts_node_named_child(args, 1)));
    return a != KC_NONE && b != KC_NONE && b < c->k->symbols.len && c->k->symbols.data[b].at_least_symbol == a &&
           !c->k->symbols.data[b].at_least_cap;
}

/* A binary operator `op` with the given operand texts (tt_walk visitor). */
typedef struct binop_scan {
    tt_module *m;
    const char *op, *left, *right;
    bool found;
} binop_scan;

static bool visit_binop(TSNode n, void *ud)
{
    binop_scan *bs = ud;
    if (!bs->found && TT_IS(n, binary_operator) && !strcmp(tt_op_of(n), bs->op) &&
        !strcmp(tt_text(bs->m, tt_field(n, "left")), bs->left) && !strcmp(tt_text(bs->m, tt_field(n, "right")), bs->right))
        bs->found = true;
    return !bs->found;
}

/* `:`, `None:`, `:None`, `None:None:None`: a slice that keeps the whole
 * axis (Triton, like Python, takes slice(None, None, None) for `:`). */
static bool full_slice(TSNode it)
{
    uint32_t n = ts_node_named_child_count(it);
    for (uint32_t i = 0; i < n; i++)
        if (!TT_IS(ts_node_named_child(it, i), none))
            return false;
    return true;
}

/* Is the binary operator `at` (`x // n` or `x % n`) one half of a split of
 * x, its partner (`x % n`, `x // n`) written with the same operands in the
 * same function? */
static bool divmod_pair(tt_module *md, TSNode at, const char *op)
{
    TSNode fn = tt_enclosing_function(at);
    if (ts_node_is_null(fn) || !TT_IS(at, binary_operator))
        return false;
    binop_scan bs = {.m = md, .op = op[0] == '/' ? "%" : "//", .left = tt_text(md, tt_field(at, "left")),
                     .right = tt_text(md, tt_field(at, "right"))};
    tt_walk(fn, visit_binop, &bs);
    return bs.found;
}

tv tt_binop(tt_ctx *c, TSNode at, const char *op, tv a, tv b, TSNode an, TSNode bn)
{
    if (cmp_of(op))
        return tt_compare(c, at, op, &a, &b, an, bn);
    if ((!strcmp(op, "&") || !strcmp(op, "|")) && (a.kind == TV_BOOL || b.kind == TV_BOOL)) {
        tt_observe_combine(c, &a, &b, at, "combined with", an, bn);
        return tt_bool_combine(c, &a, &b, op[0] == '&');
    }
    /* Pointer arithmetic. */
    if (a.kind == TV_PTR || b.kind == TV_PTR) {
        bool a_ptr = a.kind == TV_PTR;
        tv p = a_ptr ? a : b, o = a_ptr ? b : a;
        if ((!strcmp(op, "+") || (!strcmp(op, "-") && a_ptr)) && o.kind != TV_PTR) {
            tt_observe_combine(c, &a, &b, at, "added to", an, bn);
            tv r = p;
            tv on = tt_num_of(c, &o, a_ptr ? bn : an);
            const kc_index *off = p.idx ? p.idx : kc_index_const(c->a, 0, 32, KC_SPACE_BLOCK);
            r.idx = !strcmp(op, "+") ? kc_index_add(c->a, off, on.idx) : kc_index_sub(c->a, off, on.idx);
            r.shape = tt_shape_of2(&p, &o);
            if (!r.idx)
                r.idx = tt_opaque(c, at, tt_deps_or(tt_deps(&p), tt_deps(&o)), &r.shape, 64).idx;
            r.taint = p.taint | o.taint;
            r.deps = tt_deps_or(tt_deps_to_rank(p.deps, p.shape.rank, r.shape.rank),
                             tt_deps_to_rank(o.deps, o.shape.rank, r.shape.rank));
            r.shape_unknown = p.shape_unknown || o.shape_unknown;
            r.vague = tt_is_vague(&p) || tt_is_vague(&o);
            r.prods = p.prods | o.prods;
            r.ce = false;
            return r;
        }
        tv r = tt_unknown();
        r.shape = tt_shape_of2(&a, &b);
        r.deps = tt_deps_or(tt_deps(&a), tt_deps(&b));
        return r;
    }
    if (a.kind == TV_TUPLE || b.kind == TV_TUPLE || a.kind == TV_STR || b.kind == TV_STR) {
        tv r = tt_unknown();
        r.ce = a.ce && b.ce;
        return r;
    }
    tt_observe_combine(c, &a, &b, at, "combined element-wise with", an, bn);
    tv x = tt_num_of(c, &a, an), y = tt_num_of(c, &b, bn);
    kc_shape s = tt_shape_of2(&x, &y);
    const kc_index *res = NULL;
    bool affine = true;
    if (!strcmp(op, "+"))
        res = kc_index_add(c->a, x.idx, y.idx);
    else if (!strcmp(op, "-"))
        res = kc_index_sub(c->a, x.idx, y.idx);
    else if (!strcmp(op, "*"))
        res = kc_index_mul(c->a, x.idx, y.idx);
    else if (!strcmp(op, "<<")) {
        int64_t sh;
        if (tt_is_const(&y, &sh) && sh >= 0 && sh < 62)
            res = kc_index_scale(c->a, x.idx, (int64_t)1 << sh);
        else
            affine = false;
    } else if (!strcmp(op, "//")) {
        int64_t dv, nv;
        if (tt_is_const(&y, &dv) && dv == 1)
            res = x.idx;
        else if (tt_is_const(&x, &nv) && tt_is_const(&y, &dv) && dv > 0) {
            int64_t q = nv / dv;
            if ((nv % dv != 0) && ((nv < 0) != (dv < 0)))
                q--;
            res = kc_index_const(c->a, q, 32, KC_SPACE_BLOCK);
        } else
            affine = false;
    } else if (!strcmp(op, "%")) {
        int64_t dv, nv;
        if (tt_is_const(&x, &nv) && tt_is_const(&y, &dv) && dv > 0)
            res = kc_index_const(c->a, ((nv % dv) + dv) % dv, 32, KC_SPACE_BLOCK);
        else
            affine = false;
    } else {
        affine = false;
    }
    tv r;
    if (res) {
        r = tt_unknown();
        r.kind = TV_NUM;
        r.idx = res;
        r.shape = s;
    } else {
        kc_deps dx = tt_deps_to_rank(tt_deps(&x), x.shape.rank, s.rank),
                dy = tt_deps_to_rank(tt_deps(&y), y.shape.rank, s.rank);
        /* `pid // n` and `pid % n`, both written: each keeps its half of
         * the program id (KC404); a lone `(pid * B + offs) % M` wraps */
        bool divmod = (!strcmp(op, "//") || !strcmp(op, "%")) && is_program_id(x.idx) && divmod_pair(c->mod, at, op);
        kc_deps d = divmod ? kc_deps_divmod(dx, dy, op[0] == '/') : tt_deps_or(dx, dy);
        if (divmod && divisor_is_one(c, bn)) { /* `pid % 1` is 0, `pid // 1` the id */
            d = tt_deps_or(dx, dy);
            if (op[0] == '%') {
                d.programs = 0;
                d.flags &= (uint8_t)~KC_AF_PROGRAM;
            }
        }
        r = tt_opaque(c, at, d, &s, x.bits > y.bits ? x.bits : y.bits);
        (void)affine;
        TSNode summed;
        if (op[0] == '/' && op[1] == '/' && tt_rounding_sum(tt_field(at, "left"), &summed)) {
            r.tile_count = true; /* (n + B - 1) // B */
            r.tile_count_of = KC_NONE;
        } else if (op[0] == '%' && y.tile_count && r.idx->nmono == 1 && r.idx->mono[0].nfac == 1) {
            kc_opaque *o = &c->k->opaques.data[r.idx->mono[0].fac[0].id];
            o->mod_tiles = true;
            o->tiles_of = y.tile_count_of;
        }
    }
    r.bits = x.bits > y.bits ? x.bits : y.bits;
    if (res && r.idx->bits != r.bits)
        r.idx = kc_index_cast(c->a, r.idx, r.bits);
    r.ce = x.ce && y.ce;
    r.is_float = x.is_float || y.is_float || !strcmp(op, "/") || !strcmp(op, "**");
    r.taint = x.taint | y.taint;
    r.shape_unknown = x.shape_unknown || y.shape_unknown;
    r.from_dot = x.from_dot || y.from_dot;
    r.random = (a.random && (b.random || !tt_has_extent(&b))) || (b.random && !tt_has_extent(&a));
    r.vague = tt_is_vague(&a) || tt_is_vague(&b);
    r.prods = x.prods | y.prods;
    if (!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^") || !strcmp(op, "<<") || !strcmp(op, ">>"))
        r.elt = tt_elt_promote(a.elt, b.elt, false) == TT_ELT_UNKNOWN ? TT_ELT_UNKNOWN : TT_ELT_INT;
    else
        r.elt = tt_elt_promote(a.elt, b.elt, !strcmp(op, "/") || !strcmp(op, "%") || !strcmp(op, "//"));
    tt_fp64_binop(c, &r, &a, &b, at);
    if (!strcmp(op, "*"))
        record_product(c, at, an, bn, &x, &y, &r);
    tt_junk_binop(c, &r, op, &a, &b, an, bn, at);
    return r;
}

/* ---- broadcasting by subscripts: x[:, None], x[None, :] ---- */

tv tt_subscript(tt_ctx *c, TSNode n)
{
    TSNode valn = tt_field(n, "value");
    tv v = c->eval(c, valn);
    /* Collect the subscript items (tree-sitter gives one "subscript" field
     * per item). */
    TSNode items[KC_MAX_RANK + 1];
    uint32_t ni = tt_field_children(n, "subscript", items, KC_MAX_RANK + 1);
    if (ni > KC_MAX_RANK + 1)
        return tt_unknown();
    if (v.kind == TV_TUPLE && ni == 1) {
        int64_t i;
        tv iv = c->eval(c, items[0]);
        if (tt_is_const(&iv, &i)) {
            if (i < 0)
                i += v.ntuple;
            if (i >= 0 && (uint64_t)i < v.ntuple)
                return v.tuple[i];
        }
        tv r = tt_unknown();
        r.ce = v.ce;
        return r;
    }
    if (v.kind != TV_NUM && v.kind != TV_BOOL && v.kind != TV_PTR)
        return tt_unknown();
    /* Only None and ':' items are broadcasts. */
    uint8_t map[KC_MAX_RANK];
    kc_shape s = {0};
    unsigned src_axis = 0;
    for (uint32_t i = 0; i < ni; i++) {
        TSNode it = items[i];
        if (TT_IS(it, none)) {
            if (s.rank >= KC_MAX_RANK)
                return tt_unknown();
            s.dims[s.rank].value = 1;
            s.dims[s.rank].symbol = KC_NONE;
            s.rank++;
        } else if (TT_IS(it, slice) && full_slice(it)) {
            if (src_axis >= v.shape.rank || s.rank >= KC_MAX_RANK) {
                tv r = tt_unknown();
                r.deps = tt_deps(&v);
                r.random = v.random;
                r.taint = v.taint;
                r.shape_unknown = true;
                return r;
            }
            map[src_axis] = s.rank;
            s.dims[s.rank++] = v.shape.dims[src_axis++];
        } else if (TT_IS(it, ellipsis)) {
            while (src_axis < v.shape.rank && s.rank < KC_MAX_RANK) {
                map[src_axis] = s.rank;
                s.dims[s.rank++] = v.shape.dims[src_axis++];
            }
        } else {
            /* an integer index picks a slice: same kind of values */
            tv r = tt_unknown();
            r.deps = tt_deps(&v);
            r.random = v.random;
            r.taint = v.taint;
            r.shape_unknown = true;
            return r;
        }
    }
    while (src_axis < v.shape.rank && s.rank < KC_MAX_RANK) {
        map[src_axis] = s.rank;
        s.dims[s.rank++] = v.shape.dims[src_axis++];
    }
    tv r = v;
    r.shape = s;
    if (v.idx)
        r.idx = kc_index_remap(c->a, v.idx, &s, map);
    if (v.kind == TV_BOOL && v.npreds && v.preds) {
        /* the comparisons move with the block: `m[:, None]` tests along axis 0 */
        kc_pred *np = kc_arena_alloc(c->a, v.npreds * sizeof *np);
        for (uint32_t i = 0; i < v.npreds; i++) {
            np[i] = v.preds[i];
            if (np[i].lhs && np[i].lhs->shape.rank == v.shape.rank)
                np[i].lhs = kc_index_remap(c->a, np[i].lhs, &s, map);
            if (np[i].rhs && np[i].rhs->shape.rank == v.shape.rank)
                np[i].rhs = kc_index_remap(c->a, np[i].rhs, &s, map);
        }
        r.preds = np;
    }
    r.deps.axes = 0;
    for (unsigned i = 0; i < v.shape.rank; i++)
        if (v.deps.axes & (1u << i))
            r.deps.axes |= (uint8_t)(1u << map[i]);
    tt_junk_remap(&r, &v, map);
    return r;
}

/* ---- reductions, reshapes ---- */

tv tt_reduce(tt_ctx *c, TSNode call, const tv *x, TSNode axisn, bool scan)
{
    tv r = tt_unknown();
    r.kind = TV_NUM;
    r.is_float = x->is_float;
    r.ce = false;
    r.vague = tt_is_vague(x);
    r.elt = x->elt;
    r.f64_from = x->f64_from; /* a reduction of fp64 values runs in fp64 */
    r.f64_pin = x->f64_pin;
    r.f64_pin_neg = x->f64_pin_neg;
    r.f32_some = x->f32_some;
    kc_deps d = tt_deps(x);
    if (scan) {
        tt_observe(c, x->taint, call, "scanned (its order decides the result)");
        r.shape = x->shape;
        r.shape_unknown = x->shape_unknown;
        r.taint = x->taint;
        tv o = tt_opaque(c, call, d, &r.shape, x->bits);
        r.idx = o.idx;
        return r;
    }
    tv ax = tt_eval_opt(c, axisn);
    int64_t axis;
    /* `keep_dims=True`: the reduced axes stay, of extent 1 */
    TSNode kd = tt_call_arg(c->mod, call, 99, "keep_dims");
    bool keep = !ts_node_is_null(kd) && tt_text_eq(c->mod, tt_unparen(kd), "True");
    if (ax.kind == TV_NONE || x->shape_unknown || !tt_is_const(&ax, &axis)) {
        /* A full reduction: element order does not matter. */
        if (ax.kind != TV_NONE && !x->shape_unknown) {
            r.shape_unknown = true;
            r.taint = x->taint;
        }
        d.axes = 0;
        kc_shape s0 = {0};
        if (keep && ax.kind == TV_NONE && !x->shape_unknown) {
            s0.rank = x->shape.rank;
            for (unsigned i = 0; i < s0.rank; i++)
                s0.dims[i] = (kc_dim){1, KC_NONE};
        }
        r.shape = s0;
        r.idx = tt_opaque(c, call, d, &s0, x->bits).idx;
        return r;
    }
    if (axis < 0)
        axis += x->shape.rank;
    if (axis < 0 || axis >= x->shape.rank) {
        r.shape_unknown = true;
        return r;
    }
    kc_shape s = {0};
    uint8_t axes = 0;
    for (unsigned i = 0; i < x->shape.rank; i++) {
        if ((int64_t)i == axis) {
            if (keep)
                s.dims[s.rank++] = (kc_dim){1, KC_NONE};
            continue;
        }
        if (d.axes & (1u << i))
            axes |= (uint8_t)(1u << s.rank);
        s.dims[s.rank++] = x->shape.dims[i];
    }
    d.axes = axes;
    r.shape = s;
    r.taint = s.rank ? x->taint : 0;
    r.idx = tt_opaque(c, call, d, &s, x->bits).idx;
    return r;
}

/* tl.view / tl.reshape / x.reshape: the result shape; records a reorder
 * when element order is not guaranteed. */
tv tt_reshape(tt_ctx *c, TSNode call, const char *fname, TSNode xn, const tv *x, TSNode shapen,
                  bool may_reorder, bool can_reorder_kw)
{
    tv sv = tt_eval_opt(c, shapen);
    kc_shape to;
    bool known = tt_shape_from(&sv, &to);
    tv r = *x;
    r.ce = false;
    tt_junk_clear(&r); /* where the masked-out lanes go in the new shape is not tracked */
    if (!known) {
        r.shape_unknown = true;
        r.idx = tt_opaque(c, call, tt_deps(x), NULL, x->bits).idx;
    } else {
        r.shape = to;
        /* Unit dimensions added or removed only: the lanes keep their axes. */
        uint8_t map[KC_MAX_RANK];
        unsigned j = 0;
        bool simple = !x->shape_unknown;
        for (unsigned i = 0; simple && i < x->shape.rank; i++) {
            if (x->shape.dims[i].value == 1)
                continue;
            while (j < to.rank && to.dims[j].value == 1)
                j++;
            if (j >= to.rank) {
                simple = false;
                break;
            }
            const kc_dim *a = &x->shape.dims[i], *b = &to.dims[j];
            bool same = (a->value >= 0 && a->value == b->value) ||
                        (a->symbol != KC_NONE && a->symbol == b->symbol);
            if (!same) {
                simple = false;
                break;
            }
            map[i] = (uint8_t)j++;
        }
        while (simple && j < to.rank) {
            if (to.dims[j].value != 1)
                simple = false;
            j++;
        }
        if (simple && x->idx) {
            /* unit source dims map anywhere: they carry no lane */
            for (unsigned i = 0; i < x->shape.rank; i++)
                if (x->shape.dims[i].value == 1)
                    map[i] = 0;
            r.idx = kc_index_remap(c->a, x->idx, &to, map);
        } else {
            kc_deps d = tt_deps(x);
            d.axes = (uint8_t)(d.axes ? ((1u << to.rank) - 1) : 0);
            r.idx = tt_opaque(c, call, d, &to, x->bits).idx;
            if (x->kind == TV_PTR)
                r.kind = TV_PTR;
        }
        r.shape_unknown = false;
    }
    if (x->kind == TV_PTR && r.idx)
        r.kind = TV_PTR;
    /* Reordering random numbers changes nothing; a reshape to the same
     * shape folds away. */
    if (!may_reorder || x->random || (known && !x->shape_unknown && kc_shape_equal(&x->shape, &to)))
        return r;
    kc_reorder ro;
    memset(&ro, 0, sizeof ro);
    ro.span = tt_span(call);
    TSNode fn = tt_field(call, "function");
    ro.callee_span = tt_span(fn);
    ro.callee_text = tt_text(c->mod, fn);
    ro.arg_text = tt_text(c->mod, xn);
    ro.shape_text = tt_text(c->mod, shapen);
    ro.from = x->shape;
    ro.to = known ? to : x->shape;
    ro.from_dot = x->from_dot;
    ro.from_unknown = tt_is_vague(x);
    ro.can_reorder_kw = can_reorder_kw;
    /* An order-preserving spelling of the same call. */
    kc_strbuf sb = {0};
    bool done = false;
    if (known && !x->shape_unknown && x->shape.rank == 1 && to.rank == 2 && !ts_node_is_null(xn)) {
        const kc_dim *src = &x->shape.dims[0];
        bool is_arg = TT_IS(tt_unparen(xn), identifier);
        const char *arg = is_arg ? tt_text(c->mod, xn) : kc_arena_printf(c->a, "(%s)", tt_text(c->mod, xn));
        if (to.dims[0].value == 1 && (to.dims[1].symbol == src->symbol || (src->value >= 0 && src->value == to.dims[1].value))) {
            kc_sb_appendf(&sb, "%s[None, :]", arg);
            done = true;
        } else if (to.dims[1].value == 1 && (to.dims[0].symbol == src->symbol || (src->value >= 0 && src->value == to.dims[0].value))) {
            kc_sb_appendf(&sb, "%s[:, None]", arg);
            done = true;
        }
    }
    if (!done && !ts_node_is_null(xn) && !ts_node_is_null(shapen)) {
        /* tl.view -> tl.reshape keeping the module prefix as written. */
        const char *callee = ro.callee_text;
        const char *dot = strrchr(callee, '.');
        if (!strcmp(fname, "view") || can_reorder_kw) {
            if (dot)
                kc_sb_appendf(&sb, "%.*s.reshape(%s, %s)", (int)(dot - callee), callee,
                              tt_text(c->mod, xn), tt_text(c->mod, shapen));
            else
                kc_sb_appendf(&sb, "reshape(%s, %s)", tt_text(c->mod, xn), tt_text(c->mod, shapen));
            done = true;
        }
    }
    (void)format_dim;
    if (done)
        ro.fix_text = kc_arena_strdup(c->a, kc_sb_str(&sb));
    kc_sb_free(&sb);
    kc_vec_push(&c->k->reorders, ro);
    uint32_t rid = c->k->reorders.len - 1;
    if (rid < 64)
        r.taint |= 1ull << rid;
    return r;
}

tv tt_permute(tt_ctx *c, TSNode call, const tv *x, const uint8_t *perm, unsigned rank)
{
    tv r = *x;
    if (x->shape_unknown || x->shape.rank != rank)
        return r;
    kc_shape s = {.rank = (uint8_t)rank};
    uint8_t map[KC_MAX_RANK];
    for (unsigned i = 0; i < rank; i++) {
        s.dims[i] = x->shape.dims[perm[i]];
        map[perm[i]] = (uint8_t)i;
    }
    r.shape = s;
    if (x->idx)
        r.idx = kc_index_remap(c->a, x->idx, &s, map);
    tt_junk_remap(&r, x, map);
    (void)call;
    return r;
}

bool tt_rounding_sum(TSNode e, TSNode *n)
{
    e = tt_unparen(e);
    bool plus = false;
    /* the leftmost operand of the chain is the extent */
    TSNode l = e;
    while (TT_IS(l, binary_operator) && (!strcmp(tt_op_of(l), "+") || !strcmp(tt_op_of(l), "-"))) {
        plus |= !strcmp(tt_op_of(l), "+");
        l = tt_unparen(tt_field(l, "left"));
    }
    *n = l;
    return plus;
}
