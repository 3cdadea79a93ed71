/* KC302 shape-mismatch: the pointer, mask, `other` and value blocks of a
 * load/store that do not broadcast together, or a store whose pointer block
 * is smaller than its value or mask block.
 *
 * Reads: kc_access.ptr_shape/mask_shape/other_shape/value_shape with their
 * _known flags (a front end sets a flag only when it is sure of the shape),
 * kc_access.block_ptr. */
#include "rule_util.h"

#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Checks the operand blocks of every `tl.load`, `tl.store` and `tl.atomic_*`\n"
    "whose shapes the analysis knows:\n"
    "\n"
    "- pointer, mask, `other` and value blocks that cannot broadcast together\n"
    "  (two known extents that differ and neither is 1);\n"
    "- a store whose pointer block is smaller than its value or mask block\n"
    "  (a value of rank 2 stored through a pointer of rank 1, or an axis where\n"
    "  the pointer has extent 1 and the value more): several lanes would write\n"
    "  one address;\n"
    "- a block mask, `other` or value with a scalar pointer;\n"
    "- a store through a block pointer (`tl.make_block_ptr`) whose value does not\n"
    "  have exactly the block shape (block pointers do not broadcast);\n"
    "- an atomic whose value or mask does not broadcast to the pointer block\n"
    "  (atomics broadcast one way only, at equal rank).\n"
    "\n"
    "Shapes that depend on a constexpr whose value is not known are presumed to\n"
    "match.\n"
    "\n"
    "## Why is this bad?\n"
    "The kernel does not compile: Triton reports `Cannot broadcast`, `Expected\n"
    "pointer argument to have shape ...`, `Mask argument cannot be block type if\n"
    "pointer argument is not a block` or `Block shape(...) and value shape(...)\n"
    "mismatch`, often far from the line that built the wrong block. Triton never\n"
    "broadcasts the pointer of a store: different lanes would write the same\n"
    "address, a race. A load whose mask is larger than its pointer reads every\n"
    "address several times on Triton 3.5+ and fails on older releases; it is\n"
    "not reported.\n"
    "\n"
    "## Example\n"
    "```python\n"
    "rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)\n"
    "cols = tl.arange(0, BLOCK_N)\n"
    "acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n"
    "tl.store(out_ptr + cols, acc)          # pointer [BLOCK_N], value [BLOCK_M, BLOCK_N]\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "tl.store(out_ptr + rows[:, None] * stride + cols[None, :], acc,\n"
    "         mask=(rows[:, None] < M) & (cols[None, :] < N))\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Give the pointer every axis of the value (`x[:, None]`, `x[None, :]` to place\n"
    "a 1-D index on its axis), reduce the value first (`tl.sum(acc, axis=0)`), or\n"
    "build the mask from indices on the same axes as the pointer. For a block\n"
    "pointer, reshape the value to the block shape (`x[None, :]` for a `(1, N)`\n"
    "block).\n"
    "\n"
    "## References\n"
    "- triton-lang/triton#633 (block mask with a scalar pointer), #2237 (block\n"
    "  pointer store of a `[2048]` value into a `[1, 2048]` block).\n"
    "- triton-lang/triton PR #8661 (store broadcasting: the pointer must keep its shape).\n";

static const char *shape_str(kc_rule_ctx *ctx, const kc_kernel *k, const kc_shape *s)
{
    kc_strbuf sb = {0};
    if (s->rank == 0)
        kc_sb_append(&sb, "scalar");
    else
        kc_model_format_shape(k, s, &sb);
    const char *r = kc_arena_strdup(kc_rule_arena(ctx), kc_sb_str(&sb));
    kc_sb_free(&sb);
    return r;
}

/* Two known extents that differ, neither 1: where broadcasting fails
 * (right-aligned axis of the wider shape), or -1. */
static int clash_axis(const kc_shape *a, const kc_shape *b)
{
    unsigned r = a->rank > b->rank ? a->rank : b->rank;
    for (unsigned i = 0; i < r; i++) {
        int ia = (int)i - (int)(r - a->rank), ib = (int)i - (int)(r - b->rank);
        if (ia < 0 || ib < 0)
            continue;
        const kc_dim *da = &a->dims[ia], *db = &b->dims[ib];
        if (da->value >= 0 && db->value >= 0 && da->value != db->value && da->value != 1 && db->value != 1)
            return (int)i;
    }
    return -1;
}

/* Is `v` known to be larger than `p` (p would have to be broadcast)?
 * Returns the axis of v, or -1. A higher rank counts from its first
 * extra axis. */
static int larger_axis(const kc_shape *v, const kc_shape *p)
{
    if (v->rank > p->rank)
        return 0;
    unsigned off = p->rank - v->rank;
    for (unsigned i = 0; i < v->rank; i++) {
        const kc_dim *dv = &v->dims[i], *dp = &p->dims[i + off];
        if (dv->value > 1 && dp->value == 1)
            return (int)i;
    }
    return -1;
}

static const char *what_of(const kc_access *a)
{
    return a->kind == KC_ACC_STORE ? "store to" : a->kind == KC_ACC_ATOMIC ? "atomic on" : "load from";
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (!a->ptr_shape_known)
            continue;
        const char *base = a->base_name ? a->base_name : "memory";
        const kc_shape *p = &a->ptr_shape;
        const char *ps = shape_str(ctx, k, p);
        struct {
            const char *name;
            bool known;
            const kc_shape *s;
            kc_span span;
        } ops[3] = {
            {"value", a->value_shape_known && a->kind != KC_ACC_LOAD, &a->value_shape, a->value_span},
            {"mask", a->mask_shape_known, &a->mask_shape, a->mask_span},
            {"`other`", a->other_shape_known && a->kind == KC_ACC_LOAD, &a->other_shape, a->other_span},
        };
        kc_diag *scalar = NULL; /* the finding of a scalar pointer given a block, once per access */
        for (unsigned o = 0; o < 3; o++) {
            if (!ops[o].known)
                continue;
            const kc_shape *s = ops[o].s;
            kc_span at = kc_span_valid(ops[o].span) ? ops[o].span : a->span;
            const char *ss = shape_str(ctx, k, s);
            kc_diag *d = NULL;
            if (p->rank == 0) {
                if (s->rank == 0)
                    continue;
                if (scalar) { /* (one pointer to fix: one finding) */
                    kc_diag_note(scalar, "the %s is a %s block too (line %u, column %u)", ops[o].name, ss, at.line,
                                 at.col);
                    continue;
                }
                d = scalar = kc_report(ctx, k, at, "%s `%s`: the %s is a %s block but the pointer is a scalar",
                                       what_of(a), base, ops[o].name, ss);
                kc_diag_note(d, "Triton rejects it (\"%s argument cannot be block type if pointer argument is not a "
                             "block\"): one address cannot take a block of %ss",
                             o == 0 ? "Value" : o == 1 ? "Mask" : "Other", ops[o].name);
                kc_diag_note(d, "fix: add the block's index to the pointer (`ptr + offsets`), or reduce the %s to a "
                             "scalar first",
                             ops[o].name);
                continue;
            }
            if (a->block_ptr && o == 0) {
                if (s->rank == 0 || kc_shape_equal(s, p))
                    continue;
                bool differs = s->rank != p->rank;
                for (unsigned x = 0; !differs && x < s->rank; x++)
                    differs = s->dims[x].value >= 0 && p->dims[x].value >= 0 && s->dims[x].value != p->dims[x].value;
                if (!differs)
                    continue;
                d = kc_report(ctx, k, at, "store to `%s` through a block pointer of shape %s with a value of shape %s",
                              base, ps, ss);
                kc_diag_note(d, "block pointers do not broadcast: Triton asserts \"Block shape(%s) and value "
                             "shape(%s) mismatch\"",
                             ps, ss);
                kc_diag_note(d, "fix: make the value exactly %s (e.g. `x[None, :]` adds a leading axis of 1), or "
                             "declare the block pointer with the value's block_shape",
                             ps);
                continue;
            }
            int ax = clash_axis(p, s);
            if (ax >= 0) {
                d = kc_report(ctx, k, at, "%s `%s`: the pointer block %s and the %s block %s do not broadcast",
                              what_of(a), base, ps, ops[o].name, ss);
                kc_diag_note(d, "on the %s axis of the broadcast shape the extents differ and neither is 1: Triton "
                             "rejects it (\"Cannot broadcast\")",
                             ax == 0 ? "first" : ax == 1 ? "second" : "third or later");
                kc_diag_note(d, "fix: build the %s from indices placed on the same axes as the pointer's "
                             "(`x[:, None]`, `x[None, :]`)",
                             ops[o].name);
                continue;
            }
            if (a->kind == KC_ACC_LOAD)
                continue; /* Triton 3.5+ broadcasts a load's pointer to its mask */
            if (a->kind == KC_ACC_ATOMIC && s->rank != p->rank && s->rank > 0) {
                d = kc_report(ctx, k, at, "atomic on `%s`: the %s block %s has another rank than the pointer block %s",
                              base, ops[o].name, ss, ps);
                kc_diag_note(d, "atomics broadcast their value and mask to the pointer's shape one way, at equal rank: "
                             "Triton rejects it (\"Cannot broadcast, rank mismatch\")");
                kc_diag_note(d, "fix: index the %s with None to give it the pointer's rank", ops[o].name);
                continue;
            }
            int lx = larger_axis(s, p);
            if (lx >= 0) {
                d = kc_report(ctx, k, at,
                              "%s `%s`: the %s block %s is larger than the pointer block %s: several lanes would "
                              "write one address",
                              what_of(a), base, ops[o].name, ss, ps);
                if (s->rank > p->rank)
                    kc_diag_note(d, "the %s has %u axes and the pointer %u; Triton never broadcasts a store's "
                                 "pointer (\"Expected pointer argument to have shape ...\"; older releases: \"Cannot "
                                 "broadcast\")",
                                 ops[o].name, s->rank, p->rank);
                else
                    kc_diag_note(d, "on axis %d the pointer has extent 1 and the %s more; Triton never broadcasts a "
                                 "store's pointer (\"Expected pointer argument to have shape ...\")",
                                 lx, ops[o].name);
                kc_diag_note(d, "fix: give the pointer every axis of the %s (an index per axis: `rows[:, None] * "
                             "stride + cols[None, :]`), or reduce the %s first",
                             ops[o].name, ops[o].name);
            }
        }
    }
}

const kc_rule kc302_shape_mismatch = {
    .id = "KC302",
    .slug = "shape-mismatch",
    .summary = "Pointer, mask, other and value blocks of a load/store that do not broadcast together, or a store "
               "pointer smaller than its value.",
    .severity = KC_SEV_ERROR,
    .langs = KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_COMPILE_ERROR,
};
