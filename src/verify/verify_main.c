/* Verify mode's driver: the environment (reference kernels, GPU, work
 * directory or --export bundle) and kc_verify_files, which plans the
 * experiments of every binding, runs, exports or replays them, and judges
 * the findings from their results. */
#include "verify_internal.h"

#include "kc_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KCHECK_REFERENCE_DIR
#define KCHECK_REFERENCE_DIR "kernels/reference"
#endif

static char *find_in_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char *copy = kc_xstrdup(path), *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char *p = kc_xasprintf("%s/%s", *d ? d : ".", name);
        if (access(p, X_OK) == 0) {
            free(copy);
            return p;
        }
        free(p);
    }
    free(copy);
    return NULL;
}

static const char run_sh_head[] =
    "#!/bin/sh\n"
    "# kcheck verify bundle. Run on a machine with an NVIDIA GPU, python3, and\n"
    "# torch + triton (Triton plans) or nvcc (CUDA plans):\n"
    "#     sh run.sh RESULTS_DIR\n"
    "# then, where the sources are: kcheck verify --results RESULTS_DIR FILE...\n"
    "set -u\n"
    "# RESULTS_DIR is taken from the directory run.sh is called from.\n"
    "out=${1:-results}\n"
    "mkdir -p -- \"$out\" && out=$(cd -- \"$out\" && pwd) || exit 1\n"
    "cd -- \"$(dirname -- \"$0\")\" || exit 1\n"
    "# Triton's cache and the driver's temporary files: one directory, removed at exit.\n"
    "tmp=$(mktemp -d) || exit 1\n"
    "trap 'rm -rf \"$tmp\"' EXIT\n"
    "trap 'exit 130' INT TERM\n"
    "export TMPDIR=\"$tmp\" TRITON_CACHE_DIR=\"$tmp/triton-cache\" PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1\n"
    "# Each plan is killed (its whole process group) after KCHECK_PLAN_TIMEOUT seconds.\n"
    "limit=${KCHECK_PLAN_TIMEOUT:-%.0f}\n"
    "run() {\n"
    "    [ -e \"$out/$2\" ] && return 0\n"
    "    echo \"== $1 -> $out/$2\" >&2\n"
    "    timeout -k 10 \"$limit\" python3 kcheck_verify_driver.py \"$1\" \"$out/$2\" ||\n"
    "        echo \"   (driver exited with status $?; 124 means killed at the time limit)\" >&2\n"
    "}\n";

char *kc_verify_default_reference_dir(const char *compiled, const char *exe)
{
    struct stat st;
    if (exe && *exe) {
        /* <prefix>/bin/kcheck -> <prefix>/share/kcheck/reference: an
         * installed kcheck (cmake --install, the package) uses its own,
         * even where the build tree it came from still exists. */
        char *bin = kc_xstrdup(exe);
        char *slash = strrchr(bin, '/');
        if (slash) {
            *slash = '\0';
            char *cand = kc_xasprintf("%s/../share/kcheck/reference", bin);
            char *real = realpath(cand, NULL);
            free(cand);
            if (real && stat(real, &st) == 0 && S_ISDIR(st.st_mode)) {
                free(bin);
                return real;
            }
            free(real);
        }
        free(bin);
    }
    return kc_xstrdup(compiled);
}

/* The reference directory, the GPU (unless nothing runs here) and the
 * work directory: a temporary one, or the --export bundle and its run.sh. */
static void env_init(kc_verify_env *e)
{
    const kc_options *o = e->o;
    if (o->reference_dir) {
        e->reference_dir = kc_xstrdup(o->reference_dir);
    } else {
        char *exe = realpath("/proc/self/exe", NULL);
        e->reference_dir = kc_verify_default_reference_dir(KCHECK_REFERENCE_DIR, exe);
        free(exe);
    }
    e->reference_abs = realpath(e->reference_dir, NULL);
    e->python = o->python ? o->python : "python3";
    if (!o->verify_no_run && !o->verify_results_dir && !o->verify_export_dir) {
        char *smi = find_in_path("nvidia-smi");
        if (smi) {
            char *argv[] = {smi, "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader", NULL};
            e->gpu = kc_run_capture_line(argv, 20);
            free(smi);
        }
    }
    if (o->verify_export_dir) {
        if (!kc_mkdir_p(o->verify_export_dir, 0755)) {
            e->workdir_why = kc_xasprintf("cannot create %s: %s", o->verify_export_dir, strerror(errno));
            fprintf(e->err, "kcheck verify: %s\n", e->workdir_why);
            return;
        }
        e->workdir = kc_xstrdup(o->verify_export_dir);
        char *p = kc_xasprintf("%s/run.sh", e->workdir);
        e->run_sh = fopen(p, "w");
        if (e->run_sh)
            fprintf(e->run_sh, run_sh_head, o->verify_timeout_s * 4);
        free(p);
        return;
    }
    const char *tmpdir = getenv("TMPDIR");
    char *t = kc_xasprintf("%s/kcheck-verify-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    e->workdir = mkdtemp(t) ? t : NULL;
    if (!e->workdir) {
        e->workdir_why = kc_xasprintf("cannot create the work directory %s: %s", t, strerror(errno));
        free(t);
    }
}

static void env_free(kc_verify_env *e)
{
    if (e->run_sh)
        fclose(e->run_sh);
    if (e->workdir && !e->o->verify_keep && !e->o->verify_export_dir)
        kc_rmtree(e->workdir);
    else if (e->workdir && e->o->verify_keep)
        fprintf(e->err, "kcheck verify: kept %s\n", e->workdir);
    free(e->workdir);
    free(e->workdir_why);
    free(e->reference_dir);
    free(e->reference_abs);
    free(e->gpu);
}

int kc_verify_files(const kc_options *o, kc_file_result *files, size_t n, FILE *err)
{
    kc_verify_env e = {.o = o, .err = err};
    env_init(&e);
    if (!o->verify_no_run && !o->verify_results_dir && !o->verify_export_dir && !e.gpu)
        fprintf(err, "kcheck verify: no NVIDIA GPU found (nvidia-smi); experiments that need one will be "
                     "inconclusive\n");
    /* Plan everything, run it all at once, then judge. */
    kc_binding_list *lists = kc_xcalloc(n ? n : 1, sizeof *lists);
    kc_verify_job_vec jobs = {0};
    for (size_t i = 0; i < n; i++)
        if (files[i].src)
            kc_verify_plan_file(&e, &files[i], &lists[i], &jobs);
    if (o->verify_results_dir)
        kc_verify_replay_all(&e, jobs.data, jobs.len);
    else if (o->verify_export_dir && e.workdir)
        kc_verify_export_all(&e, jobs.data, jobs.len);
    else if (e.workdir) {
        /* the experiments run in the work directory: the user's
         * directories must come out as they went in */
        kc_tree_guard *guard = kc_tree_guard_take(files, n);
        kc_verify_run_local(&e, jobs.data, jobs.len);
        kc_tree_guard_check(guard, err);
        kc_tree_guard_free(guard);
    }
    for (uint32_t i = 0; i < jobs.len; i++) {
        kc_verify_judge_job(&jobs.data[i]);
        json_decref(jobs.data[i].doc);
        free(jobs.data[i].why);
        free(jobs.data[i].plan);
        free(jobs.data[i].idx);
    }
    kc_vec_free(&jobs);
    /* --run: what no binding covers, on the user's own launches */
    if (!e.interrupted)
        kc_verify_run_command(&e, files, n);
    for (size_t i = 0; i < n; i++)
        kc_bindings_free(&lists[i]);
    free(lists);
    env_free(&e);
    if (e.interrupted)
        fprintf(err, "kcheck verify: interrupted (signal %d): the experiments were stopped and their work "
                     "directory removed\n",
                e.interrupted);
    return e.interrupted;
}
