/* KC307 unchecked-gather-index: an index loaded from memory used in an
 * address with no mask or guard that tests it, while the kernel itself
 * shows the index can be out of range: it compares it with a sentinel
 * (`label == ignore_index`, `idx != -1`) or bounds it for another access.
 *
 * Reads: kc_access.offset (KC_ATOM_DATA atoms: values other loads
 * produced), the access's mask comparisons and its guards' tested
 * comparisons (kc_cond.tested), and the kernel's comparisons
 * (kc_kernel.data_tests) and other accesses' masks. An index
 * nothing in the kernel questions (token ids below the vocabulary by
 * contract) is not reported. */
#include "rule_util.h"

#include <ctype.h>
#include <string.h>

static const char doc[] =
    "## What it does\n"
    "Flags a load or store whose address is computed from an index the\n"
    "kernel loaded from memory (a label, a token id, a page of a block\n"
    "table, an expert id) when nothing masks or guards that access by the\n"
    "index, although the kernel itself shows the index may be out of range:\n"
    "it compares the index with a sentinel (`label == ignore_index`,\n"
    "`expert != -1`), or it bounds it (`idx < n`) for another access but\n"
    "not for this one. An index the kernel never questions is not reported\n"
    "(gathers by token id are in range by contract), nor is one whose range\n"
    "the kernel asserts (`tl.device_assert(block >= 0)`, `tl.assume`): an\n"
    "assertion states the caller's contract, it tests for nothing. A sentinel\n"
    "is a negative constant, or a run-time value that is one by its name\n"
    "(`ignore_index`, `pad_id`, `invalid_slot`) or by what a launch passes\n"
    "(`-100`); equality with any other run-time value (a walk that stops at\n"
    "its start state, `cur_state != start_state`) shows nothing.\n"
    "\n"
    "It also flags, as a **note**, an access with no mask whose address\n"
    "uses an index loaded under a mask with no `other=` (`blk =\n"
    "tl.load(kv_indices + offs, mask=offs < n)`): Triton's contract gives\n"
    "the masked-off lanes of such a load no value, so the access goes\n"
    "wherever they point. On NVIDIA GPUs Triton 3.6 sets those lanes to 0\n"
    "(measured on an H100 for an int32 index,\n"
    "`bench/premise/kc307_masked_index_no_other.py`, as on an H200 for floats),\n"
    "so they read row 0 there; a backend that leaves them undefined reads anywhere\n"
    "(ROCm/aiter 3b290a31, a memory violation). An access with a mask of\n"
    "its own is left alone (kcheck does not decide whether that mask is\n"
    "false on those lanes), as is one under a guard that makes the index\n"
    "load's test.\n"
    "\n"
    "## Why is this bad?\n"
    "A sentinel is an index that points at nothing: `-100` as a label, `-1`\n"
    "as a free slot of a page table or a dropped token of a mixture of\n"
    "experts. Used as an address it reads or writes outside the tensor\n"
    "(`logits[row * V - 100]`): an illegal memory access, or silently the\n"
    "neighbouring row's data and a wrong loss or NaN (flagos-ai/FlagGems\n"
    "d24ef2cb: a KV-cache page index without a mask gave NaN outputs;\n"
    "linkedin/Liger-Kernel#588: `ignore_index` rows in cross entropy).\n"
    "\n"
    "## Example\n"
    "```python\n"
    "label = tl.load(labels + row)\n"
    "x_y = tl.load(logits + row * V + label)           # label may be ignore_index\n"
    "loss = tl.where(label == ignore_index, 0.0, lse - x_y)\n"
    "```\n"
    "\n"
    "## Use instead\n"
    "```python\n"
    "label = tl.load(labels + row)\n"
    "valid = label != ignore_index\n"
    "x_y = tl.load(logits + row * V + label, mask=valid, other=0.0)\n"
    "loss = tl.where(valid, lse - x_y, 0.0)\n"
    "```\n"
    "\n"
    "## Fix\n"
    "Mask the access with the test the kernel already makes (`mask=label !=\n"
    "ignore_index`, `mask=(idx >= 0) & (idx < n)`), return early for the\n"
    "sentinel before the access (`if label == ignore_index: return`), or\n"
    "clamp the index (`tl.where(idx < 0, 0, idx)`) when the result is\n"
    "discarded anyway.\n"
    "\n"
    "## References\n"
    "- flagos-ai/FlagGems d24ef2cb (KV-cache page index without a mask, NaN output).\n"
    "- ROCm/aiter 3b290a31 (KV block indices loaded under a mask without `other=`, then\n"
    "  gathered unmasked: a memory violation).\n"
    "- linkedin/Liger-Kernel#588 (cross entropy and `ignore_index`).\n"
    "- Dao-AILab/flash-attention #2755, #2711 (indices from memory used unchecked).\n";

static bool index_has_data(const kc_index *x, uint32_t load)
{
    return kc_index_has_atom(x, KC_ATOM_DATA, load);
}

static bool pred_tests(const kc_pred *p, uint32_t load)
{
    return index_has_data(p->lhs, load) || index_has_data(p->rhs, load);
}

/* Does the access's mask or a guard around it test the value of `load`? */
static bool access_tests(const kc_kernel *k, const kc_access *a, uint32_t load)
{
    for (uint32_t i = 0; i < a->nmask_preds; i++)
        if (pred_tests(&a->mask_preds[i], load))
            return true;
    /* a mask kcheck could not split into comparisons, or one on loaded data
     * whose test it lost (`not (tgt == ignore_index) and m`): taken to test it */
    if (a->masked && (a->nmask_preds == 0 || (a->mask_deps.flags & KC_AF_DATA)))
        return true;
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (cd->deps.flags & KC_AF_DATA)
            return true; /* a guard on loaded data (this index, or one kcheck cannot read) */
        for (uint32_t i = 0; i < cd->ntested; i++)
            if (pred_tests(&cd->tested[i], load))
                return true;
    }
    return false;
}

/* Does a parameter's name say it marks nothing (`ignore_index`,
 * `pad_id`, `invalid_slot`, `sentinel`)? */
static bool sentinel_name(const char *n)
{
    static const char *const words[] = {"ignore", "pad", "invalid", "sentinel", "empty", "null", "none",
                                        "unused", "skip", "dummy", "missing", "dropped"};
    char low[128];
    size_t len = 0;
    for (; n && n[len] && len + 1 < sizeof low; len++)
        low[len] = (char)tolower((unsigned char)n[len]);
    low[len] = '\0';
    for (size_t i = 0; len && i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i]))
            return true;
    return false;
}

/* Is the other side of a comparison of the index a sentinel: a negative
 * constant, or a run-time value compared for equality that is one by its
 * name (`ignore_index`) or by what a launch passes (`-100`)? Equality
 * with any other run-time value shows nothing: a chain walked until it
 * reaches its start state (`cur_state != start_state`) meets a real
 * state there. */
static bool sentinel_side(const kc_kernel *k, const kc_index *x, kc_cmp op)
{
    int64_t v;
    if (!x)
        return false;
    if (kc_index_is_const(x, &v))
        return v < 0 || (v == 0 && (op == KC_CMP_LT || op == KC_CMP_GE));
    if (op != KC_CMP_EQ && op != KC_CMP_NE)
        return false;
    uint32_t s = kc_index_symbol(x);
    if (s == KC_NONE || s >= k->symbols.len || k->symbols.data[s].kind != KC_SYM_PARAM)
        return false;
    const kc_symbol *sy = &k->symbols.data[s];
    const char *arg = sy->arg_text;
    return sentinel_name(sy->name) || (arg && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9');
}

typedef struct evidence {
    const kc_pred *pred;
    bool bound;     /* an ordering bound (`idx < n`) rather than a sentinel test */
    bool index_lhs; /* the index is on the left of the comparison */
} evidence;

/* Does `p` bound the value of `load` itself: it is on the smaller side of
 * an ordering (`idx < n`, `n > idx`), not part of the bound (`offs <
 * end - start` bounds `offs`, not `start`)? */
static bool bounds_index(const kc_pred *p, uint32_t load)
{
    bool l = index_has_data(p->lhs, load), r = index_has_data(p->rhs, load);
    if (l == r)
        return false;
    if (p->op == KC_CMP_LT || p->op == KC_CMP_LE)
        return l;
    if (p->op == KC_CMP_GT || p->op == KC_CMP_GE)
        return r;
    return false;
}

/* Are conditions `a` and `b` (from the innermost outwards) in the two
 * branches of one compile-time `if` (never both run in one compile)? */
static bool exclusive(const kc_kernel *k, uint32_t a, uint32_t b)
{
    uint32_t ha = 0;
    for (uint32_t x = a; x != KC_NONE && x < k->conds.len && ha++ < 1000; x = k->conds.data[x].parent) {
        const kc_cond *cx = &k->conds.data[x];
        if (cx->deps.axes || cx->deps.flags || cx->deps.loops)
            continue;
        uint32_t hb = 0;
        for (uint32_t y = b; y != KC_NONE && y < k->conds.len && hb++ < 1000; y = k->conds.data[y].parent) {
            const kc_cond *cy = &k->conds.data[y];
            if (cy->span.line == cx->span.line && cy->span.col == cx->span.col && cy->negated != cx->negated)
                return true;
        }
    }
    return false;
}

/* A comparison of the value of `load` in the kernel that shows it can be
 * out of range: a sentinel test, or a bound applied to another access, in
 * code that can run with the access. */
static bool find_evidence(const kc_kernel *k, uint32_t load, uint32_t access, evidence *ev)
{
    const kc_access *a = &k->accesses.data[access];
    for (uint32_t i = 0; i < k->data_tests.len; i++) {
        const kc_test *t = &k->data_tests.data[i];
        const kc_pred *p = &t->pred;
        bool l = index_has_data(p->lhs, load), r = index_has_data(p->rhs, load);
        if (l != r && sentinel_side(k, l ? p->rhs : p->lhs, p->op) && !exclusive(k, t->cond, a->guard)) {
            ev->pred = p;
            ev->bound = false;
            ev->index_lhs = l;
            return true;
        }
    }
    /* bounded in the mask of another access that uses it */
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *o = &k->accesses.data[i];
        if (i == access || i == load || !index_has_data(o->offset, load) || exclusive(k, o->guard, a->guard))
            continue;
        for (uint32_t j = 0; j < o->nmask_preds; j++)
            if (bounds_index(&o->mask_preds[j], load)) {
                ev->pred = &o->mask_preds[j];
                ev->bound = true;
                return true;
            }
    }
    return false;
}

/* The test a mask needs: the comparison as written for a bound, its
 * complement for a sentinel test (`label == ignore_index` ->
 * `label != ignore_index`), or NULL when it cannot be spelled. */
static const char *mask_text(kc_rule_ctx *ctx, const evidence *ev)
{
    const char *t = kc_rule_span_text(ctx, ev->pred->span);
    kc_cmp op = ev->pred->op;
    /* true on the valid indices as written: `!= -1`, `>= 0` */
    bool valid_side = op == KC_CMP_NE || (ev->index_lhs ? (op == KC_CMP_GE || op == KC_CMP_GT)
                                                         : (op == KC_CMP_LE || op == KC_CMP_LT));
    if (ev->bound || valid_side)
        return t;
    static const struct { const char *from, *to; } swap[] = {
        {"==", "!="}, {">=", "<"}, {"<=", ">"}, {"<", ">="}, {">", "<="},
    };
    for (unsigned i = 0; i < sizeof swap / sizeof *swap; i++) {
        const char *at = strstr(t, swap[i].from);
        if (at && !strstr(at + strlen(swap[i].from), swap[i].from))
            return kc_arena_printf(kc_rule_arena(ctx), "%.*s%s%s", (int)(at - t), t, swap[i].to,
                                   at + strlen(swap[i].from));
    }
    return NULL;
}

/* The same comparison: the same operator and operands (a broadcast
 * `offs[:, None] < n` is the same test as `offs < n`), or the same text. */
static bool same_pred(kc_rule_ctx *ctx, const kc_pred *p, const kc_pred *q)
{
    if (p->op == q->op && p->lhs && p->rhs && q->lhs && q->rhs && kc_index_equal(p->lhs, q->lhs) &&
        kc_index_equal(p->rhs, q->rhs))
        return true;
    const char *a = kc_rule_span_text(ctx, p->span), *b = kc_rule_span_text(ctx, q->span);
    return a && b && *a && !strcmp(a, b);
}

static bool preds_share(kc_rule_ctx *ctx, const kc_pred *p, uint32_t np, const kc_pred *q, uint32_t nq)
{
    for (uint32_t i = 0; i < np; i++)
        for (uint32_t j = 0; j < nq; j++)
            if (same_pred(ctx, &p[i], &q[j]))
                return true;
    return false;
}

/* Does the access run only on lanes where the index load `src` was not
 * masked off, as far as kcheck can tell: it has a mask of its own (which
 * may imply src's: `i0 < n` is false wherever `pid < n_tiles` is, a fact
 * kcheck does not decide), or a guard around it makes one of src's mask
 * tests? */
static bool covers_index_mask(kc_rule_ctx *ctx, const kc_kernel *k, const kc_access *a, const kc_access *src)
{
    if (a->masked)
        return true;
    uint32_t hops = 0;
    for (uint32_t c = a->guard; c != KC_NONE && c < k->conds.len && hops++ < 10000; c = k->conds.data[c].parent) {
        const kc_cond *cd = &k->conds.data[c];
        if (preds_share(ctx, cd->tested, cd->ntested, src->mask_preds, src->nmask_preds))
            return true;
    }
    return false;
}

/* The index came from a masked load with no `other=`: its masked-off
 * lanes hold no defined value, and this access uses them unmasked. */
static void report_undefined_lanes(kc_rule_ctx *ctx, const kc_kernel *k, const kc_access *a, const kc_access *src,
                                   const char *name)
{
    const char *mask = src->mask_text ? src->mask_text : kc_rule_span_text(ctx, src->mask_span);
    kc_diag *d = kc_report_access(ctx, k, a,
                                  "%s at an address computed from `%s`, loaded on line %u under `mask=%s` with "
                                  "no `other=`: its masked-off lanes hold no index, and nothing masks this access",
                                  a->kind == KC_ACC_STORE ? "store" : a->kind == KC_ACC_ATOMIC ? "atomic" : "load",
                                  name, src->span.line, mask ? mask : "...");
    d->severity = KC_SEV_NOTE;
    kc_diag_note(d, "Triton's contract gives a masked-off lane of a load without `other=` no value: where `%s` is "
                 "false, `%s` is whatever the backend leaves there, and this access goes to that address (an "
                 "illegal address, or another row's data; ROCm/aiter 3b290a31)",
                 mask ? mask : "the mask", name);
    kc_diag_note(d, "a note: right on NVIDIA GPUs today, where Triton 3.6 sets the register of a masked-off lane "
                 "to 0 before the predicated load (measured on an H100), so those lanes read row 0");
    kc_diag_note(d, "give the index load a neutral `other=` (`other=0`, a row that exists), or add `%s` "
                 "(broadcast to its shape) to this access's mask",
                 mask ? mask : "the index load's mask");
}

static void check(const kc_model *m, const kc_kernel *k, kc_rule_ctx *ctx)
{
    (void)m;
    for (uint32_t i = 0; i < k->accesses.len; i++) {
        const kc_access *a = &k->accesses.data[i];
        if (a->space != KC_MEM_GLOBAL || !a->offset)
            continue;
        /* each loaded value the address is computed from, once */
        uint32_t seen[8];
        unsigned nseen = 0;
        for (unsigned mi = 0; mi < a->offset->nmono; mi++)
            for (unsigned f = 0; f < a->offset->mono[mi].nfac; f++) {
                const kc_atom *at = &a->offset->mono[mi].fac[f];
                if (at->kind != KC_ATOM_DATA || at->id >= k->accesses.len || at->id == i)
                    continue;
                bool dup = false;
                for (unsigned s = 0; s < nseen; s++)
                    dup |= seen[s] == at->id;
                if (dup || nseen == 8)
                    continue;
                seen[nseen++] = at->id;
                const kc_access *src = &k->accesses.data[at->id];
                if (src->kind != KC_ACC_LOAD || access_tests(k, a, at->id))
                    continue;
                evidence ev = {0};
                const char *name = src->value_name ? src->value_name : "the loaded index";
                if (!find_evidence(k, at->id, i, &ev)) {
                    if (src->masked && !src->has_other && !covers_index_mask(ctx, k, a, src))
                        report_undefined_lanes(ctx, k, a, src, name);
                    continue;
                }
                kc_diag *d = kc_report_access(ctx, k, a,
                                       "%s at an address computed from `%s`, which the kernel %s on line %u, but "
                                       "nothing masks or guards this access by it",
                                       a->kind == KC_ACC_STORE ? "store" : a->kind == KC_ACC_ATOMIC ? "atomic" : "load",
                                       name, ev.bound ? "bounds for another access" : "tests for a sentinel",
                                       ev.pred->span.line);
                kc_diag_note(d, "`%s` comes from the load on line %u; `%s` (line %u) shows it can be %s, and then "
                             "this access reads or writes outside the tensor (an illegal address, or another "
                             "row's data)",
                             name, src->span.line, kc_rule_span_text(ctx, ev.pred->span), ev.pred->span.line,
                             ev.bound ? "past the bound" : "a sentinel that points at nothing");
                const char *mt = mask_text(ctx, &ev);
                if (mt)
                    kc_diag_note(d, "mask this access by it (`mask=%s`), return before it for the sentinel, or "
                                 "clamp `%s` where the result is discarded anyway",
                                 mt, name);
                else
                    kc_diag_note(d, "mask this access by that test, return before it for the sentinel, or clamp "
                                 "`%s` where the result is discarded anyway",
                                 name);
            }
    }
}

const kc_rule kc307_unchecked_gather_index = {
    .id = "KC307",
    .slug = "unchecked-gather-index",
    .summary = "An index loaded from memory used in an address unmasked, though the kernel tests it for a sentinel "
               "or bounds it elsewhere.",
    .severity = KC_SEV_WARNING,
    .langs = KC_LANG_BIT_TRITON,
    .doc = doc,
    .options = NULL,
    .check = check,
    .verify = KC_VERIFY_MEMORY,
};
