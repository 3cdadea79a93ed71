/* KC602 launch-grid-limit: a launch whose grid or block can pass the
 * hardware limits.
 *
 * Reads: kc_model.launches (kc_launch.grid: what each grid axis is, as the
 * front end can tell from the launch expression and the names it follows;
 * kc_launch.block_dim: constant block sizes). Constants over a limit are
 * errors (the launch always fails); an axis 1/2 (y/z) that runs one
 * program per row of flattened activations is an error (65536 tokens is a
 * routine batch); a product of run-time extents there is a note that says
 * kcheck cannot tell how large it gets (it fails past 65535, which
 * decoding and serving reach with sequences x heads, and a training batch
 * with batch x heads seldom does). */
#include "rule_util.h"

static const char doc[] =
    "## What it does\n"
    "Flags launches whose grid or block can pass what the GPU accepts:\n"
    "\n"
    "- grid y or z (Triton's grid axes 1 and 2) over 65535, grid x over\n"
    "  2^31-1, written as a constant;\n"
    "- grid axis 1 or 2 of a Triton launch that runs one program per row of\n"
    "  a tensor whose leading dimensions are flattened into its rows (the\n"
    "  token count of a batch: `x.view(-1, N).shape[0]`, `x.numel() // N`,\n"
    "  `batch * seq_len`), an error;\n"
    "- grid y/z (axis 1/2) that is a product of run-time sizes (Triton: of\n"
    "  two or more tensor extents, `N * H` with `N, H` from `.shape`;\n"
    "  CUDA: of two or more non-constant values), not clamped with\n"
    "  `min`, a note (`--severity note`): it fails past 65535, which a\n"
    "  decode batch of sequences x heads reaches and a training batch x\n"
    "  heads seldom does, and kcheck cannot tell which this is;\n"
    "- a block of constant size over 1024 threads, or over 1024 in x or y or\n"
    "  64 in z.\n"
    "\n"
    "- grid axis 1 or 2 of a Triton launch that runs one program per row of a\n"
    "  matrix (`M` of `M, K = x.shape`, or `x.size(0)` with `assert x.dim() ==\n"
    "  2` before the launch), a warning: a 2-D tensor's rows are tokens or the\n"
    "  entries of a table; one program per index of the first dimension of a\n"
    "  tensor of unknown rank, or of a matrix's rows named like a batch (`B`,\n"
    "  `bs`, `batch_size`), a note (a batch as often as rows).\n"
    "\n"
    "Another single run-time size on axis 1/2 (`B`, `triton.cdiv(T, BT)`) is\n"
    "not reported: kcheck cannot tell a head count from a sequence length.\n"
    "\n"
    "## Why is this bad?\n"
    "CUDA limits a grid to 2^31-1 blocks along x and 65535 along y and z,\n"
    "and a block to 1024 threads (64 along z). A launch past them fails:\n"
    "`cudaErrorInvalidConfiguration` (\"invalid configuration argument\") for\n"
    "CUDA, an error raised at launch for Triton, or, unchecked, a kernel that\n"
    "silently never ran. The sizes that reach the limit are the ones tests do\n"
    "not use: the number of rows of a long batch, the number of sequences\n"
    "times heads in decoding (flash-linear-attention a4a2624b moved\n"
    "`grid = (NV, N * HQ)` to `grid = (NV * N * HQ,)` in 18 decode kernels), a\n"
    "table of more than 65535 rows (ggml d71b15e2).\n"
    "\n"
    "## Example\n"
    "```python\n"
    "N, HQ = q.shape[0], q.shape[2]\n"
    "grid = (triton.cdiv(V, BV), N * HQ)\n"
    "decode_kernel[grid](q, k, v, o, ...)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "NV = triton.cdiv(V, BV)\n"
    "grid = (NV * N * HQ,)          # axis 0 allows 2^31-1 programs\n"
    "decode_kernel[grid](q, k, v, o, ...)\n"
    "# in the kernel:\n"
    "pid = tl.program_id(0)\n"
    "i_v, i_nh = pid % NV, pid // NV\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Put the large extent on axis 0 (x), which allows 2^31-1, and split the\n"
    "program id in the kernel with `//` and `%`; or clamp the axis to 65535\n"
    "(`min(n, 65535)`) and loop in the kernel over `tl.program_id(1)` in steps\n"
    "of `tl.num_programs(1)` (`blockIdx.y` in steps of `gridDim.y`). Blocks:\n"
    "at most 1024 threads.\n"
    "\n"
    "## References\n"
    "- fla-org/flash-linear-attention a4a2624b (\"Fix invalid launch above 65535 blocks in decode-path kernels\").\n"
    "- ggml-org/ggml d71b15e2 (get_rows_back for tables with more than 65535 rows: grid-y clamp and stride).\n"
    "- CUDA C++ Programming Guide, \"Features and Technical Specifications\": maximum grid and block dimensions.\n";

#define KC_GRID_X_MAX 2147483647LL
#define KC_GRID_YZ_MAX 65535LL

static const char *axis_name(const kc_model *m, unsigned ax)
{
    static const char *const cuda[] = {"grid x", "grid y", "grid z"};
    static const char *const triton[] = {"grid axis 0", "grid axis 1", "grid axis 2"};
    return m->lang == KC_LANG_TRITON ? triton[ax] : cuda[ax];
}

/* The fix of an axis that runs one program per row. */
static void rows_fix_note(kc_diag *d, unsigned ax)
{
    kc_diag_note(d, "put the rows on axis 0 and split `tl.program_id(0)` with `//` and `%%` in the kernel, or launch "
                 "`min(rows, 65535)` programs along this axis and loop over the rest in steps of "
                 "`tl.num_programs(%u)`",
                 ax);
}

static void check_grid(const kc_model *m, const kc_launch *l, kc_rule_ctx *ctx)
{
    for (unsigned ax = 0; ax < 3; ax++) {
        const kc_grid_axis *g = &l->grid[ax];
        kc_span at = kc_span_valid(g->span) ? g->span : l->span;
        int64_t limit = ax == 0 ? KC_GRID_X_MAX : KC_GRID_YZ_MAX;
        if (g->hazard == KC_GRID_CONST && g->value > limit) {
            kc_diag *d = kc_report(ctx, NULL, at, "%s of this launch is %lld: the limit is %lld", axis_name(m, ax),
                                   (long long)g->value, (long long)limit);
            kc_diag_note(d, "the launch of `%s` always fails (\"invalid configuration argument\")", l->kernel);
        } else if (g->hazard == KC_GRID_ROWS) {
            kc_diag *d = kc_report(ctx, NULL, at,
                                   "%s runs one program per row of a tensor flattened into rows: past 65535 "
                                   "rows the launch fails",
                                   axis_name(m, ax));
            kc_diag_note(d, "%s; grid axes 1 and 2 allow at most 65535 programs, and 65536 rows (the tokens of a "
                         "batch, the matrices of a batched op) is an ordinary size (grid axis 0 allows 2^31-1)",
                         g->why);
            rows_fix_note(d, ax);
        } else if (g->hazard == KC_GRID_FIRST_DIM && g->matrix) {
            kc_diag *d = kc_report(ctx, NULL, at,
                                   "%s runs one program per row of a matrix: past 65535 rows the launch fails",
                                   axis_name(m, ax));
            d->severity = KC_SEV_WARNING;
            kc_diag_note(d, "%s, a 2-D tensor: its rows are the tokens of a batch or the entries of a table, and "
                         "65536 of them is an ordinary size; grid axes 1 and 2 allow at most 65535 programs (grid "
                         "axis 0 allows 2^31-1)",
                         g->why);
            rows_fix_note(d, ax);
        } else if (g->hazard == KC_GRID_FIRST_DIM) {
            kc_diag *d = kc_report(ctx, NULL, at, "%s is `%s`: the launch fails if it passes 65535", axis_name(m, ax),
                                   g->text);
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "%s, one program per index: kcheck cannot tell whether that dimension is a batch, "
                         "which stays small, or the rows of the tensor (tokens), which pass 65535 (a matrix's rows "
                         "named like a batch, `B`, `bs`, `batch_size`, are taken for samples; %s allows 2^31-1)",
                         g->why, axis_name(m, 0));
            kc_diag_note(d, "put it on axis 0 and split `tl.program_id(0)` with `//` and `%%` in the kernel, or clamp "
                         "the axis with `min(..., 65535)` and loop in the kernel");
        } else if (g->hazard == KC_GRID_PRODUCT) {
            kc_diag *d = kc_report(ctx, NULL, at, "%s is `%s`: the launch fails if it passes 65535", axis_name(m, ax),
                                   g->text);
            d->severity = KC_SEV_NOTE;
            kc_diag_note(d, "%s, and kcheck cannot tell how large they get: their product passes %s's limit of "
                         "65535 at sizes some workloads reach (2048 sequences of 32 heads is 65536; %s allows "
                         "2^31-1)",
                         g->why, axis_name(m, ax), axis_name(m, 0));
            kc_diag_note(d, "%s",
                         m->lang == KC_LANG_TRITON
                             ? "fold it into axis 0 (`grid = (NV * N * H,)`) and split `tl.program_id(0)` with `//` and "
                               "`%` in the kernel, or clamp the axis with `min(..., 65535)` and loop in the kernel"
                             : "put it on grid x and split `blockIdx.x` with `/` and `%` in the kernel, or clamp it "
                               "with `min(..., 65535)` and loop over `blockIdx.y` in steps of `gridDim.y`");
        }
    }
}

static void check_block(const kc_launch *l, kc_rule_ctx *ctx)
{
    const int64_t *b = l->block_dim;
    if (b[0] <= 0 || b[1] <= 0 || b[2] <= 0)
        return;
    int64_t threads = b[0] * b[1] * b[2];
    kc_span at = kc_span_valid(l->block_span) ? l->block_span : l->span;
    if (threads > 1024 || b[0] > 1024 || b[1] > 1024 || b[2] > 64) {
        kc_diag *d = kc_report(ctx, NULL, at, "a block of %lld x %lld x %lld = %lld threads: the limit is 1024 "
                               "threads (and 64 along z)",
                               (long long)b[0], (long long)b[1], (long long)b[2], (long long)threads);
        kc_diag_note(d, "the launch of `%s` always fails (\"invalid configuration argument\"); give the block at most "
                     "1024 threads and let each thread do more work, or launch more blocks",
                     l->kernel);
    }
}

static void check_model(const kc_model *m, kc_rule_ctx *ctx)
{
    for (uint32_t i = 0; i < m->launches.len; i++) {
        check_grid(m, &m->launches.data[i], ctx);
        check_block(&m->launches.data[i], ctx);
    }
}

const kc_rule kc602_launch_grid_limit = {
    .id = "KC602",
    .slug = "launch-grid-limit",
    .summary = "A launch whose grid (y/z over 65535, x over 2^31-1) or block (over 1024 threads) can pass the "
               "hardware limits.",
    .severity = KC_SEV_ERROR,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = NULL,
    .verify = KC_VERIFY_NONE,
    .check_model = check_model,
};
