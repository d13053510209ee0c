"""What users of a kernel rely on beyond the conformance suite, through jupyter_client: interrupt
(of a long C++ op, of sleeping Python, of an idle kernel), restart, shutdown with Python's atexit,
output from other threads and from hooks the C++ engine calls, completion and inspection of
opscope names, history, top-level await, input(), exit, and no orphan when the front end dies.
"""
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from jupyter_client.manager import KernelManager, start_new_kernel

from kerneltests import kernel_environment, pytestmark, wait_until  # noqa: F401

TIMEOUT = 30
# Issue 19's target is 0.2 s from the interrupt to the KeyboardInterrupt; a loaded 2-core CI
# machine gets some slack (the latency is printed), plus twice what an empty cell's round trip
# takes there at that moment: the measured time includes the reply's way back.
INTERRUPT_LIMIT = 0.35


class Kernel:
    """One xopscope kernel and a client; run() executes a cell and collects what it sent."""

    def __init__(self, **env):
        self.km, self.kc = start_new_kernel(kernel_name="xopscope", startup_timeout=60,
                                            env=dict(os.environ, XOPSCOPE_VIEWS="off", **env))

    def close(self):
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)

    def send(self, code, **kw):
        return self.kc.execute(code, **kw)

    def collect(self, msg_id, timeout=TIMEOUT):
        """(reply content, [(msg_type, content)] of the iopub messages of the request)."""
        outputs = []
        end = time.monotonic() + timeout
        while True:
            msg = self.kc.get_iopub_msg(timeout=max(0.1, end - time.monotonic()))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
            if msg["msg_type"] not in ("status", "execute_input"):
                outputs.append((msg["msg_type"], msg["content"]))
        while True:
            reply = self.kc.get_shell_msg(timeout=max(0.1, end - time.monotonic()))
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"], outputs

    def run(self, code, timeout=TIMEOUT, **kw):
        return self.collect(self.send(code, **kw), timeout)

    def stdout(self, outputs):
        return "".join(c["text"] for t, c in outputs if t == "stream" and c["name"] == "stdout")

    def wait_busy(self, msg_id):
        while True:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                    and msg["content"]["execution_state"] == "busy"):
                return


@pytest.fixture(scope="module")
def kernel():
    k = Kernel()
    # IPython's first traceback of a session costs about 0.4 s (it imports and warms up
    # stack_data and pygments), ipykernel's alike: taken here, so that the interrupt tests time
    # the interrupt and not that.
    assert k.run("1/0")[0]["ename"] == "ZeroDivisionError"
    yield k
    k.close()


# --- interrupt ---------------------------------------------------------------------------------

def interrupt_latency(kernel, setup, cell, delay):
    """Runs `cell`, interrupts the kernel `delay` s after it started; (seconds from the interrupt
    to the execute_reply, reply content, outputs, the latency allowed)."""
    reply, _ = kernel.run(setup)
    assert reply["status"] == "ok", reply
    t0 = time.monotonic()
    kernel.run("")
    allowed = INTERRUPT_LIMIT + 2 * (time.monotonic() - t0)
    msg_id = kernel.send(cell)
    kernel.wait_busy(msg_id)
    time.sleep(delay)
    sent = time.monotonic()
    kernel.km.interrupt_kernel()
    reply, outputs = kernel.collect(msg_id)
    return time.monotonic() - sent, reply, outputs, allowed


def test_interrupt_a_long_cxx_op(kernel):
    # One C++ call of about a second, parallel_for's pieces each looking at the flag (Note
    # [Interrupting long ops] in core/runtime/Interrupt.cpp says which loops look at it; how
    # quickly each kind stops is tests/python/test_interrupt.py's business).
    cell, delay = "z = opscope.atan2(x, y)", 0.3
    latency, reply, _, allowed = interrupt_latency(
        kernel, "import opscope\ng = opscope.Generator().manual_seed(0)\n"
                "x = opscope.rand(5 * 10**7, generator=g) + 0.5\n"
                "y = opscope.rand(5 * 10**7, generator=g) + 0.5\n"
                "import time\nt0 = time.monotonic()",
        cell, delay=delay)
    print(f"interrupt inside {cell!r}: KeyboardInterrupt {latency * 1000:.0f} ms after "
          f"interrupt_kernel(), reply included (allowed: {allowed * 1000:.0f} ms)")
    assert reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt", reply
    assert latency < allowed
    # The kernel is up, and ops run again (the interrupt flag was answered).
    reply, outputs = kernel.run("d = x[:4].sort()\nprint(tuple(d.values.shape))")
    assert reply["status"] == "ok" and kernel.stdout(outputs) == "(4,)\n"


def test_interrupt_sleeping_python(kernel):
    latency, reply, outputs, allowed = interrupt_latency(
        kernel, "import time", "print('sleeping', flush=True)\ntime.sleep(60)", delay=0.3)
    print(f"interrupt of time.sleep: KeyboardInterrupt after {latency * 1000:.0f} ms "
          f"(allowed: {allowed * 1000:.0f} ms)")
    assert reply["ename"] == "KeyboardInterrupt"
    assert latency < allowed
    assert [t for t, _ in outputs][-1] == "error"
    assert kernel.stdout(outputs) == "sleeping\n"


def test_interrupt_of_an_idle_kernel_does_nothing(kernel):
    reply, _ = kernel.run("x = 41")
    for _ in range(3):
        kernel.km.interrupt_kernel()
        time.sleep(0.1)
    time.sleep(0.3)
    assert kernel.km.is_alive()
    reply, outputs = kernel.run("import opscope\nx += 1\nprint(x, opscope.ones(2).sum().item())")
    assert reply["status"] == "ok", reply
    assert kernel.stdout(outputs) == "42 2.0\n"


# --- threads and hooks ---------------------------------------------------------------------------

def test_prints_from_background_threads(kernel):
    reply, outputs = kernel.run(textwrap.dedent("""\
        import threading
        def chatter(k):
            for i in range(200):
                print(f"t{k} {i}")
        threads = [threading.Thread(target=chatter, args=(k,)) for k in range(4)]
        for t in threads: t.start()
        for i in range(200):
            print(f"main {i}")
        for t in threads: t.join()
        """))
    assert reply["status"] == "ok", reply
    lines = kernel.stdout(outputs).splitlines()
    assert sorted(lines) == sorted([f"t{k} {i}" for k in range(4) for i in range(200)]
                                   + [f"main {i}" for i in range(200)])
    # Each thread's lines in their order.
    for who in ("t0", "t3", "main"):
        mine = [int(line.split()[1]) for line in lines if line.split()[0] == who]
        assert mine == list(range(200))
    assert kernel.run("1")[0]["status"] == "ok"


def test_display_from_a_background_thread(kernel):
    reply, outputs = kernel.run(textwrap.dedent("""\
        import threading
        from IPython.display import display, HTML
        t = threading.Thread(target=lambda: display(HTML('<i>from a thread</i>')))
        t.start(); t.join()
        """))
    assert reply["status"] == "ok"
    html = [c["data"]["text/html"] for t, c in outputs if t == "display_data"]
    assert html == ["<i>from a thread</i>"]


def test_print_while_idle_arrives_with_the_next_request(kernel):
    reply, _ = kernel.run(textwrap.dedent("""\
        import threading, time
        threading.Thread(target=lambda: (time.sleep(0.3), print('late line'))).start()
        """))
    assert reply["status"] == "ok"
    time.sleep(0.6)  # the thread printed while the kernel was idle
    reply, outputs = kernel.run("pass")
    assert "late line" in kernel.stdout(outputs)


def test_print_from_hooks_the_engine_calls(kernel):
    reply, outputs = kernel.run(textwrap.dedent("""\
        import opscope
        x = opscope.ones(3, requires_grad=True)
        x.register_hook(lambda g: print('hook saw', tuple(g.shape)))
        (x * 2).sum().backward()
        print('grad', x.grad.tolist())
        """))
    assert reply["status"] == "ok", reply
    assert kernel.stdout(outputs) == "hook saw (3,)\ngrad [2.0, 2.0, 2.0]\n"


def test_output_below_python_reaches_the_cell(kernel):
    # What a cell writes to fds 1 and 2 (a shell command, C++'s dispatch log, a UTF-8 character
    # cut in two writes) comes as the cell's streams, before its error (kernel/capture.h).
    reply, outputs = kernel.run(
        "import os\nos.system('echo from a shell; echo to stderr >&2')\n"
        "os.write(1, 'é'.encode()[:1]); os.write(1, 'é'.encode()[1:] + b'\\n')")
    assert reply["status"] == "ok"
    assert kernel.stdout(outputs) == "from a shell\né\n"
    assert [c["text"] for t, c in outputs if t == "stream" and c["name"] == "stderr"] == \
        ["to stderr\n"]
    reply, outputs = kernel.run("opscope._C._set_dispatch_log(True, fd=2)\n"
                                "try:\n    y = opscope.ones(2) @ opscope.ones(2)\n"
                                "finally:\n    opscope._C._set_dispatch_log(False, fd=2)\n"
                                "os.system('echo then the error')\n1/0")
    assert reply["ename"] == "ZeroDivisionError"
    kinds = [(t, c.get("name")) for t, c in outputs]
    assert kinds[-1] == ("error", None) and ("stream", "stderr") in kinds
    err = "".join(c["text"] for t, c in outputs if t == "stream" and c["name"] == "stderr")
    assert "aten::dot" in err or "aten::matmul" in err
    assert kernel.stdout(outputs) == "then the error\n"
    # sys.stdout has a descriptor, as ipykernel's: a subprocess handed it writes to the cell.
    reply, outputs = kernel.run("import subprocess, sys\n"
                                "subprocess.run(['echo', 'child'], stdout=sys.stdout)\n"
                                "assert (sys.stdout.fileno(), sys.stderr.fileno()) == (1, 2)")
    assert reply["status"] == "ok", reply
    assert kernel.stdout(outputs) == "child\n"


# --- IPython behaviour ---------------------------------------------------------------------------

def test_completion_of_opscope_names(kernel):
    kernel.run("t = opscope.ones(2)")
    for code, expected in (("opscope.mat", "matmul"), ("opscope.nn.Lin", "Linear"),
                           ("t.resh", "reshape")):
        reply = kernel.kc.complete(code, reply=True, timeout=TIMEOUT)["content"]
        assert reply["status"] == "ok"
        assert expected in reply["matches"], (code, reply["matches"][:20])
        assert reply["cursor_end"] == len(code)


def test_inspection_of_opscope_names(kernel):
    for code in ("opscope.matmul", "opscope.Tensor.backward"):
        reply = kernel.kc.inspect(code, reply=True, timeout=TIMEOUT)["content"]
        assert reply["status"] == "ok" and reply["found"], code
        assert code.rsplit(".", 1)[1] in reply["data"]["text/plain"]
    reply, outputs = kernel.run("opscope.matmul?")
    assert reply["status"] == "ok"
    assert any(p["source"] == "page" for p in reply["payload"])


def test_history_lines_are_execution_counts(kernel):
    reply, _ = kernel.run("h = 'first'")
    first = reply["execution_count"]
    kernel.run("h = 'second'")
    history = kernel.kc.history(hist_access_type="tail", n=2, raw=True, output=False,
                                reply=True, timeout=TIMEOUT)["content"]["history"]
    assert [(line, code) for _, line, code in history] == [(first, "h = 'first'"),
                                                           (first + 1, "h = 'second'")]
    session = history[0][0]
    ranged = kernel.kc.history(hist_access_type="range", session=session, start=first,
                               stop=first + 2, raw=True, output=False, reply=True,
                               timeout=TIMEOUT)["content"]["history"]
    assert ranged == history


def test_top_level_await(kernel):
    reply, outputs = kernel.run("import asyncio\nawait asyncio.sleep(0.01)\n'awaited'")
    assert reply["status"] == "ok", reply
    assert [c["data"]["text/plain"] for t, c in outputs if t == "execute_result"] == ["'awaited'"]


def test_input(kernel):
    msg_id = kernel.send("name = input('who? ')\nprint('hello', name)", allow_stdin=True)
    request = kernel.kc.get_stdin_msg(timeout=TIMEOUT)
    assert request["msg_type"] == "input_request"
    assert request["content"]["prompt"] == "who? "
    kernel.kc.input("opscope")
    reply, outputs = kernel.collect(msg_id)
    assert reply["status"] == "ok", reply
    assert "hello opscope" in kernel.stdout(outputs)


def test_display_of_opscope_objects(kernel):
    reply, outputs = kernel.run("from IPython.display import display\n"
                                "display(opscope.ones(2, 2))")
    assert reply["status"] == "ok"
    shown = [c["data"] for t, c in outputs if t == "display_data"]
    assert len(shown) == 1 and "tensor" in shown[0]["text/plain"]


# --- lifetime ------------------------------------------------------------------------------------

def test_exit_asks_the_front_end_to_shut_down():
    k = Kernel()
    try:
        reply, _ = k.run("exit")
        assert reply["status"] == "ok", reply
        assert {"source": "ask_exit", "keepkernel": False} in reply["payload"]
    finally:
        k.close()


def test_restart_and_shutdown_run_atexit(tmp_path):
    k = Kernel()
    try:
        marker = tmp_path / "atexit"
        reply, _ = k.run(f"import atexit\nx = 1\n"
                         f"atexit.register(lambda: open({str(marker)!r}, 'a').write('ran\\n'))")
        assert reply["status"] == "ok"
        pid = k.km.provisioner.process.pid
        k.km.restart_kernel(now=False)
        assert wait_until(lambda: marker.exists(), 5), "atexit did not run on restart"
        assert k.km.provisioner.process.pid != pid
        k.kc.wait_for_ready(timeout=TIMEOUT)
        reply, outputs = k.run("print('x' in dir())")
        assert k.stdout(outputs) == "False\n"
        k.run(f"import atexit\n"
              f"atexit.register(lambda: open({str(marker)!r}, 'a').write('again\\n'))")
        k.km.shutdown_kernel(now=False)
        assert not k.km.is_alive()
        assert marker.read_text() == "ran\nagain\n"
    finally:
        k.close()


_LAUNCHER = """
import sys
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="xopscope", startup_timeout=60)
print(km.provisioner.process.pid, flush=True)
sys.stdin.read()
"""


def _gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie is gone
    except FileNotFoundError:
        return True


def test_no_orphan_when_the_front_end_dies():
    launcher = subprocess.Popen([sys.executable, "-c", _LAUNCHER], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
    try:
        pid = int(launcher.stdout.readline())
        assert not _gone(pid)
        launcher.send_signal(signal.SIGKILL)
        launcher.wait()
        assert wait_until(lambda: _gone(pid), 5), f"kernel {pid} outlived its front end"
    finally:
        if launcher.poll() is None:
            launcher.kill()


def test_debugger(kernel):
    """debugpy through xeus-python's debugger: attach, see a cell's variable, detach."""
    seq = iter(range(1, 100))

    def debug(command, **arguments):
        msg = kernel.kc.session.msg("debug_request", {"type": "request", "seq": next(seq),
                                                      "command": command,
                                                      "arguments": arguments})
        kernel.kc.control_channel.send(msg)
        while True:
            reply = kernel.kc.get_control_msg(timeout=TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                return reply["content"]

    assert kernel.kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]["debugger"] is True
    assert debug("initialize", clientID="tests", adapterID="", pathFormat="path",
                 linesStartAt1=True, columnsStartAt1=True, locale="en")["success"]
    try:
        assert debug("attach")["success"]
        assert kernel.run("debugged = 41 + 1")[0]["status"] == "ok"
        names = {v["name"]: v["value"] for v in debug("inspectVariables")["body"]["variables"]}
        assert names.get("debugged") == "42"
    finally:
        # As JupyterLab stops debugging: the debuggee is the kernel, it must live on.
        assert debug("disconnect", restart=False, terminateDebuggee=False)["success"]
    assert kernel.run("import time\ntime.sleep(0.3)\ndebugged")[0]["status"] == "ok"
    time.sleep(0.5)
    assert kernel.km.is_alive()


def test_counts_agree_after_empty_cells(kernel):
    # xeus counts empty cells, IPython does not: In [n], Out[n], _n and history line n must
    # still name the same cell.
    kernel.run("")
    kernel.run("   ")
    reply, outputs = kernel.run("'counted'")
    n = reply["execution_count"]
    assert [c["execution_count"] for t, c in outputs if t == "execute_result"] == [n]
    reply, outputs = kernel.run(f"print(_{n}, Out[{n}], In[{n}])")
    assert kernel.stdout(outputs) == "counted counted 'counted'\n"
    history = kernel.kc.history(hist_access_type="tail", n=2, raw=True, output=False,
                                reply=True, timeout=TIMEOUT)["content"]["history"]
    assert (history[0][1], history[0][2]) == (n, "'counted'")


def test_comms(kernel):
    """A comm target registered in the kernel: the front end opens a comm, sends a message, and
    the kernel's echo comes back (xeus-python's comm manager, what widgets use)."""
    reply, _ = kernel.run(textwrap.dedent("""\
        comm_seen = []
        def target(comm, msg):
            comm_seen.append(msg["content"]["data"])
            comm.on_msg(lambda m: (comm_seen.append(m["content"]["data"]),
                                   comm.send({"echo": m["content"]["data"]})))
        get_ipython().kernel.comm_manager.register_target("opscope_test", target)
        """))
    assert reply["status"] == "ok", reply
    session, shell = kernel.kc.session, kernel.kc.shell_channel
    shell.send(session.msg("comm_open", {"comm_id": "c0ffee", "target_name": "opscope_test",
                                         "data": {"hello": 1}}))
    shell.send(session.msg("comm_msg", {"comm_id": "c0ffee", "data": {"x": 2}}))
    end = time.monotonic() + TIMEOUT
    while True:
        msg = kernel.kc.get_iopub_msg(timeout=max(0.1, end - time.monotonic()))
        if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == "c0ffee":
            break
    assert msg["content"]["data"] == {"echo": {"x": 2}}
    reply, outputs = kernel.run("print(comm_seen)")
    assert kernel.stdout(outputs) == "[{'hello': 1}, {'x': 2}]\n"


# --- output batching (Note [Batched output] in kernel/python/xopscope_shell.py) -------------------

def test_many_prints_are_few_messages(kernel):
    reply, outputs = kernel.run("for i in range(5000):\n    print(i)")
    assert reply["status"] == "ok"
    assert kernel.stdout(outputs) == "".join(f"{i}\n" for i in range(5000))
    assert len(outputs) < 50, f"{len(outputs)} messages for 5,000 prints"


def test_a_print_before_a_long_call_arrives_at_once(kernel):
    msg_id = kernel.send("print('early')\nimport time\ntime.sleep(1.5)")
    sent = time.monotonic()
    while True:
        msg = kernel.kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            break
    assert msg["content"]["text"].startswith("early")
    assert time.monotonic() - sent < 1.0, "the print waited for the sleep"
    kernel.collect(msg_id)


def test_outputs_keep_their_order(kernel):
    reply, outputs = kernel.run(textwrap.dedent("""\
        import sys
        from IPython.display import HTML, display
        print('a')
        display(HTML('<i>b</i>'))
        print('c', file=sys.stderr)
        print('d')
        1/0
        """))
    assert reply["ename"] == "ZeroDivisionError"
    seen = []  # consecutive messages of one stream joined, as a front end shows them
    for t, c in outputs:
        if t == "stream" and seen and seen[-1][:2] == (t, c["name"]):
            seen[-1] = (t, c["name"], seen[-1][2] + c["text"])
        else:
            seen.append((t, c.get("name"), c["text"] if t == "stream" else None))
    assert seen == [("stream", "stdout", "a\n"), ("display_data", None, None),
                    ("stream", "stderr", "c\n"), ("stream", "stdout", "d\n"),
                    ("error", None, None)]


def test_an_input_prompt_comes_after_the_prints(kernel):
    msg_id = kernel.send("for i in range(3):\n    print(i)\nanswer = input('next? ')",
                         allow_stdin=True)
    kernel.kc.get_stdin_msg(timeout=TIMEOUT)
    printed = ""
    while True:  # everything printed was published before the prompt was asked
        try:
            msg = kernel.kc.get_iopub_msg(timeout=0.5)
        except Exception:  # noqa: BLE001 — queue.Empty: nothing more before the answer
            break
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            printed += msg["content"]["text"]
    assert printed == "0\n1\n2\n"
    kernel.kc.input("yes")
    reply, _ = kernel.collect(msg_id)
    assert reply["status"] == "ok"
