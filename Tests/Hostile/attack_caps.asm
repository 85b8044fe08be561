; As root, uses capabilities an exec as uid 0 would give: renames the host (sethostname, which
; needs CAP_SYS_ADMIN) and gives a file of its own to another user (fchown, CAP_CHOWN).
; Contained: both refused (no capabilities, and none regained by the exec that started it).
%include "attack.inc"
%define SYS_fchown      93
%define SYS_sethostname 170
section .data
name:   db "asmrun-escaped"
name_len equ $ - name
owned:  db "owned", 0
text renamed, "hostname: changed"
text kept, "hostname: refused"
text chowned, "chown: changed"
text unchanged, "chown: refused"
section .text
global _start
_start:
        mov     eax, SYS_sethostname
        lea     rdi, [rel name]
        mov     esi, name_len
        syscall
        test    rax, rax
        jz      .renamed
        say     kept
        jmp     .chown
.renamed:
        say     renamed
.chown: mov     eax, SYS_open
        lea     rdi, [rel owned]
        mov     esi, O_WRONLY_CREAT_TRUNC
        mov     edx, 0o644
        syscall
        test    rax, rax
        js      .refused
        mov     edi, eax
        mov     eax, SYS_fchown
        mov     esi, 12345
        mov     edx, 12345
        syscall
        test    rax, rax
        jnz     .refused
        say     chowned
        exit_with 0
.refused:
        say     unchanged
        exit_with 0
