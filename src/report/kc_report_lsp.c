/* kc_report_lsp.c — findings as the Language Server Protocol writes them
 * (kc_report.h): `Diagnostic` objects for textDocument/publishDiagnostics,
 * fix-its as `TextEdit`s, a rule's documentation as hover Markdown.
 *
 * LSP positions are 0-based lines and characters counted in UTF-16 code
 * units (the protocol's default encoding); kcheck's spans are 1-based
 * lines and byte columns. A source kcheck read is valid UTF-8, so a
 * character is one unit, or two from U+10000 up (a 4-byte sequence).
 */
#include "kc_report.h"

#include "kc_rule.h"

#include <string.h>

/* UTF-16 units of the bytes [start, start + n) of a line. */
static uint32_t units(const char *s, size_t n)
{
    uint32_t u = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if ((b & 0xC0) == 0x80)
            continue; /* a continuation byte */
        u += b >= 0xF0 ? 2 : 1;
    }
    return u;
}

static json_t *position(const kc_source *src, uint32_t line, uint32_t col)
{
    if (!src || line == 0 || line > src->nlines) {
        uint32_t l = line ? line - 1 : 0;
        return json_pack("{s:I, s:I}", "line", (json_int_t)l, "character", (json_int_t)(col ? col - 1 : 0));
    }
    size_t len = 0;
    const char *text = kc_source_line(src, line, &len);
    size_t bytes = col ? col - 1 : 0;
    if (bytes > len)
        bytes = len;
    return json_pack("{s:I, s:I}", "line", (json_int_t)(line - 1), "character",
                     (json_int_t)(text ? units(text, bytes) : 0));
}

static json_t *range(const kc_source *src, kc_span s)
{
    uint32_t el = s.end_line ? s.end_line : s.line, ec = s.end_line ? s.end_col : s.col + 1;
    return json_pack("{s:o, s:o}", "start", position(src, s.line, s.col), "end", position(src, el, ec));
}

void kc_report_lsp_to_source(const kc_source *src, uint32_t line0, uint32_t ch16, uint32_t *line, uint32_t *col)
{
    *line = line0 + 1;
    *col = 1;
    if (!src || *line > src->nlines) {
        *col = ch16 + 1;
        return;
    }
    size_t len = 0;
    const char *text = kc_source_line(src, *line, &len);
    uint32_t u = 0;
    size_t i = 0;
    while (text && i < len && u < ch16) {
        unsigned char b = (unsigned char)text[i];
        size_t step = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        u += b >= 0xF0 ? 2 : 1;
        i += step;
    }
    if (i > len)
        i = len;
    *col = (uint32_t)i + 1;
}

static int lsp_severity(kc_severity s)
{
    return s == KC_SEV_ERROR ? 1 : s == KC_SEV_WARNING ? 2 : 3;
}

/* The message with the diagnostic's notes and its fix, one per line, as
 * the text format prints them below the finding. */
static json_t *message(const kc_diag *d)
{
    kc_strbuf sb = {0};
    kc_sb_append(&sb, d->message);
    for (uint32_t i = 0; i < d->notes.len; i++)
        kc_sb_appendf(&sb, "\nnote: %s", d->notes.data[i]);
    if (d->fix_description)
        kc_sb_appendf(&sb, "\nfix: %s", d->fix_description);
    json_t *j = json_string(kc_sb_str(&sb));
    kc_sb_free(&sb);
    return j ? j : json_string("(not valid UTF-8)");
}

json_t *kc_report_lsp_diagnostic(const kc_source *src, const kc_diag *d, size_t index)
{
    json_t *o = json_pack("{s:o, s:i, s:s, s:s, s:o, s:{s:I}}", "range", range(src, d->span), "severity",
                          lsp_severity(d->severity), "code", d->rule_id, "source", "kcheck", "message", message(d),
                          "data", "index", (json_int_t)index);
    return o;
}

json_t *kc_report_lsp_diagnostics(const kc_file_result *r)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < r->errors.items.len; i++) {
        const kc_file_error *e = &r->errors.items.data[i];
        kc_span s = {e->line ? e->line : 1, e->col ? e->col : 1, 0, 0};
        json_t *msg = json_string(e->message);
        json_array_append_new(a, json_pack("{s:o, s:i, s:s, s:s, s:o}", "range", range(r->src, s), "severity", 1,
                                           "code", "input", "source", "kcheck",
                                           "message", msg ? msg : json_string("cannot be checked")));
    }
    for (uint32_t i = 0; i < r->diags.items.len; i++)
        json_array_append_new(a, kc_report_lsp_diagnostic(r->src, &r->diags.items.data[i], i));
    return a;
}

json_t *kc_report_lsp_edits(const kc_source *src, const kc_diag *d)
{
    if (!d->fixes.len)
        return NULL;
    json_t *a = json_array();
    for (uint32_t i = 0; i < d->fixes.len; i++) {
        const kc_fixit *f = &d->fixes.data[i];
        kc_span s = f->span;
        if (!s.end_line) { /* an insertion */
            s.end_line = s.line;
            s.end_col = s.col;
        }
        json_t *t = json_string(f->replacement ? f->replacement : "");
        json_array_append_new(a, json_pack("{s:{s:o, s:o}, s:o}", "range", "start", position(src, s.line, s.col),
                                           "end", position(src, s.end_line, s.end_col), "newText",
                                           t ? t : json_string("")));
    }
    return a;
}

char *kc_report_lsp_hover(const kc_diag *d)
{
    size_t idx;
    const kc_rule *rule = kc_rules_find(d->rule_id, &idx);
    kc_strbuf sb = {0};
    kc_sb_appendf(&sb, "**%s %s** (%s)\n\n", d->rule_id, d->rule_slug ? d->rule_slug : "",
                  kc_severity_name(d->severity));
    if (rule && rule->summary)
        kc_sb_appendf(&sb, "%s\n\n", rule->summary);
    if (rule && rule->doc)
        kc_sb_append(&sb, rule->doc);
    return kc_sb_take(&sb);
}
