/* cuda_use.c — how the host code uses the value of a call: discarded,
 * tested, cast to void, polled, stored in a variable nothing reads; and
 * the calls and macros around it (internal to the CUDA front end; called
 * by cuda_host.c). */
#include "cuda_use.h"
#include "cuda_errcheck.h"

#include <ctype.h>
#include <string.h>

/* Is `c` written in the body of a macro rather than by the code that uses
 * the macro? An argument of the macro is spelled in the main file after the
 * macro's name; the body is spelled at the #define (another file, or above
 * the use). */
bool kc_cuda_in_macro_body(CXCursor c)
{
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
    CXFile f1 = NULL, f2 = NULL;
    unsigned o1 = 0, o2 = 0;
    clang_getExpansionLocation(loc, &f1, NULL, NULL, &o1);
    clang_getSpellingLocation(loc, &f2, NULL, NULL, &o2);
    if (!f1 || !f2 || (clang_File_isEqual(f1, f2) && o1 == o2))
        return false;
    return !clang_File_isEqual(f1, f2) || o2 < o1;
}

/* A call clang could not resolve (a macro or function from a header that
 * is missing): an unexposed expression spelled `NAME(...)` around its
 * arguments. Returns NAME, or NULL. */
const char *kc_cuda_recovered_call(kc_cuda_tu *t, CXCursor c)
{
    if (c.kind != CXCursor_UnexposedExpr)
        return NULL;
    kc_span sp = kc_cuda_span(t, c);
    if (!kc_span_valid(sp))
        return NULL;
    /* its first child names the callee, where the expression starts */
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    bool callee = false;
    CXString fname = {0};
    if (k.n >= 1) {
        CXCursor f = k.v[0];
        kc_span cs = kc_cuda_span(t, f);
        callee = (f.kind == CXCursor_DeclRefExpr || f.kind == CXCursor_OverloadedDeclRef) && kc_span_valid(cs) &&
                 cs.line == sp.line && cs.col == sp.col;
        if (callee)
            fname = clang_getCursorSpelling(f);
    }
    kc_cuda_kids_free(&k);
    if (!callee)
        return NULL;
    size_t a, b;
    kc_cuda_span_offsets(t, sp, &a, &b);
    const char *s = t->src->text;
    size_t e = a;
    while (e < b && (isalnum((unsigned char)s[e]) || s[e] == '_'))
        e++;
    /* the text there must be the name the child refers to: inside a macro
     * every node maps to the macro's name (`cudaCheck(` for the `buf` of
     * `cudaCheck(cudaMemset(buf, 0, n))`) */
    const char *fn = clang_getCString(fname);
    bool same = !fn || !*fn || (strlen(fn) == e - a && !strncmp(fn, s + a, e - a)); /* unresolved: no spelling */
    clang_disposeString(fname);
    if (e == a || e - a > 128 || isdigit((unsigned char)s[a]) || !same)
        return NULL;
    size_t p = e;
    while (p < b && (s[p] == ' ' || s[p] == '\t'))
        p++;
    if (p >= b || s[p] != '(')
        return NULL;
    return kc_arena_strndup(t->m->arena, s + a, e - a);
}

bool kc_cuda_returns_cuda_error(CXCursor call)
{
    CXType t = clang_getCursorType(call);
    /* a call with a dependent argument in a template (`cudaMemcpy(v.data(),
     * ...)`): the type its function returns */
    if (t.kind == CXType_Dependent) {
        CXCursor ref = kc_cuda_callee_decl(call);
        if (ref.kind == CXCursor_FunctionDecl)
            t = clang_getCursorResultType(ref);
    }
    CXString s = clang_getTypeSpelling(t);
    const char *p = clang_getCString(s);
    bool yes = p && (strcmp(p, "cudaError_t") == 0 || strcmp(p, "cudaError") == 0 || strcmp(p, "enum cudaError") == 0);
    clang_disposeString(s);
    if (!yes) {
        CXString c = clang_getTypeSpelling(clang_getCanonicalType(t));
        const char *q = clang_getCString(c);
        yes = q && (strcmp(q, "cudaError") == 0 || strcmp(q, "enum cudaError") == 0);
        clang_disposeString(c);
    }
    return yes;
}

/* Is `op` (the parent of `operand`) `== cudaErrorNotReady` or `!=` it?
 * `while (cudaStreamQuery(s) == cudaErrorNotReady)` waits on a status: an
 * error ends the wait as quietly as success, so it is no error check. */
static bool polls(CXCursor op, CXCursor operand)
{
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(op);
    if (k != CXBinaryOperator_EQ && k != CXBinaryOperator_NE)
        return false;
    kc_cuda_kids kids;
    kc_cuda_kids_get(op, &kids);
    bool r = false;
    for (unsigned i = 0; i < kids.n && kids.n == 2; i++) {
        if (clang_equalCursors(kids.v[i], operand))
            continue;
        CXCursor ref = clang_getCursorReferenced(kc_cuda_strip(kids.v[i]));
        if (ref.kind == CXCursor_EnumConstantDecl) {
            CXString n = clang_getCursorSpelling(ref);
            r = strcmp(clang_getCString(n), "cudaErrorNotReady") == 0;
            clang_disposeString(n);
        }
    }
    kc_cuda_kids_free(&kids);
    return r;
}

/* Is the local `var` named again in its function, after its declaration
 * (read, or passed on)? A result stored in a variable nothing names
 * (`cudaError_t status_ = ...` with the check after it commented out) is
 * not used. Read from the file's tokens, not the syntax tree: a statement
 * that reads it may be one the parse dropped (`if (e != cudaSuccess) return
 * ncclSystemError;` with nccl's header missing). */
static bool var_named_so(kc_cuda_tu *t, CXCursor var, bool reads)
{
    CXCursor fn = clang_getCursorSemanticParent(var);
    CXSourceRange r = clang_getCursorExtent(fn);
    unsigned a = 0, b = 0, at = 0;
    CXFile fa = NULL, fb = NULL;
    clang_getExpansionLocation(clang_getRangeStart(r), &fa, NULL, NULL, &a);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fb, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getCursorLocation(var), NULL, NULL, NULL, &at);
    if (!fa || !fb || b <= a)
        return true;
    kc_cuda_toks tk;
    kc_cuda_main_toks(t, a, b, &tk);
    const char *name = kc_cuda_spelling(t, var);
    for (unsigned i = 0; i < tk.n; i++)
        if (kc_cuda_tok_off(&tk, i, NULL) > at && kc_cuda_tok_is(&tk, i, name) &&
            !(reads && i + 1 < tk.n && kc_cuda_tok_is(&tk, i + 1, "=")))
            return true;
    return false;
}

static bool var_named(kc_cuda_tu *t, CXCursor var) { return var_named_so(t, var, false); }

/* The same, leaving out where it is only assigned (`err = ...`): is it
 * ever read? */
static bool var_read(kc_cuda_tu *t, CXCursor var) { return var_named_so(t, var, true); }

/* Is `c` an argument of `p`, a call clang could not resolve (a recovery
 * expression: the callee's name, then the arguments)? Inside a macro its
 * text is the macro's, not the callee's (`CV_CUDEV_SAFE_CALL(expr)`
 * expanding to `checkCudaError((expr), __FILE__, __LINE__, CV_Func)` with
 * `CV_Func` from a missing header). */
static bool argument_of_unresolved_call(CXCursor p, CXCursor c)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(p, &k);
    bool arg = k.n >= 2 && (k.v[0].kind == CXCursor_DeclRefExpr || k.v[0].kind == CXCursor_OverloadedDeclRef) &&
               !clang_equalCursors(k.v[0], c);
    kc_cuda_kids_free(&k);
    return arg;
}

int kc_cuda_value_use(kc_cuda_tu *t, const CXCursor *stack, unsigned i, const char **unread_var)
{
    while (i > 0) {
        CXCursor p = stack[i - 1], c = stack[i];
        switch (p.kind) {
        case CXCursor_UnexposedExpr:
            if (kc_cuda_recovered_call(t, p) || argument_of_unresolved_call(p, c))
                return 1; /* an argument of CHECK(...) */
            i--;
            continue;
        case CXCursor_ParenExpr:
            i--;
            continue;
        case CXCursor_CompoundStmt:
            return 0;
        case CXCursor_CStyleCastExpr:
        case CXCursor_CXXStaticCastExpr:
        case CXCursor_CXXFunctionalCastExpr:
            return clang_getCanonicalType(clang_getCursorType(p)).kind == CXType_Void ? 2 : 1;
        case CXCursor_BinaryOperator: {
            if (clang_getCursorBinaryOperatorKind(p) == CXBinaryOperator_Assign) {
                /* `err = cudaX(...)` into a local nothing reads after (the
                 * next assignment aside): the result is dropped */
                kc_cuda_kids k;
                kc_cuda_kids_get(p, &k);
                CXCursor v = k.n == 2 && clang_equalCursors(k.v[1], c) ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
                kc_cuda_kids_free(&k);
                CXCursor d = v.kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(v) : clang_getNullCursor();
                /* (`if ((err = cudaX(...)) != cudaSuccess)`: the assignment's
                 * value is tested) */
                if (d.kind == CXCursor_VarDecl && clang_getCursorSemanticParent(d).kind != CXCursor_TranslationUnit &&
                    !kc_cuda_in_macro_body(p) && !kc_cuda_in_macro_body(d) && !var_read(t, d) && kc_cuda_value_use(t, stack, i - 1, unread_var) == 0) {
                    *unread_var = kc_cuda_spelling(t, d);
                    return 0;
                }
                return 1;
            }
            if (clang_getCursorBinaryOperatorKind(p) != CXBinaryOperator_Comma)
                return polls(p, c) ? 3 : 1;
            kc_cuda_kids k;
            kc_cuda_kids_get(p, &k);
            bool left = k.n == 2 && clang_equalCursors(k.v[0], c);
            kc_cuda_kids_free(&k);
            if (left)
                return 0;
            i--;
            continue;
        }
        case CXCursor_IfStmt:
        case CXCursor_WhileStmt:
        case CXCursor_DoStmt:
        case CXCursor_ForStmt:
        case CXCursor_SwitchStmt: {
            /* the condition uses it; a body statement discards it */
            kc_cuda_kids k;
            kc_cuda_kids_get(p, &k);
            int r = 0;
            if (p.kind == CXCursor_IfStmt || p.kind == CXCursor_WhileStmt || p.kind == CXCursor_SwitchStmt) {
                for (unsigned j = 0; j < k.n; j++)
                    if (clang_isExpression(k.v[j].kind)) {
                        r = clang_equalCursors(k.v[j], c) ? 1 : 0;
                        break;
                    }
            } else if (p.kind == CXCursor_DoStmt) {
                r = k.n >= 2 && clang_equalCursors(k.v[1], c) ? 1 : 0;
            } else {
                /* for: the condition is the middle expression when all
                 * three are there; init and increment discard. */
                r = k.n == 4 && clang_equalCursors(k.v[1], c) ? 1 : 0;
            }
            kc_cuda_kids_free(&k);
            return r;
        }
        case CXCursor_CaseStmt:
        case CXCursor_DefaultStmt:
        case CXCursor_LabelStmt:
            return 0;
        case CXCursor_VarDecl:
            /* (a variable of a macro's expansion, `cudaError_t _result = x;`,
             * counts as read: code that reads it may be what a missing
             * header made the parse drop) */
            if (clang_getCursorSemanticParent(p).kind == CXCursor_TranslationUnit || kc_cuda_in_macro_body(p) ||
                var_named(t, p))
                return 1;
            *unread_var = kc_cuda_spelling(t, p);
            return 0;
        default:
            return 1;
        }
    }
    return 1;
}

