"""A grouped GEMM in Triton: the groups' matrices are separate buffers whose addresses the program reads from int64
tables and casts with tl.pointer_type (the pattern of Triton's grouped-GEMM tutorial, written here from scratch)."""
import triton
import triton.language as tl


@triton.jit
def grouped_mm(a_ptrs, b_ptrs, c_ptrs, sizes, lds, n_groups,
               NUM_PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    first = 0
    for g in range(n_groups):
        m = tl.load(sizes + g * 3)
        n = tl.load(sizes + g * 3 + 1)
        k = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(n, BN)
        count = tl.cdiv(m, BM) * tiles_n
        while tile >= first and tile < first + count:
            lda = tl.load(lds + g * 3)
            ldb = tl.load(lds + g * 3 + 1)
            ldc = tl.load(lds + g * 3 + 2)
            a = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
            b = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
            c = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float16))
            t = tile - first
            rm = (t // tiles_n) * BM + tl.arange(0, BM)
            rn = (t % tiles_n) * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BK)):
                x = tl.load(a + rm[:, None] * lda + (kk * BK + rk)[None, :])
                y = tl.load(b + (kk * BK + rk)[:, None] * ldb + rn[None, :])
                acc += tl.dot(x, y)
            tl.store(c + rm[:, None] * ldc + rn[None, :], acc.to(tl.float16))
            tile += NUM_PROGRAMS
        first = first + count


@triton.jit
def gather_rows_from_table(table, out, n_cols, BLOCK: tl.constexpr):
    """out[r, :] = the row that table[r] points to (float32 rows of n_cols, each a buffer of its own)."""
    r = tl.program_id(0)
    src = tl.load(table + r).to(tl.pointer_type(tl.float32))
    cols = tl.arange(0, BLOCK)
    v = tl.load(src + cols, mask=cols < n_cols, other=0.0)
    tl.store(out + r * n_cols + cols, v * 2.0, mask=cols < n_cols)
