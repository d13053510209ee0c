"""Record checkpoints written by PyTorch 1.13, and check that PyTorch 1.13 loads opscope's.

Run with Debian's Python (it has torch 1.13) and opscope importable, from anywhere:

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/python/make_torch_checkpoints.py

It writes into data/checkpoints/:

    <case>.pt              torch.save(<case's object>) for every case below
    legacy_<case>.pt       the same with _use_new_zipfile_serialization=False (some cases)
    [legacy_]cuda_location.pt  tensors whose storage torch tagged 'cuda:0' (as on a GPU machine)
    [legacy_]whole_module.pt  torch.save(model) of a Sequential (the module objects pickled)
    complex.pt             a complex tensor (opscope has none: its load must say so)
    expected.json          per file: describe(torch.load(file)), the errors torch raises, and
                           the sha256 of the files opscope.save writes for the same objects

The other direction cannot run in the tests (they never import torch), so it is checked here:
every object case is built with ``m = opscope`` too, saved by opscope.save (both formats),
loaded by torch.load (and with weights_only=True where torch allows it), and torch's view of it
must equal its view of the object torch built itself. A whole opscope model (WHOLE_MODEL) saved
by opscope must load in torch as torch's modules computing opscope's output; expected.json keeps
the attribute names of torch's modules, which the test checks opscope's modules have. And a
training run saved by opscope after two SGD steps (model and optimizer state dicts) must resume
in torch: torch's third step equals opscope's. The sha256 of those opscope files goes
into expected.json: the test rebuilds them and compares, so the bytes torch checked are the bytes
opscope writes today.
"""

import collections
import copy
import hashlib
import io
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "checkpoints")

# Each case is an expression in which ``m`` is the tensor module (torch, or opscope in the tests)
# and ``OrderedDict`` is collections.OrderedDict. Values are literals: both modules build the
# same object, so their files can be compared byte for byte.
CASES = {
    "zoo": """{
        "float32": m.tensor([1.5, -2.0, 3.25]),
        "float64": m.tensor([1e-300, -2.5, 1e300], dtype=m.float64),
        "float16": m.tensor([0.5, -65504.0, 6e-8], dtype=m.float16),
        "bfloat16": m.tensor([1.0, -3.0e38, 0.0078125], dtype=m.bfloat16),
        "int8": m.tensor([-128, 0, 127], dtype=m.int8),
        "int16": m.tensor([-32768, 32767], dtype=m.int16),
        "int32": m.tensor([-2147483648, 2147483647], dtype=m.int32),
        "int64": m.tensor([-9223372036854775808, 9223372036854775807]),
        "uint8": m.tensor([0, 128, 255], dtype=m.uint8),
        "bool": m.tensor([True, False, True]),
        "zero_d": m.tensor(7.5),
        "zero_d_int": m.tensor(-3),
        "empty": m.zeros(0, 3),
        "empty_int": m.zeros(0, dtype=m.int64),
        "requires_grad": m.tensor([1.0, 2.0], requires_grad=True),
        "specials": m.tensor([float("nan"), float("inf"), -float("inf"), -0.0]),
        "matrix": m.arange(6, dtype=m.float64).reshape(2, 3),
    }""",
    "non_contiguous": """{
        "transposed": m.arange(12.).reshape(3, 4).t(),
        "permuted": m.arange(24, dtype=m.int32).reshape(2, 3, 4).permute(2, 0, 1),
        "stepped": m.arange(10.)[::3],
        "expanded": m.tensor([1.0, 2.0]).expand(3, 2),
        "column": m.arange(12, dtype=m.int16).reshape(3, 4)[:, 1],
    }""",
    "shared_views": """(lambda b: {
        "base": b, "row": b[1], "col": b[:, 2], "t": b.t(), "block": b[1:, 1:3],
        "list": [b, b[0], b[2, 3]],
    })(m.arange(12.).reshape(3, 4))""",
    "view_of_larger": "m.arange(10.)[3:6]",
    "parameter": """{
        "p": m.nn.Parameter(m.tensor([[1.0, 2.0], [3.0, 4.0]])),
        "frozen": m.nn.Parameter(m.tensor([5.0]), requires_grad=False),
    }""",
    "nested": """{
        "numbers": [1, 2.5, "three", None, True, (4, -5)],
        "inner": {"t": m.tensor([1, 2]), "deep": {"x": [m.tensor(1.5), m.tensor([[0.25]])]}},
        "ordered": OrderedDict([("b", m.tensor([1.0])), ("a", 2)]),
        "size": m.Size([2, 3]),
        "dtype": m.float64,
        "device": m.device("cpu"),
        "big_int": 2 ** 40,
        "text": "opscope",
    }""",
    "module_state_dict": "numbered_model(m).state_dict()",
}
LEGACY_CASES = ["zoo", "shared_views", "parameter"]


def numbered_model(m):
    """A small model whose parameters are numbered rather than random: both modules build it."""
    model = m.nn.Sequential(m.nn.Linear(3, 2), m.nn.ReLU(), m.nn.Linear(2, 1))
    with m.no_grad():
        for k, p in enumerate(model.parameters()):
            p.copy_(m.arange(p.numel(), dtype=m.float32).reshape(p.shape) / 8 - k)
    return model



def storage_start(t):
    """The address of the storage a tensor uses, for torch's and opscope's tensors alike."""
    return t.data_ptr() - t.storage_offset() * t.element_size()


def describe(obj, m, storages=None):
    """A JSON-able description of a loaded object: containers by kind, tensors by dtype, shape,
    strides, offset, requires_grad, Parameter or not, values, and which storage they share (the
    n-th storage met)."""
    storages = {} if storages is None else storages
    d = lambda o: describe(o, m, storages)  # noqa: E731
    if isinstance(obj, m.Tensor):
        ptr = storage_start(obj)
        key = ptr if obj.data_ptr() != 0 else ("empty", id(obj))
        values = obj.detach()
        if obj.dtype in (m.float16, m.bfloat16):
            values = values.double()
        return {"tensor": {
            "parameter": isinstance(obj, m.nn.Parameter),
            "dtype": str(obj.dtype), "shape": list(obj.shape), "stride": list(obj.stride()),
            "storage_offset": obj.storage_offset(), "requires_grad": obj.requires_grad,
            "storage": storages.setdefault(key, len(storages)),
            "values": encode_values(values.tolist()),
        }}
    if isinstance(obj, collections.OrderedDict):
        meta = getattr(obj, "_metadata", None)
        return {"OrderedDict": [[d(k), d(v)] for k, v in obj.items()],
                "_metadata": None if meta is None else d(meta)}
    if isinstance(obj, dict):
        return {"dict": [[d(k), d(v)] for k, v in obj.items()]}
    if isinstance(obj, m.Size):
        return {"Size": list(obj)}
    if isinstance(obj, list):
        return {"list": [d(v) for v in obj]}
    if isinstance(obj, tuple):
        return {"tuple": [d(v) for v in obj]}
    if isinstance(obj, m.dtype):
        return {"dtype": str(obj)}
    if isinstance(obj, m.device):
        return {"device": str(obj)}
    if isinstance(obj, float):
        return {"float": encode_values(obj)}
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    raise TypeError(f"describe: no rule for {type(obj)}")


def encode_values(v):
    """Floats JSON cannot hold (nan, inf, -0.0) as strings."""
    if isinstance(v, list):
        return [encode_values(x) for x in v]
    if isinstance(v, float):
        negative_zero = v == 0 and math.copysign(1, v) < 0
        if math.isnan(v) or math.isinf(v) or negative_zero:
            return repr(v)
    return v


def build(case, m):
    return eval(CASES[case], {"m": m, "OrderedDict": collections.OrderedDict,
                              "numbered_model": numbered_model})


def opscope_bytes(obj, legacy=False):
    """What opscope.save writes for obj (to a buffer: the archive is named 'archive')."""
    import opscope
    buf = io.BytesIO()
    opscope.save(obj, buf, _use_new_zipfile_serialization=not legacy)
    return buf.getvalue()


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (recording whatever torch raises)
        return {"type": type(e).__name__, "message": str(e)}
    return None


# --- torch-only cases: modules and optimizers -------------------------------------------------
def training_cases(torch):
    """A Sequential trained two SGD-with-momentum steps: its state_dict, the optimizer's, a Linear's
    and an Adam's, plus what a third step gives (the test repeats it in opscope from the files)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    x = torch.arange(8.).reshape(2, 4) / 8 - 0.25
    target = torch.tensor([[0.5, -1.0], [1.5, 0.25]])
    sgd = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)

    def step():
        sgd.zero_grad()
        loss = ((model(x) - target) ** 2).mean()
        loss.backward()
        sgd.step()
    step()
    step()
    # Copies: state dicts hold the live tensors, which the third step changes.
    files = {"sequential_state_dict": copy.deepcopy(model.state_dict()),
             "sgd_state_dict": copy.deepcopy(sgd.state_dict())}
    step()
    after = {k: v.tolist() for k, v in model.state_dict().items()}

    torch.manual_seed(1)
    files["linear_state_dict"] = torch.nn.Linear(3, 2).state_dict()
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    adam = torch.optim.Adam([w], lr=0.01)
    (w * w).sum().backward()
    adam.step()
    files["adam_state_dict"] = adam.state_dict()
    inputs = {"x": x.tolist(), "target": target.tolist(), "lr": 0.1, "momentum": 0.9,
              "weight_decay": 0.01, "after_third_step": after}
    return files, inputs


def whole_module(torch):
    """torch.save(model) pickles the module objects themselves (torch.nn.modules.container
    .Sequential, ...); returns the model and its output for the training input."""
    torch.manual_seed(2)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
    x = torch.arange(8.).reshape(2, 4) / 8 - 0.25
    with torch.no_grad():
        return model, model(x).tolist()


# A whole model opscope saves (torch.save(model)): its modules pickle under torch's class names
# with their attributes, so torch rebuilds its own modules from them. Evaluated with m = opscope
# here (torch loads it and must compute what opscope computes) and with m = torch for the
# attribute names each module must have.
WHOLE_MODEL = """m.nn.Sequential(m.nn.Linear(4, 3), m.nn.ReLU(), m.nn.LayerNorm(3),
                                m.nn.Dropout(0.1), m.nn.Tanh(), m.nn.Linear(3, 2)).eval()"""


def check_whole_opscope_model(torch, opscope):
    """torch.load of a whole opscope model: torch's modules, the same output. Returns the
    attribute names of torch's modules, which opscope's must match for this to keep working."""
    opscope.manual_seed(0)
    model = eval(WHOLE_MODEL, {"m": opscope})
    x = [[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.75, 1.0]]
    buf = io.BytesIO()
    opscope.save(model, buf)
    buf.seek(0)
    theirs = torch.load(buf)
    assert type(theirs) is torch.nn.Sequential, type(theirs)
    with torch.no_grad():
        got = theirs(torch.tensor(x)).tolist()
    want = model(opscope.tensor(x)).tolist()
    ok = all(math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)  # float32 kernels differ
             for ra, rb in zip(got, want) for a, b in zip(ra, rb))
    if not ok:
        print(f"MISMATCH: torch's output of opscope's whole model {got}, opscope's {want}")
    attributes = {type(mod).__name__: sorted(vars(mod))
                  for mod in eval(WHOLE_MODEL, {"m": torch}).modules()}
    return ok, attributes


def check_training_resumes_in_torch(torch, opscope):
    """Two SGD steps in opscope, its model and optimizer state dicts saved by opscope.save; torch
    loads them into its own model and optimizer, and its third step must equal opscope's."""
    x = [[1.0, 2.0, 0.5], [-0.5, 1.0, 2.0]]
    target = [[0.25], [-1.0]]
    steps = {}
    for name, m in (("opscope", opscope), ("torch", torch)):
        steps[name] = (numbered_model(m), m.tensor(x), m.tensor(target))
    model, xs, ts = steps["opscope"]
    sgd = opscope.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)

    def step(model, sgd, xs, ts):
        sgd.zero_grad()
        ((model(xs) - ts) ** 2).mean().backward()
        sgd.step()
    step(model, sgd, xs, ts)
    step(model, sgd, xs, ts)
    buf = io.BytesIO()
    opscope.save({"model": model.state_dict(), "optim": sgd.state_dict()}, buf)
    step(model, sgd, xs, ts)
    buf.seek(0)
    checkpoint = torch.load(buf)
    theirs, txs, tts = steps["torch"]
    theirs.load_state_dict(checkpoint["model"])
    tsgd = torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)
    tsgd.load_state_dict(checkpoint["optim"])
    step(theirs, tsgd, txs, tts)
    got = [v.tolist() for v in theirs.state_dict().values()]
    want = [v.tolist() for v in model.state_dict().values()]
    ok = all(math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)
             for a, b in zip(flatten(got), flatten(want)))
    if not ok:
        print(f"MISMATCH: torch's third step from opscope's checkpoint {got}, opscope's {want}")
    return ok


def flatten(values):
    if isinstance(values, list):
        return [x for v in values for x in flatten(v)]
    return [values]


def write_cuda_location(torch, path, legacy=False):
    """torch.save of tensors as a GPU machine writes them: their storage tagged 'cuda:0'. Made on
    this CPU-only machine by letting torch's own location tagger answer 'cuda:0'."""
    import torch.serialization as ser
    saved = list(ser._package_registry)
    ser._package_registry[:] = [(0, lambda obj: "cuda:0", lambda obj, loc: None)] + saved
    w = torch.tensor([1.0, 2.0, 3.0])
    try:
        save_if_changed(torch, {"w": w, "tail": w[1:]}, path, legacy)
    finally:
        ser._package_registry[:] = saved


def save_if_changed(torch, obj, path, legacy):
    """torch.save(obj, path), unless the file there already loads as the same thing: the legacy
    format keys storages by their addresses, which differ from run to run."""
    buf = io.BytesIO()
    torch.save(obj, buf, _use_new_zipfile_serialization=not legacy)

    def content(f):
        loaded = torch.load(f, map_location="cpu")
        if isinstance(loaded, torch.nn.Module):
            return repr(loaded), describe(loaded.state_dict(), torch)
        return describe(loaded, torch)
    if os.path.exists(path):
        buf.seek(0)
        if content(path) == content(buf):
            return
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def main():
    import torch
    import opscope

    assert torch.__version__.startswith("1.13"), torch.__version__
    os.makedirs(OUT, exist_ok=True)
    expected = {"cases": {}, "files": {}}
    ok = True

    def record(name, obj, legacy=False):
        path = os.path.join(OUT, name + ".pt")
        save_if_changed(torch, obj, path, legacy)
        loaded = torch.load(path)
        expected["files"][name + ".pt"] = {"expected": describe(loaded, torch)}
        return loaded

    for case in CASES:
        torch_obj = record(case, build(case, torch))
        if case in LEGACY_CASES:
            record("legacy_" + case, build(case, torch), legacy=True)
        want = describe(torch_obj, torch)
        entry = expected["cases"][case] = {}
        entry["torch_weights_only_error"] = error_of(
            lambda: torch.load(os.path.join(OUT, case + ".pt"), weights_only=True))
        # The other direction: what opscope writes, read by torch.
        for legacy in (False, True):
            data = opscope_bytes(build(case, opscope), legacy)
            got = describe(torch.load(io.BytesIO(data)), torch)
            if got != want:
                ok = False
                print(f"MISMATCH: torch reads opscope's {case} (legacy={legacy}) as\n{got}\n"
                      f"but its own as\n{want}")
            entry["legacy_sha256" if legacy else "sha256"] = sha256(data)
            # weights_only=True: torch accepts opscope's file exactly when it accepts its own.
            weights = error_of(lambda: torch.load(io.BytesIO(data), weights_only=True))
            if weights != entry["torch_weights_only_error"]:
                ok = False
                print(f"weights_only: torch says {weights} for opscope's {case} "
                      f"(legacy={legacy}), {entry['torch_weights_only_error']} for its own")

    files, inputs = training_cases(torch)
    for name, obj in files.items():
        record(name, obj)
    expected["training"] = inputs
    model, output = whole_module(torch)
    for name, legacy in [("whole_module", False), ("legacy_whole_module", True)]:
        save_if_changed(torch, model, os.path.join(OUT, name + ".pt"), legacy)
    expected["whole_module_output"] = output
    whole_ok, expected["whole_model_attributes"] = check_whole_opscope_model(torch, opscope)
    ok = ok and whole_ok and check_training_resumes_in_torch(torch, opscope)
    # Element types opscope does not have: loading must say so.
    torch.save({"z": torch.tensor([1 + 2j])}, os.path.join(OUT, "complex.pt"))

    for name, legacy in [("cuda_location.pt", False), ("legacy_cuda_location.pt", True)]:
        cuda_path = os.path.join(OUT, name)
        write_cuda_location(torch, cuda_path, legacy)
        expected["files"][name] = {
            "expected": describe(torch.load(cuda_path, map_location="cpu"), torch),
            "error_without_map_location": error_of(lambda: torch.load(cuda_path)),
            "error_cuda_1_to_cuda_0": error_of(
                lambda: torch.load(cuda_path, map_location={"cuda:0": "cuda:1"})),
        }

    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    sizes = {n: os.path.getsize(os.path.join(OUT, n)) for n in sorted(os.listdir(OUT))}
    print("\n".join(f"{size:7d}  {name}" for name, size in sizes.items()))
    print("torch 1.13 loads every opscope file as it loads its own" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
