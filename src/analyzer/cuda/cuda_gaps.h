/* cuda_gaps.h — what libclang could not make of a file, sorted into what
 * stops it (a driver error: a bad flag, an unsupported architecture), code
 * that did not parse, and names no header kcheck read declares; and the
 * gaps this leaves in the kernel model (kc_gap, reported by KC002).
 *
 * A file is never dropped whole for one error: a kernel whose body holds a
 * syntax error is left out of the analysis (clang's recovery may have lost
 * any statement of it, a barrier included), every other kernel is analysed,
 * and each gap is recorded. Only a file in which nothing could be analysed
 * fails with its syntax errors.
 */
#ifndef KC_CUDA_GAPS_H
#define KC_CUDA_GAPS_H

#include "kc_diag.h"
#include "cuda_tu.h"
#include "kc_model.h"

#include <clang-c/Index.h>

typedef struct kc_cuda_error {
    uint32_t line, col;
    const char *msg;  /* arena string */
    bool syntax;      /* did not parse (not the consequence of an unknown name on its line) */
    kc_gap_kind kind; /* the gap it leaves */
    const char *what; /* the unknown name, or the message */
    bool statement;   /* an unknown name that is a whole statement (`SYNC;`, `BARRIER(1);`) */
} kc_cuda_error;

typedef struct kc_cuda_errors {
    KC_VEC(kc_cuda_error) v; /* errors in the main file, in libclang's order */
    uint32_t nsyntax;
    const char *arch; /* the architecture parsed for (`sm_75`): a kernel under
                         `#if __CUDA_ARCH__ ...` that it leaves out is said */
} kc_cuda_errors;

/* The `#if` blocks of the main file whose condition calls a function-like
 * macro clang reported as not defined (ce): kc_model.unsure_code. */
void kc_cuda_unsure_branches(kc_model *m, const kc_source *src, const kc_cuda_errors *ce);

/* Sorts the translation unit's errors; a driver error goes to `fatal`.
 * True when the file can be lowered. */
bool kc_cuda_errors_collect(CXTranslationUnit tu, const kc_source *src, kc_arena *ar, kc_cuda_errors *out,
                            kc_file_errors *fatal);

/* Records the errors as gaps of the lowered model and leaves out the
 * kernels with syntax errors, and notes `__global__` definitions the parse
 * lost (after an error, or in a branch of `#if __CUDA_ARCH__ ...` that the
 * parse's architecture does not take, errors or not). False when nothing could be analysed and the file has syntax
 * errors: they are added to `errs` (the first few) and the file fails,
 * unless `tolerant`: a header (parsed without its includer, it is expected
 * to miss things), or a file with no device code in its text (its errors
 * cannot hide a kernel of its own): then the gaps are the finding. */
bool kc_cuda_errors_apply(kc_model *m, const kc_cuda_errors *e, bool tolerant, kc_file_errors *errs);

/* The statements the parse dropped for an unknown name, in file order
 * (arena array; *n set). */
kc_cuda_hole *kc_cuda_errors_holes(const kc_cuda_errors *e, kc_arena *ar, uint32_t *n);

void kc_cuda_errors_free(kc_cuda_errors *e);

/* Skips a comment, string or character literal at text[i] of a file's
 * text; returns the index after it, or i when there is none. */
size_t kc_cuda_skip_noise(const char *t, size_t len, size_t i);

/* Does the text hold the directive `#define NAME` (and, with undef,
 * `#undef NAME`), its `#` first on its line, for the name[0..n)? Raw text:
 * a `//#define NAME` is no definition. */
bool kc_cuda_defines(const char *text, size_t len, const char *name, size_t n, bool undef);

/* The kernel whose definition holds `line`, or -1. */
int kc_cuda_kernel_at(const kc_model *m, uint32_t line);

#endif
