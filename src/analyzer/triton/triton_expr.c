/* triton_expr.c — expressions: the evaluator (tt_eval, what the context's
 * `eval` points to) and what it makes of names, literals, operators,
 * conditional expressions, attributes (dtypes, x.shape, x.T) and tuples;
 * calls are triton_call.c's.
 */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- attributes and tuples ---- */

/* The element type a dtype name stands for (`float16`, `bfloat16`, ...). */
static uint8_t elt_of_dtype_name(const char *d)
{
    if (!d)
        return TT_ELT_UNKNOWN;
    if (!strcmp(d, "float16") || !strcmp(d, "fp16") || !strcmp(d, "half"))
        return TT_ELT_FP16;
    if (!strcmp(d, "bfloat16") || !strcmp(d, "bf16"))
        return TT_ELT_BF16;
    if (!strcmp(d, "float32") || !strcmp(d, "fp32") || !strcmp(d, "float"))
        return TT_ELT_FP32;
    if (!strcmp(d, "float64") || !strcmp(d, "fp64") || !strcmp(d, "double"))
        return TT_ELT_FP64;
    if (!strncmp(d, "float8", 6) || !strncmp(d, "fp8", 3))
        return TT_ELT_FP8;
    if (!strcmp(d, "int1"))
        return TT_ELT_BOOL;
    if (!strncmp(d, "int", 3) || !strncmp(d, "uint", 4))
        return TT_ELT_INT;
    return TT_ELT_UNKNOWN;
}

/* `x.shape`: the block's dimensions as a tuple. */
static tv shape_value(tt_ctx *c, const tv *x)
{
    tv r = tt_unknown();
    if (x->shape_unknown)
        return r;
    r.kind = TV_TUPLE;
    r.ce = true;
    tv *el = kc_arena_alloc(c->a, (x->shape.rank ? x->shape.rank : 1) * sizeof(tv));
    for (unsigned i = 0; i < x->shape.rank; i++) {
        el[i] = tt_unknown();
        el[i].kind = TV_NUM;
        el[i].ce = true;
        const kc_dim *d = &x->shape.dims[i];
        if (d->value >= 0)
            el[i].idx = kc_index_const(c->a, d->value, 32, KC_SPACE_BLOCK);
        else if (d->symbol != KC_NONE)
            el[i].idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_SYMBOL, d->symbol, (kc_deps){0}), 32,
                                      KC_SPACE_BLOCK, NULL);
        el[i].sym = d->symbol;
    }
    r.tuple = el;
    r.ntuple = x->shape.rank;
    return r;
}

/* `self.X` in a method of a class (a `@tl.core._aggregate`) whose body
 * declares `X: tl.constexpr`: a compile-time field. */
static bool constexpr_field(tt_ctx *c, TSNode objn, const char *attr)
{
    if (!TT_IS(objn, identifier) || !tt_text_eq(c->mod, objn, "self"))
        return false;
    TSNode cls = ts_node_parent(objn);
    while (!ts_node_is_null(cls) && !TT_IS(cls, class_definition) && !TT_IS(cls, module))
        cls = ts_node_parent(cls);
    if (ts_node_is_null(cls) || !TT_IS(cls, class_definition))
        return false;
    TSNode body = tt_field(cls, "body");
    uint32_t nb = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < nb; i++) {
        TSNode st = ts_node_named_child(body, i);
        TSNode as = TT_IS(st, expression_statement) && ts_node_named_child_count(st) ? ts_node_named_child(st, 0)
                                                                                     : (TSNode){0};
        if (ts_node_is_null(as) || !TT_IS(as, assignment))
            continue;
        TSNode left = tt_field(as, "left"), type = tt_field(as, "type");
        if (ts_node_is_null(type) || !TT_IS(left, identifier) || !tt_text_eq(c->mod, left, attr))
            continue;
        const char *t = tt_text(c->mod, type);
        size_t l = strlen(t);
        return l >= 9 && !strcmp(t + l - 9, "constexpr");
    }
    return false;
}

static tv eval_attribute(tt_ctx *c, TSNode n)
{
    const char *q = tt_qualify(c->mod, n);
    const char *tl = tt_tl_name(q);
    if (tl && !tt_env_get(&c->env, "tl_shadowed")) {
        tv v = tt_unknown();
        v.kind = TV_DTYPE;
        v.ce = true;
        v.dtype = kc_arena_strdup(c->a, tl);
        v.elt = elt_of_dtype_name(tl);
        v.dtype_span = tt_span(n);
        return v;
    }
    TSNode objn = tt_field(n, "object");
    const char *attr = tt_text(c->mod, tt_field(n, "attribute"));
    TSNode leftmost = objn;
    while (TT_IS(leftmost, attribute))
        leftmost = tt_field(leftmost, "object");
    if (TT_IS(leftmost, identifier) && !tt_env_get(&c->env, tt_text(c->mod, leftmost))) {
        /* a module attribute we do not know (e.g. a dtype from another module) */
        tv v = tt_unknown();
        v.ce = true;
        return v;
    }
    if (constexpr_field(c, objn, attr)) {
        tv v = tt_unknown();
        v.ce = true;
        return v;
    }
    tv x = tt_eval(c, objn);
    if (!strcmp(attr, "shape"))
        return shape_value(c, &x);
    if (!strcmp(attr, "T") && x.shape.rank == 2 && !x.shape_unknown) {
        uint8_t perm[2] = {1, 0};
        return tt_permute(c, n, &x, perm, 2);
    }
    if (!strcmp(attr, "dtype") || !strcmp(attr, "type") || !strcmp(attr, "element_ty")) {
        tv v = tt_unknown();
        v.kind = TV_DTYPE;
        v.ce = true;
        return v;
    }
    tv v = tt_unknown();
    v.deps = tt_deps(&x);
    return v;
}

static tv eval_tuple(tt_ctx *c, TSNode n)
{
    uint32_t cnt = ts_node_named_child_count(n), k = 0;
    tv *el = kc_arena_alloc(c->a, (cnt ? cnt : 1) * sizeof(tv));
    bool ce = true;
    for (uint32_t i = 0; i < cnt; i++) {
        TSNode e = ts_node_named_child(n, i);
        if (TT_IS(e, comment))
            continue;
        el[k] = tt_eval(c, e);
        ce = ce && el[k].ce;
        k++;
    }
    tv v = tt_unknown();
    v.kind = TV_TUPLE;
    v.tuple = el;
    v.ntuple = k;
    v.ce = ce;
    return v;
}

/* ---- names, literals, operators ---- */

/* A name: a local, None, or a global of the module (a compile-time constant). */
static tv eval_name(tt_ctx *c, TSNode n)
{
    tt_module *md = c->mod;
    const char *name = tt_text(md, n);
    tv *v = tt_env_get(&c->env, name);
    if (v)
        return *v;
    if (!strcmp(name, "None")) {
        tv r = tt_unknown();
        r.kind = TV_NONE;
        r.ce = true;
        return r;
    }
    /* Globals used in a jit function are compile-time constants. */
    tv r = tt_unknown();
    r.ce = true;
    int64_t gv;
    TSNode def = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(md->root); i++) {
        TSNode st = ts_node_named_child(md->root, i);
        if (!TT_IS(st, expression_statement) || ts_node_named_child_count(st) == 0)
            continue;
        TSNode as = ts_node_named_child(st, 0);
        if (TT_IS(as, assignment) && tt_text_eq(md, tt_field(as, "left"), name))
            def = tt_field(as, "right");
    }
    if (!ts_node_is_null(def)) {
        TSNode d = tt_unparen(def);
        if (TT_IS(d, call) && tt_call_nargs(d) == 1) { /* tl.constexpr(128) */
            const char *q = tt_qualify(md, tt_field(d, "function"));
            if (q && tt_tl_name(q) && !strcmp(tt_tl_name(q), "constexpr"))
                d = tt_unparen(tt_call_arg(md, d, 0, NULL));
        }
        if (tt_int_literal(md, d, &gv))
            return tt_const(c, gv);
    }
    return r;
}

/* An integer literal (64 bits when it does not fit in 32). */
static tv eval_integer(tt_ctx *c, TSNode n)
{
    tt_module *md = c->mod;
    int64_t x;
    if (tt_int_literal(md, n, &x)) {
        tv v = tt_const(c, x);
        if (x > INT32_MAX || x < INT32_MIN)
            v.bits = 64;
        return v;
    }
    tv v = tt_unknown();
    v.ce = true;
    return v;
}

/* A float literal: a Python float, which takes the type of the block it meets. */
static tv eval_float(tt_ctx *c, TSNode n)
{
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.ce = true;
    v.is_float = true;
    v.elt = TT_ELT_PYFLOAT;
    v.idx = tt_opaque(c, n, (kc_deps){0}, NULL, 32).idx;
    return v;
}

/* `not (i < n)`, `~(i >= n)`: the negation of a single comparison is one
 * comparison too (`i >= n`, `i < n`); of a conjunction it is none. */
static void negate_pred(tt_ctx *c, const tv *a, tv *r)
{
    if (a->npreds != 1 || !a->preds)
        return;
    kc_cmp op = a->preds[0].op;
    if (op < KC_CMP_LT || op > KC_CMP_NE)
        return;
    kc_pred *p = kc_arena_alloc(c->a, sizeof *p);
    *p = a->preds[0];
    p->op = kc_cmp_negate(op);
    r->preds = p;
    r->npreds = 1;
}

/* -x, +x, ~x */
static tv eval_unary(tt_ctx *c, TSNode n)
{
    TSNode an = tt_field(n, "argument");
    tv a = tt_eval(c, an);
    const char *op = tt_op_of(n);
    if (!strcmp(op, "-") && a.kind == TV_NUM && a.idx) {
        tv r = a;
        r.idx = kc_index_scale(c->a, a.idx, -1);
        if (!r.idx)
            r = tt_opaque(c, n, tt_deps(&a), &a.shape, a.bits);
        r.ce = a.ce;
        r.is_float = a.is_float;
        r.taint = a.taint;
        tt_junk_unary(c, &r, "neg", &a, n);
        return r;
    }
    if (!strcmp(op, "+"))
        return a;
    if (a.kind == TV_BOOL) {
        tv r = a;
        r.npreds = 0;
        r.preds = NULL;
        if (!strcmp(op, "~"))
            negate_pred(c, &a, &r);
        return r;
    }
    tv r = tt_num_of(c, &a, an);
    tv o = tt_opaque(c, n, tt_deps(&r), &r.shape, r.bits);
    o.ce = a.ce;
    o.taint = a.taint;
    return o;
}

/* `not x`, on a block a KC305 candidate */
static tv eval_not(tt_ctx *c, TSNode n)
{
    tv a = tt_eval(c, tt_field(n, "argument"));
    tv r = tt_unknown();
    r.kind = TV_BOOL;
    r.shape = a.shape;
    r.deps = tt_deps(&a);
    r.ce = a.ce;
    r.taint = a.taint;
    r.vague = tt_is_vague(&a);
    r.elt = TT_ELT_BOOL;
    r.logic_nonbool = a.kind != TV_BOOL || a.logic_nonbool;
    if (a.kind == TV_BOOL)
        negate_pred(c, &a, &r);
    tt_note_block_logic(c, n, &r);
    return r;
}

/* `a and b`, `a or b`, on blocks a KC305 candidate */
static tv eval_boolean(tt_ctx *c, TSNode n)
{
    TSNode l = tt_field(n, "left"), r = tt_field(n, "right");
    tv a = tt_eval(c, l), b = tt_eval(c, r);
    tv res = tt_bool_combine(c, &a, &b, !strcmp(tt_op_of(n), "and"));
    res.logic_nonbool = a.kind != TV_BOOL || b.kind != TV_BOOL || a.logic_nonbool || b.logic_nonbool;
    tt_note_block_logic(c, n, &res);
    return res;
}

/* a < b < c: pairwise, and-ed */
static tv eval_comparison(tt_ctx *c, TSNode n)
{
    uint32_t cn = ts_node_child_count(n);
    TSNode prev = {0};
    tv pv = tt_unknown(), acc = tt_unknown();
    bool have = false;
    const char *op = NULL;
    for (uint32_t i = 0; i < cn; i++) {
        TSNode ch = ts_node_child(n, i);
        if (!ts_node_is_named(ch)) {
            op = ts_node_type(ch);
            continue;
        }
        if (TT_IS(ch, comment))
            continue;
        tv cv = tt_eval(c, ch);
        if (!ts_node_is_null(prev) && op) {
            tv cmp = tt_compare(c, n, op, &pv, &cv, prev, ch);
            acc = have ? tt_bool_combine(c, &acc, &cmp, true) : cmp;
            have = true;
        }
        prev = ch;
        pv = cv;
    }
    return have ? acc : tt_unknown();
}

static tv eval_inner(tt_ctx *c, TSNode n)
{
    if (TT_IS(n, parenthesized_expression)) {
        TSNode in = tt_unparen(n);
        if (ts_node_eq(in, n))
            return ts_node_named_child_count(n) ? tt_eval(c, ts_node_named_child(n, 0)) : tt_unknown();
        return tt_eval(c, in);
    }
    if (TT_IS(n, identifier))
        return eval_name(c, n);
    if (TT_IS(n, integer))
        return eval_integer(c, n);
    if (TT_IS(n, float))
        return eval_float(c, n);
    if (TT_IS(n, true) || TT_IS(n, false)) {
        tv v = tt_const(c, TT_IS(n, true));
        v.kind = TV_BOOL;
        return v;
    }
    if (TT_IS(n, none)) {
        tv v = tt_unknown();
        v.kind = TV_NONE;
        v.ce = true;
        return v;
    }
    if (TT_IS(n, string) || TT_IS(n, concatenated_string)) {
        tv v = tt_unknown();
        v.kind = TV_STR;
        v.ce = true;
        return v;
    }
    if (TT_IS(n, binary_operator)) {
        TSNode l = tt_field(n, "left"), r = tt_field(n, "right");
        tv a = tt_eval(c, l), b = tt_eval(c, r);
        return tt_binop(c, n, tt_op_of(n), a, b, l, r);
    }
    if (TT_IS(n, unary_operator))
        return eval_unary(c, n);
    if (TT_IS(n, not_operator))
        return eval_not(c, n);
    if (TT_IS(n, boolean_operator))
        return eval_boolean(c, n);
    if (TT_IS(n, comparison_operator))
        return eval_comparison(c, n);
    if (TT_IS(n, conditional_expression)) {
        /* a if cond else b */
        TSNode an = ts_node_named_child(n, 0), cn = ts_node_named_child(n, 1), bn = ts_node_named_child(n, 2);
        tv cv = tt_eval(c, cn), a = tt_eval(c, an), b = tt_eval(c, bn);
        return tt_merge(c, n, NULL, &a, &b, tt_deps(&cv), 0);
    }
    if (TT_IS(n, call))
        return tt_eval_call(c, n);
    if (TT_IS(n, attribute))
        return eval_attribute(c, n);
    if (TT_IS(n, subscript))
        return tt_subscript(c, n);
    if (TT_IS(n, tuple) || TT_IS(n, expression_list) || TT_IS(n, list))
        return eval_tuple(c, n);
    if (TT_IS(n, keyword_argument))
        return tt_eval(c, tt_field(n, "value"));
    return tt_unknown();
}

tv tt_eval(tt_ctx *c, TSNode n)
{
    if (ts_node_is_null(n))
        return tt_unknown();
    if (c->depth >= TT_MAX_DEPTH || tt_stack_exhausted(c))
        return tt_unknown();
    c->depth++;
    tv v = eval_inner(c, n);
    c->depth--;
    return v;
}
