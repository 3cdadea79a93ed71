/* KC402 shared-memory-race: a __shared__ element written by one thread and
 * read by another with no barrier in between. */
#include "rule_disjoint.h"
#include "rule_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a `__shared__` array element that one thread writes and another thread\n"
    "reads with no `__syncthreads()` between the two, in program order:\n"
    "\n"
    "- a read after a write, where the read's index and the write's index differ\n"
    "  as functions of the thread (`s[tid] = v; ... s[tid + 1]`, `tile[ty][tx] = ...;\n"
    "  ... tile[tx][ty]`, `s[tid] = v; ... for (k) sum += s[k]`), or a value one\n"
    "  thread writes (`if (tid == 0) s[0] = ...`) and all threads read;\n"
    "- a write after such a read (another thread may still be reading the old\n"
    "  value);\n"
    "- the same across loop passes: a read at the top of a pass of what the\n"
    "  previous pass wrote at the bottom, or the next pass overwriting a tile that\n"
    "  other threads are still reading (the missing second `__syncthreads()` of a\n"
    "  tiled loop), and the tree reduction without a barrier in its loop\n"
    "  (`for (s = blockDim.x / 2; s > 0; s >>= 1) if (tid < s) s_[tid] += s_[tid + s];`:\n"
    "  the guard keeps the halves apart within a pass, not across passes, since\n"
    "  `s` shrinks).\n"
    "\n"
    "- per-warp partials indexed by a split of the thread index (`s[threadIdx.x /\n"
    "  32]` written by each warp's lane 0, `s[threadIdx.x % 32]` read back): a\n"
    "  second block reduction through the same buffer whose writes come before\n"
    "  every warp has read the first one's partials, or a buffer zeroed by warp 0\n"
    "  while other warps still read it. Such pairs are tried thread by thread\n"
    "  over a block of the width the file's launches give, or of a presumed 256\n"
    "  threads (the diagnostic says so); a bound on the thread index that kcheck\n"
    "  cannot size (`lane < nwarps`) is taken to let at least two values through.\n"
    "\n"
    "Within a pass, a guard `tid < s` keeps the writers' elements `[0, s)` apart\n"
    "from reads at `tid + s`, `tid + 2 * s` or further (the fold of a tree\n"
    "reduction), so such a pass with a barrier after it is not reported; so\n"
    "do writes at `tid + c` and reads at `tid` under `tid < s` with `c >= s`\n"
    "(a table filled from its first `s` entries: `t[tid + 256] = f(t[tid])`),\n"
    "and, within one pass, a write and a read whose ranges under a guard\n"
    "`threadIdx.x < b` (also written `b > threadIdx.x`, or as the loop's own\n"
    "condition: `for (j = N / 2; j > tid; j /= 2)`) do not meet (a mirrored fold:\n"
    "`s[tid]` written and `s[2 * i - 1 - tid]` read under `tid < i`, [0, i) and\n"
    "[i, 2i); the fold `s[tid] = f(s[tid], s[tid + j])` under `j > tid`), nor a\n"
    "write to row `threadIdx.y` of a tile of rows of C and a read of row v under a\n"
    "guard that keeps the writers off row v (the elimination step of a dense LU:\n"
    "`if (i > k) B[j + i * NT] -= A[k + i * NT] * B[j + k * NT]`; where no launch\n"
    "sizes the block, a unit column term is taken to stay below C, as one element\n"
    "per thread of `B[j + i * NT]` requires), nor accesses of an array\n"
    "of two or more dimensions whose subscripts in some dimension never meet (a\n"
    "stencil tile's halo filled under `if (j < 4)`: rows 0..3 written, rows 63..66\n"
    "read; C++ keeps each subscript within its dimension), nor a write and a read in\n"
    "the two arms of a condition that is the same for the whole block in every\n"
    "pass (`if (role < 2) ... else ...` with `role = blockIdx.z`): a block runs one.\n"
    "Nor are rows of a tile whose row length is a compile-time constant kcheck has\n"
    "no value for (`s[i * (NRHS + 1) + tx]` and `s[j * (NRHS + 1) + tx]`, NRHS a\n"
    "template parameter): each thread owns a column when the block is at most a row\n"
    "wide, which kcheck cannot check there. Nor are two members of a record that\n"
    "do not overlap (`slots[c].hi = v` by thread 0, `slots[c].vectors[k]` read by\n"
    "all): they share no byte, whichever elements they are.\n"
    "\n"
    "Index ranges use the block's extents (the launches', else at most 1024\n"
    "threads along x or y and 64 along z) and the loops' ranges: a counted loop\n"
    "ends at its last pass (`Rq[ty + 16 * b + 1008]` with `b < 21` stays below\n"
    "scratch from 4224 under `dim3(16, 16)`), and a loop from the thread's row\n"
    "(`for (n = threadIdx.y; n < 3; n += 4)`) keeps n below its end. Where no\n"
    "launch in the file gives the block (a width chosen at run time in a switch),\n"
    "a buffer's own rows bound it: two stores of one lane map D apart with no\n"
    "barrier between (`gx[0] = a; gx[64] = b;` with `gx = s + threadIdx.x`) would\n"
    "race with each other in a block more than D threads wide, so code that works\n"
    "keeps it narrower. An element that only the thread reading it writes is no\n"
    "race (row 0 under `threadIdx.y == 0` reading back `buf[tx]` of\n"
    "`buf[32 * ty + tx]`; `gx[2048]` written under `n == 2` and read as `gx[1024 *\n"
    "n]`), and before a pair is reported it is tried thread by thread over the\n"
    "threads each side may run on, where each component is bounded (at most 4096\n"
    "a side).\n"
    "\n"
    "Indices are compared symbolically; when either one depends on the thread in a\n"
    "way kcheck cannot express (loaded data, division by a run-time value), or a\n"
    "call that may synchronize inside lies between the two (a CUB block\n"
    "reduction; a function of the user's that kcheck does not inline and whose\n"
    "body has a barrier, a call that may synchronize or a barrier in inline\n"
    "assembly; a function it cannot see), the pair is not reported. Two\n"
    "`__shared__` arrays of one name declared in different scopes, or in two\n"
    "specializations of one function template, are two arrays. Volatile\n"
    "warp-synchronous code is left to KC403.\n"
    "\n"
    "## Why is this bad?\n"
    "Threads of a block run in no fixed order: without a barrier the reader may see\n"
    "the element before the writer has stored it (or after it has been overwritten).\n"
    "The result changes from run to run and with the GPU; `compute-sanitizer --tool\n"
    "racecheck` reports the hazard.\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "for (int t = 0; t < K; t += TILE) {\n"
    "    As[ty][tx] = A[row * K + t + tx];\n"
    "    __syncthreads();\n"
    "    for (int k = 0; k < TILE; ++k)\n"
    "        acc += As[ty][k] * Bs[k][tx];\n"
    "    // missing: the next pass overwrites As while others still read it\n"
    "}\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "for (int t = 0; t < K; t += TILE) {\n"
    "    As[ty][tx] = A[row * K + t + tx];\n"
    "    __syncthreads();\n"
    "    for (int k = 0; k < TILE; ++k)\n"
    "        acc += As[ty][k] * Bs[k][tx];\n"
    "    __syncthreads();\n"
    "}\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Put `__syncthreads()` between the write and the read (and, in loops, at the end\n"
    "of the pass before the buffer is written again), reached by every thread (see\n"
    "KC401). Within one warp, `__syncwarp()` is enough.\n"
    "\n"
    "## References\n"
    "- CUDA C++ Programming Guide, \"Shared Memory\" and \"Synchronization Functions\".\n"
    "- karpathy/llm.c commits c73fa88 and 0f144e3 (missing `__syncthreads()` between\n"
    "  shared-memory writes and reads of other threads).\n"
    "- ggml-org/ggml 3e12f441 (`block_reduce` called twice on one buffer), 31f38075\n"
    "  (the per-warp buffer zeroed while other warps read it) and 391d7449 (a carry\n"
    "  rewritten while other threads read it, across a helper call).\n"
    "- compute-sanitizer racecheck.\n"
    "- The premise, measured on an H200 (`bench/premise/kc402_race.cu`,\n"
    "  docs/measurements/kc102-kc402-premises-h200.txt): racecheck reports hazards for a read\n"
    "  of another thread's word with no barrier and for overlapping parts of one buffer, and\n"
    "  none for the same thread's word, disjoint halves, a barrier between, or branches on\n"
    "  blockIdx (each block has its own shared memory): the shapes KC402 does not report.\n";

/* Does index x vary from lane to lane within a warp: threadIdx itself, or
 * its remainder by a warp-sized divisor (not the warp's number alone)? */
static bool lane_level(const kc_kernel *k, const kc_index *x)
{
    for (unsigned i = 0; x && i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind == KC_ATOM_LANE)
                return true;
            if (a->kind == KC_ATOM_OPAQUE && a->id < k->opaques.len && k->opaques.data[a->id].split == KC_SPLIT_MEMBER)
                return true;
        }
    return false;
}

/* Is a condition around `guard` one that splits the lanes of a warp (`if
 * (idx + j < n)`, `if (tid == 0)`)? Not one on the warp's number (`if
 * (warp == 0)`): a whole warp runs the call under it, and the warp-level
 * synchronization it may hold orders that warp's own accesses. */
static bool lane_guard(const kc_kernel *k, uint32_t guard)
{
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t p = 0; p < cd->npreds; p++)
            if (lane_level(k, cd->preds[p].lhs) || lane_level(k, cd->preds[p].rhs))
                return true;
    }
    return false;
}

/* A separator in program order: a barrier of any kind, or a call that may
 * synchronize. A call that only some lanes of a warp reach, under a
 * condition on the thread's index, is no block barrier in a kernel that
 * works (one there would be KC401's finding), so it separates nothing:
 * ggml's cumsum read `*s_carry` in every thread, converted its outputs
 * with a template helper under `if (idx + j < ne00)`, and then let thread
 * 0 rewrite it. */
typedef struct sep {
    uint32_t seq, loop;
} sep;

typedef KC_VEC(sep) sep_list;

static void seps_of(const kc_kernel *k, sep_list *out)
{
    for (uint32_t i = 0; i < k->barriers.len; i++) {
        sep s = {k->barriers.data[i].seq, k->barriers.data[i].loop};
        kc_vec_push(out, s);
    }
    for (uint32_t i = 0; i < k->calls.len; i++)
        if ((k->calls.data[i].flags & KC_CALL_MAY_SYNC) && k->calls.data[i].seq != KC_NONE &&
            !lane_guard(k, k->calls.data[i].guard)) {
            sep s = {k->calls.data[i].seq, k->calls.data[i].loop};
            kc_vec_push(out, s);
        }
}

static bool sep_between(const sep_list *s, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < s->len; i++)
        if (s->data[i].seq > a && s->data[i].seq < b)
            return true;
    return false;
}

/* Innermost loop that holds both loop ids, or KC_NONE. */
static uint32_t common_loop(const kc_kernel *k, uint32_t a, uint32_t b)
{
    for (uint32_t l = a; l != KC_NONE && l < k->loops.len; l = k->loops.data[l].parent)
        if (kc_loop_within(k, b, l))
            return l;
    return KC_NONE;
}

/* From `from` (a pass of loop L) around to `to` in the next pass: is there
 * a separator in L after `from` or before `to`? */
static bool sep_around(const kc_kernel *k, const sep_list *s, uint32_t loop, uint32_t from, uint32_t to)
{
    for (uint32_t i = 0; i < s->len; i++)
        if (s->data[i].loop != KC_NONE && kc_loop_within(k, s->data[i].loop, loop) &&
            (s->data[i].seq > from || s->data[i].seq < to))
            return true;
    return false;
}

/* Is `rest` at least `bound` wherever `bound` is positive: a constant at
 * least a constant bound, or m * bound + g with an integer m >= 1 and a
 * constant g >= 0 (`2*s` against `s`, `s + 1` against `s`)? Where the
 * bound is not positive no thread passes `i < bound`, so nothing is
 * written. */
static bool reaches_past(kc_arena *ar, const kc_index *rest, const kc_index *bound)
{
    int64_t z;
    const kc_index *gap = kc_index_sub(ar, rest, bound);
    if (gap && kc_index_is_const(gap, &z))
        return z >= 0;
    const kc_mono *lead = NULL;
    for (unsigned i = 0; i < bound->nmono && !lead; i++)
        if (bound->mono[i].nfac)
            lead = &bound->mono[i];
    if (!lead || lead->coef <= 0)
        return false;
    for (unsigned i = 0; i < rest->nmono; i++) {
        const kc_mono *m = &rest->mono[i];
        bool same = m->nfac == lead->nfac && m->coef > 0 && m->coef % lead->coef == 0;
        for (unsigned f = 0; same && f < m->nfac; f++)
            same = m->fac[f].kind == lead->fac[f].kind && m->fac[f].id == lead->fac[f].id;
        if (!same)
            continue;
        const kc_index *scaled = kc_index_scale(ar, bound, m->coef / lead->coef);
        gap = scaled ? kc_index_sub(ar, rest, scaled) : NULL;
        return gap && kc_index_is_const(gap, &z) && z >= 0;
    }
    return false;
}

/* Does a condition of `guard`'s chain hold the same comparison as pr?
 * `if (tid < s && shr[tid + s] < shr[tid]) shr[tid] = ...`: the read in the
 * condition is under the left operand's condition, the write under the
 * if's; both know `tid < s`. */
static bool read_under(const kc_kernel *k, uint32_t guard, const kc_pred *pr)
{
    unsigned hops = 0;
    for (uint32_t g = guard; g != KC_NONE && g < k->conds.len && hops++ < 10000; g = k->conds.data[g].parent) {
        const kc_cond *cd = &k->conds.data[g];
        for (uint32_t q = 0; q < cd->npreds; q++) {
            const kc_pred *o = &cd->preds[q];
            if (o->op == pr->op && kc_index_equal(o->lhs, pr->lhs) && kc_index_equal(o->rhs, pr->rhs))
                return true;
        }
    }
    return false;
}

/* The reduction pattern: both accesses under `i < B` (i the write index
 * or its lane part) and the read at i + B or further (i + 2*B, the
 * three-way fold of a tree reduction): readers and writers are different
 * parts. Also `i >= B` with the write at i - B. */
static bool split_by_guard(kc_arena *ar, const kc_kernel *k, const kc_access *w, const kc_access *r,
                           const kc_offset_delta *od)
{
    const kc_index *lane = kc_index_lane_part(ar, w->offset);
    if (!lane || !od->rest)
        return false;
    unsigned hops = 0;
    for (uint32_t c = w->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        bool shared = kc_guard_has(k, r->guard, c);
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            if (!pr->lhs || !pr->rhs || (!shared && !read_under(k, r->guard, pr)))
                continue;
            int64_t z;
            const kc_index *cands[3] = {lane, w->offset, r->offset};
            bool match = false, by_lane = false;
            for (unsigned q = 0; q < 3 && !match; q++) {
                const kc_index *dl = kc_index_sub(ar, pr->lhs, cands[q]);
                match = dl && kc_index_is_const(dl, &z) && z == 0;
                by_lane = match && q == 0;
            }
            if (!match)
                continue;
            const kc_index *one = kc_index_const(ar, 1, pr->rhs->bits, KC_SPACE_THREADS);
            if (pr->op == KC_CMP_LT || pr->op == KC_CMP_LE) {
                const kc_index *bound = pr->op == KC_CMP_LE ? kc_index_add(ar, pr->rhs, one) : pr->rhs;
                if (bound && reaches_past(ar, od->rest, bound))
                    return true;
                /* the lanes below B write at i + c and read at i, c >= B
                 * (whirlpool's table: `s[tid + 256] = f(s[tid])` under
                 * `tid < 256`): both sets are B wide, c apart */
                const kc_index *back = by_lane ? kc_index_scale(ar, od->rest, -1) : NULL;
                if (bound && back && reaches_past(ar, back, bound))
                    return true;
            } else if (pr->op == KC_CMP_GE || pr->op == KC_CMP_GT) {
                /* i >= B: the write at i - B lands below B, the read at i not */
                const kc_index *bound = pr->op == KC_CMP_GT ? kc_index_add(ar, pr->rhs, one) : pr->rhs;
                const kc_index *gap = kc_index_sub(ar, od->rest, bound);
                if (gap && kc_index_is_const(gap, &z) && z == 0)
                    return true;
            }
        }
    }
    return false;
}

static const kc_shared_array *array_of(const kc_kernel *k, uint32_t sym)
{
    for (uint32_t i = 0; i < k->shared_arrays.len; i++)
        if (k->shared_arrays.data[i].symbol == sym)
            return &k->shared_arrays.data[i];
    return NULL;
}

/* A buffer's own layout as a bound on the block: two stores of one lane
 * map, D elements apart, done by every thread with no barrier between them
 * (`gx[0] = a; gx[64] = b;` with `gx = s + threadIdx.x`, generated
 * integral kernels) would be a write-write race on every run if two
 * threads of the block were D apart along a component; code that works
 * keeps the block narrower. Recorded only for components no launch in the
 * file gives the extent of (chosen at run time, in a switch, by the
 * caller). */
typedef struct layout {
    uint32_t base;
    unsigned elem_bytes;
    uint8_t axis; /* the thread component it bounds */
    int64_t ext;  /* at most this many threads along it: D / its coefficient */
} layout;

typedef KC_VEC(layout) layout_list;

static void layouts_of(kc_arena *ar, const kc_model *m, const kc_kernel *k, const sep_list *seps, layout_list *out)
{
    uint8_t open_axes = 0; /* the components no launch in the file gives */
    for (unsigned ax = 0; ax < 3; ax++)
        if (kc_launch_block_dim(m, k, ax) <= 0)
            open_axes |= (uint8_t)(1u << ax);
    if (!open_axes)
        return;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *x = &k->accesses.data[i];
        if (x->kind != KC_ACC_STORE || x->space != KC_MEM_SHARED || !x->offset || x->base == KC_NONE)
            continue;
        /* the store of the buffer just before it */
        const kc_access *p = NULL;
        for (uint32_t j = i; j-- > 0 && i - j <= 64 && !p;) {
            const kc_access *y = &k->accesses.data[j];
            if (y->kind == KC_ACC_STORE && y->space == KC_MEM_SHARED && y->base == x->base && y->offset)
                p = y;
        }
        if (!p || p->guard != x->guard || p->loop != x->loop || p->elem_bytes != x->elem_bytes ||
            p->seq >= x->seq || sep_between(seps, p->seq, x->seq))
            continue;
        kc_offset_delta od;
        kc_offset_delta_of(ar, k, p->offset, x->offset, &od);
        if (!od.known || !od.lanes_equal || !od.lanes_pure || od.w_uniform || !od.rest_const || !od.rest_value)
            continue;
        int64_t d = od.rest_value < 0 ? -od.rest_value : od.rest_value, coef[3] = {0, 0, 0};
        for (unsigned mi = 0; mi < x->offset->nmono; mi++) {
            const kc_mono *mo = &x->offset->mono[mi];
            if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id < 3)
                coef[mo->fac[0].id] += mo->coef < 0 ? -mo->coef : mo->coef;
        }
        uint8_t free_axes = (uint8_t)(~kc_guard_axes(k, x->guard) & open_axes);
        for (uint8_t ax = 0; ax < 3; ax++) {
            if (!(free_axes & (1u << ax)) || !coef[ax] || d % coef[ax] != 0)
                continue;
            int64_t ext = d / coef[ax];
            layout *hit = NULL;
            for (uint32_t q = 0; q < out->len && !hit; q++)
                if (out->data[q].base == x->base && out->data[q].elem_bytes == x->elem_bytes && out->data[q].axis == ax)
                    hit = &out->data[q];
            if (hit) {
                if (ext < hit->ext)
                    hit->ext = ext;
            } else {
                layout l = {x->base, x->elem_bytes, ax, ext};
                kc_vec_push(out, l);
            }
        }
    }
}

/* The layout's bound on the threads along component `ax` for accesses of
 * w's buffer, or 0 when none is known. */
static int64_t layout_ext(const layout_list *ls, const kc_access *w, unsigned ax)
{
    for (uint32_t q = 0; ls && q < ls->len; q++)
        if (ls->data[q].base == w->base && ls->data[q].elem_bytes == w->elem_bytes && ls->data[q].axis == ax)
            return ls->data[q].ext;
    return 0;
}

/* Can a constant (or loop-variable) difference between the indices be
 * bridged by moving one threadIdx component, within the range that the
 * array or the other coefficients leave it (s[8*ty + tx]: tx < 8;
 * s[ty][tx] of a [.][16] array: tx < 16)? */
static bool reachable(const kc_model *m, const kc_kernel *k, const kc_access *w, const kc_access *r,
                      const kc_offset_delta *od, const layout_list *layouts)
{
    const kc_index *x = w->offset;
    const kc_shared_array *sa = array_of(k, w->base);
    int64_t coef[3] = {0, 0, 0};
    for (unsigned i = 0; i < x->nmono; i++)
        if (x->mono[i].nfac == 1 && x->mono[i].fac[0].kind == KC_ATOM_LANE && x->mono[i].fac[0].id < 3)
            coef[x->mono[i].fac[0].id] += x->mono[i].coef;
    for (unsigned c = 0; c < 3; c++) {
        int64_t a = coef[c] < 0 ? -coef[c] : coef[c];
        if (!a)
            continue;
        /* the range of this component: below the next larger coefficient,
         * or below the extent of the dimension it indexes */
        int64_t range = 0;
        for (unsigned o = 0; o < 3; o++) {
            int64_t b = coef[o] < 0 ? -coef[o] : coef[o];
            if (o != c && b > a && (!range || b / a < range))
                range = b / a;
        }
        /* or below the block's extent along it: where every launch
         * gives it (`[tid]` and `[tid + 512]` under 512 threads), else
         * where the buffer's layout or the hardware bounds it */
        int64_t bd = kc_launch_block_dim(m, k, c), g = kc_lane_guard_bound(k, w, r, c);
        if (bd <= 0)
            bd = layout_ext(layouts, w, c); /* the buffer's layout (layouts_of: axes no launch gives) */
        if (bd <= 0)
            bd = kc_block_dim_bound(m, k, c); /* the hardware's */
        if (!range || bd < range)
            range = bd;
        if (g > 0 && (!range || g < range)) /* both under `threadIdx.x < 32` */
            range = g;
        if (sa) {
            int64_t st = 1;
            for (int d = (int)sa->rank - 1; d >= 0; d--) {
                if (st == a && sa->dims[d] > 0 && (!range || sa->dims[d] < range))
                    range = sa->dims[d];
                if (sa->dims[d] <= 0)
                    break;
                st *= sa->dims[d];
            }
        }
        if (!od->rest_const) {
            if (a != 1 || kc_rows_of_unknown_length(k, od->rest))
                continue;
            if (!range)
                return true;
            /* a difference made only of multiples of the range cannot be
             * bridged (rows j and i + 1 of a [16][16] tile) */
            for (unsigned mi = 0; mi < od->rest->nmono; mi++)
                if (od->rest->mono[mi].coef % range != 0)
                    return true;
            continue;
        }
        int64_t d = od->rest_value < 0 ? -od->rest_value : od->rest_value;
        if (d % a != 0)
            continue;
        if (!range || d / a < range)
            return true;
    }
    return false;
}

static bool index_opaque_thread(const kc_index *x)
{
    if (!x)
        return true;
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind != KC_ATOM_LANE && (a->axes || (a->flags & KC_AF_THREAD)))
                return true;
        }
    return false;
}

/* A thread-dependent condition around both accesses that selects threads
 * in a way kcheck cannot bound (`tid % (2 * s) == 0`, a flag): the active
 * writers and readers may well be disjoint. */
static bool opaque_thread_guard(const kc_kernel *k, const kc_access *w, const kc_access *r)
{
    unsigned hops = 0;
    for (uint32_t c = w->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (!(cd->deps.axes || (cd->deps.flags & KC_AF_THREAD)) || !kc_guard_has(k, r->guard, c))
            continue;
        if (!cd->npreds)
            return true;
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            kc_deps dl = kc_index_deps(pr->lhs), dr = kc_index_deps(pr->rhs);
            bool tl = dl.axes || (dl.flags & KC_AF_THREAD), tr = dr.axes || (dr.flags & KC_AF_THREAD);
            if (!pr->lhs || !pr->rhs || ((tl || tr) && (pr->op == KC_CMP_EQ || pr->op == KC_CMP_NE)) ||
                (tl && index_opaque_thread(pr->lhs)) || (tr && index_opaque_thread(pr->rhs)))
                return true;
        }
    }
    return false;
}

/* Does the difference mention the pass of a loop that is not around both
 * accesses (`for (i = tid; ...) s[i] = ..;` then a second loop over
 * `s[i]`)? Passes of different loops cannot be compared: each thread may
 * well read back exactly the elements it wrote. */
static bool foreign_loops(const kc_kernel *k, const kc_access *w, const kc_access *r, const kc_index *rest)
{
    if (!rest)
        return false;
    for (unsigned i = 0; i < rest->nmono; i++)
        for (unsigned f = 0; f < rest->mono[i].nfac; f++) {
            const kc_atom *a = &rest->mono[i].fac[f];
            if (a->kind != KC_ATOM_LOOP)
                continue;
            if (w->loop == KC_NONE || r->loop == KC_NONE || !kc_loop_within(k, w->loop, a->id) ||
                !kc_loop_within(k, r->loop, a->id))
                return true;
        }
    return false;
}

/* Does the kernel index anything by threadIdx.y or threadIdx.z (a block
 * of more than one dimension)? */
static bool uses_thread_yz(const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->conds.len; i++)
        if (k->conds.data[i].deps.axes & 6)
            return true;
    for (uint32_t i = 0; i < k->accesses.len; i++)
        if (k->accesses.data[i].offset && (kc_index_deps(k->accesses.data[i].offset).axes & 6))
            return true;
    return false;
}

/* Is `x` threadIdx.x, plus or minus, with a uniform part (`tid`,
 * `threadIdx.x - base`)? One value of it is one thread of a block whose
 * only dimension is x. */
static bool one_to_one_lane(const kc_index *x)
{
    unsigned lanes = 0;
    for (unsigned i = 0; x && i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        bool lane = false;
        for (unsigned f = 0; f < m->nfac; f++) {
            const kc_atom *a = &m->fac[f];
            if (a->kind == KC_ATOM_LANE && a->id == 0)
                lane = true;
            else if (a->axes || (a->flags & (KC_AF_THREAD | KC_AF_DATA)))
                return false;
        }
        if (lane && (m->nfac != 1 || (m->coef != 1 && m->coef != -1)))
            return false;
        lanes += lane;
    }
    return lanes == 1;
}

/* The innermost condition around `guard` that one thread alone passes
 * (`threadIdx.x == 0` in a one-dimensional block, alone or as a term of a
 * conjunction: `threadIdx.x == 0 && n > 0`), or NULL. */
static const kc_pred *single_thread_pred(const kc_kernel *k, uint32_t guard)
{
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t i = 0; !cd->negated && i < cd->npreds; i++) {
            const kc_pred *pr = &cd->preds[i];
            if (pr->op != KC_CMP_EQ || !pr->lhs || !pr->rhs)
                continue;
            kc_deps dl = kc_index_deps(pr->lhs), dr = kc_index_deps(pr->rhs);
            bool ul = !dl.axes && !(dl.flags & (KC_AF_THREAD | KC_AF_DATA)),
                 ur = !dr.axes && !(dr.flags & (KC_AF_THREAD | KC_AF_DATA));
            if ((one_to_one_lane(pr->lhs) && ur) || (one_to_one_lane(pr->rhs) && ul))
                return pr;
        }
    }
    return NULL;
}

/* Are both accesses under a condition that one and the same thread alone
 * passes: the same `if (threadIdx.x == 0)` around both, or one such test
 * around each (`if (tid == 0) s = 0; ... if (tid == 0) s += x;`)? Then the
 * write and the read are that thread's, whatever else they are under. */
static bool same_single_thread(const kc_kernel *k, const kc_access *w, const kc_access *r)
{
    if (uses_thread_yz(k))
        return false;
    const kc_pred *pw = single_thread_pred(k, w->guard), *pr = single_thread_pred(k, r->guard);
    return pw && pr &&
           ((kc_index_equal(pw->lhs, pr->lhs) && kc_index_equal(pw->rhs, pr->rhs)) ||
            (kc_index_equal(pw->lhs, pr->rhs) && kc_index_equal(pw->rhs, pr->lhs)));
}

/* ---- a thread index split into groups (warps) and lanes ---- */

/* Does `x` mention a split of threadIdx (kc_split_kind)? */
static bool has_split(const kc_kernel *k, const kc_index *x)
{
    for (unsigned i = 0; x && i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind == KC_ATOM_OPAQUE && a->id < k->opaques.len && k->opaques.data[a->id].split)
                return true;
        }
    return false;
}

/* The value of the monomials of `x` that `thread` selects (those with a
 * thread atom when true, the others when false) for thread `tid` of a
 * block of one dimension. 1: evaluated; 0: a term is uniform but not a
 * constant (*uniform set); -1: anything else. */
static int eval_part(const kc_kernel *k, const kc_index *x, bool thread, int64_t tid, int64_t *out)
{
    int64_t v = 0;
    int res = 1;
    for (unsigned i = 0; x && i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        bool thr = false;
        for (unsigned f = 0; f < m->nfac; f++)
            thr |= m->fac[f].axes || (m->fac[f].flags & KC_AF_THREAD);
        if (thr != thread)
            continue;
        int64_t t = m->coef;
        for (unsigned f = 0; f < m->nfac; f++) {
            const kc_atom *a = &m->fac[f];
            const kc_opaque *o = a->kind == KC_ATOM_OPAQUE && a->id < k->opaques.len ? &k->opaques.data[a->id] : NULL;
            if (a->kind == KC_ATOM_LANE && a->id == 0)
                t *= tid;
            else if (o && o->split && o->split_axis == 0 && o->split_div > 0)
                t *= o->split == KC_SPLIT_GROUP ? tid / o->split_div : tid % o->split_div;
            else if (!a->axes && !(a->flags & (KC_AF_THREAD | KC_AF_DATA)))
                res = 0;
            else
                return -1;
        }
        v += t;
    }
    *out = v;
    return res;
}

/* Does thread `tid` run code under `guard`? 1 yes, 0 no, -1 kcheck cannot
 * tell. Conditions that do not depend on the thread are taken to hold. A
 * thread-dependent side compared with a uniform bound kcheck does not know
 * (`lane < nwarps`, `tid < n`) is taken to let the first two threads of
 * its range through (values 0 and 1) and no others, and *presumed is set. */
static int runs(const kc_kernel *k, uint32_t guard, int64_t tid, bool *presumed)
{
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (!(cd->deps.axes || (cd->deps.flags & KC_AF_THREAD)))
            continue;
        if ((cd->deps.flags & KC_AF_DATA) || !cd->npreds)
            return -1;
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            int64_t a = 0, b = 0, ta = 0, tb = 0;
            if (!pr->lhs || !pr->rhs)
                return -1;
            int ea = eval_part(k, pr->lhs, false, tid, &a), eb = eval_part(k, pr->rhs, false, tid, &b);
            int xa = eval_part(k, pr->lhs, true, tid, &ta), xb = eval_part(k, pr->rhs, true, tid, &tb);
            if (xa != 1 || xb != 1)
                return -1;
            kc_cmp op = pr->op;
            if (ea < 0 || eb < 0)
                return -1;
            if (ea == 0 || eb == 0) {
                /* thread value against an unknown uniform bound */
                bool lthr = kc_index_deps(pr->lhs).axes != 0, rthr = kc_index_deps(pr->rhs).axes != 0;
                int64_t tv;
                if (lthr && !rthr && ea == 1 && (op == KC_CMP_LT || op == KC_CMP_LE))
                    tv = ta + a;
                else if (rthr && !lthr && eb == 1 && (op == KC_CMP_GT || op == KC_CMP_GE))
                    tv = tb + b;
                else
                    return -1;
                *presumed = true;
                if (tv < 0 || tv > 1)
                    return 0;
                continue;
            }
            a += ta, b += tb;
            bool ok = op == KC_CMP_LT ? a < b : op == KC_CMP_LE ? a <= b : op == KC_CMP_GT ? a > b
                    : op == KC_CMP_GE ? a >= b : op == KC_CMP_EQ ? a == b : a != b;
            if (!ok)
                return 0;
        }
    }
    return 1;
}

/* Accesses of which one index at least uses a split of threadIdx.x
 * (`s[warp_id]`, `s[lane_id]`, `threadIdx.x % WARP_SIZE`; other_thread
 * sends only those here): is there a thread that writes
 * at `w` an element that another thread reads at `r`? Tried thread by
 * thread over the block (the width every launch in the file gives, else a
 * presumed 256 threads, stated in the diagnostic). */
static bool split_conflict(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w,
                           const kc_access *r, const char **why)
{
    if (uses_thread_yz(k))
        return false;
    /* the uniform parts must differ by a constant */
    int64_t cw = 0, cr = 0, dummy;
    if (eval_part(k, w->offset, true, 0, &dummy) != 1 || eval_part(k, r->offset, true, 0, &dummy) != 1)
        return false;
    int ew = eval_part(k, w->offset, false, 0, &cw), er = eval_part(k, r->offset, false, 0, &cr);
    if (ew < 0 || er < 0)
        return false;
    if (ew == 0 || er == 0) {
        /* the same unknown base on both sides (`s[base + lane]`) */
        kc_offset_delta od;
        kc_offset_delta_of(ar, k, w->offset, r->offset, &od);
        if (!od.delta)
            return false;
        int64_t dc = 0;
        if (eval_part(k, od.delta, false, 0, &dc) != 1)
            return false;
        cw = 0, cr = dc;
    }
    int64_t bx = kc_launch_block_x(m, k);
    bool presumed_block = bx <= 0;
    if (bx <= 0)
        bx = 256;
    if (bx > 1024)
        return false;
    int64_t *we = kc_arena_alloc(ar, (size_t)bx * sizeof *we), *re = kc_arena_alloc(ar, (size_t)bx * sizeof *re);
    bool *win = kc_arena_alloc(ar, (size_t)bx * sizeof *win), *rin = kc_arena_alloc(ar, (size_t)bx * sizeof *rin);
    bool presumed = false;
    for (int64_t t = 0; t < bx; t++) {
        int a = runs(k, w->guard, t, &presumed), b = runs(k, r->guard, t, &presumed);
        if (a < 0 || b < 0)
            return false;
        win[t] = a == 1, rin[t] = b == 1;
        eval_part(k, w->offset, true, t, &we[t]);
        eval_part(k, r->offset, true, t, &re[t]);
        we[t] += cw, re[t] += cr;
    }
    for (int64_t tw = 0; tw < bx; tw++) {
        if (!win[tw])
            continue;
        for (int64_t tr = 0; tr < bx; tr++) {
            if (!rin[tr] || tr == tw || re[tr] != we[tw])
                continue;
            *why = kc_arena_printf(ar, "thread %" PRId64 " writes and thread %" PRId64 " reads element %" PRId64 "%s%s",
                                   tw, tr, we[tw],
                                   presumed_block ? kc_arena_printf(ar, ", presuming a block of %" PRId64 " threads "
                                                                    "(no launch in the file gives its width)", bx)
                                                  : "",
                                   presumed ? "; a bound on the thread index that kcheck cannot size (`lane < n`) "
                                              "is taken to be at least 2"
                                            : "");
            return true;
        }
    }
    return false;
}

/* Can a thread t >= 0 write element `c` at `w`? False only where `w` is
 * `a * threadIdx.x + b` with constants that miss it (`s[64 + tid]` never
 * writes `s[0]`); true when kcheck cannot tell. */
static bool some_thread_writes(const kc_index *w, int64_t c)
{
    int64_t a = 0, b = 0;
    for (unsigned i = 0; w && i < w->nmono; i++) {
        const kc_mono *m = &w->mono[i];
        if (m->nfac == 0)
            b += m->coef;
        else if (m->nfac == 1 && m->fac[0].kind == KC_ATOM_LANE && m->fac[0].id == 0)
            a += m->coef;
        else
            return true;
    }
    if (!w || a == 0)
        return true;
    return (c - b) % a == 0 && (c - b) / a >= 0;
}

/* Are `a` and `b` in the two arms of one condition that is the same for
 * the whole block and in every pass (`if (role < 2) ... else ...` with
 * `role = blockIdx.z`)? A block then runs one of them only. */
static bool uniform_arms(const kc_kernel *k, const kc_access *a, const kc_access *b)
{
    unsigned ha = 0;
    for (uint32_t ca = a->guard; ca != KC_NONE && ca < k->conds.len && ha++ < 1000; ca = k->conds.data[ca].parent) {
        const kc_cond *x = &k->conds.data[ca];
        /* the same in every thread: no thread index in it, and no value
         * loaded at a thread-dependent address (a word at one address, a
         * `__shared__` flag set before a barrier, reads alike) */
        kc_deps d = x->deps;
        if (d.axes || (d.flags & KC_AF_THREAD) || d.loops)
            continue;
        unsigned hb = 0;
        for (uint32_t cb = b->guard; cb != KC_NONE && cb < k->conds.len && hb++ < 1000; cb = k->conds.data[cb].parent) {
            const kc_cond *y = &k->conds.data[cb];
            if (y->negated != x->negated && kc_span_same(x->span, y->span))
                return true;
        }
    }
    return false;
}

/* Can a thread touch, at `r`, the element another thread touches at `w`? */
static bool other_thread(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *w,
                         const kc_access *r, bool cross_pass, const layout_list *layouts, const char **why)
{
    if (has_split(k, w->offset) || has_split(k, r->offset))
        return split_conflict(ar, m, k, w, r, why);
    int64_t ext[3] = {layout_ext(layouts, w, 0), layout_ext(layouts, w, 1), layout_ext(layouts, w, 2)};
    if (kc_disjoint_ranges(ar, m, k, w, r, ext) || (!cross_pass && kc_disjoint_guarded(ar, k, w, r)) ||
        kc_disjoint_subscripts(m, k, w, r) || (!cross_pass && kc_pivot_excluded(ar, m, k, w, r)) ||
        kc_own_element(ar, m, k, w, r, ext))
        return false;
    kc_offset_delta od;
    kc_offset_delta_of(ar, k, w->offset, r->offset, &od);
    if (!od.known || !od.delta || !od.lanes_pure)
        return false;
    if (od.lanes_equal) {
        if (od.w_uniform) {
            /* one location: written by some threads, read by others */
            if (!od.rest_zero || cross_pass)
                return false;
            uint32_t wc = kc_guard_thread_cond(k, w->guard);
            if (wc == KC_NONE || kc_guard_has(k, r->guard, wc) || same_single_thread(k, w, r))
                return false;
            *why = kc_guard_thread_cond(k, r->guard) != KC_NONE
                       ? "the write and the read are done by the threads where two different conditions hold"
                       : "the write is done by the threads where a condition holds and the read by all threads";
            return true;
        }
        if (od.rest_zero || !od.rest_clean || !reachable(m, k, w, r, &od, layouts) || foreign_loops(k, w, r, od.rest))
            return false;
        if (split_by_guard(ar, k, w, r, &od) || opaque_thread_guard(k, w, r))
            return false;
        if (kc_disjoint_by_threads(ar, m, k, w, r, ext))
            return false;
        *why = "the indices differ by a constant offset between threads";
        return true;
    }
    /* different lane maps */
    if (!od.rest_clean || od.w_uniform)
        return false;
    if (od.r_uniform) {
        int64_t c;
        if (kc_index_is_const(r->offset, &c)) {
            /* a broadcast read of one element; not under `if (tid == 0)`,
             * which is most likely the writer itself */
            if (kc_guard_thread_cond(k, r->guard) != KC_NONE || !some_thread_writes(w->offset, c))
                return false;
            *why = "every thread reads the element that one thread wrote";
            return true;
        }
        /* a loop over the elements: only when every thread wrote its own
         * (a guarded write may leave the loop's range to other threads) */
        if (kc_guard_thread_cond(k, w->guard) != KC_NONE)
            return false;
        *why = "every reading thread reads elements that other threads wrote";
        return true;
    }
    /* A write under a condition on loaded data (`if (d[ty][tx] == X)`):
     * in-place dynamic programming (Floyd-Warshall) whose value logic may
     * keep the racing elements apart; kcheck cannot tell. */
    unsigned hops = 0;
    for (uint32_t c = w->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        kc_deps d = k->conds.data[c].deps;
        if ((d.flags & KC_AF_DATA) && (d.axes || (d.flags & KC_AF_THREAD)))
            return false;
    }
    if (kc_disjoint_by_threads(ar, m, k, w, r, ext))
        return false;
    *why = "the two indices map threads to elements differently";
    return true;
}

static bool inlined(const kc_access *a) { return kc_span_valid(a->origin) && !kc_span_same(a->origin, a->span); }

/* The access as written (inside the called function when inlined). */
static const char *acc_text(kc_rule_ctx *ctx, const kc_access *a)
{
    const char *t = kc_rule_span_text(ctx, inlined(a) ? a->origin : a->span);
    return strlen(t) > 60 ? kc_arena_printf(kc_rule_arena(ctx), "%.57s...", t) : t;
}

static uint32_t acc_line(const kc_access *a) { return inlined(a) ? a->origin.line : a->span.line; }

/* Both accesses inside one call of an inlined device function whose own
 * model holds the same __shared__ array: reported there, at the real
 * lines. (Two calls of it are not: the race between them is the caller's.) */
static bool reported_in_callee(const kc_model *m, const kc_access *x, const kc_access *o)
{
    if (!inlined(x) || !inlined(o) || !x->base_name || !kc_span_same(x->span, o->span))
        return false;
    for (uint32_t i = 0; i < m->kernels.len; i++) {
        const kc_kernel *d = m->kernels.data[i];
        if (!d->is_device_function || !kc_span_inside(x->origin, d->span) || !kc_span_inside(o->origin, d->span))
            continue;
        for (uint32_t j = 0; j < d->shared_arrays.len; j++)
            if (d->shared_arrays.data[j].name && strcmp(d->shared_arrays.data[j].name, x->base_name) == 0)
                return true;
    }
    return false;
}

/* The tree reduction without a barrier in its loop:
 *     for (s = blockDim.x / 2; s > 0; s >>= 1)
 *         if (tid < s) sdata[tid] += sdata[tid + s];
 * Within a pass `tid < s` keeps the readers' elements ([s, 2s)) apart from
 * the writers' ([0, s)); but s shrinks every pass, and the next pass reads
 * [s/2, s), which threads of this pass wrote. The write index must not move
 * with the loop, the read index be the write index plus a positive multiple
 * of the shrinking variable, and the pair be split by that guard. */
static bool shrinking_split(kc_arena *ar, const kc_kernel *k, const kc_access *w, const kc_access *r, uint32_t l,
                            const char **why)
{
    const kc_loop *L = &k->loops.data[l];
    if (!L->shrinks || kc_index_depends_on_loop(w->offset, l))
        return false;
    kc_offset_delta od;
    kc_offset_delta_of(ar, k, w->offset, r->offset, &od);
    if (!od.known || !od.delta || !od.lanes_pure || !od.lanes_equal || od.w_uniform || !od.rest || od.rest_const ||
        od.rest->nmono != 1 || od.rest->mono[0].coef <= 0 || !kc_index_depends_on_loop(od.rest, l) ||
        opaque_thread_guard(k, w, r) || !split_by_guard(ar, k, w, r, &od))
        return false;
    *why = kc_arena_printf(ar,
                           "a guard keeps readers and writers apart within a pass, but `%s` shrinks every pass "
                           "(`%s`): in the next pass the threads below its new value read elements that threads "
                           "at or above it wrote in this one",
                           L->var ? L->var : "the loop variable", L->header_text ? L->header_text : "?");
    return true;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    sep_list seps = {0};
    seps_of(k, &seps);
    layout_list layouts = {0};
    layouts_of(ar, m, k, &seps, &layouts);
    bool *reported = calloc(k->accesses.len ? k->accesses.len : 1, sizeof *reported);
    KC_VEC(uint64_t) keys = {0};
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *x = &k->accesses.data[i];
        if (reported[i] || x->space != KC_MEM_SHARED || x->is_volatile || !x->offset || x->base == KC_NONE ||
            (x->kind != KC_ACC_LOAD && x->kind != KC_ACC_STORE))
            continue;
        for (uint32_t j = 0; j < k->accesses.len && !reported[i]; j++) {
            const kc_access *y = &k->accesses.data[j];
            if (i == j || y->space != KC_MEM_SHARED || y->is_volatile || !y->offset || y->base != x->base ||
                (y->kind != KC_ACC_LOAD && y->kind != KC_ACC_STORE) || x->kind == y->kind)
                continue;
            const kc_access *w = x->kind == KC_ACC_STORE ? x : y;
            const kc_access *r = x->kind == KC_ACC_LOAD ? x : y;
            if (uniform_arms(k, w, r) || kc_access_fields_apart(w, r))
                continue;
            /* one buffer through pointers of two element sizes
             * (`((uint64_t *)s)[16 * tid + i]`, `s[64 * tid]` of int16):
             * the offsets compared in bytes */
            kc_access wb = *w, rb = *r;
            if (w->elem_bytes && r->elem_bytes && w->elem_bytes != r->elem_bytes) {
                wb.offset = kc_index_scale(ar, w->offset, w->elem_bytes);
                rb.offset = kc_index_scale(ar, r->offset, r->elem_bytes);
                wb.elem_bytes = rb.elem_bytes = 1;
            }
            /* RAW: reported at the read; WAR: at the write (the access x). */
            bool raw = x == r;
            const char *why = NULL;
            bool same_pass = raw ? w->seq < r->seq : r->seq < w->seq;
            bool hazard = false, cross = false;
            uint32_t l = KC_NONE;
            if (same_pass) {
                uint32_t a = raw ? w->seq : r->seq, b = raw ? r->seq : w->seq;
                hazard = !sep_between(&seps, a, b) && other_thread(ar, m, k, &wb, &rb, false, w->elem_bytes == r->elem_bytes ? &layouts : NULL, &why);
            }
            if (!hazard && !same_pass) {
                l = common_loop(k, w->loop, r->loop);
                if (l != KC_NONE && !kc_index_depends_on_loop(w->offset, l) &&
                    !kc_index_depends_on_loop(r->offset, l)) {
                    uint32_t from = raw ? w->seq : r->seq, to = raw ? r->seq : w->seq;
                    hazard = !sep_around(k, &seps, l, from, to) && other_thread(ar, m, k, &wb, &rb, true, w->elem_bytes == r->elem_bytes ? &layouts : NULL, &why);
                    cross = hazard;
                } else if (l != KC_NONE && raw && shrinking_split(ar, k, w, r, l, &why)) {
                    hazard = !sep_around(k, &seps, l, w->seq, r->seq);
                    cross = hazard;
                }
            }
            if (!hazard || reported_in_callee(m, x, x == r ? w : r))
                continue;
            /* one diagnostic per array and place (a call that inlines many
             * racing accesses is one place) */
            {
                uint64_t key = ((uint64_t)x->base << 32) | (uint64_t)x->span.line;
                bool dup = false;
                for (uint32_t q = 0; q < keys.len && !dup; q++)
                    dup = keys.data[q] == key;
                if (dup) {
                    reported[i] = true;
                    continue;
                }
                kc_vec_push(&keys, key);
            }
            reported[i] = true;
            reported[j] = true; /* one diagnostic per racing pair */
            const char *arr = x->base_name ? x->base_name : "shared memory";
            const kc_access *o = x == r ? w : r;
            kc_diag *d;
            if (raw)
                d = kc_report(ctx, k, x->span,
                              "`%s` reads `__shared__ %s` that other threads wrote at line %u (`%s`)%s with no "
                              "`__syncthreads()` in between",
                              acc_text(ctx, x), arr, acc_line(o), acc_text(ctx, o),
                              cross ? " in the previous loop pass," : "");
            else
                d = kc_report(ctx, k, x->span,
                              "`%s` overwrites `__shared__ %s` that other threads %sread at line %u (`%s`)%s with no "
                              "`__syncthreads()` in between",
                              acc_text(ctx, x), arr, cross ? "may still " : "", acc_line(o), acc_text(ctx, o),
                              cross ? " in the previous loop pass," : "");
            if (inlined(x) || inlined(o))
                kc_diag_note(d, "reached through the device function called on line %u", x->span.line);
            kc_diag_note(d, "write index: %s; read index: %s; %s", kc_model_index_str(m, k, w->offset),
                         kc_model_index_str(m, k, r->offset), why);
            {
                kc_offset_delta od;
                kc_offset_delta_of(ar, k, w->offset, r->offset, &od);
                if (od.lanes_equal && od.rest_const && od.rest_value > -32 && od.rest_value < 32 && od.lane_gcd == 1)
                    kc_diag_note(d, "the two threads are %" PRId64 " apart, in one warp when the block is wide enough: "
                                 "warp-synchronous code like this needs `__syncwarp()` since Volta (sm_70), whose "
                                 "lanes are not guaranteed to run in lockstep",
                                 od.rest_value < 0 ? -od.rest_value : od.rest_value);
            }
            if (cross)
                kc_diag_note(d, "across passes of %s: there is no barrier between %s in one pass and %s in the "
                             "next",
                             kc_loop_describe(ctx, k, &k->loops.data[l]), raw ? "the write" : "the read",
                             raw ? "the read" : "the write");
            if (cross && !raw)
                kc_diag_note(d, "fix: add `__syncthreads()` at the end of the loop body, so that every thread is "
                             "done reading before the buffer is written again");
            else if (cross)
                kc_diag_note(d, "fix: add `__syncthreads()` after the write at the end of the pass (or before the "
                             "read at the top of the next one)");
            else if (!kc_span_same(o->span, x->span) && (inlined(x) || inlined(o)))
                /* through two calls (a helper called twice): between the
                 * calls, or at the helper's end */
                kc_diag_note(d, "fix: add `__syncthreads()` between line %u and line %u, reached by every thread of "
                             "the block (or at the end of the called function, after its last read of the buffer)",
                             o->span.line, x->span.line);
            else if (acc_line(o) == acc_line(x))
                /* one statement reads and writes (`t[i] += t[i + 16]`): no
                 * place between them for a barrier */
                kc_diag_note(d, "fix: read into a register first, then `__syncthreads()` (within a single warp "
                             "`__syncwarp()`) reached by every thread of the block, then write (`v = t[i + s]; "
                             "__syncwarp(); t[i] += v;`)");
            else
                kc_diag_note(d, "fix: add `__syncthreads()` between line %u and line %u, reached by every thread of "
                             "the block (within a single warp `__syncwarp()` suffices)",
                             acc_line(o), acc_line(x));
        }
    }
    free(reported);
    kc_vec_free(&keys);
    kc_vec_free(&seps);
    kc_vec_free(&layouts);
}

const kc_rule kc402_shared_memory_race = {
    .id = "KC402",
    .slug = "shared-memory-race",
    .summary = "__shared__ element written by one thread and read by another with no __syncthreads() in between.",
    .severity = KC_SEV_ERROR,
    .langs = KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_RACE,
};
