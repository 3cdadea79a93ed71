/* Verify mode without a GPU: bindings, plans, harness builds, verdicts from
 * recorded results. The one test that needs a GPU skips without one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kc_cli.h"
#include "cli_harness.h"
#include "verify_internal.h"

#define CASES KC_SOURCE_DIR "/tests/verify/cases"
#define REF KC_SOURCE_DIR "/tests/verify/reference"
#define RESULTS KC_SOURCE_DIR "/tests/verify/results"

/* Runs `kcheck verify ARGS...` (NULL-terminated) in process; returns stdout. */
static char *run_cli(int *status, ...)
{
    va_list ap;
    va_start(ap, status);
    kh_result r = kh_run_with(NULL, "verify", ap); /* "verify" first, then ARGS */
    va_end(ap);
    return kh_result_take_out(&r, status);
}

static void test_bindings(void **state)
{
    const char *text = "# kcheck: verify op=a call=\"f(x, \\\"y\\\")\" sizes=\"M=3,N=4\"\n"
                       "def k(): pass\n"
                       "// kcheck: verify op=b\n"
                       "# kcheck: verify op=c call=g() colour=red\n"
                       "# kcheck: verify op=d call=h() kernel=other outputs=y\n"
                       "# kcheck: verify op=e call=\"unterminated\n";
    char *err = NULL;
    kc_source *src = kc_source_from_memory("t.py", text, strlen(text), 1 << 20, &err);
    kc_binding_list l = {0};
    kc_bindings_parse(src, &l);
    assert_int_equal(l.items.len, 2);
    assert_string_equal(l.items.data[0].op, "a");
    assert_string_equal(l.items.data[0].call, "f(x, \"y\")");
    assert_string_equal(l.items.data[0].sizes, "M=3,N=4");
    assert_int_equal(l.items.data[0].line, 1);
    assert_string_equal(l.items.data[1].kernel, "other");
    assert_string_equal(l.items.data[1].outputs, "y");
    assert_int_equal(l.errors.items.len, 3); /* no call=, unknown key, unterminated quote */
    assert_int_equal(l.errors.items.data[0].line, 3);
    assert_non_null(strstr(l.errors.items.data[1].message, "unknown key 'colour'"));
    /* which kernel a binding applies to */
    kc_file_result r;
    memset(&r, 0, sizeof r);
    kc_kernel_ref k1 = {kc_xstrdup("k"), 2, 2, KC_LANG_TRITON}, k2 = {kc_xstrdup("other"), 9, 9, KC_LANG_TRITON},
                  k3 = {kc_xstrdup("third"), 12, 12, KC_LANG_TRITON};
    kc_vec_push(&r.kernels, k1);
    kc_vec_push(&r.kernels, k2);
    kc_vec_push(&r.kernels, k3);
    assert_ptr_equal(kc_binding_for(&l, &r, "k"), &l.items.data[0]);
    assert_ptr_equal(kc_binding_for(&l, &r, "other"), &l.items.data[1]);
    assert_null(kc_binding_for(&l, &r, "third"));
    kc_file_result_free(&r);
    kc_bindings_free(&l);
    kc_source_delete(src);
}

static void test_no_run_plans_and_checks_the_driver(void **state)
{
    int st;
    char *out = run_cli(&st, "--no-run", "--no-source", "--color=never", "--reference-dir", REF, CASES "/strided_scale.py",
                        CASES "/unbound.py", NULL);
    assert_int_equal(st, 1);
    assert_non_null(strstr(out, "= verify: inconclusive: not run (--no-run): plan written and its Python compiled"));
    assert_non_null(strstr(out, "= verify: inconclusive: no `kcheck: verify op=... call=...` binding for kernel `k`"));
    free(out);
}

static void test_cuda_no_run_builds_the_harness(void **state)
{
    if (access("/usr/local/cuda/bin/nvcc", X_OK) != 0) {
        print_message("skipped the CUDA build: nvcc not found\n");
        skip();
    }
    int st;
    /* N is a record length as far as the file shows (only the loop over
     * a row is bounded by it): the finding is a note */
    char *out = run_cli(&st, "--no-run", "--no-source", "--color=never", "--severity=note", "--reference-dir", REF,
                        CASES "/scale_rows_user.cu", NULL);
    assert_int_equal(st, 0); /* a note does not fail the run */
    /* the binding next to the launcher covers the kernel above it */
    assert_non_null(strstr(out, "uncoalesced store to `out`"));
    assert_non_null(strstr(out, "= verify: inconclusive: not run (--no-run): harness built"));
    assert_null(strstr(out, "no `kcheck: verify"));
    free(out);
}

static void test_bound_kernel_without_findings_is_checked(void **state)
{
    int st;
    char *out = run_cli(&st, "--no-run", "--no-source", "--color=never",
                        KC_SOURCE_DIR "/tests/fixtures/tutorials/ok_fused_softmax.py", NULL);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "ok_fused_softmax.py:7:1: note: verify op=softmax_rows: inconclusive: not run "
                                "(--no-run): plan written and its Python compiled"));
    free(out);
}

static void test_recorded_results_become_verdicts(void **state)
{
    int st;
    char *out = run_cli(&st, "--results", RESULTS, "--no-source", "--color=never", "--reference-dir", REF,
                        CASES "/strided_scale.py", NULL);
    assert_int_equal(st, 1);
    assert_non_null(strstr(out, "= verify: confirmed: 26.6x slower than the reference (0.412 ms vs 0.0155 ms, 81 GB/s at "
                                "M=1024, N=4096) (NVIDIA H200, driver 580.159.04, Triton 3.6.0, CUDA 13.0)"));
    free(out);
    /* a results directory without the file: inconclusive, not a crash */
    out = run_cli(&st, "--results", "/nonexistent", "--no-source", "--reference-dir", REF, CASES "/strided_scale.py",
                  NULL);
    assert_non_null(strstr(out, "inconclusive: no recorded results"));
    free(out);
}

/* CASES/<from> with its binding's call replaced, as <dir>/<to>; returns the path. */
static char *misspell_call(const char *dir, const char *from, const char *to, const char *call, const char *wrong)
{
    char *in = kc_xasprintf("%s/%s", CASES, from);
    char *text = NULL;
    size_t len = 0;
    assert_true(kc_read_all(in, &text, &len));
    const char *at = strstr(text, call);
    assert_non_null(at);
    size_t before = (size_t)(at - text);
    char *out_text = kc_xasprintf("%.*s%s%s", (int)before, text, wrong, text + before + strlen(call));
    char *out = kc_xasprintf("%s/%s", dir, to);
    assert_true(kc_write_file(out, out_text, strlen(out_text)));
    free(in);
    free(text);
    free(out_text);
    return out;
}

/* A call= that does not compile (CUDA: nvcc's error at the binding's
 * `#line`) or that fails in itself (Triton: NameError in the expression) is
 * the binding's mistake: an input error at its line, exit status 2; the
 * findings stay inconclusive. Results recorded on an H200 for the two
 * cases with the binding's call misspelled. */
static void test_binding_call_errors(void **state)
{
    char dir[] = "/tmp/kcheck-misspelled-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *cu = misspell_call(dir, "scale_rows_user.cu", "misspelled_call.cu", "call=\"launch_scale(",
                             "call=\"launch_scael(");
    char *py = misspell_call(dir, "strided_scale.py", "misspelled_call.py", "call=\"run(x, out)\"",
                             "call=\"run(x, outt)\"");
    int st;
    char *out = run_cli(&st, "--results", RESULTS, "--no-source", "--color=never", "--reference-dir", REF, cu, py,
                        NULL);
    assert_int_equal(st, 2);
    char *want_cu = kc_xasprintf("%s:15:1: error: verify binding (op=scale_rows): call= does not compile: "
                                 "identifier \"launch_scael\" is undefined",
                                 cu);
    char *want_py = kc_xasprintf("%s:6:1: error: verify binding (op=scale_rows): call= failed: NameError: name "
                                 "'outt' is not defined",
                                 py);
    assert_non_null(strstr(out, want_cu));
    assert_non_null(strstr(out, want_py));
    free(want_cu);
    free(want_py);
    free(out);
    free(cu);
    free(py);
    kc_rmtree(dir);
}

static void test_export_bundle(void **state)
{
    char dir[] = "/tmp/kcheck-export-XXXXXX";
    assert_non_null(mkdtemp(dir));
    int st;
    char *out = run_cli(&st, "--export", dir, "--no-source", "--reference-dir", REF, CASES "/strided_scale.py", NULL);
    assert_non_null(strstr(out, "= verify: inconclusive: exported to "));
    free(out);
    char *p = kc_xasprintf("%s/run.sh", dir);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    free(p);
    assert_non_null(strstr(buf, "run plan_1.json 'strided_scale.py-L6.json'"));
    const char *need[] = {"kcheck_verify_driver.py", "plan_1.json", "reference/ops/scale_rows.json",
                          "reference/triton/scale_rows.py", "src/2_strided_scale.py"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        char *q = kc_xasprintf("%s/%s", dir, need[i]);
        assert_int_equal(access(q, R_OK), 0);
        free(q);
    }
    /* the plan's paths are relative to the bundle */
    char *plan = kc_xasprintf("%s/plan_1.json", dir);
    json_t *doc = json_load_file(plan, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "module")), "src/2_strided_scale.py");
    assert_string_equal(json_string_value(json_object_get(doc, "spec")), "reference/ops/scale_rows.json");
    assert_string_equal(json_string_value(json_object_get(doc, "call")), "run(x, out)");
    json_decref(doc);
    free(plan);
    kc_rmtree(dir);
}

/* A stand-in for the driver, in Python: --batch writes the recorded
 * document for each plan listed; KC_FAKE_MODE changes how it behaves. Every
 * invocation appends its first argument to KC_FAKE_LOG. */
static const char fake_driver_py[] =
    "import json, os, sys\n"
    "mode = os.environ.get('KC_FAKE_MODE', 'ok')\n"
    "with open(os.environ['KC_FAKE_LOG'], 'a') as f:\n"
    "    f.write(sys.argv[2] + '\\n')\n"
    "doc = json.load(open(os.environ['KC_FAKE_DOC']))\n"
    "def write(path, d):\n"
    "    with open(path, 'w') as f:\n"
    "        json.dump(d, f)\n"
    "if sys.argv[2] != '--batch':\n"
    "    write(sys.argv[3], doc)\n"
    "    sys.exit(0)\n"
    "if mode == 'old':\n"
    "    sys.exit(2)  # a driver without --batch\n"
    "for it in json.load(open(sys.argv[3]))['plans']:\n"
    "    path = os.path.join(sys.argv[4], it['results'])\n"
    "    if os.path.exists(path):\n"
    "        continue\n"
    "    if mode == 'killed' and not os.path.exists(os.environ['KC_FAKE_LOG'] + '.killed'):\n"
    "        open(os.environ['KC_FAKE_LOG'] + '.killed', 'w').close()\n"
    "        d = {'env': doc['env'], 'experiments': [], 'fatal': None, 'killed': \"the plan's time limit of 4 s\",\n"
    "             'running': {'id': 0, 'kind': 'timing', 'variant': 'original'}}\n"
    "        write(path, d)\n"
    "        sys.exit(124)\n"
    "    write(path, doc)\n"
    "    if mode == 'spoiled':\n"
    "        sys.exit(3)\n";

static size_t count_lines(const char *path, const char *what)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    size_t n = 0;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, what, strlen(what)) == 0 && line[strlen(what)] == '\n';
    fclose(f);
    return n;
}

static void test_plans_run_in_one_batch(void **state)
{
    if (access("/usr/bin/python3", X_OK) != 0) {
        print_message("skipped: no python3\n");
        skip();
    }
    char dir[] = "/tmp/kcheck-batch-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *files[3];
    char *src = NULL;
    size_t len = 0;
    FILE *in = fopen(CASES "/strided_scale.py", "r");
    assert_non_null(in);
    src = kc_xcalloc(1 << 16, 1);
    len = fread(src, 1, (1 << 16) - 1, in);
    fclose(in);
    for (int i = 0; i < 3; i++) {
        files[i] = kc_xasprintf("%s/case%d.py", dir, i);
        assert_int_equal(kc_write_file(files[i], src, len), true);
    }
    char *drv = kc_xasprintf("%s/fake_driver.py", dir), *py = kc_xasprintf("%s/python", dir);
    char *log = kc_xasprintf("%s/log", dir);
    assert_int_equal(kc_write_file(drv, fake_driver_py, strlen(fake_driver_py)), true);
    char *wrapper = kc_xasprintf("#!/bin/sh\nexec python3 '%s' \"$@\"\n", drv);
    assert_int_equal(kc_write_file(py, wrapper, strlen(wrapper)), true);
    chmod(py, 0755);
    setenv("KC_FAKE_LOG", log, 1);
    setenv("KC_FAKE_DOC", RESULTS "/strided_scale.py-L6.json", 1);
    const char *confirmed = "= verify: confirmed: 26.6x slower than the reference";
    /* mode, batch processes, plans run alone, findings confirmed (two per file) */
    struct {
        const char *mode;
        size_t batches, alone, confirmed;
    } cases[] = {
        {"ok", 1, 0, 6},      /* every plan in one process */
        {"spoiled", 3, 0, 6}, /* a fresh process after each plan */
        {"old", 1, 3, 6},     /* no progress: each plan alone */
        {"killed", 2, 0, 4},  /* the first plan killed at its limit, the others in the next round */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unlink(log);
        setenv("KC_FAKE_MODE", cases[c].mode, 1);
        int st;
        char *out = run_cli(&st, "--no-cache", "--python", py, "--no-source", "--color=never", "--reference-dir", REF,
                            files[0], files[1], files[2], NULL);
        size_t batches = count_lines(log, "--batch"), confirmations = 0;
        size_t alone = 0;
        FILE *f = fopen(log, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f))
            alone += strncmp(line, "--batch", 7) != 0;
        if (f)
            fclose(f);
        for (const char *p = out; (p = strstr(p, confirmed)) != NULL; p++)
            confirmations++;
        if (batches != cases[c].batches || alone != cases[c].alone || confirmations != cases[c].confirmed)
            print_error("mode %s: %zu batches, %zu alone, %zu confirmed:\n%s\n", cases[c].mode, batches, alone,
                        confirmations, out);
        assert_int_equal(batches, cases[c].batches);
        assert_int_equal(alone, cases[c].alone);
        assert_int_equal(confirmations, cases[c].confirmed);
        if (strcmp(cases[c].mode, "killed") == 0)
            assert_non_null(strstr(out, "inconclusive: the run was killed during the timing experiment (original "
                                        "copy): the plan's time limit of 4 s"));
        free(out);
    }
    unsetenv("KC_FAKE_MODE");
    unsetenv("KC_FAKE_LOG");
    unsetenv("KC_FAKE_DOC");
    for (int i = 0; i < 3; i++)
        free(files[i]);
    free(src);
    free(drv);
    free(py);
    free(log);
    free(wrapper);
    kc_rmtree(dir);
}

static void test_unknown_op(void **state)
{
    int st;
    char *out = run_cli(&st, "--no-run", "--no-source", "--reference-dir", "/nonexistent-ref", CASES "/strided_scale.py",
                        NULL);
    assert_non_null(strstr(out, "inconclusive: unknown op `scale_rows`"));
    free(out);
}

static char *find_nvcc(void)
{
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        return kc_xstrdup("/usr/local/cuda/bin/nvcc");
    return NULL;
}

static void test_cuda_harness_compiles(void **state)
{
    char *err = NULL;
    kc_opspec *spec = kc_opspec_load(REF "/ops/scale_rows.json", &err);
    assert_non_null(spec);
    kc_binding b = {.line = 15, .op = "scale_rows", .call = "launch_scale(x, out, (int)M, (int)N)"};
    char dir[] = "/tmp/kcheck-harness-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *src = kc_xasprintf("%s/h.cu", dir), *bin = kc_xasprintf("%s/h", dir), *log = kc_xasprintf("%s/log", dir);
    assert_true(kc_cuda_harness_write(src, spec, &b, CASES "/scale_rows_user.cu", REF, &err));
    FILE *f = fopen(src, "r");
    assert_non_null(f);
    char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    assert_non_null(strstr(buf, "#define main kcheck_user_main"));
    assert_non_null(strstr(buf, "launch_scale(x, out, (int)M, (int)N);"));
    /* The call is compiled at the binding's line of KC_VERIFY_CALL_FILE,
     * and the harness's own numbering resumes right after it. */
    const char *at = strstr(buf, "#line 15 \"" KC_VERIFY_CALL_FILE "\"\n        launch_scale(");
    assert_non_null(at);
    const char *back = strstr(at, "\n#line ");
    assert_non_null(back);
    unsigned resume = (unsigned)strtoul(back + 7, NULL, 10);
    unsigned line_of_next = 1;
    const char *next = strchr(back + 1, '\n') + 1;
    for (const char *p = buf; p < next; p++)
        line_of_next += *p == '\n';
    assert_int_equal(resume, line_of_next);
    assert_non_null(strstr(back, "h.cu\"\n    };\n"));
    assert_non_null(strstr(buf, "kcref_scale_rows(kcv_ref_x, kcv_ref_out, M, N, (cudaStream_t)0);"));
    assert_non_null(strstr(buf, "const int64_t M = timing ? (int64_t)(int64_t)1024 : (int64_t)(int64_t)33;"));
    char *nvcc = find_nvcc();
    if (!nvcc) {
        print_message("skipped the nvcc build of the harness: nvcc not found\n");
    } else {
        char *argv[] = {nvcc, "-std=c++17", "-O1", "-arch=sm_75", "-o", bin, src, NULL};
        kc_proc_result pr;
        kc_run_process(argv, dir, log, log, NULL, 300, &pr);
        if (pr.exit_code != 0) {
            char cmd[512];
            snprintf(cmd, sizeof cmd, "cat %s", log);
            assert_int_equal(system(cmd), 0);
        }
        assert_true(pr.started);
        assert_int_equal(pr.exit_code, 0);
        assert_int_equal(access(bin, X_OK), 0);
        free(nvcc);
    }
    kc_rmtree(dir);
    free(src);
    free(bin);
    free(log);
    kc_opspec_delete(spec);
}

static void test_runner_time_limit(void **state)
{
    char *argv[] = {"sh", "-c", "sleep 30 & sleep 30", NULL};
    kc_proc_result pr;
    kc_run_process(argv, NULL, NULL, NULL, NULL, 0.3, &pr);
    assert_true(pr.started);
    assert_true(pr.timed_out);
    assert_true(pr.wall_s < 10);
    char *bad[] = {"/nonexistent/tool", NULL};
    kc_run_process(bad, NULL, NULL, NULL, NULL, 5, &pr);
    assert_false(pr.started);
}

static void test_on_gpu(void **state)
{
    if (access("/usr/bin/nvidia-smi", X_OK) != 0 && access("/usr/local/nvidia/bin/nvidia-smi", X_OK) != 0) {
        print_message("skipped: no GPU here (verify's GPU runs are recorded in docs/verify-results.md)\n");
        skip();
    }
    int st;
    char *out = run_cli(&st, "--no-source", "--reference-dir", REF, CASES "/strided_scale.py", NULL);
    assert_non_null(strstr(out, "= verify: "));
    assert_null(strstr(out, "inconclusive: the driver"));
    free(out);
}

/* compute-sanitizer's text log: reports with their device frames (a
 * Triton kernel names its .py line, CUDA with -lineinfo its .cu line;
 * racecheck's headline holds an access), host frames and summaries left
 * out. */
static void test_sanitizer_log(void **state)
{
    (void)state;
    static const char log[] =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at add_kernel+0x1c0 in /home/u/proj/ops.py:23\n"
        "=========     by thread (96,0,0) in block (976,0,0)\n"
        "=========     Address 0x7f3a00f42400 is out of bounds\n"
        "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
        "=========         Host Frame: cuLaunchKernel in /lib/x86_64-linux-gnu/libcuda.so.1:12\n"
        "=========\n"
        "========= Error: Race reported between Write access at void tile<(int)16>(float *, int)+0x90 in "
        "/src/t.cu:14\n"
        "=========     and Read access at void tile<(int)16>(float *, int)+0xc0 in /src/t.cu:17 [2048 hazards]\n"
        "=========\n"
        "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\"\n"
        "========= ERROR SUMMARY: 2 errors\n";
    kc_sanitizer_report_vec v = {0};
    kc_sanitizer_parse(log, sizeof log - 1, &v);
    assert_int_equal(v.len, 2);
    assert_string_equal(v.data[0].what, "Invalid __global__ read of size 4 bytes");
    assert_string_equal(v.data[0].who, "by thread (96,0,0) in block (976,0,0)");
    assert_int_equal(v.data[0].where.len, 1); /* not the host frame */
    assert_string_equal(v.data[0].where.data[0].file, "/home/u/proj/ops.py");
    assert_int_equal(v.data[0].where.data[0].line, 23);
    assert_string_equal(v.data[0].where.data[0].function, "add_kernel");
    assert_int_equal(v.data[1].where.len, 2); /* both accesses of the race */
    assert_int_equal(v.data[1].where.data[0].line, 14);
    assert_int_equal(v.data[1].where.data[1].line, 17);
    assert_string_equal(v.data[1].where.data[0].function, "void tile<(int)16>(float *, int)");
    kc_sanitizer_reports_free(&v);
    /* not a log: nothing, and no crash */
    kc_sanitizer_parse("garbage\n=========", 17, &v);
    assert_int_equal(v.len, 0);
    kc_sanitizer_reports_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bindings),
        cmocka_unit_test(test_no_run_plans_and_checks_the_driver),
        cmocka_unit_test(test_cuda_no_run_builds_the_harness),
        cmocka_unit_test(test_bound_kernel_without_findings_is_checked),
        cmocka_unit_test(test_recorded_results_become_verdicts),
        cmocka_unit_test(test_binding_call_errors),
        cmocka_unit_test(test_export_bundle),
        cmocka_unit_test(test_plans_run_in_one_batch),
        cmocka_unit_test(test_unknown_op),
        cmocka_unit_test(test_cuda_harness_compiles),
        cmocka_unit_test(test_runner_time_limit),
        cmocka_unit_test(test_on_gpu),
        cmocka_unit_test(test_sanitizer_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
