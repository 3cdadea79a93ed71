/* triton_stmt.c — statements: assignments (with the accumulations KC502
 * looks for), if/elif/else and the merge of the branches' environments,
 * for loops over range/tl.range/tl.static_range with their bounds and trip
 * counts, while loops, the values carried around loops, asserts.
 * Expressions are evaluated with tt_eval (triton_expr.c).
 */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- statements ---- */

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
        tt_env_set(c, name, v);
        return;
    }
    if (TT_IS(target, pattern_list) || TT_IS(target, tuple_pattern) ||
        TT_IS(target, tuple) || TT_IS(target, list_pattern)) {
        uint32_t n = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < n; i++) {
            tv el = tt_unknown();
            if (v.kind == TV_TUPLE && v.ntuple == n) {
                el = v.tuple[i];
            } else {
                el.deps = tt_deps(&v);
                el.random = v.random;
                el.taint = v.taint;
                /* `pid_m, pid_n = tl.swizzle2d(...)`: one unknown number
                 * per name, the same term at every use (a program index
                 * that tiles an offset and bounds it in a mask). */
                TSNode t = tt_unparen(ts_node_named_child(target, i));
                if (TT_IS(t, identifier) && (el.deps.flags & KC_AF_PROGRAM) && !(el.deps.flags & KC_AF_THREAD)) {
                    el = tt_num_of(c, &el, t);
                    el.vague = true;
                }
            }
            assign_target(c, ts_node_named_child(target, i), el);
        }
    }
    if (TT_IS(target, subscript)) {
        /* res[0, :] = v: the block now also holds v's values. */
        TSNode base = tt_unparen(tt_field(target, "value"));
        tv *p = TT_IS(base, identifier) ? tt_env_get(&c->env, tt_text(c->mod, base)) : NULL;
        if (p && p->kind == TV_NUM) {
            p->random = v.random && (p->random || p->blank);
            p->blank = false;
            p->taint |= v.taint;
            kc_deps d = tt_deps_or(tt_deps(p), tt_deps(&v));
            d.axes &= (uint8_t)((1u << p->shape.rank) - 1);
            bool rnd = p->random;
            uint64_t taint = p->taint;
            *p = tt_opaque(c, target, d, &p->shape, p->bits);
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
    tv before = tt_unknown();
    const char *var = NULL;
    if (TT_IS(tt_unparen(left), identifier)) {
        var = tt_text(c->mod, tt_unparen(left));
        tv *bp = tt_env_get(&c->env, var);
        TSNode r = tt_unparen(right);
        bool sum = false, dot = false;
        if (bp && TT_IS(r, binary_operator) && (!strcmp(tt_op_of(r), "+") || !strcmp(tt_op_of(r), "-"))) {
            TSNode l0 = tt_unparen(tt_field(r, "left")), r0 = tt_unparen(tt_field(r, "right"));
            sum = tt_text_eq(c->mod, l0, var) || (!strcmp(tt_op_of(r), "+") && tt_text_eq(c->mod, r0, var));
            dot = sum && (tt_is_dot_into(c, l0, NULL) || tt_is_dot_into(c, r0, NULL));
        } else if (bp && tt_is_dot_into(c, r, var)) {
            dot = true;
        }
        if (bp && (sum || dot)) {
            before = *bp;
            tt_check_accumulation(c, as, var, &before, dot ? KC_ACCUM_DOT : KC_ACCUM_SUM);
        } else {
            var = NULL;
        }
    }
    tv v = tt_eval(c, right);
    /* A loop-carried value keeps its type in Triton. */
    if (var && tt_elt_low(before.elt) && v.elt == TT_ELT_UNKNOWN) {
        v.elt = before.elt;
        v.dtype_span = before.dtype_span;
    }
    assign_target(c, left, v);
}

static void exec_augmented(tt_ctx *c, TSNode as)
{
    TSNode left = tt_field(as, "left"), right = tt_field(as, "right");
    tv a = tt_eval(c, left), b = tt_eval(c, right);
    char op[4] = {0};
    const char *full = tt_op_of(as);
    size_t l = strlen(full);
    if (l >= 2 && l <= 4) {
        memcpy(op, full, l - 1);
        op[l - 1] = '\0';
    }
    if ((!strcmp(op, "+") || !strcmp(op, "-")) && TT_IS(tt_unparen(left), identifier))
        tt_check_accumulation(c, as, tt_text(c->mod, tt_unparen(left)), &a,
                           tt_is_dot_into(c, right, NULL) ? KC_ACCUM_DOT : KC_ACCUM_SUM);
    tv r = tt_binop(c, as, op, a, b, left, right);
    if (tt_elt_low(a.elt) && r.elt == TT_ELT_UNKNOWN) {
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
    kc_deps ld = {0, 0, kc_loop_bit(loop), 0, 0};
    for (uint32_t i = 0; i < names.len; i++) {
        tv *v = tt_env_get(&c->env, names.data[i]);
        if (!v)
            continue;
        if ((v->kind == TV_NUM || v->kind == TV_PTR) && !v->block_ptr) {
            const kc_index *carry = kc_index_atom(
                c->a, kc_atom_make(KC_ATOM_OPAQUE, kc_kernel_add_opaque(c->m, c->k, tt_span(loopn), names.data[i]), ld),
                64, KC_SPACE_BLOCK, NULL);
            const kc_index *sum = v->idx ? kc_index_add(c->a, v->idx, carry) : carry;
            v->idx = sum ? sum : tt_opaque(c, loopn, tt_deps_or(tt_deps(v), ld), &v->shape, 64).idx;
        } else {
            v->deps = tt_deps_or(v->deps, ld);
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
    cd.text = tt_short_text(c, n);
    cd.deps = tt_deps(cv);
    cd.negated = negated;
    if (!negated) {
        cd.npreds = cv->npreds;
        cd.preds = cv->preds;
    }
    cd.ntested = cv->npreds;
    cd.tested = cv->preds;
    kc_vec_push(&c->k->conds, cd);
    return cd.id;
}

/* Does the block end in `return` (its last statement)? */
static bool block_returns(TSNode block)
{
    if (ts_node_is_null(block))
        return false;
    for (uint32_t i = ts_node_named_child_count(block); i > 0; i--) {
        TSNode st = ts_node_named_child(block, i - 1);
        if (TT_IS(st, comment))
            continue;
        return TT_IS(st, return_statement);
    }
    return false;
}

/* Interprets an `if`; returns the condition the rest of the enclosing
 * block runs under when the `if` has no else and its body returns
 * (`if label == ignore_index: ...; return` at the kernel's top level: the
 * code after it runs when the condition fails), else KC_NONE. */
static uint32_t exec_if(tt_ctx *c, TSNode st)
{
    TSNode condn = tt_field(st, "condition");
    tv cv = tt_eval(c, condn);
    kc_deps cd = tt_deps(&cv);
    uint32_t saved = c->cond;
    tt_env before = tt_env_copy(&c->env);
    c->cond = add_cond(c, condn, &cv, false);
    uint32_t then_cond = c->cond;
    tt_exec_block(c, tt_field(st, "consequence"));
    tt_env then_env = c->env;
    c->env = before;
    /* elif / else chains */
    uint32_t n = ts_node_named_child_count(st);
    bool had_else = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode alt = ts_node_named_child(st, i);
        if (TT_IS(alt, elif_clause)) {
            TSNode ec = tt_field(alt, "condition");
            tv ev = tt_eval(c, ec);
            cd = tt_deps_or(cd, tt_deps(&ev));
            c->cond = add_cond(c, ec, &ev, false);
            tt_env b2 = tt_env_copy(&c->env);
            tt_exec_block(c, tt_field(alt, "consequence"));
            tt_env e2 = c->env;
            c->env = b2;
            tt_env_merge(c, alt, &then_env, &e2, cd, 0);
            kc_vec_free(&e2.vars);
        } else if (TT_IS(alt, else_clause)) {
            c->cond = add_cond(c, condn, &cv, true);
            tt_exec_block(c, tt_field(alt, "body"));
            had_else = true;
        }
    }
    tt_env_merge(c, st, &c->env, &then_env, cd, then_cond + 1);
    kc_vec_free(&then_env.vars);
    c->cond = saved;
    bool elif = false;
    for (uint32_t i = 0; i < n; i++)
        elif |= TT_IS(ts_node_named_child(st, i), elif_clause);
    if (had_else || elif || c->loop != KC_NONE || !block_returns(tt_field(st, "consequence")))
        return KC_NONE;
    return add_cond(c, condn, &cv, true);
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
        TSNode uf = tt_call_arg(md, right, 99, "loop_unroll_factor");
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
        rb->start = tt_eval(c, rb->startn);
    if (!ts_node_is_null(rb->endn))
        rb->end = tt_eval(c, rb->endn);
    if (!ts_node_is_null(rb->stepn))
        rb->step = tt_eval(c, rb->stepn);
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
    lp->start_text = ts_node_is_null(rb->startn) ? "0" : tt_short_text(c, rb->startn);
    lp->end_text = ts_node_is_null(rb->endn) ? "?" : tt_short_text(c, rb->endn);
    lp->step_text = ts_node_is_null(rb->stepn) ? "1" : tt_short_text(c, rb->stepn);
    int64_t s0, e0, st0;
    if (tt_is_const(start, &s0) && tt_is_const(end, &e0) && tt_is_const(step, &st0) && st0 != 0) {
        lp->trip_count = st0 > 0 ? (e0 > s0 ? ceil_div(e0 - s0, st0) : 0)
                                 : (s0 > e0 ? ceil_div(s0 - e0, -st0) : 0);
    }
    /* The trip count as a formula of the source names. */
    bool zero_start = ts_node_is_null(rb->startn) || (tt_is_const(start, &s0) && s0 == 0);
    bool unit_step = ts_node_is_null(rb->stepn) || (tt_is_const(step, &st0) && st0 == 1);
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
    tt_mark_size(c, lp->end, ev, false);
    free(ev);
}

/* Binds the target of the loop: the induction variable is a loop atom
 * standing for its value (a scalar in Triton, so it carries no lane axes;
 * its loop dependence is what matters); any other target an unknown value
 * that depends on the loop. */
static void bind_loop_target(tt_ctx *c, TSNode left, const kc_loop *lp, const range_bounds *rb)
{
    kc_deps loop_dep = {0, 0, kc_loop_bit(lp->id), 0, 0};
    if (lp->var) {
        tv iv = tt_unknown();
        iv.kind = TV_NUM;
        iv.ce = lp->kind == KC_LOOP_STATIC_RANGE;
        kc_deps d = loop_dep;
        d.flags = (uint8_t)((tt_deps(&rb->start).flags | tt_deps(&rb->step).flags) & (KC_AF_PROGRAM | KC_AF_DATA));
        d.loops |= tt_deps(&rb->start).loops | tt_deps(&rb->step).loops;
        d.programs = (uint8_t)(tt_deps(&rb->start).programs | tt_deps(&rb->step).programs);
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
        tt_env_set(c, lp->var, iv);
    } else if (!ts_node_is_null(left)) {
        tv unk = tt_unknown();
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
    lp.header_text = tt_short_text(c, right);
    lp.var = TT_IS(left, identifier) ? tt_text(md, left) : NULL;
    lp.kind = KC_LOOP_RANGE;
    range_bounds rb;
    memset(&rb, 0, sizeof rb);
    rb.start = tt_const(c, 0);
    rb.end = tt_unknown();
    rb.step = tt_const(c, 1);
    if (range_header(c, right, &lp, &rb))
        range_facts(c, &lp, &rb, p0.row + 1);
    uint32_t saved_loop = c->loop;
    kc_vec_push(&c->k->loops, lp);
    make_loop_carried(c, st, body, lp.id);
    bind_loop_target(c, left, &lp, &rb);
    c->loop = lp.id;
    tt_exec_block(c, body);
    c->loop = saved_loop;
    TSNode alt = tt_field(st, "alternative");
    if (!ts_node_is_null(alt))
        tt_exec_block(c, tt_field(alt, "body"));
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
    lp.header_text = tt_short_text(c, condn);
    kc_vec_push(&c->k->loops, lp);
    TSNode body = tt_field(st, "body");
    make_loop_carried(c, st, body, lp.id);
    uint32_t saved_loop = c->loop, saved_cond = c->cond;
    c->loop = lp.id;
    tv cv = tt_eval(c, condn);
    c->cond = add_cond(c, condn, &cv, false);
    tt_exec_block(c, body);
    c->loop = saved_loop;
    c->cond = saved_cond;
}

/* Is `e` a load whose value goes nowhere, as a statement: `tl.load(p)`,
 * or method calls on it (`tl.load(p).to(tl.float32)`)? */
static bool dead_load(tt_ctx *c, TSNode e, int depth)
{
    e = tt_unparen(e);
    if (depth > 8 || !TT_IS(e, call))
        return false;
    TSNode f = tt_field(e, "function");
    if (!TT_IS(f, attribute))
        return false;
    TSNode obj = tt_unparen(tt_field(f, "object"));
    if (TT_IS(obj, call))
        return dead_load(c, obj, depth + 1);
    return TT_IS(obj, identifier) && tt_text_eq(c->mod, tt_field(f, "attribute"), "load");
}

static void exec_stmt(tt_ctx *c, TSNode st)
{
    if (c->depth >= TT_MAX_DEPTH || tt_stack_exhausted(c))
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
            else if (!TT_IS(e, comment)) {
                uint32_t before = c->k->accesses.len;
                (void)tt_eval(c, e);
                for (uint32_t a = before; dead_load(c, e, 0) && a < c->k->accesses.len; a++)
                    c->k->accesses.data[a].discarded = c->k->accesses.data[a].kind == KC_ACC_LOAD;
            }
        }
    } else if (TT_IS(st, if_statement)) {
        (void)exec_if(c, st);
    } else if (TT_IS(st, for_statement)) {
        exec_for(c, st);
    } else if (TT_IS(st, while_statement)) {
        exec_while(c, st);
    } else if (TT_IS(st, with_statement)) {
        tt_exec_block(c, tt_field(st, "body"));
    } else if (TT_IS(st, try_statement)) {
        uint32_t n = ts_node_named_child_count(st);
        for (uint32_t i = 0; i < n; i++) {
            TSNode ch = ts_node_named_child(st, i);
            if (TT_IS(ch, block))
                tt_exec_block(c, ch);
        }
    } else if (TT_IS(st, return_statement) || TT_IS(st, assert_statement)) {
        uint32_t n = ts_node_named_child_count(st);
        for (uint32_t i = 0; i < n; i++)
            (void)tt_eval(c, ts_node_named_child(st, i));
        if (TT_IS(st, assert_statement) && n > 0)
            tt_note_multiple(c, ts_node_named_child(st, 0), st);
    }
    c->depth--;
}

void tt_exec_block(tt_ctx *c, TSNode block)
{
    if (ts_node_is_null(block))
        return;
    uint32_t saved = c->cond;
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < n && !kc_arena_over(c->a); i++) { /* over --file-memory: given up */
        TSNode st = ts_node_named_child(block, i);
        if (TT_IS(st, comment))
            continue;
        if (TT_IS(st, if_statement) && c->depth < TT_MAX_DEPTH && !tt_stack_exhausted(c)) {
            /* an early return: what follows runs under the negated condition */
            c->depth++;
            uint32_t rest = exec_if(c, st);
            c->depth--;
            if (rest != KC_NONE)
                c->cond = rest;
            continue;
        }
        exec_stmt(c, st);
    }
    c->cond = saved;
}
