#include "kc_cli.h"

#include "kc_baseline.h"
#include "kc_config.h"
#include "kc_driver.h"
#include "kc_frontend.h"
#include "kc_project.h"
#include "kc_report.h"
#include "kc_server.h"
#include "kc_verify.h"
#include "kc_rule.h"

#include <ctype.h>
#include <getopt.h>
#include <sys/stat.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: kcheck [options] PATH... [-- COMPILER-ARGS...]\n"
    "       kcheck verify [options] PATH...   (confirm findings on the GPU)\n"
    "       kcheck --dump-config [PATH...]   (the effective configuration for each path)\n"
    "       kcheck server start|stop|status|run   (the server of --server)\n"
    "       kcheck --list-rules | --explain RULE | --version | --help\n"
    "\n"
    "Checks CUDA (.cu, .cuh) and Triton (.py) kernel sources. Directories are\n"
    "walked recursively, honouring .gitignore and skipping hidden entries.\n"
    "\n"
    "Output:\n"
    "  --format FMT          text (default), json, sarif (SARIF 2.1.0) or github (Actions annotations)\n"
    "  --color WHEN          auto (default: on a terminal, unless NO_COLOR is set), always, never\n"
    "  --no-source           do not print the source line and caret\n"
    "  --severity SEVERITY   lowest severity reported at all: note, warning (default), error\n"
    "  --fail-on SEVERITY    lowest severity that makes the exit status 1 (default: warning)\n"
    "  -q, --quiet           no summary line; nothing at all when there are no findings\n"
    "  --stats               print findings per rule, files and time (on stderr for json and sarif)\n"
    "Rules:\n"
    "  --select LIST         only these rules (IDs, ID prefixes such as KC1, slugs or ALL; comma-separated)\n"
    "  --ignore LIST         not these rules\n"
    "  -o, --option R.NAME=V set a rule option, e.g. KC201.max-trip-count=64\n"
    "  --list-rules          list the rules and exit\n"
    "  --explain RULE        print a rule's documentation and exit\n"
    "Configuration and suppressions (see kcheck(1), docs/ci.md):\n"
    "  --config FILE         use FILE for every path instead of the nearest .kcheck.yaml\n"
    "  --no-config           read no configuration file\n"
    "  --dump-config         print the effective configuration for each PATH (default .) and exit\n"
    "  --dump-shim DIR       write the headers and flags the CUDA front end parses with into DIR\n"
    "                        (DIR/compile_flags.txt), for clang, clang-tidy or clangd, and exit\n"
    "  --report-unused-suppressions  report 'kcheck: ignore' comments that matched nothing (KC001)\n"
    "  --baseline FILE       do not report the findings recorded in FILE\n"
    "  --write-baseline FILE record the current findings in FILE (exit status 0 unless a file fails)\n"
    "Fixes:\n"
    "  --fix                 apply the mechanical fix-its to the files, then report what remains\n"
    "  --diff                print the fix-its as a unified diff instead of writing them\n"
    "CUDA:\n"
    "  --cuda-path DIR       parse with the real CUDA toolkit headers in DIR\n"
    "  --toolkit             parse with the toolkit headers found on this machine\n"
    "                        (default: kcheck's built-in stand-ins, no toolkit needed)\n"
    "  --cuda-arch SM        GPU architecture to parse for (default: sm_75)\n"
    "  -p DIR                read compile flags from DIR/compile_commands.json\n"
    "  -- ARGS               extra compiler arguments (after all paths)\n"
    "Run:\n"
    "  -j, --jobs N          worker threads (default: all cores)\n"
    "  --max-file-size N     skip files larger than N bytes with an error (default: 64 MiB)\n"
    "  --no-cache            do not read or write the result cache\n"
    "  --cache-dir DIR       cache results there (default: $KCHECK_CACHE_DIR, else ~/.cache/kcheck)\n"
    "  --no-header-cache     do not precompile the CUDA headers into the cache directory\n"
    "  --server              check in a background kcheck server that keeps libclang loaded between runs\n"
    "                        (started on first use; kcheck server start|stop|status|run)\n"
    "  --dump-model          print what the front ends inferred (kernels, loops, accesses) and exit\n"
    "  --version             print the version and exit\n"
    "  -h, --help            print this help and exit\n"
    "Verify (kcheck verify; see docs/verify.md):\n"
    "  --no-run              plan and build the experiments, do not run them\n"
    "  --timeout S           time limit of each run (default 300)\n"
    "  --keep                keep the temporary directory\n"
    "  --save-results DIR    copy the raw results there; --results DIR reads them back instead of running\n"
    "  --export DIR          write a self-contained bundle (plans, harnesses, driver, references, run.sh)\n"
    "                        to run on a GPU machine; read its results back with --results\n"
    "  --reference-dir DIR   reference kernels and op specs (default: the bundled kernels/reference)\n"
    "  --python PATH         interpreter with torch and triton (default python3)\n"
    "\n"
    "Exit status: 0 no findings, 1 findings (--diff: fixes to apply), 2 usage error, configuration\n"
    "error, unreadable input or internal failure.\n";

enum {
    OPT_FORMAT = 256,
    OPT_COLOR,
    OPT_NO_SOURCE,
    OPT_FAIL_ON,
    OPT_SELECT,
    OPT_IGNORE,
    OPT_LIST_RULES,
    OPT_EXPLAIN,
    OPT_CUDA_PATH,
    OPT_TOOLKIT,
    OPT_CUDA_ARCH,
    OPT_MAX_FILE_SIZE,
    OPT_NO_CACHE,
    OPT_NO_HEADER_CACHE,
    OPT_CACHE_DIR,
    OPT_VERSION,
    OPT_DUMP_MODEL,
    OPT_NO_RUN,
    OPT_KEEP,
    OPT_TIMEOUT,
    OPT_RESULTS,
    OPT_SAVE_RESULTS,
    OPT_EXPORT,
    OPT_REFERENCE_DIR,
    OPT_PYTHON,
    OPT_SEVERITY,
    OPT_STATS,
    OPT_FIX,
    OPT_DIFF,
    OPT_BASELINE,
    OPT_WRITE_BASELINE,
    OPT_REPORT_UNUSED,
    OPT_CONFIG,
    OPT_NO_CONFIG,
    OPT_DUMP_CONFIG,
    OPT_DUMP_SHIM,
};

static const struct option long_opts[] = {
    {"format", required_argument, NULL, OPT_FORMAT},
    {"color", required_argument, NULL, OPT_COLOR},
    {"no-source", no_argument, NULL, OPT_NO_SOURCE},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"select", required_argument, NULL, OPT_SELECT},
    {"ignore", required_argument, NULL, OPT_IGNORE},
    {"option", required_argument, NULL, 'o'},
    {"list-rules", no_argument, NULL, OPT_LIST_RULES},
    {"explain", required_argument, NULL, OPT_EXPLAIN},
    {"cuda-path", required_argument, NULL, OPT_CUDA_PATH},
    {"toolkit", no_argument, NULL, OPT_TOOLKIT},
    {"cuda-arch", required_argument, NULL, OPT_CUDA_ARCH},
    {"jobs", required_argument, NULL, 'j'},
    {"max-file-size", required_argument, NULL, OPT_MAX_FILE_SIZE},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"no-header-cache", no_argument, NULL, OPT_NO_HEADER_CACHE},
    {"cache-dir", required_argument, NULL, OPT_CACHE_DIR},
    {"version", no_argument, NULL, OPT_VERSION},
    {"dump-model", no_argument, NULL, OPT_DUMP_MODEL},
    {"no-run", no_argument, NULL, OPT_NO_RUN},
    {"keep", no_argument, NULL, OPT_KEEP},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"results", required_argument, NULL, OPT_RESULTS},
    {"save-results", required_argument, NULL, OPT_SAVE_RESULTS},
    {"export", required_argument, NULL, OPT_EXPORT},
    {"reference-dir", required_argument, NULL, OPT_REFERENCE_DIR},
    {"python", required_argument, NULL, OPT_PYTHON},
    {"severity", required_argument, NULL, OPT_SEVERITY},
    {"quiet", no_argument, NULL, 'q'},
    {"stats", no_argument, NULL, OPT_STATS},
    {"fix", no_argument, NULL, OPT_FIX},
    {"diff", no_argument, NULL, OPT_DIFF},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"write-baseline", required_argument, NULL, OPT_WRITE_BASELINE},
    {"report-unused-suppressions", no_argument, NULL, OPT_REPORT_UNUSED},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"no-config", no_argument, NULL, OPT_NO_CONFIG},
    {"dump-config", no_argument, NULL, OPT_DUMP_CONFIG},
    {"dump-shim", required_argument, NULL, OPT_DUMP_SHIM},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static bool check_rule_list(const char *list, FILE *err)
{
    uint8_t *scratch = kc_xcalloc(kc_rules_count(), 1);
    char *bad = NULL;
    bool ok = kc_rule_list_apply(list, scratch, 1, &bad);
    if (!ok)
        fprintf(err, "kcheck: unknown rule '%s' (see --list-rules)\n", bad);
    free(bad);
    free(scratch);
    return ok;
}

static bool parse_rule_option(kc_options *o, const char *arg, FILE *err)
{
    const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
    if (!dot || !eq || eq < dot) {
        fprintf(err, "kcheck: --option expects RULE.NAME=VALUE, got '%s'\n", arg);
        return false;
    }
    char *rule = kc_xstrndup(arg, (size_t)(dot - arg));
    char *name = kc_xstrndup(dot + 1, (size_t)(eq - dot - 1));
    const char *id = NULL;
    char *msg = kc_rule_option_check(rule, name, eq + 1, &id);
    free(rule);
    if (msg) {
        fprintf(err, "kcheck: --option: %s\n", msg);
        free(msg);
        free(name);
        return false;
    }
    kc_rule_option ro = {.rule = kc_xstrdup(id), .name = name, .value = kc_xstrdup(eq + 1)};
    kc_vec_push(&o->rule_options, ro);
    return true;
}

static void list_rules(FILE *out)
{
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = kc_rules_get(i);
        const char *langs = r->langs == (KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON) ? "cuda,triton"
                            : r->langs == KC_LANG_BIT_CUDA                     ? "cuda"
                                                                               : "triton";
        fprintf(out, "%-6s %-28s %-8s %-12s %s\n", r->id, r->slug, kc_severity_name(r->severity),
                langs, r->summary);
    }
}

static void explain(FILE *out, const kc_rule *r)
{
    fprintf(out, "# %s %s\n\n%s\n\nDefault severity: %s. Languages: %s%s%s.\n\n%s", r->id, r->slug,
            r->summary, kc_severity_name(r->severity),
            (r->langs & KC_LANG_BIT_CUDA) ? "CUDA" : "",
            (r->langs & KC_LANG_BIT_CUDA) && (r->langs & KC_LANG_BIT_TRITON) ? ", " : "",
            (r->langs & KC_LANG_BIT_TRITON) ? "Triton" : "", r->doc);
    size_t dl = strlen(r->doc);
    if (dl && r->doc[dl - 1] != '\n')
        fputc('\n', out);
    if (r->options && r->options->name) {
        fprintf(out, "\n## Options\n\n");
        for (const kc_rule_option_doc *d = r->options; d->name; d++)
            fprintf(out, "- `%s.%s` (default %s): %s\n", r->id, d->name, d->default_value, d->help);
    }
}

static bool parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return false;
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    else if (*end == 'g' || *end == 'G')
        v <<= 30, end++;
    if (*end)
        return false;
    *out = (size_t)v;
    return true;
}

typedef struct report_sink {
    kc_reporter *rep;
    bool collect; /* verify: keep the results until the experiments ran */
    KC_VEC(kc_file_result) kept;
    kc_baseline_writer *baseline; /* --write-baseline */
} report_sink;

static void on_result(void *ud, kc_file_result *r)
{
    report_sink *s = ud;
    if (s->baseline) {
        for (uint32_t i = 0; i < r->diags.items.len; i++)
            kc_baseline_writer_add(s->baseline, r->path, &r->diags.items.data[i]);
        for (uint32_t i = 0; i < r->baselined.items.len; i++)
            kc_baseline_writer_add(s->baseline, r->path, &r->baselined.items.data[i]);
    }
    if (s->collect) {
        kc_vec_push(&s->kept, *r);
        memset(r, 0, sizeof *r); /* ownership moved */
        return;
    }
    kc_reporter_file(s->rep, r);
}

/* --dump-model: lower each file and print the model. */
static int dump_models(const kc_options *o, const char *const *paths, size_t n, FILE *out, FILE *err)
{
    kc_path_list files = {0};
    kc_expand_paths(paths, n, &files);
    kc_project *proj = kc_project_link(&files, o->max_file_size, 1); /* launches in other files */
    kc_frontend *fe = kc_frontend_new(o);
    int status = 0;
    for (uint32_t i = 0; i < files.files.len; i++) {
        kc_file_result *r = &files.files.data[i];
        kc_lang lang;
        char *e = NULL;
        if (!r->errors.items.len && kc_lang_for_path(r->path, &lang) &&
            (r->src = kc_source_load(r->path, o->max_file_size, &e)) != NULL) {
            kc_model *m = kc_frontend_lower(fe, r->src, lang, &r->peers, &r->errors);
            if (m) {
                fprintf(out, "== %s\n", r->path);
                kc_model_dump(out, m);
                kc_model_delete(m);
            }
        } else if (e) {
            kc_file_errors_add(&r->errors, 0, 0, "%s", e);
        }
        free(e);
        for (uint32_t k = 0; k < r->errors.items.len; k++) {
            fprintf(err, "%s:%u:%u: error: %s\n", r->path, r->errors.items.data[k].line,
                    r->errors.items.data[k].col, r->errors.items.data[k].message);
            status = 2;
        }
        kc_file_result_free(r);
    }
    kc_frontend_delete(fe);
    kc_vec_free(&files.files);
    kc_project_free(proj);
    return status;
}

/* --dump-config: the effective configuration of each path. */
static int dump_config(kc_config_set *set, const char *const *paths, size_t n, FILE *out, FILE *err)
{
    static const char *const here[] = {"."};
    if (n == 0) {
        paths = here;
        n = 1;
    }
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        bool is_dir = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode);
        char *e = NULL;
        const kc_options *fo = kc_config_options_for(set, paths[i], is_dir, &e);
        if (!fo) {
            fprintf(err, "%s\n", e);
            free(e);
            return 2;
        }
        if (i)
            fputs("---\n", out);
        kc_config_dump(out, fo, paths[i]);
    }
    return 0;
}

/* In --fix and --diff runs a file named twice would be fixed twice. */
static void drop_duplicate_files(kc_path_list *files)
{
    KC_VEC(struct stat) seen = {0};
    uint32_t kept = 0;
    for (uint32_t i = 0; i < files->files.len; i++) {
        kc_file_result *r = &files->files.data[i];
        struct stat st;
        bool dup = false;
        if (!r->errors.items.len && stat(r->path, &st) == 0) {
            for (uint32_t k = 0; k < seen.len && !dup; k++)
                dup = seen.data[k].st_dev == st.st_dev && seen.data[k].st_ino == st.st_ino;
            if (!dup)
                kc_vec_push(&seen, st);
        }
        if (dup)
            kc_file_result_free(r);
        else
            files->files.data[kept++] = *r;
    }
    files->files.len = kept;
    kc_vec_free(&seen);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void load_frontends(void) { free(kc_frontend_versions()); }

/* What the check server runs a client's check with. */
static const kc_server_host server_host = {
    .run = kc_cli_run,
    .warm_up = load_frontends,
    .module_file = kc_frontend_module_file,
};

int kc_cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    /* `kcheck server start` and the like; `kcheck server kernels/` still
     * checks a directory named server. */
    if (argc > 2 && strcmp(argv[1], "server") == 0 && kc_server_is_command(argv[2]))
        return kc_server_command(argc - 1, argv + 1, out, err, &server_host);
    /* --server, anywhere before "--": the check runs in the server, which
     * writes to this process's own standard streams (so only when `out`
     * and `err` are those); verify always runs here. */
    char **args = kc_xcalloc((size_t)argc + 1, sizeof *args);
    int n = 0;
    bool via_server = false, compiler_args = false;
    for (int i = 0; i < argc; i++) {
        compiler_args |= i > 0 && strcmp(argv[i], "--") == 0;
        if (i > 0 && !compiler_args && strcmp(argv[i], "--server") == 0)
            via_server = true;
        else
            args[n++] = argv[i];
    }
    int status;
    if (!via_server || out != stdout || err != stderr || (n > 1 && strcmp(args[1], "verify") == 0) ||
        !kc_server_try(n, args, err, &server_host, &status))
        status = kc_cli_run(n, args, out, err);
    free(args);
    return status;
}

int kc_cli_run(int argc, char **argv, FILE *out, FILE *err)
{
    double t0 = now_s();
    kc_options o;
    kc_options_init(&o);
    size_t nrules = kc_rules_count();
    o.rule_enabled = kc_xcalloc(nrules, 1);
    o.rule_enabled_len = nrules;
    memset(o.rule_enabled, 1, nrules);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = ncpu > 0 ? (unsigned)ncpu : 1;

    if (argc > 1 && strcmp(argv[1], "verify") == 0) {
        o.verify = true;
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    /* Everything after "--" is for the compiler, clang-tidy style. */
    int nargs = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            nargs = i;
            for (int k = i + 1; k < argc; k++)
                kc_vec_push(&o.extra_args, kc_xstrdup(argv[k]));
            break;
        }

    int status = 2;
    int color = -1; /* auto */
    bool do_list = false, dump_model = false, do_dump_config = false, want_diff = false, format_set = false;
    const char *explain_id = NULL, *baseline_path = NULL, *write_baseline_path = NULL, *dump_shim_dir = NULL;
    kc_config_cli cli = {0};
    KC_VEC(const char *) ignores = {0};
    KC_VEC(const char *) selects = {0};
    kc_config_set *set = NULL;
    kc_baseline *baseline = NULL;
    opterr = 0;
    optind = 0; /* glibc: start afresh, whatever an earlier run left */
    int c;
    while ((c = getopt_long(nargs, argv, "j:o:p:hq", long_opts, NULL)) != -1) {
        switch (c) {
        case OPT_FORMAT:
            format_set = true;
            if (!kc_report_format_parse(optarg, &o.format)) {
                char *names = kc_report_format_names(", ");
                fprintf(err, "kcheck: unknown --format '%s' (%s)\n", optarg, names);
                free(names);
                goto done;
            }
            break;
        case OPT_COLOR:
            if (strcmp(optarg, "always") == 0)
                color = 1;
            else if (strcmp(optarg, "never") == 0)
                color = 0;
            else if (strcmp(optarg, "auto") == 0)
                color = -1;
            else {
                fprintf(err, "kcheck: unknown --color '%s' (auto, always, never)\n", optarg);
                goto done;
            }
            break;
        case OPT_NO_SOURCE:
            o.show_source = false;
            break;
        case OPT_FAIL_ON:
            if (!kc_severity_parse(optarg, &o.fail_on)) {
                fprintf(err, "kcheck: unknown severity '%s' (note, warning, error)\n", optarg);
                goto done;
            }
            break;
        case OPT_SEVERITY:
            if (!kc_severity_parse(optarg, &o.min_severity)) {
                fprintf(err, "kcheck: unknown severity '%s' (note, warning, error)\n", optarg);
                goto done;
            }
            break;
        case 'q':
            o.quiet = true;
            break;
        case OPT_STATS:
            o.stats = true;
            break;
        case OPT_FIX:
            o.fix = true;
            break;
        case OPT_DIFF:
            want_diff = true;
            break;
        case OPT_BASELINE:
            baseline_path = optarg;
            break;
        case OPT_WRITE_BASELINE:
            write_baseline_path = optarg;
            break;
        case OPT_REPORT_UNUSED:
            o.report_unused_suppressions = true;
            break;
        case OPT_CONFIG:
            cli.config_file = optarg;
            break;
        case OPT_NO_CONFIG:
            cli.no_config = true;
            break;
        case OPT_DUMP_SHIM:
            dump_shim_dir = optarg;
            break;
        case OPT_DUMP_CONFIG:
            do_dump_config = true;
            break;
        case OPT_SELECT:
            kc_vec_push(&selects, optarg);
            break;
        case OPT_IGNORE:
            kc_vec_push(&ignores, optarg);
            break;
        case 'o':
            if (!parse_rule_option(&o, optarg, err))
                goto done;
            break;
        case OPT_NO_RUN:
            o.verify_no_run = true;
            break;
        case OPT_KEEP:
            o.verify_keep = true;
            break;
        case OPT_TIMEOUT: {
            char *end;
            double t = strtod(optarg, &end);
            if (*end || t <= 0) {
                fprintf(err, "kcheck: --timeout expects seconds, got '%s'\n", optarg);
                goto done;
            }
            o.verify_timeout_s = t;
            break;
        }
        case OPT_RESULTS:
            free(o.verify_results_dir);
            o.verify_results_dir = kc_xstrdup(optarg);
            break;
        case OPT_SAVE_RESULTS:
            free(o.verify_save_dir);
            o.verify_save_dir = kc_xstrdup(optarg);
            break;
        case OPT_EXPORT:
            free(o.verify_export_dir);
            o.verify_export_dir = kc_xstrdup(optarg);
            break;
        case OPT_REFERENCE_DIR:
            free(o.reference_dir);
            o.reference_dir = kc_xstrdup(optarg);
            break;
        case OPT_PYTHON:
            free(o.python);
            o.python = kc_xstrdup(optarg);
            break;
        case OPT_DUMP_MODEL:
            dump_model = true;
            break;
        case OPT_LIST_RULES:
            do_list = true;
            break;
        case OPT_EXPLAIN:
            explain_id = optarg;
            break;
        case OPT_CUDA_PATH:
            free(o.cuda_path);
            o.cuda_path = kc_xstrdup(optarg);
            o.cuda_mode = KC_CUDA_TOOLKIT;
            cli.toolkit_set = true;
            break;
        case OPT_TOOLKIT:
            o.cuda_mode = KC_CUDA_TOOLKIT;
            cli.toolkit_set = true;
            break;
        case OPT_CUDA_ARCH:
            free(o.cuda_arch);
            o.cuda_arch = kc_xstrdup(optarg);
            cli.arch_set = true;
            break;
        case 'p':
            free(o.compile_db_dir);
            o.compile_db_dir = kc_xstrdup(optarg);
            cli.db_set = true;
            break;
        case 'j': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 1024) {
                fprintf(err, "kcheck: -j expects a number from 1 to 1024, got '%s'\n", optarg);
                goto done;
            }
            o.jobs = (unsigned)v;
            break;
        }
        case OPT_NO_CACHE:
            o.no_cache = true;
            break;
        case OPT_NO_HEADER_CACHE:
            o.no_header_cache = true;
            break;
        case OPT_CACHE_DIR:
            free(o.cache_dir);
            o.cache_dir = kc_xstrdup(optarg);
            break;
        case OPT_MAX_FILE_SIZE:
            if (!parse_size(optarg, &o.max_file_size)) {
                fprintf(err, "kcheck: --max-file-size expects a size such as 10M, got '%s'\n",
                        optarg);
                goto done;
            }
            break;
        case OPT_VERSION: {
            char *v = kc_frontend_versions();
            fprintf(out, "kcheck %s (%s)\n", KCHECK_VERSION, v);
            free(v);
            status = 0;
            goto done;
        }
        case 'h':
            fputs(usage_text, out);
            status = 0;
            goto done;
        default:
            if (optopt && optopt < 256)
                fprintf(err, "kcheck: option -%c needs a value or is unknown\n", optopt);
            else
                fprintf(err, "kcheck: unknown option or missing value: '%s'\n", argv[optind - 1]);
            fputs("Try 'kcheck --help'.\n", err);
            goto done;
        }
    }

    for (uint32_t i = 0; i < selects.len; i++)
        if (!check_rule_list(selects.data[i], err))
            goto done;
    for (uint32_t i = 0; i < ignores.len; i++)
        if (!check_rule_list(ignores.data[i], err))
            goto done;
    /* The command line's own selection (configuration files may change it
     * per file, kc_config.h). */
    cli.selects = selects.data;
    cli.nselects = selects.len;
    cli.ignores = ignores.data;
    cli.nignores = ignores.len;
    if (selects.len) {
        memset(o.rule_enabled, 0, nrules);
        for (uint32_t i = 0; i < selects.len; i++) {
            char *bad = NULL;
            kc_rule_list_apply(selects.data[i], o.rule_enabled, 1, &bad);
            free(bad);
        }
    }
    for (uint32_t i = 0; i < ignores.len; i++) {
        char *bad = NULL;
        kc_rule_list_apply(ignores.data[i], o.rule_enabled, 0, &bad);
        free(bad);
    }

    if (do_list) {
        list_rules(out);
        status = 0;
        goto done;
    }
    if (explain_id) {
        const kc_rule *r = kc_rules_find(explain_id, NULL);
        if (!r) {
            fprintf(err, "kcheck: unknown rule '%s' (see --list-rules)\n", explain_id);
            goto done;
        }
        explain(out, r);
        status = 0;
        goto done;
    }
    if (cli.config_file && cli.no_config) {
        fputs("kcheck: --config and --no-config exclude each other\n", err);
        goto done;
    }
    if (o.verify && (o.fix || want_diff)) {
        fputs("kcheck: verify does not take --fix or --diff\n", err);
        goto done;
    }
    if (want_diff) {
        if (format_set && o.format != KC_FORMAT_TEXT) {
            fputs("kcheck: --diff prints a patch; it does not combine with --format\n", err);
            goto done;
        }
        o.format = KC_FORMAT_DIFF;
    }
    if (dump_shim_dir) {
        status = kc_frontend_dump_shim(&o, dump_shim_dir, out, err);
        goto done;
    }
    if (optind >= nargs && !do_dump_config) {
        fputs("kcheck: no paths given\n", err);
        fputs(usage_text, err);
        goto done;
    }

    if (color < 0) {
        /* https://no-color.org: set and not empty. */
        const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
        o.color = o.format == KC_FORMAT_TEXT && isatty(fileno(out)) && !(nc && *nc) &&
                  !(term && strcmp(term, "dumb") == 0);
    } else {
        o.color = color == 1;
    }

    if (baseline_path) {
        char *e = NULL;
        baseline = kc_baseline_load(baseline_path, &e);
        if (!baseline) {
            fprintf(err, "kcheck: error: cannot read the baseline: %s\n", e);
            free(e);
            goto done;
        }
        o.baseline = baseline;
    }

    set = kc_config_set_new(&o, &cli);
    const char *const *paths = (const char *const *)argv + optind;
    size_t npaths = (size_t)(nargs - optind);
    if (do_dump_config) {
        status = dump_config(set, paths, npaths, out, err);
        goto done;
    }
    if (dump_model) {
        status = dump_models(&o, paths, npaths, out, err);
        goto done;
    }
    {
        kc_path_list files = {0};
        kc_expand_paths(paths, npaths, &files);
        if (o.fix || o.format == KC_FORMAT_DIFF)
            drop_duplicate_files(&files);
        /* Every file's options, before anything runs: a bad configuration
         * file stops the run with no partial output. */
        for (uint32_t i = 0; i < files.files.len; i++) {
            kc_file_result *r = &files.files.data[i];
            if (r->errors.items.len)
                continue;
            char *e = NULL;
            r->opts = kc_config_options_for(set, r->path, false, &e);
            if (!r->opts) {
                fprintf(err, "%s\n", e);
                free(e);
                for (uint32_t k = 0; k < files.files.len; k++)
                    kc_file_result_free(&files.files.data[k]);
                kc_vec_free(&files.files);
                goto done;
            }
        }
        kc_reporter *rep = kc_reporter_new(&o, out, err);
        report_sink sink = {.rep = rep, .collect = o.verify};
        if (write_baseline_path)
            sink.baseline = kc_baseline_writer_new();
        kc_run_totals totals;
        kc_run_files(&o, &files, on_result, &sink, &totals);
        if (o.verify) {
            kc_verify_files(&o, sink.kept.data, sink.kept.len, err);
            /* A bound kernel whose outputs differ from the reference fails the run too. */
            for (uint32_t i = 0; i < sink.kept.len; i++)
                for (uint32_t k = 0; k < sink.kept.data[i].checks.len; k++)
                    if (!strcmp(sink.kept.data[i].checks.data[k].status, "mismatch"))
                        totals.failing++;
            for (uint32_t i = 0; i < sink.kept.len; i++) {
                kc_reporter_file(rep, &sink.kept.data[i]);
                kc_file_result_free(&sink.kept.data[i]);
            }
            kc_vec_free(&sink.kept);
        }
        totals.seconds = now_s() - t0;
        kc_reporter_finish(rep, &totals);
        kc_reporter_delete(rep);
        kc_vec_free(&files.files);
        if (o.stats)
            kc_report_stats(o.format == KC_FORMAT_TEXT || o.format == KC_FORMAT_GITHUB ? out : err, &totals);
        fflush(out);
        bool write_failed = false;
        if (sink.baseline) {
            char *e = NULL;
            if (!kc_baseline_writer_save(sink.baseline, write_baseline_path, &e)) {
                fprintf(err, "kcheck: error: %s\n", e);
                free(e);
                write_failed = true;
            } else if (!o.quiet) {
                fprintf(err, "kcheck: wrote %zu finding%s to the baseline %s\n",
                        totals.diags[0] + totals.diags[1] + totals.diags[2] + totals.baselined,
                        totals.diags[0] + totals.diags[1] + totals.diags[2] + totals.baselined == 1 ? "" : "s",
                        write_baseline_path);
            }
            kc_baseline_writer_delete(sink.baseline);
        }
        if (totals.file_errors || write_failed)
            status = 2;
        else if (o.format == KC_FORMAT_DIFF)
            status = totals.fixed ? 1 : 0;
        else if (write_baseline_path)
            status = 0; /* every finding is in the baseline now */
        else
            status = totals.failing ? 1 : 0;
        kc_run_totals_free(&totals);
    }

done:
    kc_config_set_delete(set);
    kc_baseline_delete(baseline);
    kc_vec_free(&ignores);
    kc_vec_free(&selects);
    kc_options_free(&o);
    return status;
}
