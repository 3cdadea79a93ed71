// axpy staged through shared memory, with the bounds check written as an
// early return: in the last block the threads past `n` leave before the
// barrier the others wait at (KC401).
#include <cuda_runtime.h>

// kcheck: verify op=axpy call="axpy_staged<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, (int)n)"
__global__ void axpy_staged(float a, const float *x, float *y, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x] = x[i];
    __syncthreads();
    y[i] = a * tile[threadIdx.x] + y[i];
}
