/* cli_modes.c — what the command line runs once its options are parsed
 * (kc_cli.c): the listings, the dumps and the check itself. */
#include "cli_modes.h"

#include "kc_baseline.h"
#include "kc_driver.h"
#include "kc_frontend.h"
#include "kc_project.h"
#include "kc_report.h"
#include "kc_rule.h"
#include "kc_verify.h"

#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int kc_cli_list_rules(FILE *out, bool json)
{
    if (json) {
        /* id, slug, default severity, languages, summary, options */
        json_t *rules = json_array();
        for (size_t i = 0; i < kc_rules_count(); i++) {
            const kc_rule *r = kc_rules_get(i);
            json_t *langs = json_array();
            if (r->langs & KC_LANG_BIT_CUDA)
                json_array_append_new(langs, json_string("cuda"));
            if (r->langs & KC_LANG_BIT_TRITON)
                json_array_append_new(langs, json_string("triton"));
            json_t *opts = json_array();
            for (const kc_rule_option_doc *d = r->options; d && d->name; d++)
                json_array_append_new(opts, json_pack("{s:s,s:s,s:s}", "name", d->name, "default",
                                                      d->default_value ? d->default_value : "", "help",
                                                      d->help ? d->help : ""));
            json_array_append_new(rules, json_pack("{s:s,s:s,s:s,s:o,s:s,s:o}", "id", r->id, "name", r->slug,
                                                   "severity", kc_severity_name(r->severity), "languages", langs,
                                                   "summary", r->summary, "options", opts));
        }
        char *text = json_dumps(rules, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(rules);
        if (!text)
            return 2;
        fprintf(out, "%s\n", text);
        free(text);
        return 0;
    }
    for (size_t i = 0; i < kc_rules_count(); i++) {
        const kc_rule *r = kc_rules_get(i);
        const char *langs = r->langs == (KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON) ? "cuda,triton"
                            : r->langs == KC_LANG_BIT_CUDA                     ? "cuda"
                                                                               : "triton";
        fprintf(out, "%-6s %-28s %-8s %-12s %s\n", r->id, r->slug, kc_severity_name(r->severity),
                langs, r->summary);
    }
    return 0;
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

int kc_cli_explain(const char *id, FILE *out, FILE *err)
{
    const kc_rule *r = kc_rules_find(id, NULL);
    if (!r) {
        fprintf(err, "kcheck: unknown rule '%s' (see --list-rules)\n", id);
        return 2;
    }
    explain(out, r);
    return 0;
}

typedef struct report_sink {
    kc_reporter *rep;
    bool collect; /* verify: keep the results until the experiments ran */
    KC_VEC(kc_file_result) kept;
    kc_baseline_writer *baseline; /* --write-baseline */
    const char *root;             /* --root: what the baseline names files relative to */
} report_sink;

static void on_result(void *ud, kc_file_result *r)
{
    report_sink *s = ud;
    if (s->baseline) {
        for (uint32_t i = 0; i < r->diags.items.len; i++)
            kc_baseline_writer_add(s->baseline, r->path, s->root, &r->diags.items.data[i]);
        for (uint32_t i = 0; i < r->baselined.items.len; i++)
            kc_baseline_writer_add(s->baseline, r->path, s->root, &r->baselined.items.data[i]);
    }
    if (s->collect) {
        kc_vec_push(&s->kept, *r);
        memset(r, 0, sizeof *r); /* ownership moved */
        return;
    }
    kc_reporter_file(s->rep, r);
}

/* --dump-model: lower each file and print the model. */
int kc_cli_dump_model(const kc_options *o, const char *const *paths, size_t n, FILE *out, FILE *err)
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
                for (const kc_model *x = m; x; x = x->next) /* and the CUDA source in its strings */
                    kc_model_dump(out, x);
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
int kc_cli_dump_config(kc_config_set *set, const char *const *paths, size_t n, FILE *out, FILE *err)
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

/* Drops the files an `exclude` of their configuration names. */
static void drop_excluded(kc_config_set *set, kc_path_list *files)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < files->files.len; i++) {
        kc_file_result *r = &files->files.data[i];
        if (!r->errors.items.len && kc_config_excluded(set, r->path, false))
            kc_file_result_free(r);
        else
            files->files.data[kept++] = *r;
    }
    files->files.len = kept;
}

int kc_cli_show_files(kc_config_set *set, const char *const *paths, size_t n, FILE *out, FILE *err)
{
    static const char *const here[] = {"."};
    if (n == 0) {
        paths = here;
        n = 1;
    }
    kc_path_list files = {0};
    kc_expand_paths(paths, n, &files);
    drop_excluded(set, &files);
    int status = 0;
    for (uint32_t i = 0; i < files.files.len; i++) {
        kc_file_result *r = &files.files.data[i];
        if (r->errors.items.len) {
            fprintf(err, "%s: %s\n", r->path, r->errors.items.data[0].message);
            status = 2;
        } else
            fprintf(out, "%s\n", r->path);
        kc_file_result_free(r);
    }
    kc_vec_free(&files.files);
    return status;
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

double kc_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every file's options, before anything runs: a bad configuration file
 * stops the run with no partial output (and frees the files). */
static bool options_for_files(kc_config_set *set, kc_path_list *files, FILE *err)
{
    drop_excluded(set, files);
    for (uint32_t i = 0; i < files->files.len; i++) {
        kc_file_result *r = &files->files.data[i];
        if (r->errors.items.len)
            continue;
        char *e = NULL;
        r->opts = kc_config_options_for(set, r->path, false, &e);
        if (!r->opts) {
            fprintf(err, "%s\n", e);
            free(e);
            for (uint32_t k = 0; k < files->files.len; k++)
                kc_file_result_free(&files->files.data[k]);
            kc_vec_free(&files->files);
            return false;
        }
    }
    return true;
}

/* Each compile database's flags that the CUDA front end does not translate,
 * named once per run (not per file, and on cached results too). */
static void report_compile_flags(const kc_options *o, const kc_path_list *files, FILE *err)
{
    KC_VEC(const kc_options *) done = {0};
    KC_VEC(const char *) paths = {0};
    for (uint32_t i = 0; i < files->files.len; i++) {
        const kc_options *fo = files->files.data[i].opts ? files->files.data[i].opts : o;
        if (!fo->compile_db_dir)
            continue;
        bool seen = false;
        for (uint32_t k = 0; k < done.len && !seen; k++)
            seen = done.data[k] == fo || (done.data[k]->compile_db_dir &&
                                          strcmp(done.data[k]->compile_db_dir, fo->compile_db_dir) == 0);
        if (seen)
            continue;
        kc_vec_push(&done, fo);
        paths.len = 0;
        for (uint32_t k = i; k < files->files.len; k++) {
            const kc_file_result *r = &files->files.data[k];
            const kc_options *ko = r->opts ? r->opts : o;
            kc_lang lang;
            if (!r->errors.items.len && ko->compile_db_dir && strcmp(ko->compile_db_dir, fo->compile_db_dir) == 0 &&
                kc_lang_for_path(r->path, &lang) && lang == KC_LANG_CUDA)
                kc_vec_push(&paths, r->path);
        }
        kc_frontend_db_report(fo, paths.data, paths.len, err);
    }
    kc_vec_free(&done);
    kc_vec_free(&paths);
}

/* verify: the experiments on the results the run kept, then their report. */
static void verify_kept(const kc_options *o, report_sink *sink, kc_run_totals *totals, FILE *err)
{
    size_t *had = kc_xcalloc(sink->kept.len + 1, sizeof *had);
    for (uint32_t i = 0; i < sink->kept.len; i++)
        had[i] = sink->kept.data[i].errors.items.len;
    int sig = kc_verify_files(o, sink->kept.data, sink->kept.len, err);
    if (sig) {
        /* interrupted: the experiments are stopped and cleaned up; end as
         * the signal asked, with its exit status (130, 143, 129) */
        fflush(NULL);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    /* A binding verify cannot read (an unknown op or key) is an input error
     * of its file: exit 2. */
    for (uint32_t i = 0; i < sink->kept.len; i++)
        if (!had[i] && sink->kept.data[i].errors.items.len)
            totals->file_errors++;
    free(had);
    /* A bound kernel whose outputs differ from the reference fails the run too. */
    for (uint32_t i = 0; i < sink->kept.len; i++)
        for (uint32_t k = 0; k < sink->kept.data[i].checks.len; k++)
            if (!strcmp(sink->kept.data[i].checks.data[k].status, "mismatch"))
                totals->failing++;
    for (uint32_t i = 0; i < sink->kept.len; i++) {
        kc_reporter_file(sink->rep, &sink->kept.data[i]);
        kc_file_result_free(&sink->kept.data[i]);
    }
    kc_vec_free(&sink->kept);
}

/* --write-baseline: saves and deletes the writer; false when it cannot be saved. */
static bool save_baseline(kc_baseline_writer *w, const char *path, const kc_run_totals *totals,
                          bool quiet, FILE *err)
{
    char *e = NULL;
    bool ok = kc_baseline_writer_save(w, path, &e);
    if (!ok) {
        fprintf(err, "kcheck: error: %s\n", e);
        free(e);
    } else if (!quiet) {
        size_t n = totals->diags[0] + totals->diags[1] + totals->diags[2] + totals->baselined;
        fprintf(err, "kcheck: wrote %zu finding%s to the baseline %s\n", n, n == 1 ? "" : "s", path);
    }
    kc_baseline_writer_delete(w);
    return ok;
}

/* --stdin-filename: standard input as the one file of the run, read and
 * validated like a file (size limit, UTF-8, binary); kc_check_file takes a
 * result whose source is already there. */
static void stdin_file(const kc_options *o, const char *path, kc_path_list *files)
{
    kc_file_result r;
    memset(&r, 0, sizeof r);
    r.path = kc_xstrdup(path);
    r.explicit_path = true;
    kc_strbuf sb = {0};
    char buf[65536];
    size_t n;
    bool too_big = false;
    while (!too_big && (n = fread(buf, 1, sizeof buf, stdin)) > 0) {
        kc_sb_appendn(&sb, buf, n);
        too_big = sb.len > o->max_file_size;
    }
    char *e = NULL;
    if (ferror(stdin))
        kc_file_errors_add(&r.errors, 0, 0, "cannot read standard input");
    else if (too_big)
        kc_file_errors_add(&r.errors, 0, 0, "standard input is larger than --max-file-size (%zu bytes)",
                           o->max_file_size);
    else if (!(r.src = kc_source_from_memory(path, sb.data ? sb.data : "", sb.len, o->max_file_size, &e))) {
        kc_file_errors_add(&r.errors, 0, 0, "%s", e ? e : "cannot read standard input");
        free(e);
    }
    kc_sb_free(&sb);
    kc_vec_push(&files->files, r);
}

int kc_cli_check(const kc_options *o, kc_config_set *set, const char *const *paths, size_t npaths,
                 const char *stdin_filename, const char *write_baseline_path, double t0, FILE *out, FILE *err, bool *stranded)
{
    kc_path_list files = {0};
    if (stdin_filename)
        stdin_file(o, stdin_filename, &files);
    else
        kc_expand_paths(paths, npaths, &files);
    if (o->fix || o->format == KC_FORMAT_DIFF)
        drop_duplicate_files(&files);
    if (!options_for_files(set, &files, err))
        return 2;
    if (!o->quiet)
        report_compile_flags(o, &files, err);
    kc_reporter *rep = kc_reporter_new(o, out, err);
    report_sink sink = {.rep = rep, .collect = o->verify, .root = o->root};
    if (write_baseline_path)
        sink.baseline = kc_baseline_writer_new();
    kc_run_totals totals;
    kc_run_files(o, &files, on_result, &sink, &totals);
    if (totals.cache_unwritten && !o->quiet)
        fprintf(err, "kcheck: warning: the result cache could not be written for %zu file%s (%s): their findings "
                     "are reported, but will be computed again next time\n",
                totals.cache_unwritten, totals.cache_unwritten == 1 ? "" : "s", totals.cache_error);
    if (o->verify)
        verify_kept(o, &sink, &totals, err);
    totals.seconds = kc_cli_now() - t0;
    kc_reporter_finish(rep, &totals);
    kc_reporter_delete(rep);
    kc_vec_free(&files.files);
    if (o->stats)
        kc_report_stats(o->format == KC_FORMAT_TEXT || o->format == KC_FORMAT_CONCISE || o->format == KC_FORMAT_GITHUB ? out : err, &totals);
    fflush(out);
    bool write_failed = sink.baseline &&
                        !save_baseline(sink.baseline, write_baseline_path, &totals, o->quiet, err);
    int status;
    if (totals.file_errors || write_failed)
        status = 2;
    else if (o->format == KC_FORMAT_DIFF)
        status = totals.fixed ? 1 : 0;
    else if (write_baseline_path)
        status = 0; /* every finding is in the baseline now */
    else
        status = totals.failing ? 1 : 0;
    *stranded = totals.stranded > 0;
    kc_run_totals_free(&totals);
    return status;
}
