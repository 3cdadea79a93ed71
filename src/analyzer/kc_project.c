/* kc_project.c — the import graph of the Python files of a run
 * (kc_project.h). */
#define _GNU_SOURCE 1 /* memmem, qsort_r */
#include "kc_project.h"

#include "kc_fingerprint.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the import scan ---- */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

typedef struct cursor {
    const char *p, *end;
    int paren; /* inside `from x import (...)` */
} cursor;

/* Skips blanks; inside parentheses also newlines and comments, and always
 * backslash continuations. */
static void skip_blanks(cursor *c)
{
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == ' ' || ch == '\t' || ch == '\f') {
            c->p++;
        } else if (ch == '\\' && c->end - c->p >= 2 && (c->p[1] == '\n' || c->p[1] == '\r')) {
            c->p += 2;
            if (c->p < c->end && c->p[-1] == '\r' && *c->p == '\n')
                c->p++;
        } else if (c->paren && (ch == '\n' || ch == '\r')) {
            c->p++;
        } else if (c->paren && ch == '#') {
            while (c->p < c->end && *c->p != '\n')
                c->p++;
        } else {
            break;
        }
    }
}

static bool keyword(cursor *c, const char *kw)
{
    skip_blanks(c);
    size_t n = strlen(kw);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, kw, n) != 0 ||
        (c->end - c->p > (ptrdiff_t)n && ident_char(c->p[n])))
        return false;
    c->p += n;
    return true;
}

/* A dotted name (with leading dots when `dots` is non-NULL). */
static bool dotted_name(cursor *c, unsigned *dots, const char **s, size_t *n)
{
    skip_blanks(c);
    unsigned d = 0;
    if (dots)
        while (c->p < c->end && *c->p == '.') {
            d++;
            c->p++;
            skip_blanks(c);
        }
    const char *start = c->p;
    if (d > 0) {
        /* `from . import x`: no name after the dots */
        cursor k = *c;
        if (keyword(&k, "import")) {
            *s = start;
            *n = 0;
            *dots = d;
            return true;
        }
    }
    while (c->p < c->end && (ident_char(*c->p) || (*c->p == '.' && c->p > start && c->end - c->p > 1 &&
                                                   ident_char(c->p[1]))))
        c->p++;
    *s = start;
    *n = (size_t)(c->p - start);
    if (dots)
        *dots = d;
    return *n > 0 || d > 0;
}


static void emit(kc_import_fn fn, void *ud, unsigned dots, const char *a, size_t an, const char *b, size_t bn,
                 const char *local, size_t ln, bool module)
{
    char buf[512], loc[256];
    if (an + bn + 2 > sizeof buf || ln + 1 > sizeof loc || !ln)
        return;
    memcpy(buf, a, an);
    size_t n = an;
    if (bn) {
        if (an)
            buf[n++] = '.';
        memcpy(buf + n, b, bn);
        n += bn;
    }
    buf[n] = '\0';
    memcpy(loc, local, ln);
    loc[ln] = '\0';
    if (n || dots)
        fn(ud, dots, buf, loc, module);
}

/* One statement at c->p (after its indentation). */
static void scan_statement(cursor *c, kc_import_fn fn, void *ud)
{
    const char *mod;
    size_t mlen;
    unsigned dots;
    if (keyword(c, "from")) {
        if (!dotted_name(c, &dots, &mod, &mlen) || !keyword(c, "import"))
            return;
        skip_blanks(c);
        if (c->p < c->end && *c->p == '(') {
            c->p++;
            c->paren = 1;
        }
        for (;;) {
            const char *nm, *al = NULL;
            size_t nl, all = 0;
            if (!dotted_name(c, NULL, &nm, &nl) || !nl || memchr(nm, '.', nl))
                break;
            if (keyword(c, "as"))
                dotted_name(c, NULL, &al, &all);
            if (!al || !all) {
                al = nm;
                all = nl;
            }
            /* a member of the module, or a submodule of the package */
            emit(fn, ud, dots, mod, mlen, NULL, 0, al, all, false);
            emit(fn, ud, dots, mod, mlen, nm, nl, al, all, true);
            skip_blanks(c);
            if (c->p < c->end && *c->p == ',') {
                c->p++;
                continue;
            }
            break;
        }
        c->paren = 0;
    } else if (keyword(c, "import")) {
        for (;;) {
            const char *al = NULL;
            size_t all = 0;
            if (!dotted_name(c, NULL, &mod, &mlen) || !mlen)
                break;
            if (keyword(c, "as"))
                dotted_name(c, NULL, &al, &all);
            if (al && all)
                emit(fn, ud, 0, mod, mlen, NULL, 0, al, all, true);
            else
                emit(fn, ud, 0, mod, mlen, NULL, 0, mod, mlen, true);
            skip_blanks(c);
            if (c->p < c->end && *c->p == ',') {
                c->p++;
                continue;
            }
            break;
        }
    }
}

/* How far back a continued statement is followed (`from a \` on earlier
 * lines): bounded, so that a file of continuation lines stays linear. */
#define KC_IMPORT_LOOKBACK 4096

void kc_scan_python_imports(const char *text, size_t len, kc_import_fn fn, void *ud)
{
    /* Every `import` keyword that begins a statement or follows its module
     * (`from x import`); a quoted one in a docstring costs at most a
     * spurious candidate. Line starts are tracked forward, so the scan is
     * linear in the text. */
    const char *end = text + len;
    const char *line = text, *seen = text; /* the start of the line holding `seen` */
    for (const char *p = text; p < end && (p = memmem(p, (size_t)(end - p), "import", 6)) != NULL; p += 6) {
        if ((p > text && ident_char(p[-1])) || (end - p > 6 && ident_char(p[6])))
            continue;
        const char *nl = p > seen ? memrchr(seen, '\n', (size_t)(p - seen)) : NULL;
        if (nl)
            line = nl + 1;
        seen = p;
        /* back over lines that end with a backslash, within the bound */
        const char *ls = line;
        while (ls > text && p - ls < KC_IMPORT_LOOKBACK) {
            const char *q = ls - 1; /* the previous line's newline */
            if (q > text && q[-1] == '\r')
                q--;
            if (!(q > text && q[-1] == '\\'))
                break;
            const char *lo = p - KC_IMPORT_LOOKBACK > text ? p - KC_IMPORT_LOOKBACK : text;
            const char *prev = q - 1 > lo ? memrchr(lo, '\n', (size_t)(q - 1 - lo)) : NULL;
            if (!prev && lo > text)
                break; /* the statement starts beyond the bound */
            ls = prev ? prev + 1 : text;
        }
        const char *s = ls;
        while (s < p && (*s == ' ' || *s == '\t' || *s == '\f'))
            s++;
        if (s != p && !(end - s > 5 && memcmp(s, "from", 4) == 0 && !ident_char(s[4])))
            continue;
        cursor st = {s, end, 0};
        scan_statement(&st, fn, ud);
        if (st.p > p + 6)
            p = st.p - 6;
    }
}

/* ---- resolving modules to the run's files ---- */

typedef struct pyfile {
    char *path;      /* absolute, normalized (kc_path_lexical) */
    const char *base; /* its tail key (tail_key), in path */
    size_t result;   /* index in the path list */
    bool defines_kernels; /* mentions `jit` */
    KC_VEC(const char *) peers;
} pyfile;

struct kc_project {
    KC_VEC(pyfile) files;
    uint32_t *by_path; /* indices sorted by path */
    uint32_t *by_base; /* indices sorted by base name, then path */
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
    uint32_t lo = 0, hi = p->files.len;
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

/* The dotted names a file subscripts (`k` in `k[grid]`, `mod.k` in
 * `mod.k [grid]`), sorted: collected in one pass over its brackets the
 * first time one of its imports resolves to a file of the run. */
typedef struct chain {
    const char *s;
    uint32_t n;
} chain;
typedef KC_VEC(chain) chain_vec;

static int cmp_chain_text(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static int cmp_chain(const void *x, const void *y)
{
    const chain *a = x, *b = y;
    return cmp_chain_text(a->s, a->n, b->s, b->n);
}

static void collect_chains(const char *text, size_t len, chain_vec *out)
{
    const char *end = text + len;
    for (const char *p = text; p < end && (p = memchr(p, '[', (size_t)(end - p))) != NULL; p++) {
        const char *e = p;
        while (e > text && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        const char *b = e;
        while (b > text && e - b < 256 && (ident_char(b[-1]) || b[-1] == '.'))
            b--;
        while (b < e && *b == '.')
            b++;
        if (b == e || isdigit((unsigned char)*b) || e[-1] == '.')
            continue;
        chain ch = {b, (uint32_t)(e - b)};
        kc_vec_push(out, ch);
    }
    if (out->len > 1)
        qsort(out->data, out->len, sizeof *out->data, cmp_chain);
}

/* Does the file subscript `local` (a member) or `local.name` (a module)? */
static bool launches_through(const chain_vec *ch, const char *local, bool module)
{
    size_t n = strlen(local);
    uint32_t lo = 0, hi = ch->len;
    while (lo < hi) { /* the first chain >= local */
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_chain_text(ch->data[mid].s, ch->data[mid].n, local, n) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < ch->len && ch->data[i].n >= n && memcmp(ch->data[i].s, local, n) == 0; i++) {
        const chain *c = &ch->data[i];
        if (!module) {
            if (c->n == n)
                return true;
        } else if (c->n > n + 1 && c->s[n] == '.' && !memchr(c->s + n + 1, '.', c->n - n - 1)) {
            return true;
        }
    }
    return false;
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
    chain_vec chains;
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
    if (i < p->files.len && strcmp(p->files.data[p->by_path[i]].path, path) == 0 && *n < max)
        out[(*n)++] = p->by_path[i];
}

/* The run's files whose path ends with `rel` ("a/b/c.py") at a component. */
static void find_tail(const kc_project *p, const char *rel, uint32_t *out, uint32_t *n, uint32_t max)
{
    const char *base = tail_key(rel);
    size_t rl = strlen(rel);
    for (uint32_t i = lower_bound(p, p->by_base, true, base);
         i < p->files.len && strcmp(p->files.data[p->by_base[i]].base, base) == 0 && *n < max; i++) {
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
        collect_chains(c->text, c->len, &c->chains);
        c->chains_ready = true;
    }
    if (!launches_through(&c->chains, local, is_module))
        return;
    for (uint32_t i = 0; i < n; i++) {
        pending pd = {c->importer, targets[i]};
        kc_vec_push(c->out, pd);
    }
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
} load_state;

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
        if (memchr(buf, '[', len)) {
            link_ctx c = {st->p, i, buf, len, &st->pend[i], 0, false, {0}};
            kc_scan_python_imports(buf, len, on_import, &c);
            kc_vec_free(&c.chains);
        }
    }
    free(buf);
    return NULL;
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
    uint32_t n = p->files.len;
    if (n < 2)
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
    for (uint32_t i = 0; i < n; i++) {
        pyfile *f = &p->files.data[i];
        kc_file_result *r = &files->files.data[f->result];
        r->peers.paths = f->peers.data;
        r->peers.n = f->peers.len;
    }
    return p;
}

void kc_project_free(kc_project *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; i < p->files.len; i++) {
        free(p->files.data[i].path);
        kc_vec_free(&p->files.data[i].peers);
    }
    kc_vec_free(&p->files);
    free(p->by_path);
    free(p->by_base);
    free(p);
}
