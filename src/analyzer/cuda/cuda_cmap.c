/* cuda_cmap.c — maps from libclang cursors to indexes (cuda_tu.h): open
 * addressing on clang_hashCursor, equality by clang_equalCursors (equal
 * cursors hash alike: both read the kind and the declaration or
 * statement). */
#include "cuda_tu.h"

#include <stdlib.h>

static uint32_t cmap_slot(const kc_cuda_cmap *m, CXCursor c)
{
    uint32_t mask = m->cap - 1, i = clang_hashCursor(c) & mask;
    while (m->vals[i] && !clang_equalCursors(m->keys[i], c))
        i = (i + 1) & mask;
    return i;
}

uint32_t kc_cuda_cmap_get(const kc_cuda_cmap *m, CXCursor c)
{
    if (!m->cap)
        return UINT32_MAX;
    uint32_t i = cmap_slot(m, c);
    return m->vals[i] ? m->vals[i] - 1 : UINT32_MAX;
}

void kc_cuda_cmap_put(kc_cuda_cmap *m, CXCursor c, uint32_t index)
{
    if ((m->len + 1) * 2 > m->cap) { /* at most half full */
        kc_cuda_cmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->keys = kc_xcalloc(m->cap, sizeof *m->keys);
        m->vals = kc_xcalloc(m->cap, sizeof *m->vals);
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.vals[i]) {
                uint32_t j = cmap_slot(m, old.keys[i]);
                m->keys[j] = old.keys[i];
                m->vals[j] = old.vals[i];
            }
        free(old.keys);
        free(old.vals);
    }
    uint32_t i = cmap_slot(m, c);
    m->len += !m->vals[i];
    m->keys[i] = c;
    m->vals[i] = index + 1;
}

void kc_cuda_cmap_free(kc_cuda_cmap *m)
{
    free(m->keys);
    free(m->vals);
    *m = (kc_cuda_cmap){0};
}
