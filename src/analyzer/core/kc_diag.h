/* kc_diag.h — diagnostics as data.
 *
 * Rules produce kc_diag values through kc_report (src/rules/kc_rule.h);
 * front ends report problems with the input as kc_file_error. Neither
 * prints: reporters do. A kc_diag_list owns its diagnostics and their
 * strings.
 */
#ifndef KC_DIAG_H
#define KC_DIAG_H

#include "kc_base.h"
#include "kc_span.h"

typedef enum kc_severity { KC_SEV_NOTE = 0, KC_SEV_WARNING = 1, KC_SEV_ERROR = 2 } kc_severity;

const char *kc_severity_name(kc_severity s);
/* Parses "note", "warning", "error"; returns false for anything else. */
bool kc_severity_parse(const char *s, kc_severity *out);

typedef struct kc_fixit {
    kc_span span;      /* text to replace (may be empty: an insertion) */
    char *replacement; /* owned */
} kc_fixit;

/* What verify concluded about a diagnostic (filled by verify mode). */
typedef struct kc_verdict {
    char *status;   /* "confirmed", "not-reproduced", "inconclusive"; owned */
    char *summary;  /* one line; owned */
    char *evidence_json; /* a JSON object as text, or NULL; owned */
} kc_verdict;

typedef struct kc_diag {
    const char *rule_id;   /* static, from the registry: "KC101" */
    const char *rule_slug; /* static: "uncoalesced-access" */
    kc_severity severity;
    kc_span span;
    char *message;             /* owned */
    KC_VEC(char *) notes;      /* owned strings */
    char *fix_description;     /* owned, NULL when there is no fix-it */
    KC_VEC(kc_fixit) fixes;    /* the edits of the fix-it, applied together */
    kc_verdict *verdict;       /* owned, NULL unless verify ran */
    char *kernel;              /* name of the kernel it concerns, owned; may be NULL */
    uint64_t fingerprint;      /* set by the driver (kc_fingerprint.h); 0 before */
} kc_diag;

typedef struct kc_diag_list {
    KC_VEC(kc_diag) items;
} kc_diag_list;

kc_diag *kc_diag_list_add(kc_diag_list *l);
void kc_diag_list_free(kc_diag_list *l); /* frees the items, keeps the struct */
/* Frees what one diagnostic owns (for code that moves items between lists). */
void kc_diag_dispose(kc_diag *d);
/* Sorts by (line, column, rule) and removes exact duplicates (same rule,
 * span and message). */
void kc_diag_list_sort_unique(kc_diag_list *l);
void kc_diag_note(kc_diag *d, const char *fmt, ...) KC_PRINTF(2, 3);
/* Makes `s` one line, in place: each line break, with the blanks around
 * it, becomes one space (a call written over several lines, quoted in a
 * message). Messages and notes are one line each. */
void kc_diag_one_line(char *s);
void kc_diag_fix(kc_diag *d, const char *description, kc_span span, const char *replacement);
/* Adds another edit to the diagnostic's fix-it. */
void kc_diag_fix_edit(kc_diag *d, kc_span span, const char *replacement);

/* A problem with an input file (unreadable, not UTF-8, does not parse). */
typedef struct kc_file_error {
    uint32_t line, col; /* 0 when it concerns the whole file */
    char *message;      /* owned */
} kc_file_error;

typedef struct kc_file_errors {
    KC_VEC(kc_file_error) items;
} kc_file_errors;

void kc_file_errors_add(kc_file_errors *e, uint32_t line, uint32_t col, const char *fmt, ...)
    KC_PRINTF(4, 5);
/* The file is given up over --file-memory: `what` (e.g. "the parse")
 * needed `used` bytes, over `limit`. */
void kc_file_errors_over_memory(kc_file_errors *e, const char *what, size_t used, size_t limit);
void kc_file_errors_free(kc_file_errors *e);

#endif
