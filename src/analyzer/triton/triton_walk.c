/* triton_walk.c — the Triton front end's node helpers and what the module
 * scan (triton_module.c) is built from: imports, assignments and autotune
 * configs. The bottom of the front end: it calls no other file of it. */
#define _GNU_SOURCE 1 /* qsort_r */
#include "triton_internal.h"

#include <stdlib.h>
#include <string.h>

#define TT_MAX_CONFIGS 256

/* Does the peer path name the module `from` (as written, leading dots
 * kept: only its tail is compared; the engine resolved it)? */
bool tt_path_is_module(const char *path, const char *from)
{
    while (*from == '.')
        from++;
    char rel[512];
    size_t n = strlen(from);
    if (n + 16 > sizeof rel)
        return false;
    for (size_t i = 0; i <= n; i++)
        rel[i] = from[i] == '.' ? '/' : from[i];
    char a[540], b[540];
    snprintf(a, sizeof a, "/%s.py", rel);
    snprintf(b, sizeof b, "/%s%s__init__.py", rel, n ? "/" : "");
    size_t pl = strlen(path), al = strlen(a), bl = strlen(b);
    return (*rel && pl >= al && strcmp(path + pl - al, a) == 0) || (pl >= bl && strcmp(path + pl - bl, b) == 0);
}

/* ---- node helpers ---- */

bool tt_is(TSNode n, const char *type)
{
    if (ts_node_is_null(n))
        return false;
    const char *t = ts_node_type(n);
    return t[0] == type[0] && strcmp(t, type) == 0;
}

/* The grammar's fields, sorted by name (generated from its parser.c). */
static const struct tt_field_entry {
    const char *name;
    TSFieldId id;
} tt_fields[] = {
#include "kc_ts_python_fields.inc"
};

static int field_cmp(const void *key, const void *entry)
{
    return strcmp(key, ((const struct tt_field_entry *)entry)->name);
}

TSFieldId tt_field_id(const char *field)
{
    const struct tt_field_entry *e =
        bsearch(field, tt_fields, sizeof tt_fields / sizeof tt_fields[0], sizeof tt_fields[0], field_cmp);
    return e ? e->id : 0;
}

TSNode tt_field(TSNode n, const char *field)
{
    TSFieldId id = tt_field_id(field);
    if (!id) {
        TSNode null = {0};
        return null;
    }
    return ts_node_child_by_field_id(n, id);
}

const char *tt_one_line(kc_arena *a, const char *t, size_t max)
{
    size_t n = strlen(t), k = 0, i = 0;
    size_t cut = max < 3 ? max : max - 3;
    char *o = kc_arena_alloc(a, n + 4);
    bool sp = false;
    for (; i < n && (max == SIZE_MAX || k < cut); i++) {
        bool w = t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t';
        if (w && (sp || k == 0))
            continue;
        sp = w;
        o[k++] = w ? ' ' : t[i];
    }
    if (i < n) {
        memcpy(o + k, "...", 3);
        k += 3;
    }
    o[k] = '\0';
    return o;
}

bool tt_param_parts(TSNode p, TSNode *name, TSNode *type, TSNode *def)
{
    TSNode null = {0};
    *name = *type = *def = null;
    if (TT_IS(p, identifier)) {
        *name = p;
    } else if (TT_IS(p, typed_parameter)) {
        *name = ts_node_named_child(p, 0);
        *type = tt_field(p, "type");
    } else if (TT_IS(p, default_parameter) || TT_IS(p, typed_default_parameter)) {
        *name = tt_field(p, "name");
        *type = tt_field(p, "type");
        *def = tt_field(p, "value");
    }
    return TT_IS(*name, identifier);
}

const char *tt_text(tt_module *m, TSNode n)
{
    if (ts_node_is_null(n))
        return "";
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b > m->src->len)
        b = (uint32_t)m->src->len;
    if (a > b)
        a = b;
    return kc_arena_strndup(m->arena, m->src->text + a, b - a);
}

bool tt_text_eq(tt_module *m, TSNode n, const char *s)
{
    if (ts_node_is_null(n))
        return false;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    size_t l = strlen(s);
    return b - a == l && b <= m->src->len && memcmp(m->src->text + a, s, l) == 0;
}

kc_span tt_span(TSNode n)
{
    if (ts_node_is_null(n)) /* an argument the call left out */
        return (kc_span){0, 0, 0, 0};
    TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
    kc_span s = {a.row + 1, a.column + 1, b.row + 1, b.column + 1};
    return s;
}

uint32_t tt_field_children(TSNode n, const char *field, TSNode *out, uint32_t max)
{
    uint32_t k = 0;
    TSTreeCursor cur = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cur)) {
        do {
            const char *f = ts_tree_cursor_current_field_name(&cur);
            if (f && strcmp(f, field) == 0) {
                if (k < max)
                    out[k] = ts_tree_cursor_current_node(&cur);
                k++;
            }
        } while (ts_tree_cursor_goto_next_sibling(&cur));
    }
    ts_tree_cursor_delete(&cur);
    return k;
}

void tt_walk(TSNode root, tt_visit_fn visit, void *ud)
{
    if (ts_node_is_null(root))
        return;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (;;) {
        bool down = visit(ts_tree_cursor_current_node(&cur), ud);
        if (down && ts_tree_cursor_goto_first_child(&cur))
            continue;
        if (ts_tree_cursor_goto_next_sibling(&cur))
            continue;
        bool more = false;
        while (ts_tree_cursor_goto_parent(&cur))
            if (ts_tree_cursor_goto_next_sibling(&cur)) {
                more = true;
                break;
            }
        if (!more)
            break;
    }
    ts_tree_cursor_delete(&cur);
}

TSNode tt_unparen(TSNode n)
{
    for (int i = 0; i < 64 && TT_IS(n, parenthesized_expression); i++) {
        if (ts_node_named_child_count(n) != 1)
            break;
        n = ts_node_named_child(n, 0);
    }
    return n;
}

static const char *alias_lookup(tt_module *m, const char *name, size_t len)
{
    for (uint32_t i = m->aliases.len; i-- > 0;) {
        const tt_alias *a = &m->aliases.data[i];
        if (strlen(a->local) == len && memcmp(a->local, name, len) == 0)
            return a->qualified;
    }
    return NULL;
}

/* Builds the dotted name into sb; false when the expression is not one. */
static bool dotted(tt_module *m, TSNode n, kc_strbuf *sb, int depth)
{
    if (depth > 32)
        return false;
    n = tt_unparen(n);
    if (TT_IS(n, identifier)) {
        uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
        const char *q = alias_lookup(m, m->src->text + a, b - a);
        if (q)
            kc_sb_append(sb, q);
        else
            kc_sb_appendn(sb, m->src->text + a, b - a);
        return true;
    }
    if (TT_IS(n, attribute)) {
        if (!dotted(m, tt_field(n, "object"), sb, depth + 1))
            return false;
        kc_sb_putc(sb, '.');
        TSNode at = tt_field(n, "attribute");
        uint32_t a = ts_node_start_byte(at), b = ts_node_end_byte(at);
        kc_sb_appendn(sb, m->src->text + a, b - a);
        return true;
    }
    return false;
}

const char *tt_qualify(tt_module *m, TSNode n)
{
    kc_strbuf sb = {0};
    const char *r = NULL;
    if (dotted(m, n, &sb, 0))
        r = kc_arena_strdup(m->arena, kc_sb_str(&sb));
    kc_sb_free(&sb);
    return r;
}

const char *tt_tl_name(const char *q)
{
    static const char pfx[] = "triton.language.";
    if (!q)
        return NULL;
    if (strncmp(q, pfx, sizeof pfx - 1) == 0)
        return q + sizeof pfx - 1;
    return NULL;
}

bool tt_int_literal(tt_module *m, TSNode n, int64_t *v)
{
    n = tt_unparen(n);
    bool neg = false;
    if (TT_IS(n, unary_operator)) {
        TSNode op = tt_field(n, "operator");
        if (!tt_is(op, "-") && !tt_is(op, "+"))
            return false;
        neg = tt_is(op, "-");
        n = tt_unparen(tt_field(n, "argument"));
    }
    if (!TT_IS(n, integer))
        return false;
    const char *t = tt_text(m, n);
    char buf[64];
    size_t k = 0;
    for (const char *p = t; *p && k < sizeof buf - 1; p++)
        if (*p != '_')
            buf[k++] = *p;
    buf[k] = '\0';
    char *end;
    long long x = strtoll(buf, &end, 0);
    if (*end && !(end[0] == 'l' || end[0] == 'L'))
        return false;
    *v = neg ? -(int64_t)x : (int64_t)x;
    return true;
}

/* ---- imports ---- */

static void add_alias(tt_module *m, const char *local, const char *qualified, const char *from, const char *name)
{
    tt_alias a = {kc_arena_strdup(m->arena, local), kc_arena_strdup(m->arena, qualified), from, name, 0};
    kc_vec_push(&m->aliases, a);
    if (strncmp(qualified, "triton", 6) == 0 && (qualified[6] == '\0' || qualified[6] == '.'))
        m->imports_triton = true;
}

void tt_scan_import(tt_module *m, TSNode st)
{
    bool from = TT_IS(st, import_from_statement);
    const char *module = NULL;
    if (from) {
        /* A relative module keeps its dots (".kernels"): never triton, but
         * the launches of another file's kernels are found through it. */
        TSNode mn = tt_field(st, "module_name");
        if (!TT_IS(mn, dotted_name) && !TT_IS(mn, relative_import))
            return;
        module = tt_text(m, mn);
    }
    TSNode names[64];
    uint32_t n = tt_field_children(st, "name", names, 64);
    if (n > 64)
        n = 64;
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = names[i];
        const char *name, *alias = NULL;
        if (TT_IS(c, aliased_import)) {
            name = tt_text(m, tt_field(c, "name"));
            alias = tt_text(m, tt_field(c, "alias"));
        } else {
            name = tt_text(m, c);
        }
        if (from) {
            char *q = kc_xasprintf("%s.%s", module, name);
            add_alias(m, alias ? alias : name, q, module, name);
            free(q);
        } else if (alias) {
            add_alias(m, alias, name, NULL, NULL);
        } else {
            /* `import triton.language` binds `triton`. */
            const char *dot = strchr(name, '.');
            char *first = dot ? kc_xstrndup(name, (size_t)(dot - name)) : kc_xstrdup(name);
            add_alias(m, first, first, NULL, NULL);
            free(first);
        }
    }
}

/* ---- host-side values ---- */

/* Collects the assignments under a scope, in source order, outside the
 * functions and classes defined in it. */
typedef struct assign_collect {
    tt_module *m;
    TSNode scope;
    tt_assign_index *ix;
} assign_collect;

bool tt_starts_with_splat(tt_module *m, TSNode seq)
{
    /* `*x.shape, g`: a list_splat, or (as tree-sitter-python 0.23 parses an
     * assignment's right side) a `*` just before the list's span */
    if (ts_node_child_count(seq) == 0)
        return false;
    TSNode c = ts_node_child(seq, 0);
    if (TT_IS(c, list_splat))
        return true;
    uint32_t at = ts_node_start_byte(seq);
    while (at > 0 && at <= m->src->len && (m->src->text[at - 1] == ' ' || m->src->text[at - 1] == '\t'))
        at--;
    return (at > 0 && at <= m->src->len && m->src->text[at - 1] == '*') ||
           (at < m->src->len && m->src->text[ts_node_start_byte(seq)] == '*');
}

static bool collect_assignment(TSNode n, void *ud)
{
    assign_collect *ac = ud;
    tt_module *m = ac->m;
    if (!ts_node_eq(n, ac->scope) && (TT_IS(n, function_definition) || TT_IS(n, class_definition)))
        return false;
    if (TT_IS(n, augmented_assignment)) {
        /* `N *= shape[i]`: from here on the name's value is not what its
         * last assignment says (a binding with no right side) */
        TSNode l = tt_field(n, "left");
        if (TT_IS(l, identifier)) {
            tt_assign a = {.left = tt_text(m, l), .start = ts_node_start_byte(n), .elem = -1, .whole = true,
                           .ident = true};
            kc_vec_push(&ac->ix->items, a);
        }
        return true;
    }
    if (!TT_IS(n, assignment))
        return true;
    TSNode l = tt_field(n, "left"), r = tt_field(n, "right");
    if (ts_node_is_null(l))
        return true;
    /* `m = n = k = 64`: every name gets the last right side (the nested
     * assignments are indexed too, as the walk goes on into them) */
    for (int i = 0; i < 64 && TT_IS(r, assignment) && !ts_node_is_null(tt_field(r, "right")); i++)
        r = tt_field(r, "right");
    tt_assign a = {.left = tt_text(m, l), .start = ts_node_start_byte(n), .right = r, .elem = -1, .whole = true,
                   .ident = TT_IS(l, identifier)};
    kc_vec_push(&ac->ix->items, a);
    if (TT_IS(l, pattern_list) || TT_IS(l, tuple_pattern)) {
        uint32_t k = ts_node_named_child_count(l);
        bool seq = TT_IS(r, expression_list) || TT_IS(r, tuple);
        for (uint32_t i = 0; i < k; i++) {
            tt_assign e = {.left = tt_text(m, ts_node_named_child(l, i)), .start = a.start};
            if (seq && k == ts_node_named_child_count(r)) {
                e.right = ts_node_named_child(r, i);
                e.elem = -1;
            } else if (!seq || tt_starts_with_splat(m, r)) {
                e.right = r; /* M, N = x.shape; T, D, G = *x.shape, groups */
                e.elem = (int)i;
            } else {
                continue;
            }
            kc_vec_push(&ac->ix->items, e);
        }
    }
    return true;
}

static uint32_t scope_hash(TSNode n)
{
    uint64_t h = (uint64_t)(uintptr_t)n.id * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32);
}

/* The slot that holds `scope`, or the empty slot where it would go. */
static uint32_t *scope_slot(tt_module *m, TSNode scope)
{
    uint32_t mask = m->assign_nslots - 1;
    for (uint32_t i = scope_hash(scope) & mask;; i = (i + 1) & mask) {
        uint32_t *s = &m->assign_slots[i];
        if (!*s || ts_node_eq(m->assign_indexes.data[*s - 1]->scope, scope))
            return s;
    }
}

static void add_scope(tt_module *m, tt_assign_index *ix)
{
    kc_vec_push(&m->assign_indexes, ix);
    if (2 * m->assign_indexes.len > m->assign_nslots) {
        free(m->assign_slots);
        m->assign_nslots = m->assign_nslots ? 2 * m->assign_nslots : 64;
        m->assign_slots = kc_xcalloc(m->assign_nslots, sizeof *m->assign_slots);
        for (uint32_t i = 0; i < m->assign_indexes.len; i++)
            *scope_slot(m, m->assign_indexes.data[i]->scope) = i + 1;
    } else {
        *scope_slot(m, ix->scope) = m->assign_indexes.len;
    }
}

const tt_assign_index *tt_assignments(tt_module *m, TSNode scope)
{
    /* Code outside any function (a launch under `if __name__ ==
     * "__main__":`) has no enclosing function: its scope is the module. */
    if (ts_node_is_null(scope))
        scope = m->root;
    if (m->assign_nslots) {
        uint32_t *s = scope_slot(m, scope);
        if (*s)
            return m->assign_indexes.data[*s - 1];
    }
    tt_assign_index *ix = kc_xcalloc(1, sizeof *ix);
    ix->scope = scope;
    assign_collect ac = {.m = m, .scope = scope, .ix = ix};
    tt_walk(scope, collect_assignment, &ac);
    /* by name, then in source order (the index breaks ties) */
    uint32_t n = ix->items.len;
    kc_name_index *tmp = kc_xcalloc(n ? n : 1, sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = (kc_name_index){ix->items.data[i].left, i};
    if (n > 1)
        qsort(tmp, n, sizeof *tmp, kc_name_index_cmp);
    ix->by_name = kc_xcalloc(n ? n : 1, sizeof *ix->by_name);
    for (uint32_t i = 0; i < n; i++)
        ix->by_name[i] = tmp[i].index;
    free(tmp);
    add_scope(m, ix);
    return ix;
}

void tt_assign_range(const tt_assign_index *ix, const char *name, uint32_t *lo, uint32_t *hi)
{
    uint32_t a = 0, b = ix->items.len;
    while (a < b) { /* first with left >= name */
        uint32_t mid = a + (b - a) / 2;
        if (strcmp(ix->items.data[ix->by_name[mid]].left, name) < 0)
            a = mid + 1;
        else
            b = mid;
    }
    *lo = a;
    b = ix->items.len;
    while (a < b) { /* first with left > name */
        uint32_t mid = a + (b - a) / 2;
        if (strcmp(ix->items.data[ix->by_name[mid]].left, name) <= 0)
            a = mid + 1;
        else
            b = mid;
    }
    *hi = a;
}

/* The innermost branch of an `if` that holds `n` (its block, and the
 * `if` statement in *stmt), below `scope`; null if none. */
static TSNode if_branch(TSNode n, TSNode scope, TSNode *stmt)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, scope); p = ts_node_parent(p)) {
        if (!TT_IS(p, block))
            continue;
        TSNode q = ts_node_parent(p);
        if (TT_IS(q, elif_clause) || TT_IS(q, else_clause))
            q = ts_node_parent(q);
        if (TT_IS(q, if_statement)) {
            *stmt = q;
            return p;
        }
    }
    TSNode null = {0};
    return null;
}

static bool node_within(TSNode n, TSNode outer)
{
    return ts_node_start_byte(outer) <= ts_node_start_byte(n) && ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* Do two branches of one `if` that ends before byte `at` assign the name
 * a constant and something else (`if c: s = x.stride(0)` / `else: s =
 * 0`)? Then the last one in the text is not the value at `at`. */
static bool set_on_two_branches(tt_module *m, const tt_assign_index *ix, uint32_t lo, uint32_t hi, TSNode best,
                                TSNode scope, uint32_t at)
{
    TSNode stmt = {0};
    TSNode branch = if_branch(best, scope, &stmt);
    if (ts_node_is_null(branch) || ts_node_end_byte(stmt) > at)
        return false;
    int64_t x, y;
    bool cy = tt_int_literal(m, tt_unparen(best), &y);
    for (uint32_t i = lo; i < hi; i++) {
        const tt_assign *a = &ix->items.data[ix->by_name[i]];
        if (a->start >= at)
            break;
        if (ts_node_is_null(a->right) || !node_within(a->right, stmt) || node_within(a->right, branch))
            continue;
        /* A constant on one branch and something else on the other (a
         * stride, or 0 for a scalar), or two constants: the constant is no
         * more the value than the other. (Two expressions, `out.stride(0)`
         * / `out.stride(1)` for 2-D and 3-D outputs, keep the last one: the
         * same kind of value.) */
        bool cx = tt_int_literal(m, tt_unparen(a->right), &x);
        if (cx != cy || (cx && x != y))
            return true;
    }
    return false;
}

/* Does the expression `e` use the identifier `name` (within `depth`
 * levels; deeper counts as yes)? */
static bool names_within(tt_module *m, TSNode e, const char *name, unsigned depth)
{
    if (TT_IS(e, identifier))
        return tt_text_eq(m, e, name);
    if (depth == 0)
        return true;
    uint32_t n = ts_node_named_child_count(e);
    for (uint32_t i = 0; i < n; i++)
        if (names_within(m, ts_node_named_child(e, i), name, depth - 1))
            return true;
    return false;
}

static bool names_itself(tt_module *m, TSNode e, const char *name) { return names_within(m, e, name, 64); }

/* Finds the last assignment `name = ...` (or a tuple element of one) in
 * `scope` that starts before `before`. Returns the right-hand node; *elem is the element index when
 * the right side is unpacked (M, N = x.shape). */
static TSNode find_assignment_at(tt_module *m, TSNode scope, const char *name, uint32_t before, int *elem)
{
    if (ts_node_is_null(scope))
        scope = m->root;
    const tt_assign_index *ix = tt_assignments(m, scope);
    TSNode best = {0};
    *elem = -1;
    uint32_t lo, hi;
    tt_assign_range(ix, name, &lo, &hi);
    for (uint32_t i = lo; i < hi; i++) {
        const tt_assign *a = &ix->items.data[ix->by_name[i]];
        if (a->start >= before)
            break;
        if (a->whole && !a->ident)
            continue;
        best = a->right;
        *elem = a->elem;
    }
    /* `if c: s = x.stride(0)` / `else: s = 0`, then a use after both:
     * the last one written is not the value. (A branch that refines the
     * name itself, `x = x.contiguous()`, still leads back to it.) */
    if (!ts_node_is_null(best) && !names_itself(m, best, name) && set_on_two_branches(m, ix, lo, hi, best, scope, before)) {
        TSNode null = {0};
        *elem = -1;
        return null;
    }
    return best;
}

TSNode tt_find_assignment(tt_module *m, TSNode scope, const char *name, uint32_t before)
{
    int elem;
    TSNode r = find_assignment_at(m, scope, name, before, &elem);
    if (elem >= 0) {
        TSNode null = {0};
        return null;
    }
    return r;
}

TSNode tt_find_binding(tt_module *m, TSNode scope, const char *name, uint32_t before, int *elem)
{
    return find_assignment_at(m, scope, name, before, elem);
}

TSNode tt_enclosing_function(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (TT_IS(p, function_definition))
            return p;
    TSNode null = {0};
    return null;
}

bool tt_method_call(tt_module *m, TSNode n, const char *const *methods, TSNode *object, TSNode *args)
{
    n = tt_unparen(n);
    if (!TT_IS(n, call))
        return false;
    TSNode f = tt_field(n, "function");
    if (!TT_IS(f, attribute))
        return false;
    TSNode attr = tt_field(f, "attribute");
    for (unsigned i = 0; methods[i]; i++)
        if (tt_text_eq(m, attr, methods[i])) {
            *object = tt_field(f, "object");
            *args = tt_field(n, "arguments");
            return true;
        }
    return false;
}


/* ---- autotune configs ---- */

typedef struct comp_var {
    const char *name;
    KC_VEC(int64_t) values;
} comp_var;

/* Adds one launch-like binding set per triton.Config(...) call found in
 * `list` (a list literal or a comprehension over literal lists). */
static void add_config(tt_module *m, const char *kernel, TSNode cfg, const comp_var *vars,
                       const uint32_t *choice, uint32_t nvars)
{
    if (!TT_IS(cfg, call))
        return;
    const char *q = tt_qualify(m, tt_field(cfg, "function"));
    if (!q || strcmp(q, "triton.Config") != 0)
        return;
    TSNode args = tt_field(cfg, "arguments");
    TSNode dict = {0};
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, dictionary) && ts_node_is_null(dict))
            dict = a;
        else if (TT_IS(a, keyword_argument) && tt_text_eq(m, tt_field(a, "name"), "kwargs"))
            dict = tt_field(a, "value");
    }
    if (!TT_IS(dict, dictionary))
        return;
    tt_launch l = {0};
    l.kernel = kernel;
    l.call = cfg;
    l.line = ts_node_start_point(cfg).row + 1;
    l.from_autotune = true;
    uint32_t np = ts_node_named_child_count(dict);
    for (uint32_t i = 0; i < np; i++) {
        TSNode p = ts_node_named_child(dict, i);
        if (!TT_IS(p, pair))
            continue;
        TSNode key = tt_field(p, "key"), val = tt_unparen(tt_field(p, "value"));
        if (!TT_IS(key, string))
            continue;
        const char *kt = tt_text(m, key);
        size_t kl = strlen(kt);
        if (kl < 2)
            continue;
        tt_binding b = {0};
        b.position = UINT32_MAX;
        b.param = kc_arena_strndup(m->arena, kt + 1, kl - 2);
        b.v.text = tt_text(m, val);
        int64_t iv;
        if (tt_int_literal(m, val, &iv)) {
            b.v.kind = TT_HOST_INT;
            b.v.value = iv;
        } else if (TT_IS(val, identifier)) {
            for (uint32_t k = 0; k < nvars; k++)
                if (tt_text_eq(m, val, vars[k].name)) {
                    b.v.kind = TT_HOST_INT;
                    b.v.value = vars[k].values.data[choice[k]];
                }
        }
        kc_vec_push(&l.args, b);
    }
    kc_vec_push(&m->launches, l);
}

static void literal_ints(tt_module *m, TSNode list, comp_var *v)
{
    list = tt_unparen(list);
    if (TT_IS(list, call)) {
        /* range(a, b[, c]) with literal arguments */
        TSNode f = tt_field(list, "function");
        TSNode args = tt_field(list, "arguments");
        int64_t r[3] = {0, 0, 1};
        uint32_t n = ts_node_named_child_count(args);
        if (!tt_text_eq(m, f, "range") || n < 1 || n > 3)
            return;
        int64_t a[3];
        for (uint32_t i = 0; i < n; i++)
            if (!tt_int_literal(m, ts_node_named_child(args, i), &a[i]))
                return;
        if (n == 1)
            r[1] = a[0];
        else {
            r[0] = a[0];
            r[1] = a[1];
            if (n == 3)
                r[2] = a[2];
        }
        if (r[2] <= 0)
            return;
        for (int64_t x = r[0]; x < r[1] && v->values.len < 64; x += r[2])
            kc_vec_push(&v->values, x);
        return;
    }
    if (!TT_IS(list, list) && !TT_IS(list, tuple))
        return;
    uint32_t n = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < n; i++) {
        int64_t x;
        if (tt_int_literal(m, ts_node_named_child(list, i), &x))
            kc_vec_push(&v->values, x);
    }
}

void tt_scan_configs(tt_module *m, const char *kernel, TSNode list, int depth)
{
    list = tt_unparen(list);
    if (depth > 4)
        return;
    if (TT_IS(list, identifier)) {
        TSNode r = tt_find_assignment(m, m->root, tt_text(m, list), ts_node_start_byte(list));
        if (!ts_node_is_null(r))
            tt_scan_configs(m, kernel, r, depth + 1);
        return;
    }
    if (TT_IS(list, binary_operator)) { /* configs_a + configs_b */
        tt_scan_configs(m, kernel, tt_field(list, "left"), depth + 1);
        tt_scan_configs(m, kernel, tt_field(list, "right"), depth + 1);
        return;
    }
    if (TT_IS(list, list)) {
        uint32_t n = ts_node_named_child_count(list);
        for (uint32_t i = 0; i < n && m->launches.len < 4096; i++)
            add_config(m, kernel, tt_unparen(ts_node_named_child(list, i)), NULL, NULL, 0);
        return;
    }
    if (TT_IS(list, list_comprehension)) {
        comp_var vars[8];
        uint32_t nv = 0;
        uint32_t n = ts_node_named_child_count(list);
        for (uint32_t i = 0; i < n && nv < 8; i++) {
            TSNode c = ts_node_named_child(list, i);
            if (!TT_IS(c, for_in_clause))
                continue;
            TSNode left = tt_field(c, "left");
            if (!TT_IS(left, identifier))
                return;
            memset(&vars[nv], 0, sizeof vars[nv]);
            vars[nv].name = tt_text(m, left);
            literal_ints(m, tt_field(c, "right"), &vars[nv]);
            if (!vars[nv].values.len) {
                kc_vec_free(&vars[nv].values);
                for (uint32_t k = 0; k < nv; k++)
                    kc_vec_free(&vars[k].values);
                return;
            }
            nv++;
        }
        uint32_t choice[8] = {0};
        for (uint32_t count = 0; count < TT_MAX_CONFIGS; count++) {
            add_config(m, kernel, tt_unparen(tt_field(list, "body")), vars, choice, nv);
            uint32_t k = 0;
            while (k < nv && ++choice[k] == vars[k].values.len)
                choice[k++] = 0;
            if (k == nv)
                break;
        }
        for (uint32_t k = 0; k < nv; k++)
            kc_vec_free(&vars[k].values);
    }
}

static int cmp_launch_ix(const void *a, const void *b, void *ud)
{
    const tt_launch *l = ud;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(l[x].kernel, l[y].kernel);
    return c ? c : (x > y) - (x < y);
}

const uint32_t *tt_launches_of(tt_module *m, bool peer, const char *kernel, uint32_t *lo, uint32_t *hi)
{
    const tt_launch *list = peer ? m->peer_launches.data : m->launches.data;
    uint32_t n = peer ? m->peer_launches.len : m->launches.len;
    uint32_t **ixp = peer ? &m->peer_ix : &m->launch_ix;
    *lo = *hi = 0;
    if (n == 0)
        return NULL;
    if (!*ixp) {
        *ixp = kc_xcalloc(n, sizeof **ixp);
        for (uint32_t i = 0; i < n; i++)
            (*ixp)[i] = i;
        qsort_r(*ixp, n, sizeof **ixp, cmp_launch_ix, (void *)list);
    }
    const uint32_t *ix = *ixp;
    uint32_t a = 0, b = n;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (strcmp(list[ix[mid]].kernel, kernel) < 0)
            a = mid + 1;
        else
            b = mid;
    }
    uint32_t e = a;
    while (e < n && strcmp(list[ix[e]].kernel, kernel) == 0)
        e++;
    *lo = a;
    *hi = e;
    return ix;
}

bool tt_launch_of_def(const tt_module *m, const tt_launch *l, const tt_kernel_def *def)
{
    return !l->def_plus1 || (l->def_plus1 <= m->kernels.len && &m->kernels.data[l->def_plus1 - 1] == def);
}

void tt_module_free(tt_module *m)
{
    free(m->launch_ix);
    free(m->peer_ix);
    for (uint32_t i = 0; i < m->assign_indexes.len; i++) {
        kc_vec_free(&m->assign_indexes.data[i]->items);
        free(m->assign_indexes.data[i]->by_name);
        free(m->assign_indexes.data[i]);
    }
    kc_vec_free(&m->assign_indexes);
    free(m->assign_slots);
    kc_vec_free(&m->aliases);
    kc_vec_free(&m->kernels);
    kc_vec_free(&m->knames);
    for (uint32_t i = 0; i < m->launches.len; i++)
        kc_vec_free(&m->launches.data[i].args);
    kc_vec_free(&m->launches);
    for (uint32_t i = 0; i < m->peer_launches.len; i++)
        kc_vec_free(&m->peer_launches.data[i].args);
    kc_vec_free(&m->peer_launches);
    kc_vec_free(&m->host_calls);
    kc_vec_free(&m->jit_uses);
}

/* Only `return a, *b` statements the grammar rejects (triton_internal.h). */
bool tt_star_returns_only(const kc_source *src, TSNode n, uint32_t *lines, uint32_t *cols, uint32_t *nlines,
                                 uint32_t max, int depth)
{
    if (!ts_node_has_error(n))
        return true;
    if (depth > 10000 || ts_node_is_missing(n))
        return false;
    if (tt_is(n, "ERROR")) {
        TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
        if (a.row != b.row || *nlines >= max)
            return false;
        /* the line, from its first non-blank character */
        uint32_t lo = ts_node_start_byte(n);
        while (lo > 0 && src->text[lo - 1] != '\n')
            lo--;
        while (lo < src->len && (src->text[lo] == ' ' || src->text[lo] == '\t'))
            lo++;
        uint32_t hi = ts_node_end_byte(n);
        bool kw = (hi - lo > 7 && !strncmp(src->text + lo, "return ", 7)) ||
                  (hi - lo > 6 && !strncmp(src->text + lo, "yield ", 6));
        if (!kw || !memmem(src->text + lo, hi - lo, ", *", 3))
            return false;
        cols[*nlines] = lo - (ts_node_start_byte(n) - a.column) + 1; /* the keyword's column */
        lines[(*nlines)++] = a.row + 1;
        return true;
    }
    uint32_t cnt = ts_node_child_count(n);
    for (uint32_t i = 0; i < cnt; i++)
        if (!tt_star_returns_only(src, ts_node_child(n, i), lines, cols, nlines, max, depth + 1))
            return false;
    return true;
}

/* Where a name used at `n` was last bound: before the assignment that
 * holds the use (`a = a.contiguous()` reads the earlier `a`). */
uint32_t tt_use_point(TSNode n)
{
    uint32_t at = ts_node_start_byte(n);
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !TT_IS(p, block) && !TT_IS(p, module);
         p = ts_node_parent(p))
        if (TT_IS(p, assignment) || TT_IS(p, augmented_assignment))
            at = ts_node_start_byte(p);
    return at;
}

/* The last binding of the name `n` before its use: in `scope`, then at module level. */
TSNode tt_grid_binding(tt_module *m, TSNode scope, TSNode n, int *elem)
{
    const char *name = tt_text(m, n);
    uint32_t before = tt_use_point(n);
    TSNode r = {0};
    *elem = -1;
    if (!ts_node_is_null(scope))
        r = tt_find_binding(m, scope, name, before, elem);
    if (ts_node_is_null(r))
        r = tt_find_binding(m, m->root, name, before, elem);
    return r;
}

uint32_t tt_positional(TSNode args, TSNode *pos, uint32_t npos)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (TT_IS(a, comment) || TT_IS(a, keyword_argument))
            continue;
        if (TT_IS(a, list_splat) || TT_IS(a, dictionary_splat))
            return 0;
        if (n < npos)
            pos[n] = a;
        n++;
    }
    return n;
}
