#ifndef __KCHECK_CUDA_RUNTIME_H
#define __KCHECK_CUDA_RUNTIME_H
#include <__kcheck_cuda.h>
#endif
