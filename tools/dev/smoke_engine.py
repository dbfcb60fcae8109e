"""A quick check of the GPU engine on a real device: facts, compile, launch, constants,
dynamic shared memory over 48 KB, clusters, timing, and the ncu metric names."""
import json, time
import numpy as np
import cupy
from smemlab.gpu import Runtime
from smemlab.runner import measure_copy
from smemlab import compiler

src = r'''
__constant__ float coef[9];
extern "C" __global__ void scale(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * coef[i % 9];
}
extern "C" __global__ void bigsmem(float *out, int n) {
    extern __shared__ float buf[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = i;
    __syncthreads();
    out[threadIdx.x] = buf[n - 1 - threadIdx.x];
}
extern "C" __global__ void __cluster_dims__(2,1,1) clusterRank(int *out) {
    unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}
extern "C" __global__ void clusterRank2(int *out) {
    unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}
'''
(compiler.KERNEL_DIR / "_smoke.cu").write_text(src)
try:
    t0 = time.time()
    rt = Runtime(0)
    print("facts", json.dumps(rt.facts.to_dict()))
    print("copy GB/s", measure_copy(rt))
    k = rt.kernel("_smoke.cu", "scale")
    n = 1000
    x = cupy.random.default_rng(0).random(n, dtype=cupy.float32) + 1
    y = cupy.empty_like(x)
    c = np.arange(1, 10, dtype=np.float32)
    rt.set_constant("_smoke.cu", "coef", c)
    rt.launch(k, (n + 127) // 128, 128, y, x, np.int32(n)); rt.sync()
    print("const ok", bool(cupy.allclose(y, x * cupy.asarray(c)[cupy.arange(n) % 9])))
    rt.set_constant("_smoke.cu", "coef", c * 2)
    rt.launch(k, (n + 127) // 128, 128, y, x, np.int32(n)); rt.sync()
    print("const2 ok", bool(cupy.allclose(y, 2 * x * cupy.asarray(c)[cupy.arange(n) % 9])))
    kb = rt.kernel("_smoke.cu", "bigsmem")
    m = 100 * 1024 // 4
    o = cupy.empty(256, dtype=cupy.float32)
    rt.launch(kb, 1, 256, o, np.int32(m), shmem=m * 4); rt.sync()
    print("bigsmem ok", bool(cupy.allclose(o, cupy.arange(m - 1, m - 257, -1, dtype=cupy.float32))))
    kc = rt.kernel("_smoke.cu", "clusterRank2")
    r = cupy.full(8, -1, dtype=cupy.int32)
    rt.launch(kc, 8, 32, r, cluster=4); rt.sync()
    print("cluster ranks", r.get().tolist())
    print("max cluster", rt.max_cluster_size(kc))
    kd = rt.kernel("_smoke.cu", "clusterRank")
    rt.launch(kd, 8, 32, r); rt.sync()
    print("cluster_dims ranks", r.get().tolist())
    print("static smem", kb.static_smem, k.static_smem)
    # an illegal launch becomes a KernelError
    try:
        rt.launch(kb, 1, 2048, o, np.int32(4)); rt.sync()
    except Exception as e:
        print("bad launch ->", type(e).__name__, str(e)[:200])
    t = rt.time(lambda: rt.launch(k, (n + 127) // 128, 128, y, x, np.int32(n)))
    print("timing", t)
    print("elapsed", time.time() - t0)
finally:
    (compiler.KERNEL_DIR / "_smoke.cu").unlink()
