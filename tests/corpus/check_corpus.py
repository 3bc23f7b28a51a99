#!/usr/bin/env python3
"""Runs corpus programs with warpviz-cli on the CPU and compares each with its H200 reference.

    check_corpus.py --cli build/cli/warpviz-cli --corpus ../shared/corpus [--only REGEX]
                    [--jobs N] [--timeout S] [--keep DIR]

A program passes when it exits as it did on the H200, prints the H200's stdout, lines
about time and speed aside (they differ from run to run even on the GPU), and copies back
the same bytes (its d2h log against the reference's), unless approximate.tsv names the row
with the reason docs/floats.md gives; where its third column gives a relative difference, the
row's printed numbers may differ from the H200's by that much (a sum of libm results).

Where the GPU itself printed a line differently from one run to the next (NAME.out.K: more
runs of the row, scripts/corpus-reference.sh with WARPVIZ_CORPUS_REPEAT; README.md says on
which GPU), the result depends on the order threads ran in (float atomics): the CPU's line
may differ there too, with the same words, and each number inside the runs' own spread
(between the smallest and the largest, widened by that spread each way). Where the runs
printed different lines altogether (a check that lists the first mismatches it meets), the
CPU must print every line that all of them printed, in order, and its other lines must have
the words of one of their other lines, numbers inside that line's spread. Where the runs
copied back different bytes, the copies are not compared. Prints one line a
program and a count; exits 1 when one fails, 0 when all pass, 77 when the corpus is absent
(CTest's skip code).
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
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
            name, folder, sources, flags, args, argv0, launches, limit = (line.rstrip("\n").split("\t") + [""] * 8)[:8]
            rows.append(dict(name=name, folder=folder, sources=sources.split(), flags=shlex.split(flags),
                             args=shlex.split(args), argv0=argv0, launches=int(launches or 0),
                             limit=int(limit or 0)))
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


def read_copies(log_path, data_path):
    """The copies back of a run's d2h log: (bytes, hash, data or None) each, in order."""
    copies = []
    data = b""
    try:
        with open(data_path, "rb") as f:
            data = f.read()
    except OSError:
        pass
    at = 0
    for line in read(log_path).splitlines():
        parts = line.split()
        if len(parts) != 5 or not parts[2].isdigit():
            continue  # not a copy's line (a log cut short, bytes where a line should be)
        size, digest, kept = int(parts[2]), parts[3], parts[4] == "1"
        block = data[at:at + size] if kept else None
        at += size if kept else 0
        copies.append((size, digest, block))
    return copies


def first_copy_difference(cpu, gpu):
    """None when the copied-back arrays are the same bytes; else what differs, in words."""
    for i in range(max(len(cpu), len(gpu))):
        if i >= len(cpu):
            return f"{len(gpu)} copies back on the H200, {len(cpu)} on the CPU"
        if i >= len(gpu):
            return f"{len(cpu)} copies back on the CPU, {len(gpu)} on the H200"
        (c_size, c_hash, c_data), (g_size, g_hash, g_data) = cpu[i], gpu[i]
        if c_size != g_size:
            return f"copy {i}: {c_size} bytes on the CPU, {g_size} on the H200"
        if c_hash == g_hash:
            continue
        where = ""
        if c_data is not None and g_data is not None and len(c_data) == c_size and len(g_data) == g_size:
            byte = next(b for b in range(c_size) if c_data[b] != g_data[b])
            word = byte // 4 * 4
            where = (f", first at byte {byte} (word {word // 4}: CPU {c_data[word:word + 4].hex()}, "
                     f"H200 {g_data[word:word + 4].hex()})")
        return f"copy {i} ({c_size} bytes) differs{where}"
    return None


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)", re.IGNORECASE)


def h200_variants(reference):
    """The H200's later runs whose output differed from the first (NAME.out.K), their lines."""
    variants = []
    k = 2
    while True:
        path = f"{reference}.out.{k}"
        if os.path.exists(path):
            variants.append(program_lines(read(path)))
        elif k > 64:
            break
        k += 1
    return variants


def within_h200_spread(got_line, runs_of_line):
    """Whether a line the H200 printed differently from run to run has the CPU's words and
    each number inside the runs' spread, widened by it each way."""
    words = [NUMBER.sub("#", line) for line in runs_of_line]
    if NUMBER.sub("#", got_line) != words[0] or any(w != words[0] for w in words):
        return False
    columns = list(zip(*[[float(n) for n in NUMBER.findall(line)] for line in runs_of_line]))
    for value, column in zip([float(n) for n in NUMBER.findall(got_line)], columns):
        low, high = min(column), max(column)
        spread = high - low
        if not (low - spread <= value <= high + spread):
            return False
    return True


def order_dependent_match(got, expected, variants):
    """None when `got` equals the H200's lines except where its own runs differed, and there
    within their spread; else the first line that does not, its number."""
    if len(got) != len(expected) or any(len(v) != len(expected) for v in variants):
        return 0
    for i, line in enumerate(got):
        if line == expected[i]:
            continue
        runs = [expected[i]] + [v[i] for v in variants]
        if all(r == expected[i] for r in runs) or not within_h200_spread(line, runs):
            return i
    return None


def varying_lines_match(got, runs):
    """For GPU runs that differ in which lines they print (a check that lists the first
    mismatches it meets, where the values depend on the order threads ran in): None when
    `got` holds every line that all the runs printed, in their order, and each other line
    has the words of a line only some runs printed, each number inside the spread of that
    line's numbers over the runs (widened by it); else the first line that does not fit,
    its index."""
    everywhere = [line for line in runs[0] if all(line in run for run in runs[1:])]
    by_words = {}
    for run in runs:
        for line in run:
            if line not in everywhere:
                by_words.setdefault(NUMBER.sub("#", line), []).append(line)
    if not min(len(run) for run in runs) <= len(got) <= max(len(run) for run in runs):
        return min(len(got), max(len(run) for run in runs))
    found = 0
    for i, line in enumerate(got):
        if found < len(everywhere) and line == everywhere[found]:
            found += 1
            continue
        alike = by_words.get(NUMBER.sub("#", line))
        if not alike or not within_h200_spread(line, alike):
            return i
    return None if found == len(everywhere) else len(got)


def read_approximate(path):
    """Rows whose arrays may differ from the H200's, with the reason docs/floats.md gives, and
    the relative difference their printed numbers may have (0: none)."""
    rows, printed = {}, {}
    for line in read(path).splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, why, relative = (line.split("\t") + ["", ""])[:3]
        rows[name.strip()] = why.strip()
        printed[name.strip()] = float(relative or 0)
    return rows, printed


def lines_within(got, expected, relative):
    """Whether `got` has the H200's lines, word for word, with each number within `relative`
    of the H200's (a result summed from functions docs/floats.md names)."""
    if len(got) != len(expected):
        return False
    for have, want in zip(got, expected):
        if have == want:
            continue
        if NUMBER.sub("#", have) != NUMBER.sub("#", want):
            return False
        for a, b in zip(map(float, NUMBER.findall(have)), map(float, NUMBER.findall(want))):
            if not abs(a - b) <= relative * max(abs(a), abs(b)):
                return False
    return True


def check(row, args):
    reference = os.path.join(args.reference, row["name"])
    expected_exit = int(read(reference + ".exit", "0").strip() or 0)
    if expected_exit == 124:
        # The H200 run passed the reference's time limit: what it printed is cut short, no reference.
        return row["name"], None, 0.0, "no reference: the H200 run passed its time limit"
    expected = program_lines(read(reference + ".out"))
    folder = os.path.join(args.corpus, row["folder"])
    # A row known to take longer on 2 cores has its own limit (programs.tsv's last column).
    timeout = max(args.timeout, row["limit"])
    command = [args.cli, "run", *row["sources"], *row["flags"], "--timeout", str(timeout),
               *(["--program-name", row["argv0"]] if row["argv0"] else []),
               *(["--launches", str(row["launches"])] if row["launches"] else []), "--", *row["args"]]
    # The CPU run logs its copies back as the reference capture did (copy_back_log.cpp).
    scratch = tempfile.mkdtemp(prefix="warpviz-corpus-")
    env = dict(os.environ, WARPVIZ_D2H_LOG=os.path.join(scratch, "d2h"),
               WARPVIZ_D2H_DATA=os.path.join(scratch, "d2h.bin"))
    start = time.monotonic()
    try:
        run = subprocess.run(command, cwd=folder, capture_output=True, timeout=timeout + 60, env=env)
        code, out, err = run.returncode, run.stdout.decode(errors="replace"), run.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, out, err = 124, "", "warpviz-cli itself did not return"
    seconds = time.monotonic() - start
    if args.keep:
        for suffix, text in ((".out", out), (".err", err), (".exit", f"{code}\n")):
            with open(os.path.join(args.keep, row["name"] + suffix), "w", encoding="utf-8") as f:
                f.write(text)
    got = program_lines(out)
    # warpviz-cli reports a program's own non-zero exit as 4 ("the program exited with code N");
    # the H200's code is the program's. Exit 2 is warpviz's own: it could not build or run the
    # program, which is never what the H200 did, whatever the lines say.
    own = re.search(r"the program exited with code (\d+)", err)
    if code == 2:
        exit_ok = False
    elif expected_exit == 0:
        exit_ok = code == 0
    else:
        exit_ok = code != 0 and (own is None or int(own.group(1)) == expected_exit)
    cpu_copies = read_copies(env["WARPVIZ_D2H_LOG"], env["WARPVIZ_D2H_DATA"])
    gpu_copies = read_copies(reference + ".d2h", reference + ".d2h.bin")
    variants = h200_variants(reference)
    if row["launches"]:
        # Stopped as launch N+1 began (a benchmark loop after the checks): what it printed and
        # copied back until then must be the start of what the H200 printed and copied back.
        if 0 < len(got) <= len(expected):
            expected = expected[:len(got)]
        variants = [v[:len(got)] for v in variants]
        gpu_copies = gpu_copies[:len(cpu_copies)]
    copies = first_copy_difference(cpu_copies, gpu_copies)
    shutil.rmtree(scratch, ignore_errors=True)
    if not os.path.exists(reference + ".d2h"):
        copies = None  # no capture of this row on the H200
    order_note = ""
    if variants and exit_ok and got != expected and order_dependent_match(got, expected, variants) is None:
        lines = [i + 1 for i in range(len(got)) if got[i] != expected[i]]
        order_note = (f"; line {', '.join(map(str, lines))} inside the spread of {len(variants) + 1} GPU runs "
                      f"of it (the order threads ran in)")
        got = expected
    elif variants and exit_ok and got != expected and varying_lines_match(got, [expected] + variants) is None:
        order_note = (f"; the {len(variants) + 1} GPU runs printed different lines (the order threads ran in): "
                      f"the CPU printed every line they all printed, and lines like their others")
        got = expected
    if variants and copies is not None and any(
            first_copy_difference(read_copies(reference + ".d2h", ""), read_copies(f"{reference}.d2h.{k}", ""))
            for k in range(2, 66) if os.path.exists(f"{reference}.d2h.{k}")):
        order_note += "; copies not compared: the GPU's own runs copied back different bytes"
        copies = None
    if exit_ok and got != expected and args.printed_within.get(row["name"]) and lines_within(
            got, expected, args.printed_within[row["name"]]):
        lines = [i + 1 for i in range(len(got)) if got[i] != expected[i]]
        order_note = (f"; line {', '.join(map(str, lines))} within {args.printed_within[row['name']]:g} "
                      f"of the H200's numbers")
        got = expected
    if exit_ok and got == expected:
        if copies is None:
            first = f" (its first {row['launches']} launches, {len(got)} lines)" if row["launches"] else ""
            if order_note:
                return row["name"], True, seconds, "same output and exit as the H200" + order_note
            return row["name"], True, seconds, "same output, exit and copied-back arrays as the H200" + first
        if row["name"] in args.approximate:
            return row["name"], True, seconds, (f"same output and exit{order_note}; arrays differ ({copies}): "
                                                f"{args.approximate[row['name']]}")
        return row["name"], False, seconds, f"same output and exit, but {copies}"
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
    parser.add_argument("--approximate", default=os.path.join(HERE, "approximate.tsv"),
                        help="rows whose copied-back arrays may differ, with the reason")
    args = parser.parse_args()
    args.cli = os.path.abspath(args.cli)
    args.approximate, args.printed_within = read_approximate(args.approximate)
    if not os.path.isdir(args.corpus):
        print(f"check_corpus: no corpus at {args.corpus}; set WARPVIZ_CORPUS_DIR (skipped)")
        return 77
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    rows = [r for r in read_table(args.table) if re.search(args.only, r["name"])]
    if not rows:
        print(f"check_corpus: no program matches {args.only!r}")
        return 1
    passed = skipped = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, ok, seconds, why in pool.map(lambda r: check(r, args), rows):
            passed += ok is True
            skipped += ok is None
            verdict = "SKIP" if ok is None else "PASS" if ok else "FAIL"
            print(f"{verdict}  {name:34} {seconds:7.1f} s  {why}", flush=True)
    print(f"check_corpus: {passed} of {len(rows) - skipped} program runs match the H200"
          + (f" ({skipped} without a reference)" if skipped else ""))
    if skipped == len(rows):
        return 77
    return 0 if passed + skipped == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
