#!/usr/bin/env python3
"""Two asmrun binaries on the bench's corpus, warm, in interleaved rounds.

    python3 Tests/Benchmarks/versus.py OLD NEW [--rounds 40] [--as-nobody] [--cold | --single]

Copies both binaries into a temporary folder (a binary's age in the page cache changes its
start-up: see BENCHMARKS.md's notes), generates the bench's 200 programs (corpus.py), warms a
cache per binary, then runs `asmrun test -j1` and `-j2` with each, alternating which binary goes
first from round to round, and prints the medians, their ratio and the difference per program.
--as-nobody runs both as `nobody` (setpriv), where cases keep asmrun's user. --cold gives every
run a cache folder of its own, never used before (beside the corpus, so both write to one file
system), and reports cold runs instead. --single compares a single cold `asmrun asm/hello.asm`
(run in the repository, a fresh cache folder in /dev/shm each time) instead of the suite. Used
for the
"Fidelity and containment" section of BENCHMARKS.md (OLD built from an earlier commit with
`make build` in a worktree).
"""
import argparse, os, shutil, statistics, subprocess, tempfile, time

import corpus


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--as-nobody", action="store_true")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--single", action="store_true")
    options = parser.parse_args()
    if options.single:
        return single(options)
    with tempfile.TemporaryDirectory(prefix="asmrun-versus-") as root:
        os.chmod(root, 0o755)
        source = os.path.join(root, "corpus")
        corpus.generate(source, 200)
        names = {"old": options.old, "new": options.new}
        for name, path in names.items():
            shutil.copy(path, os.path.join(root, name))
            os.makedirs(os.path.join(root, "cache-" + name))
        prefix = []
        if options.as_nobody:
            subprocess.run(["chmod", "-R", "a+rX", root], check=True)
            subprocess.run(["chown", "-R", "nobody", *(os.path.join(root, "cache-" + n) for n in names)], check=True)
            prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

        fresh = [0]

        def run(name, jobs):
            cache = os.path.join(root, "cache-" + name)
            if options.cold:
                fresh[0] += 1
                cache = os.path.join(cache, str(fresh[0]))
            environment = dict(os.environ, XDG_CACHE_HOME=cache, HOME=root)
            start = time.perf_counter()
            done = subprocess.run(
                [*prefix, os.path.join(root, name), "test", jobs, source], env=environment,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if done.returncode != 0:
                raise SystemExit(f"{names[name]} test {jobs} exited {done.returncode}: {done.stderr[-300:]!r}")
            return time.perf_counter() - start

        times = {}
        for name in names:
            run(name, "-j1")  # the page cache holds both binaries and the corpus
        for index in range(options.rounds):
            for name in ("old", "new") if index % 2 else ("new", "old"):
                for jobs in ("-j1", "-j2"):
                    times.setdefault((name, jobs), []).append(run(name, jobs))
        for jobs in ("-j1", "-j2"):
            old, new = (statistics.median(times[(n, jobs)]) for n in ("old", "new"))
            print(f"{'cold' if options.cold else 'warm'} {jobs}: old {old * 1000:.1f} ms, new {new * 1000:.1f} ms, "
                  f"{new / old:.3f}×, {(new - old) / 200 * 1000:+.3f} ms per program")


def single(options):
    """A single cold `asmrun asm/hello.asm` with each binary, interleaved."""
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory(prefix="asmrun-versus-") as root:
        binaries = {}
        for name, path in (("old", options.old), ("new", options.new)):
            binaries[name] = os.path.join(root, name)
            shutil.copy(path, binaries[name])
        times = {"old": [], "new": []}

        def run(name):
            cache = tempfile.mkdtemp(prefix="asmrun-versus-cache-", dir="/dev/shm")
            start = time.perf_counter()
            done = subprocess.run([binaries[name], "asm/hello.asm", "--cache-dir", cache], cwd=repository,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
            shutil.rmtree(cache, ignore_errors=True)
            if done.returncode != 0:
                raise SystemExit(f"{name}: asmrun asm/hello.asm exited {done.returncode}")
            return elapsed

        for name in times:
            run(name)
        for index in range(options.rounds):
            for name in ("old", "new") if index % 2 else ("new", "old"):
                times[name].append(run(name))
        old, new = (statistics.median(times[name]) for name in ("old", "new"))
        print(f"single cold asm/hello.asm: old {old * 1000:.2f} ms, new {new * 1000:.2f} ms, {(new - old) * 1000:+.2f} ms")


if __name__ == "__main__":
    main()
