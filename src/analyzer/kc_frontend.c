/* Dispatch to the front ends. Compiled twice: linked with the CUDA front
 * end (kc_frontends: tests, fuzzers), and with KC_CUDA_MODULE for the kcheck
 * binary, which loads the CUDA front end (and with it libclang and LLVM)
 * from kcheck-cuda.so on the first CUDA file only. */
#define _GNU_SOURCE 1 /* dladdr */
#include "kc_frontend.h"
#include "kc_cuda_frontend.h"
#include "kc_triton_frontend.h"

#include <stdlib.h>
#include <string.h>

#ifdef KC_CUDA_MODULE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <unistd.h>
#endif

struct kc_frontend {
    const kc_options *opts;
    const kc_cuda_ops *ops;     /* NULL until the first CUDA file */
    kc_cuda_frontend *cuda;     /* created on first use */
    kc_triton_frontend *triton; /* created on first use */
};

#ifdef KC_CUDA_MODULE
/* The loaded module. Written once, under pthread_once, and only read
 * afterwards: a process loads a library once, whichever thread asks. */
static pthread_once_t module_once = PTHREAD_ONCE_INIT;
static const kc_cuda_ops *module_ops;
static char module_error[PATH_MAX + 512];

/* The module's file into `path`: next to the binary (the build tree),
 * else ../lib/kcheck (installed). False when neither exists, `path` then
 * holding the message. */
static bool module_file(char *path, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(path, size, "cannot find the kcheck binary (/proc/self/exe)");
        return false;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    const char *candidates[] = {"/" KCHECK_CUDA_MODULE, "/../" KCHECK_MODULE_LIBDIR "/kcheck/" KCHECK_CUDA_MODULE};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        snprintf(path, size, "%s%s", exe, candidates[i]);
        if (access(path, F_OK) == 0)
            return true;
    }
    snprintf(path, size, "%s not found next to the kcheck binary or in ../%s/kcheck", KCHECK_CUDA_MODULE,
             KCHECK_MODULE_LIBDIR);
    return false;
}

static void load_module(void)
{
    char path[PATH_MAX + 256];
    if (!module_file(path, sizeof path)) {
        snprintf(module_error, sizeof module_error, "%s", path);
        return;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(module_error, sizeof module_error, "%s", why ? why : path);
        return;
    }
    const kc_cuda_ops *(*entry)(void) = (const kc_cuda_ops *(*)(void))dlsym(h, "kc_cuda_plugin");
    const kc_cuda_ops *ops = entry ? entry() : NULL;
    if (!ops || ops->check != KC_CUDA_OPS_CHECK) {
        snprintf(module_error, sizeof module_error, "%s is not from this build of kcheck", path);
        return;
    }
    module_ops = ops;
}

char *kc_frontend_module_file(void)
{
    char path[PATH_MAX + 256];
    return module_file(path, sizeof path) ? kc_xstrdup(path) : NULL;
}

static const kc_cuda_ops *cuda_ops(const char **why)
{
    pthread_once(&module_once, load_module);
    *why = module_error;
    return module_ops;
}
#else
char *kc_frontend_module_file(void) { return NULL; }

/* Linked in: the front end's own table (kc_cuda_plugin). */
static const kc_cuda_ops *cuda_ops(const char **why)
{
    *why = "";
    return kc_cuda_plugin();
}
#endif

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool kc_path_is_plain_header(const char *path)
{
    static const char *const exts[] = {".h", ".hpp", ".hh", ".hxx", ".inl"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (ends_with(path, exts[i]))
            return true;
    return false;
}

bool kc_path_is_cxx_source(const char *path)
{
    static const char *const exts[] = {".cc", ".cpp", ".cxx", ".c"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (ends_with(path, exts[i]))
            return !kc_path_is_cuda_source(path);
    return false;
}

bool kc_lang_for_path(const char *path, kc_lang *lang)
{
    if (kc_path_is_cuda_source(path) || ends_with(path, ".cuh") || kc_path_is_plain_header(path) ||
        kc_path_is_cxx_source(path)) {
        *lang = KC_LANG_CUDA;
        return true;
    }
    if (ends_with(path, ".py")) {
        *lang = KC_LANG_TRITON;
        return true;
    }
    return false;
}

kc_frontend *kc_frontend_new(const kc_options *opts)
{
    kc_frontend *fe = kc_xcalloc(1, sizeof *fe);
    fe->opts = opts;
    return fe;
}

void kc_frontend_delete(kc_frontend *fe)
{
    if (!fe)
        return;
    if (fe->cuda)
        fe->ops->destroy(fe->cuda);
    if (fe->triton)
        kc_triton_frontend_delete(fe->triton);
    free(fe);
}

/* The CUDA source in the strings of a Python file (m->embedded): each
 * string lowered as its own CUDA translation unit into m->next, at the
 * file's lines and columns; one that cannot be is a gap of m (KC002). The
 * headers each parse read count as the file's. */
static void lower_embedded(kc_frontend *fe, const kc_source *src, kc_model *m)
{
    kc_model **tail = &m->next;
    for (uint32_t i = 0; i < m->embedded.len; i++) {
        const kc_embedded *e = &m->embedded.data[i];
        if (e->why_not) {
            kc_model_add_gap(m, KC_GAP_STRING, e->span, e->why_not, NULL);
            continue;
        }
        char *err = NULL;
        kc_source *s = kc_source_from_memory(src->path, e->text, src->len, src->len + 1, &err);
        kc_file_errors errs = {0};
        kc_model *cm = s ? kc_frontend_lower(fe, s, KC_LANG_CUDA, NULL, &errs) : NULL;
        if (!cm) {
            const char *why = err                 ? err
                              : errs.items.len    ? errs.items.data[0].message
                                                  : "the CUDA front end failed";
            kc_model_add_gap(m, KC_GAP_STRING, e->span, kc_arena_printf(m->arena, "%s", why), NULL);
            kc_source_delete(s);
        } else {
            cm->owned_src = s;
            for (uint32_t d = 0; d < cm->deps.len; d++)
                kc_vec_push(&m->deps, cm->deps.data[d]);
            *tail = cm;
            tail = &cm->next;
        }
        free(err);
        kc_file_errors_free(&errs);
    }
}

kc_model *kc_frontend_lower(kc_frontend *fe, const kc_source *src, kc_lang lang, const kc_peers *peers,
                            kc_file_errors *errs)
{
    if (lang == KC_LANG_CUDA) {
        if (!fe->ops) {
            const char *why = NULL;
            fe->ops = cuda_ops(&why);
            if (!fe->ops) {
                kc_file_errors_add(errs, 0, 0, "the CUDA front end could not be loaded: %s", why);
                return NULL;
            }
        }
        if (!fe->cuda)
            fe->cuda = fe->ops->create(fe->opts);
        if (!fe->cuda) {
            kc_file_errors_add(errs, 0, 0, "the CUDA front end could not start (libclang)");
            return NULL;
        }
        return fe->ops->lower(fe->cuda, src, errs);
    }
    if (!fe->triton)
        fe->triton = kc_triton_frontend_new(fe->opts);
    if (!fe->triton) {
        kc_file_errors_add(errs, 0, 0, "the Triton front end could not start (tree-sitter)");
        return NULL;
    }
    kc_model *m = kc_triton_lower(fe->triton, src, peers, errs);
    if (m && m->embedded.len)
        lower_embedded(fe, src, m);
    return m;
}

int kc_frontend_dump_shim(const kc_options *opts, const char *dir, FILE *out, FILE *err)
{
    const char *why = NULL;
    const kc_cuda_ops *ops = cuda_ops(&why);
    if (!ops) {
        fprintf(err, "kcheck: error: the CUDA front end could not be loaded: %s\n", why);
        return 2;
    }
    return ops->dump_shim(opts, dir, out, err);
}

char *kc_frontend_versions(void)
{
    const char *why = NULL;
    const kc_cuda_ops *ops = cuda_ops(&why);
    char *clang = ops ? ops->version() : kc_xasprintf("CUDA front end not loaded: %s", why);
    char *s = kc_xasprintf("%s; tree-sitter-python 0.23.6", clang);
    free(clang);
    return s;
}

int kc_frontend_db_report(const kc_options *opts, const char *const *paths, size_t n, FILE *err)
{
    if (!opts->compile_db_dir || !n)
        return 0;
    const char *why = NULL;
    const kc_cuda_ops *ops = cuda_ops(&why);
    return ops ? ops->db_report(opts, paths, n, err) : 0; /* the check says why it is missing */
}
