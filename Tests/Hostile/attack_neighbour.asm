; Two cases of one program run side by side (-j2). `victim` marks its folder and waits up to
; 2 s for a file to appear in it; `attacker` looks for the marked folder beside its own, or
; beside its own folder's parent (each warden's cases have their folders in its own), or, where
; those cannot be listed, by the names wardens give their folders (../warden-N), reads the
; mark and creates a file beside it. Contained: "attacker: no neighbour" (a case sees no folder
; but its own), "victim: intact".
%include "attack.inc"
section .data
marker:  db "victim-here", 0
intruder: db "intruder", 0
parent:  db "..", 0
updir:   db "../", 0
upupdir: db "../../", 0
grandparent: db "../..", 0
slash:   db "/", 0
slash_marker: db "/victim-here", 0
slash_intruder: db "/intruder", 0
warden_prefix: db "../warden-", 0
text alone, "attacker: no neighbour"
text intruded, "victim: intruded"
text intact, "victim: intact"
section .bss
entries: resb 4096
cousins: resb 4096
prefix:  resb 512
path:    resb 512
section .text
global _start
_start:
        mov     rbx, rsp
        argv_or_exit 1
        cmp     byte [rsi], 'v'
        je      victim
attacker:
        mov     r12d, 400
.round: call    find_victim
        test    rax, rax
        jz      .found
        call    pause_5ms
        dec     r12d
        jnz     .round
        say     alone
        exit_with 0
.found: lea     rsi, [rel slash_intruder]
        call    append_string
        lea     rdi, [rel path]
        try_create "attacker"

victim:
        mov     eax, SYS_open
        lea     rdi, [rel marker]
        mov     esi, O_WRONLY_CREAT_TRUNC
        mov     edx, 0o644
        syscall
        mov     r12d, 400
.wait:  mov     eax, SYS_open
        lea     rdi, [rel intruder]
        xor     esi, esi
        syscall
        test    rax, rax
        jns     .intruded
        call    pause_5ms
        dec     r12d
        jnz     .wait
        say     intact
        exit_with 0
.intruded:
        say     intruded
        exit_with 0

; Looks for a folder holding "victim-here" beside its own ("../NAME") and one level further
; up ("../../NAME/NAME2": cases that a warden each runs have their folders in the warden's);
; rax = 0 and path = that folder (rdi at its end) when found, else rax = 1.
find_victim:
        push    rbx
        push    rbp
        push    r12
        lea     rdi, [rel prefix]
        lea     rsi, [rel updir]
        call    append_string
        call    find_in
        test    rax, rax
        jz      .done
        mov     eax, SYS_open
        lea     rdi, [rel grandparent]
        mov     esi, 0x10000            ; O_DIRECTORY
        syscall
        test    rax, rax
        js      .none
        mov     rbx, rax
.batch: mov     eax, SYS_getdents64
        mov     rdi, rbx
        lea     rsi, [rel cousins]
        mov     edx, 4096
        syscall
        test    rax, rax
        jle     .close
        lea     r12, [rel cousins]
        lea     rbp, [r12 + rax]
.entry: cmp     r12, rbp
        jae     .batch
        cmp     byte [r12 + 19], '.'
        je      .skip
        lea     rdi, [rel prefix]
        lea     rsi, [rel upupdir]
        call    append_string
        lea     rsi, [r12 + 19]
        call    append_string
        lea     rsi, [rel slash]
        call    append_string
        call    find_in
        test    rax, rax
        jz      .found
.skip:  movzx   eax, word [r12 + 16]
        add     r12, rax
        jmp     .entry
.found: push    rdi
        mov     edi, ebx
        mov     eax, SYS_close
        syscall
        pop     rdi
        xor     eax, eax
        jmp     .done
.close: mov     edi, ebx
        mov     eax, SYS_close
        syscall
.none:  call    guess
.done:  pop     r12
        pop     rbp
        pop     rbx
        ret

; Tries the names wardens give their folders, ../warden-1 to ../warden-64; rax = 0 and path =
; the folder holding "victim-here" (rdi at its end) when found, else rax = 1.
guess:
        push    r12
        mov     r12d, 1
.try:   lea     rdi, [rel path]
        lea     rsi, [rel warden_prefix]
        call    append_string
        mov     eax, r12d
        call    append_decimal
        push    rdi
        lea     rsi, [rel slash_marker]
        call    append_string
        mov     eax, SYS_open
        lea     rdi, [rel path]
        xor     esi, esi
        syscall
        pop     rdi
        test    rax, rax
        jns     .found
        inc     r12d
        cmp     r12d, 64
        jbe     .try
        mov     eax, 1
        pop     r12
        ret
.found: push    rdi
        mov     edi, eax
        mov     eax, SYS_close
        syscall
        pop     rdi
        mov     byte [rdi], 0
        xor     eax, eax
        pop     r12
        ret

; Looks through the folder `prefix` (ending in "/") for a folder holding "victim-here"; rax = 0
; and path = prefix NAME (rdi at its end) when found, else rax = 1. Uses r13 to r15.
find_in:
        mov     eax, SYS_open
        lea     rdi, [rel prefix]
        mov     esi, 0x10000            ; O_DIRECTORY
        syscall
        test    rax, rax
        js      .none
        mov     r13, rax
.batch: mov     eax, SYS_getdents64
        mov     rdi, r13
        lea     rsi, [rel entries]
        mov     edx, 4096
        syscall
        test    rax, rax
        jle     .close
        lea     r14, [rel entries]
        lea     r15, [r14 + rax]
.entry: cmp     r14, r15
        jae     .batch
        cmp     byte [r14 + 19], '.'
        je      .skip
        lea     rdi, [rel path]
        lea     rsi, [rel prefix]
        call    append_string
        lea     rsi, [r14 + 19]
        call    append_string
        push    rdi
        lea     rsi, [rel slash_marker]
        call    append_string
        mov     eax, SYS_open
        lea     rdi, [rel path]
        xor     esi, esi
        syscall
        pop     rdi
        test    rax, rax
        jns     .found
.skip:  movzx   eax, word [r14 + 16]
        add     r14, rax
        jmp     .entry
.found: push    rdi
        mov     edi, eax
        mov     eax, SYS_close
        syscall
        mov     edi, r13d
        mov     eax, SYS_close
        syscall
        pop     rdi
        xor     eax, eax
        ret
.close: mov     edi, r13d
        mov     eax, SYS_close
        syscall
.none:  mov     eax, 1
        ret

pause_5ms:
        push    5000000
        push    0
        mov     eax, SYS_nanosleep
        mov     rdi, rsp
        xor     esi, esi
        syscall
        add     rsp, 16
        ret
