/* kc_frontend.h — the front ends: source text in, kernel model out.
 *
 * The one door to the front ends (src/analyzer/cuda/ and
 * src/analyzer/triton/, the only code that sees libclang or tree-sitter):
 * the engine lowers every file through it and knows no front end by name.
 * A kc_frontend holds per-thread parser state (a libclang index, a
 * tree-sitter parser) and is not shared between threads.
 */
#ifndef KC_FRONTEND_H
#define KC_FRONTEND_H

#include "kc_diag.h"
#include "kc_model.h"
#include "kc_options.h"

#include <stdio.h>

/* Language of a path by its extension: .cu/.cuh, C/C++ headers and C++
 * sources -> CUDA, .py -> Triton. Returns false for anything else. */
bool kc_lang_for_path(const char *path, kc_lang *lang);
/* A C/C++ header (.h, .hpp, .hh, .hxx, .inl): checked as CUDA when it
 * holds device code (kc_source_has_device_code), else passed over. */
bool kc_path_is_plain_header(const char *path);
/* A C or C++ source (.c, .cc, .cpp, .cxx, not a `.cu.cc`): checked as CUDA when it
 * holds a kernel (kc_source_has_kernels), as a build that compiles it with
 * nvcc (`-x cu`, CMake's LANGUAGE CUDA) does; else passed over. */
bool kc_path_is_cxx_source(const char *path);

/* The CUDA module the kcheck binary loads on its first CUDA file
 * (kcheck-cuda.so next to the binary, else installed), found without
 * loading it: a malloc'd path, or NULL when the CUDA front end is linked
 * in or the module is missing. */
char *kc_frontend_module_file(void);

/* "libclang <version>, tree-sitter-python 0.23.6" (loads the CUDA module);
 * caller frees. */
char *kc_frontend_versions(void);

/* Warns once on `err` about each flag of the compile database (`-p`) that
 * applies to one of the CUDA files `paths` and that the CUDA front end
 * neither translates nor knows to be irrelevant to parsing (the file is
 * parsed without it). Returns how many were named. */
int kc_frontend_db_report(const kc_options *opts, const char *const *paths, size_t n, FILE *err);

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

#endif
