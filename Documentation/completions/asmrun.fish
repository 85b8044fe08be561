# fish completion for asmrun(1): subcommands, options and their values, .asm files.
function __asmrun_no_command
    for word in (commandline -opc)[2..-1]
        switch $word
            case run test debug trace report doctor cache
                return 1
            case '-*'
            case '*'
                return 1
        end
    end
    return 0
end

function __asmrun_asm_files
    set -l token (commandline -ct)
    for file in $token*.asm
        echo $file
    end
    for dir in $token*/
        echo $dir
    end
end

complete -c asmrun -f
complete -c asmrun -n __asmrun_no_command -a run -d 'Assemble, link and run one program'
complete -c asmrun -n __asmrun_no_command -a test -d 'Run programs against their .expect files'
complete -c asmrun -n __asmrun_no_command -a debug -d 'gdb on a program, stopped where it starts'
complete -c asmrun -n __asmrun_no_command -a report -d 'Merge the JSON reports of a sharded run'
complete -c asmrun -n __asmrun_no_command -a trace -d 'Run a program step by step, printing what each line changed'
complete -c asmrun -n __asmrun_no_command -a doctor -d 'What this host can do and what is missing'
complete -c asmrun -n __asmrun_no_command -a cache -d 'Show or empty the build cache'
complete -c asmrun -n 'not __fish_seen_subcommand_from report doctor cache' -a '(__asmrun_asm_files)'
complete -c asmrun -n '__fish_seen_subcommand_from cache' -a 'info clean'
complete -c asmrun -n '__fish_seen_subcommand_from report' -a merge
complete -c asmrun -n '__fish_seen_subcommand_from report' -l json -r -F -d 'Write the combined JSON report'
complete -c asmrun -n '__fish_seen_subcommand_from report' -l junit -r -F -d 'Write a JUnit XML report'
complete -c asmrun -n '__fish_seen_subcommand_from report' -l summary -r -F -d 'Write the Markdown summary'
complete -c asmrun -n '__fish_seen_subcommand_from report' -l allow-flaky -d 'Flaky cases do not fail the merge'
complete -c asmrun -n '__fish_seen_subcommand_from report' -a '(__fish_complete_suffix .json)'

# Run options (also what `asmrun FILE.asm` takes).
set -l run 'not __fish_seen_subcommand_from test report doctor cache'
complete -c asmrun -n $run -s f -l format -x -a 'elf64 elf32' -d 'Object format'
complete -c asmrun -n $run -s I -r -a '(__fish_complete_directories)' -d 'Include directory for nasm'
complete -c asmrun -n $run -s D -x -d 'Define a macro for nasm'
complete -c asmrun -n $run -l link -x -a 'auto ld cc' -d 'How to link'
complete -c asmrun -n $run -s l -x -d 'A library for the link step (-lm)'
complete -c asmrun -n $run -l link-flags -x -d 'Flags for the link step'
complete -c asmrun -n $run -l c-flags -x -d 'Flags for compiling C files'
complete -c asmrun -n $run -l runner -x -a 'auto native qemu binfmt' -d 'What runs the program'
complete -c asmrun -n $run -s o -r -F -d 'Also keep the executable here'
complete -c asmrun -n $run -l strace -d 'Print the system calls after the run'
complete -c asmrun -n $run -l no-crash-report -d 'On a crash one line, no second run under gdb'
complete -c asmrun -n $run -l no-checks -d 'No ABI checks, no syscall warnings'
complete -c asmrun -n $run -s g -l debug -d 'Build with line tables, run and keep that build'
complete -c asmrun -n '__fish_seen_subcommand_from debug' -l batch -d 'Stop at the start, print the line, quit'
complete -c asmrun -n '__fish_seen_subcommand_from debug' -l stdin -r -F -d 'The program reads this file'
complete -c asmrun -n '__fish_seen_subcommand_from trace' -l steps -x -d 'Stop after this many instructions'
complete -c asmrun -n '__fish_seen_subcommand_from trace' -l json -r -F -d 'Write the trace as JSON here'
complete -c asmrun -n $run -l version -d 'Print the version'

# Test options.
set -l test '__fish_seen_subcommand_from test'
complete -c asmrun -n $test -l update -d 'Record what the programs do now'
complete -c asmrun -n $test -l review -d 'Walk the failing cases, record those accepted'
complete -c asmrun -n $test -s j -l jobs -x -d 'Parallel jobs'
complete -c asmrun -n $test -l runner -x -a 'auto native qemu binfmt all native,qemu' -d 'Runners, comma-separated'
complete -c asmrun -n $test -l filter -x -d 'Only case ids matching REGEX'
complete -c asmrun -n $test -l list -d 'Print the case ids'
complete -c asmrun -n $test -l shard -x -d 'Run the K-th of N slices'
complete -c asmrun -n $test -l balance -r -F -d 'Deal shards by the timings of a --json report'
complete -c asmrun -n $test -l fail-fast -d 'Stop after the first failure'
complete -c asmrun -n $test -l retries -x -d 'Run a failed case up to N more times'
complete -c asmrun -n $test -l allow-flaky -d 'A case that passed only on a retry does not fail the run'
complete -c asmrun -n $test -l output-limit -x -d 'Bytes kept per stream'
complete -c asmrun -n $test -l limit -x -d 'The most a program may ask for, NAME=VALUE'
complete -c asmrun -n $test -l scratch-limit -x -d 'Bytes a case may write into its folder'
complete -c asmrun -n $test -l c-flags -x -d 'Flags for compiling every program C file'
complete -c asmrun -n $test -l link-flags -x -d 'Flags for every program link step'
complete -c asmrun -n $test -l junit -r -F -d 'JUnit XML report'
complete -c asmrun -n $test -l json -r -F -d 'JSON report'
complete -c asmrun -n $test -l reference -r -a '(__fish_complete_directories)' -d 'Folder of expectations for every submission'
complete -c asmrun -n $test -l untrusted -d 'Grading rules without a reference'
complete -c asmrun -n $test -l gradescope -r -F -d 'Gradescope results.json'
complete -c asmrun -n $test -l csv -r -F -d 'Gradebook, one row per submission'
complete -c asmrun -n $test -l report-dir -r -a '(__fish_complete_directories)' -d 'Markdown report per submission'
complete -c asmrun -n $test -l no-isolation -d 'Run cases with network and a writable file system'
complete -c asmrun -n $test -l checks -x -a 'always on-failure' -d 'When a case runs again for the ABI checks'
complete -c asmrun -n $test -l no-checks -d 'No ABI checks, no syscall warnings'

# Both.
complete -c asmrun -l timeout -x -d 'Seconds before the program is ended'
complete -c asmrun -l no-cache -d 'Skip the build cache'
complete -c asmrun -l cache-dir -r -a '(__fish_complete_directories)' -d 'Build cache folder'
complete -c asmrun -s v -l verbose -d 'Print each tool command line'
complete -c asmrun -s h -l help -d 'Print the help'
