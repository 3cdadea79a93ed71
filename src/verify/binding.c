/* `kcheck: verify` annotations. */
#include "kc_verify.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void add_error(kc_binding_list *l, uint32_t line, const char *msg)
{
    kc_file_errors_add(&l->errors, line, 1, "%s", msg);
}

/* Parses key=value pairs (values may be "quoted" with \" escapes). */
static bool parse_pairs(const char *p, const char *end, kc_binding *b, uint32_t line, kc_binding_list *l)
{
    while (p < end) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end)
            break;
        const char *k = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        size_t klen = (size_t)(p - k);
        if (!klen || p >= end || *p != '=') {
            add_error(l, line, "expected key=value");
            return false;
        }
        p++;
        kc_strbuf v = {0};
        if (p < end && *p == '"') {
            p++;
            while (p < end && *p != '"') {
                if (*p == '\\' && p + 1 < end)
                    p++;
                kc_sb_putc(&v, *p++);
            }
            if (p >= end) {
                add_error(l, line, "unterminated quoted value");
                kc_sb_free(&v);
                return false;
            }
            p++;
        } else {
            while (p < end && !isspace((unsigned char)*p))
                kc_sb_putc(&v, *p++);
        }
        char *val = kc_sb_take(&v);
        char **slot = NULL;
        if (klen == 2 && !strncmp(k, "op", 2))
            slot = &b->op;
        else if (klen == 4 && !strncmp(k, "call", 4))
            slot = &b->call;
        else if (klen == 6 && !strncmp(k, "kernel", 6))
            slot = &b->kernel;
        else if (klen == 5 && !strncmp(k, "sizes", 5))
            slot = &b->sizes;
        else if (klen == 7 && !strncmp(k, "outputs", 7))
            slot = &b->outputs;
        if (!slot) {
            char *msg = kc_xasprintf("unknown key '%.*s' (op, call, kernel, sizes, outputs)", (int)klen, k);
            add_error(l, line, msg);
            free(msg);
            free(val);
            return false;
        }
        free(*slot);
        *slot = val;
    }
    return true;
}

static void binding_free(kc_binding *b)
{
    free(b->op);
    free(b->call);
    free(b->kernel);
    free(b->sizes);
    free(b->outputs);
}

void kc_bindings_parse(const kc_source *src, kc_binding_list *out)
{
    static const char tag[] = "kcheck: verify";
    for (uint32_t ln = 1; ln <= src->nlines; ln++) {
        size_t len;
        const char *line = kc_source_line(src, ln, &len);
        const char *end = line + len;
        const char *c = NULL;
        for (const char *p = line; p + 1 < end; p++)
            if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
                c = p;
                break;
            }
        if (!c)
            continue;
        const char *t = NULL;
        for (const char *p = c; p + sizeof tag - 1 <= end; p++)
            if (!memcmp(p, tag, sizeof tag - 1)) {
                t = p;
                break;
            }
        if (!t)
            continue;
        kc_binding b;
        memset(&b, 0, sizeof b);
        b.line = ln;
        if (!parse_pairs(t + sizeof tag - 1, end, &b, ln, out)) {
            binding_free(&b);
            continue;
        }
        if (!b.op || !b.call) {
            add_error(out, ln, "a binding needs op= and call=");
            binding_free(&b);
            continue;
        }
        kc_vec_push(&out->items, b);
    }
}

void kc_bindings_free(kc_binding_list *l)
{
    for (uint32_t i = 0; i < l->items.len; i++)
        binding_free(&l->items.data[i]);
    kc_vec_free(&l->items);
    kc_file_errors_free(&l->errors);
}

const kc_binding *kc_binding_for(const kc_binding_list *l, const kc_file_result *r, const char *kernel)
{
    if (!kernel)
        return NULL;
    /* An explicit kernel= wins. */
    for (uint32_t i = 0; i < l->items.len; i++) {
        const kc_binding *b = &l->items.data[i];
        if (b->kernel && strcmp(b->kernel, kernel) == 0)
            return b;
    }
    /* Otherwise the binding whose next kernel below is this one. */
    uint32_t kline = 0;
    for (uint32_t i = 0; i < r->kernels.len; i++)
        if (strcmp(r->kernels.data[i].name, kernel) == 0)
            kline = r->kernels.data[i].line;
    const kc_binding *wild = NULL;
    for (uint32_t i = 0; i < l->items.len; i++) {
        const kc_binding *b = &l->items.data[i];
        if (b->kernel && strcmp(b->kernel, "*") == 0) {
            wild = b;
            continue;
        }
        if (b->kernel)
            continue;
        /* the first kernel starting after the comment */
        const kc_kernel_ref *next = NULL;
        for (uint32_t k = 0; k < r->kernels.len; k++) {
            const kc_kernel_ref *kr = &r->kernels.data[k];
            if (kr->line > b->line && (!next || kr->line < next->line))
                next = kr;
        }
        if (next && next->line == kline && strcmp(next->name, kernel) == 0)
            return b;
        /* Below every kernel (next to a host launcher): the whole file. */
        if (!next && !wild)
            wild = b;
    }
    return wild;
}
