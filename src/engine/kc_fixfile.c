#include "kc_fixfile.h"

#include "kc_path.h"
#include "kc_fingerprint.h"
#include "kc_hash.h"
#include "kc_file.h"
#include "kc_fixit.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool kc_file_stamp_take(const char *path, kc_file_stamp *st)
{
    memset(st, 0, sizeof *st);
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return false;
    st->valid = true;
    st->size = sb.st_size;
    st->mtime = sb.st_mtim;
    st->mode = sb.st_mode & 07777;
    return true;
}

/* ---- applying fix-its ----------------------------------------------------- */

typedef struct range {
    size_t a, b;
} range;

char *kc_fix_text(const kc_source *src, const kc_diag_list *diags, size_t *len, size_t *nfixed, char **err)
{
    *nfixed = 0;
    *err = NULL;
    KC_VEC(kc_fixit) edits = {0};
    KC_VEC(range) taken = {0};
    for (uint32_t i = 0; i < diags->items.len; i++) {
        const kc_diag *d = &diags->items.data[i];
        if (!d->fixes.len)
            continue;
        bool clash = false, bad = false, dup = true;
        for (uint32_t k = 0; k < d->fixes.len && !clash && !bad; k++) {
            kc_span s = d->fixes.data[k].span;
            if (!kc_span_valid(s) || s.end_line > src->nlines) {
                bad = true;
                break;
            }
            size_t a = kc_source_offset(src, s.line, s.col), b = kc_source_offset(src, s.end_line, s.end_col);
            /* The same edit as one taken already (two findings that one
             * change fixes): nothing more to apply. */
            bool same = false;
            for (uint32_t t = 0; t < edits.len && !same; t++)
                same = taken.data[t].a == a && taken.data[t].b == b && edits.data[t].replacement && d->fixes.data[k].replacement &&
                       !strcmp(edits.data[t].replacement, d->fixes.data[k].replacement);
            dup &= same;
            if (same)
                continue;
            for (uint32_t t = 0; t < taken.len; t++) {
                /* Overlap, or two insertions at one point (order unknown). */
                if ((a < taken.data[t].b && taken.data[t].a < b) || (a == taken.data[t].a && (a == b || taken.data[t].a == taken.data[t].b)))
                    clash = true;
            }
        }
        if (clash || bad)
            continue;
        if (dup) {
            ++*nfixed;
            continue;
        }
        for (uint32_t k = 0; k < d->fixes.len; k++) {
            kc_span s = d->fixes.data[k].span;
            range r = {kc_source_offset(src, s.line, s.col), kc_source_offset(src, s.end_line, s.end_col)};
            kc_vec_push(&taken, r);
            kc_vec_push(&edits, d->fixes.data[k]);
        }
        ++*nfixed;
    }
    char *text = kc_fixit_apply(src, edits.data, edits.len, len, err);
    kc_vec_free(&edits);
    kc_vec_free(&taken);
    if (!text)
        *nfixed = 0;
    return text;
}

/* ---- writing ---------------------------------------------------------------- */

/* Is the file at `target` still the one kcheck read (size, modification
 * time, content)? */
static bool unchanged(const char *target, const kc_file_stamp *expect, struct stat *sb)
{
    char *now = NULL;
    size_t nlen = 0;
    bool same = stat(target, sb) == 0 && S_ISREG(sb->st_mode) && sb->st_size == expect->size &&
                sb->st_mtim.tv_sec == expect->mtime.tv_sec && sb->st_mtim.tv_nsec == expect->mtime.tv_nsec &&
                kc_read_all(target, &now, &nlen) && (off_t)nlen == expect->size &&
                kc_hash_bytes(now, nlen) == expect->hash;
    free(now);
    return same;
}

typedef struct recheck {
    const char *target;
    const kc_file_stamp *expect;
} recheck;

/* The last look before the rename: a save between the first check and now
 * (the write and its fsync take time) must not be lost. */
static bool still_unchanged(void *ud, char **err)
{
    recheck *r = ud;
    struct stat sb;
    if (unchanged(r->target, r->expect, &sb))
        return true;
    *err = kc_xstrdup("the file changed while kcheck wrote the fix; not fixed (run kcheck --fix again)");
    return false;
}

bool kc_file_replace(const char *path, const kc_file_stamp *expect, const char *data, size_t len, char **err)
{
    *err = NULL;
    char *target = realpath(path, NULL);
    if (!target) {
        *err = kc_xasprintf("cannot resolve %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = false;
    struct stat sb;
    if (!expect || !expect->valid || stat(target, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        *err = kc_xstrdup("the file is gone or is not a regular file; not fixed");
        goto out;
    }
    if (!unchanged(target, expect, &sb)) {
        *err = kc_xstrdup("the file changed since kcheck read it; not fixed (run kcheck --fix again)");
        goto out;
    }
    /* A rename gives the path a new file: other names of the old one (hard
     * links) would keep the old text, and a read-only file would become
     * writable. kcheck refuses both rather than do either silently. */
    if (sb.st_nlink > 1) {
        *err = kc_xasprintf("the file has %ju hard links, which a fix would split; not fixed", (uintmax_t)sb.st_nlink);
        goto out;
    }
    if (access(target, W_OK) != 0 || !(sb.st_mode & S_IWUSR)) {
        *err = kc_xstrdup("the file is read-only; not fixed");
        goto out;
    }
    /* Another user's file (root may write it): the fix would be made in
     * their name, by whoever ran kcheck. */
    if (sb.st_uid != geteuid() && !expect->any_owner) {
        *err = kc_xasprintf("the file belongs to another user (uid %ju); not fixed (--fix-any-owner fixes it)",
                            (uintmax_t)sb.st_uid);
        goto out;
    }
    recheck rc = {target, expect};
    kc_file_how how = {.mode = sb.st_mode & 07777, .durable = true, .owner = &sb, .still_ok = still_unchanged, .ud = &rc};
    ok = kc_file_write_replace(target, data, len, &how, err);
out:
    free(target);
    return ok;
}

/* ---- unified diff (Myers, on lines) ----------------------------------------- */

typedef struct line_ref {
    const char *p;
    size_t n; /* with the newline, if any */
    uint64_t h;
} line_ref;

typedef KC_VEC(line_ref) line_vec;

static void split_lines(const char *t, size_t len, line_vec *out)
{
    size_t s = 0;
    for (size_t i = 0; i < len; i++)
        if (t[i] == '\n') {
            line_ref l = {t + s, i + 1 - s, kc_hash_bytes(t + s, i + 1 - s)};
            kc_vec_push(out, l);
            s = i + 1;
        }
    if (s < len) {
        line_ref l = {t + s, len - s, kc_hash_bytes(t + s, len - s)};
        kc_vec_push(out, l);
    }
}

static bool line_eq(const line_ref *a, const line_ref *b)
{
    return a->h == b->h && a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

typedef enum { OP_EQ, OP_DEL, OP_INS } op_kind;
typedef struct diff_op {
    op_kind kind;
    uint32_t ai, bi; /* line indices (0-based) in a and b */
} diff_op;
typedef KC_VEC(diff_op) op_vec;

/* Myers' O((N+M)D) greedy algorithm with the V array of every step kept
 * for the backtrack; a and b are the lines between the common prefix and
 * suffix, which for fix-its is small. */
static void myers(const line_ref *a, long n, const line_ref *b, long m, uint32_t aoff, uint32_t boff, op_vec *ops)
{
    long max = n + m;
    if (max == 0)
        return;
    size_t width = (size_t)(2 * max + 1);
    KC_VEC(long *) trace = {0};
    long *v = kc_xcalloc(width, sizeof *v);
    long dfinal = -1;
    for (long d = 0; d <= max && dfinal < 0; d++) {
        long *snap = kc_xmalloc(width * sizeof *snap);
        memcpy(snap, v, width * sizeof *snap);
        kc_vec_push(&trace, snap);
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (k == -d || (k != d && v[max + k - 1] < v[max + k + 1]))
                x = v[max + k + 1];
            else
                x = v[max + k - 1] + 1;
            long y = x - k;
            while (x < n && y < m && line_eq(&a[x], &b[y])) {
                x++;
                y++;
            }
            v[max + k] = x;
            if (x >= n && y >= m) {
                dfinal = d;
                break;
            }
        }
    }
    /* Backtrack from (n, m). */
    op_vec rev = {0};
    long x = n, y = m;
    for (long d = dfinal; d > 0; d--) {
        long *pv = trace.data[d];
        long k = x - y;
        long pk = (k == -d || (k != d && pv[max + k - 1] < pv[max + k + 1])) ? k + 1 : k - 1;
        long px = pv[max + pk], py = px - pk;
        while (x > px && y > py) {
            diff_op o = {OP_EQ, (uint32_t)(x - 1) + aoff, (uint32_t)(y - 1) + boff};
            kc_vec_push(&rev, o);
            x--;
            y--;
        }
        if (x == px) {
            diff_op o = {OP_INS, (uint32_t)x + aoff, (uint32_t)(y - 1) + boff};
            kc_vec_push(&rev, o);
            y--;
        } else {
            diff_op o = {OP_DEL, (uint32_t)(x - 1) + aoff, (uint32_t)y + boff};
            kc_vec_push(&rev, o);
            x--;
        }
    }
    while (x > 0 && y > 0) {
        diff_op o = {OP_EQ, (uint32_t)(x - 1) + aoff, (uint32_t)(y - 1) + boff};
        kc_vec_push(&rev, o);
        x--;
        y--;
    }
    for (uint32_t i = rev.len; i-- > 0;)
        kc_vec_push(ops, rev.data[i]);
    kc_vec_free(&rev);
    for (uint32_t i = 0; i < trace.len; i++)
        free(trace.data[i]);
    kc_vec_free(&trace);
    free(v);
}

static void put_line(kc_strbuf *out, char mark, const line_ref *l)
{
    kc_sb_putc(out, mark);
    kc_sb_appendn(out, l->p, l->n);
    if (l->n == 0 || l->p[l->n - 1] != '\n')
        kc_sb_append(out, "\n\\ No newline at end of file\n");
}

#define CONTEXT 3

bool kc_diff_unified(kc_strbuf *out, const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen == blen && memcmp(a, b, alen) == 0)
        return false;
    line_vec la = {0}, lb = {0};
    split_lines(a, alen, &la);
    split_lines(b, blen, &lb);
    uint32_t pre = 0;
    while (pre < la.len && pre < lb.len && line_eq(&la.data[pre], &lb.data[pre]))
        pre++;
    uint32_t suf = 0;
    while (suf < la.len - pre && suf < lb.len - pre &&
           line_eq(&la.data[la.len - 1 - suf], &lb.data[lb.len - 1 - suf]))
        suf++;
    op_vec ops = {0};
    for (uint32_t i = 0; i < pre; i++) {
        diff_op o = {OP_EQ, i, i};
        kc_vec_push(&ops, o);
    }
    myers(la.data + pre, (long)(la.len - pre - suf), lb.data + pre, (long)(lb.len - pre - suf), pre, pre, &ops);
    for (uint32_t i = 0; i < suf; i++) {
        diff_op o = {OP_EQ, la.len - suf + i, lb.len - suf + i};
        kc_vec_push(&ops, o);
    }
    char *norm = kc_path_normalize(path);
    if (norm[0] == '/')
        kc_sb_appendf(out, "--- %s\n+++ %s\n", norm, norm);
    else
        kc_sb_appendf(out, "--- a/%s\n+++ b/%s\n", norm, norm);
    free(norm);
    /* Hunks: runs of changes with CONTEXT lines around, merged when close. */
    uint32_t i = 0;
    while (i < ops.len) {
        while (i < ops.len && ops.data[i].kind == OP_EQ)
            i++;
        if (i >= ops.len)
            break;
        uint32_t start = i >= CONTEXT ? i - CONTEXT : 0;
        uint32_t end = i; /* one past the last change of the hunk */
        for (uint32_t j = i; j < ops.len; j++) {
            if (ops.data[j].kind != OP_EQ) {
                end = j + 1;
                continue;
            }
            if (j - end >= 2 * CONTEXT)
                break;
        }
        uint32_t stop = end + CONTEXT < ops.len ? end + CONTEXT : ops.len;
        uint32_t na = 0, nb = 0;
        for (uint32_t j = start; j < stop; j++) {
            na += ops.data[j].kind != OP_INS;
            nb += ops.data[j].kind != OP_DEL;
        }
        uint32_t a0 = ops.data[start].ai, b0 = ops.data[start].bi;
        kc_sb_appendf(out, "@@ -%u,%u +%u,%u @@\n", na ? a0 + 1 : a0, na, nb ? b0 + 1 : b0, nb);
        for (uint32_t j = start; j < stop; j++) {
            const diff_op *o = &ops.data[j];
            if (o->kind == OP_EQ)
                put_line(out, ' ', &la.data[o->ai]);
            else if (o->kind == OP_DEL)
                put_line(out, '-', &la.data[o->ai]);
            else
                put_line(out, '+', &lb.data[o->bi]);
        }
        i = stop;
    }
    kc_vec_free(&ops);
    kc_vec_free(&la);
    kc_vec_free(&lb);
    return true;
}
