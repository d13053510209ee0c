"""opscope.interactive, the session layer of the REPL and the kernel, run in-process on IPython's
InteractiveShell: the default view after each execution, _trace / last() / history(), the bounds,
the magics and the settings."""
import json
import os
import re

import pytest

IPython = pytest.importorskip("IPython")
from IPython.core.error import UsageError  # noqa: E402
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

import opscope  # noqa: E402
import opscope.interactive as oi  # noqa: E402
from opscope.interactive._settings import Settings  # noqa: E402
from opscope.profiler import Trace  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def shell(tmp_path, monkeypatch, capsys):
    """A shell with the extension freshly loaded, settings saved under a temporary config dir."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    sh = InteractiveShell.instance()
    sh.extension_manager.unload_extension("opscope.interactive")
    sh.extension_manager.load_extension("opscope.interactive")
    oi.configure(width=120, color="never", renderer="text")
    sh.run_cell("import opscope as torch\n"
                "a = torch.randn(2, 3, requires_grad=True)\nb = torch.randn(3, 4)\n"
                "x = torch.ones(3)", store_history=False)
    capsys.readouterr()
    yield sh
    sh.extension_manager.unload_extension("opscope.interactive")


def run(sh, capsys, code):
    """Runs a cell; returns what it printed, as lines."""
    result = sh.run_cell(code, store_history=False)
    out = capsys.readouterr().out
    return result, [line for line in out.splitlines() if line.strip()]


# --- the default view --------------------------------------------------------------------------

def test_a_line_with_ops_shows_one_summary_line_per_op(shell, capsys):
    _, lines = run(shell, capsys, "c = a @ b")
    assert len(lines) == 1
    assert re.fullmatch(r"matmul\(f32\[2,3\], f32\[3,4\]\) → mm\[AutogradCPU\] → mm\[CPU\] · "
                        r"MmBackward0 · [0-9.]+ (ns|µs|ms)", lines[0]), lines[0]


def test_a_line_without_ops_shows_nothing(shell, capsys):
    _, lines = run(shell, capsys, "y = 1 + 2\nz = [y] * 3")
    assert lines == []


def test_backward_runs_show_as_their_own_lines(shell, capsys):
    _, lines = run(shell, capsys, "(a * a).sum().backward()")
    backward = [line for line in lines if line.startswith("backward ")]
    assert [line.split()[1] for line in backward] == ["SumBackward0", "MulBackward0",
                                                      "AccumulateGrad"]
    assert not any("18446744073709551615" in line for line in lines)


def test_a_loop_folds_into_its_distinct_paths_with_counts_and_totals(shell, capsys):
    _, lines = run(shell, capsys, "for i in range(1000):\n    y = x + 1\n    z = y.sum()")
    assert lines[0].startswith("2,000 top-level calls, 2 distinct paths · ")
    assert lines[1].startswith("×1,000   add(f32[3], i64[], 1) → add[AutogradCPU] → add[CPU] "
                               "· total ")
    assert lines[2].startswith("×1,000   sum(f32[3]) → sum[AutogradCPU] → sum[CPU]")
    assert len(lines) == 3


def test_a_loop_with_many_paths_stays_one_screenful(shell, capsys):
    oi.configure(max_lines=8)
    _, lines = run(shell, capsys, "names = ['sin', 'cos', 'exp', 'neg', 'abs', 'sqrt', 'tanh', "
                   "'sigmoid', 'relu', 'floor', 'ceil', 'round']\n"
                   "for i in range(240):\n    getattr(x, names[i % len(names)])()")
    assert len(lines) <= 8
    assert lines[0].startswith("240 top-level calls, 12 distinct paths")
    assert re.match(r"… [0-9,]+ more calls on other paths \(.*\): %trace shows every op",
                    lines[-1])


def test_arguments_that_vary_within_a_group_show_as_an_ellipsis(shell, capsys):
    _, lines = run(shell, capsys, "for i in range(30):\n    y = x.clamp(min=i)")
    assert lines[1].startswith("×30      clamp(f32[3], …) → clamp[AutogradCPU]"), lines[1]
    _, lines = run(shell, capsys, "for i in range(30):\n    y = x.clamp(min=2)")
    assert lines[1].startswith("×30      clamp(f32[3], 2) → clamp[AutogradCPU]"), lines[1]


def test_a_failing_line_shows_its_ops_and_its_traceback(shell, capsys):
    result, lines = run(shell, capsys, "d = a @ x.reshape(3, 1).t()")
    assert result.error_in_exec is not None
    assert any("threw" in line and line.startswith("matmul(") for line in lines), lines


def test_width_and_colour(shell, capsys, monkeypatch):
    oi.configure(width=60)
    _, lines = run(shell, capsys, "c = a @ b\nd = c.relu().sum(0, keepdim=True).t()")
    assert all(len(line) <= 60 for line in lines), lines
    assert all(line.split("(")[0] in ("matmul", "relu", "sum", "t") for line in lines)
    oi.configure(color="always")
    _, lines = run(shell, capsys, "c = a @ b")
    assert "\x1b[" in lines[0] and ANSI.sub("", lines[0]).startswith("matmul(")
    oi.configure(color="auto")
    monkeypatch.setenv("NO_COLOR", "1")
    _, lines = run(shell, capsys, "c = a @ b")
    assert "\x1b[" not in lines[0]


def test_a_long_line_keeps_its_node_before_its_first_step(shell, capsys):
    # 120 columns cannot hold max_pool2d's two long steps and its node: the node, which says
    # autograd ran, stays and the AutogradCPU step gives way to "…".
    _, lines = run(shell, capsys, "p = torch.nn.functional.max_pool2d("
                                  "torch.randn(1, 3, 32, 32, requires_grad=True), 2)")
    pool = [line for line in lines if line.startswith("max_pool2d(")]
    assert len(pool) == 1 and len(pool[0]) <= 120, lines
    assert re.fullmatch(r"max_pool2d\(…\) → … → max_pool2d_with_indices\[CPU\] · "
                        r"MaxPool2DWithIndicesBackward0 · [0-9.]+ (ns|µs|ms)", pool[0]), pool[0]
    oi.configure(width=200)
    _, lines = run(shell, capsys, "p = torch.nn.functional.max_pool2d("
                                  "torch.randn(1, 3, 32, 32, requires_grad=True), 2)")
    assert "max_pool2d_with_indices[AutogradCPU] → max_pool2d_with_indices[CPU] · " \
           "MaxPool2DWithIndicesBackward0" in lines[-1], lines


def test_html_renderer_gives_a_self_contained_bundle(shell, capsys, monkeypatch):
    bundles = []
    frontend = oi._frontend
    monkeypatch.setattr(frontend, "_display", bundles.append)
    oi.configure(renderer="html")
    run(shell, capsys, "c = a @ b\nd = c.sum()")
    assert len(bundles) == 1
    html, text = bundles[0]["text/html"], bundles[0]["text/plain"]
    assert "<style" not in html and "<script" not in html
    assert html.count('<div style="white-space:pre-wrap') == 2
    assert "[AutogradCPU]" in html and text.splitlines()[0].startswith("matmul(")
    data = bundles[0]["application/vnd.opscope.trace+json"]
    assert data["schema"] == "opscope.view/1" and data["lines"][0]["path"][-1] == "mm[CPU]"
    assert len(json.dumps(data)) < 2000


# --- the trace as data -------------------------------------------------------------------------

def test_trace_and_last_keep_the_last_execution_that_ran_ops(shell, capsys):
    run(shell, capsys, "c = a @ b")
    t = shell.user_ns["_trace"]
    assert isinstance(t, Trace) and oi.last() is t
    assert t.find("aten::mm").steps[-1].key == "CPU"
    run(shell, capsys, "y = 1")
    assert oi.last() is t and shell.user_ns["_trace"] is t
    run(shell, capsys, "z = x + 1")
    assert oi.last() is not t and oi.last().find("add").name == "aten::add.Tensor"


def test_history_is_bounded(shell, capsys):
    oi.configure(history=3)
    for i in range(5):
        run(shell, capsys, f"y{i} = x * {i}")
    h = oi.history()
    assert len(h) == 3
    assert [e.code for e in h] == ["y2 = x * 2", "y3 = x * 3", "y4 = x * 4"]


def test_recording_is_bounded_and_says_what_it_left_out(shell, capsys):
    oi.configure(max_events=2000)
    _, lines = run(shell, capsys, "for i in range(5000):\n    y = x + 1")
    assert re.match(r"… [0-9,]+ more top-level calls \(.*\) not recorded: past the bound of "
                    r"[0-9,]+ events", lines[-1]), lines[-1]
    execution = oi.history()[-1]
    assert execution.events <= 2000 + 20
    recorded = int(lines[1].split()[0][1:].replace(",", ""))
    left_out = int(lines[-1].split()[1].replace(",", ""))
    assert recorded + left_out == 5000


def test_old_recordings_are_dropped_to_bound_memory(shell, capsys):
    oi.configure(max_events=1000, history=5)
    for _ in range(4):
        run(shell, capsys, "for i in range(400):\n    y = x + 1")
    h = oi.history()
    assert len(h[-1].trace.roots) > 0
    with pytest.raises(RuntimeError, match="dropped from the history"):
        h[0].trace.roots


# --- magics ------------------------------------------------------------------------------------

def test_trace_magic_shows_the_dispatch_tree(shell, capsys):
    run(shell, capsys, "c = a @ b")
    _, lines = run(shell, capsys, "%trace")
    text = "\n".join(lines)
    assert "mm[CPU] → kernel opscope::cpu::mm" in text
    assert "autograd node MmBackward0" in text


def test_trace_magic_on_a_statement_and_a_cell(shell, capsys):
    result, lines = run(shell, capsys, "%trace a @ b")
    assert isinstance(result.result, opscope.Tensor) and tuple(result.result.shape) == (2, 4)
    text = "\n".join(lines)
    assert "mm[CPU] → kernel" in text
    assert not any(line.startswith("matmul(f32[2,3], f32[3,4]) → mm[") for line in lines)
    _, lines = run(shell, capsys, "%%trace\ny = x + 1\nz = y.exp()")
    text = "\n".join(lines)
    assert "add[CPU]" in text and "exp[CPU]" in text
    assert shell.user_ns["z"] is not None


def test_stack_magic(shell, capsys):
    run(shell, capsys, "c = a @ b")
    _, lines = run(shell, capsys, "%stack aten::mm")
    text = "\n".join(lines)
    assert lines[0] == "aten::mm: cblas_sgemm"
    assert "opscope::cpu::mm" in text and "Python → C++" in text
    _, lines = run(shell, capsys, "%stack")
    assert lines[0] == "aten::mm: cblas_sgemm"
    with pytest.raises(UsageError, match="did not run in the last execution"):
        shell.run_line_magic("stack", "aten::conv2d")


def test_stack_magic_says_why_there_is_none(shell, capsys):
    shell.run_line_magic("opscope", "--session stacks=off")
    run(shell, capsys, "c = a @ b")
    with pytest.raises(UsageError, match="stacks are off"):
        shell.run_line_magic("stack", "mm")


def test_profile_magic(shell, capsys, tmp_path):
    run(shell, capsys, "c = a @ b\nd = c.sum()")
    _, lines = run(shell, capsys, "%profile")
    text = "\n".join(lines)
    assert "aten::mm" in text and "Self CPU time total" in text and "CPU Mem" not in text
    _, lines = run(shell, capsys, "%profile --memory")
    assert "Self CPU Mem" in "\n".join(lines)
    path = tmp_path / "t.json"
    _, lines = run(shell, capsys, f"%%profile --chrome {path}\ny = x.exp()")
    assert "aten::exp" in "\n".join(lines)
    assert any(e.get("name") == "aten::exp" for e in json.loads(path.read_text())["traceEvents"])
    with pytest.raises(UsageError, match="unrecognized arguments"):
        shell.run_line_magic("profile", "--nonsense")


def test_graph_magic(shell, capsys):
    run(shell, capsys, "loss = (a @ b).sum()")
    _, lines = run(shell, capsys, "%graph loss")
    assert lines[0].startswith("f32[] ← SumBackward0")
    assert any("MmBackward0" in line for line in lines)
    with pytest.raises(UsageError, match="not a tensor"):
        shell.run_line_magic("graph", "3")
    _, lines = run(shell, capsys, "%graph b")
    assert lines == ["b has no autograd graph: it does not require grad (grad_fn is None)"]


def test_dispatch_magic(shell, capsys):
    _, lines = run(shell, capsys, "%dispatch mm")
    text = "\n".join(lines)
    assert "schema: aten::mm(Tensor self, Tensor mat2) -> Tensor" in text
    assert "AutogradCPU: registered at core/autograd/" in text
    with pytest.raises(UsageError, match="%dispatch"):
        shell.run_line_magic("dispatch", "aten::no_such_op")


def test_views_magic_sets_what_is_shown(shell, capsys):
    shell.run_line_magic("views", "off")
    _, lines = run(shell, capsys, "c = a @ b")
    assert lines == []
    assert oi.last().find("mm") is not None  # still recorded
    shell.run_line_magic("views", "tree")
    _, lines = run(shell, capsys, "c = a @ b")
    assert any("mm[CPU] → kernel opscope::cpu::mm" in line for line in lines)
    shell.run_line_magic("views", "summary")
    with pytest.raises(UsageError, match="expected one of"):
        shell.run_line_magic("views", "everything")


def test_settings_persist_in_the_config_dir(shell, capsys, tmp_path):
    shell.run_line_magic("opscope", "max_lines=7 color=never")
    path = tmp_path / "config" / "opscope" / "interactive.json"
    assert json.loads(path.read_text()) == {"color": "never", "max_lines": 7}
    assert Settings(str(path)).max_lines == 7
    _, lines = run(shell, capsys, "%opscope")
    assert any(re.match(r"max_lines\s+7\s+\(saved\)", line) for line in lines)
    with pytest.raises(UsageError, match="max_lines"):
        shell.run_line_magic("opscope", "max_lines=-1")
    with pytest.raises(UsageError, match="expected name=value"):
        shell.run_line_magic("opscope", "colour=never")
    shell.run_line_magic("opscope", "--reset")
    assert not path.exists()


def test_a_broken_settings_file_is_reported_not_fatal(tmp_path):
    path = tmp_path / "interactive.json"
    path.write_text("{not json")
    s = Settings(str(path))
    assert s.views == "summary" and "interactive.json" in s.load_problem


def test_magic_help(shell, capsys):
    shell.run_cell("%trace?", store_history=False)
    out = capsys.readouterr().out
    assert "The dispatch tree" in out and "%%trace" in out


def test_configure_refuses_unknown_settings(shell):
    with pytest.raises(TypeError, match="unknown setting"):
        oi.configure(colour="never")
    with pytest.raises(ValueError, match="expected one of"):
        oi.configure(views="everything")


def test_unloading_stops_recording(shell, capsys):
    shell.run_cell("%unload_ext opscope.interactive", store_history=False)
    _, lines = run(shell, capsys, "c = a @ b")
    assert lines == []
    with pytest.raises(RuntimeError, match="not loaded"):
        oi.last()
    shell.run_cell("%load_ext opscope.interactive", store_history=False)
    oi.configure(color="never", renderer="text")
    _, lines = run(shell, capsys, "c = a @ b")
    assert len(lines) == 1


def test_no_recording_leaks_into_a_plain_trace(shell, capsys):
    """A user's own opscope.trace() inside a line sees only its block."""
    run(shell, capsys, "with torch.trace() as t:\n    y = x + 1\nz = x * 2")
    assert [op.name for op in shell.user_ns["t"].roots] == ["aten::add.Tensor"]
    assert [r.name for r in oi.last().roots] == ["aten::add.Tensor", "aten::mul.Tensor"]


def test_environment_has_no_stray_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    from opscope.interactive._settings import config_path
    assert config_path() == os.path.join(str(tmp_path), "opscope", "interactive.json")


def test_a_cell_running_cells_is_one_execution(shell, capsys):
    _, lines = run(shell, capsys, "get_ipython().run_cell('y = x + 1')\nz = x * 2")
    assert [line.split("(")[0] for line in lines] == ["add", "mul"]
    assert [r.name for r in oi.last().roots] == ["aten::add.Tensor", "aten::mul.Tensor"]


def test_a_failing_view_is_reported_once_and_the_session_goes_on(shell, capsys, monkeypatch):
    def broken(execution):
        raise ValueError("drawing failed")
    monkeypatch.setattr(oi._frontend.session, "show", broken)
    result = shell.run_cell("c = a @ b", store_history=False)
    result2 = shell.run_cell("c = a @ b", store_history=False)
    err = capsys.readouterr().err
    assert result.success and result2.success
    assert err.count("opscope: the view after this execution failed (ValueError: drawing "
                     "failed)") == 1


def test_record_off_costs_nothing_and_says_so(shell, capsys):
    before = oi.history()
    shell.run_line_magic("opscope", "--session record=off")
    _, lines = run(shell, capsys, "c = a @ b")
    assert lines == [] and oi.history() == before
    assert oi.frontend().session._recorder is None
    oi.frontend().session.history.clear()
    with pytest.raises(UsageError, match="recording is off"):
        shell.run_line_magic("trace", "")
