/* KC101 uncoalesced-access: a global access whose neighbouring lanes are
 * far apart in memory. */
#include "rule_record.h"
#include "rule_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a global-memory load or store whose address, across the lanes that\n"
    "run together, moves by a large stride: CUDA threads that differ in\n"
    "`threadIdx.x`; in Triton, every axis of the block (the compiler lays a block\n"
    "out along its most contiguous axis, so a block is scattered only when no axis\n"
    "is contiguous). The stride is inferred symbolically. A constant stride is reported\n"
    "from `KC101.min-constant-stride` elements on; in CUDA code only when lanes\n"
    "are at least 16 bytes apart, a warp's request touches that many times the\n"
    "32-byte sectors a contiguous one would (for the element size and the\n"
    "launch's `blockDim.x`; in a block narrower than a warp, with a constant\n"
    "threadIdx.y stride, the sectors of the warp's own 32 lanes: `dim3(4, 8)`\n"
    "with threadIdx.y the stride-1 index is 4 sectors, not reported; the same\n"
    "bar holds for a large symbolic stride under such a block: 9 x 9 blocks\n"
    "with threadIdx.y the stride-1 index touch 9 sectors where 8 would do, not\n"
    "reported), and the\n"
    "thread does not go on to move the rest of\n"
    "its small record itself (`p[0] .. p[3]`, a loop over them, or the first\n"
    "field read before a loop over the others: the caches\n"
    "merge such requests; measured on an H200, 1.00x the vector form, where one\n"
    "float of each 16-byte record costs 2.0x). That holds for records of at\n"
    "most 56 bytes of which the thread reads at least five fields in six (8 of\n"
    "9 floats: 1.11x the fields stored apart; 6 of 9: 1.43x; a whole 64-byte\n"
    "record: 2.0x, reported), and for records it writes of at most 16 bytes:\n"
    "a warp's stores merge far less (measured on an H100,\n"
    "`bench/premise/kc101_record_walk.cu`: a thread writing its 4 floats\n"
    "1.06x the same values stored transposed, its 7 floats 4.4x, its 14\n"
    "9.0x; reading them 1.0x; a byte record read in a loop of `min(len - off,\n"
    "W)` passes, a Myers aligner's query words, costs 0.87x, 0.88x, 1.51x and\n"
    "0.91x the transposed layout for W = 8, 16, 32 and 56 bytes, 3.19x for 64\n"
    "and 6.60x for 128; and 9 x 9 or 8 x 8 blocks storing with threadIdx.y the\n"
    "unit stride 1.00x, `bench/premise/kc101_byte_words_narrow_blocks.cu`, an\n"
    "H100); the thread's accesses of one record (a Triton lane's: `p + row`,\n"
    "`p + row + 1`, ... with a row stride) are one finding, whose note counts\n"
    "the others. Where the thread reads F of its\n"
    "record's S fields, the requests together cost about S/F: under\n"
    "`KC101.min-constant-stride` that is a note (5 of the 7 fields of a 28-byte\n"
    "box: 1.4x). A symbolic stride only when\n"
    "the symbol is known to be large: a problem size (it bounds a mask, a guard\n"
    "or a loop, or the launch passes `x.shape[i]`) or an outer stride (the\n"
    "launch passes `x.stride(0)`). In CUDA, a length that is compared only\n"
    "as the bound of loops over 0 or 1 to it (`for (c = 0; c < C; c++)`),\n"
    "none of which reads with its variable a vector that all threads share\n"
    "(`w[c]`, a row contracted with weights, which makes it a feature\n"
    "dimension), says how long a record is, not that it is long: a stride of\n"
    "such a length is a note that states what each case costs (a thread\n"
    "reading its record: nothing up to 56 bytes, 1.4x at 64, 2.7x at 128;\n"
    "writing it: nothing up to 16 bytes, 4.4x at 28, 9.4x at 64; measured on\n"
    "an H100), unless the launches of the file pass it: a local of the\n"
    "launching function initialized with a constant (`int cols = 64;`)\n"
    "counts. An innermost stride argument\n"
    "(`x.stride(-1)`) is presumed to be 1. In Triton, a vector (a block of one\n"
    "axis: a statistic per row or per head, such as a log-sum-exp) read or\n"
    "written once per program, outside every loop (or once per pass of a\n"
    "persistent loop, `for tile in range(pid, num_tiles, NUM_SMS)`, each of\n"
    "whose passes is one program's work), in a kernel whose loops move tiles is\n"
    "a note: its scattered sectors are paid once, where each pass of the loop\n"
    "pays for a tile. So is an access made only in the programs that a\n"
    "condition on their ids picks (`if (blockIdx.x == 0)`: padding rows filled\n"
    "once per launch by block 0) in a kernel whose other accesses every program\n"
    "makes: one block of the grid pays for it. So, in CUDA, is an access made once per thread,\n"
    "outside every loop, in a kernel whose loops access global memory in every\n"
    "pass (a row's result stored after the loop over the row; a texture read,\n"
    "`tex3D<float>(obj, x, y, z)`, counts: it reads global memory through the\n"
    "texture path), unless those\n"
    "loops are known to make fewer than 64 passes. Once per thread counts an\n"
    "access the kernel returns right after (`keep[i] = 0; return;` in a search:\n"
    "each thread makes it at most once, in whatever pass reaches it), and a\n"
    "load whose address no loop around it moves, in loops that store nothing\n"
    "to global memory (nvcc -O3 loads it once, before them: one `ld.global`\n"
    "ahead of the loop in the PTX), and a loop that walks the thread's own row\n"
    "once, one element a pass over the row's length, inside no other loop\n"
    "and moving nothing but such rows, after a search (a loop made before it\n"
    "whose passes are not a row's length: a row of `nsample` results copied\n"
    "out after the search over a cloud's points; measured on an H100, a row\n"
    "of 32 floats so copied out costs 1.13x the same values stored\n"
    "transposed after a search of 4096\n"
    "passes, 1.48x after 1024 and 2.58x after 256, so after a search known to\n"
    "make fewer than 1024 passes it stays a warning;\n"
    "`bench/premise/kc101_row_copy_out.cu`). In Triton, a vector moved once per\n"
    "program by a kernel without such a loop, or in each pass of a loop, is a\n"
    "note too where the blocks of rank 2 the program moves beside it (outside\n"
    "every loop, or in the same pass) take at least 8 times its sectors (one a\n"
    "lane), at the smallest extents the launches and configs give; a block of\n"
    "an extent not known is not counted, and where the known ones fall short\n"
    "it stays a warning. So is a Triton access whose lanes are\n"
    "`x.stride(i)` apart where each lane also reads the elements beside it\n"
    "along `x.stride(i + 1)`, the tensor's innermost stride (`w0 .. w3` of a\n"
    "convolution's (dim, 4) weights): for a contiguous tensor the lanes are a\n"
    "row apart, and where a row is the elements read the accesses move whole\n"
    "rows (measured on an H100, `bench/premise/kc101_row_fields.py`: 1.00x the\n"
    "fields stored apart; 4 of 16 fields 3.45x); the note says kcheck cannot\n"
    "tell the row's length, and the run is one finding. Not reported: a load\n"
    "in `tl.static_range(S)` over the lane stride S itself, one element a pass\n"
    "(each lane reads all of its row: the block reads one span), or in a runtime\n"
    "`range(S)` where S is a record of at most 56 bytes (stores: 16) by the values\n"
    "the launches pass, or a constexpr no launch takes from a tensor's shape and\n"
    "nothing compares with the lanes (a top-k count), the record walk the CUDA\n"
    "measurements below exempt; measured in Triton on an H100\n"
    "(`bench/premise/kc101_triton_range_walk.py`, 2^22 int32 records, rows\n"
    "against the same values transposed): 0.97x at 16 B, 1.01x at 32 and 56 B,\n"
    "1.32x at 64 B, 2.71x at 128 B. Nor is an access of a type kcheck cannot\n"
    "size (a vector type a template picks) whose lanes are four elements apart:\n"
    "it may be one 16-byte vector per lane (nor, in Triton, a record a lane\n"
    "moves whole field by field: `p + 4 * i + 0` to `+ 3`); nor one of elements kcheck cannot\n"
    "size cast to a vector it can (`*reinterpret_cast<const int4 *>(&x[8 *\n"
    "tid])`) when the lanes' step in elements makes that vector of elements of\n"
    "1, 2, 4 or 8 bytes (here 2): the lanes then move adjacent vectors.\n"
    "Measured on an H200\n"
    "(`bench/premise/kc101_once_per_thread.cu`, 2^20 rows, one thread each):\n"
    "a store 32 floats apart made once after the loop cost 2.40x after 16\n"
    "passes, 1.37x after 64 and 1.14x after 256, where the same stride inside\n"
    "the loop cost 1.82x, 4.01x and 4.24x.\n"
    "The warnings of one kernel about one array at one stride (a thread's\n"
    "histogram in global memory, updated, built and searched on 28 lines) are\n"
    "one defect with one cause, the layout: reported once, at the access inside\n"
    "the most loops whose passes grow with the input (then the most loops), with\n"
    "the other lines named in a note.\n"
    "\n"
    "## Why is this bad?\n"
    "A warp's memory request is served in 32-byte sectors. When the 32 lanes\n"
    "read consecutive 4-byte elements they share 4 sectors; when they are N\n"
    "elements apart every lane needs its own sector, so the kernel moves up to\n"
    "8x the bytes it uses and is bound by memory transactions. Measured on an\n"
    "H200: a row-per-thread mat-vec (16384x4096 fp32) took 0.59 ms against\n"
    "0.067 ms for a warp-per-row version (8.8x).\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "for (int k = 0; k < K; ++k)\n"
    "    acc += A[row * K + k] * x[k];   // lanes are K elements apart\n"
    "```\n"
    "```python\n"
    "rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)\n"
    "v = tl.load(x_ptr + rows * N + col)   # stride N along the block\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "// one warp per row: lanes read consecutive elements\n"
    "for (int k = lane; k < K; k += 32)\n"
    "    acc += A[row * K + k] * x[k];\n"
    "```\n"
    "```python\n"
    "cols = tl.arange(0, BLOCK_N)          # contiguous axis runs along memory\n"
    "v = tl.load(x_ptr + row * N + cols)\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Map the lanes that run together (threadIdx.x; the last block axis) to the\n"
    "index with stride 1: swap the roles of the thread and loop indices,\n"
    "process a row per warp or per program, stage a tile through shared memory,\n"
    "or change the data layout. A value that is read once per row (a gather such\n"
    "as a target logit) is fine outside loops; inside one see KC102.\n"
    "\n"
    "## References\n"
    "- CUDA C++ Best Practices Guide, \"Coalesced Access to Global Memory\".\n"
    "- GPUDrano: detecting uncoalesced accesses in GPU programs (CAV 2017).\n"
    "- karpathy/llm.c `dev/cuda/layernorm_forward.cu`, kernel 1 (row per thread).\n";

static const kc_rule_option_doc options[] = {
    {"min-constant-stride", "4",
     "smallest constant stride (in elements) reported; in CUDA code also the smallest factor of extra 32-byte "
     "sectors"},
    {NULL, NULL, NULL},
};

/* How one axis of an access moves: its stride and whether it is large. */
typedef struct axis_stride {
    const kc_index *stride; /* NULL: no lane varies along the axis */
    bool large;             /* known to be at least min-constant-stride elements apart */
    uint32_t big_symbol;    /* the symbol that makes it large, or KC_NONE */
    const kc_atom *gather;
    bool unknown;           /* lanes vary along the axis in a way we cannot express */
} axis_stride;

static axis_stride classify(kc_arena *ar, const kc_kernel *k, const kc_index *off, unsigned axis, int64_t min_const)
{
    axis_stride r = {.big_symbol = KC_NONE};
    kc_stride st;
    kc_index_stride_along(ar, off, axis, &st);
    r.stride = st.stride;
    r.gather = st.gather;
    /* Lanes inside an opaque term (rn % N, a value merged from branches) or
     * only through loaded data: the stride is unknown, so presume it is fine.
     * In CUDA code also when the thread index appears both in the affine
     * part and inside an opaque term: `((pos - lo) << 2) + lo` with
     * `lo = pos & (stride - 1)` is 4 apart in its affine part and
     * contiguous across a warp once stride >= 32. */
    if ((!st.stride || off->space == KC_SPACE_THREADS) && (st.nonaffine || (!st.stride && st.gather))) {
        r.unknown = true;
        return r;
    }
    if (!st.stride)
        return r;
    int64_t c;
    if (kc_index_is_const(st.stride, &c))
        r.large = c >= min_const || c <= -min_const;
    else
        r.large = (r.big_symbol = kc_index_large_symbol(k, st.stride)) != KC_NONE;
    return r;
}

/* One uncoalesced access as the notes describe it. */
typedef struct scatter {
    const kc_access *a;
    bool cuda;               /* lanes are threadIdx.x; else a Triton block */
    const axis_stride *rs;   /* the axis reported */
    const char *stride;      /* its stride, as text */
    unsigned eb;             /* element bytes (4 when unknown) */
    bool const_stride;
    int64_t cst;             /* the stride when constant */
    uint64_t sectors, ideal; /* CUDA, constant stride: 32-byte sectors per warp request, and contiguous */
    int64_t bx;              /* the launches' blockDim.x, or -1 */
    int64_t ystride;         /* CUDA, blockDim.x < 32: threadIdx.y's constant stride (0: none), or INT64_MIN */
    uint64_t nelems;         /* Triton: the block's elements where every extent is known, else 0 */
    uint32_t walk;           /* CUDA: the loop that walks the thread's own row (row_walk), or KC_NONE */
    kc_arena *ar;            /* for the notes' text */
} scatter;

/* The elements of a block whose extents are all known, at most 64 (more
 * than a warp has lanes is all that matters), else 0. */
static uint64_t block_elems(const kc_shape *sh)
{
    uint64_t n = 1;
    for (unsigned x = 0; x < sh->rank && x < KC_MAX_RANK; x++) {
        if (sh->dims[x].value <= 0)
            return 0;
        n *= (uint64_t)sh->dims[x].value;
        if (n > 64)
            n = 64;
    }
    return n;
}

/* A warp of rows of bx < 32 threads, threadIdx.x striding far apart and
 * threadIdx.y moving the address ystride elements (INT64_MIN: unknown,
 * each row's lanes then in sectors of their own): the 32-byte sectors of
 * one request, and how many would do. */
static void narrow_cost(int64_t bx, int64_t ystride, unsigned eb, uint64_t *sectors, uint64_t *ideal)
{
    uint64_t lanes = (uint64_t)bx, rows = (32 + lanes - 1) / lanes, per_col = rows;
    if (ystride != INT64_MIN) {
        uint64_t step = (uint64_t)(ystride < 0 ? -ystride : ystride) * eb;
        uint64_t span = step * (rows - 1) + eb;
        per_col = (span + 31) / 32 < rows ? (span + 31) / 32 : rows;
    }
    *sectors = lanes * per_col;
    *ideal = rows * ((lanes * eb + 31) / 32);
}

/* What a warp's request costs in 32-byte sectors. */
static void cost_note(kc_diag *d, const scatter *s)
{
    if (s->cuda && s->const_stride) {
        char rows[96] = "";
        if (s->bx > 0 && s->bx < 32)
            snprintf(rows, sizeof rows, "; the launch's blockDim.x of %lld makes a warp rows of %lld threads",
                     (long long)s->bx, (long long)s->bx);
        kc_diag_note(d, "a warp's request touches %llu 32-byte sectors where %llu would do (%u-byte elements%s%s)",
                     (unsigned long long)s->sectors, (unsigned long long)s->ideal, s->eb,
                     s->a->elem_bytes ? "" : ", assumed", rows);
    } else if (s->cuda && s->bx > 0 && s->bx < 32) {
        /* a warp is rows of bx threads; a row's lanes are apart, and the
         * rows' lanes share sectors where threadIdx.y moves the address
         * little */
        uint64_t lanes = (uint64_t)s->bx, rows = (32 + lanes - 1) / lanes, ideal, sectors;
        narrow_cost(s->bx, s->ystride, s->eb, &sectors, &ideal);
        uint64_t per_col = sectors / lanes;
        char ys[80] = "threadIdx.y moves the address by an amount not known";
        if (s->ystride == 0)
            snprintf(ys, sizeof ys, "threadIdx.y does not move the address");
        else if (s->ystride != INT64_MIN)
            snprintf(ys, sizeof ys, "threadIdx.y moves the address %lld element%s", (long long)s->ystride,
                     s->ystride == 1 || s->ystride == -1 ? "" : "s");
        kc_diag_note(d, "once %s >= %u, every lane of a row of %llu threads (the launch's blockDim.x) needs its own "
                     "32-byte sector; a warp is %llu such rows, and %s: %s%llu transactions per request where %llu "
                     "would do (%u-byte elements%s)",
                     s->stride, 32u / s->eb ? 32u / s->eb : 1u, (unsigned long long)lanes,
                     (unsigned long long)rows, ys, s->ystride == INT64_MIN ? "up to " : "",
                     (unsigned long long)(lanes * per_col), (unsigned long long)ideal, s->eb,
                     s->a->elem_bytes ? "" : ", assumed");
    } else if (s->cuda) {
        kc_diag_note(d, "once %s >= %u, every lane of a warp needs its own 32-byte sector: 32 transactions "
                     "per request where %u would do (%u-byte elements%s)",
                     s->stride, 32u / s->eb ? 32u / s->eb : 1u, (32u * s->eb + 31) / 32, s->eb,
                     s->a->elem_bytes ? "" : ", assumed");
    } else {
        /* Triton: for 4-byte elements when the element size is not known; a
         * block of fewer elements than a warp has lanes moves that many */
        uint64_t lanes = s->nelems > 0 && s->nelems < 32 ? s->nelems : 32;
        uint64_t ideal = (lanes * s->eb + 31) / 32;
        const char *who = lanes < 32 ? kc_arena_printf(s->ar, "the %llu elements of the block", (unsigned long long)lanes)
                                     : "a warp's 32 lanes";
        if (s->const_stride) {
            uint64_t span = (uint64_t)(s->cst < 0 ? -s->cst : s->cst) * s->eb * lanes;
            uint64_t sec = (span + 31) / 32;
            if (sec > lanes)
                sec = lanes;
            kc_diag_note(d, "%s touch %llu 32-byte sectors per request where %llu would do (%u-byte elements%s)", who,
                         (unsigned long long)sec, (unsigned long long)ideal, s->eb, s->a->elem_bytes ? "" : ", assumed");
        } else {
            kc_diag_note(d, "once %s >= %u, every %s needs its own 32-byte sector: %llu transactions per request "
                         "where %llu would do (%u-byte elements%s)",
                         s->stride, 32u / s->eb ? 32u / s->eb : 1u,
                         lanes < 32 ? "element of the block" : "lane of a warp", (unsigned long long)lanes,
                         (unsigned long long)ideal, s->eb, s->a->elem_bytes ? "" : ", assumed");
        }
    }
}

/* Triton: a persistent loop, `for tile in range(pid, num_tiles, NUM_SMS)`:
 * it starts at the program id and steps by a count that is the same in
 * every program, not a constant and not a tile's extent (tl.num_programs,
 * a number of SMs), so each pass is the work of one program of a larger
 * grid, not a repetition of it. */
static bool persistent_loop(const kc_kernel *k, uint32_t l)
{
    if (l == KC_NONE || l >= k->loops.len)
        return false;
    const kc_loop *L = &k->loops.data[l];
    int64_t c;
    if (!L->start || !L->step || kc_index_is_const(L->step, &c))
        return false;
    /* it starts at the program id itself (a tile index), not at an offset
     * of this program's (`range((pid + 1) * BLOCK, T, BLOCK)`) */
    const kc_index *st = L->start;
    if (st->nmono != 1 || st->mono[0].coef != 1 || st->mono[0].nfac != 1 ||
        st->mono[0].fac[0].kind != KC_ATOM_PROGRAM)
        return false;
    /* and steps by a number of programs, not by a tile's extent */
    uint32_t sym = kc_index_symbol(L->step);
    for (uint32_t i = 0; sym != KC_NONE && i < k->aranges.len; i++)
        if (k->aranges.data[i].len.symbol == sym)
            return false;
    kc_deps dt = kc_index_deps(L->step);
    return !(dt.flags & (KC_AF_PROGRAM | KC_AF_THREAD | KC_AF_DATA)) && !dt.axes && !dt.loops;
}

/* Triton: an access made once per program: outside every loop, or
 * directly in a persistent loop (one pass per program's worth of work). */
static bool once_per_program_place(const kc_kernel *k, const kc_access *a)
{
    return a->loop == KC_NONE || persistent_loop(k, a->loop);
}

/* The gather, the loop that repeats the access, and the fix. */
static void context_and_fix(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const scatter *s)
{
    if (s->rs->gather) {
        char buf[256];
        kc_diag_note(d, "the address also adds `%s`, which depends on values loaded from memory: a data-dependent "
                     "gather",
                     kc_atom_name(k, s->rs->gather, buf, sizeof buf));
    }
    /* CUDA: the innermost loop whose passes move the address; nvcc keeps
     * a load that a loop does not move in a register (PTX of the twelfth
     * round's cubic_feature_sampling). A Triton load is repeated where its
     * mask changes (seed 000's gather), so there the access's own loop. */
    uint64_t moves = s->cuda ? kc_index_deps(s->a->offset).loops : ~0ull;
    unsigned hops = 0;
    for (uint32_t l = s->a->loop; l != KC_NONE && l < k->loops.len && hops++ < 1000; l = k->loops.data[l].parent)
        if ((moves & (1ull << (l < 63 ? l : 63))) && (s->cuda || !persistent_loop(k, l)) && l != s->walk) {
            kc_diag_note(d, "it runs inside %s, so the scattered access is repeated every pass",
                         kc_loop_describe(ctx, k, &k->loops.data[l]));
            break;
        }
    int64_t step = s->cst < 0 ? -s->cst : s->cst;
    if (s->cuda && s->const_stride && (uint64_t)step * s->eb <= 16)
        kc_diag_note(d, "fix: when each thread handles these %lld consecutive elements itself, move them as one "
                     "%llu-byte vector (`uchar4`, `float4`, a `uint32_t`), or let threadIdx.x index the stride-1 "
                     "dimension",
                     (long long)step, (unsigned long long)step * s->eb);
    else if (s->cuda)
        kc_diag_note(d, "fix: let threadIdx.x index the stride-1 dimension (e.g. one warp per row with lanes "
                     "striding over columns), or stage a tile through shared memory");
    else if (s->rs->gather)
        kc_diag_note(d, "fix: read such per-row values once, outside any loop; give bulk loads a block axis "
                     "that runs along the stride-1 dimension");
    else
        kc_diag_note(d, "fix: give the block an axis that runs along the stride-1 dimension of the tensor, or "
                     "transpose the data");
}

/* Triton: an access of a loop pass that moves a tile (a block of rank 2 or
 * more), in a loop that repeats within a program (not a persistent loop),
 * or NULL. */
/* The block an access moves: its offset's shape, or a block pointer's
 * block_shape; NULL when not known. */
static const kc_shape *moved_shape(const kc_access *b)
{
    if (b->offset)
        return &b->offset->shape;
    return b->block_ptr && b->ptr_shape_known ? &b->ptr_shape : NULL;
}

static const kc_access *loop_tile(const kc_kernel *k)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        const kc_shape *sh = moved_shape(b);
        if (b->space == KC_MEM_GLOBAL && b->loop != KC_NONE && b->loop < k->loops.len && sh && sh->rank >= 2 &&
            !persistent_loop(k, b->loop))
            return b;
    }
    return NULL;
}

/* The smallest value a block extent takes: its constant, or the least of
 * the values its constexpr is seen with (launches, autotune configs); -1
 * when not known. */
static int64_t dim_min(const kc_kernel *k, const kc_dim *d)
{
    if (d->value > 0)
        return d->value;
    if (d->symbol == KC_NONE || d->symbol >= k->symbols.len || !k->symbols.data[d->symbol].nvalues)
        return -1;
    const kc_symbol *s = &k->symbols.data[d->symbol];
    int64_t m = INT64_MAX;
    for (uint32_t i = 0; i < s->nvalues; i++)
        if (s->values[i] < m)
            m = s->values[i];
    return m > 0 ? m : -1;
}

/* Triton: the blocks of rank 2 or more that the program moves where the
 * scattered vector `a` is moved (outside every loop, or in each pass of its
 * loop), when together they take at least 8 times its sectors (one 32-byte
 * sector a lane): the first of them, and in *ratio that multiple. A block
 * of an extent not known is not counted (the others are a lower bound);
 * NULL when the known ones are fewer (the vector may then be a good part of
 * the program's traffic: a per-token gate of BT lanes beside a [BT, 64]
 * bf16 tile adds a quarter). */
static const kc_access *program_tile(const kc_kernel *k, const kc_access *a, uint64_t *ratio)
{
    *ratio = 0;
    int64_t na = dim_min(k, &a->offset->shape.dims[0]);
    /* where the vector's length is not known, a block that has it as a
     * dimension (`[BLOCK_M, 128]` beside a `[BLOCK_M]` scale) is that many
     * times the vector whatever it is: the ratio per lane */
    uint32_t sym = a->offset->shape.dims[0].symbol;
    if (na <= 0 && sym == KC_NONE)
        return NULL;
    const kc_access *first = NULL;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        const kc_shape *sh = moved_shape(b);
        if (b == a || b->space != KC_MEM_GLOBAL || b->loop != a->loop || !sh || sh->rank < 2)
            continue;
        uint64_t nb = b->elem_bytes ? b->elem_bytes : 2; /* bf16 when not known: the fewest sectors */
        bool per_lane = false, known = true;
        for (unsigned x = 0; x < sh->rank && x < KC_MAX_RANK && known; x++) {
            if (na <= 0 && !per_lane && sh->dims[x].symbol == sym) {
                per_lane = true;
                continue;
            }
            int64_t v = dim_min(k, &sh->dims[x]);
            known = v > 0 && nb <= (UINT64_C(1) << 40);
            nb *= known ? (uint64_t)v : 1;
        }
        if (!known || (na <= 0 && !per_lane))
            continue;
        bytes += nb;
        if (!first)
            first = b;
    }
    uint64_t lanes = na > 0 ? (uint64_t)na : 1;
    if (!first || bytes < 8 * lanes * 32)
        return NULL;
    *ratio = bytes / (lanes * 32);
    return first;
}

/* Fewer passes than this and an access made once per thread costs as much
 * as the loop: measured on an H200 (bench/premise/kc101_once_per_thread.cu),
 * a strided store after a 16-pass loop made the kernel 2.40x slower, after a
 * 64-pass loop 1.37x, after 256 passes 1.14x. */
#define ONCE_PER_THREAD_MIN_PASSES 64
/* A row of 16 or 32 floats copied out after a search of N passes, against
 * the same values stored transposed (bench/premise/kc101_row_copy_out.cu,
 * an H100): 1.22x and 2.58x after 256 passes, 1.07x and 1.48x after 1024,
 * 1.02x and 1.13x after 4096; 5.3x and 6.6x with no search. */
#define ROW_WALK_MIN_PASSES 1024

static uint32_t hoisted_from(const kc_kernel *k, const kc_access *a, uint8_t *writes);

/* Does the monomial hold the thread index times symbol S (any symbol when
 * S is KC_NONE): `tid * nsample`, the start of a thread's row? */
static bool lane_times(const kc_mono *mo, uint32_t S)
{
    bool lane = false, size = false;
    for (unsigned f = 0; f < mo->nfac; f++) {
        lane |= mo->fac[f].kind == KC_ATOM_LANE;
        size |= mo->fac[f].kind == KC_ATOM_SYMBOL && (S == KC_NONE || mo->fac[f].id == S);
    }
    return lane && size;
}

/* CUDA: b, in loop l, walks a thread's own row: its address has the thread
 * index times a row length (`out[tid * S + ...]`) and moves one element a
 * pass of l (`+ i`, from any start: `idx[cnt + i]`, `i = cnt; i < S`). */
static bool walks_row(const kc_access *b, uint32_t l)
{
    bool lane_row = false, one = false;
    for (unsigned i = 0; i < b->offset->nmono; i++) {
        const kc_mono *mo = &b->offset->mono[i];
        lane_row |= lane_times(mo, KC_NONE);
        bool var = false;
        for (unsigned f = 0; f < mo->nfac; f++)
            var |= mo->fac[f].kind == KC_ATOM_LOOP && mo->fac[f].id == l;
        if (var) {
            if (one || mo->nfac != 1 || mo->coef < 1 || mo->coef > 4)
                return false; /* a step of 4 walks it a uint4 at a time */
            one = true;
        }
    }
    return lane_row && one;
}

/* Is symbol S the length of the threads' rows somewhere in the kernel (it
 * multiplies the thread index in an address: `out[tid * S + i]`)? A loop
 * of S passes then walks rows, the threads' own work, not a search. */
static bool row_length(const kc_kernel *k, uint32_t S)
{
    if (S == KC_NONE)
        return false;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_index *x = k->accesses.data[i].offset;
        for (unsigned m = 0; x && k->accesses.data[i].space == KC_MEM_GLOBAL && m < x->nmono; m++)
            if (lane_times(&x->mono[m], S))
                return true;
    }
    return false;
}

static bool in_kernel_body(const kc_kernel *k, kc_span sp)
{
    return sp.line >= k->span.line && sp.line <= k->span.end_line;
}

/* A global access in a loop of many passes (or of unknown passes), else
 * NULL with *short_pass one in a loop of fewer. self: the access judged;
 * skip_loop: a loop whose accesses do not count (the row walk of the
 * access itself); rows: the access judged walks a row, and another loop
 * that walks a thread's row (walks_row) is not a hotter loop than it. A loop written in the
 * kernel's own body is preferred to one of an inlined helper. */
static bool in_walking_loop(const kc_kernel *k, uint32_t l, uint64_t walking)
{
    for (unsigned hops = 0; l != KC_NONE && l < k->loops.len && hops++ < 1000; l = k->loops.data[l].parent)
        if (l >= 64 || (walking & (1ull << l)))
            return true;
    return false;
}

static const kc_access *loop_access(const kc_kernel *k, const kc_access **short_pass, uint32_t skip_loop,
                                    bool rows, const kc_access *self, int64_t min_passes, uint8_t *writes)
{
    *short_pass = NULL;
    const kc_access *found = NULL;
    /* rows: the loops (ids below 64; the others presumed so) that walk a
     * thread's row themselves are that kernel's work too, not a hotter loop */
    uint64_t walking = 0;
    for (uint32_t i = 0; rows && i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b->space == KC_MEM_GLOBAL && b->offset && b->loop != KC_NONE && b->loop < k->loops.len &&
            walks_row(b, b->loop))
            for (uint32_t l = b->loop, hops = 0; l != KC_NONE && l < 64 && hops++ < 1000; l = k->loops.data[l].parent)
                walking |= 1ull << l;
    }
    for (uint32_t l = 0; rows && l < k->loops.len && l < 64; l++)
        if (k->loops.data[l].end && row_length(k, kc_index_symbol(k->loops.data[l].end)))
            walking |= 1ull << l; /* a loop over a row's length walks rows, not a search */
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b == self || b->space != KC_MEM_GLOBAL || b->loop == KC_NONE || b->loop >= k->loops.len)
            continue;
        if ((skip_loop != KC_NONE && kc_loop_within(k, b->loop, skip_loop)) || hoisted_from(k, b, writes) != KC_NONE)
            continue; /* its own loop's, or made once before the loop */
        const kc_loop *l = &k->loops.data[b->loop];
        /* the hotter loop of a row walk is a search (over the points of a
         * cloud: `end - start` passes) made before it, not one over the
         * threads' rows (nor inside one), nor one after it (an early exit's
         * zero fill is not followed by the search it skips) */
        if (rows && (b->seq >= self->seq || in_walking_loop(k, b->loop, walking)))
            continue;
        int64_t passes = kc_loop_passes_at_most(l);
        if (passes < 0 || passes >= min_passes) {
            if (in_kernel_body(k, l->span))
                return b;
            if (!found)
                found = b;
        } else if (!*short_pass) {
            *short_pass = b;
        }
    }
    return found;
}

/* Does any loop around `a` move its offset? */
static bool moved_by_loops(const kc_kernel *k, const kc_access *a)
{
    uint64_t moves = kc_index_deps(a->offset).loops;
    unsigned hops = 0;
    for (uint32_t l = a->loop; l != KC_NONE && l < k->loops.len && hops++ < 1000; l = k->loops.data[l].parent)
        if (moves & (1ull << (l < 63 ? l : 63)))
            return true;
    return false;
}

/* Does the loop store to global memory, synchronize, or call a function
 * whose accesses the model does not hold (then nvcc cannot keep a load of
 * it in a register across passes, or kcheck cannot tell)? */
static bool loop_writes_global(const kc_kernel *k, uint32_t l)
{
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b->space == KC_MEM_GLOBAL && b->kind != KC_ACC_LOAD && b->loop != KC_NONE && kc_loop_within(k, b->loop, l))
            return true;
    }
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        if ((c->flags & (KC_CALL_UNSEEN | KC_CALL_MAY_SYNC | KC_CALL_FENCE)) && c->loop != KC_NONE &&
            kc_loop_within(k, c->loop, l))
            return true;
    }
    for (uint32_t i = 0; i < k->barriers.len; i++)
        if (k->barriers.data[i].loop != KC_NONE && kc_loop_within(k, k->barriers.data[i].loop, l))
            return true;
    return false;
}

/* CUDA: a load inside loops none of which moves its address nor stores to
 * global memory: nvcc loads it once, before them, and keeps it in a
 * register (the premise of KC102, seen in the PTX of the seventeenth
 * round's NMS kernels). Returns its outermost such loop, else KC_NONE. */
static uint32_t hoisted_from(const kc_kernel *k, const kc_access *a, uint8_t *writes)
{
    if (a->kind != KC_ACC_LOAD || a->loop == KC_NONE || a->loop >= k->loops.len || a->is_volatile ||
        moved_by_loops(k, a))
        return KC_NONE;
    uint32_t outer = a->loop;
    unsigned hops = 0;
    while (k->loops.data[outer].parent != KC_NONE && k->loops.data[outer].parent < k->loops.len && hops++ < 1000)
        outer = k->loops.data[outer].parent;
    /* writes[l]: 0 not asked yet, 1 no, 2 yes (once per loop, not per access) */
    if (!writes[outer])
        writes[outer] = loop_writes_global(k, outer) ? 2 : 1;
    return writes[outer] == 2 ? KC_NONE : outer;
}

/* CUDA: the access's own loop walks the thread's own row, one element a
 * pass over the whole row: `idx[i]` for i < nsample, with consecutive
 * threads nsample elements apart (a thread's result row copied out after
 * its search). The row is moved once per thread, not once per pass of a
 * hot loop, when that loop is inside no other and only copies rows (each
 * of its global accesses walks a thread's row). Returns that loop, else
 * KC_NONE. */
static uint32_t row_walk(const kc_kernel *k, const kc_access *a)
{
    uint32_t l = a->loop;
    if (l == KC_NONE || l >= k->loops.len)
        return KC_NONE;
    const kc_loop *L = &k->loops.data[l];
    int64_t st;
    if (!L->step || !kc_index_is_const(L->step, &st) || st != 1 || !walks_row(a, l))
        return KC_NONE;
    if (L->parent != KC_NONE)
        return KC_NONE; /* inside another loop it is walked again every pass of that one */
    /* a copy of rows in or out: every global access of the loop walks a
     * thread's row; a loop that also gathers or streams other data is the
     * kernel's work (a per-pixel interpolation over its attributes) */
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b->space == KC_MEM_GLOBAL && b->offset && b->loop != KC_NONE && kc_loop_within(k, b->loop, l) &&
            !walks_row(b, b->loop))
            return KC_NONE;
    }
    return l;
}

/* CUDA: an access made once per thread, outside every loop, in a kernel
 * whose loops access memory in every pass (a record's length field set
 * before the loop that fills the record): its scattered sectors are paid
 * once, where each pass of the loop pays again. A note that says so. */
static void once_per_thread(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const kc_access *in_loop,
                            const char *how)
{
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "it runs once per thread%s, where %s accesses global memory each pass (line %u): its cost is "
                 "paid once, next to the loop's; reported as a note",
                 how, kc_loop_describe(ctx, k, &k->loops.data[in_loop->loop]), in_loop->span.line);
}

/* An access made only in the programs that a condition on their ids picks
 * (`if (block_id == 0)`: padding rows written once per launch by block 0)
 * in a kernel whose other global accesses every program makes: its
 * scattered sectors are paid by one block of the grid, not by all. A note
 * that says so. */
static void one_program(const kc_kernel *k, kc_diag *d, const kc_access *a)
{
    uint32_t pick = kc_guard_program_pick(k, a->guard);
    if (pick == KC_NONE)
        return;
    const kc_access *work = NULL;
    for (uint32_t i = 0; i < k->accesses.len && !work; i++) {
        const kc_access *b = &k->accesses.data[i];
        if (b != a && b->space == KC_MEM_GLOBAL && b->offset &&
            (kc_index_deps(b->offset).flags & KC_AF_PROGRAM) &&
            kc_guard_program_pick(k, b->guard) == KC_NONE)
            work = b;
    }
    if (!work)
        return;
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "it runs only in the programs `%s` picks, once per launch, where every program makes the kernel's "
                 "other accesses (line %u): its cost is paid by one block of the grid, not by all; reported as a note",
                 k->conds.data[pick].text ? k->conds.data[pick].text : "?", work->span.line);
}

/* A vector (a 1-D block: a statistic per row or per head, a log-sum-exp)
 * read or written once per program, outside every loop, in a kernel whose
 * loops move tiles: its scattered sectors are paid once, where each pass
 * of the loop pays for a tile. A note that says so. */
static void once_per_program(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const kc_access *tile,
                             bool a_in_persistent)
{
    kc_strbuf shp = {0};
    kc_model_format_shape(k, moved_shape(tile), &shp);
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "it runs once per program%s, where %s moves a %s block each pass (line %u): "
                 "its cost is paid once, next to the loop's; reported as a note",
                 a_in_persistent ? " (once per pass of a persistent loop over the programs' work)"
                                 : ", outside every loop",
                 kc_loop_describe(ctx, k, &k->loops.data[tile->loop]), kc_sb_str(&shp), tile->span.line);
    kc_sb_free(&shp);
}

/* Triton: a vector stored once per program by a kernel whose program also
 * moves blocks of rank 2 (program_tile): a note that says so. */
static void beside_tiles(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const kc_access *a)
{
    uint64_t ratio = 0;
    const kc_access *flat = program_tile(k, a, &ratio);
    if (!flat)
        return;
    kc_strbuf shp = {0};
    kc_model_format_shape(k, moved_shape(flat), &shp);
    d->severity = KC_SEV_NOTE;
    const char *where = a->loop == KC_NONE ? "once per program, outside every loop, where"
                                           : kc_arena_printf(kc_rule_arena(ctx), "in each pass of the loop on line %u, "
                                                             "in which", k->loops.data[a->loop].span.line);
    kc_diag_note(d, "it runs %s the program also moves a %s block (line %u; with the program's other such blocks, "
                 "at least %llu times the sectors of this scattered vector, at the smallest sizes seen): its cost is "
                 "a fraction of the program's; reported as a note",
                 where, kc_sb_str(&shp), flat->span.line, (unsigned long long)ratio);
    kc_sb_free(&shp);
}

/* CUDA: where an access is made once per thread (outside every loop, in
 * loops that nvcc hoists it from, or walking the thread's own row once),
 * the loop of many passes that does the kernel's work (pass), or one of
 * few passes (short_pass). */
typedef struct once_ctx {
    uint32_t hoisted, walk;
    const kc_access *pass, *short_pass;
    const kc_call *tex; /* no access: a texture read in a loop of many passes */
    bool returns; /* made in a loop, but the kernel returns right after it: once per thread */
} once_ctx;

/* A texture read in a loop of many passes (or of unknown passes), another
 * than `a`'s own: the loop's traffic goes through the texture path, which
 * the model holds as calls, not accesses. Measured on an H100
 * (bench/premise/kc101_once_after_texture_loop.cu): a strided store after a
 * loop of 16 tex3D reads made the kernel 1.55x slower, after 64 1.25x,
 * after 256 1.05x; the same line as a loop of global loads. */
static const kc_call *loop_texture_read(const kc_kernel *k, const kc_access *a, int64_t min_passes)
{
    for (uint32_t i = 0; i < k->calls.len; i++) {
        const kc_call *c = &k->calls.data[i];
        if (!(c->flags & KC_CALL_TEXTURE_READ) || c->loop == KC_NONE || c->loop >= k->loops.len ||
            (a->loop != KC_NONE && kc_loop_within(k, a->loop, c->loop)))
            continue;
        int64_t passes = kc_loop_passes_at_most(&k->loops.data[c->loop]);
        if (passes < 0 || passes >= min_passes)
            return c;
    }
    return NULL;
}

static once_ctx once_context(const kc_kernel *k, const kc_access *a, uint8_t *writes)
{
    once_ctx o = {hoisted_from(k, a, writes), KC_NONE, NULL, NULL, NULL, false};
    /* `if (overlap) { keep[i] = 0; return; }` in a search: stored at most
     * once by each thread, in whatever pass finds it */
    o.returns = a->returns && a->loop != KC_NONE && o.hoisted == KC_NONE;
    if (o.hoisted == KC_NONE && !o.returns)
        o.walk = row_walk(k, a);
    if (a->loop == KC_NONE || o.hoisted != KC_NONE || o.returns) /* the loop it is hoisted from does the work */
        o.pass = loop_access(k, &o.short_pass, KC_NONE, false, a, ONCE_PER_THREAD_MIN_PASSES, writes);
    else if (o.walk != KC_NONE)
        o.pass = loop_access(k, &o.short_pass, o.walk, true, a, ROW_WALK_MIN_PASSES, writes);
    if (!o.pass && (a->loop == KC_NONE || o.hoisted != KC_NONE || o.returns))
        o.tex = loop_texture_read(k, a, ONCE_PER_THREAD_MIN_PASSES);
    if (!o.pass && !o.tex && a->loop != KC_NONE) /* no hotter loop: the access's own loop is the work */
        o.hoisted = o.walk = KC_NONE, o.short_pass = NULL, o.returns = false;
    return o;
}

static void once_note(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const once_ctx *o, const char *stride)
{
    kc_arena *ar = kc_rule_arena(ctx);
    const char *how = ", outside every loop";
    if (o->returns)
        how = " (the kernel returns right after it: each thread makes it at most once, in whatever pass reaches it)";
    else if (o->hoisted != KC_NONE)
        how = kc_arena_printf(ar, " (%s neither moves its address nor stores to global memory, so nvcc loads it "
                              "once, before the loop)",
                              kc_loop_describe(ctx, k, &k->loops.data[o->hoisted]));
    else if (o->walk != KC_NONE)
        how = kc_arena_printf(ar, " (%s walks the thread's own row of %s elements, each once; measured on an "
                              "H100, a row of 32 floats copied out so cost 1.13x after a search of 4096 passes, "
                              "1.48x after 1024, 2.58x after 256)",
                              kc_loop_describe(ctx, k, &k->loops.data[o->walk]), stride);
    if (o->pass) {
        once_per_thread(ctx, k, d, o->pass, how);
    } else if (o->tex) {
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "it runs once per thread%s, where %s reads a texture each pass (`%s`, line %u): its cost is "
                     "paid once, next to the loop's; reported as a note",
                     how, kc_loop_describe(ctx, k, &k->loops.data[o->tex->loop]), o->tex->callee, o->tex->span.line);
    } else if (o->short_pass)
        kc_diag_note(d, "it runs once per thread%s, but %s makes fewer than %d passes: a scattered access made once "
                     "costs about as much as the whole loop",
                     how, kc_loop_describe(ctx, k, &k->loops.data[o->short_pass->loop]),
                     o->walk != KC_NONE ? ROW_WALK_MIN_PASSES : ONCE_PER_THREAD_MIN_PASSES);
}

/* CUDA: the thread reads `fields` of its record's `rec`, which costs about
 * rec / fields, under min_const. */
static void partial_record_note(kc_diag *d, int64_t fields, int64_t rec, int64_t min_const)
{
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "but the same thread reads %lld of the %lld fields of its record, so the warp's requests together "
                 "fetch about %.1fx the bytes it uses (under the %lldx from which a stride is reported; measured on an "
                 "H200: 6 of 9 floats 1.43x); reported as a note",
                 (long long)fields, (long long)rec, (double)rec / (double)fields, (long long)min_const);
}

/* CUDA: the lane stride is a length that only bounds loops over a
 * record (kc_size_only_record_bound): whether the record is long is not
 * shown. A note that says what it costs either way. */
static void record_length_note(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const kc_access *a, uint32_t loop,
                               const char *stride)
{
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "but `%s` is compared only as the bound of loops such as %s, which say how long a record is, not "
                 "that it is long: %s (measured on an H100, the same values stored transposed as the reference); "
                 "reported as a note",
                 stride, kc_loop_describe(ctx, k, &k->loops.data[loop]),
                 a->kind == KC_ACC_LOAD ? "a thread that reads its whole record costs nothing extra up to 56 bytes, "
                                          "1.4x at 64 bytes and 2.7x at 128"
                                        : "a thread that writes its whole record costs nothing extra up to 16 "
                                          "bytes, 4.4x at 28 bytes, 9.4x at 64 and 15x at 128");
}

/* CUDA: what the thread's record costs: F of its S fields read
 * (partial), the whole of one written that is too long for stores to
 * merge (stored_whole, its bytes), a length (symbol) shown only as a
 * walk's bound (walk_only). */
static void record_notes(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const kc_access *a, int64_t partial,
                         int64_t stored_whole, int64_t rec, int64_t min_const, uint32_t walk_only, uint32_t length)
{
    if (partial)
        partial_record_note(d, partial, rec, min_const);
    if (stored_whole)
        kc_diag_note(d, "the thread writes its whole %lld-byte record, but the caches merge a warp's stores only "
                     "for records of up to %d bytes, where they merge its loads up to %d (measured on an H100: "
                     "a thread writing its 7 floats 4.4x, its 14 floats 9.0x the same values stored transposed)",
                     (long long)stored_whole, KC_RECORD_STORE_MAX_BYTES, KC_RECORD_LOAD_MAX_BYTES);
    if (walk_only != KC_NONE)
        record_length_note(ctx, k, d, a, walk_only, k->symbols.data[length].name);
}

/* Triton: the note of a run of a row's elements read by each lane
 * (kc_triton_row_run). */
static void row_run_note(const kc_model *m, const kc_kernel *k, kc_diag *d, const kc_row_run *run, const char *stride)
{
    (void)m;
    const kc_symbol *in = &k->symbols.data[run->inner];
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "but each lane reads %lld consecutive elements of its row (this access and the ones beside it, "
                 "`%s` apart: `%s`, the innermost stride, presumed 1), and the lanes are `%s` apart, which for a "
                 "contiguous tensor is the length of its last dimension: where a row is those %lld elements (a "
                 "record, such as a convolution's weights), the accesses together move whole rows, which the caches "
                 "merge (measured on an H100: the 4 fields of (dim, 4) rows 1.00x the same fields stored apart, 4 of "
                 "16 fields 3.45x); kcheck cannot tell the row's length: reported as a note",
                 (long long)run->len, in->name, in->arg_text, stride, (long long)run->len);
}

/* A stride that is a record's length known only as the bound of the loops
 * that walk it (kc_size_only_record_bound): the first such loop, when the
 * finding is a note for it; KC_NONE when it is not such a length or the
 * launches show it long (*why then says which launch); KC_RECORD_SMALL
 * when every launch passes a record short enough that its thread moves it
 * at no cost (kc_record_max_bytes). */
#define KC_RECORD_SMALL (KC_NONE - 1)
static uint32_t record_length(const kc_model *m, const kc_kernel *k, const kc_access *a, uint32_t sym, unsigned eb,
                              kc_arena *ar, const char **why)
{
    uint32_t loop = kc_size_only_record_bound(k, sym);
    int64_t lo, hi;
    *why = NULL;
    if (loop == KC_NONE || !kc_launch_param_values(m, k, sym, ar, &lo, &hi, why))
        return loop;
    /* (a loop over a run-time length is not unrolled; its stores of 3
     * floats measured 2.55x, of 4 floats 1.23x, of 8 floats 7.4x the
     * transposed store on an H100, a copy of 3 floats 1.22x: at 16 bytes or
     * less, as for constant strides, the cost stays under what is reported) */
    unsigned small = kc_record_max_bytes(a);
    if (hi * eb <= small)
        return KC_RECORD_SMALL;
    if (lo * eb > small)
        return KC_NONE;
    *why = NULL;
    return loop;
}

/* Why each symbol that makes an axis's stride large is large, once each. */
static void size_evidence(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const axis_stride *ax, unsigned naxes)
{
    for (unsigned x = 0; x < naxes; x++) {
        if (ax[x].big_symbol == KC_NONE)
            continue;
        bool seen = false;
        for (unsigned y = 0; y < x; y++)
            seen |= ax[y].big_symbol == ax[x].big_symbol;
        const char *ev = seen ? NULL : kc_symbol_evidence(ctx, k, ax[x].big_symbol);
        if (ev)
            kc_diag_note(d, "%s", ev);
    }
}

/* Does a CUDA offset have a dimension the kernel could put its lanes on
 * at a stride under a sector: a thread index other than x, a block or a
 * loop index with a small constant coefficient? Without one (one element
 * of each row, `log_probs[((n*T + t)*U + u)*V + blank]`, or a label's) no
 * mapping of the threads coalesces it: a gather, which the rule's Fix
 * leaves alone outside loops. */
static bool remappable_dimension(const kc_index *off, unsigned eb)
{
    for (unsigned i = 0; i < off->nmono; i++) {
        const kc_mono *mo = &off->mono[i];
        if (mo->nfac != 1)
            continue;
        const kc_atom *f = &mo->fac[0];
        bool index = (f->kind == KC_ATOM_LANE && f->id != 0) || f->kind == KC_ATOM_PROGRAM ||
                     f->kind == KC_ATOM_LOOP ||
                     (f->kind == KC_ATOM_OPAQUE && ((f->flags & (KC_AF_THREAD | KC_AF_PROGRAM)) || f->loops));
        int64_t c = mo->coef < 0 ? -mo->coef : mo->coef;
        if (index && c < (INT64_C(1) << 40) && (uint64_t)c * eb < 32)
            return true;
    }
    return false;
}

/* CUDA, a symbolic stride (`symbolic`): a gather of one element per row,
 * made once per thread outside loops, is a note that says why. */
static void gather_note(const kc_access *a, kc_diag *d, bool symbolic)
{
    if (!symbolic || a->loop != KC_NONE || d->severity == KC_SEV_NOTE ||
        remappable_dimension(a->offset, a->elem_bytes ? a->elem_bytes : 4))
        return;
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "each thread touches one element of its row, and every index the kernel varies (its "
                    "threads, blocks and loops) moves the address by a row or more too: no mapping of the "
                    "threads makes these addresses contiguous, only another data layout would; a gather "
                    "made once per thread, reported as a note");
}

/* CUDA, a constant stride `cst` of eb-byte elements: what a warp request
 * costs, in 32-byte sectors, against a contiguous access of the same
 * elements, and what the thread's record makes of it. A block narrower
 * than a warp (dim3(16, 16)) puts rows of bx lanes in a warp, each row
 * apart anyway. False when the access is not to be reported. */
typedef struct const_cost {
    uint64_t sectors, ideal;
    int64_t partial;      /* F of its S fields moved by the thread, under the threshold (0: not so) */
    int64_t stored_whole; /* bytes of a record stored whole but too long for stores to merge (0: not so) */
    const kc_gap *hidden; /* lines the parse lost before it, where the rest of the record may be moved */
} const_cost;

static bool const_stride_cost(kc_arena *ar, const kc_model *m, const kc_kernel *k, const kc_access *a, int64_t cst,
                              unsigned eb, int64_t bx, int64_t min_const, const_cost *out)
{
    uint64_t lanes = bx > 0 && bx < 32 ? (uint64_t)bx : 32, rows = (32 + lanes - 1) / lanes;
    uint64_t step = (uint64_t)(cst < 0 ? -cst : cst) * eb;
    uint64_t per_row = step >= 32 ? lanes : (lanes * step + 31) / 32;
    out->sectors = rows * per_row;
    out->ideal = rows * ((lanes * eb + 31) / 32);
    /* a block narrower than a warp whose threadIdx.y moves the address by
     * a constant: the warp's own footprint */
    int64_t sy = bx > 0 && bx < 32 ? kc_index_y_stride(ar, a->offset) : INT64_MIN;
    if (sy != INT64_MIN && (cst < 0 ? -cst : cst) < (INT64_C(1) << 40) && (sy < 0 ? -sy : sy) < (INT64_C(1) << 40)) {
        out->sectors = kc_warp_sectors(bx, cst, sy, eb);
        out->ideal = (32 * eb + 31) / 32;
    }
    if (out->sectors < (uint64_t)min_const * out->ideal)
        return false; /* e.g. bytes 4 apart in rows of 16 lanes: 2x */
    if (kc_lanes_close(a, step) || kc_lane_vector(a, cst))
        return false;
    int64_t rec = cst < 0 ? -cst : cst, fields = kc_record_fields(ar, k, a, rec, eb, kc_record_max_bytes(a), false);
    if (fields * 6 >= rec * 5)
        return false; /* each thread moves its whole record: the caches merge the requests */
    /* a record short enough to move whole, in a kernel the parse lost
     * part of: the rest of its fields may be moved there */
    if (rec <= 16 && (uint64_t)rec * eb <= kc_record_max_bytes(a))
        out->hidden = kc_gap_spanning(m, k, a->span.line);
    if (!fields && a->kind != KC_ACC_LOAD &&
        kc_record_fields(ar, k, a, rec, eb, KC_RECORD_LOAD_MAX_BYTES, true) * 6 >= rec * 5)
        out->stored_whole = rec * eb; /* whole, but too long for stores to merge */
    if (fields > 1 && rec < min_const * fields)
        out->partial = fields; /* F of its S fields: about S/F the sectors, under the threshold */
    return true;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    int64_t min_const = kc_rule_option_int(ctx, "min-constant-stride", 4);
    /* The block width every launch gives (CUDA); 1: a warp runs along y. */
    int64_t bx = m->lang == KC_LANG_CUDA ? kc_launch_block_x(m, k) : -1;
    if (bx == 1)
        return;
    kc_siblings sib = kc_link_siblings(ar, k);
    uint8_t *writes = kc_arena_alloc(ar, k->loops.len + 1); /* zeroed: hoisted_from's memo */
    KC_VEC(kc_reported) made = {0};
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space != KC_MEM_GLOBAL || !a->offset || a->discarded)
            continue; /* (a load nothing uses is removed by the compiler) */
        bool cuda = a->offset->space == KC_SPACE_THREADS;
        /* CUDA: the lanes of a warp differ in threadIdx.x. Triton: the
         * compiler lays the block out along whichever axis is contiguous, so
         * the access is scattered only when no axis is. */
        unsigned naxes = cuda ? 1 : a->offset->shape.rank;
        if (naxes == 0 || naxes > KC_MAX_RANK)
            continue;
        axis_stride ax[KC_MAX_RANK];
        bool any_lane = false, all_large = true;
        int report = -1;
        for (unsigned x = 0; x < naxes; x++) {
            ax[x] = classify(ar, k, a->offset, x, min_const);
            /* an axis one element long (`tl.arange(0, 1)[:, None] * k`)
             * holds one lane: its stride separates nothing */
            if (!cuda && a->offset->shape.dims[x].value == 1)
                ax[x] = (axis_stride){.big_symbol = KC_NONE};
            if (ax[x].unknown)
                all_large = false;
            if (!ax[x].stride)
                continue;
            any_lane = true;
            if (!ax[x].large)
                all_large = false;
            else if (report < 0 || (!cuda && x == naxes - 1))
                report = (int)x;
        }
        if (!any_lane || !all_large || report < 0)
            continue;
        const axis_stride *rs = &ax[report];
        /* CUDA, constant stride: the warp request's cost (const_stride_cost) */
        unsigned eb = a->elem_bytes ? a->elem_bytes : 4;
        int64_t cst = 0;
        bool const_stride = kc_index_is_const(rs->stride, &cst);
        const_cost cc = {0};
        if (cuda && const_stride && !const_stride_cost(ar, m, k, a, cst, eb, bx, min_const, &cc))
            continue;
        /* Triton: each lane moves its whole record field by field (`p + 4 * i + 0` .. `+ 3`): merged in the
         * caches as the range walk is (bench/premise/kc101_triton_range_walk.py) */
        int64_t rec = cst < 0 ? -cst : cst;
        if (!cuda && const_stride && kc_record_fields(ar, k, a, rec, eb, kc_record_max_bytes(a), false) * 6 >= rec * 5)
            continue;
        uint64_t sectors = cc.sectors, ideal = cc.ideal;
        int64_t partial = cc.partial, stored_whole = cc.stored_whole;
        const kc_gap *hidden = cc.hidden;
        /* The thread's accesses of one record are one finding: within the
         * constant stride, or, where the stride is symbolic, within one
         * 32-byte sector of each other (xyzs[0], xyzs[1], xyzs[2]). */
        int64_t window = const_stride ? (cst < 0 ? -cst : cst) : (int64_t)(32 / eb);
        if (window < 1)
            window = 1;
        bool earlier = false;
        unsigned steps = 0;
        for (uint32_t j = sib.prev[i]; j != KC_NONE && !earlier && steps++ < KC_SIBLING_SCAN; j = sib.prev[j])
            earlier = kc_record_sibling(ar, k, a, &k->accesses.data[j], window);
        if (earlier)
            continue; /* reported with the record's first access */
        kc_row_run run = cuda ? (kc_row_run){1, KC_NONE, a} : kc_triton_row_run(ar, k, a, rs->stride);
        if (run.len > 1 && run.first != a)
            continue; /* reported with the run's first access */
        if (run.len < 0)
            continue; /* each lane reads its whole row in an unrolled loop: one contiguous span */
        const char *walk_len = NULL;
        uint32_t walk_only = cuda ? record_length(m, k, a, rs->big_symbol, eb, ar, &walk_len) : KC_NONE;
        if (walk_only == KC_RECORD_SMALL)
            continue; /* a small record, moved whole by its thread */
        int64_t ystride = cuda && !const_stride && bx > 0 && bx < 32 ? kc_index_y_stride(ar, a->offset) : INT64_MIN;
        if (ystride != INT64_MIN) {
            /* rows of a narrow block whose threadIdx.y steps share sectors:
             * held to the constant strides' bar (9 sectors where 8 would
             * do, 9x9 blocks with threadIdx.y the unit stride, is no cost) */
            uint64_t ns, ni;
            narrow_cost(bx, ystride, eb, &ns, &ni);
            if (ns < (uint64_t)min_const * ni)
                continue;
        }
        const char *stride = kc_model_index_str(m, k, rs->stride);
        const char *what = a->kind == KC_ACC_STORE ? "store to" : a->kind == KC_ACC_ATOMIC ? "atomic on" : "load from";
        kc_vec_push(&made, ((kc_reported){kc_report_next(ctx), a, stride}));
        kc_diag *d = kc_report_access(ctx, k, a, "uncoalesced %s `%s`: %s are %s elements apart", what,
                                      a->base_name ? a->base_name : "memory",
                                      cuda ? "consecutive threads (threadIdx.x)" : "neighbouring lanes of the block",
                                      stride);
        kc_strbuf sb = {0};
        kc_model_format_index(k, a->offset, &sb);
        if (cuda) {
            kc_diag_note(d, "element offset: %s; along threadIdx.x the stride is %s", kc_sb_str(&sb), stride);
        } else {
            kc_strbuf shp = {0};
            kc_model_format_shape(k, &a->offset->shape, &shp);
            kc_diag_note(d, "element offset: %s", kc_sb_str(&sb));
            kc_sb_len_reset(&sb);
            for (unsigned x = 0; x < naxes; x++)
                if (ax[x].stride)
                    kc_sb_appendf(&sb, "%saxis %u: %s", sb.len ? ", " : "", x, kc_model_index_str(m, k, ax[x].stride));
            kc_diag_note(d, "no axis of the %s block is contiguous (strides %s), so no layout the compiler can pick "
                         "makes neighbouring lanes read neighbouring addresses",
                         kc_sb_str(&shp), kc_sb_str(&sb));
            kc_sb_free(&shp);
        }
        kc_sb_free(&sb);
        if (walk_len)
            kc_diag_note(d, "%s", walk_len);
        else if (walk_only == KC_NONE)
            size_evidence(ctx, k, d, ax, naxes);
        uint64_t nelems = cuda ? 0 : block_elems(&a->offset->shape);
        once_ctx once = cuda ? once_context(k, a, writes) : (once_ctx){KC_NONE, KC_NONE, NULL, NULL, NULL, false};
        scatter s = {a, cuda, rs, stride, eb, const_stride, cst, sectors, ideal, bx, ystride, nelems, once.walk, ar};
        cost_note(d, &s);
        if (run.len > 1)
            row_run_note(m, k, d, &run, stride);
        record_notes(ctx, k, d, a, partial, stored_whole, cst < 0 ? -cst : cst, min_const, walk_only, rs->big_symbol);
        kc_record_note(ar, k, &sib, i, window, stride, cuda, d);
        if (hidden) {
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "kcheck did not see all of `%s` before this access (%s `%s`, line %u): if what it "
                         "lost moves the rest of this %lld-element record, the warp's requests merge in the caches "
                         "and cost nothing; reported as a note",
                         k->name, kc_gap_kind_phrase(hidden->kind), hidden->what ? hidden->what : "?",
                         hidden->span.line, (long long)(cst < 0 ? -cst : cst));
        }
        context_and_fix(ctx, k, d, &s);
        const kc_access *tile = !cuda && once_per_program_place(k, a) && a->offset->shape.rank == 1 ? loop_tile(k) : NULL;
        if (tile)
            once_per_program(ctx, k, d, tile, a->loop != KC_NONE);
        else if (!cuda && a->offset->shape.rank == 1)
            beside_tiles(ctx, k, d, a);
        once_note(ctx, k, d, &once, stride);
        if (d->severity != KC_SEV_NOTE)
            one_program(k, d, a);
        gather_note(a, d, cuda && !const_stride);
    }
    kc_report_layout_once(ctx, k, made.data, made.len);
    kc_vec_free(&made);
}

const kc_rule kc101_uncoalesced_access = {
    .id = "KC101",
    .slug = "uncoalesced-access",
    .summary = "Global access whose neighbouring lanes are far apart in memory (large or symbolic stride).",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = options,
    .check = check,
    .verify = KC_VERIFY_PERF_RUNTIME,
    .metric = KC_METRIC_GLOBAL_SECTORS,
};
