#!/usr/bin/env python3
"""Builds every conformance probe the classic way, with no asmrun in sight, and checks that it
does what its .expect file says: natively against the default expectation (the hardware's), and
with --qemu under qemu-x86_64 / qemu-i386 against the qemu one.

    nasm -f elf64 NAME.asm && ld NAME.o                   (run from this folder, as tutorials do)
    nasm -f elf32 NAME.asm && ld -m elf_i386 NAME.o       (`; asmrun: format elf32`)
    cc -no-pie NAME.o                                     (a probe with `global main`)

plus the probe's `; asmrun: link-flags`. Each program runs as ./NAME in an empty folder with
stdin from /dev/null, no core dumps, an 8 MiB stack and asmrun's fixed case environment, its
variables in the order asmrun gives them (by name). Under --qemu, a probe whose divergence asmrun
compensates is expected to differ under plain qemu; it is reported, not counted. This is what asmrun's verdict must match, so together
with asmrun's run of the same expectations it tests asmrun's fidelity. It needs nasm, ld, cc and
qemu-user (what `make deps` installs) on an x86_64 host; `make test` runs it there.

Usage: classic.py [--qemu] [--qemu-dir DIR] [-v] [PROBE...]
Exits 1 when any probe's result differs from its expectation, printing each difference; -v also
prints the probes that match.
"""
import argparse, os, resource, shutil, subprocess, sys, tempfile

from probes import HERE, ProbeError, matches, read_probes, status_text

TIMEOUT = 10


def build(probe, folder):
    """The classic build of probe in folder; returns the executable's path."""
    obj = os.path.join(folder, probe.name + ".o")
    exe = os.path.join(folder, probe.name)
    run(["nasm", "-f", probe.format, os.path.basename(probe.path), "-o", obj], cwd=HERE)
    bits32 = probe.format == "elf32"
    if probe.entry == "main":
        link = ["cc", "-no-pie"] + (["-m32"] if bits32 else [])
    else:
        link = ["ld"] + (["-m", "elf_i386"] if bits32 else [])
    run(link + probe.link_flags + [obj, "-o", exe], cwd=folder)
    return exe


def run(command, cwd):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise ProbeError(f"`{' '.join(command)}` failed:\n{done.stdout}{done.stderr}")


def execute(exe, prefix):
    """Runs exe as ./NAME (after the prefix command, if any) in a folder that holds only it;
    returns (stdout, status text)."""
    with tempfile.TemporaryDirectory(prefix="classic-run-") as folder:
        name = os.path.basename(exe)
        shutil.copy(exe, os.path.join(folder, name))
        done = subprocess.run(prefix + ["./" + name], cwd=folder, stdin=subprocess.DEVNULL, capture_output=True,
                              env=case_environment(folder), preexec_fn=limit, timeout=TIMEOUT)
    return done.stdout.decode("utf-8", "backslashreplace"), status_text(done.returncode)


def case_environment(folder):
    """asmrun's fixed case environment (CaseRunner.environment) in a folder, by name."""
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder, "TMPDIR": folder, "PWD": folder,
                   "LANG": "C", "LC_ALL": "C", "TERM": "dumb"}
    return dict(sorted(environment.items()))


def limit():
    """A case's limits that a probe may see: no core dumps, an 8 MiB stack."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    stack = 8 << 20 if hard == resource.RLIM_INFINITY else min(8 << 20, hard)
    resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))


def check(probe, exe, runner, prefix, verbose):
    lines, status = probe.expectation.output(runner)
    stdout, got = execute(exe, prefix)
    if matches(lines, status, stdout, got):
        if verbose:
            print(f"ok    {probe.name} [{runner}]")
        return True
    if runner == "qemu" and probe.divergence and probe.divergence[0] == "compensated":
        print(f"comp  {probe.name} [qemu]: plain qemu differs, asmrun compensates (got {got}: "
              + " | ".join(stdout.splitlines()) + ")")
        return True
    print(f"DIFF  {probe.name} [{runner}]: expected {status}, got {got}")
    print("      expected stdout: " + " | ".join(lines))
    print("      classic stdout:  " + " | ".join(stdout.splitlines()))
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probes", nargs="*", help="probe names (default: all)")
    parser.add_argument("--qemu", action="store_true", help="also run each classic build under qemu")
    parser.add_argument("--qemu-dir", help="the folder of qemu-x86_64 and qemu-i386 (default: PATH)")
    parser.add_argument("-v", "--verbose", action="store_true", help="also print the probes that match")
    args = parser.parse_args()
    failed = 0
    try:
        probes = read_probes(names=args.probes)
        with tempfile.TemporaryDirectory(prefix="classic-build-") as folder:
            for probe in probes:
                if probe.expectation is None:
                    raise ProbeError(f"{os.path.relpath(probe.path)}: no .expect file")
                exe = build(probe, folder)
                failed += not check(probe, exe, "native", [], args.verbose)
                if args.qemu:
                    qemu = "qemu-i386" if probe.format == "elf32" else "qemu-x86_64"
                    if args.qemu_dir:
                        qemu = os.path.join(args.qemu_dir, qemu)
                    failed += not check(probe, exe, "qemu", [qemu], args.verbose)
    except (ProbeError, subprocess.TimeoutExpired, OSError) as error:
        sys.exit(f"classic.py: {error}")
    runs = "natively and under qemu" if args.qemu else "natively"
    print(f"classic builds of {len(probes)} probes run {runs}: {failed} differences from their expectations")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
