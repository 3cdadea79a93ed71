#include <cuda_fp16.h>
template <int BLOCK>
__global__ void block_sum(const __half *in, float *out, long n) {
    __shared__ float s[BLOCK];
    float acc = 0.0f;
    __half h = __float2half(0.f);
    for (long i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) {
        acc += __half2float(in[i]);
        h = __hadd(h, in[i]);
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int off = BLOCK / 2; off > 0; off >>= 1) {
        if (threadIdx.x < off) {
            s[threadIdx.x] += s[threadIdx.x + off];
            __syncthreads();
        }
    }
    if (threadIdx.x < 32) {
        volatile float *v = s;
        v[threadIdx.x] += v[threadIdx.x + 16];
        float w = __shfl_down_sync(0xffffffff, acc, 1);
        acc += __shfl_down(acc, 2);
        (void)w;
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0] + sqrt(1.0));
}
int main() {
    float *d; cudaMalloc(&d, 4);
    block_sum<256><<<80, 256>>>(nullptr, d, 1 << 20);
    cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice);
    cudaFree(d);
    return 0;
}
