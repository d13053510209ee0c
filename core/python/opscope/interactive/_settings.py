"""The interactive front ends' settings: what the view after each line or cell shows, and the
bounds on what is recorded. ``%opscope`` shows and changes them; they persist in a small JSON file
under the user's config directory, and a front end (``opscope --no-views``, the kernel asking for
HTML) may override them for its session only.

    >>> from opscope.interactive._settings import Settings
    >>> s = Settings(path=None)
    >>> s.views, s.set("views", "tree"), s.views
    ('summary', None, 'tree')
"""
import json
import os

__all__ = ["Settings", "SETTINGS", "VIEWS", "config_path"]

# What the default view after each execution can be.
VIEWS = ("off", "summary", "tree", "stack", "profile")


class _Setting:
    """One setting: its default, how text becomes its value, and what it means (for %opscope)."""

    def __init__(self, default, parse, help, choices=None):
        self.default = default
        self.parse = parse
        self.help = help
        self.choices = choices


def _bool(text):
    if isinstance(text, bool):
        return text
    word = str(text).strip().lower()
    if word in ("on", "true", "yes", "1"):
        return True
    if word in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"expected on or off, got {text!r}")


def _count(text):
    n = int(text)
    if n < 0:
        raise ValueError(f"expected a count ≥ 0, got {n}")
    return n


def _width(text):
    n = int(text)
    if n != 0 and n < 40:
        raise ValueError(f"expected 0 (the terminal's width) or a width ≥ 40, got {n}")
    return n


def _choice(*choices):
    def parse(text):
        word = str(text).strip().lower()
        if word not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}, got {text!r}")
        return word
    return parse


SETTINGS = {
    "views": _Setting("summary", _choice(*VIEWS),
                      "what is shown after each line or cell that ran ops", VIEWS),
    "record": _Setting(True, _bool, "record each execution's ops (off: no views, no _trace, "
                       "no cost; on / off)"),
    "stacks": _Setting(True, _bool, "record call stacks at kernels, for %stack (on / off)"),
    "memory": _Setting(True, _bool, "record allocations and frees (on / off)"),
    "max_lines": _Setting(20, _count,
                          "lines of the view before a loop is folded into distinct paths"),
    "slow_ms": _Setting(100.0, float, "items slower than this many ms are marked in the view"),
    "history": _Setting(10, _count, "executions kept for opscope.interactive.history()"),
    "max_events": _Setting(500_000, _count,
                           "events recorded per execution; past it ops are only counted "
                           "(0: no bound)"),
    "max_stacks": _Setting(2_000, _count, "stacks recorded per execution (0: no bound)"),
    "width": _Setting(0, _width, "columns of text views (0: the terminal's)"),
    "color": _Setting("auto", _choice("auto", "always", "never"),
                      "colour in text views (auto: on a terminal, unless NO_COLOR is set)",
                      ("auto", "always", "never")),
    "renderer": _Setting("auto", _choice("auto", "text", "html"),
                         "how views are drawn (auto: HTML in Jupyter, text in a terminal)",
                         ("auto", "text", "html")),
}


def config_path():
    """$XDG_CONFIG_HOME/opscope/interactive.json (~/.config/... by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "opscope", "interactive.json")


class Settings:
    """The settings in effect: the defaults, overridden by the saved file, overridden by the
    session's own (never saved). ``set`` saves; ``override`` does not."""

    def __init__(self, path=None):
        self.path = path
        self._saved = {}
        self._session = {}
        self.load_problem = None  # why the saved file could not be read, if it could not
        if path is not None:
            self._load()

    def _load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            self.load_problem = f"{self.path}: {e}"
            return
        if not isinstance(data, dict):
            self.load_problem = f"{self.path}: expected a JSON object"
            return
        for name, value in data.items():
            if name in SETTINGS:
                try:
                    self._saved[name] = SETTINGS[name].parse(value)
                except (TypeError, ValueError) as e:
                    self.load_problem = f"{self.path}: {name}: {e}"

    def __getattr__(self, name):
        if name.startswith("_") or name not in SETTINGS:
            raise AttributeError(name)
        return self.get(name)

    def get(self, name):
        self._check(name)
        for layer in (self._session, self._saved):
            if name in layer:
                return layer[name]
        return SETTINGS[name].default

    def source(self, name):
        """Where a setting's value comes from: "session", "saved" or "default"."""
        if name in self._session:
            return "session"
        return "saved" if name in self._saved else "default"

    @staticmethod
    def _check(name):
        if name not in SETTINGS:
            raise KeyError(f"no setting {name!r}; the settings are {', '.join(SETTINGS)}")

    def set(self, name, value):
        """Sets and saves one setting (a session override of it ends)."""
        self._check(name)
        self._saved[name] = SETTINGS[name].parse(value)
        self._session.pop(name, None)
        self._save()

    def override(self, name, value):
        """Sets one setting for this session only."""
        self._check(name)
        self._session[name] = SETTINGS[name].parse(value)

    def reset(self):
        """Back to the defaults (the saved file is removed; session overrides stay)."""
        self._saved.clear()
        if self.path is not None and os.path.exists(self.path):
            os.remove(self.path)

    def _save(self):
        if self.path is None:
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self._saved, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, self.path)

    def table(self):
        """The settings as text, one per line: name, value, where it comes from, what it means."""
        rows = []
        for name, s in SETTINGS.items():
            value = self.get(name)
            shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
            source = self.source(name)
            rows.append((name, shown, "" if source == "default" else f"({source})", s.help))
        w0 = max(len(r[0]) for r in rows)
        w1 = max(len(r[1]) for r in rows)
        w2 = max(len(r[2]) for r in rows)
        lines = [f"{a:<{w0}}  {b:<{w1}}  {c:<{w2}}  {d}".rstrip() for a, b, c, d in rows]
        where = self.path or "(not saved)"
        return "\n".join(lines + [f"saved in {where}"])
