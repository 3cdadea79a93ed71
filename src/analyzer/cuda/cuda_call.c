/* cuda_call.c — what a call in device code is, before any of it is
 * evaluated: the callee's name, cooperative-groups objects and tile sizes,
 * the device function or lambda a call inlines, the legacy warp intrinsics,
 * whether an unknown callee may synchronize, and the call's record in the
 * kernel. The evaluation of calls (arguments, inlining) is in cuda_expr.c,
 * which calls this file and is never called by it.
 */
#include "cuda_walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

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
            if (!n[0] && c.kind == CXCursor_MemberRefExpr) {
                /* a member of an object of a dependent type
                 * (`typename K::Scan(st).InclusiveScan(v, v)`): the name
                 * is the expression's last token */
                CXSourceRange r = clang_getCursorExtent(c);
                kc_cuda_toks t;
                kc_cuda_toks_get(w->t, clang_getRangeStart(r), clang_getRangeEnd(r), &t);
                if (t.n && clang_getTokenKind(t.v[t.n - 1]) == CXToken_Identifier) {
                    CXString sp = clang_getTokenSpelling(t.tu, t.v[t.n - 1]);
                    n = kc_arena_strdup(w->a, clang_getCString(sp));
                    clang_disposeString(sp);
                }
                kc_cuda_toks_free(&t);
            }
        }
    }
    kc_cuda_kids_free(&k);
    return n && n[0] ? n : kc_cuda_spelling(w->t, call);
}

/* The class a cooperative-groups method or argument belongs to:
 * "thread_block", "grid_group", "thread_block_tile", ... or NULL. */
const char *kc_cuda_cg_class_of_type(kc_cuda_walk *w, CXType t)
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
int64_t kc_cuda_tile_size(CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(clang_getNonReferenceType(t)));
    const char *p = clang_getCString(s);
    const char *q = p ? strstr(p, "thread_block_tile<") : NULL;
    int64_t n = q ? strtoll(q + strlen("thread_block_tile<"), NULL, 10) : -1;
    clang_disposeString(s);
    return n > 0 ? n : -1;
}

bool kc_cuda_in_cg_namespace(CXCursor decl)
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

bool kc_cuda_starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* The object of a member call `obj.f(...)`, or a null cursor. */
CXCursor kc_cuda_member_object(CXCursor call)
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

/* Is the member call `call` written `p->f(...)` (through a pointer)?
 * Read from the text: where a header is missing, the object's type is
 * unknown. */
bool kc_cuda_member_arrow(const kc_cuda_tu *t, CXCursor call)
{
    CXCursor obj = kc_cuda_member_object(call);
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor callee = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    if (clang_Cursor_isNull(obj) || callee.kind != CXCursor_MemberRefExpr)
        return false;
    const char *mt = kc_cuda_text(t, callee), *ot = kc_cuda_text(t, obj);
    size_t n = ot ? strlen(ot) : 0;
    if (!mt || !ot || strncmp(mt, ot, n) != 0)
        return false;
    const char *p = mt + n;
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    return p[0] == '-' && p[1] == '>';
}

/* The one function an unresolved call `call` can name: in a template, a
 * call with an argument of dependent type stays unresolved
 * (`byte_rle(&s->bs, ..., t)` in a kernel templated on its block size),
 * though only one function (or function template) of that name exists:
 * the call references nothing, its callee an overload set. Declarations of
 * the same function count once. */
static CXCursor sole_candidate(CXCursor call)
{
    CXCursor none = clang_getNullCursor(), found = none;
    CXCursor ref = kc_cuda_callee_ref(call);
    if (ref.kind != CXCursor_OverloadedDeclRef)
        return none;
    unsigned n = clang_getNumOverloadedDecls(ref);
    for (unsigned i = 0; i < n; i++) {
        CXCursor d = clang_getOverloadedDecl(ref, i);
        if (d.kind != CXCursor_FunctionDecl && d.kind != CXCursor_FunctionTemplate)
            return none;
        if (!clang_Cursor_isNull(found) &&
            !clang_equalCursors(clang_getCanonicalCursor(found), clang_getCanonicalCursor(d)))
            return none;
        found = d;
    }
    return found;
}

/* The `block_aggregate` out-parameter of a block-wide collective of CUB
 * (hipCUB's too): `BlockScan::InclusiveSum(in, out, block_aggregate)` gives
 * every thread of the block the same total (cub/block/block_scan.cuh),
 * where the scan's own output differs from thread to thread. */
bool kc_cuda_block_aggregate(kc_cuda_walk *w, CXCursor param)
{
    if (strcmp(kc_cuda_spelling(w->t, param), "block_aggregate") != 0)
        return false;
    CXCursor fn = clang_getCursorSemanticParent(param);
    CXCursor cls = clang_Cursor_isNull(fn) ? fn : clang_getCursorSemanticParent(fn);
    return !clang_Cursor_isNull(cls) && kc_cuda_starts_with(kc_cuda_spelling(w->t, cls), "Block");
}

/* A call of the project's that the walk does not follow (a member
 * function, one it cannot resolve or will not inline here): the thread
 * index its arguments carry may not reach its result. */
bool kc_cuda_call_unfollowed(kc_cuda_walk *w, CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    return kc_cuda_call_unseen(ref) && clang_Cursor_isNull(kc_cuda_inline_target(w, call, ref)) &&
           clang_Cursor_isNull(kc_cuda_lambda_target(w, ref));
}

/* The function whose body `call` (to `ref`) should inline, or a null cursor. */
CXCursor kc_cuda_inline_target(kc_cuda_walk *w, CXCursor call, CXCursor ref)
{
    CXCursor none = clang_getNullCursor();
    bool unresolved = clang_Cursor_isNull(ref);
    if (unresolved)
        ref = sole_candidate(call);
    if (clang_Cursor_isNull(ref) ||
        (ref.kind != CXCursor_FunctionDecl && !(ref.kind == CXCursor_CXXMethod && clang_CXXMethod_isStatic(ref)) &&
         !(unresolved && ref.kind == CXCursor_FunctionTemplate)))
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

/* Which specialization of a function a call inlines: its type and its
 * integral template arguments (`float (float)<4>`). */
const char *kc_cuda_specialization_key(kc_cuda_walk *w, CXCursor ref, int nt)
{
    if (clang_Cursor_isNull(ref))
        return "";
    CXString ts = clang_getTypeSpelling(clang_getCursorType(ref));
    const char *key = kc_arena_printf(w->a, "%s", clang_getCString(ts) ? clang_getCString(ts) : "");
    clang_disposeString(ts);
    for (int i = 0; i < nt; i++)
        if (clang_Cursor_getTemplateArgumentKind(ref, (unsigned)i) == CXTemplateArgumentKind_Integral)
            key = kc_arena_printf(w->a, "%s<%lld>", key, clang_Cursor_getTemplateArgumentValue(ref, (unsigned)i));
        else {
            CXString as = clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(ref, (unsigned)i));
            key = kc_arena_printf(w->a, "%s<%s>", key, clang_getCString(as) ? clang_getCString(as) : "");
            clang_disposeString(as);
        }
    return key;
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
CXCursor kc_cuda_lambda_target(kc_cuda_walk *w, CXCursor ref)
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

/* Does the source of `outer` hold `inner` (both in one file)? */
static bool encloses(CXCursor outer, CXCursor inner)
{
    CXFile fo, fi;
    unsigned oa, ob, ia;
    CXSourceRange r = clang_getCursorExtent(outer);
    clang_getExpansionLocation(clang_getRangeStart(r), &fo, NULL, NULL, &oa);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &ob);
    clang_getExpansionLocation(clang_getCursorLocation(inner), &fi, NULL, NULL, &ia);
    return fo && fi && clang_File_isEqual(fo, fi) && oa <= ia && ia < ob;
}

kc_cuda_fn *kc_cuda_lambda_home(kc_cuda_walk *w, CXCursor def)
{
    for (kc_cuda_fn *f = w->fn; f; f = f->caller)
        if (encloses(f->decl, def))
            return f;
    return w->fn;
}

void kc_cuda_texture_read(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na)
{
    /* tex1D tex1Dfetch tex2D tex3D tex2DLayered texCubemap tex2Dgather
     * tex2DLod tex3DGrad ...; surf1Dread surf2Dread surf3Dread ... */
    bool tex = !strncmp(name, "tex", 3) && (isdigit((unsigned char)name[3]) || !strncmp(name + 3, "Cubemap", 7));
    bool surf = !strncmp(name, "surf", 4) && isdigit((unsigned char)name[4]) && strstr(name, "read");
    if ((tex || surf) && !kc_cuda_user_overload(e))
        kc_cuda_record_call(w, e, name, KC_CALL_TEXTURE_READ, NULL, args, na);
}

/* Legacy warp intrinsics without a mask (removed for sm_70 and later):
 * the name of the _sync replacement, or NULL. */
const char *kc_cuda_legacy_warp_sync_name(kc_cuda_walk *w, const char *name)
{
    static const char *const legacy[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                                         "__any", "__all", "__ballot"};
    for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
        if (strcmp(name, legacy[i]) == 0)
            return kc_arena_printf(w->a, "%s_sync", name);
    return NULL;
}

/* What a search for a barrier in the body of a function is given: a
 * budget of cursors (past it, presume the body may synchronize). */
typedef struct sync_search {
    kc_cuda_walk *w;
    unsigned depth;
    unsigned budget;
    bool found;
} sync_search;

static bool may_sync_at(kc_cuda_walk *w, CXCursor call, CXCursor ref, const char *name, unsigned depth,
                        unsigned *budget);

/* A name that is a barrier of the block or of a group. */
static bool barrier_name(const char *name)
{
    return kc_cuda_starts_with(name, "__sync") || kc_cuda_starts_with(name, "__barrier") ||
           kc_cuda_starts_with(name, "barrier") || strcmp(name, "sync") == 0 || strcmp(name, "arrive_and_wait") == 0;
}

/* A call that is certainly no barrier (intrinsics, operators, math), or
 * one with no name (a construction `T(x)`). */
static bool never_syncs(const char *name)
{
    return !name[0] || kc_cuda_starts_with(name, "__") || kc_cuda_starts_with(name, "operator") ||
           kc_cuda_starts_with(name, "make_") || strcmp(name, "printf") == 0 || strcmp(name, "assert") == 0 ||
           strcmp(name, "min") == 0 || strcmp(name, "max") == 0;
}

static enum CXChildVisitResult sync_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    sync_search *s = data;
    if (s->found || s->budget == 0) {
        s->found = true;
        return CXChildVisit_Break;
    }
    s->budget--;
    if (c.kind == CXCursor_AsmStmt || c.kind == CXCursor_MSAsmStmt) {
        /* `bar.sync`, `barrier.sync`, `bar.arrive`: any inline assembly
         * that names a barrier */
        CXSourceRange r = clang_getCursorExtent(c);
        kc_cuda_toks t;
        kc_cuda_toks_get(s->w->t, clang_getRangeStart(r), clang_getRangeEnd(r), &t);
        for (unsigned i = 0; i < t.n && !s->found; i++) {
            CXString sp = clang_getTokenSpelling(t.tu, t.v[i]);
            const char *p = clang_getCString(sp);
            s->found = p && (strstr(p, "bar.") || strstr(p, "barrier"));
            clang_disposeString(sp);
        }
        kc_cuda_toks_free(&t);
        if (!t.n)
            s->found = true; /* text not at hand */
        return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (c.kind == CXCursor_CallExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        const char *name = kc_cuda_callee_name(s->w, c, ref);
        if (barrier_name(name) || may_sync_at(s->w, c, ref, name, s->depth + 1, &s->budget)) {
            s->found = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Can the body of the user's function `fn` synchronize: a barrier, a
 * call that may, or inline assembly with a barrier in it? A declaration
 * without a body, or a search past its depth or budget, may. */
static bool body_may_sync(kc_cuda_walk *w, CXCursor fn, unsigned depth, unsigned *budget)
{
    CXCursor def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def)) {
        CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
        if (!clang_Cursor_isNull(tmpl))
            def = clang_getCursorDefinition(tmpl);
    }
    if (clang_Cursor_isNull(def) || depth > 6 || *budget == 0)
        return true;
    sync_search s = {w, depth, *budget, false};
    clang_visitChildren(def, sync_visit, &s);
    *budget = s.budget;
    return s.found;
}

/* The functions an unresolved call in a template may call (`f<T>(x)`,
 * `f(x)` with dependent arguments): its overload set. */
static bool overloads_may_sync(kc_cuda_walk *w, CXCursor call, unsigned depth, unsigned *budget)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor c = k.n >= 1 ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    if (!clang_Cursor_isNull(c) && c.kind == CXCursor_DeclRefExpr) {
        /* `f<T>(x)`: the template, or its overload set; `T(x)` of a
         * dependent type T, a call with no name whose first child is its
         * argument: a construction */
        c = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(c) && (c.kind == CXCursor_ParmDecl || c.kind == CXCursor_VarDecl) &&
            !kc_cuda_spelling(w->t, call)[0])
            return false;
        if (!clang_Cursor_isNull(c) && (c.kind == CXCursor_FunctionTemplate || c.kind == CXCursor_FunctionDecl))
            return kc_cuda_in_user_code(c) ? body_may_sync(w, c, depth, budget)
                                           : may_sync_at(w, call, c, kc_cuda_spelling(w->t, c), depth, budget);
    }
    if (clang_Cursor_isNull(c) || c.kind != CXCursor_OverloadedDeclRef)
        return true;
    unsigned n = clang_getNumOverloadedDecls(c);
    if (!n)
        return true;
    for (unsigned i = 0; i < n; i++) {
        CXCursor d = clang_getOverloadedDecl(c, i);
        if (d.kind != CXCursor_FunctionDecl && d.kind != CXCursor_FunctionTemplate)
            return true;
        if (!kc_cuda_in_user_code(d)) {
            if (may_sync_at(w, call, d, kc_cuda_spelling(w->t, d), depth, budget))
                return true;
            continue;
        }
        if (body_may_sync(w, d, depth, budget))
            return true;
    }
    return false;
}

/* Do the tokens name a library namespace whose block-wide calls
 * synchronize (`cub::`, `cooperative_groups::`)? */
static bool toks_name_sync_library(kc_cuda_toks *t)
{
    for (unsigned i = 0; i + 1 < t->n; i++)
        if ((kc_cuda_tok_is(t, i, "cub") || kc_cuda_tok_is(t, i, "cooperative_groups")) &&
            kc_cuda_tok_is(t, i + 1, "::"))
            return true;
    return false;
}

typedef struct typedef_search {
    const char *name;
    CXCursor found;
    bool deep; /* into the statements of a function; not through a whole file */
} typedef_search;

static enum CXChildVisitResult typedef_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    typedef_search *s = data;
    if (c.kind == CXCursor_TypedefDecl || c.kind == CXCursor_TypeAliasDecl) {
        CXString sp = clang_getCursorSpelling(c);
        bool same = strcmp(clang_getCString(sp), s->name) == 0;
        clang_disposeString(sp);
        if (same) {
            s->found = c;
            return CXChildVisit_Break;
        }
        return CXChildVisit_Continue;
    }
    return s->deep && (clang_isStatement(c.kind) || clang_isDeclaration(c.kind)) ? CXChildVisit_Recurse
                                                                                : CXChildVisit_Continue;
}

/* A call clang could not build, so it has no name (`R(temp).Sum(x)` with
 * `typedef cub::BlockReduce<float, BLOCK> R;` and BLOCK from a missing
 * header): does it name a library namespace, or start with a type whose
 * typedef or alias (in the function, or at file scope) names one? A CUB
 * block collective synchronizes the block inside. */
static bool lost_call_into_library(kc_cuda_walk *w, CXCursor call)
{
    CXSourceRange r = clang_getCursorExtent(call);
    kc_cuda_toks t;
    kc_cuda_toks_get(w->t, clang_getRangeStart(r), clang_getRangeEnd(r), &t);
    bool found = toks_name_sync_library(&t);
    if (!found && t.n && clang_getTokenKind(t.v[0]) == CXToken_Identifier) {
        CXString sp = clang_getTokenSpelling(t.tu, t.v[0]);
        typedef_search s = {clang_getCString(sp), clang_getNullCursor(), true};
        CXCursor fn = w->fn ? w->fn->decl : clang_getNullCursor();
        if (!clang_Cursor_isNull(fn))
            clang_visitChildren(fn, typedef_visit, &s);
        if (clang_Cursor_isNull(s.found)) {
            CXCursor p = clang_Cursor_isNull(fn) ? fn : clang_getCursorSemanticParent(fn);
            s.deep = false;
            if (p.kind == CXCursor_TranslationUnit || p.kind == CXCursor_Namespace)
                clang_visitChildren(p, typedef_visit, &s);
        }
        clang_disposeString(sp);
        if (!clang_Cursor_isNull(s.found)) {
            CXSourceRange dr = clang_getCursorExtent(s.found);
            kc_cuda_toks dt;
            kc_cuda_toks_get(w->t, clang_getRangeStart(dr), clang_getRangeEnd(dr), &dt);
            found = toks_name_sync_library(&dt);
            kc_cuda_toks_free(&dt);
        }
    }
    kc_cuda_toks_free(&t);
    return found;
}

static bool may_sync_at(kc_cuda_walk *w, CXCursor call, CXCursor ref, const char *name, unsigned depth,
                        unsigned *budget)
{
    if (!name[0] && clang_Cursor_isNull(ref))
        return lost_call_into_library(w, call);
    if (never_syncs(name))
        return false;
    if (clang_Cursor_isNull(ref))
        return overloads_may_sync(w, call, depth, budget);
    if (ref.kind == CXCursor_Constructor || ref.kind == CXCursor_Destructor || ref.kind == CXCursor_ConversionFunction)
        return false;
    CXCursor def = clang_getCursorDefinition(ref);
    CXCursor where = clang_Cursor_isNull(def) ? ref : def;
    if (kc_cuda_in_user_code(where))
        return (ref.kind != CXCursor_FunctionDecl && ref.kind != CXCursor_FunctionTemplate) ||
               body_may_sync(w, ref, depth, budget);
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

/* Might a call that is not inlined synchronize the block inside? A call
 * into CUB, libcu++ or cooperative groups, or to a function clang could
 * not resolve (unless every function of its overload set is the user's
 * and none can), or into user code whose body may (a barrier, a call that
 * may, a barrier in inline assembly: a member function, a template called
 * from a template, a function too deep to inline); not intrinsics, math,
 * or operators. */
bool kc_cuda_call_may_sync(kc_cuda_walk *w, CXCursor e, CXCursor ref, const char *name)
{
    unsigned budget = 20000;
    return may_sync_at(w, e, ref, name, 0, &budget);
}

/* A call the walk does not inline whose callee is the user's or is not
 * resolved (a template called with dependent arguments): its reads and
 * writes are not in the model (KC_CALL_UNSEEN). Library functions,
 * intrinsics and operators are known by their names elsewhere. */
bool kc_cuda_call_unseen(CXCursor ref)
{
    if (clang_Cursor_isNull(ref))
        return true;
    if (ref.kind == CXCursor_OverloadedDeclRef) {
        for (unsigned i = 0, n = clang_getNumOverloadedDecls(ref); i < n; i++)
            if (kc_cuda_in_user_code(clang_getOverloadedDecl(ref, i)))
                return true;
        return false;
    }
    if (ref.kind != CXCursor_FunctionDecl && ref.kind != CXCursor_FunctionTemplate && ref.kind != CXCursor_CXXMethod)
        return false;
    CXCursor def = clang_getCursorDefinition(ref);
    return kc_cuda_in_user_code(clang_Cursor_isNull(def) ? ref : def);
}

/* Is `arg` a local variable passed as itself (`f(x, q, r)`), with no
 * conversion clang put around it: in a call it could not resolve, it may
 * bind to a reference parameter the callee writes (`d.divmod(i, q, r)`
 * from a missing header). Parameters of the kernel are taken as passed
 * by value: they are the sizes the rest of the analysis reads. */
bool kc_cuda_bare_variable(CXCursor arg)
{
    if (arg.kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(arg);
    return d.kind == CXCursor_VarDecl && clang_Cursor_getStorageClass(d) != CX_SC_Static &&
           !clang_isConstQualifiedType(clang_getCursorType(d));
}

/* The i-th parameter of the functions an unresolved call may call
 * (`lin_merge_simple<T, depth>(...)` in a kernel template names a
 * function template whose parameters are known): that parameter of the
 * candidates, each of na parameters or more (defaults), when none takes it
 * by reference to non-const (`T &`, `T &&`); else, or where a candidate has
 * fewer (a pack, C varargs), a null cursor (any argument may be written). */
/* The i-th parameters of the functions unresolved call `call` may call,
 * into out[0..max): their number, or -1 where a candidate has fewer than
 * na parameters (a pack, C varargs) or the callee is not a function. */
static int candidate_params(CXCursor call, int i, int na, CXCursor *out, int max)
{
    CXCursor none = clang_getNullCursor();
    CXCursor r = kc_cuda_callee_ref(call);
    bool overloaded = r.kind == CXCursor_OverloadedDeclRef;
    if (!overloaded && r.kind != CXCursor_FunctionTemplate && r.kind != CXCursor_FunctionDecl)
        return -1;
    int n = overloaded ? (int)clang_getNumOverloadedDecls(r) : 1, got = 0;
    for (int c = 0; c < n; c++) {
        CXCursor d = overloaded ? clang_getOverloadedDecl(r, (unsigned)c) : r;
        kc_cuda_kids pk;
        kc_cuda_kids_get(d, &pk);
        CXCursor p = none;
        int np = 0;
        for (unsigned j = 0; j < pk.n; j++)
            if (pk.v[j].kind == CXCursor_ParmDecl && np++ == i)
                p = pk.v[j];
        kc_cuda_kids_free(&pk);
        if (np < na || clang_Cursor_isNull(p))
            return -1;
        if (got == max)
            return -1;
        out[got++] = p;
    }
    return got;
}

bool kc_cuda_user_overload(CXCursor call)
{
    CXCursor r = kc_cuda_callee_ref(call);
    if (r.kind != CXCursor_OverloadedDeclRef)
        return (r.kind == CXCursor_FunctionDecl || r.kind == CXCursor_FunctionTemplate) && kc_cuda_in_user_code(r);
    for (unsigned c = 0; c < clang_getNumOverloadedDecls(r); c++)
        if (kc_cuda_in_user_code(clang_getOverloadedDecl(r, c)))
            return true;
    return false;
}

CXCursor kc_cuda_candidate_param(CXCursor call, int i, int na)
{
    CXCursor ps[64];
    int n = candidate_params(call, i, na, ps, 64);
    for (int c = 0; c < n; c++) {
        CXType pt = clang_getCursorType(ps[c]);
        if (kc_cuda_out_param(ps[c]) ||
            (pt.kind == CXType_RValueReference && !clang_isConstQualifiedType(clang_getPointeeType(pt))))
            return clang_getNullCursor();
    }
    return n > 0 ? ps[n - 1] : clang_getNullCursor();
}

/* The loops around a call of a function kcheck cannot see into that is
 * given a pointer: it may read what the pointer points to and change it
 * (`curand_uniform(&state)` advances the state), so called again in a
 * later pass it may return something else; so may one clang could not
 * resolve (`unresolved`) given a variable that may bind to a reference.
 * 0 for any other call. */
uint64_t kc_cuda_call_pass_loops(const kc_cuda_walk *w, const CXCursor *args, int na, bool unresolved)
{
    for (int i = 0; i < na && w->loop != KC_NONE; i++) {
        CXType at = clang_getCursorType(args[i]);
        if (kc_cuda_ty_is_ptr(at) || kc_cuda_ty_is_array(at) || (unresolved && kc_cuda_bare_variable(args[i])) ||
            kc_cuda_unop_of(kc_cuda_strip(args[i])) == CXUnaryOperator_AddrOf)
            return kc_cuda_loops_around(w);
    }
    return 0;
}

/* Is the call `c` of two operands a dependent `a + b` or `a - b` (in a
 * template clang keeps it as a call of an operator it has not resolved,
 * with no name): the token between the operands. */
static bool infix_sum(CXCursor c, CXCursor a, CXCursor b)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    unsigned ae, bs;
    clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(a)), NULL, NULL, NULL, &ae);
    clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(b)), NULL, NULL, NULL, &bs);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    bool sum = false;
    unsigned between = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned off;
        clang_getFileLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
        if (off < ae || off >= bs)
            continue;
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(sp);
        between++;
        sum = t && (strcmp(t, "+") == 0 || strcmp(t, "-") == 0);
        clang_disposeString(sp);
    }
    if (n)
        clang_disposeTokens(tu, toks, n);
    return sum && between == 1;
}

/* The name a pointer expression is computed from (`src` of `src +
 * itr_idx`, `(const T *)src`, `&x[i]`): its declaration, or a null
 * cursor. */
static CXCursor pointer_root(CXCursor c, unsigned depth)
{
    c = kc_cuda_strip(c);
    if (depth > 8)
        return clang_getNullCursor();
    if (c.kind == CXCursor_DeclRefExpr)
        return clang_getCursorReferenced(c);
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    CXCursor r = clang_getNullCursor();
    bool cast = c.kind == CXCursor_CStyleCastExpr || c.kind == CXCursor_CXXStaticCastExpr ||
                c.kind == CXCursor_CXXReinterpretCastExpr || c.kind == CXCursor_CXXConstCastExpr;
    bool sum = c.kind == CXCursor_BinaryOperator && (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Add ||
                                                     clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Sub);
    /* (in a template, `src + i` of a dependent type is a call of an
     * operator clang has not resolved) */
    if (c.kind == CXCursor_CallExpr && k.n == 2 && clang_getCursorType(c).kind == CXType_Dependent)
        sum = infix_sum(c, k.v[0], k.v[1]);
    if (sum) {
        /* p + i, i + p: the operand that roots in a pointer variable */
        for (unsigned i = 0; i < k.n && clang_Cursor_isNull(r); i++) {
            CXCursor d = pointer_root(k.v[i], depth + 1);
            if (d.kind == CXCursor_ParmDecl || d.kind == CXCursor_VarDecl)
                r = d;
        }
    } else if ((cast || c.kind == CXCursor_ParenExpr) && k.n >= 1) {
        r = pointer_root(k.v[cast ? k.n - 1 : 0], depth + 1);
    } else if (c.kind == CXCursor_UnaryOperator && kc_cuda_unop_of(c) == CXUnaryOperator_AddrOf && k.n >= 1) {
        /* &p[i]: the array or pointer indexed */
        CXCursor x = kc_cuda_strip(k.v[0]);
        if (x.kind == CXCursor_ArraySubscriptExpr) {
            kc_cuda_kids a;
            kc_cuda_kids_get(x, &a);
            if (a.n >= 1)
                r = pointer_root(a.v[0], depth + 1);
            kc_cuda_kids_free(&a);
        }
    }
    kc_cuda_kids_free(&k);
    return r;
}

bool kc_cuda_passes_memory(const CXCursor *args, int na)
{
    for (int i = 0; i < na; i++) {
        /* (in a template, `src + i` has a dependent type: its root decides) */
        CXType at = clang_getCanonicalType(clang_getCursorType(args[i]));
        if (at.kind != CXType_Pointer && at.kind != CXType_Dependent && at.kind != CXType_Unexposed)
            continue;
        CXCursor d = pointer_root(args[i], 0);
        if ((d.kind != CXCursor_ParmDecl && d.kind != CXCursor_VarDecl) || !kc_cuda_ty_is_ptr(clang_getCursorType(d)))
            continue;
        /* a pointer parameter, or a pointer variable of the function (one
         * a parameter was copied into, advanced); not an array of its
         * own, local or __shared__ */
        if (d.kind == CXCursor_ParmDecl || !kc_cuda_has_attr(d, CXCursor_CUDASharedAttr))
            return true;
    }
    return false;
}

void kc_cuda_record_call(kc_cuda_walk *w, CXCursor e, const char *name, uint32_t flags, const char *fix,
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
void kc_cuda_pin_params(kc_cuda_walk *w, CXCursor e, unsigned depth)
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
            kc_cuda_pin_params(w, x, depth + 1);
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

/* ---- memory intrinsics ------------------------------------------------------- */

/* The first argument of a memory intrinsic, as a pointer. */
static kc_cuda_val arg_pointer(kc_cuda_walk *w, CXCursor a, kc_cuda_ev_fn ev)
{
    kc_cuda_val p = ev(w, a, KC_CUDA_EV_LOAD);
    if (!p.ptr) {
        p = kc_cuda_v_none();
        p.ptr = true;
        p.space = KC_MEM_UNKNOWN;
    }
    if (clang_Cursor_isNull(p.idx_expr))
        p.idx_expr = a;
    return p;
}

bool kc_cuda_memory_call(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na, CXType rt,
                         kc_cuda_ev_fn ev, kc_cuda_val *out)
{
    /* Atomics: read-modify-write of the first argument. */
    if (kc_cuda_starts_with(name, "atomic") && na >= 2) {
        kc_cuda_val p = arg_pointer(w, args[0], ev);
        for (int i = 1; i < na; i++)
            ev(w, args[i], KC_CUDA_EV_LOAD);
        uint32_t id = kc_cuda_mk_access(w, KC_ACC_ATOMIC, &p, e, p.idx_expr, false);
        *out = kc_cuda_load_value(w, id, &p, rt);
        return true;
    }
    /* Loads and stores through cache-hint intrinsics. */
    if (na >= 1 && (strcmp(name, "__ldg") == 0 || strcmp(name, "__ldcg") == 0 || strcmp(name, "__ldca") == 0 ||
                    strcmp(name, "__ldcs") == 0 || strcmp(name, "__ldlu") == 0 || strcmp(name, "__ldcv") == 0)) {
        kc_cuda_val p = arg_pointer(w, args[0], ev);
        uint32_t id = kc_cuda_mk_access(w, KC_ACC_LOAD, &p, e, p.idx_expr, strcmp(name, "__ldg") == 0);
        *out = kc_cuda_load_value(w, id, &p, rt);
        return true;
    }
    if (na >= 2 && (strcmp(name, "__stcg") == 0 || strcmp(name, "__stcs") == 0 || strcmp(name, "__stwb") == 0 ||
                    strcmp(name, "__stwt") == 0)) {
        kc_cuda_val p = arg_pointer(w, args[0], ev);
        ev(w, args[1], KC_CUDA_EV_LOAD);
        kc_cuda_mk_access(w, KC_ACC_STORE, &p, e, p.idx_expr, false);
        *out = kc_cuda_v_none();
        return true;
    }

    /* WMMA tiles: the warp loads or stores a tile of `ldm`-strided rows
     * through the pointer, elements kcheck does not place (offset
     * unknown): `load_matrix_sync(frag, p, ldm)`, `store_matrix_sync(p,
     * frag, ldm, layout)`. */
    bool wmma_load = strcmp(name, "load_matrix_sync") == 0 && na >= 3;
    if ((wmma_load || (strcmp(name, "store_matrix_sync") == 0 && na >= 3)) &&
        kc_cuda_ty_is_ptr(clang_getCursorType(args[wmma_load ? 1 : 0]))) {
        kc_cuda_val p = arg_pointer(w, args[wmma_load ? 1 : 0], ev);
        for (int i = 0; i < na; i++)
            if (i != (wmma_load ? 1 : 0))
                ev(w, args[i], KC_CUDA_EV_LOAD);
        if (p.ptr) {
            p.off = NULL;
            p.idx_expr = clang_getNullCursor();
            kc_cuda_mk_access(w, wmma_load ? KC_ACC_LOAD : KC_ACC_STORE, &p, e, p.idx_expr, false);
        }
        *out = kc_cuda_v_none();
        return true;
    }

    return false;
}

/* A parameter through which the callee can write the caller's variable:
 * a reference to non-const (`int &x`). */
bool kc_cuda_out_param(CXCursor param)
{
    CXType t = clang_getCursorType(param);
    return t.kind == CXType_LValueReference && !clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* How argument `arg` of `call` is evaluated: as an address (nothing
 * loaded) where it names a struct object that binds to a reference
 * parameter (`ewald(target, *params)` with `const Params &p`): binding
 * reads nothing; what the callee reads of its members are the loads, seen
 * where it is inlined. Else as a value, a load where it names memory. */
/* Is scalar argument `arg` of `call` (to `ref`) a variable bound to a
 * reference to non-const (`unsigned int &flag`)? The call reads nothing
 * there: the callee's reads and writes through the reference are its own
 * (walked with its body), or a write (write_back). */
static bool scalar_out_arg(CXCursor call, CXCursor ref, CXCursor arg)
{
    /* (a `__shared__` local has static storage in clang's eyes) */
    if (arg.kind != CXCursor_DeclRefExpr || clang_getCursorReferenced(arg).kind != CXCursor_VarDecl)
        return false;
    int na = clang_Cursor_getNumArguments(call);
    bool fn = ref.kind == CXCursor_FunctionDecl || ref.kind == CXCursor_CXXMethod ||
              ref.kind == CXCursor_FunctionTemplate;
    for (int i = 0; i < na; i++) {
        if (!clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)i), arg))
            continue;
        if (fn && clang_Cursor_getNumArguments(ref) == na)
            return kc_cuda_out_param(clang_Cursor_getArgument(ref, (unsigned)i));
        /* an unresolved call: every candidate takes it so */
        CXCursor ps[64];
        int n = candidate_params(call, i, na, ps, 64);
        for (int c = 0; c < n; c++)
            if (!kc_cuda_out_param(ps[c]))
                return false;
        return n > 0;
    }
    return false;
}

int kc_cuda_arg_mode(CXCursor call, CXCursor arg)
{
    if (call.kind != CXCursor_CallExpr)
        return KC_CUDA_EV_LOAD;
    CXType at = clang_getCanonicalType(clang_getCursorType(arg));
    bool record = kc_cuda_ty_is_record(at);
    CXCursor ref = clang_getCursorReferenced(call);
    if (!record && at.kind != CXType_Unexposed && at.kind != CXType_Dependent)
        return scalar_out_arg(call, ref, arg) ? KC_CUDA_EV_ADDR : KC_CUDA_EV_LOAD;
    if (ref.kind == CXCursor_Constructor)
        return KC_CUDA_EV_LOAD; /* a copy made of it (`Box b` passed by value) reads it */
    int na = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < na; i++) {
        if (!clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)i), arg))
            continue;
        bool fn = ref.kind == CXCursor_FunctionDecl || ref.kind == CXCursor_CXXMethod ||
                  ref.kind == CXCursor_FunctionTemplate;
        CXCursor p = fn && clang_Cursor_getNumArguments(ref) == na ? clang_Cursor_getArgument(ref, (unsigned)i)
                                                                   : kc_cuda_candidate_param(call, i, na);
        /* no parameter known (a callee from a missing header, or one that
         * takes it by reference to write it): a struct may be bound, not
         * copied; kcheck cannot tell, so no load is assumed */
        if (clang_Cursor_isNull(p))
            return record || clang_Type_getNumTemplateArguments(at) > 0 ? KC_CUDA_EV_ADDR : KC_CUDA_EV_LOAD;
        CXType pt = clang_getCursorType(p);
        if (pt.kind != CXType_LValueReference && pt.kind != CXType_RValueReference)
            return KC_CUDA_EV_LOAD;
        /* in a template, an argument of dependent type: a struct where the
         * parameter names a class template's specialization
         * (`const EwaldParameters<T1, T2> &`), not a `const T &` */
        CXType pe = clang_getCanonicalType(clang_getNonReferenceType(pt));
        return record || kc_cuda_ty_is_record(pe) || clang_Type_getNumTemplateArguments(pe) > 0 ? KC_CUDA_EV_ADDR
                                                                                                 : KC_CUDA_EV_LOAD;
    }
    return KC_CUDA_EV_LOAD;
}

const kc_index *kc_cuda_call_result(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na,
                                    kc_deps d, uint8_t bits)
{
    const kc_index *r = kc_cuda_ix_opaque(w, e, d, bits);
    bool is_min = strcmp(name, "min") == 0 || strcmp(name, "umin") == 0 || strcmp(name, "llmin") == 0 ||
                  strcmp(name, "ullmin") == 0;
    int64_t c;
    if (is_min && na == 2 && r && r->nmono == 1 && r->mono[0].nfac == 1 && r->mono[0].coef == 1 &&
        r->mono[0].fac[0].kind == KC_ATOM_OPAQUE &&
        (kc_cuda_eval_int(args[0], &c) || kc_cuda_eval_int(args[1], &c))) {
        kc_opaque *o = &w->k->opaques.data[r->mono[0].fac[0].id];
        o->bounded = true;
        o->at_most = c;
    }
    return r;
}
