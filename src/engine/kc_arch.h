/* kc_arch.h — the GPU architectures the build files above a CUDA source
 * compile it for.
 *
 * Read: the build files of the file's directory and of each directory
 * above it up to its repository's root (make files, CMake files, meson,
 * Bazel, SCons, premake, Visual Studio projects and setup.py; not other
 * Python files, whose text may name architectures for other reasons).
 * `#` comments are left out. Collected: `sm_NN` and `compute_NN`
 * (`-arch=sm_35`, `-gencode arch=compute_60,code=sm_60`), the numbers of a
 * CMake `CUDA_ARCHITECTURES` list (`60 61`, `"60;61"`, `70-real`) and the
 * versions of a `TORCH_CUDA_ARCH_LIST` (`6.0;6.1+PTX`). Not known, and
 * nothing said, when an architecture is named by a word (`-arch=native`,
 * `all`, `all-major`, `cuda_select_nvcc_arch_flags(... Auto)`) or by a
 * variable (`-arch=sm_$(SM)`, `CUDA_ARCHITECTURES ${ARCHS}`, a
 * `TORCH_CUDA_ARCH_LIST` read from the environment), or when none is
 * found (nvcc's default then depends on the toolkit). */
#ifndef KC_ARCH_H
#define KC_ARCH_H

#include <stddef.h>

typedef struct kc_arch_targets {
    unsigned max; /* the highest, as NN (70 for sm_70); 0 when not known */
    char *text;   /* "sm_35, sm_52, sm_60 (Makefile)", malloc'd; NULL when not known */
} kc_arch_targets;

/* The targets of the CUDA source at abspath, in the repository whose work
 * tree is at root (both absolute); files over max_file_size are skipped. */
void kc_arch_read(const char *root, const char *abspath, size_t max_file_size, kc_arch_targets *out);

void kc_arch_free(kc_arch_targets *t);

#endif
