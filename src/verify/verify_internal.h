/* Private to src/verify.
 *
 * Each of its files calls only files listed before it (no cycle;
 * the test arch.layers checks it): bindings (binding.c), op
 * specs (opspec.c), processes and files (runner.c), the CUDA harness
 * (harness_cuda.c), compute-sanitizer's logs (sanitizer_log.c); then verdict.c (results documents into verdicts),
 * ncu_lines.c (Nsight Compute's per-line counters at a finding's line),
 * plan.c (plans, fixed copies), run.c (running, exporting or replaying
 * the plans), record.c (--run: the user's command and its recorded
 * launches) and, on top, verify_main.c (the environment and
 * kc_verify_files). */
#ifndef KC_VERIFY_INTERNAL_H
#define KC_VERIFY_INTERNAL_H

/* The file name a binding's call= is compiled under (nvcc's `#line` in the
 * CUDA harness, Python's compile() in the driver): an error located there
 * is the binding's mistake, reported at its line with exit status 2, not
 * a verdict on the kernel. The plan carries it to the driver. */
#define KC_VERIFY_CALL_FILE "kcheck-binding-call"

#include <jansson.h>
#include <string.h>

#include "kc_rule.h"
#include "kc_verify.h"

/* A string member of a results document, or "" (never NULL). */
static inline const char *kc_json_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* The last component of a path (compute-sanitizer and ncu name files by
 * their full path on the GPU machine). */
static inline const char *kc_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

struct kc_opspec {
    json_t *root;
    char *path;
};

/* The op's reference in `lang` ("cuda", "triton"): its file and function
 * (caller frees); false when the spec names none. */
bool kc_opspec_reference(const kc_opspec *s, const char *lang, char **file, char **func);

/* Removes a directory tree (best effort). */
void kc_rmtree(const char *path);
/* Writes a whole file; false with errno on failure. */
bool kc_write_file(const char *path, const char *data, size_t len);

/* The embedded Python driver (generated from kcheck_verify_driver.py). */
extern const char kc_verify_driver_py[];

/* ---- a verify run ---- */

/* What one verify run works with. */
typedef struct kc_verify_env {
    const kc_options *o;
    FILE *err;
    char *workdir;       /* temporary (removed unless --keep), or the --export directory */
    char *workdir_why;   /* why there is none */
    char *reference_dir; /* as configured */
    char *reference_abs; /* resolved */
    bool reference_copied;
    FILE *run_sh;        /* --export: the bundle's run script */
    char *gpu;           /* "NVIDIA H200, 580.159.04, 9.0" or NULL */
    const char *python;
    unsigned counter;
    int interrupted; /* the signal that stopped a run (kc_proc_result.interrupted): run nothing more */
} kc_verify_env;

/* One binding's plan and what came of it. */
typedef struct kc_verify_job {
    kc_file_result *r;
    const kc_binding *b;
    int *idx;    /* the findings it judges; none for a binding's own check */
    size_t n;
    char *plan;  /* the plan's file name in the work directory, or NULL */
    char *why;   /* why there is no results document */
    json_t *doc; /* the results document */
} kc_verify_job;

typedef KC_VEC(kc_verify_job) kc_verify_job_vec;

/* ---- sanitizer_log.c ---- */

/* One report of compute-sanitizer's text log. */
typedef struct kc_sanitizer_where {
    char *file;     /* as the log names it */
    uint32_t line;
    char *function; /* the kernel or device function, or NULL */
} kc_sanitizer_where;
typedef struct kc_sanitizer_report {
    char *what; /* "Invalid __global__ read of size 4 bytes" */
    char *who;  /* "by thread (96,0,0) in block (976,0,0)", or NULL */
    KC_VEC(kc_sanitizer_where) where; /* the device frames with a source line */
} kc_sanitizer_report;
typedef KC_VEC(kc_sanitizer_report) kc_sanitizer_report_vec;

void kc_sanitizer_parse(const char *text, size_t len, kc_sanitizer_report_vec *out);
void kc_sanitizer_reports_free(kc_sanitizer_report_vec *v);
/* The reports at a finding's lines of `path` (Triton names the line of the
 * `tl.load(` call, which may start a line or two above the offending
 * argument; an exported bundle's copy "<n>_<name>" is the same file): how
 * many, the first in *first and *where. */
size_t kc_sanitizer_at(const kc_sanitizer_report_vec *v, const char *path, const kc_diag *d,
                       const kc_sanitizer_report **first, const kc_sanitizer_where **where);

/* ---- verdict.c ---- */

/* Sets (or replaces) a diagnostic's verdict; evidence may be NULL. */
void kc_verify_set_verdict(kc_diag *d, const char *status, const char *summary, json_t *evidence);
/* How the diagnostic's rule is verified (KC_VERIFY_NONE for an unknown rule). */
kc_verify_kind kc_verify_kind_of(const kc_diag *d);
/* Whether the kind is a performance one (run time, compile time). */
bool kc_verify_is_perf(kc_verify_kind k);
kc_verify_metric kc_verify_metric_of(const kc_diag *d);
/* Judges a job's findings and records its binding's own check. */
void kc_verify_judge_job(kc_verify_job *j);

/* ---- plan.c ---- */

/* Writes a copy of the user's file with the fix-its of the listed
 * diagnostics applied (an edit that would overlap an earlier one is left
 * out); returns its path relative to the work directory, or NULL (no
 * fix-it, or it could not be written: said on e->err). */
char *kc_verify_fixed_copy(kc_verify_env *e, const kc_file_result *r, const kc_diag *diags, const int *idx, size_t n,
                           const char *ext);

/* Whether --run confirms this diagnostic on the user's own run (a finding
 * in a Triton kernel that no binding covers, or a memory or race finding
 * in a CUDA one) instead of calling it `no binding`. */
bool kc_verify_recorded(const kc_verify_env *e, const kc_file_result *r, const kc_diag *d);
/* How long one plan may run (the driver limits each experiment itself). */
double kc_verify_plan_limit(const kc_verify_env *e);
/* Plans the experiments of a file's bindings (findings without an
 * experiment or a binding get their verdict at once). */
void kc_verify_plan_file(kc_verify_env *e, kc_file_result *r, kc_binding_list *bl, kc_verify_job_vec *jobs);

/* ---- run.c ---- */

/* Runs every plan here, one Python process for all where it can. */
void kc_verify_run_local(kc_verify_env *e, kc_verify_job *jobs, size_t nj);
/* --export: writes the bundle's batch file and run.sh lines. */
void kc_verify_export_all(kc_verify_env *e, kc_verify_job *jobs, size_t nj);
/* --results: reads the recorded results documents. */
void kc_verify_replay_all(kc_verify_env *e, kc_verify_job *jobs, size_t nj);

/* ---- record.c ---- */

/* The embedded launch recorder of --run, the replay of a saved launch at a
 * larger size, and the recorder's sitecustomize. */
/* ---- ncu_lines.c ---- */
/* A performance finding with a per-line counter (KC101, KC103) judged by
 * kcheck_ncu.py's document of Nsight Compute's run of the command: the
 * status ("confirmed", "not-reproduced", "inconclusive") with its reason
 * appended to sb and its figures to ev; NULL when the finding has no such
 * counter, or when no document exists and why_none is NULL. */
const char *kc_ncu_judge(json_t *doc, const char *why_none, const kc_file_result *r, const kc_diag *d, bool triton,
                         kc_strbuf *sb, json_t *ev);

extern const char kc_ncu_py[];
extern const char kc_recorder_py[];
extern const char kc_replay_py[];
extern const char kc_sitecustomize_py[];

/* --run CMD: runs the user's command with the launch recorder, and
 * judges every finding kc_verify_recorded() took from the launches it
 * recorded. */
void kc_verify_run_command(kc_verify_env *e, kc_file_result *files, size_t n);

/* ---- the user's directories around the experiments (tree_guard.c) ---- */
typedef struct kc_tree_guard kc_tree_guard;
/* Lists the directory of every file (not recursively). */
kc_tree_guard *kc_tree_guard_take(const kc_file_result *files, size_t n);
/* Compares them with now, a warning on err per entry created, removed or
 * changed (the first 20); how many there were. */
unsigned kc_tree_guard_check(kc_tree_guard *g, FILE *err);
void kc_tree_guard_free(kc_tree_guard *g);

#endif
