"""The Jupyter protocol as jupyter_kernel_test checks it (Debian's python3-jupyter-kernel-test),
and the per-cell view as a kernel message.

XopscopeKernelTests runs the suite with the per-cell view off (XOPSCOPE_VIEWS=off): the suite
counts a cell's output messages, and a cell that runs ops gains one (kernel-pitfalls.md, 15).
XopscopeViewsTests runs the same suite with the views on — none of its samples runs an opscope
op, so none may gain a message — and adds what the view is: exactly one display_data after a
cell that ran ops, with text/plain, text/html and application/vnd.opscope.trace+json, after the
cell's own outputs; nothing after a cell without ops.
"""
import json
import os

import jupyter_kernel_test
from jupyter_client.manager import start_new_kernel

from kerneltests import kernel_environment, pytestmark  # noqa: F401 (the fixture, the skip)

VIEW_MIME = "application/vnd.opscope.trace+json"


class XopscopeKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "xopscope"
    views = "off"

    @classmethod
    def setUpClass(cls):
        env = dict(os.environ, XOPSCOPE_VIEWS=cls.views)
        cls.km, cls.kc = start_new_kernel(kernel_name=cls.kernel_name, env=env,
                                          startup_timeout=60)

    language_name = "python"
    file_extension = ".py"

    code_hello_world = "print('hello, world')"
    code_stderr = "import sys; print('to stderr', file=sys.stderr)"

    completion_samples = [
        {"text": "zi", "matches": {"zip"}},
        # opscope is in the namespace (the session layer imports it), as torch after an import.
        {"text": "opscope.matm", "matches": {"matmul"}},
    ]

    complete_code_samples = ["1", "print('hello, world')", "def f(x):\n  return x*2\n\n\n",
                             "import opscope; opscope.ones(2)"]
    incomplete_code_samples = ["print('''hello", "def f(x):\n  x*1"]
    invalid_code_samples = ["import = 7q"]

    code_page_something = "zip?"

    code_generate_error = "raise ValueError('the expected error')"

    code_execute_result = [
        {"code": "1+2+3", "result": "6"},
        {"code": "[n*n for n in range(1, 4)]", "result": "[1, 4, 9]"},
        {"code": "import opscope; opscope.__name__", "result": "'opscope'"},
    ]

    code_display_data = [
        {"code": "from IPython.display import HTML, display; display(HTML('<b>test</b>'))",
         "mime": "text/html"},
        {"code": "from IPython.display import Math, display; display(Math('\\\\frac{1}{2}'))",
         "mime": "text/latex"},
    ]

    code_history_pattern = "1?2*"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "zip"

    code_clear_output = "from IPython.display import clear_output; clear_output()"

    # --- beyond the suite ------------------------------------------------------------------

    def test_kernel_info_names_the_python_that_runs(self):
        import platform  # noqa: PLC0415
        self.flush_channels()
        self.kc.kernel_info()
        info = self.get_non_kernel_info_reply_of("kernel_info_reply")["content"]
        lang = info["language_info"]
        self.assertEqual(lang["version"], platform.python_version())
        self.assertEqual(lang["codemirror_mode"], {"name": "ipython", "version": 3})
        self.assertEqual(lang["pygments_lexer"], "ipython3")
        self.assertEqual(lang["nbconvert_exporter"], "python")
        self.assertEqual(info["implementation"], "xopscope")

    def test_error_names_the_class(self):
        self.flush_channels()
        reply, outputs = self.execute_helper("1/0")
        self.assertEqual(reply["content"]["ename"], "ZeroDivisionError")
        errors = [m for m in outputs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertEqual(errors[0]["content"]["ename"], "ZeroDivisionError")
        self.assertTrue(any("ZeroDivisionError" in line
                            for line in errors[0]["content"]["traceback"]))

    def test_a_cell_with_ops_has_a_view_unless_off(self):
        self.flush_channels()
        reply, outputs = self.execute_helper(
            "import opscope\nc = opscope.ones(2, 3) @ opscope.ones(3, 4)")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(len(outputs), 0 if self.views == "off" else 1)

    def get_non_kernel_info_reply_of(self, msg_type):
        while True:
            reply = self.kc.get_shell_msg(timeout=jupyter_kernel_test.TIMEOUT)
            if reply["header"]["msg_type"] == msg_type:
                return reply


class XopscopeViewsTests(XopscopeKernelTests):
    views = "on"

    def views_of(self, outputs):
        return [m for m in outputs
                if m["msg_type"] == "display_data" and VIEW_MIME in m["content"]["data"]]

    def test_view_after_a_cell_with_ops(self):
        self.flush_channels()
        reply, outputs = self.execute_helper(
            "import opscope\n"
            "a = opscope.ones(2, 3, requires_grad=True)\n"
            "print('before the view')\n"
            "b = a @ opscope.ones(3, 4)\n"
            "b.shape")
        self.assertEqual(reply["content"]["status"], "ok")
        kinds = [m["msg_type"] for m in outputs]
        # The cell's own outputs first, then exactly one view.
        self.assertEqual(kinds[-1], "display_data", kinds)
        self.assertIn("stream", kinds)
        self.assertIn("execute_result", kinds)
        views = self.views_of(outputs)
        self.assertEqual(len(views), 1)
        self.assertEqual(len([k for k in kinds if k == "display_data"]), 1)
        data = views[0]["content"]["data"]
        self.assertEqual(set(data), {"text/plain", "text/html", VIEW_MIME})
        self.assertIn("matmul", data["text/plain"])
        self.assertIn("mm[CPU]", data["text/plain"])
        self.assertIn("matmul", data["text/html"])
        self.assertNotIn("<script", data["text/html"].lower())
        self.assertNotIn("http://", data["text/html"])
        # The data is JSON (a dict as Jupyter sends a JSON mime type), naming the ops.
        view = data[VIEW_MIME]
        self.assertIsInstance(view, dict)
        self.assertIn("matmul", json.dumps(view))

    def test_no_view_after_a_cell_without_ops(self):
        self.flush_channels()
        reply, outputs = self.execute_helper("x = [1, 2, 3]\nprint(len(x))")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(self.views_of(outputs), [])
        self.assertEqual({m["msg_type"] for m in outputs}, {"stream"})

    def test_view_follows_the_error(self):
        self.flush_channels()
        reply, outputs = self.execute_helper(
            "import opscope\nc = opscope.ones(2) + opscope.ones(2)\nraise ValueError('late')")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "ValueError")
        kinds = [m["msg_type"] for m in outputs]
        self.assertEqual(kinds, ["error", "display_data"])
        self.assertEqual(len(self.views_of(outputs)), 1)

    def test_magics_draw_html(self):
        self.flush_channels()
        self.execute_helper("import opscope\n"
                            "a = opscope.ones(2, 3, requires_grad=True)\n"
                            "loss = (a @ opscope.ones(3, 4)).sum()")
        for magic, needle in (("%trace", "mm"), ("%profile", "aten::mm"),
                              ("%graph loss", "svg"), ("%dispatch mm", "CPU"),
                              ("%stack mm", "mm")):
            with self.subTest(magic=magic):
                reply, outputs = self.execute_helper(magic)
                self.assertEqual(reply["content"]["status"], "ok", reply["content"])
                html = [m["content"]["data"]["text/html"] for m in outputs
                        if m["msg_type"] == "display_data"
                        and "text/html" in m["content"]["data"]]
                self.assertTrue(html, [m["msg_type"] for m in outputs])
                self.assertIn(needle, "".join(html))
