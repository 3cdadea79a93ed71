/* compute-sanitizer's text log, as reports: what (the headline), where
 * (each "at FUNCTION+0xOFF in FILE:LINE" of the report: Triton cubins and
 * CUDA built with -lineinfo name the source line) and by whom (thread and
 * block). The log's lines all begin with "========= "; a report starts at a
 * line whose text is not indented and ends before the next one. */
#include "verify_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "========= "

static void report_free(kc_sanitizer_report *r)
{
    free(r->what);
    free(r->who);
    for (uint32_t i = 0; i < r->where.len; i++) {
        free(r->where.data[i].file);
        free(r->where.data[i].function);
    }
    kc_vec_free(&r->where);
}

void kc_sanitizer_reports_free(kc_sanitizer_report_vec *v)
{
    for (uint32_t i = 0; i < v->len; i++)
        report_free(&v->data[i]);
    kc_vec_free(v);
}

/* "at FUNC+0x1c0 in /x/ops.py:23" (also "... access at FUNC+0x.. in F:L"):
 * the function and the file:line at the end of the line. */
static bool parse_where(const char *s, size_t len, kc_sanitizer_where *w)
{
    /* racecheck ends an access with " [2048 hazards]" */
    if (len && s[len - 1] == ']')
        for (size_t i = len; i > 1; i--)
            if (s[i - 1] == '[' && s[i - 2] == ' ') {
                len = i - 2;
                break;
            }
    /* FILE:LINE at the end, after the last " in " */
    const char *in = NULL;
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(s + i, " in ", 4))
            in = s + i;
    if (!in)
        return false;
    const char *file = in + 4, *end = s + len;
    const char *colon = NULL;
    for (const char *p = end; p > file; p--)
        if (p[-1] == ':') {
            colon = p - 1;
            break;
        }
    if (!colon || colon + 1 >= end)
        return false;
    for (const char *p = colon + 1; p < end; p++)
        if (*p < '0' || *p > '9')
            return false;
    const char *at = NULL;
    for (const char *p = s; p + 3 <= in; p++)
        if (!memcmp(p, "at ", 3) && (p == s || p[-1] == ' ')) {
            at = p + 3;
            break;
        }
    const char *fend = in;
    if (at) {
        for (const char *p = in; p > at; p--)
            if (p[-1] == '+') {
                fend = p - 1;
                break;
            }
    }
    w->file = kc_xstrndup(file, (size_t)(colon - file));
    w->line = (uint32_t)strtoul(colon + 1, NULL, 10);
    w->function = at && fend > at ? kc_xstrndup(at, (size_t)(fend - at)) : NULL;
    return true;
}

void kc_sanitizer_parse(const char *text, size_t len, kc_sanitizer_report_vec *out)
{
    kc_sanitizer_report *cur = NULL;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t plen = strlen(PREFIX);
        if ((size_t)(le - p) > plen && !memcmp(p, PREFIX, plen)) {
            const char *s = p + plen;
            size_t sl = (size_t)(le - s);
            while (sl && (s[sl - 1] == '\r' || s[sl - 1] == ' '))
                sl--;
            if (sl && s[0] != ' ') {
                /* a headline; the summary and the tool's banner are not reports */
                bool meta = !strncmp(s, "ERROR SUMMARY", 13) || !strncmp(s, "COMPUTE-SANITIZER", 17) ||
                            !strncmp(s, "LEAK SUMMARY", 12) || !strncmp(s, "RACECHECK SUMMARY", 17) ||
                            !strncmp(s, "Target application returned", 27) || !strncmp(s, "Program hit", 11) ||
                            !strncmp(s, "Saved host backtrace", 20) || !strncmp(s, "Host Frame", 10);
                if (meta) {
                    cur = NULL;
                } else {
                    kc_sanitizer_report r = {.what = kc_xstrndup(s, sl)};
                    kc_vec_push(out, r);
                    cur = &out->data[out->len - 1];
                    /* racecheck's headline holds the first access itself */
                    kc_sanitizer_where w = {0};
                    if (parse_where(s, sl, &w))
                        kc_vec_push(&cur->where, w);
                }
            } else if (cur && sl) {
                while (sl && *s == ' ') {
                    s++;
                    sl--;
                }
                kc_sanitizer_where w = {0};
                if (!strncmp(s, "by thread", 9) && !cur->who)
                    cur->who = kc_xstrndup(s, sl);
                else if (!strncmp(s, "Saved host backtrace", 20))
                    cur = NULL; /* host frames follow: not device lines */
                else if (parse_where(s, sl, &w))
                    kc_vec_push(&cur->where, w);
            }
        }
        p = nl ? nl + 1 : end;
    }
}

/* Whether a file compute-sanitizer names is the finding's `path`: the same
 * name, or the copy an exported bundle runs ("<n>_<name>", plan.c's
 * plan_user_file, with characters other than letters, digits, '.', '_' and
 * '-' made '_'). */
static bool same_source(const char *logged, const char *path)
{
    const char *a = kc_base_name(logged), *want = kc_base_name(path);
    if (!strcmp(a, want))
        return true;
    if (!isdigit((unsigned char)*a))
        return false;
    while (isdigit((unsigned char)*a))
        a++;
    if (*a++ != '_' || strlen(a) != strlen(want))
        return false;
    for (; *a; a++, want++)
        if (*a != *want && !(*a == '_' && !isalnum((unsigned char)*want) && *want != '.' && *want != '-'))
            return false;
    return true;
}

size_t kc_sanitizer_at(const kc_sanitizer_report_vec *v, const char *path, const kc_diag *d,
                       const kc_sanitizer_report **first, const kc_sanitizer_where **where)
{
    size_t n = 0;
    uint32_t lo = d->span.line > 2 ? d->span.line - 2 : 1, hi = d->span.end_line > d->span.line ? d->span.end_line
                                                                                                 : d->span.line;
    for (uint32_t i = 0; i < v->len; i++)
        for (uint32_t k = 0; k < v->data[i].where.len; k++) {
            const kc_sanitizer_where *w = &v->data[i].where.data[k];
            if (w->line >= lo && w->line <= hi && same_source(w->file, path)) {
                if (!n++) {
                    *first = &v->data[i];
                    *where = w;
                }
                break;
            }
        }
    return n;
}
