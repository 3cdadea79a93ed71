/* The run options' one table (KC_OPTIONS_FIELDS): every field is copied
 * and freed by its kind, is in the result cache's key exactly when the
 * table says it changes findings, and every field a configuration file
 * sets is shown by --dump-config. Each field is changed on its own, so a
 * new field gets these checks without a new test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kc_cache.h"
#include "kc_config.h"
#include "kc_options.h"
#include "kc_rule.h"

static const int borrowed_target = 1;

/* Gives field `f` of kind `kind` a value other than its default. */
#define SET_VALUE(o, f) memset(&(o)->f, 0x01, sizeof(o)->f);
#define SET_BORROWED(o, f) (o)->f = (void *)(uintptr_t)&borrowed_target;
#define SET_STRING(o, f)                                                                            \
    free((o)->f);                                                                                   \
    (o)->f = kc_xstrdup("kcheck-test-" #f);
#define SET_FLAGS(o, f)                                                                             \
    free((o)->f);                                                                                   \
    (o)->f##_len = kc_rules_count();                                                                \
    (o)->f = kc_xcalloc((o)->f##_len, 1);                                                          \
    memset((o)->f, 1, (o)->f##_len - 1);
#define SET_RULE_OPTS(o, f)                                                                         \
    {                                                                                               \
        kc_rule_option r = {kc_xstrdup("KC201"), kc_xstrdup("max-trip-count"), kc_xstrdup("7")};   \
        kc_vec_push(&(o)->f, r);                                                                    \
    }
#define SET_STRINGS(o, f) kc_vec_push(&(o)->f, kc_xstrdup("-DKCHECK_TEST"));

typedef struct field {
    const char *name;
    const char *kind;
    const char *key;  /* "KEY", "KEY_CUDA", "NOKEY" */
    const char *conf; /* .kcheck.yaml setting, or NULL */
    void (*set)(kc_options *o);
} field;

#define SETTER_(type, f, kind, key, conf, def)                                                      \
    static void set_##f(kc_options *o) { SET_##kind(o, f) }
KC_OPTIONS_FIELDS(SETTER_)
#undef SETTER_

static const field fields[] = {
#define FIELD_(type, f, kind, key, conf, def) {#f, #kind, #key, conf, set_##f},
    KC_OPTIONS_FIELDS(FIELD_)
#undef FIELD_
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static kc_cache_key key_of(const kc_options *o, kc_lang lang)
{
    char *err = NULL;
    kc_source *src = kc_source_from_memory(lang == KC_LANG_CUDA ? "k.cu" : "k.py", "x = 1\n", 6, 1 << 20, &err);
    assert_non_null(src);
    kc_cache_key k = kc_cache_key_for(o, src, lang, NULL);
    kc_source_delete(src);
    free(err);
    return k;
}

/* The length that a FLAGS field's setter sets with it (NAME_len). */
static bool is_flags_length(size_t i) { return i > 0 && strcmp(fields[i - 1].kind, "FLAGS") == 0; }

static bool same_key(kc_cache_key a, kc_cache_key b) { return a.lo == b.lo && a.hi == b.hi; }

/* A field is in the key for a language exactly when the table says so. */
static void test_cache_key_follows_the_table(void **state)
{
    (void)state;
    kc_options base;
    kc_options_init(&base);
    kc_cache_key cuda0 = key_of(&base, KC_LANG_CUDA), py0 = key_of(&base, KC_LANG_TRITON);
    for (size_t i = 0; i < NFIELDS; i++) {
        kc_options o;
        kc_options_copy(&o, &base);
        fields[i].set(&o);
        bool cuda_changed = !same_key(key_of(&o, KC_LANG_CUDA), cuda0);
        bool py_changed = !same_key(key_of(&o, KC_LANG_TRITON), py0);
        bool want_cuda = strcmp(fields[i].key, "NOKEY") != 0;
        bool want_py = strcmp(fields[i].key, "KEY") == 0;
        if (cuda_changed != want_cuda || py_changed != want_py)
            fail_msg("option %s (%s): CUDA key %s, Triton key %s", fields[i].name, fields[i].key,
                     cuda_changed ? "changed" : "unchanged", py_changed ? "changed" : "unchanged");
        kc_options_free(&o);
    }
    kc_options_free(&base);
}

/* A copy owns what it must: equal keys, and freeing the original first
 * leaves the copy whole (the sanitizer and valgrind legs catch a shared
 * pointer or a leak). */
static void test_copy_owns_every_field(void **state)
{
    (void)state;
    kc_options o;
    kc_options_init(&o);
    for (size_t i = 0; i < NFIELDS; i++)
        if (!is_flags_length(i))
            fields[i].set(&o);
    kc_options c;
    kc_options_copy(&c, &o);
    kc_cache_key before = key_of(&o, KC_LANG_CUDA);
    assert_ptr_not_equal(c.cuda_arch, o.cuda_arch);
    assert_ptr_not_equal(c.rule_enabled, o.rule_enabled);
    kc_options_free(&o);
    assert_true(same_key(key_of(&c, KC_LANG_CUDA), before));
    assert_string_equal(c.cuda_arch, "kcheck-test-cuda_arch");
    kc_options_free(&c);
}

/* --dump-config names every setting a configuration file can make. */
static void test_dump_shows_every_setting(void **state)
{
    (void)state;
    kc_options o;
    kc_options_init(&o);
    for (size_t i = 0; i < NFIELDS; i++)
        if (fields[i].conf)
            fields[i].set(&o);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    kc_config_dump(f, &o, "k.cu");
    fclose(f);
    size_t checked = 0;
    for (size_t i = 0; i < NFIELDS; i++) {
        if (!fields[i].conf)
            continue;
        const char *leaf = strrchr(fields[i].conf, '.');
        char *want = kc_xasprintf("%s:", leaf ? leaf + 1 : fields[i].conf);
        if (!strstr(text, want))
            fail_msg("--dump-config does not show %s (option %s):\n%s", fields[i].conf, fields[i].name, text);
        free(want);
        checked++;
    }
    assert_true(checked >= 7);
    free(text);
    kc_options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_key_follows_the_table),
        cmocka_unit_test(test_copy_owns_every_field),
        cmocka_unit_test(test_dump_shows_every_setting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
