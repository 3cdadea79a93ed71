#include <__kcheck_cuda.h>
#include <__kcheck_fp16.h>
