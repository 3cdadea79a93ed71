/* CUDA source held in a Python file's strings: the sources handed to
 * torch.utils.cpp_extension.load_inline, cupy.RawKernel, numba or pycuda's
 * SourceModule. Each string holding a kernel definition becomes one
 * kc_embedded: the file's bytes with everything but that string's contents
 * blanked (newlines kept), so the CUDA front end parses the kernels at the
 * file's own lines and columns. */
#define _GNU_SOURCE 1 /* memmem */
#include "triton_internal.h"

#include <string.h>

/* A kernel definition, not prose that names the qualifier: `__global__`
 * followed by `void`, or by a qualifier or `__launch_bounds__` first. */
static bool defines_kernel(const char *s, size_t n)
{
    static const char kw[] = "__global__";
    const size_t kn = sizeof kw - 1;
    for (const char *p = s, *end = s + n; (p = memmem(p, (size_t)(end - p), kw, kn)) != NULL; p += kn) {
        bool word_start = p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                      (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
        const char *q = p + kn;
        if (!word_start || q >= end || !(*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            continue;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        static const char *const next[] = {"void", "__launch_bounds__", "static", "inline", "__forceinline__",
                                           "__noinline__"};
        for (size_t i = 0; i < sizeof next / sizeof next[0]; i++) {
            size_t m = strlen(next[i]);
            if ((size_t)(end - q) > m && memcmp(q, next[i], m) == 0 &&
                !(q[m] == '_' || (q[m] >= 'a' && q[m] <= 'z') || (q[m] >= '0' && q[m] <= '9')))
                return true;
        }
    }
    return false;
}

/* An escape sequence as the C text it stands for, in place: `\n`, `\t`,
 * `\r` and a backslash-newline become blanks (a newline stays one), `\\`,
 * `\"` and `\'` their second character after a blank; others (`\x41`) are
 * left as written. */
static void unescape(char *buf, const char *text, uint32_t a, uint32_t b)
{
    if (b - a != 2)
        return;
    char c = text[a + 1];
    if (c == 'n' || c == 't' || c == 'r') {
        buf[a] = buf[a + 1] = ' ';
    } else if (c == '\n') {
        buf[a] = ' ';
    } else if (c == '\\' || c == '"' || c == '\'') {
        buf[a] = ' ';
        buf[a + 1] = c;
    }
}

/* Copies the contents of the string node `s` into buf (its escapes as
 * their C text); false when it has f-string substitutions. */
static bool copy_contents(char *buf, const char *text, TSNode s)
{
    bool whole = true;
    for (uint32_t i = 0, n = ts_node_child_count(s); i < n; i++) {
        TSNode c = ts_node_child(s, i);
        if (TT_IS(c, interpolation)) {
            whole = false;
            continue;
        }
        if (!TT_IS(c, string_content))
            continue;
        uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(c);
        memcpy(buf + a, text + a, b - a);
        for (uint32_t j = 0, m = ts_node_child_count(c); j < m; j++) {
            TSNode e = ts_node_child(c, j);
            if (TT_IS(e, escape_sequence))
                unescape(buf, text, ts_node_start_byte(e), ts_node_end_byte(e));
        }
    }
    return whole;
}

typedef struct {
    const kc_source *src;
    kc_model *model;
} embed_scan;

enum { MAX_EMBEDDED = 64 };

/* The string (or the parts of an implicit concatenation) as one kc_embedded. */
static void add_string(embed_scan *e, TSNode n)
{
    const char *text = e->src->text;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (!defines_kernel(text + a, b - a) || e->model->embedded.len >= MAX_EMBEDDED)
        return;
    char *buf = kc_arena_alloc(e->model->arena, e->src->len + 1);
    for (size_t i = 0; i < e->src->len; i++)
        buf[i] = text[i] == '\n' ? '\n' : ' ';
    buf[e->src->len] = '\0';
    bool whole = true;
    if (TT_IS(n, string)) {
        whole = copy_contents(buf, text, n);
    } else {
        for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++) {
            TSNode part = ts_node_named_child(n, i);
            if (TT_IS(part, string))
                whole &= copy_contents(buf, text, part);
        }
    }
    kc_embedded em = {.span = tt_span(n), .text = buf, .why_not = NULL};
    if (!whole)
        em.why_not = "an f-string: its `{...}` substitutions are known only when it runs";
    kc_vec_push(&e->model->embedded, em);
}

static bool visit(TSNode n, void *ud)
{
    if (TT_IS(n, concatenated_string) || TT_IS(n, string)) {
        add_string(ud, n);
        return false;
    }
    return true;
}

void tt_embedded_cuda(const kc_source *src, TSNode root, kc_model *model)
{
    if (!memmem(src->text, src->len, "__global__", 10))
        return;
    embed_scan e = {.src = src, .model = model};
    tt_walk(root, visit, &e);
}
