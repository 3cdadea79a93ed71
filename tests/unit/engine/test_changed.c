/* kc_changed's reading of `git diff --unified=0`: added, changed and
 * removed lines, quoted paths, deleted files. The git side is tested
 * end to end by test_cli_tools (test_diff_base). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "kc_changed.h"

typedef struct seen {
    char text[1024];
} seen;

static void on_range(void *ud, const char *path, uint32_t first, uint32_t last)
{
    seen *s = ud;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s:%u-%u;", path, first, last);
}

static void test_parse(void **state)
{
    (void)state;
    const char diff[] = "diff --git a/k.py b/k.py\n"
                        "index 1..2 100644\n"
                        "--- a/k.py\n"
                        "+++ b/k.py\n"
                        "@@ -3 +3 @@ def k\n"          /* one line changed */
                        "-a\n+b\n"
                        "@@ -10,0 +11,2 @@\n"         /* two lines added */
                        "+c\n+d\n"
                        "@@ -20,3 +21,0 @@\n"         /* three removed after line 21 */
                        "-e\n-f\n-g\n"
                        "@@ -1 +0,0 @@\n"             /* removed at the top */
                        "-h\n"
                        "diff --git a/gone.cu b/gone.cu\n"
                        "--- a/gone.cu\n"
                        "+++ /dev/null\n"
                        "@@ -1,2 +0,0 @@\n"
                        "-x\n-y\n"
                        "diff --git \"a/sp ace\\303\\251.py\" \"b/sp ace\\303\\251.py\"\n"
                        "--- \"a/sp ace\\303\\251.py\"\n"
                        "+++ \"b/sp ace\\303\\251.py\"\n"
                        "@@ -5,2 +5,3 @@\n"
                        "+z\n";
    seen s = {{0}};
    kc_changed_parse_diff(diff, sizeof diff - 1, on_range, &s);
    assert_string_equal(s.text, "k.py:3-3;k.py:11-12;k.py:21-22;k.py:1-1;sp ace\xc3\xa9.py:5-7;");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
