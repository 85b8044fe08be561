; conformance: exit: a program that sends itself SIGTERM dies by that signal
; kill(getpid(), SIGTERM) with the default action ends the program by the signal (status 143):
; the signal is delivered before kill returns, so nothing after it runs.
%include "probe.inc"
global _start
_start:
        say     {"sending SIGTERM to myself", 10}
        mov     eax, 39                 ; getpid
        syscall
        mov     edi, eax
        mov     esi, 15                 ; SIGTERM
        mov     eax, 62                 ; kill
        syscall
        say     {"still running", 10}
        exit_with 0
