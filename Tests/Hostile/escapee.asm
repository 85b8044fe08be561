; Leaves a daemon behind: forks, the child calls setsid (leaving the process group) and forks
; again, and the grandchild sleeps 20 s before writing a file. The program waits for the child
; (so the daemon surely exists) and exits 0. Nothing may survive the case: the daemon is ended
; with it.
%include "sys.inc"
section .data
name:   db "written-late", 0
section .text
global _start
_start:
        fork_or_parent .parent
        mov     eax, SYS_setsid
        syscall
        fork_or_parent .quit
        sleep_seconds 20
        mov     eax, SYS_open
        lea     rdi, [rel name]
        mov     esi, 0x241
        mov     edx, 0o644
        syscall
.quit:  exit_with 0
.parent:
        mov     eax, 61                 ; wait4(-1, NULL, 0, NULL): the child has forked the daemon
        mov     rdi, -1
        xor     esi, esi
        xor     edx, edx
        xor     r10d, r10d
        syscall
        exit_with 0
