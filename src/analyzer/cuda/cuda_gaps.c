/* cuda_gaps.c — libclang's errors as gaps of the kernel model (cuda_gaps.h). */
#define _GNU_SOURCE 1 /* memmem */
#include "cuda_gaps.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define KC_CUDA_MAX_ERRORS 5
#define KC_GAP_TEXT_MAX 96

static bool category_is(CXDiagnostic d, const char *name)
{
    CXString c = clang_getDiagnosticCategoryText(d);
    bool yes = clang_getCString(c) && strcmp(clang_getCString(c), name) == 0;
    clang_disposeString(c);
    return yes;
}

/* Does a semantic error say that a name is unknown (most likely declared
 * in a header that kcheck did not find or the shim does not cover)? Sets
 * the kind of gap it leaves. */
static bool unknown_name(const char *msg, kc_gap_kind *kind)
{
    static const struct {
        const char *pat;
        kc_gap_kind kind;
    } pats[] = {
        {"unknown type name", KC_GAP_TYPE},
        {"no template named", KC_GAP_TYPE},
        {"unknown template name", KC_GAP_TYPE},
        {"no type named", KC_GAP_TYPE},
        {"is not a template", KC_GAP_TYPE},
        {"undeclared identifier", KC_GAP_NAME},
        {"no member named", KC_GAP_NAME},
        {"not a class, namespace, or enumeration", KC_GAP_NAME},
        {"no namespace named", KC_GAP_NAME},
        /* Parse issues that only say a name is not what the syntax needs
         * there: `using namespace cute;`, `struct K : public T {}` with cute
         * or T from a header that was not found. */
        {"expected namespace name", KC_GAP_NAME},
        {"expected class name", KC_GAP_TYPE},
    };
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        if (strstr(msg, pats[i].pat)) {
            *kind = pats[i].kind;
            return true;
        }
    return false;
}


/* Past the parenthesised group that opens at src->text[k], and the blanks
 * after it (or up to a `;` if it does not close first). */
static size_t skip_parens(const kc_source *src, size_t k)
{
    int depth = 0;
    do {
        depth += src->text[k] == '(';
        depth -= src->text[k] == ')';
        k++;
    } while (k < src->len && depth > 0 && src->text[k] != ';');
    while (k < src->len && isspace((unsigned char)src->text[k]))
        k++;
    return k;
}

/* The name an unknown-name error is about, as the source spells it at the
 * error (`c10::Half`, `GGML_RESTRICT`), and whether it is called. Falls
 * back on the first quoted word of the message. */
static const char *name_at(kc_arena *ar, const kc_source *src, uint32_t line, uint32_t col, const char *msg,
                           kc_gap_kind *kind, bool *statement)
{
    if (line && line <= src->nlines && col) {
        size_t at = kc_source_offset(src, line, col), end = at;
        while (end < src->len && (kc_ident_char(src->text[end]) ||
                                  (src->text[end] == ':' && end + 1 < src->len && src->text[end + 1] == ':'))) {
            end += src->text[end] == ':' ? 2 : 1;
        }
        while (end > at && src->text[end - 1] == ':')
            end--;
        if (end > at && end - at <= KC_GAP_TEXT_MAX && !isdigit((unsigned char)src->text[at])) {
            const char *name = kc_arena_strndup(ar, src->text + at, end - at);
            size_t k = end;
            while (k < src->len && (src->text[k] == ' ' || src->text[k] == '\t'))
                k++;
            if (*kind == KC_GAP_NAME && strstr(name, "::"))
                *kind = KC_GAP_TYPE; /* a namespace of a missing header: most often a type */
            else if (*kind == KC_GAP_NAME && k < src->len && src->text[k] == '(')
                *kind = KC_GAP_CALLEE;
            /* A whole statement: `NAME;` or `NAME(...);` after a `;`, `{`, `}` or `)`. */
            size_t p = at;
            while (p > 0 && isspace((unsigned char)src->text[p - 1]))
                p--;
            bool starts = p == 0 || strchr(";{})", src->text[p - 1]);
            /* a call, and calls on its result: `group::this_thread_block().sync();`
             * (a qualified name that is called is no declaration) */
            bool called = false;
            while (k < src->len && src->text[k] == '(') {
                k = skip_parens(src, k);
                called = true;
                size_t m = k;
                if (m < src->len && src->text[m] == '.')
                    m++;
                else if (m + 1 < src->len && src->text[m] == '-' && src->text[m + 1] == '>')
                    m += 2;
                else
                    break;
                while (m < src->len && kc_ident_char(src->text[m]))
                    m++;
                while (m < src->len && (src->text[m] == ' ' || src->text[m] == '\t'))
                    m++;
                if (m >= src->len || src->text[m] != '(')
                    break;
                k = m;
            }
            *statement = starts && k < src->len && src->text[k] == ';' && (called || !strstr(name, "::"));
            return name;
        }
    }
    const char *q = strchr(msg, '\'');
    const char *e = q ? strchr(q + 1, '\'') : NULL;
    if (q && e && e - q - 1 <= KC_GAP_TEXT_MAX)
        return kc_arena_strndup(ar, q + 1, (size_t)(e - q - 1));
    return kc_arena_strndup(ar, msg, strnlen(msg, KC_GAP_TEXT_MAX));
}

bool kc_cuda_errors_collect(CXTranslationUnit tu, const kc_source *src, kc_arena *ar, kc_cuda_errors *out,
                            kc_file_errors *fatal)
{
    CXDiagnosticSet set = clang_getDiagnosticSetFromTU(tu); /* owned by the unit, built once */
    unsigned n = clang_getNumDiagnosticsInSet(set);
    bool ok = true;
    /* Lines where a name could not be resolved: a parse error on the same
     * line is its consequence (`std::foo<int> x;`), not a typo. */
    KC_VEC(uint32_t) sema_lines = {0};
    CXFile main = clang_getFile(tu, src->path);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnosticInSet(set, i);
        if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        CXFile f = NULL;
        unsigned line = 0, col = 0;
        clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
        /* A parse error without a location (one at the end of the file, as
         * clang's recovery from an unbalanced brace leaves some) is the
         * file's, not the driver's. */
        bool placeless = !f && (category_is(d, "Parse Issue") || category_is(d, "Semantic Issue"));
        bool in_main = placeless || (f && (main ? clang_File_isEqual(f, main)
                                                : clang_Location_isFromMainFile(clang_getDiagnosticLocation(d))));
        CXString s = clang_getDiagnosticSpelling(d);
        const char *m = clang_getCString(s) ? clang_getCString(s) : "";
        if (!f && !placeless) {
            /* A driver error: a bad flag, an unsupported architecture. */
            kc_file_errors_add(fatal, 0, 0, "%s", m);
            ok = false;
        } else if (in_main) {
            /* A location past the end of the file is not in it (an
             * `-include` that fails is reported inside the predefines
             * buffer): the error concerns the whole file. */
            if (line > src->nlines)
                line = col = 0;
            kc_cuda_error e = {.line = line, .col = col, .msg = kc_arena_strdup(ar, m), .kind = KC_GAP_OTHER};
            kc_gap_kind unknown_kind = KC_GAP_OTHER;
            if ((category_is(d, "Parse Issue") || category_is(d, "Lexical or Preprocessor Issue")) &&
                !strstr(m, "file not found") && !unknown_name(m, &unknown_kind)) {
                e.syntax = true;
                for (uint32_t k = 0; k < sema_lines.len; k++)
                    if (sema_lines.data[k] == line)
                        e.syntax = false;
                e.kind = KC_GAP_SYNTAX;
                e.what = kc_arena_strndup(ar, m, strnlen(m, KC_GAP_TEXT_MAX));
            } else if (unknown_name(m, &e.kind)) {
                kc_vec_push(&sema_lines, (uint32_t)line);
                e.what = name_at(ar, src, line, col, m, &e.kind, &e.statement);
                if (e.statement)
                    e.kind = KC_GAP_CALLEE; /* `SYNC;`: a macro from a missing header, maybe a barrier */
            } else { /* (a missing header cannot be one: it gets an empty stand-in) */
                e.what = kc_arena_strndup(ar, m, strnlen(m, KC_GAP_TEXT_MAX));
            }
            out->nsyntax += e.syntax;
            kc_vec_push(&out->v, e);
        }
        clang_disposeString(s);
        clang_disposeDiagnostic(d);
    }
    kc_vec_free(&sema_lines);
    return ok;
}

/* ---- kernels the parse lost ---- */

size_t kc_cuda_skip_noise(const char *t, size_t len, size_t i)
{
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
        while (i < len && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
        const char *e = strstr(t + i + 2, "*/");
        return e ? (size_t)(e - t) + 2 : len;
    }
    if (t[i] == '"' || t[i] == '\'') {
        char q = t[i++];
        while (i < len && t[i] != q && t[i] != '\n')
            i += (t[i] == '\\') ? 2 : 1;
        return i < len ? i + 1 : len;
    }
    return i;
}

void kc_cuda_unsure_branches(kc_model *m, const kc_source *src, const kc_cuda_errors *ce)
{
    static const char pre[] = "function-like macro '";
    for (uint32_t e = 0; e < ce->v.len; e++) {
        const char *msg = ce->v.data[e].msg, *q = msg ? strstr(msg, pre) : NULL;
        const char *qe = q ? strchr(q + sizeof pre - 1, '\'') : NULL;
        if (!qe || !strstr(qe, "is not defined"))
            continue;
        /* the directive's line, then its matching #endif */
        uint32_t line = ce->v.data[e].line, depth = 0, end = 0, at_line = line;
        size_t len = 0;
        const char *l = kc_source_line(src, line, &len);
        size_t p = 0;
        while (l && p < len && (l[p] == ' ' || l[p] == '\t'))
            p++;
        if (!l || p >= len || l[p] != '#')
            continue;
        for (uint32_t ln = line; !end; ln++) {
            const char *t = kc_source_line(src, ln, &len);
            if (!t)
                break;
            size_t i = 0;
            while (i < len && (t[i] == ' ' || t[i] == '\t'))
                i++;
            if (i >= len || t[i] != '#')
                continue;
            i++;
            while (i < len && (t[i] == ' ' || t[i] == '\t'))
                i++;
            if (len - i >= 2 && !strncmp(t + i, "if", 2))
                depth++;
            else if (len - i >= 5 && !strncmp(t + i, "endif", 5) && --depth == 0)
                end = ln;
            if (ln == line && depth == 0) /* an #elif: its #if opened earlier */
                depth = 1;
        }
        if (!end)
            continue;
        kc_region r = {.span = {at_line, 1, end, 1},
                       .why = kc_arena_printf(m->arena, "it is in the `#if` on line %u, whose condition calls `%.*s`, a "
                                                        "function-like macro no header of this run defines (a "
                                                        "generated or missing configuration header): the parse took "
                                                        "one branch, the build may compile another",
                                              line, (int)(qe - q - (sizeof pre - 1)), q + sizeof pre - 1)};
        kc_vec_push(&m->unsure_code, r);
    }
}

int kc_cuda_kernel_at(const kc_model *m, uint32_t line)
{
    for (uint32_t i = 0; i < m->kernels.len; i++)
        if (m->kernels.data[i]->span.line <= line && line <= m->kernels.data[i]->span.end_line)
            return (int)i;
    return -1;
}

/* Past the balanced parentheses that open at t[k] == '('. */
static size_t past_parens(const char *t, size_t len, size_t k)
{
    int depth = 0;
    do {
        depth += t[k] == '(';
        depth -= t[k] == ')';
        k++;
    } while (k < len && depth > 0);
    return k;
}

/* After `__global__` at t[i]: the kernel's name, when what follows is a
 * definition (a `{` after the parameter list), else NULL; *body is the
 * offset of that `{`. */
static const char *defined_name(kc_arena *ar, const char *t, size_t len, size_t i, size_t *body)
{
    size_t paren = i;
    for (;;) { /* the first '(' that is not __launch_bounds__'s */
        while (paren < len && t[paren] != '(' && t[paren] != ';' && t[paren] != '{')
            paren++;
        if (paren >= len || t[paren] != '(')
            return NULL;
        size_t b = paren;
        while (b > i && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\n'))
            b--;
        size_t a = b;
        while (a > i && kc_ident_char(t[a - 1]))
            a--;
        if (b - a == 17 && strncmp(t + a, "__launch_bounds__", 17) == 0) {
            paren = past_parens(t, len, paren);
            continue;
        }
        if (a == b)
            return NULL;
        size_t k = past_parens(t, len, paren);
        while (k < len && t[k] != '{' && t[k] != ';') {
            size_t j = kc_cuda_skip_noise(t, len, k);
            k = j != k ? j : k + 1;
        }
        *body = k;
        return k < len && t[k] == '{' ? kc_arena_strndup(ar, t + a, b - a) : NULL;
    }
}

/* The first error between lines `from` and `to` (a lost kernel's own
 * declaration), or NULL. */
static const kc_cuda_error *error_in(const kc_cuda_errors *e, uint32_t from, uint32_t to)
{
    for (uint32_t i = 0; i < e->v.len; i++)
        if (e->v.data[i].line >= from && e->v.data[i].line <= to)
            return &e->v.data[i];
    return NULL;
}

enum { MAX_PP_DEPTH = 64 };

/* The conditional directives open at a point of the text: the offset of
 * the `#` of the innermost's current branch (`#if`, `#elif`, `#else`) per
 * level. */
typedef struct pp_stack {
    size_t at[MAX_PP_DEPTH];
    /* the branch as far as the text decides it: 1 off (`#if 0`, `#ifdef X`
     * of an X the file never defines), 0 on, -1 undecided */
    signed char off[MAX_PP_DEPTH];
    unsigned depth; /* may exceed MAX_PP_DEPTH: only the first levels are kept */
} pp_stack;

/* Is the directive word at p (`define`) a directive: `#`, then only
 * blanks before it on its line (not `//#define X`)? */
static bool directive_word(const char *t, const char *p)
{
    const char *h = p;
    while (h > t && (h[-1] == ' ' || h[-1] == '\t'))
        h--;
    if (h == t || h[-1] != '#')
        return false;
    h--;
    while (h > t && (h[-1] == ' ' || h[-1] == '\t'))
        h--;
    return h == t || h[-1] == '\n';
}

/* `#<word> NAME` as a directive of t[0..len)? */
static bool directive_names(const char *t, size_t len, const char *word, const char *name, size_t n)
{
    size_t wl = strlen(word);
    for (const char *p = t; (p = memmem(p, len - (size_t)(p - t), word, wl)) != NULL; p += wl) {
        if (!directive_word(t, p))
            continue;
        const char *q = p + wl;
        while (q < t + len && (*q == ' ' || *q == '\t'))
            q++;
        if (q > p + wl && (size_t)(t + len - q) >= n && !memcmp(q, name, n) && (q + n == t + len || !kc_ident_char(q[n])))
            return true;
    }
    return false;
}

bool kc_cuda_defines(const char *t, size_t len, const char *name, size_t n, bool undef)
{
    return directive_names(t, len, "define", name, n) || (undef && directive_names(t, len, "undef", name, n));
}

/* How the text decides the branch that the directive `word` (w..e) opens:
 * `#ifdef X` / `#if defined(X)` of an X the file never defines is off, as
 * is `#if 0`; `#ifndef X` of one is on; anything else undecided. */
static signed char pp_decide(const char *t, size_t len, size_t w, size_t e)
{
    size_t n = e - w, a = e;
    while (a < len && (t[a] == ' ' || t[a] == '\t' || t[a] == '(' || t[a] == '!'))
        a++;
    bool negated = memchr(t + e, '!', a - e) != NULL;
    if (n == 2 && a + 7 < len && !strncmp(t + a, "defined", 7) && !kc_ident_char(t[a + 7])) {
        a += 7;
        while (a < len && (t[a] == ' ' || t[a] == '\t' || t[a] == '('))
            a++;
    } else if (n == 2) {
        size_t z = a;
        while (z < len && t[z] == '0')
            z++;
        bool zero = z > a;
        while (z < len && (t[z] == ' ' || t[z] == '\t' || t[z] == '\r'))
            z++;
        return zero && (z >= len || t[z] == '\n' || t[z] == '/') ? 1 : -1;
    }
    size_t b = a;
    while (b < len && kc_ident_char(t[b]))
        b++;
    size_t z = b;
    while (z < len && (t[z] == ' ' || t[z] == '\t' || t[z] == ')' || t[z] == '\r'))
        z++;
    if (b == a || (z < len && t[z] != '\n' && t[z] != '/') || kc_cuda_defines(t, len, t + a, b - a, false) ||
        (b - a > 2 && t[a] == '_' && t[a + 1] == '_'))
        return -1; /* a compound condition, a name the file defines, or one the compiler does (`__CUDACC__`) */
    bool ifndef = n == 6;
    return (signed char)((ifndef != negated) ? 0 : 1);
}

/* Follows the directive whose `#` is at t[i]. */
static void pp_directive(pp_stack *pp, const char *t, size_t len, size_t i)
{
    size_t w = i + 1;
    while (w < len && (t[w] == ' ' || t[w] == '\t'))
        w++;
    size_t e = w;
    while (e < len && kc_ident_char(t[e]))
        e++;
    size_t n = e - w;
    if ((n == 2 && !strncmp(t + w, "if", 2)) || (n == 5 && !strncmp(t + w, "ifdef", 5)) ||
        (n == 6 && !strncmp(t + w, "ifndef", 6))) {
        if (pp->depth < MAX_PP_DEPTH) {
            pp->at[pp->depth] = i;
            pp->off[pp->depth] = pp_decide(t, len, w, e);
        }
        pp->depth++;
    } else if ((n == 4 && (!strncmp(t + w, "elif", 4) || !strncmp(t + w, "else", 4))) ||
               (n == 7 && (!strncmp(t + w, "elifdef", 7))) || (n == 8 && !strncmp(t + w, "elifndef", 8))) {
        if (pp->depth && pp->depth <= MAX_PP_DEPTH) {
            signed char *o = &pp->off[pp->depth - 1];
            *o = n == 4 && !strncmp(t + w, "else", 4) && *o >= 0 ? (signed char)!*o : -1;
            pp->at[pp->depth - 1] = i;
        }
    } else if (n == 5 && !strncmp(t + w, "endif", 5)) {
        if (pp->depth)
            pp->depth--;
    }
}

/* Is some open branch off as far as the text decides (a build option the
 * file leaves undefined, `#if 0`)? Its kernels are the build's choice. */
static bool pp_off(const pp_stack *pp)
{
    for (unsigned d = 0; d < pp->depth && d < MAX_PP_DEPTH; d++)
        if (pp->off[d] == 1)
            return true;
    return false;
}

/* Is `__CUDA_ARCH__ OP N` at p true for the architecture `arch` (sm_75:
 * 750)? 1 true, 0 false, -1 when it cannot tell. */
static int arch_test(const char *p, const char *end, const char *arch)
{
    if (!arch || strncmp(arch, "sm_", 3) != 0 || !isdigit((unsigned char)arch[3]))
        return -1;
    long have = strtol(arch + 3, NULL, 10) * 10;
    p += 13;
    while (p < end && (*p == ' ' || *p == '\t' || *p == ')'))
        p++;
    char op[3] = {0};
    for (unsigned k = 0; k < 2 && p < end && strchr("<>=!", *p); k++)
        op[k] = *p++;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '('))
        p++;
    if (p >= end || !isdigit((unsigned char)*p))
        return -1;
    long want = strtol(p, NULL, 10);
    if (!strcmp(op, ">="))
        return have >= want;
    if (!strcmp(op, ">"))
        return have > want;
    if (!strcmp(op, "<"))
        return have < want;
    if (!strcmp(op, "<="))
        return have <= want;
    if (!strcmp(op, "=="))
        return have == want;
    if (!strcmp(op, "!="))
        return have != want;
    return -1;
}

/* The innermost open conditional, when its current branch is an `#if` or
 * `#elif` that tests __CUDA_ARCH__: that line as written, else NULL.
 * *taken says whether the parse's architecture takes it: 1, 0, or -1 when
 * the line is more than one comparison of __CUDA_ARCH__ (with at most a
 * `defined(__CUDA_ARCH__) &&` before it). */
static const char *arch_condition(kc_arena *ar, const pp_stack *pp, const char *t, size_t len, const char *arch,
                                  int *taken)
{
    *taken = -1;
    if (!pp->depth || pp->depth > MAX_PP_DEPTH)
        return NULL;
    size_t i = pp->at[pp->depth - 1], e = i;
    while (e < len && t[e] != '\n')
        e++;
    const char *hit = memmem(t + i, e - i, "__CUDA_ARCH__", 13);
    if (!hit)
        return NULL;
    const char *again = memmem(hit + 13, (size_t)(t + e - hit - 13), "__CUDA_ARCH__", 13);
    bool joined = memmem(t + i, e - i, "&&", 2) || memmem(t + i, e - i, "||", 2);
    bool guard_first = again && memmem(t + i, (size_t)(hit - t - i) + 13, "defined", 7) &&
                       !memmem(again, (size_t)(t + e - again), "&&", 2) && !memmem(t + i, e - i, "||", 2);
    if (guard_first)
        *taken = arch_test(again, t + e, arch);
    else if (!joined)
        *taken = arch_test(hit, t + e, arch);
    size_t n = e - i;
    while (n && (t[i + n - 1] == ' ' || t[i + n - 1] == '\t' || t[i + n - 1] == '\r' || t[i + n - 1] == '\\'))
        n--;
    return kc_arena_strndup(ar, t + i, n > 100 ? 100 : n);
}

/* Adds a KC_GAP_UNSEEN gap for every `__global__` definition in the text
 * that is not a kernel of the model, placed before the other gaps: a kernel
 * not analysed at all matters more than one analysed in part. */
static void note_lost_kernels(kc_model *m, kc_arena *ar, const kc_cuda_errors *e)
{
    uint32_t before = m->gaps.len;
    /* kernels the preprocessor left out of a parse without errors */
    uint32_t nconfig = 0, config_line[64], config_col[64];
    const char *config_name[64];
    size_t config_at = 0;
    const kc_source *src = m->src;
    const char *t = src->text;
    size_t len = src->len;
    uint32_t line = 1;
    bool line_is_directive = false, at_line_start = true;
    pp_stack pp = {.depth = 0};
    for (size_t i = 0; i < len;) {
        size_t j = kc_cuda_skip_noise(t, len, i);
        if (j != i) {
            for (size_t k = i; k < j; k++)
                line += t[k] == '\n';
            i = j;
            continue;
        }
        char c = t[i];
        if (c == '\n') {
            bool continued = i > 0 && t[i - 1] == '\\';
            line++;
            at_line_start = true;
            line_is_directive = line_is_directive && continued;
            i++;
            continue;
        }
        if (at_line_start && c == '#') {
            line_is_directive = true;
            pp_directive(&pp, t, len, i);
        }
        if (c != ' ' && c != '\t')
            at_line_start = false;
        if (!line_is_directive && c == '_' && strncmp(t + i, "__global__", 10) == 0 && (i == 0 || !kc_ident_char(t[i - 1])) &&
            !kc_ident_char(t[i + 10]) && kc_cuda_kernel_at(m, line) < 0) {
            size_t body = len;
            const char *name = defined_name(ar, t, len, i + 10, &body);
            int taken = -1;
            const char *arch = name ? arch_condition(ar, &pp, t, len, e->arch, &taken) : NULL;
            /* A kernel lost without any error was left out by the
             * preprocessor; with errors, only a branch the architecture is
             * known not to take is the cause. */
            if (arch && (taken == 1 || (taken == -1 && e->v.len)))
                arch = NULL;
            /* Without errors only a branch of the architecture's is a loss:
             * any other branch not taken is the build's configuration,
             * said (below) when it leaves the file no kernel at all. */
            if (name && !arch && !e->v.len && pp.depth && pp.depth <= MAX_PP_DEPTH && nconfig < 64) {
                if (!nconfig)
                    config_at = pp.at[pp.depth - 1];
                config_line[nconfig] = line;
                config_col[nconfig] = (uint32_t)(i - src->line_start[line - 1]) + 1;
                config_name[nconfig++] = name;
            }
            if (name && (arch || (e->v.len && !pp_off(&pp)))) {
                uint32_t col = (uint32_t)(i - src->line_start[line - 1]) + 1;
                kc_span sp = {line, col, line, col + 10};
                kc_gap *g = kc_model_add_gap(m, KC_GAP_UNSEEN, sp, name, name);
                uint32_t body_line, body_col;
                kc_source_position(src, body, &body_line, &body_col);
                const kc_cuda_error *x = error_in(e, line, body_line);
                if (arch) {
                    g->cause_kind = KC_GAP_OTHER;
                    g->cause_what = kc_arena_printf(m->arena,
                                                    "it is in a branch of `%s` that this parse, for %s, does not take "
                                                    "(`--cuda-arch` or `cuda.arch` chooses another)",
                                                    arch, e->arch ? e->arch : "its architecture");
                } else if (x) {
                    g->cause_kind = x->syntax ? KC_GAP_SYNTAX : x->kind;
                    g->cause_what = kc_arena_strdup(m->arena, x->what); /* x lives in the parse's arena */
                }
            }
        }
        i++;
    }
    /* Every kernel of the file in branches of the build's configuration
     * that this parse does not take (hypre's `#if defined(HYPRE_USING_GPU)`,
     * defined by a generated header): nothing was analysed, and the file
     * must not read as checked. */
    bool any_kernel = false;
    for (uint32_t k = 0; k < m->kernels.len && !any_kernel; k++)
        any_kernel = !m->kernels.data[k]->is_device_function;
    if (nconfig && !any_kernel) {
        size_t end = config_at;
        while (end < len && t[end] != '\n')
            end++;
        size_t n = end - config_at;
        while (n && (t[config_at + n - 1] == ' ' || t[config_at + n - 1] == '\t' || t[config_at + n - 1] == '\r'))
            n--;
        const char *cond = kc_arena_strndup(ar, t + config_at, n > 100 ? 100 : n);
        for (uint32_t c = 0; c < nconfig; c++) {
            kc_span sp = {config_line[c], config_col[c], config_line[c], config_col[c] + 10};
            kc_gap *g = kc_model_add_gap(m, KC_GAP_UNSEEN, sp, config_name[c], config_name[c]);
            g->cause_kind = KC_GAP_OTHER;
            g->cause_what = kc_arena_printf(m->arena,
                                            "every kernel of the file is in a branch of `%s` or another that this "
                                            "parse does not take: give kcheck the build's macros (`-- -D NAME`, "
                                            "`-p BUILD_DIR` with compile_commands.json)",
                                            cond);
        }
    }
    /* rotate the new gaps to the front */
    uint32_t added = m->gaps.len - before;
    if (added && before) {
        kc_gap *tmp = kc_xmalloc(added * sizeof *tmp);
        memcpy(tmp, m->gaps.data + before, added * sizeof *tmp);
        memmove(m->gaps.data + added, m->gaps.data, before * sizeof *tmp);
        memcpy(m->gaps.data, tmp, added * sizeof *tmp);
        free(tmp);
    }
}

/* ---- the gaps ---- */

/* Is (line, col) inside the body of kernel k (from its `{`)? An error
 * before it (a `;` missing after the declaration above, which clang
 * inserted) leaves the body as written. */
static bool in_body(const kc_model *m, const kc_kernel *k, uint32_t line, uint32_t col)
{
    const kc_source *src = m->src;
    kc_span from = kc_span_valid(k->name_span) ? k->name_span : k->span;
    size_t at = kc_source_offset(src, from.line, from.col), end = kc_source_offset(src, k->span.end_line, k->span.end_col);
    int depth = 0;
    while (at < end && at < src->len && !(src->text[at] == '{' && depth == 0)) {
        depth += src->text[at] == '(';
        depth -= src->text[at] == ')';
        at++;
    }
    size_t err = line ? kc_source_offset(src, line, col ? col : 1) : 0;
    return err >= at;
}

bool kc_cuda_errors_apply(kc_model *m, const kc_cuda_errors *e, bool tolerant, kc_file_errors *errs)
{
    if (!e->v.len) {
        note_lost_kernels(m, m->arena, e);
        return true;
    }
    kc_arena *ar = m->arena;
    uint8_t *drop = m->kernels.len ? kc_xcalloc(m->kernels.len, 1) : NULL;
    for (uint32_t i = 0; i < e->v.len; i++) {
        const kc_cuda_error *x = &e->v.data[i];
        int k = kc_cuda_kernel_at(m, x->line);
        bool body = k >= 0 && in_body(m, m->kernels.data[k], x->line, x->col);
        /* A syntax error before the body (clang inserted the `;` missing
         * after the declaration above) is not the kernel's. */
        const char *kname = k >= 0 && (body || !x->syntax) ? m->kernels.data[k]->name : NULL;
        /* Host code outside kernels uses libraries kcheck does not model:
         * only what did not parse there is said (it may hide a kernel). */
        if (!kname && !x->syntax)
            continue;
        kc_span sp = {x->line, x->col, x->line, x->col};
        if (!x->line) /* the whole file: the first line stands for it */
            sp = (kc_span){1, 1, 1, 1};
        kc_gap *g = kc_model_add_gap(m, x->syntax ? KC_GAP_SYNTAX : x->kind, sp, x->what, kname);
        if (x->syntax && body) {
            drop[k] = 1;
            g->dropped = true;
        }
    }
    /* An unknown name can lose a whole definition too: a parameter of
     * type `c10::complex<float>` or `torch::PackedTensorAccessor32<...>`
     * from a missing header makes clang drop the kernel. */
    note_lost_kernels(m, ar, e);
    for (uint32_t i = m->kernels.len; i-- > 0;)
        if (drop && drop[i])
            kc_model_drop_kernel(m, i);
    free(drop);
    bool nothing = !m->kernels.len && !m->launches.len && !m->host_calls.len;
    if (!e->nsyntax || !nothing || tolerant)
        return true;
    uint32_t reported = 0;
    for (uint32_t i = 0; i < e->v.len && reported < KC_CUDA_MAX_ERRORS; i++)
        if (e->v.data[i].syntax) {
            kc_file_errors_add(errs, e->v.data[i].line, e->v.data[i].col, "%s", e->v.data[i].msg);
            reported++;
        }
    return false;
}

kc_cuda_hole *kc_cuda_errors_holes(const kc_cuda_errors *e, kc_arena *ar, uint32_t *n)
{
    *n = 0;
    for (uint32_t i = 0; i < e->v.len; i++)
        *n += e->v.data[i].statement;
    if (!*n)
        return NULL;
    kc_cuda_hole *h = kc_arena_alloc(ar, *n * sizeof *h);
    uint32_t j = 0;
    for (uint32_t i = 0; i < e->v.len; i++)
        if (e->v.data[i].statement)
            h[j++] = (kc_cuda_hole){e->v.data[i].line, e->v.data[i].col, e->v.data[i].what};
    return h;
}

void kc_cuda_errors_free(kc_cuda_errors *e) { kc_vec_free(&e->v); }
