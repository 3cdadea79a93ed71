#include "kc_cli.h"

#include "kc_driver.h"
#include "kc_frontend.h"
#include "kc_report.h"
#include "../verify/kc_verify.h"
#include "../rules/kc_rule.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: kcheck [options] PATH... [-- COMPILER-ARGS...]\n"
    "       kcheck verify [options] PATH...   (confirm findings on the GPU)\n"
    "       kcheck --list-rules | --explain RULE | --version | --help\n"
    "\n"
    "Checks CUDA (.cu, .cuh) and Triton (.py) kernel sources. Directories are\n"
    "walked recursively, honouring .gitignore and skipping hidden entries.\n"
    "\n"
    "Output:\n"
    "  --format FMT          text (default) or json\n"
    "  --color WHEN          auto (default: on a terminal, unless NO_COLOR is set), always, never\n"
    "  --no-source           do not print the source line and caret\n"
    "  --fail-on SEVERITY    lowest severity that makes the exit status 1 (default: warning)\n"
    "Rules:\n"
    "  --select LIST         only these rules (IDs, ID prefixes such as KC1, slugs or ALL; comma-separated)\n"
    "  --ignore LIST         not these rules\n"
    "  -o, --option R.NAME=V set a rule option, e.g. KC201.max-trip-count=64\n"
    "  --list-rules          list the rules and exit\n"
    "  --explain RULE        print a rule's documentation and exit\n"
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
    "Exit status: 0 no findings, 1 findings, 2 usage error, unreadable input or internal failure.\n";

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
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Applies one comma-separated --select/--ignore list to `flags`. Returns
 * false (with a message) on an unknown rule. */
static bool apply_rule_list(const char *list, uint8_t *flags, uint8_t value, FILE *err)
{
    char *copy = kc_xstrdup(list);
    bool ok = true;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        size_t tl = strlen(tok);
        while (tl && isspace((unsigned char)tok[tl - 1]))
            tok[--tl] = '\0';
        if (!*tok)
            continue;
        bool hit = false;
        for (size_t i = 0; i < kc_rules_count(); i++) {
            const kc_rule *r = kc_rules_get(i);
            bool match = strcasecmp(tok, "ALL") == 0 || strcmp(tok, r->slug) == 0 ||
                         (strncasecmp(tok, r->id, tl) == 0 && tl >= 2 && tl <= strlen(r->id));
            if (match) {
                flags[i] = value;
                hit = true;
            }
        }
        if (!hit) {
            fprintf(err, "kcheck: unknown rule '%s' (see --list-rules)\n", tok);
            ok = false;
        }
    }
    free(copy);
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
    size_t idx;
    const kc_rule *r = kc_rules_find(rule, &idx);
    free(rule);
    if (!r) {
        fprintf(err, "kcheck: --option: unknown rule in '%s'\n", arg);
        return false;
    }
    char *name = kc_xstrndup(dot + 1, (size_t)(eq - dot - 1));
    bool known = false;
    for (const kc_rule_option_doc *d = r->options; d && d->name; d++)
        if (strcmp(d->name, name) == 0)
            known = true;
    if (!known) {
        fprintf(err, "kcheck: --option: %s has no option '%s' (see --explain %s)\n", r->id, name,
                r->id);
        free(name);
        return false;
    }
    kc_rule_option ro = {.rule = kc_xstrdup(r->id), .name = name, .value = kc_xstrdup(eq + 1)};
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
} report_sink;

static void on_result(void *ud, kc_file_result *r)
{
    report_sink *s = ud;
    if (s->collect) {
        kc_vec_push(&s->kept, *r);
        memset(r, 0, sizeof *r); /* ownership moved */
        return;
    }
    s->rep->ops->file(s->rep, r);
}

/* --dump-model: lower each file and print the model. */
static int dump_models(const kc_options *o, const char *const *paths, size_t n, FILE *out, FILE *err)
{
    kc_path_list files = {0};
    kc_expand_paths(paths, n, &files);
    kc_frontend *fe = kc_frontend_new(o);
    int status = 0;
    for (uint32_t i = 0; i < files.files.len; i++) {
        kc_file_result *r = &files.files.data[i];
        kc_lang lang;
        char *e = NULL;
        if (!r->errors.items.len && kc_lang_for_path(r->path, &lang) &&
            (r->src = kc_source_load(r->path, o->max_file_size, &e)) != NULL) {
            kc_model *m = kc_frontend_lower(fe, r->src, lang, &r->errors);
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
    return status;
}

int kc_cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    kc_options o;
    kc_options_init(&o);
    size_t nrules = kc_rules_count();
    o.rule_enabled = kc_xcalloc(nrules, 1);
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
    bool do_list = false, dump_model = false;
    const char *explain_id = NULL;
    const char *select = NULL;
    KC_VEC(const char *) ignores = {0};
    KC_VEC(const char *) selects = {0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(nargs, argv, "j:o:p:h", long_opts, NULL)) != -1) {
        switch (c) {
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0)
                o.format = KC_FORMAT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                o.format = KC_FORMAT_JSON;
            else {
                fprintf(err, "kcheck: unknown --format '%s' (text, json)\n", optarg);
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
        case OPT_SELECT:
            select = optarg;
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
            break;
        case OPT_TOOLKIT:
            o.cuda_mode = KC_CUDA_TOOLKIT;
            break;
        case OPT_CUDA_ARCH:
            free(o.cuda_arch);
            o.cuda_arch = kc_xstrdup(optarg);
            break;
        case 'p':
            free(o.compile_db_dir);
            o.compile_db_dir = kc_xstrdup(optarg);
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

    if (select) {
        memset(o.rule_enabled, 0, nrules);
        for (uint32_t i = 0; i < selects.len; i++)
            if (!apply_rule_list(selects.data[i], o.rule_enabled, 1, err))
                goto done;
    }
    for (uint32_t i = 0; i < ignores.len; i++)
        if (!apply_rule_list(ignores.data[i], o.rule_enabled, 0, err))
            goto done;

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
    if (optind >= nargs) {
        fputs("kcheck: no paths given\n", err);
        fputs(usage_text, err);
        goto done;
    }

    if (color < 0)
        o.color = isatty(fileno(out)) && !getenv("NO_COLOR") && o.format == KC_FORMAT_TEXT;
    else
        o.color = color == 1;

    if (dump_model) {
        status = dump_models(&o, (const char *const *)argv + optind, (size_t)(nargs - optind), out, err);
        goto done;
    }
    {
        kc_path_list files = {0};
        kc_expand_paths((const char *const *)argv + optind, (size_t)(nargs - optind), &files);
        kc_reporter *rep = kc_reporter_new(&o, out);
        report_sink sink = {.rep = rep, .collect = o.verify};
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
                rep->ops->file(rep, &sink.kept.data[i]);
                kc_file_result_free(&sink.kept.data[i]);
            }
            kc_vec_free(&sink.kept);
        }
        rep->ops->finish(rep, &totals);
        kc_reporter_delete(rep);
        kc_vec_free(&files.files);
        fflush(out);
        status = totals.file_errors ? 2 : totals.failing ? 1 : 0;
    }

done:
    kc_vec_free(&ignores);
    kc_vec_free(&selects);
    kc_options_free(&o);
    return status;
}
