// TILE comes from the target's compile definitions, ROWS_PER_PASS from
// include/params.h through the response file: without both the tile is
// not modelled and the conflict is not seen.
#include <cuda_runtime.h>
#include "params.h"

__global__ void transpose(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE];
    size_t x = blockIdx.x * TILE + threadIdx.x;
    size_t y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int w, int h, cudaStream_t s)
{
    transpose<<<dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), dim3(TILE, ROWS_PER_PASS), 0, s>>>(in, out, w, h);
    if (cudaGetLastError() != cudaSuccess)
        return;
}
