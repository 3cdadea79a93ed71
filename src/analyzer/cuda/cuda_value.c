/* cuda_value.c — the values of the CUDA interpreter: abstract values and
 * their environment, index atoms (lanes, programs, loops, symbols, data,
 * opaque sub-expressions), conditions, memory accesses, barriers, CUDA
 * built-in variables, type conversions, and arithmetic on evaluated
 * operands. */
#include "cuda_walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* ---- small helpers --------------------------------------------------------- */

kc_cuda_val kc_cuda_v_none(void)
{
    kc_cuda_val v;
    memset(&v, 0, sizeof v);
    v.load = KC_NONE;
    v.base = KC_NONE;
    v.idx_expr = clang_getNullCursor();
    return v;
}

kc_cuda_val kc_cuda_v_index(const kc_index *ix)
{
    kc_cuda_val v = kc_cuda_v_none();
    v.ix = ix;
    v.deps = kc_index_deps(ix);
    return v;
}

kc_cuda_val kc_cuda_v_deps(kc_deps d)
{
    kc_cuda_val v = kc_cuda_v_none();
    v.deps = d;
    return v;
}

kc_deps kc_cuda_deps_or(kc_deps a, kc_deps b)
{
    uint8_t sure = (uint8_t)((a.axes & ~a.unseen) | (b.axes & ~b.unseen));
    bool sure_thread = ((a.flags & KC_AF_THREAD) && !(a.unseen & KC_UNSEEN_THREAD)) ||
                       ((b.flags & KC_AF_THREAD) && !(b.unseen & KC_UNSEEN_THREAD));
    kc_deps d = {.axes = (uint8_t)(a.axes | b.axes), .flags = (uint8_t)(a.flags | b.flags),
                 .loops = a.loops | b.loops, .programs = (uint8_t)(a.programs | b.programs)};
    d.unseen = (uint8_t)((d.axes & ~sure) | ((d.flags & KC_AF_THREAD) && !sure_thread ? KC_UNSEEN_THREAD : 0));
    return d;
}

/* Varies between the threads of a block, as far as kcheck can tell: what
 * only an unfollowed call's arguments bring (kc_deps.unseen) does not
 * count. */
static bool deps_thread(kc_deps d) { return kc_deps_thread_seen(d); }

static bool deps_vary(kc_deps d)
{
    return d.axes != 0 || (d.flags & (KC_AF_THREAD | KC_AF_PROGRAM)) != 0 || d.loops != 0;
}

bool kc_cuda_budget_ok(kc_cuda_walk *w)
{
    /* out of work, or the model is over --file-memory (the file is then
     * given up) */
    if (w->budget == 0 || kc_arena_over(w->a))
        return false;
    w->budget--;
    return true;
}

/* ---- types -------------------------------------------------------------- */

const char *kc_cuda_ty_name(kc_cuda_walk *w, CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(t));
    const char *out = kc_arena_strdup(w->a, clang_getCString(s));
    clang_disposeString(s);
    return out;
}

/* ---- spans ----------------------------------------------------------------- */

/* Span of code in the lowered function; inlined code outside the main file
 * maps to the call. */
kc_span kc_cuda_wspan(kc_cuda_walk *w, CXCursor c)
{
    kc_span s = kc_cuda_span(w->t, c);
    if (!kc_span_valid(s) && w->inline_depth)
        s = w->call_site;
    return s;
}

/* Span of an access or barrier: the call when inlining. */
kc_span kc_cuda_aspan(kc_cuda_walk *w, CXCursor c)
{
    return w->inline_depth ? w->call_site : kc_cuda_span(w->t, c);
}

const char *kc_cuda_wtext(kc_cuda_walk *w, CXCursor c) { return kc_cuda_text(w->t, c); }

/* ---- index construction ---------------------------------------------------- */

const kc_index *kc_cuda_ix_const(kc_cuda_walk *w, int64_t v, uint8_t bits)
{
    return kc_index_const(w->a, v, bits ? bits : 32, KC_SPACE_THREADS);
}

const kc_index *kc_cuda_ix_atom(kc_cuda_walk *w, kc_atom_kind kind, uint32_t id, kc_deps d, uint8_t bits)
{
    return kc_index_atom(w->a, kc_atom_make(kind, id, d), bits ? bits : 32, KC_SPACE_THREADS, NULL);
}

const kc_index *kc_cuda_ix_opaque_text(kc_cuda_walk *w, kc_span span, const char *text, kc_deps d, uint8_t bits)
{
    uint32_t id = kc_kernel_add_opaque(w->m, w->k, span, text);
    return kc_cuda_ix_atom(w, KC_ATOM_OPAQUE, id, d, bits);
}

const kc_index *kc_cuda_ix_opaque(kc_cuda_walk *w, CXCursor c, kc_deps d, uint8_t bits)
{
    return kc_cuda_ix_opaque_text(w, kc_cuda_wspan(w, c), kc_cuda_wtext(w, c), d, bits);
}

/* The value as an index: integers as they are, anything else as an opaque
 * atom carrying its dependencies (text from `c`). */
const kc_index *kc_cuda_as_index(kc_cuda_walk *w, kc_cuda_val *v, CXCursor c)
{
    if (v->ix)
        return v->ix;
    uint8_t bits = clang_Cursor_isNull(c) ? 32 : kc_cuda_ty_bits(clang_getCursorType(c));
    v->ix = kc_cuda_ix_opaque(w, c, v->deps, bits ? bits : 32);
    return v->ix;
}

/* Exact division of every coefficient by r (pointer casts to wider types). */
static const kc_index *ix_div_exact(kc_cuda_walk *w, const kc_index *x, int64_t r)
{
    if (!x || r <= 0)
        return NULL;
    const kc_index *sum = kc_cuda_ix_const(w, 0, x->bits);
    for (unsigned i = 0; i < x->nmono && sum; i++) {
        const kc_mono *m = &x->mono[i];
        if (m->coef % r)
            return NULL;
        const kc_index *term = kc_cuda_ix_const(w, m->coef / r, m->bits);
        for (unsigned f = 0; f < m->nfac && term; f++)
            term = kc_index_mul(w->a, term, kc_index_atom(w->a, m->fac[f], m->bits, KC_SPACE_THREADS, NULL));
        sum = kc_index_add(w->a, sum, term);
    }
    return sum;
}

/* ---- environment ------------------------------------------------------------ */

kc_cuda_bind *kc_cuda_env_find(kc_cuda_fn *fn, CXCursor decl)
{
    if (clang_Cursor_isNull(decl))
        return NULL;
    unsigned h = clang_hashCursor(decl);
    for (; fn; fn = fn->outer) /* a lambda sees what it captures */
        for (uint32_t i = fn->env.len; i-- > 0;)
            if (fn->env.data[i].hash == h && clang_equalCursors(fn->env.data[i].decl, decl))
                return &fn->env.data[i];
    return NULL;
}

kc_cuda_bind *kc_cuda_env_find_name(kc_cuda_fn *fn, const char *name, size_t n, bool callers)
{
    for (; fn; fn = fn->outer ? fn->outer : callers ? fn->caller : NULL)
        for (uint32_t i = fn->env.len; i-- > 0;)
            if (fn->env.data[i].name && strlen(fn->env.data[i].name) == n && !strncmp(fn->env.data[i].name, name, n))
                return &fn->env.data[i];
    return NULL;
}

kc_cuda_bind *kc_cuda_env_bind(kc_cuda_walk *w, CXCursor decl, const char *name, kc_cuda_val v)
{
    kc_cuda_bind *b = kc_cuda_env_find(w->fn, decl);
    if (b) {
        b->val = v;
        return b;
    }
    kc_cuda_bind nb = {.decl = decl, .hash = clang_hashCursor(decl), .name = name, .val = v};
    kc_vec_push(&w->fn->env, nb);
    return kc_vec_last(&w->fn->env);
}

void kc_cuda_env_copy(kc_cuda_env *dst, const kc_cuda_env *src)
{
    dst->data = NULL;
    dst->len = dst->cap = 0;
    kc_vec_reserve(dst, src->len);
    if (src->len)
        memcpy(dst->data, src->data, src->len * sizeof *src->data);
    dst->len = src->len;
}

bool kc_cuda_val_same(const kc_cuda_val *a, const kc_cuda_val *b)
{
    if (a->ptr != b->ptr)
        return false;
    if (a->ptr)
        return a->base == b->base && a->space == b->space && kc_index_equal(a->off, b->off);
    if (a->ix || b->ix)
        return kc_index_equal(a->ix, b->ix);
    return a->deps.axes == b->deps.axes && a->deps.flags == b->deps.flags && a->deps.loops == b->deps.loops &&
           a->sparam == b->sparam && (a->spath == b->spath || (a->spath && b->spath && !strcmp(a->spath, b->spath)));
}

/* A value that is `a` on one path and `b` on another (decided by a
 * condition with deps `cd`). */
kc_cuda_val kc_cuda_val_join(kc_cuda_walk *w, const kc_cuda_val *a, const kc_cuda_val *b, kc_deps cd,
                             const char *name, kc_span at)
{
    kc_deps d = kc_cuda_deps_or(kc_cuda_deps_or(a->deps, b->deps), cd);
    const char *text = name ? name : "?";
    if (a->ptr && b->ptr) {
        kc_cuda_val r = *a;
        if (a->base != b->base || (a->base == KC_NONE && a->base_name != b->base_name)) {
            /* one of two bases: named by this choice, a string of its own
             * (kc_access.base_name) */
            r.base = KC_NONE;
            r.base_name = kc_arena_strdup(w->a, text);
        }
        if (a->space != b->space)
            r.space = KC_MEM_UNKNOWN;
        if (!kc_index_equal(a->off, b->off))
            r.off = kc_cuda_ix_opaque_text(w, at, kc_arena_printf(w->a, "offset of %s", text), d, 64);
        r.deps = d;
        r.load = KC_NONE;
        return r;
    }
    if (a->ix || b->ix) {
        uint8_t bits = a->ix ? a->ix->bits : b->ix->bits;
        kc_cuda_val r = kc_cuda_v_index(kc_cuda_ix_opaque_text(w, at, text, d, bits));
        return r;
    }
    kc_cuda_val r = kc_cuda_v_deps(d);
    bool same_path = a->spath == b->spath || (a->spath && b->spath && !strcmp(a->spath, b->spath));
    r.sparam = a->sparam == b->sparam && same_path ? a->sparam : 0;
    r.spath = r.sparam ? a->spath : NULL;
    return r;
}

/* ---- symbols ---------------------------------------------------------------- */

uint32_t kc_cuda_symbol_get(kc_cuda_walk *w, const char *name, kc_symbol_kind kind, bool *created)
{
    uint32_t id = kc_kernel_find_symbol(w->k, name);
    if (created)
        *created = id == KC_NONE;
    if (id == KC_NONE)
        id = kc_kernel_add_symbol(w->m, w->k, name, kind);
    return id;
}

uint32_t kc_cuda_param_symbol(kc_cuda_walk *w, const char *name, uint32_t param, kc_span span, uint8_t bits)
{
    bool created;
    uint32_t sym = kc_cuda_symbol_get(w, name, KC_SYM_PARAM, &created);
    if (created) {
        kc_symbol *s = &w->k->symbols.data[sym];
        s->param = param;
        s->bits = bits;
        s->span = span;
    }
    return sym;
}

void kc_cuda_size_fact(kc_cuda_walk *w, const kc_index *side, kc_deps other, kc_span at)
{
    if (!side || !deps_vary(other) || deps_vary(kc_index_deps(side)))
        return;
    for (unsigned i = 0; i < side->nmono; i++)
        for (unsigned f = 0; f < side->mono[i].nfac; f++) {
            const kc_atom *a = &side->mono[i].fac[f];
            if (a->kind != KC_ATOM_SYMBOL || a->id >= w->k->symbols.len)
                continue;
            kc_symbol *s = &w->k->symbols.data[a->id];
            if (s->kind != KC_SYM_PARAM) /* template constants are not problem sizes */
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

/* What a comparison depends on. Whether it varies with the thread is
 * whether the difference of its sides does: `i >= n + ty` with `i = ty +
 * 4 * pass` (a loop variable that starts at the thread's row) is `4 * pass
 * >= n`, the same in every thread. Only where each side's index carries
 * all of that side's thread dependence (nothing the index leaves out). */
kc_deps kc_cuda_cmp_deps(kc_cuda_walk *w, const kc_cuda_val *l, const kc_cuda_val *r, const kc_pred *p)
{
    kc_deps d = kc_cuda_deps_or(l->deps, r->deps);
    if (!(d.axes || (d.flags & KC_AF_THREAD)) || d.unseen || l->ptr || r->ptr || !p->lhs || !p->rhs)
        return d;
    kc_deps dl = kc_index_deps(p->lhs), dr = kc_index_deps(p->rhs);
    if (dl.axes != l->deps.axes || dr.axes != r->deps.axes ||
        (dl.flags & KC_AF_THREAD) != (l->deps.flags & KC_AF_THREAD) ||
        (dr.flags & KC_AF_THREAD) != (r->deps.flags & KC_AF_THREAD))
        return d;
    const kc_index *diff = kc_index_sub(w->a, p->lhs, p->rhs);
    if (!diff)
        return d;
    kc_deps e = kc_index_deps(diff);
    d.axes = e.axes;
    d.flags = (uint8_t)((d.flags & ~KC_AF_THREAD) | (e.flags & KC_AF_THREAD));
    return d;
}

const kc_pred *kc_cuda_preds_copy(kc_cuda_walk *w, const kc_cuda_preds *p, uint32_t *n)
{
    *n = p ? p->len : 0;
    if (!p || !p->len)
        return NULL;
    kc_pred *out = kc_arena_alloc(w->a, p->len * sizeof *out);
    for (uint32_t i = 0; i < p->len; i++)
        out[i] = p->data[i].p;
    return out;
}

uint32_t kc_cuda_mk_cond(kc_cuda_walk *w, kc_span span, const char *text, kc_deps deps, bool negated,
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
bool kc_cuda_chain_thread_dep(kc_cuda_walk *w, uint32_t from, uint32_t stop)
{
    uint32_t guard = 0;
    for (uint32_t c = from; c != KC_NONE && c != stop && c < w->k->conds.len && guard++ < 100000;
         c = w->k->conds.data[c].parent)
        if (deps_thread(w->k->conds.data[c].deps))
            return true;
    return false;
}

uint32_t kc_cuda_thread_cond(kc_cuda_walk *w, uint32_t from, uint32_t stop)
{
    uint32_t guard = 0;
    for (uint32_t c = from; c != KC_NONE && c != stop && c < w->k->conds.len && guard++ < 100000;
         c = w->k->conds.data[c].parent)
        if (deps_thread(w->k->conds.data[c].deps))
            return c;
    return KC_NONE;
}

/* ---- accesses and barriers ------------------------------------------------- */

static bool span_within(kc_span in, kc_span out)
{
    if (!kc_span_valid(in) || !kc_span_valid(out))
        return false;
    bool after = in.line > out.line || (in.line == out.line && in.col >= out.col);
    bool before = in.end_line < out.end_line || (in.end_line == out.end_line && in.end_col <= out.end_col);
    return after && before;
}

/* Are the elements of an array type (of an array whose size depends on a
 * template argument too, of arrays of arrays), or what a pointer type
 * points to, volatile? */
static bool volatile_elements(CXType t)
{
    for (int i = 0; i < 8 && t.kind != CXType_Invalid; i++) {
        CXType e = clang_getElementType(t);
        t = e.kind != CXType_Invalid ? e : clang_getPointeeType(t);
        if (clang_isVolatileQualifiedType(t) || clang_isVolatileQualifiedType(clang_getCanonicalType(t)))
            return true;
    }
    return false;
}

/* Does the access `whole` go through volatile memory? Its type says so,
 * except in a template, where `smem[i]` of `__shared__ volatile int
 * smem[CTA_SIZE]` has a dependent type: then the array it indexes does. */
static bool volatile_access(CXCursor whole)
{
    if (clang_Cursor_isNull(whole))
        return false;
    if (clang_isVolatileQualifiedType(clang_getCanonicalType(clang_getCursorType(whole))))
        return true;
    CXCursor c = kc_cuda_strip(whole);
    for (int depth = 0; depth < 8 && c.kind == CXCursor_ArraySubscriptExpr; depth++) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        c = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
    }
    if (clang_Cursor_isNull(c) || c.kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(c);
    return (d.kind == CXCursor_VarDecl || d.kind == CXCursor_ParmDecl) && volatile_elements(clang_getCursorType(d));
}

uint32_t kc_cuda_mk_access(kc_cuda_walk *w, kc_access_kind kind, const kc_cuda_val *p, CXCursor whole, CXCursor addr,
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
    a.field_off = p->field_off;
    a.field_bytes = p->field_bytes;
    a.elem_type = p->elem_type;
    a.recast = p->recast;
    a.recast_bytes = p->recast_bytes;
    if (p->nsubs >= 2 && p->off && p->subs) {
        a.nsubs = p->nsubs;
        memcpy(a.subs, p->subs, p->nsubs * sizeof *a.subs);
    }
    a.loop = w->loop;
    a.guard = w->guard;
    a.span = kc_cuda_aspan(w, whole);
    if (w->inline_depth || clang_Cursor_isNull(addr)) {
        a.addr_span = a.span;
        a.addr_text = w->inline_depth ? kc_cuda_span_text(w->t, a.span) : kc_cuda_wtext(w, whole);
    } else {
        a.addr_span = kc_cuda_span(w->t, addr);
        a.addr_text = kc_cuda_wtext(w, addr);
        /* An index written elsewhere (`p = x + i; ... *p`): point at the
         * access itself. */
        if (!span_within(a.addr_span, a.span)) {
            a.addr_span = a.span;
            a.addr_text = kc_cuda_wtext(w, whole);
        }
    }
    a.via_ldg = via_ldg;
    a.is_volatile = volatile_access(whole);
    a.dtype = a.elem_type;
    a.seq = w->seq++;
    a.origin = w->inline_depth && !clang_Cursor_isNull(whole) ? kc_cuda_span(w->t, whole) : a.span;
    if (!kc_span_valid(a.origin))
        a.origin = w->inline_depth && kc_span_valid(w->inner_site) ? w->inner_site : a.span;
    if (w->inline_depth) {
        kc_span *sites = kc_arena_alloc(w->a, w->inline_depth * sizeof *sites);
        memcpy(sites, w->inline_sites, w->inline_depth * sizeof *sites);
        a.sites = sites;
        a.nsites = w->inline_depth;
    }
    kc_vec_push(&w->k->accesses, a);
    return a.id;
}

/* The value read by access `acc` through pointer `p`, of type `t`. */
kc_cuda_val kc_cuda_load_value(kc_cuda_walk *w, uint32_t acc, const kc_cuda_val *p, CXType t)
{
    kc_deps ad = p->off ? kc_index_deps(p->off) : p->deps;
    kc_deps d = {.axes = ad.axes, .flags = (uint8_t)(KC_AF_DATA | ad.flags), .loops = ad.loops,
                 .programs = ad.programs};
    /* Shared memory is the block's own: what it holds is taken to differ
     * from block to block (KC404; the writes that filled it are not followed). */
    if (p->space == KC_MEM_SHARED)
        d.programs = KC_PROG_ALL;
    kc_cuda_val v = kc_cuda_v_deps(d);
    v.load = acc;
    if (kc_cuda_ty_is_int(t))
        v.ix = kc_cuda_ix_atom(w, KC_ATOM_DATA, acc, d, kc_cuda_ty_bits(t));
    else if (kc_cuda_ty_is_ptr(t)) {
        /* A pointer read from memory: an address that is data. */
        v.ptr = true;
        v.space = KC_MEM_UNKNOWN;
        v.off = kc_cuda_ix_atom(w, KC_ATOM_DATA, acc, d, 64);
        CXType e = kc_cuda_ty_pointee(t);
        v.elem_bytes = kc_cuda_ty_size(e);
        v.elem_type = kc_cuda_ty_name(w, e);
    }
    return v;
}

/* Reads/writes the element `p` points to, as `mode` says. `whole` is the
 * access expression, `addr` the index expression. */
kc_cuda_val kc_cuda_deref(kc_cuda_walk *w, kc_cuda_val p, CXCursor whole, CXType t, int mode)
{
    if (mode == KC_CUDA_EV_ADDR)
        return p;
    CXCursor addr = p.idx_expr;
    if (mode == KC_CUDA_EV_STORE) {
        kc_cuda_mk_access(w, KC_ACC_STORE, &p, whole, addr, false);
        return kc_cuda_v_deps(p.deps);
    }
    uint32_t id = kc_cuda_mk_access(w, KC_ACC_LOAD, &p, whole, addr, false);
    kc_cuda_val v = kc_cuda_load_value(w, id, &p, t);
    if (mode == KC_CUDA_EV_RMW)
        kc_cuda_mk_access(w, KC_ACC_STORE, &p, whole, addr, false);
    return v;
}

/* p + idx * unit (unit: scalar elements per step, -1 unknown). */
kc_cuda_val kc_cuda_ptr_add(kc_cuda_walk *w, kc_cuda_val p, kc_cuda_val *idx, CXCursor idx_expr, int64_t unit, int sign)
{
    const kc_index *i = kc_cuda_as_index(w, idx, idx_expr);
    if (sign < 0)
        i = kc_index_scale(w->a, i, -1);
    const kc_index *step = unit >= 0 ? kc_index_scale(w->a, kc_index_cast(w->a, i, 64), unit) : NULL;
    const kc_index *off = p.off && step ? kc_index_add(w->a, p.off, step) : NULL;
    if (!off) {
        kc_deps d = kc_cuda_deps_or(p.off ? kc_index_deps(p.off) : p.deps, idx->deps);
        off = kc_cuda_ix_opaque(w, idx_expr, d, 64);
    }
    p.off = off;
    p.deps = kc_index_deps(off);
    p.idx_expr = idx_expr;
    p.load = KC_NONE;
    p.nsubs = 0; /* pointer arithmetic: no longer subscripts alone (ev_subscript sets them) */
    return p;
}

void kc_cuda_keep_subscripts(kc_cuda_walk *w, const kc_cuda_val *b, CXCursor bc, kc_cuda_val *i, CXCursor ic,
                             kc_cuda_val *p)
{
    int64_t z;
    bool array = clang_getCanonicalType(clang_getCursorType(kc_cuda_strip(bc))).kind == CXType_ConstantArray;
    bool fresh = b->nsubs == 0 && b->off && kc_index_is_const(b->off, &z) && z == 0;
    if (!array || !(b->nsubs || fresh) || b->nsubs >= 4)
        return;
    const kc_index **subs = kc_arena_alloc(w->a, 4 * sizeof *subs);
    for (unsigned d = 0; d < b->nsubs && b->subs; d++)
        subs[d] = b->subs[d];
    subs[b->nsubs] = kc_cuda_as_index(w, i, ic);
    p->subs = subs;
    p->nsubs = b->nsubs + 1;
}

static kc_span find_div_exit(kc_cuda_walk *w, uint32_t *cond)
{
    for (uint32_t i = w->frames.len; i-- > 0;)
        if (kc_span_valid(w->frames.data[i].div_exit)) {
            *cond = w->frames.data[i].div_exit_cond;
            return w->frames.data[i].div_exit;
        }
    for (kc_cuda_fn *f = w->fn; f; f = f->caller)
        if (kc_span_valid(f->div_return)) {
            *cond = f->div_return_cond;
            return f->div_return;
        }
    kc_span none = {0};
    *cond = KC_NONE;
    return none;
}

void kc_cuda_mk_barrier(kc_cuda_walk *w, CXCursor at, const char *name)
{
    kc_barrier b;
    memset(&b, 0, sizeof b);
    b.span = kc_cuda_aspan(w, at);
    b.name = kc_arena_strdup(w->a, name);
    b.guard = w->guard;
    b.loop = w->loop;
    b.divergent_exit = find_div_exit(w, &b.exit_cond);
    b.seq = w->seq++;
    b.origin = w->inline_depth ? kc_cuda_span(w->t, at) : b.span;
    if (!kc_span_valid(b.origin))
        b.origin = w->inline_depth && kc_span_valid(w->inner_site) ? w->inner_site : b.span;
    kc_vec_push(&w->k->barriers, b);
}

void kc_cuda_settle_block_values(kc_cuda_walk *w)
{
    /* One object for the block: whichever threads wrote it, and under
     * whatever thread-dependent condition, every thread reads the one
     * value once the barrier has passed (a write racing with the reads
     * is KC402's). It still differs between blocks and with the data. */
    for (kc_cuda_fn *f = w->fn; f; f = f->caller)
        for (uint32_t i = 0; i < f->env.len; i++) {
            kc_cuda_bind *b = &f->env.data[i];
            if (!b->block_value)
                continue;
            /* (an integer value: a pointer set to 0 on some path) */
            const kc_index *at = b->val.ix ? b->val.ix : b->val.ptr ? b->val.off : NULL;
            kc_deps d = at ? kc_cuda_deps_or(b->val.deps, kc_index_deps(at)) : b->val.deps;
            if (!d.axes && !(d.flags & KC_AF_THREAD))
                continue;
            d.axes = 0;
            d.flags = (uint8_t)(d.flags & ~KC_AF_THREAD);
            b->val.deps = d;
            /* a __shared__ pointer: the one address every thread reads,
             * where in its target is no longer known */
            if (b->val.ptr)
                b->val.off = kc_cuda_ix_opaque_text(w, kc_cuda_span(w->t, b->decl), b->name, d, 64);
            if (b->val.ix)
                b->val.ix = kc_cuda_ix_opaque_text(w, kc_cuda_span(w->t, b->decl), b->name, d, b->val.ix->bits);
        }
}

/* ---- CUDA built-in variables ------------------------------------------------ */

kc_cuda_bv_kind kc_cuda_builtin_var(CXCursor decl)
{
    if (decl.kind != CXCursor_VarDecl)
        return KC_CUDA_BV_NONE;
    CXString s = clang_getCursorSpelling(decl);
    const char *n = clang_getCString(s);
    kc_cuda_bv_kind k = KC_CUDA_BV_NONE;
    if (n) {
        if (strcmp(n, "threadIdx") == 0)
            k = KC_CUDA_BV_THREAD;
        else if (strcmp(n, "blockIdx") == 0)
            k = KC_CUDA_BV_BLOCK;
        else if (strcmp(n, "blockDim") == 0)
            k = KC_CUDA_BV_BDIM;
        else if (strcmp(n, "gridDim") == 0)
            k = KC_CUDA_BV_GDIM;
    }
    clang_disposeString(s);
    if (k != KC_CUDA_BV_NONE) {
        /* Only the compiler's variables, not a user's namesake. */
        CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
        const char *tn = clang_getCString(ts);
        if (!tn || !strstr(tn, "__cuda_builtin_"))
            k = KC_CUDA_BV_NONE;
        clang_disposeString(ts);
    }
    return k;
}

/* Component named by a member expression (`.x`): 0, 1, 2 or -1. The
 * built-in variables' members are properties whose cursor has no spelling
 * (and clang does not print them): read the name after the `.` where the
 * expression is spelled (inside a macro definition when written through
 * one). */
int kc_cuda_member_component(kc_cuda_walk *w, CXCursor member)
{
    const char *n = kc_cuda_spelling(w->t, member);
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

kc_deps kc_cuda_builtin_deps(kc_cuda_bv_kind k, int comp)
{
    kc_deps d = {0};
    if (k == KC_CUDA_BV_THREAD) {
        d.axes = (uint8_t)(comp >= 0 ? 1u << comp : 7u);
        d.flags = KC_AF_THREAD;
    } else if (k == KC_CUDA_BV_BLOCK) {
        d.flags = KC_AF_PROGRAM;
        d.programs = comp >= 0 && comp < 3 ? KC_PROG_AXIS(comp) : KC_PROG_ALL;
    }
    return d;
}

kc_cuda_val kc_cuda_builtin_value(kc_cuda_walk *w, kc_cuda_bv_kind k, int comp)
{
    if (comp < 0)
        return kc_cuda_v_deps(kc_cuda_builtin_deps(k, comp));
    static const kc_atom_kind kinds[] = {0, KC_ATOM_LANE, KC_ATOM_PROGRAM, KC_ATOM_BLOCK_DIM, KC_ATOM_GRID_DIM};
    return kc_cuda_v_index(kc_cuda_ix_atom(w, kinds[k], (uint32_t)comp, kc_cuda_builtin_deps(k, comp), 32));
}

/* threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) */
kc_cuda_val kc_cuda_linear_thread(kc_cuda_walk *w)
{
    const kc_index *x = kc_cuda_builtin_value(w, KC_CUDA_BV_THREAD, 0).ix;
    const kc_index *y = kc_cuda_builtin_value(w, KC_CUDA_BV_THREAD, 1).ix;
    const kc_index *z = kc_cuda_builtin_value(w, KC_CUDA_BV_THREAD, 2).ix;
    const kc_index *bx = kc_cuda_builtin_value(w, KC_CUDA_BV_BDIM, 0).ix;
    const kc_index *by = kc_cuda_builtin_value(w, KC_CUDA_BV_BDIM, 1).ix;
    const kc_index *r = kc_index_add(w->a, x, kc_index_mul(w->a, bx, kc_index_add(w->a, y, kc_index_mul(w->a, by, z))));
    return r ? kc_cuda_v_index(r) : kc_cuda_v_deps(kc_cuda_builtin_deps(KC_CUDA_BV_THREAD, -1));
}

kc_cuda_val kc_cuda_block_size(kc_cuda_walk *w)
{
    const kc_index *r = kc_cuda_builtin_value(w, KC_CUDA_BV_BDIM, 0).ix;
    r = kc_index_mul(w->a, r, kc_cuda_builtin_value(w, KC_CUDA_BV_BDIM, 1).ix);
    r = kc_index_mul(w->a, r, kc_cuda_builtin_value(w, KC_CUDA_BV_BDIM, 2).ix);
    return r ? kc_cuda_v_index(r) : kc_cuda_v_none();
}

/* ---- values of declarations ----------------------------------------------- */

kc_cuda_val kc_cuda_mem_pointer(kc_cuda_walk *w, uint32_t sym, const char *name, kc_space space, CXType elem)
{
    kc_cuda_val p = kc_cuda_v_none();
    p.ptr = true;
    p.base = sym;
    p.base_name = name;
    p.space = (uint8_t)space;
    p.off = kc_cuda_ix_const(w, 0, 64);
    p.elem_bytes = kc_cuda_ty_size(elem);
    p.elem_type = kc_cuda_ty_name(w, elem);
    return p;
}

uint32_t kc_cuda_declsym_find(const kc_cuda_walk *w, const char *key)
{
    for (uint32_t i = 0; i < w->declsyms.len; i++)
        if (strcmp(w->declsyms.data[i].key, key) == 0)
            return w->declsyms.data[i].sym;
    return KC_NONE;
}

/* `partial.p` where `partial` is a variable of the function (not a
 * pointer, not `__shared__`, not static) and `p` an array member of it:
 * a register array like a local one (beam search's `TopK<T, 64>`, whose
 * full unroll keeps it in registers). A value that is no pointer for
 * anything else. One symbol per variable and member. */
kc_cuda_val kc_cuda_local_member_array(kc_cuda_walk *w, CXCursor member, CXCursor base)
{
    CXType mt = clang_getCursorType(member);
    CXCursor d = base.kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(base) : clang_getNullCursor();
    if (!kc_cuda_ty_is_array(mt) || (d.kind != CXCursor_VarDecl && d.kind != CXCursor_ParmDecl) ||
        !kc_cuda_ty_is_record(clang_getCursorType(d)) || kc_cuda_has_attr(d, CXCursor_CUDASharedAttr) ||
        clang_Cursor_getStorageClass(d) == CX_SC_Static || clang_Cursor_getStorageClass(d) == CX_SC_Extern ||
        clang_getCursorSemanticParent(d).kind == CXCursor_TranslationUnit)
        return kc_cuda_v_none();
    const char *name = kc_arena_printf(w->a, "%s.%s", kc_cuda_spelling(w->t, d), kc_cuda_spelling(w->t, member));
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(d), NULL, NULL, NULL, &off);
    const char *key = kc_arena_printf(w->a, "member:%u:%s|%s", off, name,
                                      w->inline_depth ? w->inline_key[w->inline_depth - 1] : "");
    uint32_t sym = kc_cuda_declsym_find(w, key);
    if (sym == KC_NONE) {
        kc_cuda_declsym ds = {key, sym = kc_kernel_add_symbol(w->m, w->k, name, KC_SYM_LOCAL)};
        kc_vec_push(&w->declsyms, ds);
    }
    return kc_cuda_mem_pointer(w, sym, name, KC_MEM_LOCAL, kc_cuda_ty_innermost(mt));
}

/* ---- conversions ------------------------------------------------------------ */

/* The value `v` (of expression `from`) converted to type `t` by expression
 * `e` (a cast, or an implicit conversion). */
kc_cuda_val kc_cuda_convert(kc_cuda_walk *w, kc_cuda_val v, CXType t, CXCursor e)
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
        uint8_t nb = kc_cuda_ty_size(kc_cuda_ty_innermost(pointee));
        if (nb && v.elem_bytes && nb != v.elem_bytes) {
            const kc_index *off = NULL;
            if (nb > v.elem_bytes && nb % v.elem_bytes == 0)
                off = ix_div_exact(w, v.off, nb / v.elem_bytes);
            else if (nb < v.elem_bytes && v.elem_bytes % nb == 0 && v.off)
                off = kc_index_scale(w->a, v.off, v.elem_bytes / nb);
            if (!off)
                off = kc_cuda_ix_opaque(w, e, v.off ? kc_index_deps(v.off) : v.deps, 64);
            v.off = off;
            v.deps = kc_index_deps(off);
        }
        int64_t z;
        if (nb && !v.elem_bytes && v.off && !(kc_index_is_const(v.off, &z) && z == 0)) {
            /* from elements kcheck cannot size (a template's `HALF_T`) to
             * sized ones (`*(const double *)(g_in + 4 * tid)`): the offset
             * counts the elements cast from, of unknown size */
            v.recast = true;
            v.recast_bytes = nb;
        } else if (nb) {
            v.elem_bytes = nb;
            v.elem_type = kc_cuda_ty_name(w, kc_cuda_ty_innermost(pointee));
        } else {
            const char *to = kc_cuda_ty_name(w, kc_cuda_ty_innermost(pointee));
            if (to && (!v.elem_type || strcmp(to, v.elem_type) != 0))
            {
                v.recast = true; /* offsets stay in the elements cast from */
                v.recast_bytes = 0;
            }
        }
        return v;
    }
    if (kc_cuda_ty_is_int(ct)) {
        if (v.ptr) {
            kc_deps d = v.off ? kc_index_deps(v.off) : v.deps;
            kc_cuda_val r = kc_cuda_v_index(kc_cuda_ix_opaque(w, e, d, kc_cuda_ty_bits(ct)));
            return r;
        }
        if (!v.ix)
            v.ix = kc_cuda_ix_opaque(w, e, v.deps, kc_cuda_ty_bits(ct));
        uint8_t bits = kc_cuda_ty_bits(ct);
        if (bits && v.ix->bits != bits)
            v.ix = kc_index_cast(w->a, v.ix, bits);
        v.deps = kc_index_deps(v.ix);
        return v;
    }
    if (kc_cuda_ty_is_array(ct))
        return v;
    /* bool, floating, records: keep what it depends on. */
    if (v.ptr)
        v.deps = v.off ? kc_index_deps(v.off) : v.deps;
    uint32_t sparam = kc_cuda_ty_is_record(ct) ? v.sparam : 0;
    const char *spath = sparam ? v.spath : NULL;
    uint32_t load = v.load;
    kc_deps d = v.deps;
    kc_cuda_val r = kc_cuda_v_deps(d);
    r.load = load;
    r.sparam = sparam;
    r.spath = spath;
    if (ct.kind == CXType_Bool) { /* a comparison kept in a bool */
        r.cpos = v.cpos;
        r.ncpos = v.ncpos;
        r.cneg = v.cneg;
        r.ncneg = v.ncneg;
    }
    return r;
}

bool kc_cuda_is_incdec(enum CXUnaryOperatorKind op)
{
    return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
           op == CXUnaryOperator_PreDec;
}

kc_cuda_val kc_cuda_ptr_offset(kc_cuda_walk *w, kc_cuda_val p, int64_t delta)
{
    const kc_index *off = p.off ? kc_index_add(w->a, p.off, kc_cuda_ix_const(w, delta, 64)) : NULL;
    p.off = off;
    p.deps = off ? kc_index_deps(off) : p.deps;
    p.load = KC_NONE;
    return p;
}

/* ---- arithmetic on evaluated operands --------------------------------------- */

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

/* The products recorded from `first` on are stored in the 32-bit variable
 * declared by `d` (at its declaration, or by a later assignment): a 64-bit
 * product would be narrowed back (KC304's fix-it widens the declaration
 * too, at the declaration only). The type is replaced where it is spelled before the
 * name with 32-bit integer words only (`int row`, `const unsigned col`,
 * `uint32_t i`); `auto` takes the product's width and needs nothing. */
void kc_cuda_mark_narrowing(kc_cuda_walk *w, CXCursor d, uint32_t first, bool at_declaration)
{
    if (first >= w->k->products.len)
        return;
    kc_span ds = kc_cuda_span(w->t, d);
    const char *text = kc_span_valid(ds) ? kc_cuda_span_text(w->t, ds) : NULL;
    const char *eq = text ? strchr(text, '=') : NULL;
    if (!text || (!eq && at_declaration))
        return;
    size_t dl = eq ? (size_t)(eq - text) : strlen(text);
    while (dl > 0 && (text[dl - 1] == ' ' || text[dl - 1] == '\t'))
        dl--;
    const char *vname = kc_cuda_spelling(w->t, d);
    size_t vl = vname ? strlen(vname) : 0;
    if (!vl || dl < vl || strncmp(text + dl - vl, vname, vl) != 0)
        return; /* not `TYPE name = ...` as written (a macro, a second declarator) */
    size_t tl = dl - vl;
    while (tl > 0 && (text[tl - 1] == ' ' || text[tl - 1] == '\t'))
        tl--;
    /* the words of the spelled type */
    static const char *const words[] = {"const", "unsigned", "signed", "int", "int32_t", "uint32_t", NULL};
    bool mechanical = tl > 0 && ds.line == ds.end_line, is_unsigned = false, is_const = false;
    for (size_t i = 0; i < tl && mechanical;) {
        while (i < tl && (text[i] == ' ' || text[i] == '\t'))
            i++;
        size_t j = i;
        while (j < tl && text[j] != ' ' && text[j] != '\t')
            j++;
        bool known = false;
        for (unsigned k = 0; words[k] && !known; k++)
            known = strlen(words[k]) == j - i && strncmp(text + i, words[k], j - i) == 0;
        if (j - i == 4 && strncmp(text + i, "auto", 4) == 0)
            return; /* auto: the declaration follows the product */
        mechanical = known;
        is_unsigned |= (j - i == 8 && strncmp(text + i, "unsigned", 8) == 0) ||
                       (j - i == 8 && strncmp(text + i, "uint32_t", 8) == 0);
        is_const |= j - i == 5 && strncmp(text + i, "const", 5) == 0;
        i = j;
    }
    const char *decl = kc_arena_printf(w->a, "%.*s", (int)dl, text);
    kc_span span = {0};
    /* `row = ...` later: the declaration is elsewhere and may hold other
     * values; the advice names it, no edit */
    if (mechanical && at_declaration) {
        span.line = span.end_line = ds.line;
        span.col = ds.col;
        span.end_col = ds.col + (uint32_t)tl;
    }
    for (uint32_t i = first; i < w->k->products.len; i++) {
        kc_product *p = &w->k->products.data[i];
        p->narrow_decl = decl;
        p->narrow_line = ds.line;
        p->narrow_span = span;
        p->narrow_widened = is_const ? (is_unsigned ? "const uint64_t" : "const int64_t")
                                     : (is_unsigned ? "uint64_t" : "int64_t");
    }
}

/* `threadIdx.c / C`, `% C`, `>> k` or `& (2^k - 1)` for a constant C > 1:
 * the thread's group or its place in the group, one opaque per split
 * (kc_kernel_add_split). NULL for anything else. */
static const kc_index *split_thread(kc_cuda_walk *w, CXCursor e, enum CXBinaryOperatorKind op, const kc_index *a,
                                    const kc_index *b, kc_deps d, uint8_t bits)
{
    int64_t c;
    if (!a || a->nmono != 1 || a->mono[0].coef != 1 || a->mono[0].nfac != 1 ||
        a->mono[0].fac[0].kind != KC_ATOM_LANE || !kc_index_is_const(b, &c))
        return NULL;
    kc_split_kind kind = KC_SPLIT_NONE;
    int64_t div = 0;
    if (op == CXBinaryOperator_Div && c > 1)
        kind = KC_SPLIT_GROUP, div = c;
    else if (op == CXBinaryOperator_Rem && c > 1)
        kind = KC_SPLIT_MEMBER, div = c;
    else if (op == CXBinaryOperator_Shr && c >= 1 && c <= 10)
        kind = KC_SPLIT_GROUP, div = (int64_t)1 << c;
    else if (op == CXBinaryOperator_And && c >= 1 && c < 1024 && ((c + 1) & c) == 0)
        kind = KC_SPLIT_MEMBER, div = c + 1;
    if (kind == KC_SPLIT_NONE || div > 1024)
        return NULL;
    uint32_t axis = a->mono[0].fac[0].id;
    const char *text = kc_arena_printf(w->a, "threadIdx.%c %c %" PRId64, axis == 0 ? 'x' : axis == 1 ? 'y' : 'z',
                                       kind == KC_SPLIT_GROUP ? '/' : '%', div);
    uint32_t id = kc_kernel_add_split(w->m, w->k, kc_cuda_wspan(w, e), text, kind, axis, div);
    return kc_cuda_ix_atom(w, KC_ATOM_OPAQUE, id, d, bits);
}

kc_cuda_val kc_cuda_unary_rest(kc_cuda_walk *w, CXCursor e, kc_cuda_val v)
{
    int64_t c;
    CXType t = clang_getCursorType(e);
    if (kc_cuda_unop_of(e) == CXUnaryOperator_Not && !v.ptr && v.ix && kc_index_is_const(v.ix, &c) &&
        kc_cuda_ty_is_int(t))
        return kc_cuda_v_index(kc_cuda_ix_const(w, ~c, kc_cuda_ty_bits(t) ? kc_cuda_ty_bits(t) : 32));
    return kc_cuda_v_deps(v.ptr && v.off ? kc_index_deps(v.off) : v.deps);
}

/* l op r for the arithmetic operators (also the compound assignments). */
kc_cuda_val kc_cuda_arith(kc_cuda_walk *w, CXCursor e, enum CXBinaryOperatorKind op, kc_cuda_val l, CXCursor lc,
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
        else if (kc_index_is_const(b, &cb) && a) {
            /* `x & ~(M - 1)`, M a power of two: x rounded down to a
             * multiple of M, M * (x >> log2 M) (a bound rounded up to the
             * block: `(n + 511) & ~511`) */
            uint64_t low = ~(uint64_t)cb & (bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1);
            if (low >= 1 && low < ((uint64_t)1 << 30) && (low & (low + 1)) == 0) {
                const kc_index *q = kc_cuda_ix_opaque(w, e, d, bits);
                if (q->nmono == 1 && q->mono[0].nfac == 1) {
                    kc_opaque *o = &w->k->opaques.data[q->mono[0].fac[0].id];
                    o->quot = a;
                    o->quot_div = (int64_t)low + 1;
                    const char *xt = kc_cuda_span_text(w->t, kc_cuda_wspan(w, kc_cuda_strip(lc)));
                    if (xt)
                        o->text = kc_arena_printf(w->a, "(%s) / %" PRIu64, xt, low + 1);
                }
                res = kc_index_scale(w->a, q, (int64_t)low + 1);
            }
        }
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
    const kc_index *q = NULL, *rm = NULL; /* (x * blockDim.x + threadIdx.x) / blockDim.x, % blockDim.x */
    if (!res && (op == CXBinaryOperator_Div || op == CXBinaryOperator_Rem) && b && b->nmono == 1 &&
        b->mono[0].coef == 1 && b->mono[0].nfac == 1 && b->mono[0].fac[0].kind == KC_ATOM_BLOCK_DIM &&
        kc_index_divmod_block_dim(w->a, a, b->mono[0].fac[0].id, &q, &rm))
        res = op == CXBinaryOperator_Div ? q : rm;
    if (!res)
        res = split_thread(w, e, op, a, b, d, bits);
    if (!res) { /* division, modulo, masks, shifts right, or too many terms */
        res = kc_cuda_ix_opaque(w, e, d, bits);
        /* a quotient by a constant keeps its dividend (KC401 bounds it) */
        int64_t c;
        bool div = op == CXBinaryOperator_Div && kc_index_is_const(b, &c) && c > 0;
        bool shr = op == CXBinaryOperator_Shr && kc_index_is_const(b, &c) && c >= 0 && c <= 30;
        if ((div || shr) && a && res->nmono == 1 && res->mono[0].nfac == 1) {
            kc_opaque *o = &w->k->opaques.data[res->mono[0].fac[0].id];
            o->quot = a;
            o->quot_div = shr ? (int64_t)1 << c : c;
        }
    }
    if (op == CXBinaryOperator_Mul && !w->inline_depth && !kc_index_is_const(a, &ca) && !kc_index_is_const(b, &cb))
        record_product(w, e, res, a, lc, b, rc, bits);
    return kc_cuda_v_index(res);
}

enum CXBinaryOperatorKind kc_cuda_compound_base(enum CXBinaryOperatorKind op)
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
    return op == CXBinaryOperator_Assign || kc_cuda_compound_base(op) != CXBinaryOperator_Invalid;
}

uint64_t kc_cuda_loops_around(const kc_cuda_walk *w)
{
    uint64_t loops = 0;
    for (uint32_t l = w->loop; l != KC_NONE && l < w->k->loops.len; l = w->k->loops.data[l].parent)
        loops |= kc_loop_bit(l);
    return loops;
}

kc_cuda_val kc_cuda_lost_value(kc_cuda_walk *w, CXCursor e)
{
    kc_cuda_val v = kc_cuda_v_none();
    /* A bare name whose declaration has a type clang does not know (`const
     * real *__restrict__ quad` with `real` defined by the build): the
     * reference is lost, not the variable; a pointer stays that pointer. */
    const char *txt = kc_cuda_wtext(w, e);
    size_t n = txt ? strlen(txt) : 0;
    bool ident = n > 0 && (isalpha((unsigned char)txt[0]) || txt[0] == '_');
    for (size_t i = 1; ident && i < n; i++)
        ident = isalnum((unsigned char)txt[i]) || txt[i] == '_';
    kc_cuda_bind *b = ident ? kc_cuda_env_find_name(w->fn, txt, n, false) : NULL;
    if (b && b->val.ptr && !b->in_memory)
        return b->val;
    enum CXTypeKind tk = clang_getCursorType(e).kind;
    if (tk == CXType_Dependent || tk == CXType_Invalid)
        v.deps.loops = kc_cuda_loops_around(w);
    return v;
}
