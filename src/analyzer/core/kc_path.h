/* kc_path.h — paths as kcheck reports and compares them (fingerprints,
 * baselines, SARIF, the run's import linking). */
#ifndef KC_PATH_H
#define KC_PATH_H

#include "kc_base.h"

/* The path as a fingerprint and SARIF see it: lexically normalised ("./"
 * and "x/.." segments removed), relative to the working directory when it
 * lies under it, '/'-separated. Caller frees. */
char *kc_path_normalize(const char *path);
/* The same without the working directory: "./" and "x/.." segments
 * removed, absolute paths stay absolute. Caller frees. */
char *kc_path_lexical(const char *path);

/* `path` absolute (against the working directory) and lexically
 * normalized, symbolic links kept. malloc'd. */
char *kc_path_absolute(const char *path);
/* The part of the absolute path `abspath` below the directory `dir`
 * (a pointer into abspath), or NULL when it is not under it. */
const char *kc_path_under(const char *abspath, const char *dir);
/* The directory that fingerprints, baselines and SARIF name files
 * relative to: `root` when given (--root), else the nearest directory at
 * or above `path` that holds `.git` (the repository), else the working
 * directory. Absolute, lexically normalized, malloc'd. */
char *kc_path_project_root(const char *path, const char *root);
/* The nearest directory at or above `path` that holds `.git` (its
 * repository), absolute and malloc'd, or NULL. */
char *kc_path_repository(const char *path);
/* Is `dir` (absolute) the user's home directory ($HOME)? A home kept in git
 * is not a project to walk. */
bool kc_path_is_home(const char *dir);
/* `path` relative to kc_path_project_root(path, root), lexically (the
 * same from whichever directory kcheck runs); kc_path_normalize(path) when
 * it is not under that directory. malloc'd. */
char *kc_path_project(const char *path, const char *root);

#endif
