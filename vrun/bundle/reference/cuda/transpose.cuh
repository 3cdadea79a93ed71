// Matrix transpose reference kernel (CUDA).  Op transpose: kcref_transpose.
//
//   out[j, i] = x[i, j];  x fp32 [M, N] row-major -> out fp32 [N, M] row-major
//
// 64x64 tiles through shared memory, 256 threads (32 x 8), 16 elements per
// thread: the tile is read along rows of x (each warp reads 128 contiguous
// bytes) and written along rows of out (likewise).  The shared tile is
// [64][65]: the padding column puts the 32 lanes that read one column of
// the tile in 32 different banks (no bank conflicts, see KC103).  16 loads in
// flight per thread keep enough bytes in flight to saturate HBM.  Edge tiles
// are guarded on both sides; offsets are int64; blockIdx.y loops when
// M / 64 exceeds the grid limit.
#ifndef KCREF_TRANSPOSE_CUH
#define KCREF_TRANSPOSE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#define KCREF_TR_TILE 64
#define KCREF_TR_ROWS 8

static __global__ void __launch_bounds__(32 * KCREF_TR_ROWS)
    kcref_tr_kernel(const float *in, float *out, int64_t M, int64_t N)
{
    __shared__ float tile[KCREF_TR_TILE][KCREF_TR_TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t n0 = (int64_t)blockIdx.x * KCREF_TR_TILE;
    for (int64_t m0 = (int64_t)blockIdx.y * KCREF_TR_TILE; m0 < M; m0 += (int64_t)gridDim.y * KCREF_TR_TILE) {
#pragma unroll
        for (int j = 0; j < KCREF_TR_TILE; j += KCREF_TR_ROWS) {
            const int64_t m = m0 + ty + j;
#pragma unroll
            for (int c = 0; c < KCREF_TR_TILE; c += 32) {
                const int64_t n = n0 + tx + c;
                if (m < M && n < N)
                    tile[ty + j][tx + c] = __ldcs(in + m * N + n);
            }
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < KCREF_TR_TILE; j += KCREF_TR_ROWS) {
            const int64_t n = n0 + ty + j;
#pragma unroll
            for (int c = 0; c < KCREF_TR_TILE; c += 32) {
                const int64_t m = m0 + tx + c;
                if (n < N && m < M)
                    __stcs(out + n * M + m, tile[tx + c][ty + j]);
            }
        }
        __syncthreads();   // the tile is reused by the next m0
    }
}

// op transpose: x fp32 [M, N] -> out fp32 [N, M]
static inline void kcref_transpose(const float *x, float *out, int64_t M, int64_t N, cudaStream_t stream)
{
    if (M <= 0 || N <= 0)
        return;
    const int64_t gx = (N + KCREF_TR_TILE - 1) / KCREF_TR_TILE;
    int64_t gy = (M + KCREF_TR_TILE - 1) / KCREF_TR_TILE;
    if (gy > 65535)
        gy = 65535;
    const dim3 grid((unsigned)gx, (unsigned)gy), block(32, KCREF_TR_ROWS);
    kcref_tr_kernel<<<grid, block, 0, stream>>>(x, out, M, N);
}

#endif  // KCREF_TRANSPOSE_CUH
