/* The JSON document of `--format json` (README.md, "JSON output"):
 * {"version": 1, "diagnostics": [...], "files": N, "errors": [...]} */
#include "report_internal.h"

#include <jansson.h>
#include <stdlib.h>

typedef struct json_reporter {
    kc_reporter base;
    json_t *diags;
    json_t *errors;
    json_t *checks;
    json_t *incomplete; /* KC002 notes, at every severity */
} json_reporter;

static json_t *span_fields(json_t *o, kc_span s)
{
    json_object_set_new(o, "line", json_integer(s.line));
    json_object_set_new(o, "column", json_integer(s.col));
    json_object_set_new(o, "end_line", json_integer(s.end_line));
    json_object_set_new(o, "end_column", json_integer(s.end_col));
    return o;
}

static json_t *diag_json(const char *path, const kc_diag *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "file", kc_report_json_text(path));
    span_fields(o, d->span);
    json_object_set_new(o, "rule", kc_report_json_text(d->rule_id));
    json_object_set_new(o, "name", kc_report_json_text(d->rule_slug));
    json_object_set_new(o, "severity", kc_report_json_text(kc_severity_name(d->severity)));
    json_object_set_new(o, "message", kc_report_json_text(d->message));
    if (d->kernel)
        json_object_set_new(o, "kernel", kc_report_json_text(d->kernel));
    json_t *notes = json_array();
    for (uint32_t i = 0; i < d->notes.len; i++)
        json_array_append_new(notes, kc_report_json_text(d->notes.data[i]));
    json_object_set_new(o, "notes", notes);
    if (d->fix_description) {
        json_t *fix = json_object();
        json_object_set_new(fix, "description", kc_report_json_text(d->fix_description));
        json_t *edits = json_array();
        for (uint32_t i = 0; i < d->fixes.len; i++) {
            json_t *e = span_fields(json_object(), d->fixes.data[i].span);
            json_object_set_new(e, "replacement", kc_report_json_text(d->fixes.data[i].replacement));
            json_array_append_new(edits, e);
        }
        json_object_set_new(fix, "edits", edits);
        json_object_set_new(o, "fix", fix);
    } else {
        json_object_set_new(o, "fix", json_null());
    }
    if (d->verdict) {
        json_t *v = json_object();
        json_object_set_new(v, "status", kc_report_json_text(d->verdict->status));
        if (d->verdict->summary)
            json_object_set_new(v, "summary", kc_report_json_text(d->verdict->summary));
        if (d->verdict->evidence_json) {
            json_t *ev = json_loads(d->verdict->evidence_json, 0, NULL);
            if (ev)
                json_object_set_new(v, "evidence", ev);
        }
        json_object_set_new(o, "verify", v);
    }
    return o;
}

static void json_file(kc_reporter *r, const kc_file_result *res)
{
    json_reporter *j = (json_reporter *)r;
    for (uint32_t i = 0; i < res->errors.items.len; i++) {
        const kc_file_error *e = &res->errors.items.data[i];
        json_t *o = json_object();
        json_object_set_new(o, "file", kc_report_json_text(res->path));
        json_object_set_new(o, "line", json_integer(e->line));
        json_object_set_new(o, "column", json_integer(e->col));
        json_object_set_new(o, "message", kc_report_json_text(e->message));
        json_array_append_new(j->errors, o);
    }
    for (uint32_t i = 0; i < res->diags.items.len; i++) {
        const kc_diag *d = &res->diags.items.data[i];
        json_array_append_new(j->diags, diag_json(res->path, d));
        if (kc_diag_is_incomplete(d))
            json_array_append_new(j->incomplete, diag_json(res->path, d));
    }
    for (uint32_t i = 0; i < res->incomplete.items.len; i++)
        json_array_append_new(j->incomplete, diag_json(res->path, &res->incomplete.items.data[i]));
    for (uint32_t i = 0; i < res->checks.len; i++) {
        const kc_verify_check *c = &res->checks.data[i];
        json_t *o = json_object();
        json_object_set_new(o, "file", kc_report_json_text(res->path));
        json_object_set_new(o, "line", json_integer(c->line));
        json_object_set_new(o, "op", kc_report_json_text(c->op));
        json_object_set_new(o, "status", kc_report_json_text(c->status));
        json_object_set_new(o, "summary", kc_report_json_text(c->summary));
        json_array_append_new(j->checks, o);
    }
}

static void json_finish(kc_reporter *r, const kc_run_totals *t)
{
    json_reporter *j = (json_reporter *)r;
    json_t *doc = json_object();
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set(doc, "diagnostics", j->diags);
    json_object_set_new(doc, "files", json_integer((json_int_t)t->files));
    json_object_set(doc, "errors", j->errors);
    json_object_set(doc, "incomplete", j->incomplete);
    if (r->opts->verify)
        json_object_set(doc, "checks", j->checks);
    json_dumpf(doc, r->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    fputc('\n', r->out);
    json_decref(doc);
}

static void json_destroy(kc_reporter *r)
{
    json_reporter *j = (json_reporter *)r;
    json_decref(j->diags);
    json_decref(j->errors);
    json_decref(j->checks);
    json_decref(j->incomplete);
    free(j);
}

static const kc_reporter_ops json_ops = {json_file, json_finish, json_destroy};

kc_reporter *kc_report_json_new(const kc_options *opts, FILE *out, FILE *err)
{
    json_reporter *j = kc_xcalloc(1, sizeof *j);
    j->base.ops = &json_ops;
    j->base.opts = opts;
    j->base.out = out;
    j->diags = json_array();
    j->errors = json_array();
    j->checks = json_array();
    j->incomplete = json_array();
    return &j->base;
}
