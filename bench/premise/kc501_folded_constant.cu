// KC501 premise: a constant folded from double literals (through nested
// macros) times a float runs in fp64, where a float-literal constant does
// not. Compile to PTX and count f64 instructions per function:
//   nvcc -O3 --use_fast_math -arch=sm_90 -ptx bench/premise/kc501_folded_constant.cu -o k.ptx
//   awk '/.entry/{f=$3} /f64/{n[f]++} END{for (k in n) print k, n[k]}' k.ptx
#include <math.h>

#define SQRT_2_PI M_SQRT2 *M_2_SQRTPI * 0.5f
#define HALF_SQRT2 (M_SQRT2 * 0.5f)
#define SQRT_2_PI_F 0.7978845608f

extern "C" __global__ void folded_macro(const float *x, float *y)
{
    float v = x[threadIdx.x];
    y[threadIdx.x] = tanhf(SQRT_2_PI * (v + 0.044715f * v * v * v));
}

extern "C" __global__ void folded_paren(const float *x, float *y)
{
    y[threadIdx.x] = HALF_SQRT2 * x[threadIdx.x];
}

extern "C" __global__ void float_constant(const float *x, float *y)
{
    float v = x[threadIdx.x];
    y[threadIdx.x] = tanhf(SQRT_2_PI_F * (v + 0.044715f * v * v * v));
}
