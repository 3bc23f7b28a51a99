#!/usr/bin/env python3
"""check_corpus.py's rule for lines the H200 itself prints differently from run to run.

A CPU line may differ from the H200's first run only where the H200's own runs differed, with
the same words, and each number inside their spread widened by it each way. Checked here on
lines shaped like the corpus's (reduction_atomic_warp's "host: X, device Y").
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

for f in failures:
    print("check_corpus_order_selftest:", f)
print("check_corpus_order_selftest:", "FAILED" if failures else "7 cases pass")
sys.exit(1 if failures else 0)
