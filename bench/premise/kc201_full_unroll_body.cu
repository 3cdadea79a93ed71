// KC201's premise for a full `#pragma unroll` of a compile-time trip count
// in CUDA: what unrolling T copies of a body costs and buys, by the size of
// the body. upfirdn2d (StyleGAN2's filter op, copied into many projects)
// fully unrolls 48 passes of one shared-memory FMA; an n-body tile loop
// 128 passes of 20 flops. Each kernel walks T passes over a shared tile
// (T a template constant, F extra dependent flops per pass), repeated
// `reps` times in a loop that is not unrolled. Built once per mode:
//   -DMODE=0  `#pragma unroll`       (full: T copies)
//   -DMODE=32 `#pragma unroll 32`
//   -DMODE=4  `#pragma unroll 4`
//   -DMODE=1  `#pragma unroll 1`     (not unrolled)
// Output: one JSON object per line: case, mode, best of 20 runs (ms), and a
// checksum that must not depend on the mode. bench/premise/kc201_full_unroll_body.sh
// runs every mode and adds each build's SASS size and registers per kernel.
#include "../bench_cuda.h"

#include <vector>

#ifndef MODE
#define MODE 0
#endif
#define KC_STR2(x) #x
#define KC_STR(x) KC_STR2(x)
#if MODE == 0
#define UNROLL_PRAGMA _Pragma("unroll")
#else
#define UNROLL_PRAGMA _Pragma(KC_STR(unroll MODE))
#endif

template <int T, int F>
__global__ void passes(const float *in, float *out, int n, int reps)
{
    __shared__ float sx[T + 256];
    __shared__ float sf[T];
    for (int i = threadIdx.x; i < T + 256; i += blockDim.x)
        sx[i] = in[((size_t)blockIdx.x * 256 + i) % n];
    for (int i = threadIdx.x; i < T; i += blockDim.x)
        sf[i] = in[i] * 0.5f;
    __syncthreads();
    float v = 0.f;
#pragma unroll 1
    for (int r = 0; r < reps; r++) {
        UNROLL_PRAGMA
        for (int y = 0; y < T; y++) {
            float a = sx[threadIdx.x + y];
            float t = a * sf[y];
#pragma unroll
            for (int f = 0; f < F; f++)
                t = t * 1.0001f + a;
            v += t;
        }
        v *= 0.999f;
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = v;
}

template <int T, int F>
static void run(const char *name, const float *din, float *dout, int n, int blocks, int reps)
{
    float ms = kc_best_ms([&] { passes<T, F><<<blocks, 256>>>(din, dout, n, reps); });
    std::vector<float> h((size_t)blocks * 256);
    CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double chk = 0;
    for (float x : h)
        chk += x;
    printf("{\"case\": \"%s\", \"T\": %d, \"F\": %d, \"mode\": %d, \"ms\": %.4f, \"check\": %.6e}\n", name, T, F, MODE,
           ms, chk);
}

int main()
{
    const int n = 1 << 20, blocks = 2048;
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (float)(((long long)i * 7919) % 1000) / 1000.f;
    float *din, *dout;
    CK(cudaMalloc(&din, n * sizeof(float)));
    CK(cudaMalloc(&dout, (size_t)blocks * 256 * sizeof(float)));
    CK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    run<48, 0>("fma", din, dout, n, blocks, 64);
    run<128, 0>("fma", din, dout, n, blocks, 24);
    run<256, 0>("fma", din, dout, n, blocks, 12);
    run<512, 0>("fma", din, dout, n, blocks, 6);
    run<48, 16>("fma16", din, dout, n, blocks, 16);
    run<128, 16>("fma16", din, dout, n, blocks, 6);
    run<256, 16>("fma16", din, dout, n, blocks, 3);
    run<512, 16>("fma16", din, dout, n, blocks, 2);
    // one pass (reps = 1): no reuse of the tile across passes of the outer loop
    run<48, 0>("fma-once", din, dout, n, blocks, 1);
    run<128, 0>("fma-once", din, dout, n, blocks, 1);
    run<256, 0>("fma-once", din, dout, n, blocks, 1);
    run<512, 0>("fma-once", din, dout, n, blocks, 1);
    return 0;
}
