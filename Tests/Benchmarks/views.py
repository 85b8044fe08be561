#!/usr/bin/env python3
"""What a build view per submission costs: `asmrun test -j1` over N folders of one program each
(asm/hello.asm), cold, with build views (one per folder) and without (ASMRUN_BUILD_VIEW=0),
in interleaved rounds: the medians' difference per folder (= per program), in wall time and in
CPU time (asmrun's and its children's, user + system, from wait4).

    python3 Tests/Benchmarks/views.py [ASMRUN] [--folders 50] [--rounds 12] [--as-nobody] [--against OLD]

ASMRUN defaults to .build/release/asmrun; --as-nobody runs it as `nobody` (setpriv), where each
view needs a user namespace of its own. --against OLD compares OLD's views with ASMRUN's
instead (both with views, interleaved): what a change to the views saves per folder. Used for
BENCHMARKS.md's "Contained builds" section.
"""
import argparse, os, shutil, statistics, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("asmrun", nargs="?", default=os.path.join(REPO, ".build/release/asmrun"))
    parser.add_argument("--folders", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--as-nobody", action="store_true")
    parser.add_argument("--against", metavar="OLD")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="asmrun-views-") as root:
        os.chmod(root, 0o755)
        binary = os.path.join(root, "asmrun")
        shutil.copy(options.asmrun, binary)
        old = os.path.join(root, "asmrun-old")
        if options.against:
            shutil.copy(options.against, old)
        folders = []
        for index in range(options.folders):
            folder = os.path.join(root, "submissions", f"s{index}")
            os.makedirs(folder)
            shutil.copy(os.path.join(REPO, "asm/hello.asm"), folder)
            with open(os.path.join(folder, "hello.expect"), "w") as expect:
                expect.write("[case default]\nstdout:\n| [..]\nstatus: exit 0\n")
            folders.append(folder)
        subprocess.run(["chmod", "-R", "a+rX", root], check=True)
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if options.as_nobody else []

        def run(views):
            cache = tempfile.mkdtemp(prefix="asmrun-views-cache-", dir="/dev/shm")
            os.chmod(cache, 0o777)
            # With --against, "without" is OLD with its views.
            off = not views and not options.against
            environment = dict(os.environ, HOME=root, **({"ASMRUN_BUILD_VIEW": "0"} if off else {}))
            start = time.perf_counter()
            program = old if options.against and not views else binary
            child = subprocess.Popen([*prefix, program, "test", "-j1", "--cache-dir", cache, *folders], env=environment,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            elapsed = time.perf_counter() - start
            child.returncode = os.waitstatus_to_exitcode(status)
            shutil.rmtree(cache, ignore_errors=True)
            if child.returncode != 0:
                raise SystemExit(f"asmrun test exited {child.returncode}")
            return elapsed, usage.ru_utime + usage.ru_stime

        samples = {True: [], False: []}
        for index in range(options.rounds):
            for views in (True, False) if index % 2 else (False, True):
                samples[views].append(run(views))
        for kind, column in (("wall", 0), ("CPU", 1)):
            with_views = statistics.median(sample[column] for sample in samples[True])
            without = statistics.median(sample[column] for sample in samples[False])
            other = "OLD's views" if options.against else "none"
            print(f"{options.folders} folders, cold -j1, {kind}: a view each {with_views * 1000:.1f} ms, "
                  f"{other} {without * 1000:.1f} ms, {(with_views - without) / options.folders * 1000:+.3f} ms per folder")


if __name__ == "__main__":
    main()
