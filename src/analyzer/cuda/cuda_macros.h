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

/* A macro in a pointer qualifier's place, `T * NAME name` (`const float *
 * GGML_CUDA_RESTRICT src`), that the file does not #define: after `*` and
 * before a declarator's name only a qualifier can stand, so such a name
 * comes from a header kcheck did not find, and without it every
 * declaration that uses it fails to parse. NAME is upper case, digits and
 * '_', at least 3 characters; the declarator's name is followed by `=`,
 * `,`, `;`, `)` or `[`. A lambda's specifier is the other such place:
 * between the `]` of its captures and its `(` (`[=] OPEN3D_HOST_DEVICE(int64_t
 * i) {...}`, a `__host__ __device__` macro). */
/* The parse defines it as `__host__ __device__`: a qualifier macro whose
 * name says HOST and DEVICE is read as it (7 characters fit in any such
 * name). */
#define KC_CUDA_HD_MACRO "__KHD__"


typedef struct kc_cuda_qual_macro {
    const char *name; /* arena */
    size_t offset;    /* its first use */
} kc_cuda_qual_macro;
typedef KC_VEC(kc_cuda_qual_macro) kc_cuda_qual_macros;

/* The file's qualifier macros, in order of first use: outside comments and
 * literals, and only names that the file uses in no other place (a
 * constant or a type written after `*` in a comment is not one). Returns a
 * copy of the source (arena) with each use in a qualifier's place made
 * spaces; NULL when there is none. */
char *kc_cuda_qualifier_macros(kc_arena *ar, const char *text, size_t len, kc_cuda_qual_macros *out);

/* Launches written with blanks inside the chevrons, `k<< <grid, block>> >(x)`
 * (an editor's formatting that nvcc accepts and clang does not): a copy of
 * the source (arena) with each such `<< <` and `>> >` made `<<<` and `>>>`
 * followed by the blanks, lines and columns unchanged; NULL when there is
 * none. Only `<<` followed by blanks and a `<` that starts no other operator,
 * and its `>>` blanks `>` at depth 0 followed by `(`, which no other C++
 * construct writes. */
char *kc_cuda_spaced_launches(kc_arena *ar, const char *text, size_t len);

#endif
