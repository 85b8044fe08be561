; asmrun: timeout 1
; An infinite loop: the case must end as a timeout, within the limit plus the grace period.
section .text
global _start
_start:
        jmp     _start
