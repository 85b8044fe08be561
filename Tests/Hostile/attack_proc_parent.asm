; Reads the environment and the command line of its parent, asmrun where cases get no PID
; namespace (a host that refuses user namespaces to a user): a CI token, a grader's
; `--reference DIR`. argv[1] is a word of asmrun's command line to look for. Where cases have no
; /proc of their own, asmrun is not dumpable while they run: "environ: hidden".
%include "attack.inc"
section .data
cmdline: db "/cmdline", 0
environ: db "/environ", 0
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
        lea     rsi, [rel cmdline]
        call    parent_path
        call    read_all
        test    rax, rax
        jg      .search
        say     cmdline_hidden
        jmp     .environ
.search:
        mov     r13, rax
        call    contains
        test    eax, eax
        jz      .other
        say     cmdline_asmrun
        jmp     .environ
.other: say     cmdline_other
.environ:
        lea     rsi, [rel environ]
        call    parent_path
        call    read_all
        test    rax, rax
        jg      .read
        say     environ_hidden
        exit_with 0
.read:  say     environ_read
        exit_with 0

