/* kc_file.h: the one way kcheck replaces a file (fixed sources, baselines,
 * result-cache entries, precompiled headers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kc_file.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kcheck-test-file-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = kc_xasprintf("chmod -R u+w '%s' && rm -rf '%s'", dir, dir);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? 0 : -1;
}

static size_t entries(void)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static void test_temp_names_are_unique(void **state)
{
    (void)state;
    char *target = kc_xasprintf("%s/entry.json", dir), *err = NULL;
    int a, b;
    char *ta = kc_file_temp_next_to(target, &a, &err), *tb = kc_file_temp_next_to(target, &b, &err);
    assert_non_null(ta);
    assert_non_null(tb);
    assert_string_not_equal(ta, tb);
    assert_non_null(strstr(ta, "/.entry.json.kcheck-"));
    struct stat sa;
    assert_int_equal(fstat(a, &sa), 0);
    assert_int_equal(sa.st_mode & 0777, 0600);
    close(a);
    close(b);
    unlink(ta);
    unlink(tb);
    free(ta);
    free(tb);
    free(target);
}

static void test_replace_writes_and_leaves_no_temporary(void **state)
{
    (void)state;
    char *target = kc_xasprintf("%s/f.txt", dir), *err = NULL;
    kc_file_how how = {.mode = 0640, .durable = true};
    assert_true(kc_file_write_replace(target, "one\n", 4, &how, &err));
    assert_true(kc_file_write_replace(target, "two\n", 4, &how, &err));
    char *data;
    size_t len;
    assert_true(kc_read_all(target, &data, &len));
    assert_string_equal(data, "two\n");
    struct stat sb;
    assert_int_equal(stat(target, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0640);
    assert_int_equal(entries(), 1);
    free(data);
    unlink(target);
    free(target);
}

/* A symbolic link in place of the target is replaced, not followed. */
static void test_replace_does_not_follow_a_link(void **state)
{
    (void)state;
    char *victim = kc_xasprintf("%s/victim", dir), *target = kc_xasprintf("%s/link", dir), *err = NULL;
    FILE *f = fopen(victim, "w");
    fputs("keep\n", f);
    fclose(f);
    assert_int_equal(symlink(victim, target), 0);
    kc_file_how how = {.mode = 0644};
    assert_true(kc_file_write_replace(target, "new\n", 4, &how, &err));
    char *data;
    size_t len;
    assert_true(kc_read_all(victim, &data, &len));
    assert_string_equal(data, "keep\n");
    free(data);
    struct stat sb;
    assert_int_equal(lstat(target, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    unlink(victim);
    unlink(target);
    free(victim);
    free(target);
}

/* Where the temporary file cannot be made (here: its directory is gone;
 * a full disk or a read-only directory take the same path), nothing is
 * written and the reason is said. */
static void test_replace_fails_cleanly(void **state)
{
    (void)state;
    char *target = kc_xasprintf("%s/missing/f", dir), *err = NULL;
    kc_file_how how = {.mode = 0644};
    assert_false(kc_file_write_replace(target, "new\n", 4, &how, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot create a temporary file"));
    assert_int_equal(entries(), 0);
    free(err);
    free(target);
}

static bool changed_meanwhile(void *ud, char **err)
{
    (*(int *)ud)++;
    *err = kc_xstrdup("changed meanwhile");
    return false;
}

/* The last check before the rename says no (an editor saved the file while
 * the new text was written): the target keeps its text, nothing is left. */
static void test_replace_asks_before_the_rename(void **state)
{
    (void)state;
    char *target = kc_xasprintf("%s/f.txt", dir), *err = NULL;
    kc_file_how plain = {.mode = 0644};
    assert_true(kc_file_write_replace(target, "saved\n", 6, &plain, &err));
    int asked = 0;
    kc_file_how how = {.mode = 0644, .still_ok = changed_meanwhile, .ud = &asked};
    assert_false(kc_file_write_replace(target, "fixed\n", 6, &how, &err));
    assert_int_equal(asked, 1);
    assert_string_equal(err, "changed meanwhile");
    free(err);
    char *data;
    size_t len;
    assert_true(kc_read_all(target, &data, &len));
    assert_string_equal(data, "saved\n");
    assert_int_equal(entries(), 1);
    free(data);
    unlink(target);
    free(target);
}

typedef struct writer {
    const char *target;
    int ok;
} writer;

static void *write_many(void *arg)
{
    writer *w = arg;
    kc_file_how how = {.mode = 0644};
    for (int i = 0; i < 200; i++) {
        char *err = NULL;
        w->ok += kc_file_write_replace(w->target, "{\"same\": true}\n", 15, &how, &err);
        free(err);
    }
    return NULL;
}

/* Two threads storing the same entry at once (two identical files checked
 * on two workers): every write succeeds, the entry is whole, no temporary
 * file is left. */
static void test_concurrent_writers_of_one_entry(void **state)
{
    (void)state;
    char *target = kc_xasprintf("%s/entry.json", dir);
    writer a = {target, 0}, b = {target, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, write_many, &a);
    pthread_create(&tb, NULL, write_many, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_int_equal(a.ok + b.ok, 400);
    char *data;
    size_t len;
    assert_true(kc_read_all(target, &data, &len));
    assert_string_equal(data, "{\"same\": true}\n");
    assert_int_equal(entries(), 1);
    free(data);
    unlink(target);
    free(target);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_temp_names_are_unique, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_writes_and_leaves_no_temporary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_does_not_follow_a_link, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_fails_cleanly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_asks_before_the_rename, setup, teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_writers_of_one_entry, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
