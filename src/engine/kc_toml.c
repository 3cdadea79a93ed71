/* kc_toml.c — a TOML reader for pyproject.toml's [tool.kcheck] (kc_toml.h). */
#include "kc_toml.h"

#include "kc_base.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TOML_MAX_DEPTH 64

typedef enum tkind { T_SCALAR, T_ARRAY, T_TABLE } tkind;

typedef struct tnode tnode;
struct tnode {
    tkind kind;
    char *text;    /* T_SCALAR: the value as text (strings unescaped) */
    unsigned line; /* where it was written */
    bool aot;      /* T_ARRAY made by [[...]] headers */
    KC_VEC(tnode *) items; /* T_ARRAY */
    KC_VEC(char *) keys;   /* T_TABLE, with vals */
    KC_VEC(tnode *) vals;
};

typedef struct tp {
    const char *s, *e;
    unsigned line;
    char *err;
} tp;

static tnode *tnew(tkind k, unsigned line)
{
    tnode *n = kc_xcalloc(1, sizeof *n);
    n->kind = k;
    n->line = line;
    return n;
}

static void tfree(tnode *n)
{
    if (!n)
        return;
    free(n->text);
    for (uint32_t i = 0; i < n->items.len; i++)
        tfree(n->items.data[i]);
    kc_vec_free(&n->items);
    for (uint32_t i = 0; i < n->keys.len; i++) {
        free(n->keys.data[i]);
        tfree(n->vals.data[i]);
    }
    kc_vec_free(&n->keys);
    kc_vec_free(&n->vals);
    free(n);
}

static bool perr(tp *p, const char *fmt, ...) KC_PRINTF(2, 3);
static bool perr(tp *p, const char *fmt, ...)
{
    if (p->err)
        return false;
    va_list ap;
    va_start(ap, fmt);
    char *m = kc_xvasprintf(fmt, ap);
    va_end(ap);
    p->err = kc_xasprintf("line %u: %s", p->line, m);
    free(m);
    return false;
}

static void skip_ws(tp *p)
{
    while (p->s < p->e && (*p->s == ' ' || *p->s == '\t'))
        p->s++;
}

/* White space, newlines and comments (inside arrays). */
static void skip_all(tp *p)
{
    for (;;) {
        skip_ws(p);
        if (p->s < p->e && *p->s == '#')
            while (p->s < p->e && *p->s != '\n')
                p->s++;
        if (p->s < p->e && (*p->s == '\n' || *p->s == '\r')) {
            p->line += *p->s == '\n';
            p->s++;
            continue;
        }
        return;
    }
}

static bool at(const tp *p, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(p->e - p->s) >= n && memcmp(p->s, lit, n) == 0;
}

static void put_utf8(kc_strbuf *sb, uint32_t c)
{
    if (c < 0x80)
        kc_sb_putc(sb, (char)c);
    else if (c < 0x800) {
        kc_sb_putc(sb, (char)(0xC0 | (c >> 6)));
        kc_sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        kc_sb_putc(sb, (char)(0xE0 | (c >> 12)));
        kc_sb_putc(sb, (char)(0x80 | ((c >> 6) & 0x3F)));
        kc_sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    } else {
        kc_sb_putc(sb, (char)(0xF0 | (c >> 18)));
        kc_sb_putc(sb, (char)(0x80 | ((c >> 12) & 0x3F)));
        kc_sb_putc(sb, (char)(0x80 | ((c >> 6) & 0x3F)));
        kc_sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    }
}

/* A string at p->s (its opening quote), unescaped; NULL on an error. */
static char *parse_string(tp *p)
{
    bool literal = *p->s == '\'';
    const char *q3 = literal ? "'''" : "\"\"\"";
    bool multi = at(p, q3);
    char q = literal ? '\'' : '"';
    p->s += multi ? 3 : 1;
    if (multi && p->s < p->e && (*p->s == '\n' || (*p->s == '\r' && p->s + 1 < p->e && p->s[1] == '\n'))) {
        p->s += *p->s == '\r' ? 2 : 1; /* a newline right after the opening quotes is not content */
        p->line++;
    }
    kc_strbuf sb = {0};
    for (;;) {
        if (p->s >= p->e) {
            kc_sb_free(&sb);
            perr(p, "unterminated string");
            return NULL;
        }
        char c = *p->s;
        if (multi ? at(p, q3) : c == q) {
            p->s += multi ? 3 : 1;
            /* up to two more quotes just before the closing three belong to the string */
            while (multi && p->s < p->e && *p->s == q && sb.len < (size_t)-1) {
                kc_sb_putc(&sb, q);
                p->s++;
            }
            break;
        }
        if (c == '\n') {
            if (!multi) {
                kc_sb_free(&sb);
                perr(p, "newline in a one-line string");
                return NULL;
            }
            p->line++;
        }
        if (c != '\\' || literal) {
            kc_sb_putc(&sb, c);
            p->s++;
            continue;
        }
        p->s++;
        if (p->s >= p->e)
            continue;
        char e = *p->s++;
        uint32_t u = 0;
        int hex = e == 'u' ? 4 : e == 'U' ? 8 : 0;
        switch (e) {
        case 'b': kc_sb_putc(&sb, '\b'); break;
        case 't': kc_sb_putc(&sb, '\t'); break;
        case 'n': kc_sb_putc(&sb, '\n'); break;
        case 'f': kc_sb_putc(&sb, '\f'); break;
        case 'r': kc_sb_putc(&sb, '\r'); break;
        case '"': kc_sb_putc(&sb, '"'); break;
        case '\\': kc_sb_putc(&sb, '\\'); break;
        case 'u':
        case 'U':
            for (int i = 0; i < hex; i++, p->s++) {
                char h = p->s < p->e ? *p->s : 0;
                int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                                         : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (v < 0) {
                    kc_sb_free(&sb);
                    perr(p, "bad \\%c escape", e);
                    return NULL;
                }
                u = u * 16 + (uint32_t)v;
            }
            if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) {
                kc_sb_free(&sb);
                perr(p, "escape \\%c of a value that is not a character", e);
                return NULL;
            }
            put_utf8(&sb, u);
            break;
        default:
            if (multi && (e == '\n' || e == ' ' || e == '\t' || e == '\r')) {
                /* a line-ending backslash: the white space up to the next text goes */
                p->s--;
                while (p->s < p->e && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) {
                    p->line += *p->s == '\n';
                    p->s++;
                }
                break;
            }
            kc_sb_free(&sb);
            perr(p, "unknown escape \\%c", e);
            return NULL;
        }
    }
    char *r = kc_sb_take(&sb);
    return r ? r : kc_xstrdup("");
}

static bool bare_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* One key part: bare, "basic" or 'literal'. */
static char *parse_key_part(tp *p)
{
    if (p->s < p->e && (*p->s == '"' || *p->s == '\'')) {
        if (at(p, "\"\"\"") || at(p, "'''")) {
            perr(p, "a key cannot be a multi-line string");
            return NULL;
        }
        return parse_string(p);
    }
    const char *b = p->s;
    while (p->s < p->e && bare_char(*p->s))
        p->s++;
    if (p->s == b) {
        perr(p, "expected a key");
        return NULL;
    }
    return kc_xstrndup(b, (size_t)(p->s - b));
}

typedef KC_VEC(char *) key_path;

static void key_path_free(key_path *k)
{
    for (uint32_t i = 0; i < k->len; i++)
        free(k->data[i]);
    kc_vec_free(k);
}

static bool parse_key(tp *p, key_path *out)
{
    for (;;) {
        skip_ws(p);
        char *part = parse_key_part(p);
        if (!part)
            return false;
        kc_vec_push(out, part);
        skip_ws(p);
        if (p->s < p->e && *p->s == '.') {
            p->s++;
            continue;
        }
        return true;
    }
}

static tnode *table_get(tnode *t, const char *key)
{
    for (uint32_t i = 0; i < t->keys.len; i++)
        if (!strcmp(t->keys.data[i], key))
            return t->vals.data[i];
    return NULL;
}

static void table_put(tnode *t, const char *key, tnode *v)
{
    kc_vec_push(&t->keys, kc_xstrdup(key));
    kc_vec_push(&t->vals, v);
}

/* The table at `key` under `t`, made when missing; an array of tables
 * stands for its last element. NULL (an error) when the key holds a value. */
static tnode *subtable(tp *p, tnode *t, const char *key)
{
    tnode *v = table_get(t, key);
    if (!v) {
        v = tnew(T_TABLE, p->line);
        table_put(t, key, v);
        return v;
    }
    if (v->kind == T_TABLE)
        return v;
    if (v->kind == T_ARRAY && v->aot && v->items.len)
        return v->items.data[v->items.len - 1];
    perr(p, "`%s` is already a value, not a table", key);
    return NULL;
}

static tnode *parse_value(tp *p, int depth);

/* `key = value` into `table` (dotted keys make the subtables); `where`
 * completes the message for a missing `=`. */
static bool parse_keyval(tp *p, tnode *table, int depth, const char *where)
{
    key_path k = {0};
    bool ok = parse_key(p, &k);
    tnode *into = table;
    for (uint32_t i = 0; ok && i + 1 < k.len; i++)
        ok = (into = subtable(p, into, k.data[i])) != NULL;
    skip_ws(p);
    if (ok && (p->s >= p->e || *p->s != '='))
        ok = perr(p, "expected `=` %s", where);
    tnode *v = NULL;
    if (ok) {
        p->s++;
        skip_ws(p);
        v = parse_value(p, depth);
        ok = v != NULL;
    }
    if (ok && table_get(into, k.data[k.len - 1]))
        ok = perr(p, "duplicate key `%s`", k.data[k.len - 1]);
    if (ok)
        table_put(into, k.data[k.len - 1], v);
    else
        tfree(v);
    key_path_free(&k);
    return ok;
}

static tnode *parse_inline_table(tp *p, int depth)
{
    tnode *t = tnew(T_TABLE, p->line);
    p->s++; /* { */
    skip_ws(p);
    if (p->s < p->e && *p->s == '}') {
        p->s++;
        return t;
    }
    for (;;) {
        if (!parse_keyval(p, t, depth + 1, "in an inline table")) {
            tfree(t);
            return NULL;
        }
        skip_ws(p);
        if (p->s < p->e && *p->s == ',') {
            p->s++;
            skip_ws(p);
            continue;
        }
        if (p->s < p->e && *p->s == '}') {
            p->s++;
            return t;
        }
        perr(p, "expected `,` or `}` in an inline table");
        tfree(t);
        return NULL;
    }
}

static tnode *parse_value(tp *p, int depth)
{
    if (depth > TOML_MAX_DEPTH) {
        perr(p, "values nested too deep");
        return NULL;
    }
    if (p->s >= p->e) {
        perr(p, "expected a value");
        return NULL;
    }
    char c = *p->s;
    if (c == '"' || c == '\'') {
        unsigned line = p->line;
        char *s = parse_string(p);
        if (!s)
            return NULL;
        tnode *n = tnew(T_SCALAR, line);
        n->text = s;
        return n;
    }
    if (c == '[') {
        tnode *a = tnew(T_ARRAY, p->line);
        p->s++;
        for (;;) {
            skip_all(p);
            if (p->s < p->e && *p->s == ']') {
                p->s++;
                return a;
            }
            tnode *v = parse_value(p, depth + 1);
            if (!v) {
                tfree(a);
                return NULL;
            }
            kc_vec_push(&a->items, v);
            skip_all(p);
            if (p->s < p->e && *p->s == ',') {
                p->s++;
                continue;
            }
            if (p->s < p->e && *p->s == ']') {
                p->s++;
                return a;
            }
            perr(p, "expected `,` or `]` in an array");
            tfree(a);
            return NULL;
        }
    }
    if (c == '{')
        return parse_inline_table(p, depth);
    /* a number, a boolean, a date: its text (dates may hold one space) */
    const char *b = p->s;
    while (p->s < p->e && (bare_char(*p->s) || *p->s == '+' || *p->s == '.' || *p->s == ':' ||
                           (*p->s == ' ' && p->s > b && p->s[-1] >= '0' && p->s[-1] <= '9' && p->s + 1 < p->e &&
                            p->s[1] >= '0' && p->s[1] <= '9' && memchr(b, '-', (size_t)(p->s - b)))))
        p->s++;
    if (p->s == b) {
        perr(p, "expected a value");
        return NULL;
    }
    tnode *n = tnew(T_SCALAR, p->line);
    kc_strbuf sb = {0};
    bool number = (*b >= '0' && *b <= '9') || *b == '+' || *b == '-';
    for (const char *q = b; q < p->s; q++)
        if (!(number && *q == '_'))
            kc_sb_putc(&sb, *q);
    n->text = kc_sb_take(&sb);
    return n;
}

/* ---- the document ---- */

static bool parse_doc(tp *p, tnode *root)
{
    tnode *cur = root;
    while (p->s < p->e && !p->err) {
        skip_ws(p);
        if (p->s >= p->e)
            break;
        char c = *p->s;
        if (c == '#' || c == '\n' || c == '\r') {
            while (p->s < p->e && *p->s != '\n')
                p->s++;
            if (p->s < p->e) {
                p->s++;
                p->line++;
            }
            continue;
        }
        if (c == '[') {
            bool aot = at(p, "[[");
            p->s += aot ? 2 : 1;
            key_path k = {0};
            bool ok = parse_key(p, &k);
            if (ok && !(aot ? at(p, "]]") : at(p, "]")))
                ok = perr(p, "expected `%s` after a table name", aot ? "]]" : "]");
            if (ok)
                p->s += aot ? 2 : 1;
            tnode *t = root;
            for (uint32_t i = 0; ok && i + 1 < k.len; i++)
                ok = (t = subtable(p, t, k.data[i])) != NULL;
            if (ok && aot) {
                tnode *arr = table_get(t, k.data[k.len - 1]);
                if (!arr) {
                    arr = tnew(T_ARRAY, p->line);
                    arr->aot = true;
                    table_put(t, k.data[k.len - 1], arr);
                }
                if (arr->kind != T_ARRAY || !arr->aot)
                    ok = perr(p, "`%s` is not an array of tables", k.data[k.len - 1]);
                else {
                    cur = tnew(T_TABLE, p->line);
                    kc_vec_push(&arr->items, cur);
                }
            } else if (ok)
                ok = (cur = subtable(p, t, k.data[k.len - 1])) != NULL;
            key_path_free(&k);
            if (!ok)
                return false;
        } else {
            if (!parse_keyval(p, cur, 0, "after a key"))
                return false;
        }
        /* the rest of the line: white space and a comment */
        skip_ws(p);
        if (p->s < p->e && *p->s == '#')
            while (p->s < p->e && *p->s != '\n')
                p->s++;
        if (p->s < p->e && *p->s == '\r')
            p->s++;
        if (p->s < p->e && *p->s != '\n')
            return perr(p, "unexpected text after a value");
        if (p->s < p->e) {
            p->s++;
            p->line++;
        }
    }
    return !p->err;
}

static int emit(yaml_document_t *doc, const tnode *n)
{
    int id;
    if (n->kind == T_SCALAR) {
        id = yaml_document_add_scalar(doc, NULL, (yaml_char_t *)n->text, (int)strlen(n->text),
                                      YAML_PLAIN_SCALAR_STYLE);
    } else if (n->kind == T_ARRAY) {
        id = yaml_document_add_sequence(doc, NULL, YAML_FLOW_SEQUENCE_STYLE);
        for (uint32_t i = 0; id && i < n->items.len; i++) {
            int c = emit(doc, n->items.data[i]);
            if (!c || !yaml_document_append_sequence_item(doc, id, c))
                return 0;
        }
    } else {
        id = yaml_document_add_mapping(doc, NULL, YAML_BLOCK_MAPPING_STYLE);
        for (uint32_t i = 0; id && i < n->keys.len; i++) {
            const char *k = n->keys.data[i];
            int kid = yaml_document_add_scalar(doc, NULL, (yaml_char_t *)k, (int)strlen(k), YAML_PLAIN_SCALAR_STYLE);
            int vid = kid ? emit(doc, n->vals.data[i]) : 0;
            if (!vid || !yaml_document_append_mapping_pair(doc, id, kid, vid))
                return 0;
            yaml_node_t *kn = yaml_document_get_node(doc, kid);
            kn->start_mark.line = kn->end_mark.line = n->vals.data[i]->line ? n->vals.data[i]->line - 1 : 0;
        }
    }
    if (id) {
        yaml_node_t *yn = yaml_document_get_node(doc, id);
        yn->start_mark.line = yn->end_mark.line = n->line ? n->line - 1 : 0;
    }
    return id;
}

bool kc_toml_table(const char *text, size_t len, const char *table, yaml_document_t *doc, bool *found, char **err)
{
    *found = false;
    *err = NULL;
    tp p = {text, text + len, 1, NULL};
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        p.s += 3;
    tnode *root = tnew(T_TABLE, 1);
    if (!parse_doc(&p, root)) {
        *err = p.err ? p.err : kc_xstrdup("line 1: syntax error");
        tfree(root);
        return false;
    }
    const tnode *t = root;
    char *path = kc_xstrdup(table), *save = NULL;
    for (char *part = strtok_r(path, ".", &save); part && t; part = strtok_r(NULL, ".", &save))
        t = t->kind == T_TABLE ? table_get((tnode *)t, part) : NULL;
    free(path);
    yaml_document_initialize(doc, NULL, NULL, NULL, 1, 1);
    bool ok = true;
    if (t && t->kind == T_TABLE) {
        *found = true;
        ok = emit(doc, t) != 0;
        if (!ok) {
            yaml_document_delete(doc);
            *err = kc_xstrdup("line 1: out of memory");
        }
    }
    tfree(root);
    return ok;
}
