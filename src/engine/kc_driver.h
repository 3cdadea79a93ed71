/* kc_driver.h — one kcheck run: check every file of a path list
 * (kc_walk.h) on a pool of worker threads (one front end per thread), and
 * hand the results (kc_result.h) to the caller in a deterministic order.
 */
#ifndef KC_DRIVER_H
#define KC_DRIVER_H

#include <stdio.h>

#include "kc_options.h"
#include "kc_result.h"
#include "kc_walk.h"

/* Checks one file: read, lower, run the rules, apply suppression comments,
 * fingerprint, filter by --severity and --baseline, and with --fix or
 * --diff apply the fix-its (writing the file only when the fixed text
 * re-checks without errors and the file did not change meanwhile). Fills
 * r->src (unless the caller gave it: standard input), r->diags, r->errors
 * and the counts. `fe` is the calling thread's
 * front end, made for the file's options (r->opts, else `opts`). */
struct kc_frontend;
void kc_check_file(struct kc_frontend *fe, const kc_options *opts, kc_file_result *r);

/* One front end per effective options (the CUDA front end reads its flags
 * from the options it was made with): a worker thread's, or the LSP
 * session's, kept while it checks. Files with the same configuration
 * share one options object, so this stays small. Zero-initialise. */
typedef struct kc_frontend_cache {
    KC_VEC(const kc_options *) opts;
    KC_VEC(struct kc_frontend *) fes;
} kc_frontend_cache;
struct kc_frontend *kc_frontend_cache_get(kc_frontend_cache *c, const kc_options *o);
void kc_frontend_cache_free(kc_frontend_cache *c);

/* ---- a whole run ---- */

/* Called in file order as results become available; the callee may keep
 * nothing from r after returning (the driver frees it). */
typedef void (*kc_result_fn)(void *ud, kc_file_result *r);

void kc_run_files(const kc_options *opts, kc_path_list *files, kc_result_fn fn, void *ud,
                  kc_run_totals *totals);

#endif
