/* cuda_stmt.c — abstract interpretation of one CUDA function body:
 * statements, declarations, `#pragma unroll`, and the entry point.
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
 * parameters, KC_CUDA_MAX_INLINE deep, never recursively); their accesses and
 * barriers are reported at the call in the kernel.
 *
 * Every recursion is bounded by KC_CUDA_MAX_DEPTH (a deeper subtree is opaque)
 * and all work by KC_CUDA_WORK_BUDGET, so any input terminates quickly.
 */
#include "cuda_walk.h"
#include "cuda_facts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* ---- declarations ------------------------------------------------------------ */

/* The `extern __shared__` array that a conversion operator of the class
 * (template) `cls` returns (the samples' `SharedMemory<T>` idiom), or a
 * null cursor. */
typedef struct shm_find {
    CXCursor found;
    unsigned depth;
} shm_find;

static enum CXChildVisitResult shm_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    shm_find *f = data;
    if (c.kind == CXCursor_VarDecl && kc_cuda_has_attr(c, CXCursor_CUDASharedAttr) &&
        kc_cuda_ty_is_array(clang_getCursorType(c))) {
        f->found = c;
        return CXChildVisit_Break;
    }
    if (f->depth++ > 2000)
        return CXChildVisit_Break;
    return CXChildVisit_Recurse;
}

static CXCursor shared_memory_class(CXCursor cls)
{
    shm_find f = {clang_getNullCursor(), 0};
    if (clang_Cursor_isNull(cls) || !kc_cuda_in_user_code(cls))
        return f.found;
    kc_cuda_kids k;
    kc_cuda_kids_get(cls, &k);
    for (unsigned i = 0; i < k.n && clang_Cursor_isNull(f.found); i++)
        if (k.v[i].kind == CXCursor_ConversionFunction)
            clang_visitChildren(k.v[i], shm_visit, &f);
    kc_cuda_kids_free(&k);
    return f.found;
}

/* Does the initializer construct such a class (`SharedMemory<T>()`)? */
static CXCursor init_shared_memory(CXCursor e, unsigned depth)
{
    if (depth > 6 || clang_Cursor_isNull(e))
        return clang_getNullCursor();
    if (e.kind == CXCursor_TemplateRef || e.kind == CXCursor_TypeRef) {
        CXCursor r = clang_getCursorReferenced(e);
        CXCursor arr = shared_memory_class(r);
        if (clang_Cursor_isNull(arr) && e.kind == CXCursor_TypeRef) {
            CXCursor tmpl = clang_getSpecializedCursorTemplate(r);
            arr = shared_memory_class(tmpl);
        }
        return arr;
    }
    return kc_cuda_first_in_kids(e, init_shared_memory, depth + 1);
}

/* The symbol of the array declared by `d`. Two declarations of one name
 * in different scopes (`__shared__ float s_sum[32];` in two blocks, or in
 * two helpers) are two arrays, and so are the arrays of two
 * specializations of one function template; one declaration reached twice
 * (a helper inlined twice) is one. */
static uint32_t decl_symbol(kc_cuda_walk *w, CXCursor d, const char *name, kc_symbol_kind kind)
{
    CXFile file = NULL;
    unsigned off = 0, spelled = 0;
    clang_getExpansionLocation(clang_getCursorLocation(d), &file, NULL, NULL, &off);
    /* declarations that one macro makes share their expansion place
     * (`__shared__ int ntasks, pair_ij;` in a setup macro): where each is
     * spelled and its name keep them apart */
    clang_getSpellingLocation(clang_getCursorLocation(d), NULL, NULL, NULL, &spelled);
    CXString fs = clang_getFileName(file);
    const char *key = kc_arena_printf(w->a, "%s:%u:%u:%s|%s", clang_getCString(fs) ? clang_getCString(fs) : "", off,
                                      spelled, name, w->inline_depth ? w->inline_key[w->inline_depth - 1] : "");
    clang_disposeString(fs);
    uint32_t known = kc_cuda_declsym_find(w, key);
    if (known != KC_NONE)
        return known;
    bool created = false;
    uint32_t sym = kc_cuda_symbol_get(w, name, kind, &created);
    for (uint32_t i = 0; i < w->declsyms.len && !created; i++)
        if (w->declsyms.data[i].sym == sym) { /* the name's symbol is another declaration's */
            sym = kc_kernel_add_symbol(w->m, w->k, name, kind);
            break;
        }
    kc_cuda_declsym ds = {key, sym};
    kc_vec_push(&w->declsyms, ds);
    return sym;
}

/* An initializer with nothing in it and no place in any file: the
 * placeholder of one that failed to compile. */
static bool failed_initializer(CXCursor init)
{
    CXCursor e = kc_cuda_strip(init);
    if (e.kind != CXCursor_UnexposedExpr && !clang_isInvalid(e.kind))
        return false;
    CXFile f = NULL;
    clang_getSpellingLocation(clang_getCursorLocation(e), &f, NULL, NULL, NULL);
    if (f)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    bool empty = k.n == 0;
    kc_cuda_kids_free(&k);
    return empty;
}

/* Does the initializer of `d`, which clang dropped, name a variable of
 * the function being walked or of one it is inlined into (read from its
 * source text)? One that names none is made of constants and of names
 * from a missing header alone. True when the text cannot be read. */
static bool init_names_variable(kc_cuda_walk *w, CXCursor d)
{
    const char *p, *end;
    size_t len;
    if (!kc_cuda_init_text(w->t, d, &p, &len))
        return true;
    for (end = p + len; p < end;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p += isdigit((unsigned char)*p) ? strspn(p, "0123456789abcdefABCDEFxXuUlL.") : 1;
            continue;
        }
        size_t n = 1;
        while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_'))
            n++;
        /* a call, or the thread's and block's coordinates: not a constant */
        const char *after = p + n;
        while (after < end && isspace((unsigned char)*after))
            after++;
        static const char *const coords[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
        if (after < end && *after == '(')
            return true;
        for (size_t c = 0; c < sizeof coords / sizeof coords[0]; c++)
            if (strlen(coords[c]) == n && !strncmp(p, coords[c], n))
                return true;
        if (kc_cuda_env_find_name(w->fn, p, n, true))
            return true;
        p += n;
    }
    return false;
}

static void decl_var(kc_cuda_walk *w, CXCursor d)
{
    const char *name = kc_cuda_spelling(w->t, d);
    CXType t = clang_getCursorType(d);
    bool shared = kc_cuda_has_attr(d, CXCursor_CUDASharedAttr);
    enum CXTypeKind ck = clang_getCanonicalType(t).kind;
    bool dependent = ck == CXType_Unexposed || ck == CXType_Dependent;
    if (kc_cuda_ty_is_array(t) || (shared && (kc_cuda_ty_is_arith(t) || dependent))) {
        /* A local or __shared__ array (or shared scalar): memory with a
         * symbol of its own. */
        kc_symbol_kind kind = clang_getCursorSemanticParent(d).kind == CXCursor_TranslationUnit ? KC_SYM_GLOBAL
                                                                                              : KC_SYM_LOCAL;
        uint32_t sym = decl_symbol(w, d, name, kind);
        w->k->symbols.data[sym].span = kc_cuda_span(w->t, d);
        kc_space space = shared ? KC_MEM_SHARED : kc_cuda_decl_space(d, KC_MEM_LOCAL);
        kc_cuda_val p = kc_cuda_mem_pointer(w, sym, w->k->symbols.data[sym].name, space, kc_cuda_ty_innermost(t));
        kc_cuda_bind *b = kc_cuda_env_bind(w, d, name, p);
        b->in_memory = !kc_cuda_ty_is_array(t);
        if (shared)
            kc_cuda_shared_array(w, d, sym);
        CXCursor init = clang_Cursor_getVarDeclInitializer(d);
        if (!clang_Cursor_isNull(init))
            kc_cuda_ev(w, init, KC_CUDA_EV_LOAD);
        return;
    }
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    kc_cuda_val v;
    CXType rt = clang_getNonReferenceType(t);
    bool hidden_constant = false;
    if (!clang_Cursor_isNull(init) && ck == CXType_LValueReference &&
        (kc_cuda_ty_is_arith(rt) || kc_cuda_ty_is_ptr(rt))) {
        /* `int &count = scalars[0]`: another name of that memory; reads
         * and writes through it are loads and stores there (binding it
         * reads nothing). A reference to anything else names its value;
         * so does one to a struct, whose members' offsets kcheck does not
         * follow. */
        v = kc_cuda_ev(w, init, KC_CUDA_EV_ADDR);
        if (v.ptr && v.space != KC_MEM_UNKNOWN) {
            kc_cuda_bind *b = kc_cuda_env_bind(w, d, name, v);
            b->in_memory = true;
            return;
        }
    } else if (!clang_Cursor_isNull(init) && failed_initializer(init)) {
        /* what clang leaves in an instantiation for an initializer that did
         * not compile (`constexpr int B = kNumWarps * WARP_SIZE;` with
         * WARP_SIZE from a missing header): it evaluates to 0, which it is
         * not */
        v = kc_cuda_v_none();
        hidden_constant = clang_isConstQualifiedType(t) && !init_names_variable(w, d);
    } else if (!clang_Cursor_isNull(init) && ck == CXType_Bool) {
        /* bool in = i < n: keep the comparisons for the conditions that
         * test it */
        v = kc_cuda_ev_bool(w, init);
    } else if (!clang_Cursor_isNull(init)) {
        uint32_t products = w->k->products.len;
        v = kc_cuda_ev(w, init, KC_CUDA_EV_LOAD);
        if (kc_cuda_ty_is_int(t) && kc_cuda_ty_bits(t) == 32)
            kc_cuda_mark_narrowing(w, d, products, true);
        kc_cuda_name_load(w, &v, name);
        v = kc_cuda_convert(w, v, t, init);
        if (kc_cuda_ty_is_ptr(t) && (!v.ptr || v.space == KC_MEM_UNKNOWN)) {
            /* T *s = SharedMemory<T>(): the class's extern __shared__ array */
            CXCursor arr = init_shared_memory(init, 0);
            if (!clang_Cursor_isNull(arr)) {
                const char *an = kc_cuda_spelling(w->t, arr);
                uint32_t sym = kc_cuda_symbol_get(w, an, KC_SYM_GLOBAL, NULL);
                v = kc_cuda_mem_pointer(w, sym, name, KC_MEM_SHARED, kc_cuda_ty_pointee(t));
            }
        }
    } else {
        v = kc_cuda_v_none();
        /* An initializer clang dropped (an error in it, or in the type:
         * `const index_t n = index / w;` with `index_t` from a missing
         * header) may be anything, and something else in every pass of the
         * loops around it. */
        if (w->loop != KC_NONE && (kc_cuda_lost_initializer(w->t, d) || ck == CXType_Invalid))
            v.deps.loops |= kc_cuda_loops_around(w);
        hidden_constant = clang_isConstQualifiedType(t) && kc_cuda_lost_initializer(w->t, d) &&
                          !init_names_variable(w, d);
    }
    if (kc_cuda_ty_is_int(t) && hidden_constant)
        v.ix = kc_cuda_ix_atom(w, KC_ATOM_OPAQUE, kc_kernel_const_opaque(w->m, w->k, kc_cuda_span(w->t, d), name),
                               (kc_deps){0}, kc_cuda_ty_bits(t));
    else if (kc_cuda_ty_is_int(t) && !v.ix && !v.ptr)
        v.ix = kc_cuda_ix_opaque_text(w, kc_cuda_span(w->t, d), name, v.deps, kc_cuda_ty_bits(t));
    kc_cuda_bind *b = kc_cuda_env_bind(w, d, name, v);
    /* (a struct whose type depends on the template, `task_t<T>`, too) */
    b->block_value = shared && (ck == CXType_Record || ck == CXType_Pointer || ck == CXType_Unexposed ||
                                ck == CXType_Dependent);
}

/* A structured binding `const auto [x, y, z] = f(tid, dims);` (libclang
 * shows the decomposition and its bindings as unexposed declarations):
 * its initializer is walked (its loads and calls are the kernel's), and
 * each binding names one value of it, the same at every use, with the
 * initializer's dependencies (`x + 2 - (x - 1)` is 3 passes). */
static void decl_bindings(kc_cuda_walk *w, CXCursor d)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(d, &k);
    kc_cuda_val init = kc_cuda_v_none();
    for (unsigned i = 0; i < k.n; i++)
        if (clang_isExpression(k.v[i].kind))
            init = kc_cuda_ev(w, k.v[i], KC_CUDA_EV_LOAD);
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind != CXCursor_UnexposedDecl)
            continue;
        CXType t = clang_getCursorType(k.v[i]);
        kc_cuda_val v = kc_cuda_v_deps(init.deps);
        if (kc_cuda_ty_is_int(t))
            v = kc_cuda_v_index(kc_cuda_ix_opaque(w, k.v[i], init.deps, kc_cuda_ty_bits(t)));
        kc_cuda_env_bind(w, k.v[i], kc_cuda_spelling(w->t, k.v[i]), v);
    }
    kc_cuda_kids_free(&k);
}

static void walk_decl_stmt(kc_cuda_walk *w, CXCursor s)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_VarDecl)
            decl_var(w, k.v[i]);
        else if (k.v[i].kind == CXCursor_UnexposedDecl)
            decl_bindings(w, k.v[i]);
        /* type, struct and using declarations hold no code to run */
    }
    kc_cuda_kids_free(&k);
}

/* ---- pragmas -------------------------------------------------------------------- */

static bool tok_int(kc_cuda_walk *w, kc_cuda_toks *t, unsigned i, int64_t *v)
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
static bool parse_pragma(kc_cuda_walk *w, CXCursor wrapper, CXCursor loop, kc_cuda_pragma *out)
{
    kc_cuda_toks t;
    kc_cuda_toks_get(w->t, clang_getRangeStart(clang_getCursorExtent(wrapper)),
             clang_getRangeStart(clang_getCursorExtent(loop)), &t);
    bool found = false;
    for (unsigned i = 0; i + 2 < t.n; i++) {
        if (!kc_cuda_tok_is(&t, i, "#") || !kc_cuda_tok_is(&t, i + 1, "pragma"))
            continue;
        unsigned line, l2;
        kc_cuda_tok_off(&t, i, &line);
        unsigned j = i + 2, last = j;
        kc_unroll kind = KC_UNROLL_NONE;
        int64_t count = 0;
        if (kc_cuda_tok_is(&t, j, "unroll")) {
            kind = KC_UNROLL_FULL;
            unsigned a = j + 1;
            if (kc_cuda_tok_is(&t, a, "(")) a++;
            kc_cuda_tok_off(&t, a < t.n ? a : j, &l2);
            if (a < t.n && l2 == line) {
                if (tok_int(w, &t, a, &count))
                    kind = KC_UNROLL_COUNT;
                else if (clang_getTokenKind(t.v[a]) == CXToken_Identifier) {
                    kind = KC_UNROLL_COUNT; /* a named constant: count unknown */
                    count = -1;
                }
            }
        } else if (kc_cuda_tok_is(&t, j, "nounroll")) {
            kind = KC_UNROLL_DISABLE;
        } else if (kc_cuda_tok_is(&t, j, "GCC") && kc_cuda_tok_is(&t, j + 1, "unroll")) {
            kind = tok_int(w, &t, j + 2, &count) ? KC_UNROLL_COUNT : KC_UNROLL_FULL;
        } else if (kc_cuda_tok_is(&t, j, "clang") && kc_cuda_tok_is(&t, j + 1, "loop")) {
            for (unsigned a = j + 2; a + 2 < t.n; a++) {
                kc_cuda_tok_off(&t, a, &l2);
                if (l2 != line)
                    break;
                if (kc_cuda_tok_is(&t, a, "unroll") && kc_cuda_tok_is(&t, a + 1, "(")) {
                    kind = kc_cuda_tok_is(&t, a + 2, "disable") ? KC_UNROLL_DISABLE : KC_UNROLL_FULL;
                } else if (kc_cuda_tok_is(&t, a, "unroll_count") && kc_cuda_tok_is(&t, a + 1, "(") &&
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
            kc_cuda_tok_off(&t, a, &l2);
            if (l2 != line)
                break;
            last = a;
        }
        CXSourceRange r = clang_getRange(clang_getTokenLocation(t.tu, t.v[i]),
                                         clang_getRangeEnd(clang_getTokenExtent(t.tu, t.v[last])));
        uint32_t sl, sc, so, el, ec, eo;
        kc_span sp = {0};
        if (kc_cuda_loc_in_main(w->t, clang_getRangeStart(r), &sl, &sc, &so) &&
            kc_cuda_loc_in_main(w->t, clang_getRangeEnd(r), &el, &ec, &eo)) {
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
    kc_cuda_toks_free(&t);
    return found;
}

/* ---- statements ---------------------------------------------------------------- */

static bool is_trap(kc_cuda_walk *w, CXCursor c);

typedef struct if_info {
    bool is_if;
    bool then_exits, else_exits, has_else;
    bool then_traps, else_traps; /* the branch ends in a trap: the kernel aborts */
    kc_span span;
    const char *text;
    kc_deps deps;
    const kc_pred *pos, *neg;
    uint32_t npos, nneg;
} if_info;

/* Does the declaration of parameter `name` at `at` put a word other than
 * const, volatile or a restrict keyword between its last `*` and its name
 * (`int *FINUFFT_RESTRICT p`)? Read from the file as written: the text
 * libclang parsed has qualifier macros from missing headers blanked. */
static bool qualifier_word(kc_cuda_walk *w, kc_span at, const char *name)
{
    const kc_source *src = w->m->src;
    if (!kc_span_valid(at) || !src || at.end_line > src->nlines)
        return false;
    size_t from = kc_source_offset(src, at.line, at.col), to = kc_source_offset(src, at.end_line, at.end_col);
    if (to <= from || to > src->len)
        return false;
    const char *decl = kc_arena_strndup(w->a, src->text + from, to - from);
    const char *star = strrchr(decl, '*');
    const char *end = star ? strstr(star, name) : NULL;
    for (const char *p = star ? star + 1 : NULL; p && p < end;) {
        while (p < end && !(isalpha((unsigned char)*p) || *p == '_'))
            p++;
        const char *word = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        size_t n = (size_t)(p - word);
        static const char *const known[] = {"const", "volatile", "restrict", "__restrict", "__restrict__"};
        bool kw = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            kw |= strlen(known[i]) == n && strncmp(word, known[i], n) == 0;
        if (n && !kw)
            return true;
    }
    return false;
}

/* `a == b` / `a != b` between two variables that hold the same pointer
 * here (an inlined `BlockCoVar(data, data)` testing `lhs == rhs`): 1 if
 * the condition holds, 0 if it does not, -1 when kcheck cannot tell. */
static int same_pointer_test(kc_cuda_walk *w, CXCursor cond)
{
    cond = kc_cuda_strip(cond);
    enum CXBinaryOperatorKind op = kc_cuda_binop_of(cond);
    if (op != CXBinaryOperator_EQ && op != CXBinaryOperator_NE)
        return -1;
    kc_cuda_kids k;
    kc_cuda_kids_get(cond, &k);
    const kc_cuda_bind *b[2] = {NULL, NULL};
    for (unsigned i = 0; k.n == 2 && i < 2; i++) {
        CXCursor d = kc_cuda_referenced_decl(k.v[i]);
        b[i] = clang_Cursor_isNull(d) ? NULL : kc_cuda_env_find(w->fn, d);
    }
    kc_cuda_kids_free(&k);
    if (!b[0] || !b[1] || b[0]->in_memory || b[1]->in_memory || !b[0]->val.ptr || !b[1]->val.ptr ||
        b[0]->val.base == KC_NONE || !kc_cuda_val_same(&b[0]->val, &b[1]->val))
        return -1;
    return op == CXBinaryOperator_EQ;
}

static bool walk_if(kc_cuda_walk *w, CXCursor s, if_info *info)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    unsigned ci = 0;
    while (ci < k.n && !clang_isExpression(k.v[ci].kind))
        ci++;
    if (ci >= k.n) {
        kc_cuda_kids_free(&k);
        return false;
    }
    for (unsigned i = 0; i < ci; i++) /* init-statement, condition variable */
        kc_cuda_walk_stmt(w, k.v[i]);
    CXCursor cond = k.v[ci];
    CXCursor then_s = ci + 1 < k.n ? k.v[ci + 1] : clang_getNullCursor();
    CXCursor else_s = ci + 2 < k.n ? k.v[ci + 2] : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    /* a branch no thread takes here is not walked: its accesses and
     * barriers do not happen in this call */
    int known = same_pointer_test(w, cond);
    if (known == 1)
        else_s = clang_getNullCursor();
    else if (known == 0)
        then_s = clang_getNullCursor();

    kc_cuda_preds pos = {0}, neg = {0};
    kc_cuda_val c = kc_cuda_ev_cond(w, cond, &pos, &neg);
    info->is_if = true;
    info->span = kc_cuda_wspan(w, cond);
    info->text = kc_cuda_wtext(w, cond);
    info->deps = c.deps;
    info->pos = kc_cuda_preds_copy(w, &pos, &info->npos);
    info->neg = kc_cuda_preds_copy(w, &neg, &info->nneg);
    kc_vec_free(&pos);
    kc_vec_free(&neg);
    info->has_else = !clang_Cursor_isNull(else_s);

    uint32_t saved = w->guard;
    uint32_t n0 = w->fn->env.len;
    kc_cuda_env e0;
    kc_cuda_env_copy(&e0, &w->fn->env);
    w->guard = kc_cuda_mk_cond(w, info->span, info->text, c.deps, false, info->pos, info->npos);
    kc_cuda_fn *fn = w->fn;
    /* A branch on a block-uniform condition that every thread entering it
     * leaves by a return (no loop of this function around it, where a
     * break or continue would keep a thread in the function): the threads
     * after the if are all those of the block that took the other branch,
     * so a thread-dependent return inside it lets no one skip a later
     * barrier. Barriers inside the branch have already taken it. */
    bool contained = !(c.deps.axes || (c.deps.flags & KC_AF_THREAD)) && w->frames.len == fn->frame_base;
    kc_span ret0 = fn->div_return;
    uint32_t ret0_cond = fn->div_return_cond;
    w->trapped = false;
    bool ex1 = clang_Cursor_isNull(then_s) ? false : kc_cuda_walk_stmt(w, then_s);
    if (!clang_Cursor_isNull(then_s) && is_trap(w, then_s))
        ex1 = w->trapped = true; /* `if (c) __trap();` */
    info->then_traps = ex1 && w->trapped;
    if (ex1 && contained) {
        fn->div_return = ret0;
        fn->div_return_cond = ret0_cond;
    }
    kc_cuda_env e1 = w->fn->env;
    w->fn->env = e0;
    bool ex2 = false;
    if (info->has_else) {
        /* A return in the then branch is on no path into the else branch:
         * its barriers do not come after it. After the if, the first
         * return either branch left stands. */
        kc_span ret_then = fn->div_return;
        uint32_t ret_then_cond = fn->div_return_cond;
        fn->div_return = ret0;
        fn->div_return_cond = ret0_cond;
        /* the else branch runs under the negation alone, not inside the
         * then branch's condition */
        w->guard = saved;
        w->guard = kc_cuda_mk_cond(w, info->span, info->text, c.deps, true, info->neg, info->nneg);
        w->trapped = false;
        ex2 = kc_cuda_walk_stmt(w, else_s);
        if (is_trap(w, else_s))
            ex2 = w->trapped = true;
        info->else_traps = ex2 && w->trapped;
        if (ex2 && contained) {
            fn->div_return = ret0;
            fn->div_return_cond = ret0_cond;
        }
        if (!kc_span_valid(ret0) && kc_span_valid(ret_then)) {
            fn->div_return = ret_then;
            fn->div_return_cond = ret_then_cond;
        }
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
            kc_cuda_bind *b = &w->fn->env.data[i];
            if (!kc_cuda_val_same(&e1.data[i].val, &b->val))
                b->val = kc_cuda_val_join(w, &e1.data[i].val, &b->val, c.deps, b->name, info->span);
        }
    }
    kc_vec_free(&e1);
    if (w->fn->env.len > n0)
        w->fn->env.len = n0;
    info->then_exits = ex1;
    info->else_exits = ex2;
    w->trapped = info->then_traps && info->else_traps;
    return ex1 && ex2;
}

static bool before(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) { return l1 < l2 || (l1 == l2 && c1 < c2); }

/* Statements the parse dropped or kept only in part (a call of an unknown
 * name) from (fl, fc) up to (tl, tc) inclusive: each is an unknown that
 * may synchronize the block. */
static void walk_holes(kc_cuda_walk *w, uint32_t fl, uint32_t fc, uint32_t tl, uint32_t tc)
{
    const kc_cuda_tu *t = w->t;
    for (uint32_t i = 0; i < t->nholes; i++) {
        const kc_cuda_hole *h = &t->holes[i];
        if (!before(h->line, h->col, fl, fc) && !before(tl, tc, h->line, h->col)) {
            kc_call c;
            memset(&c, 0, sizeof c);
            c.span = (kc_span){h->line, h->col, h->line, h->col + (uint32_t)strlen(h->name)};
            c.callee_span = c.span;
            c.callee = kc_arena_strdup(w->a, h->name);
            c.flags = KC_CALL_MAY_SYNC | KC_CALL_DEVICE;
            c.guard = w->guard;
            c.loop = w->loop;
            c.seq = w->seq++;
            kc_vec_push(&w->k->calls, c);
        }
    }
}

/* `__trap()`, `__builtin_trap()`, `asm("trap;")`: the kernel aborts here,
 * every thread of it: what follows in the block never runs (a `return`
 * after it is no thread leaving early). */
static bool is_trap(kc_cuda_walk *w, CXCursor c)
{
    if (c.kind == CXCursor_AsmStmt || c.kind == CXCursor_MSAsmStmt)
        return strstr(kc_cuda_wtext(w, c), "trap;") != NULL;
    while (c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_ParenExpr || c.kind == CXCursor_CStyleCastExpr) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        CXCursor in = k.n == 1 ? k.v[0] : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        if (clang_Cursor_isNull(in))
            return false;
        c = in;
    }
    if (c.kind != CXCursor_CallExpr)
        return false;
    CXString sp = clang_getCursorSpelling(c);
    const char *n = clang_getCString(sp);
    bool yes = n && (!strcmp(n, "__trap") || !strcmp(n, "__builtin_trap"));
    clang_disposeString(sp);
    return yes;
}

/* A `break` or `return` statement `s` ends the block whose accesses
 * start at `first`: those of the loop it leaves go on to leave it (no
 * later pass follows them), unless a `continue` or `goto` came between. */
static void leaves_after(kc_cuda_walk *w, CXCursor s, uint32_t first, unsigned back_jumps)
{
    if (w->back_jumps != back_jumps)
        return;
    bool ret = s.kind == CXCursor_ReturnStmt;
    uint32_t loop = KC_NONE;
    if (ret && !w->fn->caller) /* the kernel's own return, not an inlined function's */
        loop = w->loop;
    else if (!ret && w->frames.len > w->fn->frame_base)
        loop = kc_vec_last(&w->frames)->loop; /* KC_NONE: the break leaves a switch */
    if (loop == KC_NONE)
        return;
    /* only the accesses of that loop's own body: one in a loop nested in
     * the block (`for (j ..) out[j] = v; return;`) is followed by that
     * loop's next pass first */
    for (uint32_t i = first; i < w->k->accesses.len; i++) {
        kc_access *a = &w->k->accesses.data[i];
        if (a->loop != loop)
            continue;
        if (ret)
            a->returns = true;
        else
            a->breaks_loop = true;
    }
}

static bool walk_compound(kc_cuda_walk *w, CXCursor s)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    uint32_t n0 = w->fn->env.len, guard0 = w->guard;
    uint32_t first_access = w->k->accesses.len;
    unsigned back_jumps = w->back_jumps;
    bool exits = false;
    kc_span whole = w->t->nholes ? kc_cuda_span(w->t, s) : (kc_span){0};
    uint32_t at_line = whole.line, at_col = whole.col;
    for (unsigned i = 0; i < k.n; i++) {
        if (kc_span_valid(whole)) {
            kc_span cs = kc_cuda_span(w->t, k.v[i]);
            if (kc_span_valid(cs)) {
                walk_holes(w, at_line, at_col, cs.line, cs.col);
                at_line = cs.end_line;
                at_col = cs.end_col;
            }
        }
        if (k.v[i].kind == CXCursor_IfStmt && w->depth < KC_CUDA_MAX_DEPTH) {
            if_info info;
            memset(&info, 0, sizeof info);
            w->depth++;
            bool e = walk_if(w, k.v[i], &info);
            w->depth--;
            exits |= e;
            if (w->trapped) {
                exits = true; /* both branches trap */
                at_line = whole.end_line;
                at_col = whole.end_col;
                break;
            }
            /* `if (c) return;` — the rest of the block runs under !c. */
            /* a branch that traps aborts the whole kernel: the threads
             * after the if are not a subset the barrier misses */
            if (info.is_if && info.then_exits != info.else_exits &&
                !(info.then_exits ? info.then_traps : info.else_traps)) {
                bool neg = info.then_exits;
                w->guard = kc_cuda_mk_cond(w, info.span, info.text, info.deps, neg, neg ? info.neg : info.pos,
                                   neg ? info.nneg : info.npos);
            }
            continue;
        }
        w->trapped = false;
        if (k.v[i].kind == CXCursor_BreakStmt || k.v[i].kind == CXCursor_ReturnStmt)
            leaves_after(w, k.v[i], first_access, back_jumps);
        exits |= kc_cuda_walk_stmt(w, k.v[i]);
        if (w->trapped || is_trap(w, k.v[i])) {
            w->trapped = exits = true; /* nothing after it runs */
            at_line = whole.end_line;
            at_col = whole.end_col;
            break;
        }
    }
    if (kc_span_valid(whole))
        walk_holes(w, at_line, at_col, whole.end_line, whole.end_col);
    kc_cuda_kids_free(&k);
    w->guard = guard0;
    if (w->fn->env.len > n0)
        w->fn->env.len = n0;
    return exits;
}

static kc_cuda_frame *innermost_loop_frame(kc_cuda_walk *w)
{
    for (uint32_t i = w->frames.len; i-- > 0;)
        if (w->frames.data[i].loop != KC_NONE)
            return &w->frames.data[i];
    return NULL;
}

static bool walk_return(kc_cuda_walk *w, CXCursor s)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    kc_cuda_fn *fn = w->fn;
    /* a bool helper (`return h >= 0 && h < H;`): its value keeps what holds
     * when it is true or false, for the caller's conditions */
    bool boolean = !clang_Cursor_isNull(fn->decl) && clang_getCursorResultType(fn->decl).kind == CXType_Bool;
    kc_cuda_val v = k.n < 1     ? kc_cuda_v_none()
                    : boolean   ? kc_cuda_ev_bool(w, k.v[0])
                                : kc_cuda_ev(w, k.v[0], KC_CUDA_EV_LOAD);
    kc_cuda_kids_free(&k);
    if (kc_cuda_chain_thread_dep(w, w->guard, fn->entry_guard)) {
        if (!kc_span_valid(fn->div_return)) {
            fn->div_return = kc_cuda_aspan(w, s);
            fn->div_return_cond = kc_cuda_thread_cond(w, w->guard, fn->entry_guard);
        }
        /* The threads that return skip the barriers of every later pass of
         * the loops around the return. */
        for (uint32_t i = fn->frame_base; i < w->frames.len; i++)
            if (w->frames.data[i].loop != KC_NONE && !kc_span_valid(w->frames.data[i].div_break)) {
                w->frames.data[i].div_break = kc_cuda_aspan(w, s);
                w->frames.data[i].div_break_cond = kc_cuda_thread_cond(w, w->guard, fn->entry_guard);
            }
    }
    bool cond = w->guard != fn->entry_guard;
    if (fn->nret == 0) {
        fn->ret = v;
    } else if (!kc_cuda_val_same(&fn->ret, &v)) {
        kc_deps cd = {0};
        uint32_t g = 0;
        for (uint32_t c = w->guard; c != KC_NONE && c != fn->entry_guard && c < w->k->conds.len && g++ < 1000;
             c = w->k->conds.data[c].parent)
            cd = kc_cuda_deps_or(cd, w->k->conds.data[c].deps);
        fn->ret = kc_cuda_val_join(w, &fn->ret, &v, cd, "return value", kc_cuda_aspan(w, s));
    }
    fn->ret_cond |= cond;
    fn->nret++;
    return true;
}

static bool walk_jump(kc_cuda_walk *w, CXCursor s, bool is_break)
{
    kc_cuda_frame *f = NULL;
    if (is_break && w->frames.len)
        f = kc_vec_last(&w->frames); /* a switch or a loop */
    else
        f = innermost_loop_frame(w);
    if (f && f->loop != KC_NONE && !kc_span_valid(f->div_exit) && kc_cuda_chain_thread_dep(w, w->guard, f->body_guard)) {
        f->div_exit = kc_cuda_aspan(w, s);
        f->div_exit_cond = kc_cuda_thread_cond(w, w->guard, f->body_guard);
    }
    if (f && f->loop != KC_NONE && is_break && !kc_span_valid(f->div_break) &&
        kc_cuda_chain_thread_dep(w, w->guard, f->body_guard)) {
        f->div_break = kc_cuda_aspan(w, s);
        f->div_break_cond = kc_cuda_thread_cond(w, w->guard, f->body_guard);
    }
    return true;
}

static bool walk_switch(kc_cuda_walk *w, CXCursor s)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    unsigned ci = 0;
    while (ci < k.n && !clang_isExpression(k.v[ci].kind))
        kc_cuda_walk_stmt(w, k.v[ci++]);
    if (ci >= k.n) {
        kc_cuda_kids_free(&k);
        return false;
    }
    CXCursor cond = k.v[ci];
    kc_cuda_val c = kc_cuda_ev(w, cond, KC_CUDA_EV_LOAD);
    uint32_t saved = w->guard, n0 = w->fn->env.len;
    kc_cuda_env e0;
    kc_cuda_env_copy(&e0, &w->fn->env);
    const char *text = kc_arena_printf(w->a, "switch (%s)", kc_cuda_wtext(w, cond));
    w->guard = kc_cuda_mk_cond(w, kc_cuda_wspan(w, cond), text, c.deps, false, NULL, 0);
    kc_cuda_frame fr = {.loop = KC_NONE, .body_guard = w->guard};
    kc_vec_push(&w->frames, fr);
    for (unsigned i = ci + 1; i < k.n; i++)
        kc_cuda_walk_stmt(w, k.v[i]);
    w->frames.len--;
    w->guard = saved;
    for (uint32_t i = 0; i < n0 && i < e0.len && i < w->fn->env.len; i++) {
        kc_cuda_bind *b = &w->fn->env.data[i];
        if (!kc_cuda_val_same(&e0.data[i].val, &b->val))
            b->val = kc_cuda_val_join(w, &e0.data[i].val, &b->val, c.deps, b->name, kc_cuda_wspan(w, cond));
    }
    kc_vec_free(&e0);
    if (w->fn->env.len > n0)
        w->fn->env.len = n0;
    kc_cuda_kids_free(&k);
    return false;
}

/* ---- statement dispatcher ----------------------------------------------------------- */

static bool is_loop(CXCursor c)
{
    return c.kind == CXCursor_ForStmt || c.kind == CXCursor_WhileStmt || c.kind == CXCursor_DoStmt ||
           c.kind == CXCursor_CXXForRangeStmt;
}

bool kc_cuda_walk_stmt(kc_cuda_walk *w, CXCursor s)
{
    if (clang_Cursor_isNull(s) || w->depth >= KC_CUDA_MAX_DEPTH || !kc_cuda_budget_ok(w))
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
        exits = kc_cuda_walk_loop(w, s, NULL);
        break;
    case CXCursor_ReturnStmt:
        exits = walk_return(w, s);
        break;
    case CXCursor_BreakStmt:
        exits = walk_jump(w, s, true);
        break;
    case CXCursor_ContinueStmt:
        w->back_jumps++;
        exits = walk_jump(w, s, false);
        break;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        w->back_jumps++;
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
        const char *txt = kc_cuda_wtext(w, s);
        if (strstr(txt, "bar.sync") || strstr(txt, "barrier.sync") || strstr(txt, "bar.red"))
            kc_cuda_mk_barrier(w, s, "asm bar.sync");
        break;
    }
    case CXCursor_UnexposedStmt: {
        /* An attributed statement: `#pragma unroll` in front of a loop. */
        kc_cuda_kids k;
        kc_cuda_kids_get(s, &k);
        if (k.n >= 1 && is_loop(k.v[k.n - 1])) {
            kc_cuda_pragma pr;
            memset(&pr, 0, sizeof pr);
            CXCursor loop = k.v[k.n - 1];
            kc_cuda_kids_free(&k);
            exits = kc_cuda_walk_loop(w, loop, parse_pragma(w, s, loop, &pr) ? &pr : NULL);
            break;
        }
        for (unsigned i = 0; i < k.n; i++)
            exits |= kc_cuda_walk_stmt(w, k.v[i]);
        kc_cuda_kids_free(&k);
        break;
    }
    default:
        if (clang_isExpression(s.kind)) {
            CXCursor saved = w->stmt_expr;
            w->stmt_expr = kc_cuda_strip(s);
            kc_cuda_ev(w, s, KC_CUDA_EV_LOAD);
            w->stmt_expr = saved;
        } else {
            /* case/default/label/try: their statements */
            kc_cuda_kids k;
            kc_cuda_kids_get(s, &k);
            for (unsigned i = 0; i < k.n; i++)
                exits |= kc_cuda_walk_stmt(w, k.v[i]);
            kc_cuda_kids_free(&k);
        }
        break;
    }
    w->depth--;
    return exits;
}

/* ---- entry ----------------------------------------------------------------------------- */

static void add_params(kc_cuda_walk *w, CXCursor fn, CXCursor *body)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(fn, &k);
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
            const char *name = kc_cuda_spelling(w->t, c);
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
            p.span = kc_cuda_span(w->t, c);
            p.is_pointer = kc_cuda_ty_is_ptr(t);
            p.is_restrict = clang_isRestrictQualifiedType(t) != 0;
            p.restrict_unknown = p.is_pointer && !p.is_restrict && qualifier_word(w, p.span, name);
            kc_cuda_accessor acc;
            bool accessor = !p.is_pointer && kc_cuda_accessor_type(t, &acc);
            if (accessor) { /* a tensor accessor: a pointer to its elements */
                p.is_restrict = acc.restrict_;
                p.elem_bytes = kc_cuda_ty_size(acc.elem);
                p.pointee_const = clang_isConstQualifiedType(acc.elem) != 0;
            }
            CXType pointee = p.is_pointer ? kc_cuda_ty_pointee(t) : t;
            if (p.is_pointer) {
                p.pointee_const = clang_isConstQualifiedType(pointee) != 0;
                p.elem_bytes = kc_cuda_ty_size(pointee);
            }
            uint32_t sym = kc_kernel_add_symbol(w->m, w->k, name, KC_SYM_PARAM);
            kc_symbol *s = &w->k->symbols.data[sym];
            s->param = pidx;
            s->bits = kc_cuda_ty_bits(t);
            s->span = p.span;
            if (p.is_pointer)
                s->facts |= KC_SF_POINTER;
            p.symbol = sym;
            kc_vec_push(&w->k->params, p);
            kc_cuda_val v;
            bool in_memory = false;
            kc_space rspace = KC_MEM_UNKNOWN;
            CXType referred = clang_getNonReferenceType(t);
            if (p.is_pointer) {
                kc_space space = w->k->is_device_function ? kc_cuda_param_space(w->t, w->k->name, pidx) : KC_MEM_GLOBAL;
                v = kc_cuda_mem_pointer(w, sym, s->name, space, pointee);
            } else if (w->k->is_device_function && clang_getCanonicalType(t).kind == CXType_LValueReference &&
                       kc_cuda_ty_is_arith(referred) &&
                       (rspace = kc_cuda_param_space(w->t, w->k->name, pidx)) != KC_MEM_GLOBAL &&
                       rspace != KC_MEM_LOCAL) {
                /* `int &ntasks` that every call in the file binds to a
                 * `__shared__` variable: that memory, read and written as
                 * a shared scalar (its value after a barrier is the
                 * block's, whichever threads wrote it). Where nothing in
                 * the file calls the function, memory kcheck cannot place:
                 * a shared scalar or a register of the caller. */
                v = kc_cuda_mem_pointer(w, sym, s->name, rspace, referred);
                in_memory = true;
            } else if (accessor) {
                v = kc_cuda_accessor_param(w, sym, s->name, &acc);
            } else if (kc_cuda_ty_is_int(t)) {
                v = kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, kc_cuda_ty_bits(t)));
            } else if (kc_cuda_ty_is_record(t)) {
                v = kc_cuda_v_none();
                v.sparam = pidx + 1;
            } else {
                v = kc_cuda_v_none();
            }
            kc_cuda_env_bind(w, c, name, v)->in_memory = in_memory;
        } else if (c.kind == CXCursor_CompoundStmt) {
            *body = c;
        }
    }
    kc_cuda_kids_free(&k);
    /* Template parameters: constexpr symbols, with the values that launches
     * in this file instantiate them with. */
    for (uint32_t i = 0; i < tparams.len; i++) {
        CXCursor c = tparams.data[i];
        const char *name = kc_cuda_spelling(w->t, c);
        uint32_t sym = kc_kernel_add_symbol(w->m, w->k, name, KC_SYM_CONSTEXPR);
        CXType t = clang_getCursorType(c);
        int64_t vals[16];
        uint32_t line = 0;
        unsigned nv = kc_cuda_tvals_for(w->t, fn, tpos.data[i], vals, 16, &line);
        kc_symbol *s = &w->k->symbols.data[sym];
        s->bits = kc_cuda_ty_bits(t) ? kc_cuda_ty_bits(t) : 32;
        s->span = kc_cuda_span(w->t, c);
        kc_cuda_val v = kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_SYMBOL, sym, (kc_deps){0}, s->bits));
        if (nv) {
            int64_t *copy = kc_arena_alloc(w->a, (nv > 16 ? 16 : nv) * sizeof *copy);
            memcpy(copy, vals, (nv > 16 ? 16 : nv) * sizeof *copy);
            s->values = copy;
            s->nvalues = nv > 16 ? 16 : nv;
            s->value_origin = kc_arena_printf(w->a, "the launch on line %u", line);
            if (nv == 1) {
                s->has_value = true;
                s->value = vals[0];
                v = kc_cuda_v_index(kc_cuda_ix_const(w, vals[0], s->bits));
            }
        }
        kc_cuda_env_bind(w, c, name, v);
    }
    kc_vec_free(&tparams);
    kc_vec_free(&tpos);
}

void kc_cuda_lower_function(kc_cuda_tu *t, CXCursor fn, kc_kernel *k, bool device_fn)
{
    kc_cuda_walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.m = t->m;
    w.k = k;
    w.a = t->m->arena;
    w.guard = KC_NONE;
    w.loop = KC_NONE;
    w.budget = KC_CUDA_WORK_BUDGET;
    w.stmt = kc_cuda_walk_stmt;
    k->is_device_function = device_fn;
    k->span = kc_cuda_span(t, fn);
    uint32_t l, c, o;
    if (kc_cuda_loc_in_main(t, clang_getCursorLocation(fn), &l, &c, &o)) {
        k->name_span.line = l;
        k->name_span.col = c;
        k->name_span.end_line = l;
        k->name_span.end_col = c + (uint32_t)strlen(k->name);
    }
    kc_cuda_fn f;
    memset(&f, 0, sizeof f);
    f.decl = fn;
    f.entry_guard = KC_NONE;
    f.ret = kc_cuda_v_none();
    w.fn = &f;
    CXCursor body = clang_getNullCursor();
    add_params(&w, fn, &body);
    if (!clang_Cursor_isNull(body))
        kc_cuda_walk_stmt(&w, body);
    kc_cuda_bounds_checks(k);
    kc_cuda_device_facts(t, fn, k);
    kc_vec_free(&f.env);
    kc_vec_free(&w.frames);
    kc_vec_free(&w.declsyms);
}
