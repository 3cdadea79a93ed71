/* kc_lsp.h — `kcheck lsp`: a Language Server Protocol server over a pair
 * of streams (standard input and output when an editor starts it).
 *
 * It checks each open document's unsaved text as the file it names (that
 * file's configuration, language, quoted includes, peers), on open, on
 * every change and on save, and publishes the findings; code actions are
 * the fix-its of the findings in the range asked about, hover over a
 * finding shows its rule's documentation. A file its configuration's
 * `exclude` names gets no findings, as on the command line. One front end per effective
 * options is kept for the whole session, so the CUDA front end's libclang
 * and precompiled headers stay warm between edits.
 *
 * Supported: initialize, initialized, shutdown, exit,
 * textDocument/didOpen, didChange (full and incremental), didSave,
 * didClose, codeAction, hover; $/ notifications are ignored and other
 * requests answered with MethodNotFound.
 */
#ifndef KC_LSP_H
#define KC_LSP_H

#include <stdio.h>

#include "kc_config.h"
#include "kc_options.h"

/* Serves one client until `exit` or the end of `in`. `base` and `set`
 * (the command line's options and the configuration files) are borrowed.
 * Protocol trouble is logged to `log`. Returns the exit status: 0 after
 * shutdown then exit, 1 otherwise (as the protocol asks). */
int kc_lsp_serve(const kc_options *base, kc_config_set *set, FILE *in, FILE *out, FILE *log);

#endif
