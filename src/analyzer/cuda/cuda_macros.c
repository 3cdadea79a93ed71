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
