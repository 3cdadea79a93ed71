/* kc_project.c — the import graph of the Python files of a run
 * (kc_project.h). */
#define _GNU_SOURCE 1 /* memmem, qsort_r */
#include "kc_project.h"

#include "kc_path.h"
#include "kc_fingerprint.h"
#include "kc_pyscan.h"
#include "kc_reach.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- resolving modules to the run's files ---- */

typedef struct pyfile {
    char *path;      /* absolute, normalized (kc_path_lexical) */
    const char *base; /* its tail key (tail_key), in path */
    size_t result;   /* index in the path list */
    bool defines_kernels; /* mentions `jit` */
    KC_VEC(const char *) peers;
} pyfile;

/* `from X import name` in a kernel file, where `name` may be a Triton
 * name X re-exports (`from vllm.triton_utils import tl, triton`). */
typedef struct reexport {
    uint32_t importer;
    unsigned dots;
    char *module; /* X */
    char *name;   /* the name as X spells it */
} reexport;
typedef KC_VEC(reexport) reexport_vec;

/* A module file read for its re-exports, once per run. */
typedef struct module_text {
    char *path;
    char *text; /* NULL: not readable */
    size_t len;
} module_text;
typedef KC_VEC(module_text) module_texts;

struct kc_project {
    KC_VEC(pyfile) files; /* the run's Python files, then importers found outside the run */
    uint32_t nindexed;    /* files[0 .. nindexed): the run's, in by_path and by_base */
    KC_VEC(char *) extra; /* peers that are not files of the run (owned) */
    uint32_t *by_path; /* indices sorted by path */
    uint32_t *by_base; /* indices sorted by base name, then path */
    kc_reach reach;    /* the unreferenced names of the run's files */
};

/* The key a file is found by from a module's tail: its last component,
 * or the last two for a package's __init__.py (there are many). */
static const char *tail_key(const char *path)
{
    const char *s = strrchr(path, '/');
    const char *base = s ? s + 1 : path;
    if (s && strcmp(base, "__init__.py") == 0) {
        const char *d = s;
        while (d > path && d[-1] != '/')
            d--;
        return d;
    }
    return base;
}

static int cmp_path(const void *a, const void *b, void *ud)
{
    const kc_project *p = ud;
    return strcmp(p->files.data[*(const uint32_t *)a].path, p->files.data[*(const uint32_t *)b].path);
}

static int cmp_base(const void *a, const void *b, void *ud)
{
    const kc_project *p = ud;
    const pyfile *x = &p->files.data[*(const uint32_t *)a], *y = &p->files.data[*(const uint32_t *)b];
    int c = strcmp(x->base, y->base);
    return c ? c : strcmp(x->path, y->path);
}

/* First position in `ix` whose key is >= `key` (by path or by base name). */
static uint32_t lower_bound(const kc_project *p, const uint32_t *ix, bool by_base, const char *key)
{
    uint32_t lo = 0, hi = p->nindexed;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const pyfile *f = &p->files.data[ix[mid]];
        if (strcmp(by_base ? f->base : f->path, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* An import of one file that it launches through: `local[` for a member,
 * `local.name[` for a module. */
typedef struct pending {
    uint32_t importer, target;
} pending;
typedef KC_VEC(pending) pending_vec;

/* The imports of one file resolved to the run's files that are checked
 * for a launch through them, at most. */
#define KC_IMPORT_CHECKS 512

typedef struct link_ctx {
    const kc_project *p;
    uint32_t importer;
    const char *text;
    size_t len;
    pending_vec *out;
    unsigned checks;
    bool chains_ready;
    kc_py_names chains;
} link_ctx;

static void add_edge(kc_project *p, uint32_t target, uint32_t importer)
{
    pyfile *t = &p->files.data[target];
    if (target == importer || !t->defines_kernels)
        return;
    const char *ip = p->files.data[importer].path;
    for (uint32_t i = 0; i < t->peers.len; i++)
        if (t->peers.data[i] == ip)
            return;
    kc_vec_push(&t->peers, ip);
}

/* The run's file at exactly `path`. */
static void find_exact(const kc_project *p, const char *path, uint32_t *out, uint32_t *n, uint32_t max)
{
    uint32_t i = lower_bound(p, p->by_path, false, path);
    if (i < p->nindexed && strcmp(p->files.data[p->by_path[i]].path, path) == 0 && *n < max)
        out[(*n)++] = p->by_path[i];
}

/* The run's files whose path ends with `rel` ("a/b/c.py") at a component. */
static void find_tail(const kc_project *p, const char *rel, uint32_t *out, uint32_t *n, uint32_t max)
{
    const char *base = tail_key(rel);
    size_t rl = strlen(rel);
    for (uint32_t i = lower_bound(p, p->by_base, true, base);
         i < p->nindexed && strcmp(p->files.data[p->by_base[i]].base, base) == 0 && *n < max; i++) {
        const char *fp = p->files.data[p->by_base[i]].path;
        size_t fl = strlen(fp);
        if (fl >= rl && strcmp(fp + fl - rl, rel) == 0 && (fl == rl || fp[fl - rl - 1] == '/'))
            out[(*n)++] = p->by_base[i];
    }
}

/* The run's files a module names, seen from the importing file. */
static uint32_t resolve(const kc_project *p, uint32_t importer, unsigned dots, const char *module, uint32_t *out,
                        uint32_t max)
{
    /* on the stack: this runs for every import of every file */
    char rel[600], cand[4096];
    size_t rl = strlen(module);
    if (rl + 16 > sizeof rel)
        return 0;
    for (size_t i = 0; i <= rl; i++)
        rel[i] = module[i] == '.' ? '/' : module[i];
    uint32_t n = 0;
    if (dots == 0) {
        snprintf(cand, sizeof cand, "%s.py", rel);
        find_tail(p, cand, out, &n, max);
        snprintf(cand, sizeof cand, "%s/__init__.py", rel);
        find_tail(p, cand, out, &n, max);
        return n;
    }
    /* the importer's package, then one level up per extra dot */
    const char *path = p->files.data[importer].path;
    const char *s = strrchr(path, '/');
    size_t dl = s ? (size_t)(s - path) : 0;
    if (dl + rl + 16 > sizeof cand)
        return 0;
    char dir[4096];
    memcpy(dir, path, dl);
    dir[dl] = '\0';
    for (unsigned d = 1; d < dots; d++) {
        char *up = strrchr(dir, '/');
        if (up && up != dir)
            *up = '\0';
        else if (*dir && *dir != '/' && strcmp(dir, "..") != 0)
            dir[0] = '\0';
        else
            return 0;
    }
    const char *sep = *dir ? "/" : "";
    if (*rel) {
        snprintf(cand, sizeof cand, "%s%s%s.py", dir, sep, rel);
        find_exact(p, cand, out, &n, max);
    }
    snprintf(cand, sizeof cand, "%s%s%s%s__init__.py", dir, sep, rel, *rel ? "/" : "");
    find_exact(p, cand, out, &n, max);
    return n;
}

static void on_import(void *ud, unsigned dots, const char *module, const char *local, bool is_module)
{
    link_ctx *c = ud;
    /* Each check reads the whole file: a file with thousands of imports
     * of the run's modules would cost its size times their number. */
    if (c->checks >= KC_IMPORT_CHECKS)
        return;
    uint32_t targets[16];
    uint32_t n = resolve(c->p, c->importer, dots, module, targets, 16);
    if (n == 0)
        return;
    c->checks++;
    if (!c->chains_ready) {
        kc_py_subscripts(c->text, c->len, &c->chains);
        c->chains_ready = true;
    }
    if (!kc_py_subscripts_has(&c->chains, local, is_module) &&
        !kc_py_assigned_to_subscripted(c->text, c->len, &c->chains, local, is_module))
        return;
    for (uint32_t i = 0; i < n; i++) {
        pending pd = {c->importer, targets[i]};
        kc_vec_push(c->out, pd);
    }
}

/* ---- modules that re-export Triton names ---- */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file a module names seen from `importer`, on disk (the module is not
 * a file of the run): a relative module from the importer's package; an
 * absolute one from each enclosing package directory of the importer and
 * the directory above the outermost one (where Python would find the
 * top-level package). malloc'd, or NULL. */
static char *find_on_disk(const char *importer, unsigned dots, const char *module)
{
    char rel[600], dir[4096], cand[4800];
    size_t rl = strlen(module);
    if (rl + 16 > sizeof rel)
        return NULL;
    for (size_t i = 0; i <= rl; i++)
        rel[i] = module[i] == '.' ? '/' : module[i];
    const char *s = strrchr(importer, '/');
    size_t dl = s ? (size_t)(s - importer) : 0;
    if (dl == 0 || dl >= sizeof dir)
        return NULL;
    memcpy(dir, importer, dl);
    dir[dl] = '\0';
    for (unsigned up = 0; up < 32; up++) {
        if (up >= (dots ? dots - 1 : 0)) {
            if (*rel) {
                snprintf(cand, sizeof cand, "%s/%s.py", dir, rel);
                if (is_file(cand))
                    return kc_xstrdup(cand);
            }
            snprintf(cand, sizeof cand, "%s/%s%s__init__.py", dir, rel, *rel ? "/" : "");
            if (is_file(cand))
                return kc_xstrdup(cand);
            if (dots)
                return NULL;
            snprintf(cand, sizeof cand, "%s/__init__.py", dir);
            if (!is_file(cand))
                return NULL; /* above the outermost package */
        }
        char *sl = strrchr(dir, '/');
        if (!sl || sl == dir)
            return NULL;
        *sl = '\0';
    }
    return NULL;
}

static const module_text *module_read(module_texts *memo, const char *path, size_t max_file_size)
{
    for (uint32_t i = 0; i < memo->len; i++)
        if (strcmp(memo->data[i].path, path) == 0)
            return &memo->data[i];
    module_text t = {kc_xstrdup(path), NULL, 0};
    size_t cap = 0;
    if (!kc_read_regular(path, max_file_size, &t.text, &cap, &t.len, NULL)) {
        free(t.text);
        t.text = NULL;
    }
    kc_vec_push(memo, t);
    return &memo->data[memo->len - 1];
}

static void add_peer(pyfile *f, const char *path)
{
    for (uint32_t i = 0; i < f->peers.len; i++)
        if (strcmp(f->peers.data[i], path) == 0)
            return;
    kc_vec_push(&f->peers, path);
}

/* A kernel file's peers get the module its Triton names come from
 * (`from vllm.triton_utils import tl` and vllm/triton_utils/__init__.py
 * binds `tl` by `import triton.language as tl`): a file of the run, or the
 * file on disk where Python would find it. The Triton front end reads the
 * binding there; the module's identity joins the file's cache key. */
static void link_reexports(kc_project *p, reexport_vec *rex, size_t max_file_size)
{
    module_texts memo = {0};
    for (uint32_t i = 0; i < p->nindexed; i++) {
        for (uint32_t k = 0; k < rex[i].len; k++) {
            const reexport *r = &rex[i].data[k];
            uint32_t targets[4];
            uint32_t nt = p->by_path ? resolve(p, i, r->dots, r->module, targets, 4) : 0;
            const char *path = nt ? p->files.data[targets[0]].path : NULL;
            char *disk = path ? NULL : find_on_disk(p->files.data[i].path, r->dots, r->module);
            if (disk)
                path = disk;
            const module_text *t = path ? module_read(&memo, path, max_file_size) : NULL;
            char q[128];
            /* or the module of a decorator that registers the launching
             * function as an operator (`@register_kernel_op(...)` whose
             * definition calls torch.library.custom_op): how torch.compile
             * runs the launch (KC501) */
            if (t && t->text &&
                (kc_py_triton_binding(t->text, t->len, r->name, q, sizeof q) ||
                 kc_py_def_registers(t->text, t->len, r->name))) {
                if (disk) {
                    kc_vec_push(&p->extra, disk);
                    disk = NULL;
                    path = p->extra.data[p->extra.len - 1];
                }
                add_peer(&p->files.data[i], path);
            } else {
                /* `from pkg.utils import ext` where `ext` is a module of its
                 * own used the Triton way (`ext.program_id(0)`): its
                 * wrappers say what those calls return. */
                free(disk);
                disk = NULL;
                char *sub = kc_xasprintf("%s%s%s", r->module, *r->module ? "." : "", r->name);
                nt = p->by_path ? resolve(p, i, r->dots, sub, targets, 4) : 0;
                path = nt ? p->files.data[targets[0]].path : NULL;
                disk = path ? NULL : find_on_disk(p->files.data[i].path, r->dots, sub);
                free(sub);
                if (disk && strcmp(disk + strlen(disk) - strlen("__init__.py"), "__init__.py") != 0) {
                    kc_vec_push(&p->extra, disk);
                    path = p->extra.data[p->extra.len - 1];
                    disk = NULL;
                }
                if (path && (!disk))
                    add_peer(&p->files.data[i], path);
            }
            free(disk);
        }
        for (uint32_t k = 0; k < rex[i].len; k++) {
            free(rex[i].data[k].module);
            free(rex[i].data[k].name);
        }
        kc_vec_free(&rex[i]);
    }
    for (uint32_t i = 0; i < memo.len; i++) {
        free(memo.data[i].path);
        free(memo.data[i].text);
    }
    kc_vec_free(&memo);
}

/* The first pass, spread over threads: each Python file read (raw bytes,
 * into the thread's buffer: its own check loads and validates it later,
 * and reading twice costs less than holding every file of the run),
 * whether it defines kernels, and the imports it launches through. */
typedef struct load_state {
    kc_project *p;
    kc_path_list *files;
    size_t max_file_size;
    atomic_uint next;
    pending_vec *pend; /* one per file */
    reexport_vec *rex; /* one per file */
} load_state;

typedef struct rex_ctx {
    uint32_t importer;
    const char *text;
    size_t len;
    reexport_vec *out;
} rex_ctx;

/* Each `from X import name [as local]` of a kernel file with X outside
 * triton, where the file uses `local` the Triton way or as a decorator
 * (`@local` or `@local(...)`). */
static void on_reexport(void *ud, unsigned dots, const char *module, const char *local, bool is_module)
{
    rex_ctx *c = ud;
    const char *dot = strrchr(module, '.');
    /* the submodule form carries the imported name as its last component */
    if (!is_module || strchr(local, '.') || (!dot && !dots) || c->out->len >= 64)
        return;
    const char *name = dot ? dot + 1 : module;
    size_t ml = dot ? (size_t)(dot - module) : 0;
    if ((ml == 6 || (ml > 6 && module[6] == '.')) && strncmp(module, "triton", 6) == 0)
        return; /* triton itself */
    if (!kc_py_triton_uses(c->text, c->len, local))
        return;
    reexport r = {c->importer, dots, kc_xstrndup(module, ml), kc_xstrdup(name)};
    kc_vec_push(c->out, r);
}

static void *load_worker(void *arg)
{
    load_state *st = arg;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        unsigned i = atomic_fetch_add(&st->next, 1);
        if (i >= st->p->files.len)
            break;
        pyfile *f = &st->p->files.data[i];
        const kc_file_result *r = &st->files->files.data[f->result];
        if (!kc_read_regular(r->path, st->max_file_size, &buf, &cap, &len, NULL))
            continue; /* the file's own check reports why */
        f->defines_kernels = memmem(buf, len, "jit", 3) != NULL;
        if (f->defines_kernels) {
            rex_ctx rc = {i, buf, len, &st->rex[i]};
            kc_scan_python_imports(buf, len, on_reexport, &rc);
        }
        if (memchr(buf, '[', len)) {
            link_ctx c = {st->p, i, buf, len, &st->pend[i], 0, false, {0}};
            kc_scan_python_imports(buf, len, on_import, &c);
            kc_vec_free(&c.chains);
        }
    }
    free(buf);
    return NULL;
}

/* ---- importers outside the run ---- */

#define OUTSIDE_MAX_FILES 20000

/* Whether the file's text names one of the stems as a whole word. */
static bool names_stem(const char *buf, size_t len, const char *const *stems, uint32_t nstems)
{
    for (uint32_t i = 0; i < nstems; i++) {
        size_t sl = strlen(stems[i]);
        for (const char *q = buf; (q = memmem(q, (size_t)(buf + len - q), stems[i], sl)) != NULL; q += sl) {
            bool before = q == buf || !(q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z') ||
                                        (q[-1] >= 'A' && q[-1] <= 'Z') || (q[-1] >= '0' && q[-1] <= '9'));
            char c = q + sl < buf + len ? q[sl] : ' ';
            bool after = !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
            if (before && after)
                return true;
        }
    }
    return false;
}

/* A kernel file of the run that no file of the run launches through is
 * often launched from a file the run does not hold (pre-commit gives only
 * the changed files, an editor one): the Python files of its repository
 * that name its module and subscript something are read for imports of it,
 * as the run's own are, so that `kcheck k.py` and `kcheck k.py launch.py`
 * agree on k.py. The walk follows kc_expand_paths (.gitignore, hidden
 * entries skipped), once per repository; files of the run are not read
 * again. */
static void link_outside(kc_project *p, size_t max_file_size)
{
    uint32_t n = p->nindexed;
    KC_VEC(char *) roots = {0};
    for (uint32_t i = 0; i < n; i++) {
        pyfile *f = &p->files.data[i];
        if (!f->defines_kernels || f->peers.len)
            continue;
        char *root = kc_path_repository(f->path);
        if (root && kc_path_is_home(root)) {
            free(root);
            root = NULL;
        }
        if (!root)
            continue;
        bool seen = false;
        for (uint32_t r = 0; r < roots.len && !seen; r++)
            seen = strcmp(roots.data[r], root) == 0;
        if (seen) {
            free(root);
            continue;
        }
        kc_vec_push(&roots, root);
        /* the stems of the run's kernel files without importers in this repository */
        KC_VEC(const char *) stems = {0};
        for (uint32_t k = 0; k < n; k++) {
            pyfile *g = &p->files.data[k];
            size_t rl = strlen(root);
            if (!g->defines_kernels || g->peers.len || strncmp(g->path, root, rl) != 0 || g->path[rl] != '/')
                continue;
            const char *b = strrchr(g->path, '/') + 1;
            if (strcmp(b, "__init__.py") == 0)
                continue;
            kc_vec_push(&stems, kc_xstrndup(b, strlen(b) - 3));
        }
        kc_path_list found = {0};
        const char *rp = root;
        kc_expand_paths(&rp, 1, &found);
        char *buf = NULL;
        size_t cap = 0, len = 0;
        uint32_t looked = 0;
        for (uint32_t j = 0; j < found.files.len && looked < OUTSIDE_MAX_FILES && stems.len; j++) {
            const char *path = found.files.data[j].path;
            size_t pl = strlen(path);
            if (found.files.data[j].errors.items.len || pl < 3 || strcmp(path + pl - 3, ".py") != 0)
                continue;
            char *norm = kc_path_lexical(path);
            uint32_t hit = 0, cnt = 0;
            find_exact(p, norm, &hit, &cnt, 1);
            if (cnt) { /* a file of the run: already linked */
                free(norm);
                continue;
            }
            looked++;
            if (!kc_read_regular(norm, max_file_size, &buf, &cap, &len, NULL) || !memchr(buf, '[', len) ||
                !names_stem(buf, len, (const char *const *)stems.data, stems.len)) {
                free(norm);
                continue;
            }
            pyfile g = {0};
            g.path = norm;
            g.base = tail_key(g.path);
            g.result = SIZE_MAX;
            kc_vec_push(&p->files, g);
            uint32_t gi = p->files.len - 1;
            pending_vec pend = {0};
            link_ctx c = {p, gi, buf, len, &pend, 0, false, {0}};
            kc_scan_python_imports(buf, len, on_import, &c);
            kc_vec_free(&c.chains);
            for (uint32_t k = 0; k < pend.len; k++)
                add_edge(p, pend.data[k].target, gi);
            kc_vec_free(&pend);
        }
        free(buf);
        for (uint32_t j = 0; j < found.files.len; j++)
            kc_file_result_free(&found.files.data[j]);
        kc_vec_free(&found.files);
        for (uint32_t k = 0; k < stems.len; k++)
            free((char *)stems.data[k]);
        kc_vec_free(&stems);
    }
    for (uint32_t r = 0; r < roots.len; r++)
        free(roots.data[r]);
    kc_vec_free(&roots);
}

/* Does the repository at `root` call torch.compile anywhere (a Python
 * file that names `torch.compile` or `torch._dynamo` in its code,
 * kc_py_calls_torch_compile)? Its Python files,
 * walked as kc_expand_paths walks (.gitignore, hidden entries skipped),
 * at most OUTSIDE_MAX_FILES of them (more: not known). */
static kc_compile_use repo_compile_use(const char *root, size_t max_file_size, uint32_t *nread)
{
    kc_path_list found = {0};
    kc_expand_paths(&root, 1, &found);
    char *buf = NULL;
    size_t cap = 0, len = 0;
    uint32_t looked = 0;
    kc_compile_use use = KC_COMPILE_NEVER;
    for (uint32_t j = 0; j < found.files.len && use == KC_COMPILE_NEVER; j++) {
        const char *path = found.files.data[j].path;
        size_t pl = strlen(path);
        if (found.files.data[j].errors.items.len || pl < 3 || strcmp(path + pl - 3, ".py") != 0)
            continue;
        if (++looked > OUTSIDE_MAX_FILES) {
            use = KC_COMPILE_UNKNOWN;
            break;
        }
        if (kc_read_regular(path, max_file_size, &buf, &cap, &len, NULL) && kc_py_calls_torch_compile(buf, len))
            use = KC_COMPILE_SEEN;
    }
    free(buf);
    for (uint32_t j = 0; j < found.files.len; j++)
        kc_file_result_free(&found.files.data[j]);
    kc_vec_free(&found.files);
    *nread = looked;
    return use;
}

/* The torch.compile use of the repository of each kernel file of the run,
 * each repository read once. */
static void link_compile_use(kc_project *p, kc_path_list *files, size_t max_file_size)
{
    KC_VEC(char *) roots = {0};
    KC_VEC(kc_compile_use) uses = {0};
    KC_VEC(uint32_t) counts = {0};
    for (uint32_t i = 0; i < p->nindexed; i++) {
        pyfile *f = &p->files.data[i];
        if (!f->defines_kernels)
            continue;
        char *root = kc_path_repository(f->path);
        if (!root)
            continue;
        uint32_t r = 0;
        while (r < roots.len && strcmp(roots.data[r], root) != 0)
            r++;
        if (r == roots.len) {
            uint32_t n = 0;
            kc_compile_use u = repo_compile_use(root, max_file_size, &n);
            kc_vec_push(&roots, root);
            kc_vec_push(&uses, u);
            kc_vec_push(&counts, n);
        } else {
            free(root);
        }
        kc_file_result *res = &files->files.data[f->result];
        res->peers.torch_compile = uses.data[r];
        res->peers.repo_py_files = counts.data[r];
    }
    for (uint32_t r = 0; r < roots.len; r++)
        free(roots.data[r]);
    kc_vec_free(&roots);
    kc_vec_free(&uses);
    kc_vec_free(&counts);
}

kc_project *kc_project_link(kc_path_list *files, size_t max_file_size, unsigned jobs)
{
    kc_project *p = kc_xcalloc(1, sizeof *p);
    /* Absolute paths, so that `pkg.ops.kernels` finds .../pkg/ops/kernels.py
     * from wherever kcheck runs. */
    char *cwd = getcwd(NULL, 0);
    for (size_t i = 0; i < files->files.len; i++) {
        const kc_file_result *r = &files->files.data[i];
        size_t n = strlen(r->path);
        if (r->errors.items.len || n < 3 || strcmp(r->path + n - 3, ".py") != 0)
            continue;
        pyfile f = {0};
        char *joined = r->path[0] == '/' || !cwd ? kc_xstrdup(r->path) : kc_xasprintf("%s/%s", cwd, r->path);
        f.path = kc_path_lexical(joined);
        free(joined);
        f.base = tail_key(f.path);
        f.result = i;
        kc_vec_push(&p->files, f);
    }
    free(cwd);
    if (!files->no_reach)
        kc_reach_link(files, max_file_size, &p->reach);
    uint32_t n = p->files.len;
    p->nindexed = n;
    if (n == 0)
        return p; /* nothing to link */
    p->by_path = kc_xcalloc(n, sizeof *p->by_path);
    p->by_base = kc_xcalloc(n, sizeof *p->by_base);
    for (uint32_t i = 0; i < n; i++)
        p->by_path[i] = p->by_base[i] = i;
    qsort_r(p->by_path, n, sizeof *p->by_path, cmp_path, p);
    qsort_r(p->by_base, n, sizeof *p->by_base, cmp_base, p);
    load_state st = {.p = p, .files = files, .max_file_size = max_file_size};
    atomic_init(&st.next, 0);
    st.pend = kc_xcalloc(n, sizeof *st.pend);
    st.rex = kc_xcalloc(n, sizeof *st.rex);
    if (jobs < 1)
        jobs = 1;
    if (jobs > n)
        jobs = n;
    pthread_t *th = kc_xcalloc(jobs, sizeof *th);
    unsigned started = 0;
    for (unsigned j = 1; j < jobs; j++)
        if (pthread_create(&th[started], NULL, load_worker, &st) == 0)
            started++;
    load_worker(&st);
    for (unsigned j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    free(th);
    /* Then the edges, to files that define kernels. */
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t k = 0; k < st.pend[i].len; k++)
            add_edge(p, st.pend[i].data[k].target, i);
        kc_vec_free(&st.pend[i]);
    }
    free(st.pend);
    link_outside(p, max_file_size);
    link_reexports(p, st.rex, max_file_size);
    free(st.rex);
    for (uint32_t i = 0; i < n; i++) { /* the run's files (importers found outside it come after) */
        pyfile *f = &p->files.data[i];
        kc_file_result *r = &files->files.data[f->result];
        r->peers.paths = f->peers.data;
        r->peers.n = f->peers.len;
    }
    link_compile_use(p, files, max_file_size);
    return p;
}

void kc_project_free(kc_project *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->extra.len; i++)
        free(p->extra.data[i]);
    kc_vec_free(&p->extra);
    for (uint32_t i = 0; i < p->files.len; i++) {
        free(p->files.data[i].path);
        kc_vec_free(&p->files.data[i].peers);
    }
    kc_vec_free(&p->files);
    kc_reach_free(&p->reach);
    free(p->by_path);
    free(p->by_base);
    free(p);
}
