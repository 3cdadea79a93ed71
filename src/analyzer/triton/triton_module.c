/* triton_module.c — the module scan of the Triton front end: which names
 * are Triton's (imports, and the Triton names a module of the project
 * re-exports), which functions are kernels (`@triton.jit`, and module-level
 * wrappers: `g = triton.jit(fn)`, `k = triton.autotune(...)(triton.jit(f))`),
 * and the launches of each kernel, also through local aliases and
 * conditional expressions (`fx = ka if c else kb; fx[grid](...)`). Built
 * on triton_walk.c. */
#include "triton_internal.h"

#include "kc_pyscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef KC_VEC(TSNode) tt_nodes;

typedef struct module_scan {
    tt_module *m;
    tt_nodes defs;  /* decorated definitions */
    tt_nodes plain; /* function definitions without a decorator, outside functions */
    tt_nodes calls; /* calls of a subscript: kernel[grid](...) */
} module_scan;

/* ---- re-exported Triton names ---- */

static bool under_triton(const char *q)
{
    return q && strncmp(q, "triton", 6) == 0 && (q[6] == '\0' || q[6] == '.');
}

/* The alias `a` as the peer module it comes from binds it: true when a
 * peer is that module (whatever it binds). */
static bool resolve_from_peer(tt_module *m, tt_alias *a)
{
    bool found = false;
    for (uint32_t p = 0; m->peers && p < m->peers->n; p++) {
        const char *path = m->peers->paths[p];
        if (!tt_path_is_module(path, a->from))
            continue;
        found = true;
        char *buf = NULL;
        size_t cap = 0, len = 0;
        char q[128];
        if (kc_read_regular(path, m->max_file_size, &buf, &cap, &len, NULL) &&
            kc_py_triton_binding(buf, len, a->name, q, sizeof q)) {
            a->qualified = kc_arena_strdup(m->arena, q);
            m->imports_triton = true;
            free(buf);
            return true;
        }
        free(buf);
    }
    return found;
}

/* The wrappers `def program_id(...)` / `def num_programs(...)` of a module
 * text that return the builtin widened to int64 (`return
 * tl.program_id(axis).to(tl.int64)`): TT_WIDE_* bits. A text scan: the
 * first `return` of the definition decides. */
static uint8_t widened_wrappers(const char *t, size_t len)
{
    static const struct {
        const char *def, *builtin;
        uint8_t bit;
    } w[] = {{"def program_id(", "program_id(", TT_WIDE_PROGRAM_ID},
             {"def num_programs(", "num_programs(", TT_WIDE_NUM_PROGRAMS}};
    uint8_t bits = 0;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        size_t dl = strlen(w[i].def);
        for (size_t at = 0; at + dl <= len; at++) {
            if (memcmp(t + at, w[i].def, dl) != 0 || (at > 0 && t[at - 1] != '\n'))
                continue;
            const char *end = t + len, *r = t + at + dl;
            const char *next = NULL;
            for (const char *q = r; q + 5 <= end && !next; q++)
                if (q[0] == '\n' && (q[1] == 'd' || q[1] == '@') && (!strncmp(q + 1, "def ", 4) || q[1] == '@'))
                    next = q;
            const char *stop = next ? next : end;
            const char *ret = NULL;
            for (const char *q = r; q + 7 <= stop && !ret; q++)
                if (!strncmp(q, "return ", 7) && (q[-1] == ' ' || q[-1] == '\t'))
                    ret = q;
            if (!ret)
                break;
            const char *eol = memchr(ret, '\n', (size_t)(stop - ret));
            size_t rl = (size_t)((eol ? eol : stop) - ret);
            char line[256];
            if (rl >= sizeof line)
                break;
            memcpy(line, ret, rl);
            line[rl] = '\0';
            if (strstr(line, w[i].builtin) && strstr(line, ".to(") && strstr(line, "int64"))
                bits |= w[i].bit;
            break;
        }
    }
    return bits;
}

/* The module `from.name` as a file: a peer that is it, or `name.py` beside
 * the peer that is the package `from` (`from pkg.utils import ext`). */
static uint8_t module_wrappers(tt_module *m, const tt_alias *a)
{
    char full[512];
    if (!a->from || !a->name || snprintf(full, sizeof full, "%s.%s", a->from, a->name) >= (int)sizeof full)
        return 0;
    for (uint32_t p = 0; m->peers && p < m->peers->n; p++) {
        const char *path = m->peers->paths[p];
        char sib[4096];
        const char *file = NULL;
        if (tt_path_is_module(path, full))
            file = path;
        else if (tt_path_is_module(path, a->from)) {
            const char *slash = strrchr(path, '/');
            size_t dl = slash ? (size_t)(slash - path) : 0;
            if (slash && !strcmp(slash, "/__init__.py") &&
                snprintf(sib, sizeof sib, "%.*s/%s.py", (int)dl, path, a->name) < (int)sizeof sib)
                file = sib;
        }
        if (!file)
            continue;
        char *buf = NULL;
        size_t cap = 0, len = 0;
        uint8_t bits = 0;
        if (kc_read_regular(file, m->max_file_size, &buf, &cap, &len, NULL))
            bits = widened_wrappers(buf, len);
        free(buf);
        if (bits)
            return bits;
    }
    return 0;
}

/* `from X import tl, triton` where X is a module of the project: the
 * names are Triton's when X binds them so (read from the peer that is X),
 * or, when X is not at hand, when this file uses them the Triton way:
 * `@<a>.jit` (or `@jit`) decorators together with `<b>.program_id`,
 * `.arange`, `.load`, `.store` or `.constexpr`. */
static void resolve_reexports(tt_module *m)
{
    uint32_t n = m->aliases.len;
    unsigned *uses = kc_xcalloc(n ? n : 1, sizeof *uses);
    bool jit_ok = false, tl_ok = false, any = false;
    for (uint32_t i = 0; i < n; i++) {
        tt_alias *a = &m->aliases.data[i];
        if (under_triton(a->qualified) || !a->from || !a->name || resolve_from_peer(m, a))
            continue;
        uses[i] = kc_py_triton_uses(m->src->text, m->src->len, a->local);
        if (strcmp(a->name, "jit") != 0)
            uses[i] &= ~(unsigned)KC_PY_USE_DECORATOR;
        jit_ok |= (uses[i] & (KC_PY_USE_JIT | KC_PY_USE_DECORATOR)) != 0;
        tl_ok |= (uses[i] & KC_PY_USE_TL) != 0;
        any |= uses[i] != 0;
    }
    /* the other half may be Triton's own names, used so */
    for (uint32_t i = 0; any && i < n && !(jit_ok && tl_ok); i++) {
        const tt_alias *a = &m->aliases.data[i];
        if (!under_triton(a->qualified))
            continue;
        bool whole = strcmp(a->qualified, "triton") == 0;
        unsigned u = kc_py_triton_uses(m->src->text, m->src->len, a->local);
        if (whole || strcmp(a->qualified, "triton.jit") == 0)
            jit_ok |= (u & (KC_PY_USE_JIT | KC_PY_USE_DECORATOR)) != 0;
        if (strcmp(a->qualified, "triton.language") == 0)
            tl_ok |= (u & KC_PY_USE_TL) != 0;
        if (whole) {
            char *lang = kc_xasprintf("%s.language", a->local);
            tl_ok |= (kc_py_triton_uses(m->src->text, m->src->len, lang) & KC_PY_USE_TL) != 0;
            free(lang);
        }
    }
    if (any && jit_ok && tl_ok) {
        for (uint32_t i = 0; i < n; i++) {
            tt_alias *a = &m->aliases.data[i];
            if (uses[i] & KC_PY_USE_DECORATOR)
                a->qualified = "triton.jit";
            else if (uses[i] & KC_PY_USE_JIT)
                a->qualified = "triton";
            else if (uses[i] & KC_PY_USE_TL) {
                a->qualified = "triton.language";
                a->widened = module_wrappers(m, a);
            } else
                continue;
            m->imports_triton = true;
        }
    }
    free(uses);
}

/* ---- kernels ---- */

/* Is a decorator of this definition a name that ends in `jit`
 * (`@triton.jit`, `@jit`, `@triton.jit(...)`)? Read from the text: names
 * are qualified later, once every import is known. `@torch.jit.ignore`
 * and the like do not count: their functions run as Python. */
static bool decorated_with_jit(tt_module *m, TSNode dd)
{
    uint32_t n = ts_node_named_child_count(dd);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(dd, i);
        if (!TT_IS(d, decorator) || ts_node_named_child_count(d) == 0)
            continue;
        TSNode e = tt_unparen(ts_node_named_child(d, 0));
        if (TT_IS(e, call))
            e = tt_field(e, "function");
        if (!TT_IS(e, identifier) && !TT_IS(e, attribute))
            continue;
        uint32_t a = ts_node_start_byte(e), b = ts_node_end_byte(e);
        const char *t = m->src->text + a;
        if (b <= m->src->len && b - a >= 3 && memcmp(t + (b - a) - 3, "jit", 3) == 0 &&
            (b - a == 3 || t[b - a - 4] == '.'))
            return true;
    }
    return false;
}

static bool visit_module(TSNode n, void *ud)
{
    module_scan *sc = ud;
    if (TT_IS(n, import_statement) || TT_IS(n, import_from_statement)) {
        tt_scan_import(sc->m, n);
    } else if (TT_IS(n, decorated_definition)) {
        kc_vec_push(&sc->defs, n);
        /* A jit function's body holds nothing this scan looks for (Triton
         * compiles it: no imports, definitions or launches), and it is most
         * of a kernel file's tree. */
        return !decorated_with_jit(sc->m, n);
    } else if (TT_IS(n, function_definition)) {
        if (!TT_IS(ts_node_parent(n), decorated_definition) && ts_node_is_null(tt_enclosing_function(n)))
            kc_vec_push(&sc->plain, n);
    } else if (TT_IS(n, call) && TT_IS(tt_field(n, "function"), subscript)) {
        kc_vec_push(&sc->calls, n);
    }
    return true;
}

/* What a decorator or wrapper call names: triton.jit, or a wrapper that
 * marks the kernel (triton.autotune, triton.heuristics). */
typedef enum tt_wrap { TT_WRAP_NONE, TT_WRAP_JIT, TT_WRAP_AUTOTUNE, TT_WRAP_HEURISTICS } tt_wrap;

static tt_wrap wrap_of(tt_module *m, TSNode f)
{
    const char *q = tt_qualify(m, f);
    if (!q)
        return TT_WRAP_NONE;
    if (strcmp(q, "triton.autotune") == 0)
        return TT_WRAP_AUTOTUNE;
    if (strcmp(q, "triton.heuristics") == 0)
        return TT_WRAP_HEURISTICS;
    if (strcmp(q, "triton.jit") == 0 || strcmp(q, "triton.runtime.jit.jit") == 0)
        return TT_WRAP_JIT;
    return TT_WRAP_NONE;
}

static bool is_jit(tt_module *m, TSNode dec_expr, bool *autotune, bool *heuristics, TSNode *tune_call)
{
    dec_expr = tt_unparen(dec_expr);
    TSNode f = dec_expr;
    if (TT_IS(dec_expr, call))
        f = tt_field(dec_expr, "function");
    switch (wrap_of(m, f)) {
    case TT_WRAP_AUTOTUNE:
        *autotune = true;
        *tune_call = dec_expr;
        return false;
    case TT_WRAP_HEURISTICS:
        *heuristics = true;
        return false;
    case TT_WRAP_JIT:
        return true;
    default:
        return false;
    }
}

static void add_kname(tt_module *m, const char *name, uint32_t kernel)
{
    for (uint32_t i = 0; i < m->knames.len; i++)
        if (strcmp(m->knames.data[i].name, name) == 0)
            return; /* the first binding keeps the name */
    tt_kernel_name kn = {name, kernel};
    kc_vec_push(&m->knames, kn);
}

static uint32_t kname_find(tt_module *m, const char *name, size_t len)
{
    for (uint32_t i = 0; i < m->knames.len; i++)
        if (strlen(m->knames.data[i].name) == len && memcmp(m->knames.data[i].name, name, len) == 0)
            return i;
    return KC_NONE;
}

/* The autotune configs of a `triton.autotune(...)` call, for `kernel`. */
static void tune_configs(tt_module *m, const char *kernel, TSNode tune)
{
    /* `@triton.autotune` without a call has no arguments. */
    TSNode args = ts_node_is_null(tune) || !TT_IS(tune, call) ? (TSNode){0} : tt_field(tune, "arguments");
    uint32_t na = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t k = 0; k < na; k++) {
        TSNode a = ts_node_named_child(args, k);
        if (TT_IS(a, keyword_argument) && tt_text_eq(m, tt_field(a, "name"), "configs"))
            tt_scan_configs(m, kernel, tt_field(a, "value"), 0);
        else if (k == 0 && !TT_IS(a, keyword_argument))
            tt_scan_configs(m, kernel, a, 0);
    }
}

static uint32_t add_kernel(tt_module *m, TSNode def, TSNode decorated, bool autotune, bool heur)
{
    tt_kernel_def kd = {.def = def, .decorated = decorated, .autotuned = autotune, .heuristics = heur};
    kd.name = tt_text(m, tt_field(def, "name"));
    kc_vec_push(&m->kernels, kd);
    add_kname(m, kd.name, m->kernels.len - 1);
    return m->kernels.len - 1;
}

/* A project's own jit decorator (`@triton_dist.jit`, `@mylib.jit(...)`,
 * a wrapper of triton.jit) on a function whose body is written in
 * triton.language (`tl.program_id`, `tl.arange`, `tl.load`, `tl.store`,
 * `tl.constexpr` through a name this file binds to triton.language): a
 * kernel. Other JITs with a decorator of that name (numba's `cuda.jit`,
 * CuTe's `cute.jit`) write their bodies in their own language. */
static bool project_jit(tt_module *m, TSNode dd, TSNode def)
{
    if (!decorated_with_jit(m, dd))
        return false;
    uint32_t a = ts_node_start_byte(def), b = ts_node_end_byte(def);
    if (b > m->src->len || b <= a)
        return false;
    for (uint32_t i = 0; i < m->aliases.len; i++) {
        const tt_alias *al = &m->aliases.data[i];
        if (!al->qualified || strcmp(al->qualified, "triton.language") != 0)
            continue;
        if (kc_py_triton_uses(m->src->text + a, b - a, al->local) & KC_PY_USE_TL)
            return true;
    }
    return false;
}

static void scan_decorated(tt_module *m, const tt_nodes *defs)
{
    for (uint32_t i = 0; i < defs->len; i++) {
        TSNode dd = defs->data[i];
        TSNode def = tt_field(dd, "definition");
        if (!TT_IS(def, function_definition))
            continue;
        bool jit = false, autotune = false, heur = false;
        TSNode tune = {0};
        uint32_t nc = ts_node_named_child_count(dd);
        for (uint32_t k = 0; k < nc; k++) {
            TSNode d = ts_node_named_child(dd, k);
            if (TT_IS(d, decorator) && ts_node_named_child_count(d) > 0 &&
                is_jit(m, ts_node_named_child(d, 0), &autotune, &heur, &tune))
                jit = true;
        }
        if (!jit && !project_jit(m, dd, def))
            continue;
        uint32_t ki = add_kernel(m, def, dd, autotune, heur);
        uint32_t before = m->launches.len;
        if (autotune)
            tune_configs(m, m->kernels.data[ki].name, tune);
        for (uint32_t l = before; l < m->launches.len; l++)
            m->launches.data[l].def_plus1 = ki + 1;
    }
}

/* The kernel a module-level expression makes, or KC_NONE: `triton.jit(f)`
 * or `triton.jit(...)(f)` of a function `f` defined in the module (which
 * becomes a kernel), a kernel's name, or one of them wrapped by
 * `triton.autotune(...)(...)` / `triton.heuristics(...)(...)`. */
static uint32_t wrapped_kernel(tt_module *m, const tt_nodes *plain, TSNode e, int depth)
{
    e = tt_unparen(e);
    if (depth > 8)
        return KC_NONE;
    if (TT_IS(e, identifier)) {
        uint32_t a = ts_node_start_byte(e), b = ts_node_end_byte(e);
        uint32_t kn = kname_find(m, m->src->text + a, b - a);
        return kn == KC_NONE ? KC_NONE : m->knames.data[kn].kernel;
    }
    if (!TT_IS(e, call))
        return KC_NONE;
    TSNode f = tt_unparen(tt_field(e, "function"));
    TSNode wrapper = TT_IS(f, call) ? tt_field(f, "function") : f; /* triton.autotune(...)(x) */
    tt_wrap w = wrap_of(m, wrapper);
    TSNode arg = tt_call_arg(m, e, 0, w == TT_WRAP_JIT ? "fn" : NULL);
    if (w == TT_WRAP_NONE || (w != TT_WRAP_JIT && !TT_IS(f, call)) || ts_node_is_null(arg))
        return KC_NONE;
    if (w == TT_WRAP_JIT) {
        arg = tt_unparen(arg);
        uint32_t known = wrapped_kernel(m, plain, arg, depth + 1);
        if (known != KC_NONE || !TT_IS(arg, identifier))
            return known;
        for (uint32_t i = 0; i < plain->len; i++)
            if (tt_text_eq(m, tt_field(plain->data[i], "name"), tt_text(m, arg)))
                return add_kernel(m, plain->data[i], (TSNode){0}, false, false);
        return KC_NONE;
    }
    uint32_t k = wrapped_kernel(m, plain, arg, depth + 1);
    if (k == KC_NONE)
        return KC_NONE;
    if (w == TT_WRAP_AUTOTUNE) {
        m->kernels.data[k].autotuned = true;
        tune_configs(m, m->kernels.data[k].name, f);
    } else {
        m->kernels.data[k].heuristics = true;
    }
    return k;
}

/* Module-level bindings of jit wrappers, in source order:
 * `f = triton.jit(f)`, `g = triton.autotune(configs=..., key=...)(triton.jit(f))`. */
static void scan_wrapped(tt_module *m, const tt_nodes *plain)
{
    if (!m->imports_triton)
        return;
    const tt_assign_index *ix = tt_assignments(m, m->root);
    for (uint32_t i = 0; i < ix->items.len; i++) {
        const tt_assign *a = &ix->items.data[i];
        if (!a->ident || ts_node_is_null(a->right) || !TT_IS(tt_unparen(a->right), call))
            continue;
        uint32_t k = wrapped_kernel(m, plain, a->right, 0);
        if (k != KC_NONE)
            add_kname(m, a->left, k);
    }
}

/* ---- launch targets ---- */

static bool contains(TSNode outer, TSNode n)
{
    if (ts_node_is_null(outer))
        return false;
    return ts_node_start_byte(outer) <= ts_node_start_byte(n) && ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* The block (or module) the statement of an assignment's value is in. */
static TSNode block_of(TSNode right)
{
    TSNode p = ts_node_parent(right);
    while (!ts_node_is_null(p) && !TT_IS(p, block) && !TT_IS(p, module))
        p = ts_node_parent(p);
    return p;
}

/* Can the binding whose value is `right` reach `use`: not when it is in a
 * branch of an `if` whose other branch holds the use. */
static bool reaches(TSNode right, TSNode use)
{
    for (TSNode b = block_of(right); !ts_node_is_null(b) && !contains(b, use);) {
        TSNode st = ts_node_parent(b);
        if (TT_IS(st, elif_clause) || TT_IS(st, else_clause))
            st = ts_node_parent(st);
        if (TT_IS(st, if_statement) && contains(st, use))
            return false;
        b = ts_node_is_null(st) ? st : ts_node_parent(st);
        while (!ts_node_is_null(b) && !TT_IS(b, block) && !TT_IS(b, module))
            b = ts_node_parent(b);
    }
    return true;
}

static void targets_of(tt_module *m, TSNode v, TSNode scope, uint32_t before, TSNode *out, uint32_t *n,
                       uint32_t max, int depth)
{
    v = tt_unparen(v);
    if (depth > 4 || *n >= max || ts_node_is_null(v))
        return;
    if (TT_IS(v, conditional_expression)) { /* a if c else b: its first and last operands */
        uint32_t nc = ts_node_named_child_count(v);
        if (nc == 3) {
            targets_of(m, ts_node_named_child(v, 0), scope, before, out, n, max, depth + 1);
            targets_of(m, ts_node_named_child(v, 2), scope, before, out, n, max, depth + 1);
        }
        return;
    }
    if (TT_IS(v, attribute)) {
        out[(*n)++] = v;
        return;
    }
    if (!TT_IS(v, identifier))
        return;
    const char *name = tt_text(m, v);
    uint32_t a = ts_node_start_byte(v), b = ts_node_end_byte(v);
    if (kname_find(m, m->src->text + a, b - a) != KC_NONE) {
        out[(*n)++] = v;
        return;
    }
    /* A local alias: every binding of the name in its function (or the
     * module) before the launch that can reach it, as branches may bind it
     * differently: not one in another branch of an `if` the launch is in,
     * nor one that a later binding on the launch's own path replaces. */
    for (int level = 0; level < 2; level++) {
        TSNode sc = level == 0 ? scope : m->root;
        if (ts_node_is_null(sc))
            continue;
        const tt_assign_index *ix = tt_assignments(m, sc);
        uint32_t lo, hi, seen = 0;
        tt_assign_range(ix, name, &lo, &hi);
        for (uint32_t i = lo; i < hi; i++) {
            const tt_assign *as = &ix->items.data[ix->by_name[i]];
            if (as->start >= before || !as->ident || !reaches(as->right, v))
                continue;
            bool replaced = false;
            for (uint32_t j = lo; j < hi && !replaced; j++) {
                const tt_assign *bs = &ix->items.data[ix->by_name[j]];
                replaced = bs->ident && bs->start > as->start && bs->start < before &&
                           contains(block_of(bs->right), v);
            }
            if (replaced)
                continue;
            seen++;
            targets_of(m, as->right, sc, as->start, out, n, max, depth + 1);
        }
        if (seen)
            return;
    }
    out[(*n)++] = v; /* bound elsewhere: an import */
}

uint32_t tt_launch_targets(tt_module *m, TSNode v, TSNode *out, uint32_t max)
{
    uint32_t n = 0;
    targets_of(m, v, tt_enclosing_function(v), ts_node_start_byte(v), out, &n, max, 0);
    return n;
}

/* The kernel (its kname index) a launch target node names, or KC_NONE. */
static uint32_t target_kname(tt_module *m, TSNode t)
{
    if (TT_IS(t, attribute))
        t = tt_field(t, "attribute");
    uint32_t a = ts_node_start_byte(t), b = ts_node_end_byte(t);
    return kname_find(m, m->src->text + a, b - a);
}

static bool node_holds(TSNode outer, TSNode n)
{
    return ts_node_start_byte(outer) <= ts_node_start_byte(n) && ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* The definition a launch at `call` of kernel name `kn` runs, when the
 * module defines that name more than once (one definition per branch of
 * `if triton.__version__ >= "2.1.0":`, or a name defined again): one in
 * the innermost block that also holds the call. There, a call inside a
 * function looks the name up when it runs, after the block has bound it
 * for the last time: the last definition; a call the block itself makes
 * runs the last one before it. KC_NONE when the name has one definition
 * or no block holds both. */
static uint32_t visible_def(const tt_module *m, uint32_t kn, TSNode call)
{
    const char *name = m->kernels.data[m->knames.data[kn].kernel].name;
    TSNode fn = tt_enclosing_function(call);
    uint32_t best = KC_NONE, ndefs = 0, best_span = UINT32_MAX;
    for (uint32_t i = 0; i < m->kernels.len; i++) {
        const tt_kernel_def *d = &m->kernels.data[i];
        if (strcmp(d->name, name) != 0)
            continue;
        ndefs++;
        TSNode self = ts_node_is_null(d->decorated) ? d->def : d->decorated;
        TSNode blk = ts_node_parent(self);
        if (ts_node_is_null(blk) || !node_holds(blk, call))
            continue;
        bool later = !ts_node_is_null(fn) && node_holds(blk, fn)
                         ? true
                         : ts_node_start_byte(self) < ts_node_start_byte(call);
        uint32_t span = ts_node_end_byte(blk) - ts_node_start_byte(blk);
        if (span < best_span || (span == best_span && later))
            best = i, best_span = span;
    }
    return ndefs > 1 ? best : KC_NONE;
}

static void scan_launches(tt_module *m, const tt_nodes *calls)
{
    for (uint32_t i = 0; i < calls->len; i++) {
        TSNode call = calls->data[i];
        TSNode val = tt_field(tt_field(call, "function"), "value");
        TSNode t[8];
        uint32_t nt = tt_launch_targets(m, val, t, 8);
        uint32_t done[8], nd = 0;
        for (uint32_t k = 0; k < nt; k++) {
            uint32_t kn = target_kname(m, t[k]);
            if (kn == KC_NONE)
                continue;
            uint32_t seen = visible_def(m, kn, call);
            uint32_t kernel = seen != KC_NONE ? seen : m->knames.data[kn].kernel;
            bool dup = false;
            for (uint32_t d = 0; d < nd; d++)
                dup |= done[d] == kernel;
            if (dup)
                continue;
            done[nd++] = kernel;
            if (!tt_scan_launch(m, call, m->kernels.data[kernel].name))
                continue;
            tt_launch *l = &m->launches.data[m->launches.len - 1];
            l->def_plus1 = seen != KC_NONE ? seen + 1 : 0;
            tt_scan_grid(m, l, tt_enclosing_function(call));
        }
    }
}

bool tt_scan_module(tt_module *m)
{
    /* Imports first (anywhere at top level or in try/if blocks), then
     * kernels, then launches. */
    module_scan sc = {.m = m};
    tt_walk(m->root, visit_module, &sc);
    resolve_reexports(m);
    scan_decorated(m, &sc.defs);
    scan_wrapped(m, &sc.plain);
    scan_launches(m, &sc.calls);
    kc_vec_free(&sc.defs);
    kc_vec_free(&sc.plain);
    kc_vec_free(&sc.calls);
    return m->kernels.len > 0;
}

/* ---- launches in other files ---- */

/* Does the qualified name end with "<stem>.<kernel>", the stem a whole
 * dotted component? */
static bool names_kernel_of(const char *q, const char *stem, const char *kernel)
{
    size_t lq = strlen(q), ls = strlen(stem), lk = strlen(kernel);
    if (lq < ls + 1 + lk)
        return false;
    const char *k = q + lq - lk, *s = k - 1 - ls;
    return strcmp(k, kernel) == 0 && k[-1] == '.' && memcmp(s, stem, ls) == 0 && (s == q || s[-1] == '.');
}

typedef struct jit_call_scan {
    tt_module *g;
    const char *stem;
    const char *const *kernels;
    uint32_t nk;
    bool *called;
} jit_call_scan;

/* A call `K(...)` or `mod.K(...)` of one of the kernels, in a jit body. */
static bool visit_jit_call(TSNode n, void *ud)
{
    jit_call_scan *js = ud;
    if (!TT_IS(n, call))
        return true;
    TSNode f = tt_field(n, "function");
    if (!TT_IS(f, identifier) && !TT_IS(f, attribute))
        return true;
    const char *q = tt_qualify(js->g, f);
    const char *last = q ? strrchr(q, '.') : NULL;
    if (!last)
        return true; /* a name defined there, not imported */
    const char *key = last + 1;
    const char *const *hit = bsearch(&key, js->kernels, js->nk, sizeof *js->kernels, kc_strptr_cmp);
    if (hit && names_kernel_of(q, js->stem, *hit))
        js->called[hit - js->kernels] = true;
    return true;
}

void tt_scan_peer_launches(tt_module *g, const char *stem, const char *const *kernels, uint32_t nk, bool *jit_called)
{
    module_scan sc = {.m = g};
    tt_walk(g->root, visit_module, &sc);
    jit_call_scan js = {g, stem, kernels, nk, jit_called};
    for (uint32_t i = 0; i < sc.defs.len; i++)
        if (decorated_with_jit(g, sc.defs.data[i]))
            tt_walk(sc.defs.data[i], visit_jit_call, &js);
    for (uint32_t i = 0; i < sc.calls.len; i++) {
        TSNode call = sc.calls.data[i];
        TSNode val = tt_field(tt_field(call, "function"), "value");
        TSNode t[8];
        uint32_t nt = tt_launch_targets(g, val, t, 8);
        const char *done[8];
        uint32_t nd = 0;
        for (uint32_t k = 0; k < nt; k++) {
            const char *q = tt_qualify(g, t[k]);
            const char *last = q ? strrchr(q, '.') : NULL;
            if (!last)
                continue; /* a name defined here, not imported */
            /* kernels is sorted: find the kernel by the name's last part */
            const char *key = last + 1;
            const char *const *hit = bsearch(&key, kernels, nk, sizeof *kernels, kc_strptr_cmp);
            if (!hit || !names_kernel_of(q, stem, *hit))
                continue;
            bool dup = false;
            for (uint32_t d = 0; d < nd; d++)
                dup |= done[d] == *hit;
            if (!dup) {
                done[nd++] = *hit;
                if (tt_scan_launch(g, call, *hit))
                    tt_scan_grid(g, &g->launches.data[g->launches.len - 1], tt_enclosing_function(call));
            }
        }
    }
    kc_vec_free(&sc.defs);
    kc_vec_free(&sc.plain);
    kc_vec_free(&sc.calls);
}

/* Is `name` supplied by the kernel's decorators: a key of the dict of a
 * `@triton.heuristics({...})`, or a parameter its autotune configs set? */
bool tt_decorator_supplies(tt_module *mod, const tt_kernel_def *def, const char *name)
{
    if (def->heuristics && !ts_node_is_null(def->decorated)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(def->decorated); i++) {
            TSNode d = ts_node_named_child(def->decorated, i);
            if (!TT_IS(d, decorator) || ts_node_named_child_count(d) == 0)
                continue;
            TSNode call = tt_unparen(ts_node_named_child(d, 0));
            if (!TT_IS(call, call))
                continue;
            const char *q = tt_qualify(mod, tt_field(call, "function"));
            TSNode args = tt_field(call, "arguments");
            if (!q || strcmp(q, "triton.heuristics") || ts_node_named_child_count(args) == 0)
                continue;
            TSNode dict = tt_unparen(ts_node_named_child(args, 0));
            if (TT_IS(dict, keyword_argument))
                dict = tt_unparen(tt_field(dict, "value"));
            for (uint32_t j = 0; TT_IS(dict, dictionary) && j < ts_node_named_child_count(dict); j++) {
                TSNode pair = ts_node_named_child(dict, j);
                TSNode key = TT_IS(pair, pair) ? tt_field(pair, "key") : pair;
                const char *kt = TT_IS(key, string) ? tt_text(mod, key) : NULL;
                size_t n = strlen(name);
                if (kt && strlen(kt) == n + 2 && !strncmp(kt + 1, name, n))
                    return true;
            }
        }
    }
    if (def->autotuned) {
        uint32_t lo, hi;
        const uint32_t *ix = tt_launches_of(mod, false, def->name, &lo, &hi);
        for (uint32_t l = lo; l < hi; l++) {
            const tt_launch *ln = &mod->launches.data[ix[l]];
            for (uint32_t a = 0; ln->from_autotune && tt_launch_of_def(mod, ln, def) && a < ln->args.len; a++)
                if (ln->args.data[a].param && !strcmp(ln->args.data[a].param, name))
                    return true;
        }
    }
    return false;
}
