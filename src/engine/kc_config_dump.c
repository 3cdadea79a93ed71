/* kc_config_dump.c — --dump-config: effective options as a .kcheck.yaml
 * (kc_config.h). */
#include "kc_config.h"

#include "kc_rule.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- --dump-config -------------------------------------------------------------- */

static void yaml_scalar_out(FILE *out, const char *s)
{
    static const char *const special[] = {"true", "false", "yes", "no", "on", "off", "null", "~", ""};
    bool plain = isalnum((unsigned char)s[0]) || s[0] == '_' || s[0] == '/' || s[0] == '.';
    for (const char *p = s; *p && plain; p++)
        plain = isalnum((unsigned char)*p) || strchr("_./+=-", *p);
    for (size_t i = 0; i < sizeof special / sizeof special[0] && plain; i++)
        if (strcasecmp(s, special[i]) == 0)
            plain = false;
    if (plain) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void kc_config_dump(FILE *out, const kc_options *o, const char *path)
{
    fprintf(out, "# kcheck --dump-config: the effective configuration for %s\n", path);
    if (o->config_path)
        fprintf(out, "# configuration file: %s\n", o->config_path);
    else
        fprintf(out, "# configuration file: none (defaults and the command line)\n");
    fputs("select: [", out);
    bool first = true;
    for (size_t i = 0; i < kc_rules_count(); i++) {
        if (!kc_rules_enabled(o, i))
            continue;
        fprintf(out, "%s%s", first ? "" : ", ", kc_rules_get(i)->id);
        first = false;
    }
    fputs("]\n", out);
    fputs("options:", out);
    bool any = false;
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = kc_rules_get(i);
        for (const kc_rule_option_doc *d = r->options; d && d->name; d++) {
            const char *v = kc_options_rule_option(o, r->id, d->name);
            fprintf(out, "%s  %s.%s: ", any ? "" : "\n", r->id, d->name);
            yaml_scalar_out(out, v ? v : d->default_value);
            fprintf(out, "%s\n", v ? "" : "  # default");
            any = true;
        }
    }
    if (!any)
        fputs(" {}\n", out);
    fputs("cuda:\n", out);
    fprintf(out, "  toolkit: %s\n", o->cuda_mode == KC_CUDA_TOOLKIT ? "true" : "false");
    fputs("  arch: ", out);
    yaml_scalar_out(out, o->cuda_arch ? o->cuda_arch : "sm_75");
    fputs(o->cuda_arch ? "\n" : "  # default (or the -arch of the arguments)\n", out);
    if (o->cuda_path) {
        fputs("  path: ", out);
        yaml_scalar_out(out, o->cuda_path);
        fputc('\n', out);
    }
    if (o->compile_db_dir) {
        fputs("  compile-commands: ", out);
        yaml_scalar_out(out, o->compile_db_dir);
        fputc('\n', out);
    }
    fputs("  args: [", out);
    for (uint32_t i = 0; i < o->extra_args.len; i++) {
        if (i)
            fputs(", ", out);
        yaml_scalar_out(out, o->extra_args.data[i]);
    }
    fputs("]\n", out);
}
