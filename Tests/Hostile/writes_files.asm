; Writes a file in its working directory (allowed), then tries a file given as argv[1]
; outside it. Prints what happened to each: "cwd: ok" and "outside: blocked" when isolated.
%include "sys.inc"
section .data
local:  db "notes.txt", 0
okcwd:  db "cwd: ok", 10
badcwd: db "cwd: failed", 10
okout:  db "outside: written", 10
blkout: db "outside: blocked", 10
section .text
global _start
_start:
        mov     rbx, rsp
        mov     eax, SYS_open
        lea     rdi, [rel local]
        mov     esi, 0x241
        mov     edx, 0o644
        syscall
        test    rax, rax
        js      .cwdfail
        write_str 1, okcwd, 8
        jmp     .outside
.cwdfail:
        write_str 1, badcwd, 12
.outside:
        cmp     qword [rbx], 2
        jb      .done
        mov     eax, SYS_open
        mov     rdi, [rbx + 16]
        mov     esi, 0x241
        mov     edx, 0o644
        syscall
        test    rax, rax
        js      .blocked
        write_str 1, okout, 17
        jmp     .done
.blocked:
        write_str 1, blkout, 17
.done:  exit_with 0
