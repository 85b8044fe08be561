"""Timing commands in interleaved rounds: each round runs every command of a table once, in an
order rotated by one per round, so a slow spell on a shared machine hits every command alike.
A command whose result is wrong stops the bench; it is never recorded."""
import os, random, resource, shlex, signal, statistics, subprocess, sys, threading, time


class BenchError(Exception):
    """A command did not do what it should: the bench stops with this message."""


def load_average():
    """The 1-minute load average, from /proc/loadavg."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def process_count():
    """How many processes the host has now (the numeric entries of /proc)."""
    return sum(1 for name in os.listdir("/proc") if name.isdigit())


class PeakRSS:
    """Samples VmHWM of one process (not its children) until it exits."""

    def __init__(self, pid):
        self.pid, self.peak, self.done = pid, 0, False
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.done:
            try:
                with open(f"/proc/{self.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            self.peak = max(self.peak, int(line.split()[1]))
            except OSError:
                return
            time.sleep(0.002)


class Row:
    """One command of a table and what its rounds measured.

    command: an argument vector, or a function of the round index returning one (a cold run
    names a fresh cache folder each time). prepare/finish run before/after the timed part.
    check(output) raises BenchError when the output is wrong; status is the exit status the
    command must have. A run longer than timeout seconds is interrupted (SIGINT, then SIGKILL)
    and recorded as timed out; the row is not run again.
    """

    def __init__(self, label, command, cwd, env=None, stdin=None, status=0, check=None, prepare=None,
                 finish=None, rss=False, timeout=600):
        self.label, self.command, self.cwd, self.env, self.stdin = label, command, cwd, env, stdin
        self.status, self.check, self.prepare, self.finish = status, check, prepare, finish
        self.rss, self.timeout = rss, timeout
        self.times, self.cpu, self.loads, self.peaks, self.printed = [], [], [], [], []
        self.timed_out = False

    @property
    def median(self):
        return statistics.median(self.times)

    @property
    def low(self):
        return min(self.times)

    @property
    def high(self):
        return max(self.times)

    @property
    def spread(self):
        """(max − min) / median: how much the rounds disagreed."""
        return (self.high - self.low) / self.median if self.median else 0.0

    @property
    def cpu_median(self):
        return statistics.median(self.cpu)

    @property
    def load(self):
        return statistics.median(self.loads)

    @property
    def peak_rss(self):
        return max(self.peaks) if self.peaks else None

    def run(self, index, record=True, sample=False):
        """One run, checked; recorded unless RECORD is false (a warm-up that fills a cache). With
        SAMPLE, only asmrun's peak RSS is recorded: sampling /proc every 2 ms took CPU from the
        run it watched (a cold -j2 run on two cores took 1–4 % longer), so it is a run of its own."""
        if self.timed_out:
            return
        command = self.command(index) if callable(self.command) else self.command
        if self.prepare:
            self.prepare(index)
        # Dirty pages an earlier command left (a peer's objects, a prepared file) are written
        # now, untimed, not by the next command's fsync.
        os.sync()
        try:
            load = load_average()
            elapsed, cpu, status, output, peak = self.timed(command, sample)
            if elapsed is None:
                self.timed_out = True
                if record:
                    self.times.append(float(self.timeout))
                    self.loads.append(load)
                return
            if status != self.status:
                raise BenchError(f"{self.label}: `{shlex.join(command)}` exited with {status}, not {self.status}, "
                                 f"in {self.cwd}:\n{output[-3000:]}")
            if self.check:
                self.check(output)
            if sample and peak:
                self.peaks.append(peak)
            elif record and not sample:
                self.times.append(elapsed)
                self.cpu.append(cpu)
                self.loads.append(load)
                self.printed.append(len(output))
        finally:
            if self.finish:
                self.finish(index)

    def timed(self, command, sample=False):
        """(wall seconds, CPU seconds, exit status, output, peak RSS KiB); seconds is None after a
        timeout. The CPU time (user + system) covers the command and every descendant it reaped."""
        stdin = open(self.stdin, "rb") if self.stdin else subprocess.DEVNULL
        try:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            process = subprocess.Popen(command, cwd=self.cwd, env=self.env, stdin=stdin, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT)
            sampler = PeakRSS(process.pid) if sample else None
            try:
                output, _ = process.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                interrupt(process)
                return None, None, process.returncode, "", 0
            elapsed = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        finally:
            if self.stdin:
                stdin.close()
        if sampler:
            sampler.done = True
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return elapsed, cpu, process.returncode, output.decode(errors="replace"), sampler.peak if sampler else 0


def interrupt(process):
    """Ctrl-C for a run past its time, then SIGKILL if it has not stopped 2 s later."""
    process.send_signal(signal.SIGINT)
    try:
        process.communicate(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()


def interleave(title, rows, rounds):
    """Runs ROUNDS rounds of ROWS, each round starting one row later than the last."""
    for index in range(rounds):
        shift = index % len(rows)
        order = rows[shift:] + rows[:shift]
        started = time.perf_counter()
        for row in order:
            row.run(index)
        print(f"bench: {title}: round {index + 1}/{rounds} in {time.perf_counter() - started:.1f} s, "
              f"load {load_average():.2f}", file=sys.stderr, flush=True)
    for row in rows:
        if row.rss:
            row.run(rounds, sample=True)
    return rows


def paired_ratios(numerator, denominator):
    """The ratio of the two rows' times round by round (both ran within seconds of each other)."""
    return [a / b for a, b in zip(numerator.times, denominator.times)]


def ratio_interval(numerator, denominator, level=0.90, samples=2000):
    """A bootstrap interval of the ratio of the two rows' medians: the rounds drawn again with
    replacement, each draw taking both rows' times of a round (they ran side by side), the same
    draws every run (a fixed seed). How far the ratio could be from the one this run read."""
    draw = random.Random(0)
    rounds = min(len(numerator.times), len(denominator.times))
    ratios = []
    for _ in range(samples):
        picked = [draw.randrange(rounds) for _ in range(rounds)]
        ratios.append(statistics.median(numerator.times[k] for k in picked)
                      / statistics.median(denominator.times[k] for k in picked))
    ratios.sort()
    tail = (1 - level) / 2
    return ratios[int(tail * samples)], ratios[int((1 - tail) * samples) - 1]


def passes(count):
    """A check that asmrun's last line says COUNT passed and none failed."""
    def check(output):
        last = output.strip().splitlines()[-1] if output.strip() else ""
        if last != f"{count} passed, 0 failed":
            raise BenchError(f"asmrun did not pass all {count} cases; its output ends:\n{output[-3000:]}")
    return check
