/* KC501 double-promotion: float device code silently computing in double
 * precision (CUDA: unsuffixed literals, double math functions; Triton: a
 * Python-float argument that Inductor passes as fp64). */
#include "rule_util.h"

#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags float device code that computes in double precision by accident.\n"
    "\n"
    "In CUDA kernels and `__device__` functions:\n"
    "\n"
    "- an unsuffixed floating literal combined with a float value (`x * 0.5`,\n"
    "  `acc += 1e-6`), when the result goes back into a float: the float is\n"
    "  converted to double, the arithmetic runs on the fp64 units, and the result\n"
    "  is converted back; also a constant folded from literals one of which is\n"
    "  double (`#define SQRT_2_PI M_SQRT2 * M_2_SQRTPI * 0.5f` used as\n"
    "  `SQRT_2_PI * x`: the folded constant is a double, and nvcc -O3\n"
    "  --use_fast_math emits `mul.f64` for it, bench/premise/kc501_folded_constant.cu);\n"
    "- a math function that resolves to its double version because its argument\n"
    "  is such a promoted value (`exp(x * 2.0)` calls `double exp(double)`), and\n"
    "  `pow(x, 2)` with a float `x` and an integer exponent, which the C++\n"
    "  library's `pow(T, U)` template computes in double.\n"
    "\n"
    "Arithmetic on genuine doubles (double variables, explicit casts) and\n"
    "comparisons are left alone; so is template code whose types are not known.\n"
    "In CUDA, fp64 that one thread of the block runs once, outside every loop\n"
    "(`if (tid == 0) var = sqrt(var / n + 1e-10);` after a block reduction), is\n"
    "a note: a few fp64 instructions per block beside the block's own work.\n"
    "So is a literal that makes at most two fp64 adds or multiplies (no division,\n"
    "no math function) that each thread runs once, outside every loop, where the\n"
    "thread moves enough memory to hide them: n operations and the two\n"
    "conversions are n + 2 fp64 instructions, and where fp64 is slowest beside\n"
    "memory (an RTX 3090: 0.28 T fp64 instructions/s against 936 GB/s, from\n"
    "NVIDIA's published peak rates) they hide under 3.4 * (n + 2) bytes a thread;\n"
    "kcheck asks for 4 * (n + 2) bytes of the thread's global loads and stores.\n"
    "`x[i] = x[i] * 0.5` (8 bytes) stays a warning.\n"
    "\n"
    "In Triton kernels: a scalar argument that a launch passes as a Python float\n"
    "(`eps=1e-6`, `float(x)`, `1.0 / math.sqrt(d)`, a `float` parameter of the\n"
    "launching function or what its callers pass) and that meets fp32, fp16 or\n"
    "bf16 data uncast (`x.to(tl.float32) * scale`, `tl.rsqrt(var + eps)`) where\n"
    "the result is, or reaches, a block. Eager Triton types a Python float fp32;\n"
    "Inductor types it fp64 when `torch.compile` traces the launch, and an fp64\n"
    "scalar (unlike a Python literal) takes part in type promotion, so the block\n"
    "and everything computed from it until a cast runs in fp64. It is a warning\n"
    "when the file shows that torch.compile traces a launch (the launcher is\n"
    "reached from a `torch.autograd.Function`, an `nn.Module`'s `forward`, a\n"
    "`torch.compile` or `triton_op` function), a note when it does not show it\n"
    "or when no Python file of the file's repository calls `torch.compile` (or\n"
    "uses `torch._dynamo` other than to ask `is_compiling()`; comments and\n"
    "strings do not count): such a project runs its launches eagerly, where the float\n"
    "is fp32, and the note says what code that compiles it would get,\n"
    "and not reported when every launch runs outside tracing\n"
    "(`@torch.compiler.disable`, also around every `.apply` of the\n"
    "`torch.autograd.Function` that launches, `torch.library.custom_op`, or a decorator of the\n"
    "project's own whose definition, in the file or in the module it is imported\n"
    "from, registers the function with `custom_op`: torch.compile calls a custom\n"
    "op without tracing into it, and its body passes the float as fp32: on an\n"
    "H200, bit for bit the fp32 result, where the same launch traced from an\n"
    "autograd.Function gave the fp64 one, bench/premise/kc501_custom_op.py). Data\n"
    "of unknown type\n"
    "(a raw `tl.load`, which may be fp64 on purpose), `tl.constexpr` scalars and\n"
    "arguments pinned with `.to(...)` are left alone. A scalar that no launch\n"
    "shows the type of, in a traced kernel, that meets only float values and\n"
    "nothing shows to be an integer is reported as a note that says it presumes\n"
    "a float.\n"
    "\n"
    "In CUDA, one `+ - * /` of a float and a literal exact in float whose result\n"
    "goes straight into a float (`float inv = 1. / n;`, `v /= 2.0`) is not\n"
    "reported: rounding the double result to float gives the float result, and\n"
    "nvcc -O3 emits the float instruction (`div.rn.f32`, `mul.f32`; no f64 in the\n"
    "PTX of `ok_narrowed_by_nvcc.cu` with nvcc 13.0). Nor is `-1.0 * a * b` of\n"
    "floats into a float: the product of two float values is exact in double, so\n"
    "rounding it once is the float product, and nvcc -O3 computes it in fp32 (no\n"
    "f64 in the PTX); with a third factor it does not (7 f64 instructions).\n"
    "\n"
    "## Why is this bad?\n"
    "Consumer and inference GPUs have little fp64 throughput: 1/32 of fp32 on a T4,\n"
    "1/64 on many GeForce parts. A stray `0.5` in an activation can make a kernel\n"
    "several times slower; measured here on an H200 (which has full-rate fp64) a\n"
    "GELU loop with double literals took 0.53 ms against 0.21 ms (2.6x). It also\n"
    "costs registers (a double takes two). In Triton the same kernel is fast in\n"
    "eager mode and slow under `torch.compile`: Liger-Kernel measured its SwiGLU\n"
    "at 56.1 us eager and 108.5 us compiled (H100, 8192 x 3072 bf16), and its\n"
    "compiled model lost to `torch.compile` alone until the scalars were pinned.\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "float y = 0.5 * x * (1.0 + tanhf(0.7978845608 * (x + 0.044715 * x * x * x)));\n"
    "float e = exp(x * 2.0);\n"
    "```\n"
    "```python\n"
    "@triton.jit\n"
    "def swiglu_fwd(a_ptr, b_ptr, c_ptr, stride, gate_multiplier, n_cols: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    ...\n"
    "    a = tl.load(a_ptr + cols, mask=mask, other=0).to(tl.float32) * gate_multiplier  # fp64 when compiled\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "float y = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));\n"
    "float e = expf(x * 2.0f);\n"
    "```\n"
    "```python\n"
    "@triton.jit\n"
    "def swiglu_fwd(a_ptr, b_ptr, c_ptr, stride, gate_multiplier, n_cols: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    gate_multiplier = gate_multiplier.to(tl.float32)  # a no-op in eager mode\n"
    "    ...\n"
    "```\n"
    "\n"
    "## Fix\n"
    "CUDA: add the `f` suffix to the literals (fix-it), call the float function\n"
    "(`expf`, `sqrtf`, `powf`; fix-it), or `static_cast<T>(0.5)` in templates.\n"
    "Compile with `-Xptxas -warn-double-usage` (or look for `f64` in the PTX) to\n"
    "find the rest. Triton: pin the argument at the top of the kernel,\n"
    "`eps = eps.to(tl.float32)` (fix-it), or make it a `tl.constexpr` when its\n"
    "values are few.\n"
    "\n"
    "## References\n"
    "- AliceO2Group/AliceO2 PR #15689 (a division forced into double cost 23% of the\n"
    "  stalls of ITS tracking kernels).\n"
    "- ccsb-scripps/AutoDock-GPU PR #123 (\"make sure no doubles appear in single\n"
    "  precision kernels\": 1.0 instead of 1.0f).\n"
    "- linkedin/Liger-Kernel PRs #1350, #1358, #1362, #1364, #1366 (fp64 scalar\n"
    "  kernel parameters under torch.compile, pinned to fp32 or made constexpr).\n"
    "- CUDA C++ Best Practices Guide, \"Promotions to Doubles and Truncations to Floats\".\n";

/* A text for a message: at most 60 characters. */
static const char *shorten(kc_arena *ar, const char *t)
{
    return t && strlen(t) > 60 ? kc_arena_printf(ar, "%.57s...", t) : (t ? t : "");
}

/* The literal as the message shows it: `0.5`, or `0.5` (from `SCALE`). */
static const char *shown(kc_arena *ar, const kc_literal *l)
{
    return l->macro ? kc_arena_printf(ar, "`%s` (from `%s`)", l->text, l->macro) : kc_arena_printf(ar, "`%s`", l->text);
}

/* The guard of the statements on a line (its accesses' or calls'), or
 * KC_NONE. */
static uint32_t line_guard(const kc_kernel *k, uint32_t line)
{
    for (uint32_t i = 0; i < k->accesses.len; i++)
        if (k->accesses.data[i].span.line == line)
            return k->accesses.data[i].guard;
    for (uint32_t i = 0; i < k->calls.len; i++)
        if (k->calls.data[i].span.line == line)
            return k->calls.data[i].guard;
    return KC_NONE;
}

/* fp64 that one thread of the block runs once (outside every loop, under
 * `tid == 0`): a handful of fp64 instructions per block beside the block's
 * own work, which its cost does not show in (a layer norm's variance, by
 * thread 0 after the reduction). A note that says so. */
static void once_per_block(const kc_kernel *k, kc_diag *d, uint32_t loop, uint32_t guard)
{
    const char *who = loop == KC_NONE ? kc_guard_one_thread(k, guard) : NULL;
    if (!who)
        return;
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "reported as a note: it runs once per block, outside every loop, in the one thread `%s` lets "
                 "in: a few fp64 instructions per block cost nothing next to the block's own work",
                 who);
}

/* CUDA: at most two fp64 adds or multiplies, no division and no math
 * function, that each thread runs once (outside every loop), where the
 * thread moves enough memory to hide them. With the two conversions
 * (float to double and back), n operations are n + 2 fp64 instructions;
 * where fp64 is slowest beside memory (an RTX 3090: 0.28 T fp64
 * instructions/s against 936 GB/s, from NVIDIA's published peak rates)
 * they hide under 3.4 * (n + 2) bytes a thread; asked: 4 * (n + 2)
 * bytes of the thread's global loads and stores (an access in a loop
 * counted four times). A note that says so. */
static void once_per_thread_cheap(const kc_kernel *k, kc_diag *d, const kc_literal *l)
{
    if (k->lang != KC_LANG_CUDA || d->severity == KC_SEV_NOTE || l->loop != KC_NONE || l->fp64_ops == 0 ||
        l->fp64_ops > 2 || l->fp64_costly)
        return;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space == KC_MEM_GLOBAL)
            bytes += (uint64_t)(a->elem_bytes ? a->elem_bytes : 4) * (a->loop != KC_NONE ? 4 : 1);
    }
    unsigned need = 4u * (l->fp64_ops + 2u);
    if (bytes < need)
        return;
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "reported as a note: %u fp64 add%s or multipl%s (no division or math function) and the two "
                 "conversions, run once per thread outside every loop, where the kernel's global loads and stores add up "
                 "to %llu bytes a thread (its branches counted together): "
                 "even where fp64 is slowest beside memory (an RTX 3090: 0.28 T fp64 instructions/s against 936 "
                 "GB/s) that hides under the memory traffic (%u bytes would do)",
                 (unsigned)l->fp64_ops, l->fp64_ops == 1 ? "" : "s", l->fp64_ops == 1 ? "y" : "ies",
                 (unsigned long long)bytes, need);
}

static void literals(const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    bool *done = calloc(k->literals.len ? k->literals.len : 1, sizeof *done);
    for (uint32_t i = 0; i < k->literals.len; i++) {
        if (done[i])
            continue;
        const kc_literal *l = &k->literals.data[i];
        /* All the literals of one line: one diagnostic, one fix-it. */
        kc_strbuf names = {0};
        unsigned n = 0, fixable = 0;
        for (uint32_t j = i; j < k->literals.len; j++) {
            const kc_literal *o = &k->literals.data[j];
            if (done[j] || o->span.line != l->span.line)
                continue;
            done[j] = true;
            if (n < 6)
                kc_sb_appendf(&names, "%s%s", n ? ", " : "", shown(ar, o));
            n++;
            fixable += o->fix_text != NULL;
        }
        if (n > 6)
            kc_sb_append(&names, ", ...");
        const char *ctxt = l->context && strlen(l->context) <= 60 ? l->context
                                                                   : kc_arena_printf(ar, "%.57s...", l->context ? l->context : "");
        kc_diag *d;
        if (n == 1 && l->beside_call && strlen(l->beside_call) <= 60)
            d = kc_report(ctx, k, l->span,
                          "double-precision literal %s keeps `%s` in fp64: `%s` beside it is double already (a "
                          "finding of its own), and once that is float the literal converts it back",
                          shown(ar, l), ctxt, l->beside_call);
        else if (n == 1)
            d = kc_report(ctx, k, l->span,
                          "double-precision literal %s promotes `%s` to double: the float operand is converted "
                          "and the arithmetic runs in fp64",
                          shown(ar, l), ctxt);
        else
            d = kc_report(ctx, k, l->span,
                          "%u double-precision literals (%s) promote float arithmetic on this line to fp64, "
                          "starting with `%s`",
                          n, kc_sb_str(&names), ctxt);
        kc_sb_free(&names);
        if (l->loop != KC_NONE && l->loop < k->loops.len)
            kc_diag_note(d, "it runs in %s", kc_loop_describe(ctx, k, &k->loops.data[l->loop]));
        if (k->lang == KC_LANG_CUDA)
            once_per_block(k, d, l->loop, line_guard(k, l->span.line));
        if (n == 1)
            once_per_thread_cheap(k, d, l);
        kc_diag_note(d, "the result is stored back as float, so the double precision is lost anyway; fp64 runs at "
                     "1/32 of the fp32 rate on a T4 (2.6x slower measured for a GELU loop even on an H200)");
        bool first = true;
        for (uint32_t j = i; fixable && j < k->literals.len; j++) {
            const kc_literal *o = &k->literals.data[j];
            if (o->span.line != l->span.line || !o->fix_text)
                continue;
            if (first)
                kc_diag_fix(d, n == 1 ? kc_arena_printf(ar, "write %s", o->fix_text) : "add the f suffix to the literals",
                            o->span, o->fix_text);
            else
                kc_diag_fix_edit(d, o->span, o->fix_text);
            first = false;
        }
        if (fixable < n)
            kc_diag_note(d, "a literal that comes from a macro gets no fix-it: add the `f` suffix in the macro's "
                         "definition (or cast it to float)");
    }
    free(done);
}

static void math_calls(const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        if (!(c->flags & KC_CALL_DOUBLE_MATH))
            continue;
        const char *call = shorten(ar, kc_rule_span_text(ctx, c->span));
        kc_span at = kc_span_valid(c->callee_span) ? c->callee_span : c->span;
        kc_diag *d = kc_report(ctx, k, at, "`%s` calls the double-precision `%s`: %s", call, c->callee,
                               (c->flags & KC_CALL_POW_INT)
                                   ? "a float base with an integer exponent makes the C++ library's pow(T, U) "
                                     "promote both to double"
                                   : "its argument is float data promoted to double");
        if (c->loop != KC_NONE && c->loop < k->loops.len)
            kc_diag_note(d, "it runs in %s", kc_loop_describe(ctx, k, &k->loops.data[c->loop]));
        if (k->lang == KC_LANG_CUDA)
            once_per_block(k, d, c->loop, c->guard != KC_NONE ? c->guard : line_guard(k, c->span.line));
        kc_diag_note(d, "double-precision transcendental functions take tens of fp64 instructions; the float "
                     "version is `%sf` (or keep the argument float: with float arguments C++ overloads pick the "
                     "float function)",
                     c->callee);
        if (c->fix_text && kc_span_valid(c->callee_span))
            kc_diag_fix(d, kc_arena_printf(ar, "call %s", c->fix_text), c->callee_span, c->fix_text);
    }
}

/* ---- Triton: float scalar parameters that Inductor passes as fp64 ---- */

static bool has_sym(const kc_index *x, uint32_t sym)
{
    return x && kc_index_has_atom(x, KC_ATOM_SYMBOL, sym);
}

/* Does the kernel or a launch show that parameter `sym` is an integer: a
 * size, a stride, an integer value at a launch, a term of an address, of
 * a loop bound or of an integer comparison? */
static bool integer_by_use(const kc_kernel *k, uint32_t sym)
{
    const kc_symbol *s = &k->symbols.data[sym];
    if (s->nvalues || s->has_value || s->multiple_of ||
        (s->facts & (KC_SF_SIZE | KC_SF_PROBLEM_SIZE | KC_SF_SHAPE_ARG | KC_SF_INNER_STRIDE | KC_SF_OUTER_STRIDE |
                     KC_SF_POINTER)))
        return true;
    for (uint32_t i = 0; i < k->accesses.len; i++)
        if (has_sym(k->accesses.data[i].offset, sym))
            return true;
    for (uint32_t i = 0; i < k->loops.len; i++) {
        const kc_loop *l = &k->loops.data[i];
        if (has_sym(l->start, sym) || has_sym(l->end, sym) || has_sym(l->step, sym))
            return true;
    }
    for (uint32_t i = 0; i < k->compares.len; i++)
        if (has_sym(k->compares.data[i].lhs, sym) || has_sym(k->compares.data[i].rhs, sym))
            return true;
    return false;
}


/* The uses of parameter `sym` a finding is made of: the first where it
 * meets data (NULL when it is not to be reported), the first over a block,
 * the first in a loop. */
typedef struct fp64_finding {
    const kc_fp64_use *first, *block, *loop;
    const char *callees[3];
    unsigned ncallees, n;
    bool math_block; /* a math function runs in fp64 over a block */
} fp64_finding;

static bool fp64_judge(const kc_kernel *k, uint32_t sym, fp64_finding *f)
{
    memset(f, 0, sizeof *f);
    const kc_symbol *s = &k->symbols.data[sym];
    for (uint32_t i = 0; i < k->fp64_uses.len; i++) {
        const kc_fp64_use *u = &k->fp64_uses.data[i];
        if (u->symbol != sym)
            continue;
        f->n++;
        if (!f->first && u->with)
            f->first = u;
        if (!f->block && u->block)
            f->block = u;
        if (!f->loop && u->loop != KC_NONE && u->loop < k->loops.len)
            f->loop = u;
        bool seen = false;
        for (unsigned j = 0; j < f->ncallees; j++)
            seen |= !strcmp(f->callees[j], u->callee ? u->callee : "");
        if (u->callee && !seen && f->ncallees < 3)
            f->callees[f->ncallees++] = u->callee;
        f->math_block |= u->callee && u->block;
    }
    /* Nothing runs over a block in fp64: a few scalar operations cost nothing. */
    if (!f->first || !f->block || k->eager_by)
        return false;
    if (s->facts & KC_SF_FLOAT_ARG)
        return true;
    /* Presumed a float: the kernel is launched from traced code, no launch
     * shows its type, it meets only float values, and nothing shows it is
     * an integer. */
    if (!k->traced_by || integer_by_use(k, sym))
        return false;
    for (uint32_t i = 0; i < k->fp64_uses.len; i++) {
        const kc_fp64_use *u = &k->fp64_uses.data[i];
        if (u->symbol == sym && u->with && !strncmp(u->with, "int", 3))
            return false;
    }
    return true;
}

/* Reports parameter `sym`; `pins`: the statements that pin every
 * parameter the kernel reports (one fix-it for all of them). */
static void fp64_param(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx, uint32_t sym, const fp64_finding *f, const char *pins)
{
    kc_arena *ar = kc_rule_arena(ctx);
    const kc_symbol *s = &k->symbols.data[sym];
    const kc_fp64_use *first = f->first, *block = f->block, *loop = f->loop;
    const char *const *callees = f->callees;
    unsigned ncallees = f->ncallees, n = f->n;
    bool known = s->facts & KC_SF_FLOAT_ARG;
    const char *what = first->block ? "block" : "value";
    kc_diag *d;
    if (known && k->traced_by)
        d = kc_report(ctx, k, first->span,
                      "`%s` computes in fp64 under torch.compile: `%s` is a Python float (%s), which Inductor "
                      "passes as an fp64 scalar where eager Triton passes fp32, and an fp64 scalar promotes the "
                      "%s %s it meets",
                      shorten(ar, first->text), s->name, s->float_evidence, first->with, what);
    else if (known)
        d = kc_report(ctx, k, first->span,
                      "`%s` computes in fp64 if torch.compile traces the launch: `%s` is a Python float (%s), which "
                      "Inductor passes as an fp64 scalar where eager Triton passes fp32, and an fp64 scalar "
                      "promotes the %s %s it meets",
                      shorten(ar, first->text), s->name, s->float_evidence, first->with, what);
    else
        d = kc_report(ctx, k, first->span,
                      "`%s` computes in fp64 under torch.compile if `%s` is a Python float: no launch read shows "
                      "its type, and the kernel uses it only with float values; Inductor passes a Python float as "
                      "an fp64 scalar where eager Triton passes fp32, and an fp64 scalar promotes the %s %s it meets",
                      shorten(ar, first->text), s->name, first->with, what);
    /* a launch torch.compile would trace, in a repository that never
     * compiles: eager Triton passes the float as fp32 in every run it
     * makes itself */
    bool never = m->torch_compile == KC_COMPILE_NEVER;
    if (!known || !k->traced_by || never)
        d->severity = KC_SEV_NOTE;
    if (k->traced_by && never)
        kc_diag_note(d, "torch.compile would trace the launch (%s), but no Python file of this repository calls "
                     "torch.compile (%u read): eager Triton passes the float as fp32, so this matters to code that "
                     "compiles it elsewhere; reported as a note",
                     k->traced_by, m->repo_py_files);
    else if (k->traced_by)
        kc_diag_note(d, "torch.compile traces the launch: %s", k->traced_by);
    else
        kc_diag_note(d, "nothing in the file shows that torch.compile traces a launch of it (a "
                     "torch.autograd.Function, an nn.Module's forward, torch.compile or triton_op reaching the "
                     "launch): reported as a note");
    if (block != first)
        kc_diag_note(d, "the fp64 result reaches `%s` on line %u, computed over the whole block in fp64",
                     shorten(ar, block->text), block->span.line);
    if (ncallees)
        kc_diag_note(d, "`%s`%s%s%s%s%s%s%s then run%s in fp64 as well (tens of fp64 instructions each)", callees[0],
                     ncallees > 1 ? (ncallees > 2 ? ", `" : " and `") : "", ncallees > 1 ? callees[1] : "",
                     ncallees > 1 ? "`" : "", ncallees > 2 ? " and `" : "", ncallees > 2 ? callees[2] : "",
                     ncallees > 2 ? "`" : "", "", ncallees > 1 ? "" : "s");
    if (loop)
        kc_diag_note(d, "it runs in %s", kc_loop_describe(ctx, k, &k->loops.data[loop->loop]));
    if (n > 2)
        kc_diag_note(d, "%u operations of this kernel compute in fp64 because of `%s`", n, s->name);
    if (f->math_block)
        kc_diag_note(d, "measured on an H200 (torch 2.11, Triton 3.6): a SwiGLU whose sigmoid ran in fp64 this way "
                     "took 157 us compiled against 44 us eager, and 49 us with the scalar pinned (8192 x 3072 bf16)");
    else
        kc_diag_note(d, "fp64 arithmetic over a block without transcendental functions costs little where fp64 runs "
                     "at half rate (an RMSNorm was not measurably slower compiled on an H200; Liger-Kernel measured "
                     "0.848 ms -> 0.655 ms pinning its RMSNorm on an H100) and much more on GPUs with 1/32 to 1/64 "
                     "of the fp32 rate; the compiled result also differs from eager (one bf16 ulp on the H200)");
    if (kc_span_valid(k->body_start) && pins)
        kc_diag_fix(d, kc_arena_printf(ar, "pin `%s` to fp32 at the top of the kernel (a no-op in eager mode)", s->name),
                    k->body_start, pins);
    else
        kc_diag_note(d, "pin it with `%s` before its first use (a no-op in eager mode), or make it a `tl.constexpr`",
                     first->fix_text);
}

static void fp64_params(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    uint32_t n = 0, *syms = calloc(k->fp64_uses.len + 1, sizeof *syms);
    fp64_finding *fs = calloc(k->fp64_uses.len + 1, sizeof *fs);
    kc_strbuf pins = {0};
    for (uint32_t i = 0; i < k->fp64_uses.len; i++) {
        uint32_t sym = k->fp64_uses.data[i].symbol;
        bool earlier = false;
        for (uint32_t j = 0; j < n && !earlier; j++)
            earlier = syms[j] == sym;
        if (earlier || sym >= k->symbols.len || !fp64_judge(k, sym, &fs[n]))
            continue;
        kc_sb_appendf(&pins, "%s\n%s", fs[n].first->fix_text, k->body_indent ? k->body_indent : "");
        syms[n++] = sym;
    }
    const char *all = n ? kc_arena_printf(ar, "%s", kc_sb_str(&pins)) : NULL;
    for (uint32_t i = 0; i < n; i++)
        fp64_param(m, k, ctx, syms[i], &fs[i], all);
    kc_sb_free(&pins);
    free(syms);
    free(fs);
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    if (m->lang == KC_LANG_TRITON) {
        fp64_params(m, k, ctx);
        return;
    }
    literals(k, ctx);
    math_calls(k, ctx);
}

const kc_rule kc501_double_promotion = {
    .id = "KC501",
    .slug = "double-promotion",
    .summary = "Float device code that silently computes in fp64: unsuffixed literals or double math calls (CUDA), "
               "Python-float arguments that Inductor passes as fp64 (Triton).",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_PERF_RUNTIME,
};
