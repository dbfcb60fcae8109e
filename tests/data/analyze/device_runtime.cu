// The device runtime's calls: assert, printf and malloc/free.
#include <assert.h>

__global__ void checked(const int* in, int* out, int n)
{
    int x = in[threadIdx.x];
    assert(x < n);
    out[threadIdx.x] = x * 2;
}

__global__ void prints(const int* in, const float* f, int* out)
{
    int x = in[threadIdx.x];
    out[threadIdx.x] = printf("t=%d x=%5d|%-4u|%x|%08.3f|%e|%g|%s|%c|%lld|%lu|%%\n", threadIdx.x, x, (unsigned)x, x,
                              f[threadIdx.x], f[threadIdx.x] * 1e5, (double)f[threadIdx.x], x & 1 ? "odd" : "even",
                              'a' + (x % 26), (long long)x << 33, (unsigned long)x);
}

__global__ void heap(const int* in, int* out)
{
    int* p = (int*)malloc(4 * sizeof(int));
    if (p == nullptr) {
        out[threadIdx.x] = -1;
        return;
    }
    for (int i = 0; i < 4; ++i) p[i] = in[threadIdx.x] + i;
    out[threadIdx.x] = p[0] + p[3] + (int)((unsigned long long)p % 16);
    free(p);
}
