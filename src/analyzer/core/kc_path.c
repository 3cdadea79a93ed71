#include "kc_path.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *kc_path_lexical(const char *path)
{
    bool abs = path[0] == '/';
    /* Split into segments, dropping "" and ".", folding "x/..". */
    KC_VEC(char *) seg = {0};
    char *copy = kc_xstrdup(path), *save = NULL;
    for (char *t = strtok_r(copy, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (strcmp(t, ".") == 0)
            continue;
        if (strcmp(t, "..") == 0 && seg.len && strcmp(seg.data[seg.len - 1], "..") != 0) {
            seg.len--;
            continue;
        }
        if (strcmp(t, "..") == 0 && abs)
            continue; /* "/.." is "/" */
        kc_vec_push(&seg, t);
    }
    kc_strbuf out = {0};
    if (abs)
        kc_sb_putc(&out, '/');
    for (uint32_t i = 0; i < seg.len; i++) {
        if (i)
            kc_sb_putc(&out, '/');
        kc_sb_append(&out, seg.data[i]);
    }
    kc_vec_free(&seg);
    free(copy);
    char *norm = kc_sb_take(&out);
    if (!*norm) {
        free(norm);
        norm = kc_xstrdup(".");
    }
    return norm;
}

char *kc_path_normalize(const char *path)
{
    bool abs = path[0] == '/';
    char *cwd = NULL;
    char *norm = kc_path_lexical(path);
    if (abs && (cwd = getcwd(NULL, 0)) != NULL) {
        size_t cl = strlen(cwd);
        if (cl > 1 && strncmp(norm, cwd, cl) == 0 && norm[cl] == '/') {
            char *rel = kc_xstrdup(norm + cl + 1);
            free(norm);
            norm = rel;
        }
        free(cwd);
    }
    if (!*norm) {
        free(norm);
        norm = kc_xstrdup(".");
    }
    return norm;
}

char *kc_path_absolute(const char *path)
{
    if (path[0] == '/')
        return kc_path_lexical(path);
    char *cwd = getcwd(NULL, 0);
    char *joined = kc_xasprintf("%s/%s", cwd ? cwd : "", path);
    free(cwd);
    char *norm = kc_path_lexical(joined);
    free(joined);
    return norm;
}

char *kc_path_repository(const char *path)
{
    char *dir = kc_path_absolute(path);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = '\0';
    }
    for (;;) {
        char *git = kc_xasprintf("%s%s.git", dir, strcmp(dir, "/") ? "/" : "");
        bool found = stat(git, &st) == 0;
        free(git);
        if (found)
            return dir;
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
    }
    free(dir);
    return NULL;
}

bool kc_path_is_home(const char *dir)
{
    const char *home = getenv("HOME");
    char *home_abs = home && *home ? realpath(home, NULL) : NULL;
    bool is = home_abs && strcmp(dir, home_abs) == 0;
    free(home_abs);
    return is;
}

char *kc_path_project_root(const char *path, const char *root)
{
    if (root && *root)
        return kc_path_absolute(root);
    char *repo = kc_path_repository(path);
    if (repo)
        return repo;
    char *cwd = getcwd(NULL, 0);
    char *norm = cwd ? kc_path_lexical(cwd) : kc_xstrdup("/");
    free(cwd);
    return norm;
}

char *kc_path_project(const char *path, const char *root)
{
    char *top = kc_path_project_root(path, root);
    char *abs = kc_path_absolute(path);
    const char *under = kc_path_under(abs, top);
    char *rel = under && *under ? kc_xstrdup(under) : !strcmp(abs, top) ? kc_xstrdup(".") : NULL;
    free(top);
    free(abs);
    return rel ? rel : kc_path_normalize(path);
}

const char *kc_path_under(const char *abspath, const char *dir)
{
    size_t dl = strlen(dir);
    if (strcmp(dir, "/") == 0)
        return abspath[0] == '/' ? abspath + 1 : NULL;
    if (strncmp(abspath, dir, dl) == 0 && abspath[dl] == '/')
        return abspath + dl + 1;
    return NULL;
}
