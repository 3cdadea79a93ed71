/* libFuzzer: verify's results parser and judge. The input is a results
 * document as `kcheck verify --results DIR` reads it (the driver's JSON,
 * recorded on a GPU machine); it goes through exactly that code path
 * (kc_verify_files with verify_results_dir set) for a file with one
 * finding of every rule, so every kind of experiment is judged. The first
 * byte picks the language of the kernel (Triton plan or CUDA harness) and
 * whether the findings carry fix-its; the rest is the document. */
#define _GNU_SOURCE 1 /* nftw */
#include "fuzz_common.h"

#include "kc_verify.h"
#include "kc_driver.h"

#include <ftw.h>
#include <unistd.h>

#ifndef KC_SOURCE_DIR
#error KC_SOURCE_DIR must name the source tree (tests/verify/reference)
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char kernel_py[] =
    "# kcheck: verify op=scale_rows call=\"run(x, out)\"\n"
    "@triton.jit\n"
    "def k(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):\n"
    "    for start in range(0, M, BLOCK):\n"
    "        v = tl.load(x_ptr + start)\n"
    "        tl.store(out_ptr + start, v)\n";
static const char kernel_cu[] =
    "// kcheck: verify op=scale_rows call=\"launch(x, out, (int)M, (int)N)\"\n"
    "__global__ void k(const float *x, float *out, int M, int N) {\n"
    "    int i = threadIdx.x;\n"
    "    out[i * N] = x[i * N];\n"
    "}\n"
    "void launch(const float *x, float *out, int M, int N) { k<<<1, 32>>>(x, out, M, N); }\n";

static char dir[64];

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(p);
    return 0;
}

static void cleanup(void) { nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!dir[0]) {
        strcpy(dir, "/tmp/kcheck-fuzz-verify-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(cleanup);
        setenv("TMPDIR", dir, 1); /* verify's work directories go here too */
    }
    bool cuda = data[0] & 1, fixes = data[0] & 2;
    const char *name = cuda ? "case.cu" : "case.py";
    /* The results document, where --results looks for it: FILE-L<line>.json. */
    char *rpath = kc_xasprintf("%s/%s-L1.json", dir, name);
    FILE *f = fopen(rpath, "wb");
    if (!f)
        abort();
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    free(rpath);

    kc_options o;
    kc_options_init(&o);
    o.verify = true;
    o.verify_results_dir = kc_xstrdup(dir);
    o.reference_dir = kc_xstrdup(KC_SOURCE_DIR "/tests/verify/reference");

    kc_file_result r;
    memset(&r, 0, sizeof r);
    r.path = kc_xasprintf("%s/%s", dir, name);
    const char *text = cuda ? kernel_cu : kernel_py;
    char *err = NULL;
    r.src = kc_source_from_memory(r.path, text, strlen(text), 1 << 20, &err);
    kc_kernel_ref kr = {kc_xstrdup("k"), 2, 6, cuda ? KC_LANG_CUDA : KC_LANG_TRITON};
    kc_vec_push(&r.kernels, kr);
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *rule = kc_rules_get(i);
        kc_diag *d = kc_diag_list_add(&r.diags);
        d->rule_id = rule->id;
        d->rule_slug = rule->slug;
        d->severity = rule->severity;
        d->span = (kc_span){4, 9, 4, 14};
        d->message = kc_xstrdup("finding");
        d->kernel = kc_xstrdup("k");
        if (fixes && (i % 2 == 0))
            kc_diag_fix(d, "fix", (kc_span){5 + (uint32_t)(i % 2), 9, 5 + (uint32_t)(i % 2), 10}, "w");
    }
    kc_verify_files(&o, &r, 1, fuzz_devnull());
    fuzz_report(&o, r.path, r.src, &r.diags);
    kc_file_result_free(&r);
    kc_options_free(&o);
    return 0;
}
