/* kc_fixit.h — applying the edits of fix-its to a source text. */
#ifndef KC_FIXIT_H
#define KC_FIXIT_H

#include "kc_diag.h"
#include "kc_source.h"

/* Returns a malloc'd copy of the source with the edits applied (caller
 * frees), or NULL with *err set (malloc'd) when an edit is out of range or
 * two edits overlap. Edits may come in any order. */
char *kc_fixit_apply(const kc_source *src, const kc_fixit *edits, size_t n, size_t *out_len, char **err);

#endif
