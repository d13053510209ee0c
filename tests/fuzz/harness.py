"""The fuzzer's parent side: feeds cases to a worker process (worker.py) and counts what the
worker cannot report itself.

For each case the outcome is one of
    ok            the snippet ran (its result printed, as a REPL prints it)
    exception     a Python exception a REPL user may see — fine; counted by type
    SystemError   a defect: an exception that must never come out of an op ("returned a result
                  with an exception set" is one)
    BaseException a defect: an exception that is not an Exception (KeyboardInterrupt, SystemExit...)
    crash         the worker died by a signal other than SIGABRT (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                  SIGKILL ...)
    abort         the worker died by SIGABRT (std::terminate, assert, a Python fatal error)
    exit          the worker exited by itself in the middle of a case
    hang          the worker did not answer within the timeout (it is killed)
The last six are fatal: a REPL or notebook session must never see them.

A fatal case is run again alone in a fresh worker ("confirmed"): the snippet is then a standalone
reproducer. If it does not reproduce alone, the cases the worker ran before it are put in front
of it (the last 2, 4, 8, ... of them) until it does. A confirmed reproducer is then minimized
(statements and call arguments dropped while the same outcome stays) before it goes to the
corpus.
"""
import ast
import collections
import hashlib
import json
import os
import re
import select
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"
WORKER = os.path.join(HERE, "worker.py")
CORPUS = os.path.join(HERE, "corpus")

FATAL_KINDS = ("crash", "abort", "exit", "hang", "SystemError", "BaseException")
READY_TIMEOUT = 120.0

_SCRATCH = []


def scratch_dir():
    """The folder fuzzed calls run in: what they write (opscope.save('sum', ...)) lands there,
    not in the checkout."""
    if not _SCRATCH:
        _SCRATCH.append(tempfile.mkdtemp(prefix="opscope-fuzz-"))
    return _SCRATCH[0]

class WorkerDied(Exception):
    pass


class Worker:
    """One worker process. receive() returns the worker's reply, or a reply with outcome crash /
    abort / exit / hang when the worker did not survive the case (it is then dead)."""

    def __init__(self, timeout=10.0, wait=True, extra_env=None):
        self.timeout = timeout
        self.log = tempfile.TemporaryFile()
        self.announce = tempfile.NamedTemporaryFile(prefix="fuzz-announce-")
        self.announce.write(b" " * 64)
        self.announce.flush()
        env = dict(os.environ, FUZZ_ANNOUNCE=self.announce.name, **(extra_env or {}))
        self.proc = subprocess.Popen(
            [PYTHON, WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            env=env, start_new_session=True, cwd=scratch_dir())
        self.pending = None  # id of the case sent and not answered yet
        self._buf = b""
        self.ready = False
        self.history = []  # the codes this worker ran, in order
        if wait:
            self.wait_ready()

    def wait_ready(self):
        if self.ready:
            return
        msg = self._read_line(READY_TIMEOUT)
        if msg is None or not msg.get("ready"):
            self.kill()
            raise WorkerDied("the worker did not start:\n" + self.stderr_tail())
        self.ready = True

    def _read_line(self, timeout):
        """The next JSON line; None on EOF or timeout (self.timed_out tells which)."""
        self.timed_out = False
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self.timed_out = True
                return None
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def stderr_tail(self, n=4000):
        self.log.seek(0, os.SEEK_END)
        size = self.log.tell()
        self.log.seek(max(0, size - n))
        return self.log.read().decode("utf-8", "replace")

    def alive(self):
        return self.proc.poll() is None

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the worker and what it started
            except ProcessLookupError:
                pass
        self.proc.wait()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (subprocess.TimeoutExpired, BrokenPipeError):
                self.kill()
        self.log.close()
        self.announce.close()

    def announced(self):
        """The id of the last case the worker started."""
        with open(self.announce.name, "rb") as f:
            return f.read().split(b"\n")[0].decode(errors="replace")

    def send(self, case_id, code):
        """Sends a case; receive() gets its outcome (the parent may work in between)."""
        self.history.append(code)
        self.pending = case_id
        try:
            self.proc.stdin.write((json.dumps({"id": case_id, "code": code}) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # receive() finds the worker dead

    def receive(self, timeout=None):
        case_id, self.pending = self.pending, None
        timeout = timeout or self.timeout
        msg = self._read_line(timeout)
        if msg is not None:
            return msg
        started = self.announced() == case_id
        if self.timed_out:
            self.kill()
            return {"id": case_id, "outcome": "hang", "type": None,
                    "msg": f"no answer within {timeout:g} s", "defect": None,
                    "started": started, "stderr": self.stderr_tail()}
        self.proc.wait()
        rc = self.proc.returncode
        if rc < 0:
            sig = signal.Signals(-rc)
            outcome = "abort" if sig == signal.SIGABRT else "crash"
            msg = sig.name
        else:
            outcome, msg = "exit", f"exit status {rc}"
        return {"id": case_id, "outcome": outcome, "type": None, "msg": msg, "defect": None,
                "started": started, "stderr": self.stderr_tail()}

    def run(self, case_id, code, timeout=None):
        self.send(case_id, code)
        return self.receive(timeout)


def is_fatal(reply):
    return kind_of(reply) in FATAL_KINDS


def kind_of(reply):
    """ok / exception, or the fatal kind: crash / abort / exit / hang / SystemError /
    BaseException."""
    return reply.get("defect") or reply["outcome"]


def run_alone(code, timeout, case_id="alone"):
    """Runs one snippet in a fresh worker; returns the reply."""
    w = Worker(timeout=timeout)
    try:
        return w.run(case_id, code)
    finally:
        w.kill()
        w.close()


def combine(codes):
    """Several snippets as one: each earlier one in a try block, so that its exception does not
    stop the rest; the last runs bare, so that its own outcome shows."""
    out = []
    for c in codes[:-1]:
        body = "\n".join("    " + line for line in c.splitlines())
        out.append("try:\n" + body + "\nexcept Exception:\n    pass")
    out.append(codes[-1])
    return "\n".join(out) + "\n"


def confirm(code, history, kind, timeout):
    """Re-runs a fatal case in a fresh worker: (reproducer, how, reply). how is "alone",
    "after N earlier cases", or "not reproduced" (reproducer None)."""
    reply = run_alone(code, timeout)
    if kind_of(reply) == kind:
        return code, "alone", reply
    # Heap corruption often shows only when the collector walks the objects (or at exit).
    collected = code + "import gc\ngc.collect()\n"
    r = run_alone(collected, timeout)
    if kind_of(r) == kind:
        return collected, "alone, with gc.collect()", r
    earlier = history[:-1]
    n = 2
    while earlier:
        prefix = earlier[-n:]
        joined = combine(prefix + [code])
        r = run_alone(joined, timeout * 2)
        if kind_of(r) == kind:
            return joined, f"after {len(prefix)} earlier cases", r
        if n >= len(earlier):
            break
        n *= 2
    return None, "not reproduced", reply


def run_plain(code, timeout):
    """Runs a snippet as `python3 file.py` would (no worker, interpreter exit included): the
    kind of its end, as kind_of names them."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
        path = f.name
    try:
        p = subprocess.run([PYTHON, path], capture_output=True, text=True, timeout=timeout,
                           start_new_session=True, cwd=scratch_dir())
    except subprocess.TimeoutExpired:
        return "hang"
    finally:
        os.unlink(path)
    if p.returncode < 0:
        return "abort" if p.returncode == -signal.SIGABRT else "crash"
    tail = p.stderr.strip().splitlines()[-1:] or [""]
    if tail[0].startswith("SystemError"):
        return "SystemError"
    if re.match(r"^(KeyboardInterrupt|SystemExit|GeneratorExit)\b", tail[0]):
        return "BaseException"
    return "ok" if p.returncode == 0 else "exception"


# The session goes on after the snippet: what the worker runs after every case (worker.py).
NEXT_LINE = "torch.ones(3).mul(2).sum().item()\n"


def standalone(code, kind, timeout):
    """The reproducer as a plain script: as it is if that shows `kind`, else with the op the
    worker runs after each case appended, else with a gc.collect() too; None if none does."""
    for extra in ("", NEXT_LINE, NEXT_LINE + "import gc\ngc.collect()\n"):
        candidate = code + extra
        if extra and "import opscope as torch" not in candidate:
            candidate = "import opscope as torch\n" + candidate
        if run_plain(candidate, timeout) == kind:
            return candidate
    return None


# --- minimizing a reproducer -------------------------------------------------------------------

class _Prober:
    """Runs candidate snippets in a worker that is replaced when a candidate kills it."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.worker = None
        self.runs = 0

    def kind(self, code):
        if self.worker is None or not self.worker.alive():
            if self.worker is not None:
                self.worker.close()
            self.worker = Worker(timeout=self.timeout)
        self.runs += 1
        return kind_of(self.worker.run("probe", code))

    def close(self):
        if self.worker is not None:
            self.worker.kill()
            self.worker.close()


def _variants(tree):
    """Smaller versions of a module: one statement dropped, a with block replaced by its body,
    one keyword or positional argument dropped from one call."""
    body = tree.body
    for i in reversed(range(len(body))):
        st = body[i]
        yield ast.Module(body=body[:i] + body[i + 1:], type_ignores=[])
        if isinstance(st, (ast.With, ast.If)):
            yield ast.Module(body=body[:i] + st.body + body[i + 1:], type_ignores=[])
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    for call in calls:
        for k in reversed(range(len(call.keywords))):
            kw = call.keywords.pop(k)
            yield _copy(tree)
            call.keywords.insert(k, kw)
        for k in reversed(range(len(call.args))):
            a = call.args.pop(k)
            yield _copy(tree)
            call.args.insert(k, a)


def _copy(tree):
    return ast.parse(ast.unparse(tree))


def minimize(code, kind, timeout, max_probes=60):
    """The smallest snippet found (dropping statements, imports, helper classes, call arguments)
    that still ends in `kind`, checked once more in a fresh worker; else `code` itself."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    prober = _Prober(timeout)
    try:
        progress = True
        while progress and prober.runs < max_probes:
            progress = False
            for cand in _variants(tree):
                if prober.runs >= max_probes:
                    break
                text = ast.unparse(cand) + "\n"
                if prober.kind(text) == kind:
                    tree = ast.parse(text)
                    progress = True
                    break
    finally:
        prober.close()
    small = ast.unparse(tree) + "\n"
    if small != code and kind_of(run_alone(small, timeout)) != kind:
        return code
    return small


def call_arguments(code):
    """The argument text of the last call in a minimized reproducer (not print(repr(r))) when
    it holds something distinctive (not just variables and small numbers), else None:
    `r = torch.seed(**{'\\ud800': 1})` -> `**{'\\ud800': 1}`."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return None
    call = None
    for st in reversed(body):  # the last call that is not the printing of the result
        c = next((n for n in ast.walk(st) if isinstance(n, ast.Call)), None)
        if c is not None and ast.unparse(c.func) not in ("print", "repr") and \
                ast.unparse(st) + "\n" != NEXT_LINE:
            call = c
            break
    if call is None:
        return None
    parts = [ast.unparse(a) for a in call.args] + [
        (f"{k.arg}=" if k.arg else "**") + ast.unparse(k.value) for k in call.keywords]
    distinctive = [p for p in parts if not re.fullmatch(r"[a-z]\w*|-?\d{1,2}|True|False|None", p)]
    if not distinctive:
        return None
    return max(distinctive, key=len)


def normalized(code, target):
    """A reproducer with its target's name taken out, so that the same bug reached through two
    functions reads the same."""
    short = target.rsplit(".", 1)[-1]
    body = "\n".join(ln for ln in code.splitlines() if not ln.startswith("#"))
    body = body.replace(target, "F")
    return re.sub(rf"\.{re.escape(short)}\b", ".F", body) if short else body


# --- where a crash dies, by gdb ---------------------------------------------------------------

def native_stack(code, timeout=120, frames=12):
    """The native frames of a crashing snippet (gdb's backtrace), or "" if gdb is missing."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
        path = f.name
    try:
        out = subprocess.run(
            ["gdb", "-batch", "-nx", "-ex", "set pagination off", "-ex", "run", "-ex", "bt",
             "--args", PYTHON, path], capture_output=True, text=True, timeout=timeout,
            env=dict(os.environ, PYTHONFAULTHANDLER=""), cwd=scratch_dir())
    except (OSError, subprocess.TimeoutExpired):
        return ""
    finally:
        os.unlink(path)
    bt = [ln for ln in out.stdout.splitlines() if re.match(r"^#\d+ ", ln)]
    # From the first frame past the signal machinery (raise, abort, std::terminate, __cxa_throw).
    noise = re.compile(r"pthread_kill|__GI_raise|__GI_abort|libstdc\+\+|__cxa_throw|"
                       r"std::terminate|__strlen|__memcpy|__memmove")
    while len(bt) > 1 and noise.search(bt[0]):
        bt.pop(0)
    return "\n".join(ln[:300] for ln in bt[:frames])


# --- counting -------------------------------------------------------------------------------------

class Stats:
    def __init__(self):
        self.outcomes = collections.Counter()
        self.exception_types = collections.Counter()
        self.fatal_by_target = collections.Counter()  # (kind, target) -> cases
        self.known_trigger = collections.Counter()  # (kind, trigger) -> cases not confirmed
        self.broken = []  # (target, case id, what failed): an op failing after the case
        self.defects = []  # confirmed or not: see Runner._record
        self.calls = 0
        self.seconds = 0.0
        self.restarts = 0

    def add(self, reply, target):
        self.calls += 1
        kind = kind_of(reply)
        self.outcomes[kind] += 1
        if reply["outcome"] == "exception" and not reply.get("defect"):
            self.exception_types[reply["type"]] += 1
        if reply.get("broken"):  # the op after the case failed: see worker.py
            self.outcomes["session broken"] += 1
            self.broken.append((target, reply["id"], reply["broken"]))
        if kind in FATAL_KINDS:
            self.fatal_by_target[(kind, target)] += 1

    def fatal_counts(self):
        return {k: self.outcomes.get(k, 0) for k in FATAL_KINDS}

    def summary(self):
        rate = self.calls / self.seconds if self.seconds else 0.0
        lines = [f"{self.calls} calls in {self.seconds:.1f} s ({rate:.0f} calls/s), "
                 f"{self.restarts} worker restarts",
                 "outcomes: " + ", ".join(f"{k} {v}" for k, v in self.outcomes.most_common())]
        if self.exception_types:
            lines.append("exception types: " + ", ".join(
                f"{k} {v}" for k, v in self.exception_types.most_common()))
        if self.broken:
            lines.append("cases after which a plain op failed (first 20):")
            for target, case_id, what in self.broken[:20]:
                lines.append(f"  {case_id} {target}: {what[:150]}")
        if self.known_trigger:
            lines.append("fatal cases holding the trigger of a confirmed one (not confirmed again):")
            for (kind, trig), n in self.known_trigger.most_common():
                lines.append(f"  {n:6d}  {kind:13} {trig}")
        if self.fatal_by_target:
            lines.append("fatal cases by kind and target:")
            for (kind, target), n in sorted(self.fatal_by_target.items(),
                                            key=lambda kv: (-kv[1], kv[0])):
                lines.append(f"  {n:6d}  {kind:13} {target}")
        return "\n".join(lines)


class Runner:
    """Runs cases through a worker, replacing it when it dies (a spare is kept warm), and records
    fatal cases: each (kind, target) is confirmed and minimized once, up to max_confirm of them."""

    def __init__(self, timeout=10.0, confirm_fatal=True, minimize_fatal=True, max_confirm=40,
                 log=None):
        self.timeout = timeout
        self.confirm_fatal = confirm_fatal
        self.minimize_fatal = minimize_fatal
        self.max_confirm = max_confirm
        self.stats = Stats()
        self.worker = None
        self.spare = None
        self.log = log or (lambda s: None)
        self._confirmed = set()
        self._triggers = []  # (kind, argument text of a minimized reproducer's call)

    def _ensure_worker(self):
        if self.worker is not None and self.worker.alive():
            return
        if self.worker is not None:
            self.worker.close()
            self.stats.restarts += 1
        self.worker = self.spare or Worker(timeout=self.timeout, wait=False)
        self.spare = None
        try:
            self.worker.wait_ready()
        except WorkerDied:
            self.worker = Worker(timeout=self.timeout)

    def _start_spare(self):
        if self.spare is None:
            self.spare = Worker(timeout=self.timeout, wait=False)

    def run_case(self, case_id, code, target="", between=None):
        """Runs one case; between() is called while the worker runs it (the caller makes its
        next case there)."""
        t0 = time.monotonic()
        self._ensure_worker()
        self.worker.send(case_id, code)
        if between is not None:
            between()
        reply = self.worker.receive()
        self.stats.seconds += time.monotonic() - t0
        self.stats.add(reply, target)
        if is_fatal(reply):
            history = list(self.worker.history)
            if not self.worker.alive():
                self._start_spare()
            self._record(reply, case_id, code, target, history)
        return reply

    def _record(self, reply, case_id, code, target, history):
        kind = kind_of(reply)
        rec = {"kind": kind, "case_id": case_id, "target": target, "code": code,
               "msg": reply.get("msg") if kind in ("crash", "abort", "exit", "hang")
               else f"{reply.get('type')}: {reply.get('msg')}",
               "stderr": reply.get("stderr", ""), "reproducer": None, "how": "not confirmed",
               "started": reply.get("started", True)}
        key = (kind, target)
        known = next((t for k, t in self._triggers if k == kind and t in code), None)
        if known is not None:
            # Same kind, and the code holds the arguments a minimized reproducer needed: most
            # likely the same bug; counted, not confirmed again.
            self.stats.known_trigger[(kind, known)] += 1
            return
        if self.confirm_fatal and key not in self._confirmed and len(self._confirmed) < self.max_confirm:
            self._confirmed.add(key)
            # 3x the timeout when confirming a hang: the machine may just have been busy.
            t = self.timeout * (3 if kind == "hang" else 1)
            rep, how, r2 = confirm(code, history, kind, t)
            rec["reproducer"], rec["how"] = rep, how
            if rep is not None:
                if r2.get("stderr"):
                    rec["stderr"] = r2["stderr"]
                if self.minimize_fatal and kind != "hang" and how.startswith("alone"):
                    rec["reproducer"] = minimize(rep, kind, self.timeout)
                    trigger = call_arguments(rec["reproducer"])
                    if trigger:
                        self._triggers.append((kind, trigger))
                if kind != "hang":
                    plain = standalone(rec["reproducer"], kind, self.timeout * 3)
                    if plain is not None:
                        rec["reproducer"] = plain
                    else:
                        rec["how"] += "; in a worker only, not as a plain script"
            self.stats.defects.append(rec)
            self.log(format_defect(rec))

    def close(self):
        for w in (self.worker, self.spare):
            if w is not None:
                w.kill()
                w.close()
        self.worker = self.spare = None


def format_defect(rec):
    head = f"=== {rec['kind']} ({rec['msg']}) in case {rec['case_id']}"
    if rec.get("target"):
        head += f" - {rec['target']}"
    head += f" [{rec['how']}]"
    body = rec["reproducer"] or rec["code"]
    tail = "\n".join([ln for ln in rec.get("stderr", "").splitlines()
                      if ln.strip() and not ln.startswith("Extension modules")][-8:])
    native = rec.get("native_stack")
    return (head + "\n" + body.rstrip()
            + ("\n--- native stack:\n" + native if native else "")
            + ("\n--- stderr:\n" + tail if tail else "") + "\n")


# --- the corpus -------------------------------------------------------------------------------

def corpus_files(folder=CORPUS):
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py"))


def corpus_targets(folder=CORPUS):
    """(kind, target) of every corpus entry, from the headers."""
    seen = set()
    for path in corpus_files(folder):
        with open(path) as f:
            head = f.read(2000)
        m = re.search(r"^# kind: (\S+)\n# target: (.*)$", head, re.M)
        if m:
            seen.add((m.group(1), m.group(2).strip()))
    return seen


def corpus_signatures(folder=CORPUS):
    """kind + normalized reproducer of every corpus entry."""
    sigs = set()
    for path in corpus_files(folder):
        with open(path) as f:
            text = f.read()
        m = re.search(r"^# kind: (\S+)\n# target: (.*)$", text, re.M)
        if m:
            sigs.add((m.group(1), normalized(text, m.group(2).strip())))
    return sigs


def write_corpus_entry(rec, folder=CORPUS):
    """Writes a confirmed reproducer as a standalone snippet; returns its path, or None if it
    was not confirmed or the corpus has one for this kind and target already, or one that is
    the same snippet but for the function called."""
    code = rec["reproducer"]
    if not code or (rec["kind"], rec["target"]) in corpus_targets(folder):
        return None
    if (rec["kind"], normalized(code, rec["target"])) in corpus_signatures(folder):
        return None
    os.makedirs(folder, exist_ok=True)
    digest = hashlib.sha1(code.encode()).hexdigest()[:10]
    path = os.path.join(folder, f"{rec['kind'].lower()}-{digest}.py")
    msg = " ".join(str(rec["msg"]).split())[:200]
    header = (f"# opscope fuzz corpus: a case that once ended in {rec['kind']} ({msg}).\n"
              f"# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python\n"
              f"# exception. Run alone (PYTHONPATH as make sets it):\n"
              f"#   /usr/bin/python3 {os.path.relpath(path, REPO)}\n"
              f"# kind: {rec['kind']}\n"
              f"# target: {rec['target']}\n"
              f"# found by case {rec['case_id']} (seed:index); reproduced {rec['how']}\n")
    native = rec.get("native_stack")
    if native:
        header += "# native stack when found:\n" + "".join(
            f"#   {ln}\n" for ln in native.splitlines())
    with open(path, "w") as f:
        f.write(header + code)
    return path
