/* kc_fingerprint.h — stable identities of findings, for SARIF
 * partialFingerprints and baselines.
 *
 * A fingerprint is XXH3-64 (libxxhash) of: a format tag, the rule ID, the
 * normalised path (kc_path_normalize), the text of the finding's first line
 * with leading and trailing white space removed, and the occurrence index
 * of that (rule, line text) pair among the file's findings in order. It
 * does not contain the line number, so a finding keeps its fingerprint
 * when lines are inserted or removed above it.
 */
#ifndef KC_FINGERPRINT_H
#define KC_FINGERPRINT_H

#include "kc_diag.h"
#include "kc_source.h"

/* Sets d->fingerprint of every diagnostic of the list (sorted by line). */
void kc_fingerprint_diags(const kc_source *src, const char *path, kc_diag_list *l);

/* 16 lowercase hex digits and a NUL. */
void kc_fingerprint_hex(uint64_t fp, char out[17]);
/* Parses 16 hex digits; false otherwise. */
bool kc_fingerprint_parse(const char *s, uint64_t *fp);

#endif
