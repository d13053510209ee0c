"""What a text view returns: a ``str`` that also shows itself.

``t.tree()``, ``s.table()`` and the profile's ``table()`` return a TextView: a plain ``str``
(``print()`` it, search it, write it to a file) that, typed at a prompt, shows itself instead of
its quoted repr — in colour in a terminal IPython, as HTML in a notebook. ``text_width()`` is
the width text views fit when none is given.

>>> from opscope.profiler._textview import TextView
>>> v = TextView("a\\nb")
>>> v
a
b
>>> v + "c"
'a\\nbc'
"""
import os
import shutil
import sys

__all__ = ["TextView", "text_width", "NOTEBOOK_COLUMNS"]

# The width of text views in a notebook, whose width the kernel cannot know: what classic
# Notebook's output area holds at a 1280×720 projector at 150 % zoom (measured in
# tests/views/snapshot's screenshots: about 71 columns of its 14 px monospace; JupyterLab's is
# wider). Set COLUMNS to choose another.
NOTEBOOK_COLUMNS = 70


def _in_notebook():
    """Whether this runs in a Jupyter kernel (its shell is not a terminal's)."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None) if ipython is not None else None
    shell = get() if get is not None else None
    return shell is not None and type(shell).__name__ not in ("TerminalInteractiveShell",
                                                               "InteractiveShellEmbed")


def text_width(width=None):
    """`width`, or the columns text views fit: COLUMNS when set, NOTEBOOK_COLUMNS in a notebook,
    else the terminal's width (80 when there is no terminal)."""
    if width is not None:
        return max(int(width), 20)
    if "COLUMNS" in os.environ:
        try:
            return max(int(os.environ["COLUMNS"]), 20)
        except ValueError:
            pass
    if _in_notebook():
        return NOTEBOOK_COLUMNS
    return max(shutil.get_terminal_size((80, 24)).columns, 20)


def _color_terminal():
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


class TextView(str):
    """A text view: the str is the plain text; `html` (a function) gives the HTML a notebook
    shows, `ansi` (a function) the coloured text a terminal IPython shows."""

    def __new__(cls, text, html=None, ansi=None):
        view = super().__new__(cls, text)
        view._html, view._ansi = html, ansi
        return view

    def __repr__(self):
        return str.__str__(self)

    def _repr_pretty_(self, p, cycle):
        p.text(self._ansi() if self._ansi is not None and _color_terminal() else
               str.__str__(self))

    def _repr_html_(self):
        if self._html is not None:
            return self._html()
        from opscope.profiler import _html
        return _html.text_html(str.__str__(self))
