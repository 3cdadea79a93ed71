/* rule_record.c — a thread's (a Triton lane's) accesses of one record:
 * rule_record.h. */
#include "rule_record.h"
#include "rule_util.h"

#include <stdlib.h>
#include <string.h>

bool kc_record_sibling(kc_arena *ar, const kc_kernel *k, const kc_access *a, const kc_access *b, int64_t stride)
{
    if (b == a || b->kind != a->kind || b->space != a->space || !b->offset || !kc_access_same_base(a, b))
        return false;
    int64_t c;
    if (b->loop == a->loop)
        return kc_index_const_diff(a->offset, b->offset, &c) && c > -stride && c < stride;
    /* one of them in a loop over the record's fields inside the other's
     * loop (`cphi[10*i]`, then `cphi[10*i + 4 + j]` for j < 6) */
    if (!kc_loop_within(k, a->loop, b->loop) && !kc_loop_within(k, b->loop, a->loop))
        return false;
    int64_t lo, hi;
    return kc_offset_diff_range(ar, k, b->offset, a->offset, &lo, &hi) && lo > -stride && hi < stride;
}

#define SIBLING_NOTE_SCAN 1024

kc_siblings kc_link_siblings(kc_arena *ar, const kc_kernel *k)
{
    uint32_t n = k->accesses.len;
    kc_siblings s = {kc_arena_alloc(ar, (n + 1) * sizeof(uint32_t)), kc_arena_alloc(ar, (n + 1) * sizeof(uint32_t))};
    kc_hash_index *v = kc_arena_alloc(ar, (n + 1) * sizeof *v);
    /* loops over a record's fields (constant start, step 1, at most 32
     * passes, `i < min(len - off, 32)` too): their variable is a field,
     * not another record */
    uint64_t fields = 0;
    for (uint32_t l = 0; l < k->loops.len && l < 63; l++) {
        const kc_loop *lp = &k->loops.data[l];
        int64_t s0, st, passes = kc_loop_passes_at_most(lp);
        if (passes > 0 && passes <= 32 && lp->start && lp->step &&
            kc_index_is_const(lp->start, &s0) && kc_index_is_const(lp->step, &st) && st == 1)
            fields |= 1ull << l;
    }
    for (uint32_t i = 0; i < n; i++) {
        v[i] = (kc_hash_index){kc_index_nonconst_hash_skipping(k->accesses.data[i].offset, fields), i};
        s.prev[i] = s.next[i] = KC_NONE;
    }
    qsort(v, n, sizeof *v, kc_hash_index_cmp);
    for (uint32_t t = 1; t < n; t++)
        if (v[t].hash == v[t - 1].hash) {
            s.prev[v[t].index] = v[t - 1].index;
            s.next[v[t - 1].index] = v[t].index;
        }
    return s;
}

void kc_record_note(kc_arena *ar, const kc_kernel *k, const kc_siblings *sib, uint32_t i, int64_t window,
                        const char *stride, bool cuda, kc_diag *d)
{
    const kc_access *a = &k->accesses.data[i];
    unsigned more = 0, nlines = 0, steps = 0;
    uint32_t last = a->span.line;
    int64_t lo = 0, hi = 0; /* the offsets taken, relative to a's (same loop) */
    kc_strbuf lines = {0};
    for (uint32_t j = sib->next[i]; j != KC_NONE && steps++ < SIBLING_NOTE_SCAN; j = sib->next[j]) {
        const kc_access *b = &k->accesses.data[j];
        int64_t c;
        bool chained = b->loop == a->loop && b->kind == a->kind && b->space == a->space && b->offset &&
                       kc_access_same_base(a, b) && kc_index_const_diff(a->offset, b->offset, &c) &&
                       c > lo - window && c < hi + window;
        if (!chained && !kc_record_sibling(ar, k, a, b, window))
            continue;
        if (chained) {
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        more++;
        if (b->span.line != last && nlines++ < 6)
            kc_sb_appendf(&lines, "%s%u", lines.len ? ", " : "", b->span.line);
        last = b->span.line;
    }
    if (more)
        kc_diag_note(d, "the same holds for %u more %s%s of this %s-element record by the same %s (%s%s%s): "
                     "one finding for them all",
                     more, a->kind == KC_ACC_LOAD ? "load" : "store", more == 1 ? "" : "s", stride,
                     cuda ? "thread" : "lane",
                     nlines ? (nlines == 1 ? "line " : "lines ") : "on this line", kc_sb_str(&lines),
                     nlines > 6 ? ", ..." : "");
    kc_sb_free(&lines);
}

/* How hot an access's place is: the loops around it whose passes grow with
 * the input (a trip count known only at run time) first, then all of them. */
static unsigned loop_depth(const kc_kernel *k, uint32_t l)
{
    unsigned d = 0, runtime = 0;
    for (; l != KC_NONE && l < k->loops.len && d < 64; l = k->loops.data[l].parent) {
        d++;
        runtime += k->loops.data[l].trip_count < 0 && k->loops.data[l].trip_max <= 0;
    }
    return runtime * 64 + d;
}

/* One layout, one finding: the warnings of a kernel about one array at one
 * stride (a thread's histogram of 816 counters updated at 28 places) are
 * one defect with one cause, the layout. It is reported at the access
 * inside the most loops of run-time trip count (then the most loops, then
 * the first), with the other places listed; the others are dropped. */
/* Is report r a warning of the group of r0: the same array, the same stride? */
static bool same_layout(kc_rule_ctx *ctx, const kc_reported *r0, const kc_reported *r)
{
    const kc_diag *d = kc_report_get(ctx, r->index);
    return d && d->severity != KC_SEV_NOTE && kc_access_same_base(r0->a, r->a) && strcmp(r0->stride, r->stride) == 0;
}

void kc_report_layout_once(kc_rule_ctx *ctx, const kc_kernel *k, const kc_reported *r, uint32_t n)
{
    kc_arena *ar = kc_rule_arena(ctx);
    bool *done = n ? kc_arena_alloc(ar, n) : NULL;
    uint32_t *group = n ? kc_arena_alloc(ar, n * sizeof *group) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (done[i] || !same_layout(ctx, &r[i], &r[i]))
            continue;
        uint32_t best = i, count = 0;
        for (uint32_t j = i; j < n; j++) {
            if (done[j] || !same_layout(ctx, &r[i], &r[j]))
                continue;
            done[j] = true;
            group[count++] = j;
            if (loop_depth(k, r[j].a->loop) > loop_depth(k, r[best].a->loop))
                best = j;
        }
        if (count < 2)
            continue;
        uint32_t at = kc_report_get(ctx, r[best].index)->span.line, nlines = 0;
        uint32_t *seen = kc_arena_alloc(ar, count * sizeof *seen);
        for (uint32_t g = 0; g < count; g++) {
            if (group[g] == best)
                continue;
            uint32_t line = kc_report_get(ctx, r[group[g]].index)->span.line;
            kc_report_drop(ctx, r[group[g]].index);
            bool dup = line == at;
            for (uint32_t q = 0; q < nlines && !dup; q++)
                dup = seen[q] == line;
            if (!dup)
                seen[nlines++] = line;
        }
        kc_diag *d = kc_report_get(ctx, r[best].index);
        if (!nlines) {
            kc_diag_note(d, "the other access of this element on line %u (a read-modify-write) is the same access "
                         "pattern, reported with it", at);
            continue;
        }
        kc_strbuf lines = {0};
        for (uint32_t q = 0; q < nlines && q < 12; q++)
            kc_sb_appendf(&lines, "%s%u", q ? ", " : "", seen[q]);
        kc_diag_note(d, "the same scattered pattern (lanes %s elements apart) is on %u other line%s of `%s`: %s%s; "
                     "one cause, the layout, so they are reported once, here (in the loops whose passes grow with "
                     "the input, the deepest such)",
                     r[best].stride, nlines, nlines > 1 ? "s" : "", k->name ? k->name : "?", kc_sb_str(&lines),
                     nlines > 12 ? " and more" : "");
        kc_sb_free(&lines);
    }
}
