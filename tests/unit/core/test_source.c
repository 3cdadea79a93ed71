/* Source text facts: which files hold device code kcheck models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "kc_source.h"

static bool fns(const char *text) { return kc_source_has_device_functions(text, strlen(text)); }

static void test_lambdas_are_not_device_functions(void **state)
{
    (void)state;
    assert_false(fns("thrust::transform(b, e, o, [] __device__(int x) { return x * x; });\n"));
    assert_false(fns("f([=] __host__ __device__ (int i) { d[i] = 0; });\n"));
    assert_false(fns("auto g = [&]\n    __device__(float v) { return v; };\n"));
    /* in comments and strings */
    assert_false(fns("// a __device__ helper and a __global__ kernel\nint x;\n"));
    assert_false(fns("/* __shared__ */ const char *s = \"__device__ float f()\";\n"));
    assert_false(fns("int my__device__x;\n"));
}

static void test_device_functions_and_kernels(void **state)
{
    (void)state;
    assert_true(fns("__device__ float sq(float x) { return x * x; }\n"));
    assert_true(fns("static __host__ __device__ int f(int);\n"));
    assert_true(fns("__global__ void k(float *x) {}\n"));
    assert_true(fns("__device__ int counter;\n"));
    assert_true(fns("f([] __device__(int x) { return x; });\n__device__ int g(int y) { return y; }\n"));
    /* the blunter test counts the lambda (and comments) too */
    assert_true(kc_source_has_device_code("// __device__\n", 14));
}

static bool code(const char *text) { return kc_source_has_device_code(text, strlen(text)); }

/* A header whose device code is marked only through a macro from a header
 * kcheck may not have (CUTLASS, CuTe, a project's own) is device code. */
static void test_device_specifier_macros(void **state)
{
    (void)state;
    assert_true(code("struct U {\n  CUTLASS_DEVICE static void update(float *x);\n};\n"));
    assert_true(code("static cutlass::MatrixCoord CUTLASS_DEVICE get_lane_offset(int lane);\n"));
    assert_true(code("CUTE_HOST_DEVICE constexpr int size() { return 4; }\n"));
    assert_true(code("template <int N>\nCUTLASS_GLOBAL void k(float *x) {}\n"));
    assert_true(code("struct A {\n  CUTLASS_HOST_DEVICE\n  A() {}\n  CUTLASS_HOST_DEVICE ~A() {}\n};\n"));
    /* not in a specifier's place: a value, a call, a member, a #define, a comment */
    assert_false(code("int n = MAX_DEVICE_COUNT + 1;\n"));
    assert_false(code("CHECK_DEVICE(dev);\n"));
    assert_false(code("x = opts.USE_DEVICE ? 1 : 0;\nauto k = Kind::GLOBAL_SCOPE;\n"));
    assert_false(code("#ifdef USE_DEVICE\n#define PREFER_DEVICE 1\n#endif\n"));
    assert_false(code("// CUDA DEVICE code lives in kernels.cu\nint f(int);\n"));
    assert_false(code("const char *s = \"GLOBAL state\";\n"));
    /* the macros do not make a file one with device functions of its own */
    assert_false(fns("CUTLASS_DEVICE static void update(float *x);\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lambdas_are_not_device_functions),
        cmocka_unit_test(test_device_functions_and_kernels),
        cmocka_unit_test(test_device_specifier_macros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
