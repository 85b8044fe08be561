"""The sandbox battery: one attack_*.asm per way out of a case, run as root and as `nobody`.

Imported by stress.py (its last section). Each attack runs in its own `asmrun test` with
fixtures made for it (a folder outside every case, a listening Unix socket in /tmp, a SysV message
queue of the user, a victim process of the user), and is contained when its report shows the
contained expectation, asmrun itself exited 0 with a report, the victim still runs, the queue
still exists, and nothing is left: no process (found by the daemon's name or the case's TMPDIR),
no file in the outside folder or in asmrun's TMPDIR.
"""
import ctypes, json, os, shutil, signal, socket, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
NOBODY = 65534
# A key of this run's own ("QS" and the pid): the Swift tests' battery may run beside it.
QUEUE_KEY = 0x51530000 | (os.getpid() & 0xFFFF)
DAEMON = b"asmrun-hostile-daemon"

# program: (cases as (name, args, stdout), asmrun options)
ATTACKS = {
    "attack_remount": ([("default", ["{outside}/remount"], "remount: refused\noutside: blocked\n")], ["-j", "1"]),
    "attack_setns": ([("default", ["{outside}/setns"], "setns mnt: refused\nsetns net: refused\noutside: blocked\n")], []),
    "attack_cgroup": ([("default", [], "cgroup: refused\n")], []),
    "attack_daemon": ([("default", [], "")], []),
    "attack_ptrace": ([("default", [], "ptrace: refused\n")], []),
    "attack_msgqueue": ([("default", ["{queue}"], "queue: untouched\n")], []),
    "attack_caps": ([("default", [], "hostname: refused\nchown: refused\nsecurebits: locked\nno_new_privs: set\n")], []),
    "attack_memory": ([("default", [], "maps: refused\nmem: refused\n")], []),
    "attack_x32": ([("default", [], "x32: refused\n")], []),
    "attack_forks": ([("default", [], "forks: limited\n")], []),
    "attack_socket": ([("default", ["{socket}"], "socket: unreachable\n")], []),
    "attack_kill_parent": ([("default", [], "")], []),
    "attack_kill_other": ([("default", ["{victim}"], "kill: refused\n")], []),
    "attack_private": ([("default", ["{private}"], "private: refused\n")], []),
    "attack_proc_one": ([("default", ["--runner"], "cmdline: hidden\nenviron: hidden\n")], []),
    # Without a terminal around asmrun here; TerminalTests runs it under a pseudo-terminal.
    "attack_tty": ([("default", [], "tty: none\ntiocsti: refused\n")], []),
    "attack_neighbour": ([("attacker", ["attacker"], "attacker: no neighbour\n"), ("victim", ["victim"], "victim: intact\n")],
                         ["-j", "2"]),
    # One case after the other in one warden: what the first makes is gone for the second.
    "attack_leftovers": ([("plant", ["plant", "{queue}"], "ipc: planted\nfile: [..]\n"),
                          ("look", ["look", "{queue}"], "msg: gone\nsem: gone\nshm: gone\nmq: gone\nfile: gone\n")],
                         ["-j", "1"]),
}
# Run beside attack_remount, after it: an innocent case must not inherit a remount.
INNOCENT = ("writes_files", [("default", ["{outside}/innocent"], "cwd: ok\noutside: blocked\n")])


def as_user(uid):
    return [] if uid == 0 else ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]


def expectation(cases, values):
    blocks = []
    for name, args, stdout in cases:
        lines = [f"[case {name}]"]
        if args:
            lines.append("args: " + " ".join(a.format(**values) for a in args))
        if stdout:
            lines.append("stdout:")
            lines += ["| " + line for line in stdout.splitlines()]
        if stdout.startswith("forks:"):
            # qemu asserts in the children whose thread it cannot make once the limit is reached.
            lines += ["stderr @qemu:", "| [...]"]
        lines.append("status: exit 0")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def leftovers(marker):
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue
        if cmdline.startswith(DAEMON) or marker in environ:
            found.append(int(name))
    return found


class Fixtures:
    """What the attacks aim at, owned by `uid`: removed by `close`."""

    def __init__(self, uid):
        self.uid = uid
        self.base = tempfile.mkdtemp(prefix="asmrun-battery-", dir="/var/tmp")
        os.chmod(self.base, 0o755)
        self.outside = os.path.join(self.base, "outside")
        os.mkdir(self.outside)
        os.chmod(self.outside, 0o777)
        # A file only root may read, as /etc/shadow is (the battery runs as root).
        self.private = os.path.join(self.base, "private")
        with open(self.private, "w") as file:
            file.write("root's secret\n")
        os.chmod(self.private, 0o600)
        self.socket_dir = tempfile.mkdtemp(prefix="asmrun-battery-", dir="/tmp")
        os.chmod(self.socket_dir, 0o755)
        self.socket_path = os.path.join(self.socket_dir, "host.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.socket_path)
        self.listener.listen(64)
        os.chmod(self.socket_path, 0o777)
        subprocess.run(as_user(uid) + ["python3", "-c", "import ctypes; ctypes.CDLL(None).msgget(%d, 0o1600)" % QUEUE_KEY],
                       check=True)
        self.victim = subprocess.Popen(as_user(uid) + ["sleep", "600"])

    def queue_exists(self):
        return ctypes.CDLL(None, use_errno=True).msgget(QUEUE_KEY, 0) >= 0

    def victim_alive(self):
        return self.victim.poll() is None

    def values(self):
        return {"outside": self.outside, "socket": self.socket_path, "victim": str(self.victim.pid),
                "queue": str(QUEUE_KEY), "private": self.private}

    def close(self):
        libc = ctypes.CDLL(None)
        queue = libc.msgget(QUEUE_KEY, 0)
        if queue >= 0:
            libc.msgctl(queue, 0, None)
        if self.victim.poll() is None:
            self.victim.kill()
        self.victim.wait()
        self.listener.close()
        shutil.rmtree(self.socket_dir, ignore_errors=True)
        shutil.rmtree(self.base, ignore_errors=True)


def suite_for(programs, fixtures, directory):
    for name in ("sys.inc", "attack.inc"):
        shutil.copy(os.path.join(HERE, name), directory)
    for program, cases in programs:
        shutil.copy(os.path.join(HERE, program + ".asm"), directory)
        with open(os.path.join(directory, program + ".expect"), "w") as f:
            f.write(expectation(cases, fixtures.values()))


def run_attack(asmrun, programs, options, runner, uid, fixtures):
    """One `asmrun test` of `programs` under `runner` as `uid`: (verdicts, problems, seconds)."""
    work = tempfile.mkdtemp(prefix="asmrun-battery-run-")
    os.chmod(work, 0o755)
    suite, tmp = os.path.join(work, "suite"), os.path.join(work, "tmp")
    os.mkdir(suite)
    os.mkdir(tmp)
    suite_for(programs, fixtures, suite)
    binary = os.path.join(work, "asmrun")
    shutil.copy(asmrun, binary)
    os.chown(work, uid, uid)
    for root, dirs, files in os.walk(work):
        for name in dirs + files:
            os.chown(os.path.join(root, name), uid, uid)
    report = os.path.join(work, "report.json")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": suite, "TMPDIR": tmp, "NO_COLOR": "1"}
    start = time.perf_counter()
    done = subprocess.run(as_user(uid) + [binary, "test", suite, "--runner", runner, "--no-cache", "--json", report] + options,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - start
    problems = []
    if done.returncode != 0:
        problems.append(f"asmrun exited {done.returncode}")
    try:
        with open(report) as f:
            results = json.load(f)["results"]
        verdicts = ", ".join(f"{r['status']}" + (f" ({r['detail']})" if r.get("detail") else "") for r in results)
        problems += [f"{os.path.basename(r['program'])}:{r['case']} {r['status']}" for r in results if r["status"] != "pass"]
    except (OSError, ValueError, KeyError) as error:
        verdicts = "no report"
        problems.append(f"no report ({error})")
    time.sleep(0.05)  # let the kernel finish tearing down killed processes before counting
    for pid in leftovers(f"TMPDIR={tmp}".encode()):
        problems.append(f"process {pid} left running")
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for name in os.listdir(fixtures.outside):
        problems.append(f"file written outside: {name}")
        os.unlink(os.path.join(fixtures.outside, name))
    if os.listdir(tmp):
        problems.append(f"left in TMPDIR: {os.listdir(tmp)}")
    if not fixtures.victim_alive():
        problems.append("the victim process was killed")
    if not fixtures.queue_exists():
        problems.append("the host message queue was removed")
    if problems:
        problems.append("output: " + done.stdout.decode(errors="replace").strip().replace("\n", " / ")[-300:])
    shutil.rmtree(work, ignore_errors=True)
    return verdicts, problems, seconds


def battery(asmrun, runners, users=(0, NOBODY)):
    """Rows (attack, runner, user, verdict, wall s, problems) and whether all were contained."""
    rows, contained = [], True
    users = [u for u in users if u == 0 or shutil.which("setpriv")]
    for uid in users:
        for attack, (cases, options) in ATTACKS.items():
            for runner in runners:
                fixtures = Fixtures(uid)
                try:
                    programs = [(attack, cases)] + ([INNOCENT] if attack == "attack_remount" else [])
                    verdicts, problems, seconds = run_attack(asmrun, programs, options, runner, uid, fixtures)
                finally:
                    fixtures.close()
                contained &= not problems
                rows.append((attack, runner, "root" if uid == 0 else "nobody", verdicts[:70], f"{seconds:.2f}",
                             "; ".join(problems)[:400] or "-", "yes" if not problems else "NO"))
    return rows, contained


def main(asmrun, runners):
    rows, contained = battery(asmrun, runners)
    headers = ("attack", "runner", "user", "verdicts", "wall s", "what got out", "contained")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    print("\nSandbox: one attack per way out of a case, as root and as nobody")
    print(line(headers))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(line(row))
    print("every attack contained" if contained else "ESCAPED: see the rows marked NO")
    return contained


if __name__ == "__main__":
    import platform, sys
    runners = sys.argv[2:] or (["native", "qemu"] if platform.machine() == "x86_64" else ["qemu"])
    sys.exit(0 if main(os.path.abspath(sys.argv[1]), runners) else 1)
