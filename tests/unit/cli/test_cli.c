/* The command line, in process: exit codes, formats, selection, bad input,
 * directory walks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kc_cli.h"
#include "kc_base.h"
#include "cli_harness.h"
#include "kc_rule.h"

static char tmpdir[256];

static char *tmp_path(const char *name) { return kc_xasprintf("%s/%s", tmpdir, name); }

static void write_file(const char *name, const char *data, size_t len) { kh_write_at(tmpdir, name, data, len); }

static const char bad_py[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, N, B: tl.constexpr):\n"
    "    for s in tl.static_range(0, N, B):\n"
    "        tl.store(x_ptr + s + tl.arange(0, B), 0, mask=s + tl.arange(0, B) < N)\n";
static const char clean_py[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, n, B: tl.constexpr):\n"
    "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
    "    tl.store(x_ptr + o, 0, mask=o < n)\n";

static int setup(void **state)
{
    assert_non_null(kh_tmpdir_make(tmpdir, sizeof tmpdir, "cli"));
    write_file("bad.py", bad_py, sizeof bad_py - 1);
    write_file("clean.py", clean_py, sizeof clean_py - 1);
    write_file("junk.py", "import triton\n\x00\x01\x02binary", 22);
    write_file("latin1.py", "# caf\xe9\nimport triton\n", 21);
    write_file("broken.py", "import triton\ndef (:\n", 21);
    write_file("notes.txt", "hello\n", 6);
    write_file("tree/a/k.py", bad_py, sizeof bad_py - 1);
    write_file("tree/b/skip.py", bad_py, sizeof bad_py - 1);
    write_file("tree/.hidden/k.py", bad_py, sizeof bad_py - 1);
    write_file("tree/.gitignore", "b/\n", 3);
    write_file("tree/a/readme.md", "x", 1);
    return 0;
}

static int teardown(void **state)
{
    assert_int_equal(kh_tmpdir_remove(tmpdir), 0);
    return 0;
}

static void test_version_help_list(void **state)
{
    kh_result r = kh_run("--version", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kcheck "));
    assert_non_null(strstr(r.out, "clang"));
    kh_result_free(&r);
    r = kh_run("--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: kcheck"));
    kh_result_free(&r);
    r = kh_run("--list-rules", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "KC101"));
    assert_non_null(strstr(r.out, "view-reorder"));
    kh_result_free(&r);
    r = kh_run("--explain", "view-reorder", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "## What it does"));
    assert_non_null(strstr(r.out, "## Why is this bad?"));
    assert_non_null(strstr(r.out, "## Use instead"));
    kh_result_free(&r);
}

static void test_usage_errors(void **state)
{
    kh_result r = kh_run(NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no paths"));
    kh_result_free(&r);
    r = kh_run("--select", "KC999", "x.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown rule 'KC999'"));
    kh_result_free(&r);
    r = kh_run("--explain", "nope", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
    r = kh_run("--format", "xml", "x.py", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
    r = kh_run("-j", "0", "x.py", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
    r = kh_run("--bogus", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
    r = kh_run("-o", "KC201.nonexistent=3", "x.py", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
    /* a typo gets the option it most likely meant; a far one none */
    r = kh_run("--severty", "note", "x.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "did you mean '--severity'?"));
    kh_result_free(&r);
    r = kh_run("--zzzzzzzz", "x.py", NULL);
    assert_int_equal(r.status, 2);
    assert_null(strstr(r.err, "did you mean"));
    kh_result_free(&r);
    /* --fix and --diff together: refused, not one of them silently */
    r = kh_run("--fix", "--diff", "x.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--fix and --diff exclude each other"));
    kh_result_free(&r);
}

/* -o KC304.first-dim-rows=1: a grid over every row of a tensor's first
 * dimension times its own row stride is a warning; by default a note that
 * says the product spans the tensor. */
static void test_first_dim_rows_option(void **state)
{
    (void)state;
    char *fx = kc_xasprintf("%s/tests/fixtures/KC304_int32-offset-overflow/bad_first_dim_rows.py", KC_SOURCE_DIR);
    kh_result r = kh_run("--no-cache", "--no-config", "--select", "KC304", "--format", "concise", fx, NULL);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "warning:"));
    kh_result_free(&r);
    r = kh_run("--no-cache", "--no-config", "--select", "KC304", "--format", "concise", "-o",
               "KC304.first-dim-rows=1", fx, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "bad_first_dim_rows.py:21:25: warning: `row * x_row_stride` is int32"));
    assert_non_null(strstr(r.out, "bad_first_dim_rows.py:60:17: warning:"));
    kh_result_free(&r);
    free(fx);
}

/* -o KC304.widened-elsewhere=1: where the file widens such an offset in
 * another kernel, a product spanning a tensor is a warning; by default a
 * note that says the file widens others. */
static void test_widened_elsewhere_option(void **state)
{
    (void)state;
    char *fx = kc_xasprintf("%s/tests/fixtures/KC304_int32-offset-overflow/bad_seq_index_widened_elsewhere.py",
                            KC_SOURCE_DIR);
    kh_result r = kh_run("--no-cache", "--no-config", "--select", "KC304", "--format", "concise", fx, NULL);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "warning:"));
    kh_result_free(&r);
    r = kh_run("--no-cache", "--no-config", "--select", "KC304", "--format", "concise", "-o",
               "KC304.widened-elsewhere=1", fx, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "bad_seq_index_widened_elsewhere.py:21:21: warning: `offs_s[:, None] * stride_xs`"));
    assert_non_null(strstr(r.out, "bad_seq_index_widened_elsewhere.py:23:18: warning:"));
    kh_result_free(&r);
    free(fx);
}

/* --list-rules --format json: the rule table as JSON, every rule once. */
static void test_list_rules_json(void **state)
{
    (void)state;
    kh_result r = kh_run("--list-rules", "--format", "json", NULL);
    assert_int_equal(r.status, 0);
    json_t *doc = json_loads(r.out, 0, NULL);
    assert_non_null(doc);
    assert_true(json_is_array(doc));
    assert_int_equal(json_array_size(doc), kc_rules_count());
    json_t *first = json_array_get(doc, 0);
    assert_non_null(json_string_value(json_object_get(first, "id")));
    assert_non_null(json_string_value(json_object_get(first, "severity")));
    assert_true(json_is_array(json_object_get(first, "languages")));
    json_decref(doc);
    kh_result_free(&r);
    r = kh_run("--list-rules", "--format", "sarif", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
}

static void test_findings_and_exit_codes(void **state)
{
    char *bad = tmp_path("bad.py"), *clean = tmp_path("clean.py");
    kh_result r = kh_run("--color", "never", bad, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "bad.py:5:33: error:"));
    assert_non_null(strstr(r.out, "[KC202 static-range-runtime-bound]"));
    assert_non_null(strstr(r.out, "   5 |     for s in tl.static_range(0, N, B):"));
    assert_non_null(strstr(r.out, "     |                                 ^\n"));
    kh_result_free(&r);
    r = kh_run(clean, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no findings"));
    kh_result_free(&r);
    /* --ignore and --fail-on */
    r = kh_run("--ignore", "KC2", bad, NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    r = kh_run("--select", "static-range-runtime-bound", "--fail-on", "error", bad, NULL);
    assert_int_equal(r.status, 1);
    kh_result_free(&r);
    r = kh_run("--select", "KC301", bad, NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    free(bad);
    free(clean);
}

/* After --end-of-options every argument is a path: files named like
 * options are checked, not obeyed (a committed `--write-baseline=x` would
 * otherwise overwrite x); `--` before it still gives compiler arguments,
 * which end at it. */
static void test_end_of_options(void **state)
{
    char *cwd = getcwd(NULL, 0);
    assert_int_equal(chdir(tmpdir), 0);
    write_file("--write-baseline=victim.py", bad_py, sizeof bad_py - 1);
    write_file("victim.py", "print(1)\n", 9);
    write_file("-o.cu", "__global__ void k(float *x) { x[threadIdx.x * N] = 0.0f; }\n", 59);
    write_file("--server", clean_py, sizeof clean_py - 1);
    kh_result r = kh_run("--no-cache", "--color", "never", "--end-of-options", "--write-baseline=victim.py", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "--write-baseline=victim.py:5:33: error:"));
    kh_result_free(&r);
    /* Not kc_cli_main's --server either: a path, and not a kernel file. */
    r = kh_run("--no-cache", "--end-of-options", "--server", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--server: error: not a CUDA"));
    kh_result_free(&r);
    char *data;
    size_t len;
    assert_true(kc_read_all("victim.py", &data, &len));
    assert_string_equal(data, "print(1)\n");
    free(data);
    /* -o.cu names N, which only the compiler arguments before the marker define. */
    r = kh_run("--no-cache", "--no-source", "--", "-DN=64", "--end-of-options", "-o.cu", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "-o.cu:1:33: warning: uncoalesced store to `x`: consecutive threads (threadIdx.x) "
                                  "are 64 elements apart"));
    kh_result_free(&r);
    r = kh_run("--no-cache", "--end-of-options", "-o.cu", NULL); /* without -DN the stride is not known */
    assert_null(strstr(r.out, "64 elements apart"));
    kh_result_free(&r);
    assert_int_equal(chdir(cwd), 0);
    free(cwd);
}

static void test_json(void **state)
{
    char *bad = tmp_path("bad.py"), *broken = tmp_path("broken.py");
    kh_result r = kh_run("--format", "json", bad, broken, NULL);
    assert_int_equal(r.status, 2); /* a file could not be checked */
    json_error_t e;
    json_t *doc = json_loads(r.out, 0, &e);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
    assert_int_equal(json_integer_value(json_object_get(doc, "files")), 2);
    json_t *diags = json_object_get(doc, "diagnostics");
    assert_int_equal(json_array_size(diags), 1);
    json_t *d = json_array_get(diags, 0);
    assert_string_equal(json_string_value(json_object_get(d, "rule")), "KC202");
    assert_string_equal(json_string_value(json_object_get(d, "name")), "static-range-runtime-bound");
    assert_string_equal(json_string_value(json_object_get(d, "severity")), "error");
    assert_int_equal(json_integer_value(json_object_get(d, "line")), 5);
    assert_int_equal(json_integer_value(json_object_get(d, "column")), 33);
    assert_int_equal(json_integer_value(json_object_get(d, "end_column")), 34);
    assert_string_equal(json_string_value(json_object_get(d, "file")), bad);
    json_t *fix = json_object_get(d, "fix");
    assert_true(json_is_object(fix));
    json_t *edit = json_array_get(json_object_get(fix, "edits"), 0);
    assert_string_equal(json_string_value(json_object_get(edit, "replacement")), "tl.range");
    assert_true(json_array_size(json_object_get(d, "notes")) >= 1);
    json_t *errs = json_object_get(doc, "errors");
    assert_int_equal(json_array_size(errs), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(errs, 0), "file")), broken);
    json_decref(doc);
    kh_result_free(&r);
    free(bad);
    free(broken);
}

static void test_bad_inputs_do_not_stop_others(void **state)
{
    char *junk = tmp_path("junk.py"), *latin = tmp_path("latin1.py"), *broken = tmp_path("broken.py"),
         *txt = tmp_path("notes.txt"), *bad = tmp_path("bad.py"), *missing = tmp_path("missing.py");
    kh_result r = kh_run("--color", "never", junk, latin, broken, txt, missing, tmpdir, bad, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "junk.py: error: binary file (NUL byte at offset 14)"));
    assert_null(strstr(r.out, "latin1.py")); /* a Latin-1 byte in a comment: checked */
    assert_non_null(strstr(r.out, "broken.py:2:1: error: syntax error"));
    assert_non_null(strstr(r.out, "notes.txt: error: not a CUDA (.cu, .cu.cc, .cuh, a header with device code or a C++ source with a kernel) or Python (.py) file"));
    assert_non_null(strstr(r.out, "missing.py: error: cannot open: No such file or directory"));
    /* the good file after them is still checked */
    assert_non_null(strstr(r.out, "bad.py:5:33: error:"));
    kh_result_free(&r);
    free(junk);
    free(latin);
    free(broken);
    free(txt);
    free(bad);
    free(missing);
}

static void test_directory_walk(void **state)
{
    char *tree = tmp_path("tree");
    kh_result r = kh_run("--no-source", "--color", "never", tree, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "tree/a/k.py:5:33"));
    assert_null(strstr(r.out, "skip.py"));  /* .gitignore: b/ */
    assert_null(strstr(r.out, ".hidden")); /* hidden directory */
    assert_null(strstr(r.out, "readme"));
    assert_non_null(strstr(r.out, "(1 file)"));
    kh_result_free(&r);
    free(tree);
}

/* Headers: one with device code is checked as CUDA (given, or found by a
 * walk); a host header is passed over without an error. A file whose
 * kernels use names from a header kcheck did not find is analysed in part,
 * and the summary line, --stats and JSON say so at the default severity. */
static void test_headers_and_partial_analysis(void **state)
{
    (void)state;
    static const char dev_h[] = "#pragma once\n"
                                "__global__ void rev(float *out, const float *in)\n"
                                "{\n"
                                "    __shared__ float s[256];\n"
                                "    s[threadIdx.x] = in[threadIdx.x];\n"
                                "    out[threadIdx.x] = s[255 - threadIdx.x];\n"
                                "}\n";
    static const char host_h[] = "#pragma once\nint add(int a, int b);\n";
    static const char partial_cu[] = "#include \"missing.h\"\n"
                                     "__global__ void k(my_half *out) { out[threadIdx.x] = MY_ZERO; }\n";
    write_file("hdr/dev.hpp", dev_h, sizeof dev_h - 1);
    write_file("hdr/host.h", host_h, sizeof host_h - 1);
    /* TensorFlow's naming of CUDA sources: a .cu.cc file is CUDA; a plain
     * .cc file is CUDA when it holds a kernel, else passed over and
     * counted with the headers without device code */
    write_file("hdr/scale.cu.cc", partial_cu + strlen("#include \"missing.h\"\n"),
               sizeof partial_cu - 1 - strlen("#include \"missing.h\"\n"));
    write_file("hdr/host.cc", host_h, sizeof host_h - 1);
    write_file("part/partial.cu", partial_cu, sizeof partial_cu - 1);
    char *dir = tmp_path("hdr"), *host = tmp_path("hdr/host.h"), *part = tmp_path("part/partial.cu");
    kh_result r = kh_run("--no-cache", "--color", "never", "--stats", dir, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "dev.hpp:6:24: error:"));
    assert_non_null(strstr(r.out, "KC402"));
    assert_null(strstr(r.out, "host.h"));
    assert_null(strstr(r.out, "host.cc"));
    assert_non_null(strstr(r.out, "(2 files, 1 analysed in part"));
    assert_non_null(strstr(r.out, "2 headers or C++ sources without device code passed over"));
    kh_result_free(&r);
    r = kh_run("--no-cache", host, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no findings (0 files checked)"));
    kh_result_free(&r);
    r = kh_run("--no-cache", "--color", "never", part, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1 analysed in part (--severity note shows what is missing)"));
    kh_result_free(&r);
    r = kh_run("--no-cache", "--format", "json", part, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"diagnostics\": []"));
    assert_non_null(strstr(r.out, "\"incomplete\": ["));
    assert_non_null(strstr(r.out, "unknown type `my_half`"));
    kh_result_free(&r);
    free(dir);
    free(host);
    free(part);
}

static void test_jobs_output_is_deterministic(void **state)
{
    char *a = tmp_path("bad.py"), *b = tmp_path("clean.py"), *c = tmp_path("tree");
    kh_result r1 = kh_run("-j", "1", "--color", "never", a, b, c, a, NULL);
    kh_result r4 = kh_run("-j", "4", "--color", "never", a, b, c, a, NULL);
    assert_int_equal(r1.status, r4.status);
    assert_string_equal(r1.out, r4.out);
    kh_result_free(&r1);
    kh_result_free(&r4);
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_help_list),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_first_dim_rows_option),
        cmocka_unit_test(test_widened_elsewhere_option),
        cmocka_unit_test(test_findings_and_exit_codes),
        cmocka_unit_test(test_end_of_options),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_bad_inputs_do_not_stop_others),
        cmocka_unit_test(test_directory_walk),
        cmocka_unit_test(test_jobs_output_is_deterministic),
        cmocka_unit_test(test_headers_and_partial_analysis),
        cmocka_unit_test(test_list_rules_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
