/* libFuzzer: the configuration file parsers (.kcheck.yaml through libyaml,
 * pyproject.toml's [tool.kcheck] through kc_toml.c,
 * overrides matched with .gitignore patterns, --dump-config) and the
 * suppression comment parser (kcheck: ignore[...], ignore-file, KC000 and
 * KC001, drawn by the text reporter). The first byte picks the parser and
 * the language; the rest is the file. Every input, whole, is also a
 * request to the check server (kc_server_decode: the bytes a client sends
 * over the socket). */
#include "fuzz_common.h"

#include "kc_config.h"
#include "kc_server.h"

#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void cleanup(void)
{
    char *p = kc_xasprintf("%s/%s", dir, KC_CONFIG_NAME);
    unlink(p);
    free(p);
    p = kc_xasprintf("%s/%s", dir, KC_PYPROJECT_NAME);
    unlink(p);
    free(p);
    p = kc_xasprintf("%s/.git", dir);
    rmdir(p);
    free(p);
    rmdir(dir);
}

/* toml: the input as a pyproject.toml ([tool.kcheck] through kc_toml.c)
 * instead of a .kcheck.yaml. */
static void fuzz_config(const uint8_t *data, size_t size, bool toml)
{
    if (!dir[0]) {
        strcpy(dir, "/tmp/kcheck-fuzz-config-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        char *git = kc_xasprintf("%s/.git", dir); /* the walk up stops here */
        mkdir(git, 0755);
        free(git);
        atexit(cleanup);
    }
    char *other = kc_xasprintf("%s/%s", dir, toml ? KC_CONFIG_NAME : KC_PYPROJECT_NAME);
    unlink(other);
    free(other);
    char *path = kc_xasprintf("%s/%s", dir, toml ? KC_PYPROJECT_NAME : KC_CONFIG_NAME);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    static const char *const files[] = {"k.cu", "sub/k.py", "kernels/legacy/x.cuh", "a b/[x].py", ""};
    for (int walk = 0; walk < 2; walk++) {
        kc_config_cli cli = {0};
        if (!walk)
            cli.config_file = path; /* --config FILE */
        kc_config_set *set = kc_config_set_new(fuzz_options(), &cli);
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            char *p = kc_xasprintf("%s/%s", dir, files[i]);
            char *err = NULL;
            const kc_options *o = kc_config_options_for(set, p, files[i][0] == '\0', &err);
            if (o)
                kc_config_dump(fuzz_devnull(), o, p);
            free(err);
            free(p);
            if (!o)
                break;
        }
        kc_config_set_delete(set);
    }
    free(path);
}

static void fuzz_suppress(kc_lang lang, const uint8_t *data, size_t size)
{
    const kc_options *o = fuzz_options();
    const char *path = lang == KC_LANG_CUDA ? "fuzz.cu" : "fuzz.py";
    char *err = NULL;
    kc_source *src = kc_source_from_memory(path, (const char *)data, size, o->max_file_size, &err);
    if (!src) {
        free(err);
        return;
    }
    /* One finding of some rule on each of the first lines, as the rules
     * would report them. */
    kc_diag_list diags = {0};
    size_t nrules = kc_rules_count();
    for (uint32_t line = 1; line <= src->nlines && line <= 24; line++) {
        const kc_rule *r = kc_rules_get((line * 7u) % nrules);
        kc_diag *d = kc_diag_list_add(&diags);
        d->rule_id = r->id;
        d->rule_slug = r->slug;
        d->severity = r->severity;
        size_t len = 0;
        kc_source_line(src, line, &len);
        d->span = (kc_span){line, 1, line, (uint32_t)len + 1};
        d->message = kc_xstrdup("finding");
    }
    kc_suppress_counts sc = {0};
    kc_suppress_apply(src, lang, o, &diags, &sc);
    kc_diag_list_sort_unique(&diags);
    kc_fingerprint_diags(src, path, NULL, &diags);
    fuzz_report(o, path, src, &diags);
    kc_diag_list_free(&diags);
    kc_source_delete(src);
}

/* A decoded request's strings are whole and NULL-terminated lists. */
static void fuzz_server_request(const uint8_t *data, size_t size)
{
    char *buf = kc_xmalloc(size);
    memcpy(buf, data, size);
    kc_server_request req;
    if (!kc_server_decode(buf, size, &req))
        return;
    size_t total = 0;
    for (int i = 0; i < req.argc; i++)
        total += strlen(req.argv[i]);
    if (req.argv[req.argc])
        abort();
    for (size_t i = 0; req.envp[i]; i++)
        total += strlen(req.envp[i]);
    if (total >= size || req.umask > 0777)
        abort();
    kc_server_request_free(&req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_server_request(data, size);
    if (size < 1)
        return 0;
    uint8_t mode = data[0] % 4;
    if (mode == 0 || mode == 3)
        fuzz_config(data + 1, size - 1, mode == 3);
    else
        fuzz_suppress(mode == 1 ? KC_LANG_TRITON : KC_LANG_CUDA, data + 1, size - 1);
    return 0;
}
