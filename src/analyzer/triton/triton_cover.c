/* triton_cover.c — how a launch's grid axis counts the tiles of an extent
 * (KC303): a ceiling division rounds up, so the last program's tile is
 * partial unless the extent is a multiple of the tile; a floor division,
 * or a ceiling division of an extent the launching function asserts to be
 * a multiple of the divisor, counts whole tiles only. Names are followed
 * as triton_grid.c follows them (tt_grid_binding).
 */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

#define COVER_DEPTH 6

/* Is `f` a ceiling division helper: triton.cdiv, math.ceil, or a function
 * of the project named so (`cdiv`, `ceil_div`, `div_up`, `ceildiv`)? */
static bool ceil_call(tt_module *m, TSNode f)
{
    const char *q = tt_qualify(m, f);
    if (q && (!strcmp(q, "triton.cdiv") || !strcmp(q, "triton.language.cdiv") || !strcmp(q, "math.ceil")))
        return true;
    const char *t = tt_text(m, f);
    const char *dot = strrchr(t, '.');
    const char *n = dot ? dot + 1 : t;
    return !strcmp(n, "cdiv") || !strcmp(n, "ceil_div") || !strcmp(n, "ceildiv") || !strcmp(n, "div_up") ||
           !strcmp(n, "ceil_divide") || !strcmp(n, "round_up_div") || !strcmp(n, "div_round_up");
}

/* How the axis expression `e` (through names) counts tiles: a ceiling
 * division rounds up, a floor division `n // B` does not. *expr and *size
 * get the division and the extent it divides. */
static kc_grid_cover axis_cover(tt_module *m, TSNode scope, TSNode e, int depth, TSNode *expr, TSNode *size,
                               TSNode *div)
{
    e = tt_unparen(e);
    if (depth > COVER_DEPTH || ts_node_is_null(e))
        return KC_COVER_UNKNOWN;
    if (TT_IS(e, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, e, &elem);
        return ts_node_is_null(r) || elem >= 0 ? KC_COVER_UNKNOWN : axis_cover(m, scope, r, depth + 1, expr, size, div);
    }
    if (TT_IS(e, call)) {
        TSNode f = tt_field(e, "function"), args = tt_field(e, "arguments"), pos[2];
        memset(pos, 0, sizeof pos);
        uint32_t n = tt_positional(args, pos, 2);
        TSNode first = pos[0];
        if (TT_IS(f, identifier) && tt_text_eq(m, f, "int") && n == 1)
            return axis_cover(m, scope, first, depth + 1, expr, size, div);
        if (!ceil_call(m, f) || n == 0)
            return KC_COVER_UNKNOWN;
        *expr = e;
        first = tt_unparen(first);
        /* math.ceil(n / B) */
        if (n == 1 && TT_IS(first, binary_operator) && !strcmp(tt_op_of(first), "/")) {
            *div = tt_unparen(tt_field(first, "right"));
            first = tt_unparen(tt_field(first, "left"));
        } else if (n == 2) {
            *div = tt_unparen(pos[1]);
        }
        *size = first;
        return KC_COVER_ROUNDS_UP;
    }
    if (TT_IS(e, unary_operator)) {
        /* -(-n // B) */
        TSNode a = tt_unparen(tt_field(e, "argument"));
        if (TT_IS(a, binary_operator) && !strcmp(tt_op_of(a), "//")) {
            TSNode l = tt_unparen(tt_field(a, "left"));
            if (TT_IS(l, unary_operator)) {
                *expr = e;
                *size = tt_unparen(tt_field(l, "argument"));
                return KC_COVER_ROUNDS_UP;
            }
        }
        return KC_COVER_UNKNOWN;
    }
    if (!TT_IS(e, binary_operator) || strcmp(tt_op_of(e), "//"))
        return KC_COVER_UNKNOWN;
    TSNode l = tt_unparen(tt_field(e, "left")), r = tt_unparen(tt_field(e, "right"));
    int64_t v;
    if (tt_int_literal(m, r, &v) && v == 1)
        return KC_COVER_UNKNOWN;
    *expr = e;
    TSNode n;
    if (tt_rounding_sum(l, &n)) {
        *size = n;
        *div = r;
        return KC_COVER_ROUNDS_UP;
    }
    *size = l;
    return KC_COVER_FLOOR;
}

/* Is `numel` written `T.numel()` and `extent` one of T's extents
 * (`T.size(-1)`, `T.shape[1]`)? A multiple of the extent is then a
 * multiple of every element count of T. */
static bool numel_of_extent(const char *extent, const char *numel)
{
    if (!extent || !numel)
        return false;
    const char *dot = strstr(numel, ".numel()");
    if (!dot || dot[8] || dot == numel)
        return false;
    size_t n = (size_t)(dot - numel);
    return !strncmp(extent, numel, n) && (!strncmp(extent + n, ".size(", 6) || !strncmp(extent + n, ".shape[", 7));
}

/* Is the extent `size` that the axis rounds up by `div` asserted before
 * the launch to be a multiple of it (`assert x.numel() % 1024 == 0` with
 * `triton.cdiv(x.numel(), 1024)`)? Then no program runs past it. */
static const char *asserted_exact(tt_module *m, const tt_launch *l, TSNode scope, TSNode size, TSNode div)
{
    if (ts_node_is_null(size) || ts_node_is_null(div))
        return NULL;
    int64_t d = 0;
    bool dlit = tt_int_literal(m, div, &d);
    if (!dlit && TT_IS(div, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, div, &elem);
        dlit = !ts_node_is_null(r) && elem < 0 && tt_int_literal(m, tt_unparen(r), &d);
    }
    const char *st = tt_text(m, size), *dt = tt_text(m, div);
    /* `META["BLOCK"]` of a grid callable: what the launch passes as BLOCK */
    const char *dpass = NULL;
    TSNode key = TT_IS(div, subscript) ? tt_unparen(tt_field(div, "subscript")) : (TSNode){0};
    if (TT_IS(key, string)) {
        const char *k = tt_text(m, key);
        size_t n = strlen(k);
        for (uint32_t i = 0; n > 2 && i < l->args.len && !dpass; i++)
            if (l->args.data[i].param && strlen(l->args.data[i].param) == n - 2 &&
                !strncmp(l->args.data[i].param, k + 1, n - 2))
                dpass = l->args.data[i].v.text;
        char *end = NULL;
        long long v = dpass ? strtoll(dpass, &end, 10) : 0;
        if (dpass && end && end != dpass && !*end && v > 0) {
            d = v;
            dlit = true;
        }
    }
    for (unsigned i = 0; i < l->nasserted; i++) {
        const char *t = l->asserted[i].text, *al = l->asserted[i].alias;
        if (!((t && !strcmp(t, st)) || (al && !strcmp(al, st)) || numel_of_extent(t, st)))
            continue;
        const char *by = l->asserted[i].by;
        if ((by && (!strcmp(by, dt) || (dpass && !strcmp(by, dpass)))) ||
            (dlit && d > 0 && l->asserted[i].value > 0 && l->asserted[i].value % d == 0))
            return l->asserted[i].why;
    }
    return NULL;
}

void tt_scan_axis_cover(tt_module *m, const tt_launch *l, kc_grid_axis *g, TSNode scope, TSNode e)
{
    TSNode expr = {0}, size = {0}, div = {0};
    g->cover = axis_cover(m, scope, e, 0, &expr, &size, &div);
    if (g->cover == KC_COVER_UNKNOWN)
        return;
    g->cover_expr = tt_one_line(m->arena, tt_text(m, expr), 80);
    g->cover_size = tt_text(m, size);
    /* a rounded-up division of a value asserted to be a multiple of the
     * divisor counts whole tiles only */
    if (g->cover == KC_COVER_ROUNDS_UP && asserted_exact(m, l, scope, size, div))
        g->cover = KC_COVER_FLOOR;
}
