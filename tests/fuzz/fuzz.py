"""The fuzzer's command line: `make fuzz` runs it.

    /usr/bin/python3 tests/fuzz/fuzz.py [--calls N] [--seed S] [--start I] [--timeout T]
                                        [--no-corpus] [--replay] [--case S:I] [--list-targets]
                                        [--torch] [--skip REGEX]

Runs cases seed:start .. seed:start+N-1 (see cases.py) through a worker process (worker.py) and
prints calls/s, the outcome counts, the exception types, and each defect's snippet. A confirmed
crash / abort / hang / SystemError is written to tests/fuzz/corpus/ unless --no-corpus.
--replay runs the corpus instead; --case 7:123 prints one case's snippet (and runs it).
Environment: FUZZ_CALLS, FUZZ_SEED give the defaults of --calls and --seed.
"""
import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402
import harness  # noqa: E402


def run_fuzz(seed, calls, start=0, timeout=10.0, confirm=True, max_confirm=40, progress=None,
             log=None, skip=None):
    """Runs cases seed:start .. seed:start+calls-1; returns the harness.Stats. The first fatal
    case of each (kind, target) is confirmed in a fresh worker and minimized, up to max_confirm
    of them (one bug hit by thousands of cases must not spend the run confirming it). Cases
    whose code matches the regular expression `skip` are not run (counted as "skipped")."""
    skip = re.compile(skip) if skip else None
    ts = cases.targets()
    runner = harness.Runner(timeout=timeout, confirm_fatal=confirm, max_confirm=max_confirm,
                            log=log)
    try:
        last = time.monotonic()
        upcoming = [cases.make_case(seed, start, ts)]

        def make_next(i):
            if i + 1 < start + calls:
                upcoming.append(cases.make_case(seed, i + 1, ts))

        for i in range(start, start + calls):
            case = upcoming.pop()
            if skip is not None and skip.search(case.code):
                runner.stats.outcomes["skipped"] += 1
                make_next(i)
                continue
            runner.run_case(case.id, case.code, case.target, between=lambda: make_next(i))
            if progress and time.monotonic() - last > 15:
                last = time.monotonic()
                progress(runner.stats, i - start + 1, calls)
    finally:
        runner.close()
    return runner.stats


def replay_corpus(files=None, timeout=10.0, log=None):
    """Runs every corpus snippet; returns {path: reply}."""
    files = files if files is not None else harness.corpus_files()
    runner = harness.Runner(timeout=timeout, confirm_fatal=False, log=log)
    results = {}
    try:
        for path in files:
            with open(path) as f:
                code = f.read()
            results[path] = runner.run_case(os.path.basename(path), code)
    finally:
        runner.close()
    return results, runner.stats


def _progress(stats, done, total):
    rate = stats.calls / stats.seconds if stats.seconds else 0
    fatal = ", ".join(f"{k} {v}" for k, v in stats.fatal_counts().items() if v)
    print(f"  {done}/{total} calls, {rate:.0f}/s{', ' + fatal if fatal else ''}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--calls", type=int, default=int(os.environ.get("FUZZ_CALLS", 100000)))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", 1)))
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--no-corpus", action="store_true", help="do not write new defects to corpus/")
    ap.add_argument("--no-gdb", action="store_true",
                    help="do not run new crashes under gdb for their native stack")
    ap.add_argument("--max-confirm", type=int, default=40,
                    help="confirm and minimize at most this many (kind, target) pairs")
    ap.add_argument("--replay", action="store_true", help="replay tests/fuzz/corpus/")
    ap.add_argument("--case", help="print (and run) one case, given as SEED:INDEX")
    ap.add_argument("--list-targets", action="store_true")
    ap.add_argument("--torch", action="store_true",
                    help="differential run: compare each result with PyTorch's (differential.py)")
    ap.add_argument("--skip", default=os.environ.get("FUZZ_SKIP"),
                    help="regular expression: cases whose code matches it are not run (a known\n"
                         "defect's trigger, while it is being fixed); FUZZ_SKIP= in make fuzz")
    args = ap.parse_args(argv)

    if args.list_targets:
        for t in cases.targets():
            print(f"{t.kind:9} {t.name}")
        return 0
    if args.case:
        seed, index = (int(x) for x in args.case.split(":"))
        case = cases.make_case(seed, index, cases.targets())
        print(f"# case {case.id}: {case.target}\n{case.code}")
        reply = harness.run_alone(case.code, args.timeout, case.id)
        print(f"# outcome: {harness.kind_of(reply)} {reply.get('type') or ''} {reply.get('msg') or ''}")
        return 1 if harness.is_fatal(reply) else 0
    if args.torch:
        import differential
        print(f"comparing with torch: seed {args.seed}, cases {args.start}.."
              f"{args.start + args.calls - 1}", flush=True)
        counts, mismatches, accepted = differential.run_differential(
            args.seed, args.calls, args.start, args.timeout,
            progress=lambda c, d, t: print(f"  {d}/{t}: {dict(c)}", flush=True))
        print("\n" + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
        print(f"\n{len(accepted)} cases where opscope returns a result and torch raises (not "
              "counting binding differences); the first 40 by target:")
        seen = set()
        for case, why in accepted:
            if case.target in seen or len(seen) >= 40:
                continue
            seen.add(case.target)
            print(f"--- {case.id} {case.target}: {why[:160]}\n{case.code}")
        return 1 if mismatches else 0
    if args.replay:
        results, stats = replay_corpus(timeout=args.timeout)
        bad = 0
        for path, reply in results.items():
            status = harness.kind_of(reply)
            if harness.is_fatal(reply):
                bad += 1
            print(f"{'FAIL' if harness.is_fatal(reply) else 'ok  '} {os.path.basename(path)}: {status}"
                  f" {reply.get('type') or ''} {(reply.get('msg') or '')[:100]}")
        print(f"{len(results)} corpus cases, {bad} still fatal")
        return 1 if bad else 0

    print(f"fuzzing seed {args.seed}, cases {args.start}..{args.start + args.calls - 1}, "
          f"timeout {args.timeout:g} s", flush=True)
    stats = run_fuzz(args.seed, args.calls, args.start, args.timeout,
                     max_confirm=args.max_confirm, progress=_progress, skip=args.skip,
                     log=lambda s: print(s, flush=True))
    print("\n" + stats.summary())
    fatal = stats.fatal_counts()
    print("fatal: " + ", ".join(f"{k} {v}" for k, v in fatal.items()))
    written = []
    if not args.no_corpus:
        known = harness.corpus_targets()
        for rec in stats.defects:
            if not rec["reproducer"] or (rec["kind"], rec["target"]) in known:
                continue
            if rec["kind"] in ("crash", "abort") and not args.no_gdb:
                rec["native_stack"] = harness.native_stack(rec["reproducer"])
            p = harness.write_corpus_entry(rec)
            if p:
                known.add((rec["kind"], rec["target"]))
                written.append(p)
    unconfirmed = [d for d in stats.defects if d["reproducer"] is None]
    print(f"{len(stats.defects)} fatal (kind, target) pairs confirmed, {len(written)} new corpus files"
          + (f", {len(unconfirmed)} not reproduced in a fresh process" if unconfirmed else ""))
    for p in written:
        print("  " + os.path.relpath(p))
    return 1 if any(fatal.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
