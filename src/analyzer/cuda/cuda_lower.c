/* cuda_lower.c — the top of the CUDA front end's lowering: from a libclang
 * translation unit to the kernel model. It finds the kernels, device
 * functions and launches of the main file, records what launches and calls
 * pass (template values, block sizes, local arrays), then hands each
 * function to the interpreter (cuda_walk.h) and the host code to
 * cuda_host.c. Cursors outside the main file are not lowered,
 * except device functions that main-file code calls (inlined by the
 * interpreter, with their accesses reported at the call).
 */
#include "cuda_lower.h"
#include "cuda_host.h"
#include "cuda_walk.h"
#include "kc_path.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- launches ------------------------------------------------------------ */

/* Finds the first reference to a function (the kernel) under `c`. */
static CXCursor find_function_ref(CXCursor c, unsigned depth)
{
    CXCursor none = clang_getNullCursor();
    if (depth > 16)
        return none;
    if (c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_OverloadedDeclRef) {
        CXCursor r = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(r) &&
            (r.kind == CXCursor_FunctionDecl || r.kind == CXCursor_FunctionTemplate))
            return r;
    }
    return kc_cuda_first_in_kids(c, find_function_ref, depth + 1);
}

/* The integral template arguments of a specialization, in order, into
 * targs (at most KC_MAX_TARGS); how many (0 when one is not integral). */
static uint8_t integral_targs(CXCursor spec, int64_t targs[KC_MAX_TARGS])
{
    int n = clang_Cursor_getNumTemplateArguments(spec);
    if (n <= 0 || n > KC_MAX_TARGS)
        return 0;
    for (int i = 0; i < n; i++) {
        if (clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i) != CXTemplateArgumentKind_Integral)
            return 0;
        targs[i] = clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i);
    }
    return (uint8_t)n;
}

static void record_template_args(kc_cuda_tu *t, CXCursor spec, uint32_t line, kc_launch *L)
{
    L->ntargs = integral_targs(spec, L->targs);
    int n = clang_Cursor_getNumTemplateArguments(spec);
    if (n <= 0)
        return;
    CXCursor tmpl = clang_getSpecializedCursorTemplate(spec);
    if (clang_Cursor_isNull(tmpl))
        return;
    for (int i = 0; i < n && i < 64; i++) {
        if (clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i) != CXTemplateArgumentKind_Integral)
            continue;
        kc_cuda_tval v = {.tmpl = tmpl, .param = (unsigned)i,
                     .value = clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i), .line = line};
        kc_vec_push(&t->tvals, v);
    }
}

/* Text without blanks, into buf (false when it does not fit). */
static bool unblank(const char *t, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; t && i < n && t[i]; i++)
        if (!isspace((unsigned char)t[i])) {
            if (o + 1 >= cap)
                return false;
            buf[o++] = t[i];
        }
    buf[o] = 0;
    return o > 0;
}

/* A launch in a template that clang leaves unresolved (`k<T, SB><<<g,
 * b>>>(x)` with `x` of a dependent type): the values of its template
 * arguments that are constants where the launch is written (`SB` a
 * constexpr local, `128`), by their position in the written list,
 * recorded for every function template the name may denote. */
static void record_dependent_targs(kc_cuda_tu *t, CXCursor callee_expr, uint32_t line)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(callee_expr, &k);
    CXCursor ovl = clang_getNullCursor();
    for (unsigned i = 0; i < k.n && clang_Cursor_isNull(ovl); i++)
        if (k.v[i].kind == CXCursor_OverloadedDeclRef)
            ovl = k.v[i];
    const char *text = clang_Cursor_isNull(ovl) ? NULL : kc_cuda_text(t, callee_expr);
    const char *lt = text ? strchr(text, '<') : NULL;
    for (unsigned pos = 0; lt && pos < 64; pos++) {
        const char *a = lt + 1, *e = a;
        int depth = 0;
        for (; *e && !(depth == 0 && (*e == ',' || *e == '>')); e++)
            depth += (*e == '<' || *e == '(' || *e == '[' || *e == '{') ? 1
                     : (*e == '>' || *e == ')' || *e == ']' || *e == '}') ? -1
                                                                         : 0;
        char want[128], have[128];
        int64_t v = 0;
        bool known = false;
        if (unblank(a, (size_t)(e - a), want, sizeof want)) {
            for (unsigned i = 0; i < k.n && !known; i++) {
                const char *kt = clang_isExpression(k.v[i].kind) ? kc_cuda_text(t, k.v[i]) : NULL;
                if (kt && unblank(kt, strlen(kt), have, sizeof have) && strcmp(have, want) == 0)
                    known = kc_cuda_eval_int(k.v[i], &v);
            }
            char *end;
            long long lit = strtoll(want, &end, 0);
            if (!known && end != want && (*end == 0 || strspn(end, "uUlL") == strlen(end)))
                known = true, v = lit;
        }
        for (unsigned d = 0; known && d < clang_getNumOverloadedDecls(ovl); d++) {
            CXCursor tmpl = clang_getOverloadedDecl(ovl, d);
            if (tmpl.kind != CXCursor_FunctionTemplate)
                continue;
            kc_cuda_tval tv = {.tmpl = tmpl, .param = pos, .value = v, .line = line};
            kc_vec_push(&t->tvals, tv);
        }
        if (*e != ',')
            break;
        lt = e;
    }
    kc_cuda_kids_free(&k);
}

/* Constant block sizes of a launch's block argument: an integer, a dim3
 * built from constants (dim3(32, 8), {4, 8, 1}), or a local dim3 variable
 * initialized so. */
/* Assignments to a dim3 variable after its declaration: `threads =
 * dim3(16, 16)` (the last one seen is kept in *rhs) and `threads.x = 16`
 * (members: the value is then not known from the source alone). */
enum { DIM3_MAX_WRITES = 16 };

typedef struct dim3_writes {
    CXCursor var;
    CXCursor rhs;
    unsigned whole, members;
    /* each whole assignment and its right-hand side (the first ones) */
    CXCursor at[DIM3_MAX_WRITES], value[DIM3_MAX_WRITES];
    CXCursor member_at[DIM3_MAX_WRITES]; /* the first member assignments */
} dim3_writes;

static void dim3_write(dim3_writes *w, CXCursor at, CXCursor rhs)
{
    if (w->whole < DIM3_MAX_WRITES) {
        w->at[w->whole] = at;
        w->value[w->whole] = rhs;
    }
    w->whole++;
    w->rhs = rhs;
}

/* Does the assignment `write` come before `use` in the text, in the same
 * block or one around it (no `}` between them closes the block it is in)?
 * Then, with no later such write, it is what the variable holds there. */
static bool reaches(CXCursor write, CXCursor use)
{
    CXFile fa = NULL, fb = NULL;
    unsigned oa = 0, ob = 0;
    clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(write)), &fa, NULL, NULL, &oa);
    clang_getSpellingLocation(clang_getCursorLocation(use), &fb, NULL, NULL, &ob);
    if (!fa || !fb || !clang_File_isEqual(fa, fb) || oa > ob)
        return false;
    size_t n = 0;
    const char *text = clang_getFileContents(clang_Cursor_getTranslationUnit(use), fa, &n);
    if (!text || ob > n)
        return false;
    int depth = 0;
    for (unsigned i = oa; i < ob; i++)
        if (text[i] == '{')
            depth++;
        else if (text[i] == '}' && --depth < 0)
            return false;
    return true;
}

static bool refers_to(CXCursor e, CXCursor var)
{
    e = kc_cuda_strip(e);
    return e.kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), var);
}

static enum CXChildVisitResult dim3_write_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    dim3_writes *w = data;
    if (c.kind == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 2) {
        CXString s = clang_getCursorSpelling(c);
        bool assign = clang_getCString(s) && strcmp(clang_getCString(s), "operator=") == 0;
        clang_disposeString(s);
        if (assign && refers_to(clang_Cursor_getArgument(c, 0), w->var))
            dim3_write(w, c, clang_Cursor_getArgument(c, 1));
    } else if (c.kind == CXCursor_BinaryOperator || c.kind == CXCursor_CompoundAssignOperator) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        CXCursor lhs = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        if (lhs.kind == CXCursor_MemberRefExpr) {
            kc_cuda_kids m;
            kc_cuda_kids_get(lhs, &m);
            if (m.n && refers_to(m.v[0], w->var)) {
                if (w->members < DIM3_MAX_WRITES)
                    w->member_at[w->members] = c;
                w->members++;
            }
            kc_cuda_kids_free(&m);
        } else if (c.kind == CXCursor_BinaryOperator && refers_to(lhs, w->var) && k.n == 2) {
            dim3_write(w, c, k.v[1]); /* a C-style struct assignment */
        }
        kc_cuda_kids_free(&k);
    }
    return CXChildVisit_Recurse;
}

/* Offsets of a cursor's extent in its file. */
static bool extent_of(CXCursor c, CXFile *f, unsigned *a, unsigned *b)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL;
    clang_getSpellingLocation(clang_getRangeStart(r), f, NULL, NULL, a);
    clang_getSpellingLocation(clang_getRangeEnd(r), &fb, NULL, NULL, b);
    return *f && fb && clang_File_isEqual(*f, fb) && *a <= *b;
}

static bool within(CXCursor c, CXFile f, unsigned a, unsigned b)
{
    CXFile fc;
    unsigned ca, cb;
    return extent_of(c, &fc, &ca, &cb) && clang_File_isEqual(fc, f) && ca >= a && cb <= b;
}

/* Are `write` and `use` in the two branches of one `if`/`else` that no
 * loop of the function holds (then no pass runs both)? */
typedef struct excl_search {
    CXCursor write, use;
    bool exclusive, in_loop;
    CXFile f;
    unsigned a, b; /* the `if` found, to test the loops against */
} excl_search;

static enum CXChildVisitResult excl_if_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    excl_search *x = data;
    if (c.kind != CXCursor_IfStmt || x->exclusive)
        return CXChildVisit_Recurse;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    if (k.n >= 3) {
        CXFile ft, fe;
        unsigned ta, tb, ea, eb;
        CXCursor th = k.v[k.n - 2], el = k.v[k.n - 1];
        if (extent_of(th, &ft, &ta, &tb) && extent_of(el, &fe, &ea, &eb) && tb <= ea &&
            ((within(x->write, ft, ta, tb) && within(x->use, fe, ea, eb)) ||
             (within(x->write, fe, ea, eb) && within(x->use, ft, ta, tb)))) {
            x->exclusive = extent_of(c, &x->f, &x->a, &x->b);
        }
    }
    kc_cuda_kids_free(&k);
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult excl_loop_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    excl_search *x = data;
    if ((c.kind == CXCursor_ForStmt || c.kind == CXCursor_WhileStmt || c.kind == CXCursor_DoStmt ||
         c.kind == CXCursor_CXXForRangeStmt)) {
        CXFile fl;
        unsigned la, lb;
        if (extent_of(c, &fl, &la, &lb) && clang_File_isEqual(fl, x->f) && la <= x->a && lb >= x->b) {
            x->in_loop = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static bool exclusive_branches(CXCursor fn, CXCursor write, CXCursor use)
{
    excl_search x = {write, use, false, false, NULL, 0, 0};
    clang_visitChildren(fn, excl_if_visit, &x);
    if (!x.exclusive)
        return false;
    clang_visitChildren(fn, excl_loop_visit, &x);
    return !x.in_loop;
}

/* What a dim3 variable holds where `use` reads it (a launch): the last
 * assignment before it in its block or one around it (`block = 128;`
 * just before the launch in its branch), else its initializer or the one
 * assignment that replaces it; *known false when members are assigned
 * (other than in the other branch of an if/else no loop holds), or when it
 * is assigned more than once and no assignment reaches `use` so. */
static CXCursor dim3_value(CXCursor d, CXCursor use, bool *known)
{
    CXCursor fn = clang_getCursorSemanticParent(d);
    dim3_writes w = {.var = d, .rhs = clang_getNullCursor()};
    if (fn.kind == CXCursor_FunctionDecl || fn.kind == CXCursor_CXXMethod || fn.kind == CXCursor_FunctionTemplate)
        clang_visitChildren(fn, dim3_write_visit, &w);
    /* a member assignment in the other branch of an if/else than the
     * launch (`grid.x = n / 4` before the vectorized launch, the plain
     * launch in the else) does not reach it */
    if (w.members && w.members <= DIM3_MAX_WRITES && !clang_Cursor_isNull(use)) {
        unsigned reaching = 0;
        for (unsigned i = 0; i < w.members; i++)
            reaching += !exclusive_branches(fn, w.member_at[i], use);
        w.members = reaching;
    }
    *known = !w.members && w.whole <= 1;
    if (!w.members && w.whole > 1 && w.whole <= DIM3_MAX_WRITES && !clang_Cursor_isNull(use)) {
        for (unsigned i = w.whole; i-- > 0;)
            if (reaches(w.at[i], use)) {
                *known = true;
                return w.value[i];
            }
    }
    return w.whole ? w.rhs : clang_Cursor_getVarDeclInitializer(d);
}

/* The operands of a dim3 built in place (`dim3(x, y)`, `{x, y, z}`), type
 * references left out: up to `max` of them into kids; how many there are. */
static unsigned dim3_operands(CXCursor e, CXCursor *kids, unsigned max)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    unsigned n = 0;
    for (unsigned i = 0; i < k.n; i++) {
        if (k.v[i].kind == CXCursor_TypeRef || k.v[i].kind == CXCursor_TemplateRef)
            continue;
        if (n < max)
            kids[n] = k.v[i];
        n++;
    }
    kc_cuda_kids_free(&k);
    return n;
}

static bool block_dims(CXCursor e, int64_t out[3], unsigned depth);

/* Is `e` a call of a function (`min(n, 512)`, `std::min(...)`), not a dim3
 * built in place? Its operands are not the dim3's axes. */
static bool calls_function(CXCursor e)
{
    if (e.kind != CXCursor_CallExpr)
        return false;
    CXString s = clang_getCursorSpelling(e);
    const char *c = clang_getCString(s);
    bool named = c && c[0], ctor = named && (strcmp(c, "dim3") == 0 || strcmp(c, "uint3") == 0);
    clang_disposeString(s);
    if (named)
        return !ctor;
    /* unresolved in a template: a call names the function it looks up first */
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    bool fn = k.n && (k.v[0].kind == CXCursor_OverloadedDeclRef || k.v[0].kind == CXCursor_DeclRefExpr);
    kc_cuda_kids_free(&k);
    return fn;
}

/* The block a dim3 variable holds where `use` reads it; unknown when
 * dim3_value does not know it. */
static bool var_block_dims(CXCursor d, CXCursor use, int64_t out[3], unsigned depth)
{
    bool known;
    CXCursor v = dim3_value(d, use, &known);
    return known && block_dims(v, out, depth + 1);
}

static bool block_dims(CXCursor e, int64_t out[3], unsigned depth)
{
    if (depth > 8 || clang_Cursor_isNull(e))
        return false;
    int64_t v;
    if (kc_cuda_eval_int(e, &v)) {
        out[0] = v;
        out[1] = out[2] = 1;
        return true;
    }
    switch (e.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        if (d.kind != CXCursor_VarDecl)
            return false;
        return var_block_dims(d, e, out, depth);
    }
    case CXCursor_CallExpr:
    case CXCursor_InitListExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        if (calls_function(e))
            return false; /* `min(n, 512)`: one value, not a constant */
        CXCursor kids[4];
        unsigned n = dim3_operands(e, kids, 4);
        bool ok = true;
        int64_t d[3] = {1, 1, 1};
        if (n >= 1 && n <= 3) {
            /* the sizes that are constants; -1 for the others */
            unsigned known = 0;
            for (unsigned i = 0; i < n; i++) {
                if (kc_cuda_eval_int(kids[i], &d[i]))
                    known++;
                else
                    d[i] = -1;
            }
            ok = known > 0 && (n > 1 || known == 1) &&
                 (known == n || e.kind == CXCursor_InitListExpr || (e.kind == CXCursor_CallExpr && n > 1));
            if (ok) {
                memcpy(out, d, sizeof d);
                return true;
            }
        }
        /* a copy of another dim3 */
        return n == 1 && block_dims(kids[0], out, depth + 1);
    }
    default:
        return false;
    }
}

/* ---- grid limits (KC602) ---- */

/* Is `e` a product of two or more operands that are not constants, with
 * nothing that clamps it (`min`, `MIN`, a division)? */
static bool runtime_product(kc_cuda_tu *t, CXCursor e, unsigned *nonconst, unsigned depth)
{
    e = kc_cuda_strip(e);
    if (depth > 8 || clang_Cursor_isNull(e))
        return false;
    int64_t v;
    if (kc_cuda_eval_int(e, &v))
        return true;
    if (e.kind == CXCursor_BinaryOperator && kc_cuda_binop_of(e) == CXBinaryOperator_Mul) {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        bool ok = k.n == 2 && runtime_product(t, k.v[0], nonconst, depth + 1) &&
                  runtime_product(t, k.v[1], nonconst, depth + 1);
        kc_cuda_kids_free(&k);
        return ok;
    }
    if (depth == 0)
        return false;
    const char *text = kc_cuda_text(t, e);
    if (!text || strstr(text, "min") || strstr(text, "MIN") || strchr(text, '/') || strchr(text, '%') ||
        strchr(text, '?'))
        return false;
    (*nonconst)++;
    return true;
}

static void grid_axis(kc_cuda_tu *t, CXCursor e, unsigned ax, kc_grid_axis *g)
{
    g->span = kc_cuda_span(t, e);
    g->text = kc_cuda_text(t, e);
    int64_t v;
    if (kc_cuda_eval_int(e, &v)) {
        g->hazard = KC_GRID_CONST;
        g->value = v;
        return;
    }
    unsigned n = 0;
    if (ax > 0 && runtime_product(t, e, &n, 0) && n >= 2) {
        g->hazard = KC_GRID_PRODUCT;
        g->why = kc_arena_printf(t->m->arena, "`%s` is a product of %u run-time values", g->text, n);
    }
}

/* The grid's axes at a launch: an integer, a dim3 built in place (dim3(x,
 * y), {x, y, z}) or a local dim3 variable initialized so and not written
 * again. */
static void grid_axes(kc_cuda_tu *t, CXCursor e, kc_grid_axis out[3], unsigned depth)
{
    if (depth > 8 || clang_Cursor_isNull(e))
        return;
    int64_t v;
    if (kc_cuda_eval_int(e, &v)) {
        grid_axis(t, e, 0, &out[0]);
        return;
    }
    switch (e.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        if (d.kind != CXCursor_VarDecl)
            return;
        bool known;
        CXCursor init = dim3_value(d, e, &known);
        if (!known)
            return;
        if (clang_Cursor_isNull(init)) {
            /* `dim3 g(x, y);`: the constructor call is the variable's child */
            kc_cuda_kids k;
            kc_cuda_kids_get(d, &k);
            for (unsigned i = 0; i < k.n; i++)
                if (k.v[i].kind == CXCursor_CallExpr)
                    init = k.v[i];
            kc_cuda_kids_free(&k);
        }
        grid_axes(t, init, out, depth + 1);
        return;
    }
    case CXCursor_CallExpr:
    case CXCursor_InitListExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        if (calls_function(e)) { /* `min(n, 65536)`: one value, the x axis */
            grid_axis(t, e, 0, &out[0]);
            return;
        }
        CXCursor kids[3];
        unsigned n = dim3_operands(e, kids, 3);
        if (n == 1 && e.kind != CXCursor_InitListExpr && e.kind != CXCursor_CallExpr) {
            grid_axes(t, kids[0], out, depth + 1); /* a copy of another dim3 */
            return;
        }
        if (n == 1 && e.kind == CXCursor_CallExpr) {
            /* dim3(x) or a copy constructor: try the argument as a dim3 first */
            kc_grid_axis inner[3];
            memset(inner, 0, sizeof inner);
            grid_axes(t, kids[0], inner, depth + 1);
            if (inner[1].text || inner[2].text) {
                memcpy(out, inner, sizeof inner);
                return;
            }
        }
        for (unsigned i = 0; i < n && i < 3; i++)
            grid_axis(t, kids[i], i, &out[i]);
        return;
    }
    default:
        return;
    }
}

static const char *callee_name(kc_cuda_tu *t, CXCursor first);

/* The kernel a launch names when clang did not resolve it (a launch in a
 * template, `k<T, 4><<<g, b>>>(x)`): the callee's name, else the text
 * before `<<<` without its template arguments. */
static const char *launch_name(kc_cuda_tu *t, CXCursor call, const kc_cuda_kids *k)
{
    for (unsigned i = 0; i < k->n; i++) {
        if (kc_cuda_is_config_call(k->v[i]))
            continue;
        const char *n = callee_name(t, k->v[i]);
        if (n[0])
            return n;
        break;
    }
    const char *text = kc_cuda_text(t, call);
    const char *lt = text ? strstr(text, "<<<") : NULL;
    if (!lt)
        return "";
    size_t n = (size_t)(lt - text);
    /* strip `<...>` template arguments and white space at the end */
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n'))
        n--;
    if (n > 0 && text[n - 1] == '>') {
        int depth = 0;
        size_t i = n;
        while (i > 0) {
            char ch = text[--i];
            depth += ch == '>' ? 1 : ch == '<' ? -1 : 0;
            if (depth == 0)
                break;
        }
        n = i;
    }
    size_t b = n;
    while (b > 0 && (isalnum((unsigned char)text[b - 1]) || text[b - 1] == '_' || text[b - 1] == ':'))
        b--;
    return n > b ? kc_arena_strndup(t->m->arena, text + b, n - b) : "";
}

/* ---- launch arguments that are multiples of the block (KC401) ---- */

/* A product as its factors: variables and parameters it cannot see into,
 * the product of its constants, and how many factors are neither. */
#define MF_MAX 16
typedef struct mfactors {
    CXCursor decl[MF_MAX];
    unsigned nd, opaque;
    int64_t cst;
} mfactors;

/* The variable an assignment, an increment or an address-of writes. */
static enum CXChildVisitResult var_write_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    kc_cuda_fnwrites *w = data;
    kc_cuda_kids k;
    CXCursor target = clang_getNullCursor();
    if (c.kind == CXCursor_BinaryOperator || c.kind == CXCursor_CompoundAssignOperator) {
        bool assign = c.kind == CXCursor_CompoundAssignOperator ||
                      clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign;
        kc_cuda_kids_get(c, &k);
        if (assign && k.n)
            target = kc_cuda_strip(k.v[0]);
        kc_cuda_kids_free(&k);
    } else if (c.kind == CXCursor_UnaryOperator) {
        /* ++, --, and an address taken (a write through it is not seen) */
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        kc_cuda_kids_get(c, &k);
        if (op != CXUnaryOperator_Plus && op != CXUnaryOperator_Minus && op != CXUnaryOperator_Not &&
            op != CXUnaryOperator_LNot && op != CXUnaryOperator_Deref && k.n)
            target = kc_cuda_strip(k.v[0]);
        kc_cuda_kids_free(&k);
    }
    if (target.kind == CXCursor_DeclRefExpr) {
        CXCursor v = clang_getCursorReferenced(target);
        if (!clang_Cursor_isNull(v))
            kc_vec_push(&w->written, v);
    }
    return CXChildVisit_Recurse;
}

/* Does some statement of `fn` write `var`? One walk per function. */
static bool written_in(kc_cuda_tu *t, CXCursor fn, CXCursor var)
{
    kc_cuda_fnwrites *e = NULL;
    for (uint32_t i = 0; i < t->fnwrites.len && !e; i++)
        if (clang_equalCursors(t->fnwrites.data[i].fn, fn))
            e = &t->fnwrites.data[i];
    if (!e) {
        kc_cuda_fnwrites w = {.fn = fn};
        clang_visitChildren(fn, var_write_visit, &w);
        kc_vec_push(&t->fnwrites, w);
        e = &t->fnwrites.data[t->fnwrites.len - 1];
    }
    for (uint32_t i = 0; i < e->written.len; i++)
        if (clang_equalCursors(e->written.data[i], var))
            return true;
    return false;
}

/* The initializer of a local variable that nothing else writes, or a null
 * cursor. */
static CXCursor fixed_value(kc_cuda_tu *t, CXCursor d)
{
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    CXCursor fn = clang_getCursorSemanticParent(d);
    if (clang_Cursor_isNull(init) ||
        (fn.kind != CXCursor_FunctionDecl && fn.kind != CXCursor_CXXMethod && fn.kind != CXCursor_FunctionTemplate))
        return clang_getNullCursor();
    return written_in(t, fn, d) ? clang_getNullCursor() : init;
}

/* The value of a launch argument: a constant, or a local variable of the
 * launching function initialized with one and not written again (`int
 * cols = 64;` in `main`), followed through such variables. */
static bool arg_value(kc_cuda_tu *t, CXCursor e, int64_t *v, unsigned depth)
{
    if (kc_cuda_eval_int(e, v))
        return true;
    e = kc_cuda_strip(e);
    if (depth > 4 || e.kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(e);
    if (d.kind != CXCursor_VarDecl || !kc_cuda_ty_is_int(clang_getCursorType(d)))
        return false;
    CXCursor init = fixed_value(t, d);
    return !clang_Cursor_isNull(init) && arg_value(t, init, v, depth + 1);
}

static void factors_of(kc_cuda_tu *t, CXCursor e, mfactors *f, unsigned depth)
{
    e = kc_cuda_strip(e);
    int64_t v;
    if (depth > 12 || clang_Cursor_isNull(e)) {
        f->opaque++;
        return;
    }
    if (kc_cuda_eval_int(e, &v)) {
        if (__builtin_mul_overflow(f->cst, v, &f->cst)) {
            f->opaque++;
            f->cst = 1;
        }
        return;
    }
    kc_cuda_kids k;
    if ((e.kind == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Mul) ||
        e.kind == CXCursor_CStyleCastExpr || e.kind == CXCursor_CXXStaticCastExpr ||
        e.kind == CXCursor_CXXFunctionalCastExpr) {
        kc_cuda_kids_get(e, &k);
        unsigned first = e.kind == CXCursor_BinaryOperator ? 0 : k.n ? k.n - 1 : 0;
        if (e.kind != CXCursor_BinaryOperator || k.n == 2)
            for (unsigned i = first; i < k.n; i++)
                factors_of(t, k.v[i], f, depth + 1);
        else
            f->opaque++;
        kc_cuda_kids_free(&k);
        return;
    }
    CXCursor d = e.kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e) : clang_getNullCursor();
    if (d.kind == CXCursor_VarDecl) {
        CXCursor init = fixed_value(t, d);
        mfactors g = {.cst = 1};
        if (!clang_Cursor_isNull(init))
            factors_of(t, init, &g, depth + 1);
        if (!clang_Cursor_isNull(init) && !g.opaque && f->nd + g.nd <= MF_MAX &&
            !__builtin_mul_overflow(f->cst, g.cst, &v)) {
            memcpy(f->decl + f->nd, g.decl, g.nd * sizeof *g.decl);
            f->nd += g.nd;
            f->cst = v;
            return;
        }
    }
    if ((d.kind == CXCursor_VarDecl || d.kind == CXCursor_ParmDecl) && f->nd < MF_MAX)
        f->decl[f->nd++] = d;
    else
        f->opaque++;
}

/* The block's x size as an expression: the block argument itself, or the
 * first operand of the dim3 it builds or a dim3 variable holds. */
static CXCursor block_x(CXCursor e, unsigned depth)
{
    CXCursor s = kc_cuda_strip(e);
    if (depth > 8 || kc_cuda_ty_is_int(clang_getCursorType(s)))
        return s;
    if (s.kind == CXCursor_DeclRefExpr && clang_getCursorReferenced(s).kind == CXCursor_VarDecl) {
        bool known;
        CXCursor v = dim3_value(clang_getCursorReferenced(s), s, &known);
        return known && !clang_Cursor_isNull(v) ? block_x(v, depth + 1) : clang_getNullCursor();
    }
    CXCursor kids[4];
    unsigned n = dim3_operands(s, kids, 4);
    return n >= 1 && n <= 3 ? block_x(kids[0], depth + 1) : clang_getNullCursor();
}

/* Is `arg` a product with the block's x size among its factors? */
static bool block_multiple(kc_cuda_tu *t, const mfactors *blk, CXCursor arg)
{
    if (blk->opaque || (!blk->nd && blk->cst <= 1))
        return false;
    mfactors a = {.cst = 1};
    factors_of(t, arg, &a, 0);
    bool used[MF_MAX] = {false};
    for (unsigned i = 0; i < blk->nd; i++) {
        bool found = false;
        for (unsigned j = 0; j < a.nd && !found; j++)
            if (!used[j] && clang_equalCursors(a.decl[j], blk->decl[i]))
                found = used[j] = true;
        if (!found)
            return false;
    }
    return blk->cst != 0 && a.cst % blk->cst == 0;
}

/* A block's x size that is one of a variable value and a constant: `v >
 * K ? K : v` (a MIN macro), `min(v, K)`, also through a local written only
 * by its initializer. *var is the arm that is not a constant, *cap K. */
static bool capped_block(kc_cuda_tu *t, CXCursor e, CXCursor *var, int64_t *cap, unsigned depth)
{
    e = kc_cuda_strip(e);
    if (depth > 4 || clang_Cursor_isNull(e))
        return false;
    if (e.kind == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(e);
        CXCursor init = d.kind == CXCursor_VarDecl ? fixed_value(t, d) : clang_getNullCursor();
        return !clang_Cursor_isNull(init) && capped_block(t, init, var, cap, depth + 1);
    }
    CXCursor a = clang_getNullCursor(), b = clang_getNullCursor();
    if (e.kind == CXCursor_ConditionalOperator) {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        if (k.n == 3) {
            a = k.v[1];
            b = k.v[2];
        }
        kc_cuda_kids_free(&k);
    } else if (e.kind == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 2) {
        CXString n = clang_getCursorSpelling(e);
        const char *name = clang_getCString(n);
        bool is_min = name && (strcmp(name, "min") == 0 || strcmp(name, "umin") == 0);
        clang_disposeString(n);
        if (is_min) {
            a = clang_Cursor_getArgument(e, 0);
            b = clang_Cursor_getArgument(e, 1);
        }
    }
    if (clang_Cursor_isNull(a) || clang_Cursor_isNull(b))
        return false;
    int64_t va, vb;
    bool ca = kc_cuda_eval_int(a, &va), cb = kc_cuda_eval_int(b, &vb);
    if (ca == cb || (ca ? va : vb) <= 0)
        return false;
    *var = ca ? b : a;
    *cap = ca ? va : vb;
    return true;
}

/* Records a launch `kernel<<<...>>>(...)` (a CallExpr with an execution
 * configuration) or a cudaLaunchKernel call; false when `call` is
 * neither. */
static bool record_launch(kc_cuda_tu *t, CXCursor call)
{
    if (call.kind != CXCursor_CallExpr)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor config = clang_getNullCursor();
    for (unsigned i = 0; i < k.n; i++)
        if (kc_cuda_is_config_call(k.v[i])) {
            config = k.v[i];
            break;
        }
    CXCursor callee = clang_getCursorReferenced(call);
    kc_arena *ar = t->m->arena;
    kc_launch L = {0};
    L.span = kc_cuda_span(t, call);
    if (!clang_Cursor_isNull(config)) {
        /* kernel<<<grid, block, smem, stream>>>(args) */
        L.kernel = clang_Cursor_isNull(callee) ? kc_cuda_spelling(t, call) : kc_cuda_spelling(t, callee);
        if (!L.kernel || !L.kernel[0])
            L.kernel = launch_name(t, call, &k);
        int nc = clang_Cursor_getNumArguments(config);
        if (nc >= 1)
            L.grid_text = kc_cuda_text(t, clang_Cursor_getArgument(config, 0));
        if (nc >= 2)
            L.block_text = kc_cuda_text(t, clang_Cursor_getArgument(config, 1));
        if (nc < 2 || !block_dims(clang_Cursor_getArgument(config, 1), L.block_dim, 0))
            L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
        if (nc >= 1)
            grid_axes(t, clang_Cursor_getArgument(config, 0), L.grid, 0);
        if (nc >= 2)
            L.block_span = kc_cuda_span(t, clang_Cursor_getArgument(config, 1));
        int na = clang_Cursor_getNumArguments(call);
        int np = clang_Cursor_isNull(callee) ? -1 : clang_Cursor_getNumArguments(callee);
        mfactors blk = {.cst = 1, .opaque = 1}, capped = {.cst = 1, .opaque = 1};
        int64_t cap = 0;
        const char *cap_var = NULL;
        if (nc >= 2) {
            CXCursor bx = block_x(clang_Cursor_getArgument(config, 1), 0);
            blk.opaque = clang_Cursor_isNull(bx) ? 1 : 0;
            if (!clang_Cursor_isNull(bx))
                factors_of(t, bx, &blk, 0);
            CXCursor v;
            if (!clang_Cursor_isNull(bx) && capped_block(t, bx, &v, &cap, 0)) {
                capped.opaque = 0;
                factors_of(t, v, &capped, 0);
                cap_var = kc_cuda_text(t, v);
            }
        }
        for (int i = 0; i < na; i++) {
            CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
            kc_launch_arg a = {0};
            a.text = kc_cuda_text(t, arg);
            if (i < np)
                a.param = kc_cuda_spelling(t, clang_Cursor_getArgument(callee, (unsigned)i));
            if (a.param && !a.param[0])
                a.param = NULL;
            a.has_value = arg_value(t, arg, &a.value, 0);
            a.block_multiple = block_multiple(t, &blk, arg);
            if (!a.block_multiple && cap && block_multiple(t, &capped, arg)) {
                a.block_cap = cap;
                a.block_var = cap_var;
            }
            kc_vec_push(&L.args, a);
        }
        if (!clang_Cursor_isNull(callee))
            record_template_args(t, callee, L.span.line, &L);
        else
            for (unsigned i = 0; i < k.n; i++)
                if (!kc_cuda_is_config_call(k.v[i])) {
                    record_dependent_targs(t, k.v[i], L.span.line);
                    break;
                }
    } else {
        /* cudaLaunchKernel((void *)kernel, grid, block, args, smem, stream) */
        const char *name = clang_Cursor_isNull(callee) ? "" : kc_cuda_spelling(t, callee);
        if (strcmp(name, "cudaLaunchKernel") != 0 && strcmp(name, "cudaLaunchCooperativeKernel") != 0 &&
            strcmp(name, "cudaLaunchKernelEx") != 0) {
            kc_cuda_kids_free(&k);
            return false;
        }
        int na = clang_Cursor_getNumArguments(call);
        bool ex = strcmp(name, "cudaLaunchKernelEx") == 0;
        CXCursor fnref = clang_getNullCursor();
        if (na >= (ex ? 2 : 1))
            fnref = find_function_ref(clang_Cursor_getArgument(call, ex ? 1 : 0), 0);
        L.kernel = clang_Cursor_isNull(fnref) ? kc_arena_strdup(ar, "?") : kc_cuda_spelling(t, fnref);
        L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
        if (!ex && na >= 3) {
            L.grid_text = kc_cuda_text(t, clang_Cursor_getArgument(call, 1));
            L.block_text = kc_cuda_text(t, clang_Cursor_getArgument(call, 2));
            if (!block_dims(clang_Cursor_getArgument(call, 2), L.block_dim, 0))
                L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
            grid_axes(t, clang_Cursor_getArgument(call, 1), L.grid, 0);
            L.block_span = kc_cuda_span(t, clang_Cursor_getArgument(call, 2));
        }
        if (!clang_Cursor_isNull(fnref) && fnref.kind == CXCursor_FunctionDecl)
            record_template_args(t, fnref, L.span.line, &L);
    }
    kc_cuda_kids_free(&k);
    /* one launch, one record (a launch in a template can be met twice) */
    for (uint32_t i = 0; i < t->m->launches.len; i++) {
        kc_launch *o = &t->m->launches.data[i];
        if (kc_span_same(o->span, L.span)) {
            if ((!o->kernel || !o->kernel[0]) && L.kernel && L.kernel[0])
                o->kernel = L.kernel;
            kc_vec_free(&L.args);
            return true;
        }
    }
    kc_vec_push(&t->m->launches, L);
    return true;
}

typedef struct launch_scan {
    kc_cuda_tu *t;
} launch_scan;

/* The variable an argument passes the address of (`buf`, `&buf[i]`,
 * `buf + i`, through casts and parentheses), or a null cursor. */
static CXCursor address_of_var(CXCursor e, unsigned depth)
{
    if (depth > 16)
        return clang_getNullCursor();
    switch (e.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        return d.kind == CXCursor_VarDecl ? d : clang_getNullCursor();
    }
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
    case CXCursor_BinaryOperator: {
        if (e.kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf)
            return clang_getNullCursor();
        if (e.kind == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Add &&
            clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Sub)
            return clang_getNullCursor();
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        CXCursor r = clang_getNullCursor();
        /* the pointer operand: the last child of a cast (after its type),
         * the first of a subscript or a sum whose first operand is the
         * pointer */
        if (k.n) {
            CXCursor x = e.kind == CXCursor_CStyleCastExpr || e.kind == CXCursor_CXXStaticCastExpr ||
                                 e.kind == CXCursor_CXXReinterpretCastExpr || e.kind == CXCursor_CXXConstCastExpr
                             ? k.v[k.n - 1]
                             : k.v[0];
            if (e.kind == CXCursor_BinaryOperator && k.n == 2 &&
                !kc_cuda_ty_is_ptr(clang_getCursorType(x)) && !kc_cuda_ty_is_array(clang_getCursorType(x)))
                x = k.v[1];
            r = address_of_var(x, depth + 1);
        }
        kc_cuda_kids_free(&k);
        return r;
    }
    default:
        return clang_getNullCursor();
    }
}

/* The `__shared__` array a pointer argument points into: the array itself
 * (`tile`, `&tile[i]`), or a local pointer set once from one
 * (`indexT *idx = reinterpret_cast<indexT *>(smem);`); else null. */
static CXCursor shared_target(kc_cuda_tu *t, CXCursor v, unsigned depth)
{
    if (clang_Cursor_isNull(v) || depth > 4)
        return clang_getNullCursor();
    if (kc_cuda_decl_space(v, KC_MEM_LOCAL) == KC_MEM_SHARED)
        return v;
    if (!kc_cuda_ty_is_ptr(clang_getCursorType(v)) && clang_getCursorType(v).kind != CXType_Dependent)
        return clang_getNullCursor();
    CXCursor init = fixed_value(t, v);
    return clang_Cursor_isNull(init) ? init : shared_target(t, address_of_var(init, 0), depth + 1);
}

static void record_args(kc_cuda_tu *t, const char *name, const CXCursor *args, unsigned na)
{
    for (unsigned i = 0; i < na && i < 64; i++) {
        CXCursor v = address_of_var(args[i], 0);
        bool local = !clang_Cursor_isNull(v) && kc_cuda_ty_is_array(clang_getCursorType(v)) &&
                     kc_cuda_decl_space(v, KC_MEM_LOCAL) == KC_MEM_LOCAL &&
                     clang_getCursorSemanticParent(v).kind != CXCursor_TranslationUnit &&
                     clang_getCursorSemanticParent(v).kind != CXCursor_Namespace &&
                     clang_Cursor_getStorageClass(v) != CX_SC_Static && clang_Cursor_getStorageClass(v) != CX_SC_Extern;
        bool shared = !local && !clang_Cursor_isNull(shared_target(t, v, 0));
        kc_vec_push(&t->argspaces, ((kc_cuda_argspace){name, i, local, shared}));
    }
}

/* The name of the function a call expression's first child refers to
 * (`f`, or an unresolved overload set), or "". */
static const char *callee_name(kc_cuda_tu *t, CXCursor first)
{
    CXCursor c = kc_cuda_strip(first);
    if (c.kind == CXCursor_DeclRefExpr) {
        CXCursor target = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(target) && target.kind != CXCursor_FunctionDecl &&
            target.kind != CXCursor_FunctionTemplate && target.kind != CXCursor_OverloadedDeclRef)
            return "";
        const char *name = kc_cuda_spelling(t, c);
        if (name[0])
            return name;
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        /* `f<A, B>(...)` in a template: the overload set, then the
         * template arguments */
        if (k.n >= 1 && k.v[0].kind == CXCursor_OverloadedDeclRef)
            name = kc_cuda_spelling(t, k.v[0]);
        kc_cuda_kids_free(&k);
        return name;
    }
    return c.kind == CXCursor_OverloadedDeclRef ? kc_cuda_spelling(t, c) : "";
}

/* Records what a call passes to each argument (kc_cuda_param_space): a
 * call clang resolved, or one it could not (an unresolved overload set, or
 * a recovery expression whose first child names the callee, when an
 * argument's type is unknown). */
static void record_call_args(kc_cuda_tu *t, CXCursor call)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor callee = call.kind == CXCursor_CallExpr ? clang_getCursorReferenced(call) : clang_getNullCursor();
    const char *name = !clang_Cursor_isNull(callee) ? kc_cuda_spelling(t, callee)
                       : k.n > 1                    ? callee_name(t, k.v[0])
                                                    : "";
    if (name[0] && call.kind == CXCursor_CallExpr && !clang_Cursor_isNull(callee)) {
        int na = clang_Cursor_getNumArguments(call);
        CXCursor args[64];
        unsigned n = na < 0 ? 0 : na < 64 ? (unsigned)na : 64;
        for (unsigned i = 0; i < n; i++)
            args[i] = clang_Cursor_getArgument(call, i);
        record_args(t, name, args, n);
    } else if (name[0]) {
        record_args(t, name, k.v + 1, k.n - 1);
    }
    kc_cuda_kids_free(&k);
}

static enum CXChildVisitResult launch_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    launch_scan *ls = data;
    if (clang_isDeclaration(c.kind) && !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (c.kind == CXCursor_CallExpr && record_launch(ls->t, c))
        return CXChildVisit_Continue; /* arguments hold no further launches */
    if (c.kind == CXCursor_CallExpr || c.kind == CXCursor_UnexposedExpr)
        record_call_args(ls->t, c);
    return CXChildVisit_Recurse;
}

/* ---- kernels and device functions --------------------------------------- */

typedef struct fn_list {
    KC_VEC(CXCursor) fns;
    unsigned depth;
} fn_list;

/* Function definitions of the main file, in file order (namespaces and
 * extern "C" blocks included); member functions of classes and class
 * templates too (device helpers: a kernel is never a member). */
static enum CXChildVisitResult fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fn_list *l = data;
    switch (c.kind) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_UnexposedDecl:
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
        if (l->depth < 32) {
            l->depth++;
            clang_visitChildren(c, fn_visit, l);
            l->depth--;
        }
        break;
    case CXCursor_CXXMethod:
        if (!kc_cuda_has_attr(c, CXCursor_CUDADeviceAttr))
            break;
        /* fall through */
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
        if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) && clang_isCursorDefinition(c))
            kc_vec_push(&l->fns, c);
        break;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

/* A `__global__` template defined in a source file (not a header) whose
 * name occurs nowhere else in the file's tokens: no launch, no explicit
 * instantiation, no pointer taken, not even in a macro's definition. No
 * other file can instantiate it, so nvcc compiles no code for it (a
 * kernel whose only launch was commented out, one left behind by a
 * refactoring): its findings would be about code that never runs. */
static bool unused_template(kc_cuda_tu *t, CXCursor fn, const char *name)
{
    if (fn.kind != CXCursor_FunctionTemplate || !name[0] || !t->src || !t->src->path)
        return false;
    if (!kc_path_is_cuda_source(t->src->path))
        return false; /* a header: its includers instantiate it */
    kc_cuda_toks tk;
    kc_cuda_main_toks(t, 0, t->src->len, &tk);
    unsigned uses = 0;
    for (unsigned i = 0; i < tk.n && uses < 2; i++)
        uses += kc_cuda_tok_is(&tk, i, name);
    return uses == 1;
}

static void lower_functions(kc_cuda_tu *t)
{
    fn_list l = {0};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), fn_visit, &l);
    for (uint32_t i = 0; i < l.fns.len; i++) {
        CXCursor fn = l.fns.data[i];
        const char *name = kc_cuda_spelling(t, fn);
        if (kc_cuda_has_attr(fn, CXCursor_CUDAGlobalAttr) && unused_template(t, fn, name)) {
            kc_model_add_gap(t->m, KC_GAP_UNUSED, kc_cuda_span(t, fn), name, name);
        } else if (kc_cuda_has_attr(fn, CXCursor_CUDAGlobalAttr)) {
            kc_kernel *k = kc_model_add_kernel(t->m, name);
            k->ntargs = integral_targs(fn, k->targs);
            kc_cuda_lower_function(t, fn, k, false);
        } else if (kc_cuda_has_attr(fn, CXCursor_CUDADeviceAttr)) {
            /* Emitted only when it touches memory: lower into a scratch
             * model first (device functions are small). */
            kc_model *scratch = kc_model_new(t->src, KC_LANG_CUDA);
            kc_model *real = t->m;
            t->m = scratch;
            kc_kernel *k = kc_model_add_kernel(scratch, name);
            kc_cuda_lower_function(t, fn, k, true);
            bool keep = k->accesses.len > 0 || k->literals.len > 0 || k->accums.len > 0;
            for (uint32_t c = 0; c < k->calls.len && !keep; c++)
                keep = (k->calls.data[c].flags & (KC_CALL_DOUBLE_MATH | KC_CALL_LEGACY_SHFL)) != 0;
            t->m = real;
            kc_model_delete(scratch);
            if (keep) {
                k = kc_model_add_kernel(t->m, name);
                kc_cuda_lower_function(t, fn, k, true);
            }
        }
    }
    kc_vec_free(&l.fns);
}

void kc_cuda_lower_tu(CXTranslationUnit tu, const kc_source *src, kc_model *m, const kc_cuda_hole *holes,
                      uint32_t nholes)
{
    kc_cuda_tu t = {0};
    t.holes = holes;
    t.nholes = nholes;
    t.tu = tu;
    t.src = src;
    t.m = m;
    t.main = clang_getFile(tu, src->path);
    /* Launches first: template arguments seen at launch sites give values
     * to the kernels' template parameters. */
    launch_scan ls = {&t};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), launch_visit, &ls);
    kc_cuda_host_facts(&t);
    lower_functions(&t);
    kc_cuda_tu_free_toks(&t);
    kc_vec_free(&t.tvals);
    kc_vec_free(&t.argspaces);
    for (uint32_t i = 0; i < t.fnwrites.len; i++)
        kc_vec_free(&t.fnwrites.data[i].written);
    kc_vec_free(&t.fnwrites);
}
