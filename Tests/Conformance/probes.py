"""The conformance probes of this folder: their header comments, their asmrun directives and the
expectations recorded in their .expect files (the `default` case; a runner's override where it
has one).

A probe starts with comment lines the tools here read:
    ; conformance: AREA: what is probed, in one line
    ; divergence: warned|compensated|inherent: why native and qemu differ and how that is handled
    ; asmrun: format elf32 / link-flags ... / xfail RUNNER reason   (asmrun's own directives)
"""
import os, re

HERE = os.path.dirname(os.path.abspath(__file__))
# The areas in the order the table lists them.
AREAS = ["syscall", "int 0x80", "start", "flags", "div", "traps", "faults", "cpuid",
         "self-modifying code", "executable stack", "memory", "i/o", "exit", "build", "other"]
DIVERGENCE_KINDS = ("warned", "compensated", "inherent")
SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
           11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM"}


class ProbeError(Exception):
    """A probe or its expectations is not as this folder's tools need it."""


class Probe:
    """One NAME.asm: its header, directives and the expectations of NAME.expect."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.area = self.what = None
        self.divergence = None              # (kind, reason)
        self.format = "elf64"
        self.link_flags = []
        self.xfail = {}                     # runner ("native", "qemu", "all") -> reason
        self.entry = "_start"
        with open(path) as f:
            text = f.read()
        for number, line in enumerate(text.splitlines(), 1):
            self._read_line(line, number)
        if self.area is None:
            raise ProbeError(f"{self.where(1)}: no `; conformance: AREA: what` line")
        expect = os.path.splitext(path)[0] + ".expect"
        self.expectation = Expectation(expect) if os.path.exists(expect) else None

    def where(self, line):
        return f"{os.path.relpath(self.path)}:{line}"

    def _read_line(self, line, number):
        if re.match(r"\s*global\s+main\b", line):
            self.entry = "main"
        match = re.match(r";\s*(conformance|divergence|asmrun):\s*(.*)$", line.strip())
        if not match:
            return
        key, rest = match.groups()
        if key == "conformance":
            area, _, what = rest.partition(":")
            if area.strip() not in AREAS or not what.strip():
                raise ProbeError(f"{self.where(number)}: the area must be one of {', '.join(AREAS)}, "
                                 f"then `: what is probed`")
            self.area, self.what = area.strip(), what.strip()
        elif key == "divergence":
            kind, _, reason = rest.partition(":")
            if kind.strip() not in DIVERGENCE_KINDS or not reason.strip():
                raise ProbeError(f"{self.where(number)}: write `; divergence: "
                                 f"{'|'.join(DIVERGENCE_KINDS)}: the reason`")
            self.divergence = (kind.strip(), reason.strip())
        else:
            words = rest.split()
            if words[:1] == ["format"] and len(words) > 1:
                self.format = words[1]
            elif words[:1] == ["link-flags"]:
                self.link_flags += words[1:]
            elif words[:1] == ["xfail"] and len(words) > 1:
                self.xfail[words[1]] = " ".join(words[2:])

    def xfail_reason(self, runner):
        return self.xfail.get(runner, self.xfail.get("all"))


def read_probes(folder=HERE, names=()):
    """The probes of folder (or those named), by name."""
    paths = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".asm"))
    probes = [Probe(p) for p in paths]
    if names:
        known = {p.name: p for p in probes}
        missing = [n for n in names if n not in known]
        if missing:
            raise ProbeError(f"no such probe in {os.path.relpath(folder)}: {', '.join(missing)}")
        probes = [known[n] for n in names]
    return probes


def status_text(returncode):
    """A subprocess return code in .expect's words: `exit 7`, `signal SIGFPE`."""
    if returncode < 0:
        return "signal " + SIGNALS.get(-returncode, f"{-returncode}")
    return f"exit {returncode}"


class Expectation:
    """The `default` case of a .expect file: stdout and status, per runner."""

    def __init__(self, path):
        self.path = path
        self.stdout = {}                    # runner (None for the default) -> list of lines
        self.status = {}
        case, block = None, None
        with open(path) as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            if line.startswith("[case "):
                case, block = line[6:].rstrip("]").strip(), None
            elif case != "default" or line.startswith("#") or not line.strip():
                continue
            elif line.startswith(("| ", "~ ")) or line in ("|", "~"):
                if block is None:
                    raise ProbeError(f"{os.path.relpath(path)}:{number}: an output line outside a block")
                block.append(unescape(line[2:]) if line.startswith("~") else line[2:])
            elif line == "\\ no newline at end":
                raise ProbeError(f"{os.path.relpath(path)}:{number}: probes end their output with a newline")
            else:
                key, _, value = line.partition(":")
                name, _, runner = key.partition(" @")
                runner = runner or None
                if name == "stdout":
                    block = self.stdout.setdefault(runner, [])
                elif name == "status":
                    self.status[runner], block = value.strip(), None
                else:
                    block = None            # stderr, args, ...: not used by the probes
        if None not in self.status:
            raise ProbeError(f"{os.path.relpath(path)}: the default case records no status")

    def output(self, runner):
        """The expected stdout lines and status under runner ("native" is the default)."""
        return self.stdout.get(runner, self.stdout.get(None, [])), self.status.get(runner, self.status[None])

    def differs(self, runner):
        return (runner in self.stdout and self.stdout[runner] != self.stdout.get(None, [])) or \
            (runner in self.status and self.status[runner] != self.status[None])


def unescape(text):
    return re.sub(r"\\(x[0-9a-fA-F]{2}|.)", lambda m: {"n": "\n", "r": "\r", "t": "\t", "e": "\x1b", "\\": "\\"}
                  .get(m.group(1), chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "x" else m.group(1)), text)


def matches(expected_lines, status, stdout, got_status):
    """Whether stdout (text) and got_status meet the expectation; `[..]` is a hole within a line."""
    if status != got_status:
        return False
    got = stdout.split("\n")
    if got[-1] != "":
        return False
    got = got[:-1]
    if len(got) != len(expected_lines):
        return False
    for want, line in zip(expected_lines, got):
        pattern = ".*".join(re.escape(part) for part in want.split("[..]"))
        if not re.fullmatch(pattern, line):
            return False
    return True
