#!/usr/bin/env python3
"""Where a suite's time goes between its tools, from the kernel's own trace (ftrace).

    sudo python3 Tests/Benchmarks/timeline.py [--keep FILE] -- COMMAND [ARGUMENT ...]

Runs COMMAND once (in the current folder, its output discarded) with the scheduler's process
events and the system calls of COMMAND's own threads traced, then prints, per program of the
suite (an executable named by a 64-digit key, as asmrun's cache and the floor name them):

- the intervals of the chain nasm → ld → program → next nasm: from each process's fork to its
  exec, from its exec to its exit, and from its exit to the next fork (the runner's own work
  between two tools, plus the exiting tool's teardown, which every runner waits for alike);
- for the busiest thread of COMMAND (asmrun's worker at -j1, the floor's thread): how long it
  ran, how much of that was system calls (those that do not wait for a child), and the gaps
  between its system calls (its own code), with the gaps grouped by the calls around them.

Needs root and tracefs (/sys/kernel/tracing). Tracing costs about a microsecond per event, so
absolute figures run a little high; compare two commands traced the same way. Used for the
"cold -j1" paragraph of BENCHMARKS.md.
"""
import argparse, collections, os, re, statistics, subprocess, sys

TRACING = "/sys/kernel/tracing"
EVENTS = ["sched/sched_process_fork", "sched/sched_process_exec", "sched/sched_process_exit", "sched/sched_switch",
          "raw_syscalls/sys_enter", "raw_syscalls/sys_exit"]
LINE = re.compile(r"\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)")
KEY = re.compile(r"[0-9a-f]{64}")
# Calls a thread waits in for another process; their time is not the thread's own work.
WAITING = {"poll", "ppoll", "read", "recvmsg", "wait4", "waitid", "futex", "vfork", "clone", "clone3"}


def syscall_names():
    names = {}
    for header in ("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "/usr/include/aarch64-linux-gnu/asm/unistd.h",
                   "/usr/include/asm-generic/unistd.h"):
        if os.path.exists(header):
            for line in open(header):
                match = re.match(r"#define __NR_(\w+)\s+(\d+)", line)
                if match:
                    names.setdefault(int(match.group(2)), match.group(1))
    return names


def write(path, text):
    with open(os.path.join(TRACING, path), "w") as f:
        f.write(text)


def trace(command, comm):
    """COMMAND's trace, as lines of tracefs's text format."""
    write("tracing_on", "0")
    write("trace", "")
    write("buffer_size_kb", "65536")
    for event in EVENTS:
        write(f"events/{event}/enable", "1")
    for event in EVENTS[-2:]:
        write(f"events/{event}/filter", f'comm == "{comm}"')
    try:
        write("tracing_on", "1")
        subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        write("tracing_on", "0")
    finally:
        for event in EVENTS:
            write(f"events/{event}/enable", "0")
        for event in EVENTS[-2:]:
            write(f"events/{event}/filter", "0")
    with open(os.path.join(TRACING, "trace")) as f:
        text = f.read()
    lost = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", text)
    if lost and lost.group(1) != lost.group(2):
        sys.exit(f"timeline: the trace buffer overflowed ({lost.group(1)} of {lost.group(2)} events kept); "
                 "trace a smaller suite")
    return text.splitlines()


def parse(lines):
    events = []
    for line in lines:
        match = LINE.match(line)
        if match:
            comm, tid, _, stamp, name, rest = match.groups()
            events.append((float(stamp), tid, comm, name, rest))
    return events


def kind_of(filename):
    base = filename.rsplit("/", 1)[-1]
    if KEY.fullmatch(base):
        return "program"
    return base if base in ("nasm", "ld", "cc", "gcc") else None


def chain(events):
    """The intervals of the tool chain, in microseconds, by name."""
    forks, execs, exits, kinds = {}, {}, {}, {}
    for stamp, tid, _, name, rest in events:
        if name == "sched_process_fork":
            forks[re.search(r"child_pid=(\d+)", rest).group(1)] = stamp
        elif name == "sched_process_exec":
            pid = re.search(r" pid=(\d+)", rest).group(1)
            kind = kind_of(re.search(r"filename=(\S+)", rest).group(1))
            if kind:
                kinds[pid], execs[pid] = kind, stamp
        elif name == "sched_process_exit":
            exits[re.search(r" pid=(\d+)", rest).group(1)] = stamp
    started = sorted((pid for pid in kinds if pid in forks and pid in exits), key=forks.get)
    intervals = collections.defaultdict(list)
    for previous, pid in zip([None] + started, started):
        kind = kinds[pid]
        intervals[f"{kind}: fork to exec"].append(execs[pid] - forks[pid])
        intervals[f"{kind}: exec to exit"].append(exits[pid] - execs[pid])
        if previous:
            intervals[f"{kinds[previous]} exit to {kind} fork"].append(forks[pid] - exits[previous])
    return intervals, sum(1 for pid in started if kinds[pid] == "program")


def thread_split(events, names):
    """The busiest traced thread: (tid, running s, own system-call s by call, gaps s by calls around)."""
    counts = collections.Counter(tid for _, tid, _, name, _ in events if name == "sys_enter")
    if not counts:
        sys.exit("timeline: no system call of the command was traced (is --comm its name?)")
    tid = counts.most_common(1)[0][0]
    running, since, calls, gaps = 0.0, None, collections.Counter(), collections.Counter()
    entered, left, recent = None, None, []
    for stamp, thread, _, name, rest in events:
        if name == "sched_switch":
            if re.search(rf"prev_pid={tid} ", rest):
                if since is not None:
                    running += stamp - since
                since, left = None, None
            if re.search(rf"next_pid={tid} ", rest):
                since = stamp
            continue
        if thread != tid or name not in ("sys_enter", "sys_exit"):
            continue
        call = names.get(int(re.match(r"NR (\d+)", rest).group(1)), "?")
        if name == "sys_enter":
            if left is not None:
                gaps[f"{' > '.join(recent[-2:])} | {call}"] += stamp - left
            entered, recent = (call, stamp), (recent + [call])[-3:]
        elif entered:
            if entered[0] not in WAITING:
                calls[entered[0]] += stamp - entered[1]
            entered, left = None, stamp
    return tid, running, calls, gaps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="also write the raw trace to this file")
    parser.add_argument("--comm", help="the command's thread name (default: its file name, 15 characters)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    if os.geteuid() != 0 or not os.path.isdir(os.path.join(TRACING, "events")):
        sys.exit(f"timeline: needs root and tracefs at {TRACING}")
    lines = trace(command, args.comm or os.path.basename(command[0])[:15])
    if args.keep:
        with open(args.keep, "w") as f:
            f.write("\n".join(lines) + "\n")
    events = parse(lines)
    intervals, programs = chain(events)
    if not programs:
        sys.exit("timeline: the command ran no program named by a 64-digit key")
    print(f"{programs} programs; intervals in µs (median, mean)")
    for name in sorted(intervals):
        values = [v * 1e6 for v in intervals[name]]
        print(f"  {name:28} {statistics.median(values):8.1f} {statistics.mean(values):8.1f}   n={len(values)}")
    tid, running, calls, gaps = thread_split(events, syscall_names())
    print(f"thread {tid}, per program: ran {running * 1e6 / programs:.0f} µs, its own system calls "
          f"{sum(calls.values()) * 1e6 / programs:.0f} µs, gaps between calls (its own code) "
          f"{sum(gaps.values()) * 1e6 / programs:.0f} µs")
    for call, seconds in calls.most_common(12):
        print(f"  call {call:18} {seconds * 1e6 / programs:7.1f} µs")
    for around, seconds in gaps.most_common(12):
        print(f"  gap  {seconds * 1e6 / programs:7.1f} µs  {around}")


if __name__ == "__main__":
    main()
