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
 * it and subscript the import (`k[`, `mod.k[`, or a name assigned it:
 * `fx = k if c else k2` ... `fx[`): its peers
 * (kc_file_result.peers), whose launches of its kernels the Triton front
 * end reads when the file does not launch them itself, and whose size,
 * mtime and inode are part of its result-cache key.
 *
 * A kernel file's peers also hold the modules its Triton names come from
 * when they are the project's (`from vllm.triton_utils import tl, triton`,
 * used as `@triton.jit`, `tl.load`): the module X, a file of the run or
 * else the file where Python would find it (from the importer's package
 * directories up to the directory above the outermost package), when its
 * imports bind the name to triton (`import triton.language as tl`, also
 * inside try/except or if). The Triton front end reads the binding there.
 * The same goes for the module of a decorator the file imports when its
 * definition registers the function it wraps as an operator
 * (torch.library.custom_op, triton_op; kc_py_def_registers): whether
 * torch.compile traces a launch depends on it.
 *
 * A kernel file that no file of the run imports is looked for outside the
 * run too: the Python files of its repository (the nearest directory above
 * it with .git, walked as kc_expand_paths walks, .gitignore honoured, up to
 * 20000 files) that name its module and subscript something are read for
 * imports of it like the run's own, so a run of one file finds the file
 * that launches its kernels (pre-commit on a commit, an editor).
 */
#ifndef KC_PROJECT_H
#define KC_PROJECT_H

#include "kc_walk.h"
#include "kc_pyscan.h"

typedef struct kc_project kc_project;

/* Links the Python files of `files` (those without errors), setting each
 * file's peers; the project owns the peers' path strings and must outlive
 * the run. The files are read on `jobs` threads (larger than
 * `max_file_size`: not read). Never fails: a file that cannot be read
 * imports nothing (its check reports why). */
kc_project *kc_project_link(kc_path_list *files, size_t max_file_size, unsigned jobs);
void kc_project_free(kc_project *p); /* NULL-safe */

#endif
