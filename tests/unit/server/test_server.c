/* The check server's request format and the parts of `kcheck server` and
 * `--server` that run without starting a server (kc_server.h). The server
 * itself, started and used by the real binary, is tests/cli/check_server.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kc_cli.h"
#include "kc_server.h"
#include "cli_harness.h"

static char *dup_bytes(const char *s, size_t n)
{
    char *p = malloc(n ? n : 1);
    memcpy(p, s, n);
    return p;
}

static void test_round_trip(void **state)
{
    (void)state;
    char *argv[] = {"kcheck", "--format", "json", "", "a b.cu", NULL};
    char *envp[] = {"HOME=/root", "EMPTY=", "KCHECK_CACHE_DIR=/tmp/x=y", NULL};
    size_t len = 0;
    char *msg = kc_server_encode(KC_SERVER_CHECK, 027, 5, argv, envp, &len);
    kc_server_request req;
    assert_true(kc_server_decode(msg, len, &req));
    assert_int_equal(req.kind, KC_SERVER_CHECK);
    assert_int_equal(req.umask, 027);
    assert_int_equal(req.argc, 5);
    for (int i = 0; i < 5; i++)
        assert_string_equal(req.argv[i], argv[i]);
    assert_null(req.argv[5]);
    for (int i = 0; i < 3; i++)
        assert_string_equal(req.envp[i], envp[i]);
    assert_null(req.envp[3]);
    kc_server_request_free(&req);

    /* No environment at all, and the other kinds. */
    char *none[] = {NULL};
    msg = kc_server_encode(KC_SERVER_STOP, 0, 1, argv, none, &len);
    assert_true(kc_server_decode(msg, len, &req));
    assert_int_equal(req.kind, KC_SERVER_STOP);
    assert_int_equal(req.argc, 1);
    assert_null(req.envp[0]);
    kc_server_request_free(&req);
}

/* Every malformed message is refused (and freed: the ASan run checks). */
static void test_malformed(void **state)
{
    (void)state;
#define M(s) {s, sizeof s - 1}
    static const struct {
        const char *bytes;
        size_t len;
    } bad[] = {
        M(""),
        M("kcheck-server-1"),                              /* no NUL */
        M("kcheck-server-1\0check\0" "22\0" "1\0kcheck"),  /* last string unterminated */
        M("kcheck-server-2\0check\0" "22\0" "1\0kcheck\0"), /* another version */
        M("kcheck-server-1\0chek\0" "22\0" "1\0kcheck\0"),  /* unknown kind */
        M("kcheck-server-1\0check\0" "999\0" "1\0kcheck\0"), /* umask past 0777 */
        M("kcheck-server-1\0check\0" "8\0" "1\0kcheck\0"),   /* not octal */
        M("kcheck-server-1\0check\0" "22\0" "2\0kcheck\0"),  /* more arguments than strings */
        M("kcheck-server-1\0check\0" "22\0" "-1\0kcheck\0"), /* negative count */
        M("kcheck-server-1\0check\0" "22\0" "0\0"),          /* a check without argv[0] */
        M("kcheck-server-1\0check\0" "22\0" "x\0kcheck\0"),  /* not a number */
        M("kcheck-server-1\0check\0" "22\0"),                /* too short */
    };
#undef M
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kc_server_request req;
        char *buf = bad[i].len ? dup_bytes(bad[i].bytes, bad[i].len) : NULL;
        if (kc_server_decode(buf, bad[i].len, &req)) {
            fprintf(stderr, "message %zu was accepted\n", i);
            fail();
        }
        assert_null(req.argv);
    }
    /* The same bytes, well formed, pass: the table tests what it says. */
    kc_server_request req;
    const char ok[] = "kcheck-server-1\0check\0" "22\0" "1\0kcheck\0";
    assert_true(kc_server_decode(dup_bytes(ok, sizeof ok - 1), sizeof ok - 1, &req));
    assert_int_equal(req.umask, 022);
    kc_server_request_free(&req);
}

/* --server with streams other than the process's own (a caller capturing
 * the output) checks in process: the server would write elsewhere. It
 * does not even look for the server directory. */
static void test_server_flag_in_process(void **state)
{
    (void)state;
    char tmp[64];
    assert_non_null(kh_tmpdir_make(tmp, sizeof tmp, "server"));
    char *dir = kc_xasprintf("%s/server", tmp);
    setenv("KCHECK_SERVER_DIR", dir, 1);
    char *file = kc_xasprintf("%s/k.py", tmp);
    kh_write(file, "import triton\nimport triton.language as tl\n@triton.jit\n"
                   "def k(X, N: tl.constexpr):\n    for i in tl.static_range(N):\n        pass\n");
    kh_result plain = kh_run(file, "--no-cache", "--no-config", NULL);
    kh_result served = kh_run("--server", file, "--no-cache", "--server", "--no-config", NULL);
    assert_int_equal(plain.status, served.status);
    assert_string_equal(plain.out, served.out);
    assert_string_equal(plain.err, served.err);
    struct stat sb;
    assert_int_not_equal(stat(dir, &sb), 0);
    kh_result_free(&plain);
    kh_result_free(&served);
    unsetenv("KCHECK_SERVER_DIR");
    free(file);
    free(dir);
    assert_int_equal(kh_tmpdir_remove(tmp), 0);
}

/* `kcheck server` without a server: its usage, its status, and a refusal
 * to use a directory others can enter. */
static void test_server_command(void **state)
{
    (void)state;
    char tmp[64];
    assert_non_null(kh_tmpdir_make(tmp, sizeof tmp, "server"));
    kh_result r = kh_run("server", "help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: kcheck server start|stop|status|run"));
    kh_result_free(&r);
    /* Not a command: `server` and `bogus` are paths to check (in an
     * empty directory: the test's own directory may hold a `server`, the
     * work directory of cli.server, which this would then check whole). */
    char here[4096];
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(tmp), 0);
    r = kh_run("server", "bogus", "--no-cache", NULL);
    assert_int_equal(chdir(here), 0);
    assert_int_equal(r.status, 2);
    assert_null(strstr(r.err, "usage: kcheck server"));
    assert_non_null(strstr(r.out, "server: error: cannot open"));
    assert_non_null(strstr(r.out, "bogus: error: cannot open"));
    kh_result_free(&r);

    char *dir = kc_xasprintf("%s/private", tmp);
    setenv("KCHECK_SERVER_DIR", dir, 1);
    r = kh_run("server", "status", NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "kcheck server: not running\n");
    kh_result_free(&r);
    struct stat sb;
    assert_int_equal(stat(dir, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);

    r = kh_run("server", "stop", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "kcheck server: not running\n");
    kh_result_free(&r);

    assert_int_equal(chmod(dir, 0755), 0);
    r = kh_run("server", "run", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "is not private to this user"));
    assert_non_null(strstr(r.err, "mode 755"));
    kh_result_free(&r);

    unsetenv("KCHECK_SERVER_DIR");
    free(dir);
    assert_int_equal(kh_tmpdir_remove(tmp), 0);
}

/* ---- a real server in a child process ------------------------------------ */

static const kc_server_host test_host = {.run = kc_cli_run};

static int connect_unix(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Sends one framed message (the 8-byte length, then the body). */
static bool send_framed(int fd, const char *body, size_t len)
{
    uint64_t n = len;
    return write(fd, &n, sizeof n) == (ssize_t)sizeof n && write(fd, body, len) == (ssize_t)len;
}

/* A request with a valid length and a body the decoder refuses, then
 * another malformed one, then a status request: the server answers the
 * status (it neither crashed nor freed anything twice: the sanitizer leg
 * aborts on that) and stops cleanly when asked. */
static void test_bad_requests_keep_the_server(void **state)
{
    (void)state;
    char tmp[64];
    assert_non_null(kh_tmpdir_make(tmp, sizeof tmp, "server-loop"));
    char *dir = kc_xasprintf("%s/s", tmp);
    setenv("KCHECK_SERVER_DIR", dir, 1);
    setenv("KCHECK_SERVER_IDLE", "30", 1);
    int p[2];
    assert_int_equal(pipe(p), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        FILE *out = fdopen(p[1], "w");
        char *argv[] = {"server", "run", NULL};
        _exit(kc_server_command(2, argv, out, stderr, &test_host));
    }
    close(p[1]);
    FILE *in = fdopen(p[0], "r");
    char line[1024] = "";
    assert_non_null(fgets(line, sizeof line, in));
    char *sock = strstr(line, " listening on ");
    assert_non_null(sock);
    sock += strlen(" listening on ");
    sock[strcspn(sock, "\n")] = '\0';

    static const char bad1[] = "kcheck-server-1\0chek\0" "22\0" "1\0kcheck\0"; /* unknown kind */
    static const char bad2[] = "not a request"; /* no final NUL */
    const struct {
        const char *b;
        size_t n;
    } bad[] = {{bad1, sizeof bad1 - 1}, {bad2, sizeof bad2 - 1}};
    for (size_t i = 0; i < 2; i++) {
        int fd = connect_unix(sock);
        assert_true(fd >= 0);
        assert_true(send_framed(fd, bad[i].b, bad[i].n));
        char c;
        assert_int_equal(read(fd, &c, 1), 0); /* closed without an answer */
        close(fd);
    }
    char *argv[] = {"kcheck", NULL}, *envp[] = {NULL};
    size_t len;
    char *msg = kc_server_encode(KC_SERVER_STATUS, 0, 1, argv, envp, &len);
    int fd = connect_unix(sock);
    assert_true(fd >= 0);
    assert_true(send_framed(fd, msg, len));
    free(msg);
    char answer[512] = "";
    ssize_t r = read(fd, answer, sizeof answer - 1);
    close(fd);
    assert_true(r > 0);
    assert_non_null(strstr(answer, "0 checks served"));

    /* A stop, with another client already waiting behind it: the waiting
     * one is still answered before the server exits. */
    fd = connect_unix(sock);
    assert_true(fd >= 0);
    int waiting = connect_unix(sock);
    assert_true(waiting >= 0);
    char *status_msg = kc_server_encode(KC_SERVER_STATUS, 0, 1, argv, envp, &len);
    size_t status_len = len;
    msg = kc_server_encode(KC_SERVER_STOP, 0, 1, argv, envp, &len);
    assert_true(send_framed(fd, msg, len));
    free(msg);
    assert_true(send_framed(waiting, status_msg, status_len));
    free(status_msg);
    while (read(fd, answer, sizeof answer) > 0) {
    }
    close(fd);
    memset(answer, 0, sizeof answer);
    r = read(waiting, answer, sizeof answer - 1);
    close(waiting);
    assert_true(r > 0);
    assert_non_null(strstr(answer, "checks served"));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    fclose(in);
    unsetenv("KCHECK_SERVER_DIR");
    unsetenv("KCHECK_SERVER_IDLE");
    free(dir);
    assert_int_equal(kh_tmpdir_remove(tmp), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_server_flag_in_process),
        cmocka_unit_test(test_server_command),
        cmocka_unit_test(test_bad_requests_keep_the_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
