#!/usr/bin/env python3
"""check_corpus.py must fail a run whose copied-back bytes differ from the H200's.

    check_corpus_selftest.py --cli build/cli/warpviz-cli --corpus ../shared/corpus

Runs one corpus row (jaccard: small, and passing) against its real reference, then against a
copy of the reference with one kept byte of its first copy changed (and the copy's hash with
it): the first must pass, the second must fail naming the copy and the byte. Exit 77 when the
corpus is absent.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = "jaccard"


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def run_check(args, reference):
    command = [sys.executable, os.path.join(HERE, "check_corpus.py"), "--cli", args.cli, "--corpus", args.corpus,
               "--reference", reference, "--only", f"^{ROW}$"]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--corpus", required=True)
    args = parser.parse_args()
    if not os.path.isdir(args.corpus):
        print("check_corpus_selftest: no corpus (skipped)")
        return 77
    real = os.path.join(HERE, "reference")
    code, out = run_check(args, real)
    print(out, end="")
    if code != 0:
        print("check_corpus_selftest: the real reference did not pass")
        return 1
    with tempfile.TemporaryDirectory(prefix="warpviz-corpus-selftest-") as doctored:
        for suffix in (".out", ".exit", ".d2h", ".d2h.bin"):
            shutil.copy(os.path.join(real, ROW + suffix), os.path.join(doctored, ROW + suffix))
        lines = open(os.path.join(doctored, ROW + ".d2h")).read().splitlines()
        seq, api, size, _, kept = lines[0].split()
        assert kept == "1", "the row's first copy must be kept whole"
        data = bytearray(open(os.path.join(doctored, ROW + ".d2h.bin"), "rb").read())
        data[5] ^= 0x01  # one bit of the first copy's second word
        open(os.path.join(doctored, ROW + ".d2h.bin"), "wb").write(data)
        lines[0] = f"{seq} {api} {size} {fnv1a64(data[:int(size)]):016x} {kept}"
        open(os.path.join(doctored, ROW + ".d2h"), "w").write("\n".join(lines) + "\n")
        code, out = run_check(args, doctored)
    print(out, end="")
    if code != 1 or "copy 0" not in out or "byte 5" not in out:
        print("check_corpus_selftest: a changed copied-back byte was not caught")
        return 1
    print("check_corpus_selftest: the real arrays pass, a changed byte fails")
    return 0


if __name__ == "__main__":
    sys.exit(main())
