/* Verify's safety without a GPU (issue 8, docs/robustness.md): time limits
 * that kill the driver's whole process group, GPU faults, out-of-memory
 * and compile errors turned into verdicts (through a fake driver and
 * recorded results documents), temporary directories always removed, the
 * user's files never written, and bundles whose run.sh does not run what a
 * file name says. The fake drivers are shell scripts given as --python. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kc_base.h"
#include "kc_cli.h"
#include "kc_fingerprint.h"
#include "kc_hash.h"
#include "cli_harness.h"

#define REF KC_SOURCE_DIR "/tests/verify/reference"

static char tmpdir[256];   /* the test's files */
static char privtmp[300];  /* TMPDIR of every verify run: must end empty */
static char userdir[300];  /* the user's kernels: must never change */

/* kcheck verify ARGS... (NULL-terminated), in process. */
static kh_result verify(const char *first, ...)
{
    char *argv[40] = {"kcheck", "verify", "--no-cache", "--no-source", "--color=never", "--reference-dir", REF};
    va_list ap;
    va_start(ap, first);
    int argc = kh_args_va(argv, 7, 40, first, ap);
    va_end(ap);
    return kh_runv(argc, argv);
}

/* TEXT to PATH, then MODE on it. */
static void write_file(const char *path, const char *text, mode_t mode)
{
    kh_write(path, text);
    chmod(path, mode);
}

/* A fake interpreter: a shell script that kcheck runs as
 * `SCRIPT DRIVER PLAN RESULTS [--build-only]`. */
static char *fake_python(const char *name, const char *body)
{
    char *p = kc_xasprintf("%s/%s", tmpdir, name);
    char *text = kc_xasprintf("#!/bin/sh\n%s\n", body);
    write_file(p, text, 0755);
    free(text);
    return p;
}

/* name, size, mtime and content hash of every entry of the user's directory */
static char *snapshot(const char *dir)
{
    kc_strbuf sb = {0};
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    KC_VEC(char *) names = {0};
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, "..") != 0) /* the parent is the test's, not the user's */
            kc_vec_push(&names, kc_xstrdup(e->d_name));
    closedir(d);
    for (uint32_t i = 0; i < names.len; i++)
        for (uint32_t k = i + 1; k < names.len; k++)
            if (strcmp(names.data[k], names.data[i]) < 0) {
                char *t = names.data[i];
                names.data[i] = names.data[k];
                names.data[k] = t;
            }
    for (uint32_t i = 0; i < names.len; i++) {
        char *p = kc_xasprintf("%s/%s", dir, names.data[i]);
        struct stat st;
        assert_int_equal(lstat(p, &st), 0);
        uint64_t h = 0;
        if (S_ISREG(st.st_mode)) {
            FILE *f = fopen(p, "rb");
            char buf[1 << 16];
            size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
            if (f)
                fclose(f);
            h = kc_hash_bytes(buf, n);
        }
        kc_sb_appendf(&sb, "%s %lld %lld.%09ld %llx\n", names.data[i], (long long)st.st_size,
                      (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)h);
        free(p);
        free(names.data[i]);
    }
    kc_vec_free(&names);
    return kc_sb_take(&sb);
}

static void expect_empty_tmp(void)
{
    DIR *d = opendir(privtmp);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        print_error("left behind in TMPDIR: %s\n", e->d_name);
        fail();
    }
    closedir(d);
}

/* A Triton kernel bound to scale_rows with a KC202 finding (compile error
 * experiment), KC101 findings (timing) and its outputs check. */
static const char user_py[] = "import triton\nimport triton.language as tl\n\n\n"
                              "# kcheck: verify op=scale_rows call=\"run(x, out)\"\n"
                              "@triton.jit\n"
                              "def k(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):\n"
                              "    col = tl.program_id(0)\n"
                              "    rows = tl.arange(0, BLOCK)\n"
                              "    for start in tl.static_range(0, M, BLOCK):\n"
                              "        r = start + rows\n"
                              "        v = tl.load(x_ptr + r * N + col, mask=r < M)\n"
                              "        tl.store(out_ptr + r * N + col, 2 * v, mask=r < M)\n"
                              "\n\ndef run(x, out):\n"
                              "    M, N = x.shape\n"
                              "    k[(N,)](x, out, M, N, BLOCK=128)\n";

static char *user_file;
static char *user_snapshot;

static int setup(void **state)
{
    assert_non_null(kh_tmpdir_make(tmpdir, sizeof tmpdir, "vsafety"));
    snprintf(privtmp, sizeof privtmp, "%s/tmp", tmpdir);
    snprintf(userdir, sizeof userdir, "%s/user", tmpdir);
    mkdir(privtmp, 0700);
    mkdir(userdir, 0755);
    setenv("TMPDIR", privtmp, 1);
    user_file = kc_xasprintf("%s/scale.py", userdir);
    write_file(user_file, user_py, 0644);
    user_snapshot = snapshot(userdir);
    return 0;
}

static int teardown(void **state)
{
    /* The user's directory is exactly as it was after everything. */
    char *now = snapshot(userdir);
    assert_string_equal(now, user_snapshot);
    free(now);
    free(user_snapshot);
    free(user_file);
    unsetenv("TMPDIR");
    assert_int_equal(kh_tmpdir_remove(tmpdir), 0);
    return 0;
}

static bool process_gone(pid_t pid)
{
    if (kill(pid, 0) != 0)
        return errno == ESRCH;
    /* A zombie waiting for init to reap it is gone too. */
    char *p = kc_xasprintf("/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    free(p);
    if (!f)
        return true;
    char buf[512] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *rp = strrchr(buf, ')');
    return rp && rp[1] == ' ' && rp[2] == 'Z';
}

/* Waits up to `seconds` for pid to be gone; whether it is. */
static bool gone_within(pid_t pid, double seconds)
{
    double t0 = kh_now_s();
    while (!process_gone(pid) && kh_now_s() - t0 < seconds) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return process_gone(pid);
}

static pid_t read_pid(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int pid = 0;
    if (fscanf(f, "%d", &pid) != 1)
        pid = 0;
    fclose(f);
    return (pid_t)pid;
}

static void test_time_limit_kills_the_group(void **state)
{
    alarm(120);
    char *pidfile = kc_xasprintf("%s/child.pid", tmpdir);
    setenv("KC_TEST_PIDFILE", pidfile, 1);
    /* The "driver" starts a child that would outlive it, ignores SIGTERM and
     * hangs: only SIGKILL to the whole group ends them both. */
    char *py = fake_python("hang.sh", "sleep 300 &\necho $! > \"$KC_TEST_PIDFILE\"\ntrap '' TERM\nsleep 300\n");
    kh_result r = verify("--python", py, "--timeout", "0.5", user_file, NULL);
    /* The plan's limit is 4 x --timeout = 2 s; SIGTERM, then SIGKILL 3 s later. */
    print_message("a hung driver and its child were killed after %.1f s\n", r.seconds);
    assert_true(r.seconds >= 1.9);
    assert_true(r.seconds < 15);
    kh_expect_in(r.out, "inconclusive: timed out after 2 s (the process group was killed)");
    pid_t child = read_pid(pidfile);
    assert_true(child > 0);
    assert_true(gone_within(child, 5));
    kh_result_free(&r);
    expect_empty_tmp();

    /* A driver that exits on SIGTERM: ended at the limit, no 3 s grace. */
    char *py2 = fake_python("hang2.sh", "sleep 300 &\necho $! > \"$KC_TEST_PIDFILE\"\nsleep 300\n");
    r = verify("--python", py2, "--timeout", "0.5", user_file, NULL);
    assert_true(r.seconds < 10);
    kh_expect_in(r.out, "timed out after 2 s (the process group was killed)");
    child = read_pid(pidfile);
    assert_true(gone_within(child, 5));
    kh_result_free(&r);
    expect_empty_tmp();
    unsetenv("KC_TEST_PIDFILE");
    free(py);
    free(py2);
    free(pidfile);
    alarm(0);
}

static void test_driver_failures_become_verdicts(void **state)
{
    alarm(120);
    /* Killed by a signal (a segfault in a CUDA extension), no results. */
    char *py = fake_python("segv.sh", "kill -SEGV $$");
    kh_result r = verify("--python", py, user_file, NULL);
    kh_expect_in(r.out, "inconclusive: the driver was killed by signal 11");
    kh_result_free(&r);
    free(py);
    expect_empty_tmp();
    /* Exits with an error and writes nothing. */
    py = fake_python("exit3.sh", "echo 'Traceback: ImportError: torch' >&2\nexit 3");
    r = verify("--python", py, user_file, NULL);
    kh_expect_in(r.out, "inconclusive: the driver wrote no results (exit status 3; log ");
    kh_result_free(&r);
    free(py);
    expect_empty_tmp();
    /* Writes half a document (killed while writing). */
    py = fake_python("half.sh", "printf '{\"env\": {\"gpu\": \"NVIDIA H200\"}, \"experiments\": [{\"id\": 0' > \"$3\"");
    r = verify("--python", py, user_file, NULL);
    kh_expect_in(r.out, "inconclusive: the driver wrote no results (exit status 0; log ");
    kh_result_free(&r);
    free(py);
    expect_empty_tmp();
    /* Not there at all. */
    r = verify("--python", "/nonexistent/python3", user_file, NULL);
    kh_expect_in(r.out, "inconclusive: `/nonexistent/python3` not found: verify runs its experiments through python3");
    kh_result_free(&r);
    expect_empty_tmp();
    alarm(0);
}

/* A driver that leaves a process outside its group (setsid) and exits: the
 * process is killed when the run ends (kcheck is the reaper of what its
 * runs orphan). A driver whose output floods: stopped at the output limit
 * (KCHECK_VERIFY_MAX_OUTPUT_MB), well before its time limit. */
static void test_escaped_and_flooding_drivers(void **state)
{
    (void)state;
    alarm(120);
    char *pidfile = kc_xasprintf("%s/escaped.pid", tmpdir);
    setenv("KC_TEST_PIDFILE", pidfile, 1);
    /* the escaped process writes its own pid (`$!` may name a shell that
     * forked it and is already a zombie) */
    char *py = fake_python("escape.sh", "setsid sh -c 'echo $$ > \"$KC_TEST_PIDFILE\"; exec sleep 300' &\n"
                                        "while [ ! -s \"$KC_TEST_PIDFILE\" ]; do sleep 0.01; done\nexit 0\n");
    kh_result r = verify("--python", py, user_file, NULL);
    kh_expect_in(r.out, "inconclusive: the driver wrote no results (exit status 0; log ");
    pid_t escaped = read_pid(pidfile);
    assert_true(escaped > 0);
    bool was_gone = gone_within(escaped, 5);
    if (!was_gone)
        kill(escaped, SIGKILL); /* not left running when the test fails */
    assert_true(was_gone);
    kh_result_free(&r);
    free(py);
    expect_empty_tmp();
    unsetenv("KC_TEST_PIDFILE");
    free(pidfile);

    setenv("KCHECK_VERIFY_MAX_OUTPUT_MB", "1", 1);
    py = fake_python("flood.sh", "yes 'a driver that floods its log'");
    r = verify("--python", py, "--timeout", "5", user_file, NULL);
    print_message("a flooding driver was stopped after %.1f s\n", r.seconds);
    kh_expect_in(r.out, "inconclusive: the driver wrote a file past the output limit (KCHECK_VERIFY_MAX_OUTPUT_MB)");
    assert_true(r.seconds < 15); /* the time limit is 4 x 5 s per plan */
    kh_result_free(&r);
    free(py);
    expect_empty_tmp();
    unsetenv("KCHECK_VERIFY_MAX_OUTPUT_MB");
    alarm(0);
}

/* A driver that writes into the user's directory: said on stderr, with the
 * entry's name (the test then puts the directory back as it was). */
static void test_driver_writing_the_users_tree(void **state)
{
    (void)state;
    alarm(60);
    struct stat before;
    assert_int_equal(stat(userdir, &before), 0);
    setenv("KC_TEST_USERDIR", userdir, 1);
    char *py = fake_python("litter.sh", "echo x > \"$KC_TEST_USERDIR/written-by-driver\"\nexit 0\n");
    kh_result r = verify("--python", py, user_file, NULL);
    kh_expect_in(r.err, "kcheck verify: warning: the experiments created `written-by-driver` in ");
    char *p = kc_xasprintf("%s/written-by-driver", userdir);
    assert_int_equal(unlink(p), 0);
    struct timespec times[2] = {before.st_atim, before.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, userdir, times, 0), 0);
    free(p);
    kh_result_free(&r);
    /* a write into a subdirectory is seen too, and only it is reported */
    char *sub = kc_xasprintf("%s/pkg", userdir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(stat(userdir, &before), 0);
    char *deep = fake_python("deep.sh", "echo x > \"$KC_TEST_USERDIR/pkg/cache.bin\"\nexit 0\n");
    r = verify("--python", deep, user_file, NULL);
    kh_expect_in(r.err, "kcheck verify: warning: the experiments created `pkg/cache.bin` in ");
    assert_null(strstr(r.err, "changed `pkg`"));
    p = kc_xasprintf("%s/cache.bin", sub);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(utimensat(AT_FDCWD, userdir, times, 0), 0);
    free(p);
    free(sub);
    free(deep);
    kh_result_free(&r);
    /* a driver that writes nothing there: no warning */
    char *quiet = fake_python("quiet.sh", "exit 0\n");
    r = verify("--python", quiet, user_file, NULL);
    assert_null(strstr(r.err, "the experiments created"));
    kh_result_free(&r);
    unsetenv("KC_TEST_USERDIR");
    free(py);
    free(quiet);
    expect_empty_tmp();
    alarm(0);
}

/* What the driver writes when the GPU faults, runs out of memory or the
 * kernel does not compile: each becomes a verdict that says so. */
static const char faults_doc[] =
    "{\"env\": {\"gpu\": \"NVIDIA H200\", \"driver\": \"580.159.04\", \"triton\": \"3.6.0\", \"cuda\": \"13.0\"},\n"
    " \"experiments\": [\n"
    "  {\"id\": 0, \"kind\": \"compile_error\", \"variant\": \"original\", \"raised\": true,\n"
    "   \"error_type\": \"CompilationError\", \"error\": \"static_range bounds must be constexpr\"},\n"
    "  {\"id\": 1, \"kind\": \"timing\", \"variant\": \"original\",\n"
    "   \"error\": \"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 GiB\"},\n"
    "  {\"id\": 2, \"kind\": \"correctness\", \"variant\": \"original\",\n"
    "   \"error\": \"RuntimeError: CUDA error: an illegal memory access was encountered\"}\n"
    " ],\n"
    " \"running\": {\"id\": 3, \"kind\": \"timing\", \"variant\": \"fixed\"}}\n";

static void test_gpu_faults_oom_compile_errors(void **state)
{
    alarm(120);
    /* Through a fake driver that writes the document... */
    char *doc = kc_xasprintf("%s/faults.json", tmpdir);
    write_file(doc, faults_doc, 0644);
    char *body = kc_xasprintf("cp '%s' \"$3\"", doc);
    char *py = fake_python("faults.sh", body);
    kh_result r = verify("--python", py, user_file, NULL);
    const char *compile =
        "= verify: confirmed: the kernel does not compile: CompilationError: static_range bounds must be constexpr";
    const char *oom = "inconclusive: the timing run failed: torch.OutOfMemoryError: CUDA out of memory";
    const char *fault = "inconclusive: the call failed: RuntimeError: CUDA error: an illegal memory access was "
                        "encountered";
    kh_expect_in(r.out, compile);
    kh_expect_in(r.out, oom);
    kh_expect_in(r.out, fault);
    kh_result_free(&r);
    expect_empty_tmp();
    /* ... and replayed with --results, as CI does with recorded runs. */
    char *results = kc_xasprintf("%s/results", tmpdir);
    mkdir(results, 0755);
    char *rp = kc_xasprintf("%s/scale.py-L5.json", results);
    write_file(rp, faults_doc, 0644);
    r = verify("--results", results, user_file, NULL);
    kh_expect_in(r.out, compile);
    kh_expect_in(r.out, oom);
    kh_expect_in(r.out, fault);
    kh_result_free(&r);
    /* A document killed before its first experiment finished. */
    write_file(rp, "{\"env\": {}, \"experiments\": [], \"running\": {\"id\": 0, \"kind\": \"compile_error\", "
                   "\"variant\": \"original\"}}", 0644);
    r = verify("--results", results, user_file, NULL);
    kh_expect_in(r.out, "inconclusive: the run was killed during the compile_error experiment (original copy): time "
                        "limit or GPU fault");
    kh_result_free(&r);
    /* Not JSON at all. */
    write_file(rp, "\x01garbage", 0644);
    r = verify("--results", results, user_file, NULL);
    kh_expect_in(r.out, "inconclusive: no recorded results at ");
    kh_result_free(&r);
    expect_empty_tmp();
    free(rp);
    free(results);
    free(py);
    free(body);
    free(doc);
    alarm(0);
}

static void test_no_run_and_keep(void **state)
{
    alarm(300);
    /* The real driver with the real python3, plan and build only: its
     * py_compile goes to the work directory, not next to the user's file. */
    if (access("/usr/bin/python3", X_OK) == 0) {
        kh_result r = verify("--no-run", user_file, NULL);
        kh_expect_in(r.out, "not run (--no-run): plan written and its Python compiled");
        kh_result_free(&r);
        expect_empty_tmp();
    } else {
        print_message("skipped the --no-run run: no python3\n");
    }
    /* --keep keeps the work directory and says where. */
    char *py = fake_python("ok.sh", "exit 0");
    kh_result r = verify("--keep", "--python", py, user_file, NULL);
    kh_expect_in(r.err, "kcheck verify: kept ");
    kh_expect_in(r.err, privtmp);
    kh_result_free(&r);
    char *cmd = kc_xasprintf("rm -rf '%s'/kcheck-verify-*", privtmp);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    expect_empty_tmp();
    free(py);
    alarm(0);
}

static void test_bundle_quotes_file_names(void **state)
{
    alarm(120);
    /* A user file whose name would run a command if run.sh interpolated it. */
    char *odd_dir = kc_xasprintf("%s/odd", tmpdir);
    mkdir(odd_dir, 0755);
    char *odd = kc_xasprintf("%s/x';touch PWNED;'$(touch PWNED2).py", odd_dir);
    write_file(odd, user_py, 0644);
    char *bundle = kc_xasprintf("%s/bundle", tmpdir);
    kh_result r = verify("--export", bundle, odd, NULL);
    kh_expect_in(r.out, "inconclusive: exported to ");
    kh_result_free(&r);
    /* run.sh is valid sh, and running it (with a python3 that does
     * nothing) creates no file but its results directory. */
    char *fakebin = kc_xasprintf("%s/fakebin", tmpdir);
    mkdir(fakebin, 0755);
    char *fake = kc_xasprintf("%s/python3", fakebin);
    write_file(fake, "#!/bin/sh\nexit 0\n", 0755);
    char *cmd = kc_xasprintf("cd '%s' && sh -n run.sh && PATH='%s':\"$PATH\" sh run.sh out 2>/dev/null", bundle, fakebin);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    const char *never[] = {"PWNED", "PWNED2"};
    for (int i = 0; i < 2; i++) {
        char *a = kc_xasprintf("%s/%s", bundle, never[i]), *b = kc_xasprintf("%s/%s", odd_dir, never[i]);
        assert_int_equal(access(a, F_OK), -1);
        assert_int_equal(access(b, F_OK), -1);
        assert_int_equal(access(never[i], F_OK), -1);
        free(a);
        free(b);
    }
    /* A relative RESULTS_DIR is taken from the caller's directory, not the
     * bundle's: `sh bundle/run.sh res` from the parent fills ./res. */
    cmd = kc_xasprintf("cd '%s' && PATH='%s':\"$PATH\" sh bundle/run.sh res 2>/dev/null", tmpdir, fakebin);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    char *res = kc_xasprintf("%s/res", tmpdir), *wrong = kc_xasprintf("%s/res", bundle);
    assert_int_equal(access(res, F_OK), 0);
    assert_int_equal(access(wrong, F_OK), -1);
    cmd = kc_xasprintf("rm -rf '%s'", res);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(res);
    free(wrong);
    /* The bundle's temporary directory (Triton's cache) went away. */
    expect_empty_tmp();
    cmd = kc_xasprintf("grep -c \"^run plan_1.json 'x'\\\\\\\\''\" '%s/run.sh' >/dev/null", bundle);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(fake);
    free(fakebin);
    free(bundle);
    free(odd);
    free(odd_dir);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_limit_kills_the_group),
        cmocka_unit_test(test_driver_failures_become_verdicts),
        cmocka_unit_test(test_escaped_and_flooding_drivers),
        cmocka_unit_test(test_driver_writing_the_users_tree),
        cmocka_unit_test(test_gpu_faults_oom_compile_errors),
        cmocka_unit_test(test_no_run_and_keep),
        cmocka_unit_test(test_bundle_quotes_file_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
