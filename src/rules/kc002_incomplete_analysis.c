/* KC002 incomplete-analysis — kcheck's own note: what the front end could not
 * analyse in a file (code that did not parse, names a missing header would
 * have declared, kernels the parse lost), so that "no findings" is never
 * read as "checked in full" when it was not. One note per file, from the
 * model's gaps (kc_model.h). */
#include "kc_rule.h"
#include "rule_util.h"

#include <stdio.h>
#include <string.h>

/* "unknown type `c10::Half`", "did not parse: expected ';'". */
static void describe(kc_strbuf *sb, const kc_gap *g)
{
    switch (g->kind) {
    case KC_GAP_TYPE:
    case KC_GAP_NAME:
    case KC_GAP_CALLEE: kc_sb_appendf(sb, "%s `%s`", kc_gap_kind_phrase(g->kind), g->what ? g->what : "?"); break;
    case KC_GAP_UNSEEN:
        if (g->cause_kind == KC_GAP_OTHER && g->cause_what)
            kc_sb_appendf(sb, "not parsed: %s", g->cause_what);
        else if (g->cause_kind == KC_GAP_SYNTAX && g->cause_what)
            kc_sb_appendf(sb, "lost by the parse: its declaration did not parse (%s)", g->cause_what);
        else if (g->cause_kind && g->cause_what)
            kc_sb_appendf(sb, "lost by the parse: its declaration names %s `%s`", kc_gap_kind_phrase(g->cause_kind), g->cause_what);
        else
            kc_sb_append(sb, "lost by the parse, after an error above it");
        break;
    case KC_GAP_UNUSED: kc_sb_append(sb, kc_gap_kind_phrase(g->kind)); break;
    case KC_GAP_UNFOLLOWED:
        kc_sb_appendf(sb, "what `%s` accesses (%s)", g->what ? g->what : "?", kc_gap_kind_phrase(g->kind));
        break;
    case KC_GAP_SPECIALIZATIONS:
        kc_sb_appendf(sb, "%u of its specializations one by one (the template itself and %u of them were analysed)",
                      g->lines, KC_MAX_SPECIALIZATIONS);
        break;
    default: kc_sb_appendf(sb, "%s (%s)", kc_gap_kind_phrase(g->kind), g->what ? g->what : "?"); break;
    }
}

static bool dropped(const kc_gap *g) { return g->dropped || g->kind == KC_GAP_UNSEEN || g->kind == KC_GAP_UNUSED; }

static bool same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* One clause of the message per kernel (and one for code outside kernels),
 * in the order of their first gap: "`fill` not analysed (line 10 did not
 * parse: expected expression)", "`scale` analysed without: unknown type
 * `my_half`, unknown name `MY_ZERO`". */
static void summarize(const kc_model *m, kc_strbuf *sb)
{
    enum { MAX_CLAUSES = 3, MAX_NAMES = 2 };
    uint32_t clauses = 0, groups = 0;
    for (uint32_t i = 0; i < m->gaps.len; i++) {
        const kc_gap *g = &m->gaps.data[i];
        bool first_of_group = true;
        for (uint32_t j = 0; j < i && first_of_group; j++)
            first_of_group = !same(m->gaps.data[j].kernel, g->kernel);
        if (!first_of_group)
            continue;
        groups++;
        if (clauses == MAX_CLAUSES)
            continue;
        kc_sb_append(sb, clauses++ ? "; " : "");
        const kc_gap *lost = NULL;
        for (uint32_t j = i; j < m->gaps.len && !lost; j++)
            if (same(m->gaps.data[j].kernel, g->kernel) && dropped(&m->gaps.data[j]))
                lost = &m->gaps.data[j];
        if (lost && g->kernel) {
            kc_sb_appendf(sb, "`%s` not analysed (line %u: ", g->kernel, lost->span.line);
            describe(sb, lost);
            kc_sb_append(sb, ")");
            continue;
        }
        if (g->kernel)
            kc_sb_appendf(sb, "`%s` analysed without ", g->kernel);
        else
            kc_sb_append(sb, "outside kernels: ");
        uint32_t names = 0, more = 0;
        for (uint32_t j = i; j < m->gaps.len; j++) {
            const kc_gap *h = &m->gaps.data[j];
            if (!same(h->kernel, g->kernel))
                continue;
            if (names == MAX_NAMES) {
                more++;
                continue;
            }
            kc_sb_append(sb, names++ ? ", " : "");
            if (h->kind == KC_GAP_SYNTAX || h->kind == KC_GAP_OTHER || h->kind == KC_GAP_STRING)
                kc_sb_appendf(sb, "line %u (%s)", h->span.line, h->what ? h->what : "?");
            else
                describe(sb, h);
        }
        if (more)
            kc_sb_appendf(sb, " and %u more", more);
    }
    if (groups > clauses)
        kc_sb_appendf(sb, "; %u more kernel%s", groups - clauses, groups - clauses == 1 ? "" : "s");
}

static void check_model(const kc_model *m, kc_rule_ctx *ctx)
{
    if (!m->gaps.len)
        return;
    const kc_gap *first = &m->gaps.data[0];
    bool missing = false; /* anything but kernels nothing uses */
    bool headers = false; /* what a header or the build's macros could supply */
    for (uint32_t i = 0; i < m->gaps.len; i++) {
        missing |= m->gaps.data[i].kind != KC_GAP_UNUSED;
        headers |= m->gaps.data[i].kind != KC_GAP_UNUSED && m->gaps.data[i].kind != KC_GAP_UNFOLLOWED;
    }
    kc_strbuf sb = {0};
    kc_sb_append(&sb, missing ? "analysis incomplete: " : "left out of the analysis: ");
    summarize(m, &sb);
    if (missing)
        kc_sb_append(&sb, "; findings that depend on what is missing may be missing too");
    const kc_kernel *k = NULL;
    for (uint32_t i = 0; first->kernel && i < m->kernels.len; i++)
        if (strcmp(m->kernels.data[i]->name, first->kernel) == 0)
            k = m->kernels.data[i];
    kc_diag *d = kc_report(ctx, k, first->span, "%s", kc_sb_str(&sb));
    if (!k && first->kernel)
        d->kernel = kc_xstrdup(first->kernel); /* a kernel that was left out */
    enum { MAX_NOTES = 8 };
    for (uint32_t i = 0; i < m->gaps.len && i < MAX_NOTES; i++) {
        const kc_gap *g = &m->gaps.data[i];
        kc_sb_len_reset(&sb);
        kc_sb_appendf(&sb, "line %u: ", g->span.line);
        if (g->kind == KC_GAP_UNSEEN || g->kind == KC_GAP_UNUSED)
            kc_sb_appendf(&sb, "`%s` not analysed: ", g->what ? g->what : "?");
        else if (g->kind == KC_GAP_SPECIALIZATIONS)
            kc_sb_appendf(&sb, "`%s` analysed without ", g->kernel ? g->kernel : "?");
        describe(&sb, g);
        if (g->kind == KC_GAP_UNSEEN || g->kind == KC_GAP_UNUSED || g->kind == KC_GAP_SPECIALIZATIONS) {
            /* the kernel's name and why are said above */
        } else if (g->kernel && g->dropped)
            kc_sb_appendf(&sb, " in `%s`: the kernel is not analysed", g->kernel);
        else if (g->kernel)
            kc_sb_appendf(&sb, " in `%s` (%u line%s of it)", g->kernel, g->lines, g->lines == 1 ? "" : "s");
        else
            kc_sb_appendf(&sb, " outside kernels (%u line%s)", g->lines, g->lines == 1 ? "" : "s");
        if (g->kind == KC_GAP_CALLEE)
            kc_sb_append(&sb, "; not looked into: presumed that it may synchronize the block and access "
                              "any memory, so races and accesses across it are not judged");
        if (g->kind == KC_GAP_UNFOLLOWED)
            kc_sb_append(&sb, "; it is given a pointer to the kernel's memory, and what it reads and writes "
                              "there is not among the accesses the rules judge (coalescing, bounds, 32-bit offsets)");
        kc_diag_note(d, "%s", kc_sb_str(&sb));
    }
    if (m->gaps.len > MAX_NOTES)
        kc_diag_note(d, "%u more not listed", m->gaps.len - MAX_NOTES);
    /* launches read from the text where the parse lost them (cuda_recover.c) */
    uint32_t nrec = 0, first_line = 0;
    const char *first_kernel = NULL;
    for (uint32_t i = 0; i < m->launches.len; i++)
        if (m->launches.data[i].recovered && nrec++ == 0) {
            first_kernel = m->launches.data[i].kernel;
            first_line = m->launches.data[i].span.line;
        }
    if (nrec)
        kc_diag_note(d, "the launch of `%s` on line %u%s is in code that did not parse: kcheck read its kernel, grid "
                     "and arguments from the text, and does not judge its error check (KC601)",
                     first_kernel ? first_kernel : "?", first_line,
                     nrec > 1 ? kc_arena_printf(kc_rule_arena(ctx), " and %u more", nrec - 1) : "");
    if (m->lang == KC_LANG_CUDA && headers)
        kc_diag_note(d, "fix: give kcheck the include directories and macros of the build (`-p BUILD_DIR` with "
                        "compile_commands.json, `-- -I DIR -D NAME=VALUE`, or `cuda.args` in .kcheck.yaml); "
                        "a header that only compiles inside its includer is parsed on its own (docs/rules/KC002-incomplete-analysis.md)");
    kc_sb_free(&sb);
}

const kc_rule kc002_incomplete_analysis = {
    .id = "KC002",
    .slug = "incomplete-analysis",
    .summary = "Part of the file could not be analysed (code that did not parse, names from a header kcheck "
               "did not find): findings that depend on it may be missing.",
    .severity = KC_SEV_NOTE,
    .langs = KC_LANG_BIT_CUDA | KC_LANG_BIT_TRITON, /* Triton: statements the pinned grammar rejects */
    .doc = "## What it does\n"
           "Says what kcheck could not analyse in a file, once per file: kernels that\n"
           "the parse lost or that contain code that did not parse (they are left out),\n"
           "kernels in a branch of `#if __CUDA_ARCH__ ...` that the architecture parsed\n"
           "for (`--cuda-arch`, default sm_75) does not take, and lines that use a\n"
           "type, a macro, a constant or a function that no header kcheck read\n"
           "declares (they are analysed without it). An unknown function\n"
           "is presumed to do anything: synchronize the block, read and write any\n"
           "memory; rules whose conclusion would depend on it stay quiet. In Triton\n"
           "files: statements the pinned Python grammar does not parse though Python\n"
           "does (`return a, *b`); the rest of the file is analysed.\n"
           "\n"
           "It also names the calls of the user's functions that the analysis does\n"
           "not follow and that are given a pointer to the kernel's memory: a\n"
           "function template called with arguments that depend on the kernel's own\n"
           "template parameters (`copy_vector<T, N>(dst, src + offset)` where only\n"
           "specializations have bodies), a member function, a function nested too\n"
           "deep to inline. What such a call reads and writes through the pointer is\n"
           "not among the accesses that KC101, KC303 and KC304 judge, so a kernel\n"
           "whose global memory is all moved by such calls could otherwise read as\n"
           "\"no findings\".\n"
           "\n"
           "It also names the kernel templates of a `.cu` file that it leaves out\n"
           "because nothing in the file uses their name besides their definition (no\n"
           "launch, no explicit instantiation, no macro that names them): no other\n"
           "file can instantiate them, so nvcc compiles no code for them, and their\n"
           "findings would be about code that never runs (a kernel whose only launch\n"
           "was commented out).\n"
           "\n"
           "A template is analysed as written and once per specialization the file\n"
           "instantiates, with its template arguments as constants, up to 128 of them:\n"
           "past that (a dispatch over ten flags makes thousands) the template itself\n"
           "stands for the rest, and the note counts the specializations not analysed\n"
           "one by one. Where every launch of the file names a specialization that was\n"
           "analysed (`raster<8, 16>`, `raster<16, 16>`), the template as written is\n"
           "not judged at all: the specializations are what runs, and the template's\n"
           "unknown parameters would only hide their values (a loop of\n"
           "`PIXELS_PER_THREAD` passes that is 2 and 4 in them).\n"
           "\n"
           "The summary line of a run counts the files analysed in part at every\n"
           "severity; the note itself shows with `--severity note`, and JSON and SARIF\n"
           "list it always (`incomplete`, and SARIF's tool notifications).\n"
           "\n"
           "## Why is this bad?\n"
           "\"No findings\" on a file whose kernels were not analysed is not a clean\n"
           "bill of health. Most gaps come from headers kcheck was not told about.\n"
           "\n"
           "## Example\n"
           "```cuda\n"
           "#include \"my_types.h\"   // not on the include path given to kcheck\n"
           "__global__ void k(my_half *out) { out[threadIdx.x] = MY_ZERO; }\n"
           "```\n"
           "\n"
           "## Use instead\n"
           "```sh\n"
           "kcheck -p build/ src/      # the flags of compile_commands.json\n"
           "kcheck src/k.cu -- -I include -DMY_ZERO=0\n"
           "```\n"
           "\n"
           "## Fix\n"
           "Give kcheck the build's include directories and macros. Without them,\n"
           "a project header that is not found beside the including file is looked\n"
           "up in the file's 8 nearest ancestors and their `include/` directories,\n"
           "up to the repository's root: a quoted one by any name, one in angle\n"
           "brackets when it names a path (`<cudf/types.hpp>` in `cpp/include`) that\n"
           "the system's, the toolkit's and clang's headers do not have (CUB,\n"
           "Thrust and libcu++ stay the toolkit's). A header that\n"
           "needs its includer's context (a `.cuh` that uses types declared before it\n"
           "is included) is parsed on its own: what it lacks is reported here.\n"
           "\n"
           "## References\n"
           "- clangd keeps going after errors in the same way; its diagnostics say what did not parse.\n",
    .options = NULL,
    .check = NULL,
    .verify = KC_VERIFY_NONE,
    .check_model = check_model,
};
