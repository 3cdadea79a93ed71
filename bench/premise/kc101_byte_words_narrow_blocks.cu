// KC101 premises of the forty-first and fortieth rounds (CUDA).
//
// 1. Byte words walked whole: each lane builds a bit pattern from its own
//    W-byte word of a query, one byte a pass, in a loop of `min(len -
//    offset, W)` passes (a Myers aligner's preprocessing: lanes 32 bytes
//    apart). Against the same bytes laid out transposed (byte i of word p
//    at i * M + p, lanes adjacent). W = 8, 16, 32, 56, 64, 128.
// 2. Narrow blocks: a store `out[u * nV + v]` (u from threadIdx.x, v from
//    threadIdx.y) after a loop of P passes, from 9 x 9 and 8 x 8 blocks (a
//    CT projector's MATLAB layout), against `out[v * nU + u]` (coalesced),
//    and the same from 32 x 8 blocks.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/kc101_bw bench/premise/kc101_byte_words_narrow_blocks.cu && /tmp/kc101_bw
//
// Prints the best of 20 launches of each, in ms, and words / transposed.
#include "../bench_cuda.h"

#include <cstdint>

template <bool WORDS>
__global__ void patterns(const char *query, uint64_t *out, long nwords, int W, long len)
{
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= nwords)
        return;
    long offset = p * W;
    int max_i = (int)min(len - offset, (long)W);
    uint64_t r = 0;
    for (int i = 0; i < max_i; ++i) {
        char c = WORDS ? query[offset + i] : query[(long)i * nwords + p];
        if (c == 'A')
            r |= 1ull << (i & 63);
    }
    out[p] = r;
}

template <bool MATLAB>
__global__ void project(float *out, const float *angles, int nU, int nV, int passes)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    int v = blockIdx.y * blockDim.y + threadIdx.y;
    if (u >= nU || v >= nV)
        return;
    float acc = 0.f;
    for (int k = 0; k < passes; ++k)
        acc += __sinf(angles[k & 255] * u + v * 0.5f);
    if (MATLAB)
        out[(long)u * nV + v] = acc;
    else
        out[(long)v * nU + u] = acc;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s\n", prop.name);
    const long nbytes = 1L << 28;
    char *query;
    uint64_t *out;
    CK(cudaMalloc(&query, nbytes));
    CK(cudaMemset(query, 'A', nbytes));
    CK(cudaMalloc(&out, (nbytes / 8) * sizeof(uint64_t)));
    const int widths[] = {8, 16, 32, 56, 64, 128};
    for (int w = 0; w < (int)(sizeof widths / sizeof widths[0]); ++w) {
        int W = widths[w];
        long nwords = nbytes / W;
        unsigned grid = (unsigned)((nwords + 255) / 256);
        float a = kc_best_ms([&] { patterns<true><<<grid, 256>>>(query, out, nwords, W, nbytes); });
        float b = kc_best_ms([&] { patterns<false><<<grid, 256>>>(query, out, nwords, W, nbytes); });
        printf("byte words W=%3d  words %7.3f ms  transposed %7.3f ms  %5.2fx\n", W, a, b, a / b);
    }
    CK(cudaFree(query));
    CK(cudaFree(out));

    const int nU = 4096, nV = 4096;
    float *img, *angles;
    CK(cudaMalloc(&img, (size_t)nU * nV * sizeof(float)));
    CK(cudaMalloc(&angles, 256 * sizeof(float)));
    CK(cudaMemset(angles, 0, 256 * sizeof(float)));
    const int blocks[][2] = {{9, 9}, {8, 8}, {16, 16}, {32, 8}};
    const int passes[] = {1, 16, 256};
    for (int b = 0; b < 4; ++b)
        for (int q = 0; q < 3; ++q) {
            dim3 block(blocks[b][0], blocks[b][1]);
            dim3 grid((nU + block.x - 1) / block.x, (nV + block.y - 1) / block.y);
            int P = passes[q];
            float m = kc_best_ms([&] { project<true><<<grid, block>>>(img, angles, nU, nV, P); });
            float c = kc_best_ms([&] { project<false><<<grid, block>>>(img, angles, nU, nV, P); });
            printf("block %2dx%-2d passes %3d  u*nV+v %7.3f ms  v*nU+u %7.3f ms  %5.2fx\n", blocks[b][0],
                   blocks[b][1], P, m, c, m / c);
        }
    CK(cudaFree(img));
    CK(cudaFree(angles));
    return 0;
}
