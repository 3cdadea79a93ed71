/* cuda_expr.c — expressions of the CUDA interpreter: subscripts and
 * pointers (memory accesses), conditions with their predicates, variables
 * declared outside the function and __shared__ arrays, and the evaluation
 * of calls (barriers, atomics, cache-hint loads, cooperative groups,
 * inlined device functions and lambdas; cuda_call.c says what a call is,
 * cuda_value.c computes on the evaluated operands). */
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
    if (kc_cuda_unop_of(s) == CXUnaryOperator_LNot) {
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
        /* lp: what holds when the left operand is true, ln: when it is false */
        kc_cuda_preds lp = {0}, ln = {0};
        kc_cuda_val l = kc_cuda_ev_cond(w, k.v[0], &lp, &ln);
        kc_cuda_preds *run = and ? &lp : &ln, *out = and ? pos : neg;
        for (uint32_t i = 0; out && i < run->len; i++)
            kc_vec_push(out, run->data[i]);
        /* The right operand runs only when the left one allows it: after
         * `i < n &&` with the left true, after `i >= n ||` with it false. */
        uint32_t saved = w->guard;
        uint32_t np;
        const kc_pred *pp = kc_cuda_preds_copy(w, run, &np);
        w->guard = kc_cuda_mk_cond(w, kc_cuda_wspan(w, k.v[0]), kc_cuda_wtext(w, k.v[0]), l.deps, !and, pp, np);
        kc_cuda_val r = kc_cuda_ev_cond(w, k.v[1], and ? pos : NULL, and ? NULL : neg);
        w->guard = saved;
        kc_vec_free(&lp);
        kc_vec_free(&ln);
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
        /* A loaded value compared in a guard (`if (idx < num_points)
         * mask[idx] = 1`) is a gathered index checked against an extent, a
         * problem size; compared into a value (`bool e = t[i] < n`) not. */
        bool guard = (pos || neg) && !w->in_bool_value;
        if (r.load == KC_NONE || r.ptr || guard)
            kc_cuda_size_fact(w, p.lhs, r.ptr ? kc_index_deps(r.off) : r.deps, at);
        if (l.load == KC_NONE || l.ptr || guard)
            kc_cuda_size_fact(w, p.rhs, l.ptr ? kc_index_deps(l.off) : l.deps, at);
        if (!p.lhs && !p.rhs)
            pos = neg = NULL; /* floating-point comparison: no index predicate */
        if (pos) {
            kc_cuda_pred cp = {.p = p, .lhs = k.v[0], .rhs = k.v[1]};
            kc_vec_push(pos, cp);
        }
        if (neg) {
            kc_cuda_pred cp = {.p = p, .lhs = k.v[0], .rhs = k.v[1]};
            cp.p.op = kc_cmp_negate(cmp);
            kc_vec_push(neg, cp);
        }
        kc_cuda_kids_free(&k);
        return kc_cuda_v_deps(kc_cuda_cmp_deps(w, &l, &r, &p));
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
    bool saved = w->in_bool_value;
    w->in_bool_value = true;
    kc_cuda_val v = kc_cuda_ev_cond(w, e, &pos, &neg);
    w->in_bool_value = saved;
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
    int64_t c;
    /* a template parameter substituted in an instantiation (`TB` in
     * `f<128>`, which references nothing there): its value */
    if ((clang_Cursor_isNull(ref) || clang_isInvalid(ref.kind) || ref.kind == CXCursor_NonTypeTemplateParameter) &&
        kc_cuda_ty_is_int(clang_getCursorType(e)) && kc_cuda_eval_int(e, &c))
        return kc_cuda_v_index(kc_cuda_ix_const(w, c, kc_cuda_ty_bits(clang_getCursorType(e))));
    if (clang_Cursor_isNull(ref))
        return kc_cuda_v_none();
    switch (ref.kind) {
    case CXCursor_UnexposedDecl: /* a structured binding (cuda_stmt.c) */
    case CXCursor_VarDecl:
    case CXCursor_ParmDecl: {
        kc_cuda_bind *b = kc_cuda_env_find(w->fn, ref);
        if (!b)
            return ref.kind == CXCursor_UnexposedDecl ? kc_cuda_v_none() : kc_cuda_global_value(w, ref, e, mode);
        if (b->in_memory && mode != KC_CUDA_EV_ADDR) {
            kc_cuda_val p = b->val;
            p.idx_expr = clang_getNullCursor();
            kc_cuda_val v = kc_cuda_deref(w, p, e, clang_getNonReferenceType(clang_getCursorType(ref)), mode);
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

static kc_cuda_val ev_children(kc_cuda_walk *w, CXCursor e);

/* A GNU statement expression `({ stmt; ...; value; })` (macros such as a
 * file-name scan in a print): its statements are walked as statements
 * (loops are loops), its last expression is its value. */
static kc_cuda_val ev_stmt_expr(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    kc_cuda_val v = kc_cuda_v_none();
    if (k.n == 1 && clang_getCursorKind(k.v[0]) == CXCursor_CompoundStmt && w->stmt) {
        kc_cuda_kids st;
        kc_cuda_kids_get(k.v[0], &st);
        for (unsigned i = 0; i < st.n; i++) {
            if (i + 1 == st.n && clang_isExpression(clang_getCursorKind(st.v[i])))
                v = kc_cuda_ev(w, st.v[i], mode);
            else
                w->stmt(w, st.v[i]);
        }
        kc_cuda_kids_free(&st);
    } else {
        v = ev_children(w, e);
    }
    kc_cuda_kids_free(&k);
    return v;
}

/* Evaluates every child; the result depends on all of them. With `addr`
 * not null, the first child is replaced by `addr` evaluated as an address
 * (the object of a member call). Never inlined: its child list would
 * join the frame of every recursive evaluator that calls ev_children, and
 * the recursion's depth cap (KC_CUDA_MAX_DEPTH) is sized for lean frames
 * (under ASan a 3000-term sum overflowed the 8 MB stack). */
__attribute__((noinline)) static kc_cuda_val ev_kids(kc_cuda_walk *w, CXCursor e, CXCursor addr)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    kc_deps d = {0};
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_TypeRef || k.v[i].kind == CXCursor_TemplateRef ||
            k.v[i].kind == CXCursor_NamespaceRef)
            continue;
        kc_cuda_val v = i == 0 && !clang_Cursor_isNull(addr) ? kc_cuda_ev(w, addr, KC_CUDA_EV_ADDR)
                                                              : kc_cuda_ev(w, k.v[i], kc_cuda_arg_mode(e, k.v[i]));
        d = kc_cuda_deps_or(d, v.ptr && v.off ? kc_index_deps(v.off) : v.deps);
    }
    kc_cuda_kids_free(&k);
    return kc_cuda_v_deps(d);
}

/* Generic: evaluates every child; the result depends on all of them. */
static kc_cuda_val ev_children(kc_cuda_walk *w, CXCursor e) { return ev_kids(w, e, clang_getNullCursor()); }

static kc_cuda_val ev_subscript(kc_cuda_walk *w, CXCursor e, int mode)
{
    kc_cuda_val av; /* a tensor accessor's x[i][j] in a template */
    if (kc_cuda_accessor_call(w, e, mode, kc_cuda_ev, &av))
        return av;
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
    kc_cuda_keep_subscripts(w, &b, bc, &i, ic, &p);
    CXType rt = clang_getCursorType(e);
    if (kc_cuda_ty_is_array(rt))
        return p;
    return kc_cuda_deref(w, p, e, rt, mode);
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
        nv = kc_cuda_ptr_offset(w, old, unit >= 0 ? sign * unit : 0);
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
    enum CXUnaryOperatorKind op = kc_cuda_unop_of(e);
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
        return kc_cuda_unary_rest(w, e, v);
    }
    }
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
    uint32_t products = w->k->products.len;
    kc_cuda_val r = flag ? kc_cuda_ev_bool(w, rc) : kc_cuda_ev(w, rc, KC_CUDA_EV_LOAD);
    kc_cuda_bind *b = kc_cuda_env_find(w->fn, decl);
    if (b && !b->in_memory && op == CXBinaryOperator_Assign && decl.kind == CXCursor_VarDecl &&
        kc_cuda_ty_is_int(clang_getCursorType(decl)) && kc_cuda_ty_bits(clang_getCursorType(decl)) == 32)
        kc_cuda_mark_narrowing(w, decl, products, false);
    if (b && !b->in_memory) {
        kc_cuda_val nv;
        if (op == CXBinaryOperator_Assign) {
            nv = r;
            kc_cuda_name_load(w, &r, b->name);
        } else {
            nv = kc_cuda_arith(w, e, kc_cuda_compound_base(op), b->val, lc, r, rc);
        }
        nv = settle(w, nv, decl, e);
        b = kc_cuda_env_find(w->fn, decl);
        b->val = nv;
        return nv;
    }
    uint32_t before = w->k->accesses.len;
    kc_cuda_ev(w, lc, op == CXBinaryOperator_Assign ? KC_CUDA_EV_STORE : KC_CUDA_EV_RMW);
    kc_cuda_member_store(w, lc, &r);
    /* what the stored value depends on (KC404) */
    kc_deps vd = r.ix ? kc_cuda_deps_or(r.deps, kc_index_deps(r.ix)) : r.deps;
    for (uint32_t i = before; i < w->k->accesses.len; i++)
        if (w->k->accesses.data[i].kind == KC_ACC_STORE)
            w->k->accesses.data[i].value_deps = vd;
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
    return kc_cuda_arith(w, e, op, l, lc, r, rc);
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
        return kc_cuda_lost_value(w, e);
    }
    kc_cuda_kids k2;
    kc_cuda_kids_get(e, &k2);
    kc_cuda_val v;
    bool call = ev_recovered_call(w, e, &k2, &v);
    kc_cuda_kids_free(&k2);
    return call ? v : ev_children(w, e);
}

/* ---- calls ------------------------------------------------------------------ */

/* After a call: a variable passed to an out parameter holds what the
 * callee left in it (`out`) or, body not walked (out NULL), an unknown of
 * the arguments (`deps`); a `__shared__` one is the block's. A null param:
 * an unresolved call, whose value may change between passes, not by thread. */
static void write_back(kc_cuda_walk *w, CXCursor call, CXCursor param, CXCursor arg, const kc_cuda_val *out,
                       kc_deps deps)
{
    CXCursor d = kc_cuda_referenced_decl(arg);
    if ((clang_Cursor_isNull(param) ? !kc_cuda_bare_variable(arg) : !kc_cuda_out_param(param)) ||
        (d.kind != CXCursor_VarDecl && d.kind != CXCursor_ParmDecl))
        return;
    kc_cuda_bind *mem = kc_cuda_env_find(w->fn, d);
    if (mem && mem->in_memory) {
        /* a `__shared__` scalar: a walked callee wrote it through the
         * reference as memory (inline_call); an unwalked one may store to it */
        if (!out)
            kc_cuda_ev(w, arg, KC_CUDA_EV_STORE);
        return;
    }
    if (!out && !kc_cuda_env_find(w->fn, d) &&
        (kc_cuda_has_attr(d, CXCursor_CUDADeviceAttr) || kc_cuda_has_attr(d, CXCursor_CUDASharedAttr))) {
        /* a variable in memory (`__device__ int tempLength;`) handed to a
         * callee kcheck cannot see into by reference: it may be written
         * (a store; what the caller reads of it next is the unknown below) */
        kc_cuda_ev(w, arg, KC_CUDA_EV_STORE);
    }
    if (clang_Cursor_isNull(param) || kc_cuda_block_aggregate(w, param))
        deps = (kc_deps){.loops = deps.loops, .programs = deps.programs,
                         .flags = (uint8_t)(deps.flags & (KC_AF_DATA | KC_AF_PROGRAM))};
    kc_cuda_val v;
    CXType vt = clang_getCursorType(d);
    if (out)
        v = *out;
    else if (kc_cuda_ty_is_int(vt))
        v = kc_cuda_v_index(kc_cuda_ix_opaque(w, call, deps, kc_cuda_ty_bits(vt)));
    else if (kc_cuda_ty_is_ptr(vt))
        return; /* a pointer moved by the callee: left as it was */
    else
        v = kc_cuda_v_deps(deps);
    kc_cuda_env_bind(w, d, kc_cuda_spelling(w->t, d), v)->block_value |= kc_cuda_has_attr(d, CXCursor_CUDASharedAttr);
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
        args[i] = kc_cuda_ev(w, argv[i], kc_cuda_arg_mode(call, argv[i]));
        all = kc_cuda_deps_or(all, args[i].deps);
    }
    kc_cuda_val result = kc_cuda_v_deps(all);
    if (!clang_Cursor_isNull(body)) {
        kc_cuda_fn f;
        memset(&f, 0, sizeof f);
        f.caller = w->fn;
        f.outer = lambda ? kc_cuda_lambda_home(w, def) : NULL;
        f.decl = def;
        f.entry_guard = w->guard;
        f.frame_base = w->frames.len;
        f.ret = kc_cuda_v_none();
        kc_cuda_fn *caller = w->fn;
        w->fn = &f;
        for (uint32_t i = 0; i < params.len && (int)i < na; i++) {
            /* a reference to a `__shared__` scalar of the caller is that
             * memory: what the callee reads and writes through it are
             * accesses to it, read alike by every thread after a barrier */
            kc_cuda_bind *mem = kc_cuda_out_param(params.data[i])
                                    ? kc_cuda_env_find(caller, kc_cuda_referenced_decl(argv[i]))
                                    : NULL;
            if (mem && mem->in_memory) {
                kc_cuda_val at = mem->val;
                kc_cuda_env_bind(w, params.data[i], kc_cuda_spelling(w->t, params.data[i]), at)->in_memory = true;
                continue;
            }
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
        kc_span saved_site = w->call_site, saved_inner = w->inner_site, here = kc_cuda_span(w->t, call);
        if (w->inline_depth == 0)
            w->call_site = here;
        w->inner_site = kc_span_valid(here) ? here : w->inner_site;
        w->inline_key[w->inline_depth] = kc_cuda_specialization_key(w, ref, nt);
        w->inline_sites[w->inline_depth] = here;
        w->inline_stack[w->inline_depth++] = def;
        w->stmt(w, body);
        w->inline_depth--;
        w->call_site = saved_site;
        w->inner_site = saved_inner;
        w->fn = caller;
        if (f.nret)
            result = f.ret;
        for (uint32_t i = 0; i < params.len && (int)i < na; i++) {
            kc_cuda_bind *b = kc_cuda_out_param(params.data[i]) ? kc_cuda_env_find(&f, params.data[i]) : NULL;
            if (b) {
                kc_cuda_val out = b->val;
                write_back(w, call, params.data[i], argv[i], &out, all);
            }
        }
        kc_vec_free(&f.env);
    }
    free(args);
    kc_vec_free(&params);
    kc_vec_free(&tparams);
    return result;
}

/* Barriers (__syncthreads and its reductions, __syncwarp) and memory
 * fences: recorded in program order; *out is the call's value. */
static bool sync_call(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na, CXType rt,
                      kc_cuda_val *out)
{
    if (strcmp(name, "__threadfence") == 0 || strcmp(name, "__threadfence_block") == 0 ||
        strcmp(name, "__threadfence_system") == 0) {
        kc_cuda_record_call(w, e, name, KC_CALL_FENCE, NULL, args, na);
        *out = kc_cuda_v_none();
        return true;
    }
    if (!(strcmp(name, "__syncthreads") == 0 || strcmp(name, "__syncthreads_count") == 0 ||
          strcmp(name, "__syncthreads_and") == 0 || strcmp(name, "__syncthreads_or") == 0 ||
          strcmp(name, "__syncwarp") == 0 || strcmp(name, "__barrier_sync") == 0))
        return false;
    kc_cuda_val v = ev_children(w, e);
    kc_cuda_mk_barrier(w, e, name);
    if (strcmp(name, "__syncwarp") != 0)
        kc_cuda_settle_block_values(w);
    /* __syncthreads_count/_and/_or reduce their argument over the whole
     * block and give every thread of it the same result: block-uniform
     * (it still varies between blocks, and with loaded data). */
    kc_deps d = v.deps;
    if (strncmp(name, "__syncthreads_", 14) == 0) {
        d.axes = 0;
        d.flags = (uint8_t)(d.flags & ~KC_AF_THREAD);
    }
    *out = kc_cuda_ty_is_int(rt) ? kc_cuda_v_index(kc_cuda_ix_opaque(w, e, d, 32)) : kc_cuda_v_deps(d);
    return true;
}

/* The children of a call the model does not follow. The object of a
 * member function (`syncer.sync(n)`, `sems[b].release()`) is passed by
 * its address (`this`): the call reads and writes it as it likes, which is
 * no load of the object by the kernel. */
static kc_cuda_val ev_call_children(kc_cuda_walk *w, CXCursor e, CXCursor ref)
{
    /* (a member clang did not resolve, one a missing macro hides, too) */
    bool member = clang_Cursor_isNull(ref) || (ref.kind == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(ref));
    CXCursor obj = member ? kc_cuda_member_object(e) : clang_getNullCursor();
    CXType ot = clang_getCanonicalType(clang_getCursorType(obj));
    bool unknown = ot.kind == CXType_Invalid || ot.kind == CXType_Unexposed || ot.kind == CXType_Dependent;
    if (clang_Cursor_isNull(obj) || !(kc_cuda_ty_is_record(ot) || (unknown && !kc_cuda_member_arrow(w->t, e))))
        return ev_children(w, e);
    return ev_kids(w, e, obj);
}

static kc_cuda_val call_named(kc_cuda_walk *w, CXCursor e, CXCursor ref, const char *name, const CXCursor *args, int na,
                              CXType rt)
{
    kc_cuda_val out;
    /* Overloaded operators of class types (float4, __half, ...). */
    if (kc_cuda_starts_with(name, "operator") && na >= 1) {
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

    /* Barriers and fences. */
    if (sync_call(w, e, name, args, na, rt, &out))
        return out;
    /* Verifier preconditions: the parameters they pin to a value. */
    if ((strcmp(name, "__requires") == 0 || strcmp(name, "__builtin_assume") == 0 || strcmp(name, "__assume") == 0) &&
        na == 1) {
        kc_cuda_pin_params(w, args[0], 0);
        return kc_cuda_v_none();
    }
    if (!clang_Cursor_isNull(ref) && (ref.kind == CXCursor_CXXMethod || ref.kind == CXCursor_FunctionDecl) &&
        kc_cuda_in_cg_namespace(ref)) {
        CXCursor obj = kc_cuda_member_object(e);
        const char *cls = NULL;
        if (!clang_Cursor_isNull(obj))
            cls = kc_cuda_cg_class_of_type(w, clang_getCursorType(obj));
        else if (na >= 1)
            cls = kc_cuda_cg_class_of_type(w, clang_getCursorType(args[0]));
        if (strcmp(name, "sync") == 0 || strcmp(name, "barrier_wait") == 0) {
            ev_children(w, e);
            kc_cuda_mk_barrier(w, e, kc_arena_printf(w->a, "cg::%s::sync", cls ? cls : "thread_group"));
            if (cls && (strcmp(cls, "thread_block") == 0 || strcmp(cls, "grid_group") == 0))
                kc_cuda_settle_block_values(w);
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
            int64_t tile = kc_cuda_tile_size(clang_getCursorType(obj));
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

    /* Atomics, cache-hint loads and stores, WMMA tiles (cuda_call.c). */
    if (kc_cuda_memory_call(w, e, name, args, na, rt, kc_cuda_ev, &out))
        return out;

    /* Device functions of the user, and lambdas: inlined. */
    CXCursor def = kc_cuda_inline_target(w, e, ref);
    bool lambda = false;
    if (clang_Cursor_isNull(def) && !clang_Cursor_isNull(ref) && strcmp(name, "operator()") == 0 && na >= 1) {
        def = kc_cuda_lambda_target(w, ref);
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

    kc_cuda_texture_read(w, e, name, args, na); /* anything else: the result depends on the arguments */
    const char *legacy = kc_cuda_user_overload(e) ? NULL : kc_cuda_legacy_warp_sync_name(w, name);
    uint32_t unseen = kc_cuda_call_unseen(ref) ? KC_CALL_UNSEEN : 0;
    if (legacy && !w->inline_depth)
        kc_cuda_record_call(w, e, name, KC_CALL_LEGACY_SHFL, legacy, args, na);
    else if (!legacy && kc_cuda_call_may_sync(w, e, ref, name))
        kc_cuda_record_call(w, e, name, KC_CALL_MAY_SYNC | unseen, NULL, args, na);
    else if (unseen)
        kc_cuda_record_call(w, e, name, unseen, NULL, args, na);
    /* a function of the user's it resolved (an unresolved one is a gap
     * of its own, an unknown function) that is given the kernel's memory */
    if (unseen && (!clang_Cursor_isNull(ref) || kc_cuda_user_overload(e)) && w->k->name && kc_cuda_passes_memory(args, na)) {
        kc_span sp = kc_cuda_aspan(w, e);
        if (kc_span_valid(sp))
            kc_model_add_gap(w->m, KC_GAP_UNFOLLOWED, sp, name, w->k->name);
    }
    kc_cuda_val v = ev_call_children(w, e, ref);
    if (unseen) /* not followed: its thread index may not reach the result */
        v.deps = kc_deps_unseen(v.deps);
    bool unres = clang_Cursor_isNull(ref) && clang_equalCursors(e, w->stmt_expr); /* `d.divmod(i, q, r);` */
    v.deps.loops |= kc_cuda_call_pass_loops(w, args, na, unres);
    /* (an operator called on an object passes one argument more than its parameters: not matched) */
    int np = clang_Cursor_isNull(ref) ? (unres ? na : 0) : clang_Cursor_getNumArguments(ref);
    for (int i = 0; np == na && i < na; i++)
        write_back(w, e, clang_Cursor_isNull(ref) ? kc_cuda_candidate_param(e, i, na) : clang_Cursor_getArgument(ref, (unsigned)i),
                   args[i], 0, v.deps);
    if (kc_cuda_ty_is_int(rt)) /* (`min(x, C)`: at most C) */
        return kc_cuda_v_index(kc_cuda_call_result(w, e, name, args, na, v.deps, kc_cuda_ty_bits(rt)));
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
        v = kc_cuda_ev_member(w, e, mode, kc_cuda_ev);
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
        /* an operator call that clang left unresolved in a template is
         * the built-in operator on its operands */
        if (kc_cuda_binop_of(e) != CXBinaryOperator_Invalid)
            v = ev_binary(w, e, mode);
        else if (kc_cuda_unop_of(e) != CXUnaryOperator_Invalid)
            v = ev_unary(w, e, mode);
        else if (!kc_cuda_accessor_call(w, e, mode, kc_cuda_ev, &v))
            v = ev_call(w, e, mode);
        break;
    case CXCursor_UnaryExpr: { /* sizeof, alignof */
        int64_t c;
        CXType t = clang_getCursorType(e);
        v = kc_cuda_eval_int(e, &c) ? kc_cuda_v_index(kc_cuda_ix_const(w, c, kc_cuda_ty_bits(t))) : kc_cuda_v_none();
        break;
    }
    case CXCursor_StmtExpr:
        v = ev_stmt_expr(w, e, mode);
        break;
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

/* ---- variables declared outside the function ----------------------------------- */

/* A variable declared outside the function (file scope, namespace, static
 * member) used in it. */
kc_cuda_val kc_cuda_global_value(kc_cuda_walk *w, CXCursor decl, CXCursor use, int mode)
{
    kc_cuda_bv_kind bv = kc_cuda_builtin_var(decl);
    if (bv != KC_CUDA_BV_NONE)
        return kc_cuda_builtin_value(w, bv, -1);
    const char *name = kc_cuda_spelling(w->t, decl);
    CXType t = clang_getCursorType(decl);
    if (strcmp(name, "warpSize") == 0 && !kc_cuda_in_user_code(decl))
        return kc_cuda_v_index(kc_cuda_ix_const(w, 32, 32));
    int64_t value;
    if (kc_cuda_ty_is_int(t) && clang_isConstQualifiedType(t) && kc_cuda_eval_int(decl, &value)) {
        bool created;
        uint32_t sym = kc_cuda_symbol_get(w, name, KC_SYM_CONSTEXPR, &created);
        if (created) {
            kc_symbol *s = &w->k->symbols.data[sym];
            s->has_value = true;
            s->value = value;
            s->bits = kc_cuda_ty_bits(t);
            s->span = kc_cuda_span(w->t, decl);
            if (kc_span_valid(s->span))
                s->value_origin = kc_arena_printf(w->a, "its declaration on line %u", s->span.line);
        }
        return kc_cuda_v_index(kc_cuda_ix_const(w, value, kc_cuda_ty_bits(t)));
    }
    bool device_var = kc_cuda_has_attr(decl, CXCursor_CUDADeviceAttr) ||
                      kc_cuda_has_attr(decl, CXCursor_CUDASharedAttr) ||
                      kc_cuda_has_attr(decl, CXCursor_CUDAConstantAttr);
    if (kc_cuda_ty_is_array(t) || (device_var && (kc_cuda_ty_is_arith(t) || kc_cuda_ty_is_record(t)))) {
        uint32_t sym = kc_cuda_symbol_get(w, name, KC_SYM_GLOBAL, NULL);
        kc_space space = kc_cuda_decl_space(decl, KC_MEM_GLOBAL);
        /* clang keeps an array's const on the array type: look at the canonical one. */
        if (clang_isConstQualifiedType(clang_getCanonicalType(t)))
            w->k->symbols.data[sym].facts |= KC_SF_READ_ONLY;
        if (space == KC_MEM_SHARED)
            kc_cuda_shared_array(w, decl, sym);
        kc_cuda_val p = kc_cuda_mem_pointer(w, sym, w->k->symbols.data[sym].name, space, kc_cuda_ty_innermost(t));
        if (kc_cuda_ty_is_array(t) || mode == KC_CUDA_EV_ADDR || !kc_cuda_ty_is_arith(t))
            return p;
        p.idx_expr = clang_getNullCursor();
        return kc_cuda_deref(w, p, use, t, mode);
    }
    if (kc_cuda_ty_is_ptr(t)) {
        uint32_t sym = kc_cuda_symbol_get(w, name, KC_SYM_GLOBAL, NULL);
        return kc_cuda_mem_pointer(w, sym, w->k->symbols.data[sym].name, KC_MEM_GLOBAL, kc_cuda_ty_pointee(t));
    }
    if (kc_cuda_ty_is_int(t)) {
        uint32_t sym = kc_cuda_symbol_get(w, name, KC_SYM_GLOBAL, NULL);
        return kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, kc_cuda_ty_bits(t)));
    }
    return kc_cuda_v_none();
}

/* ---- __shared__ arrays --------------------------------------------------------- */

/* The span inside the last top-level `[...]` of the declaration. */
static kc_span last_dim_span(kc_cuda_walk *w, CXCursor decl)
{
    kc_span none = {0};
    kc_span ds = kc_cuda_span(w->t, decl);
    if (!kc_span_valid(ds) || !w->t->main)
        return none;
    size_t da, db;
    kc_cuda_span_offsets(w->t, ds, &da, &db);
    kc_cuda_toks t;
    kc_cuda_main_toks(w->t, da, db, &t);
    int depth = 0;
    unsigned open = 0, close = 0;
    bool found = false;
    for (unsigned i = 0; i < t.n; i++) {
        if (kc_cuda_tok_is(&t, i, "=") && depth == 0)
            break;
        if (kc_cuda_tok_is(&t, i, "[")) {
            if (depth++ == 0)
                open = i;
        } else if (kc_cuda_tok_is(&t, i, "]")) {
            if (--depth == 0 && open + 1 < i) {
                close = i;
                found = true;
            }
        }
    }
    kc_span s = none;
    if (found) {
        CXSourceLocation a = clang_getTokenLocation(t.tu, t.v[open + 1]);
        CXSourceLocation b = clang_getRangeEnd(clang_getTokenExtent(t.tu, t.v[close - 1]));
        uint32_t l1, c1, o1, l2, c2, o2;
        if (kc_cuda_loc_in_main(w->t, a, &l1, &c1, &o1) && kc_cuda_loc_in_main(w->t, b, &l2, &c2, &o2) && o2 > o1) {
            s.line = l1;
            s.col = c1;
            s.end_line = l2;
            s.end_col = c2;
        }
    }
    return s;
}

void kc_cuda_shared_array(kc_cuda_walk *w, CXCursor decl, uint32_t sym)
{
    for (uint32_t i = 0; i < w->k->shared_arrays.len; i++)
        if (w->k->shared_arrays.data[i].symbol == sym)
            return;
    CXType t = clang_getCursorType(decl);
    if (!kc_cuda_ty_is_array(t))
        return;
    kc_shared_array s;
    memset(&s, 0, sizeof s);
    s.symbol = sym;
    s.name = w->k->symbols.data[sym].name;
    s.span = kc_cuda_span(w->t, decl);
    /* Dimensions: constant ones from the type; dependent ones (a template
     * parameter) from their size expressions, evaluated like any other. */
    KC_VEC(CXCursor) sizes = {0};
    kc_cuda_kids k;
    kc_cuda_kids_get(decl, &k);
    for (unsigned i = 0; i < k.n; i++)
        if (clang_isExpression(k.v[i].kind))
            kc_vec_push(&sizes, k.v[i]);
    kc_cuda_kids_free(&k);
    CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
    if (!clang_Cursor_isNull(init) && sizes.len && clang_equalCursors(sizes.data[sizes.len - 1], init))
        sizes.len--;
    CXType e = clang_getCanonicalType(t);
    unsigned dep = 0;
    for (int i = 0; i < KC_MAX_RANK && kc_cuda_ty_is_array(e); i++) {
        long long d = clang_getArraySize(e);
        if (d < 0 && e.kind == CXType_DependentSizedArray && dep < sizes.len) {
            kc_cuda_val v = kc_cuda_ev(w, sizes.data[dep], KC_CUDA_EV_LOAD);
            int64_t c;
            if (v.ix && kc_index_is_const(v.ix, &c) && c > 0)
                d = c;
        }
        if (e.kind == CXType_DependentSizedArray)
            dep++;
        s.dims[s.rank++] = d >= 0 ? d : -1;
        e = clang_getCanonicalType(clang_getArrayElementType(e));
    }
    kc_vec_free(&sizes);
    s.elem_bytes = kc_cuda_ty_size(kc_cuda_ty_innermost(t));
    s.last_dim_span = last_dim_span(w, decl);
    kc_vec_push(&w->k->shared_arrays, s);
}
