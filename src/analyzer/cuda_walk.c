/* cuda_walk.c — abstract interpretation of one CUDA function body.
 *
 * The walk visits statements in order with an environment that maps each
 * local variable (a VarDecl/ParmDecl cursor) to an abstract value: an
 * integer as a symbolic index expression (kc_index), a pointer as a base
 * symbol plus an element offset, anything else by what it depends on
 * (kc_deps). Memory accesses, loops, conditions and barriers are recorded
 * into the kc_kernel as they are met, each with the innermost enclosing
 * loop and condition.
 *
 * Loops are not iterated: on entry every variable assigned in the loop is
 * rebound, either as `entry + step * LOOP` when it is only ever advanced by
 * a loop-invariant step once per pass (an induction variable; LOOP is the
 * pass number), or as `entry + opaque` where the opaque atom depends on the
 * loop and on whatever the assignments read. Branches are walked with
 * copies of the environment; a variable they set differently becomes an
 * opaque atom that depends on both values and on the condition.
 *
 * Device functions called from the body are inlined (arguments bound to the
 * parameters, CU_MAX_INLINE deep, never recursively); their accesses and
 * barriers are reported at the call in the kernel.
 *
 * Every recursion is bounded by CU_MAX_DEPTH (a deeper subtree is opaque)
 * and all work by CU_WORK_BUDGET, so any input terminates quickly.
 */
#include "cuda_lower.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* How an lvalue expression is used. */
enum { EV_LOAD = 0, EV_STORE, EV_RMW, EV_ADDR };

/* An abstract value. */
typedef struct cu_val {
    const kc_index *ix;   /* integer value; NULL when not an integer or not expressible */
    kc_deps deps;         /* what the value depends on (always valid) */
    uint32_t load;        /* access whose loaded value this is, or KC_NONE */
    bool ptr;             /* a pointer/array into memory: base + off */
    uint8_t space;        /* kc_space of the memory (pointers) */
    uint8_t elem_bytes;   /* size of one element of `off`, 0 unknown */
    uint32_t base;        /* symbol of the base, or KC_NONE */
    const char *base_name;
    const char *elem_type;
    const kc_index *off;  /* offset from base in elements; NULL unknown */
    CXCursor idx_expr;    /* the index expression that last moved the pointer */
    uint32_t sparam;      /* a struct-typed kernel parameter: its index + 1 */
} cu_val;

/* A variable binding. */
typedef struct cu_bind {
    CXCursor decl;
    unsigned hash;
    const char *name;
    cu_val val;
    bool in_memory; /* a __shared__/__device__ scalar: reads and writes are accesses */
} cu_bind;

typedef KC_VEC(cu_bind) cu_env;

/* One function activation: the kernel, or an inlined device function. */
typedef struct cu_fn {
    struct cu_fn *caller;
    CXCursor decl;
    cu_env env;
    uint32_t entry_guard;
    kc_span div_return; /* first return under a thread-dependent condition */
    unsigned nret;
    bool ret_cond;      /* some return is conditional */
    cu_val ret;
} cu_fn;

/* An enclosing loop (or switch: loop == KC_NONE, a break target only). */
typedef struct cu_frame {
    uint32_t loop;
    uint32_t body_guard;
    kc_span div_exit; /* first thread-dependent break/continue in it */
} cu_frame;

/* A `#pragma unroll` found in front of a loop. */
typedef struct cu_pragma {
    kc_unroll unroll;
    int64_t count;
    kc_span span;
} cu_pragma;

/* A comparison of a condition, with the operand cursors. */
typedef struct cu_pred {
    kc_pred p;
    CXCursor lhs, rhs;
} cu_pred;

typedef KC_VEC(cu_pred) cu_preds;

typedef struct cu_walk {
    cu_tu *t;
    kc_model *m;
    kc_kernel *k;
    kc_arena *a;
    cu_fn *fn;
    uint32_t guard, loop;
    KC_VEC(cu_frame) frames;
    unsigned depth;
    unsigned inline_depth;
    CXCursor inline_stack[CU_MAX_INLINE + 1];
    kc_span call_site; /* valid while inlining: the call in the lowered function */
    uint32_t budget;
    bool in_loop_cond; /* evaluating a loop condition (evidence wording) */
} cu_walk;

static cu_val ev(cu_walk *w, CXCursor e, int mode);
static bool walk_stmt(cu_walk *w, CXCursor s);

/* ---- small helpers --------------------------------------------------------- */

static cu_val v_none(void)
{
    cu_val v;
    memset(&v, 0, sizeof v);
    v.load = KC_NONE;
    v.base = KC_NONE;
    v.idx_expr = clang_getNullCursor();
    return v;
}

static cu_val v_index(const kc_index *ix)
{
    cu_val v = v_none();
    v.ix = ix;
    v.deps = kc_index_deps(ix);
    return v;
}

static cu_val v_deps(kc_deps d)
{
    cu_val v = v_none();
    v.deps = d;
    return v;
}

static kc_deps deps_or(kc_deps a, kc_deps b)
{
    kc_deps d = {.axes = (uint8_t)(a.axes | b.axes), .flags = (uint8_t)(a.flags | b.flags),
                 .loops = a.loops | b.loops};
    return d;
}

static bool deps_thread(kc_deps d) { return d.axes != 0 || (d.flags & KC_AF_THREAD) != 0; }

static bool deps_vary(kc_deps d)
{
    return d.axes != 0 || (d.flags & (KC_AF_THREAD | KC_AF_PROGRAM)) != 0 || d.loops != 0;
}

static bool budget_ok(cu_walk *w)
{
    if (w->budget == 0)
        return false;
    w->budget--;
    return true;
}

/* Strips parentheses and single-child implicit nodes (casts, temporaries). */
static CXCursor strip(CXCursor c)
{
    for (int i = 0; i < 64; i++) {
        if (c.kind != CXCursor_ParenExpr && c.kind != CXCursor_UnexposedExpr)
            break;
        cu_kids k;
        cu_kids_get(c, &k);
        bool one = k.n == 1;
        CXCursor next = one ? k.v[0] : c;
        cu_kids_free(&k);
        if (!one)
            break;
        c = next;
    }
    return c;
}

static CXCursor referenced_decl(CXCursor c)
{
    c = strip(c);
    if (c.kind != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(c);
}

static bool same_decl(CXCursor a, CXCursor b)
{
    return !clang_Cursor_isNull(a) && !clang_Cursor_isNull(b) && clang_equalCursors(a, b);
}

/* ---- types -------------------------------------------------------------- */

static bool ty_is_int(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Char_U: case CXType_UChar: case CXType_Char16: case CXType_Char32:
    case CXType_UShort: case CXType_UInt: case CXType_ULong: case CXType_ULongLong:
    case CXType_UInt128: case CXType_Char_S: case CXType_SChar: case CXType_WChar:
    case CXType_Short: case CXType_Int: case CXType_Long: case CXType_LongLong:
    case CXType_Int128: case CXType_Enum:
        return true;
    default:
        return false;
    }
}

static bool ty_is_ptr(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer; }

static bool ty_is_array(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
    case CXType_DependentSizedArray:
        return true;
    default:
        return false;
    }
}

static bool ty_is_record(CXType t) { return clang_getCanonicalType(t).kind == CXType_Record; }

static bool ty_is_arith(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Bool: case CXType_Float: case CXType_Double: case CXType_LongDouble:
    case CXType_Half: case CXType_Float16: case CXType_BFloat16:
        return true;
    default:
        return ty_is_int(t);
    }
}

/* Width in which an integer of this type is computed: 32 or 64 (0 unknown). */
static uint8_t ty_bits(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_Char16:
    case CXType_Char32: case CXType_UShort: case CXType_UInt: case CXType_Char_S:
    case CXType_SChar: case CXType_WChar: case CXType_Short: case CXType_Int: case CXType_Enum:
        return 32;
    case CXType_Long: case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
    case CXType_Int128: case CXType_UInt128: case CXType_Pointer:
        return 64;
    default:
        return 0;
    }
}

/* The pointee as written (`T` in a template), falling back to the
 * canonical type's pointee for typedefs of pointers. */
static CXType ty_pointee(CXType t)
{
    CXType p = clang_getPointeeType(t);
    if (p.kind == CXType_Invalid)
        p = clang_getPointeeType(clang_getCanonicalType(t));
    return p;
}

static CXType ty_elem(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_Pointer)
        return clang_getPointeeType(c);
    if (ty_is_array(c))
        return clang_getArrayElementType(c);
    return c;
}

/* Scalar elements per step of a pointer to / array of `t`'s element:
 * 1 for `float *`, 33 for `float (*)[33]`; -1 when unknown. */
static int64_t ty_step_elems(CXType t)
{
    CXType e = ty_elem(t);
    int64_t n = 1;
    for (int i = 0; i < 16 && ty_is_array(e); i++) {
        long long d = clang_getArraySize(clang_getCanonicalType(e));
        if (d < 0 || n > INT64_MAX / (d ? d : 1))
            return -1;
        n *= d;
        e = clang_getArrayElementType(clang_getCanonicalType(e));
    }
    return n;
}

static CXType ty_innermost(CXType t)
{
    CXType e = clang_getCanonicalType(t);
    for (int i = 0; i < 16 && ty_is_array(e); i++)
        e = clang_getArrayElementType(clang_getCanonicalType(e));
    return e;
}

static uint8_t ty_size(CXType t)
{
    long long s = clang_Type_getSizeOf(t);
    return s > 0 && s <= 255 ? (uint8_t)s : 0;
}

static const char *ty_name(cu_walk *w, CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(t));
    const char *out = kc_arena_strdup(w->a, clang_getCString(s));
    clang_disposeString(s);
    return out;
}

/* ---- spans ----------------------------------------------------------------- */

/* Span of code in the lowered function; inlined code outside the main file
 * maps to the call. */
static kc_span wspan(cu_walk *w, CXCursor c)
{
    kc_span s = cu_span(w->t, c);
    if (!kc_span_valid(s) && w->inline_depth)
        s = w->call_site;
    return s;
}

/* Span of an access or barrier: the call when inlining. */
static kc_span aspan(cu_walk *w, CXCursor c)
{
    return w->inline_depth ? w->call_site : cu_span(w->t, c);
}

static const char *wtext(cu_walk *w, CXCursor c) { return cu_text(w->t, c); }

/* ---- index construction ---------------------------------------------------- */

static const kc_index *ix_const(cu_walk *w, int64_t v, uint8_t bits)
{
    return kc_index_const(w->a, v, bits ? bits : 32, KC_SPACE_THREADS);
}

static const kc_index *ix_atom(cu_walk *w, kc_atom_kind kind, uint32_t id, kc_deps d, uint8_t bits)
{
    return kc_index_atom(w->a, kc_atom_make(kind, id, d), bits ? bits : 32, KC_SPACE_THREADS, NULL);
}

static const kc_index *ix_opaque_text(cu_walk *w, kc_span span, const char *text, kc_deps d, uint8_t bits)
{
    uint32_t id = kc_kernel_add_opaque(w->m, w->k, span, text);
    return ix_atom(w, KC_ATOM_OPAQUE, id, d, bits);
}

static const kc_index *ix_opaque(cu_walk *w, CXCursor c, kc_deps d, uint8_t bits)
{
    return ix_opaque_text(w, wspan(w, c), wtext(w, c), d, bits);
}

static bool ix_equal(const kc_index *a, const kc_index *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->nmono != b->nmono || a->bits != b->bits)
        return false;
    for (unsigned i = 0; i < a->nmono; i++) {
        const kc_mono *x = &a->mono[i], *y = &b->mono[i];
        if (x->coef != y->coef || x->nfac != y->nfac || x->bits != y->bits)
            return false;
        for (unsigned f = 0; f < x->nfac; f++)
            if (x->fac[f].kind != y->fac[f].kind || x->fac[f].id != y->fac[f].id ||
                x->fac[f].axes != y->fac[f].axes || x->fac[f].flags != y->fac[f].flags ||
                x->fac[f].loops != y->fac[f].loops)
                return false;
    }
    return true;
}

/* The value as an index: integers as they are, anything else as an opaque
 * atom carrying its dependencies (text from `c`). */
static const kc_index *as_index(cu_walk *w, cu_val *v, CXCursor c)
{
    if (v->ix)
        return v->ix;
    uint8_t bits = clang_Cursor_isNull(c) ? 32 : ty_bits(clang_getCursorType(c));
    v->ix = ix_opaque(w, c, v->deps, bits ? bits : 32);
    return v->ix;
}

/* Exact division of every coefficient by r (pointer casts to wider types). */
static const kc_index *ix_div_exact(cu_walk *w, const kc_index *x, int64_t r)
{
    if (!x || r <= 0)
        return NULL;
    const kc_index *sum = ix_const(w, 0, x->bits);
    for (unsigned i = 0; i < x->nmono && sum; i++) {
        const kc_mono *m = &x->mono[i];
        if (m->coef % r)
            return NULL;
        const kc_index *term = ix_const(w, m->coef / r, m->bits);
        for (unsigned f = 0; f < m->nfac && term; f++)
            term = kc_index_mul(w->a, term, kc_index_atom(w->a, m->fac[f], m->bits, KC_SPACE_THREADS, NULL));
        sum = kc_index_add(w->a, sum, term);
    }
    return sum;
}

/* ---- environment ------------------------------------------------------------ */

static cu_bind *env_find(cu_fn *fn, CXCursor decl)
{
    if (clang_Cursor_isNull(decl))
        return NULL;
    unsigned h = clang_hashCursor(decl);
    for (uint32_t i = fn->env.len; i-- > 0;)
        if (fn->env.data[i].hash == h && clang_equalCursors(fn->env.data[i].decl, decl))
            return &fn->env.data[i];
    return NULL;
}

static cu_bind *env_bind(cu_walk *w, CXCursor decl, const char *name, cu_val v)
{
    cu_bind *b = env_find(w->fn, decl);
    if (b) {
        b->val = v;
        return b;
    }
    cu_bind nb = {.decl = decl, .hash = clang_hashCursor(decl), .name = name, .val = v};
    kc_vec_push(&w->fn->env, nb);
    return kc_vec_last(&w->fn->env);
}

static void env_copy(cu_env *dst, const cu_env *src)
{
    dst->data = NULL;
    dst->len = dst->cap = 0;
    kc_vec_reserve(dst, src->len);
    if (src->len)
        memcpy(dst->data, src->data, src->len * sizeof *src->data);
    dst->len = src->len;
}

static bool val_same(const cu_val *a, const cu_val *b)
{
    if (a->ptr != b->ptr)
        return false;
    if (a->ptr)
        return a->base == b->base && a->space == b->space && ix_equal(a->off, b->off);
    if (a->ix || b->ix)
        return ix_equal(a->ix, b->ix);
    return a->deps.axes == b->deps.axes && a->deps.flags == b->deps.flags && a->deps.loops == b->deps.loops &&
           a->sparam == b->sparam;
}

/* A value that is `a` on one path and `b` on another (decided by a
 * condition with deps `cd`). */
static cu_val val_join(cu_walk *w, const cu_val *a, const cu_val *b, kc_deps cd, const char *name, kc_span at)
{
    kc_deps d = deps_or(deps_or(a->deps, b->deps), cd);
    const char *text = name ? name : "?";
    if (a->ptr && b->ptr) {
        cu_val r = *a;
        if (a->base != b->base) {
            r.base = KC_NONE;
            r.base_name = NULL;
        }
        if (a->space != b->space)
            r.space = KC_MEM_UNKNOWN;
        if (!ix_equal(a->off, b->off))
            r.off = ix_opaque_text(w, at, kc_arena_printf(w->a, "offset of %s", text), d, 64);
        r.deps = d;
        r.load = KC_NONE;
        return r;
    }
    if (a->ix || b->ix) {
        uint8_t bits = a->ix ? a->ix->bits : b->ix->bits;
        cu_val r = v_index(ix_opaque_text(w, at, text, d, bits));
        return r;
    }
    cu_val r = v_deps(d);
    r.sparam = a->sparam == b->sparam ? a->sparam : 0;
    return r;
}

/* ---- symbols ---------------------------------------------------------------- */

static uint32_t symbol_get(cu_walk *w, const char *name, kc_symbol_kind kind, bool *created)
{
    uint32_t id = kc_kernel_find_symbol(w->k, name);
    if (created)
        *created = id == KC_NONE;
    if (id == KC_NONE)
        id = kc_kernel_add_symbol(w->m, w->k, name, kind);
    return id;
}

static void size_fact(cu_walk *w, const kc_index *side, kc_deps other, kc_span at)
{
    if (!side || !deps_vary(other) || deps_vary(kc_index_deps(side)))
        return;
    for (unsigned i = 0; i < side->nmono; i++)
        for (unsigned f = 0; f < side->mono[i].nfac; f++) {
            const kc_atom *a = &side->mono[i].fac[f];
            if (a->kind != KC_ATOM_SYMBOL || a->id >= w->k->symbols.len)
                continue;
            kc_symbol *s = &w->k->symbols.data[a->id];
            if (s->kind != KC_SYM_PARAM && s->kind != KC_SYM_CONSTEXPR)
                continue;
            s->facts |= KC_SF_SIZE;
            if (s->size_evidence)
                continue;
            if (deps_thread(other))
                s->size_evidence = kc_arena_printf(w->a, "compared with the thread index on line %u", at.line);
            else if (other.loops || w->in_loop_cond)
                s->size_evidence = kc_arena_printf(w->a, "bounds the loop on line %u", at.line);
            else
                s->size_evidence = kc_arena_printf(w->a, "compared with the block index on line %u", at.line);
        }
}

/* ---- conditions ------------------------------------------------------------- */

static const kc_pred *preds_copy(cu_walk *w, const cu_preds *p, uint32_t *n)
{
    *n = p ? p->len : 0;
    if (!p || !p->len)
        return NULL;
    kc_pred *out = kc_arena_alloc(w->a, p->len * sizeof *out);
    for (uint32_t i = 0; i < p->len; i++)
        out[i] = p->data[i].p;
    return out;
}

static uint32_t mk_cond(cu_walk *w, kc_span span, const char *text, kc_deps deps, bool negated,
                        const kc_pred *preds, uint32_t npreds)
{
    kc_cond c;
    memset(&c, 0, sizeof c);
    c.id = w->k->conds.len;
    c.parent = w->guard;
    c.loop = w->loop;
    c.span = span;
    c.text = text;
    c.deps = deps;
    c.negated = negated;
    c.preds = preds;
    c.npreds = npreds;
    kc_vec_push(&w->k->conds, c);
    return c.id;
}

/* Is any condition from `from` up to (not including) `stop` thread-dependent? */
static bool chain_thread_dep(cu_walk *w, uint32_t from, uint32_t stop)
{
    uint32_t guard = 0;
    for (uint32_t c = from; c != KC_NONE && c != stop && c < w->k->conds.len && guard++ < 100000;
         c = w->k->conds.data[c].parent)
        if (deps_thread(w->k->conds.data[c].deps))
            return true;
    return false;
}

static kc_cmp cmp_of(enum CXBinaryOperatorKind op)
{
    switch (op) {
    case CXBinaryOperator_LT: return KC_CMP_LT;
    case CXBinaryOperator_GT: return KC_CMP_GT;
    case CXBinaryOperator_LE: return KC_CMP_LE;
    case CXBinaryOperator_GE: return KC_CMP_GE;
    case CXBinaryOperator_EQ: return KC_CMP_EQ;
    case CXBinaryOperator_NE: return KC_CMP_NE;
    default: return (kc_cmp)0;
    }
}

static kc_cmp cmp_negate(kc_cmp c)
{
    switch (c) {
    case KC_CMP_LT: return KC_CMP_GE;
    case KC_CMP_GE: return KC_CMP_LT;
    case KC_CMP_LE: return KC_CMP_GT;
    case KC_CMP_GT: return KC_CMP_LE;
    case KC_CMP_EQ: return KC_CMP_NE;
    case KC_CMP_NE: return KC_CMP_EQ;
    }
    return c;
}

static kc_cmp cmp_mirror(kc_cmp c)
{
    switch (c) {
    case KC_CMP_LT: return KC_CMP_GT;
    case KC_CMP_GT: return KC_CMP_LT;
    case KC_CMP_LE: return KC_CMP_GE;
    case KC_CMP_GE: return KC_CMP_LE;
    default: return c;
    }
}

static enum CXBinaryOperatorKind binop_of(CXCursor c)
{
    if (c.kind != CXCursor_BinaryOperator && c.kind != CXCursor_CompoundAssignOperator)
        return CXBinaryOperator_Invalid;
    return clang_getCursorBinaryOperatorKind(c);
}

/* Evaluates a condition. `pos` receives the comparisons that hold when it is
 * true (its conjuncts), `neg` those that hold when it is false (negated
 * disjuncts); either may be NULL. The right operand of && and || runs under
 * a condition on the left one. */
static cu_val ev_cond(cu_walk *w, CXCursor e, cu_preds *pos, cu_preds *neg)
{
    CXCursor s = strip(e);
    enum CXBinaryOperatorKind op = binop_of(s);
    if (s.kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_LNot) {
        cu_kids k;
        cu_kids_get(s, &k);
        cu_val v = k.n == 1 ? ev_cond(w, k.v[0], neg, pos) : v_none();
        cu_kids_free(&k);
        v.ix = NULL;
        v.load = KC_NONE;
        return v;
    }
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
        cu_kids k;
        cu_kids_get(s, &k);
        if (k.n != 2) {
            cu_kids_free(&k);
            return ev(w, e, EV_LOAD);
        }
        bool and = op == CXBinaryOperator_LAnd;
        cu_preds lp = {0};
        cu_val l = ev_cond(w, k.v[0], and ? pos : &lp, and ? &lp : neg);
        /* The right operand runs only when the left one allows it. */
        uint32_t saved = w->guard;
        uint32_t np;
        const kc_pred *pp = preds_copy(w, &lp, &np);
        w->guard = mk_cond(w, wspan(w, k.v[0]), wtext(w, k.v[0]), l.deps, !and, pp, np);
        cu_val r = ev_cond(w, k.v[1], and ? pos : NULL, and ? NULL : neg);
        w->guard = saved;
        kc_vec_free(&lp);
        cu_kids_free(&k);
        return v_deps(deps_or(l.deps, r.deps));
    }
    kc_cmp cmp = cmp_of(op);
    if (cmp) {
        cu_kids k;
        cu_kids_get(s, &k);
        if (k.n != 2) {
            cu_kids_free(&k);
            return ev(w, e, EV_LOAD);
        }
        cu_val l = ev(w, k.v[0], EV_LOAD);
        cu_val r = ev(w, k.v[1], EV_LOAD);
        kc_span at = wspan(w, s);
        kc_pred p = {.lhs = l.ptr ? l.off : l.ix, .rhs = r.ptr ? r.off : r.ix, .op = cmp, .span = at};
        size_fact(w, p.lhs, r.ptr ? kc_index_deps(r.off) : r.deps, at);
        size_fact(w, p.rhs, l.ptr ? kc_index_deps(l.off) : l.deps, at);
        if (!p.lhs && !p.rhs)
            pos = neg = NULL; /* floating-point comparison: no index predicate */
        if (pos) {
            cu_pred cp = {.p = p, .lhs = k.v[0], .rhs = k.v[1]};
            kc_vec_push(pos, cp);
        }
        if (neg) {
            cu_pred cp = {.p = p, .lhs = k.v[0], .rhs = k.v[1]};
            cp.p.op = cmp_negate(cmp);
            kc_vec_push(neg, cp);
        }
        cu_kids_free(&k);
        return v_deps(deps_or(l.deps, r.deps));
    }
    cu_val v = ev(w, e, EV_LOAD);
    return v;
}

/* ---- accesses and barriers ------------------------------------------------- */

static uint32_t mk_access(cu_walk *w, kc_access_kind kind, const cu_val *p, CXCursor whole, CXCursor addr,
                          bool via_ldg)
{
    kc_access a;
    memset(&a, 0, sizeof a);
    a.id = w->k->accesses.len;
    a.kind = kind;
    a.space = p->ptr ? (kc_space)p->space : KC_MEM_UNKNOWN;
    if (!a.space)
        a.space = KC_MEM_UNKNOWN;
    a.base = p->base;
    a.base_name = p->base_name;
    a.offset = p->off;
    a.elem_bytes = p->elem_bytes;
    a.elem_type = p->elem_type;
    a.loop = w->loop;
    a.guard = w->guard;
    a.span = aspan(w, whole);
    if (w->inline_depth || clang_Cursor_isNull(addr)) {
        a.addr_span = a.span;
        a.addr_text = w->inline_depth ? cu_span_text(w->t, a.span) : wtext(w, whole);
    } else {
        a.addr_span = cu_span(w->t, addr);
        a.addr_text = wtext(w, addr);
    }
    a.via_ldg = via_ldg;
    kc_vec_push(&w->k->accesses, a);
    return a.id;
}

/* The value read by access `acc` through pointer `p`, of type `t`. */
static cu_val load_value(cu_walk *w, uint32_t acc, const cu_val *p, CXType t)
{
    kc_deps ad = p->off ? kc_index_deps(p->off) : p->deps;
    kc_deps d = {.axes = ad.axes, .flags = (uint8_t)(KC_AF_DATA | ad.flags), .loops = ad.loops};
    cu_val v = v_deps(d);
    v.load = acc;
    if (ty_is_int(t))
        v.ix = ix_atom(w, KC_ATOM_DATA, acc, d, ty_bits(t));
    else if (ty_is_ptr(t)) {
        v.ptr = true;
        v.space = KC_MEM_UNKNOWN;
        v.off = ix_const(w, 0, 64);
        CXType e = ty_pointee(t);
        v.elem_bytes = ty_size(e);
        v.elem_type = ty_name(w, e);
    }
    return v;
}

/* Reads/writes the element `p` points to, as `mode` says. `whole` is the
 * access expression, `addr` the index expression. */
static cu_val deref(cu_walk *w, cu_val p, CXCursor whole, CXType t, int mode)
{
    if (mode == EV_ADDR)
        return p;
    CXCursor addr = p.idx_expr;
    if (mode == EV_STORE) {
        mk_access(w, KC_ACC_STORE, &p, whole, addr, false);
        return v_deps(p.deps);
    }
    uint32_t id = mk_access(w, KC_ACC_LOAD, &p, whole, addr, false);
    cu_val v = load_value(w, id, &p, t);
    if (mode == EV_RMW)
        mk_access(w, KC_ACC_STORE, &p, whole, addr, false);
    return v;
}

/* p + idx * unit (unit: scalar elements per step, -1 unknown). */
static cu_val ptr_add(cu_walk *w, cu_val p, cu_val *idx, CXCursor idx_expr, int64_t unit, int sign)
{
    const kc_index *i = as_index(w, idx, idx_expr);
    if (sign < 0)
        i = kc_index_scale(w->a, i, -1);
    const kc_index *step = unit >= 0 ? kc_index_scale(w->a, kc_index_cast(w->a, i, 64), unit) : NULL;
    const kc_index *off = p.off && step ? kc_index_add(w->a, p.off, step) : NULL;
    if (!off) {
        kc_deps d = deps_or(p.off ? kc_index_deps(p.off) : p.deps, idx->deps);
        off = ix_opaque(w, idx_expr, d, 64);
    }
    p.off = off;
    p.deps = kc_index_deps(off);
    p.idx_expr = idx_expr;
    p.load = KC_NONE;
    return p;
}

static kc_span find_div_exit(cu_walk *w)
{
    for (uint32_t i = w->frames.len; i-- > 0;)
        if (kc_span_valid(w->frames.data[i].div_exit))
            return w->frames.data[i].div_exit;
    for (cu_fn *f = w->fn; f; f = f->caller)
        if (kc_span_valid(f->div_return))
            return f->div_return;
    kc_span none = {0};
    return none;
}

static void mk_barrier(cu_walk *w, CXCursor at, const char *name)
{
    kc_barrier b;
    memset(&b, 0, sizeof b);
    b.span = aspan(w, at);
    b.name = kc_arena_strdup(w->a, name);
    b.guard = w->guard;
    b.loop = w->loop;
    b.divergent_exit = find_div_exit(w);
    kc_vec_push(&w->k->barriers, b);
}

/* ---- CUDA built-in variables ------------------------------------------------ */

typedef enum bv_kind { BV_NONE = 0, BV_THREAD, BV_BLOCK, BV_BDIM, BV_GDIM } bv_kind;

static bv_kind builtin_var(CXCursor decl)
{
    if (decl.kind != CXCursor_VarDecl)
        return BV_NONE;
    CXString s = clang_getCursorSpelling(decl);
    const char *n = clang_getCString(s);
    bv_kind k = BV_NONE;
    if (n) {
        if (strcmp(n, "threadIdx") == 0)
            k = BV_THREAD;
        else if (strcmp(n, "blockIdx") == 0)
            k = BV_BLOCK;
        else if (strcmp(n, "blockDim") == 0)
            k = BV_BDIM;
        else if (strcmp(n, "gridDim") == 0)
            k = BV_GDIM;
    }
    clang_disposeString(s);
    if (k != BV_NONE) {
        /* Only the compiler's variables, not a user's namesake. */
        CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
        const char *tn = clang_getCString(ts);
        if (!tn || !strstr(tn, "__cuda_builtin_"))
            k = BV_NONE;
        clang_disposeString(ts);
    }
    return k;
}

/* Component named by a member expression (`.x`): 0, 1, 2 or -1. The
 * built-in variables' members are properties whose cursor has no spelling
 * (and clang does not print them): read the name after the `.` where the
 * expression is spelled (inside a macro definition when written through
 * one). */
static int member_component(cu_walk *w, CXCursor member)
{
    const char *n = cu_spelling(w->t, member);
    char buf[8] = {0};
    if (!n[0]) {
        CXFile f = NULL;
        unsigned off = 0;
        clang_getSpellingLocation(clang_getCursorLocation(member), &f, NULL, NULL, &off);
        size_t size = 0;
        const char *text = f ? clang_getFileContents(w->t->tu, f, &size) : NULL;
        if (!text || off >= size)
            return -1;
        size_t i = off, end = off + 128 < size ? off + 128 : size;
        while (i < end && text[i] != '.')
            i++;
        i++;
        while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            i++;
        size_t j = 0;
        while (i < end && j < sizeof buf - 1 &&
               ((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') || text[i] == '_'))
            buf[j++] = text[i++];
        if (i < end && ((text[i] >= '0' && text[i] <= '9') || text[i] == '_'))
            return -1;
        n = buf;
    }
    if (n[0] && !n[1])
        return n[0] == 'x' ? 0 : n[0] == 'y' ? 1 : n[0] == 'z' ? 2 : -1;
    return -1;
}

static kc_deps builtin_deps(bv_kind k, int comp)
{
    kc_deps d = {0};
    if (k == BV_THREAD) {
        d.axes = (uint8_t)(comp >= 0 ? 1u << comp : 7u);
        d.flags = KC_AF_THREAD;
    } else if (k == BV_BLOCK) {
        d.flags = KC_AF_PROGRAM;
    }
    return d;
}

static cu_val builtin_value(cu_walk *w, bv_kind k, int comp)
{
    if (comp < 0)
        return v_deps(builtin_deps(k, comp));
    static const kc_atom_kind kinds[] = {0, KC_ATOM_LANE, KC_ATOM_PROGRAM, KC_ATOM_BLOCK_DIM, KC_ATOM_GRID_DIM};
    return v_index(ix_atom(w, kinds[k], (uint32_t)comp, builtin_deps(k, comp), 32));
}

/* threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) */
static cu_val linear_thread(cu_walk *w)
{
    const kc_index *x = builtin_value(w, BV_THREAD, 0).ix, *y = builtin_value(w, BV_THREAD, 1).ix;
    const kc_index *z = builtin_value(w, BV_THREAD, 2).ix;
    const kc_index *bx = builtin_value(w, BV_BDIM, 0).ix, *by = builtin_value(w, BV_BDIM, 1).ix;
    const kc_index *r = kc_index_add(w->a, x, kc_index_mul(w->a, bx, kc_index_add(w->a, y, kc_index_mul(w->a, by, z))));
    return r ? v_index(r) : v_deps(builtin_deps(BV_THREAD, -1));
}

static cu_val block_size(cu_walk *w)
{
    const kc_index *r = builtin_value(w, BV_BDIM, 0).ix;
    r = kc_index_mul(w->a, r, builtin_value(w, BV_BDIM, 1).ix);
    r = kc_index_mul(w->a, r, builtin_value(w, BV_BDIM, 2).ix);
    return r ? v_index(r) : v_none();
}

/* ---- values of declarations ----------------------------------------------- */

static cu_val mem_pointer(cu_walk *w, uint32_t sym, const char *name, kc_space space, CXType elem)
{
    cu_val p = v_none();
    p.ptr = true;
    p.base = sym;
    p.base_name = name;
    p.space = (uint8_t)space;
    p.off = ix_const(w, 0, 64);
    p.elem_bytes = ty_size(elem);
    p.elem_type = ty_name(w, elem);
    return p;
}

static kc_space decl_space(CXCursor decl, kc_space otherwise)
{
    if (cu_has_attr(decl, CXCursor_CUDASharedAttr))
        return KC_MEM_SHARED;
    if (cu_has_attr(decl, CXCursor_CUDAConstantAttr))
        return KC_MEM_CONSTANT;
    return otherwise;
}

/* A variable declared outside the function (file scope, namespace, static
 * member) used in it. */
static cu_val global_value(cu_walk *w, CXCursor decl, CXCursor use, int mode)
{
    bv_kind bv = builtin_var(decl);
    if (bv != BV_NONE)
        return builtin_value(w, bv, -1);
    const char *name = cu_spelling(w->t, decl);
    CXType t = clang_getCursorType(decl);
    if (strcmp(name, "warpSize") == 0 && !cu_in_user_code(decl))
        return v_index(ix_const(w, 32, 32));
    int64_t value;
    if (ty_is_int(t) && clang_isConstQualifiedType(t) && cu_eval_int(decl, &value)) {
        bool created;
        uint32_t sym = symbol_get(w, name, KC_SYM_CONSTEXPR, &created);
        if (created) {
            kc_symbol *s = &w->k->symbols.data[sym];
            s->has_value = true;
            s->value = value;
            s->bits = ty_bits(t);
            s->span = cu_span(w->t, decl);
            if (kc_span_valid(s->span))
                s->value_origin = kc_arena_printf(w->a, "its declaration on line %u", s->span.line);
        }
        return v_index(ix_const(w, value, ty_bits(t)));
    }
    bool device_var = cu_has_attr(decl, CXCursor_CUDADeviceAttr) ||
                      cu_has_attr(decl, CXCursor_CUDASharedAttr) || cu_has_attr(decl, CXCursor_CUDAConstantAttr);
    if (ty_is_array(t) || (device_var && (ty_is_arith(t) || ty_is_record(t)))) {
        uint32_t sym = symbol_get(w, name, KC_SYM_GLOBAL, NULL);
        kc_space space = decl_space(decl, KC_MEM_GLOBAL);
        cu_val p = mem_pointer(w, sym, w->k->symbols.data[sym].name, space, ty_innermost(t));
        if (ty_is_array(t) || mode == EV_ADDR || !ty_is_arith(t))
            return p;
        p.idx_expr = clang_getNullCursor();
        return deref(w, p, use, t, mode);
    }
    if (ty_is_ptr(t)) {
        uint32_t sym = symbol_get(w, name, KC_SYM_GLOBAL, NULL);
        return mem_pointer(w, sym, w->k->symbols.data[sym].name, KC_MEM_GLOBAL, ty_pointee(t));
    }
    if (ty_is_int(t)) {
        uint32_t sym = symbol_get(w, name, KC_SYM_GLOBAL, NULL);
        return v_index(ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, ty_bits(t)));
    }
    return v_none();
}

static cu_val ev_declref(cu_walk *w, CXCursor e, int mode)
{
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_Cursor_isNull(ref))
        return v_none();
    switch (ref.kind) {
    case CXCursor_VarDecl:
    case CXCursor_ParmDecl: {
        cu_bind *b = env_find(w->fn, ref);
        if (!b)
            return global_value(w, ref, e, mode);
        if (b->in_memory && mode != EV_ADDR) {
            cu_val p = b->val;
            p.idx_expr = clang_getNullCursor();
            cu_val v = deref(w, p, e, clang_getCursorType(ref), mode);
            if (mode == EV_LOAD && v.load != KC_NONE && !w->k->accesses.data[v.load].value_name)
                w->k->accesses.data[v.load].value_name = b->name;
            return v;
        }
        return b->val;
    }
    case CXCursor_NonTypeTemplateParameter: {
        cu_bind *b = env_find(w->fn, ref);
        if (b)
            return b->val;
        uint32_t sym = symbol_get(w, cu_spelling(w->t, ref), KC_SYM_CONSTEXPR, NULL);
        return v_index(ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, 32));
    }
    case CXCursor_EnumConstantDecl:
        return v_index(ix_const(w, clang_getEnumConstantDeclValue(ref), 32));
    default:
        return v_none();
    }
}

/* ---- conversions ------------------------------------------------------------ */

/* The value `v` (of expression `from`) converted to type `t` by expression
 * `e` (a cast, or an implicit conversion). */
static cu_val convert(cu_walk *w, cu_val v, CXType t, CXCursor e)
{
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind == CXType_Invalid || ct.kind == CXType_Unexposed || ct.kind == CXType_Dependent)
        return v;
    if (ct.kind == CXType_Pointer) {
        if (!v.ptr)
            return v;
        CXType pointee = clang_getPointeeType(ct);
        if (clang_getCanonicalType(pointee).kind == CXType_Void)
            return v;
        uint8_t nb = ty_size(ty_innermost(pointee));
        if (nb && v.elem_bytes && nb != v.elem_bytes) {
            const kc_index *off = NULL;
            if (nb > v.elem_bytes && nb % v.elem_bytes == 0)
                off = ix_div_exact(w, v.off, nb / v.elem_bytes);
            else if (nb < v.elem_bytes && v.elem_bytes % nb == 0 && v.off)
                off = kc_index_scale(w->a, v.off, v.elem_bytes / nb);
            if (!off)
                off = ix_opaque(w, e, v.off ? kc_index_deps(v.off) : v.deps, 64);
            v.off = off;
            v.deps = kc_index_deps(off);
        }
        if (nb) {
            v.elem_bytes = nb;
            v.elem_type = ty_name(w, ty_innermost(pointee));
        }
        return v;
    }
    if (ty_is_int(ct)) {
        if (v.ptr) {
            kc_deps d = v.off ? kc_index_deps(v.off) : v.deps;
            cu_val r = v_index(ix_opaque(w, e, d, ty_bits(ct)));
            return r;
        }
        if (!v.ix)
            v.ix = ix_opaque(w, e, v.deps, ty_bits(ct));
        uint8_t bits = ty_bits(ct);
        if (bits && v.ix->bits != bits)
            v.ix = kc_index_cast(w->a, v.ix, bits);
        v.deps = kc_index_deps(v.ix);
        return v;
    }
    if (ty_is_array(ct))
        return v;
    /* bool, floating, records: keep what it depends on. */
    if (v.ptr)
        v.deps = v.off ? kc_index_deps(v.off) : v.deps;
    uint32_t sparam = ty_is_record(ct) ? v.sparam : 0;
    uint32_t load = v.load;
    kc_deps d = v.deps;
    v = v_deps(d);
    v.load = load;
    v.sparam = sparam;
    return v;
}

/* ---- expressions -------------------------------------------------------------- */

/* Generic: evaluates every child; the result depends on all of them. */
static cu_val ev_children(cu_walk *w, CXCursor e)
{
    cu_kids k;
    cu_kids_get(e, &k);
    kc_deps d = {0};
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_TypeRef || k.v[i].kind == CXCursor_TemplateRef ||
            k.v[i].kind == CXCursor_NamespaceRef)
            continue;
        cu_val v = ev(w, k.v[i], EV_LOAD);
        d = deps_or(d, v.ptr && v.off ? kc_index_deps(v.off) : v.deps);
    }
    cu_kids_free(&k);
    return v_deps(d);
}

static cu_val ev_subscript(cu_walk *w, CXCursor e, int mode)
{
    cu_kids k;
    cu_kids_get(e, &k);
    if (k.n != 2) {
        cu_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor bc = k.v[0], ic = k.v[1];
    cu_kids_free(&k);
    cu_val b = ev(w, bc, EV_LOAD);
    cu_val i = ev(w, ic, EV_LOAD);
    if (!b.ptr && i.ptr) { /* i[p] */
        cu_val tv = b;
        b = i;
        i = tv;
        CXCursor tc = bc;
        bc = ic;
        ic = tc;
    }
    if (!b.ptr) {
        /* Unknown base (a call's result, an unresolved member): keep the
         * index relative to an unknown base. */
        b = v_none();
        b.ptr = true;
        b.space = KC_MEM_UNKNOWN;
        b.off = ix_const(w, 0, 64);
        CXType et = clang_getCursorType(e);
        b.elem_bytes = ty_size(ty_innermost(et));
        b.elem_type = ty_name(w, ty_innermost(et));
    }
    cu_val p = ptr_add(w, b, &i, ic, ty_step_elems(clang_getCursorType(bc)), 1);
    CXType rt = clang_getCursorType(e);
    if (ty_is_array(rt))
        return p;
    return deref(w, p, e, rt, mode);
}

static cu_val struct_field(cu_walk *w, const cu_val *base, CXCursor member)
{
    uint32_t pidx = base->sparam - 1;
    const char *pname = pidx < w->k->params.len ? w->k->params.data[pidx].name : "?";
    const char *field = cu_spelling(w->t, member);
    const char *name = kc_arena_printf(w->a, "%s.%s", pname, field);
    CXType t = clang_getCursorType(member);
    bool created;
    uint32_t sym = symbol_get(w, name, KC_SYM_PARAM, &created);
    kc_symbol *s = &w->k->symbols.data[sym];
    if (created) {
        s->param = pidx;
        s->bits = ty_bits(t);
        s->span = pidx < w->k->params.len ? w->k->params.data[pidx].span : s->span;
        if (ty_is_ptr(t))
            s->facts |= KC_SF_POINTER;
    }
    if (ty_is_ptr(t))
        return mem_pointer(w, sym, s->name, KC_MEM_GLOBAL, ty_pointee(t));
    if (ty_is_int(t))
        return v_index(ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, ty_bits(t)));
    cu_val v = v_none();
    if (ty_is_record(t))
        v.sparam = base->sparam; /* nested struct: fields keep the parameter */
    return v;
}

static const char *callee_name(cu_walk *w, CXCursor call, CXCursor ref);

static cu_val ev_member(cu_walk *w, CXCursor e, int mode)
{
    cu_kids k;
    cu_kids_get(e, &k);
    CXCursor base = k.n >= 1 ? k.v[0] : clang_getNullCursor();
    cu_kids_free(&k);
    if (clang_Cursor_isNull(base))
        return v_none(); /* implicit this->member */
    CXCursor sb = strip(base);
    if (sb.kind == CXCursor_DeclRefExpr) {
        bv_kind bv = builtin_var(clang_getCursorReferenced(sb));
        if (bv != BV_NONE)
            return builtin_value(w, bv, member_component(w, e));
    }
    if (sb.kind == CXCursor_CallExpr) {
        /* cooperative groups: block.group_index().x and friends */
        const char *n = callee_name(w, sb, clang_getCursorReferenced(sb));
        int comp = member_component(w, e);
        if (comp >= 0) {
            if (strcmp(n, "group_index") == 0 || strcmp(n, "block_index") == 0)
                return builtin_value(w, BV_BLOCK, comp);
            if (strcmp(n, "thread_index") == 0)
                return builtin_value(w, BV_THREAD, comp);
            if (strcmp(n, "group_dim") == 0 || strcmp(n, "dim_threads") == 0)
                return builtin_value(w, BV_BDIM, comp);
            if (strcmp(n, "dim_blocks") == 0)
                return builtin_value(w, BV_GDIM, comp);
        }
    }
    cu_val b = ev(w, base, mode == EV_ADDR ? EV_ADDR : mode);
    if (b.sparam && !b.ptr)
        return struct_field(w, &b, e);
    CXType t = clang_getCursorType(e);
    kc_deps d = b.ptr && b.off ? kc_index_deps(b.off) : b.deps;
    cu_val v = v_deps(d);
    if (b.load != KC_NONE && ty_is_int(t))
        v.ix = ix_atom(w, KC_ATOM_DATA, b.load, d, ty_bits(t));
    v.load = b.load;
    return v;
}

static bool is_incdec(enum CXUnaryOperatorKind op)
{
    return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
           op == CXUnaryOperator_PreDec;
}

static cu_val ptr_offset(cu_walk *w, cu_val p, int64_t delta)
{
    const kc_index *off = p.off ? kc_index_add(w->a, p.off, ix_const(w, delta, 64)) : NULL;
    p.off = off;
    p.deps = off ? kc_index_deps(off) : p.deps;
    p.load = KC_NONE;
    return p;
}

static cu_val ev_incdec(cu_walk *w, CXCursor e, CXCursor operand, enum CXUnaryOperatorKind op)
{
    int sign = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
    bool pre = op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec;
    CXCursor decl = referenced_decl(operand);
    cu_bind *b = env_find(w->fn, decl);
    if (!b || b->in_memory) {
        cu_val v = ev(w, operand, EV_RMW);
        return v_deps(v.deps);
    }
    cu_val old = b->val, nv;
    if (old.ptr) {
        int64_t unit = ty_step_elems(clang_getCursorType(operand));
        nv = ptr_offset(w, old, unit >= 0 ? sign * unit : 0);
        if (unit < 0)
            nv.off = ix_opaque(w, e, old.deps, 64);
    } else if (old.ix) {
        const kc_index *r = kc_index_add(w->a, old.ix, ix_const(w, sign, old.ix->bits));
        nv = v_index(r ? r : ix_opaque(w, e, old.deps, old.ix->bits));
    } else {
        nv = old;
        nv.load = KC_NONE;
    }
    b = env_find(w->fn, decl);
    b->val = nv;
    return pre ? nv : old;
}

static cu_val ev_unary(cu_walk *w, CXCursor e, int mode)
{
    cu_kids k;
    cu_kids_get(e, &k);
    if (k.n != 1) {
        cu_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor x = k.v[0];
    cu_kids_free(&k);
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
    if (is_incdec(op))
        return ev_incdec(w, e, x, op);
    switch (op) {
    case CXUnaryOperator_AddrOf: {
        cu_val v = ev(w, x, EV_ADDR);
        if (v.ptr)
            return v;
        cu_val p = v_none(); /* address of a register variable */
        p.ptr = true;
        p.space = KC_MEM_LOCAL;
        p.off = ix_const(w, 0, 64);
        return p;
    }
    case CXUnaryOperator_Deref: {
        cu_val p = ev(w, x, EV_LOAD);
        CXType rt = clang_getCursorType(e);
        if (!p.ptr) {
            p = v_none();
            p.ptr = true;
            p.space = KC_MEM_UNKNOWN;
            p.off = ix_const(w, 0, 64);
            p.elem_bytes = ty_size(rt);
        }
        if (ty_is_array(rt))
            return p;
        return deref(w, p, e, rt, mode);
    }
    case CXUnaryOperator_Minus: {
        cu_val v = ev(w, x, EV_LOAD);
        if (v.ix) {
            const kc_index *r = kc_index_scale(w->a, v.ix, -1);
            return v_index(r ? r : ix_opaque(w, e, v.deps, v.ix->bits));
        }
        return v_deps(v.deps);
    }
    case CXUnaryOperator_Plus:
    case CXUnaryOperator_Extension:
        return ev(w, x, mode);
    case CXUnaryOperator_LNot:
        return ev_cond(w, e, NULL, NULL);
    default: {
        cu_val v = ev(w, x, EV_LOAD);
        return v_deps(v.ptr && v.off ? kc_index_deps(v.off) : v.deps);
    }
    }
}

static bool ty_dependent(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    return c.kind == CXType_Unexposed || c.kind == CXType_Dependent || c.kind == CXType_Invalid;
}

/* l op r for the arithmetic operators (also the compound assignments). */
static cu_val arith(cu_walk *w, CXCursor e, enum CXBinaryOperatorKind op, cu_val l, CXCursor lc, cu_val r,
                    CXCursor rc)
{
    if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && l.ptr && !r.ptr)
        return ptr_add(w, l, &r, rc, ty_step_elems(clang_getCursorType(lc)), op == CXBinaryOperator_Sub ? -1 : 1);
    if (op == CXBinaryOperator_Add && r.ptr && !l.ptr)
        return ptr_add(w, r, &l, lc, ty_step_elems(clang_getCursorType(rc)), 1);
    kc_deps d = deps_or(l.ptr && l.off ? kc_index_deps(l.off) : l.deps, r.ptr && r.off ? kc_index_deps(r.off) : r.deps);
    CXType t = clang_getCursorType(e);
    bool integer = ty_is_int(t) || (ty_dependent(t) && l.ix && r.ix);
    if (!integer || l.ptr || r.ptr) {
        if (integer)
            return v_index(ix_opaque(w, e, d, ty_bits(t) ? ty_bits(t) : 64));
        return v_deps(d);
    }
    uint8_t bits = ty_bits(t) ? ty_bits(t) : 32;
    const kc_index *a = as_index(w, &l, lc), *b = as_index(w, &r, rc);
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
            res = ix_const(w, ca / cb, bits);
        break;
    case CXBinaryOperator_Rem:
        if (consts && cb != 0 && !(ca == INT64_MIN && cb == -1))
            res = ix_const(w, ca % cb, bits);
        break;
    case CXBinaryOperator_Shr:
        if (consts && cb >= 0 && cb < 63)
            res = ix_const(w, ca >> cb, bits);
        break;
    case CXBinaryOperator_And:
        if (consts)
            res = ix_const(w, ca & cb, bits);
        break;
    case CXBinaryOperator_Or:
        if (consts)
            res = ix_const(w, ca | cb, bits);
        break;
    case CXBinaryOperator_Xor:
        if (consts)
            res = ix_const(w, ca ^ cb, bits);
        break;
    default:
        break;
    }
    if (!res) /* division, modulo, masks, shifts right, or too many terms */
        res = ix_opaque(w, e, d, bits);
    return v_index(res);
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

static bool is_assign(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_Assign || compound_base(op) != CXBinaryOperator_Invalid;
}

static void name_load(cu_walk *w, const cu_val *v, const char *name)
{
    if (v->load != KC_NONE && v->load < w->k->accesses.len && !w->k->accesses.data[v->load].value_name)
        w->k->accesses.data[v->load].value_name = name;
}

/* Integer-typed variables always hold an index. */
static cu_val settle(cu_walk *w, cu_val v, CXCursor decl, CXCursor at)
{
    CXType t = clang_getCursorType(decl);
    if (ty_is_int(t) && !v.ptr && !v.ix) {
        v.ix = ix_opaque(w, at, v.deps, ty_bits(t));
        v.deps = kc_index_deps(v.ix);
    }
    return v;
}

static cu_val ev_assign(cu_walk *w, CXCursor e, enum CXBinaryOperatorKind op)
{
    cu_kids k;
    cu_kids_get(e, &k);
    if (k.n != 2) {
        cu_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor lc = k.v[0], rc = k.v[1];
    cu_kids_free(&k);
    cu_val r = ev(w, rc, EV_LOAD);
    CXCursor decl = referenced_decl(lc);
    cu_bind *b = env_find(w->fn, decl);
    if (b && !b->in_memory) {
        cu_val nv;
        if (op == CXBinaryOperator_Assign) {
            nv = r;
            name_load(w, &r, b->name);
        } else {
            nv = arith(w, e, compound_base(op), b->val, lc, r, rc);
        }
        nv = settle(w, nv, decl, e);
        b = env_find(w->fn, decl);
        b->val = nv;
        return nv;
    }
    ev(w, lc, op == CXBinaryOperator_Assign ? EV_STORE : EV_RMW);
    return r;
}

static cu_val ev_binary(cu_walk *w, CXCursor e, int mode)
{
    enum CXBinaryOperatorKind op = binop_of(e);
    if (is_assign(op))
        return ev_assign(w, e, op);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr || cmp_of(op))
        return ev_cond(w, e, NULL, NULL);
    cu_kids k;
    cu_kids_get(e, &k);
    if (k.n != 2) {
        cu_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor lc = k.v[0], rc = k.v[1];
    cu_kids_free(&k);
    if (op == CXBinaryOperator_Comma) {
        ev(w, lc, EV_LOAD);
        return ev(w, rc, mode);
    }
    cu_val l = ev(w, lc, EV_LOAD);
    cu_val r = ev(w, rc, EV_LOAD);
    return arith(w, e, op, l, lc, r, rc);
}

static cu_val ev_conditional(cu_walk *w, CXCursor e, int mode)
{
    cu_kids k;
    cu_kids_get(e, &k);
    if (k.n != 3) {
        cu_kids_free(&k);
        return ev_children(w, e);
    }
    CXCursor cc = k.v[0], ac = k.v[1], bc = k.v[2];
    cu_kids_free(&k);
    cu_preds pos = {0}, neg = {0};
    cu_val c = ev_cond(w, cc, &pos, &neg);
    uint32_t saved = w->guard, np;
    kc_span cs = wspan(w, cc);
    const char *ct = wtext(w, cc);
    const kc_pred *pp = preds_copy(w, &pos, &np);
    w->guard = mk_cond(w, cs, ct, c.deps, false, pp, np);
    cu_val a = ev(w, ac, mode);
    w->guard = saved;
    pp = preds_copy(w, &neg, &np);
    w->guard = mk_cond(w, cs, ct, c.deps, true, pp, np);
    cu_val b = ev(w, bc, mode);
    w->guard = saved;
    kc_vec_free(&pos);
    kc_vec_free(&neg);
    if (val_same(&a, &b))
        return a;
    cu_val j = val_join(w, &a, &b, c.deps, wtext(w, e), wspan(w, e));
    CXType t = clang_getCursorType(e);
    if (!ty_is_int(t) && !j.ptr)
        j.ix = NULL;
    return j;
}

/* A cast expression: the operand is its last expression child. */
static cu_val ev_cast(cu_walk *w, CXCursor e, int mode)
{
    cu_kids k;
    cu_kids_get(e, &k);
    CXCursor x = clang_getNullCursor();
    for (unsigned i = k.n; i-- > 0;)
        if (clang_isExpression(k.v[i].kind)) {
            x = k.v[i];
            break;
        }
    cu_kids_free(&k);
    if (clang_Cursor_isNull(x))
        return v_none();
    cu_val v = ev(w, x, mode == EV_ADDR ? EV_ADDR : EV_LOAD);
    return convert(w, v, clang_getCursorType(e), e);
}

static cu_val ev_unexposed(cu_walk *w, CXCursor e, int mode)
{
    cu_kids k;
    cu_kids_get(e, &k);
    if (k.n == 1) {
        CXCursor x = k.v[0];
        cu_kids_free(&k);
        cu_val v = ev(w, x, mode);
        CXType t = clang_getCursorType(e);
        if (ty_is_array(t) || ty_is_array(clang_getCursorType(x)))
            return v;
        return convert(w, v, t, e);
    }
    unsigned n = k.n;
    cu_kids_free(&k);
    if (n == 0) {
        int64_t c;
        CXType t = clang_getCursorType(e);
        if (ty_is_int(t) && cu_eval_int(e, &c))
            return v_index(ix_const(w, c, ty_bits(t)));
        return v_none();
    }
    return ev_children(w, e);
}

/* ---- calls ------------------------------------------------------------------ */

static const char *callee_name(cu_walk *w, CXCursor call, CXCursor ref)
{
    if (!clang_Cursor_isNull(ref))
        return cu_spelling(w->t, ref);
    cu_kids k;
    cu_kids_get(call, &k);
    const char *n = NULL;
    if (k.n >= 1) {
        CXCursor c = strip(k.v[0]);
        if (c.kind == CXCursor_OverloadedDeclRef || c.kind == CXCursor_DeclRefExpr ||
            c.kind == CXCursor_MemberRefExpr)
            n = cu_spelling(w->t, c);
    }
    cu_kids_free(&k);
    return n && n[0] ? n : cu_spelling(w->t, call);
}

/* The class a cooperative-groups method or argument belongs to:
 * "thread_block", "grid_group", "thread_block_tile", ... or NULL. */
static const char *cg_class_of_type(cu_walk *w, CXType t)
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
    cu_kids k;
    cu_kids_get(call, &k);
    CXCursor obj = clang_getNullCursor();
    if (k.n >= 1) {
        CXCursor c = strip(k.v[0]);
        if (c.kind == CXCursor_MemberRefExpr) {
            cu_kids m;
            cu_kids_get(c, &m);
            if (m.n >= 1)
                obj = m.v[0];
            cu_kids_free(&m);
        }
    }
    cu_kids_free(&k);
    return obj;
}

/* The function whose body a call to `ref` should inline, or a null cursor. */
static CXCursor inline_target(cu_walk *w, CXCursor ref)
{
    CXCursor none = clang_getNullCursor();
    if (clang_Cursor_isNull(ref) || ref.kind != CXCursor_FunctionDecl)
        return none;
    if (w->inline_depth >= CU_MAX_INLINE || w->budget < 1000)
        return none;
    CXCursor def = clang_getCursorDefinition(ref);
    if (clang_Cursor_isNull(def)) {
        CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
        if (!clang_Cursor_isNull(tmpl))
            def = clang_getCursorDefinition(tmpl);
    }
    if (clang_Cursor_isNull(def) || !cu_in_user_code(def))
        return none;
    if (!cu_has_attr(def, CXCursor_CUDADeviceAttr) || cu_has_attr(def, CXCursor_CUDAGlobalAttr))
        return none;
    if (clang_equalCursors(def, w->fn->decl))
        return none;
    for (unsigned i = 0; i < w->inline_depth; i++)
        if (clang_equalCursors(w->inline_stack[i], def))
            return none;
    return def;
}

static cu_val inline_call(cu_walk *w, CXCursor call, CXCursor def, CXCursor ref)
{
    int na = clang_Cursor_getNumArguments(call);
    cu_kids k;
    cu_kids_get(def, &k);
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
    cu_kids_free(&k);
    /* Arguments are evaluated in the caller. */
    cu_val *args = kc_xcalloc(na > 0 ? (size_t)na : 1, sizeof *args);
    kc_deps all = {0};
    for (int i = 0; i < na; i++) {
        args[i] = ev(w, clang_Cursor_getArgument(call, (unsigned)i), EV_LOAD);
        all = deps_or(all, args[i].deps);
    }
    cu_val result = v_deps(all);
    if (!clang_Cursor_isNull(body)) {
        cu_fn f;
        memset(&f, 0, sizeof f);
        f.caller = w->fn;
        f.decl = def;
        f.entry_guard = w->guard;
        f.ret = v_none();
        cu_fn *caller = w->fn;
        w->fn = &f;
        for (uint32_t i = 0; i < params.len && (int)i < na; i++) {
            cu_val v = convert(w, args[i], clang_getCursorType(params.data[i]), params.data[i]);
            env_bind(w, params.data[i], cu_spelling(w->t, params.data[i]), v);
        }
        int nt = clang_Cursor_getNumTemplateArguments(ref);
        for (int i = 0; i < nt && (uint32_t)i < tparams.len; i++)
            if (tparams.data[i].kind == CXCursor_NonTypeTemplateParameter &&
                clang_Cursor_getTemplateArgumentKind(ref, (unsigned)i) == CXTemplateArgumentKind_Integral)
                env_bind(w, tparams.data[i], cu_spelling(w->t, tparams.data[i]),
                         v_index(ix_const(w, clang_Cursor_getTemplateArgumentValue(ref, (unsigned)i), 32)));
        kc_span saved_site = w->call_site;
        if (w->inline_depth == 0)
            w->call_site = cu_span(w->t, call);
        w->inline_stack[w->inline_depth++] = def;
        walk_stmt(w, body);
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
static cu_val arg_pointer(cu_walk *w, CXCursor call, unsigned i)
{
    CXCursor a = clang_Cursor_getArgument(call, i);
    cu_val p = ev(w, a, EV_LOAD);
    if (!p.ptr) {
        p = v_none();
        p.ptr = true;
        p.space = KC_MEM_UNKNOWN;
    }
    if (clang_Cursor_isNull(p.idx_expr))
        p.idx_expr = a;
    return p;
}

static cu_val ev_call(cu_walk *w, CXCursor e, int mode)
{
    (void)mode;
    if (cu_is_launch(e)) /* dynamic parallelism: launches are recorded by the scan */
        return ev_children(w, e);
    CXCursor ref = clang_getCursorReferenced(e);
    const char *name = callee_name(w, e, ref);
    int na = clang_Cursor_getNumArguments(e);
    CXType rt = clang_getCursorType(e);

    /* Barriers. */
    if (strcmp(name, "__syncthreads") == 0 || strcmp(name, "__syncthreads_count") == 0 ||
        strcmp(name, "__syncthreads_and") == 0 || strcmp(name, "__syncthreads_or") == 0 ||
        strcmp(name, "__syncwarp") == 0 || strcmp(name, "__barrier_sync") == 0) {
        cu_val v = ev_children(w, e);
        mk_barrier(w, e, name);
        return ty_is_int(rt) ? v_index(ix_opaque(w, e, v.deps, 32)) : v_deps(v.deps);
    }
    if (!clang_Cursor_isNull(ref) && (ref.kind == CXCursor_CXXMethod || ref.kind == CXCursor_FunctionDecl) &&
        in_cg_namespace(ref)) {
        CXCursor obj = member_object(e);
        const char *cls = NULL;
        if (!clang_Cursor_isNull(obj))
            cls = cg_class_of_type(w, clang_getCursorType(obj));
        else if (na >= 1)
            cls = cg_class_of_type(w, clang_getCursorType(clang_Cursor_getArgument(e, 0)));
        if (strcmp(name, "sync") == 0 || strcmp(name, "barrier_wait") == 0) {
            ev_children(w, e);
            mk_barrier(w, e, kc_arena_printf(w->a, "cg::%s::sync", cls ? cls : "thread_group"));
            return v_none();
        }
        if (cls && strcmp(cls, "thread_block") == 0) {
            if (strcmp(name, "thread_rank") == 0)
                return linear_thread(w);
            if (strcmp(name, "size") == 0 || strcmp(name, "num_threads") == 0)
                return block_size(w);
        }
        if (cls && strcmp(name, "thread_rank") == 0) {
            kc_deps d = builtin_deps(BV_THREAD, -1);
            if (strcmp(cls, "grid_group") == 0)
                d.flags |= KC_AF_PROGRAM;
            return v_index(ix_opaque(w, e, d, 32));
        }
        if (cls && (strcmp(name, "meta_group_rank") == 0)) {
            kc_deps d = builtin_deps(BV_THREAD, -1);
            return v_index(ix_opaque(w, e, d, 32));
        }
    }

    /* Atomics: read-modify-write of the first argument. */
    if (starts_with(name, "atomic") && na >= 2) {
        cu_val p = arg_pointer(w, e, 0);
        for (int i = 1; i < na; i++)
            ev(w, clang_Cursor_getArgument(e, (unsigned)i), EV_LOAD);
        uint32_t id = mk_access(w, KC_ACC_ATOMIC, &p, e, p.idx_expr, false);
        return load_value(w, id, &p, rt);
    }
    /* Loads and stores through cache-hint intrinsics. */
    if (na >= 1 && (strcmp(name, "__ldg") == 0 || strcmp(name, "__ldcg") == 0 || strcmp(name, "__ldca") == 0 ||
                    strcmp(name, "__ldcs") == 0 || strcmp(name, "__ldlu") == 0 || strcmp(name, "__ldcv") == 0)) {
        cu_val p = arg_pointer(w, e, 0);
        uint32_t id = mk_access(w, KC_ACC_LOAD, &p, e, p.idx_expr, strcmp(name, "__ldg") == 0);
        return load_value(w, id, &p, rt);
    }
    if (na >= 2 && (strcmp(name, "__stcg") == 0 || strcmp(name, "__stcs") == 0 || strcmp(name, "__stwb") == 0 ||
                    strcmp(name, "__stwt") == 0)) {
        cu_val p = arg_pointer(w, e, 0);
        ev(w, clang_Cursor_getArgument(e, 1), EV_LOAD);
        mk_access(w, KC_ACC_STORE, &p, e, p.idx_expr, false);
        return v_none();
    }

    /* Device functions of the user: inlined. */
    CXCursor def = inline_target(w, ref);
    if (!clang_Cursor_isNull(def)) {
        cu_val v = inline_call(w, e, def, ref);
        if (ty_is_int(rt) && !v.ix && !v.ptr)
            v.ix = ix_opaque(w, e, v.deps, ty_bits(rt));
        return v;
    }

    /* Anything else: the result depends on the arguments. */
    cu_val v = ev_children(w, e);
    if (ty_is_int(rt))
        return v_index(ix_opaque(w, e, v.deps, ty_bits(rt)));
    if (ty_is_ptr(rt)) {
        cu_val p = v_none();
        p.ptr = true;
        p.space = KC_MEM_UNKNOWN;
        p.deps = v.deps;
        CXType pe = ty_pointee(rt);
        p.elem_bytes = ty_size(pe);
        p.elem_type = ty_name(w, pe);
        return p;
    }
    return v;
}

/* ---- the expression dispatcher ------------------------------------------------ */

static cu_val ev(cu_walk *w, CXCursor e, int mode)
{
    if (clang_Cursor_isNull(e))
        return v_none();
    if (w->depth >= CU_MAX_DEPTH || !budget_ok(w)) {
        /* Too deep or too much work: the subtree is opaque. */
        CXType t = clang_getCursorType(e);
        return ty_is_int(t) ? v_index(ix_opaque(w, e, (kc_deps){0}, ty_bits(t))) : v_none();
    }
    w->depth++;
    cu_val v;
    switch (e.kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral: {
        int64_t c;
        CXType t = clang_getCursorType(e);
        v = cu_eval_int(e, &c) ? v_index(ix_const(w, c, ty_bits(t))) : v_none();
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
        v = v_none();
        break;
    case CXCursor_ParenExpr: {
        cu_kids k;
        cu_kids_get(e, &k);
        CXCursor x = k.n == 1 ? k.v[0] : clang_getNullCursor();
        cu_kids_free(&k);
        v = clang_Cursor_isNull(x) ? v_none() : ev(w, x, mode);
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
        v = cu_eval_int(e, &c) ? v_index(ix_const(w, c, ty_bits(t))) : v_none();
        break;
    }
    default:
        v = ev_children(w, e);
        break;
    }
    /* Integers always carry an index (an opaque atom when nothing better). */
    if (!v.ix && !v.ptr && mode == EV_LOAD) {
        CXType t = clang_getCursorType(e);
        if (ty_is_int(t))
            v.ix = ix_opaque(w, e, v.deps, ty_bits(t));
    }
    w->depth--;
    return v;
}

/* ---- loop pre-scan: what a loop assigns ------------------------------------------ */

/* A local variable assigned in a loop. */
typedef struct cu_upd {
    CXCursor decl;
    const char *name;
    unsigned nstep;
    CXCursor step[4];  /* null cursor: ++/-- */
    int8_t sign[4];
    bool nonaffine;    /* some assignment is not `v += invariant` once per pass */
    bool body_step;    /* a step in the body (not the for increment) */
    bool in_cond;      /* the loop condition reads it */
    kc_deps deps;      /* what its assignments read, and the conditions around them */
    uint64_t on;       /* bit j: its assignments read loop variable j */
    bool on_all;       /* reads a loop variable past the 64 tracked ones */
} cu_upd;

typedef struct cu_scan {
    cu_walk *w;
    KC_VEC(cu_upd) u;
    bool has_continue;
} cu_scan;

typedef struct scan_ctx {
    bool top;       /* runs exactly once per pass */
    bool in_inc;    /* inside the for increment */
    unsigned nest;  /* nested loops entered */
    kc_deps cdeps;  /* conditions around it */
    uint64_t con;
    unsigned depth;
} scan_ctx;

static int upd_index(cu_scan *sc, CXCursor decl, bool create)
{
    if (clang_Cursor_isNull(decl))
        return -1;
    for (uint32_t i = 0; i < sc->u.len; i++)
        if (clang_equalCursors(sc->u.data[i].decl, decl))
            return (int)i;
    if (!create)
        return -1;
    cu_bind *b = env_find(sc->w->fn, decl);
    if (!b || b->in_memory)
        return -1;
    cu_upd u;
    memset(&u, 0, sizeof u);
    u.decl = decl;
    u.name = b->name;
    kc_vec_push(&sc->u, u);
    return (int)sc->u.len - 1;
}

static void upd_on(cu_scan *sc, uint64_t *on, bool *all, int j)
{
    (void)sc;
    if (j < 64)
        *on |= 1ull << j;
    else
        *all = true;
}

/* What an expression reads, syntactically: loop variables (as bits), other
 * variables (their current deps), thread indices, memory (DATA). */
static kc_deps sdeps(cu_scan *sc, CXCursor c, uint64_t *on, bool *all, bool *impure, unsigned depth)
{
    kc_deps d = {0};
    if (clang_Cursor_isNull(c) || depth > CU_MAX_DEPTH || !budget_ok(sc->w))
        return d;
    switch (c.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(c);
        int j = upd_index(sc, ref, false);
        if (j >= 0) {
            upd_on(sc, on, all, j);
            return d;
        }
        cu_bind *b = env_find(sc->w->fn, ref);
        if (b) {
            d = b->val.ptr && b->val.off ? kc_index_deps(b->val.off) : b->val.deps;
            if (b->in_memory)
                d.flags |= KC_AF_DATA;
        }
        return d;
    }
    case CXCursor_MemberRefExpr: {
        cu_kids k;
        cu_kids_get(c, &k);
        if (k.n == 1) {
            CXCursor sb = strip(k.v[0]);
            bv_kind bv = sb.kind == CXCursor_DeclRefExpr ? builtin_var(clang_getCursorReferenced(sb)) : BV_NONE;
            if (bv != BV_NONE) {
                cu_kids_free(&k);
                return builtin_deps(bv, member_component(sc->w, c));
            }
        }
        for (unsigned i = 0; i < k.n; i++)
            d = deps_or(d, sdeps(sc, k.v[i], on, all, impure, depth + 1));
        cu_kids_free(&k);
        return d;
    }
    case CXCursor_LambdaExpr:
        return d;
    default:
        break;
    }
    bool memory = c.kind == CXCursor_ArraySubscriptExpr || c.kind == CXCursor_CallExpr ||
                  (c.kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref);
    if (memory)
        *impure = true;
    cu_kids k;
    cu_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        d = deps_or(d, sdeps(sc, k.v[i], on, all, impure, depth + 1));
    cu_kids_free(&k);
    if (memory && c.kind != CXCursor_CallExpr)
        d.flags |= KC_AF_DATA;
    return d;
}

static void upd_add(cu_scan *sc, int j, CXCursor step, int sign, CXCursor rhs, const scan_ctx *x, bool affine_form)
{
    cu_upd *u = &sc->u.data[j];
    if (!affine_form || !x->top || u->nstep >= 4) {
        u->nonaffine = true;
    } else {
        u->step[u->nstep] = step;
        u->sign[u->nstep] = (int8_t)sign;
        u->nstep++;
        if (!x->in_inc)
            u->body_step = true;
    }
    uint64_t on = 0;
    bool all = false, impure = false;
    kc_deps d = sdeps(sc, rhs, &on, &all, &impure, x->depth + 1);
    u = &sc->u.data[j];
    u->deps = deps_or(deps_or(u->deps, d), x->cdeps);
    u->on |= on | x->con;
    u->on_all |= all;
}

static void prescan(cu_scan *sc, CXCursor c, scan_ctx x);

static void prescan_kids(cu_scan *sc, CXCursor c, scan_ctx x)
{
    cu_kids k;
    cu_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        prescan(sc, k.v[i], x);
    cu_kids_free(&k);
}

/* Under a condition: not once per pass, and depending on it. */
static scan_ctx scan_under(cu_scan *sc, scan_ctx x, CXCursor cond)
{
    scan_ctx y = x;
    y.top = false;
    if (!clang_Cursor_isNull(cond)) {
        bool impure = false;
        y.cdeps = deps_or(y.cdeps, sdeps(sc, cond, &y.con, &(bool){false}, &impure, x.depth + 1));
    }
    return y;
}

static void prescan(cu_scan *sc, CXCursor c, scan_ctx x)
{
    if (clang_Cursor_isNull(c) || x.depth > CU_MAX_DEPTH || !budget_ok(sc->w))
        return;
    x.depth++;
    switch (c.kind) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = binop_of(c);
        cu_kids k;
        cu_kids_get(c, &k);
        if (k.n != 2) {
            cu_kids_free(&k);
            prescan_kids(sc, c, x);
            return;
        }
        CXCursor l = k.v[0], r = k.v[1];
        cu_kids_free(&k);
        if (is_assign(op)) {
            int j = upd_index(sc, referenced_decl(l), true);
            if (j >= 0) {
                CXCursor decl = sc->u.data[j].decl;
                if (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) {
                    upd_add(sc, j, r, op == CXBinaryOperator_AddAssign ? 1 : -1, r, &x, true);
                } else if (op == CXBinaryOperator_Assign) {
                    CXCursor rs = strip(r);
                    enum CXBinaryOperatorKind rop = binop_of(rs);
                    bool done = false;
                    if (rop == CXBinaryOperator_Add || rop == CXBinaryOperator_Sub) {
                        cu_kids rk;
                        cu_kids_get(rs, &rk);
                        if (rk.n == 2) {
                            if (same_decl(referenced_decl(rk.v[0]), decl)) {
                                upd_add(sc, j, rk.v[1], rop == CXBinaryOperator_Add ? 1 : -1, rk.v[1], &x, true);
                                done = true;
                            } else if (rop == CXBinaryOperator_Add && same_decl(referenced_decl(rk.v[1]), decl)) {
                                upd_add(sc, j, rk.v[0], 1, rk.v[0], &x, true);
                                done = true;
                            }
                        }
                        cu_kids_free(&rk);
                    }
                    if (!done)
                        upd_add(sc, j, clang_getNullCursor(), 1, r, &x, false);
                } else {
                    /* *=, >>=, ...: depends on itself and the operand */
                    upd_add(sc, j, clang_getNullCursor(), 1, r, &x, false);
                }
            } else {
                prescan(sc, l, x);
            }
            prescan(sc, r, x);
            return;
        }
        if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
            prescan(sc, l, x);
            prescan(sc, r, scan_under(sc, x, l));
            return;
        }
        prescan(sc, l, x);
        prescan(sc, r, x);
        return;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        if (is_incdec(op)) {
            cu_kids k;
            cu_kids_get(c, &k);
            CXCursor x0 = k.n == 1 ? k.v[0] : clang_getNullCursor();
            cu_kids_free(&k);
            int j = upd_index(sc, referenced_decl(x0), true);
            if (j >= 0) {
                int sign = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
                upd_add(sc, j, clang_getNullCursor(), sign, clang_getNullCursor(), &x, true);
                return;
            }
        }
        prescan_kids(sc, c, x);
        return;
    }
    case CXCursor_ConditionalOperator: {
        cu_kids k;
        cu_kids_get(c, &k);
        if (k.n == 3) {
            prescan(sc, k.v[0], x);
            scan_ctx y = scan_under(sc, x, k.v[0]);
            prescan(sc, k.v[1], y);
            prescan(sc, k.v[2], y);
        }
        cu_kids_free(&k);
        return;
    }
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt: {
        cu_kids k;
        cu_kids_get(c, &k);
        CXCursor cond = clang_getNullCursor();
        for (unsigned i = 0; i < k.n; i++)
            if (clang_isExpression(k.v[i].kind)) {
                cond = k.v[i];
                break;
            }
        scan_ctx y = scan_under(sc, x, cond);
        for (unsigned i = 0; i < k.n; i++)
            prescan(sc, k.v[i], clang_equalCursors(k.v[i], cond) ? x : y);
        cu_kids_free(&k);
        return;
    }
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt: {
        scan_ctx y = x;
        y.top = false;
        y.nest++;
        cu_kids k;
        cu_kids_get(c, &k);
        for (unsigned i = 0; i < k.n; i++)
            if (clang_isExpression(k.v[i].kind))
                y = scan_under(sc, y, k.v[i]);
        for (unsigned i = 0; i < k.n; i++)
            prescan(sc, k.v[i], y);
        cu_kids_free(&k);
        return;
    }
    case CXCursor_ContinueStmt:
        if (x.nest == 0)
            sc->has_continue = true;
        return;
    case CXCursor_LambdaExpr:
        return;
    case CXCursor_CompoundStmt:
    case CXCursor_DeclStmt:
    case CXCursor_VarDecl:
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_UnexposedStmt:
        prescan_kids(sc, c, x);
        return;
    default:
        if (clang_isExpression(c.kind)) {
            prescan_kids(sc, c, x); /* evaluated as often as its parent */
        } else {
            scan_ctx y = x;
            y.top = false;
            prescan_kids(sc, c, y);
        }
        return;
    }
}

/* Marks the loop variables that `c` reads. */
static void scan_mark_cond(cu_scan *sc, CXCursor c, unsigned depth)
{
    if (clang_Cursor_isNull(c) || depth > CU_MAX_DEPTH)
        return;
    if (c.kind == CXCursor_DeclRefExpr) {
        int j = upd_index(sc, clang_getCursorReferenced(c), false);
        if (j >= 0)
            sc->u.data[j].in_cond = true;
        return;
    }
    cu_kids k;
    cu_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        scan_mark_cond(sc, k.v[i], depth + 1);
    cu_kids_free(&k);
}

/* Closes the deps over what the loop variables read from each other, and
 * decides which ones are induction variables. */
static void scan_resolve(cu_scan *sc, uint32_t loop, bool *affine)
{
    uint32_t n = sc->u.len;
    kc_deps every = {0};
    for (uint32_t j = 0; j < n; j++) {
        sc->u.data[j].deps.loops |= kc_loop_bit(loop);
        every = deps_or(every, sc->u.data[j].deps);
    }
    for (uint32_t iter = 0; iter <= n && iter < 66; iter++) {
        bool changed = false;
        for (uint32_t j = 0; j < n; j++) {
            cu_upd *u = &sc->u.data[j];
            kc_deps d = u->deps;
            if (u->on_all)
                d = deps_or(d, every);
            for (uint32_t i = 0; i < n && i < 64; i++)
                if (u->on & (1ull << i))
                    d = deps_or(d, sc->u.data[i].deps);
            if (d.axes != u->deps.axes || d.flags != u->deps.flags || d.loops != u->deps.loops) {
                u->deps = d;
                changed = true;
            }
        }
        every = (kc_deps){0};
        for (uint32_t j = 0; j < n; j++)
            every = deps_or(every, sc->u.data[j].deps);
        if (!changed)
            break;
    }
    for (uint32_t j = 0; j < n; j++) {
        cu_upd *u = &sc->u.data[j];
        CXType t = clang_getCursorType(u->decl);
        bool ok = !u->nonaffine && u->nstep > 0 && (ty_is_int(t) || ty_is_ptr(t)) &&
                  !(sc->has_continue && u->body_step);
        for (unsigned s = 0; ok && s < u->nstep; s++) {
            if (clang_Cursor_isNull(u->step[s]))
                continue;
            uint64_t on = 0;
            bool all = false, impure = false;
            sdeps(sc, u->step[s], &on, &all, &impure, 0);
            ok = !on && !all && !impure;
        }
        affine[j] = ok;
    }
}

/* ---- declarations ------------------------------------------------------------ */

static void decl_var(cu_walk *w, CXCursor d)
{
    const char *name = cu_spelling(w->t, d);
    CXType t = clang_getCursorType(d);
    bool shared = cu_has_attr(d, CXCursor_CUDASharedAttr);
    if (ty_is_array(t) || (shared && ty_is_arith(t))) {
        /* A local or __shared__ array (or shared scalar): memory with a
         * symbol of its own. */
        kc_symbol_kind kind = clang_getCursorSemanticParent(d).kind == CXCursor_TranslationUnit ? KC_SYM_GLOBAL
                                                                                              : KC_SYM_LOCAL;
        uint32_t sym = symbol_get(w, name, kind, NULL);
        w->k->symbols.data[sym].span = cu_span(w->t, d);
        kc_space space = shared ? KC_MEM_SHARED : decl_space(d, KC_MEM_LOCAL);
        cu_val p = mem_pointer(w, sym, w->k->symbols.data[sym].name, space, ty_innermost(t));
        cu_bind *b = env_bind(w, d, name, p);
        b->in_memory = !ty_is_array(t);
        CXCursor init = clang_Cursor_getVarDeclInitializer(d);
        if (!clang_Cursor_isNull(init))
            ev(w, init, EV_LOAD);
        return;
    }
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    cu_val v;
    if (!clang_Cursor_isNull(init)) {
        v = ev(w, init, EV_LOAD);
        name_load(w, &v, name);
        v = convert(w, v, t, init);
    } else {
        v = v_none();
    }
    if (ty_is_int(t) && !v.ix && !v.ptr)
        v.ix = ix_opaque_text(w, cu_span(w->t, d), name, v.deps, ty_bits(t));
    env_bind(w, d, name, v);
}

static void walk_decl_stmt(cu_walk *w, CXCursor s)
{
    cu_kids k;
    cu_kids_get(s, &k);
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_VarDecl)
            decl_var(w, k.v[i]);
        /* type, struct and using declarations hold no code to run */
    }
    cu_kids_free(&k);
}

/* ---- tokens --------------------------------------------------------------------- */

typedef struct cu_toks {
    CXToken *v;
    unsigned n;
    CXTranslationUnit tu;
} cu_toks;

static void toks_get(cu_walk *w, CXSourceLocation a, CXSourceLocation b, cu_toks *out)
{
    out->tu = w->t->tu;
    out->v = NULL;
    out->n = 0;
    clang_tokenize(out->tu, clang_getRange(a, b), &out->v, &out->n);
}

static void toks_free(cu_toks *t)
{
    if (t->v)
        clang_disposeTokens(t->tu, t->v, t->n);
    t->v = NULL;
    t->n = 0;
}

static bool tok_is(cu_toks *t, unsigned i, const char *s)
{
    if (i >= t->n)
        return false;
    CXString sp = clang_getTokenSpelling(t->tu, t->v[i]);
    bool yes = clang_getCString(sp) && strcmp(clang_getCString(sp), s) == 0;
    clang_disposeString(sp);
    return yes;
}

static unsigned tok_off(cu_toks *t, unsigned i, unsigned *line)
{
    unsigned off = 0, l = 0;
    clang_getExpansionLocation(clang_getTokenLocation(t->tu, t->v[i]), NULL, &l, NULL, &off);
    if (line)
        *line = l;
    return off;
}

static unsigned cursor_off(CXCursor c)
{
    unsigned off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
    return off;
}

static bool tok_int(cu_walk *w, cu_toks *t, unsigned i, int64_t *v)
{
    if (i >= t->n || clang_getTokenKind(t->v[i]) != CXToken_Literal)
        return false;
    CXString sp = clang_getTokenSpelling(t->tu, t->v[i]);
    const char *p = clang_getCString(sp);
    char *end = NULL;
    long long x = p ? strtoll(p, &end, 0) : 0;
    bool ok = p && end != p;
    clang_disposeString(sp);
    (void)w;
    *v = x;
    return ok;
}

/* `#pragma unroll [N]`, `#pragma nounroll`, `#pragma GCC unroll N` and
 * `#pragma clang loop unroll(...)` between `wrapper`'s start and the loop. */
static bool parse_pragma(cu_walk *w, CXCursor wrapper, CXCursor loop, cu_pragma *out)
{
    cu_toks t;
    toks_get(w, clang_getRangeStart(clang_getCursorExtent(wrapper)),
             clang_getRangeStart(clang_getCursorExtent(loop)), &t);
    bool found = false;
    for (unsigned i = 0; i + 2 < t.n; i++) {
        if (!tok_is(&t, i, "#") || !tok_is(&t, i + 1, "pragma"))
            continue;
        unsigned line, l2;
        tok_off(&t, i, &line);
        unsigned j = i + 2, last = j;
        kc_unroll kind = KC_UNROLL_NONE;
        int64_t count = 0;
        if (tok_is(&t, j, "unroll")) {
            kind = KC_UNROLL_FULL;
            unsigned a = j + 1;
            if (tok_is(&t, a, "(")) a++;
            tok_off(&t, a < t.n ? a : j, &l2);
            if (a < t.n && l2 == line) {
                if (tok_int(w, &t, a, &count))
                    kind = KC_UNROLL_COUNT;
                else if (clang_getTokenKind(t.v[a]) == CXToken_Identifier) {
                    kind = KC_UNROLL_COUNT; /* a named constant: count unknown */
                    count = -1;
                }
            }
        } else if (tok_is(&t, j, "nounroll")) {
            kind = KC_UNROLL_DISABLE;
        } else if (tok_is(&t, j, "GCC") && tok_is(&t, j + 1, "unroll")) {
            kind = tok_int(w, &t, j + 2, &count) ? KC_UNROLL_COUNT : KC_UNROLL_FULL;
        } else if (tok_is(&t, j, "clang") && tok_is(&t, j + 1, "loop")) {
            for (unsigned a = j + 2; a + 2 < t.n; a++) {
                tok_off(&t, a, &l2);
                if (l2 != line)
                    break;
                if (tok_is(&t, a, "unroll") && tok_is(&t, a + 1, "(")) {
                    kind = tok_is(&t, a + 2, "disable") ? KC_UNROLL_DISABLE : KC_UNROLL_FULL;
                } else if (tok_is(&t, a, "unroll_count") && tok_is(&t, a + 1, "(") &&
                           tok_int(w, &t, a + 2, &count)) {
                    kind = KC_UNROLL_COUNT;
                }
            }
        }
        if (kind == KC_UNROLL_NONE)
            continue;
        if (kind == KC_UNROLL_COUNT && count >= 0 && count <= 1)
            kind = KC_UNROLL_DISABLE;
        /* The pragma's span: its tokens on its line. */
        for (unsigned a = i; a < t.n; a++) {
            tok_off(&t, a, &l2);
            if (l2 != line)
                break;
            last = a;
        }
        CXSourceRange r = clang_getRange(clang_getTokenLocation(t.tu, t.v[i]),
                                         clang_getRangeEnd(clang_getTokenExtent(t.tu, t.v[last])));
        uint32_t sl, sc, so, el, ec, eo;
        kc_span sp = {0};
        if (cu_loc_in_main(w->t, clang_getRangeStart(r), &sl, &sc, &so) &&
            cu_loc_in_main(w->t, clang_getRangeEnd(r), &el, &ec, &eo)) {
            sp.line = sl;
            sp.col = sc;
            sp.end_line = el;
            sp.end_col = ec;
        }
        out->unroll = kind;
        out->count = kind == KC_UNROLL_COUNT ? count : kind == KC_UNROLL_DISABLE ? 1 : 0;
        out->span = sp;
        found = true;
    }
    toks_free(&t);
    return found;
}

/* ---- statements ---------------------------------------------------------------- */

typedef struct if_info {
    bool is_if;
    bool then_exits, else_exits, has_else;
    kc_span span;
    const char *text;
    kc_deps deps;
    const kc_pred *pos, *neg;
    uint32_t npos, nneg;
} if_info;

static bool walk_if(cu_walk *w, CXCursor s, if_info *info)
{
    cu_kids k;
    cu_kids_get(s, &k);
    unsigned ci = 0;
    while (ci < k.n && !clang_isExpression(k.v[ci].kind))
        ci++;
    if (ci >= k.n) {
        cu_kids_free(&k);
        return false;
    }
    for (unsigned i = 0; i < ci; i++) /* init-statement, condition variable */
        walk_stmt(w, k.v[i]);
    CXCursor cond = k.v[ci];
    CXCursor then_s = ci + 1 < k.n ? k.v[ci + 1] : clang_getNullCursor();
    CXCursor else_s = ci + 2 < k.n ? k.v[ci + 2] : clang_getNullCursor();
    cu_kids_free(&k);

    cu_preds pos = {0}, neg = {0};
    cu_val c = ev_cond(w, cond, &pos, &neg);
    info->is_if = true;
    info->span = wspan(w, cond);
    info->text = wtext(w, cond);
    info->deps = c.deps;
    info->pos = preds_copy(w, &pos, &info->npos);
    info->neg = preds_copy(w, &neg, &info->nneg);
    kc_vec_free(&pos);
    kc_vec_free(&neg);
    info->has_else = !clang_Cursor_isNull(else_s);

    uint32_t saved = w->guard;
    uint32_t n0 = w->fn->env.len;
    cu_env e0;
    env_copy(&e0, &w->fn->env);
    w->guard = mk_cond(w, info->span, info->text, c.deps, false, info->pos, info->npos);
    bool ex1 = clang_Cursor_isNull(then_s) ? false : walk_stmt(w, then_s);
    cu_env e1 = w->fn->env;
    w->fn->env = e0;
    bool ex2 = false;
    if (info->has_else) {
        w->guard = mk_cond(w, info->span, info->text, c.deps, true, info->neg, info->nneg);
        ex2 = walk_stmt(w, else_s);
    }
    w->guard = saved;
    /* w->fn->env now holds the else path (or the state before the if). */
    if (ex1 && !ex2) {
        /* only the else path continues */
    } else if (ex2 && !ex1) {
        kc_vec_free(&w->fn->env);
        w->fn->env = e1;
        e1.data = NULL;
    } else if (!ex1 && !ex2) {
        for (uint32_t i = 0; i < n0 && i < e1.len && i < w->fn->env.len; i++) {
            cu_bind *b = &w->fn->env.data[i];
            if (!val_same(&e1.data[i].val, &b->val))
                b->val = val_join(w, &e1.data[i].val, &b->val, c.deps, b->name, info->span);
        }
    }
    kc_vec_free(&e1);
    if (w->fn->env.len > n0)
        w->fn->env.len = n0;
    info->then_exits = ex1;
    info->else_exits = ex2;
    return ex1 && ex2;
}

static bool walk_compound(cu_walk *w, CXCursor s)
{
    cu_kids k;
    cu_kids_get(s, &k);
    uint32_t n0 = w->fn->env.len, guard0 = w->guard;
    bool exits = false;
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_IfStmt && w->depth < CU_MAX_DEPTH) {
            if_info info;
            memset(&info, 0, sizeof info);
            w->depth++;
            bool e = walk_if(w, k.v[i], &info);
            w->depth--;
            exits |= e;
            /* `if (c) return;` — the rest of the block runs under !c. */
            if (info.is_if && info.then_exits != info.else_exits) {
                bool neg = info.then_exits;
                w->guard = mk_cond(w, info.span, info.text, info.deps, neg, neg ? info.neg : info.pos,
                                   neg ? info.nneg : info.npos);
            }
            continue;
        }
        exits |= walk_stmt(w, k.v[i]);
    }
    cu_kids_free(&k);
    w->guard = guard0;
    if (w->fn->env.len > n0)
        w->fn->env.len = n0;
    return exits;
}

static cu_frame *innermost_loop_frame(cu_walk *w)
{
    for (uint32_t i = w->frames.len; i-- > 0;)
        if (w->frames.data[i].loop != KC_NONE)
            return &w->frames.data[i];
    return NULL;
}

static bool walk_return(cu_walk *w, CXCursor s)
{
    cu_kids k;
    cu_kids_get(s, &k);
    cu_val v = k.n >= 1 ? ev(w, k.v[0], EV_LOAD) : v_none();
    cu_kids_free(&k);
    cu_fn *fn = w->fn;
    if (!kc_span_valid(fn->div_return) && chain_thread_dep(w, w->guard, fn->entry_guard))
        fn->div_return = aspan(w, s);
    bool cond = w->guard != fn->entry_guard;
    if (fn->nret == 0) {
        fn->ret = v;
    } else if (!val_same(&fn->ret, &v)) {
        kc_deps cd = {0};
        uint32_t g = 0;
        for (uint32_t c = w->guard; c != KC_NONE && c != fn->entry_guard && c < w->k->conds.len && g++ < 1000;
             c = w->k->conds.data[c].parent)
            cd = deps_or(cd, w->k->conds.data[c].deps);
        fn->ret = val_join(w, &fn->ret, &v, cd, "return value", aspan(w, s));
    }
    fn->ret_cond |= cond;
    fn->nret++;
    return true;
}

static bool walk_jump(cu_walk *w, CXCursor s, bool is_break)
{
    cu_frame *f = NULL;
    if (is_break && w->frames.len)
        f = kc_vec_last(&w->frames); /* a switch or a loop */
    else
        f = innermost_loop_frame(w);
    if (f && f->loop != KC_NONE && !kc_span_valid(f->div_exit) && chain_thread_dep(w, w->guard, f->body_guard))
        f->div_exit = aspan(w, s);
    return true;
}

static bool walk_switch(cu_walk *w, CXCursor s)
{
    cu_kids k;
    cu_kids_get(s, &k);
    unsigned ci = 0;
    while (ci < k.n && !clang_isExpression(k.v[ci].kind))
        walk_stmt(w, k.v[ci++]);
    if (ci >= k.n) {
        cu_kids_free(&k);
        return false;
    }
    CXCursor cond = k.v[ci];
    cu_val c = ev(w, cond, EV_LOAD);
    uint32_t saved = w->guard, n0 = w->fn->env.len;
    cu_env e0;
    env_copy(&e0, &w->fn->env);
    w->guard = mk_cond(w, wspan(w, cond), kc_arena_printf(w->a, "switch (%s)", wtext(w, cond)), c.deps, false,
                       NULL, 0);
    cu_frame fr = {.loop = KC_NONE, .body_guard = w->guard};
    kc_vec_push(&w->frames, fr);
    for (unsigned i = ci + 1; i < k.n; i++)
        walk_stmt(w, k.v[i]);
    w->frames.len--;
    w->guard = saved;
    for (uint32_t i = 0; i < n0 && i < e0.len && i < w->fn->env.len; i++) {
        cu_bind *b = &w->fn->env.data[i];
        if (!val_same(&e0.data[i].val, &b->val))
            b->val = val_join(w, &e0.data[i].val, &b->val, c.deps, b->name, wspan(w, cond));
    }
    kc_vec_free(&e0);
    if (w->fn->env.len > n0)
        w->fn->env.len = n0;
    cu_kids_free(&k);
    return false;
}

/* ---- loops ------------------------------------------------------------------------ */

/* The parts of a for statement. libclang leaves out the missing ones, so
 * they are told apart by where they start relative to the header's `;`. */
static void for_parts(cu_walk *w, CXCursor s, CXCursor *init, CXCursor *cond, CXCursor *inc, CXCursor *body)
{
    cu_kids k;
    cu_kids_get(s, &k);
    *init = *cond = *inc = *body = clang_getNullCursor();
    if (k.n == 0) {
        cu_kids_free(&k);
        return;
    }
    *body = k.v[k.n - 1];
    unsigned n = k.n - 1;
    if (n == 3) {
        *init = k.v[0];
        *cond = k.v[1];
        *inc = k.v[2];
    } else if (n > 0) {
        cu_toks t;
        toks_get(w, clang_getRangeStart(clang_getCursorExtent(s)), clang_getRangeStart(clang_getCursorExtent(*body)),
                 &t);
        unsigned semi[2], ns = 0;
        int depth = 0;
        for (unsigned i = 0; i < t.n && ns < 2; i++) {
            if (tok_is(&t, i, "("))
                depth++;
            else if (tok_is(&t, i, ")"))
                depth--;
            else if (depth == 1 && tok_is(&t, i, ";"))
                semi[ns++] = tok_off(&t, i, NULL);
        }
        toks_free(&t);
        if (ns == 2) {
            for (unsigned i = 0; i < n; i++) {
                unsigned off = cursor_off(k.v[i]);
                if (off < semi[0])
                    *init = k.v[i];
                else if (off < semi[1])
                    *cond = k.v[i];
                else
                    *inc = k.v[i];
            }
        } else {
            /* Written through a macro: guess from the kinds. */
            unsigned i = 0;
            if (k.v[0].kind == CXCursor_DeclStmt)
                *init = k.v[i++];
            if (i < n)
                *cond = k.v[i++];
            if (i < n)
                *inc = k.v[i++];
        }
    }
    cu_kids_free(&k);
}

/* The text that sets the loop variable in the init statement. */
static const char *init_text(cu_walk *w, CXCursor init, CXCursor var, unsigned depth)
{
    if (clang_Cursor_isNull(init) || depth > 8)
        return NULL;
    if (init.kind == CXCursor_VarDecl && clang_equalCursors(init, var)) {
        CXCursor e = clang_Cursor_getVarDeclInitializer(init);
        return clang_Cursor_isNull(e) ? NULL : wtext(w, e);
    }
    if (binop_of(init) == CXBinaryOperator_Assign) {
        cu_kids k;
        cu_kids_get(init, &k);
        const char *t = NULL;
        if (k.n == 2 && same_decl(referenced_decl(k.v[0]), var))
            t = wtext(w, k.v[1]);
        cu_kids_free(&k);
        if (t)
            return t;
    }
    if (init.kind != CXCursor_DeclStmt && binop_of(init) != CXBinaryOperator_Comma)
        return NULL;
    cu_kids k;
    cu_kids_get(init, &k);
    const char *t = NULL;
    for (unsigned i = 0; i < k.n && !t; i++)
        t = init_text(w, k.v[i], var, depth + 1);
    cu_kids_free(&k);
    return t;
}

/* Header span: from the statement's start to its body, trailing blanks cut. */
static kc_span header_span(cu_walk *w, CXCursor s, CXCursor body)
{
    kc_span sp = wspan(w, s);
    kc_span bs = clang_Cursor_isNull(body) ? sp : cu_span(w->t, body);
    if (!kc_span_valid(sp) || !kc_span_valid(bs) || bs.line < sp.line ||
        (bs.line == sp.line && bs.col <= sp.col) || cu_span(w->t, s).line == 0)
        return sp;
    size_t a, b;
    kc_span tmp = {sp.line, sp.col, bs.line, bs.col};
    cu_span_offsets(w->t, tmp, &a, &b);
    while (b > a && (w->t->src->text[b - 1] == ' ' || w->t->src->text[b - 1] == '\t' ||
                     w->t->src->text[b - 1] == '\n' || w->t->src->text[b - 1] == '\r'))
        b--;
    kc_source_position(w->t->src, b, &tmp.end_line, &tmp.end_col);
    return tmp;
}

static bool has_ops(const char *s)
{
    return strpbrk(s, " +-*/%<>&|^?()") != NULL;
}

static const char *paren(cu_walk *w, const char *s) { return has_ops(s) ? kc_arena_printf(w->a, "(%s)", s) : s; }

/* Fills the loop's bounds from its variable and condition. */
static void loop_bounds(cu_walk *w, kc_loop *L, const cu_upd *u, const cu_val *entry, const kc_index *step,
                        const char *step_text, const cu_preds *pos, CXCursor init)
{
    L->var = u->name;
    L->start = entry->ix;
    const char *st = init_text(w, init, u->decl, 0);
    if (!st && entry->ix) {
        const kc_index *x = entry->ix;
        if (x->nmono == 1 && x->mono[0].coef == 1 && x->mono[0].nfac == 1 &&
            x->mono[0].fac[0].kind == KC_ATOM_OPAQUE && x->mono[0].fac[0].id < w->k->opaques.len)
            st = w->k->opaques.data[x->mono[0].fac[0].id].text; /* a value the loop does not set */
        else
            st = kc_model_index_str(w->m, w->k, x);
    }
    L->start_text = st;
    L->step = step;
    L->step_text = step_text;
    kc_cmp op = 0;
    CXCursor other = clang_getNullCursor();
    const kc_index *bound = NULL;
    for (uint32_t i = 0; pos && i < pos->len && !op; i++) {
        const cu_pred *p = &pos->data[i];
        if (same_decl(referenced_decl(p->lhs), u->decl)) {
            op = p->p.op;
            other = p->rhs;
            bound = p->p.rhs;
        } else if (same_decl(referenced_decl(p->rhs), u->decl)) {
            op = cmp_mirror(p->p.op);
            other = p->lhs;
            bound = p->p.lhs;
        }
    }
    if (!op || !bound)
        return;
    L->end_text = wtext(w, other);
    const kc_index *end = bound;
    if (op == KC_CMP_LE)
        end = kc_index_add(w->a, bound, ix_const(w, 1, bound->bits));
    else if (op == KC_CMP_GE)
        end = kc_index_sub(w->a, bound, ix_const(w, 1, bound->bits));
    L->end = end;
    int64_t s;
    if (!step || !kc_index_is_const(step, &s) || s == 0 || !entry->ix || !end)
        goto text;
    const kc_index *diff = kc_index_sub(w->a, end, entry->ix);
    int64_t d;
    if (diff && kc_index_is_const(diff, &d)) {
        if (op == KC_CMP_EQ)
            L->trip_count = -1;
        else if (op == KC_CMP_NE)
            L->trip_count = d % s == 0 && d / s >= 0 ? d / s : -1;
        else if (s > 0)
            L->trip_count = d > 0 ? (d + s - 1) / s : 0;
        else
            L->trip_count = d < 0 ? (-d + (-s) - 1) / (-s) : 0;
    }
text:
    if (!step || !kc_index_is_const(step, &s) || s == 0 || op == KC_CMP_EQ)
        return;
    int64_t c0;
    bool zero = entry->ix && kc_index_is_const(entry->ix, &c0) && c0 == 0;
    bool bound_zero = kc_index_is_const(bound, &c0) && c0 == 0;
    const char *E = L->end_text, *S = L->start_text ? L->start_text : "?";
    const char *span;
    if (s > 0)
        span = zero ? E : kc_arena_printf(w->a, "%s - %s", E, paren(w, S));
    else
        span = bound_zero ? S : kc_arena_printf(w->a, "%s - %s", S, paren(w, E));
    if (op == KC_CMP_LE || op == KC_CMP_GE)
        span = kc_arena_printf(w->a, "%s + 1", span);
    int64_t as = s > 0 ? s : -s;
    if (as == 1)
        L->trip_text = span;
    else
        L->trip_text = kc_arena_printf(w->a, "ceil(%s / %" PRId64 ")", paren(w, span), as);
}

static bool walk_loop(cu_walk *w, CXCursor s, const cu_pragma *pr)
{
    CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor(),
             body = clang_getNullCursor(), rvar = clang_getNullCursor();
    kc_loop_kind kind = KC_LOOP_WHILE;
    cu_kids k;
    cu_kids_get(s, &k);
    switch (s.kind) {
    case CXCursor_ForStmt:
        kind = KC_LOOP_FOR;
        for_parts(w, s, &init, &cond, &inc, &body);
        break;
    case CXCursor_WhileStmt:
        if (k.n >= 2) {
            cond = k.v[k.n - 2];
            body = k.v[k.n - 1];
        }
        break;
    case CXCursor_DoStmt:
        if (k.n >= 2) {
            body = k.v[0];
            cond = k.v[1];
        }
        break;
    default: /* CXXForRangeStmt */
        kind = KC_LOOP_FOR;
        for (unsigned i = 0; i < k.n; i++)
            if (k.v[i].kind == CXCursor_VarDecl && clang_Cursor_isNull(rvar))
                rvar = k.v[i];
            else if (clang_isExpression(k.v[i].kind))
                ev(w, k.v[i], EV_LOAD);
        if (k.n)
            body = k.v[k.n - 1];
        break;
    }
    cu_kids_free(&k);

    uint32_t env0 = w->fn->env.len;
    if (!clang_Cursor_isNull(init))
        walk_stmt(w, init);

    uint32_t id = w->k->loops.len;
    kc_loop L;
    memset(&L, 0, sizeof L);
    L.id = id;
    L.parent = w->loop;
    L.kind = kind;
    L.span = header_span(w, s, body);
    L.header_text = cu_span_text(w->t, L.span);
    L.range_span = clang_Cursor_isNull(cond) ? L.span : wspan(w, cond);
    L.trip_count = -1;
    L.runtime_bound_symbol = KC_NONE;
    if (pr) {
        L.unroll = pr->unroll;
        L.unroll_count = pr->count;
        L.unroll_span = pr->span;
    }
    kc_vec_push(&w->k->loops, L);
    const kc_deps loop_bit = {.loops = kc_loop_bit(id)};

    /* What the loop assigns. */
    cu_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.w = w;
    scan_ctx x0 = {0};
    x0.top = true;
    if (!clang_Cursor_isNull(inc)) {
        scan_ctx xi = x0;
        xi.in_inc = true;
        prescan(&sc, inc, xi);
    }
    if (!clang_Cursor_isNull(body))
        prescan(&sc, body, x0);
    if (!clang_Cursor_isNull(cond)) {
        scan_ctx xc = x0;
        xc.top = false;
        prescan(&sc, cond, xc);
        scan_mark_cond(&sc, cond, 0);
    }
    uint32_t n = sc.u.len;
    bool *affine = kc_xcalloc(n ? n : 1, sizeof *affine);
    cu_val *entry = kc_xcalloc(n ? n : 1, sizeof *entry);
    scan_resolve(&sc, id, affine);

    /* The loop variable: what the increment advances and the condition
     * tests (for), or an induction variable the condition tests (while). */
    int vi = -1;
    for (uint32_t j = 0; j < n && vi < 0; j++)
        if (sc.u.data[j].in_cond && (kind == KC_LOOP_FOR ? !clang_Cursor_isNull(inc) : affine[j])) {
            /* for: must be advanced by the increment */
            if (kind == KC_LOOP_FOR) {
                bool by_inc = false;
                for (unsigned q = 0; q < sc.u.data[j].nstep; q++)
                    by_inc = true;
                if (!by_inc && !sc.u.data[j].nonaffine)
                    continue;
            }
            vi = (int)j;
        }

    /* Rebind everything the loop assigns. */
    const kc_index *var_step = NULL;
    const char *var_step_text = NULL;
    for (uint32_t j = 0; j < n; j++) {
        cu_upd *u = &sc.u.data[j];
        cu_bind *b = env_find(w->fn, u->decl);
        if (!b)
            continue;
        entry[j] = b->val;
        cu_val e = b->val;
        CXType t = clang_getCursorType(u->decl);
        uint8_t bits = ty_is_int(t) ? ty_bits(t) : 64;
        const kc_index *LOOP = ix_atom(w, KC_ATOM_LOOP, id, loop_bit, bits);
        cu_val nv = v_none();
        bool done = false;
        if (affine[j]) {
            const kc_index *step = ix_const(w, 0, bits);
            const char *stext = NULL;
            for (unsigned q = 0; q < u->nstep && step; q++) {
                cu_val sv;
                if (clang_Cursor_isNull(u->step[q])) {
                    sv = v_index(ix_const(w, 1, bits));
                    stext = u->nstep == 1 ? (u->sign[q] > 0 ? "1" : "-1") : NULL;
                } else {
                    sv = ev(w, u->step[q], EV_LOAD);
                    stext = u->nstep == 1 ? (u->sign[q] > 0 ? wtext(w, u->step[q])
                                                            : kc_arena_printf(w->a, "-%s", paren(w, wtext(w, u->step[q]))))
                                          : NULL;
                }
                const kc_index *si = as_index(w, &sv, u->step[q]);
                step = kc_index_add(w->a, step, u->sign[q] < 0 ? kc_index_scale(w->a, si, -1) : si);
            }
            if (step && e.ptr) {
                int64_t unit = ty_step_elems(t);
                const kc_index *d = unit >= 0 ? kc_index_mul(w->a, kc_index_scale(w->a, step, unit), LOOP) : NULL;
                const kc_index *off = d && e.off ? kc_index_add(w->a, e.off, d) : NULL;
                if (off) {
                    nv = e;
                    nv.off = off;
                    nv.deps = kc_index_deps(off);
                    nv.load = KC_NONE;
                    done = true;
                }
            } else if (step && !e.ptr) {
                const kc_index *ei = as_index(w, &e, u->decl);
                const kc_index *r = kc_index_add(w->a, ei, kc_index_mul(w->a, step, LOOP));
                if (r) {
                    nv = v_index(r);
                    done = true;
                }
            }
            if (done && (int)j == vi) {
                var_step = step;
                var_step_text = stext;
            }
        }
        if (!done) {
            kc_deps d = deps_or(u->deps, loop_bit);
            if ((int)j == vi && ty_is_int(t)) {
                /* A variable that is not advanced by a constant step
                 * (halving, doubling): the loop atom itself. */
                kc_deps vd = deps_or(d, e.deps);
                nv = v_index(ix_atom(w, KC_ATOM_LOOP, id, vd, bits));
                var_step_text = clang_Cursor_isNull(inc) ? NULL : wtext(w, inc);
            } else if (e.ptr) {
                nv = e;
                const kc_index *o = ix_opaque_text(w, L.span, kc_arena_printf(w->a, "%s in the loop", u->name), d, 64);
                nv.off = e.off ? kc_index_add(w->a, e.off, o) : NULL;
                if (!nv.off)
                    nv.off = o;
                nv.deps = kc_index_deps(nv.off);
                nv.load = KC_NONE;
            } else if (ty_is_int(t)) {
                const kc_index *ei = as_index(w, &e, u->decl);
                const kc_index *o = ix_opaque_text(w, L.span, u->name, d, bits);
                const kc_index *r = kc_index_add(w->a, ei, o);
                nv = v_index(r ? r : ix_opaque_text(w, L.span, u->name, deps_or(d, e.deps), bits));
            } else {
                nv = v_deps(deps_or(d, e.deps));
            }
        }
        b = env_find(w->fn, u->decl);
        b->val = nv;
    }
    if (!clang_Cursor_isNull(rvar)) {
        decl_var(w, rvar);
        cu_bind *b = env_find(w->fn, rvar);
        if (b)
            b->val = v_deps(deps_or(b->val.deps, loop_bit));
    }

    /* The passes. */
    cu_frame fr = {.loop = id, .body_guard = w->guard};
    uint32_t saved_guard = w->guard, saved_loop = w->loop;
    w->loop = id;
    cu_preds pos = {0};
    if (!clang_Cursor_isNull(cond) && kind != KC_LOOP_WHILE + 100 && s.kind != CXCursor_DoStmt) {
        w->in_loop_cond = true;
        cu_val c = ev_cond(w, cond, &pos, NULL);
        w->in_loop_cond = false;
        /* The condition holds in every pass that runs the body: for the
         * body it does not select passes, so its own loop is left out. */
        kc_deps d = c.deps;
        d.loops &= ~kc_loop_bit(id);
        uint32_t np;
        const kc_pred *pp = preds_copy(w, &pos, &np);
        w->guard = mk_cond(w, wspan(w, cond), wtext(w, cond), d, false, pp, np);
        fr.body_guard = w->guard;
    }
    kc_vec_push(&w->frames, fr);
    if (!clang_Cursor_isNull(body))
        walk_stmt(w, body);
    if (!clang_Cursor_isNull(inc))
        ev(w, inc, EV_LOAD);
    if (!clang_Cursor_isNull(cond) && s.kind == CXCursor_DoStmt) {
        w->in_loop_cond = true;
        cu_val c = ev_cond(w, cond, &pos, NULL);
        w->in_loop_cond = false;
        kc_deps d = c.deps;
        d.loops &= ~kc_loop_bit(id);
        uint32_t np;
        const kc_pred *pp = preds_copy(w, &pos, &np);
        mk_cond(w, wspan(w, cond), wtext(w, cond), d, false, pp, np);
    }
    w->frames.len--;
    w->guard = saved_guard;
    w->loop = saved_loop;

    /* Bounds and trip count. */
    kc_loop *lp = &w->k->loops.data[id];
    if (vi >= 0)
        loop_bounds(w, lp, &sc.u.data[vi], &entry[vi], var_step, var_step_text, &pos, init);
    else if (!clang_Cursor_isNull(rvar))
        lp->var = cu_spelling(w->t, rvar);

    /* After the loop: values that no longer depend on it. */
    for (uint32_t j = 0; j < n; j++) {
        cu_upd *u = &sc.u.data[j];
        cu_bind *b = env_find(w->fn, u->decl);
        if (!b)
            continue;
        cu_val cur = b->val;
        kc_deps d = cur.ptr && cur.off ? kc_index_deps(cur.off) : cur.deps;
        d = deps_or(d, u->deps);
        d.loops &= ~kc_loop_bit(id);
        CXType t = clang_getCursorType(u->decl);
        cu_val nv;
        if (cur.ptr) {
            nv = cur;
            nv.off = ix_opaque_text(w, lp->span, kc_arena_printf(w->a, "offset of %s after the loop", u->name), d, 64);
            nv.deps = d;
        } else if (ty_is_int(t)) {
            nv = v_index(ix_opaque_text(w, w->k->loops.data[id].span, u->name, d, ty_bits(t)));
        } else {
            nv = v_deps(d);
        }
        b = env_find(w->fn, u->decl);
        b->val = nv;
    }
    if (w->fn->env.len > env0)
        w->fn->env.len = env0;
    kc_vec_free(&pos);
    kc_vec_free(&sc.u);
    free(affine);
    free(entry);
    return false;
}

/* ---- statement dispatcher ----------------------------------------------------------- */

static bool is_loop(CXCursor c)
{
    return c.kind == CXCursor_ForStmt || c.kind == CXCursor_WhileStmt || c.kind == CXCursor_DoStmt ||
           c.kind == CXCursor_CXXForRangeStmt;
}

static bool walk_stmt(cu_walk *w, CXCursor s)
{
    if (clang_Cursor_isNull(s) || w->depth >= CU_MAX_DEPTH || !budget_ok(w))
        return false;
    w->depth++;
    bool exits = false;
    switch (s.kind) {
    case CXCursor_CompoundStmt:
        exits = walk_compound(w, s);
        break;
    case CXCursor_DeclStmt:
        walk_decl_stmt(w, s);
        break;
    case CXCursor_IfStmt: {
        if_info info;
        memset(&info, 0, sizeof info);
        exits = walk_if(w, s, &info);
        break;
    }
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
        exits = walk_loop(w, s, NULL);
        break;
    case CXCursor_ReturnStmt:
        exits = walk_return(w, s);
        break;
    case CXCursor_BreakStmt:
        exits = walk_jump(w, s, true);
        break;
    case CXCursor_ContinueStmt:
        exits = walk_jump(w, s, false);
        break;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        exits = true;
        break;
    case CXCursor_SwitchStmt:
        exits = walk_switch(w, s);
        break;
    case CXCursor_NullStmt:
        break;
    case CXCursor_AsmStmt:
    case CXCursor_MSAsmStmt: {
        /* Inline PTX: a bar.sync is a barrier. */
        const char *txt = wtext(w, s);
        if (strstr(txt, "bar.sync") || strstr(txt, "barrier.sync") || strstr(txt, "bar.red"))
            mk_barrier(w, s, "asm bar.sync");
        break;
    }
    case CXCursor_UnexposedStmt: {
        /* An attributed statement: `#pragma unroll` in front of a loop. */
        cu_kids k;
        cu_kids_get(s, &k);
        if (k.n >= 1 && is_loop(k.v[k.n - 1])) {
            cu_pragma pr;
            memset(&pr, 0, sizeof pr);
            CXCursor loop = k.v[k.n - 1];
            cu_kids_free(&k);
            exits = walk_loop(w, loop, parse_pragma(w, s, loop, &pr) ? &pr : NULL);
            break;
        }
        for (unsigned i = 0; i < k.n; i++)
            exits |= walk_stmt(w, k.v[i]);
        cu_kids_free(&k);
        break;
    }
    default:
        if (clang_isExpression(s.kind)) {
            ev(w, s, EV_LOAD);
        } else {
            /* case/default/label/try: their statements */
            cu_kids k;
            cu_kids_get(s, &k);
            for (unsigned i = 0; i < k.n; i++)
                exits |= walk_stmt(w, k.v[i]);
            cu_kids_free(&k);
        }
        break;
    }
    w->depth--;
    return exits;
}

/* ---- entry ----------------------------------------------------------------------------- */

static void add_params(cu_walk *w, CXCursor fn, CXCursor *body)
{
    cu_kids k;
    cu_kids_get(fn, &k);
    unsigned tindex = 0;
    KC_VEC(CXCursor) tparams = {0};
    KC_VEC(unsigned) tpos = {0};
    for (unsigned i = 0; i < k.n; i++) {
        CXCursor c = k.v[i];
        if (c.kind == CXCursor_TemplateTypeParameter || c.kind == CXCursor_TemplateTemplateParameter) {
            tindex++;
        } else if (c.kind == CXCursor_NonTypeTemplateParameter) {
            kc_vec_push(&tparams, c);
            kc_vec_push(&tpos, tindex);
            tindex++;
        } else if (c.kind == CXCursor_ParmDecl) {
            const char *name = cu_spelling(w->t, c);
            uint32_t pidx = w->k->params.len;
            if (!name[0])
                name = kc_arena_printf(w->a, "$%u", pidx);
            CXType t = clang_getCursorType(c);
            kc_param p;
            memset(&p, 0, sizeof p);
            p.name = name;
            CXString ts = clang_getTypeSpelling(t);
            p.type = kc_arena_strdup(w->a, clang_getCString(ts));
            clang_disposeString(ts);
            p.span = cu_span(w->t, c);
            p.is_pointer = ty_is_ptr(t);
            p.is_restrict = clang_isRestrictQualifiedType(t) != 0;
            CXType pointee = p.is_pointer ? ty_pointee(t) : t;
            if (p.is_pointer) {
                p.pointee_const = clang_isConstQualifiedType(pointee) != 0;
                p.elem_bytes = ty_size(pointee);
            }
            uint32_t sym = kc_kernel_add_symbol(w->m, w->k, name, KC_SYM_PARAM);
            kc_symbol *s = &w->k->symbols.data[sym];
            s->param = pidx;
            s->bits = ty_bits(t);
            s->span = p.span;
            if (p.is_pointer)
                s->facts |= KC_SF_POINTER;
            p.symbol = sym;
            kc_vec_push(&w->k->params, p);
            cu_val v;
            if (p.is_pointer) {
                v = mem_pointer(w, sym, s->name, KC_MEM_GLOBAL, pointee);
            } else if (ty_is_int(t)) {
                v = v_index(ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, ty_bits(t)));
            } else if (ty_is_record(t)) {
                v = v_none();
                v.sparam = pidx + 1;
            } else {
                v = v_none();
            }
            env_bind(w, c, name, v);
        } else if (c.kind == CXCursor_CompoundStmt) {
            *body = c;
        }
    }
    cu_kids_free(&k);
    /* Template parameters: constexpr symbols, with the values that launches
     * in this file instantiate them with. */
    for (uint32_t i = 0; i < tparams.len; i++) {
        CXCursor c = tparams.data[i];
        const char *name = cu_spelling(w->t, c);
        uint32_t sym = kc_kernel_add_symbol(w->m, w->k, name, KC_SYM_CONSTEXPR);
        CXType t = clang_getCursorType(c);
        int64_t vals[16];
        uint32_t line = 0;
        unsigned nv = cu_tvals_for(w->t, fn, tpos.data[i], vals, 16, &line);
        kc_symbol *s = &w->k->symbols.data[sym];
        s->bits = ty_bits(t) ? ty_bits(t) : 32;
        s->span = cu_span(w->t, c);
        cu_val v = v_index(ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, s->bits));
        if (nv) {
            int64_t *copy = kc_arena_alloc(w->a, (nv > 16 ? 16 : nv) * sizeof *copy);
            memcpy(copy, vals, (nv > 16 ? 16 : nv) * sizeof *copy);
            s->values = copy;
            s->nvalues = nv > 16 ? 16 : nv;
            s->value_origin = kc_arena_printf(w->a, "the launch on line %u", line);
            if (nv == 1) {
                s->has_value = true;
                s->value = vals[0];
                v = v_index(ix_const(w, vals[0], s->bits));
            }
        }
        env_bind(w, c, name, v);
    }
    kc_vec_free(&tparams);
    kc_vec_free(&tpos);
}

void cu_lower_function(cu_tu *t, CXCursor fn, kc_kernel *k, bool device_fn)
{
    cu_walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.m = t->m;
    w.k = k;
    w.a = t->m->arena;
    w.guard = KC_NONE;
    w.loop = KC_NONE;
    w.budget = CU_WORK_BUDGET;
    k->is_device_function = device_fn;
    k->span = cu_span(t, fn);
    uint32_t l, c, o;
    if (cu_loc_in_main(t, clang_getCursorLocation(fn), &l, &c, &o)) {
        k->name_span.line = l;
        k->name_span.col = c;
        k->name_span.end_line = l;
        k->name_span.end_col = c + (uint32_t)strlen(k->name);
    }
    cu_fn f;
    memset(&f, 0, sizeof f);
    f.decl = fn;
    f.entry_guard = KC_NONE;
    f.ret = v_none();
    w.fn = &f;
    CXCursor body = clang_getNullCursor();
    add_params(&w, fn, &body);
    if (!clang_Cursor_isNull(body))
        walk_stmt(&w, body);
    kc_vec_free(&f.env);
    kc_vec_free(&w.frames);
}
