/* kc_cache.h — a result cache keyed by what a file's analysis depends on.
 *
 * Entries hold what the front end and the rules produced for one file
 * (diagnostics before suppressions and filters, file errors, kernel
 * locations). The key is a 128-bit XXH3 hash of: the cache format, the
 * kcheck build (version and the executable's size and mtime, so a rebuild
 * invalidates everything), the language, the options that change analysis
 * (those KC_OPTIONS_FIELDS marks KEY or KEY_CUDA: enabled rules, rule
 * options; CUDA mode, path, arch, compile database and extra arguments),
 * the file's bytes, and for CUDA the bytes of the headers it includes with
 * quotes (direct includes that exist next to it), for Python the size,
 * modification time and inode of the files of the run that import it and
 * launch its kernels (kc_project.h). Entries are files under
 * the cache directory, written to a temporary name and renamed, so runs may
 * share a cache concurrently; a damaged entry is a miss. An entry names
 * the key it was stored for, and only an entry the user owns is read: one
 * copied over another's name, or written by another user into a shared
 * cache directory, is a miss. The directories kcheck makes are 0700.
 */
#ifndef KC_CACHE_H
#define KC_CACHE_H

#include "kc_result.h"

typedef struct kc_cache_key {
    uint64_t lo, hi;
} kc_cache_key;

/* The directory results are cached in for these options (--cache-dir,
 * $KCHECK_CACHE_DIR, $XDG_CACHE_HOME/kcheck, ~/.cache/kcheck), or NULL when
 * caching is off (--no-cache) or no directory can be named. Caller frees. */
char *kc_cache_dir(const kc_options *o);

/* `peers`: the files that import this one (may be NULL); their identity on
 * disk (kc_hash_stat) is part of the key. */
kc_cache_key kc_cache_key_for(const kc_options *o, const kc_source *src, kc_lang lang, const kc_peers *peers);

/* Fills diags, errors and kernels from the entry; false on a miss. The
 * vectors are appended to (expected empty). An entry whose dependencies
 * (below) changed on disk since it was stored is a miss. */
bool kc_cache_load(const char *dir, kc_cache_key key, kc_diag_list *diags, kc_file_errors *errors,
                   kc_kernel_ref_vec *kernels);
/* Stores an entry (best effort: a failure only costs the next run), with
 * the other files the analysis read (deps[0..ndeps): the headers a CUDA
 * parse included) and their identity on disk now (size, modification
 * time, inode; a missing file is recorded as missing). False when it was
 * not written (a full disk, a read-only directory), *why (owned, when
 * `why` is given) saying why. */
bool kc_cache_store(const char *dir, kc_cache_key key, const kc_diag_list *diags, const kc_file_errors *errors,
                    const kc_kernel_ref_vec *kernels, const char *const *deps, uint32_t ndeps,
                    char **why);

#endif
