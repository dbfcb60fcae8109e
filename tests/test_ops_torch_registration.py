"""The torch custom ops with no GPU: registration, fake implementations (meta tensors and FakeTensors),
torch.compile tracing with no graph break, autograd's graph, and the refusal of a FakeTensor by the
CUDA path. Skipped where torch is not installed (CI may have none)."""

import importlib
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: the torch ops have nothing to register with")

from smemlab import ops  # noqa: E402
from smemlab.ops._route import registered  # noqa: E402

SM = registered()


def meta(*shape, dtype=torch.float32, grad=False):
    return torch.empty(*shape, device="meta", dtype=dtype, requires_grad=grad)


def test_every_op_is_registered_in_the_smemlab_namespace():
    for name in ops.__all__:
        assert callable(getattr(SM, name)), name
        assert getattr(torch.ops.smemlab, name) is getattr(SM, name)


@pytest.mark.parametrize("call, want", [
    (lambda: SM.transpose(meta(3, 5)), ((5, 3), torch.float32)),
    (lambda: SM.transpose(meta(2, 3, 5, dtype=torch.float16)), ((2, 5, 3), torch.float16)),
    (lambda: SM.reduce_sum(meta(3, 5)), ((), torch.float32)),
    (lambda: SM.reduce_sum(meta(3, 5), torch.float64), ((), torch.float64)),
    (lambda: SM.reduce_sum(meta(2, 3, 5, dtype=torch.int32), None, -1), ((2, 3), torch.int64)),
    (lambda: SM.reduce_sum(meta(8, dtype=torch.bool)), ((), torch.int64)),
    (lambda: SM.reduce_sum(meta(8, dtype=torch.uint8), None, -1), ((), torch.int64)),
    (lambda: SM.stencil1d(meta(7), [1.0, 2.0, 1.0]), ((7,), torch.float32)),
    (lambda: SM.histogram(meta(9, dtype=torch.int64), 5), ((5,), torch.int32)),
    (lambda: SM.histogram(meta(9, dtype=torch.int64), 5, "auto", None, meta(9)), ((5,), torch.float32)),
    (lambda: SM.histogram(meta(9), 5, "auto", [0.0, 1.0], meta(9, dtype=torch.float64)), ((5,), torch.float64)),
    (lambda: SM.matmul(meta(3, 4), meta(4, 6)), ((3, 6), torch.float32)),
    (lambda: SM.matmul(meta(3, 0), meta(0, 6)), ((3, 6), torch.float32)),
], ids=["transpose", "transpose-batch", "sum", "sum-f64", "rows-i32", "sum-bool", "rows-u8", "stencil", "histogram",
        "histogram-weights", "histogram-range-weights-f64", "matmul", "matmul-k0"])
def test_fake_implementations_give_shape_and_dtype(call, want):
    out = call()
    assert (tuple(out.shape), out.dtype, out.device.type) == (*want, "meta")


def test_fake_implementations_refuse_what_the_kernels_would():
    with pytest.raises(ValueError, match="2-D or 3-D or 4-D"):
        SM.transpose(meta(5))
    with pytest.raises(ValueError, match="equal K"):
        SM.matmul(meta(3, 4), meta(5, 6))
    with pytest.raises(TypeError, match="float32"):
        SM.matmul(meta(3, 4, dtype=torch.float64), meta(4, 6, dtype=torch.float64))
    with pytest.raises(ValueError, match="odd length"):
        SM.stencil1d(meta(7), [1.0, 2.0])
    with pytest.raises(ValueError, match="bins"):
        SM.histogram(meta(9, dtype=torch.int32), 0)
    with pytest.raises(ValueError, match="axis"):
        SM.reduce_sum(meta(3, 4), None, 0)
    with pytest.raises(TypeError, match="complex64 is not accepted"):
        SM.reduce_sum(meta(3, dtype=torch.complex64))


def test_histogram_weights_checked_traced_and_differentiated():
    """The fake implementation refuses what check_weights refuses; the weights' gradient is a gather of the
    output's gradient at each key's bin (checked on CPU tensors through the backward formula itself)."""
    from smemlab.ops import torch_autograd

    k = meta(9, dtype=torch.int32)
    for w, exc, match in ((meta(9, dtype=torch.float16), TypeError, "float32 or float64"),
                          (meta(9, dtype=torch.int32), TypeError, "float32 or float64"),
                          (meta(8), ValueError, r"shape \(8,\)"), (meta(3, 3), ValueError, r"shape \(3, 3\)")):
        with pytest.raises(exc, match=match):
            SM.histogram(k, 4, "auto", None, w)
    with pytest.raises(ValueError, match="no method"):
        SM.histogram(k, 4, "smem", None, meta(9))
    w = meta(9, grad=True)
    out = ops.histogram(k, 4, weights=w)
    assert out.requires_grad and out.dtype == torch.float32
    out.sum().backward()
    assert w.grad.shape == (9,)

    class Ctx:
        needs_input_grad = (False, False, False, False, True)

        def save_for_backward(self, *tensors):
            self.saved_tensors = tensors

    keys = torch.tensor([0, 3, 3, -1, 7, 2, 9])
    ctx = Ctx()
    torch_autograd._histogram_setup(ctx, (keys, 8, "auto", None, torch.ones(7)), None)
    g = torch.arange(8.0) + 1
    assert torch.equal(torch_autograd._histogram_backward(ctx, g)[4], torch.tensor([1.0, 4, 4, 0, 8, 3, 0]))
    ctx.value_range = [0.0, 1.0]  # values binned over [0, 1]: 0.5 in bin 4, 1.0 in the last, -0.1 and 2 outside
    ctx.saved_tensors = (torch.tensor([0.5, 1.0, -0.1, 2.0]),)
    assert torch.equal(torch_autograd._histogram_backward(ctx, g)[4], torch.tensor([5.0, 8, 0, 0]))


def test_fake_tensors_take_the_fake_implementations_on_a_fake_cuda_device():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(4, 6, device="cuda")
        k = torch.empty(100, device="cuda", dtype=torch.uint8)
        assert ops.transpose(x).shape == (6, 4) and ops.transpose(x).device.type == "cuda"
        assert ops.reduce_sum(x, torch.float64).dtype == torch.float64
        assert ops.matmul(x, x.t()).shape == (4, 4)  # a transposed operand: fine
        assert ops.histogram(k, 256).shape == (256,)
        assert ops.stencil1d(x.reshape(-1), (0.25, 0.5, 0.25)).shape == (24,)


def test_a_fake_tensor_never_reaches_a_launch():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(4, 6, device="cuda")
    for name, call in (("transpose", lambda m: m.run(x)), ("reduce", lambda m: m.run(x)),
                       ("stencil", lambda m: m.run(x.reshape(-1), [1.0])), ("matmul", lambda m: m.run(x, x)),
                       ("histogram", lambda m: m.run(x, 4))):
        with pytest.raises(TypeError, match="FakeTensor has no data"):
            call(importlib.import_module(f"smemlab.ops.{name}"))


def test_compile_fullgraph_traces_every_op_into_one_graph():
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm

    def f(x, w, keys):
        y = ops.transpose(ops.matmul(x, w))
        s = ops.stencil1d(y.reshape(-1), [0.25, 0.5, 0.25])
        return ops.reduce_sum(s, axis=-1), ops.histogram(keys, 16)

    torch._dynamo.reset()
    total, counts = torch.compile(f, fullgraph=True, backend=backend)(meta(3, 4), meta(4, 5), meta(50, dtype=torch.int64))
    assert total.shape == () and counts.shape == (16,) and len(graphs) == 1
    code = graphs[0].code
    for name in ops.__all__:
        assert f"torch.ops.smemlab.{name}" in code, name


def test_autograd_records_the_differentiable_ops_and_histogram_has_no_gradient():
    x, w = meta(3, 4, grad=True), meta(4, 5, grad=True)
    y = ops.stencil1d(ops.transpose(ops.matmul(x, w)).reshape(-1), [1.0, 2.0, 3.0])
    loss = ops.reduce_sum(y)
    assert loss.requires_grad
    loss.backward()
    assert x.grad.shape == (3, 4) and w.grad.shape == (4, 5)
    assert not ops.histogram(meta(9, dtype=torch.int32), 4).requires_grad


def test_eager_calls_without_grad_skip_the_dispatcher():
    from smemlab.ops._route import torch_ops

    assert torch_ops(torch.empty(3)) is None  # a CPU tensor: the direct path, which refuses it clearly
    assert torch_ops(meta(3)) is SM
    assert torch_ops(meta(3, grad=True)) is SM
    with torch.no_grad():
        assert torch_ops(torch.empty(3, requires_grad=True)) is None
    assert torch_ops(torch.empty(3, requires_grad=True)) is SM


@pytest.mark.slow  # child interpreters importing torch, 3 s on 2 cores: make test runs it, the inner loop does not
def test_import_registers_only_where_torch_was_imported_first():
    code = ("import sys, smemlab.ops; assert 'torch' not in sys.modules; import torch; "
            "from smemlab.ops._route import _REGISTERED; assert not _REGISTERED; "
            "import smemlab.ops._route as r; r.torch_ops(torch.empty(1, device='meta')); assert r._REGISTERED")
    subprocess.run([sys.executable, "-c", code], check=True)
    code = ("import torch, smemlab.ops; from smemlab.ops._route import _REGISTERED; assert _REGISTERED; "
            "print(torch.ops.smemlab.transpose)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_histogram_value_range_is_checked_and_traced():
    from smemlab.ops.histogram import check_range

    assert check_range(None) is None and check_range((0, 1.5)) == (0.0, 1.5)
    for bad, exc in (((1.0, 1.0), ValueError), ((0.0, float("inf")), ValueError), ("ab", TypeError), ((1,), TypeError)):
        with pytest.raises(exc, match="range"):
            check_range(bad)
    out = SM.histogram(meta(9), 5, "auto", [0.0, 1.0])
    assert out.shape == (5,) and out.dtype == torch.int32
    with pytest.raises(ValueError, match="lo < hi"):
        SM.histogram(meta(9), 5, "auto", [1.0, 0.0])
    assert ops.histogram(meta(9, dtype=torch.float16), 7, range=(-1, 1)).shape == (7,)


def test_range_bins_as_histc_on_the_cpu():
    """The bin numbers _range_keys computes, on CPU tensors (the kernels' counting needs a GPU)."""
    from smemlab.ops import _args
    from smemlab.ops.histogram import _range_keys

    x = torch.cat([torch.rand(10000) * 3 - 1, torch.tensor([float("nan"), -1.0, 2.0, 0.5, 2.0001, -1.0001])])
    a = _args.GpuArray(x, "torch", 0, tuple(x.shape), np.dtype(np.float32), 0)
    k = _range_keys(a, 30, -1.0, 2.0)
    assert k.dtype == torch.int32
    kept = k[k >= 0].long()
    assert torch.equal(torch.bincount(kept, minlength=30).float(), torch.histc(x, 30, -1.0, 2.0))


def test_ops_are_registered_for_cuda_meta_and_autograd_only():
    """Library.define/impl, not custom_op: a CUDA kernel, the fake implementation as the Meta kernel, an
    Autograd kernel, and no CPU kernel (a CPU tensor gets the dispatcher's error, as before)."""
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    for name in ops.__all__:
        qualname = f"smemlab::{name}"
        assert [has(qualname, key) for key in ("CUDA", "Meta", "Autograd", "CPU")] == [True, True, True, False], name
        assert torch.Tag.pt2_compliant_tag in getattr(SM, name).default.tags
    for call in (lambda: SM.transpose(torch.empty(3, 4)), lambda: SM.transpose(torch.empty(3, 4, requires_grad=True)),
                 lambda: ops.matmul(torch.empty(3, 4, requires_grad=True), torch.empty(4, 5))):
        with pytest.raises(NotImplementedError, match="'CPU' backend"):
            call()


def test_the_autograd_kernel_calls_the_backend_kernel_itself_only_for_plain_tensors():
    """smemlab.ops.torch_autograd.autograd_kernel on a test op with a CPU kernel: a plain tensor with no
    gradient to record takes the kernel directly (one Python call); a meta tensor, a FakeTensor, a tensor
    under a dispatch mode are redispatched (the fake implementation, the mode); a tensor that requires
    grad records the backward, and no_grad and inference_mode record none."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.utils._python_dispatch import TorchDispatchMode

    from smemlab.ops.torch_autograd import autograd_kernel

    calls = []

    def kernel(x, scale=2.0):
        calls.append("direct")
        return x * scale

    def dispatched(x, scale=2.0):
        calls.append("dispatched")
        return x * scale

    def setup(ctx, inputs, output):
        ctx.scale = inputs[1]  # the default filled in

    lib = torch.library.Library("smemlab_autograd_test", "DEF")
    lib.define("scale(Tensor x, float scale=2.0) -> Tensor")
    lib.impl("scale", dispatched, "CPU")
    torch.library.register_fake("smemlab_autograd_test::scale", lambda x, scale=2.0: torch.empty_like(x), lib=lib)
    op = torch.ops.smemlab_autograd_test.scale
    lib.impl("scale", autograd_kernel(op.default, kernel, lambda ctx, g: (g * ctx.scale, None), setup, backend="CPU"),
             "Autograd", with_keyset=True)

    x = torch.arange(3.0)
    assert torch.equal(op(x), 2 * x) and calls == ["direct"]
    assert op(torch.empty(3, device="meta")).device.type == "meta" and calls == ["direct"]
    with FakeTensorMode():
        assert op(torch.empty(3)).shape == (3,) and calls == ["direct"]

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            calls.append(str(func))
            return func(*args, **(kwargs or {}))

    with Seen():
        op(x, 3.0)
    assert calls == ["direct", "smemlab_autograd_test.scale.default", "dispatched"]
    w = torch.arange(3.0, requires_grad=True)
    y = op(w)
    assert y.requires_grad and calls[-1] == "dispatched"
    (g,) = torch.autograd.grad(y.sum(), w)
    assert torch.equal(g, torch.full((3,), 2.0))
    assert torch.autograd.gradcheck(lambda t: op(t, 0.5), (torch.rand(4, dtype=torch.float64, requires_grad=True),))
    with torch.no_grad():
        assert not op(w).requires_grad and calls[-1] == "direct"
    with torch.inference_mode():
        r = op(w)
        assert r.is_inference() and not r.requires_grad and calls[-1] == "dispatched"  # autograd keys excluded
    assert not op(x).is_inference()


@pytest.fixture
def cpu_reference_kernels():
    """torch's own ops as the smemlab ops' CPU kernels, for as long as the test runs: the Autograd kernels,
    the backward formulas and the compiled graphs then run for real, on the CPU."""
    from smemlab.ops.histogram import torch_bins

    def stencil(x, coef):
        w = torch.tensor(coef, dtype=x.dtype).view(1, 1, -1)
        return torch.nn.functional.conv1d(x.view(1, 1, -1), w, padding=len(coef) // 2).view(-1)

    def histogram(keys, bins, method="auto", value_range=None, weights=None):
        k = torch_bins(keys, bins, value_range).long()
        out = torch.zeros(bins, dtype=torch.int32 if weights is None else weights.dtype)
        ones = torch.ones_like(k, dtype=out.dtype)
        return out.index_add_(0, k[k >= 0], (ones if weights is None else weights)[k >= 0])

    lib = torch.library.Library("smemlab", "FRAGMENT")
    lib.impl("transpose", lambda x: x.transpose(-1, -2).contiguous(), "CPU")
    lib.impl("reduce_sum", lambda x, dtype=None, axis=None: x.sum(-1 if axis is not None and x.dim() > 1 else None,
                                                                   dtype=dtype), "CPU")
    lib.impl("stencil1d", stencil, "CPU")
    lib.impl("histogram", histogram, "CPU")
    lib.impl("matmul", lambda a, b, variant=None, splits=None: a @ b, "CPU")
    yield
    lib._destroy()


def test_gradients_and_compiled_backward_through_the_dispatcher(cpu_reference_kernels):
    gc = torch.autograd.gradcheck
    x = torch.randn(5, 7, dtype=torch.float64, requires_grad=True)
    a, b = torch.randn(5, 7, dtype=torch.float64), torch.randn(7, 4, dtype=torch.float64)
    assert gc(SM.transpose, (x,)) and gc(SM.reduce_sum, (x,)) and gc(lambda t: SM.reduce_sum(t, axis=-1), (x,))
    assert gc(lambda t: SM.stencil1d(t.reshape(-1), [0.1, -0.2, 0.5, 0.3, -0.05]), (x,))
    assert gc(lambda t: SM.matmul(t, b), (x,)) and gc(lambda t: SM.matmul(a, t), (b.clone().requires_grad_(),))
    keys, w = torch.tensor([0, 3, 3, -1, 7, 2, 9, 1]), torch.rand(8, dtype=torch.float64, requires_grad=True)
    assert gc(lambda v: SM.histogram(keys, 8, "auto", None, v), (w,))
    assert gc(lambda v: SM.histogram(keys.double() / 8, 8, "auto", [0.0, 1.0], v), (w,))
    assert not SM.reduce_sum(torch.arange(5, dtype=torch.int32)).requires_grad
    with torch.inference_mode():
        assert SM.reduce_sum(x).is_inference()
    assert not SM.reduce_sum(x).is_inference()

    wt = torch.randn(7, 4, requires_grad=True)

    def step(v, k, hw):
        s = ops.stencil1d(ops.transpose(ops.matmul(v, wt)).reshape(-1), [0.25, 0.5, 0.25])
        return ops.reduce_sum(s) + (ops.histogram(k, 8, weights=hw) * torch.arange(8.0)).sum()

    v, hw = torch.randn(3, 7), torch.rand(8, requires_grad=True)
    step(v, keys, hw).backward()
    want = wt.grad.clone(), hw.grad.clone()
    for backend in ("eager", "aot_eager"):
        torch._dynamo.reset()
        wt.grad = hw.grad = None
        torch.compile(step, fullgraph=True, backend=backend)(v, keys, hw).backward()
        assert torch.allclose(wt.grad, want[0], atol=1e-5) and torch.equal(hw.grad, want[1]), backend
    assert torch.equal(want[1], torch.tensor([0.0, 3, 3, 0, 7, 2, 0, 1]))
    torch._dynamo.reset()


def test_eager_functions_give_the_autograd_kernels_gradients(cpu_reference_kernels):
    """The Functions that eager calls recording a gradient take (smemlab.ops.torch_autograd.eager_functions)
    differentiate as the ops do: gradcheck on the CPU reference kernels, every formula, and the defaults
    filled in where a call leaves trailing arguments out."""
    from smemlab.ops.torch_autograd import eager_functions

    f = eager_functions({name: getattr(SM, name).default for name in ops.__all__})
    gc = torch.autograd.gradcheck
    x = torch.randn(5, 7, dtype=torch.float64, requires_grad=True)
    b = torch.randn(7, 4, dtype=torch.float64, requires_grad=True)
    assert gc(f["transpose"], (x,)) and gc(f["reduce_sum"], (x,)) and gc(lambda t: f["reduce_sum"](t, None, -1), (x,))
    assert gc(lambda t: f["stencil1d"](t.reshape(-1), [0.1, -0.2, 0.5, 0.3, -0.05]), (x,))
    assert gc(f["matmul"], (x, b))
    keys, w = torch.tensor([0, 3, 3, -1, 7, 2, 9, 1]), torch.rand(8, dtype=torch.float64, requires_grad=True)
    assert gc(lambda v: f["histogram"](keys, 8, "auto", None, v), (w,))
    y = f["transpose"](x)
    assert y.grad_fn.name() == "smemlab_transpose_eagerBackward" and torch.equal(y, x.t())
    assert not f["reduce_sum"](torch.arange(5, dtype=torch.int32)).requires_grad


def test_only_plain_cuda_calls_that_record_a_gradient_skip_the_dispatcher():
    """_route sends a call that records a gradient to the eager Functions only for CUDA tensors with no
    mode or transform active; anything else keeps the op (its Autograd kernel redispatches to them)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    from smemlab.ops import _route

    registered()
    cpu = torch.empty(3, requires_grad=True)
    assert not _route._plain_cuda((cpu,)) and _route.torch_ops(cpu) is SM
    assert _route.torch_ops(cpu, meta(3)) is SM and _route.torch_ops(torch.nn.Parameter(meta(3))) is SM

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        cuda = torch.empty(3, device="cuda")  # a tensor that says CUDA: _plain_cuda reads metadata only
    assert _route._plain_cuda((cuda,)) and _route._plain_cuda((cuda, cuda))
    assert not _route._plain_cuda((cuda, cpu)) and not _route._plain_cuda((cuda, np.zeros(3)))
    with Seen():
        assert not _route._plain_cuda((cuda,))
    with torch.overrides.TorchFunctionMode():
        assert not _route._plain_cuda((cuda,))
    seen = []
    torch.func.grad(lambda t: seen.append(_route._plain_cuda((cuda,))) or t.sum())(torch.ones(2))
    assert seen == [False]  # a functorch transform
