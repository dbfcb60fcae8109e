"""Every kernel of the package as `smemlab analyze` runs it: one block (or one cluster), fixed small arguments.

Each entry mirrors how an experiment (or a library op) launches the kernel (macros, block, grid,
dynamic shared memory, argument order and sizes), at the experiment's `bank_check_size` where it
has one, so that the emulated block is one the GPU runs. Where an experiment declares its shared
accesses by hand (`Variant.smem`), the entry carries the declaration for this launch (rebuilt for
its size where the declaration depends on it), which the tests check against analyze.

No GPU and no CuPy: only the experiments' and ops' spec tables are read.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache

from smemlab.lab.base import SmemAccess


@dataclass(frozen=True)
class KernelLaunch:
    experiment: str  # experiment name, or "ops" for the library's kernels
    variant: str  # the variant (or op plan) it stands for
    source: str  # the package's kernel source (compiler.source_name: "ops/transpose/transpose.cu")
    kernel: str
    block: tuple[int, int, int]
    grid: tuple[int, int, int] = (1, 1, 1)
    defines: dict = field(default_factory=dict)
    dynamic_shared: int = 0
    values: tuple[str, ...] = ()  # argument values in parameter order (the --arg VALUE syntax)
    extra_args: tuple[str, ...] = ()  # NAME=VALUE for __constant__/__device__ variables
    smem: tuple[SmemAccess, ...] | None = None  # the experiment's declaration for this launch
    cluster: tuple[int, int, int] = (1, 1, 1)  # a thread-block cluster: all its blocks are emulated

    @property
    def path(self) -> str:
        return f"package:{self.source}"

    def args(self) -> list[str]:
        """--arg texts, named from the kernel's C signature."""
        names = param_names(self.source, self.kernel, len(self.values))
        return [f"{n}={v}" for n, v in zip(names, self.values)] + list(self.extra_args)

    def analyze(self, max_steps: int | None = None):
        from smemlab.analyze import DEFAULT_MAX_STEPS, analyze_source

        return analyze_source(self.path, self.kernel, self.block, self.grid, (0, 0, 0), self.dynamic_shared,
                              self.args(), {k: str(v) for k, v in self.defines.items()},
                              max_steps=max_steps or DEFAULT_MAX_STEPS, cluster=self.cluster)


@lru_cache(maxsize=None)
def param_names(source: str, kernel: str, count: int) -> tuple[str, ...]:
    from smemlab.analyze.args import signature
    from smemlab.compiler import source_path

    for params in signature(source_path(source).read_text(), kernel):
        if len(params) == count and all(p.name for p in params):
            return tuple(p.name for p in params)
    raise ValueError(f"{source}: no signature of {kernel} with {count} named parameters")


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


# ---------------------------------------------------------------------------------------------- experiments


def layout() -> list[KernelLaunch]:
    from smemlab.lab import layout as L

    out = []
    for v in L.LayoutExperiment().variants():
        spec = L.LayoutExperiment().spec(v.name)
        out.append(KernelLaunch("layout", v.name, "lab/layout/layout.cu", spec.kernel, spec.block, (1, 1, 1), spec.defines,
                                spec.smem_bytes if spec.dynamic else 0, (f"int32[{spec.threads}]",), smem=v.smem))
    return out


def transpose() -> list[KernelLaunch]:
    from smemlab.lab import transpose as T

    rows, cols = T.TransposeExperiment.bank_check_size
    out = []
    exp = T.TransposeExperiment()
    for v in exp.variants():
        if v.library:  # the library's kernels: library()
            continue
        s = exp.spec(v.name)
        buf = f"float32[{rows * cols}]"
        out.append(KernelLaunch("transpose", v.name, "lab/transpose/transpose.cu", s.kernel, s.block, T.grid_of(s, rows, cols),
                                s.defines, s.dynamic_bytes, (buf, buf, str(rows), str(cols)), smem=v.smem or None))
    return out


def reduce() -> list[KernelLaunch]:
    from smemlab.lab import reduce as R

    (n,) = R.ReduceExperiment.bank_check_size
    out = []
    for v in R.ReduceExperiment().variants():
        if v.library:  # the library's kernels: library()
            continue
        s = R.ReduceExperiment().spec(v.name)
        if s.kernel is None:
            continue
        dt = "int32" if s.real == "int" else "float32"
        grid = _ceil(n, s.span)
        vals = [f"{dt}[{n}]"] + ([f"{dt}[{grid * (s.dim // 2)}]"] if s.scratch else []) + [f"{dt}[{grid}]", str(n)]
        out.append(KernelLaunch("reduce", v.name, "lab/reduce/reduce.cu", s.kernel, (s.dim, 1, 1), (grid, 1, 1), s.defines,
                                s.dim * 4 if s.dynamic else 0, tuple(vals), smem=v.smem or None))
    return out


def shuffle() -> list[KernelLaunch]:
    from smemlab.lab import shuffle as S

    out = []
    for name, (kernel, width, threads, segm, scalars, _, _) in S.DEMOS.items():
        count = threads * max(segm, 1)
        d = {"BDIMX": width, "SEGM": S.SEGM, "DIM": S.DIM}
        vals = (f"int32[{count}]", f"int32[{count}]") + tuple(str(int(a)) for a in scalars)
        out.append(KernelLaunch("shuffle", name, "lab/shuffle/shuffle.cu", kernel, (threads, 1, 1), (1, 1, 1), d, 0, vals))
    (n,) = S.ShuffleExperiment.bank_check_size
    by_name = {v.name: v for v in S.ShuffleExperiment().variants()}
    for name, (kernel, group, _) in S.REDUCTIONS.items():
        d = {"BDIMX": S.BDIMX, "SEGM": S.SEGM, "DIM": S.DIM}
        vals = (f"int32[{n}]", f"int32[{_ceil(n, group)}]", str(n))
        out.append(KernelLaunch("shuffle", name, "lab/shuffle/shuffle.cu", kernel, (S.DIM, 1, 1), (_ceil(n, S.DIM), 1, 1), d, 0,
                                vals, smem=by_name[name].smem or None))
    return out


def stencil() -> list[KernelLaunch]:
    from smemlab.lab import stencil as S

    n, grid = 4 * S.BDIM, 2  # four tiles over two blocks: each block loops twice, as at full size
    iterations = _ceil(_ceil(n, S.BDIM), grid)
    smem = S.stencil_smem(iterations)
    coef = f"coef=float32[{S.RADIUS + 1}]"
    out = []
    for v in S.StencilExperiment().variants():
        if v.kernel is None or v.library:  # a host baseline; the library's kernels: library()
            continue
        const = v.kernel in ("stancli1DGPU", "stancli1DGPU_nosync")
        vals = (f"float32[{n + 2 * S.RADIUS}]", f"float32[{n}]", str(n)) + (() if const else (f"float32[{S.RADIUS + 1}]",))
        out.append(KernelLaunch("stencil", v.name, "lab/stencil/stencil.cu", v.kernel, (S.BDIM, 1, 1), (grid, 1, 1), S.DEFINES, 0,
                                vals, (coef,) if const else (), smem=smem))
    return out


def histogram() -> list[KernelLaunch]:
    from smemlab.lab import histogram as H

    keys, bins = 8192, 256
    b = (H.THREADS, 1, 1)
    k = f"int32[{keys}]:0..{bins - 1}"
    return [
        KernelLaunch("histogram", "histGlobal", "lab/histogram/histogram.cu", "histGlobal", b, (1, 1, 1), {}, 0,
                     (f"int32[{bins}]", str(bins), k, str(keys))),
        KernelLaunch("histogram", "histSmem", "lab/histogram/histogram.cu", "histSmem", b, (1, 1, 1), {}, 4 * bins,
                     (f"int32[{bins}]", str(bins), k, str(keys))),
        # the cluster size the experiment chooses for 256 bins (one block), then twice it: two blocks of 128
        # bins, about half the atomics into the other block's shared memory
        KernelLaunch("histogram", "clusterHist_kernel", "lab/histogram/histogram.cu", "clusterHist_kernel", b, (1, 1, 1), {},
                     4 * bins, (f"int32[{bins}]", str(bins), str(bins), k, str(keys))),
        KernelLaunch("histogram", "clusterHist_kernel_2x", "lab/histogram/histogram.cu", "clusterHist_kernel", b, (2, 1, 1), {},
                     4 * bins // 2, (f"int32[{bins}]", str(bins), str(bins // 2), k, str(keys)), cluster=(2, 1, 1)),
    ] + cluster_methods(keys, bins)


def cluster_methods(keys: int, bins: int) -> list[KernelLaunch]:
    """The library's former cluster designs (lab/histogram/cluster_methods.cu) as a cluster of one block:
    every key is the block's own, the distributed-shared-memory reads land in its own shared memory."""
    from smemlab.lab.histogram.cluster_methods import SOURCE, exchange_smem
    from smemlab.ops.histogram import UNROLL

    k = f"int32[{keys}]:0..{bins - 1}"
    vals = (k, str(keys), f"int32[{bins}]", str(bins))
    out = []
    # the labels name the template arguments as the macros they were (AGG=0 CBITS=16)
    for kernel, args, smem in (
            (f"hist_cluster<1, 0, {UNROLL}>", ("hist_cluster<1>", {"AGG": 0}), 4 * bins),
            (f"hist_cluster_rep<1, 32, {UNROLL}>", ("hist_cluster_rep<1>", {"AGG": 0}), 4 * bins),
            (f"hist_cluster_share<1, 32, {UNROLL}>", ("hist_cluster_share<1>", {"AGG": 0}), 4 * bins + 2 * 512 * UNROLL * 16),
            *((f"hist_cluster_exchange<1, 512, 1, {agg}, {bits}, {UNROLL}>", ("hist_cluster_exchange<1, 512, 1>", {"AGG": agg, "CBITS": bits}),
               exchange_smem(bins, 1, bits, 512)[0]) for bits, agg in ((32, 0), (16, 0), (16, 1)))):
        label = f"{args[0]} " + " ".join(f"{a}={b}" for a, b in args[1].items())
        out.append(KernelLaunch("histogram", label, SOURCE, kernel, (512, 1, 1), (1, 1, 1), {}, smem, vals))
    return out


def config() -> list[KernelLaunch]:
    from smemlab.lab import config as C

    nwords = 16384  # 64 KB: above the 48 KB that needs the opt-in
    (n,) = C.ConfigExperiment.bank_check_size if hasattr(C, "ConfigExperiment") else (4096,)
    return [
        KernelLaunch("config", "bigSmem", "lab/config/config.cu", "bigSmem", (C.THREADS, 1, 1), (1, 1, 1),
                     dict(C.DEFINES, OPTIN=1), 4 * nwords, (f"float32[{nwords}]", f"float32[{nwords}]", str(nwords))),
        KernelLaunch("config", "smemHeavy", "lab/config/config.cu", "smemHeavy", (C.THREADS, 1, 1), (_ceil(n, C.TILE), 1, 1),
                     dict(C.DEFINES, CARVEOUT=-1), 4 * C.TILE, (f"float32[{n}]", f"float32[{n}]", str(n))),
        # one block: it is the last one to finish, so it also adds the partial sums
        KernelLaunch("config", "sum", "lab/config/config.cu", "sum", (C.THREADS, 1, 1), (1, 1, 1), C.DEFINES, 0,
                     (f"float32[{n}]", str(n), "float32[1]")),
    ]


def matmul() -> list[KernelLaunch]:
    from smemlab.lab import matmul as M
    from smemlab.ops.matmul import DYNAMIC_SMEM, launch_shape as mm_launch_shape  # by name: smemlab.ops.matmul is the op

    MM_OP = sys.modules["smemlab.ops.matmul"]  # the module (the package attribute `matmul` is the function)

    m, n, k = M.MatmulExperiment.bank_check_size
    out = []
    for v in M.MatmulExperiment().variants():
        if v.kernel is None:
            continue
        vals = (f"float32[{m * k}]", f"float32[{k * n}]", f"float32[{m * n}]", str(m), str(n), str(k))
        if v.kernel.startswith("mm_"):
            step = v.kernel[3:]
            (gx, gy), threads = mm_launch_shape(step, m, n)
            split = ("float32[1]", "uint32[1]") if step in DYNAMIC_SMEM else ()  # the workspace, unread: K not split
            out.append(KernelLaunch("matmul", v.name, "ops/matmul/matmul.cu", v.kernel, (threads, 1, 1), (gx, gy, 1), {},
                                    DYNAMIC_SMEM.get(step, 0), vals + ("1", "1", "1") + split))
            continue
        bs = v.block[0]
        smem = M.tiled_smem(bs, k) if v.smem else None
        out.append(KernelLaunch("matmul", v.name, "lab/matmul/matmul.cu", v.kernel, v.block, (_ceil(n, bs), _ceil(m, bs), 1),
                                {"BLOCK_SIZE": bs}, 0, vals, smem=smem))
    # the op's kernels for transposed operands (ops/matmul LAYOUTS): the same launch, A and B stored as the layout says
    vals = (f"float32[{m * k}]", f"float32[{k * n}]", f"float32[{m * n}]", str(m), str(n), str(k))
    for step in MM_OP.IN_PLACE:
        (gx, gy), threads = mm_launch_shape(step, m, n)
        split = ("float32[1]", "uint32[1]") if step in DYNAMIC_SMEM else ()
        for layout in MM_OP.LAYOUTS[1:]:
            out.append(KernelLaunch("matmul", f"{step}_{layout}", "ops/matmul/matmul.cu", MM_OP.KERNELS[MM_OP.kernel_name(step, layout)],
                                    (threads, 1, 1), (gx, gy, 1), {}, MM_OP.dynamic_smem(step, layout),
                                    vals + ("1", "1", "1") + split))
    return out


def overlap() -> list[KernelLaunch]:
    from smemlab.lab.overlap import pipeline as P
    from smemlab.lab.overlap import staging as S
    from smemlab.lab.overlap import staging_mm as MM

    pieces, piece = 4, 256  # 4 pieces of 4 KiB (256 float4s) at offsets anywhere in a 16 KiB host buffer
    out = [KernelLaunch("overlap", "mappedGatherH2D", "lab/overlap/overlap.cu", "gatherPieces", (256, 1, 1), (pieces, 1, 1), {}, 0,
                        (f"float4[{pieces * piece}]", f"int64[{pieces}]:0..{(pieces - 1) * piece}",
                         f"float4[{pieces * piece}]", str(piece), str(pieces))),
           KernelLaunch("overlap", "pipelineCompute", "lab/overlap/overlap.cu", "pipelineCompute", (P.THREADS, 1, 1), (1, 1, 1), {},
                        0, ("float32[512]", "float32[512]", "512", "8", repr(P.A)))]
    # three tiles and a partial one over two blocks: block 0 loops over tiles 0 and 2, its stages wrap
    n = 3 * S.TILE + 5
    coef = f"scoef=float32[{S.RADIUS + 1}]"
    for name in S.METHODS:
        out.append(KernelLaunch("overlap", name, "lab/overlap/overlap.cu", name, (S.BDIM, 1, 1), (2, 1, 1), {}, 0,
                                (f"float32[{n + 2 * S.RADIUS}]", f"float32[{n}]", str(n)), (coef,),
                                smem=S.staged_smem(name, tiles=2)))
    # the matmul's four squares of 128x128 over two blocks: block 0 works through squares 0 and 2, 16
    # items that wrap every number of stages round
    side, grid = 2 * MM.TILE, 2
    mat = f"float32[{side * side}]"
    for name in MM.METHODS:
        out.append(KernelLaunch("overlap", name, "lab/overlap/overlap.cu", name, (MM.THREADS, 1, 1), (grid, 1, 1), {}, 0,
                                (mat, mat, mat, str(side)), smem=MM.mm_smem(name, MM.items(side, grid))))
    return out


# ---------------------------------------------------------------------------------------------- the library
# the kernels' element types as analyze's buffers hold them (bfloat16: its 16-bit words)
# The transpose kernels the op does not ship, which tools/ time against its own and the truth fixture
# recorded: the `_any` forms (any shape and alignment through 16-byte vectors, which the element and pair
# kernels replaced; element size -> resident blocks an SM) and the other element and pair tiles (name ->
# resident blocks an SM), each at the blocks it was compiled for when recorded
ANY_BLOCKS = {2: 2, 4: 4, 8: 6}
TRANSPOSE_ALTERNATIVES = {"transpose_e2_el128x64": 4, "transpose_e4_el64x64": 6, "transpose_e8_el64x64": 4,
                          "transpose_e2_pr64x64": 5, "transpose_e4_pr64x64": 5}


def transpose_alternatives() -> list[tuple[str, int, tuple[int, int]]]:
    """(name, element size, tile) of each element and pair kernel of TRANSPOSE_ALTERNATIVES, as
    ops/transpose element_kernels gives the op's."""
    found = [(n, re.fullmatch(r"transpose_e(\d)_(?:el|pr)(\d+)x(\d+)", n).groups()) for n in TRANSPOSE_ALTERNATIVES]
    return [(n, int(e), (int(r), int(c))) for n, (e, r, c) in found]


def transpose_instance(name: str) -> str:
    """The template instance of transpose kernel `name`: the op's (ops/transpose KERNELS), else an alternative's."""
    from smemlab.ops.transpose import KERNELS, kernel_expression

    if name in KERNELS:
        return KERNELS[name]
    blocks = ANY_BLOCKS[int(name[len("transpose_e")])] if name.endswith("_any") else TRANSPOSE_ALTERNATIVES[name]
    return kernel_expression(name, blocks)


ANALYZE_DTYPE = {"i32": "int32", "i64": "int64", "f16": "float16", "bf16": "uint16", "f32": "float32", "f64": "float64"}


def library() -> list[KernelLaunch]:
    """The library's kernels (the ops' plans at a small size; the experiments' last variants launch
    them through the ops at full size)."""
    # by name: the package attributes smemlab.ops.histogram, .reduce_sum, .stencil1d are the ops
    from smemlab.ops.histogram import SPARE
    from smemlab.ops.reduce import KERNELS as REDUCE_KERNELS
    from smemlab.ops.reduce import NT
    from smemlab.ops.reduce import SUFFIX as REDUCE_SUFFIX
    from smemlab.ops.stencil import TILE
    from smemlab.ops.transpose import element_kernels

    out = []
    # transpose: the 64x64 swizzled-tile kernel (float32, sides multiple of 4)
    out.append(KernelLaunch("ops", "transpose 128x128", "lab/transpose/transpose.cu", "transpose_v4", (256, 1, 1), (4, 1, 1), {}, 0,
                            ("float32[16384]", "float32[16384]", "128", "128", "2", "4")))
    # every element size and both tile sizes (16 and 8 chunks a side), one block walking all the tiles:
    # whole vectors (a batch of two whole tiles), and any shape (sides one past and three short of a tile,
    # both arrays at an offset from a 16-byte boundary)
    for e, dt in ((2, "uint16"), (4, "float32"), (8, "float64")):
        v = 16 // e
        for chunks, small in ((16, ""), (8, "_small")):
            side = chunks * v
            for shape, offsets, form in (((2, side, side), (0, 0), ""), ((1, side + 1, side - 3), (3, 1), "_any")):
                name = f"transpose_e{e}{small}{form}"
                kernel = transpose_instance(name)
                tiles_y, tiles_x = _ceil(shape[1], side), _ceil(shape[2], side)
                n = shape[0] * shape[1] * shape[2]
                out.append(KernelLaunch("ops", f"{name} {'x'.join(map(str, shape))}", "ops/transpose/transpose.cu", kernel,
                                        (chunks * chunks, 1, 1), (1, 1, 1), {}, 0,
                                        (f"{dt}[{n + offsets[0]}]", str(offsets[0]), f"{dt}[{n + offsets[1]}]",
                                         str(offsets[1]), str(shape[1]), str(shape[2]), str(tiles_y), str(tiles_x),
                                         str(shape[0] * tiles_y * tiles_x))))
    # the element kernels (any shape): one block walking 2 x 2 tiles, one of them inside the matrix, both
    # arrays at an offset from a 16-byte boundary
    for name, e, (tr, tc) in element_kernels():
        dt = {2: "uint16", 4: "float32", 8: "float64"}[e]
        rows, cols, n = tr + 1, tc + 3, (tr + 1) * (tc + 3)
        out.append(KernelLaunch("ops", f"{name} {rows}x{cols}", "ops/transpose/transpose.cu", transpose_instance(name), (256, 1, 1), (1, 1, 1), {}, 0,
                                (f"{dt}[{n + 3}]", "3", f"{dt}[{n + 1}]", "1", str(rows), str(cols), "2", "2", "4")))
    # reduce_sum: every (input, output) pair. The full sum as two blocks' worth in one block (the counter
    # starts at zero: the workspace is zeroed once); row sums by groups of 4 lanes (5 rows of 67, the rows
    # unaligned), and by two blocks per row (rows of 3001), the partials combined by the last
    n = 2 * NT * 4 * 8
    for suffix in sorted(set(REDUCE_SUFFIX.values())):
        x, o = (ANALYZE_DTYPE[t] for t in suffix.split("_"))
        part = "int64" if x.startswith("int") else "float64"
        out.append(KernelLaunch("ops", f"reduce_sum reduce_{suffix}", "ops/reduce/reduce.cu", REDUCE_KERNELS[f"reduce_{suffix}"], (NT, 1, 1),
                                (1, 1, 1), {}, 0, (f"{x}[{n}]", str(n), f"{part}[1]", "uint32[1]:0..0", f"{o}[1]")))
        out.append(KernelLaunch("ops", f"reduce_sum rows_warp_{suffix}", "ops/reduce/reduce.cu", REDUCE_KERNELS[f"rows_warp_{suffix}"], (NT, 1, 1),
                                (1, 1, 1), {}, 0, (f"{x}[{5 * 67}]", "5", "67", "4", f"{o}[5]")))
        out.append(KernelLaunch("ops", f"reduce_sum rows_block_{suffix}", "ops/reduce/reduce.cu", REDUCE_KERNELS[f"rows_block_{suffix}"], (NT, 1, 1),
                                (1, 1, 1), {}, 0, (f"{x}[{2 * 3001}]", "2", "3001", "2", f"{part}[4]", "uint32[2]:0..0",
                                                   f"{o}[2]")))
    # stencil1d: radius 4, two tiles
    n = 2 * TILE
    out.append(KernelLaunch("ops", "stencil1d r=4", "ops/stencil/stencil.cu", "stencil1d_f32<4>", (256, 1, 1), (2, 1, 1),
                            {}, 0, (f"float32[{n}]", f"float32[{n}]", str(n), "1"), ("c_coef=float32[9]",)))
    # what the op launches: the coefficients as a struct parameter (9 floats), not c_coef
    out.append(KernelLaunch("ops", "stencil1d r=4 (coefficients by value)", "ops/stencil/stencil.cu", "stencil1d_f32_p<4>",
                            (256, 1, 1), (2, 1, 1), {}, 0,
                            (f"float32[{n}]", f"float32[{n}]", str(n), "1", "float32[9]")))
    # histogram: global atomics, block-private copies (32 copies for 256 bins), ranges of 16-bit counters
    keys = 8192
    k = f"int32[{keys}]:0..255"
    # (the labels name the template arguments as the macros they were: AGG=0 COPIES=32)
    for kernel, label, smem, vals in (
            ("hist_global<0, 2>", "hist_global AGG=0 COPIES=1", 0, (k, str(keys), "int32[256]", "256")),
            ("hist_global<1, 2>", "hist_global AGG=1 COPIES=1", 0, (k, str(keys), "int32[256]", "256")),
            ("hist_smem<32, 0, 32, 2>", "hist_smem AGG=0 COPIES=32", 4 * 256 * 32, (k, str(keys), "int32[256]", "0", "256")),
            ("hist_smem<1, 1, 32, 2>", "hist_smem AGG=1 COPIES=1", 4 * 256, (k, str(keys), "int32[256]", "0", "256")),
            ("hist_ranges<1, 0, 16, 2>", "hist_ranges AGG=0 COPIES=1 CBITS=16", 2 * 256 + SPARE, (k, str(keys), "int32[256]", "256", "256"))):
        out.append(KernelLaunch("ops", f"histogram {label}", "ops/histogram/histogram.cu", kernel, (512, 1, 1), (1, 1, 1), {}, smem, vals))
    # weighted counts (float32 and float64 weights): 32 block-private copies of 256 bins, as weighted_plan makes them
    for t, size, c in (("float32", 4, "float"), ("float64", 8, "double")):
        w = "f32" if t == "float32" else "f64"
        out.append(KernelLaunch("ops", f"histogram hist_weighted_{w} copies=32", "ops/histogram/histogram.cu", f"hist_weighted<{c}>",
                                (512, 1, 1), (1, 1, 1), {}, 256 * 32 * size,
                                (k, f"{t}[{keys}]:-1..1", str(keys), f"{t}[256]", "256", "0", "256", "32")))
    # partition, one range (256 bins): the keys sorted into its scratch (2 tiles of 4096: the block-counts,
    # the tiles' starts, 2 bytes a key); the count kernel on a scratch with no keys (its blocks' share-out
    # and nothing to count: the sorted scratch is the first launch's output, which analyze does not chain)
    # (tiles of 512 threads x 4 x 2 keys: UNROLL 2; one range: PRBITS 0)
    scratch = f"uint8[{16 + 16 + 2 * 4096 * 2}]:0..0"
    out.append(KernelLaunch("ops", "histogram hist_partition", "ops/histogram/histogram.cu", "hist_partition<512, 2, 16, 0, 0, 2>", (512, 1, 1),
                            (1, 1, 1), {}, 0, (k, str(keys), "int32[256]", "256", scratch)))
    out.append(KernelLaunch("ops", "histogram hist_part_count", "ops/histogram/histogram.cu", "hist_part_count<1024, 1, 512, 16, 1, 2>", (1024, 1, 1),
                            (1, 1, 1), {},
                            2 * 65536 + SPARE, (k, str(keys), "int32[256]", "256", scratch, "1")))
    # the copy kernel (no shared memory)
    out.append(KernelLaunch("ops", "copyKernel", "lab/copy.cu", "copyKernel", (256, 1, 1), (1, 1, 1), {}, 0,
                            ("float32[4096]", "float32[4096]", "1024")))
    return out


EXPERIMENTS = {"layout": layout, "transpose": transpose, "reduce": reduce, "shuffle": shuffle, "stencil": stencil,
               "histogram": histogram, "config": config, "matmul": matmul, "overlap": overlap}


def for_experiment(name: str) -> list[KernelLaunch]:
    return EXPERIMENTS[name]() if name in EXPERIMENTS else []


def all_launches() -> list[KernelLaunch]:
    out = []
    for f in EXPERIMENTS.values():
        out += f()
    return out + library()
