/* .kcheck.yaml: parsing (libyaml's document API), the walk up the
 * directories, and the per-file effective options. */
#include "kc_config.h"

#include "kc_walk.h"
#include "kc_file.h"
#include "kc_path.h"
#include "kc_suppress.h"
#include "kc_toml.h"
#include "kc_rule.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

/* ---- rule lists and rule options (shared with the command line) ---------- */

bool kc_rule_list_apply(const char *list, uint8_t *flags, uint8_t value, char **bad)
{
    *bad = NULL;
    char *copy = kc_xstrdup(list);
    bool ok = true;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        size_t tl = strlen(tok);
        while (tl && isspace((unsigned char)tok[tl - 1]))
            tok[--tl] = '\0';
        if (!*tok)
            continue;
        bool hit = false;
        for (size_t i = 0; i < kc_rules_count(); i++) {
            const kc_rule *r = kc_rules_get(i);
            bool match = strcasecmp(tok, "ALL") == 0 || strcmp(tok, r->slug) == 0 ||
                         (strncasecmp(tok, r->id, tl) == 0 && tl >= 2 && tl <= strlen(r->id));
            if (match) {
                flags[i] = value;
                hit = true;
            }
        }
        if (!hit) {
            *bad = kc_xstrdup(tok);
            ok = false;
        }
    }
    free(copy);
    return ok;
}

static bool is_integer(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

char *kc_rule_option_check(const char *rule, const char *name, const char *value, const char **canonical_id)
{
    const kc_rule *r = kc_rules_find(rule, NULL);
    if (!r)
        return kc_xasprintf("unknown rule '%s' (see --list-rules)", rule);
    const kc_rule_option_doc *doc = NULL;
    for (const kc_rule_option_doc *d = r->options; d && d->name; d++)
        if (strcmp(d->name, name) == 0)
            doc = d;
    if (!doc)
        return kc_xasprintf("%s has no option '%s' (see --explain %s)", r->id, name, r->id);
    if (is_integer(doc->default_value) && !is_integer(value))
        return kc_xasprintf("%s.%s expects an integer, got '%s'", r->id, name, value);
    *canonical_id = r->id;
    return NULL;
}

/* ---- the parsed file --------------------------------------------------------- */

typedef KC_VEC(char *) str_vec;

typedef struct cfg_layer {
    bool has_select;
    str_vec select, ignore;
    KC_VEC(kc_rule_option) options;
    char *arch;
    int toolkit; /* -1 unset, 0 false, 1 true */
    char *cuda_path;
    char *compile_db;
    str_vec args;
} cfg_layer;

typedef struct cfg_override {
    str_vec files;
    cfg_layer layer;
    char *dir; /* what `files` are relative to: the file that wrote it (an `extend` base), NULL: this one's */
} cfg_override;

/* An `exclude` pattern and the directory it is relative to. */
typedef struct cfg_exclude {
    char *pattern;
    char *dir;
} cfg_exclude;

typedef struct kc_config {
    char *path; /* as found (absolute) */
    char *dir;  /* its directory, absolute */
    cfg_layer top;
    KC_VEC(cfg_override) overrides;
    KC_VEC(cfg_exclude) excludes;
    char *extend; /* `extend`: the configuration this one builds on (absolute), until merged */
} kc_config;

static void strs_free(str_vec *v)
{
    for (uint32_t i = 0; i < v->len; i++)
        free(v->data[i]);
    kc_vec_free(v);
}

static void layer_free(cfg_layer *l)
{
    strs_free(&l->select);
    strs_free(&l->ignore);
    for (uint32_t i = 0; i < l->options.len; i++) {
        free(l->options.data[i].rule);
        free(l->options.data[i].name);
        free(l->options.data[i].value);
    }
    kc_vec_free(&l->options);
    free(l->arch);
    free(l->cuda_path);
    free(l->compile_db);
    strs_free(&l->args);
}

static void config_delete(kc_config *c)
{
    if (!c)
        return;
    layer_free(&c->top);
    for (uint32_t i = 0; i < c->overrides.len; i++) {
        strs_free(&c->overrides.data[i].files);
        layer_free(&c->overrides.data[i].layer);
        free(c->overrides.data[i].dir);
    }
    kc_vec_free(&c->overrides);
    for (uint32_t i = 0; i < c->excludes.len; i++) {
        free(c->excludes.data[i].pattern);
        free(c->excludes.data[i].dir);
    }
    kc_vec_free(&c->excludes);
    free(c->extend);
    free(c->path);
    free(c->dir);
    free(c);
}

/* ---- parsing ------------------------------------------------------------------- */

typedef struct parser {
    yaml_document_t *doc;
    const char *path;
    char *err; /* first error, "path:line:col: message" */
    const char *dir;
} parser;

static bool fail(parser *p, const yaml_node_t *n, const char *fmt, ...) KC_PRINTF(3, 4);

static bool fail(parser *p, const yaml_node_t *n, const char *fmt, ...)
{
    if (p->err)
        return false;
    va_list ap;
    va_start(ap, fmt);
    char *msg = kc_xvasprintf(fmt, ap);
    va_end(ap);
    p->err = kc_xasprintf("%s:%zu:%zu: error: %s", p->path, n ? n->start_mark.line + 1 : 1,
                          n ? n->start_mark.column + 1 : 1, msg);
    free(msg);
    return false;
}

static yaml_node_t *node(parser *p, yaml_node_item_t i) { return yaml_document_get_node(p->doc, i); }

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *kind_name(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE ? "a scalar" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a mapping";
}

/* A string, or a list of strings (a string may hold a comma-separated list
 * when `commas`). */
static bool string_list(parser *p, yaml_node_t *n, const char *key, str_vec *out)
{
    if (n->type == YAML_SCALAR_NODE) {
        kc_vec_push(out, kc_xstrdup(scalar(n)));
        return true;
    }
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(p, n, "'%s' expects a list of strings, got %s", key, kind_name(n));
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *e = node(p, *it);
        if (!scalar(e))
            return fail(p, e, "'%s' expects a list of strings, got %s in it", key, kind_name(e));
        kc_vec_push(out, kc_xstrdup(scalar(e)));
    }
    return true;
}

static bool rule_list(parser *p, yaml_node_t *n, const char *key, str_vec *out)
{
    uint32_t first = out->len;
    if (!string_list(p, n, key, out))
        return false;
    uint8_t *scratch = kc_xcalloc(kc_rules_count(), 1);
    bool ok = true;
    for (uint32_t i = first; i < out->len && ok; i++) {
        char *bad = NULL;
        if (!kc_rule_list_apply(out->data[i], scratch, 1, &bad)) {
            /* Point at the element when the list is a sequence. */
            yaml_node_t *at = n;
            if (n->type == YAML_SEQUENCE_NODE)
                at = node(p, n->data.sequence.items.start[i - first]);
            ok = fail(p, at, "unknown rule '%s' in '%s' (see kcheck --list-rules)", bad, key);
            free(bad);
        }
    }
    free(scratch);
    return ok;
}

static bool parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(s, yes[i]) == 0)
            return (*out = 1), true;
        if (strcasecmp(s, no[i]) == 0)
            return (*out = 0), true;
    }
    return false;
}

static char *resolve_path(parser *p, const char *v)
{
    return v[0] == '/' ? kc_xstrdup(v) : kc_xasprintf("%s/%s", p->dir, v);
}

static bool add_option(parser *p, yaml_node_t *at, cfg_layer *l, const char *rule, const char *name,
                       yaml_node_t *value)
{
    const char *v = scalar(value);
    if (!v)
        return fail(p, value, "option %s.%s expects a scalar value, got %s", rule, name, kind_name(value));
    const char *id = NULL;
    char *msg = kc_rule_option_check(rule, name, v, &id);
    if (msg) {
        fail(p, at, "%s", msg);
        free(msg);
        return false;
    }
    kc_rule_option ro = {kc_xstrdup(id), kc_xstrdup(name), kc_xstrdup(v)};
    kc_vec_push(&l->options, ro);
    return true;
}

static bool parse_options(parser *p, yaml_node_t *n, cfg_layer *l)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail(p, n, "'options' expects a mapping such as {KC201.max-trip-count: 64}, got %s", kind_name(n));
    for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        const char *key = scalar(k);
        if (!key)
            return fail(p, k, "option names are strings such as KC201.max-trip-count");
        const char *dot = strchr(key, '.');
        if (dot) {
            char *rule = kc_xstrndup(key, (size_t)(dot - key));
            bool ok = add_option(p, k, l, rule, dot + 1, v);
            free(rule);
            if (!ok)
                return false;
        } else if (v->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                yaml_node_t *k2 = node(p, q->key);
                if (!scalar(k2))
                    return fail(p, k2, "option names are strings");
                if (!add_option(p, k2, l, key, scalar(k2), node(p, q->value)))
                    return false;
            }
        } else {
            return fail(p, k, "'%s': write RULE.NAME: VALUE, or RULE: {NAME: VALUE}", key);
        }
    }
    return true;
}

static bool valid_arch(const char *a)
{
    if (strncmp(a, "sm_", 3) != 0 || !isdigit((unsigned char)a[3]) || strlen(a) >= 16)
        return false;
    for (const char *q = a + 3; *q; q++)
        if (!isalnum((unsigned char)*q))
            return false;
    return true;
}

/* -I/-isystem/-iquote/-idirafter/-include with a relative path: relative to
 * the configuration file's directory. */
static void push_args(parser *p, const str_vec *in, str_vec *out)
{
    static const char *const flags[] = {"-isystem", "-iquote", "-idirafter", "-include", "-I"};
    for (uint32_t i = 0; i < in->len; i++) {
        const char *a = in->data[i];
        bool done = false;
        for (size_t f = 0; f < sizeof flags / sizeof flags[0] && !done; f++) {
            size_t fl = strlen(flags[f]);
            if (strncmp(a, flags[f], fl) != 0)
                continue;
            if (a[fl] == '\0' && i + 1 < in->len) {
                kc_vec_push(out, kc_xstrdup(a));
                const char *v = in->data[++i];
                kc_vec_push(out, resolve_path(p, v));
                done = true;
            } else if (a[fl] != '\0' && (f == 4 || f == 3 || a[fl] == '/' || a[fl] == '.')) {
                /* -Ipath, -includefile; -isystempath (rare) only when it
                 * clearly is a path. */
                const char *v = a + fl;
                if (v[0] == '/')
                    kc_vec_push(out, kc_xstrdup(a));
                else
                    kc_vec_push(out, kc_xasprintf("%s%s/%s", flags[f], p->dir, v));
                done = true;
            }
        }
        if (!done)
            kc_vec_push(out, kc_xstrdup(a));
    }
}

static bool parse_cuda(parser *p, yaml_node_t *n, cfg_layer *l)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail(p, n, "'cuda' expects a mapping (args, arch, toolkit, path, compile-commands), got %s",
                    kind_name(n));
    for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        const char *key = scalar(k);
        const char *sv = scalar(v);
        if (key && strcmp(key, "args") == 0) {
            str_vec raw = {0};
            bool ok = v->type == YAML_SEQUENCE_NODE ? string_list(p, v, "cuda.args", &raw)
                                                    : fail(p, v, "'cuda.args' expects a list of strings");
            if (ok)
                push_args(p, &raw, &l->args);
            strs_free(&raw);
            if (!ok)
                return false;
        } else if (key && strcmp(key, "arch") == 0) {
            if (!sv || !valid_arch(sv))
                return fail(p, v, "'cuda.arch' expects an architecture such as sm_80");
            free(l->arch);
            l->arch = kc_xstrdup(sv);
        } else if (key && strcmp(key, "toolkit") == 0) {
            if (!sv || !parse_bool(sv, &l->toolkit))
                return fail(p, v, "'cuda.toolkit' expects true or false");
        } else if (key && strcmp(key, "path") == 0) {
            if (!sv || !*sv)
                return fail(p, v, "'cuda.path' expects a directory");
            free(l->cuda_path);
            l->cuda_path = resolve_path(p, sv);
        } else if (key && strcmp(key, "compile-commands") == 0) {
            if (!sv || !*sv)
                return fail(p, v, "'cuda.compile-commands' expects the directory of compile_commands.json");
            free(l->compile_db);
            l->compile_db = resolve_path(p, sv);
        } else {
            return fail(p, k, "unknown key '%s' in 'cuda' (expected args, arch, toolkit, path, compile-commands)",
                        key ? key : "?");
        }
    }
    return true;
}

/* The keys a layer has (top level or an override). */
static bool parse_layer_key(parser *p, const char *key, yaml_node_t *v, cfg_layer *l, bool *known)
{
    *known = true;
    if (strcmp(key, "select") == 0) {
        l->has_select = true;
        return rule_list(p, v, "select", &l->select);
    }
    if (strcmp(key, "ignore") == 0)
        return rule_list(p, v, "ignore", &l->ignore);
    if (strcmp(key, "options") == 0)
        return parse_options(p, v, l);
    if (strcmp(key, "cuda") == 0)
        return parse_cuda(p, v, l);
    *known = false;
    return true;
}

static bool check_duplicates(parser *p, yaml_node_t *map)
{
    for (yaml_node_pair_t *a = map->data.mapping.pairs.start; a < map->data.mapping.pairs.top; a++)
        for (yaml_node_pair_t *b = map->data.mapping.pairs.start; b < a; b++) {
            const char *ka = scalar(node(p, a->key)), *kb = scalar(node(p, b->key));
            if (ka && kb && strcmp(ka, kb) == 0)
                return fail(p, node(p, a->key), "duplicate key '%s'", ka);
        }
    return true;
}

static bool parse_override(parser *p, yaml_node_t *n, kc_config *c)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail(p, n, "each override is a mapping with 'files' and settings, got %s", kind_name(n));
    if (!check_duplicates(p, n))
        return false;
    cfg_override o;
    memset(&o, 0, sizeof o);
    o.layer.toolkit = -1;
    bool ok = true, has_files = false;
    for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; ok && pr < n->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        const char *key = scalar(k);
        bool known = false;
        if (key && strcmp(key, "files") == 0) {
            has_files = true;
            ok = string_list(p, v, "files", &o.files);
            for (uint32_t i = 0; ok && i < o.files.len; i++) {
                char *f = o.files.data[i];
                if (strncmp(f, "./", 2) == 0)
                    memmove(f, f + 2, strlen(f + 2) + 1);
                if (!*f)
                    ok = fail(p, v, "empty pattern in 'files'");
            }
            continue;
        }
        if (key)
            ok = parse_layer_key(p, key, v, &o.layer, &known);
        if (ok && !known)
            ok = fail(p, k, "unknown key '%s' in an override (expected files, select, ignore, options, cuda)",
                      key ? key : "?");
    }
    if (ok && (!has_files || !o.files.len))
        ok = fail(p, n, "an override needs 'files': a list of patterns such as \"kernels/legacy/**\"");
    if (!ok) {
        strs_free(&o.files);
        layer_free(&o.layer);
        return false;
    }
    kc_vec_push(&c->overrides, o);
    return true;
}

static bool parse_root(parser *p, yaml_node_t *root, kc_config *c)
{
    if (!root)
        return true; /* an empty file */
    if (root->type == YAML_SCALAR_NODE && !*scalar(root))
        return true;
    if (root->type != YAML_MAPPING_NODE)
        return fail(p, root, "a .kcheck.yaml is a mapping (select, ignore, options, cuda, overrides), got %s",
                    kind_name(root));
    if (!check_duplicates(p, root))
        return false;
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        const char *key = scalar(k);
        if (!key)
            return fail(p, k, "keys are strings");
        if (strcmp(key, "exclude") == 0) {
            str_vec pats = {0};
            if (!string_list(p, v, "exclude", &pats))
                return false;
            for (uint32_t i = 0; i < pats.len; i++) {
                char *f = pats.data[i];
                if (strncmp(f, "./", 2) == 0)
                    memmove(f, f + 2, strlen(f + 2) + 1);
                cfg_exclude e = {f, kc_xstrdup(p->dir)};
                if (!*f) {
                    strs_free(&pats);
                    free(e.dir);
                    return fail(p, v, "empty pattern in 'exclude'");
                }
                kc_vec_push(&c->excludes, e);
            }
            kc_vec_free(&pats);
            continue;
        }
        if (strcmp(key, "extend") == 0) {
            const char *f = v->type == YAML_SCALAR_NODE ? scalar(v) : NULL;
            if (!f || !*f)
                return fail(p, v, "'extend' expects the path of another configuration file");
            c->extend = resolve_path(p, f);
            continue;
        }
        if (strcmp(key, "overrides") == 0) {
            if (v->type != YAML_SEQUENCE_NODE)
                return fail(p, v, "'overrides' expects a list of {files: [...], ...}");
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
                if (!parse_override(p, node(p, *it), c))
                    return false;
            continue;
        }
        bool known = false;
        if (!parse_layer_key(p, key, v, &c->top, &known))
            return false;
        if (!known)
            return fail(p, k, "unknown key '%s' (expected select, ignore, options, cuda, overrides, exclude, extend)",
                        key);
    }
    return true;
}

/* The files an `extend` chain went through (cycles, depth). */
typedef struct extend_chain {
    const char *paths[8];
    unsigned n;
} extend_chain;

static kc_config *config_load_at(const char *path, const char *dir, extend_chain *chain, char **err);

/* into = from + into, for two vectors of the same type (the same member of
 * an extend's base and of the file over it): the items move, `from` is left
 * empty. */
#define VEC_PREPEND(into, from)                                                                 \
    do {                                                                                        \
        for (uint32_t i_ = 0; i_ < (into)->len; i_++)                                           \
            kc_vec_push((from), (into)->data[i_]);                                              \
        kc_vec_free(into);                                                                      \
        *(into) = *(from);                                                                      \
        memset((from), 0, sizeof *(from));                                                      \
    } while (0)

/* `l` over `base` (an `extend`): what l sets wins, lists add up, l's last. */
static void layer_over(cfg_layer *l, cfg_layer *base)
{
    if (!l->has_select && base->has_select) {
        strs_free(&l->select);
        l->select = base->select;
        base->select = (str_vec){0};
        l->has_select = true;
    }
    VEC_PREPEND(&l->ignore, &base->ignore);
    VEC_PREPEND(&l->options, &base->options);
    if (!l->arch) {
        l->arch = base->arch;
        base->arch = NULL;
    }
    if (l->toolkit < 0)
        l->toolkit = base->toolkit;
    if (!l->cuda_path) {
        l->cuda_path = base->cuda_path;
        base->cuda_path = NULL;
    }
    if (!l->compile_db) {
        l->compile_db = base->compile_db;
        base->compile_db = NULL;
    }
    VEC_PREPEND(&l->args, &base->args);
}

/* Puts the configuration that `c` extends under it: its settings first,
 * its overrides and excludes before c's (each relative to its own file). */
static bool merge_extend(kc_config *c, extend_chain *chain, char **err)
{
    if (!c->extend)
        return true;
    char *abs = realpath(c->extend, NULL);
    if (!abs) {
        *err = kc_xasprintf("%s: error: 'extend': cannot open %s: %s", c->path, c->extend, strerror(errno));
        return false;
    }
    for (unsigned i = 0; i < chain->n; i++)
        if (!strcmp(chain->paths[i], abs)) {
            *err = kc_xasprintf("%s: error: 'extend' makes a cycle through %s", c->path, abs);
            free(abs);
            return false;
        }
    if (chain->n >= 8) {
        *err = kc_xasprintf("%s: error: 'extend' nests more than 8 deep", c->path);
        free(abs);
        return false;
    }
    char *dir = kc_xstrdup(abs);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    char *e = NULL;
    chain->paths[chain->n++] = abs;
    kc_config *base = config_load_at(abs, dir, chain, &e);
    chain->n--;
    free(dir);
    free(abs);
    if (!base) {
        *err = e ? e : kc_xasprintf("%s: error: 'extend' failed", c->path); /* the base's own error */
        return false;
    }
    layer_over(&c->top, &base->top);
    for (uint32_t i = 0; i < base->overrides.len; i++)
        if (!base->overrides.data[i].dir) /* its patterns stay relative to the base */
            base->overrides.data[i].dir = kc_xstrdup(base->dir);
    VEC_PREPEND(&c->overrides, &base->overrides);
    VEC_PREPEND(&c->excludes, &base->excludes);
    config_delete(base);
    free(c->extend);
    c->extend = NULL;
    return true;
}

static kc_config *config_load(const char *path, const char *dir, char **err)
{
    char *abs = realpath(path, NULL);
    extend_chain chain = {{abs ? abs : path}, 1};
    kc_config *c = config_load_at(path, dir, &chain, err);
    free(abs);
    return c;
}

/* Is `path` a pyproject.toml (read for its [tool.kcheck] table)? */
static bool is_pyproject(const char *path)
{
    const char *b = strrchr(path, '/');
    return !strcmp(b ? b + 1 : path, KC_PYPROJECT_NAME);
}

/* The [tool.kcheck] table of a pyproject.toml as a YAML document: false
 * with *err on a TOML error or when the file has no such table. */
static bool load_pyproject(const char *path, yaml_document_t *doc, char **err)
{
    char *text = NULL;
    size_t len = 0;
    if (!kc_read_all(path, &text, &len)) {
        *err = kc_xasprintf("%s: error: cannot open: %s", path, strerror(errno));
        return false;
    }
    bool found = false;
    char *e = NULL;
    bool ok = kc_toml_table(text, len, "tool.kcheck", doc, &found, &e);
    free(text);
    if (!ok) {
        /* "line N: message" as "path:N: error: TOML: message" */
        unsigned line = e && !strncmp(e, "line ", 5) ? (unsigned)strtoul(e + 5, NULL, 10) : 1;
        const char *msg = e ? strchr(e, ':') : NULL;
        *err = kc_xasprintf("%s:%u: error: TOML: %s", path, line, msg ? msg + 2 : "syntax error");
        free(e);
        return false;
    }
    if (!found) {
        yaml_document_delete(doc);
        *err = kc_xasprintf("%s: error: no [tool.kcheck] table", path);
        return false;
    }
    return true;
}

static kc_config *config_load_at(const char *path, const char *dir, extend_chain *chain, char **err)
{
    *err = NULL;
    bool toml = is_pyproject(path);
    FILE *f = toml ? NULL : fopen(path, "rb");
    if (!toml && !f) {
        *err = kc_xasprintf("%s: error: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    yaml_parser_t yp;
    yaml_document_t doc;
    yaml_parser_initialize(&yp);
    if (toml) {
        if (!load_pyproject(path, &doc, err)) {
            yaml_parser_delete(&yp);
            return NULL;
        }
    } else {
        yaml_parser_set_input_file(&yp, f);
        if (!yaml_parser_load(&yp, &doc)) {
            const char *ctx = yp.context ? yp.context : NULL;
            *err = kc_xasprintf("%s:%zu:%zu: error: YAML: %s%s%s", path, yp.problem_mark.line + 1,
                                yp.problem_mark.column + 1, yp.problem ? yp.problem : "syntax error", ctx ? " " : "",
                                ctx ? ctx : "");
            yaml_parser_delete(&yp);
            fclose(f);
            return NULL;
        }
    }
    kc_config *c = kc_xcalloc(1, sizeof *c);
    c->path = kc_xstrdup(path);
    c->dir = kc_xstrdup(dir);
    c->top.toolkit = -1;
    parser p = {.doc = &doc, .path = path, .dir = dir};
    bool ok = parse_root(&p, yaml_document_get_root_node(&doc), c);
    /* A second document in the file is a mistake worth reporting. */
    if (ok && !toml) {
        yaml_document_t more;
        if (yaml_parser_load(&yp, &more)) {
            if (yaml_document_get_root_node(&more))
                ok = fail(&p, yaml_document_get_root_node(&more), "more than one YAML document");
            yaml_document_delete(&more);
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&yp);
    if (f)
        fclose(f);
    if (!ok) {
        *err = p.err;
        config_delete(c);
        return NULL;
    }
    if (!merge_extend(c, chain, err)) {
        config_delete(c);
        return NULL;
    }
    return c;
}

/* ---- the set: caches and effective options ------------------------------------ */

typedef struct dir_entry {
    char *dir;
    kc_config *cfg; /* NULL: none applies */
} dir_entry;

typedef struct opts_entry {
    const kc_config *cfg;
    char *mask; /* '0'/'1' per override */
    kc_options *opts;
} opts_entry;

struct kc_config_set {
    const kc_options *base;
    kc_config_cli cli;
    KC_VEC(kc_config *) configs; /* owned */
    KC_VEC(dir_entry) dirs;
    KC_VEC(opts_entry) opts;
    kc_config *fixed;  /* --config FILE */
    char *fixed_err;
};

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static kc_config *load_cached(kc_config_set *s, const char *path, const char *dir, char **err)
{
    for (uint32_t i = 0; i < s->configs.len; i++)
        if (strcmp(s->configs.data[i]->path, path) == 0)
            return s->configs.data[i];
    kc_config *c = config_load(path, dir, err);
    if (c)
        kc_vec_push(&s->configs, c);
    return c;
}

kc_config_set *kc_config_set_new(const kc_options *base, const kc_config_cli *cli)
{
    kc_config_set *s = kc_xcalloc(1, sizeof *s);
    s->base = base;
    s->cli = *cli;
    if (cli->config_file && !cli->no_config) {
        char *abs = realpath(cli->config_file, NULL);
        if (!abs) {
            s->fixed_err = kc_xasprintf("%s: error: cannot open: %s", cli->config_file, strerror(errno));
        } else {
            char *dir = kc_xstrdup(abs);
            *strrchr(dir, '/') = '\0';
            if (!*dir) {
                free(dir);
                dir = kc_xstrdup("/");
            }
            s->fixed = load_cached(s, abs, dir, &s->fixed_err);
            free(dir);
            free(abs);
        }
    }
    return s;
}

void kc_config_set_delete(kc_config_set *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->configs.len; i++)
        config_delete(s->configs.data[i]);
    kc_vec_free(&s->configs);
    for (uint32_t i = 0; i < s->dirs.len; i++)
        free(s->dirs.data[i].dir);
    kc_vec_free(&s->dirs);
    for (uint32_t i = 0; i < s->opts.len; i++) {
        free(s->opts.data[i].mask);
        kc_options_free(s->opts.data[i].opts);
        free(s->opts.data[i].opts);
    }
    kc_vec_free(&s->opts);
    free(s->fixed_err);
    free(s);
}

/* The configuration for an absolute directory: walk up. */
/* Does the pyproject.toml at `path` have a [tool.kcheck] table (or a
 * `[tool.kcheck.` subtable)? A text search: a file that has one and does
 * not parse is then reported, one without it is passed over, as ruff does. */
static bool has_tool_table(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (!kc_read_all(path, &text, &len))
        return false;
    bool has = false;
    for (const char *q = text; !has && (q = strstr(q, "tool.kcheck")) != NULL; q++) {
        const char *b = q;
        while (b > text && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '['))
            b--;
        const char *a = q + 11;
        has = (b == text || b[-1] == '\n') && *b == '[' && (*a == ']' || *a == '.' || *a == ' ');
    }
    free(text);
    return has;
}

static bool config_for_dir(kc_config_set *s, const char *absdir, kc_config **out, char **err)
{
    KC_VEC(char *) visited = {0};
    char *d = kc_xstrdup(absdir);
    kc_config *found = NULL;
    bool ok = true;
    for (;;) {
        bool cached = false;
        for (uint32_t i = 0; i < s->dirs.len; i++)
            if (strcmp(s->dirs.data[i].dir, d) == 0) {
                found = s->dirs.data[i].cfg;
                cached = true;
                break;
            }
        if (cached)
            break;
        kc_vec_push(&visited, kc_xstrdup(d));
        char *cand = kc_xasprintf("%s%s%s", d, strcmp(d, "/") ? "/" : "", KC_CONFIG_NAME);
        if (is_file(cand)) {
            found = load_cached(s, cand, d, err);
            free(cand);
            ok = found != NULL;
            break;
        }
        free(cand);
        /* a pyproject.toml counts when it has a [tool.kcheck] table */
        cand = kc_xasprintf("%s%s%s", d, strcmp(d, "/") ? "/" : "", KC_PYPROJECT_NAME);
        if (is_file(cand) && has_tool_table(cand)) {
            found = load_cached(s, cand, d, err);
            free(cand);
            ok = found != NULL;
            break;
        }
        free(cand);
        char *git = kc_xasprintf("%s%s.git", d, strcmp(d, "/") ? "/" : "");
        bool root = exists(git);
        free(git);
        if (root || strcmp(d, "/") == 0)
            break;
        char *slash = strrchr(d, '/');
        if (slash == d)
            d[1] = '\0';
        else
            *slash = '\0';
    }
    free(d);
    for (uint32_t i = 0; i < visited.len; i++) {
        if (ok) {
            dir_entry e = {visited.data[i], found};
            kc_vec_push(&s->dirs, e);
        } else {
            free(visited.data[i]);
        }
    }
    kc_vec_free(&visited);
    *out = found;
    return ok;
}

static void apply_lists(uint8_t *flags, size_t n, const str_vec *select, bool replace, const str_vec *ignore)
{
    char *bad = NULL;
    if (replace)
        memset(flags, 0, n);
    for (uint32_t i = 0; select && i < select->len; i++) {
        kc_rule_list_apply(select->data[i], flags, 1, &bad);
        free(bad);
    }
    for (uint32_t i = 0; ignore && i < ignore->len; i++) {
        kc_rule_list_apply(ignore->data[i], flags, 0, &bad);
        free(bad);
    }
}

static void push_option(kc_options *o, const kc_rule_option *r)
{
    kc_rule_option c = {kc_xstrdup(r->rule), kc_xstrdup(r->name), kc_xstrdup(r->value)};
    kc_vec_push(&o->rule_options, c);
}

static kc_options *build(kc_config_set *s, const kc_config *cfg, const char *mask)
{
    const kc_options *b = s->base;
    kc_options *o = kc_xcalloc(1, sizeof *o);
    kc_options_copy(o, b);
    size_t n = kc_rules_count();
    free(o->rule_enabled);
    o->rule_enabled = kc_xmalloc(n);
    o->rule_enabled_len = n;
    memset(o->rule_enabled, 1, n);

    KC_VEC(const cfg_layer *) all = {0};
    if (cfg) {
        kc_vec_push(&all, &cfg->top);
        for (uint32_t i = 0; i < cfg->overrides.len; i++)
            if (mask[i] == '1')
                kc_vec_push(&all, &cfg->overrides.data[i].layer);
    }
    /* The file's top level: select replaces the default, ignore removes. */
    if (all.len)
        apply_lists(o->rule_enabled, n, all.data[0]->has_select ? &all.data[0]->select : NULL,
                    all.data[0]->has_select, &all.data[0]->ignore);
    /* --select replaces that selection ... */
    if (s->cli.nselects) {
        memset(o->rule_enabled, 0, n);
        for (size_t i = 0; i < s->cli.nselects; i++) {
            char *bad = NULL;
            kc_rule_list_apply(s->cli.selects[i], o->rule_enabled, 1, &bad);
            free(bad);
        }
    }
    /* ... the matching overrides then add (select, unless --select was
     * given) and remove (ignore: a per-path exception holds whatever the
     * selection) ... */
    for (uint32_t i = 1; i < all.len; i++) {
        const cfg_layer *l = all.data[i];
        apply_lists(o->rule_enabled, n, l->has_select && !s->cli.nselects ? &l->select : NULL, false, &l->ignore);
    }
    /* ... and --ignore has the last word. */
    for (size_t i = 0; i < s->cli.nignores; i++) {
        char *bad = NULL;
        kc_rule_list_apply(s->cli.ignores[i], o->rule_enabled, 0, &bad);
        free(bad);
    }

    /* Rule options: the files', then the command line's (the last wins). */
    for (uint32_t i = 0; i < o->rule_options.len; i++) {
        free(o->rule_options.data[i].rule);
        free(o->rule_options.data[i].name);
        free(o->rule_options.data[i].value);
    }
    o->rule_options.len = 0;
    for (uint32_t i = 0; i < all.len; i++)
        for (uint32_t k = 0; k < all.data[i]->options.len; k++)
            push_option(o, &all.data[i]->options.data[k]);
    for (uint32_t k = 0; k < b->rule_options.len; k++)
        push_option(o, &b->rule_options.data[k]);

    /* CUDA: the files' unless the command line said. */
    for (uint32_t i = 0; i < all.len; i++) {
        const cfg_layer *l = all.data[i];
        if (l->arch && !s->cli.arch_set) {
            free(o->cuda_arch);
            o->cuda_arch = kc_xstrdup(l->arch);
        }
        if (!s->cli.toolkit_set) {
            if (l->toolkit >= 0)
                o->cuda_mode = l->toolkit ? KC_CUDA_TOOLKIT : KC_CUDA_SHIM;
            if (l->cuda_path) {
                free(o->cuda_path);
                o->cuda_path = kc_xstrdup(l->cuda_path);
                if (l->toolkit < 0)
                    o->cuda_mode = KC_CUDA_TOOLKIT;
            }
        }
        if (l->compile_db && !s->cli.db_set) {
            free(o->compile_db_dir);
            o->compile_db_dir = kc_xstrdup(l->compile_db);
        }
    }
    for (uint32_t i = 0; i < o->extra_args.len; i++)
        free(o->extra_args.data[i]);
    o->extra_args.len = 0;
    for (uint32_t i = 0; i < all.len; i++)
        for (uint32_t k = 0; k < all.data[i]->args.len; k++)
            kc_vec_push(&o->extra_args, kc_xstrdup(all.data[i]->args.data[k]));
    for (uint32_t k = 0; k < b->extra_args.len; k++)
        kc_vec_push(&o->extra_args, kc_xstrdup(b->extra_args.data[k]));

    free(o->config_path);
    o->config_path = cfg ? kc_xstrdup(cfg->path) : NULL;
    kc_vec_free(&all);
    return o;
}

/* Absolute, symlink-resolved directory of `path` (the path itself when
 * is_dir) and the name under it; false when it does not exist. */
static bool locate(const char *path, bool is_dir, char **absdir, char **abspath)
{
    char *abs = realpath(path, NULL);
    if (!abs) {
        /* Not there (yet): the nearest existing ancestor directory decides,
         * and the rest of the path is matched as written. */
        char *cur = kc_xstrdup(path);
        char *real = NULL;
        const char *rest = path;
        for (;;) {
            char *slash = strrchr(cur, '/');
            if (!slash) {
                real = realpath(".", NULL);
                rest = path;
                break;
            }
            *slash = '\0';
            real = realpath(*cur ? cur : "/", NULL);
            if (real) {
                rest = path + (slash - cur) + 1;
                break;
            }
        }
        free(cur);
        if (!real)
            return false;
        *absdir = real;
        *abspath = kc_xasprintf("%s%s%s", real, strcmp(real, "/") ? "/" : "", rest);
        return true;
    }
    *abspath = abs;
    if (is_dir) {
        *absdir = kc_xstrdup(abs);
    } else {
        *absdir = kc_xstrdup(abs);
        char *slash = strrchr(*absdir, '/');
        if (slash == *absdir)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    return true;
}

/* The configuration that applies to `path` (NULL: none; false on an
 * invalid one, *err set), with the path located. */
static bool config_of(kc_config_set *s, const char *path, bool is_dir, kc_config **cfg, char **absdir,
                      char **abspath, bool *located, char **err)
{
    *cfg = NULL;
    *located = locate(path, is_dir, absdir, abspath);
    if (s->cli.no_config)
        return true;
    if (s->cli.config_file) {
        if (!s->fixed) {
            *err = kc_xstrdup(s->fixed_err ? s->fixed_err : "cannot read the configuration");
            return false;
        }
        *cfg = s->fixed;
        return true;
    }
    return !*located || config_for_dir(s, *absdir, cfg, err);
}

bool kc_config_excluded(kc_config_set *s, const char *path, bool is_dir)
{
    kc_config *cfg = NULL;
    char *absdir = NULL, *abspath = NULL, *err = NULL;
    bool located = false, hit = false;
    if (config_of(s, path, is_dir, &cfg, &absdir, &abspath, &located, &err) && cfg && located) {
        for (uint32_t i = 0; i < cfg->excludes.len && !hit; i++) {
            const char *rel = kc_path_under(abspath, cfg->excludes.data[i].dir);
            if (!rel)
                continue;
            /* the path itself, or a directory above it (git's rule: what
             * is under an excluded directory is excluded with it) */
            char *r = kc_xstrdup(rel);
            hit = kc_gitignore_match(cfg->excludes.data[i].pattern, r, is_dir);
            for (char *sl = strrchr(r, '/'); !hit && sl; sl = strrchr(r, '/')) {
                *sl = '\0';
                hit = kc_gitignore_match(cfg->excludes.data[i].pattern, r, true);
            }
            free(r);
        }
    }
    free(err);
    free(absdir);
    free(abspath);
    return hit;
}

const kc_options *kc_config_options_for(kc_config_set *s, const char *path, bool is_dir, char **err)
{
    *err = NULL;
    kc_config *cfg = NULL;
    char *absdir = NULL, *abspath = NULL;
    bool located = false;
    if (!config_of(s, path, is_dir, &cfg, &absdir, &abspath, &located, err))
        goto out;
    /* Which overrides match: the path relative to the configuration's
     * directory. */
    char *mask = kc_xcalloc(cfg ? cfg->overrides.len + 1 : 1, 1);
    if (cfg) {
        for (uint32_t i = 0; i < cfg->overrides.len; i++) {
            const char *odir = cfg->overrides.data[i].dir ? cfg->overrides.data[i].dir : cfg->dir;
            const char *rel = located ? kc_path_under(abspath, odir) : NULL;
            bool hit = false;
            for (uint32_t k = 0; rel && k < cfg->overrides.data[i].files.len && !hit; k++)
                hit = kc_gitignore_match(cfg->overrides.data[i].files.data[k], rel, is_dir);
            mask[i] = hit ? '1' : '0';
        }
    }
    const kc_options *result = NULL;
    for (uint32_t i = 0; i < s->opts.len && !result; i++)
        if (s->opts.data[i].cfg == cfg && strcmp(s->opts.data[i].mask, mask) == 0)
            result = s->opts.data[i].opts;
    if (!result) {
        opts_entry e = {cfg, mask, build(s, cfg, mask)};
        kc_vec_push(&s->opts, e);
        result = e.opts;
    } else {
        free(mask);
    }
    free(absdir);
    free(abspath);
    return result;
out:
    free(absdir);
    free(abspath);
    return NULL;
}
