/* cli_modes.h — what the command line runs once kc_cli.c has parsed and
 * checked its options (internal to src/cli). Each mode returns the exit
 * status and writes results to `out`, messages to `err`. */
#ifndef KC_CLI_MODES_H
#define KC_CLI_MODES_H

#include <stdio.h>

#include "kc_config.h"
#include "kc_options.h"

/* --list-rules */
/* The rule table, as text or (json) as a JSON array. */
int kc_cli_list_rules(FILE *out, bool json);
/* --explain RULE: the rule's documentation; 2 for an unknown rule. */
int kc_cli_explain(const char *rule, FILE *out, FILE *err);
/* --dump-config: the effective configuration of each path (none: "."). */
int kc_cli_dump_config(kc_config_set *set, const char *const *paths, size_t n, FILE *out, FILE *err);
/* --show-files: the files a run over `paths` (default .) would check, one
 * a line, after what git ignores and the configurations' `exclude`; exit
 * status 2 for bad paths. */
int kc_cli_show_files(kc_config_set *set, const char *const *paths, size_t n, FILE *out, FILE *err);
/* --dump-model: what the front ends inferred from each file under `paths`. */
int kc_cli_dump_model(const kc_options *o, const char *const *paths, size_t n, FILE *out, FILE *err);
/* The check, and verify's experiments when o->verify: every file under
 * `paths` with its options from `set`, reported in o->format; the findings
 * also go to write_baseline_path unless it is NULL. With stdin_filename
 * (and no paths) the one file checked is the text of standard input, as if
 * it were that file. t0 (kc_cli_now) is when the run began, for the time
 * the reports give. *stranded says whether a worker thread is still busy
 * with a file given up over --file-timeout (kc_driver.h: the process must
 * end without freeing what the run used). */
int kc_cli_check(const kc_options *o, kc_config_set *set, const char *const *paths, size_t n,
                 const char *stdin_filename, const char *write_baseline_path, double t0, FILE *out, FILE *err, bool *stranded);

/* Monotonic seconds. */
double kc_cli_now(void);

#endif
