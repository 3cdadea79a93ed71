/* kc_index.h — symbolic index expressions.
 *
 * An address offset (in elements) is a polynomial over atoms: lanes (CUDA
 * threadIdx components; Triton tl.arange sources placed on a block axis),
 * programs (blockIdx / tl.program_id), block and grid sizes, loop induction
 * variables, symbols (kernel parameters and constexprs), data (a value
 * loaded from memory) and opaque sub-expressions (division, modulo, calls)
 * that keep only what they depend on. Each monomial has an integer
 * coefficient, up to KC_MONO_MAX_FACTORS atoms, and the bit width (32 or
 * 64) in which its product was computed.
 *
 * Every atom records the block axes of the expression along which it varies
 * (bit i = axis i) and the loops it depends on, so dependence questions are
 * answered from the expression alone.
 *
 * Ownership: all expressions live in the arena passed to the constructors
 * and are immutable once built.
 */
#ifndef KC_INDEX_H
#define KC_INDEX_H

#include "kc_base.h"

#define KC_MONO_MAX_FACTORS 4
#define KC_INDEX_MAX_MONOS 48
#define KC_MAX_RANK 8
#define KC_NONE UINT32_MAX

typedef enum kc_atom_kind {
    KC_ATOM_LANE = 1,  /* CUDA threadIdx.{x,y,z}: id = component; Triton: id = arange source */
    KC_ATOM_PROGRAM,   /* blockIdx.{x,y,z} / tl.program_id(axis): id = axis */
    KC_ATOM_BLOCK_DIM, /* blockDim.{x,y,z}: id = component */
    KC_ATOM_GRID_DIM,  /* gridDim / tl.num_programs: id = component */
    KC_ATOM_LOOP,      /* induction variable of loop `id` */
    KC_ATOM_SYMBOL,    /* kernel symbol `id` (parameter, constexpr, unknown local) */
    KC_ATOM_DATA,      /* a value loaded by access `id` */
    KC_ATOM_OPAQUE,    /* a non-polynomial sub-expression, opaque `id` */
    KC_ATOM_HOST,      /* a variable of the host code that sizes a launch: id = kc_model.host_vars index (kc_bound.h) */
} kc_atom_kind;

/* Flags of an atom (and, OR-ed, of an expression). */
enum {
    KC_AF_PROGRAM = 1u << 0, /* varies between programs / thread blocks */
    KC_AF_DATA = 1u << 1,    /* depends on values loaded from memory */
    KC_AF_THREAD = 1u << 2,  /* varies between the threads / lanes of one program */
    /* its axes come from the arguments of a call kcheck did not follow (a
     * member function, a callee it could not resolve): whether the result
     * still varies with them is not known (kc_deps.unseen) */
    KC_AF_UNSEEN = 1u << 3,
};

typedef struct kc_atom {
    uint8_t kind;  /* kc_atom_kind */
    uint8_t axes;  /* block axes along which it varies, in the expression's shape */
    uint8_t flags; /* KC_AF_* */
    uint8_t programs; /* grid axes of the program ids it depends on (kc_deps.programs) */
    uint32_t id;
    uint64_t loops; /* bit l: depends on loop l (loops >= 63 share bit 63) */
} kc_atom;

/* The same atom: the same kind and id (what it depends on follows). */
static inline bool kc_atom_same(const kc_atom *a, const kc_atom *b) { return a->kind == b->kind && a->id == b->id; }

typedef struct kc_mono {
    int64_t coef;
    uint8_t nfac;
    uint8_t bits; /* width in which the product was computed (32 or 64) */
    kc_atom fac[KC_MONO_MAX_FACTORS];
} kc_mono;

/* Has the term a factor of that kind (a lane, a loop variable)? */
static inline bool kc_mono_has_kind(const kc_mono *m, kc_atom_kind kind)
{
    for (unsigned f = 0; f < m->nfac; f++)
        if (m->fac[f].kind == kind)
            return true;
    return false;
}

/* A dimension of a Triton block shape. */
typedef struct kc_dim {
    int64_t value;   /* -1 when unknown */
    uint32_t symbol; /* constexpr symbol naming it, or KC_NONE */
} kc_dim;

typedef struct kc_shape {
    uint8_t rank; /* 0 for scalars and for CUDA per-thread values */
    kc_dim dims[KC_MAX_RANK];
} kc_shape;

/* How lanes are laid out: CUDA threads (fast axis x = axis 0) or a Triton
 * block (fast axis = the last axis of the shape). */
typedef enum kc_lane_space { KC_SPACE_THREADS = 0, KC_SPACE_BLOCK = 1 } kc_lane_space;

typedef struct kc_index {
    const kc_mono *mono;
    uint16_t nmono;
    uint8_t bits;  /* width of the value: 32 or 64 */
    uint8_t space; /* kc_lane_space */
    kc_shape shape;
} kc_index;

typedef struct kc_deps {
    uint8_t axes;  /* lane axes it varies along */
    uint8_t flags; /* KC_AF_* */
    uint64_t loops;
    /* Grid axes of the program / block ids it depends on, where known
     * (KC_PROG_* bits): KC_AF_PROGRAM with no bit here means "some axis". */
    uint8_t programs;
    /* the axes it varies along only through calls kcheck did not follow
     * (KC_AF_UNSEEN), and KC_UNSEEN_THREAD when so is its KC_AF_THREAD */
    uint8_t unseen;
} kc_deps;

#define KC_UNSEEN_THREAD 0x80u

/* `d` as the result of a call kcheck did not follow, given arguments of
 * deps `d`: every lane axis (and the thread flag) only through it. */
static inline kc_deps kc_deps_unseen(kc_deps d)
{
    d.unseen = (uint8_t)(d.axes | ((d.flags & KC_AF_THREAD) ? KC_UNSEEN_THREAD : 0));
    return d;
}

/* Varies between the threads of a block as far as kcheck can tell: not
 * only through the arguments of calls it did not follow. */
static inline bool kc_deps_thread_seen(kc_deps d)
{
    return (d.axes & ~d.unseen & 0x7f) != 0 || ((d.flags & KC_AF_THREAD) && !(d.unseen & KC_UNSEEN_THREAD));
}

/* The bits of kc_deps.programs and kc_atom.programs: two per grid axis,
 * the program id modulo a divisor (LO) and the id divided by it (HI); the
 * id itself is both. `pid % n` depends on LO alone and `pid // n` on HI
 * alone, so an address made of `pid // n` is the same for the programs
 * that differ only in `pid % n` (one axis split into tiles of M and N).
 * The Triton front end splits only where the kernel writes both halves
 * with the same operands; CUDA ids are never split. */
#define KC_PROG_LO(ax) ((uint8_t)(1u << (2 * (ax))))
#define KC_PROG_HI(ax) ((uint8_t)(2u << (2 * (ax))))
#define KC_PROG_AXIS(ax) ((uint8_t)(3u << (2 * (ax))))
#define KC_PROG_ALL ((uint8_t)0x3f)
/* The deps of `n / d` (quotient) or `n % d`: where the divisor does not
 * vary between programs, each whole program id of n keeps its HI or its
 * LO half; otherwise the union. */
kc_deps kc_deps_divmod(kc_deps n, kc_deps d, bool quotient);

static inline uint64_t kc_loop_bit(uint32_t loop) { return 1ull << (loop < 63 ? loop : 63); }

/* ---- construction ---- */
const kc_index *kc_index_const(kc_arena *a, int64_t v, uint8_t bits, kc_lane_space space);
const kc_index *kc_index_atom(kc_arena *a, kc_atom atom, uint8_t bits, kc_lane_space space,
                              const kc_shape *shape);
kc_atom kc_atom_make(kc_atom_kind kind, uint32_t id, kc_deps deps);
/* The sum/difference/product of two expressions; shapes broadcast (the
 * caller has already checked that they are compatible). Returns NULL when
 * the result is not representable (too many terms, coefficient overflow):
 * callers then build an opaque atom from kc_index_deps of the operands. */
const kc_index *kc_index_add(kc_arena *a, const kc_index *x, const kc_index *y);
const kc_index *kc_index_sub(kc_arena *a, const kc_index *x, const kc_index *y);
const kc_index *kc_index_mul(kc_arena *a, const kc_index *x, const kc_index *y);
const kc_index *kc_index_scale(kc_arena *a, const kc_index *x, int64_t c);
/* Same value in another width. Monomials keep the width their product was
 * computed in (a 32-bit product that overflowed stays overflowed). */
const kc_index *kc_index_cast(kc_arena *a, const kc_index *x, uint8_t bits);
/* Re-places the expression in a block of rank `new_rank`: old axis i moves
 * to axis axis_map[i]. Used for x[:, None], x[None, :] and broadcasting. */
const kc_index *kc_index_remap(kc_arena *a, const kc_index *x, const kc_shape *new_shape,
                               const uint8_t *axis_map);
/* Broadcast to a shape of higher or equal rank (right-aligned). */
const kc_index *kc_index_broadcast(kc_arena *a, const kc_index *x, const kc_shape *to);

/* ---- questions ---- */
/* Structurally equal: same monomials (coefficients, factors with their
 * axes, flags and loops, widths) and the same width. */
bool kc_index_equal(const kc_index *a, const kc_index *b);
/* b - a, when the two differ by a constant (every other term the same);
 * without allocating. */
bool kc_index_const_diff(const kc_index *a, const kc_index *b, int64_t *d);
/* A hash of every term but the constant: equal for two indices that
 * kc_index_const_diff relates. */
uint64_t kc_index_nonconst_hash(const kc_index *x);
/* The same, leaving out the terms that are the variable of a loop in the
 * mask `loops` (bit l: loop l < 63) alone, with coefficient 1 or -1
 * (`dst[i + 4 + j]` hashes as `dst[i]` when j's loop is in the mask). */
uint64_t kc_index_nonconst_hash_skipping(const kc_index *x, uint64_t loops);
/* Does monomial m hold every factor of monomial d (as many times) and a
 * multiple of its coefficient: is m a multiple of d? */
bool kc_mono_divides(const kc_mono *d, const kc_mono *m);
kc_deps kc_index_deps(const kc_index *x);
bool kc_index_is_const(const kc_index *x, int64_t *v);
bool kc_index_depends_on_loop(const kc_index *x, uint32_t loop);
/* The fast lane axis: CUDA threadIdx.x (0); Triton the last block axis.
 * Returns -1 for a Triton scalar. */
int kc_index_fast_axis(const kc_index *x);

/* Decomposition along one lane axis. */
typedef struct kc_stride {
    const kc_index *stride; /* elements between neighbouring lanes; NULL if no lane term */
    bool nonaffine;          /* a lane appears in a product with another lane or in an opaque term */
    const kc_atom *gather;   /* a data-dependent atom varying along the axis, or NULL */
} kc_stride;
void kc_index_stride_along(kc_arena *a, const kc_index *x, unsigned axis, kc_stride *out);

/* The monomials that contain `atom` (matched by kind and id) divided by it:
 * the coefficient of that atom. NULL if it does not occur. */
const kc_index *kc_index_coef_of(kc_arena *a, const kc_index *x, kc_atom_kind kind, uint32_t id);

/* CUDA: x = q * blockDim.c + threadIdx.c with q made of block and grid
 * indices and sizes (`blockIdx.x * blockDim.x + threadIdx.x`): as 0 <=
 * threadIdx.c < blockDim.c, x / blockDim.c is q and x % blockDim.c is
 * threadIdx.c. False, nothing set, for any other x. */
bool kc_index_divmod_block_dim(kc_arena *a, const kc_index *x, uint32_t c, const kc_index **quot,
                               const kc_index **rem);

bool kc_shape_equal(const kc_shape *a, const kc_shape *b);
/* Right-aligned broadcast of two shapes; false when incompatible (known
 * dims that differ and are not 1). */
bool kc_shape_broadcast(const kc_shape *a, const kc_shape *b, kc_shape *out);

#endif
