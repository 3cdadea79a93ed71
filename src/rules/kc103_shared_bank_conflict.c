/* KC103 shared-bank-conflict: a __shared__ access whose 32 lanes fall into
 * few of the 32 banks. */
#include "rule_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a `__shared__` array access where the 32 lanes of a warp hit the same\n"
    "banks: a row width that is a multiple of 32 words indexed with `threadIdx.x`\n"
    "choosing the row (`tile[threadIdx.x][k]`, the read of a transpose), a 1-D\n"
    "index with a large power-of-two stride between threads (`s[tid * 32 + k]`),\n"
    "and padding that is declared but bypassed (`tile[33 * 32]` indexed\n"
    "`tid * 32 + k`). Banks are computed from the symbolic index: lane `l` (the\n"
    "warp's `threadIdx.x`, spilling into `threadIdx.y` when the array shows the\n"
    "block is narrower than a warp) touches 4-byte word `offset * elem_bytes / 4`\n"
    "in bank `word mod 32`; the access is reported when some bank serves at least\n"
    "`KC103.min-ways` different words. Where every launch in the file gives the\n"
    "block fewer than 32 threads (`dim3(2, 2)`), a warp holds only those.\n"
    "A thread that moves every field of its own 8- or 16-byte record, records\n"
    "aligned to their size (`data[ty][4 * tx + 0..3]` in rows of 64 floats), is\n"
    "not reported: ptxas merges the fields into one STS.128 / LDS.128, and a\n"
    "warp's vector request takes its minimum of wavefronts however the lanes\n"
    "fall (measured on an H100, `bench/premise/kc103_vector_record.cu`: rows\n"
    "padded to 65 floats, as a conflict fix would pad them, stay scalar and run\n"
    "1.78x slower).\n"
    "\n"
    "## Why is this bad?\n"
    "Shared memory has 32 banks of 4-byte words; the words a warp touches in one\n"
    "bank are served one after another. Thirty-two lanes in one bank make the\n"
    "access 32 times slower, which dominates kernels that stage tiles through shared\n"
    "memory. Measured on an H200: a 32x32 transpose tile without padding 0.31 ms,\n"
    "with `[32][33]` 0.15 ms (2.0x).\n"
    "\n"
    "## Example\n"
    "```cuda\n"
    "__shared__ float tile[32][32];\n"
    "tile[threadIdx.y][threadIdx.x] = in[...];\n"
    "__syncthreads();\n"
    "out[...] = tile[threadIdx.x][threadIdx.y];   // lanes 0..31 all in bank threadIdx.y\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```cuda\n"
    "__shared__ float tile[32][33];               // rows 33 words apart: 32 different banks\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Pad the last dimension by one element (the fix-it rewrites `[32]` to\n"
    "`[32 + 1]` where that removes the conflict); if padding is declared, index\n"
    "with the padded row width; or swizzle the index (`col ^ row`).\n"
    "\n"
    "## References\n"
    "- NVIDIA CUDA samples, `transpose` (\"coalesced\" vs \"no bank conflicts\" kernels);\n"
    "  Mark Harris, \"An Efficient Matrix Transpose in CUDA C/C++\".\n"
    "- deepspeedai/DeepSpeed PR #8055 (padding declared in `Transpose_Kernel` but\n"
    "  the index used the unpadded stride).\n"
    "- CUDA C++ Best Practices Guide, \"Shared Memory and Memory Banks\".\n";

static const kc_rule_option_doc options[] = {
    {"min-ways", "4", "smallest number of different words in one bank (an N-way conflict) reported"},
    {NULL, NULL, NULL},
};

/* The warp's lanes: l -> (tx, ty) with tx = l mod wx, ty = l / wx. */
typedef struct lanes {
    int64_t cx, cy, cz; /* coefficients of threadIdx.x/y/z in the offset */
    int64_t wx;         /* threads along x in a warp (32, or less when the block is narrower) */
    int64_t active;     /* lanes taking part (a guard `tid < 16` leaves 16) */
    int64_t nlanes;     /* threads in the warp: 32, or the whole block where it has fewer */
} lanes;

/* Largest number of different 4-byte words that one bank serves, divided
 * by the least any access of this width needs. */
static unsigned conflict_ways(const lanes *L, unsigned eb, unsigned *bank_out, int64_t base_word)
{
    uint64_t words[32 * 4];
    unsigned nw = 0, per = eb >= 4 ? eb / 4 : 1;
    if (per > 4)
        per = 4;
    for (int64_t l = 0; l < L->nlanes && l < 32; l++) {
        int64_t tx = l % L->wx, ty = l / L->wx;
        if (L->active > 0 && tx >= L->active)
            continue;
        int64_t off = L->cx * tx + L->cy * ty;
        int64_t byte = off * (int64_t)eb;
        int64_t w = (byte >= 0 ? byte / 4 : -((-byte + 3) / 4)) + base_word;
        for (unsigned p = 0; p < per; p++)
            words[nw++] = (uint64_t)(w + (int64_t)p);
    }
    unsigned best = 0, best_bank = 0;
    for (unsigned b = 0; b < 32; b++) {
        unsigned distinct = 0;
        for (unsigned i = 0; i < nw; i++) {
            if (words[i] % 32 != b)
                continue;
            bool dup = false;
            for (unsigned j = 0; j < i && !dup; j++)
                dup = words[j] == words[i];
            distinct += !dup;
        }
        if (distinct > best) {
            best = distinct;
            best_bank = b;
        }
    }
    *bank_out = best_bank;
    return best / per;
}

static const kc_shared_array *array_of(const kc_kernel *k, uint32_t sym)
{
    for (uint32_t i = 0; i < k->shared_arrays.len; i++)
        if (k->shared_arrays.data[i].symbol == sym)
            return &k->shared_arrays.data[i];
    return NULL;
}

/* Lane coefficients of an offset; false when a lane appears other than as
 * a constant multiple, or something else varies across the warp. */
static bool lane_coefs(const kc_index *x, lanes *L)
{
    memset(L, 0, sizeof *L);
    for (unsigned i = 0; i < x->nmono; i++) {
        const kc_mono *m = &x->mono[i];
        for (unsigned f = 0; f < m->nfac; f++) {
            const kc_atom *a = &m->fac[f];
            if (a->kind == KC_ATOM_LANE) {
                if (m->nfac != 1 || a->id > 2)
                    return false;
                int64_t *c = a->id == 0 ? &L->cx : a->id == 1 ? &L->cy : &L->cz;
                *c += m->coef;
            } else if (a->axes || (a->flags & KC_AF_THREAD)) {
                return false;
            }
        }
    }
    return L->cx != 0;
}

/* Lanes the guards leave: 0 when a guard pins threadIdx.x (`tid == 0`:
 * no conflict to speak of), the bound of `threadIdx.x < B` (B < 32), or
 * 32. */
static int64_t active_lanes(const kc_kernel *k, uint32_t guard)
{
    int64_t active = 32;
    unsigned hops = 0;
    for (uint32_t c = guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        for (uint32_t p = 0; p < cd->npreds; p++) {
            const kc_pred *pr = &cd->preds[p];
            if (!pr->lhs || !pr->rhs)
                continue;
            kc_deps dl = kc_index_deps(pr->lhs), dr = kc_index_deps(pr->rhs);
            bool xl = (dl.axes & 1) != 0, xr = (dr.axes & 1) != 0;
            if ((xl || xr) && pr->op == KC_CMP_EQ)
                return 0;
            int64_t b;
            if (xl && !xr && (pr->op == KC_CMP_LT || pr->op == KC_CMP_LE) && pr->lhs->nmono == 1 &&
                pr->lhs->mono[0].nfac == 1 && pr->lhs->mono[0].coef == 1 && kc_index_is_const(pr->rhs, &b)) {
                int64_t n = pr->op == KC_CMP_LE ? b + 1 : b;
                if (n >= 0 && n < active)
                    active = n;
            }
        }
    }
    return active;
}

/* Does the offset hold a value kcheck cannot see (an opaque: `byte_count++`
 * of a counter a helper updates by reference) while a guard around the
 * access tests per-thread data? Each lane then takes its own path to the
 * access, and the counter has moved by its own amount in each: where the
 * lanes fall in the banks is not known. */
static bool lane_varying_opaque(const kc_kernel *k, const kc_access *a)
{
    bool opaque = false;
    for (unsigned i = 0; i < a->offset->nmono && !opaque; i++)
        for (unsigned f = 0; f < a->offset->mono[i].nfac && !opaque; f++)
            opaque = a->offset->mono[i].fac[f].kind == KC_ATOM_OPAQUE;
    if (!opaque)
        return false;
    unsigned hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        kc_deps d = k->conds.data[c].deps;
        if ((d.flags & KC_AF_DATA) && (d.axes || (d.flags & KC_AF_THREAD)))
            return true;
    }
    return false;
}

static int64_t row_stride(const kc_shared_array *s, unsigned d)
{
    int64_t st = 1;
    for (unsigned i = d + 1; i < s->rank; i++) {
        if (s->dims[i] <= 0)
            return -1;
        st *= s->dims[i];
    }
    return st;
}

/* "floats", "ints", "__half elements", "4-byte elements". */
static const char *elem_name(kc_arena *ar, unsigned eb, const char *type)
{
    static const char *const plain[] = {"float", "double", "int", "unsigned", "short", "char", "long"};
    if (type && type[0]) {
        for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
            if (strcmp(type, plain[i]) == 0)
                return kc_arena_printf(ar, "%ss", type);
        return kc_arena_printf(ar, "%s elements", type);
    }
    return eb == 8 ? "8-byte elements" : eb == 2 ? "2-byte elements" : "4-byte elements";
}

/* The widest access of shared array `base` in bytes (at least 4 and eb),
 * 0 when one goes through a cast to a type of unknown size. */
static int64_t widest_access(const kc_kernel *k, uint32_t base, unsigned eb)
{
    int64_t w = eb > 4 ? eb : 4;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *o = &k->accesses.data[i];
        if (o->base != base || o->space != KC_MEM_SHARED)
            continue;
        if (o->recast)
            return 0;
        if (o->elem_bytes > w && o->elem_bytes <= 16)
            w = o->elem_bytes;
    }
    return w;
}

/* The padding that makes a per-thread stride of `stride` eb-byte elements
 * conflict-free while keeping the array's widest accesses aligned: odd in
 * words for accesses of up to 4 bytes, an odd number of 16-byte units for
 * 16-byte ones (served a quarter-warp at a time). */
static void pad_advice(kc_arena *ar, kc_diag *d, const kc_kernel *k, const kc_access *a, unsigned eb, const lanes *L)
{
    int64_t stride = L->cx < 0 ? -L->cx : L->cx;
    int64_t w = widest_access(k, a->base, eb);
    if (!w) {
        kc_diag_note(d, "fix: make the per-thread stride odd in words (%" PRId64 " -> %" PRId64 " elements), or swizzle "
                     "the index; `%s` is also accessed through a cast to a wider type: keep each padded row a "
                     "multiple of that type's size (16 bytes for float4), or swizzle",
                     stride, stride + (eb < 4 ? 4 / eb : 1), a->base_name ? a->base_name : "the array");
        return;
    }
    int64_t pad = w / eb;
    lanes P = *L;
    P.cx = L->cx < 0 ? -(stride + pad) : stride + pad;
    unsigned bank, after = conflict_ways(&P, eb, &bank, 0);
    kc_diag_note(d, "fix: pad each row by %" PRId64 " element%s (stride %" PRId64 " -> %" PRId64 "%s; %s), or swizzle "
                 "the index",
                 pad, pad == 1 ? "" : "s", stride, stride + pad,
                 w > 4 && w > (int64_t)eb ? ", which keeps the rows aligned for the array's wider accesses" : "",
                 after >= 2 ? kc_arena_printf(ar, "%u-way afterwards", after) : "no conflict afterwards");
}

/* Where the lanes fall, what is assumed of the block and what it costs. */
static void lane_notes(kc_arena *ar, kc_diag *d, const kc_kernel *k, const kc_access *a, const lanes *Lp, unsigned eb,
                       unsigned ways, int64_t bx, const char *what, const char *arr)
{
    lanes L = *Lp;
    int64_t words_apart = L.cx * (int64_t)eb / 4;
    kc_strbuf sb = {0};
    kc_model_format_index(k, a->offset, &sb);
    /* a block of fewer threads than a warp (one-dimensional, 16): a warp
     * holds the whole block, and no threadIdx.y follows */
    bool small = L.nlanes < 32 && L.nlanes == L.wx;
    kc_diag_note(d, "%s `%s`: element offset %s; lane l touches 4-byte word %" PRId64 "*l%s (mod 32 banks)", what,
                 arr, kc_sb_str(&sb), words_apart,
                 small      ? kc_arena_printf(ar, " for l < %" PRId64 ", the block's threads", L.wx)
                 : L.wx < 32 ? kc_arena_printf(ar, " for l < %" PRId64 ", then the next threadIdx.y", L.wx)
                             : "");
    kc_sb_free(&sb);
    if (bx <= 0)
        kc_diag_note(d, "assumed: the 32 lanes of a warp are %s (no launch %s`%s` in this file gives the block's "
                     "shape)",
                     L.wx < 32 ? kc_arena_printf(ar, "%" PRId64 " values of threadIdx.x times %" PRId64
                                                 " of threadIdx.y", L.wx, 32 / L.wx)
                               : "threadIdx.x 0..31",
                     k->is_device_function ? "of a kernel that calls " : "of ", k->name);
    kc_diag_note(d, "the warp's request is split into %u shared-memory wavefronts where %u would do", ways *
                 (eb > 4 ? eb / 4 : 1), eb > 4 ? eb / 4 : 1);
    if (small)
        kc_diag_note(d, "the launch gives the block %" PRId64 " threads: a warp holds all of them, and the "
                     "other lanes are idle", L.nlanes);
    else if (L.wx < 32)
        kc_diag_note(d, "threadIdx.x indexes a dimension of %" PRId64 ": the block is assumed %" PRId64
                     " threads wide, so a warp spans %" PRId64 " values of threadIdx.y",
                     L.wx, L.wx, 32 / L.wx);
}

/* Does the thread move the whole record of 8 or 16 bytes that access a
 * falls in, lanes a record apart, records aligned to their size: `data[ty][4 * tx + 0..3]` stored
 * (or loaded) field by field? ptxas merges such accesses into one STS.128
 * / LDS.128 (STS.64), and a warp's vector request takes its minimum of
 * wavefronts however the lanes fall: no conflict (measured on an H100,
 * bench/premise/kc103_vector_record.cu: STS.128 and LDS.128 in the SASS;
 * the rows padded by one float, as a conflict fix would, stay scalar and
 * run 1.78x slower). */
static bool whole_vector_record(kc_arena *ar, const kc_kernel *k, const kc_access *a, const lanes *L, unsigned eb)
{
    int64_t rec = L->cx < 0 ? -L->cx : L->cx, c = 0;
    /* records of 4- or 8-byte fields: 2 to 4 of them */
    if (eb < 4 || rec < 2 || rec > 4 || (rec * (int64_t)eb != 8 && rec * (int64_t)eb != 16))
        return false;
    for (unsigned i = 0; i < a->offset->nmono; i++) {
        const kc_mono *mo = &a->offset->mono[i];
        if (!mo->nfac)
            c = mo->coef;
        else if (mo->coef % rec)
            return false; /* a start not aligned to the record */
    }
    int64_t at = ((c % rec) + rec) % rec; /* a's field in its record */
    bool have[4] = {false};
    for (uint32_t j = 0; j < k->accesses.len; j++) {
        const kc_access *b = &k->accesses.data[j];
        int64_t lo, hi;
        if (b->space != a->space || !kc_access_same_base(a, b) || !b->offset ||
            (b->kind == KC_ACC_LOAD) != (a->kind == KC_ACC_LOAD) || b->loop != a->loop ||
            !kc_offset_diff_range(ar, k, b->offset, a->offset, &lo, &hi) || lo != hi)
            continue;
        if (lo + at >= 0 && lo + at < rec)
            have[lo + at] = true;
    }
    for (int64_t f = 0; f < rec; f++)
        if (!have[f])
            return false;
    return true;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    int64_t min_ways = kc_rule_option_int(ctx, "min-ways", 4);
    if (min_ways < 2)
        min_ways = 2;
    KC_VEC(lanes) seen = {0};
    KC_VEC(uint32_t) seen_base = {0};
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        /* recast: through a cast to a type of unknown size, lane width unknown */
        if (a->space != KC_MEM_SHARED || !a->offset || a->base == KC_NONE || a->kind == KC_ACC_ATOMIC || a->recast)
            continue;
        const kc_shared_array *s = array_of(k, a->base);
        unsigned eb = a->elem_bytes ? a->elem_bytes : s ? s->elem_bytes : 0;
        if (!eb || eb > 16)
            continue;
        lanes L;
        if (!lane_coefs(a->offset, &L) || lane_varying_opaque(k, a))
            continue;
        L.active = active_lanes(k, a->guard);
        if (L.active < 2)
            continue;
        /* threadIdx.x can only index a dimension of the array as far as its
         * extent: a narrower block puts several rows of threads in a warp. */
        L.wx = 32;
        int64_t bx = kc_launch_block_x(m, k);
        if (s && s->rank >= 1) {
            for (unsigned d = 0; d < s->rank; d++) {
                int64_t st = row_stride(s, d);
                if (st > 0 && (L.cx == st || L.cx == -st) && s->dims[d] > 0 && s->dims[d] < 32 &&
                    32 % s->dims[d] == 0)
                    L.wx = s->dims[d];
            }
        }
        if (bx > 0)
            L.wx = bx < 32 ? bx : 32; /* the launch says how wide the block is */
        /* a warp holds no more threads than its block (`dim3(2, 2)`: 4) */
        int64_t by = kc_launch_block_dim(m, k, 1), bz = kc_launch_block_dim(m, k, 2);
        L.nlanes = bx > 0 && by > 0 && bz > 0 && bx * by * bz < 32 ? bx * by * bz : 32;
        unsigned bank;
        unsigned ways = conflict_ways(&L, eb, &bank, 0);
        if ((int64_t)ways < min_ways || whole_vector_record(ar, k, a, &L, eb))
            continue;
        bool dup = false;
        for (uint32_t q = 0; q < seen.len && !dup; q++)
            dup = seen_base.data[q] == a->base && seen.data[q].cx == L.cx && seen.data[q].cy == L.cy &&
                  seen.data[q].wx == L.wx;
        if (dup)
            continue;
        kc_vec_push(&seen, L);
        kc_vec_push(&seen_base, a->base);
        const char *arr = a->base_name ? a->base_name : "shared memory";
        const char *what = a->kind == KC_ACC_STORE ? "store to" : "load from";
        const char *type = elem_name(ar, eb, a->elem_type);
        int64_t words_apart = L.cx * (int64_t)eb / 4;
        /* Which dimension threadIdx.x picks, for the message. */
        int dim = -1;
        if (s)
            for (unsigned d = 0; d + 1 < s->rank && dim < 0; d++) {
                int64_t st = row_stride(s, d);
                if (st > 0 && L.cx % st == 0)
                    dim = (int)d;
            }
        kc_diag *d;
        if (dim >= 0 && s) {
            int64_t row = row_stride(s, (unsigned)dim);
            d = kc_report_access(ctx, k, a,
                          "%u-way shared-memory bank conflict on `%s`: lanes %s hit bank %u: rows of %" PRId64
                          " %s (%" PRId64 " bytes) apart, and threadIdx.x picks the row",
                          ways, arr, L.wx < 32 ? "of the warp" : "0..31", bank, row, type, row * (int64_t)eb);
            kc_diag_note(d, "`%s` indexes dimension %d of `%s` with threadIdx.x", kc_rule_span_text(ctx, a->span), dim,
                         arr);
        } else {
            /* the lanes that take part: a guard (`tid < 16`) leaves fewer */
            int64_t taking = L.active > 0 && L.active < L.wx ? L.active * (L.nlanes / L.wx) : L.nlanes;
            int64_t banks = taking / ways ? taking / ways : 1;
            d = kc_report_access(ctx, k, a,
                          "%u-way shared-memory bank conflict on `%s`: consecutive threads are %" PRId64
                          " %s (%" PRId64 " words) apart, so the %" PRId64 "%s lanes of a warp share %" PRId64
                          " bank%s",
                          ways, arr, L.cx, type, words_apart, taking, taking < L.nlanes ? " active" : "", banks,
                          banks == 1 ? "" : "s");
        }
        lane_notes(ar, d, k, a, &L, eb, ways, bx, what, arr);
        /* Padding: in the declaration, or declared and bypassed. */
        bool fixed = false;
        if (s && s->rank >= 2 && dim >= 0 && kc_span_valid(s->last_dim_span) && s->dims[s->rank - 1] > 0) {
            int64_t last = s->dims[s->rank - 1];
            /* One 4-byte word of padding per row (1 element, 2 halves, 4
             * bytes), or as many bytes as the widest access of the array,
             * whose rows must stay aligned to it (float4: 16). */
            int64_t pad = widest_access(k, a->base, eb) / eb;
            /* The padded array: each stride that spans the last dimension grows. */
            lanes P = L;
            int64_t st_old = row_stride(s, (unsigned)dim);
            int64_t st_new = st_old / last * (last + pad);
            P.cx = L.cx / st_old * st_new + L.cx % st_old;
            if (L.cy) {
                int64_t q = L.cy / last, r = L.cy % last;
                P.cy = q * (last + pad) + r;
            }
            unsigned b2;
            unsigned w2 = conflict_ways(&P, eb, &b2, 0);
            if ((int64_t)w2 < min_ways) {
                const char *txt = kc_rule_span_text(ctx, s->last_dim_span);
                char *end = NULL;
                long long v = strtoll(txt, &end, 10);
                const char *rep = end && !*end && end != txt ? kc_arena_printf(ar, "%lld", v + pad)
                                                              : kc_arena_printf(ar, "%s + %lld", txt, (long long)pad);
                kc_diag_note(d, "padding the last dimension of `%s` (line %u) by %s puts the rows in different "
                             "banks (%u-way afterwards)",
                             arr, s->span.line, pad == 1 ? "one element" : kc_arena_printf(ar, "%lld elements (%lld bytes)", (long long)pad, (long long)pad * eb), w2);
                kc_diag_fix(d, kc_arena_printf(ar, "pad `%s`: [%s] -> [%s]", arr, txt, rep), s->last_dim_span, rep);
                fixed = true;
            }
        }
        if (!fixed && s && s->rank == 1 && s->dims[0] > 0) {
            int64_t stride = L.cx < 0 ? -L.cx : L.cx;
            if (stride > 1 && s->dims[0] % (stride + 1) == 0 && s->dims[0] / (stride + 1) > 1)
                kc_diag_note(d, "`%s` is declared with %" PRId64 " = %" PRId64 " x %" PRId64
                             " elements, room for padded rows of %" PRId64 ", but the index steps %" PRId64
                             " per thread: the padding is bypassed",
                             arr, s->dims[0], s->dims[0] / (stride + 1), stride + 1, stride + 1, stride);
        }
        if (!fixed)
            pad_advice(ar, d, k, a, eb, &L);
    }
    kc_vec_free(&seen);
    kc_vec_free(&seen_base);
}

const kc_rule kc103_shared_bank_conflict = {
    .id = "KC103",
    .slug = "shared-bank-conflict",
    .summary = "__shared__ access whose 32 lanes fall into few banks (row width a multiple of 32 words indexed by "
               "threadIdx.x, padding bypassed).",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA,
    .doc = doc,
    .options = options,
    .check = check,
    .verify = KC_VERIFY_PERF_RUNTIME,
    .metric = KC_METRIC_SHARED_WAVEFRONTS,
};
