/* triton_value.c — the values of the Triton interpreter: element types,
 * unknown, constant and opaque values, what a value depends on, its shape
 * after broadcasting, the stack budget; the environment of names and how
 * two branches' environments merge; where the element order of a
 * reordered block is first observed (KC301); the sizes the kernel bounds
 * indices with; a call's arguments. The bottom of the interpreter: it calls
 * only triton_walk.c, and evaluates an argument through the context's
 * `eval`.
 */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* ---- values ---- */

bool tt_elt_low(uint8_t e) { return e == TT_ELT_FP16 || e == TT_ELT_BF16 || e == TT_ELT_FP8; }

bool tt_elt_f32_or_narrower(uint8_t e) { return e == TT_ELT_FP32 || tt_elt_low(e); }

bool tt_some_f32(const tv *v) { return tt_elt_f32_or_narrower(v->elt) || v->f32_some; }

/* Triton's computation type of a binary arithmetic operation
 * (semantic.computation_type_impl), for the float cases. */
uint8_t tt_elt_promote(uint8_t a, uint8_t b, bool div)
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
bool tt_is_vague(const tv *v)
{
    return v->vague || v->shape_unknown || (v->kind == TV_UNKNOWN && !v->ce) || v->kind == TV_TUPLE;
}

/* Nesting is bounded by depth and by stack actually used: frames are much
 * larger under sanitizers, and kernels are lowered on worker threads. */
#define TT_STACK_BUDGET ((uintptr_t)1 << 20)

bool tt_stack_exhausted(const tt_ctx *c)
{
    /* The frame address, not a local's: with ASan's use-after-return
     * detection locals live in heap-allocated fake frames (clang's default),
     * and their distance says nothing about the stack. */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    uintptr_t used = c->stack_base > here ? c->stack_base - here : here - c->stack_base;
    return used > TT_STACK_BUDGET;
}

tv tt_unknown(void)
{
    tv v;
    memset(&v, 0, sizeof v);
    v.kind = TV_UNKNOWN;
    v.base = KC_NONE;
    v.sym = KC_NONE;
    v.bits = 32;
    return v;
}

kc_deps tt_deps_or(kc_deps a, kc_deps b)
{
    kc_deps d = {(uint8_t)(a.axes | b.axes), (uint8_t)(a.flags | b.flags), a.loops | b.loops,
                 (uint8_t)(a.programs | b.programs), 0};
    return d;
}

kc_deps tt_deps(const tv *v)
{
    kc_deps d = v->deps;
    if (v->idx)
        d = tt_deps_or(d, kc_index_deps(v->idx));
    for (uint32_t i = 0; i < v->ntuple; i++)
        d = tt_deps_or(d, tt_deps(&v->tuple[i]));
    return d;
}

/* Moves lane-axis bits from a rank-`from` shape to a right-aligned rank-`to`. */
kc_deps tt_deps_to_rank(kc_deps d, unsigned from, unsigned to)
{
    if (to > from)
        d.axes = (uint8_t)(d.axes << (to - from));
    return d;
}

/* Is any dimension of the block other than 1 (or unknown)? */
bool tt_has_extent(const tv *v)
{
    if (v->shape_unknown)
        return true;
    for (unsigned i = 0; i < v->shape.rank; i++)
        if (v->shape.dims[i].value != 1)
            return true;
    return false;
}

kc_shape tt_shape_of2(const tv *a, const tv *b)
{
    kc_shape s;
    if (!kc_shape_broadcast(&a->shape, &b->shape, &s))
        s = a->shape.rank >= b->shape.rank ? a->shape : b->shape;
    return s;
}

static tv make_opaque_text(tt_ctx *c, kc_span span, const char *text, kc_deps deps, const kc_shape *shape,
                           uint8_t bits)
{
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.bits = bits ? bits : 32;
    if (shape)
        v.shape = *shape;
    uint32_t id = kc_kernel_add_opaque(c->m, c->k, span, text);
    v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_OPAQUE, id, deps), v.bits, KC_SPACE_BLOCK, &v.shape);
    return v;
}

tv tt_opaque(tt_ctx *c, TSNode n, kc_deps deps, const kc_shape *shape, uint8_t bits)
{
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.bits = bits ? bits : 32;
    if (shape)
        v.shape = *shape;
    uint32_t id = kc_kernel_add_opaque(c->m, c->k, tt_span(n), tt_text(c->mod, n));
    v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_OPAQUE, id, deps), v.bits, KC_SPACE_BLOCK, &v.shape);
    return v;
}

tv tt_const(tt_ctx *c, int64_t x)
{
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.ce = true;
    v.elt = TT_ELT_PYINT;
    v.idx = kc_index_const(c->a, x, 32, KC_SPACE_BLOCK);
    return v;
}

bool tt_is_const(const tv *v, int64_t *x)
{
    return v->kind == TV_NUM && kc_index_is_const(v->idx, x);
}

/* The node's text on one line (white space collapsed), for messages. */
const char *tt_short_text(tt_ctx *c, TSNode n)
{
    return tt_one_line(c->a, tt_text(c->mod, n), SIZE_MAX);
}

/* ---- environment ---- */

static uint32_t name_hash(const char *s)
{
    return (uint32_t)XXH3_64bits(s, strlen(s));
}

tv *tt_env_get(tt_env *e, const char *name)
{
    uint32_t h = name_hash(name);
    for (uint32_t i = e->vars.len; i-- > 0;)
        if (e->vars.data[i].hash == h && strcmp(e->vars.data[i].name, name) == 0)
            return &e->vars.data[i].v;
    return NULL;
}

void tt_env_set(tt_ctx *c, const char *name, tv v)
{
    tv *p = tt_env_get(&c->env, name);
    if (p) {
        *p = v;
        return;
    }
    tt_var var = {kc_arena_strdup(c->a, name), name_hash(name), v};
    kc_vec_push(&c->env.vars, var);
}

tt_env tt_env_copy(const tt_env *e)
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
           a->deps.loops == b->deps.loops && a->npreds == b->npreds && a->preds == b->preds &&
           a->f64_from == b->f64_from && a->f64_pin == b->f64_pin && a->f64_pin_neg == b->f64_pin_neg;
}

/* KC501's marks (triton_fp64.c) after two branches: the mark of r, the
 * merge of x and y; `then_cond` as tt_merge's. */
static void fp64_merge(tv *r, const tv *x, const tv *y, uint32_t then_cond)
{
    r->f32_some = !tt_elt_f32_or_narrower(r->elt) && (tt_some_f32(x) || tt_some_f32(y));
    r->f64_pin = 0;
    r->f64_pin_neg = false;
    r->f64_from = x->f64_from ? x->f64_from : y->f64_from;
    if (!r->f64_from)
        return;
    if (x->f64_from && y->f64_from) {
        /* both marked: pinned only where both are */
        if (x->f64_pin == y->f64_pin && x->f64_pin_neg == y->f64_pin_neg) {
            r->f64_pin = x->f64_pin;
            r->f64_pin_neg = x->f64_pin_neg;
        }
        return;
    }
    /* One branch of an `if` pinned it: `x` is the value after the else
     * branch (or none), `y` after the then branch. */
    if (then_cond && !y->f64_from && !y->f64_pin) {
        r->f64_pin = then_cond; /* pinned where the then branch ran */
        r->f64_pin_neg = false;
    } else if (then_cond && !x->f64_from && !x->f64_pin) {
        r->f64_pin = then_cond; /* pinned where it did not */
        r->f64_pin_neg = true;
    }
}

/* The comparisons of a mask set differently on two branches
 * (`v = offs < a` / `v = offs < b`): each comparison of x whose left side
 * and operator y shares, the right side being the one bound or, for scalar
 * bounds, an opaque "a or b". Either way the lanes stay bounded. */
static void merge_preds(tt_ctx *c, TSNode at, tv *r, const tv *x, const tv *y)
{
    if (!x->npreds || !y->npreds)
        return;
    kc_pred *out = kc_arena_alloc(c->a, x->npreds * sizeof *out);
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->npreds; i++) {
        const kc_pred *p = &x->preds[i];
        if (!p->lhs || !p->rhs)
            continue;
        for (uint32_t j = 0; j < y->npreds; j++) {
            const kc_pred *q = &y->preds[j];
            if (!q->lhs || !q->rhs || q->op != p->op)
                continue;
            if (!kc_index_equal(p->lhs, q->lhs))
                continue;
            out[n] = *p;
            if (!kc_index_equal(p->rhs, q->rhs)) {
                if (p->rhs->shape.rank || q->rhs->shape.rank)
                    continue;
                kc_deps d = tt_deps_or(kc_index_deps(p->rhs), kc_index_deps(q->rhs));
                kc_shape s = {0};
                const char *text = kc_arena_printf(c->a, "%s or %s", kc_model_index_str(c->m, c->k, p->rhs),
                                                   kc_model_index_str(c->m, c->k, q->rhs));
                out[n].rhs = make_opaque_text(c, tt_span(at), text, d, &s, 64).idx;
            }
            n++;
            break;
        }
    }
    r->preds = n ? out : NULL;
    r->npreds = n;
}

/* The value of a name after two branches: kept when equal, otherwise an
 * opaque value depending on both and on the condition. */
tv tt_merge(tt_ctx *c, TSNode at, const char *name, const tv *x, const tv *y, kc_deps cond, uint32_t then_cond)
{
    if (tv_equal(x, y)) {
        tv r = *x; /* the same value (a cast may differ: KC501 keeps what it needs of it) */
        fp64_merge(&r, x, y, then_cond);
        return r;
    }
    kc_shape s = tt_shape_of2(x, y);
    kc_deps d = tt_deps_or(tt_deps_or(tt_deps_to_rank(tt_deps(x), x->shape.rank, s.rank),
                                tt_deps_to_rank(tt_deps(y), y->shape.rank, s.rank)),
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
        r = tt_unknown();
        r.kind = TV_BOOL;
        r.shape = s;
        r.deps = d;
        merge_preds(c, at, &r, x, y);
    } else if (x->kind == TV_NUM && y->kind == TV_NUM) {
        r = make_opaque_text(c, tt_span(at), text, d, &s, x->bits > y->bits ? x->bits : y->bits);
        r.is_float = x->is_float || y->is_float;
    } else {
        r = tt_unknown();
        r.shape = s;
        r.deps = d;
    }
    r.ce = x->ce && y->ce;
    r.taint = x->taint | y->taint;
    r.shape_unknown = x->shape_unknown || y->shape_unknown;
    r.vague = tt_is_vague(x) || tt_is_vague(y) || x->shape.rank != y->shape.rank;
    r.prods = x->prods | y->prods;
    r.elt = x->elt == y->elt ? x->elt : TT_ELT_UNKNOWN;
    if (r.elt != TT_ELT_UNKNOWN)
        r.dtype_span = kc_span_valid(x->dtype_span) ? x->dtype_span : y->dtype_span;
    tt_junk_merge(&r, x, y);
    fp64_merge(&r, x, y, then_cond);
    return r;
}

void tt_env_merge(tt_ctx *c, TSNode at, tt_env *into, const tt_env *other, kc_deps cond, uint32_t then_cond)
{
    /* Names only in `other` are taken as they are (Python has function scope). */
    for (uint32_t i = 0; i < other->vars.len; i++) {
        const tt_var *ov = &other->vars.data[i];
        tv *p = tt_env_get(into, ov->name);
        if (!p) {
            kc_vec_push(&into->vars, *ov);
            continue;
        }
        *p = tt_merge(c, at, ov->name, p, &ov->v, cond, then_cond);
    }
}

/* ---- masked-out lanes of loads (KC306; the algebra is triton_fill.c's) ---- */

bool tt_junk(const tv *v)
{
    for (unsigned a = 0; a < KC_MAX_RANK; a++)
        if ((v->junk_axes >> a) & 1) {
            /* ANY too: lanes that hold something unknown are still masked-out
             * lanes, which a tl.where can replace */
            if (v->fill[a][KC_FILL_AS_WRITTEN] != KC_FILL_NONE)
                return true;
        }
    return false;
}

void tt_junk_clear(tv *v)
{
    v->junk_axes = 0;
    memset(v->fill, 0, sizeof v->fill);
    v->junk_load = 0;
    v->junk_via = NULL;
    v->junk_via_span = (kc_span){0};
}

void tt_junk_remap(tv *r, const tv *x, const uint8_t *map)
{
    uint8_t fill[KC_MAX_RANK][KC_FILL_NHYP];
    memset(fill, 0, sizeof fill);
    uint8_t axes = 0;
    bool junk = tt_junk(x);
    for (unsigned i = 0; junk && i < x->shape.rank && i < KC_MAX_RANK; i++)
        if (((x->junk_axes >> i) & 1) && map[i] < KC_MAX_RANK) {
            axes |= (uint8_t)(1u << map[i]);
            memcpy(fill[map[i]], x->fill[i], sizeof fill[0]);
        }
    uint32_t load = x->junk_load;
    const char *via = x->junk_via;
    kc_span vs = x->junk_via_span;
    tt_junk_clear(r);
    if (!axes)
        return;
    r->junk_axes = axes;
    memcpy(r->fill, fill, sizeof fill);
    r->junk_load = load;
    r->junk_via = via;
    r->junk_via_span = vs;
}

void tt_junk_to_rank(tv *r, const tv *x)
{
    unsigned from = x->shape.rank, to = r->shape.rank;
    uint8_t map[KC_MAX_RANK];
    for (unsigned i = 0; i < KC_MAX_RANK; i++)
        map[i] = (i < from && to >= from && !r->shape_unknown) ? (uint8_t)(i + to - from) : 0xFF;
    tt_junk_remap(r, x, map);
}

void tt_junk_merge(tv *r, const tv *x, const tv *y)
{
    tv xs = *r, ys = *r;
    tt_junk_to_rank(&xs, x);
    tt_junk_to_rank(&ys, y);
    bool jx = tt_junk(&xs), jy = tt_junk(&ys);
    const tv *j = jx ? &xs : &ys;
    tv out = *j;
    if (jx && jy && x->junk_load == y->junk_load) {
        out.junk_axes = xs.junk_axes | ys.junk_axes;
        for (unsigned a = 0; a < KC_MAX_RANK; a++) {
            bool inx = (xs.junk_axes >> a) & 1, iny = (ys.junk_axes >> a) & 1;
            for (unsigned h = 0; h < KC_FILL_NHYP; h++) {
                uint8_t fx = inx ? xs.fill[a][h] : KC_FILL_ANY, fy = iny ? ys.fill[a][h] : KC_FILL_ANY;
                out.fill[a][h] = fx == fy ? fx : (fx == KC_FILL_UNDEF || fy == KC_FILL_UNDEF ? KC_FILL_UNDEF
                                                                                         : KC_FILL_ANY);
            }
        }
    }
    tt_junk_clear(r);
    if (!(jx || jy) || r->shape_unknown)
        return;
    r->junk_axes = out.junk_axes;
    memcpy(r->fill, out.fill, sizeof r->fill);
    r->junk_load = out.junk_load;
    r->junk_via = out.junk_via;
    r->junk_via_span = out.junk_via_span;
}

/* ---- reorder observation (KC301) ---- */

void tt_observe(tt_ctx *c, uint64_t taint, TSNode at, const char *what)
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
void tt_observe_combine(tt_ctx *c, const tv *a, const tv *b, TSNode at, const char *verb,
                            TSNode an, TSNode bn)
{
    if (a->taint == b->taint || !tt_has_extent(a) || !tt_has_extent(b))
        return;
    if (a->taint & ~b->taint) {
        char *w = kc_xasprintf("%s `%s`", verb, tt_text(c->mod, bn));
        tt_observe(c, a->taint & ~b->taint, at, w);
        free(w);
    }
    if (b->taint & ~a->taint) {
        char *w = kc_xasprintf("%s `%s`", verb, tt_text(c->mod, an));
        tt_observe(c, b->taint & ~a->taint, at, w);
        free(w);
    }
}

/* ---- symbols and facts ---- */

void tt_mark_size(tt_ctx *c, const kc_index *x, const char *evidence, bool problem)
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

/* ---- call arguments ---- */

TSNode tt_call_arg(tt_module *m, TSNode call, uint32_t pos, const char *kw)
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

uint32_t tt_call_nargs(TSNode call)
{
    TSNode args = tt_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args), k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!TT_IS(ts_node_named_child(args, i), comment))
            k++;
    return k;
}

tv tt_eval_opt(tt_ctx *c, TSNode n)
{
    if (ts_node_is_null(n)) {
        tv v = tt_unknown();
        v.kind = TV_NONE;
        v.ce = true;
        return v;
    }
    return c->eval(c, n);
}
