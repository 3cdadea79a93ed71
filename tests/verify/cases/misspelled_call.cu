// A verify test case: a binding whose call= misspells the launcher (it does
// not compile): the binding's mistake, exit 2, not a verdict on the kernel.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void scale_cols(const float *x, float *out, int M, int N)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M)
        return;
    for (int col = 0; col < N; ++col)
        out[row * N + col] = 2.0f * x[row * N + col];
}

// kcheck: verify op=scale_rows call="launch_scael(x, out, (int)M, (int)N)"
void launch_scale(const float *x, float *out, int M, int N)
{
    scale_cols<<<(M + 127) / 128, 128>>>(x, out, M, N);
}

int main() { return 0; }
