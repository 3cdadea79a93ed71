/* kc_config.h — configuration files (.kcheck.yaml) and per-file options.
 *
 * For each checked file kcheck uses the nearest `.kcheck.yaml` found by
 * walking up from the file's directory (the file's own directory first),
 * stopping at the filesystem root or after a directory that contains
 * `.git`. Its settings, then those of its `overrides` whose `files`
 * patterns match the file, then the command line, give the file's
 * effective kc_options:
 *
 *   select: [KC1, view-reorder]        # replaces the default (every rule)
 *   ignore: [KC102]
 *   options: {KC201.max-trip-count: 64}  # or {KC201: {max-trip-count: 64}}
 *   cuda: {args: [-DN=4, -Iinclude], arch: sm_80, toolkit: true,
 *          path: /usr/local/cuda, compile-commands: build}
 *   overrides:
 *     - files: ["*.cuh", "kernels/legacy"]  # .gitignore-style, relative to this file
 *       ignore: [KC101]                # select enables more rules here
 *   exclude: [third_party/, "*_generated.py"]  # .gitignore-style: not checked at all
 *   extend: ../common.kcheck.yaml      # settings of another file, under these
 *
 * The command line wins: --select replaces the files' selection (the top
 * level's, and the `select` of overrides), though the `ignore` of a
 * matching override still applies (a per-path exception, like ruff's
 * per-file-ignores); --ignore removes rules last; -o options come after
 * the files' options (the last one wins); --cuda-arch, --toolkit,
 * --cuda-path and -p win over `cuda:`; arguments after `--` follow
 * `cuda.args`.
 *
 * A kc_config_set caches the parsed files by directory and the effective
 * options by (file, matching overrides); the options it returns are
 * immutable and live as long as the set. It is used from one thread
 * (the driver resolves every file before the workers start).
 */
#ifndef KC_CONFIG_H
#define KC_CONFIG_H

#include <stdio.h>

#include "kc_options.h"

#define KC_CONFIG_NAME ".kcheck.yaml"
#define KC_PYPROJECT_NAME "pyproject.toml" /* its [tool.kcheck] table, where no .kcheck.yaml is */

/* What the command line said; it wins over configuration files. */
typedef struct kc_config_cli {
    const char *const *selects; /* --select lists, in order */
    size_t nselects;
    const char *const *ignores; /* --ignore lists, in order */
    size_t nignores;
    bool arch_set;    /* --cuda-arch */
    bool toolkit_set; /* --toolkit or --cuda-path */
    bool db_set;      /* -p */
    const char *config_file; /* --config FILE: this file for every path, no walk */
    bool no_config;          /* --no-config: no files at all */
} kc_config_cli;

typedef struct kc_config_set kc_config_set;

/* `base` holds the defaults and the command line; it is borrowed and must
 * outlive the set. */
kc_config_set *kc_config_set_new(const kc_options *base, const kc_config_cli *cli);
void kc_config_set_delete(kc_config_set *s); /* NULL-safe */

/* The effective options for `path` (a file, or a directory when is_dir).
 * Returns NULL and sets *err (malloc'd, "FILE:LINE:COL: error: message") when
 * the configuration file that applies is invalid. */
const kc_options *kc_config_options_for(kc_config_set *s, const char *path, bool is_dir, char **err);

/* Does an `exclude` pattern of the configuration that applies to `path`
 * (relative to the file that wrote it, an `extend` base included) match
 * it or a directory above it? Such files are not checked, walked or named
 * on the command line. False also when the configuration is invalid (the
 * options say why). */
bool kc_config_excluded(kc_config_set *s, const char *path, bool is_dir);
/* Applies one comma-separated rule list (IDs, ID prefixes such as KC1,
 * slugs, or ALL) to flags indexed like kc_rules_get. Returns false and
 * sets *bad (malloc'd) to the first unknown name. */
bool kc_rule_list_apply(const char *list, uint8_t *flags, uint8_t value, char **bad);

/* Checks a rule option: the rule exists, documents the option, and the
 * value is an integer when the default is. NULL when fine, else a
 * malloc'd message. On success *canonical_id is the rule's ID. */
char *kc_rule_option_check(const char *rule, const char *name, const char *value, const char **canonical_id);

/* Prints `o` as a .kcheck.yaml that gives the same settings (selection,
 * every documented rule option, CUDA flags), with the file it came from
 * in a comment. */
void kc_config_dump(FILE *out, const kc_options *o, const char *path);

#endif
