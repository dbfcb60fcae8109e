"""What a sweep of public kernels as they sit (CUDA samples, llm.c, SGEMM_CUDA, Triton's tutorials, Liger-Kernel,
numba-cuda's documentation; 2026-11-29, 76 launches) found wrong in `smemlab analyze`, each as a small case:

- Triton 3.9's LLVM numbers the lines of an inline asm on from its statement's (`.loc L`, `.loc L+1`, ...: one a
  line of the asm text), so a masked load of 4 registers sits on the line table's L+3, a comment or the next
  statement; analyze shows it on the statement, and Report.as_line_table() where the line table (and Nsight
  Compute's source view) puts it.
- a file that prints as it imports wrote before the --json object on stdout;
- a name the file defines only in a statement that fails here (a conditional import needing torch) was reported
  as undefined with no word of that statement;
- an out-of-bounds address past the user's buffer was named after an object libcu++'s headers make;
- cooperative groups' tiles of more than a warp read %reserved_smem_offset_1, which analyze did not know.
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from smemlab.analyze.ledger import Site, on_statements
from smemlab.analyze.ptx import parse_module

from test_analyze_python import needs_numba, needs_nvcc, needs_triton

# the shape of Triton 3.9's PTX for `x = tl.load(p + offs, mask=m)` on line 5, a comment on 6-7, then a store on 8
TRITON_STYLE_PTX = """
.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.loc	1 3 0
	ld.param.b64 	%rd1, [k_param_0];
	ld.param.b64 	%rd2, [k_param_1];
	setp.ne.s64 	%p1, %rd1, 0;
	.loc	1 5 9
	// begin inline asm
	.loc	1 5 9
	mov.u32 %r1, 0x0;
	.loc	1 6 9
	mov.u32 %r2, 0x0;
	.loc	1 7 9
	mov.u32 %r3, 0x0;
	.loc	1 8 9
	mov.u32 %r4, 0x0;
	@%p1 ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];
	// end inline asm
	// begin inline asm
	@%p1 st.global.v4.b32 [ %rd2 + 0 ], { %r1, %r2, %r3, %r4 };
	// end inline asm
	ret;
}
	.file	1 "/tmp/k.py"
"""


def _memory_instrs():
    k = parse_module(TRITON_STYLE_PTX).kernels["k"]
    return k.body, [i for i in k.body if getattr(i, "parts", ("",))[0] in ("ld", "st") and "global" in i.parts]


def test_inline_asm_statement_line_is_its_first_loc():
    body, (load, store) = _memory_instrs()
    assert (load.loc.line, load.asm_line) == (8, 5)  # the line table's L+3, the statement's L
    assert (store.loc.line, store.asm_line) == (8, None)  # an asm of one line: on its own line already


def test_a_line_moves_only_where_all_its_accesses_are_one_statements_asm():
    body, (load, store) = _memory_instrs()
    pc = {id(i): n for n, i in enumerate(body)}
    load_site = Site(pc[id(load)], "load", 16, 1, 8, load.text)
    store_site = Site(pc[id(store)], "store", 16, 1, 8, store.text)
    moved = on_statements([load_site, store_site], body)
    assert [(s.kind, s.line) for s in moved] == [("load", 5), ("store", 8)]
    # a load of line 8's own beside the asm's: the line keeps both where the line table puts them
    own = Site(pc[id(store)], "load", 4, 1, 8, store.text)
    assert on_statements([load_site, own], body) is None


TRITON_VADD = '''import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    # a comment the line table may give a load to
    # another
    tl.store(out_ptr + offs, x + y, mask=mask)
'''


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "smemlab", "analyze", *map(str, argv)], capture_output=True,
                          text=True)


@needs_triton
def test_triton_masked_loads_are_shown_on_their_statements(tmp_path):

    path = tmp_path / "vadd.py"
    path.write_text(TRITON_VADD)
    n = 4000
    done = _cli(path, "--triton", "--kernel", "add_kernel", "--grid", "4", "--num-warps", "4", "--constexpr",
                "BLOCK=1024", "--arg", "x_ptr=float32[4096]", "--arg", "y_ptr=float32[4096]", "--arg",
                "out_ptr=float32[4096]", "--arg", f"n={n}", "--json")
    assert done.returncode == 0, done.stderr
    rows = {(d["line"], d["op"]): d for d in json.loads(done.stdout)["lines"]}
    # 128 threads, 8 floats each as two 16-byte pieces: 8 requests of 4 warps, 128 sectors a pointer
    assert {k: (d["requests"], d["sectors"]) for k, d in rows.items()} == {
        (9, "global load"): (8, 128), (10, "global load"): (8, 128), (13, "global store"): (8, 128)}
    assert rows[(9, "global load")]["source"] == "x = tl.load(x_ptr + offs, mask=mask)"


@needs_triton
def test_the_line_table_view_keeps_the_loads_where_the_source_view_shows_them(tmp_path):
    from smemlab.analyze import triton_front

    path = tmp_path / "vadd.py"
    path.write_text(TRITON_VADD)
    r = triton_front.analyze(str(path), (4, 1, 1), name="add_kernel", args=["x_ptr=float32[4096]",
                             "y_ptr=float32[4096]", "out_ptr=float32[4096]", "n=4000"], constexprs={"BLOCK": 1024},
                             num_warps=4, num_stages=3)
    shown = sorted((ls.line, ls.kind) for ls in r.memory_lines)
    table = sorted((ls.line, ls.kind) for ls in r.as_line_table().memory_lines)
    assert shown == [(9, "global load"), (10, "global load"), (13, "global store")]
    # the line table's loads lie on or below their statements (Triton 3.9: 3 lines below, one a register)
    assert [ln for ln, k in table if k == "global load"] == sorted(ln for ln, k in table if k == "global load")
    assert all(9 <= ln <= 13 for ln, k in table if k == "global load")
    assert sum(ls.wavefronts for ls in r.as_line_table().memory_lines) == sum(ls.wavefronts for ls in r.memory_lines)


NUMBA_PRINTS = '''from numba import cuda
print("hello from the import")


@cuda.jit
def copy(out, inp):
    i = cuda.grid(1)
    out[i] = inp[i]
'''


@needs_numba
def test_what_a_file_prints_as_it_imports_goes_to_stderr(tmp_path):
    path = tmp_path / "prints.py"
    path.write_text(NUMBA_PRINTS)
    done = _cli(path, "--kernel", "copy", "--block", "32", "--arg", "out=float32[32]", "--arg", "inp=float32[32]",
                "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["global_load"]["requests"] == 1
    assert "hello from the import" in done.stderr


NUMBA_UNDEFINED = '''from numba import cuda
from numba import int32

from a_module_this_machine_lacks import TILE  # noqa


@cuda.jit
def tile_copy(out, inp):
    t = cuda.shared.array(TILE, int32)
    t[cuda.threadIdx.x] = inp[cuda.threadIdx.x]
    cuda.syncthreads()
    out[cuda.threadIdx.x] = t[cuda.threadIdx.x]
'''

TRITON_UNDEFINED = '''import triton
import triton.language as tl

try:
    from a_module_this_machine_lacks import fast_rsqrt  # noqa
except ImportError:
    raise

@triton.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, fast_rsqrt(x), mask=offs < n)
'''


@needs_numba
def test_numba_names_the_failed_statement_that_defines_an_undefined_name(tmp_path):
    path = tmp_path / "undefined.py"
    path.write_text(NUMBA_UNDEFINED)
    done = _cli(path, "--kernel", "tile_copy", "--block", "32", "--arg", "out=int32[32]", "--arg", "inp=int32[32]")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "TILE is defined by the file's line 4, which raised ModuleNotFoundError" in done.stderr


@needs_triton
def test_triton_names_the_failed_statement_that_defines_an_undefined_name(tmp_path):
    path = tmp_path / "undefined_triton.py"
    path.write_text(TRITON_UNDEFINED)
    done = _cli(path, "--triton", "--kernel", "scale", "--grid", "1", "--constexpr", "BLOCK=128", "--arg",
                "x_ptr=float32[128]", "--arg", "n=100")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "fast_rsqrt is defined by the file's line 4, which raised ModuleNotFoundError" in done.stderr


@needs_nvcc
def test_out_of_bounds_names_the_users_buffer_beside_libcudacxx_objects(tmp_path):
    path = tmp_path / "oob.cu"
    path.write_text("#include <cooperative_groups.h>\n"
                    "__global__ void k(unsigned *img, int width) {\n"
                    "    unsigned *p = img + (threadIdx.y + 100) * width + threadIdx.x;\n"
                    "    *p = 1;\n"
                    "}\n")
    done = _cli(path, "--kernel", "k", "--block", "32,8", "--arg", "img=uint32[256]", "--arg", "width=32")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "bytes past the end of img, 1024 bytes" in done.stderr and "_INTERNAL_" not in done.stderr


CG_BIG_TILE = '''#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void big_tile_sum(const float *in, float *out) {
    __shared__ cg::block_tile_memory<256> scratch;
    auto cta = cg::this_thread_block(scratch);
    auto tile = cg::tiled_partition<128>(cta);
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) out[blockIdx.x * 2 + tile.meta_group_rank()] = v;
}
'''


@needs_nvcc
def test_tiles_of_more_than_a_warp_sum_through_the_reserved_shared_memory(tmp_path):
    from smemlab.analyze import analyze_source

    path = tmp_path / "cg_big_tile.cu"
    path.write_text(CG_BIG_TILE)
    data = np.arange(256, dtype=np.float32) % 7 - 3  # exact in any order of additions
    np.save(tmp_path / "in.npy", data)
    r = analyze_source(str(path), "big_tile_sum", (256, 1, 1), args=[f"in={tmp_path / 'in.npy'}", "out=float32[2]"],
                       compiler="nvcc")
    assert r.buffers["out"].view(np.float32).tolist() == [data[:128].sum(), data[128:].sum()]
    assert r.totals("store")["requests"] > 0  # the tiles' exchange goes through shared memory


def test_triton_on_a_cuda_file_says_so(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n")
    done = _cli(path, "--triton", "--kernel", "k", "--grid", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--triton takes a .py file's @triton.jit kernels" in done.stderr


TRITON_SCRIPT = TRITON_VADD + '''

y = torch_is_not_here.rand(4)  # noqa: F821 - fails as the file imports
'''


@needs_triton
def test_an_import_note_is_said_once_for_the_whole_launch(tmp_path):
    path = tmp_path / "vadd_script.py"
    path.write_text(TRITON_SCRIPT)
    done = _cli(path, "--triton", "--kernel", "add_kernel", "--grid", "3", "--blocks", "all", "--num-warps", "4",
                "--constexpr", "BLOCK=1024", "--arg", "x_ptr=float32[3072]", "--arg", "y_ptr=float32[3072]",
                "--arg", "out_ptr=float32[3072]", "--arg", "n=3000")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("importing it failed") == 1
