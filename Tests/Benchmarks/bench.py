#!/usr/bin/env python3
"""asmrun's benchmark: one generated corpus checked by a shell loop, make -j, lit, turnt,
xargs -P, a posix_spawn floor running asmrun's own commands, and asmrun (cold, warm, one source
touched, qemu); start-up and a single program; large outputs; a 100 MB source; warm runs
without root on a crowded host; scaling. Every table is measured in interleaved rounds (rounds.py).

Usage: bench.py ASMRUN [--n 200] [--rounds 7] [--scale 2000] [--quick] [--only SECTION,...]
                       [--out BENCHMARKS.md]
Sections: suite, startup, output, source, nonroot, scaling. Prints the report; writes it to --out,
keeping the hand-written part at its end, unless --only chose some sections. Exits non-zero
with a message when any command's result is wrong. Needs nasm, ld, cc, qemu-x86_64, lit and
turnt; the non-root section runs asmrun as `nobody` when the bench runs as root.
"""
import argparse, hashlib, itertools, os, pwd, shlex, shutil, subprocess, sys, tempfile, time

import corpus, floor, report
from rounds import BenchError, Row, interleave, passes, process_count

CORES = os.cpu_count() or 1
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
STALE_TIMINGS = 100_000
# What the timings file can still hold after such a run (Timings.maxEntries), every run reading
# and rewriting it.
BOUNDED_TIMINGS = 20_000
SLEEPERS = 2_000
# The suite's floor rows and asmrun's rows without qemu, measured in rounds of their own (suite()),
# in this order: each asmrun row soon after the row it is compared with.
CLOSE_ROWS = ("6", "7", "7d", "7e", "6b", "7b", "7c", "7f", "6c", "8", "8c", "8d", "8e", "6d", "8b", "8f")


def scratch_base():
    """Where asmrun puts its build files (Sources/Support/ScratchLocation.swift), so that the
    floor's objects and executables land on the same kind of file system."""
    if os.environ.get("TMPDIR"):
        return os.environ["TMPDIR"]
    try:
        info = os.statvfs("/dev/shm")
        if os.access("/dev/shm", os.W_OK) and info.f_bavail * info.f_frsize >= 512 << 20:
            return "/dev/shm"
    except OSError:
        pass
    return "/tmp"


def cache_home():
    """Where asmrun keeps its cache by default (`$XDG_CACHE_HOME`, else ~/.cache), for the row
    that runs with the cache on disk. The other caches sit beside the floor's files (scratch_base):
    on ext4 a new file takes 0.03 ms in a healthy directory but 0.5 ms and more where thousands of
    files were deleted in the last minutes (it looks through the recently freed inodes of the
    directory's block group for every new one), so a cache on disk measured the file system's
    history, not asmrun."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    os.makedirs(home, exist_ok=True)
    return home


class Bench:
    """One bench run: the asmrun binary, the floor, its folders and its never used caches."""

    def __init__(self, asmrun, root, scratch, caches, disk_caches, args):
        self.asmrun, self.root, self.scratch, self.caches, self.args = asmrun, root, scratch, caches, args
        self.disk_caches = disk_caches
        self.jobs = str(CORES)
        self.floor = floor.compile_floor(root)
        self.counter = itertools.count()

    def fresh_cache(self, *_):
        """A cache folder never used before. Cold runs get one each; none is deleted before the
        end, so no run pays for the file system's work on the inodes an earlier one freed."""
        return os.path.join(self.caches, f"cold-{next(self.counter)}")

    def fresh_disk_cache(self, *_):
        """A cache folder never used before, where asmrun's own cache is by default."""
        return os.path.join(self.disk_caches, f"cold-{next(self.counter)}")

    def cache(self, name):
        return os.path.join(self.caches, name)

    def scratch_folder(self, name):
        path = os.path.join(self.scratch, name)
        os.makedirs(path)
        return path

    def test(self, *arguments):
        return [self.asmrun, "test", ".", *arguments]

    def fill(self, directory, cache, count):
        """Runs the corpus in DIRECTORY once with CACHE, untimed, so later runs find it warm."""
        Row("filling the cache", self.test("--cache-dir", cache), directory, check=passes(count)).run(0, record=False)


def suite(bench):
    """The corpus of N programs: peers, floors and asmrun, interleaved in one table."""
    n, jobs, args = bench.args.n, bench.jobs, bench.args
    source = os.path.join(bench.root, "corpus")
    codes = corpus.generate(source, n)
    # Peers write their objects and outputs beside the sources, and the touched row edits one:
    # each gets its own copy, made once, and every round overwrites the same files.
    peers = {name: shutil.copytree(source, os.path.join(bench.root, "peers", name))
             for name in ("loop", "make", "lit", "turnt", "touched")}
    programs, folder = floor.suite_commands(bench.asmrun, source, bench.fresh_cache(), codes)
    plans = {name: os.path.join(bench.root, f"{name}.plan") for name in ("cold", "prebuild", "warm")}
    floor.write_plan(plans["cold"], programs, folder, bench.scratch_folder("floor-cold"), source, codes)
    prebuilt = bench.scratch_folder("floor-warm")
    floor.write_plan(plans["prebuild"], programs, folder, prebuilt, source, codes)
    floor.write_plan(plans["warm"], programs, folder, prebuilt, source, codes, build=False)
    Row("prebuilding the warm floor", [bench.floor, "-j", jobs, plans["prebuild"]], source).run(0, record=False)
    xargs_list = os.path.join(bench.root, "xargs.in")
    script = floor.xargs_input(xargs_list, programs, folder, bench.scratch_folder("xargs"), codes)
    warm = bench.cache("warm")
    bench.fill(source, warm, n)
    bench.fill(peers["touched"], bench.cache("touched"), n)
    stale = StaleTimings(bench, STALE_TIMINGS, bench.fresh_cache, "-j", jobs)
    warm_stale = StaleTimings(bench, BOUNDED_TIMINGS, lambda index: bench.cache("warm-stale"), "-j", jobs)
    bench.fill(source, bench.cache("warm-stale"), n)

    def touch(index):
        with open(os.path.join(peers["touched"], f"p{(index * 37) % n:04d}.asm"), "a") as f:
            f.write(f"; touched {time.time()}\n")

    def cold(*extra):
        return lambda index: bench.test(*extra, "--cache-dir", bench.fresh_cache())

    def floor_run(workers, plan):
        return [bench.floor, "-j", workers, plans[plan]]

    check = passes(n)
    xargs = ["xargs", f"-P{CORES}", "-n4", "sh", "-c", script, "sh"]
    turnt = ["turnt", "-j", *sorted(f"{name}.asm" for name in codes)]
    touched = bench.test("-j", jobs, "--cache-dir", bench.cache("touched"))
    rows = [
        Row("1. shell loop (nasm, ld, run, cmp; sequential)", ["bash", "loop.sh"], peers["loop"]),
        Row(f"2. make -j{CORES}", ["make", "-s", "-B", f"-j{CORES}"], peers["make"]),
        Row(f"3. lit -j{CORES}", ["lit", "-q", f"-j{CORES}", "lit"], peers["lit"]),
        Row("4. turnt -j", turnt, peers["turnt"]),
        Row(f"5. xargs -P{CORES} sh -c 'nasm … && ld … && run && cmp'", xargs, source, stdin=xargs_list),
        Row(f"6. floor: posix_spawn of asmrun's commands, -j{CORES}", floor_run(jobs, "cold"), source),
        Row("6b. floor: posix_spawn of asmrun's commands, -j1", floor_run("1", "cold"), source),
        Row(f"6c. warm floor: prebuilt executables, -j{CORES}", floor_run(jobs, "warm"), source),
        Row("6d. warm floor: prebuilt executables, -j1", floor_run("1", "warm"), source),
        Row(f"7. asmrun test -j{CORES}, cold cache", cold("-j", jobs), source, check=check, rss=True),
        Row("7b. asmrun test -j1, cold cache", cold("-j", "1"), source, check=check, rss=True),
        Row("7c. asmrun test -j1 --no-cache", bench.test("-j", "1", "--no-cache"), source, check=check),
        Row("7f. asmrun test -j1, cold cache, builds not contained (ASMRUN_BUILD_VIEW=0)", cold("-j", "1"), source,
            env=dict(os.environ, ASMRUN_BUILD_VIEW="0"), check=check),
        Row(f"7d. asmrun test -j{CORES}, cold cache with {STALE_TIMINGS:,} stale timings", stale.command, source,
            check=check, finish=stale.finish),
        Row(f"7e. asmrun test -j{CORES}, cold cache in ~/.cache (on disk)",
            lambda index: bench.test("-j", jobs, "--cache-dir", bench.fresh_disk_cache()), source, check=check),
        Row(f"8. asmrun test -j{CORES}, warm cache", bench.test("-j", jobs, "--cache-dir", warm), source,
            check=check, rss=True),
        Row("8b. asmrun test -j1, warm cache", bench.test("-j", "1", "--cache-dir", warm), source, check=check),
        Row(f"8c. asmrun test -j{CORES}, one source touched", touched, peers["touched"], check=check, prepare=touch),
        Row(f"8d. asmrun test -j{CORES} --no-isolation, warm cache",
            bench.test("-j", jobs, "--no-isolation", "--cache-dir", warm), source, check=check),
        Row("8f. asmrun test -j1 --no-isolation, warm cache",
            bench.test("-j", "1", "--no-isolation", "--cache-dir", warm), source, check=check),
        Row(f"8e. asmrun test -j{CORES}, warm cache with {BOUNDED_TIMINGS:,} stale timings", warm_stale.command,
            source, check=check),
        Row(f"9. asmrun test -j{CORES} --runner qemu, cold", cold("-j", jobs, "--runner", "qemu"), source,
            check=check),
        Row(f"9b. asmrun test -j{CORES} --runner qemu, warm",
            bench.test("-j", jobs, "--runner", "qemu", "--cache-dir", warm), source, check=check),
    ]
    # The targets against the floor (or against cold) are a few per cent, less than this machine's
    # speed drifts within a round of the whole table: those rows get rounds of their own, five
    # times as many (a ratio's 90 % interval about ±3 % at 35 rounds where it was ±4 % at 21),
    # without the peers' and qemu's long runs between a row and its comparison.
    number = report.by_number(rows)
    close = [number[key] for key in CLOSE_ROWS]
    interleave("suite", [row for row in rows if row not in close], args.rounds)
    interleave("suite against the floor", close, args.close_rounds)
    return {"rows": rows, "n": n, "rounds": args.rounds, "close": CLOSE_ROWS, "close_rounds": args.close_rounds,
            "xargs": script, "stale": STALE_TIMINGS,
            "stale_entries": stale.entries_after, "bounded": BOUNDED_TIMINGS}


class StaleTimings:
    """Runs whose cache holds a timings file of COUNT programs that do not exist, written before
    each run (Sources/Suite/Timings.swift: `SECONDS\tLAST-SEEN\tPATH`, seen now so only a size
    bound can drop them), and how many entries the file holds after each run. CACHE names the
    cache folder for a run: a fresh one for cold runs, the same one for warm runs."""

    def __init__(self, bench, count, cache, *options):
        self.bench, self.count, self.cache_for, self.options = bench, count, cache, options
        self.cache, self.entries_after = None, []
        now = int(time.time())
        self.text = "".join(f"0.0100\t{now}\t/nonexistent/stale/p{k:06d}.asm\n" for k in range(count))

    def command(self, index):
        self.cache = self.cache_for(index)
        os.makedirs(self.cache, exist_ok=True)
        with open(os.path.join(self.cache, "timings"), "w") as f:
            f.write(self.text)
        return self.bench.test(*self.options, "--cache-dir", self.cache)

    def finish(self, index):
        try:
            with open(os.path.join(self.cache, "timings")) as f:
                self.entries_after.append(sum(1 for _ in f))
        except OSError:
            self.entries_after.append(0)


def startup(bench):
    """asmrun --version, a cached and a cold `asmrun asm/hello.asm`, and the same three commands
    chained by sh -c, interleaved."""
    hello = "asm/hello.asm"
    commands, folder = floor.single_commands(bench.asmrun, hello, REPO, bench.fresh_cache())
    scratch = bench.scratch_folder("hello")
    chain = " && ".join(shlex.join(floor.relocate(argv, folder, scratch)) for argv in commands)
    cached = bench.cache("hello")

    def says_hello(output):
        if output != "Hello, World!\n":
            raise BenchError(f"expected Hello, World!, got {output!r}")

    Row("caching hello", [bench.asmrun, hello, "--cache-dir", cached], REPO, check=says_hello).run(0, record=False)
    crowded = crowded_cache(bench, hello)
    rows = [
        Row("asmrun --version", [bench.asmrun, "--version"], REPO),
        Row("asmrun asm/hello.asm, build cached", [bench.asmrun, hello, "--cache-dir", cached], REPO, check=says_hello),
        Row("asmrun asm/hello.asm, cold cache", lambda index: [bench.asmrun, hello, "--cache-dir", bench.fresh_cache()],
            REPO, check=says_hello),
        Row("sh -c 'nasm … && ld … && ./hello' (asmrun's commands)", ["sh", "-c", chain], REPO, check=says_hello),
        # A define of its own per round: cold, in a cache that already holds CROWDED entries.
        Row(f"asmrun asm/hello.asm, cold, in a cache of {CROWDED:,} entries",
            lambda index: [bench.asmrun, hello, "--cache-dir", crowded, "-D", f"BENCH_ROUND_{index}"], REPO, check=says_hello),
    ]
    interleave("start-up", rows, bench.args.startup_rounds)
    return {"rows": rows, "rounds": bench.args.startup_rounds, "chain": chain}


CROWDED = 20_000


def crowded_cache(bench, hello):
    """A cache folder of asmrun's with CROWDED entries of 1,000 bytes besides hello's (names as
    asmrun makes them; none is ever hit): what a run that stores an entry must not list."""
    folder = bench.cache("crowded")
    subprocess.run([bench.asmrun, hello, "--cache-dir", folder], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    filler = b"\0" * 1000
    for index in range(CROWDED):
        with open(os.path.join(folder, "objects", hashlib.sha256(b"bench %d" % index).hexdigest()), "wb") as f:
            f.write(filler)
    return folder


def judged(correct):
    """A check that asmrun passed the one case, or failed it for its stdout alone."""
    def check(output):
        if correct:
            return passes(1)(output)
        last = output.strip().splitlines()[-1] if output.strip() else ""
        if last != "0 passed, 1 failed" or "stdout differs" not in output or "limit exceeded" in output:
            raise BenchError(f"expected one case failed for its stdout; asmrun printed:\n{output[:3000]}")
    return check


def large_output(bench):
    """One program printing 10k, 100k and 1 MiB of 6-byte lines, each against an expectation
    that is correct, wrong in one line or wrong in every line; warm cache, so the time is the
    run and the judgement."""
    cache, cells = bench.cache("output"), {}
    for n in corpus.LARGE_OUTPUT_SIZES:
        for variant in corpus.LARGE_OUTPUT_VARIANTS:
            directory = os.path.join(bench.root, "output", f"{n}-{variant}")
            corpus.generate_large_output(directory, n, variant)
            correct = variant == "correct"
            row = Row(f"{n} lines, {variant}", bench.test("--cache-dir", cache), directory, status=0 if correct else 1,
                      check=judged(correct), timeout=bench.args.output_timeout)
            row.run(0, record=False)
            cells[(n, variant)] = row
    interleave("large outputs", list(cells.values()), bench.args.output_rounds)
    return {"cells": cells, "rounds": bench.args.output_rounds, "timeout": bench.args.output_timeout}


class Sleepers:
    """COUNT `sleep 600` processes: started before a run, ended (each by its pid) after it."""

    def __init__(self, count):
        self.count, self.processes = count, []

    def start(self, *_):
        for _ in range(self.count):
            self.processes.append(subprocess.Popen(["sleep", "600"], stdin=subprocess.DEVNULL,
                                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self, *_):
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()
        self.processes = []


def nonroot(bench, sleepers):
    """Warm runs of the corpus without root (as `nobody` when the bench is root) with the host as
    it is and with 2,000 more sleeping processes, and the warm floor in both states as the
    control: what the crowd costs every process, not asmrun alone. Each round visits both
    states, in turn first, and runs asmrun and the floor three times in each."""
    n = bench.args.n
    base = os.path.join(bench.root, "nonroot")
    directory = os.path.join(base, "corpus")
    codes = corpus.generate(directory, n, peers=False)
    cache, home, prebuilt = (os.path.join(base, name) for name in ("cache", "home", "prebuilt"))
    for folder in (cache, home, prebuilt):
        os.makedirs(folder)
    programs, folder = floor.suite_commands(bench.asmrun, directory, bench.fresh_cache(), codes)
    plans = [os.path.join(base, name) for name in ("prebuild.plan", "warm.plan")]
    floor.write_plan(plans[0], programs, folder, prebuilt, directory, codes)
    floor.write_plan(plans[1], programs, folder, prebuilt, directory, codes, build=False)
    Row("prebuilding the warm floor", [bench.floor, "-j", bench.jobs, plans[0]], directory).run(0, record=False)
    asmrun = shutil.copy2(bench.asmrun, os.path.join(base, "asmrun"))
    wrap, who = as_unprivileged(bench.root, base)
    env = dict(os.environ, HOME=home)
    command = wrap + [asmrun, "test", ".", "-j", bench.jobs, "--cache-dir", cache]
    Row("filling the cache", command, directory, env=env, check=passes(n)).run(0, record=False)
    states = {}
    for state, label in (("quiet", "host as it is"), ("crowded", f"{SLEEPERS:,} more sleeping processes")):
        states[state] = [Row(f"asmrun test -j{bench.jobs}, warm, {label}", command, directory, env=env,
                             check=passes(n)),
                         Row(f"warm floor -j{bench.jobs}, {label}", wrap + [bench.floor, "-j", bench.jobs, plans[1]],
                             directory, env=env)]
    counts = {"quiet": [], "crowded": []}
    for index in range(bench.args.rounds):
        for state in (("quiet", "crowded") if index % 2 == 0 else ("crowded", "quiet")):
            if state == "crowded":
                sleepers.start()
            counts[state].append(process_count())
            try:
                # Three runs of each per visit: the crowd costs seconds to start, a run a fraction.
                for repeat in range(3):
                    for row in states[state] if (index + repeat) % 2 == 0 else states[state][::-1]:
                        row.run(index)
            finally:
                sleepers.stop()
        print(f"bench: without root: round {index + 1}/{bench.args.rounds}", file=sys.stderr, flush=True)
    return {"states": states, "counts": counts, "n": n, "who": who, "rounds": bench.args.rounds}


def as_unprivileged(root, base):
    """The command prefix that runs as `nobody` (setpriv; BASE and everything in it handed to
    that user, ROOT made traversable), or none when the bench is not root; and the user name."""
    if os.geteuid() != 0:
        return [], pwd.getpwuid(os.geteuid()).pw_name
    user = pwd.getpwnam("nobody")
    os.chmod(root, 0o755)
    for folder, subfolders, files in os.walk(base):
        for path in [folder] + [os.path.join(folder, name) for name in subfolders + files]:
            os.chown(path, user.pw_uid, user.pw_gid)
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"], "nobody"


def scaling(bench):
    """Cold and warm runs at N and at the scale size: the time per program must stay flat."""
    rows, sizes = [], sorted({bench.args.n, bench.args.scale})
    for n in sizes:
        directory = os.path.join(bench.root, f"scale{n}")
        corpus.generate(directory, n, peers=False)
        warm = bench.cache(f"scale{n}")
        bench.fill(directory, warm, n)
        rows += [Row(f"cold, N={n}", lambda index: bench.test("-j", bench.jobs, "--cache-dir", bench.fresh_cache()),
                     directory, check=passes(n), rss=True),
                 Row(f"warm, N={n}", bench.test("-j", bench.jobs, "--cache-dir", warm), directory, check=passes(n),
                     rss=True)]
    interleave("scaling", rows, bench.args.scale_rounds)
    return {"sizes": sizes, "rows": {(n, kind): rows[2 * k + j] for k, n in enumerate(sizes)
                                     for j, kind in enumerate(("cold", "warm"))}, "rounds": bench.args.scale_rounds}


def large_source(bench):
    """A 100 MB source: asmrun's analysis of it (`asmrun test --list`: read, hashed and scanned
    once through a small buffer) against nasm assembling it, with asmrun's peak RSS. Both in the
    scratch folder's file system (tmpfs where there is one), so neither waits for a disk."""
    directory = bench.scratch_folder("large-source")
    corpus.generate_large_source(os.path.join(directory, "large.asm"))
    output = os.path.join(bench.scratch_folder("large-source-object"), "large.o")

    def lists_one(text):
        if text.strip() != "large.asm:default [native]":
            raise BenchError(f"expected asmrun test --list to list large.asm's one case; it printed:\n{text[:3000]}")

    rows = [Row("asmrun test --list (the source analysed)", bench.test("--list", "--cache-dir", bench.cache("source")),
                directory, check=lists_one, rss=True),
            Row("nasm -f elf64 (the source assembled)", ["nasm", "-f", "elf64", "-o", output, "large.asm"], directory)]
    interleave("large source", rows, bench.args.source_rounds)
    return {"rows": rows, "bytes": os.path.getsize(os.path.join(directory, "large.asm")),
            "rounds": bench.args.source_rounds}


SECTIONS = ["suite", "startup", "output", "source", "nonroot", "scaling"]


def parse_arguments():
    parser = argparse.ArgumentParser(description="asmrun's benchmark; writes BENCHMARKS.md.")
    parser.add_argument("asmrun")
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_N", 200)), help="programs in the corpus")
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("BENCH_ROUNDS", 7)),
                        help="interleaved rounds of the suite and non-root tables (default 7; the suite's "
                             "floor comparisons get 5 times as many)")
    parser.add_argument("--scale", type=int, default=int(os.environ.get("BENCH_SCALE", 2000)),
                        help="the large corpus of the scaling table")
    parser.add_argument("--quick", action="store_true", help="3 rounds, scaling to 500: a short run for iterating")
    parser.add_argument("--only", help="comma-separated sections (" + ", ".join(SECTIONS) + "); the report is "
                        "printed, not written")
    parser.add_argument("--out", default="BENCHMARKS.md")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.scale = 3, min(args.scale, 500)
    args.startup_rounds = 7 * args.rounds
    args.close_rounds = 5 * args.rounds
    args.output_rounds = min(args.rounds, 5)
    args.source_rounds = min(args.rounds, 3)
    args.output_timeout = 30
    args.scale_rounds = 3 if args.rounds >= 5 else 1
    args.sections = args.only.split(",") if args.only else SECTIONS
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    return args


def main():
    args = parse_arguments()
    started = time.perf_counter()
    root = tempfile.mkdtemp(prefix="asmrun-bench-")
    # A fresh copy: an older file of the same bytes starts slower here (report.notes).
    asmrun = shutil.copy(os.path.abspath(args.asmrun), os.path.join(root, "asmrun"))
    scratch = tempfile.mkdtemp(prefix="asmrun-bench-", dir=scratch_base())
    caches = tempfile.mkdtemp(prefix="asmrun-bench-caches-", dir=scratch_base())
    disk_caches = tempfile.mkdtemp(prefix="asmrun-bench-", dir=cache_home())
    sleepers = Sleepers(SLEEPERS)
    results = {}
    try:
        bench = Bench(asmrun, root, scratch, caches, disk_caches, args)
        steps = {"suite": lambda: suite(bench), "startup": lambda: startup(bench),
                 "output": lambda: large_output(bench), "source": lambda: large_source(bench),
                 "nonroot": lambda: nonroot(bench, sleepers),
                 "scaling": lambda: scaling(bench)}
        for section in SECTIONS:
            if section in args.sections:
                results[section] = steps[section]()
    except BenchError as error:
        sys.exit(f"bench: {error}")
    finally:
        sleepers.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(caches, ignore_errors=True)
        shutil.rmtree(disk_caches, ignore_errors=True)
    text = report.render(args, results, CORES, time.perf_counter() - started)
    print(text)
    if args.only:
        print(f"bench: --only: {args.out} not written", file=sys.stderr)
    else:
        report.write(args.out, text)


if __name__ == "__main__":
    main()
