/* cuda_headers.c — the headers of a repository by name (cuda_headers.h). */
#include "cuda_headers.h"

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
    static const char *const exts[] = {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl", ".inc", ".cu"};
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
