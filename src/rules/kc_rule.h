/* kc_rule.h — the interface every rule implements.
 *
 * A rule is one file in src/rules/, named kcNNN_slug.c, defining one
 * `const kc_rule kcNNN_slug` and listed once in rules.def. A rule reads the
 * kernel model only (never a front end header), never branches on the
 * source language where the model already expresses the concept, and
 * returns diagnostics through kc_report; it never prints or exits.
 */
#ifndef KC_RULE_H
#define KC_RULE_H

#include "kc_diag.h"
#include "kc_model.h"
#include "kc_options.h"

typedef struct kc_rule_ctx kc_rule_ctx;

/* A documented per-rule option, e.g. KC201.max-trip-count. */
typedef struct kc_rule_option_doc {
    const char *name;
    const char *default_value;
    const char *help;
} kc_rule_option_doc;

/* What kind of experiment confirms a finding of the rule (verify mode). */
typedef enum kc_verify_kind {
    KC_VERIFY_NONE = 0,
    KC_VERIFY_WRONG_RESULT,  /* outputs differ from the reference */
    KC_VERIFY_COMPILE_ERROR, /* the kernel does not compile */
    KC_VERIFY_PERF_RUNTIME,  /* slower than the reference / than the fixed copy */
    KC_VERIFY_PERF_COMPILE,  /* compile time (and run time) blow-up */
    KC_VERIFY_MEMORY,        /* compute-sanitizer memcheck */
    KC_VERIFY_RACE,          /* compute-sanitizer racecheck / synccheck */
    KC_VERIFY_OVERFLOW,      /* memcheck too, but only offsets past 2^31 elements can show it */
} kc_verify_kind;

/* The per-source-line counter of Nsight Compute that shows a performance
 * finding at its line (verify --run), against the counter's ideal. */
typedef enum kc_verify_metric {
    KC_METRIC_NONE = 0,
    KC_METRIC_GLOBAL_SECTORS,    /* L2 sectors of global accesses vs. those a coalesced access needs */
    KC_METRIC_SHARED_WAVEFRONTS, /* shared-memory wavefronts vs. those a conflict-free access needs */
} kc_verify_metric;

typedef struct kc_rule {
    const char *id;          /* "KC101": stable forever */
    const char *slug;        /* "uncoalesced-access" */
    const char *summary;     /* one sentence, reused by --list-rules, docs and SARIF */
    kc_severity severity;    /* default severity */
    unsigned langs;          /* KC_LANG_BIT_* */
    /* Markdown with the fixed headings: What it does / Why is this bad? /
     * Example / Use instead / Fix / References. */
    const char *doc;
    const kc_rule_option_doc *options; /* terminated by a {NULL} entry; may be NULL */
    void (*check)(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx);
    kc_verify_kind verify; /* how verify mode confirms a finding */
    kc_verify_metric metric; /* the source-line counter that shows it, if any */
    /* Optional: runs once per file, after `check` has seen every kernel,
     * for facts outside kernels (CUDA host code: launches, runtime API
     * calls). May be set alone (then `check` may be NULL). */
    void (*check_model)(const kc_model *m, kc_rule_ctx *ctx);
} kc_rule;

/* Starts a diagnostic of the running rule at `span` in kernel `k`. The
 * returned pointer is valid until the next kc_report call. */
kc_diag *kc_report(kc_rule_ctx *ctx, const kc_kernel *k, kc_span span, const char *fmt, ...)
    KC_PRINTF(4, 5);
/* kc_report at an access (kc_access_point). One inlined from a device
 * function whose own model reports the same rule at the same access is
 * dropped when the rule is done: reported once, where it is written. */
kc_diag *kc_report_access(kc_rule_ctx *ctx, const kc_kernel *k, const kc_access *a, const char *fmt, ...)
    KC_PRINTF(4, 5);
/* The index the next report of this file gets, for kc_report_get and
 * kc_report_drop (a rule that reports one defect at one of its places). */
uint32_t kc_report_next(kc_rule_ctx *ctx);
/* Report i (from kc_report_next); valid until the next kc_report call. */
kc_diag *kc_report_get(kc_rule_ctx *ctx, uint32_t i);
/* Removes report i of the running rule when the rule is done. */
void kc_report_drop(kc_rule_ctx *ctx, uint32_t i);
/* An integer option of the running rule (documented default otherwise). */
int64_t kc_rule_option_int(kc_rule_ctx *ctx, const char *name, int64_t def);
/* The model's arena, for scratch index expressions. */
kc_arena *kc_rule_arena(kc_rule_ctx *ctx);
/* Source text of a span (for messages); arena string, "" when invalid. */
const char *kc_rule_span_text(kc_rule_ctx *ctx, kc_span span);

/* kcheck's own diagnostics (KC0xx, listed last in rules.def) are reported
 * by the engine's passes over a file (suppression comments), not by a
 * check of the kernel model: they have no check function, and comments
 * cannot suppress them. */
static inline bool kc_rule_is_own(const kc_rule *r) { return !r->check && !r->check_model; }

/* ---- registry (generated from rules.def) ---- */

/* Every rule by its symbol, e.g. kc101_uncoalesced_access. */
#define KC_RULE(sym) extern const kc_rule sym;
#include "rules.def"
#undef KC_RULE

/* The rules in rules.def order; an index is also the one of
 * kc_options.rule_enabled. */
size_t kc_rules_count(void);
const kc_rule *kc_rules_get(size_t i);
/* Finds a rule by ID ("KC101", case-insensitive) or slug; NULL when
 * unknown. */
const kc_rule *kc_rules_find(const char *id_or_slug, size_t *index);
/* The index of a rule of the registry; (size_t)-1 if it is not one. */
size_t kc_rules_index(const kc_rule *r);
/* Is rule `index` enabled in these options? (NULL flags: all are.) */
bool kc_rules_enabled(const kc_options *o, size_t index);

/* Runs every enabled rule for the model's language over every kernel and
 * appends the diagnostics to out (unsorted). */
void kc_rules_run(const kc_model *m, const kc_options *opts, kc_diag_list *out);

#endif
