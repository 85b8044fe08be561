"""The bench's inputs, generated once per run: the corpus of small programs with the files each
peer needs (shell loop, Makefile, lit tests, turnt config), and the large-output program with
its .expect files."""
import os

# Lines the large-output program prints are 6 bytes ("00000\n" to "99999\n", wrapping), so the
# last size is the most that fits in asmrun's default 1 MiB output limit.
LINE_BYTES = 6
OUTPUT_LIMIT = 1 << 20
LARGE_OUTPUT_SIZES = [10_000, 100_000, OUTPUT_LIMIT // LINE_BYTES]
LARGE_OUTPUT_VARIANTS = {"correct": "expectation correct", "one": "one line differs (middle)",
                         "all": "every line differs"}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def program_source(k, reads):
    body = f"""section .data
msg:    db "program {k} says hello", 10
len:    equ $ - msg
section .bss
buf:    resb 256
section .text
global _start
_start:
"""
    if reads:
        body += """        xor     eax, eax
        xor     edi, edi
        lea     rsi, [rel buf]
        mov     edx, 256
        syscall
        mov     rdx, rax
        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel buf]
        syscall
"""
    body += f"""        mov     eax, 1
        mov     edi, 1
        lea     rsi, [rel msg]
        mov     edx, len
        syscall
        mov     eax, 60
        mov     edi, {k % 7}
        syscall
"""
    return body


def generate(directory, n, peers=True):
    """N programs: each prints a line and exits with k % 7; every fourth echoes its stdin first.
    Beside each NAME.asm: NAME.expect for asmrun, NAME.in and NAME.out for everyone else.
    Returns {name: exit code}."""
    os.makedirs(directory)
    codes = {}
    for k in range(n):
        name = f"p{k:04d}"
        reads = k % 4 == 0
        stdin = f"input for {k}\n" if reads else ""
        stdout = stdin + f"program {k} says hello\n"
        code = k % 7
        codes[name] = code
        write(f"{directory}/{name}.asm", f"; RETURN: {code}\n" + program_source(k, reads))
        write(f"{directory}/{name}.in", stdin)
        write(f"{directory}/{name}.out", stdout)
        expect = "[case default]\n"
        if stdin:
            expect += "stdin:\n| " + stdin.rstrip("\n") + "\n"
        expect += "stdout:\n" + "".join(f"| {line}\n" for line in stdout.splitlines()) + f"status: exit {code}\n"
        write(f"{directory}/{name}.expect", expect)
    if peers:
        write_peers(directory, codes)
    return codes


def write_peers(directory, codes):
    """The files the peers need, the same four steps for each program as the shell loop."""
    for name, code in codes.items():
        # lit: one RUN line per program.
        write(f"{directory}/lit/{name}.test",
              f"RUN: nasm -f elf64 %S/../{name}.asm -o %t.o && ld %t.o -o %t && "
              f"{{ %t < %S/../{name}.in > %t.out; test $? -eq {code}; }} && cmp -s %t.out %S/../{name}.out\n")
    write(f"{directory}/lit/lit.cfg.py",
          "import lit.formats\nconfig.name = 'bench'\nconfig.suffixes = ['.test']\n"
          "try:\n    config.test_format = lit.formats.ShTest(execute_external=True, force_execute_external=True)\n"
          "except TypeError:  # lit before LLVM 23\n    config.test_format = lit.formats.ShTest(execute_external=True)\n")
    # turnt: golden {base}.out beside each program, RETURN: in the source.
    write(f"{directory}/turnt.toml",
          'command = "nasm -f elf64 {filename} -o {base}.o && ld {base}.o -o {base}.bin && ./{base}.bin < {base}.in"\n')
    # make -j: one target per program (run with -B, so every round rebuilds everything).
    rules = ["all: " + " ".join(f"{name}.ok" for name in codes), ""]
    for name, code in codes.items():
        rules += [f"{name}.ok: {name}.asm",
                  f"\t@nasm -f elf64 $< -o {name}.o && ld {name}.o -o {name}.bin && "
                  f"{{ ./{name}.bin < {name}.in > {name}.actual; test $$? -eq {code}; }} && "
                  f"cmp -s {name}.actual {name}.out && touch $@", ""]
    write(f"{directory}/Makefile", "\n".join(rules))
    # The loop people write today: a table of expected codes, nasm, ld, run, cmp.
    table = " ".join(f"[{name}]={code}" for name, code in codes.items())
    write(f"{directory}/loop.sh", f"""#!/bin/bash
declare -A expected=({table})
failed=0
for f in p*.asm; do
    b=${{f%.asm}}
    nasm -f elf64 "$f" -o "$b.o" && ld "$b.o" -o "$b.bin" || {{ failed=1; continue; }}
    ./"$b.bin" < "$b.in" > "$b.actual"
    [ $? -eq "${{expected[$b]}}" ] && cmp -s "$b.actual" "$b.out" || {{ echo "FAIL $b"; failed=1; }}
done
exit $failed
""")


LINES_SOURCE = """; Prints N lines of 6 bytes ("00000" to "99999", wrapping), N the first argument, in one
; buffer written with as many write calls as it takes.
section .bss
buf:    resb 1100000
section .text
global _start
_start:
        mov     rsi, [rsp + 16]         ; argv[1]
        xor     ecx, ecx
.parse:
        movzx   eax, byte [rsi]
        test    al, al
        jz      .parsed
        sub     eax, '0'
        imul    rcx, rcx, 10
        add     rcx, rax
        inc     rsi
        jmp     .parse
.parsed:
        lea     rdi, [rel buf]
        xor     r8d, r8d                ; line number
        mov     r9d, 100000
        mov     r10d, 10
.line:
        cmp     r8, rcx
        jae     .write
        mov     rax, r8
        xor     edx, edx
        div     r9
        mov     eax, edx                ; line number % 100000, five digits from the right
        mov     r11, 4
.digit:
        xor     edx, edx
        div     r10d
        add     dl, '0'
        mov     [rdi + r11], dl
        dec     r11
        jns     .digit
        mov     byte [rdi + 5], 10
        add     rdi, 6
        inc     r8
        jmp     .line
.write:
        lea     rsi, [rel buf]
        mov     rdx, rdi
        sub     rdx, rsi
.again:
        test    rdx, rdx
        jz      .done
        mov     eax, 1
        mov     edi, 1
        syscall
        test    rax, rax
        js      .fail
        add     rsi, rax
        sub     rdx, rax
        jmp     .again
.done:
        mov     eax, 60
        xor     edi, edi
        syscall
.fail:
        mov     eax, 60
        mov     edi, 1
        syscall
"""


def lines_expect(n, variant):
    """The .expect of one case printing N lines: right, wrong in the middle line, or wrong in
    every line (each expected line one ahead of the actual, as an off-by-one would be)."""
    def expected(i):
        shifted = variant == "all" or (variant == "one" and i == n // 2)
        return f"{(i + 1 if shifted else i) % 100_000:05d}"
    return (f"[case default]\nargs: {n}\nstdout:\n" + "".join(f"| {expected(i)}\n" for i in range(n))
            + "status: exit 0\n")


def generate_large_output(directory, n, variant):
    """A folder with the lines program and the .expect for N lines and VARIANT."""
    write(f"{directory}/lines.asm", LINES_SOURCE)
    write(f"{directory}/lines.expect", lines_expect(n, variant))


# The large source: lines of data, strings holding `;`, and comments, as generated tables are
# written; it assembles (nasm's time is the row asmrun's analysis is compared with).
LARGE_SOURCE_BYTES = 100_000_000


def generate_large_source(path, size=LARGE_SOURCE_BYTES):
    """A program of about SIZE bytes: the corpus's first program (it prints a line and exits 0),
    then a table of data it never reads."""
    head = "; A generated table, as big programs are: the data is never read.\n" + program_source(0, False)
    head += "section .data\n"
    with open(path, "w") as f:
        f.write(head)
        written, line = len(head), 0
        while written < size:
            chunk = "".join(f'        db "entry {k:08d}; not a comment", 0  ; row {k:08d}\n'
                            for k in range(line, line + 10_000))
            f.write(chunk)
            written += len(chunk)
            line += 10_000
