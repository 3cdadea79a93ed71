/* cuda_recover.c — launches the parse lost, found in the text
 * (cuda_recover.h). */
#include "cuda_recover.h"

#include "cuda_gaps.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>


/* The kernel name written before offset `lt` (of `<<<`), template
 * arguments skipped: [*b, *e). */
static bool name_before(const char *t, size_t lt, size_t *b, size_t *e)
{
    size_t i = lt;
    while (i > 0 && isspace((unsigned char)t[i - 1]))
        i--;
    if (i > 0 && t[i - 1] == '>') {
        int depth = 0;
        while (i > 0) {
            char c = t[--i];
            depth += c == '>' ? 1 : c == '<' ? -1 : 0;
            if (depth == 0)
                break;
            if (c == ';' || c == '{' || c == '}')
                return false;
        }
        while (i > 0 && isspace((unsigned char)t[i - 1]))
            i--;
    }
    *e = i;
    while (i > 0 && (kc_ident_char(t[i - 1]) || t[i - 1] == ':'))
        i--;
    *b = i;
    return *e > *b;
}

/* The configuration `<<<a, b, ...>>>` from `lt`: the end (past `>>>`) and
 * the top-level commas' positions (at most 4 arguments). */
static size_t config_end(const char *t, size_t n, size_t lt, size_t commas[4], unsigned *ncomma)
{
    int depth = 0;
    *ncomma = 0;
    for (size_t i = lt + 3; i + 2 < n; i++) {
        size_t j = kc_cuda_skip_noise(t, n, i);
        if (j != i) {
            i = j - 1;
            continue;
        }
        char c = t[i];
        if (c == ';' || c == '{' || c == '}')
            return 0;
        if (depth == 0 && c == '>' && t[i + 1] == '>' && t[i + 2] == '>')
            return i + 3;
        depth += (c == '(' || c == '[') ? 1 : (c == ')' || c == ']') ? -1 : 0;
        if (depth == 0 && c == ',' && *ncomma < 4)
            commas[(*ncomma)++] = i;
    }
    return 0;
}

static const char *trimmed(kc_arena *a, const char *t, size_t b, size_t e)
{
    while (b < e && isspace((unsigned char)t[b]))
        b++;
    while (e > b && isspace((unsigned char)t[e - 1]))
        e--;
    return kc_arena_strndup(a, t + b, e - b);
}

static bool int_literal(const char *s, int64_t *v)
{
    char *end = NULL;
    long long x = strtoll(s, &end, 10);
    if (!s[0] || !end || *end || x < 0)
        return false;
    *v = x;
    return true;
}

static bool known_launch(const kc_model *m, uint32_t line, uint32_t col)
{
    for (uint32_t i = 0; i < m->launches.len; i++) {
        kc_span s = m->launches.data[i].span;
        bool after_start = line > s.line || (line == s.line && col >= s.col);
        bool before_end = line < s.end_line || (line == s.end_line && col <= s.end_col);
        if (kc_span_valid(s) && after_start && before_end)
            return true;
    }
    return false;
}

/* The top-level comma-separated parts of t[b, e), trimmed (at most max). */
static unsigned split_args(kc_arena *a, const char *t, size_t b, size_t e, const char **out, unsigned max)
{
    unsigned n = 0;
    int depth = 0;
    size_t start = b;
    for (size_t i = b; i <= e && n < max; i++) {
        if (i < e) {
            size_t j = kc_cuda_skip_noise(t, e, i);
            if (j != i) {
                i = j - 1;
                continue;
            }
        }
        char c = i < e ? t[i] : ',';
        depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
        if (depth == 0 && c == ',') {
            const char *part = trimmed(a, t, start, i);
            if (part[0] || i < e)
                out[n++] = part;
            start = i + 1;
        }
    }
    return n;
}

/* The offset past the bracket that closes the one at `open`, or 0. */
static size_t closing(const char *t, size_t n, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < n; i++) {
        size_t j = kc_cuda_skip_noise(t, n, i);
        if (j != i) {
            i = j - 1;
            continue;
        }
        char c = t[i];
        depth += (c == '(' || c == '{' || c == '[') ? 1 : (c == ')' || c == '}' || c == ']') ? -1 : 0;
        if (depth == 0)
            return i + 1;
        if (c == ';' && depth <= 1)
            return 0;
    }
    return 0;
}

/* The grid's axes from `dim3 NAME(x, y)` (or `dim3 NAME = dim3(...)`,
 * `dim3 NAME{...}`) written before offset `before`, the last one there;
 * false when there is none. */
static bool dim3_axes(kc_model *m, const char *t, size_t before, const char *name, kc_grid_axis g[3])
{
    size_t nl = strlen(name);
    size_t found = 0, open = 0;
    for (const char *p = t; (p = strstr(p, "dim3")) != NULL && (size_t)(p - t) < before; p += 4) {
        if (p > t && kc_ident_char(p[-1]))
            continue;
        const char *q = p + 4;
        if (!isspace((unsigned char)*q))
            continue;
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, name, nl) || kc_ident_char(q[nl]))
            continue;
        q += nl;
        while (isspace((unsigned char)*q))
            q++;
        if (*q == '=') {
            q++;
            while (isspace((unsigned char)*q))
                q++;
            if (strncmp(q, "dim3", 4))
                continue;
            q += 4;
            while (isspace((unsigned char)*q))
                q++;
        }
        if (*q != '(' && *q != '{')
            continue;
        found = (size_t)(p - t) + 1;
        open = (size_t)(q - t);
    }
    if (!found)
        return false;
    size_t close = closing(t, before, open);
    if (!close)
        return false;
    const char *parts[3];
    unsigned np = split_args(m->arena, t, open + 1, close - 1, parts, 3);
    if (np == 0)
        return false;
    for (unsigned ax = 0; ax < 3; ax++) {
        int64_t v;
        const char *x = ax < np ? parts[ax] : "1";
        g[ax].text = x;
        if (int_literal(x, &v)) {
            g[ax].hazard = KC_GRID_CONST;
            g[ax].value = v;
        }
    }
    return true;
}

/* The value of the integer local `name` at offset `before`: its last
 * declaration there initializes it with a literal (`int bsX = 256;`) and
 * nothing between assigns to it, increments it or takes its address. */
static bool local_literal(const char *t, size_t before, const char *name, int64_t *v)
{
    size_t nl = strlen(name), decl = 0;
    bool found = false;
    for (const char *p = t; (p = strstr(p, name)) != NULL && (size_t)(p - t) < before; p += nl) {
        if ((p > t && kc_ident_char(p[-1])) || kc_ident_char(p[nl]))
            continue;
        const char *q = p + nl;
        while (isspace((unsigned char)*q))
            q++;
        const char *b = p;
        while (b > t && isspace((unsigned char)b[-1]))
            b--;
        bool typed = b > t && (kc_ident_char(b[-1]) || b[-1] == '*' || b[-1] == '&');
        bool assigns = (q[0] == '=' && q[1] != '=') || ((q[0] == '+' || q[0] == '-' || q[0] == '*' || q[0] == '/' ||
                                                          q[0] == '%' || q[0] == '<' || q[0] == '>' || q[0] == '&' ||
                                                          q[0] == '|' || q[0] == '^') && q[1] == '=') ||
                       (q[0] == '+' && q[1] == '+') || (q[0] == '-' && q[1] == '-') ||
                       (b > t + 1 && ((b[-1] == '+' && b[-2] == '+') || (b[-1] == '-' && b[-2] == '-'))) ||
                       (b > t && b[-1] == '&' && !(b > t + 1 && b[-2] == '&'));
        if (typed && q[0] == '=' && q[1] != '=') {
            found = true; /* a declaration with an initializer: the latest one counts */
            decl = (size_t)(q - t) + 1;
        } else if (typed || (assigns && found)) {
            found = false; /* declared again without one (a parameter), or written after it */
        }
    }
    if (!found)
        return false;
    const char *e = strchr(t + decl, ';');
    if (!e)
        return false;
    size_t start = decl;
    while (isspace((unsigned char)t[start]))
        start++;
    size_t end = (size_t)(e - t);
    while (end > start && isspace((unsigned char)t[end - 1]))
        end--;
    char buf[32];
    if (end - start == 0 || end - start >= sizeof buf)
        return false;
    memcpy(buf, t + start, end - start);
    buf[end - start] = 0;
    return int_literal(buf, v);
}

/* The block of a launch recovered from the text: a literal, or a `dim3`
 * whose axes are literals or integer locals initialized with literals
 * (`int bsX = 256; dim3 block(bsX, bsY, bsZ);`); -1 where unknown. */
static void recovered_block(kc_model *m, const char *t, size_t before, const char *text, int64_t dim[3])
{
    int64_t v;
    dim[0] = dim[1] = dim[2] = -1;
    if (int_literal(text, &v)) {
        dim[0] = v;
        dim[1] = dim[2] = 1;
        return;
    }
    for (const char *p = text; *p; p++)
        if (!kc_ident_char(*p))
            return;
    kc_grid_axis b[3];
    memset(b, 0, sizeof b);
    if (!dim3_axes(m, t, before, text, b))
        return;
    for (unsigned ax = 0; ax < 3; ax++) {
        if (b[ax].hazard == KC_GRID_CONST)
            dim[ax] = b[ax].value;
        else if (b[ax].text && local_literal(t, before, b[ax].text, &v) && v > 0)
            dim[ax] = v;
    }
}

/* The kernel defined in the file that `name` launches, or NULL. */
static const kc_kernel *kernel_named(const kc_model *m, const char *name)
{
    const char *last = strrchr(name, ':');
    const char *base = last ? last + 1 : name;
    for (uint32_t i = 0; i < m->kernels.len; i++)
        if (!m->kernels.data[i]->is_device_function && !strcmp(m->kernels.data[i]->name, base))
            return m->kernels.data[i];
    return NULL;
}

uint32_t kc_cuda_recover_launches(kc_model *m, const kc_source *src)
{
    const char *t = src->text;
    size_t n = src->len;
    uint32_t added = 0;
    for (size_t i = 0; i + 3 <= n; i++) {
        size_t j = kc_cuda_skip_noise(t, n, i);
        if (j != i) {
            i = j - 1;
            continue;
        }
        if (!(t[i] == '<' && t[i + 1] == '<' && t[i + 2] == '<'))
            continue;
        size_t nb, ne, commas[4];
        unsigned nc;
        size_t end = config_end(t, n, i, commas, &nc);
        if (!end || !name_before(t, i, &nb, &ne)) {
            i += 2;
            continue;
        }
        const char *name = kc_arena_strndup(m->arena, t + nb, ne - nb);
        uint32_t line, col, eline, ecol;
        kc_source_position(src, nb, &line, &col);
        kc_source_position(src, end, &eline, &ecol);
        const kc_kernel *kern = kernel_named(m, name);
        if (!kern || known_launch(m, line, col)) {
            i = end - 1;
            continue;
        }
        kc_launch L = {0};
        const char *last = strrchr(name, ':');
        L.kernel = last ? last + 1 : name;
        L.span = (kc_span){line, col, eline, ecol};
        L.in_host_code = true;
        L.error_checked = true; /* not followed: KC601 does not judge it */
        L.recovered = true;
        size_t gend = nc ? commas[0] : end - 3;
        L.grid_text = trimmed(m->arena, t, i + 3, gend);
        if (nc)
            L.block_text = trimmed(m->arena, t, commas[0] + 1, nc > 1 ? commas[1] : end - 3);
        L.block_dim[0] = L.block_dim[1] = L.block_dim[2] = -1;
        if (L.block_text)
            recovered_block(m, t, nb, L.block_text, L.block_dim);
        int64_t v;
        bool ident = L.grid_text[0] != 0;
        for (const char *p = L.grid_text; *p; p++)
            ident &= kc_ident_char(*p);
        if (int_literal(L.grid_text, &v)) {
            L.grid[0].hazard = KC_GRID_CONST;
            L.grid[0].value = v;
            L.grid[0].text = L.grid_text;
        } else if (ident) {
            dim3_axes(m, t, nb, L.grid_text, L.grid); /* `dim3 blocks(...)`, else unknown */
        } else if (!strstr(L.grid_text, "dim3") && !strchr(L.grid_text, '{')) {
            L.grid[0].text = L.grid_text; /* a scalar: one axis */
        }
        /* the arguments, bound by position to the kernel's parameters */
        size_t p = end;
        while (p < n && isspace((unsigned char)t[p]))
            p++;
        size_t close = p < n && t[p] == '(' ? closing(t, n, p) : 0;
        if (close) {
            const char *args[64];
            unsigned na = split_args(m->arena, t, p + 1, close - 1, args, 64);
            for (unsigned a = 0; a < na; a++) {
                kc_launch_arg la = {.text = args[a]};
                if (a < kern->params.len)
                    la.param = kern->params.data[a].name;
                kc_vec_push(&L.args, la);
            }
        }
        kc_vec_push(&m->launches, L);
        added++;
        i = end - 1;
    }
    return added;
}
