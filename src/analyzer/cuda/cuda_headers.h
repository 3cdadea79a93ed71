/* cuda_headers.h — the headers of a repository by name (internal to the
 * CUDA front end; cuda_headers.c, used by frontend_cuda.c).
 *
 * A quoted include that is found neither beside the file nor under one of
 * its ancestors (or their include/) was written against an -I of the
 * build: `#include "fastllm-cuda.cuh"` from src/devices/cuda/ with
 * -Iinclude/devices/cuda. The repository's headers are listed once (per
 * front end, per repository) and the name is looked up among them: a
 * single file whose path ends with `/name` is the one; none, or several
 * (two `utils.h`), is nothing. Repositories nested in it (submodules,
 * clones) and CMake build trees (copies of its headers) are not listed. */
#ifndef KC_CUDA_HEADERS_H
#define KC_CUDA_HEADERS_H

#include "kc_base.h"

/* Files listed per repository, at most; a larger one is not listed. */
#define KC_CUDA_HEADERS_MAX 100000

typedef struct kc_cuda_headers kc_cuda_headers;

/* The one header of the repository at `root` whose path ends with
 * `/name`, or NULL. *idx caches the listings (NULL at first); the returned
 * path lives as long as it. */
const char *kc_cuda_headers_find(kc_cuda_headers **idx, const char *root, const char *name);
void kc_cuda_headers_free(kc_cuda_headers *idx); /* NULL-safe */

/* A header that the build's CMake configure step writes (`config.h` from
 * `config.h.in`, `version.h` from `version.h.cmake`) and that the run does
 * not have: the one template of that name in the repository above dir,
 * configured as a build that compiles CUDA would (kc_cuda_configure). NULL
 * when there is no such template; else the text (malloc'd, *len bytes) and
 * *tpl, the template's path (as long as *idx lives). */
char *kc_cuda_configured_header(kc_cuda_headers **idx, const char *dir, const char *name, size_t *len,
                                const char **tpl);
/* configure_file's work on a template's text, with one assumption: the
 * options and variables whose names say CUDA (`SPFFT_CUDA`, `USE_CUDA`)
 * are on and every other one is off. `#cmakedefine VAR ...` becomes
 * `#define VAR ...` or the comment `#undef VAR`, `#cmakedefine01 VAR`
 * `#define VAR 1` or 0, and `@VAR@` or `${VAR}` 1 or 0. Lines are kept. */
char *kc_cuda_configure(const char *text, size_t len, size_t *out_len);

#endif
