/* kc_build.c — whether the build files of a repository compile a CUDA
 * source (kc_build.h). */
#define _GNU_SOURCE 1 /* strcasestr */
#include "kc_build.h"

#include "kc_path.h"
#include "kc_source.h"
#include "kc_walk.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* Files past this size are read only when they are build files (a data
 * file in JSON, a long log named .txt). */
#define KC_BUILD_MENTION_MAX ((size_t)4 << 20)

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

bool kc_build_is_build_file(const char *name)
{
    static const char *const exact[] = {"CMakeLists.txt", "meson.build", "BUILD", "BUILD.bazel",
                                        "SConstruct",     "SConscript",  NULL};
    static const char *const prefixes[] = {"Makefile", "makefile", "GNUmakefile", NULL};
    static const char *const suffixes[] = {".mk", ".make", ".cmake", ".bzl", ".vcxproj", ".py", NULL};
    for (unsigned i = 0; exact[i]; i++)
        if (strcmp(name, exact[i]) == 0)
            return true;
    for (unsigned i = 0; prefixes[i]; i++)
        if (starts_with(name, prefixes[i]))
            return true;
    for (unsigned i = 0; suffixes[i]; i++)
        if (ends_with(name, suffixes[i]))
            return true;
    return starts_with(name, "premake") && ends_with(name, ".lua");
}

/* Scripts: a list built from a pattern there counts as in a build file. */
static bool is_script(const char *name) { return ends_with(name, ".sh") || ends_with(name, ".bash"); }

bool kc_build_is_mention_file(const char *name)
{
    static const char *const suffixes[] = {".sh",  ".bash", ".md",  ".txt", ".rst", ".yml", ".yaml", ".json",
                                           ".bat", ".ps1",  ".cfg", ".in",  ".toml", ".cu",  ".cuh",  ".c",
                                           ".cc",  ".cpp",  ".cxx", ".h",   ".hpp", ".hh",  ".hxx",  ".inl",
                                           NULL};
    for (unsigned i = 0; suffixes[i]; i++)
        if (ends_with(name, suffixes[i]))
            return true;
    return false;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The three readings, cheapest and most decisive first: the build files
 * proper and the scripts (a pattern there ends the reading), the Python
 * files, and, only where the build files name CUDA sources one by one,
 * the documents and sources that may mention one. */
static bool take_build(const char *path)
{
    const char *b = base_name(path);
    return (kc_build_is_build_file(b) && !ends_with(b, ".py")) || is_script(b);
}

static bool take_python(const char *path) { return ends_with(base_name(path), ".py"); }

static bool take_mention(const char *path)
{
    const char *b = base_name(path);
    return kc_build_is_mention_file(b) && !kc_build_is_build_file(b) && !is_script(b);
}

bool kc_build_wants(const char *path)
{
    const char *b = base_name(path);
    return kc_build_is_build_file(b) || kc_build_is_mention_file(b);
}

/* ---- mentions ---- */

typedef enum { EXT_NONE = 0, EXT_CUDA, EXT_SOURCE, EXT_OBJECT } ext_kind;

static ext_kind ext_of(const char *e, size_t n)
{
    if (n == 2 && memcmp(e, "cu", 2) == 0)
        return EXT_CUDA;
    if ((n == 1 && e[0] == 'c') || (n == 2 && memcmp(e, "cc", 2) == 0) || (n == 3 && memcmp(e, "cpp", 3) == 0) ||
        (n == 3 && memcmp(e, "cxx", 3) == 0))
        return EXT_SOURCE;
    if ((n == 1 && e[0] == 'o') || (n == 3 && memcmp(e, "obj", 3) == 0))
        return EXT_OBJECT;
    return EXT_NONE;
}

static bool path_char(char c) { return kc_ident_char(c) || c == '.' || c == '/' || c == '-' || c == '+' || c == '@'; }

/* The path a mention names, joined to the directory of the build file
 * it is in and lexically normalised; NULL when it leaves the repository. */
static char *resolve(const char *dir, const char *tok)
{
    char *joined = dir[0] ? kc_xasprintf("%s/%s", dir, tok) : kc_xstrdup(tok);
    char *out = kc_xcalloc(strlen(joined) + 1, 1);
    size_t o = 0;
    bool escaped = false;
    for (char *seg = joined; *seg && !escaped;) {
        char *end = strchr(seg, '/');
        size_t n = end ? (size_t)(end - seg) : strlen(seg);
        if (n == 0 || (n == 1 && seg[0] == '.')) {
            /* nothing */
        } else if (n == 2 && seg[0] == '.' && seg[1] == '.') {
            if (o == 0)
                escaped = true;
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
        } else {
            if (o)
                out[o++] = '/';
            memcpy(out + o, seg, n);
            o += n;
        }
        seg = end ? end + 1 : seg + n;
    }
    out[o] = '\0';
    free(joined);
    if (escaped || !o) {
        free(out);
        return NULL;
    }
    return out;
}

typedef struct scan_ctx {
    kc_build_index *b;
    const char *rel;      /* the file's path in the repository */
    const char *dir;      /* its directory ("" at the top) */
    bool build, script;   /* a build file; a script */
} scan_ctx;

static void set_pattern(scan_ctx *c, const char *what)
{
    if (c->b->pattern_file)
        return;
    c->b->pattern_file = kc_xstrdup(c->rel);
    c->b->pattern = what;
}

/* A `.cu` with no file name before it (`*.cu`, `"%s.cu"`, `${n}.cu`,
 * `+ ".cu"`): a list built from a pattern or a computed name, unless a
 * pattern rule (`%.o: %.cu`) or a substitution (`$(SRCS:.cu=.o)`). */
static bool enumerating(const char *t, size_t at)
{
    char p = at ? t[at - 1] : ' ';
    char q = t[at + 3];
    return !(p == '%' || p == ':' || (p == '=' && at >= 2 && t[at - 2] != ' ') || q == '=');
}

/* A make rule from `%.cu` (`%: %.cu`, `%.o: %.cu`) builds whatever stems
 * the file's targets name (`TARGETS = scan softmax`): each word of that
 * file is a mention of an object of that stem. */
static void pattern_rule_words(scan_ctx *c, const char *t, size_t len)
{
    if (!memmem(t, len, "%.cu", 4))
        return;
    for (size_t i = 0; i < len; i++) {
        if (!kc_ident_char(t[i]) || (i && (kc_ident_char(t[i - 1]) || t[i - 1] == '-')))
            continue;
        size_t e = i;
        while (e < len && (kc_ident_char(t[e]) || t[e] == '-'))
            e++;
        /* (a word of a path, `./Util/a.cu`, is no target) */
        bool in_path = (i && (t[i - 1] == '/' || t[i - 1] == '.')) || (e < len && (t[e] == '/' || t[e] == '.'));
        if (in_path) {
            i = e - 1;
            continue;
        }
        kc_vec_push(&c->b->mentions, kc_xasprintf("%.*s.o", (int)(e - i), t + i));
        kc_vec_push(&c->b->in_build, false);
        kc_vec_push(&c->b->resolved, NULL);
        i = e - 1;
    }
}

/* Does the text name a CUDA source (`.cu` and no more letters: not
 * `.cuda()`)? */
static bool names_cuda_source(const char *t, size_t len)
{
    for (const char *p = t; (p = memmem(p, len - (size_t)(p - t), ".cu", 3)) != NULL; p += 3)
        if ((size_t)(p - t) + 3 >= len || !kc_ident_char(p[3]))
            return true;
    return false;
}

/* Can the listing at w (`$(wildcard *.cpp)`, `file(GLOB S *)`) take
 * a CUDA source: up to its closing parenthesis (or the line's end), a
 * `.cu` or a `*` that no other extension follows. */
static bool lists_cuda(const char *w, const char *end, bool always)
{
    if (always)
        return true;
    const char *stop = memchr(w, ')', (size_t)(end - w) < 2000 ? (size_t)(end - w) : 2000);
    if (!stop) {
        stop = memchr(w, '\n', (size_t)(end - w));
        stop = stop ? stop : end;
    }
    for (const char *p = w; p < stop; p++) {
        if (p + 3 <= stop && memcmp(p, ".cu", 3) == 0)
            return true;
        if (*p == '*' && (p + 1 >= stop || p[1] != '.'))
            return true;
    }
    return false;
}

static void scan_text(scan_ctx *c, const char *t, size_t len)
{
    kc_build_index *b = c->b;
    if (c->build)
        pattern_rule_words(c, t, len);
    if (c->build) {
        static const char *const words[] = {"aux_source_directory", "glob", "glob_recurse", "wildcard", "listdir",
                                            "walk", "scandir", "rglob", NULL};
        /* (a Python file that names no CUDA source builds no list of them) */
        bool relevant = !ends_with(c->rel, ".py") || names_cuda_source(t, len);
        for (unsigned i = 0; relevant && words[i]; i++) {
            size_t wn = strlen(words[i]);
            for (const char *w = strcasestr(t, words[i]); w; w = strcasestr(w + 1, words[i])) {
                /* the word alone (`glob.glob(`, `GLOB`, not `globally`) */
                if ((w > t && kc_ident_char(w[-1])) || kc_ident_char(w[wn]))
                    continue;
                if (lists_cuda(w, t + len, i == 0)) {
                    set_pattern(c, words[i]);
                    break;
                }
            }
        }
    }
    for (size_t i = 0; i + 1 < len; i++) {
        if (t[i] != '.' || !kc_ident_char(t[i + 1]))
            continue;
        size_t e = i + 1;
        while (e < len && kc_ident_char(t[e]))
            e++;
        ext_kind k = ext_of(t + i + 1, e - i - 1);
        if (k == EXT_NONE || (e < len && (t[e] == '-' || t[e] == '.' || t[e] == '/')))
            continue;
        size_t s = i;
        while (s > 0 && path_char(t[s - 1]) && t[s - 1] != '.')
            s--;
        /* the name before the extension; a dotted stem (`x.cu.o`) walks on */
        while (s > 0 && t[s - 1] == '.' && s >= 2 && path_char(t[s - 2])) {
            s--;
            while (s > 0 && path_char(t[s - 1]) && t[s - 1] != '.')
                s--;
        }
        if (s == i) {
            if (k == EXT_CUDA && (c->build || c->script) && i + 3 <= len && enumerating(t, i))
                set_pattern(c, "a `.cu` after no file name");
            continue;
        }
        char *tok = kc_xstrndup(t + s, e - s);
        /* `./x.cu`, `../x.cu`, `/x.cu` after a variable: the path below */
        char *p = tok;
        while (*p == '.' || *p == '/')
            p++;
        if (*p && strcmp(p, c->rel) != 0 && !ends_with(c->rel, p)) {
            kc_vec_push(&b->mentions, kc_xstrdup(p));
            kc_vec_push(&b->in_build, c->build);
            /* where in the tree the build file's mention points */
            bool after_var = s > 0 && (t[s - 1] == ')' || t[s - 1] == '}');
            char *r = c->build && !after_var ? resolve(c->dir, tok) : c->build ? resolve(c->dir, p) : NULL;
            kc_vec_push(&b->resolved, r);
        }
        free(tok);
        i = e - 1;
    }
}

/* Scans the text of the repository's file at rel (a build file or script
 * by its name) into b. */
static void scan_file(kc_build_index *b, const char *rel, const char *text, size_t len)
{
    const char *name = base_name(rel);
    char *dir = kc_xstrndup(rel, name > rel ? (size_t)(name - rel) - 1 : 0);
    scan_ctx c = {b, rel, dir, kc_build_is_build_file(name), is_script(name)};
    scan_text(&c, text, len);
    b->build_files += c.build;
    free(dir);
}

/* The CUDA sources the build files name. */
static uint32_t cuda_sources(const kc_build_index *b)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->mentions.len; i++)
        n += b->in_build.data[i] && ends_with(b->mentions.data[i], ".cu");
    return n;
}

/* Reads the files of `walked` that `take` accepts into b; false past the
 * limits (*nfiles, *bytes: what was read so far). A pattern ends it. */
static bool read_pass(const char *root, const kc_path_list *walked, kc_walk_take take, size_t max_file_size,
                      uint32_t max_files, size_t max_bytes, uint32_t *nfiles, size_t *bytes, kc_build_index *b)
{
    bool ok = true;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (uint32_t j = 0; ok && !b->pattern_file && j < walked->files.len; j++) {
        const kc_file_result *f = &walked->files.data[j];
        const char *rel = f->path ? kc_path_under(f->path, root) : NULL;
        if (f->errors.items.len || !rel || !take(f->path))
            continue;
        ok = ++*nfiles <= max_files;
        bool build = kc_build_is_build_file(base_name(rel));
        size_t limit = build ? max_file_size : (max_file_size < KC_BUILD_MENTION_MAX ? max_file_size : KC_BUILD_MENTION_MAX);
        if (!kc_read_regular(f->path, limit, &buf, &cap, &len, NULL))
            continue;
        *bytes += len;
        ok = *bytes <= max_bytes;
        scan_file(b, rel, buf, len);
    }
    free(buf);
    return ok;
}

void kc_build_index_read(const char *root, const kc_path_list *walked, size_t max_file_size, uint32_t max_files,
                         size_t max_bytes, kc_build_index *out)
{
    memset(out, 0, sizeof *out);
    uint32_t nfiles = 0;
    size_t bytes = 0;
    bool ok = read_pass(root, walked, take_build, max_file_size, max_files, max_bytes, &nfiles, &bytes, out) &&
              (out->pattern_file ||
               read_pass(root, walked, take_python, max_file_size, max_files, max_bytes, &nfiles, &bytes, out));
    out->cuda_sources = cuda_sources(out);
    if (ok && out->cuda_sources && !out->pattern_file)
        ok = read_pass(root, walked, take_mention, max_file_size, max_files, max_bytes, &nfiles, &bytes, out);
    out->known = ok && out->cuda_sources && !out->pattern_file;
}

void kc_build_each_above(const char *root, const char *abspath, size_t max_file_size, bool (*take)(const char *name),
                         kc_build_file_fn fn, void *ud)
{
    char *dir = kc_xstrdup(abspath);
    char *buf = NULL;
    size_t cap = 0, len = 0, rootn = strlen(root);
    bool more = true;
    for (char *slash = strrchr(dir, '/'); slash && more; slash = strrchr(dir, '/')) {
        *slash = '\0';
        if (strlen(dir) < rootn)
            break;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && more && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.' || !take(e->d_name))
                continue;
            char *path = kc_xasprintf("%s/%s", dir, e->d_name);
            const char *rel = kc_path_under(path, root);
            if (rel && kc_read_regular(path, max_file_size, &buf, &cap, &len, NULL))
                more = fn(ud, rel, buf, len);
            free(path);
        }
        if (d)
            closedir(d);
    }
    free(buf);
    free(dir);
}

static bool build_file_or_script(const char *name) { return kc_build_is_build_file(name) || is_script(name); }

/* Scans one file into the index; stops at the first list built from a
 * pattern (the sources cannot be told then). */
static bool scan_until_pattern(void *ud, const char *rel, const char *text, size_t len)
{
    kc_build_index *b = ud;
    scan_file(b, rel, text, len);
    return !b->pattern_file;
}

bool kc_build_ancestors_list(const char *root, const char *abspath, size_t max_file_size)
{
    if (!ends_with(abspath, ".cu"))
        return false;
    kc_build_index b = {0};
    kc_build_each_above(root, abspath, max_file_size, build_file_or_script, scan_until_pattern, &b);
    bool lists = cuda_sources(&b) && !b.pattern_file;
    kc_build_index_free(&b);
    return lists;
}

/* Does the mention m name the CUDA source rel? */
static bool names(const char *m, const char *rel)
{
    size_t ml = strlen(m), rl = strlen(rel);
    const char *dot = strrchr(m, '.');
    if (dot && ext_of(dot + 1, strlen(dot + 1)) == EXT_OBJECT) {
        /* an object: any source of that stem (`x.o`, `x.cu.o`) */
        ml = (size_t)(dot - m);
        if (ml > 3 && memcmp(m + ml - 3, ".cu", 3) == 0)
            ml -= 3;
        rl -= 3; /* rel ends in .cu */
    } else if (!ends_with(m, ".cu")) {
        return false;
    }
    if (ml > rl || memcmp(rel + rl - ml, m, ml) != 0)
        return false;
    return ml == rl || rel[rl - ml - 1] == '/';
}

static bool dir_is(const char *path, const char *dir, size_t dn)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    return n == dn && memcmp(path, dir, dn) == 0;
}

char *kc_build_unbuilt(const kc_build_index *b, const char *rel)
{
    if (!b->known || !ends_with(rel, ".cu"))
        return NULL;
    for (uint32_t i = 0; i < b->mentions.len; i++)
        if (names(b->mentions.data[i], rel))
            return NULL;
    /* the build files list this part of the tree by name: a source of the
     * file's directory or of the one above */
    const char *slash = strrchr(rel, '/');
    size_t dn = slash ? (size_t)(slash - rel) : 0;
    const char *up = dn ? memrchr(rel, '/', dn) : NULL;
    size_t un = up ? (size_t)(up - rel) : 0;
    uint32_t near = 0;
    for (uint32_t i = 0; i < b->mentions.len; i++) {
        const char *r = b->resolved.data[i];
        if (r && (dir_is(r, rel, dn) || (dn && dir_is(r, rel, un))))
            near++;
    }
    if (!near)
        return NULL;
    return kc_xasprintf("no build file of its repository compiles `%s`: they name %u CUDA source%s one by one, "
                        "%u source%s beside it or in the directory above, with no pattern, and no file of the "
                        "repository names this one (build files, scripts, documents, includes)",
                        rel, b->cuda_sources, b->cuda_sources == 1 ? "" : "s", near, near == 1 ? "" : "s");
}

void kc_build_index_free(kc_build_index *b)
{
    for (uint32_t i = 0; i < b->mentions.len; i++) {
        free(b->mentions.data[i]);
        free(b->resolved.data[i]);
    }
    kc_vec_free(&b->mentions);
    kc_vec_free(&b->in_build);
    kc_vec_free(&b->resolved);
    free(b->pattern_file);
    memset(b, 0, sizeof *b);
}
