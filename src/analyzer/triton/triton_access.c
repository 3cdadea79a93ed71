/* triton_access.c — memory accesses and the observations the checks need
 * beyond them: loads, stores and atomics with their masks and the shapes
 * of their operands (KC302), the values loads yield; low-precision
 * accumulation (KC502); sizes the kernel asserts to be multiples (KC303);
 * Python boolean operators on blocks (KC305). Calls triton_shape.c and
 * triton_value.c; operands are evaluated through the context's `eval`.
 */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- accesses ---- */

/* Operand shapes of a load/store as far as they are known (KC302). */
static bool operand_shape(const tv *v, bool want_ptr, kc_shape *out)
{
    memset(out, 0, sizeof *out);
    if (v->kind == TV_NONE || tt_is_vague(v))
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
        a.addr_text = tt_short_text(c, ptrn);
    }
    a.whole_block = ptr->shape_unknown || ptr->shape.rank > 0 || ptr->block_ptr;
    if (mask && mask->kind != TV_NONE) {
        a.masked = true;
        a.mask_span = tt_span(maskn);
        a.mask_text = tt_short_text(c, maskn);
        a.mask_deps = tt_deps(mask);
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
        a.block_ptr_deps = ptr->deps;
        TSNode bc = tt_call_arg(c->mod, call, 99, "boundary_check");
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
        a.value_deps = tt_deps(val);
    }
    kc_vec_push(&c->k->accesses, a);
    return a.id;
}

static tv loaded_value(tt_ctx *c, uint32_t acc, const tv *ptr, const tv *mask)
{
    kc_shape s = ptr->shape;
    if (mask && mask->kind == TV_BOOL)
        s = tt_shape_of2(ptr, mask);
    kc_deps d = tt_deps_to_rank(tt_deps(ptr), ptr->shape.rank, s.rank);
    if (mask && mask->kind != TV_NONE)
        d = tt_deps_or(d, tt_deps_to_rank(tt_deps(mask), mask->shape.rank, s.rank));
    d.flags |= KC_AF_DATA;
    tv v = tt_unknown();
    v.kind = TV_NUM;
    v.shape = s;
    v.shape_unknown = ptr->shape_unknown;
    /* The element type is not known here. An integer loaded as an index
     * is presumed to be int64 (torch.long, PyTorch's index type) unless the
     * kernel casts it: KC304 does not guess about values it cannot see. */
    v.bits = 64;
    v.idx = kc_index_atom(c->a, kc_atom_make(KC_ATOM_DATA, acc, d), 64, KC_SPACE_BLOCK, &s);
    v.taint = ptr->taint;
    v.vague = tt_is_vague(ptr) || (mask && mask->kind != TV_NONE && tt_is_vague(mask));
    return v;
}

tv tt_load(tt_ctx *c, TSNode call, bool method_form, const tv *self)
{
    TSNode ptrn = method_form ? ts_node_child(call, 0) : tt_call_arg(c->mod, call, 0, "pointer");
    tv ptr = method_form ? *self : tt_eval_opt(c, ptrn);
    TSNode maskn = tt_call_arg(c->mod, call, method_form ? 0 : 1, "mask");
    tv mask = tt_eval_opt(c, maskn);
    TSNode othern = tt_call_arg(c->mod, call, method_form ? 1 : 2, "other");
    tv other = tt_eval_opt(c, othern);
    if (mask.kind != TV_NONE && ptr.taint != mask.taint && tt_has_extent(&mask) && tt_has_extent(&ptr)) {
        if (mask.taint & ~ptr.taint)
            tt_observe(c, mask.taint & ~ptr.taint, maskn, "used as the mask of a load");
        if (ptr.taint & ~mask.taint)
            tt_observe(c, ptr.taint & ~mask.taint, ptrn, "used as a load address with another mask");
    }
    uint32_t id = record_access(c, KC_ACC_LOAD, call, ptrn, &ptr, maskn, &mask, othern, &other, (TSNode){0}, NULL);
    tv v = loaded_value(c, id, &ptr, &mask);
    tt_junk_load(c, &v, id, &mask, othern, &other);
    return v;
}

tv tt_store(tt_ctx *c, TSNode call, kc_access_kind kind)
{
    TSNode ptrn = tt_call_arg(c->mod, call, 0, "pointer");
    TSNode valn = tt_call_arg(c->mod, call, 1, kind == KC_ACC_STORE ? "value" : "val");
    TSNode maskn = tt_call_arg(c->mod, call, kind == KC_ACC_STORE ? 2 : 2, "mask");
    tv ptr = tt_eval_opt(c, ptrn), val = tt_eval_opt(c, valn), mask = tt_eval_opt(c, maskn);
    if (val.taint != ptr.taint && tt_has_extent(&val) && tt_has_extent(&ptr)) {
        if (val.taint & ~ptr.taint)
            tt_observe(c, val.taint & ~ptr.taint, valn, "stored");
        if (ptr.taint & ~val.taint)
            tt_observe(c, ptr.taint & ~val.taint, ptrn, "used as a store address");
    }
    if (mask.kind != TV_NONE && mask.taint != ptr.taint && tt_has_extent(&mask) && tt_has_extent(&ptr)) {
        if (mask.taint & ~ptr.taint)
            tt_observe(c, mask.taint & ~ptr.taint, maskn, "used as the mask of a store");
    }
    uint32_t id = record_access(c, kind, call, ptrn, &ptr, maskn, &mask, (TSNode){0}, NULL, valn, &val);
    if (kind == KC_ACC_ATOMIC)
        return loaded_value(c, id, &ptr, &mask);
    tv r = tt_unknown();
    r.kind = TV_NONE;
    return r;
}

/* ---- low-precision accumulation (KC502) ---- */

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

static const char *span_source(tt_ctx *c, kc_span sp)
{
    const kc_source *src = c->mod->src;
    if (!kc_span_valid(sp))
        return NULL;
    size_t a = kc_source_offset(src, sp.line, sp.col), b = kc_source_offset(src, sp.end_line, sp.end_col);
    return b > a ? kc_arena_strndup(c->a, src->text + a, b - a) : NULL;
}

/* `decl` is the value whose dtype argument made it narrow. */
void tt_record_accum(tt_ctx *c, TSNode at, const char *var, const tv *decl, kc_accum_kind kind)
{
    kc_accum ac;
    memset(&ac, 0, sizeof ac);
    ac.span = tt_span(at);
    ac.decl_span = decl->dtype_span;
    ac.var = var ? kc_arena_strdup(c->a, var) : NULL;
    ac.dtype = elt_name(decl->elt);
    ac.kind = kind;
    ac.loop = c->loop;
    ac.outer_loop = KC_NONE;
    /* Which enclosing loops it persists across is not followed here. */
    ac.passes_unknown = c->loop != KC_NONE && c->loop < c->k->loops.len && c->k->loops.data[c->loop].parent != KC_NONE;
    const char *dt = span_source(c, decl->dtype_span);
    if (dt && !strchr(dt, '\n')) {
        const char *dot = strrchr(dt, '.');
        ac.fix_text = dot ? kc_arena_printf(c->a, "%.*s.float32", (int)(dot - dt), dt) : "float32";
    }
    kc_vec_push(&c->k->accums, ac);
}

/* A loop-carried low-precision block updated in the loop (`acc += x`,
 * `acc = acc + x`, `acc = tl.dot(a, b, acc)`). */
void tt_check_accumulation(tt_ctx *c, TSNode st, const char *var, const tv *before, kc_accum_kind kind)
{
    if (c->loop == KC_NONE || before->kind != TV_NUM || !tt_elt_low(before->elt))
        return;
    if (!(tt_deps(before).loops & kc_loop_bit(c->loop)))
        return;
    tt_record_accum(c, st, var, before, kind);
}

/* tl.sum of a block known to be fp16/bf16 (unless dtype= widens it). */
void tt_check_narrow_sum(tt_ctx *c, TSNode call, TSNode xn, const tv *x)
{
    if (!tt_elt_low(x->elt) || x->shape.rank == 0 || ts_node_is_null(xn))
        return;
    TSNode dt = tt_call_arg(c->mod, call, 99, "dtype");
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
bool tt_is_dot_into(tt_ctx *c, TSNode n, const char *var)
{
    n = tt_unparen(n);
    if (!TT_IS(n, call))
        return false;
    const char *tl = tt_tl_name(tt_qualify(c->mod, tt_field(n, "function")));
    if (!tl || strcmp(tl, "dot"))
        return false;
    if (!var)
        return true;
    TSNode accn = tt_call_arg(c->mod, n, 2, "acc");
    return !ts_node_is_null(accn) && tt_text_eq(c->mod, tt_unparen(accn), var);
}

/* ---- sizes the kernel asserts to be multiples (KC303) ---- */

/* `N % BLOCK == 0` (possibly and-ed with other conditions) in an assert,
 * tl.static_assert, tl.device_assert or tl.assume. */
void tt_note_multiple(tt_ctx *c, TSNode cond, TSNode at)
{
    cond = tt_unparen(cond);
    if (ts_node_is_null(cond))
        return;
    if (TT_IS(cond, boolean_operator) && !strcmp(tt_op_of(cond), "and")) {
        tt_note_multiple(c, tt_field(cond, "left"), at);
        tt_note_multiple(c, tt_field(cond, "right"), at);
        return;
    }
    if (TT_IS(cond, binary_operator) && !strcmp(tt_op_of(cond), "&")) {
        tt_note_multiple(c, tt_field(cond, "left"), at);
        tt_note_multiple(c, tt_field(cond, "right"), at);
        return;
    }
    if (!TT_IS(cond, comparison_operator) || ts_node_named_child_count(cond) != 2)
        return;
    TSNode l = tt_unparen(ts_node_named_child(cond, 0)), r = tt_unparen(ts_node_named_child(cond, 1));
    if (strcmp(tt_op_of(cond), "=="))
        return;
    int64_t z;
    if (tt_int_literal(c->mod, l, &z) && z == 0) {
        TSNode t = l;
        l = r;
        r = t;
    }
    if (!tt_int_literal(c->mod, r, &z) || z != 0 || !TT_IS(l, binary_operator) || strcmp(tt_op_of(l), "%"))
        return;
    TSNode an = tt_unparen(tt_field(l, "left")), bn = tt_unparen(tt_field(l, "right"));
    if (!TT_IS(an, identifier))
        return;
    tv *av = tt_env_get(&c->env, tt_text(c->mod, an));
    if (!av || av->sym == KC_NONE || av->sym >= c->k->symbols.len)
        return;
    tv bv = c->eval(c, bn);
    int64_t m;
    kc_symbol *s = &c->k->symbols.data[av->sym];
    if (tt_is_const(&bv, &m) && m > 0)
        s->multiple_of = m;
    else if (bv.sym != KC_NONE)
        s->multiple_of_symbol = bv.sym;
    else
        return;
    s->multiple_evidence = kc_arena_printf(c->a, "`%s` on line %u", tt_short_text(c, at), ts_node_start_point(at).row + 1);
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
        bool is_and = !strcmp(tt_op_of(u), "and");
        TSNode side[2] = {tt_field(u, "left"), tt_field(u, "right")};
        for (int i = 0; i < 2; i++) {
            TSNode s = tt_unparen(side[i]);
            if (i)
                kc_sb_append(sb, is_and ? " & " : " | ");
            bool same = TT_IS(s, boolean_operator) && !strcmp(tt_op_of(s), tt_op_of(u));
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
    kc_sb_append(sb, tt_short_text(c, u));
}

void tt_note_block_logic(tt_ctx *c, TSNode n, const tv *r)
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
        if (!TT_IS(l, boolean_operator) || strcmp(tt_op_of(l), tt_op_of(first)))
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
