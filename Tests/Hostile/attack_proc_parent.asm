; Reads the environment and the command line of its parent, asmrun where cases get no PID
; namespace (a host that refuses user namespaces to a user): a CI token, a grader's
; `--reference DIR`. argv[1] is a word of asmrun's command line to look for. Where cases have no
; /proc of their own, asmrun is not dumpable while they run: "environ: hidden".
%include "attack.inc"
section .text
global _start
_start:
        proc_report {call parent_pid}
