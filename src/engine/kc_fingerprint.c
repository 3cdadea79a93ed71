#include "kc_fingerprint.h"
#include "kc_path.h"
#include "kc_hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static void trimmed_line(const kc_source *src, uint32_t line, const char **p, size_t *n)
{
    size_t len = 0;
    const char *t = src ? kc_source_line(src, line, &len) : NULL;
    if (!t) {
        *p = "";
        *n = 0;
        return;
    }
    while (len && (*t == ' ' || *t == '\t')) {
        t++;
        len--;
    }
    while (len && (t[len - 1] == ' ' || t[len - 1] == '\t' || t[len - 1] == '\r'))
        len--;
    *p = t;
    *n = len;
}

/* A finding's (rule, trimmed line text), for counting occurrences. */
typedef struct fp_key {
    uint64_t hash; /* of rule and text: orders the sort, most comparisons stop here */
    const char *rule;
    const char *text;
    size_t len;
    uint32_t index;
} fp_key;

static int fp_key_cmp(const void *a, const void *b)
{
    const fp_key *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    int c = strcmp(x->rule, y->rule);
    if (!c && x->len != y->len)
        c = x->len < y->len ? -1 : 1;
    if (!c)
        c = memcmp(x->text, y->text, x->len);
    if (!c)
        c = x->index < y->index ? -1 : x->index > y->index;
    return c;
}

void kc_fingerprint_diags(const kc_source *src, const char *path, const char *root, kc_diag_list *l)
{
    char *norm = kc_path_project(path, root);
    kc_strbuf sb = {0};
    /* Occurrence of each finding: earlier findings of the same rule on a
     * line with the same text. Counted by sorting (rule, text, index), not
     * by comparing every pair: a generated file with 100,000 identical
     * lines must not take minutes. */
    uint32_t n = l->items.len;
    fp_key *keys = kc_xcalloc(n ? n : 1, sizeof *keys);
    unsigned *occ = kc_xcalloc(n ? n : 1, sizeof *occ);
    for (uint32_t i = 0; i < n; i++) {
        kc_diag *d = &l->items.data[i];
        fp_key *k = &keys[i];
        trimmed_line(src, d->span.line, &k->text, &k->len);
        k->rule = d->rule_id;
        k->index = i;
        kc_sb_len_reset(&sb);
        kc_sb_append(&sb, d->rule_id);
        kc_sb_putc(&sb, '\0');
        kc_sb_appendn(&sb, k->text, k->len);
        k->hash = kc_hash_bytes(sb.data, sb.len);
    }
    if (n > 1)
        qsort(keys, n, sizeof *keys, fp_key_cmp);
    for (uint32_t i = 1; i < n; i++) {
        const fp_key *a = &keys[i - 1], *b = &keys[i];
        if (a->hash == b->hash && !strcmp(a->rule, b->rule) && a->len == b->len && !memcmp(a->text, b->text, a->len))
            occ[b->index] = occ[a->index] + 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        kc_diag *d = &l->items.data[i];
        const char *t;
        size_t tn;
        trimmed_line(src, d->span.line, &t, &tn);
        kc_sb_len_reset(&sb);
        kc_sb_append(&sb, "kcheck-fp-1");
        kc_sb_putc(&sb, '\0');
        kc_sb_append(&sb, d->rule_id);
        kc_sb_putc(&sb, '\0');
        kc_sb_append(&sb, norm);
        kc_sb_putc(&sb, '\0');
        kc_sb_appendn(&sb, t, tn);
        kc_sb_putc(&sb, '\0');
        kc_sb_appendf(&sb, "%u", occ[i]);
        d->fingerprint = kc_hash_bytes(sb.data, sb.len);
    }
    free(keys);
    free(occ);
    kc_sb_free(&sb);
    free(norm);
}

void kc_fingerprint_hex(uint64_t fp, char out[17]) { snprintf(out, 17, "%016llx", (unsigned long long)fp); }

bool kc_fingerprint_parse(const char *s, uint64_t *fp)
{
    if (!s || strlen(s) != 16)
        return false;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *fp = v;
    return true;
}
