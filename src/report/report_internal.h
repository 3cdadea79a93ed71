/* report_internal.h — what the reporters share (internal to the
 * reporters: kc_report.c and one file per format). */
#ifndef KC_REPORT_INTERNAL_H
#define KC_REPORT_INTERNAL_H

#include <stdio.h>

#include <jansson.h>

#include "kc_result.h"

/* Also declared by kc_report.h, which the formats do not need. */
typedef struct kc_reporter kc_reporter;

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
/* The text format's first lines only: one line per finding, file error and
 * verify check, then the summary. */
kc_reporter *kc_report_concise_new(const kc_options *opts, FILE *out, FILE *err);
kc_reporter *kc_report_json_new(const kc_options *opts, FILE *out, FILE *err);
kc_reporter *kc_report_sarif_new(const kc_options *opts, FILE *out, FILE *err);
kc_reporter *kc_report_github_new(const kc_options *opts, FILE *out, FILE *err);
/* --diff: the unified diffs of the fix-its on `out`; file errors and the
 * summary on `err`, so that `out` stays a patch. */
kc_reporter *kc_report_diff_new(const kc_options *opts, FILE *out, FILE *err);

/* A JSON string of text that may not be valid UTF-8 (a file name, a
 * source line): jansson refuses those, and the field would be lost. */
json_t *kc_report_json_text(const char *s);
/* `path` with what a terminal would act on (newlines, escape sequences,
 * other control bytes) written as C escapes; malloc'd. */
char *kc_report_printable(const char *path);

/* The summary line ("kcheck: 2 warnings (3 files)"), with what --fix did
 * and what suppressions and the baseline hid. */
void kc_report_summary(FILE *out, const kc_options *o, const kc_run_totals *t);

/* Writes the diagnostic in compiler style (kc_report_text.c): location, severity, message, [ID slug], source line, caret,
 * notes, fix-it. */
void kc_report_text_diag(FILE *out, const kc_options *opts, const kc_source *src, const char *path,
                         const kc_diag *d);

#endif
