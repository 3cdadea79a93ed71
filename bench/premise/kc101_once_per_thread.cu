// KC101 premise (CUDA): a scattered access made once per thread, outside
// every loop, costs little next to a loop that accesses memory in every
// pass; a scattered access inside the loop costs every pass. KC101 reports
// the first as a note and the second as a warning.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/kc101_once bench/premise/kc101_once_per_thread.cu && /tmp/kc101_once
//
// One thread per row, R rows of C floats summed in a loop:
//   loop_coalesced          a[c * R + r] in the loop (lanes adjacent), out[r] after it
//   loop_then_strided_store the same loop, out[r * S] after it (lanes S floats apart, once per thread)
//   strided_load_once       one load a2[r * S] before the same loop, out[r] after it
//   strided_in_loop         a[r * C + c] in the loop (lanes C floats apart, every pass), out[r]
// Prints the best of 20 launches of each, in ms, and each one's ratio to
// loop_coalesced.
#include "../bench_cuda.h"

#include <cstring>

__global__ void loop_coalesced(const float *a, const float *a2, float *out, int R, int C, int S)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= R)
        return;
    float acc = 0.f;
    for (int c = 0; c < C; ++c)
        acc += a[(long)c * R + r];
    out[r] = acc;
}

__global__ void loop_then_strided_store(const float *a, const float *a2, float *out, int R, int C, int S)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= R)
        return;
    float acc = 0.f;
    for (int c = 0; c < C; ++c)
        acc += a[(long)c * R + r];
    out[(long)r * S] = acc;
}

__global__ void strided_load_once(const float *a, const float *a2, float *out, int R, int C, int S)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= R)
        return;
    float acc = a2[(long)r * S];
    for (int c = 0; c < C; ++c)
        acc += a[(long)c * R + r];
    out[r] = acc;
}

__global__ void strided_in_loop(const float *a, const float *a2, float *out, int R, int C, int S)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= R)
        return;
    float acc = 0.f;
    for (int c = 0; c < C; ++c)
        acc += a[(long)r * C + c];
    out[r] = acc;
}

typedef void (*kernel_fn)(const float *, const float *, float *, int, int, int);

static float best_ms(kernel_fn k, const float *a, const float *a2, float *out, int R, int C, int S)
{
    return kc_best_ms([&] { k<<<(R + 255) / 256, 256>>>(a, a2, out, R, C, S); });
}

int main()
{
    const int R = 1 << 20, S = 32;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s; R = %d rows, stride S = %d floats\n", p.name, R, S);
    for (int C = 16; C <= 256; C *= 4) {
        float *a, *a2, *out;
        CK(cudaMalloc(&a, (size_t)R * C * sizeof(float)));
        CK(cudaMalloc(&a2, (size_t)R * S * sizeof(float)));
        CK(cudaMalloc(&out, (size_t)R * S * sizeof(float)));
        CK(cudaMemset(a, 0, (size_t)R * C * sizeof(float)));
        CK(cudaMemset(a2, 0, (size_t)R * S * sizeof(float)));
        const struct {
            const char *name;
            kernel_fn k;
        } ks[] = {{"loop_coalesced", loop_coalesced},
                  {"loop_then_strided_store", loop_then_strided_store},
                  {"strided_load_once", strided_load_once},
                  {"strided_in_loop", strided_in_loop}};
        float base = 0.f;
        for (int i = 0; i < 4; ++i) {
            float ms = best_ms(ks[i].k, a, a2, out, R, C, S);
            if (i == 0)
                base = ms;
            printf("C=%3d %-24s %8.3f ms  %5.2fx\n", C, ks[i].name, ms, ms / base);
        }
        CK(cudaFree(a));
        CK(cudaFree(a2));
        CK(cudaFree(out));
    }
    return 0;
}
