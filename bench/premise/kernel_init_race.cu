// KC404's one-block initialisation (TransformerEngine 98c2ea2a): block 0
// zeroes the accumulator that every block then atomicAdds into, in the same
// launch. Each launch starts from a buffer holding a stale value (the
// previous launch's result, as in a training loop); a launch is wrong when
// some block's atomicAdd lands before block 0's zeroing (the stale value
// or lost updates). The fix zeroes on the host (cudaMemsetAsync). Prints
// how many of the launches were wrong, for several grid sizes, with block 0
// and with the last block initialising, and for the fix.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void racy(const float *x, int n, float *loss, unsigned init_block)
{
    if (blockIdx.x == init_block && threadIdx.x == 0)
        loss[0] = 0.0f;
    __shared__ float part[256];
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += x[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            part[threadIdx.x] += part[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(loss, part[0]);
}

__global__ void fixed(const float *x, int n, float *loss)
{
    __shared__ float part[256];
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += x[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            part[threadIdx.x] += part[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(loss, part[0]);
}

int main()
{
    const int n = 1 << 24, runs = 500;
    float *x, *loss, h;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&loss, sizeof(float));
    float *ones = new float[n];
    for (int i = 0; i < n; i++)
        ones[i] = 1.0f;
    cudaMemcpy(x, ones, n * sizeof(float), cudaMemcpyHostToDevice);
    int grids[] = {264, 4096, 65536, 264, 4096, 65536};
    for (int gi = 0; gi < 6; gi++) {
        int bad = 0, bad_fix = 0;
        unsigned init_block = gi < 3 ? 0u : (unsigned)grids[gi] - 1; /* block 0, then the last block */
        for (int r = 0; r < runs; r++) {
            racy<<<grids[gi], 256>>>(x, n, loss, init_block); // the stale value: the previous launch's result
            cudaMemcpy(&h, loss, sizeof h, cudaMemcpyDeviceToHost);
            bad += h != (float)n;
            cudaMemsetAsync(loss, 0, sizeof(float));
            fixed<<<grids[gi], 256>>>(x, n, loss);
            cudaMemcpy(&h, loss, sizeof h, cudaMemcpyDeviceToHost);
            bad_fix += h != (float)n;
        }
        printf("init race: grid %d x 256, n = %d, block %u initialises: racy kernel wrong in %d of %d launches; "
               "host-zeroed fix wrong in %d\n",
               grids[gi], n, init_block, bad, runs, bad_fix);
    }
    cudaError_t e = cudaGetLastError();
    printf("cuda: %s\n", cudaGetErrorString(e));
    delete[] ones;
    return 0;
}
