"""Every text view at 80 and 120 columns and at the notebook's width: each line fits, and what
identifies a call is never cut — each op's name with its shapes, each key, each kernel's last
name, each frame's file:line (abbreviated in the middle at most)."""
import re

import pytest

import programs
from opscope.profiler import _stack, _textview, _views, _views_text

WIDTHS = (80, 120, _textview.NOTEBOOK_COLUMNS)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def traces():
    return {"matmul": programs.matmul(), "step": programs.training_step(),
            "loop": programs.loop(300), "failing": programs.failing(),
            "scopes": programs.scopes()}


def _fits(text, width):
    for line in text.splitlines():
        assert len(ANSI.sub("", line)) <= width, (width, line)


def _words(text):
    """The text with wrapped lines joined: what a reader reads across the wrap."""
    return " ".join(line.strip(" │├└─") for line in text.splitlines())


@pytest.mark.parametrize("width", WIDTHS)
def test_tree_fits_and_cuts_nothing(traces, width):
    for name, t in traces.items():
        for color in (False, True):
            _fits(t.tree(width=width, color=color), width)
        text = str(t.tree(width=width))
        joined = _words(text)
        for op in t.ops[:200]:
            assert op.signature() in joined or op.signature().split("(")[0] + "(" in text, \
                (name, op.signature())
            for step in op.steps:
                assert step.label in joined, (name, step.label)
                assert step.kernel.rsplit("::", 1)[-1] in joined, (name, step.kernel)
                for key, _, _ in _views.key_marks(op, step):
                    assert key in joined, (name, key)
        assert "…" not in re.sub(r"… \(\d+ more\)|…::|::…|/…/|…/|\(…\)|<…>", "", text), name


@pytest.mark.parametrize("width", WIDTHS)
def test_legend_fits_and_says_the_html_legend(traces, width):
    text = str(traces["matmul"].tree(width=width))
    _fits(text, width)
    legend = _words(text[text.index("• call"):])
    assert legend == _views_text.LEGEND
    html = traces["matmul"]._repr_html_()
    for _, words in _views.LEGEND:
        assert f" {words}" in html and f" {words}" in _views_text.LEGEND


@pytest.mark.parametrize("width", WIDTHS + (60,))
def test_stack_table_fits_and_keeps_file_and_line(traces, width):
    stack = traces["matmul"].stack("aten::mm")
    text = str(stack.table(width=width))
    _fits(text, width)
    for row in _stack.table_rows(stack.frames):
        loc = _stack.row_location(row)
        if ":" in loc:  # a file:line (a module name alone may be cut)
            assert loc.rsplit("/", 1)[-1] in text, (width, loc)
        if row[0] == "frame":
            last = _stack._top_level_parts(_stack.row_name(row))[-1]
            assert last[:12] in text, (width, last)


def test_default_width_follows_the_terminal_or_the_notebook(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert _textview.text_width() == 80
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(_textview, "_in_notebook", lambda: True)
    assert _textview.text_width() == _textview.NOTEBOOK_COLUMNS


def test_text_views_display_themselves(traces):
    t = traces["matmul"]
    view = t.tree(width=100)
    assert isinstance(view, str) and str(view) == view and "\x1b[" not in view
    assert repr(view) == str(view)                     # typed at a prompt: the text itself
    assert "<pre" in view._repr_html_()                # in a notebook: HTML
    colored = t.tree(width=100, color=True)
    assert ANSI.search(colored) and ANSI.sub("", colored) == view
    table = t.stack("aten::mm").table(width=100)
    assert repr(table) == str(table) and "<table" in table._repr_html_()
    printed = []

    class _Printer:  # IPython's pretty printer, as a terminal shell calls it
        def text(self, s):
            printed.append(s)

    view._repr_pretty_(_Printer(), False)
    assert printed[0] in (str(view), view._ansi())
