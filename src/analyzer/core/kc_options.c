#include "kc_options.h"

#include <stdlib.h>
#include <string.h>

void kc_options_init(kc_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = KC_FORMAT_TEXT;
    o->jobs = 1;
    o->show_source = true;
    o->fail_on = KC_SEV_WARNING;
    o->min_severity = KC_SEV_WARNING; /* notes on request: --severity note */
    o->max_file_size = 64u * 1024u * 1024u;
    o->cuda_mode = KC_CUDA_SHIM;
    o->verify_timeout_s = 300;
}

void kc_options_free(kc_options *o)
{
    free(o->rule_enabled);
    for (uint32_t i = 0; i < o->rule_options.len; i++) {
        free(o->rule_options.data[i].rule);
        free(o->rule_options.data[i].name);
        free(o->rule_options.data[i].value);
    }
    kc_vec_free(&o->rule_options);
    free(o->cuda_path);
    free(o->cuda_arch);
    free(o->compile_db_dir);
    free(o->cache_dir);
    free(o->verify_results_dir);
    free(o->verify_save_dir);
    free(o->verify_export_dir);
    free(o->reference_dir);
    free(o->python);
    free(o->config_path);
    for (uint32_t i = 0; i < o->extra_args.len; i++)
        free(o->extra_args.data[i]);
    kc_vec_free(&o->extra_args);
    memset(o, 0, sizeof *o);
}

static char *dup_or_null(const char *s) { return s ? kc_xstrdup(s) : NULL; }

void kc_options_copy(kc_options *dst, const kc_options *src)
{
    *dst = *src;
    if (src->rule_enabled) {
        dst->rule_enabled = kc_xmalloc(src->rule_enabled_len ? src->rule_enabled_len : 1);
        memcpy(dst->rule_enabled, src->rule_enabled, src->rule_enabled_len);
    }
    memset(&dst->rule_options, 0, sizeof dst->rule_options);
    for (uint32_t i = 0; i < src->rule_options.len; i++) {
        const kc_rule_option *r = &src->rule_options.data[i];
        kc_rule_option c = {kc_xstrdup(r->rule), kc_xstrdup(r->name), kc_xstrdup(r->value)};
        kc_vec_push(&dst->rule_options, c);
    }
    memset(&dst->extra_args, 0, sizeof dst->extra_args);
    for (uint32_t i = 0; i < src->extra_args.len; i++)
        kc_vec_push(&dst->extra_args, kc_xstrdup(src->extra_args.data[i]));
    dst->cuda_path = dup_or_null(src->cuda_path);
    dst->cuda_arch = dup_or_null(src->cuda_arch);
    dst->compile_db_dir = dup_or_null(src->compile_db_dir);
    dst->cache_dir = dup_or_null(src->cache_dir);
    dst->verify_results_dir = dup_or_null(src->verify_results_dir);
    dst->verify_save_dir = dup_or_null(src->verify_save_dir);
    dst->verify_export_dir = dup_or_null(src->verify_export_dir);
    dst->reference_dir = dup_or_null(src->reference_dir);
    dst->python = dup_or_null(src->python);
    dst->config_path = dup_or_null(src->config_path);
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
