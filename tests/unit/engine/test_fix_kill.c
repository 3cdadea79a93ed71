/* --fix killed mid-run (issue 8, docs/robustness.md): `kcheck --fix` on a
 * large file is killed with SIGKILL after delays spread over its run, many
 * times. Each time the file must hold either the old text or the new one,
 * never a mix or a truncation, and keep its mode; the only thing a kill can
 * leave behind is kcheck's own temporary file (.NAME.kcheck-XXXXXX, made
 * in the same directory so that the rename is atomic), counted and
 * reported here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kc_base.h"
#include "kc_cli.h"

static char dir[256];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    kc_strbuf sb = {0};
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        kc_sb_appendn(&sb, buf, n);
    fclose(f);
    *len = sb.len;
    return kc_sb_take(&sb);
}

static void write_all(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Runs `kcheck --fix` on path in a child; kills it after `delay` seconds
 * (never when delay < 0). Returns how long it ran. */
static double fix_in_child(const char *path, double delay, bool *killed)
{
    double t0 = now_s();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char *argv[] = {"kcheck", "--no-cache", "--fix", "--select", "KC202", "-q", "--no-source", "-j", "1", (char *)path,
                        NULL};
        FILE *null = fopen("/dev/null", "w");
        int st = kc_cli_main(10, argv, null, null);
        _exit(st);
    }
    int status = 0;
    *killed = false;
    if (delay >= 0) {
        struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
        nanosleep(&ts, NULL);
        *killed = kill(pid, SIGKILL) == 0;
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (*killed && WIFEXITED(status))
        *killed = false; /* it had finished */
    return now_s() - t0;
}

/* Removes kcheck's temporary files from the directory; returns how many. */
static int sweep_temporaries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        if (strstr(e->d_name, ".kcheck-")) {
            char *p = kc_xasprintf("%s/%s", dir, e->d_name);
            unlink(p);
            free(p);
            n++;
        } else if (e->d_name[0] != '.' && strcmp(e->d_name, "k.py") != 0) {
            print_error("unexpected file left: %s\n", e->d_name);
            fail();
        }
    }
    closedir(d);
    return n;
}

static void test_fix_killed_at_random_points(void **state)
{
    strcpy(dir, "/tmp/kcheck-fixkill-XXXXXX");
    assert_non_null(mkdtemp(dir));
    /* ~512 KiB: 100 kernels with a KC202 fix-it each, host code between
     * (an uninterrupted run takes about 0.4 s, long enough for kills to
     * land in every phase; 2 MiB took 3.5 s a run, 100 s of CI time). */
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "import triton\nimport triton.language as tl\n");
    for (unsigned i = 0; sb.len < ((size_t)512 << 10); i++) {
        if (i % 40 == 0)
            kc_sb_appendf(&sb, "@triton.jit\ndef k%u(x_ptr, N, B: tl.constexpr):\n"
                               "    for s in tl.static_range(0, N, B):\n"
                               "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n\n", i);
        else
            kc_sb_appendf(&sb, "def host_%u(a, b):\n    return a * %u + b  # host code, line %u\n\n", i, i, i);
    }
    size_t old_len = sb.len;
    char *old = kc_sb_take(&sb);
    char *path = kc_xasprintf("%s/k.py", dir);

    /* The new text, from a run that is not killed. */
    bool killed;
    double full = 1e9;
    for (int i = 0; i < 3; i++) { /* the fastest of three: the first pays for cold caches */
        write_all(path, old, old_len);
        chmod(path, 0640);
        double t = fix_in_child(path, -1, &killed);
        if (t < full)
            full = t;
    }
    size_t new_len;
    char *new_text = read_all(path, &new_len);
    assert_true(new_len != old_len || memcmp(new_text, old, old_len) != 0);
    assert_int_equal(sweep_temporaries(), 0);
    print_message("an uninterrupted --fix of %zu bytes takes %.2f s\n", old_len, full);

    /* Kills spread over the whole run, denser near its end where the file
     * is written and renamed. */
    enum { RUNS = 30 };
    int n_old = 0, n_new = 0, n_killed = 0, temps = 0;
    srand(8);
    for (int i = 0; i < RUNS; i++) {
        write_all(path, old, old_len);
        chmod(path, 0640);
        double frac = i < RUNS / 3 ? (double)rand() / RAND_MAX : 0.8 + 0.35 * (double)rand() / RAND_MAX;
        fix_in_child(path, full * frac, &killed);
        n_killed += killed;
        size_t len;
        char *now = read_all(path, &len);
        bool is_old = len == old_len && memcmp(now, old, len) == 0;
        bool is_new = len == new_len && memcmp(now, new_text, len) == 0;
        if (!is_old && !is_new)
            print_error("run %d (killed after %.3f s): the file is neither the old nor the new text (%zu bytes)\n", i,
                        full * frac, len);
        assert_true(is_old || is_new);
        n_old += is_old;
        n_new += is_new;
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0640);
        temps += sweep_temporaries();
        free(now);
    }
    print_message("%d runs, %d killed: the file was the old text %d times and the new text %d times, never "
                  "anything else; %d temporary file(s) left by kills between creating and renaming it\n",
                  RUNS, n_killed, n_old, n_new, temps);
    assert_true(n_killed > 0);
    free(new_text);
    free(old);
    unlink(path);
    free(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fix_killed_at_random_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
