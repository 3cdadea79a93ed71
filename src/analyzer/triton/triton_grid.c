/* triton_grid.c — what a launch's grid says about the kernel's program
 * ids: the axes along which the launch runs one program (or one tile of
 * programs) per row of a tensor whose leading dimensions are all flattened
 * into its rows. That is how kernels over a model's activations are
 * launched (`x = x.view(-1, N)`, `x.reshape(-1, x.shape[-1])`, a grid of
 * `batch * seq_len` programs): the row count is the token count of the
 * batch, and a row index times the row stride spans the whole tensor, so
 * the product passes 2^31 once the tensor does (KC304's warning line).
 *
 * Host code is read the way triton_walk.c reads launch arguments: names
 * are followed to their last assignment before the use, in the enclosing
 * function and then at module level, a few steps deep. Anything else (a
 * grid function, a computed tuple, a tensor of unknown making) says
 * nothing.
 */
#include "triton_internal.h"

#include <string.h>
#include <strings.h>

#define GRID_DEPTH 6

static bool is_minus_one(tt_module *m, TSNode n)
{
    int64_t v;
    return tt_int_literal(m, n, &v) && v == -1;
}

/* Methods and functions that keep a tensor's rows (an element-wise copy,
 * a split along the last dimension). */
static const char *const keeps_rows[] = {"contiguous", "chunk", "split", "to", "float", "half", "bfloat16",
                                         "clone", "detach", "empty_like", "zeros_like", "ones_like", NULL};

static const char *flattened(tt_module *m, TSNode t, TSNode scope, int depth, TSNode *row_len);

/* The position of parameter `name` of function `fn` (-1: not one, or a
 * method, whose calls this does not follow). */
static int param_position(tt_module *m, TSNode fn, const char *name)
{
    TSNode params = tt_field(fn, "parameters");
    int pos = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode id = TT_IS(p, identifier) ? p
                    : TT_IS(p, typed_parameter) ? ts_node_named_child(p, 0)
                    : TT_IS(p, default_parameter) || TT_IS(p, typed_default_parameter) ? tt_field(p, "name")
                                                                                       : (TSNode){0};
        if (!TT_IS(id, identifier))
            return -1; /* *args, keyword-only marker: positions past it are not followed */
        if (pos == 0 && (tt_text_eq(m, id, "self") || tt_text_eq(m, id, "cls")))
            return -1;
        if (tt_text_eq(m, id, name))
            return pos;
        pos++;
    }
    return -1;
}

typedef struct caller_search {
    tt_module *m;
    const char *fn;
    KC_VEC(TSNode) calls;
} caller_search;

static bool visit_caller(TSNode n, void *ud)
{
    caller_search *cs = ud;
    if (TT_IS(n, call) && tt_text_eq(cs->m, tt_field(n, "function"), cs->fn) && cs->calls.len < 16)
        kc_vec_push(&cs->calls, n);
    return true;
}

/* A parameter `name` of the function `scope`: flattened when every call of
 * the function in the module passes a flattened tensor for it (one call
 * level, the launcher's caller reshaping its input). */
static const char *flattened_by_callers(tt_module *m, TSNode scope, const char *name, int depth)
{
    if (ts_node_is_null(scope))
        return NULL;
    int pos = param_position(m, scope, name);
    if (pos < 0)
        return NULL;
    caller_search cs = {.m = m, .fn = tt_text(m, tt_field(scope, "name"))};
    tt_walk(m->root, visit_caller, &cs);
    const char *how = NULL;
    for (uint32_t i = 0; i < cs.calls.len; i++) {
        TSNode args = tt_field(cs.calls.data[i], "arguments"), arg = {0};
        int at = 0;
        for (uint32_t j = 0; j < ts_node_named_child_count(args); j++) {
            TSNode a = ts_node_named_child(args, j);
            if (TT_IS(a, comment))
                continue;
            if (TT_IS(a, keyword_argument)) {
                if (tt_text_eq(m, tt_field(a, "name"), name))
                    arg = tt_field(a, "value");
                continue;
            }
            if (TT_IS(a, list_splat) || TT_IS(a, dictionary_splat))
                break;
            if (at++ == pos)
                arg = a;
        }
        const char *h = ts_node_is_null(arg) ? NULL
                                             : flattened(m, arg, tt_enclosing_function(cs.calls.data[i]), depth + 1, NULL);
        if (!h) {
            how = NULL;
            break;
        }
        if (!how)
            how = kc_arena_printf(m->arena, "%s in the call on line %u", h, ts_node_start_point(cs.calls.data[i]).row + 1);
    }
    kc_vec_free(&cs.calls);
    return how;
}

/* Is `t` (a tensor expression) made by flattening every leading dimension
 * into the rows? Returns the making expression, quoted, NULL when not;
 * *row_len (when asked) the row length it gives (`N` of x.view(-1, N)),
 * a null node when it gives none. */
static const char *flattened(tt_module *m, TSNode t, TSNode scope, int depth, TSNode *row_len)
{
    t = tt_unparen(t);
    if (depth > GRID_DEPTH || ts_node_is_null(t))
        return NULL;
    TSNode obj, args, first = {0};
    static const char *const reshapes[] = {"view", "reshape", NULL};
    static const char *const flattens[] = {"flatten", NULL};
    if (tt_method_call(m, t, reshapes, &obj, &args)) {
        /* x.view(-1, N) or x.view((-1, N)): the first extent -1, one more */
        TSNode dims = args;
        if (tt_positional(args, &first, 1) == 1 && (TT_IS(tt_unparen(first), tuple) || TT_IS(tt_unparen(first), list)))
            dims = tt_unparen(first);
        if (tt_positional(dims, &first, 1) != 2 || !is_minus_one(m, first))
            return NULL;
        if (row_len) {
            *row_len = ts_node_next_named_sibling(first);
            while (!ts_node_is_null(*row_len) && TT_IS(*row_len, comment))
                *row_len = ts_node_next_named_sibling(*row_len);
        }
        return kc_arena_printf(m->arena, "`%s`", tt_text(m, t));
    }
    if (tt_method_call(m, t, flattens, &obj, &args)) {
        /* x.flatten(0, -2) */
        if (tt_positional(args, &first, 1) != 2 || !tt_text_eq(m, first, "0"))
            return NULL;
        TSNode second = ts_node_next_named_sibling(first);
        while (!ts_node_is_null(second) && TT_IS(second, comment))
            second = ts_node_next_named_sibling(second);
        return tt_text_eq(m, second, "-2") ? kc_arena_printf(m->arena, "`%s`", tt_text(m, t)) : NULL;
    }
    if (tt_method_call(m, t, keeps_rows, &obj, &args)) {
        /* torch.empty_like(x) is a call of an attribute of `torch`: its argument is the tensor */
        if (TT_IS(obj, identifier) && tt_text_eq(m, obj, "torch") && tt_positional(args, &first, 1) >= 1)
            return flattened(m, first, scope, depth + 1, row_len);
        /* chunk/split divide the row: their row length is not the input's */
        bool divides = tt_text_eq(m, tt_field(tt_field(t, "function"), "attribute"), "chunk") ||
                       tt_text_eq(m, tt_field(tt_field(t, "function"), "attribute"), "split");
        return flattened(m, obj, scope, depth + 1, divides ? NULL : row_len);
    }
    if (TT_IS(t, subscript)) /* x[:, :N]: a column slice keeps the rows */
        return flattened(m, tt_field(t, "value"), scope, depth + 1, NULL);
    if (TT_IS(t, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, t, &elem);
        if (ts_node_is_null(r))
            return flattened_by_callers(m, scope, tt_text(m, t), depth);
        if (elem >= 0) /* x, y = xy.chunk(2, dim=-1) */
            return flattened(m, r, scope, depth + 1, NULL);
        return flattened(m, r, scope, depth + 1, row_len);
    }
    return NULL;
}

/* An extent `t.shape[d]` / `t.size(d)` / an element of `a, b, ... = t.shape`:
 * the tensor node and the dimension (negative from the end; INT32_MIN unknown). */
static bool extent(tt_module *m, TSNode e, TSNode scope, int depth, TSNode *tensor, int *dim, uint32_t *targets)
{
    e = tt_unparen(e);
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return false;
    *targets = 0;
    int64_t d;
    TSNode obj, args, first = {0};
    static const char *const sizes[] = {"size", NULL};
    if (TT_IS(e, subscript)) {
        TSNode val = tt_field(e, "value"), ix = tt_field(e, "subscript");
        if (!TT_IS(val, attribute) || !tt_text_eq(m, tt_field(val, "attribute"), "shape") || !tt_int_literal(m, ix, &d))
            return false;
        *tensor = tt_field(val, "object");
        *dim = (int)d;
        return true;
    }
    if (tt_method_call(m, e, sizes, &obj, &args)) {
        if (tt_positional(args, &first, 1) != 1 || !tt_int_literal(m, first, &d))
            return false;
        *tensor = obj;
        *dim = (int)d;
        return true;
    }
    if (!TT_IS(e, identifier))
        return false;
    int elem;
    TSNode r = tt_grid_binding(m, scope, e, &elem);
    if (ts_node_is_null(r))
        return false;
    if (elem < 0)
        return extent(m, r, scope, depth + 1, tensor, dim, targets);
    r = tt_unparen(r);
    /* T, D, G = *x.shape, groups: the splat's elements come first */
    if ((TT_IS(r, expression_list) || TT_IS(r, tuple)) && ts_node_named_child_count(r) >= 1 &&
        tt_starts_with_splat(m, r)) {
        TSNode asg = ts_node_parent(r);
        TSNode left = TT_IS(asg, assignment) ? tt_field(asg, "left") : (TSNode){0};
        uint32_t nt = ts_node_is_null(left) ? 0 : ts_node_named_child_count(left);
        uint32_t rest = ts_node_named_child_count(r) - 1;
        TSNode sp = ts_node_named_child(r, 0);
        sp = tt_unparen(TT_IS(sp, list_splat) ? ts_node_named_child(sp, 0) : sp);
        if (nt > rest && (uint32_t)elem >= nt - rest) /* (HV in `B, T, H, K, V, HV = *k.shape, v.shape[-1], u.shape[2]`) */
            return extent(m, ts_node_named_child(r, (uint32_t)elem - (nt - rest) + 1), scope, depth + 1, tensor, dim,
                          targets);
        if (nt <= rest || !TT_IS(sp, attribute) || !tt_text_eq(m, tt_field(sp, "attribute"), "shape"))
            return false;
        /* tree-sitter-python 0.23 parses `*x.shape` there as the attribute
         * `shape` of the splat `*x` */
        *tensor = tt_field(sp, "object");
        if (TT_IS(*tensor, list_splat))
            *tensor = ts_node_named_child(*tensor, 0);
        *dim = elem;
        *targets = nt - rest;
        return true;
    }
    if ((TT_IS(r, expression_list) || TT_IS(r, tuple)) && (uint32_t)elem < ts_node_named_child_count(r)) {
        /* N, NT = B, cdiv(T, BT): the element bound to the name */
        TSNode asg = ts_node_parent(r);
        TSNode left = TT_IS(asg, assignment) ? tt_field(asg, "left") : (TSNode){0};
        if (ts_node_is_null(left) || ts_node_named_child_count(left) != ts_node_named_child_count(r))
            return false;
        return extent(m, ts_node_named_child(r, (uint32_t)elem), scope, depth + 1, tensor, dim, targets);
    }
    if (TT_IS(r, attribute) && tt_text_eq(m, tt_field(r, "attribute"), "shape"))
        *tensor = tt_field(r, "object");
    else if (tt_method_call(m, r, sizes, &obj, &args) && tt_positional(args, &first, 1) == 0)
        *tensor = obj;
    else
        return false;
    *dim = elem;
    /* how many names the unpacking binds: its targets' commas */
    TSNode asg = ts_node_parent(r);
    TSNode left = TT_IS(asg, assignment) ? tt_field(asg, "left") : (TSNode){0};
    *targets = ts_node_is_null(left) ? 0 : ts_node_named_child_count(left);
    return true;
}

/* How a grid axis counts rows (flat_rows). */
typedef enum rows_kind { ROWS_NONE, ROWS_FLAT, ROWS_NUMEL, ROWS_LEADING2, ROWS_DIM0 } rows_kind;
typedef struct rows_info {
    rows_kind kind;
    const char *why;
    TSNode divisor;   /* ROWS_NUMEL: N of x.numel() // N */
    TSNode tensor;    /* ROWS_DIM0, ROWS_LEADING2: the tensor whose leading dimensions the axis counts */
    uint32_t targets; /* ROWS_DIM0: names bound by `M, N = x.shape` (0: not unpacked) */
    uint32_t rank;    /* ROWS_DIM0, ROWS_LEADING2: the rank of `tensor` from its unpacking (0: not known) */
    TSNode unpack;    /* the names of that unpacking (`B, H, T, D` of `B, H, T, D = x.shape`), or null */
    bool tiled;       /* a tile of rows per program (triton.cdiv(rows, BLOCK)) */
} rows_info;

/* Is `t` the tensor `tensor` or one made from it row for row
 * (`y = torch.empty_like(x)`, `x.contiguous()`)? */
static bool same_rows(tt_module *m, TSNode t, TSNode tensor, TSNode scope, int depth)
{
    t = tt_unparen(t);
    if (depth > GRID_DEPTH || ts_node_is_null(t))
        return false;
    if (tt_text_eq(m, t, tt_text(m, tensor)))
        return true;
    TSNode obj, args, first = {0};
    if (tt_method_call(m, t, keeps_rows, &obj, &args)) {
        if (TT_IS(obj, identifier) && tt_text_eq(m, obj, "torch"))
            return tt_positional(args, &first, 1) >= 1 && same_rows(m, first, tensor, scope, depth + 1);
        return same_rows(m, obj, tensor, scope, depth + 1);
    }
    if (TT_IS(t, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, t, &elem);
        return !ts_node_is_null(r) && elem < 0 && same_rows(m, r, tensor, scope, depth + 1);
    }
    return false;
}

/* The names an unpacking binds when `e` is one of them (`B` of `B, H, T,
 * D = x.shape`), or a null node. */
static TSNode unpacked_names(tt_module *m, TSNode e, TSNode scope)
{
    e = tt_unparen(e);
    int elem;
    TSNode r = TT_IS(e, identifier) ? tt_grid_binding(m, scope, e, &elem) : (TSNode){0};
    if (ts_node_is_null(r) || elem < 0)
        return (TSNode){0};
    TSNode asg = ts_node_parent(tt_unparen(r));
    return TT_IS(asg, assignment) ? tt_field(asg, "left") : (TSNode){0};
}

/* Is `e` the row count of a tensor whose leading dimensions are flattened
 * into its rows? The reason as text in ri->why (NULL when it is not). */
static void flat_rows(tt_module *m, TSNode e, TSNode scope, int depth, rows_info *ri)
{
    e = tt_unparen(e);
    ri->kind = ROWS_NONE;
    ri->why = NULL;
    ri->tiled = false;
    ri->rank = 0;
    ri->tensor = ri->unpack = (TSNode){0};
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return;
    const char *text = tt_text(m, e);
    TSNode t;
    int dim;
    uint32_t targets;
    if (extent(m, e, scope, depth, &t, &dim, &targets)) {
        const char *how = dim == 0 ? flattened(m, t, scope, depth + 1, NULL) : NULL;
        if (how) {
            ri->kind = ROWS_FLAT;
            ri->why = kc_arena_printf(m->arena, "`%s` is the row count of `%s`, made by %s", text, tt_text(m, t), how);
        } else if (dim == 0 && TT_IS(t, identifier)) {
            /* M of `M, K = a.shape`: every row of `a`, whatever its making */
            ri->kind = ROWS_DIM0;
            ri->tensor = t;
            ri->targets = targets;
            ri->rank = targets;
            ri->unpack = unpacked_names(m, e, scope);
            ri->why = kc_arena_printf(m->arena, "`%s` is the first dimension of `%s`", text, tt_text(m, t));
        }
        return;
    }
    if (TT_IS(e, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, e, &elem);
        if (ts_node_is_null(r) || elem >= 0)
            return;
        flat_rows(m, r, scope, depth + 1, ri);
        if (ri->why)
            ri->why = kc_arena_printf(m->arena, "`%s` = %s", text, ri->why);
        return;
    }
    if (TT_IS(e, binary_operator)) {
        TSNode op = tt_field(e, "operator"), l = tt_field(e, "left"), r = tt_field(e, "right");
        if (tt_is(op, "//")) {
            /* x.numel() // N: every dimension but the last */
            TSNode obj, args;
            static const char *const numel[] = {"numel", NULL};
            if (tt_method_call(m, l, numel, &obj, &args)) {
                ri->kind = ROWS_NUMEL;
                ri->divisor = r;
                ri->why = kc_arena_printf(m->arena, "`%s` is every element of `%s` in rows of `%s`", text,
                                          tt_text(m, obj), tt_text(m, r));
            }
            return;
        }
        if (!tt_is(op, "*"))
            return;
        /* batch * seq_len: the first two extents of one tensor */
        TSNode tl_, tr;
        int dl, dr;
        uint32_t nl, nr;
        if (extent(m, l, scope, depth + 1, &tl_, &dl, &nl) && extent(m, r, scope, depth + 1, &tr, &dr, &nr) &&
            tt_text_eq(m, tl_, tt_text(m, tr)) && ((dl == 0 && dr == 1) || (dl == 1 && dr == 0)) &&
            (nl >= 3 || nr >= 3)) {
            ri->kind = ROWS_LEADING2;
            ri->tensor = tl_;
            ri->rank = nl > nr ? nl : nr;
            ri->unpack = unpacked_names(m, l, scope);
            ri->why = kc_arena_printf(m->arena, "`%s` is the two leading dimensions of `%s` (%u-D) multiplied", text,
                                      tt_text(m, tl_), nl > nr ? nl : nr);
        }
        return;
    }
    if (TT_IS(e, call)) {
        /* triton.cdiv(rows, BLOCK_M): a tile of rows per program */
        const char *q = tt_qualify(m, tt_field(e, "function"));
        TSNode first = {0};
        if (q && (!strcmp(q, "triton.cdiv") || !strcmp(q, "triton.language.cdiv")) &&
            tt_positional(tt_field(e, "arguments"), &first, 1) == 2) {
            flat_rows(m, first, scope, depth + 1, ri);
            if (ri->why) {
                ri->why = kc_arena_printf(m->arena, "a tile of rows per program: %s", ri->why);
                ri->tiled = true;
            }
        }
    }
}

/* Does launch argument `e` scale the rows that axis `ri` counts: the row
 * stride of a flattened tensor (x.stride(0) / x.stride(-2) of x.view(-1,
 * N), q.stride(1) for batch * seq_len rows of q) or its row length (N,
 * one of `lens`: the row lengths of the flattened tensors the launch passes;
 * n_heads and head_dim of a (batch, seq, n_heads, head_dim) tensor)? */
static bool row_factor(tt_module *m, TSNode e, TSNode scope, const rows_info *ri, const char *const *lens,
                       uint32_t nlens, int depth, int *part)
{
    e = tt_unparen(e);
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return false;
    TSNode obj, args, first = {0};
    int64_t d;
    static const char *const strides[] = {"stride", NULL};
    if (tt_method_call(m, e, strides, &obj, &args)) {
        if (tt_positional(args, &first, 1) != 1 || !tt_int_literal(m, first, &d))
            return false;
        if (ri->kind == ROWS_LEADING2) {
            /* stride(1) of a tensor of another rank than 4 (the (B, H, K)
             * statistics of attention) is no row of the B * H rows */
            int rk = d == 1 && TT_IS(obj, identifier)
                         ? tt_tensor_rank(m, scope, tt_text(m, obj), ts_node_start_byte(e)) : 0;
            return d == 1 && (rk == 0 || rk == 4);
        }
        if (ri->kind == ROWS_DIM0)
            /* the row stride of the very tensor whose rows the axis counts */
            return d == 0 && same_rows(m, obj, ri->tensor, scope, 0);
        return (d == 0 || d == -2) && flattened(m, obj, scope, 0, NULL);
    }
    if (ri->kind == ROWS_NUMEL)
        return tt_text_eq(m, e, tt_text(m, ri->divisor));
    TSNode t;
    int dim;
    uint32_t targets;
    if (ri->kind == ROWS_LEADING2)
        /* n_heads, head_dim of `batch, seq, n_heads, head_dim = q.shape`: a
         * trailing extent of a tensor whose two leading dimensions are the rows */
    {
        if (!extent(m, e, scope, 0, &t, &dim, &targets))
            return false;
        /* `k.shape[-2]` beside a 4-D `q`: counted from the end, of a tensor
         * taken to have the counted tensor's rank where its own is not known */
        if (dim < 0 && (targets >= 3 || ri->rank >= 3)) {
            targets = targets >= 3 ? targets : ri->rank;
            dim += (int)targets;
        }
        if (targets < 3 || dim < 2)
            return false;
        /* one of two or more trailing extents (1), or the last of them (2):
         * the row is their product */
        *part = targets <= 3 ? 0 : (uint32_t)dim + 1 < targets ? 1 : 2;
        return true;
    }
    if (ri->kind == ROWS_DIM0) {
        /* N of `M, N = x.shape` (two dimensions: N is the row length) */
        if (extent(m, e, scope, 0, &t, &dim, &targets) && dim == 1 && targets == 2 && ri->targets == 2 &&
            same_rows(m, t, ri->tensor, scope, 0))
            return true;
    }
    if (TT_IS(e, identifier)) {
        /* stride_m = x.stride(0), passed by name */
        int elem;
        TSNode r = tt_grid_binding(m, scope, e, &elem);
        if (!ts_node_is_null(r) && elem < 0 &&
            row_factor(m, r, scope, ri, lens, nlens, depth + 1, part))
            return true;
    }
    if (ri->kind != ROWS_FLAT)
        return false;
    /* N of `M, N = x.shape`, x.shape[-1], x.size(1) of a flattened x */
    if (extent(m, e, scope, 0, &t, &dim, &targets) && (dim == -1 || dim == 1) && flattened(m, t, scope, 0, NULL))
        return true;
    /* n_cols of `x = x.view(-1, n_cols)`, x passed to the same launch */
    for (uint32_t i = 0; i < nlens; i++)
        if (tt_text_eq(m, e, lens[i]))
            return true;
    return false;
}

/* The function named like `name` defined before the use in a block that
 * holds it (the launching function's body, an `if` inside it). */
static TSNode local_def(tt_module *m, TSNode name)
{
    TSNode none = {0};
    for (TSNode p = ts_node_parent(name); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (TT_IS(p, function_definition) || TT_IS(p, module))
            break;
        if (!TT_IS(p, block))
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
            TSNode st = ts_node_named_child(p, i);
            if (ts_node_start_byte(st) >= ts_node_start_byte(name))
                break;
            if (TT_IS(st, function_definition) && tt_text_eq(m, tt_field(st, "name"), tt_text(m, name)))
                return st;
        }
    }
    return none;
}

/* What a one-statement function returns (`def grid(meta): return (...)`), or a null node. */
static TSNode returned(TSNode fn)
{
    TSNode body = tt_field(fn, "body"), none = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        if (TT_IS(st, comment))
            continue;
        /* a docstring first */
        if (TT_IS(st, expression_statement) && ts_node_named_child_count(st) == 1 &&
            TT_IS(ts_node_named_child(st, 0), string))
            continue;
        return TT_IS(st, return_statement) && ts_node_named_child_count(st) == 1 ? ts_node_named_child(st, 0) : none;
    }
    return none;
}

/* The grid's axis expressions (a tuple or list literal, through names and
 * `lambda META: (...)`): up to 3 into axes; their count. */
static uint32_t grid_axes(tt_module *m, TSNode g, TSNode scope, int depth, TSNode *axes)
{
    g = tt_unparen(g);
    if (depth > GRID_DEPTH || ts_node_is_null(g))
        return 0;
    if (TT_IS(g, tuple) || TT_IS(g, list)) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < ts_node_named_child_count(g) && n < 3; i++) {
            TSNode a = ts_node_named_child(g, i);
            if (TT_IS(a, comment))
                continue;
            if (TT_IS(a, list_splat))
                return 0;
            axes[n++] = a;
        }
        return n;
    }
    if (TT_IS(g, lambda))
        return grid_axes(m, tt_field(g, "body"), scope, depth + 1, axes);
    if (TT_IS(g, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, g, &elem);
        if (ts_node_is_null(r)) {
            /* def grid(meta): return (...) in the launching function */
            TSNode fn = local_def(m, g);
            return ts_node_is_null(fn) ? 0 : grid_axes(m, returned(fn), scope, depth + 1, axes);
        }
        return elem >= 0 ? 0 : grid_axes(m, r, scope, depth + 1, axes);
    }
    return 0;
}

/* ---- per-sequence states ---- */

/* The factors of one extent of an allocation into dims: `B * H` (the
 * leading dimensions of a tensor flattened, `torch.empty(B * H, S)`) is
 * both B and H. False past `max`. */
static bool push_extent(TSNode d, TSNode *dims, uint32_t max, uint32_t *n)
{
    if (*n == max)
        return false;
    dims[(*n)++] = d;
    return true;
}

static bool push_factors(TSNode d, TSNode *dims, uint32_t max, uint32_t *n, int depth)
{
    d = tt_unparen(d);
    if (TT_IS(d, binary_operator) && tt_is(tt_field(d, "operator"), "*") && depth < GRID_DEPTH)
        return push_factors(tt_field(d, "left"), dims, max, n, depth + 1) &&
               push_factors(tt_field(d, "right"), dims, max, n, depth + 1);
    return push_extent(d, dims, max, n);
}

/* The extents an allocation spells (`torch.zeros(B, H, D)`,
 * `torch.empty((B, H, K, V), dtype=...)`, `x.new_empty(B, H, D)`,
 * `torch.full((B, H), v)`), through names, a conditional whose other
 * value is `None` and element-wise copies (`.float()`): their count (0:
 * not such an allocation, or more than `max`), the nodes into dims (with
 * `split`, a product's factors each as an extent) and the allocation into
 * *made. */
static uint32_t alloc_extents(tt_module *m, TSNode e, TSNode scope, int depth, TSNode *dims, uint32_t max,
                              bool split, TSNode *made)
{
    static const char *const torch_allocs[] = {"empty", "zeros", "ones", "full", "randn", "rand", NULL};
    static const char *const new_allocs[] = {"new_empty", "new_zeros", "new_ones", "new_full", NULL};
    static const char *const copies[] = {"contiguous", "to", "float", "half", "bfloat16", "detach", NULL};
    e = tt_unparen(e);
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return 0;
    if (TT_IS(e, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, e, &elem);
        /* `x = None` in one arm of an `if` and the allocation in the other
         * (`if out: s = torch.empty(...)` / `else: s = None`): the tensor
         * where there is one, as for a conditional expression */
        for (int k = 0; k < 4 && !ts_node_is_null(r) && elem < 0 && TT_IS(tt_unparen(r), none) &&
                        !ts_node_is_null(scope);
             k++)
            r = tt_find_binding(m, scope, tt_text(m, e), tt_use_point(r), &elem);
        return ts_node_is_null(r) || elem >= 0 ? 0 : alloc_extents(m, r, scope, depth + 1, dims, max, split, made);
    }
    if (TT_IS(e, conditional_expression)) {
        TSNode a = tt_unparen(ts_node_named_child(e, 0)), b = tt_unparen(ts_node_named_child(e, 2));
        if (TT_IS(b, none))
            return alloc_extents(m, a, scope, depth + 1, dims, max, split, made);
        return TT_IS(a, none) ? alloc_extents(m, b, scope, depth + 1, dims, max, split, made) : 0;
    }
    TSNode obj, args, first = {0};
    bool fill;
    if (tt_method_call(m, e, torch_allocs, &obj, &args) && TT_IS(obj, identifier) && tt_text_eq(m, obj, "torch"))
        fill = tt_text_eq(m, tt_field(tt_field(e, "function"), "attribute"), "full");
    else if (tt_method_call(m, e, new_allocs, &obj, &args))
        fill = tt_text_eq(m, tt_field(tt_field(e, "function"), "attribute"), "new_full");
    else if (tt_method_call(m, e, copies, &obj, &args))
        return alloc_extents(m, obj, scope, depth + 1, dims, max, split, made);
    else
        return 0;
    uint32_t np = tt_positional(args, &first, 1);
    TSNode list = args;
    if ((np == 1 || fill) && (TT_IS(tt_unparen(first), tuple) || TT_IS(tt_unparen(first), list)))
        list = tt_unparen(first);
    else if (fill || np == 0)
        return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(list); i++) {
        TSNode d = ts_node_named_child(list, i);
        if (TT_IS(d, comment) || TT_IS(d, keyword_argument))
            continue;
        if (TT_IS(d, list_splat) || TT_IS(d, dictionary_splat) ||
            !(split ? push_factors(d, dims, max, &n, 0) : push_extent(tt_unparen(d), dims, max, &n)))
            return 0;
    }
    *made = e;
    return n;
}

#define STATE_MAX_RANK 8

/* Is `e`, a launch argument, a part of the tensor whose two leading
 * dimensions axis `ri` counts: a tensor the launching code makes from
 * those two extents and some of the others, one of them left out
 * (`x.new_empty(B, H, D)` or `torch.zeros(B, H, K, V)` next to a grid of
 * `B * H` programs over a (B, H, T, D) `x`: the state of each sequence,
 * without its length; `torch.empty((B, H, T))`: a statistic per position,
 * such as an attention's log-sum-exp, without the head dimension)? Extents of another tensor count
 * only as its last one (`V = v.shape[-1]`, a feature size), and integer
 * literals as constants. A grid over a tensor's first dimension alone
 * (`M, K = a.shape`) says nothing: its other tensors are outputs of any
 * shape. The reason as text, NULL when not. */
static const char *state_of(tt_module *m, TSNode e, TSNode scope, const rows_info *ri)
{
    if (ri->kind != ROWS_LEADING2 || ri->rank < 3 || ri->rank > STATE_MAX_RANK || ts_node_is_null(ri->tensor))
        return NULL;
    TSNode dims[STATE_MAX_RANK], made = {0};
    uint32_t n = alloc_extents(m, e, scope, 0, dims, ri->rank, true, &made);
    if (n == 0)
        return NULL;
    bool used[STATE_MAX_RANK] = {false};
    kc_strbuf count = {0};
    for (uint32_t i = 0; i < n; i++) {
        TSNode t;
        int dim;
        uint32_t targets;
        int64_t v;
        kc_sb_appendf(&count, "%s%s", i ? "*" : "", tt_text(m, dims[i]));
        if (tt_int_literal(m, tt_unparen(dims[i]), &v))
            continue;
        bool ok = extent(m, dims[i], scope, 0, &t, &dim, &targets);
        if (ok && tt_text_eq(m, t, tt_text(m, ri->tensor))) {
            dim = dim < 0 ? dim + (int)ri->rank : dim;
            ok = dim >= 0 && dim < (int)ri->rank;
            if (ok)
                used[dim] = true;
        } else if (ok)
            ok = dim == -1 || (targets && dim == (int)targets - 1);
        if (!ok) {
            kc_sb_free(&count);
            return NULL;
        }
    }
    uint32_t counted = 2, left_out = KC_NONE;
    for (uint32_t d = 0; d < counted; d++)
        if (!used[d]) {
            kc_sb_free(&count);
            return NULL;
        }
    /* the last extent counts as left out only where the tensor made has
     * fewer dimensions (`(B, H, T)` beside a (B, H, T, D) `q`), not where
     * another feature size stands in for it (`(B, H, T, e)`, e = v.shape[-1]) */
    for (uint32_t d = counted; d < ri->rank && left_out == KC_NONE; d++)
        if (!used[d] && (d + 1 < ri->rank || n < ri->rank))
            left_out = d;
    const char *why = NULL;
    if (left_out != KC_NONE) {
        TSNode name = ts_node_is_null(ri->unpack) ? (TSNode){0} : ts_node_named_child(ri->unpack, left_out);
        const char *dn = TT_IS(name, identifier) ? tt_text(m, name)
                                                 : kc_arena_printf(m->arena, "%s.shape[%u]", tt_text(m, ri->tensor),
                                                                   left_out);
        const char *et = tt_text(m, e);
        why = kc_arena_printf(m->arena, "`%s`%s%s%s (line %u), which has %s elements, the extents of `%s` without `%s`", et,
                              strcmp(et, tt_text(m, made)) ? " = `" : "",
                              strcmp(et, tt_text(m, made)) ? tt_text(m, made) : "",
                              strcmp(et, tt_text(m, made)) ? "`" : "", ts_node_start_point(made).row + 1,
                              kc_sb_str(&count), tt_text(m, ri->tensor), dn);
    }
    kc_sb_free(&count);
    return why;
}

/* Marks the launch's arguments that scale the rows of axis `ax`. */
static void mark_row_factors(tt_module *m, tt_launch *l, TSNode scope, unsigned ax, const rows_info *ri)
{
    TSNode args = tt_field(l->call, "arguments");
    const char *lens[8];
    uint32_t nlens = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args) && nlens < 8; i++) {
        TSNode a = ts_node_named_child(args, i), rl = {0};
        if (TT_IS(a, keyword_argument))
            a = tt_field(a, "value");
        if (!TT_IS(a, comment) && flattened(m, a, scope, 0, &rl) && !ts_node_is_null(rl))
            lens[nlens++] = tt_text(m, rl);
    }
    uint32_t b = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args) && b < l->args.len; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment))
            continue;
        if (TT_IS(a, list_splat) || TT_IS(a, dictionary_splat))
            return; /* the bindings after it may have been dropped: stop matching */
        TSNode v = TT_IS(a, keyword_argument) ? tt_field(a, "value") : a;
        int part = 0;
        if (row_factor(m, v, scope, ri, lens, nlens, 0, &part)) {
            l->args.data[b].row_axes |= (uint8_t)(1u << ax);
            if (part == 1)
                l->args.data[b].row_part_axes |= (uint8_t)(1u << ax);
            else if (part == 2)
                l->args.data[b].row_last_axes |= (uint8_t)(1u << ax);
        }
        const char *state = state_of(m, v, scope, ri);
        if (state) {
            l->args.data[b].state_axes |= (uint8_t)(1u << ax);
            l->args.data[b].state_why = state;
        }
        b++;
    }
}

/* ---- grid limits (KC602) ---- */

/* Is `e` a tensor extent, or a name bound to one: x.shape[i], x.size(i),
 * an element of `B, T, H = x.shape`, len(x) (less or more a constant),
 * x.numel(), either value of a conditional expression? */
static bool is_extent(tt_module *m, TSNode e, TSNode scope, int depth)
{
    e = tt_unparen(e);
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return false;
    TSNode t, obj, args;
    int dim;
    uint32_t targets;
    static const char *const numel[] = {"numel", NULL};
    if (extent(m, e, scope, depth, &t, &dim, &targets) || tt_method_call(m, e, numel, &obj, &args))
        return true;
    if (TT_IS(e, call)) {
        TSNode f = tt_field(e, "function");
        return TT_IS(f, identifier) && tt_text_eq(m, f, "len");
    }
    if (TT_IS(e, binary_operator)) {
        TSNode op = tt_field(e, "operator");
        int64_t v;
        return (tt_is(op, "-") || tt_is(op, "+")) && tt_int_literal(m, tt_field(e, "right"), &v) &&
               is_extent(m, tt_field(e, "left"), scope, depth + 1);
    }
    if (TT_IS(e, conditional_expression))
        return is_extent(m, ts_node_named_child(e, 0), scope, depth + 1) ||
               is_extent(m, ts_node_named_child(e, 2), scope, depth + 1);
    if (TT_IS(e, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, e, &elem);
        return !ts_node_is_null(r) && elem < 0 && is_extent(m, r, scope, depth + 1);
    }
    return false;
}

/* The factors of a product `a * b * c` (through names bound to one): how
 * many are tensor extents, how many are not literals; false when `e` is
 * not a product or something in it clamps or divides it (`min`, `//`). */
static bool product_factors(tt_module *m, TSNode e, TSNode scope, int depth, unsigned *extents, unsigned *runtime,
                            kc_strbuf *names)
{
    e = tt_unparen(e);
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return false;
    if (TT_IS(e, binary_operator) && tt_is(tt_field(e, "operator"), "*")) {
        return product_factors(m, tt_field(e, "left"), scope, depth + 1, extents, runtime, names) &&
               product_factors(m, tt_field(e, "right"), scope, depth + 1, extents, runtime, names);
    }
    if (depth == 0 && TT_IS(e, identifier)) {
        int elem;
        TSNode r = tt_grid_binding(m, scope, e, &elem);
        return !ts_node_is_null(r) && elem < 0 && TT_IS(tt_unparen(r), binary_operator) &&
               product_factors(m, r, scope, depth, extents, runtime, names);
    }
    int64_t v;
    if (tt_int_literal(m, e, &v))
        return true;
    const char *t = tt_text(m, e);
    if (strstr(t, "min(") || strstr(t, "//") || strstr(t, "%"))
        return false;
    (*runtime)++;
    if (is_extent(m, e, scope, 0)) {
        (*extents)++;
        kc_sb_appendf(names, "%s`%s`", names->len ? ", " : "", t);
    }
    return true;
}

typedef struct assert_scan {
    tt_module *m;
    const char *names[4]; /* the left sides asserted (`B`, `x.dim()`) */
    unsigned nnames;
    int64_t value;         /* the value they are asserted equal to */
    uint32_t before;
    bool found;
} assert_scan;

static bool visit_assert(TSNode n, void *ud)
{
    assert_scan *as = ud;
    if (as->found || ts_node_start_byte(n) >= as->before)
        return false;
    if (TT_IS(n, function_definition) || TT_IS(n, lambda))
        return false; /* another function's asserts */
    if (!TT_IS(n, assert_statement))
        return true;
    TSNode c = tt_unparen(ts_node_named_child(n, 0));
    uint32_t nc = TT_IS(c, comparison_operator) ? ts_node_named_child_count(c) : 0;
    if (nc < 2)
        return false;
    /* `NAME == v`, and a chain of equalities `NK == NV == 1`: every
     * operand equals the literal at its end (only `==` between them) */
    TSNode r = ts_node_named_child(c, nc - 1);
    int64_t v;
    if (!tt_int_literal(as->m, r, &v) || v != as->value)
        return false;
    for (uint32_t i = 0; i + 1 < ts_node_child_count(c); i++) {
        TSNode o = ts_node_child(c, i);
        if (!ts_node_is_named(o) && strcmp(ts_node_type(o), "=="))
            return false;
    }
    for (uint32_t j = 0; j + 1 < nc; j++)
        for (unsigned i = 0; i < as->nnames && !as->found; i++)
            as->found = tt_text_eq(as->m, ts_node_named_child(c, j), as->names[i]);
    return false;
}

/* `assert NAME == 1` in the launching function before the launch: the
 * axis has one program. */
static bool asserted_one(tt_module *m, TSNode scope, TSNode e, uint32_t before)
{
    e = tt_unparen(e);
    if (!TT_IS(e, identifier) || ts_node_is_null(scope))
        return false;
    assert_scan as = {.m = m, .names = {tt_text(m, e)}, .nnames = 1, .value = 1, .before = before};
    tt_walk(tt_field(scope, "body"), visit_assert, &as);
    return as.found;
}

/* `assert x.dim() == 2` (`x.ndim`, `len(x.shape)`, `x.ndimension()`) in
 * the launching function before the launch: x is a matrix. */
static bool asserted_matrix(tt_module *m, TSNode scope, TSNode tensor, uint32_t before)
{
    if (!TT_IS(tensor, identifier) || ts_node_is_null(scope))
        return false;
    const char *t = tt_text(m, tensor);
    assert_scan as = {.m = m,
                      .names = {kc_arena_printf(m->arena, "%s.dim()", t), kc_arena_printf(m->arena, "%s.ndim", t),
                                kc_arena_printf(m->arena, "len(%s.shape)", t),
                                kc_arena_printf(m->arena, "%s.ndimension()", t)},
                      .nnames = 4,
                      .value = 2,
                      .before = before};
    tt_walk(tt_field(scope, "body"), visit_assert, &as);
    return as.found;
}

/* The value the name `n` was last bound to: the whole right-hand side, or
 * its element for a tuple unpacked (`NK, NV = cdiv(K, BK), cdiv(V, BV)`);
 * a null node when not known. */
static TSNode bound_value(tt_module *m, TSNode scope, TSNode n)
{
    int elem;
    TSNode r = tt_grid_binding(m, scope, n, &elem);
    if (ts_node_is_null(r) || elem < 0)
        return r;
    r = tt_unparen(r);
    if (!TT_IS(r, expression_list) && !TT_IS(r, tuple))
        return (TSNode){0};
    int k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(r); i++) {
        TSNode x = ts_node_named_child(r, i);
        if (TT_IS(x, comment))
            continue;
        if (TT_IS(x, list_splat))
            return (TSNode){0};
        if (k++ == elem)
            return x;
    }
    return (TSNode){0};
}

/* Does `b` (through its binding) cover `a`: triton.next_power_of_2(a), or
 * max() of it and other values? */
static bool covers(tt_module *m, TSNode scope, TSNode b, const char *a, int depth)
{
    b = tt_unparen(b);
    if (depth > GRID_DEPTH || ts_node_is_null(b))
        return false;
    /* the size itself: `BK = K` */
    if (tt_text_eq(m, b, a))
        return true;
    if (TT_IS(b, identifier)) {
        TSNode r = bound_value(m, scope, b);
        return !ts_node_is_null(r) && covers(m, scope, r, a, depth + 1);
    }
    if (!TT_IS(b, call))
        return false;
    TSNode f = tt_field(b, "function"), args = tt_field(b, "arguments");
    const char *q = tt_qualify(m, f);
    if (q && !strcmp(q, "triton.next_power_of_2")) {
        TSNode first = {0};
        return tt_positional(args, &first, 1) == 1 && tt_text_eq(m, tt_unparen(first), a);
    }
    if (TT_IS(f, identifier) && tt_text_eq(m, f, "max")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(args); i++)
            if (covers(m, scope, ts_node_named_child(args, i), a, depth + 1))
                return true;
    }
    return false;
}

/* `triton.cdiv(X, B)` (through a name) with B covering X: one. */
static bool cdiv_of_cover(tt_module *m, TSNode scope, TSNode e, int depth)
{
    e = tt_unparen(e);
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return false;
    if (TT_IS(e, identifier)) {
        TSNode r = bound_value(m, scope, e);
        return !ts_node_is_null(r) && cdiv_of_cover(m, scope, r, depth + 1);
    }
    if (!TT_IS(e, call))
        return false;
    const char *q = tt_qualify(m, tt_field(e, "function"));
    TSNode args = tt_field(e, "arguments"), first = {0};
    if (!q || (strcmp(q, "triton.cdiv") && strcmp(q, "triton.language.cdiv")) || tt_positional(args, &first, 1) != 2)
        return false;
    TSNode second = ts_node_named_child(args, 1);
    return covers(m, scope, second, tt_text(m, tt_unparen(first)), 0);
}

/* Is the axis written as a name that says it counts a batch (`B`, `bs`,
 * `batch_size`)? Such a matrix's rows are samples, not tokens. */
static bool batch_name(const char *text)
{
    static const char *const names[] = {"b", "bs", "bsz", "batch", "batch_size", "batchsize", "n_batch", "nbatch",
                                        "num_batch", "num_batches", NULL};
    for (unsigned i = 0; names[i]; i++)
        if (!strcasecmp(text, names[i]))
            return true;
    return false;
}

/* `NK * NV` where each factor is one program: a literal 1, a cdiv by a
 * block that covers its size, or asserted to be 1 before the launch. */
static bool product_of_ones(tt_module *m, TSNode scope, TSNode e, uint32_t before, int depth)
{
    e = tt_unparen(e);
    int64_t v;
    if (depth > GRID_DEPTH || ts_node_is_null(e))
        return false;
    if (TT_IS(e, binary_operator) && !strcmp(tt_op_of(e), "*"))
        return product_of_ones(m, scope, tt_field(e, "left"), before, depth + 1) &&
               product_of_ones(m, scope, tt_field(e, "right"), before, depth + 1);
    return depth > 0 && ((tt_int_literal(m, e, &v) && v == 1) || cdiv_of_cover(m, scope, e, 0) ||
                         asserted_one(m, scope, e, before));
}

static void scan_grid_limit(tt_module *m, tt_launch *l, TSNode scope, unsigned ax, TSNode e, const rows_info *ri)
{
    kc_grid_axis *g = &l->grid[ax];
    g->span = tt_span(e);
    g->text = tt_text(m, e);
    int64_t v;
    if (tt_int_literal(m, tt_unparen(e), &v)) {
        g->hazard = KC_GRID_CONST;
        g->value = v;
        return;
    }
    if (cdiv_of_cover(m, scope, e, 0)) {
        g->hazard = KC_GRID_CONST;
        g->value = 1;
        g->why = kc_arena_printf(m->arena, "`%s` divides by a block that covers the size", g->text);
        return;
    }
    if (asserted_one(m, scope, e, ts_node_start_byte(l->call))) {
        g->hazard = KC_GRID_CONST;
        g->value = 1;
        g->why = kc_arena_printf(m->arena, "`assert %s == 1` before the launch", g->text);
        return;
    }
    if (product_of_ones(m, scope, e, ts_node_start_byte(l->call), 0)) {
        g->hazard = KC_GRID_CONST;
        g->value = 1;
        g->why = kc_arena_printf(m->arena, "each factor of `%s` is 1", g->text);
        return;
    }
    if (strstr(g->text, "min(") || ax == 0)
        return;
    /* One program per row of a tensor flattened into rows (x.view(-1, N),
     * x.numel() // N): the token count (a tile of rows per program needs
     * 65535 tiles, far more rows). Two leading extents multiplied
     * (`B * T`, but as often `batch * heads`) are a product below. */
    if (ri->why && !ri->tiled && (ri->kind == ROWS_FLAT || ri->kind == ROWS_NUMEL)) {
        g->hazard = KC_GRID_ROWS;
        g->why = ri->why;
        return;
    }
    /* One program per row of a tensor's first dimension: a matrix's rows
     * (`M, K = x.shape`, `assert x.dim() == 2`: tokens, a vocabulary),
     * else the first dimension of a tensor of unknown rank (a batch as
     * often as rows); of a tensor of 3 or more dimensions it is a batch. */
    if (ri->why && !ri->tiled && ri->kind == ROWS_DIM0 && ri->rank < 3) {
        g->hazard = KC_GRID_FIRST_DIM;
        g->why = ri->why;
        g->matrix = (ri->rank == 2 || asserted_matrix(m, scope, ri->tensor, ts_node_start_byte(l->call))) &&
                    !batch_name(g->text);
        return;
    }
    if (ri->why && ri->tiled)
        return;
    unsigned extents = 0, runtime = 0;
    kc_strbuf names = {0};
    if (product_factors(m, e, scope, 0, &extents, &runtime, &names) && runtime >= 2 && extents >= 2) {
        g->hazard = KC_GRID_PRODUCT;
        g->why = kc_arena_printf(m->arena, "%s %s tensor extents", kc_sb_str(&names), extents > 2 ? "are" : "are both");
    }
    kc_sb_free(&names);
}

/* The strides the launch passes of tensors it allocates padded along the
 * strided dimension (`tmp.stride(2)` of `torch.empty((B, H, L + 256))`):
 * tt_binding.pad_base, pad_extra. */
static void scan_padding(tt_module *m, tt_launch *l, TSNode scope)
{
    for (uint32_t i = 0; i < l->args.len; i++) {
        tt_binding *b = &l->args.data[i];
        TSNode v = tt_unparen(b->value), obj, args;
        static const char *const stride[] = {"stride", NULL};
        if (b->v.kind != TT_HOST_STRIDE || ts_node_is_null(v) || !tt_method_call(m, v, stride, &obj, &args))
            continue;
        TSNode dims[8], made = {0};
        uint32_t n = alloc_extents(m, obj, scope, 0, dims, 8, false, &made);
        bool product = false; /* a flattened extent among them (`B * H`): not read */
        for (uint32_t k = 0; k < n; k++)
            product |= TT_IS(dims[k], binary_operator) && tt_is(tt_field(dims[k], "operator"), "*");
        if (!n || product)
            continue;
        int64_t d = b->v.value < 0 ? (int64_t)n + b->v.value : b->v.value;
        if (d < 0 || d >= (int64_t)n)
            continue;
        TSNode e = tt_unparen(dims[d]);
        if (!TT_IS(e, binary_operator) || !tt_is(tt_field(e, "operator"), "+"))
            continue;
        TSNode left = tt_field(e, "left"), right = tt_field(e, "right");
        int64_t cl, cr;
        bool il = tt_int_literal(m, left, &cl), ir = tt_int_literal(m, right, &cr);
        if (il == ir || (ir ? cr : cl) <= 0)
            continue; /* `X + c` or `c + X` with one integer literal c > 0 */
        b->pad_base = tt_text(m, tt_unparen(ir ? left : right));
        b->pad_extra = ir ? cr : cl;
    }
}

void tt_scan_grid(tt_module *m, tt_launch *l, TSNode scope)
{
    TSNode f = tt_field(l->call, "function");
    if (!TT_IS(f, subscript))
        return;
    TSNode axes[3];
    uint32_t n = grid_axes(m, tt_field(f, "subscript"), scope, 0, axes);
    for (uint32_t i = 0; i < n; i++) {
        rows_info ri;
        flat_rows(m, axes[i], scope, 0, &ri);
        l->grid_rows[i] = ri.why;
        if (ri.kind == ROWS_DIM0)
            l->grid_rows_dim0 |= (uint8_t)(1u << i);
        if (ri.why)
            mark_row_factors(m, l, scope, i, &ri);
        scan_grid_limit(m, l, scope, i, axes[i], &ri);
        tt_scan_axis_cover(m, l, &l->grid[i], scope, axes[i]);
    }
    scan_padding(m, l, scope);
}
