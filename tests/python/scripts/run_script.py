"""Runs one script of this folder and prints a JSON line with its RESULT and its stdout; with
--torch, runs it on PyTorch instead (the text's `opscope` becomes `torch`), which is how
make_torch_reference_scripts.py records what torch does.

    /usr/bin/python3 tests/python/scripts/run_script.py tiny_gpt.py [--torch]
"""
import contextlib
import io
import json
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
name = sys.argv[1]
with open(os.path.join(here, name)) as f:
    text = f.read()
if "--torch" in sys.argv:
    text = text.replace("opscope", "torch")
out = io.StringIO()
scope = {"__name__": "__main__", "__file__": os.path.join(here, name)}
start = time.perf_counter()
with contextlib.redirect_stdout(out):
    exec(compile(text, name, "exec"), scope)
seconds = time.perf_counter() - start
print(json.dumps({"result": scope.get("RESULT"), "stdout": out.getvalue(), "seconds": seconds}))
