/* kc_fingerprint.h — stable identities of findings, for SARIF
 * partialFingerprints and baselines.
 *
 * A fingerprint is XXH3-64 (libxxhash) of: a format tag, the rule ID, the
 * file's path relative to the project root (kc_path_project), the text of the finding's first line
 * with leading and trailing white space removed, and the occurrence index
 * of that (rule, line text) pair among the file's findings in order. It
 * does not contain the line number, so a finding keeps its fingerprint
 * when lines are inserted or removed above it.
 */
#ifndef KC_FINGERPRINT_H
#define KC_FINGERPRINT_H

#include "kc_diag.h"
#include "kc_source.h"

/* Sets d->fingerprint of every diagnostic of the list (sorted by line).
 * The path counts relative to the project root (kc_path_project: `root`,
 * else the file's repository), so a baseline holds from any directory. */
void kc_fingerprint_diags(const kc_source *src, const char *path, const char *root, kc_diag_list *l);

/* 16 lowercase hex digits and a NUL. */
void kc_fingerprint_hex(uint64_t fp, char out[17]);
/* Parses 16 hex digits; false otherwise. */
bool kc_fingerprint_parse(const char *s, uint64_t *fp);

#endif
