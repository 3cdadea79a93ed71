// A row-per-thread matrix-vector product, as first written by many: thread
// `row` walks its own row, so the 32 threads of a warp read 32 different
// rows (K floats apart) at every step of k. kcheck flags the access (KC101);
// `kcheck verify` times it against the warp-per-row reference in
// kernels/reference/cuda/matvec.cuh.
#include <cstdio>
#include <cuda_runtime.h>

// kcheck: verify op=matvec call="matvec_row_per_thread<<<(unsigned)((M + 255) / 256), 256>>>(A, x, y, (int)M, (int)K)"
__global__ void matvec_row_per_thread(const float *A, const float *x, float *y, int M, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * x[k];
    y[row] = acc;
}

int main()
{
    const int M = 16384, K = 4096;
    float *A, *x, *y;
    cudaMalloc(&A, sizeof(float) * M * K);
    cudaMalloc(&x, sizeof(float) * K);
    cudaMalloc(&y, sizeof(float) * M);
    matvec_row_per_thread<<<(M + 255) / 256, 256>>>(A, x, y, M, K);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return 0;
}
