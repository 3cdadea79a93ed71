/* kc_toml: the TOML that pyproject files use, read into a YAML document;
 * syntax errors with their line; hostile input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kc_base.h"
#include "kc_toml.h"

/* The document as flow text: {k: v, ...}, [a, b], scalars bare. */
static void show(yaml_document_t *d, yaml_node_t *n, kc_strbuf *sb)
{
    if (n->type == YAML_SCALAR_NODE) {
        kc_sb_appendn(sb, (const char *)n->data.scalar.value, n->data.scalar.length);
    } else if (n->type == YAML_SEQUENCE_NODE) {
        kc_sb_putc(sb, '[');
        for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
            if (i != n->data.sequence.items.start)
                kc_sb_append(sb, ", ");
            show(d, yaml_document_get_node(d, *i), sb);
        }
        kc_sb_putc(sb, ']');
    } else {
        kc_sb_putc(sb, '{');
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            if (p != n->data.mapping.pairs.start)
                kc_sb_append(sb, ", ");
            show(d, yaml_document_get_node(d, p->key), sb);
            kc_sb_append(sb, ": ");
            show(d, yaml_document_get_node(d, p->value), sb);
        }
        kc_sb_putc(sb, '}');
    }
}

static char *read_table(const char *text, bool *found, char **err)
{
    yaml_document_t doc;
    if (!kc_toml_table(text, strlen(text), "tool.kcheck", &doc, found, err))
        return NULL;
    kc_strbuf sb = {0};
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root)
        show(&doc, root, &sb);
    yaml_document_delete(&doc);
    char *s = kc_sb_take(&sb);
    return s ? s : kc_xstrdup("");
}

static void test_values(void **state)
{
    (void)state;
    bool found;
    char *err = NULL;
    char *s = read_table("# pyproject\n"
                         "[project]\n"
                         "name = \"demo\"\n"
                         "description = \"\"\"\nline one\n[not.a.table]\nline \"two\" \\\n   joined\"\"\"\n"
                         "lit = '''C:\\path\n'x' '''\n"
                         "authors = [{name = \"A\", email = \"a@b\"}, { name = 'B' }]\n"
                         "released = 1979-05-27 07:32:00Z\n"
                         "[tool.kcheck]\n"
                         "select = [\"KC2\",   # comment\n  'KC3',\n]\n"
                         "cuda.arch = \"sm_90\"\n"
                         "\"quoted key\" = \"\\u00e9\\t\\\"\"\n"
                         "n = 1_000\n"
                         "b = true\n"
                         "[tool.kcheck.options]\n"
                         "\"KC201.max-trip-count\" = 64\n"
                         "[[tool.kcheck.overrides]]\n"
                         "files = [\"a/**\"]\n"
                         "[[tool.kcheck.overrides]]\n"
                         "files = [\"b\"]\n"
                         "ignore = [\"KC101\"]\n"
                         "[tool.other]\n"
                         "x = { y = [1, [2, 3]] }\n",
                         &found, &err);
    assert_null(err);
    assert_true(found);
    assert_string_equal(s, "{select: [KC2, KC3], cuda: {arch: sm_90}, quoted key: \xc3\xa9\t\", n: 1000, b: true, "
                           "options: {KC201.max-trip-count: 64}, overrides: [{files: [a/**]}, "
                           "{files: [b], ignore: [KC101]}]}");
    free(s);
    s = read_table("[tool.ruff]\nline-length = 100\n", &found, &err);
    assert_false(found);
    assert_string_equal(s, "");
    free(s);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"[tool.kcheck]\nselect = [\"KC2\"\n", "line 3: expected `,` or `]` in an array"},
        {"a = \"open\n", "line 1: newline in a one-line string"},
        {"a = 1\na = 2\n", "line 2: duplicate key `a`"},
        {"a = 1 b\n", "line 1: unexpected text after a value"},
        {"[a\n", "line 1: expected `]` after a table name"},
        {"a = 1\n[a.b]\n", "line 2: `a` is already a value, not a table"},
        {"x = \"\\q\"\n", "line 1: unknown escape \\q"},
        {"x = \"\\uD800\"\n", "line 1: escape \\u of a value that is not a character"},
        {"= 3\n", "line 1: expected a key"},
        {"x = '''never closed\n", "line 2: unterminated string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bool found;
        char *err = NULL;
        char *s = read_table(bad[i].text, &found, &err);
        assert_null(s);
        assert_non_null(err);
        if (strcmp(err, bad[i].want) != 0)
            fail_msg("%s: got \"%s\", want \"%s\"", bad[i].text, err, bad[i].want);
        free(err);
    }
}

/* Deep nesting, random bytes: an error or a table, never a crash. */
static void test_hostile(void **state)
{
    (void)state;
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "x = ");
    for (int i = 0; i < 100000; i++)
        kc_sb_putc(&sb, '[');
    bool found;
    char *err = NULL;
    yaml_document_t doc;
    assert_false(kc_toml_table(sb.data, sb.len, "tool.kcheck", &doc, &found, &err));
    assert_non_null(strstr(err, "nested too deep"));
    free(err);
    kc_sb_free(&sb);
    srand(7);
    char buf[512];
    for (int t = 0; t < 2000; t++) {
        size_t n = (size_t)(rand() % (int)sizeof buf);
        for (size_t i = 0; i < n; i++)
            buf[i] = "[]{}=\"'\n #.,abc123_-tool.kcheck\\"[rand() % 28];
        err = NULL;
        if (kc_toml_table(buf, n, "tool.kcheck", &doc, &found, &err))
            yaml_document_delete(&doc);
        free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
