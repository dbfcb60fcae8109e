"""smemlab.ops used as real PyTorch, CuPy, Numba and JAX programs use them (issue 29): torch.compile
(fullgraph, reduce-overhead), CUDA graphs captured by torch and by CuPy and replayed on new data,
autograd (gradcheck, a training step), producers still writing on another stream, FakeTensors,
inference_mode, the input kinds users pass, memory. Needs a CUDA GPU and torch; Numba and JAX cases
skip where those are missing."""

import os

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch", reason="torch is not installed")
cupy = pytest.importorskip("cupy", reason="CuPy is not installed (the [gpu] extra)")

from smemlab import ops  # noqa: E402

STENCIL = [0.1, -0.2, 0.5, 0.3, -0.05]
SPIN = r"""
extern "C" __global__ void spin_fill(float *x, long long n, unsigned long long ns, float v) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = v;
}"""


@pytest.fixture(scope="module")
def dev():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU: torch sees none")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch.device("cuda")


def sum_ok(got, x) -> bool:
    """A float32 sum within its rounding bound, 2 eps32 sqrt(n) ||x||, of the float64 sum (a relative error
    says nothing where the terms cancel)."""
    x64 = torch.as_tensor(x).double()
    bound = 2 * float(torch.finfo(torch.float32).eps) * x64.numel() ** 0.5 * float(x64.norm())
    return bool(((torch.as_tensor(got).double().cpu() - x64.sum(-1).cpu()).abs() <= bound).all())


def rel(a, b) -> float:
    a, b = torch.as_tensor(a).double().cpu(), torch.as_tensor(b).double().cpu()
    return float((a - b).norm() / max(float(b.norm()), 1e-30))


def ref_stencil(x, coef):
    """torch's conv1d as the correlation with zero padding (no flip)."""
    w = torch.tensor(coef, device=x.device, dtype=x.dtype).view(1, 1, -1)
    return torch.nn.functional.conv1d(x.view(1, 1, -1), w, padding=len(coef) // 2).view(-1)


def all_ops(x, w, keys):
    y = ops.matmul(x, w)
    t = ops.transpose(y)
    s = ops.stencil1d(t.reshape(-1), STENCIL)
    return y, t, s, ops.reduce_sum(s), ops.reduce_sum(t, axis=-1), ops.histogram(keys, 64)


def all_refs(x, w, keys):
    y = x @ w
    t = y.t().contiguous()
    s = ref_stencil(t.reshape(-1), STENCIL)
    return y, t, s, s.sum(), t.sum(-1), torch.bincount(keys, minlength=64).to(torch.int32)


def check_all(got, want):
    for i, (g, r) in enumerate(zip(got, want)):
        if r.dtype.is_floating_point:
            assert rel(g, r) < 1e-5, (i, rel(g, r))
        else:
            assert torch.equal(torch.as_tensor(g, device=r.device), r), i


def inputs(dev, seed, m=96, k=200, n=130):
    g = torch.Generator(device=dev).manual_seed(seed)
    return (torch.randn(m, k, device=dev, generator=g), torch.randn(k, n, device=dev, generator=g),
            torch.randint(0, 64, (5000,), device=dev, generator=g))


# ---- torch.compile ------------------------------------------------------------------------------------------
def test_compile_fullgraph(dev):
    torch._dynamo.reset()
    f = torch.compile(all_ops, fullgraph=True)
    for seed in (1, 2):
        args = inputs(dev, seed)
        check_all(f(*args), all_refs(*args))


def test_compile_reduce_overhead_replays_on_new_data(dev):
    torch._dynamo.reset()
    f = torch.compile(all_ops, mode="reduce-overhead", fullgraph=True)
    for seed in range(5):  # the first calls record, the later ones replay the CUDA graph
        args = inputs(dev, seed)
        got = [t.clone() for t in f(*args)]
        check_all(got, all_refs(*args))


# ---- CUDA graphs ------------------------------------------------------------------------------------------
def test_torch_cuda_graph_capture_and_replay(dev):
    x, w, keys = inputs(dev, 3, 512, 1024, 512)  # 512^2 x 1024: the split-K kernel and its workspace
    big = torch.randn(1 << 20, device=dev)  # reduce_sum over several blocks: its workspace
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up (compiles and loads the kernels), as torch's documentation does
        for _ in range(2):
            all_ops(x, w, keys), ops.reduce_sum(big), ops.reduce_sum(big.view(64, -1), axis=-1)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        outs = all_ops(x, w, keys) + (ops.reduce_sum(big), ops.reduce_sum(big.view(64, -1), axis=-1))
    for seed in (4, 5):
        nx, nw, nk = inputs(dev, seed, 512, 1024, 512)
        x.copy_(nx), w.copy_(nw), keys.copy_(nk), big.normal_()
        g.replay()
        torch.cuda.synchronize()
        check_all(outs[:6], all_refs(x, w, keys))
        assert sum_ok(outs[6], big.reshape(-1))
        assert sum_ok(outs[7], big.view(64, -1))


def test_two_torch_graphs_replayed_at_once_on_two_streams(dev):
    xs = [torch.randn(1 << 22, device=dev) for _ in range(2)]
    ops.reduce_sum(xs[0]), ops.reduce_sum(xs[1])
    torch.cuda.synchronize()
    graphs, outs = [], []
    for x in xs:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            outs.append(ops.reduce_sum(x))
        graphs.append(g)
    streams = [torch.cuda.Stream() for _ in xs]
    for _ in range(3):
        for x in xs:
            x.normal_()
        torch.cuda.synchronize()
        for g, s in zip(graphs, streams):
            with torch.cuda.stream(s):
                g.replay()
        torch.cuda.synchronize()
        for x, o in zip(xs, outs):
            assert sum_ok(o, x.reshape(-1))


def test_cupy_stream_capture_and_replay():
    rng = cupy.random.default_rng(7)
    x, w = rng.standard_normal((512, 1024), dtype=cupy.float32), rng.standard_normal((1024, 512), dtype=cupy.float32)
    v = rng.standard_normal(1 << 20, dtype=cupy.float32)
    keys = rng.integers(0, 64, 5000, dtype=cupy.int32)
    s = cupy.cuda.Stream(non_blocking=True)

    def calls():
        y = ops.matmul(x, w)
        return (y, ops.transpose(y), ops.stencil1d(v, STENCIL), ops.reduce_sum(v), ops.reduce_sum(v.reshape(64, -1), axis=-1),
                ops.histogram(keys, 64))

    with s:
        calls()  # warm-up on the capturing stream: kernels loaded, the pool's blocks on this stream
        s.synchronize()
        s.begin_capture()
        outs = calls()
        graph = s.end_capture()
    for seed in (8, 9):
        rng = cupy.random.default_rng(seed)
        x[...] = rng.standard_normal(x.shape, dtype=cupy.float32)
        w[...] = rng.standard_normal(w.shape, dtype=cupy.float32)
        v[...] = rng.standard_normal(v.shape, dtype=cupy.float32)
        keys[...] = rng.integers(0, 64, keys.size, dtype=cupy.int32)
        cupy.cuda.Device().synchronize()
        graph.launch(s)
        s.synchronize()
        want = (x @ w, (x @ w).T, torch.as_tensor(v).cpu(), v.sum(), v.reshape(64, -1).sum(-1), cupy.bincount(keys, minlength=64))
        assert rel(torch.as_tensor(outs[0]), torch.as_tensor(want[0])) < 1e-5
        assert rel(torch.as_tensor(outs[1]), torch.as_tensor(cupy.ascontiguousarray(want[1]))) < 1e-5
        assert rel(torch.as_tensor(outs[2]), ref_stencil(torch.as_tensor(v), STENCIL)) < 1e-5
        assert rel(torch.as_tensor(outs[3]), torch.as_tensor(want[3])) < 1e-5
        assert rel(torch.as_tensor(outs[4]), torch.as_tensor(want[4])) < 1e-5
        assert (outs[5] == want[5]).all()


# ---- autograd ----------------------------------------------------------------------------------------------
def test_gradcheck_float64_ops(dev):
    x = torch.randn(5, 7, device=dev, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(ops.transpose, (x,))
    assert torch.autograd.gradcheck(ops.reduce_sum, (x,))
    assert torch.autograd.gradcheck(lambda t: ops.reduce_sum(t, axis=-1), (x,))
    assert torch.autograd.gradcheck(lambda t: ops.reduce_sum(t.view(35), axis=-1), (x,))


def test_float32_gradients_match_torch(dev):
    """stencil1d and matmul take float32 only: their gradients against torch's own ops'."""
    for n in (1, 5, 1000, 4099):
        x = torch.randn(n, device=dev, requires_grad=True)
        g = torch.randn(n, device=dev)
        (gx,) = torch.autograd.grad(ops.stencil1d(x, STENCIL), x, g)
        (rx,) = torch.autograd.grad(ref_stencil(x, STENCIL), x, g)
        assert rel(gx, rx) < 1e-5, n
    a = torch.randn(300, 200, device=dev, requires_grad=True)
    b = torch.randn(200, 150, device=dev, requires_grad=True)
    g = torch.randn(300, 150, device=dev)
    got = torch.autograd.grad(ops.matmul(a, b), (a, b), g)
    want = torch.autograd.grad(a @ b, (a, b), g)
    assert rel(got[0], want[0]) < 1e-5 and rel(got[1], want[1]) < 1e-5


def test_training_step_with_a_linear_weight(dev):
    torch.manual_seed(0)
    lin = torch.nn.Linear(64, 32, bias=False, device=dev)
    w0 = lin.weight.detach().clone()
    x = torch.randn(128, 64, device=dev)
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    loss = ops.reduce_sum(ops.matmul(x, lin.weight.t()) ** 2) / 128  # the nn.Linear pattern, no .contiguous()
    loss.backward()
    w_ref = w0.clone().requires_grad_(True)
    ((x @ w_ref.t()) ** 2).sum().div(128).backward()
    assert rel(lin.weight.grad, w_ref.grad) < 1e-5
    opt.step()
    assert rel(lin.weight.detach(), w0 - 0.1 * w_ref.grad) < 1e-6


def test_compiled_training_step(dev):
    torch._dynamo.reset()
    w = torch.randn(64, 32, device=dev, requires_grad=True)

    def step(x):
        return ops.reduce_sum(ops.stencil1d(ops.transpose(ops.matmul(x, w)).reshape(-1), STENCIL))

    f = torch.compile(step, fullgraph=True)
    x = torch.randn(16, 64, device=dev)
    f(x).backward()
    got = w.grad.clone()
    w.grad = None
    ref_stencil(((x @ w).t().contiguous()).reshape(-1), STENCIL).sum().backward()
    assert rel(got, w.grad) < 1e-5


def test_eager_gradients_skip_the_dispatcher_and_match_the_ops(dev):
    """An eager call on CUDA tensors that records a gradient takes the op's eager Function (no dispatcher);
    under a dispatch mode it takes the registered op, which the mode sees; the gradients are the same."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Seen(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    x = torch.randn(1000, device=dev, requires_grad=True)
    g = torch.randn(1000, device=dev)
    a, b = torch.randn(40, 30, device=dev, requires_grad=True), torch.randn(30, 20, device=dev, requires_grad=True)
    keys, w = torch.randint(-2, 12, (500,), device=dev), torch.rand(500, device=dev, requires_grad=True)
    calls = {"stencil1d": (lambda: ops.stencil1d(x, STENCIL), (x,), g),
             "transpose": (lambda: ops.transpose(a), (a,), torch.randn(30, 40, device=dev)),
             "reduce_sum": (lambda: ops.reduce_sum(a, axis=-1), (a,), torch.randn(40, device=dev)),
             "matmul": (lambda: ops.matmul(a, b), (a, b), torch.randn(40, 20, device=dev)),
             "histogram": (lambda: ops.histogram(keys, 10, weights=w), (w,), torch.randn(10, device=dev))}
    for name, (call, inputs, grad_out) in calls.items():
        y = call()
        assert y.grad_fn.name() == f"smemlab_{name}_eagerBackward", name
        direct = torch.autograd.grad(y, inputs, grad_out)
        mode = Seen()
        with mode:
            y = call()
            assert f"smemlab.{name}.default" in mode.ops, name
            assert y.grad_fn.name() == f"smemlab_{name}Backward", name
            dispatched = torch.autograd.grad(y, inputs, grad_out)
        for d, r in zip(direct, dispatched):  # one kernel both ways; float atomics may reorder a sum
            assert rel(d, r) < 1e-6, name


def test_histogram_has_no_gradient(dev):
    keys = torch.randint(0, 10, (100,), device=dev)
    assert not ops.histogram(keys, 10).requires_grad


# ---- streams and devices ----------------------------------------------------------------------------------
def _spin(stream_ptr: int, ptr: int, n: int, value: float, ms: float = 60.0) -> None:
    k = cupy.RawKernel(SPIN, "spin_fill")
    with cupy.cuda.ExternalStream(stream_ptr):
        k((264,), (256,), (ptr, np.int64(n), np.uint64(int(ms * 1e6)), np.float32(value)))


class CAIView:
    """An array that names the stream still writing it (__cuda_array_interface__ v3), as Numba's do."""

    def __init__(self, arr, stream_ptr):
        self.__cuda_array_interface__ = dict(arr.__cuda_array_interface__, stream=stream_ptr, version=3)


def test_a_cupy_producer_stream_is_waited_for():
    n = 1 << 22
    x = cupy.zeros(n, dtype=cupy.float32)
    cupy.cuda.Device().synchronize()
    producer = cupy.cuda.Stream(non_blocking=True)
    _spin(producer.ptr, x.data.ptr, n, 1.0)
    with cupy.cuda.Stream(non_blocking=True) as consumer:
        out = ops.reduce_sum(CAIView(x, producer.ptr))
        consumer.synchronize()
    assert float(out) == n


def test_a_numba_array_still_being_written_is_read_when_written():
    import numpy

    if not hasattr(numpy, "row_stack"):  # numba-cuda 0.30 reads it at import; NumPy 2.5 removed it
        numpy.row_stack = numpy.vstack
    numba_cuda = pytest.importorskip("numba.cuda", reason="numba-cuda is not installed")
    n = 1 << 22
    s = numba_cuda.stream()
    d = numba_cuda.device_array(n, dtype=np.float32, stream=s)
    handle = s.handle.value if hasattr(s.handle, "value") else int(s.handle)  # ctypes or cuda.bindings
    _spin(handle, d.device_ctypes_pointer.value, n, 2.0)
    cai = d.__cuda_array_interface__
    with cupy.cuda.Stream(non_blocking=True) as consumer:
        out = ops.reduce_sum(d)
        consumer.synchronize()
    assert float(out) == 2.0 * n, cai.get("stream")
    a = numba_cuda.to_device(np.ones((64, 32), np.float32), stream=s)
    b = numba_cuda.to_device(np.full((32, 16), 2.0, np.float32), stream=s)
    assert float(ops.matmul(a, b)[0, 0]) == 64.0  # Numba arrays on the right device


def test_a_jax_result_is_read_when_written():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    jnp = jax.numpy
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX sees no GPU")

    @jax.jit
    def slow(v):
        return jax.lax.fori_loop(0, 2000, lambda i, a: a + 1.0, v)

    v = jnp.zeros(1 << 24, jnp.float32)
    y = slow(v)  # asynchronous: consumed at once
    out = ops.reduce_sum(y)
    assert abs(float(out) - 2000.0 * (1 << 24)) / (2000.0 * (1 << 24)) < 1e-5
    a = jnp.ones((64, 32), jnp.float32)
    b = jnp.full((32, 16), 2.0, jnp.float32)
    assert float(ops.matmul(a, b)[0, 0]) == 64.0


# ---- FakeTensor, inference_mode ---------------------------------------------------------------------------
def test_a_fake_tensor_never_launches_and_cuda_stays_usable(dev):
    from torch._subclasses.fake_tensor import FakeTensorMode

    from smemlab.ops import _args

    with FakeTensorMode():
        f = torch.empty(64, 64, device="cuda")
        assert ops.transpose(f).shape == (64, 64)
    with pytest.raises(TypeError, match="FakeTensor"):
        _args.read(f, "x", _args.Dtypes("float32"), (2,))
    x = torch.randn(64, 64, device=dev)
    assert torch.equal(ops.transpose(x), x.t())
    torch.cuda.synchronize()


def test_results_made_in_inference_mode_do_not_make_later_ones_inference_tensors(dev):
    x = torch.randn(10000, device=dev)
    with torch.inference_mode():
        r = ops.reduce_sum(x)
        assert r.is_inference()
    r2 = ops.reduce_sum(x)
    assert not r2.is_inference()
    r2.add_(1)
    assert rel(r2, x.double().sum() + 1) < 1e-5


# ---- inputs ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.uint8, torch.int8])
def test_histogram_key_dtypes(dev, dtype):
    hi = 200 if dtype in (torch.uint8, torch.int8) else 1000
    lo = -100 if dtype == torch.int8 else 0
    keys = torch.randint(lo, min(hi, 127) if dtype == torch.int8 else hi, (100000,), device=dev).to(dtype)
    got = ops.histogram(keys, 300)
    k = keys.long()
    want = torch.bincount(k[(k >= 0) & (k < 300)], minlength=300)[:300]
    assert torch.equal(got.long(), want)
    if dtype == torch.int64:
        huge = torch.tensor([0, 1 << 40, -(1 << 40), (1 << 32) + 5, 5], device=dev)  # unclamped, 2^32 + 5 wraps to 5
        assert ops.histogram(huge, 10).tolist() == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_histogram_value_range_as_histc(dev, dtype):
    x = (torch.randn(1 << 20, device=dev) * 2).to(dtype)
    x[:3] = torch.tensor([float("nan"), -3.0, 3.0], device=dev).to(dtype)  # NaN ignored, both ends kept
    got = ops.histogram(x, 100, range=(-3.0, 3.0))
    want = torch.histc(x.float() if dtype == torch.float16 else x, 100, -3.0, 3.0)
    assert got.dtype == torch.int32
    close_to_histc(got, want)
    close_to_histc(torch.as_tensor(ops.histogram(cupy.asarray(x.float()), 100, range=(-3, 3))),
                   torch.histc(x.float(), 100, -3.0, 3.0))


def close_to_histc(got, want):
    """Every value counted once, and at most a few values at bin edges one bin over (the docstring's
    rounding): the running totals differ by at most 3 anywhere."""
    assert int(got.sum()) == int(want.sum())
    drift = (got.double().cumsum(0) - want.double().cumsum(0)).abs().max()
    assert drift <= 3, (drift, got, want)


def test_reduce_bool_and_uint8_give_integer_sums(dev):
    b = torch.rand(100001, device=dev) > 0.5
    u = torch.randint(0, 256, (300, 777), device=dev, dtype=torch.uint8)
    assert ops.reduce_sum(b).dtype == torch.int64 and ops.reduce_sum(b).item() == b.sum().item()
    assert torch.equal(ops.reduce_sum(u, axis=-1), u.sum(-1))
    assert ops.reduce_sum(u).item() == u.sum().item()


def test_matmul_transposed_operands(dev):
    x, w = torch.randn(100, 64, device=dev), torch.randn(48, 64, device=dev)
    assert rel(ops.matmul(x, w.t()), x @ w.t()) < 1e-5
    a, b = torch.randn(64, 100, device=dev), torch.randn(64, 48, device=dev)
    assert rel(ops.matmul(a.t(), b), a.t() @ b) < 1e-5
    ca, cb = cupy.asarray(a), cupy.asarray(b)
    assert rel(torch.as_tensor(ops.matmul(ca.T, cb)), a.t() @ b) < 1e-5


def test_zero_size_inputs_as_torch(dev):
    e = torch.empty(0, device=dev)
    assert ops.transpose(torch.empty(0, 5, device=dev)).shape == (5, 0)
    assert ops.reduce_sum(e).item() == 0 and ops.stencil1d(e, [1.0]).shape == (0,)
    assert ops.reduce_sum(torch.empty(3, 0, device=dev), axis=-1).tolist() == [0, 0, 0]
    assert torch.equal(ops.histogram(torch.empty(0, device=dev, dtype=torch.int32), 4), torch.zeros(4, device=dev, dtype=torch.int32))
    assert torch.equal(ops.matmul(torch.empty(3, 0, device=dev), torch.empty(0, 4, device=dev)), torch.zeros(3, 4, device=dev))
    assert ops.matmul(torch.empty(0, 5, device=dev), torch.empty(5, 4, device=dev)).shape == (0, 4)


def test_strided_views_are_accepted(dev):
    x = torch.randn(64, 96, device=dev)
    assert torch.equal(ops.transpose(x[:, 10:70]), x[:, 10:70].t())
    assert torch.equal(ops.transpose(x.t()), x)
    v = torch.randn(7, 1, device=dev).expand(7, 9)
    assert rel(ops.reduce_sum(v, axis=-1), v.sum(-1)) < 1e-6
    cl = torch.randn(2, 3, 8, 8, device=dev).to(memory_format=torch.channels_last)
    assert torch.equal(ops.transpose(cl), cl.transpose(-1, -2).contiguous())
    s = torch.randn(4000, device=dev)[::2]
    assert rel(ops.stencil1d(s, STENCIL), ref_stencil(s.contiguous(), STENCIL)) < 1e-6
    c = cupy.arange(100, dtype=cupy.float32).reshape(10, 10)[:, ::2]
    assert (ops.transpose(c) == c.T).all()
    # every op, each kind of view (docs/library.md: a strided view is copied by its framework first)
    assert rel(ops.reduce_sum(x.t()), x.sum()) < 1e-6 and rel(ops.reduce_sum(x[:, ::3], axis=-1), x[:, ::3].sum(-1)) < 1e-6
    e = torch.randn(1, device=dev).expand(50)
    assert rel(ops.stencil1d(e, STENCIL), ref_stencil(e.contiguous(), STENCIL)) < 1e-6
    k = torch.randint(0, 40, (3001,), device=dev)
    assert torch.equal(ops.histogram(k[::3], 40).long(), torch.bincount(k[::3], minlength=40))
    assert torch.equal(ops.histogram(k[:1].expand(500), 40).long(), torch.bincount(k[:1].expand(500), minlength=40))
    w = torch.randn(1, 96, device=dev).expand(64, 96)
    assert rel(ops.matmul(x.t()[10:20], w), x.t()[10:20] @ w) < 1e-5


# ---- memory ------------------------------------------------------------------------------------------------
def test_workspaces_come_from_torch_and_a_thousand_calls_leave_memory_where_it_was(dev):
    a, b = torch.randn(1024, 1024, device=dev), torch.randn(1024, 1024, device=dev)
    x = torch.randn(1 << 22, device=dev)
    c, r = ops.matmul(a, b), ops.reduce_sum(x)  # warm-up
    del c, r
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    for _ in range(1000):
        c = ops.matmul(a, b)
        r = ops.reduce_sum(x)
        t = ops.transpose(a)
        s = ops.stencil1d(x, STENCIL)
    del c, r, t, s
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == before
    # the split-K workspace (64 tiles x 4 splits x 64 KB = 16 MiB at 1024^3) was torch's, so torch saw it
    assert torch.cuda.max_memory_allocated() - before >= 16 << 20
