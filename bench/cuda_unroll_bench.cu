// What an explicit `#pragma unroll N` costs and buys, measured: KC201
// reports factors above 32 (docs/precision.md, "KC201's unroll factors on a
// GPU"). Two loop shapes, each built once per factor with -DUNROLL=N
// (UNROLL=0: no pragma, the compiler's choice; UNROLL=1: not unrolled):
//
//   tile   the all-pairs n-body tile loop (a thread walks the block's
//          bodies in shared memory, 20 flops each; the loop bound is
//          blockDim.x, a run-time value)
//   stride a grid-stride sum (one global load a pass, n elements)
//
//   for u in 0 1 4 8 32 64 128; do
//       nvcc -std=c++17 -O3 -arch=native -DUNROLL=$u -o /tmp/cub_$u bench/cuda_unroll_bench.cu
//       /tmp/cub_$u
//   done
//
// Time the nvcc lines for compile time and `cuobjdump -sass /tmp/cub_$u |
// grep -c '^ *\/\*[0-9a-f]*\*\/'` for the instruction count.
//
// Output: one JSON object per line: {"case", "unroll", "ms" (median of 20
// runs after a warm-up, CUDA events around the launch), "check" (a
// checksum that must not depend on the factor)}.
#include "bench_cuda.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef UNROLL
#define UNROLL 0
#endif

#define KC_STR2(x) #x
#define KC_STR(x) KC_STR2(x)
#if UNROLL == 0
#define UNROLL_PRAGMA
#else
#define UNROLL_PRAGMA _Pragma(KC_STR(unroll UNROLL))
#endif


__device__ __forceinline__ float3 interact(float3 ai, float4 bi, float4 bj)
{
    float3 r = {bj.x - bi.x, bj.y - bi.y, bj.z - bi.z};
    float d2 = r.x * r.x + r.y * r.y + r.z * r.z + 1e-4f;
    float inv = rsqrtf(d2);
    float s = bj.w * inv * inv * inv;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void tile(const float4 *pos, float4 *acc_out, int n)
{
    extern __shared__ float4 sh[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = pos[i];
    float3 acc = {0.f, 0.f, 0.f};
    for (int t = 0; t < n / (int)blockDim.x; t++) {
        sh[threadIdx.x] = pos[t * blockDim.x + threadIdx.x];
        __syncthreads();
        UNROLL_PRAGMA
        for (unsigned c = 0; c < blockDim.x; c++)
            acc = interact(acc, me, sh[c]);
        __syncthreads();
    }
    acc_out[i] = make_float4(acc.x, acc.y, acc.z, 0.f);
}

__global__ void stride(const float *x, float *out, int n)
{
    float s = 0.f;
    UNROLL_PRAGMA
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += x[i];
    atomicAdd(out, s);
}

template <typename F> static float median_ms(F launch)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 20; r++) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main()
{
    // tile: 65536 bodies, blocks of 256
    const int nb = 65536, bs = 256;
    std::vector<float4> hp(nb);
    srand(1);
    for (auto &p : hp)
        p = make_float4(rand() / (float)RAND_MAX, rand() / (float)RAND_MAX, rand() / (float)RAND_MAX, 1.f);
    float4 *dp, *da;
    CK(cudaMalloc(&dp, nb * sizeof(float4)));
    CK(cudaMalloc(&da, nb * sizeof(float4)));
    CK(cudaMemcpy(dp, hp.data(), nb * sizeof(float4), cudaMemcpyHostToDevice));
    float ms = median_ms([&] { tile<<<nb / bs, bs, bs * sizeof(float4)>>>(dp, da, nb); });
    CK(cudaGetLastError());
    std::vector<float4> ha(nb);
    CK(cudaMemcpy(ha.data(), da, nb * sizeof(float4), cudaMemcpyDeviceToHost));
    double chk = 0;
    for (auto &a : ha)
        chk += a.x + a.y + a.z;
    printf("{\"case\": \"tile\", \"unroll\": %d, \"ms\": %.4f, \"check\": %.6e}\n", UNROLL, ms, chk);

    // stride: 64 Mi floats, 1024 blocks of 256
    const int n = 64 << 20;
    float *dx, *dout;
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dout, sizeof(float)));
    std::vector<float> hx(n, 1.0f);
    CK(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    ms = median_ms([&] {
        CK(cudaMemsetAsync(dout, 0, sizeof(float)));
        stride<<<1024, 256>>>(dx, dout, n);
    });
    CK(cudaGetLastError());
    float out;
    CK(cudaMemcpy(&out, dout, sizeof(float), cudaMemcpyDeviceToHost));
    printf("{\"case\": \"stride\", \"unroll\": %d, \"ms\": %.4f, \"check\": %.6e}\n", UNROLL, ms, (double)out);
    return 0;
}
