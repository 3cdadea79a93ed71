#include "kc_hash.h"

#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

void kc_hash_str(XXH3_state_t *st, const char *s)
{
    uint64_t n = s ? strlen(s) : UINT64_MAX;
    XXH3_128bits_update(st, &n, sizeof n);
    if (s)
        XXH3_128bits_update(st, s, (size_t)n);
}

void kc_hash_stat(XXH3_state_t *st, const char *path)
{
    struct stat sb;
    int64_t v[4] = {-1, -1, -1, -1};
    if (stat(path, &sb) == 0) {
        v[0] = (int64_t)sb.st_size;
        v[1] = (int64_t)sb.st_mtim.tv_sec;
        v[2] = (int64_t)sb.st_mtim.tv_nsec;
        v[3] = (int64_t)sb.st_ino;
    }
    kc_hash_str(st, path);
    XXH3_128bits_update(st, v, sizeof v);
}

uint64_t kc_hash_bytes(const void *p, size_t n) { return (uint64_t)XXH3_64bits(p, n); }
