/* cuda_launch.h — what a launch's configuration and arguments are worth
 * (internal to the CUDA front end; cuda_lower.c records launches with it).
 *
 * It reads, from the launching function: the block's constant sizes, the
 * grid's axes (KC602), which arguments are multiples of the block's x size
 * (KC401), and bounds on the grid, the block and each argument over the
 * host variables they are computed from (kc_bound.h). Locals are followed
 * through their initializer where nothing else writes them.
 */
#ifndef KC_CUDA_LAUNCH_H
#define KC_CUDA_LAUNCH_H

#include "cuda_tu.h"

/* A product as its factors: variables and parameters it cannot see into,
 * the product of its constants, and how many factors are neither. */
#define KC_CUDA_MF_MAX 16
typedef struct kc_cuda_mfactors {
    CXCursor decl[KC_CUDA_MF_MAX];
    unsigned nd, opaque;
    int64_t cst;
} kc_cuda_mfactors;

/* The block argument of one launch, as the argument facts need it. */
typedef struct kc_cuda_block_arg {
    kc_cuda_mfactors blk;    /* the block's x size as factors (opaque when unknown) */
    kc_cuda_mfactors capped; /* `v` of a block `v > K ? K : v` or `min(v, K)` */
    int64_t cap;             /* K, or 0 */
    const char *cap_var;     /* the text of `v` */
} kc_cuda_block_arg;

/* Constant block sizes of a block argument (`256`, `dim3(32, 8)`, a dim3
 * local initialized so, operands through locals written only by their
 * initializer: `dim3 threads(n, ntcol)` with `int ntcol = 1`); false when
 * none is constant. */
bool kc_cuda_block_dims(kc_cuda_tu *t, CXCursor e, int64_t out[3]);
/* The grid's axes as far as their hardware limits go (KC602). */
void kc_cuda_grid_axes(kc_cuda_tu *t, CXCursor e, kc_grid_axis out[3]);
/* Frees what the launch readers kept for the file (t->dim3s, t->fnwrites). */
void kc_cuda_launch_cache_free(kc_cuda_tu *t);
/* The initializer of a local variable that nothing else writes, or a null
 * cursor. */
CXCursor kc_cuda_fixed_value(kc_cuda_tu *t, CXCursor d);
/* Reads the block argument (a null cursor: none). */
void kc_cuda_block_arg_read(kc_cuda_tu *t, CXCursor block, kc_cuda_block_arg *b);
/* Fills what an argument is worth: its constant value, whether it is a
 * multiple of the block's x size, its bounds. */
void kc_cuda_launch_arg_facts(kc_cuda_tu *t, const kc_cuda_block_arg *b, CXCursor arg, kc_launch_arg *a);
/* Fills L->grid_hi and L->block_hi from the grid and block arguments. */
void kc_cuda_launch_bounds(kc_cuda_tu *t, CXCursor grid, CXCursor block, kc_launch *L);

/* The divisibility host function `fn` asserts, before launch L, of the
 * variables L passes (kc_launch_arg.multiple_of; cuda_assert.h reads it). */
void kc_cuda_asserted_args(const kc_cuda_tu *t, CXCursor fn, kc_launch *L);

#endif
