#include "kc_fixit.h"

#include <stdlib.h>
#include <string.h>

typedef struct edit_pos {
    size_t a, b;
    const char *text;
} edit_pos;

static int pos_cmp(const void *x, const void *y)
{
    const edit_pos *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* How the line holding `offset` ends: "\r\n", "\r" (classic Mac OS) or
 * "\n"; the line before it says for a last line without one. */
static const char *line_end_at(const kc_source *s, size_t offset)
{
    uint32_t line, col;
    kc_source_position(s, offset, &line, &col);
    for (uint32_t l = line; l >= 1 && l >= line - 1; l--) {
        if (l >= s->nlines)
            continue; /* the last line: no terminator */
        size_t t = s->line_start[l] - 1; /* its terminator's last byte */
        if (s->text[t] == '\r')
            return "\r";
        return t > 0 && s->text[t - 1] == '\r' ? "\r\n" : "\n";
    }
    return "\n";
}

char *kc_fixit_apply(const kc_source *src, const kc_fixit *edits, size_t n, size_t *out_len, char **err)
{
    *err = NULL;
    edit_pos *ps = kc_xcalloc(n ? n : 1, sizeof *ps);
    for (size_t i = 0; i < n; i++) {
        kc_span s = edits[i].span;
        if (!kc_span_valid(s) || s.line > src->nlines || s.end_line > src->nlines || s.end_line < s.line ||
            (s.end_line == s.line && s.end_col < s.col)) {
            *err = kc_xasprintf("fix-it edit %zu has an invalid range %u:%u-%u:%u", i, s.line, s.col, s.end_line,
                                s.end_col);
            free(ps);
            return NULL;
        }
        ps[i].a = kc_source_offset(src, s.line, s.col);
        ps[i].b = kc_source_offset(src, s.end_line, s.end_col);
        ps[i].text = edits[i].replacement;
    }
    qsort(ps, n, sizeof *ps, pos_cmp);
    for (size_t i = 1; i < n; i++)
        if (ps[i].a < ps[i - 1].b) {
            *err = kc_xstrdup("fix-it edits overlap");
            free(ps);
            return NULL;
        }
    kc_strbuf sb = {0};
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        kc_sb_appendn(&sb, src->text + at, ps[i].a - at);
        /* the lines a replacement adds end as the line it lands on does */
        const char *eol = line_end_at(src, ps[i].a);
        for (const char *t = ps[i].text; *t; t++)
            if (*t == '\n')
                kc_sb_append(&sb, eol);
            else
                kc_sb_appendn(&sb, t, 1);
        at = ps[i].b;
    }
    kc_sb_appendn(&sb, src->text + at, src->len - at);
    free(ps);
    *out_len = sb.len;
    return kc_sb_take(&sb);
}
