// Tutorial-style shared-memory tree reduction with a warp-shuffle tail.
#include <cuda_runtime.h>

// kcheck: verify op=block_sum call="float *t = nullptr; cudaMalloc(&t, 256 * sizeof(float)); block_sum<256><<<256, 256>>>(x, t, (int)n); block_sum<256><<<1, 256>>>(t, out, 256); cudaDeviceSynchronize(); cudaFree(t)"
template <int BLOCK>
__global__ void block_sum(const float *x, float *partial, int n)
{
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    float v = 0.0f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x)
        v += x[i];
    s[tid] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 32; stride /= 2) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        float w = s[tid] + s[tid + 32];
        for (int o = 16; o > 0; o /= 2)
            w += __shfl_down_sync(0xffffffffu, w, o);
        if (tid == 0)
            partial[blockIdx.x] = w;
    }
}

template __global__ void block_sum<256>(const float *, float *, int);
