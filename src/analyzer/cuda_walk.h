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
enum { EV_LOAD = 0, EV_STORE, EV_RMW, EV_ADDR };

/* An abstract value. */
typedef struct cu_val {
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
} cu_val;

/* A variable binding. */
typedef struct cu_bind {
    CXCursor decl;
    unsigned hash;
    const char *name;
    cu_val val;
    bool in_memory; /* a __shared__/__device__ scalar: reads and writes are accesses */
} cu_bind;

typedef KC_VEC(cu_bind) cu_env;

/* One function activation: the kernel, or an inlined device function. */
typedef struct cu_fn {
    struct cu_fn *caller;
    CXCursor decl;
    cu_env env;
    uint32_t entry_guard;
    kc_span div_return; /* first return under a thread-dependent condition */
    unsigned nret;
    bool ret_cond;      /* some return is conditional */
    cu_val ret;
} cu_fn;

/* An enclosing loop (or switch: loop == KC_NONE, a break target only). */
typedef struct cu_frame {
    uint32_t loop;
    uint32_t body_guard;
    kc_span div_exit; /* first thread-dependent break/continue in it */
} cu_frame;

/* A `#pragma unroll` found in front of a loop. */
typedef struct cu_pragma {
    kc_unroll unroll;
    int64_t count;
    kc_span span;
} cu_pragma;

/* A comparison of a condition, with the operand cursors. */
typedef struct cu_pred {
    kc_pred p;
    CXCursor lhs, rhs;
} cu_pred;

typedef KC_VEC(cu_pred) cu_preds;

typedef struct cu_walk {
    cu_tu *t;
    kc_model *m;
    kc_kernel *k;
    kc_arena *a;
    cu_fn *fn;
    uint32_t guard, loop;
    KC_VEC(cu_frame) frames;
    unsigned depth;
    unsigned inline_depth;
    CXCursor inline_stack[CU_MAX_INLINE + 1];
    kc_span call_site; /* valid while inlining: the call in the lowered function */
    uint32_t budget;
    bool in_loop_cond; /* evaluating a loop condition (evidence wording) */
} cu_walk;

typedef enum bv_kind { BV_NONE = 0, BV_THREAD, BV_BLOCK, BV_BDIM, BV_GDIM } bv_kind;

/* Tokens of a source range. */
typedef struct cu_toks {
    CXToken *v;
    unsigned n;
    CXTranslationUnit tu;
} cu_toks;

/* ---- cuda_value.c ---- */
cu_val cu_v_none(void);
cu_val cu_v_index(const kc_index *ix);
cu_val cu_v_deps(kc_deps d);
kc_deps cu_deps_or(kc_deps a, kc_deps b);
bool cu_budget_ok(cu_walk *w);
CXCursor cu_strip(CXCursor c);
CXCursor cu_referenced_decl(CXCursor c);
bool cu_same_decl(CXCursor a, CXCursor b);
bool cu_ty_is_int(CXType t);
bool cu_ty_is_ptr(CXType t);
bool cu_ty_is_array(CXType t);
bool cu_ty_is_record(CXType t);
bool cu_ty_is_arith(CXType t);
uint8_t cu_ty_bits(CXType t);
CXType cu_ty_pointee(CXType t);
int64_t cu_ty_step_elems(CXType t);
CXType cu_ty_innermost(CXType t);
uint8_t cu_ty_size(CXType t);
const char *cu_ty_name(cu_walk *w, CXType t);
kc_span cu_wspan(cu_walk *w, CXCursor c);
kc_span cu_aspan(cu_walk *w, CXCursor c);
const char *cu_wtext(cu_walk *w, CXCursor c);
const kc_index *cu_ix_const(cu_walk *w, int64_t v, uint8_t bits);
const kc_index *cu_ix_atom(cu_walk *w, kc_atom_kind kind, uint32_t id, kc_deps d, uint8_t bits);
const kc_index *cu_ix_opaque_text(cu_walk *w, kc_span span, const char *text, kc_deps d, uint8_t bits);
const kc_index *cu_ix_opaque(cu_walk *w, CXCursor c, kc_deps d, uint8_t bits);
const kc_index *cu_as_index(cu_walk *w, cu_val *v, CXCursor c);
cu_bind *cu_env_find(cu_fn *fn, CXCursor decl);
cu_bind *cu_env_bind(cu_walk *w, CXCursor decl, const char *name, cu_val v);
void cu_env_copy(cu_env *dst, const cu_env *src);
bool cu_val_same(const cu_val *a, const cu_val *b);
cu_val cu_val_join(cu_walk *w, const cu_val *a, const cu_val *b, kc_deps cd, const char *name, kc_span at);
uint32_t cu_symbol_get(cu_walk *w, const char *name, kc_symbol_kind kind, bool *created);
void cu_size_fact(cu_walk *w, const kc_index *side, kc_deps other, kc_span at);
const kc_pred *cu_preds_copy(cu_walk *w, const cu_preds *p, uint32_t *n);
uint32_t cu_mk_cond(cu_walk *w, kc_span span, const char *text, kc_deps deps, bool negated,
                    const kc_pred *preds, uint32_t npreds);
bool cu_chain_thread_dep(cu_walk *w, uint32_t from, uint32_t stop);
kc_cmp cu_cmp_of(enum CXBinaryOperatorKind op);
kc_cmp cu_cmp_negate(kc_cmp c);
kc_cmp cu_cmp_mirror(kc_cmp c);
enum CXBinaryOperatorKind cu_binop_of(CXCursor c);
uint32_t cu_mk_access(cu_walk *w, kc_access_kind kind, const cu_val *p, CXCursor whole, CXCursor addr,
                      bool via_ldg);
cu_val cu_load_value(cu_walk *w, uint32_t acc, const cu_val *p, CXType t);
cu_val cu_deref(cu_walk *w, cu_val p, CXCursor whole, CXType t, int mode);
cu_val cu_ptr_add(cu_walk *w, cu_val p, cu_val *idx, CXCursor idx_expr, int64_t unit, int sign);
void cu_mk_barrier(cu_walk *w, CXCursor at, const char *name);
bv_kind cu_builtin_var(CXCursor decl);
int cu_member_component(cu_walk *w, CXCursor member);
kc_deps cu_builtin_deps(bv_kind k, int comp);
cu_val cu_builtin_value(cu_walk *w, bv_kind k, int comp);
cu_val cu_linear_thread(cu_walk *w);
cu_val cu_block_size(cu_walk *w);
cu_val cu_mem_pointer(cu_walk *w, uint32_t sym, const char *name, kc_space space, CXType elem);
kc_space cu_decl_space(CXCursor decl, kc_space otherwise);
cu_val cu_global_value(cu_walk *w, CXCursor decl, CXCursor use, int mode);
cu_val cu_convert(cu_walk *w, cu_val v, CXType t, CXCursor e);

/* ---- cuda_expr.c ---- */
cu_val cu_ev_cond(cu_walk *w, CXCursor e, cu_preds *pos, cu_preds *neg);
const char *cu_callee_name(cu_walk *w, CXCursor call, CXCursor ref);
bool cu_is_incdec(enum CXUnaryOperatorKind op);
bool cu_is_assign(enum CXBinaryOperatorKind op);
void cu_name_load(cu_walk *w, const cu_val *v, const char *name);
cu_val cu_ev(cu_walk *w, CXCursor e, int mode);

/* ---- cuda_loop.c ---- */
bool cu_walk_loop(cu_walk *w, CXCursor s, const cu_pragma *pr);

/* ---- cuda_stmt.c ---- */
void cu_decl_var(cu_walk *w, CXCursor d);
void cu_toks_get(cu_walk *w, CXSourceLocation a, CXSourceLocation b, cu_toks *out);
void cu_toks_free(cu_toks *t);
bool cu_tok_is(cu_toks *t, unsigned i, const char *s);
unsigned cu_tok_off(cu_toks *t, unsigned i, unsigned *line);
unsigned cu_cursor_off(CXCursor c);
bool cu_walk_stmt(cu_walk *w, CXCursor s);

#endif
