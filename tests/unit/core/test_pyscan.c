/* The Python text scans of kc_pyscan.h that say which names are Triton's
 * and which names a file launches through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kc_pyscan.h"

static const char *binding(const char *text, const char *local)
{
    static char out[128];
    if (!kc_py_triton_binding(text, strlen(text), local, out, sizeof out))
        return "-";
    return out;
}

static void test_triton_binding(void **state)
{
    (void)state;
    const char *t = "import triton\n"
                    "try:\n    import triton.language as tl\nexcept ImportError:\n    tl = None\n"
                    "from triton import language as lang, jit\n"
                    "from triton.language import core as tlc\n"
                    "import torch as triton_like\n"
                    "from .local import tx\n";
    assert_string_equal(binding(t, "triton"), "triton");
    assert_string_equal(binding(t, "tl"), "triton.language");
    assert_string_equal(binding(t, "lang"), "triton.language");
    assert_string_equal(binding(t, "jit"), "triton.jit");
    assert_string_equal(binding(t, "tlc"), "triton.language.core");
    assert_string_equal(binding(t, "triton_like"), "-");
    assert_string_equal(binding(t, "tx"), "-");
    assert_string_equal(binding("import triton.language\n", "triton"), "triton");
    assert_string_equal(binding("import tritonx as t\n", "t"), "-");
}

/* Names a module binds by assignment to Triton's (a project's own
 * re-export module: Fast-LLM's fast_llm/functional/triton). */
static void test_triton_binding_assigned(void **state)
{
    (void)state;
    const char *t = "try:\n    import triton\n    import triton.language as tl\n"
                    "    tl_constexpr = tl.constexpr\nexcept ImportError:\n    tl_constexpr = None\n"
                    "triton_jit = try_decorate(lambda: triton.jit)\n"
                    "triton_autotune = try_decorate(lambda: triton.autotune)  # tuned\n"
                    "my_jit = functools.partial(triton.jit, do_not_specialize=['n'])\n"
                    "if not ok:\n    tl_arange = None\nelse:\n    tl_arange = tl.arange\n"
                    "tl_sum = tl.sum(x)\n"
                    "cdiv = triton.cdiv\n"
                    "other = torch.jit\n"
                    "np_load = numpy.load\n"
                    "x == tl.arange\n";
    assert_string_equal(binding(t, "tl_constexpr"), "triton.language.constexpr");
    assert_string_equal(binding(t, "triton_jit"), "triton.jit");
    assert_string_equal(binding(t, "triton_autotune"), "triton.autotune");
    assert_string_equal(binding(t, "my_jit"), "triton.jit");
    assert_string_equal(binding(t, "tl_arange"), "triton.language.arange");
    assert_string_equal(binding(t, "cdiv"), "triton.cdiv");
    /* a call's result, another module's attribute, a comparison: not bindings */
    assert_string_equal(binding(t, "tl_sum"), "-");
    assert_string_equal(binding(t, "other"), "-");
    assert_string_equal(binding(t, "np_load"), "-");
    assert_string_equal(binding(t, "x"), "-");
}

static unsigned uses(const char *text, const char *local) { return kc_py_triton_uses(text, strlen(text), local); }

static void test_triton_uses(void **state)
{
    (void)state;
    assert_int_equal(uses("@tr.jit\ndef k(p):\n    pass\n", "tr"), KC_PY_USE_JIT);
    assert_int_equal(uses("@tr.autotune(configs=[], key=[])\n", "tr"), KC_PY_USE_JIT);
    assert_int_equal(uses("k = tr.jit(f)\n", "tr"), KC_PY_USE_JIT);
    assert_int_equal(uses("x = tr.autotune\n", "tr"), 0); /* not applied as a decorator */
    assert_int_equal(uses("    pid = tl.program_id(0)\n    b: tl.constexpr\n", "tl"), KC_PY_USE_TL);
    assert_int_equal(uses("@jit\ndef f(x):\n", "jit"), KC_PY_USE_DECORATOR);
    assert_int_equal(uses("@jit(nopython=True)\n", "jit"), KC_PY_USE_DECORATOR);
    /* other names that contain it, attributes of something else */
    assert_int_equal(uses("mytl.load(x)\nnp.tl.load(y)\ntlx.arange(3)\n@jitted\n", "tl"), 0);
    assert_int_equal(uses("tl.loader(x)\n", "tl"), 0);
    assert_int_equal(uses("", "tl"), 0);
}

static void test_assigned_to_subscripted(void **state)
{
    (void)state;
    const char *t = "from .k import ka, kb, kc\nimport m\n"
                    "def run(c):\n"
                    "    fx = ka if c else kb\n"
                    "    fx[(1,)](c)\n"
                    "    y = kc\n"
                    "    g = m.k1\n"
                    "    g[(2,)](c)\n"
                    "    z == ka\n";
    kc_py_names names = {0};
    kc_py_subscripts(t, strlen(t), &names);
    assert_true(kc_py_assigned_to_subscripted(t, strlen(t), &names, "ka", false));
    assert_true(kc_py_assigned_to_subscripted(t, strlen(t), &names, "kb", false));
    assert_false(kc_py_assigned_to_subscripted(t, strlen(t), &names, "kc", false)); /* y is not launched */
    assert_true(kc_py_assigned_to_subscripted(t, strlen(t), &names, "m", true));
    assert_false(kc_py_assigned_to_subscripted(t, strlen(t), &names, "m", false));
    kc_vec_free(&names);
}

/* The body of `def name(` decides, not the name, a comment, another
 * function of the text or the line after the body ends. */
static void test_def_registers(void **state)
{
    (void)state;
    const char *t = "def register_kernel_op(name, mutates_args=()):\n"
                    "    # wraps fn\n"
                    "\n"
                    "    def decorator(fn):\n"
                    "        return torch.library.custom_op(f'ns::{name}', mutates_args=())(fn)\n"
                    "    return decorator\n"
                    "def traced(fn):\n"
                    "    return torch.library.triton_op('ns::t', fn, mutates_args=())\n"
                    "def plain(fn):\n"
                    "    return fn\n"
                    "x = custom_op\n"
                    "class C:\n"
                    "    def both(self, fn):\n"
                    "        return custom_op(triton_op(fn))\n"
                    "def custom_op_cache(fn):\n"
                    "    return fn\n";
    size_t n = strlen(t);
    assert_int_equal(kc_py_def_registers(t, n, "register_kernel_op"), KC_PY_REG_CUSTOM_OP);
    assert_int_equal(kc_py_def_registers(t, n, "traced"), KC_PY_REG_TRITON_OP);
    assert_int_equal(kc_py_def_registers(t, n, "plain"), 0);
    assert_int_equal(kc_py_def_registers(t, n, "both"), KC_PY_REG_CUSTOM_OP | KC_PY_REG_TRITON_OP);
    assert_int_equal(kc_py_def_registers(t, n, "custom_op_cache"), 0);
    assert_int_equal(kc_py_def_registers(t, n, "decorator"), KC_PY_REG_CUSTOM_OP);
    assert_int_equal(kc_py_def_registers(t, n, "missing"), 0);
    assert_int_equal(kc_py_def_registers(t, n, "register_kernel"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triton_binding),
        cmocka_unit_test(test_triton_binding_assigned),
        cmocka_unit_test(test_triton_uses),
        cmocka_unit_test(test_assigned_to_subscripted),
        cmocka_unit_test(test_def_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
