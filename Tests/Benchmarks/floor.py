"""The floor: the exact nasm, ld and program commands asmrun runs, taken from `asmrun test -v`
of a cold run, replayed by floor.c (posix_spawn, no Python in between) or by xargs -P."""
import os, re, shlex, subprocess

from rounds import BenchError

HERE = os.path.dirname(os.path.abspath(__file__))
# The build folder, at the start of an argument or after an option's `=` (`--dependency-file=`).
BUILD_FOLDER = re.compile(r"^(?:[-\w,]+=)?(/[^=]*/asmrun-build-[^/]+)/")
CACHE_FILE = re.compile(r"^/.*/(?:tmp/([0-9a-f]{64})\.[0-9]+\.[0-9]+|objects/([0-9a-f]{64}))$")


def compile_floor(directory):
    """floor.c built with cc -O2 into DIRECTORY; returns the executable's path."""
    executable = os.path.join(directory, "floor")
    result = subprocess.run(["cc", "-O2", "-pthread", "-o", executable, os.path.join(HERE, "floor.c")],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"cc could not build the floor:\n{result.stderr}")
    return executable


def traced_commands(output):
    """The argument vectors asmrun printed with `+ ` under -v, and the build folder they write in
    (one per asmrun run, which the floor replaces by its own). asmrun links an executable straight
    into its cache (`tmp/KEY.PID.N`, then run as `objects/KEY`); for the floor both are the file
    KEY of the build folder, which it links and then runs."""
    commands = [shlex.split(line[2:]) for line in output.splitlines() if line.startswith("+ ")]
    folders = {match.group(1) for argv in commands for arg in argv if (match := BUILD_FOLDER.match(arg))}
    if len(folders) != 1:
        raise BenchError(f"expected asmrun's commands to write into one asmrun-build folder, found {folders}")
    folder = folders.pop()
    def own(arg):
        match = CACHE_FILE.match(arg)
        return f"{folder}/{match.group(1) or match.group(2)}" if match else arg
    return [[own(arg) for arg in argv] for argv in commands], folder


def relocate(argv, folder, scratch):
    return [arg.replace(folder + "/", scratch + "/", 1) if folder + "/" in arg else arg for arg in argv]


def suite_commands(asmrun, corpus, cache, codes):
    """{name: (nasm argv, ld argv, executable)} for every program of the corpus, from a cold
    `asmrun test . -v -j1` in CORPUS (the floor runs in CORPUS too: the paths are relative)."""
    result = subprocess.run([asmrun, "test", ".", "-v", "-j1", "--cache-dir", cache], cwd=corpus,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"asmrun test -v failed in {corpus}:\n{(result.stdout + result.stderr)[-3000:]}")
    commands, folder = traced_commands(result.stderr + result.stdout)
    built, programs = {}, {}
    for argv in commands:
        tool, output = os.path.basename(argv[0]), argv[argv.index("-o") + 1]
        if tool == "nasm":
            built[output] = (os.path.splitext(os.path.basename(argv[-1]))[0], argv)
        elif tool == "ld":
            linked = [built[arg] for arg in argv[1:] if arg in built]
            if len(linked) != 1:
                raise BenchError(f"cannot tell which program `{' '.join(argv)}` links")
            name, nasm = linked[0]
            programs[name] = (nasm, argv, output)
        else:
            raise BenchError(f"asmrun ran a tool the floor does not know: {' '.join(argv)}")
    if set(programs) != set(codes):
        raise BenchError(f"asmrun -v showed commands for {len(programs)} programs, the corpus has {len(codes)}")
    return programs, folder


def write_plan(path, programs, folder, scratch, corpus, codes, build=True):
    """floor.c's plan: per program its nasm and ld (when BUILD) and its run, stdin from NAME.in,
    stdout compared with NAME.out, the exit status with its code; outputs go to SCRATCH."""
    lines = []
    for name in sorted(programs):
        nasm, ld, executable = programs[name]
        steps = [["0", "-", "-", *relocate(argv, folder, scratch)] for argv in (nasm, ld)] if build else []
        steps.append([str(codes[name]), f"{corpus}/{name}.in", f"{corpus}/{name}.out",
                      *relocate([executable], folder, scratch)])
        lines += ["\t".join(step) for step in steps] + [""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def xargs_input(path, programs, folder, scratch, codes):
    """Writes xargs -P's input, `NAME CODE OBJECT EXECUTABLE` per line, and returns the
    `sh -c` script it runs: asmrun's nasm and ld commands (checked to be the same for every
    program but for those names), the program, its exit status and cmp."""
    script, lines = None, []
    for name in sorted(programs):
        nasm, ld = (relocate(argv, folder, scratch) for argv in programs[name][:2])
        executable = relocate([programs[name][2]], folder, scratch)[0]
        obj = nasm[nasm.index("-o") + 1]
        link_dependencies = next((arg for arg in ld if arg.startswith("--dependency-file=")), None)
        placeholders = {obj: '"$3"', obj + ".d": '"$3.d"', executable: '"$4"', f"{name}.asm": '"$1.asm"',
                        link_dependencies: '--dependency-file="$4.d"'}
        build = " && ".join(" ".join(placeholders.get(arg, shlex.quote(arg)) for arg in argv) for argv in (nasm, ld))
        if script is None:
            script = build
        elif build != script:
            raise BenchError(f"asmrun's commands for {name} do not follow the others': {build} against {script}")
        lines.append(f"{name} {codes[name]} {obj} {executable}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return script + ' && { "$4" < "$1.in" > "$4.actual"; test $? -eq "$2"; } && cmp -s "$4.actual" "$1.out"'


def single_commands(asmrun, source, cwd, cache):
    """The nasm, ld and program commands of a cold `asmrun SOURCE -v`, and their build folder."""
    result = subprocess.run([asmrun, source, "-v", "--cache-dir", cache], cwd=cwd, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"asmrun {source} -v failed:\n{result.stdout}{result.stderr}")
    commands, folder = traced_commands(result.stderr)
    if [os.path.basename(argv[0]) for argv in commands[:2]] != ["nasm", "ld"] or len(commands) != 3:
        raise BenchError(f"expected nasm, ld and the program from asmrun {source} -v, got {commands}")
    return commands, folder
