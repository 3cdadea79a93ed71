/* kc_result.h — what a run found: one result per file, and the run's
 * totals. Produced by the engine (kc_driver.h), read by the reporters,
 * verify and the result cache.
 */
#ifndef KC_RESULT_H
#define KC_RESULT_H

#include "kc_diag.h"
#include "kc_options.h"
#include "kc_source.h"

/* Where a kernel of the file is, kept after the model is gone (verify
 * binds annotations to kernels by position). */
typedef struct kc_kernel_ref {
    char *name; /* owned */
    uint32_t line, end_line;
    kc_lang lang;
} kc_kernel_ref;

typedef KC_VEC(kc_kernel_ref) kc_kernel_ref_vec;

/* Verify's check of a bound kernel that has no findings: do its outputs
 * match the reference? */
typedef struct kc_verify_check {
    uint32_t line;       /* of the binding */
    char *op;            /* owned */
    char *status;        /* "clean", "mismatch", "inconclusive"; owned */
    char *summary;       /* owned */
} kc_verify_check;

typedef struct kc_file_result {
    char *path;         /* as given or as found under a given directory; owned */
    kc_source *src;     /* NULL when the file could not be read; owned (after --fix: the fixed text) */
    kc_diag_list diags; /* reported: sorted, unique, fingerprinted; suppressed, below --severity and
                           baselined findings removed */
    kc_file_errors errors;
    bool explicit_path; /* named on the command line (not found by a walk) */
    kc_kernel_ref_vec kernels;
    KC_VEC(kc_verify_check) checks; /* verify mode only */

    /* The file's effective options (kc_config.h); borrowed from the
     * configuration set, which outlives the run. NULL: the run's options. */
    const kc_options *opts;
    kc_diag_list baselined;  /* findings hidden by --baseline (kept for --write-baseline) */
    size_t suppressed;       /* findings hidden by suppression comments */
    size_t below_severity;   /* findings below --severity */
    size_t unchanged;        /* findings on lines --diff-base's revision already had */
    size_t fixed;            /* findings whose fix-it was applied (--fix) or shown (--diff) */
    char *diff;              /* --diff: the unified diff of the fix-its, or NULL; owned */
    kc_peers peers;          /* files of the run that import this one (kc_project.h); borrowed */
    /* KC002 notes (what could not be analysed) below --severity: not
     * reported as findings, still listed by JSON and SARIF and counted by
     * the summary line. */
    kc_diag_list incomplete;
    bool skipped;            /* a C/C++ header without device code, a C++ source without a kernel: passed over */
    char *cache_error;       /* why its result could not be kept in the result cache, or NULL; owned */
} kc_file_result;

/* Is d a KC002 note on what the analysis of its file lacks? */
bool kc_diag_is_incomplete(const kc_diag *d);
/* Did the file's analysis lack something (a KC002 note, shown or not)? */
bool kc_file_result_incomplete(const kc_file_result *r);

void kc_file_result_free(kc_file_result *r);

/* Findings per run, for the summary line, --stats and the exit status. */
typedef struct kc_run_totals {
    size_t files;        /* files checked (including those with errors) */
    size_t file_errors;  /* files that could not be checked */
    size_t diags[3];     /* by severity */
    size_t failing;      /* diagnostics at or above opts->fail_on */
    size_t suppressed;   /* hidden by suppression comments */
    size_t baselined;    /* hidden by --baseline */
    size_t below_severity; /* below --severity */
    size_t unchanged;      /* on lines unchanged since --diff-base */
    size_t fixed;        /* fix-its applied (--fix) or shown (--diff) */
    size_t files_fixed;  /* files changed (--fix) or with a diff (--diff) */
    size_t incomplete;   /* files checked whose analysis lacks something (KC002) */
    size_t skipped;      /* headers without device code and C++ sources without kernels, passed over (not in `files`) */
    size_t cache_unwritten; /* files whose result could not be written to the result cache */
    char *cache_error;   /* why, for the first of them; owned */
    size_t *by_rule;     /* reported findings per rule (kc_rules_get index); owned */
    size_t nrules;
    double seconds;      /* wall time of the run, set by the caller for --stats */
    /* Files given up over --file-timeout (reported with an error) whose
     * worker thread is still busy with them: it may still use the run's
     * options and configuration, so the process must end, once it has
     * reported, without freeing them or running exit handlers (_exit). */
    size_t stranded;
} kc_run_totals;

void kc_run_totals_free(kc_run_totals *t);

#endif
