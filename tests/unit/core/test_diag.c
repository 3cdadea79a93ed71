/* Diagnostics: a message or note is one line, whatever it quotes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kc_diag.h"

static void one_line(const char *in, const char *want)
{
    char *s = strdup(in);
    kc_diag_one_line(s);
    assert_string_equal(s, want);
    free(s);
}

static void test_line_breaks_become_one_space(void **state)
{
    (void)state;
    /* a call written over several lines (ViennaCL's bisection kernels) */
    one_line("`subdivide(tid, s_left,\n                 s_right)` overwrites",
             "`subdivide(tid, s_left, s_right)` overwrites");
    one_line("a  \r\n\t b", "a b");
    one_line("trailing\n", "trailing ");
    one_line("\nleading", " leading");
    /* one line stays as it is, runs of blanks included */
    one_line("x  =  1; `a[i]`", "x  =  1; `a[i]`");
    one_line("", "");
}

static void test_notes_are_one_line(void **state)
{
    (void)state;
    kc_diag d;
    memset(&d, 0, sizeof d);
    kc_diag_note(&d, "quoted `%s`", "f(a,\n  b)");
    assert_int_equal(d.notes.len, 1);
    assert_string_equal(d.notes.data[0], "quoted `f(a, b)`");
    free(d.notes.data[0]);
    free(d.notes.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_breaks_become_one_space),
        cmocka_unit_test(test_notes_are_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
