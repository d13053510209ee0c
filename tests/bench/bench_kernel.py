"""The xopscope kernel against ipykernel (issue 19's performance targets), both driven the same
way through jupyter_client on this machine, one kernel of each kind at a time:

  start        from start_kernel() to the first kernel_info reply (target: ≤ ipykernel's)
  empty cell   round trip of execute("") to its reply and idle status (target: ≤ 1.2× ipykernel)
  1 op         y = x + 1 on opscope, views on vs off (target: the view adds ≤ 5 ms)
  10,000 ops   a loop of y = x + 1, views on vs off (target: the view adds ≤ 0.3 s)
  5,000 prints a loop printing (no target: how output is batched, against ipykernel's)
  .ipynb       the saved notebook's bytes for one executed cell, views on (target: a
               10,000-op loop's cell under 100 KB)

ipykernel runs the same opscope cells without views: what a plain kernel costs for them. Times are
the median of repeated runs (the start, of fresh kernels). A measurement, not a test: it prints a
table and always exits 0.

    make bench BENCH=kernel
    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_kernel.py
"""
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time

import nbformat
from jupyter_client.manager import KernelManager
from nbformat.v4 import new_code_cell, new_notebook, output_from_msg

from benchlib import fmt, machine_facts, print_header, print_table, ratio, verdict

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("OPSCOPE_BUILD_DIR", REPO / "build")).resolve()
TIMEOUT = 120

SETUP = "import opscope\nx = opscope.ones(3)"
CELLS = {
    "empty cell": "",
    "1 op": "y = x + 1",
    "10,000 ops": "for i in range(10000):\n    y = x + 1",
    "5,000 prints": "for i in range(5000):\n    print(i)",
}


def kernelspecs(tmp):
    """A JUPYTER_PATH with xopscope (this build's) and ipykernel on /usr/bin/python3."""
    specs = pathlib.Path(tmp) / "kernels"
    for name, argv in (("xopscope", [str(BUILD / "bin" / "xopscope"), "-f", "{connection_file}"]),
                       ("ipykernel", ["/usr/bin/python3", "-m", "ipykernel_launcher", "-f",
                                      "{connection_file}"])):
        (specs / name).mkdir(parents=True)
        (specs / name / "kernel.json").write_text(json.dumps(
            {"argv": argv, "display_name": name, "language": "python",
             "interrupt_mode": "signal"}))
    return str(tmp)


class Kernel:
    def __init__(self, name, views=True):
        env = dict(os.environ, XOPSCOPE_VIEWS="on" if views else "off")
        self.km = KernelManager(kernel_name=name)
        t0 = time.perf_counter()
        self.km.start_kernel(env=env)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.kernel_info(reply=True, timeout=TIMEOUT)
        self.start_s = time.perf_counter() - t0

    def run(self, code):
        """(seconds to the reply and the idle status, the iopub output messages)."""
        t0 = time.perf_counter()
        msg_id = self.kc.execute(code)
        outputs, idle, replied = [], False, False
        while not (idle and replied):
            if not replied:
                reply = self.kc.get_shell_msg(timeout=TIMEOUT)
                replied = reply["parent_header"].get("msg_id") == msg_id
                if replied and reply["content"]["status"] != "ok":
                    raise RuntimeError(f"{code!r}: {reply['content']}")
                continue
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
            elif msg["msg_type"] not in ("status", "execute_input"):
                outputs.append(msg)
        # The reply may come after idle: drain iopub outputs already read above.
        return time.perf_counter() - t0, outputs

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def saved_bytes(code, outputs):
    """Bytes the cell adds to a saved .ipynb (the notebook with it minus the notebook without)."""
    cell = new_code_cell(code, execution_count=1, outputs=[output_from_msg(m) for m in outputs])
    return len(nbformat.writes(new_notebook(cells=[cell]))) - len(nbformat.writes(new_notebook()))


def measure(name, views, repeat):
    k = Kernel(name, views)
    try:
        k.run(SETUP)
        times, sizes = {}, {}
        for case, code in CELLS.items():
            n = repeat if case in ("empty cell", "1 op") else max(3, repeat // 10)
            runs = [k.run(code) for _ in range(n)]
            times[case] = statistics.median(t for t, _ in runs)
            times["best " + case] = min(t for t, _ in runs)
            sizes[case] = saved_bytes(code, runs[-1][1])
        return times, sizes
    finally:
        k.close()


def main():
    repeat = int(os.environ.get("BENCH_REPEAT", "30"))
    print_header(machine_facts(), "xopscope vs ipykernel (jupyter_client on this machine; "
                                  "medians)")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["JUPYTER_PATH"] = kernelspecs(tmp)
        os.environ["IPYTHONDIR"] = str(pathlib.Path(tmp) / "ipython")
        os.environ["XDG_CONFIG_HOME"] = str(pathlib.Path(tmp) / "config")
        starts = {"ipykernel": [], "xopscope": []}
        for _ in range(5):  # alternating, fresh kernels
            for name in starts:
                k = Kernel(name)
                starts[name].append(k.start_s)
                k.close()
        start = {name: statistics.median(s) for name, s in starts.items()}
        ipy, ipy_sizes = measure("ipykernel", True, repeat)
        off, _ = measure("xopscope", False, repeat)
        on, on_sizes = measure("xopscope", True, repeat)

    ms = lambda s: None if s is None else s * 1e3  # noqa: E731
    signed_ms = lambda s: f"{s * 1e3:+.2f}"  # noqa: E731
    startup = ratio(start["xopscope"], start["ipykernel"])
    empty = ratio(on["empty cell"], ipy["empty cell"])
    rows = [["start to first kernel_info (ms)", fmt(ms(start["ipykernel"]), 0),
             fmt(ms(start["xopscope"]), 0), "", f"{fmt(startup, 2)}×", "", "≤ 1×",
             verdict(startup <= 1)],
            ["empty cell round trip (ms)", fmt(ms(ipy["empty cell"]), 2),
             fmt(ms(off["empty cell"]), 2), fmt(ms(on["empty cell"]), 2), f"{fmt(empty, 2)}×",
             "", "≤ 1.2×", verdict(empty <= 1.2)]]
    for case, limit in (("1 op", 5e-3), ("10,000 ops", 0.3)):
        added = on[case] - off[case]
        rows.append([f"{case} cell (ms)", fmt(ms(ipy[case]), 2), fmt(ms(off[case]), 2),
                     fmt(ms(on[case]), 2), signed_ms(added),
                     signed_ms(on[case] - ipy[case]), f"≤ +{limit * 1e3:g}",
                     verdict(added <= limit)])
    rows.append(["5,000 prints cell (ms)", fmt(ms(ipy["5,000 prints"]), 2),
                 fmt(ms(off["5,000 prints"]), 2), fmt(ms(on["5,000 prints"]), 2),
                 f"{fmt(ratio(on['5,000 prints'], ipy['5,000 prints']), 2)}×", "", "", ""])
    for case in CELLS:
        b = "best " + case
        rows.append([f"  best of the runs, {case} (ms)", fmt(ms(ipy[b]), 2), fmt(ms(off[b]), 2),
                     fmt(ms(on[b]), 2), signed_ms(on[b] - off[b]) if case != "empty cell"
                     else f"{fmt(ratio(on[b], ipy[b]), 2)}×", signed_ms(on[b] - ipy[b]), "", ""])
    for case in ("1 op", "10,000 ops"):
        rows.append([f".ipynb bytes, {case} cell", str(ipy_sizes[case]), "", str(on_sizes[case]),
                     "", "", "< 100 KB" if case == "10,000 ops" else "",
                     verdict(on_sizes[case] < 100_000) if case == "10,000 ops" else ""])
    print_table("", ["case", "ipykernel", "xopscope off", "xopscope on", "on - off (ratio)",
                     "on - ipykernel", "target", "verdict"], rows,
                notes=["ipykernel: /usr/bin/python3 -m ipykernel_launcher, the same opscope "
                       "cells without views; 'off' is XOPSCOPE_VIEWS=off, which still records "
                       "each cell (for _trace and %trace) and draws nothing",
                       "on - ipykernel: recording and view together, against a kernel without "
                       "the session layer",
                       f"{repeat} runs per cell (loops: {max(3, repeat // 10)}), start: 5 "
                       "fresh kernels each; verdicts on the medians, the best runs beside them "
                       "(on a loaded machine the medians carry its noise)"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
