/* kc_file.h — files on disk: reading one whole, making directories, and
 * the one way kcheck writes a file that others may read while it is being
 * written (fixed sources, baselines, result-cache entries, precompiled
 * headers): a new file with a unique name next to the target, renamed over
 * it, so that a reader sees the old file or the new one, never a part.
 */
#ifndef KC_FILE_H
#define KC_FILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "kc_base.h"

/* The whole of the file at `path`, NUL-terminated, in *data (to free) and
 * its length in *len. False when it cannot be opened (*data NULL) or a read
 * failed (*data holds what was read). */
bool kc_read_all(const char *path, char **data, size_t *len);

/* mkdir -p: true when `dir` is a directory afterwards (errno set if not). */
bool kc_mkdir_p(const char *dir, unsigned mode);

/* Creates an empty file with a name no other writer uses, in the directory
 * of `target` (".NAME.kcheck-XXXXXX", O_EXCL: a file or a symbolic link
 * already there is never opened), mode 0600. Returns its malloc'd path with
 * the open descriptor in *fd, or NULL with *err (malloc'd). For writers
 * that are handed a path (libclang saving a precompiled header): close the
 * descriptor, let them write, then rename the file over `target` or unlink
 * it. */
char *kc_file_temp_next_to(const char *target, int *fd, char **err);

/* How kc_file_write_replace leaves the file. */
typedef struct kc_file_how {
    mode_t mode;              /* its permissions */
    bool durable;             /* fsync the file before the rename and the directory after it */
    const struct stat *owner; /* when not NULL, try to keep this owner and group */
    /* When not NULL, asked after the new text is written (and synced),
     * just before the rename: false leaves `target` as it is and fails
     * with the message it sets in *err (a file an editor saved meanwhile). */
    bool (*still_ok)(void *ud, char **err);
    void *ud;
} kc_file_how;

/* Writes data[0..len) to a temporary file next to `target` (as
 * kc_file_temp_next_to), gives it `how`, and renames it over `target`. On
 * failure the temporary file is removed, `target` is untouched, and *err
 * (malloc'd) says why. */
bool kc_file_write_replace(const char *target, const void *data, size_t len, const kc_file_how *how, char **err);

/* kc_file_write_replace of the file `path` resolves to, durably: an
 * existing file keeps its mode, a new one gets 0666 less the umask. */
bool kc_file_write_atomic(const char *path, const char *data, size_t len, char **err);

#endif
