/* frontend_triton.c — the Triton front end: the front end object, which
 * parses a file (within what the pinned tree-sitter runtime takes) and
 * finds the launches of its kernels in the run's other files; and the
 * entry of kernel interpretation, which lowers each @triton.jit kernel
 * into the kernel model: its parameters, which of them are pointers, the
 * values launches and autotune configs give them, then its body
 * (tt_exec_block). The interpreter's files, below this one, are listed in
 * triton_internal.h; the module scan is triton_walk.c.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "triton_internal.h"

#include "kc_pyscan.h"

#include <stdlib.h>
#include <string.h>

/* ---- pointer parameters ---- */

static bool is_pointer_param(tt_ctx *c, const char *name)
{
    for (uint32_t i = 0; i < c->pointer_params.len; i++)
        if (!strcmp(c->pointer_params.data[i], name))
            return true;
    return false;
}

static bool looks_like_pointer(const char *name)
{
    return strstr(name, "ptr") || strstr(name, "Ptr") || strstr(name, "PTR") || strstr(name, "pointer");
}

/* What the summands of a pointer expression say about the kernel's
 * parameters, in the order a depth-first walk meets them: the first
 * parameter among them, and whether a pointer-looking parameter is. */
typedef struct leaf_sum {
    const char *first;
    bool pointer_like;
} leaf_sum;

static void sum_add(leaf_sum *to, leaf_sum x)
{
    if (!to->first)
        to->first = x.first;
    to->pointer_like |= x.pointer_like;
}

/* One name's summary, computed once per kernel. A name is followed through
 * all its assignments (the walk is flow-insensitive), so `p = p + 1`
 * written n times must not be followed again at each of n uses: that was
 * quadratic, and exponential before names were remembered at all. */
typedef struct leaf_memo {
    uint8_t state;  /* LEAF_* */
    /* LEAF_BUSY: its place among the names being computed; LEAF_WAITING:
     * that of the name being computed whose summary it still lacks */
    uint32_t level;
    leaf_sum sum;
} leaf_memo;

enum { LEAF_NEW = 0, LEAF_BUSY, LEAF_WAITING, LEAF_DONE };

typedef struct pointer_search {
    tt_ctx *c;
    TSNode body;
    const char *const *params;
    uint32_t nparams;
    const tt_assign_index *ix;
    leaf_memo *memo;      /* by the name's first slot in ix->by_name */
    uint32_t level;       /* names being computed */
    KC_VEC(uint32_t) waiting; /* slots of names whose summary waits for a name being computed */
} pointer_search;

static uint32_t expr_leaves(pointer_search *ps, TSNode e, leaf_sum *out, int depth);

/* Adds the summary of a local name (itself, then the summands of every
 * assignment to it) to *out. Returns the lowest level of a name still
 * being computed that the summary depends on (UINT32_MAX: none). A name
 * met again while it is being computed (`p = p + 1`, or a cycle through
 * several names) adds only itself; the names of a cycle get the summary of
 * the first of them once that one is complete (as its members reach the
 * same names). */
static uint32_t name_leaves(pointer_search *ps, const char *name, leaf_sum *out)
{
    bool param = false;
    for (uint32_t p = 0; p < ps->nparams && !param; p++)
        param = !strcmp(ps->params[p], name);
    leaf_sum own = {param ? name : NULL, param && looks_like_pointer(name)};
    uint32_t lo, hi;
    tt_assign_range(ps->ix, name, &lo, &hi);
    leaf_memo *m = lo < hi ? &ps->memo[lo] : NULL;
    if (!m) {
        sum_add(out, own);
        return UINT32_MAX;
    }
    if (m->state == LEAF_DONE) {
        sum_add(out, m->sum);
        return UINT32_MAX;
    }
    if (m->state == LEAF_BUSY || m->state == LEAF_WAITING) {
        sum_add(out, m->state == LEAF_WAITING ? m->sum : own);
        return m->level;
    }
    m->state = LEAF_BUSY;
    m->level = ps->level++;
    size_t waiting_from = ps->waiting.len;
    leaf_sum sum = own;
    uint32_t low = UINT32_MAX;
    for (uint32_t i = lo; i < hi; i++) {
        const tt_assign *a = &ps->ix->items.data[ps->ix->by_name[i]];
        if (a->whole && !ts_node_is_null(a->right)) {
            uint32_t l = expr_leaves(ps, a->right, &sum, 0);
            if (l < low)
                low = l;
        }
    }
    ps->level--;
    m->sum = sum;
    sum_add(out, sum);
    if (low < m->level) {
        m->state = LEAF_WAITING; /* completed with the name at `low` */
        m->level = low;
        kc_vec_push(&ps->waiting, lo);
        return low;
    }
    m->state = LEAF_DONE;
    for (size_t w = waiting_from; w < ps->waiting.len; w++) {
        leaf_memo *x = &ps->memo[ps->waiting.data[w]];
        sum_add(&x->sum, sum);
        x->state = LEAF_DONE;
    }
    ps->waiting.len = (uint32_t)waiting_from;
    return UINT32_MAX;
}

/* Adds the summary of the summands of a pointer expression to *out,
 * following local assignments (name_leaves). */
static uint32_t expr_leaves(pointer_search *ps, TSNode e, leaf_sum *out, int depth)
{
    tt_ctx *c = ps->c;
    e = tt_unparen(e);
    if (depth > 8 || ts_node_is_null(e))
        return UINT32_MAX;
    if (TT_IS(e, identifier))
        return name_leaves(ps, tt_text(c->mod, e), out);
    if (TT_IS(e, binary_operator)) {
        const char *op = tt_op_of(e);
        uint32_t low = UINT32_MAX;
        if (!strcmp(op, "+") || !strcmp(op, "-")) {
            low = expr_leaves(ps, tt_field(e, "left"), out, depth + 1);
            if (!strcmp(op, "+")) {
                uint32_t l = expr_leaves(ps, tt_field(e, "right"), out, depth + 1);
                low = l < low ? l : low;
            }
        }
        return low;
    }
    if (TT_IS(e, subscript))
        return expr_leaves(ps, tt_field(e, "value"), out, depth + 1);
    if (TT_IS(e, call)) {
        TSNode f = tt_field(e, "function");
        uint32_t low = UINT32_MAX;
        if (TT_IS(f, attribute) && tt_text_eq(c->mod, tt_field(f, "attribute"), "to"))
            low = expr_leaves(ps, tt_field(f, "object"), out, depth + 1);
        const char *tl = tt_tl_name(tt_qualify(c->mod, f));
        if (tl && (!strcmp(tl, "multiple_of") || !strcmp(tl, "max_contiguous") || !strcmp(tl, "make_block_ptr") ||
                   !strcmp(tl, "advance"))) {
            uint32_t l = expr_leaves(ps, tt_call_arg(c->mod, e, 0, "base"), out, depth + 1);
            low = l < low ? l : low;
        }
        return low;
    }
    return UINT32_MAX;
}

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
    leaf_sum sum = {NULL, false};
    expr_leaves(ps, tt_call_arg(c->mod, n, 0, strcmp(tl, "make_block_ptr") ? "pointer" : "base"), &sum, 0);
    if (sum.first && !sum.pointer_like && !is_pointer_param(c, sum.first))
        kc_vec_push(&c->pointer_params, sum.first);
    return true;
}

static void find_pointer_params(tt_ctx *c, TSNode body, const char *const *params, uint32_t nparams)
{
    for (uint32_t i = 0; i < nparams; i++)
        if (looks_like_pointer(params[i]))
            kc_vec_push(&c->pointer_params, params[i]);
    const tt_assign_index *ix = tt_assignments(c->mod, body);
    pointer_search ps = {c, body, params, nparams, ix, kc_xcalloc(ix->items.len + 1, sizeof(leaf_memo)), 0, {0}};
    tt_walk(body, visit_pointer_use, &ps);
    free(ps.memo);
    kc_vec_free(&ps.waiting);
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
    case TT_HOST_INTS:
        for (uint32_t i = 0; i < hv->nvalues; i++)
            add_value(c->m, s, hv->values[i], hv->origin ? hv->origin : origin);
        break;
    case TT_HOST_SHAPE:
        s->facts |= KC_SF_SHAPE_ARG | KC_SF_SIZE | KC_SF_PROBLEM_SIZE;
        if (!s->size_evidence || !(s->facts & KC_SF_SHAPE_ARG))
            s->size_evidence = hv->origin ? kc_arena_printf(c->a, "%s passes `%s` = %s", origin, hv->text, hv->origin)
                                          : kc_arena_printf(c->a, "%s passes %s", origin, hv->text);
        break;
    case TT_HOST_FLOAT:
        s->facts |= KC_SF_FLOAT_ARG;
        if (!s->float_evidence)
            s->float_evidence = hv->origin ? kc_arena_printf(c->a, "%s passes `%s`: %s", origin, tt_one_line(c->a, hv->text, 80),
                                                             tt_one_line(c->a, hv->origin, 80))
                                           : kc_arena_printf(c->a, "%s passes `%s`", origin, tt_one_line(c->a, hv->text, 80));
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
        TSNode namen, typen, defn;
        if (!tt_param_parts(p, &namen, &typen, &defn))
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
        kp.supplied_by_decorator = kp.is_constexpr && tt_decorator_supplies(mod, def, kp.name);
        kp.symbol = kc_kernel_add_symbol(model, c->k, kp.name, kp.is_constexpr ? KC_SYM_CONSTEXPR : KC_SYM_PARAM);
        kc_symbol *s = &c->k->symbols.data[kp.symbol];
        s->param = c->k->params.len;
        s->span = kp.span;
        /* Integer arguments are i32 unless the value passed needs 64 bits
         * (Triton specializes on it) or the parameter is annotated. */
        s->bits = (kp.type && (strstr(kp.type, "int64") || strstr(kp.type, "i64"))) ? 64 : 32;
        kc_vec_push(&c->k->params, kp);
        kc_vec_push(names, kp.name);
    }
}

/* ---- how the launches tile the kernel (KC303) ---- */

/* Counts, per parameter, whether launch `ln` leaves it to its default:
 * it shows every argument it passes (no unread splat) and none binds it.
 * `bound` is scratch, one flag per parameter. */
static void count_defaults(tt_ctx *c, const tt_launch *ln, uint32_t *ndefault, bool *bound)
{
    if (ln->from_autotune || ln->partial_args)
        return;
    memset(bound, 0, (c->k->params.len + 1) * sizeof *bound);
    for (uint32_t a = 0; a < ln->args.len; a++) {
        uint32_t pi = tt_bound_param(c->k, ln, &ln->args.data[a]);
        if (pi != KC_NONE)
            bound[pi] = true;
    }
    for (uint32_t i = 0; i < c->k->params.len; i++)
        ndefault[i] += !bound[i];
}

/* A default is a value where a launch leaves the parameter to it, or
 * where no launch is seen; not where every launch passes another
 * (`BLOCK_M: tl.constexpr = 32` launched with `BLOCK_M=128`). */
static void add_defaults(tt_ctx *c, const tt_kernel_def *def, uint32_t nlaunch, const uint32_t *ndefault)
{
    TSNode params = tt_field(def->def, "parameters");
    for (uint32_t i = 0, pi = 0; i < ts_node_named_child_count(params) && pi < c->k->params.len; i++) {
        TSNode namen, typen, defn;
        if (!tt_param_parts(ts_node_named_child(params, i), &namen, &typen, &defn))
            continue;
        const kc_param *kp = &c->k->params.data[pi++];
        int64_t dv;
        if (!ts_node_is_null(defn) && tt_int_literal(c->mod, defn, &dv) && (!nlaunch || ndefault[pi - 1])) {
            char origin[64];
            snprintf(origin, sizeof origin, "the default on line %u", kp->span.line);
            add_value(c->m, &c->k->symbols.data[kp->symbol], dv, origin);
        }
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
    for (uint32_t l = llo; l < lhi; l++) {
        const tt_launch *ln = &mod->launches.data[lix[l]];
        launched_here |= !ln->from_autotune && tt_launch_of_def(mod, ln, def);
    }
    /* per parameter: launches binding it, and of those, the ones whose
     * value covers the same other parameter (next_power_of_2 of it) */
    uint32_t nrows[3] = {0}, nlaunch = 0, neager = 0;
    const char *eager_by = NULL;
    uint32_t *nbound = kc_xcalloc(c->k->params.len + 1, sizeof *nbound);
    uint8_t *rowbits = kc_xcalloc(c->k->params.len + 1, sizeof *rowbits);
    uint8_t *partbits = kc_xcalloc(c->k->params.len + 1, sizeof *partbits);
    uint8_t *lastbits = kc_xcalloc(c->k->params.len + 1, sizeof *lastbits);
    uint8_t *statebits = kc_xcalloc(c->k->params.len + 1, sizeof *statebits);
    const char **statewhy = kc_xcalloc(c->k->params.len + 1, sizeof *statewhy);
    uint32_t *ncover = kc_xcalloc(c->k->params.len + 1, sizeof *ncover);
    /* per parameter: launches that leave it to its default (they show
     * every argument they pass and none binds it) */
    uint32_t *ndefault = kc_xcalloc(c->k->params.len + 1, sizeof *ndefault);
    bool *bound_here = kc_xcalloc(c->k->params.len + 1, sizeof *bound_here);
    tt_tiling tl = tt_tiling_new(c->k->params.len);
    for (int pass = 0; pass < 2 && !(pass == 1 && launched_here); pass++) {
        const tt_launch *list = pass ? mod->peer_launches.data : mod->launches.data;
        uint32_t lo, hi;
        const uint32_t *ix = tt_launches_of(mod, pass == 1, def->name, &lo, &hi);
        for (uint32_t l = lo; l < hi; l++) {
            const tt_launch *ln = &list[ix[l]];
            if (!tt_launch_of_def(mod, ln, def))
                continue;
            c->k->launches_seen += !ln->from_autotune;
            for (unsigned ax = 0; ax < 3 && !ln->from_autotune; ax++) {
                bool dim0 = ln->grid_rows_dim0 & (1u << ax);
                if (ln->grid_rows[ax] && nrows[ax]++ == 0)
                    c->k->grid_rows[ax] = kc_arena_printf(c->a, "the launch %s%s%son line %u sizes grid axis %u by "
                                                          "%s: %s",
                                                          ln->file ? "in " : "", ln->file ? ln->file : "",
                                                          ln->file ? " " : "", ln->line, ax,
                                                          dim0 ? "every row of a tensor"
                                                               : "the rows of a tensor with every leading "
                                                                 "dimension flattened",
                                                          ln->grid_rows[ax]);
                if (ln->grid_rows[ax] && dim0)
                    c->k->grid_rows_dim0 |= (uint8_t)(1u << ax);
                tt_tally_cover(c, &tl, ln, ax);
            }
            nlaunch += !ln->from_autotune;
            if (!ln->from_autotune) {
                if (ln->traced_by && !c->k->traced_by)
                    c->k->traced_by = ln->file ? kc_arena_printf(c->a, "%s (in %s)", ln->traced_by, ln->file)
                                               : ln->traced_by;
                neager += ln->eager_by != NULL;
                if (ln->eager_by && !eager_by)
                    eager_by = ln->eager_by;
            }
            count_defaults(c, ln, ndefault, bound_here);
            for (uint32_t a = 0; a < ln->args.len; a++) {
                const tt_binding *b = &ln->args.data[a];
                uint32_t pi = tt_bound_param(c->k, ln, b);
                if (pi == KC_NONE)
                    continue;
                kc_symbol *s = &c->k->symbols.data[c->k->params.data[pi].symbol];
                apply_host_value(c, s, &b->v, ln, ln->from_autotune);
                if (ln->from_autotune)
                    continue;
                rowbits[pi] = nbound[pi] ? (uint8_t)(rowbits[pi] & b->row_axes) : b->row_axes;
                partbits[pi] |= b->row_part_axes; /* a part of the row at any launch */
                lastbits[pi] |= b->row_last_axes;
                statebits[pi] = nbound[pi] ? (uint8_t)(statebits[pi] & b->state_axes) : b->state_axes;
                if (b->state_why && !statewhy[pi])
                    statewhy[pi] = kc_arena_printf(c->a, "the launch %s%s%son line %u passes %s", ln->file ? "in " : "",
                                                   ln->file ? ln->file : "", ln->file ? " " : "", ln->line,
                                                   b->state_why);
                nbound[pi]++;
                tt_tally_multiple(c, &tl, ln, b, pi);
                tt_tally_padding(c, &tl, ln, b, pi);
                /* BLOCK_N=triton.next_power_of_2(E) next to E=E */
                uint32_t ci = KC_NONE;
                for (uint32_t o = 0; b->v.covers && o < ln->args.len && ci == KC_NONE; o++)
                    if (o != a && ln->args.data[o].v.text && !strcmp(ln->args.data[o].v.text, b->v.covers))
                        ci = tt_bound_param(c->k, ln, &ln->args.data[o]);
                if (ci == KC_NONE || ci == pi)
                    continue;
                uint32_t cs = c->k->params.data[ci].symbol;
                if (ncover[pi] == 0 || s->at_least_symbol == cs) {
                    /* the weakest launch decides: a cap (the smallest), or none */
                    int64_t cap = b->v.covers_cap;
                    if (ncover[pi] == 0 || (cap > 0 && (s->at_least_cap == 0 || cap < s->at_least_cap)))
                        s->at_least_cap = cap;
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
    for (unsigned ax = 0; ax < 3; ax++)
        if (nrows[ax] != nlaunch)
            c->k->grid_rows[ax] = NULL; /* some launch sizes the axis otherwise */
    tt_tiling_apply(c, &tl, nlaunch);
    if (nlaunch && neager == nlaunch && !c->k->traced_by)
        c->k->eager_by = eager_by;
    for (uint32_t i = 0; i < c->k->params.len; i++)
        if (nbound[i] == nlaunch && nlaunch) {
            kc_symbol *s = &c->k->symbols.data[c->k->params.data[i].symbol];
            s->row_axes = rowbits[i];
            s->row_part_axes = (uint8_t)(partbits[i] & rowbits[i]);
            s->row_last_axes = (uint8_t)(lastbits[i] & rowbits[i] & ~partbits[i]);
            /* a state along an axis some launch counts otherwise says nothing */
            for (unsigned ax = 0; ax < 3; ax++)
                if (!c->k->grid_rows[ax])
                    statebits[i] &= (uint8_t)~(1u << ax);
            s->state_axes = statebits[i];
            s->state_evidence = statebits[i] ? statewhy[i] : NULL;
        }
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        kc_symbol *s = &c->k->symbols.data[c->k->params.data[i].symbol];
        if (s->at_least_symbol != KC_NONE && ncover[i] != nbound[i]) {
            s->at_least_symbol = KC_NONE; /* some launch passes something else */
            s->at_least_evidence = NULL;
            s->at_least_cap = 0;
        }
    }
    add_defaults(c, def, nlaunch, ndefault);
    free(ndefault);
    free(bound_here);
    free(nbound);
    free(ncover);
    tt_tiling_free(&tl);
    free(rowbits);
    free(partbits);
    free(lastbits);
    free(statebits);
    free(statewhy);
}

/* ---- helpers: jit functions that other jit functions call ---- */

/* Collects the uses of names in one jit body (tt_module.jit_uses). */
typedef struct jit_use_walk {
    tt_module *mod;
    uint32_t caller;
    const char **names; /* the jit functions' names, sorted */
    uint32_t nnames;
} jit_use_walk;

static bool visit_jit_use(TSNode n, void *ud)
{
    jit_use_walk *w = ud;
    if (!TT_IS(n, identifier))
        return true;
    /* only the names of the module's jit functions */
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    char buf[128];
    if (b > w->mod->src->len || a >= b || b - a >= sizeof buf)
        return true;
    memcpy(buf, w->mod->src->text + a, b - a);
    buf[b - a] = '\0';
    const char *key = buf;
    if (!bsearch(&key, w->names, w->nnames, sizeof *w->names, kc_strptr_cmp))
        return true;
    TSNode p = ts_node_parent(n), at = n;
    if (TT_IS(p, attribute)) {
        if (!ts_node_eq(tt_field(p, "attribute"), n))
            return true; /* `name.x`: the object, not a function of the module */
        at = p;
        p = ts_node_parent(at);
    }
    if (TT_IS(p, keyword_argument) && ts_node_eq(tt_field(p, "name"), at))
        return true; /* `f(name=...)`: a keyword */
    if (TT_IS(p, parameters) || TT_IS(p, default_parameter) || TT_IS(p, typed_parameter) ||
        TT_IS(p, typed_default_parameter))
        return true;
    tt_jit_use u;
    memset(&u, 0, sizeof u);
    u.name = tt_text(w->mod, n);
    u.caller = w->caller;
    if (TT_IS(p, call) && ts_node_eq(tt_field(p, "function"), at))
        u.call = p;
    kc_vec_push(&w->mod->jit_uses, u);
    return true;
}

static int cmp_jit_use(const void *a, const void *b)
{
    const tt_jit_use *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->caller < y->caller ? -1 : x->caller > y->caller ? 1 : 0;
}

/* The uses of the name of jit function `ki` in the bodies of the module's
 * other jit functions: uses[*lo..*hi) of tt_module.jit_uses (one walk of
 * every body, on first use). None: a kernel, not a helper. */
static bool jit_uses_of(tt_module *mod, uint32_t ki, uint32_t *lo, uint32_t *hi)
{
    if (!mod->jit_uses_built) {
        mod->jit_uses_built = true;
        const char **names = kc_xcalloc(mod->kernels.len + 1, sizeof *names);
        for (uint32_t i = 0; i < mod->kernels.len; i++)
            names[i] = mod->kernels.data[i].name;
        qsort(names, mod->kernels.len, sizeof *names, kc_strptr_cmp);
        for (uint32_t i = 0; i < mod->kernels.len; i++) {
            jit_use_walk w = {mod, i, names, mod->kernels.len};
            tt_walk(tt_field(mod->kernels.data[i].def, "body"), visit_jit_use, &w);
        }
        free(names);
        if (mod->jit_uses.len > 1)
            qsort(mod->jit_uses.data, mod->jit_uses.len, sizeof *mod->jit_uses.data, cmp_jit_use);
    }
    const char *name = mod->kernels.data[ki].name;
    uint32_t l = 0, h = mod->jit_uses.len;
    while (l < h) {
        uint32_t mid = l + (h - l) / 2;
        if (strcmp(mod->jit_uses.data[mid].name, name) < 0)
            l = mid + 1;
        else
            h = mid;
    }
    *lo = l;
    while (l < mod->jit_uses.len && !strcmp(mod->jit_uses.data[l].name, name))
        l++;
    *hi = l;
    bool other = false;
    for (uint32_t i = *lo; i < *hi && !other; i++)
        other = mod->jit_uses.data[i].caller != ki;
    return other;
}

/* The argument a call passes for the parameter named `name` at position
 * `pos`: the node, a null node when the call leaves it to the default, or
 * false when the call does not show which argument binds it (a splat). */
static bool call_arg_for(tt_module *mod, TSNode call, const char *name, uint32_t pos, TSNode *out)
{
    TSNode args = tt_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args), at = 0;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment))
            continue;
        if (TT_IS(a, list_splat) || TT_IS(a, dictionary_splat))
            return false;
        if (TT_IS(a, keyword_argument)) {
            if (tt_text_eq(mod, tt_field(a, "name"), name)) {
                *out = tt_field(a, "value");
                return true;
            }
            continue;
        }
        if (at++ == pos) {
            *out = a;
            return true;
        }
    }
    return true;
}

/* Does the argument show a scalar: a literal, or a parameter of the
 * calling jit function that its body never rebinds, where that function
 * is itself not called by another one, here or in another file (its
 * parameters are then scalars)? */
static bool scalar_at_call(tt_module *mod, uint32_t caller, TSNode arg)
{
    arg = tt_unparen(arg);
    if (TT_IS(arg, unary_operator))
        arg = tt_unparen(tt_field(arg, "argument"));
    if (TT_IS(arg, integer) || TT_IS(arg, float) || TT_IS(arg, true) || TT_IS(arg, false) || TT_IS(arg, none))
        return true;
    if (!TT_IS(arg, identifier))
        return false;
    const tt_kernel_def *cd = &mod->kernels.data[caller];
    TSNode params = tt_field(cd->def, "parameters");
    uint32_t np = ts_node_named_child_count(params);
    bool is_param = false;
    for (uint32_t i = 0; i < np && !is_param; i++) {
        TSNode namen, t, d;
        if (tt_param_parts(ts_node_named_child(params, i), &namen, &t, &d))
            is_param = TT_IS(namen, identifier) && tt_text_eq(mod, namen, tt_text(mod, arg));
    }
    if (!is_param)
        return false;
    uint32_t lo, hi;
    tt_assign_range(tt_assignments(mod, tt_field(cd->def, "body")), tt_text(mod, arg), &lo, &hi);
    if (lo != hi)
        return false;
    uint32_t ulo, uhi;
    return !jit_uses_of(mod, caller, &ulo, &uhi) && !cd->peer_helper;
}

/* Marks the parameters whose shape is not known: a jit function that
 * other jit functions call (a helper) receives whatever they pass, blocks
 * of pointers and of offsets included, so a parameter is a scalar only
 * where every call shows one (a literal, the default, or a scalar
 * parameter of the caller). The calls of a helper in other files are not
 * looked at one by one: there every parameter is taken to be whatever
 * the caller passes. */
static void helper_params(tt_ctx *c, const tt_kernel_def *def)
{
    tt_module *mod = c->mod;
    uint32_t ki = (uint32_t)(def - mod->kernels.data), lo = 0, hi = 0;
    if (!jit_uses_of(mod, ki, &lo, &hi) && !def->peer_helper)
        return;
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        kc_param *kp = &c->k->params.data[i];
        if (kp->is_constexpr)
            continue;
        bool scalar = !def->peer_helper;
        uint32_t seen = 0;
        for (uint32_t u = lo; u < hi && scalar; u++) {
            const tt_jit_use *use = &mod->jit_uses.data[u];
            if (use->caller == ki)
                continue;
            if (ts_node_is_null(use->call) || ++seen > 32) {
                scalar = false; /* passed on, or too many calls to look at */
                continue;
            }
            TSNode arg;
            if (!call_arg_for(mod, use->call, kp->name, i, &arg))
                scalar = false;
            else if (ts_node_is_null(arg))
                scalar = kp->default_text != NULL;
            else
                scalar = scalar_at_call(mod, use->caller, arg);
        }
        kp->shape_unknown = !scalar;
    }
}

/* Binds the parameters in the environment: pointers to their base, a
 * constexpr with one known value to it, anything else to its symbol. */
static void bind_params(tt_ctx *c)
{
    for (uint32_t i = 0; i < c->k->params.len; i++) {
        kc_param *kp = &c->k->params.data[i];
        kc_symbol *s = &c->k->symbols.data[kp->symbol];
        tv v = tt_unknown();
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
                /* A Python float, its type not pinned by an annotation; or
                 * a scalar no launch shows to be an integer (KC501 decides
                 * from its uses whether it may be a float). */
                bool ints = s->nvalues || (s->facts & (KC_SF_SHAPE_ARG | KC_SF_INNER_STRIDE | KC_SF_OUTER_STRIDE));
                /* An fp32 annotation does not pin it: Inductor passes fp64
                 * all the same (measured, bench/premise/fp64_scalar_premises.py). */
                bool fl_annot = *kp->type && (strstr(kp->type, "float") || strstr(kp->type, "fp32") ||
                                              strstr(kp->type, "fp16") || strstr(kp->type, "bf16"));
                if (fl_annot && !(s->facts & KC_SF_FLOAT_ARG)) {
                    s->facts |= KC_SF_FLOAT_ARG;
                    s->float_evidence = kc_arena_printf(c->a, "annotated `%s`, which Inductor does not follow",
                                                        kp->type);
                }
                if (!kp->is_constexpr && (!*kp->type || fl_annot) && ((s->facts & KC_SF_FLOAT_ARG) || !ints))
                    tt_fp64_param(&v, kp->symbol, s->facts & KC_SF_FLOAT_ARG);
                else if (ints && !(s->facts & KC_SF_FLOAT_ARG) && !kp->is_constexpr)
                    v.elt = TT_ELT_INT; /* an integer argument: i32 or i64 */
            }
        }
        v.vague = kp->shape_unknown; /* a helper's: the caller decides the shape */
        tt_env_set(c, kp->name, v);
    }
}

/* Lowers kernel `def` of `mod` into `model`. */
/* Where a statement can go at the top of the body: before its first
 * statement after the docstring, with that statement's indentation. */
static void body_start(tt_ctx *c, TSNode body)
{
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(body, i);
        if (TT_IS(st, comment))
            continue;
        if (i + 1 < n && TT_IS(st, expression_statement) && ts_node_named_child_count(st) == 1 &&
            TT_IS(ts_node_named_child(st, 0), string))
            continue; /* the docstring */
        TSPoint p = ts_node_start_point(st);
        const char *line = c->mod->src->text + ts_node_start_byte(st) - p.column;
        for (uint32_t j = 0; j < p.column; j++)
            if (line[j] != ' ' && line[j] != '\t')
                return; /* `def f(x): return x`: the body on the def's line */
        c->k->body_start = (kc_span){p.row + 1, p.column + 1, p.row + 1, p.column + 1};
        c->k->body_indent = kc_arena_strndup(c->a, line, p.column);
        return;
    }
}

static void lower_kernel(tt_module *mod, kc_model *model, const tt_kernel_def *def)
{
    tt_ctx c;
    memset(&c, 0, sizeof c);
    c.stack_base = (uintptr_t)__builtin_frame_address(0);
    c.mod = mod;
    c.m = model;
    c.a = model->arena;
    c.loop = KC_NONE;
    c.cond = KC_NONE;
    c.eval = tt_eval;
    c.k = kc_model_add_kernel(model, def->name);
    /* The name fix-its spell `tl.int64` with: Triton's own import when
     * there is one (a project module taken for triton.language by use,
     * `ext.program_id`, need not have `ext.int64`). */
    c.tl_alias = "tl";
    bool own = false;
    for (uint32_t i = 0; i < mod->aliases.len; i++) {
        const tt_alias *al = &mod->aliases.data[i];
        bool mine = !al->from || (!strncmp(al->from, "triton", 6) && (al->from[6] == '\0' || al->from[6] == '.'));
        if (strcmp(al->qualified, "triton.language") != 0 || (own && !mine))
            continue;
        c.tl_alias = al->local;
        own |= mine;
    }
    c.k->span = tt_span(ts_node_is_null(def->decorated) ? def->def : def->decorated);
    c.k->name_span = tt_span(tt_field(def->def, "name"));
    c.k->autotuned = def->autotuned;

    TSNode body = tt_field(def->def, "body");
    body_start(&c, body);
    tt_names names = {0};
    add_params(&c, def, &names);
    find_pointer_params(&c, body, names.data, names.len);
    apply_launches(&c, def);
    helper_params(&c, def);
    bind_params(&c);
    kc_vec_free(&names);
    tt_exec_block(&c, body);
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

/* `return a, *b` statements the grammar could not parse (left out; kc_triton_lower says so). */
typedef struct star_returns {
    uint32_t lines[8], cols[8], n;
} star_returns;

/* Parses `src`; NULL with an error in errs when the file cannot be
 * analysed (sizes and shapes the parser cannot take, syntax errors). */
static TSTree *parse_file(kc_triton_frontend *fe, const kc_source *src, kc_file_errors *errs, star_returns *sr)
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
    star_returns none = {.n = 0};
    if (!sr)
        sr = &none;
    sr->n = 0;
    if (ts_node_has_error(root) && tt_star_returns_only(src, root, sr->lines, sr->cols, &sr->n, 8, 0))
        return tree; /* only `return a, *b` statements the grammar rejects: the rest is whole */
    sr->n = 0;
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

/* The launches in the peer files of the kernels that `mod` defines and
 * does not launch itself: into mod->peer_launches, their values in the
 * model's arena. A peer that cannot be read or parsed is passed over. */
static void scan_peers(kc_triton_frontend *fe, tt_module *mod, const kc_peers *peers)
{
    /* by the names the module binds them to (`g = triton.jit(fn)`) */
    KC_VEC(const char *) names = {0};
    for (uint32_t k = 0; k < mod->knames.len; k++) {
        const char *kernel = mod->kernels.data[mod->knames.data[k].kernel].name;
        uint32_t lo, hi;
        const uint32_t *ix = tt_launches_of(mod, false, kernel, &lo, &hi);
        bool launched = false;
        for (uint32_t l = lo; l < hi && !launched; l++)
            launched = !mod->launches.data[ix[l]].from_autotune;
        if (!launched)
            kc_vec_push(&names, mod->knames.data[k].name);
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
    bool *jit_called = kc_xcalloc(names.len + 1, sizeof *jit_called);
    for (uint32_t p = 0; names.len && *stem && p < peers->n; p++) {
        char *err = NULL;
        kc_source *ps = kc_source_load(peers->paths[p], fe->opts ? fe->opts->max_file_size : 0, &err);
        free(err);
        if (!ps)
            continue;
        kc_source pv = kc_source_lf_view(ps); /* parsed with its lone CRs as LFs */
        /* read where it names a kernel at all: a launch (`K[grid]`, `mod.K[`,
         * through an alias), or a call by a jit function, which needs no `[` */
        bool any = false;
        for (uint32_t i = 0; i < names.len && !any; i++)
            any = memmem(pv.text, pv.len, names.data[i], strlen(names.data[i])) != NULL;
        kc_file_errors perr = {0};
        TSTree *tree = any ? parse_file(fe, &pv, &perr, NULL) : NULL;
        kc_file_errors_free(&perr);
        if (tree) {
            tt_module g;
            memset(&g, 0, sizeof g);
            g.src = &pv;
            g.arena = mod->arena;
            g.root = ts_tree_root_node(tree);
            tt_scan_peer_launches(&g, stem, names.data, names.len, jit_called);
            const char *file = kc_arena_strdup(mod->arena, strrchr(ps->path, '/') ? strrchr(ps->path, '/') + 1 : ps->path);
            for (uint32_t l = 0; l < g.launches.len; l++) {
                tt_launch ln = g.launches.data[l];
                ln.file = file;
                ln.def_plus1 = 0; /* a launch in another file names no definition of this one */
                for (uint32_t k = 0; k < mod->knames.len; k++)
                    if (!strcmp(mod->knames.data[k].name, ln.kernel))
                        ln.kernel = mod->kernels.data[mod->knames.data[k].kernel].name;
                memset(&ln.call, 0, sizeof ln.call);
                kc_vec_push(&mod->peer_launches, ln);
            }
            g.launches.len = 0; /* their arguments moved */
            tt_module_free(&g);
            ts_tree_delete(tree);
        }
        kc_source_delete(ps);
    }
    /* the kernels a jit function of another file calls: helpers */
    for (uint32_t i = 0; i < names.len; i++)
        for (uint32_t k = 0; jit_called[i] && k < mod->knames.len; k++)
            if (!strcmp(mod->knames.data[k].name, names.data[i]))
                mod->kernels.data[mod->knames.data[k].kernel].peer_helper = true;
    free(jit_called);
    free(stem);
    kc_vec_free(&names);
}

kc_model *kc_triton_lower(kc_triton_frontend *fe, const kc_source *file, const kc_peers *peers, kc_file_errors *errs)
{
    kc_model *model = kc_model_new(file, KC_LANG_TRITON);
    if (peers) {
        model->torch_compile = peers->torch_compile;
        model->repo_py_files = peers->repo_py_files;
    }
    if (fe->opts)
        kc_arena_set_limit(model->arena, fe->opts->file_memory);
    /* parsed with its lone CRs as LFs (tree-sitter-python ends lines at LF) */
    const kc_source lf = kc_source_lf_view(file), *src = &lf;
    /* Files that never mention triton cost a substring search (a file
     * whose Triton names come from a module of the project, read from a
     * peer, may only say `jit`). */
    bool triton = memmem(src->text, src->len, "triton", 6) || (peers && peers->n && memmem(src->text, src->len, "jit", 3));
    /* CUDA kernels in strings (load_inline, cupy.RawKernel) */
    bool cuda = memmem(src->text, src->len, "__global__", 10) != NULL;
    if (!triton && !cuda)
        return model;
    star_returns sr = {.n = 0};
    kc_file_errors ignored = {0};
    TSTree *tree = parse_file(fe, src, triton ? errs : &ignored, &sr);
    kc_file_errors_free(&ignored);
    if (!tree && !triton)
        return model; /* no Triton, and its strings are not found without a parse */
    if (!tree) {
        kc_model_delete(model);
        return NULL;
    }
    if (cuda)
        tt_embedded_cuda(src, ts_tree_root_node(tree), model);
    if (!triton) {
        ts_tree_delete(tree);
        return model;
    }
    for (uint32_t i = 0; i < sr.n; i++)
        kc_model_add_gap(model, KC_GAP_SYNTAX, (kc_span){sr.lines[i], sr.cols[i], sr.lines[i], sr.cols[i] + 6},
                         "`return a, *b`, valid Python since 3.8 that the pinned grammar does not parse", NULL);
    TSNode root = ts_tree_root_node(tree);
    tt_module mod;
    memset(&mod, 0, sizeof mod);
    mod.src = src;
    mod.arena = model->arena;
    mod.root = root;
    mod.peers = peers;
    mod.max_file_size = fe->opts ? fe->opts->max_file_size : 0;
    if (tt_scan_module(&mod)) {
        if (peers && peers->n)
            scan_peers(fe, &mod, peers);
        for (uint32_t i = 0; i < mod.kernels.len; i++)
            lower_kernel(&mod, model, &mod.kernels.data[i]);
        for (uint32_t i = 0; i < mod.launches.len; i++) {
            const tt_launch *l = &mod.launches.data[i];
            if (l->from_autotune)
                continue;
            kc_launch kl;
            memset(&kl, 0, sizeof kl);
            kl.kernel = l->kernel;
            kl.span = tt_span(l->call);
            kl.grid_text = tt_text(&mod, tt_field(tt_field(l->call, "function"), "subscript"));
            kl.partial_args = l->partial_args;
            memcpy(kl.grid, l->grid, sizeof kl.grid);
            const kc_kernel *lk = NULL;
            for (uint32_t j = 0; j < model->kernels.len && !lk; j++)
                if (!strcmp(model->kernels.data[j]->name, l->kernel))
                    lk = model->kernels.data[j];
            for (uint32_t a = 0; a < l->args.len; a++) {
                /* positional arguments are named by the parameter they bind */
                const char *param = l->args.data[a].param;
                uint32_t pi = lk && !param ? tt_bound_param(lk, l, &l->args.data[a]) : KC_NONE;
                if (pi != KC_NONE && pi < lk->params.len)
                    param = lk->params.data[pi].name;
                kc_launch_arg la = {.param = param, .text = l->args.data[a].v.text,
                                    .has_value = l->args.data[a].v.kind == TT_HOST_INT,
                                    .value = l->args.data[a].v.value};
                kc_vec_push(&kl.args, la);
            }
            kc_vec_push(&model->launches, kl);
        }
    }
    tt_module_free(&mod);
    ts_tree_delete(tree);
    if (kc_arena_over(model->arena)) {
        kc_file_errors_over_memory(errs, "its kernel model", kc_arena_bytes(model->arena), fe->opts->file_memory);
        kc_model_delete(model);
        return NULL;
    }
    return model;
}
