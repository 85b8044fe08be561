; Reads the command line and the environment of PID 1 of its namespace, its warden or init,
; which shares asmrun's memory: asmrun's own arguments (a grader's `--reference DIR`, where the
; expected output lies) and environment. argv[1] is a word of asmrun's command line to look for.
; Contained: "cmdline: hidden" and "environ: hidden" (the case's /proc hides what it may not
; trace: hidepid=2).
%include "attack.inc"
section .data
cmdline: db "/proc/1/cmdline", 0
environ: db "/proc/1/environ", 0
text cmdline_hidden, "cmdline: hidden"
text cmdline_asmrun, "cmdline: asmrun's"
text cmdline_other, "cmdline: another program's"
text environ_hidden, "environ: hidden"
text environ_read, "environ: read"
section .text
global _start
_start:
        mov     rbx, rsp
        argv_or_exit 1
        mov     r12, rsi                ; the word
        lea     rdi, [rel cmdline]
        call    read_all
        test    rax, rax
        jg      .search
        say     cmdline_hidden
        jmp     .environ
.search:
        mov     r13, rax                ; bytes read
        call    contains
        test    eax, eax
        jz      .other
        say     cmdline_asmrun
        jmp     .environ
.other: say     cmdline_other
.environ:
        lea     rdi, [rel environ]
        call    read_all
        test    rax, rax
        jg      .read
        say     environ_hidden
        exit_with 0
.read:  say     environ_read
        exit_with 0
