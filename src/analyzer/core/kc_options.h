/* kc_options.h — the run context: every setting of one kcheck run.
 *
 * There is no global mutable state: the driver, the front ends and the
 * rules receive a const kc_options. Owned strings are freed by
 * kc_options_free.
 */
#ifndef KC_OPTIONS_H
#define KC_OPTIONS_H

#include "kc_base.h"
#include "kc_diag.h"

typedef enum kc_format {
    KC_FORMAT_TEXT = 0, /* compiler style */
    KC_FORMAT_JSON,     /* the JSON document of DESIGN.md */
    KC_FORMAT_SARIF,    /* SARIF 2.1.0 */
    KC_FORMAT_GITHUB,   /* GitHub Actions workflow commands */
    KC_FORMAT_DIFF,     /* --diff: unified diffs of the fix-its, nothing else */
} kc_format;

struct kc_baseline;

/* A per-rule option such as KC201.max-trip-count=64. */
typedef struct kc_rule_option {
    char *rule;  /* rule ID, e.g. "KC201" */
    char *name;  /* e.g. "max-trip-count" */
    char *value;
} kc_rule_option;

typedef enum kc_cuda_mode {
    KC_CUDA_SHIM = 0,  /* in-memory stand-ins for the CUDA headers (fast, default) */
    KC_CUDA_TOOLKIT,   /* the real toolkit headers */
} kc_cuda_mode;

typedef struct kc_options {
    kc_format format;
    unsigned jobs;           /* worker threads, >= 1 */
    bool color;              /* text output in colour */
    bool show_source;        /* text output shows the line and a caret */
    kc_severity fail_on;     /* lowest severity that makes the exit status 1 */
    kc_severity min_severity; /* --severity: lowest severity reported at all */
    bool quiet;              /* --quiet: no summary line, nothing on success */
    bool stats;              /* --stats: per-rule counts, files, time */
    bool fix;                /* --fix: apply the fix-its to the files */
    bool no_cache;           /* --no-cache: do not read or write the result cache */
    char *cache_dir;         /* --cache-dir: where results are cached (kc_cache_dir) */
    bool no_header_cache;    /* --no-header-cache: parse the CUDA headers (shim or toolkit) for every file */
    bool report_unused_suppressions; /* --report-unused-suppressions (KC001) */
    /* One flag per rule: the registry's (kc_rules_count()) followed by
     * kcheck's own diagnostics (kc_suppress.h); owned. NULL: all enabled. */
    uint8_t *rule_enabled;
    size_t rule_enabled_len;
    KC_VEC(kc_rule_option) rule_options;
    size_t max_file_size;    /* bytes */

    /* CUDA front end */
    kc_cuda_mode cuda_mode;
    char *cuda_path;         /* toolkit root for KC_CUDA_TOOLKIT, or NULL to detect */
    char *cuda_arch;         /* e.g. "sm_75" */
    char *compile_db_dir;    /* -p DIR: directory holding compile_commands.json */
    KC_VEC(char *) extra_args; /* after "--": extra compiler arguments */

    /* verify mode */
    bool verify;
    bool verify_no_run;      /* plan and build, do not run */
    bool verify_keep;        /* keep the temporary directory */
    double verify_timeout_s; /* per run */
    char *verify_results_dir; /* read recorded results instead of running */
    char *verify_save_dir;    /* copy raw results here */
    char *verify_export_dir;  /* write a self-contained bundle to run elsewhere */
    char *reference_dir;      /* kernels/reference */
    char *python;             /* interpreter for Triton harnesses */

    /* Borrowed, owned by the caller of the run; NULL when not used. */
    const struct kc_baseline *baseline; /* --baseline: findings to hide */
    char *config_path;        /* the .kcheck.yaml these options came from, or NULL; owned */
} kc_options;

void kc_options_init(kc_options *o);
void kc_options_free(kc_options *o);
/* Deep copy of `src` into `dst` (borrowed pointers stay borrowed); free
 * with kc_options_free. */
void kc_options_copy(kc_options *dst, const kc_options *src);
/* Looks up a rule option; NULL when not set. */
const char *kc_options_rule_option(const kc_options *o, const char *rule_id, const char *name);

/* kcheck's cache directory (--cache-dir, $KCHECK_CACHE_DIR,
 * $XDG_CACHE_HOME/kcheck, ~/.cache/kcheck) whether or not --no-cache is
 * given: the result cache (kc_cache.h) and toolkit mode's header cache
 * live there. NULL when none can be named. Caller frees. */
char *kc_cache_root(const kc_options *o);

#endif
