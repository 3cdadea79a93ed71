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
    free(o->verify_results_dir);
    free(o->verify_save_dir);
    free(o->verify_export_dir);
    free(o->reference_dir);
    free(o->python);
    for (uint32_t i = 0; i < o->extra_args.len; i++)
        free(o->extra_args.data[i]);
    kc_vec_free(&o->extra_args);
    memset(o, 0, sizeof *o);
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
