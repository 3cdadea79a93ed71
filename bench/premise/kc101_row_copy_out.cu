// KC101 premise (CUDA): a thread that copies its own row of `nsample`
// results out after a search of many passes (the k-nearest-neighbour and
// ball-query kernels of point-cloud libraries) pays the scattered stores
// once, next to the search; KC101 reports such a copy-out as a note.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/kc101_copy_out bench/premise/kc101_row_copy_out.cu && /tmp/kc101_copy_out
//
// M queries, one thread each; each scans N points of one cloud (the same
// point for every lane of a warp: broadcast loads) and keeps NS results,
// then writes them:
//   rows        out[q * NS + i], i < NS (lanes NS floats apart, the pattern)
//   transposed  out[i * M + q]            (lanes adjacent)
// Also N = 0 (no search): the copy-out alone. Prints the best of 20 launches
// of each, in ms, and rows / transposed.
#include "../bench_cuda.h"

template <int NS, bool ROWS>
__global__ void search_then_copy(const float *xyz, float *out, int M, int N)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= M)
        return;
    float best[NS];
    for (int i = 0; i < NS; ++i)
        best[i] = 1e10f + q;
    float qx = 0.001f * q;
    for (int i = 0; i < N; ++i) {
        float d = xyz[i * 3] - qx, e = xyz[i * 3 + 1] - qx, f = xyz[i * 3 + 2] - qx;
        float d2 = d * d + e * e + f * f;
        int slot = i % NS;
        best[slot] = fminf(best[slot], d2);
    }
    for (int i = 0; i < NS; ++i) {
        if (ROWS)
            out[(long)q * NS + i] = best[i];
        else
            out[(long)i * M + q] = best[i];
    }
}

template <int NS, bool ROWS>
static float best_ms(const float *xyz, float *out, int M, int N)
{
    return kc_best_ms([&] { search_then_copy<NS, ROWS><<<(M + 255) / 256, 256>>>(xyz, out, M, N); });
}

template <int NS>
static void run(const float *xyz, float *out, int M)
{
    const int ns[] = {0, 256, 1024, 4096};
    for (int k = 0; k < 4; ++k) {
        float r = best_ms<NS, true>(xyz, out, M, ns[k]);
        float t = best_ms<NS, false>(xyz, out, M, ns[k]);
        printf("NS=%2d N=%5d rows %8.3f ms  transposed %8.3f ms  rows/transposed %5.2fx\n", NS, ns[k], r, t, r / t);
    }
}

int main()
{
    const int M = 1 << 20;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s; M = %d queries, one thread each\n", p.name, M);
    float *xyz, *out;
    CK(cudaMalloc(&xyz, 4096 * 3 * sizeof(float)));
    CK(cudaMalloc(&out, (size_t)M * 32 * sizeof(float)));
    CK(cudaMemset(xyz, 0, 4096 * 3 * sizeof(float)));
    run<16>(xyz, out, M);
    run<32>(xyz, out, M);
    CK(cudaFree(xyz));
    CK(cudaFree(out));
    return 0;
}
