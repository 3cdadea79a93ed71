/* fixture_runner — checks the diagnostics of fixture files against the
 * expectations written inside them.
 *
 * Expectation syntax (in a comment line, `#` for Python, `//` for CUDA),
 * applying to the nearest line above that is not an expectation:
 *
 *     x = tl.load(p + rows * N)
 *     #           ^ KC101 "N elements apart"
 *
 * The caret's column is the expected column; the rule ID follows; quoted
 * strings must appear in the message or its notes (one that begins with `!`
 * must not appear: `"!reported as a note"`). `expect: KC101` instead
 * of a caret accepts any column; `expect: KC101@1` checks column 1 (which a
 * caret under a comment marker cannot reach). `expect-error: "text"` anywhere in the file
 * expects the file to be rejected with an error containing the text.
 * `needs: repository` anywhere in the file skips it outside a git checkout
 * (its expectations are about what the repository holds: kc_reach.h).
 * Every rule runs on every fixture: any diagnostic without an expectation,
 * and any expectation without a diagnostic, fails the fixture.
 *
 * Usage: fixture_runner DIR...        run every fixture file under DIR
 *        fixture_runner --coverage FIXTURES_DIR
 *                                     every rule has bad_/ok_ fixtures per language
 */
#define _GNU_SOURCE 1 /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kc_driver.h"
#include "kc_project.h"
#include "kc_path.h"
#include "kc_frontend.h"
#include "kc_rule.h"

typedef struct expectation {
    uint32_t line, col; /* col 0: any */
    char rule[16];
    char *subs[16];
    unsigned nsubs;
    bool too_many; /* more quoted strings than subs holds: the fixture fails */
    bool matched;
    uint32_t at_line; /* where it is written */
} expectation;

typedef KC_VEC(expectation) expectation_list;

static bool is_comment_start(const char *p, size_t n, size_t *skip)
{
    if (n >= 2 && p[0] == '/' && p[1] == '/') {
        *skip = 2;
        return true;
    }
    if (n >= 1 && p[0] == '#') {
        *skip = 1;
        return true;
    }
    return false;
}

/* Parses quoted strings after the rule ID. */
static void parse_subs(const char *p, const char *end, expectation *e)
{
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return;
        const char *r = memchr(q + 1, '"', (size_t)(end - q - 1));
        if (!r)
            return;
        if (e->nsubs == sizeof e->subs / sizeof e->subs[0]) {
            e->too_many = true; /* never dropped unchecked */
            return;
        }
        e->subs[e->nsubs++] = kc_xstrndup(q + 1, (size_t)(r - q - 1));
        p = r + 1;
    }
}

static bool parse_rule_id(const char **pp, const char *end, char *out)
{
    const char *p = *pp;
    while (p < end && *p == ' ')
        p++;
    size_t k = 0;
    while (p < end && k < 15 && ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
        out[k++] = *p++;
    out[k] = '\0';
    *pp = p;
    return k >= 3;
}

/* Returns the number of expectation lines found; expect_error receives the
 * expected error text, if any (malloc'd). */
static void parse_expectations(const kc_source *src, expectation_list *out, char **expect_error)
{
    uint32_t target = 0;
    for (uint32_t ln = 1; ln <= src->nlines; ln++) {
        size_t len;
        const char *line = kc_source_line(src, ln, &len);
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        size_t skip;
        bool is_expect = false;
        if (i < len && is_comment_start(line + i, len - i, &skip)) {
            size_t j = i + skip;
            while (j < len && line[j] == ' ')
                j++;
            const char *end = line + len;
            if (j < len && line[j] == '^') {
                expectation e;
                memset(&e, 0, sizeof e);
                e.line = target;
                e.col = (uint32_t)j + 1;
                e.at_line = ln;
                const char *p = line + j + 1;
                if (parse_rule_id(&p, end, e.rule)) {
                    parse_subs(p, end, &e);
                    kc_vec_push(out, e);
                    is_expect = true;
                }
            } else if (len - j >= 7 && strncmp(line + j, "expect:", 7) == 0) {
                expectation e;
                memset(&e, 0, sizeof e);
                e.line = target;
                e.at_line = ln;
                const char *p = line + j + 7;
                if (parse_rule_id(&p, end, e.rule)) {
                    if (p < end && *p == '@') {
                        p++;
                        while (p < end && *p >= '0' && *p <= '9')
                            e.col = e.col * 10 + (uint32_t)(*p++ - '0');
                    }
                    parse_subs(p, end, &e);
                    kc_vec_push(out, e);
                    is_expect = true;
                }
            } else if (len - j >= 13 && strncmp(line + j, "expect-error:", 13) == 0) {
                expectation e;
                memset(&e, 0, sizeof e);
                parse_subs(line + j + 13, end, &e);
                free(*expect_error);
                *expect_error = e.nsubs ? e.subs[0] : kc_xstrdup("");
                for (unsigned s = 1; s < e.nsubs; s++)
                    free(e.subs[s]);
                is_expect = true;
            }
        }
        if (!is_expect)
            target = ln;
    }
}

static bool diag_has(const kc_diag *d, const char *s)
{
    if (strstr(d->message, s))
        return true;
    for (uint32_t i = 0; i < d->notes.len; i++)
        if (strstr(d->notes.data[i], s))
            return true;
    if (d->fix_description && strstr(d->fix_description, s))
        return true;
    for (uint32_t i = 0; i < d->fixes.len; i++)
        if (strstr(d->fixes.data[i].replacement, s))
            return true;
    return false;
}

/* Is the file inside a git checkout? */
static bool fixture_in_repository(const char *path)
{
    char *repo = kc_path_repository(path);
    bool in = repo != NULL;
    free(repo);
    return in;
}

static void run_fixture(void **state)
{
    const char *path = *state;
    kc_options o;
    kc_options_init(&o);
    o.rule_enabled = NULL; /* all rules */
    o.min_severity = KC_SEV_NOTE; /* fixtures pin notes too */
    o.report_unused_suppressions = true; /* KC001 runs like every rule */
    kc_frontend *fe = kc_frontend_new(&o);
    /* As a run of kcheck on this one file: linked to the files of its
     * repository that launch its kernels (kc_project.h). */
    kc_path_list list = {0};
    kc_file_result one;
    memset(&one, 0, sizeof one);
    one.path = kc_xstrdup(path);
    one.explicit_path = true;
    kc_vec_push(&list.files, one);
    /* A fixture stands alone: what the rest of this checkout names (other
     * fixtures, the tests) says nothing of what calls its functions,
     * unless it is about that (`needs: repository`). */
    char *probe_err = NULL;
    kc_source *probe = kc_source_load(path, o.max_file_size, &probe_err);
    list.no_reach = !probe || !memmem(probe->text, probe->len, "needs: repository", 17);
    kc_source_delete(probe);
    free(probe_err);
    kc_project *proj = kc_project_link(&list, o.max_file_size, 1);
    kc_file_result r = list.files.data[0];
    kc_vec_free(&list.files);
    kc_check_file(fe, &o, &r);

    char *err = NULL;
    kc_source *src = r.src ? NULL : kc_source_load(path, o.max_file_size, &err);
    const kc_source *s = r.src ? r.src : src;
    expectation_list ex = {0};
    char *expect_error = NULL;
    if (s)
        parse_expectations(s, &ex, &expect_error);
    int failures = 0;
    /* A fixture about what its repository holds (`needs: repository`)
     * means nothing outside a git checkout (a source archive): skipped. */
    bool skipping = s && memmem(s->text, s->len, "needs: repository", 17) && !fixture_in_repository(path);
    KC_VEC(bool) used = {0};
    if (skipping) {
        print_message("%s: skipped: not in a git checkout, and the fixture is about its repository\n", path);
        goto done;
    }

    if (expect_error) {
        bool found = false;
        for (uint32_t i = 0; i < r.errors.items.len; i++)
            if (strstr(r.errors.items.data[i].message, expect_error))
                found = true;
        if (!found) {
            print_error("%s: expected the file to be rejected with \"%s\"\n", path, expect_error);
            failures++;
        }
    } else {
        for (uint32_t i = 0; i < r.errors.items.len; i++) {
            print_error("%s:%u:%u: unexpected file error: %s\n", path, r.errors.items.data[i].line,
                        r.errors.items.data[i].col, r.errors.items.data[i].message);
            failures++;
        }
    }
    for (uint32_t i = 0; i < r.diags.items.len; i++)
        kc_vec_push(&used, false);
    for (uint32_t e = 0; e < ex.len; e++) {
        expectation *x = &ex.data[e];
        if (x->too_many) {
            print_error("%s:%u: more than %u quoted strings in one expectation\n", path, x->at_line,
                        (unsigned)(sizeof x->subs / sizeof x->subs[0]));
            failures++;
        }
        for (uint32_t i = 0; i < r.diags.items.len && !x->matched; i++) {
            const kc_diag *d = &r.diags.items.data[i];
            if (used.data[i] || d->span.line != x->line || strcmp(d->rule_id, x->rule) != 0)
                continue;
            if (x->col && d->span.col != x->col)
                continue;
            bool subs_ok = true;
            for (unsigned k = 0; k < x->nsubs; k++)
                if (x->subs[k][0] == '!' ? diag_has(d, x->subs[k] + 1) : !diag_has(d, x->subs[k]))
                    subs_ok = false;
            if (!subs_ok)
                continue;
            used.data[i] = true;
            x->matched = true;
        }
        if (!x->matched) {
            print_error("%s:%u: missing %s%s (expected at line %u, column %u", path, x->at_line, x->rule,
                        x->nsubs ? " with the given text" : "", x->line, x->col);
            for (unsigned k = 0; k < x->nsubs; k++)
                print_error("; \"%s\"", x->subs[k]);
            print_error(")\n");
            failures++;
        }
    }
    for (uint32_t i = 0; i < r.diags.items.len; i++) {
        if (used.data[i])
            continue;
        const kc_diag *d = &r.diags.items.data[i];
        print_error("%s:%u:%u: unexpected %s: %s\n", path, d->span.line, d->span.col, d->rule_id, d->message);
        failures++;
    }
done:
    for (uint32_t e = 0; e < ex.len; e++)
        for (unsigned k = 0; k < ex.data[e].nsubs; k++)
            free(ex.data[e].subs[k]);
    kc_vec_free(&ex);
    kc_vec_free(&used);
    free(expect_error);
    free(err);
    kc_source_delete(src);
    kc_file_result_free(&r);
    kc_project_free(proj);
    kc_frontend_delete(fe);
    kc_options_free(&o);
    if (skipping)
        skip();
    assert_int_equal(failures, 0);
}

typedef KC_VEC(char *) path_list;

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void collect(const char *dir, path_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p = kc_xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        kc_lang lang;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(p, out);
            free(p);
        } else if (kc_lang_for_path(p, &lang)) {
            kc_vec_push(out, p);
        } else {
            free(p);
        }
    }
    closedir(d);
}

static int coverage(const char *root)
{
    int missing = 0;
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = kc_rules_get(i);
        char *dir = kc_xasprintf("%s/%s_%s", root, r->id, r->slug);
        static const char *const ext[] = {".cu", ".py"};
        for (int lang = 0; lang < 2; lang++) {
            if (!(r->langs & (1u << lang)))
                continue;
            for (int kind = 0; kind < 2; kind++) {
                const char *prefix = kind ? "ok_" : "bad_";
                bool found = false;
                DIR *d = opendir(dir);
                struct dirent *e;
                while (d && (e = readdir(d)) != NULL) {
                    size_t n = strlen(e->d_name), el = strlen(ext[lang]);
                    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n > el &&
                        strcmp(e->d_name + n - el, ext[lang]) == 0)
                        found = true;
                }
                if (d)
                    closedir(d);
                if (!found) {
                    fprintf(stderr, "%s: no %s*%s fixture for %s %s\n", dir, prefix, ext[lang], r->id, r->slug);
                    missing++;
                }
            }
        }
        free(dir);
    }
    if (!missing)
        printf("every rule has bad_ and ok_ fixtures for each of its languages (%zu rules)\n", kc_rules_count());
    return missing ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--coverage") == 0)
        return coverage(argv[2]);
    if (argc < 2) {
        fprintf(stderr, "usage: fixture_runner DIR... | --coverage FIXTURES_DIR\n");
        return 2;
    }
    path_list files = {0};
    for (int i = 1; i < argc; i++)
        collect(argv[i], &files);
    if (files.len == 0) {
        fprintf(stderr, "fixture_runner: no fixtures under the given directories\n");
        return 1;
    }
    qsort(files.data, files.len, sizeof(char *), name_cmp);
    struct CMUnitTest *tests = kc_xcalloc(files.len, sizeof *tests);
    for (uint32_t i = 0; i < files.len; i++) {
        tests[i].name = files.data[i];
        tests[i].test_func = run_fixture;
        tests[i].initial_state = files.data[i];
    }
    int rc = _cmocka_run_group_tests(argv[1], tests, files.len, NULL, NULL);
    for (uint32_t i = 0; i < files.len; i++)
        free(files.data[i]);
    kc_vec_free(&files);
    free(tests);
    return rc;
}
