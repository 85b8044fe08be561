; Handles a SIGUSR1 it sends itself, then writes through a null pointer: the report names the
; signal that ended the program, SIGSEGV, not the SIGUSR1 it handled on the way.
section .text
global _start
_start:
        mov     eax, 13                 ; rt_sigaction(SIGUSR1, &action, NULL, 8)
        mov     edi, 10
        lea     rsi, [rel action]
        xor     edx, edx
        mov     r10d, 8
        syscall
        mov     eax, 39                 ; getpid
        syscall
        mov     edi, eax
        mov     eax, 62                 ; kill(getpid(), SIGUSR1): the handler runs
        mov     esi, 10
        syscall
        xor     ebx, ebx                ; the pointer, never loaded
        mov     [rbx], eax              ; crash: writes to address 0
        mov     eax, 60
        xor     edi, edi
        syscall

handler:
        ret

restorer:
        mov     eax, 15                 ; rt_sigreturn
        syscall

section .data
action: dq      handler                 ; sa_handler
        dq      0x04000000              ; sa_flags: SA_RESTORER
        dq      restorer                ; sa_restorer
        dq      0                       ; sa_mask
