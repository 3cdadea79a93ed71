/* kc_frontend.h — the front ends: source text in, kernel model out.
 *
 * A kc_frontend holds per-thread parser state (a libclang index, a
 * tree-sitter parser) and is not shared between threads. Only the
 * frontend_*.c files see libclang or tree-sitter.
 */
#ifndef KC_FRONTEND_H
#define KC_FRONTEND_H

#include "kc_diag.h"
#include "kc_model.h"
#include "kc_options.h"

#include <stdio.h>

/* Language of a path by its extension: .cu/.cuh -> CUDA, .py -> Triton.
 * Returns false for anything else. */
bool kc_lang_for_path(const char *path, kc_lang *lang);

/* The CUDA module the kcheck binary loads on its first CUDA file
 * (kcheck-cuda.so next to the binary, else installed), found without
 * loading it: a malloc'd path, or NULL when the CUDA front end is linked
 * in or the module is missing. */
char *kc_frontend_module_file(void);

/* "libclang <version>, tree-sitter-python 0.23.6" (loads the CUDA module);
 * caller frees. */
char *kc_frontend_versions(void);

typedef struct kc_frontend kc_frontend;

kc_frontend *kc_frontend_new(const kc_options *opts);
void kc_frontend_delete(kc_frontend *fe); /* NULL-safe */

/* Lowers one source file (`peers` may be NULL). On success returns a model (caller deletes it
 * with kc_model_delete; it borrows `src`). When the file cannot be analysed
 * (syntax errors, missing toolchain) returns NULL and appends at least one
 * error to errs. A Python file without Triton kernels gives an empty model. */
kc_model *kc_frontend_lower(kc_frontend *fe, const kc_source *src, kc_lang lang, const kc_peers *peers,
                            kc_file_errors *errs);

/* --dump-shim DIR: writes the in-memory headers the CUDA front end hands to
 * libclang under these options (shim mode: the CUDA stand-ins; toolkit
 * mode: the compatibility stand-ins) into DIR, and DIR/compile_flags.txt
 * with the flags it parses with (one per line, pointing into DIR), so that
 * clang, clang-tidy or clangd see what kcheck sees. Returns the exit
 * status (0, or 2 with a message on `err`). */
int kc_frontend_dump_shim(const kc_options *opts, const char *dir, FILE *out, FILE *err);

/* ---- per-language entry points (used by kc_frontend.c) ---- */
typedef struct kc_cuda_frontend kc_cuda_frontend;
kc_cuda_frontend *kc_cuda_frontend_new(const kc_options *opts);
void kc_cuda_frontend_delete(kc_cuda_frontend *fe);
kc_model *kc_cuda_lower(kc_cuda_frontend *fe, const kc_source *src, kc_file_errors *errs);
int kc_cuda_dump_shim(const kc_options *opts, const char *dir, FILE *out, FILE *err);
char *kc_cuda_version(void); /* libclang's version; caller frees */

/* The CUDA front end as a table: linked in (tests, fuzzers), or loaded by
 * the kcheck binary from the module kcheck-cuda.so on the first CUDA file,
 * so that a run over Python files never maps libclang and LLVM (about 0.1 s
 * of every process). `check` guards against a module from another build. */
typedef struct kc_cuda_ops {
    size_t check;
    kc_cuda_frontend *(*create)(const kc_options *opts);
    void (*destroy)(kc_cuda_frontend *fe);
    kc_model *(*lower)(kc_cuda_frontend *fe, const kc_source *src, kc_file_errors *errs);
    int (*dump_shim)(const kc_options *opts, const char *dir, FILE *out, FILE *err);
    char *(*version)(void);
} kc_cuda_ops;
#define KC_CUDA_OPS_CHECK                                                                                      \
    (sizeof(kc_cuda_ops) * 1000003u + sizeof(kc_options) * 10007u + sizeof(kc_model) * 101u + sizeof(kc_kernel) + \
     sizeof(kc_source) * 7u + sizeof(kc_file_errors) * 3u)
/* The module's entry point (cuda_plugin.c). */
const kc_cuda_ops *kc_cuda_plugin(void);

typedef struct kc_triton_frontend kc_triton_frontend;
kc_triton_frontend *kc_triton_frontend_new(const kc_options *opts);
void kc_triton_frontend_delete(kc_triton_frontend *fe);
kc_model *kc_triton_lower(kc_triton_frontend *fe, const kc_source *src, const kc_peers *peers,
                          kc_file_errors *errs);

#endif
