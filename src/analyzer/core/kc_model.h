/* kc_model.h — the kernel model: what the front ends produce and the rules
 * read. Language differences end in the front ends; nothing here names a
 * libclang or tree-sitter type.
 *
 * Ownership: a kc_model owns everything reachable from it. Strings and
 * index expressions live in the model's arena; the arrays are growable
 * vectors freed by kc_model_delete. The source buffer is borrowed and must
 * outlive the model.
 */
#ifndef KC_MODEL_H
#define KC_MODEL_H

#include <stdio.h>
#include <string.h>

#include "kc_base.h"
#include "kc_bound.h"
#include "kc_index.h"
#include "kc_source.h"
#include "kc_span.h"

/* ---- symbols ---------------------------------------------------------- */

typedef enum kc_symbol_kind {
    KC_SYM_PARAM = 1,  /* a kernel parameter */
    KC_SYM_CONSTEXPR,  /* a Triton tl.constexpr parameter or a CUDA template/constant */
    KC_SYM_LOCAL,      /* a local value the front end could not express otherwise */
    KC_SYM_GLOBAL,     /* a global / module-level name */
} kc_symbol_kind;

/* What the front end learnt about a symbol's magnitude. */
enum {
    KC_SF_SIZE = 1u << 0,         /* a problem size: bounds a mask, a guard or a loop */
    KC_SF_OUTER_STRIDE = 1u << 1, /* a stride of an outer dimension (x.stride(0)) */
    KC_SF_INNER_STRIDE = 1u << 2, /* an innermost stride (x.stride(-1)): presumed 1 */
    KC_SF_POINTER = 1u << 3,
    KC_SF_SHAPE_ARG = 1u << 4,    /* call site passes a tensor extent (x.shape[i], x.size(i)) */
    /* A problem size proper: compared with an index that varies by lane,
     * program or loop (a mask, a guard), or passed as a tensor extent. A
     * bare loop bound gives only KC_SF_SIZE. */
    KC_SF_PROBLEM_SIZE = 1u << 5,
    /* A verifier precondition pins its value (GPUVerify's `__requires(n ==
     * 65536)`, `__builtin_assume`): conditions on it may be uniform for
     * reasons kcheck does not evaluate. */
    KC_SF_PINNED = 1u << 6,
    /* Triton: a launch passes a Python float for it (`1e-6`, `float(x)`,
     * `1.0 / math.sqrt(d)`, a `float` parameter of the launching function). */
    KC_SF_FLOAT_ARG = 1u << 7,
    /* CUDA: a global object declared const (`__device__ constexpr int t[8]`):
     * nothing the kernel does can change what it holds. */
    KC_SF_READ_ONLY = 1u << 8,
};

typedef struct kc_symbol {
    const char *name;
    kc_symbol_kind kind;
    uint32_t param;       /* parameter index, or KC_NONE */
    uint32_t facts;       /* KC_SF_* */
    uint8_t bits;         /* 32 or 64 (0 unknown) */
    bool has_value;       /* a single known value */
    int64_t value;
    uint32_t nvalues;     /* all values seen (call sites, autotune configs) */
    const int64_t *values;
    const char *value_origin; /* where the value came from, e.g. "call site on line 40" */
    const char *size_evidence; /* why it is a size, e.g. "compared in the mask on line 22" */
    const char *arg_text;     /* what a call site passes, e.g. "input.shape[1]" */
    const char *float_evidence; /* KC_SF_FLOAT_ARG: e.g. "the launch on line 88 passes `eps` = `1e-6`" */
    kc_span span;             /* declaration */
    /* The kernel or its launch guarantees the value is a multiple of
     * `multiple_of` (a constant) or of symbol `multiple_of_symbol`:
     * tl.static_assert(N % BLOCK == 0), tl.assume(...), a host-side assert,
     * a grid of N // BLOCK programs. 0 / KC_NONE when nothing is known
     * (KC303 stays quiet for such sizes). */
    int64_t multiple_of;
    uint32_t multiple_of_symbol;
    const char *multiple_evidence; /* e.g. "tl.static_assert(N % BLOCK == 0) on line 9" */
    /* Every launch that binds this parameter passes a value at least as
     * large as what it passes for symbol `at_least_symbol`
     * (`BLOCK_N=triton.next_power_of_2(E)` next to `E=E`): a loop over
     * the other symbol in steps of this one makes one pass. KC_NONE when
     * nothing is known. */
    uint32_t at_least_symbol;
    const char *at_least_evidence; /* e.g. "BLOCK_N = triton.next_power_of_2(E) at the launch on line 82" */
    /* With a cap (`min(triton.next_power_of_2(E), 32768)`): at least the
     * smaller of the two, so a loop over E in steps of it makes at most
     * ceil(E / cap) passes; 0: no cap. */
    int64_t at_least_cap;
    /* Grid axes (bits) along which every launch binding it runs one
     * program per row of a flattened tensor (kc_kernel.grid_rows) and
     * passes, for it, that tensor's row stride or row length: a program id
     * of such an axis times it spans the whole tensor. */
    uint8_t row_axes;
    /* Of row_axes, the axes where it is one of several trailing extents of
     * the counted tensor, not the last (T of a (B, H, T, K) tensor whose
     * B * H rows the axis counts): a program id times it alone spans a
     * tensor without the last extent (a per-position gate or statistic),
     * not the rows. */
    uint8_t row_part_axes;
    /* Of row_axes, the axes where it is the last of three or more trailing
     * extents (K of that tensor): times a program id it spans the rows only
     * with an extent of another, earlier dimension (T * K); with another
     * last extent (`i_bh * d * e`, d = q.shape[-1], e = v.shape[-1]) it
     * spans a per-head state. */
    uint8_t row_last_axes;
    /* Pointers: grid axes (bits) along which every launch binding it runs
     * one program per row of a tensor (kc_kernel.grid_rows) and passes, for
     * it, a per-sequence state of that tensor: one the launching code makes
     * from the counted extents and some of the others, leaving a middle
     * one out (`x.new_empty(B, H, D)` with a grid of `B * H` over a
     * (B, H, T, D) `x`). It holds a part of `x` divided by the extent left
     * out, and an in-bounds offset into it stays below its size. */
    uint8_t state_axes;
    const char *state_evidence; /* e.g. "the launch on line 149 passes `final_state` = `x.new_empty(B, H, D)` ..." */
    /* Strides: grid axes (bits) that every launch binding it rounds up
     * (`triton.cdiv(L, BLOCK)`) over an extent L while it passes, for it,
     * the stride of a dimension of a tensor it allocates `L + c` long
     * (`tmp.stride(2)` of `torch.empty((B, H, L + 256))`): a tile of that
     * axis, at most c + 1 long, stays inside the padded dimension. c, the
     * least over the launches, in padded_extra. */
    uint8_t padded_axes;
    int64_t padded_extra;
    const char *padded_evidence;
} kc_symbol;

typedef struct kc_param {
    const char *name;
    const char *type;     /* spelled type ("const float *", "tl.constexpr", "") */
    kc_span span;
    uint32_t symbol;
    bool is_pointer;
    bool is_constexpr;
    bool pointee_const;
    bool is_restrict;
    /* declared with a name kcheck could not expand where a qualifier goes
     * (`int *FINUFFT_RESTRICT p`, the macro from a header not found, or one
     * empty here): in the build it may be `__restrict__` */
    bool restrict_unknown;
    uint8_t elem_bytes;   /* pointee size, 0 unknown */
    const char *default_text;
    /* Triton: a parameter of a jit function that other jit functions call
     * (a helper), where some call may pass a block (a block of pointers
     * `a_ptr + offs_m[:, None] * s + offs_k[None, :]`, a block of
     * offsets): its rank and extents are not known, so the shapes built
     * from it are not either (KC302). False where every call shows a
     * scalar, and for a kernel only the host launches. */
    bool shape_unknown;
    /* Triton: the kernel's `@triton.heuristics` or `@triton.autotune`
     * configs supply it, so a launch passes no argument for it (positional
     * arguments after a `*splat` end before it). */
    bool supplied_by_decorator;
} kc_param;

/* ---- loops ------------------------------------------------------------ */

typedef enum kc_loop_kind {
    KC_LOOP_FOR = 1,       /* CUDA for */
    KC_LOOP_WHILE,         /* CUDA while / do, Python while */
    KC_LOOP_RANGE,         /* Python range(): a runtime loop in Triton */
    KC_LOOP_TL_RANGE,      /* tl.range(): runtime loop */
    KC_LOOP_STATIC_RANGE,  /* tl.static_range(): fully unrolled at compile time */
} kc_loop_kind;

typedef enum kc_unroll {
    KC_UNROLL_NONE = 0,
    KC_UNROLL_FULL,    /* #pragma unroll, tl.static_range */
    KC_UNROLL_COUNT,   /* #pragma unroll N, tl.range(..., loop_unroll_factor=N) */
    KC_UNROLL_DISABLE, /* #pragma unroll 1 */
} kc_unroll;

typedef struct kc_loop {
    uint32_t id;
    uint32_t parent;          /* enclosing loop or KC_NONE */
    kc_loop_kind kind;
    kc_span span;             /* the loop statement header (for ... : / for (...)) */
    kc_span range_span;       /* the range call / the condition, the place to point at */
    kc_span callee_span;      /* `tl.static_range` as written (for fix-its) */
    const char *callee_text;
    const char *header_text;  /* source text of the range call or the for header */
    const char *cond_text;    /* CUDA: the condition as written (`tmp > 0`), or NULL */
    const char *var;          /* induction variable, or NULL */
    const kc_index *start, *end, *step; /* NULL when unknown */
    const char *start_text, *end_text, *step_text;
    bool shrinks;             /* the variable is only divided or shifted right, once per pass (s >>= 1) */
    bool one_pass;            /* every pass ends in the body's last statement, a break: at most one pass */
    int64_t trip_count;       /* -1 unknown */
    int64_t trip_max;         /* where trip_count is unknown, at most this many passes (0: no bound known) */
    const char *trip_text;    /* symbolic trip count, e.g. "ceil(N / BLOCK_SIZE_N)" */
    kc_unroll unroll;
    int64_t unroll_count;
    kc_span unroll_span;      /* the pragma, when there is one */
    /* Bounds that are not compile-time constants (Triton: not constexpr). */
    uint32_t runtime_bound_symbol; /* first offending symbol, or KC_NONE */
    kc_span runtime_bound_span;
} kc_loop;

/* ---- conditions and predicates ---------------------------------------- */

typedef enum kc_cmp { KC_CMP_LT = 1, KC_CMP_LE, KC_CMP_GT, KC_CMP_GE, KC_CMP_EQ, KC_CMP_NE } kc_cmp;

/* The comparison that holds exactly where `c` does not (`>=` for `<`). */
kc_cmp kc_cmp_negate(kc_cmp c);
/* The same comparison with its operands swapped (`>` for `<`; `==` and
 * `!=` unchanged). */
kc_cmp kc_cmp_mirror(kc_cmp c);

/* One comparison `lhs op rhs` of a mask or a guard. */
typedef struct kc_pred {
    const kc_index *lhs, *rhs; /* NULL when not expressible */
    kc_cmp op;
    kc_span span;
} kc_pred;

/* A comparison and the condition it is evaluated under (KC_NONE: none). */
typedef struct kc_test {
    kc_pred pred;
    uint32_t cond;
} kc_test;

/* A condition guarding code (if / while / ternary), or the mask of a load. */
typedef struct kc_cond {
    uint32_t id;
    uint32_t parent;     /* enclosing condition, or KC_NONE */
    uint32_t loop;       /* innermost loop it is in, or KC_NONE */
    kc_span span;
    const char *text;
    kc_deps deps;        /* what the condition depends on */
    bool negated;        /* code is on the else branch */
    uint32_t npreds;
    const kc_pred *preds; /* the conjunction, where it is one */
    /* The comparisons the condition is made of, whatever the polarity (on
     * the else branch, or after `if c: return`, the code runs when they
     * fail): which values it tests (KC307). */
    uint32_t ntested;
    const kc_pred *tested;
} kc_cond;

/* ---- memory accesses --------------------------------------------------- */

typedef enum kc_access_kind { KC_ACC_LOAD = 1, KC_ACC_STORE, KC_ACC_ATOMIC } kc_access_kind;
typedef enum kc_space { KC_MEM_GLOBAL = 1, KC_MEM_SHARED, KC_MEM_LOCAL, KC_MEM_CONSTANT, KC_MEM_UNKNOWN } kc_space;

typedef struct kc_access {
    uint32_t id;
    kc_access_kind kind;
    kc_space space;
    uint32_t base;            /* symbol of the base pointer / array, or KC_NONE */
    /* The base's name. CUDA: for a pointer that is one of two bases (`c ? A
     * : B`, or set apart on two paths), base is KC_NONE and base_name the
     * choice's text, a string of its own per choice: accesses through the
     * same choice have the same base_name pointer (kc_access_same_base). */
    const char *base_name;
    const kc_index *offset;   /* elements from the base; NULL when unknown */
    uint8_t elem_bytes;       /* 0 unknown */
    /* CUDA: a member of a struct element (`w[i].hi`, `w[i].pos.x`): the
     * bytes it covers within the element of elem_bytes that `offset`
     * counts; field_bytes 0 when the access is the whole element. Two
     * members whose ranges do not meet never share a byte. */
    uint8_t field_off, field_bytes;
    const char *elem_type;
    /* CUDA: through a pointer cast to a type kcheck cannot size, other than
     * the elements `offset` counts (a vector type a template picks): the
     * access may be wider than one of them (offset and elem_bytes stay
     * those of the elements cast from) */
    bool recast;
    /* CUDA: with recast, the size of the type the elements of unknown size
     * were cast to, where that is known (`*reinterpret_cast<const int4 *>(
     * &x[8 * tid])`: 16 bytes a lane); 0 otherwise */
    uint8_t recast_bytes;
    /* CUDA: the subscripts of an array of two or more dimensions indexed
     * by subscripts alone (`s_f[sj - 4][si]`), outermost first; nsubs 0
     * otherwise. Each lies within its dimension where the code is correct
     * (C++ makes an index past a sub-array's extent undefined). */
    const kc_index *subs[4];
    uint8_t nsubs;
    uint32_t loop;            /* innermost enclosing loop, or KC_NONE */
    uint32_t guard;           /* innermost enclosing condition, or KC_NONE */
    kc_span span;             /* the whole access (the load call, the subscript) */
    kc_span addr_span;        /* the address / index expression */
    const char *addr_text;
    bool masked;              /* Triton: mask= given */
    kc_span mask_span;
    const char *mask_text;
    kc_deps mask_deps;
    uint32_t nmask_preds;
    const kc_pred *mask_preds;
    bool whole_block;         /* Triton: the access moves a block (not a scalar) */
    const char *value_name;   /* name the loaded value was bound to, for messages */
    bool via_ldg;             /* CUDA __ldg / read-only path */
    /* CUDA: its block goes on to leave the loop, with no `continue` or
     * `goto` in between: a `break` out of `loop` (breaks_loop), or a
     * `return` of the kernel (returns: every loop). No later pass of the
     * loop follows it. */
    bool breaks_loop, returns;
    bool is_volatile;         /* through a volatile pointer / array */
    uint32_t seq;             /* position in program order among accesses, barriers and calls */
    const char *dtype;        /* element type as the language names it ("float", "__half", "fp16"), or NULL */
    /* Triton load/store operand shapes (rank 0 and unknown flags when absent). */
    kc_shape ptr_shape, mask_shape, other_shape, value_shape;
    bool ptr_shape_known, mask_shape_known, other_shape_known, value_shape_known;
    bool has_other;
    kc_span other_span, value_span;
    /* What the stored value depends on (stores and atomics; zero when not
     * known): which program ids, through kc_deps.programs (KC404). */
    kc_deps value_deps;
    /* The guard of a CUDA access / the mask of a Triton one compares the
     * index with a size (i < n, offs < N): a bounds check is present. */
    bool bounds_checked;
    /* CUDA: where the access is written; differs from span when it is
     * reached through an inlined device function (span is then the call). */
    kc_span origin;
    /* CUDA, inlined accesses: the calls it is reached through, outermost
     * first (sites[0] is the call span names); a call written outside the
     * file has an invalid span. NULL and 0 when not inlined. */
    const kc_span *sites;
    uint32_t nsites;
    /* Triton: a load whose value nothing uses (`tl.load(p).to(tl.float32)`
     * as a statement): the compiler removes it. */
    bool discarded;
    /* Triton: through a tl.make_block_ptr block pointer (offset is NULL;
     * a store needs a value of exactly the block shape; boundary_check=
     * given sets bounds_checked). */
    bool block_ptr;
    /* What a block pointer's base and offsets depend on (block_ptr only):
     * which program ids pick the block it reads or writes (KC404). */
    kc_deps block_ptr_deps;
    /* kc_kernel.products whose results flow into the address (KC304 points
     * at the right one when several products have the same terms); may
     * over-approximate; empty when the front end does not track it. */
    uint32_t nproducts;
    const uint32_t *products;
} kc_access;

/* Where a diagnostic about an access points: its address expression when
 * the front end has one, else the whole access. */
static inline kc_span kc_access_point(const kc_access *a)
{
    return kc_span_valid(a->addr_span) ? a->addr_span : a->span;
}

/* ---- barriers ---------------------------------------------------------- */

typedef struct kc_barrier {
    kc_span span;
    const char *name;  /* "__syncthreads", "tl.debug_barrier", ... */
    uint32_t guard;    /* innermost enclosing condition or KC_NONE */
    uint32_t loop;
    /* An earlier return/break/continue under a thread-dependent condition
     * that lets some threads skip this barrier (invalid span when none). */
    kc_span divergent_exit;
    uint32_t exit_cond; /* the thread-dependent condition that exit is taken under, or KC_NONE */
    uint32_t seq;      /* position in program order (see kc_access.seq) */
    /* Where the barrier is written: differs from span when it is reached
     * through an inlined device function (span is then the call). */
    kc_span origin;
} kc_barrier;

/* ---- element reorders (Triton tl.view / tl.reshape(can_reorder=True)) --- */

typedef struct kc_reorder {
    kc_span span;          /* the whole call */
    kc_span callee_span;
    const char *callee_text; /* "tl.view" as written */
    const char *arg_text;    /* the tensor argument */
    const char *shape_text;  /* the shape argument */
    kc_shape from, to;
    bool from_dot;           /* its input is a tl.dot result */
    /* the input's shape is not known here (a helper's parameter or the
     * result of a helper): `from` is only what was assumed, and the call
     * may be to the shape the block already has, which folds away */
    bool from_unknown;
    bool can_reorder_kw;     /* tl.reshape(..., can_reorder=True) */
    /* The first use that observes element order (an element-wise op with
     * another block, a store, an address or a mask). use_kind NULL when no
     * such use was found (e.g. only fully reduced). */
    const char *use_kind;
    kc_span use_span;
    const char *fix_text;    /* order-preserving replacement for the whole call, or NULL */
} kc_reorder;

/* ---- opaque sub-expressions -------------------------------------------- */

/* A thread index split into groups: `threadIdx.x / C` (the group, e.g. the
 * warp) or `threadIdx.x % C` (the thread within its group, the lane), for
 * a constant C > 1 (also `>> k` and `& (2^k - 1)`). Every occurrence of
 * one split is one opaque (kc_kernel_add_split), so `s[lane]` of two
 * inlined helpers is the same element. */
typedef enum kc_split_kind { KC_SPLIT_NONE = 0, KC_SPLIT_GROUP, KC_SPLIT_MEMBER } kc_split_kind;

typedef struct kc_opaque {
    kc_span span;
    const char *text;
    uint8_t split;     /* kc_split_kind */
    uint8_t split_axis; /* the threadIdx component split */
    int64_t split_div; /* C */
    /* CUDA: `n / C` or `n >> k` of an integer n and a constant C = 2^k > 0
     * (`(blockIdx.x * blockDim.x + threadIdx.x) >> 3`): n and C; NULL and
     * 0 otherwise. */
    const kc_index *quot;
    int64_t quot_div;
    /* A compile-time constant kcheck cannot see (a `const` local whose
     * initializer names only what is missing): one atom for every
     * evaluation of its declaration (kc_kernel_const_opaque). */
    bool constant;
    /* CUDA: `min(x, C)` of a constant C: at most C (a loop bounded by it
     * makes at most that many passes). */
    bool bounded;
    int64_t at_most;
    /* Triton: `x % NK` whose modulus is a tile count rounded up (`NK =
     * tl.cdiv(K, BK)`): it ranges over tiles of K, the last of which may
     * run past K. */
    bool mod_tiles;
    uint32_t tiles_of; /* with mod_tiles: the symbol K, or KC_NONE */
} kc_opaque;

/* Triton tl.arange sources (the lane atoms of a Triton kernel). */
typedef struct kc_arange {
    kc_span span;
    kc_dim len;
    int64_t start;
    const char *text;
} kc_arange;

/* ---- accumulators (KC502) ---------------------------------------------- */

/* A value accumulated across loop passes (acc += x, acc = tl.dot(a, b, acc))
 * or a reduction/dot whose result type is narrow. */
typedef enum kc_accum_kind { KC_ACCUM_SUM = 1, KC_ACCUM_DOT, KC_ACCUM_REDUCE } kc_accum_kind;

typedef struct kc_accum {
    kc_span span;         /* the accumulating statement or call */
    kc_span decl_span;    /* where the accumulator got its type (tl.zeros(..., dtype=), `__half acc`) */
    const char *var;      /* the accumulator, or NULL */
    const char *dtype;    /* its element type ("fp16", "bf16", "__half", "float") */
    kc_accum_kind kind;
    uint32_t loop;        /* loop it accumulates across, or KC_NONE */
    /* The outermost loop it keeps accumulating across (the declaration is
     * outside every loop from `loop` out to this one); KC_NONE: `loop` only. */
    uint32_t outer_loop;
    /* Some loop it persists across is not in the model, or the front end
     * does not tell which ones it does: its number of additions is unknown. */
    bool passes_unknown;
    const char *fix_text; /* replacement for decl_span that widens it, or NULL */
    /* What else the widening must change in this statement: the added
     * operand converted (`sum += x` -> `sum += static_cast<float>(x)`, where
     * CUDA's __half/__nv_bfloat16 convert to several built-in types and
     * `float += __half` would be ambiguous); no span when nothing. A
     * widening fix-it applies fix_text and every statement's edit, or none:
     * a statement of the accumulator with neither (KC_ACCUM_UNFIXABLE in
     * operand_fix) keeps the whole fix-it back. */
    kc_span operand_span;
    const char *operand_fix;
} kc_accum;
/* A 16-bit sum of at most this many terms is at most 2^6 times a term:
 * each addition keeps at least 5 of fp16's 11 significant bits, and the
 * error is bounded by the loop, not by the problem size (KC502). */
#define KC_NARROW_SUM_TERMS 64

/* kc_accum.operand_fix of a statement the widening cannot rewrite. */
#define KC_ACCUM_UNFIXABLE ""

/* ---- integer products (KC304) -------------------------------------------- */

/* A product of two non-constant integer operands as the source spells it
 * (`row * stride`), recorded by the front end where it evaluates one. The
 * monomials of `value` carry the width the product was computed in; KC304
 * matches them against the monomials of access offsets to point at the
 * exact expression and to offer the widening fix-it. Optional: without
 * records KC304 reports at the access with no fix-it. */
typedef struct kc_product {
    kc_span span;               /* the whole product expression */
    const char *text;
    const kc_index *value;      /* the product as evaluated */
    const kc_index *lhs, *rhs;  /* its operands */
    kc_span lhs_span, rhs_span;
    const char *lhs_text, *rhs_text;
    /* The operand spelled so that it is computed in 64 bits, replacing
     * lhs_span / rhs_span: "row.to(tl.int64)", "(int64_t)row". NULL when
     * no mechanical spelling exists. */
    const char *lhs_widened, *rhs_widened;
    uint8_t bits;               /* width the product is computed in */
    /* CUDA: the product is stored in a 32-bit integer variable (`int row =
     * blockIdx.x * n;`, or `row = ...` later), which narrows a widened
     * product straight back:
     * the declaration as written ("int row"), and where its type is spelled
     * with the 64-bit spelling to put there (narrow_span invalid when the
     * type cannot be replaced mechanically). */
    const char *narrow_decl;
    uint32_t narrow_line;       /* the declaration's line */
    kc_span narrow_span;
    const char *narrow_widened;
} kc_product;

/* ---- calls (CUDA intrinsics, math, runtime API) -------------------------- */

enum {
    KC_CALL_DOUBLE_MATH = 1u << 0,  /* a double-precision math function (exp, sqrt, pow on double) */
    KC_CALL_LEGACY_SHFL = 1u << 1,  /* __shfl, __shfl_down, ... without _sync */
    KC_CALL_RUNTIME_API = 1u << 2,  /* cudaXxx returning cudaError_t */
    KC_CALL_RESULT_IGNORED = 1u << 3, /* the returned value is discarded */
    KC_CALL_WARP_SYNC = 1u << 4,    /* __syncwarp */
    KC_CALL_DEVICE = 1u << 5,       /* in device code (a kernel or __device__ function) */
    /* A call the front end did not look into (not inlined, not a known
     * intrinsic) that may synchronize the block inside (a library's
     * block reduction): recorded in program order with seq. */
    KC_CALL_MAY_SYNC = 1u << 6,
    /* Host code: a later cudaGetLastError/cudaPeekAtLastError check (or a
     * checking wrapper) in the same function reports this call's error. */
    KC_CALL_ERROR_CAUGHT = 1u << 7,
    /* With KC_CALL_DOUBLE_MATH: pow(float, int), which the C++ library's
     * pow(T, U) template computes in double. */
    KC_CALL_POW_INT = 1u << 8,
    /* A memory fence (__threadfence, __threadfence_block/_system): the
     * compiler keeps global loads on their side of it (KC102). */
    KC_CALL_FENCE = 1u << 9,
    /* CUDA host code: written in the body of a macro, not by the code that
     * uses the macro (`auto ret = cudaDeviceSynchronize();` inside
     * `CHECK_CUDA(A, debug)`): the macro's own machinery. */
    KC_CALL_IN_MACRO_BODY = 1u << 10,
    /* CUDA host code: the result is discarded although the call is the
     * argument of a macro named like a checker (`CHECK_CUDA(cudaMemcpy(...),
     * debug)` expanding to `A;`): the macro does not test it. */
    KC_CALL_CHECKER_DROPS = 1u << 11,
    /* CUDA host code: the result is only compared with cudaErrorNotReady
     * (`while (cudaStreamQuery(s) == cudaErrorNotReady)`): a wait on a
     * status, which an error ends as quietly as success; neither a check
     * nor a discarded result. */
    KC_CALL_POLLED = 1u << 12,
    /* Device code: a call of a function of the user's, or one clang left
     * unresolved in a template, that the model does not inline (a template
     * called with dependent arguments, a member function): what it reads
     * and writes is not among the kernel's accesses. */
    KC_CALL_UNSEEN = 1u << 13,
    /* CUDA host code: a discarded cudaDeviceSynchronize, whose only errors
     * are sticky faults of earlier kernels, followed by a runtime call
     * whose result is tested and that runs whenever it does
     * (kc_call.later_check): the fault is reported there, as that call's
     * error. */
    KC_CALL_FAULT_REPORTED_LATER = 1u << 14,
    /* CUDA host code: a discarded cudaDeviceSynchronize right after a
     * checked call that waited for the device (a blocking copy, a
     * synchronization; kc_call.later_check): nothing is pending, and the
     * faults of earlier kernels were that call's error. */
    KC_CALL_NOTHING_PENDING = 1u << 15,
    /* Device code: a texture or surface read (`tex3D<float>(obj, x, y, z)`,
     * `tex1Dfetch(ref, i)`, `surf2Dread`): global memory read through the
     * texture path, at coordinates the model keeps no address for. */
    KC_CALL_TEXTURE_READ = 1u << 16,
};

/* Is the runtime or library call named n clean-up, whose failure changes
 * nothing the program computes: freeing (`cudaFree*`, `cufftDestroy`, any
 * `*Destroy*`), unregistering, closing, resetting a device, undoing peer
 * access? */
static inline bool kc_cleanup_callee(const char *n)
{
    static const char *const names[] = {"cudaDeviceReset", "cudaHostUnregister", "cudaGraphicsUnregisterResource",
                                        "cudaIpcCloseMemHandle", "cudaDeviceDisablePeerAccess",
                                        "cudaCtxResetPersistingL2Cache"};
    if (!n)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return strncmp(n, "cudaFree", 8) == 0 || strstr(n, "Destroy") != NULL;
}

typedef struct kc_call {
    kc_span span;          /* the whole call */
    kc_span callee_span;
    const char *callee;    /* as written */
    uint32_t flags;        /* KC_CALL_* */
    uint32_t guard, loop;  /* innermost condition and loop, or KC_NONE */
    uint32_t seq;
    const char *fix_text;  /* mechanical replacement of the callee (expf for exp), or NULL */
    /* Start of the first argument (an empty span there is an insertion
     * point: `0xffffffff, ` for a legacy shuffle); invalid when none. */
    kc_span arg0_span;
    /* CUDA host code: the first argument's leading name as written (`s` of
     * `&s[g]`, `g`), or NULL. */
    const char *arg0_base;
    /* CUDA host code: the macro whose expansion the call is in (its name
     * as written where it is used), or NULL. */
    const char *macro;
    /* CUDA host code: the variable the result is stored in, when nothing
     * names it after (KC_CALL_RESULT_IGNORED), or NULL. */
    const char *stored_in;
    /* KC_CALL_FAULT_REPORTED_LATER: the checked call that reports it;
     * KC_CALL_NOTHING_PENDING: the checked call before it that waited */
    kc_span later_check;
    /* CUDA host code: a cudaStreamSynchronize of a stream an earlier checked
     * cudaStreamCreate* in the function made, or a cudaSetDevice of the
     * argument an earlier checked cudaSetDevice took: that checked call
     * (its argument is valid; only sticky faults are left); invalid when
     * none. */
    kc_span validated_by;
} kc_call;

/* Code whose compilation the run cannot tell: a branch of `#if COND` where
 * COND calls a function-like macro no header the run found defines
 * (`#if PROJ_IS_DEFINED(PROJ_HAVE_SYNC)` of a generated config header),
 * all of it from the `#if` to its `#endif`: clang took one branch, the
 * build may take the other. */
typedef struct kc_region {
    kc_span span;
    const char *why;
} kc_region;

/* CUDA host code: a runtime API call in a statement the parse dropped. */
typedef struct kc_lost_call {
    uint32_t line;
    const char *callee;
    const char *arg0; /* the first argument's leading name (`s` of `&s[g]`), or NULL */
    bool used;        /* wrapped in a call or assigned: written to be checked */
} kc_lost_call;

/* CUDA: a function of the host defined in the file at namespace scope (a
 * launcher, a stage of a host pipeline; not a class member). */
typedef struct kc_host_fn {
    const char *name;
    kc_span span; /* the whole definition */
    /* Why nothing runs it (kc_reach_mark: nothing in its repository names
     * it), or NULL. */
    const char *unreferenced;
} kc_host_fn;

/* A floating literal of double type in float code (0.5 instead of 0.5f). */
typedef struct kc_literal {
    kc_span span;
    const char *text;      /* as spelled: "0.5" */
    const char *macro;     /* the macro it comes from ("SCALE"), or NULL */
    const char *context;   /* what it is combined with, e.g. "x * 0.5" */
    kc_span context_span;  /* the expression `context` */
    const char *fix_text;  /* the literal in float ("0.5f"), or NULL when it is spelled in a macro */
    const char *beside_call; /* a math call beside it that is double already (`pow(x, 2)`,
                              * itself a finding), or NULL: the literal keeps the
                              * arithmetic in fp64 once that call is float */
    uint32_t loop;         /* innermost loop, or KC_NONE */
    /* CUDA: the fp64 operations the promoted value takes part in before it
     * becomes a float again (0: not known), and whether one of them is a
     * division or a math function. */
    uint8_t fp64_ops;
    bool fp64_costly;
} kc_literal;

/* ---- shared memory (KC103, KC402) --------------------------------------- */

typedef struct kc_shared_array {
    uint32_t symbol;       /* the symbol accesses use as base */
    const char *name;
    kc_span span;          /* the declaration */
    uint8_t rank;
    int64_t dims[KC_MAX_RANK]; /* -1 unknown (extern __shared__) */
    uint8_t elem_bytes;
    kc_span last_dim_span;     /* the last dimension's size in the declaration (padding fix-it) */
} kc_shared_array;

/* ---- Python boolean operators on blocks (KC305) -------------------------- */

typedef struct kc_block_logic {
    kc_span span;          /* the whole `a and b` / `not a` */
    kc_span op_span;       /* the operator keyword */
    const char *op;        /* "and", "or", "not" */
    const char *fix_text;  /* `(a) & (b)` etc., or NULL */
} kc_block_logic;

/* ---- masked-out lanes reaching a reduction (KC306) ---------------------- */

/* What the lanes a load's mask turns off hold when they reach a use: the
 * load's `other=` (undefined without one) carried through the element-wise
 * operations in between. */
typedef enum kc_fill {
    KC_FILL_NONE = 0, /* not tracked (no masked-out lanes, or lost) */
    KC_FILL_UNDEF,    /* undefined: the load has no other= */
    KC_FILL_ZERO,
    KC_FILL_POS,      /* finite and positive (exp of a finite value, 1.0) */
    KC_FILL_NEG,      /* finite and negative */
    KC_FILL_NONZERO,  /* finite, generally nonzero (0 - mean: the other operand's value) */
    KC_FILL_NEG_BIG,  /* a large negative stand-in for -inf (-1e30): exp gives 0 */
    KC_FILL_POS_BIG,
    KC_FILL_NEG_INF,
    KC_FILL_POS_INF,
    KC_FILL_NAN,      /* NaN or an infinity of either sign (0/0, x/0, -inf - -inf) */
    KC_FILL_ANY,      /* defined but not known: no judgement */
} kc_fill;

/* The hypotheses a flow is evaluated under: the load as written, and with
 * its other= set to each neutral element (for the fix-it). */
enum { KC_FILL_AS_WRITTEN = 0, KC_FILL_IF_ZERO, KC_FILL_IF_NEG_INF, KC_FILL_IF_POS_INF, KC_FILL_NHYP };

typedef enum kc_sink_kind {
    KC_SINK_SUM = 1, /* tl.sum, tl.cumsum, the K axis of tl.dot: needs 0 */
    KC_SINK_MAX,     /* tl.max, tl.argmax: needs -inf */
    KC_SINK_MIN,     /* tl.min, tl.argmin: needs +inf */
    KC_SINK_OTHER,   /* tl.reduce, tl.prod, xor_sum, a scan: only undefined or NaN lanes are judged */
} kc_sink_kind;

/* One use that combines lanes (a reduction along an axis, a scan, the K
 * axis of tl.dot) reached by lanes that the mask of a load turned off. */
typedef struct kc_lane_flow {
    kc_span span;         /* the reduction / tl.dot call */
    const char *sink;     /* "tl.sum", "tl.dot", "x.max" as written */
    kc_sink_kind kind;
    int axis;             /* reduced axis of the operand, -1 the whole block */
    bool dot;             /* the K axis of a tl.dot operand */
    uint32_t load;        /* kc_access id of the masked load */
    uint8_t fill[KC_FILL_NHYP]; /* kc_fill at the use under each hypothesis */
    /* The last operation that changed what the lanes hold as written
     * (`tl.exp(x - m)`), or NULL when they arrive as loaded. */
    const char *via;
    kc_span via_span;
    uint32_t loop;        /* innermost loop of the use, or KC_NONE */
} kc_lane_flow;

/* Triton: an operation where a float scalar parameter (KC_SF_FLOAT_ARG)
 * meets other data without a cast. Eager Triton types a Python-float
 * argument fp32, Inductor (a launch traced by torch.compile) fp64, and an
 * fp64 scalar promotes what it meets: the operation, and everything
 * computed from it until a cast, then runs in fp64 (KC501). */
typedef struct kc_fp64_use {
    uint32_t symbol;     /* the parameter's symbol */
    kc_span span;        /* the operation */
    const char *text;    /* as written */
    const char *with;    /* the eager type of what it meets ("fp32", "bf16", "int32"); NULL for a math call */
    const char *callee;  /* a math function that then runs in fp64 ("tl.rsqrt"), or NULL */
    bool block;          /* the operation runs over a block, not one scalar */
    uint32_t loop;       /* innermost loop, or KC_NONE */
    const char *fix_text; /* the statement that pins the parameter: "eps = eps.to(tl.float32)" */
} kc_fp64_use;

/* ---- what the front end could not analyse (KC002) ---------------------- */

/* Something the analysis of a file lacks: code that did not parse, a name
 * that a header kcheck did not find would have declared, a kernel left out.
 * Findings that depend on it may be missing; KC002 says so. */
typedef enum kc_gap_kind {
    KC_GAP_SYNTAX = 1, /* code that did not parse (the parser recovered past it) */
    KC_GAP_TYPE,       /* an unknown type or template */
    KC_GAP_NAME,       /* an unknown name: a macro, a constant, a variable, a member */
    KC_GAP_CALLEE,     /* an unknown function: not looked into; it may synchronize or write memory */
    KC_GAP_OTHER,      /* another error of the compiler's (its message is `what`) */
    KC_GAP_UNSEEN,     /* a kernel the parse lost (`what` is its name or the text at `span`) */
    KC_GAP_STRING,     /* CUDA source in a string that was not analysed (`what` says why) */
    KC_GAP_UNUSED,     /* a kernel template that nothing in its file launches or instantiates */
    KC_GAP_SPECIALIZATIONS, /* specializations of a template past the first KC_MAX_SPECIALIZATIONS, not
                               analysed one by one (`lines`: how many; the template itself is) */
    KC_GAP_UNFOLLOWED, /* a call of the user's the analysis does not follow (a template called with
                          dependent arguments, a member function, one too deep to inline) that is given a
                          pointer to the kernel's memory: what it reads and writes there is not analysed
                          (`what` is the callee) */
} kc_gap_kind;

/* The specializations of one template a front end lowers one by one, each
 * with its template arguments as constants; the template itself stands
 * for the rest (KC_GAP_SPECIALIZATIONS). */
#define KC_MAX_SPECIALIZATIONS 128

typedef struct kc_gap {
    kc_span span;       /* the first place */
    kc_gap_kind kind;
    const char *what;   /* the unknown name (`c10::Half`) or the compiler's message */
    const char *kernel; /* the kernel whose analysis it affects, or NULL (outside kernels) */
    uint32_t lines;     /* distinct lines of that kernel it affects */
    uint32_t last_line; /* (for counting distinct lines) */
    bool dropped;       /* the kernel was left out of the analysis entirely */
    /* KC_GAP_UNSEEN: the first error in the lost kernel's own declaration
     * (before its body), when there is one: its kind and name or message */
    kc_gap_kind cause_kind;
    const char *cause_what;
} kc_gap;

/* The integral template arguments kept per kernel and launch. */
#define KC_MAX_TARGS 8

/* One string of a file that holds CUDA source. */
typedef struct kc_embedded {
    kc_span span;        /* the string literal */
    const char *text;    /* arena: the file's bytes with all but the string's CUDA blanked (newlines kept),
                            src->len bytes, so that lines and columns are the file's */
    const char *why_not; /* when it cannot be analysed (an f-string's substitutions), why; else NULL */
} kc_embedded;

/* ---- kernels and launches ---------------------------------------------- */

/* How one grid axis counts tiles of an extent (KC303). */
typedef enum kc_grid_cover {
    KC_COVER_UNKNOWN = 0,
    KC_COVER_ROUNDS_UP, /* triton.cdiv(n, B), (n + B - 1) // B, math.ceil(n / B): a partial last tile */
    KC_COVER_FLOOR,     /* n // B: whole tiles only, no program past the extent */
} kc_grid_cover;

typedef struct kc_kernel {
    const char *name;
    kc_span span;       /* the whole definition */
    kc_span name_span;
    kc_lang lang;
    KC_VEC(kc_param) params;
    KC_VEC(kc_symbol) symbols;
    KC_VEC(kc_loop) loops;
    KC_VEC(kc_cond) conds;
    KC_VEC(kc_access) accesses;
    KC_VEC(kc_barrier) barriers;
    KC_VEC(kc_reorder) reorders;
    KC_VEC(kc_opaque) opaques;
    KC_VEC(kc_arange) aranges;
    KC_VEC(kc_accum) accums;
    KC_VEC(kc_call) calls;
    KC_VEC(kc_literal) literals;
    KC_VEC(kc_shared_array) shared_arrays;
    KC_VEC(kc_block_logic) block_logic;
    KC_VEC(kc_product) products;
    KC_VEC(kc_lane_flow) lane_flows; /* KC306 */
    /* Every ordering comparison of integer index values the kernel
     * evaluates (masks, guards, tl.where conditions), in program order:
     * KC303 names a bound that was computed but not applied. */
    KC_VEC(kc_pred) compares;
    /* Every comparison of an integer value loaded from memory (a sentinel
     * test `label == ignore_index`, a bound `idx < n`), with the condition
     * it is evaluated under, in program order (KC307). */
    KC_VEC(kc_test) data_tests;
    KC_VEC(kc_fp64_use) fp64_uses; /* KC501, Triton: in program order */
    /* Triton: an empty span at the first statement of the body after its
     * docstring, and that statement's indentation: where a statement can
     * be inserted (fix-its). */
    kc_span body_start;
    const char *body_indent;
    /* Triton: how its launches run, as the host code shows it. traced_by:
     * a launch is reached from code torch.compile traces (a
     * torch.autograd.Function, an nn.Module's forward, a torch.compile or
     * triton_op function), e.g. "`_swiglu`, called by
     * `SiLUMulFunction.forward` (a torch.autograd.Function)"; eager_by:
     * every launch runs outside tracing (torch.compiler.disable, a
     * torch.library.custom_op); NULL when not shown. */
    const char *traced_by;
    const char *eager_by;
    bool is_device_function; /* CUDA __device__ helper, analysed in place */
    /* Why nothing runs it: its name appears nowhere else in its repository
     * (kc_reach.h), e.g. "`k` is named nowhere else in its repository (...)";
     * NULL when something names it or it is not known. Its findings are
     * notes. */
    const char *unreferenced;
    /* CUDA: an instantiation of a template kernel (`k<128>`): its integral
     * template arguments in order (kc_targs_match); ntargs 0 otherwise. */
    int64_t targs[KC_MAX_TARGS];
    uint8_t ntargs;
    bool autotuned;
    /* Triton: launches read for it (in the file, or in the files of the run
     * that import it when the file has none). */
    uint32_t launches_seen;
    /* Triton: per grid axis, why every launch read runs one program (or
     * one tile of programs) per row of a tensor with every leading
     * dimension flattened into its rows (the token count of a model's
     * activations), e.g. "the launch on line 74 runs `n_rows` programs
     * along axis 0: ..."; NULL when a launch does not show it. */
    const char *grid_rows[3];
    /* Axes (bits) of grid_rows whose rows some launch takes from a tensor's
     * first dimension rather than from a tensor shown to have every leading
     * dimension flattened: the product spans that whole tensor, which need
     * not be a batch of activations. */
    uint8_t grid_rows_dim0;
    /* Triton: per grid axis, how every launch read counts its programs
     * (all agree, else KC_COVER_UNKNOWN); why says where, e.g. "the launch
     * on line 783 sizes grid axis 0 by `Tkv // BLOCK_N1`". size: for
     * KC_COVER_ROUNDS_UP, the parameter every launch passes the divided
     * extent for (`N_CTX_Q=Tq` with `triton.cdiv(Tq, 64)`), or KC_NONE. */
    struct {
        kc_grid_cover cover;
        const char *why;
        uint32_t size;
        bool numel; /* ROUNDS_UP: every launch divides a tensor's element count (`x.numel()`) */
    } grid_cover[3];
} kc_kernel;

typedef struct kc_launch_arg {
    const char *param;   /* parameter it binds to, when known */
    const char *text;
    bool has_value;
    int64_t value;
    /* CUDA: the argument is a product one of whose factors is the block's
     * x size (`blocks * threads` with block `threads`, `B * H * C` with
     * block `C`), through local variables written only by their
     * initializer: a multiple of blockDim.x in that launch. */
    bool block_multiple;
    /* CUDA: the block's x size is one of two values, `v` or a constant
     * (`v > 256 ? 256 : v`, `min(v, 1024)`), and the argument is a multiple
     * of `v` (as block_multiple): a multiple of blockDim.x while the block is
     * `v`. block_cap is the constant (0 when this is not so), block_var the
     * text of `v`. */
    int64_t block_cap;
    const char *block_var;
    /* CUDA: the launching function asserts before the launch that the
     * variable passed is a multiple of `multiple_of` (as written: `64`,
     * `max(Br, Bc)`; its value in multiple_value when a literal, else 0),
     * on line multiple_line (`assert(n % 64 == 0)`, `TORCH_CHECK(...)`, `if
     * (n % 64 != 0) throw ...`). NULL when nothing is asserted. */
    const char *multiple_of;
    int64_t multiple_value;
    uint32_t multiple_line;
    /* CUDA: bounds on the argument's value over the launching function's
     * variables (kc_bound.h), through locals written only by their
     * initializer: `256 * thr2` with `thr2 = (n + 255) / 256` is at least
     * n and at most n + 255. Unknown (num NULL) where not computed. */
    kc_bound lo, hi;
} kc_launch_arg;

/* What one axis of a launch's grid is, as far as its hardware limit goes
 * (grid x: 2^31-1 blocks; y and z, Triton's axes 1 and 2: 65535). */
typedef enum kc_grid_hazard {
    KC_GRID_UNKNOWN = 0, /* nothing known, or known to stay small */
    KC_GRID_CONST,       /* a constant (value) */
    KC_GRID_ROWS,        /* one program per row of a tensor with its leading dimensions flattened (tokens) */
    KC_GRID_PRODUCT,     /* a product of two or more run-time extents (batch x heads), not clamped */
    KC_GRID_FIRST_DIM,   /* one program per index of a tensor's first dimension (kc_grid_axis.matrix: of a matrix) */
} kc_grid_hazard;

typedef struct kc_grid_axis {
    kc_span span;        /* the axis expression at the launch (invalid when not written there) */
    const char *text;    /* the axis expression as written */
    kc_grid_hazard hazard;
    int64_t value;       /* KC_GRID_CONST */
    const char *why;     /* what the extent is made of, e.g. "`N * HQ`: `N` = len(cu_seqlens) - 1, `HQ` = q.shape[2]" */
    bool matrix;         /* KC_GRID_FIRST_DIM: the tensor is known to be 2-D (its first dimension is its rows) */
    kc_grid_cover cover;
    const char *cover_expr; /* the division it resolved to, e.g. "Tkv // BLOCK_N1" (through names) */
    const char *cover_size; /* the extent divided, as written there: "Tkv" */
} kc_grid_axis;

typedef struct kc_launch {
    const char *kernel;
    kc_span span;
    bool error_checked;   /* cudaGetLastError/cudaPeekAtLastError (or a checking macro) follows */
    /* CUDA: error_checked because every call of its host function is
     * followed by a last-error check (cuda_host.c): the file leaves the
     * check of its launchers to their callers. */
    bool checked_by_caller;
    bool in_host_code;    /* a CUDA <<<>>> launch (Triton launches are checked by Python) */
    /* CUDA: found in the text where the parse lost it (inside a macro from
     * a missing header): only the kernel and the configuration's text are
     * known (cuda_recover.c) */
    bool recovered;
    /* CUDA: nothing but other launches and error checks follows it in its
     * host function on its path (a launcher: unchecked, its caller may do
     * the check; checked, the launcher checks its own launches). */
    bool at_function_end;
    const char *grid_text, *block_text;
    /* CUDA: where the launch is written when it comes from the body of a
     * macro of the file, and that macro's name (every expansion of the
     * macro shares the place); invalid span and NULL otherwise. */
    kc_span spelled;
    const char *spelled_in;
    /* CUDA: an earlier launch of the same host function, in another arm of
     * a branch around both, that no check follows either (invalid: none):
     * one check after the branch covers both. */
    kc_span alt_of;
    /* CUDA: the launch is checked only in other builds: by a checking
     * macro after it that this build compiles to nothing (`ORcudaKernelCheck;`,
     * `CUDA_GET_LAST_ERROR` empty unless DEBUG; debug_check_empty), whose
     * name this is, or by a last-error check in an `#if` block this build
     * leaves out, whose macro this is. NULL when none. */
    const char *debug_check;
    bool debug_check_empty;
    /* CUDA: a test assertion written after the launch in its host function
     * (`ASSERT_NEAR`, `EXPECT_EQ`, `REQUIRE`): its name and line; NULL
     * when none. A kernel that did not run leaves its output as it was,
     * and an assertion on that output fails the test. */
    const char *test_assert;
    uint32_t test_assert_line;
    /* CUDA: the block's x, y, z sizes where the launch spells constants
     * (`256`, `dim3(32, 8)`, a dim3 variable initialized so); -1 unknown. */
    int64_t block_dim[3];
    /* CUDA: the integral template arguments of the kernel it launches
     * (`k<128><<<...>>>`), in order; ntargs 0 when it names none. */
    int64_t targs[KC_MAX_TARGS];
    uint8_t ntargs;
    kc_span block_span;   /* the block argument (CUDA), for messages */
    kc_grid_axis grid[3]; /* per axis of the grid (KC602) */
    /* CUDA: upper bounds on the grid's and the block's sizes per axis
     * (x, y, z), as kc_launch_arg.hi (`batch_size / 32` blocks of `32 *
     * 4`): at most grid_hi[0] * block_hi[0] threads along x. An axis the
     * launch leaves out is 1. Unknown (num NULL) where not computed. */
    kc_bound grid_hi[3], block_hi[3];
    KC_VEC(kc_launch_arg) args;
    bool partial_args; /* Triton: a `**kwargs` splat (or two `*` splats) hides some arguments */
} kc_launch;

/* May launch L run kernel k: the same name, and where both spell
 * integral template arguments (an instantiation, `k<128>`), the same
 * ones? */
static inline bool kc_launch_may_run(const kc_launch *L, const kc_kernel *k)
{
    if (!L->kernel || strcmp(L->kernel, k->name) != 0)
        return false;
    if (!L->ntargs || !k->ntargs)
        return true;
    if (L->ntargs != k->ntargs)
        return false;
    for (unsigned i = 0; i < L->ntargs; i++)
        if (L->targs[i] != k->targs[i])
            return false;
    return true;
}

typedef struct kc_model {
    const kc_source *src; /* borrowed */
    kc_lang lang;
    kc_arena *arena;
    KC_VEC(kc_kernel *) kernels;
    KC_VEC(kc_launch) launches;
    /* CUDA host code: runtime API calls returning cudaError_t (KC_CALL_RUNTIME_API,
     * with KC_CALL_RESULT_IGNORED when the result is discarded), in file order. */
    KC_VEC(kc_call) host_calls;
    /* CUDA host code: runtime API calls written in the file that the parse
     * dropped with their statement (`for (auto& [id, s] : mesh)` over a
     * type from a missing header): how many are wrapped in a call (a
     * checking macro) or assigned, and how many are bare statements. */
    uint32_t host_calls_unparsed_checked, host_calls_unparsed_bare;
    /* Those calls, in file order: a check among them is not seen (KC601
     * says so where one follows a finding). */
    KC_VEC(kc_lost_call) host_calls_unparsed_at;
    /* CUDA: the functions of the host the file defines (kc_host_fn). */
    KC_VEC(kc_host_fn) host_fns;
    /* CUDA: code in a preprocessor branch the run could not decide
     * (kc_region); findings in it are notes that say why. */
    KC_VEC(kc_region) unsure_code;
    /* CUDA: why no build file of its repository compiles the file
     * (kc_peers.unbuilt), or NULL; findings in it are notes that say so. */
    const char *unbuilt;
    /* CUDA: the GPU architectures the build files above the file compile
     * it for (kc_peers.build_arch_max, build_archs): the highest as NN, 0
     * when not known, and the list with the files it comes from. */
    unsigned build_arch_max;
    const char *build_archs;
    /* Triton: whether the file's repository calls torch.compile anywhere,
     * and how many of its Python files were read to tell (kc_peers). */
    kc_compile_use torch_compile;
    uint32_t repo_py_files;
    /* CUDA: the host variables the bounds of launches are written in
     * (KC_ATOM_HOST atoms index it), by name. */
    KC_VEC(const char *) host_vars;
    /* What the analysis of the file lacks, in file order (KC002). */
    KC_VEC(kc_gap) gaps;
    /* Every other file the analysis read (CUDA: the headers the parse
     * included, found through -I, <...> or other headers), arena strings:
     * a cached result holds only while they are unchanged. */
    KC_VEC(const char *) deps;
    /* CUDA front end: HIP source for AMD GPUs (its parse includes a HIP
     * header: `hip/...`, `hip_*.h`, `*_hip_*.h`; or it lives under a `hip/`
     * or `amd_detail/` directory, or is named so, or is a `.hip` file): its
     * warps are 64-lane wavefronts that run in lockstep, and the mask-less
     * warp intrinsics are HIP's API. */
    bool hip;
    /* CUDA source held in the file's strings (a Python file's
     * `load_inline(cuda_sources=...)`, `cupy.RawKernel(...)`): one entry per
     * string, filled by the Triton front end and lowered as CUDA by the
     * front-end door into `next`. */
    KC_VEC(kc_embedded) embedded;
    /* The models of those strings, chained (each its own CUDA translation
     * unit, at the file's own lines and columns); owned. */
    struct kc_model *next;
    /* The source `next`'s model was lowered from, when it owns it. */
    kc_source *owned_src;
} kc_model;

kc_model *kc_model_new(const kc_source *src, kc_lang lang);
void kc_model_delete(kc_model *m); /* NULL-safe */
kc_kernel *kc_model_add_kernel(kc_model *m, const char *name);
/* Removes kernel i (its analysis would rest on code that did not parse). */
void kc_model_drop_kernel(kc_model *m, uint32_t i);
/* Records a gap; one of the same kind, name and kernel grows instead
 * (its line count, when `span` is on another line). */
kc_gap *kc_model_add_gap(kc_model *m, kc_gap_kind kind, kc_span span, const char *what, const char *kernel);

/* Adds a symbol and returns its id. */
uint32_t kc_kernel_add_symbol(kc_model *m, kc_kernel *k, const char *name, kc_symbol_kind kind);
uint32_t kc_kernel_find_symbol(const kc_kernel *k, const char *name);
uint32_t kc_kernel_add_opaque(kc_model *m, kc_kernel *k, kc_span span, const char *text);
/* The opaque constant declared at `span` (kc_opaque.constant), made on
 * first use: a device function inlined twice reads the same one. */
uint32_t kc_kernel_const_opaque(kc_model *m, kc_kernel *k, kc_span span, const char *text);
/* The opaque of a split thread index (kc_split_kind), shared by every
 * occurrence of the same split; `text` names the first. */
uint32_t kc_kernel_add_split(kc_model *m, kc_kernel *k, kc_span span, const char *text, kc_split_kind kind,
                             unsigned axis, int64_t div);

/* Do two accesses go through the same base: one symbol, or the same
 * choice between bases (kc_access.base_name)? False when either is unknown. */
static inline bool kc_access_same_base(const kc_access *a, const kc_access *b)
{
    if (a->base != KC_NONE || b->base != KC_NONE)
        return a->base == b->base;
    return a->base_name && a->base_name == b->base_name;
}

/* Do two accesses of elements of one size touch members of them that do
 * not overlap (`w[i].hi` and `w[j].vec`)? Then they never share a byte,
 * whichever elements they are: the offsets count whole elements. */
static inline bool kc_access_fields_apart(const kc_access *a, const kc_access *b)
{
    if (!a->field_bytes || !b->field_bytes || !a->elem_bytes || a->elem_bytes != b->elem_bytes || a->recast ||
        b->recast)
        return false;
    return a->field_off + a->field_bytes <= b->field_off || b->field_off + b->field_bytes <= a->field_off;
}

/* Is condition c the same for every thread of a block although it names
 * threadIdx.x: one test `x < 0` or `x >= 0` whose x is c * threadIdx.x
 * (c > 0) plus thread-uniform terms that are each blockDim.x times a
 * multiple of c (`row = (d + blockIdx.x - gridDim.x + 1) * (blockDim.x * 4)
 * + threadIdx.x * 4`, a wavefront's row)? Then x = c * (K * blockDim.x +
 * t), 0 <= t < blockDim.x, with K the same for the block, and x < 0
 * exactly when K < 0. */
bool kc_cond_block_sign(const kc_cond *c);

/* Triton: an access of k through a block pointer with no boundary_check
 * whose block the program id of grid axis `axis` picks, or NULL: the
 * kernel presumes whole tiles along that axis (KC303). */
const kc_access *kc_kernel_unchecked_block_ptr(const kc_kernel *k, uint32_t axis);
/* Innermost-to-outermost: is loop `inner` the same as or nested in `outer`? */
bool kc_loop_within(const kc_kernel *k, uint32_t inner, uint32_t outer);
/* Does any condition from `cond` outwards depend on loop `loop`? */
bool kc_cond_chain_depends_on_loop(const kc_kernel *k, uint32_t cond, uint32_t loop);

/* Human-readable rendering of an index expression with the kernel's names,
 * e.g. "N*arange(0, BLOCK_SIZE_M) + target". Appends to sb. */
void kc_model_format_index(const kc_kernel *k, const kc_index *x, kc_strbuf *sb);
/* Same, returned as an arena string. */
const char *kc_model_index_str(const kc_model *m, const kc_kernel *k, const kc_index *x);
const char *kc_atom_name(const kc_kernel *k, const kc_atom *a, char *buf, size_t n);
/* A dimension as text: "64", "BLOCK_SIZE_N" or "BLOCK_SIZE_N (=64)". */
void kc_model_format_dim(const kc_kernel *k, const kc_dim *d, kc_strbuf *sb);
void kc_model_format_shape(const kc_kernel *k, const kc_shape *s, kc_strbuf *sb);

/* Writes a readable dump of everything the front end inferred. */
void kc_model_dump(FILE *out, const kc_model *m);

#endif
