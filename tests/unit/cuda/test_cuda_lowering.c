/* The CUDA front end's lowering of kernels into the kernel model: strides
 * and lanes of accesses, loops and their variables, conditions and
 * barriers, launches, inlined device functions, templates, vector types,
 * atomics, cooperative groups. Inputs are inline strings lowered through
 * the door (frontend_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_harness.h"

typedef fh_lowered lowered;

static void test_axpy(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void axpy(float a, const float *__restrict__ x, float *y, int n)\n"
              "{\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n)\n"
              "        y[i] = a * x[i] + y[i];\n"
              "}\n");
    assert_int_equal(L.m->kernels.len, 1);
    const kc_kernel *k = fh_kernel(L.m, "axpy");
    assert_false(k->is_device_function);
    assert_int_equal(k->lang, KC_LANG_CUDA);
    assert_int_equal(k->params.len, 4);
    const kc_param *x = &k->params.data[1];
    assert_string_equal(x->name, "x");
    assert_true(x->is_pointer);
    assert_true(x->pointee_const);
    assert_true(x->is_restrict);
    assert_int_equal(x->elem_bytes, 4);
    assert_false(k->params.data[2].pointee_const);
    assert_int_equal(fh_symbol(k, "n")->bits, 32);
    assert_true(fh_symbol(k, "x")->facts & KC_SF_POINTER);

    assert_int_equal(fh_count_accesses(k, "x", KC_ACC_LOAD), 1);
    assert_int_equal(fh_count_accesses(k, "y", KC_ACC_STORE), 1);
    const kc_access *ld = fh_access_of(k, "x", KC_ACC_LOAD);
    const kc_access *st = fh_access_of(k, "y", KC_ACC_STORE);
    assert_int_equal(ld->space, KC_MEM_GLOBAL);
    assert_int_equal(ld->elem_bytes, 4);
    assert_string_equal(ld->elem_type, "float");
    assert_int_equal(fh_const_stride_x(&L, ld), 1);
    assert_int_equal(fh_const_stride_x(&L, st), 1);
    assert_int_equal(ld->loop, KC_NONE);
    /* Both guarded by `i < n`, a thread-dependent comparison. */
    assert_int_not_equal(ld->guard, KC_NONE);
    assert_int_equal(ld->guard, st->guard);
    const kc_cond *g = &k->conds.data[ld->guard];
    assert_true(fh_thread_dep(g->deps));
    assert_string_equal(g->text, "i < n");
    assert_int_equal(g->npreds, 1);
    assert_int_equal(g->preds[0].op, KC_CMP_LT);
    assert_string_equal(fh_index_str(&L, k, g->preds[0].rhs), "n");
    /* n is a problem size. */
    const kc_symbol *n = fh_symbol(k, "n");
    assert_true(n->facts & KC_SF_SIZE);
    assert_non_null(n->size_evidence);
    assert_non_null(strstr(n->size_evidence, "line 4"));
    /* Spans: the subscript, and the index inside it. */
    fh_assert_span_text(&L, ld->span, "x[i]");
    fh_assert_span_text(&L, ld->addr_span, "i");
    fh_assert_span_text(&L, st->span, "y[i]");
    assert_string_equal(ld->addr_text, "i");
    fh_assert_span_text(&L, k->name_span, "axpy");
    fh_free(&L);
}

static void test_matvec_row_per_thread(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void matvec(const float *A, const float *x, float *y, int M, int N)\n"
              "{\n"
              "    int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (row < M) {\n"
              "        float acc = 0.0f;\n"
              "        for (int k = 0; k < N; ++k)\n"
              "            acc += A[row * N + k] * x[k];\n"
              "        y[row] = acc;\n"
              "    }\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "matvec");
    assert_int_equal(k->loops.len, 1);
    const kc_loop *lp = &k->loops.data[0];
    assert_int_equal(lp->kind, KC_LOOP_FOR);
    assert_string_equal(lp->var, "k");
    assert_int_equal(lp->trip_count, -1);
    assert_string_equal(lp->trip_text, "N");
    assert_string_equal(lp->end_text, "N");
    assert_string_equal(lp->start_text, "0");
    assert_string_equal(fh_index_str(&L, k, lp->step), "1");
    fh_assert_span_text(&L, lp->span, "for (int k = 0; k < N; ++k)");

    const kc_access *a = fh_access_of(k, "A", KC_ACC_LOAD);
    kc_stride st;
    assert_string_equal(fh_stride_x(&L, k, a, &st), "N");
    assert_false(st.nonaffine);
    assert_int_equal(a->loop, 0);
    assert_true(kc_index_depends_on_loop(a->offset, 0));
    fh_assert_span_text(&L, a->addr_span, "row * N + k");
    const kc_access *xk = fh_access_of(k, "x", KC_ACC_LOAD);
    assert_true(kc_index_depends_on_loop(xk->offset, 0));
    kc_index_stride_along(L.m->arena, xk->offset, 0, &st);
    assert_null(st.stride); /* every thread reads the same x[k] */
    assert_true(fh_symbol(k, "N")->facts & KC_SF_SIZE);
    assert_true(fh_symbol(k, "M")->facts & KC_SF_SIZE);
    /* y[row] after the loop is guarded by row < M and not in the loop. */
    const kc_access *y = fh_access_of(k, "y", KC_ACC_STORE);
    assert_int_equal(y->loop, KC_NONE);
    assert_true(fh_chain_has_thread_dep(k, y->guard));
    fh_free(&L);
}

/* `while (true) { ...; break; }`: every pass ends in the body's last
 * statement, a break; a `continue` of the loop (not of a loop inside it)
 * makes it a loop again. */
static void test_one_pass_loops(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void k(int *x, const int *y, int n)\n"
              "{\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    while (true) {\n"
              "        if (i >= n) break;\n"
              "        for (int j = 0; j < 4; j++) { if (y[j] < 0) continue; x[i] += y[j]; }\n"
              "        break;\n"
              "    }\n"
              "    for (int r = 0; r < 8; r++) {\n"
              "        if (y[r] == 0) continue;\n"
              "        x[i] -= y[r];\n"
              "        break;\n"
              "    }\n"
              "    while (x[i] > 0) { x[i] -= 1; }\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    assert_int_equal(k->loops.len, 4);
    assert_true(k->loops.data[0].one_pass);
    assert_int_equal(k->loops.data[0].trip_max, 1);
    assert_false(k->loops.data[1].one_pass); /* the inner for, 4 passes */
    assert_int_equal(k->loops.data[1].trip_count, 4);
    assert_false(k->loops.data[2].one_pass); /* its continue starts another pass */
    assert_false(k->loops.data[3].one_pass);
    fh_free(&L);
}

static void test_grid_stride_loop(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void scale(float *x, float s, int n)\n"
              "{\n"
              "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
              "        x[i] = s * x[i];\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "scale");
    const kc_access *ld = fh_access_of(k, "x", KC_ACC_LOAD);
    assert_int_equal(fh_const_stride_x(&L, ld), 1);
    assert_int_equal(fh_const_stride_x(&L, fh_access_of(k, "x", KC_ACC_STORE)), 1);
    assert_true(kc_index_depends_on_loop(ld->offset, 0));
    const kc_loop *lp = &k->loops.data[0];
    assert_string_equal(lp->var, "i");
    assert_string_equal(lp->step_text, "blockDim.x * gridDim.x");
    assert_string_equal(fh_index_str(&L, k, lp->step), "blockDim.x*gridDim.x");
    assert_int_equal(lp->trip_count, -1);
    /* The loop condition guards the body and varies with the thread. */
    assert_int_not_equal(ld->guard, KC_NONE);
    assert_true(fh_thread_dep(k->conds.data[ld->guard].deps));
    assert_int_equal(k->conds.data[ld->guard].loop, 0);
    /* ... but does not select passes of its own loop. */
    assert_false(kc_cond_chain_depends_on_loop(k, ld->guard, 0));
    assert_true(fh_symbol(k, "n")->facts & KC_SF_SIZE);
    fh_free(&L);
}

static void test_shared_tile(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void t(const float *in, float *out, int K)\n"
              "{\n"
              "    __shared__ float tile[32][32];\n"
              "    __shared__ float pad[32][33];\n"
              "    tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];\n"
              "    __syncthreads();\n"
              "    float s = 0;\n"
              "    for (int k = 0; k < 32; ++k)\n"
              "        s += tile[threadIdx.x][k];\n"
              "    pad[threadIdx.x][threadIdx.y] = s;\n"
              "    out[threadIdx.x] = s;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "t");
    const kc_access *ld = fh_access_of(k, "tile", KC_ACC_LOAD);
    assert_int_equal(ld->space, KC_MEM_SHARED);
    assert_int_equal(ld->elem_bytes, 4);
    /* offset = 32*threadIdx.x + k */
    const kc_index *c = kc_index_coef_of(L.m->arena, ld->offset, KC_ATOM_LANE, 0);
    int64_t v;
    assert_true(kc_index_is_const(c, &v));
    assert_int_equal(v, 32);
    const kc_index *ck = kc_index_coef_of(L.m->arena, ld->offset, KC_ATOM_LOOP, 0);
    assert_true(kc_index_is_const(ck, &v));
    assert_int_equal(v, 1);
    assert_int_equal(ld->offset->nmono, 2);
    assert_int_equal(fh_const_stride_x(&L, ld), 32);
    fh_assert_span_text(&L, ld->span, "tile[threadIdx.x][k]");
    fh_assert_span_text(&L, ld->addr_span, "k");
    const kc_access *st = fh_access_of(k, "tile", KC_ACC_STORE);
    assert_int_equal(fh_const_stride_x(&L, st), 1);
    assert_string_equal(fh_index_str(&L, k, st->offset), "threadIdx.x + 32*threadIdx.y");
    assert_int_equal(fh_const_stride_x(&L, fh_access_of(k, "pad", KC_ACC_STORE)), 33);
    const kc_symbol *tile = fh_symbol(k, "tile");
    assert_int_equal(tile->kind, KC_SYM_LOCAL);
    assert_int_equal(ld->base, kc_kernel_find_symbol(k, "tile"));
    fh_free(&L);
}

static void test_pragma_unroll(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void u(float *x)\n"
              "{\n"
              "    float acc = 0;\n"
              "    #pragma unroll\n"
              "    for (int i = 0; i < 64; ++i) acc += x[i];\n"
              "#pragma unroll 4\n"
              "    for (int j = 0; j < 100; j++) acc += x[j];\n"
              "    #pragma unroll 1\n"
              "    for (int q = 10; q > 0; --q) acc += x[q];\n"
              "    for (int r = 0; r <= 15; r += 4) acc += x[r];\n"
              "    x[0] = acc;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "u");
    assert_int_equal(k->loops.len, 4);
    const kc_loop *l0 = &k->loops.data[0], *l1 = &k->loops.data[1], *l2 = &k->loops.data[2], *l3 = &k->loops.data[3];
    assert_int_equal(l0->unroll, KC_UNROLL_FULL);
    assert_int_equal(l0->trip_count, 64);
    fh_assert_span_text(&L, l0->unroll_span, "#pragma unroll");
    assert_int_equal(l1->unroll, KC_UNROLL_COUNT);
    assert_int_equal(l1->unroll_count, 4);
    assert_int_equal(l1->trip_count, 100);
    fh_assert_span_text(&L, l1->unroll_span, "#pragma unroll 4");
    assert_int_equal(l2->unroll, KC_UNROLL_DISABLE);
    assert_int_equal(l2->trip_count, 10);
    assert_int_equal(l3->unroll, KC_UNROLL_NONE);
    assert_false(kc_span_valid(l3->unroll_span));
    assert_int_equal(l3->trip_count, 4);
    assert_string_equal(l3->trip_text, "ceil((15 + 1) / 4)");
    fh_free(&L);
}

static void test_barrier_under_thread_condition(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void b(float *x)\n"
              "{\n"
              "    __shared__ float s[32];\n"
              "    if (threadIdx.x < 16) {\n"
              "        s[threadIdx.x] = x[threadIdx.x];\n"
              "        __syncthreads();\n"
              "    }\n"
              "    __syncthreads();\n"
              "    if (blockIdx.x == 0) __syncthreads();\n"
              "    __syncwarp();\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "b");
    assert_int_equal(k->barriers.len, 4);
    const kc_barrier *b0 = &k->barriers.data[0];
    assert_string_equal(b0->name, "__syncthreads");
    assert_int_not_equal(b0->guard, KC_NONE);
    assert_true(fh_thread_dep(k->conds.data[b0->guard].deps));
    fh_assert_span_text(&L, b0->span, "__syncthreads()");
    assert_false(kc_span_valid(b0->divergent_exit));
    assert_int_equal(k->barriers.data[1].guard, KC_NONE);
    /* blockIdx is uniform within a block. */
    const kc_barrier *b2 = &k->barriers.data[2];
    assert_int_not_equal(b2->guard, KC_NONE);
    assert_false(fh_thread_dep(k->conds.data[b2->guard].deps));
    assert_string_equal(k->barriers.data[3].name, "__syncwarp");
    fh_free(&L);
}

static void test_barrier_after_divergent_return(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void r(const float *x, float *y, int n)\n"
              "{\n"
              "    __shared__ float buf[256];\n"
              "    int tid = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (tid >= n) return;\n"
              "    buf[threadIdx.x] = x[tid];\n"
              "    __syncthreads();\n"
              "    y[tid] = buf[255 - threadIdx.x];\n"
              "}\n"
              "__global__ void ok(float *y)\n"
              "{\n"
              "    if (blockIdx.x > 4) return;\n"
              "    __syncthreads();\n"
              "    for (int i = 0; i < 8; ++i) {\n"
              "        if (threadIdx.x == i) continue;\n"
              "        __syncthreads();\n"
              "    }\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "r");
    assert_int_equal(k->barriers.len, 1);
    const kc_barrier *b = &k->barriers.data[0];
    assert_true(kc_span_valid(b->divergent_exit));
    fh_assert_span_text(&L, b->divergent_exit, "return");
    /* Code after the early return runs under `!(tid >= n)`: a guard with
     * the negated comparison as its predicate. */
    const kc_access *st = fh_access_of(k, "y", KC_ACC_STORE);
    assert_int_not_equal(st->guard, KC_NONE);
    const kc_cond *g = &k->conds.data[st->guard];
    assert_true(g->negated);
    assert_int_equal(g->npreds, 1);
    assert_int_equal(g->preds[0].op, KC_CMP_LT);
    assert_true(fh_symbol(k, "n")->facts & KC_SF_SIZE);
    const kc_kernel *ok = fh_kernel(L.m, "ok");
    assert_int_equal(ok->barriers.len, 2);
    assert_false(kc_span_valid(ok->barriers.data[0].divergent_exit)); /* uniform return */
    assert_true(kc_span_valid(ok->barriers.data[1].divergent_exit));  /* thread-dependent continue */
    fh_assert_span_text(&L, ok->barriers.data[1].divergent_exit, "continue");
    fh_free(&L);
}

static void test_loop_invariant_and_carried(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void f(const float *x, const float *w, float *out, int K)\n"
              "{\n"
              "    int row = blockIdx.x;\n"
              "    const float *p = w + row * K;\n"
              "    float s = 0;\n"
              "    for (int k = 0; k < K; ++k) {\n"
              "        s += x[row] * x[k];\n"
              "        s += p[0];\n"
              "        p += 4;\n"
              "    }\n"
              "    out[row] = s;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "f");
    const kc_access *inv = fh_access_nth(k, "x", KC_ACC_LOAD, 0);
    const kc_access *dep = fh_access_nth(k, "x", KC_ACC_LOAD, 1);
    fh_assert_span_text(&L, inv->span, "x[row]");
    assert_int_equal(inv->loop, 0);
    assert_false(kc_index_depends_on_loop(inv->offset, 0));
    assert_true(kc_index_depends_on_loop(dep->offset, 0));
    /* p += 4 in every pass: an induction pointer, w + row*K + 4*pass */
    const kc_access *pw = fh_access_of(k, "w", KC_ACC_LOAD);
    assert_true(kc_index_depends_on_loop(pw->offset, 0));
    const kc_index *c = kc_index_coef_of(L.m->arena, pw->offset, KC_ATOM_LOOP, 0);
    int64_t v;
    assert_true(kc_index_is_const(c, &v));
    assert_int_equal(v, 4);
    fh_free(&L);
}

static void test_loop_carried_nonaffine(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void f(const int *next, float *x, int n)\n"
              "{\n"
              "    int j = threadIdx.x;\n"
              "    int idx = 0;\n"
              "    while (j < n) {\n"
              "        x[idx] += 1.0f;\n"
              "        if (x[j] > 0) idx = idx * 2 + 1;\n"
              "        j = next[j];\n"
              "    }\n"
              "    x[idx] = 0;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "f");
    assert_int_equal(k->loops.len, 1);
    assert_int_equal(k->loops.data[0].kind, KC_LOOP_WHILE);
    /* idx is assigned in the loop: its first use there already varies. */
    const kc_access *a = fh_access_nth(k, "x", KC_ACC_LOAD, 0);
    fh_assert_span_text(&L, a->span, "x[idx]");
    assert_true(kc_index_depends_on_loop(a->offset, 0));
    kc_deps d = kc_index_deps(a->offset);
    assert_true(d.flags & KC_AF_DATA); /* it follows values loaded in the loop */
    /* j follows a linked list: data-dependent, varies with the thread. */
    const kc_access *xj = fh_access_nth(k, "x", KC_ACC_LOAD, 1);
    assert_true(kc_index_depends_on_loop(xj->offset, 0));
    assert_true(fh_thread_dep(kc_index_deps(xj->offset)));
    /* After the loop idx no longer depends on it. */
    const kc_access *last = fh_access_nth(k, "x", KC_ACC_STORE, 1);
    assert_int_equal(last->loop, KC_NONE);
    assert_false(kc_index_depends_on_loop(last->offset, 0));
    fh_free(&L);
}

static void test_gather(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void g(const float *x, const int *idx, float *y, int n)\n"
              "{\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n) {\n"
              "        int j = idx[i];\n"
              "        y[i] = x[j] + x[idx[i]];\n"
              "    }\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "g");
    const kc_access *ld = fh_access_nth(k, "x", KC_ACC_LOAD, 0);
    kc_stride st;
    kc_index_stride_along(L.m->arena, ld->offset, 0, &st);
    assert_non_null(st.gather);
    assert_int_equal(st.gather->kind, KC_ATOM_DATA);
    assert_true(st.gather->flags & KC_AF_DATA);
    assert_true(st.gather->axes & 1);
    const kc_access *src = &k->accesses.data[st.gather->id];
    assert_string_equal(src->base_name, "idx");
    assert_string_equal(src->value_name, "j");
    char buf[64];
    assert_string_equal(kc_atom_name(k, st.gather, buf, sizeof buf), "j");
    const kc_access *ld2 = fh_access_nth(k, "x", KC_ACC_LOAD, 1);
    kc_index_stride_along(L.m->arena, ld2->offset, 0, &st);
    assert_non_null(st.gather);
    fh_free(&L);
}

static void test_launch(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void k(float a, const float *x, float *y, int n) { }\n"
              "void run(float a, const float *x, float *y, int n, cudaStream_t s)\n"
              "{\n"
              "    k<<<(n + 255) / 256, 256>>>(a, x, y, n);\n"
              "    k<<<dim3(4, 2), dim3(32, 8), 0, s>>>(2.0f, x, y, 1024);\n"
              "    void *args[] = {&a, &x, &y, &n};\n"
              "    cudaLaunchKernel((void *)k, dim3(1), dim3(64), args, 0, s);\n"
              "}\n");
    assert_int_equal(L.m->launches.len, 3);
    const kc_launch *l = &L.m->launches.data[0];
    assert_string_equal(l->kernel, "k");
    assert_string_equal(l->grid_text, "(n + 255) / 256");
    assert_string_equal(l->block_text, "256");
    assert_int_equal(l->args.len, 4);
    assert_string_equal(l->args.data[0].param, "a");
    assert_string_equal(l->args.data[3].param, "n");
    assert_string_equal(l->args.data[3].text, "n");
    assert_false(l->args.data[3].has_value);
    fh_assert_span_text(&L, l->span, "k<<<(n + 255) / 256, 256>>>(a, x, y, n)");
    const kc_launch *l2 = &L.m->launches.data[1];
    assert_string_equal(l2->grid_text, "dim3(4, 2)");
    assert_true(l2->args.data[3].has_value);
    assert_int_equal(l2->args.data[3].value, 1024);
    const kc_launch *l3 = &L.m->launches.data[2];
    assert_string_equal(l3->kernel, "k");
    assert_string_equal(l3->block_text, "dim3(64)");
    fh_free(&L);
}

/* The value of a launch bound with its host variables given by name. */
static double bound_at(const kc_model *m, kc_bound b, const char *const *names, const double *vals, unsigned n)
{
    assert_true(kc_bound_known(b));
    double v = 0;
    for (unsigned i = 0; i < b.num->nmono; i++) {
        double t = (double)b.num->mono[i].coef;
        for (unsigned f = 0; f < b.num->mono[i].nfac; f++) {
            const kc_atom *a = &b.num->mono[i].fac[f];
            assert_int_equal(a->kind, KC_ATOM_HOST);
            unsigned j = 0;
            while (j < n && strcmp(names[j], m->host_vars.data[a->id]) != 0)
                j++;
            assert_true(j < n);
            t *= vals[j];
        }
        v += t;
    }
    return v / (double)b.den;
}

static void test_launch_bounds(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "struct ctx_t { int blocks, threads; };\n"
                      "__global__ void k(int n, float *x) { }\n"
                      "static unsigned up(unsigned v) { return v; }\n"
                      "void run(ctx_t *ctx, unsigned batch, int n, float *x)\n"
                      "{\n"
                      "    k<<<batch / 32, 32 * 4>>>(batch * 4, x);\n"
                      "    dim3 grid(ctx->blocks);\n"
                      "    dim3 block8(ctx->threads << 3);\n"
                      "    k<<<grid, block8, block8.x * 4>>>((int)(ctx->blocks * ctx->threads), x);\n"
                      "    n = up(n);\n"
                      "    const int bs = 256;\n"
                      "    int g = (n + bs - 1) / bs;\n"
                      "    k<<<g - 1, bs>>>(256 * g, x);\n"
                      "    int h = n;\n"
                      "    for (int i = 0; i < 2; i++)\n"
                      "        h = h / 2;\n"
                      "    k<<<h, 256>>>(h, x);\n"
                      "    dim3 b2(8, 4);\n"
                      "    dim3 g2(512, 1024);\n"
                      "    k<< <g2, b2>> >(n, x);\n"
                      "}\n");
    assert_int_equal(L.m->launches.len, 5);
    const char *names[] = {"batch", "ctx->blocks", "ctx->threads", "n"};
    const double vals[] = {1000, 7, 33, 1000};
    const kc_launch *l = &L.m->launches.data[0];
    assert_true(bound_at(L.m, l->grid_hi[0], names, vals, 4) == 1000.0 / 32);
    assert_true(bound_at(L.m, l->block_hi[0], names, vals, 4) == 128);
    assert_true(bound_at(L.m, l->args.data[0].lo, names, vals, 4) == 4000);
    /* a dim3 whose member the launch only reads (`block8.x * 4`) keeps its value */
    l = &L.m->launches.data[1];
    assert_true(bound_at(L.m, l->grid_hi[0], names, vals, 4) == 7);
    assert_true(bound_at(L.m, l->block_hi[0], names, vals, 4) == 8 * 33);
    assert_true(bound_at(L.m, l->args.data[0].lo, names, vals, 4) == 7 * 33);
    /* n is rewritten before the reads: floor((n + 255) / 256) lies in
     * [n / 256, (n + 255) / 256] */
    l = &L.m->launches.data[2];
    assert_true(bound_at(L.m, l->grid_hi[0], names, vals, 4) == (1000.0 + 255) / 256 - 1);
    assert_true(bound_at(L.m, l->args.data[0].lo, names, vals, 4) == 1000.0);
    assert_true(bound_at(L.m, l->args.data[0].hi, names, vals, 4) == 1000.0 + 255);
    /* h is written in a loop: no bound */
    l = &L.m->launches.data[3];
    assert_false(kc_bound_known(l->grid_hi[0]));
    assert_false(kc_bound_known(l->args.data[0].lo));
    /* dim3 variables copied into the launch, every axis; a launch written
     * with blanks inside its chevrons */
    l = &L.m->launches.data[4];
    assert_true(bound_at(L.m, l->grid_hi[1], names, vals, 4) == 1024);
    assert_true(bound_at(L.m, l->block_hi[1], names, vals, 4) == 4);
    assert_true(bound_at(L.m, l->block_hi[2], names, vals, 4) == 1);
    fh_free(&L);
}

static void test_wmma_tiles(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "#include <mma.h>\n"
                      "using namespace nvcuda;\n"
                      "__global__ void k(const half *a, float *c)\n"
                      "{\n"
                      "    __shared__ float tile[256];\n"
                      "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
                      "    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;\n"
                      "    wmma::fill_fragment(acc, 0.0f);\n"
                      "    wmma::load_matrix_sync(fa, a + 256 * blockIdx.x, 16);\n"
                      "    wmma::store_matrix_sync(tile, acc, 16, wmma::mem_row_major);\n"
                      "    wmma::store_matrix_sync(c + 256 * blockIdx.x, acc, 16, wmma::mem_row_major);\n"
                      "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    /* a tile through the pointer: the base and its space, no element offset */
    const kc_access *ld = fh_access_of(k, "a", KC_ACC_LOAD);
    assert_non_null(ld);
    assert_null(ld->offset);
    assert_int_equal(ld->space, KC_MEM_GLOBAL);
    const kc_access *st = fh_access_of(k, "tile", KC_ACC_STORE);
    assert_non_null(st);
    assert_int_equal(st->space, KC_MEM_SHARED);
    assert_null(st->offset);
    assert_non_null(fh_access_of(k, "c", KC_ACC_STORE));
    fh_free(&L);
}

static void test_array_subscripts(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void k(float *out)\n"
                      "{\n"
                      "    __shared__ float t[4][72];\n"
                      "    __shared__ float flat[288];\n"
                      "    int i = threadIdx.x, j = threadIdx.y;\n"
                      "    t[j][i + 4] = 1.0f;\n"
                      "    float *row = t[j];\n"
                      "    row[i] = 2.0f;\n"
                      "    flat[j * 72 + i] = 3.0f;\n"
                      "    __syncthreads();\n"
                      "    out[threadIdx.x] = t[j][i] + flat[i];\n"
                      "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    /* subscripts of a 2-D array, outermost first */
    const kc_access *st = fh_access_nth(k, "t", KC_ACC_STORE, 0);
    assert_non_null(st);
    assert_int_equal(st->nsubs, 2);
    int64_t c;
    assert_non_null(st->subs[0]);
    assert_non_null(st->subs[1]);
    assert_false(kc_index_is_const(st->subs[1], &c));
    /* through a pointer to a row, or a flat array: none */
    const kc_access *via_row = fh_access_nth(k, "t", KC_ACC_STORE, 1);
    assert_non_null(via_row);
    assert_int_equal(via_row->nsubs, 0);
    assert_int_equal(fh_access_of(k, "flat", KC_ACC_STORE)->nsubs, 0);
    assert_int_equal(fh_access_of(k, "t", KC_ACC_LOAD)->nsubs, 2);
    fh_free(&L);
}

static void test_device_helper_inlined(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__device__ float ld(const float *p, int i) { return p[i]; }\n"
              "__device__ __forceinline__ void st(float *p, int i, float v) { p[i] = v; }\n"
              "__device__ int twice(int v) { return 2 * v; }\n"
              "__global__ void k(const float *x, float *y)\n"
              "{\n"
              "    int tid = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    st(y, twice(tid), ld(x, tid));\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    const kc_access *a = fh_access_of(k, "x", KC_ACC_LOAD);
    assert_int_equal(fh_const_stride_x(&L, a), 1);
    fh_assert_span_text(&L, a->span, "ld(x, tid)");
    const kc_access *s = fh_access_of(k, "y", KC_ACC_STORE);
    assert_int_equal(fh_const_stride_x(&L, s), 2);
    /* The helpers that touch memory are kernels of their own. */
    const kc_kernel *h = fh_kernel(L.m, "ld");
    assert_true(h->is_device_function);
    assert_int_equal(h->accesses.len, 1);
    fh_assert_span_text(&L, h->accesses.data[0].span, "p[i]");
    for (uint32_t i = 0; i < L.m->kernels.len; i++)
        assert_string_not_equal(L.m->kernels.data[i]->name, "twice");
    fh_free(&L);

    /* Lambdas are inlined too, with what they capture. */
    fh_lower_cuda(&L, "__global__ void k(float *x, int n)\n"
              "{\n"
              "    int tid = threadIdx.x;\n"
              "    auto ld = [&](int i) { return x[i + tid]; };\n"
              "    x[tid] = ld(2 * tid);\n"
              "}\n");
    k = fh_kernel(L.m, "k");
    a = fh_access_of(k, "x", KC_ACC_LOAD);
    assert_int_equal(fh_const_stride_x(&L, a), 3);
    fh_assert_span_text(&L, a->span, "ld(2 * tid)");
    fh_free(&L);
}

static void test_template_kernel(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "template <int BS, typename T>\n"
              "__global__ void __launch_bounds__(BS) red(const T *in, T *out, int n)\n"
              "{\n"
              "    __shared__ T buf[BS];\n"
              "    int t = threadIdx.x;\n"
              "    buf[t] = t < n ? in[blockIdx.x * BS + t] : T(0);\n"
              "    __syncthreads();\n"
              "    #pragma unroll\n"
              "    for (int s = BS / 2; s > 0; s >>= 1) {\n"
              "        if (t < s) buf[t] += buf[t + s];\n"
              "        __syncthreads();\n"
              "    }\n"
              "    if (t == 0) out[blockIdx.x] = buf[0];\n"
              "}\n"
              "template <int N> __global__ void fill(float *x) { for (int i = 0; i < N; ++i) x[i] = 0; }\n"
              "void host(const float *a, float *b, int n) {\n"
              "    red<256, float><<<n / 256, 256>>>(a, b, n);\n"
              "    fill<16><<<1, 1>>>(b);\n"
              "    fill<32><<<1, 1>>>(b);\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "red");
    const kc_symbol *bs = fh_symbol(k, "BS");
    assert_int_equal(bs->kind, KC_SYM_CONSTEXPR);
    assert_true(bs->has_value);
    assert_int_equal(bs->value, 256);
    assert_non_null(bs->value_origin);
    const kc_access *ld = fh_access_of(k, "in", KC_ACC_LOAD);
    assert_int_equal(fh_const_stride_x(&L, ld), 1);
    assert_string_equal(fh_index_str(&L, k, ld->offset), "threadIdx.x + 256*blockIdx.x");
    assert_int_equal(fh_access_of(k, "buf", KC_ACC_STORE)->space, KC_MEM_SHARED);
    assert_int_equal(k->barriers.len, 2);
    assert_int_equal(k->barriers.data[1].loop, 0);
    const kc_loop *lp = &k->loops.data[0];
    assert_string_equal(lp->var, "s");
    assert_int_equal(lp->unroll, KC_UNROLL_FULL);
    assert_null(lp->step);
    /* `t < s` makes the reduction step thread-dependent. */
    const kc_access *add = fh_access_nth(k, "buf", KC_ACC_LOAD, 1);
    assert_true(fh_chain_has_thread_dep(k, add->guard));
    /* Two instantiations: values, but no single value. */
    const kc_kernel *f = fh_kernel(L.m, "fill");
    const kc_symbol *n = fh_symbol(f, "N");
    assert_false(n->has_value);
    assert_int_equal(n->nvalues, 2);
    assert_int_equal(f->loops.data[0].trip_count, -1);
    assert_string_equal(f->loops.data[0].trip_text, "N");
    fh_free(&L);
}

static void test_loop_variable_forms(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void f(float *x, const float *y, int n)\n"
              "{\n"
              "    for (int k0 = 0; k0 < n; k0 += 16)\n"
              "        x[k0 + threadIdx.x] = y[k0];\n"
              "    int i = threadIdx.x;\n"
              "    while (i < n) {\n"
              "        x[i] = 0;\n"
              "        i += blockDim.x;\n"
              "    }\n"
              "    for (int r = n - 1; r >= 0; --r) x[r] = 1;\n"
              "    for (int s = 1; s < n; s *= 2) x[s] = 2;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "f");
    assert_int_equal(k->loops.len, 4);
    /* Uniform start and step: the variable is the loop atom itself. */
    const kc_access *a = fh_access_nth(k, "x", KC_ACC_STORE, 0);
    assert_string_equal(fh_index_str(&L, k, a->offset), "threadIdx.x + k0");
    assert_int_equal(fh_const_stride_x(&L, a), 1);
    assert_string_equal(k->loops.data[0].trip_text, "ceil(n / 16)");
    assert_string_equal(fh_index_str(&L, k, k->loops.data[0].step), "16");
    /* while loop with an induction variable starting at the thread index */
    const kc_loop *w = &k->loops.data[1];
    assert_int_equal(w->kind, KC_LOOP_WHILE);
    assert_string_equal(w->var, "i");
    assert_string_equal(w->start_text, "threadIdx.x");
    assert_string_equal(w->trip_text, "ceil((n - threadIdx.x) / blockDim.x)");
    const kc_access *b = fh_access_nth(k, "x", KC_ACC_STORE, 1);
    assert_int_equal(fh_const_stride_x(&L, b), 1);
    assert_true(kc_index_depends_on_loop(b->offset, 1));
    /* counting down */
    const kc_loop *d = &k->loops.data[2];
    assert_string_equal(d->var, "r");
    assert_string_equal(fh_index_str(&L, k, d->step), "-1");
    /* doubling: a variable without a constant step */
    const kc_loop *m = &k->loops.data[3];
    assert_string_equal(m->var, "s");
    assert_null(m->step);
    assert_int_equal(m->trip_count, -1);
    assert_true(kc_index_depends_on_loop(fh_access_nth(k, "x", KC_ACC_STORE, 3)->offset, 3));
    /* nested loops know their parent */
    fh_free(&L);
    fh_lower_cuda(&L, "__global__ void g(float *x, int n) {\n"
              "  for (int i = 0; i < 4; ++i)\n"
              "    for (int j = 0; j < n; ++j)\n"
              "      x[i * n + j] = 0;\n"
              "}\n");
    k = fh_kernel(L.m, "g");
    assert_int_equal(k->loops.data[1].parent, 0);
    assert_int_equal(k->loops.data[0].parent, KC_NONE);
    a = &k->accesses.data[0];
    assert_int_equal(a->loop, 1);
    assert_true(kc_loop_within(k, a->loop, 0));
    assert_true(kc_index_depends_on_loop(a->offset, 0));
    assert_true(kc_index_depends_on_loop(a->offset, 1));
    fh_free(&L);
}

static void test_vector_types_and_casts(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__global__ void v(const float *a, float *b, int n4)\n"
              "{\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i >= n4) return;\n"
              "    float4 q = reinterpret_cast<const float4 *>(a)[i];\n"
              "    q.x *= 2.0f;\n"
              "    reinterpret_cast<float4 *>(b)[i] = q;\n"
              "    extern __shared__ char smem[];\n"
              "    float *f = (float *)(smem + 64);\n"
              "    f[threadIdx.x] = q.y;\n"
              "    __ldg(&a[4 * i + 1]);\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "v");
    const kc_access *ld = fh_access_of(k, "a", KC_ACC_LOAD);
    assert_int_equal(ld->elem_bytes, 16);
    assert_string_equal(ld->elem_type, "float4");
    assert_int_equal(fh_const_stride_x(&L, ld), 1);
    const kc_access *st = fh_access_of(k, "b", KC_ACC_STORE);
    assert_int_equal(st->elem_bytes, 16);
    assert_int_equal(fh_count_accesses(k, "b", KC_ACC_LOAD), 0);
    /* a byte buffer seen as floats: 64 bytes are 16 floats */
    const kc_access *sh = fh_access_of(k, "smem", KC_ACC_STORE);
    assert_int_equal(sh->space, KC_MEM_SHARED);
    assert_int_equal(sh->elem_bytes, 4);
    assert_string_equal(fh_index_str(&L, k, sh->offset), "threadIdx.x + 16");
    const kc_access *g = fh_access_nth(k, "a", KC_ACC_LOAD, 1);
    assert_true(g->via_ldg);
    assert_int_equal(fh_const_stride_x(&L, g), 4);
    fh_assert_span_text(&L, g->span, "__ldg(&a[4 * i + 1])");
    fh_assert_span_text(&L, g->addr_span, "4 * i + 1");
    fh_free(&L);
}

static void test_atomics_constant_and_globals(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "__constant__ float coef[16];\n"
              "__device__ int counter;\n"
              "constexpr int W = 8;\n"
              "enum { H = 4 };\n"
              "__global__ void a(const int *bins, int *hist, int n)\n"
              "{\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n) atomicAdd(&hist[bins[i]], 1);\n"
              "    atomicAdd(&counter, 1);\n"
              "    hist[W * threadIdx.x + H] = (int)coef[threadIdx.x % 16];\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "a");
    const kc_access *at = fh_access_of(k, "hist", KC_ACC_ATOMIC);
    fh_assert_span_text(&L, at->span, "atomicAdd(&hist[bins[i]], 1)");
    kc_stride st;
    kc_index_stride_along(L.m->arena, at->offset, 0, &st);
    assert_non_null(st.gather);
    const kc_access *c = fh_access_of(k, "counter", KC_ACC_ATOMIC);
    assert_int_equal(c->space, KC_MEM_GLOBAL);
    const kc_access *cf = fh_access_of(k, "coef", KC_ACC_LOAD);
    assert_int_equal(cf->space, KC_MEM_CONSTANT);
    const kc_access *h = fh_access_of(k, "hist", KC_ACC_STORE);
    assert_string_equal(fh_index_str(&L, k, h->offset), "8*threadIdx.x + 4");
    const kc_symbol *w = fh_symbol(k, "W");
    assert_int_equal(w->kind, KC_SYM_CONSTEXPR);
    assert_true(w->has_value);
    assert_int_equal(w->value, 8);
    fh_free(&L);
}

static void test_struct_params_and_macros(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "struct Args { const float *x; float *y; int n; int ld; };\n"
              "#define IDX(r, c) ((r) * args.ld + (c))\n"
              "#define TID threadIdx.x\n"
              "__global__ void s(Args args)\n"
              "{\n"
              "    int r = blockIdx.x;\n"
              "    if (TID < args.n)\n"
              "        args.y[IDX(r, TID)] = args.x[IDX(TID, r)];\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "s");
    const kc_access *ld = fh_access_of(k, "args.x", KC_ACC_LOAD);
    kc_stride st;
    assert_string_equal(fh_stride_x(&L, k, ld, &st), "args.ld");
    const kc_access *sto = fh_access_of(k, "args.y", KC_ACC_STORE);
    assert_int_equal(fh_const_stride_x(&L, sto), 1);
    fh_assert_span_text(&L, ld->addr_span, "IDX(TID, r)");
    fh_assert_span_text(&L, sto->span, "args.y[IDX(r, TID)]");
    const kc_symbol *n = fh_symbol(k, "args.n");
    assert_int_equal(n->kind, KC_SYM_PARAM);
    assert_int_equal(n->param, 0);
    assert_true(n->facts & KC_SF_SIZE);
    assert_true(fh_symbol(k, "args.x")->facts & KC_SF_POINTER);
    fh_free(&L);
}

static void test_cooperative_groups_and_warps(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "#include <cooperative_groups.h>\n"
              "namespace cg = cooperative_groups;\n"
              "__global__ void w(const float *in, float *out, int C)\n"
              "{\n"
              "    cg::thread_block block = cg::this_thread_block();\n"
              "    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
              "    float s = 0;\n"
              "    for (int i = warp.thread_rank(); i < C; i += warp.size()) s += in[i];\n"
              "    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffff, s, off);\n"
              "    if (warp.thread_rank() == 0) out[blockIdx.x] = s;\n"
              "    warp.sync();\n"
              "    cg::sync(block);\n"
              "    for (int i = block.thread_rank(); i < C; i += block.size()) out[i] = 0;\n"
              "    s += __shfl_down(s, 1);\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "w");
    assert_int_equal(k->barriers.len, 2);
    assert_string_equal(k->barriers.data[0].name, "cg::thread_block_tile::sync");
    assert_string_equal(k->barriers.data[1].name, "cg::thread_block::sync");
    assert_string_equal(fh_index_str(&L, k, k->loops.data[0].step), "32");
    /* block.thread_rank() is the linear thread index */
    const kc_access *z = fh_access_nth(k, "out", KC_ACC_STORE, 1);
    assert_int_equal(fh_const_stride_x(&L, z), 1);
    fh_free(&L);
}

static void test_unresolved_calls_and_shared_scalars(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "template <typename T>\n"
              "__global__ void k(T *out, const T *in, int n)\n"
              "{\n"
              "    __shared__ T total;\n"
              "    if (threadIdx.x == 0) total = 0;\n"
              "    __syncthreads();\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n && in[i] > 0) atomicAdd(&total, in[i]);\n"
              "    __syncthreads();\n"
              "    if (threadIdx.x == 0) out[blockIdx.x] = total;\n"
              "    undeclared_store(out + i, __ldg(&in[i]));\n"
              "}\n"
              "template <typename T>\n" /* a launcher: the kernel is used (not left out) */
              "void run(T *out, const T *in, int n) { k<T><<<1, 32>>>(out, in, n); }\n");
    const kc_kernel *k = fh_kernel(L.m, "k");
    /* atomicAdd on a dependent type is unresolved in the template: still an atomic */
    const kc_access *at = fh_access_of(k, "total", KC_ACC_ATOMIC);
    assert_int_equal(at->space, KC_MEM_SHARED);
    /* the shared scalar is memory: written by one thread, read by all */
    const kc_access *w0 = fh_access_of(k, "total", KC_ACC_STORE);
    assert_true(fh_chain_has_thread_dep(k, w0->guard));
    const kc_access *r0 = fh_access_of(k, "total", KC_ACC_LOAD);
    fh_assert_span_text(&L, r0->span, "total");
    /* in[i] in the right operand of && runs under the left one */
    const kc_access *second = fh_access_nth(k, "in", KC_ACC_LOAD, 1);
    const kc_cond *g = &k->conds.data[second->guard];
    assert_string_equal(g->text, "i < n && in[i] > 0");
    const kc_access *first = fh_access_nth(k, "in", KC_ACC_LOAD, 0);
    assert_string_equal(k->conds.data[first->guard].text, "i < n");
    assert_true(fh_access_nth(k, "in", KC_ACC_LOAD, 2)->via_ldg);
    fh_free(&L);
}

/* A PyTorch tensor accessor (shim/__kcheck_torch.h) is the memory it
 * indexes: x[r][c] of a contiguous (N, C) tensor is one access at
 * r * x.size(1) + c; x.size(k) are the parameter's symbols, and a size that
 * bounds the loop is a problem size; an (N, 3) point read as p[i][0..2] is
 * 3 accesses whose thread stride is p.size(1), which nothing makes large. */
static void test_torch_accessor(void **state)
{
    (void)state;
    lowered L;
    fh_lower_cuda(&L, "#include <torch/extension.h>\n"
              "__global__ void rows(const torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> x,\n"
              "                     const torch::PackedTensorAccessor64<float, 2> p, float *out)\n"
              "{\n"
              "    const int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (r >= x.size(0)) return;\n"
              "    float acc = p[r][0] + p[r][1] + p[r][2];\n"
              "    for (int c = 0; c < x.size(1); ++c)\n"
              "        acc += x[r][c];\n"
              "    out[r] = acc;\n"
              "}\n");
    const kc_kernel *k = fh_kernel(L.m, "rows");
    const kc_access *a = fh_access_of(k, "x", KC_ACC_LOAD);
    kc_stride st;
    assert_string_equal(fh_stride_x(&L, k, a, &st), "x.size(1)");
    assert_int_equal(a->elem_bytes, 4);
    assert_int_equal(a->space, KC_MEM_GLOBAL);
    assert_true(kc_index_depends_on_loop(a->offset, 0));
    assert_true(fh_symbol(k, "x.size(1)")->facts & KC_SF_SIZE);
    assert_true(fh_symbol(k, "x.size(0)")->facts & KC_SF_SIZE);
    assert_int_equal(fh_symbol(k, "x.size(1)")->bits, 32);
    assert_true(fh_symbol(k, "x")->facts & KC_SF_POINTER);
    unsigned np = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++)
        if (k->accesses.data[i].base_name && strcmp(k->accesses.data[i].base_name, "p") == 0) {
            np++;
            assert_string_equal(fh_stride_x(&L, k, &k->accesses.data[i], &st), "p.size(1)");
        }
    assert_int_equal(np, 3);
    assert_false(fh_symbol(k, "p.size(1)")->facts & (KC_SF_SIZE | KC_SF_OUTER_STRIDE));
    assert_int_equal(fh_symbol(k, "p.size(1)")->bits, 64);
    fh_free(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axpy),
        cmocka_unit_test(test_matvec_row_per_thread),
        cmocka_unit_test(test_grid_stride_loop),
        cmocka_unit_test(test_one_pass_loops),
        cmocka_unit_test(test_shared_tile),
        cmocka_unit_test(test_pragma_unroll),
        cmocka_unit_test(test_barrier_under_thread_condition),
        cmocka_unit_test(test_barrier_after_divergent_return),
        cmocka_unit_test(test_loop_invariant_and_carried),
        cmocka_unit_test(test_loop_carried_nonaffine),
        cmocka_unit_test(test_gather),
        cmocka_unit_test(test_torch_accessor),
        cmocka_unit_test(test_launch),
        cmocka_unit_test(test_launch_bounds),
        cmocka_unit_test(test_wmma_tiles),
        cmocka_unit_test(test_array_subscripts),
        cmocka_unit_test(test_device_helper_inlined),
        cmocka_unit_test(test_template_kernel),
        cmocka_unit_test(test_loop_variable_forms),
        cmocka_unit_test(test_vector_types_and_casts),
        cmocka_unit_test(test_atomics_constant_and_globals),
        cmocka_unit_test(test_struct_params_and_macros),
        cmocka_unit_test(test_cooperative_groups_and_warps),
        cmocka_unit_test(test_unresolved_calls_and_shared_scalars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
