/* triton_fp64.c — KC501 in Triton kernels: where a float scalar parameter
 * brings fp64 into fp32 arithmetic.
 *
 * A Python-float argument is typed fp32 by eager Triton and fp64 by
 * Inductor (a launch that torch.compile traces). An fp64 scalar is not a
 * Python literal, so it takes part in type promotion: `x * eps` over an
 * fp32 block is computed in fp64, and so is everything computed from the
 * result until a cast. A value carries `f64_from`, the parameter (symbol +
 * 1) it is computed from in that way; the operations where such a value
 * first meets data of a known non-fp64 type are recorded as kc_fp64_use.
 * A value whose eager type is not known (a raw load, which may hold fp64
 * data) drops the mark: the kernel may compute in fp64 on purpose. */
#include "triton_internal.h"

#include <string.h>

/* A type a runtime value has that an fp64 scalar promotes: fp32 and
 * narrower floats, integers. Python literals take no part in promotion,
 * and an unknown type may be fp64 already. */
static const char *promoted_type(uint8_t elt, uint8_t bits)
{
    switch (elt) {
    case TT_ELT_FP32: return "fp32";
    case TT_ELT_FP16: return "fp16";
    case TT_ELT_BF16: return "bf16";
    case TT_ELT_FP8: return "fp8";
    case TT_ELT_INT: return bits == 64 ? "int64" : "int32";
    default: return NULL;
    }
}

/* What a promoted value is called in messages: its type, or fp32 where
 * some specialization casts it so; NULL when it may be fp64. */
static const char *with_type(const tv *v)
{
    const char *t = promoted_type(v->elt, v->bits);
    return t ? t : v->f32_some ? "fp32" : NULL;
}

/* r is computed from marked `m`: pinned where m is. */
static void take_pin(tv *r, const tv *m)
{
    r->f64_pin = m->f64_pin;
    r->f64_pin_neg = m->f64_pin_neg;
}

static void record(tt_ctx *c, uint32_t from, TSNode at, const char *with, const char *callee, bool block)
{
    kc_span sp = tt_span(at);
    for (uint32_t i = 0; i < c->k->fp64_uses.len; i++) {
        const kc_fp64_use *u = &c->k->fp64_uses.data[i];
        if (u->symbol == from - 1 && u->span.line == sp.line && u->span.col == sp.col)
            return; /* the same operation again (a loop body evaluated twice, a helper inlined twice) */
    }
    kc_fp64_use u = {.symbol = from - 1,
                     .span = sp,
                     .text = tt_short_text(c, at),
                     .with = with,
                     .callee = callee,
                     .block = block,
                     .loop = c->loop};
    const char *name = c->k->symbols.data[from - 1].name;
    u.fix_text = kc_arena_printf(c->a, "%s = %s.to(%s.float32)", name, name, c->tl_alias ? c->tl_alias : "tl");
    kc_vec_push(&c->k->fp64_uses, u);
}

void tt_fp64_param(tv *v, uint32_t symbol, bool known)
{
    if (known) {
        v->elt = TT_ELT_FP32;
        v->is_float = true;
    }
    v->f64_from = symbol + 1;
}

/* The eager type of an operand, a marked one taken as fp32 (what eager
 * Triton makes of a Python float). */
static uint8_t eager_elt(const tv *v)
{
    return (v->f64_from || v->f32_some) && !tt_elt_f32_or_narrower(v->elt) ? TT_ELT_FP32 : v->elt;
}

/* A type that keeps a value fp32 in the specializations where it is. */
static bool keeps_some(const tv *v)
{
    return tt_some_f32(v) || v->elt == TT_ELT_PYFLOAT || v->elt == TT_ELT_PYINT || v->elt == TT_ELT_INT || v->f64_from;
}

/* The mark of `v` where it is used: none under the condition of the
 * branch that pinned it (the same compile-time condition tested again). */
static uint32_t live(const tt_ctx *c, const tv *v)
{
    if (!v->f64_from || !v->f64_pin || v->f64_pin - 1 >= c->k->conds.len)
        return v->f64_from;
    const kc_cond *pin = &c->k->conds.data[v->f64_pin - 1];
    bool neg = pin->negated ^ v->f64_pin_neg;
    for (uint32_t id = c->cond, depth = 0; id != KC_NONE && id < c->k->conds.len && depth < 64; depth++) {
        const kc_cond *k = &c->k->conds.data[id];
        if (k->negated == neg && k->text && pin->text && !strcmp(k->text, pin->text))
            return 0;
        id = k->parent;
    }
    return v->f64_from;
}

void tt_fp64_binop(tt_ctx *c, tv *r, const tv *a, const tv *b, TSNode at)
{
    tv la = *a, lb = *b;
    la.f64_from = live(c, a);
    lb.f64_from = live(c, b);
    a = &la;
    b = &lb;
    r->f32_some = !tt_elt_f32_or_narrower(r->elt) && keeps_some(a) && keeps_some(b) && (tt_some_f32(a) || tt_some_f32(b));
    r->f64_pin = 0;
    uint32_t from = a->f64_from ? a->f64_from : b->f64_from;
    r->f64_from = 0;
    if (!from || !tt_elt_f32_or_narrower(tt_elt_promote(eager_elt(a), eager_elt(b), false)))
        return;
    r->f64_from = from;
    if (a->f64_from && b->f64_from)
        return; /* both fp64 already */
    /* computed from a value pinned under some condition: pinned there too */
    take_pin(r, a->f64_from ? a : b);
    const char *with = with_type(a->f64_from ? b : a);
    if (with)
        record(c, from, at, with, NULL, tt_has_extent(r));
}

void tt_fp64_call(tt_ctx *c, tv *r, const tv *args, uint32_t n, TSNode call, bool math)
{
    uint32_t from = 0;
    tv live_args[8];
    n = n > 8 ? 8 : n;
    for (uint32_t i = 0; i < n; i++) {
        live_args[i] = args[i];
        live_args[i].f64_from = live(c, &args[i]);
        if (!from)
            from = live_args[i].f64_from;
    }
    args = live_args;
    bool any = false, all = true;
    for (uint32_t i = 0; i < n; i++) {
        if (args[i].elt == TT_ELT_BOOL || args[i].kind == TV_BOOL)
            continue;
        any |= tt_some_f32(&args[i]);
        all &= keeps_some(&args[i]);
    }
    r->f32_some = !tt_elt_f32_or_narrower(r->elt) && any && all;
    r->f64_pin = 0;
    r->f64_from = 0;
    if (!from)
        return;
    /* Every other argument of a known type (a condition aside): an
     * unknown one may be fp64 data. */
    const char *with = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (args[i].f64_from || args[i].elt == TT_ELT_BOOL || args[i].kind == TV_BOOL ||
            args[i].elt == TT_ELT_PYFLOAT || args[i].elt == TT_ELT_PYINT)
            continue;
        const char *t = with_type(&args[i]);
        if (!t)
            return;
        if (!with)
            with = t;
    }
    /* A math function of an fp32 value is fp32 in eager mode; tl.where,
     * tl.maximum: the promoted type of their values. */
    uint8_t e = TT_ELT_FP32;
    for (uint32_t i = 0; i < n && !math; i++)
        if (args[i].elt != TT_ELT_BOOL && args[i].kind != TV_BOOL)
            e = tt_elt_promote(e, eager_elt(&args[i]), false);
    if (!tt_elt_f32_or_narrower(e))
        return;
    r->f64_from = from;
    for (uint32_t i = 0; i < n; i++)
        if (args[i].f64_from) {
            take_pin(r, &args[i]);
            break;
        }
    if (with)
        record(c, from, call, with, NULL, tt_has_extent(r));
    else if (math)
        record(c, from, call, NULL, tt_short_text(c, tt_field(call, "function")), tt_has_extent(r));
}
