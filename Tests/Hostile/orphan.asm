; Forks a child that stays in the process group and sleeps 20 s; the parent exits at once.
%include "sys.inc"
section .text
global _start
_start:
        fork_or_parent .parent
        sleep_seconds 20
.parent:
        exit_with 0
