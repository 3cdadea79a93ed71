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

#endif
