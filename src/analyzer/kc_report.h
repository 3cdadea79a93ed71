/* kc_report.h — reporters turn file results into output. They are the only
 * code that prints diagnostics. */
#ifndef KC_REPORT_H
#define KC_REPORT_H

#include <stdio.h>

#include "kc_driver.h"

typedef struct kc_reporter kc_reporter;

typedef struct kc_reporter_ops {
    void (*file)(kc_reporter *r, const kc_file_result *res);
    void (*finish)(kc_reporter *r, const kc_run_totals *t);
    void (*destroy)(kc_reporter *r);
} kc_reporter_ops;

struct kc_reporter {
    const kc_reporter_ops *ops;
    const kc_options *opts;
    FILE *out;
};

/* The reporter of opts->format, writing to `out` (--diff: messages on stderr). */
kc_reporter *kc_reporter_new(const kc_options *opts, FILE *out);
void kc_reporter_delete(kc_reporter *r); /* NULL-safe */

kc_reporter *kc_report_text_new(const kc_options *opts, FILE *out);
kc_reporter *kc_report_json_new(const kc_options *opts, FILE *out);
/* SARIF 2.1.0 (kc_report_sarif.c). */
kc_reporter *kc_report_sarif_new(const kc_options *opts, FILE *out);
/* GitHub Actions workflow commands (kc_report_github.c). */
kc_reporter *kc_report_github_new(const kc_options *opts, FILE *out);
/* --diff: the unified diffs of the fix-its on `out`; file errors and the
 * summary on `err`, so that `out` stays a patch. */
kc_reporter *kc_report_diff_new(const kc_options *opts, FILE *out, FILE *err);

/* The summary line ("kcheck: 2 warnings (3 files)"), with what --fix did
 * and what suppressions and the baseline hid. */
void kc_report_text_summary(FILE *out, const kc_options *o, const kc_run_totals *t);

/* --stats: files, time, findings per rule, what was hidden. */
void kc_report_stats(FILE *out, const kc_run_totals *t);

/* Writes the diagnostic in compiler style (used by the text reporter and by
 * tests): location, severity, message, [ID slug], source line, caret,
 * notes, fix-it. */
void kc_report_text_diag(FILE *out, const kc_options *opts, const kc_source *src,
                         const char *path, const kc_diag *d);

#endif
