#!/usr/bin/env python3
"""What `asmrun trace` costs per instruction, natively (ptrace) and under qemu (its gdbstub, as on
an ARM host: ASMRUN_HOST_ARCH=aarch64): a two-line endless loop traced for a few steps and for
many, in interleaved rounds; the cost per step is the difference over the extra steps, as wall
time and as asmrun's and its children's CPU time (steadier on a loaded machine).

    python3 Tests/Benchmarks/trace.py [ASMRUN] [--rounds 7] [--native-steps 20000] [--qemu-steps 5000]

ASMRUN defaults to .build/release/asmrun. Used for BENCHMARKS.md's "asmrun trace" paragraph.
"""
import argparse, os, resource, statistics, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PROGRAM = "section .data\ncount: dq 0\nsection .text\nglobal _start\n_start:\n  inc qword [count]\n  jmp _start\n"


def timed(command, environment):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, env=environment, stdin=subprocess.DEVNULL, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 124:
        raise SystemExit(f"{' '.join(command)} exited {result.returncode}: {result.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("asmrun", nargs="?", default=os.path.join(REPO, ".build/release/asmrun"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--native-steps", type=int, default=20000)
    parser.add_argument("--qemu-steps", type=int, default=5000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="asmrun-trace-bench-") as folder:
        source = os.path.join(folder, "spin.asm")
        with open(source, "w") as file:
            file.write(PROGRAM)
        ways = [("native", {}, options.native_steps), ("qemu", {"ASMRUN_HOST_ARCH": "aarch64"}, options.qemu_steps)]
        samples = {name: {"wall": [], "cpu": []} for name, _, _ in ways}
        for _ in range(options.rounds):
            for name, extra, steps in ways:
                environment = dict(os.environ, **extra)
                short = timed([options.asmrun, "trace", source, "--steps", "10"], environment)
                long = timed([options.asmrun, "trace", source, "--steps", str(steps)], environment)
                samples[name]["wall"].append((long[0] - short[0]) / (steps - 10))
                samples[name]["cpu"].append((long[1] - short[1]) / (steps - 10))
        for name, _, steps in ways:
            wall = statistics.median(samples[name]["wall"]) * 1e6
            cpu = statistics.median(samples[name]["cpu"]) * 1e6
            print(f"{name:7} {wall:7.1f} µs/step wall, {cpu:7.1f} µs/step CPU (median of {options.rounds} rounds, {steps} steps)")


if __name__ == "__main__":
    main()
