/* frontend_cuda.c — the CUDA front end: a .cu/.cuh file in, a kernel model
 * out (libclang).
 *
 * Parsing:
 *   - shim mode (default): `-x cuda -nocudainc -nocudalib` with a pinned,
 *     nonexistent --cuda-path, device-only, and the in-memory shim headers
 *     of cuda_shim.c (-include'd prelude, a virtual include directory).
 *     The system and C++ library directories are left out (-nostdlibinc):
 *     the parse reads nothing but the user's files and clang's own headers.
 *   - toolkit mode: the real CUDA headers from --cuda-path (or
 *     /usr/local/cuda), as clang's CUDA driver includes them.
 *   In both modes every `#include` that the file (or a user header it
 *   includes) names is looked up first; an unknown one gets a stand-in (empty,
 *   or configured from its CMake template) in a directory searched last, so
 *   a missing header never stops the parse. Flags come the clang-tidy way: the compile database
 *   entry of the file (-p DIR), reduced to what matters for parsing, then
 *   the extra arguments given after `--`.
 *
 * Errors (cuda_gaps.h): a file is never dropped whole for one error. A
 * kernel whose body holds a syntax error is left out, the others are
 * analysed, and every error of the main file (syntax, unknown names from a
 * header kcheck did not find) becomes a gap of the model, reported by
 * KC002. Only a .cu file in which nothing could be analysed fails with its
 * syntax errors.
 *
 * Threads: one kc_cuda_frontend per worker thread; each holds its own
 * CXIndex. Nothing is shared between front end objects but immutable data.
 */
/* dladdr (to find the compiler's own headers next to libclang) */
#define _GNU_SOURCE 1

#include "cuda_flags.h"
#include "cuda_gaps.h"
#include "cuda_recover.h"
#include "cuda_macros.h"
#include "cuda_lower.h"
#include "cuda_pch.h"
#include "cuda_shim.h"
#include "cuda_headers.h"
#include "kc_file.h"
#include "kc_cuda_frontend.h"

#include <clang-c/CXCompilationDatabase.h>
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KCHECK_LLVM_MAJOR
#define KCHECK_LLVM_MAJOR 22
#endif

#define KC_CUDA_SCAN_MAX_FILES 64
#define KC_CUDA_SCAN_MAX_DEPTH 8
#define KC_CUDA_SCAN_MAX_BYTES (4u << 20)

struct kc_cuda_frontend {
    const kc_options *opts;     /* borrowed; outlives the front end */
    CXIndex index;
    kc_arena *arena;            /* strings that live as long as the front end */
    kc_cuda_unsaved shim;       /* shim (or compat) headers; texts are static */
    const char *cuda_path;      /* toolkit mode: the toolkit root, or NULL if none found */
    const char *sdk_version;    /* toolkit mode: "13.0", from CUDA_VERSION in its cuda.h */
    const char *builtin_inc;    /* clang's own include directory (stdint.h, ...), or NULL */
    CXCompilationDatabase db;   /* -p DIR, or NULL */
    char *db_error;             /* why -p DIR could not be used; owned */
    char *pch_dir;              /* where the header cache lives, or NULL; owned */
    bool pch_off;               /* the header cache failed once: parse without it from now on */
    kc_cuda_pch_memo pch_seen;  /* headers checked against their records (cuda_pch.h) */
    kc_cuda_headers *headers;   /* repositories' headers by name (cuda_headers.h), or NULL */
};

/* ---- small helpers ------------------------------------------------------ */

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool valid_arch(const char *a)
{
    if (!a || strncmp(a, "sm_", 3) != 0 || !isdigit((unsigned char)a[3]))
        return false;
    for (const char *p = a + 3; *p; p++)
        if (!isalnum((unsigned char)*p))
            return false;
    return strlen(a) < 16;
}

static char *read_small_file(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = kc_xmalloc(max + 1);
    size_t n = fread(buf, 1, max + 1, f);
    fclose(f);
    if (n > max) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* ---- include scan ------------------------------------------------------------ */

typedef struct kc_cuda_scan_inc {
    kc_cuda_frontend *fe;
    kc_arena *ar;
    kc_cuda_unsaved *unsaved;
    kc_cuda_args *args; /* directories found by ancestor_root are added to it */
    bool shim;
    bool roots;        /* look for project roots among the ancestors (ancestor_root) */
    unsigned nroots;   /* directories ancestor_root added */
    bool needs_cccl;  /* includes CUB, Thrust, libcu++ or cooperative groups */
    KC_VEC(const char *) seen;
    unsigned files;
} kc_cuda_scan_inc;

/* A HIP file or header by its path: a `.hip` file, one under a directory
 * named `hip`, `rocm` or `amd_detail` (HIP's own headers, a project's HIP
 * port, the kernels a project builds only for ROCm: vLLM's `csrc/rocm/`),
 * or one whose name says so (`hip_runtime.h`, `hip_reduce.h`,
 * `aiter_hip_common.h`). */
static bool hip_path(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".hip") == 0)
        return true;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (const char *p = path; *p; p++) {
        if (p != path && p[-1] != '/')
            continue;
        if (strncmp(p, "hip/", 4) == 0 || strncmp(p, "rocm/", 5) == 0 || strncmp(p, "amd_detail/", 11) == 0)
            return true;
    }
    for (const char *p = base; (p = strstr(p, "hip")) != NULL; p += 3)
        if ((p == base || p[-1] == '_') && (p[3] == '_' || p[3] == '.'))
            return true;
    return false;
}

/* The files a precompiled preamble includes (cuda_pch.h): one path a line. */
typedef struct kc_cuda_hidden {
    const char *text;
    size_t len;
} kc_cuda_hidden;

/* Calls fn(path, ud) for each of them. */
static void each_hidden(const kc_cuda_hidden *h, void (*fn)(const char *path, void *ud), void *ud)
{
    char line[4096];
    for (size_t i = 0; h->text && i < h->len;) {
        const char *nl = memchr(h->text + i, '\n', h->len - i);
        size_t n = nl ? (size_t)(nl - (h->text + i)) : h->len - i;
        if (n && n < sizeof line) {
            memcpy(line, h->text + i, n);
            line[n] = '\0';
            fn(line, ud);
        }
        i += n + 1;
    }
}

static void hip_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    CXString n = clang_getFileName(file);
    const char *name = clang_getCString(n);
    if (name && hip_path(name))
        *(bool *)data = true;
    clang_disposeString(n);
}

static void hip_hidden(const char *path, void *ud)
{
    if (hip_path(path))
        *(bool *)ud = true;
}

/* Does the text rename CUDA's API to HIP's (`#define cudaMalloc
 * hipMalloc`, twice or more, outside any `#if` but the include guard): a
 * HIP port's compatibility header (qsim's `cuda2hip.h`), which only a HIP
 * build includes. Renames under `#ifdef __HIP__` belong to a file written
 * for both, whose CUDA build stays CUDA. */
static bool renames_cuda_to_hip(const char *s, size_t n)
{
    unsigned hits = 0, directives = 0;
    int depth = 0, base = 0;
    for (size_t i = 0; i + 8 < n && hits < 2; i++) {
        if (s[i] != '#' || (i && s[i - 1] != '\n'))
            continue;
        size_t p = i + 1;
        while (p < n && (s[p] == ' ' || s[p] == '\t'))
            p++;
        directives++;
        if (p + 2 <= n && strncmp(s + p, "if", 2) == 0) {
            /* the first directive, `#ifndef GUARD`: the include guard */
            if (++depth == 1 && directives == 1 && strncmp(s + p, "ifndef", 6) == 0)
                base = 1;
            continue;
        }
        if (p + 5 <= n && strncmp(s + p, "endif", 5) == 0) {
            depth -= depth > 0;
            continue;
        }
        if (depth != base || p + 7 > n || strncmp(s + p, "define", 6) != 0)
            continue;
        for (p += 6; p < n && (s[p] == ' ' || s[p] == '\t'); p++)
            ;
        if (p + 2 > n || strncmp(s + p, "cu", 2) != 0)
            continue;
        while (p < n && (isalnum((unsigned char)s[p]) || s[p] == '_'))
            p++;
        while (p < n && (s[p] == ' ' || s[p] == '\t'))
            p++;
        hits += p + 3 <= n && (strncmp(s + p, "hip", 3) == 0 || strncmp(s + p, "HIP", 3) == 0);
    }
    return hits >= 2;
}

/* Is the translation unit HIP: the file's path says so, or the parse
 * included a HIP header (only those its `#if`s take), itself or through
 * its precompiled preamble (`hidden`, which the parse does not list), or
 * the file renames CUDA's API to HIP's? */
static bool is_hip(CXTranslationUnit tu, const kc_source *src, const kc_cuda_hidden *hidden,
                   const kc_cuda_errors *ce)
{
    const char *path = src->path;
    bool hip = hip_path(path) || renames_cuda_to_hip(src->text, src->len);
    if (!hip)
        clang_getInclusions(tu, hip_inclusion, &hip);
    if (!hip)
        each_hidden(hidden, hip_hidden, &hip);
    /* or meant to: a HIP header that was not found ("'hip/hip_runtime.h'
     * file not found", toolkit mode without ROCm) */
    for (uint32_t i = 0; !hip && i < ce->v.len; i++) {
        const char *msg = ce->v.data[i].msg, *q = msg ? strchr(msg, '\'') : NULL;
        const char *e = q ? strchr(q + 1, '\'') : NULL;
        if (e && strstr(e, "file not found") && (size_t)(e - q - 1) < 1024) {
            char name[1024];
            memcpy(name, q + 1, (size_t)(e - q - 1));
            name[e - q - 1] = '\0';
            hip = hip_path(name);
        }
    }
    return hip;
}

static bool seen_before(kc_cuda_scan_inc *s, const char *path)
{
    for (uint32_t i = 0; i < s->seen.len; i++)
        if (strcmp(s->seen.data[i], path) == 0)
            return true;
    kc_vec_push(&s->seen, path);
    return false;
}

static void scan_text(kc_cuda_scan_inc *s, const char *text, size_t len, const char *dir, unsigned depth);

static void scan_file(kc_cuda_scan_inc *s, const char *path, unsigned depth)
{
    if (depth > KC_CUDA_SCAN_MAX_DEPTH || s->files >= KC_CUDA_SCAN_MAX_FILES || seen_before(s, path))
        return;
    size_t len;
    char *text = read_small_file(path, KC_CUDA_SCAN_MAX_BYTES, &len);
    if (!text)
        return;
    s->files++;
    scan_text(s, text, len, kc_cuda_dir_of(s->ar, path), depth);
    free(text);
}

/* Where clang would find `name`, or NULL (user directories only). */
static const char *find_header(kc_cuda_scan_inc *s, const char *name, bool quoted, const char *dir)
{
    if (name[0] == '/')
        return kc_cuda_file_exists(name) ? name : NULL;
    if (quoted) {
        const char *p = kc_cuda_path_join(s->ar, dir, name);
        if (kc_cuda_file_exists(p))
            return p;
    }
    for (uint32_t i = 0; i < s->args->dirs.len; i++) {
        const char *p = kc_cuda_path_join(s->ar, s->args->dirs.data[i], name);
        if (kc_cuda_file_exists(p))
            return p;
    }
    return NULL;
}

/* A quoted include that is not found beside the file: most projects write
 * such names from a root their build adds with -I, an ancestor of the
 * including file, or that ancestor's include/ (MegEngine's
 * `"src/cuda/..."` from dnn/, `"megdnn/arch.h"` from dnn/include;
 * ccminer's `"cuda_helper.h"` from x11/, at the repository's top). The
 * nearest such directory that holds the file is added to the search path;
 * NULL if none of the 8 nearest ancestors, up to the repository's root (a
 * directory with .git), does. */
static const char *ancestor_root(kc_cuda_scan_inc *s, const char *name, const char *dir)
{
    /* An angle-bracket name is looked up the same way when it names a
     * path (`<cudf/types.hpp>` from cpp/include, `<ATen/Tensor.h>` from
     * aten/src) and nothing outside the project provides it: the system's
     * headers, the toolkit's, clang's, PyTorch's stand-ins. */
    /* the same ancestors whatever the path looks like (`./a/b.cu`, `a/b.cu`) */
    char *real = realpath(dir, NULL);
    if (!real)
        return NULL;
    char *a = kc_arena_strdup(s->ar, real);
    free(real);
    for (int up = 0; up < 8; up++) {
        char *slash = strrchr(a, '/');
        if (!slash || slash == a)
            return NULL;
        *slash = 0;
        const char *cand[] = {a, kc_cuda_path_join(s->ar, a, "include")};
        for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
            const char *p = kc_cuda_path_join(s->ar, cand[i], name);
            if (!kc_cuda_file_exists(p))
                continue;
            const char *root = kc_arena_strdup(s->ar, cand[i]);
            kc_cuda_arg(s->args, kc_arena_printf(s->ar, "-I%s", root));
            kc_vec_push(&s->args->dirs, root);
            s->nroots++;
            return p;
        }
        /* not above the repository's root: another project's files; but
         * a header of the repository by its name (cuda_headers.h) */
        if (dir_exists(kc_cuda_path_join(s->ar, a, ".git")) || kc_cuda_file_exists(kc_cuda_path_join(s->ar, a, ".git"))) {
            const char *p = kc_cuda_headers_find(&s->fe->headers, a, name);
            if (!p)
                return NULL;
            const char *root = kc_arena_strndup(s->ar, p, strlen(p) - strlen(name) - 1);
            kc_cuda_arg(s->args, kc_arena_printf(s->ar, "-I%s", root));
            kc_vec_push(&s->args->dirs, root);
            s->nroots++;
            return kc_arena_strdup(s->ar, p);
        }
    }
    return NULL;
}

/* CUB, Thrust, libcu++ or cooperative groups: the toolkit's. */
static bool cccl_path(const char *name)
{
    return strncmp(name, "cub/", 4) == 0 || strncmp(name, "thrust/", 7) == 0 || strncmp(name, "cuda/", 5) == 0 ||
           strncmp(name, "nv/", 3) == 0 || strncmp(name, "cooperative_groups", 18) == 0;
}

/* An angle-bracket include that may be the project's own: a path with a
 * directory (`<cudf/types.hpp>`, not `<vector>`), not a library kcheck
 * stands in for, and found in none of the system's include directories. */
static bool project_path(kc_cuda_scan_inc *s, const char *name)
{
    if (!strchr(name, '/') || cccl_path(name) || kc_cuda_shim_library(name) || kc_cuda_shim_provides(name))
        return false;
    const char *sys[] = {s->fe->builtin_inc,
                         s->fe->cuda_path ? kc_cuda_path_join(s->ar, s->fe->cuda_path, "include") : NULL,
                         "/usr/local/include", "/usr/include"};
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
        if (sys[i] && kc_cuda_file_exists(kc_cuda_path_join(s->ar, sys[i], name)))
            return false;
    return true;
}

static void on_include(kc_cuda_scan_inc *s, const char *name, bool quoted, const char *dir, unsigned depth)
{
    if (!name[0] || strstr(name, ".."))
        return; /* a relative climb: found on disk or not, no stand-in */
    if (cccl_path(name))
        s->needs_cccl = true;
    if (s->shim && kc_cuda_shim_provides(name))
        return;
    const char *found = find_header(s, name, quoted, dir);
    if (!found && s->roots && (quoted || project_path(s, name)))
        found = ancestor_root(s, name, dir);
    if (found) {
        scan_file(s, found, depth + 1);
        return;
    }
    if (name[0] == '/')
        return;
    /* clang's own headers (stdint.h, ...) #include_next the system ones
     * when there are any: a stand-in would shadow their definitions. */
    if (s->fe->builtin_inc && kc_cuda_file_exists(kc_cuda_path_join(s->ar, s->fe->builtin_inc, name)))
        return;
    /* Toolkit mode: the system's headers are real; only the user's missing
     * ones get a stand-in, and PyTorch's, which the shim has too. */
    if (!s->shim && kc_cuda_shim_library(name)) {
        kc_cuda_shim_add_library(s->unsaved, KC_CUDA_SHIM_STUBS, name, s->ar);
        return;
    }
    if (!s->shim && !quoted)
        return;
    char *stub = kc_xasprintf("%s/%s", KC_CUDA_SHIM_STUBS, name);
    if (kc_cuda_unsaved_has(s->unsaved, stub)) {
        free(stub);
        return;
    }
    /* (configured from its template where the repository has one) */
    const char *tpl = NULL;
    size_t n = 0;
    char *text = kc_cuda_configured_header(&s->fe->headers, dir, name, &n, &tpl);
    kc_cuda_unsaved_add_owned(s->unsaved, stub, text, n);
    if (text)
        scan_text(s, text, n, kc_cuda_dir_of(s->ar, tpl), depth + 1);
}

/* Finds `#include <name>` / `#include "name"` lines (also include_next and
 * import). Comments and conditionals are ignored: a stand-in too many is
 * harmless because it is searched last. */
static void scan_text(kc_cuda_scan_inc *s, const char *text, size_t len, const char *dir, unsigned depth)
{
    size_t i = 0;
    while (i < len) {
        size_t line_end = i;
        while (line_end < len && text[line_end] != '\n')
            line_end++;
        size_t p = i;
        while (p < line_end && (text[p] == ' ' || text[p] == '\t'))
            p++;
        if (p < line_end && text[p] == '#') {
            p++;
            while (p < line_end && (text[p] == ' ' || text[p] == '\t'))
                p++;
            size_t w = p;
            while (w < line_end && isalpha((unsigned char)text[w]))
                w++;
            size_t wl = w - p;
            bool inc = (wl == 7 && strncmp(text + p, "include", 7) == 0) ||
                       (wl == 6 && strncmp(text + p, "import", 6) == 0);
            if (!inc && w < line_end && text[w] == '_' && strncmp(text + p, "include_next", 12) == 0) {
                inc = true;
                w = p + 12;
            }
            if (inc) {
                while (w < line_end && (text[w] == ' ' || text[w] == '\t'))
                    w++;
                char close = w < line_end && text[w] == '<' ? '>' : w < line_end && text[w] == '"' ? '"' : 0;
                if (close) {
                    size_t a = w + 1, b = a;
                    while (b < line_end && text[b] != close)
                        b++;
                    if (b < line_end && b - a < 512) {
                        char *name = kc_xstrndup(text + a, b - a);
                        on_include(s, name, close == '"', dir, depth);
                        free(name);
                    }
                }
            }
        }
        i = line_end + 1;
    }
}

/* ---- the front end object -------------------------------------------------------- */

static const char *detect_cuda_path(kc_arena *ar, const char *given)
{
    if (given && given[0])
        return dir_exists(given) ? kc_arena_strdup(ar, given) : NULL;
    const char *env[] = {getenv("CUDA_PATH"), getenv("CUDA_HOME"), getenv("CUDA_ROOT")};
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
        if (env[i] && env[i][0] && kc_cuda_file_exists(kc_cuda_path_join(ar, env[i], "include/cuda_runtime.h")))
            return kc_arena_strdup(ar, env[i]);
    if (kc_cuda_file_exists("/usr/local/cuda/include/cuda_runtime.h"))
        return "/usr/local/cuda";
    return NULL;
}

/* clang's resource include directory: <libdir>/clang/<version>/include
 * next to the libclang in use (where libclang itself looks for it). */
static const char *find_builtin_include(kc_arena *ar)
{
    Dl_info info;
    void *sym = (void *)(uintptr_t)clang_createIndex;
    char real[PATH_MAX];
    if (dladdr(sym, &info) && info.dli_fname && realpath(info.dli_fname, real)) {
        const char *libdir = kc_cuda_dir_of(ar, real);
        const char *direct = kc_arena_printf(ar, "%s/clang/%d/include", libdir, KCHECK_LLVM_MAJOR);
        if (kc_cuda_file_exists(kc_cuda_path_join(ar, direct, "stdint.h")))
            return direct;
        const char *clangdir = kc_cuda_path_join(ar, libdir, "clang");
        DIR *d = opendir(clangdir);
        const char *found = NULL;
        for (struct dirent *e; d && !found && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            const char *inc = kc_arena_printf(ar, "%s/%s/include", clangdir, e->d_name);
            if (kc_cuda_file_exists(kc_cuda_path_join(ar, inc, "stdint.h")))
                found = inc;
        }
        if (d)
            closedir(d);
        if (found)
            return found;
    }
    const char *debian = kc_arena_printf(ar, "/usr/lib/llvm-%d/lib/clang/%d/include", KCHECK_LLVM_MAJOR,
                                         KCHECK_LLVM_MAJOR);
    return kc_cuda_file_exists(kc_cuda_path_join(ar, debian, "stdint.h")) ? debian : NULL;
}

/* The toolkit's version as clang's -target-sdk-version wants it ("13.0"),
 * from `#define CUDA_VERSION 13000` in its cuda.h; "12.0" if unreadable. */
static const char *toolkit_version(kc_arena *ar, const char *root)
{
    FILE *f = fopen(kc_cuda_path_join(ar, root, "include/cuda.h"), "r");
    char line[512];
    long v = 0;
    while (f && !v && fgets(line, sizeof line, f)) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "#define CUDA_VERSION", 20) == 0 && (p[20] == ' ' || p[20] == '\t'))
            v = strtol(p + 20, NULL, 10);
    }
    if (f)
        fclose(f);
    if (v < 1000 || v > 99999)
        return "12.0";
    return kc_arena_printf(ar, "%ld.%ld", v / 1000, (v % 1000) / 10);
}

kc_cuda_frontend *kc_cuda_frontend_new(const kc_options *opts)
{
    /* Declarations from a precompiled header (the toolkit's) are not
     * visited with the file's own: the lowering never looks at them. */
    CXIndex index = clang_createIndex(1, 0);
    if (!index)
        return NULL;
    kc_cuda_frontend *fe = kc_xcalloc(1, sizeof *fe);
    fe->opts = opts;
    fe->index = index;
    fe->arena = kc_arena_new();
    fe->builtin_inc = find_builtin_include(fe->arena);
    if (opts->cuda_mode == KC_CUDA_TOOLKIT) {
        fe->cuda_path = detect_cuda_path(fe->arena, opts->cuda_path);
        fe->sdk_version = fe->cuda_path ? toolkit_version(fe->arena, fe->cuda_path) : NULL;
        kc_cuda_shim_add_compat(&fe->shim, KCHECK_LLVM_MAJOR);
    } else {
        kc_cuda_shim_add(&fe->shim, fe->arena);
    }
    char *root = opts->no_header_cache ? NULL : kc_cache_root(opts);
    if (root)
        fe->pch_dir = kc_xasprintf("%s/headers-1", root);
    free(root);
    if (opts->compile_db_dir && !(fe->db = kc_cuda_db_open(opts->compile_db_dir)))
        fe->db_error = kc_xasprintf("cannot load compile_commands.json from '%s'", opts->compile_db_dir);
    return fe;
}

void kc_cuda_frontend_delete(kc_cuda_frontend *fe)
{
    if (!fe)
        return;
    if (fe->db)
        clang_CompilationDatabase_dispose(fe->db);
    clang_disposeIndex(fe->index);
    kc_cuda_unsaved_free(&fe->shim);
    kc_arena_delete(fe->arena);
    free(fe->db_error);
    free(fe->pch_dir);
    kc_vec_free(&fe->pch_seen);
    kc_cuda_headers_free(fe->headers);
    free(fe);
}

/* The full argument list for one file. */
static void build_args(kc_cuda_frontend *fe, kc_arena *ar, const kc_source *src, kc_cuda_args *a)
{
    const kc_options *o = fe->opts;
    bool shim = o->cuda_mode != KC_CUDA_TOOLKIT;
    kc_cuda_args user = {0};
    kc_cuda_db_flags(fe->db, ar, src->path, &user, shim);
    /* -I in the extra arguments count for the include scan too. */
    for (uint32_t i = 0; i < o->extra_args.len; i++) {
        const char *x = o->extra_args.data[i];
        if (strncmp(x, "-I", 2) == 0 && x[2])
            kc_vec_push(&user.dirs, kc_cuda_path_join(ar, ".", x + 2));
        else if ((strcmp(x, "-I") == 0 || strcmp(x, "-isystem") == 0) && i + 1 < o->extra_args.len)
            kc_vec_push(&user.dirs, o->extra_args.data[i + 1]);
    }
    const char *arch = valid_arch(o->cuda_arch) ? o->cuda_arch : valid_arch(user.arch) ? user.arch : "sm_75";
    a->arch = arch;
    kc_cuda_arg(a, "-x");
    kc_cuda_arg(a, "cuda");
    kc_cuda_arg(a, "-std=c++17");
    kc_cuda_arg(a, "--cuda-device-only");
    kc_cuda_arg(a, kc_arena_printf(ar, "--cuda-gpu-arch=%s", arch));
    kc_cuda_arg(a, "-nocudalib");
    kc_cuda_arg(a, "-Wno-unknown-cuda-version");
    kc_cuda_arg(a, "-w");
    kc_cuda_arg(a, "-ferror-limit=0");
    /* clang's own recursion over nested brackets overflows its 8 MiB parse
     * thread before its default limit (2048) on pathological input. */
    kc_cuda_arg(a, "-fbracket-depth=256");
    /* what a `__host__ __device__` macro of a missing header is read as,
     * in its own place and length (cuda_macros.c) */
    kc_cuda_arg(a, "-D" KC_CUDA_HD_MACRO "=__host__ __device__");
    if (shim) {
        kc_cuda_arg(a, "-nocudainc");
        kc_cuda_arg(a, "--cuda-path=" KC_CUDA_SHIM_NO_TOOLKIT);
        kc_cuda_arg(a, "-nostdlibinc");
        kc_cuda_arg(a, "-I" KC_CUDA_SHIM_INCLUDE);
        kc_cuda_arg(a, "-include");
        kc_cuda_arg(a, KC_CUDA_SHIM_PRELUDE);
    } else {
        kc_cuda_arg(a, kc_arena_printf(ar, "--cuda-path=%s", fe->cuda_path));
        /* A clang that does not know the toolkit's version takes it for an
         * old one in device-only mode and looks up the launch function that
         * CUDA 9.2 replaced (cudaConfigureCall, gone from CUDA 13): every
         * `kernel<<<...>>>(...)` would be an error and its shape lost. */
        kc_cuda_arg(a, "-Xclang");
        kc_cuda_arg(a, kc_arena_printf(ar, "-target-sdk-version=%s", fe->sdk_version));
        /* nvcc's version macros, which clang does not define: code written
         * for nvcc tests them (`#if __CUDACC_VER_MAJOR__ >= 9` around the
         * `_sync` forms of the shuffles), as the shim's prelude has them */
        unsigned major = 0, minor = 0;
        if (sscanf(fe->sdk_version, "%u.%u", &major, &minor) == 2) {
            kc_cuda_arg(a, kc_arena_printf(ar, "-D__CUDACC_VER_MAJOR__=%u", major));
            kc_cuda_arg(a, kc_arena_printf(ar, "-D__CUDACC_VER_MINOR__=%u", minor));
            kc_cuda_arg(a, "-D__CUDACC_VER_BUILD__=0");
        }
        if (KCHECK_LLVM_MAJOR < 22)
            kc_cuda_arg(a, "-I" KC_CUDA_SHIM_COMPAT);
    }
    for (uint32_t i = 0; i < user.v.len; i++)
        kc_cuda_arg(a, user.v.data[i]);
    /* A PyTorch or CMake project keeps its headers in an include/ beside
     * or above its sources and names it in setup.py or CMakeLists.txt,
     * which kcheck does not read: searched after every directory the user
     * gave, as those build files would. */
    const char *dir = kc_cuda_dir_of(ar, src->path);
    const char *conv[] = {kc_cuda_path_join(ar, dir, "include"), kc_cuda_path_join(ar, dir, "../include")};
    for (size_t i = 0; i < sizeof conv / sizeof conv[0]; i++)
        if (dir_exists(conv[i])) {
            kc_cuda_arg(a, kc_arena_printf(ar, "-I%s", conv[i]));
            kc_vec_push(&user.dirs, conv[i]);
        }
    kc_cuda_arg(a, "-idirafter");
    kc_cuda_arg(a, KC_CUDA_SHIM_STUBS);
    for (uint32_t i = 0; i < o->extra_args.len; i++)
        kc_cuda_arg(a, o->extra_args.data[i]);
    a->dirs = user.dirs;
    a->rsp = user.rsp;
    kc_vec_free(&user.v);
    kc_vec_free(&user.ignored);
}

/* ---- diagnostics ------------------------------------------------------------------- */

static const char *error_code_name(enum CXErrorCode e)
{
    switch (e) {
    case CXError_Success: return "success";
    case CXError_Failure: return "failure";
    case CXError_Crashed: return "libclang crashed";
    case CXError_InvalidArguments: return "invalid arguments";
    case CXError_ASTReadError: return "AST read error";
    }
    return "unknown error";
}

/* ---- lowering one file ----------------------------------------------------------------- */

/* Does the argument list -include a file of its own (which a precompiled
 * prefix would put in the wrong place)? */
static bool includes_files(const kc_cuda_args *a)
{
    for (uint32_t i = 0; i < a->v.len; i++)
        if ((strncmp(a->v.data[i], "-include", 8) == 0 || strcmp(a->v.data[i], "--include") == 0) &&
            !(i + 1 < a->v.len && strcmp(a->v.data[i + 1], KC_CUDA_SHIM_PRELUDE) == 0))
            return true;
    return false;
}

/* Did libclang refuse the precompiled header (stale, or from another
 * build)? Its complaints name it. */
static bool pch_rejected(CXTranslationUnit tu, const char *pch)
{
    bool bad = false;
    /* the set the translation unit owns: clang_getNumDiagnostics would
     * build it again on every call (docs/robustness.md) */
    CXDiagnosticSet set = clang_getDiagnosticSetFromTU(tu);
    for (unsigned i = 0, n = clang_getNumDiagnosticsInSet(set); i < n && !bad; i++) {
        CXDiagnostic d = clang_getDiagnosticInSet(set, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_getDiagnosticSpelling(d);
            const char *m = clang_getCString(s);
            bad = m && (strstr(m, pch) || strstr(m, "precompiled header") || strstr(m, "PCH file") ||
                        strstr(m, "AST file"));
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return bad;
}

/* Keep going after fatal errors: a header missing deep inside another one
 * must not cut the file short. (Safe with the bracket depth limit above:
 * clang's error recovery recurses over open brackets.) */
#define KC_CUDA_PARSE_FLAGS CXTranslationUnit_KeepGoing

/* Parses with `-include-pch pch` (freed here): true, with *ec and *tu set,
 * when that parse stands; false when libclang refused the header (stale,
 * damaged, from another build), which is then removed so that the next
 * request rebuilds it. */
static bool parse_with_pch(kc_cuda_frontend *fe, const kc_source *src, kc_cuda_args *a, kc_cuda_unsaved *unsaved,
                           char *pch, CXTranslationUnit *tu, enum CXErrorCode *ec)
{
    uint32_t n = a->v.len;
    kc_cuda_arg(a, "-include-pch");
    kc_cuda_arg(a, pch);
    *ec = clang_parseTranslationUnit2(fe->index, src->path, a->v.data, (int)a->v.len, unsaved->files.data,
                                      unsaved->files.len, KC_CUDA_PARSE_FLAGS, tu);
    a->v.len = n;
    bool ok = *ec == CXError_Success && *tu && !pch_rejected(*tu, pch);
    if (!ok) {
        if (*tu)
            clang_disposeTranslationUnit(*tu);
        *tu = NULL;
        kc_cuda_pch_discard(pch);
    }
    free(pch);
    return ok;
}

/* Parses the file in front of its own precompiled preamble (cuda_pch.h),
 * the preamble's text blanked out in the in-memory copy (lines and columns
 * unchanged; headers without include guards are not read twice). True
 * when that parse stands, with *ec and *tu set; false when there is no
 * such header yet or libclang refused it (a header it includes changed
 * since: it is discarded, to be rebuilt on the next request). */
static bool parse_with_preamble(kc_cuda_frontend *fe, kc_arena *ar, const kc_source *src, kc_cuda_args *a,
                                kc_cuda_unsaved *unsaved, const char *shared, CXTranslationUnit *tu,
                                enum CXErrorCode *ec, kc_cuda_hidden *hidden)
{
    size_t len = kc_cuda_preamble_len(src->text, src->len);
    uint32_t nu = unsaved->files.len;
    if (!len || !nu || strcmp(unsaved->files.data[nu - 1].Filename, src->path) != 0)
        return false;
    const char *stand_in = "__kcheck_preamble__.cu";
    kc_cuda_preamble pre = {
        .main = strchr(src->path, '/') ? kc_cuda_path_join(ar, kc_cuda_dir_of(ar, src->path), stand_in) : stand_in,
        .text = src->text,
        .len = len,
    };
    /* The header may be written with errors in the headers it includes
     * (cuda_pch.c says which), and read back. It is built on top of the
     * shared header (a chained precompiled header: only what the preamble
     * adds, a third of the size in toolkit mode, built in half the time),
     * which libclang finds again through it when it is read; the shared
     * header's path, hence its key, is part of the preamble's key. */
    uint32_t n = a->v.len;
    kc_cuda_arg(a, "-Xclang");
    kc_cuda_arg(a, "-fallow-pch-with-compiler-errors");
    uint32_t m = a->v.len;
    kc_cuda_arg(a, "-include-pch");
    kc_cuda_arg(a, shared);
    char *why = NULL;
    char *pch = kc_cuda_pch_get(fe->index, fe->pch_dir, fe->cuda_path, a->v.data, a->v.len, unsaved->files.data,
                                nu - 1, &pre, &fe->pch_seen, &why);
    free(why); /* whatever kept it from being built, the file parses without it */
    a->v.len = m;
    /* what the header includes, which the parse behind it will not list
     * (a HIP header, the file's dependencies): without it, no header */
    size_t ilen = 0;
    char *incs = pch ? kc_cuda_pch_inclusions(pch, &ilen) : NULL;
    if (!incs) {
        free(pch);
        a->v.len = n;
        return false;
    }
    hidden->text = kc_arena_strndup(ar, incs, ilen);
    hidden->len = ilen;
    free(incs);
    char *blank = kc_arena_alloc(ar, src->len + 1);
    memcpy(blank, src->text, src->len);
    for (size_t i = 0; i < len; i++)
        if (blank[i] != '\n' && blank[i] != '\r')
            blank[i] = ' ';
    struct CXUnsavedFile *mainf = &unsaved->files.data[nu - 1];
    const char *text = mainf->Contents;
    mainf->Contents = blank;
    bool ok = parse_with_pch(fe, src, a, unsaved, pch, tu, ec);
    mainf->Contents = text;
    a->v.len = n;
    if (!ok)
        *hidden = (kc_cuda_hidden){NULL, 0};
    return ok;
}

/* Parses the file in front of its precompiled preamble, or of the cached
 * precompiled CUDA headers (the shim's or the toolkit's) when they can be
 * had, and without them if libclang refuses them. */
static enum CXErrorCode parse(kc_cuda_frontend *fe, kc_arena *ar, const kc_source *src, kc_cuda_args *a,
                              kc_cuda_unsaved *unsaved, CXTranslationUnit *tu, kc_cuda_hidden *hidden)
{
    *hidden = (kc_cuda_hidden){NULL, 0};
    if (fe->pch_dir && !fe->pch_off && !includes_files(a)) {
        enum CXErrorCode ec;
        char *why = NULL;
        char *pch = kc_cuda_pch_get(fe->index, fe->pch_dir, fe->cuda_path, a->v.data, a->v.len,
                                    fe->shim.files.data, fe->shim.files.len, NULL, &fe->pch_seen, &why);
        free(why);
        if (pch && parse_with_preamble(fe, ar, src, a, unsaved, pch, tu, &ec, hidden)) {
            free(pch);
            return ec;
        }
        if (pch && parse_with_pch(fe, src, a, unsaved, pch, tu, &ec))
            return ec;
        /* Whatever failed would fail again for the next file; a header
         * libclang refused is rebuilt by the next run, not once per file. */
        fe->pch_off = true;
    }
    return clang_parseTranslationUnit2(fe->index, src->path, a->v.data, (int)a->v.len, unsaved->files.data,
                                       unsaved->files.len, KC_CUDA_PARSE_FLAGS, tu);
}

/* A header (anything but a .cu file) may need its includer's context: parsed
 * on its own, what it lacks is reported as gaps, never as a failure. */
static bool is_header(const char *path)
{
    return !kc_path_is_cuda_source(path);
}

typedef struct dep_visit {
    kc_model *m;
    const char *main;
    const kc_cuda_frontend *fe;
} dep_visit;

static void add_dep(const dep_visit *v, const char *path)
{
    kc_model *m = v->m;
    if (!path || !*path || !strcmp(path, v->main))
        return;
    /* the built-in stand-in headers: part of kcheck's build, in every key */
    for (uint32_t i = 0; i < v->fe->shim.files.len; i++)
        if (!strcmp(v->fe->shim.files.data[i].Filename, path))
            return;
    /* absolute, so that a run from another directory checks the same file */
    char *abs = realpath(path, NULL);
    const char *p = abs ? abs : path;
    for (uint32_t i = 0; i < m->deps.len; i++)
        if (!strcmp(m->deps.data[i], p)) {
            free(abs);
            return;
        }
    kc_vec_push(&m->deps, kc_arena_strdup(m->arena, p));
    free(abs);
}

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    dep_visit *v = data;
    CXString n = clang_getFileName(file);
    add_dep(v, clang_getCString(n));
    clang_disposeString(n);
}

/* The files the parse read besides the source: every inclusion libclang
 * made (through -I, <...>, other headers, precompiled ones included) and
 * the headers the include scan found; not the built-in stand-in headers. */
static void hidden_dep(const char *path, void *ud) { add_dep(ud, path); }

static void record_deps(const kc_cuda_frontend *fe, CXTranslationUnit tu, kc_model *m, const char *main,
                        const kc_cuda_scan_inc *scan, const kc_cuda_args *a, const kc_cuda_hidden *hidden)
{
    dep_visit v = {m, main, fe};
    clang_getInclusions(tu, visit_inclusion, &v);
    each_hidden(hidden, hidden_dep, &v);
    for (uint32_t i = 0; i < scan->seen.len; i++)
        add_dep(&v, scan->seen.data[i]);
    for (uint32_t i = 0; i < a->rsp.len; i++)
        add_dep(&v, a->rsp.data[i]);
}

/* A file that failed to parse while headers it includes were not found:
 * most often the errors are theirs (a type, a template or a macro they
 * define), so the error names them and how to supply them. */
static void note_missing_headers(const kc_cuda_unsaved *u, const kc_cuda_errors *ce, kc_file_errors *errs)
{
    size_t pre = strlen(KC_CUDA_SHIM_STUBS "/");
    kc_strbuf names = {0};
    uint32_t n = 0;
    /* given an empty stand-in (shim mode, or a quoted include) */
    for (uint32_t i = 0; i < u->files.len; i++) {
        const char *f = u->files.data[i].Filename;
        if (strncmp(f, KC_CUDA_SHIM_STUBS "/", pre) != 0)
            continue;
        if (n < 3)
            kc_sb_appendf(&names, "%s`%s`", n ? ", " : "", f + pre);
        n++;
    }
    /* not found (toolkit mode): "'cute/tensor.hpp' file not found" */
    for (uint32_t i = 0; i < ce->v.len; i++) {
        const char *msg = ce->v.data[i].msg, *q = msg ? strchr(msg, '\'') : NULL;
        const char *e = q ? strchr(q + 1, '\'') : NULL;
        if (!e || !strstr(e, "file not found"))
            continue;
        if (n < 3)
            kc_sb_appendf(&names, "%s`%.*s`", n ? ", " : "", (int)(e - q - 1), q + 1);
        n++;
    }
    if (n)
        kc_file_errors_add(errs, 0, 0,
                           "%u included header%s not found (%s%s): the errors above are most likely theirs; give "
                           "their directories after `--` (`kcheck FILE -- -I DIR`) or through `-p DIR` "
                           "(compile_commands.json)",
                           n, n == 1 ? " was" : "s were", kc_sb_str(&names), n > 3 ? ", ..." : "");
    kc_sb_free(&names);
}

/* The qualifier macros that were made empty, as gaps of the kernels that
 * use them (KC002 says the kernel was analysed without knowing them). */
static void assumed_qualifiers(kc_model *m, const kc_source *src, const kc_cuda_qual_macros *quals)
{
    for (uint32_t i = 0; i < quals->len; i++) {
        uint32_t line, col;
        kc_source_position(src, quals->data[i].offset, &line, &col);
        kc_span sp = {.line = line, .col = col, .end_line = line, .end_col = col + (uint32_t)strlen(quals->data[i].name)};
        int k = kc_cuda_kernel_at(m, line);
        kc_model_add_gap(m, KC_GAP_NAME, sp, quals->data[i].name, k < 0 ? NULL : m->kernels.data[k]->name);
    }
}

/* The memory libclang holds for the parse (its AST, identifiers, source
 * buffers, preprocessor), against --file-memory: true (and the error
 * added) when over. */
static bool over_memory(kc_cuda_frontend *fe, CXTranslationUnit tu, kc_file_errors *errs)
{
    size_t limit = fe->opts->file_memory;
    if (!limit)
        return false;
    CXTUResourceUsage u = clang_getCXTUResourceUsage(tu);
    size_t used = 0;
    for (unsigned i = 0; i < u.numEntries; i++)
        used += u.entries[i].amount;
    clang_disposeCXTUResourceUsage(u);
    if (used <= limit)
        return false;
    kc_file_errors_over_memory(errs, "the parse", used, limit);
    return true;
}

/* One parse and lowering of `src` (`model_src` as the user wrote it),
 * with project roots found among its ancestors (`roots`) or not; *nroots
 * gets how many were added. NULL with `errs` filled when the file is not
 * checked. */
static kc_model *lower_with(kc_cuda_frontend *fe, kc_arena *ar, const kc_source *src, const kc_source *model_src,
                            const kc_cuda_qual_macros *quals, bool shim, bool roots, kc_file_errors *errs,
                            unsigned *nroots)
{
    kc_cuda_args a = {0};
    build_args(fe, ar, src, &a);

    kc_cuda_unsaved unsaved = {0};
    for (uint32_t i = 0; i < fe->shim.files.len; i++)
        kc_vec_push(&unsaved.files, fe->shim.files.data[i]);
    kc_cuda_scan_inc scan = {.fe = fe, .ar = ar, .unsaved = &unsaved, .args = &a, .shim = shim, .roots = roots};
    kc_vec_push(&scan.seen, src->path);
    scan_text(&scan, src->text, src->len, kc_cuda_dir_of(ar, src->path), 0);
    kc_cuda_unsaved_add(&unsaved, src->path, src->text, src->len);
    /* CUDA 13 keeps CUB, Thrust and libcu++ (CCCL) in include/cccl, which
     * nvcc searches and clang's CUDA driver does not; searched only when the
     * file needs them, since the toolkit's headers then pull in libcu++
     * (twice the parse time). */
    const char *cccl = shim ? NULL : kc_cuda_path_join(ar, fe->cuda_path, "include/cccl");
    if (cccl && scan.needs_cccl && dir_exists(cccl)) {
        kc_cuda_arg(&a, "-isystem");
        kc_cuda_arg(&a, cccl);
    }

    CXTranslationUnit tu = NULL;
    kc_cuda_hidden hidden;
    enum CXErrorCode ec = parse(fe, ar, src, &a, &unsaved, &tu, &hidden);
    kc_model *m = NULL;
    if (ec != CXError_Success || !tu) {
        kc_file_errors_add(errs, 0, 0, "libclang could not parse the file (%s, code %d)", error_code_name(ec), (int)ec);
    } else if (over_memory(fe, tu, errs)) {
        /* given up */
    } else {
        kc_cuda_errors ce = {.arch = a.arch};
        if (kc_cuda_errors_collect(tu, src, ar, &ce, errs)) {
            m = kc_model_new(model_src, KC_LANG_CUDA);
            kc_arena_set_limit(m->arena, fe->opts->file_memory);
            uint32_t nholes = 0;
            kc_cuda_hole *holes = kc_cuda_errors_holes(&ce, ar, &nholes);
            /* (before lowering: the host facts read the headers) */
            record_deps(fe, tu, m, src->path, &scan, &a, &hidden);
            kc_cuda_lower_tu(tu, src, m, holes, nholes);
            /* An unknown name drops its statement as surely as a syntax
             * error: `<<<..., n * sizeof(opmath_t)>>>` with `opmath_t`
             * from a missing header loses the launch. */
            if (ce.v.len)
                kc_cuda_recover_launches(m, src);
            m->hip = is_hip(tu, src, &hidden, &ce);
            assumed_qualifiers(m, model_src, quals);
            kc_cuda_unsure_branches(m, model_src, &ce);
            /* the file as written: a specifier macro read as `__device__`
             * (cuda_macros.c) makes no device code of its own */
            bool tolerant =
                is_header(src->path) || !kc_source_has_device_functions(model_src->text, model_src->len);
            if (kc_arena_over(m->arena)) {
                kc_file_errors_over_memory(errs, "its kernel model", kc_arena_bytes(m->arena),
                                           fe->opts->file_memory);
                kc_model_delete(m);
                m = NULL;
            } else if (!kc_cuda_errors_apply(m, &ce, tolerant, errs)) {
                kc_model_delete(m);
                m = NULL;
                note_missing_headers(&unsaved, &ce, errs);
            }
        }
        kc_cuda_errors_free(&ce);
    }
    *nroots = scan.nroots;
    if (tu)
        clang_disposeTranslationUnit(tu);
    kc_vec_free(&scan.seen);
    kc_cuda_unsaved_free(&unsaved);
    kc_cuda_args_free(&a);
    return m;
}

kc_model *kc_cuda_lower(kc_cuda_frontend *fe, const kc_source *file, kc_file_errors *errs)
{
    /* parsed and scanned with its lone CRs as LFs (the line scans below
     * end lines at LF); offsets, lines and columns are the same */
    const kc_source lf = kc_source_lf_view(file), *src = &lf;
    if (fe->db_error) {
        kc_file_errors_add(errs, 0, 0, "%s", fe->db_error);
        return NULL;
    }
    bool shim = fe->opts->cuda_mode != KC_CUDA_TOOLKIT;
    if (!shim && !fe->cuda_path) {
        kc_file_errors_add(errs, 0, 0,
                           "CUDA toolkit not found (toolkit mode): pass --cuda-path or set CUDA_PATH, or use the "
                           "default shim mode");
        return NULL;
    }
    kc_arena *ar = kc_arena_new();
    const char *bomb;
    uint32_t bomb_line;
    uint64_t bomb_tokens;
    if (kc_cuda_macro_bomb(ar, src->text, src->len, &bomb, &bomb_line, &bomb_tokens)) {
        kc_file_errors_add(errs, bomb_line, 1,
                           "macro `%s` expands to %s%llu tokens (more than %llu): the file is not parsed", bomb,
                           bomb_tokens >= (1ull << 40) ? "over " : "about ", (unsigned long long)bomb_tokens,
                           (unsigned long long)KC_CUDA_MACRO_MAX_TOKENS);
        kc_arena_delete(ar);
        return NULL;
    }
    /* clang reads a file name that begins with '-' as an option (a file
     * named -o.cu): libclang is given ./NAME for it instead. */
    kc_source named = *src;
    if (src->path[0] == '-')
        named.path = (char *)kc_arena_printf(ar, "./%s", src->path);
    const kc_source *model_src = file;
    src = &named;
    /* qualifier macros from headers that were not found: blanked in the
     * text libclang parses (lines and columns unchanged; the precompiled
     * headers' keys too), so that the declarations using them parse; each
     * is reported as an unknown name */
    kc_cuda_qual_macros quals = {0};
    char *blanked = kc_cuda_qualifier_macros(ar, src->text, src->len, &quals);
    if (blanked)
        named.text = blanked;
    char *spaced = kc_cuda_spaced_launches(ar, named.text, named.len);
    if (spaced)
        named.text = spaced;
    /* Headers found under an ancestor can bring in what the file's build
     * never sees (a HIP port's headers, the rest of a project whose own
     * headers are missing): when the file is then not checked, it is
     * checked again with stand-ins for them, as before they were found. */
    kc_file_errors first = {0};
    unsigned nroots = 0;
    kc_model *m = lower_with(fe, ar, src, model_src, &quals, shim, true, &first, &nroots);
    if (!m && nroots) {
        kc_file_errors_free(&first);
        m = lower_with(fe, ar, src, model_src, &quals, shim, false, errs, &nroots);
    } else {
        for (uint32_t i = 0; i < first.items.len; i++)
            kc_vec_push(&errs->items, first.items.data[i]);
        first.items.len = 0;
        kc_file_errors_free(&first);
    }
    kc_vec_free(&quals);
    kc_arena_delete(ar);
    return m;
}

/* ---- --dump-shim ------------------------------------------------------------------------- */

static bool write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* The virtual path rewritten into `dir`. */
static const char *on_disk(kc_arena *ar, const char *dir, const char *s)
{
    const char *at = strstr(s, KC_CUDA_SHIM_ROOT);
    if (!at)
        return s;
    return kc_arena_printf(ar, "%.*s%s%s", (int)(at - s), s, dir, at + strlen(KC_CUDA_SHIM_ROOT));
}

char *kc_cuda_version(void)
{
    CXString v = clang_getClangVersion();
    char *s = kc_xstrdup(clang_getCString(v));
    clang_disposeString(v);
    return s;
}

int kc_cuda_dump_shim(const kc_options *opts, const char *dir, FILE *out, FILE *err)
{
    kc_cuda_frontend *fe = kc_cuda_frontend_new(opts);
    if (!fe) {
        fputs("kcheck: error: the CUDA front end could not start (libclang)\n", err);
        return 2;
    }
    int status = 2;
    kc_arena *ar = kc_arena_new();
    char *abs = realpath(dir, NULL);
    if (!kc_mkdir_p(dir, 0755) || !(abs = abs ? abs : realpath(dir, NULL))) {
        fprintf(err, "kcheck: error: cannot create %s: %s\n", dir, strerror(errno));
        goto out;
    }
    if (opts->cuda_mode == KC_CUDA_TOOLKIT && !fe->cuda_path) {
        fputs("kcheck: error: CUDA toolkit not found (toolkit mode): pass --cuda-path or set CUDA_PATH\n", err);
        goto out;
    }
    for (uint32_t i = 0; i < fe->shim.files.len; i++) {
        const struct CXUnsavedFile *u = &fe->shim.files.data[i];
        const char *path = on_disk(ar, abs, u->Filename);
        if (!kc_mkdir_p(kc_cuda_dir_of(ar, path), 0755) || !write_file(path, u->Contents, u->Length)) {
            fprintf(err, "kcheck: error: cannot write %s: %s\n", path, strerror(errno));
            goto out;
        }
    }
    const char *stubs = on_disk(ar, abs, KC_CUDA_SHIM_STUBS);
    if (!kc_mkdir_p(stubs, 0755)) {
        fprintf(err, "kcheck: error: cannot create %s: %s\n", stubs, strerror(errno));
        goto out;
    }
    kc_source none = {.path = "dump-shim.cu", .text = "", .len = 0};
    kc_cuda_args a = {0};
    build_args(fe, ar, &none, &a);
    kc_strbuf sb = {0};
    for (uint32_t i = 0; i < a.v.len; i++)
        kc_sb_appendf(&sb, "%s\n", on_disk(ar, abs, a.v.data[i]));
    kc_cuda_args_free(&a);
    const char *flags = kc_arena_printf(ar, "%s/compile_flags.txt", abs);
    if (!write_file(flags, kc_sb_str(&sb), sb.len)) {
        fprintf(err, "kcheck: error: cannot write %s: %s\n", flags, strerror(errno));
        kc_sb_free(&sb);
        goto out;
    }
    kc_sb_free(&sb);
    fprintf(out, "kcheck: wrote %u header(s) under %s and the flags to %s\n", fe->shim.files.len, abs, flags);
    fprintf(out, "  clang-tidy FILE.cu -- $(cat %s)\n", flags);
    status = 0;
out:
    free(abs);
    kc_arena_delete(ar);
    kc_cuda_frontend_delete(fe);
    return status;
}

/* The front end's table of entry points: the module kcheck-cuda.so exports
 * it (the kcheck binary loads it on the first CUDA file), and the door
 * linked with the front end (kc_frontends: tests, fuzzers) calls it. */
const kc_cuda_ops *kc_cuda_plugin(void)
{
    static const kc_cuda_ops ops = {KC_CUDA_OPS_CHECK, kc_cuda_frontend_new, kc_cuda_frontend_delete,
                                    kc_cuda_lower,     kc_cuda_dump_shim,     kc_cuda_version,
                                    kc_cuda_db_report};
    return &ops;
}
