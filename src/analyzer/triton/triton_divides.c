/* triton_divides.c — what the launching function shows its launch's
 * arguments to be multiples of (KC303's exact tiles): asserts and raising
 * checks (`assert N % BLOCK == 0`), a block picked among the divisors of a
 * size (`B = max([x for x in (16, 32, 64) if N % x == 0])`), a size
 * rounded up before the launch (`math.ceil(n / 128) * 128`). Called by
 * triton_launch.c for each launch it reads. */
#include "triton_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- divisibility the launcher asserts (KC303) ---- */

typedef struct multiple_scan {
    tt_module *m;
    tt_launch *l;
    uint32_t before;
    const char *grid; /* the name the launch's grid is (`kernel[grid](...)`), or NULL */
} multiple_scan;

static void mark_multiple(multiple_scan *ms, TSNode x, const char *by, int64_t v, TSNode stmt);

/* `X % Y == 0` (or `0 == X % Y`; with `negated`, `X % Y != 0` or a bare
 * `X % Y`): marks the bindings that pass X. */
static void note_multiple(multiple_scan *ms, TSNode c, TSNode stmt, bool negated)
{
    tt_module *m = ms->m;
    c = tt_unparen(c);
    if (TT_IS(c, boolean_operator) && !strcmp(tt_op_of(c), negated ? "or" : "and")) {
        note_multiple(ms, tt_field(c, "left"), stmt, negated);
        note_multiple(ms, tt_field(c, "right"), stmt, negated);
        return;
    }
    TSNode mod = {0};
    if (negated && TT_IS(c, binary_operator) && !strcmp(tt_op_of(c), "%")) {
        mod = c;
    } else if (TT_IS(c, comparison_operator) && ts_node_named_child_count(c) == 2) {
        if (strcmp(tt_op_of(c), negated ? "!=" : "=="))
            return;
        TSNode l = tt_unparen(ts_node_named_child(c, 0)), r = tt_unparen(ts_node_named_child(c, 1));
        int64_t z;
        if (tt_int_literal(m, l, &z) && z == 0)
            mod = r;
        else if (tt_int_literal(m, r, &z) && z == 0)
            mod = l;
    }
    if (ts_node_is_null(mod) || !TT_IS(mod, binary_operator) || strcmp(tt_op_of(mod), "%"))
        return;
    TSNode x = tt_unparen(tt_field(mod, "left")), y = tt_unparen(tt_field(mod, "right"));
    int64_t v = 0;
    bool lit = tt_int_literal(m, y, &v) && v > 0;
    const char *by = lit ? NULL : tt_text(m, y);
    /* `META["BLOCK_M"]` in a grid callable: the kernel's meta-parameter */
    TSNode key = TT_IS(y, subscript) ? tt_unparen(tt_field(y, "subscript")) : (TSNode){0};
    if (!lit && TT_IS(key, string)) {
        const char *t = tt_text(m, key);
        size_t n = strlen(t);
        if (n > 2 && (t[0] == '"' || t[0] == '\'') && t[n - 1] == t[0])
            by = kc_arena_strndup(m->arena, t + 1, n - 2);
    }
    mark_multiple(ms, x, by, lit ? v : 0, stmt);
}

/* `B = max([x for x in (16, 32, 64) if N % x == 0])` (also min, next, a
 * generator): B is one of the candidates that divide N, so N is a multiple
 * of B. */
static void note_divisor_pick(multiple_scan *ms, TSNode assign)
{
    tt_module *m = ms->m;
    TSNode left = tt_field(assign, "left"), right = tt_unparen(tt_field(assign, "right"));
    if (!TT_IS(left, identifier) || !TT_IS(right, call))
        return;
    const char *f = tt_text(m, tt_field(right, "function"));
    TSNode args = tt_field(right, "arguments");
    TSNode gen = TT_IS(args, generator_expression) ? args
                 : ts_node_named_child_count(args) >= 1 ? tt_unparen(ts_node_named_child(args, 0))
                                                        : (TSNode){0};
    if (!f || (strcmp(f, "max") && strcmp(f, "min") && strcmp(f, "next")) || ts_node_is_null(gen) ||
        !(TT_IS(gen, list_comprehension) || TT_IS(gen, generator_expression)))
        return;
    TSNode var = {0}, cond = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(gen); i++) {
        TSNode ch = ts_node_named_child(gen, i);
        if (TT_IS(ch, for_in_clause) && ts_node_is_null(var))
            var = tt_field(ch, "left");
        else if (TT_IS(ch, if_clause) && ts_node_named_child_count(ch) == 1)
            cond = tt_unparen(ts_node_named_child(ch, 0));
    }
    if (ts_node_is_null(var) || !TT_IS(var, identifier) || ts_node_is_null(cond) ||
        !TT_IS(cond, comparison_operator) || ts_node_named_child_count(cond) != 2 || strcmp(tt_op_of(cond), "=="))
        return;
    TSNode mod = tt_unparen(ts_node_named_child(cond, 0));
    int64_t z;
    if (!tt_int_literal(m, tt_unparen(ts_node_named_child(cond, 1)), &z) || z != 0 ||
        !TT_IS(mod, binary_operator) || strcmp(tt_op_of(mod), "%") ||
        !tt_text_eq(m, tt_unparen(tt_field(mod, "right")), tt_text(m, var)))
        return;
    mark_multiple(ms, tt_unparen(tt_field(mod, "left")), tt_text(m, left), 0, assign);
}

/* Marks the bindings that pass x as multiples of `by` (a name) or of the
 * literal v, for the statement stmt. */
static void mark_multiple(multiple_scan *ms, TSNode x, const char *by, int64_t v, TSNode stmt)
{
    tt_module *m = ms->m;
    bool lit = !by;
    /* `M = seqlen` before `assert M % BLOCK_M == 0`, the launch passing
     * `seqlen`: the same value */
    const char *alias = NULL;
    if (TT_IS(x, identifier)) {
        int elem;
        TSNode fn = tt_enclosing_function(stmt);
        TSNode r = ts_node_is_null(fn) ? (TSNode){0}
                                       : tt_find_binding(m, fn, tt_text(m, x), ts_node_start_byte(stmt), &elem);
        if (!ts_node_is_null(r) && elem < 0 && TT_IS(tt_unparen(r), identifier))
            alias = tt_text(m, tt_unparen(r));
    }
    const char *why = kc_arena_printf(m->arena, "`%s` on line %u", tt_one_line(m->arena, tt_text(m, stmt), 80),
                                      ts_node_start_point(stmt).row + 1);
    if (ms->l->nasserted < sizeof ms->l->asserted / sizeof ms->l->asserted[0]) {
        tt_launch *l = ms->l;
        l->asserted[l->nasserted].text = tt_text(m, x);
        l->asserted[l->nasserted].alias = alias;
        l->asserted[l->nasserted].value = lit ? v : 0;
        l->asserted[l->nasserted].by = by;
        l->asserted[l->nasserted].why = why;
        l->nasserted++;
    }
    for (uint32_t i = 0; i < ms->l->args.len; i++) {
        tt_binding *b = &ms->l->args.data[i];
        if (!b->v.text || !(tt_text_eq(m, x, b->v.text) || (alias && !strcmp(alias, b->v.text))))
            continue;
        if (b->multiple_why) {
            /* `N % 16 == 0 and N % 256 == 0`: a multiple of both */
            if (lit && b->multiple_value > 0 && b->multiple_value < (INT64_C(1) << 40)) {
                int64_t g = b->multiple_value, h = v;
                while (h) {
                    int64_t t = g % h;
                    g = h;
                    h = t;
                }
                b->multiple_value = b->multiple_value / g * v;
            } else if (!lit && !b->multiple_by) {
                /* `assert N % 16 == 0` and `B = max([x ... if N % x == 0])`:
                 * a multiple of the block, which is what the tiles need */
                b->multiple_by = by;
                b->multiple_value = 0;
                b->multiple_why = kc_arena_printf(m->arena, "%s and `%s` on line %u", b->multiple_why,
                                                  tt_one_line(m->arena, tt_text(m, stmt), 80),
                                                  ts_node_start_point(stmt).row + 1);
            }
            continue;
        }
        b->multiple_value = lit ? v : 0;
        b->multiple_by = by;
        b->multiple_why = why;
    }
}

/* Does the block end in a raise (an error branch)? */
static bool raises(TSNode block)
{
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = n; i-- > 0;) {
        TSNode st = ts_node_named_child(block, i);
        if (TT_IS(st, comment))
            continue;
        return TT_IS(st, raise_statement);
    }
    return false;
}

static bool visit_multiple(TSNode n, void *ud)
{
    multiple_scan *ms = ud;
    if (ts_node_start_byte(n) >= ms->before)
        return false;
    /* the grid callable of the launch (`def grid(META): assert M %
     * META["BLOCK_M"] == 0; ...`) runs before the kernel at every launch */
    if (TT_IS(n, function_definition) && ms->grid && tt_text_eq(ms->m, tt_field(n, "name"), ms->grid))
        return true;
    if (TT_IS(n, function_definition) || TT_IS(n, lambda) || TT_IS(n, class_definition))
        return false; /* another function's checks */
    if (TT_IS(n, assert_statement)) {
        note_multiple(ms, ts_node_named_child(n, 0), n, false);
        return false;
    }
    if (TT_IS(n, assignment)) {
        note_divisor_pick(ms, n);
        return false;
    }
    if (TT_IS(n, if_statement) && ts_node_end_byte(n) <= ms->before && raises(tt_field(n, "consequence")))
        note_multiple(ms, tt_field(n, "condition"), n, true);
    return true;
}

/* `math.ceil(n / B) * B`, `triton.cdiv(n, B) * B`, `(n + B - 1) // B * B`
 * (through names, either factor order): a size rounded up to a multiple of
 * B; *by gets B. */
static bool rounded_up(tt_module *m, TSNode e, TSNode scope, int depth, TSNode *by)
{
    e = tt_unparen(e);
    if (depth > TT_HOST_DEPTH || ts_node_is_null(e))
        return false;
    if (TT_IS(e, identifier)) {
        int elem = -1;
        TSNode r = {0};
        if (!ts_node_is_null(scope))
            r = tt_find_binding(m, scope, tt_text(m, e), ts_node_start_byte(e), &elem);
        return !ts_node_is_null(r) && elem < 0 && rounded_up(m, r, scope, depth + 1, by);
    }
    if (TT_IS(e, call) && tt_text_eq(m, tt_field(e, "function"), "int")) {
        TSNode a = tt_field(e, "arguments");
        return ts_node_named_child_count(a) == 1 && rounded_up(m, ts_node_named_child(a, 0), scope, depth + 1, by);
    }
    if (!TT_IS(e, binary_operator) || strcmp(tt_op_of(e), "*"))
        return false;
    for (int side = 0; side < 2; side++) {
        TSNode q = tt_unparen(tt_field(e, side ? "right" : "left")), b = tt_unparen(tt_field(e, side ? "left" : "right"));
        TSNode d = {0};
        if (TT_IS(q, call)) {
            const char *f = tt_qualify(m, tt_field(q, "function"));
            const char *t = tt_text(m, tt_field(q, "function"));
            TSNode a = tt_field(q, "arguments");
            uint32_t na = ts_node_named_child_count(a);
            bool cdiv = (f && (!strcmp(f, "triton.cdiv") || !strcmp(f, "triton.language.cdiv"))) ||
                        (t && (strstr(t, "cdiv") || strstr(t, "ceil_div") || strstr(t, "div_up")));
            if (cdiv && na == 2)
                d = tt_unparen(ts_node_named_child(a, 1));
            else if (f && !strcmp(f, "math.ceil") && na == 1) {
                TSNode x = tt_unparen(ts_node_named_child(a, 0));
                if (TT_IS(x, binary_operator) && !strcmp(tt_op_of(x), "/"))
                    d = tt_unparen(tt_field(x, "right"));
            }
        } else if (TT_IS(q, binary_operator) && !strcmp(tt_op_of(q), "//")) {
            /* (n + B - 1) // B (`(n - 1) // B * B` rounds down) */
            TSNode n;
            if (tt_rounding_sum(tt_field(q, "left"), &n))
                d = tt_unparen(tt_field(q, "right"));
        }
        if (!ts_node_is_null(d) && !strcmp(tt_text(m, d), tt_text(m, b))) {
            *by = b;
            return true;
        }
    }
    return false;
}

/* Arguments rounded up to a multiple before the launch
 * (`seqlen_q_rounded = math.ceil(seqlen_q / 128) * 128`): multiples by
 * construction. */
static void mark_rounded(tt_module *m, tt_launch *l, TSNode scope)
{
    for (uint32_t i = 0; i < l->args.len; i++) {
        tt_binding *b = &l->args.data[i];
        TSNode by = {0};
        if (b->multiple_why || !rounded_up(m, b->value, scope, 0, &by))
            continue;
        int64_t v = 0;
        bool lit = tt_int_literal(m, by, &v) && v > 0;
        b->multiple_value = lit ? v : 0;
        b->multiple_by = lit ? NULL : tt_text(m, by);
        b->multiple_why = kc_arena_printf(m->arena, "`%s` is rounded up to a multiple of `%s`", b->v.text,
                                          tt_text(m, by));
    }
}

void tt_mark_multiples(tt_module *m, tt_launch *l, TSNode scope, uint32_t before)
{
    if (ts_node_is_null(scope) || l->args.len == 0)
        return;
    multiple_scan ms = {.m = m, .l = l, .before = before};
    TSNode f = ts_node_is_null(l->call) ? (TSNode){0} : tt_field(l->call, "function");
    TSNode g = TT_IS(f, subscript) ? tt_unparen(tt_field(f, "subscript")) : (TSNode){0};
    if (TT_IS(g, identifier))
        ms.grid = tt_text(m, g);
    tt_walk(tt_field(scope, "body"), visit_multiple, &ms);
    mark_rounded(m, l, scope);
}
