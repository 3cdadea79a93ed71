/* cuda_expr.c — expressions of the CUDA interpreter: arithmetic on
 * symbolic indices, subscripts and pointers (memory accesses), conditions
 * with their predicates, and calls (barriers, atomics, cache-hint loads,
 * cooperative groups, inlined device functions). */
#include "cuda_walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Evaluates a condition. `pos` receives the comparisons that hold when it is
 * true (its conjuncts), `neg` those that hold when it is false (negated
 * disjuncts); either may be NULL. The right operand of && and || runs under
 * a condition on the left one. */
kc_cuda_val kc_cuda_ev_cond(kc_cuda_walk *w, CXCursor e, kc_cuda_preds *pos, kc_cuda_preds *neg)
{
    CXCursor s = kc_cuda_strip(e);
    enum CXBinaryOperatorKind op = kc_cuda_binop_of(s);
    if (s.kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_LNot) {
        kc_cuda_kids k;
        kc_cuda_kids_get(s, &k);
        kc_cuda_val v = k.n == 1 ? kc_cuda_ev_cond(w, k.v[0], neg, pos) : kc_cuda_v_none();
        kc_cuda_kids_free(&k);
        v.ix = NULL;
        v.load = KC_NONE;
        return v;
    }
    if (op == CXBinaryOperator_Comma) {
        /* `a, b`: a is evaluated for its effects, b is the condition */
        kc_cuda_kids k;
        kc_cuda_kids_get(s, &k);
        kc_cuda_val v = kc_cuda_v_none();
        if (k.n == 2) {
            kc_cuda_ev(w, k.v[0], KC_CUDA_EV_LOAD);
            v = kc_cuda_ev_cond(w, k.v[1], pos, neg);
        }
        kc_cuda_kids_free(&k);
        return v;
    }
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
        kc_cuda_kids k;
        kc_cuda_kids_get(s, &k);
        if (k.n != 2) {
            kc_cuda_kids_free(&k);
            return kc_cuda_ev(w, e, KC_CUDA_EV_LOAD);
        }
        bool and = op == CXBinaryOperator_LAnd;
        kc_cuda_preds lp = {0};
        kc_cuda_val l = kc_cuda_ev_cond(w, k.v[0], and ? pos : &lp, and ? &lp : neg);
        /* The right operand runs only when the left one allows it. */
        uint32_t saved = w->guard;
        uint32_t np;
        const kc_pred *pp = kc_cuda_preds_copy(w, &lp, &np);
        w->guard = kc_cuda_mk_cond(w, kc_cuda_wspan(w, k.v[0]), kc_cuda_wtext(w, k.v[0]), l.deps, !and, pp, np);
        kc_cuda_val r = kc_cuda_ev_cond(w, k.v[1], and ? pos : NULL, and ? NULL : neg);
        w->guard = saved;
        kc_vec_free(&lp);
        kc_cuda_kids_free(&k);
        return kc_cuda_v_deps(kc_cuda_deps_or(l.deps, r.deps));
    }
    kc_cmp cmp = kc_cuda_cmp_of(op);
    if (cmp) {
        kc_cuda_kids k;
        kc_cuda_kids_get(s, &k);
        if (k.n != 2) {
            kc_cuda_kids_free(&k);
            return kc_cuda_ev(w, e, KC_CUDA_EV_LOAD);
        }
        kc_cuda_val l = kc_cuda_ev(w, k.v[0], KC_CUDA_EV_LOAD);
        kc_cuda_val r = kc_cuda_ev(w, k.v[1], KC_CUDA_EV_LOAD);
        kc_span at = kc_cuda_wspan(w, s);
        kc_pred p = {.lhs = l.ptr ? l.off : l.ix, .rhs = r.ptr ? r.off : r.ix, .op = cmp, .span = at};
        if (p.lhs && p.rhs && cmp != KC_CMP_EQ && cmp != KC_CMP_NE && !l.ptr && !r.ptr)
            kc_vec_push(&w->k->compares, p);
        kc_cuda_size_fact(w, p.lhs, r.ptr ? kc_index_deps(r.off) : r.deps, at);
        kc_cuda_size_fact(w, p.rhs, l.ptr ? kc_index_deps(l.off) : l.deps, at);
        if (!p.lhs && !p.rhs)
            pos = neg = NULL; /* floating-point comparison: no index predicate */
        if (pos) {
            kc_cuda_pred cp = {.p = p, .lhs = k.v[0], .rhs = k.v[1]};
            kc_vec_push(pos, cp);
        }
        if (neg) {
            kc_cuda_pred cp = {.p = p, .lhs = k.v[0], .rhs = k.v[1]};
            cp.p.op = kc_cuda_cmp_negate(cmp);
            kc_vec_push(neg, cp);
        }
        kc_cuda_kids_free(&k);
        return kc_cuda_v_deps(kc_cuda_deps_or(l.deps, r.deps));
    }
    kc_cuda_val v = kc_cuda_ev(w, e, KC_CUDA_EV_LOAD);
    /* a bool variable that holds a comparison */
    for (uint16_t i = 0; pos && i < v.ncpos; i++)
        kc_vec_push(pos, v.cpos[i]);
    for (uint16_t i = 0; neg && i < v.ncneg; i++)
        kc_vec_push(neg, v.cneg[i]);
    return v;
}

kc_cuda_val kc_cuda_ev_bool(kc_cuda_walk *w, CXCursor e)
{
    kc_cuda_preds pos = {0}, neg = {0};
    kc_cuda_val v = kc_cuda_ev_cond(w, e, &pos, &neg);
    v.ix = NULL;
    v.load = KC_NONE;
    if (pos.len || neg.len) {
        kc_cuda_pred *cp = kc_arena_alloc(w->a, (pos.len + neg.len + 1) * sizeof *cp);
        if (pos.len)
            memcpy(cp, pos.data, pos.len * sizeof *cp);
        if (neg.len)
            memcpy(cp + pos.len, neg.data, neg.len * sizeof *cp);
        v.cpos = cp;
        v.ncpos = (uint16_t)(pos.len > 1000 ? 1000 : pos.len);
        v.cneg = cp + pos.len;
        v.ncneg = (uint16_t)(neg.len > 1000 ? 1000 : neg.len);
    }
    kc_vec_free(&pos);
    kc_vec_free(&neg);
    return v;
}

static kc_cuda_val ev_declref(kc_cuda_walk *w, CXCursor e, int mode)
{
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_Cursor_isNull(ref))
        return kc_cuda_v_none();
    switch (ref.kind) {
    case CXCursor_VarDecl:
    case CXCursor_ParmDecl: {
        kc_cuda_bind *b = kc_cuda_env_find(w->fn, ref);
        if (!b)
            return kc_cuda_global_value(w, ref, e, mode);
        if (b->in_memory && mode != KC_CUDA_EV_ADDR) {
            kc_cuda_val p = b->val;
            p.idx_expr = clang_getNullCursor();
            kc_cuda_val v = kc_cuda_deref(w, p, e, clang_getCursorType(ref), mode);
            if (mode == KC_CUDA_EV_LOAD && v.load != KC_NONE && !w->k->accesses.data[v.load].value_name)
                w->k->accesses.data[v.load].value_name = b->name;
            return v;
        }
        return b->val;
    }
    case CXCursor_NonTypeTemplateParameter: {
        kc_cuda_bind *b = kc_cuda_env_find(w->fn, ref);
        if (b)
            return b->val;
        uint32_t sym = kc_cuda_symbol_get(w, kc_cuda_spelling(w->t, ref), KC_SYM_CONSTEXPR, NULL);
        return kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, 32));
    }
    case CXCursor_EnumConstantDecl:
        return kc_cuda_v_index(kc_cuda_ix_const(w, clang_getEnumConstantDeclValue(ref), 32));
    default:
        return kc_cuda_v_none();
    }
}

/* ---- expressions -------------------------------------------------------------- */

/* Generic: evaluates every child; the result depends on all of them. */
static kc_cuda_val ev_children(kc_cuda_walk *w, CXCursor e)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    kc_deps d = {0};
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_TypeRef || k.v[i].kind == CXCursor_TemplateRef ||
            k.v[i].kind == CXCursor_NamespaceRef)
            continue;
        kc_cuda_val v = kc_cuda_ev(w, k.v[i], KC_CUDA_EV_LOAD);
        d = kc_cuda_deps_or(d, v.ptr && v.off ? kc_index_deps(v.off) : v.deps);
    }
    kc_cuda_kids_free(&k);
    return kc_cuda_v_deps(d);
}

static kc_cuda_val ev_subscript(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    if (k.n != 2) {
        kc_cuda_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor bc = k.v[0], ic = k.v[1];
    kc_cuda_kids_free(&k);
    kc_cuda_val b = kc_cuda_ev(w, bc, KC_CUDA_EV_LOAD);
    kc_cuda_val i = kc_cuda_ev(w, ic, KC_CUDA_EV_LOAD);
    if (!b.ptr && i.ptr) { /* i[p] */
        kc_cuda_val tv = b;
        b = i;
        i = tv;
        CXCursor tc = bc;
        bc = ic;
        ic = tc;
    }
    if (!b.ptr) {
        /* Unknown base (a call's result, an unresolved member): keep the
         * index relative to an unknown base. */
        b = kc_cuda_v_none();
        b.ptr = true;
        b.space = KC_MEM_UNKNOWN;
        b.off = kc_cuda_ix_const(w, 0, 64);
        CXType et = clang_getCursorType(e);
        b.elem_bytes = kc_cuda_ty_size(kc_cuda_ty_innermost(et));
        b.elem_type = kc_cuda_ty_name(w, kc_cuda_ty_innermost(et));
    }
    kc_cuda_val p = kc_cuda_ptr_add(w, b, &i, ic, kc_cuda_ty_step_elems(clang_getCursorType(bc)), 1);
    CXType rt = clang_getCursorType(e);
    if (kc_cuda_ty_is_array(rt))
        return p;
    return kc_cuda_deref(w, p, e, rt, mode);
}

static kc_cuda_val struct_field(kc_cuda_walk *w, const kc_cuda_val *base, CXCursor member)
{
    uint32_t pidx = base->sparam - 1;
    const char *pname = pidx < w->k->params.len ? w->k->params.data[pidx].name : "?";
    const char *field = kc_cuda_spelling(w->t, member);
    const char *name = kc_arena_printf(w->a, "%s.%s", pname, field);
    CXType t = clang_getCursorType(member);
    bool created;
    uint32_t sym = kc_cuda_symbol_get(w, name, KC_SYM_PARAM, &created);
    kc_symbol *s = &w->k->symbols.data[sym];
    if (created) {
        s->param = pidx;
        s->bits = kc_cuda_ty_bits(t);
        s->span = pidx < w->k->params.len ? w->k->params.data[pidx].span : s->span;
        if (kc_cuda_ty_is_ptr(t))
            s->facts |= KC_SF_POINTER;
    }
    if (kc_cuda_ty_is_ptr(t))
        return kc_cuda_mem_pointer(w, sym, s->name, KC_MEM_GLOBAL, kc_cuda_ty_pointee(t));
    if (kc_cuda_ty_is_int(t))
        return kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, kc_cuda_ty_bits(t)));
    kc_cuda_val v = kc_cuda_v_none();
    if (kc_cuda_ty_is_record(t))
        v.sparam = base->sparam; /* nested struct: fields keep the parameter */
    return v;
}

static kc_cuda_val ev_member(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    CXCursor base = k.n >= 1 ? k.v[0] : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    if (clang_Cursor_isNull(base))
        return kc_cuda_v_none(); /* implicit this->member */
    CXCursor sb = kc_cuda_strip(base);
    if (sb.kind == CXCursor_DeclRefExpr) {
        kc_cuda_bv_kind bv = kc_cuda_builtin_var(clang_getCursorReferenced(sb));
        if (bv != KC_CUDA_BV_NONE)
            return kc_cuda_builtin_value(w, bv, kc_cuda_member_component(w, e));
    }
    if (sb.kind == CXCursor_CallExpr) {
        /* cooperative groups: block.group_index().x and friends */
        const char *n = kc_cuda_callee_name(w, sb, clang_getCursorReferenced(sb));
        int comp = kc_cuda_member_component(w, e);
        if (comp >= 0) {
            if (strcmp(n, "group_index") == 0 || strcmp(n, "block_index") == 0)
                return kc_cuda_builtin_value(w, KC_CUDA_BV_BLOCK, comp);
            if (strcmp(n, "thread_index") == 0)
                return kc_cuda_builtin_value(w, KC_CUDA_BV_THREAD, comp);
            if (strcmp(n, "group_dim") == 0 || strcmp(n, "dim_threads") == 0)
                return kc_cuda_builtin_value(w, KC_CUDA_BV_BDIM, comp);
            if (strcmp(n, "dim_blocks") == 0)
                return kc_cuda_builtin_value(w, KC_CUDA_BV_GDIM, comp);
        }
    }
    kc_cuda_val b = kc_cuda_ev(w, base, mode == KC_CUDA_EV_ADDR ? KC_CUDA_EV_ADDR : mode);
    if (b.sparam && !b.ptr)
        return struct_field(w, &b, e);
    CXType t = clang_getCursorType(e);
    kc_deps d = b.ptr && b.off ? kc_index_deps(b.off) : b.deps;
    kc_cuda_val v = kc_cuda_v_deps(d);
    if (b.load != KC_NONE && kc_cuda_ty_is_int(t))
        v.ix = kc_cuda_ix_atom(w, KC_ATOM_DATA, b.load, d, kc_cuda_ty_bits(t));
    v.load = b.load;
    return v;
}

bool kc_cuda_is_incdec(enum CXUnaryOperatorKind op)
{
    return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
           op == CXUnaryOperator_PreDec;
}

static kc_cuda_val ptr_offset(kc_cuda_walk *w, kc_cuda_val p, int64_t delta)
{
    const kc_index *off = p.off ? kc_index_add(w->a, p.off, kc_cuda_ix_const(w, delta, 64)) : NULL;
    p.off = off;
    p.deps = off ? kc_index_deps(off) : p.deps;
    p.load = KC_NONE;
    return p;
}

static kc_cuda_val ev_incdec(kc_cuda_walk *w, CXCursor e, CXCursor operand, enum CXUnaryOperatorKind op)
{
    int sign = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
    bool pre = op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec;
    CXCursor decl = kc_cuda_referenced_decl(operand);
    kc_cuda_bind *b = kc_cuda_env_find(w->fn, decl);
    if (!b || b->in_memory) {
        kc_cuda_val v = kc_cuda_ev(w, operand, KC_CUDA_EV_RMW);
        return kc_cuda_v_deps(v.deps);
    }
    kc_cuda_val old = b->val, nv;
    if (old.ptr) {
        int64_t unit = kc_cuda_ty_step_elems(clang_getCursorType(operand));
        nv = ptr_offset(w, old, unit >= 0 ? sign * unit : 0);
        if (unit < 0)
            nv.off = kc_cuda_ix_opaque(w, e, old.deps, 64);
    } else if (old.ix) {
        const kc_index *r = kc_index_add(w->a, old.ix, kc_cuda_ix_const(w, sign, old.ix->bits));
        nv = kc_cuda_v_index(r ? r : kc_cuda_ix_opaque(w, e, old.deps, old.ix->bits));
    } else {
        nv = old;
        nv.load = KC_NONE;
    }
    b = kc_cuda_env_find(w->fn, decl);
    b->val = nv;
    return pre ? nv : old;
}

static kc_cuda_val ev_unary(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    if (k.n != 1) {
        kc_cuda_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor x = k.v[0];
    kc_cuda_kids_free(&k);
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    if (kc_cuda_is_incdec(op))
        return ev_incdec(w, e, x, op);
    switch (op) {
    case CXUnaryOperator_AddrOf: {
        kc_cuda_val v = kc_cuda_ev(w, x, KC_CUDA_EV_ADDR);
        if (v.ptr)
            return v;
        kc_cuda_val p = kc_cuda_v_none(); /* address of a register variable */
        p.ptr = true;
        p.space = KC_MEM_LOCAL;
        p.off = kc_cuda_ix_const(w, 0, 64);
        return p;
    }
    case CXUnaryOperator_Deref: {
        kc_cuda_val p = kc_cuda_ev(w, x, KC_CUDA_EV_LOAD);
        CXType rt = clang_getCursorType(e);
        if (!p.ptr) {
            p = kc_cuda_v_none();
            p.ptr = true;
            p.space = KC_MEM_UNKNOWN;
            p.off = kc_cuda_ix_const(w, 0, 64);
            p.elem_bytes = kc_cuda_ty_size(rt);
        }
        if (kc_cuda_ty_is_array(rt))
            return p;
        /* `(*fp)(...)`: naming the function a pointer points to reads no
         * memory (the pointer itself was evaluated above) */
        if (rt.kind == CXType_FunctionProto || rt.kind == CXType_FunctionNoProto)
            return kc_cuda_v_deps(p.deps);
        return kc_cuda_deref(w, p, e, rt, mode);
    }
    case CXUnaryOperator_Minus: {
        kc_cuda_val v = kc_cuda_ev(w, x, KC_CUDA_EV_LOAD);
        if (v.ix) {
            const kc_index *r = kc_index_scale(w->a, v.ix, -1);
            return kc_cuda_v_index(r ? r : kc_cuda_ix_opaque(w, e, v.deps, v.ix->bits));
        }
        return kc_cuda_v_deps(v.deps);
    }
    case CXUnaryOperator_Plus:
    case CXUnaryOperator_Extension:
        return kc_cuda_ev(w, x, mode);
    case CXUnaryOperator_LNot:
        return kc_cuda_ev_cond(w, e, NULL, NULL);
    default: {
        kc_cuda_val v = kc_cuda_ev(w, x, KC_CUDA_EV_LOAD);
        return kc_cuda_v_deps(v.ptr && v.off ? kc_index_deps(v.off) : v.deps);
    }
    }
}

static bool ty_dependent(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    return c.kind == CXType_Unexposed || c.kind == CXType_Dependent || c.kind == CXType_Invalid;
}

/* `row * stride` as the source spells it, for KC304. */
static void record_product(kc_cuda_walk *w, CXCursor e, const kc_index *value, const kc_index *a, CXCursor lc,
                           const kc_index *b, CXCursor rc, uint8_t bits)
{
    kc_product p;
    memset(&p, 0, sizeof p);
    p.span = kc_cuda_span(w->t, e);
    if (!kc_span_valid(p.span))
        return;
    p.text = kc_cuda_span_text(w->t, p.span);
    p.value = value;
    p.lhs = a;
    p.rhs = b;
    p.bits = bits;
    if (!clang_Cursor_isNull(lc)) {
        p.lhs_span = kc_cuda_span(w->t, lc);
        p.lhs_text = kc_cuda_span_text(w->t, p.lhs_span);
    }
    if (!clang_Cursor_isNull(rc)) {
        p.rhs_span = kc_cuda_span(w->t, rc);
        p.rhs_text = kc_cuda_span_text(w->t, p.rhs_span);
    }
    /* Only where the operand is written in place (not inside a macro). */
    if (kc_span_valid(p.lhs_span) && p.lhs_text[0]) {
        bool simple = strspn(p.lhs_text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") ==
                      strlen(p.lhs_text);
        CXCursor ls = kc_cuda_strip(lc);
        bool paren = ls.kind == CXCursor_ParenExpr;
        p.lhs_widened = simple || paren ? kc_arena_printf(w->a, "(int64_t)%s", p.lhs_text)
                                        : kc_arena_printf(w->a, "(int64_t)(%s)", p.lhs_text);
    }
    if (kc_span_valid(p.rhs_span) && p.rhs_text[0]) {
        bool simple = strspn(p.rhs_text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") ==
                      strlen(p.rhs_text);
        CXCursor rs = kc_cuda_strip(rc);
        bool paren = rs.kind == CXCursor_ParenExpr;
        p.rhs_widened = simple || paren ? kc_arena_printf(w->a, "(int64_t)%s", p.rhs_text)
                                        : kc_arena_printf(w->a, "(int64_t)(%s)", p.rhs_text);
    }
    kc_vec_push(&w->k->products, p);
}

/* l op r for the arithmetic operators (also the compound assignments). */
static kc_cuda_val arith(kc_cuda_walk *w, CXCursor e, enum CXBinaryOperatorKind op, kc_cuda_val l, CXCursor lc,
                         kc_cuda_val r, CXCursor rc)
{
    if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && l.ptr && !r.ptr) {
        int64_t unit = kc_cuda_ty_step_elems(clang_getCursorType(lc));
        return kc_cuda_ptr_add(w, l, &r, rc, unit, op == CXBinaryOperator_Sub ? -1 : 1);
    }
    if (op == CXBinaryOperator_Add && r.ptr && !l.ptr)
        return kc_cuda_ptr_add(w, r, &l, lc, kc_cuda_ty_step_elems(clang_getCursorType(rc)), 1);
    kc_deps ld = l.ptr && l.off ? kc_index_deps(l.off) : l.deps;
    kc_deps d = kc_cuda_deps_or(ld, r.ptr && r.off ? kc_index_deps(r.off) : r.deps);
    CXType t = clang_getCursorType(e);
    bool integer = kc_cuda_ty_is_int(t) || (ty_dependent(t) && l.ix && r.ix);
    if (!integer || l.ptr || r.ptr) {
        if (integer)
            return kc_cuda_v_index(kc_cuda_ix_opaque(w, e, d, kc_cuda_ty_bits(t) ? kc_cuda_ty_bits(t) : 64));
        return kc_cuda_v_deps(d);
    }
    uint8_t bits = kc_cuda_ty_bits(t) ? kc_cuda_ty_bits(t) : 32;
    const kc_index *a = kc_cuda_as_index(w, &l, lc), *b = kc_cuda_as_index(w, &r, rc);
    int64_t ca, cb;
    bool consts = kc_index_is_const(a, &ca) && kc_index_is_const(b, &cb);
    const kc_index *res = NULL;
    switch (op) {
    case CXBinaryOperator_Add: res = kc_index_add(w->a, a, b); break;
    case CXBinaryOperator_Sub: res = kc_index_sub(w->a, a, b); break;
    case CXBinaryOperator_Mul: res = kc_index_mul(w->a, a, b); break;
    case CXBinaryOperator_Shl:
        if (kc_index_is_const(b, &cb) && cb >= 0 && cb < 62)
            res = kc_index_scale(w->a, a, (int64_t)1 << cb);
        break;
    case CXBinaryOperator_Div:
        if (consts && cb != 0 && !(ca == INT64_MIN && cb == -1))
            res = kc_cuda_ix_const(w, ca / cb, bits);
        break;
    case CXBinaryOperator_Rem:
        if (consts && cb != 0 && !(ca == INT64_MIN && cb == -1))
            res = kc_cuda_ix_const(w, ca % cb, bits);
        break;
    case CXBinaryOperator_Shr:
        if (consts && cb >= 0 && cb < 63)
            res = kc_cuda_ix_const(w, ca >> cb, bits);
        break;
    case CXBinaryOperator_And:
        if (consts)
            res = kc_cuda_ix_const(w, ca & cb, bits);
        break;
    case CXBinaryOperator_Or:
        if (consts)
            res = kc_cuda_ix_const(w, ca | cb, bits);
        break;
    case CXBinaryOperator_Xor:
        if (consts)
            res = kc_cuda_ix_const(w, ca ^ cb, bits);
        break;
    default:
        break;
    }
    if (!res) /* division, modulo, masks, shifts right, or too many terms */
        res = kc_cuda_ix_opaque(w, e, d, bits);
    if (op == CXBinaryOperator_Mul && !w->inline_depth && !kc_index_is_const(a, &ca) && !kc_index_is_const(b, &cb))
        record_product(w, e, res, a, lc, b, rc, bits);
    return kc_cuda_v_index(res);
}

static enum CXBinaryOperatorKind compound_base(enum CXBinaryOperatorKind op)
{
    switch (op) {
    case CXBinaryOperator_MulAssign: return CXBinaryOperator_Mul;
    case CXBinaryOperator_DivAssign: return CXBinaryOperator_Div;
    case CXBinaryOperator_RemAssign: return CXBinaryOperator_Rem;
    case CXBinaryOperator_AddAssign: return CXBinaryOperator_Add;
    case CXBinaryOperator_SubAssign: return CXBinaryOperator_Sub;
    case CXBinaryOperator_ShlAssign: return CXBinaryOperator_Shl;
    case CXBinaryOperator_ShrAssign: return CXBinaryOperator_Shr;
    case CXBinaryOperator_AndAssign: return CXBinaryOperator_And;
    case CXBinaryOperator_XorAssign: return CXBinaryOperator_Xor;
    case CXBinaryOperator_OrAssign: return CXBinaryOperator_Or;
    default: return CXBinaryOperator_Invalid;
    }
}

bool kc_cuda_is_assign(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_Assign || compound_base(op) != CXBinaryOperator_Invalid;
}

void kc_cuda_name_load(kc_cuda_walk *w, const kc_cuda_val *v, const char *name)
{
    if (v->load != KC_NONE && v->load < w->k->accesses.len && !w->k->accesses.data[v->load].value_name)
        w->k->accesses.data[v->load].value_name = name;
}

/* Integer-typed variables always hold an index. */
static kc_cuda_val settle(kc_cuda_walk *w, kc_cuda_val v, CXCursor decl, CXCursor at)
{
    CXType t = clang_getCursorType(decl);
    if (kc_cuda_ty_is_int(t) && !v.ptr && !v.ix) {
        v.ix = kc_cuda_ix_opaque(w, at, v.deps, kc_cuda_ty_bits(t));
        v.deps = kc_index_deps(v.ix);
    }
    return v;
}

/* lhs op= rhs, where `e` is the whole assignment (a built-in operator or a
 * call of a class's operator=). */
static kc_cuda_val assign_to(kc_cuda_walk *w, CXCursor e, CXCursor lc, CXCursor rc, enum CXBinaryOperatorKind op)
{
    CXCursor decl = kc_cuda_referenced_decl(lc);
    /* flag = i < n: the comparisons travel with the flag */
    bool flag = op == CXBinaryOperator_Assign && !clang_Cursor_isNull(decl) &&
                clang_getCanonicalType(clang_getCursorType(decl)).kind == CXType_Bool;
    kc_cuda_val r = flag ? kc_cuda_ev_bool(w, rc) : kc_cuda_ev(w, rc, KC_CUDA_EV_LOAD);
    kc_cuda_bind *b = kc_cuda_env_find(w->fn, decl);
    if (b && !b->in_memory) {
        kc_cuda_val nv;
        if (op == CXBinaryOperator_Assign) {
            nv = r;
            kc_cuda_name_load(w, &r, b->name);
        } else {
            nv = arith(w, e, compound_base(op), b->val, lc, r, rc);
        }
        nv = settle(w, nv, decl, e);
        b = kc_cuda_env_find(w->fn, decl);
        b->val = nv;
        return nv;
    }
    kc_cuda_ev(w, lc, op == CXBinaryOperator_Assign ? KC_CUDA_EV_STORE : KC_CUDA_EV_RMW);
    return r;
}

static kc_cuda_val ev_assign(kc_cuda_walk *w, CXCursor e, enum CXBinaryOperatorKind op)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    if (k.n != 2) {
        kc_cuda_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor lc = k.v[0], rc = k.v[1];
    kc_cuda_kids_free(&k);
    return assign_to(w, e, lc, rc, op);
}

static kc_cuda_val ev_binary(kc_cuda_walk *w, CXCursor e, int mode)
{
    enum CXBinaryOperatorKind op = kc_cuda_binop_of(e);
    if (kc_cuda_is_assign(op))
        return ev_assign(w, e, op);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr || kc_cuda_cmp_of(op))
        return kc_cuda_ev_cond(w, e, NULL, NULL);
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    if (k.n != 2) {
        kc_cuda_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor lc = k.v[0], rc = k.v[1];
    kc_cuda_kids_free(&k);
    if (op == CXBinaryOperator_Comma) {
        kc_cuda_ev(w, lc, KC_CUDA_EV_LOAD);
        return kc_cuda_ev(w, rc, mode);
    }
    kc_cuda_val l = kc_cuda_ev(w, lc, KC_CUDA_EV_LOAD);
    kc_cuda_val r = kc_cuda_ev(w, rc, KC_CUDA_EV_LOAD);
    return arith(w, e, op, l, lc, r, rc);
}

static kc_cuda_val ev_conditional(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    if (k.n != 3) {
        kc_cuda_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor cc = k.v[0], ac = k.v[1], bc = k.v[2];
    kc_cuda_kids_free(&k);
    kc_cuda_preds pos = {0}, neg = {0};
    kc_cuda_val c = kc_cuda_ev_cond(w, cc, &pos, &neg);
    uint32_t saved = w->guard, np;
    kc_span cs = kc_cuda_wspan(w, cc);
    const char *ct = kc_cuda_wtext(w, cc);
    const kc_pred *pp = kc_cuda_preds_copy(w, &pos, &np);
    w->guard = kc_cuda_mk_cond(w, cs, ct, c.deps, false, pp, np);
    kc_cuda_val a = kc_cuda_ev(w, ac, mode);
    w->guard = saved;
    pp = kc_cuda_preds_copy(w, &neg, &np);
    w->guard = kc_cuda_mk_cond(w, cs, ct, c.deps, true, pp, np);
    kc_cuda_val b = kc_cuda_ev(w, bc, mode);
    w->guard = saved;
    kc_vec_free(&pos);
    kc_vec_free(&neg);
    if (kc_cuda_val_same(&a, &b))
        return a;
    kc_cuda_val j = kc_cuda_val_join(w, &a, &b, c.deps, kc_cuda_wtext(w, e), kc_cuda_wspan(w, e));
    CXType t = clang_getCursorType(e);
    if (!kc_cuda_ty_is_int(t) && !j.ptr)
        j.ix = NULL;
    return j;
}

/* A cast expression: the operand is its last expression child. */
static kc_cuda_val ev_cast(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    CXCursor x = clang_getNullCursor();
    for (unsigned i = k.n; i-- > 0;)
        if (clang_isExpression(k.v[i].kind)) {
            x = k.v[i];
            break;
        }
    kc_cuda_kids_free(&k);
    if (clang_Cursor_isNull(x))
        return kc_cuda_v_none();
    kc_cuda_val v = kc_cuda_ev(w, x, mode == KC_CUDA_EV_ADDR ? KC_CUDA_EV_ADDR : KC_CUDA_EV_LOAD);
    return kc_cuda_convert(w, v, clang_getCursorType(e), e);
}

static bool ev_recovered_call(kc_cuda_walk *w, CXCursor e, const kc_cuda_kids *k, kc_cuda_val *out);

static kc_cuda_val ev_unexposed(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    if (k.n == 1) {
        CXCursor x = k.v[0];
        kc_cuda_kids_free(&k);
        kc_cuda_val v = kc_cuda_ev(w, x, mode);
        CXType t = clang_getCursorType(e);
        if (kc_cuda_ty_is_array(t) || kc_cuda_ty_is_array(clang_getCursorType(x)))
            return v;
        return kc_cuda_convert(w, v, t, e);
    }
    unsigned n = k.n;
    kc_cuda_kids_free(&k);
    if (n == 0) {
        int64_t c;
        CXType t = clang_getCursorType(e);
        if (kc_cuda_ty_is_int(t) && kc_cuda_eval_int(e, &c))
            return kc_cuda_v_index(kc_cuda_ix_const(w, c, kc_cuda_ty_bits(t)));
        return kc_cuda_v_none();
    }
    kc_cuda_kids k2;
    kc_cuda_kids_get(e, &k2);
    kc_cuda_val v;
    bool call = ev_recovered_call(w, e, &k2, &v);
    kc_cuda_kids_free(&k2);
    return call ? v : ev_children(w, e);
}

/* ---- calls ------------------------------------------------------------------ */

const char *kc_cuda_callee_name(kc_cuda_walk *w, CXCursor call, CXCursor ref)
{
    if (!clang_Cursor_isNull(ref))
        return kc_cuda_spelling(w->t, ref);
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    const char *n = NULL;
    if (k.n >= 1) {
        CXCursor c = kc_cuda_strip(k.v[0]);
        if (c.kind == CXCursor_OverloadedDeclRef || c.kind == CXCursor_DeclRefExpr ||
            c.kind == CXCursor_MemberRefExpr) {
            n = kc_cuda_spelling(w->t, c);
            if (!n[0]) { /* an unresolved name: the overload set */
                CXCursor r = clang_getCursorReferenced(c);
                if (!clang_Cursor_isNull(r))
                    n = kc_cuda_spelling(w->t, r);
            }
        }
    }
    kc_cuda_kids_free(&k);
    return n && n[0] ? n : kc_cuda_spelling(w->t, call);
}

/* The class a cooperative-groups method or argument belongs to:
 * "thread_block", "grid_group", "thread_block_tile", ... or NULL. */
static const char *cg_class_of_type(kc_cuda_walk *w, CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(clang_getNonReferenceType(t)));
    const char *p = clang_getCString(s);
    static const char *const names[] = {"thread_block_tile", "thread_block", "grid_group", "coalesced_group",
                                        "thread_group", "cluster_group"};
    const char *found = NULL;
    if (p && strstr(p, "cooperative_groups::"))
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !found; i++)
            if (strstr(p, names[i]))
                found = names[i];
    clang_disposeString(s);
    (void)w;
    return found;
}

/* N of a cooperative_groups::thread_block_tile<N> (from the type's
 * spelling: libclang does not expose non-type template arguments of
 * types), or -1. */
static int64_t tile_size(CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(clang_getNonReferenceType(t)));
    const char *p = clang_getCString(s);
    const char *q = p ? strstr(p, "thread_block_tile<") : NULL;
    int64_t n = q ? strtoll(q + strlen("thread_block_tile<"), NULL, 10) : -1;
    clang_disposeString(s);
    return n > 0 ? n : -1;
}

static bool in_cg_namespace(CXCursor decl)
{
    for (int i = 0; i < 8 && !clang_Cursor_isNull(decl); i++) {
        decl = clang_getCursorSemanticParent(decl);
        if (decl.kind == CXCursor_Namespace) {
            CXString s = clang_getCursorSpelling(decl);
            bool yes = clang_getCString(s) && strcmp(clang_getCString(s), "cooperative_groups") == 0;
            clang_disposeString(s);
            if (yes)
                return true;
        }
        if (decl.kind == CXCursor_TranslationUnit)
            break;
    }
    return false;
}

static bool starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* The object of a member call `obj.f(...)`, or a null cursor. */
static CXCursor member_object(CXCursor call)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor obj = clang_getNullCursor();
    if (k.n >= 1) {
        CXCursor c = kc_cuda_strip(k.v[0]);
        if (c.kind == CXCursor_MemberRefExpr) {
            kc_cuda_kids m;
            kc_cuda_kids_get(c, &m);
            if (m.n >= 1)
                obj = m.v[0];
            kc_cuda_kids_free(&m);
        }
    }
    kc_cuda_kids_free(&k);
    return obj;
}

/* The function whose body a call to `ref` should inline, or a null cursor. */
static CXCursor inline_target(kc_cuda_walk *w, CXCursor ref)
{
    CXCursor none = clang_getNullCursor();
    if (clang_Cursor_isNull(ref) ||
        (ref.kind != CXCursor_FunctionDecl && !(ref.kind == CXCursor_CXXMethod && clang_CXXMethod_isStatic(ref))))
        return none; /* member functions would need `this` */
    if (w->inline_depth >= KC_CUDA_MAX_INLINE || w->budget < 1000)
        return none;
    CXCursor def = clang_getCursorDefinition(ref);
    if (clang_Cursor_isNull(def)) {
        CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
        if (!clang_Cursor_isNull(tmpl))
            def = clang_getCursorDefinition(tmpl);
    }
    if (clang_Cursor_isNull(def) || !kc_cuda_in_user_code(def))
        return none;
    if (!kc_cuda_has_attr(def, CXCursor_CUDADeviceAttr) || kc_cuda_has_attr(def, CXCursor_CUDAGlobalAttr))
        return none;
    if (clang_equalCursors(def, w->fn->decl))
        return none;
    for (unsigned i = 0; i < w->inline_depth; i++)
        if (clang_equalCursors(w->inline_stack[i], def))
            return none;
    return def;
}

/* Whether `method` is the call operator of a lambda. */
static bool is_lambda_call(CXCursor method)
{
    if (method.kind != CXCursor_CXXMethod)
        return false;
    CXCursor cls = clang_getCursorSemanticParent(method);
    CXString s = clang_getTypeSpelling(clang_getCursorType(cls));
    const char *p = clang_getCString(s);
    bool yes = p && strstr(p, "(lambda at ");
    clang_disposeString(s);
    return yes;
}

/* The body of a lambda called through `ref` (its operator()), or null. */
static CXCursor lambda_target(kc_cuda_walk *w, CXCursor ref)
{
    if (clang_Cursor_isNull(ref) || !is_lambda_call(ref) || w->inline_depth >= KC_CUDA_MAX_INLINE ||
        w->budget < 1000)
        return clang_getNullCursor();
    CXCursor def = clang_getCursorDefinition(ref);
    if (clang_Cursor_isNull(def) || !kc_cuda_in_user_code(def))
        return clang_getNullCursor();
    for (unsigned i = 0; i < w->inline_depth; i++)
        if (clang_equalCursors(w->inline_stack[i], def))
            return clang_getNullCursor();
    return def;
}

/* Walks the body of `def` for a call: arguments argv[0..na) (evaluated
 * here, in the caller) bound to its parameters. A lambda also sees the
 * caller's variables (what it captures). */
static kc_cuda_val inline_call(kc_cuda_walk *w, CXCursor call, CXCursor def, CXCursor ref, const CXCursor *argv,
                               int na, bool lambda)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(def, &k);
    CXCursor body = clang_getNullCursor();
    KC_VEC(CXCursor) params = {0};
    KC_VEC(CXCursor) tparams = {0};
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_ParmDecl)
            kc_vec_push(&params, k.v[i]);
        else if (k.v[i].kind == CXCursor_CompoundStmt)
            body = k.v[i];
        else if (k.v[i].kind == CXCursor_TemplateTypeParameter || k.v[i].kind == CXCursor_NonTypeTemplateParameter ||
                 k.v[i].kind == CXCursor_TemplateTemplateParameter)
            kc_vec_push(&tparams, k.v[i]);
    }
    kc_cuda_kids_free(&k);
    /* Arguments are evaluated in the caller. */
    kc_cuda_val *args = kc_xcalloc(na > 0 ? (size_t)na : 1, sizeof *args);
    kc_deps all = {0};
    for (int i = 0; i < na; i++) {
        args[i] = kc_cuda_ev(w, argv[i], KC_CUDA_EV_LOAD);
        all = kc_cuda_deps_or(all, args[i].deps);
    }
    kc_cuda_val result = kc_cuda_v_deps(all);
    if (!clang_Cursor_isNull(body)) {
        kc_cuda_fn f;
        memset(&f, 0, sizeof f);
        f.caller = w->fn;
        f.outer = lambda ? w->fn : NULL;
        f.decl = def;
        f.entry_guard = w->guard;
        f.frame_base = w->frames.len;
        f.ret = kc_cuda_v_none();
        kc_cuda_fn *caller = w->fn;
        w->fn = &f;
        for (uint32_t i = 0; i < params.len && (int)i < na; i++) {
            kc_cuda_val v = kc_cuda_convert(w, args[i], clang_getCursorType(params.data[i]), params.data[i]);
            kc_cuda_env_bind(w, params.data[i], kc_cuda_spelling(w->t, params.data[i]), v);
        }
        int nt = clang_Cursor_getNumTemplateArguments(ref);
        for (int i = 0; i < nt && (uint32_t)i < tparams.len; i++)
            if (tparams.data[i].kind == CXCursor_NonTypeTemplateParameter &&
                clang_Cursor_getTemplateArgumentKind(ref, (unsigned)i) == CXTemplateArgumentKind_Integral)
            {
                int64_t value = clang_Cursor_getTemplateArgumentValue(ref, (unsigned)i);
                kc_cuda_env_bind(w, tparams.data[i], kc_cuda_spelling(w->t, tparams.data[i]),
                                 kc_cuda_v_index(kc_cuda_ix_const(w, value, 32)));
            }
        kc_span saved_site = w->call_site;
        if (w->inline_depth == 0)
            w->call_site = kc_cuda_span(w->t, call);
        w->inline_stack[w->inline_depth++] = def;
        kc_cuda_walk_stmt(w, body);
        w->inline_depth--;
        w->call_site = saved_site;
        w->fn = caller;
        if (f.nret)
            result = f.ret;
        kc_vec_free(&f.env);
    }
    free(args);
    kc_vec_free(&params);
    kc_vec_free(&tparams);
    return result;
}

/* The first argument of a memory intrinsic, as a pointer. */
static kc_cuda_val arg_pointer(kc_cuda_walk *w, CXCursor a)
{
    kc_cuda_val p = kc_cuda_ev(w, a, KC_CUDA_EV_LOAD);
    if (!p.ptr) {
        p = kc_cuda_v_none();
        p.ptr = true;
        p.space = KC_MEM_UNKNOWN;
    }
    if (clang_Cursor_isNull(p.idx_expr))
        p.idx_expr = a;
    return p;
}

/* Legacy warp intrinsics without a mask (removed for sm_70 and later):
 * the name of the _sync replacement, or NULL. */
static const char *legacy_warp_sync_name(kc_cuda_walk *w, const char *name)
{
    static const char *const legacy[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                                         "__any", "__all", "__ballot"};
    for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
        if (strcmp(name, legacy[i]) == 0)
            return kc_arena_printf(w->a, "%s_sync", name);
    return NULL;
}

/* Might a call that is not inlined synchronize the block inside? A call
 * into user code that was not inlined (a member function, too deep), into
 * CUB, libcu++ or cooperative groups, or to a function clang could not
 * resolve; not intrinsics, math, or operators. */
static bool call_may_sync(kc_cuda_walk *w, CXCursor e, CXCursor ref, const char *name)
{
    (void)e;
    if (!name[0] || starts_with(name, "__") || starts_with(name, "operator") || starts_with(name, "make_") ||
        strcmp(name, "printf") == 0 || strcmp(name, "assert") == 0 || strcmp(name, "min") == 0 ||
        strcmp(name, "max") == 0)
        return false;
    if (clang_Cursor_isNull(ref))
        return true;
    if (ref.kind == CXCursor_Constructor || ref.kind == CXCursor_Destructor || ref.kind == CXCursor_ConversionFunction)
        return false;
    CXCursor def = clang_getCursorDefinition(ref);
    CXCursor where = clang_Cursor_isNull(def) ? ref : def;
    if (kc_cuda_in_user_code(where))
        return true;
    for (CXCursor p = clang_getCursorSemanticParent(ref); !clang_Cursor_isNull(p) &&
                                                         p.kind != CXCursor_TranslationUnit && p.kind != CXCursor_FirstInvalid;
         p = clang_getCursorSemanticParent(p)) {
        if (p.kind != CXCursor_Namespace)
            continue;
        const char *ns = kc_cuda_spelling(w->t, p);
        if (strcmp(ns, "cub") == 0 || strcmp(ns, "cuda") == 0 || strcmp(ns, "cooperative_groups") == 0 ||
            strncmp(ns, "CUB_", 4) == 0)
            return true;
    }
    return false;
}

static void record_call(kc_cuda_walk *w, CXCursor e, const char *name, uint32_t flags, const char *fix,
                        const CXCursor *args, int na)
{
    kc_call c;
    memset(&c, 0, sizeof c);
    c.span = kc_cuda_aspan(w, e);
    if (!kc_span_valid(c.span))
        return;
    c.callee = kc_arena_strdup(w->a, name);
    c.flags = flags | KC_CALL_DEVICE;
    c.guard = w->guard;
    c.loop = w->loop;
    c.seq = w->seq++;
    if (!w->inline_depth) {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        if (k.n >= 1)
            c.callee_span = kc_cuda_span(w->t, kc_cuda_strip(k.v[0]));
        kc_cuda_kids_free(&k);
        if (na >= 1)
            c.arg0_span = kc_cuda_span(w->t, args[0]);
        c.fix_text = fix;
    }
    kc_vec_push(&w->k->calls, c);
}

/* A call of `name` (resolved to `ref`, or null when clang could not
 * resolve it) with arguments args[0..na). `e` is the call expression. */
/* `p == C` (and conjunctions of such) in a precondition: marks the kernel
 * parameter p as pinned (KC_SF_PINNED). */
static void pin_params(kc_cuda_walk *w, CXCursor e, unsigned depth)
{
    e = kc_cuda_strip(e);
    if (depth > 8 || e.kind != CXCursor_BinaryOperator)
        return;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    if (op != CXBinaryOperator_EQ && op != CXBinaryOperator_LAnd)
        return;
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    for (unsigned i = 0; i < k.n && i < 2; i++) {
        CXCursor x = kc_cuda_strip(k.v[i]);
        if (op == CXBinaryOperator_LAnd) {
            pin_params(w, x, depth + 1);
            continue;
        }
        CXCursor d = x.kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(x) : clang_getNullCursor();
        if (d.kind != CXCursor_ParmDecl)
            continue;
        const char *pname = kc_cuda_spelling(w->t, d);
        for (uint32_t s = 0; s < w->k->symbols.len; s++)
            if (w->k->symbols.data[s].kind == KC_SYM_PARAM && strcmp(w->k->symbols.data[s].name, pname) == 0)
                w->k->symbols.data[s].facts |= KC_SF_PINNED;
    }
    kc_cuda_kids_free(&k);
}

static kc_cuda_val call_named(kc_cuda_walk *w, CXCursor e, CXCursor ref, const char *name, const CXCursor *args, int na,
                              CXType rt)
{
    /* Overloaded operators of class types (float4, __half, ...). */
    if (starts_with(name, "operator") && na >= 1) {
        const char *op = name + 8;
        CXCursor a0 = args[0];
        if (strcmp(op, "=") == 0 && na == 2)
            return assign_to(w, e, a0, args[1], CXBinaryOperator_Assign);
        size_t ol = strlen(op);
        if (na == 2 && ol >= 2 && op[ol - 1] == '=' && strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 &&
            strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0)
            return assign_to(w, e, a0, args[1], CXBinaryOperator_AddAssign);
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
            kc_cuda_val v = kc_cuda_ev(w, a0, KC_CUDA_EV_RMW);
            return kc_cuda_v_deps(v.deps);
        }
    }

    /* Barriers. */
    if (strcmp(name, "__syncthreads") == 0 || strcmp(name, "__syncthreads_count") == 0 ||
        strcmp(name, "__syncthreads_and") == 0 || strcmp(name, "__syncthreads_or") == 0 ||
        strcmp(name, "__syncwarp") == 0 || strcmp(name, "__barrier_sync") == 0) {
        kc_cuda_val v = ev_children(w, e);
        kc_cuda_mk_barrier(w, e, name);
        return kc_cuda_ty_is_int(rt) ? kc_cuda_v_index(kc_cuda_ix_opaque(w, e, v.deps, 32)) : kc_cuda_v_deps(v.deps);
    }
    /* Verifier preconditions: the parameters they pin to a value. */
    if ((strcmp(name, "__requires") == 0 || strcmp(name, "__builtin_assume") == 0 || strcmp(name, "__assume") == 0) &&
        na == 1) {
        pin_params(w, args[0], 0);
        return kc_cuda_v_none();
    }
    if (!clang_Cursor_isNull(ref) && (ref.kind == CXCursor_CXXMethod || ref.kind == CXCursor_FunctionDecl) &&
        in_cg_namespace(ref)) {
        CXCursor obj = member_object(e);
        const char *cls = NULL;
        if (!clang_Cursor_isNull(obj))
            cls = cg_class_of_type(w, clang_getCursorType(obj));
        else if (na >= 1)
            cls = cg_class_of_type(w, clang_getCursorType(args[0]));
        if (strcmp(name, "sync") == 0 || strcmp(name, "barrier_wait") == 0) {
            ev_children(w, e);
            kc_cuda_mk_barrier(w, e, kc_arena_printf(w->a, "cg::%s::sync", cls ? cls : "thread_group"));
            return kc_cuda_v_none();
        }
        if (cls && strcmp(cls, "thread_block") == 0) {
            if (strcmp(name, "thread_rank") == 0)
                return kc_cuda_linear_thread(w);
            if (strcmp(name, "size") == 0 || strcmp(name, "num_threads") == 0)
                return kc_cuda_block_size(w);
        }
        if (cls && strcmp(cls, "thread_block_tile") == 0 &&
            (strcmp(name, "size") == 0 || strcmp(name, "num_threads") == 0) && !clang_Cursor_isNull(obj)) {
            int64_t tile = tile_size(clang_getCursorType(obj));
            if (tile > 0)
                return kc_cuda_v_index(kc_cuda_ix_const(w, tile, 32));
        }
        if (cls && strcmp(name, "thread_rank") == 0) {
            kc_deps d = kc_cuda_builtin_deps(KC_CUDA_BV_THREAD, -1);
            if (strcmp(cls, "grid_group") == 0)
                d.flags |= KC_AF_PROGRAM;
            return kc_cuda_v_index(kc_cuda_ix_opaque(w, e, d, 32));
        }
        if (cls && (strcmp(name, "meta_group_rank") == 0)) {
            kc_deps d = kc_cuda_builtin_deps(KC_CUDA_BV_THREAD, -1);
            return kc_cuda_v_index(kc_cuda_ix_opaque(w, e, d, 32));
        }
    }

    /* Atomics: read-modify-write of the first argument. */
    if (starts_with(name, "atomic") && na >= 2) {
        kc_cuda_val p = arg_pointer(w, args[0]);
        for (int i = 1; i < na; i++)
            kc_cuda_ev(w, args[i], KC_CUDA_EV_LOAD);
        uint32_t id = kc_cuda_mk_access(w, KC_ACC_ATOMIC, &p, e, p.idx_expr, false);
        return kc_cuda_load_value(w, id, &p, rt);
    }
    /* Loads and stores through cache-hint intrinsics. */
    if (na >= 1 && (strcmp(name, "__ldg") == 0 || strcmp(name, "__ldcg") == 0 || strcmp(name, "__ldca") == 0 ||
                    strcmp(name, "__ldcs") == 0 || strcmp(name, "__ldlu") == 0 || strcmp(name, "__ldcv") == 0)) {
        kc_cuda_val p = arg_pointer(w, args[0]);
        uint32_t id = kc_cuda_mk_access(w, KC_ACC_LOAD, &p, e, p.idx_expr, strcmp(name, "__ldg") == 0);
        return kc_cuda_load_value(w, id, &p, rt);
    }
    if (na >= 2 && (strcmp(name, "__stcg") == 0 || strcmp(name, "__stcs") == 0 || strcmp(name, "__stwb") == 0 ||
                    strcmp(name, "__stwt") == 0)) {
        kc_cuda_val p = arg_pointer(w, args[0]);
        kc_cuda_ev(w, args[1], KC_CUDA_EV_LOAD);
        kc_cuda_mk_access(w, KC_ACC_STORE, &p, e, p.idx_expr, false);
        return kc_cuda_v_none();
    }

    /* Device functions of the user, and lambdas: inlined. */
    CXCursor def = inline_target(w, ref);
    bool lambda = false;
    if (clang_Cursor_isNull(def) && !clang_Cursor_isNull(ref) && strcmp(name, "operator()") == 0 && na >= 1) {
        def = lambda_target(w, ref);
        lambda = !clang_Cursor_isNull(def);
    }
    if (!clang_Cursor_isNull(def)) {
        kc_cuda_val v = lambda ? inline_call(w, e, def, ref, args + 1, na - 1, true)
                               : inline_call(w, e, def, ref, args, na, false);
        if (kc_cuda_ty_is_int(rt) && !v.ix && !v.ptr)
            v.ix = kc_cuda_ix_opaque(w, e, v.deps, kc_cuda_ty_bits(rt));
        return v;
    }

    /* Pointer pass-through builtins. */
    if (na >= 1 && (strcmp(name, "__builtin_assume_aligned") == 0 || strcmp(name, "__builtin_launder") == 0 ||
                    strcmp(name, "launder") == 0)) {
        kc_cuda_val p = kc_cuda_ev(w, args[0], KC_CUDA_EV_LOAD);
        for (int i = 1; i < na; i++)
            kc_cuda_ev(w, args[i], KC_CUDA_EV_LOAD);
        return p.ptr ? kc_cuda_convert(w, p, rt, e) : p;
    }

    /* Anything else: the result depends on the arguments. */
    const char *legacy = legacy_warp_sync_name(w, name);
    if (legacy && !w->inline_depth)
        record_call(w, e, name, KC_CALL_LEGACY_SHFL, legacy, args, na);
    else if (!legacy && call_may_sync(w, e, ref, name))
        record_call(w, e, name, KC_CALL_MAY_SYNC, NULL, args, na);
    kc_cuda_val v = ev_children(w, e);
    if (kc_cuda_ty_is_int(rt))
        return kc_cuda_v_index(kc_cuda_ix_opaque(w, e, v.deps, kc_cuda_ty_bits(rt)));
    if (kc_cuda_ty_is_ptr(rt)) {
        /* A pointer from an unknown place: offsets are kept relative to it. */
        kc_cuda_val p = kc_cuda_v_none();
        p.ptr = true;
        p.space = KC_MEM_UNKNOWN;
        p.off = kc_cuda_ix_const(w, 0, 64);
        p.deps = v.deps;
        CXType pe = kc_cuda_ty_pointee(rt);
        p.elem_bytes = kc_cuda_ty_size(pe);
        p.elem_type = kc_cuda_ty_name(w, pe);
        return p;
    }
    return v;
}

static kc_cuda_val ev_call(kc_cuda_walk *w, CXCursor e, int mode)
{
    (void)mode;
    if (kc_cuda_is_launch(e)) /* dynamic parallelism: launches are recorded by the scan */
        return ev_children(w, e);
    CXCursor ref = clang_getCursorReferenced(e);
    const char *name = kc_cuda_callee_name(w, e, ref);
    int na = clang_Cursor_getNumArguments(e);
    if (na < 0)
        na = 0;
    CXCursor *args = kc_xcalloc(na ? (size_t)na : 1, sizeof *args);
    for (int i = 0; i < na; i++)
        args[i] = clang_Cursor_getArgument(e, (unsigned)i);
    kc_cuda_val v = call_named(w, e, ref, name, args, na, clang_getCursorType(e));
    free(args);
    return v;
}

/* A call that clang could not resolve (an undeclared or ambiguous
 * function: a recovery expression whose first child names the callee). */
static bool ev_recovered_call(kc_cuda_walk *w, CXCursor e, const kc_cuda_kids *k, kc_cuda_val *out)
{
    if (k->n < 1)
        return false;
    CXCursor callee = kc_cuda_strip(k->v[0]);
    if (callee.kind != CXCursor_OverloadedDeclRef && callee.kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor target = clang_getCursorReferenced(callee);
    if (callee.kind == CXCursor_DeclRefExpr &&
        (clang_Cursor_isNull(target) || (target.kind != CXCursor_OverloadedDeclRef &&
                                         target.kind != CXCursor_FunctionDecl &&
                                         target.kind != CXCursor_FunctionTemplate)))
        return false;
    const char *name = kc_cuda_spelling(w->t, callee);
    if (!name[0] && !clang_Cursor_isNull(target))
        name = kc_cuda_spelling(w->t, target);
    if (!name[0])
        return false;
    *out = call_named(w, e, clang_getNullCursor(), name, k->v + 1, (int)k->n - 1, clang_getCursorType(e));
    return true;
}

/* ---- the expression dispatcher ------------------------------------------------ */

kc_cuda_val kc_cuda_ev(kc_cuda_walk *w, CXCursor e, int mode)
{
    if (clang_Cursor_isNull(e))
        return kc_cuda_v_none();
    if (w->depth >= KC_CUDA_MAX_DEPTH || !kc_cuda_budget_ok(w)) {
        /* Too deep or too much work: the subtree is opaque. */
        CXType t = clang_getCursorType(e);
        if (!kc_cuda_ty_is_int(t))
            return kc_cuda_v_none();
        return kc_cuda_v_index(kc_cuda_ix_opaque(w, e, (kc_deps){0}, kc_cuda_ty_bits(t)));
    }
    w->depth++;
    kc_cuda_val v;
    switch (e.kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral: {
        int64_t c;
        CXType t = clang_getCursorType(e);
        v = kc_cuda_eval_int(e, &c) ? kc_cuda_v_index(kc_cuda_ix_const(w, c, kc_cuda_ty_bits(t))) : kc_cuda_v_none();
        break;
    }
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_FloatingLiteral:
    case CXCursor_StringLiteral:
    case CXCursor_ImaginaryLiteral:
    case CXCursor_CXXNullPtrLiteralExpr:
    case CXCursor_GNUNullExpr:
    case CXCursor_LambdaExpr:
    case CXCursor_CXXThisExpr:
        v = kc_cuda_v_none();
        break;
    case CXCursor_ParenExpr: {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        CXCursor x = k.n == 1 ? k.v[0] : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        v = clang_Cursor_isNull(x) ? kc_cuda_v_none() : kc_cuda_ev(w, x, mode);
        break;
    }
    case CXCursor_UnexposedExpr:
        v = ev_unexposed(w, e, mode);
        break;
    case CXCursor_DeclRefExpr:
        v = ev_declref(w, e, mode);
        break;
    case CXCursor_MemberRefExpr:
        v = ev_member(w, e, mode);
        break;
    case CXCursor_ArraySubscriptExpr:
        v = ev_subscript(w, e, mode);
        break;
    case CXCursor_UnaryOperator:
        v = ev_unary(w, e, mode);
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        v = ev_binary(w, e, mode);
        break;
    case CXCursor_ConditionalOperator:
        v = ev_conditional(w, e, mode);
        break;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        v = ev_cast(w, e, mode);
        break;
    case CXCursor_CallExpr:
        v = ev_call(w, e, mode);
        break;
    case CXCursor_UnaryExpr: { /* sizeof, alignof */
        int64_t c;
        CXType t = clang_getCursorType(e);
        v = kc_cuda_eval_int(e, &c) ? kc_cuda_v_index(kc_cuda_ix_const(w, c, kc_cuda_ty_bits(t))) : kc_cuda_v_none();
        break;
    }
    default:
        v = ev_children(w, e);
        break;
    }
    /* Integers always carry an index (an opaque atom when nothing better). */
    if (!v.ix && !v.ptr && mode == KC_CUDA_EV_LOAD) {
        CXType t = clang_getCursorType(e);
        if (kc_cuda_ty_is_int(t))
            v.ix = kc_cuda_ix_opaque(w, e, v.deps, kc_cuda_ty_bits(t));
    }
    w->depth--;
    return v;
}
