/* kc_walk.h — the paths of a run: files and directories expanded into
 * the list of files to check, the way git sees the tree (.gitignore).
 */
#ifndef KC_WALK_H
#define KC_WALK_H

#include "kc_result.h"

typedef struct kc_path_list {
    KC_VEC(kc_file_result) files; /* path and explicit_path set; errors for bad paths */
    /* kc_project_link leaves the files' repositories unread (kc_reach.h):
     * a check of files that stand alone whatever they sit beside (the
     * test suite's fixtures). */
    bool no_reach;
} kc_path_list;

/* Expands files and directories. Directories are walked recursively in
 * name order, skipping hidden entries, symlinked directories and what git
 * ignores (the .gitignore files along the way, from the work tree's top
 * down, over .git/info/exclude over git's global ignore file
 * $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore; git's wildmatch
 * patterns, POSIX classes included); only CUDA files (kc_lang_for_path:
 * .cu, .cu.cc, .cuh, headers) and .py files are
 * taken from walks. A path that does not exist, or an explicit file of
 * another type, becomes a result with an error. */
void kc_expand_paths(const char *const *paths, size_t n, kc_path_list *out);

/* kc_expand_paths, taking from walks the files `take` accepts (by path)
 * instead of the CUDA and Python files. */
typedef bool (*kc_walk_take)(const char *path);
void kc_expand_paths_if(const char *const *paths, size_t n, kc_walk_take take, kc_path_list *out);

/* Does a .gitignore-style pattern match `path` (relative, '/'-separated)?
 * Exposed for tests. */
bool kc_gitignore_match(const char *pattern, const char *path, bool is_dir);

#endif
