/* The format table every reporter is made from, the reporter calls, and
 * --stats. */
#include "kc_report.h"
#include "report_internal.h"

#include "kc_rule.h"

#include <stdlib.h>
#include <string.h>

/* Every output format, once: --format's names, its error message and the
 * factory come from this table. */
static const struct {
    const char *name; /* --format NAME; NULL: not selectable by name (--diff) */
    kc_format format;
    kc_reporter *(*create)(const kc_options *opts, FILE *out, FILE *err);
} formats[] = {
    {"text", KC_FORMAT_TEXT, kc_report_text_new},
    {"concise", KC_FORMAT_CONCISE, kc_report_concise_new},
    {"json", KC_FORMAT_JSON, kc_report_json_new},
    {"sarif", KC_FORMAT_SARIF, kc_report_sarif_new},
    {"github", KC_FORMAT_GITHUB, kc_report_github_new},
    {NULL, KC_FORMAT_DIFF, kc_report_diff_new},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

bool kc_report_format_parse(const char *name, kc_format *out)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].name && strcmp(formats[i].name, name) == 0) {
            *out = formats[i].format;
            return true;
        }
    return false;
}

char *kc_report_format_names(const char *sep)
{
    kc_strbuf sb = {0};
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].name) {
            if (sb.len)
                kc_sb_append(&sb, sep);
            kc_sb_append(&sb, formats[i].name);
        }
    return kc_sb_take(&sb);
}

kc_reporter *kc_reporter_new(const kc_options *opts, FILE *out, FILE *err)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].format == opts->format)
            return formats[i].create(opts, out, err);
    return kc_report_text_new(opts, out, err);
}

void kc_reporter_file(kc_reporter *r, const kc_file_result *res) { r->ops->file(r, res); }

void kc_reporter_finish(kc_reporter *r, const kc_run_totals *t) { r->ops->finish(r, t); }

void kc_reporter_delete(kc_reporter *r)
{
    if (r)
        r->ops->destroy(r);
}

void kc_report_stats(FILE *out, const kc_run_totals *t)
{
    fprintf(out, "kcheck statistics:\n");
    size_t total = 0;
    for (size_t i = 0; i < t->nrules; i++) {
        if (!t->by_rule[i])
            continue;
        const kc_rule *r = kc_rules_get(i);
        fprintf(out, "  %6zu  %-6s %-28s %s\n", t->by_rule[i], r->id, r->slug, kc_severity_name(r->severity));
        total += t->by_rule[i];
    }
    fprintf(out, "  %6zu  findings reported\n", total);
    fprintf(out, "  %6zu  suppressed by comments\n", t->suppressed);
    fprintf(out, "  %6zu  hidden by the baseline\n", t->baselined);
    fprintf(out, "  %6zu  hidden by --severity\n", t->below_severity);
    fprintf(out, "  %6zu  on lines unchanged since --diff-base\n", t->unchanged);
    if (t->fixed)
        fprintf(out, "  %6zu  fixed, in %zu files\n", t->fixed, t->files_fixed);
    fprintf(out, "  files: %zu checked (%zu analysed in part), %zu not checked", t->files - t->file_errors,
            t->incomplete, t->file_errors);
    if (t->skipped)
        fprintf(out, ", %zu header%s or C++ source%s without device code passed over", t->skipped,
                t->skipped == 1 ? "" : "s", t->skipped == 1 ? "" : "s");
    fprintf(out, "; time: %.3f s", t->seconds);
    if (t->seconds > 0 && t->files)
        fprintf(out, " (%.1f ms per file)", 1000.0 * t->seconds / (double)t->files);
    fputc('\n', out);
}

