/* kc_suppress.h — inline suppressions, and kcheck's own diagnostics.
 *
 * A comment `kcheck: ignore[KC101, view-reorder]` (after `#` in Python,
 * `//` or a block comment opener in CUDA) suppresses those rules'
 * findings on its own line; a comment that stands alone on its line also
 * covers the next line that is not itself a standalone `kcheck:` comment.
 * `kcheck: ignore` without a list covers every rule; `kcheck:
 * ignore-file[...]` anywhere in the file covers the whole file. A finding
 * is matched by the line it starts on.
 *
 * kcheck reports problems with suppressions as diagnostics of its own,
 * rules of the registry with IDs in KC0xx that this pass reports
 * (kc_rule_is_own: nothing in the kernel model produces them):
 *   KC000 invalid-suppression  unknown rule or malformed directive (always)
 *   KC001 unused-suppression   a suppression that matched nothing
 *                              (with --report-unused-suppressions)
 * They obey --select/--ignore and configuration like any rule, but cannot
 * be suppressed by comments.
 */
#ifndef KC_SUPPRESS_H
#define KC_SUPPRESS_H

#include "kc_diag.h"
#include "kc_options.h"
#include "kc_source.h"
#include "kc_rule.h"

typedef struct kc_suppress_counts {
    size_t suppressed; /* findings hidden by a suppression comment */
} kc_suppress_counts;

/* Removes from `diags` the findings that the comments of `src` suppress,
 * then appends KC000 for malformed suppressions and, when
 * o->report_unused_suppressions, KC001 for suppressions (or rule names in
 * them) that matched nothing. The list is left unsorted. */
void kc_suppress_apply(const kc_source *src, kc_lang lang, const kc_options *o, kc_diag_list *diags,
                       kc_suppress_counts *counts);

#endif
