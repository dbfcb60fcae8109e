"""smemlab.ops on a machine of two GPUs or more: an op on an array of GPU 1 runs on GPU 1 and returns
an array of GPU 1, on GPU 1's current stream, whichever device is current when it is called, and
leaves the current device as it found it. Skipped, with the reason, on machines of fewer GPUs."""

import numpy as np
import pytest

from smemlab.device import no_gpu_reason


def _gpus() -> int:
    if no_gpu_reason() is not None:
        return 0
    import cupy

    return cupy.cuda.runtime.getDeviceCount()


pytestmark = [pytest.mark.gpu, pytest.mark.skipif(_gpus() < 2, reason=f"needs two CUDA GPUs, this machine has {_gpus()}")]

cupy = pytest.importorskip("cupy")
from smemlab import ops  # noqa: E402

RNG = np.random.default_rng(7)
X2 = RNG.uniform(-1, 1, (300, 257)).astype(np.float32)
X1 = RNG.uniform(-1, 1, 100_003).astype(np.float32)
KEYS = RNG.integers(0, 256, 100_003, dtype=np.int32)
A = RNG.uniform(-1, 1, (67, 45)).astype(np.float32)
B = RNG.uniform(-1, 1, (45, 33)).astype(np.float32)
COEF = np.array([0.25, 0.5, 0.25], dtype=np.float32)

# (op, host inputs, expected result from NumPy, tolerance)
CASES = {
    "transpose": (lambda x: ops.transpose(x), (X2,), X2.T, 0),
    "reduce_sum": (lambda x: ops.reduce_sum(x), (X1,), X1.astype(np.float64).sum(), 1e-4),
    "stencil1d": (lambda x: ops.stencil1d(x, COEF), (X1,), np.convolve(X1.astype(np.float64), COEF[::-1], "same"), 1e-5),
    "histogram": (lambda k: ops.histogram(k, 256), (KEYS,), np.bincount(KEYS, minlength=256), 0),
    "matmul": (lambda a, b: ops.matmul(a, b), (A, B), A.astype(np.float64) @ B, 1e-4),
}


def _check(got: np.ndarray, want: np.ndarray, tol: float) -> None:
    if tol:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("current", [0, 1])
def test_cupy_array_of_gpu_1(name, current):
    fn, inputs, want, tol = CASES[name]
    with cupy.cuda.Device(1):
        args = [cupy.asarray(h) for h in inputs]
    with cupy.cuda.Device(current):
        out = fn(*args)
        assert cupy.cuda.runtime.getDevice() == current, "the op left another device current"
    assert out.device.id == 1
    with cupy.cuda.Device(1):
        _check(cupy.asnumpy(out), want, tol)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("current", [0, 1])
def test_torch_tensor_of_gpu_1_on_its_current_stream(name, current):
    torch = pytest.importorskip("torch")
    fn, inputs, want, tol = CASES[name]
    args = [torch.from_numpy(h).to("cuda:1") for h in inputs]
    torch.cuda.synchronize(1)
    side = torch.cuda.Stream(device=1)
    # GPU 1's current stream becomes `side` (set while GPU 1 is current: torch.cuda.set_stream also
    # makes the stream's device current), then `current` is made the current device: the op must
    # run on `side` (the result is read after `side` alone is synchronised)
    with torch.cuda.device(1):
        torch.cuda.set_stream(side)
    try:
        with torch.cuda.device(current):
            out = fn(*args)
            assert torch.cuda.current_device() == current, "the op left another device current"
    finally:
        with torch.cuda.device(1):
            torch.cuda.set_stream(torch.cuda.default_stream(1))
    assert out.device == torch.device("cuda:1")
    side.synchronize()
    _check(out.cpu().numpy(), want, tol)
