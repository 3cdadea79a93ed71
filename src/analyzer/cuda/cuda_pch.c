/* The CUDA header cache (cuda_pch.h). */
#define _GNU_SOURCE 1 /* O_CLOEXEC, dirent d_type */
#include "cuda_pch.h"
#include "kc_file.h"
#include "kc_hash.h"
#include "kc_source.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define KC_PCH_FORMAT "kcheck-cuda-pch-3" /* 3: a preamble's header has its inclusions beside it */
#define KC_PCH_MAX_AGE_S (14 * 24 * 3600)
#define KC_PCH_STALE_TEMP_S 3600 /* a temporary header older than this was abandoned */
#define KC_PCH_ROOM (64 << 20)     /* bytes a header may need: toolkit headers with a file's preamble */
/* A preamble that failed to precompile (an error in a header it includes)
 * is tried again after this long, when the header may have been fixed. */
#define KC_PCH_RETRY_S 600
/* The empty file whose prefix is cached; it exists only in memory. */
#define KC_PCH_MAIN "/kcheck-header-cache/prefix.cu"

static char *key_hex(const char *toolkit, const char *const *args, size_t nargs, struct CXUnsavedFile *unsaved,
                     unsigned nunsaved, const kc_cuda_preamble *pre)
{
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    kc_hash_str(st, KC_PCH_FORMAT);
    kc_hash_str(st, KCHECK_VERSION);
    CXString v = clang_getClangVersion();
    kc_hash_str(st, clang_getCString(v));
    clang_disposeString(v);
    kc_hash_stat(st, "/proc/self/exe");
    if (toolkit) {
        char *real = realpath(toolkit, NULL);
        kc_hash_str(st, real ? real : toolkit);
        const char *headers[] = {"include/cuda_runtime.h", "include/cuda_runtime_api.h", "include/cuda.h",
                                 "include/crt/host_defines.h", "include/cuda_fp16.h", "version.json"};
        for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
            char *p = kc_xasprintf("%s/%s", real ? real : toolkit, headers[i]);
            kc_hash_stat(st, p);
            free(p);
        }
        free(real);
    }
    for (size_t i = 0; i < nargs; i++)
        kc_hash_str(st, args[i]);
    for (unsigned i = 0; i < nunsaved; i++) {
        kc_hash_str(st, unsaved[i].Filename);
        uint64_t n = unsaved[i].Length;
        XXH3_128bits_update(st, &n, sizeof n);
        if (n)
            XXH3_128bits_update(st, unsaved[i].Contents, (size_t)n);
    }
    if (pre) {
        /* The directory resolves `#include "..."`: the same relative name
         * under another working directory is another file. */
        char *cwd = getcwd(NULL, 0);
        kc_hash_str(st, cwd);
        free(cwd);
        kc_hash_str(st, pre->main);
        uint64_t n = pre->len;
        XXH3_128bits_update(st, &n, sizeof n);
        XXH3_128bits_update(st, pre->text, (size_t)n);
    }
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    return kc_xasprintf("%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

/* The file beside header `pch` (NAME.pch) with extension `ext` (".inc",
 * ".seen"): malloc'd, or NULL when pch is not named *.pch. */
static char *beside(const char *pch, const char *ext)
{
    size_t n = strlen(pch);
    if (n < 4 || strcmp(pch + n - 4, ".pch") != 0)
        return NULL;
    return kc_xasprintf("%.*s%s", (int)(n - 4), pch, ext);
}

/* XXH3-128 of a file's bytes as 32 hex digits into out[33]; false when it
 * cannot be read. */
static bool file_hash(const char *path, char out[33], struct stat *sb)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = fstat(fd, sb) == 0 && S_ISREG(sb->st_mode);
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    char buf[1 << 16];
    for (ssize_t r; ok && (r = read(fd, buf, sizeof buf)) != 0;) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            ok = false;
        else
            XXH3_128bits_update(st, buf, (size_t)r);
    }
    close(fd);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
    return ok;
}

/* The record beside a header (NAME.inc): a line `#key KEY`, a line
 * `#xxh128 HASH` of the header's bytes, then the files it includes, one a
 * line. A header is used only when its record names its key and its bytes
 * still hash to the record's hash (a header copied over another's, or
 * damaged, is rebuilt), checked once per process for each identity of the
 * file (device, inode, size, modification time). */
static bool record_holds(const char *pch, const char *incs, const char *key, kc_cuda_pch_memo *memo)
{
    struct stat sb;
    if (stat(pch, &sb) != 0)
        return false;
    for (uint32_t i = 0; memo && i < memo->len; i++) {
        const kc_cuda_pch_seen *s = &memo->data[i];
        if (s->dev == (uint64_t)sb.st_dev && s->ino == (uint64_t)sb.st_ino && s->size == (int64_t)sb.st_size &&
            s->mtime_ns == (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec)
            return true;
    }
    char *buf = NULL;
    size_t cap = 0, len = 0;
    if (!kc_read_regular(incs, (size_t)16 << 20, &buf, &cap, &len, NULL)) {
        free(buf);
        return false;
    }
    char want[33] = "", *k = kc_xasprintf("#key %s\n#xxh128 ", key);
    size_t kl = strlen(k);
    bool ok = len >= kl + 32 && memcmp(buf, k, kl) == 0;
    if (ok)
        memcpy(want, buf + kl, 32);
    free(k);
    free(buf);
    char got[33];
    struct stat hs;
    ok = ok && file_hash(pch, got, &hs) && strcmp(got, want) == 0 && hs.st_ino == sb.st_ino &&
         hs.st_size == sb.st_size;
    if (ok && memo) {
        kc_cuda_pch_seen seen = {(uint64_t)sb.st_dev, (uint64_t)sb.st_ino, (int64_t)sb.st_size,
                                 (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec};
        kc_vec_push(memo, seen);
    }
    return ok;
}

/* Room to save a header in `dir`: libclang aborts the whole process when
 * it cannot write one out (a full disk, a quota, `ulimit -f`, read-only
 * media), so it is asked only when there is room for the largest header
 * kcheck makes. False with *why otherwise: the files then parse without
 * the header cache. */
static bool room_to_save(const char *dir, char **why)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < KC_PCH_ROOM) {
        *why = kc_xasprintf("the file size limit (ulimit -f) is below %d MiB: the CUDA header cache is off",
                            KC_PCH_ROOM >> 20);
        return false;
    }
    struct statvfs vs;
    if (statvfs(dir, &vs) != 0)
        return true; /* the save will say what is wrong */
    if (vs.f_flag & ST_RDONLY) {
        *why = kc_xasprintf("%s is read-only: the CUDA header cache is off", dir);
        return false;
    }
    if ((uint64_t)vs.f_bavail * (uint64_t)vs.f_frsize < (uint64_t)KC_PCH_ROOM) {
        *why = kc_xasprintf("less than %d MiB free in %s: the CUDA header cache is off", KC_PCH_ROOM >> 20, dir);
        return false;
    }
    return true;
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

typedef struct pch_entry {
    char *path;
    time_t used;
    int64_t size;
} pch_entry;

static int by_use(const void *a, const void *b)
{
    const pch_entry *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used;
}

/* Removes headers (and their lock and marker files) unused for
 * KC_PCH_MAX_AGE_S, then the least recently used preamble headers past
 * KC_PCH_PREAMBLE_CAP bytes. */
static void prune(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    KC_VEC(pch_entry) pre = {0};
    int64_t total = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' && strstr(e->d_name, ".pch.kcheck-")) {
            /* A header a builder that was killed left half written
             * (kc_file_temp_next_to's name). */
            char *p = kc_xasprintf("%s/%s", dir, e->d_name);
            struct stat sb;
            if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && now - sb.st_mtim.tv_sec > KC_PCH_STALE_TEMP_S)
                unlink(p);
            free(p);
            continue;
        }
        bool preamble = strncmp(e->d_name, "pre-", 4) == 0;
        if (strncmp(e->d_name, "cuda-", 5) != 0 && !preamble)
            continue;
        char *p = kc_xasprintf("%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && now - sb.st_mtim.tv_sec > KC_PCH_MAX_AGE_S) {
            unlink(p);
        } else if (preamble && S_ISREG(sb.st_mode) && strlen(e->d_name) > 4 &&
                   strcmp(e->d_name + strlen(e->d_name) - 4, ".pch") == 0) {
            kc_vec_push(&pre, ((pch_entry){p, sb.st_mtim.tv_sec, (int64_t)sb.st_size}));
            total += (int64_t)sb.st_size;
            continue;
        }
        free(p);
    }
    closedir(d);
    if (pre.len > 1)
        qsort(pre.data, pre.len, sizeof *pre.data, by_use);
    for (uint32_t i = 0; i < pre.len; i++) {
        if (total > KC_PCH_PREAMBLE_CAP && i + 1 < pre.len) {
            unlink(pre.data[i].path);
            char *incs = beside(pre.data[i].path, ".inc");
            unlink(incs);
            free(incs);
            total -= pre.data[i].size;
        }
        free(pre.data[i].path);
    }
    kc_vec_free(&pre);
}

/* Parses the file in front of which clang puts the CUDA headers (empty, or
 * a file's preamble), and saves that prefix as a precompiled header at
 * `tmp`. */
static void add_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    CXString n = clang_getFileName(file);
    const char *name = clang_getCString(n);
    if (depth > 0 && name && *name && !strchr(name, '\n')) /* not the stand-in main file */
        kc_sb_appendf((kc_strbuf *)data, "%s\n", name);
    clang_disposeString(n);
}

static bool build(CXIndex index, const char *tmp, const char *const *args, size_t nargs,
                  struct CXUnsavedFile *unsaved, unsigned nunsaved, const kc_cuda_preamble *pre, kc_strbuf *inc,
                  char **why)
{
    struct CXUnsavedFile *files = kc_xcalloc((size_t)nunsaved + 1, sizeof *files);
    if (nunsaved)
        memcpy(files, unsaved, (size_t)nunsaved * sizeof *files);
    const char *main = pre ? pre->main : KC_PCH_MAIN;
    files[nunsaved] = (struct CXUnsavedFile){main, pre ? pre->text : "", pre ? (unsigned long)pre->len : 0};
    /* Templates the headers use are instantiated here, once, instead of at
     * the end of every file parsed behind the header (in toolkit mode that
     * took a third of an empty file's parse: 58 -> 35 ms). */
    const char **bargs = kc_xcalloc(nargs + 1, sizeof *bargs);
    memcpy(bargs, args, nargs * sizeof *bargs);
    bargs[nargs] = "-fpch-instantiate-templates";
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec =
        clang_parseTranslationUnit2(index, main, bargs, (int)nargs + 1, files, nunsaved + 1,
                                    CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
    free(files);
    free(bargs);
    bool ok = false;
    if (ec != CXError_Success || !tu) {
        *why = kc_xasprintf("libclang could not parse the CUDA headers (code %d)", (int)ec);
    } else {
        CXDiagnosticSet set = clang_getDiagnosticSetFromTU(tu); /* owned by the unit, built once */
        for (unsigned i = 0, n = clang_getNumDiagnosticsInSet(set); i < n && !*why; i++) {
            CXDiagnostic dg = clang_getDiagnosticInSet(set, i);
            enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
            /* A preamble may include headers with errors (a type the shim
             * does not declare): the file's own parse would meet the same
             * ones, which are not its errors. An error in the preamble's own
             * lines is the file's, and a fatal one may have cut it short. */
            if (sev == CXDiagnostic_Fatal ||
                (sev == CXDiagnostic_Error &&
                 (!pre || clang_Location_isFromMainFile(clang_getDiagnosticLocation(dg))))) {
                CXString s = clang_formatDiagnostic(dg, CXDiagnostic_DisplaySourceLocation);
                *why = kc_xasprintf("the %s do not parse: %s", pre ? "file's leading includes" : "CUDA headers",
                                    clang_getCString(s));
                clang_disposeString(s);
            }
            clang_disposeDiagnostic(dg);
        }
        if (!*why) {
            /* The files it includes: a parse behind the header does not
             * list them (clang_getInclusions), so they are kept beside it. */
            clang_getInclusions(tu, add_inclusion, inc);
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

/* A preamble is precompiled the second time it is asked for: the first
 * request leaves a marker. A marker that says "failed" holds off new
 * attempts for KC_PCH_RETRY_S. True when the header should be built now. */
static bool second_request(const char *marker)
{
    struct stat sb;
    if (stat(marker, &sb) != 0) {
        int fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0)
            close(fd);
        return false;
    }
    return sb.st_size == 0 || time(NULL) - sb.st_mtim.tv_sec > KC_PCH_RETRY_S;
}

static void mark_failed(const char *marker)
{
    int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, "failed\n", 7);
        (void)w;
        close(fd);
    }
}

char *kc_cuda_pch_get(CXIndex index, const char *dir, const char *toolkit, const char *const *args, size_t nargs,
                      struct CXUnsavedFile *unsaved, unsigned nunsaved, const kc_cuda_preamble *preamble,
                      kc_cuda_pch_memo *memo, char **why)
{
    *why = NULL;
    char *hex = key_hex(toolkit, args, nargs, unsaved, nunsaved, preamble);
    const char *kind = preamble ? "pre" : "cuda";
    char *path = kc_xasprintf("%s/%s-%s.pch", dir, kind, hex);
    char *lock = kc_xasprintf("%s/%s-%s.lock", dir, kind, hex);
    char *marker = preamble ? kc_xasprintf("%s/%s-%s.seen", dir, kind, hex) : NULL;
    char *incs = beside(path, ".inc");
    if (usable(path) && record_holds(path, incs, hex, memo)) {
        free(hex);
        free(incs);
        touch(path);
        free(lock);
        free(marker);
        return path;
    }
    if (!kc_mkdir_p(dir, 0700)) {
        *why = kc_xasprintf("cannot create %s: %s", dir, strerror(errno));
        goto fail;
    }
    if (marker && !second_request(marker))
        goto fail; /* not an error: built next time */
    if (!room_to_save(dir, why))
        goto fail;
    /* One builder per key, across processes and threads (each open file
     * description holds its own lock). */
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        *why = kc_xasprintf("cannot open %s: %s", lock, strerror(errno));
        goto fail;
    }
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    if (!usable(path) || !record_holds(path, incs, hex, memo)) {
        int tfd;
        char *tmp = kc_file_temp_next_to(path, &tfd, why);
        if (tmp) {
            close(tfd);
            kc_strbuf inc = {0};
            kc_sb_appendf(&inc, "#key %s\n#xxh128 ", hex);
            size_t at = inc.len;
            kc_sb_appendf(&inc, "%032d\n", 0);
            char sum[33];
            struct stat hs;
            if (build(index, tmp, args, nargs, unsaved, nunsaved, preamble, &inc, why)) {
                if (!file_hash(tmp, sum, &hs))
                    *why = kc_xasprintf("cannot read %s back: %s", tmp, strerror(errno));
                else
                    memcpy(inc.data + at, sum, 32);
            }
            if (!*why && kc_file_write_atomic(incs, inc.data, inc.len, why) && rename(tmp, path) != 0 && !*why)
                *why = kc_xasprintf("cannot rename %s: %s", tmp, strerror(errno));
            kc_sb_free(&inc);
            unlink(tmp);
            free(tmp);
        }
        if (marker && *why)
            mark_failed(marker);
        else if (marker)
            unlink(marker);
        if (!*why)
            prune(dir);
    }
    flock(fd, LOCK_UN);
    close(fd);
    if (*why || !usable(path) || !record_holds(path, incs, hex, memo))
        goto fail;
    free(hex);
    free(lock);
    free(marker);
    free(incs);
    return path;
fail:
    if (!*why && !marker)
        *why = kc_xstrdup("the precompiled header is missing");
    free(hex);
    free(lock);
    free(marker);
    free(incs);
    free(path);
    return NULL;
}

char *kc_cuda_pch_inclusions(const char *path, size_t *len)
{
    char *incs = beside(path, ".inc");
    if (!incs)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    bool ok = kc_read_regular(incs, (size_t)16 << 20, &buf, &cap, len, NULL);
    free(incs);
    if (!ok) {
        free(buf);
        return NULL;
    }
    /* past the record's own lines (`#key`, `#xxh128`) */
    size_t skip = 0;
    while (skip < *len && buf[skip] == '#') {
        const char *nl = memchr(buf + skip, '\n', *len - skip);
        skip = nl ? (size_t)(nl - buf) + 1 : *len;
    }
    memmove(buf, buf + skip, *len - skip);
    *len -= skip;
    return buf;
}

void kc_cuda_pch_discard(const char *path)
{
    unlink(path);
    /* A preamble's header is rebuilt on the next request, not the second. */
    const char *base = strrchr(path, '/');
    char *marker = base && strncmp(base + 1, "pre-", 4) == 0 ? beside(path, ".seen") : NULL;
    if (marker) {
        int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0)
            close(fd);
        free(marker);
    }
}

/* ---- preamble ---------------------------------------------------------------- */

/* Past blanks and comments from i (comments may hold line splices). */
static size_t skip_blank(const char *t, size_t n, size_t i, bool *open_comment)
{
    for (;;) {
        if (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n' || t[i] == '\f' || t[i] == '\v'))
            i++;
        else if (i + 1 < n && t[i] == '/' && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i += t[i] == '\\' && i + 1 < n ? 2 : 1;
        } else if (i + 1 < n && t[i] == '/' && t[i + 1] == '*') {
            const char *e = NULL;
            for (size_t k = i + 2; k + 1 < n; k++)
                if (t[k] == '*' && t[k + 1] == '/') {
                    e = t + k;
                    break;
                }
            if (!e) {
                *open_comment = true;
                return n;
            }
            i = (size_t)(e - t) + 2;
        } else
            return i;
    }
}

/* The end of the directive that goes on from i (past its newline): line
 * splices, comments and quoted names included. */
static size_t directive_end(const char *t, size_t n, size_t i, bool *open_comment)
{
    while (i < n && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < n) {
            i += 2; /* a splice (or an escaped character) */
            if (t[i - 1] == '\r' && i < n && t[i] == '\n')
                i++;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i += t[i] == '\\' && i + 1 < n ? 2 : 1;
        } else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t k = i + 2;
            while (k + 1 < n && !(t[k] == '*' && t[k + 1] == '/'))
                k++;
            if (k + 1 >= n) {
                *open_comment = true;
                return n;
            }
            i = k + 2;
        } else if (t[i] == '"' || t[i] == '\'') {
            char q = t[i++];
            while (i < n && t[i] != q && t[i] != '\n')
                i += t[i] == '\\' && i + 1 < n ? 2 : 1;
            if (i < n && t[i] == q)
                i++;
        } else {
            i++;
        }
    }
    return i < n ? i + 1 : n;
}

size_t kc_cuda_preamble_len(const char *t, size_t n)
{
    size_t i = 0, end = 0;
    int depth = 0;
    bool includes = false, includes_at_end = false, open_comment = false;
    if (n >= 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    for (;;) {
        i = skip_blank(t, n, i, &open_comment);
        if (open_comment || i >= n || t[i] != '#')
            break;
        size_t w = i + 1;
        while (w < n && (t[w] == ' ' || t[w] == '\t'))
            w++;
        size_t we = w;
        while (we < n && (isalnum((unsigned char)t[we]) || t[we] == '_'))
            we++;
        size_t wl = we - w;
#define IS(word) (wl == sizeof(word) - 1 && memcmp(t + w, word, wl) == 0)
        bool stop = false;
        if (IS("include") || IS("import"))
            includes = true;
        else if (IS("if") || IS("ifdef") || IS("ifndef"))
            depth++;
        else if (IS("elif") || IS("else") || IS("elifdef") || IS("elifndef"))
            stop = depth == 0;
        else if (IS("endif"))
            stop = depth-- == 0;
        else if (!(IS("define") || IS("undef") || IS("pragma") || wl == 0))
            stop = true; /* #error, #line, #include_next, #warning, ... */
#undef IS
        if (stop)
            break;
        i = directive_end(t, n, we, &open_comment);
        if (open_comment)
            break;
        if (depth == 0) {
            end = i;
            includes_at_end = includes;
        }
    }
    return includes_at_end ? end : 0;
}
