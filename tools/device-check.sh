#!/usr/bin/env bash
# device-check.sh — builds opscope with CUDA on a GPU machine that lacks our Debian packages (the
# lent machine: Python 3.12 venv with PyTorch, numpy, pytest, pybind11; nvcc 13; CMake; ninja),
# runs the CUDA tests (C++ and Python) and prints a short GPU-vs-torch comparison.
#
#   bash tools/device-check.sh            # from the repository root; output under $OUT if set
#
# The Debian packages CMake looks for (OpenBLAS, SLEEF, elfutils libdw, libunwind's header,
# nlohmann_json, doctest, dlpack) come as .deb files in .devdeps/debs/ (not committed; ~10 MB;
# `/.devdeps/` in .git/info/exclude; the device tool carries it: run(carry=[".devdeps"])),
# fetched on a Debian 12 machine with
#   mkdir -p .devdeps/debs && cd .devdeps/debs && apt-get download libopenblas0-pthread \
#     libgfortran5 libquadmath0 nlohmann-json3-dev doctest-dev libdw-dev libdw1 libelf1 \
#     libelf-dev libsleef3 libsleef-dev libunwind-dev libunwind8 libdlpack-dev
# They are unpacked into a prefix (without dpkg) and the tools are pointed at it the standard way:
# CMAKE_PREFIX_PATH for CMake's find_*, CPATH for headers included directly, LD_LIBRARY_PATH for
# the shared libraries at link and run time.
#
# Seen on the lent H200 (2026-11-27, four runs of ~150-170 s each): configure and the whole
# build (-j16, extension for Python 3.12 and pybind11 3 included) take ~105 s; the image's g++ 13
# finds no libstdc++.so (only libstdc++.a), which CMakeLists.txt handles (Note [One libstdc++ in
# the process]: without it every C++ error message crashed once NumPy or PyTorch was loaded);
# the CUDA test files run in ~15 s under pytest-xdist (-n 8); bench_cuda takes ~20 s.
# Seen on the lent H200 (2026-11-27, stop 35, three runs): its GCC 13 stopped with an internal
# compiler error in the target_clones pass on binary_math.cpp (mended in the code; the rebuild
# with OPSCOPE_NO_CLONES below is the fallback); the build took ~115 s; compute-sanitizer over all
# 14 kernel test files (SANITIZE_K=all, 10 jobs) took ~80 s, racecheck on test_cuda_ops.py the
# longest (65 s).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-/opt/torch/.venv/bin/python}
[ -x "$PY" ] || PY=$(command -v python3)
BUILD=${BUILD:-build-cuda-dev}
PREFIX=${DEVDEPS_PREFIX:-/tmp/opscope-devdeps}
OUT=${OUT:-/tmp/opscope-device-check}
mkdir -p "$OUT"
step() { printf '\n=== %s (%ss)\n' "$1" "$SECONDS"; }

step "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4
"$PY" -c "import sys, torch, numpy; print(sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'numpy', numpy.__version__)"
nvcc --version 2>/dev/null | tail -1 || /usr/local/cuda/bin/nvcc --version | tail -1
cmake --version | head -1

step "unpacking .devdeps/debs into $PREFIX"
"$PY" - "$PREFIX" .devdeps/debs/*.deb <<'EOF'
# A .deb is an ar archive holding data.tar.*: unpack each one's data into the prefix (no dpkg).
import io, os, sys, tarfile
prefix, debs = sys.argv[1], sys.argv[2:]
os.makedirs(prefix, exist_ok=True)
for deb in debs:
    blob = open(deb, "rb").read()
    assert blob[:8] == b"!<arch>\n", deb
    pos = 8
    while pos < len(blob):
        name = blob[pos:pos + 16].decode().strip().rstrip("/")
        size = int(blob[pos + 48:pos + 58].decode().strip())
        body = blob[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                tar.extractall(prefix, filter="tar") if hasattr(tarfile, "data_filter") \
                    else tar.extractall(prefix)
print(len(debs), "packages")
EOF
LIBDIR=$PREFIX/usr/lib/x86_64-linux-gnu
# Debian reaches libopenblas.so.0 through the alternatives system, which unpacking does not run:
# put it where find_library looks.
[ -e "$LIBDIR/libopenblas.so.0" ] || ln -sf openblas-pthread/libopenblas.so.0 "$LIBDIR/libopenblas.so.0"
# Headers found by #include alone (dlpack.h): through the compilers' standard search path.
export CPATH=$PREFIX/usr/include${CPATH:+:$CPATH}
export LD_LIBRARY_PATH=$LIBDIR:$LIBDIR/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

step "configure"
PYVER=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
# -O2 without -g: the same code as a release build, compiled faster.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_CUDA_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DOPSCOPE_TESTS=OFF \
  -DPython_EXECUTABLE="$PY" -DOPSCOPE_PYTHON_VERSION="$PYVER" \
  -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" \
  -DCMAKE_PREFIX_PATH="$PREFIX/usr" -DOPSCOPE_CUDA=ON -DOPSCOPE_REPL=OFF -DOPSCOPE_KERNEL=OFF \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
  > "$OUT/configure.log" 2>&1
rc=$?
grep -E "opscope|SLEEF|Stacks|Error|error" "$OUT/configure.log" | head -20
[ $rc -eq 0 ] || { tail -30 "$OUT/configure.log"; exit 1; }

step "build"
timeout "${BUILD_TIMEOUT:-400}" cmake --build "$BUILD" -j"$(nproc)" --target opscope_python -- -k 0 \
  > "$OUT/build.log" 2>&1
rc=$?
grep -E "error|warning: " "$OUT/build.log" | head -30
# GCC 13 (the lent machine's) once stopped with an internal compiler error in its target_clones
# pass (binary_math.cpp, 2026-11-27): then build again without the vector clones
# (OPSCOPE_NO_CLONES: baseline x86-64 code for the CPU loops; the GPU work is the same).
if [ $rc -ne 0 ] && grep -q "internal compiler error" "$OUT/build.log"; then
  echo "internal compiler error: building again with -DOPSCOPE_NO_CLONES"
  cmake "$BUILD" -DCMAKE_CXX_FLAGS=-DOPSCOPE_NO_CLONES > /dev/null
  timeout "${BUILD_TIMEOUT:-400}" cmake --build "$BUILD" -j"$(nproc)" --target opscope_python -- -k 0 \
    > "$OUT/build.log" 2>&1
  rc=$?
  grep -E "error" "$OUT/build.log" | head -10
fi
[ $rc -eq 0 ] || { tail -30 "$OUT/build.log"; exit 1; }
echo "built"
# Note [One libstdc++ in the process] (CMakeLists.txt): the core must load libstdc++.so.6, not
# carry pieces of libstdc++.a.
echo "libstdc++.so as the compiler finds it: $(c++ -print-file-name=libstdc++.so)"
readelf -d "$BUILD/python/opscope/libopscope_core.so" | grep -o "Shared library: \[libstdc++[^]]*\]"
echo "libstdc++ functions defined in libopscope_core.so: $(nm -DC --defined-only \
  "$BUILD/python/opscope/libopscope_core.so" | grep -cE 'std::(codecvt|locale|basic_ostream)')"

export PYTHONPATH=$ROOT/core/python:$ROOT/$BUILD/python
step "C++ tests (CUDA allocator)"
# The allocator's bookkeeping and the kernels' geometry need no other part of opscope: built
# here on their own with doctest's main (the whole C++ suite is the main build's).
printf '#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n' > /tmp/dc-main.cpp
g++ -std=c++20 -O1 -I. -I"$PREFIX/usr/include" /tmp/dc-main.cpp core/cuda/host/*.cpp \
  tests/cpp/test_cuda_allocator.cpp -o /tmp/dc-test_cuda_allocator && /tmp/dc-test_cuda_allocator 2>&1 | tail -3

step "smoke: each probe in its own process, so a crash names its step"
probe() {
  echo "--- $1"
  timeout 90 "$PY" -X faulthandler -c "$2" > "$OUT/probe.log" 2>&1
  local rc=$?
  tail -12 "$OUT/probe.log"
  echo "rc=$rc"
  # A crash: its C++ stack, from cuda-gdb (the lent machine has it and no gdb).
  if [ $rc -ge 128 ] && [ $rc -ne 137 ] && command -v cuda-gdb > /dev/null; then
    timeout 120 cuda-gdb -q -batch -ex run -ex bt --args "$PY" -c "$2" 2>&1 \
      | grep -E "^#|signal" | cut -c1-220 | head -25
  fi
}
if [ -n "${PROBES:-}" ]; then  # a file of probes, one per line: name<TAB>code
  while IFS=$'\t' read -r name code; do
    [ -n "$name" ] && probe "$name" "$code"
  done < "$PROBES"
else
probe "opscope on the CPU" "import opscope; print(opscope.ones(2).sum().item())"
probe "numpy then opscope, printing" "import numpy, opscope; print(opscope.ones(2))"
probe "opscope on the GPU" "import opscope; print(opscope.cuda.is_available(), opscope.cuda.device_count()); x = opscope.ones(3, device='cuda'); print((x + x).cpu().tolist(), x)"
probe "opscope then torch" "import opscope, torch; print(torch.ones(2, device='cuda').sum().item(), opscope.ones(2, device='cuda').sum().item())"
probe "torch then opscope" "import torch, opscope; print(opscope.ones(2, device='cuda').sum().item(), torch.ones(2, device='cuda').sum().item())"
fi

step "Python CUDA tests: the files in parallel (pytest-xdist), else one by one"
# A worker that crashes is replaced and its test reported as crashed, so one run lists every
# failure; faulthandler's Python frames and _cuda_reportFatalSignals' C++ frames land in the log.
log="$OUT/pytest-cuda.log"
if "$PY" -c "import xdist" 2>/dev/null; then
  timeout "${TEST_TIMEOUT:-200}" "$PY" -X faulthandler -m pytest -q -rfEs -p no:cacheprovider \
    -n "${TEST_WORKERS:-8}" --max-worker-restart 200 tests/python/test_cuda_*.py > "$log" 2>&1
  echo "rc=$?"
else
  for f in tests/python/test_cuda_*.py; do
    timeout "${TEST_TIMEOUT:-120}" "$PY" -X faulthandler -m pytest -q -rfEs -p no:cacheprovider \
      "$f" >> "$log" 2>&1
    echo "--- $f: rc=$?"
  done
fi
grep -E "^(FAILED|ERROR)|crashed|passed|failed|Fatal Python|Segmentation|Aborted" "$log" \
  | cut -c1-240 | head -60
# The C++ frames of the first crash, from cuda-gdb (the lent machine has no gdb).
crashed=$(grep -oE "crashed while running '[^']+'" "$log" | head -1 | sed -E "s/.*'(.*)'/\1/")
if [ -n "$crashed" ] && command -v cuda-gdb > /dev/null; then
  echo "--- cuda-gdb on $crashed"
  timeout 120 cuda-gdb -q -batch -ex run -ex bt --args "$PY" -m pytest -q -p no:cacheprovider \
    "$crashed" 2>&1 | grep -E "^#|signal" | cut -c1-220 | head -30
fi

step "GPU vs torch: copies, fills, allocation (GPU_VS_TORCH=0 skips it)"
[ "${GPU_VS_TORCH:-1}" = 0 ] || timeout 90 "$PY" -X faulthandler - <<'EOF'
# Host overhead and bandwidth of the runtime's pieces, opscope and torch in one process.
import time
import opscope, torch

def best(f, n=20):
    f(); torch.cuda.synchronize(); opscope.cuda.synchronize()
    t = []
    for _ in range(n):
        s = time.perf_counter(); f(); torch.cuda.synchronize(); opscope.cuda.synchronize()
        t.append(time.perf_counter() - s)
    return min(t)

print(opscope.cuda.get_device_name(0), "|", torch.cuda.get_device_name(0))
n = 1 << 26  # 256 MiB of float32
xo, xt = opscope.empty(n), torch.empty(n)
go, gt = opscope.empty(n, device="cuda"), torch.empty(n, device="cuda")
po, pt = xo.pin_memory(), xt.pin_memory()
rows = [
    ("H2D 256 MiB pageable", lambda: go.copy_(xo), lambda: gt.copy_(xt), 4 * n),
    ("H2D 256 MiB pinned", lambda: go.copy_(po), lambda: gt.copy_(pt), 4 * n),
    ("D2H 256 MiB", lambda: xo.copy_(go), lambda: xt.copy_(gt), 4 * n),
    ("D2D clone 256 MiB", lambda: go.clone(), lambda: gt.clone(), 8 * n),
    ("fill_ 256 MiB", lambda: go.fill_(1.5), lambda: gt.fill_(1.5), 4 * n),
    ("f32->f16 copy 256 MiB", lambda: go.to(opscope.float16), lambda: gt.to(torch.float16), 6 * n),
]
print(f"{'':24s} {'opscope':>10s} {'torch':>10s}  (GB/s)")
for name, fo, ft, nbytes in rows:
    try:
        o = nbytes / best(fo) / 1e9
    except Exception as e:
        o = float("nan"); print("  ", name, "opscope:", type(e).__name__, str(e)[:80])
    t = nbytes / best(ft) / 1e9
    print(f"{name:24s} {o:10.1f} {t:10.1f}")
small = [("empty(256) (alloc+free)", lambda: opscope.empty(256, device="cuda"),
          lambda: torch.empty(256, device="cuda")),
         ("zeros(256)", lambda: opscope.zeros(256, device="cuda"), lambda: torch.zeros(256, device="cuda")),
         ("1-element .item()", lambda: go[0].item(), lambda: gt[0].item())]
print(f"{'':24s} {'opscope':>10s} {'torch':>10s}  (us per call)")
for name, fo, ft in small:
    def per(f, k=2000):
        s = time.perf_counter()
        for _ in range(k): f()
        return (time.perf_counter() - s) / k * 1e6
    fo(); ft()
    print(f"{name:24s} {per(fo):10.2f} {per(ft):10.2f}")
print("opscope memory_allocated", opscope.cuda.memory_allocated(), "reserved", opscope.cuda.memory_reserved())
EOF
step "kernels: opscope vs torch (tests/bench/bench_cuda.py${BENCH_ARGS:+ $BENCH_ARGS})"
[ "${BENCH:-1}" = 0 ] || timeout "${BENCH_TIMEOUT:-180}" "$PY" tests/bench/bench_cuda.py ${BENCH_ARGS:-} 2>&1 \
  | tee "$OUT/bench_cuda.log" | tail -40

# AFTER: a command run here with the script's environment (the build on PYTHONPATH, the unpacked
# libraries on LD_LIBRARY_PATH), e.g. a one-off comparison of kernel variants.
if [ -n "${AFTER:-}" ]; then
  step "after: $AFTER"
  PY="$PY" timeout "${AFTER_TIMEOUT:-120}" bash -c "$AFTER" 2>&1 | tee "$OUT/after.log"
fi

# compute-sanitizer on the kernel tests (SANITIZE_K: a pytest -k expression over SANITIZE_FILES,
# or "all" for every test of those files). The parametrize ids are dtype0, dtype1, ...: select by
# test name, e.g. SANITIZE_K="each_kernel_path or test_softmax or native_layer_norm_backward".
# Each (tool, file) pair runs in its own process, SANITIZE_JOBS at a time (the sanitizers are
# CPU-bound; the GPU is not the limit), each under SANITIZE_TIMEOUT; their logs end up in one file
# ($OUT/sanitize.log: the device tool brings back at most 8 files).
# On the H200 (2026-11-27) the slice above (79 tests) took ~20 s under both tools together.
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
SANITIZE_FILES=${SANITIZE_FILES:-tests/python/test_cuda_ops.py tests/python/test_cuda_backward_ops.py}
if [ -n "${SANITIZE_K:-}" ] && [ -x "$SAN" ]; then
  step "compute-sanitizer (memcheck, racecheck): $SANITIZE_FILES -k '$SANITIZE_K'"
  sandir=/tmp/opscope-sanitize; rm -rf "$sandir"; mkdir -p "$sandir"
  export SAN SANITIZE_K sandir PY
  sanitize_one() {  # tool file
    local select=(-k "$SANITIZE_K") log
    [ "$SANITIZE_K" = all ] && select=()
    log="$sandir/$1-$(basename "$2" .py).log"
    timeout "${SANITIZE_TIMEOUT:-200}" "$SAN" --tool "$1" --error-exitcode 9 --print-limit 20 \
      "$PY" -m pytest -q -p no:cacheprovider "${select[@]}" "$2" > "$log" 2>&1
    echo "$1 $2: rc=$? $(grep -E '[0-9]+ (passed|failed|skipped)' "$log" | tail -1)"
  }
  export -f sanitize_one
  # shellcheck disable=SC2086  # SANITIZE_FILES is a list
  for tool in memcheck racecheck; do for f in $SANITIZE_FILES; do echo "$tool $f"; done; done \
    | xargs -P "${SANITIZE_JOBS:-8}" -L 1 bash -c 'sanitize_one "$0" "$1"' | sort
  echo "(rc 9: the tool found errors; 5: the -k selected no test; 124: out of time)"
  for log in "$sandir"/*.log; do
    echo "##### $log"; tail -120 "$log"
  done > "$OUT/sanitize.log"
  grep -hE "ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [1-9]|Invalid|Race reported" "$sandir"/*.log \
    | sort | uniq -c | sort -rn | head -20
fi

step "done"
