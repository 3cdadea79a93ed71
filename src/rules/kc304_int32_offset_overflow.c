/* KC304 int32-offset-overflow: an address term that multiplies a program
 * id, a loop index or a loaded index by a runtime size or stride in 32-bit
 * arithmetic.
 *
 * Reads: kc_access.offset monomials (kc_mono.bits: the width each product
 * was computed in), symbol facts, loop trip counts, and the optional
 * kc_kernel.products records that name the exact product expression and
 * how to spell its operand in 64 bits (front ends that record them get a
 * precise location and a fix-it; without them the finding points at the
 * access). */
#include "rule_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a product computed in 32-bit integers that flows into a memory address\n"
    "when one factor is an index that grows with the problem (a program or block\n"
    "id, a loop variable with a run-time trip count, an index loaded from memory and\n"
    "kept in 32 bits) and another is a run-time size or stride argument: `row *\n"
    "row_stride`, `offs_m[:, None] * stride_am`, `blockIdx.x * n`.\n"
    "\n"
    "Products of an index with a constant or a block size, and terms that vary\n"
    "only across the lanes of a block (`tl.arange(0, BLOCK) * stride`,\n"
    "`threadIdx.x * n`, bounded by the block size) are not reported. A stride\n"
    "argument that the launch passes as the innermost stride (`x.stride(-1)`) is\n"
    "presumed to be 1, and so is the stride of a tensor addressed through one\n"
    "stride only (1-D) or through an address no lane varies (a per-row statistic).\n"
    "\n"
    "Severity: in Triton, a warning where the launch shows the product spanning a\n"
    "tensor with every leading dimension flattened into its rows: the grid counts the\n"
    "rows of `x.view(-1, N)`, `x.reshape(-1, x.shape[-1])`, `x.flatten(0, -2)`,\n"
    "`x.numel() // N` or `batch * seq_len` (one call level up too), and the\n"
    "factor is that tensor's row stride or row length: the token count of a\n"
    "batch of activations, which passes 2^31 elements in long-context training\n"
    "(the Triton layer-norm tutorial's pattern, fixed in the libraries that\n"
    "copied it; `-o KC304.flattened-rows=0` turns this off). Over the two\n"
    "leading dimensions of a 4-D `q` (`B * H`), `x.stride(1)` of a tensor the\n"
    "host code shows to have another rank (the (B, H, K) statistics of\n"
    "attention: made so, saved for the backward, or a `.sum(0)` of a 4-D one)\n"
    "is no row stride of those rows. Where the grid\n"
    "counts every row of a tensor's first dimension (`M, K = a.shape` and a grid\n"
    "of `M` or `cdiv(M, BLOCK_M)`) and the factor is that same tensor's\n"
    "`stride(0)` (or `K` of a 2-D tensor), passed at run time, the product spans\n"
    "that whole tensor too, but the tensor may be anything (logits of a\n"
    "vocabulary, or a small weight): the note says so, and\n"
    "`-o KC304.first-dim-rows=1` makes these warnings. A file that computes\n"
    "such an offset in 64 bits elsewhere (the author expects some tensor past\n"
    "2^31 elements) is said in the note of such a product and of an index the\n"
    "kernel bounds by a run-time extent (`offs_m < seq_len`) times a stride the\n"
    "launch passes as an outer one; `-o KC304.widened-elsewhere=1` makes those\n"
    "warnings (on four code bases never tuned on, 3 of 24 were true: the widened\n"
    "offset was another tensor's). Widening elsewhere raises no\n"
    "other product: a head, group or expert index times a stride stays within\n"
    "a bounded part of its tensor. A product that addresses a smaller tensor\n"
    "is a note, whatever else holds, and so is an offset the address adds after\n"
    "batch and head bases computed in 64 bits (`off_z.to(tl.int64) * stride_qz +\n"
    "off_h.to(tl.int64) * stride_qh + offs_m * stride_qm`: it moves within one head\n"
    "of one sample). A loaded index is not evidence of widening (its width is\n"
    "that of a tensor made elsewhere). A smaller tensor: a tensor the launching code makes from the\n"
    "extents of the tensor whose rows the grid counts, one of them left out\n"
    "(`x.new_empty(B, H, D)` or `torch.zeros(B, H, K, V)` next to a grid of `B * H`\n"
    "over a (B, H, T, D) `x`: an initial or final recurrent state; `torch.empty((B,\n"
    "H, T))` or `torch.empty(B * H, T)`: a statistic per position such as a\n"
    "log-sum-exp; extents multiplied together count one by one), or the same\n"
    "product where the kernel adds it to such a tensor too; an offset into it\n"
    "stays below its size, which has no factor of the extent left out. One the\n"
    "caller passes in, with no such sibling, is judged like any tensor.\n"
    "A note elsewhere:\n"
    "a size limit of the code as a whole, shown with\n"
    "`--severity note` (notes are not shown by default). In CUDA code\n"
    "it is always a note: CUDA code widens the offsets of the tensors it expects\n"
    "to be large and leaves the others (activations bounded by the batch, small\n"
    "dimensions) in 32 bits on purpose, which kcheck cannot tell apart.\n"
    "\n"
    "## Why is this bad?\n"
    "`tl.program_id` is an `int32`, and so is an integer argument unless a value of\n"
    "2^31 or more is passed (Triton then specializes it as `int64`); `blockIdx.x` and\n"
    "an `int` parameter are 32-bit in CUDA. Their product is computed in 32 bits\n"
    "*before* it is added to the pointer, so once the offset passes 2^31 - 1 it\n"
    "wraps to a negative number and the kernel reads or writes out of bounds\n"
    "(or silently reads the wrong row). Each factor fits in 32 bits, so nothing\n"
    "is specialized: `row * row_stride` overflows as soon as the tensor holds\n"
    "more than 2^31 elements: 8 GiB of fp32, a 32k-token batch of 128k-vocabulary\n"
    "logits. Libraries have fixed exactly this in kernel after kernel.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "row = tl.program_id(0)\n"
    "x = tl.load(X + row * stride + cols, mask=cols < n_cols)\n"
    "```\n"
    "```cuda\n"
    "int row = blockIdx.x;\n"
    "float v = x[row * n + threadIdx.x];\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "row = tl.program_id(0).to(tl.int64)\n"
    "x = tl.load(X + row * stride + cols, mask=cols < n_cols)\n"
    "```\n"
    "```cuda\n"
    "int64_t row = blockIdx.x;\n"
    "float v = x[row * n + threadIdx.x];\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Widen the index factor to 64 bits before the multiplication: the fix-it\n"
    "rewrites the operand as `row.to(tl.int64)` (Triton) or `(int64_t)row` (CUDA).\n"
    "Where the product initializes a 32-bit CUDA variable (`int row = blockIdx.x\n"
    "* n;`) the cast alone would be narrowed straight back, so the fix-it also\n"
    "declares the variable `int64_t` (`uint64_t` for an unsigned one); where the\n"
    "declaration is not spelled with plain integer words (a macro, a typedef, a\n"
    "second declarator) there is no fix-it, only the advice.\n"
    "Casting the program id once where it is defined widens every product that\n"
    "uses it; casting the result of the product is too late. The cost is nil on\n"
    "memory-bound kernels.\n"
    "\n"
    "## References\n"
    "- linkedin/Liger-Kernel PR #251 (cross-entropy), PR #804 (RMSNorm, RoPE), issue #1335.\n"
    "- sgl-project/sglang PR #4727; vllm-project/vllm PR #34279; karpathy/llm.c PR #155.\n"
    "- Row kernels over flattened activations: Liger-Kernel issue #803 (seq_len * hidden > 2^31)\n"
    "  and #1483, pytorch/pytorch issue #181555 (layer_norm past 2^32 elements),\n"
    "  PaddlePaddle/Paddle PR #79528 (rms_norm on [1, 1048576, 7168]); the xformers and mamba\n"
    "  fixes in bench/realbugs/manifest.tsv.\n"
    "- Triton `semantic.py`: `program_id` is `int32`; integer products keep the operand width.\n"
    "- The premise, measured on an H200 (`bench/premise/triton_premises.py`,\n"
    "  docs/measurements/triton-premises-h200.txt): the tutorial layer norm over 65600 x 32768\n"
    "  rows (2^31 + 2^21 elements) faults with an illegal address with `row * stride` in\n"
    "  int32, and is correct with the row index cast to int64.\n";

/* A factor that grows with the problem: it selects a row, a tile or an
 * element of a large dimension. */
static bool index_atom(const kc_kernel *k, const kc_atom *a)
{
    switch ((kc_atom_kind)a->kind) {
    case KC_ATOM_PROGRAM:
    case KC_ATOM_DATA:
        return true;
    case KC_ATOM_LOOP:
        return a->id < k->loops.len && k->loops.data[a->id].trip_count < 0;
    case KC_ATOM_OPAQUE:
        /* Derived from the program id. A value computed from loaded data
         * has the width of data whose type is not known: not reported. */
        return (a->flags & KC_AF_PROGRAM) != 0;
    default:
        return false;
    }
}

/* How far an index factor ranges, from the comparisons that bound it
 * (masks, guards) or its loop's bounds. */
typedef enum irange { IR_UNKNOWN = 0, IR_SMALL, IR_LARGE } irange;

static bool is_runtime_param(const kc_kernel *k, uint32_t sym)
{
    if (sym >= k->symbols.len)
        return false;
    const kc_symbol *s = &k->symbols.data[sym];
    return s->kind == KC_SYM_PARAM && !(s->facts & KC_SF_POINTER);
}

/* LARGE when the bound mentions a run-time argument, SMALL when it is made
 * of constants and compile-time constants only. */
static irange bound_range(const kc_kernel *k, const kc_index *b)
{
    if (!b)
        return IR_UNKNOWN;
    for (unsigned i = 0; i < b->nmono; i++)
        for (unsigned f = 0; f < b->mono[i].nfac; f++) {
            const kc_atom *a = &b->mono[i].fac[f];
            if (a->kind == KC_ATOM_SYMBOL && is_runtime_param(k, a->id))
                return IR_LARGE;
            if (a->kind != KC_ATOM_SYMBOL)
                return IR_UNKNOWN;
        }
    return IR_SMALL;
}

static bool index_has_atom(const kc_index *x, const kc_atom *a);

static irange index_range(const kc_kernel *k, const kc_atom *a)
{
    if (a->kind == KC_ATOM_LOOP) {
        if (a->id >= k->loops.len)
            return IR_UNKNOWN;
        return bound_range(k, k->loops.data[a->id].end);
    }
    if (a->kind != KC_ATOM_PROGRAM && a->kind != KC_ATOM_OPAQUE)
        return IR_UNKNOWN;
    irange r = IR_UNKNOWN;
    for (uint32_t i = 0; i < k->compares.len; i++) {
        const kc_pred *p = &k->compares.data[i];
        bool l = index_has_atom(p->lhs, a), rr = index_has_atom(p->rhs, a);
        if (l == rr)
            continue;
        irange b = bound_range(k, l ? p->rhs : p->lhs);
        if (b == IR_LARGE)
            return IR_LARGE;
        if (b == IR_SMALL)
            r = IR_SMALL;
    }
    return r;
}

/* Is `ix` the program id of a grid axis that counts the rows of a
 * flattened tensor, and `f` that tensor's row stride or row extent at
 * every launch (kc_kernel.grid_rows, kc_symbol.row_axes)? */
static bool row_symbol(const kc_kernel *k, const kc_atom *ix, const kc_atom *f)
{
    return ix->kind == KC_ATOM_PROGRAM && ix->id < 3 && k->grid_rows[ix->id] && f->kind == KC_ATOM_SYMBOL &&
           f->id < k->symbols.len && (k->symbols.data[f->id].row_axes & (1u << ix->id));
}

/* Is `f` a row factor of the tensor the grid's axis of `ix` counts: its
 * row stride or row length, or one of its trailing extents with another
 * in the product (`i_bh * T * K`)? One alone (`i_bh * T` of a (B, H, T, K)
 * tensor) spans a tensor without the others, a per-position statistic.
 * The product is a hazard worth a finding; whether it spans the whole
 * tensor is spans_rows'. */
static bool scales_rows(const kc_kernel *k, const kc_mono *m, const kc_atom *ix, const kc_atom *f)
{
    if (!row_symbol(k, ix, f))
        return false;
    uint8_t bit = (uint8_t)(1u << ix->id);
    if (!(k->symbols.data[f->id].row_part_axes & bit))
        return true;
    for (unsigned i = 0; m && i < m->nfac; i++)
        if (&m->fac[i] != f && &m->fac[i] != ix && row_symbol(k, ix, &m->fac[i]))
            return true;
    return false;
}

/* Does the product span the whole tensor the grid counts rows of: as
 * scales_rows, but the last of three or more trailing extents counts only
 * with an earlier one (`i_bh * T * K`); alone (`i_bh * K`) or with another
 * last extent (`i_bh * K * V`, K = k.shape[-1], V = v.shape[-1]) it spans
 * B * H * K (* V) elements, a per-head vector or state, whatever it is
 * added to. */
static bool spans_rows(const kc_kernel *k, const kc_mono *m, const kc_atom *ix, const kc_atom *f)
{
    if (!scales_rows(k, m, ix, f))
        return false;
    uint8_t bit = (uint8_t)(1u << ix->id);
    bool last = k->symbols.data[f->id].row_last_axes & bit, part = k->symbols.data[f->id].row_part_axes & bit;
    for (unsigned i = 0; m && i < m->nfac && (last || part); i++) {
        const kc_atom *g = &m->fac[i];
        if (g == f || g == ix || !row_symbol(k, ix, g))
            continue;
        if (part || (k->symbols.data[g->id].row_part_axes & bit))
            return !(k->symbols.data[g->id].row_last_axes & bit) || !last;
    }
    return !last;
}

/* Every value the launches pass is 0 or 1 (a unit stride, a broadcast). */
static bool tiny_values(const kc_symbol *s)
{
    bool tiny = s->nvalues > 0;
    for (uint32_t i = 0; i < s->nvalues; i++)
        tiny &= s->values[i] == 0 || s->values[i] == 1;
    return tiny;
}

/* A size or stride only known at run time and not known to be tiny
 * (any_width: also one declared 64-bit). A compile-time problem size
 * (a tl.constexpr the launch sets from a tensor extent) counts only with
 * an index known to range over a run-time size. */
static bool runtime_atom_w(const kc_kernel *k, const kc_atom *a, bool any_width)
{
    if (a->kind != KC_ATOM_SYMBOL || a->id >= k->symbols.len)
        return false;
    const kc_symbol *s = &k->symbols.data[a->id];
    if (s->facts & (KC_SF_POINTER | KC_SF_INNER_STRIDE))
        return false;
    /* A compile-time size counts only when the launch sets it from a tensor
     * extent (H = q.shape[2]); a tile size compared with lanes does not. */
    if (s->kind == KC_SYM_CONSTEXPR && !(s->facts & KC_SF_SHAPE_ARG))
        return false;
    if (s->kind != KC_SYM_PARAM && s->kind != KC_SYM_CONSTEXPR)
        return false;
    if (s->bits == 64 && !any_width)
        return false;
    return !tiny_values(s);
}

static bool runtime_atom(const kc_kernel *k, const kc_atom *a) { return runtime_atom_w(k, a, false); }

/* Does every factor of `small` occur in `big` (as a multiset)? */
static bool mono_divides(const kc_mono *small, const kc_mono *big)
{
    bool used[KC_MONO_MAX_FACTORS] = {false};
    for (unsigned i = 0; i < small->nfac; i++) {
        bool found = false;
        for (unsigned j = 0; j < big->nfac && !found; j++)
            if (!used[j] && kc_atom_same(&small->fac[i], &big->fac[j]))
                used[j] = found = true;
        if (!found)
            return false;
    }
    return true;
}

static bool index_has_atom(const kc_index *x, const kc_atom *a)
{
    return kc_index_has_atom(x, (kc_atom_kind)a->kind, a->id);
}

/* A hazardous monomial of an access offset. */
typedef struct hazard {
    uint32_t access;
    const kc_mono *mono;
    const kc_atom *index;   /* the factor that grows with the problem */
    const kc_atom *runtime; /* the run-time size or stride */
    uint32_t outer, inner;  /* product records: where to report, where to widen (KC_NONE: none) */
    bool branch;            /* read from a product record: the access's offset was merged from branches */
} hazard;

/* A run-time factor known to be large: a size, or an outer stride. */
static bool known_large(const kc_kernel *k, const kc_atom *a)
{
    return a->id < k->symbols.len &&
           (k->symbols.data[a->id].facts & (KC_SF_SIZE | KC_SF_PROBLEM_SIZE | KC_SF_SHAPE_ARG | KC_SF_OUTER_STRIDE));
}

/* scalar: no lane varies the address, one element per program or block
 * (RSTD + row * stride):
 * through a stride nothing is known about it presumably indexes a 1-D
 * tensor (per-row statistics, labels, losses), whose stride is 1. */
static bool hazardous(const kc_kernel *k, const kc_mono *m, bool scalar, const kc_atom **ix, const kc_atom **rt)
{
    if (m->bits != 32 || m->nfac < 2)
        return false;
    *ix = *rt = NULL;
    const kc_atom *ct = NULL, *ct_row = NULL;
    irange range = IR_UNKNOWN;
    for (unsigned f = 0; f < m->nfac; f++) {
        if (!*ix && index_atom(k, &m->fac[f])) {
            *ix = &m->fac[f];
            range = index_range(k, *ix);
        }
    }
    if (!*ix || range == IR_SMALL)
        return false;
    for (unsigned f = 0; f < m->nfac; f++) {
        /* a row length (`pid * (n_heads * head_dim)`, constexpr or not) of
         * the tensor whose rows the program id's axis counts */
        if (!ct_row && &m->fac[f] != *ix && scales_rows(k, m, *ix, &m->fac[f]) &&
            !tiny_values(&k->symbols.data[m->fac[f].id]) &&
            (!(k->grid_rows_dim0 & (1u << (*ix)->id)) || k->symbols.data[m->fac[f].id].kind != KC_SYM_CONSTEXPR))
            ct_row = &m->fac[f];
        if (&m->fac[f] == *ix || !runtime_atom(k, &m->fac[f]))
            continue;
        if (is_runtime_param(k, m->fac[f].id)) {
            if (scalar && !known_large(k, &m->fac[f]))
                continue;
            *rt = &m->fac[f];
            break;
        }
        if (!ct)
            ct = &m->fac[f];
    }
    if (!*rt && ct && range == IR_LARGE)
        *rt = ct;
    if (!*rt && ct_row)
        *rt = ct_row;
    return *ix && *rt;
}

/* The product records around monomial m that contain the index factor:
 * the largest (the expression to point at) and the smallest (the operand
 * to widen). */
static void match_products(const kc_kernel *k, hazard *h)
{
    unsigned best_outer = 0, best_inner = KC_MONO_MAX_FACTORS + 1;
    h->outer = h->inner = KC_NONE;
    const kc_access *a = &k->accesses.data[h->access];
    uint32_t n = a->nproducts ? a->nproducts : k->products.len;
    for (uint32_t pi = 0; pi < n; pi++) {
        uint32_t p = a->nproducts ? a->products[pi] : pi;
        if (p >= k->products.len)
            continue;
        const kc_product *pr = &k->products.data[p];
        if (pr->bits != 32 || !pr->value)
            continue;
        for (unsigned i = 0; i < pr->value->nmono; i++) {
            const kc_mono *m = &pr->value->mono[i];
            if (m->bits != 32 || m->nfac < 2 || !mono_divides(m, h->mono))
                continue;
            bool has_index = false;
            for (unsigned f = 0; f < m->nfac; f++)
                has_index |= kc_atom_same(&m->fac[f], h->index);
            if (!has_index)
                continue;
            if (m->nfac > best_outer) {
                best_outer = m->nfac;
                h->outer = p;
            }
            if (m->nfac < best_inner && (index_has_atom(pr->lhs, h->index) != index_has_atom(pr->rhs, h->index))) {
                best_inner = m->nfac;
                h->inner = p;
            }
        }
    }
}

static const char *index_kind(const kc_kernel *k, const kc_atom *a)
{
    switch ((kc_atom_kind)a->kind) {
    case KC_ATOM_PROGRAM:
        return "a program (block) id";
    case KC_ATOM_LOOP:
        return "a loop variable whose trip count is only known at run time";
    case KC_ATOM_DATA:
        return "an index loaded from memory and kept in 32 bits";
    case KC_ATOM_OPAQUE:
        return "derived from the program (block) id";
    default:
        (void)k;
        return "an index";
    }
}

static const char *access_desc(kc_rule_ctx *ctx, const kc_access *a)
{
    const char *what = a->kind == KC_ACC_STORE ? "store to" : a->kind == KC_ACC_ATOMIC ? "atomic on" : "load from";
    return kc_arena_printf(kc_rule_arena(ctx), "the %s `%s` on line %u", what, a->base_name ? a->base_name : "memory",
                           a->span.line);
}

/* A tensor's first dimension counted by the grid (not shown flattened)
 * counts when its factor is a run-time stride or length: a compile-time
 * row length is a model dimension (heads, a head size), and a tensor of
 * such rows passes 2^31 elements only with tens of millions of them. */
static bool first_dim_rows(const kc_kernel *k, const kc_atom *f)
{
    return f->kind == KC_ATOM_SYMBOL && f->id < k->symbols.len && k->symbols.data[f->id].kind != KC_SYM_CONSTEXPR;
}

/* Does an access of the kernel address a per-sequence state of the tensor
 * whose rows the program id `h->index` counts (kc_symbol.state_axes) with
 * the hazard's product, as a term of its offset? An in-bounds offset into
 * the state stays below its size, so the product does too, whichever
 * pointer it is added to. The access, or NULL. */
static const kc_access *state_access(const kc_kernel *k, const hazard *h)
{
    if (h->index->kind != KC_ATOM_PROGRAM || h->index->id >= 3)
        return NULL;
    const kc_access *best = NULL;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (!a->offset || a->base >= k->symbols.len || !(k->symbols.data[a->base].state_axes & (1u << h->index->id)))
            continue;
        for (unsigned mi = 0; mi < a->offset->nmono; mi++) {
            const kc_mono *m = &a->offset->mono[mi];
            if (mono_divides(m, h->mono) && mono_divides(h->mono, m) && llabs(m->coef) >= llabs(h->mono->coef) &&
                (!best || i == h->access))
                best = a;
        }
    }
    return best;
}

/* The terms of the access's own offset that select a slice of the tensor
 * in 64 bits (`off_z.to(tl.int64) * stride_qz`, a batch or a head base): a
 * program index other than the hazard's own, times a run-time stride,
 * computed in 64 bits. The hazard's product then moves within that
 * slice. Copies them into out (KC_INDEX_MAX_MONOS); their count. */
static uint16_t wide_bases(const kc_kernel *k, const hazard *h, kc_mono *out)
{
    const kc_access *a = &k->accesses.data[h->access];
    uint16_t n = 0;
    if (!a->offset)
        return 0;
    for (unsigned mi = 0; mi < a->offset->nmono && n < KC_INDEX_MAX_MONOS; mi++) {
        const kc_mono *mo = &a->offset->mono[mi];
        if (mo->bits != 64 || mo->nfac < 2 || mo == h->mono)
            continue;
        bool prog = false, rt = false, lane = false;
        for (unsigned f = 0; f < mo->nfac; f++) {
            const kc_atom *x = &mo->fac[f];
            if (x->kind == KC_ATOM_LANE || (x->flags & (KC_AF_THREAD | KC_AF_DATA)) || x->kind == KC_ATOM_LOOP)
                lane = true;
            else if ((x->kind == KC_ATOM_PROGRAM || (x->kind == KC_ATOM_OPAQUE && (x->flags & KC_AF_PROGRAM))) &&
                     !kc_atom_same(x, h->index))
                prog = true;
            else if (x->kind == KC_ATOM_SYMBOL && x->id < k->symbols.len &&
                     !(k->symbols.data[x->id].facts & KC_SF_POINTER))
                rt = true; /* a stride, whatever the launch says of it */
        }
        if (prog && rt && !lane)
            out[n++] = *mo;
    }
    return n;
}

/* The address selects a slice in 64 bits first (batch and head bases):
 * the product moves within one head of one sample, which passes 2^31
 * elements only when that slice does. Makes the finding a note and says
 * so; false when no hazard's address does. */
static bool slice_note(const kc_kernel *k, kc_diag *d, const hazard *hs, uint32_t n, const char *prod)
{
    for (uint32_t i = 0; i < n; i++) {
        kc_mono bases[KC_INDEX_MAX_MONOS];
        uint16_t nb = wide_bases(k, &hs[i], bases);
        /* one base may be a batch index alone over (B, T, C), whose slice
         * is a whole sequence of activations; two (batch and head) leave
         * one head's positions */
        if (nb < 2)
            continue;
        const kc_access *a = &k->accesses.data[hs[i].access];
        kc_strbuf bt = {0};
        kc_index all = {.mono = bases, .nmono = nb, .bits = 64};
        kc_model_format_index(k, &all, &bt);
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: the address of `%s` (line %u) adds `%s` in 64 bits, the slice each "
                     "program selects along its other axes, and `%s` is an offset within that slice: it wraps only "
                     "if one slice passes 2^31 elements",
                     a->base_name ? a->base_name : "memory", a->span.line, kc_sb_str(&bt), prod);
        kc_sb_free(&bt);
        return true;
    }
    return false;
}

/* Why the finding is a warning or a note: the launch shows the product
 * spanning a whole tensor, the file widens other offsets, or neither (a
 * note: a size limit of the code as a whole). */
static void explain_severity(kc_rule_ctx *ctx, const kc_kernel *k, kc_diag *d, const hazard *hs, uint32_t n,
                             const char *prod, const char *widened_elsewhere, uint32_t widened_line)
{
    /* The product addresses a tensor made from the counted tensor's
     * extents less one (an initial or final recurrent state without the
     * sequence length, a per-position statistic without the head
     * dimension): it stays below that tensor's size. */
    for (uint32_t i = 0; i < n; i++) {
        const kc_access *st = state_access(k, &hs[i]);
        if (!st)
            continue;
        const kc_symbol *ss = &k->symbols.data[st->base];
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: `%s` %s `%s` (line %u), and an offset into it stays below its size: "
                     "%s; it has no element per position along the extent left out, so it stays far below the "
                     "tensors that do",
                     prod, st == &k->accesses.data[hs[i].access] ? "indexes" : "also indexes", ss->name,
                     st->span.line, ss->state_evidence ? ss->state_evidence : "the launch makes it");
        return;
    }
    if (slice_note(k, d, hs, n, prod))
        return;
    /* The launch runs one program per row of a tensor with its leading
     * dimensions flattened (the token count of a batch): the row index
     * times the row stride spans the whole tensor. */
    const hazard *row = NULL, *span = NULL;
    bool dim0_warns = kc_rule_option_int(ctx, "first-dim-rows", 0) != 0;
    bool elsewhere_warns = kc_rule_option_int(ctx, "widened-elsewhere", 0) != 0;
    for (uint32_t i = 0; i < n && !row && kc_rule_option_int(ctx, "flattened-rows", 1) != 0; i++) {
        if (!spans_rows(k, hs[i].mono, hs[i].index, hs[i].runtime))
            continue;
        if (!(k->grid_rows_dim0 & (1u << hs[i].index->id)))
            row = &hs[i];
        else if (first_dim_rows(k, hs[i].runtime)) {
            if (dim0_warns)
                row = &hs[i];
            else if (!span)
                span = &hs[i];
        }
    }
    /* An index the kernel bounds by a run-time extent (`offs_m < seq_len`),
     * or one it loaded from memory (a gather's row: a token or permutation
     * index), times a stride the launch passes as an outer one: it runs
     * over a problem dimension of the tensor, not over its heads. */
    const hazard *extent = NULL;
    for (uint32_t i = 0; i < n && !extent; i++) {
        if (hs[i].runtime->kind != KC_ATOM_SYMBOL || hs[i].runtime->id >= k->symbols.len)
            continue;
        unsigned facts = k->symbols.data[hs[i].runtime->id].facts;
        /* a gathered row times any run-time stride but an innermost one:
         * the launch may be in another file */
        if ((index_range(k, hs[i].index) == IR_LARGE && (facts & KC_SF_OUTER_STRIDE)) ||
            (hs[i].index->kind == KC_ATOM_DATA && is_runtime_param(k, hs[i].runtime->id) &&
             !(facts & KC_SF_INNER_STRIDE)))
            extent = &hs[i];
    }
    if (row) {
        char rb2[256];
        const kc_symbol *rs = &k->symbols.data[row->runtime->id];
        bool dim0 = k->grid_rows_dim0 & (1u << row->index->id);
        kc_diag_note(d, "reported as a warning: %s, and `%s` is its %s at that launch: `%s` spans the whole "
                     "tensor, %s",
                     k->grid_rows[row->index->id], kc_atom_name(k, row->runtime, rb2, sizeof rb2),
                     (rs->facts & KC_SF_OUTER_STRIDE) ? "row stride" : "row stride or a row extent", prod,
                     dim0 ? "so it wraps once the tensor holds 2^31 elements (a 32768-token batch of 65536-wide "
                            "logits)"
                          : "so it wraps once the tensor holds 2^31 elements (4 GiB of bf16: a batch of 262144 "
                            "tokens of 8192 features, whatever its layout); whether this project's tensors grow "
                            "that large its configuration decides");
    }
    if (row) {
        if (widened_elsewhere && k->lang != KC_LANG_CUDA)
            kc_diag_note(d, "this file computes such offsets in 64 bits elsewhere (%s, line %u): this product was "
                         "missed",
                         widened_elsewhere, widened_line);
    } else if (widened_elsewhere && k->lang == KC_LANG_CUDA) {
        /* CUDA code widens offsets for some tensors and not for others on
         * purpose (activations bounded by the batch, small dimensions):
         * 60 of 68 such warnings on five CUDA code bases were false. */
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: this file computes other offsets in 64 bits (%s, line %u), but CUDA code "
                     "widens only the tensors it expects to be large, and kcheck cannot tell whether this one can "
                     "pass 2^31 elements",
                     widened_elsewhere, widened_line);
    } else if (widened_elsewhere && (span || extent)) {
        /* The author expects some tensor past 2^31 elements, and the launch
         * shows this product spanning a whole tensor (every row of its
         * first dimension times its row stride), or its index runs over a
         * problem dimension. That tensor need not be the large one: on
         * four code bases never tuned on, 3 of 24 such warnings were true
         * (the others stayed within one head, one sequence or a small
         * per-token statistic), so they are notes unless asked for. */
        const char *sev = elsewhere_warns ? "warning" : "note";
        if (!elsewhere_warns)
            d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "this file computes such offsets in 64 bits elsewhere (%s, line %u): this product may have "
                     "been missed",
                     widened_elsewhere, widened_line);
        if (!span) {
            char rb2[256];
            if (extent->index->kind == KC_ATOM_DATA)
                kc_diag_note(d, "reported as a %s: the kernel loads its index from memory (a gathered row, "
                             "a token or permutation index) and multiplies it by the run-time stride `%s`, so "
                             "`%s` runs over the rows of the tensor",
                             sev, kc_atom_name(k, extent->runtime, rb2, sizeof rb2), prod);
            else
                kc_diag_note(d, "reported as a %s: the kernel bounds its index by a run-time extent and `%s` is "
                             "a stride the launch passes as an outer one, so `%s` runs over a problem dimension of "
                             "the tensor",
                             sev, kc_atom_name(k, extent->runtime, rb2, sizeof rb2), prod);
        }
        if (!elsewhere_warns)
            kc_diag_note(d, "whether this tensor is the one that gets large is not shown (a head, a sequence or a "
                         "per-token statistic stays far below 2^31 elements): `-o KC304.widened-elsewhere=1` "
                         "reports such products as warnings");
    } else if (widened_elsewhere) {
        /* Widening elsewhere says that some tensor of the file gets large,
         * not this one: a head index times a head-dim stride, a batch
         * index times a per-request buffer, a column of one expert's
         * weight stay far below 2^31 whatever the file does elsewhere. */
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: this file computes other offsets in 64 bits (%s, line %u), but nothing "
                     "shows this product spanning a large tensor (its index is not shown to run over the rows of "
                     "a tensor whose row stride it multiplies, nor bounded by a run-time extent times an outer "
                     "stride; a head, group or expert index times a stride spans only a bounded part of its "
                     "tensor)",
                     widened_elsewhere, widened_line);
    } else {
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: no offset in this file is widened to 64 bits, so this is a size limit "
                     "of the code as a whole (kernels written for tensors below 2^31 elements); it is a warning "
                     "where the file widens other offsets and misses this one");
    }
    if (!row && span && widened_elsewhere && k->lang != KC_LANG_CUDA) {
        char rb2[256];
        kc_diag_note(d, "reported as a %s: %s, and `%s` is its row stride or row length: `%s` spans that whole "
                     "tensor and wraps once it holds 2^31 elements, and the file widens such offsets elsewhere",
                     elsewhere_warns ? "warning" : "note", k->grid_rows[span->index->id],
                     kc_atom_name(k, span->runtime, rb2, sizeof rb2), prod);
    } else if (!row && span) {
        char rb2[256];
        kc_diag_note(d, "%s, and `%s` is its row stride or row length: `%s` spans that whole tensor and wraps once "
                     "it holds 2^31 elements; whether it gets that large is not known here (logits of a vocabulary "
                     "or a batch of activations do; a small weight or a per-request buffer does not): "
                     "`-o KC304.first-dim-rows=1` reports such products as warnings",
                     k->grid_rows[span->index->id], kc_atom_name(k, span->runtime, rb2, sizeof rb2), prod);
    }
}

static void report(const kc_model *mdl, const kc_kernel *k, kc_rule_ctx *ctx, const hazard *hs, uint32_t n,
                   const char *widened_elsewhere, uint32_t widened_line)
{
    kc_arena *ar = kc_rule_arena(ctx);
    const hazard *h = &hs[0];
    const kc_access *a = &k->accesses.data[h->access];
    char ib[256], rb[256];
    const char *iname = kc_atom_name(k, h->index, ib, sizeof ib);
    const char *rname = kc_atom_name(k, h->runtime, rb, sizeof rb);
    const kc_product *outer = h->outer != KC_NONE ? &k->products.data[h->outer] : NULL;
    const kc_product *inner = h->inner != KC_NONE ? &k->products.data[h->inner] : NULL;
    bool inner_lhs = inner && index_has_atom(inner->lhs, h->index);
    const char *cast_text = inner ? (inner_lhs ? inner->lhs_text : inner->rhs_text) : iname;

    kc_strbuf term = {0};
    {
        kc_mono one = *h->mono;
        one.coef = 1;
        kc_index ix = {.mono = &one, .nmono = 1, .bits = 32};
        kc_model_format_index(k, &ix, &term);
    }
    const char *prod = outer ? outer->text : kc_sb_str(&term);
    kc_diag *d;
    if (outer)
        d = kc_report(ctx, k, outer->span, "`%s` is int32: it overflows past 2^31 elements; cast `%s` to int64",
                      outer->text, cast_text);
    else
        d = kc_report_access(ctx, k, a,
                      "`%s` in the address of `%s` is int32: it overflows past 2^31 elements; cast `%s` to int64",
                      kc_sb_str(&term), a->base_name ? a->base_name : "memory", iname);
    /* Name the index as written, with what it is when that differs. */
    const char *ishown = cast_text;
    if (!strstr(cast_text, iname) && strlen(iname) < 40)
        ishown = kc_arena_printf(ar, "%s` (%s)", cast_text, iname);
    else
        ishown = kc_arena_printf(ar, "%s`", cast_text);
    bool ce = h->runtime->kind == KC_ATOM_SYMBOL && h->runtime->id < k->symbols.len &&
              k->symbols.data[h->runtime->id].kind == KC_SYM_CONSTEXPR;
    if (ce)
        kc_diag_note(d, "`%s is %s and `%s` a `tl.constexpr` integer below 2^31; both are 32-bit, so `%s` is "
                     "computed in 32 bits before it is added to the pointer",
                     ishown, index_kind(k, h->index), rname, prod);
    else
        kc_diag_note(d, "`%s is %s and `%s` a run-time integer argument; both are 32-bit (an argument is 64-bit "
                     "only when declared so or, in Triton, when a value of 2^31 or more is passed), so `%s` is "
                     "computed in 32 bits before it is added to the pointer",
                     ishown, index_kind(k, h->index), rname, prod);
    kc_strbuf off = {0};
    kc_model_format_index(k, a->offset, &off);
    kc_diag_note(d, "element offset of %s: %s", access_desc(ctx, a), kc_sb_str(&off));
    if (a->elem_bytes == 1 || a->elem_bytes == 2 || a->elem_bytes == 4 || a->elem_bytes == 8)
        kc_diag_note(d, "once `%s` exceeds 2147483647 (a tensor of more than 2^31 elements: %u GiB of these %u-byte "
                     "elements) the offset wraps negative and the access goes out of bounds",
                     prod, 2u * a->elem_bytes, a->elem_bytes);
    else
        kc_diag_note(d, "once `%s` exceeds 2147483647 (a tensor of more than 2^31 elements: 8 GiB of fp32, 4 GiB "
                     "of bf16) the offset wraps negative and the access goes out of bounds",
                     prod);
    explain_severity(ctx, k, d, hs, n, prod, widened_elsewhere, widened_line);
    bool rows = false, part = false;
    for (uint32_t i = 0; i < n; i++) {
        rows |= spans_rows(k, hs[i].mono, hs[i].index, hs[i].runtime);
        part |= row_symbol(k, hs[i].index, hs[i].runtime);
    }
    if (part && !rows) {
        char pb[256];
        bool last = h->runtime->id < k->symbols.len &&
                    (k->symbols.data[h->runtime->id].row_last_axes & (1u << h->index->id));
        kc_diag_note(d, "%s; `%s` is %s of the trailing extents of that tensor's rows, so `%s` spans a tensor "
                     "without the others (%s), which passes 2^31 elements only after that tensor does by the "
                     "extents left out",
                     k->grid_rows[h->index->id], kc_atom_name(k, h->runtime, pb, sizeof pb),
                     last ? "the last" : "one", prod,
                     last ? "a vector per row, or with another tensor's last extent a per-row state, whatever it "
                            "is added to"
                          : "a value per position, as a gate or a statistic");
    }
    if (h->branch && !rows && d->severity == KC_SEV_WARNING) {
        d->severity = KC_SEV_NOTE;
        kc_diag_note(d, "reported as a note: the pointer is advanced differently in the branches of an `if` "
                     "(`%s` is what one branch adds), and kcheck judges the branch's product alone",
                     prod);
    }
    const char *ev = kc_symbol_evidence(ctx, k, h->runtime->id);
    if (ev)
        kc_diag_note(d, "%s", ev);
    else if (h->runtime->id < k->symbols.len && k->symbols.data[h->runtime->id].arg_text)
        kc_diag_note(d, "the launch passes `%s` for %s", k->symbols.data[h->runtime->id].arg_text, rname);
    /* Other accesses that use the same product. */
    kc_strbuf others = {0};
    unsigned nothers = 0;
    for (uint32_t i = 1; i < n; i++) {
        if (hs[i].access == h->access)
            continue;
        bool seen = false;
        for (uint32_t j = 1; j < i; j++)
            seen |= hs[j].access == hs[i].access;
        if (seen)
            continue;
        if (nothers++ < 4)
            kc_sb_appendf(&others, "%s%s", nothers > 1 ? ", " : "", access_desc(ctx, &k->accesses.data[hs[i].access]));
    }
    if (nothers)
        kc_diag_note(d, "the same product is in the address of %s%s", kc_sb_str(&others), nothers > 4 ? ", ..." : "");
    if (inner && outer && inner != outer)
        kc_diag_note(d, "`%s` comes from `%s` on line %u, where the cast belongs", cast_text, inner->text,
                     inner->span.line);
    const char *widened = inner ? (inner_lhs ? inner->lhs_widened : inner->rhs_widened) : NULL;
    /* `int row = (int64_t)blockIdx.x * n;` narrows the product back */
    const kc_product *narrow = outer && outer->narrow_decl ? outer : inner && inner->narrow_decl ? inner : NULL;
    bool mechanical = !narrow || kc_span_valid(narrow->narrow_span); /* a cast alone would fix nothing */
    if (inner && widened && narrow && mechanical) {
        kc_diag_fix(d,
                    kc_arena_printf(ar, "compute `%s` in 64 bits: `%s`, and declare `%s` as `%s`", inner->text,
                                    widened, narrow->narrow_decl, narrow->narrow_widened),
                    inner_lhs ? inner->lhs_span : inner->rhs_span, widened);
        kc_diag_fix_edit(d, narrow->narrow_span, narrow->narrow_widened);
        kc_diag_note(d, "the product initializes `%s`, a 32-bit variable: widening the product alone would be "
                     "narrowed back to 32 bits there, so the fix widens the declaration too",
                     narrow->narrow_decl);
    } else if (inner && widened && narrow) {
        kc_diag_note(d, "fix: compute `%s` in 64 bits (`%s`) and declare `%s` (line %u) with a 64-bit type (`%s`): "
                     "the product is stored there, and a cast alone would be narrowed back",
                     inner->text, widened, narrow->narrow_decl, narrow->narrow_line, narrow->narrow_widened);
    } else if (inner && widened && !narrow)
        kc_diag_fix(d, kc_arena_printf(ar, "compute `%s` in 64 bits: `%s`", inner->text, widened),
                    inner_lhs ? inner->lhs_span : inner->rhs_span, widened);
    else if (narrow)
        kc_diag_note(d, "fix: widen `%s` to 64 bits before the multiplication, and declare `%s` (line %u) with a "
                     "64-bit type (`%s`): it holds the product",
                     cast_text, narrow->narrow_decl, narrow->narrow_line, narrow->narrow_widened);
    else
        kc_diag_note(d, "fix: widen `%s` to 64 bits before the multiplication (where it is defined, so that every "
                     "product using it is widened)",
                     cast_text);
    kc_sb_free(&term);
    kc_sb_free(&off);
    kc_sb_free(&others);
    (void)mdl;
}

static bool offset_has_data(const kc_index *x)
{
    for (unsigned i = 0; i < x->nmono; i++)
        for (unsigned f = 0; f < x->mono[i].nfac; f++)
            if (x->mono[i].fac[f].kind == KC_ATOM_DATA || (x->mono[i].fac[f].flags & KC_AF_DATA))
                return true;
    return false;
}

/* An offset product of an index and a run-time size that the file already
 * computes in 64 bits: the author expects tensors past 2^31 elements. */
static const char *find_widened(const kc_model *m, kc_rule_ctx *ctx, uint32_t *line)
{
    for (uint32_t ki = 0; ki < m->kernels.len; ki++) {
        const kc_kernel *k = m->kernels.data[ki];
        for (uint32_t i = 0; i < k->accesses.len; i++) {
            const kc_access *a = &k->accesses.data[i];
            /* an offset with a loaded value in it (`(q_start + pid) *
             * stride`, q_start from cu_seqlens) is 64-bit by the width
             * presumed for data, not by the author's choice */
            if (!a->offset || offset_has_data(a->offset))
                continue;
            for (unsigned mi = 0; mi < a->offset->nmono; mi++) {
                const kc_mono *mo = &a->offset->mono[mi];
                if (mo->bits != 64 || mo->nfac < 2)
                    continue;
                const kc_atom *ix = NULL, *rt = NULL;
                for (unsigned f = 0; f < mo->nfac; f++) {
                    /* a program or loop index the author widened; a loaded
                     * index has the width of data whose type kcheck does
                     * not know (an int32 tensor made elsewhere) */
                    bool prog = mo->fac[f].kind == KC_ATOM_PROGRAM || mo->fac[f].kind == KC_ATOM_LOOP ||
                                (mo->fac[f].kind == KC_ATOM_OPAQUE && (mo->fac[f].flags & KC_AF_PROGRAM) &&
                                 !(mo->fac[f].flags & KC_AF_DATA));
                    if (!ix && prog && index_atom(k, &mo->fac[f]))
                        ix = &mo->fac[f];
                    else if (!rt && runtime_atom_w(k, &mo->fac[f], true))
                        rt = &mo->fac[f];
                }
                if (ix && rt) {
                    *line = a->span.line;
                    return kc_arena_printf(kc_rule_arena(ctx), "the address of `%s` in %s",
                                           a->base_name ? a->base_name : "memory", k->name);
                }
            }
        }
    }
    return NULL;
}

/* Is the tensor addressed through one stride only (`w + c * stride_c`,
 * every varying term scaled by the same run-time symbol)? Then it is a 1-D
 * tensor: its index stays below its extent, which is below 2^31 while the
 * extent argument is 32-bit, and its stride is 1 unless it is a strided
 * view. */
static bool single_stride(const kc_kernel *k, const kc_index *off)
{
    uint32_t sym = KC_NONE;
    for (unsigned i = 0; i < off->nmono; i++) {
        const kc_mono *m = &off->mono[i];
        if (m->nfac == 0)
            continue;
        uint32_t here = KC_NONE;
        for (unsigned f = 0; f < m->nfac; f++)
            if (m->fac[f].kind == KC_ATOM_SYMBOL && is_runtime_param(k, m->fac[f].id)) {
                if (here != KC_NONE && here != m->fac[f].id)
                    return false;
                here = m->fac[f].id;
            }
        if (here == KC_NONE || (sym != KC_NONE && here != sym))
            return false;
        sym = here;
    }
    return sym != KC_NONE;
}

/* Is monomial m of product record p a factor of a larger product that
 * flows into the same access (`i_n * T` inside `i_n * T*H*D`)? */
static bool within_larger(const kc_kernel *k, const kc_access *a, uint32_t p, const kc_mono *m)
{
    for (uint32_t qi = 0; qi < a->nproducts; qi++) {
        uint32_t q = a->products[qi];
        if (q == p || q >= k->products.len || !k->products.data[q].value)
            continue;
        const kc_index *v = k->products.data[q].value;
        for (unsigned i = 0; i < v->nmono; i++)
            if (v->mono[i].nfac > m->nfac && mono_divides(m, &v->mono[i]))
                return true;
    }
    return false;
}

/* Has the offset a term kcheck could not express (a value merged from two
 * branches)? */
static bool opaque_offset(const kc_index *off)
{
    for (unsigned i = 0; i < off->nmono; i++)
        for (unsigned f = 0; f < off->mono[i].nfac; f++)
            if (off->mono[i].fac[f].kind == KC_ATOM_OPAQUE)
                return true;
    return false;
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    KC_VEC(hazard) hs = {0};
    uint32_t wline = 0;
    const char *widened = NULL;
    bool looked = false;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space != KC_MEM_GLOBAL || !a->offset || single_stride(k, a->offset))
            continue;
        uint32_t before = hs.len;
        bool scalar = !(kc_index_deps(a->offset).flags & KC_AF_THREAD);
        for (unsigned mi = 0; mi < a->offset->nmono; mi++) {
            hazard h = {.access = i, .mono = &a->offset->mono[mi]};
            if (!hazardous(k, h.mono, scalar, &h.index, &h.runtime))
                continue;
            match_products(k, &h);
            kc_vec_push(&hs, h);
        }
        if (hs.len > before || !opaque_offset(a->offset))
            continue;
        /* The offset lost its terms (a pointer advanced differently in the
         * two branches of an `if`, merged): the products that flow into it
         * still say what each branch computes. */
        for (uint32_t pi = 0; pi < a->nproducts; pi++) {
            uint32_t p = a->products[pi];
            const kc_product *pr = p < k->products.len ? &k->products.data[p] : NULL;
            if (!pr || pr->bits != 32 || !pr->value)
                continue;
            for (unsigned mi = 0; mi < pr->value->nmono; mi++) {
                hazard h = {.access = i, .mono = &pr->value->mono[mi], .branch = true};
                if (!hazardous(k, h.mono, scalar, &h.index, &h.runtime) || within_larger(k, a, p, h.mono))
                    continue;
                match_products(k, &h);
                kc_vec_push(&hs, h);
            }
        }
    }
    /* One finding per product expression (or per access when no product
     * record names it); the first hazard of each group leads. */
    bool *done = hs.len ? kc_xcalloc(hs.len, sizeof *done) : NULL;
    for (uint32_t i = 0; i < hs.len; i++) {
        if (done[i])
            continue;
        KC_VEC(hazard) group = {0};
        for (uint32_t j = i; j < hs.len; j++) {
            const hazard *x = &hs.data[i], *y = &hs.data[j];
            bool together = x->outer != KC_NONE ? y->outer == x->outer : (y->outer == KC_NONE && y->access == x->access);
            if (!done[j] && together) {
                done[j] = true;
                kc_vec_push(&group, *y);
            }
        }
        /* The largest term leads: its innermost product is where the cast
         * widens everything after it. */
        for (uint32_t j = 1; j < group.len; j++)
            if (group.data[j].mono->nfac > group.data[0].mono->nfac &&
                group.data[j].access == group.data[0].access) {
                hazard t = group.data[0];
                group.data[0] = group.data[j];
                group.data[j] = t;
            }
        if (!looked) {
            widened = find_widened(m, ctx, &wline);
            looked = true;
        }
        report(m, k, ctx, group.data, group.len, widened, wline);
        kc_vec_free(&group);
    }
    free(done);
    kc_vec_free(&hs);
}

static const kc_rule_option_doc options[] = {
    {"flattened-rows", "1",
     "1: a program id over the rows of a tensor with every leading dimension flattened, times that tensor's row "
     "stride or length, is a warning (the product spans the tensor); 0: it is judged like any other product"},
    {"first-dim-rows", "0",
     "1: so is a program id over every row of a tensor's first dimension (`M, K = a.shape`, a grid of "
     "`cdiv(M, BLOCK_M)`) times that tensor's own run-time row stride; 0 (the default): a note that says the "
     "product spans the tensor (only a third of such tensors reach 2^31 elements in real workloads)"},
    {"widened-elsewhere", "0",
     "1: where the file computes such an offset in 64 bits elsewhere, a product the launch shows spanning a "
     "tensor's first dimension, or an index bounded by a run-time extent times an outer stride, is a warning; 0 "
     "(the default): a note that says so (the widened offset is often another tensor's)"},
    {NULL, NULL, NULL},
};

const kc_rule kc304_int32_offset_overflow = {
    .id = "KC304",
    .slug = "int32-offset-overflow",
    .summary = "Program id, loop index or loaded index times a run-time stride, computed in int32 and used as an "
               "address: wraps past 2^31 elements.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = options,
    .check = check,
    .verify = KC_VERIFY_OVERFLOW,
};
