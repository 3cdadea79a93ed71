__global__ void k(float *p,	int n) {
	int i = threadIdx.x;
	if (i < n) p[i * n] = 0;
}
