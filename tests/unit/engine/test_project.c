/* The files of a run linked by their imports (kc_project.h): which import
 * statements are read, which files become a kernel module's peers, and
 * what a launch in another file changes in the findings and the cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kc_driver.h"
#include "kc_project.h"
#include "kc_pyscan.h"
#include "cli_harness.h"

/* ---- the import scan ---- */

static void collect(void *ud, unsigned dots, const char *module, const char *local, bool is_module)
{
    kc_strbuf *sb = ud;
    kc_sb_appendf(sb, "%u:%s:%s:%c|", dots, module, local, is_module ? 'm' : 'n');
}

static char *imports_of(const char *text)
{
    kc_strbuf sb = {0};
    kc_scan_python_imports(text, strlen(text), collect, &sb);
    return kc_sb_take(&sb);
}

static void test_import_forms(void **state)
{
    (void)state;
    char *s = imports_of("import triton\n"
                         "import triton.language as tl\n"
                         "from .kernels import _fwd, _bwd as bwd\n"
                         "from ..ops.kernels import (\n    a,  # first\n    b,\n)\n"
                         "from pkg import sub\n"
                         "    from . import helper\n"
                         "x = 1; import late\n");
    assert_string_equal(s, "0:triton:triton:m|"
                           "0:triton.language:tl:m|"
                           "1:kernels:_fwd:n|1:kernels._fwd:_fwd:m|1:kernels:bwd:n|1:kernels._bwd:bwd:m|"
                           "2:ops.kernels:a:n|2:ops.kernels.a:a:m|2:ops.kernels:b:n|2:ops.kernels.b:b:m|"
                           "0:pkg:sub:n|0:pkg.sub:sub:m|"
                           "1::helper:n|1:helper:helper:m|");
    free(s);
}

static void test_import_lookalikes(void **state)
{
    (void)state;
    /* not statements: names that contain the keyword, attributes, text in
     * a call; a backslash continuation is one statement */
    char *s = imports_of("importlib.reload(m)\nx.import_ = 2\nreimport(y)\nprint('import os')\n"
                         "from a.b \\\n    import c\nfrom\n");
    assert_string_equal(s, "0:a.b:c:n|0:a.b.c:c:m|");
    free(s);
    s = imports_of("");
    assert_string_equal(s, "");
    free(s);
    s = imports_of("from . import (");
    assert_string_equal(s, "");
    free(s);
}

/* ---- linking the files of a run ---- */

static char dir[64];

static const char kernels_py[] =
    "import triton\nimport triton.language as tl\n\n\n"
    "@triton.jit\n"
    "def prefix_kernel(count_ptr, out_ptr, E: tl.constexpr, BLOCK_N: tl.constexpr):\n"
    "    total = 0\n"
    "    for base in tl.static_range(0, E, BLOCK_N):\n"
    "        offs = base + tl.arange(0, BLOCK_N)\n"
    "        c = tl.load(count_ptr + offs, mask=offs < E, other=0)\n"
    "        tl.store(out_ptr + offs, tl.cumsum(c, 0) - c + total, mask=offs < E)\n"
    "        total += tl.sum(c, 0)\n";

static const char launcher_py[] =
    "import torch\nimport triton\n\nfrom .kernels import prefix_kernel\n\n\n"
    "def offsets(counts: torch.Tensor, E: int):\n"
    "    E_POW2 = triton.next_power_of_2(E)\n"
    "    out = torch.empty_like(counts)\n"
    "    prefix_kernel[(1,)](counts, out, E=E, BLOCK_N=E_POW2)\n"
    "    return out\n";

static const char absolute_py[] =
    "import triton\nimport pkg.ops.kernels as K\n\n\n"
    "def offsets(counts, out, E):\n"
    "    K.prefix_kernel[(1,)](counts, out, E=E, BLOCK_N=64)\n";

static const char importer_only_py[] = "from .kernels import prefix_kernel\n\nfn = prefix_kernel\n";

static void write_tree(void)
{
    kh_write_at(dir, "pkg/ops/kernels.py", kernels_py, strlen(kernels_py));
    kh_write_at(dir, "pkg/ops/launch.py", launcher_py, strlen(launcher_py));
    kh_write_at(dir, "pkg/ops/alias.py", importer_only_py, strlen(importer_only_py));
    kh_write_at(dir, "pkg/other/absolute.py", absolute_py, strlen(absolute_py));
    kh_write_at(dir, "pkg/other/kernels.py", kernels_py, strlen(kernels_py));
}

static const kc_file_result *find(const kc_path_list *l, const char *tail)
{
    for (uint32_t i = 0; i < l->files.len; i++) {
        const char *p = l->files.data[i].path;
        size_t n = strlen(p), t = strlen(tail);
        if (n >= t && strcmp(p + n - t, tail) == 0)
            return &l->files.data[i];
    }
    fail_msg("%s not in the run", tail);
    return NULL;
}

static bool has_peer(const kc_file_result *r, const char *tail)
{
    for (uint32_t i = 0; i < r->peers.n; i++) {
        const char *p = r->peers.paths[i];
        size_t n = strlen(p), t = strlen(tail);
        if (n >= t && strcmp(p + n - t, tail) == 0)
            return true;
    }
    return false;
}

/* A run over one path (borrowed), linked as kcheck links it. */
typedef struct linked {
    kc_path_list l;
    kc_project *p;
} linked;

static void link_run(linked *r, const char *path, unsigned jobs)
{
    const char *paths[] = {path};
    memset(r, 0, sizeof *r);
    kc_expand_paths(paths, 1, &r->l);
    r->p = kc_project_link(&r->l, 1 << 20, jobs);
}

static void linked_free(linked *r)
{
    for (uint32_t i = 0; i < r->l.files.len; i++)
        kc_file_result_free(&r->l.files.data[i]);
    kc_vec_free(&r->l.files);
    kc_project_free(r->p);
}

static void test_peers(void **state)
{
    (void)state;
    write_tree();
    linked r;
    link_run(&r, dir, 2);
    const kc_file_result *k = find(&r.l, "pkg/ops/kernels.py");
    /* the relative import that launches, and the absolute module import
     * (pkg.ops.kernels, not pkg/other/kernels.py); not the file that
     * only names the kernel, nor the kernel file itself */
    assert_int_equal(k->peers.n, 2);
    assert_true(has_peer(k, "pkg/ops/launch.py"));
    assert_true(has_peer(k, "pkg/other/absolute.py"));
    const kc_file_result *o = find(&r.l, "pkg/other/kernels.py");
    assert_int_equal(o->peers.n, 0);
    assert_int_equal(find(&r.l, "pkg/ops/launch.py")->peers.n, 0); /* defines no kernel */
    linked_free(&r);
}

/* kcheck --severity note --select KC201 with the given paths; stdout. */
static char *kc201(const char *cache, const char *a, const char *b)
{
    char *cachearg = cache ? kc_xasprintf("--cache-dir=%s", cache) : kc_xstrdup("--no-cache");
    kh_result r = kh_run(cachearg, "--severity", "note", "--select", "KC201", "--no-source", a, b, NULL);
    int status;
    char *out = kh_result_take_out(&r, &status);
    free(cachearg);
    return out;
}

static void test_launch_in_another_file(void **state)
{
    (void)state;
    write_tree();
    char *kern = kc_xasprintf("%s/pkg/ops/kernels.py", dir);
    char *launch = kc_xasprintf("%s/pkg/ops/launch.py", dir);
    /* alone, the kernel file says what it assumes */
    char *out = kc201(NULL, kern, NULL);
    kh_expect_in(out, "kernels.py:8:");
    kh_expect_in(out, "saw no launch of `prefix_kernel`");
    free(out);
    /* with the file that launches it, BLOCK_N = next_power_of_2(E): one pass */
    out = kc201(NULL, kern, launch);
    assert_null(strstr(out, "KC201"));
    free(out);
    /* the result cache follows the launching file */
    char *cache = kc_xasprintf("%s/cache", dir);
    out = kc201(cache, kern, launch);
    assert_null(strstr(out, "KC201"));
    free(out);
    const char *fixed = "import torch\nimport triton\n\nfrom .kernels import prefix_kernel\n\n\n"
                        "def offsets(counts: torch.Tensor, E: int):\n"
                        "    out = torch.empty_like(counts)\n"
                        "    prefix_kernel[(1,)](counts, out, E=E, BLOCK_N=64)\n"
                        "    return out\n";
    kh_write(launch, fixed);
    out = kc201(cache, kern, launch);
    kh_expect_in(out, "kernels.py:8:");
    free(out);
    free(cache);
    free(kern);
    free(launch);
}

/* From inside the package, with paths relative to it: the absolute
 * import `pkg.ops.kernels` still names ./kernels.py. */
static void test_absolute_import_from_inside(void **state)
{
    (void)state;
    write_tree();
    const char *covered = "import triton\nfrom pkg.ops.kernels import prefix_kernel\n\n\n"
                          "def offsets(counts, out, E):\n"
                          "    prefix_kernel[(1,)](counts, out, E=E, BLOCK_N=triton.next_power_of_2(E))\n";
    char *path = kc_xasprintf("%s/pkg/ops/covered.py", dir);
    kh_write(path, covered);
    free(path);
    char *old = getcwd(NULL, 0), *ops = kc_xasprintf("%s/pkg/ops", dir);
    assert_int_equal(chdir(ops), 0);
    char *out = kc201(NULL, "kernels.py", "covered.py");
    assert_null(strstr(out, "KC201"));
    free(out);
    out = kc201(NULL, "kernels.py", NULL);
    kh_expect_in(out, "kernels.py:8:");
    free(out);
    assert_int_equal(chdir(old), 0);
    free(old);
    free(ops);
}

/* `from vllm.triton_utils import tl, triton` in a kernel file: the module
 * that binds them to triton becomes the file's peer, whether it is a file
 * of the run or only on disk where Python finds it (the importer's
 * package directories, up to the one above the outermost package); a
 * module that binds them otherwise does not. */
static void test_reexport_peers(void **state)
{
    (void)state;
    const char *tu = "import os\nif os.environ.get('X'):\n    import triton\n    import triton.language as tl\n"
                     "else:\n    triton = tl = None\n";
    const char *user = "from vllm.triton_utils import tl, triton\nfrom vllm.other import tl as tl2\n"
                       "@triton.jit\ndef k(p, B: tl.constexpr):\n    tl.store(p + tl.arange(0, B), tl2.load(p))\n";
    const char *other = "tl = object()\n";
    kh_write_at(dir, "repo/vllm/__init__.py", "", 0);
    kh_write_at(dir, "repo/vllm/triton_utils/__init__.py", tu, strlen(tu));
    kh_write_at(dir, "repo/vllm/other.py", other, strlen(other));
    kh_write_at(dir, "repo/vllm/ops/__init__.py", "", 0);
    kh_write_at(dir, "repo/vllm/ops/k.py", user, strlen(user));
    for (int pass = 0; pass < 2; pass++) {
        char *kp = kc_xasprintf("%s/repo/vllm/ops/k.py", dir), *whole = kc_xasprintf("%s/repo", dir);
        linked r;
        link_run(&r, pass ? whole : kp, 2);
        const kc_file_result *k = find(&r.l, "vllm/ops/k.py");
        assert_int_equal(k->peers.n, 1);
        assert_true(has_peer(k, "repo/vllm/triton_utils/__init__.py"));
        linked_free(&r);
        free(kp);
        free(whole);
    }
}

/* `from pkg.utils import ext` where ext is a module of its own, used the
 * Triton way (`ext.program_id`): that module is a peer (its wrappers say
 * what the calls return); a package of that name is not. */
static void test_wrapper_module_peer(void **state)
{
    (void)state;
    const char *ext = "import triton.language as tl\n@triton.jit\ndef program_id(axis):\n"
                      "    return tl.program_id(axis).to(tl.int64)\n";
    const char *user = "import triton\nimport triton.language as tl\nfrom pkg.utils import ext\n"
                       "from pkg.utils import sub\n"
                       "@triton.jit\ndef k(p, B: tl.constexpr):\n"
                       "    tl.store(p + ext.program_id(0) + sub.program_id(0) + tl.arange(0, B), 0)\n";
    kh_write_at(dir, "w/pkg/__init__.py", "", 0);
    kh_write_at(dir, "w/pkg/utils/__init__.py", "", 0);
    kh_write_at(dir, "w/pkg/utils/ext.py", ext, strlen(ext));
    kh_write_at(dir, "w/pkg/utils/sub/__init__.py", ext, strlen(ext));
    kh_write_at(dir, "w/pkg/k.py", user, strlen(user));
    char *kp = kc_xasprintf("%s/w/pkg/k.py", dir);
    linked r;
    link_run(&r, kp, 1);
    const kc_file_result *k = find(&r.l, "pkg/k.py");
    assert_true(has_peer(k, "w/pkg/utils/ext.py"));
    assert_false(has_peer(k, "sub/__init__.py"));
    linked_free(&r);
    free(kp);
}

/* `from pkg.op_registry import register_kernel_op` used as a decorator:
 * the module is a peer when the decorator's definition registers a custom
 * op (whether torch.compile traces the launch), not when it only wraps. */
static void test_decorator_module_peer(void **state)
{
    (void)state;
    const char *reg = "import torch\ndef register_kernel_op(name):\n    def d(fn):\n"
                      "        return torch.library.custom_op(name, mutates_args=())(fn)\n    return d\n";
    const char *wrap = "def timed(fn):\n    return fn\n";
    const char *user = "import triton\nimport triton.language as tl\n"
                       "from pkg.op_registry import register_kernel_op\nfrom pkg.util import timed\n"
                       "@triton.jit\ndef k(p, B: tl.constexpr):\n    tl.store(p + tl.arange(0, B), 0)\n"
                       "@register_kernel_op('k')\n@timed\ndef run(p):\n    k[(1,)](p, B=16)\n";
    kh_write_at(dir, "d/pkg/__init__.py", "", 0);
    kh_write_at(dir, "d/pkg/op_registry.py", reg, strlen(reg));
    kh_write_at(dir, "d/pkg/util.py", wrap, strlen(wrap));
    kh_write_at(dir, "d/pkg/k.py", user, strlen(user));
    char *kp = kc_xasprintf("%s/d/pkg/k.py", dir);
    linked r;
    link_run(&r, kp, 1);
    const kc_file_result *k = find(&r.l, "pkg/k.py");
    assert_true(has_peer(k, "d/pkg/op_registry.py"));
    assert_false(has_peer(k, "d/pkg/util.py"));
    linked_free(&r);
    free(kp);
}

/* A launch through a name assigned the imported kernel
 * (`fx = ka if c else kb`, `fn = mod.ka`) links the files too. */
static void test_launch_through_alias_links(void **state)
{
    (void)state;
    write_tree();
    const char *cond = "import triton\nfrom .kernels import prefix_kernel\n\n"
                       "def run(c, o, E, other):\n"
                       "    fx = prefix_kernel if E > 4 else other\n"
                       "    fx[(1,)](c, o, E=E, BLOCK_N=triton.next_power_of_2(E))\n";
    const char *mod = "import pkg.ops.kernels as K\n\ndef run(c, o, E):\n    fn = K.prefix_kernel\n"
                      "    fn[(1,)](c, o, E=E, BLOCK_N=64)\n";
    kh_write_at(dir, "pkg/ops/cond.py", cond, strlen(cond));
    kh_write_at(dir, "pkg/ops/mod.py", mod, strlen(mod));
    linked r;
    link_run(&r, dir, 2);
    const kc_file_result *k = find(&r.l, "pkg/ops/kernels.py");
    assert_true(has_peer(k, "pkg/ops/cond.py"));
    assert_true(has_peer(k, "pkg/ops/mod.py"));
    assert_false(has_peer(k, "pkg/ops/alias.py")); /* assigns it, launches nothing */
    linked_free(&r);
    /* and the launch through the alias binds the kernel: one pass */
    char *kern = kc_xasprintf("%s/pkg/ops/kernels.py", dir), *c = kc_xasprintf("%s/pkg/ops/cond.py", dir);
    char *out = kc201(NULL, kern, c);
    assert_null(strstr(out, "KC201"));
    free(out);
    free(kern);
    free(c);
}

/* Whether the repository calls torch.compile: unknown outside a
 * repository, never when no Python file of it names it, seen once one
 * does (a file outside the run too). */
static void test_repository_compile_use(void **state)
{
    (void)state;
    write_tree();
    linked r;
    link_run(&r, dir, 1);
    assert_int_equal(find(&r.l, "pkg/ops/kernels.py")->peers.torch_compile, KC_COMPILE_UNKNOWN);
    linked_free(&r);
    kh_write_at(dir, ".git/HEAD", "ref: refs/heads/main\n", 21);
    link_run(&r, dir, 1);
    const kc_file_result *k = find(&r.l, "pkg/ops/kernels.py");
    assert_int_equal(k->peers.torch_compile, KC_COMPILE_NEVER);
    assert_true(k->peers.repo_py_files >= 5);
    assert_int_equal(find(&r.l, "pkg/ops/launch.py")->peers.torch_compile, KC_COMPILE_UNKNOWN); /* no kernel */
    linked_free(&r);
    /* named only in a comment, a docstring, `torch.compiler.disable` and an
     * `is_compiling()` check (a vendored model file): no call */
    static const char model_py[] = "import torch\n"
                                   "# works with torch.compile's dynamic shapes\n"
                                   "class Cache:\n"
                                   "    \"\"\"To be used with `torch.compile(model)`.\"\"\"\n"
                                   "    @torch.compiler.disable\n"
                                   "    def f(self):\n"
                                   "        s = 'torch.compile(x)'\n"
                                   "        return torch._dynamo.is_compiling()\n";
    kh_write_at(dir, "pkg/models/model.py", model_py, strlen(model_py));
    link_run(&r, dir, 1);
    assert_int_equal(find(&r.l, "pkg/ops/kernels.py")->peers.torch_compile, KC_COMPILE_NEVER);
    linked_free(&r);
    static const char train_py[] = "import torch\nmodel = torch.compile(model)\n";
    kh_write_at(dir, "scripts/train.py", train_py, strlen(train_py));
    char *kern = kc_xasprintf("%s/pkg/ops/kernels.py", dir);
    link_run(&r, kern, 1); /* the kernel file alone: the repository is read all the same */
    assert_int_equal(find(&r.l, "pkg/ops/kernels.py")->peers.torch_compile, KC_COMPILE_SEEN);
    linked_free(&r);
    free(kern);
}

/* ---- functions nothing in the repository names (kc_reach.h) ---- */

static const kc_unref *unref_entry(const kc_file_result *r, const char *name)
{
    for (uint32_t i = 0; i < r->peers.nunreferenced; i++)
        if (strcmp(r->peers.unreferenced[i].name, name) == 0)
            return &r->peers.unreferenced[i];
    return NULL;
}

static bool unreferenced(const kc_file_result *r, const char *name) { return unref_entry(r, name) != NULL; }

static void test_repository_unreferenced(void **state)
{
    (void)state;
    static const char kern_py[] = "import triton\nimport triton.language as tl\n\n"
                                  "@triton.jit\ndef live(x):\n    pass\n\n"
                                  "@triton.jit\ndef dead(x):\n    pass\n\n"
                                  "@triton.jit\ndef by_string(x):\n    pass\n\n"
                                  "@triton.jit\ndef from_other(x):\n    pass\n\n"
                                  "@triton.jit\ndef after_return(x):\n    pass\n\n"
                                  "@triton.jit\ndef early_exit(x):\n    pass\n\n"
                                  "@triton.jit\ndef after_nested(x):\n    pass\n\n"
                                  "def run(x):\n    live[(1,)](x)  # dead[(1,)](x)\n"
                                  "def backward(x, fast):\n"
                                  "    if fast:\n        return early_exit[(1,)](\n            x)\n"
                                  "    for i in range(2):\n        if i:\n            raise ValueError(i)\n"
                                  "        after_nested[(1,)](x)\n"
                                  "    return (None,\n            None)\n"
                                  "    after_return[(1,)](x)\n"
                                  "    if x:\n        after_return[(1,)](x)\n"
                                  "KERNELS = ['by_string']\n";
    static const char other_py[] = "from .kern import from_other\nfrom_other[(1,)](0)\n";
    static const char kern_cu[] = "template <int N>\n__global__ void __launch_bounds__(256) used_k(float *p) {}\n"
                                  "__global__ void dead_k(float *p) { helper_d(p); }\n"
                                  "__device__ __forceinline__ float helper_d(float *p) { return *p; }\n"
                                  "static CUTLASS_DEVICE void macro_d(float *p) {}\n"
                                  "void go(float *p) {\n  used_k<128><<<1, 256>>>(p);\n"
                                  "  /* dead_k<<<1, 1>>>(p); */\n  const char *s = \"macro_d\";\n}\n";
    static const char lib_cu[] = "__global__ void lib_k(float *p) {}\n"; /* launched from outside */
    kh_write_at(dir, "pkg/kern.py", kern_py, strlen(kern_py));
    kh_write_at(dir, "pkg/other.py", other_py, strlen(other_py));
    kh_write_at(dir, "csrc/kern.cu", kern_cu, strlen(kern_cu));
    kh_write_at(dir, "csrc/lib.cu", lib_cu, strlen(lib_cu));
    /* outside a repository: nothing is said */
    linked r;
    link_run(&r, dir, 1);
    assert_int_equal(find(&r.l, "pkg/kern.py")->peers.nunreferenced, 0);
    assert_int_equal(find(&r.l, "pkg/kern.py")->peers.reach_files, 0);
    linked_free(&r);
    kh_write_at(dir, ".git/HEAD", "ref: refs/heads/main\n", 21);
    char *one = kc_xasprintf("%s/pkg/kern.py", dir);
    for (int pass = 0; pass < 2; pass++) { /* the whole tree, then the file alone */
        link_run(&r, pass ? one : dir, 1);
        const kc_file_result *k = find(&r.l, "pkg/kern.py");
        assert_true(k->peers.reach_files >= 4);
        assert_true(unreferenced(k, "dead"));
        assert_false(unreferenced(k, "run")); /* a host function: not judged */
        assert_false(unreferenced(k, "live"));
        assert_false(unreferenced(k, "by_string")); /* a string may name it */
        assert_false(unreferenced(k, "from_other"));
        /* what follows a `return` or `raise` in its block never runs; the
         * return's own continuation lines and the lines of an outer block do */
        assert_true(unreferenced(k, "after_return"));
        assert_false(unreferenced(k, "early_exit"));
        assert_false(unreferenced(k, "after_nested"));
        if (!pass) {
            const kc_file_result *c = find(&r.l, "csrc/kern.cu");
            assert_true(unreferenced(c, "dead_k"));
            assert_false(unreferenced(c, "used_k"));
            assert_false(unreferenced(c, "helper_d"));
            assert_false(unreferenced(c, "macro_d"));
            assert_false(unreferenced(c, "__launch_bounds__"));
            /* a file that launches none of its own kernels: nothing said */
            assert_int_equal(find(&r.l, "csrc/lib.cu")->peers.nunreferenced, 0);
        }
        linked_free(&r);
    }
    free(one);
}

/* C/C++ functions of the host: judged only in a file whose functions
 * another file of the repository names; then one named nowhere but where
 * it is defined is called by nothing. Class members, `main`, functions
 * defined as `A::f` are never judged. */
static void test_repository_unreferenced_host(void **state)
{
    (void)state;
    static const char pipe_cu[] =
        "#include \"pipe.h\"\n"
        "__global__ void k(float *p) {}\n"
        "#define BLOCK { int unbalanced_in_a_macro;\n"
        "namespace stage {\n"
        "void run_stage(float *p) { k<<<1, 1>>>(p); if (p) { dead_helper(0); } }\n"
        "static void dead_helper(float *p) { }\n"
        "void declared_in_header(float *p) {}\n"
        "} // namespace stage\n"
        "extern \"C\" void c_api(float *p) {}\n"
        "extern \"C\" {\nvoid in_block(float *p) {}\n}\n"
        "struct S { void member(float *p) {} };\n"
        "void S2::defined_outside(float *p) const {}\n"
        "template <typename T, int N = sizeof(T)>\nstd::vector<T> tmpl_dead(T *p) noexcept {}\n"
        "/* void commented(float *p) {} */\n"
        "void declared_in_source(float *p) {}\n"
        "void called_after_declaring(float *p) {}\n"
        "void registered_by_macro(float *p) {}\n"
        "int initialiser(int v) { return v; }\n"
        "static void only_dead_calls(float *p) { }\n"
        "static void dead_and_live_call(float *p) { }\n"
        "void dead_entry(float *p) { only_dead_calls(p); if (p) { only_dead_calls(p); dead_and_live_call(p); } }\n"
        "void live_entry(float *p) { dead_and_live_call(p); }\n"
        "void named_in_other_files_dead_body(float *p) {}\n"
        "int main() { return 0; }\n";
    static const char pipe_h[] = "void declared_in_header(float *p);\n";
    /* a source file's own declarations: one never called (a bindings file
     * that declares what it does not bind), one called, one a macro's
     * argument, one whose result initialises a variable */
    static const char main_cpp[] = "#include \"pipe.h\"\n"
                                   "void declared_in_source(float *p);\n"
                                   "void called_after_declaring(float *p);\n"
                                   "REGISTER(registered_by_macro);\n"
                                   "static int x = initialiser(1);\n"
                                   "int main() { stage::run_stage(0); called_after_declaring(0); live_entry(0);\n"
                                   "  live_u(0); }\n";
    /* a dead function's body that an `#if` leaves with unbalanced braces:
     * where it ends is not known, so what it names stays named */
    static const char unbal_cu[] = "static void helper_u(float *p) {}\n"
                                   "void live_u(float *p) {}\n"
                                   "void dead_u(float *p) {\n"
                                   "#if A\n  if (p) {\n#else\n  if (!p) {\n#endif\n"
                                   "    helper_u(p);\n  }\n}\n";
    static const char api_py[] = "def go(lib, x):\n    lib.c_api(x)\n";
    static const char alone_cu[] = "__global__ void k2(float *p) {}\nvoid only_here(float *p) { k2<<<1, 1>>>(p); }\n";
    kh_write_at(dir, "csrc/pipe.cu", pipe_cu, strlen(pipe_cu));
    kh_write_at(dir, "csrc/pipe.h", pipe_h, strlen(pipe_h));
    kh_write_at(dir, "csrc/main.cpp", main_cpp, strlen(main_cpp));
    kh_write_at(dir, "py/api.py", api_py, strlen(api_py));
    kh_write_at(dir, "csrc/alone.cu", alone_cu, strlen(alone_cu));
    kh_write_at(dir, "csrc/unbal.cu", unbal_cu, strlen(unbal_cu));
    /* a dead function of another file naming one of pipe.cu's: that use
     * counts as live, whether or not the run holds that file */
    static const char other_cu[] = "void other_dead(float *p) { named_in_other_files_dead_body(p); }\n";
    kh_write_at(dir, "csrc/other.cu", other_cu, strlen(other_cu));
    kh_write_at(dir, ".git/HEAD", "ref: refs/heads/main\n", 21);
    linked r;
    link_run(&r, dir, 1);
    const kc_file_result *c = find(&r.l, "csrc/pipe.cu");
    assert_false(unreferenced(c, "run_stage"));   /* main.cpp calls it */
    assert_false(unreferenced(c, "dead_helper")); /* run_stage calls it */
    assert_false(unreferenced(c, "declared_in_header")); /* an interface for code outside */
    assert_true(unreferenced(c, "declared_in_source"));   /* only declared, in main.cpp */
    assert_false(unreferenced(c, "called_after_declaring"));
    assert_false(unreferenced(c, "registered_by_macro"));
    assert_false(unreferenced(c, "initialiser"));
    assert_false(unreferenced(c, "c_api")); /* Python names it (ctypes) */
    assert_true(unreferenced(c, "in_block"));
    assert_true(unreferenced(c, "tmpl_dead"));
    assert_false(unreferenced(c, "member"));
    assert_false(unreferenced(c, "defined_outside"));
    assert_false(unreferenced(c, "main"));
    assert_false(unreferenced(c, "commented"));
    assert_false(unreferenced(c, "k"));
    /* named only inside a function nothing calls: not called either */
    assert_true(unreferenced(c, "dead_entry"));
    assert_null(unref_entry(c, "dead_entry")->via);
    assert_true(unreferenced(c, "only_dead_calls"));
    assert_string_equal(unref_entry(c, "only_dead_calls")->via, "dead_entry");
    assert_false(unreferenced(c, "dead_and_live_call"));
    assert_false(unreferenced(c, "live_entry"));
    assert_false(unreferenced(c, "named_in_other_files_dead_body"));
    const kc_file_result *u = find(&r.l, "csrc/unbal.cu");
    assert_true(unreferenced(u, "dead_u"));
    assert_false(unreferenced(u, "helper_u"));
    assert_false(unreferenced(u, "live_u"));
    /* no other file names a function of this one: used from outside */
    assert_int_equal(find(&r.l, "csrc/alone.cu")->peers.nunreferenced, 0);
    linked_free(&r);
    /* a run whose list keeps the repository unread (the fixtures) */
    const char *paths[] = {dir};
    memset(&r, 0, sizeof r);
    kc_expand_paths(paths, 1, &r.l);
    r.l.no_reach = true;
    r.p = kc_project_link(&r.l, 1 << 20, 1);
    assert_int_equal(find(&r.l, "csrc/pipe.cu")->peers.nunreferenced, 0);
    assert_int_equal(find(&r.l, "csrc/pipe.cu")->peers.reach_files, 0);
    linked_free(&r);
}

/* ---- CUDA sources no build file compiles (kc_build.h) ---- */

static const char *unbuilt_of(const linked *r, const char *tail) { return find(&r->l, tail)->peers.unbuilt; }

static void test_repository_unbuilt(void **state)
{
    (void)state;
    static const char kern[] = "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n";
    static const char makefile[] = "CUSRCS = ./Util/a.cu \\\n\t./Util/b.cu\nOBJS = $(CUSRCS:.cu=.o) main.o\n"
                                   "%.o: %.cu\n\tnvcc -c $< -o $@\nclean:\n\trm -f *.o\n";
    static const char *const files[] = {"Util/a.cu", "Util/b.cu", "Util/c.cu", "Util/old/d.cu", "Other/e.cu",
                                        "Util/f.cu", "Util/g.cu", "Util/h.cu", "Util/twin/a.cu", "Other/deep/e.cu"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        kh_write_at(dir, files[i], kern, strlen(kern));
    kh_write_at(dir, "Makefile", makefile, strlen(makefile));
    kh_write_at(dir, "main.cpp", "int main() {}\n", 14);
    kh_write_at(dir, "README.md", "Build the demo by hand: `nvcc Util/f.cu`.\n", 42);
    kh_write_at(dir, "Util/b.cu", "#include \"g.cu\"\n", 16);
    kh_write_at(dir, "tools/extra.mk", "EXTRA = h.o\n", 12);
    /* a listing of other sources, a glob of text files */
    static const char lib_mk[] = "SRCS = $(wildcard *.cpp)\n";
    static const char gen_py[] = "import glob\nfor f in glob.glob('*.txt'): print(f, 'b.cu')\n";
    kh_write_at(dir, "lib/Makefile", lib_mk, strlen(lib_mk));
    kh_write_at(dir, "tools/gen.py", gen_py, strlen(gen_py));
    static const char dev_mk[] = "TARGETS = scan softmax\nall: $(TARGETS) extra\n%: %.cu\n\tnvcc $< -o $@\n"
                                 "extra: extra.cu common.cu\n\tnvcc $^ -o $@\n";
    kh_write_at(dir, "dev/Makefile", dev_mk, strlen(dev_mk));
    kh_write_at(dir, "dev/scan.cu", kern, strlen(kern));
    kh_write_at(dir, "dev/extra.cu", kern, strlen(kern));
    kh_write_at(dir, "dev/common.cu", kern, strlen(kern));
    kh_write_at(dir, "dev/stale.cu", kern, strlen(kern));
    /* outside a repository: nothing is said */
    linked r;
    link_run(&r, dir, 1);
    assert_null(unbuilt_of(&r, "Util/c.cu"));
    linked_free(&r);
    kh_write_at(dir, ".git/HEAD", "ref: refs/heads/main\n", 21);
    link_run(&r, dir, 1);
    assert_null(unbuilt_of(&r, "Util/a.cu"));
    assert_null(unbuilt_of(&r, "Util/b.cu"));
    const char *c = unbuilt_of(&r, "Util/c.cu");
    assert_non_null(c);
    assert_non_null(strstr(c, "no build file of its repository compiles `Util/c.cu`: they name 5 CUDA sources one by one, 3 sources beside it"));
    assert_non_null(unbuilt_of(&r, "Util/old/d.cu"));   /* the directory above is listed */
    assert_non_null(unbuilt_of(&r, "Other/e.cu"));      /* the top directory's main.o is listed */
    assert_null(unbuilt_of(&r, "Other/deep/e.cu"));     /* nothing near it is listed: not told */
    assert_null(unbuilt_of(&r, "Util/f.cu"));           /* a README names it */
    assert_null(unbuilt_of(&r, "Util/g.cu"));           /* included by a source */
    assert_null(unbuilt_of(&r, "Util/h.cu"));           /* its object is named */
    assert_non_null(unbuilt_of(&r, "Util/twin/a.cu")); /* `./Util/a.cu` names the other one */
    assert_null(unbuilt_of(&r, "dev/scan.cu"));         /* a target of the rule `%: %.cu` */
    assert_null(unbuilt_of(&r, "dev/extra.cu"));
    assert_non_null(unbuilt_of(&r, "dev/stale.cu"));
    linked_free(&r);
    /* the file alone: its repository is read all the same */
    char *one = kc_xasprintf("%s/Util/c.cu", dir);
    link_run(&r, one, 1);
    assert_non_null(unbuilt_of(&r, "Util/c.cu"));
    linked_free(&r);
    /* its findings are notes that say why, and the result cache follows
     * the build files: once the makefile names it, they are warnings */
    static const char strided[] = "__global__ void k(const float *in, float *out, int n)\n{\n"
                                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "    if (i < n)\n        out[i] = in[i * 32];\n}\n";
    kh_write_at(dir, "Util/c.cu", strided, strlen(strided));
    char *cache = kc_xasprintf("--cache-dir=%s/cache", dir);
    for (int named = 0; named < 2; named++) {
        if (named) {
            static const char mk[] = "EXTRA = Util/c.cu\n";
            kh_write_at(dir, "extra.mk", mk, strlen(mk));
        }
        kh_result k = kh_run(cache, "--select", "KC101", "--severity", "note", "--no-source", one, NULL);
        int status;
        char *out = kh_result_take_out(&k, &status);
        kh_expect_in(out, "c.cu:5:21: ");
        if (named) {
            kh_expect_in(out, "c.cu:5:21: warning:");
            assert_null(strstr(out, "reported as a note"));
        } else {
            kh_expect_in(out, "c.cu:5:21: note:");
            kh_expect_in(out, "reported as a note: no build file of its repository compiles `Util/c.cu`");
        }
        free(out);
    }
    char *mk = kc_xasprintf("%s/extra.mk", dir);
    unlink(mk);
    free(mk);
    free(cache);
    free(one);
    /* a list built from a pattern anywhere: nothing is said */
    static const char *const patterns[] = {"SRCS = $(wildcard Util/*.cu)\n", "file(GLOB S\n  src/*)\n",
                                           "SRCS = $(addsuffix .cu, $(NAMES))\n",
                                           "sources = [n + '.cu' for n in names]\n"};
    static const char *const where[] = {"Makefile", "sub/CMakeLists.txt", "sub/rules.mk", "setup.py"};
    for (size_t i = 0; i < 4; i++) {
        char *path = kc_xasprintf("%s/%s", dir, where[i]);
        kh_write_at(dir, where[i], patterns[i], strlen(patterns[i]));
        if (i == 0)
            kh_write_at(dir, "Makefile2", makefile, strlen(makefile));
        link_run(&r, dir, 1);
        assert_null(unbuilt_of(&r, "Util/c.cu"));
        linked_free(&r);
        unlink(path);
        free(path);
    }
}

static int setup(void **state)
{
    (void)state;
    kh_tmpdir_make(dir, sizeof dir, "project");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return kh_tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_forms),
        cmocka_unit_test(test_import_lookalikes),
        cmocka_unit_test_setup_teardown(test_peers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_in_another_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_absolute_import_from_inside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reexport_peers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrapper_module_peer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decorator_module_peer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_through_alias_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_repository_compile_use, setup, teardown),
        cmocka_unit_test_setup_teardown(test_repository_unreferenced, setup, teardown),
        cmocka_unit_test_setup_teardown(test_repository_unreferenced_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_repository_unbuilt, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
