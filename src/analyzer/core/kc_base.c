#include "kc_base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void kc_oom(void)
{
    fputs("kcheck: fatal: out of memory\n", stderr);
    exit(2);
}

void *kc_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        kc_oom();
    return p;
}

void *kc_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        kc_oom();
    return p;
}

void *kc_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        kc_oom();
    return q;
}

char *kc_xstrdup(const char *s) { return kc_xstrndup(s, strlen(s)); }

char *kc_xstrndup(const char *s, size_t n)
{
    char *p = kc_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *kc_xvasprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *p = kc_xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *kc_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = kc_xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

void kc_vec_grow_(void **data, uint32_t *cap, uint32_t need, size_t elem)
{
    uint64_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX)
        kc_oom();
    *data = kc_xrealloc(*data, (size_t)c * elem);
    *cap = (uint32_t)c;
}

/* ---- string builder ---- */

static void sb_reserve(kc_strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t c = sb->cap ? sb->cap : 64;
    while (c < need)
        c *= 2;
    sb->data = kc_xrealloc(sb->data, c);
    sb->cap = c;
}

void kc_sb_appendn(kc_strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void kc_sb_append(kc_strbuf *sb, const char *s) { kc_sb_appendn(sb, s, strlen(s)); }

void kc_sb_putc(kc_strbuf *sb, char c) { kc_sb_appendn(sb, &c, 1); }

void kc_sb_appendf(kc_strbuf *sb, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n > 0) {
        sb_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
        sb->len += (size_t)n;
    }
    va_end(ap);
}

char *kc_sb_take(kc_strbuf *sb)
{
    char *p = sb->data ? sb->data : kc_xstrdup("");
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return p;
}

void kc_sb_free(kc_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

/* ---- arena ---- */

typedef struct kc_arena_block {
    struct kc_arena_block *next;
    size_t used, size;
    _Alignas(16) unsigned char mem[];
} kc_arena_block;

struct kc_arena {
    kc_arena_block *head;
    size_t bytes; /* of every block */
    size_t limit; /* 0: none */
};

kc_arena *kc_arena_new(void) { return kc_xcalloc(1, sizeof(kc_arena)); }

void kc_arena_delete(kc_arena *a)
{
    if (!a)
        return;
    kc_arena_block *b = a->head;
    while (b) {
        kc_arena_block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void *kc_arena_alloc(kc_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    kc_arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t sz = n > 32768 ? n : 32768;
        b = kc_xmalloc(sizeof(kc_arena_block) + sz);
        a->bytes += sz;
        b->size = sz;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->mem + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

void kc_arena_set_limit(kc_arena *a, size_t bytes) { a->limit = bytes; }

bool kc_arena_over(const kc_arena *a) { return a && a->limit && a->bytes > a->limit; }

size_t kc_arena_bytes(const kc_arena *a) { return a ? a->bytes : 0; }

char *kc_arena_strndup(kc_arena *a, const char *s, size_t n)
{
    char *p = kc_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *kc_arena_strdup(kc_arena *a, const char *s)
{
    return s ? kc_arena_strndup(a, s, strlen(s)) : NULL;
}

char *kc_arena_printf(kc_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *tmp = kc_xvasprintf(fmt, ap);
    va_end(ap);
    char *p = kc_arena_strdup(a, tmp);
    free(tmp);
    return p;
}

int kc_strptr_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int kc_hash_index_cmp(const void *a, const void *b)
{
    const kc_hash_index *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

int kc_name_index_cmp(const void *a, const void *b)
{
    const kc_name_index *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}
