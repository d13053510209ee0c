"""The fuzzer's worker process: runs cases one after another, as a REPL would, and reports each.

A case is a standalone Python snippet (see cases.py); this process executes many of them so that
one import of opscope serves thousands of calls. The parent (harness.py) counts what this
process cannot report itself: it dying by a signal (segfault, abort) or going silent (a hang).

Protocol, one JSON object per line: the parent's requests arrive on the worker's original stdin,
replies leave on its original stdout (fds 0 and 1 are then pointed at /dev/null, so that what a
case prints cannot garble the protocol):

    worker -> {"ready": true, "vm_limit": bytes}                      once, after importing opscope
    parent -> {"id": "7:123", "code": "<snippet>"}
    worker -> {"id": "7:123", "outcome": "ok" | "exception",
               "type": "RuntimeError", "msg": "...", "defect": null | "SystemError" | ...}

Before running a case the worker announces its id in the file named by FUZZ_ANNOUNCE (written in
place, no round trip to the parent): when the worker dies, the parent reads there which case it
was running. stderr is the parent's log file: faulthandler writes the Python stack of a crashing
case there.
"""
import faulthandler
import importlib
import json
import os
import re
import resource
import sys
import warnings

# Address space a case may add to what the process holds after import: an allocation past it fails
# (opscope raises "CPU out of memory") instead of waking the OOM killer.
DEFAULT_VM_BUDGET = 1 << 30


def _vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def classify(exc, code=""):
    """None for an exception a REPL user may see; otherwise the name of the defect."""
    if not isinstance(exc, Exception):
        # KeyboardInterrupt, SystemExit ... raised by an op. One the case's own Python code
        # raises (a hook raising KeyboardInterrupt) is expected to come through as it is.
        if re.search(rf"\b{type(exc).__name__}\b", code):
            return None
        return "BaseException"
    if isinstance(exc, SystemError):
        return "SystemError"  # includes "returned a result with an exception set"
    return None


def _reset(opscope, state):
    """Undoes what a case may have changed in the process-wide state."""
    opscope.set_default_dtype(opscope.float32)
    opscope.set_grad_enabled(True)
    if opscope.get_num_threads() != state["threads"]:
        opscope.set_num_threads(state["threads"])
    if hasattr(opscope, "set_printoptions"):
        try:
            opscope.set_printoptions(profile="default")
        except Exception:
            pass
    if hasattr(opscope, "_C") and hasattr(opscope._C, "_pop_saved_tensors_hooks"):
        for _ in range(100):  # saved-tensor hooks a case pushed and did not pop
            try:
                opscope._C._pop_saved_tensors_hooks()
            except RuntimeError:
                break
    warnings.resetwarnings()
    warnings.simplefilter("ignore")
    sys.setrecursionlimit(state["recursion"])


def main():
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="surrogateescape")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="backslashreplace")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.stdin = open(os.devnull)
    sys.stdout = open(os.devnull, "w")
    faulthandler.enable(file=sys.stderr, all_threads=True)

    import numpy  # noqa: F401  (imported before the limit, as every snippet imports it)
    # FUZZ_MODULE=torch runs the same snippets against PyTorch (differential.py).
    opscope = importlib.import_module(os.environ.get("FUZZ_MODULE", "opscope"))
    want_summary = bool(os.environ.get("FUZZ_SUMMARY"))

    budget = int(os.environ.get("FUZZ_VM_BUDGET", DEFAULT_VM_BUDGET))
    limit = _vm_size() + budget
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    state = {"threads": opscope.get_num_threads(), "recursion": sys.getrecursionlimit()}
    _reset(opscope, state)

    def send(obj):
        replies.write(json.dumps(obj) + "\n")
        replies.flush()

    announce = os.open(os.environ["FUZZ_ANNOUNCE"], os.O_WRONLY) if "FUZZ_ANNOUNCE" in os.environ else None
    send({"ready": True, "vm_limit": limit})
    for line in requests:
        req = json.loads(line)
        case_id, code = req["id"], req["code"]
        if announce is not None:
            os.pwrite(announce, (case_id + "\n").encode().ljust(64), 0)
        reply = {"id": case_id, "outcome": "ok", "type": None, "msg": None, "defect": None}
        ns = {"__name__": "__fuzz_case__"}
        try:
            exec(compile(code, f"<case {case_id}>", "exec"), ns)
        except BaseException as e:  # noqa: B036  (counting them is the point)
            reply.update(outcome="exception", type=type(e).__name__, msg=_message(e),
                         defect=classify(e, code))
        else:
            if want_summary:
                try:
                    reply["summary"] = summarize(ns.get("r"))
                except Exception as e:
                    reply["summary"] = ["unsummarizable", type(e).__name__]
        # Tensors made by the case die here, so a crash in a destructor is still this case's;
        # then one more op: a case that left the process broken fails in its own turn.
        ns.clear()
        try:
            if opscope.ones(3).mul(2).sum().item() != 6:
                reply["broken"] = "ones(3).mul(2).sum() is not 6 after this case"
        except Exception as e:
            reply["broken"] = f"{type(e).__name__}: {_message(e)}"
        try:
            _reset(opscope, state)
        except Exception as e:
            reply.update(outcome="exception", type=type(e).__name__,
                         msg="resetting the process state after the case: " + _message(e),
                         defect=classify(e))
        send(reply)


def summarize(value, depth=0):
    """A JSON-able description of a case's result, for comparing two libraries' answers:
    tensors as ["tensor", dtype, shape, values (up to 4096 elements)], sequences item by item,
    numbers as they are, anything else by its type name."""
    if depth > 3:
        return ["deep"]
    if hasattr(value, "dtype") and hasattr(value, "tolist") and hasattr(value, "shape") \
            and type(value).__module__ in ("opscope", "torch", "opscope._C", "torch._C"):
        shape = list(value.shape)
        values = value.detach().reshape(-1)[:4096].tolist() if value.numel() else []
        return ["tensor", str(value.dtype).replace("torch.", ""), shape, values]
    if isinstance(value, (bool, int, float)) or value is None:
        return ["number", value]
    if isinstance(value, (tuple, list)):
        return ["seq", [summarize(v, depth + 1) for v in value[:64]]]
    return ["other", type(value).__name__]


def _message(exc):
    try:
        return str(exc)[:300]
    except BaseException as e:  # noqa: B036  (an exception whose str() fails)
        return f"<str() of the exception raised {type(e).__name__}>"


if __name__ == "__main__":
    main()
