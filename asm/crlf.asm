; A file saved with Windows line endings (CRLF), with a directive and mixed-case keywords.
; asmrun: timeout 5
SECTION .data
msg:    DB "CRLF is fine", 10
SECTION .text
GLOBAL _start
_start:
        MOV     EAX, 1
        MOV     EDI, 1
        LEA     RSI, [REL msg]
        MOV     EDX, 13
        SYSCALL
        MOV     EAX, 60
        XOR     EDI, EDI
        SYSCALL
