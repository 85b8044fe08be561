; Reads the command line and the environment of PID 1 of its namespace, its warden or init,
; which shares asmrun's memory: asmrun's own arguments (a grader's `--reference DIR`, where the
; expected output lies) and environment. argv[1] is a word of asmrun's command line to look for.
; Contained: "cmdline: hidden" and "environ: hidden" (the case's /proc hides what it may not
; trace: hidepid=2).
%include "attack.inc"
section .text
global _start
_start:
        proc_report {mov eax, 1}
