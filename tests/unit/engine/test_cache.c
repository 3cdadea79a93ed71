/* The result cache: hits give the same findings, keys follow what the
 * analysis depends on, damaged entries are misses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kc_cache.h"
#include "kc_cli.h"
#include "cli_harness.h"

static char dir[64];

/* kcheck A B C D (up to the first NULL); returns stdout, the exit status in *STATUS. */
static char *run(const char *a, const char *b, const char *c, const char *d, int *status)
{
    kh_result r = kh_run(a, b, c, d, NULL);
    return kh_result_take_out(&r, status);
}

static int count_entries(const char *root)
{
    int n = 0;
    char *sub = kc_xasprintf("%s/results-1", root);
    DIR *d = opendir(sub);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p = kc_xasprintf("%s/%s", sub, e->d_name);
        DIR *d2 = opendir(p);
        struct dirent *e2;
        while (d2 && (e2 = readdir(d2)) != NULL)
            if (strstr(e2->d_name, ".json"))
                n++;
        if (d2)
            closedir(d2);
        free(p);
    }
    if (d)
        closedir(d);
    free(sub);
    return n;
}

static void test_second_run_reads_the_cache(void **state)
{
    char *cachearg = kc_xasprintf("--cache-dir=%s/c", dir);
    char *file = kc_xasprintf("%s/k.py", dir);
    FILE *f = fopen(file, "w");
    fputs("import triton\nimport triton.language as tl\n@triton.jit\ndef k(x_ptr, N, B: tl.constexpr):\n"
          "    for s in tl.static_range(0, N, B):\n        tl.store(x_ptr + s + tl.arange(0, B), 0)\n",
          f);
    fclose(f);
    int st1, st2;
    char *a = run(cachearg, "--select=KC202", file, NULL, &st1);
    char *cdir = kc_xasprintf("%s/c", dir);
    assert_int_equal(count_entries(cdir), 1);
    char *b = run(cachearg, "--select=KC202", file, NULL, &st2);
    assert_int_equal(st1, 1);
    assert_int_equal(st1, st2);
    assert_string_equal(a, b);
    assert_non_null(strstr(b, "KC202"));
    assert_int_equal(count_entries(cdir), 1);
    /* another rule selection is another key */
    free(b);
    b = run(cachearg, "--select=KC301", file, NULL, &st2);
    assert_int_equal(st2, 0);
    assert_int_equal(count_entries(cdir), 2);
    /* --no-cache writes nothing */
    free(b);
    char *nc = kc_xasprintf("--cache-dir=%s/none", dir);
    b = run(nc, "--no-cache", file, NULL, &st2);
    char *ndir = kc_xasprintf("%s/none", dir);
    assert_int_equal(count_entries(ndir), 0);
    free(a);
    free(b);
    free(nc);
    free(ndir);
    free(cdir);
    free(cachearg);
    free(file);
}

static void test_damaged_entry_is_a_miss(void **state)
{
    kc_options o;
    kc_options_init(&o);
    char *err = NULL;
    const char *text = "import triton\n";
    kc_source *src = kc_source_from_memory("t.py", text, strlen(text), 1 << 20, &err);
    kc_cache_key k = kc_cache_key_for(&o, src, KC_LANG_TRITON, NULL);
    char *cdir = kc_xasprintf("%s/d", dir);
    kc_diag_list diags = {0};
    kc_file_errors errs = {0};
    kc_kernel_ref_vec ks = {0};
    assert_true(kc_cache_store(cdir, k, &diags, &errs, &ks, NULL, 0, NULL));
    assert_true(kc_cache_load(cdir, k, &diags, &errs, &ks));
    /* the same bytes give the same key; other bytes another one */
    kc_cache_key k2 = kc_cache_key_for(&o, src, KC_LANG_TRITON, NULL);
    assert_true(k.lo == k2.lo && k.hi == k2.hi);
    kc_source *src2 = kc_source_from_memory("t.py", "import triton \n", 15, 1 << 20, &err);
    kc_cache_key k3 = kc_cache_key_for(&o, src2, KC_LANG_TRITON, NULL);
    assert_false(k.lo == k3.lo && k.hi == k3.hi);
    /* damage every entry: loads now miss */
    char *cmd = kc_xasprintf("find '%s' -name '*.json' -exec sh -c 'echo \"{broken\" > \"$1\"' _ {} \\;", cdir);
    assert_int_equal(system(cmd), 0);
    assert_false(kc_cache_load(cdir, k, &diags, &errs, &ks));
    assert_int_equal(diags.items.len, 0);
    free(cmd);
    free(cdir);
    kc_source_delete(src);
    kc_source_delete(src2);
    kc_options_free(&o);
}

/* What the file's repository says of it is part of the key: a build file
 * that no longer compiles it, or another list of target architectures (a
 * Makefile's `-arch` edited), gives another key, so the cached findings
 * (KC403's pre-Volta note) are not reused. */
static void test_repository_facts_in_key(void **state)
{
    (void)state;
    kc_options o;
    kc_options_init(&o);
    char *err = NULL;
    const char *text = "__global__ void k(float *x) { x[threadIdx.x] = 0.f; }\n";
    kc_source *src = kc_source_from_memory("k.cu", text, strlen(text), 1 << 20, &err);
    kc_peers none = {0}, old = {0}, newer = {0}, unbuilt = {0};
    old.build_arch_max = 60;
    old.build_archs = "sm_35, sm_60 (Makefile)";
    newer.build_arch_max = 80;
    newer.build_archs = "sm_60, sm_80 (Makefile)";
    unbuilt.unbuilt = "no build file of its repository compiles `k.cu`";
    kc_cache_key k0 = kc_cache_key_for(&o, src, KC_LANG_CUDA, &none);
    kc_cache_key k1 = kc_cache_key_for(&o, src, KC_LANG_CUDA, &old);
    kc_cache_key k2 = kc_cache_key_for(&o, src, KC_LANG_CUDA, &newer);
    kc_cache_key k3 = kc_cache_key_for(&o, src, KC_LANG_CUDA, &unbuilt);
    kc_cache_key k1b = kc_cache_key_for(&o, src, KC_LANG_CUDA, &old);
    assert_true(k1.lo == k1b.lo && k1.hi == k1b.hi);
    assert_false(k0.lo == k1.lo && k0.hi == k1.hi);
    assert_false(k1.lo == k2.lo && k1.hi == k2.hi);
    assert_false(k0.lo == k3.lo && k0.hi == k3.hi);
    kc_source_delete(src);
    kc_options_free(&o);
}

/* An entry is trusted only for the key it was stored under and only from
 * this user: another file's entry copied over it (two swapped entries),
 * or one a different user wrote into a shared cache directory, is a miss.
 * The planted entry says there is nothing to report; the real analysis,
 * run after the miss, reports KC202. */
static void test_foreign_entries_are_misses(void **state)
{
    char *cdir = kc_xasprintf("%s/f", dir);
    char *cachearg = kc_xasprintf("--cache-dir=%s", cdir);
    char *bad = kc_xasprintf("%s/bad.py", dir), *clean = kc_xasprintf("%s/clean.py", dir);
    kh_write(bad, "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x_ptr, N, B: tl.constexpr):\n"
                  "    for s in tl.static_range(0, N, B):\n        tl.store(x_ptr + s + tl.arange(0, B), 0)\n");
    kh_write(clean, "import triton\n");
    int st;
    free(run(cachearg, "--select=KC202", clean, NULL, &st));
    assert_int_equal(count_entries(cdir), 1);
    char *find = kc_xasprintf("find '%s' -name '*.json'", cdir);
    FILE *p = popen(find, "r");
    char clean_entry[1024] = "";
    assert_non_null(fgets(clean_entry, sizeof clean_entry, p));
    pclose(p);
    clean_entry[strcspn(clean_entry, "\n")] = '\0';
    free(run(cachearg, "--select=KC202", bad, NULL, &st));
    assert_int_equal(st, 1);
    /* the clean file's entry over the bad file's */
    char *swap = kc_xasprintf("for e in $(find '%s' -name '*.json'); do [ \"$e\" = '%s' ] || cp '%s' \"$e\"; done",
                              cdir, clean_entry, clean_entry);
    assert_int_equal(system(swap), 0);
    char *out = run(cachearg, "--select=KC202", bad, NULL, &st);
    assert_int_equal(st, 1);
    assert_non_null(strstr(out, "KC202"));
    free(out);
    /* an entry of another user (root can make one; others cannot test it) */
    if (geteuid() == 0) {
        char *chown_cmd = kc_xasprintf("find '%s' -name '*.json' -exec chown 4242 {} \\;", cdir);
        assert_int_equal(system(chown_cmd), 0);
        out = run(cachearg, "--select=KC202", clean, NULL, &st);
        assert_int_equal(st, 0);
        free(out);
        free(chown_cmd);
    }
    /* the cache's own directories are private */
    struct stat sb;
    assert_int_equal(stat(cdir, &sb), 0);
    assert_int_equal(sb.st_mode & 077, 0);
    free(swap);
    free(find);
    free(bad);
    free(clean);
    free(cachearg);
    free(cdir);
}

static int setup(void **state)
{
    return kh_tmpdir_make(dir, sizeof dir, "cache") ? 0 : -1;
}

static int teardown(void **state)
{
    return kh_tmpdir_remove(dir) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_run_reads_the_cache),
        cmocka_unit_test(test_damaged_entry_is_a_miss),
        cmocka_unit_test(test_repository_facts_in_key),
        cmocka_unit_test(test_foreign_entries_are_misses),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
