/* cuda_flags.h — the compile flags of a CUDA file (cuda_flags.c), and the
 * small path helpers the front end shares with it. Private to the CUDA
 * front end. */
#ifndef KC_CUDA_FLAGS_H
#define KC_CUDA_FLAGS_H

#include "kc_base.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdbool.h>

typedef struct kc_cuda_args {
    KC_VEC(const char *) v;       /* arena strings */
    KC_VEC(const char *) dirs;    /* user include directories, in search order */
    const char *arch;             /* from the compile database, or NULL; in the parse's own
                                     arguments, the architecture it parses for */
    KC_VEC(const char *) rsp;     /* response files read (@file, --options-file): dependencies */
    KC_VEC(const char *) ignored; /* compile-database flags not understood (kc_cuda_db_report) */
} kc_cuda_args;

void kc_cuda_arg(kc_cuda_args *a, const char *s);
void kc_cuda_args_free(kc_cuda_args *a); /* the vectors; the strings are the arena's */

/* The compile database of `dir` (-p): compile_commands.json or
 * compile_flags.txt there, or NULL when there is none or it cannot be
 * loaded. The caller disposes of it. */
CXCompilationDatabase kc_cuda_db_open(const char *dir);

/* The compile database's flags for `path` into `out`: its own entry, or
 * for a file without one (a header, a new file) the entry of the closest
 * neighbour; only those that change parsing, relative directories made
 * absolute, response files read; in shim mode the toolkit's own include
 * directories left out. Nothing when db is NULL. */
void kc_cuda_db_flags(CXCompilationDatabase db, kc_arena *ar, const char *path, kc_cuda_args *out, bool shim);

bool kc_cuda_file_exists(const char *path); /* a regular file */
/* Directory part of a path ("." when there is none); arena string. */
const char *kc_cuda_dir_of(kc_arena *a, const char *path);
/* dir/name, or name when it is absolute; arena string. */
const char *kc_cuda_path_join(kc_arena *a, const char *dir, const char *name);

#endif
