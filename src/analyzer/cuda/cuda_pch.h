/* The CUDA header cache: the headers in front of every CUDA file (toolkit
 * mode: __clang_cuda_runtime_wrapper.h, which pulls in cuda_runtime.h and
 * the rest of the toolkit; shim mode: kcheck's prelude and stand-ins) are
 * parsed once and kept as a precompiled header in the user's cache
 * directory, so that each file only pays for its own code.
 *
 * One header per distinct argument list (flags, macros, include paths, GPU
 * architecture, toolkit): the key also covers the libclang in use, the
 * kcheck build (whose compatibility stand-ins are part of the prefix) and
 * the toolkit's headers (path, size, modification time). A header is
 * written to a temporary name and renamed into place under an exclusive
 * lock on its key, so concurrent runs and worker threads build it once and
 * never read a half-written one. Headers unused for 14 days are removed
 * when a new one is written.
 *
 * A second kind of header covers a file's own preamble, the directives
 * at its top (`#include "common.h"`, `#include <cublas_v2.h>`, macros),
 * as clangd does: in toolkit mode those headers cost ten times the
 * file's own code. Such a header is built the second time the same
 * preamble is asked for (by another file, or by the same file in a later
 * run), so that a one-off run over a tree with a distinct preamble per
 * file writes nothing it will not use; the files it includes are checked
 * by libclang, which refuses a header older than any of them (the caller
 * then discards it and it is rebuilt). Preamble headers take at most
 * KC_PCH_PREAMBLE_CAP bytes of the cache; the least recently used go
 * first.
 *
 * Only the CUDA front end uses this (it sees libclang).
 */
#ifndef KC_CUDA_PCH_H
#define KC_CUDA_PCH_H

#include "kc_base.h"

#include <clang-c/Index.h>

#define KC_PCH_PREAMBLE_CAP ((int64_t)1 << 30)

/* A file's preamble: its text, and the in-memory file that stands for it
 * when it is precompiled (in the file's directory, where `#include "..."`
 * looks first). */
typedef struct kc_cuda_preamble {
    const char *main;
    const char *text;
    size_t len;
} kc_cuda_preamble;

/* Headers whose record (cuda_pch.c) this process has checked, by the
 * identity of the file: each is hashed once. Zero-initialise; kc_vec_free. */
typedef struct kc_cuda_pch_seen {
    uint64_t dev, ino;
    int64_t size, mtime_ns;
} kc_cuda_pch_seen;
typedef KC_VEC(kc_cuda_pch_seen) kc_cuda_pch_memo;

/* The precompiled header for these arguments (and, when `preamble` is not
 * NULL, that preamble), built now if missing or stale: a malloc'd path to
 * pass as `-include-pch PATH`, or NULL when none can be had, in which case
 * the caller parses without one; *why then says why (malloc'd), or is NULL
 * for a preamble seen for the first time. `dir` is created if needed;
 * `toolkit` is the CUDA root, or NULL in shim mode. A header is used only
 * when the record written beside it names its key and its bytes still hash
 * as recorded (checked once per file identity in `memo`); else it is
 * rebuilt. */
char *kc_cuda_pch_get(CXIndex index, const char *dir, const char *toolkit, const char *const *args, size_t nargs,
                      struct CXUnsavedFile *unsaved, unsigned nunsaved, const kc_cuda_preamble *preamble,
                      kc_cuda_pch_memo *memo, char **why);

/* The length of the preamble of a CUDA file: the comments and preprocessor
 * directives before its first other token, cut at the end of the last
 * directive outside any `#if` (and before a directive it does not know,
 * `#error` or `#line`, which would report the wrong place); 0 when it
 * includes no file (nothing worth precompiling). */
size_t kc_cuda_preamble_len(const char *text, size_t len);

/* The files the header at `path` includes, one path a line (a parse
 * behind it does not list them), as written beside it when it was built:
 * malloc'd text of *len bytes, or NULL when they cannot be read. */
char *kc_cuda_pch_inclusions(const char *path, size_t *len);

/* The header at `path` could not be used (libclang rejected it): remove it
 * so that the next file rebuilds it. */
void kc_cuda_pch_discard(const char *path);

#endif
