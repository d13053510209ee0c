"""opscope.cuda in a build without the CUDA backend: torch.cuda's namespace as torch 1.13 built
without CUDA answers it (the behaviour below was observed with Debian's CPU-only torch 1.13), so
that tutorials' first lines run and GPU-only calls fail with torch's error.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_cuda_namespace.py
"""
import warnings
from collections import OrderedDict

import pytest

import opscope
import opscope as torch
from opscope import cuda

NOT_COMPILED = "^Torch not compiled with CUDA enabled$"
# A build with the CUDA backend answers otherwise: tests/python/test_cuda_runtime.py checks it.
pytestmark = pytest.mark.skipif(cuda._is_compiled(), reason="opscope built with CUDA")


def test_the_machine_has_no_gpu_and_the_usual_idiom_picks_the_cpu():
    assert cuda.is_available() is False and cuda.device_count() == 0
    assert not cuda.is_initialized() and not cuda._is_compiled()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.ones(2, device=device)
    assert x.to(device) is x and x.device == torch.device("cpu")
    assert cuda.get_arch_list() == [] and cuda.get_gencode_flags() == ""
    assert cuda.has_half is False and cuda.has_magma is False


@pytest.mark.parametrize("call", [
    "current_device()", "get_device_name()", "get_device_name(0)", "get_device_capability()",
    "get_device_properties(0)", "synchronize()", "init()", "_lazy_init()", "current_stream()",
    "default_stream()", "is_bf16_supported()", "get_rng_state()", "initial_seed()",
    "mem_get_info()", "Stream()", "Event(enable_timing=True)", "set_device(0)",
    "reset_peak_memory_stats()", "memory_summary()"])
def test_what_needs_a_gpu_fails_with_torchs_assertion(call):
    with pytest.raises(AssertionError, match=NOT_COMPILED):
        eval("cuda." + call, {"cuda": cuda})
    assert not cuda.is_initialized()


def test_counters_are_zero_and_seeding_waits_for_an_initialisation_that_never_comes():
    for f in [cuda.memory_allocated, cuda.max_memory_allocated, cuda.memory_reserved,
              cuda.max_memory_reserved, cuda.memory_cached, cuda.max_memory_cached]:
        assert f() == 0 and f(0) == 0
    assert cuda.memory_stats() == OrderedDict()
    assert cuda.empty_cache() is None
    queued = len(cuda._queued_calls)
    for f in [lambda: cuda.manual_seed(1), lambda: cuda.manual_seed_all(2), cuda.seed, cuda.seed_all,
              lambda: cuda.set_rng_state(torch.zeros(8, dtype=torch.uint8))]:
        assert f() is None
    assert len(cuda._queued_calls) == queued + 5
    cuda._queued_calls[queued:] = []
    torch.manual_seed(0)  # torch's manual_seed also seeds CUDA, lazily: no error here


def test_device_and_stream_contexts_do_nothing_until_a_device_is_named():
    with cuda.device(None), cuda.device(-1), cuda.device_of(torch.zeros(1)), cuda.stream(None):
        pass
    assert cuda.device(0).idx == 0 and cuda.device("cuda:1").idx == 1
    with pytest.raises(AssertionError, match=NOT_COMPILED):
        with cuda.device(0):
            pass
    with pytest.raises(ValueError, match="Expected a cuda device"):
        cuda.device("cpu")


def test_tensor_type_names_exist_and_say_why_they_cannot_be_built():
    with pytest.raises(TypeError, match=r"^type torch.cuda.FloatTensor not available. Torch not "
                                        r"compiled with CUDA enabled.$"):
        cuda.FloatTensor(2)
    assert not isinstance(torch.zeros(1), cuda.LongTensor)
    assert issubclass(cuda.OutOfMemoryError, RuntimeError)


def test_amp_disables_itself_with_torchs_warnings():
    with pytest.warns(UserWarning, match=r"GradScaler is enabled, but CUDA is not available.  Disabling."):
        scaler = cuda.amp.GradScaler()
    assert not scaler.is_enabled() and scaler.get_scale() == 1.0 and scaler.state_dict() == {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = cuda.amp.GradScaler(enabled=False)
    w = opscope.nn.Parameter(torch.ones(2))
    opt = opscope.optim.SGD([w], lr=0.1)
    loss = (w * w).sum()
    assert scaler.scale(loss) is loss
    loss.backward()
    assert quiet.step(opt) is None
    quiet.update()
    assert w.tolist() == pytest.approx([0.8, 0.8])
    with pytest.warns(UserWarning, match="User provided device_type of 'cuda', but CUDA is not available. Disabling"):
        with cuda.amp.autocast():
            assert (torch.ones(1) + 1).dtype == torch.float32


def test_an_enabled_scaler_scales_skips_overflowing_steps_and_adapts(monkeypatch):
    # The enabled path runs where CUDA exists; its arithmetic does not depend on the device.
    monkeypatch.setattr(cuda, "is_available", lambda: True)
    scaler = cuda.amp.GradScaler(init_scale=8.0, growth_interval=2)
    w = opscope.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = opscope.optim.SGD([w], lr=1.0)
    scaled = scaler.scale((w * 3).sum())
    assert scaled.item() == pytest.approx(72.0)
    scaled.backward()
    scaler.step(opt)                         # grads unscaled to 3 before the step
    assert w.tolist() == pytest.approx([-2.0, -1.0])
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.update()
    opt.zero_grad()
    scaler.scale((w * 3).sum()).backward()
    scaler.step(opt)
    scaler.update()                          # two clean steps: the scale grows
    assert scaler.get_scale() == 16.0
    w.grad = torch.tensor([float("inf"), 1.0])
    before = w.tolist()
    assert scaler.step(opt) is None and w.tolist() == before  # the overflowing step is skipped
    scaler.update()
    assert scaler.get_scale() == 8.0
    assert scaler.state_dict()["scale"] == 8.0
