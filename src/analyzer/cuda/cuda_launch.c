/* cuda_launch.c — what a launch's configuration and arguments are worth:
 * constant block sizes, grid axes, arguments that are multiples of the
 * block, and bounds over the host variables (cuda_launch.h). */
#include "cuda_launch.h"
#include "cuda_assert.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- block sizes --------------------------------------------------------- */

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
    CXCursor fn;
    bool scanned;
    struct excl_scan *branches; /* fn's if/else statements, once members need them */
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
        /* only an assignment writes: `block.x * 4` (a launch's shared
         * memory size) reads */
        bool assign = c.kind == CXCursor_CompoundAssignOperator ||
                      clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign;
        if (!assign) {
            /* nothing */
        } else if (lhs.kind == CXCursor_MemberRefExpr) {
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

/* The `if`/`else` statements of a function that no loop of it holds:
 * the extents of each one's two branches, in one file. */
typedef struct excl_if {
    CXFile f;
    unsigned ta, tb, ea, eb;
} excl_if;

typedef struct excl_scan {
    KC_VEC(excl_if) ifs;
    KC_VEC(excl_if) loops; /* (ta, tb: the loop's extent) */
} excl_scan;

static enum CXChildVisitResult excl_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    excl_scan *x = data;
    excl_if e = {0};
    if (c.kind == CXCursor_ForStmt || c.kind == CXCursor_WhileStmt || c.kind == CXCursor_DoStmt ||
        c.kind == CXCursor_CXXForRangeStmt) {
        if (extent_of(c, &e.f, &e.ta, &e.tb))
            kc_vec_push(&x->loops, e);
    } else if (c.kind == CXCursor_IfStmt) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        CXFile fe;
        if (k.n >= 3 && extent_of(k.v[k.n - 2], &e.f, &e.ta, &e.tb) && extent_of(k.v[k.n - 1], &fe, &e.ea, &e.eb) &&
            clang_File_isEqual(e.f, fe) && e.tb <= e.ea)
            kc_vec_push(&x->ifs, e);
        kc_cuda_kids_free(&k);
    }
    return CXChildVisit_Recurse;
}

/* Are `write` and `use` in the two branches of one `if`/`else` of the
 * function that no loop of it holds (then no pass runs both)? */
static bool exclusive_branches(const excl_scan *x, CXCursor write, CXCursor use)
{
    CXFile fw, fu;
    unsigned wa, wb, ua, ub;
    if (!extent_of(write, &fw, &wa, &wb) || !extent_of(use, &fu, &ua, &ub) || !clang_File_isEqual(fw, fu))
        return false;
    for (uint32_t i = 0; i < x->ifs.len; i++) {
        const excl_if *e = &x->ifs.data[i];
        if (!clang_File_isEqual(e->f, fw))
            continue;
        bool wt = wa >= e->ta && wb <= e->tb, we = wa >= e->ea && wb <= e->eb;
        bool ut = ua >= e->ta && ub <= e->tb, ue = ua >= e->ea && ub <= e->eb;
        if (!((wt && ue) || (we && ut)))
            continue;
        bool in_loop = false;
        for (uint32_t j = 0; j < x->loops.len && !in_loop; j++)
            in_loop = clang_File_isEqual(x->loops.data[j].f, e->f) && x->loops.data[j].ta <= e->ta &&
                      x->loops.data[j].tb >= e->eb;
        return !in_loop;
    }
    return false;
}

/* The assignments of dim3 variable d in its function fn, found in one
 * walk of fn and kept for the file's later launches (a dispatch macro
 * may expand to thousands of launches in one function). */
static dim3_writes *dim3_writes_of(kc_cuda_tu *t, CXCursor d, CXCursor fn)
{
    uint32_t known = kc_cuda_cmap_get(&t->dim3s_of, d);
    if (known != UINT32_MAX)
        return t->dim3s.data[known];
    dim3_writes *w = kc_xcalloc(1, sizeof *w);
    w->var = d;
    w->fn = fn;
    w->rhs = clang_getNullCursor();
    if (fn.kind == CXCursor_FunctionDecl || fn.kind == CXCursor_CXXMethod || fn.kind == CXCursor_FunctionTemplate)
        clang_visitChildren(fn, dim3_write_visit, w);
    kc_vec_push(&t->dim3s, (void *)w);
    kc_cuda_cmap_put(&t->dim3s_of, d, t->dim3s.len - 1);
    return w;
}

/* Frees what dim3_writes_of kept for the file. */
void kc_cuda_launch_cache_free(kc_cuda_tu *t)
{
    for (uint32_t i = 0; i < t->dim3s.len; i++) {
        dim3_writes *w = t->dim3s.data[i];
        if (w->branches) {
            kc_vec_free(&w->branches->ifs);
            kc_vec_free(&w->branches->loops);
            free(w->branches);
        }
        free(w);
    }
    kc_vec_free(&t->dim3s);
    kc_cuda_cmap_free(&t->dim3s_of);
    for (uint32_t i = 0; i < t->fnwrites.len; i++) {
        kc_cuda_fnwrites *w = &t->fnwrites.data[i];
        kc_vec_free(&w->written);
        kc_vec_free(&w->at);
        kc_vec_free(&w->top);
        kc_vec_free(&w->parent);
        free(w->by_var);
        free(w->var_hash);
    }
    kc_vec_free(&t->fnwrites);
    kc_cuda_cmap_free(&t->fnwrites_of);
}

/* What a dim3 variable holds where `use` reads it (a launch): the last
 * assignment before it in its block or one around it (`block = 128;`
 * just before the launch in its branch), else its initializer or the one
 * assignment that replaces it; *known false when members are assigned
 * (other than in the other branch of an if/else no loop holds), or when it
 * is assigned more than once and no assignment reaches `use` so. */
static CXCursor dim3_value(kc_cuda_tu *t, CXCursor d, CXCursor use, bool *known)
{
    dim3_writes *w = dim3_writes_of(t, d, clang_getCursorSemanticParent(d));
    /* a member assignment in the other branch of an if/else than the
     * launch (`grid.x = n / 4` before the vectorized launch, the plain
     * launch in the else) does not reach it */
    unsigned members = w->members;
    if (members && members <= DIM3_MAX_WRITES && !clang_Cursor_isNull(use)) {
        if (!w->branches) {
            w->branches = kc_xcalloc(1, sizeof *w->branches);
            clang_visitChildren(w->fn, excl_visit, w->branches);
        }
        members = 0;
        for (unsigned i = 0; i < w->members; i++)
            members += !exclusive_branches(w->branches, w->member_at[i], use);
    }
    *known = !members && w->whole <= 1;
    if (!members && w->whole > 1 && w->whole <= DIM3_MAX_WRITES && !clang_Cursor_isNull(use)) {
        for (unsigned i = w->whole; i-- > 0;)
            if (reaches(w->at[i], use)) {
                *known = true;
                return w->value[i];
            }
    }
    return w->whole ? w->rhs : clang_Cursor_getVarDeclInitializer(d);
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

static bool block_dims(kc_cuda_tu *t, CXCursor e, int64_t out[3], unsigned depth);
static bool arg_value(kc_cuda_tu *t, CXCursor e, int64_t *v, unsigned depth);

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
static bool var_block_dims(kc_cuda_tu *t, CXCursor d, CXCursor use, int64_t out[3], unsigned depth)
{
    bool known;
    CXCursor v = dim3_value(t, d, use, &known);
    return known && block_dims(t, v, out, depth + 1);
}

static bool block_dims(kc_cuda_tu *t, CXCursor e, int64_t out[3], unsigned depth)
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
        return var_block_dims(t, d, e, out, depth);
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
                if (arg_value(t, kids[i], &d[i], 0))
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
        return n == 1 && block_dims(t, kids[0], out, depth + 1);
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

static bool host_const(kc_cuda_tu *t, CXCursor e, int64_t *c, unsigned depth);

/* The two operands of a binary operator `op`, stripped; false when `e` is
 * not one. */
static bool binop(CXCursor e, enum CXBinaryOperatorKind op, CXCursor *l, CXCursor *r)
{
    e = kc_cuda_strip(e);
    if (e.kind != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(e) != op)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    bool two = k.n == 2;
    if (two) {
        *l = kc_cuda_strip(k.v[0]);
        *r = kc_cuda_strip(k.v[1]);
    }
    kc_cuda_kids_free(&k);
    return two;
}

/* A rounded-up division `(n - 1) / b + 1`, `(n + b - 1) / b` or `(n + (b -
 * 1)) / b` by a constant b: *n the size divided. */
static bool ceil_div(kc_cuda_tu *t, CXCursor e, CXCursor *n, int64_t *b)
{
    CXCursor l, r, x, y, u, v;
    int64_t c, d;
    if (binop(e, CXBinaryOperator_Add, &l, &r) && host_const(t, r, &c, 0) && c == 1 &&
        binop(l, CXBinaryOperator_Div, &x, &y) && host_const(t, y, b, 0) && *b > 0 &&
        binop(x, CXBinaryOperator_Sub, &u, &v) && host_const(t, v, &d, 0) && d == 1) {
        *n = u;
        return true;
    }
    if (!binop(e, CXBinaryOperator_Div, &l, &r) || !host_const(t, r, b, 0) || *b <= 0)
        return false;
    if (binop(l, CXBinaryOperator_Sub, &x, &y) && host_const(t, y, &c, 0) && c == 1 &&
        binop(x, CXBinaryOperator_Add, &u, &v) && host_const(t, v, &d, 0) && d == *b) {
        *n = u;
        return true;
    }
    if (binop(l, CXBinaryOperator_Add, &x, &y) && host_const(t, y, &c, 0) && c == *b - 1) {
        *n = x;
        return true;
    }
    return false;
}

static void grid_axis(kc_cuda_tu *t, CXCursor e, unsigned ax, kc_grid_axis *g)
{
    g->span = kc_cuda_span(t, e);
    g->text = kc_cuda_arg_text(t, e);
    int64_t v;
    CXCursor size;
    int64_t b, nv;
    if (ceil_div(t, e, &size, &b)) {
        /* rounded up: a partial last block, unless the size is a constant
         * that b divides (`(65536 - 1) / 32 + 1`) */
        bool exact = host_const(t, size, &nv, 0) && nv >= 0 && nv % b == 0;
        g->cover = exact ? KC_COVER_FLOOR : KC_COVER_ROUNDS_UP;
        g->cover_size = kc_cuda_text(t, size);
        g->cover_expr = g->text;
    }
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
        CXCursor init = dim3_value(t, d, e, &known);
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


/* ---- launch arguments that are multiples of the block (KC401) ---- */

#define MF_MAX KC_CUDA_MF_MAX
typedef kc_cuda_mfactors mfactors;

/* The variable an assignment, an increment or an address-of writes. */
static enum CXChildVisitResult var_write_visit(CXCursor c, CXCursor parent, CXClientData data)
{
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
    /* a member (`ctx->blocks = n`) counts as its field written */
    if (target.kind == CXCursor_DeclRefExpr || target.kind == CXCursor_MemberRefExpr) {
        CXCursor v = clang_getCursorReferenced(target);
        if (!clang_Cursor_isNull(v)) {
            kc_vec_push(&w->written, v);
            kc_vec_push(&w->at, c);
            kc_vec_push(&w->top, (uint8_t)clang_equalCursors(parent, w->body));
            kc_vec_push(&w->parent, parent);
        }
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind == CXCursor_CompoundStmt)
        *(CXCursor *)data = c;
    return CXChildVisit_Continue;
}

/* The writes of function fn, found in one walk. */
static const kc_cuda_fnwrites *fn_writes(kc_cuda_tu *t, CXCursor fn)
{
    uint32_t known = kc_cuda_cmap_get(&t->fnwrites_of, fn);
    if (known != UINT32_MAX)
        return &t->fnwrites.data[known];
    kc_cuda_fnwrites w = {.fn = fn, .body = clang_getNullCursor()};
    clang_visitChildren(fn, body_visit, &w.body);
    clang_visitChildren(fn, var_write_visit, &w);
    uint32_t n = w.written.len;
    kc_hash_index *h = kc_xcalloc(n ? n : 1, sizeof *h);
    for (uint32_t i = 0; i < n; i++)
        h[i] = (kc_hash_index){clang_hashCursor(w.written.data[i]), i};
    qsort(h, n, sizeof *h, kc_hash_index_cmp);
    w.by_var = kc_xcalloc(n ? n : 1, sizeof *w.by_var);
    w.var_hash = kc_xcalloc(n ? n : 1, sizeof *w.var_hash);
    for (uint32_t i = 0; i < n; i++) {
        w.by_var[i] = h[i].index;
        w.var_hash[i] = (unsigned)h[i].hash;
    }
    free(h);
    kc_vec_push(&t->fnwrites, w);
    kc_cuda_cmap_put(&t->fnwrites_of, fn, t->fnwrites.len - 1);
    return &t->fnwrites.data[t->fnwrites.len - 1];
}

/* The entries of e->by_var whose variable hashes as var does: [*lo, *hi)
 * (each still to be compared with clang_equalCursors). */
static void writes_of(const kc_cuda_fnwrites *e, CXCursor var, uint32_t *lo, uint32_t *hi)
{
    unsigned h = clang_hashCursor(var);
    uint32_t a = 0, b = e->written.len;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (e->var_hash[mid] < h)
            a = mid + 1;
        else
            b = mid;
    }
    *lo = a;
    while (a < e->written.len && e->var_hash[a] == h)
        a++;
    *hi = a;
}

/* Does some statement of `fn` write `var`? */
static bool written_in(kc_cuda_tu *t, CXCursor fn, CXCursor var)
{
    const kc_cuda_fnwrites *e = fn_writes(t, fn);
    uint32_t lo, hi;
    writes_of(e, var, &lo, &hi);
    for (uint32_t k = lo; k < hi; k++)
        if (clang_equalCursors(e->written.data[e->by_var[k]], var))
            return true;
    return false;
}

/* Is `var` written in `fn` only by statements of the body itself (in no
 * loop or branch) that all end before `use` (`threads =
 * round_up(threads);` at the top of the launching function)? Then every
 * read from `use` on sees one value. */
static bool settled_before(kc_cuda_tu *t, CXCursor fn, CXCursor var, CXCursor use)
{
    const kc_cuda_fnwrites *e = fn_writes(t, fn);
    unsigned at;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(use)), NULL, NULL, NULL, &at);
    uint32_t lo, hi;
    writes_of(e, var, &lo, &hi);
    for (uint32_t k = lo; k < hi; k++) {
        uint32_t i = e->by_var[k];
        if (!clang_equalCursors(e->written.data[i], var))
            continue;
        unsigned end;
        clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(e->at.data[i])), NULL, NULL, NULL, &end);
        if (!e->top.data[i] || end > at)
            return false;
    }
    return true;
}

CXCursor kc_cuda_fixed_value(kc_cuda_tu *t, CXCursor d)
{
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    CXCursor fn = clang_getCursorSemanticParent(d);
    if (fn.kind != CXCursor_FunctionDecl && fn.kind != CXCursor_CXXMethod && fn.kind != CXCursor_FunctionTemplate)
        return clang_getNullCursor();
    if (!clang_Cursor_isNull(init))
        return written_in(t, fn, d) ? clang_getNullCursor() : init;
    /* declared bare and assigned once, by a statement of the block that
     * declares it, after the declaration (`int divU; divU = 9;`): that
     * value, wherever the variable is read */
    const kc_cuda_fnwrites *e = fn_writes(t, fn);
    uint32_t n = 0, at = 0, lo, hi;
    writes_of(e, d, &lo, &hi);
    for (uint32_t k = lo; k < hi; k++)
        if (clang_equalCursors(e->written.data[e->by_var[k]], d))
            n++, at = e->by_var[k];
    if (n != 1)
        return clang_getNullCursor();
    CXCursor w = e->at.data[at], blk = e->parent.data[at];
    if (w.kind != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(w) != CXBinaryOperator_Assign ||
        blk.kind != CXCursor_CompoundStmt)
        return clang_getNullCursor();
    CXFile fb, fd, fw;
    unsigned ba, bb, da, wa;
    CXSourceRange r = clang_getCursorExtent(blk);
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ba);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &bb);
    clang_getExpansionLocation(clang_getCursorLocation(d), &fd, NULL, NULL, &da);
    clang_getExpansionLocation(clang_getCursorLocation(w), &fw, NULL, NULL, &wa);
    if (!fb || !fd || !fw || !clang_File_isEqual(fb, fd) || !clang_File_isEqual(fb, fw) || da < ba || da > bb ||
        wa < da)
        return clang_getNullCursor();
    kc_cuda_kids k;
    kc_cuda_kids_get(w, &k);
    CXCursor rhs = k.n == 2 ? k.v[1] : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    return rhs;
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
    CXCursor init = kc_cuda_fixed_value(t, d);
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
        CXCursor init = kc_cuda_fixed_value(t, d);
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

/* One axis of a launch's grid or block as an expression: the argument
 * itself for an integer (x; y and z are then 1: *one), else the operand of
 * the dim3 it builds or a dim3 variable holds (an operand left out is 1). */
static CXCursor dim3_axis(kc_cuda_tu *t, CXCursor e, unsigned ax, bool *one, unsigned depth)
{
    CXCursor s = kc_cuda_strip(e);
    *one = false;
    if (depth > 8)
        return clang_getNullCursor();
    if (kc_cuda_ty_is_int(clang_getCursorType(s))) {
        *one = ax > 0;
        return ax == 0 ? s : clang_getNullCursor();
    }
    if (s.kind == CXCursor_DeclRefExpr && clang_getCursorReferenced(s).kind == CXCursor_VarDecl) {
        bool known;
        CXCursor v = dim3_value(t, clang_getCursorReferenced(s), s, &known);
        return known && !clang_Cursor_isNull(v) ? dim3_axis(t, v, ax, one, depth + 1) : clang_getNullCursor();
    }
    CXCursor kids[4];
    unsigned n = dim3_operands(s, kids, 4);
    if (n < 1 || n > 3)
        return clang_getNullCursor();
    /* a copy of another dim3 (a dim3 passed by value) */
    if (n == 1 && !kc_cuda_ty_is_int(clang_getCursorType(kc_cuda_strip(kids[0]))))
        return dim3_axis(t, kids[0], ax, one, depth + 1);
    if (ax >= n) {
        *one = true;
        return clang_getNullCursor();
    }
    return dim3_axis(t, kids[ax], 0, one, depth + 1);
}

/* The block's x size as an expression. */
static CXCursor block_x(kc_cuda_tu *t, CXCursor e, unsigned depth)
{
    bool one;
    return dim3_axis(t, e, 0, &one, depth);
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
        CXCursor init = d.kind == CXCursor_VarDecl ? kc_cuda_fixed_value(t, d) : clang_getNullCursor();
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

/* ---- exported reads ------------------------------------------------------- */

bool kc_cuda_block_dims(kc_cuda_tu *t, CXCursor e, int64_t out[3]) { return block_dims(t, e, out, 0); }

void kc_cuda_grid_axes(kc_cuda_tu *t, CXCursor e, kc_grid_axis out[3]) { grid_axes(t, e, out, 0); }

void kc_cuda_block_arg_read(kc_cuda_tu *t, CXCursor block, kc_cuda_block_arg *b)
{
    memset(b, 0, sizeof *b);
    b->blk = (mfactors){.cst = 1, .opaque = 1};
    b->capped = (mfactors){.cst = 1, .opaque = 1};
    if (clang_Cursor_isNull(block))
        return;
    CXCursor bx = block_x(t, block, 0);
    if (clang_Cursor_isNull(bx))
        return;
    b->blk.opaque = 0;
    factors_of(t, bx, &b->blk, 0);
    CXCursor v;
    if (capped_block(t, bx, &v, &b->cap, 0)) {
        b->capped.opaque = 0;
        factors_of(t, v, &b->capped, 0);
        b->cap_var = kc_cuda_text(t, v);
    } else {
        b->cap = 0;
    }
}

/* ---- bounds over the host variables --------------------------------------- */

static const kc_bound no_bound = {NULL, 1};

/* The host atom of a variable or parameter, one per declaration. */
/* The host atom of declaration d (a variable or parameter), or, with d
 * null, of a member read spelled `text`: one atom each, interned in
 * kc_model.host_vars. */
static kc_bound host_atom_of(kc_cuda_tu *t, CXCursor d, const char *text)
{
    bool decl = !clang_Cursor_isNull(d);
    uint32_t id = KC_NONE;
    for (uint32_t i = 0; i < t->host_decls.len && id == KC_NONE; i++)
        if (decl ? clang_equalCursors(t->host_decls.data[i], d)
                 : clang_Cursor_isNull(t->host_decls.data[i]) && strcmp(t->m->host_vars.data[i], text) == 0)
            id = i;
    if (id == KC_NONE) {
        kc_vec_push(&t->host_decls, d);
        kc_vec_push(&t->m->host_vars, decl ? kc_cuda_spelling(t, d) : text);
        id = t->host_decls.len - 1;
    }
    kc_atom a = kc_atom_make(KC_ATOM_HOST, id, (kc_deps){0});
    return (kc_bound){kc_index_atom(t->m->arena, a, 64, KC_SPACE_THREADS, NULL), 1};
}

/* The host atom of a member read through a variable (`ctx->blocks`), one
 * per text, where neither the variable nor the member is written in
 * function fn; an unknown bound otherwise. */
static kc_bound member_atom(kc_cuda_tu *t, CXCursor e)
{
    CXCursor field = clang_getCursorReferenced(e);
    CXCursor base = e;
    for (unsigned depth = 0; base.kind == CXCursor_MemberRefExpr && depth < 4; depth++) {
        kc_cuda_kids k;
        kc_cuda_kids_get(base, &k);
        base = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
    }
    CXCursor d = base.kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(base) : clang_getNullCursor();
    CXCursor fn = clang_getCursorSemanticParent(d);
    if ((d.kind != CXCursor_VarDecl && d.kind != CXCursor_ParmDecl) || field.kind != CXCursor_FieldDecl ||
        (fn.kind != CXCursor_FunctionDecl && fn.kind != CXCursor_CXXMethod && fn.kind != CXCursor_FunctionTemplate) ||
        !settled_before(t, fn, d, e) || !settled_before(t, fn, field, e))
        return no_bound;
    const char *text = kc_cuda_text(t, e);
    return text ? host_atom_of(t, clang_getNullCursor(), text) : no_bound;
}

static kc_bound host_bound(kc_cuda_tu *t, CXCursor e, bool upper, unsigned depth);

/* Is `e` one constant: a constant, a local holding one, or an expression
 * whose bounds from above and below are the same constant (`block.x` of
 * `dim3 block(16, 16)`)? */
static bool host_const(kc_cuda_tu *t, CXCursor e, int64_t *c, unsigned depth)
{
    if (arg_value(t, e, c, 0))
        return true;
    /* the lower bound only where the upper one is a constant */
    kc_bound hi = host_bound(t, e, true, depth + 1);
    int64_t a, b;
    if (!kc_bound_known(hi) || hi.den != 1 || !kc_index_is_const(hi.num, &a))
        return false;
    kc_bound lo = host_bound(t, e, false, depth + 1);
    if (!kc_bound_known(lo) || lo.den != 1 || !kc_index_is_const(lo.num, &b) || a != b)
        return false;
    *c = a;
    return true;
}

/* A bound on the integer value of `e` from above (upper) or below, the
 * variables it is made of taken as non-negative: sums, differences,
 * products, division and shifts by constants (`floor(a / c)` lies in
 * [(a - c + 1) / c, a / c]), locals written only by their initializer. */
static kc_bound host_bound(kc_cuda_tu *t, CXCursor e, bool upper, unsigned depth)
{
    kc_arena *ar = t->m->arena;
    e = kc_cuda_strip(e);
    int64_t v;
    if (depth > 12 || clang_Cursor_isNull(e))
        return no_bound;
    if (kc_cuda_eval_int(e, &v))
        return kc_bound_const(ar, v);
    if (!kc_cuda_ty_is_int(clang_getCursorType(e)))
        return no_bound;
    if (e.kind == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(e);
        if (d.kind != CXCursor_VarDecl && d.kind != CXCursor_ParmDecl)
            return no_bound;
        CXCursor fn = clang_getCursorSemanticParent(d);
        bool local = fn.kind == CXCursor_FunctionDecl || fn.kind == CXCursor_CXXMethod ||
                     fn.kind == CXCursor_FunctionTemplate;
        /* one value for the whole function: an atom stands for the same
         * value wherever the launch's expressions read it */
        if (!local || !settled_before(t, fn, d, e))
            return no_bound;
        if (d.kind == CXCursor_VarDecl && !written_in(t, fn, d)) {
            CXCursor init = kc_cuda_fixed_value(t, d);
            if (clang_Cursor_isNull(init))
                return no_bound;
            kc_bound b = host_bound(t, init, upper, depth + 1);
            if (kc_bound_known(b))
                return b;
        }
        return host_atom_of(t, d, NULL);
    }
    if (e.kind == CXCursor_MemberRefExpr) {
        /* `block.x` of a dim3 variable: that axis of its value */
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        CXCursor base = k.n ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        const char *mem = kc_cuda_spelling(t, e);
        int ax = mem && mem[0] && !mem[1] && mem[0] >= 'x' && mem[0] <= 'z' ? mem[0] - 'x' : -1;
        if (ax >= 0 && base.kind == CXCursor_DeclRefExpr && !kc_cuda_ty_is_int(clang_getCursorType(base))) {
            bool one;
            CXCursor axis = dim3_axis(t, base, (unsigned)ax, &one, 0);
            if (one)
                return kc_bound_const(ar, 1);
            if (!clang_Cursor_isNull(axis)) {
                kc_bound b = host_bound(t, axis, upper, depth + 1);
                if (kc_bound_known(b))
                    return b;
            }
        }
        return member_atom(t, e);
    }
    if (e.kind == CXCursor_CStyleCastExpr || e.kind == CXCursor_CXXStaticCastExpr ||
        e.kind == CXCursor_CXXFunctionalCastExpr) {
        /* to an integer type at least as wide as the operand's */
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        CXCursor op = k.n ? k.v[k.n - 1] : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        CXType to = clang_getCursorType(e), from = clang_getCursorType(op);
        if (clang_Cursor_isNull(op) || !kc_cuda_ty_is_int(from) || clang_Type_getSizeOf(to) < clang_Type_getSizeOf(from))
            return no_bound;
        return host_bound(t, op, upper, depth + 1);
    }
    if (e.kind != CXCursor_BinaryOperator)
        return no_bound;
    kc_cuda_kids k;
    kc_cuda_kids_get(e, &k);
    CXCursor l = k.n == 2 ? k.v[0] : clang_getNullCursor(), r = k.n == 2 ? k.v[1] : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    if (clang_Cursor_isNull(l))
        return no_bound;
    int64_t c;
    bool rc = host_const(t, r, &c, depth);
    switch (clang_getCursorBinaryOperatorKind(e)) {
    case CXBinaryOperator_Add:
        return kc_bound_add(ar, host_bound(t, l, upper, depth + 1), host_bound(t, r, upper, depth + 1));
    case CXBinaryOperator_Sub:
        return kc_bound_sub(ar, host_bound(t, l, upper, depth + 1), host_bound(t, r, !upper, depth + 1));
    case CXBinaryOperator_Mul: {
        int64_t lcv;
        if (rc || host_const(t, l, &lcv, depth)) {
            int64_t f = rc ? c : lcv;
            return kc_bound_scale(ar, host_bound(t, rc ? l : r, f >= 0 ? upper : !upper, depth + 1), f);
        }
        kc_bound a = host_bound(t, l, upper, depth + 1), b = host_bound(t, r, upper, depth + 1);
        /* a lower bound of a product of non-negative values is the product
         * of their lower bounds only where those are non-negative too */
        if (!upper && (!kc_bound_nonneg(a) || !kc_bound_nonneg(b)))
            return no_bound;
        return kc_bound_mul(ar, a, b);
    }
    case CXBinaryOperator_Div:
    case CXBinaryOperator_Shr: {
        bool shr = clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Shr;
        if (!rc || (shr ? c < 0 || c > 30 : c <= 0))
            return no_bound;
        int64_t div = shr ? (int64_t)1 << c : c;
        kc_bound a = host_bound(t, l, upper, depth + 1);
        int64_t kv;
        if (kc_bound_known(a) && kc_index_is_const(a.num, &kv) && kv >= 0) {
            /* a constant bound: floor is monotone, so floor(k / d) */
            int64_t d;
            if (__builtin_mul_overflow(a.den, div, &d))
                return no_bound;
            return kc_bound_const(ar, kv / d);
        }
        if (!upper && kc_bound_known(a))
            a = kc_bound_sub(ar, a, kc_bound_const(ar, div - 1));
        return kc_bound_div(a, div);
    }
    case CXBinaryOperator_Shl:
        if (!rc || c < 0 || c > 30)
            return no_bound;
        return kc_bound_scale(ar, host_bound(t, l, upper, depth + 1), (int64_t)1 << c);
    default:
        return no_bound;
    }
}

void kc_cuda_launch_arg_facts(kc_cuda_tu *t, const kc_cuda_block_arg *b, CXCursor arg, kc_launch_arg *a)
{
    a->has_value = arg_value(t, arg, &a->value, 0);
    a->block_multiple = block_multiple(t, &b->blk, arg);
    if (!a->block_multiple && b->cap && block_multiple(t, &b->capped, arg)) {
        a->block_cap = b->cap;
        a->block_var = b->cap_var;
    }
    a->lo = host_bound(t, arg, false, 0);
    a->hi = host_bound(t, arg, true, 0);
}

void kc_cuda_launch_bounds(kc_cuda_tu *t, CXCursor grid, CXCursor block, kc_launch *L)
{
    for (unsigned ax = 0; ax < 3; ax++) {
        L->grid_hi[ax] = L->block_hi[ax] = no_bound;
        for (unsigned which = 0; which < 2; which++) {
            CXCursor arg = which ? block : grid;
            if (clang_Cursor_isNull(arg))
                continue;
            bool one;
            CXCursor e = dim3_axis(t, arg, ax, &one, 0);
            kc_bound b = one ? kc_bound_const(t->m->arena, 1)
                              : clang_Cursor_isNull(e) ? no_bound : host_bound(t, e, true, 0);
            if (which)
                L->block_hi[ax] = b;
            else
                L->grid_hi[ax] = b;
        }
    }
}

/* The divisibility the function asserts, before the launch, of the
 * variables the launch passes (kc_launch_arg.multiple_of). */
void kc_cuda_asserted_args(const kc_cuda_tu *t, CXCursor fn, kc_launch *L)
{
    const kc_source *src = t->src;
    uint32_t l, col, from;
    if (!kc_cuda_loc_in_main(t, clang_getRangeStart(clang_getCursorExtent(fn)), &l, &col, &from))
        return;
    size_t to = kc_source_offset(src, L->span.line, L->span.col);
    if (to <= from || to > src->len)
        return;
    for (uint32_t i = 0; i < L->args.len; i++) {
        kc_launch_arg *a = &L->args.data[i];
        bool plain = a->text && a->text[0] && !isdigit((unsigned char)a->text[0]);
        for (const char *s = a->text; plain && *s; s++)
            plain = isalnum((unsigned char)*s) || *s == '_';
        kc_cuda_multiple mu;
        if (!plain || !kc_cuda_asserted_multiple(src->text, from, to, a->text, t->m->arena, &mu))
            continue;
        uint32_t line, c;
        kc_source_position(src, mu.at, &line, &c);
        a->multiple_of = mu.divisor;
        a->multiple_value = mu.value;
        a->multiple_line = line;
    }
}
