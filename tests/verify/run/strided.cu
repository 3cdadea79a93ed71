#include <cstdio>
__global__ void col_read(const float* __restrict__ a, float* out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int c = 0; c < cols; c++)
        s += a[r * cols + c];          // line 7: neighbouring threads are `cols` apart
    out[r] = s;
}
__global__ void bank(float* out) {
    __shared__ float t[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    t[x][y] = x + y;                    // line 13: 32-way bank conflict
    __syncthreads();
    out[y * 32 + x] = t[y][x];
}
int main() {
    int rows = 1 << 16, cols = 64;
    float *a, *o; cudaMalloc(&a, sizeof(float) * rows * cols); cudaMalloc(&o, sizeof(float) * rows);
    cudaMemset(a, 0, sizeof(float) * rows * cols);
    col_read<<<rows / 256, 256>>>(a, o, rows, cols);
    bank<<<1, dim3(32, 32)>>>(o);
    cudaError_t e = cudaDeviceSynchronize();
    printf("done %s\n", cudaGetErrorString(e));
    return 0;
}
