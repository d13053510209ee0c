"""A CUDA build's host code on a machine without a GPU, over the fake device of
tests/cuda/fake_device.cpp (preloaded ahead of the CUDA runtime and cuBLAS): the runtime queries,
copies (whose values are real there), the errors each kind of bad call raises, and a sweep of
ops that must never make the host read device memory (the fake's device memory faults on the
host, as a GPU's does). Kernels do not run there, so computed values are not checked: that is
test_cuda_ops.py's work on a GPU.

Skipped without the CUDA backend (OPSCOPE_CUDA=ON, `make test-cuda`), g++ or the CUDA headers.
Each check runs in a child process, so that a crash fails one test with its stack.
"""
import textwrap

from fake_cuda import needs_fake, run


pytestmark = needs_fake


def test_runtime_queries(fake):
    out = run(fake, """
        from opscope import cuda
        assert cuda.is_available() and cuda.device_count() == 1 and not cuda.is_initialized()
        cuda.init()
        props = cuda.get_device_properties(0)
        assert props.name == cuda.get_device_name(0) == "Fake CUDA device"
        assert repr(props) == ("_CudaDeviceProperties(name='Fake CUDA device', major=9, minor=0, "
                               "total_memory=81920MB, multi_processor_count=132)"), repr(props)
        assert cuda.get_device_capability() == (9, 0) and cuda.current_device() == 0
        with cuda.device(0):
            assert cuda.current_device() == 0
        free, total = cuda.mem_get_info()
        assert 0 < free <= total == 80 << 30
        s = cuda.Stream()
        assert s != cuda.default_stream() and cuda.current_stream() == cuda.default_stream()
        with cuda.stream(s):
            assert cuda.current_stream() == s
        start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
        start.record(); end.record(); end.synchronize()
        assert start.elapsed_time(end) >= 0
        print("ok")
        """)
    assert out.strip() == "ok"


def test_copies_keep_values(fake):
    run(fake, """
        import numpy as np
        dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                  torch.float16, torch.bfloat16, torch.float32, torch.float64]
        for dt in dtypes:
            x = torch.tensor(np.arange(-6, 6).reshape(3, 4) % 5).to(dt)
            g = x.cuda()
            assert g.is_cuda and g.dtype == dt and torch.equal(g.cpu(), x), dt
            assert torch.equal(g.clone().cpu(), x)        # device to device, one memcpy
            assert torch.equal(g.to("cpu"), x) and torch.equal(x.to("cuda").cpu(), x)
            assert torch.equal(torch.zeros(3, 4, dtype=dt, device="cuda").cpu(),
                               torch.zeros(3, 4, dtype=dt))  # a memset
            assert g[1, 2].item() == x[1, 2].item()       # _local_scalar_dense: one element back
        p = torch.arange(10.).pin_memory()
        assert p.is_pinned()
        g = p.cuda(non_blocking=True)
        torch.cuda.synchronize()
        assert g.cpu().tolist() == list(range(10))
        assert torch.tensor([[1.5, 2.5]], device="cuda").cpu().tolist() == [[1.5, 2.5]]
        assert torch.cuda.memory_allocated() > 0
        """)


def test_errors_are_python_exceptions(fake):
    run(fake, """
        import re
        from opscope import cuda
        def raises(error, f, match=""):
            try:
                f()
            except error as e:
                assert re.search(match, str(e)), str(e)
                return
            raise AssertionError(f"{f} did not raise {error.__name__}")
        a = torch.ones(2, 3, device="cuda")
        raises(RuntimeError, lambda: torch.mm(a, a),
               r"mat1 and mat2 shapes cannot be multiplied \\(2x3 and 2x3\\)")
        raises(RuntimeError, lambda: torch.addmm(a, a, a), "mat1 and mat2 shapes")
        raises(RuntimeError, lambda: torch.bmm(a, a), "batch1 must be a 3D tensor")
        raises(IndexError, lambda: a[5], "index 5 is out of bounds for dimension 0 with size 2")
        raises(IndexError, lambda: torch.zeros(0, 3)[0], "out of bounds")
        raises(RuntimeError,
               lambda: torch.zeros(2, dtype=torch.int64, device="cuda").add_(a[0, :2]),
               "result type Float can't be cast to the desired output type Long")
        raises(RuntimeError, lambda: a + torch.ones(2, 3), "same device")
        raises(NotImplementedError,
               lambda: torch.ops.aten.take(a, torch.zeros(1, dtype=torch.int64, device="cuda")),
               "'CUDA' backend")
        raises(TypeError, lambda: a.sum(dim="x"))
        raises(RuntimeError, lambda: torch.nn.functional.layer_norm(a, (4,)),
               r"Given normalized_shape=\\[4\\]")
        i32 = torch.zeros(2, 3, dtype=torch.int32, device="cuda")
        raises(RuntimeError, lambda: a.gather(1, i32), "Expected dtype int64 for index")
        # Out of device memory: opscope.cuda.OutOfMemoryError with torch's message, then on.
        raises(cuda.OutOfMemoryError,
               lambda: torch.empty(1 << 50, dtype=torch.uint8, device="cuda"),
               r"^CUDA out of memory. Tried to allocate [0-9.]+ [KMGT]iB \\(GPU 0; 80.00 GiB total")
        assert cuda.memory_stats()["num_ooms"] >= 1
        assert torch.arange(3.).cuda().cpu().tolist() == [0.0, 1.0, 2.0]
        """)


def test_boolean_masks_and_cpu_indices_reach_their_kernels(fake):
    # A mask's nonzero positions are found on a CPU copy (real values on the fake): the shapes
    # are right even though no kernel runs.
    run(fake, """
        x = torch.zeros(3, 4, device="cuda")
        b = torch.tensor([True, False, True], device="cuda")
        assert tuple(x[b].shape) == (2, 4)
        assert tuple(torch.nonzero(b).shape) == (2, 1)
        every = torch.ones(3, 4, dtype=torch.bool).cuda()  # a copy: ones(device=) is a kernel
        assert tuple(torch.masked_select(x, every).shape) == (12,)
        x[b] = 1.0
        x[torch.tensor([0, 2])] = 2.0                    # indices on the CPU, copied over
        x.index_put_((torch.tensor([1], device="cuda"),), torch.tensor(3.0))
        """)


SWEEP = """
x = torch.ones(3, 4, device="cuda")
i = torch.zeros(3, dtype=torch.int64, device="cuda")
b = torch.ones(3, 4, dtype=torch.bool, device="cuda")
calls = [
    lambda: repr(x), lambda: str(x[0]), lambda: repr(x[0, 0]), lambda: x[0, 0].item(),
    lambda: float(x[0, 0]), lambda: int(i[0]), lambda: bool(b[0, 0]), lambda: x.tolist(),
    lambda: x.numpy(), lambda: x[1], lambda: x[i], lambda: x[b], lambda: list(x),
    lambda: x == x, lambda: torch.equal(x, x), lambda: torch.allclose(x, x),
    lambda: torch.nonzero(x), lambda: torch.sort(x), lambda: torch.topk(x, 2),
    lambda: torch.cumsum(x, 0), lambda: x.max(1), lambda: x.sum(), lambda: x.std(),
    lambda: x @ x.t(), lambda: torch.cat([x, x]), lambda: torch.where(b, x, 0.0),
    lambda: x.clamp(0, 1), lambda: x.half(), lambda: x.t().contiguous(), lambda: x.long(),
    lambda: torch.rand(3, device="cuda"), lambda: torch.randint(0, 5, (3,), device="cuda"),
    lambda: torch.randperm(5, device="cuda"), lambda: torch.arange(5, device="cuda"),
    lambda: torch.linspace(0, 1, 5, device="cuda"), lambda: torch.eye(3, device="cuda"),
    lambda: torch.softmax(x, 1), lambda: torch.nn.functional.layer_norm(x, (4,)),
    lambda: torch.nn.functional.cross_entropy(x, i), lambda: torch.nn.functional.dropout(x),
    lambda: torch.nn.functional.embedding(i, x), lambda: x.index_select(0, i),
    lambda: x.scatter(1, torch.zeros(3, 1, dtype=torch.int64, device="cuda"), 1.0),
    lambda: (x.clone().requires_grad_() * 2).sum().backward(),
    lambda: torch.nn.Linear(4, 2).cuda()(x).sum().backward(), lambda: 2 ** x,
    lambda: x + torch.tensor(1.0), lambda: x.add_(torch.tensor(2.0)),
    lambda: torch.ones(3, 4).copy_(x), lambda: x.copy_(torch.ones(4)),
    lambda: x.narrow(0, torch.tensor(0, device="cuda"), 1), lambda: x.masked_fill(b, 0.0),
    lambda: torch.tensor_split(x, torch.tensor([1], device="cuda")),
    lambda: torch.trace(x[:, :3]),
    lambda: x.prod(), lambda: torch.logsumexp(x, 1), lambda: torch.var_mean(x, 1),
]
for f in calls:
    try:
        f()
    except Exception:
        pass  # an error is fine here; the host reading device memory is not
print(len(calls))
"""


def test_the_host_never_reads_device_memory(fake):
    assert int(run(fake, SWEEP).strip()) > 50


def test_profiler_marks_cuda_kernel_steps(fake):
    # The fake's events all read 0 ms apart: what runs here is the marking (two events per CUDA
    # kernel step, none for CPU steps or under a plain trace) and its resolution at the end.
    out = run(fake, """
        from opscope.profiler import ProfilerActivity, profile
        assert ProfilerActivity.CUDA in torch.profiler.supported_activities()
        x, c = torch.ones(4, 4, device="cuda"), torch.ones(2)
        with torch.trace(device_time=True) as t:
            y = torch.mm(x, x) + 1
            c + c
            x.t()  # a view: no mark
        marked = [s.op for op in t.ops for s in op.steps if s.device_start_ns]
        assert marked == ["aten::mm", "aten::add.Tensor"], marked
        assert all(s.device_end_ns for op in t.ops for s in op.steps if s.device_start_ns)
        assert all(s.device_start_ns is None for op in t.ops for s in op.steps if s.key == "CPU")
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            torch.mm(x, x).sum()
        print(prof.key_averages().table(row_limit=3).splitlines()[1].split()[:3])
        """)
    assert out.strip() == "['Name', 'Self', 'CPU']"


def test_a_cuda_product_names_its_cublas_routine(fake):
    # The lecture's path: matmul -> mm[AutogradCUDA] -> mm[CUDA] -> cublasSgemm, and the stack
    # recorded at the product ends in the routine (the fake's cublasSgemm_v2 here).
    out = run(fake, """
        a = torch.ones(8, 8, device="cuda")
        with torch.trace(with_stack=True) as t:
            torch.matmul(a, a)
            torch.bmm(a.double()[None], a.double()[None])
        names = {op.name: op.blas_routine for op in t.ops if op.blas_routine}
        assert names == {"aten::mm": "cublasSgemm", "aten::bmm": "cublasDgemmStridedBatched"}, names
        frames = [f.name for f in t.stack("aten::mm").frames]
        assert frames[0] == "cublasSgemm_v2", frames[:3]
        print([s.label for op in t.ops if op.name == "aten::mm" for s in op.steps])
        """)
    assert out.strip() == "['mm[AutogradCUDA]', 'mm[CUDA]']"


LINEAR_PRODUCTS = textwrap.dedent("""
    import os
    log = os.path.join({tmp!r}, "lt.log")
    os.environ["FAKECUDA_LOG_LT"] = log
    F = torch.nn.functional
    x, w, b = (torch.ones(8, 16, device="cuda"), torch.ones(4, 16, device="cuda"),
               torch.ones(4, device="cuda"))
    with torch.trace(with_stack=True) as t:
        F.linear(x, w, b)
        torch.addmm(b, x, w.t(), beta=0.5)                      # beta != 1
        torch.addmm(torch.ones(8, 4, device="cuda"), x, w.t())  # a 2-D self
        torch.addmm(b[None], x.double().float(), w.t(), alpha=2)  # a (1, N) bias
        torch.addmm(b, x[:1], w.t())                            # one row
    print([op.blas_routine for op in t.ops if op.name == "aten::addmm"])
    print(t.stack("aten::addmm").frames[0].name)
    print(hex(b.data_ptr()))
    print(open(log).read() if os.path.exists(log) else "")
    """)


def test_a_linear_runs_as_one_cublaslt_product_with_the_bias_in_its_epilogue(fake, tmp_path):
    # Note [A bias in the product's epilogue] (core/cuda/kernels/linear.cpp): torch 2.x's
    # conditions, the column-major problem cuBLASLt is given (m = N, n = M, the weight read
    # transposed, the bias pointer itself), and the gemm path for everything else.
    out = run(fake, LINEAR_PRODUCTS.format(tmp=str(tmp_path))).splitlines()
    assert out[0] == str(["cublasLtMatmul", "cublasSgemm", "cublasSgemm", "cublasLtMatmul",
                          "cublasSgemm"])
    assert out[1] == "cublasLtMatmul"
    bias = out[2]
    calls = [line for line in out[3:] if line]
    assert len(calls) == 2
    assert calls[0] == (f"cublasLtMatmul m=4 n=8 k=16 transa=1 transb=0 lda=16 ldb=16 ldc=4 "
                        f"epilogue=4 bias={bias} workspace={4 << 20}")


def test_cublaslt_off_or_without_an_algorithm_falls_back_to_gemm(fake, tmp_path):
    # torch's DISABLE_ADDMM_CUDA_LT=1; and a problem cuBLASLt has no algorithm for (the fake's
    # FAKECUDA_LT_NO_ALGO) runs the copy + gemm path instead of failing.
    for switch in ("DISABLE_ADDMM_CUDA_LT", "FAKECUDA_LT_NO_ALGO"):
        out = run(fake, f"import os; os.environ[{switch!r}] = '1'\n" +
                  LINEAR_PRODUCTS.format(tmp=str(tmp_path / switch))).splitlines()
        assert out[0] == str(["cublasSgemm"] * 5), (switch, out)
        assert not any(line.startswith("cublasLtMatmul m=") for line in out)


def test_the_cublaslt_workspace_is_allocated_once_per_stream(fake):
    out = run(fake, """
        x, w, b = (torch.ones(8, 16, device="cuda"), torch.ones(4, 16, device="cuda"),
                   torch.ones(4, device="cuda"))
        base = torch.cuda.memory_allocated()
        y = torch.nn.functional.linear(x, w, b)
        first = torch.cuda.memory_allocated() - base
        del y
        z = torch.nn.functional.linear(x, w, b)
        second = torch.cuda.memory_allocated() - base
        with torch.cuda.stream(torch.cuda.Stream()):
            u = torch.nn.functional.linear(x, w, b)
        print(first, second, torch.cuda.memory_allocated() - base)
        """)
    workspace, result = 4 << 20, 512  # 8 x 4 float32 rounds up to one 512-byte block
    assert out.split() == [str(workspace + result), str(workspace + result),
                           str(2 * workspace + 2 * result)]


def test_composite_library_ops_run_on_cuda_tensors_and_the_others_say_so(fake):
    """The ops this library builds from other ops (einsum, tensordot, meshgrid, F.normalize,
    instance_norm, normal's four forms, bernoulli.p) run on CUDA tensors through their children;
    those with CPU kernels only (group norm, upsampling, reflection padding, bernoulli of a
    probability tensor) raise torch's NotImplementedError naming the op and the backend."""
    run(fake, """
        F = torch.nn.functional
        x = torch.randn(2, 4, 6, 6, device="cuda")
        shapes = [torch.einsum("bchw,bcHW->bhwHW", x, x).shape,
                  torch.tensordot(x, x, dims=([1, 2, 3], [1, 2, 3])).shape,
                  F.normalize(x).shape, F.instance_norm(x).shape, torch.normal(x, 1.0).shape,
                  torch.normal(0.5, x.abs()).shape, torch.normal(x, x.abs()).shape,
                  torch.bernoulli(x, 0.5).shape]
        assert shapes == [(2, 6, 6, 6, 6), (2, 2)] + [(2, 4, 6, 6)] * 6, shapes
        assert torch.normal(0, 1, (3,), device="cuda").device.type == "cuda"
        grid = torch.meshgrid(torch.arange(3, device="cuda"), torch.arange(2, device="cuda"),
                              indexing="xy")
        assert [g.shape for g in grid] == [(2, 3), (2, 3)] and grid[0].device.type == "cuda"
        # Composites that allocate their own tensors allocate them on the input's device: F.pad
        # returned a CPU tensor for a CUDA input, is_causal attention and nll_loss(out=) mixed in
        # a CPU mask / total weight (found while checking this stop's ops on the fake device).
        padded = F.pad(x, (1, 2, 0, 1), value=0.5)
        assert padded.device.type == "cuda" and padded.shape == (2, 4, 7, 9), padded.device
        q = torch.randn(2, 5, 8, device="cuda")
        assert F.scaled_dot_product_attention(q, q, q, is_causal=True).device.type == "cuda"
        out = torch.empty(0, device="cuda")
        logits, labels = torch.randn(3, 4, device="cuda"), torch.tensor([0, 3, 1], device="cuda")
        assert torch.ops.aten.nll_loss.out(logits, labels, out=out) is out and out.device.type == "cuda"
        # this stop's composites on CUDA tensors: through their children where they have CUDA
        # kernels (cdist's product path, dist, inner, fill_diagonal_, isreal, bilinear, cov)
        y = torch.randn(30, 4, device="cuda")
        results = [torch.cdist(x.view(2, 4, 36).transpose(1, 2), y), torch.dist(y, y),
                   torch.inner(y, y), torch.zeros(3, 3, device="cuda").fill_diagonal_(1.0),
                   y.isreal(), torch.cov(y),
                   F.bilinear(y, y, torch.randn(5, 4, 4, device="cuda"))]
        assert all(r.device.type == "cuda" for r in results), [r.device for r in results]
        for name, call in [("native_group_norm", lambda: F.group_norm(x, 2)),
                           ("upsample_nearest2d.vec", lambda: F.interpolate(x, scale_factor=2)),
                           ("reflection_pad2d", lambda: F.pad(x, (1, 1, 1, 1), mode="reflect")),
                           ("bernoulli_.Tensor", lambda: torch.bernoulli(x.abs().clamp(max=1)))]:
            try:
                call()
            except NotImplementedError as e:
                assert f"Could not run 'aten::{name}' with arguments from the 'CUDA' backend" in str(e), e
            else:
                raise AssertionError(f"{name} ran on CUDA")
        """)
