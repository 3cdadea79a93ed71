/* kc_pyscan.h — what a text scan can tell of Python source, without a
 * parser: the import statements (to link the files of a run, kc_project.h)
 * and the dotted names written before a `[` (`k` in `k[grid](...)`,
 * `mod.k` in `mod.k [grid]`), which say which imports a file launches
 * through and whether a file can launch a given kernel. Linear in the
 * text whatever its shape. */
#ifndef KC_PYSCAN_H
#define KC_PYSCAN_H

#include "kc_base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The import statements of one Python source: for each name bound,
 * fn(dots, module, local, is_module). `from ..a.b import c as d` gives
 * (2, "a.b", "d", false) -- d a member of a.b -- and (2, "a.b.c", "d",
 * true) -- d the submodule a.b.c; `import x.y as z` gives (0, "x.y", "z",
 * true); `import x.y` gives (0, "x.y", "x.y", true). */
typedef void (*kc_import_fn)(void *ud, unsigned dots, const char *module, const char *local, bool is_module);
void kc_scan_python_imports(const char *text, size_t len, kc_import_fn fn, void *ud);

/* A dotted name written before a `[`: s[0..n), pointing into the text. */
typedef struct kc_py_name {
    const char *s;
    uint32_t n;
} kc_py_name;
typedef KC_VEC(kc_py_name) kc_py_names;

/* The dotted names the text subscripts, sorted (appended to out; free
 * with kc_vec_free). */
void kc_py_subscripts(const char *text, size_t len, kc_py_names *out);
/* Is `local` subscripted (is_module false: `local[`), or a name in it
 * (is_module true: `local.k[`)? */
bool kc_py_subscripts_has(const kc_py_names *names, const char *local, bool is_module);
/* Is `local` (is_module: a name in it, `local.k`) assigned, alone or in
 * a conditional expression, to a name the text subscripts: `fx = local
 * if c else other` ... `fx[grid](...)`? */
bool kc_py_assigned_to_subscripted(const char *text, size_t len, const kc_py_names *names, const char *local,
                                   bool is_module);

/* ---- names bound to Triton ---- */

/* What the text's imports bind `local` to under triton: `import triton`
 * ("triton"), `import triton.language as tl` and `from triton import
 * language as tl` ("triton.language"), `from triton import jit`
 * ("triton.jit"), wherever the statement is (a try/except fallback, an
 * if). Else what an assignment to it makes of those names, at any
 * indent: `tl_arange = tl.arange` ("triton.language.arange"),
 * `triton_jit = try_decorate(lambda: triton.jit)` ("triton.jit").
 * Writes the qualified name into out (NUL-terminated) and returns true;
 * false when nothing binds `local` to a triton name. */
bool kc_py_triton_binding(const char *text, size_t len, const char *local, char *out, size_t outsz);

/* How the text uses the name `local` the Triton way (a mask of): */
enum {
    KC_PY_USE_JIT = 1u << 0,  /* `@local.jit`, `@local.autotune(`, `@local.heuristics(`, `local.jit(` */
    KC_PY_USE_TL = 1u << 1,   /* `local.program_id(`, `local.arange(`, `local.load(`, `local.store(`,
                                 `local.constexpr` */
    KC_PY_USE_DECORATOR = 1u << 2, /* `@local` alone on its line (`@jit`) */
};
unsigned kc_py_triton_uses(const char *text, size_t len, const char *local);

/* ---- functions that register another as an operator ---- */

/* What the body of the first `def name(` of the text (a decorator, or a
 * decorator factory such as `def register_kernel_op(name, ...)` whose
 * inner function returns `torch.library.custom_op(...)(fn)`) mentions, a
 * mask of: */
enum {
    KC_PY_REG_CUSTOM_OP = 1u << 0, /* `custom_op`: torch.compile calls the op, its body runs eagerly */
    KC_PY_REG_TRITON_OP = 1u << 1, /* `triton_op`: torch.compile traces into it */
};
unsigned kc_py_def_registers(const char *text, size_t len, const char *name);

/* ---- torch.compile ---- */

/* Does the text use torch.compile in its code, not in a comment or a
 * string (a docstring's "used with `torch.compile(model)`"): the name
 * `torch.compile` (not `torch.compiler.disable`), or `torch._dynamo` put to
 * another use than asking `is_compiling()`? */
bool kc_py_calls_torch_compile(const char *text, size_t len);

#endif
