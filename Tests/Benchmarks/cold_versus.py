#!/usr/bin/env python3
"""Two asmrun binaries, cold, in interleaved rounds: each round runs `asmrun test CORPUS -j JOBS`
with a fresh cache folder under OLD and NEW (in alternating order) and the medians are compared.

Usage: cold_versus.py CORPUS OLD NEW ROUNDS JOBS
CORPUS is a folder of programs with their .expect files (the bench's: corpus.generate).
"""
import shutil, statistics, subprocess, sys, tempfile, time


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    corpus, old, new, rounds, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    times = {old: [], new: []}
    for index in range(rounds):
        for binary in ([old, new] if index % 2 == 0 else [new, old]):
            cache = tempfile.mkdtemp()
            start = time.perf_counter()
            run = subprocess.run([binary, "test", corpus, "-j", jobs, "--cache-dir", cache], capture_output=True)
            times[binary].append(time.perf_counter() - start)
            shutil.rmtree(cache)
            if run.returncode != 0:
                sys.exit(f"{binary} failed: {run.stdout[-300:]!r}")
    programs = sum(1 for line in subprocess.run([new, "test", corpus, "--list"], capture_output=True, text=True).stdout.splitlines())
    before, after = statistics.median(times[old]), statistics.median(times[new])
    print(f"cold -j{jobs}: old {before * 1000:.0f} ms, new {after * 1000:.0f} ms, {after / before:.3f}×, "
          f"{(after - before) / max(programs, 1) * 1000:+.3f} ms per case")


if __name__ == "__main__":
    main()
