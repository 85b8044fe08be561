; Clears the read-only flag of every mount it sees (mount_setattr on "/" with AT_RECURSIVE,
; or a bind remount of "/" where the kernel or qemu lacks mount_setattr), then creates the file
; argv[1] outside its folder. Contained: "remount: refused", "outside: blocked".
%include "attack.inc"
section .data
root:   db "/", 0
; struct mount_attr: attr_set, attr_clr (MOUNT_ATTR_RDONLY), propagation, userns_fd
attr:   dq 0, 1, 0, 0
text done, "remount: done"
text refused, "remount: refused"
section .text
global _start
_start:
        mov     rbx, rsp
        mov     eax, SYS_mount_setattr
        mov     edi, -100               ; AT_FDCWD
        lea     rsi, [rel root]
        mov     edx, 0x8000             ; AT_RECURSIVE
        lea     r10, [rel attr]
        mov     r8d, 32
        syscall
        test    rax, rax
        jz      .remounted
        mov     eax, SYS_mount          ; mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL)
        xor     edi, edi
        lea     rsi, [rel root]
        xor     edx, edx
        mov     r10d, 0x1020
        xor     r8d, r8d
        syscall
        test    rax, rax
        jz      .remounted
        say     refused
        jmp     .outside
.remounted:
        say     done
.outside:
        argv_or_exit 1
        mov     rdi, rsi
        try_create "outside"
