// Dynamic shared memory carved into two arrays at run time (the Programming Guide's idiom):
// nf floats then ni ints in one extern buffer; each thread writes one of each and reads its
// neighbours'. Launched with (nf + ni) * 4 bytes.
extern "C" __global__ void carve_dynamic(float *out, const float *fin, const int *iin, int nf, int ni)
{
    extern __shared__ float array[];
    float *fs = array;
    int *is = (int *)&fs[nf];
    const int t = threadIdx.x;
    if (t < nf) fs[t] = fin[t];
    if (t < ni) is[t] = iin[t];
    __syncthreads();
    float v = fs[(t + 1) % nf];
    v += (float)is[(t * 3) % ni];
    out[t] = v;
}
