// What the CUDA benchmark programs of bench/ share: CK() checks a CUDA
// runtime call and exits with status 2 and the error's name on failure.
#ifndef KC_BENCH_CUDA_H
#define KC_BENCH_CUDA_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__);           \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

#endif
