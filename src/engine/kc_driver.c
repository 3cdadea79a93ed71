#include "kc_driver.h"

#include "kc_baseline.h"
#include "kc_cache.h"
#include "kc_fingerprint.h"
#include "kc_hash.h"
#include "kc_fixfile.h"
#include "kc_frontend.h"
#include "kc_changed.h"
#include "kc_project.h"
#include "kc_reach.h"
#include "kc_suppress.h"
#include "kc_rule.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Lowers `src`, runs the rules and the filters; fills out->diags,
 * out->baselined, out->errors, out->kernels and the counts. */
static void analyze(struct kc_frontend *fe, const kc_options *o, const kc_source *src, kc_lang lang,
                    const char *path, const kc_peers *peers, kc_file_result *out)
{
    /* The front end and the rules, or what they gave for the same input. */
    char *cache = kc_cache_dir(o);
    kc_cache_key key = {0, 0};
    if (cache)
        key = kc_cache_key_for(o, src, lang, peers);
    if (!cache || !kc_cache_load(cache, key, &out->diags, &out->errors, &out->kernels)) {
        kc_model *m = kc_frontend_lower(fe, src, lang, peers, &out->errors);
        kc_reach_mark(m, peers);
        if (m) {
            /* the file's model, then those of the CUDA source in its strings */
            for (const kc_model *x = m; x; x = x->next) {
                kc_rules_run(x, o, &out->diags);
                for (uint32_t i = 0; i < x->kernels.len; i++) {
                    const kc_kernel *k = x->kernels.data[i];
                    kc_kernel_ref ref = {kc_xstrdup(k->name), k->span.line, k->span.end_line, k->lang};
                    kc_vec_push(&out->kernels, ref);
                }
            }
            kc_diag_list_sort_unique(&out->diags);
        } else if (!out->errors.items.len) {
            kc_file_errors_add(&out->errors, 0, 0, "internal error: the front end failed");
        }
        if (cache)
            kc_cache_store(cache, key, &out->diags, &out->errors, &out->kernels, m ? m->deps.data : NULL,
                           m ? m->deps.len : 0, &out->cache_error);
        kc_model_delete(m);
    }
    free(cache);
    if (out->errors.items.len)
        return;
    kc_suppress_counts sc = {0};
    kc_suppress_apply(src, lang, o, &out->diags, &sc);
    out->suppressed = sc.suppressed;
    kc_diag_list_sort_unique(&out->diags);
    kc_fingerprint_diags(src, path, o->root, &out->diags);
    /* --severity, then --baseline. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < out->diags.items.len; i++) {
        kc_diag *d = &out->diags.items.data[i];
        if (d->severity < o->min_severity) {
            out->below_severity++;
            if (kc_diag_is_incomplete(d))
                kc_vec_push(&out->incomplete.items, *d);
            else
                kc_diag_dispose(d);
        } else if (o->baseline && kc_baseline_contains(o->baseline, d->fingerprint)) {
            kc_vec_push(&out->baselined.items, *d);
        } else {
            out->diags.items.data[kept++] = *d;
        }
    }
    out->diags.items.len = kept;
    /* --diff-base: the findings on lines changed since the revision */
    kept = 0;
    for (uint32_t i = 0; o->changed && i < out->diags.items.len; i++) {
        kc_diag *d = &out->diags.items.data[i];
        char *err = NULL;
        uint32_t last = d->span.end_line > d->span.line ? d->span.end_line : d->span.line;
        bool meets = kc_changed_meets(o->changed, path, d->span.line, last, &err);
        if (err) {
            kc_file_errors_add(&out->errors, 0, 0, "%s", err);
            free(err);
            for (uint32_t k = i; k < out->diags.items.len; k++)
                kc_diag_dispose(&out->diags.items.data[k]);
            for (uint32_t k = 0; k < kept; k++)
                kc_diag_dispose(&out->diags.items.data[k]);
            kept = 0;
            break;
        }
        if (meets)
            out->diags.items.data[kept++] = *d;
        else {
            out->unchanged++;
            kc_diag_dispose(d);
        }
    }
    if (o->changed)
        out->diags.items.len = kept;
}

static bool any_fix(const kc_diag_list *l)
{
    for (uint32_t i = 0; i < l->items.len; i++)
        if (l->items.data[i].fixes.len)
            return true;
    return false;
}

static void swap_analysis(kc_file_result *a, kc_file_result *b)
{
    kc_file_result t = *a;
    a->diags = b->diags;
    a->baselined = b->baselined;
    a->kernels = b->kernels;
    a->suppressed = b->suppressed;
    a->below_severity = b->below_severity;
    a->unchanged = b->unchanged;
    a->incomplete = b->incomplete;
    b->incomplete = t.incomplete;
    b->diags = t.diags;
    b->baselined = t.baselined;
    b->kernels = t.kernels;
    b->suppressed = t.suppressed;
    b->below_severity = t.below_severity;
    b->unchanged = t.unchanged;
}

/* --fix / --diff on a file that was analysed without errors. */
static void fix_file(struct kc_frontend *fe, const kc_options *o, kc_lang lang, const kc_file_stamp *stamp,
                     kc_file_result *r)
{
    size_t nlen = 0, nfixed = 0;
    char *err = NULL;
    char *text = kc_fix_text(r->src, &r->diags, &nlen, &nfixed, &err);
    if (!text) {
        kc_file_errors_add(&r->errors, 0, 0, "cannot apply the fix-its: %s; nothing written", err);
        free(err);
        return;
    }
    if (!nfixed) {
        free(text);
        return;
    }
    /* The fixed text must check without errors before it is written. */
    kc_source *nsrc = kc_source_from_memory(r->path, text, nlen, (size_t)-1, &err);
    kc_file_result after;
    memset(&after, 0, sizeof after);
    if (nsrc)
        analyze(fe, o, nsrc, lang, r->path, &r->peers, &after);
    if (!nsrc || after.errors.items.len) {
        const kc_file_error *e = nsrc ? &after.errors.items.data[0] : NULL;
        if (e && e->line)
            kc_file_errors_add(&r->errors, 0, 0,
                               "the fix-its would leave the file with errors (line %u: %s); nothing written",
                               e->line, e->message);
        else
            kc_file_errors_add(&r->errors, 0, 0, "the fix-its would leave the file with errors (%s); nothing written",
                               e ? e->message : err ? err : "?");
    } else if (o->format == KC_FORMAT_DIFF) {
        kc_strbuf sb = {0};
        if (kc_diff_unified(&sb, r->path, r->src->text, r->src->len, text, nlen)) {
            r->diff = kc_sb_take(&sb);
            r->fixed = nfixed;
        }
        kc_sb_free(&sb);
    } else {
        char *werr = NULL;
        if (!kc_file_replace(r->path, stamp, text, nlen, &werr)) {
            kc_file_errors_add(&r->errors, 0, 0, "%s", werr);
            free(werr);
        } else {
            kc_source *old = r->src;
            r->src = nsrc;
            nsrc = old;
            swap_analysis(r, &after);
            r->fixed = nfixed;
        }
    }
    free(err);
    kc_source_delete(nsrc);
    kc_file_result_free(&after);
    free(text);
}

void kc_check_file(struct kc_frontend *fe, const kc_options *opts, kc_file_result *r)
{
    if (r->errors.items.len)
        return; /* the path itself was bad (kc_expand_paths) */
    const kc_options *o = r->opts ? r->opts : opts;
    kc_lang lang;
    if (!kc_lang_for_path(r->path, &lang)) {
        kc_file_errors_add(&r->errors, 0, 0,
                           "not a CUDA (.cu, .cu.cc, .cuh, a header with device code or a C++ source with a kernel) or Python (.py) file");
        return;
    }
    bool fixing = o->fix || o->format == KC_FORMAT_DIFF;
    kc_file_stamp stamp;
    memset(&stamp, 0, sizeof stamp);
    if (fixing) {
        kc_file_stamp_take(r->path, &stamp);
        stamp.any_owner = o->fix_any_owner;
    }
    char *err = NULL;
    if (!r->src) /* else given (standard input) */
        r->src = kc_source_load(r->path, o->max_file_size, &err);
    if (!r->src) {
        kc_file_errors_add(&r->errors, 0, 0, "%s", err ? err : "cannot read");
        free(err);
        return;
    }
    if ((kc_path_is_plain_header(r->path) && !kc_source_has_device_code(r->src->text, r->src->len)) ||
        (kc_path_is_cxx_source(r->path) && !kc_source_has_kernels(r->src->text, r->src->len))) {
        r->skipped = true; /* a host or C header, a host C++ source: nothing for kcheck */
        return;
    }
    if (fixing) {
        stamp.hash = kc_hash_bytes(r->src->text, r->src->len);
        if (stamp.size != (off_t)r->src->len)
            stamp.valid = false; /* it changed while being read */
    }
    analyze(fe, o, r->src, lang, r->path, &r->peers, r);
    if (fixing && !r->errors.items.len && any_fix(&r->diags))
        fix_file(fe, o, lang, &stamp, r);
}

/* ---- the worker pool ---- */

/* What a file's check is at, under run_state.mu. */
enum { FILE_WAITING = 0, FILE_DONE, FILE_GIVEN_UP };

typedef struct run_state {
    const kc_options *opts;
    kc_path_list *files;
    atomic_size_t next;
    pthread_mutex_t mu;
    pthread_cond_t cv;   /* on CLOCK_MONOTONIC */
    uint8_t *state;      /* one FILE_* per file, under mu */
    double *started;     /* when a worker took each file (monotonic s; 0: not yet), under mu */
    unsigned live;       /* workers that have not ended, not counting stranded ones; under mu */
    pthread_t *taker;    /* the worker that took each file, under mu */
    KC_VEC(pthread_t) joinable; /* workers started and not stranded (the reporting thread's) */
} run_state;

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

kc_frontend *kc_frontend_cache_get(kc_frontend_cache *c, const kc_options *o)
{
    for (uint32_t i = 0; i < c->opts.len; i++)
        if (c->opts.data[i] == o)
            return c->fes.data[i];
    kc_frontend *fe = kc_frontend_new(o);
    kc_vec_push(&c->opts, o);
    kc_vec_push(&c->fes, fe);
    return fe;
}

void kc_frontend_cache_free(kc_frontend_cache *c)
{
    for (uint32_t i = 0; i < c->fes.len; i++)
        kc_frontend_delete(c->fes.data[i]);
    kc_vec_free(&c->fes);
    kc_vec_free(&c->opts);
}

static void check_one(kc_frontend_cache *c, const kc_options *run_opts, kc_file_result *r)
{
    const kc_options *o = r->opts ? r->opts : run_opts;
    kc_check_file(kc_frontend_cache_get(c, o), o, r);
}

/* Takes files until none is left. The worker checks a copy of the file's
 * result and hands it over only if the file was not given up meanwhile
 * (over --file-timeout): then the reporting thread owns the file's slot,
 * and this thread, stranded, ends without touching anything of the run
 * again (its front ends are left as they are: the process ends without
 * cleaning up: kc_run_totals.stranded). */
static void *worker(void *arg)
{
    run_state *st = arg;
    kc_frontend_cache fc = {0};
    for (;;) {
        size_t i = atomic_fetch_add(&st->next, 1);
        if (i >= st->files->files.len)
            break;
        pthread_mutex_lock(&st->mu);
        st->started[i] = mono_now();
        st->taker[i] = pthread_self();
        kc_file_result r = st->files->files.data[i];
        pthread_cond_broadcast(&st->cv); /* the reporting thread times the file from now */
        pthread_mutex_unlock(&st->mu);
        check_one(&fc, st->opts, &r);
        pthread_mutex_lock(&st->mu);
        bool given_up = st->state[i] == FILE_GIVEN_UP;
        if (!given_up) {
            st->files->files.data[i] = r;
            st->state[i] = FILE_DONE;
            pthread_cond_broadcast(&st->cv);
        }
        pthread_mutex_unlock(&st->mu);
        if (given_up)
            return NULL;
    }
    kc_frontend_cache_free(&fc);
    pthread_mutex_lock(&st->mu);
    st->live--;
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->mu);
    return NULL;
}

/* Starts a worker. The run waits for run_state.live, so that a stranded
 * worker is never waited for, and then joins the others: a worker that has
 * said it ended may still be tearing its thread down, and a run that
 * returned before that would leave the caller a thread that holds the C
 * library's (or a sanitizer runtime's) locks, which a fork() then inherits
 * held (a forked child of an ASan build hung in pthread_create). */
static bool start_worker(run_state *st, size_t *stack)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, *stack);
    pthread_t th;
    pthread_mutex_lock(&st->mu);
    st->live++;
    pthread_mutex_unlock(&st->mu);
    int rc = pthread_create(&th, &attr, worker, st);
    if (rc != 0 && *stack > ((size_t)16 << 20)) {
        *stack = (size_t)16 << 20; /* no room for big stacks: the old size */
        pthread_attr_setstacksize(&attr, *stack);
        rc = pthread_create(&th, &attr, worker, st);
    }
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pthread_mutex_lock(&st->mu);
        st->live--;
        pthread_mutex_unlock(&st->mu);
    } else {
        kc_vec_push(&st->joinable, th);
    }
    return rc == 0;
}

/* The stranded worker TH is never joined: it is detached and forgotten. */
static void strand(run_state *st, pthread_t th)
{
    for (uint32_t k = 0; k < st->joinable.len; k++)
        if (pthread_equal(st->joinable.data[k], th)) {
            pthread_detach(th);
            st->joinable.data[k] = st->joinable.data[--st->joinable.len];
            return;
        }
}

/* Waits, under st->mu, until file i is done, or gives it up once it has
 * run for longer than the time limit (0: none). True when given up. */
static bool wait_for_file(run_state *st, size_t i, double limit)
{
    while (st->state[i] == FILE_WAITING) {
        if (limit <= 0 || st->started[i] == 0) {
            pthread_cond_wait(&st->cv, &st->mu);
            continue;
        }
        double end = st->started[i] + limit;
        if (mono_now() >= end) {
            st->state[i] = FILE_GIVEN_UP;
            return true;
        }
        struct timespec ts = {(time_t)end, (long)((end - (double)(time_t)end) * 1e9)};
        pthread_cond_timedwait(&st->cv, &st->mu, &ts);
    }
    return false;
}

static void tally(const kc_options *opts, const kc_file_result *r, kc_run_totals *t)
{
    if (r->skipped) {
        t->skipped++;
        return;
    }
    t->files++;
    t->incomplete += kc_file_result_incomplete(r);
    if (r->cache_error && t->cache_unwritten++ == 0)
        t->cache_error = kc_xstrdup(r->cache_error);
    if (r->errors.items.len)
        t->file_errors++;
    for (uint32_t i = 0; i < r->diags.items.len; i++) {
        const kc_diag *d = &r->diags.items.data[i];
        t->diags[d->severity]++;
        if (d->severity >= opts->fail_on)
            t->failing++;
        const kc_rule *rule = kc_rules_find(d->rule_id, NULL);
        size_t idx = rule ? kc_rules_index(rule) : (size_t)-1;
        if (idx < t->nrules)
            t->by_rule[idx]++;
    }
    t->suppressed += r->suppressed;
    t->baselined += r->baselined.items.len;
    t->below_severity += r->below_severity;
    t->unchanged += r->unchanged;
    t->fixed += r->fixed;
    t->files_fixed += r->fixed > 0;
}

void kc_run_files(const kc_options *opts, kc_path_list *files, kc_result_fn fn, void *ud,
                  kc_run_totals *totals)
{
    memset(totals, 0, sizeof *totals);
    totals->nrules = kc_rules_count();
    totals->by_rule = kc_xcalloc(totals->nrules, sizeof *totals->by_rule);
    size_t n = files->files.len;
    if (n == 0)
        return;
    unsigned jobs = opts->jobs ? opts->jobs : 1;
    if (jobs > n)
        jobs = (unsigned)n;
    /* Which Python files import which (launches in other files). */
    kc_project *proj = kc_project_link(files, opts->max_file_size, jobs);
    /* On the heap: a stranded worker may still read it after this returns. */
    run_state *st = kc_xcalloc(1, sizeof *st);
    st->opts = opts;
    st->files = files;
    atomic_init(&st->next, 0);
    pthread_mutex_init(&st->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&st->cv, &ca);
    pthread_condattr_destroy(&ca);
    st->state = kc_xcalloc(n, 1);
    st->started = kc_xcalloc(n, sizeof *st->started);
    st->taker = kc_xcalloc(n, sizeof *st->taker);
    unsigned started = 0;
    /* Files are checked on worker threads, even with -j 1, for their
     * stack: libclang's parser and Sema recurse once per nesting level
     * (up to ~4 KiB a level for `- - - x`), and its own parse thread has
     * 8 MiB, which 10,000 nested `if`s or unary operators overflow
     * (SIGSEGV, found by test_hostile). With LIBCLANG_NOTHREADS libclang
     * parses on the calling thread, whose stack is reserved here (pages
     * are only committed when touched). */
    setenv("LIBCLANG_NOTHREADS", "1", 0);
    size_t stack = (size_t)256 << 20;
    for (unsigned j = 0; j < jobs && start_worker(st, &stack); j++)
        started++;
    /* Without threads the work is done here, and no file can be given up. */
    double limit = started ? opts->file_timeout_s : 0;
    if (started == 0) {
        st->live = 1;
        worker(st);
    }
    /* Report in file order as results arrive. A file that takes longer
     * than the time limit is reported as not checked, and a new worker
     * takes the place of the one still busy with it. */
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&st->mu);
        bool given_up = wait_for_file(st, i, limit);
        double took = given_up ? mono_now() - st->started[i] : 0;
        pthread_t taker = st->taker[i];
        if (given_up)
            st->live--; /* stranded */
        pthread_mutex_unlock(&st->mu);
        if (given_up)
            strand(st, taker);
        kc_file_result *r = &files->files.data[i];
        if (given_up) {
            totals->stranded++;
            if (!start_worker(st, &stack)) {
                /* no thread to take its place: the rest is checked here,
                 * without a time limit */
                pthread_mutex_lock(&st->mu);
                bool none = st->live == 0;
                st->live += none;
                pthread_mutex_unlock(&st->mu);
                if (none) {
                    limit = 0;
                    worker(st);
                }
            }
            kc_file_errors_add(&r->errors, 0, 0,
                               "not checked: given up after %.0f s, the time limit of one file "
                               "(--file-timeout=SECONDS raises it; 0: no limit)",
                               took);
        }
        tally(opts, r, totals);
        fn(ud, r);
        if (given_up) {
            /* the stranded worker still holds the path, the options and
             * the peers: keep them */
            kc_file_errors_free(&r->errors);
            memset(r, 0, sizeof *r);
        } else {
            kc_file_result_free(r);
        }
    }
    pthread_mutex_lock(&st->mu);
    while (st->live)
        pthread_cond_wait(&st->cv, &st->mu);
    pthread_mutex_unlock(&st->mu);
    for (uint32_t k = 0; k < st->joinable.len; k++)
        pthread_join(st->joinable.data[k], NULL);
    kc_vec_free(&st->joinable);
    if (totals->stranded)
        return; /* st and proj stay: a stranded worker may still use them */
    free(st->state);
    free(st->started);
    free(st->taker);
    kc_project_free(proj);
    pthread_cond_destroy(&st->cv);
    pthread_mutex_destroy(&st->mu);
    free(st);
}
