enum Usage {
    static let doctor = "usage: asmrun doctor (what this host has: tools, runners, containment)\n"
    static let cache = "usage: asmrun cache info|clean [--cache-dir DIR]\n"

    static let main = """
        asmrun — assemble, link and run x86 NASM programs on any Linux host, and test them.

        USAGE
          asmrun [run] FILE.asm [MORE.asm|.c|.o|.a ...] [options] [-- PROGRAM-ARGS...]
          asmrun [run] FOLDER [options] [-- PROGRAM-ARGS...]
          asmrun test [PATH...] [test options]
          asmrun debug FILE.asm [MORE...] [options] [--batch] [--stdin FILE] [-- PROGRAM-ARGS...]
          asmrun trace FILE.asm [MORE...] [options] [--steps N] [--json FILE] [-- PROGRAM-ARGS...]
          asmrun report merge SHARD.json... [--json F] [--junit F] [--summary F] [--allow-flaky]
          asmrun doctor
          asmrun cache info|clean [--cache-dir DIR]

        RUN OPTIONS
          -f, --format elf64|elf32   object format of every source (default elf64; `bits 32`, or int 0x80
                                     or esp/ebp as the stack pointer without 64-bit registers, means elf32)
          -I DIR                     include directory for nasm (repeatable; the source's folder is always one)
          -D NAME[=VALUE]            define a macro for nasm (repeatable)
          --link auto|ld|cc          auto: decided from the objects: ld for `_start`, the C driver for
                                     `main`, or for `_start` calling libc (-nostartfiles)
          -l NAME, --link-flags FLAGS
                                     libraries and flags for the link step (-lm, -static, -pie)
          --c-flags FLAGS            flags for compiling the program's C files (-O2, -Wall)
          --runner auto|native|qemu|binfmt|'CMD ARGS'
                                     auto: native on x86_64, qemu-x86_64 / qemu-i386 elsewhere
                                     (or what ASMRUN_RUNNER names); binfmt: exec the program and let
                                     the kernel's binfmt_misc handler (Rosetta, box64, FEX, qemu) run
                                     it; any other value is a prefix command given the executable last
          -o PATH                    also keep the linked executable at PATH
          --timeout SECONDS          end the program after SECONDS (exit 124)
          --no-cache, --cache-dir DIR
                                     skip or relocate the build cache (default ~/.cache/asmrun)
          --strace                   print the program's system calls after it ran (strace natively,
                                     qemu's -strace under qemu)
          --no-crash-report          on a crash print one line; do not run the program again under gdb
          --watch                    build and run again on each save of a source, an included or C
                                     file; a save while it runs kills it; Ctrl-C ends (exit 130)
          --no-checks                no ABI checks: no `syscall` warnings, a crash not run again to
                                     check the calling convention (Documentation/crash-reports.md)
          -g, --debug                build with line tables, as nasm -g and cc -g do; run that build
                                     and keep it at -o (crash reports have lines without it)
          -v, --verbose              print each tool command line
          -h, --help                 this help;  --version  the version

        DEBUG (asmrun debug: gdb on the program, stopped where it starts, its source shown;
        under qemu through qemu's gdbstub and gdb-multiarch)
          --batch                    stop there, print the line and rip, and quit (for scripts)
          --stdin FILE               the program reads FILE instead of the terminal

        TRACE (asmrun trace: run the program one instruction at a time and print, on stderr, each
        source line it runs with the registers, flags and memory it changed and its system calls;
        loops are folded into one line; natively through ptrace, under qemu through its gdbstub)
          --steps N                  stop after N instructions, 1 to 1000000 (default 10000; exit 124)
          --json FILE                write the trace to FILE as JSON instead of printing it

        TEST OPTIONS (see `asmrun test --help`)
          --update, --review, -j N, --runner native,qemu|all, --filter REGEX, --list,
          --shard K/N, --balance REPORT, --fail-fast, --retries N, --allow-flaky, --watch,
          --timeout SECONDS, --junit PATH, --json PATH, --reference DIR, --untrusted,
          --gradescope PATH, --csv PATH, --report-dir DIR

        SOURCE DIRECTIVES (comment lines in the .asm file)
          ; asmrun: format elf32        ; asmrun: link cc           ; asmrun: define DEBUG=1
          ; asmrun: with util.asm drv.c ; asmrun: link-flags -lm    ; asmrun: c-flags -O2
          ; asmrun: timeout 5           ; asmrun: qemu-cpu qemu64   ; asmrun: include-only
          ; asmrun: skip qemu REASON    ; asmrun: xfail all REASON  ; asmrun: limit memory 256M

        EXIT STATUS
          run:  the program's own status; 128+N when it dies by signal N; 124 on timeout;
                125 when asmrun itself fails (usage, missing tool, assembly or link error)
          test: 0 all passed, 1 any failure, 2 usage or configuration error, 3 flaky cases
                (passed only on a retry) without --allow-flaky, 130 interrupted
          --watch: 130 when Ctrl-C ends it, whatever the last run's result

        ENVIRONMENT
          ASMRUN_HOST_ARCH=aarch64   behave exactly as on an ARM host (qemu runner, cross linker)
          ASMRUN_RUNNER=binfmt       what `auto` runs with where x86 does not run natively:
                                     qemu (the default), binfmt, or a command such as box64
          QEMU_LD_PREFIX=DIR         the x86 root qemu loads libc programs' libraries from
                                     (default /usr/x86_64-linux-gnu, /usr/i686-linux-gnu)
          XDG_CACHE_HOME             the build cache is $XDG_CACHE_HOME/asmrun (or ~/.cache/asmrun)
          NO_COLOR                   no colour in output

        EXAMPLES
          asmrun hello.asm                          print Hello, World! on x86_64 or ARM
          asmrun echo.asm -- one two                pass arguments to the program
          asmrun main.asm triple.asm                two sources, one program
          asmrun leap                               a folder: asm functions and a C test driver
          asmrun sum32.asm -f elf32 --runner qemu   a 32-bit program under qemu-i386
          asmrun printf.asm --link cc -v            a libc program, showing the tool commands
          asmrun loop.asm --runner 'box64'          run under another emulator
          asmrun noexit.asm                         on a crash: the line, the registers and hints
          asmrun debug hello.asm                    gdb at _start, natively or through qemu
          asmrun test asm/ --runner native,qemu     the sample suite, natively and emulated
          asmrun test --update asm/new.asm          record what a program does now

        """

    static let report = """
        asmrun report merge — one report from the JSON reports of a sharded run's jobs.

        USAGE
          asmrun report merge SHARD.json... [options]
                                     SHARD.json: what `asmrun test --shard K/N --json F` wrote

        Prints the failures and the summary, and exits as the unsharded run would have: 0 when every
        case passed, 1 when one failed or a shard is missing or stopped early, 2 when the reports are
        not the shards of one run (another run's report, a shard given twice, a result in two), 3
        when cases passed only on a retry (FLAKY) and --allow-flaky is not given.

        OPTIONS
          --json FILE                write the combined JSON report
          --junit FILE               write a JUnit XML report of every case
          --summary FILE             write the Markdown summary (also appended to $GITHUB_STEP_SUMMARY)
          --allow-flaky              exit 0 when cases were flaky, as the shards' run with --allow-flaky
          -h, --help                 this help

        """

    static let test = """
        asmrun test — run programs against their recorded stdout, stderr and exit status.

        USAGE
          asmrun test [PATH...] [options]       PATH: .asm or .md files, or folders (default: asm/)

        OPTIONS
          --update                 record what the programs do now as their expectations
                                   (nothing is written when the run is interrupted)
          --review                 then walk the failing cases on the terminal, showing each
                                   diff: a accept (record it as --update --filter would),
                                   s skip, r reject, A accept all, q quit, ? help
          -j, --jobs N             parallel jobs (default: the number of cores)
          --runner LIST            comma-separated: native, qemu, binfmt, 'CMD ARGS', or all (native,qemu)
          --filter REGEX           only cases whose id (asm/x.asm:case) matches
          --list                   print the case ids and exit
          --shard K/N              run only the K-th of N slices of the programs (each program's
                                   slice is a stable hash of its path; an empty slice passes)
          --balance REPORT         with --shard: deal the programs out by the timings of an
                                   earlier --json report, so the slices take about as long
          --fail-fast              stop starting cases after the first failure
          --retries N              run a failed, crashed or timed-out case up to N more times (0 to
                                   10); one that then passes is FLAKY, never a pass, and the run
                                   exits 3 (scored as failed) unless --allow-flaky is given
          --allow-flaky            a FLAKY case neither fails the run nor loses its points
                                   (refused with --reference and --untrusted: a grade is earned)
          --watch                  run again on each save, only the programs it touches (a source,
                                   an include, a C file, an .expect, a Markdown file, a new
                                   program); Ctrl-C ends (exit 130); not with --update or grading
          --timeout SECONDS        per-case limit (default 10); `; asmrun: timeout` may only lower it
          --output-limit BYTES     bytes kept per stream (default 1M, at most 256M); more fails the case
          --limit NAME=VALUE       the most `; asmrun: limit NAME VALUE` may ask for (memory,
                                   file-size, cpu, processes, open-files; the default otherwise)
          --scratch-limit BYTES    the most a case may write into its folder (default 256M)
          --c-flags FLAGS          flags for compiling every program's C files (yours: not checked)
          --link-flags FLAGS       flags for every program's link step (yours: not checked)
          --junit PATH             write a JUnit XML report
          --json PATH              write a JSON report (schema in Documentation/testing.md)
          --reference DIR          take every program's expectations from DIR: SUB/x.asm is
                                   checked against DIR/x.expect, for each submission folder SUB
                                   (the reference decides timeouts, xfail, skip and limits; a
                                   submission is built from its own files only)
          --untrusted              the same rules without a reference (strangers' pull requests)
          --gradescope PATH        write Gradescope's results.json (score, tests with points,
                                   feedback in plain sentences for students)
          --csv PATH               write a gradebook: one row per submission, a column per case
          --report-dir DIR         write a Markdown report per submission, for its student
          --no-cache, --cache-dir DIR
          --no-isolation           run cases with the network and a writable file system
          --checks always|on-failure
                                   run every case again under gdb for the ABI checks, a finding
                                   failing it (default: only failed cases, their findings shown)
          --no-checks              no ABI checks and no `syscall` warnings
          -v, --verbose            print passing cases and tool command lines

        EXPECTATIONS
          asm/x.asm is checked against asm/x.expect, which holds cases (stdin, args, env) and,
          per case, the expected stdout, stderr and status; `[..]` in an expected line matches
          any text, a line `[...]` any number of lines. `status: any`, `exit any` or a set
          (`exit 0 | exit 1`) accept more than one status; a case without `status:` does not
          check it. `points: 2` makes a case worth 2 (default 1); `timeout: 2` and
          `limit: memory 64M` are the case's own limits; `visibility: hidden` (or
          after_due_date, after_published) shows students its score only. See Documentation/testing.md.

        GRADING AND CI
          asmrun test subs/* --reference ref    one score line per submission folder
          GITHUB_ACTIONS=true                   failures become ::error annotations at the
                                                .expect line that failed, with the diff
          GITHUB_STEP_SUMMARY=FILE              a Markdown table of the failures is appended

        """
}
