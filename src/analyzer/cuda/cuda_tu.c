/* cuda_tu.c — the bottom of the CUDA front end: what every other file of
 * it uses to read a libclang translation unit. Children of a cursor, spans
 * and text in the main file, tokens, types, constant evaluation, and the
 * facts the translation-unit walk (cuda_lower.c) recorded for the
 * interpreter (template values at launches, the memory pointer arguments
 * point to). Nothing here calls the walk or the interpreter.
 *
 * Spans are taken at expansion locations, so `__global__ void f` (whose
 * spelling starts in the shim) and code written through user macros map to
 * where the user wrote them.
 */
#include "cuda_tu.h"
#include "cuda_shim.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- children ---------------------------------------------------------------- */

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    kc_cuda_kids *k = data;
    if (k->n == k->cap) {
        unsigned cap = k->cap * 2;
        CXCursor *v = kc_xmalloc(cap * sizeof *v);
        memcpy(v, k->v, k->n * sizeof *v);
        if (k->v != k->inl)
            free(k->v);
        k->v = v;
        k->cap = cap;
    }
    k->v[k->n++] = c;
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_overload_set(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind == CXCursor_OverloadedDeclRef)
        *(CXCursor *)data = c;
    return CXChildVisit_Break;
}

/* The operator named by a child of an unresolved operator call: an
 * overload set (`OverloadedDeclRef` "operator+=", possibly under an
 * unnamed reference): its spelling after "operator", else NULL. */
static const char *operator_of_ref(CXCursor x, char *buf, size_t cap)
{
    if (x.kind != CXCursor_OverloadedDeclRef && x.kind != CXCursor_DeclRefExpr && x.kind != CXCursor_UnexposedExpr)
        return NULL;
    CXCursor set = x;
    if (x.kind != CXCursor_OverloadedDeclRef) {
        set = clang_getNullCursor();
        clang_visitChildren(x, find_overload_set, &set);
        if (clang_Cursor_isNull(set))
            return NULL;
    }
    CXString s = clang_getCursorSpelling(set);
    const char *t = clang_getCString(s);
    bool yes = t && strncmp(t, "operator", 8) == 0 && t[8] && strlen(t + 8) < cap && !isalpha((unsigned char)t[8]) &&
               t[8] != ' ' && strcmp(t + 8, "()") != 0 && strcmp(t + 8, "[]") != 0;
    if (yes)
        strcpy(buf, t + 8);
    clang_disposeString(s);
    return yes ? buf : NULL;
}

/* A call of an overloaded operator that clang left unresolved: in a
 * template, `tx += s` with `tx` of a dependent type (`IdType tx`) is such a
 * call as soon as any `operator+=` is visible where the template is
 * defined. Its children are the operands with the operator's overload set
 * between them (binary) or before or after the operand (unary). Fills the
 * operator's spelling ("+=", "++") and the operator child's index; false for
 * anything else (resolved operator calls name their function). */
static bool unresolved_operator(CXCursor c, const kc_cuda_kids *k, char *op, size_t cap, unsigned *at)
{
    if (c.kind != CXCursor_CallExpr || (k->n != 2 && k->n != 3) || !clang_Cursor_isNull(clang_getCursorReferenced(c)))
        return false;
    unsigned i = k->n == 3 ? 1 : UINT_MAX;
    if (k->n == 2) {
        if (operator_of_ref(k->v[0], op, cap))
            i = 0;
        else if (operator_of_ref(k->v[1], op, cap))
            i = 1;
        else
            return false;
    } else if (!operator_of_ref(k->v[1], op, cap)) {
        return false;
    }
    *at = i;
    return true;
}

/* Every child of c, in order. */
static void all_kids(CXCursor c, kc_cuda_kids *out)
{
    out->v = out->inl;
    out->n = 0;
    out->cap = sizeof out->inl / sizeof out->inl[0];
    clang_visitChildren(c, kids_visit, out);
}

void kc_cuda_kids_get(CXCursor c, kc_cuda_kids *out)
{
    all_kids(c, out);
    /* An unresolved operator call's children are its operands only, as a
     * built-in operator's are (kc_cuda_binop_of, kc_cuda_unop_of). */
    char op[8];
    unsigned at;
    if (c.kind == CXCursor_CallExpr && unresolved_operator(c, out, op, sizeof op, &at)) {
        memmove(out->v + at, out->v + at + 1, (out->n - at - 1) * sizeof *out->v);
        out->n--;
    }
}

/* The operator of an unresolved operator call (unresolved_operator), with
 * its operands' count and whether it comes first; "" otherwise. */
static const char *call_operator(CXCursor c, char *op, size_t cap, unsigned *noperands, bool *prefix)
{
    op[0] = '\0';
    if (c.kind != CXCursor_CallExpr || !clang_Cursor_isNull(clang_getCursorReferenced(c)))
        return op; /* a resolved call names its function */
    kc_cuda_kids k;
    all_kids(c, &k);
    unsigned at;
    if (unresolved_operator(c, &k, op, cap, &at)) {
        *noperands = k.n - 1;
        *prefix = at == 0;
    } else {
        op[0] = '\0';
    }
    kc_cuda_kids_free(&k);
    return op;
}

void kc_cuda_kids_free(kc_cuda_kids *k)
{
    if (k->v != k->inl)
        free(k->v);
    k->v = k->inl;
    k->n = 0;
}

CXCursor kc_cuda_first_in_kids(CXCursor c, CXCursor (*find)(CXCursor, unsigned), unsigned depth)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(c, &k);
    CXCursor found = clang_getNullCursor();
    for (unsigned i = 0; i < k.n && clang_Cursor_isNull(found); i++)
        found = find(k.v[i], depth);
    kc_cuda_kids_free(&k);
    return found;
}

/* ---- locations, spans, text -------------------------------------------------- */

static size_t invocation_end(const kc_source *src, size_t off);

/* The expansion location of `loc` and its file, when in the main file. */
static bool expansion(const kc_cuda_tu *t, CXSourceLocation loc, CXFile *f, uint32_t *line, uint32_t *col,
                      uint32_t *off)
{
    unsigned l = 0, c = 0, o = 0;
    *f = NULL;
    clang_getExpansionLocation(loc, f, &l, &c, &o);
    if (!*f || l == 0)
        return false;
    if (t->main ? !clang_File_isEqual(*f, t->main) : !clang_Location_isFromMainFile(loc))
        return false;
    if (o > t->src->len)
        return false;
    *line = l;
    *col = c;
    *off = o;
    return true;
}

bool kc_cuda_expansion_in_main(const kc_cuda_tu *t, CXSourceLocation loc, uint32_t *line, uint32_t *col,
                               uint32_t *off)
{
    CXFile f;
    return expansion(t, loc, &f, line, col, off);
}

bool kc_cuda_loc_in_main(const kc_cuda_tu *t, CXSourceLocation loc, uint32_t *line, uint32_t *col, uint32_t *off)
{
    CXFile f;
    uint32_t l, c, o;
    if (!expansion(t, loc, &f, &l, &c, &o))
        return false;
    /* Written in an argument of a macro invoked here (`AT_DISPATCH_...(t,
     * "name", [&] { ... })`, `CHECK(cudaMalloc(...))`): where it is
     * written, not where the macro is. */
    CXFile sf = NULL;
    unsigned sl = 0, sc = 0, so = 0;
    clang_getSpellingLocation(loc, &sf, &sl, &sc, &so);
    if (sf && sl && so > o && so < t->src->len && clang_File_isEqual(sf, f) && so < invocation_end(t->src, o)) {
        l = sl;
        c = sc;
        o = so;
    }
    *line = l;
    *col = c;
    *off = o;
    return true;
}

static bool is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Just past the `)` that closes the `(` at `open`, looking at most `cap`
 * bytes on; 0 when it is not found. */
static size_t close_paren(const char *s, size_t n, size_t open, size_t cap)
{
    int depth = 0;
    for (size_t q = open; q < n && q - open < cap; q++) {
        if (s[q] == '(')
            depth++;
        else if (s[q] == ')' && --depth == 0)
            return q + 1;
    }
    return 0;
}

/* End offset of the function-like macro invocation `NAME(...)` that starts
 * at `off` (past its `)`), or `off` when there is none there. */
static size_t invocation_end(const kc_source *src, size_t off)
{
    const char *s = src->text;
    size_t n = src->len, e = off;
    while (e < n && is_ident_char(s[e]))
        e++;
    if (e == off)
        return off;
    while (e < n && (s[e] == ' ' || s[e] == '\t' || s[e] == '\n' || s[e] == '\r'))
        e++;
    if (e >= n || s[e] != '(')
        return off;
    size_t end = close_paren(s, n, e, (size_t)1 << 18);
    return end ? end : off;
}

/* End offset of the token starting at `off` (identifiers, numbers, else one
 * byte); a function-like macro invocation `NAME(...)` extends to its `)`. */
static size_t token_end(const kc_source *src, size_t off)
{
    const char *s = src->text;
    size_t n = src->len, e = off;
    if (e >= n)
        return n;
    if (is_ident_char(s[e])) {
        while (e < n && is_ident_char(s[e]))
            e++;
        size_t p = e;
        while (p < n && (s[p] == ' ' || s[p] == '\t'))
            p++;
        size_t end = p < n && s[p] == '(' && !isdigit((unsigned char)s[off]) ? close_paren(s, n, p, 4096) : 0;
        return end ? end : e;
    }
    return e + 1;
}

kc_span kc_cuda_span(const kc_cuda_tu *t, CXCursor c)
{
    kc_span sp = {0};
    CXSourceRange r = clang_getCursorExtent(c);
    if (clang_Range_isNull(r))
        return sp;
    uint32_t l1, c1, o1, l2, c2, o2;
    if (!kc_cuda_loc_in_main(t, clang_getRangeStart(r), &l1, &c1, &o1))
        return sp;
    bool end_ok = kc_cuda_loc_in_main(t, clang_getRangeEnd(r), &l2, &c2, &o2);
    if (!end_ok || o2 <= o1) {
        size_t e = token_end(t->src, o1);
        kc_source_position(t->src, e, &l2, &c2);
    }
    sp.line = l1;
    sp.col = c1;
    sp.end_line = l2;
    sp.end_col = c2;
    return sp;
}

void kc_cuda_span_offsets(const kc_cuda_tu *t, kc_span s, size_t *start, size_t *end)
{
    *start = kc_source_offset(t->src, s.line, s.col);
    *end = kc_source_offset(t->src, s.end_line, s.end_col);
    if (*end < *start)
        *end = *start;
}

const char *kc_cuda_span_text(const kc_cuda_tu *t, kc_span s)
{
    if (!kc_span_valid(s))
        return "";
    size_t a, b;
    kc_cuda_span_offsets(t, s, &a, &b);
    if (b - a > 4096)
        b = a + 4096;
    char *out = kc_arena_alloc(t->m->arena, b - a + 1);
    size_t n = 0;
    bool space = false;
    for (size_t i = a; i < b; i++) {
        char ch = t->src->text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\\') {
            space = n > 0;
            continue;
        }
        if (space)
            out[n++] = ' ';
        space = false;
        out[n++] = ch;
    }
    out[n] = '\0';
    return out;
}

/* Is the newline at `i` the end of a logical line (no `\` before it)? */
static bool line_ends_at(const char *s, size_t i)
{
    return s[i] == '\n' && !(i >= 1 && s[i - 1] == '\\') && !(i >= 2 && s[i - 1] == '\r' && s[i - 2] == '\\');
}

/* The `#define` whose replacement list holds offset `off`: its name and
 * where the list starts and ends. */
typedef struct macro_def {
    size_t name, name_len, body, body_end;
    bool function_like;
} macro_def;

static size_t skip_blanks(const char *s, size_t p, size_t end)
{
    while (p < end && (s[p] == ' ' || s[p] == '\t'))
        p++;
    return p;
}

static bool macro_def_at(const kc_source *src, size_t off, macro_def *d)
{
    const char *s = src->text;
    size_t ls = off;
    for (unsigned lines = 0; lines < 400; lines++) {
        while (ls > 0 && s[ls - 1] != '\n')
            ls--;
        if (ls == 0 || line_ends_at(s, ls - 1))
            break;
        ls--; /* (a continued line: go on to the one before) */
    }
    size_t p = skip_blanks(s, ls, off);
    if (p >= off || s[p++] != '#')
        return false;
    p = skip_blanks(s, p, off);
    if (off - p < 7 || strncmp(s + p, "define", 6) != 0 || (s[p + 6] != ' ' && s[p + 6] != '\t'))
        return false;
    p = skip_blanks(s, p + 6, off);
    d->name = p;
    while (p < off && is_ident_char(s[p]))
        p++;
    d->name_len = p - d->name;
    d->function_like = p < off && s[p] == '(';
    if (d->function_like)
        while (p < off && s[p] != ')')
            p++;
    if (!d->name_len || p >= off)
        return false;
    p += d->function_like;
    while (p < off && (s[p] == ' ' || s[p] == '\t' || s[p] == '\\' || s[p] == '\r' || s[p] == '\n'))
        p++;
    d->body = p;
    size_t e = off;
    while (e < src->len && !line_ends_at(s, e) &&
           !(s[e] == '/' && e + 1 < src->len && (s[e + 1] == '/' || s[e + 1] == '*')))
        e++;
    while (e > off && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\\'))
        e--;
    d->body_end = e;
    return true;
}

/* Is cursor `c` written in the replacement list of a `#define` of this
 * file: where it starts there (*so), where the expansion it comes from is
 * (*eo), and that definition? A definition comes before its uses; a token
 * of a macro's argument is spelled at the invocation, after *eo, where
 * kc_cuda_span already points. */
static bool spelled_in_macro(const kc_cuda_tu *t, CXCursor c, size_t *so, size_t *eo, macro_def *d)
{
    CXSourceRange r = clang_getCursorExtent(c);
    if (clang_Range_isNull(r) || !t->src)
        return false;
    CXFile f, sf = NULL;
    uint32_t el, ec, e;
    unsigned s = 0;
    if (!expansion(t, clang_getRangeStart(r), &f, &el, &ec, &e))
        return false;
    clang_getSpellingLocation(clang_getRangeStart(r), &sf, NULL, NULL, &s);
    if (!sf || !clang_File_isEqual(sf, f) || s >= e || !macro_def_at(t->src, s, d))
        return false;
    *so = s;
    *eo = e;
    return true;
}

/* The text of argument `c` (of a call or of a launch's `<<<...>>>`) where
 * it is written in the body of a macro defined in this file and is only
 * part of what that macro expands to (`<<<blocks, THREADS, smem>>>` inside
 * `#define CALL_IF(...)`, whose expansion's text is the whole invocation,
 * `CALL_IF(8, 8, 1)`): from where the argument is spelled to the `,`, `)`
 * or `>>>` that ends it at its depth. An argument that is all of the
 * invoked macro (`DIVUP(n, 256)`, `THREADS`) keeps the invocation's text
 * (NULL here); one that is all of another macro used inside the first is
 * that macro's name where it takes no arguments (`THREADS`). libclang
 * gives the spelling of an extent's start only (its end maps to the end
 * of the invocation), hence the scan. */
static const char *macro_body_arg_text(const kc_cuda_tu *t, CXCursor c)
{
    size_t so, eo;
    macro_def d;
    if (!spelled_in_macro(t, c, &so, &eo, &d))
        return NULL;
    const char *s = t->src->text;
    size_t e = so;
    int depth = 0;
    for (; e < d.body_end; e++) {
        char ch = s[e];
        if (ch == '(' || ch == '[' || ch == '{')
            depth++;
        else if (ch == ')' || ch == ']' || ch == '}') {
            if (depth-- == 0)
                break;
        } else if (depth == 0 && (ch == ',' || ch == ';' ||
                                  (ch == '>' && e + 2 < d.body_end && s[e + 1] == '>' && s[e + 2] == '>')))
            break;
    }
    if (e == so || e - so > 1024)
        return NULL;
    if (so == d.body && e == d.body_end) {
        size_t n = 0;
        while (eo + n < t->src->len && is_ident_char(s[eo + n]))
            n++;
        if (n == d.name_len && strncmp(s + eo, s + d.name, n) == 0)
            return NULL;
        if (!d.function_like)
            return kc_arena_strndup(t->m->arena, s + d.name, d.name_len);
    }
    uint32_t l1, c1, l2, c2;
    kc_source_position(t->src, so, &l1, &c1);
    kc_source_position(t->src, e, &l2, &c2);
    kc_span sp = {l1, c1, l2, c2};
    return kc_cuda_span_text(t, sp);
}

bool kc_cuda_macro_spelling(const kc_cuda_tu *t, CXCursor c, kc_span *at, const char **macro)
{
    size_t so, eo;
    macro_def d;
    if (!spelled_in_macro(t, c, &so, &eo, &d))
        return false;
    kc_source_position(t->src, so, &at->line, &at->col);
    at->end_line = at->line;
    at->end_col = at->col;
    *macro = kc_arena_strndup(t->m->arena, t->src->text + d.name, d.name_len);
    return true;
}

const char *kc_cuda_arg_text(const kc_cuda_tu *t, CXCursor c)
{
    const char *body = macro_body_arg_text(t, c);
    return body ? body : kc_cuda_text(t, c);
}

const char *kc_cuda_text(const kc_cuda_tu *t, CXCursor c)
{
    kc_span s = kc_cuda_span(t, c);
    if (kc_span_valid(s))
        return kc_cuda_span_text(t, s);
    CXString str = clang_getCursorPrettyPrinted(c, NULL);
    const char *p = clang_getCString(str);
    const char *out = kc_arena_strndup(t->m->arena, p ? p : "?", p ? (strlen(p) > 160 ? 160 : strlen(p)) : 1);
    clang_disposeString(str);
    return out;
}

const char *kc_cuda_spelling(const kc_cuda_tu *t, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *p = clang_getCString(s);
    const char *out = kc_arena_strdup(t->m->arena, p ? p : "");
    clang_disposeString(s);
    return out;
}

/* ---- declarations ------------------------------------------------------------ */

bool kc_cuda_lost_initializer(const kc_cuda_tu *t, CXCursor d)
{
    if (!clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(d)))
        return false;
    uint32_t line, col, off;
    if (!t->src || !kc_cuda_loc_in_main(t, clang_getRangeEnd(clang_getCursorExtent(d)), &line, &col, &off))
        return false;
    const char *p = t->src->text, *end = p + t->src->len;
    for (p += off; p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'); p++)
        ;
    return p < end && *p == '=' && (p + 1 >= end || p[1] != '=');
}

bool kc_cuda_init_text(const kc_cuda_tu *t, CXCursor d, const char **text, size_t *len)
{
    uint32_t line, col, off;
    if (!t->src || !kc_cuda_loc_in_main(t, clang_getCursorLocation(d), &line, &col, &off))
        return false;
    const char *p = t->src->text + off, *end = t->src->text + t->src->len;
    while (p < end && *p != ';' && !(*p == '=' && (p + 1 >= end || p[1] != '=')))
        p++;
    if (p >= end || *p != '=')
        return false;
    const char *q = ++p;
    int depth = 0;
    while (q < end && (depth > 0 || (*q != ';' && *q != ','))) {
        depth += *q == '(' || *q == '[' || *q == '{';
        depth -= *q == ')' || *q == ']' || *q == '}';
        if (depth < 0)
            return false;
        q++;
    }
    *text = p;
    *len = (size_t)(q - p);
    return q < end;
}

bool kc_cuda_in_user_code(CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isFromMainFile(loc))
        return true;
    if (clang_Location_isInSystemHeader(loc))
        return false;
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    if (!f)
        return false;
    CXString name = clang_getFileName(f);
    const char *p = clang_getCString(name);
    bool user = p && strncmp(p, KC_CUDA_SHIM_ROOT "/", strlen(KC_CUDA_SHIM_ROOT) + 1) != 0;
    clang_disposeString(name);
    return user;
}

typedef struct attr_find {
    enum CXCursorKind kind;
    bool found;
} attr_find;

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    attr_find *f = data;
    if (c.kind == f->kind) {
        f->found = true;
        return CXChildVisit_Break;
    }
    /* Attributes come before the parameters and the body. */
    return c.kind == CXCursor_CompoundStmt ? CXChildVisit_Break : CXChildVisit_Continue;
}

bool kc_cuda_has_attr(CXCursor decl, enum CXCursorKind attr)
{
    attr_find f = {attr, false};
    clang_visitChildren(decl, attr_visit, &f);
    return f.found;
}

kc_space kc_cuda_decl_space(CXCursor decl, kc_space otherwise)
{
    if (kc_cuda_has_attr(decl, CXCursor_CUDASharedAttr))
        return KC_MEM_SHARED;
    if (kc_cuda_has_attr(decl, CXCursor_CUDAConstantAttr))
        return KC_MEM_CONSTANT;
    return otherwise;
}

/* ---- what the translation-unit walk recorded --------------------------------- */

unsigned kc_cuda_tvals_for(const kc_cuda_tu *t, CXCursor tmpl, unsigned param, int64_t *vals, unsigned max,
                           uint32_t *first_line)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < t->tvals.len; i++) {
        const kc_cuda_tval *v = &t->tvals.data[i];
        if (v->param != param || !clang_equalCursors(v->tmpl, tmpl))
            continue;
        bool dup = false;
        for (unsigned j = 0; j < n; j++)
            dup |= vals[j] == v->value;
        if (dup)
            continue;
        if (n == 0 && first_line)
            *first_line = v->line;
        if (n < max)
            vals[n++] = v->value;
    }
    return n;
}

/* The call of the execution configuration that clang puts under a
 * `<<<...>>>` launch. */
bool kc_cuda_is_config_call(CXCursor c)
{
    if (c.kind != CXCursor_CallExpr)
        return false;
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(ref))
        return false;
    CXString s = clang_getCursorSpelling(ref);
    const char *p = clang_getCString(s);
    bool yes = p && (strcmp(p, "cudaConfigureCall") == 0 || strcmp(p, "__cudaPushCallConfiguration") == 0);
    clang_disposeString(s);
    return yes;
}

/* ---- expressions ------------------------------------------------------------- */

bool kc_cuda_eval_int(CXCursor c, int64_t *out)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *out = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                 : clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
    return ok;
}

bool kc_cuda_eval_constant(CXCursor c)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return false;
    CXEvalResultKind k = clang_EvalResult_getKind(r);
    clang_EvalResult_dispose(r);
    return k == CXEval_Int || k == CXEval_Float;
}

bool kc_cuda_is_launch(CXCursor call)
{
    if (call.kind != CXCursor_CallExpr)
        return false;
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    bool yes = false;
    for (unsigned i = 0; i < k.n && !yes; i++)
        yes = kc_cuda_is_config_call(k.v[i]);
    kc_cuda_kids_free(&k);
    return yes;
}

#define PARAM_DEPTH 4

struct kc_cuda_param_index {
    uint32_t *order;       /* argspaces indexes, by callee name */
    uint32_t *group_start; /* group g: order[group_start[g]] up to order[group_start[g + 1]] */
    uint32_t ngroups;
    unsigned *nparams;     /* per group: 1 + its largest argument index */
    uint8_t **memo;        /* per group: [param * (PARAM_DEPTH + 1) + depth] = space + 1 once known */
};

static kc_cuda_param_index *param_index(kc_cuda_tu *t)
{
    if (t->param_index)
        return t->param_index;
    kc_cuda_param_index *ix = kc_xcalloc(1, sizeof *ix);
    uint32_t n = t->argspaces.len;
    kc_name_index *byname = kc_xcalloc(n ? n : 1, sizeof *byname);
    for (uint32_t i = 0; i < n; i++)
        byname[i] = (kc_name_index){t->argspaces.data[i].callee, i};
    qsort(byname, n, sizeof *byname, kc_name_index_cmp);
    ix->order = kc_xcalloc(n ? n : 1, sizeof *ix->order);
    for (uint32_t i = 0; i < n; i++)
        ix->order[i] = byname[i].index;
    free(byname);
    ix->group_start = kc_xcalloc(n + 1, sizeof *ix->group_start);
    ix->nparams = kc_xcalloc(n ? n : 1, sizeof *ix->nparams);
    for (uint32_t i = 0; i < n; i++) {
        const kc_cuda_argspace *a = &t->argspaces.data[ix->order[i]];
        if (i == 0 || strcmp(a->callee, t->argspaces.data[ix->order[i - 1]].callee) != 0)
            ix->group_start[ix->ngroups++] = i;
        unsigned *np = &ix->nparams[ix->ngroups - 1];
        if (a->arg + 1 > *np)
            *np = a->arg + 1;
    }
    ix->group_start[ix->ngroups] = n;
    ix->memo = kc_xcalloc(ix->ngroups ? ix->ngroups : 1, sizeof *ix->memo);
    t->param_index = ix;
    return ix;
}

void kc_cuda_param_index_free(kc_cuda_tu *t)
{
    kc_cuda_param_index *ix = t->param_index;
    if (!ix)
        return;
    for (uint32_t g = 0; g < ix->ngroups; g++)
        free(ix->memo[g]);
    free(ix->memo);
    free(ix->nparams);
    free(ix->group_start);
    free(ix->order);
    free(ix);
    t->param_index = NULL;
}

/* The group of the calls of `fn`, or UINT32_MAX when nothing calls it. */
static uint32_t param_group(const kc_cuda_tu *t, const kc_cuda_param_index *ix, const char *fn)
{
    uint32_t a = 0, b = ix->ngroups;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        int c = strcmp(t->argspaces.data[ix->order[ix->group_start[mid]]].callee, fn);
        if (c == 0)
            return mid;
        if (c < 0)
            a = mid + 1;
        else
            b = mid;
    }
    return UINT32_MAX;
}

static kc_space param_space(kc_cuda_tu *t, const char *fn, unsigned param, unsigned depth)
{
    kc_cuda_param_index *ix = param_index(t);
    uint32_t g = param_group(t, ix, fn);
    /* no call in the file: the helper may be given registers, shared or
     * global memory (an inline helper pasted into many files and called
     * from none, a header's helper called from other files) */
    if (g == UINT32_MAX)
        return KC_MEM_UNKNOWN;
    /* called, but never with this argument (a default argument, a pack) */
    if (param >= ix->nparams[g])
        return KC_MEM_GLOBAL;
    if (!ix->memo[g])
        ix->memo[g] = kc_xcalloc((size_t)ix->nparams[g] * (PARAM_DEPTH + 1), 1);
    uint8_t *known = &ix->memo[g][param * (PARAM_DEPTH + 1) + depth];
    if (*known)
        return (kc_space)(*known - 1);
    bool any = false, shared = false, other = false, passed = false;
    for (uint32_t k = ix->group_start[g]; k < ix->group_start[g + 1]; k++) {
        const kc_cuda_argspace *a = &t->argspaces.data[ix->order[k]];
        if (a->arg != param)
            continue;
        if (a->via && !a->via_kernel && strcmp(a->via, fn) != 0) {
            /* the caller's parameter: where its callers point it */
            kc_space s = depth < PARAM_DEPTH ? param_space(t, a->via, a->via_param, depth + 1) : KC_MEM_UNKNOWN;
            passed = true;
            if (s == KC_MEM_UNKNOWN)
                continue;
            *(s == KC_MEM_SHARED ? &shared : s == KC_MEM_LOCAL ? &any : &other) = true;
            continue;
        }
        if (a->shared)
            shared = true;
        else if (!a->local)
            other = true;
        else
            any = true;
    }
    kc_space r;
    /* only callers nothing calls pass it on: may point anywhere */
    if (passed && !shared && !other && !any)
        r = KC_MEM_UNKNOWN;
    /* pointers into shared memory from every call: shared; from some
     * calls, where others pass global memory: either */
    else if (shared)
        r = other || any ? KC_MEM_UNKNOWN : KC_MEM_SHARED;
    else if (other)
        r = KC_MEM_GLOBAL;
    else
        r = any ? KC_MEM_LOCAL : KC_MEM_GLOBAL;
    *known = (uint8_t)(r + 1);
    return r;
}

kc_space kc_cuda_param_space(kc_cuda_tu *t, const char *fn, unsigned param)
{
    return param_space(t, fn, param, 0);
}

/* ---- implicit nodes ---------------------------------------------------------- */

/* Parentheses and single-child implicit nodes (casts, temporaries)
 * stripped. With `names`, for kc_cuda_referenced_decl: libclang shows
 * some expressions it does not expose as an UnexposedExpr whose one child
 * is their base (`s->src`, a member of class type written through a
 * pointer, has `s` as its only child, over a shorter extent); such a
 * wrapper names no variable, and the result is null. */
static CXCursor unwrap(CXCursor c, bool names)
{
    for (int i = 0; i < 64; i++) {
        if (c.kind != CXCursor_ParenExpr && c.kind != CXCursor_UnexposedExpr)
            break;
        kc_cuda_kids k;
        kc_cuda_kids_get(c, &k);
        bool one = k.n == 1;
        CXCursor next = one ? k.v[0] : c;
        kc_cuda_kids_free(&k);
        if (!one)
            break;
        if (names && c.kind == CXCursor_UnexposedExpr &&
            !clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(next)))
            return clang_getNullCursor();
        c = next;
    }
    return c;
}

CXCursor kc_cuda_strip(CXCursor c) { return unwrap(c, false); }

CXCursor kc_cuda_callee_ref(CXCursor call)
{
    kc_cuda_kids k;
    kc_cuda_kids_get(call, &k);
    CXCursor callee = k.n >= 1 ? kc_cuda_strip(k.v[0]) : clang_getNullCursor();
    kc_cuda_kids_free(&k);
    return clang_Cursor_isNull(callee) ? callee : clang_getCursorReferenced(callee);
}

unsigned kc_cuda_arg_var(CXCursor call, unsigned i)
{
    if (clang_Cursor_getNumArguments(call) <= (int)i)
        return 0;
    CXCursor a = kc_cuda_strip(clang_Cursor_getArgument(call, i));
    kc_cuda_kids k;
    kc_cuda_kids_get(a, &k);
    if (a.kind == CXCursor_UnaryOperator && k.n == 1)
        a = kc_cuda_strip(k.v[0]);
    kc_cuda_kids_free(&k);
    return a.kind == CXCursor_DeclRefExpr ? clang_hashCursor(clang_getCursorReferenced(a)) : 0;
}

/* The variable an expression names, through parentheses and implicit
 * conversions only (null when it names none). */
CXCursor kc_cuda_referenced_decl(CXCursor c)
{
    c = unwrap(c, true);
    if (clang_Cursor_isNull(c) || c.kind != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(c);
}

bool kc_cuda_same_decl(CXCursor a, CXCursor b)
{
    return !clang_Cursor_isNull(a) && !clang_Cursor_isNull(b) && clang_equalCursors(a, b);
}

/* ---- types ------------------------------------------------------------------- */

bool kc_cuda_ty_is_int(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Char_U: case CXType_UChar: case CXType_Char16: case CXType_Char32:
    case CXType_UShort: case CXType_UInt: case CXType_ULong: case CXType_ULongLong:
    case CXType_UInt128: case CXType_Char_S: case CXType_SChar: case CXType_WChar:
    case CXType_Short: case CXType_Int: case CXType_Long: case CXType_LongLong:
    case CXType_Int128: case CXType_Enum:
        return true;
    default:
        return false;
    }
}

bool kc_cuda_ty_is_ptr(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer; }

bool kc_cuda_ty_is_array(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
    case CXType_DependentSizedArray:
        return true;
    default:
        return false;
    }
}

bool kc_cuda_ty_is_record(CXType t) { return clang_getCanonicalType(t).kind == CXType_Record; }

bool kc_cuda_ty_is_arith(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Bool: case CXType_Float: case CXType_Double: case CXType_LongDouble:
    case CXType_Half: case CXType_Float16: case CXType_BFloat16:
        return true;
    default:
        return kc_cuda_ty_is_int(t);
    }
}

/* Width in which an integer of this type is computed: 32 or 64 (0 unknown). */
uint8_t kc_cuda_ty_bits(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_Char16:
    case CXType_Char32: case CXType_UShort: case CXType_UInt: case CXType_Char_S:
    case CXType_SChar: case CXType_WChar: case CXType_Short: case CXType_Int: case CXType_Enum:
        return 32;
    case CXType_Long: case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
    case CXType_Int128: case CXType_UInt128: case CXType_Pointer:
        return 64;
    default:
        return 0;
    }
}

static CXType ty_elem(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_Pointer)
        return clang_getPointeeType(c);
    if (kc_cuda_ty_is_array(c))
        return clang_getArrayElementType(c);
    return c;
}

/* Scalar elements per step of a pointer to / array of `t`'s element:
 * 1 for `float *`, 33 for `float (*)[33]`; -1 when unknown. */
int64_t kc_cuda_ty_step_elems(CXType t)
{
    CXType e = ty_elem(t);
    int64_t n = 1;
    for (int i = 0; i < 16 && kc_cuda_ty_is_array(e); i++) {
        long long d = clang_getArraySize(clang_getCanonicalType(e));
        if (d < 0 || n > INT64_MAX / (d ? d : 1))
            return -1;
        n *= d;
        e = clang_getArrayElementType(clang_getCanonicalType(e));
    }
    return n;
}

CXType kc_cuda_ty_innermost(CXType t)
{
    CXType e = clang_getCanonicalType(t);
    for (int i = 0; i < 16 && kc_cuda_ty_is_array(e); i++)
        e = clang_getArrayElementType(clang_getCanonicalType(e));
    return e;
}

uint8_t kc_cuda_ty_size(CXType t)
{
    long long s = clang_Type_getSizeOf(t);
    return s > 0 && s <= 255 ? (uint8_t)s : 0;
}

/* The pointee as written (`T` in a template), falling back to the
 * canonical type's pointee for typedefs of pointers. */
CXType kc_cuda_ty_pointee(CXType t)
{
    CXType p = clang_getPointeeType(t);
    if (p.kind == CXType_Invalid)
        p = clang_getPointeeType(clang_getCanonicalType(t));
    return p;
}

/* ---- operators --------------------------------------------------------------- */

kc_cmp kc_cuda_cmp_of(enum CXBinaryOperatorKind op)
{
    switch (op) {
    case CXBinaryOperator_LT: return KC_CMP_LT;
    case CXBinaryOperator_GT: return KC_CMP_GT;
    case CXBinaryOperator_LE: return KC_CMP_LE;
    case CXBinaryOperator_GE: return KC_CMP_GE;
    case CXBinaryOperator_EQ: return KC_CMP_EQ;
    case CXBinaryOperator_NE: return KC_CMP_NE;
    default: return (kc_cmp)0;
    }
}

enum CXBinaryOperatorKind kc_cuda_binop_of(CXCursor c)
{
    if (c.kind == CXCursor_BinaryOperator || c.kind == CXCursor_CompoundAssignOperator)
        return clang_getCursorBinaryOperatorKind(c);
    char op[8];
    unsigned n = 0;
    bool prefix = false;
    if (!call_operator(c, op, sizeof op, &n, &prefix)[0] || n != 2)
        return CXBinaryOperator_Invalid;
    static const struct {
        const char *s;
        enum CXBinaryOperatorKind k;
    } ops[] = {
        {"*", CXBinaryOperator_Mul},       {"/", CXBinaryOperator_Div},        {"%", CXBinaryOperator_Rem},
        {"+", CXBinaryOperator_Add},       {"-", CXBinaryOperator_Sub},        {"<<", CXBinaryOperator_Shl},
        {">>", CXBinaryOperator_Shr},      {"<", CXBinaryOperator_LT},         {">", CXBinaryOperator_GT},
        {"<=", CXBinaryOperator_LE},       {">=", CXBinaryOperator_GE},        {"==", CXBinaryOperator_EQ},
        {"!=", CXBinaryOperator_NE},       {"&", CXBinaryOperator_And},        {"^", CXBinaryOperator_Xor},
        {"|", CXBinaryOperator_Or},        {"&&", CXBinaryOperator_LAnd},      {"||", CXBinaryOperator_LOr},
        {"=", CXBinaryOperator_Assign},    {"*=", CXBinaryOperator_MulAssign}, {"/=", CXBinaryOperator_DivAssign},
        {"%=", CXBinaryOperator_RemAssign}, {"+=", CXBinaryOperator_AddAssign}, {"-=", CXBinaryOperator_SubAssign},
        {"<<=", CXBinaryOperator_ShlAssign}, {">>=", CXBinaryOperator_ShrAssign}, {"&=", CXBinaryOperator_AndAssign},
        {"^=", CXBinaryOperator_XorAssign}, {"|=", CXBinaryOperator_OrAssign},  {",", CXBinaryOperator_Comma},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i].s) == 0)
            return ops[i].k;
    return CXBinaryOperator_Invalid;
}

enum CXUnaryOperatorKind kc_cuda_unop_of(CXCursor c)
{
    if (c.kind == CXCursor_UnaryOperator)
        return clang_getCursorUnaryOperatorKind(c);
    char op[8];
    unsigned n = 0;
    bool prefix = false;
    if (!call_operator(c, op, sizeof op, &n, &prefix)[0] || n != 1)
        return CXUnaryOperator_Invalid;
    if (strcmp(op, "++") == 0)
        return prefix ? CXUnaryOperator_PreInc : CXUnaryOperator_PostInc;
    if (strcmp(op, "--") == 0)
        return prefix ? CXUnaryOperator_PreDec : CXUnaryOperator_PostDec;
    if (!prefix)
        return CXUnaryOperator_Invalid;
    static const struct {
        const char *s;
        enum CXUnaryOperatorKind k;
    } ops[] = {{"-", CXUnaryOperator_Minus}, {"+", CXUnaryOperator_Plus},  {"!", CXUnaryOperator_LNot},
               {"~", CXUnaryOperator_Not},   {"*", CXUnaryOperator_Deref}, {"&", CXUnaryOperator_AddrOf}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i].s) == 0)
            return ops[i].k;
    return CXUnaryOperator_Invalid;
}

/* ---- tokens ------------------------------------------------------------------ */

void kc_cuda_toks_get(const kc_cuda_tu *t, CXSourceLocation a, CXSourceLocation b, kc_cuda_toks *out)
{
    out->tu = t->tu;
    out->v = NULL;
    out->n = 0;
    clang_tokenize(out->tu, clang_getRange(a, b), &out->v, &out->n);
}

void kc_cuda_main_toks(kc_cuda_tu *t, size_t a, size_t b, kc_cuda_toks *out)
{
    out->tu = t->tu;
    out->v = NULL;
    out->n = 0;
    if (!t->main_toks_done) {
        t->main_toks_done = true;
        clang_tokenize(t->tu, clang_getCursorExtent(clang_getTranslationUnitCursor(t->tu)), &t->main_toks,
                       &t->main_ntoks);
        t->main_tok_off = kc_xcalloc(t->main_ntoks ? t->main_ntoks : 1, sizeof *t->main_tok_off);
        for (unsigned i = 0; i < t->main_ntoks; i++)
            clang_getSpellingLocation(clang_getTokenLocation(t->tu, t->main_toks[i]), NULL, NULL, NULL,
                                      &t->main_tok_off[i]);
    }
    unsigned lo = 0, hi = t->main_ntoks;
    while (lo < hi) { /* the first token at or after a */
        unsigned mid = lo + (hi - lo) / 2;
        if (t->main_tok_off[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    unsigned end = lo;
    while (end < t->main_ntoks && t->main_tok_off[end] <= b)
        end++;
    if (end > lo) {
        out->v = t->main_toks + lo;
        out->n = end - lo;
    }
}

void kc_cuda_tu_free_toks(kc_cuda_tu *t)
{
    if (t->main_toks)
        clang_disposeTokens(t->tu, t->main_toks, t->main_ntoks);
    free(t->main_tok_off);
    t->main_toks = NULL;
    t->main_tok_off = NULL;
    t->main_ntoks = 0;
}

void kc_cuda_toks_free(kc_cuda_toks *t)
{
    if (t->v)
        clang_disposeTokens(t->tu, t->v, t->n);
    t->v = NULL;
    t->n = 0;
}

bool kc_cuda_tok_is(kc_cuda_toks *t, unsigned i, const char *s)
{
    if (i >= t->n)
        return false;
    CXString sp = clang_getTokenSpelling(t->tu, t->v[i]);
    bool yes = clang_getCString(sp) && strcmp(clang_getCString(sp), s) == 0;
    clang_disposeString(sp);
    return yes;
}

unsigned kc_cuda_tok_off(kc_cuda_toks *t, unsigned i, unsigned *line)
{
    unsigned off = 0, l = 0;
    clang_getExpansionLocation(clang_getTokenLocation(t->tu, t->v[i]), NULL, &l, NULL, &off);
    if (line)
        *line = l;
    return off;
}

unsigned kc_cuda_cursor_off(CXCursor c)
{
    unsigned off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
    return off;
}

/* `while (true) { ...; break; }`: a body whose last statement is an
 * unconditional break (a block to break out of, as cuBQL's node builders
 * write). */
static bool ends_in_break(CXCursor body)
{
    if (body.kind != CXCursor_CompoundStmt)
        return body.kind == CXCursor_BreakStmt;
    kc_cuda_kids k;
    kc_cuda_kids_get(body, &k);
    bool last_break = k.n > 0 && k.v[k.n - 1].kind == CXCursor_BreakStmt;
    kc_cuda_kids_free(&k);
    return last_break;
}

void kc_cuda_mark_one_pass(kc_loop *lp, CXCursor body, bool has_continue)
{
    if (has_continue || !ends_in_break(body))
        return;
    lp->one_pass = true;
    if (lp->trip_count > 1)
        lp->trip_count = -1;
    lp->trip_max = 1;
}

/* The least value of a start made of a constant and threadIdx terms with
 * positive coefficients (`threadIdx.y`, `tx + 32 * ty + 4`): the
 * constant. False for anything else. */
static bool lane_start_min(const kc_index *x, int64_t *min)
{
    *min = 0;
    for (unsigned i = 0; x && i < x->nmono; i++) {
        const kc_mono *mo = &x->mono[i];
        if (mo->nfac == 0)
            *min += mo->coef;
        else if (mo->nfac != 1 || mo->fac[0].kind != KC_ATOM_LANE || mo->fac[0].id > 2 || mo->coef <= 0)
            return false;
    }
    return x != NULL;
}

void kc_cuda_trip_max(const kc_kernel *k, kc_loop *lp, unsigned shrink_bits)
{
    if (lp->trip_count >= 0)
        return;
    if (shrink_bits) {
        lp->trip_max = shrink_bits;
        return;
    }
    const kc_index *e = lp->end;
    int64_t z, s, end;
    /* a loop from the thread's row up to a constant, by a step at least
     * that far (`for (n = threadIdx.y; n < 3; n += 4)`): a pass or none */
    if (e && kc_index_is_const(e, &end) && lane_start_min(lp->start, &z) && lp->step &&
        kc_index_is_const(lp->step, &s) && s > 0 && end - z <= 64 * s) {
        lp->trip_max = end > z ? (end - z + s - 1) / s : 0;
        return;
    }
    if (!e || e->nmono != 1 || e->mono[0].coef != 1 || e->mono[0].nfac != 1 ||
        e->mono[0].fac[0].kind != KC_ATOM_OPAQUE || e->mono[0].fac[0].id >= k->opaques.len || !lp->start ||
        !kc_index_is_const(lp->start, &z) || !lp->step || !kc_index_is_const(lp->step, &s) || s <= 0)
        return;
    const kc_opaque *o = &k->opaques.data[e->mono[0].fac[0].id];
    if (o->bounded && o->at_most > z && o->at_most - z <= INT32_MAX)
        lp->trip_max = (o->at_most - z + s - 1) / s;
}
