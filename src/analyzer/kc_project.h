/* kc_project.h — what the files of one run know of each other.
 *
 * A Triton kernel module is often launched from another file
 * (`from .kernels import _router_kernel` ... `_router_kernel[grid](...)`),
 * and the launch is where block sizes and problem sizes are set. Before
 * the files are checked, the import statements of every Python file of the
 * run are read (a text scan: `from X import a, b`, `import X.Y as m`) and
 * resolved to files of the same run: relative modules against the
 * importing file's directory, absolute ones by the tail of the file's
 * absolute path
 * (`pkg.ops.kernels` -> `.../pkg/ops/kernels.py` or `.../kernels/__init__.py`).
 * Each kernel file (one that mentions `jit`) then knows which files import
 * it and subscript the import (`k[`, `mod.k[`): its peers
 * (kc_file_result.peers), whose launches of its kernels the Triton front
 * end reads when the file does not launch them itself, and whose size,
 * mtime and inode are part of its result-cache key.
 */
#ifndef KC_PROJECT_H
#define KC_PROJECT_H

#include "kc_driver.h"

typedef struct kc_project kc_project;

/* Links the Python files of `files` (those without errors), setting each
 * file's peers; the project owns the peers' path strings and must outlive
 * the run. The files are read on `jobs` threads (larger than
 * `max_file_size`: not read). Never fails: a file that cannot be read
 * imports nothing (its check reports why). */
kc_project *kc_project_link(kc_path_list *files, size_t max_file_size, unsigned jobs);
void kc_project_free(kc_project *p); /* NULL-safe */

/* The import statements of one Python source: for each name bound,
 * fn(dots, module, local, is_module). `from ..a.b import c as d` gives
 * (2, "a.b", "d", false) -- d a member of a.b -- and (2, "a.b.c", "d",
 * true) -- d the submodule a.b.c; `import x.y as z` gives (0, "x.y", "z",
 * true); `import x.y` gives (0, "x.y", "x.y", true). Exposed for tests. */
typedef void (*kc_import_fn)(void *ud, unsigned dots, const char *module, const char *local, bool is_module);
void kc_scan_python_imports(const char *text, size_t len, kc_import_fn fn, void *ud);

#endif
