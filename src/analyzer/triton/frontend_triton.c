/* Triton front end, part 2: lowering @triton.jit kernels into the kernel
 * model by abstract interpretation of the function body.
 *
 * Every Python value is a `tv`: a number block (a symbolic index
 * expression over lanes, programs, loops, symbols, loaded data and opaque
 * terms), a boolean block (comparisons, for masks), a pointer block (a base
 * parameter plus an offset expression), a tuple, a dtype or unknown. Each
 * value carries its block shape, whether it is a compile-time constant
 * (constexpr), and the set of element reorders (tl.view) its element order
 * depends on, so that the first use that observes that order is found.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "triton_internal.h"

#include "kc_pyscan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* The text in parentheses when it has an operator outside brackets
 * (`N + 1`, `tl.num_programs(0) * BLOCK`), for a quotient or a difference. */
static const char *paren_ops(kc_arena *a, const char *s)
{
    int depth = 0;
    for (const char *p = s; p && *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth)
            depth--;
        else if (!depth && p > s && strchr("+-*/%<>&|^ ", *p))
            return kc_arena_printf(a, "(%s)", s);
    }
    return s;
}

/* ---- values ---- */

typedef enum tv_kind { TV_UNKNOWN = 0, TV_NUM, TV_BOOL, TV_PTR, TV_TUPLE, TV_DTYPE, TV_NONE, TV_STR } tv_kind;

typedef struct tv tv;
struct tv {
    tv_kind kind;
    bool ce;            /* compile-time constant (constexpr) */
    bool is_float;
    bool block_ptr;     /* from tl.make_block_ptr */
    bool from_dot;
    bool random;        /* random numbers (tl.rand*, philox): their order carries no meaning */
    bool blank;         /* a fresh tl.empty/zeros/full block nothing was written into yet */
    bool shape_unknown; /* rank and dims not known */
    bool dtype_i64;     /* TV_DTYPE: an int64 type; TV_NUM: cast to int64 */
    uint8_t bits;
    const kc_index *idx; /* TV_NUM: value; TV_PTR: offset; NULL = unknown */
    uint32_t base;       /* TV_PTR: symbol of the base parameter (KC_NONE unknown) */
    kc_shape shape;
    kc_deps deps;        /* extra dependences (all of them when idx is NULL) */
    uint64_t taint;      /* reorders (bit r = kernel reorder r) the element order depends on */
    uint32_t npreds;
    const kc_pred *preds;
    uint32_t ntuple;
    const tv *tuple;
    const char *dtype;   /* TV_DTYPE name */
    uint32_t sym;        /* the symbol this value is, or KC_NONE */
    /* The shape (and blockness) came through something the interpreter
     * does not model exactly (an unknown value, a helper call, a
     * shape-changing builtin): not to be trusted for KC302/KC305. */
    bool vague;
    bool logic_nonbool;  /* a Python and/or/not chain with a non-boolean operand (no `&`/`~` fix-it) */
    uint8_t elt;         /* element type, TT_ELT_* (TV_DTYPE: the type it names) */
    uint64_t prods;      /* kernel product records (bit id % 64) whose results flow into the value */
    kc_span dtype_span;  /* the dtype argument that set elt (tl.zeros(..., dtype=X)), for fix-its */
};

/* Element types, as far as KC502 needs them. */
enum {
    TT_ELT_UNKNOWN = 0,
    TT_ELT_PYFLOAT, /* a Python float scalar: takes the type of the block it meets */
    TT_ELT_PYINT,
    TT_ELT_BOOL,
    TT_ELT_INT,
    TT_ELT_FP8,
    TT_ELT_FP16,
    TT_ELT_BF16,
    TT_ELT_FP32,
    TT_ELT_FP64,
};

static bool elt_low(uint8_t e) { return e == TT_ELT_FP16 || e == TT_ELT_BF16 || e == TT_ELT_FP8; }

static const char *elt_name(uint8_t e)
{
    switch (e) {
    case TT_ELT_FP16: return "fp16";
    case TT_ELT_BF16: return "bf16";
    case TT_ELT_FP8: return "fp8";
    case TT_ELT_FP32: return "fp32";
    case TT_ELT_FP64: return "fp64";
    default: return "?";
    }
}

static uint8_t elt_of_dtype_name(const char *d)
{
    if (!d)
        return TT_ELT_UNKNOWN;
    if (!strcmp(d, "float16") || !strcmp(d, "fp16") || !strcmp(d, "half"))
        return TT_ELT_FP16;
    if (!strcmp(d, "bfloat16") || !strcmp(d, "bf16"))
        return TT_ELT_BF16;
    if (!strcmp(d, "float32") || !strcmp(d, "fp32") || !strcmp(d, "float"))
        return TT_ELT_FP32;
    if (!strcmp(d, "float64") || !strcmp(d, "fp64") || !strcmp(d, "double"))
        return TT_ELT_FP64;
    if (!strncmp(d, "float8", 6) || !strncmp(d, "fp8", 3))
        return TT_ELT_FP8;
    if (!strcmp(d, "int1"))
        return TT_ELT_BOOL;
    if (!strncmp(d, "int", 3) || !strncmp(d, "uint", 4))
        return TT_ELT_INT;
    return TT_ELT_UNKNOWN;
}

/* Triton's computation type of a binary arithmetic operation
 * (semantic.computation_type_impl), for the float cases. */
static uint8_t elt_promote(uint8_t a, uint8_t b, bool div)
{
    bool a_py = a == TT_ELT_PYFLOAT || a == TT_ELT_PYINT, b_py = b == TT_ELT_PYFLOAT || b == TT_ELT_PYINT;
    if (a_py && b_py)
        return a == TT_ELT_PYFLOAT || b == TT_ELT_PYFLOAT ? TT_ELT_PYFLOAT : TT_ELT_PYINT;
    if (a == TT_ELT_UNKNOWN || b == TT_ELT_UNKNOWN)
        return TT_ELT_UNKNOWN;
    if (a_py || b_py) { /* a scalar of a lower or equal kind does not promote the tensor */
        uint8_t t = a_py ? b : a, sc = a_py ? a : b;
        if (t >= TT_ELT_FP8 || sc == TT_ELT_PYINT)
            return div && (t == TT_ELT_FP16 || t == TT_ELT_BF16) ? TT_ELT_FP32 : t;
        return TT_ELT_FP32; /* int tensor with a float scalar */
    }
    if (a == TT_ELT_FP64 || b == TT_ELT_FP64)
        return TT_ELT_FP64;
    if (a == TT_ELT_FP32 || b == TT_ELT_FP32)
        return TT_ELT_FP32;
    if (a == TT_ELT_FP16 || b == TT_ELT_FP16)
        return div || (a == TT_ELT_BF16 || b == TT_ELT_BF16) ? TT_ELT_FP32 : TT_ELT_FP16;
    if (a == TT_ELT_BF16 && b == TT_ELT_BF16)
        return div ? TT_ELT_FP32 : TT_ELT_BF16;
    if (a == TT_ELT_BF16 || b == TT_ELT_BF16)
        return TT_ELT_FP32;
    if (a == TT_ELT_FP8 || b == TT_ELT_FP8)
        return TT_ELT_UNKNOWN;
    return a == TT_ELT_BOOL && b == TT_ELT_BOOL ? TT_ELT_BOOL : TT_ELT_INT;
}

/* Is the shape of the value trustworthy? */
static bool is_vague(const tv *v)
{
    return v->vague || v->shape_unknown || (v->kind == TV_UNKNOWN && !v->ce) || v->kind == TV_TUPLE;
}

typedef struct tt_var {
    const char *name;
    uint32_t hash; /* name_hash(name): lookups compare it first */
    tv v;
} tt_var;

typedef struct tt_env {
    KC_VEC(tt_var) vars;
} tt_env;

typedef KC_VEC(const char *) tt_names;

typedef struct tt_ctx {
    tt_module *mod;
    kc_model *m;
    kc_kernel *k;
    kc_arena *a;
    tt_env env;
    uint32_t loop; /* innermost loop or KC_NONE */
    uint32_t cond; /* innermost condition or KC_NONE */
    unsigned depth;
    uintptr_t stack_base; /* frame address of tt_lower_kernel */
    tt_names pointer_params;
    const char *tl_alias; /* the local name of triton.language ("tl"), for fix-its */
} tt_ctx;

/* Nesting is bounded by depth and by stack actually used: frames are much
 * larger under sanitizers, and kernels are lowered on worker threads. */
#define TT_STACK_BUDGET ((uintptr_t)1 << 20)

static bool stack_exhausted(const tt_ctx *c)
{
    /* The frame address, not a local's: with ASan's use-after-return
     * detection locals live in heap-allocated fake frames (clang's default),
     * and their distance says nothing about the stack. */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    uintptr_t used = c->stack_base > here ? c->stack_base - here : here - c->stack_base;
    return used > TT_STACK_BUDGET;
}

static tv eval(tt_ctx *c, TSNode n);
static void exec_block(tt_ctx *c, TSNode block);
static const char *short_text(tt_ctx *c, TSNode n);

static tv tv_unknown(void)
{
    tv v;
    memset(&v, 0, sizeof v);
    v.kind = TV_UNKNOWN;
    v.base = KC_NONE;
    v.sym = KC_NONE;
    v.bits = 32;
    return v;
}

static kc_deps deps_or(kc_deps a, kc_deps b)
{
    kc_deps d = {(uint8_t)(a.axes | b.axes), (uint8_t)(a.flags | b.flags), a.loops | b.loops};
    return d;
}

static kc_deps tv_deps(const tv *v)
{
    kc_deps d = v->deps;
    if (v->idx)
        d = deps_or(d, kc_index_deps(v->idx));
    for (uint32_t i = 0; i < v->ntuple; i++)
        d = deps_or(d, tv_deps(&v->tuple[i]));
    return d;
}

/* Moves lane-axis bits from a rank-`from` shape to a right-aligned rank-`to`. */
static kc_deps deps_to_rank(kc_deps d, unsigned from, unsigned to)
{
    if (to > from)
        d.axes = (uint8_t)(d.axes << (to - from));
    return d;
}

/* Is any dimension of the block other than 1 (or unknown)? */
static bool has_extent(const tv *v)
{
    if (v->shape_unknown)
        return true;
    for (unsigned i = 0; i < v->shape.rank; i++)
        if (v->shape.dims[i].value != 1)
            return true;
    return false;
}

static kc_shape shape_of2(const tv *a, const tv *b)
{
    kc_shape s;
    if (!kc_shape_broadcast(&a->shape, &b->shape, &s))
        s = a->shape.rank >= b->shape.rank ? a->shape : b->shape;
    return s;
}

static tv make_opaque_text(tt_ctx *c, kc_span span, const char *text, kc_deps deps, const kc_shape *shape,
                           uint8_t bits)
{
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.bits = bits ? bits : 32;
    if (shape)
        v.shape = *shape;
    uint32_t id = kc_kernel_add_opaque(c->m, c->k, span, text);
    v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_OPAQUE, id, deps), v.bits, KC_SPACE_BLOCK, &v.shape);
    return v;
}

static tv make_opaque(tt_ctx *c, TSNode n, kc_deps deps, const kc_shape *shape, uint8_t bits)
{
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.bits = bits ? bits : 32;
    if (shape)
        v.shape = *shape;
    uint32_t id = kc_kernel_add_opaque(c->m, c->k, tt_span(n), tt_text(c->mod, n));
    v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_OPAQUE, id, deps), v.bits, KC_SPACE_BLOCK, &v.shape);
    return v;
}

static tv make_const(tt_ctx *c, int64_t x)
{
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.ce = true;
    v.elt = TT_ELT_PYINT;
    v.idx = kc_index_const(c->a, x, 32, KC_SPACE_BLOCK);
    return v;
}

static bool tv_const(const tv *v, int64_t *x)
{
    return v->kind == TV_NUM && kc_index_is_const(v->idx, x);
}

/* ---- environment ---- */

static uint32_t name_hash(const char *s)
{
    return (uint32_t)XXH3_64bits(s, strlen(s));
}

static tv *env_get(tt_env *e, const char *name)
{
    uint32_t h = name_hash(name);
    for (uint32_t i = e->vars.len; i-- > 0;)
        if (e->vars.data[i].hash == h && strcmp(e->vars.data[i].name, name) == 0)
            return &e->vars.data[i].v;
    return NULL;
}

static void env_set(tt_ctx *c, const char *name, tv v)
{
    tv *p = env_get(&c->env, name);
    if (p) {
        *p = v;
        return;
    }
    tt_var var = {kc_arena_strdup(c->a, name), name_hash(name), v};
    kc_vec_push(&c->env.vars, var);
}

static tt_env env_copy(const tt_env *e)
{
    tt_env r = {0};
    kc_vec_reserve(&r.vars, e->vars.len);
    if (e->vars.len)
        memcpy(r.vars.data, e->vars.data, e->vars.len * sizeof(tt_var));
    r.vars.len = e->vars.len;
    return r;
}

static bool tv_equal(const tv *a, const tv *b)
{
    return a->kind == b->kind && a->base == b->base && kc_index_equal(a->idx, b->idx) &&
           a->taint == b->taint && a->ce == b->ce && a->shape.rank == b->shape.rank &&
           a->deps.axes == b->deps.axes && a->deps.flags == b->deps.flags &&
           a->deps.loops == b->deps.loops && a->npreds == b->npreds && a->preds == b->preds;
}

/* The value of a name after two branches: kept when equal, otherwise an
 * opaque value depending on both and on the condition. */
static tv merge(tt_ctx *c, TSNode at, const char *name, const tv *x, const tv *y, kc_deps cond)
{
    if (tv_equal(x, y))
        return *x;
    kc_shape s = shape_of2(x, y);
    kc_deps d = deps_or(deps_or(deps_to_rank(tv_deps(x), x->shape.rank, s.rank),
                                deps_to_rank(tv_deps(y), y->shape.rank, s.rank)),
                        cond);
    d.axes &= (uint8_t)((1u << s.rank) - 1);
    tv r;
    const char *text = name ? kc_arena_printf(c->a, "%s as set on line %u", name, ts_node_start_point(at).row + 1)
                            : tt_text(c->mod, at);
    if (x->kind == TV_PTR && y->kind == TV_PTR && x->base == y->base) {
        r = *x;
        r.idx = make_opaque_text(c, tt_span(at), text, d, &s, 64).idx;
        r.shape = s;
    } else if (x->kind == TV_BOOL && y->kind == TV_BOOL) {
        r = tv_unknown();
        r.kind = TV_BOOL;
        r.shape = s;
        r.deps = d;
    } else if (x->kind == TV_NUM && y->kind == TV_NUM) {
        r = make_opaque_text(c, tt_span(at), text, d, &s, x->bits > y->bits ? x->bits : y->bits);
        r.is_float = x->is_float || y->is_float;
    } else {
        r = tv_unknown();
        r.shape = s;
        r.deps = d;
    }
    r.ce = x->ce && y->ce;
    r.taint = x->taint | y->taint;
    r.shape_unknown = x->shape_unknown || y->shape_unknown;
    r.vague = is_vague(x) || is_vague(y) || x->shape.rank != y->shape.rank;
    r.prods = x->prods | y->prods;
    r.elt = x->elt == y->elt ? x->elt : TT_ELT_UNKNOWN;
    if (r.elt != TT_ELT_UNKNOWN)
        r.dtype_span = kc_span_valid(x->dtype_span) ? x->dtype_span : y->dtype_span;
    return r;
}

static void env_merge(tt_ctx *c, TSNode at, tt_env *into, const tt_env *other, kc_deps cond)
{
    /* Names only in `other` are taken as they are (Python has function scope). */
    for (uint32_t i = 0; i < other->vars.len; i++) {
        const tt_var *ov = &other->vars.data[i];
        tv *p = env_get(into, ov->name);
        if (!p) {
            kc_vec_push(&into->vars, *ov);
            continue;
        }
        *p = merge(c, at, ov->name, p, &ov->v, cond);
    }
}

/* ---- reorder observation (KC301) ---- */

static void observe(tt_ctx *c, uint64_t taint, TSNode at, const char *what)
{
    for (uint32_t r = 0; r < c->k->reorders.len && r < 64; r++) {
        if (!(taint & (1ull << r)))
            continue;
        kc_reorder *ro = &c->k->reorders.data[r];
        if (ro->use_kind)
            continue;
        ro->use_kind = kc_arena_strdup(c->a, what);
        ro->use_span = tt_span(at);
    }
}

/* Two blocks combined element by element observe the order of each other's
 * elements when their reorders differ. */
static void observe_combine(tt_ctx *c, const tv *a, const tv *b, TSNode at, const char *verb,
                            TSNode an, TSNode bn)
{
    if (a->taint == b->taint || !has_extent(a) || !has_extent(b))
        return;
    if (a->taint & ~b->taint) {
        char *w = kc_xasprintf("%s `%s`", verb, tt_text(c->mod, bn));
        observe(c, a->taint & ~b->taint, at, w);
        free(w);
    }
    if (b->taint & ~a->taint) {
        char *w = kc_xasprintf("%s `%s`", verb, tt_text(c->mod, an));
        observe(c, b->taint & ~a->taint, at, w);
        free(w);
    }
}

/* ---- symbols and facts ---- */

static void mark_size(tt_ctx *c, const kc_index *x, const char *evidence, bool problem)
{
    if (!x)
        return;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *at = &x->mono[i].fac[f];
            if (at->kind != KC_ATOM_SYMBOL || at->id >= c->k->symbols.len)
                continue;
            kc_symbol *s = &c->k->symbols.data[at->id];
            if (s->kind != KC_SYM_PARAM && s->kind != KC_SYM_CONSTEXPR)
                continue;
            if (problem && !(s->facts & KC_SF_PROBLEM_SIZE)) {
                s->facts |= KC_SF_PROBLEM_SIZE | KC_SF_SIZE;
                s->size_evidence = kc_arena_strdup(c->a, evidence);
            } else if (!(s->facts & KC_SF_SIZE)) {
                s->facts |= KC_SF_SIZE;
                if (!s->size_evidence)
                    s->size_evidence = kc_arena_strdup(c->a, evidence);
            }
        }
}

static bool varies(const tv *v)
{
    kc_deps d = tv_deps(v);
    return d.axes || (d.flags & (KC_AF_THREAD | KC_AF_PROGRAM)) || d.loops;
}

/* ---- call arguments ---- */

static TSNode call_arg(tt_module *m, TSNode call, uint32_t pos, const char *kw)
{
    TSNode args = tt_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args), p = 0;
    TSNode null = {0};
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment))
            continue;
        if (TT_IS(a, keyword_argument)) {
            if (kw && tt_text_eq(m, tt_field(a, "name"), kw))
                return tt_field(a, "value");
            continue;
        }
        if (TT_IS(a, list_splat) || TT_IS(a, dictionary_splat))
            return null;
        if (p++ == pos)
            return a;
    }
    return null;
}

static uint32_t call_nargs(TSNode call)
{
    TSNode args = tt_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args), k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!TT_IS(ts_node_named_child(args, i), comment))
            k++;
    return k;
}

static tv eval_opt(tt_ctx *c, TSNode n)
{
    if (ts_node_is_null(n)) {
        tv v = tv_unknown();
        v.kind = TV_NONE;
        v.ce = true;
        return v;
    }
    return eval(c, n);
}

/* ---- shapes from tuples ---- */

static kc_dim dim_of(const tv *v)
{
    kc_dim d = {-1, KC_NONE};
    int64_t x;
    if (tv_const(v, &x))
        d.value = x;
    if (v->sym != KC_NONE)
        d.symbol = v->sym;
    return d;
}

static bool shape_from(const tv *v, kc_shape *s)
{
    memset(s, 0, sizeof *s);
    if (v->kind == TV_TUPLE) {
        if (v->ntuple > KC_MAX_RANK)
            return false;
        s->rank = (uint8_t)v->ntuple;
        for (uint32_t i = 0; i < v->ntuple; i++)
            s->dims[i] = dim_of(&v->tuple[i]);
        return true;
    }
    if (v->kind == TV_NUM) { /* tl.zeros(BLOCK, ...) is not valid, but [BLOCK] is */
        s->rank = 1;
        s->dims[0] = dim_of(v);
        return true;
    }
    return false;
}

static void format_dim(tt_ctx *c, const kc_dim *d, kc_strbuf *sb)
{
    if (d->symbol != KC_NONE && d->symbol < c->k->symbols.len)
        kc_sb_append(sb, c->k->symbols.data[d->symbol].name);
    else if (d->value >= 0)
        kc_sb_appendf(sb, "%" PRId64, d->value);
    else
        kc_sb_append(sb, "?");
}

/* ---- arithmetic ---- */

static const char *op_of(TSNode n)
{
    TSNode op = tt_field(n, "operator");
    return ts_node_is_null(op) ? "" : ts_node_type(op);
}

static tv num_of(tt_ctx *c, const tv *v, TSNode at)
{
    if (v->kind == TV_NUM && v->idx)
        return *v;
    tv r = make_opaque(c, at, tv_deps(v), &v->shape, v->bits);
    r.taint = v->taint;
    r.ce = v->ce;
    r.is_float = v->is_float;
    r.shape_unknown = v->shape_unknown;
    r.from_dot = v->from_dot;
    r.prods = v->prods;
    r.vague = v->vague;
    r.elt = v->elt;
    return r;
}

static kc_cmp cmp_of(const char *op)
{
    if (!strcmp(op, "<"))
        return KC_CMP_LT;
    if (!strcmp(op, "<="))
        return KC_CMP_LE;
    if (!strcmp(op, ">"))
        return KC_CMP_GT;
    if (!strcmp(op, ">="))
        return KC_CMP_GE;
    if (!strcmp(op, "=="))
        return KC_CMP_EQ;
    if (!strcmp(op, "!=") || !strcmp(op, "<>"))
        return KC_CMP_NE;
    return 0;
}

static tv compare(tt_ctx *c, TSNode at, const char *op, const tv *a, const tv *b, TSNode an, TSNode bn)
{
    tv r = tv_unknown();
    r.kind = TV_BOOL;
    r.shape = shape_of2(a, b);
    r.shape_unknown = a->shape_unknown || b->shape_unknown;
    r.ce = a->ce && b->ce;
    r.deps = deps_or(deps_to_rank(tv_deps(a), a->shape.rank, r.shape.rank),
                     deps_to_rank(tv_deps(b), b->shape.rank, r.shape.rank));
    r.taint = a->taint | b->taint;
    r.random = (a->random && (b->random || !has_extent(b))) || (b->random && !has_extent(a));
    r.vague = is_vague(a) || is_vague(b);
    r.elt = TT_ELT_BOOL;
    observe_combine(c, a, b, at, "compared with", an, bn);
    kc_cmp cmp = cmp_of(op);
    if (cmp) {
        kc_pred *p = kc_arena_alloc(c->a, sizeof *p);
        p->op = cmp;
        p->lhs = a->kind == TV_NUM ? a->idx : NULL;
        p->rhs = b->kind == TV_NUM ? b->idx : NULL;
        p->span = tt_span(at);
        r.preds = p;
        r.npreds = 1;
        if (cmp != KC_CMP_EQ && cmp != KC_CMP_NE && p->lhs && p->rhs && !a->is_float && !b->is_float)
            kc_vec_push(&c->k->compares, *p);
        if (cmp != KC_CMP_EQ && cmp != KC_CMP_NE) {
            char *ev = kc_xasprintf("it bounds `%s` on line %u", tt_text(c->mod, at),
                                    ts_node_start_point(at).row + 1);
            if (varies(a) && !varies(b))
                mark_size(c, b->idx, ev, true);
            else if (varies(b) && !varies(a))
                mark_size(c, a->idx, ev, true);
            free(ev);
        }
    }
    return r;
}

static tv bool_combine(tt_ctx *c, const tv *a, const tv *b, bool is_and)
{
    tv r = tv_unknown();
    r.kind = TV_BOOL;
    r.shape = shape_of2(a, b);
    r.shape_unknown = a->shape_unknown || b->shape_unknown;
    r.ce = a->ce && b->ce;
    r.deps = deps_or(deps_to_rank(tv_deps(a), a->shape.rank, r.shape.rank),
                     deps_to_rank(tv_deps(b), b->shape.rank, r.shape.rank));
    r.taint = a->taint | b->taint;
    r.vague = is_vague(a) || is_vague(b);
    r.elt = TT_ELT_BOOL;
    if (is_and && a->kind == TV_BOOL && b->kind == TV_BOOL) {
        uint32_t n = a->npreds + b->npreds;
        kc_pred *p = kc_arena_alloc(c->a, (n ? n : 1) * sizeof *p);
        if (a->npreds)
            memcpy(p, a->preds, a->npreds * sizeof *p);
        if (b->npreds)
            memcpy(p + a->npreds, b->preds, b->npreds * sizeof *p);
        r.preds = p;
        r.npreds = n;
    }
    return r;
}

/* The operand spelled so that it is computed in 64 bits. */
static const char *widened(tt_ctx *c, TSNode n)
{
    TSNode u = n;
    const char *t = tt_text(c->mod, n);
    if (strchr(t, '\n'))
        return NULL;
    bool simple = TT_IS(u, identifier) || TT_IS(u, call) || TT_IS(u, subscript) ||
                  TT_IS(u, attribute) || TT_IS(u, parenthesized_expression);
    return simple ? kc_arena_printf(c->a, "%s.to(%s.int64)", t, c->tl_alias)
                  : kc_arena_printf(c->a, "(%s).to(%s.int64)", t, c->tl_alias);
}

/* An integer product of two values that both vary at run time (KC304). */
static void record_product(tt_ctx *c, TSNode at, TSNode an, TSNode bn, const tv *x, const tv *y, tv *r)
{
    int64_t k;
    if (!x->idx || !y->idx || !r->idx || x->is_float || y->is_float || r->is_float ||
        kc_index_is_const(x->idx, &k) || kc_index_is_const(y->idx, &k) || ts_node_is_null(an) || ts_node_is_null(bn))
        return;
    if (elt_low(x->elt) || elt_low(y->elt) || x->elt == TT_ELT_FP32 || y->elt == TT_ELT_FP32 ||
        x->elt == TT_ELT_FP64 || y->elt == TT_ELT_FP64 || x->elt == TT_ELT_PYFLOAT || y->elt == TT_ELT_PYFLOAT)
        return;
    r->prods |= 1ull << (c->k->products.len % 64);
    kc_product p;
    memset(&p, 0, sizeof p);
    p.span = tt_span(at);
    p.text = short_text(c, at);
    p.value = r->idx;
    p.lhs = x->idx;
    p.rhs = y->idx;
    p.lhs_span = tt_span(an);
    p.rhs_span = tt_span(bn);
    p.lhs_text = short_text(c, an);
    p.rhs_text = short_text(c, bn);
    p.lhs_widened = widened(c, an);
    p.rhs_widened = widened(c, bn);
    p.bits = r->bits;
    kc_vec_push(&c->k->products, p);
}

static tv binop(tt_ctx *c, TSNode at, const char *op, tv a, tv b, TSNode an, TSNode bn)
{
    if (cmp_of(op))
        return compare(c, at, op, &a, &b, an, bn);
    if ((!strcmp(op, "&") || !strcmp(op, "|")) && (a.kind == TV_BOOL || b.kind == TV_BOOL)) {
        observe_combine(c, &a, &b, at, "combined with", an, bn);
        return bool_combine(c, &a, &b, op[0] == '&');
    }
    /* Pointer arithmetic. */
    if (a.kind == TV_PTR || b.kind == TV_PTR) {
        bool a_ptr = a.kind == TV_PTR;
        tv p = a_ptr ? a : b, o = a_ptr ? b : a;
        if ((!strcmp(op, "+") || (!strcmp(op, "-") && a_ptr)) && o.kind != TV_PTR) {
            observe_combine(c, &a, &b, at, "added to", an, bn);
            tv r = p;
            tv on = num_of(c, &o, a_ptr ? bn : an);
            const kc_index *off = p.idx ? p.idx : kc_index_const(c->a, 0, 32, KC_SPACE_BLOCK);
            r.idx = !strcmp(op, "+") ? kc_index_add(c->a, off, on.idx) : kc_index_sub(c->a, off, on.idx);
            r.shape = shape_of2(&p, &o);
            if (!r.idx)
                r.idx = make_opaque(c, at, deps_or(tv_deps(&p), tv_deps(&o)), &r.shape, 64).idx;
            r.taint = p.taint | o.taint;
            r.deps = deps_or(deps_to_rank(p.deps, p.shape.rank, r.shape.rank),
                             deps_to_rank(o.deps, o.shape.rank, r.shape.rank));
            r.shape_unknown = p.shape_unknown || o.shape_unknown;
            r.vague = is_vague(&p) || is_vague(&o);
            r.prods = p.prods | o.prods;
            r.ce = false;
            return r;
        }
        tv r = tv_unknown();
        r.shape = shape_of2(&a, &b);
        r.deps = deps_or(tv_deps(&a), tv_deps(&b));
        return r;
    }
    if (a.kind == TV_TUPLE || b.kind == TV_TUPLE || a.kind == TV_STR || b.kind == TV_STR) {
        tv r = tv_unknown();
        r.ce = a.ce && b.ce;
        return r;
    }
    observe_combine(c, &a, &b, at, "combined element-wise with", an, bn);
    tv x = num_of(c, &a, an), y = num_of(c, &b, bn);
    kc_shape s = shape_of2(&x, &y);
    const kc_index *res = NULL;
    bool affine = true;
    if (!strcmp(op, "+"))
        res = kc_index_add(c->a, x.idx, y.idx);
    else if (!strcmp(op, "-"))
        res = kc_index_sub(c->a, x.idx, y.idx);
    else if (!strcmp(op, "*"))
        res = kc_index_mul(c->a, x.idx, y.idx);
    else if (!strcmp(op, "<<")) {
        int64_t sh;
        if (tv_const(&y, &sh) && sh >= 0 && sh < 62)
            res = kc_index_scale(c->a, x.idx, (int64_t)1 << sh);
        else
            affine = false;
    } else if (!strcmp(op, "//")) {
        int64_t dv, nv;
        if (tv_const(&y, &dv) && dv == 1)
            res = x.idx;
        else if (tv_const(&x, &nv) && tv_const(&y, &dv) && dv > 0) {
            int64_t q = nv / dv;
            if ((nv % dv != 0) && ((nv < 0) != (dv < 0)))
                q--;
            res = kc_index_const(c->a, q, 32, KC_SPACE_BLOCK);
        } else
            affine = false;
    } else if (!strcmp(op, "%")) {
        int64_t dv, nv;
        if (tv_const(&x, &nv) && tv_const(&y, &dv) && dv > 0)
            res = kc_index_const(c->a, ((nv % dv) + dv) % dv, 32, KC_SPACE_BLOCK);
        else
            affine = false;
    } else {
        affine = false;
    }
    tv r;
    if (res) {
        r = tv_unknown();
        r.kind = TV_NUM;
        r.idx = res;
        r.shape = s;
    } else {
        kc_deps d = deps_or(deps_to_rank(tv_deps(&x), x.shape.rank, s.rank),
                            deps_to_rank(tv_deps(&y), y.shape.rank, s.rank));
        r = make_opaque(c, at, d, &s, x.bits > y.bits ? x.bits : y.bits);
        (void)affine;
    }
    r.bits = x.bits > y.bits ? x.bits : y.bits;
    if (res && r.idx->bits != r.bits)
        r.idx = kc_index_cast(c->a, r.idx, r.bits);
    r.ce = x.ce && y.ce;
    r.is_float = x.is_float || y.is_float || !strcmp(op, "/") || !strcmp(op, "**");
    r.taint = x.taint | y.taint;
    r.shape_unknown = x.shape_unknown || y.shape_unknown;
    r.from_dot = x.from_dot || y.from_dot;
    r.random = (a.random && (b.random || !has_extent(&b))) || (b.random && !has_extent(&a));
    r.vague = is_vague(&a) || is_vague(&b);
    r.prods = x.prods | y.prods;
    if (!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^") || !strcmp(op, "<<") || !strcmp(op, ">>"))
        r.elt = elt_promote(a.elt, b.elt, false) == TT_ELT_UNKNOWN ? TT_ELT_UNKNOWN : TT_ELT_INT;
    else
        r.elt = elt_promote(a.elt, b.elt, !strcmp(op, "/") || !strcmp(op, "%") || !strcmp(op, "//"));
    if (!strcmp(op, "*"))
        record_product(c, at, an, bn, &x, &y, &r);
    return r;
}

/* ---- broadcasting by subscripts: x[:, None], x[None, :] ---- */

static tv subscript(tt_ctx *c, TSNode n)
{
    TSNode valn = tt_field(n, "value");
    tv v = eval(c, valn);
    /* Collect the subscript items (tree-sitter gives one "subscript" field
     * per item). */
    TSNode items[KC_MAX_RANK + 1];
    uint32_t ni = tt_field_children(n, "subscript", items, KC_MAX_RANK + 1);
    if (ni > KC_MAX_RANK + 1)
        return tv_unknown();
    if (v.kind == TV_TUPLE && ni == 1) {
        int64_t i;
        tv iv = eval(c, items[0]);
        if (tv_const(&iv, &i)) {
            if (i < 0)
                i += v.ntuple;
            if (i >= 0 && (uint64_t)i < v.ntuple)
                return v.tuple[i];
        }
        tv r = tv_unknown();
        r.ce = v.ce;
        return r;
    }
    if (v.kind != TV_NUM && v.kind != TV_BOOL && v.kind != TV_PTR)
        return tv_unknown();
    /* Only None and ':' items are broadcasts. */
    uint8_t map[KC_MAX_RANK];
    kc_shape s = {0};
    unsigned src_axis = 0;
    for (uint32_t i = 0; i < ni; i++) {
        TSNode it = items[i];
        if (TT_IS(it, none)) {
            if (s.rank >= KC_MAX_RANK)
                return tv_unknown();
            s.dims[s.rank].value = 1;
            s.dims[s.rank].symbol = KC_NONE;
            s.rank++;
        } else if (TT_IS(it, slice) && ts_node_named_child_count(it) == 0) {
            if (src_axis >= v.shape.rank || s.rank >= KC_MAX_RANK) {
                tv r = tv_unknown();
                r.deps = tv_deps(&v);
                r.random = v.random;
                r.taint = v.taint;
                r.shape_unknown = true;
                return r;
            }
            map[src_axis] = s.rank;
            s.dims[s.rank++] = v.shape.dims[src_axis++];
        } else if (TT_IS(it, ellipsis)) {
            while (src_axis < v.shape.rank && s.rank < KC_MAX_RANK) {
                map[src_axis] = s.rank;
                s.dims[s.rank++] = v.shape.dims[src_axis++];
            }
        } else {
            /* an integer index picks a slice: same kind of values */
            tv r = tv_unknown();
            r.deps = tv_deps(&v);
            r.random = v.random;
            r.taint = v.taint;
            r.shape_unknown = true;
            return r;
        }
    }
    while (src_axis < v.shape.rank && s.rank < KC_MAX_RANK) {
        map[src_axis] = s.rank;
        s.dims[s.rank++] = v.shape.dims[src_axis++];
    }
    tv r = v;
    r.shape = s;
    if (v.idx)
        r.idx = kc_index_remap(c->a, v.idx, &s, map);
    r.deps.axes = 0;
    for (unsigned i = 0; i < v.shape.rank; i++)
        if (v.deps.axes & (1u << i))
            r.deps.axes |= (uint8_t)(1u << map[i]);
    return r;
}

/* ---- accesses ---- */

static const char *short_text(tt_ctx *c, TSNode n)
{
    const char *t = tt_text(c->mod, n);
    /* Collapse newlines and runs of spaces for messages. */
    size_t len = strlen(t);
    char *o = kc_arena_alloc(c->a, len + 1);
    size_t k = 0;
    bool sp = false;
    for (size_t i = 0; i < len; i++) {
        char ch = t[i];
        if (ch == '\n' || ch == '\r' || ch == '\t' || ch == ' ') {
            if (!sp && k > 0)
                o[k++] = ' ';
            sp = true;
            continue;
        }
        sp = false;
        o[k++] = ch;
    }
    o[k] = '\0';
    return o;
}

/* Operand shapes of a load/store as far as they are known (KC302). */
static bool operand_shape(const tv *v, bool want_ptr, kc_shape *out)
{
    memset(out, 0, sizeof *out);
    if (v->kind == TV_NONE || is_vague(v))
        return false;
    if (want_ptr ? v->kind != TV_PTR : (v->kind != TV_NUM && v->kind != TV_BOOL))
        return false;
    *out = v->shape;
    return true;
}

/* Does a mask comparison bound an index that varies along the block (a
 * bounds check: offs < N)? Masks we cannot see into count as checks. */
static bool mask_bounds_index(const tv *mask)
{
    if (mask->kind != TV_BOOL || mask->npreds == 0)
        return true;
    for (uint32_t i = 0; i < mask->npreds; i++) {
        const kc_pred *p = &mask->preds[i];
        if (p->op == KC_CMP_EQ || p->op == KC_CMP_NE || !p->lhs || !p->rhs)
            return true;
        kc_deps l = kc_index_deps(p->lhs), r = kc_index_deps(p->rhs);
        if ((l.flags | r.flags) & (KC_AF_THREAD | KC_AF_PROGRAM | KC_AF_DATA) || l.loops || r.loops)
            return true;
    }
    return false;
}

static uint32_t record_access(tt_ctx *c, kc_access_kind kind, TSNode call, TSNode ptrn, const tv *ptr,
                              TSNode maskn, const tv *mask, TSNode othern, const tv *other, TSNode valn,
                              const tv *val)
{
    kc_access a;
    memset(&a, 0, sizeof a);
    a.id = c->k->accesses.len;
    a.kind = kind;
    a.space = KC_MEM_GLOBAL;
    a.base = ptr->kind == TV_PTR ? ptr->base : KC_NONE;
    if (a.base != KC_NONE && a.base < c->k->symbols.len)
        a.base_name = c->k->symbols.data[a.base].name;
    a.offset = (ptr->kind == TV_PTR && !ptr->block_ptr) ? ptr->idx : NULL;
    a.loop = c->loop;
    a.guard = c->cond;
    a.span = tt_span(call);
    if (!ts_node_is_null(ptrn)) {
        a.addr_span = tt_span(ptrn);
        a.addr_text = short_text(c, ptrn);
    }
    a.whole_block = ptr->shape_unknown || ptr->shape.rank > 0 || ptr->block_ptr;
    if (mask && mask->kind != TV_NONE) {
        a.masked = true;
        a.mask_span = tt_span(maskn);
        a.mask_text = short_text(c, maskn);
        a.mask_deps = tv_deps(mask);
        a.nmask_preds = mask->npreds;
        a.mask_preds = mask->preds;
        a.bounds_checked = mask_bounds_index(mask);
    }
    if (ptr->prods) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < c->k->products.len; i++)
            n += (ptr->prods >> (i % 64)) & 1;
        uint32_t *ids = kc_arena_alloc(c->a, (n ? n : 1) * sizeof *ids);
        n = 0;
        for (uint32_t i = 0; i < c->k->products.len; i++)
            if ((ptr->prods >> (i % 64)) & 1)
                ids[n++] = i;
        a.products = ids;
        a.nproducts = n;
    }
    a.block_ptr = ptr->block_ptr;
    if (ptr->block_ptr) {
        TSNode bc = call_arg(c->mod, call, 99, "boundary_check");
        a.bounds_checked = !ts_node_is_null(bc) && !TT_IS(tt_unparen(bc), none);
    }
    a.ptr_shape_known = operand_shape(ptr, true, &a.ptr_shape);
    if (mask && mask->kind != TV_NONE)
        a.mask_shape_known = operand_shape(mask, false, &a.mask_shape);
    if (other && other->kind != TV_NONE) {
        a.has_other = true;
        a.other_span = tt_span(othern);
        a.other_shape_known = operand_shape(other, false, &a.other_shape);
    }
    if (val && val->kind != TV_NONE) {
        a.value_span = tt_span(valn);
        a.value_shape_known = operand_shape(val, false, &a.value_shape);
    }
    kc_vec_push(&c->k->accesses, a);
    return a.id;
}

static tv loaded_value(tt_ctx *c, uint32_t acc, const tv *ptr, const tv *mask)
{
    kc_shape s = ptr->shape;
    if (mask && mask->kind == TV_BOOL)
        s = shape_of2(ptr, mask);
    kc_deps d = deps_to_rank(tv_deps(ptr), ptr->shape.rank, s.rank);
    if (mask && mask->kind != TV_NONE)
        d = deps_or(d, deps_to_rank(tv_deps(mask), mask->shape.rank, s.rank));
    d.flags |= KC_AF_DATA;
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.shape = s;
    v.shape_unknown = ptr->shape_unknown;
    /* The element type is not known here. An integer loaded as an index
     * is presumed to be int64 (torch.long, PyTorch's index type) unless the
     * kernel casts it: KC304 does not guess about values it cannot see. */
    v.bits = 64;
    v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_DATA, acc, d), 64, KC_SPACE_BLOCK, &s);
    v.taint = ptr->taint;
    v.vague = is_vague(ptr) || (mask && mask->kind != TV_NONE && is_vague(mask));
    return v;
}

static tv do_load(tt_ctx *c, TSNode call, bool method_form, const tv *self)
{
    TSNode ptrn = method_form ? ts_node_child(call, 0) : call_arg(c->mod, call, 0, "pointer");
    tv ptr = method_form ? *self : eval_opt(c, ptrn);
    TSNode maskn = call_arg(c->mod, call, method_form ? 0 : 1, "mask");
    tv mask = eval_opt(c, maskn);
    TSNode othern = call_arg(c->mod, call, method_form ? 1 : 2, "other");
    tv other = eval_opt(c, othern);
    if (mask.kind != TV_NONE && ptr.taint != mask.taint && has_extent(&mask) && has_extent(&ptr)) {
        if (mask.taint & ~ptr.taint)
            observe(c, mask.taint & ~ptr.taint, maskn, "used as the mask of a load");
        if (ptr.taint & ~mask.taint)
            observe(c, ptr.taint & ~mask.taint, ptrn, "used as a load address with another mask");
    }
    uint32_t id = record_access(c, KC_ACC_LOAD, call, ptrn, &ptr, maskn, &mask, othern, &other, (TSNode){0}, NULL);
    return loaded_value(c, id, &ptr, &mask);
}

static tv do_store(tt_ctx *c, TSNode call, kc_access_kind kind)
{
    TSNode ptrn = call_arg(c->mod, call, 0, "pointer");
    TSNode valn = call_arg(c->mod, call, 1, kind == KC_ACC_STORE ? "value" : "val");
    TSNode maskn = call_arg(c->mod, call, kind == KC_ACC_STORE ? 2 : 2, "mask");
    tv ptr = eval_opt(c, ptrn), val = eval_opt(c, valn), mask = eval_opt(c, maskn);
    if (val.taint != ptr.taint && has_extent(&val) && has_extent(&ptr)) {
        if (val.taint & ~ptr.taint)
            observe(c, val.taint & ~ptr.taint, valn, "stored");
        if (ptr.taint & ~val.taint)
            observe(c, ptr.taint & ~val.taint, ptrn, "used as a store address");
    }
    if (mask.kind != TV_NONE && mask.taint != ptr.taint && has_extent(&mask) && has_extent(&ptr)) {
        if (mask.taint & ~ptr.taint)
            observe(c, mask.taint & ~ptr.taint, maskn, "used as the mask of a store");
    }
    uint32_t id = record_access(c, kind, call, ptrn, &ptr, maskn, &mask, (TSNode){0}, NULL, valn, &val);
    if (kind == KC_ACC_ATOMIC)
        return loaded_value(c, id, &ptr, &mask);
    tv r = tv_unknown();
    r.kind = TV_NONE;
    return r;
}

/* ---- low-precision accumulation (KC502) ---- */

static const char *span_source(tt_ctx *c, kc_span sp)
{
    const kc_source *src = c->mod->src;
    if (!kc_span_valid(sp))
        return NULL;
    size_t a = kc_source_offset(src, sp.line, sp.col), b = kc_source_offset(src, sp.end_line, sp.end_col);
    return b > a ? kc_arena_strndup(c->a, src->text + a, b - a) : NULL;
}

/* `decl` is the value whose dtype argument made it narrow. */
static void record_accum(tt_ctx *c, TSNode at, const char *var, const tv *decl, kc_accum_kind kind)
{
    kc_accum ac;
    memset(&ac, 0, sizeof ac);
    ac.span = tt_span(at);
    ac.decl_span = decl->dtype_span;
    ac.var = var ? kc_arena_strdup(c->a, var) : NULL;
    ac.dtype = elt_name(decl->elt);
    ac.kind = kind;
    ac.loop = c->loop;
    const char *dt = span_source(c, decl->dtype_span);
    if (dt && !strchr(dt, '\n')) {
        const char *dot = strrchr(dt, '.');
        ac.fix_text = dot ? kc_arena_printf(c->a, "%.*s.float32", (int)(dot - dt), dt) : "float32";
    }
    kc_vec_push(&c->k->accums, ac);
}

/* A loop-carried low-precision block updated in the loop (`acc += x`,
 * `acc = acc + x`, `acc = tl.dot(a, b, acc)`). */
static void check_accumulation(tt_ctx *c, TSNode st, const char *var, const tv *before, kc_accum_kind kind)
{
    if (c->loop == KC_NONE || before->kind != TV_NUM || !elt_low(before->elt))
        return;
    if (!(tv_deps(before).loops & kc_loop_bit(c->loop)))
        return;
    record_accum(c, st, var, before, kind);
}

/* tl.sum of a block known to be fp16/bf16 (unless dtype= widens it). */
static void check_narrow_sum(tt_ctx *c, TSNode call, TSNode xn, const tv *x)
{
    if (!elt_low(x->elt) || x->shape.rank == 0 || ts_node_is_null(xn))
        return;
    TSNode dt = call_arg(c->mod, call, 99, "dtype");
    if (!ts_node_is_null(dt))
        return;
    kc_accum ac;
    memset(&ac, 0, sizeof ac);
    ac.span = tt_span(call);
    ac.decl_span = tt_span(xn);
    ac.dtype = elt_name(x->elt);
    ac.kind = KC_ACCUM_REDUCE;
    ac.loop = c->loop;
    const char *t = tt_text(c->mod, xn);
    if (!strchr(t, '\n')) {
        TSNode u = tt_unparen(xn);
        bool simple = TT_IS(u, identifier) || TT_IS(u, call) || TT_IS(u, subscript) || TT_IS(u, attribute);
        ac.fix_text = simple ? kc_arena_printf(c->a, "%s.to(%s.float32)", t, c->tl_alias)
                             : kc_arena_printf(c->a, "(%s).to(%s.float32)", t, c->tl_alias);
    }
    kc_vec_push(&c->k->accums, ac);
}

/* Is `n` a call of tl.dot whose accumulator argument is the name `var`? */
static bool is_dot_into(tt_ctx *c, TSNode n, const char *var)
{
    n = tt_unparen(n);
    if (!TT_IS(n, call))
        return false;
    const char *tl = tt_tl_name(tt_qualify(c->mod, tt_field(n, "function")));
    if (!tl || strcmp(tl, "dot"))
        return false;
    if (!var)
        return true;
    TSNode accn = call_arg(c->mod, n, 2, "acc");
    return !ts_node_is_null(accn) && tt_text_eq(c->mod, tt_unparen(accn), var);
}

/* ---- sizes the kernel asserts to be multiples (KC303) ---- */

/* `N % BLOCK == 0` (possibly and-ed with other conditions) in an assert,
 * tl.static_assert, tl.device_assert or tl.assume. */
static void note_multiple(tt_ctx *c, TSNode cond, TSNode at)
{
    cond = tt_unparen(cond);
    if (ts_node_is_null(cond))
        return;
    if (TT_IS(cond, boolean_operator) && !strcmp(op_of(cond), "and")) {
        note_multiple(c, tt_field(cond, "left"), at);
        note_multiple(c, tt_field(cond, "right"), at);
        return;
    }
    if (TT_IS(cond, binary_operator) && !strcmp(op_of(cond), "&")) {
        note_multiple(c, tt_field(cond, "left"), at);
        note_multiple(c, tt_field(cond, "right"), at);
        return;
    }
    if (!TT_IS(cond, comparison_operator) || ts_node_named_child_count(cond) != 2)
        return;
    TSNode l = tt_unparen(ts_node_named_child(cond, 0)), r = tt_unparen(ts_node_named_child(cond, 1));
    const char *op = NULL;
    for (uint32_t i = 0; i < ts_node_child_count(cond); i++)
        if (!ts_node_is_named(ts_node_child(cond, i)))
            op = ts_node_type(ts_node_child(cond, i));
    if (!op || strcmp(op, "=="))
        return;
    int64_t z;
    if (tt_int_literal(c->mod, l, &z) && z == 0) {
        TSNode t = l;
        l = r;
        r = t;
    }
    if (!tt_int_literal(c->mod, r, &z) || z != 0 || !TT_IS(l, binary_operator) || strcmp(op_of(l), "%"))
        return;
    TSNode an = tt_unparen(tt_field(l, "left")), bn = tt_unparen(tt_field(l, "right"));
    if (!TT_IS(an, identifier))
        return;
    tv *av = env_get(&c->env, tt_text(c->mod, an));
    if (!av || av->sym == KC_NONE || av->sym >= c->k->symbols.len)
        return;
    tv bv = eval(c, bn);
    int64_t m;
    kc_symbol *s = &c->k->symbols.data[av->sym];
    if (tv_const(&bv, &m) && m > 0)
        s->multiple_of = m;
    else if (bv.sym != KC_NONE)
        s->multiple_of_symbol = bv.sym;
    else
        return;
    s->multiple_evidence = kc_arena_printf(c->a, "`%s` on line %u", short_text(c, at), ts_node_start_point(at).row + 1);
}

/* ---- Python boolean operators on blocks (KC305) ---- */

static bool is_logic_node(TSNode n) { return TT_IS(n, boolean_operator) || TT_IS(n, not_operator); }

/* Is `n` part of a larger and/or/not chain (so the outermost reports)? */
static bool inside_logic_chain(TSNode n)
{
    TSNode p = ts_node_parent(n);
    while (TT_IS(p, parenthesized_expression))
        p = ts_node_parent(p);
    return is_logic_node(p);
}

/* The chain with & | ~, parenthesizing what precedence needs. */
static void logic_fix(tt_ctx *c, TSNode n, kc_strbuf *sb, int depth)
{
    TSNode u = tt_unparen(n);
    if (depth > 64) {
        kc_sb_append(sb, tt_text(c->mod, n));
        return;
    }
    if (TT_IS(u, boolean_operator)) {
        bool is_and = !strcmp(op_of(u), "and");
        TSNode side[2] = {tt_field(u, "left"), tt_field(u, "right")};
        for (int i = 0; i < 2; i++) {
            TSNode s = tt_unparen(side[i]);
            if (i)
                kc_sb_append(sb, is_and ? " & " : " | ");
            bool same = TT_IS(s, boolean_operator) && !strcmp(op_of(s), op_of(u));
            if (same) {
                logic_fix(c, s, sb, depth + 1);
            } else if (TT_IS(s, identifier) || TT_IS(s, call) || TT_IS(s, subscript) ||
                       TT_IS(s, attribute) || TT_IS(s, true) || TT_IS(s, false) ||
                       TT_IS(s, not_operator)) {
                logic_fix(c, s, sb, depth + 1);
            } else {
                kc_sb_append(sb, "(");
                logic_fix(c, s, sb, depth + 1);
                kc_sb_append(sb, ")");
            }
        }
        return;
    }
    if (TT_IS(u, not_operator)) {
        TSNode a = tt_unparen(tt_field(u, "argument"));
        kc_sb_append(sb, "~");
        bool simple = TT_IS(a, identifier) || TT_IS(a, call) || TT_IS(a, subscript) || TT_IS(a, attribute);
        if (!simple)
            kc_sb_append(sb, "(");
        logic_fix(c, a, sb, depth + 1);
        if (!simple)
            kc_sb_append(sb, ")");
        return;
    }
    kc_sb_append(sb, short_text(c, u));
}

static void note_block_logic(tt_ctx *c, TSNode n, const tv *r)
{
    if (inside_logic_chain(n) || r->kind != TV_BOOL || r->vague || r->shape_unknown || r->shape.rank == 0)
        return;
    kc_block_logic bl;
    memset(&bl, 0, sizeof bl);
    bl.span = tt_span(n);
    /* the first operator keyword of the chain (a and b and c nests to the left) */
    TSNode first = n;
    for (int d = 0; d < 64 && TT_IS(first, boolean_operator); d++) {
        TSNode l = tt_unparen(tt_field(first, "left"));
        if (!TT_IS(l, boolean_operator) || strcmp(op_of(l), op_of(first)))
            break;
        first = l;
    }
    uint32_t cnt = ts_node_child_count(first);
    for (uint32_t i = 0; i < cnt; i++) {
        TSNode ch = ts_node_child(first, i);
        const char *t = ts_node_type(ch);
        if (!ts_node_is_named(ch) && (!strcmp(t, "and") || !strcmp(t, "or") || !strcmp(t, "not"))) {
            bl.op_span = tt_span(ch);
            bl.op = kc_arena_strdup(c->a, t);
            break;
        }
    }
    if (!bl.op)
        return;
    if (!r->logic_nonbool && !strchr(tt_text(c->mod, n), '\n')) {
        kc_strbuf sb = {0};
        logic_fix(c, n, &sb, 0);
        bl.fix_text = kc_arena_strdup(c->a, kc_sb_str(&sb));
        kc_sb_free(&sb);
    }
    kc_vec_push(&c->k->block_logic, bl);
}

/* ---- reductions, reshapes ---- */

static tv reduce(tt_ctx *c, TSNode call, const tv *x, TSNode axisn, bool scan)
{
    tv r = tv_unknown();
    r.kind = TV_NUM;
    r.is_float = x->is_float;
    r.ce = false;
    r.vague = is_vague(x);
    r.elt = x->elt;
    kc_deps d = tv_deps(x);
    if (scan) {
        observe(c, x->taint, call, "scanned (its order decides the result)");
        r.shape = x->shape;
        r.shape_unknown = x->shape_unknown;
        r.taint = x->taint;
        tv o = make_opaque(c, call, d, &r.shape, x->bits);
        r.idx = o.idx;
        return r;
    }
    tv ax = eval_opt(c, axisn);
    int64_t axis;
    if (ax.kind == TV_NONE || x->shape_unknown || !tv_const(&ax, &axis)) {
        /* A full reduction: element order does not matter. */
        if (ax.kind != TV_NONE && !x->shape_unknown) {
            r.shape_unknown = true;
            r.taint = x->taint;
        }
        d.axes = 0;
        kc_shape s0 = {0};
        r.idx = make_opaque(c, call, d, &s0, x->bits).idx;
        return r;
    }
    if (axis < 0)
        axis += x->shape.rank;
    if (axis < 0 || axis >= x->shape.rank) {
        r.shape_unknown = true;
        return r;
    }
    kc_shape s = {0};
    uint8_t axes = 0;
    for (unsigned i = 0; i < x->shape.rank; i++) {
        if ((int64_t)i == axis)
            continue;
        if (d.axes & (1u << i))
            axes |= (uint8_t)(1u << s.rank);
        s.dims[s.rank++] = x->shape.dims[i];
    }
    d.axes = axes;
    r.shape = s;
    r.taint = s.rank ? x->taint : 0;
    r.idx = make_opaque(c, call, d, &s, x->bits).idx;
    return r;
}

/* tl.view / tl.reshape / x.reshape: the result shape; records a reorder
 * when element order is not guaranteed. */
static tv reshape(tt_ctx *c, TSNode call, const char *fname, TSNode xn, const tv *x, TSNode shapen,
                  bool may_reorder, bool can_reorder_kw)
{
    tv sv = eval_opt(c, shapen);
    kc_shape to;
    bool known = shape_from(&sv, &to);
    tv r = *x;
    r.ce = false;
    if (!known) {
        r.shape_unknown = true;
        r.idx = make_opaque(c, call, tv_deps(x), NULL, x->bits).idx;
    } else {
        r.shape = to;
        /* Unit dimensions added or removed only: the lanes keep their axes. */
        uint8_t map[KC_MAX_RANK];
        unsigned j = 0;
        bool simple = !x->shape_unknown;
        for (unsigned i = 0; simple && i < x->shape.rank; i++) {
            if (x->shape.dims[i].value == 1)
                continue;
            while (j < to.rank && to.dims[j].value == 1)
                j++;
            if (j >= to.rank) {
                simple = false;
                break;
            }
            const kc_dim *a = &x->shape.dims[i], *b = &to.dims[j];
            bool same = (a->value >= 0 && a->value == b->value) ||
                        (a->symbol != KC_NONE && a->symbol == b->symbol);
            if (!same) {
                simple = false;
                break;
            }
            map[i] = (uint8_t)j++;
        }
        while (simple && j < to.rank) {
            if (to.dims[j].value != 1)
                simple = false;
            j++;
        }
        if (simple && x->idx) {
            /* unit source dims map anywhere: they carry no lane */
            for (unsigned i = 0; i < x->shape.rank; i++)
                if (x->shape.dims[i].value == 1)
                    map[i] = 0;
            r.idx = kc_index_remap(c->a, x->idx, &to, map);
        } else {
            kc_deps d = tv_deps(x);
            d.axes = (uint8_t)(d.axes ? ((1u << to.rank) - 1) : 0);
            r.idx = make_opaque(c, call, d, &to, x->bits).idx;
            if (x->kind == TV_PTR)
                r.kind = TV_PTR;
        }
        r.shape_unknown = false;
    }
    if (x->kind == TV_PTR && r.idx)
        r.kind = TV_PTR;
    /* Reordering random numbers changes nothing; a reshape to the same
     * shape folds away. */
    if (!may_reorder || x->random || (known && !x->shape_unknown && kc_shape_equal(&x->shape, &to)))
        return r;
    kc_reorder ro;
    memset(&ro, 0, sizeof ro);
    ro.span = tt_span(call);
    TSNode fn = tt_field(call, "function");
    ro.callee_span = tt_span(fn);
    ro.callee_text = tt_text(c->mod, fn);
    ro.arg_text = tt_text(c->mod, xn);
    ro.shape_text = tt_text(c->mod, shapen);
    ro.from = x->shape;
    ro.to = known ? to : x->shape;
    ro.from_dot = x->from_dot;
    ro.can_reorder_kw = can_reorder_kw;
    /* An order-preserving spelling of the same call. */
    kc_strbuf sb = {0};
    bool done = false;
    if (known && !x->shape_unknown && x->shape.rank == 1 && to.rank == 2 && !ts_node_is_null(xn)) {
        const kc_dim *src = &x->shape.dims[0];
        bool is_arg = TT_IS(tt_unparen(xn), identifier);
        const char *arg = is_arg ? tt_text(c->mod, xn) : kc_arena_printf(c->a, "(%s)", tt_text(c->mod, xn));
        if (to.dims[0].value == 1 && (to.dims[1].symbol == src->symbol || (src->value >= 0 && src->value == to.dims[1].value))) {
            kc_sb_appendf(&sb, "%s[None, :]", arg);
            done = true;
        } else if (to.dims[1].value == 1 && (to.dims[0].symbol == src->symbol || (src->value >= 0 && src->value == to.dims[0].value))) {
            kc_sb_appendf(&sb, "%s[:, None]", arg);
            done = true;
        }
    }
    if (!done && !ts_node_is_null(xn) && !ts_node_is_null(shapen)) {
        /* tl.view -> tl.reshape keeping the module prefix as written. */
        const char *callee = ro.callee_text;
        const char *dot = strrchr(callee, '.');
        if (!strcmp(fname, "view") || can_reorder_kw) {
            if (dot)
                kc_sb_appendf(&sb, "%.*s.reshape(%s, %s)", (int)(dot - callee), callee,
                              tt_text(c->mod, xn), tt_text(c->mod, shapen));
            else
                kc_sb_appendf(&sb, "reshape(%s, %s)", tt_text(c->mod, xn), tt_text(c->mod, shapen));
            done = true;
        }
    }
    (void)format_dim;
    if (done)
        ro.fix_text = kc_arena_strdup(c->a, kc_sb_str(&sb));
    kc_sb_free(&sb);
    kc_vec_push(&c->k->reorders, ro);
    uint32_t rid = c->k->reorders.len - 1;
    if (rid < 64)
        r.taint |= 1ull << rid;
    return r;
}

static tv permute(tt_ctx *c, TSNode call, const tv *x, const uint8_t *perm, unsigned rank)
{
    tv r = *x;
    if (x->shape_unknown || x->shape.rank != rank)
        return r;
    kc_shape s = {.rank = (uint8_t)rank};
    uint8_t map[KC_MAX_RANK];
    for (unsigned i = 0; i < rank; i++) {
        s.dims[i] = x->shape.dims[perm[i]];
        map[perm[i]] = (uint8_t)i;
    }
    r.shape = s;
    if (x->idx)
        r.idx = kc_index_remap(c->a, x->idx, &s, map);
    (void)call;
    return r;
}

/* ---- calls ---- */

/* How the element type of an element-wise call's result follows from its
 * arguments. */
typedef enum ew_elt { EW_ELT_UNKNOWN = 0, EW_ELT_PROMOTE, EW_ELT_PROMOTE_BUT_FIRST } ew_elt;

/* A call whose result has the broadcast shape of its arguments when
 * `exact` (tl.where, tl.maximum, math); a helper or builtin we do not model
 * gets that shape too, but marked vague. */
static tv elementwise_x(tt_ctx *c, TSNode call, bool float_result, bool exact, ew_elt eltmode)
{
    TSNode args = tt_field(call, "arguments");
    bool vague = !exact;
    uint64_t prods = 0;
    uint8_t elt = TT_ELT_UNKNOWN, bits = 32;
    bool have_elt = false;
    uint32_t argi = 0;
    uint32_t n = ts_node_named_child_count(args);
    tv acc = tv_unknown();
    acc.kind = TV_NUM;
    acc.ce = true;
    bool first = true;
    TSNode first_node = {0};
    kc_deps d = {0};
    tv vals[8];
    uint32_t nv = 0;
    bool saw_ordered = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment))
            continue;
        if (TT_IS(a, keyword_argument))
            a = tt_field(a, "value");
        tv v = eval(c, a);
        if (v.kind == TV_DTYPE || v.kind == TV_STR || v.kind == TV_NONE)
            continue;
        vague |= is_vague(&v);
        prods |= v.prods;
        if (v.kind == TV_NUM && v.bits > bits)
            bits = v.bits;
        if (eltmode == EW_ELT_PROMOTE || (eltmode == EW_ELT_PROMOTE_BUT_FIRST && argi > 0)) {
            elt = have_elt ? elt_promote(elt, v.elt, false) : v.elt;
            have_elt = true;
        }
        argi++;
        if (nv < 8)
            vals[nv++] = v;
        if (!first)
            observe_combine(c, &acc, &v, call, "combined element-wise with", first_node, a);
        kc_shape s = shape_of2(&acc, &v);
        d = deps_or(deps_to_rank(d, acc.shape.rank, s.rank), deps_to_rank(tv_deps(&v), v.shape.rank, s.rank));
        acc.shape = s;
        acc.shape_unknown |= v.shape_unknown;
        acc.taint |= v.taint;
        acc.ce = acc.ce && v.ce;
        acc.from_dot |= v.from_dot;
        if (v.random)
            acc.random = true;
        else if (has_extent(&v))
            saw_ordered = true;
        if (first)
            first_node = a;
        first = false;
    }
    (void)vals;
    tv r = make_opaque(c, call, d, &acc.shape, bits);
    r.shape_unknown = acc.shape_unknown;
    r.taint = acc.taint;
    r.ce = acc.ce;
    r.is_float = float_result;
    r.from_dot = acc.from_dot;
    r.random = acc.random && !saw_ordered;
    r.vague = vague;
    r.prods = prods;
    r.elt = eltmode == EW_ELT_UNKNOWN ? TT_ELT_UNKNOWN : elt;
    return r;
}

static tv elementwise(tt_ctx *c, TSNode call, bool float_result)
{
    return elementwise_x(c, call, float_result, true, EW_ELT_UNKNOWN);
}

static uint8_t dtype_bits(const char *dt)
{
    if (!dt)
        return 0;
    if (strstr(dt, "int64") || strstr(dt, "uint64"))
        return 64;
    if (strstr(dt, "int32") || strstr(dt, "int16") || strstr(dt, "int8"))
        return 32;
    return 0;
}

static tv cast(tt_ctx *c, TSNode call, const tv *x, const tv *dt)
{
    (void)call;
    tv r = *x;
    if (dt->kind == TV_DTYPE) {
        r.elt = dt->elt;
        r.dtype_span = dt->dtype_span;
        uint8_t b = dtype_bits(dt->dtype);
        if (b) {
            r.bits = b;
            r.is_float = false;
            if (r.idx)
                r.idx = kc_index_cast(c->a, r.idx, b);
        } else if (dt->dtype && (strstr(dt->dtype, "float") || strstr(dt->dtype, "bf16") ||
                                 strstr(dt->dtype, "fp"))) {
            r.is_float = true;
        }
    }
    return r;
}

static tv shape_value(tt_ctx *c, const tv *x)
{
    tv r = tv_unknown();
    if (x->shape_unknown)
        return r;
    r.kind = TV_TUPLE;
    r.ce = true;
    tv *el = kc_arena_alloc(c->a, (x->shape.rank ? x->shape.rank : 1) * sizeof(tv));
    for (unsigned i = 0; i < x->shape.rank; i++) {
        el[i] = tv_unknown();
        el[i].kind = TV_NUM;
        el[i].ce = true;
        const kc_dim *d = &x->shape.dims[i];
        if (d->value >= 0)
            el[i].idx = kc_index_const(c->a, d->value, 32, KC_SPACE_BLOCK);
        else if (d->symbol != KC_NONE)
            el[i].idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_SYMBOL, d->symbol, (kc_deps){0}), 32,
                                      KC_SPACE_BLOCK, NULL);
        el[i].sym = d->symbol;
    }
    r.tuple = el;
    r.ntuple = x->shape.rank;
    return r;
}

static tv expand_dims(tt_ctx *c, const tv *x, int64_t axis)
{
    if (x->shape_unknown || x->shape.rank >= KC_MAX_RANK)
        return *x;
    if (axis < 0)
        axis += x->shape.rank + 1;
    if (axis < 0 || axis > x->shape.rank)
        return *x;
    kc_shape s = {.rank = (uint8_t)(x->shape.rank + 1)};
    uint8_t map[KC_MAX_RANK];
    for (unsigned i = 0, j = 0; j < s.rank; j++) {
        if ((int64_t)j == axis) {
            s.dims[j].value = 1;
            s.dims[j].symbol = KC_NONE;
        } else {
            map[i] = (uint8_t)j;
            s.dims[j] = x->shape.dims[i++];
        }
    }
    tv r = *x;
    r.shape = s;
    if (x->idx)
        r.idx = kc_index_remap(c->a, x->idx, &s, map);
    return r;
}

/* tl.program_id, tl.num_programs: the program's index in the grid, the grid's size. */
static tv tl_program(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv ax = eval_opt(c, call_arg(md, call, 0, "axis"));
    int64_t axis = 0;
    tv_const(&ax, &axis);
    tv v = tv_unknown();
    v.kind = TV_NUM;
    kc_deps d = {0, KC_AF_PROGRAM, 0};
    if (name[0] == 'n')
        d.flags = 0;
    v.idx = kc_index_atom(c->a, kc_atom_make(name[0] == 'p' ? KC_ATOM_PROGRAM : KC_ATOM_GRID_DIM,
                                             (uint32_t)(axis & 3), d),
                          32, KC_SPACE_BLOCK, NULL);
    v.elt = TT_ELT_INT;
    return v;
}

/* tl.arange: a block of lanes, recorded with its length. */
static tv tl_arange(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode sn = call_arg(md, call, 0, "start"), en = call_arg(md, call, 1, "end");
    tv s = eval_opt(c, sn), e = eval_opt(c, en);
    int64_t sv = 0, ev;
    kc_arange ar;
    memset(&ar, 0, sizeof ar);
    ar.span = tt_span(call);
    ar.text = short_text(c, call);
    ar.len.value = -1;
    ar.len.symbol = KC_NONE;
    bool s_const = tv_const(&s, &sv);
    if (s_const && tv_const(&e, &ev))
        ar.len.value = ev - sv;
    if (s_const && sv == 0 && e.sym != KC_NONE)
        ar.len.symbol = e.sym;
    ar.start = s_const ? sv : 0;
    kc_vec_push(&c->k->aranges, ar);
    uint32_t id = c->k->aranges.len - 1;
    kc_shape shp = {.rank = 1};
    shp.dims[0] = ar.len;
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.shape = shp;
    kc_deps d = {1, KC_AF_THREAD, 0};
    const kc_index *lane = kc_index_atom(c->a, kc_atom_make(KC_ATOM_LANE, id, d), 32, KC_SPACE_BLOCK, &shp);
    v.idx = s_const ? (sv ? kc_index_add(c->a, lane, kc_index_const(c->a, sv, 32, KC_SPACE_BLOCK)) : lane)
                    : kc_index_add(c->a, lane, num_of(c, &s, ts_node_is_null(sn) ? call : sn).idx);
    if (!v.idx)
        v.idx = lane;
    v.elt = TT_ELT_INT;
    return v;
}

/* tl.zeros, tl.full, tl.empty: a fresh block of a shape and dtype. */
static tv tl_fill(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv sv = eval_opt(c, call_arg(md, call, 0, "shape"));
    tv dt = eval_opt(c, call_arg(md, call, !strcmp(name, "full") ? 2 : 1, "dtype"));
    tv v = tv_unknown();
    v.kind = TV_NUM;
    if (!shape_from(&sv, &v.shape))
        v.shape_unknown = true;
    int64_t x = 0;
    if (!strcmp(name, "full")) {
        tv fv = eval_opt(c, call_arg(md, call, 1, "value"));
        if (!tv_const(&fv, &x)) {
            kc_shape sh = v.shape;
            bool su = v.shape_unknown;
            v = make_opaque(c, call, tv_deps(&fv), &sh, 32);
            v.shape_unknown = su;
            v.is_float = true;
            v.elt = dt.kind == TV_DTYPE ? dt.elt : TT_ELT_UNKNOWN;
            v.dtype_span = dt.dtype_span;
            return v;
        }
    }
    if (dt.kind == TV_DTYPE) {
        v.elt = dt.elt;
        v.dtype_span = dt.dtype_span;
        v.is_float = dt.elt >= TT_ELT_FP8;
    }
    v.idx = kc_index_const(c->a, x, 32, KC_SPACE_BLOCK);
    kc_index *ix = kc_arena_alloc(c->a, sizeof *ix);
    *ix = *v.idx;
    ix->shape = v.shape;
    v.idx = ix;
    v.blank = true;
    return v;
}

/* tl.zeros_like, tl.full_like, tl.empty_like: a block of the shape of another. */
static tv tl_fill_like(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.shape = x.shape;
    v.shape_unknown = x.shape_unknown;
    v.idx = make_opaque(c, call, (kc_deps){0}, &v.shape, 32).idx;
    return v;
}

/* tl.load, tl.store, tl.atomic_*: memory accesses. */
static tv tl_load(tt_ctx *c, TSNode call, const char *name)
{
    return do_load(c, call, false, NULL);
}

static tv tl_store(tt_ctx *c, TSNode call, const char *name)
{
    return do_store(c, call, KC_ACC_STORE);
}

static tv tl_atomic(tt_ctx *c, TSNode call, const char *name)
{
    return do_store(c, call, KC_ACC_ATOMIC);
}

/* tl.make_block_ptr: a block pointer into a parameter. */
static tv tl_make_block_ptr(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode bn = call_arg(md, call, 0, "base");
    tv b = eval_opt(c, bn);
    tv bs = eval_opt(c, call_arg(md, call, 4, "block_shape"));
    tv r = tv_unknown();
    r.kind = TV_PTR;
    r.block_ptr = true;
    r.base = b.kind == TV_PTR ? b.base : KC_NONE;
    if (!shape_from(&bs, &r.shape))
        r.shape_unknown = true;
    tv offs = eval_opt(c, call_arg(md, call, 3, "offsets"));
    r.deps = tv_deps(&offs);
    r.deps.axes = 0;
    return r;
}

/* tl.advance: the block pointer moved by offsets. */
static tv tl_advance(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv p = eval_opt(c, call_arg(md, call, 0, "base"));
    tv o = eval_opt(c, call_arg(md, call, 1, "offsets"));
    kc_deps d = tv_deps(&o);
    d.axes = 0;
    p.deps = deps_or(p.deps, d);
    return p;
}

/* tl.sum, tl.max, tl.min, tl.argmax, ...: a reduction along an axis or of the whole block. */
static tv tl_reduce(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode xn = call_arg(md, call, 0, "input");
    tv x = eval_opt(c, xn);
    if (!strcmp(name, "sum"))
        check_narrow_sum(c, call, xn, &x);
    return reduce(c, call, &x, call_arg(md, call, 1, "axis"), false);
}

/* tl.cumsum, tl.cumprod, tl.associative_scan: a scan along an axis. */
static tv tl_scan(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    return reduce(c, call, &x, call_arg(md, call, 1, "axis"), true);
}

/* tl.dot, tl.dot_scaled: a matrix product, with its accumulator and output type. */
static tv tl_dot(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode an = call_arg(md, call, 0, "input"), bn = call_arg(md, call, 1, "other");
    tv a = eval_opt(c, an), b = eval_opt(c, bn);
    tv acc = eval_opt(c, call_arg(md, call, 2, "acc"));
    if (a.taint)
        observe(c, a.taint, an, "multiplied in tl.dot");
    if (b.taint)
        observe(c, b.taint, bn, "multiplied in tl.dot");
    kc_shape s = {0};
    bool su = true;
    if (!a.shape_unknown && !b.shape_unknown && a.shape.rank >= 2 && b.shape.rank >= 2) {
        s = a.shape;
        s.dims[s.rank - 1] = b.shape.dims[b.shape.rank - 1];
        su = false;
    }
    kc_deps d = deps_or(tv_deps(&a), tv_deps(&b));
    if (acc.kind != TV_NONE)
        d = deps_or(d, tv_deps(&acc));
    d.axes = (uint8_t)(su ? 0 : (d.axes ? (1u << s.rank) - 1 : 0));
    tv r = make_opaque(c, call, d, &s, 32);
    r.shape_unknown = su;
    r.from_dot = true;
    r.is_float = true;
    r.vague = is_vague(&a) || is_vague(&b);
    TSNode odn = call_arg(md, call, 99, "out_dtype");
    tv od = eval_opt(c, odn);
    if (od.kind == TV_DTYPE) {
        r.elt = od.elt;
        r.dtype_span = od.dtype_span;
        if (elt_low(od.elt))
            record_accum(c, call, NULL, &od, KC_ACCUM_DOT);
    } else {
        r.elt = a.elt == TT_ELT_INT || b.elt == TT_ELT_INT ? TT_ELT_INT : TT_ELT_FP32;
    }
    return r;
}

/* tl.view, tl.reshape: the block in another shape (a reorder unless guaranteed not to be). */
static tv tl_reshape(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode xn = call_arg(md, call, 0, "input"), sn = call_arg(md, call, 1, "shape");
    tv x = eval_opt(c, xn);
    TSNode crn = call_arg(md, call, 2, "can_reorder");
    bool cr = !ts_node_is_null(crn) && TT_IS(tt_unparen(crn), true);
    bool is_view = !strcmp(name, "view");
    return reshape(c, call, name, xn, &x, sn, is_view || cr, cr);
}

/* tl.trans, tl.permute: the axes permuted. */
static tv tl_permute(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    uint8_t perm[KC_MAX_RANK];
    unsigned rank = x.shape.rank;
    if (rank < 2 || x.shape_unknown)
        return x;
    for (unsigned i = 0; i < rank; i++)
        perm[i] = (uint8_t)i;
    if (call_nargs(call) > 1) {
        tv dims = eval(c, call_arg(md, call, 1, "dims"));
        if (dims.kind == TV_TUPLE && dims.ntuple == rank) {
            for (unsigned i = 0; i < rank; i++) {
                int64_t p;
                if (!tv_const(&dims.tuple[i], &p) || p < 0 || (unsigned)p >= rank)
                    return x;
                perm[i] = (uint8_t)p;
            }
        }
    } else {
        perm[rank - 2] = (uint8_t)(rank - 1);
        perm[rank - 1] = (uint8_t)(rank - 2);
    }
    return permute(c, call, &x, perm, rank);
}

/* tl.expand_dims: a unit axis inserted. */
static tv tl_expand_dims(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    tv ax = eval_opt(c, call_arg(md, call, 1, "axis"));
    int64_t a;
    return tv_const(&ax, &a) ? expand_dims(c, &x, a) : x;
}

/* tl.broadcast_to: the block broadcast to a shape. */
static tv tl_broadcast_to(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    tv sv = eval_opt(c, call_arg(md, call, 1, "shape"));
    kc_shape s;
    if (!shape_from(&sv, &s))
        return x;
    tv r = x;
    r.shape = s;
    if (x.idx && s.rank >= x.shape.rank)
        r.idx = kc_index_broadcast(c->a, x.idx, &s);
    r.deps = deps_to_rank(x.deps, x.shape.rank, s.rank);
    return r;
}

/* tl.multiple_of, tl.max_contiguous, tl.max_constancy, tl.constexpr: the value itself. */
static tv tl_hint(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    if (!strcmp(name, "constexpr"))
        x.ce = true;
    return x;
}

/* tl.cast: the value converted to a dtype. */
static tv tl_cast(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = eval_opt(c, call_arg(md, call, 0, "input"));
    tv dt = eval_opt(c, call_arg(md, call, 1, "dtype"));
    return cast(c, call, &x, &dt);
}

/* tl.debug_barrier: a barrier of the program's threads. */
static tv tl_debug_barrier(tt_ctx *c, TSNode call, const char *name)
{
    kc_barrier b = {.span = tt_span(call), .name = "tl.debug_barrier", .guard = c->cond, .loop = c->loop};
    kc_vec_push(&c->k->barriers, b);
    tv r = tv_unknown();
    r.kind = TV_NONE;
    return r;
}

/* tl.static_assert, tl.static_print, tl.device_print, tl.device_assert, tl.assume: their
 * arguments are evaluated, and an asserted `N % BLOCK == 0` noted (KC303). */
static tv tl_assert(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode args = tt_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++)
        if (!TT_IS(ts_node_named_child(args, i), comment))
            (void)eval(c, ts_node_named_child(args, i));
    if (strcmp(name, "static_print") && strcmp(name, "device_print"))
        note_multiple(c, call_arg(md, call, 0, "cond"), call);
    tv r = tv_unknown();
    r.kind = TV_NONE;
    return r;
}

/* tl.rand, tl.randn, tl.randint, tl.philox, ...: random numbers (their order carries no meaning). */
static tv tl_random(tt_ctx *c, TSNode call, const char *name)
{
    tv r = elementwise(c, call, true);
    r.random = true;
    return r;
}

/* tl.cdiv: element-wise, an integer result. */
static tv tl_cdiv(tt_ctx *c, TSNode call, const char *name)
{
    tv r = elementwise(c, call, false);
    return r;
}

/* tl.where: element-wise; the type of the two values it selects between. */
static tv tl_where(tt_ctx *c, TSNode call, const char *name)
{
    return elementwise_x(c, call, false, true, EW_ELT_PROMOTE_BUT_FIRST);
}

/* Every other tl.* call is element-wise: math, comparisons by name, casts.
 * Builtins outside the list below may change the shape (join, split, cat,
 * gather, sort, histogram, ...): their shape is vague. */
static tv tl_elementwise(tt_ctx *c, TSNode call, const char *name)
{
    static const char *const exact_ew[] = {
        "abs", "ceil", "clamp", "cos", "div_rn", "erf", "exp", "exp2", "fdiv", "floor", "fma", "log",
        "log2", "maximum", "minimum", "rsqrt", "sigmoid", "sin", "sqrt", "sqrt_rn", "umulhi", "softmax",
        "isnan", "isinf", "tanh", "log1p", "expm1", "pow", "erfc", "floordiv", "signbit", NULL,
    };
    bool exact = false;
    for (unsigned i = 0; exact_ew[i]; i++)
        exact |= !strcmp(name, exact_ew[i]);
    bool keeps_type = !strcmp(name, "maximum") || !strcmp(name, "minimum") || !strcmp(name, "clamp") ||
                      !strcmp(name, "abs");
    bool fl = !keeps_type && strcmp(name, "umulhi");
    return elementwise_x(c, call, fl, exact, keeps_type ? EW_ELT_PROMOTE : EW_ELT_UNKNOWN);
}

typedef tv (*tl_call_fn)(tt_ctx *c, TSNode call, const char *name);

/* The tl.* calls by name, tried in this order; `prefix`: every name that
 * starts with it (tl.atomic_add, tl.randint). */
static const struct tl_call {
    const char *name;
    bool prefix;
    tl_call_fn fn;
} tl_calls[] = {
    {"program_id", false, tl_program},
    {"num_programs", false, tl_program},
    {"arange", false, tl_arange},
    {"zeros", false, tl_fill},
    {"full", false, tl_fill},
    {"empty", false, tl_fill},
    {"zeros_like", false, tl_fill_like},
    {"full_like", false, tl_fill_like},
    {"empty_like", false, tl_fill_like},
    {"load", false, tl_load},
    {"store", false, tl_store},
    {"atomic_", true, tl_atomic},
    {"make_block_ptr", false, tl_make_block_ptr},
    {"advance", false, tl_advance},
    {"sum", false, tl_reduce},
    {"max", false, tl_reduce},
    {"min", false, tl_reduce},
    {"argmax", false, tl_reduce},
    {"argmin", false, tl_reduce},
    {"xor_sum", false, tl_reduce},
    {"reduce", false, tl_reduce},
    {"reduce_or", false, tl_reduce},
    {"prod", false, tl_reduce},
    {"cumsum", false, tl_scan},
    {"cumprod", false, tl_scan},
    {"associative_scan", false, tl_scan},
    {"dot", false, tl_dot},
    {"dot_scaled", false, tl_dot},
    {"view", false, tl_reshape},
    {"reshape", false, tl_reshape},
    {"trans", false, tl_permute},
    {"permute", false, tl_permute},
    {"expand_dims", false, tl_expand_dims},
    {"broadcast_to", false, tl_broadcast_to},
    {"multiple_of", false, tl_hint},
    {"max_contiguous", false, tl_hint},
    {"max_constancy", false, tl_hint},
    {"constexpr", false, tl_hint},
    {"cast", false, tl_cast},
    {"debug_barrier", false, tl_debug_barrier},
    {"static_assert", false, tl_assert},
    {"static_print", false, tl_assert},
    {"device_print", false, tl_assert},
    {"device_assert", false, tl_assert},
    {"assume", false, tl_assert},
    {"rand", true, tl_random},
    {"philox", false, tl_random},
    {"cdiv", false, tl_cdiv},
    {"where", false, tl_where},
};

/* A call of a triton.language function, `name` its name there ("load", "atomic_add"). */
static tv eval_tl_call(tt_ctx *c, TSNode call, const char *name)
{
    for (size_t i = 0; i < sizeof tl_calls / sizeof *tl_calls; i++) {
        const struct tl_call *e = &tl_calls[i];
        if (e->prefix ? !strncmp(name, e->name, strlen(e->name)) : !strcmp(name, e->name))
            return e->fn(c, call, name);
    }
    return tl_elementwise(c, call, name);
}

/* Method calls on values: x.to(...), x.sum(axis=1), x.reshape(...). */
static tv eval_method(tt_ctx *c, TSNode call, TSNode objn, const char *meth)
{
    tt_module *md = c->mod;
    tv x = eval(c, objn);
    if (!strcmp(meth, "to") || !strcmp(meth, "cast")) {
        tv dt = eval_opt(c, call_arg(md, call, 0, "dtype"));
        return cast(c, call, &x, &dt);
    }
    if (!strcmp(meth, "sum") || !strcmp(meth, "max") || !strcmp(meth, "min") ||
        !strcmp(meth, "argmax") || !strcmp(meth, "argmin") || !strcmp(meth, "reduce")) {
        if (!strcmp(meth, "sum"))
            check_narrow_sum(c, call, objn, &x);
        return reduce(c, call, &x, call_arg(md, call, 0, "axis"), false);
    }
    if (!strcmp(meth, "cumsum") || !strcmp(meth, "cumprod"))
        return reduce(c, call, &x, call_arg(md, call, 0, "axis"), true);
    if (!strcmp(meth, "reshape") || !strcmp(meth, "view")) {
        TSNode sn = call_arg(md, call, 0, "shape");
        if (call_nargs(call) > 1 && ts_node_is_null(call_arg(md, call, 1, NULL)) == false &&
            !TT_IS(call_arg(md, call, 1, NULL), keyword_argument)) {
            /* x.reshape(A, B) with the dims as separate arguments */
            tv r = x;
            r.shape_unknown = true;
            return r;
        }
        TSNode crn = call_arg(md, call, 1, "can_reorder");
        bool cr = !ts_node_is_null(crn) && TT_IS(tt_unparen(crn), true);
        return reshape(c, call, meth, objn, &x, sn, !strcmp(meth, "view") || cr, cr);
    }
    if (!strcmp(meth, "trans") || !strcmp(meth, "T")) {
        if (x.shape.rank == 2 && !x.shape_unknown) {
            uint8_t perm[2] = {1, 0};
            return permute(c, call, &x, perm, 2);
        }
        return x;
    }
    if (!strcmp(meth, "expand_dims")) {
        tv ax = eval_opt(c, call_arg(md, call, 0, "axis"));
        int64_t a;
        return tv_const(&ax, &a) ? expand_dims(c, &x, a) : x;
    }
    if (!strcmp(meth, "broadcast_to")) {
        tv r = x;
        return r;
    }
    if (!strcmp(meth, "__getitem__"))
        return tv_unknown();
    tv r = make_opaque(c, call, tv_deps(&x), &x.shape, x.bits);
    r.shape_unknown = x.shape_unknown;
    r.taint = x.taint;
    return r;
}

static bool is_pointer_param(tt_ctx *c, const char *name)
{
    for (uint32_t i = 0; i < c->pointer_params.len; i++)
        if (!strcmp(c->pointer_params.data[i], name))
            return true;
    return false;
}

static tv eval_call(tt_ctx *c, TSNode call)
{
    tt_module *md = c->mod;
    TSNode f = tt_field(call, "function");
    const char *q = tt_qualify(md, f);
    const char *tl = tt_tl_name(q);
    if (tl) {
        /* tl.math.exp, tl.extra.cuda.libdevice.x: element-wise */
        if (strchr(tl, '.')) {
            tv r = elementwise(c, call, true);
            const char *last = strrchr(tl, '.') + 1;
            if (strstr(last, "philox") || !strncmp(last, "rand", 4))
                r.random = true;
            return r;
        }
        return eval_tl_call(c, call, tl);
    }
    if (q && !strcmp(q, "triton.cdiv")) {
        return elementwise(c, call, false);
    }
    if (q && (!strncmp(q, "triton.", 7) || strstr(q, "libdevice")))
        return elementwise(c, call, true);
    /* Method call on a value? */
    if (TT_IS(f, attribute)) {
        TSNode obj = tt_field(f, "object");
        const char *meth = tt_text(md, tt_field(f, "attribute"));
        /* the object must be a value, not a module */
        TSNode leftmost = obj;
        while (TT_IS(leftmost, attribute))
            leftmost = tt_field(leftmost, "object");
        if (!TT_IS(leftmost, identifier) || env_get(&c->env, tt_text(md, leftmost)))
            return eval_method(c, call, obj, meth);
    }
    if (TT_IS(f, identifier)) {
        const char *fname = tt_text(md, f);
        if (!strcmp(fname, "min") || !strcmp(fname, "max") || !strcmp(fname, "abs") ||
            !strcmp(fname, "int") || !strcmp(fname, "float") || !strcmp(fname, "len") ||
            !strcmp(fname, "bool"))
            return elementwise(c, call, !strcmp(fname, "float"));
        if (!strcmp(fname, "range")) {
            tv r = tv_unknown();
            return r;
        }
    }
    /* A call of another @triton.jit function or an unknown helper: its
     * result depends on its arguments. A random-number helper (philox,
     * randint, uint_to_uniform_float of random bits) yields random values.
     * Its shape is not known. */
    tv r = elementwise_x(c, call, false, false, EW_ELT_UNKNOWN);
    const char *fn = tt_text(md, f);
    if (strstr(fn, "philox") || strstr(fn, "rand"))
        r.random = true;
    return r;
}

static tv eval_attribute(tt_ctx *c, TSNode n)
{
    const char *q = tt_qualify(c->mod, n);
    const char *tl = tt_tl_name(q);
    if (tl && !env_get(&c->env, "tl_shadowed")) {
        tv v = tv_unknown();
        v.kind = TV_DTYPE;
        v.ce = true;
        v.dtype = kc_arena_strdup(c->a, tl);
        v.elt = elt_of_dtype_name(tl);
        v.dtype_span = tt_span(n);
        return v;
    }
    TSNode objn = tt_field(n, "object");
    const char *attr = tt_text(c->mod, tt_field(n, "attribute"));
    TSNode leftmost = objn;
    while (TT_IS(leftmost, attribute))
        leftmost = tt_field(leftmost, "object");
    if (TT_IS(leftmost, identifier) && !env_get(&c->env, tt_text(c->mod, leftmost))) {
        /* a module attribute we do not know (e.g. a dtype from another module) */
        tv v = tv_unknown();
        v.ce = true;
        return v;
    }
    tv x = eval(c, objn);
    if (!strcmp(attr, "shape"))
        return shape_value(c, &x);
    if (!strcmp(attr, "T") && x.shape.rank == 2 && !x.shape_unknown) {
        uint8_t perm[2] = {1, 0};
        return permute(c, n, &x, perm, 2);
    }
    if (!strcmp(attr, "dtype") || !strcmp(attr, "type") || !strcmp(attr, "element_ty")) {
        tv v = tv_unknown();
        v.kind = TV_DTYPE;
        v.ce = true;
        return v;
    }
    tv v = tv_unknown();
    v.deps = tv_deps(&x);
    return v;
}

static tv eval_tuple(tt_ctx *c, TSNode n)
{
    uint32_t cnt = ts_node_named_child_count(n), k = 0;
    tv *el = kc_arena_alloc(c->a, (cnt ? cnt : 1) * sizeof(tv));
    bool ce = true;
    for (uint32_t i = 0; i < cnt; i++) {
        TSNode e = ts_node_named_child(n, i);
        if (TT_IS(e, comment))
            continue;
        el[k] = eval(c, e);
        ce = ce && el[k].ce;
        k++;
    }
    tv v = tv_unknown();
    v.kind = TV_TUPLE;
    v.tuple = el;
    v.ntuple = k;
    v.ce = ce;
    return v;
}

/* A name: a local, None, or a global of the module (a compile-time constant). */
static tv eval_name(tt_ctx *c, TSNode n)
{
    tt_module *md = c->mod;
    const char *name = tt_text(md, n);
    tv *v = env_get(&c->env, name);
    if (v)
        return *v;
    if (!strcmp(name, "None")) {
        tv r = tv_unknown();
        r.kind = TV_NONE;
        r.ce = true;
        return r;
    }
    /* Globals used in a jit function are compile-time constants. */
    tv r = tv_unknown();
    r.ce = true;
    int64_t gv;
    TSNode def = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(md->root); i++) {
        TSNode st = ts_node_named_child(md->root, i);
        if (!TT_IS(st, expression_statement) || ts_node_named_child_count(st) == 0)
            continue;
        TSNode as = ts_node_named_child(st, 0);
        if (TT_IS(as, assignment) && tt_text_eq(md, tt_field(as, "left"), name))
            def = tt_field(as, "right");
    }
    if (!ts_node_is_null(def)) {
        TSNode d = tt_unparen(def);
        if (TT_IS(d, call) && call_nargs(d) == 1) { /* tl.constexpr(128) */
            const char *q = tt_qualify(md, tt_field(d, "function"));
            if (q && tt_tl_name(q) && !strcmp(tt_tl_name(q), "constexpr"))
                d = tt_unparen(call_arg(md, d, 0, NULL));
        }
        if (tt_int_literal(md, d, &gv))
            return make_const(c, gv);
    }
    return r;
}

/* An integer literal (64 bits when it does not fit in 32). */
static tv eval_integer(tt_ctx *c, TSNode n)
{
    tt_module *md = c->mod;
    int64_t x;
    if (tt_int_literal(md, n, &x)) {
        tv v = make_const(c, x);
        if (x > INT32_MAX || x < INT32_MIN)
            v.bits = 64;
        return v;
    }
    tv v = tv_unknown();
    v.ce = true;
    return v;
}

/* A float literal: a Python float, which takes the type of the block it meets. */
static tv eval_float(tt_ctx *c, TSNode n)
{
    tv v = tv_unknown();
    v.kind = TV_NUM;
    v.ce = true;
    v.is_float = true;
    v.elt = TT_ELT_PYFLOAT;
    v.idx = make_opaque(c, n, (kc_deps){0}, NULL, 32).idx;
    return v;
}

/* -x, +x, ~x */
static tv eval_unary(tt_ctx *c, TSNode n)
{
    TSNode an = tt_field(n, "argument");
    tv a = eval(c, an);
    const char *op = op_of(n);
    if (!strcmp(op, "-") && a.kind == TV_NUM && a.idx) {
        tv r = a;
        r.idx = kc_index_scale(c->a, a.idx, -1);
        if (!r.idx)
            r = make_opaque(c, n, tv_deps(&a), &a.shape, a.bits);
        r.ce = a.ce;
        r.is_float = a.is_float;
        r.taint = a.taint;
        return r;
    }
    if (!strcmp(op, "+"))
        return a;
    if (a.kind == TV_BOOL) {
        tv r = a;
        r.npreds = 0;
        r.preds = NULL;
        return r;
    }
    tv r = num_of(c, &a, an);
    tv o = make_opaque(c, n, tv_deps(&r), &r.shape, r.bits);
    o.ce = a.ce;
    o.taint = a.taint;
    return o;
}

/* `not x`, on a block a KC305 candidate */
static tv eval_not(tt_ctx *c, TSNode n)
{
    tv a = eval(c, tt_field(n, "argument"));
    tv r = tv_unknown();
    r.kind = TV_BOOL;
    r.shape = a.shape;
    r.deps = tv_deps(&a);
    r.ce = a.ce;
    r.taint = a.taint;
    r.vague = is_vague(&a);
    r.elt = TT_ELT_BOOL;
    r.logic_nonbool = a.kind != TV_BOOL || a.logic_nonbool;
    note_block_logic(c, n, &r);
    return r;
}

/* `a and b`, `a or b`, on blocks a KC305 candidate */
static tv eval_boolean(tt_ctx *c, TSNode n)
{
    TSNode l = tt_field(n, "left"), r = tt_field(n, "right");
    tv a = eval(c, l), b = eval(c, r);
    tv res = bool_combine(c, &a, &b, !strcmp(op_of(n), "and"));
    res.logic_nonbool = a.kind != TV_BOOL || b.kind != TV_BOOL || a.logic_nonbool || b.logic_nonbool;
    note_block_logic(c, n, &res);
    return res;
}

/* a < b < c: pairwise, and-ed */
static tv eval_comparison(tt_ctx *c, TSNode n)
{
    uint32_t cn = ts_node_child_count(n);
    TSNode prev = {0};
    tv pv = tv_unknown(), acc = tv_unknown();
    bool have = false;
    const char *op = NULL;
    for (uint32_t i = 0; i < cn; i++) {
        TSNode ch = ts_node_child(n, i);
        if (!ts_node_is_named(ch)) {
            op = ts_node_type(ch);
            continue;
        }
        if (TT_IS(ch, comment))
            continue;
        tv cv = eval(c, ch);
        if (!ts_node_is_null(prev) && op) {
            tv cmp = compare(c, n, op, &pv, &cv, prev, ch);
            acc = have ? bool_combine(c, &acc, &cmp, true) : cmp;
            have = true;
        }
        prev = ch;
        pv = cv;
    }
    return have ? acc : tv_unknown();
}

static tv eval_inner(tt_ctx *c, TSNode n)
{
    if (TT_IS(n, parenthesized_expression)) {
        TSNode in = tt_unparen(n);
        if (ts_node_eq(in, n))
            return ts_node_named_child_count(n) ? eval(c, ts_node_named_child(n, 0)) : tv_unknown();
        return eval(c, in);
    }
    if (TT_IS(n, identifier))
        return eval_name(c, n);
    if (TT_IS(n, integer))
        return eval_integer(c, n);
    if (TT_IS(n, float))
        return eval_float(c, n);
    if (TT_IS(n, true) || TT_IS(n, false)) {
        tv v = make_const(c, TT_IS(n, true));
        v.kind = TV_BOOL;
        return v;
    }
    if (TT_IS(n, none)) {
        tv v = tv_unknown();
        v.kind = TV_NONE;
        v.ce = true;
        return v;
    }
    if (TT_IS(n, string) || TT_IS(n, concatenated_string)) {
        tv v = tv_unknown();
        v.kind = TV_STR;
        v.ce = true;
        return v;
    }
    if (TT_IS(n, binary_operator)) {
        TSNode l = tt_field(n, "left"), r = tt_field(n, "right");
        tv a = eval(c, l), b = eval(c, r);
        return binop(c, n, op_of(n), a, b, l, r);
    }
    if (TT_IS(n, unary_operator))
        return eval_unary(c, n);
    if (TT_IS(n, not_operator))
        return eval_not(c, n);
    if (TT_IS(n, boolean_operator))
        return eval_boolean(c, n);
    if (TT_IS(n, comparison_operator))
        return eval_comparison(c, n);
    if (TT_IS(n, conditional_expression)) {
        /* a if cond else b */
        TSNode an = ts_node_named_child(n, 0), cn = ts_node_named_child(n, 1), bn = ts_node_named_child(n, 2);
        tv cv = eval(c, cn), a = eval(c, an), b = eval(c, bn);
        return merge(c, n, NULL, &a, &b, tv_deps(&cv));
    }
    if (TT_IS(n, call))
        return eval_call(c, n);
    if (TT_IS(n, attribute))
        return eval_attribute(c, n);
    if (TT_IS(n, subscript))
        return subscript(c, n);
    if (TT_IS(n, tuple) || TT_IS(n, expression_list) || TT_IS(n, list))
        return eval_tuple(c, n);
    if (TT_IS(n, keyword_argument))
        return eval(c, tt_field(n, "value"));
    return tv_unknown();
}

static tv eval(tt_ctx *c, TSNode n)
{
    if (ts_node_is_null(n))
        return tv_unknown();
    if (c->depth >= TT_MAX_DEPTH || stack_exhausted(c))
        return tv_unknown();
    c->depth++;
    tv v = eval_inner(c, n);
    c->depth--;
    return v;
}

/* ---- statements ---- */

static void assign_target(tt_ctx *c, TSNode target, tv v)
{
    target = tt_unparen(target);
    if (TT_IS(target, identifier)) {
        const char *name = tt_text(c->mod, target);
        /* Name the load that produced the value, for messages. */
        if (v.kind == TV_NUM && v.idx && v.idx->nmono == 1 && v.idx->mono[0].nfac == 1 &&
            v.idx->mono[0].coef == 1 && v.idx->mono[0].fac[0].kind == KC_ATOM_DATA) {
            uint32_t id = v.idx->mono[0].fac[0].id;
            if (id < c->k->accesses.len && !c->k->accesses.data[id].value_name)
                c->k->accesses.data[id].value_name = name;
        }
        env_set(c, name, v);
        return;
    }
    if (TT_IS(target, pattern_list) || TT_IS(target, tuple_pattern) ||
        TT_IS(target, tuple) || TT_IS(target, list_pattern)) {
        uint32_t n = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < n; i++) {
            tv el = tv_unknown();
            if (v.kind == TV_TUPLE && v.ntuple == n) {
                el = v.tuple[i];
            } else {
                el.deps = tv_deps(&v);
                el.random = v.random;
                el.taint = v.taint;
            }
            assign_target(c, ts_node_named_child(target, i), el);
        }
    }
    if (TT_IS(target, subscript)) {
        /* res[0, :] = v: the block now also holds v's values. */
        TSNode base = tt_unparen(tt_field(target, "value"));
        tv *p = TT_IS(base, identifier) ? env_get(&c->env, tt_text(c->mod, base)) : NULL;
        if (p && p->kind == TV_NUM) {
            p->random = v.random && (p->random || p->blank);
            p->blank = false;
            p->taint |= v.taint;
            kc_deps d = deps_or(tv_deps(p), tv_deps(&v));
            d.axes &= (uint8_t)((1u << p->shape.rank) - 1);
            bool rnd = p->random;
            uint64_t taint = p->taint;
            *p = make_opaque(c, target, d, &p->shape, p->bits);
            p->random = rnd;
            p->taint = taint;
        }
    }
    /* attributes as targets: nothing to track */
}

static void exec_assignment(tt_ctx *c, TSNode as)
{
    TSNode left = tt_field(as, "left"), right = tt_field(as, "right");
    if (TT_IS(right, assignment)) {
        exec_assignment(c, right);
        right = tt_field(right, "right");
        while (TT_IS(right, assignment))
            right = tt_field(right, "right");
    }
    if (ts_node_is_null(right))
        return; /* a bare annotation */
    /* acc = acc + x, acc = tl.dot(a, b, acc): an accumulation (KC502). */
    tv before = tv_unknown();
    const char *var = NULL;
    if (TT_IS(tt_unparen(left), identifier)) {
        var = tt_text(c->mod, tt_unparen(left));
        tv *bp = env_get(&c->env, var);
        TSNode r = tt_unparen(right);
        bool sum = false, dot = false;
        if (bp && TT_IS(r, binary_operator) && (!strcmp(op_of(r), "+") || !strcmp(op_of(r), "-"))) {
            TSNode l0 = tt_unparen(tt_field(r, "left")), r0 = tt_unparen(tt_field(r, "right"));
            sum = tt_text_eq(c->mod, l0, var) || (!strcmp(op_of(r), "+") && tt_text_eq(c->mod, r0, var));
            dot = sum && (is_dot_into(c, l0, NULL) || is_dot_into(c, r0, NULL));
        } else if (bp && is_dot_into(c, r, var)) {
            dot = true;
        }
        if (bp && (sum || dot)) {
            before = *bp;
            check_accumulation(c, as, var, &before, dot ? KC_ACCUM_DOT : KC_ACCUM_SUM);
        } else {
            var = NULL;
        }
    }
    tv v = eval(c, right);
    /* A loop-carried value keeps its type in Triton. */
    if (var && elt_low(before.elt) && v.elt == TT_ELT_UNKNOWN) {
        v.elt = before.elt;
        v.dtype_span = before.dtype_span;
    }
    assign_target(c, left, v);
}

static void exec_augmented(tt_ctx *c, TSNode as)
{
    TSNode left = tt_field(as, "left"), right = tt_field(as, "right");
    tv a = eval(c, left), b = eval(c, right);
    char op[4] = {0};
    const char *full = op_of(as);
    size_t l = strlen(full);
    if (l >= 2 && l <= 4) {
        memcpy(op, full, l - 1);
        op[l - 1] = '\0';
    }
    if ((!strcmp(op, "+") || !strcmp(op, "-")) && TT_IS(tt_unparen(left), identifier))
        check_accumulation(c, as, tt_text(c->mod, tt_unparen(left)), &a,
                           is_dot_into(c, right, NULL) ? KC_ACCUM_DOT : KC_ACCUM_SUM);
    tv r = binop(c, as, op, a, b, left, right);
    if (elt_low(a.elt) && r.elt == TT_ELT_UNKNOWN) {
        r.elt = a.elt;
        r.dtype_span = a.dtype_span;
    }
    assign_target(c, left, r);
}

/* Names assigned anywhere in a statement list (for loop-carried values). */
static void collect_assigned(tt_ctx *c, TSNode n, tt_names *out, int depth)
{
    if (depth > TT_MAX_DEPTH || ts_node_is_null(n))
        return;
    if (TT_IS(n, function_definition) || TT_IS(n, class_definition) || TT_IS(n, lambda))
        return;
    TSNode target = {0};
    if (TT_IS(n, assignment) || TT_IS(n, augmented_assignment))
        target = tt_field(n, "left");
    else if (TT_IS(n, for_statement))
        target = tt_field(n, "left");
    if (!ts_node_is_null(target)) {
        TSNode items[64];
        uint32_t k = 0;
        if (TT_IS(target, pattern_list) || TT_IS(target, tuple_pattern) || TT_IS(target, list_pattern)) {
            uint32_t cnt = ts_node_named_child_count(target);
            for (uint32_t i = 0; i < cnt && k < 64; i++)
                items[k++] = ts_node_named_child(target, i);
        } else {
            items[k++] = target;
        }
        for (uint32_t i = 0; i < k; i++) {
            TSNode t = items[i];
            if (TT_IS(t, subscript)) /* x[0, :] = v modifies x */
                t = tt_unparen(tt_field(t, "value"));
            if (TT_IS(t, identifier))
                kc_vec_push(out, tt_text(c->mod, t));
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        collect_assigned(c, ts_node_named_child(n, i), out, depth + 1);
}

static void make_loop_carried(tt_ctx *c, TSNode loopn, TSNode body, uint32_t loop)
{
    tt_names names = {0};
    collect_assigned(c, body, &names, 0);
    kc_deps ld = {0, 0, kc_loop_bit(loop)};
    for (uint32_t i = 0; i < names.len; i++) {
        tv *v = env_get(&c->env, names.data[i]);
        if (!v)
            continue;
        if ((v->kind == TV_NUM || v->kind == TV_PTR) && !v->block_ptr) {
            const kc_index *carry = kc_index_atom(
                c->a, kc_atom_make(KC_ATOM_OPAQUE, kc_kernel_add_opaque(c->m, c->k, tt_span(loopn), names.data[i]), ld),
                64, KC_SPACE_BLOCK, NULL);
            const kc_index *sum = v->idx ? kc_index_add(c->a, v->idx, carry) : carry;
            v->idx = sum ? sum : make_opaque(c, loopn, deps_or(tv_deps(v), ld), &v->shape, 64).idx;
        } else {
            v->deps = deps_or(v->deps, ld);
        }
        v->ce = false;
    }
    kc_vec_free(&names);
}

static uint32_t add_cond(tt_ctx *c, TSNode n, const tv *cv, bool negated)
{
    kc_cond cd;
    memset(&cd, 0, sizeof cd);
    cd.id = c->k->conds.len;
    cd.parent = c->cond;
    cd.loop = c->loop;
    cd.span = tt_span(n);
    cd.text = short_text(c, n);
    cd.deps = tv_deps(cv);
    cd.negated = negated;
    if (!negated) {
        cd.npreds = cv->npreds;
        cd.preds = cv->preds;
    }
    kc_vec_push(&c->k->conds, cd);
    return cd.id;
}

static void exec_if(tt_ctx *c, TSNode st)
{
    TSNode condn = tt_field(st, "condition");
    tv cv = eval(c, condn);
    kc_deps cd = tv_deps(&cv);
    uint32_t saved = c->cond;
    tt_env before = env_copy(&c->env);
    c->cond = add_cond(c, condn, &cv, false);
    exec_block(c, tt_field(st, "consequence"));
    tt_env then_env = c->env;
    c->env = before;
    /* elif / else chains */
    uint32_t n = ts_node_named_child_count(st);
    bool had_else = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode alt = ts_node_named_child(st, i);
        if (TT_IS(alt, elif_clause)) {
            TSNode ec = tt_field(alt, "condition");
            tv ev = eval(c, ec);
            cd = deps_or(cd, tv_deps(&ev));
            c->cond = add_cond(c, ec, &ev, false);
            tt_env b2 = env_copy(&c->env);
            exec_block(c, tt_field(alt, "consequence"));
            tt_env e2 = c->env;
            c->env = b2;
            env_merge(c, alt, &then_env, &e2, cd);
            kc_vec_free(&e2.vars);
        } else if (TT_IS(alt, else_clause)) {
            c->cond = add_cond(c, condn, &cv, true);
            exec_block(c, tt_field(alt, "body"));
            had_else = true;
        }
    }
    (void)had_else;
    env_merge(c, st, &c->env, &then_env, cd);
    kc_vec_free(&then_env.vars);
    c->cond = saved;
}

static int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

/* The bounds of a `for` over range(...), tl.range(...) or
 * tl.static_range(...): their expressions (null when not written) and
 * values. */
typedef struct range_bounds {
    TSNode startn, endn, stepn;
    tv start, end, step;
} range_bounds;

/* Is `right`, what a `for` iterates over, a call of range, tl.range or
 * tl.static_range? Then sets the loop's kind, callee and unroll request
 * in `lp` and evaluates its bounds into `rb`. */
static bool range_header(tt_ctx *c, TSNode right, kc_loop *lp, range_bounds *rb)
{
    tt_module *md = c->mod;
    if (!TT_IS(right, call))
        return false;
    TSNode f = tt_field(right, "function");
    const char *q = tt_qualify(md, f);
    const char *tl = tt_tl_name(q);
    bool builtin_range = TT_IS(f, identifier) && tt_text_eq(md, f, "range");
    if (!builtin_range && !(tl && (!strcmp(tl, "range") || !strcmp(tl, "static_range"))))
        return false;
    lp->callee_span = tt_span(f);
    lp->callee_text = tt_text(md, f);
    if (tl && !strcmp(tl, "static_range")) {
        lp->kind = KC_LOOP_STATIC_RANGE;
        lp->unroll = KC_UNROLL_FULL;
    } else if (tl) {
        lp->kind = KC_LOOP_TL_RANGE;
        TSNode uf = call_arg(md, right, 99, "loop_unroll_factor");
        int64_t u;
        if (!ts_node_is_null(uf) && tt_int_literal(md, uf, &u)) {
            lp->unroll = u <= 1 ? KC_UNROLL_DISABLE : KC_UNROLL_COUNT;
            lp->unroll_count = u;
            lp->unroll_span = tt_span(uf);
        }
    }
    uint32_t na = 0;
    TSNode args = tt_field(right, "arguments");
    TSNode pos[3];
    uint32_t cnt = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < cnt && na < 3; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, keyword_argument) || TT_IS(a, comment))
            continue;
        pos[na++] = a;
    }
    if (na == 1) {
        rb->endn = pos[0];
    } else if (na >= 2) {
        rb->startn = pos[0];
        rb->endn = pos[1];
        if (na == 3)
            rb->stepn = pos[2];
    }
    if (!ts_node_is_null(rb->startn))
        rb->start = eval(c, rb->startn);
    if (!ts_node_is_null(rb->endn))
        rb->end = eval(c, rb->endn);
    if (!ts_node_is_null(rb->stepn))
        rb->step = eval(c, rb->stepn);
    return true;
}

/* What the bounds of a range loop say: its bounds and trip count (as a
 * number when constant, and as a formula of the source names), the
 * runtime parameter in a tl.static_range bound, and the end as a size
 * (`line`: the loop's). */
static void range_facts(tt_ctx *c, kc_loop *lp, const range_bounds *rb, uint32_t line)
{
    const tv *start = &rb->start, *end = &rb->end, *step = &rb->step;
    lp->start = start->kind == TV_NUM ? start->idx : NULL;
    lp->end = end->kind == TV_NUM ? end->idx : NULL;
    lp->step = step->kind == TV_NUM ? step->idx : NULL;
    lp->start_text = ts_node_is_null(rb->startn) ? "0" : short_text(c, rb->startn);
    lp->end_text = ts_node_is_null(rb->endn) ? "?" : short_text(c, rb->endn);
    lp->step_text = ts_node_is_null(rb->stepn) ? "1" : short_text(c, rb->stepn);
    int64_t s0, e0, st0;
    if (tv_const(start, &s0) && tv_const(end, &e0) && tv_const(step, &st0) && st0 != 0) {
        lp->trip_count = st0 > 0 ? (e0 > s0 ? ceil_div(e0 - s0, st0) : 0)
                                 : (s0 > e0 ? ceil_div(s0 - e0, -st0) : 0);
    }
    /* The trip count as a formula of the source names. */
    bool zero_start = ts_node_is_null(rb->startn) || (tv_const(start, &s0) && s0 == 0);
    bool unit_step = ts_node_is_null(rb->stepn) || (tv_const(step, &st0) && st0 == 1);
    if (zero_start && unit_step)
        lp->trip_text = lp->end_text;
    else if (zero_start)
        lp->trip_text = kc_arena_printf(c->a, "ceil(%s / %s)", paren_ops(c->a, lp->end_text),
                                        paren_ops(c->a, lp->step_text));
    else if (unit_step)
        lp->trip_text = kc_arena_printf(c->a, "%s - %s", lp->end_text, paren_ops(c->a, lp->start_text));
    else
        lp->trip_text = kc_arena_printf(c->a, "ceil((%s - %s) / %s)", lp->end_text, paren_ops(c->a, lp->start_text),
                                        paren_ops(c->a, lp->step_text));
    /* static_range needs compile-time bounds. */
    if (lp->kind == KC_LOOP_STATIC_RANGE) {
        const tv *bv[3] = {start, end, step};
        TSNode bn[3] = {rb->startn, rb->endn, rb->stepn};
        for (int i = 0; i < 3; i++) {
            if (ts_node_is_null(bn[i]) || bv[i]->ce)
                continue;
            lp->runtime_bound_span = tt_span(bn[i]);
            /* name the runtime parameter in it */
            if (bv[i]->idx)
                for (unsigned mi = 0; mi < bv[i]->idx->nmono && lp->runtime_bound_symbol == KC_NONE; mi++)
                    for (unsigned f = 0; f < bv[i]->idx->mono[mi].nfac; f++) {
                        const kc_atom *at = &bv[i]->idx->mono[mi].fac[f];
                        if (at->kind == KC_ATOM_SYMBOL && at->id < c->k->symbols.len &&
                            c->k->symbols.data[at->id].kind == KC_SYM_PARAM) {
                            lp->runtime_bound_symbol = at->id;
                            break;
                        }
                    }
            break;
        }
    }
    char *ev = kc_xasprintf("it bounds the loop `%s` on line %u", lp->header_text, line);
    mark_size(c, lp->end, ev, false);
    free(ev);
}

/* Binds the target of the loop: the induction variable is a loop atom
 * standing for its value (a scalar in Triton, so it carries no lane axes;
 * its loop dependence is what matters); any other target an unknown value
 * that depends on the loop. */
static void bind_loop_target(tt_ctx *c, TSNode left, const kc_loop *lp, const range_bounds *rb)
{
    kc_deps loop_dep = {0, 0, kc_loop_bit(lp->id)};
    if (lp->var) {
        tv iv = tv_unknown();
        iv.kind = TV_NUM;
        iv.ce = lp->kind == KC_LOOP_STATIC_RANGE;
        kc_deps d = loop_dep;
        d.flags = (uint8_t)((tv_deps(&rb->start).flags | tv_deps(&rb->step).flags) & (KC_AF_PROGRAM | KC_AF_DATA));
        d.loops |= tv_deps(&rb->start).loops | tv_deps(&rb->step).loops;
        /* The induction variable takes the promoted type of the bounds:
         * range(row_start, row_end) with an int64 start is an int64 loop. */
        uint8_t ivb = 32;
        const tv *bounds[3] = {&rb->start, &rb->end, &rb->step};
        for (int i = 0; i < 3; i++)
            if (bounds[i]->kind == TV_NUM && bounds[i]->bits > ivb)
                ivb = bounds[i]->bits;
        iv.bits = ivb;
        iv.elt = TT_ELT_INT;
        iv.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_LOOP, lp->id, d), ivb, KC_SPACE_BLOCK, NULL);
        env_set(c, lp->var, iv);
    } else if (!ts_node_is_null(left)) {
        tv unk = tv_unknown();
        unk.deps = loop_dep;
        assign_target(c, left, unk);
    }
}

static void exec_for(tt_ctx *c, TSNode st)
{
    tt_module *md = c->mod;
    TSNode left = tt_field(st, "left"), right = tt_unparen(tt_field(st, "right"));
    TSNode body = tt_field(st, "body");
    kc_loop lp;
    memset(&lp, 0, sizeof lp);
    lp.id = c->k->loops.len;
    lp.parent = c->loop;
    lp.trip_count = -1;
    lp.runtime_bound_symbol = KC_NONE;
    TSPoint p0 = ts_node_start_point(st), p1 = ts_node_end_point(right);
    lp.span = (kc_span){p0.row + 1, p0.column + 1, p1.row + 1, p1.column + 1};
    lp.range_span = tt_span(right);
    lp.header_text = short_text(c, right);
    lp.var = TT_IS(left, identifier) ? tt_text(md, left) : NULL;
    lp.kind = KC_LOOP_RANGE;
    range_bounds rb;
    memset(&rb, 0, sizeof rb);
    rb.start = make_const(c, 0);
    rb.end = tv_unknown();
    rb.step = make_const(c, 1);
    if (range_header(c, right, &lp, &rb))
        range_facts(c, &lp, &rb, p0.row + 1);
    uint32_t saved_loop = c->loop;
    kc_vec_push(&c->k->loops, lp);
    make_loop_carried(c, st, body, lp.id);
    bind_loop_target(c, left, &lp, &rb);
    c->loop = lp.id;
    exec_block(c, body);
    c->loop = saved_loop;
    TSNode alt = tt_field(st, "alternative");
    if (!ts_node_is_null(alt))
        exec_block(c, tt_field(alt, "body"));
}

static void exec_while(tt_ctx *c, TSNode st)
{
    kc_loop lp;
    memset(&lp, 0, sizeof lp);
    lp.id = c->k->loops.len;
    lp.parent = c->loop;
    lp.kind = KC_LOOP_WHILE;
    lp.trip_count = -1;
    lp.runtime_bound_symbol = KC_NONE;
    TSNode condn = tt_field(st, "condition");
    lp.span = tt_span(condn);
    lp.range_span = tt_span(condn);
    lp.header_text = short_text(c, condn);
    kc_vec_push(&c->k->loops, lp);
    TSNode body = tt_field(st, "body");
    make_loop_carried(c, st, body, lp.id);
    uint32_t saved_loop = c->loop, saved_cond = c->cond;
    c->loop = lp.id;
    tv cv = eval(c, condn);
    c->cond = add_cond(c, condn, &cv, false);
    exec_block(c, body);
    c->loop = saved_loop;
    c->cond = saved_cond;
}

static void exec_stmt(tt_ctx *c, TSNode st)
{
    if (c->depth >= TT_MAX_DEPTH || stack_exhausted(c))
        return;
    c->depth++;
    if (TT_IS(st, expression_statement)) {
        uint32_t n = ts_node_named_child_count(st);
        for (uint32_t i = 0; i < n; i++) {
            TSNode e = ts_node_named_child(st, i);
            if (TT_IS(e, assignment))
                exec_assignment(c, e);
            else if (TT_IS(e, augmented_assignment))
                exec_augmented(c, e);
            else if (!TT_IS(e, comment))
                (void)eval(c, e);
        }
    } else if (TT_IS(st, if_statement)) {
        exec_if(c, st);
    } else if (TT_IS(st, for_statement)) {
        exec_for(c, st);
    } else if (TT_IS(st, while_statement)) {
        exec_while(c, st);
    } else if (TT_IS(st, with_statement)) {
        exec_block(c, tt_field(st, "body"));
    } else if (TT_IS(st, try_statement)) {
        uint32_t n = ts_node_named_child_count(st);
        for (uint32_t i = 0; i < n; i++) {
            TSNode ch = ts_node_named_child(st, i);
            if (TT_IS(ch, block))
                exec_block(c, ch);
        }
    } else if (TT_IS(st, return_statement) || TT_IS(st, assert_statement)) {
        uint32_t n = ts_node_named_child_count(st);
        for (uint32_t i = 0; i < n; i++)
            (void)eval(c, ts_node_named_child(st, i));
        if (TT_IS(st, assert_statement) && n > 0)
            note_multiple(c, ts_node_named_child(st, 0), st);
    }
    c->depth--;
}

static void exec_block(tt_ctx *c, TSNode block)
{
    if (ts_node_is_null(block))
        return;
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(block, i);
        if (!TT_IS(st, comment))
            exec_stmt(c, st);
    }
}

/* ---- pointer parameters ---- */

/* The right-hand sides of every `name = ...` in a body. */
/* Collects the identifiers that are summands of a pointer expression,
 * following local assignments. */
static void pointer_leaves(tt_ctx *c, TSNode body, TSNode e, tt_names *out, int depth)
{
    e = tt_unparen(e);
    if (depth > 8 || ts_node_is_null(e))
        return;
    if (TT_IS(e, identifier)) {
        const char *name = tt_text(c->mod, e);
        kc_vec_push(out, name);
        /* a local: follow its assignments */
        const tt_assign_index *ix = tt_assignments(c->mod, body);
        uint32_t lo, hi;
        tt_assign_range(ix, name, &lo, &hi);
        for (uint32_t i = lo; i < hi; i++) {
            const tt_assign *a = &ix->items.data[ix->by_name[i]];
            if (a->whole && !ts_node_is_null(a->right))
                pointer_leaves(c, body, a->right, out, depth + 1);
        }
        return;
    }
    if (TT_IS(e, binary_operator)) {
        const char *op = op_of(e);
        if (!strcmp(op, "+") || !strcmp(op, "-")) {
            pointer_leaves(c, body, tt_field(e, "left"), out, depth + 1);
            if (!strcmp(op, "+"))
                pointer_leaves(c, body, tt_field(e, "right"), out, depth + 1);
        }
        return;
    }
    if (TT_IS(e, augmented_assignment))
        return;
    if (TT_IS(e, subscript)) {
        pointer_leaves(c, body, tt_field(e, "value"), out, depth + 1);
        return;
    }
    if (TT_IS(e, call)) {
        TSNode f = tt_field(e, "function");
        if (TT_IS(f, attribute) && tt_text_eq(c->mod, tt_field(f, "attribute"), "to"))
            pointer_leaves(c, body, tt_field(f, "object"), out, depth + 1);
        const char *tl = tt_tl_name(tt_qualify(c->mod, f));
        if (tl && (!strcmp(tl, "multiple_of") || !strcmp(tl, "max_contiguous") || !strcmp(tl, "make_block_ptr") ||
                   !strcmp(tl, "advance")))
            pointer_leaves(c, body, call_arg(c->mod, e, 0, "base"), out, depth + 1);
    }
}

static bool looks_like_pointer(const char *name)
{
    return strstr(name, "ptr") || strstr(name, "Ptr") || strstr(name, "PTR") || strstr(name, "pointer");
}

typedef struct pointer_search {
    tt_ctx *c;
    TSNode body;
    const char *const *params;
    uint32_t nparams;
} pointer_search;

/* At each load/store/atomic/make_block_ptr, the first parameter among the
 * summands of its pointer is a pointer (unless a pointer-looking name is
 * among them: that one is the base). */
static bool visit_pointer_use(TSNode n, void *ud)
{
    pointer_search *ps = ud;
    tt_ctx *c = ps->c;
    if (!TT_IS(n, call))
        return true;
    /* Most calls are something else: look at the called name's last part
     * before building its qualified name. */
    TSNode fn = tt_field(n, "function");
    if (TT_IS(fn, attribute)) {
        TSNode at = tt_field(fn, "attribute");
        uint32_t a = ts_node_start_byte(at), b = ts_node_end_byte(at);
        const char *t = c->mod->src->text + a;
        if (!tt_text_eq(c->mod, at, "load") && !tt_text_eq(c->mod, at, "store") &&
            !tt_text_eq(c->mod, at, "make_block_ptr") && !(b - a > 7 && memcmp(t, "atomic_", 7) == 0))
            return true;
    }
    const char *tl = tt_tl_name(tt_qualify(c->mod, fn));
    if (!tl || (strcmp(tl, "load") && strcmp(tl, "store") && strncmp(tl, "atomic_", 7) &&
                strcmp(tl, "make_block_ptr")))
        return true;
    tt_names leaves = {0};
    pointer_leaves(c, ps->body, call_arg(c->mod, n, 0, strcmp(tl, "make_block_ptr") ? "pointer" : "base"), &leaves,
                   0);
    for (uint32_t l = 0; l < leaves.len; l++) {
        bool is_param = false, pointer_like = false;
        for (uint32_t p = 0; p < ps->nparams; p++)
            if (!strcmp(ps->params[p], leaves.data[l]))
                is_param = true;
        if (!is_param)
            continue;
        for (uint32_t l2 = 0; l2 < leaves.len; l2++)
            for (uint32_t p = 0; p < ps->nparams; p++)
                if (!strcmp(ps->params[p], leaves.data[l2]) && looks_like_pointer(ps->params[p]))
                    pointer_like = true;
        if (!pointer_like && !is_pointer_param(c, leaves.data[l]))
            kc_vec_push(&c->pointer_params, leaves.data[l]);
        break;
    }
    kc_vec_free(&leaves);
    return true;
}

static void find_pointer_params(tt_ctx *c, TSNode body, const char *const *params, uint32_t nparams)
{
    for (uint32_t i = 0; i < nparams; i++)
        if (looks_like_pointer(params[i]))
            kc_vec_push(&c->pointer_params, params[i]);
    pointer_search ps = {c, body, params, nparams};
    tt_walk(body, visit_pointer_use, &ps);
}

/* ---- parameters and their values ---- */

static void add_value(kc_model *m, kc_symbol *s, int64_t v, const char *origin)
{
    for (uint32_t i = 0; i < s->nvalues; i++)
        if (s->values[i] == v)
            return;
    int64_t *nv = kc_arena_alloc(m->arena, (s->nvalues + 1) * sizeof *nv);
    if (s->nvalues)
        memcpy(nv, s->values, s->nvalues * sizeof *nv);
    nv[s->nvalues++] = v;
    s->values = nv;
    if (s->nvalues == 1) {
        s->has_value = true;
        s->value = v;
        s->value_origin = kc_arena_strdup(m->arena, origin);
    } else {
        s->has_value = false;
    }
}

/* The index of the parameter named `name`, or KC_NONE. */
static uint32_t param_index(const kc_kernel *k, const char *name)
{
    uint32_t s = kc_kernel_find_symbol(k, name);
    return s == KC_NONE ? KC_NONE : k->symbols.data[s].param;
}

/* The kernel parameter a launch binding binds, or KC_NONE. A positional
 * argument after `*t.stride()` lands where Python puts it: the positional
 * ones end where the first keyword-bound parameter begins, when no
 * parameter before it has a default (otherwise the splat's length decides). */
static uint32_t bound_param(const kc_kernel *k, const tt_launch *ln, const tt_binding *b)
{
    if (b->param)
        return param_index(k, b->param);
    if (!b->after_splat)
        return b->position < k->params.len ? b->position : KC_NONE;
    uint32_t e = KC_NONE;
    for (uint32_t i = 0; i < ln->args.len; i++)
        if (ln->args.data[i].param) {
            uint32_t pi = param_index(k, ln->args.data[i].param);
            if (pi != KC_NONE && (e == KC_NONE || pi < e))
                e = pi;
        }
    if (e == KC_NONE || e < ln->before_splat + ln->after_splat)
        return KC_NONE;
    for (uint32_t p = 0; p < e; p++)
        if (k->params.data[p].default_text)
            return KC_NONE;
    return e - ln->after_splat + b->position;
}

static void apply_host_value(tt_ctx *c, kc_symbol *s, const tt_host_value *hv, const tt_launch *ln, bool autotune)
{
    char origin[160];
    uint32_t line = ln->line;
    if (autotune)
        snprintf(origin, sizeof origin, "an autotune config on line %u", line);
    else if (ln->file)
        snprintf(origin, sizeof origin, "the launch in %s on line %u", ln->file, line);
    else
        snprintf(origin, sizeof origin, "the launch on line %u", line);
    switch (hv->kind) {
    case TT_HOST_INT:
        add_value(c->m, s, hv->value, origin);
        break;
    case TT_HOST_SHAPE:
        s->facts |= KC_SF_SHAPE_ARG | KC_SF_SIZE | KC_SF_PROBLEM_SIZE;
        if (!s->size_evidence || !(s->facts & KC_SF_SHAPE_ARG))
            s->size_evidence = hv->origin ? kc_arena_printf(c->a, "%s passes `%s` = %s", origin, hv->text, hv->origin)
                                          : kc_arena_printf(c->a, "%s passes %s", origin, hv->text);
        break;
    case TT_HOST_STRIDE:
        if (hv->stride_rank_hint > 0)
            s->facts |= KC_SF_INNER_STRIDE;
        else if (hv->stride_rank_hint < 0)
            s->facts |= KC_SF_OUTER_STRIDE;
        break;
    default:
        break;
    }
    if (!s->arg_text)
        s->arg_text = kc_arena_strdup(c->a, hv->text);
}

/* The kernel's parameters: their symbols, types, whether constexpr, their
 * defaults; their names into `names`. */
static void add_params(tt_ctx *c, const tt_kernel_def *def, tt_names *names)
{
    tt_module *mod = c->mod;
    kc_model *model = c->m;
    TSNode params = tt_field(def->def, "parameters");
    uint32_t np = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < np; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode namen = {0}, typen = {0}, defn = {0};
        if (TT_IS(p, identifier)) {
            namen = p;
        } else if (TT_IS(p, typed_parameter)) {
            namen = ts_node_named_child(p, 0);
            typen = tt_field(p, "type");
        } else if (TT_IS(p, default_parameter) || TT_IS(p, typed_default_parameter)) {
            namen = tt_field(p, "name");
            typen = tt_field(p, "type");
            defn = tt_field(p, "value");
        }
        if (!TT_IS(namen, identifier))
            continue;
        kc_param kp;
        memset(&kp, 0, sizeof kp);
        kp.name = tt_text(mod, namen);
        kp.span = tt_span(p);
        kp.type = ts_node_is_null(typen) ? "" : tt_text(mod, typen);
        const char *tq = ts_node_is_null(typen) ? NULL : tt_qualify(mod, ts_node_named_child_count(typen) ? ts_node_named_child(typen, 0) : typen);
        kp.is_constexpr = (tq && tt_tl_name(tq) && !strcmp(tt_tl_name(tq), "constexpr")) ||
                          (kp.type && strstr(kp.type, "constexpr"));
        kp.default_text = ts_node_is_null(defn) ? NULL : tt_text(mod, defn);
        kp.symbol = kc_kernel_add_symbol(model, c->k, kp.name, kp.is_constexpr ? KC_SYM_CONSTEXPR : KC_SYM_PARAM);
        kc_symbol *s = &c->k->symbols.data[kp.symbol];
        s->param = c->k->params.len;
        s->span = kp.span;
        /* Integer arguments are i32 unless the value passed needs 64 bits
         * (Triton specializes on it) or the parameter is annotated. */
        s->bits = (kp.type && (strstr(kp.type, "int64") || strstr(kp.type, "i64"))) ? 64 : 32;
        int64_t dv;
        if (!ts_node_is_null(defn) && tt_int_literal(mod, defn, &dv)) {
            char origin[64];
            snprintf(origin, sizeof origin, "the default on line %u", kp.span.line);
            add_value(model, s, dv, origin);
        }
        kc_vec_push(&c->k->params, kp);
        kc_vec_push(names, kp.name);
    }
}

/* Values and facts from launches and autotune configs; the launches in
 * other files of the run when this file has none of the kernel. */
static void apply_launches(tt_ctx *c, const tt_kernel_def *def)
{
    tt_module *mod = c->mod;
    uint32_t llo, lhi;
    const uint32_t *lix = tt_launches_of(mod, false, def->name, &llo, &lhi);
    bool launched_here = false;
    for (uint32_t l = llo; l < lhi; l++)
        launched_here |= !mod->launches.data[lix[l]].from_autotune;
    /* per parameter: launches binding it, and of those, the ones whose
     * value covers the same other parameter (next_power_of_2 of it) */
    uint32_t *nbound = kc_xcalloc(c->k->params.len + 1, sizeof *nbound);
    uint32_t *ncover = kc_xcalloc(c->k->params.len + 1, sizeof *ncover);
    for (int pass = 0; pass < 2 && !(pass == 1 && launched_here); pass++) {
        const tt_launch *list = pass ? mod->peer_launches.data : mod->launches.data;
        uint32_t lo, hi;
        const uint32_t *ix = tt_launches_of(mod, pass == 1, def->name, &lo, &hi);
        for (uint32_t l = lo; l < hi; l++) {
            const tt_launch *ln = &list[ix[l]];
            c->k->launches_seen += !ln->from_autotune;
            for (uint32_t a = 0; a < ln->args.len; a++) {
                const tt_binding *b = &ln->args.data[a];
                uint32_t pi = bound_param(c->k, ln, b);
                if (pi == KC_NONE)
                    continue;
                kc_symbol *s = &c->k->symbols.data[c->k->params.data[pi].symbol];
                apply_host_value(c, s, &b->v, ln, ln->from_autotune);
                if (ln->from_autotune)
                    continue;
                nbound[pi]++;
                /* BLOCK_N=triton.next_power_of_2(E) next to E=E */
                uint32_t ci = KC_NONE;
                for (uint32_t o = 0; b->v.covers && o < ln->args.len && ci == KC_NONE; o++)
                    if (o != a && ln->args.data[o].v.text && !strcmp(ln->args.data[o].v.text, b->v.covers))
                        ci = bound_param(c->k, ln, &ln->args.data[o]);
                if (ci == KC_NONE || ci == pi)
                    continue;
                uint32_t cs = c->k->params.data[ci].symbol;
                if (ncover[pi] == 0 || s->at_least_symbol == cs) {
                    ncover[pi]++;
                    s->at_least_symbol = cs;
                    if (!s->at_least_evidence)
                        s->at_least_evidence = kc_arena_printf(
                            c->a, "%s = %s at the launch %s%s%son line %u", s->name,
                            b->v.origin ? b->v.origin : b->v.text, ln->file ? "in " : "", ln->file ? ln->file : "",
                            ln->file ? " " : "", ln->line);
                }
            }
        }
    }
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        kc_symbol *s = &c->k->symbols.data[c->k->params.data[i].symbol];
        if (s->at_least_symbol != KC_NONE && ncover[i] != nbound[i]) {
            s->at_least_symbol = KC_NONE; /* some launch passes something else */
            s->at_least_evidence = NULL;
        }
    }
    free(nbound);
    free(ncover);
}

/* Binds the parameters in the environment: pointers to their base, a
 * constexpr with one known value to it, anything else to its symbol. */
static void bind_params(tt_ctx *c)
{
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        kc_param *kp = &c->k->params.data[i];
        kc_symbol *s = &c->k->symbols.data[kp->symbol];
        tv v = tv_unknown();
        v.sym = kp->symbol;
        if (is_pointer_param(c, kp->name) && !kp->is_constexpr) {
            kp->is_pointer = true;
            s->facts |= KC_SF_POINTER;
            s->bits = 64;
            v.kind = TV_PTR;
            v.base = kp->symbol;
            v.idx = kc_index_const(c->a, 0, 32, KC_SPACE_BLOCK);
        } else {
            v.kind = TV_NUM;
            v.ce = kp->is_constexpr;
            if (s->has_value && kp->is_constexpr) {
                /* A constexpr with one known value is that value, but keep
                 * the symbol for messages via v.sym. */
                v.idx = kc_index_const(c->a, s->value, 32, KC_SPACE_BLOCK);
            } else {
                v.bits = s->bits;
                v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_SYMBOL, kp->symbol, (kc_deps){0}), s->bits,
                                      KC_SPACE_BLOCK, NULL);
            }
        }
        env_set(c, kp->name, v);
    }
}

void tt_lower_kernel(tt_module *mod, kc_model *model, const tt_kernel_def *def)
{
    tt_ctx c;
    memset(&c, 0, sizeof c);
    c.stack_base = (uintptr_t)__builtin_frame_address(0);
    c.mod = mod;
    c.m = model;
    c.a = model->arena;
    c.loop = KC_NONE;
    c.cond = KC_NONE;
    c.k = kc_model_add_kernel(model, def->name);
    c.tl_alias = "tl";
    for (uint32_t i = 0; i < mod->aliases.len; i++)
        if (!strcmp(mod->aliases.data[i].qualified, "triton.language"))
            c.tl_alias = mod->aliases.data[i].local;
    c.k->span = tt_span(ts_node_is_null(def->decorated) ? def->def : def->decorated);
    c.k->name_span = tt_span(tt_field(def->def, "name"));
    c.k->autotuned = def->autotuned;

    TSNode body = tt_field(def->def, "body");
    tt_names names = {0};
    add_params(&c, def, &names);
    find_pointer_params(&c, body, names.data, names.len);
    apply_launches(&c, def);
    bind_params(&c);
    kc_vec_free(&names);
    exec_block(&c, body);
    kc_vec_free(&c.env.vars);
    kc_vec_free(&c.pointer_params);
}

/* ---- the front end object ---- */

struct kc_triton_frontend {
    const kc_options *opts;
    TSParser *parser;
};

kc_triton_frontend *kc_triton_frontend_new(const kc_options *opts)
{
    kc_triton_frontend *fe = kc_xcalloc(1, sizeof *fe);
    fe->opts = opts;
    fe->parser = ts_parser_new();
    if (!fe->parser || !ts_parser_set_language(fe->parser, tree_sitter_python())) {
        if (fe->parser)
            ts_parser_delete(fe->parser);
        free(fe);
        return NULL;
    }
    return fe;
}

void kc_triton_frontend_delete(kc_triton_frontend *fe)
{
    if (!fe)
        return;
    ts_parser_delete(fe->parser);
    free(fe);
}

/* The first ERROR or MISSING node, depth first. */
static bool first_error(TSNode n, TSNode *out, int depth)
{
    if (!ts_node_has_error(n))
        return false;
    if (ts_node_is_missing(n) || tt_is(n, "ERROR")) {
        *out = n;
        return true;
    }
    if (depth > 10000)
        return false;
    uint32_t cnt = ts_node_child_count(n);
    for (uint32_t i = 0; i < cnt; i++)
        if (first_error(ts_node_child(n, i), out, depth + 1))
            return true;
    *out = n;
    return true;
}

/* The deepest bracket nesting outside strings and comments; *line gets
 * where it is first exceeded past `limit`. CPython accepts 200 levels; the
 * tree-sitter runtime of Debian 12 (0.20.7) frees memory twice during error
 * recovery on ~100,000 unclosed brackets, so such files never reach it. */
/* It also measures the longest run of comments and line continuations with
 * no token between them (*extras, starting at *extras_line): the same
 * runtime crashes (a bad free in ts_tree_delete) once 65,534 of them follow
 * each other, found by kcheck's fuzzing (docs/robustness.md). */
static unsigned bracket_depth(const kc_source *src, unsigned limit, uint32_t *line, uint32_t *extras,
                              uint32_t *extras_line)
{
    unsigned depth = 0, max = 0;
    uint32_t ln = 1, run = 0, run_line = 0;
    const char *p = src->text, *end = src->text + src->len;
    *extras = 0;
    while (p < end) {
        char ch = *p;
        bool extra = false;
        uint32_t at = ln;
        if (ch == '\n' || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f') {
            ln += ch == '\n';
            p++;
            continue;
        }
        if (ch == '\\' && (end - p >= 2 && (p[1] == '\n' || (p[1] == '\r' && end - p >= 3 && p[2] == '\n')))) {
            extra = true; /* a line continuation */
            p += p[1] == '\n' ? 2 : 3;
            ln++;
        } else if (ch == '#') {
            extra = true;
            while (p < end && *p != '\n')
                p++;
        } else if (ch == '\'' || ch == '"') {
            bool triple = end - p >= 3 && p[1] == ch && p[2] == ch;
            p += triple ? 3 : 1;
            while (p < end) {
                if (*p == '\\' && p + 1 < end) {
                    if (p[1] == '\n')
                        ln++;
                    p += 2;
                    continue;
                }
                if (*p == '\n') {
                    ln++;
                    if (!triple)
                        break;
                }
                if (*p == ch && (!triple || (end - p >= 3 && p[1] == ch && p[2] == ch))) {
                    p += triple ? 3 : 1;
                    break;
                }
                p++;
            }
        } else {
            if (ch == '(' || ch == '[' || ch == '{') {
                if (++depth > max) {
                    max = depth;
                    if (max == limit + 1)
                        *line = ln;
                }
            } else if ((ch == ')' || ch == ']' || ch == '}') && depth) {
                depth--;
            }
            p++;
        }
        if (extra) {
            if (run++ == 0)
                run_line = at;
            if (run > *extras) {
                *extras = run;
                *extras_line = run_line;
            }
        } else {
            run = 0;
        }
    }
    return max;
}

/* Parses `src`; NULL with an error in errs when the file cannot be
 * analysed (sizes and shapes the parser cannot take, syntax errors). */
static TSTree *parse_file(kc_triton_frontend *fe, const kc_source *src, kc_file_errors *errs)
{
    if (src->len > UINT32_MAX / 2) {
        kc_file_errors_add(errs, 0, 0, "file too large to parse");
        return NULL;
    }
    uint32_t deep_line = 0, extras = 0, extras_line = 0;
    unsigned depth = bracket_depth(src, 1000, &deep_line, &extras, &extras_line);
    if (depth > 1000) {
        kc_file_errors_add(errs, deep_line, 1,
                           "brackets nested %u deep (Python allows 200); the file is not analysed", depth);
        return NULL;
    }
    if (extras >= 50000) {
        kc_file_errors_add(errs, extras_line, 1,
                           "%u comments or line continuations in a row: more than the Python parser "
                           "(tree-sitter 0.20.7) handles; the file is not analysed",
                           extras);
        return NULL;
    }
    /* A fresh external scanner for every file: the pinned grammar's
     * scanner (tree-sitter-python 0.23.6) does not clear its "inside an
     * f-string" flag when reset, so a file ending inside an unterminated
     * f-string made the next file on the same thread a syntax error (found
     * by fuzzing). Setting the language again destroys and recreates it. */
    if (!ts_parser_set_language(fe->parser, tree_sitter_python())) {
        kc_file_errors_add(errs, 0, 0, "the Python parser could not be reset");
        return NULL;
    }
    TSTree *tree = ts_parser_parse_string(fe->parser, NULL, src->text, (uint32_t)src->len);
    if (!tree) {
        kc_file_errors_add(errs, 0, 0, "the Python parser gave up on this file");
        return NULL;
    }
    TSNode root = ts_tree_root_node(tree);
    if (ts_node_has_error(root)) {
        TSNode bad = root;
        first_error(root, &bad, 0);
        TSPoint p = ts_node_start_point(bad);
        if (ts_node_is_missing(bad))
            kc_file_errors_add(errs, p.row + 1, p.column + 1, "syntax error: missing '%s'", ts_node_type(bad));
        else
            kc_file_errors_add(errs, p.row + 1, p.column + 1, "syntax error: the statement starting here is not valid Python");
        ts_tree_delete(tree);
        return NULL;
    }
    return tree;
}

/* Does the text subscript one of `names` (sorted): `name[`, `mod.name [`? */
static bool mentions_launch(const kc_source *src, const char *const *names, uint32_t n)
{
    kc_py_names subs = {0};
    kc_py_subscripts(src->text, src->len, &subs);
    bool found = false;
    char buf[257];
    for (uint32_t i = 0; i < subs.len && !found; i++) {
        const char *s = subs.data[i].s, *e = s + subs.data[i].n, *last = e;
        while (last > s && last[-1] != '.')
            last--;
        size_t len = (size_t)(e - last);
        if (len >= sizeof buf)
            continue;
        memcpy(buf, last, len);
        buf[len] = '\0';
        const char *key = buf;
        found = bsearch(&key, names, n, sizeof *names, kc_strptr_cmp) != NULL;
    }
    kc_vec_free(&subs);
    return found;
}

/* The launches in the peer files of the kernels that `mod` defines and
 * does not launch itself: into mod->peer_launches, their values in the
 * model's arena. A peer that cannot be read or parsed is passed over. */
static void scan_peers(kc_triton_frontend *fe, tt_module *mod, const kc_peers *peers)
{
    KC_VEC(const char *) names = {0};
    for (uint32_t k = 0; k < mod->kernels.len; k++) {
        uint32_t lo, hi;
        const uint32_t *ix = tt_launches_of(mod, false, mod->kernels.data[k].name, &lo, &hi);
        bool launched = false;
        for (uint32_t l = lo; l < hi && !launched; l++)
            launched = !mod->launches.data[ix[l]].from_autotune;
        if (!launched)
            kc_vec_push(&names, mod->kernels.data[k].name);
    }
    if (names.len > 1)
        qsort(names.data, names.len, sizeof *names.data, kc_strptr_cmp);
    /* the module's name: the file's, or its directory's for __init__.py */
    const char *path = mod->src->path ? mod->src->path : "";
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *stem = NULL;
    if (strcmp(base, "__init__.py") == 0 && base > path) {
        const char *d = base - 1, *b = d;
        while (b > path && b[-1] != '/')
            b--;
        stem = kc_xstrndup(b, (size_t)(d - b));
    } else {
        size_t bl = strlen(base);
        stem = kc_xstrndup(base, bl > 3 && strcmp(base + bl - 3, ".py") == 0 ? bl - 3 : bl);
    }
    for (uint32_t p = 0; names.len && *stem && p < peers->n; p++) {
        char *err = NULL;
        kc_source *ps = kc_source_load(peers->paths[p], fe->opts ? fe->opts->max_file_size : 0, &err);
        free(err);
        if (!ps)
            continue;
        bool any = mentions_launch(ps, names.data, names.len);
        kc_file_errors perr = {0};
        TSTree *tree = any ? parse_file(fe, ps, &perr) : NULL;
        kc_file_errors_free(&perr);
        if (tree) {
            tt_module g;
            memset(&g, 0, sizeof g);
            g.src = ps;
            g.arena = mod->arena;
            g.root = ts_tree_root_node(tree);
            tt_scan_peer_launches(&g, stem, names.data, names.len);
            const char *file = kc_arena_strdup(mod->arena, strrchr(ps->path, '/') ? strrchr(ps->path, '/') + 1 : ps->path);
            for (uint32_t l = 0; l < g.launches.len; l++) {
                tt_launch ln = g.launches.data[l];
                ln.file = file;
                memset(&ln.call, 0, sizeof ln.call);
                kc_vec_push(&mod->peer_launches, ln);
            }
            g.launches.len = 0; /* their arguments moved */
            tt_module_free(&g);
            ts_tree_delete(tree);
        }
        kc_source_delete(ps);
    }
    free(stem);
    kc_vec_free(&names);
}

kc_model *kc_triton_lower(kc_triton_frontend *fe, const kc_source *src, const kc_peers *peers, kc_file_errors *errs)
{
    kc_model *model = kc_model_new(src, KC_LANG_TRITON);
    /* Files that never mention triton cost a substring search. */
    if (!memmem(src->text, src->len, "triton", 6))
        return model;
    TSTree *tree = parse_file(fe, src, errs);
    if (!tree) {
        kc_model_delete(model);
        return NULL;
    }
    TSNode root = ts_tree_root_node(tree);
    tt_module mod;
    memset(&mod, 0, sizeof mod);
    mod.src = src;
    mod.arena = model->arena;
    mod.root = root;
    if (tt_scan_module(&mod)) {
        if (peers && peers->n)
            scan_peers(fe, &mod, peers);
        for (uint32_t i = 0; i < mod.kernels.len; i++)
            tt_lower_kernel(&mod, model, &mod.kernels.data[i]);
        for (uint32_t i = 0; i < mod.launches.len; i++) {
            const tt_launch *l = &mod.launches.data[i];
            if (l->from_autotune)
                continue;
            kc_launch kl;
            memset(&kl, 0, sizeof kl);
            kl.kernel = l->kernel;
            kl.span = tt_span(l->call);
            kl.grid_text = tt_text(&mod, tt_field(tt_field(l->call, "function"), "subscript"));
            for (uint32_t a = 0; a < l->args.len; a++) {
                kc_launch_arg la = {.param = l->args.data[a].param, .text = l->args.data[a].v.text,
                                    .has_value = l->args.data[a].v.kind == TT_HOST_INT,
                                    .value = l->args.data[a].v.value};
                kc_vec_push(&kl.args, la);
            }
            kc_vec_push(&model->launches, kl);
        }
    }
    tt_module_free(&mod);
    ts_tree_delete(tree);
    return model;
}
