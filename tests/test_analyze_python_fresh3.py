"""Kernels of the third fresh held-out batch (tools/analyze_truth/kernels/fresh3_*.py) that broke `smemlab
analyze`: each test is the failure, as a user meets it.

Counts derived by hand: numba.cuda.random's xoroshiro128p states are 16-byte records (two uint64 fields s0, s1);
a thread's generator reads and writes its own record, so a warp's 8-byte accesses of one field are 16 bytes
apart: 16 sectors a request where 8 would hold the bytes. 64 threads are 2 warps, each loading s0 and s1 once
(the loop keeps the state in registers): 4 requests, 64 sectors.
"""

from pathlib import Path

import numpy as np
import pytest

from smemlab.errors import UserError
from smemlab.analyze import pyargs

from test_analyze_python import _cli, needs_numba

FRESH3 = Path(__file__).resolve().parents[1] / "tools" / "analyze_truth" / "kernels" / "fresh3_numba.py"


def test_record_arrays_are_held_as_their_fields(tmp_path):
    # --arg rng_states=xoroshiro128p[8]: was "unknown dtype"; a record ndarray from the API was "give numbers"
    a = pyargs.parse("rng_states=xoroshiro128p[8]:0..1000")
    assert a.dtype.names == ("s0", "s1") and a.dtype.itemsize == 16 and a.shape == (8,)
    assert a.text == "rng_states=uint64[16]:0..1000" and pyargs.part_type(a.dtype) == np.dtype(np.uint64)
    states = np.zeros(4, pyargs.RECORDS["xoroshiro128p"])
    states["s0"], states["s1"] = [1, 2, 3, 4], [5, 6, 7, 8]
    (b,) = pyargs.from_values({"s": states}, tmp_path)
    assert b.dtype == states.dtype and b.shape == (4,)
    flat = np.load(tmp_path / "s.npy")
    assert flat.dtype == np.uint64 and flat.tolist() == [1, 5, 2, 6, 3, 7, 4, 8]
    back = pyargs.reshape_buffers({"s": flat}, {"s": b})["s"]
    assert back.dtype == states.dtype and back["s1"].tolist() == [5, 6, 7, 8]
    # a record of mixed field types has no one type to hold it: refused as before, with the reason
    with pytest.raises(UserError, match="one number type"):
        pyargs.from_values({"m": np.zeros(2, [("a", np.int32), ("b", np.float64)])}, tmp_path)


@needs_numba
def test_numba_random_states_kernel():
    # mc_pi draws from numba.cuda.random's xoroshiro128p_uniform_float32(rng_states, tid)
    done = _cli(str(FRESH3), "--kernel", "mc_pi", "--block", "64", "--arg", "rng_states=xoroshiro128p[64]",
                "--arg", "iters=4", "--arg", "hits=int32[64]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    import json
    got = json.loads(done.stdout)["global_load"]
    assert (got["requests"], got["sectors"]) == (4, 64), got


def test_missing_triton_scalars_are_shown_as_scalars():
    # adamw_step(p_ptr, ..., n, lr, beta1, ...) without its scalars: the example was --arg lr=float32[1024]
    given = {p: pyargs.parse(f"{p}=float32[64]") for p in ("p_ptr", "g_ptr")}
    with pytest.raises(UserError) as e:
        pyargs.check_names("adamw_step", ["p_ptr", "g_ptr", "m_ptr", "lr"], given, "float32[1024]",
                           pointer_names=True)
    assert "--arg m_ptr=float32[1024] --arg lr=1024;" in str(e.value)
    # a kernel that names no parameter ..._ptr (the tutorials' X, Y, W, stride, N) keeps the array example
    with pytest.raises(UserError, match=r"--arg W=float32\[1024\] --arg N=float32\[1024\]"):
        pyargs.check_names("ln", ["X", "W", "N"], {"X": given["p_ptr"]}, "float32[1024]", pointer_names=True)
