/* fuzz_common.h — what the libFuzzer harnesses share: run options with
 * every rule on, and the per-file pipeline of kc_check_file (lower, rules,
 * suppressions, fingerprints, every reporter, --fix's fixed text and
 * its re-check) on a source held in memory. */
#ifndef KC_FUZZ_COMMON_H
#define KC_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kc_base.h"
#include "kc_diag.h"
#include "kc_fingerprint.h"
#include "kc_fixfile.h"
#include "kc_frontend.h"
#include "kc_options.h"
#include "kc_report.h"
#include "kc_source.h"
#include "kc_suppress.h"
#include "kc_rule.h"

/* Options of a plain run with every rule (and KC001) enabled. */
static inline kc_options *fuzz_options(void)
{
    static kc_options o;
    static int ready;
    if (!ready) {
        kc_options_init(&o);
        o.rule_enabled_len = kc_rules_count();
        o.rule_enabled = kc_xcalloc(o.rule_enabled_len, 1);
        memset(o.rule_enabled, 1, o.rule_enabled_len);
        o.report_unused_suppressions = true;
        o.show_source = true;
        ready = 1;
    }
    return &o;
}

static inline FILE *fuzz_devnull(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

/* Renders the diagnostics of one file in every output format, through the
 * reporters' own entry points (the file result is a view: nothing in it is
 * freed here). */
static inline void fuzz_report(const kc_options *o, const char *path, kc_source *src, const kc_diag_list *diags)
{
    static const kc_format formats[] = {KC_FORMAT_TEXT, KC_FORMAT_JSON, KC_FORMAT_SARIF, KC_FORMAT_GITHUB};
    kc_file_result r;
    memset(&r, 0, sizeof r);
    r.path = (char *)path;
    r.src = src;
    r.diags = *diags;
    kc_run_totals t;
    memset(&t, 0, sizeof t);
    t.files = 1;
    t.diags[1] = diags->items.len;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        kc_options fo = *o; /* a shallow copy: the reporter only reads it */
        fo.format = formats[i];
        kc_reporter *rep = kc_reporter_new(&fo, fuzz_devnull(), fuzz_devnull());
        kc_reporter_file(rep, &r);
        kc_reporter_finish(rep, &t);
        kc_reporter_delete(rep);
    }
}

/* Lowers and checks one text; returns the model-free diagnostics in *out
 * (caller frees) or false when the text did not lower. */
static inline int fuzz_analyze(kc_frontend *fe, const kc_options *o, const kc_source *src, kc_lang lang, kc_diag_list *out)
{
    kc_file_errors errs = {0};
    kc_model *m = kc_frontend_lower(fe, src, lang, NULL, &errs);
    int ok = m != NULL;
    if (m) {
        kc_rules_run(m, o, out);
        kc_model_dump(fuzz_devnull(), m);
        kc_model_delete(m);
        kc_diag_list_sort_unique(out);
        kc_suppress_counts sc = {0};
        kc_suppress_apply(src, lang, o, out, &sc);
        kc_diag_list_sort_unique(out);
        kc_fingerprint_diags(src, src->path, NULL, out);
    }
    kc_file_errors_free(&errs);
    return ok;
}

static inline void fuzz_pipeline(kc_frontend *fe, kc_lang lang, const char *path, const uint8_t *data, size_t size)
{
    const kc_options *o = fuzz_options();
    char *err = NULL;
    kc_source *src = kc_source_from_memory(path, (const char *)data, size, o->max_file_size, &err);
    if (!src) {
        free(err);
        return;
    }
    kc_diag_list diags = {0};
    if (fuzz_analyze(fe, o, src, lang, &diags)) {
        fuzz_report(o, path, src, &diags);
        /* --fix: the fixed text is checked again before it would be written. */
        size_t nlen = 0, nfixed = 0;
        char *text = kc_fix_text(src, &diags, &nlen, &nfixed, &err);
        if (text && nfixed) {
            kc_strbuf sb = {0};
            kc_diff_unified(&sb, path, src->text, src->len, text, nlen);
            kc_sb_free(&sb);
            char *err2 = NULL;
            kc_source *fixed = kc_source_from_memory(path, text, nlen, (size_t)-1, &err2);
            if (fixed) {
                kc_diag_list after = {0};
                fuzz_analyze(fe, o, fixed, lang, &after);
                kc_diag_list_free(&after);
                kc_source_delete(fixed);
            }
            free(err2);
        }
        free(text);
        free(err);
    }
    kc_diag_list_free(&diags);
    kc_source_delete(src);
}

#endif
