/* libFuzzer: Python/Triton source -> tree-sitter front end -> every rule,
 * suppressions, fingerprints, text reporter, fix-its and their re-check;
 * the import scan of the run's linking (kc_project.h); and the input as
 * another file of the run that launches the kernels of a fixed module
 * (the peer launches the Triton front end reads). */
#include "fuzz_common.h"

#include "kc_project.h"
#include "kc_pyscan.h"

#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_import(void *ud, unsigned dots, const char *module, const char *local, bool is_module)
{
    (void)ud;
    (void)is_module;
    /* a module named (or dots), a local name bound, both NUL-terminated */
    if ((!dots && !*module) || !*local || strlen(module) > 512 || strlen(local) > 256)
        __builtin_trap();
}

/* A kernel module launched from elsewhere: its parameters take the peer's
 * launch values. */
static const char kernels_py[] =
    "import triton\nimport triton.language as tl\n\n\n"
    "@triton.jit\n"
    "def k(x_ptr, out_ptr, N, stride, E: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    for s in tl.static_range(0, E, BLOCK):\n"
    "        offs = s + tl.arange(0, BLOCK)\n"
    "        v = tl.load(x_ptr + pid * stride + offs, mask=offs < E, other=0.0)\n"
    "        tl.store(out_ptr + pid * N + offs, v, mask=offs < N)\n";

static char dir[64], peer[96];

static void remove_dir(void)
{
    unlink(peer);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static kc_frontend *fe;
    static kc_source *kern;
    if (!fe) {
        fe = kc_frontend_new(fuzz_options());
        snprintf(dir, sizeof dir, "/tmp/kcheck-fuzz-XXXXXX");
        if (!mkdtemp(dir))
            __builtin_trap();
        snprintf(peer, sizeof peer, "%s/launch.py", dir);
        atexit(remove_dir);
        char *path = kc_xasprintf("%s/kernels.py", dir), *err = NULL;
        kern = kc_source_from_memory(path, kernels_py, sizeof kernels_py - 1, (size_t)-1, &err);
        free(path);
        if (!kern)
            __builtin_trap();
    }
    kc_scan_python_imports((const char *)data, size, check_import, NULL);
    fuzz_pipeline(fe, KC_LANG_TRITON, "fuzz.py", data, size);
    /* the input as the file that launches kernels.py's kernel */
    FILE *f = fopen(peer, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
        const char *paths[] = {peer};
        kc_peers peers = {paths, 1};
        kc_file_errors errs = {0};
        kc_model *m = kc_frontend_lower(fe, kern, KC_LANG_TRITON, &peers, &errs);
        if (!m) {
            for (uint32_t i = 0; i < errs.items.len; i++)
                fprintf(stderr, "kernels.py: %u: %s\n", errs.items.data[i].line, errs.items.data[i].message);
            __builtin_trap(); /* the kernel module itself is valid */
        }
        kc_diag_list diags = {0};
        kc_rules_run(m, fuzz_options(), &diags);
        kc_diag_list_free(&diags);
        kc_model_delete(m);
        kc_file_errors_free(&errs);
    }
    return 0;
}
