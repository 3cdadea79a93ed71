/* triton_call.c — calls: the triton.language builtins (one function per
 * family, found by name in tl_calls), element-wise results and casts,
 * methods on values (x.to(), x.sum(), x.reshape()), and calls of anything
 * else (a helper's result depends on its arguments). Calls the files below
 * it; arguments are evaluated through the context's `eval`.
 */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- element-wise calls, casts ---- */

/* How the element type of an element-wise call's result follows from its
 * arguments. */
typedef enum ew_elt { EW_ELT_UNKNOWN = 0, EW_ELT_PROMOTE, EW_ELT_PROMOTE_BUT_FIRST } ew_elt;

/* A call whose result has the broadcast shape of its arguments when
 * `exact` (tl.where, tl.maximum, math); a helper or builtin we do not model
 * gets that shape too, but marked vague. */
/* The value arguments an element-wise call was given (for KC306). */
typedef struct ew_args {
    tv vals[4];
    TSNode nodes[4];
    uint32_t n;
} ew_args;

static tv elementwise_args(tt_ctx *c, TSNode call, bool float_result, bool exact, ew_elt eltmode, ew_args *out)
{
    TSNode args = tt_field(call, "arguments");
    bool vague = !exact;
    uint64_t prods = 0;
    uint8_t elt = TT_ELT_UNKNOWN, bits = 32;
    bool have_elt = false;
    uint32_t argi = 0;
    uint32_t n = ts_node_named_child_count(args);
    tv acc = tt_unknown();
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
        tv v = c->eval(c, a);
        if (v.kind == TV_DTYPE || v.kind == TV_STR || v.kind == TV_NONE)
            continue;
        vague |= tt_is_vague(&v);
        prods |= v.prods;
        if (v.kind == TV_NUM && v.bits > bits)
            bits = v.bits;
        if (eltmode == EW_ELT_PROMOTE || (eltmode == EW_ELT_PROMOTE_BUT_FIRST && argi > 0)) {
            elt = have_elt ? tt_elt_promote(elt, v.elt, false) : v.elt;
            have_elt = true;
        }
        argi++;
        if (nv < 8)
            vals[nv++] = v;
        if (out && out->n < 4) {
            out->vals[out->n] = v;
            out->nodes[out->n++] = a;
        }
        if (!first)
            tt_observe_combine(c, &acc, &v, call, "combined element-wise with", first_node, a);
        kc_shape s = tt_shape_of2(&acc, &v);
        d = tt_deps_or(tt_deps_to_rank(d, acc.shape.rank, s.rank), tt_deps_to_rank(tt_deps(&v), v.shape.rank, s.rank));
        acc.shape = s;
        acc.shape_unknown |= v.shape_unknown;
        acc.taint |= v.taint;
        acc.ce = acc.ce && v.ce;
        acc.from_dot |= v.from_dot;
        if (v.random)
            acc.random = true;
        else if (tt_has_extent(&v))
            saw_ordered = true;
        if (first)
            first_node = a;
        first = false;
    }
    tv r = tt_opaque(c, call, d, &acc.shape, bits);
    r.shape_unknown = acc.shape_unknown;
    r.taint = acc.taint;
    r.ce = acc.ce;
    r.is_float = float_result;
    r.from_dot = acc.from_dot;
    r.random = acc.random && !saw_ordered;
    r.vague = vague;
    r.prods = prods;
    r.elt = eltmode == EW_ELT_UNKNOWN ? TT_ELT_UNKNOWN : elt;
    tt_fp64_call(c, &r, vals, nv, call, exact && float_result);
    return r;
}

static tv elementwise_x(tt_ctx *c, TSNode call, bool float_result, bool exact, ew_elt eltmode)
{
    return elementwise_args(c, call, float_result, exact, eltmode, NULL);
}

/* An element-wise function `fn` of the arguments: what masked-out lanes of
 * a load among them hold after it (KC306). */
static tv elementwise_fn(tt_ctx *c, TSNode call, bool float_result, bool exact, ew_elt eltmode, const char *fn)
{
    ew_args args;
    args.n = 0;
    tv r = elementwise_args(c, call, float_result, exact, eltmode, &args);
    for (uint32_t i = 0; i < args.n; i++)
        if (tt_junk(&args.vals[i])) {
            tt_junk_unary(c, &r, args.n == 1 ? fn : "", &args.vals[i], call);
            break;
        }
    return r;
}

static tv elementwise(tt_ctx *c, TSNode call, bool float_result)
{
    return elementwise_x(c, call, float_result, true, EW_ELT_UNKNOWN);
}

/* min of two integer values (tl.minimum, Python min): what it is the
 * smaller of, for the comparisons made with it. */
static tv min_of_two(tt_ctx *c, TSNode call, ew_elt eltmode, bool junk)
{
    ew_args args;
    args.n = 0;
    tv r = elementwise_args(c, call, false, true, eltmode, &args);
    for (uint32_t i = 0; junk && i < args.n; i++)
        if (tt_junk(&args.vals[i])) {
            tt_junk_unary(c, &r, args.n == 1 ? "minimum" : "", &args.vals[i], call);
            break;
        }
    if (args.n == 2 && ts_node_named_child_count(tt_field(call, "arguments")) == 2) {
        const tv *a = &args.vals[0], *b = &args.vals[1];
        if (a->kind == TV_NUM && b->kind == TV_NUM && a->idx && b->idx && !a->is_float && !b->is_float) {
            r.min_of[0] = a->idx;
            r.min_of[1] = b->idx;
        }
    }
    return r;
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
    r.f64_from = 0; /* the cast's type, whatever came in */
    r.f32_some = false;
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
    tt_junk_remap(&r, x, map);
    return r;
}

/* ---- the tl.* builtins, one function per family ---- */

/* tl.program_id, tl.num_programs: the program's index in the grid, the grid's size. */
static tv tl_program(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv ax = tt_eval_opt(c, tt_call_arg(md, call, 0, "axis"));
    int64_t axis = 0;
    tt_is_const(&ax, &axis);
    tv v = tt_unknown();
    v.kind = TV_NUM;
    kc_deps d = {0, KC_AF_PROGRAM, 0, axis >= 0 && axis < 3 ? KC_PROG_AXIS(axis) : KC_PROG_ALL, 0};
    if (name[0] == 'n')
        d.flags = d.programs = 0;
    /* `ext.program_id(0)` through a project module whose wrapper returns
     * it `.to(tl.int64)` (FlagGems' triton_lang_extension) */
    unsigned bits = 32;
    TSNode f = tt_field(call, "function");
    if (TT_IS(f, attribute)) {
        TSNode obj = tt_field(f, "object");
        for (uint32_t i = 0; TT_IS(obj, identifier) && i < md->aliases.len; i++)
            if (md->aliases.data[i].widened && tt_text_eq(md, obj, md->aliases.data[i].local) &&
                (md->aliases.data[i].widened & (name[0] == 'p' ? TT_WIDE_PROGRAM_ID : TT_WIDE_NUM_PROGRAMS)))
                bits = 64;
    }
    v.bits = (uint8_t)bits;
    v.idx = kc_index_atom(c->a, kc_atom_make(name[0] == 'p' ? KC_ATOM_PROGRAM : KC_ATOM_GRID_DIM,
                                             (uint32_t)(axis & 3), d),
                          bits, KC_SPACE_BLOCK, NULL);
    v.elt = TT_ELT_INT;
    return v;
}

/* tl.arange: a block of lanes, recorded with its length. */
static tv tl_arange(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode sn = tt_call_arg(md, call, 0, "start"), en = tt_call_arg(md, call, 1, "end");
    tv s = tt_eval_opt(c, sn), e = tt_eval_opt(c, en);
    int64_t sv = 0, ev;
    kc_arange ar;
    memset(&ar, 0, sizeof ar);
    ar.span = tt_span(call);
    ar.text = tt_short_text(c, call);
    ar.len.value = -1;
    ar.len.symbol = KC_NONE;
    bool s_const = tt_is_const(&s, &sv);
    if (s_const && tt_is_const(&e, &ev))
        ar.len.value = ev - sv;
    if (s_const && sv == 0 && e.sym != KC_NONE)
        ar.len.symbol = e.sym;
    ar.start = s_const ? sv : 0;
    kc_vec_push(&c->k->aranges, ar);
    uint32_t id = c->k->aranges.len - 1;
    kc_shape shp = {.rank = 1};
    shp.dims[0] = ar.len;
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.shape = shp;
    kc_deps d = {1, KC_AF_THREAD, 0, 0, 0};
    const kc_index *lane = kc_index_atom(c->a, kc_atom_make(KC_ATOM_LANE, id, d), 32, KC_SPACE_BLOCK, &shp);
    v.idx = s_const ? (sv ? kc_index_add(c->a, lane, kc_index_const(c->a, sv, 32, KC_SPACE_BLOCK)) : lane)
                    : kc_index_add(c->a, lane, tt_num_of(c, &s, ts_node_is_null(sn) ? call : sn).idx);
    if (!v.idx)
        v.idx = lane;
    v.elt = TT_ELT_INT;
    return v;
}

/* tl.zeros, tl.full, tl.empty: a fresh block of a shape and dtype. */
static tv tl_fill(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv sv = tt_eval_opt(c, tt_call_arg(md, call, 0, "shape"));
    tv dt = tt_eval_opt(c, tt_call_arg(md, call, !strcmp(name, "full") ? 2 : 1, "dtype"));
    tv v = tt_unknown();
    v.kind = TV_NUM;
    if (!tt_shape_from(&sv, &v.shape))
        v.shape_unknown = true;
    int64_t x = 0;
    if (!strcmp(name, "full")) {
        tv fv = tt_eval_opt(c, tt_call_arg(md, call, 1, "value"));
        if (!tt_is_const(&fv, &x)) {
            kc_shape sh = v.shape;
            bool su = v.shape_unknown;
            v = tt_opaque(c, call, tt_deps(&fv), &sh, 32);
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
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.shape = x.shape;
    v.shape_unknown = x.shape_unknown;
    v.idx = tt_opaque(c, call, (kc_deps){0}, &v.shape, 32).idx;
    return v;
}

/* tl.load, tl.store, tl.atomic_*: memory accesses. */
static tv tl_load(tt_ctx *c, TSNode call, const char *name)
{
    return tt_load(c, call, false, NULL);
}

static tv tl_store(tt_ctx *c, TSNode call, const char *name)
{
    return tt_store(c, call, KC_ACC_STORE);
}

static tv tl_atomic(tt_ctx *c, TSNode call, const char *name)
{
    return tt_store(c, call, KC_ACC_ATOMIC);
}

/* tl.make_block_ptr: a block pointer into a parameter. */
static tv tl_make_block_ptr(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode bn = tt_call_arg(md, call, 0, "base");
    tv b = tt_eval_opt(c, bn);
    tv bs = tt_eval_opt(c, tt_call_arg(md, call, 4, "block_shape"));
    tv r = tt_unknown();
    r.kind = TV_PTR;
    r.block_ptr = true;
    r.base = b.kind == TV_PTR ? b.base : KC_NONE;
    if (!tt_shape_from(&bs, &r.shape))
        r.shape_unknown = true;
    tv offs = tt_eval_opt(c, tt_call_arg(md, call, 3, "offsets"));
    /* the program ids it depends on: its offsets' and its base's (KC404) */
    r.deps = tt_deps_or(tt_deps(&offs), b.kind == TV_PTR ? tt_deps(&b) : (kc_deps){0});
    r.deps.axes = 0;
    return r;
}

/* tl.advance: the block pointer moved by offsets. */
static tv tl_advance(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv p = tt_eval_opt(c, tt_call_arg(md, call, 0, "base"));
    tv o = tt_eval_opt(c, tt_call_arg(md, call, 1, "offsets"));
    kc_deps d = tt_deps(&o);
    d.axes = 0;
    p.deps = tt_deps_or(p.deps, d);
    return p;
}

/* tl.sum, tl.max, tl.min, tl.argmax, ...: a reduction along an axis or of the whole block. */
static tv tl_reduce(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode xn = tt_call_arg(md, call, 0, "input");
    tv x = tt_eval_opt(c, xn);
    if (!strcmp(name, "sum"))
        tt_check_narrow_sum(c, call, xn, &x);
    TSNode axisn = tt_call_arg(md, call, 1, "axis");
    tt_junk_reduce(c, call, tt_field(call, "function"), name, &x, axisn);
    return tt_reduce(c, call, &x, axisn, false);
}

/* tl.cumsum, tl.cumprod, tl.associative_scan: a scan along an axis. */
static tv tl_scan(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    return tt_reduce(c, call, &x, tt_call_arg(md, call, 1, "axis"), true);
}

/* tl.dot, tl.dot_scaled: a matrix product, with its accumulator and output type. */
/* The K extent of a dot's first operand (its last dimension), the largest
 * value a launch or an autotune config gives it; -1 unknown. */
static int64_t dot_k_extent(const tt_ctx *c, const tv *a)
{
    if (a->shape_unknown || a->shape.rank < 2)
        return -1;
    const kc_dim *d = &a->shape.dims[a->shape.rank - 1];
    if (d->value >= 0)
        return d->value;
    if (d->symbol == KC_NONE || d->symbol >= c->k->symbols.len)
        return -1;
    const kc_symbol *sy = &c->k->symbols.data[d->symbol];
    if (sy->has_value)
        return sy->value;
    int64_t most = -1;
    for (uint32_t i = 0; i < sy->nvalues; i++)
        most = sy->values[i] > most ? sy->values[i] : most;
    return most;
}

static tv tl_dot(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    /* tl.dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format,
     * acc=None, ...): the operands are the first and the fourth; the scales
     * between them are not multiplied as matrices. Packed fp4 operands
     * hold two values a byte along K (or along M / N with `*_k_pack=False`),
     * so the result takes the accumulator's shape where there is one. */
    bool scaled = !strcmp(name, "dot_scaled");
    TSNode an = scaled ? tt_call_arg(md, call, 0, "lhs") : tt_call_arg(md, call, 0, "input");
    TSNode bn = scaled ? tt_call_arg(md, call, 3, "rhs") : tt_call_arg(md, call, 1, "other");
    tv a = tt_eval_opt(c, an), b = tt_eval_opt(c, bn);
    tv acc = tt_eval_opt(c, scaled ? tt_call_arg(md, call, 6, "acc") : tt_call_arg(md, call, 2, "acc"));
    tt_junk_dot(c, call, tt_field(call, "function"), &a, &b);
    if (a.taint)
        tt_observe(c, a.taint, an, "multiplied in tl.dot");
    if (b.taint)
        tt_observe(c, b.taint, bn, "multiplied in tl.dot");
    kc_shape s = {0};
    bool su = true;
    if (scaled && acc.kind != TV_NONE) {
        if (!acc.shape_unknown && acc.shape.rank >= 2) {
            s = acc.shape;
            su = false;
        }
    } else if (scaled) {
        /* no accumulator: [M, N] only where neither operand is packed
         * along M or N, which kcheck does not follow */
    } else if (!a.shape_unknown && !b.shape_unknown && a.shape.rank >= 2 && b.shape.rank >= 2) {
        s = a.shape;
        s.dims[s.rank - 1] = b.shape.dims[b.shape.rank - 1];
        su = false;
    }
    kc_deps d = tt_deps_or(tt_deps(&a), tt_deps(&b));
    if (acc.kind != TV_NONE)
        d = tt_deps_or(d, tt_deps(&acc));
    d.axes = (uint8_t)(su ? 0 : (d.axes ? (1u << s.rank) - 1 : 0));
    tv r = tt_opaque(c, call, d, &s, 32);
    r.shape_unknown = su;
    r.from_dot = true;
    r.is_float = true;
    r.vague = tt_is_vague(&a) || tt_is_vague(&b);
    TSNode odn = tt_call_arg(md, call, 99, "out_dtype");
    tv od = tt_eval_opt(c, odn);
    if (od.kind == TV_DTYPE) {
        r.elt = od.elt;
        r.dtype_span = od.dtype_span;
        /* Without an accumulator operand the narrow sum spans one K tile
         * (`acc += tl.dot(p, v, out_dtype=tl.float16)` into a float32 acc):
         * its error is bounded by the tile, reported only for a wide one.
         * So does one whose accumulator is a fresh zero tile
         * (`acc=tl.zeros(...)`: nothing carried in from earlier tiles). */
        int64_t z = -1;
        bool fresh = acc.kind != TV_NONE && tt_is_const(&acc, &z) && z == 0;
        if (tt_elt_low(od.elt) && ((acc.kind != TV_NONE && !fresh) || dot_k_extent(c, &a) > KC_NARROW_SUM_TERMS)) {
            tt_record_accum(c, call, NULL, &od, KC_ACCUM_DOT);
            /* out_dtype must stay the accumulator operand's dtype: a fresh
             * zero tile written in the call would need the same change,
             * which this fix-it does not make (a carried one is widened by
             * its own finding's fix) */
            if (fresh)
                kc_vec_last(&c->k->accums)->fix_text = NULL;
        }
    } else {
        r.elt = a.elt == TT_ELT_INT || b.elt == TT_ELT_INT ? TT_ELT_INT : TT_ELT_FP32;
    }
    return r;
}

/* tl.view, tl.reshape: the block in another shape (a reorder unless guaranteed not to be). */
static tv tl_reshape(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    TSNode xn = tt_call_arg(md, call, 0, "input"), sn = tt_call_arg(md, call, 1, "shape");
    tv x = tt_eval_opt(c, xn);
    TSNode crn = tt_call_arg(md, call, 2, "can_reorder");
    bool cr = !ts_node_is_null(crn) && TT_IS(tt_unparen(crn), true);
    bool is_view = !strcmp(name, "view");
    return tt_reshape(c, call, name, xn, &x, sn, is_view || cr, cr);
}

/* tl.trans, tl.permute: the axes permuted. */
static tv tl_permute(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    uint8_t perm[KC_MAX_RANK];
    unsigned rank = x.shape.rank;
    if (rank < 2 || x.shape_unknown)
        return x;
    for (unsigned i = 0; i < rank; i++)
        perm[i] = (uint8_t)i;
    uint32_t nargs = tt_call_nargs(call);
    if (nargs > 1) {
        /* the order as one tuple (`tl.trans(x, (1, 0))`, `dims=`) or as
         * separate arguments (`tl.trans(x, 1, 0)`); one not read leaves
         * the shape unknown, not unpermuted */
        tv dims = c->eval(c, tt_call_arg(md, call, 1, "dims"));
        bool tuple = dims.kind == TV_TUPLE && dims.ntuple == rank;
        if (!tuple && nargs != rank + 1) {
            x.shape_unknown = true;
            return x;
        }
        bool seen[KC_MAX_RANK] = {false};
        for (unsigned i = 0; i < rank; i++) {
            tv d = tuple ? dims.tuple[i] : c->eval(c, tt_call_arg(md, call, 1 + i, NULL));
            int64_t p;
            if (!tt_is_const(&d, &p) || p < 0 || (unsigned)p >= rank || seen[p]) {
                x.shape_unknown = true;
                return x;
            }
            seen[p] = true;
            perm[i] = (uint8_t)p;
        }
    } else {
        perm[rank - 2] = (uint8_t)(rank - 1);
        perm[rank - 1] = (uint8_t)(rank - 2);
    }
    return tt_permute(c, call, &x, perm, rank);
}

/* tl.expand_dims: a unit axis inserted. */
static tv tl_expand_dims(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    tv ax = tt_eval_opt(c, tt_call_arg(md, call, 1, "axis"));
    int64_t a;
    return tt_is_const(&ax, &a) ? expand_dims(c, &x, a) : x;
}

/* tl.broadcast_to: the block broadcast to a shape. */
static tv tl_broadcast_to(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    tv sv = tt_eval_opt(c, tt_call_arg(md, call, 1, "shape"));
    kc_shape s;
    if (!tt_shape_from(&sv, &s))
        return x;
    tv r = x;
    r.shape = s;
    if (x.idx && s.rank >= x.shape.rank)
        r.idx = kc_index_broadcast(c->a, x.idx, &s);
    r.deps = tt_deps_to_rank(x.deps, x.shape.rank, s.rank);
    tt_junk_to_rank(&r, &x);
    return r;
}

/* tl.multiple_of, tl.max_contiguous, tl.max_constancy, tl.constexpr: the value itself. */
static tv tl_hint(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    if (!strcmp(name, "constexpr"))
        x.ce = true;
    return x;
}

/* tl.cast: the value converted to a dtype. */
static tv tl_cast(tt_ctx *c, TSNode call, const char *name)
{
    tt_module *md = c->mod;
    tv x = tt_eval_opt(c, tt_call_arg(md, call, 0, "input"));
    tv dt = tt_eval_opt(c, tt_call_arg(md, call, 1, "dtype"));
    return cast(c, call, &x, &dt);
}

/* tl.debug_barrier: a barrier of the program's threads. */
static tv tl_debug_barrier(tt_ctx *c, TSNode call, const char *name)
{
    kc_barrier b = {.span = tt_span(call), .name = "tl.debug_barrier", .guard = c->cond, .loop = c->loop};
    kc_vec_push(&c->k->barriers, b);
    tv r = tt_unknown();
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
    bool states = strcmp(name, "static_print") && strcmp(name, "device_print");
    c->asserting += states;
    for (uint32_t i = 0; i < n; i++)
        if (!TT_IS(ts_node_named_child(args, i), comment))
            (void)c->eval(c, ts_node_named_child(args, i));
    c->asserting -= states;
    if (states)
        tt_note_multiple(c, tt_call_arg(md, call, 0, "cond"), call);
    tv r = tt_unknown();
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
/* The kernel symbol a tile count divides: the first argument of the
 * cdiv when it is a name of one (KC_NONE otherwise). */
static uint32_t counted_symbol(tt_ctx *c, TSNode call)
{
    TSNode n = tt_unparen(tt_call_arg(c->mod, call, 0, NULL));
    if (!TT_IS(n, identifier))
        return KC_NONE;
    tv *v = tt_env_get(&c->env, tt_text(c->mod, n));
    if (!v)
        return KC_NONE;
    const kc_index *x = v->kind == TV_NUM ? v->idx : NULL;
    if (x && x->nmono == 1 && x->mono[0].nfac == 1 && x->mono[0].coef == 1 && x->mono[0].fac[0].kind == KC_ATOM_SYMBOL)
        return x->mono[0].fac[0].id;
    return v->sym;
}

static tv tl_cdiv(tt_ctx *c, TSNode call, const char *name)
{
    tv r = elementwise(c, call, false);
    r.tile_count = true;
    r.tile_count_of = counted_symbol(c, call);
    return r;
}

/* tl.where: element-wise; the type of the two values it selects between. */
static tv tl_where(tt_ctx *c, TSNode call, const char *name)
{
    ew_args args;
    args.n = 0;
    tv r = elementwise_args(c, call, false, true, EW_ELT_PROMOTE_BUT_FIRST, &args);
    if (args.n == 3)
        tt_junk_where(c, &r, &args.vals[0], &args.vals[1], &args.vals[2], args.nodes[1], args.nodes[2]);
    return r;
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
    if (!strcmp(name, "minimum"))
        return min_of_two(c, call, EW_ELT_PROMOTE, true);
    return elementwise_fn(c, call, fl, exact, keeps_type ? EW_ELT_PROMOTE : EW_ELT_UNKNOWN, exact ? name : "");
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

/* ---- methods and other calls ---- */

/* Method calls on values: x.to(...), x.sum(axis=1), x.reshape(...). */
static tv eval_method(tt_ctx *c, TSNode call, TSNode objn, const char *meth)
{
    tt_module *md = c->mod;
    tv x = c->eval(c, objn);
    if (!strcmp(meth, "to") || !strcmp(meth, "cast")) {
        tv dt = tt_eval_opt(c, tt_call_arg(md, call, 0, "dtype"));
        return cast(c, call, &x, &dt);
    }
    if (!strcmp(meth, "sum") || !strcmp(meth, "max") || !strcmp(meth, "min") ||
        !strcmp(meth, "argmax") || !strcmp(meth, "argmin") || !strcmp(meth, "reduce")) {
        if (!strcmp(meth, "sum"))
            tt_check_narrow_sum(c, call, objn, &x);
        TSNode axisn = tt_call_arg(md, call, 0, "axis");
        tt_junk_reduce(c, call, tt_field(call, "function"), meth, &x, axisn);
        return tt_reduce(c, call, &x, axisn, false);
    }
    if (!strcmp(meth, "cumsum") || !strcmp(meth, "cumprod"))
        return tt_reduce(c, call, &x, tt_call_arg(md, call, 0, "axis"), true);
    if (!strcmp(meth, "reshape") || !strcmp(meth, "view")) {
        TSNode sn = tt_call_arg(md, call, 0, "shape");
        if (tt_call_nargs(call) > 1 && ts_node_is_null(tt_call_arg(md, call, 1, NULL)) == false &&
            !TT_IS(tt_call_arg(md, call, 1, NULL), keyword_argument)) {
            /* x.reshape(A, B) with the dims as separate arguments */
            tv r = x;
            r.shape_unknown = true;
            return r;
        }
        TSNode crn = tt_call_arg(md, call, 1, "can_reorder");
        bool cr = !ts_node_is_null(crn) && TT_IS(tt_unparen(crn), true);
        return tt_reshape(c, call, meth, objn, &x, sn, !strcmp(meth, "view") || cr, cr);
    }
    if (!strcmp(meth, "trans") || !strcmp(meth, "T")) {
        /* `x.T`, `x.trans()` and `x.trans(1, 0)` of a 2-D block swap its
         * axes; any other order or rank is not read */
        int64_t a0 = -1, a1 = -1;
        uint32_t nargs = !strcmp(meth, "trans") ? tt_call_nargs(call) : 0;
        if (nargs == 2) {
            tv d0 = tt_eval_opt(c, tt_call_arg(md, call, 0, NULL)), d1 = tt_eval_opt(c, tt_call_arg(md, call, 1, NULL));
            if (!tt_is_const(&d0, &a0) || !tt_is_const(&d1, &a1))
                a0 = a1 = -1;
        }
        if (x.shape.rank == 2 && !x.shape_unknown && (nargs == 0 || (a0 == 1 && a1 == 0))) {
            uint8_t perm[2] = {1, 0};
            return tt_permute(c, call, &x, perm, 2);
        }
        if (!(nargs == 2 && a0 == 0 && a1 == 1))
            x.shape_unknown = true;
        return x;
    }
    if (!strcmp(meth, "expand_dims")) {
        tv ax = tt_eval_opt(c, tt_call_arg(md, call, 0, "axis"));
        int64_t a;
        return tt_is_const(&ax, &a) ? expand_dims(c, &x, a) : x;
    }
    if (!strcmp(meth, "broadcast_to")) {
        tv r = x;
        tt_junk_clear(&r); /* its shape is not read */
        return r;
    }
    if (!strcmp(meth, "__getitem__"))
        return tt_unknown();
    tv r = tt_opaque(c, call, tt_deps(&x), &x.shape, x.bits);
    r.shape_unknown = x.shape_unknown;
    r.taint = x.taint;
    return r;
}

tv tt_eval_call(tt_ctx *c, TSNode call)
{
    tt_module *md = c->mod;
    TSNode f = tt_field(call, "function");
    const char *q = tt_qualify(md, f);
    const char *tl = tt_tl_name(q);
    /* a barrier of an extension (`tle.distributed_barrier(mesh)`, a grid
     * sync): kept by its name, so that KC404 sees the programs ordered */
    const char *fn = tt_text(md, f);
    if (!(tl && !strcmp(tl, "debug_barrier")) &&
        (strstr(fn, "barrier") || strstr(fn, "grid_sync") || strstr(fn, "sync_grid"))) {
        kc_barrier b = {.span = tt_span(call), .name = fn, .guard = c->cond, .loop = c->loop};
        kc_vec_push(&c->k->barriers, b);
    }
    if (tl) {
        /* tl.math.exp, tl.extra.cuda.libdevice.x: element-wise */
        if (strchr(tl, '.')) {
            const char *last = strrchr(tl, '.') + 1;
            tv r = elementwise_fn(c, call, true, true, EW_ELT_UNKNOWN, last);
            if (strstr(last, "philox") || !strncmp(last, "rand", 4))
                r.random = true;
            return r;
        }
        return eval_tl_call(c, call, tl);
    }
    if (q && !strcmp(q, "triton.cdiv")) {
        tv r = elementwise(c, call, false);
        r.tile_count = true;
        r.tile_count_of = counted_symbol(c, call);
        return r;
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
        if (!TT_IS(leftmost, identifier) || tt_env_get(&c->env, tt_text(md, leftmost)))
            return eval_method(c, call, obj, meth);
    }
    if (TT_IS(f, identifier)) {
        const char *fname = tt_text(md, f);
        if (!strcmp(fname, "min") && !tt_env_get(&c->env, fname))
            return min_of_two(c, call, EW_ELT_UNKNOWN, false);
        /* `len(xs)` of a tuple (of blocks): the tuple's size, fixed when the
         * kernel is compiled (Triton wraps the builtin's result in a
         * constexpr), so `tl.static_range(len(xs))` compiles */
        if (!strcmp(fname, "len") && !tt_env_get(&c->env, fname)) {
            tv r = elementwise(c, call, false);
            r.ce = true;
            return r;
        }
        if (!strcmp(fname, "min") || !strcmp(fname, "max") || !strcmp(fname, "abs") ||
            !strcmp(fname, "int") || !strcmp(fname, "float") || !strcmp(fname, "len") ||
            !strcmp(fname, "bool"))
            return elementwise(c, call, !strcmp(fname, "float"));
        if (!strcmp(fname, "range")) {
            tv r = tt_unknown();
            return r;
        }
    }
    /* A call of another @triton.jit function or an unknown helper: its
     * result depends on its arguments. A random-number helper (philox,
     * randint, uint_to_uniform_float of random bits) yields random values.
     * Its shape is not known. */
    tv r = elementwise_x(c, call, false, false, EW_ELT_UNKNOWN);
    if (strstr(fn, "philox") || strstr(fn, "rand"))
        r.random = true;
    return r;
}
