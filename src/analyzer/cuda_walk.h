/* cuda_walk.h — the abstract interpreter of CUDA function bodies (internal
 * to the CUDA front end). See cuda_stmt.c for the overview.
 *
 *   cuda_value.c  abstract values, environment, index atoms, conditions,
 *                 accesses, barriers, CUDA built-in variables, conversions
 *   cuda_expr.c   expressions and calls (inlining of device functions)
 *   cuda_loop.c   loops: what they assign, induction variables, bounds
 *   cuda_stmt.c   statements, declarations, pragmas, the entry point
 *
 * Everything lives in the model's arena or in the walker; nothing is
 * shared between threads.
 */
#ifndef KC_CUDA_WALK_H
#define KC_CUDA_WALK_H

#include "cuda_lower.h"

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
    uint32_t base;        /* symbol of the base, or KC_NONE */
    const char *base_name;
    const char *elem_type;
    const kc_index *off;  /* offset from base in elements; NULL unknown */
    CXCursor idx_expr;    /* the index expression that last moved the pointer */
    uint32_t sparam;      /* a struct-typed kernel parameter: its index + 1 */
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
    kc_span call_site; /* valid while inlining: the call in the lowered function */
    uint32_t budget;
    bool in_loop_cond; /* evaluating a loop condition (evidence wording) */
    uint32_t seq;        /* program-order counter of accesses, barriers and calls */
} kc_cuda_walk;

/* The CUDA built-in variables. */
typedef enum kc_cuda_bv_kind {
    KC_CUDA_BV_NONE = 0,
    KC_CUDA_BV_THREAD, /* threadIdx */
    KC_CUDA_BV_BLOCK,  /* blockIdx */
    KC_CUDA_BV_BDIM,   /* blockDim */
    KC_CUDA_BV_GDIM,   /* gridDim */
} kc_cuda_bv_kind;

/* Tokens of a source range. */
typedef struct kc_cuda_toks {
    CXToken *v;
    unsigned n;
    CXTranslationUnit tu;
} kc_cuda_toks;

/* ---- cuda_value.c ---- */
kc_cuda_val kc_cuda_v_none(void);
kc_cuda_val kc_cuda_v_index(const kc_index *ix);
kc_cuda_val kc_cuda_v_deps(kc_deps d);
kc_deps kc_cuda_deps_or(kc_deps a, kc_deps b);
bool kc_cuda_budget_ok(kc_cuda_walk *w);
CXCursor kc_cuda_strip(CXCursor c);
CXCursor kc_cuda_referenced_decl(CXCursor c);
bool kc_cuda_same_decl(CXCursor a, CXCursor b);
bool kc_cuda_ty_is_int(CXType t);
bool kc_cuda_ty_is_ptr(CXType t);
bool kc_cuda_ty_is_array(CXType t);
bool kc_cuda_ty_is_record(CXType t);
bool kc_cuda_ty_is_arith(CXType t);
uint8_t kc_cuda_ty_bits(CXType t);
CXType kc_cuda_ty_pointee(CXType t);
int64_t kc_cuda_ty_step_elems(CXType t);
CXType kc_cuda_ty_innermost(CXType t);
uint8_t kc_cuda_ty_size(CXType t);
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
kc_cuda_bind *kc_cuda_env_bind(kc_cuda_walk *w, CXCursor decl, const char *name, kc_cuda_val v);
void kc_cuda_env_copy(kc_cuda_env *dst, const kc_cuda_env *src);
bool kc_cuda_val_same(const kc_cuda_val *a, const kc_cuda_val *b);
kc_cuda_val kc_cuda_val_join(kc_cuda_walk *w, const kc_cuda_val *a, const kc_cuda_val *b, kc_deps cd,
                             const char *name, kc_span at);
uint32_t kc_cuda_symbol_get(kc_cuda_walk *w, const char *name, kc_symbol_kind kind, bool *created);
void kc_cuda_size_fact(kc_cuda_walk *w, const kc_index *side, kc_deps other, kc_span at);
const kc_pred *kc_cuda_preds_copy(kc_cuda_walk *w, const kc_cuda_preds *p, uint32_t *n);
uint32_t kc_cuda_mk_cond(kc_cuda_walk *w, kc_span span, const char *text, kc_deps deps, bool negated,
                         const kc_pred *preds, uint32_t npreds);
bool kc_cuda_chain_thread_dep(kc_cuda_walk *w, uint32_t from, uint32_t stop);
/* The innermost thread-dependent condition from `from` up to `stop`, or KC_NONE. */
uint32_t kc_cuda_thread_cond(kc_cuda_walk *w, uint32_t from, uint32_t stop);
kc_cmp kc_cuda_cmp_of(enum CXBinaryOperatorKind op);
kc_cmp kc_cuda_cmp_negate(kc_cmp c);
kc_cmp kc_cuda_cmp_mirror(kc_cmp c);
enum CXBinaryOperatorKind kc_cuda_binop_of(CXCursor c);
uint32_t kc_cuda_mk_access(kc_cuda_walk *w, kc_access_kind kind, const kc_cuda_val *p, CXCursor whole, CXCursor addr,
                           bool via_ldg);
kc_cuda_val kc_cuda_load_value(kc_cuda_walk *w, uint32_t acc, const kc_cuda_val *p, CXType t);
kc_cuda_val kc_cuda_deref(kc_cuda_walk *w, kc_cuda_val p, CXCursor whole, CXType t, int mode);
kc_cuda_val kc_cuda_ptr_add(kc_cuda_walk *w, kc_cuda_val p, kc_cuda_val *idx, CXCursor idx_expr, int64_t unit,
                            int sign);
void kc_cuda_mk_barrier(kc_cuda_walk *w, CXCursor at, const char *name);
kc_cuda_bv_kind kc_cuda_builtin_var(CXCursor decl);
int kc_cuda_member_component(kc_cuda_walk *w, CXCursor member);
kc_deps kc_cuda_builtin_deps(kc_cuda_bv_kind k, int comp);
kc_cuda_val kc_cuda_builtin_value(kc_cuda_walk *w, kc_cuda_bv_kind k, int comp);
kc_cuda_val kc_cuda_linear_thread(kc_cuda_walk *w);
kc_cuda_val kc_cuda_block_size(kc_cuda_walk *w);
kc_cuda_val kc_cuda_mem_pointer(kc_cuda_walk *w, uint32_t sym, const char *name, kc_space space, CXType elem);
kc_space kc_cuda_decl_space(CXCursor decl, kc_space otherwise);
kc_cuda_val kc_cuda_global_value(kc_cuda_walk *w, CXCursor decl, CXCursor use, int mode);
kc_cuda_val kc_cuda_convert(kc_cuda_walk *w, kc_cuda_val v, CXType t, CXCursor e);

/* ---- cuda_expr.c ---- */
kc_cuda_val kc_cuda_ev_cond(kc_cuda_walk *w, CXCursor e, kc_cuda_preds *pos, kc_cuda_preds *neg);
const char *kc_cuda_callee_name(kc_cuda_walk *w, CXCursor call, CXCursor ref);
bool kc_cuda_is_incdec(enum CXUnaryOperatorKind op);
bool kc_cuda_is_assign(enum CXBinaryOperatorKind op);
void kc_cuda_name_load(kc_cuda_walk *w, const kc_cuda_val *v, const char *name);
kc_cuda_val kc_cuda_ev(kc_cuda_walk *w, CXCursor e, int mode);
/* A bool expression, with the comparisons that hold when it is true or
 * false kept in the value (cpos/cneg). */
kc_cuda_val kc_cuda_ev_bool(kc_cuda_walk *w, CXCursor e);

/* ---- cuda_loop.c ---- */
bool kc_cuda_walk_loop(kc_cuda_walk *w, CXCursor s, const kc_cuda_pragma *pr);

/* ---- cuda_facts.c ---- */
/* Syntactic facts of one function definition in device code (its own
 * body, not the functions it calls): double-precision literals and math
 * calls, legacy warp intrinsics, low-precision accumulators (KC403,
 * KC501, KC502). Loop ids come from the loops already lowered into k. */
void kc_cuda_device_facts(kc_cuda_tu *t, CXCursor fn, kc_kernel *k);
/* A __shared__ array declared by `decl`, used through symbol `sym`. */
void kc_cuda_shared_array(kc_cuda_walk *w, CXCursor decl, uint32_t sym);
/* Fills bounds_checked of every access of k from its guards. */
void kc_cuda_bounds_checks(kc_kernel *k);

/* ---- cuda_stmt.c ---- */
void kc_cuda_decl_var(kc_cuda_walk *w, CXCursor d);
void kc_cuda_toks_get(kc_cuda_walk *w, CXSourceLocation a, CXSourceLocation b, kc_cuda_toks *out);
void kc_cuda_toks_free(kc_cuda_toks *t);
bool kc_cuda_tok_is(kc_cuda_toks *t, unsigned i, const char *s);
unsigned kc_cuda_tok_off(kc_cuda_toks *t, unsigned i, unsigned *line);
unsigned kc_cuda_cursor_off(CXCursor c);
bool kc_cuda_walk_stmt(kc_cuda_walk *w, CXCursor s);

#endif
