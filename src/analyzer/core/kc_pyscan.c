/* kc_pyscan.c — what a text scan can tell of Python source (kc_pyscan.h). */
#define _GNU_SOURCE 1 /* memmem, memrchr */
#include "kc_pyscan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

typedef struct cursor {
    const char *p, *end;
    int paren; /* inside `from x import (...)` */
} cursor;

/* Skips blanks; inside parentheses also newlines and comments, and always
 * backslash continuations. */
static void skip_blanks(cursor *c)
{
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == ' ' || ch == '\t' || ch == '\f') {
            c->p++;
        } else if (ch == '\\' && c->end - c->p >= 2 && (c->p[1] == '\n' || c->p[1] == '\r')) {
            c->p += 2;
            if (c->p < c->end && c->p[-1] == '\r' && *c->p == '\n')
                c->p++;
        } else if (c->paren && (ch == '\n' || ch == '\r')) {
            c->p++;
        } else if (c->paren && ch == '#') {
            while (c->p < c->end && *c->p != '\n')
                c->p++;
        } else {
            break;
        }
    }
}

static bool keyword(cursor *c, const char *kw)
{
    skip_blanks(c);
    size_t n = strlen(kw);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, kw, n) != 0 ||
        (c->end - c->p > (ptrdiff_t)n && ident_char(c->p[n])))
        return false;
    c->p += n;
    return true;
}

/* A dotted name (with leading dots when `dots` is non-NULL). */
static bool dotted_name(cursor *c, unsigned *dots, const char **s, size_t *n)
{
    skip_blanks(c);
    unsigned d = 0;
    if (dots)
        while (c->p < c->end && *c->p == '.') {
            d++;
            c->p++;
            skip_blanks(c);
        }
    const char *start = c->p;
    if (d > 0) {
        /* `from . import x`: no name after the dots */
        cursor k = *c;
        if (keyword(&k, "import")) {
            *s = start;
            *n = 0;
            *dots = d;
            return true;
        }
    }
    while (c->p < c->end && (ident_char(*c->p) || (*c->p == '.' && c->p > start && c->end - c->p > 1 &&
                                                   ident_char(c->p[1]))))
        c->p++;
    *s = start;
    *n = (size_t)(c->p - start);
    if (dots)
        *dots = d;
    return *n > 0 || d > 0;
}


static void emit(kc_import_fn fn, void *ud, unsigned dots, const char *a, size_t an, const char *b, size_t bn,
                 const char *local, size_t ln, bool module)
{
    char buf[512], loc[256];
    if (an + bn + 2 > sizeof buf || ln + 1 > sizeof loc || !ln)
        return;
    memcpy(buf, a, an);
    size_t n = an;
    if (bn) {
        if (an)
            buf[n++] = '.';
        memcpy(buf + n, b, bn);
        n += bn;
    }
    buf[n] = '\0';
    memcpy(loc, local, ln);
    loc[ln] = '\0';
    if (n || dots)
        fn(ud, dots, buf, loc, module);
}

/* One statement at c->p (after its indentation). */
static void scan_statement(cursor *c, kc_import_fn fn, void *ud)
{
    const char *mod;
    size_t mlen;
    unsigned dots;
    if (keyword(c, "from")) {
        if (!dotted_name(c, &dots, &mod, &mlen) || !keyword(c, "import"))
            return;
        skip_blanks(c);
        if (c->p < c->end && *c->p == '(') {
            c->p++;
            c->paren = 1;
        }
        for (;;) {
            const char *nm, *al = NULL;
            size_t nl, all = 0;
            if (!dotted_name(c, NULL, &nm, &nl) || !nl || memchr(nm, '.', nl))
                break;
            if (keyword(c, "as"))
                dotted_name(c, NULL, &al, &all);
            if (!al || !all) {
                al = nm;
                all = nl;
            }
            /* a member of the module, or a submodule of the package */
            emit(fn, ud, dots, mod, mlen, NULL, 0, al, all, false);
            emit(fn, ud, dots, mod, mlen, nm, nl, al, all, true);
            skip_blanks(c);
            if (c->p < c->end && *c->p == ',') {
                c->p++;
                continue;
            }
            break;
        }
        c->paren = 0;
    } else if (keyword(c, "import")) {
        for (;;) {
            const char *al = NULL;
            size_t all = 0;
            if (!dotted_name(c, NULL, &mod, &mlen) || !mlen)
                break;
            if (keyword(c, "as"))
                dotted_name(c, NULL, &al, &all);
            if (al && all)
                emit(fn, ud, 0, mod, mlen, NULL, 0, al, all, true);
            else
                emit(fn, ud, 0, mod, mlen, NULL, 0, mod, mlen, true);
            skip_blanks(c);
            if (c->p < c->end && *c->p == ',') {
                c->p++;
                continue;
            }
            break;
        }
    }
}

/* How far back a continued statement is followed (`from a \` on earlier
 * lines): bounded, so that a file of continuation lines stays linear. */
#define KC_IMPORT_LOOKBACK 4096

void kc_scan_python_imports(const char *text, size_t len, kc_import_fn fn, void *ud)
{
    /* Every `import` keyword that begins a statement or follows its module
     * (`from x import`); a quoted one in a docstring costs at most a
     * spurious candidate. Line starts are tracked forward, so the scan is
     * linear in the text. */
    const char *end = text + len;
    const char *line = text, *seen = text; /* the start of the line holding `seen` */
    for (const char *p = text; p < end && (p = memmem(p, (size_t)(end - p), "import", 6)) != NULL; p += 6) {
        if ((p > text && ident_char(p[-1])) || (end - p > 6 && ident_char(p[6])))
            continue;
        const char *nl = p > seen ? memrchr(seen, '\n', (size_t)(p - seen)) : NULL;
        if (nl)
            line = nl + 1;
        seen = p;
        /* back over lines that end with a backslash, within the bound */
        const char *ls = line;
        while (ls > text && p - ls < KC_IMPORT_LOOKBACK) {
            const char *q = ls - 1; /* the previous line's newline */
            if (q > text && q[-1] == '\r')
                q--;
            if (!(q > text && q[-1] == '\\'))
                break;
            const char *lo = p - KC_IMPORT_LOOKBACK > text ? p - KC_IMPORT_LOOKBACK : text;
            const char *prev = q - 1 > lo ? memrchr(lo, '\n', (size_t)(q - 1 - lo)) : NULL;
            if (!prev && lo > text)
                break; /* the statement starts beyond the bound */
            ls = prev ? prev + 1 : text;
        }
        const char *s = ls;
        while (s < p && (*s == ' ' || *s == '\t' || *s == '\f'))
            s++;
        if (s != p && !(end - s > 5 && memcmp(s, "from", 4) == 0 && !ident_char(s[4])))
            continue;
        cursor st = {s, end, 0};
        scan_statement(&st, fn, ud);
        if (st.p > p + 6)
            p = st.p - 6;
    }
}

/* ---- subscripted names ---- */


static int cmp_chain_text(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static int cmp_chain(const void *x, const void *y)
{
    const kc_py_name *a = x, *b = y;
    return cmp_chain_text(a->s, a->n, b->s, b->n);
}

void kc_py_subscripts(const char *text, size_t len, kc_py_names *out)
{
    const char *end = text + len;
    for (const char *p = text; p < end && (p = memchr(p, '[', (size_t)(end - p))) != NULL; p++) {
        const char *e = p;
        while (e > text && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        const char *b = e;
        while (b > text && e - b < 256 && (ident_char(b[-1]) || b[-1] == '.'))
            b--;
        while (b < e && *b == '.')
            b++;
        if (b == e || isdigit((unsigned char)*b) || e[-1] == '.')
            continue;
        kc_py_name ch = {b, (uint32_t)(e - b)};
        kc_vec_push(out, ch);
    }
    if (out->len > 1)
        qsort(out->data, out->len, sizeof *out->data, cmp_chain);
}

bool kc_py_subscripts_has(const kc_py_names *ch, const char *local, bool module)
{
    size_t n = strlen(local);
    uint32_t lo = 0, hi = ch->len;
    while (lo < hi) { /* the first chain >= local */
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_chain_text(ch->data[mid].s, ch->data[mid].n, local, n) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < ch->len && ch->data[i].n >= n && memcmp(ch->data[i].s, local, n) == 0; i++) {
        const kc_py_name *c = &ch->data[i];
        if (!module) {
            if (c->n == n)
                return true;
        } else if (c->n > n + 1 && c->s[n] == '.' && !memchr(c->s + n + 1, '.', c->n - n - 1)) {
            return true;
        }
    }
    return false;
}

bool kc_py_assigned_to_subscripted(const char *text, size_t len, const kc_py_names *names, const char *local,
                                   bool module)
{
    size_t n = strlen(local);
    const char *end = text + len;
    unsigned seen = 0;
    if (!n)
        return false;
    for (const char *p = text; p < end && seen < 256 && (p = memmem(p, (size_t)(end - p), local, n)) != NULL;
         p += n) {
        const char *q = p + n;
        if ((p > text && (ident_char(p[-1]) || p[-1] == '.')) || (q < end && ident_char(*q)) ||
            (module != (q < end && *q == '.')))
            continue;
        seen++;
        const char *ls = p;
        while (ls > text && ls[-1] != '\n')
            ls--;
        while (ls < p && (*ls == ' ' || *ls == '\t'))
            ls++;
        const char *id = ls;
        while (ls < p && ident_char(*ls))
            ls++;
        size_t idn = (size_t)(ls - id);
        while (ls < p && (*ls == ' ' || *ls == '\t'))
            ls++;
        if (!idn || idn > 255 || ls >= p || *ls != '=' || ls[1] == '=')
            continue;
        char target[256];
        memcpy(target, id, idn);
        target[idn] = '\0';
        if (strcmp(target, local) != 0 && kc_py_subscripts_has(names, target, false))
            return true;
    }
    return false;
}

/* ---- names bound to Triton ---- */

typedef struct triton_bind {
    const char *local;
    char *out;
    size_t outsz;
    bool found;
} triton_bind;

static bool under_triton(const char *module)
{
    return strncmp(module, "triton", 6) == 0 && (module[6] == '\0' || module[6] == '.');
}

static void on_triton_import(void *ud, unsigned dots, const char *module, const char *local, bool is_module)
{
    triton_bind *b = ud;
    /* `from triton import x as y` comes twice, as a member and as a
     * submodule: both name "triton.x". */
    if (dots || !is_module || !under_triton(module))
        return;
    const char *q = module;
    char first[64];
    const char *dot = strchr(local, '.');
    if (dot) { /* `import triton.language` binds `triton` */
        size_t n = (size_t)(dot - local);
        if (n >= sizeof first)
            return;
        memcpy(first, local, n);
        first[n] = '\0';
        local = first;
        q = "triton";
    }
    if (strcmp(local, b->local) != 0 || strlen(q) + 1 > b->outsz)
        return;
    strcpy(b->out, q);
    b->found = true;
}

static bool import_binding(const char *text, size_t len, const char *local, char *out, size_t outsz)
{
    triton_bind b = {local, out, outsz, false};
    if (!outsz || !*local)
        return false;
    kc_scan_python_imports(text, len, on_triton_import, &b);
    return b.found;
}

/* What the right-hand side [r, e) of `local = ...` makes of Triton: `Y.attr`
 * alone with Y imported as triton.language ("triton.language.attr":
 * `tl_arange = tl.arange`) or as triton ("triton.attr"), or an expression
 * that wraps `Y.jit` / `Y.autotune` / `Y.heuristics` of triton
 * (`try_decorate(lambda: triton.jit)`, `partial(triton.jit, ...)`). */
static bool assigned_binding(const char *text, size_t len, const char *r, const char *e, char *out, size_t outsz)
{
    static const char *const wraps[] = {"jit", "autotune", "heuristics"};
    while (e > r && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    for (const char *p = r; p < e; p++) {
        if (!ident_char(*p) || (p > r && (ident_char(p[-1]) || p[-1] == '.')) || (*p >= '0' && *p <= '9'))
            continue;
        const char *q = p;
        while (q < e && ident_char(*q))
            q++;
        if (q >= e || *q != '.' || (size_t)(q - p) >= 64)
            continue;
        char y[64], qy[128];
        memcpy(y, p, (size_t)(q - p));
        y[q - p] = '\0';
        const char *at = q + 1, *ae = at;
        while (ae < e && ident_char(*ae))
            ae++;
        if (ae == at || (size_t)(ae - at) >= 64 || !import_binding(text, len, y, qy, sizeof qy))
            continue;
        bool whole = p == r && ae == e;
        bool lang = strcmp(qy, "triton.language") == 0, tri = strcmp(qy, "triton") == 0;
        bool wrap = false;
        for (size_t i = 0; tri && i < sizeof wraps / sizeof wraps[0]; i++)
            wrap |= (size_t)(ae - at) == strlen(wraps[i]) && memcmp(at, wraps[i], (size_t)(ae - at)) == 0;
        if (!(whole && (lang || tri)) && !wrap)
            continue;
        if ((size_t)snprintf(out, outsz, "%s.%.*s", qy, (int)(ae - at), at) >= outsz)
            return false;
        return true;
    }
    return false;
}

bool kc_py_triton_binding(const char *text, size_t len, const char *local, char *out, size_t outsz)
{
    if (import_binding(text, len, local, out, outsz))
        return true;
    /* an assignment `local = ...` at the start of a line (at any indent:
     * the branches of an `if` or a `try`): the first that is Triton's */
    size_t n = strlen(local);
    const char *end = text + len;
    for (const char *p = text; n && p < end && (p = memmem(p, (size_t)(end - p), local, n)) != NULL; p += n) {
        const char *ls = p;
        while (ls > text && (ls[-1] == ' ' || ls[-1] == '\t'))
            ls--;
        if ((ls > text && ls[-1] != '\n') || (p + n < end && ident_char(p[n])))
            continue;
        const char *q = p + n;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q >= end || *q != '=' || (q + 1 < end && q[1] == '='))
            continue;
        q++;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        const char *eol = memchr(q, '\n', (size_t)(end - q));
        const char *hash = memchr(q, '#', (size_t)((eol ? eol : end) - q));
        if (assigned_binding(text, len, q, hash ? hash : eol ? eol : end, out, outsz))
            return true;
    }
    return false;
}

static bool word_follows(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 && (p + n == end || !ident_char(p[n]));
}

unsigned kc_py_triton_uses(const char *text, size_t len, const char *local)
{
    static const char *const jit_attrs[] = {"jit", "autotune", "heuristics", NULL};
    static const char *const tl_attrs[] = {"program_id", "arange", "load", "store", "constexpr", NULL};
    size_t n = strlen(local);
    const char *end = text + len;
    unsigned uses = 0;
    if (!n)
        return 0;
    for (const char *p = text; p < end && (p = memmem(p, (size_t)(end - p), local, n)) != NULL; p += n) {
        if ((p > text && (ident_char(p[-1]) || p[-1] == '.')) || (p + n < end && ident_char(p[n])))
            continue;
        const char *q = p + n;
        bool decorator = p > text && p[-1] == '@';
        if (q < end && *q == '.') {
            q++;
            for (unsigned i = 0; jit_attrs[i]; i++)
                if (word_follows(q, end, jit_attrs[i]) && (decorator || i == 0))
                    uses |= KC_PY_USE_JIT;
            for (unsigned i = 0; tl_attrs[i]; i++)
                if (word_follows(q, end, tl_attrs[i]))
                    uses |= KC_PY_USE_TL;
        } else if (decorator) {
            while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
                q++;
            if (q == end || *q == '\n' || *q == '(' || *q == '#')
                uses |= KC_PY_USE_DECORATOR;
        }
    }
    return uses;
}

/* ---- functions that register another as an operator ---- */

/* The indentation of the line that starts at `line`, and whether the line
 * is blank or a comment. */
static size_t indent_of(const char *line, const char *end, bool *blank)
{
    const char *q = line;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    *blank = q == end || *q == '\n' || *q == '\r' || *q == '#';
    return (size_t)(q - line);
}

unsigned kc_py_def_registers(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name);
    const char *end = text + len;
    if (!n)
        return 0;
    for (const char *p = text; p < end && (p = memmem(p, (size_t)(end - p), "def ", 4)) != NULL; p += 4) {
        const char *line = p;
        while (line > text && line[-1] != '\n')
            line--;
        bool blank;
        size_t col = indent_of(line, end, &blank);
        const char *q = p + 4;
        while (q < end && *q == ' ')
            q++;
        if (line + col != p || (size_t)(end - q) < n || memcmp(q, name, n) != 0 || q + n >= end || q[n] != '(')
            continue;
        /* the body: the lines after it indented deeper, blank ones aside */
        const char *b = memchr(q, '\n', (size_t)(end - q));
        const char *stop = end;
        for (const char *l = b ? b + 1 : end; l < end;) {
            size_t c = indent_of(l, end, &blank);
            if (!blank && c <= col) {
                stop = l;
                break;
            }
            const char *nl = memchr(l, '\n', (size_t)(end - l));
            l = nl ? nl + 1 : end;
        }
        unsigned r = 0;
        const char *from = q + n; /* not the name itself */
        size_t bl = stop > from ? (size_t)(stop - from) : 0;
        if (memmem(from, bl, "custom_op", 9))
            r |= KC_PY_REG_CUSTOM_OP;
        if (memmem(from, bl, "triton_op", 9))
            r |= KC_PY_REG_TRITON_OP;
        return r;
    }
    return 0;
}

/* ---- torch.compile ---- */

bool kc_py_calls_torch_compile(const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        if (c == '#') {
            while (i < len && buf[i] != '\n')
                i++;
        } else if (c == '\'' || c == '"') {
            bool triple = i + 2 < len && buf[i + 1] == c && buf[i + 2] == c;
            for (i += triple ? 3 : 1; i < len; i++) {
                if (buf[i] == '\\') {
                    i++;
                } else if (buf[i] == c && (!triple || (i + 2 < len && buf[i + 1] == c && buf[i + 2] == c))) {
                    i += triple ? 2 : 0;
                    break;
                } else if (buf[i] == '\n' && !triple) {
                    break;
                }
            }
        } else if (c == 't' && (i == 0 || !kc_ident_char(buf[i - 1])) && len - i > 13) {
            if (!memcmp(buf + i, "torch.compile", 13) && (i + 13 == len || !kc_ident_char(buf[i + 13])))
                return true;
            if (!memcmp(buf + i, "torch._dynamo", 13) && !(len - i > 27 && !memcmp(buf + i + 13, ".is_compiling", 13)))
                return true;
        }
    }
    return false;
}
