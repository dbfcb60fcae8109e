"""The one launch path (smemlab.device) and the ops' argument reading, with no GPU: launch shapes,
the launch log, errors named with the kernel and its shape, cluster checks, CAI arguments read
without a driver call, and the library's sanitizer cases."""

import numpy as np
import pytest

from smemlab import device
from smemlab.errors import KernelError, UserError
from smemlab.ops import _args as A


class FakeKernel(device.Kernel):
    def __init__(self):
        super().__init__("fake_kernel", "fake.cu", handle=object(), static_smem=0, device=0)
        self._packed = False  # no driver here: cuda.core's path (recorded), unless a test sets one


@pytest.fixture
def recorded(monkeypatch):
    """device.launch with cuda.core's launch replaced by a recorder (the configs stay real objects)."""
    calls = []

    class Config:
        def __init__(self, **kw):
            self.kw = kw

    import cuda.core

    monkeypatch.setattr(cuda.core, "LaunchConfig", Config)
    monkeypatch.setattr(device, "_CONFIGS", {})
    monkeypatch.setattr(device, "_STREAMS", {7: "stream-7"})
    monkeypatch.setattr(device, "_core_launch", lambda stream, cfg, handle, *args: calls.append((stream, cfg.kw, args)))
    monkeypatch.setattr(device, "ensure_context", lambda dev: None)  # no driver here to make a context current
    return calls


def test_dim3_and_launch_shape():
    assert device.dim3(5) == (5, 1, 1) and device.dim3((2, 3)) == (2, 3, 1) and device.dim3(np.int64(4)) == (4, 1, 1)
    assert device.launch_shape((8, 2), 256, 1024, 2) == "grid (8, 2, 1) block (256, 1, 1) dynamic smem 1024 B cluster (2, 1, 1)"


def test_launch_passes_arguments_as_given_and_caches_the_config(recorded):
    k = FakeKernel()
    device.launch(k, 64, 256, (0x7F00, np.int64(9)), 7)
    device.launch(k, 64, 256, (0x7F10, np.int64(3)), 7)
    assert [c[0] for c in recorded] == ["stream-7", "stream-7"]
    assert recorded[0][1] == {"grid": (64, 1, 1), "block": (256, 1, 1), "shmem_size": 0}
    assert recorded[1][2] == (0x7F10, np.int64(3))
    assert len(device._CONFIGS) == 1  # one launch shape, one config


def test_dynamic_shared_memory_opt_in_counts_the_static(recorded, monkeypatch):
    """48 KB is static and dynamic together: 48 KB of dynamic memory beside 4 KB of static needs the
    opt-in (CUDA_ERROR_INVALID_VALUE at the launch without it)."""
    k = FakeKernel()
    k.static_smem, k._dyn_limit = 4096, 48 * 1024 - 4096  # as the constructor sets them for 4 KB of static memory
    set_to = []
    monkeypatch.setattr(k, "set_attribute", lambda attr, value: set_to.append((attr, value)))
    device.launch(k, 4, 128, (), 7, shmem=44 * 1024)
    assert set_to == []
    device.launch(k, 4, 128, (), 7, shmem=48 * 1024)
    assert set_to == [("MAX_DYNAMIC_SHARED_SIZE_BYTES", 48 * 1024)]
    assert device.Kernel("k", "k.cu", object(), 4096, 0)._dyn_limit == 48 * 1024 - 4096


def test_cluster_launch_counts_blocks_and_checks_the_multiple(recorded):
    k = FakeKernel()
    k._nonportable = True
    device.launch(k, 16, 128, (), 7, cluster=8)
    assert recorded[0][1]["grid"] == (2, 1, 1) and recorded[0][1]["cluster"] == (8, 1, 1)
    with pytest.raises(UserError, match="fake_kernel: grid \\(10, 1, 1\\) is not a multiple of cluster \\(4, 1, 1\\)"):
        device.launch(k, 10, 128, (), 7, cluster=4)


def test_a_driver_error_names_the_kernel_and_its_shape(monkeypatch, recorded):
    def fail(*a):
        raise RuntimeError("CUDA_ERROR_INVALID_VALUE")

    monkeypatch.setattr(device, "_core_launch", fail)
    with pytest.raises(KernelError, match="kernel fake_kernel grid \\(3, 1, 1\\) block \\(1024, 1, 1\\): CUDA_ERROR_INVALID_VALUE"):
        device.launch(FakeKernel(), 3, 1024, (), 7)


def test_launches_are_recorded_by_name_only_inside_the_block(recorded):
    device.launch(FakeKernel(), 1, 32, (), 7)
    with device.recording_launches() as outer:
        device.launch(FakeKernel(), 1, 32, (), 7)
        with device.recording_launches() as inner:  # blocks nest: a launch goes to every block it is in
            device.launch(FakeKernel(), 2, 32, (), 7)
    device.launch(FakeKernel(), 1, 32, (), 7)
    assert outer == ["fake_kernel", "fake_kernel"] and inner == ["fake_kernel"]
    assert device._launch_logs == ()


class FakeCAI:
    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7F0000000000):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "strides": strides,
                                         "data": (ptr, False), "version": 3}


def test_read_takes_pointer_shape_and_dtype_from_the_interface():
    a = A.read(FakeCAI((3, 5), "<i4", ptr=0x1000), "x", A.Dtypes("int32", "float32"), (2,))
    assert (a.kind, a.ptr, a.shape, a.dtype, a.size, a.device) == ("cai", 0x1000, (3, 5), np.dtype("int32"), 15, A.CURRENT)


def test_dtypes_are_looked_up_not_rebuilt():
    d = A.Dtypes("float32", "int32")
    assert np.dtype("float32") in d and np.dtype("float64") not in d and d.text == "float32 or int32"


def test_two_arrays_must_share_framework_and_device():
    x = A.GpuArray(object(), "cupy", 0, (2, 2), np.dtype("float32"), 0)
    y = A.GpuArray(object(), "torch", 0, (2, 2), np.dtype("float32"), 0)
    z = A.GpuArray(object(), "cupy", 0, (2, 2), np.dtype("float32"), 1)
    with pytest.raises(TypeError, match="two arrays of one type"):
        A.same_framework(x, y, ("a", "b"))
    with pytest.raises(ValueError, match="a is on GPU 0 and b on GPU 1"):
        A.same_framework(x, z, ("a", "b"))
    A.same_framework(x, A.GpuArray(object(), "cai", 0, (2, 2), np.dtype("float32"), A.CURRENT), ("a", "b"))


def test_dtype_argument_accepts_numpy_names_and_refuses_others():
    assert A.check_dtype_arg("float64", "dtype", ["float32", "float64"]) == np.float64
    with pytest.raises(TypeError, match="accepted: float32"):
        A.check_dtype_arg("int8", "dtype", ["float32"])


def test_the_library_selfcheck_covers_every_method_and_variant():
    from smemlab.ops.histogram import METHODS
    from smemlab.ops.matmul import VARIANTS
    from smemlab.ops.selfcheck import cases

    labels = [label for label, _ in cases()]
    assert len(labels) == len(set(labels))
    assert {m for m in METHODS if m != "auto"} <= {label.split()[-1] for label in labels if label.startswith("histogram")}
    assert set(VARIANTS) <= {label.split()[2] for label in labels if label.startswith("matmul")}
    for op in ("transpose", "reduce_sum", "stencil1d"):
        assert any(label.startswith(op) for label in labels)


def test_sanitizer_rows_attribute_library_findings_to_cases():
    from smemlab.sanitize import _rows

    output = "========= Invalid __global__ write of size 4 bytes\n=========     at transpose_e4_any+0x10\n"
    launches = [["transpose 65x63 f32 (any shape)", ["transpose_e4_any"]], ["reduce_sum 1 int32", ["reduce_i32_i64"]]]
    rows = _rows("library", {label: "" for label, _ in launches}, [("memcheck", output, launches)])
    by = {r["variant"]: r["memcheck"] for r in rows}
    assert by["reduce_sum 1 int32"] == "clean" and by["transpose 65x63 f32 (any shape)"].startswith("1 finding")


def test_parameters_pack_at_the_drivers_offsets():
    st = device.param_struct([(0, 8), (8, 8), (16, 4), (24, 8)])  # ptr, ptr, int, long long (aligned to 8)
    assert st.format == "<qqixxxxq" and st.size == 32
    buf = bytearray(st.size)
    st.pack_into(buf, 0, 0x7F00, 0x7F10, -3, 1 << 40)
    assert int.from_bytes(buf[16:20], "little", signed=True) == -3 and int.from_bytes(buf[24:], "little") == 1 << 40
    st = device.param_struct([(0, 8), (8, 12)])  # a pointer, then a struct of three floats passed by value
    assert st.format == "<q12s" and st.size == 20
    st.pack_into(buf, 0, 1, bytes(range(12)))
    assert bytes(buf[8:20]) == bytes(range(12))


def test_integer_arguments_take_the_packed_path_and_floats_do_not(recorded, monkeypatch):
    k = FakeKernel()
    k._packed = device._Packed(0xABC, [(0, 8), (8, 4)])
    fast = []
    monkeypatch.setattr(device, "_launch_kernel", lambda *a: fast.append(a))
    device.launch(k, (4, 2), 128, (0x7F00, 5), 7, shmem=256)
    assert fast == [(0xABC, 4, 2, 1, 128, 1, 1, 256, 7, 0, k._packed.extra)]
    assert bytes(k._packed.buf) == (0x7F00).to_bytes(8, "little") + (5).to_bytes(4, "little")
    device.launch(k, 1, 32, (0x7F00, np.float32(1.5)), 7)  # a float: cuda.core's path
    assert len(fast) == 1 and len(recorded) == 1


def test_a_packed_launch_error_names_the_kernel(monkeypatch):
    k = FakeKernel()
    k._packed = device._Packed(0xABC, [(0, 8)])

    def fail(*a):
        raise RuntimeError("CUDA_ERROR_INVALID_VALUE")

    monkeypatch.setattr(device, "_launch_kernel", fail)
    with pytest.raises(KernelError, match="kernel fake_kernel grid \\(1, 1, 1\\) block \\(32, 1, 1\\)"):
        device.launch(k, 1, 32, (1,), 7)


def test_another_thread_packs_into_the_shared_buffer_under_the_lock(recorded, monkeypatch):
    import threading

    k = FakeKernel()
    k._packed = device._Packed(0xABC, [(0, 8)])
    fast = []
    monkeypatch.setattr(device, "_launch_kernel", lambda *a: fast.append((a[-1], k._packed.lock.locked())))
    device.launch(k, 1, 32, (1,), 7)
    worker = threading.Thread(target=device.launch, args=(k, 1, 32, (2,), 7))
    worker.start()
    worker.join()
    # the making thread: its own buffer, no lock; another thread: the second buffer, under the lock
    assert fast == [(k._packed.extra, False), (k._packed.shared_extra, True)]
    assert bytes(k._packed.buf) == (1).to_bytes(8, "little") and bytes(k._packed.shared_buf) == (2).to_bytes(8, "little")
