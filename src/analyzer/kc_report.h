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

kc_reporter *kc_reporter_new(const kc_options *opts, FILE *out);
void kc_reporter_delete(kc_reporter *r); /* NULL-safe */

kc_reporter *kc_report_text_new(const kc_options *opts, FILE *out);
kc_reporter *kc_report_json_new(const kc_options *opts, FILE *out);

/* Writes the diagnostic in compiler style (used by the text reporter and by
 * tests): location, severity, message, [ID slug], source line, caret,
 * notes, fix-it. */
void kc_report_text_diag(FILE *out, const kc_options *opts, const kc_source *src,
                         const char *path, const kc_diag *d);

#endif
