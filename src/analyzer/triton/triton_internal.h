/* triton_internal.h — shared by the two files of the Triton front end
 * (triton_walk.c: module scan; frontend_triton.c: kernel interpretation).
 * Only these files see tree-sitter. */
#ifndef KC_TRITON_INTERNAL_H
#define KC_TRITON_INTERNAL_H

#include <tree_sitter/api.h>

#include "kc_triton_frontend.h"

const TSLanguage *tree_sitter_python(void);

#define TT_MAX_DEPTH 400 /* expression/statement nesting we interpret */

/* An import alias: local name -> qualified prefix ("tl" -> "triton.language"). */
typedef struct tt_alias {
    const char *local;
    const char *qualified;
} tt_alias;

/* A value a host-side name or a call-site argument is known to have. */
typedef enum tt_host_kind {
    TT_HOST_UNKNOWN = 0,
    TT_HOST_INT,    /* an integer constant */
    TT_HOST_SHAPE,  /* a tensor extent: x.shape[i], x.size(i), x.numel(), len(x) */
    TT_HOST_STRIDE, /* x.stride(i) */
} tt_host_kind;

typedef struct tt_host_value {
    tt_host_kind kind;
    int64_t value;       /* TT_HOST_INT; TT_HOST_STRIDE: the dimension (-1 = last) */
    const char *tensor;  /* TT_HOST_SHAPE / STRIDE: the tensor expression */
    const char *text;    /* the argument as written */
    const char *origin;  /* the expression it resolved to, when it is another one */
    /* TT_HOST_STRIDE, from the other strides the same launch passes for the
     * tensor: +1 the innermost (the highest dimension passed, or -1), -1 an
     * outer one (a higher dimension is passed too), 0 unknown (only
     * x.stride(0): the tensor may be 1-D). */
    int stride_rank_hint;
    /* `triton.next_power_of_2(x)`, or `max()` of it and other values: at
     * least x, whose text this is (NULL otherwise). */
    const char *covers;
} tt_host_value;

/* One launch `kernel[grid](args...)` or constexpr values from an autotune
 * config: a set of parameter bindings. */
typedef struct tt_binding {
    const char *param;  /* NULL for positional until resolved */
    uint32_t position;  /* positional index (after_splat: among the arguments after the splat), or
                           UINT32_MAX for keywords */
    bool after_splat;   /* a positional argument after `*t.stride()`: its index depends on the splat */
    tt_host_value v;
} tt_binding;

typedef struct tt_launch {
    const char *kernel;
    TSNode call;
    KC_VEC(tt_binding) args;
    uint32_t line;
    bool from_autotune; /* a triton.Config, not a launch */
    const char *file;   /* a launch in another file of the run (its name); NULL: this file */
    uint32_t before_splat, after_splat; /* positional arguments around one `*splat` */
} tt_launch;

typedef struct tt_kernel_def {
    TSNode def;         /* function_definition */
    TSNode decorated;   /* decorated_definition (or null node) */
    const char *name;
    bool autotuned, heuristics;
} tt_kernel_def;

/* One binding made by an assignment under a scope: `name = right`, or one
 * element of `a, b = right` (elem = its index when `right` is not a literal
 * sequence of the same length; -1 otherwise). */
typedef struct tt_assign {
    const char *left;  /* text of the target (arena) */
    uint32_t start;    /* start byte of the assignment */
    TSNode right;
    int elem;
    bool whole;        /* the whole target of the assignment (not an element) */
    bool ident;        /* whole, and the target is a plain identifier */
} tt_assign;

/* The assignments under one scope in source order, collected in one walk
 * and reused by every lookup in that scope (tt_assignments). */
typedef struct tt_assign_index {
    TSNode scope;
    KC_VEC(tt_assign) items;
    uint32_t *by_name; /* indices of items, sorted by target name, then in source order */
} tt_assign_index;

typedef struct tt_module {
    const kc_source *src;
    kc_arena *arena; /* the model's */
    TSNode root;
    KC_VEC(tt_alias) aliases;
    KC_VEC(tt_kernel_def) kernels;
    KC_VEC(tt_launch) launches;
    /* Launches of this file's kernels in other files of the run (file set),
     * for the kernels this file does not launch itself. */
    KC_VEC(tt_launch) peer_launches;
    /* launches and peer_launches by kernel name, then source order (built
     * on first use by tt_launches_of) */
    uint32_t *launch_ix, *peer_ix;
    KC_VEC(tt_assign_index *) assign_indexes;
    /* open addressing over assign_indexes by scope node (index + 1; 0 = empty) */
    uint32_t *assign_slots;
    uint32_t assign_nslots; /* a power of two, or 0 */
    bool imports_triton;
} tt_module;

/* ---- node helpers (triton_walk.c) ---- */
/* A node type as the symbol ids ts_node_symbol() returns: the named node
 * and the anonymous token of that name (generated from the pinned grammar
 * into kc_ts_python_symbols.inc: TT_SYM_call, TT_SYM_identifier, ...). */
typedef struct tt_sym {
    TSSymbol named, anonymous;
} tt_sym;
#define TT_SYM_NONE 0xFFFEu
#include "kc_ts_python_symbols.inc"

/* Is the node of this type? TT_IS(n, call): a type the grammar does not
 * have is a compile error. */
static inline bool tt_is_sym(TSNode n, tt_sym s)
{
    if (!n.id)
        return false;
    TSSymbol x = ts_node_symbol(n);
    return x == s.named || x == s.anonymous;
}
#define TT_IS(n, type) tt_is_sym((n), TT_SYM_##type)
/* The same by name, for tokens that are not identifiers (`"+"`). */
bool tt_is(TSNode n, const char *type);
TSNode tt_field(TSNode n, const char *field);
/* The grammar's id of a field name (0: no such field). */
TSFieldId tt_field_id(const char *field);
const char *tt_text(tt_module *m, TSNode n); /* arena copy of the node's text */
bool tt_text_eq(tt_module *m, TSNode n, const char *s);
kc_span tt_span(TSNode n);
/* The children of `n` that carry field `field`, in order (at most max).
 * (ts_node_field_name_for_child is unreliable in tree-sitter 0.20.) */
uint32_t tt_field_children(TSNode n, const char *field, TSNode *out, uint32_t max);
/* Pre-order walk over `root` and its descendants: `visit` returns whether
 * to descend into the node's children. */
typedef bool (*tt_visit_fn)(TSNode n, void *ud);
void tt_walk(TSNode root, tt_visit_fn visit, void *ud);
/* Strips parentheses. */
TSNode tt_unparen(TSNode n);
/* The assignments under `scope`, outside the functions and classes defined
 * in it (a Triton kernel defines none): built on first use, kept with the
 * module. */
const tt_assign_index *tt_assignments(tt_module *m, TSNode scope);
/* The bindings of `name` in the index, in source order: by_name[*lo] up
 * to (not including) by_name[*hi]. */
void tt_assign_range(const tt_assign_index *ix, const char *name, uint32_t *lo, uint32_t *hi);
/* Qualified name of a dotted name expression resolved through the imports,
 * e.g. "tl.arange" -> "triton.language.arange"; NULL when not a dotted name.
 * The result is an arena string. */
const char *tt_qualify(tt_module *m, TSNode n);
/* For a qualified name under triton.language returns the rest ("arange",
 * "math.exp"), NULL otherwise. */
const char *tt_tl_name(const char *qualified);
/* Integer literal value. */
bool tt_int_literal(tt_module *m, TSNode n, int64_t *v);

/* Scans the module: imports, @triton.jit kernels (with autotune configs),
 * launches. Returns false when the file has no Triton kernel. */
bool tt_scan_module(tt_module *m);
void tt_module_free(tt_module *m);
/* The launches of `kernel` in m->launches (peer: m->peer_launches), in
 * source order: their indices are ix[*lo .. *hi). Call once the list is
 * complete. */
const uint32_t *tt_launches_of(tt_module *m, bool peer, const char *kernel, uint32_t *lo, uint32_t *hi);
/* Scans `g`, another file of the run, for launches of the kernels named in
 * `kernels` (sorted by strcmp), defined in the module whose last component is `stem`
 * (`fused_moe_kernels` for .../fused_moe_kernels.py): `K[grid](...)` with K
 * imported from it (`from pkg.fused_moe_kernels import K`, `from .fused_moe_kernels
 * import K`), or `mod.K[grid](...)`. Appends them to g->launches. */
void tt_scan_peer_launches(tt_module *g, const char *stem, const char *const *kernels, uint32_t nk);

/* ---- kernel interpretation (frontend_triton.c) ---- */
void tt_lower_kernel(tt_module *mod, kc_model *model, const tt_kernel_def *def);

#endif
