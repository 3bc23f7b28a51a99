#!/usr/bin/env python3
"""Runs corpus programs with warpviz-cli on the CPU and compares each with its H200 reference.

    check_corpus.py --cli build/cli/warpviz-cli --corpus ../shared/corpus [--only REGEX]
                    [--jobs N] [--timeout S] [--keep DIR]

A program passes when it exits as it did on the H200 and prints the H200's stdout, lines
about time and speed aside (they differ from run to run even on the GPU). Prints one line a
program and a count; exits 1 when one fails, 0 when all pass, 77 when the corpus is absent
(CTest's skip code).
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Lines whose numbers are measurements, not results: a time, a rate or a bandwidth. Matched
# case-insensitively anywhere in the line.
TIMING = re.compile(
    r"\b(time|timing|elapsed|duration|throughput|bandwidth|performance)\b"
    r"|\b\d+(\.\d+)?\s*(ms|msec|us|usec|ns|s|sec|secs|seconds)\b"
    r"|\b(gb/s|gbytes/s|gflop/s|gflops|tflops|mb/s|ops/s|elements/s|melements/s)\b"
    r"|/s\b",
    re.IGNORECASE)

# warpviz-cli's own summary follows the program's output on stdout: "launch N: kernel<<<...>>>".
CLI_SUMMARY = re.compile(r"^launch \d+: \S.*<<<")


def read_table(path):
    rows = []
    with open(path, encoding="utf-8") as table:
        for line in table:
            if line.startswith("#") or not line.strip():
                continue
            name, folder, sources, flags, args, argv0 = (line.rstrip("\n").split("\t") + [""] * 6)[:6]
            rows.append(dict(name=name, folder=folder, sources=sources.split(), flags=shlex.split(flags),
                             args=shlex.split(args), argv0=argv0))
    return rows


def program_lines(text):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if CLI_SUMMARY.match(line):
            lines = lines[:i]
            break
    return [line.rstrip() for line in lines if not TIMING.search(line)]


def read(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def check(row, args):
    reference = os.path.join(args.reference, row["name"])
    expected_exit = int(read(reference + ".exit", "0").strip() or 0)
    expected = program_lines(read(reference + ".out"))
    folder = os.path.join(args.corpus, row["folder"])
    command = [args.cli, "run", *row["sources"], *row["flags"], "--timeout", str(args.timeout),
               *(["--program-name", row["argv0"]] if row["argv0"] else []), "--", *row["args"]]
    start = time.monotonic()
    try:
        run = subprocess.run(command, cwd=folder, capture_output=True, timeout=args.timeout + 60)
        code, out, err = run.returncode, run.stdout.decode(errors="replace"), run.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, out, err = 124, "", "warpviz-cli itself did not return"
    seconds = time.monotonic() - start
    if args.keep:
        for suffix, text in ((".out", out), (".err", err), (".exit", f"{code}\n")):
            with open(os.path.join(args.keep, row["name"] + suffix), "w", encoding="utf-8") as f:
                f.write(text)
    got = program_lines(out)
    # warpviz-cli reports a program's own non-zero exit as 4; the H200's code is the program's.
    exit_ok = (code == 0) == (expected_exit == 0)
    if exit_ok and got == expected:
        return row["name"], True, seconds, "same output and exit as the H200"
    if not exit_ok:
        last = next((l for l in reversed(err.splitlines()) if l.strip()), "")
        why = f"exit {code}, H200 {expected_exit}: {last[:160]}"
    else:
        first = next(i for i in range(max(len(got), len(expected)))
                     if i >= len(got) or i >= len(expected) or got[i] != expected[i])
        want = expected[first] if first < len(expected) else "(end)"
        have = got[first] if first < len(got) else "(end)"
        why = f"line {first + 1}: H200 {want[:70]!r}, CPU {have[:70]!r}"
    return row["name"], False, seconds, why


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--table", default=os.path.join(HERE, "programs.tsv"))
    parser.add_argument("--reference", default=os.path.join(HERE, "reference"))
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--keep", default="")
    args = parser.parse_args()
    args.cli = os.path.abspath(args.cli)
    if not os.path.isdir(args.corpus):
        print(f"check_corpus: no corpus at {args.corpus}; set WARPVIZ_CORPUS_DIR (skipped)")
        return 77
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    rows = [r for r in read_table(args.table) if re.search(args.only, r["name"])]
    if not rows:
        print(f"check_corpus: no program matches {args.only!r}")
        return 1
    passed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, ok, seconds, why in pool.map(lambda r: check(r, args), rows):
            passed += ok
            print(f"{'PASS' if ok else 'FAIL'}  {name:34} {seconds:7.1f} s  {why}", flush=True)
    print(f"check_corpus: {passed} of {len(rows)} program runs match the H200")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
