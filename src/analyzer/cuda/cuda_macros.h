/* cuda_macros.h — macros that would expand without bound (internal to the
 * CUDA front end; cuda_macros.c, called by frontend_cuda.c before libclang
 * parses the file). */
#ifndef KC_CUDA_MACROS_H
#define KC_CUDA_MACROS_H

#include <stddef.h>
#include <stdint.h>

#include "kc_base.h"

/* Tokens one macro may expand to before the file is refused. */
#define KC_CUDA_MACRO_MAX_TOKENS (1ull << 24)

/* Is there a `#define` in text[0..len) whose expansion would exceed
 * KC_CUDA_MACRO_MAX_TOKENS tokens (`#define A1 A0 A0`, doubled thirty
 * times: libclang would take minutes and gigabytes)? The estimate follows
 * the file's own macros, object-like and function-like alike (a parameter
 * counts as one token, so a function-like bomb is found later, never
 * falsely). On true: the macro's name (arena), line and estimated size. */
bool kc_cuda_macro_bomb(kc_arena *ar, const char *text, size_t len, const char **name, uint32_t *line,
                        uint64_t *tokens);

#endif
