/* Triton front end: what it infers from real kernel shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend_harness.h"
#include "triton_internal.h"

const TSLanguage *tree_sitter_python(void);

typedef fh_lowered lowered;

static lowered *lower(const char *text)
{
    lowered *l = kc_xmalloc(sizeof *l);
    fh_lower(l, "t.py", text, NULL);
    return l;
}

static void done(lowered *l)
{
    fh_free(l);
    free(l);
}

static const char *stride_str(lowered *l, const kc_kernel *k, const kc_access *a)
{
    kc_stride st;
    int ax = kc_index_fast_axis(a->offset);
    assert_true(ax >= 0);
    kc_index_stride_along(l->m->arena, a->offset, (unsigned)ax, &st);
    return st.stride ? kc_model_index_str(l->m, k, st.stride) : "none";
}

static void test_aliases_and_stacked_decorators(void **state)
{
    lowered *l = lower("from triton import jit, autotune, Config\n"
                       "import triton.language as language\n"
                       "@autotune(configs=[Config({'BLOCK': 64}), Config({'BLOCK': 128})], key=['n'])\n"
                       "@jit\n"
                       "def k(x_ptr, n, BLOCK: language.constexpr):\n"
                       "    offs = language.program_id(0) * BLOCK + language.arange(0, BLOCK)\n"
                       "    language.store(x_ptr + offs, 0, mask=offs < n)\n"
                       "def not_a_kernel(x):\n"
                       "    return x\n");
    assert_non_null(l->m);
    assert_int_equal(l->m->kernels.len, 1);
    const kc_kernel *k = l->m->kernels.data[0];
    assert_string_equal(k->name, "k");
    assert_true(k->autotuned);
    const kc_symbol *b = fh_symbol(k, "BLOCK");
    assert_int_equal(b->kind, KC_SYM_CONSTEXPR);
    assert_int_equal(b->nvalues, 2);
    assert_int_equal(b->values[0], 64);
    assert_int_equal(b->values[1], 128);
    assert_false(b->has_value);
    assert_true(fh_symbol(k, "x_ptr")->facts & KC_SF_POINTER);
    assert_true(fh_symbol(k, "n")->facts & KC_SF_PROBLEM_SIZE);
    assert_int_equal(k->accesses.len, 1);
    assert_int_equal(k->accesses.data[0].kind, KC_ACC_STORE);
    assert_true(k->accesses.data[0].masked);
    assert_string_equal(stride_str(l, k, &k->accesses.data[0]), "1");
    done(l);
}

static void test_launch_facts(void **state)
{
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(x_ptr, y_ptr, M, N, sxm, sxn, CH: tl.constexpr):\n"
                       "    pass\n"
                       "def run(x, y):\n"
                       "    M, N = x.shape\n"
                       "    CH = 32\n"
                       "    k[(M,)](x, y, M, N, x.stride(0), x.stride(1), CH)\n");
    const kc_kernel *k = l->m->kernels.data[0];
    assert_true(fh_symbol(k, "M")->facts & KC_SF_SHAPE_ARG);
    assert_non_null(strstr(fh_symbol(k, "N")->size_evidence, "x.shape[1]"));
    assert_true(fh_symbol(k, "sxm")->facts & KC_SF_OUTER_STRIDE);
    assert_true(fh_symbol(k, "sxn")->facts & KC_SF_INNER_STRIDE);
    assert_false(fh_symbol(k, "sxn")->facts & KC_SF_OUTER_STRIDE);
    assert_true(fh_symbol(k, "CH")->has_value);
    assert_int_equal(fh_symbol(k, "CH")->value, 32);
    assert_int_equal(l->m->launches.len, 1);
    assert_int_equal(l->m->launches.data[0].args.len, 7);
    done(l);
}

/* Positional arguments after `*x.stride()` land where Python puts them:
 * just before the first keyword-bound parameter, when no parameter before
 * it has a default; otherwise (or after `**kw`, or a second splat) they
 * bind nothing. */
static void test_launch_after_splat(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def a(x_ptr, s0, s1, N, BLOCK: tl.constexpr):\n    pass\n"
                       "@triton.jit\n"
                       "def b(x_ptr, s0, s1, N, M=4, BLOCK: tl.constexpr = 16):\n    pass\n"
                       "@triton.jit\n"
                       "def c(x_ptr, s0, s1, N, BLOCK: tl.constexpr):\n    pass\n"
                       "def run(x, kw):\n"
                       "    a[(1,)](x, *x.stride(), x.shape[1], BLOCK=64)\n"
                       "    b[(1,)](x, *x.stride(), x.shape[1], BLOCK=64)\n"
                       "    c[(1,)](x, *x.stride(), x.shape[1], **kw)\n");
    assert_non_null(l->m);
    assert_int_equal(l->m->kernels.len, 3);
    const kc_kernel *a = l->m->kernels.data[0], *b = l->m->kernels.data[1], *c = l->m->kernels.data[2];
    assert_true(fh_symbol(a, "N")->facts & KC_SF_SHAPE_ARG);
    assert_false(fh_symbol(a, "s1")->facts & KC_SF_SHAPE_ARG);
    assert_int_equal(fh_symbol(a, "BLOCK")->value, 64);
    /* b: M has a default, so the splat's length decides where x.shape[1] goes */
    assert_false(fh_symbol(b, "N")->facts & KC_SF_SHAPE_ARG);
    assert_false(fh_symbol(b, "M")->facts & KC_SF_SHAPE_ARG);
    /* c: **kw may bind anything */
    assert_false(fh_symbol(c, "N")->facts & KC_SF_SHAPE_ARG);
    done(l);
}

/* The module scan does not walk into jit function bodies (nothing to find
 * there), but it does walk into host functions whatever their decorators
 * say, `@torch.jit.ignore` included, and finds launches, imports and
 * kernels there. */
static void test_launches_under_decorators(void **state)
{
    (void)state;
    lowered *l = lower("import torch\nimport triton\nimport triton.language as tl\n"
                       "@triton.jit(do_not_specialize=['n'])\n"
                       "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                       "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                       "    tl.store(x_ptr + offs, 0, mask=offs < n)\n"
                       "@torch.jit.ignore\n"
                       "def run(x):\n"
                       "    k[(1,)](x, x.numel(), BLOCK=128)\n"
                       "class Op:\n"
                       "    @staticmethod\n"
                       "    def forward(x):\n"
                       "        from triton import jit as J\n"
                       "        @J\n"
                       "        def inner(y_ptr, M: tl.constexpr):\n"
                       "            tl.store(y_ptr + tl.arange(0, M), 1)\n"
                       "        inner[(1,)](x, M=64)\n");
    assert_non_null(l->m);
    assert_int_equal(l->m->kernels.len, 2);
    const kc_kernel *k = l->m->kernels.data[0], *inner = l->m->kernels.data[1];
    assert_string_equal(k->name, "k");
    assert_int_equal(fh_symbol(k, "BLOCK")->value, 128);
    assert_int_equal(k->accesses.len, 1);
    assert_string_equal(inner->name, "inner");
    assert_int_equal(fh_symbol(inner, "M")->value, 64);
    assert_int_equal(l->m->launches.len, 2);
    done(l);
}

static void test_shapes_and_strides(void **state)
{
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(a_ptr, M, N, stride_am, BM: tl.constexpr, BN: tl.constexpr):\n"
                       "    rm = tl.program_id(0) * BM + tl.arange(0, BM)\n"
                       "    rn = tl.arange(0, BN)\n"
                       "    a = tl.load(a_ptr + rm[:, None] * stride_am + rn[None, :])\n"
                       "    b = tl.load(a_ptr + rm[None, :] * stride_am + rn[:, None])\n"
                       "    c = tl.load(a_ptr + tl.trans(rm[:, None] * stride_am + rn[None, :]))\n");
    const kc_kernel *k = l->m->kernels.data[0];
    assert_int_equal(k->accesses.len, 3);
    const kc_access *a = &k->accesses.data[0], *b = &k->accesses.data[1], *c = &k->accesses.data[2];
    assert_int_equal(a->offset->shape.rank, 2);
    assert_int_equal(a->offset->shape.dims[0].symbol, kc_kernel_find_symbol(k, "BM"));
    assert_int_equal(a->offset->shape.dims[1].symbol, kc_kernel_find_symbol(k, "BN"));
    assert_string_equal(stride_str(l, k, a), "1");
    assert_string_equal(stride_str(l, k, b), "stride_am");
    assert_string_equal(stride_str(l, k, c), "stride_am");
    done(l);
}

/* `not c` and `~c` of one comparison are the opposite comparison; of a
 * conjunction, no comparison at all. */
static void test_negated_comparisons(void **state)
{
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(x_ptr, n, NB: tl.constexpr):\n"
                       "    b = tl.program_id(1)\n"
                       "    last = b == NB - 1\n"
                       "    if not last:\n"
                       "        tl.store(x_ptr + b, 1)\n"
                       "    if ~(b >= n):\n"
                       "        tl.store(x_ptr + b, 2)\n"
                       "    if not (b < n and b > 0):\n"
                       "        tl.store(x_ptr + b, 3)\n");
    const kc_kernel *k = l->m->kernels.data[0];
    assert_int_equal(k->conds.len, 3);
    assert_int_equal(k->conds.data[0].npreds, 1);
    assert_int_equal(k->conds.data[0].preds[0].op, KC_CMP_NE);
    assert_string_equal(kc_model_index_str(l->m, k, k->conds.data[0].preds[0].rhs), "NB - 1");
    assert_int_equal(k->conds.data[1].npreds, 1);
    assert_int_equal(k->conds.data[1].preds[0].op, KC_CMP_LT);
    assert_int_equal(k->conds.data[2].npreds, 0);
    done(l);
}

static void test_loops(void **state)
{
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(x_ptr, N, B: tl.constexpr, S: tl.constexpr = 8):\n"
                       "    acc = 0\n"
                       "    for i in tl.static_range(S):\n"
                       "        acc += i\n"
                       "    for j in tl.range(0, N, B, loop_unroll_factor=2):\n"
                       "        p = x_ptr + j\n"
                       "        acc += tl.load(p)\n"
                       "    for q in tl.static_range(0, N, B):\n"
                       "        pass\n");
    const kc_kernel *k = l->m->kernels.data[0];
    assert_int_equal(k->loops.len, 3);
    const kc_loop *l0 = &k->loops.data[0], *l1 = &k->loops.data[1], *l2 = &k->loops.data[2];
    assert_int_equal(l0->kind, KC_LOOP_STATIC_RANGE);
    assert_int_equal(l0->trip_count, 8);
    assert_int_equal(l0->unroll, KC_UNROLL_FULL);
    assert_false(kc_span_valid(l0->runtime_bound_span));
    assert_int_equal(l1->kind, KC_LOOP_TL_RANGE);
    assert_int_equal(l1->unroll, KC_UNROLL_COUNT);
    assert_int_equal(l1->unroll_count, 2);
    assert_string_equal(l1->trip_text, "ceil(N / B)");
    assert_int_equal(l1->trip_count, -1);
    assert_true(kc_index_depends_on_loop(k->accesses.data[0].offset, 1));
    assert_int_equal(k->accesses.data[0].loop, 1);
    assert_true(kc_span_valid(l2->runtime_bound_span));
    assert_string_equal(k->symbols.data[l2->runtime_bound_symbol].name, "N");
    assert_int_equal(l2->runtime_bound_span.line, 11);
    assert_int_equal(l2->runtime_bound_span.col, 33);
    done(l);
}

static void test_loop_carried_pointer(void **state)
{
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(a_ptr, K, BK: tl.constexpr):\n"
                       "    p = a_ptr + tl.arange(0, BK)\n"
                       "    w = a_ptr + 7\n"
                       "    for kk in range(0, K, BK):\n"
                       "        x = tl.load(p)\n"
                       "        y = tl.load(w)\n"
                       "        p += BK\n");
    const kc_kernel *k = l->m->kernels.data[0];
    assert_int_equal(k->accesses.len, 2);
    assert_true(kc_index_depends_on_loop(k->accesses.data[0].offset, 0));
    assert_false(kc_index_depends_on_loop(k->accesses.data[1].offset, 0));
    assert_string_equal(stride_str(l, k, &k->accesses.data[0]), "1");
    done(l);
}

static void test_reorder_uses(void **state)
{
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(x_ptr, D: tl.constexpr):\n"
                       "    d = tl.arange(0, D)\n"
                       "    x = tl.load(x_ptr + d)\n"
                       "    a = tl.view(x, (1, D))\n"
                       "    b = tl.view(x, (D, 1))\n"
                       "    c = tl.reshape(x, (1, D))\n"
                       "    s = tl.sum(b)\n"
                       "    tl.store(x_ptr + d[None, :], a * 2.0)\n");
    const kc_kernel *k = l->m->kernels.data[0];
    assert_int_equal(k->reorders.len, 2); /* tl.reshape without can_reorder keeps the order */
    const kc_reorder *a = &k->reorders.data[0], *b = &k->reorders.data[1];
    assert_non_null(a->use_kind);
    assert_non_null(strstr(a->use_kind, "stored"));
    assert_int_equal(a->use_span.line, 11);
    assert_string_equal(a->fix_text, "x[None, :]");
    assert_null(b->use_kind); /* only fully reduced */
    assert_int_equal(a->from.rank, 1);
    assert_int_equal(a->to.rank, 2);
    done(l);
}

static void test_not_triton_and_syntax_error(void **state)
{
    lowered *l = lower("import numpy as np\nprint(np.zeros(3))\n");
    assert_non_null(l->m);
    assert_int_equal(l->m->kernels.len, 0);
    done(l);
    l = lower("import triton\n@triton.jit\ndef k(x_ptr:\n    pass\n");
    assert_null(l->m);
    assert_true(l->errs.items.len >= 1);
    assert_non_null(strstr(l->errs.items.data[0].message, "syntax error"));
    assert_int_equal(l->errs.items.data[0].line, 2); /* the statement that does not parse */
    done(l);
}

static void test_deep_nesting(void **state)
{
    /* 10,000 nested parentheses and a 3,000-term sum: no crash, a model or a clean error. */
    size_t n = 10000;
    char *text = kc_xmalloc(4 * n + 256);
    strcpy(text, "import triton\n@triton.jit\ndef k(x_ptr):\n    y = ");
    size_t p = strlen(text);
    for (size_t i = 0; i < n; i++)
        text[p++] = '(';
    text[p++] = '1';
    for (size_t i = 0; i < n; i++)
        text[p++] = ')';
    text[p++] = '\n';
    text[p] = '\0';
    lowered *l = lower(text);
    assert_true(l->m != NULL || l->errs.items.len > 0);
    done(l);
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "import triton\n@triton.jit\ndef k(x_ptr):\n    y = 0");
    for (int i = 0; i < 3000; i++)
        kc_sb_appendf(&sb, " + %d", i);
    kc_sb_append(&sb, "\n    tl.store(x_ptr + y, 1)\n");
    l = lower(kc_sb_str(&sb));
    assert_true(l->m != NULL || l->errs.items.len > 0);
    done(l);
    kc_sb_free(&sb);
    free(text);
    /* 100,000 unclosed brackets crash the tree-sitter runtime: refused first */
    kc_strbuf deep = {0};
    kc_sb_append(&deep, "import triton\n@triton.jit\ndef k(x):\n    s = '((((('  # ((((\n    y = ");
    for (int i = 0; i < 100000; i++)
        kc_sb_putc(&deep, '(');
    kc_sb_append(&deep, "1\n");
    l = lower(kc_sb_str(&deep));
    assert_null(l->m);
    assert_int_equal(l->errs.items.len, 1);
    assert_non_null(strstr(l->errs.items.data[0].message, "brackets nested 100000 deep"));
    assert_int_equal(l->errs.items.data[0].line, 5);
    done(l);
    kc_sb_free(&deep);
}

/* The generated field table agrees with the grammar, field by field (and is
 * sorted: a binary search finds every name). */
static void test_field_table(void **state)
{
    (void)state;
    const TSLanguage *lang = tree_sitter_python();
    uint32_t n = ts_language_field_count(lang);
    assert_true(n > 20);
    for (TSFieldId id = 1; id <= n; id++) {
        const char *name = ts_language_field_name_for_id(lang, id);
        assert_non_null(name);
        assert_int_equal(tt_field_id(name), id);
    }
    assert_int_equal(tt_field_id("no_such_field"), 0);
}

/* A file that ends inside an unterminated f-string, then a valid file on
 * the same front end: the second parses (the grammar's scanner kept its
 * f-string flag across files; found by fuzzing). */
static void test_scanner_state_per_file(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nx = f\"\"\"open {y}\n\tfor s in range(3):\n");
    assert_null(l->m);
    const char *good = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                       "def k(x_ptr, B: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, B), 0)\n";
    char *err = NULL;
    kc_source *src = kc_source_from_memory("good.py", good, strlen(good), 1u << 30, &err);
    assert_non_null(src);
    kc_file_errors errs = {0};
    kc_model *m = kc_frontend_lower(l->fe, src, KC_LANG_TRITON, NULL, &errs);
    assert_non_null(m);
    assert_int_equal(errs.items.len, 0);
    assert_int_equal(m->kernels.len, 1);
    kc_model_delete(m);
    kc_file_errors_free(&errs);
    kc_source_delete(src);
    done(l);
}

/* A hand-unrolled kernel that advances its pointers by reassignment
 * (`p = p + 1`, 40 times): finding which parameters are pointers followed
 * every assignment of p from every assignment of p, 40^8 paths (over 100 s
 * and 2.6 GB). Each name is now followed once per depth; an alarm turns a
 * regression into a failure rather than a hang. */
static void test_unrolled_pointer_updates(void **state)
{
    (void)state;
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "import triton\nimport triton.language as tl\n@triton.jit\ndef k(p, q):\n");
    for (int i = 0; i < 40; i++)
        kc_sb_append(&sb, "    v = tl.load(p)\n    tl.store(q, v)\n    p = p + 1\n    q = q + 1\n");
    alarm(20);
    lowered *l = lower(kc_sb_str(&sb));
    alarm(0);
    assert_non_null(l->m);
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_true(fh_symbol(k, "p")->facts & KC_SF_POINTER);
    assert_true(fh_symbol(k, "q")->facts & KC_SF_POINTER);
    assert_int_equal(k->accesses.len, 80);
    done(l);
    kc_sb_free(&sb);
}

/* CPU seconds to lower a kernel of n hand-unrolled copies of a load, a
 * store and two pointer updates (the best of three). */
static double unrolled_seconds(int n)
{
    kc_strbuf sb = {0};
    kc_sb_append(&sb, "import triton\nimport triton.language as tl\n@triton.jit\ndef k(p, q, B: tl.constexpr):\n"
                      "    offs = tl.arange(0, B)\n");
    for (int i = 0; i < n; i++)
        kc_sb_append(&sb, "    v = tl.load(p + offs)\n    tl.store(q + offs, v)\n    p = p + 1\n    q = q + 1\n");
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = fh_cpu_s();
        lowered *l = lower(kc_sb_str(&sb));
        double t = fh_cpu_s() - t0;
        assert_non_null(l->m);
        const kc_kernel *k = fh_kernel(l->m, "k");
        assert_true(fh_symbol(k, "p")->facts & KC_SF_POINTER);
        assert_int_equal(k->accesses.len, 2 * n);
        done(l);
        best = t < best ? t : best;
    }
    kc_sb_free(&sb);
    return best;
}

/* The doubling series (issue 20): lowering time grows linearly with the
 * number of unrolled copies. Eight times the copies took 39 times as long
 * before each name's pointer summary was kept (the 200 uses of `p` each
 * followed its 200 assignments); linear is 8, quadratic 64. */
static void test_unrolled_kernels_scale_linearly(void **state)
{
    (void)state;
    alarm(120);
    double small = unrolled_seconds(300), large = unrolled_seconds(2400);
    alarm(0);
    print_message("unrolled kernels: 300 copies %.4f s, 2400 copies %.4f s (x%.1f)\n", small, large, large / small);
    assert_true(large < 24 * small + 0.05);
}

/* A cycle of pointer updates through two names: each name's first
 * parameter summand is found, whichever name is reached first. */
static void test_pointer_cycle(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n@triton.jit\n"
                       "def k(src, dst, n, B: tl.constexpr):\n"
                       "    offs = tl.arange(0, B)\n"
                       "    p = src\n    q = dst\n"
                       "    for i in range(n):\n"
                       "        v = tl.load(p + offs)\n"
                       "        tl.store(q + offs, v)\n"
                       "        p = q + 1\n"
                       "        q = p + 1\n");
    assert_non_null(l->m);
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_true(fh_symbol(k, "src")->facts & KC_SF_POINTER);
    assert_true(fh_symbol(k, "dst")->facts & KC_SF_POINTER);
    assert_false(fh_symbol(k, "n")->facts & KC_SF_POINTER);
    done(l);
}

/* ---- which functions are kernels ---- */

static lowered *lower_with_peers(const char *path, const char *text, const char *const *peers, uint32_t npeers)
{
    lowered *l = kc_xcalloc(1, sizeof *l);
    kc_options_init(&l->opts);
    char *err = NULL;
    l->src = kc_source_from_memory(path, text, strlen(text), (size_t)1 << 30, &err);
    assert_non_null(l->src);
    l->fe = kc_frontend_new(&l->opts);
    kc_peers p = {.paths = peers, .n = npeers};
    l->m = kc_frontend_lower(l->fe, l->src, KC_LANG_TRITON, &p, &l->errs);
    return l;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char reexport_user[] = "from .tu import tjit, tl\n"
                                    "@tjit\n"
                                    "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                                    "    tl.store(x_ptr + offs, 0, mask=offs < n)\n";

/* `from .tu import tjit, tl`: tu/__init__.py binds them to triton (in a
 * try/except fallback); the kernel is seen through the peer that is the
 * module, not without it (`tjit` is no name a Triton user writes). */
static void test_triton_names_from_a_project_module(void **state)
{
    (void)state;
    char dir[] = "/tmp/kc-reexport-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *pkg = kc_xasprintf("%s/tu", dir), *init = kc_xasprintf("%s/tu/__init__.py", dir);
    assert_int_equal(mkdir(pkg, 0700), 0);
    write_file(init, "try:\n    from triton import jit as tjit\n    from triton import language as tl\n"
                     "except ImportError:\n    tjit = tl = None\n");
    char *user = kc_xasprintf("%s/user.py", dir);
    const char *peers[] = {init};
    lowered *l = lower_with_peers(user, reexport_user, peers, 1);
    assert_non_null(l->m);
    assert_int_equal(l->m->kernels.len, 1);
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_int_equal(fh_symbol(k, "BLOCK")->kind, KC_SYM_CONSTEXPR);
    assert_int_equal(k->accesses.len, 1);
    assert_true(k->accesses.data[0].masked);
    done(l);
    l = lower_with_peers(user, reexport_user, NULL, 0);
    assert_non_null(l->m);
    assert_int_equal(l->m->kernels.len, 0);
    done(l);
    /* a module that binds the name to something else */
    write_file(init, "import triton.language as tl\ndef tjit(f):\n    return f\n");
    l = lower_with_peers(user, reexport_user, peers, 1);
    assert_int_equal(l->m->kernels.len, 0);
    done(l);
    unlink(init);
    rmdir(pkg);
    rmdir(dir);
    free(pkg);
    free(init);
    free(user);
}

/* A launcher under a decorator imported from a module of the project
 * whose definition registers it with torch.library.custom_op (axolotl's
 * `@register_kernel_op`): torch.compile runs it eagerly though an
 * autograd.Function calls it; without the module at hand, or when the
 * decorator only wraps, the caller decides (traced). */
static void test_project_decorator_registers_custom_op(void **state)
{
    (void)state;
    char dir[] = "/tmp/kc-customop-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *pkg = kc_xasprintf("%s/pkg", dir), *reg = kc_xasprintf("%s/pkg/op_registry.py", dir);
    char *user = kc_xasprintf("%s/pkg/ops.py", dir);
    assert_int_equal(mkdir(pkg, 0700), 0);
    const char *text = "import torch\nimport triton\nimport triton.language as tl\n"
                       "from pkg.op_registry import register_kernel_op\n"
                       "@triton.jit\n"
                       "def k(x_ptr, n, s, BLOCK: tl.constexpr):\n"
                       "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                       "    x = tl.load(x_ptr + offs, mask=offs < n, other=0).to(tl.float32)\n"
                       "    tl.store(x_ptr + offs, x * s, mask=offs < n)\n"
                       "@register_kernel_op('scale')\n"
                       "def scale(x: torch.Tensor, s: float) -> None:\n"
                       "    k[(triton.cdiv(x.numel(), 256),)](x, x.numel(), s, BLOCK=256)\n"
                       "class F(torch.autograd.Function):\n"
                       "    @staticmethod\n"
                       "    def forward(ctx, x, s):\n"
                       "        scale(x, s)\n"
                       "        return x\n";
    const char *peers[] = {reg};
    for (int pass = 0; pass < 3; pass++) {
        write_file(reg, pass == 2 ? "def register_kernel_op(name):\n    def d(fn):\n        return fn\n    return d\n"
                                  : "import torch\ndef register_kernel_op(name):\n    def d(fn):\n"
                                    "        return torch.library.custom_op(f'p::{name}', mutates_args=())(fn)\n"
                                    "    return d\n");
        lowered *l = lower_with_peers(user, text, pass == 1 ? NULL : peers, pass == 1 ? 0 : 1);
        const kc_kernel *k = fh_kernel(l->m, "k");
        if (pass == 0) {
            assert_non_null(k->eager_by);
            assert_null(k->traced_by);
            assert_non_null(strstr(k->eager_by, "torch.library.custom_op (in op_registry.py)"));
        } else {
            assert_null(k->eager_by);
            assert_non_null(k->traced_by);
        }
        done(l);
    }
    unlink(reg);
    rmdir(pkg);
    rmdir(dir);
    free(pkg);
    free(reg);
    free(user);
}

/* `from pkg.utils import ext` with `ext.program_id(0)`: a project module
 * taken for triton.language by use, whose own `program_id` returns
 * `tl.program_id(axis).to(tl.int64)` (FlagGems' triton_lang_extension):
 * the program id is 64-bit when the module is at hand, 32-bit (as
 * tl.program_id) when it is not or when its wrapper does not widen. */
static void test_widening_program_id_wrapper(void **state)
{
    (void)state;
    char dir[] = "/tmp/kc-wrapper-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *pkg = kc_xasprintf("%s/pkg", dir), *utils = kc_xasprintf("%s/pkg/utils", dir);
    assert_int_equal(mkdir(pkg, 0700), 0);
    assert_int_equal(mkdir(utils, 0700), 0);
    char *ext = kc_xasprintf("%s/pkg/utils/ext.py", dir), *user = kc_xasprintf("%s/user.py", dir);
    write_file(ext, "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def program_id(axis: int) -> tl.tensor:\n    return tl.program_id(axis).to(tl.int64)\n");
    const char *text = "import triton\nimport triton.language as tl\nfrom pkg.utils import ext\n"
                       "@triton.jit\n"
                       "def k(x_ptr, stride, BLOCK: tl.constexpr):\n"
                       "    row = ext.program_id(0)\n"
                       "    tl.store(x_ptr + row * stride + tl.arange(0, BLOCK), 0)\n";
    const char *peers[] = {ext};
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 2)
            write_file(ext, "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                            "def program_id(axis: int) -> tl.tensor:\n    return tl.program_id(axis)\n");
        lowered *l = lower_with_peers(user, text, pass == 1 ? NULL : peers, pass == 1 ? 0 : 1);
        const kc_kernel *k = fh_kernel(l->m, "k");
        const kc_index *off = k->accesses.data[0].offset;
        unsigned bits = 0;
        for (unsigned i = 0; i < off->nmono; i++)
            for (unsigned f = 0; f < off->mono[i].nfac; f++)
                if (off->mono[i].fac[f].kind == KC_ATOM_PROGRAM)
                    bits = off->mono[i].bits;
        assert_int_equal(bits, pass == 0 ? 64 : 32);
        done(l);
    }
    unlink(ext);
    rmdir(utils);
    rmdir(pkg);
    rmdir(dir);
    free(ext);
    free(user);
    free(utils);
    free(pkg);
}

/* The module is not at hand: the names count as Triton's when the file
 * uses them the Triton way, `@<a>.jit` together with `<b>.program_id` /
 * `.arange` / `.load` / `.store` / `.constexpr`; one without the other
 * does not. Also `from triton import jit` and `import triton as tr`. */
static void test_triton_names_by_use(void **state)
{
    (void)state;
    lowered *l = lower("from vllm.triton_utils import tl, triton\n"
                       "@triton.jit\n"
                       "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                       "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                       "    tl.store(x_ptr + offs, 0)\n"
                       "def run(x):\n"
                       "    k[(1,)](x, x.numel(), BLOCK=128)\n");
    assert_int_equal(l->m->kernels.len, 1);
    const kc_kernel *k = l->m->kernels.data[0];
    assert_int_equal(k->launches_seen, 1);
    assert_int_equal(fh_symbol(k, "BLOCK")->value, 128);
    assert_true(fh_symbol(k, "x_ptr")->facts & KC_SF_POINTER);
    done(l);
    l = lower("from mylib import triton\nimport numpy as tl\n"
              "@triton.jit\ndef k(x):\n    return tl.sum(x)\n");
    assert_int_equal(l->m->kernels.len, 0); /* no Triton language in sight */
    done(l);
    l = lower("from numba import jit\nimport triton\n@jit\ndef f(x):\n    return x + 1\n");
    assert_int_equal(l->m->kernels.len, 0);
    done(l);
    l = lower("from triton import jit\nimport triton as tr\n"
              "@jit\ndef a(p):\n    tr.language.store(p + tr.language.arange(0, 16), 1)\n"
              "@tr.jit\ndef b(p):\n    tr.language.store(p + tr.language.arange(0, 16), 1)\n");
    assert_int_equal(l->m->kernels.len, 2);
    assert_int_equal(fh_kernel(l->m, "a")->accesses.len, 1);
    assert_int_equal(fh_kernel(l->m, "b")->accesses.len, 1);
    done(l);
}

/* Kernels made at module level by calling the decorators: the function
 * is the kernel, launched by the name it is bound to; autotune configs
 * and heuristics wrapped around it count. */
static void test_module_level_jit_wrappers(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "def f(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 1)\n"
                       "def fn(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 2)\n"
                       "def h(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 3)\n"
                       "def e(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 4)\n"
                       "def python_only(x):\n    return x\n"
                       "f = triton.jit(f)\n"
                       "g = triton.jit(fn)\n"
                       "k = triton.autotune(configs=[triton.Config({'BLOCK': 32}), triton.Config({'BLOCK': 64})],"
                       " key=['n'])(triton.jit(h))\n"
                       "w = triton.heuristics({'BLOCK': lambda a: 16})(triton.jit(do_not_specialize=['p'])(e))\n"
                       "def run(x):\n"
                       "    g[(1,)](x, BLOCK=128)\n"
                       "    f[(1,)](x, BLOCK=256)\n");
    assert_int_equal(l->m->kernels.len, 4);
    for (uint32_t i = 0; i < l->m->kernels.len; i++)
        assert_string_not_equal(l->m->kernels.data[i]->name, "python_only");
    assert_int_equal(fh_symbol(fh_kernel(l->m, "fn"), "BLOCK")->value, 128);
    assert_int_equal(fh_symbol(fh_kernel(l->m, "f"), "BLOCK")->value, 256);
    const kc_kernel *h = fh_kernel(l->m, "h");
    assert_true(h->autotuned);
    assert_int_equal(fh_symbol(h, "BLOCK")->nvalues, 2);
    assert_non_null(fh_kernel(l->m, "e"));
    assert_int_equal(l->m->launches.len, 2);
    assert_string_equal(l->m->launches.data[0].kernel, "fn");
    done(l);
}

/* A launch through a local name binds every kernel the name may be: both
 * operands of a conditional expression, and a plain alias. */
static void test_launch_through_aliases(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\ndef ka(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 1)\n"
                       "@triton.jit\ndef kb(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 2)\n"
                       "@triton.jit\ndef kc(p, BLOCK: tl.constexpr):\n    tl.store(p + tl.arange(0, BLOCK), 3)\n"
                       "def run(x, fast):\n"
                       "    fx = ka if fast else kb\n"
                       "    fx[(1,)](x, BLOCK=64)\n"
                       "    fn = kc\n"
                       "    fn[(1,)](x, BLOCK=32)\n");
    assert_int_equal(fh_symbol(fh_kernel(l->m, "ka"), "BLOCK")->value, 64);
    assert_int_equal(fh_symbol(fh_kernel(l->m, "kb"), "BLOCK")->value, 64);
    assert_int_equal(fh_symbol(fh_kernel(l->m, "kc"), "BLOCK")->value, 32);
    assert_int_equal(fh_kernel(l->m, "kc")->launches_seen, 1);
    assert_int_equal(l->m->launches.len, 3);
    done(l);
}

/* Which stride arguments are the innermost of their tensor: only the last
 * dimension (stride(-1), or stride(rank - 1) with the rank known); a lone
 * stride(1) of a tensor of unknown rank is unknown. */
static void test_stride_facts(void **state)
{
    (void)state;
    lowered *l = lower("import torch\nimport triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, a2, a1, b1, c0, c1, d1, d2, e1, f0):\n"
                       "    tl.store(p + tl.arange(0, 16), 0)\n"
                       "def run(x, y, z, w, n):\n"
                       "    B, M, N = w.shape\n"
                       "    v = torch.empty((n, n), device=x.device)\n"
                       "    u = torch.empty(n)\n"
                       "    k[(1,)](x, x.stride(-2), x.stride(-1), y.stride(1), z.stride(0), z.stride(1),\n"
                       "            w.stride(1), w.stride(2), v.stride(1), u.stride(0))\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    const uint32_t both = KC_SF_INNER_STRIDE | KC_SF_OUTER_STRIDE;
    assert_int_equal(fh_symbol(k, "a2")->facts & both, KC_SF_OUTER_STRIDE);
    assert_int_equal(fh_symbol(k, "a1")->facts & both, KC_SF_INNER_STRIDE);
    assert_int_equal(fh_symbol(k, "b1")->facts & both, 0); /* lone, rank unknown */
    assert_int_equal(fh_symbol(k, "c0")->facts & both, KC_SF_OUTER_STRIDE);
    assert_int_equal(fh_symbol(k, "c1")->facts & both, KC_SF_INNER_STRIDE);
    assert_int_equal(fh_symbol(k, "d1")->facts & both, KC_SF_OUTER_STRIDE); /* w is 3-D */
    assert_int_equal(fh_symbol(k, "d2")->facts & both, KC_SF_INNER_STRIDE);
    assert_int_equal(fh_symbol(k, "e1")->facts & both, KC_SF_INNER_STRIDE); /* v is 2-D */
    assert_int_equal(fh_symbol(k, "f0")->facts & both, KC_SF_INNER_STRIDE); /* u is 1-D */
    done(l);
}

/* Grid axes that count the rows of a flattened tensor, and the arguments
 * that are that tensor's row stride or row length. */
static void test_flattened_rows(void **state)
{
    (void)state;
    lowered *l = lower("import torch\nimport triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, s_row, s_col, n, other, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "@triton.jit\n"
                       "def plain(p, s_row, s_other, w):\n"
                       "    tl.store(p + tl.arange(0, 16), 0)\n"
                       "def run(x, y, m, z):\n"
                       "    n_cols = x.shape[-1]\n"
                       "    x = x.view(-1, n_cols)\n"
                       "    x = x.contiguous()\n"
                       "    n_rows = x.shape[0]\n"
                       "    grid = lambda META: (triton.cdiv(n_rows, META['BLOCK']), 1)\n"
                       "    k[grid](x, x.stride(0), x.stride(1), n_cols, m, BLOCK=16)\n"
                       "    M, N = y.shape\n"
                       "    out = torch.empty_like(y)\n"
                       "    plain[(M,)](y, out.stride(0), z.stride(0), N)\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_non_null(k->grid_rows[0]);
    assert_non_null(strstr(k->grid_rows[0], "`n_rows` is the row count of `x`, made by `x.view(-1, n_cols)`"));
    assert_null(k->grid_rows[1]);
    assert_int_equal(fh_symbol(k, "s_row")->row_axes, 1);
    assert_int_equal(fh_symbol(k, "n")->row_axes, 1);
    assert_int_equal(fh_symbol(k, "s_col")->row_axes, 0); /* the innermost stride */
    assert_int_equal(fh_symbol(k, "other")->row_axes, 0);
    assert_int_equal(k->grid_rows_dim0, 0);
    /* y is not flattened: the grid counts every row of its first dimension */
    const kc_kernel *p = fh_kernel(l->m, "plain");
    assert_non_null(p->grid_rows[0]);
    assert_non_null(strstr(p->grid_rows[0], "every row of a tensor: `M` is the first dimension of `y`"));
    assert_int_equal(p->grid_rows_dim0, 1);
    assert_int_equal(fh_symbol(p, "s_row")->row_axes, 1);   /* empty_like(y): y's rows */
    assert_int_equal(fh_symbol(p, "s_other")->row_axes, 0); /* another tensor's stride */
    assert_int_equal(fh_symbol(p, "w")->row_axes, 1);       /* N of the 2-D `M, N = y.shape` */
    done(l);
}

/* A grid axis that is a product of factors each of one program: a cdiv by
 * a block equal to the size (through a tuple unpacked), and names asserted
 * to be 1 in a chain (`assert NK == NV == 1`); one factor not shown to be
 * 1 leaves the axis unknown. */
static void test_grid_product_of_ones(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "def run(x, bk):\n"
                       "    K, V = x.shape\n"
                       "    BK, BV = K, V\n"
                       "    NK, NV = triton.cdiv(K, BK), triton.cdiv(V, BV)\n"
                       "    k[(NK * NV, 4)](x, BLOCK=16)\n"
                       "    NA, NB = triton.cdiv(K, bk), triton.cdiv(V, bk)\n"
                       "    assert NA == NB == 1\n"
                       "    k[(NA * NB, 4)](x, BLOCK=16)\n"
                       "    NC = triton.cdiv(K, 64)\n"
                       "    k[(NC * NV, 4)](x, BLOCK=16)\n");
    assert_int_equal(l->m->launches.len, 3);
    const kc_launch *L = l->m->launches.data;
    assert_int_equal(L[0].grid[0].hazard, KC_GRID_CONST);
    assert_int_equal(L[0].grid[0].value, 1);
    assert_int_equal(L[1].grid[0].hazard, KC_GRID_CONST);
    assert_int_equal(L[1].grid[0].value, 1);
    assert_int_not_equal(L[2].grid[0].hazard, KC_GRID_CONST);
    done(l);
}

/* Over a grid of the two leading dimensions of a 4-D q, `q.stride(1)` is
 * the row stride of those rows; `km.stride(1)` of a 3-D (B, H, K) tensor is
 * not, whether km was made in the function, made in the forward and saved
 * for the backward (through `.to(...)`), or is the `.sum(0)` of a 4-D one. */
static void test_rank_of_saved_and_reduced_tensors(void **state)
{
    (void)state;
    lowered *l = lower("import torch\nimport triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(q, km, dkz, s_q, s_km, s_dkz, BLOCK: tl.constexpr):\n"
                       "    tl.store(q + tl.program_id(0) * s_q + tl.arange(0, BLOCK), 0)\n"
                       "class F(torch.autograd.Function):\n"
                       "    @staticmethod\n"
                       "    def forward(ctx, q):\n"
                       "        B, H, L, K = q.shape\n"
                       "        km = torch.empty(B, H, K)\n"
                       "        km = km.to(q.dtype)\n"
                       "        ctx.save_for_backward(q, km)\n"
                       "        return q\n"
                       "    @staticmethod\n"
                       "    def backward(ctx, do):\n"
                       "        q, km = ctx.saved_tensors\n"
                       "        B, H, L, K = q.shape\n"
                       "        dkz = torch.empty(4, B, H, K)\n"
                       "        dkz = dkz.sum(0)\n"
                       "        k[(B * H,)](q, km, dkz, q.stride(1), km.stride(1), dkz.stride(1), BLOCK=16)\n"
                       "        return do\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_int_equal(fh_symbol(k, "s_q")->row_axes, 1);
    assert_int_equal(fh_symbol(k, "s_km")->row_axes, 0);
    assert_int_equal(fh_symbol(k, "s_dkz")->row_axes, 0);
    done(l);
}

/* Grid axes 1 and 2 that run one program per index of a tensor's first
 * dimension: a matrix's rows (by unpacking, or by an assert on its rank
 * before the launch), the first dimension of a tensor of unknown rank, and
 * of a 4-D one (a batch: no hazard). */
static void test_grid_first_dim(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "def run(x, y, z, q):\n"
                       "    M, K = x.shape\n"
                       "    k[(4, M)](x, BLOCK=16)\n"
                       "    assert y.dim() == 2\n"
                       "    k[(4, y.size(0))](y, BLOCK=16)\n"
                       "    k[(4, z.shape[0])](z, BLOCK=16)\n"
                       "    B, H, T, D = q.shape\n"
                       "    k[(4, B)](q, BLOCK=16)\n"
                       "    R, C = z.shape\n"
                       "    k[(4, 1, triton.cdiv(R, 64))](z, BLOCK=16)\n");
    assert_int_equal(l->m->launches.len, 5);
    const kc_launch *L = l->m->launches.data;
    assert_int_equal(L[0].grid[1].hazard, KC_GRID_FIRST_DIM);
    assert_true(L[0].grid[1].matrix);
    assert_non_null(strstr(L[0].grid[1].why, "`M` is the first dimension of `x`"));
    assert_int_equal(L[1].grid[1].hazard, KC_GRID_FIRST_DIM);
    assert_true(L[1].grid[1].matrix); /* assert y.dim() == 2 */
    assert_int_equal(L[2].grid[1].hazard, KC_GRID_FIRST_DIM);
    assert_false(L[2].grid[1].matrix); /* rank unknown */
    assert_int_equal(L[3].grid[1].hazard, KC_GRID_UNKNOWN); /* the batch of a 4-D tensor */
    assert_int_equal(L[4].grid[2].hazard, KC_GRID_UNKNOWN); /* tiles of rows */
    done(l);
}

/* An assert in the grid callable of a launch (`def grid(META): assert M %
 * META["BLOCK_M"] == 0`) holds before every launch: M is a multiple of the
 * meta-parameter BLOCK_M; an assert in another nested function says
 * nothing. */
static void test_grid_callable_asserts(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK_M), 0)\n"
                       "def run(x):\n"
                       "    M, N = x.shape\n"
                       "    def other(META):\n"
                       "        assert N % META['BLOCK_N'] == 0\n"
                       "    def grid(META):\n"
                       "        assert M % META['BLOCK_M'] == 0\n"
                       "        return (triton.cdiv(M, META['BLOCK_M']),)\n"
                       "    k[grid](x, M, N, BLOCK_M=64, BLOCK_N=64)\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_int_equal(fh_symbol(k, "M")->multiple_of_symbol, kc_kernel_find_symbol(k, "BLOCK_M"));
    assert_non_null(strstr(fh_symbol(k, "M")->multiple_evidence, "assert M % META['BLOCK_M'] == 0"));
    assert_int_equal(fh_symbol(k, "N")->multiple_of_symbol, KC_NONE);
    assert_int_equal(fh_symbol(k, "N")->multiple_of, 0);
    done(l);
}

/* A grid axis that rounds up an extent the launching function asserts to
 * be a multiple of the divisor counts whole tiles: through a literal, a
 * name bound to one, `META["BLOCK"]` and what the launch passes for it,
 * and `x.numel()` from an assert on one of x's extents; an assert of
 * another multiple leaves it rounded up. */
static void test_grid_cover_asserted_exact(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def a(p, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "@triton.jit\n"
                       "def b(p, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "@triton.jit\n"
                       "def c(p, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "def run_a(x):\n"
                       "    n = x.shape[1]\n"
                       "    BLOCK_D = 1024\n"
                       "    assert n % BLOCK_D == 0\n"
                       "    a[(triton.cdiv(n, BLOCK_D),)](x, BLOCK=BLOCK_D)\n"
                       "def run_b(x, bs=128):\n"
                       "    assert x.size(-1) % bs == 0\n"
                       "    grid = lambda meta: (triton.cdiv(x.numel(), meta['BLOCK']),)\n"
                       "    b[grid](x, BLOCK=bs)\n"
                       "def run_c(x):\n"
                       "    assert x.numel() % 16 == 0\n"
                       "    c[((x.numel() + 1023) // 1024,)](x, BLOCK=1024)\n");
    assert_int_equal(fh_kernel(l->m, "a")->grid_cover[0].cover, KC_COVER_FLOOR);
    assert_int_equal(fh_kernel(l->m, "b")->grid_cover[0].cover, KC_COVER_FLOOR);
    assert_int_equal(fh_kernel(l->m, "c")->grid_cover[0].cover, KC_COVER_ROUNDS_UP);
    assert_true(fh_kernel(l->m, "c")->grid_cover[0].numel); /* (x.numel() + 1023) // 1024 */
    done(l);
}

/* How the launches count each grid axis (floor or rounded-up division,
 * through names and lambdas) and the divisibility the launching function
 * asserts or raises on before the launch. */
static void test_grid_cover_and_launcher_asserts(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, B, L, T, n, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "@triton.jit\n"
                       "def two(p, T, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "def run(x, blk):\n"
                       "    B, L, T = x.shape\n"
                       "    groups = L // blk\n"
                       "    assert T % 64 == 0 and B > 0\n"
                       "    if x.numel() % blk:\n"
                       "        raise ValueError('not a multiple')\n"
                       "    grid = lambda META: (groups, triton.cdiv(T, META['BLOCK']), (B + 3) // 4)\n"
                       "    k[grid](x, B, L, T, x.numel(), BLOCK=blk)\n"
                       "def first(x):\n"
                       "    assert x.shape[0] % 32 == 0\n"
                       "    two[(x.shape[0] // 32,)](x, x.shape[0], BLOCK=32)\n"
                       "def second(x):\n"
                       "    two[(triton.cdiv(x.shape[0], 32),)](x, x.shape[0], BLOCK=32)\n"
                       "@triton.jit\n"
                       "def three(p, M, N, W, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "def run3(x, M, N, W):\n"
                       "    three[(triton.cdiv(M, 16), (W - 3) // 2)](x, M, N, W, BLOCK=16)\n"
                       "    three[(triton.cdiv(N, 16), (W - 3) // 2)](x, M, N, W, BLOCK=16)\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_int_equal(k->grid_cover[0].cover, KC_COVER_FLOOR);
    assert_non_null(strstr(k->grid_cover[0].why, "sizes grid axis 0 by `L // blk`"));
    assert_int_equal(k->grid_cover[1].cover, KC_COVER_ROUNDS_UP);
    assert_int_equal(k->grid_cover[1].size, kc_kernel_find_symbol(k, "T")); /* cdiv(T, ...) divides what T binds */
    assert_int_equal(k->grid_cover[2].cover, KC_COVER_ROUNDS_UP);   /* (B + 3) // 4 */
    assert_int_equal(k->grid_cover[2].size, kc_kernel_find_symbol(k, "B"));
    assert_int_equal(fh_symbol(k, "T")->multiple_of, 64);
    assert_non_null(strstr(fh_symbol(k, "T")->multiple_evidence, "`assert T % 64 == 0 and B > 0` on line 12"));
    assert_int_equal(fh_symbol(k, "B")->multiple_of, 0); /* `B > 0` is no divisibility */
    assert_int_equal(fh_symbol(k, "n")->multiple_of_symbol, kc_kernel_find_symbol(k, "BLOCK")); /* raise on x.numel() % blk */
    assert_int_equal(fh_symbol(k, "L")->multiple_of, 0);
    /* launches disagree: one floors, one rounds up; one asserts, one not */
    const kc_kernel *t = fh_kernel(l->m, "two");
    assert_int_equal(t->grid_cover[0].cover, KC_COVER_UNKNOWN);
    assert_int_equal(fh_symbol(t, "T")->multiple_of, 0);
    /* both launches round axis 0 up, but divide different parameters: no
     * size is named; `(W - 3) // 2` is a floor, not a ceiling */
    const kc_kernel *k3 = fh_kernel(l->m, "three");
    assert_int_equal(k3->grid_cover[0].cover, KC_COVER_ROUNDS_UP);
    assert_int_equal(k3->grid_cover[0].size, KC_NONE);
    assert_int_equal(k3->grid_cover[1].cover, KC_COVER_FLOOR);
    done(l);
}

/* An argument rounded up to a multiple before the launch is a multiple;
 * parameters a `@triton.heuristics` dict supplies are passed by no launch,
 * so positional arguments after a `*splat` end before them. */
static void test_rounded_args_and_decorator_params(void **state)
{
    (void)state;
    lowered *l = lower("import math\nimport triton\nimport triton.language as tl\n"
                       "@triton.heuristics({'EVEN_M': lambda a: a['n'] % a['BLOCK'] == 0})\n"
                       "@triton.jit\n"
                       "def k(p, s0, s1, n, n_pad, m_pad, w, EVEN_M: tl.constexpr, BLOCK: tl.constexpr):\n"
                       "    tl.store(p + tl.arange(0, BLOCK), 0)\n"
                       "def run(x, n, blk):\n"
                       "    n_pad = math.ceil(n / 128) * 128\n"
                       "    m_pad = triton.cdiv(n, blk) * blk\n"
                       "    k[(1,)](x, *x.stride(), n, n_pad, m_pad, (n - 1) // 8 * 8, BLOCK=64)\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_true(k->params.data[fh_symbol(k, "EVEN_M")->param].supplied_by_decorator);
    assert_false(k->params.data[fh_symbol(k, "BLOCK")->param].supplied_by_decorator);
    assert_int_equal(fh_symbol(k, "n_pad")->multiple_of, 128); /* bound past the splat */
    assert_non_null(strstr(fh_symbol(k, "n_pad")->multiple_evidence, "rounded up to a multiple of `128`"));
    assert_int_equal(fh_symbol(k, "m_pad")->multiple_of, 0); /* `blk` is passed for no parameter */
    assert_int_equal(fh_symbol(k, "w")->multiple_of, 0);     /* (n - 1) // 8 * 8 rounds down */
    assert_int_equal(fh_symbol(k, "n")->multiple_of, 0);
    done(l);
}

/* Per-sequence states: a tensor the launching code makes from the extents
 * of the tensor whose rows the grid counts, a middle one left out. */
static void test_sequence_state(void **state)
{
    (void)state;
    lowered *l = lower("import torch\nimport triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(x, h0, ht, hs, hv, full, hw, T, D):\n"
                       "    tl.store(x + tl.arange(0, 16), 0)\n"
                       "@triton.jit\n"
                       "def twice(x, ht):\n"
                       "    tl.store(x + tl.arange(0, 16), 0)\n"
                       "def run(x, v, h0, w, keep):\n"
                       "    B, H, T, D = x.shape\n"
                       "    ht = x.new_empty(B, H, D) if keep else None\n"
                       "    hs = torch.zeros((B, H, D), device=x.device).float()\n"
                       "    hv = torch.zeros(B, H, D, v.shape[-1])\n"
                       "    full = torch.empty(B, H, T, D)\n"
                       "    hw = torch.zeros(B, H, w)\n"
                       "    grid = lambda META: (triton.cdiv(D, 64), B * H)\n"
                       "    k[grid](x, h0, ht, hs, hv, full, hw, T, D)\n"
                       "    twice[(1, B * H)](x, ht)\n"
                       "    twice[(1, B * H)](x, h0)\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_non_null(k->grid_rows[1]);
    assert_int_equal(fh_symbol(k, "ht")->state_axes, 2);
    assert_non_null(strstr(fh_symbol(k, "ht")->state_evidence,
                           "the launch on line 18 passes `ht` = `x.new_empty(B, H, D)` (line 12), which has B*H*D "
                           "elements, the extents of `x` without `T`"));
    assert_int_equal(fh_symbol(k, "hs")->state_axes, 2);
    assert_int_equal(fh_symbol(k, "hv")->state_axes, 2);   /* another tensor's last extent: a feature size */
    assert_int_equal(fh_symbol(k, "h0")->state_axes, 0);   /* the caller's tensor: not known */
    assert_int_equal(fh_symbol(k, "full")->state_axes, 0); /* with the sequence length */
    assert_int_equal(fh_symbol(k, "hw")->state_axes, 0);   /* a size not related to `x` */
    assert_int_equal(fh_symbol(k, "x")->state_axes, 0);
    assert_null(fh_symbol(k, "h0")->state_evidence);
    /* one launch of two passes something else */
    assert_int_equal(fh_symbol(fh_kernel(l->m, "twice"), "ht")->state_axes, 0);
    done(l);
}

/* `N = 1` then `N *= shape[i]`: the launch does not pass 1. */
static void test_augmented_assignment(void **state)
{
    (void)state;
    lowered *l = lower("import triton\nimport triton.language as tl\n"
                       "@triton.jit\n"
                       "def k(p, N, B):\n"
                       "    tl.store(p + tl.arange(0, 16) * N, 0)\n"
                       "def run(x, dims):\n"
                       "    shape = list(x.shape)\n"
                       "    N = 1\n"
                       "    for i in dims:\n"
                       "        N *= shape[i]\n"
                       "    B = 4\n"
                       "    k[(1,)](x, N, B)\n");
    const kc_kernel *k = fh_kernel(l->m, "k");
    assert_int_equal(fh_symbol(k, "N")->nvalues, 0);
    assert_int_equal(fh_symbol(k, "B")->nvalues, 1);
    done(l);
}

/* A jit function that only a kernel of another file calls (`from .helpers
 * import splat`, `splat(grad, w, idx, C, BLOCK)` in a jit body) is a
 * helper: its parameters are what that kernel passes, blocks included, so
 * their shapes are not known; and so are those of a helper of this file
 * that it passes its own parameters on to. Without the peer it is lowered
 * as a kernel, its parameters scalars. */
static void test_helper_called_from_another_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/kc-peerhelper-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *helpers = kc_xasprintf("%s/helpers.py", dir), *user = kc_xasprintf("%s/user.py", dir);
    write_file(user, "import triton\nimport triton.language as tl\nfrom .helpers import splat\n"
                     "@triton.jit\n"
                     "def k(g, w_ptr, i_ptr, C: tl.constexpr, BLOCK: tl.constexpr):\n"
                     "    offs = tl.arange(0, BLOCK)\n"
                     "    splat(g, tl.load(w_ptr + offs), tl.load(i_ptr + offs), C, BLOCK)\n");
    static const char text[] = "import triton\nimport triton.language as tl\n"
                               "@triton.jit\n"
                               "def inner(g, w, idx, C: tl.constexpr):\n"
                               "    tl.atomic_add(g + idx, w)\n"
                               "@triton.jit\n"
                               "def splat(g, w, idx, C: tl.constexpr, BLOCK: tl.constexpr):\n"
                               "    inner(g, w, idx, C)\n";
    const char *peers[] = {user};
    for (int pass = 0; pass < 2; pass++) {
        lowered *l = lower_with_peers(helpers, text, pass ? NULL : peers, pass ? 0 : 1);
        assert_non_null(l->m);
        const kc_kernel *k = fh_kernel(l->m, "splat");
        assert_int_equal(k->params.data[fh_symbol(k, "w")->param].shape_unknown, pass == 0);
        assert_int_equal(k->params.data[fh_symbol(k, "idx")->param].shape_unknown, pass == 0);
        assert_false(k->params.data[fh_symbol(k, "C")->param].shape_unknown); /* a constexpr */
        const kc_kernel *in = fh_kernel(l->m, "inner");
        assert_int_equal(in->params.data[fh_symbol(in, "w")->param].shape_unknown, pass == 0);
        done(l);
    }
    unlink(user);
    unlink(helpers);
    rmdir(dir);
    free(helpers);
    free(user);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_table),
        cmocka_unit_test(test_sequence_state),
        cmocka_unit_test(test_aliases_and_stacked_decorators),
        cmocka_unit_test(test_launch_facts),
        cmocka_unit_test(test_shapes_and_strides),
        cmocka_unit_test(test_loops),
        cmocka_unit_test(test_loop_carried_pointer),
        cmocka_unit_test(test_reorder_uses),
        cmocka_unit_test(test_not_triton_and_syntax_error),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_scanner_state_per_file),
        cmocka_unit_test(test_launch_after_splat),
        cmocka_unit_test(test_launches_under_decorators),
        cmocka_unit_test(test_unrolled_pointer_updates),
        cmocka_unit_test(test_unrolled_kernels_scale_linearly),
        cmocka_unit_test(test_pointer_cycle),
        cmocka_unit_test(test_triton_names_from_a_project_module),
        cmocka_unit_test(test_triton_names_by_use),
        cmocka_unit_test(test_module_level_jit_wrappers),
        cmocka_unit_test(test_launch_through_aliases),
        cmocka_unit_test(test_stride_facts),
        cmocka_unit_test(test_flattened_rows),
        cmocka_unit_test(test_grid_cover_and_launcher_asserts),
        cmocka_unit_test(test_grid_first_dim),
        cmocka_unit_test(test_grid_callable_asserts),
        cmocka_unit_test(test_grid_product_of_ones),
        cmocka_unit_test(test_rank_of_saved_and_reduced_tensors),
        cmocka_unit_test(test_grid_cover_asserted_exact),
        cmocka_unit_test(test_rounded_args_and_decorator_params),
        cmocka_unit_test(test_widening_program_id_wrapper),
        cmocka_unit_test(test_project_decorator_registers_custom_op),
        cmocka_unit_test(test_augmented_assignment),
        cmocka_unit_test(test_negated_comparisons),
        cmocka_unit_test(test_helper_called_from_another_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
