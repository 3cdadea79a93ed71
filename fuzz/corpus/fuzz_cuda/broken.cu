__global__ void k(float *p) {
  p[threadIdx.x * 64] = (((((1)))));
  int x = ;
