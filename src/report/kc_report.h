/* kc_report.h — reporters turn file results into output. They are the only
 * code that prints diagnostics.
 *
 * One reporter per run, made for the run's format (kc_options.format):
 * compiler-style text, the JSON document, SARIF 2.1.0, GitHub Actions
 * workflow commands, or --diff's unified diffs. It is handed each file's
 * result in order, then the run's totals.
 */
#ifndef KC_REPORT_H
#define KC_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "kc_result.h"

typedef struct kc_reporter kc_reporter;

/* --format NAME: "text", "json", "sarif" or "github"; false for any
 * other name. */
bool kc_report_format_parse(const char *name, kc_format *out);
/* The names kc_report_format_parse takes, joined by `sep`; caller frees. */
char *kc_report_format_names(const char *sep);

/* The reporter of opts->format, writing to `out`; messages that must not
 * mix with the output (--diff's file errors and summary) go to `err`.
 * Borrows opts, out and err. */
kc_reporter *kc_reporter_new(const kc_options *opts, FILE *out, FILE *err);
/* One file's result, in the run's file order. */
void kc_reporter_file(kc_reporter *r, const kc_file_result *res);
/* The end of the run: the summary, or the whole document for JSON and SARIF. */
void kc_reporter_finish(kc_reporter *r, const kc_run_totals *t);
void kc_reporter_delete(kc_reporter *r); /* NULL-safe */

/* --stats: files, time, findings per rule, what was hidden. */
void kc_report_stats(FILE *out, const kc_run_totals *t);

/* ---- the Language Server Protocol (kcheck lsp) ----
 * Positions are LSP's: 0-based lines, characters in UTF-16 code units. */

/* A file's input errors and findings as the `diagnostics` array of
 * textDocument/publishDiagnostics; each finding carries `data.index`, its
 * index in r->diags. */
json_t *kc_report_lsp_diagnostics(const kc_file_result *r);
/* One finding as an LSP Diagnostic. */
json_t *kc_report_lsp_diagnostic(const kc_source *src, const kc_diag *d, size_t index);
/* The edits of d's fix-it as TextEdit[]; NULL when it has none. */
json_t *kc_report_lsp_edits(const kc_source *src, const kc_diag *d);
/* The hover text of a finding: its rule, summary and documentation
 * (Markdown, malloc'd). */
char *kc_report_lsp_hover(const kc_diag *d);
/* An LSP position as a 1-based line and byte column of src. */
void kc_report_lsp_to_source(const kc_source *src, uint32_t line0, uint32_t ch16, uint32_t *line, uint32_t *col);

#endif
