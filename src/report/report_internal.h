/* report_internal.h — what the reporters share (internal to the
 * reporters: kc_report.c and one file per format). */
#ifndef KC_REPORT_INTERNAL_H
#define KC_REPORT_INTERNAL_H

#include "kc_report.h"

typedef struct kc_reporter_ops {
    void (*file)(kc_reporter *r, const kc_file_result *res);
    void (*finish)(kc_reporter *r, const kc_run_totals *t);
    void (*destroy)(kc_reporter *r);
} kc_reporter_ops;

/* The first member of every format's reporter. */
struct kc_reporter {
    const kc_reporter_ops *ops;
    const kc_options *opts;
    FILE *out;
};

/* One constructor per format (the table in kc_report.c lists them). */
kc_reporter *kc_report_text_new(const kc_options *opts, FILE *out, FILE *err);
kc_reporter *kc_report_json_new(const kc_options *opts, FILE *out, FILE *err);
kc_reporter *kc_report_sarif_new(const kc_options *opts, FILE *out, FILE *err);
kc_reporter *kc_report_github_new(const kc_options *opts, FILE *out, FILE *err);
/* --diff: the unified diffs of the fix-its on `out`; file errors and the
 * summary on `err`, so that `out` stays a patch. */
kc_reporter *kc_report_diff_new(const kc_options *opts, FILE *out, FILE *err);

/* The summary line ("kcheck: 2 warnings (3 files)"), with what --fix did
 * and what suppressions and the baseline hid. */
void kc_report_summary(FILE *out, const kc_options *o, const kc_run_totals *t);

#endif
