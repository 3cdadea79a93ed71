/* The summary line the text and GitHub formats end with. */
#include "report_internal.h"

#include "kc_rule.h"

#include <stdlib.h>
#include <string.h>

static void plural(FILE *out, size_t n, const char *one, const char *many)
{
    fprintf(out, "%zu %s", n, n == 1 ? one : many);
}

/* ", 3 suppressed, 2 in the baseline" */
static void hidden(FILE *out, const kc_run_totals *t)
{
    if (t->suppressed)
        fprintf(out, ", %zu suppressed", t->suppressed);
    if (t->baselined)
        fprintf(out, ", %zu in the baseline", t->baselined);
    if (t->below_severity)
        fprintf(out, ", %zu hidden by --severity", t->below_severity);
    if (t->unchanged)
        fprintf(out, ", %zu on unchanged lines (--diff-base)", t->unchanged);
}

/* ", 2 analysed in part (KC002 notes say what is missing)" */
static void partial(FILE *out, const kc_options *o, const kc_run_totals *t)
{
    if (!t->incomplete)
        return;
    fprintf(out, ", %zu analysed in part", t->incomplete);
    if (o->min_severity > KC_SEV_NOTE)
        fprintf(out, " (--severity note shows what is missing)");
}

void kc_report_summary(FILE *out, const kc_options *o, const kc_run_totals *t)
{
    if (t->fixed) {
        fprintf(out, "kcheck: fixed ");
        plural(out, t->fixed, "finding", "findings");
        fprintf(out, " in ");
        plural(out, t->files_fixed, "file", "files");
        fputc('\n', out);
    }
    size_t total = t->diags[0] + t->diags[1] + t->diags[2];
    if (total == 0 && t->file_errors == 0) {
        fprintf(out, "kcheck: no findings (");
        plural(out, t->files, "file", "files");
        fprintf(out, " checked");
        partial(out, o, t);
        hidden(out, t);
        fprintf(out, ")\n");
        return;
    }
    fprintf(out, "kcheck: ");
    bool first = true;
    static const char *const one[] = {"note", "warning", "error"};
    static const char *const many[] = {"notes", "warnings", "errors"};
    for (int s = 2; s >= 0; s--) {
        if (!t->diags[s])
            continue;
        if (!first)
            fprintf(out, ", ");
        plural(out, t->diags[s], one[s], many[s]);
        first = false;
    }
    if (t->file_errors) {
        if (!first)
            fprintf(out, ", ");
        plural(out, t->file_errors, "file", "files");
        fprintf(out, " not checked");
    }
    fprintf(out, " (");
    plural(out, t->files, "file", "files");
    partial(out, o, t);
    hidden(out, t);
    fprintf(out, ")\n");
}
