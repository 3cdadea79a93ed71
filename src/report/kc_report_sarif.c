/* SARIF 2.1.0 (OASIS): one run, the rule catalog from the registry (and
 * kcheck's own diagnostics), one result per diagnostic.
 *
 * Columns: kcheck counts 1-based bytes; SARIF's default columnKind,
 * utf16CodeUnits, which GitHub and the SARIF viewers assume, counts UTF-16
 * code units. Each column is converted on its source line (a character
 * outside the BMP counts 2); the run states columnKind explicitly. End
 * columns are exclusive in both.
 */
#include "report_internal.h"

#include "kc_path.h"
#include "kc_fingerprint.h"
#include "kc_rule.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KCHECK_HOMEPAGE
#define KCHECK_HOMEPAGE ""
#endif

#define SRCROOT "%SRCROOT%"

typedef struct sarif_reporter {
    kc_reporter base;
    json_t *results;
    json_t *notifications; /* files that could not be checked */
    json_t *checks;        /* verify: bound kernels without findings */
    char *cwd;             /* %SRCROOT%: the project root (kc_path_project_root of the working directory) */
} sarif_reporter;

/* RFC 3986: keep unreserved characters and '/', percent-encode the rest. */
static char *uri_encode(const char *path)
{
    kc_strbuf sb = {0};
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            kc_sb_putc(&sb, (char)*p);
        else
            kc_sb_appendf(&sb, "%%%02X", *p);
    }
    return kc_sb_take(&sb);
}

/* artifactLocation: relative to %SRCROOT% (the project root: --root, else
 * the repository of the working directory, else the working directory)
 * when the file is under it, else an absolute file: URI. */
static json_t *artifact_location(const char *root, const char *path)
{
    char *abs = kc_path_absolute(path);
    json_t *o = json_object();
    const char *rel = root ? kc_path_under(abs, root) : NULL;
    if (rel && *rel) {
        char *enc = uri_encode(rel);
        json_object_set_new(o, "uri", kc_report_json_text(enc));
        json_object_set_new(o, "uriBaseId", kc_report_json_text(SRCROOT));
        free(enc);
    } else {
        char *enc = uri_encode(abs);
        char *uri = kc_xasprintf("file://%s", enc);
        json_object_set_new(o, "uri", kc_report_json_text(uri));
        free(uri);
        free(enc);
    }
    free(abs);
    return o;
}

static uint32_t utf16_col(const kc_source *src, uint32_t line, uint32_t col)
{
    size_t len = 0;
    const char *t = src ? kc_source_line(src, line, &len) : NULL;
    if (!t || col == 0)
        return col ? col : 1;
    size_t bytes = col - 1, n = bytes < len ? bytes : len;
    uint32_t units = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if ((c & 0xC0) == 0x80)
            continue;
        units += c >= 0xF0 ? 2 : 1;
    }
    if (bytes > len)
        units += (uint32_t)(bytes - len);
    return units + 1;
}

static json_t *region(const kc_source *src, kc_span s)
{
    json_t *r = json_object();
    uint32_t line = s.line ? s.line : 1, col = s.col ? s.col : 1;
    uint32_t eline = s.end_line >= line ? s.end_line : line;
    uint32_t ecol = s.end_line >= line && s.end_col ? s.end_col : col;
    if (eline == line && ecol < col)
        ecol = col;
    json_object_set_new(r, "startLine", json_integer(line));
    json_object_set_new(r, "startColumn", json_integer(utf16_col(src, line, col)));
    json_object_set_new(r, "endLine", json_integer(eline));
    json_object_set_new(r, "endColumn", json_integer(utf16_col(src, eline, ecol)));
    return r;
}

static const char *level_of(kc_severity s)
{
    return s == KC_SEV_ERROR ? "error" : s == KC_SEV_WARNING ? "warning" : "note";
}

static json_t *text_msg(const char *text)
{
    json_t *m = json_object();
    json_object_set_new(m, "text", kc_report_json_text(text));
    return m;
}

/* The "What it does" section of a rule doc, as one paragraph. */
static char *what_it_does(const kc_rule *r)
{
    const char *h = strstr(r->doc, "## What it does\n");
    if (!h)
        return kc_xstrdup(r->summary);
    h += strlen("## What it does\n");
    const char *end = strstr(h, "\n## ");
    size_t n = end ? (size_t)(end - h) : strlen(h);
    kc_strbuf sb = {0};
    for (size_t i = 0; i < n; i++)
        kc_sb_putc(&sb, h[i] == '\n' ? ' ' : h[i]);
    while (sb.len && sb.data[sb.len - 1] == ' ')
        sb.data[--sb.len] = '\0';
    return kc_sb_take(&sb);
}

static json_t *rule_descriptor(const kc_rule *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", kc_report_json_text(r->id));
    json_object_set_new(o, "name", kc_report_json_text(r->slug));
    json_object_set_new(o, "shortDescription", text_msg(r->summary));
    char *what = what_it_does(r);
    json_t *full = json_object();
    json_object_set_new(full, "text", kc_report_json_text(what));
    json_object_set_new(full, "markdown", kc_report_json_text(what));
    json_object_set_new(o, "fullDescription", full);
    free(what);
    json_t *help = json_object();
    char *md = kc_xasprintf("# %s %s\n\n%s\n\n%s", r->id, r->slug, r->summary, r->doc);
    json_object_set_new(help, "text", kc_report_json_text(md));
    json_object_set_new(help, "markdown", kc_report_json_text(md));
    free(md);
    json_object_set_new(o, "help", help);
    json_t *cfg = json_object();
    json_object_set_new(cfg, "level", kc_report_json_text(level_of(r->severity)));
    json_object_set_new(o, "defaultConfiguration", cfg);
    json_t *props = json_object();
    json_t *tags = json_array();
    if (r->langs & KC_LANG_BIT_CUDA)
        json_array_append_new(tags, json_string("cuda"));
    if (r->langs & KC_LANG_BIT_TRITON)
        json_array_append_new(tags, json_string("triton"));
    json_object_set_new(props, "tags", tags);
    if (r->options && r->options->name) {
        json_t *opts = json_object();
        for (const kc_rule_option_doc *d = r->options; d->name; d++)
            json_object_set_new(opts, d->name, kc_report_json_text(d->default_value));
        json_object_set_new(props, "options", opts);
    }
    json_object_set_new(o, "properties", props);
    return o;
}

static json_t *fix_json(const char *root, const char *path, const kc_source *src, const kc_diag *d)
{
    json_t *fix = json_object();
    json_object_set_new(fix, "description", text_msg(d->fix_description ? d->fix_description : "apply the fix-it"));
    json_t *change = json_object();
    json_object_set_new(change, "artifactLocation", artifact_location(root, path));
    json_t *reps = json_array();
    for (uint32_t i = 0; i < d->fixes.len; i++) {
        json_t *rep = json_object();
        json_object_set_new(rep, "deletedRegion", region(src, d->fixes.data[i].span));
        json_t *ins = json_object();
        json_object_set_new(ins, "text", kc_report_json_text(d->fixes.data[i].replacement));
        json_object_set_new(rep, "insertedContent", ins);
        json_array_append_new(reps, rep);
    }
    json_object_set_new(change, "replacements", reps);
    json_t *changes = json_array();
    json_array_append_new(changes, change);
    json_object_set_new(fix, "artifactChanges", changes);
    return fix;
}

static json_t *result_json(const char *root, const char *path, const kc_source *src, const kc_diag *d)
{
    json_t *o = json_object();
    const kc_rule *rule = kc_rules_find(d->rule_id, NULL);
    json_object_set_new(o, "ruleId", kc_report_json_text(d->rule_id));
    if (rule)
        json_object_set_new(o, "ruleIndex", json_integer((json_int_t)kc_rules_index(rule)));
    json_object_set_new(o, "level", kc_report_json_text(level_of(d->severity)));
    kc_strbuf msg = {0};
    kc_sb_append(&msg, d->message);
    for (uint32_t i = 0; i < d->notes.len; i++)
        kc_sb_appendf(&msg, "%snote: %s", i ? "\n" : "\n\n", d->notes.data[i]);
    if (d->fix_description)
        kc_sb_appendf(&msg, "%sfix: %s", d->notes.len ? "\n" : "\n\n", d->fix_description);
    if (d->verdict)
        kc_sb_appendf(&msg, "\nverify: %s: %s", d->verdict->status, d->verdict->summary ? d->verdict->summary : "");
    json_object_set_new(o, "message", text_msg(kc_sb_str(&msg)));
    kc_sb_free(&msg);

    json_t *phys = json_object();
    json_object_set_new(phys, "artifactLocation", artifact_location(root, path));
    json_object_set_new(phys, "region", region(src, d->span));
    json_t *loc = json_object();
    json_object_set_new(loc, "physicalLocation", phys);
    if (d->kernel) {
        json_t *ll = json_object();
        json_object_set_new(ll, "name", kc_report_json_text(d->kernel));
        json_object_set_new(ll, "kind", json_string("function"));
        json_t *lls = json_array();
        json_array_append_new(lls, ll);
        json_object_set_new(loc, "logicalLocations", lls);
    }
    json_t *locs = json_array();
    json_array_append_new(locs, loc);
    json_object_set_new(o, "locations", locs);

    char hex[17];
    kc_fingerprint_hex(d->fingerprint, hex);
    json_t *fps = json_object();
    json_object_set_new(fps, "kcheckFingerprint/v1", kc_report_json_text(hex));
    json_object_set_new(o, "partialFingerprints", fps);

    if (d->fixes.len) {
        json_t *fixes = json_array();
        json_array_append_new(fixes, fix_json(root, path, src, d));
        json_object_set_new(o, "fixes", fixes);
    }

    json_t *props = json_object();
    json_t *notes = json_array();
    for (uint32_t i = 0; i < d->notes.len; i++)
        json_array_append_new(notes, kc_report_json_text(d->notes.data[i]));
    json_object_set_new(props, "notes", notes);
    if (d->kernel)
        json_object_set_new(props, "kernel", kc_report_json_text(d->kernel));
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
        json_object_set_new(props, "verify", v);
    }
    json_object_set_new(o, "properties", props);
    return o;
}

static void sarif_file(kc_reporter *r, const kc_file_result *res)
{
    sarif_reporter *s = (sarif_reporter *)r;
    for (uint32_t i = 0; i < res->errors.items.len; i++) {
        const kc_file_error *e = &res->errors.items.data[i];
        json_t *n = json_object();
        json_object_set_new(n, "level", json_string("error"));
        json_object_set_new(n, "message", text_msg(e->message));
        json_t *phys = json_object();
        json_object_set_new(phys, "artifactLocation", artifact_location(s->cwd, res->path));
        if (e->line) {
            json_t *reg = json_object();
            json_object_set_new(reg, "startLine", json_integer(e->line));
            if (e->col)
                json_object_set_new(reg, "startColumn", json_integer(utf16_col(res->src, e->line, e->col)));
            json_object_set_new(phys, "region", reg);
        }
        json_t *loc = json_object();
        json_object_set_new(loc, "physicalLocation", phys);
        json_t *locs = json_array();
        json_array_append_new(locs, loc);
        json_object_set_new(n, "locations", locs);
        json_array_append_new(s->notifications, n);
    }
    for (uint32_t i = 0; i < res->diags.items.len; i++)
        json_array_append_new(s->results, result_json(s->cwd, res->path, res->src, &res->diags.items.data[i]));
    /* What could not be analysed, below --severity: a notification. */
    for (uint32_t i = 0; i < res->incomplete.items.len; i++) {
        const kc_diag *d = &res->incomplete.items.data[i];
        json_t *n = json_object();
        json_object_set_new(n, "level", json_string("note"));
        json_object_set_new(n, "message", text_msg(d->message));
        json_t *desc = json_object();
        json_object_set_new(desc, "id", json_string(d->rule_id));
        json_object_set_new(n, "descriptor", desc);
        json_t *phys = json_object();
        json_object_set_new(phys, "artifactLocation", artifact_location(s->cwd, res->path));
        json_t *reg = json_object();
        json_object_set_new(reg, "startLine", json_integer(d->span.line));
        json_object_set_new(reg, "startColumn", json_integer(utf16_col(res->src, d->span.line, d->span.col)));
        json_object_set_new(phys, "region", reg);
        json_t *loc = json_object();
        json_object_set_new(loc, "physicalLocation", phys);
        json_t *locs = json_array();
        json_array_append_new(locs, loc);
        json_object_set_new(n, "locations", locs);
        json_array_append_new(s->notifications, n);
    }
    for (uint32_t i = 0; i < res->checks.len; i++) {
        const kc_verify_check *c = &res->checks.data[i];
        json_t *o = json_object();
        char *norm = kc_path_normalize(res->path);
        json_object_set_new(o, "file", kc_report_json_text(norm));
        free(norm);
        json_object_set_new(o, "line", json_integer(c->line));
        json_object_set_new(o, "op", kc_report_json_text(c->op));
        json_object_set_new(o, "status", kc_report_json_text(c->status));
        json_object_set_new(o, "summary", kc_report_json_text(c->summary));
        json_array_append_new(s->checks, o);
    }
}

/* tool.driver.informationUri: the build's KCHECK_HOMEPAGE, else the rule
 * catalog of this installation (../share/doc/kcheck/rules.md from the
 * binary, wherever the prefix or the package put it), else the source
 * tree's (a binary in its build tree), else none. Malloc'd or NULL. */
static char *information_uri(void)
{
    if (KCHECK_HOMEPAGE[0])
        return kc_xstrdup(KCHECK_HOMEPAGE);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    char *cat = kc_xasprintf("%s/../%s/rules.md", exe, KCHECK_DOCDIR_REL);
    char *real = realpath(cat, NULL);
    free(cat);
    if (!real)
        real = realpath(KCHECK_SOURCE_RULES, NULL);
    if (!real)
        return NULL;
    /* RFC 3986: bytes other than unreserved ones and '/' percent-encoded. */
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "file://");
    for (const unsigned char *p = (const unsigned char *)real; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            kc_sb_appendn(&sb, (const char *)p, 1);
        else
            kc_sb_appendf(&sb, "%%%02X", *p);
    }
    free(real);
    return kc_sb_take(&sb);
}

static void sarif_finish(kc_reporter *r, const kc_run_totals *t)
{
    sarif_reporter *s = (sarif_reporter *)r;
    json_t *driver = json_object();
    json_object_set_new(driver, "name", json_string("kcheck"));
    json_object_set_new(driver, "version", kc_report_json_text(KCHECK_VERSION));
    json_object_set_new(driver, "semanticVersion", kc_report_json_text(KCHECK_VERSION));
    char *home = information_uri();
    if (home)
        json_object_set_new(driver, "informationUri", kc_report_json_text(home));
    free(home);
    json_t *rules = json_array();
    for (size_t i = 0; i < kc_rules_count(); i++)
        json_array_append_new(rules, rule_descriptor(kc_rules_get(i)));
    json_object_set_new(driver, "rules", rules);
    json_t *tool = json_object();
    json_object_set_new(tool, "driver", driver);

    json_t *run = json_object();
    json_object_set_new(run, "tool", tool);
    json_t *inv = json_object();
    json_object_set_new(inv, "executionSuccessful", json_boolean(t->file_errors == 0));
    json_object_set(inv, "toolExecutionNotifications", s->notifications);
    json_t *invs = json_array();
    json_array_append_new(invs, inv);
    json_object_set_new(run, "invocations", invs);
    if (s->cwd) {
        char *base = kc_xasprintf("%s/", strcmp(s->cwd, "/") ? s->cwd : "");
        char *enc = uri_encode(base);
        char *uri = kc_xasprintf("file://%s", enc);
        json_t *root = json_object();
        json_object_set_new(root, "uri", kc_report_json_text(uri));
        json_t *bases = json_object();
        json_object_set_new(bases, SRCROOT, root);
        json_object_set_new(run, "originalUriBaseIds", bases);
        free(uri);
        free(enc);
        free(base);
    }
    json_object_set(run, "results", s->results);
    json_object_set_new(run, "columnKind", json_string("utf16CodeUnits"));
    if (r->opts->verify) {
        json_t *props = json_object();
        json_object_set(props, "verifyChecks", s->checks);
        json_object_set_new(run, "properties", props);
    }
    json_t *runs = json_array();
    json_array_append_new(runs, run);
    json_t *doc = json_object();
    json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_set_new(doc, "version", json_string("2.1.0"));
    json_object_set_new(doc, "runs", runs);
    json_dumpf(doc, r->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    fputc('\n', r->out);
    json_decref(doc);
}

static void sarif_destroy(kc_reporter *r)
{
    sarif_reporter *s = (sarif_reporter *)r;
    json_decref(s->results);
    json_decref(s->notifications);
    json_decref(s->checks);
    free(s->cwd);
    free(s);
}

static const kc_reporter_ops sarif_ops = {sarif_file, sarif_finish, sarif_destroy};

kc_reporter *kc_report_sarif_new(const kc_options *opts, FILE *out, FILE *err)
{
    sarif_reporter *s = kc_xcalloc(1, sizeof *s);
    s->base.ops = &sarif_ops;
    s->base.opts = opts;
    s->base.out = out;
    s->results = json_array();
    s->notifications = json_array();
    s->checks = json_array();
    s->cwd = kc_path_project_root(".", opts->root);
    return &s->base;
}
