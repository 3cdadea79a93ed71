/* Tests of the facts the CUDA front end records for the CUDA rules
 * (KC103, KC303, KC304, KC401-KC403, KC501, KC502, KC601): program order,
 * volatile and inlined accesses, __shared__ array shapes, double literals
 * and math calls, legacy warp intrinsics, calls that may synchronize,
 * half accumulators, bounds checks, barriers after divergent exits, and
 * host code: launches' error checks and runtime API results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_shim.h"
#include "frontend_harness.h"

typedef fh_lowered lowered;

static void lower(lowered *L, const char *code)
{
    fh_lower(L, "facts.cu", code, NULL);
    fh_expect_model(L);
}

/* ---- device code --------------------------------------------------------- */

static void test_program_order_and_volatile(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "__device__ void tail(volatile float *s, int t) { s[t] += s[t + 16]; }\n" /* 1 */
              "__global__ void k(const float *x, float *y) {\n"                          /* 2 */
              "    __shared__ float s[64];\n"                                               /* 3 */
              "    s[threadIdx.x] = x[threadIdx.x];\n"                                      /* 4 */
              "    __syncthreads();\n"                                                      /* 5 */
              "    if (threadIdx.x < 32) tail(s, threadIdx.x);\n"                           /* 6 */
              "    y[threadIdx.x] = s[0];\n"                                                /* 7 */
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    const kc_access *w = fh_access_on_line(k, "s", KC_ACC_STORE, 4);
    const kc_access *r = fh_access_on_line(k, "s", KC_ACC_LOAD, 7);
    assert_int_equal(k->barriers.len, 1);
    assert_true(w->seq < k->barriers.data[0].seq);
    assert_true(k->barriers.data[0].seq < r->seq);
    assert_false(w->is_volatile);
    /* the inlined tail: volatile, reported at the call, written on line 1 */
    const kc_access *v = fh_access_on_line(k, "s", KC_ACC_LOAD, 6);
    assert_true(v->is_volatile);
    assert_int_equal(v->origin.line, 1);
    assert_int_equal(v->space, KC_MEM_SHARED);
    fh_free(&L);
}

static void test_shared_arrays(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "#define TILE 32\n"
              "template <int B> __global__ void k(float *x) {\n"
              "    __shared__ float tile[TILE][TILE];\n"
              "    __shared__ double pad[33 * 8];\n"
              "    __shared__ float s[B];\n"
              "    tile[threadIdx.y][threadIdx.x] = pad[threadIdx.x] + s[threadIdx.x];\n"
              "    x[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
              "}\n"
              "void launch(float *x) { k<128><<<1, dim3(32, 8)>>>(x); }\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(k->shared_arrays.len, 3);
    const kc_shared_array *t = NULL, *p = NULL, *s = NULL;
    for (uint32_t i = 0; i < k->shared_arrays.len; i++) {
        const kc_shared_array *a = &k->shared_arrays.data[i];
        if (!strcmp(a->name, "tile"))
            t = a;
        else if (!strcmp(a->name, "pad"))
            p = a;
        else if (!strcmp(a->name, "s"))
            s = a;
    }
    assert_non_null(t);
    assert_non_null(p);
    assert_non_null(s);
    assert_int_equal(t->rank, 2);
    assert_int_equal(t->dims[0], 32);
    assert_int_equal(t->dims[1], 32);
    assert_int_equal(t->elem_bytes, 4);
    assert_int_equal(t->last_dim_span.line, 3);
    assert_int_equal(t->last_dim_span.col, 33); /* the second `TILE` */
    assert_int_equal(p->dims[0], 264);
    assert_int_equal(p->elem_bytes, 8);
    assert_int_equal(s->dims[0], 128); /* the template value the launch gives */
    assert_int_equal(L.m->launches.len, 1);
    assert_int_equal(L.m->launches.data[0].block_dim[0], 32);
    assert_int_equal(L.m->launches.data[0].block_dim[1], 8);
    fh_free(&L);
}

static void test_double_literals_and_math(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "#define PI 3.14159265358979323846\n"
              "__global__ void k(float *x, double *d) {\n"
              "    float v = x[threadIdx.x];\n"
              "    x[threadIdx.x] = v * 0.5 + exp(v * 2.0) + sqrtf(2.0f / PI);\n"
              "    d[threadIdx.x] = (double)v * 0.1;\n"
              "    if (v > 0.0) x[0] = expf(v);\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(k->literals.len, 2);
    assert_string_equal(k->literals.data[0].text, "0.5");
    assert_string_equal(k->literals.data[0].fix_text, "0.5f");
    assert_string_equal(k->literals.data[0].context, "v * 0.5");
    assert_string_equal(k->literals.data[1].text, "2.0");
    /* the fp64 operations up to the float: `v * 0.5`, then two adds */
    assert_int_equal(k->literals.data[0].fp64_ops, 3);
    assert_false(k->literals.data[0].fp64_costly);
    assert_true(k->literals.data[1].fp64_costly); /* `v * 2.0` goes into exp(double) */
    unsigned math = 0;
    for (uint32_t i = 0; i < k->calls.len; i++)
        if (k->calls.data[i].flags & KC_CALL_DOUBLE_MATH) {
            math++;
            assert_string_equal(k->calls.data[i].callee, "exp");
            assert_string_equal(k->calls.data[i].fix_text, "expf");
        }
    assert_int_equal(math, 1);
    fh_free(&L);
}

/* What fp64 work a promoted value takes part in: a division is costly, a
 * compound assignment is one operation. */
static void test_double_literal_fp64_chain(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "__global__ void k(float *x) {\n"
              "    float v = x[threadIdx.x];\n"
              "    float a = v * 1.1;\n"
              "    float b = 1.0f / (v / 0.7);\n"
              "    v /= 0.3;\n"
              "    x[threadIdx.x] = a + b + v;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(k->literals.len, 3);
    assert_int_equal(k->literals.data[0].fp64_ops, 1);
    assert_false(k->literals.data[0].fp64_costly);
    assert_int_equal(k->literals.data[1].fp64_ops, 2); /* v / 0.7, then 1.0f / that */
    assert_true(k->literals.data[1].fp64_costly);
    assert_int_equal(k->literals.data[2].fp64_ops, 1);
    assert_true(k->literals.data[2].fp64_costly);
    fh_free(&L);
}

static void test_warp_calls_and_may_sync(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "struct Reducer { __device__ float sum(float v); };\n"
              "__global__ void k(float *x) {\n"
              "    float v = x[threadIdx.x];\n"
              "    v += __shfl_down(v, 16);\n"
              "    Reducer r;\n"
              "    v = r.sum(v);\n"
              "    x[threadIdx.x] = v;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    const kc_call *shfl = NULL, *sync = NULL;
    for (uint32_t i = 0; i < k->calls.len; i++) {
        if (k->calls.data[i].flags & KC_CALL_LEGACY_SHFL)
            shfl = &k->calls.data[i];
        if (k->calls.data[i].flags & KC_CALL_MAY_SYNC)
            sync = &k->calls.data[i];
    }
    assert_non_null(shfl);
    assert_string_equal(shfl->fix_text, "__shfl_down_sync");
    assert_int_equal(shfl->callee_span.col, 10);
    assert_int_equal(shfl->arg0_span.col, 22);
    assert_non_null(sync); /* a member function kcheck does not inline */
    assert_string_equal(sync->callee, "sum");
    fh_free(&L);
}

/* A dim3 declared without sizes and assigned later holds the assigned
 * block, not dim3's default of one thread; one whose members are assigned
 * is unknown. */
static void test_dim3_assigned_later(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "__global__ void t(float *o) { o[threadIdx.x] = 0; }\n"
              "void go(float *o, int n) {\n"
              "    dim3 threads;\n"
              "    threads = dim3(16, 16);\n"
              "    t<<<n, threads>>>(o);\n"
              "    dim3 b2;\n"
              "    b2.x = 32;\n"
              "    t<<<n, b2>>>(o);\n"
              "    dim3 b3;\n"
              "    t<<<n, b3>>>(o);\n"
              "}\n");
    assert_int_equal(L.m->launches.len, 3);
    assert_int_equal(L.m->launches.data[0].block_dim[0], 16);
    assert_int_equal(L.m->launches.data[0].block_dim[1], 16);
    assert_int_equal(L.m->launches.data[1].block_dim[0], -1);
    assert_int_equal(L.m->launches.data[2].block_dim[0], 1);
    fh_free(&L);
}

/* Gaps: errors become the model's record of what was not analysed. */
static void test_gaps(void **state)
{
    (void)state;
    lowered L;
    fh_lower(&L, "gaps.cu",
             "#include \"nowhere.h\"\n"                                      /* 1 */
             "__global__ void a(my_half *o) { o[0] = 0; }\n"                 /* 2 */
             "__global__ void b(float *o) { o[0] = 1.0f +; }\n"              /* 3 */
             "__global__ void c(float *s) { s[threadIdx.x] = 1; SYNC; }\n",  /* 4 */
             NULL);
    fh_expect_model(&L);
    assert_non_null(fh_kernel(L.m, "a"));
    assert_non_null(fh_kernel(L.m, "c"));
    for (uint32_t i = 0; i < L.m->kernels.len; i++)
        assert_string_not_equal(L.m->kernels.data[i]->name, "b"); /* left out: its body did not parse */
    bool type = false, dropped = false, macro = false;
    for (uint32_t i = 0; i < L.m->gaps.len; i++) {
        const kc_gap *g = &L.m->gaps.data[i];
        type |= g->kind == KC_GAP_TYPE && strcmp(g->what, "my_half") == 0 && strcmp(g->kernel, "a") == 0;
        dropped |= g->kind == KC_GAP_SYNTAX && g->dropped && strcmp(g->kernel, "b") == 0 && g->span.line == 3;
        macro |= g->kind == KC_GAP_CALLEE && strcmp(g->what, "SYNC") == 0 && g->span.line == 4;
    }
    assert_true(type);
    assert_true(dropped);
    assert_true(macro);
    /* `SYNC;` may be a barrier: a call that may synchronize, after the store */
    const kc_kernel *c = fh_kernel(L.m, "c");
    bool may_sync = false;
    for (uint32_t i = 0; i < c->calls.len; i++)
        may_sync |= (c->calls.data[i].flags & KC_CALL_MAY_SYNC) && strcmp(c->calls.data[i].callee, "SYNC") == 0 &&
                    c->calls.data[i].seq > c->accesses.data[0].seq;
    assert_true(may_sync);
    fh_free(&L);
}

static void test_half_accumulators(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "#include <cuda_fp16.h>\n"
              "__global__ void k(const __half *x, __half *y, int n) {\n"
              "    __half acc = __float2half(0.0f);\n"
              "    __half dot = __float2half(0.0f);\n"
              "    for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
              "        acc += x[i];\n"
              "        dot = __hfma(x[i], x[i], dot);\n"
              "    }\n"
              "    y[threadIdx.x] = acc + dot;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(k->accums.len, 2);
    const kc_accum *a = &k->accums.data[0], *d = &k->accums.data[1];
    assert_string_equal(a->var, "acc");
    assert_string_equal(a->dtype, "__half");
    assert_int_equal(a->kind, KC_ACCUM_SUM);
    assert_string_equal(a->fix_text, "float");
    assert_int_equal(a->decl_span.line, 3);
    assert_int_equal(a->decl_span.end_col, 11);
    assert_int_equal(a->loop, 0);
    assert_string_equal(d->var, "dot");
    assert_int_equal(d->kind, KC_ACCUM_DOT);
    assert_null(d->fix_text); /* __hfma stays half whatever dot is declared */
    fh_free(&L);
}

static void test_bounds_checks(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "__global__ void k(const float *x, float *y, int n) {\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    bool in = i < n;\n"
              "    if (in) y[i] = x[i];\n"
              "    if (threadIdx.x >= 0) y[i] += 1.0f;\n"
              "    if (i >= n) return;\n"
              "    y[i] *= 2.0f;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_true(fh_access_on_line(k, "y", KC_ACC_STORE, 4)->bounds_checked);
    assert_false(fh_access_on_line(k, "y", KC_ACC_STORE, 5)->bounds_checked); /* a lower bound only */
    assert_true(fh_access_on_line(k, "y", KC_ACC_STORE, 7)->bounds_checked);
    fh_free(&L);
}

static void test_divergent_exits(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "__global__ void k(float *x, int n) {\n"
              "    __shared__ float s[256];\n"
              "    for (int t = 0; t < 8; ++t) {\n"
              "        __syncthreads();\n"
              "        if (x[threadIdx.x] < 0.0f) break;\n"
              "        s[threadIdx.x] = x[threadIdx.x];\n"
              "    }\n"
              "    if (threadIdx.x >= n) return;\n"
              "    __syncthreads();\n"
              "    x[threadIdx.x] = s[255 - threadIdx.x];\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(k->barriers.len, 2);
    /* the barrier at the top of the loop is skipped in later passes by the
     * threads that broke out */
    assert_int_equal(k->barriers.data[0].divergent_exit.line, 5);
    assert_int_equal(k->barriers.data[1].divergent_exit.line, 8);
    uint32_t c = k->barriers.data[1].exit_cond;
    assert_true(c < k->conds.len);
    assert_string_equal(k->conds.data[c].text, "threadIdx.x >= n");
    fh_free(&L);
}

/* ---- host code ---------------------------------------------------------- */

/* Launches the parse lost inside a macro from a missing header are read
 * from the text: the file's own kernels only, not in comments or strings,
 * template arguments skipped, a literal grid and block read; a `<<<` with
 * no `>>>` before the statement ends is not a launch. */
static void test_recovered_launches(void **state)
{
    (void)state;
    lowered L;
    fh_lower(&L, "recover.cu",
             "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"                     /* 1 */
             "template <int N> __global__ void t(float *x) { x[threadIdx.x] = N; }\n"  /* 2 */
             "void f(float *x, int n) {\n"                                              /* 3 */
             "    DISPATCH(x, \"k<<<1, 2>>>\", k<<<(n + 255) / 256, 256>>>(x););\n"     /* 4 */
             "    // other<<<1, 1>>>(x);\n"                                             /* 5 */
             "    DISPATCH(x, 0, t<4><<<1, 128, 0, s>>>(x););\n"                        /* 6 */
             "    DISPATCH(x, 0, undefined_kernel<<<1, 32>>>(x););\n"                   /* 7 */
             "    int a = n <<< 2;\n"                                                   /* 8 */
             "}\n",
             NULL);
    assert_non_null(L.m);
    unsigned rec = 0;
    for (uint32_t i = 0; i < L.m->launches.len; i++) {
        const kc_launch *l = &L.m->launches.data[i];
        if (!l->recovered)
            continue;
        rec++;
        assert_true(l->in_host_code && l->error_checked);
        if (l->span.line == 4) {
            assert_string_equal(l->kernel, "k");
            assert_string_equal(l->grid_text, "(n + 255) / 256");
            assert_int_equal(l->block_dim[0], 256);
            assert_int_equal(l->grid[0].hazard, KC_GRID_UNKNOWN);
        } else {
            assert_int_equal(l->span.line, 6);
            assert_string_equal(l->kernel, "t");
            assert_int_equal(l->grid[0].hazard, KC_GRID_CONST);
            assert_int_equal(l->grid[0].value, 1);
            assert_int_equal(l->block_dim[0], 128);
        }
    }
    assert_int_equal(rec, 2);
    fh_free(&L);
}

/* What a launcher asserts about the values it passes: a checking call
 * (known or not), an if that leaves the function; not a comment, a
 * string, another variable, a test that does not leave, an assert whose
 * divisibility is one side of an `||`, or an assert after the launch. */
static void test_asserted_multiples(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "#include <cassert>\n"
              "__global__ void k(float *x, int n, int m) { x[threadIdx.x] = n + m; }\n"
              "void f(float *x, int n, int m, int nn, int q, int r) {\n"
              "    assert(n % 64 == 0);\n"                            /* 4 */
              "    // assert(m % 64 == 0);\n"
              "    const char *s = \"CHECK(m % 64 == 0)\";\n"
              "    assert(nn % 32 == 0);\n"
              "    if (q % BLOCK_Q != 0) { return; }\n"               /* 8 */
              "    if (r % 16 != 0) { r = 0; }\n"
              "    assert(r % 32 == 0 || q > 0);\n"
              "    k<<<1, 32>>>(x, n, m);\n"
              "    k<<<1, 32>>>(x, q, r);\n"
              "    assert(m % 8 == 0);\n"
              "}\n");
    assert_int_equal(L.m->launches.len, 2);
    const kc_launch *l = L.m->launches.data;
    assert_int_equal(l[0].args.len, 3);
    assert_string_equal(l[0].args.data[1].multiple_of, "64");
    assert_int_equal(l[0].args.data[1].multiple_value, 64);
    assert_int_equal(l[0].args.data[1].multiple_line, 4);
    assert_null(l[0].args.data[2].multiple_of);
    assert_string_equal(l[1].args.data[1].multiple_of, "BLOCK_Q");
    assert_int_equal(l[1].args.data[1].multiple_value, 0);
    assert_int_equal(l[1].args.data[1].multiple_line, 8);
    assert_null(l[1].args.data[2].multiple_of);
    fh_free(&L);
}

static void test_launch_checks(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "#include <cuda_runtime.h>\n"
              "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
              "void checked(float *x) {\n"
              "    k<<<1, 32>>>(x);\n"
              "    k<<<1, 32>>>(x);\n"
              "    if (cudaGetLastError() != cudaSuccess) return;\n"
              "}\n"
              "void unchecked(float *x, float *h) {\n"
              "    k<<<1, 32>>>(x);\n"
              "    cudaMemcpy(h, x, 4, cudaMemcpyDeviceToHost);\n"
              "    (void)cudaDeviceSynchronize();\n"
              "}\n"
              "void launcher(float *x) { k<<<2, 64>>>(x); }\n");
    assert_int_equal(L.m->launches.len, 4);
    const kc_launch *l = L.m->launches.data;
    assert_true(l[0].in_host_code && l[0].error_checked);
    assert_true(l[1].error_checked);
    assert_false(l[2].error_checked);
    assert_false(l[2].at_function_end);
    assert_false(l[3].error_checked);
    assert_true(l[3].at_function_end);
    assert_int_equal(l[3].block_dim[0], 64);
    unsigned ignored = 0, used = 0;
    for (uint32_t i = 0; i < L.m->host_calls.len; i++) {
        const kc_call *c = &L.m->host_calls.data[i];
        assert_true(c->flags & KC_CALL_RUNTIME_API);
        if (c->flags & KC_CALL_RESULT_IGNORED) {
            ignored++;
            assert_string_equal(c->callee, "cudaMemcpy");
        } else {
            used++;
        }
    }
    assert_int_equal(ignored, 1);
    assert_int_equal(used, 2); /* cudaGetLastError, the (void) cast */
    fh_free(&L);
}

/* The shim headers (src/analyzer/cuda/shim/) and their table agree: every
 * entry's file is built in, every file is used, the names are sorted for
 * the search, and an alias includes what it says. */
static void test_shim_table(void **state)
{
    (void)state;
    char *why = NULL;
    if (!kc_cuda_shim_check(&why))
        fail_msg("%s", why);
    assert_true(kc_cuda_shim_provides("cuda_runtime.h"));
    assert_true(kc_cuda_shim_provides("./vector"));
    assert_false(kc_cuda_shim_provides("thrust/device_vector.h"));
    kc_cuda_unsaved u = {0};
    kc_arena *names = kc_arena_new();
    kc_cuda_shim_add(&u, names);
    bool vector = false, runtime = false;
    for (uint32_t i = 0; i < u.files.len; i++) {
        const struct CXUnsavedFile *f = &u.files.data[i];
        if (strcmp(f->Filename, KC_CUDA_SHIM_INCLUDE "/vector") == 0)
            vector = f->Length == strlen("#include <__kcheck_cxx.h>\n") &&
                     memcmp(f->Contents, "#include <__kcheck_cxx.h>\n", f->Length) == 0;
        if (strcmp(f->Filename, KC_CUDA_SHIM_INCLUDE "/cuda_runtime.h") == 0)
            runtime = strstr(f->Contents, "__KCHECK_CUDA_RUNTIME_H") != NULL;
    }
    assert_true(vector);
    assert_true(runtime);
    kc_cuda_unsaved_free(&u);
    kc_arena_delete(names);
}

static void test_record_members(void **state)
{
    (void)state;
    lowered L;
    lower(&L, "struct vec3 { float x, y, z; };\n"                                             /* 1 */
              "struct slot { int *v; int hi; vec3 pos; };\n"                                   /* 2 */
              "__global__ void k(slot *g, int c) {\n"                                         /* 3 */
              "    __shared__ slot s[4];\n"                                                     /* 4 */
              "    s[c].hi = 1;\n"                                                              /* 5 */
              "    g[threadIdx.x].pos.z = (*g).pos.y;\n"                                       /* 6 */
              "    s[c] = g[c];\n"                                                              /* 7 */
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    const kc_access *hi = fh_access_on_line(k, "s", KC_ACC_STORE, 5);
    assert_int_equal(hi->elem_bytes, 24);
    assert_int_equal(hi->field_off, 8);
    assert_int_equal(hi->field_bytes, 4);
    /* a member of a member: the offsets add up */
    const kc_access *z = fh_access_on_line(k, "g", KC_ACC_STORE, 6);
    assert_int_equal(z->field_off, 20);
    assert_int_equal(z->field_bytes, 4);
    const kc_access *y = fh_access_on_line(k, "g", KC_ACC_LOAD, 6);
    assert_int_equal(y->field_off, 16);
    assert_true(kc_access_fields_apart(z, y));
    assert_false(kc_access_fields_apart(z, z));
    /* the whole record: no member range, never apart from a member */
    const kc_access *all = fh_access_on_line(k, "s", KC_ACC_STORE, 7);
    assert_int_equal(all->field_bytes, 0);
    assert_false(kc_access_fields_apart(all, hi));
    fh_free(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_order_and_volatile),
        cmocka_unit_test(test_shared_arrays),
        cmocka_unit_test(test_record_members),
        cmocka_unit_test(test_double_literals_and_math),
        cmocka_unit_test(test_double_literal_fp64_chain),
        cmocka_unit_test(test_warp_calls_and_may_sync),
        cmocka_unit_test(test_half_accumulators),
        cmocka_unit_test(test_dim3_assigned_later),
        cmocka_unit_test(test_gaps),
        cmocka_unit_test(test_bounds_checks),
        cmocka_unit_test(test_divergent_exits),
        cmocka_unit_test(test_asserted_multiples),
        cmocka_unit_test(test_launch_checks),
        cmocka_unit_test(test_recovered_launches),
        cmocka_unit_test(test_shim_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
