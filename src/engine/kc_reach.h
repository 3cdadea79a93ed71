/* kc_reach.h — functions of the run's files that nothing in their
 * repository names.
 *
 * A kernel nothing launches and a helper nothing calls never run: a
 * finding there is about code the project does not execute (a deprecated
 * kernel left in a module, a launch commented out). For each file of the
 * run inside a git repository, the functions it defines (Python: a `def`
 * after a decorator line naming `jit`; CUDA: the first name followed by `(`
 * in a declaration that says `__global__` or `__device__`, or a macro that
 * names DEVICE or GLOBAL; C/C++ host code: the first name followed by `(`,
 * its parameters and then a body, at namespace scope, not `A::f`, not
 * `main`) are looked for in the text of every CUDA, C/C++ and
 * Python file of the repository (walked as kc_expand_paths walks:
 * .gitignore honoured, hidden entries skipped), comments and CUDA code
 * under `#if 0` (never compiled: a launch kept there launches nothing) left
 * out and
 * string literals kept (a name in a string may be looked up at run time:
 * an ahead-of-time build's kernel list, `getattr`, NVRTC). A name found
 * only where it is defined is unreferenced; so, transitively, is a host
 * function found only inside the bodies of unreferenced C/C++ host
 * functions of its own file (a static helper only a dead launcher beside
 * it calls; not where an `#if` leaves the file's braces unbalanced, nor a
 * function that names itself; a use in another file's body counts as
 * live, so that the answer does not depend on the run's other files); the
 * repository is read only
 * for the names the file itself does not use. Nothing is said of a file
 * outside a git repository, of one that launches none of its own kernels
 * and calls none of its own Python functions (used from outside), or of a
 * repository of more than KC_REACH_MAX_FILES files or KC_REACH_MAX_BYTES
 * bytes. The host functions of a file are judged only when another file of
 * the repository names one of them (the file is part of a program there;
 * otherwise it may be a library's API, called from elsewhere). */
#ifndef KC_REACH_H
#define KC_REACH_H

#include "kc_model.h"
#include "kc_walk.h"

#define KC_REACH_MAX_FILES 20000
#define KC_REACH_MAX_BYTES ((size_t)256 << 20)
/* Where a file's only functions to judge are host functions (a launcher
 * file whose kernels it launches itself), its repository is read up to
 * this size: about 0.15 s of scanning, paid by a check of that one file
 * too. */
#define KC_REACH_HOST_MAX_BYTES ((size_t)32 << 20)

/* The names unreferenced in each file's repository, set in each file
 * result's peers (unreferenced, nunreferenced, reach_files); `owned`
 * receives the allocations, which must outlive the run (free with
 * kc_reach_free). */
typedef struct kc_reach {
    KC_VEC(char *) names;
    KC_VEC(kc_unref *) arrays;
} kc_reach;
void kc_reach_link(kc_path_list *files, size_t max_file_size, kc_reach *owned);
void kc_reach_free(kc_reach *r);

/* Marks each kernel and host function of m (and of the models chained
 * after it) whose name is among peers' unreferenced names:
 * kc_kernel.unreferenced and kc_host_fn.unreferenced say why. */
void kc_reach_mark(kc_model *m, const kc_peers *peers);

#endif
