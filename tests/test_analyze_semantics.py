"""The emulator's instruction semantics against references written from the PTX ISA (no GPU).

Each kernel of tests/data/analyze/semantics.cu applies one family of instructions to seeded inputs
(the --arg fill contract) and stores the results; here the same is computed element by element with
Python integers and floats.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

import numpy as np
from smemlab.analyze import analyze_source
from smemlab.analyze.args import fill, parse_arg

SRC = str(Path(__file__).parent / "data" / "analyze" / "semantics.cu")
M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def run(kernel, block, args):
    block = block if isinstance(block, tuple) else (block,)
    r = analyze_source(SRC, kernel, block, args=args)
    ins = {a.split("=")[0]: fill(a.split("=")[0], parse_arg(a)[1]) for a in args if "[" in a}  # buffers
    return r, ins


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def tdiv(a, b):  # C division: truncation toward zero
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rows(out, n, count):
    return out[: n * count].reshape(n, count)


def test_int32_arithmetic():
    r, ins = run("int32_ops", 64, ["a_=int32[64]:-100000..100000", "b_=int32[64]:-300..300", "out=int32[1024]"])
    got = rows(r.buffers["out"], 16, 64)
    for t, (a, b) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist())):
        ua, ub = a & M32, b & M32
        want = [s32(a + b), s32(a - b), s32(a * b), s32((a * b) >> 32), s32((ua * ub) >> 32),
                tdiv(a, b) if b else 0, (a - tdiv(a, b) * b) if b else 0,
                s32(ua // ub) if ub else 0, s32(ua % ub) if ub else 0, min(a, b), s32(max(ua, ub)), abs(a),
                s32(a * b + (a ^ b)), s32(((a * b) >> 32) + 7), s32(abs(ua - ub) + 5), tdiv(a, b) if b else -1]
        assert got[:, t].tolist() == want, f"thread {t}: a={a} b={b}"


def test_64_bit_and_wide():
    r, ins = run("wide_ops", 64, ["a_=int32[64]:-100000..100000", "b_=int32[64]:-300..300", "out=int64[1024]"])
    got = rows(r.buffers["out"], 9, 64)
    for t, (a, b) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist())):
        la, lb = a * 1000003 + b, b * 7919 - a
        want = [a * b, s64((a & M32) * (b & M32)), s64(la * lb), s64(((la & M64) * (lb & M64)) >> 64),
                s64((la * lb) >> 64), tdiv(la, lb) if lb else 0, (la - tdiv(la, lb) * lb) if lb else 0,
                la >> (b & 63), s64((la & M64) >> (a & 63))]
        assert got[:, t].tolist() == want, f"thread {t}: a={a} b={b}"


def test_shifts_clamp_their_amount():
    r, ins = run("shift_ops", 64, ["a_=uint32[64]:0..4294967295", "b_=uint32[64]:0..4294967295",
                                   "out=uint32[1024]"])
    got = rows(r.buffers["out"], 5, 64)
    for t, (a, b) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist())):
        n = b % 41
        sa = s32(a)
        wrap = ((((~a & M32) << 32) | a) << (n & 31)) >> 32 & M32
        hi = (a * 3) & M32
        clamp = ((hi << 32) | a) >> min(n, 32) & M32
        want = [(a << n) & M32 if n < 32 else 0, a >> n if n < 32 else 0, (sa >> min(n, 31)) & M32, wrap, clamp]
        assert got[:, t].tolist() == want, f"thread {t}: a={a:#x} n={n}"


def _bfe(a, pos, ln, signed):
    if ln == 0:
        return 0
    msb = 31
    sbit = (a >> min(pos + ln - 1, msb)) & 1 if signed else 0
    out = 0
    for i in range(32):
        bit = (a >> (pos + i)) & 1 if (i < ln and pos + i <= msb) else sbit
        out |= bit << i
    return out


def _bfi(a, b, pos, ln):
    f = b
    for i in range(ln):
        if pos + i > 31:
            break
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
    return f & M32


def _prmt(a, b, c, mode=None):
    x = (b << 32) | a
    tables = {"f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
              "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]]}
    out = 0
    for i in range(4):
        if mode is None:
            nib = (c >> (4 * i)) & 0xF
            byte = (x >> (8 * (nib & 7))) & 0xFF
            if nib & 8:
                byte = 0xFF if byte & 0x80 else 0
        else:
            byte = (x >> (8 * tables[mode][c & 3][i])) & 0xFF
        out |= byte << (8 * i)
    return out


def _bfind(v, signed):
    if signed and v >> 31:
        v = ~v & M32
    return v.bit_length() - 1 if v else M32


def _lop3(a, b, c, lut):
    out = 0
    for i in range(32):
        idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
        out |= ((lut >> idx) & 1) << i
    return out


def test_bit_manipulation():
    r, ins = run("bit_ops", 64, ["a_=uint32[64]:0..4294967295", "b_=uint32[64]:0..4294967295", "out=uint32[1024]"])
    got = rows(r.buffers["out"], 16, 64)
    for t, (a, b) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist())):
        pos, ln = b & 0x3F, (b >> 8) & 0x3F
        sh = a >> (b & 31)
        bf = _bfind(sh, False)
        want = [_bfe(a, pos, ln, False), _bfe(a, pos, ln, True), _bfi(a, b, pos, ln), _prmt(a, b, b >> 16),
                _prmt(a, b, b >> 3, "f4e"), _prmt(a, b, b >> 5, "b4e"), bin(a).count("1"),
                32 - (a & (b >> 3)).bit_length(), int(f"{a:032b}"[::-1], 2), bf, _bfind(sh, True),
                (31 - bf) if sh else M32, _lop3(a, b, (a * 7) & M32, 0x96), _lop3(a, b, (a * 7) & M32, 0xE8),
                (a & -a).bit_length(), bin((a << 32) | b).count("1")]
        assert got[:, t].tolist() == want, f"thread {t}: a={a:#x} b={b:#x}"


def test_comparisons_and_selection():
    r, ins = run("compare_ops", 64, ["a_=int32[64]:-5..5", "b_=int32[64]:-5..5", "x_=float32[64]:-2..2",
                                     "y_=float32[64]:-2..2", "out=int32[1024]"])
    got = rows(r.buffers["out"], 10, 64)
    xs, ys = ins["x_"].copy(), ins["y_"].copy()
    for t, (a, b) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist())):
        x, y = float(xs[t]), float(ys[t])
        ua, ub = a & M32, b & M32
        flags = lambda p, q: (p < q) | (p <= q) << 1 | (p > q) << 2 | (p >= q) << 3 | (p == q) << 4 | (p != q) << 5  # noqa
        inv = lambda v: v ^ 0x3F  # noqa: E731
        ltu = x < y or math.isnan(x) or math.isnan(y)
        want = [flags(a, b), flags(ua, ub) & 0xF, flags(x, y), inv(flags(x, y)), int(ltu) + 2 * int(not ltu),
                a if (a ^ b) >= 0 else b, -1 if a > b else 0, int(not (math.isnan(x) or math.isnan(y))),
                int(np.float32(min(x, y)).view(np.int32)), int(np.float32(max(x, y)).view(np.int32))]
        assert got[:, t].tolist() == want, f"thread {t}"


def _f32_bits(v):
    return struct.unpack("<i", struct.pack("<f", v))[0]


def _f2i(x, rnd, lo=-2**31, hi=2**31 - 1):
    if math.isnan(x):
        return 0
    v = {"rn": round, "rz": math.trunc, "rd": math.floor, "ru": math.ceil}[rnd](x) if math.isfinite(x) else \
        (hi if x > 0 else lo)
    return max(lo, min(hi, v))


def test_conversions_round_and_saturate():
    r, ins = run("convert_ops", 64, ["x_=float32[64]:-3e9..3e9", "d_=float64[64]:-1e6..1e6",
                                     "a_=int32[64]:-2000000000..2000000000", "out=int32[2048]"])
    got = rows(r.buffers["out"], 18, 64)
    for t in range(64):
        x, d, a = float(ins["x_"][t]), float(ins["d_"][t]), int(ins["a_"][t])
        if t % 7 == 0:
            continue  # keep the loop short
        f32 = np.float32(d)
        below = np.nextafter(f32, np.float32(-np.inf)) if float(f32) > d else f32
        above = np.nextafter(f32, np.float32(np.inf)) if float(f32) < d else f32
        rz = below if d > 0 else above
        with np.errstate(over="ignore"):
            h = np.float16(np.float32(x))  # inf where x is out of half range
        want = [_f2i(x, "rn"), _f2i(x, "rz"), _f2i(x, "rd"), _f2i(x, "ru"), s32(_f2i(x, "rz", 0, M32)),
                _f32_bits(float(np.float32(a))), None, _f32_bits(float(f32)), _f32_bits(float(rz)),
                _f32_bits(float(below)), _f32_bits(float(above)), int(h.view(np.uint16)),
                _f32_bits(float(np.float32(h))), max(0, min(255, a)), s32((a & 0xFF) - (256 if a & 0x80 else 0)),
                int(d) if abs(d) < 2**31 else None, _f32_bits(min(1.0, max(0.0, float(np.float32(x))))),
                _f32_bits(float(np.rint(np.float32(x))))]
        for k, w in enumerate(want):
            if w is not None:
                assert got[k, t] == w, f"thread {t} result {k}: x={x} d={d} a={a}"
        # int -> float toward zero: never above the value in magnitude, and within one ulp
        rz_i = np.int32(got[6, t]).view(np.float32)
        assert abs(float(rz_i)) <= abs(a) and abs(abs(a) - abs(float(rz_i))) <= float(np.spacing(np.float32(abs(a))))


def test_float_arithmetic_is_ieee_single():
    r, ins = run("float_ops", 64, ["x_=float32[64]", "y_=float32[64]", "out=float32[1024]"])
    got = rows(r.buffers["out"], 9, 64)
    x, y = ins["x_"], ins["y_"]
    with np.errstate(all="ignore"):
        want = [x + y, x - y, x * y, x / y, np.sqrt(np.abs(x)), np.abs(x) - y, -x * y, np.copysign(x, y),
                (x.astype(np.float64) * y + 1.0).astype(np.float32)]
    for k, w in enumerate(want):
        assert np.array_equal(got[k], w.astype(np.float32)), f"result {k}"


def _shfl_ref(v, b, c, mode):
    out, pv = [], []
    for lane in range(32):
        warp = lane // 32 * 32
        bval, cval, seg = b[lane] & 31, c[lane] & 31, (c[lane] >> 8) & 31
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j, ok = lane - bval, lane - bval >= max_lane
        elif mode == "down":
            j, ok = lane + bval, lane + bval <= max_lane
        elif mode == "bfly":
            j, ok = lane ^ bval, (lane ^ bval) <= max_lane
        else:
            j = min_lane | (bval & ~seg)
            ok = j <= max_lane
        out.append(v[warp + (j if ok else lane)])
        pv.append(int(ok))
    return out, pv


def test_shuffles_follow_the_isa():
    r, ins = run("shfl_ops", 64, ["v_=int32[64]", "b_=uint32[64]:0..40", "c_=uint32[64]:0..8191", "out=int32[1024]"])
    got = rows(r.buffers["out"], 8, 64)
    v, b, c = ins["v_"].tolist(), ins["b_"].tolist(), ins["c_"].tolist()
    for w in range(2):
        sl = slice(32 * w, 32 * w + 32)
        for k, mode in enumerate(("idx", "up", "down", "bfly")):
            vals, preds = _shfl_ref(v[sl], b[sl], c[sl], mode)
            assert got[2 * k, sl].tolist() == vals, mode
            assert got[2 * k + 1, sl].tolist() == preds, mode


def test_votes_match_and_redux_see_only_the_active_lanes():
    r, ins = run("vote_ops", 64, ["v_=int32[64]:0..9", "on_=int32[64]:0..1", "out=int32[1024]"])
    got = rows(r.buffers["out"], 9, 64)
    v, on = ins["v_"].tolist(), ins["on_"].tolist()
    for w in range(2):
        lanes = [i for i in range(32 * w, 32 * w + 32) if on[i]]
        act = sum(1 << (i % 32) for i in lanes)
        for t in range(32 * w, 32 * w + 32):
            if not on[t]:
                assert got[:, t].tolist() == [-7] * 9
                continue
            same3 = sum(1 << (i % 32) for i in lanes if v[i] & 3 == v[t] & 3)
            all8 = len({v[i] & 8 for i in lanes}) == 1
            want = [s32(act), s32(sum(1 << (i % 32) for i in lanes if v[i] & 1)), int(all(v[i] > 2 for i in lanes)),
                    int(any(v[i] > 6 for i in lanes)), int(len({bool(v[i] & 4) for i in lanes}) == 1), s32(same3),
                    s32(act) if all8 else 0, int(all8), sum(v[i] for i in lanes) ^ (max(v[i] for i in lanes) << 16)]
            assert got[:, t].tolist() == want, f"thread {t}"


def test_barrier_reductions():
    r, ins = run("barrier_ops", 256, ["v_=int32[256]:0..9", "out=int32[1024]"])
    got = rows(r.buffers["out"], 3, 256)
    v = ins["v_"]
    assert set(got[0]) == {int((v & 1).sum())}
    assert set(got[1]) == {1}
    assert set(got[2]) == {int((v == 3).any())}
    assert r.barriers == 3


def test_atomics_are_serial():
    r, ins = run("atomic_ops", 128, ["k_=int32[128]", "counts=int32[64]:0..0", "ctr=uint32[1]:0..0",
                                     "out=int32[1024]"])
    got = rows(r.buffers["out"], 6, 128)
    k = ins["k_"] & 15
    inc = 1 + (np.arange(128) & 3)
    # per key, the old values are the running sums of the increments, in some order
    for key in range(16):
        lanes = np.flatnonzero(k == key)
        olds = got[0, lanes]
        order = np.argsort(olds, kind="stable")
        assert np.array_equal(olds[order], np.concatenate([[0], np.cumsum(inc[lanes][order])[:-1]]))
        assert got[5, key] == inc[lanes].sum()
    assert sorted(got[1]) == sorted(list(range(101)) + list(range(27)))  # atomicInc wraps to 0 after 100
    assert sorted(got[2]) == list(range(128))
    counts = r.buffers["counts"]
    for key in range(16):
        lanes = np.flatnonzero(k == key)
        if lanes.size:
            assert counts[key] == lanes.max()
            assert sorted(got[3, lanes].tolist()).count(0) == 1  # one CAS wins
            assert counts[16 + key] - 1 in lanes
    assert r.buffers["ctr"][0] == 128
    atom = r.totals("atomic")
    assert atom["requests"] == 2 * 4  # two shared atomics, 4 warps each


def test_local_constant_generic_memory_and_3d_blocks():
    r, ins = run("memory_ops", (8, 4, 4), ["v_=int32[128]", "g=int32[512]", "out=int32[1024]"])
    v, g = ins["v_"].astype(np.int64), ins["g"].astype(np.int64)
    table = [3, 1, 4, 1, 5, 9, 2, 6]
    local = [[int(v[t]) * i + table[(int(v[t]) + i) & 7] for i in range(8)] for t in range(128)]
    s = [local[t][v[t] & 7] for t in range(128)]
    out = r.buffers["out"]
    for t in range(128):
        p = s[(t + 1) % 128] if v[t] & 1 else g[t]
        assert out[t] == s32(p + local[t][(v[t] >> 3) & 7]), f"thread {t}"
        tx, ty, tz = t % 8, (t // 8) % 4, t // 32
        assert out[512 + t] == tx | ty << 8 | tz << 16
    gen = [ls for ls in r.lines if ls.generic]
    assert gen and gen[0].kind == "load"  # the generic load lands (partly) in shared memory


def test_divergence_and_reconvergence():
    r, ins = run("control_ops", 256, ["v_=int32[256]", "out=int32[256]:0..0"])
    v = ins["v_"].tolist()
    accs = []
    for x in v:
        acc = 0
        if x & 1:
            acc += 10 if x & 2 else -3
            for i in range(x & 15):
                acc += i * x
                if acc > 500:
                    break
        else:
            i = x & 7
            while i > 0:
                i -= 1
                acc ^= i << (x & 3)
        accs.append(s32(acc))
    out = r.buffers["out"]
    for t, x in enumerate(v):
        want = 0 if x % 5 == 0 else s32(accs[t] + accs[(t + 1) & 255])
        assert out[t] == want, f"thread {t}"
    # every warp stores s[tid] once, after reconverging
    store = [ls for ls in r.lines if ls.kind == "store"]
    assert sum(ls.requests for ls in store) == 8


def test_a_partial_warp_shuffles_within_its_lanes():
    r, ins = run("shfl_ops", 20, ["v_=int32[20]", "b_=uint32[20]:0..40", "c_=uint32[20]:0..8191", "out=int32[1024]"])
    assert r.totals("load")["requests"] == 0 and r.totals("store")["requests"] == 0
    got = rows(r.buffers["out"], 8, 20)
    v = ins["v_"].tolist() + [0] * 12
    vals, _ = _shfl_ref(v, ins["b_"].tolist() + [0] * 12, ins["c_"].tolist() + [0] * 12, "bfly")
    ok = [i for i in range(20) if (i ^ (ins["b_"][i] & 31)) < 20]  # sources that exist
    assert [got[6, i] for i in ok] == [vals[i] for i in ok]


def _ldmatrix_ref(tile, rows_of_lane, n, trans):
    """Registers of lane t per matrix i: rows given by lanes 8i..8i+7 (rows_of_lane[l] = (row, col0))."""
    out = []
    for t in range(32):
        regs = []
        for i in range(n):
            if trans:
                c = t // 4
                (ra, ca), (rb, cb) = rows_of_lane[8 * i + 2 * (t % 4)], rows_of_lane[8 * i + 2 * (t % 4) + 1]
                regs.append(int(tile[ra, ca + c]) | int(tile[rb, cb + c]) << 16)
            else:
                r, c0 = rows_of_lane[8 * i + t // 4]
                c = c0 + 2 * (t % 4)
                regs.append(int(tile[r, c]) | int(tile[r, c + 1]) << 16)
        out.append(regs)
    return out


def test_ldmatrix_hands_each_lane_its_fragment():
    src = str(Path(__file__).parent.parent / "tools" / "analyze_truth" / "kernels" / "ldmatrix.cu")
    args = ["out=uint32[64]", "in=uint16[4096]:0..65535"]
    tile = fill("in", parse_arg(args[1])[1]).reshape(64, 64)
    r = analyze_source(src, "ldmatrix_x4_swizzled", (64,), args=args)
    for w in range(2):
        rows = [(lane + 32 * w, ((lane + 32 * w) % 8) * 8) for lane in range(32)]
        ref = _ldmatrix_ref(tile, rows, 4, False)
        want = [a ^ b ^ c ^ d for a, b, c, d in ref]
        assert r.buffers["out"][32 * w:32 * w + 32].tolist() == want
    r = analyze_source(src, "ldmatrix_x2_trans", (64,), args=args)
    for w in range(2):
        rows = [((lane & 15) + 16 * w, (((lane & 15) + 16 * w) % 8 ^ 1) * 8) for lane in range(32)]
        ref = _ldmatrix_ref(tile, rows, 2, True)
        want = [(a + b) & M32 for a, b in ref]
        assert r.buffers["out"][32 * w:32 * w + 32].tolist() == want


def test_carry_chains():
    r, ins = run("carry_ops", 64, ["a_=uint32[64]:0..4294967295", "b_=uint32[64]:0..4294967295",
                                   "out=uint32[2048]"])
    got = rows(r.buffers["out"], 17, 64)
    M64_ = M64 + 1
    for t, (a, b) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist())):
        c, d = a ^ ((b << 7) & M32), (b * 2654435761) & M32
        add, sub = (c << 32 | a) + (d << 32 | b), (c << 32 | a) - (d << 32 | b)
        mad = (a * b + (d << 32 | c)) % M64_
        hi = ((s32(a) * s32(b)) >> 32) & M32  # mad.hi.s32: the signed product's high half
        p, q = a << 32 | b, d << 32 | c
        x, carry = (p + q) % M64_, (p + q) >> 64
        y = (p + q + carry) % M64_
        want = [add & M32, add >> 32 & M32, add >> 64, sub & M32, sub >> 32 & M32, M32 if sub < 0 else 0,
                mad & M32, mad >> 32, (hi + c) & M32, (hi + c) >> 32,
                x & M32, x >> 32, y & M32, y >> 32, t & 1, int(a + b > M32), M32 if a < b else 0]
        assert got[:, t].tolist() == want, f"thread {t}: a={a} b={b}"


def test_named_barriers_with_thread_counts():
    """Barrier ids and counts (bar.sync/barrier.sync a, b; bar.arrive a, b): a warp-specialised ring
    buffer, two warps meeting at one barrier from different instructions, and two groups apart."""
    n = 6
    r, ins = run("named_barriers", 128, ["in=int32[192]", f"n={n}", "out=int32[1024]"])
    out = r.buffers["out"]
    assert np.array_equal(out[: n * 32], (ins["in"].reshape(n, 32)[:, ::-1] * 2).ravel())
    t = np.arange(128)
    s = np.where(t < 64, t + 1, -t)
    got = rows(out, n + 2, 128)
    assert np.array_equal(got[n], np.where(t < 64, s[63 - (t % 64)], s[t ^ 32]))
    assert np.array_equal(got[n + 1, :64], (t[:64] ^ 32) * 3)
    assert r.barriers == n + (n - 2) + 2 + 1  # full n times, empty n - 2, barriers 5 and 6, barrier 7


def test_jump_tables_and_labels_in_blocks():
    """brx.idx picks a target of its .branchtargets list per thread (the paths meet again after it); a
    guard that is off falls through; the same asm inlined twice keeps its labels apart."""
    r, ins = run("switch_ops", 64, ["k_=int32[64]", "out=int32[1024]"])
    got = rows(r.buffers["out"], 2, 64)
    k = ins["k_"]
    t = np.arange(64)
    v = np.where(k & 4, ((k & 3) + 1) * 100, 0)
    assert np.array_equal(got[0], v + ((t + v // 100) & 63) * 10)
    assert np.array_equal(got[1], (((k >> 3) & 3) + 1) * 100)
    assert len({int(x) for x in v}) == 5  # every target and the fall-through were taken


WRAPPED_ADDRESS = r'''
extern "C" __global__ void wrap(unsigned *out)
{
    __shared__ unsigned buf[64];
    unsigned base;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(base) : "l"(buf));
    const unsigned below = base - 64u;  // under the window's start: wraps to 2^32 - 64 + base
    asm volatile("st.shared.u32 [%0+64], %1;" ::"r"(below + 4u * threadIdx.x), "r"(threadIdx.x + 7u) : "memory");
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x];
}
'''


def test_a_32_bit_shared_address_plus_offset_wraps_at_2_to_the_32(tmp_path):
    """[%r+imm] with a 32-bit register: the sum wraps, as the hardware's 32-bit shared addressing does
    (a base held below the window, brought back by the offset: an element-tile transpose's variant)."""
    src = tmp_path / "wrap.cu"
    src.write_text(WRAPPED_ADDRESS)
    r = analyze_source(str(src), "wrap", (32, 1, 1), args=["out=uint32[32]"])
    assert np.array_equal(r.buffers["out"], np.arange(32, dtype=np.uint32) + 7)
    assert r.totals("store")["wavefronts"] == r.totals("store")["requests"] == 1


def _fields(x: int, bits: int, signed: bool) -> list[int]:
    out = []
    for k in range(32 // bits):
        f = (x >> (bits * k)) & ((1 << bits) - 1)
        out.append(f - (1 << bits) if signed and f >> (bits - 1) else f)
    return out


def test_integer_dot_products():
    # dp4a: c + the four byte products; dp2a.lo/hi: c + a's two 16-bit halves times b's low or high two
    # bytes; signed or unsigned per operand, modulo 2^32 (the PTX ISA)
    full = ":0..4294967295"
    r, ins = run("dot_products", 64, [f"a_=uint32[64]{full}", f"b_=uint32[64]{full}", f"c_=uint32[64]{full}", "out=uint32[384]"])
    got = rows(r.buffers["out"], 6, 64)
    for t, (a, b, c) in enumerate(zip(ins["a_"].tolist(), ins["b_"].tolist(), ins["c_"].tolist())):
        want = []
        for signed in (True, False):
            want.append((c + sum(x * y for x, y in zip(_fields(a, 8, signed), _fields(b, 8, signed)))) & M32)
        for signed in (True, False):
            for hi in (False, True):
                bb = _fields(b, 8, signed)[2:] if hi else _fields(b, 8, signed)[:2]
                want.append((c + sum(x * y for x, y in zip(_fields(a, 16, signed), bb))) & M32)
        assert got[:, t].tolist() == want, f"thread {t}"


def test_compiling_leaves_the_interpreter_intact(monkeypatch):
    """NVRTC writes into the buffers analyze gives it, so they must be bytearrays: an empty log is one
    byte, and b" " * 1 is the interpreter's shared b" " (immortal in Python 3.12), which NVRTC's
    terminator once turned into b"\\0" for the whole process (numpy then failed to read .npy headers,
    torch to import). A fresh compile (a source never cached) hands NVRTC only bytearrays."""
    import uuid

    from cuda.bindings import nvrtc

    from smemlab.analyze.nvrtc import compile_ptx

    given = []
    for name in ("nvrtcGetProgramLog", "nvrtcGetPTX", "nvrtcGetCUBIN"):
        real = getattr(nvrtc, name)
        monkeypatch.setattr(nvrtc, name, lambda prog, buf, real=real, name=name: (given.append((name, type(buf))),
                                                                               real(prog, buf))[1])
    compiled = compile_ptx(f'// {uuid.uuid4()}\nextern "C" __global__ void k(int *p) {{ p[0] = 1; }}\n', "fresh.cu")
    assert compiled.log == "" and compiled.ptx and compiled.cubin  # the empty log: the one-byte buffer
    assert sorted(given) == [("nvrtcGetCUBIN", bytearray), ("nvrtcGetPTX", bytearray), ("nvrtcGetProgramLog", bytearray)]
    assert bytes([0x20]) == b" " and b" "[0] == 0x20


RUN_AHEAD = r'''
extern "C" __global__ void produce_after_the_branch(int *out, int n)
{
    __shared__ int slot[32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (warp == 0) {  // the consumer waits for data that warp 1 writes only after this branch
        for (int i = 0; i < n; ++i) {
            asm volatile("bar.sync 1, 64;" ::: "memory");  // full
            out[i * 32 + lane] = slot[lane] * 2;
            asm volatile("bar.sync 2, 64;" ::: "memory");  // empty
        }
    }
    if (warp == 1) {
        for (int i = 0; i < n; ++i) {
            slot[lane] = i * 100 + lane;
            asm volatile("bar.sync 1, 64;" ::: "memory");
            asm volatile("bar.sync 2, 64;" ::: "memory");
        }
    }
}
'''


def test_threads_past_a_branch_meet_a_barrier_that_its_other_path_waits_at(tmp_path):
    """Warps do not wait for each other where a branch's paths join (independent thread scheduling): warp 1
    leaves the first `if` and fills the slot that warp 0 waits for inside it, as a warp-specialised kernel's
    producer does (Triton's worker warp groups meet the default partition past their partition's code). The
    emulator's reconvergence stack parked warp 1 at the join and reported a hang."""
    src = tmp_path / "run_ahead.cu"
    src.write_text(RUN_AHEAD)
    n = 5
    r = analyze_source(str(src), "produce_after_the_branch", (64, 1, 1), args=["out=int32[160]", f"n={n}"])
    i, lane = np.divmod(np.arange(n * 32), 32)
    assert np.array_equal(r.buffers["out"], (i * 100 + lane) * 2)
    assert r.barriers == 2 * n


TWO_SPINNERS = r'''
extern "C" __global__ void two_spinners(int *out)
{
    __shared__ volatile int flag[2];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x < 2) flag[threadIdx.x] = 0;
    __syncthreads();
    if (warp < 2) {
        if (warp == 0) {
            while (flag[0] == 0) {}
            out[lane] = flag[0] + flag[1];
        } else {
            while (flag[1] == 0) {}
            out[32 + lane] = flag[1];
        }
    } else if (lane == 0) {
        flag[1] = 7;
        flag[0] = 5;
    }
}
'''


def test_a_spinning_path_lets_the_path_it_waits_for_run(tmp_path):
    """Two warps spin on flags that a third sets: when one spin is seen making no progress, the path brought
    up to run is one not seen spinning (the two spinners took turns, and the setter never ran)."""
    src = tmp_path / "spinners.cu"
    src.write_text(TWO_SPINNERS)
    r = analyze_source(str(src), "two_spinners", (96, 1, 1), args=["out=int32[64]"])
    assert np.array_equal(r.buffers["out"], np.r_[np.full(32, 12), np.full(32, 7)])
