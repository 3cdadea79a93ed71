/* kc_lsp.c — the Language Server Protocol server (kc_lsp.h).
 *
 * Messages are JSON-RPC 2.0 with a `Content-Length` header, read one at a
 * time from `in`; every check runs on the serving thread, one after the
 * other, which keeps the protocol's order (a change is published after the
 * one before it). The serving thread has the large stack the driver gives
 * its workers (libclang's parser recurses once per nesting level).
 */
#include "kc_lsp.h"

#include "kc_driver.h"
#include "kc_frontend.h"
#include "kc_project.h"
#include "kc_report.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LSP_MAX_MESSAGE ((size_t)256 << 20)

typedef struct lsp_doc {
    char *uri;  /* as the client sent it */
    char *path; /* the file it names */
    json_int_t version;
    kc_strbuf text;
    kc_file_result res; /* the last check; res.src is the text it checked */
    kc_project *proj;   /* owns res.peers */
    bool checked;
} lsp_doc;

typedef struct lsp {
    const kc_options *base;
    kc_config_set *set;
    FILE *in, *out, *log;
    KC_VEC(lsp_doc *) docs;
    kc_frontend_cache fes; /* kept for the session: libclang stays warm */
    bool initialized, shutdown;
    int status;
} lsp;

/* ---- framing ---- */

/* One message body (malloc'd, NUL-terminated), or NULL at the end of the
 * stream. A header block without a usable Content-Length is skipped. */
static char *read_message(lsp *s, size_t *len)
{
    for (;;) {
        char line[1024];
        size_t n = 0;
        bool any = false, got = false;
        while (fgets(line, sizeof line, s->in)) {
            any = true;
            if (!strcmp(line, "\r\n") || !strcmp(line, "\n"))
                break;
            if (!strncasecmp(line, "Content-Length:", 15)) {
                char *end = NULL;
                errno = 0;
                unsigned long long v = strtoull(line + 15, &end, 10);
                if (!errno && end != line + 15 && v <= LSP_MAX_MESSAGE) {
                    n = (size_t)v;
                    got = true;
                }
            }
        }
        if (!any)
            return NULL;
        if (!got) {
            fprintf(s->log, "kcheck lsp: a message without a valid Content-Length was skipped\n");
            if (feof(s->in))
                return NULL;
            continue;
        }
        char *buf = malloc(n + 1);
        if (!buf)
            return NULL;
        if (fread(buf, 1, n, s->in) != n) {
            free(buf);
            return NULL;
        }
        buf[n] = '\0';
        *len = n;
        return buf;
    }
}

static void send_json(lsp *s, json_t *msg)
{
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return;
    fprintf(s->out, "Content-Length: %zu\r\n\r\n%s", strlen(text), text);
    fflush(s->out);
    free(text);
}

static void reply(lsp *s, json_t *id, json_t *result)
{
    send_json(s, json_pack("{s:O, s:o}", "id", id, "result", result ? result : json_null()));
}

static void reply_error(lsp *s, json_t *id, int code, const char *message)
{
    send_json(s, json_pack("{s:O, s:{s:i, s:s}}", "id", id, "error", "code", code, "message", message));
}

/* ---- documents ---- */

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                                      : -1;
}

/* The file a `file://` URI names (percent-decoded); another scheme (an
 * unsaved `untitled:` buffer) is checked as a file of its language in the
 * working directory. */
static char *uri_path(const char *uri, const char *language)
{
    if (!strncmp(uri, "file://", 7)) {
        const char *p = uri + 7;
        if (strncmp(p, "localhost/", 10) == 0)
            p += 9;
        kc_strbuf sb = {0};
        for (; *p && *p != '?' && *p != '#'; p++) {
            int a, b;
            if (*p == '%' && (a = hexval(p[1])) >= 0 && (b = hexval(p[2])) >= 0) {
                char c = (char)(a * 16 + b);
                if (c == '\0')
                    break;
                kc_sb_putc(&sb, c);
                p += 2;
            } else
                kc_sb_putc(&sb, *p);
        }
        return kc_sb_take(&sb);
    }
    const char *ext = language && (!strcmp(language, "python")) ? ".py" : ".cu";
    return kc_xasprintf("untitled%s", ext);
}

static lsp_doc *find_doc(lsp *s, const char *uri)
{
    for (uint32_t i = 0; i < s->docs.len; i++)
        if (!strcmp(s->docs.data[i]->uri, uri))
            return s->docs.data[i];
    return NULL;
}

static void doc_forget_result(lsp_doc *d)
{
    if (d->checked)
        kc_file_result_free(&d->res);
    memset(&d->res, 0, sizeof d->res);
    kc_project_free(d->proj);
    d->proj = NULL;
    d->checked = false;
}

static void doc_free(lsp_doc *d)
{
    doc_forget_result(d);
    free(d->uri);
    free(d->path);
    kc_sb_free(&d->text);
    free(d);
}

static void publish(lsp *s, const lsp_doc *d, json_t *diags)
{
    json_t *params = json_pack("{s:s, s:o}", "uri", d->uri, "diagnostics", diags);
    if (d->version >= 0)
        json_object_set_new(params, "version", json_integer(d->version));
    send_json(s, json_pack("{s:s, s:o}", "method", "textDocument/publishDiagnostics", "params", params));
}

/* Checks the document's text as its file and publishes what was found. */
static void check_doc(lsp *s, lsp_doc *d)
{
    doc_forget_result(d);
    if (kc_config_excluded(s->set, d->path, false)) {
        publish(s, d, json_array()); /* its configuration's `exclude` names it: not checked, as on the CLI */
        return;
    }
    kc_path_list one = {0};
    kc_file_result r;
    memset(&r, 0, sizeof r);
    r.path = kc_xstrdup(d->path);
    r.explicit_path = true;
    char *e = NULL;
    const kc_options *o = kc_config_options_for(s->set, d->path, false, &e);
    if (!o) {
        kc_file_errors_add(&r.errors, 0, 0, "%s", e ? e : "invalid configuration");
        free(e);
    } else {
        r.opts = o;
        if (!(r.src = kc_source_from_memory(d->path, kc_sb_str(&d->text), d->text.len, o->max_file_size, &e))) {
            kc_file_errors_add(&r.errors, 0, 0, "%s", e ? e : "cannot be checked");
            free(e);
        }
    }
    kc_vec_push(&one.files, r);
    /* the files that launch its kernels, the modules its Triton names come
     * from (read from disk: other open documents are taken as saved) */
    if (!one.files.data[0].errors.items.len)
        d->proj = kc_project_link(&one, o->max_file_size, 1);
    if (!one.files.data[0].errors.items.len)
        kc_check_file(kc_frontend_cache_get(&s->fes, o), o, &one.files.data[0]);
    d->res = one.files.data[0];
    d->checked = true;
    kc_vec_free(&one.files);
    publish(s, d, kc_report_lsp_diagnostics(&d->res));
}

/* ---- requests and notifications ---- */

static const char *str_at(json_t *o, const char *k1, const char *k2)
{
    json_t *v = json_object_get(o, k1);
    if (k2)
        v = json_object_get(v, k2);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static void did_open(lsp *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = str_at(td, "uri", NULL), *text = str_at(td, "text", NULL);
    if (!uri || !text)
        return;
    lsp_doc *d = find_doc(s, uri);
    if (!d) {
        d = kc_xcalloc(1, sizeof *d);
        d->uri = kc_xstrdup(uri);
        d->path = uri_path(uri, str_at(td, "languageId", NULL));
        kc_vec_push(&s->docs, d);
    }
    json_t *v = json_object_get(td, "version");
    d->version = json_is_integer(v) ? json_integer_value(v) : -1;
    kc_sb_len_reset(&d->text);
    kc_sb_appendn(&d->text, text, json_string_length(json_object_get(td, "text")));
    check_doc(s, d);
}

/* Byte offset in the document's current text of an LSP position. */
static size_t offset_of(const lsp_doc *d, json_t *pos)
{
    json_int_t line = json_integer_value(json_object_get(pos, "line"));
    json_int_t ch = json_integer_value(json_object_get(pos, "character"));
    const char *t = kc_sb_str(&d->text);
    size_t i = 0, n = d->text.len;
    for (json_int_t l = 0; l < line && i < n; i++)
        if (t[i] == '\n')
            l++;
    json_int_t u = 0;
    while (i < n && t[i] != '\n' && u < ch) {
        unsigned char b = (unsigned char)t[i];
        u += b >= 0xF0 ? 2 : 1;
        i += b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    }
    return i < n ? i : n;
}

static void did_change(lsp *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri") ? str_at(params, "textDocument", "uri") : "");
    json_t *changes = json_object_get(params, "contentChanges");
    if (!d || !json_is_array(changes))
        return;
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        json_t *text = json_object_get(c, "text"), *rg = json_object_get(c, "range");
        if (!json_is_string(text))
            continue;
        if (!json_is_object(rg)) { /* the whole text */
            kc_sb_len_reset(&d->text);
            kc_sb_appendn(&d->text, json_string_value(text), json_string_length(text));
            continue;
        }
        size_t a = offset_of(d, json_object_get(rg, "start")), b = offset_of(d, json_object_get(rg, "end"));
        if (b < a)
            b = a;
        kc_strbuf nt = {0};
        kc_sb_appendn(&nt, kc_sb_str(&d->text), a);
        kc_sb_appendn(&nt, json_string_value(text), json_string_length(text));
        kc_sb_appendn(&nt, kc_sb_str(&d->text) + b, d->text.len - b);
        kc_sb_free(&d->text);
        d->text = nt;
    }
    json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(v))
        d->version = json_integer_value(v);
    check_doc(s, d);
}

static void did_save(lsp *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri") ? str_at(params, "textDocument", "uri") : "");
    const char *text = str_at(params, "text", NULL);
    if (!d)
        return;
    if (text) {
        kc_sb_len_reset(&d->text);
        kc_sb_append(&d->text, text);
    }
    check_doc(s, d); /* peers and headers may have changed on disk */
}

static void did_close(lsp *s, json_t *params)
{
    const char *uri = str_at(params, "textDocument", "uri");
    for (uint32_t i = 0; uri && i < s->docs.len; i++) {
        lsp_doc *d = s->docs.data[i];
        if (strcmp(d->uri, uri) != 0)
            continue;
        d->version = -1;
        publish(s, d, json_array()); /* its findings leave the editor with it */
        doc_free(d);
        s->docs.data[i] = s->docs.data[--s->docs.len];
        return;
    }
}

/* Does the finding's span meet the source range [(l0,c0), (l1,c1)]? */
static bool meets(kc_span sp, uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1)
{
    uint32_t el = sp.end_line ? sp.end_line : sp.line, ec = sp.end_line ? sp.end_col : sp.col + 1;
    bool starts_after = sp.line > l1 || (sp.line == l1 && sp.col > c1);
    bool ends_before = el < l0 || (el == l0 && ec < c0);
    return !starts_after && !ends_before;
}

static bool source_range(const lsp_doc *d, json_t *rg, uint32_t *l0, uint32_t *c0, uint32_t *l1, uint32_t *c1)
{
    json_t *a = json_object_get(rg, "start"), *b = json_object_get(rg, "end");
    if (!json_is_object(a) || !json_is_object(b) || !d->res.src)
        return false;
    kc_report_lsp_to_source(d->res.src, (uint32_t)json_integer_value(json_object_get(a, "line")),
                            (uint32_t)json_integer_value(json_object_get(a, "character")), l0, c0);
    kc_report_lsp_to_source(d->res.src, (uint32_t)json_integer_value(json_object_get(b, "line")),
                            (uint32_t)json_integer_value(json_object_get(b, "character")), l1, c1);
    return true;
}

static json_t *code_actions(lsp *s, json_t *params)
{
    json_t *out = json_array();
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri") ? str_at(params, "textDocument", "uri") : "");
    uint32_t l0, c0, l1, c1;
    if (!d || !d->checked || !source_range(d, json_object_get(params, "range"), &l0, &c0, &l1, &c1))
        return out;
    for (uint32_t i = 0; i < d->res.diags.items.len; i++) {
        const kc_diag *g = &d->res.diags.items.data[i];
        json_t *edits = meets(g->span, l0, c0, l1, c1) ? kc_report_lsp_edits(d->res.src, g) : NULL;
        if (!edits)
            continue;
        char *title = kc_xasprintf("%s: %s", g->rule_id, g->fix_description ? g->fix_description : "apply the fix");
        json_t *changes = json_object();
        json_object_set_new(changes, d->uri, edits);
        json_array_append_new(out, json_pack("{s:s, s:s, s:[o], s:b, s:{s:o}}", "title", title, "kind", "quickfix",
                                             "diagnostics", kc_report_lsp_diagnostic(d->res.src, g, i),
                                             "isPreferred", 1, "edit", "changes", changes));
        free(title);
    }
    return out;
}

static json_t *hover(lsp *s, json_t *params)
{
    lsp_doc *d = find_doc(s, str_at(params, "textDocument", "uri") ? str_at(params, "textDocument", "uri") : "");
    json_t *pos = json_object_get(params, "position");
    if (!d || !d->checked || !d->res.src || !json_is_object(pos))
        return NULL;
    uint32_t line, col;
    kc_report_lsp_to_source(d->res.src, (uint32_t)json_integer_value(json_object_get(pos, "line")),
                            (uint32_t)json_integer_value(json_object_get(pos, "character")), &line, &col);
    for (uint32_t i = 0; i < d->res.diags.items.len; i++) {
        const kc_diag *g = &d->res.diags.items.data[i];
        if (!meets(g->span, line, col, line, col))
            continue;
        char *md = kc_report_lsp_hover(g);
        json_t *diag = kc_report_lsp_diagnostic(d->res.src, g, i);
        json_t *h = json_pack("{s:{s:s, s:s}, s:O}", "contents", "kind", "markdown", "value", md, "range",
                              json_object_get(diag, "range"));
        json_decref(diag);
        free(md);
        return h;
    }
    return NULL;
}

static json_t *capabilities(void)
{
    return json_pack("{s:{s:{s:b, s:i, s:{s:b}}, s:{s:[s]}, s:b}, s:{s:s, s:s}}", "capabilities",
                     "textDocumentSync", "openClose", 1, "change", 1, "save", "includeText", 0,
                     "codeActionProvider", "codeActionKinds", "quickfix", "hoverProvider", 1, "serverInfo", "name",
                     "kcheck", "version", KCHECK_VERSION);
}

/* One message; false after `exit`. */
static bool handle(lsp *s, json_t *msg)
{
    const char *method = str_at(msg, "method", NULL);
    json_t *id = json_object_get(msg, "id");
    json_t *params = json_object_get(msg, "params");
    if (!method)
        return true; /* a response to nothing we asked */
    if (!strcmp(method, "exit")) {
        s->status = s->shutdown ? 0 : 1;
        return false;
    }
    if (id && !s->initialized && strcmp(method, "initialize") != 0) {
        reply_error(s, id, -32002, "the server is not initialized");
        return true;
    }
    if (id && s->shutdown) {
        reply_error(s, id, -32600, "the server is shut down");
        return true;
    }
    if (!strcmp(method, "initialize")) {
        s->initialized = true;
        reply(s, id, capabilities());
    } else if (!strcmp(method, "shutdown")) {
        s->shutdown = true;
        reply(s, id, NULL);
    } else if (!strcmp(method, "textDocument/didOpen"))
        did_open(s, params);
    else if (!strcmp(method, "textDocument/didChange"))
        did_change(s, params);
    else if (!strcmp(method, "textDocument/didSave"))
        did_save(s, params);
    else if (!strcmp(method, "textDocument/didClose"))
        did_close(s, params);
    else if (!strcmp(method, "textDocument/codeAction") && id)
        reply(s, id, code_actions(s, params));
    else if (!strcmp(method, "textDocument/hover") && id)
        reply(s, id, hover(s, params));
    else if (id)
        reply_error(s, id, -32601, "method not supported by kcheck");
    return true;
}

static void *serve(void *arg)
{
    lsp *s = arg;
    size_t len;
    char *body;
    while ((body = read_message(s, &len))) {
        json_error_t jerr;
        json_t *msg = json_loadb(body, len, 0, &jerr);
        free(body);
        if (!json_is_object(msg)) {
            fprintf(s->log, "kcheck lsp: a message that is not a JSON object was skipped (%s)\n", jerr.text);
            send_json(s, json_pack("{s:n, s:{s:i, s:s}}", "id", "error", "code", -32700, "message", "parse error"));
            json_decref(msg);
            continue;
        }
        bool go_on = handle(s, msg);
        json_decref(msg);
        if (!go_on)
            break;
    }
    return NULL;
}

int kc_lsp_serve(const kc_options *base, kc_config_set *set, FILE *in, FILE *out, FILE *log)
{
    lsp s = {.base = base, .set = set, .in = in, .out = out, .log = log, .status = 1};
    /* as the driver does for its workers: libclang parses on this thread */
    setenv("LIBCLANG_NOTHREADS", "1", 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)256 << 20);
    pthread_t th;
    if (pthread_create(&th, &attr, serve, &s) == 0)
        pthread_join(th, NULL);
    else
        serve(&s);
    pthread_attr_destroy(&attr);
    for (uint32_t i = 0; i < s.docs.len; i++)
        doc_free(s.docs.data[i]);
    kc_vec_free(&s.docs);
    kc_frontend_cache_free(&s.fes);
    return s.status;
}
