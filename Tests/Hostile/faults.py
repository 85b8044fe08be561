"""`asmrun test --update` under faults, for stress.py: SIGINT and SIGTERM while cases run, SIGKILL
and then a second run, and two filtered updates of one file at once. Each row says what was lost
(expectations changed, created or missing a recording) and what was left behind (processes,
files in the scratch folder, temporary files beside the sources, pids cgroups). Everything lives
in /var/tmp: cases see /tmp and /dev/shm as fresh, empty folders, and the runner script and its
FIFO must be visible to them."""
import json, os, select, shutil, signal, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "asm")
STALE = "[case default]\nstdout:\n| stale\nstatus: exit 9\n"
ROUNDS = 20


class Readiness:
    """A FIFO the slow case writes its pid to when it runs (no sleeping to wait for it)."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "ready.fifo")
        os.mkfifo(self.path)
        self.reader = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self.keeper = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)

    def wait(self, seconds=60):
        ready, _, _ = select.select([self.reader], [], [], seconds)
        return os.read(self.reader, 4096).decode() if ready else ""

    def close(self):
        os.close(self.reader)
        os.close(self.keeper)


def workspace():
    """A fresh folder and its tmp/ (the TMPDIR of the runs in it): (root, tmp)."""
    root = tempfile.mkdtemp(prefix="asmrun-faults-", dir="/var/tmp")
    os.chmod(root, 0o755)
    tmp = os.path.join(root, "tmp")
    os.mkdir(tmp)
    return root, tmp


def snapshot(suite):
    files = {}
    for name in sorted(os.listdir(suite)):
        if name.endswith(".expect"):
            with open(os.path.join(suite, name)) as f:
                files[name] = f.read()
    return files


def make_suite(root):
    suite = os.path.join(root, "suite")
    os.mkdir(suite)
    for name in ["a_fast", "b_fast", "slow"]:
        shutil.copy(os.path.join(CORPUS, "hello.asm"), os.path.join(suite, name + ".asm"))
        with open(os.path.join(suite, name + ".expect"), "w") as f:
            f.write(STALE)
    shutil.copy(os.path.join(CORPUS, "hello.asm"), os.path.join(suite, "c_new.asm"))
    return suite


def make_runner(root, ready):
    runner = os.path.join(root, "runner.sh")
    with open(runner, "w") as f:
        f.write(f"#!/bin/sh\ncase \"$1\" in ./slow*) echo $$ > {ready.path}; exec sleep 60;; esac\nexec \"$@\"\n")
    os.chmod(runner, 0o755)
    return runner


def debris(suite, tmp, dead_pid=None):
    """Leftover processes (carrying the scratch folder), files in it, temporary files beside the
    sources, and pids cgroups of `dead_pid`."""
    from stress import leftover_processes
    files = os.listdir(tmp)
    temporary = [n for n in os.listdir(suite) if ".asmrun-" in n]
    cgroups = []
    if dead_pid:
        for parent in ("/sys/fs/cgroup", "/sys/fs/cgroup/pids"):
            try:
                cgroups += [n for n in os.listdir(parent) if n.startswith(f"asmrun-run-{dead_pid}-")]
            except OSError:
                pass
    return len(leftover_processes(tmp)), len(files) + len(temporary) + len(cgroups)


def interrupted_update(asmrun, sig):
    root, tmp = workspace()
    suite = make_suite(root)
    before = snapshot(suite)
    ready = Readiness(root)
    runner = make_runner(root, ready)
    report = os.path.join(root, "r.json")
    env = dict(os.environ, TMPDIR=tmp, NO_COLOR="1")
    start = time.perf_counter()
    process = subprocess.Popen([asmrun, "test", suite, "--update", "--runner", runner, "--no-cache", "--json", report],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = ready.wait()
    process.send_signal(sig)
    status = process.wait()
    seconds = time.perf_counter() - start
    lost = 0 if snapshot(suite) == before else 1
    try:
        with open(report) as f:
            written = json.load(f)
        interrupted, complete = written["summary"].get("interrupted", 0), written.get("complete")
    except (OSError, ValueError, KeyError):
        interrupted, complete = -1, None
    processes, files = debris(suite, tmp)
    ready.close()
    shutil.rmtree(root, ignore_errors=True)
    ok = bool(started) and status == 130 and interrupted >= 1 and complete is False and lost == 0 and processes == 0 and files == 0
    marked = "incomplete" if complete is False else "NOT marked incomplete"
    result = f"exit {status}, {interrupted} interrupted, report {marked}, expectations {'unchanged' if lost == 0 else 'CHANGED'}"
    return result, ok, seconds, lost, processes, files


def killed_update(asmrun):
    root, tmp = workspace()
    suite = make_suite(root)
    before = snapshot(suite)
    ready = Readiness(root)
    runner = make_runner(root, ready)
    env = dict(os.environ, TMPDIR=tmp, NO_COLOR="1")
    start = time.perf_counter()
    # Without isolation the case outlives the killed asmrun (with it, its init takes it along).
    process = subprocess.Popen([asmrun, "test", suite, "--update", "--runner", runner, "--no-cache", "--no-isolation"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    case = ready.wait().strip()
    process.send_signal(signal.SIGKILL)
    process.wait()
    from stress import leftover_processes
    left = len(os.listdir(tmp))
    orphans = len(leftover_processes(tmp))
    second = subprocess.run([asmrun, "test", suite, "--no-cache"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    seconds = time.perf_counter() - start
    lost = 0 if snapshot(suite) == before else 1
    processes, files = debris(suite, tmp, dead_pid=process.pid)
    ready.close()
    shutil.rmtree(root, ignore_errors=True)
    # The killed run's case outlives it (`orphans`), but any asmrun started since may have ended
    # it already (the tests running beside this, say): only what the second run leaves counts.
    ok = bool(case) and left > 0 and second == 1 and lost == 0 and processes == 0 and files == 0
    result = f"killed run left {left} folders, {orphans} running; second run exit {second}, then none"
    return result, ok, seconds, lost, processes, files


def concurrent_updates(asmrun):
    root, tmp = workspace()
    suite = os.path.join(root, "suite")
    os.mkdir(suite)
    shutil.copy(os.path.join(CORPUS, "echo.asm"), suite)
    with open(os.path.join(CORPUS, "echo.expect")) as f:
        recorded = f.read()
    stale = recorded.replace("stdout:\n| hello\n", "stdout:\n| stale\n").replace("stdout:\n| first\n", "stdout:\n| stale\n")
    env = dict(os.environ, TMPDIR=tmp, NO_COLOR="1")
    start = time.perf_counter()
    lost = 0
    for _ in range(ROUNDS):
        with open(os.path.join(suite, "echo.expect"), "w") as f:
            f.write(stale)
        runs = [subprocess.Popen([asmrun, "test", suite, "--update", "--filter", pattern, "--no-cache"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for pattern in (":one-line$", ":several-lines$")]
        statuses = [run.wait() for run in runs]
        with open(os.path.join(suite, "echo.expect")) as f:
            lost += f.read() != recorded or statuses != [0, 0]
    seconds = time.perf_counter() - start
    processes, files = debris(suite, tmp)
    shutil.rmtree(root, ignore_errors=True)
    ok = lost == 0 and processes == 0 and files == 0
    return f"{ROUNDS - lost} of {ROUNDS} rounds kept both recordings", ok, seconds, lost, processes, files


def rows(asmrun):
    """(scenario, result, wall s, lost, leftover processes, leftover files, ok) per fault."""
    table = []
    for name, run in [("SIGINT during --update", lambda: interrupted_update(asmrun, signal.SIGINT)),
                      ("SIGTERM during --update", lambda: interrupted_update(asmrun, signal.SIGTERM)),
                      ("SIGKILL during --update, then a second run", lambda: killed_update(asmrun)),
                      (f"two concurrent --update --filter, {ROUNDS} rounds", lambda: concurrent_updates(asmrun))]:
        result, ok, seconds, lost, processes, files = run()
        table.append((name, result, f"{seconds:.2f}", str(lost), str(processes), str(files), ok))
    return table
