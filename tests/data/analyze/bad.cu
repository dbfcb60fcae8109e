// Kernels with mistakes, for tests/test_analyze_cli.py: each must give one clear line and status 2.
extern "C" __global__ void shared_oob(float *out, int n)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x + n];
}

extern "C" __global__ void global_oob(float *out, int n)
{
    out[threadIdx.x + n] = 1.0f;
}

extern "C" __global__ void divergent_barrier(float *out)
{
    __shared__ float s[256];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = 1.0f;
        __syncthreads();
    }
    out[threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void spins(volatile float *flag)
{
    while (flag[0] < 2.0f) {
    }
}

extern "C" __global__ void early_return(float *out, int n)
{
    __shared__ float s[256];
    if (threadIdx.x >= n)
        return;
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % n];
}

extern "C" __global__ void unsupported(float *out)
{
    unsigned long long sp;
    asm volatile("stacksave.u64 %0;" : "=l"(sp));
    out[threadIdx.x] = (float)(sp & 1);
}

extern "C" __global__ void traps(float *out)
{
    if (threadIdx.x == 5)
        __trap();
    out[threadIdx.x] = 0.0f;
}

extern "C" __global__ void misaligned(float *out)
{
    __shared__ float s[64];
    float2 *p = reinterpret_cast<float2 *>(s + 1);
    p[threadIdx.x % 8] = make_float2(1.0f, 2.0f);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

struct Pair {
    int a, b;
};

extern "C" __global__ void by_value(Pair p, int *out)
{
    out[threadIdx.x] = p.a + p.b;
}

extern "C" __global__ void named_barrier_hang(float *out)
{
    if (threadIdx.x < 64)
        asm volatile("bar.sync 1, 96;");
    out[threadIdx.x] = 0.0f;
}

extern "C" __global__ void jump_past_the_list(float *out)
{
    asm volatile("{\n\tT: .branchtargets A, B;\n\tbrx.idx %0, T;\nA:\nB:\n\t}" ::"r"(threadIdx.x & 3));
    out[threadIdx.x] = 0.0f;
}
