/* triton_internal.h — shared by the files of the Triton front end:
 * triton_walk.c (node helpers, the module scan) and the interpreter of
 * kernel bodies (the files listed under "kernel interpretation" below).
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
    /* `from X import name [as local]`: X as written (leading dots kept)
     * and name; NULL for `import X`. */
    const char *from, *name;
    /* A module of the project taken for triton.language (`tle.program_id`)
     * whose own wrappers of these builtins return them widened to int64
     * (`return tl.program_id(axis).to(tl.int64)`): TT_WIDE_* bits. */
    uint8_t widened;
} tt_alias;

enum { TT_WIDE_PROGRAM_ID = 1, TT_WIDE_NUM_PROGRAMS = 2 };

/* A value a host-side name or a call-site argument is known to have. */
typedef enum tt_host_kind {
    TT_HOST_UNKNOWN = 0,
    TT_HOST_INT,    /* an integer constant */
    TT_HOST_SHAPE,  /* a tensor extent: x.shape[i], x.size(i), x.numel(), len(x) */
    TT_HOST_STRIDE, /* x.stride(i) */
    TT_HOST_FLOAT,  /* a Python float: 1e-6, float(x), 1 / math.sqrt(d), a `float` parameter */
    TT_HOST_INTS,   /* one of several integer constants (`values`): a parameter pytest parametrizes */
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
    int64_t covers_cap; /* `min(triton.next_power_of_2(x), C)`: at least the smaller of x and C; 0: no cap */
    const int64_t *values; /* TT_HOST_INTS */
    uint32_t nvalues;
} tt_host_value;

/* One launch `kernel[grid](args...)` or constexpr values from an autotune
 * config: a set of parameter bindings. */
typedef struct tt_binding {
    const char *param;  /* NULL for positional until resolved */
    uint32_t position;  /* positional index (after_splat: among the arguments after the splat), or
                           UINT32_MAX for keywords */
    bool after_splat;   /* a positional argument after `*t.stride()`: its index depends on the splat */
    tt_host_value v;
    TSNode value; /* the argument expression (while the module's tree lives: scanning only) */
    /* grid axes (bits) whose rows it scales: the row stride or the row
     * length of the flattened tensor the axis counts rows of (triton_grid.c) */
    uint8_t row_axes;
    /* of row_axes: one of several trailing extents of the counted tensor,
     * not the last; the last of three or more */
    uint8_t row_part_axes, row_last_axes;
    /* grid axes (bits) of whose counted tensor it is a per-sequence state:
     * made from the counted extents and some others, a middle extent left
     * out (triton_grid.c); state_why says so, NULL when no axis */
    uint8_t state_axes;
    const char *state_why;
    /* The launching function asserts, before the launch, that the value
     * passed is a multiple of something (`assert Tq % 64 == 0`, `if L %
     * BLOCK: raise ...`): of the constant multiple_value (> 0), or of
     * whatever is written `multiple_by` (another argument's text);
     * multiple_why says where. */
    int64_t multiple_value;
    const char *multiple_by;
    const char *multiple_why;
    /* A stride `t.stride(d)` of a tensor the launching code allocates with
     * extent d written `X + c` (`torch.empty((B, H, max_len + 256))`): X as
     * written and c (> 0); NULL / 0 otherwise (triton_grid.c). */
    const char *pad_base;
    int64_t pad_extra;
} tt_binding;

typedef struct tt_launch {
    const char *kernel;
    TSNode call;
    KC_VEC(tt_binding) args;
    bool partial_args; /* a `**kwargs` or a second `*args` splat: some arguments are not seen */
    uint32_t line;
    bool from_autotune; /* a triton.Config, not a launch */
    const char *file;   /* a launch in another file of the run (its name); NULL: this file */
    uint32_t before_splat, after_splat; /* positional arguments around one `*splat` */
    /* Per grid axis: why the launch runs one program (or one tile) per row
     * of a tensor with every leading dimension flattened into its rows
     * (triton_grid.c); NULL when it does not say so. */
    const char *grid_rows[3];
    /* Axes (bits) of grid_rows that count the first dimension of a tensor
     * not shown to be flattened (`M, K = a.shape`, grid `cdiv(M, BLOCK_M)`). */
    uint8_t grid_rows_dim0;
    /* Per grid axis: what its extent is as far as the hardware limit goes
     * (KC602, triton_grid.c). */
    kc_grid_axis grid[3];
    /* Whether torch.compile traces the code that launches it
     * (kc_kernel.traced_by / eager_by), and why; NULL when not shown. */
    const char *traced_by, *eager_by;
    /* The definition the launch or config is of (index in tt_module.kernels
     * + 1), for a module that defines the kernel's name more than once (one
     * definition per branch of `if triton.__version__ >= ...`); 0: any
     * definition of the name (a launch in another file). */
    uint32_t def_plus1;
    /* Values the launching function asserts to be multiples before the
     * launch (`assert x.numel() % 1024 == 0`), as written, whether or not
     * they are arguments: a grid axis that rounds such a value up by its
     * divisor covers it exactly (triton_divides.c, triton_grid.c). */
    struct {
        const char *text, *alias; /* the value as written, and what the name was bound to */
        int64_t value;            /* a multiple of this constant (> 0), or */
        const char *by;           /* of what is written so */
        const char *why;
    } asserted[8];
    uint8_t nasserted;
} tt_launch;

typedef struct tt_kernel_def {
    TSNode def;         /* function_definition */
    TSNode decorated;   /* decorated_definition (or null node) */
    const char *name;
    bool autotuned, heuristics;
    /* called as a function by a jit function of another file of the run
     * (`_splat(...)` in a kernel that imports it): a helper, whose
     * parameters are what that caller passes (scan_peers) */
    bool peer_helper;
} tt_kernel_def;

/* A name the module's code launches a kernel by: its definition's name,
 * or a module-level binding of a wrapper (`g = triton.jit(fn)`). */
typedef struct tt_kernel_name {
    const char *name;
    uint32_t kernel; /* index in tt_module.kernels */
} tt_kernel_name;

/* One binding made by an assignment under a scope: `name = right`, or one
 * element of `a, b = right` (elem = its index when `right` is not a literal
 * sequence of the same length; -1 otherwise), or an augmented assignment
 * `name *= k` (right: a null node, the value is not known from there on). */
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

typedef struct tt_named_call {
    const char *name; /* the called name: `f` of `f(...)` or `obj.f(...)` (arena) */
    bool method;      /* called through an object */
    TSNode call;
} tt_named_call;

/* A use of a name in the body of a jit function: the call it is the
 * function of, or a null node for any other use (a combine function passed
 * to tl.reduce), and the jit function it is in (index in tt_module.kernels). */
typedef struct tt_jit_use {
    const char *name; /* arena */
    TSNode call;
    uint32_t caller;
} tt_jit_use;

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
    /* Every call of a function by name (`f(...)`, `obj.f(...)`), sorted by
     * that name (built on first use): where the callers of a launching
     * function pass its parameters. */
    KC_VEC(tt_named_call) host_calls;
    bool host_calls_built;
    /* The names the bodies of the module's jit functions use as functions
     * or pass on, sorted by name (built on first use, frontend_triton.c):
     * which jit functions are helpers of others. */
    KC_VEC(tt_jit_use) jit_uses;
    bool jit_uses_built;
    /* Calls of launching functions the launch being read may still
     * follow (its callers' arguments, whether tracing reaches it): a
     * function calling itself, or many callers, must not make the walk
     * exponential (triton_launch.c). */
    uint32_t caller_budget;
    KC_VEC(tt_kernel_name) knames; /* by source order of the bindings */
    /* Other files the analysis may read (kc_peers: modules the file's
     * Triton names come from, files that launch its kernels) and the size
     * limit for reading them. */
    const kc_peers *peers;
    size_t max_file_size;
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
/* Text for messages: white space collapsed to single spaces (leading
 * white space dropped), cut to `max` characters with "..." (SIZE_MAX: no
 * limit). Arena string. */
const char *tt_one_line(kc_arena *a, const char *t, size_t max);
/* The parts of a parameter node of a `def` (a name, `x: T`, `x=d`,
 * `x: T = d`): false for anything else (splats, `*`, comments). */
bool tt_param_parts(TSNode p, TSNode *name, TSNode *type, TSNode *def);
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
 * module. A null scope (code outside any function) is the module. */
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

/* The import statement `st` (import or from-import): its aliases. */
void tt_scan_import(tt_module *m, TSNode st);
/* The last `name = ...` in `scope` before byte `before` (null node when
 * none, or when it unpacks a tuple). */
TSNode tt_find_assignment(tt_module *m, TSNode scope, const char *name, uint32_t before);
/* The same with unpacking: *elem is the element's index when the binding
 * is one element of `a, b = right` (right: the unpacked expression), -1
 * otherwise. */
TSNode tt_find_binding(tt_module *m, TSNode scope, const char *name, uint32_t before, int *elem);
/* Is `n` a call `object.method(args)` of one of `methods` (NULL-ended)? */
bool tt_method_call(tt_module *m, TSNode n, const char *const *methods, TSNode *object, TSNode *args);
/* Does the expression list or tuple start with a `*splat`? */
bool tt_starts_with_splat(tt_module *m, TSNode seq);
/* The function definition enclosing `n` (null node at module level). */
TSNode tt_enclosing_function(TSNode n);
/* The launch `call` (`K[grid](args)`) of `kernel`: its bindings, into
 * m->launches. */
bool tt_scan_launch(tt_module *m, TSNode call, const char *kernel);
/* `n + B - 1` / `n + (B - 1)` / `n - 1 + B`, the sum that rounds a
 * following `// B` up (a chain of + and - with an addition in it; `(L -
 * W) // S` is a floor): *n gets the leftmost operand, the extent. */
bool tt_rounding_sum(TSNode e, TSNode *n);
/* Where a name used at `n` is read from: before the assignment that holds
 * the use (`a = a.contiguous()` reads the earlier `a`). */
uint32_t tt_use_point(TSNode n);
/* How many positional arguments a call's argument list has (0 when a splat
 * hides them), the first npos of them in pos (triton_walk.c). */
uint32_t tt_positional(TSNode args, TSNode *pos, uint32_t npos);
/* The rank of the tensor `name` in `scope` before byte `before` where the
 * host code says it (unpacked shape, a maker's sizes, a reduction over one
 * dimension, a tensor a torch.autograd.Function saved), else 0
 * (triton_launch.c). */
int tt_tensor_rank(tt_module *m, TSNode scope, const char *name, uint32_t before);
/* Where the name `n` used in `scope` was last bound (its value's node;
 * *elem: the element of a tuple it unpacks, or -1), in the function and
 * then at module level (triton_walk.c). */
TSNode tt_grid_binding(tt_module *m, TSNode scope, TSNode n, int *elem);
/* How grid axis expression `e` of launch l counts tiles: g->cover,
 * cover_expr, cover_size (triton_cover.c). */
void tt_scan_axis_cover(tt_module *m, const tt_launch *l, kc_grid_axis *g, TSNode scope, TSNode e);
/* ---- launch grids (triton_grid.c) ---- */
/* Reads the grid of launch `l` (in function `scope`, or null at module
 * level) into l->grid_rows. */
void tt_scan_grid(tt_module *m, tt_launch *l, TSNode scope);
/* How many assignments and calls the host-side readers follow. */
#define TT_HOST_DEPTH 6

/* Marks the launch's arguments that the launching function (scope, before
 * byte `before`) shows to be multiples (tt_binding.multiple_*):
 * triton_divides.c. */
void tt_mark_multiples(tt_module *m, tt_launch *l, TSNode scope, uint32_t before);
/* The triton.Config(...) calls of an autotune config list, as launches of
 * `kernel` marked from_autotune. */
void tt_scan_configs(tt_module *m, const char *kernel, TSNode list, int depth);

/* ---- the module scan (triton_module.c) ---- */
/* Scans the module: imports (with the Triton names a module of the
 * project re-exports, read from m->peers), @triton.jit kernels and
 * module-level jit wrappers (with autotune configs), launches (through
 * local aliases and conditional expressions). Returns false when the file
 * has no Triton kernel. */
bool tt_scan_module(tt_module *m);
void tt_module_free(tt_module *m);
/* Does the peer path name the module `from` (as written, leading dots
 * kept: only its tail is compared; the engine resolved it)? */
bool tt_path_is_module(const char *path, const char *from);
/* The pinned grammar (tree-sitter-python 0.23.6) rejects `return a, *b`
 * and `yield a, *b`, valid Python since 3.8, and recovers with an ERROR
 * node in place of that one statement. Are all the errors under `n` such
 * statements (at most `max`, one line each)? Their lines and the
 * keyword's columns into lines[] and cols[], their count into *n. */
bool tt_star_returns_only(const kc_source *src, TSNode n, uint32_t *lines, uint32_t *cols, uint32_t *nlines,
                          uint32_t max, int depth);
/* The strings of the file that hold CUDA kernel definitions, as
 * model->embedded (triton_embedded.c). */
void tt_embedded_cuda(const kc_source *src, TSNode root, kc_model *model);
/* The launches of `kernel` in m->launches (peer: m->peer_launches), in
 * source order: their indices are ix[*lo .. *hi). Call once the list is
 * complete. */
const uint32_t *tt_launches_of(tt_module *m, bool peer, const char *kernel, uint32_t *lo, uint32_t *hi);
/* Whether launch `l` (of def's name) is a launch of definition `def`. */
bool tt_launch_of_def(const tt_module *m, const tt_launch *l, const tt_kernel_def *def);
/* Scans `g`, another file of the run, for launches of the kernels named in
 * `kernels` (sorted by strcmp), defined in the module whose last component is `stem`
 * (`fused_moe_kernels` for .../fused_moe_kernels.py): `K[grid](...)` with K
 * imported from it (`from pkg.fused_moe_kernels import K`, `from .fused_moe_kernels
 * import K`), or `mod.K[grid](...)`. Appends them to g->launches. Sets
 * jit_called[k] when a @triton.jit function of g calls kernels[k] as a
 * function (`K(...)`, `mod.K(...)`): a helper of g's kernels. */
void tt_scan_peer_launches(tt_module *g, const char *stem, const char *const *kernels, uint32_t nk, bool *jit_called);
/* Is `name` supplied by the kernel's decorators: a key of the dict of a
 * `@triton.heuristics({...})`, or a parameter its autotune configs set?
 * (Call once the module's launches are scanned.) */
bool tt_decorator_supplies(tt_module *mod, const tt_kernel_def *def, const char *name);
/* What the decorator named `name` (`register_op` of `@register_op(...)`)
 * registers the function it wraps as, read from its definition: this
 * module's `def name(`, or the project module it is imported from (a
 * peer): KC_PY_REG_* bits (kc_pyscan.h); *where gets the file it was read
 * in (NULL for this one). 0 when neither is found. */
unsigned tt_decorator_registers(tt_module *m, const char *name, const char **where);

/* The kernel names (tt_kernel_name) of m that the launch target `v` (a
 * subscripted value `v[grid]`) may be: v itself or, for a local name, what
 * its assignments before `at` in the enclosing function or the module
 * bind (`fx = ka if c else kb`): up to `max` expression nodes, identifiers
 * or attributes, into out. */
uint32_t tt_launch_targets(tt_module *m, TSNode v, TSNode *out, uint32_t max);

/* ---- kernel interpretation ----
 *
 * Each @triton.jit kernel is lowered into the kernel model by abstract
 * interpretation of its body (frontend_triton.c). The files stack, each
 * calling only those below it:
 *   frontend_triton.c  the front end object (parsing, the run's other
 *                      files) and the kernel entry: parameters, which of
 *                      them are pointers, the values launches give them
 *   triton_stmt.c      statements: assignments, if, for, while, asserts,
 *                      values carried around loops
 *   triton_expr.c      expressions: the evaluator (tt_eval), names,
 *                      literals, operators, attributes, tuples
 *   triton_call.c      calls: the tl.* builtins, methods on values,
 *                      element-wise calls, other functions
 *   triton_access.c    loads, stores, atomics, and what KC502, KC303 and
 *                      KC305 need recorded
 *   triton_shape.c     arithmetic, comparisons, block shapes,
 *                      broadcasting, reductions, reshapes
 *   triton_fill.c      what masked-out lanes of loads hold as they flow
 *                      into reductions and tl.dot (KC306)
 *   triton_value.c     values, the environment, reorder observation
 *                      (KC301), sizes, call arguments
 *   triton_walk.c      node helpers and the module scan (above)
 *   triton_grid.c      what launch grids say about program ids (above)
 * Below triton_expr.c, the sub-expressions a file meets (arguments,
 * subscripted values, asserted conditions) are evaluated through the
 * context's `eval` (tt_eval, set by the kernel entry): the one way back up.
 *
 * Every Python value is a `tv`: a number block (a symbolic index
 * expression over lanes, programs, loops, symbols, loaded data and opaque
 * terms), a boolean block (comparisons, for masks), a pointer block (a base
 * parameter plus an offset expression), a tuple, a dtype or unknown. Each
 * value carries its block shape, whether it is a compile-time constant
 * (constexpr), and the set of element reorders (tl.view) its element order
 * depends on, so that the first use that observes that order is found.
 * Everything lives in the model's arena or in the context; nothing is
 * shared between threads.
 */

typedef enum tv_kind { TV_UNKNOWN = 0, TV_NUM, TV_BOOL, TV_PTR, TV_TUPLE, TV_DTYPE, TV_NONE, TV_STR } tv_kind;

typedef struct tv tv;
struct tv {
    tv_kind kind;
    bool ce;            /* compile-time constant (constexpr) */
    bool is_float;
    bool block_ptr;     /* from tl.make_block_ptr */
    bool from_dot;
    bool random;        /* random numbers (tl.rand*, philox): their order carries no meaning */
    bool blank;         /* a fresh tl.empty/zeros/full block nothing was written into yet */
    bool shape_unknown; /* rank and dims not known */
    bool dtype_i64;     /* TV_DTYPE: an int64 type; TV_NUM: cast to int64 */
    uint8_t bits;
    const kc_index *idx; /* TV_NUM: value; TV_PTR: offset; NULL = unknown */
    uint32_t base;       /* TV_PTR: symbol of the base parameter (KC_NONE unknown) */
    kc_shape shape;
    kc_deps deps;        /* extra dependences (all of them when idx is NULL) */
    uint64_t taint;      /* reorders (bit r = kernel reorder r) the element order depends on */
    uint32_t npreds;
    const kc_pred *preds;
    uint32_t ntuple;
    const tv *tuple;
    const char *dtype;   /* TV_DTYPE name */
    uint32_t sym;        /* the symbol this value is, or KC_NONE */
    /* The shape (and blockness) came through something the interpreter
     * does not model exactly (an unknown value, a helper call, a
     * shape-changing builtin): not to be trusted for KC302/KC305. */
    bool vague;
    bool logic_nonbool;  /* a Python and/or/not chain with a non-boolean operand (no `&`/`~` fix-it) */
    uint8_t elt;         /* element type, TT_ELT_* (TV_DTYPE: the type it names) */
    uint64_t prods;      /* kernel product records (bit id % 64) whose results flow into the value */
    kc_span dtype_span;  /* the dtype argument that set elt (tl.zeros(..., dtype=X)), for fix-its */
    /* KC306: lane axes along which the value holds lanes that the mask of
     * load `junk_load` turned off, and what they hold (kc_fill) as written
     * and under each neutral other= (KC_FILL_IF_*); junk_via: the last
     * operation that changed what they hold as written. */
    uint8_t junk_axes;
    uint8_t fill[KC_MAX_RANK][KC_FILL_NHYP]; /* per axis: lanes masked out along it, in rows live along the others */
    uint32_t junk_load;
    const char *junk_via;
    kc_span junk_via_span;
    /* KC501: the float scalar parameter (symbol + 1; 0 none) this value is
     * computed from without a cast, which makes it fp64 under Inductor
     * (triton_fp64.c). */
    uint32_t f64_from;
    /* ...except where condition f64_pin - 1 holds (negated when
     * f64_pin_neg): a branch under it pinned the value (`if FLAG: x =
     * x.to(tl.float32)`), and a use under the same compile-time condition
     * sees the pinned value. 0: no such condition. */
    uint32_t f64_pin;
    bool f64_pin_neg;
    /* Its type is not known here, but it is fp32 or narrower in some
     * specialization: a branch under a compile-time condition cast it
     * (`if CASTING == LLAMA: x = x.to(tl.float32)`), KC501. */
    bool f32_some;
    /* TV_NUM: the value is the smaller of these two (tl.minimum(a, b),
     * Python min(a, b) of two numbers), NULL when not: `x < min(a, b)` is
     * `x < a` and `x < b`. */
    const kc_index *min_of[2];
    /* TV_NUM: a count of tiles rounded up, `tl.cdiv(n, B)`, `(n + B - 1)
     * // B`: a program id reduced modulo it (`pid % NK`) steps over tiles
     * the last of which may run past n (KC303). */
    bool tile_count;
    /* with tile_count: the kernel symbol the count divides (`K` of
     * `tl.cdiv(K, BK)`, through a local `N = dg`: `dg`), or KC_NONE */
    uint32_t tile_count_of;
};

/* Element types, as far as KC502 needs them. */
enum {
    TT_ELT_UNKNOWN = 0,
    TT_ELT_PYFLOAT, /* a Python float scalar: takes the type of the block it meets */
    TT_ELT_PYINT,
    TT_ELT_BOOL,
    TT_ELT_INT,
    TT_ELT_FP8,
    TT_ELT_FP16,
    TT_ELT_BF16,
    TT_ELT_FP32,
    TT_ELT_FP64,
};

typedef struct tt_var {
    const char *name;
    uint32_t hash; /* name_hash(name): lookups compare it first */
    tv v;
} tt_var;

typedef struct tt_env {
    KC_VEC(tt_var) vars;
} tt_env;

typedef KC_VEC(const char *) tt_names;

typedef struct tt_ctx {
    tt_module *mod;
    kc_model *m;
    kc_kernel *k;
    kc_arena *a;
    tt_env env;
    uint32_t loop; /* innermost loop or KC_NONE */
    uint32_t cond; /* innermost condition or KC_NONE */
    /* inside the arguments of tl.device_assert, tl.static_assert or
     * tl.assume: a comparison there states what holds, it tests nothing */
    unsigned asserting;
    unsigned depth;
    uintptr_t stack_base; /* frame address of the kernel entry */
    tt_names pointer_params;
    const char *tl_alias; /* the local name of triton.language ("tl"), for fix-its */
    /* Evaluates an expression: tt_eval, set by the kernel entry. The files
     * below triton_expr.c evaluate the sub-expressions they meet through
     * it, the one way back up. */
    tv (*eval)(struct tt_ctx *c, TSNode n);
} tt_ctx;

/* ---- launch facts (triton_tiling.c) ---- */
/* What the launches read so far say of the grid axes and of the sizes
 * the launching functions assert divisible. */
typedef struct tt_tiling {
    /* per grid axis: launches that round it up / floor it, the size
     * parameter a rounded-up axis divides (KC_NONE when launches differ),
     * and where */
    uint32_t nup[3], nfloor[3], upsize[3];
    /* of nup, the launches whose divided extent is an element count (`x.numel()`) */
    uint32_t nnumel[3];
    const char *why[3];
    /* per parameter: launches asserting it a multiple, of what in common */
    uint32_t *nmult, *multsym;
    int64_t *multval;
    const char **multwhy;
    /* per parameter: launches passing for it the stride of a dimension
     * allocated padded past the extent a rounded-up grid axis divides
     * (tt_binding.pad_base), those axes (in every one), the least padding */
    uint32_t *npad;
    uint8_t *padaxes;
    int64_t *padextra;
    const char **padwhy;
} tt_tiling;

tt_tiling tt_tiling_new(uint32_t nparams);
void tt_tiling_free(tt_tiling *t);
/* "the launch on line N" (or "in FILE on line N") */
const char *tt_launch_where(tt_ctx *c, const tt_launch *ln);
/* Grid axis `ax` of one launch: floored or rounded up, and what it divides. */
void tt_tally_cover(tt_ctx *c, tt_tiling *t, const tt_launch *ln, unsigned ax);
/* `assert Tq % 64 == 0` before the launch, for argument b binding parameter pi. */
void tt_tally_multiple(tt_ctx *c, tt_tiling *t, const tt_launch *ln, const tt_binding *b, uint32_t pi);
/* A padded tensor's stride for parameter pi (tt_binding.pad_base). */
void tt_tally_padding(tt_ctx *c, tt_tiling *t, const tt_launch *ln, const tt_binding *b, uint32_t pi);
/* What every one of the `nlaunch` launches agrees on, into the kernel. */
void tt_tiling_apply(tt_ctx *c, const tt_tiling *t, uint32_t nlaunch);
/* The kernel parameter a launch binding binds, or KC_NONE. */
uint32_t tt_bound_param(const kc_kernel *k, const tt_launch *ln, const tt_binding *b);

/* ---- triton_value.c ---- */
bool tt_elt_low(uint8_t e); /* fp16, bf16 or fp8 */
bool tt_elt_f32_or_narrower(uint8_t e);
bool tt_some_f32(const tv *v); /* fp32 or narrower, or so in some specialization (f32_some) */
/* Triton's computation type of a binary arithmetic operation
 * (semantic.computation_type_impl), for the float cases. */
uint8_t tt_elt_promote(uint8_t a, uint8_t b, bool div);
bool tt_is_vague(const tv *v); /* the shape of the value is not to be trusted */
/* Past the stack budget of the kernel's interpretation (frames are much
 * larger under sanitizers, and kernels are lowered on worker threads). */
bool tt_stack_exhausted(const tt_ctx *c);
tv tt_unknown(void);
kc_deps tt_deps_or(kc_deps a, kc_deps b);
kc_deps tt_deps(const tv *v); /* everything the value depends on */
/* Moves lane-axis bits from a rank-`from` shape to a right-aligned rank-`to`. */
kc_deps tt_deps_to_rank(kc_deps d, unsigned from, unsigned to);
bool tt_has_extent(const tv *v); /* a dimension other than 1 (or unknown) */
kc_shape tt_shape_of2(const tv *a, const tv *b); /* the broadcast shape */
/* A number block whose value is an opaque term for node `n`. */
tv tt_opaque(tt_ctx *c, TSNode n, kc_deps deps, const kc_shape *shape, uint8_t bits);
tv tt_const(tt_ctx *c, int64_t x);
bool tt_is_const(const tv *v, int64_t *x);
/* The node's text on one line (white space collapsed), for messages. */
const char *tt_short_text(tt_ctx *c, TSNode n);
tv *tt_env_get(tt_env *e, const char *name);
void tt_env_set(tt_ctx *c, const char *name, tv v);
tt_env tt_env_copy(const tt_env *e);
/* The value of a name after two branches: kept when equal, otherwise an
 * opaque value depending on both and on the condition. */
/* `then_cond`: when y (other) is the value after an `if`'s then branch and
 * x (into) after its else branch or before it, that branch's condition + 1
 * (KC501 pins); 0 for any other merge. */
tv tt_merge(tt_ctx *c, TSNode at, const char *name, const tv *x, const tv *y, kc_deps cond, uint32_t then_cond);
void tt_env_merge(tt_ctx *c, TSNode at, tt_env *into, const tt_env *other, kc_deps cond, uint32_t then_cond);
/* Does the value carry masked-out lanes of a load (KC306)? */
bool tt_junk(const tv *v);
void tt_junk_clear(tv *v);
/* `r` is `x` with its axes moved: x's axis i is r's axis map[i] (0xFF: gone). */
void tt_junk_remap(tv *r, const tv *x, const uint8_t *map);
/* `r` is `x` broadcast (right-aligned) to r's rank. */
void tt_junk_to_rank(tv *r, const tv *x);
/* What the masked-out lanes of a name hold after two branches. */
void tt_junk_merge(tv *r, const tv *x, const tv *y);
/* `at` observes the element order of the reorders in `taint` (the first
 * such use of each is recorded). */
void tt_observe(tt_ctx *c, uint64_t taint, TSNode at, const char *what);
/* Two blocks combined element by element observe the order of each other's
 * elements when their reorders differ. */
void tt_observe_combine(tt_ctx *c, const tv *a, const tv *b, TSNode at, const char *verb, TSNode an, TSNode bn);
/* The parameters and constexprs in `x` are sizes (problem sizes when
 * `problem`), with the evidence. */
void tt_mark_size(tt_ctx *c, const kc_index *x, const char *evidence, bool problem);
/* Argument `pos` of a call, or its keyword argument `kw` (null when absent). */
TSNode tt_call_arg(tt_module *m, TSNode call, uint32_t pos, const char *kw);
uint32_t tt_call_nargs(TSNode call);
tv tt_eval_opt(tt_ctx *c, TSNode n); /* None for an absent argument */

/* ---- triton_fill.c: masked-out lanes of loads (KC306) ---- */
/* What a literal written at `n` is (0.0, -float("inf"), 1e30), or
 * KC_FILL_NONE when `n` is not a numeric literal. */
uint8_t tt_fill_literal(tt_ctx *c, TSNode n);
/* The value `v` of load `acc` under `mask`, with `other=` at othern (null
 * node when absent) evaluated to `other`: its masked-out lanes. */
void tt_junk_load(tt_ctx *c, tv *v, uint32_t acc, const tv *mask, TSNode othern, const tv *other);
/* `r = a op b` (an element-wise operator). */
void tt_junk_binop(tt_ctx *c, tv *r, const char *op, const tv *a, const tv *b, TSNode an, TSNode bn, TSNode at);
/* `r = fn(x)` for an element-wise function of one block ("neg", "exp",
 * "log", "sqrt", ...; anything else keeps only undefined lanes). */
void tt_junk_unary(tt_ctx *c, tv *r, const char *fn, const tv *x, TSNode at);
/* `r = tl.where(cond, a, b)`. */
void tt_junk_where(tt_ctx *c, tv *r, const tv *cond, const tv *a, const tv *b, TSNode an, TSNode bn);
/* A reduction `name` ("sum", "max", "argmin", "reduce", ...) of `x` along
 * axis `axisn` (null: the whole block) at `call`. */
void tt_junk_reduce(tt_ctx *c, TSNode call, TSNode calleen, const char *name, const tv *x, TSNode axisn);
/* tl.dot(a, b) at `call`: the K axis of each operand. */
void tt_junk_dot(tt_ctx *c, TSNode call, TSNode calleen, const tv *a, const tv *b);

/* ---- triton_fp64.c ---- */
/* A scalar parameter that is a Python float: fp32 in eager mode, fp64
 * under Inductor. `known`: a launch shows it is (KC_SF_FLOAT_ARG), and it
 * takes the type fp32; otherwise it may be one (nothing shows it is an
 * integer), and only its uses are recorded. */
void tt_fp64_param(tv *v, uint32_t symbol, bool known);
/* After a binary operation `at` of a and b computed r: the mark of r, and
 * a kc_fp64_use where a marked value meets one of a known type. */
void tt_fp64_binop(tt_ctx *c, tv *r, const tv *a, const tv *b, TSNode at);
/* The same for an element-wise call of the `n` values `args`; `math`: a
 * float math function (its result has its argument's type). */
void tt_fp64_call(tt_ctx *c, tv *r, const tv *args, uint32_t n, TSNode call, bool math);


/* ---- triton_shape.c ---- */
bool tt_shape_from(const tv *v, kc_shape *s); /* a shape written as a tuple (or one number) */
const char *tt_op_of(TSNode n);               /* the operator of an operator node (a comparison: its last) */
/* The value as a number with an index (an opaque term for `at` when it
 * has none). */
tv tt_num_of(tt_ctx *c, const tv *v, TSNode at);
tv tt_compare(tt_ctx *c, TSNode at, const char *op, const tv *a, const tv *b, TSNode an, TSNode bn);
tv tt_bool_combine(tt_ctx *c, const tv *a, const tv *b, bool is_and);
/* `a op b` (`an`, `bn` their expressions): arithmetic, comparisons, masks
 * and pointer arithmetic. */
tv tt_binop(tt_ctx *c, TSNode at, const char *op, tv a, tv b, TSNode an, TSNode bn);
tv tt_subscript(tt_ctx *c, TSNode n); /* x[i], x[:, None] */
/* A reduction (or a scan) of `x` along the axis `axisn`. */
tv tt_reduce(tt_ctx *c, TSNode call, const tv *x, TSNode axisn, bool scan);
/* tl.view / tl.reshape / x.reshape: the result shape; records a reorder
 * when element order is not guaranteed. */
tv tt_reshape(tt_ctx *c, TSNode call, const char *fname, TSNode xn, const tv *x, TSNode shapen, bool may_reorder,
              bool can_reorder_kw);
tv tt_permute(tt_ctx *c, TSNode call, const tv *x, const uint8_t *perm, unsigned rank);

/* ---- triton_access.c ---- */
/* tl.load(...), or x.load(...) when `method_form` (`self` the object). */
tv tt_load(tt_ctx *c, TSNode call, bool method_form, const tv *self);
tv tt_store(tt_ctx *c, TSNode call, kc_access_kind kind); /* a store or an atomic */
/* A low-precision accumulation at `at`: `decl` is the value whose dtype
 * argument made it narrow. */
void tt_record_accum(tt_ctx *c, TSNode at, const char *var, const tv *decl, kc_accum_kind kind);
/* A loop-carried low-precision block updated in the loop (`acc += x`,
 * `acc = acc + x`, `acc = tl.dot(a, b, acc)`). */
void tt_check_accumulation(tt_ctx *c, TSNode st, const char *var, const tv *before, kc_accum_kind kind);
/* tl.sum of a block known to be fp16/bf16 (unless dtype= widens it). */
void tt_check_narrow_sum(tt_ctx *c, TSNode call, TSNode xn, const tv *x);
/* Is `n` a call of tl.dot whose accumulator argument is the name `var`? */
bool tt_is_dot_into(tt_ctx *c, TSNode n, const char *var);
/* `N % BLOCK == 0` (possibly and-ed with other conditions) in an assert,
 * tl.static_assert, tl.device_assert or tl.assume. */
void tt_note_multiple(tt_ctx *c, TSNode cond, TSNode at);
/* A Python and/or/not chain `n` whose value `r` is a block (KC305). */
void tt_note_block_logic(tt_ctx *c, TSNode n, const tv *r);

/* ---- triton_call.c ---- */
/* A call: a tl.* builtin, a method on a value, any other function. */
tv tt_eval_call(tt_ctx *c, TSNode call);

/* ---- triton_expr.c ---- */
/* The value of expression `n` (unknown past TT_MAX_DEPTH nesting or the
 * stack budget). */
tv tt_eval(tt_ctx *c, TSNode n);

/* ---- triton_stmt.c ---- */
/* Interprets the statements of a block in order. */
void tt_exec_block(tt_ctx *c, TSNode block);

#endif
