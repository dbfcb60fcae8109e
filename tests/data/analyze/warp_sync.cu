// warp-synchronous instructions reached from divergent code (tests/test_analyze_warp_sync.py)
#define R(k) out[(k) * blockDim.x + threadIdx.x]

// a half-warp shuffle inside a branch: lanes 0-15 exchange among themselves
extern "C" __global__ void half_warp_shfl(const int *v_, int *out)
{
    int v = v_[threadIdx.x];
    R(0) = -7;
    if ((threadIdx.x & 31) < 16) {
        R(0) = __shfl_down_sync(0xffff, v, 1);
    }
}

// __activemask() in a data-dependent branch names exactly the lanes that took it
extern "C" __global__ void active_shfl(const int *v_, const int *on_, int *out)
{
    int v = v_[threadIdx.x];
    R(0) = -7;
    R(1) = -7;
    if (on_[threadIdx.x]) {
        const unsigned act = __activemask();
        R(0) = act;
        R(1) = __shfl_sync(act, v, __ffs(act) - 1);
    }
}

// a ballot among the lanes of a branch
extern "C" __global__ void ballot_in_branch(const int *v_, const int *on_, int *out)
{
    int v = v_[threadIdx.x];
    R(0) = -7;
    if (on_[threadIdx.x])
        R(0) = __ballot_sync(__activemask(), v & 1);
}

// the two halves of a warp take different branches and meet at one full-mask shuffle each
extern "C" __global__ void split_halves(const int *v_, int *out)
{
    int v = v_[threadIdx.x];
    int r;
    if ((threadIdx.x & 31) < 16)
        r = __shfl_xor_sync(0xffffffff, v * 3, 16);
    else
        r = __shfl_xor_sync(0xffffffff, v + 1000, 16);
    R(0) = r;
}

// __syncwarp in both branches: the halves meet at two different bar.warp.sync (allowed on sm_70+)
extern "C" __global__ void syncwarp_branches(const int *v_, int *out)
{
    __shared__ int s[64];
    const int t = threadIdx.x;
    if ((t & 31) < 16) {
        s[t] = v_[t] * 3;
        __syncwarp();
        R(0) = s[t ^ 16] + 1;
    } else {
        s[t] = v_[t] + 1000;
        __syncwarp();
        R(0) = s[t ^ 16] * 2;
    }
}

// lanes 16-31 are named in the mask but go on past the branch: they never execute the shuffle
extern "C" __global__ void missing_member(const int *v_, int *out)
{
    int v = v_[threadIdx.x];
    R(0) = -7;
    if ((threadIdx.x & 31) < 16)
        R(0) = __shfl_xor_sync(0xffffffff, v, 1);
    R(1) = v;
}

// a lane that executes a shuffle whose membermask does not name it
extern "C" __global__ void stray_lane(const int *v_, int *out)
{
    R(0) = __shfl_xor_sync(0xfffffffe, v_[threadIdx.x], 1);
}

// a full-mask shuffle after the upper half of the warp returned
extern "C" __global__ void exited_member(const int *v_, int *out)
{
    int v = v_[threadIdx.x];
    if ((threadIdx.x & 31) >= 16)
        return;
    int ok;
    asm("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, 8, 31, -1; selp.s32 %1, 1, 0, q; }" : "=r"(v), "=r"(ok) : "r"(v));
    R(0) = v;
    R(1) = ok;
}
