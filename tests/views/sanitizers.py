"""The front ends' sanitizers, run for real on our views, and what a reader sees after them.

``sanitize(html_list, mode)`` runs the sanitizer classic Notebook 6.4 ships (Debian's
python3-notebook: notebook/static/components/sanitizer/index.js, JupyterLab's Sanitizer over
sanitize-html, bundled) under Node (sanitize.js), with the options of an untrusted output:
"classic" as security.js calls it (no style attributes at all), "lab" with JupyterLab's
defaults (style attributes with allowed properties). ``read(html)`` lays sanitized HTML out as
text the way a page without our style sheet shows it (block elements on lines of their own),
and reports text of two elements glued together ("8.96 msmatmul").
"""
import json
import os
import shutil
import subprocess
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = "/usr/lib/python3/dist-packages/notebook/static/components/sanitizer/index.js"
SECURITY_JS = "/usr/lib/python3/dist-packages/notebook/static/base/js/security.js"
MODES = ("classic", "lab")


def missing():
    """Why the sanitizers cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed (tools/setup.sh installs nodejs)"
    if not os.path.exists(BUNDLE):
        return "classic Notebook's sanitizer is not installed (python3-notebook)"
    return None


def sanitize(html_list, mode):
    """Each HTML string as the front end shows it in an untrusted notebook."""
    assert mode in MODES
    request = json.dumps({"bundle": BUNDLE, "mode": mode, "html": list(html_list)})
    done = subprocess.run(["node", os.path.join(HERE, "sanitize.js")], input=request,
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


_BLOCKS = {"div", "p", "li", "ul", "ol", "details", "summary", "table", "thead", "tbody", "tr",
           "pre", "br", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "img"}
_CELLS = {"td", "th"}


class Reading(HTMLParser):
    """Sanitized HTML as lines of text (`lines`), with `glued`: places where the text of two
    elements meets with no space between two letters or digits. An <img> reads as its alt
    text in brackets and counts in `images`."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.lines, self.glued, self.images, self.tags = [""], [], [], []
        self._boundary = False
        self._pre = 0
        self._cell = 0
        self.feed(html)
        self.close()
        self.lines = [line.rstrip() for line in self.lines if line.strip()]

    def _newline(self):
        if self.lines[-1].strip():
            self.lines.append("")
        self._boundary = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "pre":
            self._pre += 1
        if tag in _CELLS:
            self._cell += 1
        if tag in _BLOCKS and not (self._cell and tag == "div"):
            self._newline()
        elif tag in _CELLS:
            if self.lines[-1].strip():
                self.lines[-1] += " | "
            self._boundary = False
        else:
            self._boundary = True
        if tag == "img":
            attrs = dict(attrs)
            self.images.append(attrs.get("src", ""))
            self.lines[-1] += f"[image: {attrs.get('alt', '')}]"
            self._newline()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "pre":
            self._pre -= 1
        if tag in _CELLS:
            self._cell -= 1
        if tag in _BLOCKS and not (self._cell and tag == "div"):
            self._newline()
        else:
            self._boundary = True

    def handle_data(self, data):
        if self._pre:
            parts = data.split("\n")
            self.lines[-1] += parts[0]
            for p in parts[1:]:
                self.lines.append(p)
            return
        if not data:
            return
        words = " ".join(data.split())
        data = (" " if data[0].isspace() else "") + words + (
            " " if data[-1].isspace() and words else "")
        line = self.lines[-1]
        if self._boundary and line and line[-1].isalnum() and data[0].isalnum():
            self.glued.append(line[-20:] + "|" + data[:20])
        self.lines[-1] = line + data
        self._boundary = False

    def text(self):
        return "\n".join(self.lines)


def read(html):
    return Reading(html)
