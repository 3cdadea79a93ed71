/* cuda_assert.h — the divisibility a host function asserts about a value
 * before it launches a kernel (internal to the CUDA front end; used by
 * cuda_host.c). */
#ifndef KC_CUDA_ASSERT_H
#define KC_CUDA_ASSERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kc_base.h"

typedef struct kc_cuda_multiple {
    const char *divisor; /* the divisor as written (arena) */
    int64_t value;       /* the divisor when it is a decimal literal, else 0 */
    size_t at;           /* offset of the asserted name in the text */
} kc_cuda_multiple;

/* Does text[from, to) assert that `name` is a multiple of something:
 * `assert(name % E == 0)`, `TORCH_CHECK(name % E == 0, ...)` (any call
 * whose name holds "assert" or "check", known or from a missing header;
 * the test alone or a conjunct, `&& ...`), or `if (name % E != 0)` (alone
 * or a disjunct, `|| ...`) followed by throw, return, exit or abort? The
 * last such assertion before `to` goes to *out. */
bool kc_cuda_asserted_multiple(const char *text, size_t from, size_t to, const char *name, kc_arena *ar,
                               kc_cuda_multiple *out);

#endif
