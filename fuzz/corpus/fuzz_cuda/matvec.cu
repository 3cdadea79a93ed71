__device__ inline float dot_row(const float *a, const float *x, int K) {
    float s = 0;
#pragma unroll 4
    for (int k = 0; k < K; k++) s += a[k] * x[k];
    return s;
}
__global__ void matvec(const float *__restrict__ A, const float *x, float *y, int M, int K) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) y[i] = dot_row(A + (size_t)i * K, x, K);
    auto f = [&](int j) { return A[j * M + i]; };
    y[i] += f(threadIdx.x);
}
