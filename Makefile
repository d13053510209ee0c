# opscope — the two commands: `make run` and `make test` (see README.md). Everything else here
# is what they are made of.
PYTHON     := /usr/bin/python3
BUILD_DIR  ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc)
# The Python sources are in core/python/opscope/, the compiled part in $(BUILD_DIR)/python/opscope/
# (see Note [Each build folder holds its own compiled part] in CMakeLists.txt): this is all Python
# needs.
export PYTHONPATH := $(CURDIR)/core/python:$(abspath $(BUILD_DIR))/python$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: all setup configure build run install test test-cpp test-python bench develop clean

all: build

setup:
	@bash tools/setup.sh

configure: setup
	@test -f $(BUILD_DIR)/CMakeCache.txt || cmake -S . -B $(BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DPython_EXECUTABLE=$(PYTHON)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)
	@echo "opscope built. To use it from Python without installing:"
	@echo "  export PYTHONPATH=$(CURDIR)/core/python:$(abspath $(BUILD_DIR))/python"

# The REPL on the tour: on a terminal, the tour's output and views, then the prompt; without one
# (CI, a pipe), the tour and its views, then exit with the tour's status.
run: build
	$(BUILD_DIR)/bin/opscope -i examples/tour.py

# The xopscope kernelspec of this build folder, for this user: `jupyter kernelspec list` shows it,
# and `jupyter console --kernel xopscope`, classic Notebook, nbconvert and nbclient start it
# (kernel.json names <build>/bin/xopscope). `make run` installs it too. Nothing to install where
# the kernel is not built (OPSCOPE_KERNEL; its packages are in tools/setup.sh).
KERNELSPEC := $(BUILD_DIR)/share/jupyter/kernels/xopscope
install: build
	@if [ -f $(KERNELSPEC)/kernel.json ]; then \
	  $(PYTHON) -m jupyter kernelspec install --user --replace --name xopscope $(KERNELSPEC); \
	else echo "install: no kernel in $(BUILD_DIR) (OPSCOPE_KERNEL off or xeus-python missing)"; fi
run: install

test: build
	$(MAKE) --no-print-directory test-cpp test-python

test-cpp:
	ctest --test-dir $(BUILD_DIR) --output-on-failure

test-python:
	$(PYTHON) -m pytest -q tests/python tests/fuzz/test_fuzz.py tests/repl tests/views tests/kernel

# Every view of tests/views/programs.py in classic Notebook (trusted and untrusted) and in
# headless Chromium, light and dark, at 1400 px and a 1280x720 projector at 150 %: PNGs in
# $(SHOTS) (tests/views/README.md). Not part of `make test`, which runs a short slice.
SHOTS ?= /tmp/opscope-views
.PHONY: screenshots
screenshots: build
	@bash tools/setup.sh --views
	$(PYTHON) tests/views/snapshot/run.py $(SHOTS)

# The teaching notebooks (notebooks/README.md) executed on the xopscope kernel, as HTML (trusted
# and sanitized) and, with Chromium, 1280x720 projector screenshots: in $(NOTEBOOKS_OUT).
NOTEBOOKS_OUT ?= $(BUILD_DIR)/notebooks
.PHONY: notebooks
notebooks: build
	JUPYTER_PATH=$(abspath $(BUILD_DIR))/share/jupyter $(PYTHON) notebooks/render.py $(NOTEBOOKS_OUT)

# Both suites under AddressSanitizer + UndefinedBehaviorSanitizer, built in build-sanitize/ (not
# part of `make test`: see tests/sanitize/README.md for what it runs and how long it takes).
.PHONY: test-sanitize
test-sanitize: setup
	@bash tests/sanitize/run.sh

# The CUDA backend's own suite (core/cuda/, README "CUDA"): the build folder, $(CUDA_BUILD_DIR)
# (the main one: its default OPSCOPE_CUDA=AUTO already builds the backend where nvcc and cuBLAS
# are, and `make test` runs its host-side tests), configured with OPSCOPE_CUDA=ON so that a
# missing nvcc is an error here; then its C++ CUDA tests and each tests/python/test_cuda_*.py in a
# process of its own (a crash in one file does not hide the others). Without a GPU the device
# tests skip and the summary says why. CUDA_CMAKE_ARGS adds options at the first configure
# (another Python: -DOPSCOPE_PYTHON_VERSION=3.12 ...).
CUDA_BUILD_DIR ?= $(BUILD_DIR)
CUDA_CMAKE_ARGS ?=
.PHONY: test-cuda
test-cuda: setup
	@if [ -f $(CUDA_BUILD_DIR)/CMakeCache.txt ]; then cmake -S . -B $(CUDA_BUILD_DIR) -DOPSCOPE_CUDA=ON >/dev/null; \
	else cmake -S . -B $(CUDA_BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DPython_EXECUTABLE=$(PYTHON) \
	  -DOPSCOPE_CUDA=ON $(CUDA_CMAKE_ARGS); fi
	cmake --build $(CUDA_BUILD_DIR) -j$(JOBS)
	ctest --test-dir $(CUDA_BUILD_DIR) --output-on-failure -R cuda
	@status=0; for f in tests/python/test_cuda_*.py; do \
	  echo "== $$f"; \
	  PYTHONPATH=$(CURDIR)/core/python:$(abspath $(CUDA_BUILD_DIR))/python \
	    $(PYTHON) -X faulthandler -m pytest -q -rs -p no:cacheprovider $$f || status=1; \
	done; exit $$status

# Every tests/bench/bench_*.py in turn (BENCH=ops runs only bench_ops.py).
BENCH ?= *
bench: build
	@bash tools/setup.sh --bench
	@for b in tests/bench/bench_$(BENCH).py; do echo "== $$b"; $(PYTHON) $$b || exit 1; done

# The long fuzz run (tests/fuzz/README.md): FUZZ_CALLS= (default 100000), FUZZ_SEED=, FUZZ_SKIP=
# (a regular expression: cases matching it are not run). New defects go to tests/fuzz/corpus/.
.PHONY: fuzz
fuzz: build
	$(PYTHON) tests/fuzz/fuzz.py $(if $(FUZZ_CALLS),--calls $(FUZZ_CALLS)) \
	  $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) $(if $(FUZZ_SKIP),--skip '$(FUZZ_SKIP)')

# Makes `import opscope` work for /usr/bin/python3 anywhere, pointing at this tree (a .pth file).
develop: build
	@site=$$($(PYTHON) -c 'import site; print(site.getsitepackages()[0])'); \
	  printf '%s\n' "$(CURDIR)/core/python" "$(abspath $(BUILD_DIR))/python" > $$site/opscope-develop.pth; \
	  echo "wrote $$site/opscope-develop.pth"

clean:
	rm -rf $(BUILD_DIR) core/python/opscope/_C*.so core/python/opscope/libopscope_*.so
