/* kc_build.h — whether the build files of a repository compile a CUDA
 * source.
 *
 * A project whose build files name its sources one by one (a makefile's
 * `CUSRCS = ./Util/GCC2D.cu ...`, CMake's `add_library(x a.cu b.cu)`,
 * setup.py's `sources=[...]`) does not compile a .cu file that none of
 * them names: a file left beside the ones it builds (an `old/` folder, a
 * rewrite, a class the makefile dropped). A finding there is about code
 * the project does not run.
 *
 * What is read, in this order and only as far as needed: the build files
 * and scripts of the file's own directory and the ones above it
 * (kc_build_ancestors_list: where they name no CUDA source one by one, or
 * build a list from a pattern, nothing more is read); then the
 * repository's build files (Makefile, *.mk, CMakeLists.txt,
 * *.cmake, setup.py and every other Python file, meson.build, Bazel,
 * SCons, premake, Visual Studio projects), its scripts and documents
 * (.sh, .md, .txt, .rst, .yml, .json: `nvcc foo.cu` in a README), and its
 * C, C++ and CUDA files (`#include "foo.cu"`), walked as kc_expand_paths
 * walks (.gitignore honoured, hidden entries skipped). Every path that
 * ends in a source or object name (.cu, .c, .cc, .cpp, .cxx, .o, .obj) is
 * a mention.
 *
 * A file is unbuilt only when all of these hold, and otherwise nothing is
 * said:
 *   - at least one build file names a CUDA source by name;
 *   - no build file or script builds its list from a pattern or a
 *     computed name: `glob`, `wildcard`, `aux_source_directory`,
 *     `listdir`, `os.walk`, `*.cu`, `"%s.cu"`, `${name}.cu`, `+ ".cu"`
 *     (a pattern rule `%.o: %.cu` and a substitution `$(SRCS:.cu=.o)`
 *     enumerate nothing and are allowed);
 *     (a make file with such a rule makes every word of it a mention of
 *     an object of that stem: `TARGETS = scan softmax` with `%: %.cu`);
 *   - no mention names the file: a mention's path, stripped of a leading
 *     `./`, `../` or variable (`$(DIR)/`, `${CMAKE_CURRENT_SOURCE_DIR}/`),
 *     is the file's path in the repository or a tail of it after a `/`
 *     (a bare `foo.cu` names every foo.cu), with .o/.obj standing for
 *     any source of that stem;
 *   - the build files name a source of the file's own directory or of
 *     the directory above it: that part of the tree is listed by name.
 */
#ifndef KC_BUILD_H
#define KC_BUILD_H

#include "kc_base.h"
#include "kc_walk.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kc_build_index {
    /* the build files name CUDA sources one by one and build no list
     * from a pattern: unbuilt files can be told */
    bool known;
    uint32_t build_files;  /* build files read */
    uint32_t cuda_sources; /* CUDA source names in them */
    /* the first build file that builds a list from a pattern, and how
     * (when known is false because of one) */
    char *pattern_file;
    const char *pattern;
    /* every mention, stripped ("Util/GCC2D.cu"), whether it comes from a
     * build file, and there the path it names in the repository (joined
     * to the build file's directory; NULL elsewhere) */
    KC_VEC(char *) mentions;
    KC_VEC(bool) in_build;
    KC_VEC(char *) resolved;
} kc_build_index;

/* Reads the repository whose work tree is at root (absolute), from
 * `walked`: its files as kc_expand_paths_if walks them, taking at least
 * those kc_build_wants (the caller's walk may serve other readings too).
 * The build files and scripts are read first, then the Python files, and
 * the documents and sources only where those name CUDA sources one by one
 * with no pattern. Files over max_file_size are skipped; past max_files
 * files or max_bytes bytes read the index is not known. */
void kc_build_index_read(const char *root, const kc_path_list *walked, size_t max_file_size, uint32_t max_files,
                         size_t max_bytes, kc_build_index *out);

/* Is the file at abspath a CUDA source (`.cu`), and do the build files
 * and scripts of the directories from it up to root (its repository) name
 * a CUDA source one by one, with no pattern? Only then can the file be unbuilt, and is the repository
 * read whole (kc_build_index_read): a few directories read, where most
 * repositories would otherwise be walked for nothing. */
bool kc_build_ancestors_list(const char *root, const char *abspath, size_t max_file_size);

/* The files of the directory of abspath and of each directory above it up
 * to root (its repository's work tree, absolute), hidden entries left out,
 * that `take` accepts by name, each read whole when at most max_file_size:
 * fn(ud, its path relative to root, its text, its length) for each, until
 * fn returns false. */
typedef bool (*kc_build_file_fn)(void *ud, const char *rel, const char *text, size_t len);
void kc_build_each_above(const char *root, const char *abspath, size_t max_file_size, bool (*take)(const char *name),
                         kc_build_file_fn fn, void *ud);

/* Does the build index read the file at `path` (by its name)? */
bool kc_build_wants(const char *path);

/* Why no build file compiles the CUDA source at rel (its path in the
 * repository, '/'-separated), malloc'd; NULL when one may (or the index
 * is not known, or rel is no CUDA source). */
char *kc_build_unbuilt(const kc_build_index *b, const char *rel);

void kc_build_index_free(kc_build_index *b);

/* Exposed for tests: is `name` (a file name, no directory) a build file,
 * and one whose text is read for mentions only. */
bool kc_build_is_build_file(const char *name);
bool kc_build_is_mention_file(const char *name);

#endif
