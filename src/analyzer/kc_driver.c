#include "kc_driver.h"

#include "kc_frontend.h"
#include "../rules/kc_rule.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void kc_file_result_free(kc_file_result *r)
{
    free(r->path);
    kc_source_delete(r->src);
    kc_diag_list_free(&r->diags);
    kc_file_errors_free(&r->errors);
    for (uint32_t i = 0; i < r->kernels.len; i++)
        free(r->kernels.data[i].name);
    kc_vec_free(&r->kernels);
    for (uint32_t i = 0; i < r->checks.len; i++) {
        free(r->checks.data[i].op);
        free(r->checks.data[i].status);
        free(r->checks.data[i].summary);
    }
    kc_vec_free(&r->checks);
    memset(r, 0, sizeof *r);
}

void kc_check_file(struct kc_frontend *fe, const kc_options *opts, kc_file_result *r)
{
    if (r->errors.items.len)
        return; /* the path itself was bad (kc_expand_paths) */
    kc_lang lang;
    if (!kc_lang_for_path(r->path, &lang)) {
        kc_file_errors_add(&r->errors, 0, 0,
                           "not a CUDA (.cu, .cuh) or Python (.py) file");
        return;
    }
    char *err = NULL;
    r->src = kc_source_load(r->path, opts->max_file_size, &err);
    if (!r->src) {
        kc_file_errors_add(&r->errors, 0, 0, "%s", err ? err : "cannot read");
        free(err);
        return;
    }
    kc_model *m = kc_frontend_lower(fe, r->src, lang, &r->errors);
    if (!m) {
        if (!r->errors.items.len)
            kc_file_errors_add(&r->errors, 0, 0, "internal error: the front end failed");
        return;
    }
    kc_rules_run(m, opts, &r->diags);
    for (uint32_t i = 0; i < m->kernels.len; i++) {
        const kc_kernel *k = m->kernels.data[i];
        kc_kernel_ref ref = {kc_xstrdup(k->name), k->span.line, k->span.end_line, k->lang};
        kc_vec_push(&r->kernels, ref);
    }
    kc_model_delete(m);
    kc_diag_list_sort_unique(&r->diags);
}

/* ---- the worker pool ---- */

typedef struct run_state {
    const kc_options *opts;
    kc_path_list *files;
    atomic_size_t next;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *done; /* one flag per file, under mu */
} run_state;

static void *worker(void *arg)
{
    run_state *st = arg;
    kc_frontend *fe = kc_frontend_new(st->opts);
    for (;;) {
        size_t i = atomic_fetch_add(&st->next, 1);
        if (i >= st->files->files.len)
            break;
        kc_check_file(fe, st->opts, &st->files->files.data[i]);
        pthread_mutex_lock(&st->mu);
        st->done[i] = 1;
        pthread_cond_broadcast(&st->cv);
        pthread_mutex_unlock(&st->mu);
    }
    kc_frontend_delete(fe);
    return NULL;
}

static void tally(const kc_options *opts, const kc_file_result *r, kc_run_totals *t)
{
    t->files++;
    if (r->errors.items.len)
        t->file_errors++;
    for (uint32_t i = 0; i < r->diags.items.len; i++) {
        kc_severity s = r->diags.items.data[i].severity;
        t->diags[s]++;
        if (s >= opts->fail_on)
            t->failing++;
    }
}

void kc_run_files(const kc_options *opts, kc_path_list *files, kc_result_fn fn, void *ud,
                  kc_run_totals *totals)
{
    memset(totals, 0, sizeof *totals);
    size_t n = files->files.len;
    if (n == 0)
        return;
    unsigned jobs = opts->jobs ? opts->jobs : 1;
    if (jobs > n)
        jobs = (unsigned)n;
    if (jobs == 1) {
        kc_frontend *fe = kc_frontend_new(opts);
        for (size_t i = 0; i < n; i++) {
            kc_file_result *r = &files->files.data[i];
            kc_check_file(fe, opts, r);
            tally(opts, r, totals);
            fn(ud, r);
            kc_file_result_free(r);
        }
        kc_frontend_delete(fe);
        return;
    }
    run_state st = {.opts = opts, .files = files};
    atomic_init(&st.next, 0);
    pthread_mutex_init(&st.mu, NULL);
    pthread_cond_init(&st.cv, NULL);
    st.done = kc_xcalloc(n, 1);
    pthread_t *th = kc_xcalloc(jobs, sizeof *th);
    unsigned started = 0;
    /* Front ends recurse over syntax trees: give workers the stack a main
     * thread would have. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)16 << 20);
    for (unsigned j = 0; j < jobs; j++) {
        if (pthread_create(&th[j], &attr, worker, &st) != 0)
            break;
        started++;
    }
    pthread_attr_destroy(&attr);
    if (started == 0) /* no threads: do the work here */
        worker(&st);
    /* Report in file order as results arrive. */
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&st.mu);
        while (!st.done[i])
            pthread_cond_wait(&st.cv, &st.mu);
        pthread_mutex_unlock(&st.mu);
        kc_file_result *r = &files->files.data[i];
        tally(opts, r, totals);
        fn(ud, r);
        kc_file_result_free(r);
    }
    for (unsigned j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    free(th);
    free(st.done);
    pthread_cond_destroy(&st.cv);
    pthread_mutex_destroy(&st.mu);
}
