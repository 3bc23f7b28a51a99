#!/usr/bin/env python3
"""check_corpus.py's rule for lines the H200 itself prints differently from run to run.

A CPU line may differ from the H200's first run only where the H200's own runs differed, with
the same words, and each number inside their spread widened by it each way. Checked here on
lines shaped like the corpus's (reduction_atomic_warp's "host: X, device Y"); then the rule for
runs that print different lines altogether (layernorm_backward's list of mismatches), and
approximate.tsv's relative difference for printed numbers (lda's losses).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_corpus  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


first = ["host: 0.996007, device 0.996009", "PASS"]
later = [["host: 0.996007, device 0.996004", "PASS"], ["host: 0.996007, device 0.996008", "PASS"]]
# Runs spread over 0.996004..0.996009 (5e-6): 0.995999..0.996014 passes.
expect("inside the runs", check_corpus.order_dependent_match(
    ["host: 0.996007, device 0.996006", "PASS"], first, later), None)
expect("inside the widened spread", check_corpus.order_dependent_match(
    ["host: 0.996007, device 0.996013", "PASS"], first, later), None)
expect("past the widened spread", check_corpus.order_dependent_match(
    ["host: 0.996007, device 0.996016", "PASS"], first, later), 0)
expect("a number the H200 always printed alike", check_corpus.order_dependent_match(
    ["host: 0.996008, device 0.996009", "PASS"], first, later), 0)
expect("a line the H200 always printed alike", check_corpus.order_dependent_match(
    ["host: 0.996007, device 0.996009", "FAIL"], first, later), 1)
expect("other words", check_corpus.order_dependent_match(
    ["host: 0.996007, dev 0.996006", "PASS"], first, later), 0)
expect("a missing line", check_corpus.order_dependent_match(
    ["host: 0.996007, device 0.996006"], first, later), 0)

# Runs that list the first mismatches they meet, at other indices each time.
listing = [["Checking", "1.0 1.0", "Mismatch at 2: ref 3.0 vs 2.5", "Mismatch at 6: ref 4.0 vs 3.0", "done"],
           ["Checking", "1.0 1.0", "Mismatch at 5: ref 1.0 vs 1.5", "done"],
           ["Checking", "1.0 1.0", "Mismatch at 3: ref 2.0 vs 2.25", "Mismatch at 4: ref 2.0 vs 1.0", "done"]]
expect("lines like the runs' own", check_corpus.varying_lines_match(
    ["Checking", "1.0 1.0", "Mismatch at 4: ref 2.0 vs 2.0", "done"], listing), None)
expect("no mismatch line at all", check_corpus.varying_lines_match(
    ["Checking", "1.0 1.0", "done"], listing), 3)
expect("a line every run printed, changed", check_corpus.varying_lines_match(
    ["Checking", "1.0 2.0", "Mismatch at 4: ref 2.0 vs 2.0", "done"], listing), 1)
expect("a line every run printed, missing", check_corpus.varying_lines_match(
    ["Checking", "Mismatch at 4: ref 2.0 vs 2.0", "Mismatch at 4: ref 2.0 vs 2.0", "done"], listing), 3)
expect("words no run printed", check_corpus.varying_lines_match(
    ["Checking", "1.0 1.0", "Mismatch of 4: ref 2.0 vs 2.0", "done"], listing), 2)
expect("a number far past the runs' spread", check_corpus.varying_lines_match(
    ["Checking", "1.0 1.0", "Mismatch at 4: ref 2.0 vs 90.0", "done"], listing), 2)

# approximate.tsv's third column: printed numbers within a relative difference.
loss = ["Total loss: -4241.860352 -4285.720703"]
expect("within 1e-6", check_corpus.lines_within(["Total loss: -4241.859863 -4285.721191"], loss, 1e-6), True)
expect("past 1e-6", check_corpus.lines_within(["Total loss: -4241.850000 -4285.721191"], loss, 1e-6), False)
expect("other words, numbers within", check_corpus.lines_within(["Total: -4241.859863 -4285.721191"], loss, 1e-6),
       False)

for f in failures:
    print("check_corpus_order_selftest:", f)
print("check_corpus_order_selftest:", "FAILED" if failures else "16 cases pass")
sys.exit(1 if failures else 0)
