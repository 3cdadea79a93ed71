/* kc_arch: the GPU architectures the build files above a CUDA source
 * target, and when they cannot be known. Each case writes a small
 * repository under a temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kc_arch.h"
#include "kc_base.h"

static void put(const char *dir, const char *name, const char *text)
{
    char *p = kc_xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(p);
}

/* A repository root/ with sub/k.cu; `top` the root's build file (name
 * and text, or NULL), `near` the one beside the source. */
static kc_arch_targets targets(const char *top_name, const char *top, const char *near_name, const char *near)
{
    char root[] = "/tmp/kc_arch_XXXXXX";
    assert_non_null(mkdtemp(root));
    char *sub = kc_xasprintf("%s/sub", root);
    assert_int_equal(mkdir(sub, 0700), 0);
    put(sub, "k.cu", "__global__ void k() {}\n");
    if (top)
        put(root, top_name, top);
    if (near)
        put(sub, near_name, near);
    char *src = kc_xasprintf("%s/k.cu", sub);
    kc_arch_targets t;
    kc_arch_read(root, src, 1 << 20, &t);
    char *cmd = kc_xasprintf("rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(src);
    free(sub);
    return t;
}

static void test_gencode_flags(void **state)
{
    (void)state;
    kc_arch_targets t = targets("Makefile",
                                "# NVCCFLAGS += -arch=sm_90 (off)\n"
                                "NVCCFLAGS = -gencode arch=compute_35,code=sm_35 -arch=sm_60\n",
                                NULL, NULL);
    assert_int_equal(t.max, 60);
    assert_string_equal(t.text, "sm_35, sm_60 (Makefile)");
    kc_arch_free(&t);
}

static void test_cmake_list_and_near_file(void **state)
{
    (void)state;
    kc_arch_targets t = targets("CMakeLists.txt",
                                "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
                                "  set(CMAKE_CUDA_ARCHITECTURES \"52;61-real\")\nendif()\n",
                                "Makefile", "FLAGS = --gpu-architecture=sm_80\n");
    assert_int_equal(t.max, 80);
    assert_non_null(strstr(t.text, "sm_52, sm_61, sm_80"));
    kc_arch_free(&t);
}

static void test_torch_arch_list(void **state)
{
    (void)state;
    kc_arch_targets t = targets("setup.py", "os.environ['TORCH_CUDA_ARCH_LIST'] = '6.0;6.1+PTX'\n", NULL, NULL);
    assert_int_equal(t.max, 61);
    kc_arch_free(&t);
}

/* named by a word or a variable, or not at all: not known */
static void test_not_known(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "NVCCFLAGS = -arch=native\n",
        "NVCCFLAGS = -arch=sm_60 -arch=$(EXTRA_ARCH)\n",
        "NVCCFLAGS = -arch=sm_$(SM)\n",
        "set(CMAKE_CUDA_ARCHITECTURES ${ARCHS})\n",
        "set_property(TARGET k PROPERTY CUDA_ARCHITECTURES all-major)\n",
        "cuda_select_nvcc_arch_flags(ARCH_FLAGS Auto)\nset(X sm_60)\n",
        "NVCCFLAGS = -O3\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        kc_arch_targets t = targets(i >= 3 && i <= 5 ? "CMakeLists.txt" : "Makefile", texts[i], NULL, NULL);
        assert_int_equal(t.max, 0);
        assert_null(t.text);
    }
    /* a Python file other than setup.py says nothing of the build */
    kc_arch_targets t = targets("bench.py", "ARCH = 'sm_35'\n", NULL, NULL);
    assert_int_equal(t.max, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gencode_flags),
        cmocka_unit_test(test_cmake_list_and_near_file),
        cmocka_unit_test(test_torch_arch_list),
        cmocka_unit_test(test_not_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
