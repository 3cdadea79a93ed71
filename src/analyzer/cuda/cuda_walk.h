/* cuda_walk.h — the abstract interpreter of CUDA function bodies (internal
 * to the CUDA front end). See cuda_stmt.c for the overview.
 *
 * The files stack, each calling only those below it:
 *   cuda_stmt.c   statements, declarations, pragmas, the entry point
 *   cuda_loop.c   loops: what they assign, induction variables, bounds
 *   cuda_expr.c   expressions, variables declared outside the function,
 *                 __shared__ arrays, and the evaluation of calls
 *                 (arguments, inlined device functions and lambdas)
 *   cuda_call.c   what a call is: callee, cooperative groups, inlining
 *                 target, whether it may synchronize, its record
 *   cuda_value.c  abstract values, arithmetic on them, environment, index
 *                 atoms, conditions, accesses, barriers, CUDA built-in
 *                 variables, conversions
 *   cuda_facts.c  syntactic facts of device code, bounds checks
 *   cuda_tu.c     cursors, spans, tokens, types (cuda_tu.h)
 * An expression that inlines a function body, and a loop, walk statements
 * again: through the walker's `stmt` (kc_cuda_walk_stmt, set by
 * kc_cuda_lower_function), the one way back up.
 *
 * Everything lives in the model's arena or in the walker; nothing is
 * shared between threads.
 */
#ifndef KC_CUDA_WALK_H
#define KC_CUDA_WALK_H

#include "cuda_tu.h"

/* How an lvalue expression is used. */
enum { KC_CUDA_EV_LOAD = 0, KC_CUDA_EV_STORE, KC_CUDA_EV_RMW, KC_CUDA_EV_ADDR };

/* An abstract value. */
typedef struct kc_cuda_val {
    const kc_index *ix;   /* integer value; NULL when not an integer or not expressible */
    kc_deps deps;         /* what the value depends on (always valid) */
    uint32_t load;        /* access whose loaded value this is, or KC_NONE */
    bool ptr;             /* a pointer/array into memory: base + off */
    uint8_t space;        /* kc_space of the memory (pointers) */
    uint8_t elem_bytes;   /* size of one element of `off`, 0 unknown */
    /* the member of that element it points to (kc_access.field_off,
     * field_bytes; 0 and 0 for the whole element) */
    uint8_t field_off, field_bytes;
    /* cast to a pointer to another type kcheck cannot size (`reinterpret_cast<
     * const vec4_t *>(&w[4 * i])` with vec4_t from a template): an access
     * through it may be wider than an element of `off` */
    bool recast;
    /* the size of the type cast to where it is known (`int4`: 16) while
     * the elements of `off` are not; 0 otherwise */
    uint8_t recast_bytes;
    uint32_t base;        /* symbol of the base, or KC_NONE */
    const char *base_name;
    const char *elem_type;
    const kc_index *off;  /* offset from base in elements; NULL unknown */
    /* an array indexed by subscripts alone so far: those subscripts,
     * outermost first (kc_access.subs; an arena array of 4, so that the
     * value stays small: the evaluators recurse with it in every frame) */
    const kc_index **subs;
    uint8_t nsubs;
    CXCursor idx_expr;    /* the index expression that last moved the pointer */
    uint32_t sparam;      /* a struct-typed kernel parameter: its index + 1 */
    /* the member path to a nested struct of it (`p.xStride`), NULL for the
     * parameter itself */
    const char *spath;
    /* A bool computed from comparisons (`bool in = i < n;`): what holds
     * when it is true / false, for conditions that test it later. */
    const struct kc_cuda_pred *cpos, *cneg;
    uint16_t ncpos, ncneg;
} kc_cuda_val;

/* A variable binding. */
typedef struct kc_cuda_bind {
    CXCursor decl;
    unsigned hash;
    const char *name;
    kc_cuda_val val;
    bool in_memory; /* a __shared__/__device__ scalar: reads and writes are accesses */
    /* A __shared__ struct or pointer held as a value: one object for the
     * whole block, which every thread reads alike once a block barrier
     * has passed. */
    bool block_value;
} kc_cuda_bind;

typedef KC_VEC(kc_cuda_bind) kc_cuda_env;

/* One function activation: the kernel, or an inlined device function. */
typedef struct kc_cuda_fn {
    struct kc_cuda_fn *caller;
    struct kc_cuda_fn *outer; /* a lambda: the function whose variables it captures */
    CXCursor decl;
    kc_cuda_env env;
    uint32_t entry_guard;
    kc_span div_return; /* first return under a thread-dependent condition */
    uint32_t div_return_cond; /* that condition */
    uint32_t frame_base; /* w->frames.len when it was entered: its loops are above */
    unsigned nret;
    bool ret_cond;      /* some return is conditional */
    kc_cuda_val ret;
} kc_cuda_fn;

/* An enclosing loop (or switch: loop == KC_NONE, a break target only). */
typedef struct kc_cuda_frame {
    uint32_t loop;
    uint32_t body_guard;
    kc_span div_exit; /* first thread-dependent break/continue in it */
    kc_span div_break; /* first thread-dependent break out of it (skips every later pass) */
    uint32_t div_exit_cond, div_break_cond; /* the thread-dependent conditions they are taken under */
    uint32_t first_barrier; /* barriers recorded from here on are in it */
} kc_cuda_frame;

/* A `#pragma unroll` found in front of a loop. */
typedef struct kc_cuda_pragma {
    kc_unroll unroll;
    int64_t count;
    kc_span span;
} kc_cuda_pragma;

/* A comparison of a condition, with the operand cursors. */
typedef struct kc_cuda_pred {
    kc_pred p;
    CXCursor lhs, rhs;
} kc_cuda_pred;

typedef KC_VEC(kc_cuda_pred) kc_cuda_preds;

/* The symbol of one declared array: the declaration (file and offset)
 * and, inside an inlined function template, the specialization (a
 * `static __shared__` array of `f<float>` is not that of `f<int>`). */
typedef struct kc_cuda_declsym {
    const char *key;
    uint32_t sym;
} kc_cuda_declsym;

/* The walk over one lowered function. */
typedef struct kc_cuda_walk {
    kc_cuda_tu *t;
    kc_model *m;
    kc_kernel *k;        /* what is being filled */
    kc_arena *a;         /* the model's arena */
    kc_cuda_fn *fn;      /* innermost activation */
    uint32_t guard, loop; /* innermost condition and loop, or KC_NONE */
    KC_VEC(kc_cuda_frame) frames; /* enclosing loops and switches; owned */
    unsigned depth;      /* recursion depth, capped at KC_CUDA_MAX_DEPTH */
    unsigned inline_depth;
    CXCursor inline_stack[KC_CUDA_MAX_INLINE + 1];
    kc_span inline_sites[KC_CUDA_MAX_INLINE + 1]; /* per inline level: the call inlined there */
    kc_span call_site; /* valid while inlining: the call in the lowered function */
    /* valid while inlining: the innermost call being inlined that is
     * written in the main file (where code of another file is placed) */
    kc_span inner_site;
    /* per inline level: the specialization of the function inlined there
     * (its type and integral template arguments) */
    const char *inline_key[KC_CUDA_MAX_INLINE + 1];
    KC_VEC(kc_cuda_declsym) declsyms; /* owned */
    uint32_t budget;
    bool in_loop_cond; /* evaluating a loop condition (evidence wording) */
    bool in_bool_value; /* evaluating a comparison into a value (`bool b = x < n`), not a branch's condition */
    /* The expression of the expression statement being walked (its value
     * unused: a call made for what it writes, `d.divmod(i, q, r);`). */
    CXCursor stmt_expr;
    bool trapped;      /* the last block walked ended in a trap (`__trap()`, `asm("trap;")`) */
    unsigned back_jumps; /* `continue`s and `goto`s walked so far (leaves_after) */
    uint32_t seq;        /* program-order counter of accesses, barriers and calls */
    /* Walks one statement (kc_cuda_walk_stmt): how inlined bodies and loop
     * bodies re-enter the statement walk from below it. */
    bool (*stmt)(struct kc_cuda_walk *w, CXCursor s);
} kc_cuda_walk;

/* The CUDA built-in variables. */
typedef enum kc_cuda_bv_kind {
    KC_CUDA_BV_NONE = 0,
    KC_CUDA_BV_THREAD, /* threadIdx */
    KC_CUDA_BV_BLOCK,  /* blockIdx */
    KC_CUDA_BV_BDIM,   /* blockDim */
    KC_CUDA_BV_GDIM,   /* gridDim */
} kc_cuda_bv_kind;

/* ---- cuda_value.c ---- */
kc_cuda_val kc_cuda_v_none(void);
kc_cuda_val kc_cuda_v_index(const kc_index *ix);
kc_cuda_val kc_cuda_v_deps(kc_deps d);
kc_deps kc_cuda_deps_or(kc_deps a, kc_deps b);
/* What a comparison of l and r (its predicate p) depends on: the thread
 * dependence of the sides' difference, where their indices carry it all. */
kc_deps kc_cuda_cmp_deps(kc_cuda_walk *w, const kc_cuda_val *l, const kc_cuda_val *r, const kc_pred *p);
bool kc_cuda_budget_ok(kc_cuda_walk *w);
const char *kc_cuda_ty_name(kc_cuda_walk *w, CXType t);
kc_span kc_cuda_wspan(kc_cuda_walk *w, CXCursor c);
kc_span kc_cuda_aspan(kc_cuda_walk *w, CXCursor c);
const char *kc_cuda_wtext(kc_cuda_walk *w, CXCursor c);
const kc_index *kc_cuda_ix_const(kc_cuda_walk *w, int64_t v, uint8_t bits);
const kc_index *kc_cuda_ix_atom(kc_cuda_walk *w, kc_atom_kind kind, uint32_t id, kc_deps d, uint8_t bits);
const kc_index *kc_cuda_ix_opaque_text(kc_cuda_walk *w, kc_span span, const char *text, kc_deps d, uint8_t bits);
const kc_index *kc_cuda_ix_opaque(kc_cuda_walk *w, CXCursor c, kc_deps d, uint8_t bits);
const kc_index *kc_cuda_as_index(kc_cuda_walk *w, kc_cuda_val *v, CXCursor c);
kc_cuda_bind *kc_cuda_env_find(kc_cuda_fn *fn, CXCursor decl);
/* The latest binding named by the n characters at `name`, in fn and the
 * functions whose variables a lambda captures (and, with `callers`, the
 * functions it is inlined into); NULL if none. */
kc_cuda_bind *kc_cuda_env_find_name(kc_cuda_fn *fn, const char *name, size_t n, bool callers);
kc_cuda_bind *kc_cuda_env_bind(kc_cuda_walk *w, CXCursor decl, const char *name, kc_cuda_val v);
void kc_cuda_env_copy(kc_cuda_env *dst, const kc_cuda_env *src);
bool kc_cuda_val_same(const kc_cuda_val *a, const kc_cuda_val *b);
kc_cuda_val kc_cuda_val_join(kc_cuda_walk *w, const kc_cuda_val *a, const kc_cuda_val *b, kc_deps cd,
                             const char *name, kc_span at);
uint32_t kc_cuda_symbol_get(kc_cuda_walk *w, const char *name, kc_symbol_kind kind, bool *created);
/* A symbol read from kernel parameter `param` (a struct field `p.x`, an
 * accessor's `x.size(0)`): found, or made with its span and width. */
uint32_t kc_cuda_param_symbol(kc_cuda_walk *w, const char *name, uint32_t param, kc_span span, uint8_t bits);
void kc_cuda_size_fact(kc_cuda_walk *w, const kc_index *side, kc_deps other, kc_span at);
const kc_pred *kc_cuda_preds_copy(kc_cuda_walk *w, const kc_cuda_preds *p, uint32_t *n);
uint32_t kc_cuda_mk_cond(kc_cuda_walk *w, kc_span span, const char *text, kc_deps deps, bool negated,
                         const kc_pred *preds, uint32_t npreds);
bool kc_cuda_chain_thread_dep(kc_cuda_walk *w, uint32_t from, uint32_t stop);
/* The innermost thread-dependent condition from `from` up to `stop`, or KC_NONE. */
uint32_t kc_cuda_thread_cond(kc_cuda_walk *w, uint32_t from, uint32_t stop);
uint32_t kc_cuda_mk_access(kc_cuda_walk *w, kc_access_kind kind, const kc_cuda_val *p, CXCursor whole, CXCursor addr,
                           bool via_ldg);
kc_cuda_val kc_cuda_load_value(kc_cuda_walk *w, uint32_t acc, const kc_cuda_val *p, CXType t);
kc_cuda_val kc_cuda_deref(kc_cuda_walk *w, kc_cuda_val p, CXCursor whole, CXType t, int mode);
kc_cuda_val kc_cuda_ptr_add(kc_cuda_walk *w, kc_cuda_val p, kc_cuda_val *idx, CXCursor idx_expr, int64_t unit,
                            int sign);
/* After `p = b[i]` (bc the base's expression): where b is an array (not a
 * pointer) indexed by subscripts alone from its start, p keeps them and
 * i (kc_access.subs). */
void kc_cuda_keep_subscripts(kc_cuda_walk *w, const kc_cuda_val *b, CXCursor bc, kc_cuda_val *i, CXCursor ic,
                             kc_cuda_val *p);
void kc_cuda_mk_barrier(kc_cuda_walk *w, CXCursor at, const char *name);
/* After a barrier of the whole block: the __shared__ structs and
 * pointers held as values (kc_cuda_bind.block_value) read the same in
 * every thread. */
void kc_cuda_settle_block_values(kc_cuda_walk *w);
/* `s.f = r` (or `s.a.f op= r`) into a struct held as a value: what varies
 * by loop pass, block or data in `r` varies in `s` from then on. */
void kc_cuda_member_store(kc_cuda_walk *w, CXCursor lhs, const kc_cuda_val *r);
kc_cuda_bv_kind kc_cuda_builtin_var(CXCursor decl);
int kc_cuda_member_component(kc_cuda_walk *w, CXCursor member);
kc_deps kc_cuda_builtin_deps(kc_cuda_bv_kind k, int comp);
kc_cuda_val kc_cuda_builtin_value(kc_cuda_walk *w, kc_cuda_bv_kind k, int comp);
kc_cuda_val kc_cuda_linear_thread(kc_cuda_walk *w);
kc_cuda_val kc_cuda_block_size(kc_cuda_walk *w);
kc_cuda_val kc_cuda_mem_pointer(kc_cuda_walk *w, uint32_t sym, const char *name, kc_space space, CXType elem);
/* The symbol recorded for a declaration's key (w->declsyms), or KC_NONE. */
uint32_t kc_cuda_declsym_find(const kc_cuda_walk *w, const char *key);
kc_cuda_val kc_cuda_local_member_array(kc_cuda_walk *w, CXCursor member, CXCursor base);
kc_cuda_val kc_cuda_convert(kc_cuda_walk *w, kc_cuda_val v, CXType t, CXCursor e);
/* Arithmetic on evaluated operands (`lc`, `rc` their expressions), with the
 * products of runtime sizes recorded for KC304. */
/* `~c` of a constant c: its value; any other unary operator kcheck does
 * not model (`~x`, `!x` aside): the value's dependences. */
kc_cuda_val kc_cuda_unary_rest(kc_cuda_walk *w, CXCursor e, kc_cuda_val v);
kc_cuda_val kc_cuda_arith(kc_cuda_walk *w, CXCursor e, enum CXBinaryOperatorKind op, kc_cuda_val l, CXCursor lc,
                          kc_cuda_val r, CXCursor rc);
/* `p` moved by `delta` elements. */
kc_cuda_val kc_cuda_ptr_offset(kc_cuda_walk *w, kc_cuda_val p, int64_t delta);
/* The arithmetic operator of a compound assignment (`+=` -> `+`). */
enum CXBinaryOperatorKind kc_cuda_compound_base(enum CXBinaryOperatorKind op);
bool kc_cuda_is_incdec(enum CXUnaryOperatorKind op);
bool kc_cuda_is_assign(enum CXBinaryOperatorKind op);

/* The products recorded from index `first` on are stored in the 32-bit
 * integer variable `decl` (its declaration's initializer when
 * at_declaration, else a later assignment): kc_product.narrow_*. */
void kc_cuda_mark_narrowing(kc_cuda_walk *w, CXCursor decl, uint32_t first, bool at_declaration);

/* ---- cuda_call.c ---- */
const char *kc_cuda_callee_name(kc_cuda_walk *w, CXCursor call, CXCursor ref);
/* The loops around a call that may return something else in every pass
 * (a function kcheck cannot see into, given a pointer): their bits; 0 for
 * any other call. */
uint64_t kc_cuda_call_pass_loops(const kc_cuda_walk *w, const CXCursor *args, int na, bool unresolved);
/* Is an argument a pointer into memory the kernel was given (a pointer
 * parameter, or a pointer variable: `src + itr_idx`), not to an array of
 * its own? A call the walk does not follow that is given one accesses
 * memory the model does not see (KC_GAP_UNFOLLOWED). */
bool kc_cuda_passes_memory(const CXCursor *args, int na);
bool kc_cuda_bare_variable(CXCursor arg);
/* For a call clang could not resolve: the i-th parameter (of na) of the
 * functions it names, where none of them takes that argument by reference
 * to non-const; else a null cursor (the argument may be written). */
CXCursor kc_cuda_candidate_param(CXCursor call, int i, int na);
/* Is one of the functions `call` may call the project's own (a
 * `__shfl_xor` overload for a key/value pair, built on `__shfl_xor_sync`),
 * not only the toolkit's? */
bool kc_cuda_user_overload(CXCursor call);
bool kc_cuda_starts_with(const char *s, const char *p);
const char *kc_cuda_cg_class_of_type(kc_cuda_walk *w, CXType t);
int64_t kc_cuda_tile_size(CXType t);
bool kc_cuda_in_cg_namespace(CXCursor decl);
CXCursor kc_cuda_member_object(CXCursor call);
/* Is the member call written `p->f(...)`, through a pointer (from the text)? */
bool kc_cuda_member_arrow(const kc_cuda_tu *t, CXCursor call);
CXCursor kc_cuda_inline_target(kc_cuda_walk *w, CXCursor call, CXCursor ref);
/* A call of the project's that the walk does not follow (kc_deps.unseen). */
bool kc_cuda_call_unfollowed(kc_cuda_walk *w, CXCursor call);
/* The `block_aggregate` out-parameter of a CUB block collective: block-uniform. */
bool kc_cuda_block_aggregate(kc_cuda_walk *w, CXCursor param);
/* The frame whose variables a lambda captures: the function that defines
 * it, wherever it is called from (`strided_op(n, [&](int i) { ... _v[i]
 * ... })` calls it inside strided_op, inlined from the kernel that defines
 * it and `_v`); the caller when none of the frames holds it. */
struct kc_cuda_fn *kc_cuda_lambda_home(kc_cuda_walk *w, CXCursor def);
CXCursor kc_cuda_lambda_target(kc_cuda_walk *w, CXCursor ref);
const char *kc_cuda_legacy_warp_sync_name(kc_cuda_walk *w, const char *name);
/* A texture or surface read of the toolkit's (`tex3D<float>(obj, x, y, z)`,
 * `tex1Dfetch(ref, i)`, `surf2Dread`): recorded as a call
 * (KC_CALL_TEXTURE_READ), with the loop it runs in. */
void kc_cuda_texture_read(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na);
/* Which specialization of a function a call inlines: its type and its
 * integral template arguments (`float (float)<4>`), for the symbols of
 * the arrays it declares. */
const char *kc_cuda_specialization_key(kc_cuda_walk *w, CXCursor ref, int nt);
bool kc_cuda_call_may_sync(kc_cuda_walk *w, CXCursor e, CXCursor ref, const char *name);
bool kc_cuda_call_unseen(CXCursor ref);
void kc_cuda_record_call(kc_cuda_walk *w, CXCursor e, const char *name, uint32_t flags, const char *fix,
                         const CXCursor *args, int na);
void kc_cuda_pin_params(kc_cuda_walk *w, CXCursor e, unsigned depth);
/* A parameter through which the callee can write the caller's variable:
 * a reference to non-const (`int &x`). */
bool kc_cuda_out_param(CXCursor param);
/* KC_CUDA_EV_ADDR for a struct object bound to a reference parameter
 * (binding loads nothing), else KC_CUDA_EV_LOAD. */
int kc_cuda_arg_mode(CXCursor call, CXCursor arg);
/* The value of a call of a function kcheck does not model, of integer
 * type: an opaque of the arguments (`min(x, C)`: one at most C). */
const kc_index *kc_cuda_call_result(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na,
                                    kc_deps d, uint8_t bits);

/* ---- cuda_accessor.c ---- */
/* A PyTorch tensor accessor type (at::GenericPackedTensorAccessor,
 * at::TensorAccessor): its element type, rank, index width and traits. */
typedef struct kc_cuda_accessor {
    CXType elem;
    unsigned rank;
    uint8_t index_bits;
    bool restrict_;
} kc_cuda_accessor;
bool kc_cuda_accessor_type(CXType t, kc_cuda_accessor *out);
/* The value of a kernel parameter (or parameter struct field) of accessor
 * type, symbol `sym`: a pointer to its elements in global memory. */
kc_cuda_val kc_cuda_accessor_param(kc_cuda_walk *w, uint32_t sym, const char *name, const kc_cuda_accessor *acc);
/* A field of a struct kernel parameter (`p.n`, `p.data`): a symbol named by
 * its path, a global pointer, an accessor, or a nested struct. */
kc_cuda_val kc_cuda_struct_field(kc_cuda_walk *w, const kc_cuda_val *base, CXCursor member);
/* `x[i][j]` (an access of x's elements: an operator call in an
 * instantiation, a subscript in a template) and `x.size(k)`, `x.stride(k)`
 * (symbols); false when `e` is none of these. `ev` evaluates the
 * operands (kc_cuda_ev). */
typedef kc_cuda_val (*kc_cuda_ev_fn)(kc_cuda_walk *w, CXCursor e, int mode);
bool kc_cuda_accessor_call(kc_cuda_walk *w, CXCursor e, int mode, kc_cuda_ev_fn ev, kc_cuda_val *out);
/* A member expression (`s[i].f`, `p->f`, `t.x`) evaluated as `mode` says,
 * its operands by `ev` (cuda_member.c). */
kc_cuda_val kc_cuda_ev_member(kc_cuda_walk *w, CXCursor e, int mode, kc_cuda_ev_fn ev);
/* Atomics (a read-modify-write of the first argument), cache-hint loads and
 * stores (`__ldg`, `__stcs`), WMMA tile loads and stores (an access of the
 * pointer with no element offset), their operands evaluated with `ev`:
 * true with the call's value in *out when `name` is one. */
bool kc_cuda_memory_call(kc_cuda_walk *w, CXCursor e, const char *name, const CXCursor *args, int na, CXType rt,
                         kc_cuda_ev_fn ev, kc_cuda_val *out);

/* ---- cuda_expr.c ---- */
kc_cuda_val kc_cuda_ev_cond(kc_cuda_walk *w, CXCursor e, kc_cuda_preds *pos, kc_cuda_preds *neg);
void kc_cuda_name_load(kc_cuda_walk *w, const kc_cuda_val *v, const char *name);
kc_cuda_val kc_cuda_ev(kc_cuda_walk *w, CXCursor e, int mode);
/* A bool expression, with the comparisons that hold when it is true or
 * false kept in the value (cpos/cneg). */
kc_cuda_val kc_cuda_ev_bool(kc_cuda_walk *w, CXCursor e);
/* A variable declared outside the function (file scope, namespace, static
 * member) used in it. */
kc_cuda_val kc_cuda_global_value(kc_cuda_walk *w, CXCursor decl, CXCursor use, int mode);
/* The value of an expression with nothing under it that clang could not
 * type (what is left of `n * 5` where `n` was never declared, its
 * declaration lost with a type from a missing header): nothing known, and
 * in a loop something that may change in every pass. */
kc_cuda_val kc_cuda_lost_value(kc_cuda_walk *w, CXCursor e);
/* The loops around the walk's place, as bits (kc_loop_bit). */
uint64_t kc_cuda_loops_around(const kc_cuda_walk *w);
/* A __shared__ array declared by `decl`, used through symbol `sym`. */
void kc_cuda_shared_array(kc_cuda_walk *w, CXCursor decl, uint32_t sym);

/* ---- cuda_loop.c ---- */
bool kc_cuda_walk_loop(kc_cuda_walk *w, CXCursor s, const kc_cuda_pragma *pr);

/* ---- cuda_stmt.c ---- */

/* Lowers function `fn` (a kernel, or a device function when `device_fn`)
 * into `k`: parameters, symbols, loops, conditions, accesses, barriers. */
void kc_cuda_lower_function(kc_cuda_tu *t, CXCursor fn, kc_kernel *k, bool device_fn);

bool kc_cuda_walk_stmt(kc_cuda_walk *w, CXCursor s);

#endif
