// KC602 premise: what a CUDA launch past the grid and block limits returns.
//   nvcc -o /tmp/grid_limits bench/premise/grid_limits.cu && /tmp/grid_limits
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(int *out) { out[0] = 1; }

static void try_launch(const char *what, dim3 grid, dim3 block, int *out)
{
    touch<<<grid, block>>>(out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("KC602 CUDA %-28s launch: %s; sync: %s\n", what, cudaGetErrorString(launch), cudaGetErrorString(sync));
}

int main()
{
    int *out;
    cudaMalloc(&out, sizeof(int));
    try_launch("grid (1, 65535), block 256", dim3(1, 65535), dim3(256), out);
    try_launch("grid (1, 65536), block 256", dim3(1, 65536), dim3(256), out);
    try_launch("grid (1, 1, 65536)", dim3(1, 1, 65536), dim3(256), out);
    try_launch("grid (2^31-1), block 32", dim3(2147483647u), dim3(32), out);
    try_launch("block 1024", dim3(1), dim3(1024), out);
    try_launch("block 2048", dim3(1), dim3(2048), out);
    try_launch("block (1, 1, 128)", dim3(1), dim3(1, 1, 128), out);
    cudaFree(out);
    return 0;
}
