#include "kc_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sev_names[] = {"note", "warning", "error"};

const char *kc_severity_name(kc_severity s)
{
    return (unsigned)s < 3 ? sev_names[s] : "?";
}

bool kc_severity_parse(const char *s, kc_severity *out)
{
    for (unsigned i = 0; i < 3; i++)
        if (strcmp(s, sev_names[i]) == 0) {
            *out = (kc_severity)i;
            return true;
        }
    return false;
}

kc_diag *kc_diag_list_add(kc_diag_list *l)
{
    kc_diag d;
    memset(&d, 0, sizeof d);
    kc_vec_push(&l->items, d);
    return kc_vec_last(&l->items);
}

void kc_diag_dispose(kc_diag *d)
{
    free(d->message);
    free(d->kernel);
    for (uint32_t i = 0; i < d->notes.len; i++)
        free(d->notes.data[i]);
    kc_vec_free(&d->notes);
    free(d->fix_description);
    for (uint32_t i = 0; i < d->fixes.len; i++)
        free(d->fixes.data[i].replacement);
    kc_vec_free(&d->fixes);
    if (d->verdict) {
        free(d->verdict->status);
        free(d->verdict->summary);
        free(d->verdict->evidence_json);
        free(d->verdict);
    }
}

void kc_diag_list_free(kc_diag_list *l)
{
    for (uint32_t i = 0; i < l->items.len; i++)
        kc_diag_dispose(&l->items.data[i]);
    kc_vec_free(&l->items);
}

static int diag_cmp(const void *pa, const void *pb)
{
    const kc_diag *a = pa, *b = pb;
    if (a->span.line != b->span.line)
        return a->span.line < b->span.line ? -1 : 1;
    if (a->span.col != b->span.col)
        return a->span.col < b->span.col ? -1 : 1;
    int c = strcmp(a->rule_id, b->rule_id);
    if (c)
        return c;
    if (a->span.end_line != b->span.end_line)
        return a->span.end_line < b->span.end_line ? -1 : 1;
    if (a->span.end_col != b->span.end_col)
        return a->span.end_col < b->span.end_col ? -1 : 1;
    return strcmp(a->message, b->message);
}

void kc_diag_list_sort_unique(kc_diag_list *l)
{
    if (l->items.len < 2)
        return;
    qsort(l->items.data, l->items.len, sizeof(kc_diag), diag_cmp);
    uint32_t out = 1;
    for (uint32_t i = 1; i < l->items.len; i++) {
        if (diag_cmp(&l->items.data[out - 1], &l->items.data[i]) == 0)
            kc_diag_dispose(&l->items.data[i]);
        else
            l->items.data[out++] = l->items.data[i];
    }
    l->items.len = out;
}

void kc_diag_one_line(char *s)
{
    char *o = s;
    for (const char *p = s; *p;) {
        if (*p == '\n' || *p == '\r') {
            while (o > s && (o[-1] == ' ' || o[-1] == '\t'))
                o--;
            while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
                p++;
            *o++ = ' ';
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
}

void kc_diag_note(kc_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = kc_xvasprintf(fmt, ap);
    va_end(ap);
    kc_diag_one_line(s);
    kc_vec_push(&d->notes, s);
}

void kc_diag_fix_edit(kc_diag *d, kc_span span, const char *replacement)
{
    kc_fixit f = {.span = span, .replacement = kc_xstrdup(replacement)};
    kc_vec_push(&d->fixes, f);
}

void kc_diag_fix(kc_diag *d, const char *description, kc_span span, const char *replacement)
{
    free(d->fix_description);
    d->fix_description = kc_xstrdup(description);
    kc_diag_fix_edit(d, span, replacement);
}

void kc_file_errors_add(kc_file_errors *e, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kc_file_error fe = {.line = line, .col = col, .message = kc_xvasprintf(fmt, ap)};
    va_end(ap);
    kc_vec_push(&e->items, fe);
}

void kc_file_errors_free(kc_file_errors *e)
{
    for (uint32_t i = 0; i < e->items.len; i++)
        free(e->items.data[i].message);
    kc_vec_free(&e->items);
}

static void size_text(char *buf, size_t n, size_t bytes)
{
    if (bytes >= ((size_t)1 << 20))
        snprintf(buf, n, "%zu MiB", (bytes + ((size_t)1 << 20) - 1) >> 20);
    else
        snprintf(buf, n, "%zu KiB", (bytes + 1023) >> 10);
}

void kc_file_errors_over_memory(kc_file_errors *e, const char *what, size_t used, size_t limit)
{
    char u[32], l[32];
    size_text(u, sizeof u, used);
    size_text(l, sizeof l, limit);
    kc_file_errors_add(e, 0, 0,
                       "not checked: %s needed %s, over the memory limit of one file, %s "
                       "(--file-memory=SIZE raises it; 0: no limit)",
                       what, u, l);
}
