/* Inline suppressions and kcheck's own diagnostics (KC000, KC001). */
#include "kc_suppress.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- parsing suppression comments -------------------------------------- */

typedef struct supp_name {
    const kc_rule *rule;
    size_t index; /* in the registry */
    uint32_t col, end_col;
    bool used;
} supp_name;

typedef struct supp {
    uint32_t line;      /* of the comment */
    uint32_t next_line; /* the line it also covers (standalone comments), 0 if none */
    uint32_t col, end_col; /* the directive, for KC001 */
    bool file;          /* ignore-file */
    bool all;           /* no list: every rule */
    bool used;
    KC_VEC(supp_name) names;
} supp;

typedef KC_VEC(supp) supp_list;

typedef struct parse_ctx {
    const kc_options *o;
    kc_diag_list *out; /* KC000 diagnostics */
    supp_list *supps;
    bool *standalone;  /* per line (1-based): the line holds only a kcheck: comment */
} parse_ctx;

static void invalid(parse_ctx *c, uint32_t line, uint32_t col, uint32_t end_col, const char *fmt, ...)
    KC_PRINTF(5, 6);

static void invalid(parse_ctx *c, uint32_t line, uint32_t col, uint32_t end_col, const char *fmt, ...)
{
    size_t idx = kc_rules_index(&kc000_invalid_suppression);
    if (!kc_rules_enabled(c->o, idx))
        return;
    kc_diag *d = kc_diag_list_add(c->out);
    d->rule_id = kc000_invalid_suppression.id;
    d->rule_slug = kc000_invalid_suppression.slug;
    d->severity = kc000_invalid_suppression.severity;
    d->span = (kc_span){.line = line, .col = col, .end_line = line, .end_col = end_col > col ? end_col : col + 1};
    va_list ap;
    va_start(ap, fmt);
    d->message = kc_xvasprintf(fmt, ap);
    va_end(ap);
}

static bool name_char(char ch) { return isalnum((unsigned char)ch) || ch == '-' || ch == '_'; }

/* Parses the directive after "kcheck:" at text[p] (line `line`, the
 * comment marker at `marker`). */
static void parse_directive(parse_ctx *c, const char *text, size_t len, size_t p, size_t marker, uint32_t line)
{
    while (p < len && (text[p] == ' ' || text[p] == '\t'))
        p++;
    size_t w = p;
    while (p < len && name_char(text[p]))
        p++;
    size_t wl = p - w;
    bool standalone = true;
    for (size_t i = 0; i < marker; i++)
        if (text[i] != ' ' && text[i] != '\t')
            standalone = false;
    if (standalone)
        c->standalone[line] = true;
    if (wl == 6 && strncmp(text + w, "verify", 6) == 0)
        return; /* a verify binding (docs/verify.md) */
    bool is_file = wl == 11 && strncmp(text + w, "ignore-file", 11) == 0;
    if (!is_file && !(wl == 6 && strncmp(text + w, "ignore", 6) == 0)) {
        invalid(c, line, (uint32_t)w + 1, (uint32_t)p + 1,
                "unknown kcheck directive '%.*s' (expected ignore[RULES], ignore-file[RULES] or verify)",
                (int)wl, text + w);
        return;
    }
    supp s;
    memset(&s, 0, sizeof s);
    s.line = line;
    s.file = is_file;
    s.col = (uint32_t)w + 1;
    s.end_col = (uint32_t)p + 1;
    if (p < len && text[p] == '[') {
        size_t close = p + 1;
        while (close < len && text[close] != ']')
            close++;
        if (close >= len) {
            invalid(c, line, (uint32_t)w + 1, (uint32_t)len + 1, "unterminated rule list in 'kcheck: %.*s['",
                    (int)wl, text + w);
            return;
        }
        s.end_col = (uint32_t)close + 2;
        size_t q = p + 1;
        while (q < close) {
            while (q < close && (text[q] == ' ' || text[q] == '\t' || text[q] == ','))
                q++;
            size_t a = q;
            while (q < close && text[q] != ',')
                q++;
            size_t b = q;
            while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t'))
                b--;
            if (b == a)
                continue;
            char *name = kc_xstrndup(text + a, b - a);
            size_t idx = 0;
            const kc_rule *r = kc_rules_find(name, &idx);
            bool bad_chars = false;
            for (size_t k = a; k < b; k++)
                bad_chars |= !name_char(text[k]);
            if (!r || kc_rule_is_own(r)) {
                const kc_rule *own = r;
                if (own)
                    invalid(c, line, (uint32_t)a + 1, (uint32_t)b + 1,
                            "%s %s is kcheck's own diagnostic and cannot be suppressed by a comment "
                            "(use --ignore %s)",
                            own->id, own->slug, own->id);
                else
                    invalid(c, line, (uint32_t)a + 1, (uint32_t)b + 1,
                            "unknown rule '%s' in suppression%s (see kcheck --list-rules)", name,
                            bad_chars ? " (names are separated by commas)" : "");
            } else {
                supp_name sn = {.rule = r, .index = idx, .col = (uint32_t)a + 1, .end_col = (uint32_t)b + 1};
                kc_vec_push(&s.names, sn);
            }
            free(name);
        }
        if (!s.names.len) {
            /* Nothing valid in the list: suppress nothing (an empty list is
             * reported; unknown names already were). */
            bool empty = true;
            for (size_t k = p + 1; k < close; k++)
                if (text[k] != ' ' && text[k] != '\t' && text[k] != ',')
                    empty = false;
            if (empty)
                invalid(c, line, (uint32_t)p + 1, (uint32_t)close + 2,
                        "empty rule list: write 'kcheck: %.*s' to suppress every rule", (int)wl, text + w);
            kc_vec_free(&s.names);
            return;
        }
    } else {
        s.all = true;
    }
    kc_vec_push(c->supps, s);
}

/* Finds `kcheck:` right after comment markers of the language (in a
 * Python file, `#`, and `//` for the CUDA source its strings hold). */
static void scan_line(parse_ctx *c, kc_lang lang, const char *text, size_t len, uint32_t line)
{
    for (size_t i = 0; i < len; i++) {
        size_t m = i, p;
        if (lang == KC_LANG_TRITON && text[i] == '#') {
            p = i + 1;
        } else if (lang == KC_LANG_TRITON) {
            if (text[i] != '/' || i + 1 >= len || text[i + 1] != '/')
                continue;
            p = i + 2;
        } else {
            if (text[i] != '/' || i + 1 >= len || (text[i + 1] != '/' && text[i + 1] != '*'))
                continue;
            p = i + 2;
            while (p < len && (text[p] == '/' || text[p] == '*' || text[p] == '!'))
                p++;
        }
        while (p < len && (text[p] == ' ' || text[p] == '\t'))
            p++;
        if (len - p >= 7 && strncmp(text + p, "kcheck:", 7) == 0) {
            parse_directive(c, text, len, p + 7, m, line);
            i = p + 6;
        }
    }
}

static bool name_matches(supp *s, const kc_diag *d)
{
    if (s->all) {
        s->used = true;
        return true;
    }
    bool hit = false;
    for (uint32_t i = 0; i < s->names.len; i++)
        if (strcmp(s->names.data[i].rule->id, d->rule_id) == 0) {
            s->names.data[i].used = true;
            s->used = true;
            hit = true;
        }
    return hit;
}

static void unused(const kc_options *o, kc_diag_list *out, uint32_t line, uint32_t col, uint32_t end_col,
                   const char *fmt, ...) KC_PRINTF(6, 7);

static void unused(const kc_options *o, kc_diag_list *out, uint32_t line, uint32_t col, uint32_t end_col,
                   const char *fmt, ...)
{
    kc_diag *d = kc_diag_list_add(out);
    d->rule_id = kc001_unused_suppression.id;
    d->rule_slug = kc001_unused_suppression.slug;
    d->severity = kc001_unused_suppression.severity;
    d->span = (kc_span){.line = line, .col = col, .end_line = line, .end_col = end_col};
    va_list ap;
    va_start(ap, fmt);
    d->message = kc_xvasprintf(fmt, ap);
    va_end(ap);
}

void kc_suppress_apply(const kc_source *src, kc_lang lang, const kc_options *o, kc_diag_list *diags,
                       kc_suppress_counts *counts)
{
    /* Cheap exit: no directive anywhere. */
    if (!src || !src->text || !strstr(src->text, "kcheck:"))
        return;
    supp_list supps = {0};
    kc_diag_list extra = {0};
    parse_ctx c = {.o = o, .out = &extra, .supps = &supps};
    c.standalone = kc_xcalloc((size_t)src->nlines + 2, sizeof *c.standalone);
    for (uint32_t ln = 1; ln <= src->nlines; ln++) {
        size_t len;
        const char *text = kc_source_line(src, ln, &len);
        if (text)
            scan_line(&c, lang, text, len, ln);
    }
    /* A standalone comment also covers the next line that is not itself a
     * standalone kcheck: comment. */
    for (uint32_t i = 0; i < supps.len; i++) {
        supp *s = &supps.data[i];
        if (s->file || !c.standalone[s->line])
            continue;
        uint32_t n = s->line + 1;
        while (n <= src->nlines && c.standalone[n])
            n++;
        if (n <= src->nlines)
            s->next_line = n;
    }

    uint32_t kept = 0;
    for (uint32_t k = 0; k < diags->items.len; k++) {
        kc_diag *d = &diags->items.data[k];
        bool hit = false;
        for (uint32_t i = 0; i < supps.len; i++) {
            supp *s = &supps.data[i];
            if (s->file || s->line == d->span.line || (s->next_line && s->next_line == d->span.line))
                hit |= name_matches(s, d);
        }
        if (hit) {
            kc_diag_dispose(d);
            if (counts)
                counts->suppressed++;
        } else {
            diags->items.data[kept++] = *d;
        }
    }
    diags->items.len = kept;

    if (o->report_unused_suppressions &&
        kc_rules_enabled(o, kc_rules_index(&kc001_unused_suppression))) {
        for (uint32_t i = 0; i < supps.len; i++) {
            supp *s = &supps.data[i];
            const char *what = s->file ? "ignore-file" : "ignore";
            if (s->all) {
                if (!s->used)
                    unused(o, &extra, s->line, s->col, s->end_col, "unused suppression: 'kcheck: %s' %s", what,
                           s->file ? "matched no finding in this file" : "matched no finding on its line");
                continue;
            }
            for (uint32_t k = 0; k < s->names.len; k++) {
                supp_name *n = &s->names.data[k];
                if (n->used || !kc_rules_enabled(o, n->index))
                    continue;
                unused(o, &extra, s->line, n->col, n->end_col, "unused suppression: no %s %s finding %s",
                       n->rule->id, n->rule->slug, s->file ? "in this file" : "on its line");
            }
        }
    }
    for (uint32_t i = 0; i < extra.items.len; i++)
        kc_vec_push(&diags->items, extra.items.data[i]);
    kc_vec_free(&extra.items);
    for (uint32_t i = 0; i < supps.len; i++)
        kc_vec_free(&supps.data[i].names);
    kc_vec_free(&supps);
    free(c.standalone);
}
