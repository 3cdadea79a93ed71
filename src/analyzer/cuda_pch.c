/* Toolkit mode's header cache (cuda_pch.h). */
#define _GNU_SOURCE 1 /* O_CLOEXEC, dirent d_type */
#include "cuda_pch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define KC_PCH_FORMAT "kcheck-cuda-pch-1"
#define KC_PCH_MAX_AGE_S (14 * 24 * 3600)
/* The empty file whose prefix is cached; it exists only in memory. */
#define KC_PCH_MAIN "/kcheck-header-cache/prefix.cu"

static void feed_str(XXH3_state_t *st, const char *s)
{
    uint64_t n = s ? strlen(s) : UINT64_MAX;
    XXH3_128bits_update(st, &n, sizeof n);
    if (s)
        XXH3_128bits_update(st, s, (size_t)n);
}

static void feed_stat(XXH3_state_t *st, const char *path)
{
    struct stat sb;
    int64_t v[4] = {-1, -1, -1, -1};
    if (stat(path, &sb) == 0) {
        v[0] = (int64_t)sb.st_size;
        v[1] = (int64_t)sb.st_mtim.tv_sec;
        v[2] = (int64_t)sb.st_mtim.tv_nsec;
        v[3] = (int64_t)sb.st_ino;
    }
    feed_str(st, path);
    XXH3_128bits_update(st, v, sizeof v);
}

static char *key_hex(const char *toolkit, const char *const *args, size_t nargs, struct CXUnsavedFile *unsaved,
                     unsigned nunsaved)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    feed_str(st, KC_PCH_FORMAT);
    feed_str(st, KCHECK_VERSION);
    CXString v = clang_getClangVersion();
    feed_str(st, clang_getCString(v));
    clang_disposeString(v);
    feed_stat(st, "/proc/self/exe");
    if (toolkit) {
        char *real = realpath(toolkit, NULL);
        feed_str(st, real ? real : toolkit);
        const char *headers[] = {"include/cuda_runtime.h", "include/cuda_runtime_api.h", "include/cuda.h",
                                 "include/crt/host_defines.h", "include/cuda_fp16.h", "version.json"};
        for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
            char *p = kc_xasprintf("%s/%s", real ? real : toolkit, headers[i]);
            feed_stat(st, p);
            free(p);
        }
        free(real);
    }
    for (size_t i = 0; i < nargs; i++)
        feed_str(st, args[i]);
    for (unsigned i = 0; i < nunsaved; i++) {
        feed_str(st, unsaved[i].Filename);
        uint64_t n = unsaved[i].Length;
        XXH3_128bits_update(st, &n, sizeof n);
        if (n)
            XXH3_128bits_update(st, unsaved[i].Contents, (size_t)n);
    }
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    return kc_xasprintf("%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

static bool usable(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
}

/* Marks a header as used (its age is measured from here), at most hourly. */
static void touch(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && time(NULL) - sb.st_mtim.tv_sec > 3600)
        utimensat(AT_FDCWD, path, NULL, 0);
}

/* Removes headers (and their lock files) unused for KC_PCH_MAX_AGE_S. */
static void prune(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, "cuda-", 5) != 0)
            continue;
        char *p = kc_xasprintf("%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && now - sb.st_mtim.tv_sec > KC_PCH_MAX_AGE_S)
            unlink(p);
        free(p);
    }
    closedir(d);
}

/* Parses the empty file in front of which clang puts the CUDA headers, and
 * saves that prefix as a precompiled header at `tmp`. */
static bool build(CXIndex index, const char *tmp, const char *const *args, size_t nargs,
                  struct CXUnsavedFile *unsaved, unsigned nunsaved, char **why)
{
    struct CXUnsavedFile *files = kc_xcalloc((size_t)nunsaved + 1, sizeof *files);
    if (nunsaved)
        memcpy(files, unsaved, (size_t)nunsaved * sizeof *files);
    files[nunsaved] = (struct CXUnsavedFile){KC_PCH_MAIN, "", 0};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec =
        clang_parseTranslationUnit2(index, KC_PCH_MAIN, args, (int)nargs, files, nunsaved + 1,
                                    CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
    free(files);
    bool ok = false;
    if (ec != CXError_Success || !tu) {
        *why = kc_xasprintf("libclang could not parse the CUDA headers (code %d)", (int)ec);
    } else {
        for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n && !*why; i++) {
            CXDiagnostic dg = clang_getDiagnostic(tu, i);
            if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
                CXString s = clang_formatDiagnostic(dg, CXDiagnostic_DisplaySourceLocation);
                *why = kc_xasprintf("the CUDA headers do not parse: %s", clang_getCString(s));
                clang_disposeString(s);
            }
            clang_disposeDiagnostic(dg);
        }
        if (!*why) {
            int sr = clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu));
            if (sr == CXSaveError_None)
                ok = true;
            else
                *why = kc_xasprintf("libclang could not write %s (error %d)", tmp, sr);
        }
    }
    if (tu)
        clang_disposeTranslationUnit(tu);
    return ok;
}

char *kc_cuda_pch_get(CXIndex index, const char *dir, const char *toolkit, const char *const *args, size_t nargs,
                      struct CXUnsavedFile *unsaved, unsigned nunsaved, char **why)
{
    *why = NULL;
    char *hex = key_hex(toolkit, args, nargs, unsaved, nunsaved);
    char *path = kc_xasprintf("%s/cuda-%s.pch", dir, hex);
    char *lock = kc_xasprintf("%s/cuda-%s.lock", dir, hex);
    free(hex);
    if (usable(path)) {
        touch(path);
        free(lock);
        return path;
    }
    if (!kc_mkdir_p(dir, 0755)) {
        *why = kc_xasprintf("cannot create %s: %s", dir, strerror(errno));
        goto fail;
    }
    /* One builder per key, across processes and threads (each open file
     * description holds its own lock). */
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        *why = kc_xasprintf("cannot open %s: %s", lock, strerror(errno));
        goto fail;
    }
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    if (!usable(path)) {
        char *tmp = kc_xasprintf("%s.%ld.%ld.tmp", path, (long)getpid(), (long)syscall(SYS_gettid));
        if (build(index, tmp, args, nargs, unsaved, nunsaved, why) && rename(tmp, path) != 0 && !*why)
            *why = kc_xasprintf("cannot rename %s: %s", tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        if (!*why)
            prune(dir);
    }
    flock(fd, LOCK_UN);
    close(fd);
    if (*why || !usable(path))
        goto fail;
    free(lock);
    return path;
fail:
    if (!*why)
        *why = kc_xstrdup("the precompiled header is missing");
    free(lock);
    free(path);
    return NULL;
}

void kc_cuda_pch_discard(const char *path)
{
    unlink(path);
}
