// Coalesced forms: consecutive threads on consecutive elements, a
// grid-stride loop, a warp per row, and a stride kcheck cannot size.
#include <cuda_runtime.h>

// kcheck: verify op=axpy call="axpy<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, (int)n)"
__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void scale_grid_stride(float *x, float s, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x)
        x[i] *= s;
}

__global__ void matvec_warp_per_row(const float *A, const float *x, float *y, int M, int K)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= M)
        return;
    float acc = 0.0f;
    for (int k = lane; k < K; k += 32)
        acc += A[(long)row * K + k] * x[k];
    for (int o = 16; o > 0; o /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0)
        y[row] = acc;
}

__global__ void gather_with_stride(const float *x, float *y, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i * stride];
}
