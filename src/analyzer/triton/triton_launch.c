/* triton_launch.c — launches as the host code writes them: the values
 * their arguments are known to have on the host side (integer constants,
 * tensor extents, strides, Python floats), followed through assignments,
 * the launching function's parameters and, for floats, its callers in the
 * file. Above triton_walk.c, below triton_grid.c. */
#include "triton_internal.h"
#include "kc_pyscan.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool method_call(tt_module *m, TSNode n, const char *method, TSNode *object, TSNode *args)
{
    const char *const one[] = {method, NULL};
    return tt_method_call(m, n, one, object, args);
}

/* ---- Python floats on the host side (KC501) ---- */

static tt_host_value host_value(tt_module *m, TSNode expr, TSNode scope, int depth);

/* `min(next_power_of_2(E), 32768)`: at least the smaller of E and the
 * cap; `max(next_power_of_2(E), 16)`: at least E. */
static tt_host_value host_value_minmax(tt_module *m, tt_host_value v, bool is_min, TSNode a, uint32_t na, TSNode scope,
                                       int depth)
{
    if (is_min) {
        if (na != 2)
            return v;
        tt_host_value xv[2];
        int64_t cap = 0;
        for (uint32_t i = 0; i < 2; i++) {
            TSNode x = ts_node_named_child(a, i);
            if (TT_IS(x, keyword_argument) || TT_IS(x, list_splat) || TT_IS(x, comment))
                return v;
            xv[i] = host_value(m, x, scope, depth + 1);
            int64_t lit;
            if (tt_int_literal(m, tt_unparen(x), &lit) && lit > 0)
                cap = lit;
        }
        const char *cov = xv[0].covers ? xv[0].covers : xv[1].covers;
        if (cov && cap > 0) {
            v.covers = cov;
            v.covers_cap = cap;
        }
        return v;
    }
    for (uint32_t i = 0; i < na; i++) {
        TSNode x = ts_node_named_child(a, i);
        if (TT_IS(x, comment))
            continue;
        if (TT_IS(x, keyword_argument) || TT_IS(x, list_splat))
            return v;
        tt_host_value xv = host_value(m, x, scope, depth + 1);
        if (xv.covers && !v.covers)
            v.covers = xv.covers;
    }
    return v;
}

static bool float_literal(TSNode n)
{
    n = tt_unparen(n);
    if (TT_IS(n, unary_operator))
        n = tt_unparen(tt_field(n, "argument"));
    return TT_IS(n, float);
}

/* A `float` annotation (float, Optional[float], float | None), not a
 * dtype (torch.float32). */
static bool float_annotation(tt_module *m, TSNode t)
{
    if (ts_node_is_null(t))
        return false;
    const char *s = tt_text(m, t);
    for (const char *p = strstr(s, "float"); p; p = strstr(p + 1, "float")) {
        bool before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool after = isalnum((unsigned char)p[5]) || p[5] == '_';
        if (!before && !after)
            return true;
    }
    return false;
}

static bool collect_call(TSNode n, void *ud)
{
    tt_module *m = ud;
    if (!TT_IS(n, call))
        return true;
    TSNode f = tt_field(n, "function");
    if (TT_IS(f, identifier))
        kc_vec_push(&m->host_calls, ((tt_named_call){tt_text(m, f), false, n}));
    else if (TT_IS(f, attribute) && TT_IS(tt_field(f, "attribute"), identifier))
        kc_vec_push(&m->host_calls, ((tt_named_call){tt_text(m, tt_field(f, "attribute")), true, n}));
    return true;
}

static int cmp_named_call(const void *a, const void *b)
{
    const tt_named_call *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return ts_node_start_byte(x->call) < ts_node_start_byte(y->call) ? -1
           : ts_node_start_byte(x->call) > ts_node_start_byte(y->call) ? 1 : 0;
}

/* Parameter `name` of function `fn`: its position as written, its
 * annotation and its default (null nodes when absent). */
static bool fn_param(tt_module *m, TSNode fn, const char *name, uint32_t *pos, TSNode *type, TSNode *def)
{
    TSNode params = tt_field(fn, "parameters");
    uint32_t np = ts_node_named_child_count(params), at = 0;
    for (uint32_t i = 0; i < np; i++) {
        TSNode p = ts_node_named_child(params, i), namen, t, d;
        if (TT_IS(p, comment))
            continue;
        tt_param_parts(p, &namen, &t, &d);
        if (TT_IS(namen, identifier) && tt_text_eq(m, namen, name)) {
            *pos = at;
            *type = t;
            *def = d;
            return true;
        }
        at++;
    }
    return false;
}

/* Calls of function `fn` in the file (by name; through an object for a
 * method): into `out`, at most `max`. */
/* The module's named calls, sorted by name (built on first use). */
static void build_host_calls(tt_module *m)
{
    if (!m->host_calls_built) {
        m->host_calls_built = true;
        tt_walk(m->root, collect_call, m);
        if (m->host_calls.len)
            qsort(m->host_calls.data, m->host_calls.len, sizeof *m->host_calls.data, cmp_named_call);
    }
}

static uint32_t calls_of(tt_module *m, TSNode fn, TSNode *out, uint32_t max)
{
    TSNode fname = tt_field(fn, "name");
    if (!TT_IS(fname, identifier))
        return 0;
    build_host_calls(m);
    bool method = TT_IS(ts_node_parent(ts_node_parent(fn)), class_definition);
    uint32_t n = 0;
    if (m->caller_budget == 0)
        return 0;
    m->caller_budget--;
    const char *name = tt_text(m, fname);
    uint32_t lo = 0, hi = m->host_calls.len;
    while (lo < hi) { /* the first call of `name` */
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->host_calls.data[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < m->host_calls.len && n < max && !strcmp(m->host_calls.data[i].name, name); i++)
        if (m->host_calls.data[i].method == method)
            out[n++] = m->host_calls.data[i].call;
    return n;
}

/* The calls `cls.apply(...)` of a torch.autograd.Function in the file (at
 * most max). */
static uint32_t apply_calls(tt_module *m, const char *cls, TSNode *out, uint32_t max)
{
    build_host_calls(m);
    uint32_t lo = 0, hi = m->host_calls.len, n = 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->host_calls.data[mid].name, "apply") < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < m->host_calls.len && n < max && !strcmp(m->host_calls.data[i].name, "apply"); i++) {
        TSNode f = tt_field(m->host_calls.data[i].call, "function");
        if (TT_IS(f, attribute) && tt_text_eq(m, tt_field(f, "object"), cls))
            out[n++] = m->host_calls.data[i].call;
    }
    return n;
}

/* What the calls of `fn` in the file pass for its parameter `name` at
 * `pos`: the first Python float among them. */
static tt_host_value callers_pass(tt_module *m, TSNode fn, const char *name, uint32_t pos, int depth)
{
    tt_host_value none = {0};
    /* A method is called through an object: `self` is not an argument. */
    uint32_t shift = TT_IS(ts_node_parent(ts_node_parent(fn)), class_definition) ? 1 : 0;
    TSNode calls[64];
    uint32_t ncalls = calls_of(m, fn, calls, 64);
    for (uint32_t i = 0; i < ncalls && pos >= shift; i++) {
        TSNode call = calls[i];
        TSNode args = tt_field(call, "arguments"), arg = {0};
        uint32_t n = ts_node_named_child_count(args), at = 0;
        for (uint32_t j = 0; j < n && ts_node_is_null(arg); j++) {
            TSNode a = ts_node_named_child(args, j);
            if (TT_IS(a, keyword_argument)) {
                if (tt_text_eq(m, tt_field(a, "name"), name))
                    arg = tt_field(a, "value");
            } else if (TT_IS(a, list_splat) || TT_IS(a, dictionary_splat)) {
                break;
            } else if (!TT_IS(a, comment) && at++ == pos - shift) {
                arg = a;
            }
        }
        if (ts_node_is_null(arg))
            continue;
        tt_host_value v = host_value(m, arg, tt_enclosing_function(call), depth + 1);
        if (v.kind == TT_HOST_FLOAT) {
            unsigned line = ts_node_start_point(call).row + 1;
            v.origin = v.origin ? kc_arena_printf(m->arena, "%s, passed by the call on line %u", v.origin, line)
                                : kc_arena_printf(m->arena, "`%s` at the call on line %u", v.text, line);
            return v;
        }
    }
    return none;
}

unsigned tt_decorator_registers(tt_module *m, const char *name, const char **where)
{
    *where = NULL;
    unsigned r = kc_py_def_registers(m->src->text, m->src->len, name);
    if (r)
        return r;
    for (uint32_t i = 0; i < m->aliases.len; i++) {
        const tt_alias *a = &m->aliases.data[i];
        if (!a->from || !a->name || strcmp(a->local, name) != 0)
            continue;
        for (uint32_t p = 0; m->peers && p < m->peers->n && !r; p++) {
            const char *path = m->peers->paths[p];
            if (!tt_path_is_module(path, a->from))
                continue;
            char *buf = NULL;
            size_t cap = 0, len = 0;
            if (kc_read_regular(path, m->max_file_size, &buf, &cap, &len, NULL))
                r = kc_py_def_registers(buf, len, a->name);
            free(buf);
            if (r)
                *where = kc_arena_strdup(m->arena, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
        }
        break;
    }
    return r;
}

enum { CTX_UNKNOWN = 0, CTX_TRACED, CTX_EAGER };

/* Does torch.compile trace function `fn` when it runs: a method of a
 * torch.autograd.Function or an nn.Module's forward, a function compiled
 * or registered with triton_op (traced), one under torch.compiler.disable
 * or registered as a custom_op (eager), or called only from such code in
 * the file. */
static int trace_context(tt_module *m, TSNode fn, int depth, const char **why)
{
    if (ts_node_is_null(fn) || depth > 4)
        return CTX_UNKNOWN;
    const char *name = tt_text(m, tt_field(fn, "name"));
    TSNode dd = ts_node_parent(fn);
    for (uint32_t i = 0; TT_IS(dd, decorated_definition) && i < ts_node_named_child_count(dd); i++) {
        TSNode dec = ts_node_named_child(dd, i);
        if (!TT_IS(dec, decorator))
            continue;
        const char *t = tt_text(m, dec);
        if (strstr(t, "compiler.disable") || strstr(t, "dynamo.disable") || strstr(t, "custom_op")) {
            *why = kc_arena_printf(m->arena, "`%s` is decorated `%s`", name, t);
            return CTX_EAGER;
        }
        if (strstr(t, "triton_op") || strstr(t, "torch.compile")) {
            *why = kc_arena_printf(m->arena, "`%s` is decorated `%s`", name, t);
            return CTX_TRACED;
        }
        /* a decorator of the project's own that registers the function */
        TSNode e = ts_node_named_child_count(dec) ? tt_unparen(ts_node_named_child(dec, 0)) : dec;
        if (TT_IS(e, call))
            e = tt_field(e, "function");
        const char *where = NULL;
        unsigned reg = TT_IS(e, identifier) ? tt_decorator_registers(m, tt_text(m, e), &where) : 0;
        if (reg == KC_PY_REG_CUSTOM_OP || reg == KC_PY_REG_TRITON_OP) {
            *why = kc_arena_printf(m->arena, "`%s` is decorated `%s`, which registers it with %s (%s%s)", name,
                                   tt_one_line(m->arena, t, 80),
                                   reg == KC_PY_REG_CUSTOM_OP ? "torch.library.custom_op" : "triton_op",
                                   where ? "in " : "its definition in this file", where ? where : "");
            return reg == KC_PY_REG_CUSTOM_OP ? CTX_EAGER : CTX_TRACED;
        }
        if (reg)
            return CTX_UNKNOWN; /* it may register either way */
    }
    TSNode cls = ts_node_parent(ts_node_parent(TT_IS(dd, decorated_definition) ? dd : fn));
    if (TT_IS(cls, class_definition)) {
        TSNode sup = tt_field(cls, "superclasses");
        const char *st = ts_node_is_null(sup) ? "" : tt_text(m, sup);
        const char *cname = tt_text(m, tt_field(cls, "name"));
        if (strstr(st, "autograd.Function") || !strcmp(st, "(Function)")) {
            /* traced where it is applied, unless the file applies it only
             * in code torch.compile does not trace */
            TSNode calls[16];
            uint32_t n = apply_calls(m, cname, calls, 16), eager = 0;
            const char *ewhy = NULL;
            for (uint32_t i = 0; i < n; i++) {
                const char *w = NULL;
                if (trace_context(m, tt_enclosing_function(calls[i]), depth + 1, &w) == CTX_EAGER) {
                    eager++;
                    ewhy = w;
                }
            }
            if (n && eager == n) {
                *why = kc_arena_printf(m->arena, "`%s.apply`, called only from %s", cname, ewhy);
                return CTX_EAGER;
            }
            *why = kc_arena_printf(m->arena, "`%s.%s` (a torch.autograd.Function)", cname, name);
            return CTX_TRACED;
        }
        if ((strstr(st, "nn.Module") || !strcmp(st, "(Module)")) && !strcmp(name, "forward")) {
            *why = kc_arena_printf(m->arena, "`%s.forward` (an nn.Module)", cname);
            return CTX_TRACED;
        }
    }
    TSNode calls[16];
    uint32_t n = calls_of(m, fn, calls, 16), eager = 0;
    const char *ewhy = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const char *w = NULL;
        TSNode caller = tt_enclosing_function(calls[i]);
        int r = trace_context(m, caller, depth + 1, &w);
        if (r == CTX_TRACED) {
            *why = kc_arena_printf(m->arena, "`%s`, called by %s", name, w);
            return CTX_TRACED;
        }
        if (r == CTX_EAGER) {
            eager++;
            ewhy = w;
        }
    }
    if (n && eager == n) {
        *why = kc_arena_printf(m->arena, "`%s`, called only from %s", name, ewhy);
        return CTX_EAGER;
    }
    return CTX_UNKNOWN;
}

/* A parameter `name` of the launching function `scope` that is a Python
 * float: annotated `float`, defaulting to a float, or passed one by a
 * call in the file. */
static bool param_float(tt_module *m, TSNode scope, const char *name, int depth, tt_host_value *v)
{
    uint32_t pos;
    TSNode type, def;
    if (ts_node_is_null(scope) || !fn_param(m, scope, name, &pos, &type, &def))
        return false;
    const char *fn = tt_text(m, tt_field(scope, "name"));
    if (float_annotation(m, type) || (!ts_node_is_null(def) && float_literal(def))) {
        v->kind = TT_HOST_FLOAT;
        v->origin = kc_arena_printf(m->arena, "the parameter `%s` of `%s`",
                                    tt_text(m, ts_node_parent(ts_node_is_null(def) ? type : def)), fn);
        return true;
    }
    tt_host_value c = callers_pass(m, scope, name, pos, depth);
    if (c.kind != TT_HOST_FLOAT)
        return false;
    v->kind = TT_HOST_FLOAT;
    v->origin = c.origin;
    return true;
}

/* The text of a string literal without its quotes and spaces, appended
 * to buf (of `cap` bytes, one kept for a separator and one for the end). */
static size_t append_unquoted(char *buf, size_t bl, size_t cap, const char *t)
{
    for (; *t && bl + 2 < cap; t++)
        if (*t != '"' && *t != '\'' && *t != ' ')
            buf[bl++] = *t;
    return bl;
}

/* The names a `pytest.mark.parametrize` gives values, as its first
 * argument spells them ("M, N" or ["M", "N"]): the position of `name`
 * among them and how many there are, or false. */
static bool parametrize_position(tt_module *m, TSNode names, const char *name, uint32_t *pos, uint32_t *count)
{
    char buf[512];
    size_t bl = 0;
    names = tt_unparen(names);
    if (TT_IS(names, string)) {
        bl = append_unquoted(buf, bl, sizeof buf, tt_text(m, names));
    } else if (TT_IS(names, list) || TT_IS(names, tuple)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(names); i++) {
            TSNode e = ts_node_named_child(names, i);
            if (!TT_IS(e, string))
                return false;
            bl = append_unquoted(buf, bl, sizeof buf, tt_text(m, e));
            buf[bl++] = ',';
        }
    } else {
        return false;
    }
    buf[bl] = 0;
    uint32_t at = 0;
    bool found = false;
    for (char *tok = buf, *end; tok; tok = end ? end + 1 : NULL, at++) {
        end = strchr(tok, ',');
        if (end)
            *end = 0;
        if (!*tok && !end)
            break;
        if (!strcmp(tok, name)) {
            *pos = at;
            found = true;
        }
    }
    *count = at;
    return found;
}

/* A parameter `name` of a test function `scope` that pytest parametrizes
 * with integer literals only (`@pytest.mark.parametrize("N", [512, 1024])`,
 * `("M, N", [(64, 128), pytest.param(32, 64, marks=...)])`): every value
 * a launch in it may pass. False where any value is not a literal. */
static bool param_parametrized(tt_module *m, TSNode scope, const char *name, tt_host_value *v)
{
    uint32_t pos;
    TSNode type, def;
    if (ts_node_is_null(scope) || !fn_param(m, scope, name, &pos, &type, &def))
        return false;
    TSNode dd = ts_node_parent(scope);
    if (!TT_IS(dd, decorated_definition))
        return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(dd); i++) {
        TSNode dec = ts_node_named_child(dd, i);
        if (!TT_IS(dec, decorator) || !ts_node_named_child_count(dec))
            continue;
        TSNode call = ts_node_named_child(dec, 0);
        if (!TT_IS(call, call))
            continue;
        const char *f = tt_text(m, tt_field(call, "function"));
        size_t fl = strlen(f);
        TSNode args = tt_field(call, "arguments");
        uint32_t at, count;
        static const char suffix[] = "mark.parametrize";
        if (fl < sizeof suffix - 1 || strcmp(f + fl - (sizeof suffix - 1), suffix) != 0 || ts_node_named_child_count(args) < 2 ||
            !parametrize_position(m, ts_node_named_child(args, 0), name, &at, &count))
            continue;
        TSNode list = tt_unparen(ts_node_named_child(args, 1));
        uint32_t n = ts_node_named_child_count(list);
        if (!(TT_IS(list, list) || TT_IS(list, tuple)) || n == 0 || n > 256)
            return false;
        int64_t *vals = kc_arena_alloc(m->arena, n * sizeof *vals);
        for (uint32_t j = 0; j < n; j++) {
            TSNode e = tt_unparen(ts_node_named_child(list, j)), val = e;
            if (TT_IS(e, call) && tt_text_eq(m, tt_field(e, "function"), "pytest.param"))
                e = tt_field(e, "arguments");
            if (count > 1 || !TT_IS(val, integer)) {
                if (!(TT_IS(e, tuple) || TT_IS(e, list) || TT_IS(e, argument_list)) ||
                    ts_node_named_child_count(e) <= (count > 1 ? at : 0))
                    return false;
                val = ts_node_named_child(e, count > 1 ? at : 0);
            }
            if (!tt_int_literal(m, val, &vals[j]))
                return false;
        }
        v->kind = TT_HOST_INTS;
        v->values = vals;
        v->nvalues = n;
        v->origin = kc_arena_printf(m->arena, "the `pytest.mark.parametrize` of `%s` on line %u",
                                    tt_text(m, tt_field(scope, "name")), ts_node_start_point(dec).row + 1);
        return true;
    }
    return false;
}

/* Python floats that are not names: float(x), math.sqrt(d), x / y, an
 * operation on a float, `a if c else 1e-6`. */
static bool expr_float(tt_module *m, TSNode expr, TSNode scope, int depth)
{
    if (float_literal(expr))
        return true;
    if (TT_IS(expr, call)) {
        TSNode f = tt_field(expr, "function");
        const char *q = tt_qualify(m, f);
        if (TT_IS(f, identifier) && tt_text_eq(m, f, "float"))
            return true;
        static const char *const ints[] = {"ceil", "floor", "trunc", "gcd", "lcm", "isqrt", "comb", "perm",
                                           "factorial", "prod", NULL};
        if (q && !strncmp(q, "math.", 5)) {
            for (unsigned i = 0; ints[i]; i++)
                if (!strcmp(q + 5, ints[i]))
                    return false;
            return true;
        }
        return false;
    }
    if (TT_IS(expr, binary_operator)) {
        TSNode op = tt_field(expr, "operator"), l = tt_field(expr, "left"), r = tt_field(expr, "right");
        if (tt_is(op, "/"))
            return true;
        if (tt_is(op, "**") && (float_literal(r) || TT_IS(tt_unparen(r), unary_operator)))
            return true;
        if (!tt_is(op, "+") && !tt_is(op, "-") && !tt_is(op, "*") && !tt_is(op, "%") && !tt_is(op, "//") &&
            !tt_is(op, "**"))
            return false;
        return host_value(m, l, scope, depth + 1).kind == TT_HOST_FLOAT ||
               host_value(m, r, scope, depth + 1).kind == TT_HOST_FLOAT;
    }
    if (TT_IS(expr, conditional_expression) && ts_node_named_child_count(expr) == 3) {
        bool fl = false, in = false;
        for (uint32_t i = 0; i < 3; i += 2) {
            tt_host_kind k = host_value(m, ts_node_named_child(expr, i), scope, depth + 1).kind;
            fl |= k == TT_HOST_FLOAT;
            in |= k == TT_HOST_INT || k == TT_HOST_SHAPE;
        }
        return fl && !in;
    }
    return false;
}

static tt_host_value host_value(tt_module *m, TSNode expr, TSNode scope, int depth)
{
    tt_host_value v = {0};
    v.text = tt_text(m, expr);
    if (depth > TT_HOST_DEPTH || ts_node_is_null(expr))
        return v;
    expr = tt_unparen(expr);
    int64_t iv;
    TSNode obj, args;
    if (tt_int_literal(m, expr, &iv)) {
        v.kind = TT_HOST_INT;
        v.value = iv;
    } else if (expr_float(m, expr, scope, depth)) {
        v.kind = TT_HOST_FLOAT;
    } else if (TT_IS(expr, identifier)) {
        const char *name = tt_text(m, expr);
        TSNode r = {0};
        int elem = -1;
        if (!ts_node_is_null(scope))
            r = tt_find_binding(m, scope, name, ts_node_start_byte(expr), &elem);
        if (ts_node_is_null(r))
            r = tt_find_binding(m, m->root, name, ts_node_start_byte(expr), &elem);
        if (!ts_node_is_null(r) && elem >= 0) {
            /* M, N = x.shape  /  M, N = x.size() */
            TSNode rr = tt_unparen(r), o2, a2;
            if (TT_IS(rr, attribute) && tt_text_eq(m, tt_field(rr, "attribute"), "shape")) {
                v.kind = TT_HOST_SHAPE;
                v.tensor = tt_text(m, tt_field(rr, "object"));
                v.origin = kc_arena_printf(m->arena, "%s.shape[%d]", v.tensor, elem);
            } else if (method_call(m, rr, "size", &o2, &a2)) {
                v.kind = TT_HOST_SHAPE;
                v.tensor = tt_text(m, o2);
                v.origin = kc_arena_printf(m->arena, "%s.size(%d)", v.tensor, elem);
            }
            return v;
        }
        if (!ts_node_is_null(r)) {
            tt_host_value inner = host_value(m, r, scope, depth + 1);
            if (!inner.origin)
                inner.origin = inner.text;
            inner.text = v.text;
            return inner;
        }
        if (!param_float(m, scope, name, depth, &v))
            param_parametrized(m, scope, name, &v);
    } else if (TT_IS(expr, subscript)) {
        /* x.shape[i] */
        TSNode val = tt_field(expr, "value");
        if (TT_IS(val, attribute) && tt_text_eq(m, tt_field(val, "attribute"), "shape")) {
            v.kind = TT_HOST_SHAPE;
            v.tensor = tt_text(m, tt_field(val, "object"));
        }
    } else if (method_call(m, expr, "stride", &obj, &args)) {
        v.kind = TT_HOST_STRIDE;
        v.tensor = tt_text(m, obj);
        v.value = INT64_MIN;
        if (ts_node_named_child_count(args) == 1 &&
            tt_int_literal(m, ts_node_named_child(args, 0), &iv))
            v.value = iv;
    } else if (method_call(m, expr, "size", &obj, &args) ||
               method_call(m, expr, "numel", &obj, &args)) {
        v.kind = TT_HOST_SHAPE;
        v.tensor = tt_text(m, obj);
    } else if (TT_IS(expr, call)) {
        TSNode f = tt_field(expr, "function");
        TSNode a = tt_field(expr, "arguments");
        const char *q = tt_qualify(m, f);
        uint32_t na = ts_node_named_child_count(a);
        if (q && na == 1 && TT_IS(a, argument_list) &&
            (!strcmp(q, "triton.next_power_of_2") || !strcmp(q, "triton.runtime.next_power_of_2") ||
             !strcmp(q, "triton.language.next_power_of_2"))) {
            /* at least its argument */
            TSNode x = tt_unparen(ts_node_named_child(a, 0));
            if (TT_IS(x, identifier))
                v.covers = tt_text(m, x);
            return v;
        }
        if (TT_IS(f, identifier) && (tt_text_eq(m, f, "min") || tt_text_eq(m, f, "max")) && na >= 2 &&
            TT_IS(a, argument_list))
            return host_value_minmax(m, v, tt_text_eq(m, f, "min"), a, na, scope, depth);
        if (TT_IS(f, identifier) && (tt_text_eq(m, f, "len") || tt_text_eq(m, f, "int")) &&
            ts_node_named_child_count(a) == 1) {
            tt_host_value inner = host_value(m, ts_node_named_child(a, 0), scope, depth + 1);
            if (tt_text_eq(m, f, "len")) {
                inner.kind = TT_HOST_SHAPE;
                inner.tensor = tt_text(m, ts_node_named_child(a, 0));
            } else if (inner.kind == TT_HOST_FLOAT) {
                inner.kind = TT_HOST_UNKNOWN; /* int() of a float is an integer */
                inner.origin = NULL;
            }
            inner.text = v.text;
            return inner;
        }
    } else if (TT_IS(expr, binary_operator)) {
        tt_host_value l = host_value(m, tt_field(expr, "left"), scope, depth + 1);
        tt_host_value r = host_value(m, tt_field(expr, "right"), scope, depth + 1);
        TSNode op = tt_field(expr, "operator");
        if (l.kind == TT_HOST_INT && r.kind == TT_HOST_INT) {
            int64_t res;
            bool ok = true;
            if (tt_is(op, "+"))
                ok = !__builtin_add_overflow(l.value, r.value, &res);
            else if (tt_is(op, "-"))
                ok = !__builtin_sub_overflow(l.value, r.value, &res);
            else if (tt_is(op, "*"))
                ok = !__builtin_mul_overflow(l.value, r.value, &res);
            else if (tt_is(op, "//") && r.value > 0)
                res = l.value / r.value;
            else
                ok = false;
            if (ok) {
                v.kind = TT_HOST_INT;
                v.value = res;
            }
        } else if (l.kind == TT_HOST_SHAPE || r.kind == TT_HOST_SHAPE) {
            /* A product of extents is an extent; a quotient (numel() // M // N,
             * the trailing dims) may well be 1, so it says nothing. */
            if (tt_is(op, "*")) {
                v.kind = TT_HOST_SHAPE;
                v.tensor = l.kind == TT_HOST_SHAPE ? l.tensor : r.tensor;
            }
        }
    }
    return v;
}

/* The number of elements of a tuple or list literal, or of the targets of
 * `a, b = ...` written as text ("M, N", "(M, N)"); 0 otherwise. */
static int pattern_len(const char *left)
{
    int n = 1;
    for (const char *p = left; *p; p++) {
        if (*p == '*' || *p == '[')
            return 0; /* a starred target, a subscript */
        n += *p == ',';
    }
    return n;
}

/* The rank of the tensor `name` in `scope` before byte `before`, when the
 * host code says it (0 when it does not): `M, N = name.shape` (or
 * `name.size()`) unpacks it; `name = torch.empty((M, N), ...)` (zeros,
 * ones, full, new_empty, randn, ...) or `name = x.view(M, N)` /
 * `.reshape(M, N)` makes it. */
static int rank_at(tt_module *m, TSNode scope, const char *name, uint32_t before, int depth);

/* Methods that give a tensor of the rank they are called on. */
static const char *const rank_keepers[] = {"contiguous", "clone", "detach", "to", "float", "half", "bfloat16",
                                           "cuda", NULL};

typedef struct saved_scan {
    tt_module *m;
    int elem;
    TSNode arg; /* the elem-th tensor a save_for_backward call saves */
} saved_scan;

static bool visit_saved(TSNode n, void *ud)
{
    saved_scan *ss = ud;
    if (!ts_node_is_null(ss->arg))
        return false;
    if (!TT_IS(n, call))
        return true;
    TSNode f = tt_field(n, "function");
    if (!TT_IS(f, attribute) || !tt_text_eq(ss->m, tt_field(f, "attribute"), "save_for_backward"))
        return true;
    TSNode args = tt_field(n, "arguments");
    int k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment))
            continue;
        if (TT_IS(a, list_splat) || TT_IS(a, keyword_argument))
            return false;
        if (k++ == ss->elem)
            ss->arg = a;
    }
    return false;
}

/* A rank the host code implies without making the tensor: one of the
 * tensors a torch.autograd.Function's forward saved (`q, km =
 * ctx.saved_tensors` after `ctx.save_for_backward(q, km)` in the same
 * class), or a reduction over one dimension (`dkz.sum(0)`: one less). */
static int derived_rank(tt_module *m, TSNode scope, TSNode r, int elem, int depth)
{
    if (elem >= 0 && TT_IS(r, attribute) && tt_text_eq(m, tt_field(r, "attribute"), "saved_tensors")) {
        TSNode cls = scope;
        while (!ts_node_is_null(cls) && !TT_IS(cls, class_definition))
            cls = ts_node_parent(cls);
        saved_scan ss = {.m = m, .elem = elem};
        if (ts_node_is_null(cls))
            return 0;
        tt_walk(tt_field(cls, "body"), visit_saved, &ss);
        if (ts_node_is_null(ss.arg) || !TT_IS(tt_unparen(ss.arg), identifier))
            return 0;
        return rank_at(m, tt_enclosing_function(ss.arg), tt_text(m, tt_unparen(ss.arg)),
                       ts_node_start_byte(ss.arg), depth + 1);
    }
    if (elem >= 0 || !TT_IS(r, call) || !TT_IS(tt_field(r, "function"), attribute))
        return 0;
    TSNode f = tt_field(r, "function"), obj = tt_field(f, "object"), at = tt_field(f, "attribute");
    /* `km = km.to(k.dtype)`, `.contiguous()`: the rank it had */
    for (unsigned i = 0; rank_keepers[i] && TT_IS(obj, identifier); i++)
        if (tt_text_eq(m, at, rank_keepers[i]))
            return rank_at(m, scope, tt_text(m, obj), tt_use_point(r), depth + 1);
    static const char *const reducers[] = {"sum", "mean", "amax", "amin", "prod", NULL};
    bool red = false;
    for (unsigned i = 0; reducers[i]; i++)
        red |= tt_text_eq(m, at, reducers[i]);
    TSNode args = tt_field(r, "arguments");
    uint32_t dims = 0;
    for (uint32_t i = 0; red && i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        int64_t d;
        if (TT_IS(a, keyword_argument)) {
            TSNode v = tt_field(a, "value");
            if (tt_text_eq(m, tt_field(a, "name"), "dim") && tt_int_literal(m, v, &d))
                dims++;
            else if (!tt_text_eq(m, tt_field(a, "name"), "keepdim") || !tt_text_eq(m, v, "False"))
                return 0; /* keepdim=True, dtype=...: not known */
        } else if (!TT_IS(a, comment)) {
            if (!tt_int_literal(m, a, &d))
                return 0;
            dims++;
        }
    }
    if (!red || dims != 1 || !TT_IS(obj, identifier))
        return 0;
    int base = rank_at(m, scope, tt_text(m, obj), tt_use_point(r), depth + 1);
    return base > 1 ? base - 1 : 0;
}

int tt_tensor_rank(tt_module *m, TSNode scope, const char *name, uint32_t before)
{
    return rank_at(m, scope, name, before, 0);
}

static int rank_at(tt_module *m, TSNode scope, const char *name, uint32_t before, int depth)
{
    if (ts_node_is_null(scope) || !name || strchr(name, '[') || strchr(name, '('))
        return 0;
    const tt_assign_index *ix = tt_assignments(m, scope);
    char *shape = kc_xasprintf("%s.shape", name), *size = kc_xasprintf("%s.size()", name);
    int rank = 0;
    uint32_t unpacked_at = 0;
    /* the last `a, b, c = x.shape` before the launch */
    for (uint32_t i = 0; i < ix->items.len; i++) {
        const tt_assign *a = &ix->items.data[i];
        if (a->start < before && a->start >= unpacked_at && a->whole && !a->ident && !ts_node_is_null(a->right) &&
            (tt_text_eq(m, a->right, shape) || tt_text_eq(m, a->right, size)) && strchr(a->left, ',')) {
            rank = pattern_len(a->left);
            unpacked_at = a->start;
        }
    }
    free(shape);
    free(size);
    if (strchr(name, '.'))
        return rank;
    int elem;
    TSNode r = tt_unparen(tt_find_binding(m, scope, name, before, &elem));
    /* `x = x.view(-1, M, K)` after the unpack gives x another rank;
     * `x = x.contiguous()` keeps it */
    if (rank && (ts_node_is_null(r) || ts_node_start_byte(r) < unpacked_at))
        return rank;
    if (rank && TT_IS(r, call) && TT_IS(tt_field(r, "function"), attribute)) {
        TSNode at = tt_field(tt_field(r, "function"), "attribute");
        for (unsigned i = 0; rank_keepers[i]; i++)
            if (tt_text_eq(m, at, rank_keepers[i]))
                return rank;
    }
    int derived = ts_node_is_null(r) || depth > 3 ? 0 : derived_rank(m, scope, r, elem, depth);
    if (derived)
        return derived;
    if (ts_node_is_null(r) || elem >= 0 || !TT_IS(r, call))
        return 0;
    TSNode f = tt_field(r, "function");
    if (!TT_IS(f, attribute))
        return 0;
    TSNode attr = tt_field(f, "attribute");
    static const char *const makers[] = {"empty", "zeros", "ones", "full", "new_empty", "new_zeros", "new_full",
                                         "randn", "rand", "view", "reshape", NULL};
    bool maker = false;
    for (unsigned i = 0; makers[i]; i++)
        maker |= tt_text_eq(m, attr, makers[i]);
    if (!maker)
        return 0;
    TSNode args = tt_field(r, "arguments");
    uint32_t npos = 0;
    TSNode first = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment) || TT_IS(a, keyword_argument))
            continue;
        if (TT_IS(a, list_splat))
            return 0;
        if (npos++ == 0)
            first = a;
    }
    bool is_full = tt_text_eq(m, attr, "full") || tt_text_eq(m, attr, "new_full");
    if (ts_node_is_null(first))
        return 0;
    first = tt_unparen(first);
    if (TT_IS(first, tuple) || TT_IS(first, list)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(first); i++)
            if (TT_IS(ts_node_named_child(first, i), list_splat))
                return 0;
        return (int)ts_node_named_child_count(first);
    }
    if (is_full)
        return 0;
    if (npos > 1)
        return (int)npos;
    /* a single extent: an integer expression, not a size tuple variable */
    return TT_IS(first, integer) || TT_IS(first, binary_operator) ||
                   (TT_IS(first, identifier) && !strstr(tt_text(m, first), "shape") &&
                    !strstr(tt_text(m, first), "size")) ||
                   (TT_IS(first, subscript) && strstr(tt_text(m, first), "shape"))
               ? 1
               : 0;
}

/* Marks which stride arguments of one launch are the innermost of their
 * tensor (+1) and which are outer ones (-1); 0 unknown. x.stride(-1) is
 * the innermost, x.stride(-2) and below outer ones. With the tensor's
 * rank known (tt_tensor_rank), stride(rank - 1) is the innermost and the
 * others outer. Without it, a stride below another one the launch passes
 * for the same tensor is an outer one, and the highest one is presumed the
 * innermost only when the launch passes every stride below it as well
 * (x.stride(0), x.stride(1): the convention of kernels that take all
 * strides); a lone x.stride(1) or x.stride(0) stays unknown (x may have
 * more dimensions, or one). */
typedef struct unit_scan {
    tt_module *m;
    const char *a, *b; /* the texts looked for (b may be NULL) */
    bool found;
} unit_scan;

static bool is_one(tt_module *m, TSNode n)
{
    n = tt_unparen(n);
    return TT_IS(n, integer) && tt_text_eq(m, n, "1");
}

static bool visit_unit_compare(TSNode n, void *ud)
{
    unit_scan *us = ud;
    if (us->found)
        return false;
    if (!TT_IS(n, comparison_operator) || ts_node_named_child_count(n) != 2)
        return true;
    const char *op = tt_op_of(n);
    if (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0)
        return true;
    TSNode l = tt_unparen(ts_node_named_child(n, 0)), r = tt_unparen(ts_node_named_child(n, 1));
    TSNode other = is_one(us->m, r) ? l : is_one(us->m, l) ? r : (TSNode){0};
    if (!ts_node_is_null(other) &&
        (tt_text_eq(us->m, other, us->a) || (us->b && tt_text_eq(us->m, other, us->b))))
        us->found = true;
    return !us->found;
}

/* Does the launching function compare the stride with 1 (`x.stride(0) == 1`,
 * `assert stride_x_dim == 1`, `!= 1`)? Then the code expects, or allows,
 * that dimension to be the contiguous one (a transposed or channel-last
 * view): which of its strides is the innermost is not known from their
 * order. */
static bool stride_compared_with_one(tt_module *m, TSNode scope, const tt_host_value *v)
{
    if (ts_node_is_null(scope) || !v->tensor)
        return false;
    char *whole = kc_xasprintf("%s.stride(%" PRId64 ")", v->tensor, v->value);
    unit_scan us = {m, whole, v->text && strcmp(v->text, whole) != 0 ? v->text : NULL, false};
    tt_walk(scope, visit_unit_compare, &us);
    free(whole);
    return us.found;
}

static void mark_strides(tt_module *m, tt_launch *l, TSNode scope, uint32_t before)
{
    for (uint32_t i = 0; i < l->args.len; i++) {
        tt_host_value *v = &l->args.data[i].v;
        if (v->kind != TT_HOST_STRIDE || v->value == INT64_MIN)
            continue;
        if (stride_compared_with_one(m, scope, v)) {
            v->stride_rank_hint = 0;
            continue;
        }
        if (v->value < 0) {
            v->stride_rank_hint = v->value == -1 ? 1 : -1;
            continue;
        }
        int rank = tt_tensor_rank(m, scope, v->tensor, before);
        if (rank > 0) {
            v->stride_rank_hint = v->value == rank - 1 ? 1 : v->value < rank - 1 ? -1 : 0;
            continue;
        }
        int64_t maxd = v->value;
        uint64_t below = 0; /* the dimensions under 64 passed for the tensor */
        for (uint32_t j = 0; j < l->args.len; j++) {
            const tt_host_value *w = &l->args.data[j].v;
            if (w->kind != TT_HOST_STRIDE || !w->tensor || !v->tensor || strcmp(w->tensor, v->tensor) != 0)
                continue;
            if (w->value > maxd)
                maxd = w->value;
            if (w->value >= 0 && w->value < 64)
                below |= 1ull << w->value;
        }
        uint64_t all_below = v->value >= 1 && v->value < 64 ? (1ull << v->value) - 1 : 0;
        if (v->value < maxd)
            v->stride_rank_hint = -1;
        else if (all_below && (below & all_below) == all_below)
            v->stride_rank_hint = 1;
        else
            v->stride_rank_hint = 0;
    }
}


/* Lookups of callers one launch may make (calls_of). */
#define TT_CALLER_BUDGET 256

/* Is n after a `return` or `raise` of a block it is in (up to its
 * function), so that it never runs? */

/* The number of values `*x` unpacks when x is a tuple of a known length:
 * a tuple literal, or a name assigned one (or `(...) if c else (...)` of
 * two of the same length) last before byte `before`; -1 when not known. */
static int64_t tuple_width(TSNode t)
{
    t = tt_unparen(t);
    if (!TT_IS(t, tuple))
        return -1;
    int64_t n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(t); i++) {
        TSNode x = ts_node_named_child(t, i);
        if (TT_IS(x, list_splat))
            return -1;
        n += !TT_IS(x, comment);
    }
    return n;
}

static int64_t splat_width(tt_module *m, TSNode splat, TSNode scope, uint32_t before)
{
    TSNode x = ts_node_named_child_count(splat) ? tt_unparen(ts_node_named_child(splat, 0)) : splat;
    if (TT_IS(x, identifier)) {
        TSNode r = tt_find_assignment(m, scope, tt_text(m, x), before);
        if (ts_node_is_null(r))
            return -1;
        x = tt_unparen(r);
    }
    if (TT_IS(x, conditional_expression) && ts_node_named_child_count(x) >= 3) {
        int64_t a = tuple_width(ts_node_named_child(x, 0)), b = tuple_width(ts_node_named_child(x, 2));
        return a >= 0 && a == b ? a : -1;
    }
    return tuple_width(x);
}

/* Is `name` changed in place in `scope` (`name[k] = v`, `name.update(...)`,
 * `name.pop(...)`, `name.setdefault(...)`, `name |= ...`)? Read from the
 * text, outside strings. */
static bool dict_mutated(tt_module *m, TSNode scope, const char *name)
{
    const char *t = tt_text(m, scope);
    size_t n = strlen(name);
    for (const char *p = strstr(t, name); p; p = strstr(p + 1, name)) {
        if ((p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) ||
            isalnum((unsigned char)p[n]) || p[n] == '_')
            continue;
        const char *q = p + n;
        while (*q == ' ')
            q++;
        if (*q == '[' || !strncmp(q, ".update", 7) || !strncmp(q, ".pop", 4) || !strncmp(q, ".setdefault", 11) ||
            !strncmp(q, "|=", 2))
            return true;
    }
    return false;
}

/* The keyword arguments a `**kwargs` splat passes, where `kwargs` is bound
 * once before the call, in the launching function, to a dict literal with
 * string keys (`kwargs = {'BLOCK_M': 128, 'num_warps': 4}`) or to
 * `dict(BLOCK_M=128)`, and nothing changes it in place: appended to `l`
 * as keyword bindings (true). False, appending nothing, otherwise. */
static bool dict_splat_args(tt_module *m, TSNode splat, TSNode scope, uint32_t before, tt_launch *l)
{
    TSNode x = ts_node_named_child_count(splat) ? tt_unparen(ts_node_named_child(splat, 0)) : splat;
    if (!TT_IS(x, identifier) || ts_node_is_null(scope))
        return false;
    const char *name = tt_text(m, x);
    TSNode r = tt_unparen(tt_find_assignment(m, scope, name, before));
    if (ts_node_is_null(r) || dict_mutated(m, scope, name))
        return false;
    bool literal = TT_IS(r, dictionary);
    TSNode items = r;
    if (!literal) {
        TSNode f = TT_IS(r, call) ? tt_field(r, "function") : r;
        if (!TT_IS(r, call) || !tt_text_eq(m, f, "dict"))
            return false;
        items = tt_field(r, "arguments");
    }
    uint32_t n = ts_node_named_child_count(items), first = l->args.len;
    for (uint32_t i = 0; i < n; i++) {
        TSNode it = ts_node_named_child(items, i);
        if (TT_IS(it, comment))
            continue;
        tt_binding b = {0};
        b.position = UINT32_MAX;
        if (literal && TT_IS(it, pair) && TT_IS(tt_field(it, "key"), string)) {
            const char *k = tt_text(m, tt_field(it, "key"));
            size_t kl = strlen(k);
            if (kl < 2 || (k[0] != '\'' && k[0] != '"') || k[kl - 1] != k[0])
                goto fail; /* a prefixed string (f'...') */
            b.param = kc_arena_strndup(m->arena, k + 1, kl - 2);
            b.value = tt_field(it, "value");
        } else if (!literal && TT_IS(it, keyword_argument)) {
            b.param = tt_text(m, tt_field(it, "name"));
            b.value = tt_field(it, "value");
        } else {
            goto fail;
        }
        b.v = host_value(m, b.value, scope, 0);
        kc_vec_push(&l->args, b);
    }
    return true;
fail:
    l->args.len = first;
    return false;
}

static bool after_exit(TSNode n)
{
    for (TSNode x = n, p = ts_node_parent(n); !ts_node_is_null(p); x = p, p = ts_node_parent(p)) {
        if (TT_IS(x, function_definition))
            return false;
        if (!TT_IS(p, block) && !TT_IS(p, module))
            continue;
        for (TSNode s = ts_node_prev_named_sibling(x); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s))
            if (TT_IS(s, return_statement) || TT_IS(s, raise_statement))
                return true;
    }
    return false;
}

/* Records the launch `call` of `kernel` (true), unless it is dead code
 * after a `return` (a launch left behind when a backward pass was handed
 * to ATen): it never runs. */
bool tt_scan_launch(tt_module *m, TSNode call, const char *kernel)
{
    if (after_exit(call))
        return false;
    m->caller_budget = TT_CALLER_BUDGET;
    tt_launch l = {0};
    l.kernel = kernel;
    l.call = call;
    l.line = ts_node_start_point(call).row + 1;
    TSNode scope = tt_enclosing_function(call);
    TSNode args = tt_field(call, "arguments");
    uint32_t pos = 0;
    /* Positional arguments after one `*splat` are kept apart: where they
     * land is known only from the kernel's parameters (frontend_triton.c). A
     * second splat or a `**dict` leaves them unbound. */
    unsigned splats = 0;
    bool dict_splat = false;
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment))
            continue;
        tt_binding b = {0};
        b.value = TT_IS(a, keyword_argument) ? tt_field(a, "value") : a;
        if (TT_IS(a, keyword_argument)) {
            b.param = tt_text(m, tt_field(a, "name"));
            b.position = UINT32_MAX;
            b.v = host_value(m, b.value, scope, 0);
        } else if (TT_IS(a, list_splat)) {
            /* `*bias_strides` of a tuple of a known length (`(b.stride(0),
             * b.stride(1)) if has_bias else (0, 0)`): that many positions */
            int64_t width = splat_width(m, a, scope, ts_node_start_byte(call));
            if (splats == 0 && width >= 0) {
                pos += (uint32_t)width;
                continue;
            }
            splats++;
            continue;
        } else if (TT_IS(a, dictionary_splat)) {
            /* `**kwargs` of a dict literal: its entries are keyword arguments */
            dict_splat |= !dict_splat_args(m, a, scope, ts_node_start_byte(call), &l);
            continue;
        } else if (splats == 0) {
            b.position = pos++;
            b.v = host_value(m, a, scope, 0);
        } else if (splats == 1) {
            b.after_splat = true;
            b.position = l.after_splat++;
            b.v = host_value(m, a, scope, 0);
        } else {
            continue;
        }
        kc_vec_push(&l.args, b);
    }
    l.before_splat = pos;
    l.partial_args = dict_splat || splats > 1;
    if (dict_splat || splats > 1) { /* drop what follows the splat */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < l.args.len; i++)
            if (!l.args.data[i].after_splat)
                l.args.data[kept++] = l.args.data[i];
        l.args.len = kept;
        l.after_splat = 0;
    }
    mark_strides(m, &l, scope, ts_node_start_byte(call));
    tt_mark_multiples(m, &l, scope, ts_node_start_byte(call));
    const char *why = NULL;
    int ctx = trace_context(m, scope, 0, &why);
    if (ctx == CTX_TRACED)
        l.traced_by = why;
    else if (ctx == CTX_EAGER)
        l.eager_by = why;
    kc_vec_push(&m->launches, l);
    return true;
}

