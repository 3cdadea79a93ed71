/* kc_options.h — the run context: every setting of one kcheck run.
 *
 * There is no global mutable state: the driver, the front ends and the
 * rules receive a const kc_options. Its fields are listed once, in
 * KC_OPTIONS_FIELDS below.
 */
#ifndef KC_OPTIONS_H
#define KC_OPTIONS_H

#include "kc_base.h"
#include "kc_diag.h"

typedef enum kc_format {
    KC_FORMAT_TEXT = 0, /* compiler style */
    KC_FORMAT_JSON,     /* the JSON document (README.md, "JSON output") */
    KC_FORMAT_SARIF,    /* SARIF 2.1.0 */
    KC_FORMAT_GITHUB,   /* GitHub Actions workflow commands */
    KC_FORMAT_DIFF,     /* --diff: unified diffs of the fix-its, nothing else */
    KC_FORMAT_CONCISE,  /* one line per finding (compiler style, no source, notes or fix-it) */
} kc_format;

struct kc_baseline;
struct kc_changed;

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

/* Every field of kc_options, once: the struct, its defaults, kc_options_free,
 * kc_options_copy and the result cache's key (kc_cache.c) are all made from
 * this list, so that a new setting cannot be left out of any of them
 * (tests/unit/core/test_options.c checks each field against its entry).
 *
 *   X(type, name, kind, key, conf, default)
 *
 * kind: how the field is owned, which says how it is copied and freed:
 *   VALUE     a plain value, copied by assignment
 *   STRING    a malloc'd string or NULL, duplicated by a copy, freed
 *   BORROWED  a pointer the caller of the run owns: copied, never freed
 *   FLAGS     a malloc'd array of NAME_len bytes (the field NAME_len follows it), or NULL
 *   RULE_OPTS the -o RULE.NAME=VALUE settings, each string owned
 *   STRINGS   a vector of owned strings
 * key: whether the field changes what the front ends and the rules produce
 * for a file (the result cache keeps exactly that: findings before
 * suppressions, filters and the baseline are applied):
 *   KEY       yes, for every file
 *   KEY_CUDA  yes, for CUDA files
 *   NOKEY     no: it only selects, filters, formats or places the output,
 *             or says how the run is carried out
 * conf: the .kcheck.yaml setting that sets the field (kc_config.h; the
 * --dump-config output shows each), or NULL for command-line-only fields.
 * default: the value kc_options_init gives it. */
#define KC_OPTIONS_FIELDS(X)                                                                        \
    /* output */                                                                                    \
    X(kc_format, format, VALUE, NOKEY, NULL, KC_FORMAT_TEXT)                                        \
    X(bool, color, VALUE, NOKEY, NULL, false)       /* text output in colour */                     \
    X(bool, show_source, VALUE, NOKEY, NULL, true)  /* text output shows the line and a caret */    \
    X(kc_severity, fail_on, VALUE, NOKEY, NULL, KC_SEV_WARNING) /* lowest severity failing the run */ \
    X(kc_severity, min_severity, VALUE, NOKEY, NULL, KC_SEV_WARNING) /* --severity: lowest reported */ \
    X(bool, quiet, VALUE, NOKEY, NULL, false)       /* --quiet: no summary line, nothing on success */ \
    X(bool, stats, VALUE, NOKEY, NULL, false)       /* --stats: per-rule counts, files, time */     \
    X(bool, fix, VALUE, NOKEY, NULL, false)         /* --fix: apply the fix-its to the files */     \
    X(bool, fix_any_owner, VALUE, NOKEY, NULL, false) /* --fix-any-owner: also other users' files */ \
    /* the run */                                                                                   \
    X(unsigned, jobs, VALUE, NOKEY, NULL, 1)        /* worker threads, >= 1 */                      \
    X(bool, no_cache, VALUE, NOKEY, NULL, false)    /* --no-cache: no result cache */               \
    X(char *, cache_dir, STRING, NOKEY, NULL, NULL) /* --cache-dir (kc_cache_root) */               \
    /* --no-header-cache: parse the CUDA headers for every file (the same findings, slower) */      \
    X(bool, no_header_cache, VALUE, NOKEY, NULL, false)                                             \
    /* --report-unused-suppressions (KC001, reported after the cache) */                            \
    X(bool, report_unused_suppressions, VALUE, NOKEY, NULL, false)                                  \
    X(size_t, max_file_size, VALUE, NOKEY, NULL, 64u * 1024u * 1024u) /* bytes; larger: an error */ \
    /* --file-timeout: a file whose analysis runs longer is given up, as an error; 0: no limit */   \
    X(double, file_timeout_s, VALUE, NOKEY, NULL, 120)                                              \
    /* --file-memory: a file whose parse or model needs more bytes is given up, as an error; 0: none */ \
    X(size_t, file_memory, VALUE, KEY, NULL, (size_t)4 << 30)                                         \
    /* the rules: one flag per rule of the registry (kc_rules_count()); NULL: all enabled */        \
    X(uint8_t *, rule_enabled, FLAGS, KEY, "select", NULL)                                          \
    X(size_t, rule_enabled_len, VALUE, NOKEY, NULL, 0) /* (hashed with rule_enabled) */             \
    X(kc_rule_option_vec, rule_options, RULE_OPTS, KEY, "options", {0})                             \
    /* the CUDA front end */                                                                        \
    X(kc_cuda_mode, cuda_mode, VALUE, KEY_CUDA, "cuda.toolkit", KC_CUDA_SHIM)                       \
    X(char *, cuda_path, STRING, KEY_CUDA, "cuda.path", NULL) /* toolkit root, or NULL: detect */   \
    X(char *, cuda_arch, STRING, KEY_CUDA, "cuda.arch", NULL) /* e.g. "sm_75"; NULL: the default */ \
    X(char *, compile_db_dir, STRING, KEY_CUDA, "cuda.compile-commands", NULL) /* -p DIR */         \
    X(kc_string_vec, extra_args, STRINGS, KEY_CUDA, "cuda.args", {0}) /* after "--" */              \
    /* verify mode (after the analysis: never in the key) */                                        \
    X(bool, verify, VALUE, NOKEY, NULL, false)                                                      \
    X(bool, verify_no_run, VALUE, NOKEY, NULL, false)    /* plan and build, do not run */           \
    X(bool, verify_keep, VALUE, NOKEY, NULL, false)      /* keep the temporary directory */         \
    X(double, verify_timeout_s, VALUE, NOKEY, NULL, 300) /* per run */                              \
    X(char *, verify_results_dir, STRING, NOKEY, NULL, NULL) /* read recorded results instead */    \
    X(char *, verify_save_dir, STRING, NOKEY, NULL, NULL)    /* copy raw results here */            \
    X(char *, verify_export_dir, STRING, NOKEY, NULL, NULL)  /* a bundle to run elsewhere */        \
    X(char *, verify_run_cmd, STRING, NOKEY, NULL, NULL)     /* --run: the user's command */        \
    X(char *, reference_dir, STRING, NOKEY, NULL, NULL)      /* kernels/reference */                \
    X(char *, python, STRING, NOKEY, NULL, NULL)             /* interpreter for Triton harnesses */ \
    /* --baseline: findings to hide (applied after the cache) */                                    \
    X(const struct kc_baseline *, baseline, BORROWED, NOKEY, NULL, NULL)                            \
    /* --diff-base: the lines changed since a revision (applied after the cache) */                  \
    X(struct kc_changed *, changed, BORROWED, NOKEY, NULL, NULL)                                    \
    /* the .kcheck.yaml these options came from, or NULL (its settings are the fields above) */     \
    X(char *, config_path, STRING, NOKEY, NULL, NULL)                                               \
    /* --root: what fingerprints, baselines and SARIF name files relative to (NULL: the repository) */ \
    X(char *, root, STRING, NOKEY, NULL, NULL)

typedef KC_VEC(kc_rule_option) kc_rule_option_vec;
typedef KC_VEC(char *) kc_string_vec;

typedef struct kc_options {
#define KC_OPTIONS_FIELD_(type, name, kind, key, conf, def) type name;
    KC_OPTIONS_FIELDS(KC_OPTIONS_FIELD_)
#undef KC_OPTIONS_FIELD_
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
