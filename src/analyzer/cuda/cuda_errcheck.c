/* cuda_errcheck.c — calls that check CUDA errors without being named
 * like it (KC601's host facts, cuda_host.c): a function that reports the
 * last error, and a checker written around a runtime call. */
#define _GNU_SOURCE 1 /* memmem */
#include "cuda_errcheck.h"
#include "cuda_gaps.h"
#include "cuda_shim.h"
#include "kc_source.h"

#include <ctype.h>
#include <stdlib.h>
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

/* Per line of the source (1-based), whether it is part of a preprocessor
 * directive (a `#define`'s continuation lines too) or lies inside an `#if`,
 * `#ifdef` or `#ifndef` block (an include guard aside: an `#ifndef X`
 * directly followed by `#define X`): which branch the preprocessor took is
 * not known here (the parse keeps no record of skipped blocks), so calls
 * written there are not judged dropped. malloc'd, nlines + 2 entries. */
static uint8_t *conditional_lines(const kc_source *src, uint32_t *nlines)
{
    uint32_t n = 1;
    for (size_t i = 0; i < src->len; i++)
        n += src->text[i] == '\n';
    uint8_t *mask = kc_xcalloc((size_t)n + 2, 1);
    int depth = 0, guard_depth = -1;
    bool first_directive = true, continued = false;
    char guard[128] = "";
    uint32_t line = 1;
    for (size_t at = 0; at < src->len; line++) {
        size_t end = at;
        while (end < src->len && src->text[end] != '\n')
            end++;
        size_t p = at;
        while (p < end && (src->text[p] == ' ' || src->text[p] == '\t'))
            p++;
        mask[line] = continued || (depth > 0 && !(depth == 1 && guard_depth == 1));
        size_t q = end; /* a directive (or its continuation) ending in a backslash goes on */
        while (q > at && (src->text[q - 1] == '\r' || src->text[q - 1] == ' ' || src->text[q - 1] == '\t'))
            q--;
        bool backslash = q > at && src->text[q - 1] == '\\';
        continued = continued && backslash;
        if (p < end && src->text[p] == '#') {
            continued = backslash;
            p++;
            while (p < end && (src->text[p] == ' ' || src->text[p] == '\t'))
                p++;
            const char *w = src->text + p;
            size_t wl = 0;
            while (p + wl < end && (isalnum((unsigned char)w[wl]) || w[wl] == '_'))
                wl++;
            const char *arg = w + wl;
            while (arg < src->text + end && (*arg == ' ' || *arg == '\t'))
                arg++;
            size_t al = 0;
            while (arg + al < src->text + end && (isalnum((unsigned char)arg[al]) || arg[al] == '_'))
                al++;
            bool opens = (wl == 2 && !memcmp(w, "if", 2)) || (wl == 5 && !memcmp(w, "ifdef", 5)) ||
                         (wl == 6 && !memcmp(w, "ifndef", 6));
            if (opens) {
                depth++;
                if (first_directive && wl == 6 && al && al < sizeof guard) {
                    memcpy(guard, arg, al);
                    guard[al] = '\0';
                    guard_depth = -2; /* a guard if the next directive defines it */
                }
            } else if (wl == 6 && !memcmp(w, "define", 6) && guard_depth == -2) {
                guard_depth = al == strlen(guard) && !memcmp(arg, guard, al) ? 1 : -1;
            } else if (wl == 5 && !memcmp(w, "endif", 5) && depth > 0) {
                depth--;
            }
            if (guard_depth == -2 && !opens)
                guard_depth = -1;
            first_directive = false;
            mask[line] = 1; /* the directive line itself */
        }
        at = end < src->len ? end + 1 : end;
    }
    *nlines = n;
    return mask;
}

static bool in_device_function(CXCursor c)
{
    for (unsigned hops = 0; !clang_Cursor_isNull(c) && hops < 64; hops++, c = clang_getCursorSemanticParent(c)) {
        if (c.kind == CXCursor_TranslationUnit)
            return false;
        if (c.kind == CXCursor_FunctionDecl || c.kind == CXCursor_FunctionTemplate || c.kind == CXCursor_CXXMethod)
            return kc_cuda_has_attr(c, CXCursor_CUDAGlobalAttr) || (kc_cuda_has_attr(c, CXCursor_CUDADeviceAttr) &&
                                                                    !kc_cuda_has_attr(c, CXCursor_CUDAHostAttr));
    }
    return false;
}

/* Is the identifier `name` at line:col the host call `c`, or the name of
 * the macro `c` is written in (`cudaCheck(cudaMalloc(...))` where
 * `cudaCheck` is a project's checking macro: named like the runtime API,
 * it is not a call of it)? */
static bool held_call(const kc_call *c, const char *name, unsigned line, unsigned col)
{
    if (c->span.line == line && c->span.col == col)
        return true;
    if (!c->macro || !name || strcmp(c->macro, name))
        return false;
    /* the call lies in the macro's argument, which starts after its name */
    bool after = c->span.line > line || (c->span.line == line && c->span.col > col);
    return after && c->span.line <= line + 8;
}

/* The `cuda...` names the project defines (own_visit): a `cudaX(` token
 * that names one of them is no runtime call. */
typedef struct own_names {
    KC_VEC(const char *) v;
    kc_arena *a;
    /* byte ranges of the main file's templates (a function template, a
     * class template, a member of one defined outside it): a call there
     * whose arguments depend on a parameter stays unresolved */
    KC_VEC(uint32_t) tpl;
} own_names;

static bool is_template(CXCursor c)
{
    if (c.kind == CXCursor_FunctionTemplate || c.kind == CXCursor_ClassTemplate ||
        c.kind == CXCursor_ClassTemplatePartialSpecialization)
        return true;
    CXCursor p = clang_getCursorSemanticParent(c);
    return (c.kind == CXCursor_CXXMethod || c.kind == CXCursor_Constructor || c.kind == CXCursor_Destructor) &&
           (p.kind == CXCursor_ClassTemplate || p.kind == CXCursor_ClassTemplatePartialSpecialization);
}

/* Does `off` lie in a template of the main file? */
static bool in_template(const own_names *n, uint32_t off)
{
    for (uint32_t i = 0; i + 1 < n->tpl.len; i += 2)
        if (off >= n->tpl.data[i] && off < n->tpl.data[i + 1])
            return true;
    return false;
}

/* Is `at` in a header of the project: not a built-in stand-in, not a
 * system header? */
static bool project_header(CXSourceLocation at)
{
    if (clang_Location_isInSystemHeader(at))
        return false;
    CXFile f = NULL;
    clang_getExpansionLocation(at, &f, NULL, NULL, NULL);
    CXString name = clang_getFileName(f);
    const char *p = clang_getCString(name);
    bool project = p && strncmp(p, KC_CUDA_SHIM_ROOT, strlen(KC_CUDA_SHIM_ROOT));
    clang_disposeString(name);
    return project;
}

static enum CXChildVisitResult own_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    own_names *n = data;
    if (c.kind == CXCursor_LinkageSpec || c.kind == CXCursor_Namespace)
        return CXChildVisit_Recurse;
    /* the file's own functions and macros, and functions the project's
     * headers define (`cudaFreeCheck(ptr, file, line)` behind a checking
     * macro): not the runtime API, which the built-in headers declare */
    CXSourceLocation at = clang_getCursorLocation(c);
    if (is_template(c) && clang_Location_isFromMainFile(at)) {
        CXSourceRange r = clang_getCursorExtent(c);
        unsigned b = 0, e = 0;
        clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
        kc_vec_push(&n->tpl, b);
        kc_vec_push(&n->tpl, e);
    }
    bool fn = c.kind == CXCursor_FunctionDecl || c.kind == CXCursor_FunctionTemplate;
    if ((fn || c.kind == CXCursor_MacroDefinition) &&
        (clang_Location_isFromMainFile(at) || (fn && clang_isCursorDefinition(c) && project_header(at)))) {
        CXString sp = clang_getCursorSpelling(c);
        const char *name = clang_getCString(sp);
        if (name && !strncmp(name, "cuda", 4))
            kc_vec_push(&n->v, kc_arena_strdup(n->a, name));
        clang_disposeString(sp);
    }
    return CXChildVisit_Continue;
}

static int str_cmp(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* Is `n` named like a runtime API function (`cudaMalloc`: `cuda` and a
 * capital, more than one letter after)? */
static bool api_like(const char *n)
{
    return n && strlen(n) > 5 && !strncmp(n, "cuda", 4) && isupper((unsigned char)n[4]);
}

/* Does the call named by token i take a runtime call as its first
 * argument (`cudaCheck(cudaMalloc(...))`)? No runtime function does: it
 * is a checker. */
static bool wraps_api_call(kc_cuda_toks *tk, unsigned i)
{
    if (i + 3 >= tk->n || clang_getTokenKind(tk->v[i + 2]) != CXToken_Identifier || !kc_cuda_tok_is(tk, i + 3, "("))
        return false;
    CXString sp = clang_getTokenSpelling(tk->tu, tk->v[i + 2]);
    bool api = api_like(clang_getCString(sp));
    clang_disposeString(sp);
    return api;
}

void kc_cuda_unparsed_api_calls(kc_cuda_tu *t)
{
    const kc_source *src = t->src;
    if (!src || !src->len || !t->main)
        return;
    own_names own = {.a = t->m->arena};
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), own_visit, &own);
    if (own.v.len)
        qsort(own.v.data, own.v.len, sizeof *own.v.data, str_cmp);
    kc_cuda_toks tk;
    kc_cuda_main_toks(t, 0, src->len, &tk);
    uint32_t nlines = 0;
    uint8_t *cond = conditional_lines(src, &nlines);
    uint32_t bare = 0, wrapped = 0, first_line = 0;
    const char *first = NULL;
    for (unsigned i = 0; i + 1 < tk.n; i++) {
        if (clang_getTokenKind(tk.v[i]) != CXToken_Identifier || !kc_cuda_tok_is(&tk, i + 1, "("))
            continue;
        CXString sp = clang_getTokenSpelling(tk.tu, tk.v[i]);
        const char *n = clang_getCString(sp);
        size_t nl = n ? strlen(n) : 0;
        bool is_api = api_like(n) && strcmp(n + nl - 2, "_t") &&
                      strcmp(n, "cudaGetErrorString") && strcmp(n, "cudaGetErrorName") &&
                      !(own.v.len && bsearch(&n, own.v.data, own.v.len, sizeof *own.v.data, str_cmp));
        char *name = is_api ? kc_arena_strdup(t->m->arena, n) : NULL;
        clang_disposeString(sp);
        if (!is_api)
            continue;
        unsigned line = 0, off = kc_cuda_tok_off(&tk, i, &line);
        if (off >= src->len || (line <= nlines && cond[line]))
            continue; /* a directive's text, or inside an #if block: taken or not, not known here */
        unsigned col = 0;
        clang_getExpansionLocation(clang_getTokenLocation(tk.tu, tk.v[i]), NULL, NULL, &col, NULL);
        bool recorded = false; /* a call the host facts hold (one in a macro's argument too) */
        for (uint32_t h = 0; h < t->m->host_calls.len && !recorded; h++)
            recorded = held_call(&t->m->host_calls.data[h], name, line, col);
        if (recorded)
            continue;
        CXCursor c = clang_getCursor(t->tu, clang_getTokenLocation(tk.tu, tk.v[i]));
        /* (an invalid cursor: no code there, as in a block `#if 0` leaves
         * out; a reference to an overload set in a template is a call
         * whose arguments depend on a parameter, and outside one a call
         * clang could not resolve, an argument naming what a missing
         * header declares: `cudaGraphGetNodes(graph, ...)` with `graph` a
         * member of a class from it, which the host facts do not hold;
         * one whose argument is a runtime call is no runtime call but a
         * checker from a missing header, `cudaCheck(cudaMalloc(...))` in
         * llm.c) */
        if (clang_isInvalid(c.kind) || clang_isExpression(c.kind) || clang_isDeclaration(c.kind) ||
            (c.kind == CXCursor_OverloadedDeclRef && (in_template(&own, off) || wraps_api_call(&tk, i))) ||
            c.kind == CXCursor_MacroExpansion || c.kind == CXCursor_TranslationUnit || in_device_function(c))
            continue; /* parsed (or outside any function: a declaration) */
        /* `CHECK(cudaX(...))`, `err = cudaX(...)`: written to be checked */
        bool used = i >= 1 && (kc_cuda_tok_is(&tk, i - 1, "(") || kc_cuda_tok_is(&tk, i - 1, "=") ||
                               kc_cuda_tok_is(&tk, i - 1, "return") || kc_cuda_tok_is(&tk, i - 1, ","));
        if (used)
            wrapped++;
        else
            bare++;
        kc_lost_call lc = {.line = (uint32_t)line, .callee = name, .used = used};
        unsigned a0 = i + 2 < tk.n && kc_cuda_tok_is(&tk, i + 2, "&") ? i + 3 : i + 2;
        if (a0 < tk.n && clang_getTokenKind(tk.v[a0]) == CXToken_Identifier) {
            CXString as = clang_getTokenSpelling(tk.tu, tk.v[a0]);
            lc.arg0 = kc_arena_strdup(t->m->arena, clang_getCString(as));
            clang_disposeString(as);
        }
        kc_vec_push(&t->m->host_calls_unparsed_at, lc);
        if (!first) {
            first = name;
            first_line = line;
        }
    }
    free(cond);
    kc_vec_free(&own.v);
    kc_vec_free(&own.tpl);
    t->m->host_calls_unparsed_checked += wrapped;
    t->m->host_calls_unparsed_bare += bare;
    if (!first)
        return;
    uint32_t n = wrapped + bare;
    const char *what = n == 1 ? kc_arena_printf(t->m->arena, "a call of `%s` in a statement that did not compile (a "
                                                               "type or name from a missing header?)", first)
                              : kc_arena_printf(t->m->arena, "%u runtime API calls, the first `%s`, in statements "
                                                               "that did not compile (a type or name from a missing "
                                                               "header?)", n, first);
    kc_model_add_gap(t->m, KC_GAP_OTHER, (kc_span){first_line, 1, first_line, 1}, what, NULL);
}

/* ---- names that say they check ---- */

static bool ci_contains(const char *s, const char *pat)
{
    size_t n = strlen(pat);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == pat[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

bool kc_cuda_checker_name(const char *n)
{
    /* libclang's "(unnamed struct at /path/...)" is no name: its path
     * may hold anything ("unchecked") */
    if (n[0] == '(')
        return false;
    static const char *const pats[] = {"check", "chk", "lasterror", "lastcudaerror", "safe_call", "safecall",
                                       "handle_error", "handleerror", "cuda_call", "cudacall", "cuda_try",
                                       "rt_call"};
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        if (ci_contains(n, pats[i]))
            return true;
    return false;
}

bool kc_cuda_last_error_name(const char *n)
{
    return ci_contains(n, "lasterror") || ci_contains(n, "last_error") || ci_contains(n, "lastcudaerror") ||
           ci_contains(n, "launch_check") ||
           ci_contains(n, "launchcheck") || ci_contains(n, "peekatlasterror");
}

/* A bare name at s[i] (of n) named like a checker and followed, past
 * blanks, by one of the characters of `ends` (`ORcudaKernelCheck;`): the
 * name (an arena string), or NULL. */
static const char *checker_at(const kc_cuda_tu *t, const char *s, size_t n, size_t i, const char *ends)
{
    size_t w = i;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
        i++;
    if (i == w || i - w > 63 || isdigit((unsigned char)s[w]))
        return NULL;
    char name[64];
    memcpy(name, s + w, i - w);
    name[i - w] = '\0';
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || !s[i] || !strchr(ends, s[i]) || !kc_cuda_checker_name(name))
        return NULL;
    return kc_arena_strndup(t->m->arena, name, strlen(name));
}

static const char *empty_checker_after(const kc_cuda_tu *t, kc_span launch)
{
    size_t a, b;
    kc_cuda_span_offsets(t, launch, &a, &b);
    const char *s = t->src->text;
    size_t n = t->src->len, i = b;
    /* the launch's own `;`, then blanks and comments */
    for (bool semi = false; i < n;) {
        size_t e = s[i] == '/' ? kc_cuda_skip_noise(s, n, i) : i;
        if (e != i) {
            i = e;
        } else if (s[i] == ';' && !semi) {
            semi = true;
            i++;
        } else if (isspace((unsigned char)s[i])) {
            i++;
        } else {
            break;
        }
    }
    return checker_at(t, s, n, i, ";");
}

static bool is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

const char *kc_cuda_macro_check_after(const kc_cuda_tu *t, CXCursor launch)
{
    /* the launch's `<<<` where the macro's body spells it (the kernel's
     * name may be the macro's argument, spelled at the use) */
    kc_cuda_kids k;
    kc_cuda_kids_get(launch, &k);
    const char *s = NULL;
    size_t n = 0, i = 0;
    for (unsigned c = 0; c < k.n && !s; c++) {
        CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(k.v[c]));
        CXFile f = NULL, fe = NULL;
        unsigned off = 0, eoff = 0;
        clang_getSpellingLocation(at, &f, NULL, NULL, &off);
        clang_getExpansionLocation(at, &fe, NULL, NULL, &eoff);
        const char *text = f ? clang_getFileContents(t->tu, f, &n) : NULL;
        if (text && off + 3 <= n && !strncmp(text + off, "<<<", 3) && !(fe && clang_File_isEqual(f, fe) && off == eoff))
            s = text, i = off;
    }
    kc_cuda_kids_free(&k);
    if (!s)
        return NULL; /* not written in a macro's body */
    /* past the configuration and the arguments' parentheses, on the
     * body's line (a newline no backslash continues ends it) */
    const char *lt = memmem(s + i, n - i, ">>>", 3);
    size_t e = lt ? (size_t)(lt - s) + 3 : n;
    for (size_t q = i; q < e && e < n; q++)
        if (s[q] == '\n' && (q == 0 || s[q - 1] != '\\'))
            return NULL;
    for (i = e; i < n && s[i] != '(' && s[i] != '\n';)
        i++;
    for (int depth = 0; i < n && s[i] != '\n'; i++) {
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (depth == 0 && s[i] == ')')
            break;
    }
    /* then `;`, blanks and continuations, and a bare name that says it checks */
    for (i++; i < n && (s[i] == ';' || s[i] == ' ' || s[i] == '\t' || s[i] == '\\' || s[i] == '\r' ||
                        (s[i] == '\n' && s[i - 1] == '\\'));)
        i++;
    return checker_at(t, s, n, i, ";}\n\\");
}

static bool test_assert_name(const char *w, size_t n)
{
    static const char *const prefix[] = {"ASSERT_", "EXPECT_", "REQUIRE", "CHECK_THAT", "BOOST_CHECK",
                                         "BOOST_REQUIRE", "BOOST_TEST"};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++) {
        size_t k = strlen(prefix[i]);
        if (n >= k && memcmp(w, prefix[i], k) == 0) {
            for (size_t j = k; j < n; j++) /* macros are upper case: `EXPECT_TRUE`, not `REQUIRE_helper` */
                if (islower((unsigned char)w[j]))
                    return false;
            return true;
        }
    }
    return false;
}

const char *kc_cuda_test_assert_after(const kc_cuda_tu *t, kc_span after, kc_span within, uint32_t *line)
{
    size_t a, b, wa, wb;
    kc_cuda_span_offsets(t, after, &a, &b);
    kc_cuda_span_offsets(t, within, &wa, &wb);
    const char *s = t->src->text;
    size_t n = wb < t->src->len ? wb : t->src->len;
    for (size_t i = b; i < n;) {
        size_t e = (s[i] == '/' || s[i] == '"' || s[i] == '\'') ? kc_cuda_skip_noise(s, n, i) : i;
        if (e != i) {
            i = e;
            continue;
        }
        if (!is_ident(s[i]) || (i > 0 && is_ident(s[i - 1]))) {
            i++;
            continue;
        }
        size_t w = i;
        while (i < n && is_ident(s[i]))
            i++;
        size_t p = i;
        while (p < n && (s[p] == ' ' || s[p] == '\t'))
            p++;
        if (p < n && s[p] == '(' && test_assert_name(s + w, i - w)) {
            uint32_t col;
            kc_source_position(t->src, w, line, &col);
            return kc_arena_strndup(t->m->arena, s + w, i - w);
        }
    }
    return NULL;
}

const char *kc_cuda_disabled_test_at(const kc_cuda_tu *t, size_t offset)
{
    static const char *const heads[] = {"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"};
    const char *s = t->src->text;
    size_t n = t->src->len, i = offset, w = offset;
    while (i < n && is_ident(s[i]))
        i++;
    bool head = false;
    for (size_t h = 0; h < sizeof heads / sizeof heads[0] && !head; h++)
        head = i - w == strlen(heads[h]) && memcmp(s + w, heads[h], i - w) == 0;
    if (!head)
        return NULL;
    size_t open = i;
    while (open < n && isspace((unsigned char)s[open]))
        open++;
    if (open >= n || s[open] != '(')
        return NULL;
    bool disabled = false;
    size_t close = open + 1;
    for (unsigned arg = 0; arg < 2 && close < n; arg++) { /* the suite, then the test's name */
        while (close < n && isspace((unsigned char)s[close]))
            close++;
        disabled |= n - close > 9 && memcmp(s + close, "DISABLED_", 9) == 0;
        while (close < n && is_ident(s[close]))
            close++;
        while (close < n && isspace((unsigned char)s[close]))
            close++;
        if (close >= n || s[close] != (arg == 0 ? ',' : ')'))
            return NULL;
        close++;
    }
    return disabled ? kc_arena_strndup(t->m->arena, s + w, close - w) : NULL;
}

/* The macro a conditional directive tests (`#ifdef X`, `#if defined(X)`,
 * `#if X`) at s[i..e), or NULL. */
static const char *directive_macro(const kc_cuda_tu *t, const char *s, size_t i, size_t e)
{
    bool ifdef = e - i >= 5 && !strncmp(s + i, "ifdef", 5);
    if (!ifdef && !(e - i >= 2 && !strncmp(s + i, "if", 2) && !is_ident(s[i + 2])))
        return NULL;
    i += ifdef ? 5 : 2;
    while (i < e && (isspace((unsigned char)s[i]) || s[i] == '('))
        i++;
    if (!ifdef && e - i > 7 && !strncmp(s + i, "defined", 7) && !is_ident(s[i + 7]))
        for (i += 7; i < e && (isspace((unsigned char)s[i]) || s[i] == '(');)
            i++;
    size_t w = i;
    while (i < e && is_ident(s[i]))
        i++;
    return i > w && !isdigit((unsigned char)s[w]) ? kc_arena_strndup(t->m->arena, s + w, i - w) : NULL;
}

static const char *disabled_check_after(const kc_cuda_tu *t, kc_span launch, kc_span within)
{
    size_t a, b, wa, wb;
    kc_cuda_span_offsets(t, launch, &a, &b);
    kc_cuda_span_offsets(t, within, &wa, &wb);
    const char *s = t->src->text;
    size_t n = wb < t->src->len ? wb : t->src->len;
    const char *macro = NULL;
    int depth = 0;
    for (size_t i = b; i < n;) {
        size_t e = (s[i] == '/' || s[i] == '"' || s[i] == '\'') ? kc_cuda_skip_noise(s, n, i) : i;
        if (e != i) {
            i = e;
            continue;
        }
        /* (past later launches too: a last-error check reports the
         * error of any launch before it) */
        bool line_start = i == 0 || s[i - 1] == '\n';
        size_t p = i;
        while (line_start && p < n && (s[p] == ' ' || s[p] == '\t'))
            p++;
        if (!line_start || p >= n || s[p] != '#') {
            if (depth > 0 && is_ident(s[i]) && (i == 0 || !is_ident(s[i - 1])) &&
                (!strncmp(s + i, "cudaGetLastError", 16) || !strncmp(s + i, "cudaPeekAtLastError", 19)))
                return macro;
            i++;
            continue;
        }
        size_t eol = p;
        while (eol < n && s[eol] != '\n')
            eol++;
        size_t d = p + 1;
        while (d < eol && (s[d] == ' ' || s[d] == '\t'))
            d++;
        if (eol - d >= 2 && !strncmp(s + d, "if", 2)) {
            const char *m = depth == 0 ? directive_macro(t, s, d, eol) : NULL;
            if (depth == 0 && !m)
                return NULL; /* (`#ifndef`, an expression: whose builds, not said) */
            macro = depth == 0 ? m : macro;
            depth++;
        } else if (eol - d >= 5 && !strncmp(s + d, "endif", 5) && depth > 0) {
            depth--;
        } else if (eol - d >= 4 && !strncmp(s + d, "else", 4) && depth == 1) {
            depth = -1000; /* the other branch: not the block this build leaves out */
        }
        if (depth < 0)
            return NULL;
        i = eol;
    }
    return NULL;
}

bool kc_cuda_bare_statement(const kc_source *src, uint32_t line, uint32_t col)
{
    size_t i = kc_source_offset(src, line, col);
    while (i < src->len && (isalnum((unsigned char)src->text[i]) || src->text[i] == '_'))
        i++;
    while (i < src->len && (src->text[i] == ' ' || src->text[i] == '\t'))
        i++;
    if (i < src->len && src->text[i] == '(') {
        i++;
        while (i < src->len && (src->text[i] == ' ' || src->text[i] == '\t'))
            i++;
        if (i >= src->len || src->text[i] != ')')
            return false;
        i++;
        while (i < src->len && (src->text[i] == ' ' || src->text[i] == '\t'))
            i++;
    }
    return i < src->len && src->text[i] == ';';
}

bool kc_cuda_waits_for_device(const char *callee)
{
    static const char *const w[] = {"cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyFromSymbol",
                                     "cudaMemcpyToSymbol", "cudaDeviceSynchronize", "cudaThreadSynchronize"};
    for (size_t i = 0; callee && i < sizeof w / sizeof w[0]; i++)
        if (strcmp(callee, w[i]) == 0)
            return true;
    return false;
}

const char *kc_cuda_arg_base_name(const kc_cuda_tu *t, CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) < 1)
        return NULL;
    size_t a, b;
    kc_cuda_span_offsets(t, kc_cuda_span(t, clang_Cursor_getArgument(call, 0)), &a, &b);
    const char *s = t->src->text;
    while (a < b && (s[a] == '&' || isspace((unsigned char)s[a])))
        a++;
    size_t e = a;
    while (e < b && is_ident(s[e]))
        e++;
    if (e == a || isdigit((unsigned char)s[a]))
        return NULL; /* (a literal ordinal, an expression) */
    return kc_arena_strndup(t->m->arena, s + a, e - a);
}

unsigned kc_cuda_validation_key(const char *callee, const char *base)
{
    unsigned kind = strncmp(callee, "cudaStreamCreate", 16) == 0 || strcmp(callee, "cudaStreamSynchronize") == 0 ? 1
                    : strcmp(callee, "cudaSetDevice") == 0                                                      ? 2
                                                                                                                 : 0;
    if (!kind || !base)
        return 0;
    unsigned h = 2166136261u ^ kind;
    for (const char *p = base; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h ? h : 1;
}

typedef struct calls_of {
    CXCursor fn;
    bool found;
} calls_of;

static enum CXChildVisitResult find_call_of(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    calls_of *q = data;
    if (c.kind == CXCursor_CallExpr || c.kind == CXCursor_MemberRefExpr) {
        CXCursor r = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(r) && clang_equalCursors(clang_getCanonicalCursor(r), q->fn)) {
            q->found = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_destructor(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    calls_of *q = data;
    if (c.kind != CXCursor_Destructor)
        return CXChildVisit_Continue;
    CXCursor def = clang_getCursorDefinition(c);
    if (!clang_Cursor_isNull(def))
        clang_visitChildren(def, find_call_of, q);
    return q->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

bool kc_cuda_teardown_method(CXCursor fn)
{
    if (fn.kind != CXCursor_CXXMethod || clang_getCursorResultType(fn).kind != CXType_Void)
        return false;
    int spec = clang_getCursorExceptionSpecificationType(fn);
    if (spec != CXCursor_ExceptionSpecificationKind_BasicNoexcept &&
        spec != CXCursor_ExceptionSpecificationKind_DynamicNone)
        return false;
    calls_of q = {clang_getCanonicalCursor(fn), false};
    clang_visitChildren(clang_getCursorSemanticParent(fn), find_destructor, &q);
    return q.found;
}

bool kc_cuda_host_only_callee(CXCursor ref)
{
    static const char *const libc[] = {"printf", "fprintf", "puts", "fputs", "putchar", "fflush", "free",
                                       "exit",   "_exit",   "abort", "memcpy", "memset", "fclose", "perror"};
    if (clang_Cursor_isNull(ref) || project_header(clang_getCursorLocation(ref)))
        return false;
    CXCursor p = clang_getCursorSemanticParent(ref);
    for (int i = 0; i < 8 && !clang_Cursor_isNull(p) && p.kind != CXCursor_TranslationUnit; i++) {
        if (p.kind == CXCursor_Namespace) {
            CXString s = clang_getCursorSpelling(p);
            bool std = strcmp(clang_getCString(s), "std") == 0;
            clang_disposeString(s);
            if (std)
                return true;
        }
        p = clang_getCursorSemanticParent(p);
    }
    if (ref.kind != CXCursor_FunctionDecl)
        return false;
    CXString s = clang_getCursorSpelling(ref);
    bool found = false;
    for (size_t i = 0; i < sizeof libc / sizeof libc[0] && !found; i++)
        found = strcmp(clang_getCString(s), libc[i]) == 0;
    clang_disposeString(s);
    return found;
}

/* Does text s[a..b) launch, or call anything but clean-up calls, the
 * checkers around them (`CHECK(cudaFree(p))`) and host-only C library
 * functions (`printf`, `free`)? Keywords and casts are no calls. */
static bool may_enqueue(const char *s, size_t a, size_t b)
{
    static const char *const ok[] = {"if",     "for",   "while", "switch", "sizeof", "return", "printf",
                                     "fprintf", "puts", "free",  "memcpy", "memset"};
    for (size_t i = a; i < b; i++) {
        size_t e = kc_cuda_skip_noise(s, b, i);
        if (e != i) {
            i = e - 1;
            continue;
        }
        if (s[i] == '<' && i + 2 < b && s[i + 1] == '<' && s[i + 2] == '<')
            return true;
        if (!is_ident(s[i]) || (i > a && is_ident(s[i - 1])))
            continue;
        size_t w = i;
        while (i < b && is_ident(s[i]))
            i++;
        size_t p = i;
        while (p < b && isspace((unsigned char)s[p]))
            p++;
        char name[64];
        bool call = p < b && s[p] == '(';
        if (call && i - w >= sizeof name)
            return true;
        if (call) {
            memcpy(name, s + w, i - w);
            name[i - w] = '\0';
            bool fine = kc_cleanup_callee(name) || kc_cuda_checker_name(name);
            for (size_t k = 0; k < sizeof ok / sizeof ok[0] && !fine; k++)
                fine = strcmp(name, ok[k]) == 0;
            if (!fine)
                return true;
        }
        i--;
    }
    return false;
}

bool kc_cuda_nothing_enqueued_between(const kc_cuda_tu *t, kc_span a, kc_span b)
{
    size_t a0, a1, b0, b1;
    kc_cuda_span_offsets(t, a, &a0, &a1);
    kc_cuda_span_offsets(t, b, &b0, &b1);
    return a1 <= b0 && b0 <= t->src->len && !may_enqueue(t->src->text, a1, b0);
}

CXCursor kc_cuda_callee_decl(CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (ref.kind != CXCursor_FunctionDecl) {
        kc_cuda_kids k;
        kc_cuda_kids_get(call, &k);
        CXCursor callee = k.n ? k.v[0] : clang_getNullCursor();
        kc_cuda_kids_free(&k);
        for (int i = 0; i < 4 && callee.kind == CXCursor_UnexposedExpr; i++) {
            kc_cuda_kids_get(callee, &k);
            callee = k.n == 1 ? k.v[0] : clang_getNullCursor();
            kc_cuda_kids_free(&k);
        }
        ref = clang_Cursor_isNull(callee) ? callee : clang_getCursorReferenced(callee);
    }
    if (ref.kind == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(ref))
        ref = clang_getOverloadedDecl(ref, 0);
    return ref;
}

bool kc_cuda_text_waits(const kc_cuda_tu *t, kc_span sp)
{
    size_t a, b;
    kc_cuda_span_offsets(t, sp, &a, &b);
    const char *s = t->src->text;
    /* a copy between device buffers (or of a kind the pointers decide)
     * returns before the device is done */
    if (b > a && b <= t->src->len &&
        (memmem(s + a, b - a, "DeviceToDevice", 14) || memmem(s + a, b - a, "cudaMemcpyDefault", 17)))
        return false;
    for (size_t i = a; i < b && i < t->src->len; i++) {
        if (!(isalpha((unsigned char)s[i]) || s[i] == '_') || (i > a && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')))
            continue;
        size_t j = i;
        while (j < b && (isalnum((unsigned char)s[j]) || s[j] == '_'))
            j++;
        char name[40];
        if (j - i < sizeof name) {
            memcpy(name, s + i, j - i);
            name[j - i] = '\0';
            size_t k = j;
            while (k < b && isspace((unsigned char)s[k]))
                k++;
            if (k < b && s[k] == '(' && kc_cuda_waits_for_device(name))
                return true;
        }
        i = j - 1;
    }
    return false;
}

/* Is `t` a type a status can have: an integer, an enum, a bool, or a
 * type not known (dependent)? A class, a pointer, a reference, a
 * floating-point value or nothing is no status. */
static bool status_type(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Record: case CXType_Pointer: case CXType_LValueReference: case CXType_RValueReference:
    case CXType_Void: case CXType_Float: case CXType_Double: case CXType_LongDouble: case CXType_Half:
    case CXType_Float16: case CXType_ConstantArray: case CXType_IncompleteArray:
        return false;
    default:
        return true;
    }
}

/* Can `call` return a status for the checker it is an argument of to
 * test (`CUDA_CHECK(cudaMalloc(...))`)? Not where it makes the message or
 * the place (`std::string(__FILE__)`, `StripFunctionName(
 * __PRETTY_FUNCTION__)`). A call left dependent in a template is judged
 * by the declarations it names, any one of which may be called. */
static bool may_return_status(CXCursor call)
{
    CXType t = clang_getCursorType(call);
    if (t.kind != CXType_Dependent && t.kind != CXType_Invalid && t.kind != CXType_Unexposed)
        return status_type(t);
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(ref.kind))
        ref = kc_cuda_callee_ref(call);
    if (ref.kind == CXCursor_FunctionDecl || ref.kind == CXCursor_CXXMethod)
        return status_type(clang_getCursorResultType(ref));
    if (ref.kind != CXCursor_OverloadedDeclRef)
        return true;
    unsigned n = clang_getNumOverloadedDecls(ref);
    for (unsigned i = 0; i < n; i++) {
        CXCursor d = clang_getOverloadedDecl(ref, i);
        if (d.kind != CXCursor_FunctionDecl && d.kind != CXCursor_CXXMethod)
            return true;
        if (status_type(clang_getCursorResultType(d)))
            return true;
    }
    return n == 0;
}

bool kc_cuda_args_call_status(CXCursor c, unsigned depth)
{
    if (depth > 32)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    bool yes = false;
    for (unsigned i = 0; i < k.n && !yes; i++)
        yes = (k.v[i].kind == CXCursor_CallExpr && may_return_status(k.v[i])) || kc_cuda_args_call_status(k.v[i], depth + 1);
    kc_cuda_kids_free(&k);
    return yes;
}

/* The extent's first offset in the main file, where it was expanded. */
static size_t cursor_start(CXCursor c)
{
    unsigned off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
    return off;
}

static const char *empty_last_error_check_after(const kc_cuda_tu *t, kc_span launch, kc_span within)
{
    if (!t->main)
        return NULL;
    size_t a, b, wa, wb;
    kc_cuda_span_offsets(t, launch, &a, &b);
    kc_cuda_span_offsets(t, within, &wa, &wb);
    const char *s = t->src->text;
    size_t n = wb < t->src->len ? wb : t->src->len;
    /* braces: the block the scan is in against the launch's (deeper: a
     * block opened after it, an arm the launch's path may not take);
     * `#if`s opened after the launch, whose builds are not known; an
     * `#else` of one open at the launch: the arm this build leaves out */
    int depth = 0, low = 0, pp = 0;
    bool left_out = false;
    for (size_t i = b; i < n;) {
        size_t e = (s[i] == '/' || s[i] == '"' || s[i] == '\'') ? kc_cuda_skip_noise(s, n, i) : i;
        if (e != i) {
            i = e;
            continue;
        }
        size_t ls = i;
        while (ls > 0 && (s[ls - 1] == ' ' || s[ls - 1] == '\t'))
            ls--;
        bool line_start = ls == 0 || s[ls - 1] == '\n';
        if (line_start && s[i] == '#') {
            size_t eol = i, d = i + 1;
            while (eol < n && (s[eol] != '\n' || s[eol - 1] == '\\'))
                eol++;
            while (d < eol && (s[d] == ' ' || s[d] == '\t'))
                d++;
            if (!strncmp(s + d, "if", 2))
                pp++;
            else if (!strncmp(s + d, "endif", 5))
                pp > 0 ? pp-- : (void)(left_out = false);
            else if (!strncmp(s + d, "el", 2) && pp == 0)
                left_out = true;
            i = eol;
            continue;
        }
        if (s[i] == '{' || s[i] == '}') {
            depth += s[i] == '{' ? 1 : -1;
            low = depth < low ? depth : low;
            i++;
            continue;
        }
        if (!is_ident(s[i]) || (i > 0 && is_ident(s[i - 1]))) {
            i++;
            continue;
        }
        size_t w = i;
        while (i < n && is_ident(s[i]))
            i++;
        if (!line_start || depth != low || pp > 0 || left_out || i - w > 63 || isdigit((unsigned char)s[w]))
            continue;
        char name[64];
        memcpy(name, s + w, i - w);
        name[i - w] = '\0';
        /* alone on its line: `NAME`, `NAME;`, `NAME();` */
        size_t j = i;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (j + 1 < n && s[j] == '(' && s[j + 1] == ')')
            j += 2;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        j += j < n && s[j] == ';';
        while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
            j++;
        if ((j < n && s[j] != '\n' && s[j] != '/') || !kc_cuda_last_error_name(name))
            continue;
        /* nothing the parse made starts there: the macro is empty */
        CXSourceLocation loc = clang_getLocationForOffset(t->tu, t->main, (unsigned)w);
        if (cursor_start(clang_getCursor(t->tu, loc)) == w)
            continue;
        return kc_arena_strndup(t->m->arena, name, strlen(name));
    }
    return NULL;
}

const char *kc_cuda_debug_check_after(const kc_cuda_tu *t, kc_span launch, kc_span within, bool *empty)
{
    const char *name = empty_checker_after(t, launch);
    if (!name)
        name = empty_last_error_check_after(t, launch, within);
    *empty = name != NULL;
    return name ? name : disabled_check_after(t, launch, within);
}

typedef struct arch_scan_ctx {
    kc_cuda_tu *t;
    KC_VEC(const char *) names;
} arch_scan_ctx;

/* The `#define`s of text[0..n) inside an `#if`, `#ifdef` or `#ifndef` whose
 * condition names __CUDA_ARCH__ (or an `#else`/`#elif` of one). */
static void arch_defines(arch_scan_ctx *c, const char *s, size_t n)
{
    uint64_t arch = 0; /* one bit per open #if: it names __CUDA_ARCH__ */
    unsigned depth = 0;
    for (size_t i = 0; i < n;) {
        size_t eol = i;
        while (eol < n && (s[eol] != '\n' || (eol > i && s[eol - 1] == '\\')))
            eol++;
        size_t p = i;
        while (p < eol && (s[p] == ' ' || s[p] == '\t'))
            p++;
        if (p < eol && s[p] == '#') {
            p++;
            while (p < eol && (s[p] == ' ' || s[p] == '\t'))
                p++;
            const char *d = s + p;
            size_t len = eol - p;
            bool names_arch = memmem(d, len, "__CUDA_ARCH__", 13) != NULL;
            if (len >= 2 && !strncmp(d, "if", 2)) {
                if (depth < 64 && names_arch)
                    arch |= 1ull << depth;
                depth++;
            } else if (len >= 5 && !strncmp(d, "endif", 5) && depth > 0) {
                depth--;
                if (depth < 64)
                    arch &= ~(1ull << depth);
            } else if (len >= 4 && !strncmp(d, "elif", 4) && depth > 0 && depth <= 64 && names_arch) {
                arch |= 1ull << (depth - 1);
            } else if (len > 7 && !strncmp(d, "define", 6) && (d[6] == ' ' || d[6] == '\t') && arch) {
                size_t a = 7;
                while (a < len && (d[a] == ' ' || d[a] == '\t'))
                    a++;
                size_t b = a;
                while (b < len && is_ident(d[b]))
                    b++;
                if (b > a)
                    kc_vec_push(&c->names, kc_arena_strndup(c->t->m->arena, d + a, b - a));
            }
        }
        i = eol + 1;
    }
}

bool kc_cuda_macro_by_arch(kc_cuda_tu *t, const char *name)
{
    if (!t->arch_macros_done) {
        t->arch_macros_done = true;
        arch_scan_ctx c = {t, {0}};
        arch_defines(&c, t->src->text, t->src->len);
        /* the headers the parse read (kc_model.deps: also those of a
         * precompiled preamble, which clang_getInclusions does not list),
         * from the disk; not the toolkit's and the system's */
        static const char *const skip[] = {"/usr/include/", "/usr/lib/", "/usr/local/cuda", "/opt/"};
        char *buf = NULL;
        size_t cap = 0, len = 0;
        for (uint32_t i = 0; i < t->m->deps.len; i++) {
            const char *p = t->m->deps.data[i];
            bool sys = false;
            for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
                sys |= !strncmp(p, skip[k], strlen(skip[k]));
            if (!sys && kc_read_regular(p, (size_t)4 << 20, &buf, &cap, &len, NULL))
                arch_defines(&c, buf, len);
        }
        free(buf);
        if (c.names.len) {
            t->arch_macros = kc_arena_alloc(t->m->arena, c.names.len * sizeof *t->arch_macros);
            memcpy(t->arch_macros, c.names.data, c.names.len * sizeof *t->arch_macros);
            t->narch_macros = c.names.len;
        }
        kc_vec_free(&c.names);
    }
    for (uint32_t i = 0; name && i < t->narch_macros; i++)
        if (!strcmp(t->arch_macros[i], name))
            return true;
    return false;
}
