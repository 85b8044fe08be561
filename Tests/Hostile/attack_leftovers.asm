; Two cases of one program, one after the other (-j1), so that a warden runs both: `plant KEY`
; makes a System V message queue, semaphore set and shared memory segment with KEY, a POSIX
; message queue, and a file beside its own folder (in the warden's, where it may write);
; `look KEY` looks for each. Contained: every one gone before the next case starts.
%include "attack.inc"
%define SYS_shmget      29
%define SYS_semget      64
%define SYS_mq_open     240
%define IPC_CREAT       0o1000
section .data
; mq_open takes the name without its slash, as the C library passes it (qemu looks at the byte
; before for the slash).
        db "/"
queue:   db "asmrun-planted", 0
planted: db "../planted", 0
text ipc_planted, "ipc: planted"
text ipc_failed, "ipc: not planted"
text file_planted, "file: planted"
text file_refused, "file: refused"
text msg_left, "msg: left"
text msg_gone, "msg: gone"
text sem_left, "sem: left"
text sem_gone, "sem: gone"
text shm_left, "shm: left"
text shm_gone, "shm: gone"
text mq_left, "mq: left"
text mq_gone, "mq: gone"
text file_left, "file: left"
text file_gone, "file: gone"
section .text
global _start
_start:
        mov     rbx, rsp
        argv_or_exit 2
        call    parse_decimal
        mov     r12d, eax               ; the key
        argv_or_exit 1
        cmp     byte [rsi], 'p'
        jne     look

; with r13d = flags for the System V calls and mq_open: r14 counts what exists.
plant:
        xor     r14d, r14d
        mov     r13d, IPC_CREAT | 0o600
        call    probe_ipc
        cmp     r14d, 4
        jne     .failed
        say     ipc_planted
        jmp     .file
.failed:
        say     ipc_failed
.file:  mov     eax, SYS_open
        lea     rdi, [rel planted]
        mov     esi, O_WRONLY_CREAT_TRUNC
        mov     edx, 0o644
        syscall
        test    rax, rax
        js      .refused
        say     file_planted
        exit_with 0
.refused:
        say     file_refused
        exit_with 0

look:
        xor     r13d, r13d
        mov     eax, SYS_msgget
        mov     edi, r12d
        xor     esi, esi
        syscall
        test    rax, rax
        js      .msg_gone
        say     msg_left
        jmp     .sem
.msg_gone:
        say     msg_gone
.sem:   mov     eax, SYS_semget
        mov     edi, r12d
        xor     esi, esi
        xor     edx, edx
        syscall
        test    rax, rax
        js      .sem_gone
        say     sem_left
        jmp     .shm
.sem_gone:
        say     sem_gone
.shm:   mov     eax, SYS_shmget
        mov     edi, r12d
        xor     esi, esi
        xor     edx, edx
        syscall
        test    rax, rax
        js      .shm_gone
        say     shm_left
        jmp     .mq
.shm_gone:
        say     shm_gone
.mq:    mov     eax, SYS_mq_open
        lea     rdi, [rel queue]
        xor     esi, esi                ; O_RDONLY
        xor     edx, edx
        xor     r10d, r10d
        syscall
        test    rax, rax
        js      .mq_gone
        say     mq_left
        jmp     .file
.mq_gone:
        say     mq_gone
.file:  mov     eax, SYS_open
        lea     rdi, [rel planted]
        xor     esi, esi
        syscall
        test    rax, rax
        js      .file_gone
        say     file_left
        exit_with 0
.file_gone:
        say     file_gone
        exit_with 0

; Makes (r13d = IPC_CREAT | 0600) each of the four; r14d counts the ones that worked.
probe_ipc:
        mov     eax, SYS_msgget
        mov     edi, r12d
        mov     esi, r13d
        syscall
        call    .count
        mov     eax, SYS_semget
        mov     edi, r12d
        mov     esi, 1
        mov     edx, r13d
        syscall
        call    .count
        mov     eax, SYS_shmget
        mov     edi, r12d
        mov     esi, 4096
        mov     edx, r13d
        syscall
        call    .count
        mov     eax, SYS_mq_open
        lea     rdi, [rel queue]
        mov     esi, 0o102              ; O_RDWR | O_CREAT
        mov     edx, 0o600
        xor     r10d, r10d
        syscall
.count: test    rax, rax
        js      .skip
        inc     r14d
.skip:  ret
