/* cuda_errcheck.c — calls that check CUDA errors without being named
 * like it (KC601's host facts, cuda_host.c): a function that reports the
 * last error, and a checker written around a runtime call. */
#include "cuda_errcheck.h"

#include <ctype.h>
#include <string.h>

bool kc_cuda_names_last_error(CXCursor c)
{
    CXString sp = clang_getCursorSpelling(c);
    const char *n = clang_getCString(sp);
    bool hit = n && (!strcmp(n, "cudaGetLastError") || !strcmp(n, "cudaPeekAtLastError"));
    clang_disposeString(sp);
    return hit;
}

/* What a function's body does with the last error: 1 when it tests what
 * cudaGetLastError()/cudaPeekAtLastError() return (stored, compared,
 * passed on; not a bare `cudaGetLastError();` or `(void)cudaGetLastError();`,
 * which clear it) on every call: not under a loop or a branch (a
 * checking macro's `do { ... } while (0)` and an if's condition are fine);
 * -1 when it launches a kernel (it checks its own launches, as llm.c's
 * `gpt2_update` does under its loop); else 0. */
static int body_tests_last_error(CXCursor c, CXCursor parent, bool always, unsigned depth)
{
    if (depth > 64)
        return 0;
    if (c.kind == CXCursor_CallExpr && kc_cuda_is_launch(c))
        return -1;
    int r = 0;
    if (always && c.kind == CXCursor_CallExpr && parent.kind != CXCursor_CompoundStmt &&
        !(parent.kind == CXCursor_CStyleCastExpr &&
          clang_getCanonicalType(clang_getCursorType(parent)).kind == CXType_Void)) {
        r = kc_cuda_names_last_error(c);
    }
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    unsigned cond = k.n;
    if (c.kind == CXCursor_IfStmt)
        for (unsigned i = 0; i < k.n && cond == k.n; i++)
            if (clang_isExpression(k.v[i].kind))
                cond = i;
    bool loop = c.kind == CXCursor_ForStmt || c.kind == CXCursor_WhileStmt || c.kind == CXCursor_SwitchStmt ||
                c.kind == CXCursor_CXXForRangeStmt;
    for (unsigned i = 0; i < k.n && r >= 0; i++) {
        bool a = always && !loop && (c.kind != CXCursor_IfStmt || i <= cond);
        int v = body_tests_last_error(k.v[i], c, a, depth + 1);
        r = v < 0 ? -1 : (v > 0 ? 1 : r);
    }
    kc_cuda_kids_free(&k);
    return r;
}

/* Is argument `a` what `__FILE__` gives at the call: a string literal
 * naming the file the call is written in? */
static bool file_macro_argument(CXCursor call, CXCursor a)
{
    a = kc_cuda_strip(a);
    if (a.kind != CXCursor_StringLiteral)
        return false;
    CXString lit = clang_getCursorSpelling(a), fname;
    unsigned line = 0, col = 0;
    clang_getPresumedLocation(clang_getCursorLocation(call), &fname, &line, &col);
    const char *l = clang_getCString(lit), *f = clang_getCString(fname);
    size_t ln = l ? strlen(l) : 0, fn = f ? strlen(f) : 0;
    bool same = fn > 0 && ln == fn + 2 && l[0] == '"' && strncmp(l + 1, f, fn) == 0;
    clang_disposeString(lit);
    clang_disposeString(fname);
    return same;
}

/* Is call `c` (of function `ref`) an error report after a launch: a
 * function whose body tests the last error (`errorHandler(__LINE__,
 * __FILE__)` defined as `cudaDeviceSynchronize(); int e =
 * cudaGetLastError(); if (e != cudaSuccess) die(...)`), or, where its body
 * is not in the parse, one given nothing but the place it is called from
 * (`__FILE__`, with `__LINE__` or other integer constants): told where it is but
 * not what to check, all it can report is the last error. A function
 * that returns a value is judged by what is done with it. */
bool kc_cuda_reports_last_error(CXCursor c, CXCursor ref)
{
    CXCursor def = clang_getCursorDefinition(ref);
    if (!clang_Cursor_isNull(def) && !clang_isInvalid(def.kind)) {
        /* one that returns a value may hand the error back (`return
         * cudaGetLastError();`): returns_last_error judges its use */
        if (clang_getCanonicalType(clang_getCursorResultType(def)).kind != CXType_Void)
            return false;
        return body_tests_last_error(def, clang_getNullCursor(), true, 0) > 0;
    }
    int na = clang_Cursor_getNumArguments(c);
    bool where = false;
    for (int i = 0; i < na; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        if (file_macro_argument(c, a)) {
            where = true;
            continue;
        }
        /* `__LINE__`; a message or the text of an expression
         * (`__assert_fail("x == y", __FILE__, __LINE__, ...)`) is more
         * than a place */
        if (kc_cuda_strip(a).kind != CXCursor_IntegerLiteral)
            return false;
    }
    return where;
}

/* Is checker call `c` written around a runtime call (`RAFT_CUDA_TRY(
 * cudaMemcpy(...))`, also where the inner call is dependent or clang
 * could not resolve the checker): it tests that call's result, which
 * reports the sticky faults of earlier kernels too. */
bool kc_cuda_wraps_runtime_call(const kc_cuda_tu *t, CXCursor c)
{
    kc_span sp = kc_cuda_span(t, c);
    if (!kc_span_valid(sp))
        return false;
    size_t a, b;
    kc_cuda_span_offsets(t, sp, &a, &b);
    const char *s = t->src->text;
    while (a < b && s[a] != '(')
        a++;
    for (a++; a < b && isspace((unsigned char)s[a]); a++)
        ;
    size_t e = a;
    while (e < b && (isalnum((unsigned char)s[e]) || s[e] == '_'))
        e++;
    return e - a > 4 && strncmp(s + a, "cuda", 4) == 0 && e < b && s[e] == '(';
}
