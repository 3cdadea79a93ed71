/* cuda_member.c — member expressions: the built-in variables' components
 * (`threadIdx.x`), cooperative groups' indices, struct parameters' fields,
 * stores into members of structs held as values, and members of struct
 * elements in memory (`w[i].hi`, `(*p).hi`), which are accesses of the
 * bytes the member covers within the element.
 *
 * Two members of one element that do not overlap never share a byte:
 * `w[c].hi = v` by one thread and `w[c].vec[k]` read by another are not a
 * race, where the element as a whole would be. So an access to a member of
 * an element is recorded with the member's byte range (kc_access.field_off,
 * field_bytes), from the record layout clang computed; the element stays
 * the unit of the access's offset. */
#include "cuda_walk.h"

#include <string.h>

/* The bytes the member chain `e` (`.f`, `.a.b`: members reached with `.`
 * only) covers within the object it starts from, and that object's
 * expression. False when clang has no layout (a dependent type, a bit
 * field) or the range does not fit the model. `p->f` is not taken: its
 * loads, not followed before, would meet KC102's handling of loads in
 * `return f(...)` inside a loop (docs/decisions.md). */
static bool member_range(CXCursor e, CXCursor *object, unsigned *off, unsigned *bytes)
{
    long long total = 0;
    CXCursor m = e;
    for (unsigned hops = 0; m.kind == CXCursor_MemberRefExpr; hops++) {
        if (hops >= 8)
            return false;
        kc_cuda_kids k;
        kc_cuda_kids_get(m, &k);
        CXCursor base = k.n >= 1 ? k.v[0] : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        if (clang_Cursor_isNull(base))
            return false; /* an implicit `this->` */
        /* (a template's unresolved `x.f<I>(y)` shows the name as a child
         * with no type; libclang's type functions do not take that) */
        CXType bt = clang_getCursorType(base);
        if (bt.kind == CXType_Invalid)
            return false;
        bt = clang_getCanonicalType(clang_getNonReferenceType(bt));
        if (bt.kind != CXType_Record)
            return false;
        CXCursor field = clang_getCursorReferenced(m);
        if (field.kind != CXCursor_FieldDecl || clang_Cursor_isBitField(field))
            return false;
        long long bits = clang_Cursor_getOffsetOfField(field);
        if (bits < 0 || bits % 8)
            return false;
        total += bits / 8;
        m = kc_cuda_strip(base);
    }
    long long size = clang_Type_getSizeOf(clang_getCursorType(e));
    if (m.kind == CXCursor_MemberRefExpr || size <= 0 || total + size > 255)
        return false;
    *object = m;
    *off = (unsigned)total;
    *bytes = (unsigned)size;
    return true;
}

/* `w[i].f` (or `(*p).a.b`) read or written: an access of the member's
 * bytes in element i. Only an object that is an element of memory (a
 * subscript or a dereference) is taken; false otherwise, and for members
 * that are arrays (the address of their first element is another model). */
static bool element_member(kc_cuda_walk *w, CXCursor e, int mode, kc_cuda_ev_fn ev, kc_cuda_val *out)
{
    if (mode != KC_CUDA_EV_LOAD && mode != KC_CUDA_EV_STORE && mode != KC_CUDA_EV_RMW)
        return false;
    CXType t = clang_getCursorType(e);
    if (t.kind == CXType_Invalid)
        return false;
    t = clang_getNonReferenceType(t);
    if (kc_cuda_ty_is_array(t))
        return false;
    CXCursor object;
    unsigned off, bytes;
    if (!member_range(e, &object, &off, &bytes))
        return false;
    bool deref = object.kind == CXCursor_UnaryOperator && kc_cuda_unop_of(object) == CXUnaryOperator_Deref;
    if (object.kind != CXCursor_ArraySubscriptExpr && !deref)
        return false;
    /* From here on the object has been evaluated (its index's loads and
     * increments made): the caller must not evaluate it again. */
    kc_cuda_val p = ev(w, object, KC_CUDA_EV_ADDR);
    if (!p.ptr) {
        *out = kc_cuda_v_deps(p.deps);
        out->load = p.load;
        return true;
    }
    /* (an element of unknown size, a member that does not fit in it or
     * that is all of it: the access is the whole element's) */
    if (p.elem_bytes && off + bytes <= p.elem_bytes && bytes < p.elem_bytes) {
        p.field_off = (uint8_t)off;
        p.field_bytes = (uint8_t)bytes;
    }
    *out = kc_cuda_deref(w, p, e, t, mode);
    return true;
}

kc_cuda_val kc_cuda_ev_member(kc_cuda_walk *w, CXCursor e, int mode, kc_cuda_ev_fn ev)
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
    kc_cuda_val lm = kc_cuda_local_member_array(w, e, sb); /* `partial.p` of a local struct */
    if (lm.ptr)
        return lm;
    kc_cuda_val em;
    if (element_member(w, e, mode, ev, &em))
        return em;
    kc_cuda_val b = ev(w, base, mode == KC_CUDA_EV_ADDR ? KC_CUDA_EV_ADDR : mode);
    if (b.sparam && !b.ptr)
        return kc_cuda_struct_field(w, &b, e);
    CXType t = clang_getCursorType(e);
    kc_deps d = b.ptr && b.off ? kc_index_deps(b.off) : b.deps;
    kc_cuda_val v = kc_cuda_v_deps(d);
    if (b.load != KC_NONE && kc_cuda_ty_is_int(t))
        v.ix = kc_cuda_ix_atom(w, KC_ATOM_DATA, b.load, d, kc_cuda_ty_bits(t));
    v.load = b.load;
    return v;
}

void kc_cuda_member_store(kc_cuda_walk *w, CXCursor lhs, const kc_cuda_val *r)
{
    CXCursor e = kc_cuda_strip(lhs);
    unsigned hops = 0;
    while (e.kind == CXCursor_MemberRefExpr && hops++ < 16) {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        CXCursor base = k.n >= 1 ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        enum CXTypeKind bk = clang_getCanonicalType(clang_getCursorType(base)).kind;
        if (clang_Cursor_isNull(base) || bk == CXType_Pointer)
            return; /* `p->f = v`: memory, an access of its own */
        e = base;
    }
    if (e.kind != CXCursor_DeclRefExpr || hops == 0)
        return;
    kc_cuda_bind *b = kc_cuda_env_find(w->fn, clang_getCursorReferenced(e));
    if (!b || b->in_memory || b->val.ptr || b->val.ix)
        return;
    /* The struct now holds a value that may differ from pass to pass, from
     * block to block or with the data: so does what is read from it. Not
     * from thread to thread: the member read may be another one, and a
     * condition on it is not taken to diverge for that. */
    kc_deps d = r->ix ? kc_cuda_deps_or(r->deps, kc_index_deps(r->ix)) : r->deps;
    b->val.deps.loops |= d.loops;
    b->val.deps.programs |= d.programs;
    b->val.deps.flags = (uint8_t)(b->val.deps.flags | (d.flags & KC_AF_DATA));
}
