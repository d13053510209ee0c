#!/usr/bin/env bash
# Installs the Debian packages opscope needs that are missing. Safe to run again (fast when
# everything is there). Usage: tools/setup.sh [--bench] [--views]   (--bench adds PyTorch for
# comparisons, --views headless Chromium for tests/views/snapshot's screenshots)
set -euo pipefail

packages=(
  build-essential cmake ccache          # compilers and the build
  python3-dev pybind11-dev              # the Python extension (Debian's /usr/bin/python3)
  libopenblas0-openmp                   # CPU gemm / gemv: OpenBLAS on OpenMP's threads (dlopen'ed)
  libopenblas-dev pkg-config            # the pthread OpenBLAS NumPy links, and its headers
  libdlpack-dev                         # the DLPack header
  libsleef-dev                          # vectorized exp / log / tanh / erf (pointwise ops)
  libdw-dev libunwind-dev               # call stacks: DWARF symbolization, the fast unwinder
  doctest-dev                           # C++ unit tests
  python3-numpy python3-pytest          # Python tests and NumPy interop
  python3-scipy                         # reference values of the special functions (digamma, erfinv, ...)
  python3-sklearn                       # the digits data set (tests/python/test_digits.py)
  python3-jsonschema                    # checks saved traces against share/*.schema.json
  graphviz                              # `dot`: the autograd graph view (opscope.profiler.graph)
  python3-ipython python3-prompt-toolkit  # the REPL's shell (bin/opscope) and opscope.interactive
  python3-pexpect                       # tests/repl drive the REPL in a pty
  xeus-dev xeus-python-dev              # the Jupyter kernel (kernel/): xeus 2.4.1, xeus-python 0.14.3
  python3-xeus-python-shell             # its IPython shell (not pulled in by xeus-python-dev)
  jupyter-client python3-jupyter-client # `jupyter kernelspec` (make install), kernel tests' client
  python3-jupyter-kernel-test python3-nbclient  # tests/kernel: protocol conformance, notebooks
  jupyter-console                       # `jupyter console --kernel xopscope`
  nodejs python3-notebook               # tests/views: classic Notebook's HTML sanitizer, under Node
  python3-nbclient python3-ipykernel    # tests/views: views in a real Jupyter kernel
)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(python3-torch) ;;          # the benchmarks compare with PyTorch 1.13
    --views) packages+=(chromium fonts-dejavu-core) ;;  # tests/views/snapshot's screenshots
    *) echo "setup: unknown option $arg (known: --bench, --views)" >&2; exit 2 ;;
  esac
done

# tests/kernel/test_browser.py drives classic Notebook in headless Chromium; it skips, saying so,
# where these cannot be installed, so installing them is best effort.
browser=()
for p in chromium chromium-driver python3-selenium fonts-dejavu-core; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || browser+=("$p")
done
if [[ ${#browser[@]} -gt 0 ]]; then
  as_root=""; [[ $(id -u) -ne 0 ]] && as_root=sudo
  echo "setup: installing ${browser[*]} (for the kernel's browser test)"
  { DEBIAN_FRONTEND=noninteractive $as_root apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends \
      "${browser[@]}" >/dev/null; } ||
    echo "setup: could not install ${browser[*]}: tests/kernel/test_browser.py will skip" >&2
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
