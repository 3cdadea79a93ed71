/* cuda_flags.c — a file's compile flags from the compile database (-p):
 * its entry (or the closest neighbour's), response files expanded, reduced
 * to the flags that change how it parses, in clang's spelling; and the
 * run's warning about flags kcheck does not know (kc_cuda_db_report). */
#include "cuda_flags.h"
#include "kc_cuda_frontend.h"
#include "kc_file.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- paths ---------------------------------------------------------------- */

bool kc_cuda_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *kc_cuda_dir_of(kc_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    if (slash == path)
        return "/";
    return kc_arena_strndup(a, path, (size_t)(slash - path));
}

const char *kc_cuda_path_join(kc_arena *a, const char *dir, const char *name)
{
    if (name[0] == '/' || !dir || !dir[0])
        return kc_arena_strdup(a, name);
    size_t n = strlen(dir);
    return kc_arena_printf(a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

/* ---- arguments ------------------------------------------------------------ */

void kc_cuda_arg(kc_cuda_args *a, const char *s) { kc_vec_push(&a->v, s); }

void kc_cuda_args_free(kc_cuda_args *a)
{
    kc_vec_free(&a->v);
    kc_vec_free(&a->dirs);
    kc_vec_free(&a->rsp);
    kc_vec_free(&a->ignored);
}

/* Does a directory hold the CUDA toolkit headers? (Dropped in shim mode so
 * that the shim, not the toolkit, answers #include <cuda_runtime.h>.) */
static bool is_toolkit_include(kc_arena *ar, const char *dir)
{
    return kc_cuda_file_exists(kc_cuda_path_join(ar, dir, "cuda_runtime_api.h")) ||
           kc_cuda_file_exists(kc_cuda_path_join(ar, dir, "crt/host_defines.h"));
}

/* `code=sm_80`, `arch=compute_80,code=[compute_80,sm_80]` -> "sm_80". */
static const char *arch_from_gencode(kc_arena *ar, const char *s)
{
    const char *p = strstr(s, "sm_");
    if (!p)
        p = strstr(s, "compute_");
    if (!p)
        return NULL;
    const char *digits = p[0] == 's' ? p + 3 : p + 8;
    size_t n = 0;
    while (isalnum((unsigned char)digits[n]) && n < 8)
        n++;
    if (!n)
        return NULL;
    return kc_arena_printf(ar, "sm_%.*s", (int)n, digits);
}

static void filter_command(kc_arena *ar, kc_cuda_args *out, const char *const *argv, unsigned argc, const char *dir,
                           bool shim, int depth);

#define RSP_MAX_BYTES (1u << 20)
#define RSP_MAX_DEPTH 4

/* The arguments of a response file (`@file`, nvcc's `--options-file` /
 * `-optf`, which CMake writes for CUDA include directories): split at
 * white space, with '...' and "..." quoting and backslash escapes as GCC
 * and nvcc read them; then filtered like the command's own. */
static void expand_response(kc_arena *ar, kc_cuda_args *out, const char *file, const char *dir, bool shim, int depth)
{
    if (depth >= RSP_MAX_DEPTH || !file || !*file)
        return;
    const char *path = file[0] == '/' ? file : kc_cuda_path_join(ar, dir, file);
    char *data = NULL;
    size_t len = 0;
    if (!kc_read_all(path, &data, &len) || len > RSP_MAX_BYTES) {
        free(data);
        return;
    }
    kc_vec_push(&out->rsp, path);
    KC_VEC(const char *) args = {0};
    kc_vec_push(&args, ""); /* filter_command skips the program name */
    kc_strbuf cur = {0};
    bool in_arg = false;
    char quote = 0;
    for (size_t i = 0; i < len; i++) {
        char c = data[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"' && i + 1 < len)
                kc_sb_putc(&cur, data[++i]);
            else
                kc_sb_putc(&cur, c);
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_arg = true;
        } else if (c == '\\' && i + 1 < len) {
            kc_sb_putc(&cur, data[++i]);
            in_arg = true;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_arg)
                kc_vec_push(&args, kc_arena_strdup(ar, kc_sb_str(&cur)));
            cur.len = 0;
            if (cur.data)
                cur.data[0] = '\0';
            in_arg = false;
        } else {
            kc_sb_putc(&cur, c);
            in_arg = true;
        }
    }
    if (in_arg)
        kc_vec_push(&args, kc_arena_strdup(ar, kc_sb_str(&cur)));
    kc_sb_free(&cur);
    free(data);
    filter_command(ar, out, args.data, args.len, dir, shim, depth + 1);
    kc_vec_free(&args);
}

/* A flag of a compile command that does not change how the file parses
 * (optimisation, code generation, warnings, linking, the host compiler's
 * -f and -m options, nvcc's -X pass-throughs): 1 when its value is the
 * next argument, 0 when it has none or carries it; -1 for a flag kcheck
 * does not know, which kc_cuda_db_report names. Arguments that are not
 * flags (the input file, a value) are 0. */
static int dropped_flag(const char *a)
{
    if (a[0] != '-' || !a[1])
        return 0;
    /* Separate values. */
    static const char *const with_value[] = {
        "-o", "-MF", "-MT", "-MQ", "-x", "-Xcompiler", "-Xptxas", "-Xlinker", "-Xnvlink", "-Xarchive",
        "-Xfatbin", "-Xcudafe", "-Xclang", "-Xopenmp", "-ccbin", "--compiler-bindir", "-L", "-l", "--library",
        "--library-path", "--output-file", "-maxrregcount", "--maxrregcount", "-rdc", "--compiler-options",
        "--linker-options", "--ptxas-options", "--nvlink-options", "--archive-options", "--fatbin-options",
        "-t", "--threads", "--keep-dir", "-keep-dir", "-odir", "--output-directory", "-cudart", "--cudart",
        "-cudadevrt", "--cudadevrt", "-target", "--target", "-isysroot", "--sysroot", "-split-compile",
        "--split-compile", "-diag-suppress", "--diag-suppress", "--diag_suppress", "-dopt", "--dopt",
        "--relocatable-device-code", "-ftz", "-prec-div", "-prec-sqrt", "-fmad", "--ftz", "--prec-div",
        "--prec-sqrt", "--fmad", "-time", "--time", "--machine", "-m",
    };
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
        if (strcmp(a, with_value[k]) == 0)
            return 1;
    /* The same with the value joined (`-rdc=true`, `-Xcompiler=-fPIC`, `-ftz=true`). */
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++) {
        size_t n = strlen(with_value[k]);
        if (n > 2 && strncmp(a, with_value[k], n) == 0 && a[n] == '=')
            return 0;
    }
    /* Whole families: optimisation, debug info, warnings, the host
     * compiler's -f/-m, dependency output, linking. */
    static const char *const prefixes[] = {"-O", "-g", "-W", "-f", "-m", "-M", "-L", "-l", "-Xptxas",
                                           "-Xcompiler", "-Xlinker", "-Xnvlink", "-Xcudafe", "-Xfatbin",
                                           "--ptxas-options=", "--compiler-options=", "--linker-options=",
                                           "--nvlink-options=", "--diag-", "--diag_", "-diag-", "--Wno-",
                                           "--Werror", "--expt-", "-expt-", "-forward-unknown-",
                                           "--forward-unknown-", "--cuda-path=", "--offload-", "-stdlib"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++)
        if (strncmp(a, prefixes[k], strlen(prefixes[k])) == 0)
            return 0;
    static const char *const alone[] = {
        "-c", "-E", "-S", "-G", "-v", "-w", "-pg", "-pipe", "-shared", "-static", "-pthread", "-lineinfo",
        "--generate-line-info", "--device-debug", "--debug", "-dc", "-dw", "-dlink", "--device-c", "--device-w",
        "--device-link", "-use_fast_math", "--use_fast_math", "-extended-lambda", "--extended-lambda", "-keep",
        "--keep", "-res-usage", "--resource-usage", "--display-error-number", "--no-display-error-number",
        "-allow-unsupported-compiler", "--allow-unsupported-compiler", "-nocudainc", "-nocudalib",
        "-nogpuinc", "-nogpulib", "-restrict", "--restrict", "-lto", "-dlto", "--dlink-time-opt", "-ptx", "--ptx",
        "-cubin", "--cubin", "-fatbin", "--fatbin", "-cuda", "--cuda", "-dryrun", "--dryrun", "--save-temps",
        "-save-temps", "-src-in-ptx", "--source-in-ptx", "-noprof", "--dont-use-profile", "-err-no",
        "--disable-warnings", "-pedantic", "-pedantic-errors", "-ansi", "-nostdinc", "-nostdinc++",
        "--no-host-device-initializer-list", "--no-host-device-move-forward", "-rdynamic",
        "-static-libstdc++", "-static-libgcc", "-shared-libgcc", "-H", "-P", "-C", "-Qunused-arguments",
    };
    for (size_t k = 0; k < sizeof alone / sizeof alone[0]; k++)
        if (strcmp(a, alone[k]) == 0)
            return 0;
    return -1;
}

/* Keeps the flags of a compile command that change how the file parses
 * (-I -isystem -iquote -idirafter -D -U -std -include), in clang's
 * spelling, with relative directories made absolute; maps nvcc's
 * -arch/-gencode to the GPU architecture; reads response files; drops
 * everything else. */
static void filter_command(kc_arena *ar, kc_cuda_args *out, const char *const *argv, unsigned argc, const char *dir,
                           bool shim, int depth)
{
    for (unsigned i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '@') {
            expand_response(ar, out, a + 1, dir, shim, depth);
            continue;
        }
        if (!strcmp(a, "--options-file") || !strcmp(a, "-optf")) {
            if (i + 1 < argc)
                expand_response(ar, out, argv[++i], dir, shim, depth);
            continue;
        }
        if (!strncmp(a, "--options-file=", 15) || !strncmp(a, "-optf=", 6)) {
            expand_response(ar, out, strchr(a, '=') + 1, dir, shim, depth);
            continue;
        }
        const char *val = NULL;
        const char *flag = NULL;
        bool is_dir = false;
        /* Options with a value, joined (-Ifoo, -I=foo, --include-path=foo) or separate. */
        static const struct {
            const char *name, *clang;
            bool dir;
        } opts[] = {
            {"-I", "-I", true},
            {"--include-path", "-I", true},
            {"-isystem", "-isystem", true},
            {"--system-include", "-isystem", true},
            {"-iquote", "-iquote", true},
            {"-idirafter", "-idirafter", true},
            {"-D", "-D", false},
            {"--define-macro", "-D", false},
            {"-U", "-U", false},
            {"--undefine-macro", "-U", false},
            {"-include", "-include", false},
            {"--pre-include", "-include", false},
            {"-imacros", "-imacros", false},
            {"-std", "-std", false},
            {"--std", "-std", false},
            {"-arch", "", false},
            {"--gpu-architecture", "", false},
            {"--cuda-gpu-arch", "", false},
            {"--offload-arch", "", false},
            {"-gencode", "", false},
            {"--generate-code", "", false},
            {"-code", "", false},
            {"--gpu-code", "", false},
        };
        bool matched = false;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !matched; k++) {
            size_t n = strlen(opts[k].name);
            if (strncmp(a, opts[k].name, n) != 0)
                continue;
            const char *rest = a + n;
            if (*rest == '\0') {
                if (i + 1 >= argc)
                    break;
                val = argv[++i];
            } else if (*rest == '=') {
                val = rest + 1;
            } else if (opts[k].name[1] != '-' && (n == 2 || opts[k].dir)) { /* -Ifoo, -DFOO, -isystem/x */
                val = rest;
            } else {
                continue; /* a longer option sharing the prefix */
            }
            flag = opts[k].clang;
            is_dir = opts[k].dir;
            matched = true;
        }
        if (!matched) {
            if (strcmp(a, "--default-stream") == 0 || strncmp(a, "--default-stream=", 17) == 0 ||
                strcmp(a, "-default-stream") == 0) {
                /* nvcc defines this macro for `per-thread`; the runtime headers read it. */
                const char *v = strchr(a, '=') ? strchr(a, '=') + 1 : i + 1 < argc ? argv[++i] : "";
                if (strcmp(v, "per-thread") == 0)
                    kc_cuda_arg(out, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
                continue;
            }
            int skip = dropped_flag(a);
            if (skip < 0) {
                kc_vec_push(&out->ignored, a);
                continue;
            }
            if (skip && i + 1 < argc)
                i++;
            continue;
        }
        if (!flag[0]) { /* architecture */
            const char *arch = arch_from_gencode(ar, val);
            if (arch && !out->arch)
                out->arch = arch;
            continue;
        }
        if (strcmp(flag, "-std") == 0) {
            /* C++ standards the shim can be parsed with (C++11 on) */
            if (strstr(val, "++") && !strstr(val, "++98") && !strstr(val, "++03"))
                kc_cuda_arg(out, kc_arena_printf(ar, "-std=%s", val));
            continue;
        }
        if (is_dir) {
            const char *d = kc_cuda_path_join(ar, dir, val);
            if (shim && is_toolkit_include(ar, d))
                continue;
            kc_cuda_arg(out, flag);
            kc_cuda_arg(out, d);
            if (strcmp(flag, "-idirafter") != 0)
                kc_vec_push(&out->dirs, d);
            continue;
        }
        if (strcmp(flag, "-include") == 0 || strcmp(flag, "-imacros") == 0) {
            kc_cuda_arg(out, flag);
            kc_cuda_arg(out, kc_cuda_path_join(ar, dir, val));
            continue;
        }
        kc_cuda_arg(out, kc_arena_printf(ar, "%s%s", flag, val));
    }
}

static const char *absolute_path(kc_arena *ar, const char *path)
{
    char buf[PATH_MAX];
    if (realpath(path, buf))
        return kc_arena_strdup(ar, buf);
    if (path[0] == '/')
        return path;
    if (getcwd(buf, sizeof buf))
        return kc_cuda_path_join(ar, buf, path);
    return path;
}

CXCompilationDatabase kc_cuda_db_open(const char *dir)
{
    kc_arena *ar = kc_arena_new();
    /* Checked first: libclang prints its own complaint to stderr. */
    bool present = kc_cuda_file_exists(kc_cuda_path_join(ar, dir, "compile_commands.json")) ||
                   kc_cuda_file_exists(kc_cuda_path_join(ar, dir, "compile_flags.txt"));
    kc_arena_delete(ar);
    CXCompilationDatabase_Error err = CXCompilationDatabase_CanNotLoadDatabase;
    CXCompilationDatabase db = present ? clang_CompilationDatabase_fromDirectory(dir, &err) : NULL;
    if (db && err != CXCompilationDatabase_NoError) {
        clang_CompilationDatabase_dispose(db);
        db = NULL;
    }
    return db;
}

/* The compile database's flags for `path`: its own entry, or for a file
 * without one (a header, a new file) the entry of the closest neighbour. */
void kc_cuda_db_flags(CXCompilationDatabase db, kc_arena *ar, const char *path, kc_cuda_args *out, bool shim)
{
    if (!db)
        return;
    const char *abs = absolute_path(ar, path);
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs);
    bool own = cmds && clang_CompileCommands_getSize(cmds) > 0;
    if (!own) {
        if (cmds)
            clang_CompileCommands_dispose(cmds);
        cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    }
    if (!cmds)
        return;
    unsigned n = clang_CompileCommands_getSize(cmds);
    unsigned best = 0;
    size_t best_score = 0;
    if (!own) {
        /* The entry sharing the longest directory prefix; .cu preferred. */
        const char *mydir = kc_cuda_dir_of(ar, abs);
        for (unsigned i = 0; i < n; i++) {
            CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
            CXString f = clang_CompileCommand_getFilename(c);
            const char *fn = clang_getCString(f);
            size_t score = 0;
            if (fn) {
                while (mydir[score] && fn[score] == mydir[score])
                    score++;
                score = score * 2 + (strstr(fn, ".cu") ? 1 : 0);
            }
            clang_disposeString(f);
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
    }
    if (n > 0) {
        CXCompileCommand c = clang_CompileCommands_getCommand(cmds, best);
        unsigned argc = clang_CompileCommand_getNumArgs(c);
        const char **argv = kc_xcalloc(argc ? argc : 1, sizeof *argv);
        for (unsigned i = 0; i < argc; i++) {
            CXString s = clang_CompileCommand_getArg(c, i);
            argv[i] = kc_arena_strdup(ar, clang_getCString(s) ? clang_getCString(s) : "");
            clang_disposeString(s);
        }
        CXString d = clang_CompileCommand_getDirectory(c);
        const char *dir = kc_arena_strdup(ar, clang_getCString(d) ? clang_getCString(d) : ".");
        clang_disposeString(d);
        filter_command(ar, out, argv, argc, dir, shim, 0);
        free(argv);
    }
    clang_CompileCommands_dispose(cmds);
}

/* ---- the compile database's flags that are not understood ---------------------------- */

int kc_cuda_db_report(const kc_options *opts, const char *const *paths, size_t n, FILE *err)
{
    if (!opts->compile_db_dir || !n)
        return 0;
    kc_arena *ar = kc_arena_new();
    int reported = 0;
    CXCompilationDatabase db = kc_cuda_db_open(opts->compile_db_dir);
    const char *source =
        kc_cuda_file_exists(kc_cuda_path_join(ar, opts->compile_db_dir, "compile_commands.json"))
            ? "compile_commands.json"
            : "compile_flags.txt";
    if (db) {
        /* Each flag once, with how many of the files it applies to and the first. */
        KC_VEC(const char *) flags = {0};
        KC_VEC(size_t) count = {0};
        KC_VEC(const char *) first = {0};
        for (size_t i = 0; i < n; i++) {
            kc_cuda_args a = {0};
            kc_cuda_db_flags(db, ar, paths[i], &a, opts->cuda_mode != KC_CUDA_TOOLKIT);
            for (uint32_t k = 0; k < a.ignored.len; k++) {
                bool again = false;
                for (uint32_t j = 0; j < k && !again; j++)
                    again = strcmp(a.ignored.data[j], a.ignored.data[k]) == 0;
                if (again)
                    continue;
                uint32_t f = 0;
                while (f < flags.len && strcmp(flags.data[f], a.ignored.data[k]) != 0)
                    f++;
                if (f == flags.len) {
                    kc_vec_push(&flags, a.ignored.data[k]);
                    kc_vec_push(&count, 0);
                    kc_vec_push(&first, paths[i]);
                }
                count.data[f]++;
            }
            kc_cuda_args_free(&a);
        }
        for (uint32_t f = 0; f < flags.len; f++)
            fprintf(err,
                    "kcheck: warning: %s/%s: compile flag '%s' (%s%s) is not understood; "
                    "parsed without it (give any macros or include directories it adds after `--`)\n",
                    opts->compile_db_dir, source, flags.data[f], first.data[f],
                    count.data[f] > 1 ? kc_arena_printf(ar, " and %zu other file%s", count.data[f] - 1,
                                                       count.data[f] > 2 ? "s" : "")
                                      : "");
        reported = (int)flags.len;
        kc_vec_free(&flags);
        kc_vec_free(&count);
        kc_vec_free(&first);
        clang_CompilationDatabase_dispose(db);
    }
    kc_arena_delete(ar);
    return reported;
}
