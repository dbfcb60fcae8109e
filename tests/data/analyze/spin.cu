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

// Three warps that each wait for another, on three paths of one branch: warp `first` waits for
// warp `second`'s x, then sets y; warp `second` sets x, then waits for y; the third warp waits for
// y too. Once the two later warps both spin, the first warp (spinning since before x was set) must
// get its turn: the GPU's schedulers let every warp issue, so this ends.
__global__ void relay(int* out, int first, int second)
{
    __shared__ volatile int x, y;
    if (threadIdx.x == 0) x = y = 0;
    __syncthreads();
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (w == first) {
        while (x == 0) {
        }
        if (lane == 0) y = x + 1;
        out[threadIdx.x] = 1;
    } else if (w == second) {
        if (lane == 0) x = 5;
        while (y == 0) {
        }
        out[threadIdx.x] = 2 * y;
    } else {
        while (y == 0) {
        }
        out[threadIdx.x] = 3 * y;
    }
}
