#!/usr/bin/env bash
# `make test-sanitize`: builds opscope with AddressSanitizer + UndefinedBehaviorSanitizer in its own
# build folder and runs the C++ (ctest) and Python (pytest) suites under it. Any sanitizer report
# fails the run. See tests/sanitize/README.md.
#
# Usage: tests/sanitize/run.sh [cpp|python|all] [pytest arguments...]
#   SANITIZE_BUILD_DIR   the build folder (default build-sanitize)
#   JOBS                 parallel compile jobs (default nproc)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${SANITIZE_BUILD_DIR:-build-sanitize}
what=${1:-all}
[ $# -gt 0 ] && shift
python=/usr/bin/python3

# The build: OPSCOPE_SANITIZE (cmake/OpscopeSanitize.cmake), in its own folder.
test -f "$build/CMakeCache.txt" || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPython_EXECUTABLE=$python -DOPSCOPE_SANITIZE=ON -DOPSCOPE_CUDA=OFF
start=$(date +%s)
cmake --build "$build" -j"${JOBS:-$(nproc)}"
echo "test-sanitize: build took $(($(date +%s) - start)) s"
build=$(cd "$build" && pwd)

# The runtimes' options. halt_on_error makes the first report fail the test that hit it (and the
# run). allocator_may_return_null: tests ask for TiB-sized tensors and expect a Python error, not
# ASan's "requested allocation size exceeds maximum".
asan_options=allocator_may_return_null=1:halt_on_error=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:report_error_type=1
export LSAN_OPTIONS=suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0

# Reports go to files too: pytest captures a test's stderr, and a report that halts the process
# would die with the capture. They are printed at the end.
reports=$root/$(basename "$build")-reports
rm -rf "$reports" && mkdir -p "$reports"
export UBSAN_OPTIONS=$UBSAN_OPTIONS:log_path=$reports/ubsan
asan_options=$asan_options:log_path=$reports/asan

status=0
if [ "$what" = cpp ] || [ "$what" = all ]; then
  start=$(date +%s)
  ASAN_OPTIONS=$asan_options:detect_leaks=1 ctest --test-dir "$build" --output-on-failure || status=1
  echo "test-sanitize: C++ suite took $(($(date +%s) - start)) s"
fi
if [ "$what" = python ] || [ "$what" = all ]; then
  # Python is not sanitized: its process must load the sanitizer runtimes before anything else
  # (ASan has to see every malloc from the start), so they are preloaded. PYTHONMALLOC=malloc
  # sends Python's objects through malloc too, where ASan sees an overrun of a Python buffer.
  # Leaks are not checked here (the C++ suite checks them): CPython leaves blocks unreachable at
  # exit, and every allocation's stack runs through Python's frames, so no suppression can tell
  # its leaks from opscope's. SANITIZE_PYTHON_LEAKS=1 checks them anyway (see lsan.supp).
  asan=$(gcc -print-file-name=libasan.so)
  ubsan=$(gcc -print-file-name=libubsan.so)
  start=$(date +%s)
  ASAN_OPTIONS=$asan_options:detect_leaks=${SANITIZE_PYTHON_LEAKS:-0} \
  LD_PRELOAD="$asan $ubsan" PYTHONMALLOC=malloc \
    PYTHONPATH="$root/core/python:$build/python" \
    $python -m pytest -q -p no:cacheprovider tests/python "$@" \
    --deselect tests/python/test_leaks.py::test_memory_stays_flat || status=1
  # (test_leaks measures RSS growth: ASan's quarantine of freed memory grows it by design.)
  echo "test-sanitize: Python suite took $(($(date +%s) - start)) s"
fi
# ASan's "failed to allocate" warnings are the TiB-sized tests working as meant: not reports.
for f in "$reports"/*; do
  [ -e "$f" ] || continue
  if grep -q "ERROR\|runtime error" "$f"; then
    echo "== sanitizer report: $f"; cat "$f"; status=1
  fi
done
exit $status
