// CUDA forms of a missing bounds check (llm.c #794): the grid is rounded
// up, but the global thread index is used with no `if (i < n)`; a bound
// computed into a flag and then not applied to every access.
#include <cuda_runtime.h>

// kcheck: verify op=axpy call="axpy<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, (int)n)"
__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
    // expect: KC303@7 "store to `y` is not bounds-checked" "blockIdx.x*blockDim.x + threadIdx.x runs past `n`" "rounds up"
    // expect: KC303@18 "load from `x` is not bounds-checked"
    // expect: KC303@25 "load from `y` is not bounds-checked"
}

__global__ void scale_and_copy(const float *x, float *y, float *copy, float s, int n)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    bool inside = i < n;
    if (inside)
        y[i] = s * x[i];
    copy[i] = x[i];
    // expect: KC303@10 "store to `copy`" "computes the bound `i < n` on line 19, but this store does not use it"
    // expect: KC303@17 "load from `x`"
}

void launch(float a, const float *x, float *y, float *c, int n, cudaStream_t st)
{
    axpy<<<(n + 255) / 256, 256, 0, st>>>(a, x, y, n);
    scale_and_copy<<<(n + 255) / 256, 256, 0, st>>>(x, y, c, a, n);
    if (cudaGetLastError() != cudaSuccess)
        return;
}
