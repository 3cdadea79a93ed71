/* GitHub Actions workflow commands: one annotation per diagnostic,
 *
 *   ::warning file=k.py,line=43,col=24,endLine=43,endColumn=60,title=KC102 loop-invariant-load::message
 *
 * escaped as the runner expects: in the message '%', CR and LF become
 * %25, %0D and %0A; in property values ':' and ',' also become %3A and %2C.
 * GitHub's columns are 1-based and its endColumn is inclusive, so kcheck's
 * exclusive end byte column becomes end - 1; columns are only given when
 * the span is on one line (annotations support no other). Notes, the
 * fix-it and the verify verdict follow the message on further lines.
 */
#include "report_internal.h"

#include "kc_path.h"
#include "kc_fingerprint.h"

#include <stdlib.h>
#include <string.h>

static void escape(FILE *out, const char *s, bool property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':':
            if (property)
                fputs("%3A", out);
            else
                fputc(':', out);
            break;
        case ',':
            if (property)
                fputs("%2C", out);
            else
                fputc(',', out);
            break;
        default:
            /* Other control bytes (an escape sequence in a file name) are
             * written percent-encoded, never to the log as they are. */
            if ((unsigned char)*s < 0x20 || *s == 0x7f)
                fprintf(out, "%%%02X", (unsigned char)*s);
            else
                fputc(*s, out);
        }
    }
}

static const char *command_of(kc_severity s)
{
    return s == KC_SEV_ERROR ? "error" : s == KC_SEV_WARNING ? "warning" : "notice";
}

/* GitHub resolves `file=` against the repository (the workspace): the
 * path relative to the project root, wherever kcheck runs. */
static void file_prop(FILE *out, const char *path, const char *root)
{
    char *norm = kc_path_project(path, root);
    fputs(" file=", out);
    escape(out, norm, true);
    free(norm);
}

static void gh_file(kc_reporter *r, const kc_file_result *res)
{
    FILE *out = r->out;
    for (uint32_t i = 0; i < res->errors.items.len; i++) {
        const kc_file_error *e = &res->errors.items.data[i];
        fputs("::error", out);
        file_prop(out, res->path, r->opts->root);
        if (e->line)
            fprintf(out, ",line=%u", e->line);
        if (e->line && e->col)
            fprintf(out, ",col=%u", e->col);
        fputs(",title=kcheck input error::", out);
        escape(out, e->message, false);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < res->diags.items.len; i++) {
        const kc_diag *d = &res->diags.items.data[i];
        fprintf(out, "::%s", command_of(d->severity));
        file_prop(out, res->path, r->opts->root);
        fprintf(out, ",line=%u", d->span.line);
        bool one_line = d->span.end_line == d->span.line || d->span.end_line == 0;
        if (d->span.col) {
            if (one_line) {
                uint32_t end = d->span.end_col > d->span.col ? d->span.end_col - 1 : d->span.col;
                fprintf(out, ",col=%u,endColumn=%u", d->span.col, end);
            }
        }
        if (d->span.end_line > d->span.line)
            fprintf(out, ",endLine=%u", d->span.end_line);
        fputs(",title=", out);
        char *title = kc_xasprintf("%s %s", d->rule_id, d->rule_slug);
        escape(out, title, true);
        free(title);
        fputs("::", out);
        kc_strbuf msg = {0};
        kc_sb_append(&msg, d->message);
        for (uint32_t k = 0; k < d->notes.len; k++)
            kc_sb_appendf(&msg, "\nnote: %s", d->notes.data[k]);
        if (d->fix_description)
            kc_sb_appendf(&msg, "\nfix: %s", d->fix_description);
        if (d->verdict)
            kc_sb_appendf(&msg, "\nverify: %s: %s", d->verdict->status,
                          d->verdict->summary ? d->verdict->summary : "");
        escape(out, kc_sb_str(&msg), false);
        kc_sb_free(&msg);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < res->checks.len; i++) {
        const kc_verify_check *c = &res->checks.data[i];
        bool bad = !strcmp(c->status, "mismatch");
        fprintf(out, "::%s", bad ? "error" : "notice");
        file_prop(out, res->path, r->opts->root);
        fprintf(out, ",line=%u,title=", c->line);
        char *title = kc_xasprintf("kcheck verify op=%s", c->op);
        escape(out, title, true);
        free(title);
        fputs("::", out);
        char *m = kc_xasprintf("%s: %s", c->status, c->summary);
        escape(out, m, false);
        free(m);
        fputc('\n', out);
    }
}

static void gh_finish(kc_reporter *r, const kc_run_totals *t)
{
    if (!r->opts->quiet)
        kc_report_summary(r->out, r->opts, t);
}

static void gh_destroy(kc_reporter *r) { free(r); }

static const kc_reporter_ops gh_ops = {gh_file, gh_finish, gh_destroy};

kc_reporter *kc_report_github_new(const kc_options *opts, FILE *out, FILE *err)
{
    kc_reporter *r = kc_xcalloc(1, sizeof *r);
    r->ops = &gh_ops;
    r->opts = opts;
    r->out = out;
    return r;
}
