/* kc_changed.h — --diff-base REV: the lines changed since a git revision.
 *
 * A finding is kept when one of its lines was changed since REV in the
 * working tree (`git diff REV`, staged and unstaged edits included), or
 * its file is new (untracked and not ignored). A deletion counts for the
 * lines on both sides of it: removing a barrier or a mask makes the code
 * around it wrong. Each file's repository is found from its directory
 * and read once per run, on first use (any thread). A file outside a
 * repository, or a revision git does not know, is an input error of that
 * file.
 */
#ifndef KC_CHANGED_H
#define KC_CHANGED_H

#include "kc_base.h"

typedef struct kc_changed kc_changed;

kc_changed *kc_changed_new(const char *rev);
void kc_changed_delete(kc_changed *c); /* NULL-safe */

/* Did any line in [first, last] of `path` change since the revision?
 * False with *err set (malloc'd) when that cannot be told. */
bool kc_changed_meets(kc_changed *c, const char *path, uint32_t first, uint32_t last, char **err);

/* Parses `git diff --unified=0` output into the changed lines of each
 * file (paths relative to the repository, as git prints them); `fn` is
 * called once per range. Exposed for tests. */
typedef void (*kc_changed_range_fn)(void *ud, const char *path, uint32_t first, uint32_t last);
void kc_changed_parse_diff(const char *text, size_t len, kc_changed_range_fn fn, void *ud);

#endif
