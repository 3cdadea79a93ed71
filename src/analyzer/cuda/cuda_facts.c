/* cuda_facts.c — facts of CUDA device code that the interpreter does not
 * need to evaluate: a syntactic pass over one function definition for
 * double-precision literals and math calls (KC501) and low-precision
 * accumulators (KC502); the declarations of __shared__ arrays (KC103,
 * KC402); and bounds checks of accesses from their guards (KC303).
 *
 * The syntactic pass visits the function's own body (lambdas included,
 * called device functions not: they get their own pass), keeping the chain
 * of ancestors so that a literal can be judged by where its value goes.
 */
#include "cuda_facts.h"

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FACTS_MAX_DEPTH 256
#define FACTS_MAX_LOOPS 64
#define FACTS_BUDGET 1000000u

typedef struct facts_ctx {
    kc_cuda_tu *t;
    kc_kernel *k;
    kc_arena *a;
    CXCursor stack[FACTS_MAX_DEPTH];
    unsigned depth;
    CXCursor loop_cur[FACTS_MAX_LOOPS]; /* enclosing loop statements */
    uint32_t loop_id[FACTS_MAX_LOOPS];  /* their ids in k->loops, or KC_NONE */
    unsigned nloops;
    unsigned budget;
} facts_ctx;

/* ---- types and small helpers ------------------------------------------------- */

static enum CXTypeKind ckind(CXCursor c) { return clang_getCanonicalType(clang_getCursorType(c)).kind; }

static bool is_arith_op(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub || op == CXBinaryOperator_Mul ||
           op == CXBinaryOperator_Div;
}

static bool is_arith_assign(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign ||
           op == CXBinaryOperator_MulAssign || op == CXBinaryOperator_DivAssign;
}

static CXCursor strip_parens(CXCursor c)
{
    for (int i = 0; i < 64 && c.kind == CXCursor_ParenExpr; i++) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        CXCursor n = k.n == 1 ? k.v[0] : c;
        kc_cuda_kids_free(&k);
        if (clang_equalCursors(n, c))
            break;
        c = n;
    }
    return c;
}

static bool two_kids(CXCursor c, CXCursor *l, CXCursor *r)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    bool ok = k.n == 2;
    if (ok) {
        *l = k.v[0];
        *r = k.v[1];
    }
    kc_cuda_kids_free(&k);
    return ok;
}

/* Is the location spelled where it is expanded (not inside a macro)? */
static bool spelled_in_place(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned o1 = 0, o2 = 0;
    clang_getExpansionLocation(loc, &f1, NULL, NULL, &o1);
    clang_getSpellingLocation(loc, &f2, NULL, NULL, &o2);
    return f1 && f2 && clang_File_isEqual(f1, f2) && o1 == o2;
}

static const char *callee_of(facts_ctx *x, CXCursor call, CXCursor *callee_ref)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    *callee_ref = clang_getNullCursor();
    if (k.n >= 1)
        *callee_ref = kc_cuda_strip(k.v[0]);
    kc_cuda_kids_free(&k);
    CXCursor ref = clang_getCursorReferenced(call);
    if (!clang_Cursor_isNull(ref))
        return kc_cuda_spelling(x->t, ref);
    if (!clang_Cursor_isNull(*callee_ref))
        return kc_cuda_spelling(x->t, *callee_ref);
    return "";
}

/* ---- double promotion ---------------------------------------------------------- */

/* The C math functions that have a float twin named with an `f`. */
static bool is_math_name(const char *n)
{
    static const char *const names[] = {
        "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh", "asinh", "atanh", "cosh", "sinh", "tanh",
        "exp", "exp2", "exp10", "expm1", "log", "log10", "log1p", "log2", "logb", "cbrt", "fabs", "sqrt",
        "rsqrt", "rcbrt", "erf", "erfc", "erfinv", "erfcinv", "erfcx", "lgamma", "tgamma", "ceil", "floor",
        "trunc", "round", "rint", "nearbyint", "sinpi", "cospi", "normcdf", "normcdfinv", "hypot", "pow",
        "fmod", "remainder", "copysign", "fdim", "fmax", "fmin", "rhypot", "fma", "ldexp", "scalbn"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return false;
}

static enum CXTypeKind written_kind(CXCursor a);
static CXCursor written_expr(CXCursor a);
static bool int_kind(enum CXTypeKind t);

/* pow(float, int): double since C++11 (the library's pow(T, U) promotes
 * both), even where clang, parsing with a float overload in scope, typed
 * the call float. */
static bool pow_float_int(facts_ctx *x, CXCursor call)
{
    CXCursor cref;
    return call.kind == CXCursor_CallExpr && clang_Cursor_getNumArguments(call) == 2 &&
           strcmp(callee_of(x, call, &cref), "pow") == 0 &&
           written_kind(clang_Cursor_getArgument(call, 0)) == CXType_Float &&
           int_kind(written_kind(clang_Cursor_getArgument(call, 1)));
}

/* How a double-typed expression got to be double. */
enum { FD_OTHER = 0, FD_LITERAL, FD_FLOAT, FD_DOUBLE };

static int fd_join(int a, int b)
{
    if (a == FD_DOUBLE || b == FD_DOUBLE)
        return FD_DOUBLE;
    if (a == FD_FLOAT || b == FD_FLOAT)
        return FD_FLOAT;
    if (a == FD_LITERAL && b == FD_LITERAL)
        return FD_LITERAL;
    return FD_OTHER;
}

static bool is_double_literal(CXCursor c)
{
    c = strip_parens(c);
    if (c.kind == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus)
            return false;
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        bool yes = k.n == 1 && is_double_literal(k.v[0]);
        kc_cuda_kids_free(&k);
        return yes;
    }
    return c.kind == CXCursor_FloatingLiteral && ckind(c) == CXType_Double;
}

/* FD_FLOAT: the value is float data promoted to double (possibly combined
 * with literals); FD_LITERAL: only literals; FD_DOUBLE: a genuine double
 * (a double variable, an explicit cast, a call of something else). */
static int fd_class(facts_ctx *x, CXCursor e, unsigned depth)
{
    if (depth > 64 || x->budget == 0)
        return FD_DOUBLE;
    x->budget--;
    e = strip_parens(e);
    enum CXTypeKind tk = ckind(e);
    switch (e.kind) {
    case CXCursor_FloatingLiteral:
        /* a constant: float or double, the compiler folds it with others */
        return tk == CXType_Double || tk == CXType_Float ? FD_LITERAL : FD_DOUBLE;
    case CXCursor_IntegerLiteral:
        return FD_LITERAL;
    case CXCursor_UnexposedExpr: {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        int r = FD_DOUBLE;
        if (k.n == 1 && (strip_parens(k.v[0]).kind == CXCursor_FloatingLiteral || is_double_literal(k.v[0]))) {
            r = FD_LITERAL; /* (double)2.0f: still a constant */
        } else if (k.n == 1) {
            enum CXTypeKind ck = ckind(k.v[0]);
            if (ck == CXType_Float || ck == CXType_Half || ck == CXType_Float16 || ck == CXType_BFloat16)
                r = FD_FLOAT;
            else if (ck == CXType_Double)
                r = fd_class(x, k.v[0], depth + 1);
            else if (k.v[0].kind == CXCursor_IntegerLiteral)
                r = FD_LITERAL;
            else if (ck == CXType_Record && tk == CXType_Double)
                r = FD_DOUBLE;
            else
                r = FD_OTHER; /* an integer converted to double */
        }
        kc_cuda_kids_free(&k);
        return r;
    }
    case CXCursor_UnaryOperator: {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        int r = k.n == 1 ? fd_class(x, k.v[0], depth + 1) : FD_DOUBLE;
        kc_cuda_kids_free(&k);
        return r;
    }
    case CXCursor_BinaryOperator: {
        CXCursor l, r;
        if (!is_arith_op(clang_getCursorBinaryOperatorKind(e)) || !two_kids(e, &l, &r))
            return FD_DOUBLE;
        return fd_join(fd_class(x, l, depth + 1), fd_class(x, r, depth + 1));
    }
    case CXCursor_ConditionalOperator: {
        kc_cuda_kids k;
        kc_cuda_kids_get(e, &k);
        int r = k.n == 3 ? fd_join(fd_class(x, k.v[1], depth + 1), fd_class(x, k.v[2], depth + 1)) : FD_DOUBLE;
        kc_cuda_kids_free(&k);
        return r;
    }
    case CXCursor_CallExpr: {
        CXCursor cref;
        const char *n = callee_of(x, e, &cref);
        if (!is_math_name(n))
            return FD_DOUBLE;
        int na = clang_Cursor_getNumArguments(e), r = FD_LITERAL;
        for (int i = 0; i < na; i++)
            r = fd_join(r, fd_class(x, clang_Cursor_getArgument(e, (unsigned)i), depth + 1));
        return r;
    }
    default:
        return FD_DOUBLE;
    }
}

/* Does the double value computed by stack[at] end up in a float? */
static bool sinks_to_float(facts_ctx *x, unsigned at)
{
    for (unsigned j = at; j-- > 0;) {
        CXCursor p = x->stack[j], child = x->stack[j + 1];
        enum CXTypeKind pk = ckind(p);
        switch (p.kind) {
        case CXCursor_ParenExpr:
            continue;
        case CXCursor_UnexposedExpr:
            if (pk == CXType_Float || pk == CXType_Half || pk == CXType_Float16 || pk == CXType_BFloat16)
                return true;
            if (pk == CXType_Double)
                continue;
            return false;
        case CXCursor_UnaryOperator:
        case CXCursor_ConditionalOperator:
            if (pk == CXType_Double)
                continue;
            return false;
        case CXCursor_BinaryOperator:
            if (pk == CXType_Double && is_arith_op(clang_getCursorBinaryOperatorKind(p)))
                continue;
            return false;
        case CXCursor_CompoundAssignOperator: {
            CXCursor l, r;
            return two_kids(p, &l, &r) && clang_equalCursors(r, child) && ckind(l) == CXType_Float;
        }
        case CXCursor_CStyleCastExpr:
        case CXCursor_CXXStaticCastExpr:
        case CXCursor_CXXFunctionalCastExpr:
            return pk == CXType_Float;
        case CXCursor_CallExpr: {
            CXCursor cref;
            if (pk == CXType_Double && is_math_name(callee_of(x, p, &cref)))
                continue;
            return false;
        }
        default:
            return false;
        }
    }
    return false;
}

/* The fp64 operations the double value of stack[at] (an operation `op`)
 * takes part in up to where it becomes a float: how many, and whether one
 * is a division or a math function (tens of fp64 instructions each). */
static void fp64_chain(facts_ctx *x, unsigned at, bool div, kc_literal *L)
{
    L->fp64_ops = 1;
    L->fp64_costly = div;
    for (unsigned j = at; j-- > 0 && L->fp64_ops < 255;) {
        CXCursor p = x->stack[j];
        if (ckind(p) != CXType_Double)
            return;
        if (p.kind == CXCursor_BinaryOperator) {
            enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(p);
            L->fp64_ops++;
            L->fp64_costly |= op == CXBinaryOperator_Div || op == CXBinaryOperator_Rem;
        } else if (p.kind == CXCursor_UnaryOperator) {
            L->fp64_ops++;
        } else if (p.kind == CXCursor_CallExpr) {
            L->fp64_costly = true;
        }
    }
}

static uint32_t innermost_loop(const facts_ctx *x)
{
    for (unsigned i = x->nloops; i-- > 0;)
        if (x->loop_id[i] != KC_NONE)
            return x->loop_id[i];
    return KC_NONE;
}

static void add_literal(facts_ctx *x, CXCursor lit, CXCursor context)
{
    lit = strip_parens(lit);
    while (lit.kind == CXCursor_UnaryOperator) { /* -0.5: the literal itself */
        kc_cuda_kids k;
        kc_cuda_kids_get(lit, &k);
        CXCursor n = k.n == 1 ? strip_parens(k.v[0]) : lit;
        kc_cuda_kids_free(&k);
        if (clang_equalCursors(n, lit))
            break;
        lit = n;
    }
    kc_literal L;
    memset(&L, 0, sizeof L);
    L.span = kc_cuda_span(x->t, lit);
    if (!kc_span_valid(L.span))
        return;
    for (uint32_t i = 0; i < x->k->literals.len; i++) /* once per place */
        if (x->k->literals.data[i].span.line == L.span.line && x->k->literals.data[i].span.col == L.span.col)
            return;
    L.text = kc_cuda_span_text(x->t, L.span);
    if (!spelled_in_place(lit)) {
        /* from a macro: the literal as its definition spells it */
        CXFile f = NULL;
        unsigned off = 0;
        clang_getSpellingLocation(clang_getCursorLocation(lit), &f, NULL, NULL, &off);
        size_t size = 0;
        const char *text = f ? clang_getFileContents(x->t->tu, f, &size) : NULL;
        if (text && off < size) {
            size_t e = off;
            while (e < size && e - off < 64 &&
                   (isalnum((unsigned char)text[e]) || text[e] == '.' || text[e] == '\'' ||
                    ((text[e] == '+' || text[e] == '-') && e > off && (text[e - 1] == 'e' || text[e - 1] == 'E'))))
                e++;
            if (e > off) {
                L.text = kc_arena_printf(x->a, "%.*s", (int)(e - off), text + off);
                L.macro = kc_cuda_span_text(x->t, L.span);
            }
        }
    }
    L.context_span = kc_cuda_span(x->t, context);
    L.context = kc_cuda_span_text(x->t, L.context_span);
    L.loop = innermost_loop(x);
    if (spelled_in_place(lit) && L.text[0]) {
        size_t n = strlen(L.text);
        char last = L.text[n - 1];
        double v = strtod(L.text, NULL);
        bool digits_only = strspn(L.text, "0123456789.eE+-xXpPabcdefABCDEF'") == n;
        if (digits_only && last != 'f' && last != 'F' && last != 'l' && last != 'L' && isfinite(v) &&
            fabs(v) <= FLT_MAX)
            L.fix_text = kc_arena_printf(x->a, "%sf", L.text);
    }
    kc_vec_push(&x->k->literals, L);
}

/* The literal's value, read from its text. */
static bool literal_value(facts_ctx *x, CXCursor lit, double *v)
{
    kc_span sp = kc_cuda_span(x->t, strip_parens(lit));
    const char *t = kc_span_valid(sp) ? kc_cuda_span_text(x->t, sp) : NULL;
    if (!t || !*t)
        return false;
    /* a sign written apart from its literal (`- 0.5`), which strtod refuses */
    double sign = 1.0;
    while (*t == '-' || *t == '+' || *t == ' ' || *t == '\t') {
        if (*t == '-')
            sign = -sign;
        t++;
    }
    char *end = NULL;
    *v = sign * strtod(t, &end);
    return end != t;
}

/* The literal's value is a float exactly (0.5, 2.0, 3.0, not 0.1). */
static bool exact_in_float(facts_ctx *x, CXCursor lit)
{
    double v;
    return literal_value(x, lit, &v) && isfinite(v) && fabs(v) <= FLT_MAX && (double)(float)v == v;
}

/* An operand of float type promoted to double for the operation (not a
 * double expression of floats). */
static bool promoted_float(CXCursor c)
{
    c = strip_parens(c);
    if (c.kind != CXCursor_UnexposedExpr || ckind(c) != CXType_Double)
        return ckind(c) == CXType_Float;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    bool f = k.n == 1 && ckind(strip_parens(k.v[0])) == CXType_Float;
    kc_cuda_kids_free(&k);
    return f;
}

/* One + - * / of a float and a literal exact in float whose double result
 * goes straight into a float (`float inv = 1. / n;`, `f /= 2.0`): the
 * double-rounded result is the float one (double has more than twice
 * float's bits), and nvcc -O3 emits the float instruction (div.rn.f32,
 * mul.f32 in PTX): no double arithmetic runs. */
/* The stack index of the nearest enclosing expression of stack[j] that is
 * not a parenthesis, or UINT_MAX. */
static unsigned parent_at(const facts_ctx *x, unsigned j)
{
    while (j-- > 0)
        if (x->stack[j].kind != CXCursor_ParenExpr)
            return j;
    return UINT_MAX;
}

/* A conversion (implicit or a cast) to float. */
static bool to_float(CXCursor p)
{
    return (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_CStyleCastExpr ||
            p.kind == CXCursor_CXXStaticCastExpr || p.kind == CXCursor_CXXFunctionalCastExpr) &&
           ckind(p) == CXType_Float;
}

static bool narrowed_by_compiler(facts_ctx *x, CXCursor e, CXCursor other, CXCursor lit)
{
    if (!exact_in_float(x, lit) || !promoted_float(other))
        return false;
    if (e.kind == CXCursor_CompoundAssignOperator)
        return true;
    unsigned j = parent_at(x, x->depth - 1);
    /* an arm of `c ? 0.0 : 1.0 / z` whose value goes into a float: narrowed
     * the same (nvcc -O3: rcp.rn.f32, DROID-SLAM's projective transform) */
    while (j != UINT_MAX && x->stack[j].kind == CXCursor_ConditionalOperator)
        j = parent_at(x, j);
    return j != UINT_MAX && to_float(x->stack[j]);
}


/* `-1.0 * a * b` into a float (a, b floats): the product with the unit
 * literal is a float's value exactly, the product of two float values is
 * exact in double (48 of its 53 bits), and rounding that once to float is
 * the float product: nvcc -O3 computes the chain in fp32 (no f64 in the
 * PTX of `ok_narrowed_by_nvcc.cu`). e is the unit-literal product. */
static bool unit_chain_narrowed(facts_ctx *x, CXCursor e, CXCursor other, CXCursor lit)
{
    double v;
    if (clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Mul || !literal_value(x, lit, &v) ||
        fabs(v) != 1.0 || !promoted_float(other))
        return false;
    unsigned j = parent_at(x, x->depth - 1);
    if (j == UINT_MAX)
        return false;
    CXCursor p = x->stack[j], pl, pr;
    if (p.kind != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(p) != CXBinaryOperator_Mul ||
        !two_kids(p, &pl, &pr))
        return false;
    CXCursor f = clang_equalCursors(strip_parens(pl), e) ? pr : pl;
    if (!promoted_float(f))
        return false;
    j = parent_at(x, j);
    return j != UINT_MAX && to_float(x->stack[j]);
}

/* The first double literal of a constant expression of literals
 * (`M_SQRT2 * M_2_SQRTPI * 0.5f`, from nested macros), or a null cursor. */
static CXCursor first_double_literal(CXCursor c, unsigned depth)
{
    c = strip_parens(c);
    if (is_double_literal(c) || depth > 16)
        return is_double_literal(c) ? c : clang_getNullCursor();
    if (c.kind != CXCursor_BinaryOperator && c.kind != CXCursor_UnexposedExpr && c.kind != CXCursor_UnaryOperator)
        return clang_getNullCursor();
    return kc_cuda_first_in_kids(c, first_double_literal, depth + 1);
}

/* A double literal, or a double constant computed from literals with one
 * among them (the compiler folds it into one double constant). */
static bool double_constant(facts_ctx *x, CXCursor c, CXCursor *lit)
{
    c = strip_parens(c);
    *lit = c;
    if (is_double_literal(c))
        return true;
    if (c.kind != CXCursor_BinaryOperator || ckind(c) != CXType_Double || fd_class(x, c, 0) != FD_LITERAL)
        return false;
    *lit = first_double_literal(c, 0);
    return !clang_Cursor_isNull(*lit);
}

/* Every double literal of a constant folded from literals (`1.88494 /
 * 2.0`): each needs the f suffix, or the constant stays double (`1.88494f
 * / 2.0` is still a double, and so is its product with a float). */
static void add_folded_literals(facts_ctx *x, CXCursor c, CXCursor e, unsigned depth)
{
    c = strip_parens(c);
    if (depth > 16)
        return;
    if (is_double_literal(c)) {
        add_literal(x, c, e);
        return;
    }
    if (c.kind != CXCursor_BinaryOperator && c.kind != CXCursor_UnexposedExpr && c.kind != CXCursor_UnaryOperator)
        return;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        add_folded_literals(x, k.v[i], e, depth + 1);
    kc_cuda_kids_free(&k);
}

/* x op lit, lit op x, f op= lit (lit: a double literal or a constant
 * folded from literals, one of them double). */
static void check_binary(facts_ctx *x, CXCursor e)
{
    CXCursor l, r;
    if (!two_kids(e, &l, &r))
        return;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
    if (e.kind == CXCursor_CompoundAssignOperator) {
        if (is_arith_assign(op) && ckind(l) == CXType_Float && is_double_literal(r) &&
            !narrowed_by_compiler(x, e, l, r)) {
            uint32_t before = x->k->literals.len;
            add_literal(x, r, e);
            if (x->k->literals.len > before) {
                x->k->literals.data[before].fp64_ops = 1;
                x->k->literals.data[before].fp64_costly = op == CXBinaryOperator_DivAssign;
            }
        }
        return;
    }
    if (!is_arith_op(op) || ckind(e) != CXType_Double)
        return;
    CXCursor llit, rlit;
    bool ll = double_constant(x, l, &llit), rl = double_constant(x, r, &rlit);
    if (ll == rl)
        return;
    if (fd_class(x, ll ? r : l, 0) != FD_FLOAT || !sinks_to_float(x, x->depth - 1))
        return;
    /* a constant expression (`-0.000685871056241 * (0.5f * 8)` initializing
     * a constexpr float) is folded by the compiler: no fp64 at run time */
    if (kc_cuda_eval_constant(e))
        return;
    /* beside a math call that is double already (pow(float, int), exp
     * resolved to the double function) the literal converts nothing now;
     * it keeps the arithmetic in fp64 once the call is float */
    CXCursor call = written_expr(ll ? r : l);
    bool beside = call.kind == CXCursor_CallExpr && (pow_float_int(x, call) || ckind(call) == CXType_Double);
    /* only a literal on its own is known to be exact in float; a folded
     * constant (M_SQRT2 * 0.5f) is taken not to be */
    bool lone = ll ? is_double_literal(l) : is_double_literal(r);
    if (lone && (narrowed_by_compiler(x, e, ll ? r : l, ll ? llit : rlit) ||
                 unit_chain_narrowed(x, e, ll ? r : l, ll ? llit : rlit)))
        return;
    uint32_t before = x->k->literals.len;
    if (lone)
        add_literal(x, ll ? llit : rlit, e);
    else
        add_folded_literals(x, ll ? l : r, e, 0);
    for (uint32_t i = before; i < x->k->literals.len; i++)
        fp64_chain(x, x->depth - 1, op == CXBinaryOperator_Div, &x->k->literals.data[i]);
    if (beside && x->k->literals.len > before)
        x->k->literals.data[before].beside_call = kc_cuda_span_text(x->t, kc_cuda_span(x->t, call));
}

/* An expression as written (before conversions clang put around it, to
 * a parameter's type or an operator's). */
static CXCursor written_expr(CXCursor a)
{
    for (int i = 0; i < 16; i++) {
        a = strip_parens(a);
        if (a.kind != CXCursor_UnexposedExpr)
            break;
        kc_cuda_kids k;
        kc_cuda_kids_get(a, &k);
        CXCursor n = k.n == 1 ? k.v[0] : a;
        kc_cuda_kids_free(&k);
        if (clang_equalCursors(n, a))
            break;
        a = n;
    }
    return a;
}

static enum CXTypeKind written_kind(CXCursor a) { return ckind(written_expr(a)); }

static bool int_kind(enum CXTypeKind t)
{
    return t == CXType_Int || t == CXType_UInt || t == CXType_Long || t == CXType_ULong || t == CXType_LongLong ||
           t == CXType_ULongLong || t == CXType_Short || t == CXType_UShort;
}

/* exp(...) resolving to the double function with float data for argument;
 * pow(float, int), which the C++ library's pow(T, U) template promotes to
 * double. */
static void check_math_call(facts_ctx *x, CXCursor e)
{
    CXCursor cref;
    const char *name = callee_of(x, e, &cref);
    int na = clang_Cursor_getNumArguments(e);
    bool pow_int = pow_float_int(x, e);
    if (!pow_int) {
        if (ckind(e) != CXType_Double)
            return;
        if (!is_math_name(name) || clang_Cursor_isNull(clang_getCursorReferenced(e)))
            return;
        int cls = FD_LITERAL;
        for (int i = 0; i < na; i++)
            cls = fd_join(cls, fd_class(x, clang_Cursor_getArgument(e, (unsigned)i), 0));
        if (cls != FD_FLOAT || !sinks_to_float(x, x->depth - 1))
            return;
    }
    kc_call c;
    memset(&c, 0, sizeof c);
    c.span = kc_cuda_span(x->t, e);
    if (!kc_span_valid(c.span))
        return;
    c.callee = name;
    c.flags = KC_CALL_DOUBLE_MATH | KC_CALL_DEVICE | (pow_int ? KC_CALL_POW_INT : 0);
    c.guard = KC_NONE;
    c.loop = innermost_loop(x);
    c.seq = KC_NONE;
    if (!clang_Cursor_isNull(cref)) {
        c.callee_span = kc_cuda_span(x->t, cref);
        if (kc_span_valid(c.callee_span) && spelled_in_place(cref))
            c.fix_text = kc_arena_printf(x->a, "%sf", name);
    }
    if (na >= 1)
        c.arg0_span = kc_cuda_span(x->t, clang_Cursor_getArgument(e, 0));
    kc_vec_push(&x->k->calls, c);
}

/* ---- low-precision accumulators --------------------------------------------------- */

/* The low-precision type name of a variable's (element) type, or NULL. */
static const char *lowp_name(CXType t)
{
    CXType c = clang_getCanonicalType(kc_cuda_ty_innermost(t));
    if (c.kind == CXType_Half || c.kind == CXType_Float16)
        return "half";
    if (c.kind == CXType_BFloat16)
        return "bfloat16";
    if (c.kind != CXType_Record)
        return NULL;
    CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(c));
    const char *p = clang_getCString(s);
    const char *r = NULL;
    static const char *const names[] = {"__half2", "__half", "__nv_bfloat162", "__nv_bfloat16", "c10::Half",
                                        "c10::BFloat16"};
    for (size_t i = 0; p && !r && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(p, names[i]) == 0 || (strncmp(p, "const ", 6) == 0 && strcmp(p + 6, names[i]) == 0))
            r = names[i];
    clang_disposeString(s);
    return r;
}

/* Strips copies of class values (`__half` passed by value: a copy
 * constructor call around the variable). */
static CXCursor strip_copies(CXCursor c)
{
    for (int i = 0; i < 8; i++) {
        c = kc_cuda_strip(c);
        if (c.kind != CXCursor_CallExpr)
            break;
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(ref) || ref.kind != CXCursor_Constructor || clang_Cursor_getNumArguments(c) != 1)
            break;
        c = clang_Cursor_getArgument(c, 0);
    }
    return c;
}

/* The local variable an lvalue names (`acc`, `acc[i]`), or a null cursor. */
static CXCursor lvalue_var(CXCursor c)
{
    c = strip_copies(c);
    if (c.kind == CXCursor_ArraySubscriptExpr) {
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        CXCursor b = k.n == 2 ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        c = b;
    }
    if (c.kind != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(c);
    if (d.kind != CXCursor_VarDecl || kc_cuda_has_attr(d, CXCursor_CUDASharedAttr) ||
        kc_cuda_has_attr(d, CXCursor_CUDADeviceAttr) || kc_cuda_has_attr(d, CXCursor_CUDAConstantAttr))
        return clang_getNullCursor();
    enum CXCursorKind pk = clang_getCursorSemanticParent(d).kind;
    if (pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace || pk == CXCursor_StructDecl ||
        pk == CXCursor_ClassDecl)
        return clang_getNullCursor();
    return d;
}

static bool refers_to(CXCursor e, CXCursor var)
{
    CXCursor d = lvalue_var(e);
    return !clang_Cursor_isNull(d) && clang_equalCursors(d, var);
}

/* The span of the declared type of `var` (`__half` in `__half acc = 0`). */
static kc_span decl_type_span(facts_ctx *x, CXCursor var)
{
    kc_span none = {0};
    kc_span whole = kc_cuda_span(x->t, var);
    uint32_t l, c, o;
    if (!kc_span_valid(whole) || !kc_cuda_loc_in_main(x->t, clang_getCursorLocation(var), &l, &c, &o))
        return none;
    size_t a, b;
    kc_cuda_span_offsets(x->t, whole, &a, &b);
    if (o <= a || o > x->t->src->len)
        return none;
    size_t e = o;
    while (e > a && (x->t->src->text[e - 1] == ' ' || x->t->src->text[e - 1] == '\t'))
        e--;
    kc_span s = {whole.line, whole.col, 0, 0};
    kc_source_position(x->t->src, e, &s.end_line, &s.end_col);
    return s;
}

/* The operand's text converted to float for a widened accumulator, or
 * KC_ACCUM_UNFIXABLE when it is not spelled in the file (a macro). */
static const char *float_operand(facts_ctx *x, CXCursor operand, kc_span *span)
{
    *span = kc_cuda_span(x->t, operand);
    if (clang_Cursor_isNull(operand) || !kc_span_valid(*span) || !spelled_in_place(operand))
        return KC_ACCUM_UNFIXABLE;
    const char *t = kc_cuda_span_text(x->t, *span);
    if (!t || !*t)
        return KC_ACCUM_UNFIXABLE;
    return kc_arena_printf(x->a, "static_cast<float>(%s)", t);
}

/* `operand`: in operator form, what the statement adds to the accumulator
 * (null cursor otherwise). */
static bool cursor_within(CXCursor outer, unsigned off)
{
    CXSourceRange r = clang_getCursorExtent(outer);
    unsigned s = 0, e = 0;
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &s);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
    return off >= s && off < e;
}

/* `lhs` is an element of an array picked by a variable declared in `loop`
 * (its induction variable, `loaded[i] = __hfma2(loaded[i], s, z)`): each
 * pass updates another element, nothing is summed across passes. */
static bool element_per_pass(CXCursor lhs, CXCursor loop)
{
    CXCursor c = strip_copies(lhs);
    if (c.kind != CXCursor_ArraySubscriptExpr)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    CXCursor ix = k.n == 2 ? strip_copies(k.v[1]) : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    if (ix.kind != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(ix);
    return d.kind == CXCursor_VarDecl && cursor_within(loop, kc_cuda_cursor_off(d));
}

/* Does the subtree of `c` name `var`? */
static bool mentions(CXCursor c, CXCursor var, int depth)
{
    if (depth > 64 || clang_Cursor_isNull(c))
        return false;
    if (c.kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), var))
        return true;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    bool yes = false;
    for (unsigned i = 0; i < k.n && !yes; i++)
        yes = mentions(k.v[i], var, depth + 1);
    kc_cuda_kids_free(&k);
    return yes;
}

/* Does statement `c` give `var` a new value without reading it: `var =
 * e` with `e` not naming it, or a call that takes `&var` (an out-pointer:
 * `complex_mul(a, b, &z_re, &z_im)`)? */
static bool overwrites(CXCursor c, CXCursor var)
{
    c = kc_cuda_strip(c);
    CXCursor l, r;
    if (c.kind == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign &&
        two_kids(c, &l, &r))
        return refers_to(l, var) && strip_copies(l).kind == CXCursor_DeclRefExpr && !mentions(r, var, 0);
    if (c.kind == CXCursor_CallExpr) {
        int na = clang_Cursor_getNumArguments(c);
        /* a class's assignment operator: `res2 = {};` of a `half2` */
        CXString sp = clang_getCursorSpelling(c);
        bool assign_op = clang_getCString(sp) && strcmp(clang_getCString(sp), "operator=") == 0;
        clang_disposeString(sp);
        if (assign_op && na == 2) {
            CXCursor lhs = clang_Cursor_getArgument(c, 0), rhs = clang_Cursor_getArgument(c, 1);
            return refers_to(lhs, var) && strip_copies(lhs).kind == CXCursor_DeclRefExpr && !mentions(rhs, var, 0);
        }
        for (int i = 0; i < na; i++) {
            CXCursor a = kc_cuda_strip(clang_Cursor_getArgument(c, (unsigned)i));
            if (a.kind != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(a) != CXUnaryOperator_AddrOf)
                continue;
            kc_cuda_kids k;
            kc_cuda_kids_get(a, &k);
            bool hit = k.n == 1 && kc_cuda_same_decl(kc_cuda_referenced_decl(k.v[0]), var);
            kc_cuda_kids_free(&k);
            if (hit)
                return true;
        }
    }
    return false;
}

/* In the statements of `block` run on the way to offset `off`, is `var`
 * given a new value before it: by a statement of the block itself, or of
 * the compound or branch (`if`/`else`) that holds `off`? */
static bool reset_before(CXCursor block, CXCursor var, unsigned off, int depth)
{
    if (depth > 32 || clang_Cursor_isNull(block))
        return false;
    if (block.kind == CXCursor_IfStmt) {
        kc_cuda_kids k;
        kc_cuda_kids_get(block, &k);
        bool yes = false;
        for (unsigned i = 1; i < k.n && !yes; i++) /* the branches, after the condition */
            if (cursor_within(k.v[i], off))
                yes = reset_before(k.v[i], var, off, depth + 1);
        kc_cuda_kids_free(&k);
        return yes;
    }
    if (block.kind != CXCursor_CompoundStmt)
        return false;
    kc_cuda_kids b;
    kc_cuda_kids_get(block, &b);
    bool yes = false;
    for (unsigned i = 0; i < b.n && !yes; i++) {
        if (cursor_within(b.v[i], off)) {
            yes = reset_before(b.v[i], var, off, depth + 1);
            break;
        }
        if (kc_cuda_cursor_off(b.v[i]) >= off)
            break;
        yes = overwrites(b.v[i], var);
    }
    kc_cuda_kids_free(&b);
    return yes;
}

/* Is `var` given a new value in every pass of `loop` before offset `off`,
 * on the way to it (not under a condition the statement at `off` is not
 * under)? Then what that statement adds to it is no sum across passes. */
static bool reset_in_pass(CXCursor loop, CXCursor var, unsigned off)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(loop, &k);
    CXCursor body = k.n ? k.v[k.n - 1] : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    return reset_before(body, var, off, 0);
}

static void add_accum(facts_ctx *x, CXCursor stmt, CXCursor lhs, CXCursor var, kc_accum_kind kind,
                      bool operator_form, CXCursor operand)
{
    const char *lp = lowp_name(clang_getCursorType(var));
    if (!lp || x->nloops == 0)
        return;
    /* The loop it accumulates across: the innermost one that does not hold
     * the declaration; it goes on accumulating across every enclosing loop
     * that does not hold it either. */
    unsigned var_off = kc_cuda_cursor_off(var);
    int li = -1;
    for (unsigned i = x->nloops; i-- > 0;) {
        if (!cursor_within(x->loop_cur[i], var_off)) {
            li = (int)i;
            break;
        }
    }
    if (li < 0 || element_per_pass(lhs, x->loop_cur[li]) ||
        reset_in_pass(x->loop_cur[li], var, kc_cuda_cursor_off(stmt)))
        return;
    int lo = li;
    while (lo > 0 && !cursor_within(x->loop_cur[lo - 1], var_off))
        lo--;
    const char *name = kc_cuda_spelling(x->t, var);
    kc_accum A;
    memset(&A, 0, sizeof A);
    A.span = kc_cuda_span(x->t, stmt);
    if (!kc_span_valid(A.span))
        return;
    A.decl_span = decl_type_span(x, var);
    A.var = name;
    A.dtype = lp;
    A.kind = kind;
    A.loop = x->loop_id[li];
    A.outer_loop = x->loop_id[lo];
    for (int j = lo; j <= li; j++)
        A.passes_unknown |= x->loop_id[j] == KC_NONE;
    /* __hadd(acc, x) stays half whatever acc is: no widening fix-it. */
    A.operand_fix = operator_form ? float_operand(x, operand, &A.operand_span) : KC_ACCUM_UNFIXABLE;
    for (uint32_t i = 0; i < x->k->accums.len; i++) {
        kc_accum *q = &x->k->accums.data[i];
        if (q->var && strcmp(q->var, name) == 0 && q->decl_span.line == kc_cuda_span(x->t, var).line &&
            q->decl_span.col == A.decl_span.col) {
            /* Another statement of the same accumulator: the rule notes it
             * and its edit joins the first one's fix-it. */
            if (q->span.line == A.span.line && q->span.col == A.span.col)
                return;
            kc_vec_push(&x->k->accums, A);
            return;
        }
    }
    const char *tt = kc_span_valid(A.decl_span) ? kc_cuda_span_text(x->t, A.decl_span) : "";
    bool scalar_type = strcmp(tt, "__half") == 0 || strcmp(tt, "half") == 0 || strcmp(tt, "__nv_bfloat16") == 0 ||
                       strcmp(tt, "nv_bfloat16") == 0;
    if (scalar_type && operator_form && spelled_in_place(var))
        A.fix_text = "float";
    kc_vec_push(&x->k->accums, A);
}

static bool name_is(const char *n, const char *const *names, size_t nn)
{
    for (size_t i = 0; i < nn; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return false;
}

/* acc += x, acc = acc + x, acc = __hadd(acc, x), acc = __hfma(a, b, acc). */
static void check_accum(facts_ctx *x, CXCursor e)
{
    if (x->nloops == 0)
        return;
    CXCursor lhs = clang_getNullCursor(), rhs = clang_getNullCursor();
    bool compound = false, assign = false;
    if (e.kind == CXCursor_CompoundAssignOperator) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
        compound = op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign;
        if (!compound || !two_kids(e, &lhs, &rhs))
            return;
    } else if (e.kind == CXCursor_BinaryOperator) {
        if (clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Assign || !two_kids(e, &lhs, &rhs))
            return;
        assign = true;
    } else if (e.kind == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 2) {
        CXCursor cref;
        const char *n = callee_of(x, e, &cref);
        compound = strcmp(n, "operator+=") == 0 || strcmp(n, "operator-=") == 0;
        assign = strcmp(n, "operator=") == 0;
        if (!compound && !assign)
            return;
        lhs = clang_Cursor_getArgument(e, 0);
        rhs = clang_Cursor_getArgument(e, 1);
    } else {
        return;
    }
    CXCursor var = lvalue_var(lhs);
    if (clang_Cursor_isNull(var))
        return;
    if (compound) {
        add_accum(x, e, lhs, var, KC_ACCUM_SUM, true, rhs);
        return;
    }
    /* acc = <something of acc> */
    CXCursor r = strip_copies(rhs);
    if (r.kind == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(r);
        CXCursor a, b;
        if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && two_kids(r, &a, &b) &&
            (refers_to(a, var) || (op == CXBinaryOperator_Add && refers_to(b, var))))
            add_accum(x, e, lhs, var, KC_ACCUM_SUM, true, refers_to(a, var) ? b : a);
        return;
    }
    if (r.kind != CXCursor_CallExpr)
        return;
    CXCursor cref;
    const char *n = callee_of(x, r, &cref);
    static const char *const sums[] = {"operator+", "operator-", "__hadd", "__hadd2", "__hsub", "__hsub2",
                                       "__hadd_sat", "__hadd2_sat", "__hadd_rn", "__hadd2_rn"};
    static const char *const dots[] = {"__hfma", "__hfma2", "__hfma_sat", "__hfma2_sat", "__hfma_relu",
                                       "__hfma2_relu", "fma"};
    bool sum = name_is(n, sums, sizeof sums / sizeof sums[0]);
    bool dot = name_is(n, dots, sizeof dots / sizeof dots[0]);
    if (!sum && !dot)
        return;
    int na = clang_Cursor_getNumArguments(r);
    for (int i = 0; i < na; i++)
        if (refers_to(clang_Cursor_getArgument(r, (unsigned)i), var)) {
            /* operator+(acc, x): the other argument is what is added. */
            CXCursor other = na == 2 ? clang_Cursor_getArgument(r, i == 0 ? 1u : 0u) : clang_getNullCursor();
            add_accum(x, e, lhs, var, dot ? KC_ACCUM_DOT : KC_ACCUM_SUM, strncmp(n, "operator", 8) == 0, other);
            return;
        }
}

/* ---- the visit --------------------------------------------------------------------- */

static bool is_loop_stmt(CXCursor c)
{
    return c.kind == CXCursor_ForStmt || c.kind == CXCursor_WhileStmt || c.kind == CXCursor_DoStmt ||
           c.kind == CXCursor_CXXForRangeStmt;
}

static uint32_t loop_id_of(facts_ctx *x, CXCursor s)
{
    kc_span sp = kc_cuda_span(x->t, s);
    if (!kc_span_valid(sp))
        return KC_NONE;
    for (uint32_t i = 0; i < x->k->loops.len; i++)
        if (x->k->loops.data[i].span.line == sp.line && x->k->loops.data[i].span.col == sp.col)
            return i;
    return KC_NONE;
}

static void visit(facts_ctx *x, CXCursor c)
{
    if (x->depth >= FACTS_MAX_DEPTH || x->budget == 0)
        return;
    x->budget--;
    x->stack[x->depth++] = c;
    bool loop = is_loop_stmt(c) && x->nloops < FACTS_MAX_LOOPS;
    if (loop) {
        x->loop_cur[x->nloops] = c;
        x->loop_id[x->nloops] = loop_id_of(x, c);
        x->nloops++;
    }
    switch (c.kind) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        check_binary(x, c);
        check_accum(x, c);
        break;
    case CXCursor_CallExpr:
        check_math_call(x, c);
        check_accum(x, c);
        break;
    default:
        break;
    }
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    for (unsigned i = 0; i < k.n; i++)
        visit(x, k.v[i]);
    kc_cuda_kids_free(&k);
    if (loop)
        x->nloops--;
    x->depth--;
}

void kc_cuda_device_facts(kc_cuda_tu *t, CXCursor fn, kc_kernel *k)
{
    facts_ctx *x = kc_xcalloc(1, sizeof *x);
    x->t = t;
    x->k = k;
    x->a = t->m->arena;
    x->budget = FACTS_BUDGET;
    kc_cuda_kids kids;
    kc_cuda_kids_get(fn, &kids);
    for (unsigned i = 0; i < kids.n; i++)
        if (kids.v[i].kind == CXCursor_CompoundStmt)
            visit(x, kids.v[i]);
    kc_cuda_kids_free(&kids);
    free(x);
}

/* ---- bounds checks ------------------------------------------------------------------- */

static bool varies(kc_deps d) { return d.axes || (d.flags & (KC_AF_THREAD | KC_AF_PROGRAM)); }

/* Does a bound vary along what the index it bounds varies along? A bound
 * loaded per sample (`actual_t = xn[blockIdx.z]`) varies across blocks of
 * z, not along the threads and blocks of x that tile the index, so for
 * each of those it is one size. Where the grid axis of either is not
 * known, it may. */
static bool varies_with(kc_deps bound, kc_deps index)
{
    if (!varies(bound))
        return false;
    if ((bound.axes & index.axes) || ((bound.flags & KC_AF_THREAD) && !bound.axes))
        return true;
    if (bound.flags & KC_AF_PROGRAM)
        return !bound.programs || !index.programs || (bound.programs & index.programs);
    return false;
}

/* Does `x` contain an atom that varies across threads or blocks and that
 * also occurs in `off`? */
static bool shares_thread_atom(const kc_index *x, const kc_index *off)
{
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (!(a->axes || (a->flags & (KC_AF_THREAD | KC_AF_PROGRAM))))
                continue;
            for (unsigned j = 0; j < off->nmono; j++)
                for (unsigned g = 0; g < off->mono[j].nfac; g++)
                    if (off->mono[j].fac[g].kind == a->kind && off->mono[j].fac[g].id == a->id)
                        return true;
        }
    return false;
}

void kc_cuda_bounds_checks(kc_kernel *k)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        kc_access *a = &k->accesses.data[i];
        if (!a->offset)
            continue;
        unsigned hops = 0;
        for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000 && !a->bounds_checked;
             c = k->conds.data[c].parent) {
            const kc_cond *cd = &k->conds.data[c];
            for (uint32_t p = 0; p < cd->npreds && !a->bounds_checked; p++) {
                const kc_pred *pr = &cd->preds[p];
                if ((!pr->lhs && !pr->rhs) || pr->op == KC_CMP_EQ || pr->op == KC_CMP_NE)
                    continue;
                bool up_l = pr->op == KC_CMP_LT || pr->op == KC_CMP_LE;
                /* index < a bound kcheck cannot read (`j < _PB_M`, a macro
                 * from a header it did not find): a bound all the same */
                if (!pr->lhs || !pr->rhs) {
                    const kc_index *known = pr->lhs ? pr->lhs : pr->rhs;
                    if ((pr->lhs ? up_l : !up_l) && varies(kc_index_deps(known)) && shares_thread_atom(known, a->offset))
                        a->bounds_checked = true;
                    continue;
                }
                kc_deps dl = kc_index_deps(pr->lhs), dr = kc_index_deps(pr->rhs);
                /* an upper bound: index < size, size > index */
                const kc_index *side = varies(dl) && !varies_with(dr, dl) && up_l    ? pr->lhs
                                       : varies(dr) && !varies_with(dl, dr) && !up_l ? pr->rhs
                                                                                     : NULL;
                if (side && shares_thread_atom(side, a->offset))
                    a->bounds_checked = true;
            }
        }
    }
}
