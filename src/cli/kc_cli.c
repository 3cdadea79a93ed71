/* kc_cli.c — the command line: the options of cli_options.def parsed into
 * a cli_args, the checks between them, and the mode they ask for (run by
 * cli_modes.c); kc_cli_main's `kcheck server ...` and --server.
 */
#include "kc_cli.h"

#include "cli_modes.h"
#include "kc_baseline.h"
#include "kc_config.h"
#include "kc_frontend.h"
#include "kc_report.h"
#include "kc_changed.h"
#include "kc_lsp.h"
#include "kc_server.h"
#include "kc_rule.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --help: this, the option summary of cli_options.def, usage_tail. */
static const char usage_head[] =
    "usage: kcheck [options] PATH... [-- COMPILER-ARGS...] [--end-of-options PATH...]\n"
    "       kcheck verify [options] PATH...   (confirm findings on the GPU)\n"
    "       kcheck --dump-config [PATH...]   (the effective configuration for each path)\n"
    "       kcheck server start|stop|status|run   (the server of --server)\n"
    "       kcheck lsp [options]   (a Language Server Protocol server for editors, on stdin/stdout)\n"
    "       kcheck --list-rules | --explain RULE | --version | --help\n"
    "\n"
    "Checks CUDA (.cu, .cu.cc, .cuh; .h, .hpp headers with device code) and Triton (.py)\n"
    "kernel sources. Directories are walked recursively, honouring .gitignore and\n"
    "skipping hidden entries.\n"
    "\n";

static const char usage_tail[] =
    "\n"
    "Exit status: 0 no findings, 1 findings (--diff: fixes to apply), 2 usage error, configuration\n"
    "error, unreadable input or internal failure.\n";

/* What the options say, before anything runs. */
typedef struct cli_args {
    kc_options o;
    kc_config_cli cli;
    int color; /* --color: -1 auto, 0 never, 1 always */
    bool format_set, want_diff, list_rules, dump_config, dump_model, show_files;
    bool lsp; /* `kcheck lsp`: serve the Language Server Protocol on stdin/stdout */
    const char *explain_id, *baseline_path, *write_baseline_path, *dump_shim_dir;
    const char *stdin_filename; /* --stdin-filename: the path the text on stdin is checked as */
    const char *diff_base;      /* --diff-base: the git revision whose lines are not reported */
    KC_VEC(const char *) selects;
    KC_VEC(const char *) ignores;
    const char **paths; /* the operands: before "--", and after "--end-of-options"; owned array */
    size_t npaths;
} cli_args;

/* An option's handler: CLI_GO_ON, or the exit status to stop with. */
enum { CLI_GO_ON = -1 };
typedef int cli_handler(cli_args *a, const char *arg, FILE *out, FILE *err);

static void print_usage(FILE *f);

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

static void set_string(char **field, const char *value)
{
    free(*field);
    *field = kc_xstrdup(value);
}

/* ---- the handlers of cli_options.def, in its order ---- */

static int cli_opt_format(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->format_set = true;
    if (kc_report_format_parse(arg, &a->o.format))
        return CLI_GO_ON;
    char *names = kc_report_format_names(", ");
    fprintf(err, "kcheck: unknown --format '%s' (%s)\n", arg, names);
    free(names);
    return 2;
}

static int cli_opt_color(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    if (strcmp(arg, "always") == 0)
        a->color = 1;
    else if (strcmp(arg, "never") == 0)
        a->color = 0;
    else if (strcmp(arg, "auto") == 0)
        a->color = -1;
    else {
        fprintf(err, "kcheck: unknown --color '%s' (auto, always, never)\n", arg);
        return 2;
    }
    return CLI_GO_ON;
}

static int cli_opt_no_source(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.show_source = false;
    return CLI_GO_ON;
}

static int parse_severity(const char *arg, kc_severity *sev, FILE *err)
{
    if (kc_severity_parse(arg, sev))
        return CLI_GO_ON;
    fprintf(err, "kcheck: unknown severity '%s' (note, warning, error)\n", arg);
    return 2;
}

static int cli_opt_severity(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    return parse_severity(arg, &a->o.min_severity, err);
}

static int cli_opt_fail_on(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    return parse_severity(arg, &a->o.fail_on, err);
}

static int cli_opt_quiet(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.quiet = true;
    return CLI_GO_ON;
}

static int cli_opt_stats(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.stats = true;
    return CLI_GO_ON;
}

/* --select and --ignore are checked and applied after all options
 * (cli_rules), in this order. */
static int cli_opt_select(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    kc_vec_push(&a->selects, arg);
    return CLI_GO_ON;
}

static int cli_opt_ignore(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    kc_vec_push(&a->ignores, arg);
    return CLI_GO_ON;
}

static int cli_opt_option(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    return parse_rule_option(&a->o, arg, err) ? CLI_GO_ON : 2;
}

static int cli_opt_list_rules(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->list_rules = true;
    return CLI_GO_ON;
}

static int cli_opt_explain(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->explain_id = arg;
    return CLI_GO_ON;
}

static int cli_opt_config(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->cli.config_file = arg;
    return CLI_GO_ON;
}

static int cli_opt_no_config(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->cli.no_config = true;
    return CLI_GO_ON;
}

static int cli_opt_show_files(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    (void)arg;
    (void)out;
    (void)err;
    a->show_files = true;
    return CLI_GO_ON;
}

static int cli_opt_dump_config(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->dump_config = true;
    return CLI_GO_ON;
}

static int cli_opt_dump_shim(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->dump_shim_dir = arg;
    return CLI_GO_ON;
}

static int cli_opt_report_unused(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.report_unused_suppressions = true;
    return CLI_GO_ON;
}

static int cli_opt_root(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    (void)out;
    struct stat st;
    if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(err, "kcheck: --root %s: not a directory\n", arg);
        return 2;
    }
    free(a->o.root);
    a->o.root = kc_xstrdup(arg);
    return CLI_GO_ON;
}

static int cli_opt_baseline(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->baseline_path = arg;
    return CLI_GO_ON;
}

static int cli_opt_diff_base(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    (void)out;
    if (!*arg || arg[0] == '-') {
        fprintf(err, "kcheck: --diff-base expects a git revision, got '%s'\n", arg);
        return 2;
    }
    a->diff_base = arg;
    return CLI_GO_ON;
}

static int cli_opt_write_baseline(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->write_baseline_path = arg;
    return CLI_GO_ON;
}

static int cli_opt_stdin_filename(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    if (!*arg) {
        fputs("kcheck: --stdin-filename expects the path the text is checked as\n", err);
        return 2;
    }
    a->stdin_filename = arg;
    return CLI_GO_ON;
}

static int cli_opt_fix(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.fix = true;
    return CLI_GO_ON;
}

static int cli_opt_fix_any_owner(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    (void)arg;
    (void)out;
    (void)err;
    a->o.fix_any_owner = true;
    return CLI_GO_ON;
}

static int cli_opt_diff(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->want_diff = true;
    return CLI_GO_ON;
}

static int cli_opt_cuda_path(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.cuda_path, arg);
    a->o.cuda_mode = KC_CUDA_TOOLKIT;
    a->cli.toolkit_set = true;
    return CLI_GO_ON;
}

static int cli_opt_toolkit(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.cuda_mode = KC_CUDA_TOOLKIT;
    a->cli.toolkit_set = true;
    return CLI_GO_ON;
}

static int cli_opt_cuda_arch(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.cuda_arch, arg);
    a->cli.arch_set = true;
    return CLI_GO_ON;
}

static int cli_opt_compile_db(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.compile_db_dir, arg);
    a->cli.db_set = true;
    return CLI_GO_ON;
}

static int cli_opt_jobs(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*end || v < 1 || v > 1024) {
        fprintf(err, "kcheck: -j expects a number from 1 to 1024, got '%s'\n", arg);
        return 2;
    }
    a->o.jobs = (unsigned)v;
    return CLI_GO_ON;
}

static int cli_opt_max_file_size(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    if (parse_size(arg, &a->o.max_file_size))
        return CLI_GO_ON;
    fprintf(err, "kcheck: --max-file-size expects a size such as 10M, got '%s'\n", arg);
    return 2;
}

static int cli_opt_file_timeout(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || errno || !(v >= 0 && v <= 86400 * 7)) {
        fprintf(err, "kcheck: --file-timeout expects a number of seconds from 0 (no limit) to 604800, got '%s'\n",
                arg);
        return 2;
    }
    a->o.file_timeout_s = v;
    return CLI_GO_ON;
}

static int cli_opt_file_memory(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    if (parse_size(arg, &a->o.file_memory))
        return CLI_GO_ON;
    fprintf(err, "kcheck: --file-memory expects a size such as 512M (0: no limit), got '%s'\n", arg);
    return 2;
}

static int cli_opt_no_cache(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.no_cache = true;
    return CLI_GO_ON;
}

static int cli_opt_cache_dir(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.cache_dir, arg);
    return CLI_GO_ON;
}

static int cli_opt_no_header_cache(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.no_header_cache = true;
    return CLI_GO_ON;
}

static int cli_opt_dump_model(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->dump_model = true;
    return CLI_GO_ON;
}

static int cli_opt_version(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    char *v = kc_frontend_versions();
    fprintf(out, "kcheck %s (%s)\n", KCHECK_VERSION, v);
    free(v);
    return 0;
}

static int cli_opt_help(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    print_usage(out);
    return 0;
}

static int cli_opt_no_run(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.verify_no_run = true;
    return CLI_GO_ON;
}

static int cli_opt_timeout(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    char *end;
    double t = strtod(arg, &end);
    if (*end || t <= 0) {
        fprintf(err, "kcheck: --timeout expects seconds, got '%s'\n", arg);
        return 2;
    }
    a->o.verify_timeout_s = t;
    return CLI_GO_ON;
}

static int cli_opt_keep(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    a->o.verify_keep = true;
    return CLI_GO_ON;
}

static int cli_opt_save_results(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.verify_save_dir, arg);
    return CLI_GO_ON;
}

static int cli_opt_results(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.verify_results_dir, arg);
    return CLI_GO_ON;
}

static int cli_opt_export(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.verify_export_dir, arg);
    return CLI_GO_ON;
}

static int cli_opt_run_cmd(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.verify_run_cmd, arg);
    return CLI_GO_ON;
}

static int cli_opt_reference_dir(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.reference_dir, arg);
    return CLI_GO_ON;
}

static int cli_opt_python(cli_args *a, const char *arg, FILE *out, FILE *err)
{
    set_string(&a->o.python, arg);
    return CLI_GO_ON;
}

/* ---- the table ---- */

/* A row of cli_options.def: an option (handler set), a heading (text
 * only) or a help line (left and text). */
typedef struct cli_row {
    const char *long_name; /* without "--"; NULL: none */
    int short_name;        /* 0: none */
    int arg;               /* no_argument, required_argument, optional_argument */
    const char *metavar;
    const char *left; /* a help line's left column */
    const char *text; /* its text in --help; NULL: not listed */
    cli_handler *handler;
} cli_row;

#define CLI_ARG_NONE no_argument
#define CLI_ARG_REQUIRED required_argument
#define CLI_ARG_OPTIONAL optional_argument

static const cli_row cli_rows[] = {
#define KC_CLI_OPTION(h_, long_, short_, arg_, meta_, text_) \
    {long_, short_, CLI_ARG_##arg_, meta_, NULL, text_, cli_opt_##h_},
#define KC_CLI_HEADING(text_) {NULL, 0, 0, NULL, NULL, text_, NULL},
#define KC_CLI_HELP_LINE(left_, text_) {NULL, 0, 0, NULL, left_, text_, NULL},
#include "cli_options.def"
#undef KC_CLI_OPTION
#undef KC_CLI_HEADING
#undef KC_CLI_HELP_LINE
};

#define CLI_NROWS (sizeof cli_rows / sizeof cli_rows[0])
/* getopt_long's value of a long option without a short letter. */
#define CLI_LONG_VAL(i) (256 + (int)(i))

/* The option summary's left column of an option, e.g. "-o, --option R.NAME=V". */
static void option_left(const cli_row *r, char *buf, size_t size)
{
    size_t n = 0;
    if (r->short_name)
        n += (size_t)snprintf(buf, size, "-%c%s", r->short_name, r->long_name ? ", " : "");
    if (r->long_name && n < size)
        n += (size_t)snprintf(buf + n, size - n, "--%s", r->long_name);
    if (!r->metavar || n >= size)
        return;
    if (r->arg != optional_argument)
        snprintf(buf + n, size - n, " %s", r->metavar);
    else if (r->long_name)
        snprintf(buf + n, size - n, "[=%s]", r->metavar);
    else
        snprintf(buf + n, size - n, "[%s]", r->metavar);
}

/* A line of the option summary: the left column padded to 22 characters
 * (followed by two spaces when it fills them), then the text; a "\n" in the
 * text continues it under itself. */
static void usage_line(FILE *f, const char *left, const char *text)
{
    size_t n = strlen(left);
    fprintf(f, "  %s%*s", left, n < 22 ? (int)(22 - n) : 2, "");
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n')
            fprintf(f, "%24s", "");
    }
    fputc('\n', f);
}

static void print_usage(FILE *f)
{
    fputs(usage_head, f);
    for (size_t i = 0; i < CLI_NROWS; i++) {
        const cli_row *r = &cli_rows[i];
        if (r->handler && r->text) {
            char left[64];
            option_left(r, left, sizeof left);
            usage_line(f, left, r->text);
        } else if (r->left) {
            usage_line(f, r->left, r->text);
        } else if (!r->handler) {
            fprintf(f, "%s\n", r->text);
        }
    }
    fputs(usage_tail, f);
}

/* The option getopt_long returned `c` for; NULL: unknown, or its value missing. */
static const cli_row *row_of(int c)
{
    if (c >= CLI_LONG_VAL(0) && c < CLI_LONG_VAL(CLI_NROWS))
        return cli_rows[c - CLI_LONG_VAL(0)].handler ? &cli_rows[c - CLI_LONG_VAL(0)] : NULL;
    for (size_t i = 0; i < CLI_NROWS; i++)
        if (cli_rows[i].handler && cli_rows[i].short_name == c)
            return &cli_rows[i];
    return NULL;
}

/* getopt_long's long options (`longs`, CLI_NROWS + 1 entries) and short
 * options (`shorts`, 3 * CLI_NROWS + 1 bytes) from the table. */
/* Edit distance of a and b (insertions, deletions, substitutions, and
 * swaps of neighbours), up to 64 characters each; larger: a large value. */
static unsigned edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    unsigned d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The long option an unknown `--word[=value]` most likely meant: within
 * two edits (one for short words), or NULL. */
static const char *nearest_option(const char *arg)
{
    if (!arg || strncmp(arg, "--", 2) != 0)
        return NULL;
    char word[65];
    size_t n = strcspn(arg + 2, "=");
    if (n == 0 || n >= sizeof word)
        return NULL;
    memcpy(word, arg + 2, n);
    word[n] = '\0';
    const char *best = NULL;
    unsigned bd = n <= 4 ? 2 : 3;
    for (size_t i = 0; i < CLI_NROWS; i++) {
        const cli_row *r = &cli_rows[i];
        if (!r->handler || !r->long_name)
            continue;
        unsigned d = edit_distance(word, r->long_name);
        if (d < bd) {
            bd = d;
            best = r->long_name;
        }
    }
    return best;
}

static void getopt_tables(struct option *longs, char *shorts)
{
    size_t nl = 0, ns = 0;
    for (size_t i = 0; i < CLI_NROWS; i++) {
        const cli_row *r = &cli_rows[i];
        if (!r->handler)
            continue;
        if (r->long_name)
            longs[nl++] = (struct option){r->long_name, r->arg, NULL,
                                          r->short_name ? r->short_name : CLI_LONG_VAL(i)};
        if (r->short_name) {
            shorts[ns++] = (char)r->short_name;
            if (r->arg != no_argument)
                shorts[ns++] = ':';
            if (r->arg == optional_argument)
                shorts[ns++] = ':';
        }
    }
    longs[nl] = (struct option){NULL, 0, NULL, 0};
    shorts[ns] = '\0';
}

static void cli_args_init(cli_args *a)
{
    memset(a, 0, sizeof *a);
    kc_options_init(&a->o);
    size_t nrules = kc_rules_count();
    a->o.rule_enabled = kc_xcalloc(nrules, 1);
    a->o.rule_enabled_len = nrules;
    memset(a->o.rule_enabled, 1, nrules);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    a->o.jobs = ncpu > 0 ? (unsigned)ncpu : 1;
    a->color = -1;
}

static void cli_args_free(cli_args *a)
{
    free(a->paths);
    kc_vec_free(&a->ignores);
    kc_vec_free(&a->selects);
    kc_options_free(&a->o);
}

/* The command line into `a`: "verify", the options (each through its
 * handler, in order), the paths, after "--" the compiler's arguments, and
 * after "--end-of-options" paths only.
 * Returns CLI_GO_ON, or the exit status to stop with. */
static int cli_parse(cli_args *a, int argc, char **argv, FILE *out, FILE *err)
{
    if (argc > 1 && strcmp(argv[1], "verify") == 0) {
        a->o.verify = true;
        argv[1] = argv[0];
        argv++;
        argc--;
    } else if (argc > 1 && strcmp(argv[1], "lsp") == 0) {
        a->lsp = true;
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    /* After "--end-of-options" every argument is a path, whatever it looks
     * like (a file named --fix.py, -o.cu): what a hook that passes file
     * names puts before them. Before it, "--" starts the compiler's
     * arguments, clang-tidy style, which run to "--end-of-options" or the
     * end. */
    int end_opts = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], KC_CLI_END_OF_OPTIONS) == 0) {
            end_opts = i;
            break;
        }
    int nargs = end_opts;
    for (int i = 1; i < end_opts; i++)
        if (strcmp(argv[i], "--") == 0) {
            nargs = i;
            for (int k = i + 1; k < end_opts; k++)
                kc_vec_push(&a->o.extra_args, kc_xstrdup(argv[k]));
            break;
        }

    struct option longs[CLI_NROWS + 1];
    char shorts[3 * CLI_NROWS + 1];
    getopt_tables(longs, shorts);
    opterr = 0;
    optind = 0; /* glibc: start afresh, whatever an earlier run left */
    int c;
    while ((c = getopt_long(nargs, argv, shorts, longs, NULL)) != -1) {
        const cli_row *r = row_of(c);
        if (!r) {
            if (optopt && optopt < 256)
                fprintf(err, "kcheck: option -%c needs a value or is unknown\n", optopt);
            else
                fprintf(err, "kcheck: unknown option or missing value: '%s'\n", argv[optind - 1]);
            const char *near = optopt && optopt < 256 ? NULL : nearest_option(argv[optind - 1]);
            if (near)
                fprintf(err, "kcheck: did you mean '--%s'?\n", near);
            fputs("Try 'kcheck --help'.\n", err);
            return 2;
        }
        int status = r->handler(a, optarg, out, err);
        if (status != CLI_GO_ON)
            return status;
    }
    size_t before = (size_t)(nargs - optind), after = end_opts < argc ? (size_t)(argc - end_opts - 1) : 0;
    a->paths = kc_xcalloc(before + after + 1, sizeof *a->paths);
    for (size_t i = 0; i < before; i++)
        a->paths[a->npaths++] = argv[optind + (int)i];
    for (size_t i = 0; i < after; i++)
        a->paths[a->npaths++] = argv[end_opts + 1 + (int)i];
    return CLI_GO_ON;
}

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

/* --select and --ignore: every list is checked (the selections first), then
 * applied to the command line's rule flags; configuration files may change
 * them per file (kc_config.h). */
static int cli_rules(cli_args *a, FILE *err)
{
    for (uint32_t i = 0; i < a->selects.len; i++)
        if (!check_rule_list(a->selects.data[i], err))
            return 2;
    for (uint32_t i = 0; i < a->ignores.len; i++)
        if (!check_rule_list(a->ignores.data[i], err))
            return 2;
    a->cli.selects = a->selects.data;
    a->cli.nselects = a->selects.len;
    a->cli.ignores = a->ignores.data;
    a->cli.nignores = a->ignores.len;
    if (a->selects.len) {
        memset(a->o.rule_enabled, 0, a->o.rule_enabled_len);
        for (uint32_t i = 0; i < a->selects.len; i++) {
            char *bad = NULL;
            kc_rule_list_apply(a->selects.data[i], a->o.rule_enabled, 1, &bad);
            free(bad);
        }
    }
    for (uint32_t i = 0; i < a->ignores.len; i++) {
        char *bad = NULL;
        kc_rule_list_apply(a->ignores.data[i], a->o.rule_enabled, 0, &bad);
        free(bad);
    }
    return CLI_GO_ON;
}

/* Options that exclude each other; --diff becomes the diff format. */
static int cli_validate(cli_args *a, FILE *err)
{
    if (a->cli.config_file && a->cli.no_config) {
        fputs("kcheck: --config and --no-config exclude each other\n", err);
        return 2;
    }
    if (a->o.verify_run_cmd && !a->o.verify) {
        fputs("kcheck: --run is an option of `kcheck verify`\n", err);
        return 2;
    }
    if (a->o.verify && (a->o.fix || a->want_diff)) {
        fputs("kcheck: verify does not take --fix or --diff\n", err);
        return 2;
    }
    if (a->stdin_filename && (a->o.fix || a->write_baseline_path || a->o.verify || a->dump_config)) {
        fprintf(err, "kcheck: --stdin-filename checks text that is not in a file: it does not take %s "
                     "(--diff shows the fixes)\n",
                a->o.fix ? "--fix" : a->write_baseline_path ? "--write-baseline" : a->o.verify ? "verify"
                                                                                           : "--dump-config");
        return 2;
    }
    if (a->diff_base && (a->write_baseline_path || a->lsp)) {
        fprintf(err, "kcheck: --diff-base does not combine with %s\n", a->lsp ? "lsp" : "--write-baseline");
        return 2;
    }
    if (a->lsp && (a->npaths || a->o.fix || a->want_diff || a->write_baseline_path || a->stdin_filename ||
                   a->dump_config || a->dump_model || a->format_set)) {
        fputs("kcheck: lsp serves an editor on standard input and output: it takes rule, configuration and CUDA "
              "options, not paths, --fix, --diff, --format, --stdin-filename, --write-baseline or --dump-*\n",
              err);
        return 2;
    }
    if (a->stdin_filename && a->npaths) {
        fprintf(err, "kcheck: --stdin-filename checks standard input; it takes no paths (got '%s')\n", a->paths[0]);
        return 2;
    }
    if (a->o.fix && a->want_diff) {
        fputs("kcheck: --fix and --diff exclude each other (--diff shows the fixes without writing them)\n", err);
        return 2;
    }
    if (a->want_diff) {
        if (a->format_set && a->o.format != KC_FORMAT_TEXT) {
            fputs("kcheck: --diff prints a patch; it does not combine with --format\n", err);
            return 2;
        }
        a->o.format = KC_FORMAT_DIFF;
    }
    return CLI_GO_ON;
}

/* --color: always, never, or auto (text on a terminal). */
static void cli_color(cli_args *a, FILE *out)
{
    if (a->color >= 0) {
        a->o.color = a->color == 1;
        return;
    }
    /* https://no-color.org: set and not empty. */
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    /* through --server the output goes into a pipe: the client says whether
     * its own standard output is a terminal */
    const char *client_tty = getenv(KC_SERVER_TTY_ENV);
    bool tty = isatty(fileno(out)) || (client_tty && strcmp(client_tty, "1") == 0);
    a->o.color = (a->o.format == KC_FORMAT_TEXT || a->o.format == KC_FORMAT_CONCISE) && tty && !(nc && *nc) &&
                 !(term && strcmp(term, "dumb") == 0);
}

/* What the options ask for, each mode after the checks that come before it. */
static int cli_dispatch(cli_args *a, double t0, FILE *out, FILE *err)
{
    if (a->list_rules) {
        if (a->format_set && a->o.format != KC_FORMAT_TEXT && a->o.format != KC_FORMAT_JSON) {
            fputs("kcheck: --list-rules prints text or JSON (--format json)\n", err);
            return 2;
        }
        return kc_cli_list_rules(out, a->format_set && a->o.format == KC_FORMAT_JSON);
    }
    if (a->explain_id)
        return kc_cli_explain(a->explain_id, out, err);
    if (cli_validate(a, err) != CLI_GO_ON)
        return 2;
    if (a->dump_shim_dir)
        return kc_frontend_dump_shim(&a->o, a->dump_shim_dir, out, err);

    if (a->npaths == 0 && !a->dump_config && !a->stdin_filename && !a->lsp && !a->show_files) {
        fputs("kcheck: no paths given\n", err);
        print_usage(err);
        return 2;
    }
    cli_color(a, out);
    kc_baseline *baseline = NULL;
    if (a->baseline_path) {
        char *e = NULL;
        baseline = kc_baseline_load(a->baseline_path, &e);
        if (!baseline) {
            fprintf(err, "kcheck: error: cannot read the baseline: %s\n", e);
            free(e);
            return 2;
        }
        a->o.baseline = baseline;
    }
    kc_changed *changed = a->diff_base ? kc_changed_new(a->diff_base) : NULL;
    a->o.changed = changed;
    kc_config_set *set = kc_config_set_new(&a->o, &a->cli);
    int status;
    if (a->show_files)
        status = kc_cli_show_files(set, a->paths, a->npaths, out, err);
    else if (a->lsp)
        status = kc_lsp_serve(&a->o, set, stdin, out, err);
    else if (a->dump_config)
        status = kc_cli_dump_config(set, a->paths, a->npaths, out, err);
    else if (a->dump_model)
        status = kc_cli_dump_model(&a->o, a->paths, a->npaths, out, err);
    else {
        bool stranded = false;
        status = kc_cli_check(&a->o, set, a->paths, a->npaths, a->stdin_filename, a->write_baseline_path, t0, out,
                              err, &stranded);
        if (stranded) /* a worker still reads the configuration, baseline and changed lines */
            return status | KC_CLI_STRANDED;
    }
    kc_config_set_delete(set);
    kc_changed_delete(changed);
    a->o.changed = NULL;
    kc_baseline_delete(baseline);
    return status;
}

_Static_assert(KC_CLI_STRANDED == KC_SERVER_RUN_STRANDED, "the server ends after a stranded check");

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
    /* --server, anywhere before "--" and "--end-of-options": the check runs
     * in the server, which
     * writes to this process's own standard streams (so only when `out`
     * and `err` are those); verify always runs here. */
    char **args = kc_xcalloc((size_t)argc + 1, sizeof *args);
    int n = 0;
    bool via_server = false, compiler_args = false, stdin_text = false;
    for (int i = 0; i < argc; i++) {
        compiler_args |= i > 0 && (strcmp(argv[i], "--") == 0 || strcmp(argv[i], KC_CLI_END_OF_OPTIONS) == 0);
        if (i > 0 && !compiler_args && strcmp(argv[i], "--server") == 0)
            via_server = true;
        /* The server cannot read this process's standard input. */
        else if (i > 0 && !compiler_args &&
                 (strncmp(argv[i], "--stdin-filename", 16) == 0 || strncmp(argv[i], "--diff-base", 11) == 0))
            stdin_text = true, args[n++] = argv[i]; /* read here: stdin, the working tree's git state */
        else
            args[n++] = argv[i];
    }
    int status;
    if (!via_server || stdin_text || out != stdout || err != stderr || (n > 1 && (strcmp(args[1], "verify") == 0 || strcmp(args[1], "lsp") == 0)) ||
        !kc_server_try(n, args, err, &server_host, &status))
        status = kc_cli_run(n, args, out, err);
    free(args);
    return status;
}

int kc_cli_run(int argc, char **argv, FILE *out, FILE *err)
{
    double t0 = kc_cli_now();
    cli_args a;
    cli_args_init(&a);
    int status = cli_parse(&a, argc, argv, out, err);
    if (status == CLI_GO_ON)
        status = cli_rules(&a, err);
    if (status == CLI_GO_ON)
        status = cli_dispatch(&a, t0, out, err);
    if (!(status & KC_CLI_STRANDED)) /* else a stranded worker still reads the options */
        cli_args_free(&a);
    return status;
}
