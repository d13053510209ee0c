"""Records what the tutorial-shaped scripts in scripts/ print and return under PyTorch 1.13, into
data/scripts_torch.json (test_scripts.py runs them on opscope and compares). Run with Debian's
Python, which has torch:

    /usr/bin/python3 tests/python/make_torch_reference_scripts.py
"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
records = {}
for path in sorted(glob.glob(os.path.join(HERE, "scripts", "*.py"))):
    name = os.path.basename(path)
    if name == "run_script.py":
        continue
    run = subprocess.run([sys.executable, os.path.join(HERE, "scripts", "run_script.py"), name, "--torch"],
                         capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if run.returncode != 0:
        sys.exit(f"{name} failed under torch:\n{run.stderr}")
    records[name] = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"{name}: {records[name]['seconds']:.1f} s")
with open(os.path.join(HERE, "data", "scripts_torch.json"), "w") as f:
    json.dump(records, f, indent=1)
