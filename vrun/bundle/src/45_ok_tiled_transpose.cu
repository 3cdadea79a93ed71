// Tutorial-style tiled transpose through padded shared memory.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

// kcheck: verify op=transpose call="transpose_tiled<<<dim3((unsigned)((N + 31) / 32), (unsigned)((M + 31) / 32)), dim3(32, 8)>>>(x, out, (int)N, (int)M)"
__global__ void transpose_tiled(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
//                                                  ^ KC304 "`(y + j) * width` is int32: it overflows"
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
//              ^ KC304 "`(y + j) * height` is int32: it overflow"
}
