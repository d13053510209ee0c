"""The CUDA runtime half (core/cuda/, opscope.cuda): devices, lazy initialisation, tensors on the
GPU (factories, copies both ways, .cuda() / .to() / .cpu(), printing), streams, events, the
caching allocator's statistics and out-of-memory error, seeding.

Three kinds of machine:
  - a build without CUDA: everything here skips (tests/python/test_cuda_namespace.py covers it);
  - a CUDA build without a GPU (this repository's machines): the no-device tests run — torch's
    RuntimeError at initialisation, nothing initialised, counters zero;
  - a CUDA build with a GPU (tools/device-check.sh on the lent machine): the rest run, each
    checked against the CPU.

    PYTHONPATH=core/python:build-cuda/python /usr/bin/python3 -m pytest -q tests/python/test_cuda_runtime.py
"""
import numpy as np
import pytest

import opscope as torch
from opscope import cuda

compiled = cuda._is_compiled()
has_gpu = compiled and cuda.is_available()
needs_build = pytest.mark.skipif(not compiled, reason="opscope built without CUDA (OPSCOPE_CUDA)")
needs_no_gpu = pytest.mark.skipif(not compiled or has_gpu,
                                  reason="needs a CUDA build on a machine without a GPU")
needs_gpu = pytest.mark.skipif(not has_gpu, reason="no CUDA GPU visible")

if has_gpu:  # a crash prints its C++ frames too, before faulthandler's Python ones
    torch._C._cuda_reportFatalSignals()

NO_GPU = r"^(Found no NVIDIA driver on your system|No CUDA GPUs are available|CUDA driver " \
         r"initialization failed)"
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]


# --- a CUDA build without a GPU -------------------------------------------------------------------
@needs_no_gpu
@pytest.mark.parametrize("call", [
    lambda: torch.zeros(2, device="cuda"), lambda: torch.ones(1).cuda(), lambda: cuda.init(),
    lambda: cuda.current_device(), lambda: torch.tensor([1.0], device="cuda:0"),
    lambda: torch.empty(3).to("cuda"), lambda: cuda.Stream(), lambda: cuda.Event()])
def test_without_a_gpu_the_first_use_raises_torchs_runtime_error(call):
    with pytest.raises(RuntimeError, match=NO_GPU):
        call()
    assert not cuda.is_initialized()


@needs_no_gpu
def test_without_a_gpu_the_questions_answer_nothing_here():
    assert cuda.is_available() is False and cuda.device_count() == 0
    assert cuda.get_arch_list() == []
    assert cuda.memory_allocated() == 0 and cuda.memory_reserved() == 0
    assert cuda.empty_cache() is None
    device = "cuda" if torch.cuda.is_available() else "cpu"
    assert torch.ones(2, device=device).device == torch.device("cpu")


@needs_build
def test_the_backend_registers_its_kernels_and_its_error_type():
    assert issubclass(cuda.OutOfMemoryError, RuntimeError)
    table = torch._C._dispatch_dump_table("aten::copy_")
    assert "CUDA" in table and "core/cuda/Copy.cpp" in table
    assert "core/cuda/Factories.cpp" in torch._C._dispatch_dump_table("aten::zeros")


@needs_build
def test_tf32_switches_reach_the_cublas_products():
    import opscope.backends
    assert torch.backends.cuda.is_built()
    assert not torch._C._get_cublas_allow_tf32()  # off by default, as torch >= 1.12
    try:
        torch.backends.cuda.matmul.allow_tf32 = True
        assert torch._C._get_cublas_allow_tf32()
        opscope.backends.set_float32_matmul_precision("highest")
        assert not torch._C._get_cublas_allow_tf32()
        opscope.backends.set_float32_matmul_precision("medium")
        assert torch._C._get_cublas_allow_tf32()
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False
    assert not torch._C._get_cublas_allow_tf32()


# --- with a GPU ------------------------------------------------------------------------------------
# First, each way a call can fail with CUDA initialised, one test each: a Python exception, never
# a crash. On the lent H200 (2026-11-26, Python 3.12, pybind11 3.1, GCC 13) the CUDA test files
# died of SIGSEGV at an IndexError (x[0] of an empty CPU tensor), at mm's shape error on CUDA
# tensors and at _CudaDeviceProperties' name / repr, none of which crash here (nor under a fake
# device, valgrind-clean): these name the first one that does there.
def _index_empty_cpu():
    torch.zeros(0, 3)[0]


def _index_cuda():
    torch.zeros(2, 3, device="cuda")[5]


def _mm_shapes():
    a = torch.ones(2, 3, device="cuda")
    torch.mm(a, a)


def _iterator_cast():
    torch.zeros(2, dtype=torch.int64, device="cuda").add_(torch.ones(2, device="cuda"))


def _missing_kernel():
    torch.ops.aten.take(torch.ones(2, device="cuda"), torch.zeros(1, dtype=torch.int64))


def _bad_argument():
    torch.ones(2, device="cuda").sum(dim="x")


@needs_gpu
@pytest.mark.parametrize("call,error", [
    (_index_empty_cpu, IndexError), (_index_cuda, IndexError), (_mm_shapes, RuntimeError),
    (_iterator_cast, RuntimeError), (_missing_kernel, NotImplementedError),
    (_bad_argument, TypeError)], ids=lambda v: getattr(v, "__name__", "").strip("_"))
def test_errors_with_cuda_initialised_are_python_exceptions(call, error):
    assert cuda.is_initialized() or cuda.init() is None
    with pytest.raises(error):
        call()


@needs_gpu
def test_device_properties_object():
    props = cuda.get_device_properties(0)
    name = props.name
    assert isinstance(name, str) and name
    text = repr(props)
    assert text.startswith("_CudaDeviceProperties(name='" + name + "'")
    again = cuda.get_device_properties(0)
    assert again.name == name and repr(again) == text
    del again
    import gc
    gc.collect()
    assert props.name == name


def _cpu_reference(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape) * 50
    if dtype == torch.bool:
        return torch.tensor(values > 0)
    return torch.tensor(values).to(dtype)


@needs_gpu
def test_device_queries_and_context():
    assert cuda.is_initialized() or cuda.init() is None
    n = cuda.device_count()
    assert n >= 1 and cuda.current_device() in range(n)
    props = cuda.get_device_properties(0)
    assert props.total_memory > 0 and props.multi_processor_count > 0
    assert cuda.get_device_name(0) == props.name and repr(props).startswith("_CudaDeviceProperties(")
    assert cuda.get_device_capability(0) == (props.major, props.minor)
    with cuda.device(0):
        assert cuda.current_device() == 0
    assert cuda.get_arch_list() and all(a.startswith("sm_") for a in cuda.get_arch_list())
    free, total = cuda.mem_get_info()
    assert 0 < free <= total == props.total_memory


def _ARANGE(**kw):
    return torch.arange(5, **kw)


@needs_gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_factories_on_the_gpu_match_the_cpu(dtype):
    for make in [lambda **kw: torch.zeros(2, 3, **kw), lambda **kw: torch.ones(4, **kw),
                 lambda **kw: torch.full((2, 2), 1, **kw), _ARANGE, lambda **kw: torch.eye(3, **kw)]:
        if dtype == torch.bool and make is _ARANGE:
            continue  # arange has no bool kernel (torch: "arange_cpu" not implemented for 'Bool')
        g, c = make(dtype=dtype, device="cuda"), make(dtype=dtype)
        assert g.device == torch.device("cuda", 0) and g.is_cuda and g.dtype == dtype
        assert torch.equal(g.cpu(), c)
    e = torch.empty_strided((2, 3), (1, 2), dtype=dtype, device="cuda")
    assert e.stride() == (1, 2) and e.is_cuda


@needs_gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_copies_both_ways_keep_values_and_layout(dtype):
    x = _cpu_reference((3, 4, 5), dtype)
    g = x.cuda()
    assert g.is_cuda and g.dtype == dtype and g.shape == x.shape
    assert torch.equal(g.cpu(), x)
    t = x.transpose(0, 2)  # non-contiguous both ways
    assert torch.equal(t.cuda().cpu(), t)
    gt = g.transpose(0, 2)
    assert torch.equal(gt.cpu(), t)
    assert torch.equal(gt.contiguous().cpu(), t.contiguous())
    assert torch.equal(g[1:, ::2].cpu(), x[1:, ::2])
    assert torch.equal(torch.tensor(x.tolist(), dtype=dtype, device="cuda").cpu(), x)


@needs_gpu
@pytest.mark.parametrize("src", DTYPES)
@pytest.mark.parametrize("dst", [torch.bool, torch.int32, torch.int64, torch.float16, torch.bfloat16,
                                 torch.float32, torch.float64])
def test_copy_converts_dtypes_as_the_cpu_does(src, dst):
    x = _cpu_reference((4, 6), src, seed=1)
    want = torch.empty(4, 6, dtype=dst).copy_(x)
    on_gpu = torch.empty(4, 6, dtype=dst, device="cuda").copy_(x.cuda())   # GPU -> GPU
    to_gpu = torch.empty(4, 6, dtype=dst, device="cuda").copy_(x)          # CPU -> GPU
    to_cpu = torch.empty(4, 6, dtype=dst).copy_(x.cuda())                  # GPU -> CPU
    for got in (on_gpu.cpu(), to_gpu.cpu(), to_cpu):
        assert torch.equal(got, want), (got, want)


@needs_gpu
def test_copy_broadcasts_and_checks_shapes_like_the_cpu():
    dst = torch.zeros(3, 4, device="cuda")
    dst.copy_(torch.arange(4.0, device="cuda"))
    assert torch.equal(dst.cpu(), torch.arange(4.0).expand(3, 4))
    dst.t().copy_(torch.ones(4, 1))
    assert torch.equal(dst.cpu(), torch.ones(3, 4))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(4\) must match the size of "
                                           r"tensor b \(2\) at non-singleton dimension 1"):
        dst.copy_(torch.zeros(2, device="cuda"))


@needs_gpu
def test_to_cuda_cpu_and_aliasing():
    x = torch.arange(6.0).reshape(2, 3)
    g = x.to("cuda")
    assert g.device == torch.device("cuda:0") and g.to("cuda") is g and g.to("cuda:0") is g
    assert g.cuda() is g and x.cpu() is x
    assert torch.equal(g.to(torch.float64).cpu(), x.double())
    assert torch.equal(g.to("cpu", torch.int32), x.int())
    h = x.to("cuda", non_blocking=True)
    cuda.synchronize()
    assert torch.equal(h.cpu(), x)
    assert torch.equal(torch.ones(2).to(g).cpu(), torch.ones(2))
    assert g[1, 2].item() == 5.0


@needs_gpu
def test_cuda_tensors_carry_the_cuda_keys_and_print_like_torch():
    g = torch.ones(2, device="cuda")
    keys = str(torch._C._dispatch_keys(g))
    assert "CUDA" in keys and "AutogradCUDA" in keys
    assert repr(g) == "tensor([1., 1.], device='cuda:0')"
    assert repr(torch.zeros(2, dtype=torch.int64, device="cuda")) == \
        "tensor([0, 0], device='cuda:0')"


@needs_gpu
def test_fill_and_zero_reach_every_element_of_a_strided_view():
    g = torch.zeros(4, 6, device="cuda")
    g[:, ::2].fill_(3.0)
    want = torch.zeros(4, 6)
    want[:, ::2] = 3.0
    assert torch.equal(g.cpu(), want)
    g.zero_()
    assert torch.equal(g.cpu(), torch.zeros(4, 6))
    g.fill_(torch.tensor(2.5))
    assert torch.equal(g.cpu(), torch.full((4, 6), 2.5))


@needs_gpu
@pytest.mark.parametrize("dtype", [torch.uint8, torch.float16, torch.float32, torch.float64])
def test_dense_fills_at_every_alignment_and_length(dtype):
    # A dense fill stores 16 bytes at a time between single elements at both ends
    # (copy_kernels.cu): every start offset within 16 bytes and every length around the vector
    # width must reach exactly its own elements.
    g = torch.zeros(200, dtype=dtype, device="cuda")
    for start in range(17):
        for length in [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100]:
            g.zero_()
            g[start:start + length].fill_(5)
            want = torch.zeros(200, dtype=dtype)
            want[start:start + length] = 5
            assert torch.equal(g.cpu(), want), (start, length)
    big = torch.empty(1_000_003, dtype=dtype, device="cuda")[1:]
    big.fill_(3)
    assert torch.equal(big.cpu(), torch.full((1_000_002,), 3, dtype=dtype))


@needs_gpu
@pytest.mark.parametrize("src", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
@pytest.mark.parametrize("dst", [torch.float16, torch.bfloat16, torch.float32, torch.float64,
                                 torch.int32, torch.uint8])
def test_dense_casts_as_the_cpu_does(src, dst):
    # Dense casts between floating types run a kernel per pair; the others the kernel over every
    # pair without the strided offsets: both against the CPU, on a length that is no multiple of
    # the block and with the values that round, overflow and stay NaN / inf.
    rng = np.random.default_rng(3)
    values = np.concatenate([rng.standard_normal(1_000_001) * 300,
                             [np.nan, np.inf, -np.inf, 65504.0, 65520.0, 1e39, -1e-40, 0.0, -0.0]])
    if not dst.is_floating_point:  # a float past the integer's range converts undefined
        values = np.clip(np.nan_to_num(values), -1000, 1000)
    x = torch.tensor(values).to(src)
    want = x.to(dst)
    got = x.cuda().to(dst)
    assert got.dtype == dst
    if dst.is_floating_point:
        assert torch.equal(got.cpu().isnan(), want.isnan())
    assert torch.equal(got.cpu().nan_to_num(0.0), want.nan_to_num(0.0))
    # an offset view (not 16-byte aligned) the same way
    assert torch.equal(x.cuda()[3:].to(dst).cpu().nan_to_num(0.0), want[3:].nan_to_num(0.0))


@needs_gpu
def test_caching_allocator_statistics_and_empty_cache():
    cuda.synchronize()
    cuda.empty_cache()
    cuda.reset_peak_memory_stats()
    base = cuda.memory_allocated()
    x = torch.empty(1000, device="cuda")  # 4000 bytes -> 4096 (512-byte rounding)
    assert cuda.memory_allocated() - base == 4096
    assert cuda.memory_reserved() >= cuda.memory_allocated()
    peak = cuda.max_memory_allocated()
    del x
    assert cuda.memory_allocated() == base and cuda.max_memory_allocated() == peak
    y = torch.empty(1000, device="cuda")  # the cached block, no new segment
    reserved = cuda.memory_reserved()
    del y
    assert cuda.memory_reserved() == reserved
    cuda.empty_cache()
    assert cuda.memory_reserved() <= reserved
    stats = cuda.memory_stats()
    assert stats["allocation.all.allocated"] >= 2 and "reserved_bytes.large_pool.peak" in stats
    summary = cuda.memory_summary()
    assert "Allocated memory" in summary and "GPU reserved memory" in summary


@needs_gpu
def test_out_of_memory_raises_torchs_error_and_keeps_working():
    with pytest.raises(cuda.OutOfMemoryError, match=r"^CUDA out of memory. Tried to allocate "
                                                    r"[0-9.]+ [KMGT]iB \(GPU 0; "):
        torch.empty(1 << 50, dtype=torch.uint8, device="cuda")
    assert cuda.memory_stats()["num_ooms"] >= 1
    assert torch.ones(3, device="cuda").cpu().tolist() == [1.0, 1.0, 1.0]


@needs_gpu
def test_streams_events_and_timing():
    default = cuda.current_stream()
    assert default == cuda.default_stream() and default.cuda_stream == 0
    s = cuda.Stream()
    assert s != default and s.device == torch.device("cuda:0") and "cuda_stream=0x" in repr(s)
    with cuda.stream(s):
        assert cuda.current_stream() == s
        start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        start.record()
        x = torch.ones(1 << 20, device="cuda")
        x.fill_(2.0)
        end.record()
    assert cuda.current_stream() == default
    default.wait_stream(s)
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0.0
    assert x.cpu()[0].item() == 2.0
    x.record_stream(s)
    del x
    s.synchronize()
    assert s.query()
    e = cuda.Event()
    assert e.query() and repr(e) == "<torch.cuda.Event uninitialized>"
    with pytest.raises(RuntimeError, match="Both events must be recorded"):
        cuda.Event(enable_timing=True).elapsed_time(end)


@needs_gpu
def test_seeding_and_rng_state():
    cuda.manual_seed(123)
    state = cuda.get_rng_state()
    assert state.dtype == torch.uint8 and state.numel() == 16
    assert cuda.initial_seed() == 123
    cuda.manual_seed_all(7)
    cuda.set_rng_state(state)
    assert cuda.initial_seed() == 123 and torch.equal(cuda.get_rng_state(), state)


@needs_no_gpu
def test_without_a_gpu_nothing_is_pinned_and_pinning_needs_the_device():
    x = torch.ones(2)
    assert x.is_pinned() is False
    with pytest.raises(RuntimeError, match=NO_GPU):
        x.pin_memory()


@needs_gpu
def test_pinned_memory_and_non_blocking_copies():
    x = torch.arange(10.0)
    p = x.pin_memory()
    assert p.is_pinned() and not x.is_pinned() and torch.equal(p, x) and p.pin_memory() is p
    g = p.to("cuda", non_blocking=True)
    cuda.current_stream().synchronize()
    assert torch.equal(g.cpu(), x)
    back = torch.empty(10).pin_memory()
    back.copy_(g, non_blocking=True)
    cuda.synchronize()
    assert torch.equal(back, x)
    with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
        g.pin_memory()


@needs_gpu
def test_the_profiler_counts_device_memory_as_cuda_memory():
    with torch.profiler.profile(profile_memory=True) as prof:
        x = torch.zeros(1000, device="cuda")  # 4000 bytes asked for
    events = [e for e in prof.events() if e.name == "aten::zeros"]
    assert events and events[0].cuda_memory_usage == 4000 and events[0].cpu_memory_usage == 0
    records = events[0].memory_records
    assert records and all(r.device == "cuda:0" for r in records)
    del x
