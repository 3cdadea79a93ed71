/* libFuzzer: the result cache's reader (kc_cache_load) on damaged and
 * crafted entries. At start an entry is stored for a fixed key (findings
 * with notes, fix-its, a verdict-free diagnostic list, file errors, kernel
 * references and a dependency), so the harness knows where entries live;
 * each input then replaces that entry's bytes: the first byte chooses
 * between the input as the whole entry and the stored entry with the
 * input written over it at an offset (mutations of a valid entry reach
 * past its header). Whatever the bytes, the load is a hit with sane
 * vectors or a miss, never a crash, a leak or a hang. */
#include "fuzz_common.h"

#include "kc_cache.h"
#include "kc_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64];
static char *dir;        /* the cache directory, root/cache */
static char *entry;      /* the stored entry's path */
static char *valid;      /* its bytes */
static size_t valid_len;

/* The one regular file under `d` (the entry), malloc'd. */
static char *find_entry(const char *d)
{
    DIR *dd = opendir(d);
    if (!dd)
        return NULL;
    char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(dd)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p = kc_xasprintf("%s/%s", d, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            found = find_entry(p);
        else if (S_ISREG(st.st_mode))
            found = kc_xstrdup(p);
        free(p);
    }
    closedir(dd);
    return found;
}

static const kc_cache_key key = {0x1234, 0x5678};

static void cleanup(void)
{
    char *cmd = kc_xasprintf("rm -rf '%s'", root);
    if (system(cmd) != 0) {
    }
    free(cmd);
}

static void setup(void)
{
    strcpy(root, "/tmp/kcheck-fuzz-cache-XXXXXX");
    if (!mkdtemp(root))
        abort();
    atexit(cleanup);
    dir = kc_xasprintf("%s/cache", root);
    kc_diag_list diags = {0};
    for (int i = 0; i < 3; i++) {
        kc_diag *d = kc_diag_list_add(&diags);
        const kc_rule *r = kc_rules_get((size_t)i * 5 % kc_rules_count());
        d->rule_id = r->id;
        d->rule_slug = r->slug;
        d->severity = r->severity;
        d->span = (kc_span){(uint32_t)i + 1, 2, (uint32_t)i + 1, 9};
        d->message = kc_xasprintf("finding %d with `code` and \"quotes\"", i);
        kc_diag_note(d, "a note %d", i);
        kc_diag_fix(d, "replace it", (kc_span){(uint32_t)i + 1, 2, (uint32_t)i + 1, 4}, "xy");
        d->kernel = kc_xstrdup("k");
    }
    kc_file_errors errs = {0};
    kc_file_errors_add(&errs, 3, 4, "an error");
    kc_kernel_ref_vec kernels = {0};
    kc_kernel_ref ref = {kc_xstrdup("k"), 1, 9, KC_LANG_TRITON};
    kc_vec_push(&kernels, ref);
    char *dep = kc_xasprintf("%s/dep.h", root); /* a header the analysis read */
    FILE *f = fopen(dep, "w");
    if (f)
        fclose(f);
    const char *deps[] = {dep};
    kc_cache_store(dir, key, &diags, &errs, &kernels, deps, 1, NULL);
    kc_diag_list_free(&diags);
    kc_file_errors_free(&errs);
    free(kernels.data[0].name);
    kc_vec_free(&kernels);
    free(dep);
    entry = find_entry(dir);
    if (!entry || !kc_read_all(entry, &valid, &valid_len))
        abort(); /* the harness cannot work without the entry's place */
    /* the stored entry is a hit */
    kc_diag_list d2 = {0};
    kc_file_errors e2 = {0};
    kc_kernel_ref_vec k2 = {0};
    if (!kc_cache_load(dir, key, &d2, &e2, &k2) || d2.items.len != 3)
        abort();
    kc_diag_list_free(&d2);
    kc_file_errors_free(&e2);
    for (uint32_t i = 0; i < k2.len; i++)
        free(k2.data[i].name);
    kc_vec_free(&k2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!entry)
        setup();
    if (size < 1)
        return 0;
    kc_strbuf sb = {0};
    if (data[0] & 1) {
        /* the valid entry with the rest of the input written over it */
        size_t at = size >= 3 ? ((size_t)data[1] << 8 | data[2]) % (valid_len + 1) : 0;
        kc_sb_appendn(&sb, valid, valid_len);
        for (size_t i = 3; i < size; i++) {
            if (at + i - 3 < sb.len)
                sb.data[at + i - 3] = (char)data[i];
            else
                kc_sb_putc(&sb, (char)data[i]);
        }
        if (data[0] & 2)
            sb.len = at < sb.len ? at + (sb.len - at) / 2 : sb.len; /* truncated */
    } else {
        kc_sb_appendn(&sb, (const char *)data + 1, size - 1);
    }
    int fd = open(entry, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        abort();
    if (sb.len && write(fd, sb.data, sb.len) != (ssize_t)sb.len)
        abort();
    close(fd);
    kc_sb_free(&sb);
    kc_diag_list diags = {0};
    kc_file_errors errs = {0};
    kc_kernel_ref_vec kernels = {0};
    if (kc_cache_load(dir, key, &diags, &errs, &kernels)) {
        for (uint32_t i = 0; i < diags.items.len; i++)
            if (!diags.items.data[i].message || !diags.items.data[i].rule_id)
                abort(); /* a hit hands out whole diagnostics */
    }
    kc_diag_list_free(&diags);
    kc_file_errors_free(&errs);
    for (uint32_t i = 0; i < kernels.len; i++)
        free(kernels.data[i].name);
    kc_vec_free(&kernels);
    return 0;
}
