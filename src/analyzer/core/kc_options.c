#include "kc_options.h"

#include <stdlib.h>
#include <string.h>

void kc_options_init(kc_options *o)
{
    memset(o, 0, sizeof *o);
#define KC_OPT_INIT_(type, f, kind, key, conf, def) o->f = (type)def;
    KC_OPTIONS_FIELDS(KC_OPT_INIT_)
#undef KC_OPT_INIT_
}

/* ---- free and copy, by kind ---- */

#define KC_OPT_FREE_VALUE(o, f)
#define KC_OPT_FREE_BORROWED(o, f)
#define KC_OPT_FREE_STRING(o, f) free(o->f);
#define KC_OPT_FREE_FLAGS(o, f) free(o->f);
#define KC_OPT_FREE_RULE_OPTS(o, f)                                                                 \
    for (uint32_t i = 0; i < o->f.len; i++) {                                                       \
        free(o->f.data[i].rule);                                                                    \
        free(o->f.data[i].name);                                                                    \
        free(o->f.data[i].value);                                                                   \
    }                                                                                               \
    kc_vec_free(&o->f);
#define KC_OPT_FREE_STRINGS(o, f)                                                                   \
    for (uint32_t i = 0; i < o->f.len; i++)                                                         \
        free(o->f.data[i]);                                                                         \
    kc_vec_free(&o->f);

void kc_options_free(kc_options *o)
{
#define KC_OPT_FREE_(type, f, kind, key, conf, def) KC_OPT_FREE_##kind(o, f)
    KC_OPTIONS_FIELDS(KC_OPT_FREE_)
#undef KC_OPT_FREE_
    memset(o, 0, sizeof *o);
}

static char *dup_or_null(const char *s) { return s ? kc_xstrdup(s) : NULL; }

/* After `*dst = *src`: what the copy must own for itself. */
#define KC_OPT_COPY_VALUE(dst, src, f)
#define KC_OPT_COPY_BORROWED(dst, src, f)
#define KC_OPT_COPY_STRING(dst, src, f) dst->f = dup_or_null(src->f);
#define KC_OPT_COPY_FLAGS(dst, src, f)                                                              \
    if (src->f) {                                                                                   \
        dst->f = kc_xmalloc(src->f##_len ? src->f##_len : 1);                                       \
        memcpy(dst->f, src->f, src->f##_len);                                                       \
    }
#define KC_OPT_COPY_RULE_OPTS(dst, src, f)                                                          \
    memset(&dst->f, 0, sizeof dst->f);                                                              \
    for (uint32_t i = 0; i < src->f.len; i++) {                                                     \
        const kc_rule_option *r = &src->f.data[i];                                                  \
        kc_rule_option c = {kc_xstrdup(r->rule), kc_xstrdup(r->name), kc_xstrdup(r->value)};        \
        kc_vec_push(&dst->f, c);                                                                    \
    }
#define KC_OPT_COPY_STRINGS(dst, src, f)                                                            \
    memset(&dst->f, 0, sizeof dst->f);                                                              \
    for (uint32_t i = 0; i < src->f.len; i++)                                                       \
        kc_vec_push(&dst->f, kc_xstrdup(src->f.data[i]));

void kc_options_copy(kc_options *dst, const kc_options *src)
{
    *dst = *src;
#define KC_OPT_COPY_(type, f, kind, key, conf, def) KC_OPT_COPY_##kind(dst, src, f)
    KC_OPTIONS_FIELDS(KC_OPT_COPY_)
#undef KC_OPT_COPY_
}

const char *kc_options_rule_option(const kc_options *o, const char *rule_id, const char *name)
{
    /* The last setting wins. */
    for (uint32_t i = o->rule_options.len; i-- > 0;) {
        const kc_rule_option *r = &o->rule_options.data[i];
        if (strcmp(r->rule, rule_id) == 0 && strcmp(r->name, name) == 0)
            return r->value;
    }
    return NULL;
}

char *kc_cache_root(const kc_options *o)
{
    if (o->cache_dir)
        return kc_xstrdup(o->cache_dir);
    const char *env = getenv("KCHECK_CACHE_DIR");
    if (env && *env)
        return kc_xstrdup(env);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/')
        return kc_xasprintf("%s/kcheck", xdg);
    const char *home = getenv("HOME");
    if (home && *home == '/')
        return kc_xasprintf("%s/.cache/kcheck", home);
    return NULL;
}
