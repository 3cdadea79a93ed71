// kcheck: ignore-file[KC103]
/* kcheck: ignore[KC101] */
__global__ void k(float *p, int n) {
    // kcheck: ignore[uncoalesced-access, KC9]
    p[threadIdx.x * n] = 0;  // kcheck: ignore
    p[threadIdx.x * 3] = 1;  /* kcheck: ignore[KC102 */
}
