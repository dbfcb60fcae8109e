"""Warp shuffle instructions (the book's program 001 "线程束洗牌指令"; its simpleShfl and
reduceIntegerShfl).

Demos: `__shfl_sync` broadcast (full warp, and in segments of BDIMX = 16), the wrap-around shift,
`__shfl_up_sync`, `__shfl_down_sync`, the `__shfl_xor_sync` butterfly, and shuffles over an array of
values per thread (xor array, int4, one element, array swap, swap). Each demo's lanes before and
after go into Case.extra["lanes_in"] / ["lanes_out"] and are checked against a NumPy model of the
instruction written from the PTX `shfl.sync` definition (its `c` operand: segment mask and clamp).
Reductions: per-warp and per-block sums with shuffles, timed beside the same sums in shared memory.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, SmemAccess, Variant
from smemlab.warp import shfl_c, shfl_source

SOURCE = "lab/shuffle/shuffle.cu"
WARP = 32
BDIMX = 16
SEGM = 4
DIM = 128


# ---- NumPy models of the instructions ------------------------------------------------------------
# The instruction's lane rule is smemlab.warp's (PTX shfl.sync, with the `c` operand CUDA's __shfl*_sync(width)
# passes), the one the emulator executes too.
def _check_width(width: int) -> None:
    if width not in (1, 2, 4, 8, 16, 32):
        raise ValueError(f"width must be a power of two in 1..32, got {width}")


def _shfl(values, mode: str, b, width: int) -> np.ndarray:
    _check_width(width)
    vals = np.asarray(values)
    n = vals.shape[0]
    if not 1 <= n <= WARP:
        raise ValueError(f"a warp holds 1..32 lanes, got {n}")
    lanes = np.arange(n)
    j, pval = shfl_source(mode, lanes, np.broadcast_to(np.asarray(b, dtype=np.int64), (n,)), shfl_c(mode, width))
    j = np.where(pval, j, lanes)
    unlaunched = np.flatnonzero(j >= n)
    if unlaunched.size:
        lane = int(unlaunched[0])
        raise ValueError(f"lane {lane} reads lane {int(j[lane])}, which was not launched (undefined)")
    return vals[j]


def shfl(values, src_lane, width: int = WARP) -> np.ndarray:
    """__shfl_sync(mask, v, srcLane, width): lane i gets lane (srcLane mod width) of its segment."""
    return _shfl(values, "idx", src_lane, width)


def shfl_up(values, delta: int, width: int = WARP) -> np.ndarray:
    """__shfl_up_sync: lane i gets lane i - delta; the first delta lanes of a segment keep theirs."""
    return _shfl(values, "up", delta, width)


def shfl_down(values, delta: int, width: int = WARP) -> np.ndarray:
    """__shfl_down_sync: lane i gets lane i + delta; the last delta lanes of a segment keep theirs."""
    return _shfl(values, "down", delta, width)


def shfl_xor(values, lane_mask: int, width: int = WARP) -> np.ndarray:
    """__shfl_xor_sync: lane i gets lane i ^ laneMask, unless that lane is in a later segment."""
    return _shfl(values, "bfly", lane_mask, width)


# ---- models of the book's demos (values: lanes x SEGM for the array demos) -------------------------
def model_xor_array(v: np.ndarray, mask: int, width: int = BDIMX) -> np.ndarray:
    return np.stack([shfl_xor(v[:, i], mask, width) for i in range(v.shape[1])], axis=1)


def model_xor_element(v: np.ndarray, mask: int, src: int, dst: int, width: int = BDIMX) -> np.ndarray:
    out = v.copy()
    out[:, src] = shfl_xor(v[:, dst], mask, width)
    return out


def _swap_around(v: np.ndarray, pred: np.ndarray, first: int, second: int, mask: int, width: int) -> np.ndarray:
    out = v.copy()
    out[pred, first], out[pred, second] = v[pred, second], v[pred, first]
    out[:, second] = shfl_xor(out[:, second], mask, width)
    a, b = out[pred, first].copy(), out[pred, second].copy()
    out[pred, first], out[pred, second] = b, a
    return out


def model_xor_array_swap(v: np.ndarray, mask: int, src: int, dst: int, width: int = BDIMX) -> np.ndarray:
    lanes = np.arange(v.shape[0])
    return _swap_around(v, (lanes & 1) != mask, src, dst, mask, width)


def model_swap(v: np.ndarray, mask: int, first: int, second: int, width: int = BDIMX) -> np.ndarray:
    lanes = np.arange(v.shape[0])
    return _swap_around(v, (lanes // mask + 1) == 1, first, second, mask, width)


# name -> (kernel, BDIMX, threads, SEGM values a thread or 0, scalar args (NumPy), model, summary)
DEMOS: dict[str, tuple] = {
    "shfl_broadcast_warp": ("test_shfl_broadcast", WARP, WARP, 0, (np.int32(2),),
                            lambda v: shfl(v, 2, WARP), "__shfl_sync(mask, v, 2): every lane gets lane 2 (the book's figure)"),
    "shfl_broadcast": ("test_shfl_broadcast", BDIMX, WARP, 0, (np.int32(2),),
                       lambda v: shfl(v, 2, BDIMX), "__shfl_sync(mask, v, 2, 16): lane 2 of each 16-lane segment"),
    "shfl_wrap": ("test_shfl_wrap", BDIMX, WARP, 0, (np.int32(2),),
                  lambda v: shfl(v, np.arange(WARP) + 2, BDIMX), "__shfl_sync(mask, v, lane + 2, 16): shift left by 2 with wrap-around"),
    "shfl_up": ("test_shfl_up", BDIMX, WARP, 0, (np.uint32(2),),
                lambda v: shfl_up(v, 2, BDIMX), "__shfl_up_sync(mask, v, 2, 16): shift right by 2, first 2 lanes keep theirs"),
    "shfl_down": ("test_shfl_down", BDIMX, WARP, 0, (np.uint32(2),),
                  lambda v: shfl_down(v, 2, BDIMX), "__shfl_down_sync(mask, v, 2, 16): shift left by 2, last 2 lanes keep theirs"),
    "shfl_xor": ("test_shfl_xor", BDIMX, WARP, 0, (np.int32(1),),
                 lambda v: shfl_xor(v, 1, BDIMX), "__shfl_xor_sync(mask, v, 1, 16): the butterfly, neighbours swap"),
    "shfl_xor_array": ("test_shfl_xor_array", BDIMX, BDIMX // SEGM, SEGM, (np.int32(1),),
                       lambda v: model_xor_array(v, 1), "4 values a thread, each exchanged with lane ^ 1"),
    "shfl_xor_int4": ("test_shfl_xor_int4", BDIMX, BDIMX // SEGM, SEGM, (np.int32(1),),
                      lambda v: model_xor_array(v, 1), "an int4 a thread, its members exchanged with lane ^ 1"),
    "shfl_xor_element": ("test_shfl_xor_element", BDIMX, BDIMX // SEGM, SEGM, (np.int32(1), np.int32(0), np.int32(3)),
                         lambda v: model_xor_element(v, 1, 0, 3), "value[0] = value[3] of lane ^ 1"),
    "shfl_xor_array_swap": ("test_shfl_xor_array_swap", BDIMX, BDIMX // SEGM, SEGM,
                            (np.int32(1), np.int32(0), np.int32(3)),
                            lambda v: model_xor_array_swap(v, 1, 0, 3), "even lanes swap value[0], value[3] around the shuffle of value[3]"),
    "shfl_swap": ("test_shfl_swap", BDIMX, BDIMX // SEGM, SEGM, (np.int32(1), np.int32(0), np.int32(3)),
                  lambda v: model_swap(v, 1, 0, 3), "the book's swap(): value[0] of lane 0 and value[3] of lane 1 trade places"),
}

# name -> (kernel, outputs per input element, summary)
REDUCTIONS = {
    "reduceSmem": ("reduceSmem", DIM, "block sums: shared-memory tree, last warp with __syncwarp"),
    "reduceShfl": ("reduceShfl", DIM, "block sums: __shfl_xor_sync in each warp, warp sums through shared memory"),
    "warpReduceSmem": ("warpReduceSmem", WARP, "warp sums: butterfly through shared memory (__syncwarp)"),
    "warpReduceShfl": ("warpReduceShfl", WARP, "warp sums: __shfl_xor_sync butterfly, no shared memory"),
}


def _reduction_smem(name: str) -> tuple[SmemAccess, ...]:
    s = (DIM,)
    if name == "reduceSmem":
        acc = [SmemAccess("smem[tid] store", "smem[tx]", s, "int", "store")]
        half = DIM // 2
        while half >= 64:
            acc += [SmemAccess(f"smem[tid] load (+{half})", "smem[tx]", s, "int", "load", active=f"tx < {half}"),
                    SmemAccess(f"smem[tid+{half}] load", f"smem[tx+{half}]", s, "int", "load", active=f"tx < {half}"),
                    SmemAccess(f"smem[tid] store (+{half})", "smem[tx]", s, "int", "store", active=f"tx < {half}")]
            half //= 2
        acc += [SmemAccess("smem[tid] load (+32)", "smem[tx]", s, "int", "load", active="tx < 32"),
                SmemAccess("smem[tid+32] load", "smem[tx+32]", s, "int", "load", active="tx < 32")]
        for off in (16, 8, 4, 2, 1):
            acc += [SmemAccess(f"smem[tid] store ({off})", "smem[tx]", s, "int", "store", active="tx < 32"),
                    SmemAccess(f"smem[tid+{off}] load", f"smem[tx+{off}]", s, "int", "load", active="tx < 32")]
        return tuple(acc)
    if name == "reduceShfl":
        w = (DIM // WARP,)
        return (SmemAccess("smem[warp] store", "smem[warp]", w, "int", "store", active="lane == 0"),
                SmemAccess("smem[lane] load", "smem[lane]", w, "int", "load", active=f"tx < {DIM // WARP}"))
    if name == "warpReduceSmem":
        acc = []
        for off in (16, 8, 4, 2, 1):
            acc += [SmemAccess(f"w[lane] store ({off})", "smem[tx]", s, "int", "store"),
                    SmemAccess(f"w[lane^{off}] load", f"smem[tx ^ {off}]", s, "int", "load")]
        return tuple(acc)
    return ()


def reduction_reference(x: np.ndarray, group: int) -> np.ndarray:
    """Sums of consecutive groups of `group` elements (the last group may be short), int64."""
    x = np.asarray(x, dtype=np.int64)
    pad = (-x.size) % group
    return np.concatenate([x, np.zeros(pad, np.int64)]).reshape(-1, group).sum(axis=1)


def _lanes(v: np.ndarray) -> list:
    return v.tolist()


class ShuffleExperiment(Experiment):
    name = "shuffle"
    title = "Warp shuffles: the book's simpleShfl demos, and reductions with shuffles vs shared memory"
    seed = "the book's section 5.6, the warp shuffle instruction (simpleShfl, reduceShfl)"
    source = SOURCE
    size_help = "N (int32 elements of the reductions; the demos have fixed sizes)"
    default_size = (1 << 26,)
    small_sizes = ((4099,), (1,), (1000,), ((1 << 20) + 7,))
    bank_check_size = (4096,)
    columns = ("width", "lanes")
    column_titles = {"width": "shuffle width", "lanes": "lanes shown"}

    def variants(self) -> list[Variant]:
        out = []
        for name, (kernel, width, threads, segm, _, _, summary) in DEMOS.items():
            out.append(Variant(name, summary, kernel, (threads, 1, 1)))
        for name, (kernel, _, summary) in REDUCTIONS.items():
            out.append(Variant(name, summary, kernel, (DIM, 1, 1), _reduction_smem(name)))
        return out

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = tuple(int(v) for v in values)
        if len(values) != 1:
            raise UserError(f"shuffle --size takes one number N (int32 elements); got {len(values)}")
        if not 1 <= values[0] <= (1 << 31) - 1:
            raise UserError(f"shuffle --size: N must be in 1..{(1 << 31) - 1}; got {values[0]}")
        return values

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        (n,) = self.parse_size(size)
        data = None
        for v in variants:
            if v.name in DEMOS:
                kernel_name, width, threads, segm, args, model, _ = DEMOS[v.name]
                count = threads * (segm or 1)
                # the lane numbers as values, as the book's figures show them (distinct, so any
                # wrong source lane shows; the poison catches an unwritten one)
                before = np.arange(count, dtype=np.int32)
                d_in = cupy.asarray(before)
                d_out = cupy.empty(count, dtype=cupy.int32)
                shaped = before.reshape(threads, segm) if segm else before
                expected = np.asarray(model(shaped)).reshape(-1)
                kernel = rt.kernel(SOURCE, kernel_name, {"BDIMX": width, "SEGM": SEGM, "DIM": DIM})
                extra: dict[str, Any] = {"width": width, "lanes": threads, "lanes_in": _lanes(before),
                                         "lanes_out": None, "lanes_model": _lanes(expected)}

                def launch(kernel=kernel, threads=threads, d_in=d_in, d_out=d_out, args=args):
                    rt.launch(kernel, 1, threads, d_out, d_in, *args)

                def check(d_out=d_out, expected=expected, extra=extra) -> Check:
                    got = cupy.asnumpy(d_out)
                    extra["lanes_out"] = _lanes(got)
                    if np.array_equal(got, expected):
                        return Check(True, f"{got.size} values equal the NumPy model of the instruction")
                    bad = int(np.argmax(got != expected))
                    return Check(False, f"value {bad}: got {got[bad]}, the model says {expected[bad]}")

                yield Case(v, launch, check, (d_out,), 0, 0, launch_shape(1, threads), extra)
                continue

            kernel_name, group, _ = REDUCTIONS[v.name]
            if data is None:
                rng = cupy.random.default_rng(7)
                data = rng.integers(1, 100, n, dtype=cupy.int32)
                host = cupy.asnumpy(data)
                refs = {g: reduction_reference(host, g) for g in (DIM, WARP)}
            ref = refs[group]
            out = cupy.empty(ref.size, dtype=cupy.int32)
            kernel = rt.kernel(SOURCE, kernel_name, {"BDIMX": BDIMX, "SEGM": SEGM, "DIM": DIM})
            grid = -(-n // DIM)

            def launch(kernel=kernel, out=out, grid=grid):
                rt.launch(kernel, grid, DIM, data, out, np.uint64(n))

            def check(out=out, ref=ref) -> Check:
                got = cupy.asnumpy(out).astype(np.int64)
                if np.array_equal(got, ref):
                    return Check(True, f"{ref.size} sums of {n} ints equal NumPy's")
                bad = int(np.argmax(got != ref))
                return Check(False, f"sum {bad}: got {got[bad]}, NumPy {ref[bad]}")

            extra = {"width": WARP, "lanes": DIM}
            yield Case(v, launch, check, (out,), 4 * n + 4 * ref.size, n, launch_shape(grid, DIM), extra)

    def notes(self, records: Sequence[Any]) -> list[str]:
        by = {r.variant: r for r in records if getattr(r, "ok", False) and r.median_ms}
        out = []
        for shfl_name, smem_name in (("reduceShfl", "reduceSmem"), ("warpReduceShfl", "warpReduceSmem")):
            a, b = by.get(shfl_name), by.get(smem_name)
            if a and b:
                out.append(f"{shfl_name}: {a.median_ms:.3f} ms ({a.gbps or 0:.0f} GB/s) vs {smem_name} {b.median_ms:.3f} ms "
                           f"({b.gbps or 0:.0f} GB/s): shuffles take {a.median_ms / b.median_ms:.2f}x the time")
        demos = [r for r in records if r.variant in DEMOS]
        if demos:
            good = sum(1 for r in demos if r.ok)
            out.append(f"{good} of {len(demos)} shuffle demos match the NumPy model of the instruction")
        return out
