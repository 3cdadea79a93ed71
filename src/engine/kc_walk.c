/* Path expansion: files, directories, .gitignore. */
#include "kc_walk.h"

#include "kc_frontend.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KC_WALK_MAX_DEPTH 128
#define KC_GLOB_MAX_STEPS 200000

/* ---- .gitignore patterns ---- */

typedef struct glob_state {
    long steps;
} glob_state;

static bool class_match(const char **pp, char c)
{
    const char *p = *pp + 1;
    bool neg = false, hit = false;
    if (*p == '!' || *p == '^') {
        neg = true;
        p++;
    }
    bool first = true;
    while (*p && (*p != ']' || first)) {
        first = false;
        if (p[0] == '[' && p[1] == ':') {
            /* [:digit:] and the other POSIX classes git's wildmatch takes */
            static const struct {
                const char *name;
                int (*fn)(int);
            } classes[] = {{"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank}, {"cntrl", iscntrl},
                           {"digit", isdigit}, {"graph", isgraph}, {"lower", islower}, {"print", isprint},
                           {"punct", ispunct}, {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit}};
            const char *end = strstr(p + 2, ":]");
            if (!end)
                return false; /* malformed: git matches nothing */
            bool known = false;
            for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
                if (strlen(classes[i].name) == (size_t)(end - p - 2) && !strncmp(classes[i].name, p + 2, (size_t)(end - p - 2))) {
                    known = true;
                    hit |= classes[i].fn((unsigned char)c) != 0;
                }
            if (!known)
                return false;
            p = end + 2;
            continue;
        }
        char lo = *p;
        if (lo == '\\' && p[1])
            lo = *++p;
        if (p[1] == '-' && p[2] && p[2] != ']') {
            char hi = p[2];
            if (c >= lo && c <= hi)
                hit = true;
            p += 3;
        } else {
            if (c == lo)
                hit = true;
            p++;
        }
    }
    if (*p != ']')
        return false; /* malformed class: no match */
    *pp = p + 1;
    return hit != neg;
}

static bool glob(glob_state *g, const char *p, const char *s)
{
    while (*p) {
        if (++g->steps > KC_GLOB_MAX_STEPS)
            return false;
        if (p[0] == '*' && p[1] == '*' && (p[2] == '/' || p[2] == '\0')) {
            if (p[2] == '\0')
                return true;
            const char *rest = p + 3;
            for (const char *t = s;;) {
                if (glob(g, rest, t))
                    return true;
                t = strchr(t, '/');
                if (!t)
                    return false;
                t++;
            }
        }
        if (*p == '*') {
            while (*p == '*')
                p++;
            for (const char *t = s;; t++) {
                if (glob(g, p, t))
                    return true;
                if (*t == '\0' || *t == '/')
                    return false;
            }
        }
        if (*p == '?') {
            if (!*s || *s == '/')
                return false;
            p++;
            s++;
            continue;
        }
        if (*p == '[') {
            if (!*s || *s == '/' || !class_match(&p, *s))
                return false;
            s++;
            continue;
        }
        if (*p == '\\' && p[1])
            p++;
        if (*p != *s)
            return false;
        p++;
        s++;
    }
    return *s == '\0';
}

bool kc_gitignore_match(const char *pattern, const char *path, bool is_dir)
{
    size_t n = strlen(pattern);
    bool dir_only = n > 0 && pattern[n - 1] == '/';
    if (dir_only && !is_dir)
        return false;
    char *pat = kc_xstrndup(pattern, dir_only ? n - 1 : n);
    const char *p = pat;
    bool anchored = strchr(p, '/') != NULL;
    if (*p == '/')
        p++;
    glob_state g = {0};
    bool hit;
    if (anchored) {
        hit = glob(&g, p, path);
    } else {
        const char *base = strrchr(path, '/');
        hit = glob(&g, p, base ? base + 1 : path);
    }
    free(pat);
    return hit;
}

/* A pattern applies to the walked paths that start with `walk_prefix`; it
 * is matched against rel_prefix + the rest of the path, i.e. the path
 * relative to the directory of its .gitignore. */
typedef struct ignore_rule {
    char *pattern; /* without the leading '!' */
    bool negate;
    const char *walk_prefix; /* owned by ignore_set.bases */
    const char *rel_prefix;  /* owned by ignore_set.bases */
} ignore_rule;

typedef struct ignore_set {
    KC_VEC(ignore_rule) rules;
    KC_VEC(char *) bases;
} ignore_set;

/* Loads the ignore file `path` (a .gitignore, .git/info/exclude, git's
 * global ignore file); its patterns apply to walked paths under
 * `walk_dir`, seen from the directory the patterns are relative to
 * through `rel` ("" when walk_dir is that directory). */
static void ignore_load_file(ignore_set *set, const char *path, const char *walk_dir, const char *rel)
{
    /* Only a regular file: a FIFO named .gitignore must not block the walk. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return;
    }
    char *base = kc_xasprintf("%s/", walk_dir);
    char *relp = kc_xstrdup(rel);
    kc_vec_push(&set->bases, base);
    kc_vec_push(&set->bases, relp);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        while (n > 0 && line[n - 1] == ' ' && (n < 2 || line[n - 2] != '\\'))
            line[--n] = '\0';
        if (n == 0 || line[0] == '#')
            continue;
        ignore_rule r = {.walk_prefix = base, .rel_prefix = relp};
        const char *p = line;
        if (*p == '!') {
            r.negate = true;
            p++;
        } else if (p[0] == '\\' && (p[1] == '!' || p[1] == '#')) {
            p++;
        }
        if (!*p)
            continue;
        r.pattern = kc_xstrdup(p);
        kc_vec_push(&set->rules, r);
    }
    fclose(f);
}

static void ignore_load_for(ignore_set *set, const char *dir, const char *walk_dir, const char *rel)
{
    char *path = kc_xasprintf("%s/.gitignore", dir);
    ignore_load_file(set, path, walk_dir, rel);
    free(path);
}

static void ignore_load(ignore_set *set, const char *dir) { ignore_load_for(set, dir, dir, ""); }

/* The patterns git applies below every .gitignore of the work tree at
 * `root`: the global ignore file ($XDG_CONFIG_HOME/git/ignore, else
 * ~/.config/git/ignore; core.excludesFile is not read) and
 * `root`/.git/info/exclude, in that order (later rules win). */
static void load_repo_excludes(ignore_set *set, const char *root, const char *walk_dir, const char *rel)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    char *global = xdg && *xdg ? kc_xasprintf("%s/git/ignore", xdg)
                   : home && *home ? kc_xasprintf("%s/.config/git/ignore", home)
                                   : NULL;
    if (global)
        ignore_load_file(set, global, walk_dir, rel);
    free(global);
    char *info = kc_xasprintf("%s/.git/info/exclude", root);
    ignore_load_file(set, info, walk_dir, rel);
    free(info);
}

static void ignore_free(ignore_set *set)
{
    for (uint32_t i = 0; i < set->rules.len; i++)
        free(set->rules.data[i].pattern);
    kc_vec_free(&set->rules);
    for (uint32_t i = 0; i < set->bases.len; i++)
        free(set->bases.data[i]);
    kc_vec_free(&set->bases);
}

static bool ignored(const ignore_set *set, const char *path, bool is_dir)
{
    bool result = false;
    for (uint32_t i = 0; i < set->rules.len; i++) {
        const ignore_rule *r = &set->rules.data[i];
        size_t bl = strlen(r->walk_prefix);
        if (strncmp(path, r->walk_prefix, bl) != 0)
            continue;
        char *rel = kc_xasprintf("%s%s", r->rel_prefix, path + bl);
        if (kc_gitignore_match(r->pattern, rel, is_dir))
            result = !r->negate;
        free(rel);
    }
    return result;
}

/* ---- walking ---- */

static void add_result(kc_path_list *out, const char *path, bool explicit_path)
{
    kc_file_result r;
    memset(&r, 0, sizeof r);
    r.path = kc_xstrdup(path);
    r.explicit_path = explicit_path;
    kc_vec_push(&out->files, r);
}

static void add_error(kc_path_list *out, const char *path, const char *msg)
{
    add_result(out, path, true);
    kc_file_errors_add(&kc_vec_last(&out->files)->errors, 0, 0, "%s", msg);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir, ignore_set *set, unsigned depth, kc_walk_take take, kc_path_list *out)
{
    if (depth > KC_WALK_MAX_DEPTH) {
        add_error(out, dir, "directory nesting too deep; not descending further");
        return;
    }
    uint32_t nrules = set->rules.len;
    ignore_load(set, dir);
    DIR *d = opendir(dir);
    if (!d) {
        char *msg = kc_xasprintf("cannot open directory: %s", strerror(errno));
        add_error(out, dir, msg);
        free(msg);
        for (uint32_t i = nrules; i < set->rules.len; i++)
            free(set->rules.data[i].pattern);
        set->rules.len = nrules;
        return;
    }
    KC_VEC(char *) names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ., .., hidden files and directories (.git) */
        kc_vec_push(&names, kc_xstrdup(e->d_name));
    }
    closedir(d);
    if (names.len)
        qsort(names.data, names.len, sizeof(char *), name_cmp);
    for (uint32_t i = 0; i < names.len; i++) {
        char *path = kc_xasprintf("%s/%s", dir, names.data[i]);
        struct stat lst, st;
        if (lstat(path, &lst) != 0) {
            /* Gone since the directory was read: nothing to say. Anything
             * else (a path longer than the system takes) is said: what is
             * not analysed is never passed over in silence. */
            if (errno != ENOENT) {
                char *msg = kc_xasprintf("cannot open: %s; not checked, nor anything below it", strerror(errno));
                add_error(out, path, msg);
                free(msg);
            }
            free(path);
            continue;
        }
        bool is_link = S_ISLNK(lst.st_mode);
        bool have = is_link ? stat(path, &st) == 0 : (st = lst, true);
        int stat_errno = have ? 0 : errno;
        if (have && S_ISDIR(st.st_mode)) {
            /* Symlinked directories are not followed: no cycles. */
            if (!is_link && !ignored(set, path, true))
                walk(path, set, depth + 1, take, out);
        } else if (have && S_ISREG(st.st_mode)) {
            if (take(path) && !ignored(set, path, false))
                add_result(out, path, false);
        } else if (take(path) && !ignored(set, path, false)) {
            /* A kernel source that cannot be read (a dangling symlink, a
             * symlink loop, a FIFO or a socket) is reported, not skipped. */
            char *msg = !have ? kc_xasprintf("cannot open: %s%s", strerror(stat_errno),
                                             is_link ? " (a symbolic link)" : "")
                              : kc_xasprintf("not a regular file (%s)", S_ISFIFO(st.st_mode)   ? "a FIFO"
                                                                        : S_ISSOCK(st.st_mode) ? "a socket"
                                                                                               : "a device");
            add_result(out, path, false);
            kc_file_errors_add(&kc_vec_last(&out->files)->errors, 0, 0, "%s", msg);
            free(msg);
        }
        free(path);
    }
    for (uint32_t i = 0; i < names.len; i++)
        free(names.data[i]);
    kc_vec_free(&names);
    /* Drop this directory's patterns for its siblings. */
    for (uint32_t i = nrules; i < set->rules.len; i++)
        free(set->rules.data[i].pattern);
    set->rules.len = nrules;
}

/* Loads the .gitignore files of the directories above `dir` up to the
 * enclosing git work tree (the first ancestor holding .git). */
static void load_ancestors(ignore_set *set, const char *dir)
{
    char *abs = realpath(dir, NULL);
    if (!abs)
        return;
    KC_VEC(char *) chain = {0};
    char *cur = kc_xstrdup(abs);
    bool found_root = false;
    for (;;) {
        char *slash = strrchr(cur, '/');
        if (!slash || slash == cur)
            break;
        *slash = '\0';
        kc_vec_push(&chain, kc_xstrdup(cur));
        char *git = kc_xasprintf("%s/.git", cur);
        struct stat st;
        bool root = stat(git, &st) == 0;
        free(git);
        if (root) {
            found_root = true;
            break;
        }
    }
    /* Is `dir` itself the root? Then nothing above applies. */
    char *own = kc_xasprintf("%s/.git", abs);
    struct stat st;
    bool own_root = stat(own, &st) == 0;
    free(own);
    if (own_root)
        load_repo_excludes(set, abs, dir, "");
    if (found_root && !own_root) {
        const char *top = chain.data[chain.len - 1];
        char *toprel = kc_xasprintf("%s/", abs + strlen(top) + 1);
        load_repo_excludes(set, top, dir, toprel);
        free(toprel);
        for (uint32_t i = chain.len; i-- > 0;) {
            /* abs = chain[i] + "/" + rel */
            const char *rel = abs + strlen(chain.data[i]) + 1;
            char *relp = kc_xasprintf("%s/", rel);
            ignore_load_for(set, chain.data[i], dir, relp);
            free(relp);
        }
    }
    for (uint32_t i = 0; i < chain.len; i++)
        free(chain.data[i]);
    kc_vec_free(&chain);
    free(cur);
    free(abs);
}

static bool lang_file(const char *path)
{
    kc_lang lang;
    return kc_lang_for_path(path, &lang);
}

void kc_expand_paths(const char *const *paths, size_t n, kc_path_list *out)
{
    kc_expand_paths_if(paths, n, lang_file, out);
}

void kc_expand_paths_if(const char *const *paths, size_t n, kc_walk_take take, kc_path_list *out)
{
    for (size_t i = 0; i < n; i++) {
        const char *p = paths[i];
        struct stat st;
        if (stat(p, &st) != 0) {
            char *msg = kc_xasprintf("cannot open: %s", strerror(errno));
            add_error(out, p, msg);
            free(msg);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            /* Strip trailing slashes so reported paths read naturally. */
            char *dir = kc_xstrdup(p);
            size_t len = strlen(dir);
            while (len > 1 && dir[len - 1] == '/')
                dir[--len] = '\0';
            ignore_set set = {0};
            load_ancestors(&set, dir);
            walk(dir, &set, 0, take, out);
            ignore_free(&set);
            free(dir);
        } else {
            add_result(out, p, true);
        }
    }
}
