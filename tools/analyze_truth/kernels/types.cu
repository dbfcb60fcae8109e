// Shared accesses of 1, 2, 8, 12 and 16 bytes (256 threads each).
//   char_access     bytes: consecutive (4 lanes a word), reversed, and 4 bytes apart
//   short_access    2-byte: consecutive, 2 apart, neighbours swapped
//   double_access   8-byte: consecutive (two wavefronts a warp), 2 apart, 17 apart
//   struct16_access a 16-byte aligned struct stored whole, then one member and the whole struct read
//   float3_access   a 12-byte struct (4-byte aligned): how wide are its loads?
extern "C" __global__ void char_access(char *out, const char *in)
{
    __shared__ char s[1024];
    const int t = threadIdx.x;
    s[t] = in[t];
    s[256 + t] = in[256 + t];
    s[512 + t] = in[512 + t];
    s[768 + t] = in[768 + t];
    __syncthreads();
    out[t] = s[1023 - t] + s[4 * t];
}

extern "C" __global__ void short_access(short *out, const short *in)
{
    __shared__ short s[512];
    const int t = threadIdx.x;
    s[t] = in[t];
    s[256 + t] = in[256 + t];
    __syncthreads();
    out[t] = s[2 * t] + s[t ^ 1];
}

extern "C" __global__ void double_access(double *out, const double *in)
{
    __shared__ double s[512];
    const int t = threadIdx.x;
    s[t] = in[t];
    s[256 + t] = in[256 + t];
    __syncthreads();
    out[t] = s[2 * t] + s[(17 * t) % 512] + s[t];
}

struct __align__(16) Particle {
    float x, y, z;
    int id;
};

extern "C" __global__ void struct16_access(float *out, const Particle *in)
{
    __shared__ Particle s[256];
    const int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    const Particle p = s[(t * 2) % 256];
    out[t] = s[255 - t].z + p.x + p.y + p.z + (float)p.id;
}

struct Vec3 {
    float x, y, z;
};

extern "C" __global__ void float3_access(float *out, const float *in)
{
    __shared__ Vec3 s[256];
    const int t = threadIdx.x;
    s[t].x = in[3 * t];
    s[t].y = in[3 * t + 1];
    s[t].z = in[3 * t + 2];
    __syncthreads();
    const Vec3 v = s[255 - t];
    out[t] = v.x * v.y + v.z;
}
