"""opscope.save / opscope.load in PyTorch's checkpoint format: files PyTorch 1.13 wrote
(data/checkpoints/, made by make_torch_checkpoints.py) load with the values, dtypes, strides,
shared storages and Parameters torch saw; opscope writes the files torch 1.13 was checked to load
(same bytes); and opscope's own round trips keep everything a tensor is.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_serialization.py
"""
import collections
import io
import json
import os
import pathlib
import pickle
import pickletools
import struct
import zipfile

import numpy as np
import pytest

import opscope
from opscope import nn
from make_torch_checkpoints import (
    CASES, WHOLE_MODEL, build, describe, opscope_bytes, sha256)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "checkpoints")
with open(os.path.join(DATA, "expected.json")) as _f:
    EXPECTED = json.load(_f)

UNSAFE = ("Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` "
          "will likely succeed, but it can result in arbitrary code execution.Do it only if you "
          "get the file from a trusted source. WeightsUnpickler error: ")
DTYPES = [opscope.float32, opscope.float64, opscope.float16, opscope.bfloat16, opscope.int8,
          opscope.int16, opscope.int32, opscope.int64, opscope.uint8, opscope.bool]


def round_trip(obj, **save_args):
    buf = io.BytesIO()
    opscope.save(obj, buf, **save_args)
    buf.seek(0)
    return opscope.load(buf)


def random_tensor(rng, shape, dtype):
    if dtype == opscope.bool:
        values = rng.random(shape) > 0.5
    elif dtype.is_floating_point:
        values = rng.standard_normal(shape) * 100
    else:
        info = np.iinfo(str(dtype).split(".")[1])
        values = rng.integers(info.min, info.max, shape, endpoint=True)
    return opscope.from_numpy(np.asarray(values)).to(dtype)


def assert_same_tensor(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.stride() == want.stride() and got.requires_grad == want.requires_grad
    assert got.detach().double().tolist() == want.detach().double().tolist() or (
        opscope.equal(got.detach(), want.detach()))


# --- files written by PyTorch 1.13 ---------------------------------------------------------------
TORCH_FILES = sorted(n for n in EXPECTED["files"] if "cuda_location" not in n)


@pytest.mark.parametrize("name", TORCH_FILES)
def test_loads_torch_files(name):
    got = describe(opscope.load(os.path.join(DATA, name)), opscope)
    assert got == EXPECTED["files"][name]["expected"]


@pytest.mark.parametrize("name", TORCH_FILES)
def test_loads_torch_files_from_a_buffer_and_a_path_object(name):
    with open(os.path.join(DATA, name), "rb") as f:
        from_buffer = opscope.load(io.BytesIO(f.read()))
    from_path = opscope.load(pathlib.Path(DATA) / name)
    want = EXPECTED["files"][name]["expected"]
    assert describe(from_buffer, opscope) == want and describe(from_path, opscope) == want


def test_loaded_views_share_one_storage():
    d = opscope.load(os.path.join(DATA, "shared_views.pt"))
    assert not d["row"]._is_view() and d["row"]._base is None  # as torch's loaded tensors
    d["base"][1, 2] = 100.0
    assert d["row"][2].item() == 100.0 and d["col"][1].item() == 100.0
    assert d["t"][2, 1].item() == 100.0 and d["block"][0, 1].item() == 100.0
    assert d["list"][0] is d["base"]  # one object in the file, one object loaded


def test_loaded_parameters_and_grad():
    d = opscope.load(os.path.join(DATA, "parameter.pt"))
    assert type(d["p"]) is nn.Parameter and d["p"].requires_grad and d["p"].is_leaf
    assert type(d["frozen"]) is nn.Parameter and not d["frozen"].requires_grad
    (d["p"] * d["p"]).sum().backward()
    assert d["p"].grad.tolist() == [[2.0, 4.0], [6.0, 8.0]]
    zoo = opscope.load(os.path.join(DATA, "zoo.pt"))
    assert zoo["requires_grad"].requires_grad and zoo["requires_grad"].is_leaf
    assert not zoo["float32"].requires_grad


def test_module_state_dicts_from_torch_load_into_opscope_modules():
    sd = opscope.load(os.path.join(DATA, "sequential_state_dict.pt"))
    assert type(sd) is collections.OrderedDict and hasattr(sd, "_metadata")
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    model.load_state_dict(sd)
    for k, v in model.state_dict().items():
        assert v.tolist() == sd[k].tolist()
    linear = nn.Linear(3, 2)
    linear.load_state_dict(opscope.load(os.path.join(DATA, "linear_state_dict.pt")))


def test_training_continues_from_torch_checkpoints():
    """torch trained two SGD (momentum, weight decay) steps and saved model and optimizer; the
    third step taken here from those files matches torch's third step."""
    t = EXPECTED["training"]
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    model.load_state_dict(opscope.load(os.path.join(DATA, "sequential_state_dict.pt")))
    saved = opscope.load(os.path.join(DATA, "sgd_state_dict.pt"))
    group = saved["param_groups"][0]
    assert (group["lr"], group["momentum"], group["weight_decay"]) == (
        t["lr"], t["momentum"], t["weight_decay"])
    sgd = opscope.optim.SGD(model.parameters(), lr=group["lr"], momentum=group["momentum"],
                            weight_decay=group["weight_decay"])
    params = list(model.parameters())
    if hasattr(sgd, "load_state_dict"):
        sgd.load_state_dict(saved)
    else:  # optimizer state by hand: parameter i of the group is params[i]
        for i, state in saved["state"].items():
            sgd.state[params[group["params"].index(i)]] = state
    x, target = opscope.tensor(t["x"]), opscope.tensor(t["target"])
    sgd.zero_grad()
    ((model(x) - target) ** 2).mean().backward()
    sgd.step()
    for k, v in model.state_dict().items():
        np.testing.assert_allclose(v.tolist(), t["after_third_step"][k], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["whole_module.pt", "legacy_whole_module.pt"])
def test_whole_torch_module_loads_as_opscope_module(name):
    """torch.save(model) names torch.nn.modules.container.Sequential, ...linear.Linear: they load
    as opscope.nn's modules, with torch's attributes, and compute what torch computed."""
    model = opscope.load(os.path.join(DATA, name))
    assert type(model) is nn.Sequential and type(model[0]) is nn.Linear
    assert type(model[1]) is nn.Tanh and type(model[0].weight) is nn.Parameter
    x = opscope.tensor(EXPECTED["training"]["x"])
    with opscope.no_grad():
        np.testing.assert_allclose(model(x).tolist(), EXPECTED["whole_module_output"],
                                   rtol=1e-6, atol=1e-7)


def test_whole_opscope_model_pickles_as_torchs_modules():
    """make_torch_checkpoints.py checked that torch 1.13 loads a whole opscope model as torch's
    modules computing the same output; that holds while the classes pickle under torch's names
    and carry the attributes torch's modules have."""
    model = eval(WHOLE_MODEL, {"m": opscope})
    data = zipfile.ZipFile(io.BytesIO(opscope_bytes(model))).read("archive/data.pkl")
    globals_ = {arg for op, arg, _ in pickletools.genops(data) if op.name == "GLOBAL"}
    assert {"torch.nn.modules.container Sequential", "torch.nn.modules.linear Linear",
            "torch.nn.modules.activation ReLU", "torch.nn.modules.normalization LayerNorm",
            "torch.nn.modules.dropout Dropout"} <= globals_
    assert not any(g.startswith("opscope") for g in globals_)
    want = EXPECTED["whole_model_attributes"]
    assert {type(m).__name__: sorted(vars(m)) for m in model.modules()} == want


def test_whole_opscope_module_round_trip():
    opscope.manual_seed(3)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    got = round_trip(model)
    x = opscope.ones(2, 4)
    assert type(got) is nn.Sequential and got(x).tolist() == model(x).tolist()


def test_adam_state_dict_from_torch():
    saved = opscope.load(os.path.join(DATA, "adam_state_dict.pt"))
    state = saved["state"][0]
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "step"]
    assert state["step"].dim() == 0 and state["step"].item() == 1.0
    assert saved["param_groups"][0]["params"] == [0]


# --- a file from a GPU machine -------------------------------------------------------------------
CUDA_FILES = ["cuda_location.pt", "legacy_cuda_location.pt"]


@pytest.mark.parametrize("name", CUDA_FILES)
@pytest.mark.parametrize("map_location", [
    "cpu", opscope.device("cpu"), {"cuda:0": "cpu"}, lambda storage, location: storage,
    lambda storage, location: None if location == "cpu" else storage.cpu(),
    lambda storage, location: storage.clone(),
    lambda storage, location: opscope.serialization.default_restore_location(storage, "cpu")],
    ids=["str", "device", "dict", "callable", "callable-or-none", "callable-copy",
         "callable-default"])
def test_cuda_file_loads_on_the_cpu_with_map_location(map_location, name):
    got = opscope.load(os.path.join(DATA, name), map_location=map_location)
    assert describe(got, opscope) == EXPECTED["files"][name]["expected"]
    got["w"][2] = -1.0  # "tail" shares w's storage, also when map_location copied it
    assert got["tail"][1].item() == -1.0


@pytest.mark.skipif(opscope.cuda.is_available(), reason="the error is for machines without CUDA")
@pytest.mark.parametrize("name", CUDA_FILES)
def test_cuda_file_without_map_location_raises_torchs_error(name):
    cuda = EXPECTED["files"][name]
    err = cuda["error_without_map_location"]
    with pytest.raises(RuntimeError) as info:
        opscope.load(os.path.join(DATA, name))
    assert type(info.value).__name__ == err["type"] and str(info.value) == err["message"]
    with pytest.raises(RuntimeError) as info:
        opscope.load(os.path.join(DATA, name), map_location={"cuda:0": "cuda:1"})
    assert str(info.value) == cuda["error_cuda_1_to_cuda_0"]["message"]


def test_unknown_location_raises():
    with pytest.raises(RuntimeError, match=r"don't know how to restore data location of "
                                           r"torch.storage.UntypedStorage \(tagged with xyz\)"):
        opscope.load(os.path.join(DATA, "zoo.pt"), map_location="xyz")


# --- files written by opscope, for torch 1.13 ----------------------------------------------------
@pytest.mark.parametrize("case", sorted(CASES))
def test_writes_the_bytes_torch_was_checked_to_load(case):
    """make_torch_checkpoints.py loaded these exact bytes with torch 1.13 and got the object torch
    builds itself; the same object built here must still save to them."""
    assert sha256(opscope_bytes(build(case, opscope))) == EXPECTED["cases"][case]["sha256"]
    assert (sha256(opscope_bytes(build(case, opscope), legacy=True))
            == EXPECTED["cases"][case]["legacy_sha256"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_pickle_and_storages_are_torchs_own(case):
    """opscope's data.pkl is byte for byte the one torch.save wrote for the same object, and so is
    every storage record: same names, same keys, same lengths (a view saves its whole storage)."""
    mine = zipfile.ZipFile(io.BytesIO(opscope_bytes(build(case, opscope))))
    theirs = zipfile.ZipFile(os.path.join(DATA, case + ".pt"))
    strip = lambda z: {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}  # noqa: E731
    assert strip(mine) == strip(theirs)


def test_zip_layout_as_torch_writes_it(tmp_path):
    path = tmp_path / "model.weights.pt"
    x = opscope.arange(12.).reshape(3, 4)
    opscope.save({"x": x, "col": x[:, 1], "n": opscope.tensor([1, 2], dtype=opscope.int16),
                  "b": [opscope.ones(k) for k in range(11)]}, path)
    raw = path.read_bytes()
    archive = zipfile.ZipFile(path)
    names = archive.namelist()
    keys = sorted(str(k) for k in range(13))  # x's storage, n's, 11 lists: keys as strings
    assert names == (["model.weights/data.pkl"] + [f"model.weights/data/{k}" for k in keys]
                     + ["model.weights/version"])
    assert archive.read("model.weights/version") == b"3\n"
    assert archive.testzip() is None  # CRCs
    for info in archive.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
        name_length, extra_length = struct.unpack("<HH", raw[info.header_offset + 26:
                                                              info.header_offset + 30])
        start = info.header_offset + 30 + name_length + extra_length
        assert start % 64 == 0, info.filename
        assert raw[start:start + info.file_size] == archive.read(info)
    assert archive.read("model.weights/data/0") == np.arange(12, dtype="<f4").tobytes()
    assert archive.read("model.weights/data/1") == np.array([1, 2], "<i2").tobytes()

    ops = list(pickletools.genops(archive.read("model.weights/data.pkl")))
    assert ops[0][0].name == "PROTO" and ops[0][1] == 2
    globals_ = [arg for op, arg, _ in ops if op.name == "GLOBAL"]
    assert globals_[:3] == ["torch._utils _rebuild_tensor_v2", "torch FloatStorage",
                            "collections OrderedDict"]
    assert "torch ShortStorage" in globals_ and not any("opscope" in g for g in globals_)
    persistent = [i for i, (op, _, _) in enumerate(ops) if op.name == "BINPERSID"]
    assert len(persistent) == 1 + 1 + 1 + 11  # x, its view, n, the list


def test_archive_name_follows_the_file_name(tmp_path):
    for file_name, archive in [("a.pt", "a"), ("my.model.pth.tar", "my.model.pth"),
                               ("noext", "noext")]:
        opscope.save(opscope.ones(1), tmp_path / file_name)
        assert zipfile.ZipFile(tmp_path / file_name).namelist()[0] == archive + "/data.pkl"
    assert zipfile.ZipFile(io.BytesIO(opscope_bytes(opscope.ones(1)))).namelist()[0] == (
        "archive/data.pkl")


def test_zip64_records(monkeypatch):
    """Records past 4 GiB get zip64 fields; the limit is lowered here to write them small."""
    monkeypatch.setattr(opscope.serialization._ZipWriter, "_LIMIT", 16)
    x = opscope.arange(40, dtype=opscope.float64)
    data = opscope_bytes({"x": x, "y": x[3:]})
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None
    got = opscope.load(io.BytesIO(data))
    assert got["x"].tolist() == x.tolist() and got["y"].data_ptr() == got["x"].data_ptr() + 24


# --- round trips in opscope ----------------------------------------------------------------------
@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_round_trip_every_dtype(dtype, legacy):
    rng = np.random.default_rng(7)
    x = random_tensor(rng, (5, 6), dtype)
    objs = {"x": x, "t": x.t(), "zero_d": x[2, 3], "empty": x[:0], "stepped": x[::2, 1::3],
            "alone": random_tensor(rng, (0,), dtype), "scalar": random_tensor(rng, (), dtype)}
    got = round_trip(objs, _use_new_zipfile_serialization=not legacy)
    for k, v in objs.items():
        assert_same_tensor(got[k], v)
    assert got["t"].data_ptr() == got["x"].data_ptr()
    assert got["stepped"].storage_offset() == 1


def test_round_trip_keeps_requires_grad_and_parameters():
    p = nn.Parameter(opscope.tensor([[1.0, 2.0]]))
    frozen = nn.Parameter(opscope.tensor([3.0]), requires_grad=False)
    leaf = opscope.tensor([4.0], requires_grad=True)
    got = round_trip({"p": p, "frozen": frozen, "leaf": leaf, "again": p})
    assert type(got["p"]) is nn.Parameter and got["p"].requires_grad
    assert type(got["frozen"]) is nn.Parameter and not got["frozen"].requires_grad
    assert type(got["leaf"]) is opscope.Tensor and got["leaf"].requires_grad
    assert got["again"] is got["p"]
    assert "Parameter containing" in repr(got["p"])


def test_round_trip_views_write_through():
    base = opscope.arange(20.).reshape(4, 5)
    got = round_trip([base[1:3, ::2], base.t()[4], base[3]])
    got[2][4] = -1.0  # base[3, 4], which base.t()[4] holds at [3]
    assert got[1][3].item() == -1.0
    assert got[0].data_ptr() - got[2].data_ptr() == (5 - 15) * 4


def test_a_view_alone_keeps_its_whole_storage():
    base = opscope.arange(10.)
    got = round_trip(base[3:6])
    assert got.storage_offset() == 3 and got.tolist() == [3.0, 4.0, 5.0]
    assert got.as_strided((10,), (1,), 0).tolist() == base.tolist()


def test_tensors_sharing_memory_without_a_base():
    """Loaded tensors share memory but none is a view of another: the storage's length is known
    only once the last of them is met, after the first one's id went into the pickle."""
    d = opscope.load(os.path.join(DATA, "shared_views.pt"))
    assert d["row"]._base is None and d["base"]._base is None
    data = opscope_bytes([d["row"], d["col"], d["base"]])
    numels = [arg[4] for arg in _persistent_ids(data)]
    assert numels == [12, 12, 12]  # the whole storage, from the first tensor on
    got = opscope.load(io.BytesIO(data))
    assert got[2].tolist() == d["base"].tolist() and got[0].tolist() == d["row"].tolist()
    got[2][1, 3] = -5.0
    assert got[0][3].item() == -5.0


def _persistent_ids(data):
    """The storage ids in an archive's pickle, as tuples (typename, type, key, location, numel)."""
    class Reader(pickle.Unpickler):
        ids = []

        def find_class(self, module, name):
            return lambda *args: (module, name, args)  # a call, written down

        def persistent_load(self, pid):
            Reader.ids.append(pid)
            return pid
    archive = zipfile.ZipFile(io.BytesIO(data))
    Reader.ids = []
    Reader(io.BytesIO(archive.read(archive.namelist()[0]))).load()
    return Reader.ids


def test_round_trip_module_and_optimizer_state_dicts():
    opscope.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    sgd = opscope.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    (model(opscope.ones(2, 4)) ** 2).sum().backward()
    sgd.step()
    got = round_trip({"model": model.state_dict(), "optim": sgd.state_dict()})
    fresh = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    fresh.load_state_dict(got["model"])
    for (k, v), (k2, v2) in zip(model.state_dict().items(), fresh.state_dict().items()):
        assert k == k2 and v.tolist() == v2.tolist()
    want = sgd.state_dict()
    assert got["optim"]["param_groups"] == want["param_groups"]
    for i, s in want["state"].items():
        assert got["optim"]["state"][i]["momentum_buffer"].tolist() == (
            s["momentum_buffer"].tolist())


def test_round_trip_other_python_objects():
    obj = {"size": opscope.Size([2, 3]), "dtypes": [opscope.bfloat16, opscope.bool],
           "device": opscope.device("cpu"), "nested": ({"a": [1, 2.5, None]},), "set": {1, 2},
           "ordered": collections.OrderedDict([("z", 1), ("a", 2)]), "np": np.arange(3)}
    got = round_trip(obj)
    assert type(got["size"]) is opscope.Size and got["size"] == obj["size"]
    assert got["dtypes"][0] is opscope.bfloat16 and got["dtypes"][1] is opscope.bool
    assert got["device"] == opscope.device("cpu")
    assert got["nested"] == obj["nested"] and got["set"] == {1, 2}
    assert list(got["ordered"]) == ["z", "a"] and got["np"].tolist() == [0, 1, 2]


class Tagged(opscope.Tensor):
    """A Tensor subclass with an attribute: pickled by torch._tensor._rebuild_from_type_v2."""


def test_round_trip_tensor_subclass():
    t = opscope.Tensor._make_subclass(Tagged, opscope.tensor([1.0, 2.0]), False)
    t.label = "kept"
    got = round_trip(t)
    assert type(got) is Tagged and got.label == "kept" and got.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_round_trip_pickle_protocols(protocol):
    x = opscope.arange(6.).reshape(2, 3)
    got = round_trip({"x": x, "t": x.t(), "dtype": opscope.int8, "size": x.shape},
                     pickle_protocol=protocol)
    assert got["t"].stride() == (1, 3) and got["t"].data_ptr() == got["x"].data_ptr()
    assert got["dtype"] is opscope.int8 and got["size"] == opscope.Size([2, 3])


def test_save_to_paths_and_files(tmp_path):
    x = opscope.tensor([1.0, 2.0])
    opscope.save(x, str(tmp_path / "a.pt"))
    opscope.save(x, tmp_path / "b.pt")
    with open(tmp_path / "c.pt", "wb") as f:
        opscope.save(x, f)
    for name in "abc":
        assert opscope.load(str(tmp_path / f"{name}.pt")).tolist() == [1.0, 2.0]
        with open(tmp_path / f"{name}.pt", "rb") as f:
            assert opscope.load(f).tolist() == [1.0, 2.0]


def test_empty_tensors_each_get_a_storage():
    """Empty tensors have no memory to be told apart by; each gets its own record, numbered as
    torch numbers them, also for Parameters (pickled through a temporary detached tensor)."""
    objs = [nn.Parameter(opscope.empty(0)), opscope.empty(0, dtype=opscope.int8),
            nn.Parameter(opscope.empty(0, 3)), opscope.ones(2)]
    archive = zipfile.ZipFile(io.BytesIO(opscope_bytes(objs)))
    assert [n for n in archive.namelist() if "/data/" in n] == [f"archive/data/{k}"
                                                                for k in range(4)]
    got = round_trip(objs)
    assert [type(t) for t in got] == [nn.Parameter, opscope.Tensor, nn.Parameter, opscope.Tensor]
    assert [tuple(t.shape) for t in got] == [(0,), (0,), (0, 3), (2,)]
    assert got[1].dtype == opscope.int8 and got[3].tolist() == [1.0, 1.0]


def test_unwritable_paths_raise_torchs_errors(tmp_path):
    with pytest.raises(RuntimeError, match="^Parent directory /nonexistent/dir does not exist.$"):
        opscope.save(opscope.ones(1), "/nonexistent/dir/x.pt")
    with pytest.raises(RuntimeError, match=f"^File {tmp_path} cannot be opened.$"):
        opscope.save(opscope.ones(1), tmp_path)
    with pytest.raises(FileNotFoundError):
        opscope.save(opscope.ones(1), "/nonexistent/dir/x.pt", _use_new_zipfile_serialization=False)


def test_two_dtypes_over_one_memory_raise():
    a = np.zeros(4, dtype=np.float32)
    with pytest.raises(RuntimeError, match="Cannot save multiple tensors or storages that view "
                                           "the same data as different types"):
        opscope.save([opscope.from_numpy(a), opscope.from_numpy(a.view(np.int32))], io.BytesIO())


# --- weights_only --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["zoo.pt", "shared_views.pt", "parameter.pt",
                                  "sequential_state_dict.pt", "legacy_zoo.pt"])
def test_weights_only_loads_weights(name):
    got = opscope.load(os.path.join(DATA, name), weights_only=True)
    assert describe(got, opscope) == EXPECTED["files"][name]["expected"]


class Payload:
    def __reduce__(self):
        return (os.system, ("echo unsafe",))


@pytest.mark.parametrize("obj, what", [
    (Payload(), "Unsupported class posix.system"),
    ({"a": {1, 2}}, "Unsupported class __builtin__.set"),  # protocol 2 names Python 2's module
    (opscope.device("cpu"), "Unsupported class torch.device"),
    (nn.Linear(2, 2), "Unsupported class torch.nn.modules.linear.Linear")])
def test_weights_only_refuses_other_objects(obj, what):
    buf = io.BytesIO()
    opscope.save(obj, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError) as info:
        opscope.load(buf, weights_only=True)
    assert str(info.value) == UNSAFE + what


def test_weights_only_accepts_floats_unlike_torch_1_13():
    """torch 1.13's weights_only unpickler has no BINFLOAT, so it refuses every optimizer state
    (torch 2.0 accepts them); opscope accepts floats, and refuses what 1.13 refuses for a reason
    (torch.device here)."""
    recorded = EXPECTED["cases"]["nested"]["torch_weights_only_error"]["message"]
    assert recorded == UNSAFE + "Unsupported operand 71"
    got = opscope.load(os.path.join(DATA, "sgd_state_dict.pt"), weights_only=True)
    assert got["param_groups"][0]["lr"] == 0.1
    with pytest.raises(pickle.UnpicklingError, match="Unsupported class torch.device"):
        opscope.load(os.path.join(DATA, "nested.pt"), weights_only=True)


def test_weights_only_with_a_pickle_module_raises():
    with pytest.raises(RuntimeError, match="Can not safely load weights when expiclit picke_module "
                                           "is specified"):
        opscope.load(os.path.join(DATA, "zoo.pt"), pickle_module=pickle, weights_only=True)


# --- bad files -----------------------------------------------------------------------------------
def test_byteorder_record_of_later_torch_versions():
    """Later torch versions add <archive>/byteorder; a file from a big-endian machine holds each
    element's bytes reversed. Rebuilt here with Python's zipfile (records not aligned, too)."""
    x = {"f": opscope.tensor([1.5, -2.0]), "i": opscope.tensor([1, 256], dtype=opscope.int16),
         "u": opscope.tensor([7, 9], dtype=opscope.uint8)}
    source = zipfile.ZipFile(io.BytesIO(opscope_bytes(x)))
    for order in ("little", "big"):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as out:
            for name in source.namelist():
                data = source.read(name)
                if order == "big" and name in ("archive/data/0", "archive/data/1"):
                    itemsize = 4 if name.endswith("0") else 2
                    data = np.frombuffer(data, f"<u{itemsize}").byteswap().tobytes()
                out.writestr(name, data)
            out.writestr("archive/byteorder", order)
        buf.seek(0)
        got = opscope.load(buf)
        assert {k: v.tolist() for k, v in got.items()} == {k: v.tolist() for k, v in x.items()}


def test_element_types_opscope_lacks_raise():
    with pytest.raises(RuntimeError, match="opscope cannot load a torch.ComplexFloatStorage: it "
                                           "has no tensors of that element type"):
        opscope.load(os.path.join(DATA, "complex.pt"))


def test_docstring_examples():
    import doctest
    result = doctest.testmod(opscope.serialization)
    assert result.attempted > 0 and result.failed == 0


def test_bad_files_raise():
    with pytest.raises(FileNotFoundError):
        opscope.load("/nonexistent/model.pt")
    buf = io.BytesIO()
    pickle.dump(12345, buf, protocol=2)
    buf.seek(0)
    with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file?"):
        opscope.load(buf)
    data = open(os.path.join(DATA, "zoo.pt"), "rb").read()
    truncated = io.BytesIO(data[:len(data) // 2])
    with pytest.raises(RuntimeError, match="PytorchStreamReader failed reading zip archive: "
                                           "failed finding central directory"):
        opscope.load(truncated)
    with pytest.raises(EOFError, match="Ran out of input"):
        opscope.load(io.BytesIO(b""))
    # An archive whose pickle names a storage record that is not there.
    source = zipfile.ZipFile(os.path.join(DATA, "view_of_larger.pt"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for name in source.namelist():
            if "/data/" not in name:
                out.writestr(name, source.read(name))
    buf.seek(0)
    with pytest.raises(RuntimeError, match="PytorchStreamReader failed locating file data/0: "
                                           "file not found"):
        opscope.load(buf)
