/* cuda_headers.c — the headers of a repository by name (cuda_headers.h). */
#include "cuda_headers.h"
#include "kc_file.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct repo_listing {
    char *root;
    KC_VEC(char *) paths; /* absolute */
    bool whole;           /* under KC_CUDA_HEADERS_MAX */
} repo_listing;

struct kc_cuda_headers {
    KC_VEC(repo_listing) repos;
};

static bool header_name(const char *n)
{
    /* (with the templates of CMake's configure_file: `config.h.in`) */
    static const char *const exts[] = {".h",     ".hpp",     ".hh",     ".hxx",      ".cuh",      ".inl", ".inc",
                                       ".cu",    ".h.in",    ".hpp.in", ".cuh.in",   ".h.cmake", ".hpp.cmake"};
    size_t len = strlen(n);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i]);
        if (len > e && strcmp(n + len - e, exts[i]) == 0)
            return true;
    }
    return false;
}

/* Does dir hold `name` (a file or a directory)? */
static bool holds(const char *dir, const char *name)
{
    char *p = kc_xasprintf("%s/%s", dir, name);
    struct stat st;
    bool yes = lstat(p, &st) == 0;
    free(p);
    return yes;
}

/* Lists the headers under dir (hidden entries and symbolic links to
 * directories skipped, 16 levels deep at most). Below the top, a
 * directory that is a repository of its own (a submodule, a clone: another
 * project's files) or a CMake build tree (copies of the sources' headers)
 * is not entered. */
static void list(repo_listing *r, const char *dir, unsigned depth)
{
    if (depth > 16 || !r->whole)
        return;
    if (depth > 0 && (holds(dir, ".git") || holds(dir, "CMakeCache.txt")))
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && r->whole) {
        if (e->d_name[0] == '.')
            continue;
        char *p = kc_xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) != 0) {
            free(p);
        } else if (S_ISDIR(st.st_mode)) {
            list(r, p, depth + 1);
            free(p);
        } else if (S_ISREG(st.st_mode) && header_name(e->d_name)) {
            if (r->paths.len >= KC_CUDA_HEADERS_MAX)
                r->whole = false;
            kc_vec_push(&r->paths, p);
        } else {
            free(p);
        }
    }
    closedir(d);
}

const char *kc_cuda_headers_find(kc_cuda_headers **idx, const char *root, const char *name)
{
    if (!*idx)
        *idx = kc_xcalloc(1, sizeof **idx);
    repo_listing *r = NULL;
    for (uint32_t i = 0; i < (*idx)->repos.len && !r; i++)
        if (strcmp((*idx)->repos.data[i].root, root) == 0)
            r = &(*idx)->repos.data[i];
    if (!r) {
        repo_listing fresh = {.root = kc_xstrdup(root), .whole = true};
        list(&fresh, root, 0);
        kc_vec_push(&(*idx)->repos, fresh);
        r = kc_vec_last(&(*idx)->repos);
    }
    if (!r->whole)
        return NULL;
    size_t n = strlen(name);
    const char *found = NULL;
    for (uint32_t i = 0; i < r->paths.len; i++) {
        const char *p = r->paths.data[i];
        size_t pl = strlen(p);
        if (pl <= n || p[pl - n - 1] != '/' || strcmp(p + pl - n, name) != 0)
            continue;
        if (found)
            return NULL; /* two of that name: which one the build means is not known */
        found = p;
    }
    return found;
}

/* Does the option or variable name s[0..n) name CUDA (`SPFFT_CUDA`,
 * `USE_CUDA`, `WITH_CUDA_AWARE_MPI`)? */
static bool names_cuda(const char *s, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (toupper((unsigned char)s[i]) == 'C' && toupper((unsigned char)s[i + 1]) == 'U' &&
            toupper((unsigned char)s[i + 2]) == 'D' && toupper((unsigned char)s[i + 3]) == 'A')
            return true;
    return false;
}

static size_t ident_end(const char *s, size_t i, size_t n)
{
    while (i < n && kc_ident_char(s[i]))
        i++;
    return i;
}

/* t[a..e) into o with each `@VAR@` and `${VAR}` replaced by 1 when VAR
 * names CUDA, else 0. */
static void substitute(kc_strbuf *o, const char *t, size_t a, size_t e)
{
    for (size_t k = a; k < e; k++) {
        size_t v = t[k] == '@' ? k + 1 : t[k] == '$' && k + 1 < e && t[k + 1] == '{' ? k + 2 : 0;
        size_t ve = v ? ident_end(t, v, e) : 0;
        if (v && ve > v && ve < e && t[ve] == (t[k] == '@' ? '@' : '}')) {
            kc_sb_putc(o, names_cuda(t + v, ve - v) ? '1' : '0');
            k = ve;
        } else {
            kc_sb_putc(o, t[k]);
        }
    }
}

/* Is t[a..e) the directive `word` followed by a blank? */
static bool directive_is(const char *t, size_t a, size_t e, const char *word)
{
    size_t w = strlen(word);
    return e - a > w && strncmp(t + a, word, w) == 0 && (t[a + w] == ' ' || t[a + w] == '\t');
}

char *kc_cuda_configure(const char *t, size_t n, size_t *out_len)
{
    kc_strbuf o = {0};
    kc_sb_append(&o, "");
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && t[e] != '\n')
            e++;
        size_t a = i;
        while (a < e && (t[a] == ' ' || t[a] == '\t'))
            a++;
        bool d01 = directive_is(t, a, e, "#cmakedefine01"), def = directive_is(t, a, e, "#cmakedefine");
        if (d01 || def) {
            size_t v = a + (d01 ? 14 : 12);
            while (v < e && (t[v] == ' ' || t[v] == '\t'))
                v++;
            size_t ve = ident_end(t, v, e);
            bool on = names_cuda(t + v, ve - v);
            if (d01) {
                kc_sb_appendf(&o, "#define %.*s %d", (int)(ve - v), t + v, on ? 1 : 0);
            } else if (on) {
                kc_sb_append(&o, "#define ");
                substitute(&o, t, v, e);
            } else {
                kc_sb_appendf(&o, "/* #undef %.*s */", (int)(ve - v), t + v);
            }
        } else {
            substitute(&o, t, i, e);
        }
        if (e < n)
            kc_sb_putc(&o, '\n');
        i = e + 1;
    }
    if (out_len)
        *out_len = o.len;
    return kc_sb_take(&o);
}

char *kc_cuda_configured_header(kc_cuda_headers **idx, const char *dir, const char *name, size_t *len,
                                const char **tpl)
{
    /* the repository above dir */
    char *root = realpath(dir, NULL);
    for (; root;) {
        if (holds(root, ".git"))
            break;
        char *slash = strrchr(root, '/');
        if (!slash || slash == root) {
            free(root);
            return NULL;
        }
        *slash = 0;
    }
    if (!root)
        return NULL;
    const char *found = NULL;
    static const char *const suffixes[] = {".in", ".cmake"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0] && !found; i++) {
        char *n = kc_xasprintf("%s%s", name, suffixes[i]);
        found = kc_cuda_headers_find(idx, root, n);
        free(n);
    }
    free(root);
    size_t tl = 0;
    char *text = NULL;
    struct stat st;
    if (!found || stat(found, &st) != 0 || st.st_size > (1 << 20) || !kc_read_all(found, &text, &tl))
        return NULL; /* (a template of over 1 MiB is no header's) */
    char *r = kc_cuda_configure(text, tl, len);
    free(text);
    *tpl = found;
    return r;
}

void kc_cuda_headers_free(kc_cuda_headers *idx)
{
    if (!idx)
        return;
    for (uint32_t i = 0; i < idx->repos.len; i++) {
        repo_listing *r = &idx->repos.data[i];
        for (uint32_t k = 0; k < r->paths.len; k++)
            free(r->paths.data[k]);
        kc_vec_free(&r->paths);
        free(r->root);
    }
    kc_vec_free(&idx->repos);
    free(idx);
}
