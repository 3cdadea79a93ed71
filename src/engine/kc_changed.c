/* kc_changed.c — the lines changed since a git revision (kc_changed.h). */
#include "kc_changed.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct line_range {
    uint32_t first, last;
} line_range;

typedef struct changed_file {
    char *path; /* the repository's top directory, '/', the path git printed */
    bool whole; /* new (untracked): every line */
    KC_VEC(line_range) ranges;
} changed_file;

typedef struct repo {
    char *top;   /* realpath of the repository's top directory */
    char *error; /* why its changes cannot be had, or NULL */
    KC_VEC(changed_file) files;
} repo;

struct kc_changed {
    char *rev;
    pthread_mutex_t mu;
    KC_VEC(repo) repos;
};

kc_changed *kc_changed_new(const char *rev)
{
    kc_changed *c = kc_xcalloc(1, sizeof *c);
    c->rev = kc_xstrdup(rev);
    pthread_mutex_init(&c->mu, NULL);
    return c;
}

void kc_changed_delete(kc_changed *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->repos.len; i++) {
        repo *r = &c->repos.data[i];
        for (uint32_t k = 0; k < r->files.len; k++) {
            free(r->files.data[k].path);
            kc_vec_free(&r->files.data[k].ranges);
        }
        kc_vec_free(&r->files);
        free(r->top);
        free(r->error);
    }
    kc_vec_free(&c->repos);
    pthread_mutex_destroy(&c->mu);
    free(c->rev);
    free(c);
}

/* ---- running git ---- */

/* Runs git with `argv` (argv[0] "git"); its standard output into *out
 * (malloc'd, NUL-terminated), its first line of standard error into
 * *err_line on failure. True when it exited 0. */
static bool run_git(char *const *argv, char **out, size_t *out_len, char **err_line)
{
    *out = NULL;
    *out_len = 0;
    *err_line = NULL;
    int po[2], pe[2];
    if (pipe(po) != 0)
        return false;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        close(po[0]);
        close(pe[0]);
        *err_line = kc_xasprintf("cannot run git: %s", strerror(rc));
        return false;
    }
    kc_strbuf so = {0}, se = {0};
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                if (i == 0)
                    kc_sb_appendn(&so, buf, (size_t)n);
                else if (se.len < 4096)
                    kc_sb_appendn(&se, buf, (size_t)n);
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        const char *e = kc_sb_str(&se);
        size_t l = strcspn(e, "\n");
        *err_line = l ? kc_xstrndup(e, l) : kc_xstrdup("git failed");
    }
    kc_sb_free(&se);
    *out_len = so.len;
    *out = kc_sb_take(&so);
    if (!*out)
        *out = kc_xstrdup("");
    return ok;
}

/* ---- git's output ---- */

/* A path as git prints it: plain, or C-quoted ("a\303\251b"). */
static char *git_path(const char *s, size_t n)
{
    if (n < 2 || s[0] != '"')
        return kc_xstrndup(s, n);
    kc_strbuf sb = {0};
    for (size_t i = 1; i < n && s[i] != '"'; i++) {
        if (s[i] != '\\' || i + 1 >= n) {
            kc_sb_putc(&sb, s[i]);
            continue;
        }
        char e = s[++i];
        if (e >= '0' && e <= '7' && i + 2 < n) {
            int v = (e - '0') * 64 + (s[i + 1] - '0') * 8 + (s[i + 2] - '0');
            kc_sb_putc(&sb, (char)v);
            i += 2;
        } else
            kc_sb_putc(&sb, e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'a' ? '\a' : e == 'b' ? '\b'
                                                           : e == 'f' ? '\f' : e == 'v' ? '\v' : e);
    }
    return kc_sb_take(&sb);
}

static uint32_t number(const char **p)
{
    unsigned long v = 0;
    while (**p >= '0' && **p <= '9') {
        v = v * 10 + (unsigned long)(**p - '0');
        if (v > UINT32_MAX)
            v = UINT32_MAX;
        (*p)++;
    }
    return (uint32_t)v;
}

void kc_changed_parse_diff(const char *text, size_t len, kc_changed_range_fn fn, void *ud)
{
    char *path = NULL;
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        const char *l = text + i;
        size_t n = e - i;
        if (n >= 4 && !strncmp(l, "+++ ", 4)) {
            free(path);
            path = NULL;
            const char *p = l + 4;
            size_t pn = n - 4;
            if (pn >= 2 && p[0] == '"' && p[1] == 'b' && pn >= 3 && p[2] == '/') {
                char *q = git_path(p, pn); /* "b/..." quoted: the prefix is inside */
                path = kc_xstrdup(q + 2);
                free(q);
            } else if (pn >= 2 && p[0] == 'b' && p[1] == '/')
                path = kc_xstrndup(p + 2, pn - 2);
            /* "+++ /dev/null": a deleted file */
        } else if (n >= 4 && !strncmp(l, "@@ -", 4) && path) {
            const char *p = memchr(l, '+', n);
            if (p && p < l + n) {
                p++;
                uint32_t start = number(&p), count = 1;
                if (*p == ',') {
                    p++;
                    count = number(&p);
                }
                if (count == 0) /* lines removed after `start`: the lines on both sides */
                    fn(ud, path, start ? start : 1, start + 1);
                else
                    fn(ud, path, start, start + count - 1);
            }
        }
        i = e + 1;
    }
    free(path);
}

/* ---- one repository ---- */

static changed_file *file_of(repo *r, const char *rel)
{
    char *full = kc_xasprintf("%s/%s", r->top, rel);
    for (uint32_t i = 0; i < r->files.len; i++)
        if (!strcmp(r->files.data[i].path, full)) {
            free(full);
            return &r->files.data[i];
        }
    changed_file f = {full, false, {0}};
    kc_vec_push(&r->files, f);
    return &r->files.data[r->files.len - 1];
}

static void on_range(void *ud, const char *path, uint32_t first, uint32_t last)
{
    changed_file *f = file_of(ud, path);
    line_range lr = {first, last};
    kc_vec_push(&f->ranges, lr);
}

static void load_repo(repo *r, const char *rev)
{
    char *spec = kc_xasprintf("%s^{commit}", rev);
    char *verify[] = {"git", "-C", r->top, "rev-parse", "--verify", "--quiet", spec, NULL};
    char *out, *err;
    size_t n;
    bool ok = run_git(verify, &out, &n, &err);
    free(out);
    free(spec);
    if (!ok) {
        r->error = kc_xasprintf("--diff-base: `%s` is not a commit of the repository %s%s%s", rev, r->top,
                                err && *err && strcmp(err, "git failed") ? ": " : "",
                                err && strcmp(err, "git failed") ? err : "");
        free(err);
        return;
    }
    free(err);
    char *diff[] = {"git", "-c", "core.quotePath=false", "-C", r->top, "diff", "--no-color", "--no-ext-diff",
                    "--no-renames", "--unified=0", (char *)rev, "--", NULL};
    if (!run_git(diff, &out, &n, &err)) {
        r->error = kc_xasprintf("--diff-base: git diff %s failed in %s: %s", rev, r->top, err);
        free(out);
        free(err);
        return;
    }
    kc_changed_parse_diff(out, n, on_range, r);
    free(out);
    char *untracked[] = {"git", "-C", r->top, "ls-files", "--others", "--exclude-standard", "-z", NULL};
    if (run_git(untracked, &out, &n, &err)) {
        for (size_t i = 0; i < n;) {
            size_t l = strnlen(out + i, n - i);
            if (l)
                file_of(r, out + i)->whole = true;
            i += l + 1;
        }
    }
    free(out);
    free(err);
}

/* The absolute, symlink-free form of a path that may not exist (an
 * editor's buffer): its directory resolved, its name kept. */
static char *resolved(const char *path)
{
    char *r = realpath(path, NULL);
    if (r)
        return r;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? kc_xstrndup(path, (size_t)(slash - path) + (slash == path)) : kc_xstrdup(".");
    char *rd = realpath(dir, NULL);
    free(dir);
    if (!rd)
        return NULL;
    char *full = kc_xasprintf("%s/%s", strcmp(rd, "/") ? rd : "", slash ? slash + 1 : path);
    free(rd);
    return full;
}

static repo *repo_for(kc_changed *c, const char *abs, char **err)
{
    for (uint32_t i = 0; i < c->repos.len; i++) {
        size_t tl = strlen(c->repos.data[i].top);
        if (!strncmp(abs, c->repos.data[i].top, tl) && abs[tl] == '/')
            return &c->repos.data[i];
    }
    const char *slash = strrchr(abs, '/');
    char *dir = kc_xstrndup(abs, slash && slash != abs ? (size_t)(slash - abs) : 1);
    char *argv[] = {"git", "-C", dir, "rev-parse", "--show-toplevel", NULL};
    char *out, *e;
    size_t n;
    bool ok = run_git(argv, &out, &n, &e);
    free(dir);
    if (!ok) {
        *err = kc_xasprintf("--diff-base: the file is not in a git repository (%s)", e);
        free(out);
        free(e);
        return NULL;
    }
    free(e);
    out[strcspn(out, "\n")] = '\0';
    char *top = realpath(out, NULL);
    free(out);
    if (!top) {
        *err = kc_xstrdup("--diff-base: the file's repository cannot be resolved");
        return NULL;
    }
    for (uint32_t i = 0; i < c->repos.len; i++) /* found through another directory */
        if (!strcmp(c->repos.data[i].top, top)) {
            free(top);
            return &c->repos.data[i];
        }
    repo r = {top, NULL, {0}};
    load_repo(&r, c->rev);
    kc_vec_push(&c->repos, r);
    return &c->repos.data[c->repos.len - 1];
}

bool kc_changed_meets(kc_changed *c, const char *path, uint32_t first, uint32_t last, char **err)
{
    *err = NULL;
    char *abs = resolved(path);
    if (!abs) {
        *err = kc_xasprintf("--diff-base: cannot resolve the path %s", path);
        return false;
    }
    pthread_mutex_lock(&c->mu);
    repo *r = repo_for(c, abs, err);
    bool meets = false;
    if (r && r->error)
        *err = kc_xstrdup(r->error);
    for (uint32_t i = 0; r && !r->error && i < r->files.len && !meets; i++) {
        const changed_file *f = &r->files.data[i];
        if (strcmp(f->path, abs) != 0)
            continue;
        meets = f->whole;
        for (uint32_t k = 0; k < f->ranges.len && !meets; k++)
            meets = f->ranges.data[k].first <= last && first <= f->ranges.data[k].last;
    }
    pthread_mutex_unlock(&c->mu);
    free(abs);
    return meets;
}
