/* Operation specs: kernels/reference/ops/<op>.json (docs/verify.md). */
#include "verify_internal.h"

#include <stdlib.h>
#include <string.h>

static bool dtype_ok(const char *d)
{
    static const char *const ok[] = {"float32", "float16", "bfloat16", "int32", "int64"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(d, ok[i]))
            return true;
    return false;
}

static bool check_tensors(json_t *arr, const char *what, char **err)
{
    if (!json_is_array(arr)) {
        *err = kc_xasprintf("`%s` must be an array", what);
        return false;
    }
    size_t i;
    json_t *t;
    json_array_foreach(arr, i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        const char *dt = json_string_value(json_object_get(t, "dtype"));
        if (!name || !dt || !json_is_array(json_object_get(t, "shape"))) {
            *err = kc_xasprintf("%s[%zu] needs name, shape and dtype", what, i);
            return false;
        }
        if (!dtype_ok(dt)) {
            *err = kc_xasprintf("%s `%s`: unknown dtype `%s`", what, name, dt);
            return false;
        }
    }
    return true;
}

kc_opspec *kc_opspec_load(const char *path, char **err)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) {
        *err = kc_xasprintf("%s:%d: %s", path, je.line, je.text);
        return NULL;
    }
    const char *op = json_string_value(json_object_get(root, "op"));
    json_t *sizes = json_object_get(root, "sizes");
    if (!op || !json_is_object(json_object_get(sizes, "correctness")) ||
        !json_is_object(json_object_get(sizes, "timing"))) {
        *err = kc_xasprintf("%s: needs `op` and `sizes` with `correctness` and `timing`", path);
        json_decref(root);
        return NULL;
    }
    if (!check_tensors(json_object_get(root, "inputs"), "inputs", err) ||
        !check_tensors(json_object_get(root, "outputs"), "outputs", err)) {
        char *e = kc_xasprintf("%s: %s", path, *err);
        free(*err);
        *err = e;
        json_decref(root);
        return NULL;
    }
    kc_opspec *s = kc_xcalloc(1, sizeof *s);
    s->root = root;
    s->path = kc_xstrdup(path);
    return s;
}

void kc_opspec_delete(kc_opspec *s)
{
    if (!s)
        return;
    json_decref(s->root);
    free(s->path);
    free(s);
}

const char *kc_opspec_name(const kc_opspec *s) { return json_string_value(json_object_get(s->root, "op")); }

/* reference.<lang> = "file:function" */
bool kc_opspec_reference(const kc_opspec *s, const char *lang, char **file, char **func)
{
    const char *r = json_string_value(json_object_get(json_object_get(s->root, "reference"), lang));
    const char *colon = r ? strchr(r, ':') : NULL;
    if (!colon)
        return false;
    *file = kc_xstrndup(r, (size_t)(colon - r));
    *func = kc_xstrdup(colon + 1);
    return true;
}
