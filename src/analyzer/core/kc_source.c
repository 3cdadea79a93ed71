#define _GNU_SOURCE 1 /* memmem */
#include "kc_source.h"

#include "kc_base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t kc_utf8_invalid_at(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned min;
        unsigned cp;
        if ((c & 0xE0) == 0xC0) {
            need = 1;
            min = 0x80;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2;
            min = 0x800;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3;
            min = 0x10000;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + need >= n)
            return i;
        for (size_t k = 1; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += need + 1;
    }
    return (size_t)-1;
}

char *kc_utf8_lenient(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), bad = kc_utf8_invalid_at(p, n);
    if (bad == (size_t)-1)
        return NULL;
    kc_strbuf sb = {0};
    size_t i = 0;
    while (i < n) {
        bad = kc_utf8_invalid_at(p + i, n - i);
        if (bad == (size_t)-1) {
            kc_sb_appendn(&sb, s + i, n - i);
            break;
        }
        kc_sb_appendn(&sb, s + i, bad);
        kc_sb_append(&sb, "\xEF\xBF\xBD"); /* U+FFFD for the byte that is not */
        i += bad + 1;
    }
    return kc_sb_take(&sb);
}

/* The bytes that are not UTF-8 outside comments and string or character
 * literals (C and CUDA: line and block comments, "..." and '...'; Python: `#`
 * and the quotes, triple ones too), counted up to past `limit`, and the
 * first of them (*first, (size_t)-1 if none). A file in a legacy
 * encoding (Japanese comments in Shift-JIS, Chinese in GBK, Latin-1)
 * keeps them in comments and strings, which the front ends read as
 * opaque bytes; a file with many elsewhere is not source. */
static size_t invalid_in_code(const char *t, size_t len, bool python, size_t limit, size_t *first)
{
    enum { CODE, LINE, BLOCK, STR } st = CODE;
    char q = 0;
    bool triple = false;
    const unsigned char *p = (const unsigned char *)t;
    size_t bad = kc_utf8_invalid_at(p, len), n = 0, none = (size_t)-1;
    *first = none;
    for (size_t i = 0; i < len && bad != none && n <= limit; i++) {
        /* (bytes a delimiter or an escape stepped over are not code) */
        while (bad != none && bad <= i) {
            if (st == CODE && bad == i) {
                if (n == 0)
                    *first = bad;
                n++;
            }
            size_t next = kc_utf8_invalid_at(p + bad + 1, len - bad - 1);
            bad = next == none ? none : bad + 1 + next;
        }
        char c = t[i];
        if ((unsigned char)c >= 0x80)
            continue; /* no delimiter */
        if (st == CODE) {
            if (python ? c == '#' : (c == '/' && i + 1 < len && t[i + 1] == '/')) {
                st = LINE;
            } else if (!python && c == '/' && i + 1 < len && t[i + 1] == '*') {
                st = BLOCK, i++;
            } else if (c == '"' || (c == '\'' && !(i && kc_ident_char(t[i - 1])))) {
                q = c, st = STR;
                triple = python && i + 2 < len && t[i + 1] == c && t[i + 2] == c;
                i += triple ? 2 : 0;
            }
        } else if (st == LINE) {
            st = c == '\n' ? CODE : LINE;
        } else if (st == BLOCK) {
            if (c == '*' && i + 1 < len && t[i + 1] == '/')
                st = CODE, i++;
        } else if (c == '\\') {
            i++;
        } else if (c == q && (!triple || (i + 2 < len && t[i + 1] == q && t[i + 2] == q))) {
            st = CODE;
            i += triple ? 2 : 0;
        } else if (c == '\n' && !triple) {
            st = CODE; /* (an unterminated literal ends with its line) */
        }
    }
    return n;
}

static kc_source *finish(char *path, char *text, size_t len, size_t max_bytes, char **err)
{
    if (len > max_bytes) {
        *err = kc_xasprintf("file is too large (%zu bytes; the limit is %zu, see --max-file-size)",
                            len, max_bytes);
        goto fail;
    }
    if (len >= 2 && ((unsigned char)text[0] == 0xFF || (unsigned char)text[0] == 0xFE) &&
        (unsigned char)text[1] == ((unsigned char)text[0] ^ 0x01)) {
        *err = kc_xstrdup("UTF-16 text (a byte-order mark at the start); kcheck reads UTF-8 source: convert it "
                          "(`iconv -f UTF-16 -t UTF-8`)");
        goto fail;
    }
    const void *nul = memchr(text, '\0', len);
    if (nul) {
        size_t off = (size_t)((const char *)nul - text);
        *err = kc_xasprintf("binary file (NUL byte at offset %zu); not a kernel source", off);
        goto fail;
    }
    /* Bytes that are not UTF-8 in comments and strings (a Latin-1 `\xa9`,
     * Japanese comments in Shift-JIS) are kept as they are: the front ends
     * read them as opaque bytes, and lines and columns stay right. Many of
     * them in code: not a source. */
    size_t plen = strlen(path), bad;
    bool python = (plen > 3 && strcmp(path + plen - 3, ".py") == 0) || (plen > 4 && strcmp(path + plen - 4, ".pyi") == 0);
    size_t limit = len / 64 + 4;
    if (kc_utf8_invalid_at((const unsigned char *)text, len) != (size_t)-1 &&
        invalid_in_code(text, len, python, limit, &bad) > limit) {
        uint32_t line = 1;
        size_t ls = 0;
        for (size_t i = 0; i < bad; i++)
            if (text[i] == '\n') {
                line++;
                ls = i + 1;
            }
        *err = kc_xasprintf("not valid UTF-8 (byte 0x%02x at line %u, column %zu, and many more outside comments and "
                            "strings)",
                            (unsigned char)text[bad], line, bad - ls + 1);
        goto fail;
    }
    if (len > UINT32_MAX - 1) {
        *err = kc_xstrdup("file is too large (over 4 GiB)");
        goto fail;
    }
    kc_source *s = kc_xcalloc(1, sizeof *s);
    s->path = path;
    s->text = text;
    s->len = len;
    s->lf_text = text;
    for (const char *p = text, *e = text + len; (p = memchr(p, '\r', (size_t)(e - p))) != NULL; p++) {
        if (p + 1 < e && p[1] == '\n')
            continue; /* CRLF: the LF ends the line */
        if (s->lf_text == text) {
            s->lf_text = kc_xmalloc(len + 1);
            memcpy(s->lf_text, text, len + 1);
        }
        s->lf_text[p - text] = '\n';
    }
    const char *lf = s->lf_text;
    /* The newlines counted first, so the index is allocated once. */
    uint32_t cap = 1, n = 0;
    for (const char *p = lf, *e = lf + len; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
        cap++;
    uint32_t *ls = kc_xmalloc(cap * sizeof *ls);
    ls[n++] = 0;
    for (const char *p = lf, *e = lf + len; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
        ls[n++] = (uint32_t)(p - lf + 1);
    s->line_start = ls;
    s->nlines = n;
    return s;
fail:
    free(path);
    free(text);
    return NULL;
}

kc_source *kc_source_from_memory(const char *path, const char *text, size_t len,
                                 size_t max_bytes, char **err)
{
    char *copy = kc_xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return finish(kc_xstrdup(path), copy, len, max_bytes, err);
}

/* *err (when err is not NULL) gets a message; false. */
static bool read_fail(char **err, int fd, char *msg)
{
    if (fd >= 0)
        close(fd);
    if (err)
        *err = msg;
    else
        free(msg);
    return false;
}

bool kc_read_regular(const char *path, size_t max_bytes, char **buf, size_t *cap, size_t *len, char **err)
{
    if (err)
        *err = NULL;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is
     * rejected below as not a regular file); regular files ignore it. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return read_fail(err, -1, kc_xasprintf("cannot open: %s", strerror(errno)));
    struct stat st;
    if (fstat(fd, &st) != 0)
        return read_fail(err, fd, kc_xasprintf("cannot stat: %s", strerror(errno)));
    if (S_ISDIR(st.st_mode))
        return read_fail(err, fd, kc_xstrdup("is a directory"));
    if (!S_ISREG(st.st_mode))
        return read_fail(err, fd,
                         kc_xasprintf("not a regular file (%s)", S_ISFIFO(st.st_mode)   ? "a FIFO"
                                                                 : S_ISSOCK(st.st_mode) ? "a socket"
                                                                 : S_ISCHR(st.st_mode)  ? "a character device"
                                                                 : S_ISBLK(st.st_mode)  ? "a block device"
                                                                                        : "unknown type"));
    if ((uint64_t)st.st_size > max_bytes)
        return read_fail(err, fd,
                         kc_xasprintf("file is too large (%lld bytes; the limit is %zu, see --max-file-size)",
                                      (long long)st.st_size, max_bytes));
    if (*cap < (size_t)st.st_size + 1) {
        *cap = (size_t)st.st_size + 1;
        *buf = kc_xrealloc(*buf, *cap);
    }
    size_t n = 0;
    for (;;) {
        if (n + 1 >= *cap) {
            /* As many bytes as fstat said: one more read finds the end
             * (the usual case) without growing the buffer. */
            char probe[4096];
            ssize_t r = read(fd, probe, sizeof probe);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return read_fail(err, fd, kc_xasprintf("cannot read: %s", strerror(errno)));
            if (r == 0)
                break;
            if (n + (size_t)r > max_bytes) /* it grew while we read */
                return read_fail(err, fd,
                                 kc_xasprintf("file is too large (%zu bytes; the limit is %zu, see --max-file-size)",
                                              n + (size_t)r, max_bytes));
            while (n + 1 + (size_t)r >= *cap)
                *cap *= 2;
            *buf = kc_xrealloc(*buf, *cap);
            memcpy(*buf + n, probe, (size_t)r);
            n += (size_t)r;
            continue;
        }
        ssize_t r = read(fd, *buf + n, *cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return read_fail(err, fd, kc_xasprintf("cannot read: %s", strerror(errno)));
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    (*buf)[n] = '\0';
    *len = n;
    return true;
}

kc_source *kc_source_load(const char *path, size_t max_bytes, char **err)
{
    char *buf = NULL;
    size_t cap = 0, len = 0;
    if (!kc_read_regular(path, max_bytes, &buf, &cap, &len, err)) {
        free(buf);
        return NULL;
    }
    return finish(kc_xstrdup(path), buf, len, max_bytes, err);
}

void kc_source_delete(kc_source *s)
{
    if (!s)
        return;
    free(s->path);
    if (s->lf_text != s->text)
        free(s->lf_text);
    free(s->text);
    free(s->line_start);
    free(s);
}

const char *kc_source_line(const kc_source *s, uint32_t line, size_t *len)
{
    if (line < 1 || line > s->nlines)
        return NULL;
    size_t a = s->line_start[line - 1];
    size_t b = line < s->nlines ? s->line_start[line] - 1 : s->len;
    if (b > a && s->text[b - 1] == '\r')
        b--;
    if (b > a && line == s->nlines && (s->text[b - 1] == '\n' || s->text[b - 1] == '\r'))
        b--;
    *len = b - a;
    return s->text + a;
}

size_t kc_source_offset(const kc_source *s, uint32_t line, uint32_t col)
{
    if (line < 1)
        return 0;
    if (line > s->nlines)
        return s->len;
    size_t off = s->line_start[line - 1] + (col ? col - 1 : 0);
    return off > s->len ? s->len : off;
}

void kc_source_position(const kc_source *s, size_t offset, uint32_t *line, uint32_t *col)
{
    uint32_t lo = 0, hi = s->nlines;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->line_start[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    *col = (uint32_t)(offset - s->line_start[lo]) + 1;
}

static bool device_marks(const char *text, size_t len, bool kernels_only, bool macros);

bool kc_source_has_device_code(const char *text, size_t len)
{
    static const char *const marks[] = {"__global__", "__device__", "__shared__"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (memmem(text, len, marks[i], strlen(marks[i])))
            return true;
    return device_marks(text, len, false, true);
}

/* `[] __device__ (...)`, `[=] __host__ __device__ (...)`: the
 * `__device__` at `at` qualifies a lambda (what comes before it, past
 * blanks and `__host__`, is the capture's `]`). */
static bool lambda_qualifier(const char *text, const char *at)
{
    const char *p = at;
    for (;;) {
        while (p > text && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r'))
            p--;
        if (p - text >= 8 && memcmp(p - 8, "__host__", 8) == 0) {
            p -= 8;
            continue;
        }
        return p > text && p[-1] == ']';
    }
}

bool kc_source_has_device_functions(const char *text, size_t len) { return device_marks(text, len, false, false); }

bool kc_source_has_kernels(const char *text, size_t len) { return device_marks(text, len, true, false); }

bool kc_device_macro_name(const char *s, size_t n)
{
    if (n < 6 || !(memmem(s, n, "DEVICE", 6) || memmem(s, n, "GLOBAL", 6)))
        return false;
    for (size_t k = 0; k < n; k++)
        if (!(s[k] == '_' || (s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= '0' && s[k] <= '9')))
            return false;
    return true;
}

bool kc_source_device_macro_at(const char *text, size_t len, size_t i, size_t j)
{
    if (!kc_device_macro_name(text + i, j - i))
        return false;
    size_t a = j;
    while (a < len && (text[a] == ' ' || text[a] == '\t' || text[a] == '\n' || text[a] == '\r'))
        a++;
    if (a >= len || !(isalpha((unsigned char)text[a]) || text[a] == '_' || text[a] == '~'))
        return false;
    size_t b = i;
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t'))
        b--;
    if (b > 0 && (text[b - 1] == '.' || (b > 1 && text[b - 1] == ':' && text[b - 2] == ':') ||
                  (b > 1 && text[b - 1] == '>' && text[b - 2] == '-')))
        return false;
    /* not the name a #define or #ifdef line is about */
    size_t bol = i;
    while (bol > 0 && text[bol - 1] != '\n')
        bol--;
    while (bol < i && (text[bol] == ' ' || text[bol] == '\t'))
        bol++;
    return bol == i || text[bol] != '#';
}

/* The marks of device code outside comments and string literals:
 * `__global__` (kernels_only), also `__shared__` and a `__device__` that
 * is not a lambda's, and with macros a macro that marks device code
 * (kc_source_device_macro_at). */
static bool device_marks(const char *text, size_t len, bool kernels_only, bool macros)
{
    /* outside comments and string literals */
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            const char *e = memmem(text + i + 2, len - i - 2, "*/", 2);
            i = e ? (size_t)(e - text) + 1 : len;
        } else if (c == '"' || c == '\'') {
            for (i++; i < len && text[i] != c && text[i] != '\n'; i++)
                if (text[i] == '\\')
                    i++;
        } else if (c == '_' && i + 10 <= len && (i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))) {
            if (!memcmp(text + i, "__global__", 10))
                return true;
            if (kernels_only)
                continue;
            if (!memcmp(text + i, "__shared__", 10))
                return true;
            if (!memcmp(text + i, "__device__", 10) && !lambda_qualifier(text, text + i))
                return true;
        } else if (macros && (c == '_' || (c >= 'A' && c <= 'Z')) &&
                   (i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))) {
            size_t j = i;
            while (j < len && (isalnum((unsigned char)text[j]) || text[j] == '_'))
                j++;
            if (kc_source_device_macro_at(text, len, i, j))
                return true;
            i = j - 1;
        }
    }
    return false;
}

bool kc_path_is_cuda_source(const char *path)
{
    static const char *const exts[] = {".cu", ".cu.cc", ".cu.cpp", ".cu.cxx"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t m = strlen(exts[i]);
        if (n > m && strcmp(path + n - m, exts[i]) == 0 && path[n - m - 1] != '/')
            return true;
    }
    return false;
}
