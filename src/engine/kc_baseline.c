#include "kc_baseline.h"

#include "kc_file.h"
#include "kc_path.h"
#include "kc_fingerprint.h"
#include "kc_fixfile.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct kc_baseline {
    KC_VEC(uint64_t) fps; /* sorted */
};

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

kc_baseline *kc_baseline_load(const char *path, char **err)
{
    *err = NULL;
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) {
        *err = je.line > 0 ? kc_xasprintf("%s:%d:%d: %s", path, je.line, je.column, je.text)
                           : kc_xasprintf("%s: %s", path, je.text);
        return NULL;
    }
    json_t *findings = json_object_get(doc, "findings");
    if (!json_is_object(doc) || json_integer_value(json_object_get(doc, "version")) != 1 ||
        !json_is_array(findings)) {
        *err = kc_xasprintf("%s: not a kcheck baseline (expected {\"version\": 1, \"findings\": [...]})", path);
        json_decref(doc);
        return NULL;
    }
    kc_baseline *b = kc_xcalloc(1, sizeof *b);
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f)
    {
        uint64_t fp;
        if (!kc_fingerprint_parse(json_string_value(json_object_get(f, "fingerprint")), &fp)) {
            *err = kc_xasprintf("%s: finding %zu has no valid \"fingerprint\" (16 hex digits)", path, i);
            kc_baseline_delete(b);
            json_decref(doc);
            return NULL;
        }
        kc_vec_push(&b->fps, fp);
    }
    json_decref(doc);
    if (b->fps.len)
        qsort(b->fps.data, b->fps.len, sizeof *b->fps.data, u64_cmp);
    return b;
}

void kc_baseline_delete(kc_baseline *b)
{
    if (!b)
        return;
    kc_vec_free(&b->fps);
    free(b);
}

bool kc_baseline_contains(const kc_baseline *b, uint64_t fp)
{
    if (!b || !b->fps.len)
        return false;
    return bsearch(&fp, b->fps.data, b->fps.len, sizeof *b->fps.data, u64_cmp) != NULL;
}

size_t kc_baseline_size(const kc_baseline *b) { return b ? b->fps.len : 0; }

struct kc_baseline_writer {
    json_t *findings;
};

kc_baseline_writer *kc_baseline_writer_new(void)
{
    kc_baseline_writer *w = kc_xcalloc(1, sizeof *w);
    w->findings = json_array();
    return w;
}

void kc_baseline_writer_add(kc_baseline_writer *w, const char *path, const char *root, const kc_diag *d)
{
    char hex[17];
    kc_fingerprint_hex(d->fingerprint, hex);
    char *norm = kc_path_project(path, root); /* as the fingerprint counts it */
    json_t *o = json_object();
    json_object_set_new(o, "fingerprint", json_string(hex));
    json_object_set_new(o, "rule", json_string(d->rule_id));
    json_object_set_new(o, "file", json_string(norm));
    json_object_set_new(o, "line", json_integer(d->span.line));
    json_object_set_new(o, "message", json_string(d->message));
    json_array_append_new(w->findings, o);
    free(norm);
}

bool kc_baseline_writer_save(kc_baseline_writer *w, const char *path, char **err)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set_new(doc, "tool", json_string("kcheck"));
    json_object_set(doc, "findings", w->findings);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    json_decref(doc);
    kc_strbuf sb = {0};
    kc_sb_append(&sb, text);
    kc_sb_putc(&sb, '\n');
    free(text);
    bool ok = kc_file_write_atomic(path, sb.data, sb.len, err);
    if (!ok) {
        char *e = kc_xasprintf("cannot write the baseline %s: %s", path, *err);
        free(*err);
        *err = e;
    }
    kc_sb_free(&sb);
    return ok;
}

void kc_baseline_writer_delete(kc_baseline_writer *w)
{
    if (!w)
        return;
    json_decref(w->findings);
    free(w);
}
