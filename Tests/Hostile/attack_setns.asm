; Enters the mount and network namespaces of its parent through /proc/PPID/ns/* (asmrun's own,
; without a PID namespace of the case), then creates the file argv[1] outside its folder.
; Contained: "setns mnt: refused", "setns net: refused", "outside: blocked".
%include "attack.inc"
section .data
ns_mnt: db "/ns/mnt", 0
ns_net: db "/ns/net", 0
text mnt_in, "setns mnt: entered"
text mnt_no, "setns mnt: refused"
text net_in, "setns net: entered"
text net_no, "setns net: refused"
section .text
global _start
_start:
        mov     rbx, rsp
        lea     rsi, [rel ns_mnt]
        call    enter_parent_ns
        test    rax, rax
        jnz     .mnt_refused
        say     mnt_in
        jmp     .net
.mnt_refused:
        say     mnt_no
.net:   lea     rsi, [rel ns_net]
        call    enter_parent_ns
        test    rax, rax
        jnz     .net_refused
        say     net_in
        jmp     .outside
.net_refused:
        say     net_no
.outside:
        argv_or_exit 1
        mov     rdi, rsi
        try_create "outside"

