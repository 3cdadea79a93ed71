/* Running the plans: here (every plan in one Python process, again for
 * the plans left when one ended it, and alone what the batch could not
 * run), as an --export bundle with its run.sh, or not at all: --results
 * reads the documents recorded from such a run. */
#include "verify_internal.h"

#include "kc_file.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The name of a binding's results document: the file's name and the
 * binding's line, "name.py-L6.json". */
static char *results_name(const kc_file_result *r, const kc_binding *b)
{
    char *copy = kc_xstrdup(r->path);
    char *name = kc_xasprintf("%s-L%u.json", basename(copy), b->line);
    free(copy);
    return name;
}

static char *local_results(const kc_verify_env *e, const kc_verify_job *j)
{
    return kc_xasprintf("%s/%s.results.json", e->workdir, j->plan);
}

static void write_driver(const kc_verify_env *e)
{
    char *drv = kc_xasprintf("%s/kcheck_verify_driver.py", e->workdir);
    if (access(drv, F_OK) != 0)
        kc_write_file(drv, kc_verify_driver_py, strlen(kc_verify_driver_py));
    free(drv);
}

/* What --no-run and --save-results make of a results document. */
static json_t *finish_doc(kc_verify_env *e, const kc_verify_job *j, json_t *doc, char **why)
{
    if (doc && e->o->verify_no_run) {
        json_t *build = json_object_get(doc, "build");
        const char *fatal = json_string_value(json_object_get(doc, "fatal"));
        if (fatal)
            *why = kc_xasprintf("not run (--no-run); %s", fatal);
        else if (json_is_true(json_object_get(build, "ok")))
            *why = kc_xasprintf("not run (--no-run): %s", json_object_get(build, "arch")
                                                               ? "harness built"
                                                               : "plan written and its Python compiled");
        else
            *why = kc_xstrdup("not run (--no-run); the build failed");
        json_decref(doc);
        doc = NULL;
    }
    if (doc && e->o->verify_save_dir) {
        kc_mkdir_p(e->o->verify_save_dir, 0755);
        char *rname = results_name(j->r, j->b);
        char *sp = kc_xasprintf("%s/%s", e->o->verify_save_dir, rname);
        json_dump_file(doc, sp, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        free(sp);
        free(rname);
    }
    return doc;
}

/* Runs one plan in a process of its own: what is left when the batch could
 * not run it, with the reason the process gave. */
static void run_alone(kc_verify_env *e, kc_verify_job *j)
{
    char *drv = kc_xasprintf("%s/kcheck_verify_driver.py", e->workdir);
    char *plan_path = kc_xasprintf("%s/%s", e->workdir, j->plan);
    char *res_path = local_results(e, j);
    char *log_path = kc_xasprintf("%s/%s.log", e->workdir, j->plan);
    char *cache = kc_xasprintf("TRITON_CACHE_DIR=%s/triton-cache", e->workdir);
    char *tmpenv = kc_xasprintf("TMPDIR=%s/tmp", e->workdir);
    char *envs[] = {cache, tmpenv, "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1", NULL};
    char *argv[] = {(char *)e->python, drv, plan_path, res_path, e->o->verify_no_run ? "--build-only" : NULL, NULL};
    kc_proc_result pr;
    double limit = kc_verify_plan_limit(e);
    kc_run_process(argv, e->workdir, log_path, log_path, envs, limit, &pr);
    json_error_t je;
    json_t *doc = json_load_file(res_path, 0, &je);
    if (pr.interrupted) {
        e->interrupted = pr.interrupted;
        j->why = kc_xasprintf("interrupted (signal %d): the driver was stopped", pr.interrupted);
    } else if (!pr.started)
        j->why = kc_xasprintf("`%s` not found: verify runs its experiments through python3", e->python);
    else if (pr.timed_out)
        j->why = kc_xasprintf("timed out after %.0f s (the process group was killed)", limit);
    else if (pr.output_limit)
        j->why = kc_xasprintf("the driver wrote a file past the output limit (KCHECK_VERIFY_MAX_OUTPUT_MB) and was "
                              "stopped; log %s",
                              log_path);
    else if (pr.signal)
        j->why = kc_xasprintf("the driver was killed by signal %d", pr.signal);
    else if (!doc)
        j->why = kc_xasprintf("the driver wrote no results (exit status %d; log %s)", pr.exit_code, log_path);
    j->doc = finish_doc(e, j, doc, &j->why);
    free(drv);
    free(plan_path);
    free(res_path);
    free(log_path);
    free(cache);
    free(tmpenv);
}

/* Writes the batch file of the plans that have no results yet; returns how
 * many it lists. */
static size_t write_batch(const kc_verify_env *e, kc_verify_job *jobs, size_t nj, const char *path)
{
    json_t *list = json_array();
    for (size_t i = 0; i < nj; i++) {
        if (!jobs[i].plan || jobs[i].why)
            continue;
        char *rp = local_results(e, &jobs[i]);
        if (access(rp, F_OK) != 0) {
            json_t *it = json_object();
            json_object_set_new(it, "plan", json_string(jobs[i].plan));
            char *rel = kc_xasprintf("%s.results.json", jobs[i].plan);
            json_object_set_new(it, "results", json_string(rel));
            free(rel);
            json_array_append_new(list, it);
        }
        free(rp);
    }
    size_t n = json_array_size(list);
    json_t *doc = json_object();
    json_object_set_new(doc, "plans", list);
    if (json_dump_file(doc, path, JSON_INDENT(1)) != 0)
        n = 0;
    json_decref(doc);
    return n;
}

/* Runs every plan in one Python process (one import of torch and Triton,
 * one CUDA context), again for the plans left when a plan ended it (a time
 * limit, a GPU fault); a plan the batch could not run at all runs alone. */
void kc_verify_run_local(kc_verify_env *e, kc_verify_job *jobs, size_t nj)
{
    write_driver(e);
    char *drv = kc_xasprintf("%s/kcheck_verify_driver.py", e->workdir);
    char *batch = kc_xasprintf("%s/batch.json", e->workdir);
    char *cache = kc_xasprintf("TRITON_CACHE_DIR=%s/triton-cache", e->workdir);
    char *tmpd = kc_xasprintf("%s/tmp", e->workdir);
    mkdir(tmpd, 0700);
    char *tmpenv = kc_xasprintf("TMPDIR=%s", tmpd);
    free(tmpd);
    char *envs[] = {cache, tmpenv, "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1", NULL};
    const char *why_all = NULL;
    char *timed_out = NULL;
    for (unsigned round = 0;; round++) {
        size_t left = write_batch(e, jobs, nj, batch);
        if (!left || round > nj)
            break;
        char *log_path = kc_xasprintf("%s/batch_%u.log", e->workdir, round);
        char *argv[] = {(char *)e->python, drv, "--batch", batch, e->workdir,
                        e->o->verify_no_run ? "--build-only" : NULL, NULL};
        kc_proc_result pr;
        double limit = kc_verify_plan_limit(e) * (double)left;
        kc_run_process(argv, e->workdir, log_path, log_path, envs, limit, &pr);
        free(log_path);
        if (pr.interrupted) {
            e->interrupted = pr.interrupted;
            break;
        }
        if (!pr.started) {
            why_all = "not found";
            break;
        }
        if (pr.timed_out) {
            timed_out = kc_xasprintf("timed out after %.0f s (the process group was killed)", limit);
            break;
        }
        if (write_batch(e, jobs, nj, batch) == left)
            break; /* no progress: the plans left run alone */
    }
    for (size_t i = 0; i < nj; i++) {
        kc_verify_job *j = &jobs[i];
        if (!j->plan || j->why)
            continue;
        char *rp = local_results(e, j);
        if (access(rp, F_OK) == 0) {
            json_error_t je;
            json_t *doc = json_load_file(rp, 0, &je);
            if (!doc)
                j->why = kc_xasprintf("the driver's results are not JSON: %s", je.text);
            j->doc = finish_doc(e, j, doc, &j->why);
        } else if (why_all) {
            j->why = kc_xasprintf("`%s` not found: verify runs its experiments through python3", e->python);
        } else if (timed_out) {
            j->why = kc_xstrdup(timed_out);
        } else if (e->interrupted) {
            j->why = kc_xasprintf("interrupted (signal %d) before it ran", e->interrupted);
        } else {
            run_alone(e, j);
        }
        free(rp);
    }
    free(timed_out);
    free(drv);
    free(batch);
    free(cache);
    free(tmpenv);
}

/* --export: the bundle's batch file and its run.sh lines. */
void kc_verify_export_all(kc_verify_env *e, kc_verify_job *jobs, size_t nj)
{
    write_driver(e);
    json_t *list = json_array();
    for (size_t i = 0; i < nj; i++) {
        if (!jobs[i].plan || jobs[i].why)
            continue;
        char *rname = results_name(jobs[i].r, jobs[i].b);
        json_t *it = json_object();
        json_object_set_new(it, "plan", json_string(jobs[i].plan));
        json_object_set_new(it, "results", json_string(rname));
        json_array_append_new(list, it);
        free(rname);
    }
    size_t n = json_array_size(list);
    json_t *doc = json_object();
    json_object_set_new(doc, "plans", list);
    char *bp = kc_xasprintf("%s/batch.json", e->workdir);
    json_dump_file(doc, bp, JSON_INDENT(1));
    json_decref(doc);
    free(bp);
    if (e->run_sh && n) {
        fprintf(e->run_sh,
                "# Every plan in one Python process; a plan that ends it (time limit, GPU\n"
                "# fault) is not run again, and the next round goes on with the rest.\n"
                "export KCHECK_PLAN_TIMEOUT=\"$limit\"\n"
                "rounds=0\n"
                "while [ $rounds -le %zu ]; do\n"
                "    timeout -k 10 $((limit * %zu)) python3 kcheck_verify_driver.py --batch batch.json \"$out\" && break\n"
                "    rounds=$((rounds + 1))\n"
                "done\n"
                "# Plans the batch could not run, one process each.\n",
                n, n);
        for (size_t i = 0; i < nj; i++) {
            if (!jobs[i].plan || jobs[i].why)
                continue;
            char *rname = results_name(jobs[i].r, jobs[i].b);
            /* The name comes from the user's file name: quoted for sh, never
             * interpreted (a ' is written as '\'' ). */
            fprintf(e->run_sh, "run %s '", jobs[i].plan);
            for (const char *c = rname; *c; c++)
                if (*c == '\'')
                    fputs("'\\''", e->run_sh);
                else
                    fputc(*c, e->run_sh);
            fputs("'\n", e->run_sh);
            free(rname);
        }
        fflush(e->run_sh);
    }
    for (size_t i = 0; i < nj; i++) {
        if (!jobs[i].plan || jobs[i].why)
            continue;
        jobs[i].why = kc_xasprintf("exported to %s (run `sh %s/run.sh RESULTS` on a GPU machine, then `kcheck verify "
                                   "--results RESULTS ...`)",
                                   e->o->verify_export_dir, e->o->verify_export_dir);
    }
}

/* --results: the recorded documents. */
void kc_verify_replay_all(kc_verify_env *e, kc_verify_job *jobs, size_t nj)
{
    for (size_t i = 0; i < nj; i++) {
        kc_verify_job *j = &jobs[i];
        if (!j->plan || j->why)
            continue;
        char *rname = results_name(j->r, j->b);
        char *rp = kc_xasprintf("%s/%s", e->o->verify_results_dir, rname);
        json_error_t je;
        j->doc = json_load_file(rp, 0, &je);
        if (!j->doc)
            j->why = kc_xasprintf("no recorded results at %s (%s)", rp, je.text);
        free(rp);
        free(rname);
    }
}
