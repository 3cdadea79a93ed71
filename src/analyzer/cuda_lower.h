/* cuda_lower.h — lowering a parsed CUDA translation unit into the kernel
 * model (internal to the CUDA front end: frontend_cuda.c, cuda_lower.c and
 * the interpreter of cuda_walk.h).
 *
 * cuda_lower.c finds the kernels, device functions and launches of the main
 * file and owns the helpers that map libclang cursors to spans and text;
 * the interpreter (cuda_value.c, cuda_expr.c, cuda_loop.c, cuda_stmt.c)
 * interprets one function body abstractly and fills a kc_kernel.
 * Nothing here is shared between threads: a kc_cuda_tu lives for one call of
 * kc_cuda_lower.
 */
#ifndef KC_CUDA_LOWER_H
#define KC_CUDA_LOWER_H

#include <clang-c/Index.h>

#include "kc_model.h"

/* Limits that keep every input finite (see cuda_stmt.c). */
#define KC_CUDA_MAX_DEPTH 512        /* recursion over the AST; deeper is opaque */
#define KC_CUDA_MAX_INLINE 4         /* nesting of inlined device functions */
#define KC_CUDA_WORK_BUDGET 2000000u /* AST nodes visited per lowered function */

/* A template argument value seen at a launch: kernel<128><<<...>>>. */
typedef struct kc_cuda_tval {
    CXCursor tmpl;    /* the primary FunctionTemplate */
    unsigned param;   /* index among its template parameters */
    int64_t value;
    uint32_t line;    /* line of the launch */
} kc_cuda_tval;

/* One translation unit being lowered. Borrowed pointers; the model owns
 * what is allocated for it. */
/* What a call in the file passes to a pointer parameter of a function:
 * the address of a local array of the caller, or anything else. */
typedef struct kc_cuda_argspace {
    const char *callee; /* the function's name (overloads share the record) */
    unsigned arg;
    bool local;
} kc_cuda_argspace;

typedef struct kc_cuda_tu {
    CXTranslationUnit tu;
    CXFile main;          /* the main file (may be NULL: then isFromMainFile) */
    const kc_source *src; /* text of the main file */
    kc_model *m;
    KC_VEC(kc_cuda_tval) tvals;
    KC_VEC(kc_cuda_argspace) argspaces;
} kc_cuda_tu;

/* Walks the main file of `tu` and fills `m`: kernels (templates from their
 * primary template), device functions that access memory, launches. */
void kc_cuda_lower_tu(CXTranslationUnit tu, const kc_source *src, kc_model *m);

/* ---- cursor helpers (cuda_lower.c) ---- */

/* Children of a cursor, in order. Small lists live in `inl`. */
typedef struct kc_cuda_kids {
    CXCursor *v;
    unsigned n, cap;
    CXCursor inl[8];
} kc_cuda_kids;

void kc_cuda_kids_get(CXCursor c, kc_cuda_kids *out);
void kc_cuda_kids_free(kc_cuda_kids *k);

/* Is the location in the main file (after macro expansion)? */
bool kc_cuda_loc_in_main(const kc_cuda_tu *t, CXSourceLocation loc, uint32_t *line, uint32_t *col, uint32_t *off);
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
/* Spelling of a cursor (arena; "" for none). */
const char *kc_cuda_spelling(const kc_cuda_tu *t, CXCursor c);
/* Is the cursor in user code: the main file or a header that is neither a
 * shim header nor a system header? */
bool kc_cuda_in_user_code(CXCursor c);

/* Does the declaration carry a CUDA attribute (CXCursor_CUDA*Attr)? */
bool kc_cuda_has_attr(CXCursor decl, enum CXCursorKind attr);

/* Template values recorded for `tmpl`'s parameter `param`. */
/* The memory a pointer parameter of a __device__ function, analysed on its
 * own, points to: local when every call of it in the file passes a local
 * array of the caller (helpers that fill a register array), else global. */
kc_space kc_cuda_param_space(const kc_cuda_tu *t, const char *fn, unsigned param);
unsigned kc_cuda_tvals_for(const kc_cuda_tu *t, CXCursor tmpl, unsigned param, int64_t *vals, unsigned max,
                           uint32_t *first_line);

/* ---- the abstract interpreter (cuda_stmt.c) ---- */

/* Lowers function `fn` (a kernel, or a device function when `device_fn`)
 * into `k`: parameters, symbols, loops, conditions, accesses, barriers. */
void kc_cuda_lower_function(kc_cuda_tu *t, CXCursor fn, kc_kernel *k, bool device_fn);

/* Records a launch `kernel<<<...>>>(...)` (a CallExpr with an execution
 * configuration) or a cudaLaunchKernel call; false when `call` is
 * neither. */
bool kc_cuda_record_launch(kc_cuda_tu *t, CXCursor call);
/* Is `call` a `<<<...>>>` launch (has an execution configuration)? */
bool kc_cuda_is_launch(CXCursor call);
/* Host code of the main file (cuda_host.c): marks the launches that an
 * error check follows (kc_launch.error_checked, in_host_code) and records
 * the runtime API calls returning cudaError_t (kc_model.host_calls). */
void kc_cuda_host_facts(kc_cuda_tu *t);

/* Integer value of a constant expression, via clang's evaluator. */
bool kc_cuda_eval_int(CXCursor c, int64_t *out);

#endif
