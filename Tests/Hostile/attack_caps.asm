; As root, uses capabilities an exec as uid 0 would give: renames the host (sethostname, which
; needs CAP_SYS_ADMIN) and gives a file of its own to another user (fchown, CAP_CHOWN).
; Contained: both refused (no capabilities, and none regained by the exec that started it).
; Then reads the two layers that keep an exec from regaining them, each enough alone: the
; locked securebits (noroot, no setuid fixup, no keep-caps, no ambient raise) and no_new_privs.
%include "attack.inc"
%define SYS_fchown      93
%define SYS_prctl       157
%define SYS_sethostname 170
%define PR_GET_SECUREBITS 27
%define PR_GET_NO_NEW_PRIVS 39
%define LOCKED_BITS     0xef
section .data
name:   db "asmrun-escaped"
name_len equ $ - name
owned:  db "owned", 0
text renamed, "hostname: changed"
text kept, "hostname: refused"
text chowned, "chown: changed"
text unchanged, "chown: refused"
text locked, "securebits: locked"
text open_bits, "securebits: open"
text nnp_set, "no_new_privs: set"
text nnp_unset, "no_new_privs: unset"
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
        jmp     .layers
.refused:
        say     unchanged
.layers:
        mov     eax, SYS_prctl
        mov     edi, PR_GET_SECUREBITS
        xor     esi, esi
        xor     edx, edx
        xor     r10d, r10d
        xor     r8d, r8d
        syscall
        and     eax, LOCKED_BITS
        cmp     eax, LOCKED_BITS
        jne     .open
        say     locked
        jmp     .nnp
.open:  say     open_bits
.nnp:   mov     eax, SYS_prctl
        mov     edi, PR_GET_NO_NEW_PRIVS
        xor     esi, esi                ; its other arguments must be 0
        xor     edx, edx
        xor     r10d, r10d
        xor     r8d, r8d
        syscall
        cmp     rax, 1
        jne     .unset
        say     nnp_set
        exit_with 0
.unset: say     nnp_unset
        exit_with 0
