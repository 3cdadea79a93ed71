/* kc_source.h — one input file held in memory, with its line table.
 *
 * kc_source_load validates the bytes before any front end sees them:
 * no NUL bytes, UTF-8 (a leading BOM is accepted; a few stray bytes that
 * are not, such as Latin-1 in a comment, are kept as they are: at most one
 * in 64 bytes), at most max_bytes. Lines are 1-based; columns are 1-based byte offsets within a
 * line (the clang convention), with CR of a CRLF pair not part of the line.
 */
#ifndef KC_SOURCE_H
#define KC_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kc_source {
    char *path;      /* as given by the user; owned */
    char *text;      /* NUL-terminated file contents; owned */
    size_t len;      /* bytes, without the terminating NUL */
    uint32_t *line_start; /* byte offset of each line start; owned */
    uint32_t nlines;
    /* The text with each lone CR (the line end of classic Mac OS) as LF:
     * the same length and offsets, what the front ends parse. The same
     * pointer as text when it has none; else owned. The line table
     * counts a lone CR as a line end too. */
    char *lf_text;
} kc_source;

/* What a front end parses: the source with lf_text as its text (text for
 * a source made by hand); the rest shared, not owned. */
static inline kc_source kc_source_lf_view(const kc_source *s)
{
    kc_source v = *s;
    v.text = s->lf_text ? s->lf_text : s->text;
    return v;
}

typedef enum kc_compile_use {
    KC_COMPILE_UNKNOWN = 0, /* no repository read (a file outside git, a run of sources from memory) */
    KC_COMPILE_SEEN,        /* some Python file of the repository names torch.compile or torch._dynamo */
    KC_COMPILE_NEVER,       /* none does */
} kc_compile_use;

/* A function that nothing which runs names: named nowhere in its
 * repository but where it is defined (via NULL), or only inside the body
 * of `via`, itself such a function (a static helper that only a launcher
 * nothing calls calls). */
typedef struct kc_unref {
    const char *name, *via;
} kc_unref;

/* Other files that the analysis of one file may read: for a Python file,
 * the files of the run that import its module, whose launches of its
 * kernels bind their parameters, and the modules of the project its
 * Triton names come from (kc_project.h). Paths borrowed. */
typedef struct kc_peers {
    const char *const *paths;
    uint32_t n;
    /* Whether the file's repository calls torch.compile anywhere (its
     * Python files read once per run): whether a launch torch.compile
     * could trace is traced in practice (KC501). */
    kc_compile_use torch_compile;
    uint32_t repo_py_files; /* the Python files read for it */
    /* The functions the file defines that no file of its repository names
     * but where they are defined, or only inside such functions, comments
     * left out (kc_reach.h): code nothing launches or calls. Sorted by
     * name; reach_files: the files read (0: not known, the file is in no
     * repository or one too large). */
    const kc_unref *unreferenced;
    uint32_t nunreferenced;
    uint32_t reach_files;
    /* Why no build file of its repository compiles the file (a CUDA
     * source; kc_build.h), or NULL. */
    const char *unbuilt;
    /* The GPU architectures the build files above the file (a CUDA
     * source) compile it for (kc_arch.h): the highest as NN (0 not known)
     * and the list with its files ("sm_35, sm_60 (Makefile)"), or NULL. */
    unsigned build_arch_max;
    const char *build_archs;
} kc_peers;

/* Loads and validates the file. On failure returns NULL and sets *err to a
 * malloc'd one-line message (caller frees). */
kc_source *kc_source_load(const char *path, size_t max_bytes, char **err);
/* The bytes of the regular file at `path` (at most max_bytes) into *buf,
 * grown as needed (*cap its size; a buffer can be reused across files),
 * NUL-terminated, *len their count. False when it cannot be read: not a
 * regular file (a FIFO is not waited on), too large, an I/O error; *err
 * (when err is not NULL) gets a malloc'd message. No validation:
 * kc_source_load adds that. */
bool kc_read_regular(const char *path, size_t max_bytes, char **buf, size_t *cap, size_t *len, char **err);
/* Builds a source from memory (tests, fuzzers). Same validation. */
kc_source *kc_source_from_memory(const char *path, const char *text, size_t len,
                                 size_t max_bytes, char **err);
void kc_source_delete(kc_source *s); /* NULL-safe */

/* Text of line `line` (1-based) without its newline/CR; *len receives its
 * length. Returns NULL past the end. */
const char *kc_source_line(const kc_source *s, uint32_t line, size_t *len);
/* Byte offset of (line, col); clamps to the text. */
size_t kc_source_offset(const kc_source *s, uint32_t line, uint32_t col);
/* 1-based line and column of a byte offset. */
void kc_source_position(const kc_source *s, size_t offset, uint32_t *line, uint32_t *col);

/* Validates UTF-8 (no overlongs, surrogates or values past U+10FFFF).
 * Returns the byte offset of the first bad byte, or (size_t)-1. */
size_t kc_utf8_invalid_at(const unsigned char *p, size_t n);
/* `s` as valid UTF-8: NULL when it is already (use `s`), else a malloc'd
 * copy in which each byte that does not start or continue a valid
 * sequence is U+FFFD (a file name in Latin-1, say). */
char *kc_utf8_lenient(const char *s);

/* Does the text hold CUDA device code (`__global__`, `__device__` or
 * `__shared__` anywhere, comments included, or, outside comments, a macro
 * in a declaration's specifier place that names DEVICE or GLOBAL:
 * `static CUTLASS_DEVICE void f(`, `CUTE_HOST_DEVICE T g(`)? A header without any is
 * passed over; a .cu file without any whose parse fails cannot be hiding
 * a kernel of its own, so its errors are notes, not a file refused. */
bool kc_source_has_device_code(const char *text, size_t len);
/* Is s[0..n) a macro name that marks device code: capitals, digits and
 * '_', naming DEVICE or GLOBAL (`CUTLASS_DEVICE`, `CUTE_HOST_DEVICE`)? */
bool kc_device_macro_name(const char *s, size_t n);
/* Is the word text[i..j) such a name in a declaration's specifier place:
 * followed by a name or `~`, not a member (`.`, `::`, `->` before it), not
 * on a preprocessor line? */
bool kc_source_device_macro_at(const char *text, size_t len, size_t i, size_t j);
/* Device code other than `__device__` lambdas: `__global__`, `__shared__`,
 * or a `__device__` function or variable. A file whose only device code is
 * lambdas handed to library algorithms (thrust, cuco) holds no kernel
 * kcheck models. */
bool kc_source_has_device_functions(const char *text, size_t len);

/* A `__global__` outside comments and string literals: a C++ source
 * (.cc, .cpp, .cxx) holding one is compiled as CUDA by its build and
 * checked; one without is passed over. */
bool kc_source_has_kernels(const char *text, size_t len);

/* A CUDA source file by its name: `.cu`, or `.cu.cc`, `.cu.cpp`, `.cu.cxx`
 * (TensorFlow's convention, which projects that build with Bazel keep). */
bool kc_path_is_cuda_source(const char *path);

#endif
