// Row-per-thread mat-vec and a naive transpose: consecutive threads are a
// whole row apart.
#include <cuda_runtime.h>

// kcheck: verify op=matvec call="matvec_row_per_thread<<<(unsigned)((M + 255) / 256), 256>>>(A, x, y, (int)M, (int)K)"
__global__ void matvec_row_per_thread(const float *__restrict__ A, const float *__restrict__ x,
                                      float *__restrict__ y, int M, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * x[k];
//               ^ KC304 "`row * K` is int32: it overflows past 2^"
    //           ^ KC101 "threadIdx.x) are K elements apart" "32 transactions per request where 4 would do"
    y[row] = acc;
}

// kcheck: verify op=transpose call="transpose_naive<<<dim3((unsigned)((N + 31) / 32), (unsigned)((M + 7) / 8)), dim3(32, 8)>>>(x, out, (int)M, (int)N)"
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (c < cols && r < rows)
        out[c * rows + r] = in[r * cols + c];
//          ^ KC304 "`c * rows` is int32: it overflows past 2"
//                             ^ KC304 "`r * cols` is int32: it overflows past 2"
    //      ^ KC101 "store to `out`" "rows elements apart"
}
