#include <cuda_runtime.h>
// kcheck: verify op=scale_rows call="launch(x, out, (int)M, (int)N)"
__global__ void scale_rows(const float *x, float *out, int M, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    for (int j = 0; j < N; ++j)
        out[row * N + j] = 2.0 * x[row * N + j];  // kcheck: ignore[KC501]
}
void launch(const float *x, float *out, int M, int N) {
    scale_rows<<<(M + 255) / 256, 256>>>(x, out, M, N);
    cudaDeviceSynchronize();
}
