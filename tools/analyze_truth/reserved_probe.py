# the values of the reserved shared memory's special registers on this GPU, and where a kernel's own shared
# variable lies (its shared-window offset), for machine.RESERVED_SHARED
import cupy as cp
src = r'''
extern "C" __global__ void probe(unsigned *out) {
    __shared__ int mine[4];
    unsigned v;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); out[0] = v;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v)); out[1] = v;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v)); out[2] = v;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v)); out[3] = v;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v)); out[4] = v;
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v)); out[5] = v;
    mine[threadIdx.x & 3] = 1;
    out[6] = (unsigned)__cvta_generic_to_shared(mine);
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v)); out[7] = v;
}
'''
k = cp.RawKernel(src, "probe", options=("-arch=sm_90",))
out = cp.zeros(8, dtype=cp.uint32)
k((1,), (32,), (out,))
names = ["begin", "end", "cap", "slot0", "slot1", "total_smem_size", "own_shared_at", "dynamic_smem_size"]
print(dict(zip(names, out.get().tolist())))
k((1,), (32,), (out,), shared_mem=3000)
print("with 3000 dynamic bytes:", dict(zip(names, out.get().tolist())))
