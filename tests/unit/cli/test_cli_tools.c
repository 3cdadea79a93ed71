/* The command line with the tools users already run (issue 6), in process:
 * SARIF and GitHub output, colour on a terminal, suppressions, .kcheck.yaml
 * configuration, baselines, --fix/--diff, --severity/--quiet/--stats.
 * The tests run in a temporary directory (the working directory), so paths
 * are relative as in a repository. */
#define _GNU_SOURCE 1 /* posix_openpt and friends */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kc_base.h"
#include "kc_cli.h"
#include "kc_fingerprint.h"
#include "kc_hash.h"
#include "kc_path.h"
#include "kc_fixfile.h"
#include "kc_verify.h"
#include "cli_harness.h"

static char tmpdir[256];
static char *old_cwd;

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* KC202 on line 5 (column 33) with a fix-it; no other stable rule fires. */
static const char bad_py[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, N, B: tl.constexpr):\n"
    "    for s in tl.static_range(0, N, B):\n"
    "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n";
static const char clean_py[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, n, B: tl.constexpr):\n"
    "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
    "    tl.store(x_ptr + o, 0, mask=o < n)\n";

static int setup(void **state)
{
    old_cwd = getcwd(NULL, 0);
    assert_non_null(kh_tmpdir_make(tmpdir, sizeof tmpdir, "tools"));
    assert_int_equal(chdir(tmpdir), 0);
    /* A repository root: configuration files above it do not apply. */
    mkdir(".git", 0755);
    kh_write("bad.py", bad_py);
    kh_write("clean.py", clean_py);
    return 0;
}

static int teardown(void **state)
{
    assert_int_equal(chdir(old_cwd), 0);
    free(old_cwd);
    assert_int_equal(kh_tmpdir_remove(tmpdir), 0);
    return 0;
}

/* ---- SARIF ------------------------------------------------------------------ */

static void test_sarif(void **state)
{
    /* é is two bytes and one UTF-16 unit: SARIF columns are UTF-16. */
    kh_write("sarif/u.py", "import triton\nimport triton.language as tl\n"
                           "@triton.jit\n"
                           "def k(x_ptr, N, B: tl.constexpr):\n"
                           "    for é in tl.static_range(0, N, B):\n"
                           "        tl.store(x_ptr + é + tl.arange(0, B), 0)\n");
    kh_result r = kh_run("--format", "sarif", "--select", "KC202", "bad.py", "sarif/u.py", NULL);
    assert_int_equal(r.status, 1);
    json_error_t je;
    json_t *doc = json_loads(r.out, 0, &je);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "version")), "2.1.0");
    json_t *runp = json_array_get(json_object_get(doc, "runs"), 0);
    json_t *driver = json_object_get(json_object_get(runp, "tool"), "driver");
    assert_string_equal(json_string_value(json_object_get(driver, "name")), "kcheck");
    /* informationUri: the build's home page (KCHECK_HOMEPAGE), else the rule
     * catalog this binary has: here, in its build tree, the source tree's
     * (an installed binary's is checked by install.package) */
    const char *info = json_string_value(json_object_get(driver, "informationUri"));
    assert_non_null(info);
    if (!KCHECK_HOMEPAGE_SET) {
        char *real = realpath(KC_SOURCE_DIR "/docs/rules.md", NULL);
        char *want = kc_xasprintf("file://%s", real);
        assert_string_equal(info, want);
        free(want);
        free(real);
    }
    json_t *rules = json_object_get(driver, "rules");
    bool found = false;
    size_t i;
    json_t *rule;
    json_array_foreach(rules, i, rule)
    {
        if (strcmp(json_string_value(json_object_get(rule, "id")), "KC202") != 0)
            continue;
        found = true;
        assert_string_equal(json_string_value(json_object_get(rule, "name")), "static-range-runtime-bound");
        assert_non_null(strstr(json_string_value(json_object_get(json_object_get(rule, "help"), "markdown")),
                               "## What it does"));
        assert_string_equal(
            json_string_value(json_object_get(json_object_get(rule, "defaultConfiguration"), "level")), "error");
        assert_non_null(json_string_value(json_object_get(json_object_get(rule, "shortDescription"), "text")));
    }
    assert_true(found);
    json_t *results = json_object_get(runp, "results");
    assert_int_equal(json_array_size(results), 2);
    json_t *res = json_array_get(results, 0);
    assert_string_equal(json_string_value(json_object_get(res, "ruleId")), "KC202");
    assert_string_equal(json_string_value(json_object_get(res, "level")), "error");
    json_t *phys = json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation");
    json_t *art = json_object_get(phys, "artifactLocation");
    assert_string_equal(json_string_value(json_object_get(art, "uri")), "bad.py");
    assert_string_equal(json_string_value(json_object_get(art, "uriBaseId")), "%SRCROOT%");
    json_t *reg = json_object_get(phys, "region");
    assert_int_equal(json_integer_value(json_object_get(reg, "startLine")), 5);
    assert_int_equal(json_integer_value(json_object_get(reg, "startColumn")), 33);
    assert_int_equal(json_integer_value(json_object_get(reg, "endColumn")), 34);
    const char *fp = json_string_value(json_object_get(json_object_get(res, "partialFingerprints"),
                                                       "kcheckFingerprint/v1"));
    assert_non_null(fp);
    assert_int_equal(strlen(fp), 16);
    json_t *rep = json_array_get(
        json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(res, "fixes"), 0),
                                                       "artifactChanges"),
                                       0),
                        "replacements"),
        0);
    assert_string_equal(json_string_value(json_object_get(json_object_get(rep, "insertedContent"), "text")),
                        "tl.range");
    json_t *del = json_object_get(rep, "deletedRegion");
    assert_int_equal(json_integer_value(json_object_get(del, "startLine")), 5);
    assert_int_equal(json_integer_value(json_object_get(del, "startColumn")), 14);
    assert_int_equal(json_integer_value(json_object_get(del, "endColumn")), 29);
    /* The UTF-16 column on the line with é: byte column 34, UTF-16 column 33. */
    json_t *u = json_array_get(results, 1);
    json_t *ureg = json_object_get(
        json_object_get(json_array_get(json_object_get(u, "locations"), 0), "physicalLocation"), "region");
    assert_int_equal(json_integer_value(json_object_get(ureg, "startColumn")), 33);
    json_decref(doc);
    kh_result_free(&r);
    /* and the JSON format keeps byte columns */
    r = kh_run("--format", "json", "--select", "KC202", "sarif/u.py", NULL);
    assert_non_null(strstr(r.out, "\"column\": 34"));
    kh_result_free(&r);
}

/* ---- GitHub annotations ------------------------------------------------------ */

static void test_github(void **state)
{
    kh_result r = kh_run("--format", "github", "--select", "KC202", "bad.py", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "::error file=bad.py,line=5,col=33,endColumn=33,"
                                  "title=KC202 static-range-runtime-bound::`tl.static_range` needs compile-time "
                                  "bounds, but `N` is not a tl.constexpr: the kernel does not compile%0Anote: "));
    assert_non_null(strstr(r.out, "%0Afix: use `tl.range`"));
    assert_int_equal(count(r.out, "::error "), 1);
    assert_non_null(strstr(r.out, "\nkcheck: 1 error (1 file)\n"));
    kh_result_free(&r);
    /* Property values escape ':' and ','; the message escapes '%'. */
    kh_write("gh/a,b:c.py", bad_py);
    r = kh_run("--format", "github", "--select", "KC202", "--quiet", "gh/a,b:c.py", NULL);
    assert_non_null(strstr(r.out, "::error file=gh/a%2Cb%3Ac.py,line=5,"));
    assert_null(strstr(r.out, "kcheck:")); /* --quiet */
    kh_result_free(&r);
    kh_write("gh/broken.py", "import triton\ndef (:\n");
    r = kh_run("--format", "github", "gh/broken.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "::error file=gh/broken.py,line=2,col=1,title=kcheck input error::syntax error"));
    kh_result_free(&r);
}

/* ---- one line per finding --------------------------------------------------------- */

static void test_concise(void **state)
{
    kh_write("concise/k.py", bad_py);
    kh_write("concise/broken.py", "import triton\ndef (:\n");
    kh_result r = kh_run("--format", "concise", "--no-config", "concise/k.py", "concise/broken.py", NULL);
    assert_int_equal(r.status, 2);
    /* the finding, fixable ([*]), on one line: no source, notes or fix-it lines */
    assert_non_null(strstr(r.out, "concise/k.py:5:33: error: `tl.static_range` needs compile-time bounds, but `N` "
                                  "is not a tl.constexpr: the kernel does not compile "
                                  "[KC202 static-range-runtime-bound] [*]\n"));
    assert_non_null(strstr(r.out, "concise/broken.py:2:1: error: syntax error"));
    assert_null(strstr(r.out, " = note:"));
    assert_null(strstr(r.out, " | "));
    assert_int_equal(count(r.out, "\n"), count(r.out, "concise/") + 1); /* + the summary line */
    assert_non_null(strstr(r.out, "\nkcheck: "));
    kh_result_free(&r);
    r = kh_run("--format", "concise", "--no-config", "-q", "concise/k.py", NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(count(r.out, "\n"), count(r.out, "concise/k.py:")); /* no summary with -q */
    kh_result_free(&r);
}

/* ---- --stdin-filename ----------------------------------------------------------- */

/* Runs kcheck with `text` on standard input. */
static kh_result run_stdin(const char *text, const char *first, ...)
{
    kh_write("stdin/.input", text);
    assert_non_null(freopen("stdin/.input", "r", stdin));
    va_list ap;
    va_start(ap, first);
    kh_result r = kh_run_with(NULL, first, ap);
    va_end(ap);
    assert_non_null(freopen("/dev/null", "r", stdin));
    return r;
}

/* --diff-base REV: only findings on lines changed since REV (edited lines,
 * new files); a file outside a repository and an unknown revision are
 * input errors. */
static void test_diff_base(void **state)
{
    (void)state;
    const char *two = "import triton\nimport triton.language as tl\n"
                      "@triton.jit\n"
                      "def k(x_ptr, N, B: tl.constexpr):\n"
                      "    for s in tl.static_range(0, N, B):\n"
                      "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n"
                      "@triton.jit\n"
                      "def k2(x_ptr, N, B: tl.constexpr):\n"
                      "    for s in tl.static_range(0, N, B):\n"
                      "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n";
    kh_write("db/repo/a.py", two);
    assert_int_equal(system("cd db/repo && git init -q && git add a.py && git -c user.email=k@k -c user.name=k "
                            "commit -qm one"),
                     0);
    char *edited = kc_xstrdup(two);
    char *second = strstr(strstr(edited, "def k2"), "    for s");
    memcpy(second, "    for t", 9); /* line 9 changes, line 5 does not */
    memcpy(strstr(second, "x_ptr + s"), "x_ptr + t", 9);
    kh_write("db/repo/a.py", edited);
    free(edited);
    kh_write("db/repo/new/b.py", bad_py);
    kh_result r = kh_run("--no-config", "--no-cache", "--format", "concise", "--diff-base", "HEAD", "db/repo", NULL);
    assert_int_equal(r.status, 1);
    kh_expect_in(r.out, "db/repo/a.py:9:33: error:");
    kh_expect_in(r.out, "db/repo/a.py:10:18: warning:"); /* edited too */
    assert_null(strstr(r.out, "db/repo/a.py:5:"));
    kh_expect_in(r.out, "db/repo/new/b.py:5:33: error:"); /* untracked: every line is new */
    kh_expect_in(r.out, "2 on unchanged lines (--diff-base)");
    kh_result_free(&r);
    /* nothing changed since the working tree's own state: nothing */
    assert_int_equal(system("cd db/repo && git add -A && git -c user.email=k@k -c user.name=k commit -qm two"), 0);
    r = kh_run("--no-config", "--no-cache", "-q", "--diff-base", "HEAD", "db/repo", NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    r = kh_run("--no-config", "--no-cache", "--format", "concise", "--diff-base", "HEAD~1", "db/repo", NULL);
    assert_int_equal(r.status, 1);
    kh_expect_in(r.out, "a.py:9:33");
    kh_result_free(&r);
    /* an unknown revision, a file outside any repository */
    r = kh_run("--no-config", "--no-cache", "--diff-base", "no-such-rev", "db/repo/a.py", NULL);
    assert_int_equal(r.status, 2);
    kh_expect_in(r.out, "--diff-base: `no-such-rev` is not a commit of the repository");
    kh_result_free(&r);
    char outside[64];
    assert_non_null(kh_tmpdir_make(outside, sizeof outside, "nogit"));
    char *f = kc_xasprintf("%s/k.py", outside);
    kh_write(f, bad_py);
    r = kh_run("--no-config", "--no-cache", "--diff-base", "HEAD", f, NULL);
    assert_int_equal(r.status, 2);
    kh_expect_in(r.out, "not in a git repository");
    kh_result_free(&r);
    free(f);
    kh_tmpdir_remove(outside);
    r = kh_run("--diff-base", "HEAD", "--write-baseline", "x.json", "db", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
}

/* Baselines, fingerprints and SARIF name files relative to the repository
 * (or --root), so a baseline written at the top holds in a subdirectory. */
static void test_repository_relative_paths(void **state)
{
    (void)state;
    kh_write("rr/repo/sub/k.py", bad_py);
    assert_int_equal(system("cd rr/repo && git init -q"), 0);
    kh_result r = kh_run("--no-config", "--no-cache", "--write-baseline", "rr/repo/base.json", "rr/repo/sub/k.py", NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    char *base = kh_read("rr/repo/base.json");
    kh_expect_in(base, "\"file\": \"sub/k.py\"");
    free(base);
    char *top = getcwd(NULL, 0);
    assert_int_equal(chdir("rr/repo/sub"), 0);
    r = kh_run("--no-config", "--no-cache", "--baseline", "../base.json", "k.py", NULL);
    int st_sub = r.status;
    char *out_sub = kc_xstrdup(r.out);
    kh_result_free(&r);
    r = kh_run("--no-config", "--no-cache", "--format", "sarif", "k.py", NULL);
    char *sarif = kc_xstrdup(r.out);
    kh_result_free(&r);
    assert_int_equal(chdir(top), 0);
    assert_int_equal(st_sub, 0); /* every finding is in the baseline */
    kh_expect_in(out_sub, "in the baseline");
    free(out_sub);
    kh_expect_in(sarif, "\"uri\": \"sub/k.py\"");
    kh_expect_in(sarif, "rr/repo/\"");
    free(sarif);
    /* --root names them relative to the directory given */
    r = kh_run("--no-config", "--no-cache", "--format", "sarif", "--root", "rr/repo/sub", "rr/repo/sub/k.py", NULL);
    kh_expect_in(r.out, "\"uri\": \"k.py\"");
    kh_result_free(&r);
    r = kh_run("--root", "rr/nowhere", "rr/repo/sub/k.py", NULL);
    assert_int_equal(r.status, 2);
    kh_expect_in(r.err, "--root rr/nowhere: not a directory");
    kh_result_free(&r);
    free(top);
}

static void test_stdin(void **state)
{
    /* A file that exists only in the editor: checked as PATH. */
    kh_result r = run_stdin(bad_py, "--no-config", "--no-cache", "--format", "concise", "--stdin-filename",
                            "stdin/new/k.py", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "stdin/new/k.py:5:33: error: `tl.static_range` needs compile-time bounds"));
    kh_result_free(&r);
    /* The unsaved text wins over the file on disk. */
    kh_write("stdin/k.py", bad_py);
    r = run_stdin(clean_py, "--no-config", "--stdin-filename", "stdin/k.py", NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    /* CUDA: a quoted include is found next to PATH. */
    kh_write("stdin/cu/scale.h", "#define SCALE 0.5\n");
    r = run_stdin("#include \"scale.h\"\n__global__ void k(float *x, int n) {\n"
                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (i < n) x[i] = x[i] * SCALE;\n}\n",
                  "--no-config", "--no-cache", "--format", "concise", "--stdin-filename", "stdin/cu/k.cu", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "stdin/cu/k.cu:4:30: warning: double-precision literal `0.5` (from `SCALE`)"));
    kh_result_free(&r);
    /* Input errors as for a file; what needs a file is refused. */
    r = run_stdin("import triton\ndef (:\n", "--no-config", "--stdin-filename", "stdin/bad.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "stdin/bad.py:2:1: error: syntax error"));
    kh_result_free(&r);
    r = run_stdin(bad_py, "--no-config", "--fix", "--stdin-filename", "stdin/k.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "does not take --fix"));
    kh_result_free(&r);
    r = run_stdin(bad_py, "--no-config", "--stdin-filename", "stdin/k.py", "stdin/k.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "it takes no paths"));
    kh_result_free(&r);
    /* --diff shows the fix of the unsaved text. */
    r = run_stdin(bad_py, "--no-config", "--diff", "--stdin-filename", "stdin/new/k.py", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "+    for s in tl.range(0, N, B):"));
    kh_result_free(&r);
}

/* ---- colour ---------------------------------------------------------------------- */

/* Runs kcheck with stdout on a pseudo-terminal; returns what it printed. */
static char *run_on_tty(const char *first, ...)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(master >= 0);
    assert_int_equal(grantpt(master), 0);
    assert_int_equal(unlockpt(master), 0);
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    FILE *out = fdopen(slave, "w");
    va_list ap;
    va_start(ap, first);
    kh_result r = kh_run_with(out, first, ap);
    va_end(ap);
    fclose(out);
    kc_strbuf sb = {0};
    fcntl(master, F_SETFL, O_NONBLOCK);
    char buf[4096];
    ssize_t n;
    while ((n = read(master, buf, sizeof buf)) > 0)
        kc_sb_appendn(&sb, buf, (size_t)n);
    close(master);
    kh_result_free(&r);
    return kc_sb_take(&sb);
}

static void test_color(void **state)
{
    unsetenv("NO_COLOR");
    setenv("TERM", "xterm", 1);
    char *o = run_on_tty("--select", "KC202", "bad.py", NULL);
    assert_non_null(strstr(o, "\033[")); /* a terminal: colour */
    free(o);
    setenv("NO_COLOR", "1", 1);
    o = run_on_tty("--select", "KC202", "bad.py", NULL);
    assert_non_null(strstr(o, "KC202"));
    assert_null(strstr(o, "\033["));
    free(o);
    o = run_on_tty("--color", "always", "--select", "KC202", "bad.py", NULL); /* explicit wins */
    assert_non_null(strstr(o, "\033["));
    free(o);
    setenv("NO_COLOR", "", 1); /* empty: as if unset (no-color.org) */
    o = run_on_tty("--select", "KC202", "bad.py", NULL);
    assert_non_null(strstr(o, "\033["));
    free(o);
    unsetenv("NO_COLOR");
    /* not a terminal: no colour */
    kh_result r = kh_run("--select", "KC202", "bad.py", NULL);
    assert_null(strstr(r.out, "\033["));
    kh_result_free(&r);
    r = kh_run("--color", "always", "--select", "KC202", "bad.py", NULL);
    assert_non_null(strstr(r.out, "\033["));
    kh_result_free(&r);
}

/* ---- suppressions ---------------------------------------------------------------- */

static const char supp_py[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, N, B: tl.constexpr):\n"
    "    for s in tl.static_range(0, N, B):  # kcheck: ignore[KC202] reason: measured\n" /* 5: same line */
    "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n"
    "    # kcheck: ignore[static-range-runtime-bound, KC999]\n" /* 7: the line above, and an unknown name */
    "    for s in tl.static_range(0, N, B):\n"
    "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n"
    "    for s in tl.static_range(0, N, B):  # kcheck: ignore[KC101]\n" /* 10: wrong rule: reported */
    "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n"
    "    for s in tl.static_range(0, N, B):  # kcheck: ignore\n" /* 12: every rule */
    "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n"
    "    x = 1  # kcheck: ignored[KC101]\n"                      /* 14: unknown directive */
    "    for s in tl.static_range(0, N, B):\n"                   /* 15: not suppressed */
    "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n";

static void test_suppressions(void **state)
{
    kh_write("supp/k.py", supp_py);
    kh_result r = kh_run("--no-source", "--select", "KC202,KC000,KC001", "supp/k.py", NULL);
    assert_int_equal(r.status, 1);
    assert_null(strstr(r.out, "k.py:5:"));
    assert_null(strstr(r.out, "k.py:8:"));
    assert_null(strstr(r.out, "k.py:12:"));
    assert_non_null(strstr(r.out, "supp/k.py:10:33: error:"));
    assert_non_null(strstr(r.out, "supp/k.py:15:33: error:"));
    assert_non_null(strstr(r.out, "supp/k.py:7:50: warning: unknown rule 'KC999' in suppression"
                                  " (see kcheck --list-rules) [KC000 invalid-suppression]"));
    assert_non_null(strstr(r.out, "supp/k.py:14:22: warning: unknown kcheck directive 'ignored'"));
    assert_null(strstr(r.out, "KC001")); /* only on request */
    assert_non_null(strstr(r.out, "kcheck: 2 errors, 2 warnings (1 file, 3 suppressed)"));
    kh_result_free(&r);

    r = kh_run("--no-source", "--select", "KC101,KC202,KC000,KC001", "--report-unused-suppressions", "supp/k.py", NULL);
    assert_non_null(strstr(r.out, "supp/k.py:10:58: warning: unused suppression: no KC101 uncoalesced-access "
                                  "finding on its line [KC001 unused-suppression]"));
    kh_result_free(&r);
    /* ... but not for a rule that did not run */
    r = kh_run("--no-source", "--select", "KC202,KC000", "--report-unused-suppressions", "supp/k.py", NULL);
    assert_null(strstr(r.out, "KC001"));
    kh_result_free(&r);

    /* File level, anywhere in the file; the other rules still run. */
    kc_strbuf sb = {0};
    kc_sb_append(&sb, supp_py);
    kc_sb_append(&sb, "# kcheck: ignore-file[KC202]\n");
    kh_write("supp/f.py", sb.data);
    kc_sb_free(&sb);
    r = kh_run("--no-source", "--select", "KC202,KC000", "supp/f.py", NULL);
    assert_null(strstr(r.out, "KC202 static"));
    assert_non_null(strstr(r.out, "KC999"));
    kh_result_free(&r);

    /* CUDA comments: //, and a block comment, on the line above. */
    kh_write("supp/k.cu", "__global__ void k(const float *x, float *out)\n"
                          "{\n"
                          "    float s = 0.0f;\n"
                          "    /* kcheck: ignore[KC201] */\n"
                          "#pragma unroll\n"
                          "    for (int i = 0; i < 256; ++i)\n"
                          "        s += x[i * blockDim.x + threadIdx.x];\n"
                          "#pragma unroll // kcheck: ignore[large-static-unroll]\n"
                          "    for (int i = 0; i < 256; ++i)\n"
                          "        s += x[i * blockDim.x + threadIdx.x];\n"
                          "#pragma unroll\n"
                          "    for (int i = 0; i < 256; ++i)\n"
                          "        s += x[i * blockDim.x + threadIdx.x];\n"
                          "    out[threadIdx.x] = s;\n"
                          "}\n");
    r = kh_run("--no-source", "--select", "KC201", "supp/k.cu", NULL);
    assert_int_equal(count(r.out, "[KC201 large-static-unroll]"), 1);
    assert_non_null(strstr(r.out, "supp/k.cu:11:"));
    assert_non_null(strstr(r.out, "2 suppressed"));
    kh_result_free(&r);
}

/* ---- configuration --------------------------------------------------------------- */

static const char unroll_py[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, B: tl.constexpr):\n"
    "    acc = tl.zeros([B], dtype=tl.float32)\n"
    "    for i in tl.static_range(64):\n"
    "        acc += tl.load(x_ptr + i * B + tl.arange(0, B))\n"
    "    tl.store(x_ptr + tl.arange(0, B), acc)\n";

static void test_config_walk_up(void **state)
{
    /* cfg/.kcheck.yaml applies to cfg/a/b/k.py; cfg/repo is a repository
     * root, so the walk stops there and cfg/.kcheck.yaml does not apply. */
    kh_write("cfg/.kcheck.yaml", "ignore: [KC202]\n");
    kh_write("cfg/a/b/k.py", bad_py);
    kh_write("cfg/repo/k.py", bad_py);
    mkdir("cfg/repo/.git", 0755);
    kh_result r = kh_run("--no-source", "--select", "KC2", "cfg/a/b/k.py", "cfg/repo/k.py", NULL);
    assert_int_equal(r.status, 1);
    /* --select on the command line replaces the file's selection ... */
    assert_non_null(strstr(r.out, "cfg/a/b/k.py:5:33"));
    kh_result_free(&r);
    r = kh_run("--no-source", "cfg/a/b/k.py", "cfg/repo/k.py", NULL);
    assert_null(strstr(r.out, "cfg/a/b/k.py:5:33")); /* ... without it, the file's ignore applies */
    assert_non_null(strstr(r.out, "cfg/repo/k.py:5:33"));
    kh_result_free(&r);
    /* --no-config and --config */
    r = kh_run("--no-source", "--no-config", "cfg/a/b/k.py", NULL);
    assert_non_null(strstr(r.out, "cfg/a/b/k.py:5:33"));
    kh_result_free(&r);
    r = kh_run("--no-source", "--config", "cfg/.kcheck.yaml", "cfg/repo/k.py", NULL);
    assert_null(strstr(r.out, "k.py:5:33"));
    kh_result_free(&r);
}

/* `exclude` (a file or a directory above it, walked or named), `extend`
 * (the base's settings under this file's, its patterns relative to the
 * base), cycles; and pyproject.toml's [tool.kcheck] where no .kcheck.yaml
 * is, a pyproject without it passed over. */
static void test_config_exclude_extend_pyproject(void **state)
{
    (void)state;
    kh_write("ex/.kcheck.yaml", "exclude: [vendor/, \"*_gen.py\"]\nignore: [KC303]\n"
                                "overrides:\n  - files: [\"legacy/**\"]\n    ignore: [KC202]\n");
    kh_write("ex/sub/.kcheck.yaml", "extend: ../.kcheck.yaml\nexclude: [skip.py]\n");
    kh_write("ex/vendor/x/v.py", bad_py);
    kh_write("ex/k_gen.py", bad_py);
    kh_write("ex/k.py", bad_py);
    kh_write("ex/sub/k.py", bad_py);
    kh_write("ex/sub/skip.py", bad_py);
    kh_write("ex/legacy/k.py", bad_py);
    kh_result r = kh_run("--show-files", "ex", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "ex/k.py\nex/legacy/k.py\nex/sub/k.py\n");
    kh_result_free(&r);
    r = kh_run("--no-cache", "--format", "concise", "ex/k.py", "ex/vendor/x/v.py", "ex/sub/k.py", "ex/legacy/k.py",
               NULL);
    assert_int_equal(r.status, 1);
    kh_expect_in(r.out, "ex/k.py:5:33: error:");
    kh_expect_in(r.out, "ex/sub/k.py:5:33: error:"); /* the base's settings, through extend */
    assert_null(strstr(r.out, "KC303"));              /* ignored by the base */
    assert_null(strstr(r.out, "vendor"));             /* excluded even when named */
    assert_null(strstr(r.out, "legacy"));             /* the base's override */
    kh_result_free(&r);
    kh_write("ex/cyc/.kcheck.yaml", "extend: ../cyc2/.kcheck.yaml\n");
    kh_write("ex/cyc2/.kcheck.yaml", "extend: ../cyc/.kcheck.yaml\n");
    kh_write("ex/cyc/k.py", bad_py);
    r = kh_run("ex/cyc/k.py", NULL);
    assert_int_equal(r.status, 2);
    kh_expect_in(r.err, "'extend' makes a cycle through");
    kh_result_free(&r);
    /* pyproject.toml */
    kh_write("pp/pyproject.toml", "[project]\nname = \"x\"\ndescription = \"\"\"two\n[not.a.table]\nlines\"\"\"\n"
                                  "[tool.kcheck]\nignore = ['KC202', \"KC303\"] # a comment\nexclude = [\"gen/\"]\n"
                                  "[tool.kcheck.options]\n\"KC201.max-trip-count\" = 64\n");
    kh_write("pp/k.py", bad_py);
    kh_write("pp/gen/k.py", bad_py);
    r = kh_run("--no-cache", "--format", "concise", "pp", NULL);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "KC202"));
    kh_result_free(&r);
    r = kh_run("--dump-config", "pp/k.py", NULL);
    kh_expect_in(r.out, "pp/pyproject.toml");
    kh_expect_in(r.out, "KC201.max-trip-count: 64");
    kh_result_free(&r);
    r = kh_run("--show-files", "pp", NULL);
    assert_string_equal(r.out, "pp/k.py\n");
    kh_result_free(&r);
    /* a .kcheck.yaml beside it wins; one without [tool.kcheck] is passed over */
    kh_write("pp/.kcheck.yaml", "select: [KC202]\n");
    r = kh_run("--no-cache", "--format", "concise", "pp/k.py", NULL);
    assert_int_equal(r.status, 1);
    kh_result_free(&r);
    kh_write("pq/pyproject.toml", "[tool.ruff]\nline-length = 100\n");
    kh_write("pq/k.py", bad_py);
    r = kh_run("--no-cache", "--format", "concise", "pq/k.py", NULL);
    assert_int_equal(r.status, 1);
    kh_result_free(&r);
    /* a TOML error in the table: the file and line */
    kh_write("pr/pyproject.toml", "[tool.kcheck]\n\nselect = [\"KC2\"\n");
    kh_write("pr/k.py", bad_py);
    r = kh_run("pr/k.py", NULL);
    assert_int_equal(r.status, 2);
    kh_expect_in(r.err, "pr/pyproject.toml:4: error: TOML: expected `,` or `]` in an array");
    kh_result_free(&r);
}

static void test_config_overrides_and_options(void **state)
{
    kh_write("ov/.kcheck.yaml", "# per-path settings\n"
                                "options:\n"
                                "  KC201.max-trip-count: 100\n"
                                "overrides:\n"
                                "  - files: [\"legacy/**\"]\n"
                                "    ignore: [KC202]\n"
                                "  - files: [\"strict/*.py\"]\n"
                                "    options: {KC201: {max-trip-count: 16}}\n");
    kh_write("ov/legacy/deep/k.py", bad_py);
    kh_write("ov/new/k.py", bad_py);
    kh_write("ov/u.py", unroll_py);
    kh_write("ov/strict/u.py", unroll_py);
    kh_result r = kh_run("--no-source", "--select", "KC201,KC202", "ov", NULL);
    /* the override's ignore holds even under --select */
    assert_null(strstr(r.out, "ov/legacy/deep/k.py"));
    assert_non_null(strstr(r.out, "ov/new/k.py:5:33"));
    assert_null(strstr(r.out, "ov/u.py")); /* 64 iterations, limit 100 */
    assert_non_null(strstr(r.out, "ov/strict/u.py:6:14: warning: `tl.static_range` fully unrolls 64 iterations "
                                  "(the limit is 16)"));
    kh_result_free(&r);
    /* -o on the command line wins over the files */
    r = kh_run("--no-source", "--select", "KC201", "-o", "KC201.max-trip-count=8", "ov/u.py", NULL);
    assert_non_null(strstr(r.out, "(the limit is 8)"));
    kh_result_free(&r);
}

/* The text without "  # ..." comments at the ends of lines. */
static char *without_comments(const char *text)
{
    assert_non_null(text);
    kc_strbuf sb = {0};
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *c = NULL;
        for (size_t i = 0; i + 2 < n && !c; i++)
            if (p[i] == ' ' && p[i + 1] == ' ' && p[i + 2] == '#')
                c = p + i;
        kc_sb_appendn(&sb, p, c ? (size_t)(c - p) : n);
        kc_sb_putc(&sb, '\n');
        p += n + (e != NULL);
    }
    return kc_sb_take(&sb);
}

static void test_dump_config(void **state)
{
    kh_write("dump/.kcheck.yaml", "select: [KC101, KC102, KC201, KC202]\n"
                                  "ignore: [loop-invariant-load]\n"
                                  "options: {KC201.max-trip-count: 48}\n"
                                  "cuda:\n"
                                  "  arch: sm_80\n"
                                  "  args: [-DTILE=32, -Iinclude, \"-DMSG=a b\"]\n"
                                  "overrides:\n"
                                  "  - files: [\"legacy/**\"]\n"
                                  "    ignore: [KC101]\n");
    kh_write("dump/legacy/k.cu", "__global__ void k() {}\n");
    kh_result r = kh_run("--dump-config", "dump/legacy/k.cu", NULL);
    assert_int_equal(r.status, 0);
    char *abs = realpath("dump", NULL);
    char *from = kc_xasprintf("# configuration file: %s/.kcheck.yaml\n", abs);
    char *inc = kc_xasprintf("args: [\"-DTILE=32\", \"-I%s/include\", \"-DMSG=a b\"]\n", abs);
    assert_non_null(strstr(r.out, from));
    assert_non_null(strstr(r.out, "select: [KC201, KC202]\n"));
    assert_non_null(strstr(r.out, "  KC201.max-trip-count: 48\n"));
    assert_non_null(strstr(r.out, "  arch: sm_80\n"));
    assert_non_null(strstr(r.out, inc));
    /* The dump is a configuration that gives the same settings. */
    kh_write("dump2/again.yaml", r.out);
    kh_result r2 = kh_run("--config", "dump2/again.yaml", "--dump-config", "dump/legacy/k.cu", NULL);
    assert_int_equal(r2.status, 0);
    char *a = without_comments(strstr(r.out, "select:")), *b = without_comments(strstr(r2.out, "select:"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    kh_result_free(&r2);
    kh_result_free(&r);
    /* the command line wins */
    r = kh_run("--dump-config", "--cuda-arch", "sm_90", "--select", "KC101,KC202", "dump/legacy/k.cu", NULL);
    assert_non_null(strstr(r.out, "select: [KC202]\n")); /* the override's ignore holds */
    assert_non_null(strstr(r.out, "  arch: sm_90\n"));
    kh_result_free(&r);
    /* a path that does not exist yet: its directory's configuration */
    r = kh_run("--dump-config", "--select", "KC101,KC202", "dump/new/k.cu", NULL);
    assert_non_null(strstr(r.out, from));
    assert_non_null(strstr(r.out, "select: [KC101, KC202]\n"));
    assert_non_null(strstr(r.out, "  arch: sm_80\n"));
    kh_result_free(&r);
    /* without a path: the working directory (no configuration here) */
    r = kh_run("--dump-config", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "# configuration file: none"));
    kh_result_free(&r);
    free(abs);
    free(from);
    free(inc);
}

static void expect_config_error(const char *yaml, const char *message)
{
    kh_write("err/.kcheck.yaml", yaml);
    kh_write("err/k.py", bad_py);
    kh_result r = kh_run("err/k.py", "clean.py", NULL);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, ""); /* nothing checked, nothing printed */
    if (!strstr(r.err, message))
        fail_msg("expected '%s' in: %s", message, r.err);
    kh_result_free(&r);
}

static void test_config_errors(void **state)
{
    char *abs = realpath(".", NULL);
    char *where = kc_xasprintf("%s/err/.kcheck.yaml:2:", abs);
    expect_config_error("select: [KC1]\nignore: [KC999]\n", where);
    expect_config_error("select: [KC1]\nignore: [KC999]\n", "error: unknown rule 'KC999' in 'ignore'");
    expect_config_error("selct: [KC1]\n", ".kcheck.yaml:1:1: error: unknown key 'selct'");
    expect_config_error("options:\n  KC201.max-trip-count: lots\n",
                        ".kcheck.yaml:2:3: error: KC201.max-trip-count expects an integer, got 'lots'");
    expect_config_error("options: {KC201.nope: 3}\n", "error: KC201 has no option 'nope'");
    expect_config_error("overrides:\n  - ignore: [KC101]\n", ".kcheck.yaml:2:5: error: an override needs 'files'");
    expect_config_error("select: [KC1\n", ".kcheck.yaml:2:1: error: YAML: did not find expected ',' or ']'");
    expect_config_error("select: [KC1]\nselect: [KC2]\n", ".kcheck.yaml:2:1: error: duplicate key 'select'");
    expect_config_error("cuda: {toolkit: maybe}\n", "error: 'cuda.toolkit' expects true or false");
    expect_config_error("cuda: {arch: 80}\n", "error: 'cuda.arch' expects an architecture such as sm_80");
    expect_config_error("- a\n- b\n", ".kcheck.yaml:1:1: error: a .kcheck.yaml is a mapping");
    unlink("err/.kcheck.yaml");
    /* --config with a file that does not exist */
    kh_result r = kh_run("--config", "nope.yaml", "bad.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "nope.yaml: error: cannot open"));
    kh_result_free(&r);
    free(where);
    free(abs);
}

/* ---- baseline -------------------------------------------------------------------- */

static void test_baseline_line_moves(void **state)
{
    kh_write("bl/k.py", bad_py);
    kh_result r = kh_run("--select", "KC202", "--write-baseline", "bl/base.json", "bl/k.py", NULL);
    assert_int_equal(r.status, 0); /* the findings are in the baseline now */
    assert_non_null(strstr(r.err, "wrote 1 finding to the baseline bl/base.json"));
    kh_result_free(&r);
    char *text = kh_read("bl/base.json");
    assert_non_null(strstr(text, "\"rule\": \"KC202\""));
    assert_non_null(strstr(text, "\"file\": \"bl/k.py\""));
    free(text);
    r = kh_run("--select", "KC202", "--baseline", "bl/base.json", "bl/k.py", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kcheck: no findings (1 file checked, 1 in the baseline)"));
    kh_result_free(&r);

    /* Lines inserted above and the finding moved: still hidden. */
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "# a comment\n\n\nimport os\n");
    kc_sb_append(&sb, bad_py);
    kh_write("bl/k.py", sb.data);
    r = kh_run("--select", "KC202", "--baseline", "bl/base.json", "bl/k.py", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1 in the baseline"));
    kh_result_free(&r);
    /* A second, identical finding is new: reported, and it fails. */
    kc_sb_append(&sb, "    for s in tl.static_range(0, N, B):\n"
                      "        tl.store(x_ptr + s + tl.arange(0, B), 0)\n");
    kh_write("bl/k.py", sb.data);
    kc_sb_free(&sb);
    r = kh_run("--no-source", "--select", "KC202", "--baseline", "bl/base.json", "bl/k.py", NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(count(r.out, "[KC202 static-range-runtime-bound]"), 1);
    assert_non_null(strstr(r.out, "bl/k.py:11:33: error:"));
    assert_non_null(strstr(r.out, "1 in the baseline"));
    kh_result_free(&r);
    /* The same path spelt differently is the same file. */
    r = kh_run("--select", "KC202", "--baseline", "bl/base.json", "./bl/../bl/k.py", NULL);
    assert_int_equal(count(r.out, "[KC202 static-range-runtime-bound]"), 1);
    kh_result_free(&r);
    /* A bad baseline is an error. */
    kh_write("bl/bad.json", "{\"version\": 1, \"findings\": [{\"fingerprint\": \"xyz\"}]}");
    r = kh_run("--baseline", "bl/bad.json", "bl/k.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no valid \"fingerprint\""));
    kh_result_free(&r);
    r = kh_run("--baseline", "bl/missing.json", "bl/k.py", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
}

/* ---- --fix and --diff ------------------------------------------------------------- */

static bool copy_file(const char *from, const char *to)
{
    char *data = kh_read(from);
    if (!data)
        return false;
    kh_write(to, data);
    free(data);
    return true;
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct edit_lines {
    KC_VEC(uint32_t) lines;
} edit_lines;

/* The diagnostics of `rule` in `path` as JSON; *fixable counts those with
 * a fix-it and `lines` collects the lines their edits touch. */
static json_t *findings(const char *rule, const char *path, size_t *fixable, edit_lines *lines)
{
    kh_result r = kh_run("--format", "json", "--severity", "note", "--select", rule, "--no-config", path, NULL);
    json_t *doc = json_loads(r.out, 0, NULL);
    if (!doc)
        fail_msg("%s: no JSON (%s)", path, r.err);
    kh_result_free(&r);
    json_t *diags = json_incref(json_object_get(doc, "diagnostics"));
    json_decref(doc);
    *fixable = 0;
    size_t i;
    json_t *d;
    json_array_foreach(diags, i, d)
    {
        json_t *fix = json_object_get(d, "fix");
        json_t *edits = json_object_get(fix, "edits");
        if (!json_array_size(edits))
            continue;
        ++*fixable;
        size_t k;
        json_t *e;
        json_array_foreach(edits, k, e)
        {
            for (json_int_t l = json_integer_value(json_object_get(e, "line"));
                 l <= json_integer_value(json_object_get(e, "end_line")); l++)
                if (lines)
                    kc_vec_push(&lines->lines, (uint32_t)l);
        }
    }
    return diags;
}

static bool has_line(const edit_lines *l, uint32_t ln)
{
    for (uint32_t i = 0; i < l->lines.len; i++)
        if (l->lines.data[i] == ln)
            return true;
    return false;
}

/* From the unified diff of a to b: the old line numbers removed, and the
 * old line numbers before which lines were inserted. */
static void diff_lines(const char *a, const char *b, edit_lines *removed, edit_lines *inserted)
{
    kc_strbuf sb = {0};
    if (!kc_diff_unified(&sb, "x", a, strlen(a), b, strlen(b)))
        return;
    uint32_t old_ln = 0;
    for (const char *p = sb.data; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (strncmp(p, "@@ -", 4) == 0)
            old_ln = (uint32_t)strtoul(p + 4, NULL, 10);
        else if (strncmp(p, "---", 3) == 0 || strncmp(p, "+++", 3) == 0 || *p == '\\')
            ;
        else if (*p == '-')
            kc_vec_push(&removed->lines, old_ln++);
        else if (*p == '+')
            kc_vec_push(&inserted->lines, old_ln);
        else if (*p == ' ')
            old_ln++;
        p += n + (e != NULL);
    }
    kc_sb_free(&sb);
}

/* Every bad fixture of every rule, notes included: --fix changes exactly the lines of the
 * fix-its, the fixed file re-checks with no fixable finding of that rule,
 * the findings without a fix-it remain, and --diff is the same change. */
static void test_fix_fixtures(void **state)
{
    char *fixtures = kc_xasprintf("%s/tests/fixtures", KC_SOURCE_DIR);
    DIR *d = opendir(fixtures);
    assert_non_null(d);
    KC_VEC(char *) dirs = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "KC", 2) == 0)
            kc_vec_push(&dirs, kc_xstrdup(e->d_name));
    closedir(d);
    qsort(dirs.data, dirs.len, sizeof *dirs.data, name_cmp);
    size_t files_fixed = 0;
    for (uint32_t di = 0; di < dirs.len; di++) {
        char rule[6];
        memcpy(rule, dirs.data[di], 5);
        rule[5] = '\0';
        char *dir = kc_xasprintf("%s/%s", fixtures, dirs.data[di]);
        DIR *dd = opendir(dir);
        assert_non_null(dd);
        while ((e = readdir(dd)) != NULL) {
            size_t nl = strlen(e->d_name);
            if (strncmp(e->d_name, "bad_", 4) != 0 || (nl > 6 && strcmp(e->d_name + nl - 6, ".fixed") == 0))
                continue;
            char *from = kc_xasprintf("%s/%s", dir, e->d_name);
            char *a = kc_xasprintf("fix/%s/a/%s", rule, e->d_name); /* --fix */
            char *b = kc_xasprintf("fix/%s/b/%s", rule, e->d_name); /* --diff, then patch */
            assert_true(copy_file(from, a));
            assert_true(copy_file(from, b));
            size_t fixable = 0, after_fixable = 0, unused;
            edit_lines el = {0};
            json_t *before = findings(rule, a, &fixable, &el);
            char *old = kh_read(a);
            kh_result r = kh_run("--fix", "--severity", "note", "--select", rule, "--no-config", "--no-source", a, NULL);
            assert_true(r.status <= 1);
            char *now = kh_read(a);
            /* The fixed text is pinned next to the fixture (NAME.fixed, the
             * file after `kcheck --fix --select RULE`), like clang-tidy's
             * CHECK-FIXES: a fix-it that starts producing other text fails.
             * KCHECK_UPDATE_FIXED=1 rewrites the pins (review the diff). */
            char *pin = kc_xasprintf("%s.fixed", from);
            if (fixable) {
                files_fixed++;
                assert_non_null(strstr(r.out, "kcheck: fixed "));
                if (getenv("KCHECK_UPDATE_FIXED"))
                    kh_write(pin, now);
                if (access(pin, R_OK) != 0)
                    fail_msg("%s has fix-its: pin the fixed text in %s (KCHECK_UPDATE_FIXED=1)", from, pin);
                char *want = kh_read(pin);
                if (strcmp(want, now) != 0)
                    fail_msg("%s: --fix no longer gives %s:\n%s", from, pin, now);
                free(want);
            } else {
                assert_string_equal(old, now);
                if (access(pin, F_OK) == 0)
                    fail_msg("%s has no fix-it, but %s pins one", from, pin);
            }
            free(pin);
            /* Exactly the lines of the edits changed: the old lines the
             * diff removes are edit lines, and every edit line was removed
             * or has an insertion right before or after it. */
            edit_lines removed = {0}, inserted = {0};
            diff_lines(old, now, &removed, &inserted);
            for (uint32_t k = 0; k < removed.lines.len; k++)
                if (!has_line(&el, removed.lines.data[k]))
                    fail_msg("%s: line %u changed but no fix-it touches it", a, removed.lines.data[k]);
            for (uint32_t k = 0; k < el.lines.len; k++) {
                uint32_t ln = el.lines.data[k];
                if (!has_line(&removed, ln) && !has_line(&inserted, ln) && !has_line(&inserted, ln + 1))
                    fail_msg("%s: line %u has a fix-it but did not change", a, ln);
            }
            kc_vec_free(&removed.lines);
            kc_vec_free(&inserted.lines);
            /* Re-checks clean of fixable findings; the others remain. */
            json_t *after = findings(rule, a, &after_fixable, NULL);
            if (after_fixable)
                fail_msg("%s: %zu findings with fix-its remain after --fix", a, after_fixable);
            assert_int_equal(json_array_size(after), json_array_size(before) - fixable);
            json_decref(after);
            json_decref(before);
            kh_result_free(&r);
            /* --diff leaves the file alone; its patch gives the same text. */
            r = kh_run("--diff", "--severity", "note", "--select", rule, "--no-config", b, NULL);
            assert_int_equal(r.status, fixable ? 1 : 0);
            char *b_now = kh_read(b);
            assert_string_equal(b_now, old);
            free(b_now);
            if (fixable) {
                kh_write("fix/patch.diff", r.out);
                assert_int_equal(system("patch -s -p1 < fix/patch.diff"), 0);
                b_now = kh_read(b);
                assert_string_equal(b_now, now);
                free(b_now);
            } else {
                assert_string_equal(r.out, "");
            }
            kh_result_free(&r);
            (void)unused;
            kc_vec_free(&el.lines);
            free(old);
            free(now);
            free(from);
            free(a);
            free(b);
        }
        closedir(dd);
        free(dir);
        free(dirs.data[di]);
    }
    kc_vec_free(&dirs);
    free(fixtures);
    assert_true(files_fixed >= 4); /* KC201 and KC202 fixtures at least */
}

/* What the KC304 fix-its produce, as text: a product that initializes a
 * 32-bit variable gets the variable widened too (a cast alone would be
 * narrowed straight back), and a declaration that cannot be rewritten
 * mechanically gets no edit at all. */
static void test_fix_widens_declaration(void **state)
{
    (void)state;
    kh_write("fixwiden/k.cu", "__global__ void k(float *x, const float *y, int n, int stride) {\n"
                              "    int row = blockIdx.x * stride;\n"
                              "    const unsigned col = blockIdx.y * n;\n"
                              "    x[row + threadIdx.x] = y[col + threadIdx.x];\n"
                              "}\n");
    kh_result r = kh_run("--fix", "--severity", "note", "--select", "KC304", "--no-config", "--no-cache",
                         "fixwiden/k.cu", NULL);
    assert_non_null(strstr(r.out, "kcheck: fixed 2"));
    kh_result_free(&r);
    char *now = kh_read("fixwiden/k.cu");
    assert_string_equal(now, "__global__ void k(float *x, const float *y, int n, int stride) {\n"
                             "    int64_t row = (int64_t)blockIdx.x * stride;\n"
                             "    const uint64_t col = (int64_t)blockIdx.y * n;\n"
                             "    x[row + threadIdx.x] = y[col + threadIdx.x];\n"
                             "}\n");
    free(now);
    r = kh_run("--format", "json", "--severity", "note", "--select", "KC304", "--no-config", "--no-cache",
               "fixwiden/k.cu", NULL);
    assert_int_equal(r.status, 0); /* nothing left to report */
    kh_result_free(&r);
    /* int a = ..., b = blockIdx.x * n: the second declarator's type is shared */
    kh_write("fixwiden/m.cu", "__global__ void m(float *x, int n) {\n"
                              "    int a = 0, row = blockIdx.x * n;\n"
                              "    x[row + a + threadIdx.x] = 0.f;\n"
                              "}\n");
    r = kh_run("--format", "json", "--severity", "note", "--select", "KC304", "--no-config", "--no-cache",
               "fixwiden/m.cu", NULL);
    assert_non_null(strstr(r.out, "KC304"));
    assert_null(strstr(r.out, "\"edits\""));
    kh_result_free(&r);
    /* int row; ... row = blockIdx.x * n: the declaration may hold other values, advice only */
    kh_write("fixwiden/a.cu", "__global__ void a(float *x, int n) {\n"
                              "    int row;\n"
                              "    row = blockIdx.x * n;\n"
                              "    x[row + threadIdx.x] = 0.f;\n"
                              "}\n");
    r = kh_run("--format", "json", "--severity", "note", "--select", "KC304", "--no-config", "--no-cache",
               "fixwiden/a.cu", NULL);
    assert_non_null(strstr(r.out, "declare `int row` (line 2) with a 64-bit type (`int64_t`)"));
    assert_null(strstr(r.out, "\"edits\""));
    kh_result_free(&r);
}

/* Verify bindings kcheck cannot read are input errors at their lines
 * (exit 2), not inconclusive verdicts that pass the run. */
static void test_verify_binding_mistakes(void **state)
{
    (void)state;
    kh_write("vbind/k.py", "import triton\nimport triton.language as tl\n\n"
                           "# kcheck: verify op=softmaxx call=\"k[(1,)](x, y, n, BLOCK=1024)\"\n"
                           "@triton.jit\n"
                           "def k(x, y, n, BLOCK: tl.constexpr):\n"
                           "    o = tl.arange(0, BLOCK)\n"
                           "    tl.store(y + o, tl.load(x + o, mask=o < n), mask=o < n)\n\n"
                           "# kcheck: verify op=softmax_rows colour=red call=\"k2[(1,)](x)\"\n"
                           "@triton.jit\n"
                           "def k2(x):\n"
                           "    tl.store(x, 0)\n");
    kh_result r = kh_run("verify", "--no-run", "--no-config", "--fail-on", "error", "vbind/k.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "k.py:4:1: error: `kcheck: verify` binding names the unknown op `softmaxx` "
                                  "(bundled ops: "));
    assert_non_null(strstr(r.out, "softmax_rows"));
    assert_non_null(strstr(r.out, "k.py:10:1: error: malformed `kcheck: verify` binding: unknown key 'colour'"));
    assert_null(strstr(r.out, ":-1:"));
    assert_null(strstr(r.err, ":-1:"));
    kh_result_free(&r);
    /* an op is a name, not a path */
    kh_write("vbind/p.py", "import triton\nimport triton.language as tl\n\n"
                           "# kcheck: verify op=../ops/softmax_rows call=\"k[(1,)](x)\"\n"
                           "@triton.jit\n"
                           "def k(x):\n"
                           "    tl.store(x, 0)\n");
    r = kh_run("verify", "--no-run", "--no-config", "vbind/p.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "unknown op `../ops/softmax_rows`"));
    kh_result_free(&r);
}

/* A cached result is not reused once a file it depends on changes: a
 * header found through -I, one it includes (nested, <...>), the compile
 * database the flags come from. Each change flips a KC501 finding. */
static void test_cache_dependencies(void **state)
{
    (void)state;
    setenv("KCHECK_CACHE_DIR", "cachedeps/cache", 1);
    kh_write("cachedeps/inc/a.h", "#include \"sub/b.h\"\n");
    kh_write("cachedeps/inc/sub/b.h", "#define SCALE 2.0\n");
    kh_write("cachedeps/k.cu", "#include <a.h>\n"
                               "__global__ void k(float *x, int n) {\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < n) x[i] = x[i] * SCALE;\n"
                               "}\n");
    kh_result r = kh_run("--no-config", "cachedeps/k.cu", "--", "-Icachedeps/inc", NULL);
    assert_int_equal(r.status, 1); /* 2.0 in float code */
    kh_result_free(&r);
    kh_write("cachedeps/inc/sub/b.h", "#define SCALE 2.0f\n"); /* same size would do: identity, not length */
    r = kh_run("--no-config", "cachedeps/k.cu", "--", "-Icachedeps/inc", NULL);
    assert_int_equal(r.status, 0); /* the nested header changed: not the cached warning */
    kh_result_free(&r);
    /* the flags from compile_commands.json */
    char *cwd = getcwd(NULL, 0);
    char *db = kc_xasprintf("[{\"directory\": \"%s/cachedeps\", \"file\": \"k2.cu\", "
                            "\"arguments\": [\"clang++\", \"-DSCALE=2.0\", \"-c\", \"k2.cu\"]}]\n",
                            cwd);
    kh_write("cachedeps/compile_commands.json", db);
    kh_write("cachedeps/k2.cu", "__global__ void k(float *x, int n) {\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i < n) x[i] = x[i] * SCALE;\n"
                                "}\n");
    r = kh_run("--no-config", "-p", "cachedeps", "cachedeps/k2.cu", NULL);
    assert_int_equal(r.status, 1);
    kh_result_free(&r);
    char *db2 = kc_xasprintf("[{\"directory\": \"%s/cachedeps\", \"file\": \"k2.cu\", "
                             "\"arguments\": [\"clang++\", \"-DSCALE=2.0f\", \"-c\", \"k2.cu\"]}]\n",
                             cwd);
    kh_write("cachedeps/compile_commands.json", db2);
    r = kh_run("--no-config", "-p", "cachedeps", "cachedeps/k2.cu", NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    free(db);
    free(db2);
    /* CMake 3.25+ passes CUDA include directories to nvcc in a response
     * file (`--options-file CMakeFiles/<t>.dir/includes_CUDA.rsp`, quoted
     * paths): read, and a dependency of the cached result */
    kh_write("cachedeps/rsp/inc/scale.h", "#define SCALE 2.0\n");
    kh_write("cachedeps/rsp/other/scale.h", "#define SCALE 2.0f\n");
    kh_write("cachedeps/rsp/k3.cu", "#include \"scale.h\"\n"
                                    "__global__ void k(float *x, int n) {\n"
                                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "    if (i < n) x[i] = x[i] * SCALE;\n"
                                    "}\n");
    char *rsp = kc_xasprintf("-I\"%s/cachedeps/rsp/inc\"\n", cwd);
    kh_write("cachedeps/rsp/build/CMakeFiles/k.dir/includes_CUDA.rsp", rsp);
    char *db3 = kc_xasprintf("[{\"directory\": \"%s/cachedeps/rsp/build\", \"file\": \"%s/cachedeps/rsp/k3.cu\", "
                             "\"command\": \"/usr/bin/nvcc -forward-unknown-to-host-compiler "
                             "--options-file CMakeFiles/k.dir/includes_CUDA.rsp -O3 -x cu -c %s/cachedeps/rsp/k3.cu "
                             "-o CMakeFiles/k.dir/k3.cu.o\"}]\n",
                             cwd, cwd, cwd);
    kh_write("cachedeps/rsp/build/compile_commands.json", db3);
    r = kh_run("--no-config", "-p", "cachedeps/rsp/build", "cachedeps/rsp/k3.cu", NULL);
    assert_int_equal(r.status, 1); /* scale.h found through the response file: 2.0 in float code */
    assert_non_null(strstr(r.out, "KC501"));
    kh_result_free(&r);
    char *rsp2 = kc_xasprintf("-I\"%s/cachedeps/rsp/other\"\n", cwd);
    kh_write("cachedeps/rsp/build/CMakeFiles/k.dir/includes_CUDA.rsp", rsp2);
    r = kh_run("--no-config", "-p", "cachedeps/rsp/build", "cachedeps/rsp/k3.cu", NULL);
    assert_int_equal(r.status, 0); /* the response file changed */
    kh_result_free(&r);
    free(rsp);
    free(rsp2);
    free(db3);
    free(cwd);
    unsetenv("KCHECK_CACHE_DIR");
}

/* A kernel file's findings do not depend on which other files the run
 * names: the file that launches it is found in the repository (pre-commit
 * gives only the changed files, an editor one). */
static void test_batch_independence(void **state)
{
    (void)state;
    kh_write("batch/pkg/kern.py", "import triton\nimport triton.language as tl\n\n\n"
                                  "@triton.jit\n"
                                  "def row_copy(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):\n"
                                  "    row = tl.program_id(0)\n"
                                  "    cols = tl.arange(0, BLOCK)\n"
                                  "    v = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols)\n"
                                  "    tl.store(y_ptr + row * stride + cols, v, mask=cols < n_cols)\n");
    kh_write("batch/pkg/launch.py", "import torch\nimport triton\nfrom .kern import row_copy\n\n\n"
                                    "def copy_rows(x):\n"
                                    "    x = x.view(-1, x.shape[-1])\n"
                                    "    y = torch.empty_like(x)\n"
                                    "    n_rows, n_cols = x.shape\n"
                                    "    row_copy[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=1024)\n"
                                    "    return y\n");
    kh_write("batch/pkg/__init__.py", "");
    kh_result alone = kh_run("--no-config", "--no-cache", "--format", "json", "batch/pkg/kern.py", NULL);
    kh_result both = kh_run("--no-config", "--no-cache", "--format", "json", "batch/pkg/kern.py",
                            "batch/pkg/launch.py", NULL);
    assert_int_equal(alone.status, 1);
    assert_int_equal(both.status, 1);
    json_t *a = json_loads(alone.out, 0, NULL), *b = json_loads(both.out, 0, NULL);
    assert_non_null(a);
    assert_non_null(b);
    json_t *da = json_object_get(a, "diagnostics"), *db = json_object_get(b, "diagnostics");
    assert_int_equal(json_array_size(da), 2); /* the two row offsets, warnings by launch.py's flattened rows */
    assert_int_equal(json_array_size(da), json_array_size(db));
    for (size_t i = 0; i < json_array_size(da); i++) {
        json_t *x = json_array_get(da, i), *y = json_array_get(db, i);
        assert_string_equal(json_string_value(json_object_get(x, "message")),
                            json_string_value(json_object_get(y, "message")));
        assert_int_equal(json_integer_value(json_object_get(x, "line")), json_integer_value(json_object_get(y, "line")));
    }
    json_decref(a);
    json_decref(b);
    kh_result_free(&alone);
    kh_result_free(&both);
}

static void test_fix_safety(void **state)
{
    /* A file that does not parse is never written: byte-identical. */
    static const char broken[] = "import triton\ndef (:\n    for s in tl.static_range(0, N, B):\n";
    kh_write("safe/broken.py", broken);
    struct stat st0, st1;
    assert_int_equal(stat("safe/broken.py", &st0), 0);
    kh_result r = kh_run("--fix", "safe/broken.py", NULL);
    assert_int_equal(r.status, 2);
    char *now = kh_read("safe/broken.py");
    assert_string_equal(now, broken);
    free(now);
    assert_int_equal(stat("safe/broken.py", &st1), 0);
    assert_int_equal(st0.st_ino, st1.st_ino); /* not even rewritten */
    kh_result_free(&r);

    /* The mode is kept; the file is replaced (new inode), nothing left over. */
    kh_write("safe/k.py", bad_py);
    chmod("safe/k.py", 0640);
    r = kh_run("--fix", "--select", "KC202", "safe/k.py", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kcheck: fixed 1 finding in 1 file\nkcheck: no findings (1 file checked)\n"));
    kh_result_free(&r);
    assert_int_equal(stat("safe/k.py", &st1), 0);
    assert_int_equal(st1.st_mode & 07777, 0640);
    now = kh_read("safe/k.py");
    assert_non_null(strstr(now, "    for s in tl.range(0, N, B):\n"));
    free(now);
    DIR *d = opendir("safe");
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        assert_null(strstr(e->d_name, "kcheck-")); /* no temporary file left */
    closedir(d);

    /* Through a symlink: the target is fixed, the link stays a link. */
    kh_write("safe/target.py", bad_py);
    assert_int_equal(symlink("target.py", "safe/link.py"), 0);
    r = kh_run("--fix", "--select", "KC202", "safe/link.py", NULL);
    assert_int_equal(r.status, 0);
    kh_result_free(&r);
    struct stat lst;
    assert_int_equal(lstat("safe/link.py", &lst), 0);
    assert_true(S_ISLNK(lst.st_mode));
    now = kh_read("safe/target.py");
    assert_non_null(strstr(now, "tl.range(0, N, B)"));
    free(now);

    /* A file that changed since it was read is not written. */
    kh_write("safe/race.py", bad_py);
    kc_file_stamp stamp;
    assert_true(kc_file_stamp_take("safe/race.py", &stamp));
    stamp.hash = kc_hash_bytes(bad_py, strlen(bad_py));
    kh_write("safe/race.py", clean_py); /* someone else's edit */
    char *err = NULL;
    assert_false(kc_file_replace("safe/race.py", &stamp, "x\n", 2, &err));
    assert_non_null(strstr(err, "changed since kcheck read it"));
    free(err);
    now = kh_read("safe/race.py");
    assert_string_equal(now, clean_py);
    free(now);
    /* ... and one that did not is */
    assert_true(kc_file_stamp_take("safe/race.py", &stamp));
    stamp.hash = kc_hash_bytes(clean_py, strlen(clean_py));
    assert_true(kc_file_replace("safe/race.py", &stamp, "x\n", 2, &err));
    now = kh_read("safe/race.py");
    assert_string_equal(now, "x\n");
    free(now);

    /* A read-only file, and a file with another name (a hard link), are
     * refused with a reason: a fix would make one writable and split the
     * other. */
    kh_write("safe/ro.py", bad_py);
    chmod("safe/ro.py", 0444);
    r = kh_run("--fix", "--select", "KC202", "safe/ro.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "safe/ro.py: error: the file is read-only; not fixed [input]"));
    kh_result_free(&r);
    now = kh_read("safe/ro.py");
    assert_string_equal(now, bad_py);
    free(now);
    kh_write("safe/linked.py", bad_py);
    assert_int_equal(link("safe/linked.py", "safe/other-name.py"), 0);
    r = kh_run("--fix", "--select", "KC202", "safe/linked.py", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "the file has 2 hard links, which a fix would split; not fixed [input]"));
    kh_result_free(&r);
    now = kh_read("safe/other-name.py");
    assert_string_equal(now, bad_py);
    free(now);
    /* Another user's file: refused (the suite runs as root in CI, which
     * could write it; elsewhere the chown fails and this part is skipped). */
    kh_write("safe/theirs.py", bad_py);
    if (chown("safe/theirs.py", 65534, 65534) == 0) {
        r = kh_run("--fix", "--select", "KC202", "safe/theirs.py", NULL);
        assert_int_equal(r.status, 2);
        kh_expect_in(r.out, "the file belongs to another user (uid 65534); not fixed (--fix-any-owner fixes it) [input]");
        kh_result_free(&r);
        now = kh_read("safe/theirs.py");
        assert_string_equal(now, bad_py);
        free(now);
        r = kh_run("--fix", "--fix-any-owner", "--select", "KC202", "safe/theirs.py", NULL);
        assert_int_equal(r.status, 0);
        kh_result_free(&r);
        struct stat ts;
        assert_int_equal(stat("safe/theirs.py", &ts), 0);
        assert_int_equal(ts.st_uid, 65534); /* fixed, and still theirs */
    }

    /* --diff never writes; its exit status says whether there is a fix. */
    r = kh_run("--diff", "--select", "KC202", "bad.py", "clean.py", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "--- a/bad.py\n+++ b/bad.py\n@@ -2,5 +2,5 @@\n"));
    assert_non_null(strstr(r.out, "\n-    for s in tl.static_range(0, N, B):\n+    for s in tl.range(0, N, B):\n"));
    assert_non_null(strstr(r.err, "kcheck: would fix 1 finding in 1 file"));
    kh_result_free(&r);
    now = kh_read("bad.py");
    assert_string_equal(now, bad_py);
    free(now);
    r = kh_run("--diff", "clean.py", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    kh_result_free(&r);
    r = kh_run("--diff", "--format", "json", "bad.py", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
}

static void test_unified_diff(void **state)
{
    kc_strbuf sb = {0};
    const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\nlast";
    const char *b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\nlast\n";
    assert_true(kc_diff_unified(&sb, "d.txt", a, strlen(a), b, strlen(b)));
    assert_string_equal(sb.data, "--- a/d.txt\n+++ b/d.txt\n"
                                 "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
                                 "@@ -14,4 +14,4 @@\n 14\n 15\n 16\n-last\n\\ No newline at end of file\n+last\n");
    kc_sb_free(&sb);
    assert_false(kc_diff_unified(&sb, "d.txt", a, strlen(a), a, strlen(a)));
    /* insertion at the top, deletion at the end */
    assert_true(kc_diff_unified(&sb, "e.txt", "x\ny\n", 4, "new\nx\n", 6));
    assert_string_equal(sb.data, "--- a/e.txt\n+++ b/e.txt\n@@ -1,2 +1,2 @@\n+new\n x\n-y\n");
    kc_sb_free(&sb);
}

/* ---- --severity, --quiet, --stats, exit codes --------------------------------- */

static void test_severity_quiet_stats(void **state)
{
    kh_write("sev/u.py", unroll_py); /* KC201: a warning */
    kh_result r = kh_run("--select", "KC201", "--severity", "error", "sev/u.py", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kcheck: no findings (1 file checked, 1 hidden by --severity)"));
    kh_result_free(&r);
    r = kh_run("--select", "KC201", "--fail-on", "error", "sev/u.py", NULL);
    assert_int_equal(r.status, 0); /* reported, but does not fail */
    assert_non_null(strstr(r.out, "kcheck: 1 warning (1 file)"));
    kh_result_free(&r);
    r = kh_run("--select", "KC201", "sev/u.py", NULL);
    assert_int_equal(r.status, 1);
    kh_result_free(&r);
    r = kh_run("--severity", "loud", "sev/u.py", NULL);
    assert_int_equal(r.status, 2);
    kh_result_free(&r);
    /* --quiet: nothing on success, no summary line otherwise */
    r = kh_run("--quiet", "clean.py", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    kh_result_free(&r);
    r = kh_run("-q", "--select", "KC202", "bad.py", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "bad.py:5:33: error:"));
    assert_null(strstr(r.out, "kcheck:"));
    kh_result_free(&r);
    /* --stats: per rule, files, time; on stderr for machine formats */
    r = kh_run("--stats", "--select", "KC201,KC202", "bad.py", "sev/u.py", "clean.py", NULL);
    assert_non_null(strstr(r.out, "kcheck statistics:\n"));
    assert_non_null(strstr(r.out, "       1  KC201  large-static-unroll          warning\n"));
    assert_non_null(strstr(r.out, "       1  KC202  static-range-runtime-bound   error\n"));
    assert_non_null(strstr(r.out, "files: 3 checked (0 analysed in part), 0 not checked; time: "));
    kh_result_free(&r);
    r = kh_run("--stats", "--format", "json", "--select", "KC202", "bad.py", NULL);
    json_t *doc = json_loads(r.out, 0, NULL);
    assert_non_null(doc);
    json_decref(doc);
    assert_non_null(strstr(r.err, "kcheck statistics:"));
    kh_result_free(&r);
}

/* ---- fingerprints, paths, install layout -------------------------------------- */

static void test_fingerprint_paths(void **state)
{
    char *n = kc_path_normalize("./a/../b//c.py");
    assert_string_equal(n, "b/c.py");
    free(n);
    char *cwd = getcwd(NULL, 0);
    char *abs = kc_xasprintf("%s/x/./y.py", cwd);
    n = kc_path_normalize(abs);
    assert_string_equal(n, "x/y.py");
    free(n);
    free(abs);
    free(cwd);
    n = kc_path_normalize("../up.py");
    assert_string_equal(n, "../up.py");
    free(n);
    n = kc_path_normalize("/elsewhere/../z.py");
    assert_string_equal(n, "/z.py");
    free(n);
    char hex[17];
    uint64_t back;
    kc_fingerprint_hex(0x0123456789abcdefULL, hex);
    assert_string_equal(hex, "0123456789abcdef");
    assert_true(kc_fingerprint_parse(hex, &back));
    assert_true(back == 0x0123456789abcdefULL);
    assert_false(kc_fingerprint_parse("0123", &back));
}

static void test_reference_dir_fallback(void **state)
{
    /* The installed directory next to the binary when there is one (even
     * where the source tree still exists), else the compiled-in one. */
    kh_mkdirs_for("prefix/bin/kcheck");
    kh_mkdirs_for("prefix/share/kcheck/reference/ops/x.json");
    char *here = realpath(".", NULL);
    char *exe = kc_xasprintf("%s/prefix/bin/kcheck", here);
    char *want = kc_xasprintf("%s/prefix/share/kcheck/reference", here);
    char *got = kc_verify_default_reference_dir("/nonexistent/kernels/reference", exe);
    assert_string_equal(got, want);
    free(got);
    got = kc_verify_default_reference_dir(here, exe);
    assert_string_equal(got, want);
    free(got);
    char *bare = kc_xasprintf("%s/prefix/kcheck", here); /* no ../share next to it */
    got = kc_verify_default_reference_dir(here, bare);
    assert_string_equal(got, here);
    free(got);
    free(bare);
    got = kc_verify_default_reference_dir("/nonexistent/ref", "/nonexistent/bin/kcheck");
    assert_string_equal(got, "/nonexistent/ref");
    free(got);
    free(here);
    free(exe);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sarif),
        cmocka_unit_test(test_github),
        cmocka_unit_test(test_concise),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_diff_base),
        cmocka_unit_test(test_repository_relative_paths),
        cmocka_unit_test(test_color),
        cmocka_unit_test(test_suppressions),
        cmocka_unit_test(test_config_walk_up),
        cmocka_unit_test(test_config_exclude_extend_pyproject),
        cmocka_unit_test(test_config_overrides_and_options),
        cmocka_unit_test(test_dump_config),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_baseline_line_moves),
        cmocka_unit_test(test_fix_fixtures),
        cmocka_unit_test(test_fix_widens_declaration),
        cmocka_unit_test(test_verify_binding_mistakes),
        cmocka_unit_test(test_cache_dependencies),
        cmocka_unit_test(test_batch_independence),
        cmocka_unit_test(test_fix_safety),
        cmocka_unit_test(test_unified_diff),
        cmocka_unit_test(test_severity_quiet_stats),
        cmocka_unit_test(test_fingerprint_paths),
        cmocka_unit_test(test_reference_dir_fallback),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
