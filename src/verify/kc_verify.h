/* kc_verify.h — verify mode: confirm findings on the GPU.
 *
 * For every file with findings, verify reads the bindings
 * (`kcheck: verify op=... call="..."` comments), plans one set of
 * experiments per binding from the rules' kc_verify_kind, generates a
 * harness (a plan for the Python driver; a CUDA C++ host program), builds
 * and runs it under time limits, and turns the measurements into a verdict
 * on each diagnostic. See docs/verify.md.
 */
#ifndef KC_VERIFY_H
#define KC_VERIFY_H

#include <stdio.h>

#include "kc_result.h"
#include "kc_options.h"

/* ---- bindings ---- */
typedef struct kc_binding {
    uint32_t line;     /* of the comment */
    char *op;          /* owned */
    char *call;        /* owned */
    char *kernel;      /* owned; NULL = the next kernel below; "*" = all */
    char *sizes;       /* owned; "M=1024,N=4096" or NULL */
    char *outputs;     /* owned; buffer names the spec's outputs live in, or NULL */
} kc_binding;

typedef struct kc_binding_list {
    KC_VEC(kc_binding) items;
    kc_file_errors errors; /* malformed annotations, at their lines */
} kc_binding_list;

void kc_bindings_parse(const kc_source *src, kc_binding_list *out);
void kc_bindings_free(kc_binding_list *l);
/* The binding that applies to kernel `k` of the file, or NULL. */
const kc_binding *kc_binding_for(const kc_binding_list *l, const kc_file_result *r, const char *kernel);

/* ---- op specs (jansson inside) ---- */
typedef struct kc_opspec kc_opspec;
kc_opspec *kc_opspec_load(const char *path, char **err);
void kc_opspec_delete(kc_opspec *s);
const char *kc_opspec_name(const kc_opspec *s);

/* The default reference directory: ../share/kcheck/reference next to the
 * directory of `exe` when it exists (where `cmake --install` and the
 * package put it), else `compiled` (the source tree's kernels/reference,
 * KCHECK_REFERENCE_DIR, for a binary run from its build tree). Caller
 * frees. */
char *kc_verify_default_reference_dir(const char *compiled, const char *exe);

/* ---- processes ---- */
typedef struct kc_proc_result {
    bool started;
    bool timed_out;
    int exit_code;   /* -1 when killed by a signal */
    int signal;
    /* SIGINT, SIGTERM or SIGHUP sent to kcheck while it waited: the group
     * was killed at once and nothing more should run (0: none) */
    int interrupted;
    /* the process passed the limit on the size of a file it writes
     * (KCHECK_VERIFY_MAX_OUTPUT_MB, 1024 by default) and was stopped */
    bool output_limit;
    double wall_s;
} kc_proc_result;

/* Runs argv (argv[0] looked up in PATH) in its own process group with
 * stdout/stderr sent to the given files (NULL: /dev/null), extra
 * environment "NAME=value" strings, and a time limit after which the whole
 * group is killed. Never goes through a shell. Every file it and its
 * children write is limited in size (RLIMIT_FSIZE): a flooding log stops
 * the process, not the disk. kcheck is made the reaper of the processes it
 * orphans, so one that left the group (setsid) is killed too when the run
 * ends. SIGINT, SIGTERM and SIGHUP are held while it waits: one that comes
 * kills the group at once and is returned in `interrupted`. */
void kc_run_process(char *const argv[], const char *cwd, const char *out_path, const char *err_path,
                    char *const env_extra[], double timeout_s, kc_proc_result *res);
/* Captures the first line of a command's stdout (for nvidia-smi, nvcc
 * --version); NULL when it fails. Caller frees. */
char *kc_run_capture_line(char *const argv[], double timeout_s);

/* ---- harness generation (exposed for tests) ---- */
/* Writes the CUDA harness source for a binding; returns false with *err. */
bool kc_cuda_harness_write(const char *path, const kc_opspec *spec, const kc_binding *b, const char *user_file,
                           const char *reference_dir, char **err);

/* ---- the whole thing ---- */
/* Attaches a verdict to every diagnostic of the results. Returns 0, or the
 * signal (SIGINT, SIGTERM, SIGHUP) that interrupted the experiments: they
 * were stopped, their processes killed and the work directory removed, and
 * the caller should end the same way. */
int kc_verify_files(const kc_options *o, kc_file_result *files, size_t n, FILE *err);

#endif
