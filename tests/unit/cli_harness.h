/* The command line in process, for the unit tests: run kc_cli_main with
 * stdout and stderr captured, temporary directories, files written with
 * their parent directories and read back, substring checks, a monotonic
 * clock. Everything is static inline, so a test that does not use a helper
 * gets no -Wunused-function; include it after <cmocka.h> or alone. */
#ifndef KC_TESTS_CLI_HARNESS_H
#define KC_TESTS_CLI_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kc_base.h"
#include "kc_cli.h"
#include "kc_file.h"

/* The most arguments, "kcheck" included, that kh_run and kh_run_with pass. */
#define KH_MAX_ARGS 63

/* What one run gave: its exit status, what it printed on stdout (empty when
 * stdout went elsewhere) and stderr, both to free with kh_result_free, and
 * how long kc_cli_main took. */
typedef struct kh_result {
    int status;
    char *out, *err;
    double seconds;
} kh_result;

/* Seconds on the monotonic clock. */
static inline double kh_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Appends FIRST and the arguments after it in AP, up to a NULL, to ARGV from
 * index ARGC, keeping at most CAP - 1 entries and a NULL after them; returns
 * the new count. For wrappers that put their own arguments first. */
static inline int kh_args_va(char **argv, int argc, int cap, const char *first, va_list ap)
{
    for (const char *a = first; a && argc < cap - 1; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    argv[argc] = NULL;
    return argc;
}

/* kc_cli_main(ARGC, ARGV) as given (ARGV[0] is the program name, ARGV[ARGC]
 * is NULL), stdout to OUT when it is not NULL (left open), else captured. */
static inline kh_result kh_runv_to(FILE *out, int argc, char **argv)
{
    kh_result r = {0};
    size_t ol, el;
    FILE *o = out ? out : open_memstream(&r.out, &ol);
    FILE *e = open_memstream(&r.err, &el);
    double t0 = kh_now_s();
    r.status = kc_cli_main(argc, argv, o, e);
    r.seconds = kh_now_s() - t0;
    if (!out)
        fclose(o);
    fclose(e);
    if (!r.out)
        r.out = kc_xstrdup("");
    return r;
}

/* kc_cli_main(ARGC, ARGV) as given, both streams captured. */
static inline kh_result kh_runv(int argc, char **argv) { return kh_runv_to(NULL, argc, argv); }

/* kcheck FIRST AP... (to a NULL), stdout to OUT when it is not NULL. */
static inline kh_result kh_run_with(FILE *out, const char *first, va_list ap)
{
    char *argv[KH_MAX_ARGS + 1] = {"kcheck"};
    int argc = kh_args_va(argv, 1, KH_MAX_ARGS + 1, first, ap);
    return kh_runv_to(out, argc, argv);
}

/* kcheck ARGS... (NULL-terminated), both streams captured. */
static inline kh_result kh_run(const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    kh_result r = kh_run_with(NULL, first, ap);
    va_end(ap);
    return r;
}

static inline void kh_result_free(kh_result *r)
{
    free(r->out);
    free(r->err);
}

/* For wrappers that return only stdout: frees R's stderr, puts its exit
 * status in *STATUS and returns its stdout, to free. */
static inline char *kh_result_take_out(kh_result *r, int *status)
{
    *status = r->status;
    free(r->err);
    r->err = NULL;
    return r->out;
}

/* A fresh directory /tmp/kcheck-TAG-XXXXXX in BUF; BUF, or NULL as mkdtemp. */
static inline char *kh_tmpdir_make(char *buf, size_t size, const char *tag)
{
    int n = snprintf(buf, size, "/tmp/kcheck-%s-XXXXXX", tag);
    if (n < 0 || (size_t)n >= size)
        return NULL;
    return mkdtemp(buf);
}

/* Removes the directory PATH and everything in it, entries a test made
 * unreadable as well (rm -rf); returns the shell's status (0: removed). */
static inline int kh_tmpdir_remove(const char *path)
{
    char *cmd = kc_xasprintf("chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", path, path);
    int rc = system(cmd);
    free(cmd);
    return rc;
}

/* Makes the directories above PATH (not PATH itself) that do not exist. */
static inline void kh_mkdirs_for(const char *path)
{
    char *p = kc_xstrdup(path);
    for (char *s = p + (*p == '/'); (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        mkdir(p, 0755);
        *s = '/';
    }
    free(p);
}

/* Writes LEN bytes of DATA to PATH, making its parent directories first. */
static inline void kh_write_n(const char *path, const void *data, size_t len)
{
    kh_mkdirs_for(path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Writes the string TEXT to PATH, making its parent directories first. */
static inline void kh_write(const char *path, const char *text) { kh_write_n(path, text, strlen(text)); }

/* Writes LEN bytes of DATA to ROOT/NAME, making the directories of NAME first. */
static inline void kh_write_at(const char *root, const char *name, const void *data, size_t len)
{
    char *path = kc_xasprintf("%s/%s", root, name);
    kh_write_n(path, data, len);
    free(path);
}

/* The whole of PATH, NUL-terminated, to free; NULL when it cannot be opened. */
static inline char *kh_read(const char *path)
{
    char *data;
    size_t len;
    kc_read_all(path, &data, &len);
    return data;
}

/* Fails the test, showing both, unless NEEDLE occurs in HAYSTACK. */
static inline void kh_expect_in(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle)) {
        print_error("expected to find:\n  %s\nin:\n%s\n", needle, haystack);
        fail();
    }
}

#endif
