/* cuda_shim.c — in-memory stand-ins for the CUDA headers.
 *
 * Shim mode parses a .cu file without the CUDA toolkit and without the C++
 * standard library: clang sees the headers of the table below as unsaved
 * files under KC_CUDA_SHIM_INCLUDE (a directory that does not exist on
 * disk), and __kcheck_prelude.h is -include'd first, as nvcc does with
 * cuda_runtime.h. The headers only declare: enough for clang to resolve
 * names, overloads and types (sizes of vector and half types included) in
 * kernel code, and for the host code of typical .cu files (std::vector,
 * iostream, chrono, <random>) to parse. Definitions that matter for code
 * generation are absent.
 *
 * The headers are the files of src/analyzer/cuda/shim/, compiled into the
 * binary (kc_cuda_shim_texts, generated from them by the build); to edit
 * one, edit its file. A header that only includes another one (an alias:
 * <vector> is <__kcheck_cxx.h>) is one line of the table. The texts are
 * data, not state: static, immutable, shared by every front end object and
 * thread.
 */
#include "cuda_shim.h"

#include <stdlib.h>
#include <string.h>

/* The files of shim/, by path relative to it, sorted (generated). */
typedef struct kc_cuda_shim_text {
    const char *name;
    const char *text;
    size_t len;
} kc_cuda_shim_text;
extern const kc_cuda_shim_text kc_cuda_shim_texts[];
extern const size_t kc_cuda_shim_ntexts;

/* One header clang can include: a file of shim/, or an alias. */
typedef struct kc_cuda_shim_file {
    const char *name;  /* as included, relative to KC_CUDA_SHIM_INCLUDE */
    const char *file;  /* the file of shim/ that is its text, or NULL */
    const char *alias; /* else its text: an include of another header */
} kc_cuda_shim_file;

#define KC_SHIM_INCLUDE(header) "#include <" header ">\n"

/* clang 19 and older include "texture_fetch_functions.h" from the CUDA
 * runtime wrapper; CUDA 13 no longer ships it (toolkit mode only). */
static const char compat_texture_fetch[] =
    "/* kcheck: empty stand-in; CUDA 13 dropped this header */\n";

/* Every header of shim mode, sorted by name (kc_cuda_shim_provides
 * searches it). */
static const kc_cuda_shim_file shim_files[] = {
    {"ATen/ATen.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/AccumulateType.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/Dispatch.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/OpMathType.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/Tensor.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/core/TensorAccessor.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/cuda/CUDAContext.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"ATen/cuda/Exceptions.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"__kcheck_cuda.h", "__kcheck_cuda.h", NULL},
    {"__kcheck_cxx.h", "__kcheck_cxx.h", NULL},
    {"__kcheck_fp16.h", "__kcheck_fp16.h", NULL},
    {"__kcheck_ilist.h", "__kcheck_ilist.h", NULL},
    {"__kcheck_libc.h", "__kcheck_libc.h", NULL},
    {"__kcheck_prelude.h", "__kcheck_prelude.h", NULL},
    {"__kcheck_torch.h", "__kcheck_torch.h", NULL},
    {"algorithm", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"array", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"assert.h", "assert.h", NULL},
    {"atomic", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"bitset", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"builtin_types.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"c10/cuda/CUDAException.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"c10/cuda/CUDAGuard.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"c10/cuda/CUDAStream.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"c10/macros/Macros.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"c10/util/BFloat16.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"c10/util/Half.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"cassert", "assert.h", NULL},
    {"cerrno", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"cfloat", NULL, KC_SHIM_INCLUDE("float.h")},
    {"chrono", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"cinttypes", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"climits", NULL, KC_SHIM_INCLUDE("limits.h")},
    {"cmath", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"complex", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"cooperative_groups.h", "cooperative_groups.h", NULL},
    {"cooperative_groups/memcpy_async.h", NULL, KC_SHIM_INCLUDE("cooperative_groups.h")},
    {"cooperative_groups/reduce.h", NULL, KC_SHIM_INCLUDE("cooperative_groups.h")},
    {"cooperative_groups/scan.h", NULL, KC_SHIM_INCLUDE("cooperative_groups.h")},
    {"crt/math_functions.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"cstdarg", "cstdarg", NULL},
    {"cstdbool", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"cstddef", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"cstdint", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"cstdio", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"cstdlib", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"cstring", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"ctime", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"cub/block/block_load.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/block/block_reduce.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/block/block_scan.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/block/block_store.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/cub.cuh", "cub/cub.cuh", NULL},
    {"cub/device/device_radix_sort.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/device/device_reduce.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/device/device_scan.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cub/warp/warp_reduce.cuh", NULL, KC_SHIM_INCLUDE("cub/cub.cuh")},
    {"cublas.h", "cublas_api.h", NULL},
    {"cublasLt.h", "cublas_api.h", NULL},
    {"cublas_api.h", "cublas_api.h", NULL},
    {"cublas_v2.h", "cublas_api.h", NULL},
    {"cuda.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"cuda_bf16.h", "cuda_fp16.h", NULL},
    {"cuda_bf16.hpp", "cuda_fp16.h", NULL},
    {"cuda_device_runtime_api.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"cuda_fp16.h", "cuda_fp16.h", NULL},
    {"cuda_fp16.hpp", "cuda_fp16.h", NULL},
    {"cuda_runtime.h", "cuda_runtime.h", NULL},
    {"cuda_runtime_api.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"deque", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"device_functions.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"device_launch_parameters.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"driver_types.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"errno.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"exception", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"fstream", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"functional", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"host_defines.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"initializer_list", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"iomanip", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"iostream", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"istream", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"iterator", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"limits", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"list", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"map", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"math.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"math_constants.h", "math_constants.h", NULL},
    {"math_functions.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"memory", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"mma.h", "mma.h", NULL},
    {"mutex", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"new", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"numeric", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"optional", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"ostream", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"queue", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"random", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"set", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"sm_20_atomic_functions.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"sm_60_atomic_functions.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"sstream", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"stack", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"stdexcept", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"stdio.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"stdlib.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"string", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"string.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"string_view", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"sys/time.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"thread", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"time.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"torch/all.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"torch/extension.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"torch/library.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"torch/python.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"torch/script.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"torch/torch.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"torch/types.h", NULL, KC_SHIM_INCLUDE("__kcheck_torch.h")},
    {"tuple", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"type_traits", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"unistd.h", NULL, KC_SHIM_INCLUDE("__kcheck_libc.h")},
    {"unordered_map", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"unordered_set", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"utility", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"variant", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"vector", NULL, KC_SHIM_INCLUDE("__kcheck_cxx.h")},
    {"vector_functions.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
    {"vector_types.h", NULL, KC_SHIM_INCLUDE("__kcheck_cuda.h")},
};

static int shim_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const kc_cuda_shim_file *)elem)->name);
}

bool kc_cuda_shim_provides(const char *name)
{
    if (!name)
        return false;
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    return bsearch(name, shim_files, sizeof shim_files / sizeof shim_files[0], sizeof shim_files[0],
                   shim_cmp) != NULL;
}

/* ---- unsaved file lists ---- */

static void unsaved_push(kc_cuda_unsaved *u, const char *name, const char *text, size_t len)
{
    struct CXUnsavedFile f = {.Filename = name, .Contents = text, .Length = (unsigned long)len};
    kc_vec_push(&u->files, f);
}

void kc_cuda_unsaved_add(kc_cuda_unsaved *u, const char *name, const char *text, size_t len)
{
    unsaved_push(u, name, text, len);
}

void kc_cuda_unsaved_add_owned(kc_cuda_unsaved *u, char *name, char *text, size_t len)
{
    kc_vec_push(&u->owned, name);
    if (text)
        kc_vec_push(&u->owned, text);
    unsaved_push(u, name, text ? text : "", text ? len : 0);
}

bool kc_cuda_unsaved_has(const kc_cuda_unsaved *u, const char *name)
{
    for (uint32_t i = 0; i < u->files.len; i++)
        if (strcmp(u->files.data[i].Filename, name) == 0)
            return true;
    return false;
}

void kc_cuda_unsaved_free(kc_cuda_unsaved *u)
{
    for (uint32_t i = 0; i < u->owned.len; i++)
        free(u->owned.data[i]);
    kc_vec_free(&u->owned);
    kc_vec_free(&u->files);
}

static int text_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const kc_cuda_shim_text *)elem)->name);
}

static const kc_cuda_shim_text *file_text(const char *file)
{
    return bsearch(file, kc_cuda_shim_texts, kc_cuda_shim_ntexts, sizeof kc_cuda_shim_texts[0], text_cmp);
}

#define KC_SHIM_TORCH "__kcheck_torch.h"

static const kc_cuda_shim_file *shim_file(const char *name)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    return bsearch(name, shim_files, sizeof shim_files / sizeof shim_files[0], sizeof shim_files[0], shim_cmp);
}

bool kc_cuda_shim_library(const char *name)
{
    const kc_cuda_shim_file *f = name ? shim_file(name) : NULL;
    return f && ((f->alias && strcmp(f->alias, KC_SHIM_INCLUDE(KC_SHIM_TORCH)) == 0) ||
                 (f->file && strcmp(f->file, KC_SHIM_TORCH) == 0));
}

void kc_cuda_shim_add_library(kc_cuda_unsaved *u, const char *dir, const char *name, kc_arena *names)
{
    const kc_cuda_shim_file *f = shim_file(name);
    const kc_cuda_shim_text *t = file_text(KC_SHIM_TORCH);
    if (!f || !t)
        return;
    const char *path = kc_arena_printf(names, "%s/%s", dir, f->name);
    if (!kc_cuda_unsaved_has(u, path)) {
        if (f->alias)
            unsaved_push(u, path, f->alias, strlen(f->alias));
        else
            unsaved_push(u, path, t->text, t->len);
    }
    const char *own = kc_arena_printf(names, "%s/%s", dir, KC_SHIM_TORCH);
    if (!kc_cuda_unsaved_has(u, own))
        unsaved_push(u, own, t->text, t->len);
}

void kc_cuda_shim_add(kc_cuda_unsaved *u, kc_arena *names)
{
    size_t n = sizeof shim_files / sizeof shim_files[0];
    for (size_t i = 0; i < n; i++) {
        const kc_cuda_shim_file *f = &shim_files[i];
        const kc_cuda_shim_text *t = f->file ? file_text(f->file) : NULL;
        const char *path = kc_arena_printf(names, "%s/%s", KC_CUDA_SHIM_INCLUDE, f->name);
        if (t)
            unsaved_push(u, path, t->text, t->len);
        else if (f->alias)
            unsaved_push(u, path, f->alias, strlen(f->alias));
    }
}

bool kc_cuda_shim_check(char **why)
{
    size_t n = sizeof shim_files / sizeof shim_files[0];
    for (size_t i = 0; i < n; i++) {
        if (i && strcmp(shim_files[i - 1].name, shim_files[i].name) >= 0) {
            *why = kc_xasprintf("the shim table is not sorted at %s", shim_files[i].name);
            return false;
        }
        if (shim_files[i].file && !file_text(shim_files[i].file)) {
            *why = kc_xasprintf("%s names shim/%s, which is not in the build", shim_files[i].name, shim_files[i].file);
            return false;
        }
    }
    for (size_t k = 0; k < kc_cuda_shim_ntexts; k++) {
        bool used = false;
        for (size_t i = 0; i < n && !used; i++)
            used = shim_files[i].file && strcmp(shim_files[i].file, kc_cuda_shim_texts[k].name) == 0;
        if (!used) {
            *why = kc_xasprintf("shim/%s is in no entry of the shim table", kc_cuda_shim_texts[k].name);
            return false;
        }
    }
    return true;
}

void kc_cuda_shim_add_compat(kc_cuda_unsaved *u, int llvm_major)
{
    if (llvm_major < 22)
        unsaved_push(u, KC_CUDA_SHIM_COMPAT "/texture_fetch_functions.h", compat_texture_fetch,
                     sizeof compat_texture_fetch - 1);
}
