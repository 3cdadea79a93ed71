/* kc_baseline.h — a baseline file: the findings a codebase already had, to
 * hide them so that only new findings fail the run.
 *
 *   {"version": 1, "tool": "kcheck",
 *    "findings": [{"fingerprint": "16 hex digits", "rule": "KC101",
 *                  "file": "k.py", "line": 43, "message": "..."}]}
 *
 * Only the fingerprint (kc_fingerprint.h) is used for matching; the other
 * fields are there for people reading the file. Fingerprints do not
 * contain line numbers, so findings that merely moved stay hidden.
 */
#ifndef KC_BASELINE_H
#define KC_BASELINE_H

#include "kc_diag.h"

typedef struct kc_baseline kc_baseline;

/* Reads a baseline; NULL with *err (malloc'd) when it is unreadable or
 * malformed. */
kc_baseline *kc_baseline_load(const char *path, char **err);
void kc_baseline_delete(kc_baseline *b); /* NULL-safe */
bool kc_baseline_contains(const kc_baseline *b, uint64_t fingerprint);
size_t kc_baseline_size(const kc_baseline *b);

/* Collects findings, in order, and writes them as a baseline. */
typedef struct kc_baseline_writer kc_baseline_writer;
kc_baseline_writer *kc_baseline_writer_new(void);
void kc_baseline_writer_add(kc_baseline_writer *w, const char *path, const char *root, const kc_diag *d);
/* Writes the file atomically; false with *err (malloc'd). */
bool kc_baseline_writer_save(kc_baseline_writer *w, const char *path, char **err);
void kc_baseline_writer_delete(kc_baseline_writer *w); /* NULL-safe */

#endif
