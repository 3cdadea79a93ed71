/* kc_toml.h — the `[tool.kcheck]` table of a pyproject.toml, for
 * kc_config.c, which reads it as it reads a .kcheck.yaml.
 *
 * Debian has no C library for TOML, so this is a reader of TOML 1.0 as
 * pyproject files use it: comments, `[table]` and `[[array.of.tables]]`
 * headers, dotted and quoted keys, basic and literal strings (multi-line
 * too), integers, floats, booleans, dates (kept as text), arrays and
 * inline tables. The whole file is parsed (a syntax error anywhere is
 * reported, with its line); only the wanted table is kept, converted into
 * a YAML document (libyaml's) whose scalars are the values as text and
 * whose nodes carry the TOML line in their marks.
 */
#ifndef KC_TOML_H
#define KC_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/* Parses `text` and builds in `doc` (initialised here on success) a
 * mapping of the table at the dotted path `table` ("tool.kcheck"); *found
 * false, and an empty document, when the file has no such table. False
 * with *err ("line N: message", malloc'd) on a syntax error. */
bool kc_toml_table(const char *text, size_t len, const char *table, yaml_document_t *doc, bool *found, char **err);

#endif
