/* Symbolic index expressions: algebra, strides, dependence, widths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "kc_bound.h"
#include "kc_index.h"

static kc_atom lane(uint32_t id, uint8_t axes) { return kc_atom_make(KC_ATOM_LANE, id, (kc_deps){.axes = axes, .flags = KC_AF_THREAD}); }
static kc_atom sym(uint32_t id) { return kc_atom_make(KC_ATOM_SYMBOL, id, (kc_deps){0}); }
static kc_atom prog(uint32_t id) { return kc_atom_make(KC_ATOM_PROGRAM, id, (kc_deps){.flags = KC_AF_PROGRAM, .programs = (uint8_t)(1u << (id & 7))}); }
static kc_atom loopv(uint32_t id) { return kc_atom_make(KC_ATOM_LOOP, id, (kc_deps){.loops = kc_loop_bit(id)}); }

static kc_shape shape1(int64_t n)
{
    kc_shape s = {.rank = 1};
    s.dims[0].value = n;
    s.dims[0].symbol = KC_NONE;
    return s;
}

static void test_constants_fold(void **state)
{
    kc_arena *a = kc_arena_new();
    const kc_index *x = kc_index_add(a, kc_index_const(a, 3, 32, KC_SPACE_THREADS), kc_index_const(a, 4, 32, KC_SPACE_THREADS));
    int64_t v;
    assert_true(kc_index_is_const(x, &v));
    assert_int_equal(v, 7);
    const kc_index *t = kc_index_atom(a, sym(0), 32, KC_SPACE_THREADS, NULL);
    const kc_index *z = kc_index_sub(a, t, t);
    assert_true(kc_index_is_const(z, &v));
    assert_int_equal(v, 0);
    assert_int_equal(z->nmono, 0);
    kc_arena_delete(a);
}

static void test_like_terms_merge(void **state)
{
    kc_arena *a = kc_arena_new();
    /* 2*N*tid + 3*tid*N = 5*N*tid, whatever the factor order */
    const kc_index *n = kc_index_atom(a, sym(1), 32, KC_SPACE_THREADS, NULL);
    const kc_index *tid = kc_index_atom(a, lane(0, 1), 32, KC_SPACE_THREADS, NULL);
    const kc_index *p = kc_index_scale(a, kc_index_mul(a, n, tid), 2);
    const kc_index *q = kc_index_scale(a, kc_index_mul(a, tid, n), 3);
    const kc_index *s = kc_index_add(a, p, q);
    assert_non_null(s);
    assert_int_equal(s->nmono, 1);
    assert_int_equal(s->mono[0].coef, 5);
    assert_int_equal(s->mono[0].nfac, 2);
    kc_arena_delete(a);
}

static void test_cuda_global_id_stride(void **state)
{
    kc_arena *a = kc_arena_new();
    /* (blockIdx.x * blockDim.x + threadIdx.x) * N + k */
    const kc_index *bid = kc_index_atom(a, prog(0), 32, KC_SPACE_THREADS, NULL);
    const kc_index *bdim = kc_index_atom(a, kc_atom_make(KC_ATOM_BLOCK_DIM, 0, (kc_deps){0}), 32, KC_SPACE_THREADS, NULL);
    const kc_index *tid = kc_index_atom(a, lane(0, 1), 32, KC_SPACE_THREADS, NULL);
    const kc_index *row = kc_index_add(a, kc_index_mul(a, bid, bdim), tid);
    const kc_index *n = kc_index_atom(a, sym(3), 32, KC_SPACE_THREADS, NULL);
    const kc_index *k = kc_index_atom(a, loopv(0), 32, KC_SPACE_THREADS, NULL);
    const kc_index *addr = kc_index_add(a, kc_index_mul(a, row, n), k);
    assert_int_equal(kc_index_fast_axis(addr), 0);
    kc_stride st;
    kc_index_stride_along(a, addr, 0, &st);
    assert_non_null(st.stride);
    assert_int_equal(st.stride->nmono, 1);
    assert_int_equal(st.stride->mono[0].coef, 1);
    assert_int_equal(st.stride->mono[0].nfac, 1);
    assert_int_equal(st.stride->mono[0].fac[0].kind, KC_ATOM_SYMBOL);
    assert_int_equal(st.stride->mono[0].fac[0].id, 3);
    assert_false(st.nonaffine);
    assert_null(st.gather);
    assert_true(kc_index_depends_on_loop(addr, 0));
    assert_false(kc_index_depends_on_loop(addr, 1));
    /* along threadIdx.y nothing varies */
    kc_index_stride_along(a, addr, 1, &st);
    assert_null(st.stride);
    kc_arena_delete(a);
}

static void test_triton_broadcast_axes(void **state)
{
    kc_arena *a = kc_arena_new();
    kc_shape sm = shape1(64), sn = shape1(32);
    const kc_index *offs_m = kc_index_atom(a, lane(0, 1), 32, KC_SPACE_BLOCK, &sm);
    const kc_index *offs_n = kc_index_atom(a, lane(1, 1), 32, KC_SPACE_BLOCK, &sn);
    /* offs_m[:, None] * stride + offs_n[None, :] */
    kc_shape s2 = {.rank = 2};
    s2.dims[0] = sm.dims[0];
    s2.dims[1].value = 1;
    s2.dims[1].symbol = KC_NONE;
    uint8_t map0[1] = {0};
    const kc_index *col = kc_index_remap(a, offs_m, &s2, map0);
    kc_shape s3 = {.rank = 2};
    s3.dims[0].value = 1;
    s3.dims[0].symbol = KC_NONE;
    s3.dims[1] = sn.dims[0];
    uint8_t map1[1] = {1};
    const kc_index *row = kc_index_remap(a, offs_n, &s3, map1);
    const kc_index *stride = kc_index_atom(a, sym(7), 32, KC_SPACE_BLOCK, NULL);
    const kc_index *addr = kc_index_add(a, kc_index_mul(a, col, stride), row);
    assert_non_null(addr);
    assert_int_equal(addr->shape.rank, 2);
    assert_int_equal(addr->shape.dims[0].value, 64);
    assert_int_equal(addr->shape.dims[1].value, 32);
    assert_int_equal(kc_index_fast_axis(addr), 1);
    kc_stride st;
    kc_index_stride_along(a, addr, 1, &st);
    int64_t v;
    assert_true(kc_index_is_const(st.stride, &v));
    assert_int_equal(v, 1);
    kc_index_stride_along(a, addr, 0, &st);
    assert_int_equal(st.stride->mono[0].fac[0].id, 7);
    /* a rank-1 operand broadcasts right-aligned: onto the last axis */
    const kc_index *sum = kc_index_add(a, addr, offs_n);
    kc_index_stride_along(a, sum, 1, &st);
    assert_true(kc_index_is_const(st.stride, &v));
    assert_int_equal(v, 2);
    kc_arena_delete(a);
}

static void test_gather_and_nonaffine(void **state)
{
    kc_arena *a = kc_arena_new();
    kc_shape s = shape1(128);
    const kc_index *rows = kc_index_atom(a, lane(0, 1), 32, KC_SPACE_BLOCK, &s);
    kc_atom data = kc_atom_make(KC_ATOM_DATA, 0, (kc_deps){.axes = 1, .flags = KC_AF_DATA});
    const kc_index *target = kc_index_atom(a, data, 32, KC_SPACE_BLOCK, &s);
    const kc_index *addr = kc_index_add(a, kc_index_mul(a, rows, kc_index_atom(a, sym(2), 32, KC_SPACE_BLOCK, NULL)), target);
    kc_stride st;
    kc_index_stride_along(a, addr, 0, &st);
    assert_non_null(st.stride);
    assert_non_null(st.gather);
    assert_int_equal(st.gather->kind, KC_ATOM_DATA);
    const kc_index *sq = kc_index_mul(a, rows, rows);
    kc_index_stride_along(a, sq, 0, &st);
    assert_true(st.nonaffine);
    kc_arena_delete(a);
}

static void test_widths(void **state)
{
    kc_arena *a = kc_arena_new();
    const kc_index *pid = kc_index_atom(a, prog(0), 32, KC_SPACE_BLOCK, NULL);
    const kc_index *n = kc_index_atom(a, sym(0), 32, KC_SPACE_BLOCK, NULL);
    const kc_index *p32 = kc_index_mul(a, pid, n);
    assert_int_equal(p32->mono[0].bits, 32);
    /* pid.to(int64) * n: computed in 64 bits */
    const kc_index *p64 = kc_index_mul(a, kc_index_cast(a, pid, 64), n);
    assert_int_equal(p64->mono[0].bits, 64);
    assert_int_equal(p64->bits, 64);
    /* (pid * n).to(int64): the product already happened in 32 bits */
    const kc_index *late = kc_index_cast(a, p32, 64);
    assert_int_equal(late->bits, 64);
    assert_int_equal(late->mono[0].bits, 32);
    kc_arena_delete(a);
}

static void test_limits_return_null(void **state)
{
    kc_arena *a = kc_arena_new();
    const kc_index *big = kc_index_const(a, INT64_MAX, 64, KC_SPACE_THREADS);
    assert_null(kc_index_mul(a, big, kc_index_const(a, 2, 64, KC_SPACE_THREADS)));
    assert_null(kc_index_add(a, big, big));
    /* a product of more than KC_MONO_MAX_FACTORS atoms is not representable */
    const kc_index *x = kc_index_atom(a, sym(0), 32, KC_SPACE_THREADS, NULL);
    const kc_index *p = x;
    for (int i = 0; i < KC_MONO_MAX_FACTORS - 1; i++)
        p = kc_index_mul(a, p, x);
    assert_non_null(p);
    assert_null(kc_index_mul(a, p, x));
    assert_null(kc_index_add(a, NULL, x));
    kc_arena_delete(a);
}

static void test_shape_broadcast(void **state)
{
    kc_shape a = {.rank = 2}, b = {.rank = 1}, out;
    a.dims[0] = (kc_dim){16, KC_NONE};
    a.dims[1] = (kc_dim){1, KC_NONE};
    b.dims[0] = (kc_dim){32, KC_NONE};
    assert_true(kc_shape_broadcast(&a, &b, &out));
    assert_int_equal(out.rank, 2);
    assert_int_equal(out.dims[0].value, 16);
    assert_int_equal(out.dims[1].value, 32);
    kc_shape c = {.rank = 1};
    c.dims[0] = (kc_dim){8, KC_NONE};
    kc_shape d = {.rank = 1};
    d.dims[0] = (kc_dim){16, KC_NONE};
    assert_false(kc_shape_broadcast(&c, &d, &out));
}

/* `pid // n` keeps the quotient half of the axis, `pid % n` the remainder
 * half; a divisor that varies between programs (or a numerator that is
 * already one half) leaves the bits as they are. */
static void test_deps_divmod(void **state)
{
    (void)state;
    kc_deps pid = {.flags = KC_AF_PROGRAM, .programs = KC_PROG_AXIS(0)};
    kc_deps n = {0};
    assert_int_equal(kc_deps_divmod(pid, n, true).programs, KC_PROG_HI(0));
    assert_int_equal(kc_deps_divmod(pid, n, false).programs, KC_PROG_LO(0));
    kc_deps both = {.flags = KC_AF_PROGRAM, .programs = (uint8_t)(KC_PROG_AXIS(0) | KC_PROG_AXIS(2))};
    assert_int_equal(kc_deps_divmod(both, n, false).programs, KC_PROG_LO(0) | KC_PROG_LO(2));
    kc_deps hi = {.flags = KC_AF_PROGRAM, .programs = KC_PROG_HI(1)};
    assert_int_equal(kc_deps_divmod(hi, n, false).programs, KC_PROG_HI(1));
    kc_deps varying = {.flags = KC_AF_PROGRAM, .programs = KC_PROG_HI(0)};
    assert_int_equal(kc_deps_divmod(pid, varying, false).programs, KC_PROG_AXIS(0));
    assert_true(kc_deps_divmod(pid, n, true).flags & KC_AF_PROGRAM);
}

/* Axes that come only through a call kcheck did not follow stay unseen
 * through arithmetic; one sure atom with the same axis makes it sure. */
static void test_deps_unseen(void **state)
{
    (void)state;
    kc_arena *a = kc_arena_new();
    kc_deps from_call = {.axes = 1, .flags = KC_AF_DATA, .unseen = 1};
    const kc_index *r = kc_index_atom(a, kc_atom_make(KC_ATOM_OPAQUE, 0, from_call), 32, KC_SPACE_THREADS, NULL);
    const kc_index *sum = kc_index_add(a, r, kc_index_atom(a, sym(1), 32, KC_SPACE_THREADS, NULL));
    kc_deps d = kc_index_deps(sum);
    assert_int_equal(d.axes, 1);
    assert_int_equal(d.unseen, 1);
    assert_false(d.flags & KC_AF_UNSEEN);
    const kc_index *t = kc_index_atom(a, lane(2, 1), 32, KC_SPACE_THREADS, NULL);
    d = kc_index_deps(kc_index_add(a, sum, t));
    assert_int_equal(d.axes, 1);
    assert_int_equal(d.unseen, 0);
    /* an atom only some of whose axes are unseen is sure */
    kc_deps half = {.axes = 3, .unseen = 1};
    assert_false(kc_atom_make(KC_ATOM_OPAQUE, 1, half).flags & KC_AF_UNSEEN);
    kc_arena_delete(a);
}

static kc_bound hvar(kc_arena *a, uint32_t id)
{
    return (kc_bound){kc_index_atom(a, kc_atom_make(KC_ATOM_HOST, id, (kc_deps){0}), 64, KC_SPACE_THREADS, NULL), 1};
}

static void test_mono_divides(void **state)
{
    (void)state;
    kc_mono wrap = {.coef = 2, .nfac = 2}; /* 2 * n * m */
    wrap.fac[0] = sym(0);
    wrap.fac[1] = sym(1);
    kc_mono end = {.coef = 6, .nfac = 3}; /* 6 * m * q * n */
    end.fac[0] = sym(1);
    end.fac[1] = sym(2);
    end.fac[2] = sym(0);
    assert_true(kc_mono_divides(&wrap, &end));
    end.coef = 3; /* the coefficient is not a multiple of 2 */
    assert_false(kc_mono_divides(&wrap, &end));
    end.coef = 4;
    end.fac[2] = sym(1); /* m twice, no n */
    assert_false(kc_mono_divides(&wrap, &end));
    kc_mono sq = {.coef = 1, .nfac = 2}; /* n * n needs n twice */
    sq.fac[0] = sym(0);
    sq.fac[1] = sym(0);
    kc_mono once = {.coef = 1, .nfac = 2};
    once.fac[0] = sym(0);
    once.fac[1] = sym(1);
    assert_false(kc_mono_divides(&sq, &once));
    kc_mono neg = {.coef = -1, .nfac = 0}, min = {.coef = INT64_MIN, .nfac = 0};
    assert_true(kc_mono_divides(&neg, &min));
}

static void test_bounds(void **state)
{
    (void)state;
    kc_arena *a = kc_arena_new();
    kc_bound n = hvar(a, 0), b = hvar(a, 1);
    /* grid (n + 255) / 256 - 1 blocks of 256: at most n - 1 threads */
    kc_bound grid = kc_bound_sub(a, kc_bound_div(kc_bound_add(a, n, kc_bound_const(a, 255)), 256), kc_bound_const(a, 1));
    kc_bound threads = kc_bound_mul(a, grid, kc_bound_const(a, 256));
    assert_true(kc_bound_known(threads));
    assert_true(kc_bound_nonneg(kc_bound_sub(a, n, threads)));     /* n - T >= 1 */
    assert_false(kc_bound_nonneg(kc_bound_sub(a, kc_bound_sub(a, n, kc_bound_const(a, 2)), threads)));
    /* blocks * (b << 3) threads against 8 * (blocks * b) */
    kc_bound t8 = kc_bound_mul(a, n, kc_bound_scale(a, b, 8));
    assert_true(kc_bound_nonneg(kc_bound_sub(a, kc_bound_scale(a, kc_bound_mul(a, n, b), 8), t8)));
    assert_false(kc_bound_nonneg(kc_bound_sub(a, kc_bound_scale(a, kc_bound_mul(a, n, b), 7), t8)));
    /* an unknown operand leaves the result unknown */
    kc_bound none = {NULL, 1};
    assert_false(kc_bound_known(kc_bound_add(a, none, n)));
    assert_false(kc_bound_nonneg(none));
    assert_false(kc_bound_known(kc_bound_div(n, 0)));
    kc_arena_delete(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants_fold),
        cmocka_unit_test(test_like_terms_merge),
        cmocka_unit_test(test_cuda_global_id_stride),
        cmocka_unit_test(test_triton_broadcast_axes),
        cmocka_unit_test(test_gather_and_nonaffine),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_limits_return_null),
        cmocka_unit_test(test_shape_broadcast),
        cmocka_unit_test(test_deps_divmod),
        cmocka_unit_test(test_deps_unseen),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_mono_divides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
