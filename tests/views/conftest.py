"""tests/views: the views as the front ends show them (README.md in snapshot/). The helpers
(programs.py, sanitizers.py) are imported from this folder."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
