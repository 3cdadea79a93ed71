#include "kc_path.h"

#include <stdlib.h>
#include <string.h>
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
