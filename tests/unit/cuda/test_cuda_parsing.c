/* The CUDA front end as a parser: syntax errors and unknown headers,
 * nesting and size budgets, toolkit mode, compile databases and extra
 * arguments, threads, the C headers of the shim, and the preamble the
 * header cache precompiles. Inputs are inline strings lowered through the
 * door (frontend_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuda_headers.h"
#include "cuda_pch.h"
#include "frontend_harness.h"

typedef fh_lowered lowered;

static void test_syntax_error(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda_mode(&L, "__global__ void k( { int x = ; }\n", KC_CUDA_SHIM);
    assert_null(L.m);
    assert_true(L.errs.items.len >= 1);
    assert_true(L.errs.items.len <= 6);
    assert_int_equal(L.errs.items.data[0].line, 1);
    assert_true(L.errs.items.data[0].col > 0);
    assert_non_null(L.errs.items.data[0].message);
    fh_free(&L);

    /* A semantic error (an unknown name) is tolerated. */
    fh_lower_cuda(&L, "__global__ void k(float *x) { x[threadIdx.x] = undeclared_thing(3); }\n");
    assert_int_equal(fh_kernel(L.m, "k")->accesses.len, 1);
    fh_free(&L);
}

/* A file that fails while headers it includes were not found says which,
 * and how to give them; one without missing headers does not. */
static void test_failure_names_missing_headers(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda_mode(&L, "#include \"tiles.cuh\"\n#include \"more.cuh\"\n__global__ void k( { int x = ; }\n",
                       KC_CUDA_SHIM);
    assert_null(L.m);
    const char *last = L.errs.items.data[L.errs.items.len - 1].message;
    assert_non_null(strstr(last, "2 included headers were not found (`tiles.cuh`, `more.cuh`)"));
    assert_non_null(strstr(last, "kcheck FILE -- -I DIR"));
    fh_free(&L);
    fh_lower_cuda_mode(&L, "__global__ void k( { int x = ; }\n", KC_CUDA_SHIM);
    for (uint32_t i = 0; i < L.errs.items.len; i++)
        assert_null(strstr(L.errs.items.data[i].message, "not found"));
    fh_free(&L);
}

/* `using namespace X;` and a base class from a header that was not found
 * are unknown names (clang reports them as parse errors): the kernels of
 * the file are still analysed. */
static void test_unknown_namespace_and_base(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda_mode(&L, "#include <cute/tensor.hpp>\n"
                           "using namespace cute;\n"
                           "struct Kernel : public cutlass::GemmUniversal {};\n"
                           "__global__ void k(float *x) { x[threadIdx.x] = 0.0f; }\n",
                       KC_CUDA_SHIM);
    assert_non_null(L.m);
    assert_int_equal(fh_kernel(L.m, "k")->accesses.len, 1);
    for (uint32_t i = 0; i < L.m->gaps.len; i++)
        assert_int_not_equal(L.m->gaps.data[i].kind, KC_GAP_SYNTAX); /* nothing did not parse */
    fh_free(&L);
}

/* A template's `x.f<I>(y)` whose `<` clang cannot resolve yet: the member
 * expression's first child is the overloaded name, with no type, which
 * libclang's type functions do not take (a crash once, in lmdeploy's
 * attention iterators). */
static void test_unresolved_member_template_call(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda_mode(&L, "template <class T> struct Base { int src_offset_; };\n"
                           "template <class T, int Idx> struct It : Base<T> {\n"
                           "    using Base<T>::src_offset_;\n"
                           "    template <bool r, class TileIter>\n"
                           "    __device__ void Load(const TileIter &tile_iter, T *out) {\n"
                           "        auto src_data = tile_iter.OffsetPtr<Idx>(src_offset_);\n"
                           "        out[threadIdx.x] = src_data[0];\n"
                           "    }\n"
                           "};\n"
                           "__global__ void k(float *x) { x[threadIdx.x] = 0.0f; }\n",
                       KC_CUDA_SHIM);
    assert_non_null(L.m);
    assert_int_equal(fh_kernel(L.m, "k")->accesses.len, 1);
    fh_free(&L);
}

static void test_unknown_header(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "#include <thrust/device_vector.h>\n"
              "#include <thrust/reduce.h>\n"
              "#include \"missing_local_header.cuh\"\n"
              "#include <vector>\n"
              "#include <cstdio>\n"
              "#include <cuda_fp16.h>\n"
              "#include <cooperative_groups.h>\n"
              "namespace cg = cooperative_groups;\n"
              "__global__ void k(const __half *x, float *y, int n)\n"
              "{\n"
              "    cg::thread_block block = cg::this_thread_block();\n"
              "    int i = block.thread_rank();\n"
              "    if (i < n) y[i] = __half2float(x[i]) + expf(1.0f) + fmaxf(1.f, INFINITY) + FLT_MAX;\n"
              "    block.sync();\n"
              "}\n"
              "int main() {\n"
              "    std::vector<float> h(100, 1.0f);\n"
              "    thrust::device_vector<float> d(h.begin(), h.end());\n"
              "    printf(\"%f\\n\", h[0]);\n"
              "    return 0;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    const kc_access *x = fh_access_of(k, "x", KC_ACC_LOAD);
    assert_int_equal(x->elem_bytes, 2);
    assert_int_equal(fh_const_stride_x(&L, x), 1);
    assert_int_equal(k->barriers.len, 1);
    assert_string_equal(k->barriers.data[0].name, "cg::thread_block::sync");
    fh_free(&L);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    const int depth = 10000;
    size_t cap = (size_t)depth * 2 + 256;
    char *code = malloc(cap);
    size_t n = (size_t)snprintf(code, cap, "__global__ void k(int *x) { x[0] = ");
    for (int i = 0; i < depth; i++)
        code[n++] = '(';
    code[n++] = '1';
    for (int i = 0; i < depth; i++)
        code[n++] = ')';
    n += (size_t)snprintf(code + n, cap - n, "; }\n");
    lowered L;
    fh_lower_cuda_mode(&L, code, KC_CUDA_SHIM);
    /* clang stops at its bracket depth limit: a clean error. */
    assert_true(L.m != NULL || L.errs.items.len > 0);
    fh_free(&L);

    /* A legal but very deep expression: our own recursion is capped. */
    n = (size_t)snprintf(code, cap, "__global__ void k(int *x, int a) { x[0] = a");
    for (int i = 0; i < 3000 && n + 16 < cap; i++)
        n += (size_t)snprintf(code + n, cap - n, "+a");
    snprintf(code + n, cap - n, "; }\n");
    fh_lower_cuda(&L, code);
    assert_int_equal(fh_kernel(L.m, "k")->accesses.len, 1);
    fh_free(&L);

    /* Deeply nested blocks. */
    n = (size_t)snprintf(code, cap, "__global__ void k(int *x) { ");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(code + n, cap - n, "if (threadIdx.x > %d) { ", i);
    n += (size_t)snprintf(code + n, cap - n, "x[threadIdx.x] = 1; __syncthreads();");
    for (int i = 0; i < 200; i++)
        code[n++] = '}';
    snprintf(code + n, cap - n, " }\n");
    fh_lower_cuda(&L, code);
    assert_int_equal(fh_kernel(L.m, "k")->barriers.len, 1);
    fh_free(&L);
    free(code);
}

/* A 300-line file: many kernels of the usual shapes. */
static char *big_file(unsigned *lines_out)
{
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "#include <cuda_runtime.h>\n#include <cstdio>\n#define TILE 32\n");
    unsigned lines = 3, i = 0;
    while (lines < 300) {
        kc_sb_appendf(&sb,
                      "__global__ void matvec%u(const float *A, const float *x, float *y, int M, int N)\n"
                      "{\n"
                      "    int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    if (row >= M) return;\n"
                      "    float acc = 0.0f;\n"
                      "    for (int k = 0; k < N; ++k)\n"
                      "        acc += A[row * N + k] * x[k];\n"
                      "    y[row] = acc;\n"
                      "}\n"
                      "__global__ void transpose%u(const float *in, float *out, int w, int h)\n"
                      "{\n"
                      "    __shared__ float tile[TILE][TILE + 1];\n"
                      "    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;\n"
                      "    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];\n"
                      "    __syncthreads();\n"
                      "    x = blockIdx.y * TILE + threadIdx.x;\n"
                      "    y = blockIdx.x * TILE + threadIdx.y;\n"
                      "    if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];\n"
                      "}\n"
                      "__global__ void reduce%u(const float *in, float *out, int n)\n"
                      "{\n"
                      "    __shared__ float s[256];\n"
                      "    int t = threadIdx.x;\n"
                      "    float v = 0;\n"
                      "    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += in[i];\n"
                      "    s[t] = v;\n"
                      "    __syncthreads();\n"
                      "    #pragma unroll\n"
                      "    for (int k = 128; k > 0; k >>= 1) {\n"
                      "        if (t < k) s[t] += s[t + k];\n"
                      "        __syncthreads();\n"
                      "    }\n"
                      "    if (t == 0) atomicAdd(out, s[0]);\n"
                      "}\n",
                      i, i, i);
        lines += 34;
        i++;
    }
    kc_sb_append(&sb, "void launch(const float *a, float *b, int n) {\n"
                      "    matvec0<<<(n + 255) / 256, 256>>>(a, a, b, n, n);\n"
                      "}\n");
    *lines_out = lines + 3;
    return kc_sb_take(&sb);
}

static void test_300_lines_timing(void **state)
{
    (void)state;
    unsigned lines;
    char *code = big_file(&lines);
    lowered L;
    fh_lower_cuda(&L, code);
    double first = L.ms;
    assert_true(L.m->kernels.len >= 24);
    const kc_kernel *k = fh_kernel(L.m, "matvec3");
    kc_stride st;
    assert_string_equal(fh_stride_x(&L, k, fh_access_of(k, "A", KC_ACC_LOAD), &st), "N");
    /* Lower again with the same front end (warm). */
    kc_model_delete(L.m);
    double t0 = fh_now_ms();
    L.m = kc_frontend_lower(L.fe, L.src, KC_LANG_CUDA, NULL, &L.errs);
    double second = fh_now_ms() - t0;
    assert_non_null(L.m);
    printf("[ timing ] shim mode, %u-line file, %u kernels: %.1f ms (first), %.1f ms (warm)\n", lines,
           L.m->kernels.len, first, second);
    fh_free(&L);
    free(code);
}

static void test_toolkit_mode(void **state)
{
    (void)state;
    struct stat st;
    if (stat("/usr/local/cuda/include/cuda_runtime.h", &st) != 0) {
        printf("[ skipped  ] toolkit mode: /usr/local/cuda not found\n");
        skip();
    }
    unsigned lines;
    char *code = big_file(&lines);
    lowered L;
    fh_lower_cuda_mode(&L, code, KC_CUDA_TOOLKIT);
    for (uint32_t i = 0; i < L.errs.items.len; i++)
        fprintf(stderr, "toolkit error %u:%u %s\n", L.errs.items.data[i].line, L.errs.items.data[i].col,
                L.errs.items.data[i].message);
    assert_non_null(L.m);
    printf("[ timing ] toolkit mode, %u-line file: %.1f ms\n", lines, L.ms);
    const kc_kernel *k = fh_kernel(L.m, "matvec0");
    kc_stride s;
    assert_string_equal(fh_stride_x(&L, k, fh_access_of(k, "A", KC_ACC_LOAD), &s), "N");
    assert_int_equal(fh_kernel(L.m, "reduce0")->barriers.len, 2);
    fh_free(&L);
    free(code);
}

/* A header the build's CMake configure step writes, absent from the
 * checkout, is configured from its template in the repository, as a
 * build that compiles CUDA would: the options named for CUDA on, the
 * others off (SpFFT's `spfft/config.h` from `config.h.in`). */
static void test_configured_header_from_template(void **state)
{
    (void)state;
    size_t n = 0;
    char *c = kc_cuda_configure("#cmakedefine PROJ_CUDA\n  #cmakedefine PROJ_ROCM 1\n#cmakedefine01 WITH_CUDA_GRAPHS\n"
                                "#cmakedefine01 PROJ_MPI\n#define VERSION \"@PROJ_VERSION@\"\n#if ${USE_CUDA}\n#endif",
                                strlen("#cmakedefine PROJ_CUDA\n  #cmakedefine PROJ_ROCM 1\n#cmakedefine01 WITH_CUDA_GRAPHS\n"
                                       "#cmakedefine01 PROJ_MPI\n#define VERSION \"@PROJ_VERSION@\"\n#if ${USE_CUDA}\n#endif"),
                                &n);
    assert_string_equal(c, "#define PROJ_CUDA\n/* #undef PROJ_ROCM */\n#define WITH_CUDA_GRAPHS 1\n#define PROJ_MPI 0\n"
                           "#define VERSION \"0\"\n#if 1\n#endif");
    assert_int_equal(n, strlen(c));
    free(c);

    char dir[] = "/tmp/kcheck-cfg-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char p[300];
    const char *dirs[] = {".git", "include", "include/proj", "src"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(p, 0700), 0);
    }
    snprintf(p, sizeof p, "%s/include/proj/config.h.in", dir);
    FILE *f = fopen(p, "w");
    fputs("#pragma once\n#cmakedefine PROJ_CUDA\n#cmakedefine PROJ_ROCM\n#include \"proj/export.h\"\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/include/proj/export.h", dir);
    f = fopen(p, "w");
    fputs("#pragma once\n#define PROJ_BLOCK 128\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/src/k.cu", dir);
    const char *code = "#include \"proj/config.h\"\n"
                       "#if defined(PROJ_CUDA) && !defined(PROJ_ROCM)\n"
                       "__global__ void k(float *x) { x[threadIdx.x + PROJ_BLOCK] = 1.0f; }\n"
                       "#else\n"
                       "this does not compile\n"
                       "#endif\n";
    lowered L;
    memset(&L, 0, sizeof L);
    kc_options_init(&L.opts);
    char *err = NULL;
    L.src = kc_source_from_memory(p, code, strlen(code), 1u << 20, &err);
    assert_non_null(L.src);
    L.fe = kc_frontend_new(&L.opts);
    L.m = kc_frontend_lower(L.fe, L.src, KC_LANG_CUDA, NULL, &L.errs);
    assert_non_null(L.m);
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_string_equal(fh_index_str(&L, k, k->accesses.data[0].offset), "threadIdx.x + 128");
    fh_free(&L);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_compile_database_and_extra_args(void **state)
{
    (void)state;
    char dir[] = "/tmp/kcheck-cdb-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], inc[256], hdr[300], db[300], other[256];
    snprintf(inc, sizeof inc, "%s/include", dir);
    assert_int_equal(mkdir(inc, 0700), 0);
    snprintf(hdr, sizeof hdr, "%s/defs.cuh", inc);
    FILE *f = fopen(hdr, "w");
    fputs("#pragma once\n#define BLOCK 128\n__device__ inline float twice(float v) { return 2 * v; }\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/k.cu", dir);
    snprintf(other, sizeof other, "%s/other.cu", dir);
    snprintf(db, sizeof db, "%s/compile_commands.json", dir);
    f = fopen(db, "w");
    fprintf(f,
            "[{\"directory\": \"%s\", \"file\": \"%s\", \"arguments\": [\"/usr/local/cuda/bin/nvcc\", "
            "\"-Iinclude\", \"-DSCALE=4\", \"-gencode\", \"arch=compute_80,code=sm_80\", \"-Xcompiler\", "
            "\"-fPIC\", \"--expt-relaxed-constexpr\", \"-O3\", \"-std=c++17\", \"-c\", \"k.cu\", \"-o\", "
            "\"k.o\"]}]\n",
            dir, path);
    fclose(f);
    const char *code = "#include <defs.cuh>\n"
                       "__global__ void k(float *x) { x[SCALE * threadIdx.x + BLOCK] = twice(1.0f); }\n";
    for (int round = 0; round < 3; round++) {
        lowered L;
        memset(&L, 0, sizeof L);
        kc_options_init(&L.opts);
        L.opts.compile_db_dir = kc_xstrdup(dir);
        if (round == 2)
            kc_vec_push(&L.opts.extra_args, kc_xstrdup("-DSCALE=8"));
        char *err = NULL;
        /* round 1: a file without its own entry takes its neighbour's flags */
        L.src = kc_source_from_memory(round == 1 ? other : path, code, strlen(code), 1u << 20, &err);
        assert_non_null(L.src);
        L.fe = kc_frontend_new(&L.opts);
        L.m = kc_frontend_lower(L.fe, L.src, KC_LANG_CUDA, NULL, &L.errs);
        for (uint32_t i = 0; i < L.errs.items.len; i++)
            fprintf(stderr, "error %s\n", L.errs.items.data[i].message);
        assert_non_null(L.m);
        const kc_kernel *k = fh_kernel(L.m, "k");
        const kc_access *a = &k->accesses.data[0];
        assert_string_equal(fh_index_str(&L, k, a->offset), round == 2 ? "8*threadIdx.x + 128" : "4*threadIdx.x + 128");
        fh_free(&L);
    }
    /* A directory without compile_commands.json: every file fails clearly. */
    lowered L;
    memset(&L, 0, sizeof L);
    kc_options_init(&L.opts);
    L.opts.compile_db_dir = kc_xstrdup(inc);
    char *err = NULL;
    L.src = kc_source_from_memory(path, code, strlen(code), 1u << 20, &err);
    L.fe = kc_frontend_new(&L.opts);
    L.m = kc_frontend_lower(L.fe, L.src, KC_LANG_CUDA, NULL, &L.errs);
    assert_null(L.m);
    assert_int_equal(L.errs.items.len, 1);
    assert_non_null(strstr(L.errs.items.data[0].message, "compile_commands.json"));
    fh_free(&L);
    unlink(hdr);
    unlink(db);
    rmdir(inc);
    rmdir(dir);
}

typedef struct thread_job {
    const char *code;
    unsigned kernels;
    bool ok;
} thread_job;

static void *lower_in_thread(void *arg)
{
    thread_job *j = arg;
    kc_options o;
    kc_options_init(&o);
    kc_frontend *fe = kc_frontend_new(&o);
    char *err = NULL;
    kc_source *src = kc_source_from_memory("thread.cu", j->code, strlen(j->code), 1u << 26, &err);
    j->ok = fe && src;
    for (int r = 0; r < 3 && j->ok; r++) {
        kc_file_errors errs = {0};
        kc_model *m = kc_frontend_lower(fe, src, KC_LANG_CUDA, NULL, &errs);
        j->ok = m != NULL;
        j->kernels = m ? m->kernels.len : 0;
        kc_model_delete(m);
        kc_file_errors_free(&errs);
    }
    kc_source_delete(src);
    kc_frontend_delete(fe);
    kc_options_free(&o);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    unsigned lines;
    char *code = big_file(&lines);
    pthread_t th[4];
    thread_job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (thread_job){.code = code};
        assert_int_equal(pthread_create(&th[i], NULL, lower_in_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_true(jobs[i].ok);
        assert_int_equal(jobs[i].kernels, jobs[0].kernels);
    }
    free(code);
}

static void test_builtin_c_headers(void **state)
{
    (void)state;
    /* clang's own stdint.h etc. must be used, never a stand-in. */
    lowered L;
    fh_lower_cuda(&L, "#include <stdint.h>\n"
              "#include <stddef.h>\n"
              "#include <limits.h>\n"
              "#include <float.h>\n"
              "#include <stdbool.h>\n"
              "__global__ void k(const float *x, float *y, int64_t n, size_t m)\n"
              "{\n"
              "    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    uint32_t lane = threadIdx.x & 31u;\n"
              "    if (i < n && m < SIZE_MAX && lane < INT_MAX) y[i] = x[i] + FLT_MAX;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(fh_symbol(k, "n")->bits, 64);
    assert_int_equal(fh_symbol(k, "m")->bits, 64);
    const kc_access *a = fh_access_of(k, "x", KC_ACC_LOAD);
    assert_int_equal(fh_const_stride_x(&L, a), 1);
    assert_int_equal(a->offset->bits, 64);
    assert_true(fh_symbol(k, "n")->facts & KC_SF_SIZE);
    fh_free(&L);
}

/* CPU seconds to lower a kernel of n hand-unrolled copies of a load, a
 * store and two pointer updates (the best of three). */
static double unrolled_seconds(int n)
{
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "__global__ void k(float *p, float *q) {\n    int i = threadIdx.x;\n    float v;\n");
    for (int j = 0; j < n; j++)
        kc_sb_append(&sb, "    v = p[i];\n    q[i] = v;\n    p = p + 1;\n    q = q + 1;\n");
    kc_sb_append(&sb, "}\n");
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = fh_cpu_s();
        lowered L;
        fh_lower_cuda(&L, kc_sb_str(&sb));
        double t = fh_cpu_s() - t0;
        assert_non_null(L.m);
        assert_int_equal(fh_kernel(L.m, "k")->accesses.len, 2 * n);
        fh_free(&L);
        best = t < best ? t : best;
    }
    kc_sb_free(&sb);
    return best;
}

/* The doubling series (issue 20): the time to lower a kernel beyond that of
 * an empty one grows linearly with the number of unrolled copies (8 times
 * the copies: linear is 8, quadratic 64). */
static void test_unrolled_kernels_scale_linearly(void **state)
{
    (void)state;
    double none = unrolled_seconds(0), small = unrolled_seconds(1000), large = unrolled_seconds(8000);
    print_message("unrolled kernels: empty %.4f s, 1000 copies %.4f s, 8000 copies %.4f s (x%.1f beyond the empty one)\n",
                  none, small, large, (large - none) / (small - none));
    assert_true(large - none < 24 * (small - none) + 0.05);
}

static void test_thread_safety_smoke(void **state)
{
    (void)state;
    /* Two front ends side by side (the driver gives each thread its own). */
    lowered a, b;
    fh_lower_cuda(&a, "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n");
    fh_lower_cuda(&b, "__global__ void k(float *x) { x[2 * threadIdx.x] = 0; }\n");
    assert_int_equal(fh_const_stride_x(&a, &fh_kernel(a.m, "k")->accesses.data[0]), 1);
    assert_int_equal(fh_const_stride_x(&b, &fh_kernel(b.m, "k")->accesses.data[0]), 2);
    fh_free(&a);
    fh_free(&b);
}

/* The preamble that a file's precompiled header covers: directives and
 * comments up to the first other token, cut at the end of the last
 * directive outside any #if; nothing without an #include. */
static size_t preamble_of(const char *text) { return kc_cuda_preamble_len(text, strlen(text)); }

static void assert_preamble(const char *text, const char *want_prefix)
{
    size_t n = preamble_of(text);
    if (!want_prefix) {
        assert_int_equal(n, 0);
        return;
    }
    assert_int_equal(n, strlen(want_prefix));
    assert_memory_equal(text, want_prefix, n);
}

/* The preamble of `pre` followed by `rest` is `pre`. */
static void assert_preamble_then(const char *pre, const char *rest)
{
    char *text = kc_xasprintf("%s%s", pre, rest);
    assert_preamble(text, pre);
    free(text);
}

static void test_preamble(void **state)
{
    (void)state;
    const char *p;
    /* includes, then code */
    p = "// header\n#include <cuda_runtime.h>\n#include \"common.h\" // helpers\n";
    assert_preamble_then(p, "\n__global__ void k() {}\n");
    /* no #include: nothing worth precompiling */
    assert_preamble("#define N 4\n#pragma once\nint x;\n", NULL);
    assert_preamble("", NULL);
    assert_preamble("__global__ void k() {}\n#include <a.h>\n", NULL);
    /* a balanced conditional belongs to it */
    p = "#ifdef USE_A\n#include <a.h>\n#else\n#  include <b.h>\n#endif\n";
    assert_preamble_then(p, "int x;\n");
    /* code inside a conditional: the preamble ends before the #if */
    p = "#include <a.h>\n";
    assert_preamble_then(p, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    assert_preamble_then(p, "#if 0\nold code\n#endif\n#include <b.h>\n");
    /* a directive that would report a place, or an unknown one, stops it */
    assert_preamble_then(p, "#error no\n#include <b.h>\n");
    assert_preamble_then(p, "#line 7\nint x;\n");
    assert_preamble_then(p, "#include_next <b.h>\n");
    /* an #endif or #else with no #if */
    assert_preamble_then(p, "#endif\n#include <b.h>\n");
    /* line splices and multi-line comments inside and between directives */
    p = "#define MAX(a, b) \\\n    ((a) > (b) ? (a) : (b))\n/* a\n * comment */\n#include /* here */ <a.h>\n"
        "#define S \"// not a comment\" /* two\n lines */\n";
    assert_preamble_then(p, "int x;\n");
    /* an #include in a comment is not one */
    assert_preamble("/*\n#include <a.h>\n*/\nint x;\n", NULL);
    /* an unterminated comment: up to the last directive before it */
    p = "#include <a.h>\n";
    assert_preamble_then(p, "/* open\n#include <b.h>\n");
    /* the file is nothing but directives, the last without a newline */
    assert_preamble("#include <a.h>\n#include <b.h>", "#include <a.h>\n#include <b.h>");
    /* CRLF line ends and a byte-order mark */
    p = "\xEF\xBB\xBF#include <a.h>\r\n#define X 1 \\\r\n  + 2\r\n";
    assert_preamble_then(p, "int x;\r\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preamble),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_unknown_header),
        cmocka_unit_test(test_failure_names_missing_headers),
        cmocka_unit_test(test_unknown_namespace_and_base),
        cmocka_unit_test(test_unresolved_member_template_call),
        cmocka_unit_test(test_builtin_c_headers),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_300_lines_timing),
        cmocka_unit_test(test_toolkit_mode),
        cmocka_unit_test(test_thread_safety_smoke),
        cmocka_unit_test(test_unrolled_kernels_scale_linearly),
        cmocka_unit_test(test_configured_header_from_template),
        cmocka_unit_test(test_compile_database_and_extra_args),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
