; Two cases of one program run side by side (-j2). `victim` marks its folder and waits up to
; 2 s for a file to appear in it; `attacker` looks for the marked folder beside its own, or
; beside its own folder's parent (each warden's cases have their folders in its own), or, where
; those cannot be listed, by the names wardens give their folders (../warden-N), reads the
; mark and creates a file beside it. Contained: "attacker: no neighbour" (a case sees no folder
; but its own), "victim: intact".
%include "attack.inc"

; each_name FOLDER, FD, BUFFER, AT, END ... next_name: opens the folder named at FOLDER (into
; FD) and runs the code between for each name in it that does not start with '.' (its entry at
; AT, its name at AT + 19), reading 4 KiB of entries into BUFFER at a time (END their end); after
; the last one, the folder is closed. A folder that cannot be opened has no names.
%macro each_name 5
%push each_name
%define %$fd %2
%define %$at %4
        mov     eax, SYS_open
        lea     rdi, [rel %1]
        mov     esi, 0x10000            ; O_DIRECTORY
        syscall
        test    rax, rax
        js      %$end
        mov     %2, rax
%$batch:
        mov     eax, SYS_getdents64
        mov     rdi, %2
        lea     rsi, [rel %3]
        mov     edx, 4096
        syscall
        test    rax, rax
        jle     %$close
        lea     %4, [rel %3]
        lea     %5, [%4 + rax]
%$entry:
        cmp     %4, %5
        jae     %$batch
        cmp     byte [%4 + 19], '.'
        je      %$next
%endmacro

; join DEST, FIRST, NAME: DEST holds the string at FIRST, then the one at NAME (an address);
; rdi at its end.
%macro join 3
        lea     rdi, [rel %1]
        lea     rsi, [rel %2]
        call    append_string
        lea     rsi, %3
        call    append_string
%endmacro

%macro next_name 0
%$next: movzx   eax, word [%$at + 16]
        add     %$at, rax
        jmp     %$entry
%$close:
        mov     rdi, %$fd
        mov     eax, SYS_close
        syscall
%$end:
%pop
%endmacro
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
        each_name grandparent, rbx, cousins, r12, rbp
        join    prefix, upupdir, [r12 + 19]
        lea     rsi, [rel slash]
        call    append_string
        call    find_in
        test    rax, rax
        jz      .found
        next_name
        call    guess
        jmp     .done
.found: push    rdi
        mov     edi, ebx
        mov     eax, SYS_close
        syscall
        pop     rdi
        xor     eax, eax
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
        call    marked
        test    eax, eax
        jz      .done
        inc     r12d
        cmp     r12d, 64
        jbe     .try
        mov     eax, 1
.done:  pop     r12
        ret

; Looks through the folder `prefix` (ending in "/") for a folder holding "victim-here"; rax = 0
; and path = prefix NAME (rdi at its end) when found, else rax = 1. Uses r13 to r15.
find_in:
        each_name prefix, r13, entries, r14, r15
        join    path, prefix, [r14 + 19]
        call    marked
        test    eax, eax
        jz      .found
        next_name
.none:  mov     eax, 1
        ret
.found: push    rdi
        mov     edi, r13d
        mov     eax, SYS_close
        syscall
        pop     rdi
        xor     eax, eax
        ret

; Whether the folder `path` (rdi at its end) holds "victim-here": rax = 0 and path ends at rdi
; again when it does, else rax = 1.
marked:
        push    rdi
        lea     rsi, [rel slash_marker]
        call    append_string
        mov     eax, SYS_open
        lea     rdi, [rel path]
        xor     esi, esi
        syscall
        pop     rdi
        test    rax, rax
        js      .no
        push    rdi
        mov     edi, eax
        mov     eax, SYS_close
        syscall
        pop     rdi
        mov     byte [rdi], 0
        xor     eax, eax
        ret
.no:    mov     eax, 1
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
