"""Real CUDA headers (CCCL 3.x: CUB block and warp primitives, cooperative_groups, libcu++, cuda_fp16/bf16)
emulated: each kernel of tests/data/analyze/cccl/*.cu runs on seeded inputs (the --arg fill contract) and
its outputs are compared with NumPy's; no instruction of the kernel may be refused.

The PTX comes from the CUDA 13 nvcc of the `nvidia-cuda-nvcc` wheel (CCCL 3.x on its include path),
compiled once per file (conftest's `nvcc_ptx`); without that nvcc the tests skip.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze.args import fill, parse_arg
from smemlab.analyze.session import analyze_ptx

DATA = Path(__file__).parent / "data" / "analyze" / "cccl"


@pytest.fixture(scope="module")
def run(nvcc_ptx):
    def go(file: str, kernel: str, block: int, args: list[str]):
        path = DATA / f"{file}.cu"
        report = analyze_ptx(nvcc_ptx(path), kernel, (block,), args=args, source=path.read_text())
        assert report.refused == []
        inputs = {a.split("=")[0]: fill(a.split("=")[0], parse_arg(a)[1]) for a in args if "[" in a}
        return report.buffers, inputs
    return go


# ------------------------------------------------------------------------------ block primitives


@pytest.mark.parametrize("kernel", ["load_direct", "load_vectorize", "load_transpose", "load_warp_transpose"])
def test_block_load_store(run, kernel):
    out, ins = run("block_load_store", kernel, 128, ["in=int32[512]", "out=int32[512]"])
    assert out["out"].tolist() == (ins["in"] + 1).tolist()


def test_block_load_store_guarded(run):
    out, ins = run("block_load_store", "load_guarded", 128, ["in=int32[512]", "out=int32[512]", "n=300"])
    assert out["out"].tolist() == ins["in"][:300].tolist() + ins["out"][300:].tolist()


@pytest.mark.parametrize("kernel", ["blocked_to_striped", "striped_to_blocked"])
def test_block_exchange_round_trip(run, kernel):
    out, ins = run("block_exchange", kernel, 64, ["in=int32[256]", "out=int32[256]"])
    assert out["out"].tolist() == ins["in"].tolist()


def test_block_exchange_scatter(run):
    out, ins = run("block_exchange", "scatter_to_striped", 64, ["in=int32[256]", "out=int32[256]"])
    assert out["out"][:128].tolist() == ins["in"][:128][::-1].tolist()


def test_block_radix_sort_keys(run):
    out, ins = run("block_radix_sort", "sort_keys", 128, ["in=uint32[512]:0..4294967295", "out=uint32[512]"])
    assert out["out"].tolist() == sorted(ins["in"].tolist())


def test_block_radix_sort_pairs_descending_is_stable(run):
    out, ins = run("block_radix_sort", "sort_pairs_descending", 64,
                   ["keys_in=int32[128]:-40..40", "keys_out=int32[128]", "vals_out=int32[128]"])
    keys = ins["keys_in"]
    order = np.lexsort((np.arange(128), -keys.astype(np.int64)))
    assert out["keys_out"].tolist() == keys[order].tolist()
    assert out["vals_out"].tolist() == order.tolist()


def test_block_radix_sort_floats_and_bytes(run):
    out, ins = run("block_radix_sort", "sort_floats", 32, ["in=float32[128]:-1e6..1e6", "out=float32[128]"])
    assert out["out"].tolist() == np.sort(ins["in"]).tolist()
    out, ins = run("block_radix_sort", "sort_bytes_bit_range", 64, ["in=uint8[256]:0..255", "out=uint8[256]"])
    assert out["out"].tolist() == np.sort(ins["in"]).tolist()


@pytest.mark.parametrize("kernel", ["scan_raking", "scan_raking_memoize", "scan_warp_scans"])
def test_block_scan(run, kernel):
    out, ins = run("block_scan", kernel, 96, ["in=int32[288]:-50..50", "incl=int32[288]", "excl=int32[288]",
                                              "maxs=int32[288]", "total=int32[1]"])
    x = ins["in"].astype(np.int64)
    assert out["incl"].tolist() == np.cumsum(x).tolist()
    assert out["excl"].tolist() == (np.cumsum(x) - x).tolist()
    assert out["maxs"].tolist() == np.maximum.accumulate(x).tolist()
    assert int(out["total"][0]) == int(x.sum())


@pytest.mark.parametrize("kernel", ["reduce_raking", "reduce_raking_commutative", "reduce_warp_reductions"])
def test_block_reduce(run, kernel):
    out, ins = run("block_reduce", kernel, 128, ["in=float32[256]", "ints=int32[128]:-1000..1000", "sum=float32[1]",
                                                 "mx=int32[1]", "partial=int32[1]", "n=77"])
    assert math.isclose(float(out["sum"][0]), float(ins["in"].astype(np.float64).sum()), rel_tol=1e-5, abs_tol=1e-5)
    assert int(out["mx"][0]) == int(ins["ints"].max())
    assert int(out["partial"][0]) == int(ins["ints"][:77].sum())


@pytest.mark.parametrize("kernel", ["histogram_atomic", "histogram_sort"])
def test_block_histogram(run, kernel):
    out, ins = run("block_histogram", kernel, 64, ["in=uint8[256]:0..255", "bins=uint32[64]"])
    assert out["bins"].tolist() == np.bincount(ins["in"] & 63, minlength=64).tolist()


def test_block_adjacent_difference(run):
    out, ins = run("block_adjacent", "adjacent_difference", 64,
                   ["in=int32[128]", "left=int32[128]", "right=int32[128]"])
    x = ins["in"]
    assert out["left"].tolist() == [int(x[0])] + (x[1:] - x[:-1]).tolist()
    assert out["right"].tolist() == (x[:-1] - x[1:]).tolist() + [int(x[-1])]


def test_block_discontinuity(run):
    out, ins = run("block_adjacent", "discontinuity", 64, ["in=int32[128]", "heads=int32[128]", "tails=int32[128]"])
    v = (ins["in"] // 300).tolist()
    assert out["heads"].tolist() == [1] + [int(a != b) for a, b in zip(v, v[1:])]
    assert out["tails"].tolist() == [int(a != b) for a, b in zip(v, v[1:])] + [1]


def test_block_shuffle(run):
    out, ins = run("block_adjacent", "shuffle", 64, ["in=int32[128]", "offset=int32[64]", "up=int32[128]",
                                                     "down=int32[128]"])
    x = ins["in"]
    assert out["offset"].tolist() == x[3:64].tolist() + [0, 0, 0]
    assert out["up"].tolist() == [-7] + x[:127].tolist()
    assert out["down"].tolist() == x[1:].tolist() + [-7]


def test_block_run_length_decode(run):
    out, ins = run("block_run_length", "run_length_decode", 32, ["values=int32[64]", "lengths=int32[64]:1..5",
                                                                 "out=int32[400]", "total=int32[1]"])
    want = np.repeat(ins["values"], ins["lengths"])
    assert int(out["total"][0]) == want.size
    assert out["out"][:want.size].tolist() == want.tolist()
    assert out["out"][want.size:].tolist() == ins["out"][want.size:].tolist()


# ------------------------------------------------------------------------------ warp primitives


def test_warp_scan(run):
    out, ins = run("warp_primitives", "warp_scan", 64, ["in=int32[64]:-100..100", "incl=int32[64]", "excl=int32[64]",
                                                        "sub16=int32[64]"])
    x = ins["in"].reshape(2, 32)
    assert out["incl"].tolist() == np.cumsum(x, axis=1).ravel().tolist()
    excl = [[0] + np.maximum.accumulate(w[:-1]).tolist() for w in x]
    assert out["excl"].tolist() == sum(excl, [])
    assert out["sub16"].tolist() == np.cumsum(x.reshape(4, 16), axis=1).ravel().tolist()


def test_warp_reduce(run):
    out, ins = run("warp_primitives", "warp_reduce", 64, ["in=int32[64]:-100..100", "f=float32[64]", "sums=int32[2]",
                                                          "mins=int32[2]", "fsums=float32[8]", "heads=int32[64]"])
    x = ins["in"]
    assert out["sums"].tolist() == x.reshape(2, 32).sum(axis=1).tolist()
    assert out["mins"].tolist() == x.reshape(2, 32).min(axis=1).tolist()
    fsums = ins["f"].astype(np.float64).reshape(8, 8).sum(axis=1)
    np.testing.assert_allclose(out["fsums"], fsums, rtol=1e-5, atol=1e-6)
    segs = x.reshape(8, 8).sum(axis=1)
    assert out["heads"].tolist() == [int(segs[t // 8]) if t % 8 == 0 else 0 for t in range(64)]


@pytest.mark.parametrize("kernel, factor", [("warp_exchange", 1), ("warp_load_store", 3)])
def test_warp_exchange_and_load_store(run, kernel, factor):
    out, ins = run("warp_primitives", kernel, 64, ["in=int32[256]", "out=int32[256]"])
    assert out["out"].tolist() == (ins["in"] * factor).tolist()


def test_warp_merge_sort(run):
    out, ins = run("warp_primitives", "warp_merge_sort", 64, ["in=int32[256]", "out=int32[256]"])
    assert out["out"].tolist() == np.sort(ins["in"].reshape(2, 128), axis=1).ravel().tolist()


# ------------------------------------------------------------------------------ cooperative_groups


def test_cg_tile_reduce_and_scan(run):
    out, ins = run("cooperative_groups", "tile_reduce_scan", 64, ["in=int32[64]", "sums=int32[4]", "maxs=int32[4]",
                                                                  "scans=int32[64]", "excl=int32[64]"])
    x = ins["in"].reshape(4, 16)
    assert out["sums"].tolist() == x.sum(axis=1).tolist()
    assert out["maxs"].tolist() == x.max(axis=1).tolist()
    assert out["scans"].tolist() == np.cumsum(x, axis=1).ravel().tolist()
    excl = np.bitwise_xor.accumulate(x, axis=1) ^ x
    assert out["excl"].tolist() == excl.ravel().tolist()


def test_cg_labeled_partition(run):
    out, ins = run("cooperative_groups", "labeled_partition", 64, ["in=int32[64]", "sums=int32[64]", "ranks=int32[64]",
                                                                   "sizes=int32[64]"])
    x = ins["in"].tolist()
    for t in range(64):
        same = [u for u in range(t // 32 * 32, t // 32 * 32 + 32) if x[u] % 5 == x[t] % 5]
        assert (out["sums"][t], out["ranks"][t], out["sizes"][t]) == (sum(x[u] for u in same), same.index(t),
                                                                      len(same)), t


def test_cg_coalesced_threads_and_votes(run):
    out, ins = run("cooperative_groups", "coalesced_branch", 64, ["in=int32[64]", "counts=int32[64]",
                                                                  "any_all=int32[64]"])
    x = ins["in"].tolist()
    for t in range(64):
        warp = range(t // 32 * 32, t // 32 * 32 + 32)
        odd = [u for u in warp if x[u] & 1]
        assert out["counts"][t] == (len(odd) * 100 + odd.index(t) if x[t] & 1 else -1), t
        flags = any(x[u] > 1000 for u in warp) * 4 + all(x[u] >= 0 for u in warp) * 2 + (len(odd) > 0)
        assert out["any_all"][t] == flags, t


# ------------------------------------------------------------------------------ libcu++


def _bits_reference(x: int) -> list[int]:
    M32, M64 = (1 << 32) - 1, (1 << 64) - 1
    w = (x * 0x9E3779B97F4A7C15) & M64
    bw = x.bit_length()
    v = x & 0xFFFF
    r = x & 31
    lead_ones = 64 - (~w & M64).bit_length()
    trail_ones = ((w + 1) & ~w & M64).bit_length() - 1 if w != M64 else 64
    rotr = ((w >> 13) | (w << 51)) & M64
    return [bin(x).count("1"), 32 - bw, (x & -x).bit_length() - 1 if x else 32, bw, (1 << (bw - 1)) if x else 0,
            1 if v <= 1 else 1 << (v - 1).bit_length(), ((x << r) | (x >> (32 - r))) & M32 if r else x,
            int(x != 0 and x & (x - 1) == 0), lead_ones + (trail_ones << 8), (rotr >> 7) & M32]


def test_libcudacxx_bit(run):
    out, ins = run("libcudacxx", "bits", 64, ["in=uint32[64]:0..4294967295", "out=uint32[640]"])
    for t, x in enumerate(ins["in"].tolist()):
        assert out["out"][t * 10:(t + 1) * 10].tolist() == _bits_reference(x), f"x={x:#x}"


def test_libcudacxx_numeric(run):
    out, ins = run("libcudacxx", "numeric", 64, ["a=int32[64]:-100000..100000", "b=int32[64]:1..100000",
                                                 "out=int32[384]"])
    for t, (x, y) in enumerate(zip(ins["a"].tolist(), ins["b"].tolist())):
        cx, cy = int(math.fmod(x, 100)), int(math.fmod(y, 100))  # C's remainder takes the dividend's sign
        lcm = abs(cx * cy) // math.gcd(cx, cy) if cx and cy else 0
        mid = x + (y - x) // 2 if y >= x else x - (x - y) // 2  # rounds toward the first argument
        want = [math.gcd(x, y), lcm, mid, min(x, y) + max(x, y) * 3, -(-abs(x) // 7), 2**31 - 1 - abs(x)]
        assert out["out"][t * 6:(t + 1) * 6].tolist() == want, (x, y)


def test_libcudacxx_complex(run):
    out, ins = run("libcudacxx", "complex_mul", 64, ["re=float32[64]", "im=float32[64]", "out=float32[192]"])
    z = ins["re"].astype(np.float64) + 1j * ins["im"].astype(np.float64)
    w = z * z + (1 - 0.5j)
    want = np.stack([w.real, w.imag, np.abs(w) ** 2], axis=1).ravel()
    np.testing.assert_allclose(out["out"], want, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------------------ cuda_fp16 / cuda_bf16


def _round(v: float, bits: int, mode: str = "rn") -> float:
    """v rounded to a float of `bits` significand bits (normal range) by mode rn, rz, rd or ru."""
    if v == 0 or not math.isfinite(v):
        return v
    _, e = math.frexp(v)
    q = Fraction(v) * Fraction(2) ** (bits - e)
    lo = math.floor(q)
    pick = {"rz": lo if q >= 0 else math.ceil(q), "rd": lo, "ru": math.ceil(q),
            "rn": round(q)}[mode]  # Fraction rounds half to even
    return float(Fraction(pick) * Fraction(2) ** (e - bits))


def h(v: float, mode: str = "rn") -> float:
    """To half (11 bits; its overflow and subnormals through NumPy, which rounds to nearest even)."""
    if mode == "rn" or abs(v) < 2.0 ** -14:
        with np.errstate(over="ignore"):
            return float(np.float16(v))
    return _round(v, 11, mode)


def bf(v: float, mode: str = "rn") -> float:
    return _round(v, 8, mode)


def f32(v: float) -> float:
    return float(np.float32(v))


def test_half_and_bfloat16(run):
    out, ins = run("half_math", "half_ops", 64, ["a=float32[64]", "b=float32[64]", "out=float32[1024]"])
    for t, (x, y) in enumerate(zip(ins["a"].tolist(), ins["b"].tolist())):
        hx, hyz, hy = h(x), h(y, "rz"), h(y)
        bx, by = bf(x), bf(y)
        want = [hx, hyz, h(x, "rd"), h(x, "ru"), h(hx * hy + hx), h(hy * 0.5 + hy),
                f32(min(hx, hy) + max(hy, 0.5) * 8), max(h(hx * hyz + hx), 0.0), min(max(h(hx + hyz), 0.0), 1.0),
                f32(bx + bf(y, "rz") * 4), bf(bx * by + bx), bf(by * bx + by), f32(min(bx, by) - max(by, bx)),
                h(f32(x * 70000.0)), f32(math.trunc(h(f32(x * 100))) + math.floor(bf(f32(y * 100))) * 1000.0),
                max(bx, 0.0)]
        assert out["out"][t * 16:(t + 1) * 16].tolist() == want, f"thread {t}: x={x!r} y={y!r}"


def test_fast_math(run):
    out, ins = run("half_math", "fast_math", 64, ["a=float32[64]", "out=float32[256]"])
    x = ins["a"].astype(np.float64)
    got = out["out"].reshape(64, 4)
    np.testing.assert_allclose(got[:, 0], np.exp2(x), rtol=2e-6)
    np.testing.assert_allclose(got[:, 1], np.exp(x), rtol=2e-6)
    np.testing.assert_allclose(got[:, 2], np.tanh(x), rtol=2e-6, atol=1e-7)
    assert got[:, 3].tolist() == np.clip(ins["a"] * np.float32(2), 0, 1).tolist()


# ------------------------------------------------------------------------------ bit instructions (PTX ISA pseudo-code)

M32, M64 = (1 << 32) - 1, (1 << 64) - 1
PRMT = {"f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],  # [selector][result byte 0..3]
        "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
        "rc8": [[0] * 4, [1] * 4, [2] * 4, [3] * 4],
        "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
        "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
        "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]]}


def bmsk(a, b, clamp):
    a1, b1 = a & 31, b & 31
    mask0, mask1 = (M32 << a1) & M32, (M32 << (a1 + b1)) & M32
    over = a1 + b1 >= 32
    if clamp and a >= 32:
        mask0, over = 0, True
    if clamp and b >= 32:
        over = True
    mask1 = 0 if over else (M32 if b1 == 0 else mask1)
    return mask0 & ~mask1 & M32


def fns(mask, base, offset):
    if offset == 0:
        return base if mask >> base & 1 else M32
    pos, count, inc = base, abs(offset) - 1, 1 if offset > 0 else -1
    while 0 <= pos < 32:
        if mask >> pos & 1:
            if count == 0:
                return pos
            count -= 1
        pos += inc
    return M32


def prmt(a, b, c, mode=None):
    x = b << 32 | a
    if mode:
        return sum((x >> 8 * src & 0xFF) << 8 * i for i, src in enumerate(PRMT[mode][c & 3]))
    out = 0
    for i in range(4):
        nib = c >> 4 * i & 0xF
        byte = x >> 8 * (nib & 7) & 0xFF
        out |= (0xFF if byte & 0x80 else 0) << 8 * i if nib & 8 else byte << 8 * i
    return out


def szext(a, n, signed, clamp):
    n = min(n, 32) if clamp else n & 31
    v = a & ((1 << n) - 1)
    if signed and n and v >> (n - 1) & 1:
        v |= M32 & ~((1 << n) - 1)
    return v


def bfe64(a, pos, ln):
    if ln == 0:
        return 0
    sbit = a >> min(pos + ln - 1, 63) & 1
    return sum((a >> pos + i & 1 if i < ln and pos + i <= 63 else sbit) << i for i in range(64))


def bfi64(a, b, pos, ln):
    f = b
    for i in range(ln):
        if pos + i > 63:
            break
        f = (f & ~(1 << pos + i)) | ((a >> i & 1) << pos + i)
    return f


def fold(r):
    return (r ^ (r >> 32)) & M32


def test_bit_instructions(run):
    out, ins = run("bit_intrinsics", "bit_ops", 64, ["a=uint32[64]:0..4294967295", "b=uint32[64]:0..4294967295",
                                                     "c=uint32[64]:0..4294967295", "out=uint32[1088]"])
    for t, (x, y, s) in enumerate(zip(ins["a"].tolist(), ins["b"].tolist(), ins["c"].tolist())):
        pos, ln = s & 63, s >> 8 & 63
        w = x << 32 | y
        sx = x - (1 << 32) if x >> 31 else x
        want = [bmsk(pos, ln, True), bmsk(pos, ln, False), fns(x, s & 31, ln - 32)]
        want += [prmt(x, y, s, m) for m in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16")] + [prmt(x, y, s & 0x7777)]
        sh = x >> (s & 31)
        want += [31 - (sh.bit_length() - 1) if sh else M32, (sx if sx >= 0 else ~sx).bit_length() - 1 & M32,
                 szext(x, ln, True, True), szext(x, ln, False, False),
                 fold(bfe64(w, pos, ln)), fold(bfi64(s, w, pos, ln)), prmt(x, y, s & 0xFFFF)]
        got = out["out"][t * 17:(t + 1) * 17].tolist()
        wrong = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
        assert got == want, f"thread {t}: a={x:#x} b={y:#x} c={s:#x}: outputs {wrong}"


def test_half_functions_fp8_and_bit_cast(run):
    out, ins = run("half_math", "half_functions", 64, ["a=float32[64]", "out=float32[512]"])
    a = ins["a"].astype(np.float64)
    got = out["out"].reshape(64, 8).astype(np.float64)
    hx = np.array([h(v) for v in a])
    np.testing.assert_allclose(got[:, 0], np.exp(hx), rtol=1e-3)
    np.testing.assert_allclose(got[:, 1], np.sqrt(np.abs(hx)), rtol=1e-3)
    np.testing.assert_allclose(got[:, 2], np.tanh(hx), rtol=4e-3, atol=1e-3)
    assert got[:, 3].tolist() == [_round(f32(v * 10), 4) for v in ins["a"].tolist()]  # e4m3: 4 significand bits
    assert got[:, 4].tolist() == [-2 * _round(v, 3) for v in a.tolist()]  # e5m2: 3 significand bits
    assert got[:, 5].tolist() == (-a).tolist()
    np.testing.assert_allclose(got[:, 6], np.exp(hx) - 1, rtol=1e-3, atol=2e-3)
    np.testing.assert_allclose(got[:, 7], hx / 0.75, rtol=1e-3)


def test_thread_load_store_and_wide_types(run):
    out, ins = run("thread_io", "thread_load_store", 64, ["in=int32[64]", "out=int32[128]", "sum=float64[1]",
                                                          "scan=int64[64]"])
    x = ins["in"].astype(np.int64)
    assert out["out"].tolist() == (5 * x).tolist() + (5 * x + 1).tolist()
    assert float(out["sum"][0]) == float(x.sum()) / 2
    assert out["scan"].tolist() == np.cumsum(x << 20).tolist()


def test_atomic_ref(run):
    out, ins = run("synchronization", "atomics", 64, ["in=int32[64]", "g=int32[1]:0..0", "out=int32[4]"])
    x = ins["in"].reshape(16, 4)
    assert out["out"].tolist() == np.maximum(x.sum(axis=0), 16 * x.max(axis=0)).tolist()
    assert out["g"].tolist() == [64]


def test_barrier_and_memcpy_async(run):
    out, ins = run("synchronization", "barrier_copy", 64, ["in=int32[64]", "out=int32[128]"])
    assert out["out"].tolist() == ins["in"][::-1].tolist() + (ins["in"] + 1).tolist()


def test_block_merge_sort_descending(run):
    out, ins = run("block_merge_sort", "merge_sort_descending", 64, ["in=int64[192]", "out=int64[192]"])
    assert out["out"].tolist() == sorted(ins["in"].tolist(), reverse=True)


def test_block_radix_sort_64_bit_keys(run):
    out, ins = run("block_merge_sort", "radix_sort_wide", 128,
                   ["in=uint64[256]:0..18446744073709551615", "out=uint64[256]"])
    assert out["out"].tolist() == sorted(ins["in"].tolist())


def test_block_radix_rank_match(run):
    out, ins = run("block_merge_sort", "radix_rank_match", 64, ["in=uint32[128]", "ranks=int32[128]"])
    digits = (ins["in"] & 15).tolist()  # ranked by their low 4 bits; equal digits in the order CUB takes them:
    # warp by warp, a warp's keys item by item, an item's lanes in order
    order = sorted(range(128), key=lambda k: (digits[k], k // 64, k % 2, k // 2 % 32))
    want = [0] * 128
    for rank, k in enumerate(order):
        want[k] = rank
    assert out["ranks"].tolist() == want


# ------------------------------------------------------------------------------ warp and math intrinsics


def test_warp_intrinsics_per_half_warp_masks(run):
    out, ins = run("warp_math_intrinsics", "warp_votes", 64, ["in=int32[64]", "out=uint32[512]"])
    x = ins["in"].tolist()
    for t in range(64):
        lo = t // 16 * 16
        group = range(lo, lo + 16)
        gmask = 0xFFFF << (lo % 32)
        vals = [x[u] for u in group]
        same = len({v & 1 for v in vals}) == 1
        andv, orv, xorv = vals[0], vals[0], 0
        for v in vals:
            andv, orv, xorv = andv & v, orv | v, xorv ^ v
        warp = range(t // 32 * 32, t // 32 * 32 + 32)
        active = sum(1 << (u % 32) for u in warp if x[u] & 2)
        want = [int(same), gmask if same else 0, int(same), (andv ^ orv) & M32, (xorv + min(vals)) & M32,
                active if x[t] & 2 else 0, sum(1 << (u % 32) for u in group if x[u] & 3 == x[t] & 3), lo % 32]
        assert out["out"][t * 8:(t + 1) * 8].tolist() == want, t


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def test_integer_high_and_wide_products(run):
    out, ins = run("warp_math_intrinsics", "int_math", 64, ["a=int32[64]:-2147483648..2147483647",
                                                            "b=int32[64]:-2147483648..2147483647", "out=int64[384]"])
    for t, (x, y) in enumerate(zip(ins["a"].tolist(), ins["b"].tolist())):
        ux, uy = x & M32, y & M32
        u, v = s64(x * 0x9E3779B97F4A7C1 + y), s64(y * 0x7F4A7C15F39CC06 - x)
        want = [((ux * uy >> 32) + (ux ^ uy)) & M32, s64(x * y + (x << 20)), (u * v) >> 64,
                s64((u & M64) * (v & M64) >> 64), ((x * y >> 32) + (ux * uy >> 32)) & M32,
                max(-2**31, min(2**31 - 1, (x * y >> 32) + 0x7FFFFF00))]
        assert out["out"][t * 6:(t + 1) * 6].tolist() == want, (x, y)


def test_float_intrinsics(run):
    out, ins = run("warp_math_intrinsics", "float_math", 64, ["a=float32[64]", "b=float32[64]", "out=float32[512]"])
    got = out["out"].reshape(64, 8)
    a, b = ins["a"].astype(np.float64), ins["b"].astype(np.float64)
    np.testing.assert_allclose(got[:, 0], np.tanh(np.float32(4) * ins["a"]), rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(got[:, 1], np.exp2(np.float32(10) * ins["a"]), rtol=2e-6)
    for t, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        bx, by = bf(x), bf(y)
        big = f32(x * 100000)
        want = [min(h(x), h(y)), math.nan, h(y), max(bf(bx * by + bx), 0.0), f32(h(max(big, 0.0)) + max(h(y), 0.0)),
                max(-65504.0, min(65504.0, h(big)))]
        row = got[t].tolist()
        assert row[2] == want[0] and math.isnan(row[3]) and row[4] == want[2], t
        assert row[5:] == want[3:], t
