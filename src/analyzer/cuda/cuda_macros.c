/* cuda_macros.c — a size estimate of the file's macro expansions
 * (cuda_macros.h). */
#define _GNU_SOURCE 1 /* memmem */
#include "cuda_macros.h"

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
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

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
            while (p < m->end && ident_char(*p))
                p++;
            macro *x = find(v, s, (size_t)(p - s));
            uint32_t idx = (uint32_t)(m - v->data);
            uint64_t add = x ? size_of(v, x, depth + 1) : 1;
            m = &v->data[idx];
            n += add;
        } else if (c >= '0' && c <= '9') {
            while (p < m->end && (ident_char(*p) || *p == '.'))
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
                while (q < le && ident_char(*q))
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

/* Does text[0..len) hold `#define NAME` for this name? */
static bool defines(const char *text, size_t len, const char *name, size_t n)
{
    for (const char *p = text, *end = text + len; (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p += n) {
        const char *q = p;
        while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        bool whole = p > q && (p + n == end || !ident_char(p[n]));
        if (whole && ((q - text >= 6 && memcmp(q - 6, "define", 6) == 0) ||
                      (q - text >= 5 && memcmp(q - 5, "undef", 5) == 0)))
            return true;
    }
    return false;
}

/* text[0..len) with comments and string and character literals blanked
 * (offsets unchanged). Caller frees. */
static char *code_only(const char *text, size_t len)
{
    char *t = malloc(len + 1);
    memcpy(t, text, len);
    t[len] = '\0';
    for (size_t i = 0; i < len; i++) {
        size_t j = i;
        if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
            while (j < len && t[j] != '\n')
                j++;
        } else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
            j = i + 2;
            while (j + 1 < len && !(t[j] == '*' && t[j + 1] == '/'))
                j++;
            j = j + 2 < len ? j + 2 : len;
        } else if (t[i] == '"' || t[i] == '\'') {
            char q = t[i];
            j = i + 1;
            while (j < len && t[j] != q && t[j] != '\n')
                j += t[j] == '\\' ? 2 : 1;
            j = j < len ? j + 1 : len;
        } else {
            continue;
        }
        for (size_t k = i; k < j && k < len; k++)
            if (t[k] != '\n')
                t[k] = ' ';
        i = j - 1;
    }
    return t;
}

/* Is every use of the name in the code (not in a preprocessor line) in a
 * qualifier's place, right after `*`? A name used otherwise is a constant
 * or a type, never an empty macro. */
static bool only_qualifier(const char *t, size_t len, const char *name, size_t n)
{
    for (const char *p = t, *end = t + len; (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p += n) {
        if ((p > t && ident_char(p[-1])) || (p + n < end && ident_char(p[n])))
            continue;
        const char *q = p;
        while (q > t && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        if (q > t && q[-1] == '*')
            continue;
        const char *bol = q;
        while (bol > t && bol[-1] != '\n')
            bol--;
        while (bol < q && (*bol == ' ' || *bol == '\t'))
            bol++;
        if (*bol != '#')
            return false;
    }
    return true;
}

void kc_cuda_qualifier_macros(kc_arena *ar, const char *source, size_t len, kc_cuda_qual_macros *out)
{
    char *text = code_only(source, len);
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '*')
            continue;
        size_t a = i + 1;
        while (a < len && (text[a] == ' ' || text[a] == '\t'))
            a++;
        size_t b = a;
        while (b < len && ident_char(text[b]))
            b++;
        if (b == a || (a > 0 && ident_char(text[a - 1])) || !upper_name(text + a, b - a))
            continue;
        size_t c = b;
        while (c < len && (text[c] == ' ' || text[c] == '\t'))
            c++;
        size_t d = c;
        while (d < len && ident_char(text[d]))
            d++;
        if (d == c || c == b || !ident_start(text[c]))
            continue;
        size_t e = d;
        while (e < len && (text[e] == ' ' || text[e] == '\t'))
            e++;
        if (e >= len || !strchr("=,;)[", text[e]))
            continue;
        bool seen = false;
        for (uint32_t k = 0; k < out->len && !seen; k++)
            seen = strlen(out->data[k].name) == b - a && memcmp(out->data[k].name, text + a, b - a) == 0;
        if (seen || defines(text, len, text + a, b - a) || !only_qualifier(text, len, text + a, b - a))
            continue;
        kc_cuda_qual_macro q = {.name = kc_arena_printf(ar, "%.*s", (int)(b - a), text + a), .offset = a};
        kc_vec_push(out, q);
    }
    free(text);
}

char *kc_cuda_blank_qualifiers(kc_arena *ar, const char *text, size_t len, const kc_cuda_qual_macros *q)
{
    char *t = kc_arena_alloc(ar, len + 1);
    memcpy(t, text, len);
    t[len] = '\0';
    char *code = code_only(text, len);
    for (uint32_t k = 0; k < q->len; k++) {
        size_t n = strlen(q->data[k].name);
        for (const char *p = code, *end = code + len; (p = memmem(p, (size_t)(end - p), q->data[k].name, n)) != NULL;
             p += n) {
            if ((p > code && ident_char(p[-1])) || (p + n < end && ident_char(p[n])))
                continue;
            const char *b = p;
            while (b > code && (b[-1] == ' ' || b[-1] == '\t'))
                b--;
            if (b > code && b[-1] == '*')
                memset(t + (p - code), ' ', n);
        }
    }
    free(code);
    return t;
}
