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
 * Only the CUDA front end uses this (it sees libclang).
 */
#ifndef KC_CUDA_PCH_H
#define KC_CUDA_PCH_H

#include "kc_base.h"

#include <clang-c/Index.h>

/* The precompiled header for these arguments, built now if missing or
 * stale: a malloc'd path to pass as `-include-pch PATH`, or NULL (with
 * *why set, malloc'd) when none can be had, in which case the caller parses
 * without one. `dir` is created if needed; `toolkit` is the CUDA root, or
 * NULL in shim mode. */
char *kc_cuda_pch_get(CXIndex index, const char *dir, const char *toolkit, const char *const *args, size_t nargs,
                      struct CXUnsavedFile *unsaved, unsigned nunsaved, char **why);

/* The header at `path` could not be used (libclang rejected it): remove it
 * so that the next file rebuilds it. */
void kc_cuda_pch_discard(const char *path);

#endif
