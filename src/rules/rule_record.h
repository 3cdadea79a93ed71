/* rule_record.h — a thread's (a Triton lane's) accesses of one record,
 * which a rule reports as one finding (private to the rules). */
#ifndef KC_RULE_RECORD_H
#define KC_RULE_RECORD_H

#include "kc_rule.h"

#include <stdbool.h>

/* Accesses whose offsets differ by a constant, linked in program order
 * (prev, next: the one before and after with the same offset terms, or
 * KC_NONE): a record's accesses are looked for among them only, and at
 * most KC_SIBLING_SCAN of them back, so that a hand-unrolled kernel of
 * thousands of accesses is checked in linear time. */
#define KC_SIBLING_SCAN 64
typedef struct kc_siblings {
    uint32_t *prev, *next;
} kc_siblings;

kc_siblings kc_link_siblings(kc_arena *ar, const kc_kernel *k);

/* Does b move the same record as a: the same kind of access, base and
 * loop, at an offset less than `stride` elements away (or, one of them in
 * a loop over the record's fields inside the other's loop, every offset
 * of it)? */
bool kc_record_sibling(kc_arena *ar, const kc_kernel *k, const kc_access *a, const kc_access *b, int64_t stride);

/* The thread's (lane's) other accesses of the record of access i: within
 * `window` elements of it or of another of them (a symbolic stride's
 * window is one sector, and a lane's 21 fields are a chain of such steps):
 * the note of the one finding for them all (`stride`: the stride as
 * text). */
void kc_record_note(kc_arena *ar, const kc_kernel *k, const kc_siblings *sib, uint32_t i, int64_t window,
                    const char *stride, bool cuda, kc_diag *d);

/* A KC101 report of a kernel: its index (kc_report_next), its access, the
 * stride its message names. */
typedef struct kc_reported {
    uint32_t index;
    const kc_access *a;
    const char *stride;
} kc_reported;

/* One layout, one finding: of the warnings r[0..n) of kernel k, those about
 * one array at one stride are one defect with one cause, the layout. Each
 * such group is reported once, at the access inside the most loops of
 * run-time trip count (then the most loops, then the first), with the
 * other lines named in a note; the others are dropped. */
void kc_report_layout_once(kc_rule_ctx *ctx, const kc_kernel *k, const kc_reported *r, uint32_t n);

#endif
