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
 * with the same metadata as the registry's rules and IDs in KC0xx (kept
 * out of rules.def because nothing in the kernel model produces them):
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
#include "../rules/kc_rule.h"

extern const kc_rule kc_rule_invalid_suppression; /* KC000 */
extern const kc_rule kc_rule_unused_suppression;  /* KC001 */

/* Every rule: the registry's (indices below kc_rules_count()), then
 * kcheck's own. The index is the one of kc_options.rule_enabled. */
size_t kc_all_rules_count(void);
const kc_rule *kc_all_rules_get(size_t i);
/* By ID (case-insensitive) or slug; NULL when unknown. */
const kc_rule *kc_all_rules_find(const char *id_or_slug, size_t *index);
/* Index of a rule of kc_all_rules_get by pointer; (size_t)-1 if unknown. */
size_t kc_all_rules_index(const kc_rule *r);
/* Is rule `index` enabled in these options? (NULL flags: all are.) */
bool kc_rule_is_enabled(const kc_options *o, size_t index);

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
