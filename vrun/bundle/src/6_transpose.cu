// A naive transpose: reads are coalesced, writes are a column apart.
// Compare kernels/reference/cuda/transpose.cuh (padded shared-memory tiles).
#include <cuda_runtime.h>

// kcheck: verify op=transpose call="transpose_naive<<<dim3((unsigned)((N + 31) / 32), (unsigned)((M + 7) / 8)), dim3(32, 8)>>>(x, out, (int)M, (int)N)"
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (c < cols && r < rows)
        out[c * rows + r] = in[r * cols + c];
}
