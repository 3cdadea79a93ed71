/* verify --run CMD: findings in Triton kernels that no binding covers are
 * confirmed on the launches the user's own command makes. The command runs
 * with kcheck's launch recorder loaded into each of its Python processes
 * (a sitecustomize first on PYTHONPATH); the recorder runs each flagged
 * kernel, on copies of that launch's own inputs, with the finding's fix-it
 * applied next to the launch as written, and writes down what it saw. The
 * user's kernel with the fix-it is the oracle: no reference op, no
 * annotation. docs/verify.md, "Verify on your own run". */
#include "verify_internal.h"

#include "kc_file.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One finding the recorder watches for. */
typedef struct rec_item {
    kc_file_result *r;
    kc_diag *d;
    int index;   /* of d in its file's diagnostics */
    int group;   /* the experiment that judges it (one fixed copy) */
    bool leader; /* the group's first item, which holds the fixed copy */
    char *fixed; /* the leader's: the fixed copy, relative to the work directory, or NULL */
} rec_item;

typedef KC_VEC(rec_item) rec_item_vec;

/* The compute-sanitizer tools --run may use, by the findings' kinds. */
#define KC_TOOLS 3
static const char *const tools[KC_TOOLS] = {"memcheck", "racecheck", "synccheck"};

/* What came of the command. */
typedef struct rec_run {
    const char *cmd;
    bool have_status, timed_out;
    int status;     /* the command's exit status, when have_status */
    char *log_tail; /* the last lines of its output, or NULL */
    /* compute-sanitizer's runs of the command: memcheck, racecheck */
    bool tool_ran[KC_TOOLS];
    bool tool_cut[KC_TOOLS];  /* it ran, but not to the command's end: its silence says nothing */
    char *tool_why[KC_TOOLS]; /* why a tool did not run, or NULL */
    kc_sanitizer_report_vec reports[KC_TOOLS];
    json_t *docs;   /* the recorder's documents, one per Python process */
    json_t *replayed; /* kcheck_replay.py's documents, one per replayed launch */
    json_t *ncu;      /* kcheck_ncu.py's document of Nsight Compute's run, or NULL */
    char *ncu_why;    /* why there is none, when a profile was asked for */
    const char *why_none; /* why nothing ran, or NULL */
} rec_run;

static const char *kind_name(kc_verify_kind k)
{
    switch (k) {
    case KC_VERIFY_WRONG_RESULT: return "correctness";
    case KC_VERIFY_COMPILE_ERROR: return "compile_error";
    case KC_VERIFY_PERF_RUNTIME: return "timing";
    case KC_VERIFY_PERF_COMPILE: return "compile_time";
    case KC_VERIFY_MEMORY: return "memory";
    case KC_VERIFY_RACE: return "race";
    case KC_VERIFY_OVERFLOW: return "overflow";
    case KC_VERIFY_NONE: break;
    }
    return "none";
}

static char *absolute(const char *path)
{
    char *real = realpath(path, NULL);
    return real ? real : kc_xstrdup(path);
}

/* Whether the finding's kernel is a Triton one (the recorder watches those;
 * CUDA findings are judged by compute-sanitizer alone). */
static bool in_triton(const kc_file_result *r, const kc_diag *d)
{
    for (uint32_t i = 0; i < r->kernels.len; i++)
        if (r->kernels.data[i].lang == KC_LANG_TRITON && d->kernel && !strcmp(r->kernels.data[i].name, d->kernel))
            return true;
    return false;
}

/* Whether the finding is about what the kernel computes (its outputs, its
 * memory, whether it compiles) rather than its speed. */
static bool is_correctness(const kc_diag *d) { return !kc_verify_is_perf(kc_verify_kind_of(d)); }

/* The findings --run judges, in experiments: the correctness findings of
 * one kernel together, against the kernel with all their fix-its applied
 * (fixing one int32 offset of two still faults), each performance finding
 * alone, against its own fix-it. */
static void collect(kc_verify_env *e, kc_file_result *files, size_t n, rec_item_vec *items)
{
    int groups = 0;
    for (size_t i = 0; i < n; i++) {
        kc_file_result *r = &files[i];
        for (uint32_t k = 0; k < r->diags.items.len; k++) {
            kc_diag *d = &r->diags.items.data[k];
            if (d->verdict || !kc_verify_recorded(e, r, d))
                continue;
            rec_item it = {.r = r, .d = d, .group = -1, .index = (int)k};
            for (uint32_t j = 0; j < items->len && is_correctness(d); j++) {
                const rec_item *o = &items->data[j];
                if (o->r == r && is_correctness(o->d) && !strcmp(o->d->kernel, d->kernel))
                    it.group = o->group;
            }
            if (it.group < 0) {
                it.group = groups++;
                it.leader = true;
            }
            kc_vec_push(items, it);
        }
    }
    /* each group's fixed copy, relative to the plan's directory (it travels
     * with a bundle) */
    int *idx = kc_xcalloc(items->len ? items->len : 1, sizeof *idx);
    for (uint32_t i = 0; i < items->len && e->workdir; i++) {
        rec_item *it = &items->data[i];
        if (!it->leader)
            continue;
        size_t m = 0;
        for (uint32_t j = i; j < items->len; j++)
            if (items->data[j].group == it->group && items->data[j].d->fixes.len)
                idx[m++] = items->data[j].index;
        it->fixed = m && in_triton(it->r, it->d) ? kc_verify_fixed_copy(e, it->r, it->r->diags.items.data, idx, m, ".py") : NULL;
    }
    free(idx);
}

/* The leader of a group: the item that holds its fixed copy. */
static const rec_item *leader_of(const rec_item_vec *items, int group)
{
    for (uint32_t i = 0; i < items->len; i++)
        if (items->data[i].group == group && items->data[i].leader)
            return &items->data[i];
    return NULL;
}

/* The recorder's plan: one entry per experiment (group of findings), with
 * the file, the kernel and the fixed copy. */
static bool write_plan(const kc_verify_env *e, const rec_item_vec *items, const char *path)
{
    json_t *plan = json_object(), *fs = json_array();
    for (uint32_t i = 0; i < items->len; i++) {
        const rec_item *it = &items->data[i];
        if (!it->leader)
            continue;
        json_t *f = json_object(), *lines = json_array(), *rules = json_array(), *kinds = json_array();
        for (uint32_t j = i; j < items->len; j++)
            if (items->data[j].group == it->group) {
                json_array_append_new(lines, json_integer(items->data[j].d->span.line));
                json_array_append_new(rules, json_string(items->data[j].d->rule_id));
                json_array_append_new(kinds, json_string(kind_name(kc_verify_kind_of(items->data[j].d))));
            }
        char *file = absolute(it->r->path);
        json_object_set_new(f, "diag", json_integer(it->group));
        json_object_set_new(f, "file", json_string(file));
        json_object_set_new(f, "kernel", json_string(it->d->kernel));
        json_object_set_new(f, "rule", json_string(it->d->rule_id));
        json_object_set_new(f, "kind", json_string(kind_name(kc_verify_kind_of(it->d))));
        json_object_set_new(f, "line", json_integer(it->d->span.line));
        json_object_set_new(f, "lines", lines);
        json_object_set_new(f, "rules", rules);
        json_object_set_new(f, "kinds", kinds);
        json_object_set_new(f, "fixed", it->fixed ? json_string(it->fixed) : json_null());
        json_array_append_new(fs, f);
        free(file);
    }
    json_object_set_new(plan, "findings", fs);
    json_object_set_new(plan, "max_launches", json_integer(2));
    json_object_set_new(plan, "max_bytes", json_integer((json_int_t)48 << 30));
    /* a launch saved for the replay past 2^31 keeps its tensors up to this */
    json_object_set_new(plan, "max_saved_bytes", json_integer((json_int_t)1 << 30));
    json_object_set_new(plan, "command", json_string(e->o->verify_run_cmd));
    bool ok = json_dump_file(plan, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0;
    json_decref(plan);
    return ok;
}

/* The last `lines` lines of a file, or NULL. */
static char *file_tail(const char *path, int lines)
{
    size_t len = 0;
    char *text = NULL;
    if (!kc_read_all(path, &text, &len) || !len) {
        free(text);
        return NULL;
    }
    size_t i = len;
    while (i > 0 && (text[i - 1] == '\n' || text[i - 1] == ' '))
        i--;
    size_t end = i;
    for (int seen = 0; i > 0; i--)
        if (text[i - 1] == '\n' && ++seen == lines)
            break;
    char *tail = kc_xstrndup(text + i, end - i);
    free(text);
    return tail;
}

/* Every record-*.json the command's processes left. */
static json_t *read_docs(const char *dir, const char *prefix)
{
    json_t *docs = json_array();
    DIR *d = opendir(dir);
    if (!d)
        return docs;
    KC_VEC(char *) names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        size_t pl = strlen(prefix);
        if (!strncmp(de->d_name, prefix, pl) && l > pl + 5 && !strcmp(de->d_name + l - 5, ".json"))
            kc_vec_push(&names, kc_xstrdup(de->d_name));
    }
    closedir(d);
    if (names.len > 1)
        qsort(names.data, names.len, sizeof *names.data, kc_strptr_cmp);
    for (uint32_t i = 0; i < names.len; i++) {
        char *p = kc_xasprintf("%s/%s", dir, names.data[i]);
        json_t *doc = json_load_file(p, 0, NULL);
        if (doc && json_is_object(doc) && !strcmp(prefix, "replayed-")) {
            /* what the replay's process printed: its last words when the
             * launch killed it (replay-PID-DIAG.log) */
            char *lp = kc_xasprintf("%s/replay-%s", dir, names.data[i] + strlen(prefix));
            strcpy(lp + strlen(lp) - 5, ".log");
            char *tail = file_tail(lp, 6);
            if (tail)
                json_object_set_new(doc, "_log_tail", json_string(tail));
            free(tail);
            free(lp);
        }
        if (doc)
            json_array_append_new(docs, doc);
        free(p);
        free(names.data[i]);
    }
    kc_vec_free(&names);
    return docs;
}

/* The script that runs the user's command with the recorder, here or on
 * the GPU machine of an --export bundle: from the project's directory,
 * `sh BUNDLE/run-command.sh RESULTS_DIR`. */
static const char run_command_sh[] =
    "#!/bin/sh\n"
    "# kcheck verify --run: runs the user's command (command.sh) with kcheck's launch\n"
    "# recorder in its Python processes. From the project's directory:\n"
    "#     sh BUNDLE/run-command.sh RESULTS_DIR\n"
    "# then, where the sources are: kcheck verify --run CMD --results RESULTS_DIR FILE...\n"
    "set -u\n"
    "out=${1:-results}\n"
    "mkdir -p -- \"$out\" && out=$(cd -- \"$out\" && pwd) || exit 1\n"
    "b=$(cd -- \"$(dirname -- \"$0\")\" && pwd) || exit 1\n"
    "rm -f -- \"$out\"/record-*.json \"$out\"/replay-* \"$out\"/replayed-* \"$out/command.status\"\n"
    "# A Triton cache of its own: the first launch's time is the compile, as the\n"
    "# user's next change will see it.\n"
    "PYTHONPATH=\"$b/record${PYTHONPATH:+:$PYTHONPATH}\" KCHECK_RECORD_PLAN=\"$b/record-plan.json\" \\\n"
    "KCHECK_RECORD_OUT=\"$out\" TRITON_CACHE_DIR=\"$out/triton-cache\" PYTHONUNBUFFERED=1 \\\n"
    "    sh \"$b/command.sh\" >\"$out/command.log\" 2>&1\n"
    "echo $? >\"$out/command.status\"\n"
    "# Memory and race findings: the command again under compute-sanitizer (no recorder;\n"
    "# KCHECK_RUN_SANITIZER=0 skips it).\n"
    "cs=$(command -v compute-sanitizer 2>/dev/null || echo \"${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer\")\n"
    "for tool in $(cat \"$b/sanitize\"); do\n"
    "    rm -f -- \"$out/$tool.log\" \"$out/$tool.status\" \"$out/$tool.skipped\"\n"
    "    if [ \"${KCHECK_RUN_SANITIZER:-1}\" = 0 ]; then echo 'KCHECK_RUN_SANITIZER=0' >\"$out/$tool.skipped\"; continue; fi\n"
    "    if [ ! -x \"$cs\" ]; then echo 'compute-sanitizer not found' >\"$out/$tool.skipped\"; continue; fi\n"
    "    # PyTorch's caching allocator hides an access past a tensor inside its block\n"
    "    PYTORCH_NO_CUDA_MEMORY_CACHING=1 TRITON_CACHE_DIR=\"$out/triton-cache\" \"$cs\" --tool \"$tool\" --target-processes all --print-limit 200 \\\n"
    "        --log-file \"$out/$tool.log\" sh \"$b/command.sh\" >\"$out/$tool-command.log\" 2>&1\n"
    "    echo $? >\"$out/$tool.status\"\n"
    "done\n"
    "# Performance findings with a per-line counter: the command again under Nsight\n"
    "# Compute (the first launch of each flagged kernel; KCHECK_RUN_NCU=0 skips it).\n"
    "rm -f -- \"$out\"/ncu.* \"$out/ncu-lines.json\" \"$out/ncu-command.log\"\n"
    "to=$(command -v timeout 2>/dev/null || true)\n"
    "pk=$(cat \"$b/profile\" 2>/dev/null)\n"
    "if [ -n \"$pk\" ]; then\n"
    "    nc=$(command -v ncu 2>/dev/null || echo \"${CUDA_HOME:-/usr/local/cuda}/bin/ncu\")\n"
    "    if [ \"${KCHECK_RUN_NCU:-1}\" = 0 ]; then echo 'KCHECK_RUN_NCU=0' >\"$out/ncu.skipped\"\n"
    "    elif [ ! -x \"$nc\" ]; then echo 'ncu (Nsight Compute) not found' >\"$out/ncu.skipped\"\n"
    "    else\n"
    "        # once each flagged kernel was profiled, the rest of the command is not needed\n"
    "        nk=$(printf '%s\\n' \"$pk\" | tr '|' '\\n' | grep -c .)\n"
    "        kill=; \"$nc\" --help 2>/dev/null | grep -q -- '--kill' && kill=\"--launch-count $nk --kill on\"\n"
    "        # where ncu cannot end the run itself (a flagged kernel the command never\n"
    "        # launches), SIGINT after KCHECK_NCU_LIMIT seconds; a report it left is read\n"
    "        TRITON_CACHE_DIR=\"$out/triton-cache\" ${to:+$to -s INT -k 60 ${KCHECK_NCU_LIMIT:-600}} \\\n"
    "            \"$nc\" --section SourceCounters --target-processes all $kill \\\n"
    "            --kernel-id \"::regex:^($pk)(<.*)?\\$:1\" -f -o \"$out/ncu\" \\\n"
    "            sh \"$b/command.sh\" >\"$out/ncu-command.log\" 2>&1\n"
    "        echo $? >\"$out/ncu.status\"\n"
    "        if [ -e \"$out/ncu.ncu-rep\" ]; then\n"
    "            KCHECK_NCU=\"$nc\" python3 \"$b/record/kcheck_ncu.py\" \"$out/ncu.ncu-rep\" \"$out/ncu-lines.json\" >/dev/null 2>&1\n"
    "            [ \"${KCHECK_KEEP:-0}\" = 1 ] || rm -f -- \"$out/ncu.ncu-rep\"\n"
    "        fi\n"
    "    fi\n"
    "fi\n"
    "# Launches the recorder saved to be replayed at a size that can show the finding\n"
    "# (an int32 offset past 2^31 elements), each in a process of its own: the launch as\n"
    "# written may kill it.\n"
    "# One replay a finding: each Python process of the command may have saved one.\n"
    "seen=' '\n"
    "for r in \"$out\"/replay-*.json; do\n"
    "    [ -e \"$r\" ] || continue\n"
    "    d=${r##*-}; d=${d%.json}\n"
    "    case \"$seen\" in *\" $d \"*) continue ;; esac\n"
    "    seen=\"$seen$d \"\n"
    "    TRITON_CACHE_DIR=\"$out/triton-cache\" PYTHONUNBUFFERED=1 ${to:+$to 900} python3 \"$b/record/kcheck_replay.py\" \"$r\" \\\n"
    "        >\"${r%.json}.log\" 2>&1\n"
    "done\n"
    "# the saved tensors are large; KCHECK_KEEP=1 keeps them\n"
    "[ \"${KCHECK_KEEP:-0}\" = 1 ] || rm -f -- \"$out\"/replay-*.pt\n"
    "rm -rf -- \"$out/triton-cache\"\n";

/* The recorder, its sitecustomize, the command and its script. */
static bool write_bundle(const kc_verify_env *e, const char *cmd, const rec_item_vec *items)
{
    bool want[2] = {false, false};
    for (uint32_t i = 0; i < items->len; i++) {
        kc_verify_kind k = kc_verify_kind_of(items->data[i].d);
        want[0] |= k == KC_VERIFY_MEMORY || k == KC_VERIFY_OVERFLOW;
        want[1] |= k == KC_VERIFY_RACE;
    }
    /* races: racecheck (shared memory) and synccheck (barriers) */
    char *tl = kc_xasprintf("%s%s%s\n", want[0] ? tools[0] : "", want[0] && want[1] ? " " : "",
                            want[1] ? "racecheck synccheck" : "");
    char *tp = kc_xasprintf("%s/sanitize", e->workdir);
    bool wrote = kc_write_file(tp, tl, strlen(tl));
    free(tl);
    free(tp);
    /* the kernels Nsight Compute profiles: those of findings with a
     * per-line counter, as a regex alternation of their names */
    kc_strbuf pk = {0};
    for (uint32_t i = 0; i < items->len; i++) {
        const kc_diag *d = items->data[i].d;
        if (kc_verify_metric_of(d) == KC_METRIC_NONE)
            continue;
        bool dup = false;
        for (uint32_t j = 0; j < i && !dup; j++)
            dup = kc_verify_metric_of(items->data[j].d) != KC_METRIC_NONE && !strcmp(items->data[j].d->kernel, d->kernel);
        bool plain = true; /* kernel names are identifiers; anything else is not profiled */
        for (const char *c = d->kernel; *c && plain; c++)
            plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
        if (!dup && plain)
            kc_sb_appendf(&pk, "%s%s", pk.len ? "|" : "", d->kernel);
    }
    kc_sb_appendf(&pk, "\n");
    char *pp = kc_xasprintf("%s/profile", e->workdir);
    wrote = wrote && kc_write_file(pp, kc_sb_str(&pk), pk.len);
    free(pp);
    kc_sb_free(&pk);
    char *site = kc_xasprintf("%s/record", e->workdir);
    char *rec = kc_xasprintf("%s/kcheck_recorder.py", site);
    char *rp = kc_xasprintf("%s/kcheck_replay.py", site);
    char *np = kc_xasprintf("%s/kcheck_ncu.py", site);
    char *sc = kc_xasprintf("%s/sitecustomize.py", site);
    char *cs = kc_xasprintf("%s/command.sh", e->workdir);
    char *rs = kc_xasprintf("%s/run-command.sh", e->workdir);
    char *body = kc_xasprintf("%s\n", cmd);
    bool ok = wrote && kc_mkdir_p(site, 0755) && kc_write_file(rec, kc_recorder_py, strlen(kc_recorder_py)) &&
              kc_write_file(rp, kc_replay_py, strlen(kc_replay_py)) &&
              kc_write_file(np, kc_ncu_py, strlen(kc_ncu_py)) &&
              kc_write_file(sc, kc_sitecustomize_py, strlen(kc_sitecustomize_py)) &&
              kc_write_file(cs, body, strlen(body)) && kc_write_file(rs, run_command_sh, strlen(run_command_sh));
    free(body);
    free(site);
    free(rec);
    free(rp);
    free(np);
    free(sc);
    free(cs);
    free(rs);
    return ok;
}

/* What a run of run-command.sh left in `dir`. */
static void read_back(const char *dir, rec_run *run)
{
    run->docs = read_docs(dir, "record-");
    run->replayed = read_docs(dir, "replayed-");
    char *np = kc_xasprintf("%s/ncu-lines.json", dir);
    char *ns = kc_xasprintf("%s/ncu.status", dir);
    char *nk = kc_xasprintf("%s/ncu.skipped", dir);
    run->ncu = json_load_file(np, 0, NULL);
    char *text = NULL;
    size_t len = 0;
    if (!run->ncu && kc_read_all(nk, &text, &len) && len) {
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        run->ncu_why = kc_xstrdup(text);
    } else if (!run->ncu && (free(text), text = NULL, kc_read_all(ns, &text, &len))) {
        run->ncu_why = kc_xasprintf("ncu exited with status %d and left no report; its output is in ncu-command.log",
                                    atoi(text));
    }
    free(text);
    free(np);
    free(ns);
    free(nk);
    char *st = kc_xasprintf("%s/command.status", dir);
    text = NULL;
    len = 0;
    if (kc_read_all(st, &text, &len) && len) {
        run->have_status = true;
        run->status = atoi(text);
    }
    free(text);
    free(st);
    char *logp = kc_xasprintf("%s/command.log", dir);
    run->log_tail = file_tail(logp, 12);
    free(logp);
    for (int t = 0; t < KC_TOOLS; t++) {
        char *lp = kc_xasprintf("%s/%s.log", dir, tools[t]);
        char *sp = kc_xasprintf("%s/%s.skipped", dir, tools[t]);
        text = NULL;
        if (kc_read_all(lp, &text, &len)) {
            run->tool_ran[t] = true;
            kc_sanitizer_parse(text, len, &run->reports[t]);
            /* the command under the tool ends as the command alone did, or
             * it was cut short (killed for memory, a time limit) */
            char *stp = kc_xasprintf("%s/%s.status", dir, tools[t]);
            char *sv = NULL;
            size_t sl = 0;
            int tst = kc_read_all(stp, &sv, &sl) && sl ? atoi(sv) : -1;
            if (tst < 0 || (run->have_status ? tst != run->status && tst >= 124 : tst >= 124)) {
                run->tool_cut[t] = true;
                run->tool_why[t] = tst < 0 ? kc_xstrdup("it left no exit status")
                                           : kc_xasprintf("the command under it did not run to its end (exit "
                                                          "status %d)",
                                                          tst);
            }
            free(sv);
            free(stp);
        } else if (kc_read_all(sp, &text, &len) && len) {
            while (len && text[len - 1] == '\n')
                text[--len] = '\0';
            run->tool_why[t] = kc_xstrdup(text);
        }
        free(text);
        free(lp);
        free(sp);
    }
}

/* Runs run-command.sh here, under the time limit. */
static void run_here(kc_verify_env *e, rec_run *run)
{
    char *script = kc_xasprintf("%s/run-command.sh", e->workdir);
    char *out = kc_xasprintf("%s/record-out", e->workdir);
    char *argv[] = {"/bin/sh", script, out, NULL};
    kc_proc_result pr;
    fprintf(e->err, "kcheck verify: running `%s` with the launch recorder\n", run->cmd);
    /* --keep keeps the saved tensors and Nsight Compute's report too */
    char *keep_env[] = {e->o->verify_keep ? "KCHECK_KEEP=1" : "KCHECK_KEEP=0", NULL};
    kc_run_process(argv, NULL, NULL, NULL, keep_env, e->o->verify_timeout_s, &pr);
    if (pr.interrupted) {
        e->interrupted = pr.interrupted;
        run->why_none = "interrupted: the command was stopped";
    } else if (!pr.started)
        run->why_none = "the command could not be started (/bin/sh)";
    read_back(out, run);
    if (pr.timed_out) {
        run->timed_out = true;
        run->have_status = false;
    }
    if (pr.started && (run->timed_out || (run->have_status && run->status != 0)))
        fprintf(e->err, "kcheck verify: `%s` %s after %.1f s; the end of its output:\n%s\n", run->cmd,
                run->timed_out ? "was killed at the time limit (--timeout)" : "failed", pr.wall_s,
                run->log_tail ? run->log_tail : "(nothing)");
    if (e->o->verify_save_dir && json_array_size(run->docs)) {
        kc_mkdir_p(e->o->verify_save_dir, 0755);
        char *sp = kc_xasprintf("%s/recorded-launches.json", e->o->verify_save_dir);
        json_dump_file(run->docs, sp, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        free(sp);
    }
    free(script);
    free(out);
}

/* The command as the verdicts quote it: ", which exited with status 3". */
static void status_text(const rec_run *run, kc_strbuf *sb)
{
    if (run->timed_out)
        kc_sb_appendf(sb, "the command was killed at the time limit");
    else if (run->have_status)
        kc_sb_appendf(sb, "the command exited with status %d", run->status);
    else
        kc_sb_appendf(sb, "the command left no exit status");
}

/* ---- judging ---- */

/* "grid (64,), `x` [4096, 65536] bfloat16 (268435456 elements), ...": the
 * launch as the recorder saw it, largest tensors first (three at most). */
static void launch_text(json_t *exp, kc_strbuf *sb, json_int_t *max_numel)
{
    json_t *args = json_object_get(exp, "args");
    const char *grid = kc_json_str(exp, "grid");
    kc_sb_appendf(sb, "grid %s", *grid ? grid : "?");
    *max_numel = 0;
    int shown = 0;
    for (int round = 0; round < 3; round++) {
        json_t *best = NULL;
        json_int_t best_n = -1;
        size_t i;
        json_t *a;
        json_array_foreach(args, i, a) {
            json_t *numel = json_object_get(a, "numel");
            if (!numel || json_is_true(json_object_get(a, "_shown")))
                continue;
            if (json_integer_value(numel) > best_n) {
                best_n = json_integer_value(numel);
                best = a;
            }
        }
        if (!best)
            break;
        if (best_n > *max_numel)
            *max_numel = best_n;
        json_object_set_new(best, "_shown", json_true());
        kc_sb_appendf(sb, ", `%s` [", kc_json_str(best, "name"));
        json_t *dim;
        json_array_foreach(json_object_get(best, "shape"), i, dim)
            kc_sb_appendf(sb, "%s%lld", i ? ", " : "", (long long)json_integer_value(dim));
        kc_sb_appendf(sb, "] %s", kc_json_str(best, "dtype"));
        shown++;
    }
    size_t i;
    json_t *a;
    json_array_foreach(args, i, a)
        json_object_del(a, "_shown");
}

/* The experiment that says most about finding `id`: a finished one that
 * shows a difference, else a finished one, else the last. */
static json_t *best_exp(json_t *docs, json_int_t id, size_t *count, json_t **doc_of)
{
    json_t *best = NULL;
    int best_rank = -1;
    *count = 0;
    size_t di;
    json_t *doc;
    json_array_foreach(docs, di, doc) {
        size_t i;
        json_t *x;
        json_array_foreach(json_object_get(doc, "experiments"), i, x) {
            if (json_integer_value(json_object_get(x, "diag")) != id)
                continue;
            (*count)++;
            bool done = !strcmp(kc_json_str(x, "step"), "done");
            int rank = done && json_is_false(json_object_get(x, "outputs_equal")) ? 3 : done ? 2 : 1;
            if (rank >= best_rank) {
                best_rank = rank;
                best = x;
                *doc_of = doc;
            }
        }
    }
    return best;
}

static void judge_difference(const rec_item *it, json_t *x, const char *launch, kc_strbuf *sb, const char **status)
{
    json_t *diff = json_object_get(x, "difference");
    bool repeatable = !json_is_false(json_object_get(x, "original_repeatable"));
    json_int_t nd = json_integer_value(json_object_get(diff, "elements_differ"));
    json_int_t ne = json_integer_value(json_object_get(diff, "numel"));
    kc_strbuf at = {0};
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(diff, "at"), i, v)
        kc_sb_appendf(&at, "%s%lld", i ? ", " : "", (long long)json_integer_value(v));
    if (!repeatable) {
        *status = "inconclusive";
        kc_sb_appendf(sb, "the kernel's outputs differ from one run to the next on the command's launch (%s), so the "
                          "difference from the fixed kernel (`%s` in %lld of %lld elements) proves nothing",
                      launch, kc_json_str(diff, "tensor"), (long long)nd, (long long)ne);
    } else {
        *status = "confirmed";
        kc_sb_appendf(sb, "on the command's own launch (%s), the kernel as written and with the fix-it write different "
                          "values: `%s` differs in %lld of %lld elements, most at [%s]: %g as written, %g with the "
                          "fix-it",
                      launch, kc_json_str(diff, "tensor"), (long long)nd, (long long)ne, kc_sb_str(&at),
                      json_number_value(json_object_get(diff, "original")),
                      json_number_value(json_object_get(diff, "fixed")));
    }
    kc_sb_free(&at);
    (void)it;
}

/* kcheck_replay.py's document for experiment `id`: a finished one first. */
static json_t *replayed_of(const rec_run *run, json_int_t id)
{
    json_t *best = NULL;
    size_t i;
    json_t *doc;
    json_array_foreach(run->replayed, i, doc) {
        if (json_integer_value(json_object_get(doc, "diag")) != id)
            continue;
        if (!best || !strcmp(kc_json_str(doc, "step"), "done"))
            best = doc;
    }
    return best;
}

/* "17825792 rows (4 recorded, 4456448 copies of each), grid (17825792, 1,
 * 1), `X` to element 2281701375, `Y` to element 2281701375; 17.1 GiB on
 * NVIDIA H200": the scaled launch. */
static void replay_text(json_t *rp, kc_strbuf *sb)
{
    json_t *plan = json_object_get(rp, "plan");
    kc_sb_appendf(sb, "%lld rows (the recorded %lld, %lld copies of each",
                  (long long)json_integer_value(json_object_get(plan, "new_rows")),
                  (long long)json_integer_value(json_object_get(plan, "rows")),
                  (long long)json_integer_value(json_object_get(plan, "factor")));
    json_int_t blk = json_integer_value(json_object_get(plan, "block"));
    if (blk > 1)
        kc_sb_appendf(sb, ", %lld to a program", (long long)blk);
    kc_sb_appendf(sb, "), grid (");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(plan, "grid"), i, v)
        kc_sb_appendf(sb, "%s%lld", i ? ", " : "", (long long)json_integer_value(v));
    kc_sb_appendf(sb, ")");
    int shown = 0;
    json_array_foreach(json_object_get(plan, "tensors"), i, v) {
        if (!json_is_true(json_object_get(v, "scaled")) || shown >= 3)
            continue;
        kc_sb_appendf(sb, "%s`%s` to element %lld", shown++ ? ", " : ", ", kc_json_str(v, "name"),
                      (long long)json_integer_value(json_object_get(v, "max_offset")));
    }
    json_t *ints = json_object_get(plan, "ints");
    const char *k;
    json_object_foreach(ints, k, v)
        kc_sb_appendf(sb, ", `%s` = %lld", k, (long long)json_integer_value(v));
    double need = (double)json_integer_value(json_object_get(rp, "bytes_needed"));
    if (need > 0)
        kc_sb_appendf(sb, "; %.1f GiB%s%s", need / (1024.0 * 1024 * 1024), *kc_json_str(rp, "gpu") ? " on " : "",
                      kc_json_str(rp, "gpu"));
}

/* An int32 offset finding judged by the replay of its launch past 2^31
 * elements (kcheck_replay.py), when there is one: returns false when
 * nothing was replayed. */
static bool judge_replay(const rec_run *run, json_int_t id, const char *launch, json_int_t max_numel, kc_strbuf *sb,
                         const char **status, json_t *ev)
{
    json_t *rp = replayed_of(run, id);
    if (!rp)
        return false;
    json_object_set(ev, "replay", rp);
    json_object_set_new(ev, "inputs", json_string("recorded launch, scaled past 2^31 elements"));
    const char *step = kc_json_str(rp, "step");
    kc_sb_appendf(sb, "the command's launches stay below 2^31 elements (%s; %lld at most); ", launch,
                  (long long)max_numel);
    kc_strbuf rg = {0};
    size_t gi;
    json_t *gv;
    json_array_foreach(json_object_get(rp, "recorded_grid"), gi, gv)
        kc_sb_appendf(&rg, "%s%lld", gi ? ", " : "", (long long)json_integer_value(gv));
    *status = "inconclusive";
    if (!strcmp(step, "skipped")) {
        kc_sb_appendf(sb, "a replay of its launch with grid (%s) past 2^31 was not run: %s", kc_sb_str(&rg),
                      kc_json_str(rp, "skipped"));
        kc_sb_free(&rg);
        return true;
    }
    kc_strbuf at = {0};
    replay_text(rp, &at);
    kc_sb_appendf(sb, "kcheck replayed its launch with grid (%s) at %s, inputs %s: ", kc_sb_str(&rg),
                  kc_sb_str(&at), kc_json_str(rp, "inputs"));
    kc_sb_free(&rg);
    kc_sb_free(&at);
    json_t *inc = json_object_get(rp, "fixed_inconsistent");
    const char *oerr = kc_json_str(rp, "original_error");
    if (!strcmp(step, "failed")) {
        kc_sb_appendf(sb, "the replay failed: %s", kc_json_str(rp, "replay_error"));
    } else if (json_is_false(json_object_get(rp, "fixed_ok")) ||
               (strcmp(step, "done") != 0 && !json_is_true(json_object_get(rp, "fixed_ok")))) {
        kc_sb_appendf(sb, "it ended while %s, before the kernel with the fix-it had run to completion%s%s", step,
                      *kc_json_str(rp, "_log_tail") ? "; it printed: " : "", kc_json_str(rp, "_log_tail"));
    } else if (inc) {
        kc_sb_appendf(sb, "the kernel with the fix-it wrote copy %lld of `%s` differently from copy 0 of the same "
                          "inputs, so its programs are not independent rows and kcheck's scaling does not apply",
                      (long long)json_integer_value(json_object_get(inc, "copy")), kc_json_str(inc, "tensor"));
    } else if (!json_is_true(json_object_get(rp, "fixed_consistent"))) {
        kc_sb_appendf(sb, "the kernel with the fix-it wrote no tensor that follows the rows, so nothing checks the "
                          "scaling");
    } else if (!strcmp(step, "running the kernel as written")) {
        *status = "confirmed";
        kc_sb_appendf(sb, "the kernel with the fix-it ran and wrote every copy of every row alike; the kernel as "
                          "written then killed the process%s%s",
                      *kc_json_str(rp, "_log_tail") ? ": " : "", kc_json_str(rp, "_log_tail"));
    } else if (strcmp(step, "done") != 0) {
        kc_sb_appendf(sb, "it ended while %s", step);
    } else if (json_is_false(json_object_get(rp, "original_ok"))) {
        bool cuda = strstr(oerr, "illegal") || strstr(oerr, "CUDA") || strstr(oerr, "cuda");
        *status = cuda ? "confirmed" : "inconclusive";
        kc_sb_appendf(sb, "the kernel with the fix-it ran and wrote every copy of every row alike; the kernel as "
                          "written failed: %s",
                      oerr);
    } else if (json_is_true(json_object_get(rp, "wrote_outside"))) {
        *status = "confirmed";
        kc_sb_appendf(sb, "the kernel as written changed GPU memory outside its arguments (the fixed kernel's "
                          "inputs and outputs); with the fix-it every copy of every row came out alike");
    } else if (json_array_size(json_object_get(rp, "differences"))) {
        json_t *df = json_array_get(json_object_get(rp, "differences"), 0);
        *status = "confirmed";
        kc_sb_appendf(sb, "`%s` as written differs bit for bit from the fixed kernel's in %lld of %lld elements, "
                          "from index %lld of its first dimension (element %lld) on, while with the fix-it every "
                          "copy of every row came out alike",
                      kc_json_str(df, "tensor"), (long long)json_integer_value(json_object_get(df, "elements_differ")),
                      (long long)json_integer_value(json_object_get(df, "numel")),
                      (long long)json_integer_value(json_object_get(df, "first_index")),
                      (long long)json_integer_value(json_object_get(df, "first_offset")));
    } else {
        *status = "not-reproduced";
        kc_sb_appendf(sb, "the outputs as written and with the fix-it are identical bit for bit");
    }
    return true;
}

static void judge_same(const rec_item *it, json_t *x, const char *launch, json_int_t max_numel, size_t count,
                       const char *why_no_memcheck, kc_strbuf *sb, const char **status)
{
    kc_verify_kind k = kc_verify_kind_of(it->d);
    if (kc_verify_is_perf(k)) {
        double o = json_number_value(json_object_get(x, "original_ms"));
        double f = json_number_value(json_object_get(x, "fixed_ms"));
        double of = json_number_value(json_object_get(x, "original_first_s"));
        double ff = json_number_value(json_object_get(x, "fixed_first_s"));
        double ratio = f > 0 ? o / f : 0, cratio = ff > 0 ? of / ff : 0;
        /* the thresholds of bound experiments (docs/verify.md) */
        bool slow = ratio >= 1.2 || (k == KC_VERIFY_PERF_COMPILE && cratio >= 2 && of > 1);
        *status = slow ? "confirmed" : "not-reproduced";
        kc_sb_appendf(sb, "on the command's own launch (%s): as written, the first launch (compile included) takes "
                          "%.2f s and a launch then %.3f ms; with the fix-it %.2f s and %.3f ms (compiles %.1fx, runs "
                          "%.2fx faster); outputs identical",
                      launch, of, o, ff, f, cratio, ratio);
        return;
    }
    if (k == KC_VERIFY_OVERFLOW && max_numel < ((json_int_t)1 << 31)) {
        *status = "inconclusive";
        kc_sb_appendf(sb, "the command's launches stay below 2^31 elements (%s; %lld elements at most), where an int32 "
                          "offset cannot wrap: outputs identical with and without the fix-it; run a command with "
                          "larger inputs",
                      launch, (long long)max_numel);
        return;
    }
    if (k == KC_VERIFY_MEMORY) {
        *status = "inconclusive";
        kc_sb_appendf(sb, "outputs identical with and without the fix-it on the command's launch (%s): an access out "
                          "of bounds need not change an output, and compute-sanitizer memcheck did not run (%s)",
                      launch, why_no_memcheck ? why_no_memcheck : "not asked for");
        return;
    }
    *status = "not-reproduced";
    kc_sb_appendf(sb, "outputs identical with and without the fix-it on %zu of the command's launch%s (%s)", count,
                  count == 1 ? "" : "es", launch);
}

/* The verdict of compute-sanitizer's run of the command, when it decides
 * one: a report at the finding's line confirms it; none, for a memory
 * finding, is not-reproduced. */
static bool judge_by_sanitizer(const rec_item *it, const rec_run *run, json_t *x, const char *launch,
                               json_int_t max_numel, kc_strbuf *sb, const char **status, json_t *ev)
{
    kc_verify_kind k = kc_verify_kind_of(it->d);
    /* the tools that judge the finding: memcheck; racecheck and synccheck */
    int first = k == KC_VERIFY_MEMORY || k == KC_VERIFY_OVERFLOW ? 0 : k == KC_VERIFY_RACE ? 1 : -1;
    int last = first == 1 ? 2 : first;
    if (first < 0)
        return false;
    int t = -1;
    size_t n = 0, elsewhere = 0;
    kc_strbuf ran = {0};
    const kc_sanitizer_report *r = NULL;
    const kc_sanitizer_where *w = NULL;
    for (int u = first; u <= last; u++) {
        if (!run->tool_ran[u])
            continue;
        if (!run->tool_cut[u]) {
            kc_sb_appendf(&ran, "%s%s", ran.len ? " and " : "", tools[u]);
            elsewhere += run->reports[u].len;
        }
        if (t < 0 || !n) {
            t = u;
            n = kc_sanitizer_at(&run->reports[u], it->r->path, it->d, &r, &w);
        }
    }
    if (t < 0) {
        kc_sb_free(&ran);
        return false;
    }
    json_object_set_new(ev, "sanitizer", json_pack("{s:s,s:I,s:I}", "tool", tools[t], "reports_at_line",
                                                   (json_int_t)n, "reports", (json_int_t)elsewhere));
    if (n) {
        kc_sb_free(&ran);
        *status = "confirmed";
        kc_sb_appendf(sb, "compute-sanitizer %s, on the command: \"%s\" at %s:%u%s%s%s%s (%zu report%s at this line)",
                      tools[t], r->what, kc_base_name(w->file), w->line, w->function ? " in " : "",
                      w->function ? w->function : "", r->who ? ", " : "", r->who ? r->who : "", n, n == 1 ? "" : "s");
        /* an int32 offset wraps only past 2^31 elements: below that, a
         * report at its line is another fault there (an index out of
         * bounds), and where kcheck did not see the sizes it cannot tell */
        if (k == KC_VERIFY_OVERFLOW && max_numel < ((json_int_t)1 << 31)) {
            *status = "inconclusive";
            if (max_numel >= 0)
                kc_sb_appendf(sb, "; but the launches stay below 2^31 elements (%lld at most), where no int32 offset "
                                  "wraps: the report is another fault at this line, not this one",
                              (long long)max_numel);
            else
                kc_sb_append(sb, "; kcheck did not see the launch's sizes, so it cannot tell an int32 offset that "
                                 "wrapped from an index out of bounds");
        }
        if (launch)
            kc_sb_appendf(sb, "; the launch: %s", launch);
        return true;
    }
    bool triton = in_triton(it->r, it->d);
    if (!ran.len || k == KC_VERIFY_OVERFLOW || (triton && !x) ||
        (x && (json_object_get(x, "stray_write") || json_is_true(json_object_get(x, "wrote_outside")) ||
               json_is_false(json_object_get(x, "outputs_equal"))))) {
        /* the recorder's copies say more at these sizes; a kernel not
         * launched makes the silence say nothing; the copies showed more */
        kc_sb_free(&ran);
        return false;
    }
    *status = "not-reproduced";
    kc_sb_appendf(sb, "compute-sanitizer %s reported nothing at this line while the command ran (%zu report%s "
                      "elsewhere)%s",
                  kc_sb_str(&ran), elsewhere, elsewhere == 1 ? "" : "s",
                  triton ? "" : "; kcheck does not watch CUDA launches: if the command never launched the kernel, "
                                "this says nothing");
    for (int u = first; u <= last; u++)
        if (run->tool_ran[u] && run->tool_cut[u])
            kc_sb_appendf(sb, "; %s: %s", tools[u], run->tool_why[u]);
    if (launch)
        kc_sb_appendf(sb, "; the launch: %s", launch);
    kc_sb_free(&ran);
    return true;
}

/* How many launches of the finding's kernel from its file the recorder
 * counted, over all the command's processes. */
static json_int_t launches_of(const rec_run *run, const rec_item *it)
{
    char *file = absolute(it->r->path);
    char *key = kc_xasprintf("%s::%s", file, it->d->kernel);
    json_int_t n = 0;
    size_t i;
    json_t *doc;
    json_array_foreach(run->docs, i, doc)
        n += json_integer_value(json_object_get(json_object_get(doc, "launches"), key));
    free(key);
    free(file);
    return n;
}

/* Finding `id` from what the recorder wrote. */
static void judge_item(const rec_item *it, const rec_item *lead, const rec_item_vec *items, const rec_run *run)
{
    json_int_t id = lead->group;
    kc_strbuf sb = {0};
    const char *status = "inconclusive";
    json_t *doc = NULL;
    size_t count = 0;
    json_t *x = run->why_none ? NULL : best_exp(run->docs, id, &count, &doc);
    json_t *ev = json_object();
    json_object_set_new(ev, "inputs", json_string("recorded launch"));
    json_object_set_new(ev, "command", json_string(run->cmd));
    if (run->have_status)
        json_object_set_new(ev, "exit_status", json_integer(run->status));
    kc_strbuf st = {0};
    status_text(run, &st);
    json_object_set_new(ev, "compared", json_string(kc_verify_is_perf(kc_verify_kind_of(it->d))
                                                        ? "run time of the kernel as written and with the fix-it"
                                                        : "outputs of the kernel as written and with the fix-it, "
                                                          "on copies of the same inputs"));
    const char *by_ncu = NULL;
    if (!run->why_none && kc_verify_metric_of(it->d) != KC_METRIC_NONE) {
        json_t *nev = json_object();
        by_ncu = kc_ncu_judge(run->ncu, run->ncu_why, it->r, it->d, in_triton(it->r, it->d), &sb, nev);
        if (by_ncu && !strcmp(by_ncu, "inconclusive") && x && strcmp(kc_json_str(x, "step"), "skipped") != 0) {
            /* the recorder's timing of the launch may say more */
            by_ncu = NULL;
            kc_sb_free(&sb);
        }
        if (by_ncu) {
            status = by_ncu;
            json_object_update(ev, nev);
        }
        json_decref(nev);
    }
    if (by_ncu) {
        /* Nsight Compute's counters at the finding's line */
    } else if (run->why_none) {
        kc_sb_appendf(&sb, "%s", run->why_none);
    } else if (!x && judge_by_sanitizer(it, run, NULL, NULL, -1, &sb, &status, ev)) {
        /* a CUDA finding (the recorder watches Triton only), or a report
         * from a kernel the recorder did not see launched */
    } else if (!x && !in_triton(it->r, it->d)) {
        kc_verify_kind k = kc_verify_kind_of(it->d);
        int t = k == KC_VERIFY_RACE ? 1 : 0;
        kc_sb_appendf(&sb, "kcheck does not record CUDA launches, and compute-sanitizer %s did not run (%s)", tools[t],
                      run->tool_why[t] ? run->tool_why[t] : "no log");
    } else if (!x && launches_of(run, it) > 0) {
        kc_sb_appendf(&sb, "launched %lld times by the command, but each launch served the experiment of another "
                           "finding of this kernel (one experiment a launch); a command that launches it more often "
                           "judges this one too",
                      (long long)launches_of(run, it));
    } else if (!x) {
        size_t nproc = json_array_size(run->docs);
        kc_sb_appendf(&sb, "not executed by the command: no launch of `%s` from this file was seen (%zu Python "
                           "process%s watched; %s)%s",
                      it->d->kernel, nproc, nproc == 1 ? "" : "es", kc_sb_str(&st),
                      nproc ? "" : "; the recorder was never loaded: a command that sets PYTHONPATH must keep "
                                   "$PYTHONPATH in it");
    } else {
        kc_strbuf launch = {0};
        json_int_t max_numel = 0;
        launch_text(x, &launch, &max_numel);
        const char *step = kc_json_str(x, "step");
        json_object_set(ev, "launch", x);
        json_object_set(ev, "env", json_object_get(doc, "env"));
        if (judge_by_sanitizer(it, run, x, kc_sb_str(&launch), max_numel, &sb, &status, ev)) {
            /* compute-sanitizer's report (or its silence) at this line */
        } else if (!strcmp(step, "skipped")) {
            kc_sb_appendf(&sb, "launched by the command (%s), but %s", kc_sb_str(&launch), kc_json_str(x, "skipped"));
        } else if (!strcmp(step, "recorder failed")) {
            kc_sb_appendf(&sb, "launched by the command (%s), but kcheck's recorder failed: %s", kc_sb_str(&launch),
                          kc_json_str(x, "recorder_error"));
        } else if (json_is_false(json_object_get(x, "fixed_ok"))) {
            kc_sb_appendf(&sb, "the kernel with the fix-it failed on the command's launch (%s): %s", kc_sb_str(&launch),
                          kc_json_str(x, "fixed_error"));
        } else if (!strcmp(step, "running the user's launch") && json_is_true(json_object_get(x, "fixed_ok"))) {
            /* The process died in the user's own launch, after the fixed
             * kernel had run on the same inputs. */
            status = "confirmed";
            kc_sb_appendf(&sb, "the command's own launch (%s) killed the process (%s%s%s), after the kernel with "
                               "the fix-it had run to completion on the same inputs",
                          kc_sb_str(&launch), kc_sb_str(&st), run->log_tail ? "; it printed: " : "",
                          run->log_tail ? run->log_tail : "");
        } else if (strcmp(step, "done") != 0) {
            kc_sb_appendf(&sb, "the command ended while kcheck was %s (%s; %s)", step, kc_sb_str(&launch),
                          kc_sb_str(&st));
        } else if (json_is_false(json_object_get(x, "original_ok"))) {
            status = kc_verify_kind_of(it->d) == KC_VERIFY_COMPILE_ERROR ? "confirmed" : "inconclusive";
            kc_sb_appendf(&sb, "the command's launch (%s) failed as written and ran with the fix-it: %s",
                          kc_sb_str(&launch), kc_json_str(x, "original_error"));
        } else if (json_is_true(json_object_get(x, "wrote_outside"))) {
            status = "confirmed";
            kc_sb_appendf(&sb, "the command's own launch (%s) writes out of bounds: it changed GPU memory outside its "
                               "arguments (kcheck's copies of them, which no kernel was given), while the kernel with "
                               "the fix-it, on the same inputs, wrote only %s",
                          kc_sb_str(&launch), json_array_size(json_object_get(x, "written_fixed")) ? "its outputs"
                                                                                                 : "nothing");
        } else if (json_object_get(x, "stray_write")) {
            json_t *sw = json_object_get(x, "stray_write"), *df = json_object_get(x, "difference");
            status = "confirmed";
            kc_sb_appendf(&sb, "the command's own launch (%s) writes out of bounds: `%s`, which the kernel with the "
                               "fix-it leaves unchanged, changed in %lld of %lld elements",
                          kc_sb_str(&launch), kc_json_str(sw, "tensor"),
                          (long long)json_integer_value(json_object_get(sw, "elements_differ")),
                          (long long)json_integer_value(json_object_get(sw, "numel")));
            if (df)
                kc_sb_appendf(&sb, "; `%s` differs from the fixed kernel's in %lld elements", kc_json_str(df, "tensor"),
                              (long long)json_integer_value(json_object_get(df, "elements_differ")));
        } else if (json_is_false(json_object_get(x, "outputs_equal"))) {
            judge_difference(it, x, kc_sb_str(&launch), &sb, &status);
        } else {
            if (kc_verify_kind_of(it->d) != KC_VERIFY_OVERFLOW || max_numel >= ((json_int_t)1 << 31) ||
                !judge_replay(run, id, kc_sb_str(&launch), max_numel, &sb, &status, ev))
                judge_same(it, x, kc_sb_str(&launch), max_numel, count, run->tool_why[0], &sb, &status);
        }
        kc_sb_free(&launch);
    }
    /* one line: the command's output may have several */
    kc_sb_free(&st);
    /* a group: which fix-its the fixed kernel has */
    size_t members = 0;
    for (uint32_t i = 0; i < items->len; i++)
        members += items->data[i].group == lead->group;
    if (members > 1 && x) {
        kc_sb_appendf(&sb, " (the fixed kernel has the fix-its of this kernel's %zu findings applied together: lines",
                      members);
        json_t *lines = json_array();
        for (uint32_t i = 0, k = 0; i < items->len; i++)
            if (items->data[i].group == lead->group) {
                kc_sb_appendf(&sb, "%s %u", k++ ? "," : "", items->data[i].d->span.line);
                json_array_append_new(lines, json_integer(items->data[i].d->span.line));
            }
        kc_sb_appendf(&sb, ")");
        json_object_set_new(ev, "fixed_with_lines", lines);
    }
    char *line = kc_sb_take(&sb);
    for (char *p = line; *p; p++)
        if (*p == '\n')
            *p = ' ';
    kc_verify_set_verdict(it->d, status, line, ev);
    free(line);
    json_decref(ev);
}

void kc_verify_run_command(kc_verify_env *e, kc_file_result *files, size_t n)
{
    if (!e->o->verify_run_cmd)
        return;
    rec_item_vec items = {0};
    collect(e, files, n, &items);
    rec_run run = {.cmd = e->o->verify_run_cmd};
    if (!items.len) {
        fprintf(e->err,
                "kcheck verify: --run: no finding it judges (in a Triton kernel, or a memory or race finding in a "
                "CUDA kernel, without a binding); `%s` not run\n",
                run.cmd);
        kc_vec_free(&items);
        return;
    }
    char *plan = e->workdir ? kc_xasprintf("%s/record-plan.json", e->workdir) : NULL;
    char *why = NULL;
    if (!plan)
        run.why_none = e->workdir_why ? e->workdir_why : "no work directory";
    else if (!write_plan(e, &items, plan) || !write_bundle(e, run.cmd, &items))
        run.why_none = "the recorder, its plan or the command could not be written into the work directory";
    else if (e->o->verify_results_dir)
        read_back(e->o->verify_results_dir, &run);
    else if (e->o->verify_export_dir) {
        why = kc_xasprintf("not run here: exported to %s (from the project's directory on the GPU machine: sh "
                           "%s/run-command.sh RESULTS, then --results RESULTS)",
                           e->o->verify_export_dir, e->o->verify_export_dir);
        run.why_none = why;
    } else if (e->o->verify_no_run)
        run.why_none = "not run (--no-run): the recorder, its plan and the fixed copies were written";
    else
        run_here(e, &run);
    for (uint32_t i = 0; i < items.len; i++)
        judge_item(&items.data[i], leader_of(&items, items.data[i].group), &items, &run);
    for (uint32_t i = 0; i < items.len; i++)
        free(items.data[i].fixed);
    json_decref(run.docs);
    json_decref(run.replayed);
    json_decref(run.ncu);
    free(run.ncu_why);
    free(run.log_tail);
    for (int t = 0; t < KC_TOOLS; t++) {
        kc_sanitizer_reports_free(&run.reports[t]);
        free(run.tool_why[t]);
    }
    free(plan);
    free(why);
    kc_vec_free(&items);
}
