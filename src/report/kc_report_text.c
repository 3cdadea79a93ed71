#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"

typedef struct text_reporter {
    kc_reporter base;
    bool concise; /* --format concise: the first line of each finding */
} text_reporter;

static const char *sev_color(kc_severity s)
{
    return s == KC_SEV_ERROR ? C_RED : s == KC_SEV_WARNING ? C_MAGENTA : C_CYAN;
}

static unsigned digits(uint32_t n)
{
    unsigned d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

/* Prints the source line and a caret under [col, end) of it; tabs in the
 * prefix are copied so the caret lines up in any tab width. */
static void print_snippet(FILE *out, const kc_options *o, const kc_source *src, kc_span sp,
                          unsigned gutter)
{
    size_t len;
    const char *line = kc_source_line(src, sp.line, &len);
    if (!line)
        return;
    fprintf(out, "%*u | %.*s\n", (int)gutter, sp.line, (int)len, line);
    size_t col = sp.col ? sp.col - 1 : 0;
    if (col > len)
        col = len;
    size_t end = (sp.end_line == sp.line && sp.end_col > sp.col) ? sp.end_col - 1 : len;
    if (end > len)
        end = len;
    if (end <= col)
        end = col + 1;
    fprintf(out, "%*s | ", (int)gutter, "");
    for (size_t i = 0; i < col; i++)
        fputc(line[i] == '\t' ? '\t' : ' ', out);
    if (o->color)
        fputs(C_GREEN, out);
    fputc('^', out);
    /* One ~ per character (UTF-8 continuation bytes take no column). */
    for (size_t i = col + 1; i < end; i++)
        if (((unsigned char)line[i] & 0xC0) != 0x80)
            fputc('~', out);
    if (o->color)
        fputs(C_RESET, out);
    fputc('\n', out);
}

/* A finding's first line, without its newline: location, severity,
 * message, [ID slug] (the whole of it in --format concise). */
static void diag_header(FILE *out, const kc_options *o, const char *path, const kc_diag *d)
{
    const char *bold = o->color ? C_BOLD : "", *reset = o->color ? C_RESET : "";
    fprintf(out, "%s%s:%u:%u:%s %s%s:%s %s%s%s [%s %s]", bold, path, d->span.line, d->span.col, reset,
            o->color ? sev_color(d->severity) : "", kc_severity_name(d->severity), reset, bold, d->message, reset,
            d->rule_id, d->rule_slug);
}

void kc_report_text_diag(FILE *out, const kc_options *o, const kc_source *src, const char *path,
                         const kc_diag *d)
{
    const char *reset = o->color ? C_RESET : "";
    diag_header(out, o, path, d);
    fputc('\n', out);
    unsigned gutter = digits(d->span.line) + 1;
    if (gutter < 4)
        gutter = 4;
    if (o->show_source && src)
        print_snippet(out, o, src, d->span, gutter);
    for (uint32_t i = 0; i < d->notes.len; i++)
        fprintf(out, "%*s = %snote:%s %s\n", (int)gutter, "", o->color ? C_CYAN : "", reset,
                d->notes.data[i]);
    if (d->fix_description)
        fprintf(out, "%*s = %sfix:%s %s\n", (int)gutter, "", o->color ? C_GREEN : "", reset,
                d->fix_description);
    if (d->verdict)
        fprintf(out, "%*s = %sverify:%s %s: %s\n", (int)gutter, "", o->color ? C_CYAN : "", reset,
                d->verdict->status, d->verdict->summary ? d->verdict->summary : "");
}

static void text_file(kc_reporter *r, const kc_file_result *res)
{
    const kc_options *o = r->opts;
    const char *bold = o->color ? C_BOLD : "", *reset = o->color ? C_RESET : "";
    /* A file name's newlines and escape sequences are shown, not obeyed. */
    char *path = kc_report_printable(res->path);
    for (uint32_t i = 0; i < res->errors.items.len; i++) {
        const kc_file_error *e = &res->errors.items.data[i];
        if (e->line)
            fprintf(r->out, "%s%s:%u:%u:%s %serror:%s %s [input]\n", bold, path, e->line,
                    e->col, reset, o->color ? C_RED : "", reset, e->message);
        else
            fprintf(r->out, "%s%s:%s %serror:%s %s [input]\n", bold, path, reset,
                    o->color ? C_RED : "", reset, e->message);
    }
    for (uint32_t i = 0; i < res->diags.items.len; i++) {
        const kc_diag *d = &res->diags.items.data[i];
        if (!((text_reporter *)r)->concise) {
            kc_report_text_diag(r->out, o, res->src, path, d);
            continue;
        }
        /* ruff's concise output: [*] marks a finding --fix can fix. */
        diag_header(r->out, o, path, d);
        if (d->fixes.len)
            fputs(" [*]", r->out);
        if (d->verdict)
            fprintf(r->out, " (verify: %s)", d->verdict->status);
        fputc('\n', r->out);
    }
    for (uint32_t i = 0; i < res->checks.len; i++) {
        const kc_verify_check *c = &res->checks.data[i];
        bool bad = !strcmp(c->status, "mismatch");
        fprintf(r->out, "%s%s:%u:1:%s %s%s:%s verify op=%s: %s: %s\n", bold, path, c->line, reset,
                o->color ? (bad ? C_RED : C_CYAN) : "", bad ? "error" : "note", reset, c->op, c->status,
                c->summary);
    }
    free(path);
}

static void text_finish(kc_reporter *r, const kc_run_totals *t)
{
    /* --quiet: nothing on success, and never the summary line. */
    if (!r->opts->quiet)
        kc_report_summary(r->out, r->opts, t);
}

static void text_destroy(kc_reporter *r) { free(r); }

static const kc_reporter_ops text_ops = {text_file, text_finish, text_destroy};

kc_reporter *kc_report_text_new(const kc_options *opts, FILE *out, FILE *err)
{
    text_reporter *t = kc_xcalloc(1, sizeof *t);
    t->base.ops = &text_ops;
    t->base.opts = opts;
    t->base.out = out;
    return &t->base;
}

kc_reporter *kc_report_concise_new(const kc_options *opts, FILE *out, FILE *err)
{
    kc_reporter *r = kc_report_text_new(opts, out, err);
    ((text_reporter *)r)->concise = true;
    return r;
}

/* ---- --diff --------------------------------------------------------------- */

typedef struct diff_reporter {
    kc_reporter base;
    FILE *err;
} diff_reporter;

static void diff_file(kc_reporter *r, const kc_file_result *res)
{
    diff_reporter *d = (diff_reporter *)r;
    char *path = kc_report_printable(res->path);
    for (uint32_t i = 0; i < res->errors.items.len; i++) {
        const kc_file_error *e = &res->errors.items.data[i];
        if (e->line)
            fprintf(d->err, "%s:%u:%u: error: %s [input]\n", path, e->line, e->col, e->message);
        else
            fprintf(d->err, "%s: error: %s [input]\n", path, e->message);
    }
    free(path);
    if (res->diff)
        fputs(res->diff, r->out);
}

static void diff_finish(kc_reporter *r, const kc_run_totals *t)
{
    diff_reporter *d = (diff_reporter *)r;
    if (!r->opts->quiet && t->fixed)
        fprintf(d->err, "kcheck: would fix %zu finding%s in %zu file%s\n", t->fixed, t->fixed == 1 ? "" : "s",
                t->files_fixed, t->files_fixed == 1 ? "" : "s");
}

static const kc_reporter_ops diff_ops = {diff_file, diff_finish, text_destroy};

kc_reporter *kc_report_diff_new(const kc_options *opts, FILE *out, FILE *err)
{
    diff_reporter *t = kc_xcalloc(1, sizeof *t);
    t->base.ops = &diff_ops;
    t->base.opts = opts;
    t->base.out = out;
    t->err = err;
    return &t->base;
}
