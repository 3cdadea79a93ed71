/* cuda_tu.h — the translation unit being lowered, and the helpers every
 * file of the CUDA front end reads it with (cuda_tu.c): children, spans,
 * text, tokens, types, constant evaluation. Internal to the CUDA front
 * end; the bottom of it: cuda_tu.c calls nothing above it.
 *
 * Nothing here is shared between threads: a kc_cuda_tu lives for one call
 * of kc_cuda_lower.
 */
#ifndef KC_CUDA_TU_H
#define KC_CUDA_TU_H

#include <clang-c/Index.h>

#include "kc_model.h"

/* Limits that keep every input finite (see cuda_stmt.c). */
/* Recursion over the AST; deeper is opaque. Sized so that the deepest
 * recursion fits an 8 MB stack with the sanitizers' frames (about 15.5 KB
 * a level for ev_binary and kc_cuda_ev under ASan): 448 levels take about
 * 7 MB. The driver's workers have bigger stacks. */
#define KC_CUDA_MAX_DEPTH 448
#define KC_CUDA_MAX_INLINE 4         /* nesting of inlined device functions */
#define KC_CUDA_WORK_BUDGET 2000000u /* AST nodes visited per lowered function */

/* A template argument value seen at a launch: kernel<128><<<...>>>. */
typedef struct kc_cuda_tval {
    CXCursor tmpl;    /* the primary FunctionTemplate */
    unsigned param;   /* index among its template parameters */
    int64_t value;
    uint32_t line;    /* line of the launch */
} kc_cuda_tval;

/* What a call in the file passes to a pointer parameter of a function:
 * the address of a local array of the caller, or anything else. */
typedef struct kc_cuda_argspace {
    const char *callee; /* the function's name (overloads share the record) */
    unsigned arg;
    bool local;  /* a local array of the caller */
    bool shared; /* a pointer into a `__shared__` array */
    /* the caller's own pointer parameter passed on: it points where the
     * caller's callers point it (`via` the caller's name, NULL otherwise;
     * a kernel's parameters point to global memory) */
    const char *via;
    unsigned via_param;
    bool via_kernel;
} kc_cuda_argspace;

/* One translation unit being lowered. Borrowed pointers; the model owns
 * what is allocated for it. */
/* A statement the parse dropped because it names something no header
 * declares (`SYNC;`, a barrier macro from a missing header): it may do
 * anything, a barrier included. */
typedef struct kc_cuda_hole {
    uint32_t line, col;
    const char *name;
} kc_cuda_hole;

/* A map from cursors to indexes (clang_hashCursor, clang_equalCursors):
 * the questions a file's launches ask about the same functions and
 * variables over and over (a dispatch of thousands of launches in one
 * function) look their answers up instead of scanning lists. */
typedef struct kc_cuda_cmap {
    CXCursor *keys;
    uint32_t *vals; /* index + 1; 0: empty slot */
    uint32_t cap, len;
} kc_cuda_cmap;

/* The index kept for cursor c, or UINT32_MAX. */
uint32_t kc_cuda_cmap_get(const kc_cuda_cmap *m, CXCursor c);
void kc_cuda_cmap_put(kc_cuda_cmap *m, CXCursor c, uint32_t index);
void kc_cuda_cmap_free(kc_cuda_cmap *m);

/* The variables that some statement of a function writes (assigns,
 * increments, takes the address of), found in one walk of the function
 * and kept for every later question about it. */
typedef struct kc_cuda_fnwrites {
    CXCursor fn;
    CXCursor body; /* the function's body (its compound statement) */
    KC_VEC(CXCursor) written;
    /* per entry of written: the writing expression, and whether it is a
     * statement of the body itself (in no loop or branch) */
    KC_VEC(CXCursor) at;
    KC_VEC(uint8_t) top;
    KC_VEC(CXCursor) parent; /* the cursor around the writing expression (a block, for a statement) */
    /* the entries of written ordered by clang_hashCursor of the variable
     * (ties in source order), and those hashes */
    uint32_t *by_var;
    unsigned *var_hash;
} kc_cuda_fnwrites;

/* kc_cuda_param_space's index of the argspaces by callee, and its answers
 * so far, made on the first question (the argspaces are complete by
 * then: the launch walk records them before any function is lowered). */
typedef struct kc_cuda_param_index kc_cuda_param_index;

typedef struct kc_cuda_tu {
    CXTranslationUnit tu;
    CXFile main;          /* the main file (may be NULL: then isFromMainFile) */
    const kc_source *src; /* text of the main file */
    kc_model *m;
    KC_VEC(kc_cuda_tval) tvals;
    KC_VEC(kc_cuda_argspace) argspaces;
    kc_cuda_param_index *param_index;
    const kc_cuda_hole *holes; /* in file order */
    uint32_t nholes;
    KC_VEC(kc_cuda_fnwrites) fnwrites;
    kc_cuda_cmap fnwrites_of; /* function -> its fnwrites entry */
    KC_VEC(void *) dim3s; /* each dim3 variable's assignments (cuda_launch.c), found once */
    kc_cuda_cmap dim3s_of; /* dim3 variable -> its dim3s entry */
    KC_VEC(CXCursor) host_decls; /* the declarations of kc_model.host_vars, in order */
    /* The main file's tokens and their offsets, made on first use
     * (kc_cuda_main_toks); freed with kc_cuda_tu_free_toks. */
    CXToken *main_toks;
    unsigned main_ntoks;
    unsigned *main_tok_off;
    bool main_toks_done;
    /* Macros the files of the parse define inside an `#if` on __CUDA_ARCH__
     * (kc_cuda_macro_by_arch), in the model's arena, made on first use. */
    const char **arch_macros;
    uint32_t narch_macros;
    bool arch_macros_done;
} kc_cuda_tu;

/* ---- children ---- */

/* Children of a cursor, in order. Small lists live in `inl`. */
typedef struct kc_cuda_kids {
    CXCursor *v;
    unsigned n, cap;
    CXCursor inl[8];
} kc_cuda_kids;

void kc_cuda_kids_get(CXCursor c, kc_cuda_kids *out);
void kc_cuda_kids_free(kc_cuda_kids *k);
/* The first non-null `find(kid, depth)` over the children of c, in order:
 * the step of a depth-first search for a cursor. */
CXCursor kc_cuda_first_in_kids(CXCursor c, CXCursor (*find)(CXCursor, unsigned), unsigned depth);

/* ---- locations, spans, text ---- */

/* Is the location in the main file (after macro expansion)? Where: the
 * macro invocation for what a macro's body makes, the argument's own place
 * for what is written in an argument of a macro invoked there. */
bool kc_cuda_loc_in_main(const kc_cuda_tu *t, CXSourceLocation loc, uint32_t *line, uint32_t *col, uint32_t *off);
/* The same, always at the macro invocation. */
bool kc_cuda_expansion_in_main(const kc_cuda_tu *t, CXSourceLocation loc, uint32_t *line, uint32_t *col,
                               uint32_t *off);
/* Main-file span of a cursor (expansion locations; a span that collapses
 * inside a macro argument widens to the macro invocation). Invalid when
 * the cursor is not in the main file. */
kc_span kc_cuda_span(const kc_cuda_tu *t, CXCursor c);
/* Byte offsets of a span in the main file. */
void kc_cuda_span_offsets(const kc_cuda_tu *t, kc_span s, size_t *start, size_t *end);
/* Source text of a span, whitespace runs collapsed to one space (arena). */
const char *kc_cuda_span_text(const kc_cuda_tu *t, kc_span s);
/* Text of a cursor: its main-file source, else clang's pretty printing
 * (arena; never NULL). */
const char *kc_cuda_text(const kc_cuda_tu *t, CXCursor c);
/* As kc_cuda_text, for an argument of a call or of a launch's `<<<...>>>`:
 * where it is written in the body of a macro of this file, that text, not
 * the invocation's. */
const char *kc_cuda_arg_text(const kc_cuda_tu *t, CXCursor c);
/* Where `c` is written when it comes from the body of a `#define` of this
 * file (`Marlin_24<...><<<...>>>` inside `#define CALL_IF_2_4(...)`): that
 * place (its start) and the macro's name (arena). False otherwise. */
bool kc_cuda_macro_spelling(const kc_cuda_tu *t, CXCursor c, kc_span *at, const char **macro);
/* Spelling of a cursor (arena; "" for none). */
const char *kc_cuda_spelling(const kc_cuda_tu *t, CXCursor c);

/* ---- declarations ---- */

/* Is the cursor in user code: the main file or a header that is neither a
 * shim header nor a system header? */
/* A variable declared with an initializer that clang dropped (an error in
 * it: `long item = cub::UpperBound<...>(...)` without cub): its text goes
 * on with `=` after the declaration's extent. */
bool kc_cuda_lost_initializer(const kc_cuda_tu *t, CXCursor d);
/* The source text of the initializer of variable `d` (after its `=`, up
 * to the `;` or `,` that ends it), for initializers clang dropped; false
 * outside the main file or without one. */
bool kc_cuda_init_text(const kc_cuda_tu *t, CXCursor d, const char **text, size_t *len);
bool kc_cuda_in_user_code(CXCursor c);
/* Does the declaration carry a CUDA attribute (CXCursor_CUDA*Attr)? */
bool kc_cuda_has_attr(CXCursor decl, enum CXCursorKind attr);
/* The memory space a declaration names (__shared__, __constant__,
 * __device__), else `otherwise`. */
kc_space kc_cuda_decl_space(CXCursor decl, kc_space otherwise);

/* ---- what the translation-unit walk recorded (cuda_lower.c) ---- */

/* Template values recorded for `tmpl`'s parameter `param`. */
unsigned kc_cuda_tvals_for(const kc_cuda_tu *t, CXCursor tmpl, unsigned param, int64_t *vals, unsigned max,
                           uint32_t *first_line);
/* The memory a pointer parameter of a __device__ function, analysed on its
 * own, points to: local when every call of it in the file passes a local
 * array of the caller (helpers that fill a register array), unknown when
 * nothing in the file calls it (or only functions that nothing calls pass
 * their own parameter on to it), else global. */
kc_space kc_cuda_param_space(kc_cuda_tu *t, const char *fn, unsigned param);
/* Frees t->param_index. */
void kc_cuda_param_index_free(kc_cuda_tu *t);

/* ---- expressions ---- */

/* Integer value of a constant expression, via clang's evaluator. */
bool kc_cuda_eval_int(CXCursor c, int64_t *out);
/* Does clang fold `c` to a constant (an integer or floating value)? */
bool kc_cuda_eval_constant(CXCursor c);
/* Is `call` a `<<<...>>>` launch (has an execution configuration)? */
bool kc_cuda_is_launch(CXCursor call);
/* Is `c` the execution configuration's call under such a launch? */
bool kc_cuda_is_config_call(CXCursor c);
/* Strips parentheses and single-child implicit nodes (casts, temporaries). */
CXCursor kc_cuda_strip(CXCursor c);
/* What the callee expression of `call` (its first child, stripped)
 * references: a function, an OverloadedDeclRef where clang left the call
 * dependent in a template, or a null cursor. */
CXCursor kc_cuda_callee_ref(CXCursor call);
/* The variable argument i of the call names, `v` or `&v` (its
 * clang_hashCursor), or 0. */
unsigned kc_cuda_arg_var(CXCursor call, unsigned i);

/* `while (true) { ...; break; }`: a loop body that ends in an
 * unconditional break, with no continue of its own loop in it
 * (has_continue, from the loop's scan), makes at most one pass: marks lp
 * so (kc_loop.one_pass, trip_max 1). */
void kc_cuda_mark_one_pass(kc_loop *lp, CXCursor body, bool has_continue);
/* Where the trip count is not known, at most how many passes the loop
 * makes: an integer divided or shifted right each pass (a butterfly's
 * `mask >>= 1`; shrink_bits, its width) ends within its width wherever it
 * starts; one counted up by a constant step from a constant start to
 * `min(x, C)` makes at most ceil((C - start) / step). */
void kc_cuda_trip_max(const kc_kernel *k, kc_loop *lp, unsigned shrink_bits);
/* The declaration a (stripped) DeclRefExpr names, else a null cursor. */
CXCursor kc_cuda_referenced_decl(CXCursor c);
bool kc_cuda_same_decl(CXCursor a, CXCursor b);

/* ---- types ---- */
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

/* ---- operators ---- */
kc_cmp kc_cuda_cmp_of(enum CXBinaryOperatorKind op);
/* The operator of a built-in binary (unary) operator expression, or of a
 * call of an overloaded operator that clang left unresolved in a template
 * (`tx += s`, `tx < n`, `++tx` with `tx` of a dependent type, when some
 * operator of that spelling is visible): such a call's children
 * (kc_cuda_kids_get) are its operands, as a built-in operator's are.
 * CXBinaryOperator_Invalid (CXUnaryOperator_Invalid) for anything else. */
enum CXBinaryOperatorKind kc_cuda_binop_of(CXCursor c);
enum CXUnaryOperatorKind kc_cuda_unop_of(CXCursor c);

/* ---- tokens ---- */

/* Tokens of a source range. */
typedef struct kc_cuda_toks {
    CXToken *v;
    unsigned n;
    CXTranslationUnit tu;
} kc_cuda_toks;

void kc_cuda_toks_get(const kc_cuda_tu *t, CXSourceLocation a, CXSourceLocation b, kc_cuda_toks *out);
void kc_cuda_toks_free(kc_cuda_toks *t);
/* The tokens of the main file that start at byte offsets a to b: a view
 * into the file's tokens, lexed once per translation unit (not to be
 * freed). clang_getLocationForOffset would map every macro argument of
 * the file on its first call, which takes minutes in a file of deeply
 * nested macros (docs/robustness.md). */
void kc_cuda_main_toks(kc_cuda_tu *t, size_t a, size_t b, kc_cuda_toks *out);
void kc_cuda_tu_free_toks(kc_cuda_tu *t);
bool kc_cuda_tok_is(kc_cuda_toks *t, unsigned i, const char *s);
unsigned kc_cuda_tok_off(kc_cuda_toks *t, unsigned i, unsigned *line);
unsigned kc_cuda_cursor_off(CXCursor c);

#endif
