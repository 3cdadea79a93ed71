/* cuda_assert.c — divisibility asserted before a launch, read from the
 * text of the launching function (cuda_assert.h). The text, not the
 * parse: the checking macro of a PyTorch extension (`TORCH_CHECK`) comes
 * from a header kcheck usually does not have, and an unknown macro leaves
 * no expression behind. Comments and string literals are skipped. */
#include "cuda_assert.h"

#include "cuda_gaps.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>


static size_t skip_space(const char *t, size_t i, size_t to)
{
    while (i < to && isspace((unsigned char)t[i]))
        i++;
    return i;
}

static bool ci_has(const char *s, size_t n, const char *pat)
{
    size_t m = strlen(pat);
    for (size_t i = 0; i + m <= n; i++) {
        size_t k = 0;
        while (k < m && tolower((unsigned char)s[i + k]) == pat[k])
            k++;
        if (k == m)
            return true;
    }
    return false;
}

/* The end of the divisor that starts at j: the `==` or `!=` that closes
 * it at depth 0, or `to` when something else ends it first. */
static size_t divisor_end(const char *t, size_t j, size_t to)
{
    int depth = 0;
    for (size_t k = j; k + 1 < to; k++) {
        char c = t[k];
        if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']') {
            if (depth-- == 0)
                return to;
        } else if (depth == 0 && (c == '=' || c == '!') && t[k + 1] == '=')
            return k;
        else if (depth == 0 && strchr(";,{}&|?<>", c))
            return to;
    }
    return to;
}

/* The `(` that opens the parentheses around offset i, or `to` (none
 * before a statement boundary). */
static size_t open_paren(const char *t, size_t from, size_t i, size_t to)
{
    int depth = 0;
    while (i > from) {
        char c = t[--i];
        if (c == ')')
            depth++;
        else if (c == '(') {
            if (depth-- == 0)
                return i;
        } else if (depth == 0 && (c == ';' || c == '{' || c == '}'))
            return to;
    }
    return to;
}

/* The identifier (with `::`) written just before offset p: [*b, p'). */
static size_t word_before(const char *t, size_t from, size_t p, size_t *b)
{
    while (p > from && isspace((unsigned char)t[p - 1]))
        p--;
    size_t e = p;
    while (p > from && (kc_ident_char(t[p - 1]) || t[p - 1] == ':'))
        p--;
    *b = p;
    return e;
}

/* Does the statement after the `)` that closes the `(` at `open` leave
 * the function (throw, return, exit, abort)? */
static bool leaves_after(const char *t, size_t open, size_t to)
{
    int depth = 0;
    size_t k = open;
    for (; k < to; k++) {
        if (t[k] == '(')
            depth++;
        else if (t[k] == ')' && --depth == 0)
            break;
    }
    if (k >= to)
        return false;
    k = skip_space(t, k + 1, to);
    if (k < to && t[k] == '{')
        k = skip_space(t, k + 1, to);
    static const char *const exits[] = {"throw", "return", "exit", "abort", "std::abort", "std::exit", "std::terminate"};
    for (size_t i = 0; i < sizeof exits / sizeof exits[0]; i++) {
        size_t n = strlen(exits[i]);
        if (k + n <= to && strncmp(t + k, exits[i], n) == 0 && (k + n == to || !kc_ident_char(t[k + n])))
            return true;
    }
    return false;
}

bool kc_cuda_asserted_multiple(const char *t, size_t from, size_t to, const char *name, kc_arena *ar,
                               kc_cuda_multiple *out)
{
    size_t len = strlen(name);
    bool found = false;
    if (!len)
        return false;
    for (size_t i = from; i + len < to; i++) {
        size_t j = kc_cuda_skip_noise(t, to, i);
        if (j != i) {
            i = j - 1;
            continue;
        }
        if (strncmp(t + i, name, len) != 0 || (i > from && (kc_ident_char(t[i - 1]) || t[i - 1] == '.')) ||
            kc_ident_char(t[i + len]))
            continue;
        size_t p = skip_space(t, i + len, to);
        if (p >= to || t[p] != '%')
            continue;
        size_t d0 = skip_space(t, p + 1, to), de = divisor_end(t, d0, to);
        if (de >= to)
            continue;
        bool eq = t[de] == '=';
        size_t z = skip_space(t, de + 2, to);
        if (z >= to || t[z] != '0' || (z + 1 < to && (kc_ident_char(t[z + 1]) || t[z + 1] == '.')))
            continue;
        /* the whole test, or a conjunct of an assert / a disjunct of an
         * exit test: `n % 64 == 0 || tail_ok` asserts nothing */
        size_t after = skip_space(t, z + 1, to);
        char op = eq ? '&' : '|';
        if (after >= to ||
            !(t[after] == ')' || (eq && t[after] == ',') || (t[after] == op && after + 1 < to && t[after + 1] == op)))
            continue;
        size_t open = open_paren(t, from, i, to);
        if (open >= to)
            continue;
        size_t wb, we = word_before(t, from, open, &wb);
        bool ok = eq ? (ci_has(t + wb, we - wb, "assert") || ci_has(t + wb, we - wb, "check"))
                     : (we - wb == 2 && strncmp(t + wb, "if", 2) == 0 && leaves_after(t, open, to));
        if (!ok)
            continue;
        size_t e = de;
        while (e > d0 && isspace((unsigned char)t[e - 1]))
            e--;
        out->divisor = kc_arena_strndup(ar, t + d0, e - d0);
        char *end = NULL;
        long long v = strtoll(out->divisor, &end, 10);
        out->value = end && !*end && v > 0 ? v : 0;
        out->at = i;
        found = true;
    }
    return found;
}
