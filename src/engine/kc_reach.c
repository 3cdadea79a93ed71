/* kc_reach.c — functions of the run's files that nothing in their
 * repository names (kc_reach.h). */
#define _GNU_SOURCE 1 /* memmem */
#include "kc_reach.h"

#include "kc_arch.h"
#include "kc_build.h"
#include "kc_frontend.h"
#include "kc_path.h"
#include "kc_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- scanning a text for names ---- */

/* What an identifier of a text is: a use, or the name of the function its
 * declaration defines: a device function (DEF), a kernel (DEF_ENTRY: a
 * CUDA kernel, a Python function decorated with a `jit`), a Python
 * function of the host (DEF_HOST: not judged, but a file that calls one of
 * its own is one whose code runs, as one that launches its kernels), or a
 * C/C++ function of the host defined at namespace scope (DEF_HOSTFN: a
 * launcher, a stage of a host pipeline), or a function a source file (not
 * a header) only declares at namespace scope (DECL: `int f(int);` in
 * bindings.cpp, not a use; a header's declaration is an interface for
 * code outside the repository, and counts as one). */
enum { USE = 0, DEF, DEF_ENTRY, DEF_HOST, DEF_HOSTFN, DECL };
/* Not identifiers: the body of the C/C++ function of the host just named
 * DEF_HOSTFN opens (BODY, with that name) and closes (BODY_END); the text
 * ends with its braces unbalanced (UNBALANCED: an `#if` arm opening one),
 * so that what BODY and BODY_END enclosed is not to be trusted. */
enum { BODY = 16, BODY_END, UNBALANCED };

/* One identifier of a text, outside comments (string literals included). */
typedef void (*ident_fn)(void *ud, const char *s, size_t n, int what);

static bool ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static bool word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && memcmp(s, w, n) == 0; }

/* The identifiers of t[0..len), none a definition (a string's text). */
static void scan_words(const char *t, size_t len, ident_fn fn, void *ud)
{
    for (size_t i = 0; i < len; i++) {
        if (!ident_start(t[i]) || (i && kc_ident_char(t[i - 1])))
            continue;
        size_t j = i;
        while (j < len && kc_ident_char(t[j]))
            j++;
        fn(ud, t + i, j - i, USE);
        i = j - 1;
    }
}

/* The end of the string literal whose opening quote is at t[i] (one past
 * its closing quote, or len), and where its text begins and ends. */
static size_t string_end(const char *t, size_t len, size_t i, bool python, size_t *a, size_t *b)
{
    char q = t[i];
    bool triple = python && i + 2 < len && t[i + 1] == q && t[i + 2] == q;
    size_t j = i + (triple ? 3 : 1);
    *a = j;
    for (; j < len; j++) {
        if (t[j] == '\\') {
            j++;
            continue;
        }
        if (t[j] == '\n' && !triple)
            break;
        if (t[j] == q && (!triple || (j + 2 < len && t[j + 1] == q && t[j + 2] == q)))
            break;
    }
    if (j > len)
        j = len;
    *b = j;
    if (j >= len)
        return len;
    return j + (triple ? 3 : 1);
}

/* Python: a name right after `def` is a definition, a kernel's when a
 * decorator line naming `jit` comes before it. The statements after a
 * `return` or `raise` of the same block (and what they nest) never run:
 * their names are not read (a backward launch left after `return None,
 * None`). */
static void scan_python(const char *t, size_t len, ident_fn fn, void *ud)
{
    bool after_def = false, jit = false;
    int depth = 0;             /* open brackets: a logical line goes on */
    bool line_start = true;    /* at the first token of a logical line */
    long ind = 0, dead_ind = -1, ends_block = -1; /* the line's indent; the block a return ended */
    bool dead = false;         /* the logical line is one that never runs */
    for (size_t i = 0; i < len;) {
        char c = t[i];
        if (line_start && (c == ' ' || c == '\t')) {
            ind += c == '\t' ? 8 - ind % 8 : 1;
            i++;
            continue;
        }
        if (line_start && c != '\n' && c != '\r' && c != '#') {
            line_start = false;
            if (dead_ind >= 0 && ind < dead_ind)
                dead_ind = -1;
            dead = dead_ind >= 0;
            size_t j = i;
            while (j < len && kc_ident_char(t[j]))
                j++;
            if (!dead && (word_is(t + i, j - i, "return") || word_is(t + i, j - i, "raise")))
                ends_block = ind;
        }
        if (c == '\n' && depth <= 0 && !(i > 0 && t[i - 1] == '\\')) {
            if (!line_start && ends_block >= 0)
                dead_ind = ends_block;
            ends_block = -1;
            line_start = true;
            ind = 0;
            depth = 0;
            i++;
        } else if (c == '@') {
            const char *eol = memchr(t + i, '\n', len - i);
            size_t n = eol ? (size_t)(eol - (t + i)) : len - i;
            jit |= !dead && memmem(t + i, n, "jit", 3) != NULL;
            i++;
        } else if (c == '#') {
            while (i < len && t[i] != '\n')
                i++;
        } else if (c == '\'' || c == '"') {
            size_t a, b;
            i = string_end(t, len, i, true, &a, &b);
            if (!dead)
                scan_words(t + a, b - a, fn, ud);
            after_def = false;
        } else if (ident_start(c) && (i == 0 || !kc_ident_char(t[i - 1]))) {
            size_t j = i;
            while (j < len && kc_ident_char(t[j]))
                j++;
            if (dead) {
                /* (never runs: nothing it names is used, nothing it defines exists) */
            } else if (word_is(t + i, j - i, "def")) {
                after_def = true;
            } else if (word_is(t + i, j - i, "class")) {
                jit = false;
            } else {
                fn(ud, t + i, j - i, !after_def ? USE : jit ? DEF_ENTRY : DEF_HOST);
                if (after_def)
                    jit = false;
                after_def = false;
            }
            i = j;
        } else {
            depth += c == '(' || c == '[' || c == '{' ? 1 : c == ')' || c == ']' || c == '}' ? -1 : 0;
            if (c != ' ' && c != '\t')
                after_def = false;
            i++;
        }
    }
}

/* A word that makes a C++ declaration one of device code: `__global__`,
 * `__device__`, or a macro in capitals that names DEVICE or GLOBAL
 * (`CUTLASS_DEVICE`). DEF_ENTRY for a kernel's, DEF for a device
 * function's, USE for any other word. */
static int device_word(const char *s, size_t n)
{
    if (word_is(s, n, "__global__"))
        return DEF_ENTRY;
    if (word_is(s, n, "__device__"))
        return DEF;
    if (!kc_device_macro_name(s, n))
        return USE;
    return memmem(s, n, "GLOBAL", 6) ? DEF_ENTRY : DEF;
}

/* C, C++ and CUDA: in a statement (from the last `;`, `{` or `}`) that
 * says device_word, the first name followed by `(` other than an
 * attribute's (`__launch_bounds__(`, `decltype(`) is the function it
 * declares. */
/* At t[i], a `#` that begins its line: the directive's word in *w, *wn,
 * and the index after it. */
static size_t directive(const char *t, size_t len, size_t i, const char **w, size_t *wn)
{
    size_t j = i + 1;
    while (j < len && (t[j] == ' ' || t[j] == '\t'))
        j++;
    size_t k = j;
    while (k < len && kc_ident_char(t[k]))
        k++;
    *w = t + j;
    *wn = k - j;
    return k;
}

static bool line_start(const char *t, size_t i)
{
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
        i--;
    return i == 0 || t[i - 1] == '\n';
}

/* At t[i], `#if 0` (or `#if false`): the index where the code that the
 * compiler sees resumes, the line of its `#else`/`#elif` or the end of its
 * `#endif` line (nested conditionals skipped whole); i itself otherwise.
 * Code there is never compiled: a launch kept in it launches nothing. */
static size_t skip_if0(const char *t, size_t len, size_t i)
{
    const char *w;
    size_t wn, j = directive(t, len, i, &w, &wn);
    if (!word_is(w, wn, "if"))
        return i;
    while (j < len && (t[j] == ' ' || t[j] == '\t'))
        j++;
    size_t k = j;
    while (k < len && kc_ident_char(t[k]))
        k++;
    if (!word_is(t + j, k - j, "0") && !word_is(t + j, k - j, "false"))
        return i;
    while (k < len && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
        k++;
    if (k < len && t[k] != '\n' && t[k] != '/')
        return i; /* `#if 0 || X`: not dead for certain */
    unsigned depth = 0;
    for (size_t p = k; p < len; p++) {
        if (t[p] != '#' || !line_start(t, p))
            continue;
        size_t e = directive(t, len, p, &w, &wn);
        if (word_is(w, wn, "if") || word_is(w, wn, "ifdef") || word_is(w, wn, "ifndef")) {
            depth++;
        } else if (word_is(w, wn, "endif")) {
            if (depth == 0) {
                while (e < len && t[e] != '\n')
                    e++;
                return e;
            }
            depth--;
        } else if (depth == 0 && (word_is(w, wn, "else") || word_is(w, wn, "elif"))) {
            while (e < len && t[e] != '\n')
                e++;
            return e;
        }
    }
    return len;
}

/* Past the comment or string literal at t[i] (i itself when none). */
static size_t skip_lexeme(const char *t, size_t len, size_t i)
{
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
        while (i < len && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
        const char *e = memmem(t + i + 2, len - i - 2, "*/", 2);
        return e ? (size_t)(e - t) + 2 : len;
    }
    if (t[i] == '"' || (t[i] == '\'' && !(i && kc_ident_char(t[i - 1])))) {
        size_t a, b;
        return string_end(t, len, i, false, &a, &b);
    }
    return i;
}

/* At t[i] a `(`: the index of its `)`, comments and string literals
 * skipped; len when the text ends first or a `;`, `{` or `}` comes
 * before it (no parameter list). */
static size_t params_close(const char *t, size_t len, size_t i)
{
    unsigned depth = 0;
    for (; i < len; i++) {
        size_t e = skip_lexeme(t, len, i);
        if (e != i) {
            i = e - 1;
            continue;
        }
        if (t[i] == '(')
            depth++;
        else if (t[i] == ')' && --depth == 0)
            return i;
        else if (t[i] == ';' || t[i] == '{' || t[i] == '}')
            return len;
    }
    return len;
}

/* At t[i] a `(` that follows a name: is the name a function this text
 * defines, its parameters then (after the qualifiers `const`, `noexcept`,
 * `override`, a trailing return type) its body's `{`? A call is followed
 * by `;`, `)` or an operator, never by a body. */
static bool opens_body(const char *t, size_t len, size_t i)
{
    for (i = params_close(t, len, i) + 1; i < len; i++) {
        size_t e = skip_lexeme(t, len, i);
        if (e != i) {
            i = e - 1;
            continue;
        }
        char c = t[i];
        if (c == '{')
            return true;
        if (!(kc_ident_char(c) || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '>' ||
              c == '<' || c == ':' || c == '*' || c == '&' || c == ','))
            return false;
    }
    return false;
}

/* At t[i] a `(` that follows a name: are the parameters followed, after
 * the qualifiers (`const`, `noexcept`, `override`), by `;`: a prototype,
 * where the statement assigns nothing (`int x = f(1);` calls f)? */
static bool declares_only(const char *t, size_t len, size_t i)
{
    for (i = params_close(t, len, i) + 1; i < len; i++) {
        char c = t[i];
        if (c == ';')
            return true;
        if (!(kc_ident_char(c) || c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            return false;
    }
    return false;
}

/* The C/C++ keywords that are followed by `(` and a block. */
static bool control_word(const char *s, size_t n)
{
    static const char *const w[] = {"if", "for", "while", "switch", "catch", "return", "sizeof", "main"};
    for (size_t k = 0; k < sizeof w / sizeof w[0]; k++)
        if (word_is(s, n, w[k]))
            return true;
    return false;
}

/* Open braces: a namespace's or an `extern "C"` block's is transparent
 * (what it holds is at namespace scope), any other (a class, a function
 * body, an initializer) is not. Up to 64 levels; deeper ones count as
 * not transparent. */
typedef struct brace_stack {
    uint64_t transparent; /* bit d: the brace at depth d */
    unsigned depth, opaque;
} brace_stack;

static void brace_open(brace_stack *b, bool transparent)
{
    if (b->depth < 64 && transparent)
        b->transparent |= (uint64_t)1 << b->depth;
    else if (b->depth < 64)
        b->transparent &= ~((uint64_t)1 << b->depth);
    if (!transparent || b->depth >= 64)
        b->opaque++;
    b->depth++;
}

static void brace_close(brace_stack *b)
{
    if (b->depth == 0)
        return; /* unbalanced (a brace in one arm of `#if`): stay at the top */
    b->depth--;
    if (b->depth >= 64 || !(b->transparent >> b->depth & 1))
        b->opaque--;
}

/* The preprocessor directive at t[i]: its names (and those of its
 * string literals) are uses, its comments left out; returns the index of
 * the end of its last line. */
static size_t scan_directive(const char *t, size_t len, size_t i, ident_fn fn, void *ud)
{
    while (i < len && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < len) {
            i += 2;
            continue;
        }
        size_t e = skip_lexeme(t, len, i);
        if (e != i) {
            if (t[i] == '"')
                scan_words(t + i + 1, e - i - 1, fn, ud);
            i = e;
            continue;
        }
        if (ident_start(t[i]) && (i == 0 || !kc_ident_char(t[i - 1]))) {
            size_t j = i;
            while (j < len && kc_ident_char(t[j]))
                j++;
            fn(ud, t + i, j - i, USE);
            i = j;
            continue;
        }
        i++;
    }
    return i;
}

static void scan_c(const char *t, size_t len, bool header, ident_fn fn, void *ud)
{
    int qual = USE; /* what the statement so far declares */
    bool named = false;
    bool assigns = false, words = false; /* the statement so far has a `=`, a word */
    /* the statement so far: begins with `namespace` / `extern`, its last
     * token a string literal (`extern "C" {`), it names `::` before a name */
    bool ns_stmt = false, first = true, last_string = false, scoped = false;
    brace_stack braces = {0};
    /* the host function the statement defines, and the depth its body opened at */
    const char *def = NULL;
    size_t def_n = 0;
    unsigned body_depth = 0;
    bool in_body = false, unbalanced = false;
    for (size_t i = 0; i < len;) {
        char c = t[i];
        size_t dead;
        if (c == '#' && line_start(t, i) && (dead = skip_if0(t, len, i)) != i) {
            i = dead;
        } else if (c == '#' && line_start(t, i)) {
            /* a directive: its words are uses; its braces (a macro's body)
             * open no scope */
            i = scan_directive(t, len, i, fn, ud);
        } else if (c == '/' && i + 1 < len && t[i + 1] == '/') {
            while (i < len && t[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && t[i + 1] == '*') {
            const char *e = memmem(t + i + 2, len - i - 2, "*/", 2);
            i = e ? (size_t)(e - t) + 2 : len;
        } else if (c == '"' || (c == '\'' && !(i && kc_ident_char(t[i - 1])))) {
            size_t a, b;
            i = string_end(t, len, i, false, &a, &b);
            if (c == '"')
                scan_words(t + a, b - a, fn, ud);
            last_string = c == '"';
            first = false;
        } else if (c == ';' || c == '{' || c == '}') {
            if (c == '{' && def && !in_body && braces.opaque == 0) {
                fn(ud, def, def_n, BODY);
                in_body = true;
                body_depth = braces.depth;
            }
            if (c == '{')
                brace_open(&braces, ns_stmt || last_string);
            else if (c == '}') {
                unbalanced |= braces.depth == 0;
                brace_close(&braces);
                if (in_body && braces.depth == body_depth) {
                    fn(ud, NULL, 0, BODY_END);
                    in_body = false;
                }
            }
            def = NULL;
            qual = USE;
            named = ns_stmt = last_string = scoped = assigns = words = false;
            first = true;
            i++;
        } else if (ident_start(c) && (i == 0 || !kc_ident_char(t[i - 1]))) {
            size_t j = i;
            while (j < len && kc_ident_char(t[j]))
                j++;
            if (first)
                ns_stmt = word_is(t + i, j - i, "namespace") || word_is(t + i, j - i, "extern");
            else if (!word_is(t + i, j - i, "extern"))
                ns_stmt &= word_is(t + i, j - i, "inline") || !last_string;
            first = last_string = false;
            bool after_scope = scoped;
            scoped = false;
            int w = device_word(t + i, j - i);
            if (w != USE) {
                if (w > qual)
                    qual = w;
                i = j;
                continue;
            }
            size_t a = j;
            while (a < len && (t[a] == ' ' || t[a] == '\t' || t[a] == '\n' || t[a] == '\r'))
                a++;
            int what = USE;
            if (qual != USE && !named && a < len && t[a] == '(' &&
                !(j - i > 2 && t[i] == '_' && t[i + 1] == '_') && !word_is(t + i, j - i, "decltype") &&
                !word_is(t + i, j - i, "alignas")) {
                what = qual;
                named = true;
            } else if (qual == USE && !named && braces.opaque == 0 && !after_scope && a < len && t[a] == '(' &&
                       !control_word(t + i, j - i)) {
                /* a function's name at namespace scope: defined here, or
                 * (in a source file) only declared; a name first in its
                 * statement is a macro's (`REGISTER(f);`) */
                if (opens_body(t, len, a))
                    what = DEF_HOSTFN;
                else if (!header && words && !assigns && declares_only(t, len, a))
                    what = DECL;
                named = what != USE;
            }
            if (what == DEF_HOSTFN)
                def = t + i, def_n = j - i;
            fn(ud, t + i, j - i, what);
            words = true;
            i = j;
        } else {
            if (c == ':' && i + 1 < len && t[i + 1] == ':') {
                scoped = true;
                i += 2;
                continue;
            }
            if (c == '=')
                assigns = true;
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                last_string = false;
                first = false;
                scoped = false;
            }
            i++;
        }
    }
    if (unbalanced || braces.depth != 0)
        fn(ud, NULL, 0, UNBALANCED);
}

static bool is_python(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

/* A C/C++ or CUDA source file, not a header (`.h`, `.cuh`, `.inl`: the
 * interface of code others include). */
static bool source_file(const char *path)
{
    static const char *const exts[] = {".cu", ".cpp", ".cc", ".cxx", ".c"};
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
        if (strcmp(dot, exts[i]) == 0)
            return true;
    return false;
}

static void scan(const char *path, const char *t, size_t len, ident_fn fn, void *ud)
{
    if (is_python(path))
        scan_python(t, len, fn, ud);
    else
        scan_c(t, len, !source_file(path), fn, ud);
}

/* ---- the names a repository's files define and name ---- */

typedef struct cand {
    const char *name; /* NUL-terminated */
    size_t n;
    uint32_t refs;
} cand;

typedef KC_VEC(char *) str_vec;
typedef KC_VEC(const char *) cstr_vec;
typedef KC_VEC(uint32_t) u32_vec;

typedef struct defs_ctx {
    str_vec *names;   /* the functions judged: kernels, device functions */
    str_vec *entries; /* kernels, borrowed from names */
    str_vec *hosts;   /* Python functions of the host (owned) */
    str_vec *hostfns; /* C/C++ functions of the host (owned); NULL: not collected */
} defs_ctx;

static void on_def(void *ud, const char *s, size_t n, int what)
{
    defs_ctx *c = ud;
    if (what == USE || what == DECL || what >= BODY || (what == DEF_HOSTFN && !c->hostfns))
        return;
    char *name = kc_xstrndup(s, n);
    if (what == DEF_HOST || what == DEF_HOSTFN) {
        kc_vec_push(what == DEF_HOST ? c->hosts : c->hostfns, name);
        return;
    }
    kc_vec_push(c->names, name);
    if (what == DEF_ENTRY)
        kc_vec_push(c->entries, name);
}

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    size_t m = x->n < y->n ? x->n : y->n;
    int r = memcmp(x->name, y->name, m);
    return r ? r : (x->n < y->n ? -1 : x->n > y->n ? 1 : 0);
}

typedef struct refs_ctx {
    cand *c;
    uint32_t n;
} refs_ctx;

static void on_ref(void *ud, const char *s, size_t n, int what)
{
    refs_ctx *r = ud;
    if (what != USE)
        return;
    cand key = {s, n, 0};
    cand *hit = bsearch(&key, r->c, r->n, sizeof *r->c, cmp_cand);
    if (hit)
        hit->refs++;
}

/* The repository a file lives in, not the home directory; malloc'd, or
 * NULL. */
static char *repo_of(const char *abspath)
{
    char *root = kc_path_repository(abspath);
    if (root && kc_path_is_home(root)) {
        free(root);
        root = NULL;
    }
    return root;
}

/* A file of the run that may define kernels: CUDA, or Python that
 * mentions `jit`. */
static bool may_define(const char *path, const char *text, size_t len)
{
    kc_lang lang;
    if (!kc_lang_for_path(path, &lang))
        return false;
    return lang != KC_LANG_TRITON || memmem(text, len, "jit", 3) != NULL;
}

/* Reads every CUDA and Python file of the repository at root (and the
 * run's files in it, which a .gitignore may leave out of the walk),
 * counting the names of cands they mention. False when the repository is
 * larger than the limits. *nread: the files read. */
static bool count_refs(const kc_path_list *found, char *const *run_paths, uint32_t nrun, size_t max_file_size,
                       size_t max_bytes, cand *c, uint32_t nc, uint32_t *nread)
{
    char *buf = NULL;
    size_t cap = 0, len = 0, bytes = 0;
    uint32_t nlang = 0;
    kc_lang lang;
    for (uint32_t j = 0; j < found->files.len; j++)
        nlang += kc_lang_for_path(found->files.data[j].path, &lang);
    bool ok = nlang <= KC_REACH_MAX_FILES;
    refs_ctx rc = {c, nc};
    uint32_t n = 0;
    KC_VEC(char *) seen = {0};
    for (uint32_t j = 0; ok && j < found->files.len; j++) {
        const kc_file_result *f = &found->files.data[j];
        if (f->errors.items.len || !kc_lang_for_path(f->path, &lang))
            continue;
        char *abs = kc_path_absolute(f->path);
        if (abs)
            kc_vec_push(&seen, abs);
        if (!kc_read_regular(f->path, max_file_size, &buf, &cap, &len, NULL))
            continue;
        n++;
        bytes += len;
        ok = bytes <= max_bytes;
        scan(f->path, buf, len, on_ref, &rc);
    }
    /* the run's files the walk did not take */
    for (uint32_t r = 0; ok && r < nrun; r++) {
        bool walked = false;
        for (uint32_t s = 0; s < seen.len && !walked; s++)
            walked = strcmp(seen.data[s], run_paths[r]) == 0;
        if (walked || !kc_read_regular(run_paths[r], max_file_size, &buf, &cap, &len, NULL))
            continue;
        n++;
        scan(run_paths[r], buf, len, on_ref, &rc);
    }
    for (uint32_t s = 0; s < seen.len; s++)
        free(seen.data[s]);
    kc_vec_free(&seen);
    free(buf);
    *nread = n;
    return ok;
}

/* What one walk of a repository takes: its CUDA and Python files (the
 * names they mention), and, where a CUDA source of the run is in it, the
 * files its build index reads (kc_build.h). */
static bool lang_file(const char *path)
{
    kc_lang lang;
    return kc_lang_for_path(path, &lang);
}

static bool lang_or_build_file(const char *path) { return lang_file(path) || kc_build_wants(path); }

static void path_list_free(kc_path_list *l)
{
    for (uint32_t j = 0; j < l->files.len; j++)
        kc_file_result_free(&l->files.data[j]);
    kc_vec_free(&l->files);
}

/* The distinct names of vecs[0..nv) (each from its index from[]), sorted,
 * as cands with no reference counted yet (caller frees). */
static cand *unique_cands(const str_vec *const *vecs, const uint32_t *from, unsigned nv, uint32_t *n)
{
    uint32_t total = 0, u = 0;
    for (unsigned v = 0; v < nv; v++)
        total += vecs[v]->len - from[v];
    cand *c = kc_xcalloc(total + 1, sizeof *c);
    for (unsigned v = 0; v < nv; v++)
        for (uint32_t k = from[v]; k < vecs[v]->len; k++)
            c[u++] = (cand){vecs[v]->data[k], strlen(vecs[v]->data[k]), 0};
    qsort(c, total, sizeof *c, cmp_cand);
    u = 0;
    for (uint32_t k = 0; k < total; k++) /* each name once: a use counts in one place */
        if (u == 0 || cmp_cand(&c[u - 1], &c[k]) != 0)
            c[u++] = c[k];
    *n = u;
    return c;
}

static uint32_t refs_of(const cand *c, uint32_t n, const char *name)
{
    cand key = {name, strlen(name), 0};
    const cand *hit = bsearch(&key, c, n, sizeof *c, cmp_cand);
    return hit ? hit->refs : 0;
}

/* Is the file code whose host functions the analysis judges: CUDA (a
 * C++ source only when it holds kernels: without, it is not checked). */
static bool judged_host(const char *path, const char *text, size_t len)
{
    kc_lang lang;
    if (!kc_lang_for_path(path, &lang) || lang != KC_LANG_CUDA)
        return false;
    return !kc_path_is_cxx_source(path) || kc_source_has_kernels(text, len);
}

typedef KC_VEC(kc_unref) unref_vec;

static void push_unique(unref_vec *un, const char *name, const char *via)
{
    for (uint32_t q = 0; q < un->len; q++)
        if (strcmp(un->data[q].name, name) == 0)
            return;
    kc_unref u = {name, via};
    kc_vec_push(un, u);
}

static int unref_cmp(const void *a, const void *b)
{
    return strcmp(((const kc_unref *)a)->name, ((const kc_unref *)b)->name);
}

/* The functions the file (text[0..len)) defines: the kernels and device
 * functions nothing in it names but their definition, added to names
 * (the others go to owned) when it launches or calls its own (the return
 * value: a file that does not is used from outside); its C/C++ functions
 * of the host, every one, added to hostfns, with how often the file names
 * each in own_uses. */
static bool file_defs(const char *path, const char *text, size_t len, str_vec *names, str_vec *hostfns,
                      u32_vec *own_uses, kc_reach *owned)
{
    uint32_t before = names->len, hbefore = hostfns->len;
    str_vec entries = {0}, hosts = {0};
    defs_ctx dc = {names, &entries, &hosts, judged_host(path, text, len) ? hostfns : NULL};
    scan(path, text, len, on_def, &dc);
    /* one scan for how often the file names each (entries are among names) */
    const str_vec *vecs[] = {names, &hosts, hostfns};
    const uint32_t from[] = {before, 0, hbefore};
    uint32_t nu;
    cand *uses = unique_cands(vecs, from, 3, &nu);
    refs_ctx rc = {uses, nu};
    if (nu)
        scan(path, text, len, on_ref, &rc);
    bool self = false;
    for (uint32_t q = 0; q < entries.len && !self; q++)
        self = refs_of(uses, nu, entries.data[q]) > 0;
    for (uint32_t q = 0; q < hosts.len && !self; q++)
        self = refs_of(uses, nu, hosts.data[q]) > 0;
    /* what the file itself names needs no other file read, and nothing is
     * said of a file that runs none of its own code */
    uint32_t w = before;
    for (uint32_t q = before; q < names->len; q++) {
        if (self && refs_of(uses, nu, names->data[q]) == 0)
            names->data[w++] = names->data[q];
        else
            kc_vec_push(&owned->names, names->data[q]);
    }
    names->len = w;
    for (uint32_t q = hbefore; q < hostfns->len; q++)
        kc_vec_push(own_uses, refs_of(uses, nu, hostfns->data[q]));
    free(uses);
    kc_vec_free(&entries);
    for (uint32_t q = 0; q < hosts.len; q++)
        free(hosts.data[q]);
    kc_vec_free(&hosts);
    return self;
}

/* A use of one cand inside the body of another (a C/C++ function of the
 * host), by their indices among the cands. */
typedef struct inner_use {
    uint32_t in, of;
} inner_use;
typedef KC_VEC(inner_use) inner_vec;

typedef struct body_ctx {
    const cand *c;
    uint32_t n;
    int64_t cur;     /* the cand whose body the scan is in, or -1 */
    inner_vec *uses;
    uint32_t from;   /* where this file's uses start in uses */
    const bool *here; /* per cand: a host function this file defines */
} body_ctx;

static int64_t cand_ix(const cand *c, uint32_t n, const char *s, size_t len)
{
    cand key = {s, len, 0};
    const cand *hit = n ? bsearch(&key, c, n, sizeof *c, cmp_cand) : NULL;
    return hit ? hit - c : -1;
}

static void on_body(void *ud, const char *s, size_t n, int what)
{
    body_ctx *b = ud;
    if (what == BODY) {
        b->cur = cand_ix(b->c, b->n, s, n);
    } else if (what == BODY_END) {
        b->cur = -1;
    } else if (what == UNBALANCED) {
        b->uses->len = b->from; /* where a body ends is not known */
    } else if (what == USE && b->cur >= 0) {
        int64_t of = cand_ix(b->c, b->n, s, n);
        inner_use u = {(uint32_t)b->cur, (uint32_t)of};
        if (of >= 0 && of != b->cur && b->here[of])
            kc_vec_push(b->uses, u);
    }
}

/* The cands nothing that runs names: named nowhere but where they are
 * defined (refs 0), or only inside the bodies of such functions of the
 * run's files (then, transitively, what only those name); via[k] is the
 * function whose body named k (NULL for the first kind). */
static void dead_cands(const cand *c, uint32_t n, const inner_vec *uses, bool *dead, const char **via)
{
    uint32_t *inside = kc_xcalloc(n + 1, sizeof *inside);
    uint32_t *from = kc_xcalloc(n + 1, sizeof *from);
    for (uint32_t k = 0; k < n; k++)
        dead[k] = c[k].refs == 0, via[k] = NULL;
    for (bool changed = uses->len > 0; changed;) {
        changed = false;
        memset(inside, 0, n * sizeof *inside);
        for (uint32_t u = 0; u < uses->len; u++)
            if (dead[uses->data[u].in])
                inside[uses->data[u].of]++, from[uses->data[u].of] = uses->data[u].in;
        for (uint32_t k = 0; k < n; k++)
            if (!dead[k] && inside[k] == c[k].refs) {
                dead[k] = changed = true;
                via[k] = c[from[k]].name;
            }
    }
    free(inside);
    free(from);
}

/* The cands nothing that runs names, as seen from the run file `path`
 * (dead_cands): named nowhere (refs 0), or only inside the bodies of such
 * host functions of `path` itself (its nfns functions fns[]): a static
 * helper only a dead launcher beside it calls. Uses in another file's
 * bodies count as live, so that the answer depends on the file and its
 * repository, not on which other files the run holds. dead[k] and via[k]
 * for each of the nc cands. */
static void find_dead(const cand *c, uint32_t nc, const char *path, char *const *fns, uint32_t nfns,
                      size_t max_file_size, bool *dead, const char **via)
{
    inner_vec inner = {0};
    char *buf = NULL;
    size_t cap = 0, len = 0;
    bool *here = kc_xcalloc(nc + 1, sizeof *here);
    for (uint32_t k = 0; k < nfns; k++) {
        int64_t ix = cand_ix(c, nc, fns[k], strlen(fns[k]));
        if (ix >= 0)
            here[ix] = true;
    }
    body_ctx bc = {c, nc, -1, &inner, 0, here};
    if (nfns && kc_read_regular(path, max_file_size, &buf, &cap, &len, NULL))
        scan(path, buf, len, on_body, &bc);
    free(here);
    free(buf);
    dead_cands(c, nc, &inner, dead, via);
    kc_vec_free(&inner);
}

/* name into un when find_dead found it dead. */
static void push_if_dead(unref_vec *un, const cand *c, uint32_t nc, const bool *dead, const char **via,
                         const char *name)
{
    int64_t ix = cand_ix(c, nc, name, strlen(name));
    if (ix >= 0 && dead[ix])
        push_unique(un, name, via[ix]);
}

/* The architectures the build files above a CUDA source target
 * (kc_arch.h) into its peers; the text is owned by `owned`. They depend
 * only on the source's directory: each directory of a repository is read
 * once (`seen`, that repository's directories so far). */
typedef struct arch_dir {
    char *dir;
    unsigned max;
    const char *text;
} arch_dir;
typedef KC_VEC(arch_dir) arch_dirs;

static void build_archs(const char *root, const char *path, size_t max_file_size, kc_peers *peers, kc_reach *owned,
                        arch_dirs *seen)
{
    size_t pl = strlen(path);
    const char *slash = strrchr(path, '/');
    if (!slash || !(pl > 3 && (!strcmp(path + pl - 3, ".cu") || (pl > 4 && !strcmp(path + pl - 4, ".cuh")))))
        return;
    size_t dl = (size_t)(slash - path);
    const arch_dir *hit = NULL;
    for (uint32_t i = 0; i < seen->len && !hit; i++)
        if (strlen(seen->data[i].dir) == dl && !memcmp(seen->data[i].dir, path, dl))
            hit = &seen->data[i];
    if (!hit) {
        kc_arch_targets at = {0, NULL};
        kc_arch_read(root, path, max_file_size, &at);
        if (at.text)
            kc_vec_push(&owned->names, at.text);
        arch_dir d = {kc_xstrndup(path, dl), at.max, at.text};
        kc_vec_push(seen, d);
        hit = &seen->data[seen->len - 1];
    }
    if (hit->text) {
        peers->build_arch_max = hit->max;
        peers->build_archs = hit->text;
    }
}

void kc_reach_link(kc_path_list *files, size_t max_file_size, kc_reach *owned)
{
    uint32_t nf = (uint32_t)files->files.len;
    char **abs = kc_xcalloc(nf + 1, sizeof *abs);
    char **root = kc_xcalloc(nf + 1, sizeof *root);
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (uint32_t i = 0; i < nf; i++) {
        kc_file_result *r = &files->files.data[i];
        kc_lang lang;
        if (r->errors.items.len || !r->path || !kc_lang_for_path(r->path, &lang))
            continue;
        abs[i] = kc_path_absolute(r->path);
        if (abs[i])
            root[i] = repo_of(abs[i]);
    }
    for (uint32_t i = 0; i < nf; i++) {
        if (!root[i])
            continue;
        /* the run's files of this repository, and the names they define */
        KC_VEC(uint32_t) mine = {0};
        KC_VEC(char *) run_paths = {0};
        str_vec names = {0};
        KC_VEC(uint32_t) ndefs = {0}; /* per file of mine: how many of names are its */
        KC_VEC(bool) self_ref = {0};  /* per file of mine: it names one of its own functions */
        /* the C/C++ functions of the host the files define (every one, in
         * file order), how many are each file's, and how often each is
         * named in its own file */
        str_vec hostfns = {0};
        KC_VEC(uint32_t) nhost = {0};
        u32_vec own_uses = {0};
        for (uint32_t k = i; k < nf; k++) {
            if (!root[k] || strcmp(root[k], root[i]) != 0)
                continue;
            kc_vec_push(&mine, k);
            kc_vec_push(&run_paths, abs[k]);
            uint32_t before = names.len, hbefore = hostfns.len;
            bool self = false;
            if (kc_read_regular(abs[k], max_file_size, &buf, &cap, &len, NULL) && may_define(abs[k], buf, len))
                self = file_defs(abs[k], buf, len, &names, &hostfns, &own_uses, owned);
            kc_vec_push(&ndefs, names.len - before);
            kc_vec_push(&nhost, hostfns.len - hbefore);
            kc_vec_push(&self_ref, self);
        }
        const str_vec *vecs[] = {&names, &hostfns};
        const uint32_t from[] = {0, 0};
        uint32_t nc;
        cand *c = unique_cands(vecs, from, 2, &nc);
        uint32_t nread = 0;
        /* host functions alone are judged in a repository of up to
         * KC_REACH_HOST_MAX_BYTES (a single file's check pays for the read) */
        size_t budget = names.len ? KC_REACH_MAX_BYTES : KC_REACH_HOST_MAX_BYTES;
        /* one walk of the repository for both readings */
        /* (a CUDA source whose own and enclosing directories' build files
         * list CUDA sources one by one: only then is the index read) */
        bool cuda_source = false;
        for (uint32_t m = 0; m < mine.len && !cuda_source; m++)
            cuda_source = kc_build_ancestors_list(root[i], abs[mine.data[m]], max_file_size);
        kc_path_list walked = {0};
        if (nc || cuda_source)
            kc_expand_paths_if((const char *const *)&root[i], 1, cuda_source ? lang_or_build_file : lang_file,
                               &walked);
        bool known = nc && count_refs(&walked, run_paths.data, run_paths.len, max_file_size, budget, c, nc, &nread);
        bool *dead = kc_xcalloc(nc + 1, sizeof *dead);
        const char **via = kc_xcalloc(nc + 1, sizeof *via);
        /* the CUDA sources of the run no build file compiles (kc_build.h) */
        kc_build_index bi = {0};
        if (cuda_source)
            kc_build_index_read(root[i], &walked, max_file_size, KC_REACH_MAX_FILES, KC_REACH_MAX_BYTES, &bi);
        for (uint32_t m = 0; cuda_source && m < mine.len; m++) {
            const char *rel = kc_path_under(abs[mine.data[m]], root[i]);
            char *why = rel ? kc_build_unbuilt(&bi, rel) : NULL;
            if (why) {
                files->files.data[mine.data[m]].peers.unbuilt = why;
                kc_vec_push(&owned->names, why);
            }
        }
        kc_build_index_free(&bi);
        path_list_free(&walked);
        arch_dirs seen = {0};
        for (uint32_t m = 0; m < mine.len; m++)
            build_archs(root[i], abs[mine.data[m]], max_file_size, &files->files.data[mine.data[m]].peers, owned,
                        &seen);
        for (uint32_t d = 0; d < seen.len; d++)
            free(seen.data[d].dir);
        kc_vec_free(&seen);
        /* each file's names found only where they are defined */
        uint32_t at = 0, hat = 0;
        for (uint32_t m = 0; m < mine.len; m++) {
            kc_file_result *r = &files->files.data[mine.data[m]];
            unref_vec un = {0};
            if (known)
                find_dead(c, nc, run_paths.data[m], hostfns.data + hat, nhost.data[m], max_file_size, dead, via);
            for (uint32_t k = at; known && k < at + ndefs.data[m]; k++)
                push_if_dead(&un, c, nc, dead, via, names.data[k]);
            /* a file that launches none of its own kernels (calls none of
             * its Python functions) is used from outside it (a library's
             * kernels, a module of kernels another launches, work in
             * progress): what its repository names does not show what runs */
            if (!self_ref.data[m])
                un.len = 0;
            /* Its host functions: judged only when another file of the
             * repository names one of them (the file is part of a program
             * there, not a library used from outside or a file on its
             * own); then one named nowhere but where it is defined is
             * called by nothing. */
            bool linked = false;
            for (uint32_t k = hat; known && k < hat + nhost.data[m] && !linked; k++)
                linked = refs_of(c, nc, hostfns.data[k]) > own_uses.data[k];
            for (uint32_t k = hat; linked && k < hat + nhost.data[m]; k++)
                push_if_dead(&un, c, nc, dead, via, hostfns.data[k]);
            at += ndefs.data[m];
            hat += nhost.data[m];
            r->peers.reach_files = known ? nread : 0;
            if (un.len) {
                qsort(un.data, un.len, sizeof *un.data, unref_cmp);
                r->peers.unreferenced = un.data;
                r->peers.nunreferenced = un.len;
                kc_vec_push(&owned->arrays, un.data);
            } else {
                kc_vec_free(&un);
            }
            free(root[mine.data[m]]);
            root[mine.data[m]] = NULL; /* done */
        }
        for (uint32_t k = 0; k < names.len; k++)
            kc_vec_push(&owned->names, names.data[k]);
        for (uint32_t k = 0; k < hostfns.len; k++)
            kc_vec_push(&owned->names, hostfns.data[k]);
        kc_vec_free(&names);
        kc_vec_free(&hostfns);
        kc_vec_free(&nhost);
        kc_vec_free(&own_uses);
        free(c);
        free(dead);
        free(via);
        kc_vec_free(&mine);
        kc_vec_free(&run_paths);
        kc_vec_free(&ndefs);
        kc_vec_free(&self_ref);
    }
    free(buf);
    for (uint32_t i = 0; i < nf; i++) {
        free(abs[i]);
        free(root[i]);
    }
    free(abs);
    free(root);
}

void kc_reach_free(kc_reach *r)
{
    for (uint32_t i = 0; i < r->names.len; i++)
        free(r->names.data[i]);
    kc_vec_free(&r->names);
    for (uint32_t i = 0; i < r->arrays.len; i++)
        free(r->arrays.data[i]);
    kc_vec_free(&r->arrays);
}

/* ---- marking the kernels ---- */

static const kc_unref *unreferenced(const kc_peers *peers, const char *name)
{
    kc_unref key = {name, NULL};
    return peers->nunreferenced
               ? bsearch(&key, peers->unreferenced, peers->nunreferenced, sizeof *peers->unreferenced, unref_cmp)
               : NULL;
}

/* Why nothing runs the function u names: `what` is how code would run it
 * ("launches or calls", "calls"), `files` what was read. */
static const char *why_unreferenced(kc_arena *a, const kc_unref *u, const char *files, const char *what)
{
    if (u->via)
        return kc_arena_printf(a,
                               "`%s` is named elsewhere in its repository only inside `%s`, which nothing calls (its "
                               "%s files read, comments, `#if 0` code, statements after a Python `return` and declarations in "
                               "source files left out): "
                               "nothing that runs %s it",
                               u->name, u->via, files, what);
    return kc_arena_printf(a,
                           "`%s` is named nowhere else in its repository (its %s files read, comments, `#if 0` code, "
                           "statements after a Python `return` and declarations in source files left out)%s: "
                           "nothing %s it",
                           u->name, files,
                           strcmp(what, "calls") == 0 ? ", while other files there call this file's functions" : "",
                           what);
}

void kc_reach_mark(kc_model *m, const kc_peers *peers)
{
    if (!peers)
        return;
    for (kc_model *x = m; x; x = x->next) {
        if (peers->unbuilt)
            x->unbuilt = kc_arena_strdup(x->arena, peers->unbuilt);
        if (peers->build_archs) {
            x->build_arch_max = peers->build_arch_max;
            x->build_archs = kc_arena_strdup(x->arena, peers->build_archs);
        }
        for (uint32_t i = 0; i < x->kernels.len; i++) {
            kc_kernel *k = x->kernels.data[i];
            if (!k->name)
                continue;
            size_t n = strcspn(k->name, "<"); /* an instance `k<128>` is k's */
            char *base = kc_arena_strndup(x->arena, k->name, n);
            const kc_unref *u = unreferenced(peers, base);
            if (u)
                k->unreferenced = why_unreferenced(x->arena, u, "CUDA and Python", "launches or calls");
        }
        for (uint32_t i = 0; i < x->host_fns.len; i++) {
            kc_host_fn *h = &x->host_fns.data[i];
            const kc_unref *u = unreferenced(peers, h->name);
            if (u)
                h->unreferenced = why_unreferenced(x->arena, u, "CUDA, C++ and Python", "calls");
        }
    }
}
