#!/usr/bin/env python3
"""The hostile battery, one program and runner at a time, with what each run left behind.

Usage: stress.py ASMRUN [RUNNER...]   (default runners: native and qemu, native only on x86_64)
Prints a table: program, runner, verdict, wall time, asmrun's peak RSS, leftover processes,
leftover files. Exits 1 when anything was not contained: a verdict other than the expected one,
a leftover process or file, a core dump, or asmrun above 64 MiB.
"""
import json, os, platform, shutil, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
RSS_LIMIT_KIB = 64 * 1024


def peak_rss(pid, result):
    while True:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        result[0] = max(result[0], int(line.split()[1]))
        except OSError:
            return
        time.sleep(0.005)


def leftover_processes(sandbox):
    needle = f"TMPDIR={sandbox}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if needle in f.read():
                    with open(f"/proc/{name}/stat") as s:
                        if s.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                            found.append(int(name))
        except OSError:
            pass
    return found


def run(asmrun, program, runner):
    sandbox = tempfile.mkdtemp(prefix="asmrun-stress-")
    report = os.path.join(sandbox, "report.json")
    tmp = os.path.join(sandbox, "tmp")
    os.mkdir(tmp)
    env = dict(os.environ, TMPDIR=tmp, NO_COLOR="1")
    start = time.perf_counter()
    process = subprocess.Popen([asmrun, "test", os.path.join(HERE, program + ".asm"), "--runner", runner,
                                "--json", report, "--no-cache"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    rss = [0]
    sampler = threading.Thread(target=peak_rss, args=(process.pid, rss), daemon=True)
    sampler.start()
    process.wait()
    seconds = time.perf_counter() - start
    time.sleep(0.05)  # let the kernel finish tearing down killed processes before we count
    processes = leftover_processes(tmp)
    files = os.listdir(tmp)
    try:
        with open(report) as f:
            result = json.load(f)["results"][0]
        verdict = result["status"] + (f" ({result['exit']})" if result.get("exit") else "")
        if result.get("message"):
            verdict += ": " + result["message"][:60]
        ok = result["status"] in ("pass", "xfail", "skip")
    except (OSError, ValueError, KeyError, IndexError) as error:
        verdict, ok = f"no report ({error})", False
    for pid in processes:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    shutil.rmtree(sandbox, ignore_errors=True)
    return verdict, ok, seconds, rss[0], len(processes), len(files)


def main():
    asmrun = os.path.abspath(sys.argv[1])
    runners = sys.argv[2:] or (["native", "qemu"] if platform.machine() == "x86_64" else ["qemu"])
    # attack_* programs need fixtures and run as two users: the sandbox battery's section below.
    programs = sorted(name[:-4] for name in os.listdir(HERE) if name.endswith(".asm") and not name.startswith("attack_"))
    rows, contained = [], True
    for program in programs:
        for runner in runners:
            verdict, ok, seconds, rss, processes, files = run(asmrun, program, runner)
            good = ok and processes == 0 and files == 0 and rss <= RSS_LIMIT_KIB
            contained &= good
            rows.append((program, runner, verdict, f"{seconds:.2f}", f"{rss / 1024:.1f}", str(processes), str(files),
                         "yes" if good else "NO"))
    cores = [name for name in os.listdir(HERE) + os.listdir(".") if "core" in name and not name.endswith(".py")]
    headers = ("program", "runner", "verdict", "wall s", "asmrun peak RSS MiB", "leftover processes",
               "leftover files", "contained")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(headers))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(line(row))
    print(f"\ncore files: {len(cores)}; peak RSS limit {RSS_LIMIT_KIB // 1024} MiB")
    if cores:
        contained = False
    print("every hostile program contained" if contained else "NOT CONTAINED: see the rows marked NO")
    # The sandbox battery (sandbox_battery.py): one attack per way out of a case, as root and nobody.
    import sandbox_battery
    contained &= sandbox_battery.main(asmrun, runners)
    sys.exit(0 if contained else 1)


if __name__ == "__main__":
    main()
