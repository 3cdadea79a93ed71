/* The user's directories around the experiments: what a run changed in
 * them. Verify runs its driver in a work directory of its own, but the
 * driver imports the user's module from its directory and nothing stops
 * it, or a kernel's host code, from writing there. Each directory that
 * holds a verified file is listed (names, sizes, times, inodes; its
 * subdirectories too, GUARD_DEPTH levels down, symbolic links not
 * followed, GUARD_MAX_ENTRIES entries in all) before the experiments and
 * compared after: a change is reported, it is never silent. */
#include "verify_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct entry {
    char *name;
    struct stat st;
    bool listed; /* a directory whose entries are listed too */
} entry;

typedef struct listing {
    char *dir;
    KC_VEC(entry) items;
} listing;

struct kc_tree_guard {
    KC_VEC(listing) dirs;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

enum { GUARD_DEPTH = 4, GUARD_MAX_ENTRIES = 100000 };

/* The entries of `dir` (`rel` below the listing's root, "" for the root),
 * names relative to the root (`sub/x.py`), into l. */
static void list_into(listing *l, const char *dir, const char *rel, unsigned depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && l->items.len < GUARD_MAX_ENTRIES) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        entry it = {.name = rel[0] ? kc_xasprintf("%s/%s", rel, e->d_name) : kc_xstrdup(e->d_name)};
        char *p = kc_xasprintf("%s/%s", dir, e->d_name);
        if (lstat(p, &it.st) != 0)
            memset(&it.st, 0, sizeof it.st);
        it.listed = S_ISDIR(it.st.st_mode) && depth + 1 < GUARD_DEPTH;
        kc_vec_push(&l->items, it);
        if (it.listed)
            list_into(l, p, it.name, depth + 1);
        free(p);
    }
    closedir(d);
}

static void list_dir(listing *l)
{
    list_into(l, l->dir, "", 0);
    if (l->items.len)
        qsort(l->items.data, l->items.len, sizeof *l->items.data, by_name);
}

static void listing_free(listing *l)
{
    for (uint32_t i = 0; i < l->items.len; i++)
        free(l->items.data[i].name);
    kc_vec_free(&l->items);
}

static char *parent_of(const char *path)
{
    char *abs = realpath(path, NULL);
    if (!abs)
        return NULL;
    char *slash = strrchr(abs, '/');
    if (slash == abs)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    return abs;
}

kc_tree_guard *kc_tree_guard_take(const kc_file_result *files, size_t n)
{
    kc_tree_guard *g = kc_xcalloc(1, sizeof *g);
    for (size_t i = 0; i < n; i++) {
        char *dir = files[i].path ? parent_of(files[i].path) : NULL;
        bool seen = !dir;
        for (uint32_t k = 0; k < g->dirs.len && !seen; k++)
            seen = !strcmp(g->dirs.data[k].dir, dir);
        if (seen) {
            free(dir);
            continue;
        }
        listing l = {.dir = dir};
        list_dir(&l);
        kc_vec_push(&g->dirs, l);
    }
    return g;
}

/* A listed directory is the same directory still (its entries are
 * compared one by one); anything else the same file, unchanged. */
static bool same(const entry *x, const entry *y)
{
    const struct stat *a = &x->st, *b = &y->st;
    if (x->listed && y->listed)
        return a->st_ino == b->st_ino && a->st_mode == b->st_mode;
    return a->st_ino == b->st_ino && a->st_size == b->st_size && a->st_mode == b->st_mode &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void say(FILE *err, const char *dir, const char *name, const char *what, unsigned *said)
{
    if ((*said)++ < 20)
        fprintf(err, "kcheck verify: warning: the experiments %s `%s` in %s\n", what, name, dir);
}

unsigned kc_tree_guard_check(kc_tree_guard *g, FILE *err)
{
    unsigned said = 0;
    for (uint32_t k = 0; g && k < g->dirs.len; k++) {
        listing *before = &g->dirs.data[k];
        listing after = {.dir = before->dir};
        list_dir(&after);
        uint32_t i = 0, j = 0;
        while (i < before->items.len || j < after.items.len) {
            int c = i == before->items.len  ? 1
                    : j == after.items.len ? -1
                                           : strcmp(before->items.data[i].name, after.items.data[j].name);
            if (c < 0)
                say(err, before->dir, before->items.data[i++].name, "removed", &said);
            else if (c > 0)
                say(err, before->dir, after.items.data[j++].name, "created", &said);
            else {
                if (!same(&before->items.data[i], &after.items.data[j]))
                    say(err, before->dir, before->items.data[i].name, "changed", &said);
                i++;
                j++;
            }
        }
        listing_free(&after);
    }
    if (said > 20)
        fprintf(err, "kcheck verify: warning: ... and %u more changes in the verified files' directories\n",
                said - 20);
    return said;
}

void kc_tree_guard_free(kc_tree_guard *g)
{
    for (uint32_t k = 0; g && k < g->dirs.len; k++) {
        listing_free(&g->dirs.data[k]);
        free(g->dirs.data[k].dir);
    }
    if (g)
        kc_vec_free(&g->dirs);
    free(g);
}
