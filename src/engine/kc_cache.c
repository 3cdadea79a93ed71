/* The result cache (kc_cache.h). */
#define _GNU_SOURCE 1 /* memmem */
#include "kc_cache.h"
#include "kc_file.h"
#include "kc_frontend.h"
#include "kc_hash.h"

#include "kc_rule.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define KC_CACHE_FORMAT "kcheck-results-2"

char *kc_cache_dir(const kc_options *o)
{
    return o->no_cache ? NULL : kc_cache_root(o);
}


/* The running executable's identity on disk, and the CUDA module's it
 * loads (the CUDA front end lives there, rebuilt without the binary): a
 * rebuild of kcheck (new rules, fixed front ends) must not reuse old
 * entries, nor a run that found no module (its files were errors) the
 * runs that have one. */
static void feed_build(XXH3_state_t *st)
{
    kc_hash_str(st, KCHECK_VERSION);
    kc_hash_stat(st, "/proc/self/exe");
    char *module = kc_frontend_module_file();
    kc_hash_str(st, module ? module : "(no CUDA module)");
    if (module)
        kc_hash_stat(st, module);
    free(module);
}

/* Headers a CUDA file includes with quotes that exist next to it: their
 * bytes are part of what its analysis depends on. */
/* The bytes of a file (nothing when it cannot be read). */
static void feed_bytes(XXH3_state_t *st, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[65536];
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0)
        XXH3_128bits_update(st, buf, (size_t)r);
    close(fd);
}

static void feed_quoted_includes(XXH3_state_t *st, const kc_source *src)
{
    char *copy = kc_xstrdup(src->path);
    const char *dir = dirname(copy);
    for (uint32_t ln = 1; ln <= src->nlines; ln++) {
        size_t len;
        const char *line = kc_source_line(src, ln, &len);
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len || line[i] != '#')
            continue;
        const char *inc = memmem(line + i, len - i, "include", 7);
        const char *q = inc ? memchr(inc, '"', (size_t)(line + len - inc)) : NULL;
        const char *e = q ? memchr(q + 1, '"', (size_t)(line + len - q - 1)) : NULL;
        if (!e)
            continue;
        char *name = kc_xstrndup(q + 1, (size_t)(e - q - 1));
        char *path = name[0] == '/' ? kc_xstrdup(name) : kc_xasprintf("%s/%s", dir, name);
        kc_hash_str(st, name);
        feed_bytes(st, path);
        free(name);
        free(path);
    }
    free(copy);
}

/* What of the options goes into a key: the fields marked KEY, and KEY_CUDA
 * for CUDA files, in KC_OPTIONS_FIELDS (kc_options.h), fed by their kind.
 * Used inside kc_cache_key_for (`st`, `o`, `lang`). */
#define KC_KEY_NOKEY(kind, f)
#define KC_KEY_KEY(kind, f) KC_KEY_FEED_##kind(f)
#define KC_KEY_KEY_CUDA(kind, f)                                                                    \
    if (lang == KC_LANG_CUDA) {                                                                     \
        KC_KEY_FEED_##kind(f)                                                                       \
    }
#define KC_KEY_FEED_VALUE(f) XXH3_128bits_update(st, &o->f, sizeof o->f);
#define KC_KEY_FEED_STRING(f) kc_hash_str(st, o->f);
#define KC_KEY_FEED_FLAGS(f)                                                                        \
    if (o->f)                                                                                       \
        XXH3_128bits_update(st, o->f, o->f##_len);                                                  \
    else                                                                                            \
        kc_hash_str(st, "all rules");
#define KC_KEY_FEED_RULE_OPTS(f)                                                                    \
    for (uint32_t i = 0; i < o->f.len; i++) {                                                       \
        kc_hash_str(st, o->f.data[i].rule);                                                         \
        kc_hash_str(st, o->f.data[i].name);                                                         \
        kc_hash_str(st, o->f.data[i].value);                                                        \
    }
#define KC_KEY_FEED_STRINGS(f)                                                                      \
    for (uint32_t i = 0; i < o->f.len; i++)                                                         \
        kc_hash_str(st, o->f.data[i]);

kc_cache_key kc_cache_key_for(const kc_options *o, const kc_source *src, kc_lang lang, const kc_peers *peers)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    kc_hash_str(st, KC_CACHE_FORMAT);
    feed_build(st);
    uint32_t l = (uint32_t)lang;
    XXH3_128bits_update(st, &l, sizeof l);
    /* The options that change what the front ends and the rules produce. */
#define KC_KEY_FIELD_(type, f, kind, key, conf, def) KC_KEY_##key(kind, f)
    KC_OPTIONS_FIELDS(KC_KEY_FIELD_)
#undef KC_KEY_FIELD_
    /* A CUDA file's own headers, found next to it (every other header the
     * parse reads is a dependency the entry checks on load), and the
     * compile database its flags come from. */
    if (lang == KC_LANG_CUDA) {
        feed_quoted_includes(st, src);
        if (o->compile_db_dir) {
            char *db = kc_xasprintf("%s/compile_commands.json", o->compile_db_dir);
            kc_hash_str(st, db);
            feed_bytes(st, db);
            free(db);
        }
    }
    /* The files that import it: their launches bind its kernels. Their
     * identity on disk (size, modification time, inode), not their bytes:
     * a file imported by hundreds would be read hundreds of times. */
    for (uint32_t i = 0; peers && i < peers->n; i++)
        kc_hash_stat(st, peers->paths[i]);
    uint32_t compile_use = peers ? (uint32_t)peers->torch_compile : 0;
    XXH3_128bits_update(st, &compile_use, sizeof compile_use);
    /* what its repository names of it (kc_reach.h) */
    for (uint32_t i = 0; peers && i < peers->nunreferenced; i++) {
        kc_hash_str(st, peers->unreferenced[i].name);
        kc_hash_str(st, peers->unreferenced[i].via ? peers->unreferenced[i].via : "");
    }
    kc_hash_str(st, peers && peers->unbuilt ? peers->unbuilt : "");
    /* the GPU architectures its build files target (kc_arch.h; the text
     * names them and the files, which a Makefile's edit changes) */
    kc_hash_str(st, peers && peers->build_archs ? peers->build_archs : "");
    uint64_t n = src->len;
    XXH3_128bits_update(st, &n, sizeof n);
    XXH3_128bits_update(st, src->text, src->len);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    kc_cache_key k = {h.low64, h.high64};
    return k;
}

static void key_hex(kc_cache_key k, char hex[33])
{
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)k.hi, (unsigned long long)k.lo);
}

/* The entry's path; with make_dirs its directories are made, private to
 * the user (what they hold decides what a run reports). */
static char *entry_path(const char *dir, kc_cache_key k, bool make_dirs)
{
    char hex[33];
    key_hex(k, hex);
    if (make_dirs) {
        kc_mkdir_p(dir, 0700);
        char *sub = kc_xasprintf("%s/results-1", dir);
        mkdir(sub, 0700);
        free(sub);
        char *sub2 = kc_xasprintf("%s/results-1/%.2s", dir, hex);
        mkdir(sub2, 0700);
        free(sub2);
    }
    return kc_xasprintf("%s/results-1/%.2s/%s.json", dir, hex, hex + 2);
}

static json_t *span_json(kc_span s)
{
    return json_pack("[iiii]", (json_int_t)s.line, (json_int_t)s.col, (json_int_t)s.end_line, (json_int_t)s.end_col);
}

static bool span_from(json_t *j, kc_span *s)
{
    if (!json_is_array(j) || json_array_size(j) != 4)
        return false;
    s->line = (uint32_t)json_integer_value(json_array_get(j, 0));
    s->col = (uint32_t)json_integer_value(json_array_get(j, 1));
    s->end_line = (uint32_t)json_integer_value(json_array_get(j, 2));
    s->end_col = (uint32_t)json_integer_value(json_array_get(j, 3));
    return true;
}

/* A file's identity on disk (kc_hash_stat: size, modification time,
 * inode; a missing file hashes as missing) as 32 hex digits. */
static void file_identity(const char *path, char out[33])
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    kc_hash_stat(st, path);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

/* Are the entry's dependencies as they were when it was stored? */
static bool deps_unchanged(json_t *deps)
{
    if (!deps)
        return true; /* an entry of a file that read nothing else */
    if (!json_is_array(deps))
        return false;
    size_t i;
    json_t *x;
    json_array_foreach(deps, i, x) {
        const char *path = json_string_value(json_array_get(x, 0));
        const char *was = json_string_value(json_array_get(x, 1));
        char now[33];
        if (!path || !was)
            return false;
        file_identity(path, now);
        if (strcmp(now, was) != 0)
            return false;
    }
    return true;
}

bool kc_cache_store(const char *dir, kc_cache_key key, const kc_diag_list *diags, const kc_file_errors *errors,
                    const kc_kernel_ref_vec *kernels, const char *const *deps, uint32_t ndeps, char **why)
{
    bool stored = false;
    json_t *doc = json_object();
    json_object_set_new(doc, "format", json_string(KC_CACHE_FORMAT));
    char hex[33];
    key_hex(key, hex);
    json_object_set_new(doc, "key", json_string(hex));
    json_t *ds = json_array();
    for (uint32_t i = 0; i < diags->items.len; i++) {
        const kc_diag *d = &diags->items.data[i];
        json_t *o = json_object();
        json_object_set_new(o, "rule", json_string(d->rule_id));
        json_object_set_new(o, "severity", json_integer(d->severity));
        json_object_set_new(o, "span", span_json(d->span));
        json_object_set_new(o, "message", json_string(d->message));
        if (d->kernel)
            json_object_set_new(o, "kernel", json_string(d->kernel));
        json_t *notes = json_array();
        for (uint32_t n = 0; n < d->notes.len; n++)
            json_array_append_new(notes, json_string(d->notes.data[n]));
        json_object_set_new(o, "notes", notes);
        if (d->fix_description) {
            json_object_set_new(o, "fix", json_string(d->fix_description));
            json_t *edits = json_array();
            for (uint32_t f = 0; f < d->fixes.len; f++)
                json_array_append_new(edits, json_pack("{s:o,s:s}", "span", span_json(d->fixes.data[f].span),
                                                       "text", d->fixes.data[f].replacement));
            json_object_set_new(o, "edits", edits);
        }
        json_array_append_new(ds, o);
    }
    json_object_set_new(doc, "diagnostics", ds);
    json_t *es = json_array();
    for (uint32_t i = 0; i < errors->items.len; i++)
        json_array_append_new(es, json_pack("{s:i,s:i,s:s}", "line", (json_int_t)errors->items.data[i].line, "col",
                                            (json_int_t)errors->items.data[i].col, "message",
                                            errors->items.data[i].message));
    json_object_set_new(doc, "errors", es);
    json_t *ks = json_array();
    for (uint32_t i = 0; i < kernels->len; i++)
        json_array_append_new(ks, json_pack("{s:s,s:i,s:i,s:i}", "name", kernels->data[i].name, "line",
                                            (json_int_t)kernels->data[i].line, "end_line",
                                            (json_int_t)kernels->data[i].end_line, "lang",
                                            (json_int_t)kernels->data[i].lang));
    json_object_set_new(doc, "kernels", ks);
    if (ndeps) {
        json_t *dj = json_array();
        for (uint32_t i = 0; i < ndeps; i++) {
            char id[33];
            file_identity(deps[i], id);
            json_array_append_new(dj, json_pack("[ss]", deps[i], id));
        }
        json_object_set_new(doc, "deps", dj);
    }
    char *path = entry_path(dir, key, true);
    char *text = json_dumps(doc, JSON_COMPACT);
    if (text) {
        /* A unique temporary name per store: two threads checking identical
         * files store the same entry at once. Not durable: a lost entry
         * costs one check. */
        mode_t um = umask(0);
        umask(um);
        kc_file_how how = {.mode = 0666 & ~um, .durable = false};
        char *err = NULL;
        stored = kc_file_write_replace(path, text, strlen(text), &how, &err);
        if (!stored && why)
            *why = err ? err : kc_xasprintf("%s: not written", path);
        else
            free(err);
        free(text);
    } else if (why) {
        *why = kc_xstrdup("the entry could not be encoded");
    }
    free(path);
    json_decref(doc);
    return stored;
}

bool kc_cache_load(const char *dir, kc_cache_key key, kc_diag_list *diags, kc_file_errors *errors,
                   kc_kernel_ref_vec *kernels)
{
    char *path = entry_path(dir, key, false);
    /* Read whole, then parsed: json_load_file reads a character at a time
     * (a fifth of a warm run's time). */
    char *bytes = NULL;
    size_t nbytes = 0;
    /* Only what this user wrote is trusted: another user's entry in a
     * shared cache directory could hide a finding or plant a fix-it. */
    struct stat sb;
    bool mine = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid();
    json_t *doc = mine && kc_read_all(path, &bytes, &nbytes) ? json_loadb(bytes, nbytes, 0, NULL) : NULL;
    free(bytes);
    free(path);
    if (!doc)
        return false;
    char hex[33];
    key_hex(key, hex);
    /* An entry says which key it is for: another file's entry copied over
     * this one is a miss. */
    const char *format = json_string_value(json_object_get(doc, "format"));
    const char *for_key = json_string_value(json_object_get(doc, "key"));
    bool ok = format && !strcmp(format, KC_CACHE_FORMAT) && for_key && !strcmp(for_key, hex) &&
              deps_unchanged(json_object_get(doc, "deps"));
    size_t i;
    json_t *x;
    /* Validate everything before touching the outputs: a bad entry is a miss. */
    json_array_foreach(json_object_get(doc, "diagnostics"), i, x) {
        kc_span sp;
        const char *rule = json_string_value(json_object_get(x, "rule"));
        if (!rule || !kc_rules_find(rule, NULL) || !json_string_value(json_object_get(x, "message")) ||
            !span_from(json_object_get(x, "span"), &sp))
            ok = false;
    }
    if (!ok || !json_is_array(json_object_get(doc, "diagnostics")) || !json_is_array(json_object_get(doc, "errors")) ||
        !json_is_array(json_object_get(doc, "kernels"))) {
        json_decref(doc);
        return false;
    }
    json_array_foreach(json_object_get(doc, "diagnostics"), i, x) {
        const kc_rule *r = kc_rules_find(json_string_value(json_object_get(x, "rule")), NULL);
        kc_diag *d = kc_diag_list_add(diags);
        d->rule_id = r->id;
        d->rule_slug = r->slug;
        json_int_t sev = json_integer_value(json_object_get(x, "severity"));
        d->severity = sev >= KC_SEV_NOTE && sev <= KC_SEV_ERROR ? (kc_severity)sev : r->severity;
        span_from(json_object_get(x, "span"), &d->span);
        d->message = kc_xstrdup(json_string_value(json_object_get(x, "message")));
        const char *kernel = json_string_value(json_object_get(x, "kernel"));
        d->kernel = kernel ? kc_xstrdup(kernel) : NULL;
        size_t n;
        json_t *note;
        json_array_foreach(json_object_get(x, "notes"), n, note) {
            if (json_is_string(note))
                kc_vec_push(&d->notes, kc_xstrdup(json_string_value(note)));
        }
        const char *fix = json_string_value(json_object_get(x, "fix"));
        if (fix) {
            d->fix_description = kc_xstrdup(fix);
            json_t *e;
            json_array_foreach(json_object_get(x, "edits"), n, e) {
                kc_span sp;
                const char *text = json_string_value(json_object_get(e, "text"));
                if (text && span_from(json_object_get(e, "span"), &sp))
                    kc_diag_fix_edit(d, sp, text);
            }
        }
    }
    json_array_foreach(json_object_get(doc, "errors"), i, x) {
        const char *m = json_string_value(json_object_get(x, "message"));
        kc_file_errors_add(errors, (uint32_t)json_integer_value(json_object_get(x, "line")),
                           (uint32_t)json_integer_value(json_object_get(x, "col")), "%s", m ? m : "?");
    }
    json_array_foreach(json_object_get(doc, "kernels"), i, x) {
        const char *name = json_string_value(json_object_get(x, "name"));
        kc_kernel_ref k = {kc_xstrdup(name ? name : "?"), (uint32_t)json_integer_value(json_object_get(x, "line")),
                           (uint32_t)json_integer_value(json_object_get(x, "end_line")),
                           json_integer_value(json_object_get(x, "lang")) == KC_LANG_CUDA ? KC_LANG_CUDA
                                                                                         : KC_LANG_TRITON};
        kc_vec_push(kernels, k);
    }
    json_decref(doc);
    return true;
}
