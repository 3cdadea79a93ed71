/* kc_fixfile.h — --fix and --diff: applying fix-its to files on disk.
 *
 * A file is rewritten atomically: the new text goes to a temporary file in
 * the same directory, is fsync'd, takes the old file's mode, and is
 * renamed over it (through symlinks: the target is replaced). Before the
 * rename the file must still be exactly what was read (size, mtime and an
 * XXH3 hash of the content); otherwise nothing is written.
 */
#ifndef KC_FIXFILE_H
#define KC_FIXFILE_H

#include <sys/types.h>
#include <time.h>

#include "kc_base.h"
#include "kc_diag.h"
#include "kc_source.h"

/* What a file looked like when it was read. */
typedef struct kc_file_stamp {
    bool valid;
    off_t size;
    struct timespec mtime;
    mode_t mode;
    uint64_t hash; /* of the content that was analysed */
    bool any_owner; /* --fix-any-owner: a file of another user may be replaced */
} kc_file_stamp;

/* Stats `path` (following symlinks). False when it cannot. */
bool kc_file_stamp_take(const char *path, kc_file_stamp *st);

/* Applies the fix-its of the diagnostics, in order; a fix-it whose edits
 * overlap an accepted one is skipped (the next run fixes it). Returns the
 * new text (caller frees; NULL with *err on an invalid edit) and sets
 * *nfixed to the number of diagnostics whose fix-it was applied. */
char *kc_fix_text(const kc_source *src, const kc_diag_list *diags, size_t *len, size_t *nfixed, char **err);

/* Replaces the file's content by data[0..len) atomically, if the file is
 * still as `expect` says. Returns false with *err (malloc'd) otherwise. */
bool kc_file_replace(const char *path, const kc_file_stamp *expect, const char *data, size_t len, char **err);

/* Appends a unified diff (3 lines of context, `--- a/PATH`/`+++ b/PATH`
 * headers with PATH relative to the working directory, as `git apply` and
 * `patch -p1` take them; an absolute PATH outside it has no a/ b/) from a
 * to b; returns false when they are identical. */
bool kc_diff_unified(kc_strbuf *out, const char *path, const char *a, size_t alen, const char *b, size_t blen);

#endif
