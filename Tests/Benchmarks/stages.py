#!/usr/bin/env python3
"""Where asmrun's own time goes between the tools, stage by stage, from clock readings in asmrun.

    python3 Tests/Benchmarks/stages.py [--runs 5] [--keep DIR] [CORPUS]

Builds the committed code (HEAD, in a worktree of its own, with `make build`) with a clock
reading (`Probe.mark`) at each stage boundary of a cold build and a case (MARKS below), runs
`asmrun test CORPUS -j1` RUNS times with a fresh cache, and prints, per transition between two
marks, how often it was seen and its median and lower quartile in µs. CORPUS defaults to the
bench's 200 programs (corpus.py), generated in a temporary folder. A reading costs a
`clock_gettime` and an atomic add (about 30 ns), so the figures are asmrun's own, not the
tracing's. The readings of all threads go into one sequence: at -j1 (one worker) the transitions
follow one another and add up to a program's path.
Used for the "stage by stage" section of BENCHMARKS.md; the worktree's first build takes a
few minutes (--keep DIR keeps it, and its build, for the next run).
"""
import argparse, collections, os, shutil, statistics, subprocess, sys, tempfile

import corpus

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# (file, text, the text with its mark in it): each text must occur once in its file.
L = "Sources/Sandbox/PosixLauncher.swift"
MARKS = [
    (L, "        var pipes = try ChildPipes(options: options)\n",
     "        Probe.mark(options.warden == nil ? 10 : 20)\n        var pipes = try ChildPipes(options: options)\n"),
    (L, "        pipes.closeChildEnds()\n", "        Probe.mark(options.warden == nil ? 11 : 21)\n        pipes.closeChildEnds()\n"),
    (L, "        var result = supervisor.run()\n",
     "        var result = supervisor.run()\n        Probe.mark(options.warden == nil ? 12 : 22)\n"),
    (L, "        result.interrupted = children.remove(pid)\n",
     "        result.interrupted = children.remove(pid)\n        Probe.mark(options.warden == nil ? 13 : 23)\n"),
    ("Sources/Run/CaseRunner.swift", "        let warden = containment?.warden(processes: limits.resources.processes)\n",
     "        Probe.mark(30)\n        let warden = containment?.warden(processes: limits.resources.processes)\n"),
    ("Sources/Run/CaseRunner.swift", "        var launch = prepared.launch\n",
     "        Probe.mark(31)\n        var launch = prepared.launch\n"),
    ("Sources/Run/CaseRunner.swift", "        var run = CaseRun(result: result, leftovers: leftovers)\n",
     "        Probe.mark(32)\n        var run = CaseRun(result: result, leftovers: leftovers)\n"),
    ("Sources/Suite/CaseExecutor.swift", "        let result = run.result\n", "        Probe.mark(40)\n        let result = run.result\n"),
    ("Sources/Suite/CaseExecutor.swift", "        if run.leftovers > 0 {\n", "        Probe.mark(41)\n        if run.leftovers > 0 {\n"),
    ("Sources/Suite/CaseExecutor.swift", "        return verdict\n    }\n\n    /// The crash",
     "        Probe.mark(42)\n        return verdict\n    }\n\n    /// The crash"),
    ("Sources/Suite/SuiteRunner.swift", "                    complete(slot, runnerIndex, result)\n                }\n",
     "                    complete(slot, runnerIndex, result)\n                    Probe.mark(43)\n                }\n"),
    ("Sources/Suite/SuiteRunner.swift", "        let test = programs[index]\n        guard !isCancelled else { return }\n",
     "        Probe.mark(50)\n        let test = programs[index]\n        guard !isCancelled else { return }\n"),
    ("Sources/Suite/SuiteRunner.swift", "        let buildDuration = built.seconds\n",
     "        Probe.mark(51)\n        let buildDuration = built.seconds\n"),
    ("Sources/Suite/SuiteRunner.swift", "        pool.run()\n", "        pool.run()\n        Probe.dump()\n"),
    ("Sources/Build/ArtifactStore.swift", "        var warnings = \"\"\n        objectsMade = true\n",
     "        Probe.mark(60)\n        var warnings = \"\"\n        objectsMade = true\n"),
    ("Sources/Build/ArtifactStore.swift",
     "            warnings += try link(plan, program: program, toolchain: toolchain, builder: builder)\n        } catch let",
     "            Probe.mark(61)\n            warnings += try link(plan, program: program, toolchain: toolchain, builder: builder)\n"
     "            Probe.mark(62)\n        } catch let"),
    ("Sources/Build/ArtifactStore.swift",
     "        let kept = try keep(linked, key: key, warnings: warnings, program: program)\n",
     "        Probe.mark(63)\n        let kept = try keep(linked, key: key, warnings: warnings, program: program)\n"
     "        Probe.mark(64)\n"),
]

STAGES = {
    (10, 11): "a tool's spawn: pipes, output memory file, vfork until its exec",
    (11, 12): "the tool runs, until it is reaped",
    (12, 13): "the tool's supervision ends",
    (13, 61): "after nasm: its output, the source checked unchanged, the object's key",
    (61, 10): "before ld: the object's symbols, the link decision, the command",
    (13, 62): "after ld, until the link returns",
    (62, 63): "the key of what was linked",
    (63, 64): "the executable sealed into the cache",
    (64, 51): "the artifact made and handed to the suite runner",
    (51, 30): "the case scheduled and taken by the worker",
    (30, 31): "the case prepared: folder, command, environment, limits",
    (31, 20): "the case's launch options",
    (20, 21): "the case handed to its warden, until the program's start is reported",
    (21, 22): "the program runs, until the warden's end report",
    (22, 23): "the case's supervision ends",
    (23, 32): "the case folder swept",
    (32, 40): "the run's result returned",
    (40, 41): "the observation built and judged",
    (41, 42): "the verdict completed",
    (42, 43): "the case completed and its report line written",
    (43, 50): "the next job taken",
    (50, 60): "the next build: plan, keys, cache lookups",
    (60, 10): "to the first tool's spawn",
}

PROBE = '''import Glibc
import Synchronization

/// Clock readings at stage boundaries, written to $ASMRUN_PROBE at the end of a suite
/// (Tests/Benchmarks/stages.py adds this file and the marks to a worktree; never committed).
package enum Probe {
    nonisolated(unsafe) static let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << 20)
    static let count = Atomic<Int>(0)

    @inline(never)
    package static func mark(_ id: UInt64) {
        let index = count.add(1, ordering: .relaxed).oldValue
        guard index < (1 << 19) else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        buffer[2 * index] = id
        buffer[2 * index + 1] = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    package static func dump() {
        guard let path = getenv("ASMRUN_PROBE") else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var text = ""
        for index in 0..<min(count.load(ordering: .relaxed), 1 << 19) {
            text += "\\(buffer[2 * index]) \\(buffer[2 * index + 1])\\n"
        }
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }
}
'''


def insert(tree, path, text, marked):
    full = os.path.join(tree, path)
    with open(full) as f:
        source = f.read()
    if source.count(text) != 1:
        sys.exit(f"stages: {path} no longer has the text a mark goes with: {text.strip()!r}; update MARKS")
    source = source.replace(text, marked)
    with open(full, "w") as f:
        f.write(source)


def instrumented(tree):
    """A worktree of HEAD at TREE with the marks, built; returns its asmrun."""
    binary = os.path.join(tree, ".build/release/asmrun")
    if not os.path.isdir(tree):
        subprocess.run(["git", "-C", REPO, "worktree", "add", "--detach", tree, "HEAD"], check=True,
                       stdout=subprocess.DEVNULL)
        for path, text, marked in MARKS:
            insert(tree, path, text, marked)
        with open(os.path.join(tree, "Sources/Support/Probe.swift"), "w") as f:
            f.write(PROBE)
    build = subprocess.run(["make", "-C", tree, "build"], capture_output=True, text=True)
    if build.returncode != 0:
        sys.exit(f"stages: the instrumented build failed:\n{(build.stdout + build.stderr)[-3000:]}")
    return binary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", help="the worktree's folder, kept for the next run")
    parser.add_argument("corpus", nargs="?")
    args = parser.parse_args()
    if not 1 <= args.runs <= 100:
        parser.error("--runs takes 1 to 100")
    scratch = tempfile.mkdtemp(prefix="asmrun-stages-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    tree = os.path.abspath(args.keep) if args.keep else os.path.join(scratch, "tree")
    try:
        folder = args.corpus
        if not folder:
            folder = os.path.join(scratch, "corpus")
            corpus.generate(folder, 200, peers=False)
        asmrun = instrumented(tree)
        transitions = collections.defaultdict(list)
        for run in range(args.runs):
            readings = os.path.join(scratch, f"probe-{run}")
            cache = os.path.join(scratch, f"cache-{run}")
            subprocess.run([asmrun, "test", ".", "-j", "1", "--cache-dir", cache], cwd=folder,
                           env={**os.environ, "ASMRUN_PROBE": readings}, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(cache, ignore_errors=True)
            with open(readings) as f:
                rows = [tuple(map(int, line.split())) for line in f]
            for (a, at), (b, bt) in zip(rows, rows[1:]):
                transitions[(a, b)].append((bt - at) / 1000)
        print(f"{args.runs} cold runs at -j1; µs per transition (median, lower quartile)")
        for pair in STAGES:
            values = transitions.get(pair, [])
            if len(values) >= 4:
                print(f"  {pair[0]:>2} → {pair[1]:<2} {statistics.median(values):8.1f} "
                      f"{statistics.quantiles(values, n=4)[0]:8.1f}  n={len(values):<5} {STAGES[pair]}")
    finally:
        if not args.keep and os.path.isdir(tree):
            subprocess.run(["git", "-C", REPO, "worktree", "remove", "--force", tree], stdout=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
