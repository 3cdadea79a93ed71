/* Pieces of the cache keys (the result cache, the CUDA header cache) fed
 * into an XXH3 state the same way everywhere: a string with its length (so
 * that "ab" + "c" differs from "a" + "bc"), a file's identity on disk. */
#ifndef KC_HASH_H
#define KC_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>

/* The string and its length; NULL hashes differently from "". */
void kc_hash_str(XXH3_state_t *st, const char *s);
/* The path, then its size, modification time and inode (all -1 when it
 * cannot be stat'ed): changes when the file is rebuilt or replaced. */
void kc_hash_stat(XXH3_state_t *st, const char *path);

/* XXH3-64 of a byte string (file content checks). */
uint64_t kc_hash_bytes(const void *p, size_t n);

#endif
