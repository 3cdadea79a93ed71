/* rule_util.h — small helpers shared by rules: model questions phrased
 * the way diagnostics need them. Model-only: no front end headers. */
#ifndef KC_RULE_UTIL_H
#define KC_RULE_UTIL_H

#include "kc_rule.h"

/* A symbol of the expression that is known to be large: a problem size or
 * an outer stride (and not presumed to be an innermost stride of 1).
 * Returns its id or KC_NONE. */
uint32_t kc_index_large_symbol(const kc_kernel *k, const kc_index *x);

/* Describes loop `l` for messages: "the loop over `index` (tl.static_range,
 * line 25; ceil(N / BLOCK_SIZE_N) passes)". Arena string. */
/* The most passes loop l makes: its trip count when known, else the
 * bound kcheck knows (kc_loop.trip_max), else -1. */
int64_t kc_loop_passes_at_most(const kc_loop *l);
const char *kc_loop_describe(kc_rule_ctx *ctx, const kc_kernel *k, const kc_loop *l);

/* "N = input.shape[1] at the launch on line 50" style text for a symbol;
 * NULL when nothing is known. Arena string. */
const char *kc_symbol_evidence(kc_rule_ctx *ctx, const kc_kernel *k, uint32_t sym);

/* The block extent along thread axis `axis` (0 x, 1 y, 2 z) that every
 * launch of the kernel in this file gives, or -1 (none seen, or they
 * differ, or one is not known). A __device__ function: the extent every
 * launch of every kernel that runs it gives. */
int64_t kc_launch_block_dim(const kc_model *m, const kc_kernel *k, unsigned axis);

/* The most threads along axis `axis` a block of the kernel can have: the
 * launches' extent where kc_launch_block_dim knows it, else what the
 * hardware allows (1024 along x and y, 64 along z). */
int64_t kc_block_dim_bound(const kc_model *m, const kc_kernel *k, unsigned axis);

/* The thread axes (bit 0 x, 1 y, 2 z) along which every launch of the
 * kernel in this file gives the block one thread (`dim3(32, 1)`, a macro
 * that is 1): there threadIdx is 0 for every thread. 0 when no launch is
 * seen or an extent is not known. */
uint8_t kc_launch_unit_axes(const kc_model *m, const kc_kernel *k);

/* CUDA: the block width (blockDim.x) that every launch of the kernel in
 * this file spells as a constant, or -1. */
int64_t kc_launch_block_x(const kc_model *m, const kc_kernel *k);

/* The argument launch L passes for parameter p: by name, else by
 * position; NULL when it passes none. */
const kc_launch_arg *kc_launch_arg_for(const kc_kernel *k, const kc_launch *L, const kc_param *p);

/* CUDA: does every launch of the kernel in this file (at least one) give
 * its block as many threads along x as it passes for parameter p
 * (`<<<1, G>>>(..., G)`, the block spelled as the argument, or both the
 * same constant)? */
bool kc_launch_block_x_is_arg(const kc_model *m, const kc_kernel *k, const kc_param *p);

/* CUDA: does comparison p (its negation, with `negate`) hold for every
 * thread of every launch of the kernel in this file (at least one), by the
 * bounds the launches give (kc_bound.h)? p compares the thread's index
 * along x, in its block or in the grid, or that index divided by a
 * constant (`gid >> 3`), plus a constant, with a value made of parameters
 * and constants: `gid < 4 * batch_size` under `<<<batch_size / 32,
 * 128>>>`, `(gid >> 3) < threads` under `<<<blocks, threads << 3>>>(...,
 * blocks * threads)`. Host variables are taken as non-negative. */
bool kc_pred_holds_in_launches(const kc_model *m, const kc_kernel *k, const kc_pred *p, bool negate);

/* CUDA: does every launch of the kernel in this file (at least one) give
 * a grid-stride loop `l` as many blocks as it has values, so that it makes
 * at most one pass in every thread? The loop must run `i = blockIdx.a; i <
 * n; i += gridDim.a` under a grid of `n` blocks along axis a, or `i =
 * blockIdx.a * blockDim.a + threadIdx.a; i < n; i += blockDim.a *
 * gridDim.a` under `(n + B - 1) / B` (or a function named for a rounded-up
 * division, `DIVUP(n, B)`) blocks of B threads, `n` being a parameter and
 * the launch's argument for it spelled as in the grid. A loop the model
 * knows to make at most one pass (kc_loop.one_pass, a trip count of 0 or 1)
 * is one too. */
bool kc_loop_one_pass_per_thread(const kc_model *m, const kc_kernel *k, const kc_loop *l);

/* CUDA: is symbol `sym` a size only as the bound of loops (`for (j = 0;
 * j < S; j++)`, every comparison it is in), none of which reads a vector
 * that the threads share with its variable (`w[j]`, a row contracted with
 * a weight vector, which shows S to be a feature dimension)? A walk over a
 * record of S fields (beams, channels, coordinates) tells how long the
 * record is, not that it is long; nor does a comparison in which S only
 * multiplies a varying index (`index * S * S < nweights`: a record's start
 * against the total), nor one of a coordinate inside the record (`x0 <
 * S`). Only a comparison with the thread or block index itself shows the
 * threads to span S. Returns the first such loop, else KC_NONE. */
uint32_t kc_size_only_record_bound(const kc_kernel *k, uint32_t sym);

/* CUDA: threadIdx.y's constant stride in an offset (0: it does not move
 * it), or INT64_MIN when not constant. */
int64_t kc_index_y_stride(kc_arena *ar, const kc_index *off);

/* The 32-byte sectors one warp request touches in a block bx < 32 threads
 * wide: lane l is (x, y) = (l % bx, l / bx), at x * sx + y * sy elements
 * of eb bytes from a sector-aligned base. */
uint64_t kc_warp_sectors(int64_t bx, int64_t sx, int64_t sy, unsigned eb);

/* The values every launch of the kernel in this file passes for the
 * parameter of symbol `sym` (at least one launch, each a known value):
 * their least and greatest, and (arena) where the first is passed, "the
 * launch on line 21 passes `cols` = 64". False when a launch passes a
 * value not known. */
bool kc_launch_param_values(const kc_model *m, const kc_kernel *k, uint32_t sym, kc_arena *a, int64_t *lo,
                            int64_t *hi, const char **where);

/* CUDA: the longest record a thread can move whole, one field an access,
 * at the cost of the same fields stored apart: the caches merge a warp's
 * loads of records up to 56 bytes, but its stores only up to 16 (measured
 * on an H100, bench/premise/kc101_record_walk.cu: 4 floats 1.06x, 7
 * floats 4.4x, 14 floats 9.0x the transposed store; loads of 14 floats
 * 1.01x, of 16 floats 1.38x). */
#define KC_RECORD_LOAD_MAX_BYTES 56
#define KC_RECORD_STORE_MAX_BYTES 16
static inline unsigned kc_record_max_bytes(const kc_access *a)
{
    return a->kind == KC_ACC_LOAD ? KC_RECORD_LOAD_MAX_BYTES : KC_RECORD_STORE_MAX_BYTES;
}

/* How KC002 names a kind of gap ("unknown type", "did not parse"). */
const char *kc_gap_kind_phrase(kc_gap_kind k);

/* A gap of kernel k (code that did not parse, an unknown type or name, a
 * compiler error) at or before `line`: the statements from there on may
 * not all be in the model (clang drops, without a word, every later
 * statement that uses a variable declared with an unknown type). NULL if
 * none. */
const kc_gap *kc_gap_spanning(const kc_model *m, const kc_kernel *k, uint32_t line);

/* The elements offset b lies from offset a, *lo to *hi: a constant, or a
 * constant plus or minus the variable of a loop of constant start, step 1
 * and at most 32 passes (`dst[i + 4 + j]` from `dst[i]`, j < 6: 4 to 9). */
bool kc_offset_diff_range(kc_arena *ar, const kc_kernel *k, const kc_index *b, const kc_index *a, int64_t *lo,
                          int64_t *hi);

/* CUDA: the most fields of one record of `stride` consecutive elements
 * that the thread moves around access a (itself, siblings at constant
 * distances, a loop over them; with same_kind, only siblings that load
 * where a loads and store where a stores); 0 when it is not a record
 * kcheck can judge (longer than max_bytes, or over 16 elements). */
int64_t kc_record_fields(kc_arena *ar, const kc_kernel *k, const kc_access *a, int64_t stride, unsigned eb,
                         unsigned max_bytes, bool same_kind);

/* Does the index have a factor of atom kind `kind` and id `id` (the program
 * id of an axis, the value of load `id`)? */
bool kc_index_has_atom(const kc_index *x, kc_atom_kind kind, uint32_t id);

/* The symbol an index is exactly (`N`, not `2*N` or `N + 1`), or KC_NONE. */
uint32_t kc_index_symbol(const kc_index *x);
/* Does `text` name the identifier `w` (its first n bytes) as a whole word? */
bool kc_text_has_word(const char *text, const char *w, size_t n);

/* ---- shared memory: two accesses of one array across the threads ---- */

/* How the element offsets of two accesses of one array relate: a write
 * `w` and a read `r` (any two accesses), as r - w. */
typedef struct kc_offset_delta {
    bool known;         /* no thread-dependent unknown (loaded data, opaque terms) in either */
    bool lanes_equal;   /* the lane terms cancel: each thread touches w's element + delta */
    bool lanes_pure;    /* every lane term of both is a constant times one threadIdx component */
    bool w_uniform, r_uniform; /* the offset has no lane term */
    const kc_index *delta;     /* r - w, or NULL */
    const kc_index *rest;      /* delta without its lane terms, or NULL when it has none */
    bool rest_zero;
    bool rest_const;
    int64_t rest_value;
    /* rest only holds constants, loop variables and compile-time constants
     * (no kernel parameters, blockDim, blockIdx or opaque values, which may
     * select another sub-buffer of the array) */
    bool rest_clean;
    int64_t lane_gcd;   /* gcd of the lane coefficients of w (0 when none) */
} kc_offset_delta;

void kc_offset_delta_of(kc_arena *a, const kc_kernel *k, const kc_index *w, const kc_index *r, kc_offset_delta *out);

/* The lane terms of an offset as an index (NULL when none). */
const kc_index *kc_index_lane_part(kc_arena *a, const kc_index *x);

/* The condition on `guard`'s chain that picks some programs of the grid
 * by their ids (`blockIdx.x == 0`, `pid == 0`), not by loaded data; KC_NONE
 * when none. */
uint32_t kc_guard_program_pick(const kc_kernel *k, uint32_t guard);

/* The condition on `guard`'s chain that lets one thread of the block in
 * (`tid == 0`, `threadIdx.x == 0`: a thread index equal to a constant),
 * its text (arena), or NULL. */
const char *kc_guard_one_thread(const kc_kernel *k, uint32_t guard);

/* Does a condition from `guard` outwards depend on the thread? Returns
 * the innermost such condition or KC_NONE. */
uint32_t kc_guard_thread_cond(const kc_kernel *k, uint32_t guard);

/* Is condition `c` on the guard chain of `guard`? */
bool kc_guard_has(const kc_kernel *k, uint32_t guard, uint32_t c);

/* Triton: the lanes are `T.stride(i)` apart and the access's siblings (the
 * same base) sit c * `T.stride(i + 1)` away, the tensor's innermost stride
 * (presumed 1): each lane reads a run of consecutive elements of its row
 * (`w0 .. w3` of a convolution's weight rows). Returns the run's length
 * around this access (1: none; -1: the whole row, in tl.static_range over
 * the lane stride, kc_triton_row_run), the inner stride's symbol in *inner,
 * and in *first the run's first access of the same kind, which reports it. */
typedef struct kc_row_run {
    int64_t len;
    uint32_t inner;
    const kc_access *first;
} kc_row_run;
kc_row_run kc_triton_row_run(kc_arena *ar, const kc_kernel *k, const kc_access *a, const kc_index *lane_stride);

/* CUDA: is access a, whose lanes are `cst` elements apart, a vector of
 * known width over elements of unknown size that covers the lane's `cst`
 * elements exactly for some element size of 1, 2, 4 or 8 bytes
 * (`*reinterpret_cast<const int4 *>(&x[8 * tid])`)? Then the lanes move
 * adjacent vectors. */
bool kc_lane_vector(const kc_access *a, int64_t cst);

/* CUDA: lanes `step` bytes apart that a warp reads at little cost
 * (closer than half a sector, or a vector of the lane's elements). */
bool kc_lanes_close(const kc_access *a, uint64_t step);

/* Does the text of a grid round a quotient up: `cdiv(n, B)`, `(n + B - 1)
 * / B`, `ceil(n / B)`, a helper named for it (`CEIL_DIV`)? (kc303) */
bool kc_text_rounds_up(const char *t);

#endif
