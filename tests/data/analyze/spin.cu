// Waits that never end in an emulation of one block: a flag set by another block, and a
// counter that another block would bring to the total. `poll_with_budget` ends: it gives up
// after `budget` turns.

__global__ void spin_on_flag(volatile int* flag, int* out)
{
    if (blockIdx.x == 1 && threadIdx.x == 0) *flag = 1;  // never runs: analyze emulates block 0
    while (*flag == 0) {
    }
    out[threadIdx.x] = *flag;
}

__global__ void spin_with_backoff(int* counter, int* out, int total)
{
    if (threadIdx.x == 0) atomicAdd(counter, 1);
    unsigned ns = 8;
    while (atomicAdd(counter, 0) < total) {
        __nanosleep(ns);
        if (ns < 256) ns *= 2;
    }
    out[threadIdx.x] = 1;
}

__global__ void poll_with_budget(volatile int* flag, int* out, int budget)
{
    int turns = 0;
    while (*flag == 0 && turns < budget) ++turns;
    out[threadIdx.x] = turns;
}

// Warp 0 waits for warp 1, which is on the other side of a branch: the GPU runs both warps, so
// this ends (`order` picks which side the branch's taken path is).
__global__ void handoff(int* out, int order)
{
    __shared__ volatile int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    bool waiter = order ? threadIdx.x < 32 : threadIdx.x >= 32;
    if (waiter) {
        while (flag == 0) {
        }
        out[threadIdx.x] = flag;
    } else {
        if (threadIdx.x % 32 == 0) flag = 7;
        out[threadIdx.x] = -1;
    }
}
