/* KC101 uncoalesced-access: a global access whose neighbouring lanes are
 * far apart in memory. */
#include "kc_rule_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a global-memory load or store whose address, across the lanes that\n"
    "run together, moves by a large stride: CUDA threads that differ in\n"
    "`threadIdx.x`, or the elements along the contiguous (last) axis of a Triton\n"
    "block. The stride is inferred symbolically. A constant stride is reported\n"
    "from `KC101.min-constant-stride` elements on; a symbolic stride only when\n"
    "the symbol is known to be large: a problem size (it bounds a mask, a guard\n"
    "or a loop, or the launch passes `x.shape[i]`) or an outer stride (the\n"
    "launch passes `x.stride(0)`). An innermost stride argument\n"
    "(`x.stride(-1)`) is presumed to be 1.\n"
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
    {"min-constant-stride", "4", "smallest constant stride (in elements) reported"},
    {NULL, NULL, NULL},
};

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    kc_arena *ar = kc_rule_arena(ctx);
    int64_t min_const = kc_rule_option_int(ctx, "min-constant-stride", 4);
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space != KC_MEM_GLOBAL || !a->offset)
            continue;
        int axis = kc_index_fast_axis(a->offset);
        if (axis < 0)
            continue;
        kc_stride st;
        kc_index_stride_along(ar, a->offset, (unsigned)axis, &st);
        if (!st.stride)
            continue;
        int64_t c;
        uint32_t big = KC_NONE;
        if (kc_index_is_const(st.stride, &c)) {
            if (c < min_const && c > -min_const)
                continue;
        } else {
            big = kc_index_large_symbol(k, st.stride);
            if (big == KC_NONE)
                continue;
        }
        const char *stride = kc_model_index_str(m, k, st.stride);
        bool cuda = a->offset->space == KC_SPACE_THREADS;
        const char *what = a->kind == KC_ACC_STORE ? "store to" : a->kind == KC_ACC_ATOMIC ? "atomic on" : "load from";
        kc_diag *d;
        if (cuda)
            d = kc_report(ctx, k, kc_access_point(a),
                          "uncoalesced %s `%s`: consecutive threads (threadIdx.x) are %s elements apart",
                          what, a->base_name ? a->base_name : "memory", stride);
        else
            d = kc_report(ctx, k, kc_access_point(a),
                          "uncoalesced %s `%s`: neighbouring lanes of the block are %s elements apart",
                          what, a->base_name ? a->base_name : "memory", stride);
        kc_strbuf sb = {0};
        kc_model_format_index(k, a->offset, &sb);
        if (cuda) {
            kc_diag_note(d, "element offset: %s; along threadIdx.x the stride is %s", kc_sb_str(&sb), stride);
        } else {
            kc_strbuf shp = {0};
            kc_model_format_shape(k, &a->offset->shape, &shp);
            kc_diag_note(d, "element offset: %s; along the contiguous (last) axis of the %s block the stride is %s",
                         kc_sb_str(&sb), kc_sb_str(&shp), stride);
            kc_sb_free(&shp);
        }
        kc_sb_free(&sb);
        if (big != KC_NONE) {
            const char *ev = kc_symbol_evidence(ctx, k, big);
            if (ev)
                kc_diag_note(d, "%s", ev);
        }
        if (a->elem_bytes)
            kc_diag_note(d, "with %u-byte elements each lane of a warp needs its own 32-byte sector: up to 32 "
                         "transactions per request where %u would do",
                         a->elem_bytes, (32u * a->elem_bytes + 31) / 32);
        else
            kc_diag_note(d, "each lane touches its own 32-byte sector: one memory transaction per element "
                         "instead of one per 8 (4-byte) elements");
        if (st.gather) {
            char buf[256];
            kc_diag_note(d, "the address also adds `%s`, a value loaded from memory: a data-dependent gather",
                         kc_atom_name(k, st.gather, buf, sizeof buf));
        }
        if (a->loop != KC_NONE && a->loop < k->loops.len)
            kc_diag_note(d, "it runs inside %s, so the scattered access is repeated every pass",
                         kc_loop_describe(ctx, k, &k->loops.data[a->loop]));
        if (cuda)
            kc_diag_note(d, "fix: let threadIdx.x index the stride-1 dimension (e.g. one warp per row with lanes "
                         "striding over columns), or stage a tile through shared memory");
        else if (st.gather)
            kc_diag_note(d, "fix: read such per-row values once, outside any loop; let the last block axis run "
                         "along the stride-1 dimension for bulk loads");
        else
            kc_diag_note(d, "fix: let the last (contiguous) block axis index the stride-1 dimension, e.g. swap "
                         "`[:, None]` and `[None, :]`, or transpose the data");
    }
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
};
