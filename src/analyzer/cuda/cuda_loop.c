/* cuda_loop.c — loops of the CUDA interpreter. A loop is not iterated: a
 * syntactic pre-scan finds what it assigns, induction variables are bound
 * to start + step * pass (or to the loop atom itself when start and step
 * are uniform), everything else assigned in it to its entry value plus an
 * opaque atom that depends on the loop. */
#include "cuda_walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- loop pre-scan: what a loop assigns ------------------------------------------ */

/* A local variable assigned in a loop. */
typedef struct kc_cuda_upd {
    CXCursor decl;
    const char *name;
    unsigned nstep;
    CXCursor step[4];  /* null cursor: ++/-- */
    int8_t sign[4];
    bool nonaffine;    /* some assignment is not `v += invariant` once per pass */
    bool shrink;       /* the for increment does `v >>= c`, `v /= c`, `v = v >> c` or `v = v / c` */
    bool grow;         /* some assignment is anything else */
    bool body_step;    /* a step in the body (not the for increment) */
    bool by_inc;       /* the for increment assigns it */
    bool in_cond;      /* the loop condition reads it */
    kc_deps deps;      /* what its assignments read, and the conditions around them */
    uint64_t on;       /* bit j: its assignments read loop variable j */
    bool on_all;       /* reads a loop variable past the 64 tracked ones */
} kc_cuda_upd;

typedef struct kc_cuda_scan {
    kc_cuda_walk *w;
    KC_VEC(kc_cuda_upd) u;
    bool has_continue;
} kc_cuda_scan;

typedef struct scan_ctx {
    bool top;       /* runs exactly once per pass */
    bool in_inc;    /* inside the for increment */
    unsigned nest;  /* nested loops entered */
    kc_deps cdeps;  /* conditions around it */
    uint64_t con;
    unsigned depth;
} scan_ctx;

static bool pure_call(kc_cuda_walk *w, CXCursor call, kc_deps *d);

static int upd_index(kc_cuda_scan *sc, CXCursor decl, bool create)
{
    if (clang_Cursor_isNull(decl))
        return -1;
    for (uint32_t i = 0; i < sc->u.len; i++)
        if (clang_equalCursors(sc->u.data[i].decl, decl))
            return (int)i;
    if (!create)
        return -1;
    kc_cuda_bind *b = kc_cuda_env_find(sc->w->fn, decl);
    if (!b || b->in_memory)
        return -1;
    kc_cuda_upd u;
    memset(&u, 0, sizeof u);
    u.decl = decl;
    u.name = b->name;
    kc_vec_push(&sc->u, u);
    return (int)sc->u.len - 1;
}

static void upd_on(kc_cuda_scan *sc, uint64_t *on, bool *all, int j)
{
    (void)sc;
    if (j < 64)
        *on |= 1ull << j;
    else
        *all = true;
}

/* What an expression reads, syntactically: loop variables (as bits), other
 * variables (their current deps), thread indices, memory (DATA). */
static kc_deps sdeps(kc_cuda_scan *sc, CXCursor c, uint64_t *on, bool *all, bool *impure, unsigned depth)
{
    kc_deps d = {0};
    if (clang_Cursor_isNull(c) || depth > KC_CUDA_MAX_DEPTH || !kc_cuda_budget_ok(sc->w))
        return d;
    switch (c.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(c);
        int j = upd_index(sc, ref, false);
        if (j >= 0) {
            upd_on(sc, on, all, j);
            return d;
        }
        kc_cuda_bind *b = kc_cuda_env_find(sc->w->fn, ref);
        if (b) {
            d = b->val.ptr && b->val.off ? kc_index_deps(b->val.off) : b->val.deps;
            if (b->in_memory)
                d.flags |= KC_AF_DATA;
        }
        return d;
    }
    case CXCursor_MemberRefExpr: {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        if (k.n == 1) {
            CXCursor sb = kc_cuda_strip(k.v[0]);
            kc_cuda_bv_kind bv = KC_CUDA_BV_NONE;
            if (sb.kind == CXCursor_DeclRefExpr)
                bv = kc_cuda_builtin_var(clang_getCursorReferenced(sb));
            if (bv != KC_CUDA_BV_NONE) {
                kc_cuda_kids_free(&k);
                return kc_cuda_builtin_deps(bv, kc_cuda_member_component(sc->w, c));
            }
        }
        for (unsigned i = 0; i < k.n; i++)
            d = kc_cuda_deps_or(d, sdeps(sc, k.v[i], on, all, impure, depth + 1));
        kc_cuda_kids_free(&k);
        return d;
    }
    case CXCursor_LambdaExpr:
        return d;
    default:
        break;
    }
    bool op_call = c.kind == CXCursor_CallExpr && (kc_cuda_binop_of(c) != CXBinaryOperator_Invalid ||
                                                   kc_cuda_unop_of(c) != CXUnaryOperator_Invalid);
    bool memory = c.kind == CXCursor_ArraySubscriptExpr ||
                  (c.kind == CXCursor_CallExpr && !op_call && !pure_call(sc->w, c, &d)) ||
                  (!op_call && kc_cuda_unop_of(c) == CXUnaryOperator_Deref);
    if (memory)
        *impure = true;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        d = kc_cuda_deps_or(d, sdeps(sc, k.v[i], on, all, impure, depth + 1));
    kc_cuda_kids_free(&k);
    if (memory && c.kind != CXCursor_CallExpr)
        d.flags |= KC_AF_DATA;
    if (memory && c.kind == CXCursor_CallExpr && kc_cuda_call_unfollowed(sc->w, c))
        d = kc_deps_unseen(d); /* as call_named marks its result */
    return d;
}

/* Calls that read no memory and return the same value in every pass for
 * the same arguments (their own thread dependence goes to *d). */
static bool pure_call(kc_cuda_walk *w, CXCursor call, kc_deps *d)
{
    static const char *const pure[] = {"min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax",
                                       "__mul24", "__umul24", "abs", "size", "num_threads", "meta_group_size",
                                       "thread_rank", "meta_group_rank", "dim_threads", "group_dim"};
    CXCursor ref = clang_getCursorReferenced(call);
    const char *n = kc_cuda_callee_name(w, call, ref);
    for (size_t i = 0; i < sizeof pure / sizeof pure[0]; i++)
        if (strcmp(n, pure[i]) == 0) {
            if (strcmp(n, "thread_rank") == 0 || strcmp(n, "meta_group_rank") == 0)
                *d = kc_cuda_deps_or(*d, kc_cuda_builtin_deps(KC_CUDA_BV_THREAD, -1));
            return true;
        }
    return false;
}

static void upd_add(kc_cuda_scan *sc, int j, CXCursor step, int sign, CXCursor rhs, const scan_ctx *x, bool affine_form)
{
    kc_cuda_upd *u = &sc->u.data[j];
    if (x->in_inc)
        u->by_inc = true;
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
    u->deps = kc_cuda_deps_or(kc_cuda_deps_or(u->deps, d), x->cdeps);
    u->on |= on | x->con;
    u->on_all |= all;
}

/* The variable `decl` (of the function) changes in every pass by an
 * unknown that `at` feeds (an unresolved call writes it, a dropped
 * increment steps it): false if it is not one the scan follows. */
static bool step_unknown(kc_cuda_scan *sc, CXCursor decl, CXCursor at, const scan_ctx *x)
{
    int j = upd_index(sc, decl, true);
    if (j < 0)
        return false;
    sc->u.data[j].grow = true;
    upd_add(sc, j, clang_getNullCursor(), 1, at, x, false);
    return true;
}

static void prescan(kc_cuda_scan *sc, CXCursor c, scan_ctx x);

static void prescan_kids(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        prescan(sc, k.v[i], x);
    kc_cuda_kids_free(&k);
}

/* Under a condition: not once per pass, and depending on it. */
static scan_ctx scan_under(kc_cuda_scan *sc, scan_ctx x, CXCursor cond)
{
    scan_ctx y = x;
    y.top = false;
    if (!clang_Cursor_isNull(cond)) {
        bool impure = false;
        y.cdeps = kc_cuda_deps_or(y.cdeps, sdeps(sc, cond, &y.con, &(bool){false}, &impure, x.depth + 1));
    }
    return y;
}

/* Whether an assignment to variable `j` shrinks it (v >>= c, v /= c,
 * v = v >> c, v = v / c in the for increment: once per pass) or may grow it. */
static void scan_direction(kc_cuda_scan *sc, int j, enum CXBinaryOperatorKind op, CXCursor r, const scan_ctx *x)
{
    CXCursor decl = sc->u.data[j].decl;
    bool shr = op == CXBinaryOperator_ShrAssign || op == CXBinaryOperator_DivAssign;
    if (op == CXBinaryOperator_Assign) {
        CXCursor rs = kc_cuda_strip(r);
        enum CXBinaryOperatorKind rop = kc_cuda_binop_of(rs);
        if (rop == CXBinaryOperator_Shr || rop == CXBinaryOperator_Div) {
            kc_cuda_kids rk;
            kc_cuda_kids_get(rs, &rk);
            shr = rk.n == 2 && kc_cuda_same_decl(kc_cuda_referenced_decl(rk.v[0]), decl);
            kc_cuda_kids_free(&rk);
        }
    }
    if (shr && x->in_inc)
        sc->u.data[j].shrink = true;
    else
        sc->u.data[j].grow = true;
}

/* An assignment to variable `j`: a step when it is `v += e`, `v -= e`,
 * `v = v + e`, `v = e + v` or `v = v - e`, else an update that depends on
 * itself and the operand. */
static void scan_assignment(kc_cuda_scan *sc, int j, enum CXBinaryOperatorKind op, CXCursor r, const scan_ctx *x)
{
    CXCursor decl = sc->u.data[j].decl;
    scan_direction(sc, j, op, r, x);
    if (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) {
        upd_add(sc, j, r, op == CXBinaryOperator_AddAssign ? 1 : -1, r, x, true);
        return;
    }
    if (op != CXBinaryOperator_Assign) {
        /* *=, >>=, ...: depends on itself and the operand */
        upd_add(sc, j, clang_getNullCursor(), 1, r, x, false);
        return;
    }
    CXCursor rs = kc_cuda_strip(r);
    enum CXBinaryOperatorKind rop = kc_cuda_binop_of(rs);
    bool done = false;
    if (rop == CXBinaryOperator_Add || rop == CXBinaryOperator_Sub) {
        kc_cuda_kids rk;
        kc_cuda_kids_get(rs, &rk);
        if (rk.n == 2) {
            if (kc_cuda_same_decl(kc_cuda_referenced_decl(rk.v[0]), decl)) {
                upd_add(sc, j, rk.v[1], rop == CXBinaryOperator_Add ? 1 : -1, rk.v[1], x, true);
                done = true;
            } else if (rop == CXBinaryOperator_Add && kc_cuda_same_decl(kc_cuda_referenced_decl(rk.v[1]), decl)) {
                upd_add(sc, j, rk.v[0], 1, rk.v[0], x, true);
                done = true;
            }
        }
        kc_cuda_kids_free(&rk);
    }
    if (!done)
        upd_add(sc, j, clang_getNullCursor(), 1, r, x, false);
}

static void prescan_binary(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    enum CXBinaryOperatorKind op = kc_cuda_binop_of(c);
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    if (k.n != 2) {
        kc_cuda_kids_free(&k);
        prescan_kids(sc, c, x);
        return;
    }
    CXCursor l = k.v[0], r = k.v[1];
    kc_cuda_kids_free(&k);
    if (kc_cuda_is_assign(op)) {
        int j = upd_index(sc, kc_cuda_referenced_decl(l), true);
        if (j >= 0)
            scan_assignment(sc, j, op, r, &x);
        else
            prescan(sc, l, x);
        prescan(sc, r, x);
        return;
    }
    prescan(sc, l, x);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr)
        prescan(sc, r, scan_under(sc, x, l));
    else
        prescan(sc, r, x);
}

static void prescan_unary(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    enum CXUnaryOperatorKind op = kc_cuda_unop_of(c);
    if (kc_cuda_is_incdec(op)) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        CXCursor x0 = k.n == 1 ? k.v[0] : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        int j = upd_index(sc, kc_cuda_referenced_decl(x0), true);
        if (j >= 0) {
            int sign = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
            upd_add(sc, j, clang_getNullCursor(), sign, clang_getNullCursor(), &x, true);
            return;
        }
    }
    prescan_kids(sc, c, x);
}

/* A call given the address of a local (`curand_uniform(&rng)`,
 * `f(x, &out)`) may change it: in a loop, a value that differs between
 * passes (a random state advanced, a result written back). */
static void prescan_call(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    int na = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < na; i++) {
        CXCursor a = kc_cuda_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (kc_cuda_unop_of(a) != CXUnaryOperator_AddrOf)
            continue;
        kc_cuda_kids k;
        kc_cuda_kids_get(a, &k);
        CXCursor v = k.n == 1 ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        if (v.kind != CXCursor_DeclRefExpr)
            continue;
        step_unknown(sc, kc_cuda_referenced_decl(v), c, &x);
    }
    prescan_kids(sc, c, x);
}

/* ?:, if and switch: what the branches assign happens under the
 * condition. */
static void prescan_branches(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    if (c.kind == CXCursor_ConditionalOperator) {
        if (k.n == 3) {
            prescan(sc, k.v[0], x);
            scan_ctx y = scan_under(sc, x, k.v[0]);
            prescan(sc, k.v[1], y);
            prescan(sc, k.v[2], y);
        }
        kc_cuda_kids_free(&k);
        return;
    }
    CXCursor cond = clang_getNullCursor();
    for (unsigned i = 0; i < k.n; i++)
        if (clang_isExpression(k.v[i].kind)) {
            cond = k.v[i];
            break;
        }
    scan_ctx y = scan_under(sc, x, cond);
    for (unsigned i = 0; i < k.n; i++)
        prescan(sc, k.v[i], clang_equalCursors(k.v[i], cond) ? x : y);
    kc_cuda_kids_free(&k);
}

/* A nested loop: not once per pass, and under its own conditions. */
static void prescan_nested_loop(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    scan_ctx y = x;
    y.top = false;
    y.nest++;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        if (clang_isExpression(k.v[i].kind))
            y = scan_under(sc, y, k.v[i]);
    for (unsigned i = 0; i < k.n; i++)
        prescan(sc, k.v[i], y);
    kc_cuda_kids_free(&k);
}

static void prescan(kc_cuda_scan *sc, CXCursor c, scan_ctx x)
{
    if (clang_Cursor_isNull(c) || x.depth > KC_CUDA_MAX_DEPTH || !kc_cuda_budget_ok(sc->w))
        return;
    x.depth++;
    switch (c.kind) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        prescan_binary(sc, c, x);
        return;
    case CXCursor_UnaryOperator:
        prescan_unary(sc, c, x);
        return;
    case CXCursor_CallExpr: /* an operator call that clang left unresolved in a template */
        if (kc_cuda_binop_of(c) != CXBinaryOperator_Invalid)
            prescan_binary(sc, c, x);
        else if (kc_cuda_unop_of(c) != CXUnaryOperator_Invalid)
            prescan_unary(sc, c, x);
        else
            prescan_call(sc, c, x);
        return;
    case CXCursor_ConditionalOperator:
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
        prescan_branches(sc, c, x);
        return;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
        prescan_nested_loop(sc, c, x);
        return;
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
static void scan_mark_cond(kc_cuda_scan *sc, CXCursor c, unsigned depth)
{
    if (clang_Cursor_isNull(c) || depth > KC_CUDA_MAX_DEPTH)
        return;
    if (c.kind == CXCursor_DeclRefExpr) {
        int j = upd_index(sc, clang_getCursorReferenced(c), false);
        if (j >= 0)
            sc->u.data[j].in_cond = true;
        return;
    }
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        scan_mark_cond(sc, k.v[i], depth + 1);
    kc_cuda_kids_free(&k);
}

/* Closes the deps over what the loop variables read from each other, and
 * decides which ones are induction variables. */
static void scan_resolve(kc_cuda_scan *sc, uint32_t loop, bool *affine)
{
    uint32_t n = sc->u.len;
    kc_deps every = {0};
    for (uint32_t j = 0; j < n; j++) {
        sc->u.data[j].deps.loops |= kc_loop_bit(loop);
        every = kc_cuda_deps_or(every, sc->u.data[j].deps);
    }
    for (uint32_t iter = 0; iter <= n && iter < 66; iter++) {
        bool changed = false;
        for (uint32_t j = 0; j < n; j++) {
            kc_cuda_upd *u = &sc->u.data[j];
            kc_deps d = u->deps;
            if (u->on_all)
                d = kc_cuda_deps_or(d, every);
            for (uint32_t i = 0; i < n && i < 64; i++)
                if (u->on & (1ull << i))
                    d = kc_cuda_deps_or(d, sc->u.data[i].deps);
            if (d.axes != u->deps.axes || d.flags != u->deps.flags || d.loops != u->deps.loops) {
                u->deps = d;
                changed = true;
            }
        }
        every = (kc_deps){0};
        for (uint32_t j = 0; j < n; j++)
            every = kc_cuda_deps_or(every, sc->u.data[j].deps);
        if (!changed)
            break;
    }
    for (uint32_t j = 0; j < n; j++) {
        kc_cuda_upd *u = &sc->u.data[j];
        CXType t = clang_getCursorType(u->decl);
        bool ok = !u->nonaffine && u->nstep > 0 && (kc_cuda_ty_is_int(t) || kc_cuda_ty_is_ptr(t)) &&
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

/* ---- loops ------------------------------------------------------------------------ */

/* The parts of a for statement. libclang leaves out the missing ones, so
 * they are told apart by where they start relative to the header's `;`. */
static void for_parts(kc_cuda_walk *w, CXCursor s, CXCursor *init, CXCursor *cond, CXCursor *inc, CXCursor *body)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    *init = *cond = *inc = *body = clang_getNullCursor();
    if (k.n == 0) {
        kc_cuda_kids_free(&k);
        return;
    }
    *body = k.v[k.n - 1];
    unsigned n = k.n - 1;
    if (n == 3) {
        *init = k.v[0];
        *cond = k.v[1];
        *inc = k.v[2];
    } else if (n > 0) {
        kc_cuda_toks t;
        kc_cuda_toks_get(w->t, clang_getRangeStart(clang_getCursorExtent(s)),
                         clang_getRangeStart(clang_getCursorExtent(*body)), &t);
        unsigned semi[2], ns = 0;
        int depth = 0;
        for (unsigned i = 0; i < t.n && ns < 2; i++) {
            if (kc_cuda_tok_is(&t, i, "("))
                depth++;
            else if (kc_cuda_tok_is(&t, i, ")"))
                depth--;
            else if (depth == 1 && kc_cuda_tok_is(&t, i, ";"))
                semi[ns++] = kc_cuda_tok_off(&t, i, NULL);
        }
        kc_cuda_toks_free(&t);
        if (ns == 2) {
            for (unsigned i = 0; i < n; i++) {
                unsigned off = kc_cuda_cursor_off(k.v[i]);
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
    kc_cuda_kids_free(&k);
}

/* The text that sets the loop variable in the init statement. */
static const char *init_text(kc_cuda_walk *w, CXCursor init, CXCursor var, unsigned depth)
{
    if (clang_Cursor_isNull(init) || depth > 8)
        return NULL;
    if (init.kind == CXCursor_VarDecl && clang_equalCursors(init, var)) {
        CXCursor e = clang_Cursor_getVarDeclInitializer(init);
        return clang_Cursor_isNull(e) ? NULL : kc_cuda_wtext(w, e);
    }
    if (kc_cuda_binop_of(init) == CXBinaryOperator_Assign) {
        kc_cuda_kids k;
        kc_cuda_kids_get(init, &k);
        const char *t = NULL;
        if (k.n == 2 && kc_cuda_same_decl(kc_cuda_referenced_decl(k.v[0]), var))
            t = kc_cuda_wtext(w, k.v[1]);
        kc_cuda_kids_free(&k);
        if (t)
            return t;
    }
    if (init.kind != CXCursor_DeclStmt && kc_cuda_binop_of(init) != CXBinaryOperator_Comma)
        return NULL;
    kc_cuda_kids k;
    kc_cuda_kids_get(init, &k);
    const char *t = NULL;
    for (unsigned i = 0; i < k.n && !t; i++)
        t = init_text(w, k.v[i], var, depth + 1);
    kc_cuda_kids_free(&k);
    return t;
}

/* Header span: from the statement's start to its body, trailing blanks cut. */
static kc_span header_span(kc_cuda_walk *w, CXCursor s, CXCursor body)
{
    kc_span sp = kc_cuda_wspan(w, s);
    kc_span bs = clang_Cursor_isNull(body) ? sp : kc_cuda_span(w->t, body);
    if (!kc_span_valid(sp) || !kc_span_valid(bs) || bs.line < sp.line ||
        (bs.line == sp.line && bs.col <= sp.col) || kc_cuda_span(w->t, s).line == 0)
        return sp;
    size_t a, b;
    kc_span tmp = {sp.line, sp.col, bs.line, bs.col};
    kc_cuda_span_offsets(w->t, tmp, &a, &b);
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

static const char *paren(kc_cuda_walk *w, const char *s) { return has_ops(s) ? kc_arena_printf(w->a, "(%s)", s) : s; }

/* Fills the loop's bounds from its variable and condition. */
static void loop_bounds(kc_cuda_walk *w, kc_loop *L, const kc_cuda_upd *u, const kc_cuda_val *entry,
                        const kc_index *step, const char *step_text, const kc_cuda_preds *pos, CXCursor init)
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
        const kc_cuda_pred *p = &pos->data[i];
        if (kc_cuda_same_decl(kc_cuda_referenced_decl(p->lhs), u->decl)) {
            op = p->p.op;
            other = p->rhs;
            bound = p->p.rhs;
        } else if (kc_cuda_same_decl(kc_cuda_referenced_decl(p->rhs), u->decl)) {
            op = kc_cmp_mirror(p->p.op);
            other = p->lhs;
            bound = p->p.lhs;
        }
    }
    if (!op || !bound)
        return;
    L->end_text = kc_cuda_wtext(w, other);
    const kc_index *end = bound;
    if (op == KC_CMP_LE)
        end = kc_index_add(w->a, bound, kc_cuda_ix_const(w, 1, bound->bits));
    else if (op == KC_CMP_GE)
        end = kc_index_sub(w->a, bound, kc_cuda_ix_const(w, 1, bound->bits));
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
    if (!step || op == KC_CMP_EQ)
        return;
    /* Parts written by a macro (`CUDA_KERNEL_LOOP(i, n)`) all read as the
     * macro's invocation: no formula can be made of them. */
    if (L->end_text && ((L->start_text && strcmp(L->start_text, L->end_text) == 0) ||
                        (step_text && strcmp(step_text, L->end_text) == 0)))
        return;
    if (!kc_index_is_const(step, &s)) {
        /* A symbolic step (blockDim.x * gridDim.x): counted upwards. */
        if (op == KC_CMP_GT || op == KC_CMP_GE || !step_text)
            return;
        int64_t z;
        bool zero0 = entry->ix && kc_index_is_const(entry->ix, &z) && z == 0;
        const char *S = L->start_text ? L->start_text : "?";
        const char *sp = zero0 ? L->end_text : kc_arena_printf(w->a, "%s - %s", L->end_text, paren(w, S));
        if (op == KC_CMP_LE)
            sp = kc_arena_printf(w->a, "%s + 1", sp);
        L->trip_text = kc_arena_printf(w->a, "ceil(%s / %s)", paren(w, sp), paren(w, step_text));
        return;
    }
    if (s == 0)
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

/* One loop being walked: its parts, what the prescan found it assigns,
 * and the values those variables take on entry. */
typedef struct loop_walk {
    CXCursor s, init, cond, inc, body;
    CXCursor rvar; /* the variable of a range-based for */
    kc_deps range_deps;
    kc_loop_kind kind;
    uint32_t id;
    kc_deps loop_bit;
    kc_cuda_scan sc;
    uint32_t n;            /* variables it assigns (sc.u) */
    bool *affine;          /* [n] advanced by a loop-invariant step once per pass */
    kc_cuda_val *entry;    /* [n] their values on entry */
    const kc_index **steps; /* [n] the steps of the affine ones */
    const char **stexts;   /* [n] a step as written, when it is one expression */
    int vi;                /* the loop variable among them, or -1 */
    bool value_sem;        /* the loop variable is the loop atom itself */
    const kc_index *pass;  /* the pass number other variables advance with */
    const kc_index *var_step;
    const char *var_step_text;
    kc_cuda_preds pos;     /* what the condition says in every pass */
    kc_deps exit_deps;     /* what the condition depends on (but the loop): when it ends */
} loop_walk;

/* The init, condition, increment and body of a for, while, do or
 * range-based for. */
static void loop_parts(kc_cuda_walk *w, loop_walk *lw)
{
    CXCursor s = lw->s;
    kc_cuda_kids k;
    kc_cuda_kids_get(s, &k);
    switch (s.kind) {
    case CXCursor_ForStmt:
        lw->kind = KC_LOOP_FOR;
        for_parts(w, s, &lw->init, &lw->cond, &lw->inc, &lw->body);
        break;
    case CXCursor_WhileStmt:
        if (k.n >= 2) {
            lw->cond = k.v[k.n - 2];
            lw->body = k.v[k.n - 1];
        }
        break;
    case CXCursor_DoStmt:
        if (k.n >= 2) {
            lw->body = k.v[0];
            lw->cond = k.v[1];
        }
        break;
    default: /* CXXForRangeStmt */
        lw->kind = KC_LOOP_FOR;
        for (unsigned i = 0; i < k.n; i++)
            if (k.v[i].kind == CXCursor_VarDecl && clang_Cursor_isNull(lw->rvar)) {
                lw->rvar = k.v[i];
            } else if (clang_isExpression(k.v[i].kind)) {
                kc_cuda_val rv = kc_cuda_ev(w, k.v[i], KC_CUDA_EV_LOAD);
                lw->range_deps = kc_cuda_deps_or(lw->range_deps, rv.ix ? kc_index_deps(rv.ix) : rv.deps);
            }
        if (k.n)
            lw->body = k.v[k.n - 1];
        break;
    }
    kc_cuda_kids_free(&k);
}

/* The loop's record in the kernel. */
static void open_loop(kc_cuda_walk *w, loop_walk *lw, const kc_cuda_pragma *pr)
{
    lw->id = w->k->loops.len;
    kc_loop L;
    memset(&L, 0, sizeof L);
    L.id = lw->id;
    L.parent = w->loop;
    L.kind = lw->kind;
    L.span = header_span(w, lw->s, lw->body);
    L.header_text = kc_cuda_span_text(w->t, L.span);
    L.range_span = clang_Cursor_isNull(lw->cond) ? L.span : kc_cuda_wspan(w, lw->cond);
    L.cond_text = clang_Cursor_isNull(lw->cond) ? NULL : kc_cuda_wtext(w, lw->cond);
    L.trip_count = -1;
    L.runtime_bound_symbol = KC_NONE;
    if (pr) {
        L.unroll = pr->unroll;
        L.unroll_count = pr->count;
        L.unroll_span = pr->span;
    }
    kc_vec_push(&w->k->loops, L);
    lw->loop_bit = (kc_deps){.loops = kc_loop_bit(lw->id)};
}

/* The local variables an expression names (a condition) change in every
 * pass, by an amount not known. */
static void prescan_cond_vars(kc_cuda_scan *sc, CXCursor c, scan_ctx x, unsigned depth)
{
    if (depth > 8)
        return;
    if (c.kind == CXCursor_DeclRefExpr) {
        CXCursor d = kc_cuda_referenced_decl(c);
        if (d.kind == CXCursor_VarDecl)
            step_unknown(sc, d, c, &x);
        return;
    }
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        prescan_cond_vars(sc, k.v[i], x, depth + 1);
    kc_cuda_kids_free(&k);
}

/* Does the for statement's header write an increment that the parse
 * dropped whole (tokens between its second `;` and its `)`, no cursor)? */
static bool inc_dropped(kc_cuda_walk *w, const loop_walk *lw)
{
    if (lw->kind != KC_LOOP_FOR || lw->s.kind != CXCursor_ForStmt || !clang_Cursor_isNull(lw->inc) ||
        clang_Cursor_isNull(lw->body))
        return false;
    kc_cuda_toks t;
    kc_cuda_toks_get(w->t, clang_getRangeStart(clang_getCursorExtent(lw->s)),
                     clang_getRangeStart(clang_getCursorExtent(lw->body)), &t);
    int depth = 0;
    unsigned semis = 0;
    bool text = false;
    for (unsigned i = 0; i < t.n; i++) {
        if (kc_cuda_tok_is(&t, i, "(") && depth++ == 0)
            continue;
        if (kc_cuda_tok_is(&t, i, ")") && --depth == 0)
            break;
        if (depth == 1 && kc_cuda_tok_is(&t, i, ";"))
            semis++;
        else if (semis == 2)
            text = true;
    }
    kc_cuda_toks_free(&t);
    return text;
}

/* The variables a dropped increment steps: those the header declares, else
 * the local variables its condition reads. */
static void prescan_dropped_inc(kc_cuda_scan *sc, const loop_walk *lw, scan_ctx x)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(lw->init, &k);
    bool any = false;
    for (unsigned i = 0; i < k.n; i++)
        if (k.v[i].kind == CXCursor_VarDecl && step_unknown(sc, k.v[i], k.v[i], &x))
            any = true;
    kc_cuda_kids_free(&k);
    if (!any && !clang_Cursor_isNull(lw->cond))
        prescan_cond_vars(sc, lw->cond, x, 0);
}

/* What the loop assigns, which of it is affine, and the loop variable:
 * what the increment advances and the condition tests (for), or an
 * induction variable the condition tests (while). */
static void scan_assignments(kc_cuda_walk *w, loop_walk *lw)
{
    kc_cuda_scan *sc = &lw->sc;
    memset(sc, 0, sizeof *sc);
    sc->w = w;
    scan_ctx x0 = {0};
    x0.top = true;
    if (!clang_Cursor_isNull(lw->inc)) {
        scan_ctx xi = x0;
        xi.in_inc = true;
        prescan(sc, lw->inc, xi);
    } else if (inc_dropped(w, lw)) {
        scan_ctx xi = x0;
        xi.in_inc = true;
        prescan_dropped_inc(sc, lw, xi);
    }
    if (!clang_Cursor_isNull(lw->body))
        prescan(sc, lw->body, x0);
    if (!clang_Cursor_isNull(lw->cond)) {
        scan_ctx xc = x0;
        xc.top = false;
        prescan(sc, lw->cond, xc);
        scan_mark_cond(sc, lw->cond, 0);
    }
    uint32_t n = lw->n = sc->u.len;
    lw->affine = kc_xcalloc(n ? n : 1, sizeof *lw->affine);
    lw->entry = kc_xcalloc(n ? n : 1, sizeof *lw->entry);
    scan_resolve(sc, lw->id, lw->affine);
    lw->vi = -1;
    for (uint32_t j = 0; j < n && lw->vi < 0 && lw->kind == KC_LOOP_FOR; j++)
        if (sc->u.data[j].in_cond && sc->u.data[j].by_inc)
            lw->vi = (int)j;
    for (uint32_t j = 0; j < n && lw->vi < 0; j++)
        if (sc->u.data[j].in_cond && lw->affine[j])
            lw->vi = (int)j;
    for (uint32_t j = 0; j < n && lw->vi < 0; j++) /* halving, data-driven */
        if (sc->u.data[j].in_cond)
            lw->vi = (int)j;
}

/* Steps of the induction variables, evaluated on entry. */
static void eval_steps(kc_cuda_walk *w, loop_walk *lw)
{
    uint32_t n = lw->n;
    lw->steps = kc_xcalloc(n ? n : 1, sizeof *lw->steps);
    lw->stexts = kc_xcalloc(n ? n : 1, sizeof *lw->stexts);
    for (uint32_t j = 0; j < n; j++) {
        kc_cuda_upd *u = &lw->sc.u.data[j];
        kc_cuda_bind *b = kc_cuda_env_find(w->fn, u->decl);
        if (!b)
            continue;
        lw->entry[j] = b->val;
        if (!lw->affine[j])
            continue;
        CXType t = clang_getCursorType(u->decl);
        uint8_t bits = kc_cuda_ty_is_int(t) ? kc_cuda_ty_bits(t) : 64;
        const kc_index *step = kc_cuda_ix_const(w, 0, bits);
        for (unsigned q = 0; q < u->nstep && step; q++) {
            kc_cuda_val sv;
            if (clang_Cursor_isNull(u->step[q])) {
                sv = kc_cuda_v_index(kc_cuda_ix_const(w, 1, bits));
                lw->stexts[j] = u->nstep == 1 ? (u->sign[q] > 0 ? "1" : "-1") : NULL;
            } else {
                sv = kc_cuda_ev(w, u->step[q], KC_CUDA_EV_LOAD);
                const char *txt = kc_cuda_wtext(w, u->step[q]);
                lw->stexts[j] = u->nstep != 1       ? NULL
                                : u->sign[q] > 0 ? txt
                                                 : kc_arena_printf(w->a, "-%s", paren(w, txt));
            }
            const kc_index *si = kc_cuda_as_index(w, &sv, u->step[q]);
            step = kc_index_add(w->a, step, u->sign[q] < 0 ? kc_index_scale(w->a, si, -1) : si);
        }
        lw->steps[j] = step;
        if (!step)
            lw->affine[j] = false;
    }
}

/* The loop variable is the loop atom itself when its start and step are
 * the same for all threads of a block; when they vary with the thread (a
 * grid-stride loop) it is start + step * pass, so that the lane stride
 * stays visible. Other induction variables advance with the pass number. */
static void choose_pass(kc_cuda_walk *w, loop_walk *lw)
{
    int vi = lw->vi;
    lw->value_sem = false;
    lw->pass = NULL;
    if (vi >= 0 && lw->affine[vi] && !lw->entry[vi].ptr && lw->entry[vi].ix) {
        kc_deps d = kc_cuda_deps_or(kc_index_deps(lw->entry[vi].ix), kc_index_deps(lw->steps[vi]));
        lw->value_sem = d.axes == 0 && !(d.flags & KC_AF_THREAD);
        int64_t c0, c1;
        if (lw->value_sem && !(kc_index_is_const(lw->entry[vi].ix, &c0) && c0 == 0 &&
                               kc_index_is_const(lw->steps[vi], &c1) && c1 == 1))
            lw->pass = kc_cuda_ix_opaque_text(w, w->k->loops.data[lw->id].span,
                                              kc_arena_printf(w->a, "pass of the loop over %s", lw->sc.u.data[vi].name),
                                              lw->loop_bit, 32);
    }
    if (!lw->pass)
        lw->pass = kc_cuda_ix_atom(w, KC_ATOM_LOOP, lw->id, lw->loop_bit, 32);
}

/* Inside the loop: the value of variable `j` in a pass that is not
 * expressed by a step (halving, data-driven updates, non-integers). */
static kc_cuda_val opaque_in_loop(kc_cuda_walk *w, loop_walk *lw, uint32_t j, kc_cuda_val e, CXType t, uint8_t bits)
{
    kc_cuda_upd *u = &lw->sc.u.data[j];
    kc_span span = w->k->loops.data[lw->id].span;
    if ((int)j == lw->vi)
        lw->affine[j] = false;
    kc_deps d = kc_cuda_deps_or(u->deps, lw->loop_bit);
    if ((int)j == lw->vi && kc_cuda_ty_is_int(t)) {
        /* A variable that is not advanced by a constant step (halving,
         * doubling): the loop atom itself. */
        kc_deps vd = kc_cuda_deps_or(d, e.deps);
        return kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_LOOP, lw->id, vd, bits));
    }
    if (e.ptr) {
        kc_cuda_val nv = e;
        const char *what = kc_arena_printf(w->a, "%s in the loop", u->name);
        const kc_index *o = kc_cuda_ix_opaque_text(w, span, what, d, 64);
        nv.off = e.off ? kc_index_add(w->a, e.off, o) : NULL;
        if (!nv.off)
            nv.off = o;
        nv.deps = kc_index_deps(nv.off);
        nv.load = KC_NONE;
        return nv;
    }
    if (kc_cuda_ty_is_int(t)) {
        const kc_index *ei = kc_cuda_as_index(w, &e, u->decl);
        const kc_index *o = kc_cuda_ix_opaque_text(w, span, u->name, d, bits);
        const kc_index *r = kc_index_add(w->a, ei, o);
        if (!r)
            r = kc_cuda_ix_opaque_text(w, span, u->name, kc_cuda_deps_or(d, e.deps), bits);
        return kc_cuda_v_index(r);
    }
    return kc_cuda_v_deps(kc_cuda_deps_or(d, e.deps));
}

/* Inside the loop: the value of variable `j` in pass `pass`. */
static kc_cuda_val value_in_loop(kc_cuda_walk *w, loop_walk *lw, uint32_t j)
{
    kc_cuda_upd *u = &lw->sc.u.data[j];
    kc_cuda_val e = lw->entry[j];
    CXType t = clang_getCursorType(u->decl);
    uint8_t bits = kc_cuda_ty_is_int(t) ? kc_cuda_ty_bits(t) : 64;
    const kc_index *step = lw->steps[j], *pass = lw->pass;
    if ((int)j == lw->vi && lw->value_sem) {
        kc_deps d = kc_cuda_deps_or(kc_index_deps(e.ix), kc_index_deps(step));
        d.flags &= (uint8_t)~KC_AF_THREAD;
        d.axes = 0;
        d.loops |= kc_loop_bit(lw->id);
        return kc_cuda_v_index(kc_cuda_ix_atom(w, KC_ATOM_LOOP, lw->id, d, bits));
    }
    if (lw->affine[j] && e.ptr) {
        int64_t unit = kc_cuda_ty_step_elems(t);
        const kc_index *d =
            unit >= 0 ? kc_index_mul(w->a, kc_index_scale(w->a, step, unit), kc_index_cast(w->a, pass, 64)) : NULL;
        const kc_index *off = d && e.off ? kc_index_add(w->a, e.off, d) : NULL;
        if (off) {
            kc_cuda_val nv = e;
            nv.off = off;
            nv.deps = kc_index_deps(off);
            nv.load = KC_NONE;
            return nv;
        }
    } else if (lw->affine[j]) {
        const kc_index *ei = kc_cuda_as_index(w, &e, u->decl);
        const kc_index *r =
            kc_index_add(w->a, ei, kc_index_mul(w->a, step, bits == 64 ? kc_index_cast(w->a, pass, 64) : pass));
        if (r)
            return kc_cuda_v_index(r);
    }
    return opaque_in_loop(w, lw, j, e, t, bits);
}

/* Rebinds everything the loop assigns to its value in a pass, and binds the
 * variable of a range-based for. */
static void rebind_for_the_passes(kc_cuda_walk *w, loop_walk *lw)
{
    for (uint32_t j = 0; j < lw->n; j++) {
        kc_cuda_upd *u = &lw->sc.u.data[j];
        if (!kc_cuda_env_find(w->fn, u->decl))
            continue;
        kc_cuda_val nv = value_in_loop(w, lw, j);
        kc_cuda_env_find(w->fn, u->decl)->val = nv;
    }
    int vi = lw->vi;
    lw->var_step = vi >= 0 && lw->affine[vi] ? lw->steps[vi] : NULL;
    lw->var_step_text = NULL;
    if (vi >= 0)
        lw->var_step_text = lw->affine[vi]              ? lw->stexts[vi]
                            : clang_Cursor_isNull(lw->inc) ? NULL
                                                          : kc_cuda_wtext(w, lw->inc);
    if (!clang_Cursor_isNull(lw->rvar)) {
        /* The element of this pass: a value that changes with the loop
         * (its initializer reads the range through clang's hidden
         * `__begin` iterator, which is not an access of the kernel's). */
        kc_deps d = kc_cuda_deps_or(lw->range_deps, lw->loop_bit);
        CXType rt = clang_getCursorType(lw->rvar);
        kc_cuda_env_bind(w, lw->rvar, kc_cuda_spelling(w->t, lw->rvar),
                         kc_cuda_ty_is_int(rt) ? kc_cuda_v_index(kc_cuda_ix_opaque(w, lw->rvar, d, kc_cuda_ty_bits(rt)))
                                               : kc_cuda_v_deps(d));
    }
}

/* The loop's condition as a condition of the kernel (its own loop left
 * out: it holds in every pass that runs the body); returns its id. */
static uint32_t loop_condition(kc_cuda_walk *w, loop_walk *lw)
{
    w->in_loop_cond = true;
    kc_cuda_val c = kc_cuda_ev_cond(w, lw->cond, &lw->pos, NULL);
    w->in_loop_cond = false;
    kc_deps d = c.deps;
    d.loops &= ~kc_loop_bit(lw->id);
    lw->exit_deps = kc_cuda_deps_or(lw->exit_deps, d);
    uint32_t np;
    const kc_pred *pp = kc_cuda_preds_copy(w, &lw->pos, &np);
    return kc_cuda_mk_cond(w, kc_cuda_wspan(w, lw->cond), kc_cuda_wtext(w, lw->cond), d, false, pp, np);
}

/* One abstract pass: the condition (before the body, except for do), the
 * body, the increment; barriers a thread-dependent break skips. */
static void walk_passes(kc_cuda_walk *w, loop_walk *lw)
{
    kc_cuda_frame fr = {.loop = lw->id, .body_guard = w->guard, .first_barrier = w->k->barriers.len};
    uint32_t saved_guard = w->guard, saved_loop = w->loop;
    w->loop = lw->id;
    bool do_loop = lw->s.kind == CXCursor_DoStmt;
    if (!clang_Cursor_isNull(lw->cond) && !do_loop) {
        w->guard = loop_condition(w, lw);
        fr.body_guard = w->guard;
    }
    kc_vec_push(&w->frames, fr);
    if (!clang_Cursor_isNull(lw->body))
        w->stmt(w, lw->body);
    if (!clang_Cursor_isNull(lw->inc))
        kc_cuda_ev(w, lw->inc, KC_CUDA_EV_LOAD);
    if (!clang_Cursor_isNull(lw->cond) && do_loop)
        loop_condition(w, lw);
    /* Threads that broke out skip every barrier of the later passes, also
     * those written before the break. */
    const kc_cuda_frame *done = kc_vec_last(&w->frames);
    if (kc_span_valid(done->div_break))
        for (uint32_t b = done->first_barrier; b < w->k->barriers.len; b++)
            if (!kc_span_valid(w->k->barriers.data[b].divergent_exit)) {
                w->k->barriers.data[b].divergent_exit = done->div_break;
                w->k->barriers.data[b].exit_cond = done->div_break_cond;
            }
    w->frames.len--;
    w->guard = saved_guard;
    w->loop = saved_loop;
}

/* After the loop: what it assigned depends not on it but on what ended it
 * (`while (part < n && g < r[part])` leaves `part` where `g` stopped it). */
static void rebind_after(kc_cuda_walk *w, loop_walk *lw)
{
    const kc_loop *lp = &w->k->loops.data[lw->id];
    for (uint32_t j = 0; j < lw->n; j++) {
        kc_cuda_upd *u = &lw->sc.u.data[j];
        kc_cuda_bind *b = kc_cuda_env_find(w->fn, u->decl);
        if (!b)
            continue;
        kc_cuda_val cur = b->val;
        kc_deps d = cur.ptr && cur.off ? kc_index_deps(cur.off) : cur.deps;
        d = kc_cuda_deps_or(kc_cuda_deps_or(d, u->deps), lw->exit_deps);
        d.loops &= ~kc_loop_bit(lw->id);
        CXType t = clang_getCursorType(u->decl);
        kc_cuda_val nv;
        if (cur.ptr) {
            nv = cur;
            const char *what = kc_arena_printf(w->a, "offset of %s after the loop", u->name);
            nv.off = kc_cuda_ix_opaque_text(w, lp->span, what, d, 64);
            nv.deps = d;
        } else if (kc_cuda_ty_is_int(t)) {
            nv = kc_cuda_v_index(kc_cuda_ix_opaque_text(w, lp->span, u->name, d, kc_cuda_ty_bits(t)));
        } else {
            nv = kc_cuda_v_deps(d);
        }
        b = kc_cuda_env_find(w->fn, u->decl);
        b->val = nv;
    }
}

bool kc_cuda_walk_loop(kc_cuda_walk *w, CXCursor s, const kc_cuda_pragma *pr)
{
    loop_walk lw = {.s = s};
    lw.init = lw.cond = lw.inc = lw.body = lw.rvar = clang_getNullCursor();
    lw.kind = KC_LOOP_WHILE;
    loop_parts(w, &lw);

    uint32_t env0 = w->fn->env.len;
    if (!clang_Cursor_isNull(lw.init))
        w->stmt(w, lw.init);
    open_loop(w, &lw, pr);
    scan_assignments(w, &lw);
    eval_steps(w, &lw);
    choose_pass(w, &lw);
    rebind_for_the_passes(w, &lw);
    free(lw.steps);
    free(lw.stexts);
    walk_passes(w, &lw);

    /* Bounds and trip count. */
    kc_loop *lp = &w->k->loops.data[lw.id];
    if (lw.vi >= 0) {
        loop_bounds(w, lp, &lw.sc.u.data[lw.vi], &lw.entry[lw.vi], lw.var_step, lw.var_step_text, &lw.pos, lw.init);
        lp->shrinks = lw.sc.u.data[lw.vi].shrink && !lw.sc.u.data[lw.vi].grow;
        CXType vt = clang_getCursorType(lw.sc.u.data[lw.vi].decl);
        kc_cuda_trip_max(w->k, lp, lp->shrinks && kc_cuda_ty_is_int(vt) ? kc_cuda_ty_bits(vt) : 0);
    } else if (!clang_Cursor_isNull(lw.rvar))
        lp->var = kc_cuda_spelling(w->t, lw.rvar);
    kc_cuda_mark_one_pass(lp, lw.body, lw.sc.has_continue);

    rebind_after(w, &lw);
    if (w->fn->env.len > env0)
        w->fn->env.len = env0;
    kc_vec_free(&lw.pos);
    kc_vec_free(&lw.sc.u);
    free(lw.affine);
    free(lw.entry);
    return false;
}
