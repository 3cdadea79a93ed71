/* cuda_shim.h — in-memory headers handed to libclang (CUDA front end only).
 *
 * Shim mode: stand-ins for the CUDA runtime and device headers (and a very
 * small C/C++ library) served as unsaved files from a virtual directory, so
 * that a .cu file parses in milliseconds without the toolkit. Both modes:
 * empty stand-ins for headers that cannot be found, and (toolkit mode, old
 * libclang) empty stand-ins for headers that the toolkit dropped.
 *
 * The shim headers are the files of src/analyzer/cuda/shim/ (cuda_shim.c).
 * Ownership: a kc_cuda_unsaved borrows the static shim texts and owns the
 * names and texts passed to kc_cuda_unsaved_add_owned.
 */
#ifndef KC_CUDA_SHIM_H
#define KC_CUDA_SHIM_H

#include <clang-c/Index.h>

#include "kc_base.h"

/* Virtual paths; none of them exists on disk. */
#define KC_CUDA_SHIM_ROOT "/kcheck-shim"
#define KC_CUDA_SHIM_INCLUDE KC_CUDA_SHIM_ROOT "/include"
#define KC_CUDA_SHIM_PRELUDE KC_CUDA_SHIM_INCLUDE "/__kcheck_prelude.h"
/* Empty stand-ins for unknown headers, searched last (-idirafter). */
#define KC_CUDA_SHIM_STUBS KC_CUDA_SHIM_ROOT "/stub"
/* Toolkit-mode fixes, searched first (-I). */
#define KC_CUDA_SHIM_COMPAT KC_CUDA_SHIM_ROOT "/compat"
/* The pinned, nonexistent --cuda-path of shim mode. */
#define KC_CUDA_SHIM_NO_TOOLKIT KC_CUDA_SHIM_ROOT "/no-cuda-toolkit"

typedef struct kc_cuda_unsaved {
    KC_VEC(struct CXUnsavedFile) files;
    KC_VEC(char *) owned;
} kc_cuda_unsaved;

/* Adds a file whose name and text outlive the list (static or borrowed). */
void kc_cuda_unsaved_add(kc_cuda_unsaved *u, const char *name, const char *text, size_t len);
/* Adds a file and takes ownership of `name` and `text` (malloc'd; text may
 * be NULL for an empty file). */
void kc_cuda_unsaved_add_owned(kc_cuda_unsaved *u, char *name, char *text, size_t len);
bool kc_cuda_unsaved_has(const kc_cuda_unsaved *u, const char *name);
void kc_cuda_unsaved_free(kc_cuda_unsaved *u);

/* Is `name` (as written in #include <name>) one of the shim headers? */
bool kc_cuda_shim_provides(const char *name);
/* Is `name` a header of a library kcheck stands in for in both modes
 * (PyTorch's extension headers: shim/__kcheck_torch.h)? */
bool kc_cuda_shim_library(const char *name);
/* Appends that header, and the stand-in it includes, under `dir` (toolkit
 * mode: the stand-in directory, where they are found only when the real
 * ones are not); the path strings are allocated in `names`. */
void kc_cuda_shim_add_library(kc_cuda_unsaved *u, const char *dir, const char *name, kc_arena *names);
/* Appends every shim header; the path strings are allocated in `names`,
 * which must outlive the list. */
void kc_cuda_shim_add(kc_cuda_unsaved *u, kc_arena *names);
/* Is the table of shim headers whole: sorted, every file it names built
 * in, every file of shim/ named? (For the tests.) False with *why. */
bool kc_cuda_shim_check(char **why);
/* Appends the toolkit-mode stand-ins that libclang `llvm_major` needs; they
 * live under KC_CUDA_SHIM_COMPAT. */
void kc_cuda_shim_add_compat(kc_cuda_unsaved *u, int llvm_major);

#endif
