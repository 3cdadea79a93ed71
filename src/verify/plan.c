/* Plans: for each binding, the experiments its findings need, written
 * as a plan for the Python driver (with a CUDA harness, or the Triton
 * module and its copies with fix-its applied) in the work directory or
 * the --export bundle, which gets copies of the user's files and of the
 * reference kernels. */
#include "verify_internal.h"

#include "kc_fixit.h"

#include <ctype.h>
#include <dirent.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fixit_cmp(const void *a, const void *b)
{
    const kc_span *x = &((const kc_fixit *)a)->span, *y = &((const kc_fixit *)b)->span;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

char *kc_verify_fixed_copy(kc_verify_env *e, const kc_file_result *r, const kc_diag *diags, const int *idx, size_t n,
                              const char *ext)
{
    KC_VEC(kc_fixit) edits = {0};
    for (size_t i = 0; i < n; i++) {
        const kc_diag *d = &diags[idx[i]];
        for (uint32_t k = 0; k < d->fixes.len; k++)
            kc_vec_push(&edits, d->fixes.data[k]);
    }
    if (!edits.len) {
        kc_vec_free(&edits);
        return NULL;
    }
    /* In source order; an edit overlapping the one before is dropped. */
    qsort(edits.data, edits.len, sizeof(kc_fixit), fixit_cmp);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < edits.len; i++) {
        if (kept) {
            kc_span prev = edits.data[kept - 1].span, cur = edits.data[i].span;
            if (cur.line < prev.end_line || (cur.line == prev.end_line && cur.col < prev.end_col))
                continue;
        }
        edits.data[kept++] = edits.data[i];
    }
    edits.len = kept;
    char *err = NULL;
    size_t len;
    char *text = kc_fixit_apply(r->src, edits.data, edits.len, &len, &err);
    kc_vec_free(&edits);
    if (!text) {
        fprintf(e->err, "kcheck verify: %s: cannot apply the fix-its: %s\n", r->path, err);
        free(err);
        return NULL;
    }
    char *copy = kc_xstrdup(r->path);
    char *base = basename(copy);
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = '\0';
    char *rel = kc_xasprintf("%s_fixed_%u%s", base, ++e->counter, ext);
    char *path = kc_xasprintf("%s/%s", e->workdir, rel);
    free(copy);
    bool ok = kc_write_file(path, text, len);
    free(text);
    free(path);
    if (!ok) {
        free(rel);
        return NULL;
    }
    return rel;
}

static void add_exp(json_t *exps, const char *kind, const char *variant, const char *module, int diag)
{
    json_t *x = json_object();
    json_object_set_new(x, "id", json_integer((json_int_t)json_array_size(exps)));
    json_object_set_new(x, "kind", json_string(kind));
    json_object_set_new(x, "variant", json_string(variant));
    if (module)
        json_object_set_new(x, "module", json_string(module));
    if (diag >= 0) {
        json_object_set_new(x, "diag", json_integer(diag));
        json_object_set_new(x, "with_reference", json_false());
    }
    json_array_append_new(exps, x);
}

static json_t *sizes_override(const kc_binding *b)
{
    json_t *o = json_object();
    if (!b->sizes)
        return o;
    char *copy = kc_xstrdup(b->sizes), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        while (*tok == ' ')
            tok++;
        json_object_set_new(o, tok, json_integer(strtoll(eq + 1, NULL, 10)));
    }
    free(copy);
    return o;
}

static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return false;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return false;
    }
    char buf[65536];
    size_t n;
    bool ok = true;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = ok && fwrite(buf, 1, n, out) == n;
    fclose(in);
    ok = fclose(out) == 0 && ok;
    return ok;
}

/* Copies regular files of a directory tree (the reference kernels). */
static void copy_tree(const char *from, const char *to, int depth)
{
    if (depth > 4)
        return;
    mkdir(to, 0755);
    DIR *d = opendir(from);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.' || !strcmp(ent->d_name, "__pycache__"))
            continue;
        char *a = kc_xasprintf("%s/%s", from, ent->d_name), *b = kc_xasprintf("%s/%s", to, ent->d_name);
        struct stat st;
        if (stat(a, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                copy_tree(a, b, depth + 1);
            else if (S_ISREG(st.st_mode))
                copy_file(a, b);
        }
        free(a);
        free(b);
    }
    closedir(d);
}

/* The user's file as the plan names it: its absolute path, or a copy in
 * the exported bundle. */
static char *plan_user_file(kc_verify_env *e, const kc_file_result *r)
{
    if (!e->o->verify_export_dir) {
        char *abs = realpath(r->path, NULL);
        return abs ? abs : kc_xstrdup(r->path);
    }
    char *copy = kc_xstrdup(r->path);
    /* The copy's name goes into run.sh, plans and `#include "..."` lines:
     * only letters, digits, '.', '_' and '-'. */
    for (char *c = basename(copy); *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
            *c = '_';
    char *rel = kc_xasprintf("src/%u_%s", ++e->counter, basename(copy));
    free(copy);
    char *dir = kc_xasprintf("%s/src", e->workdir), *dst = kc_xasprintf("%s/%s", e->workdir, rel);
    mkdir(dir, 0755);
    copy_file(r->path, dst);
    free(dir);
    free(dst);
    return rel;
}

static const char *plan_reference_dir(kc_verify_env *e)
{
    if (e->o->verify_export_dir) {
        if (!e->reference_copied) {
            char *to = kc_xasprintf("%s/reference", e->workdir);
            copy_tree(e->reference_dir, to, 0);
            free(to);
            e->reference_copied = true;
        }
        return "reference";
    }
    return e->reference_abs ? e->reference_abs : e->reference_dir;
}

/* How long one plan may run: the driver limits each experiment itself
 * (--timeout); this bounds the whole plan. */
double kc_verify_plan_limit(const kc_verify_env *e)
{
    return e->o->verify_timeout_s * (e->o->verify_no_run ? 2 : 4);
}

/* The experiments a binding's findings need. */
typedef struct plan_needs {
    bool compile, correct, timing, memcheck, race;
} plan_needs;

/* compute-sanitizer's runs of the kernel as written: memcheck for memory
 * and overflow findings, racecheck and synccheck for races. */
static void add_sanitizer_exps(json_t *exps, plan_needs need)
{
    if (need.memcheck)
        add_exp(exps, "memcheck", "original", NULL, -1);
    if (need.race) {
        add_exp(exps, "racecheck", "original", NULL, -1);
        add_exp(exps, "synccheck", "original", NULL, -1);
    }
}

/* The CUDA part of a plan: the harness (harness_<id>.cu, including the
 * user's file) and its experiments. False with *why when the harness
 * cannot be generated. */
static bool plan_cuda(kc_verify_env *e, json_t *plan, json_t *exps, const kc_binding *b, const kc_opspec *spec,
                      const char *user, const char *ref, unsigned id, plan_needs need, char **why)
{
    char *harness = kc_xasprintf("harness_%u.cu", id);
    char *hpath = kc_xasprintf("%s/%s", e->workdir, harness);
    char *err = NULL;
    /* A header name cannot hold '"', '\\' or a newline: such a path is
     * included through a symbolic link in the work directory. */
    const char *inc = user;
    char *link = NULL;
    if (strpbrk(user, "\"\\\n")) {
        link = kc_xasprintf("%s/user_%u.cu", e->workdir, id);
        if (symlink(user, link) == 0)
            inc = link;
    }
    bool ok = kc_cuda_harness_write(hpath, spec, b, inc, ref, &err);
    free(link);
    free(hpath);
    if (!ok) {
        *why = kc_xasprintf("cannot generate the harness: %s", err);
        free(err);
        free(harness);
        return false;
    }
    json_object_set_new(plan, "lang", json_string("cuda"));
    json_object_set_new(plan, "harness", json_string(harness));
    json_object_set_new(plan, "arch", json_string(e->o->cuda_arch ? e->o->cuda_arch : "native"));
    json_t *dirs = json_array();
    if (!e->o->verify_export_dir) {
        char *d = kc_xstrdup(user);
        json_array_append_new(dirs, json_string(dirname(d)));
        free(d);
    }
    json_object_set_new(plan, "include_dirs", dirs);
    json_object_set(plan, "sizes", json_object_get(spec->root, "sizes"));
    free(harness);
    if (need.correct)
        add_exp(exps, "correctness", "original", NULL, -1);
    if (need.timing)
        add_exp(exps, "timing", "original", NULL, -1);
    add_sanitizer_exps(exps, need);
    return true;
}

/* The experiments on fixed copies of a Triton file: each finding's own
 * fix-it applied alone, and the kernel with every other fix-it applied. */
static void plan_fixed_copies(kc_verify_env *e, json_t *exps, kc_file_result *r, const int *idx, size_t n)
{
    kc_diag *diags = r->diags.items.data;
    /* Each finding's own fix-it, applied alone: what this finding costs. */
    size_t nfixable = 0;
    bool perf_without_fix = false;
    for (size_t i = 0; i < n; i++) {
        kc_diag *d = &diags[idx[i]];
        kc_verify_kind k = kc_verify_kind_of(d);
        if (d->fixes.len)
            nfixable++;
        else if (kc_verify_is_perf(k))
            perf_without_fix = true;
        /* Memory and race findings are judged by compute-sanitizer on the
         * kernel as written: a fixed copy would measure nothing. */
        if (!d->fixes.len || (k != KC_VERIFY_COMPILE_ERROR && k != KC_VERIFY_WRONG_RESULT && !kc_verify_is_perf(k)))
            continue;
        char *fixed = kc_verify_fixed_copy(e, r, diags, &idx[i], 1, ".py");
        if (!fixed)
            continue;
        add_exp(exps,
                k == KC_VERIFY_COMPILE_ERROR ? "compile_error"
                : k == KC_VERIFY_WRONG_RESULT ? "correctness"
                                              : "timing",
                "fixed", fixed, idx[i]);
        free(fixed);
    }
    /* A finding without a fix-it is judged on the kernel with every
     * other fix-it applied: the cost that is left is what could be its
     * own (and a kernel that does not compile as written gets a chance
     * to run). */
    if (perf_without_fix && nfixable) {
        char *all = kc_verify_fixed_copy(e, r, diags, idx, n, ".py");
        if (all) {
            add_exp(exps, "timing", "others_fixed", all, -1);
            free(all);
        }
    }
}

/* The Triton part of a plan: the module, the call, the sizes and the
 * experiments, fixed copies included. */
static void plan_triton(kc_verify_env *e, json_t *plan, json_t *exps, kc_file_result *r, const kc_binding *b,
                        const kc_opspec *spec, const char *user, const char *ref, const int *idx, size_t n,
                        plan_needs need)
{
    json_object_set_new(plan, "lang", json_string("triton"));
    json_object_set_new(plan, "module", json_string(user));
    char *spec_rel = kc_xasprintf("%s/ops/%s.json", ref, kc_opspec_name(spec));
    json_object_set_new(plan, "spec", json_string(spec_rel));
    free(spec_rel);
    json_object_set_new(plan, "reference_dir", json_string(ref));
    json_object_set_new(plan, "call", json_string(b->call));
    json_object_set_new(plan, "seed", json_integer(1234));
    json_object_set_new(plan, "sizes_override", sizes_override(b));
    if (b->outputs) {
        /* outputs=a,b: the names the call knows the output buffers by */
        json_t *names = json_array();
        char *copy = kc_xstrdup(b->outputs), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ')
                tok++;
            json_array_append_new(names, json_string(tok));
        }
        free(copy);
        json_object_set_new(plan, "output_names", names);
    }
    if (need.compile)
        add_exp(exps, "compile_error", "original", NULL, -1);
    if (need.timing)
        add_exp(exps, "timing", "original", NULL, -1); /* first: it measures the cold compile */
    if (need.correct)
        add_exp(exps, "correctness", "original", NULL, -1);
    /* the kernel as written once more, in a process of its own under
     * compute-sanitizer: Triton's kernels are ordinary cubins to it */
    add_sanitizer_exps(exps, need);
    plan_fixed_copies(e, exps, r, idx, n);
}

/* Builds the plan for one binding; writes it (and a CUDA harness) into the
 * work directory and returns the plan's file name, or NULL with *why. */
static char *write_plan(kc_verify_env *e, kc_file_result *r, const kc_binding *b, const kc_opspec *spec,
                        const int *idx, size_t n, char **why)
{
    kc_diag *diags = r->diags.items.data;
    bool cuda = r->kernels.len && r->kernels.data[0].lang == KC_LANG_CUDA;
    /* Every binding's outputs are compared with the reference: that is the
     * binding's own check, findings or not. */
    plan_needs need = {.correct = true};
    for (size_t i = 0; i < n; i++) {
        kc_verify_kind k = kc_verify_kind_of(&diags[idx[i]]);
        need.compile |= k == KC_VERIFY_COMPILE_ERROR;
        need.correct |= k == KC_VERIFY_WRONG_RESULT || kc_verify_is_perf(k);
        need.timing |= kc_verify_is_perf(k);
        need.memcheck |= k == KC_VERIFY_MEMORY || k == KC_VERIFY_OVERFLOW;
        need.race |= k == KC_VERIFY_RACE;
    }
    unsigned id = ++e->counter;
    json_t *plan = json_object();
    json_t *exps = json_array();
    char *user = plan_user_file(e, r);
    const char *ref = plan_reference_dir(e);
    json_object_set_new(plan, "file", json_string(r->path));
    json_object_set_new(plan, "binding_line", json_integer(b->line));
    json_object_set_new(plan, "call_file", json_string(KC_VERIFY_CALL_FILE));
    json_object_set_new(plan, "op", json_string(kc_opspec_name(spec)));
    json_object_set_new(plan, "timeout_s", json_real(e->o->verify_timeout_s));
    json_object_set_new(plan, "plan_limit_s", json_real(kc_verify_plan_limit(e)));
    if (cuda) {
        if (!plan_cuda(e, plan, exps, b, spec, user, ref, id, need, why)) {
            free(user);
            json_decref(plan);
            json_decref(exps);
            return NULL;
        }
    } else {
        plan_triton(e, plan, exps, r, b, spec, user, ref, idx, n, need);
    }
    free(user);
    json_object_set_new(plan, "experiments", exps);
    char *name = kc_xasprintf("plan_%u.json", id);
    char *path = kc_xasprintf("%s/%s", e->workdir, name);
    if (json_dump_file(plan, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0) {
        *why = kc_xasprintf("cannot write %s", path);
        free(name);
        name = NULL;
    }
    free(path);
    json_decref(plan);
    return name;
}

/* "bundled ops: a, b, c" from the reference directory's ops/, or NULL. */
static char *bundled_ops(const char *reference_dir)
{
    char *dir = kc_xasprintf("%s/ops", reference_dir);
    DIR *d = opendir(dir);
    free(dir);
    if (!d)
        return NULL;
    KC_VEC(char *) names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0)
            kc_vec_push(&names, kc_xstrndup(de->d_name, l - 5));
    }
    closedir(d);
    if (names.len > 1)
        qsort(names.data, names.len, sizeof *names.data, kc_strptr_cmp);
    kc_strbuf sb = {0};
    kc_sb_appendf(&sb, "bundled ops:");
    for (uint32_t i = 0; i < names.len; i++) {
        kc_sb_appendf(&sb, "%s %s", i ? "," : "", names.data[i]);
        free(names.data[i]);
    }
    bool any = names.len > 0;
    kc_vec_free(&names);
    if (!any) {
        kc_sb_free(&sb);
        return NULL;
    }
    return kc_sb_take(&sb);
}

/* An input error at `line` of the file, once however many jobs find it. */
static void add_error_once(kc_file_result *r, uint32_t line, const char *msg)
{
    for (uint32_t i = 0; i < r->errors.items.len; i++)
        if (r->errors.items.data[i].line == line && !strcmp(r->errors.items.data[i].message, msg))
            return;
    kc_file_errors_add(&r->errors, line, 1, "%s", msg);
}

/* Plans one binding's experiments: the findings idx[0..n) (none: the
 * binding's own check). */
static void plan_job(kc_verify_env *e, kc_verify_job_vec *jobs, kc_file_result *r, const kc_binding *b, const int *idx,
                     size_t n)
{
    kc_verify_job j = {.r = r, .b = b, .n = n};
    if (n) {
        j.idx = kc_xcalloc(n, sizeof *j.idx);
        memcpy(j.idx, idx, n * sizeof *idx);
    }
    /* an op is a file name under ops/: letters, digits and underscores only */
    bool name_ok = b->op[0] != '\0' && strspn(b->op, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
                                           strlen(b->op);
    char *spec_path = kc_xasprintf("%s/ops/%s.json", e->reference_dir, b->op);
    char *err = NULL;
    kc_opspec *spec = name_ok ? kc_opspec_load(spec_path, &err) : NULL;
    if (!spec) {
        j.why = kc_xasprintf("unknown op `%s`", b->op);
        char *ops = bundled_ops(e->reference_dir);
        char *msg = kc_xasprintf("`kcheck: verify` binding names the unknown op `%s` (%s)", b->op,
                                 ops ? ops : err ? err : "no bundled ops found");
        add_error_once(r, b->line, msg);
        free(msg);
        free(ops);
    } else if (!e->workdir)
        j.why = kc_xstrdup(e->workdir_why ? e->workdir_why : "no work directory");
    else
        j.plan = write_plan(e, r, b, spec, idx, n, &j.why);
    free(err);
    free(spec_path);
    kc_opspec_delete(spec);
    kc_vec_push(jobs, j);
}

bool kc_verify_recorded(const kc_verify_env *e, const kc_file_result *r, const kc_diag *d)
{
    if (!e->o->verify_run_cmd || !d->kernel)
        return false;
    /* CUDA: compute-sanitizer's runs of the command judge memory and race
     * findings (the recorder watches Triton launches only). */
    kc_verify_kind k = kc_verify_kind_of(d);
    bool sanitized = k == KC_VERIFY_MEMORY || k == KC_VERIFY_RACE || k == KC_VERIFY_OVERFLOW;
    /* and Nsight Compute's per-line counters performance findings */
    sanitized |= kc_verify_metric_of(d) != KC_METRIC_NONE;
    for (uint32_t i = 0; i < r->kernels.len; i++)
        if (!strcmp(r->kernels.data[i].name, d->kernel) && (r->kernels.data[i].lang == KC_LANG_TRITON || sanitized))
            return true;
    return false;
}

void kc_verify_plan_file(kc_verify_env *e, kc_file_result *r, kc_binding_list *bl, kc_verify_job_vec *jobs)
{
    size_t nd = r->diags.items.len;
    kc_bindings_parse(r->src, bl);
    /* A binding kcheck cannot read is an input error at its line (exit 2),
     * not an inconclusive verdict that passes a run. */
    for (uint32_t i = 0; i < bl->errors.items.len; i++)
        kc_file_errors_add(&r->errors, bl->errors.items.data[i].line, bl->errors.items.data[i].col,
                           "malformed `kcheck: verify` binding: %s", bl->errors.items.data[i].message);
    int *idx = kc_xcalloc(nd ? nd : 1, sizeof *idx);
    uint8_t *done = kc_xcalloc(nd ? nd : 1, 1);
    for (size_t i = 0; i < nd; i++) {
        kc_diag *d = &r->diags.items.data[i];
        if (kc_diag_is_incomplete(d)) {
            kc_verify_set_verdict(d, "inconclusive", "a note on what kcheck could not analyse: nothing to run", NULL);
            done[i] = 1;
        } else if (kc_verify_kind_of(d) == KC_VERIFY_NONE) {
            kc_verify_set_verdict(d, "inconclusive", "this rule has no verify experiment yet", NULL);
            done[i] = 1;
        } else if (!kc_binding_for(bl, r, d->kernel) && kc_verify_recorded(e, r, d)) {
            done[i] = 1; /* judged on the command's launches (record.c) */
        } else if (!kc_binding_for(bl, r, d->kernel)) {
            char *msg = kc_xasprintf("no `kcheck: verify op=... call=...` binding for kernel `%s` (docs/verify.md)",
                                     d->kernel ? d->kernel : "?");
            kc_verify_set_verdict(d, "inconclusive", msg, NULL);
            free(msg);
            done[i] = 1;
        }
    }
    for (size_t i = 0; i < nd; i++) {
        if (done[i])
            continue;
        const kc_binding *b = kc_binding_for(bl, r, r->diags.items.data[i].kernel);
        size_t n = 0;
        for (size_t j = i; j < nd; j++)
            if (!done[j] && kc_binding_for(bl, r, r->diags.items.data[j].kernel) == b) {
                idx[n++] = (int)j;
                done[j] = 1;
            }
        plan_job(e, jobs, r, b, idx, n);
    }
    /* Bindings no finding used: check the kernel's outputs. */
    for (uint32_t bi = 0; bi < bl->items.len; bi++) {
        const kc_binding *b = &bl->items.data[bi];
        bool used = false;
        for (size_t i = 0; i < nd && !used; i++)
            used = kc_binding_for(bl, r, r->diags.items.data[i].kernel) == b;
        if (!used)
            plan_job(e, jobs, r, b, NULL, 0);
    }
    free(idx);
    free(done);
}
