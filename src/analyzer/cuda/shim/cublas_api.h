#ifndef __KCHECK_CUBLAS_H
#define __KCHECK_CUBLAS_H
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif
