/* kc_base.h — memory helpers shared by every kcheck module.
 *
 * Out-of-memory is not recoverable for a command-line checker: the
 * kc_x* helpers print one line and exit with status 2 (internal failure).
 * Growable arrays are typed through KC_VEC(T); their storage is owned by
 * whoever owns the struct that embeds them and is freed with kc_vec_free.
 */
#ifndef KC_BASE_H
#define KC_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define KC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KC_PRINTF(a, b)
#endif

void *kc_xmalloc(size_t n);
void *kc_xcalloc(size_t n, size_t size);
void *kc_xrealloc(void *p, size_t n);
char *kc_xstrdup(const char *s);
/* strcmp of two `const char *` array elements: the comparator for qsort
 * and bsearch over arrays of strings. */
int kc_strptr_cmp(const void *a, const void *b);
/* Sort records for qsort that keep items with equal keys in their
 * original order (qsort is not stable): a key and the item's index, the
 * tie-break. */
typedef struct kc_hash_index {
    uint64_t hash;
    uint32_t index;
} kc_hash_index;
int kc_hash_index_cmp(const void *a, const void *b);
typedef struct kc_name_index {
    const char *name;
    uint32_t index;
} kc_name_index;
int kc_name_index_cmp(const void *a, const void *b);
char *kc_xstrndup(const char *s, size_t n);
/* Returns a malloc'd formatted string; caller frees. */
char *kc_xasprintf(const char *fmt, ...) KC_PRINTF(1, 2);
char *kc_xvasprintf(const char *fmt, va_list ap) KC_PRINTF(1, 0);


/* ---- typed growable arrays ------------------------------------------- */
#define KC_VEC(T) struct { T *data; uint32_t len, cap; }

void kc_vec_grow_(void **data, uint32_t *cap, uint32_t need, size_t elem);

#define kc_vec_reserve(v, n)                                                  \
    do {                                                                      \
        if ((uint32_t)(n) > (v)->cap)                                         \
            kc_vec_grow_((void **)&(v)->data, &(v)->cap, (uint32_t)(n),       \
                         sizeof *(v)->data);                                  \
    } while (0)
#define kc_vec_push(v, x)                                                     \
    do {                                                                      \
        kc_vec_reserve((v), (v)->len + 1);                                    \
        (v)->data[(v)->len++] = (x);                                          \
    } while (0)
#define kc_vec_free(v)                                                        \
    do {                                                                      \
        free((v)->data);                                                      \
        (v)->data = NULL;                                                     \
        (v)->len = (v)->cap = 0;                                              \
    } while (0)
#define kc_vec_last(v) (&(v)->data[(v)->len - 1])

/* ---- string builder ---------------------------------------------------- */
typedef struct kc_strbuf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t len, cap;
} kc_strbuf;

void kc_sb_append(kc_strbuf *sb, const char *s);
void kc_sb_appendn(kc_strbuf *sb, const char *s, size_t n);
void kc_sb_appendf(kc_strbuf *sb, const char *fmt, ...) KC_PRINTF(2, 3);
void kc_sb_putc(kc_strbuf *sb, char c);
/* Returns the buffer's string (never NULL); ownership passes to the caller. */
char *kc_sb_take(kc_strbuf *sb);
void kc_sb_free(kc_strbuf *sb);
static inline const char *kc_sb_str(const kc_strbuf *sb) { return sb->data ? sb->data : ""; }
/* Can `c` continue a C or Python identifier (ASCII letters, digits, `_`)? */
static inline bool kc_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
/* Empties the buffer, keeping its storage. */
static inline void kc_sb_len_reset(kc_strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

/* ---- arena ------------------------------------------------------------- */
/* A bump allocator: everything allocated from it is freed at once by
 * kc_arena_delete. Used for the kernel model of one file. */
typedef struct kc_arena kc_arena;

kc_arena *kc_arena_new(void);
void kc_arena_delete(kc_arena *a); /* NULL-safe */
void *kc_arena_alloc(kc_arena *a, size_t n); /* zeroed, 16-byte aligned */
/* A soft limit: allocations go on past it (callers need not check), and
 * kc_arena_over says so, for the owner to stop its work. */
void kc_arena_set_limit(kc_arena *a, size_t bytes); /* 0: none */
bool kc_arena_over(const kc_arena *a);
size_t kc_arena_bytes(const kc_arena *a); /* of the blocks it holds */
char *kc_arena_strdup(kc_arena *a, const char *s);
char *kc_arena_strndup(kc_arena *a, const char *s, size_t n);
char *kc_arena_printf(kc_arena *a, const char *fmt, ...) KC_PRINTF(2, 3);

#endif
