/* cuda_macros.c — a size estimate of the file's macro expansions
 * (cuda_macros.h). */
#define _GNU_SOURCE 1 /* memmem */
#include "cuda_macros.h"
#include "kc_source.h"

#include "cuda_gaps.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct macro {
    const char *name;
    size_t nlen;
    const char *body, *end; /* replacement list */
    uint32_t line;
    uint64_t size;          /* tokens, once known */
    int state;              /* 0 new, 1 in progress, 2 known */
} macro;

typedef KC_VEC(macro) macro_vec;

static bool ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static macro *find(macro_vec *v, const char *s, size_t n)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (v->data[i].nlen == n && memcmp(v->data[i].name, s, n) == 0)
            return &v->data[i];
    return NULL;
}

#define CAP (1ull << 40)

/* Tokens of macro m's expansion: identifiers naming macros count their own
 * expansion; a macro being expanded counts 1 (C does not re-expand it). */
static uint64_t size_of(macro_vec *v, macro *m, int depth)
{
    if (m->state == 2)
        return m->size;
    if (m->state == 1 || depth > 200)
        return 1;
    m->state = 1;
    uint64_t n = 0;
    const char *p = m->body;
    while (p < m->end && n < CAP) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\\' || c == '\r' || c == '\n') {
            p++;
        } else if (ident_start(c)) {
            const char *s = p;
            while (p < m->end && kc_ident_char(*p))
                p++;
            macro *x = find(v, s, (size_t)(p - s));
            uint32_t idx = (uint32_t)(m - v->data);
            uint64_t add = x ? size_of(v, x, depth + 1) : 1;
            m = &v->data[idx];
            n += add;
        } else if (c >= '0' && c <= '9') {
            while (p < m->end && (kc_ident_char(*p) || *p == '.'))
                p++;
            n++;
        } else {
            p++;
            n++;
        }
    }
    m->size = n < CAP ? n : CAP;
    m->state = 2;
    return m->size;
}

bool kc_cuda_macro_bomb(kc_arena *ar, const char *text, size_t len, const char **name, uint32_t *line,
                        uint64_t *tokens)
{
    /* a file with no `#define` is the common case */
    if (!memmem(text, len, "define", 6))
        return false;
    macro_vec v = {0};
    uint32_t ln = 1;
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        /* a logical line: continued by a backslash before the newline */
        while (eol && eol > p && (eol[-1] == '\\' || (eol[-1] == '\r' && eol - 1 > p && eol[-2] == '\\')))
            eol = memchr(eol + 1, '\n', (size_t)(end - eol - 1));
        const char *le = eol ? eol : end;
        const char *q = p;
        while (q < le && (*q == ' ' || *q == '\t'))
            q++;
        if (q < le && *q == '#') {
            q++;
            while (q < le && (*q == ' ' || *q == '\t'))
                q++;
            if (le - q > 6 && memcmp(q, "define", 6) == 0 && (q[6] == ' ' || q[6] == '\t')) {
                q += 7;
                while (q < le && (*q == ' ' || *q == '\t'))
                    q++;
                const char *ns = q;
                while (q < le && kc_ident_char(*q))
                    q++;
                if (q > ns && ident_start(*ns)) {
                    macro m = {.name = ns, .nlen = (size_t)(q - ns), .line = ln, .end = le};
                    if (q < le && *q == '(') { /* parameters: not part of the replacement */
                        while (q < le && *q != ')')
                            q++;
                        if (q < le)
                            q++;
                    }
                    m.body = q;
                    kc_vec_push(&v, m);
                }
            }
        }
        for (const char *c = p; c < le; c++)
            ln += *c == '\n';
        ln++;
        p = eol ? eol + 1 : end;
    }
    bool bomb = false;
    for (uint32_t i = 0; i < v.len && !bomb; i++) {
        uint64_t n = size_of(&v, &v.data[i], 0);
        if (n > KC_CUDA_MACRO_MAX_TOKENS) {
            *name = kc_arena_printf(ar, "%.*s", (int)v.data[i].nlen, v.data[i].name);
            *line = v.data[i].line;
            *tokens = n;
            bomb = true;
        }
    }
    kc_vec_free(&v);
    return bomb;
}

static bool upper_name(const char *s, size_t n)
{
    if (n < 3 || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

/* text[0..len) (NUL-terminated) with comments and string and character
 * literals blanked (offsets unchanged). Caller frees. */
static char *code_only(const char *text, size_t len)
{
    char *t = malloc(len + 1);
    memcpy(t, text, len + 1);
    for (size_t i = 0; i < len; i++) {
        size_t j = kc_cuda_skip_noise(t, len, i);
        if (j == i)
            continue;
        for (size_t k = i; k < j; k++)
            if (t[k] != '\n')
                t[k] = ' ';
        i = j - 1;
    }
    return t;
}

/* The next use of the name as a whole word in t[p..end), or NULL. */
static const char *next_use(const char *t, const char *end, const char *p, const char *name, size_t n)
{
    for (; (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p += n)
        if (!(p > t && kc_ident_char(p[-1])) && !(p + n < end && kc_ident_char(p[n])))
            return p;
    return NULL;
}

/* Is the use at p right after `*` (spaces between)? */
static bool after_star(const char *t, const char *p)
{
    while (p > t && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    return p > t && p[-1] == '*';
}

/* Is the use at p (n characters) a lambda's specifier: after the `]` of
 * its captures and before its `(` (`[=] OPEN3D_HOST_DEVICE(int64_t i)`)? */
static bool lambda_specifier(const char *t, const char *end, const char *p, size_t n)
{
    const char *b = p;
    while (b > t && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    const char *a = p + n;
    while (a < end && (*a == ' ' || *a == '\t'))
        a++;
    return b > t && b[-1] == ']' && a < end && *a == '(';
}

/* Is the use at p (n characters) a function's specifier: followed by a
 * keyword that begins a declaration (`static OPEN3D_HOST_DEVICE void f(`,
 * `MY_DEVICE inline T g(`)? A type written in capitals is never followed by
 * one of these; `const` is left out (`MY_TYPE const *p`). */
static bool function_specifier(const char *end, const char *p, size_t n)
{
    static const char *const kw[] = {"void", "inline", "static", "constexpr", "bool", "int", "float", "double",
                                     "char", "unsigned", "signed", "long", "short", "auto", "__forceinline__",
                                     "__inline__", "__host__", "__device__", "__global__", "template"};
    const char *a = p + n;
    while (a < end && (*a == ' ' || *a == '\t'))
        a++;
    size_t w = 0;
    while (a + w < end && kc_ident_char(a[w]))
        w++;
    for (size_t i = 0; w && i < sizeof kw / sizeof kw[0]; i++)
        if (strlen(kw[i]) == w && memcmp(a, kw[i], w) == 0)
            return true;
    return false;
}

/* Is the use at p after a type keyword and before a name (`static void
 * OPEN3D_HOST_DEVICE f(`)? No type written in capitals can stand there. */
static bool after_return_type(const char *t, const char *end, const char *p, size_t n)
{
    static const char *const kw[] = {"void", "bool", "int", "float", "double", "char", "unsigned", "long", "short",
                                     "auto"};
    const char *b = p;
    while (b > t && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n'))
        b--;
    size_t w = 0;
    while (b - w > t && kc_ident_char(b[-(ptrdiff_t)w - 1]))
        w++;
    const char *a = p + n;
    while (a < end && (*a == ' ' || *a == '\t' || *a == '\n'))
        a++;
    if (!w || a >= end || !ident_start(*a))
        return false;
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strlen(kw[i]) == w && memcmp(b - w, kw[i], w) == 0)
            return true;
    return false;
}

/* Is the use at p (n characters) of a name that says DEVICE or GLOBAL a
 * declaration's specifier (`static CUTLASS_DEVICE accum_t f(`,
 * `CUTLASS_HOST_DEVICE Array()`): kc_source_device_macro_at. */
static bool device_specifier(const char *t, const char *end, const char *p, size_t n)
{
    return kc_source_device_macro_at(t, (size_t)(end - t), (size_t)(p - t), (size_t)(p - t) + n);
}

/* A qualifier's place: after `*`, a lambda's specifier or a function's. */
static bool qualifier_place(const char *t, const char *end, const char *p, size_t n)
{
    return after_star(t, p) || lambda_specifier(t, end, p, n) || function_specifier(end, p, n) ||
           after_return_type(t, end, p, n) || device_specifier(t, end, p, n);
}

/* What a use in a qualifier's place becomes, in its n characters: a name
 * that says HOST and DEVICE is `__host__ __device__` (KC_CUDA_HD_MACRO),
 * DEVICE alone `__device__`, GLOBAL `__global__` (`CUTLASS_GLOBAL`), where
 * that fits, so that the lambdas, functions and kernels it marks stay what
 * they are; any other blanks. */
static void replace_use(char *at, const char *name, size_t n)
{
    const char *with = "";
    if (strstr(name, "DEVICE") && strstr(name, "HOST"))
        with = KC_CUDA_HD_MACRO;
    else if (strstr(name, "DEVICE"))
        with = "__device__";
    else if (strstr(name, "GLOBAL"))
        with = "__global__";
    if (strlen(with) > n)
        with = "";
    size_t w = strlen(with);
    memcpy(at, with, w);
    memset(at + w, ' ', n - w);
}

/* Is every use of the name in the code (not in a preprocessor line) in a
 * qualifier's place (qualifier_place)? A name used otherwise is a constant
 * or a type, never an empty macro. */
static bool only_qualifier(const char *t, size_t len, const char *name, size_t n)
{
    for (const char *p = t, *end = t + len; (p = next_use(t, end, p, name, n)) != NULL; p += n) {
        if (qualifier_place(t, end, p, n))
            continue;
        const char *bol = p;
        while (bol > t && bol[-1] != '\n')
            bol--;
        while (bol < p && (*bol == ' ' || *bol == '\t'))
            bol++;
        if (*bol != '#')
            return false;
    }
    return true;
}

/* Adds the name text[a..b), found in a qualifier's place, unless it is
 * listed already, the file defines it, or it is used in another place. */
static void consider(kc_arena *ar, const char *text, size_t len, size_t a, size_t b, kc_cuda_qual_macros *out)
{
    for (uint32_t k = 0; k < out->len; k++)
        if (strlen(out->data[k].name) == b - a && memcmp(out->data[k].name, text + a, b - a) == 0)
            return;
    if (kc_cuda_defines(text, len, text + a, b - a, true) || !only_qualifier(text, len, text + a, b - a))
        return;
    kc_cuda_qual_macro q = {.name = kc_arena_printf(ar, "%.*s", (int)(b - a), text + a), .offset = a};
    kc_vec_push(out, q);
}

char *kc_cuda_qualifier_macros(kc_arena *ar, const char *source, size_t len, kc_cuda_qual_macros *out)
{
    char *text = code_only(source, len);
    for (size_t i = 0; i < len; i++) {
        /* a name that says DEVICE or GLOBAL as a declaration's specifier */
        if (ident_start(text[i]) && (i == 0 || !kc_ident_char(text[i - 1]))) {
            size_t j = i;
            while (j < len && kc_ident_char(text[j]))
                j++;
            if (upper_name(text + i, j - i) && device_specifier(text, text + len, text + i, j - i))
                consider(ar, text, len, i, j, out);
            i = j - 1;
            continue;
        }
        if (text[i] != '*' && text[i] != ']')
            continue;
        size_t a = i + 1;
        while (a < len && (text[a] == ' ' || text[a] == '\t'))
            a++;
        size_t b = a;
        while (b < len && kc_ident_char(text[b]))
            b++;
        if (b == a || !upper_name(text + a, b - a))
            continue;
        if (text[i] == ']') { /* a lambda's specifier */
            if (lambda_specifier(text, text + len, text + a, b - a))
                consider(ar, text, len, a, b, out);
            continue;
        }
        size_t c = b;
        while (c < len && (text[c] == ' ' || text[c] == '\t'))
            c++;
        size_t d = c;
        while (d < len && kc_ident_char(text[d]))
            d++;
        if (d == c || c == b || !ident_start(text[c]))
            continue;
        size_t e = d;
        while (e < len && (text[e] == ' ' || text[e] == '\t'))
            e++;
        if (e < len && strchr("=,;)[", text[e]))
            consider(ar, text, len, a, b, out);
    }
    /* the source with each use in a qualifier's place made spaces */
    char *blanked = NULL;
    if (out->len) {
        blanked = kc_arena_alloc(ar, len + 1);
        memcpy(blanked, source, len + 1);
        for (uint32_t k = 0; k < out->len; k++) {
            size_t n = strlen(out->data[k].name);
            for (const char *p = text, *end = text + len; (p = next_use(text, end, p, out->data[k].name, n)) != NULL;
                 p += n)
                if (qualifier_place(text, end, p, n))
                    replace_use(blanked + (p - text), out->data[k].name, n);
        }
    }
    free(text);
    return blanked;
}

/* From text[i] (code only), past spaces and tabs. */
static size_t skip_blank(const char *text, size_t len, size_t i)
{
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    return i;
}

char *kc_cuda_spaced_launches(kc_arena *ar, const char *source, size_t len)
{
    char *text = code_only(source, len);
    char *out = NULL;
    for (size_t i = 0; i + 3 < len; i++) {
        if (text[i] != '<' || text[i + 1] != '<' || (i && text[i - 1] == '<') ||
            (text[i + 2] != ' ' && text[i + 2] != '\t'))
            continue;
        size_t j = skip_blank(text, len, i + 2);
        if (j + 1 >= len || text[j] != '<' || text[j + 1] == '<' || text[j + 1] == '=')
            continue;
        /* the configuration's end at depth 0: `>>>`, or `>>` blanks `>` */
        int depth = 0;
        size_t close = 0, close_end = 0;
        for (size_t k = j + 1; k + 2 < len && k < j + 2000 && !close; k++) {
            char c = text[k];
            if (c == ';' || c == '{' || c == '}')
                break;
            if (c == '(' || c == '[')
                depth++;
            else if (c == ')' || c == ']')
                depth--;
            else if (depth == 0 && c == '>' && text[k + 1] == '>') {
                if (text[k + 2] == '>') {
                    close = k;
                    close_end = k + 3;
                    continue;
                }
                size_t m = skip_blank(text, len, k + 2);
                if (m > k + 2 && m < len && text[m] == '>') {
                    close = k;
                    close_end = m + 1;
                }
            }
        }
        if (!close || skip_blank(text, len, close_end) >= len || text[skip_blank(text, len, close_end)] != '(')
            continue;
        if (!out) {
            out = kc_arena_alloc(ar, len + 1);
            memcpy(out, source, len + 1);
        }
        /* `<< <` -> `<<< `, `>> >` -> `>>> `: lines and columns unchanged */
        memset(out + i, ' ', j + 1 - i);
        memcpy(out + i, "<<<", 3);
        if (close_end - close > 3) {
            memset(out + close, ' ', close_end - close);
            memcpy(out + close, ">>>", 3);
        }
        i = close_end - 1;
    }
    free(text);
    return out;
}
