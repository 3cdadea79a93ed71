/* KC401 barrier-divergence: a block-wide barrier that some threads of the
 * block never reach. */
#include "rule_util.h"

#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a block-wide barrier (`__syncthreads()`, `__syncthreads_count/and/or()`,\n"
    "`cooperative_groups::thread_block::sync()`, `grid_group::sync()`) that only\n"
    "some threads of the block reach:\n"
    "\n"
    "- it sits under a condition that depends on the thread (`if (tid < 32)`,\n"
    "  `if (x[i] > 0)` with `i` from `threadIdx`), or in a loop whose number of\n"
    "  passes differs between threads (`for (i = threadIdx.x; i < n; i += blockDim.x)`);\n"
    "- or it comes after a `return`, `break` or `continue` taken under such a\n"
    "  condition (`if (i >= n) return;` followed by `__syncthreads()`).\n"
    "\n"
    "A grid-stride or block-stride loop (`for (i = blockIdx.x * blockDim.x +\n"
    "threadIdx.x; i < n; i += blockDim.x * gridDim.x)`) makes the same number of\n"
    "passes in every thread of a block exactly when `n` is a multiple of\n"
    "`blockDim.x`: a barrier in it is left alone when every launch of the kernel in\n"
    "the file passes for `n` a product with the block size among its factors\n"
    "(`n = B * H * C` with a block of `C`, `blocks * threads`), and otherwise\n"
    "reported with that assumption stated: an error where a launch in the file\n"
    "rounds its grid up (`(n + 255) / 256`), else a note. A `return` inside a branch on a\n"
    "block-uniform condition that every thread entering it leaves by a return\n"
    "does not make later barriers divergent, and neither does a branch that ends\n"
    "in a trap (`__trap()`, `asm(\"trap;\")`): the whole kernel aborts there, and a\n"
    "`return` after the trap never runs.\n"
    "\n"
    "Conditions that are the same for the whole block (on `blockIdx`, kernel\n"
    "parameters, template constants, loop counters with uniform bounds) are fine,\n"
    "and a comparison varies with the thread only as the difference of its sides\n"
    "does (`i >= n + ty` with `i` counted up from `ty` is the same in every\n"
    "thread). A reference parameter that every call in the file binds to a\n"
    "`__shared__` variable (`int &ntasks`) is that memory: after a barrier every\n"
    "thread reads the block's value, whichever threads wrote it; in a function\n"
    "nothing in the file calls, such a reference may be a shared scalar or a\n"
    "register of the caller, and conditions on it are not judged.\n"
    "and so are warp-level barriers (`__syncwarp()`, a tile's `sync()`). Barriers\n"
    "reached through an inlined device function are reported at the call. A\n"
    "condition on a parameter that a verifier precondition pins\n"
    "(`__requires(n == 65536)`, `__builtin_assume(n == 65536)`) is left alone:\n"
    "whether the block agrees then depends on that value and the block size.\n"
    "A condition that compares a thread's index with a parameter (`if (row >=\n"
    "seqlen) return;`) for which every launch in the file passes a variable that\n"
    "the launching function asserts, before the launch, to be a multiple of\n"
    "something (`assert(seqlen % max(Br, Bc) == 0)`, `TORCH_CHECK(n % 64 == 0,\n"
    "...)`, `if (n % 64 != 0) return;`) is reported as a note that names the\n"
    "assert: when that multiple covers the rows of one block, no block straddles\n"
    "the bound and the threads agree; kcheck does not evaluate the divisor.\n"
    "A grid-stride bound that every launch keeps a multiple of the block's\n"
    "variable value, where the block is that value or a cap (`threads =\n"
    "channels > 1024 ? 1024 : channels` over `n = batch * channels`, `min(gc,\n"
    "256)`), is a note too: the threads agree unless the block is the cap and the\n"
    "cap does not divide the value, and the note says so.\n"
    "A break that only a loop's last pass can take is no early exit for the\n"
    "barriers before it: in a loop from the thread's index by a constant step S\n"
    "whose passes are the same in every thread (`for (t = tx; t < n + tx; t +=\n"
    "64)`), `if (t >= n) break;` holds only where no thread has a next pass,\n"
    "as long as the threads' indices stay below S (the launches' block, else\n"
    "what the loop presumes: a step of S visits every value once only from\n"
    "starts below S). A break no thread takes is none either: in a loop over\n"
    "chunks by S from a start the same for all (`for (round = 0; round < T;\n"
    "round += 4)`), `if (round + warp_id >= T) break;` is never taken when S\n"
    "divides T - start and the warp index stays below S (the launches' block,\n"
    "else the loop's presumption again). Two loads of one address that nothing in the loop\n"
    "stores to are one value there (`n` read in the condition and again in\n"
    "the body). A block-stride loop from the flat thread index of a 2-D or 3-D\n"
    "block (`threadIdx.y * blockDim.x + threadIdx.x`) by a step of whole blocks\n"
    "(`wrap = blockDim.x * blockDim.y`) to a bound the kernel rounds up to the\n"
    "step (`(n + wrap - 1) / wrap * wrap`) makes the same passes in every thread.\n"
    "A warp-stride loop over a span its step divides (`for (j = base + warp;\n"
    "j < base + 128; j += 8)`, warp = threadIdx.x >> 5) makes span / step passes\n"
    "in every thread while the warp index stays below the step: shown by the\n"
    "launches' block, or, where no launch in the file gives it (a functor\n"
    "launched from another file), presumed (the step is the number of warps).\n"
    "A counted loop whose step or bound kcheck cannot read (a name from a\n"
    "missing header: `k += kWarpSize`) is a note that says so: whether the\n"
    "passes differ rests on what the step and the bound are.\n"
    "A condition that varies with the thread only through the result of a\n"
    "call kcheck does not follow (a member function such as a decoder's\n"
    "`stream.decode_next(t, n)`, or a callee it cannot resolve) is not taken\n"
    "to diverge: being given the thread index, the callee may still hand\n"
    "every thread the same count. The block total that CUB's `BlockScan`\n"
    "gives in its `block_aggregate` argument (`InclusiveSum(in, out,\n"
    "total)`) is the same for every thread; the scan's own output is not.\n"
    "A guard on the thread's index along x (`blockIdx.x * blockDim.x +\n"
    "threadIdx.x < G`, or `threadIdx.x < G`) where every launch of the file\n"
    "gives the block exactly `G` threads along x (`<<<1, G>>>(..., G)`) puts a\n"
    "whole block on one side: block 0 inside, any other outside.\n"
    "An exit or a guard that compares a thread's index (made of `threadIdx`,\n"
    "`blockIdx`, `blockDim`, parameters, constants, and quotients of those by\n"
    "constants) with parameters is left alone when every launch of the kernel\n"
    "in the file runs no thread past the bound: `if (gid >= batch * 4) return;`\n"
    "under `<<<batch / 32, 128>>>(..., batch)`, `if ((gid >> 3) < threads)` under\n"
    "blocks of `t << 3` threads, `blocks` of them, passing `blocks * t`, `if (ix <\n"
    "nx && iy < ny)` under a grid that covers a 4096 x 4096 matrix exactly, and\n"
    "`if (threadIdx.x >= n) return;` with `n = 1 << 24`, which no block reaches (a\n"
    "block has at most 1,024 threads along x and y and 64 along z, whatever its\n"
    "size at run time). kcheck bounds the grid, the block and each argument by the\n"
    "launching function's variables (through locals that only their initializer\n"
    "writes, members of dim3 variables, integer casts that do not narrow, and\n"
    "variables written only before those reads, in no loop or branch), takes\n"
    "those variables to be non-negative, and rounds each division the way that\n"
    "makes the proof harder.\n"
    "\n"
    "## Why is this bad?\n"
    "`__syncthreads()` must be reached by every thread of the block, the same number\n"
    "of times (CUDA C++ Programming Guide, \"Synchronization Functions\"). When it is\n"
    "not, the behaviour is undefined: on AMD GPUs (HIP) the waiting threads deadlock;\n"
    "on NVIDIA GPUs warps wait at *different* barriers, which silently corrupts the\n"
    "data the barrier was meant to protect (llama.cpp PR #13469 gave wrong results\n"
    "on long contexts) or hangs. Measured on an H200\n"
    "(`bench/premise/kc401_kc402_shapes.sh`,\n"
    "docs/measurements/kc401-kc402-shapes-h200-2026-12-06.txt): a barrier inside a\n"
    "branch that part of a warp takes hung the block; threads that returned before\n"
    "a barrier let the others go on, and `compute-sanitizer --tool synccheck`\n"
    "reported nothing, so an early exit is found only by reading the code (or on an\n"
    "AMD GPU, where it deadlocks).\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "if (i >= n) return;          // the tail block loses some threads here\n"
    "s[threadIdx.x] = x[i];\n"
    "__syncthreads();             // ... and the others wait for them forever\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "s[threadIdx.x] = i < n ? x[i] : 0.0f;   // every thread stays\n"
    "__syncthreads();\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Keep every thread alive up to the last barrier: replace an early `return` by a\n"
    "guard around the work (or an `active` flag), move a barrier out of the\n"
    "thread-dependent `if`, and give loops that contain barriers a trip count that\n"
    "is the same for the whole block (loop over tiles with a uniform bound and test\n"
    "the element index inside).\n"
    "\n"
    "## References\n"
    "- CUDA C++ Programming Guide, \"Synchronization Functions\": `__syncthreads()` in\n"
    "  conditional code only if the condition evaluates identically across the block.\n"
    "- pytorch/FBGEMM PR #5857 (early return before `__syncthreads()` in\n"
    "  `quantize_float_to_mx4_kernel`: deadlock on ROCm).\n"
    "- ggml-org/llama.cpp PR #13469 (a barrier executed by part of the warps:\n"
    "  misaligned synchronization, wrong results).\n";

/* Block-wide barriers: all threads of the block (or grid) must arrive. */
static bool block_wide(const char *name)
{
    return strncmp(name, "__syncthreads", 13) == 0 || strcmp(name, "cg::thread_block::sync") == 0 ||
           strcmp(name, "cg::grid_group::sync") == 0 || strcmp(name, "cg::cluster_group::sync") == 0;
}

/* Thread-dependent as far as kcheck can tell: not through the result of
 * a call it did not follow (a member function such as a decoder's
 * `stream.skip_decode(t, n)`, which may hand every thread the same
 * count), whose thread index argument proves nothing about its result. */
static bool deps_thread(kc_deps d) { return kc_deps_thread_seen(d); }

/* The loop whose condition `c` is (the guard of its body), or NULL. */
static const kc_loop *loop_of_cond(const kc_kernel *k, const kc_cond *c)
{
    if (c->loop == KC_NONE || c->loop >= k->loops.len)
        return NULL;
    const kc_loop *l = &k->loops.data[c->loop];
    return kc_span_same(l->range_span, c->span) ? l : NULL;
}

/* A loop whose bounds move with the thread but whose number of passes does
 * not: `for (t = base + tid; t < end + tid; t += C)`. */
static bool uniform_trip_count(const kc_loop *l)
{
    if (!l->start || !l->end || !l->step)
        return false;
    kc_arena *a = kc_arena_new();
    const kc_index *span = kc_index_sub(a, l->end, l->start);
    bool uniform = span && !deps_thread(kc_index_deps(span)) && !deps_thread(kc_index_deps(l->step));
    kc_arena_delete(a);
    return uniform;
}

/* The name a KC002 gap of kernel k lists as missing (an unknown name,
 * type or function) that loop l's header, step or bound is written with
 * (`k += kWarpSize`), or NULL. */
static const char *missing_name(const kc_model *m, const kc_kernel *k, const kc_loop *l)
{
    for (uint32_t i = 0; i < m->gaps.len; i++) {
        const kc_gap *g = &m->gaps.data[i];
        if (!g->what || !g->kernel || !k->name || strcmp(g->kernel, k->name) != 0 ||
            (g->kind != KC_GAP_NAME && g->kind != KC_GAP_TYPE && g->kind != KC_GAP_CALLEE))
            continue;
        size_t n = strlen(g->what);
        if ((l->header_text && kc_text_has_word(l->header_text, g->what, n)) ||
            (l->step_text && kc_text_has_word(l->step_text, g->what, n)) ||
            (l->end_text && kc_text_has_word(l->end_text, g->what, n)))
            return g->what;
    }
    return NULL;
}

/* The number of block axes (1 to 3) whose flat thread index the monomials
 * of x that vary between threads spell: threadIdx.x (+ threadIdx.y *
 * blockDim.x (+ threadIdx.z * blockDim.x * blockDim.y)), each term once
 * with coefficient 1; 0 when they spell anything else. */
static unsigned flat_thread_axes(const kc_index *x)
{
    unsigned seen = 0, n = 0;
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        bool thread = false;
        for (unsigned f = 0; f < mo->nfac; f++)
            thread |= (mo->fac[f].flags & KC_AF_THREAD) || mo->fac[f].axes;
        if (!thread)
            continue;
        int lane = -1;
        unsigned dims = 0;
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *a = &mo->fac[f];
            if (a->kind == KC_ATOM_LANE && a->id < 3 && lane < 0)
                lane = (int)a->id;
            else if (a->kind == KC_ATOM_BLOCK_DIM && a->id < 3 && !(dims & (1u << a->id)))
                dims |= 1u << a->id;
            else
                return 0;
        }
        if (lane < 0 || mo->coef != 1 || dims != (1u << lane) - 1u || (seen & (1u << lane)))
            return 0;
        seen |= 1u << lane;
    }
    while (n < 3 && (seen & (1u << n)))
        n++;
    return seen == (1u << n) - 1u ? n : 0;
}

/* A block-stride loop over the flat thread index of the block up to a
 * bound the kernel rounds up to the step: `for (i = threadIdx.y *
 * blockDim.x + threadIdx.x; i < end; i += wrap)` with wrap = blockDim.x *
 * blockDim.y and `end = (n + wrap - 1) / wrap * wrap`. The start is a
 * uniform base plus the flat index t, 0 <= t < wrap; the step is a
 * multiple of wrap; the bound minus the base is a multiple of the step:
 * every thread makes (end - base) / step passes. */
static bool rounded_flat_stride(const kc_cond *c, const kc_loop *l)
{
    if (!l->start || !l->end || !l->step || l->step->nmono != 1 || deps_thread(kc_index_deps(l->step)) ||
        deps_thread(kc_index_deps(l->end)) || c->npreds != 1 || c->preds[0].op != KC_CMP_LT || !c->preds[0].rhs)
        return false;
    const kc_mono *st = &l->step->mono[0];
    unsigned n = flat_thread_axes(l->start);
    if (!n || st->coef <= 0)
        return false;
    for (unsigned ax = 0; ax < n; ax++) { /* the step: a multiple of the flat index's range */
        kc_mono dim = {.coef = 1, .nfac = 1};
        dim.fac[0] = kc_atom_make(KC_ATOM_BLOCK_DIM, ax, (kc_deps){0});
        if (!kc_mono_divides(&dim, st))
            return false;
    }
    kc_arena *a = kc_arena_new();
    const kc_index *lanes = kc_index_lane_part(a, l->start); /* the flat index; the rest is the base */
    const kc_index *base = lanes ? kc_index_sub(a, l->start, lanes) : NULL;
    const kc_index *gap = kc_index_sub(a, c->preds[0].rhs, l->end);
    const kc_index *span = base ? kc_index_sub(a, l->end, base) : NULL;
    int64_t z;
    bool ok = gap && kc_index_is_const(gap, &z) && z == 0 && span;
    for (unsigned i = 0; ok && i < span->nmono; i++)
        ok = kc_mono_divides(st, &span->mono[i]);
    kc_arena_delete(a);
    return ok;
}

/* A group-stride loop over a span its step divides: `for (j = base +
 * warp; j < base + 128; j += 8)`, warp = threadIdx.x >> 5 (or threadIdx.x
 * itself): every thread makes span / step passes as long as its group
 * index stays below the step. The launches' block shows that (256 threads:
 * warps 0..7); where no launch in the file gives the block (a functor
 * launched from another file), a group of a warp or more is presumed to
 * number no more than the step (the step is the number of groups). */
static bool group_stride(const kc_model *m, const kc_kernel *k, const kc_loop *l)
{
    int64_t st;
    if (!l->start || !l->end || !l->step || !kc_index_is_const(l->step, &st) || st <= 1)
        return false;
    kc_arena *a = kc_arena_new();
    const kc_index *span = kc_index_sub(a, l->end, l->start);
    int64_t div = 0;
    bool ok = span != NULL;
    for (unsigned i = 0; ok && i < span->nmono; i++) {
        const kc_mono *mo = &span->mono[i];
        bool thread = false;
        for (unsigned f = 0; f < mo->nfac; f++)
            thread |= mo->fac[f].kind == KC_ATOM_LANE || mo->fac[f].axes || (mo->fac[f].flags & KC_AF_THREAD);
        if (!thread) {
            ok = mo->coef % st == 0; /* the span: a multiple of the step */
            continue;
        }
        const kc_atom *g = mo->nfac == 1 ? &mo->fac[0] : NULL;
        if (div || mo->coef != -1 || !g) {
            ok = false;
        } else if (g->kind == KC_ATOM_LANE && g->id == 0) {
            div = 1;
        } else if (g->kind == KC_ATOM_OPAQUE && g->id < k->opaques.len && k->opaques.data[g->id].split == KC_SPLIT_GROUP &&
                   k->opaques.data[g->id].split_axis == 0 && k->opaques.data[g->id].split_div > 1) {
            div = k->opaques.data[g->id].split_div;
        } else {
            ok = false;
        }
    }
    kc_arena_delete(a);
    if (!ok || !div)
        return false;
    int64_t bx = kc_launch_block_x(m, k);
    if (bx > 0)
        return (bx + div - 1) / div <= st;
    return div >= 32;
}

/* A block-stride loop over a constant extent that the launched block tiles
 * exactly: `for (i = tid; i < 65536; i += 256)` where tid stays below 256
 * in every launch of the file (blocks of 32 x 8): 256 passes in every
 * thread. The start is a sum of thread indices (and block sizes) with
 * positive coefficients, bounded through the launches' block. */
static bool constant_tiles(const kc_model *m, const kc_kernel *k, const kc_loop *l)
{
    int64_t e, st;
    if (!l->start || !l->end || !l->step || !kc_index_is_const(l->end, &e) || !kc_index_is_const(l->step, &st) ||
        st <= 0 || e < 0 || e % st)
        return false;
    int64_t bd[3];
    for (unsigned ax = 0; ax < 3; ax++)
        bd[ax] = kc_launch_block_dim(m, k, ax);
    int64_t hi = 0;
    for (unsigned i = 0; i < l->start->nmono; i++) {
        const kc_mono *mo = &l->start->mono[i];
        if (mo->nfac == 0 || mo->coef <= 0)
            return false;
        int64_t term = mo->coef;
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *a = &mo->fac[f];
            if ((a->kind != KC_ATOM_LANE && a->kind != KC_ATOM_BLOCK_DIM) || a->id > 2 || bd[a->id] <= 0)
                return false;
            int64_t v = a->kind == KC_ATOM_LANE ? bd[a->id] - 1 : bd[a->id];
            if (v > 0 && term > INT64_MAX / v / 2)
                return false;
            term *= v;
        }
        hi += term;
        if (hi >= st)
            return false;
    }
    return l->start->nmono > 0;
}

/* Is every monomial of x thread-uniform, with blockDim.x among its
 * factors (x a multiple of the block's x size)? An empty x (zero) is. */
static bool blockdim_multiple(const kc_index *x)
{
    if (!x || deps_thread(kc_index_deps(x)))
        return false;
    for (unsigned i = 0; i < x->nmono; i++) {
        bool has = false;
        for (unsigned f = 0; f < x->mono[i].nfac && !has; f++)
            has = x->mono[i].fac[f].kind == KC_ATOM_BLOCK_DIM && x->mono[i].fac[f].id == 0;
        if (!has)
            return false;
    }
    return true;
}

/* The block's x size that every launch of k in the file (of this
 * instantiation, for one) spells as the same constant, or 0 (none, or
 * they differ, or one is unknown). */
static int64_t launched_block_x(const kc_model *m, const kc_kernel *k)
{
    int64_t bx = kc_launch_block_dim(m, k, 0);
    return bx > 0 ? bx : 0;
}

/* Is x thread-uniform and a multiple of the block's x size: blockDim.x a
 * factor of every monomial, or (bx > 0, the size every launch spells)
 * every coefficient a multiple of bx (`TB * ceil(n / TB)` in the kernel
 * instantiated with TB = 128 and launched with 128 threads)? */
static bool block_multiple(const kc_index *x, int64_t bx)
{
    if (blockdim_multiple(x))
        return true;
    if (bx <= 0 || !x || !x->nmono || deps_thread(kc_index_deps(x)))
        return false;
    for (unsigned i = 0; i < x->nmono; i++)
        if (x->mono[i].coef % bx != 0)
            return false;
    return true;
}

/* The grid-stride loop `for (i = blockIdx.x * blockDim.x + threadIdx.x;
 * i < n; i += blockDim.x * gridDim.x)`: the start is threadIdx.x plus a
 * multiple of blockDim.x, the step a multiple of it, the bound uniform
 * and the condition `i < n`. Every thread of a block then makes the same
 * number of passes exactly when n is a multiple of blockDim.x (each pass
 * covers whole blocks of indices). Returns the bound, or NULL. */
static const kc_index *block_stride_bound(const kc_kernel *k, const kc_cond *c, const kc_loop *l, int64_t bx);

static const kc_index *grid_stride_bound(const kc_kernel *k, const kc_cond *c, const kc_loop *l)
{
    return block_stride_bound(k, c, l, 0);
}

/* The same, where the block's x size may also be bx > 0, the constant
 * every launch spells (a step of `TB` launched with TB threads). */
static const kc_index *block_stride_bound(const kc_kernel *k, const kc_cond *c, const kc_loop *l, int64_t bx)
{
    if (!l->start || !l->end || !l->step || !l->step->nmono || !block_multiple(l->step, bx) ||
        deps_thread(kc_index_deps(l->end)) || c->npreds != 1 || c->preds[0].op != KC_CMP_LT || !c->preds[0].rhs)
        return NULL;
    kc_arena *a = kc_arena_new();
    kc_atom lane = kc_atom_make(KC_ATOM_LANE, 0, (kc_deps){.axes = 1, .flags = KC_AF_THREAD});
    const kc_index *tid = kc_index_atom(a, lane, l->start->bits, KC_SPACE_THREADS, NULL);
    const kc_index *base = tid ? kc_index_sub(a, l->start, tid) : NULL;
    const kc_index *gap = kc_index_sub(a, c->preds[0].rhs, l->end);
    int64_t z;
    bool ok = base && block_multiple(base, bx) && gap && kc_index_is_const(gap, &z) && z == 0;
    kc_arena_delete(a);
    (void)k;
    return ok ? l->end : NULL;
}

/* The kernel parameter a bound is, alone (`n`), or NULL. */
static const kc_param *bound_param(const kc_kernel *k, const kc_index *end)
{
    if (!end || end->nmono != 1 || end->mono[0].coef != 1 || end->mono[0].nfac != 1 ||
        end->mono[0].fac[0].kind != KC_ATOM_SYMBOL || end->mono[0].fac[0].id >= k->symbols.len)
        return NULL;
    uint32_t pi = k->symbols.data[end->mono[0].fac[0].id].param;
    return pi < k->params.len ? &k->params.data[pi] : NULL;
}

/* What the launches of the file show about a grid-stride bound: true when
 * there is at least one launch of the kernel and every one passes, for
 * the bound's parameter, a multiple of its block's x size, or of the value
 * its block takes unless capped (`v > 256 ? 256 : v` over `n * v`): then
 * *capped is the first such launch, and *why says what that rests on.
 * Otherwise *why says what is missing. */
static bool launches_keep_multiple(const kc_model *m, const kc_kernel *k, const kc_param *p, kc_arena *ar,
                                   const char **why, const kc_launch **capped)
{
    uint32_t seen = 0;
    *capped = NULL;
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *L = &m->launches.data[i];
        if (!kc_launch_may_run(L, k))
            continue;
        seen++;
        const kc_launch_arg *arg = kc_launch_arg_for(k, L, p);
        if (arg && !arg->block_multiple && arg->block_cap && !*capped) {
            *capped = L;
            *why = kc_arena_printf(ar, "the launch on line %u gives a block of `%s`, which is `%s` or %lld: it passes "
                                   "`%s` for `%s`, a multiple of `%s`, so every thread makes the same passes while "
                                   "the block is `%s`; only a block of %lld over a `%s` that %lld does not divide "
                                   "leaves a straddling block",
                                   L->span.line, L->block_text ? L->block_text : "?", arg->block_var,
                                   (long long)arg->block_cap, arg->text ? arg->text : "?", p->name, arg->block_var,
                                   arg->block_var, (long long)arg->block_cap, arg->block_var,
                                   (long long)arg->block_cap);
        }
        if (!arg || (!arg->block_multiple && !arg->block_cap)) {
            *why = kc_arena_printf(ar, "the launch on line %u passes `%s` for `%s` with a block of `%s`, which "
                                   "kcheck cannot show to be a multiple of it",
                                   L->span.line, arg && arg->text ? arg->text : "?", p->name,
                                   L->block_text ? L->block_text : "?");
            return false;
        }
    }
    if (!seen)
        *why = kc_arena_printf(ar, "this file has no launch of `%s` that shows it", k->name);
    return seen > 0;
}

static bool index_pinned(const kc_kernel *k, const kc_index *x)
{
    for (unsigned i = 0; x && i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++) {
            const kc_atom *a = &x->mono[i].fac[f];
            if (a->kind == KC_ATOM_SYMBOL && a->id < k->symbols.len && (k->symbols.data[a->id].facts & KC_SF_PINNED))
                return true;
        }
    return false;
}

/* Does the condition compare with a parameter that a verifier precondition
 * pins (`__requires(len == 65536)`)? Whether the threads of a block then
 * agree is a question of that value and the block size, which kcheck does
 * not evaluate: it stays quiet. */
static bool pinned(const kc_kernel *k, const kc_cond *c)
{
    for (uint32_t p = 0; p < c->npreds; p++)
        if (index_pinned(k, c->preds[p].lhs) || index_pinned(k, c->preds[p].rhs))
            return true;
    return false;
}

/* A condition that compares a thread-dependent index with a parameter
 * (`row >= n`) that every launch of the file passes a value for which the
 * launching code asserts to be a multiple of something (`assert(n % TILE
 * == 0)`): the first launch's argument, its launch and the parameter, or
 * NULL. Whether the threads of a block then agree depends on that
 * multiple and on what one block covers, which kcheck does not evaluate. */
static const kc_launch_arg *asserted_bound(const kc_model *m, const kc_kernel *k, const kc_cond *c,
                                           const kc_launch **launch, const kc_param **param)
{
    for (uint32_t i = 0; c && i < c->npreds; i++) {
        const kc_pred *pr = &c->preds[i];
        const kc_param *p = bound_param(k, pr->rhs);
        const kc_index *other = pr->lhs;
        if (!p) {
            p = bound_param(k, pr->lhs);
            other = pr->rhs;
        }
        if (!p || !other || !deps_thread(kc_index_deps(other)))
            continue;
        const kc_launch_arg *first = NULL;
        bool all = true;
        for (uint32_t l = 0; l < m->launches.len && all; l++) {
            const kc_launch *L = &m->launches.data[l];
            if (!kc_launch_may_run(L, k))
                continue;
            const kc_launch_arg *a = kc_launch_arg_for(k, L, p);
            all = a && a->multiple_of;
            if (all && !first) {
                first = a;
                *launch = L;
            }
        }
        if (all && first) {
            *param = p;
            return first;
        }
    }
    return NULL;
}

/* A grid-stride loop whose bound every launch of the file keeps a multiple
 * of the block's x size: the same number of passes in every thread. */
static bool launch_uniform_stride(const kc_model *m, const kc_kernel *k, const kc_cond *c, const kc_loop *l)
{
    /* a bound the kernel rounds up to a multiple of the block itself:
     * `padded = blockDim.x * ((n + blockDim.x - 1) / blockDim.x)` */
    int64_t bx = launched_block_x(m, k);
    const kc_index *end = block_stride_bound(k, c, l, bx);
    if (end && block_multiple(end, bx))
        return true;
    const kc_param *p = bound_param(k, grid_stride_bound(k, c, l));
    if (!p)
        return false;
    kc_arena *a = kc_arena_new();
    const char *why = NULL;
    const kc_launch *capped = NULL;
    bool ok = launches_keep_multiple(m, k, p, a, &why, &capped);
    kc_arena_delete(a);
    return ok && !capped; /* a capped block is reported as a note, with its assumption */
}

/* Does a condition vary only along thread axes that every launch gives
 * one thread (`threadIdx.y` under `dim3(WARP_SIZE, 1)`)? Then it has one
 * value in the block. */
static bool fixed_by_launch(kc_deps d, uint8_t unit)
{
    return unit && (d.axes & 7) && !(d.axes & 7 & ~unit);
}

/* Is x the thread's index along x in the grid (`blockIdx.x * blockDim.x +
 * threadIdx.x`) or in its block (`threadIdx.x`)? */
static bool x_index(const kc_index *x)
{
    bool lane = false, base = false;
    for (unsigned i = 0; x && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        if (mo->coef == 1 && mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id == 0)
            lane = true;
        else if (mo->coef == 1 && mo->nfac == 2 && mo->fac[0].kind == KC_ATOM_PROGRAM && mo->fac[0].id == 0 &&
                 mo->fac[1].kind == KC_ATOM_BLOCK_DIM && mo->fac[1].id == 0)
            base = true;
        else
            return false;
    }
    return lane && (base || x->nmono == 1);
}

/* A guard `i < n` on the thread's index where every launch of the file
 * gives the block exactly `n` threads along x (`<<<1, G>>>` passing G for
 * n): a whole block is on one side of it (block 0 in, any other out). */
static bool block_spans_bound(const kc_model *m, const kc_kernel *k, const kc_cond *c)
{
    if (!c || c->npreds != 1)
        return false;
    const kc_pred *p = &c->preds[0];
    const kc_param *n = bound_param(k, p->rhs);
    const kc_index *idx = p->lhs;
    if (!n) {
        n = bound_param(k, p->lhs);
        idx = p->rhs;
    }
    return n && x_index(idx) && kc_launch_block_x_is_arg(m, k, n);
}

/* Does every thread of every launch of the file satisfy the condition
 * (`gid < 4 * batch_size` under `<<<batch_size / 32, 128>>>`), or
 * (never) none? Then it is the same for the whole block. */
static bool launches_decide(const kc_model *m, const kc_kernel *k, const kc_cond *c, bool never)
{
    if (!c || !c->npreds)
        return false;
    for (uint32_t i = 0; i < c->npreds; i++) {
        bool holds = kc_pred_holds_in_launches(m, k, &c->preds[i], never);
        if (never && holds)
            return true;
        if (!never && !holds)
            return false;
    }
    return !never;
}

/* The innermost thread-dependent condition around `guard`, or KC_NONE. */
static uint32_t divergent_cond(const kc_model *m, const kc_kernel *k, uint32_t guard)
{
    unsigned hops = 0;
    uint8_t unit = kc_launch_unit_axes(m, k);
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 100000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (!deps_thread(cd->deps) || pinned(k, cd) || fixed_by_launch(cd->deps, unit) ||
            block_spans_bound(m, k, cd) || launches_decide(m, k, cd, false) || kc_cond_block_sign(cd))
            continue;
        const kc_loop *l = loop_of_cond(k, cd);
        if (l && (uniform_trip_count(l) || launch_uniform_stride(m, k, cd, l) || rounded_flat_stride(cd, l) ||
                  constant_tiles(m, k, l) || group_stride(m, k, l)))
            continue;
        return c;
    }
    return KC_NONE;
}

/* Do loads a and b (access ids) read one value in every pass of loop L:
 * the same address of the same memory, which nothing in L stores to? */
static bool same_load(const kc_kernel *k, uint32_t a, uint32_t b, uint32_t L)
{
    if (a >= k->accesses.len || b >= k->accesses.len)
        return false;
    const kc_access *x = &k->accesses.data[a], *y = &k->accesses.data[b];
    if (x->kind != KC_ACC_LOAD || y->kind != KC_ACC_LOAD || x->base == KC_NONE || x->base != y->base ||
        x->space != y->space || !x->offset || !y->offset || !kc_index_equal(x->offset, y->offset))
        return false;
    kc_deps d = kc_index_deps(x->offset);
    if (d.axes || (d.flags & (KC_AF_THREAD | KC_AF_DATA)))
        return false;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *z = &k->accesses.data[i];
        if (z->kind != KC_ACC_LOAD && z->base == x->base && z->loop != KC_NONE && kc_loop_within(k, z->loop, L))
            return false;
    }
    return true;
}

/* x less the pairs of terms `c * v` and `-c * w` where v and w are loads
 * of one value (same_load): `ntasks - ntasks` read in a loop's condition
 * and again in its body. */
static const kc_index *cancel_same_loads(kc_arena *ar, const kc_kernel *k, const kc_index *x, uint32_t L)
{
    bool gone[KC_INDEX_MAX_MONOS] = {false};
    for (unsigned i = 0; i < x->nmono && i < KC_INDEX_MAX_MONOS; i++) {
        const kc_mono *a = &x->mono[i];
        if (gone[i] || a->nfac != 1 || a->fac[0].kind != KC_ATOM_DATA)
            continue;
        for (unsigned j = i + 1; j < x->nmono && j < KC_INDEX_MAX_MONOS; j++) {
            const kc_mono *b = &x->mono[j];
            if (!gone[j] && b->nfac == 1 && b->fac[0].kind == KC_ATOM_DATA && b->coef == -a->coef &&
                same_load(k, a->fac[0].id, b->fac[0].id, L)) {
                gone[i] = gone[j] = true;
                break;
            }
        }
    }
    const kc_index *out = kc_index_const(ar, 0, x->bits, x->space);
    for (unsigned i = 0; out && i < x->nmono; i++) {
        kc_index part = {.mono = &x->mono[i], .nmono = 1, .bits = x->bits, .space = x->space};
        if (i >= KC_INDEX_MAX_MONOS || !gone[i])
            out = kc_index_add(ar, out, &part);
    }
    return out;
}

/* A break's comparison written as X >= 0 (`>`, `<`, `<=` brought to that
 * form; *strict for `>`, `<`), with loop L's variable or pass split off:
 * *coef its coefficient, *rest the other terms. False when the comparison
 * is not an ordering or L's atom appears in a product. */
static bool split_exit(kc_arena *ar, const kc_pred *pr, uint32_t L, int64_t *coef, const kc_index **rest,
                       bool *strict)
{
    if (!pr->lhs || !pr->rhs ||
        (pr->op != KC_CMP_GE && pr->op != KC_CMP_GT && pr->op != KC_CMP_LE && pr->op != KC_CMP_LT))
        return false;
    bool up = pr->op == KC_CMP_GE || pr->op == KC_CMP_GT;
    *strict = pr->op == KC_CMP_GT || pr->op == KC_CMP_LT;
    const kc_index *X = up ? kc_index_sub(ar, pr->lhs, pr->rhs) : kc_index_sub(ar, pr->rhs, pr->lhs);
    if (!X)
        return false;
    *coef = 0;
    *rest = kc_index_const(ar, 0, X->bits, X->space);
    for (unsigned i = 0; *rest && i < X->nmono; i++) {
        const kc_mono *mo = &X->mono[i];
        bool var = false;
        for (unsigned f = 0; f < mo->nfac; f++)
            var |= mo->fac[f].kind == KC_ATOM_LOOP && mo->fac[f].id == L;
        if (var && mo->nfac != 1)
            return false;
        if (var) {
            *coef += mo->coef;
            continue;
        }
        kc_index part = {.mono = mo, .nmono = 1, .bits = X->bits, .space = X->space};
        *rest = kc_index_add(ar, *rest, &part);
    }
    return *rest != NULL;
}

/* The most a thread-dependent term can be: c * threadIdx (c > 0) or c *
 * (threadIdx / W) (a warp's index) under the launches' block; -1 unknown. */
static int64_t term_most(const kc_model *m, const kc_kernel *k, const kc_mono *mo)
{
    if (mo->nfac != 1 || mo->coef <= 0)
        return -1;
    const kc_atom *a = &mo->fac[0];
    if (a->kind == KC_ATOM_LANE && a->id < 3) {
        int64_t bd = kc_launch_block_dim(m, k, a->id);
        return bd > 0 && bd <= 4096 ? mo->coef * (bd - 1) : -1;
    }
    const kc_opaque *o = a->kind == KC_ATOM_OPAQUE && a->id < k->opaques.len ? &k->opaques.data[a->id] : NULL;
    if (!o || !o->split || o->split_axis > 2 || o->split_div <= 0)
        return -1;
    int64_t bd = kc_launch_block_dim(m, k, o->split_axis);
    if (bd <= 0 || bd > 4096)
        return -1;
    int64_t v = o->split == KC_SPLIT_GROUP ? (bd - 1) / o->split_div
                                           : (bd < o->split_div ? bd : o->split_div) - 1;
    return mo->coef * v;
}

/* A break no thread takes: in a loop over chunks by a constant step S from
 * a start the same for all (`for (round = 0; round < TOTAL; round += 4)`),
 * a break under `round + warp_id >= TOTAL` (Primus-Turbo's MXFP quantizers)
 * is never taken when the last pass's round plus the largest warp index
 * stays below TOTAL: TOTAL - round is S in the last pass when S divides
 * TOTAL - start, and the warp index stays below S under the launches'
 * block, or by the loop's own presumption (each warp takes the chunk its
 * index adds; a step of S covers each chunk once only for indices below
 * S). */
static bool break_never_taken(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_cond *c,
                              const kc_loop *l, uint32_t L, int64_t S, const kc_index *U)
{
    int64_t u;
    if (!kc_index_is_const(U, &u) || u <= 0 || l->trip_count <= 0)
        return false;
    int64_t span = u - S * (l->trip_count - 1); /* end - the last pass's value */
    for (uint32_t p = 0; p < c->npreds; p++) {
        /* X = v + D - end, v the loop's variable with coefficient 1 */
        int64_t vc;
        const kc_index *rest;
        bool strict;
        if (!split_exit(ar, &c->preds[p], L, &vc, &rest, &strict))
            continue;
        const kc_index *D = vc == 1 ? cancel_same_loads(ar, k, kc_index_add(ar, rest, l->end), L) : NULL;
        if (!D)
            continue;
        int64_t most = 0;
        unsigned thread_terms = 0;
        bool ok = true, presumed = false;
        for (unsigned i = 0; ok && i < D->nmono; i++) {
            const kc_mono *mo = &D->mono[i];
            if (mo->nfac == 0) {
                most += mo->coef;
                continue;
            }
            kc_index part = {.mono = mo, .nmono = 1, .bits = D->bits, .space = D->space};
            kc_deps d = kc_index_deps(&part);
            if (!(d.axes || (d.flags & KC_AF_THREAD)) || (d.flags & KC_AF_DATA)) {
                ok = false;
                break;
            }
            thread_terms++;
            int64_t t = term_most(m, k, mo);
            if (t >= 0)
                most += t;
            else if (mo->coef == 1 && mo->nfac == 1)
                presumed = true;
            else
                ok = false;
        }
        if (!ok || !thread_terms || (presumed && thread_terms != 1))
            continue;
        if (presumed)
            most += S - 1;
        /* taken where v + D >= end (strict: > end); never while D < end - v */
        if (strict ? most <= span : most < span)
            return true;
    }
    return false;
}

/* A break that only the last pass can take: in a loop from the thread's
 * index by a constant step S whose passes are the same in every thread
 * (`for (t = tx; t < n + tx; t += 64)`: 64 * pass < n), a break under `t >=
 * n` (gpu4pyscf's task loops) is taken only where t - n >= 0, and then the
 * next pass's `t + 64 < n + tx` fails in every thread as long as tx < 64.
 * A barrier of the loop before the break is then reached by all: no later
 * pass runs. The threads' spread is the launches' block, else the one the
 * loop itself presumes (a step of S visits every value once only from
 * starts below S). */
static bool break_in_last_pass(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_barrier *b)
{
    if (b->exit_cond >= k->conds.len || !kc_span_valid(b->divergent_exit))
        return false;
    const kc_cond *c = &k->conds.data[b->exit_cond];
    uint32_t L = c->loop;
    if (L == KC_NONE || L >= k->loops.len || b->loop == KC_NONE || !kc_loop_within(k, b->loop, L))
        return false;
    bool before = b->span.line < b->divergent_exit.line ||
                  (b->span.line == b->divergent_exit.line && b->span.col < b->divergent_exit.col);
    const kc_loop *l = &k->loops.data[L];
    int64_t S;
    if (!l->start || !l->end || !l->step || !kc_index_is_const(l->step, &S) || S <= 0)
        return false;
    const kc_index *U = kc_index_sub(ar, l->end, l->start);
    kc_deps du = U ? kc_index_deps(U) : (kc_deps){.axes = 7};
    if (!U || du.axes || (du.flags & KC_AF_THREAD))
        return false;
    kc_deps ds = kc_index_deps(l->start);
    if (!(ds.axes || (ds.flags & KC_AF_THREAD)))
        return break_never_taken(ar, m, k, c, l, L, S, U);
    if (!before)
        return false;
    for (uint32_t p = 0; p < c->npreds; p++) {
        /* X = start + S * pass - end + D: its pass term is S * pass */
        int64_t pc;
        const kc_index *rest;
        bool strict;
        if (!split_exit(ar, &c->preds[p], L, &pc, &rest, &strict))
            continue;
        const kc_index *D = pc == S ? kc_index_add(ar, kc_index_sub(ar, rest, l->start), l->end) : NULL;
        D = D ? cancel_same_loads(ar, k, D, L) : NULL;
        if (!D)
            continue;
        /* the most D can be: threadIdx terms with positive coefficients and
         * a constant */
        bool presumed = kc_index_equal(D, l->start);
        int64_t most = 0;
        bool ok = true;
        for (unsigned i = 0; ok && i < D->nmono; i++) {
            const kc_mono *mo = &D->mono[i];
            if (mo->nfac == 0) {
                most += mo->coef;
                continue;
            }
            int64_t bd = mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->fac[0].id < 3 && mo->coef > 0
                             ? kc_launch_block_dim(m, k, mo->fac[0].id)
                             : -1;
            if (bd > 0 && bd <= 4096)
                most += mo->coef * (bd - 1);
            else if (mo->nfac == 1 && mo->fac[0].kind == KC_ATOM_LANE && mo->coef > 0 && presumed)
                continue; /* bounded below by the presumption */
            else
                ok = false;
        }
        if (ok && presumed && most < S)
            most = S - 1; /* the loop's own presumption: starts below S */
        if (ok && most <= S)
            return true;
    }
    return false;
}

static bool divergent(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_barrier *b)
{
    bool cleared = b->exit_cond < k->conds.len && (pinned(k, &k->conds.data[b->exit_cond]) ||
                                                   fixed_by_launch(k->conds.data[b->exit_cond].deps,
                                                                   kc_launch_unit_axes(m, k)) ||
                                                   block_spans_bound(m, k, &k->conds.data[b->exit_cond]) ||
                                                   launches_decide(m, k, &k->conds.data[b->exit_cond], true) ||
                                                   kc_cond_block_sign(&k->conds.data[b->exit_cond]) ||
                                                   break_in_last_pass(ar, m, k, b));
    bool exit = kc_span_valid(b->divergent_exit) && !cleared;
    uint32_t ci = divergent_cond(m, k, b->guard);
    /* the code after `if (c) break;` runs under not-c: where the break is
     * one no thread takes, neither is that condition a divergence */
    unsigned hops = 0;
    while (ci != KC_NONE && cleared && hops++ < 10000 &&
           kc_span_same(k->conds.data[ci].span, k->conds.data[b->exit_cond].span) &&
           k->conds.data[ci].negated != k->conds.data[b->exit_cond].negated)
        ci = divergent_cond(m, k, k->conds.data[ci].parent);
    return block_wide(b->name) && (ci != KC_NONE || exit);
}

/* A barrier reached through an inlined device function that is already
 * divergent inside that function's own model (reported there). */
static bool reported_in_callee(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_barrier *b)
{
    if (kc_span_same(b->origin, b->span))
        return false;
    for (uint32_t i = 0; i < m->kernels.len; i++) {
        const kc_kernel *d = m->kernels.data[i];
        if (d == k || !d->is_device_function || !kc_span_inside(b->origin, d->span))
            continue;
        for (uint32_t j = 0; j < d->barriers.len; j++)
            if (kc_span_same(d->barriers.data[j].span, b->origin) && divergent(ar, m, d, &d->barriers.data[j]))
                return true;
    }
    return false;
}

/* What a condition depends on, for messages. */
static const char *thread_source(kc_deps d)
{
    static const char *const axes[] = {"", "threadIdx.x", "threadIdx.y", "threadIdx.x and threadIdx.y",
                                       "threadIdx.z", "threadIdx.x and threadIdx.z",
                                       "threadIdx.y and threadIdx.z", "threadIdx"};
    if ((d.axes & 7) && (d.flags & KC_AF_DATA))
        return "a value loaded at a thread-dependent address";
    if (d.axes & 7)
        return axes[d.axes & 7];
    return "the thread's index";
}

/* Does a launch of k in the file round its grid up (`(n + 255) / 256`,
 * `cdiv`): a last block that straddles the size it covers? */
static bool launch_rounds_up(const kc_model *m, const kc_kernel *k)
{
    for (uint32_t i = 0; i < m->launches.len; i++) {
        const kc_launch *L = &m->launches.data[i];
        if (L->kernel && k->name && !strcmp(L->kernel, k->name) && L->grid_text && kc_text_rounds_up(L->grid_text))
            return true;
    }
    return false;
}

/* A barrier in a grid-stride loop: divergent unless the bound is a
 * multiple of blockDim.x, which the launches of the file do not show. */
static kc_diag *grid_stride_report(kc_rule_ctx *ctx, const kc_model *m, const kc_kernel *k, const kc_barrier *b,
                                   const kc_cond *c, const kc_loop *l, const char *via)
{
    kc_arena *ar = kc_rule_arena(ctx);
    const kc_param *p = bound_param(k, l->end);
    const char *bound = p ? p->name : (l->end_text ? l->end_text : c->text);
    const char *why = NULL;
    const kc_launch *capped = NULL;
    bool kept = p && launches_keep_multiple(m, k, p, ar, &why, &capped);
    if (!p)
        why = "the bound is not a kernel parameter whose launches kcheck can read";
    bool grid = false;
    for (unsigned i = 0; i < l->step->nmono; i++)
        for (unsigned f = 0; f < l->step->mono[i].nfac; f++)
            grid |= l->step->mono[i].fac[f].kind == KC_ATOM_GRID_DIM;
    kc_diag *d = kc_report(ctx, k, b->span,
                           "`%s()`%s is in a %s-stride loop (`%s`) whose number of passes differs between the "
                           "threads of a block unless `%s` is a multiple of blockDim.x",
                           b->name, via, grid ? "grid" : "block", c->text, bound);
    if (kept && capped) {
        /* every launch keeps the bound a multiple of the block but where
         * the block is capped: the assumption is that narrow case */
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "%s: its threads then make one pass more than the others (%s)", why,
                     kc_loop_describe(ctx, k, l));
        kc_diag_note(d, "reported as a note: the launches keep `%s` a multiple of the block size but in that case",
                     bound);
    } else {
        kc_diag_note(d, "this assumes `%s` may not be a multiple of the block size: %s; the block whose indices "
                     "straddle `%s` then has threads that make one pass more than the others (%s)",
                     bound, why, bound, kc_loop_describe(ctx, k, l));
        if (!launch_rounds_up(m, k)) { /* only a rounded-up grid shows a straddling block */
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "reported as a note: no launch of `%s` in this file rounds its grid up, so nothing here "
                         "shows a block that straddles `%s` (kernels whose sizes are powers of two launch whole "
                         "blocks)",
                         k->name, bound);
        }
    }
    kc_diag_note(d, "fix: loop over whole blocks of indices (`for (base = blockIdx.x * blockDim.x; base < %s; base "
                 "+= blockDim.x * gridDim.x)`, testing `base + threadIdx.x < %s` inside), or launch with `%s` a "
                 "multiple of the block size",
                 bound, bound, bound);
    return d;
}

/* A report about a condition on a bound every launch asserts to be a
 * multiple of something: a note, with the assumption it rests on. */
static void asserted_note(const kc_model *m, const kc_kernel *k, const kc_cond *c, kc_diag *d)
{
    const kc_launch *L = NULL;
    const kc_param *p = NULL;
    const kc_launch_arg *a = asserted_bound(m, k, c, &L, &p);
    if (!a)
        return;
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "the launch on line %u passes `%s` for `%s`, which the launching code asserts to be a multiple of "
                 "`%s` (line %u): if that is a multiple of what one block covers, no block straddles `%s`, every "
                 "thread of a block takes the same branch, and this is not a divergence; kcheck does not evaluate "
                 "that, so this is a note",
                 L->span.line, a->text, p->name, a->multiple_of, a->multiple_line, p->name);
}

/* A template kernel whose instantiations the file's launches make
 * (`k<128>`, lowered with the arguments' values) is judged by them: a
 * barrier of the template is divergent only where one of them finds it
 * so. False when there is no instantiation. */
static bool cleared_by_instantiations(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_barrier *b)
{
    if (k->ntargs)
        return false;
    bool any = false;
    for (uint32_t i = 0; i < m->kernels.len; i++) {
        const kc_kernel *d = m->kernels.data[i];
        if (d == k || !d->ntargs || strcmp(d->name, k->name) != 0 || d->span.end_line != k->span.end_line)
            continue;
        any = true;
        for (uint32_t j = 0; j < d->barriers.len; j++)
            if (kc_span_same(d->barriers.data[j].span, b->span) && divergent(ar, m, d, &d->barriers.data[j]))
                return false;
    }
    return any;
}

/* Where the barriers just listed are called from (call_line): the call of
 * the reported barrier, or another. */
static const char *call_where(kc_arena *ar, const kc_barrier *b, unsigned call_line)
{
    return call_line == b->span.line && !kc_span_same(b->origin, b->span)
               ? "in the same call"
               : kc_arena_printf(ar, "in the function called on line %u", call_line);
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    bool *done = calloc(k->barriers.len ? k->barriers.len : 1, sizeof *done);
    for (uint32_t i = 0; i < k->barriers.len; i++) {
        const kc_barrier *b = &k->barriers.data[i];
        if (done[i] || !divergent(ar, m, k, b) || reported_in_callee(ar, m, k, b) || cleared_by_instantiations(ar, m, k, b))
            continue;
        uint32_t ci = divergent_cond(m, k, b->guard);
        /* Barriers with the same cause: reported once, here. */
        unsigned more = 0, call_line = 0, same_line = 0, same_n = 0;
        kc_strbuf lines = {0};
        for (uint32_t j = i + 1; j < k->barriers.len; j++) {
            const kc_barrier *o = &k->barriers.data[j];
            if (done[j] || !divergent(ar, m, k, o))
                continue;
            uint32_t cj = divergent_cond(m, k, o->guard);
            bool same = ci != KC_NONE ? cj == ci
                                      : cj == KC_NONE && kc_span_same(o->divergent_exit, b->divergent_exit);
            if (!same)
                continue;
            done[j] = true;
            /* a barrier inside a called function: where it is written,
             * then the call (once for the barriers of one call) */
            if (more++ >= 6)
                continue;
            bool in_call = !kc_span_same(o->origin, o->span) && kc_span_valid(o->origin);
            /* barriers of a function written in another file: its call's
             * line once, with how many */
            if (!in_call && o->span.line == same_line) {
                same_n++;
                continue;
            }
            if (same_n > 1)
                kc_sb_appendf(&lines, " (%u barriers of the function called there)", same_n);
            same_line = in_call ? 0 : o->span.line;
            same_n = 1;
            if (call_line && (!in_call || o->span.line != call_line))
                kc_sb_appendf(&lines, " %s", call_where(ar, b, call_line));
            call_line = in_call ? o->span.line : 0;
            kc_sb_appendf(&lines, "%s%u", lines.len ? ", " : "", in_call ? o->origin.line : o->span.line);
        }
        if (same_n > 1)
            kc_sb_appendf(&lines, " (%u barriers of the function called there)", same_n);
        if (call_line && more <= 6)
            kc_sb_appendf(&lines, " %s", call_where(ar, b, call_line));
        const char *bname = b->name;
        bool inlined = !kc_span_same(b->origin, b->span);
        const char *via = inlined ? kc_arena_printf(ar, " (inside the function called here, line %u)", b->origin.line)
                                  : "";
        kc_diag *d;
        /* `if (i >= n) return;` makes the rest of the block run under the
         * negated condition: say it as the exit it is. */
        if (ci != KC_NONE && kc_span_valid(b->divergent_exit) && b->exit_cond < k->conds.len) {
            const kc_cond *c = &k->conds.data[ci];
            if (c->negated && kc_span_same(c->span, k->conds.data[b->exit_cond].span))
                ci = KC_NONE;
        }
        /* the condition the report is about, when no loop makes it */
        const kc_cond *judged = ci != KC_NONE ? &k->conds.data[ci]
                                : b->exit_cond < k->conds.len ? &k->conds.data[b->exit_cond]
                                                               : NULL;
        if (judged && loop_of_cond(k, judged))
            judged = NULL;
        if (ci != KC_NONE) {
            const kc_cond *c = &k->conds.data[ci];
            const kc_loop *l = loop_of_cond(k, c);
            if (l && grid_stride_bound(k, c, l)) {
                d = grid_stride_report(ctx, m, k, b, c, l, via);
            } else if (l) {
                /* (a condition written in another file, inlined here, may have no text) */
                const char *ct = c->text && c->text[0]
                                     ? kc_arena_printf(kc_rule_arena(ctx), " `%s`", c->text)
                                     : "";
                d = kc_report(ctx, k, b->span,
                              "`%s()`%s is in a loop whose number of passes differs between threads: its condition"
                              "%s depends on %s",
                              bname, via, ct, thread_source(c->deps));
                kc_diag_note(d, "threads that finish the loop early stop arriving at the barrier while the others "
                             "still wait at it (%s)",
                             kc_loop_describe(ctx, k, l));
                kc_diag_note(d, "fix: loop over the same number of passes in every thread (a uniform bound, e.g. "
                             "over tiles of blockDim.x) and test the element index inside the loop");
                const char *miss = l->kind == KC_LOOP_FOR && (!l->step || !l->end) ? missing_name(m, k, l) : NULL;
                if (miss) {
                    /* a step or bound kcheck could not read (a name from a
                     * missing header: `k += kWarpSize`): whether the passes
                     * differ rests on what it is */
                    d->severity = KC_SEV_NOTE;
                    kc_diag_note(d, "kcheck could not read the loop's %s: `%s` comes from what is missing (KC002): if "
                                 "the step is the block's width and the bound a multiple of it, every thread makes "
                                 "the same passes; reported as a note",
                                 !l->step && !l->end ? "step and bound" : !l->step ? "step" : "bound", miss);
                }
            } else {
                d = kc_report(ctx, k, b->span,
                              "`%s()`%s is reached only by the threads where `%s` %s: the condition depends on %s",
                              bname, via, c->text, c->negated ? "is false" : "holds", thread_source(c->deps));
                kc_diag_note(d, "the condition is on line %u; the other threads of the block never arrive at this "
                             "barrier",
                             c->span.line);
                kc_diag_note(d, "fix: move the barrier out of the conditional code so that every thread of the "
                             "block reaches it, and keep only the work under `%s`",
                             c->text);
            }
        } else {
            const char *exit_text = kc_rule_span_text(ctx, b->divergent_exit);
            size_t n = strlen(exit_text);
            if (n > 40)
                exit_text = kc_arena_printf(ar, "%.37s...", exit_text);
            /* the thread-dependent condition that leads to the exit */
            const kc_cond *ec = b->exit_cond < k->conds.len ? &k->conds.data[b->exit_cond] : NULL;
            if (ec)
                d = kc_report(ctx, k, b->span,
                              "`%s()`%s comes after `%s` (line %u), which the threads where `%s` %s take: they "
                              "never reach this barrier",
                              bname, via, exit_text, b->divergent_exit.line, ec->text, ec->negated ? "is false" : "holds");
            else
                d = kc_report(ctx, k, b->span,
                              "`%s()`%s comes after `%s` (line %u), which only some threads take: they never reach "
                              "this barrier",
                              bname, via, exit_text, b->divergent_exit.line);
            kc_diag_note(d, "the exit on line %u is under a condition that depends on %s", b->divergent_exit.line,
                         ec ? thread_source(ec->deps) : "the thread");
            kc_diag_note(d, "fix: keep every thread alive up to the last barrier: replace the early exit by a guard "
                         "around the work (or an `active` flag that masks it)");
        }
        if (more)
            kc_diag_note(d, "the same holds for %u more barrier%s (line%s %s%s)", more, more == 1 ? "" : "s",
                         more == 1 ? "" : "s", kc_sb_str(&lines), more > 6 ? ", ..." : "");
        asserted_note(m, k, judged, d);
        if (ci != KC_NONE)
            kc_diag_note(d, "a block-wide barrier must be reached by every thread of the block: otherwise it is "
                         "undefined behaviour, and warps wait at different barriers (measured on an H200: a "
                         "barrier inside a branch that part of a warp takes hangs the block; AMD GPUs deadlock "
                         "too)");
        else
            kc_diag_note(d, "a block-wide barrier must be reached by every thread of the block: a thread that "
                         "has exited is undefined behaviour by the CUDA programming guide and deadlocks on AMD "
                         "GPUs (HIP); on an H200 the others went on, and compute-sanitizer's synccheck reported "
                         "nothing, so the GPU will not tell you");
        kc_sb_free(&lines);
    }
    free(done);
}

const kc_rule kc401_barrier_divergence = {
    .id = "KC401",
    .slug = "barrier-divergence",
    .summary = "Block-wide barrier that only some threads reach (under a thread-dependent condition or after a "
               "thread-dependent exit).",
    .severity = KC_SEV_ERROR,
    .langs = KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_RACE,
};
