"""Digits benchmark: the MLP of tests/python/digits_mlp.py trained by opscope and by PyTorch 1.13
side by side — same data split, initial weights, batch order and hyper-parameters.

A measurement, not a test: it prints both accuracies, the per-epoch losses and their largest
relative difference, and the time per epoch with the ratio opscope / torch (lower is better),
then exits 0. With --write-reference it also records PyTorch's run in
tests/python/data/digits_torch.json, which tests/python/test_digits.py checks opscope against.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_digits.py [--threads 1,2]
        [--repeat 5] [--write-reference]

Times: each library trains `repeat` times, round-robin; an epoch's time is its best over the
repeats (as benchlib.best_per_call takes the best of repeats), and the table shows the median
over epochs of those bests, and the whole training (sum over epochs).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "core", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

from benchlib import fmt, machine_facts, np, opscope, print_header, print_table, ratio, set_threads, torch  # noqa: E402

import digits_mlp  # noqa: E402

REFERENCE = os.path.join(HERE, "..", "python", "data", "digits_torch.json")


def measure(libs, threads, repeat):
    """{name: (result of the first run, best seconds of each epoch over `repeat` runs)}."""
    set_threads(threads)
    first, best = {}, {}
    for _ in range(repeat):
        for name, lib in libs.items():
            result = digits_mlp.train(lib)
            first.setdefault(name, result)
            seconds = np.array(result["epoch_seconds"])
            best[name] = seconds if name not in best else np.minimum(best[name], seconds)
    return {name: (first[name], best[name]) for name in libs}


def write_reference(result, threads):
    import sklearn

    record = {
        "generated_by": "tests/bench/bench_digits.py --write-reference",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "sklearn": sklearn.__version__,
        "threads": threads,
        "hyper": digits_mlp.HYPER,
        "test_size": len(digits_mlp.load_data()[3]),
        "losses": result["losses"],
        "accuracy": result["accuracy"],
    }
    with open(REFERENCE, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(f"\nwrote {os.path.normpath(REFERENCE)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1", help="comma-separated thread counts (default 1)")
    parser.add_argument("--repeat", type=int, default=5, help="trainings per library (default 5)")
    parser.add_argument("--write-reference", action="store_true",
                        help="record PyTorch's run (at the first thread count) for test_digits.py")
    args = parser.parse_args()
    if args.write_reference and torch is None:
        sys.exit("--write-reference needs PyTorch (tools/setup.sh --bench installs it)")

    print_header(machine_facts(), "Digits MLP: opscope vs PyTorch 1.13")
    h = digits_mlp.HYPER
    print(f"  model    64-{h['hidden']}-10 MLP, ReLU, cross-entropy, SGD(lr={h['lr']}, "
          f"momentum={h['momentum']}), batch {h['batch_size']}, {h['epochs']} epochs, float32")
    libs = {"opscope": opscope, "torch": torch} if torch is not None else {"opscope": opscope}
    for k, threads in enumerate(int(t) for t in args.threads.split(",")):
        runs = measure(libs, threads, args.repeat)
        o, o_times = runs["opscope"]
        t, t_times = runs["torch"] if torch is not None else (None, None)

        rows = []
        for epoch in range(h["epochs"]):
            lo = o["losses"][epoch]
            lt = t["losses"][epoch] if t else None
            rel = "n/a" if lt is None else f"{abs(lo - lt) / abs(lt):.1e}"
            t_ms = None if t is None else t_times[epoch] * 1e3
            rows.append([str(epoch + 1), f"{lo:.7f}", fmt(lt, 7), rel, fmt(o_times[epoch] * 1e3, 2),
                         fmt(t_ms, 2)])
        print_table(f"Per epoch, {threads} thread(s)",
                    ["epoch", "opscope loss", "torch loss", "rel. diff", "opscope ms", "torch ms"], rows)

        o_med, o_sum = np.median(o_times) * 1e3, o_times.sum() * 1e3
        t_med = None if t is None else np.median(t_times) * 1e3
        t_sum = None if t is None else t_times.sum() * 1e3
        print_table(f"Summary, {threads} thread(s) (time: lower is better)",
                    ["", "opscope", "torch", "opscope/torch"],
                    [["test accuracy", f"{o['accuracy']:.4f}",
                      fmt(None if t is None else t["accuracy"], 4), ""],
                     ["ms per epoch (median)", fmt(o_med, 2), fmt(t_med, 2), fmt(ratio(o_med, t_med), 2)],
                     ["ms per training", fmt(o_sum, 1), fmt(t_sum, 1), fmt(ratio(o_sum, t_sum), 2)]])
        if args.write_reference and k == 0:
            write_reference(t, threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
