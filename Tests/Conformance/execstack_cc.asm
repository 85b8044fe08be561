; conformance: executable stack: a `main` program linked by the C compiler without a .note.GNU-stack section runs code from its stack
; asmrun: xfail native asmrun links libc programs with -z noexecstack unless an object's .note.GNU-stack or -z execstack asks for an executable stack; the classic `cc -no-pie` build of a nasm object without the note makes it executable, with a warning that binutils deprecates it (README: what asmrun's build adds)
; asmrun: xfail qemu asmrun links libc programs with -z noexecstack unless an object's .note.GNU-stack or -z execstack asks for an executable stack; the classic `cc -no-pie` build of a nasm object without the note makes it executable, with a warning that binutils deprecates it (README: what asmrun's build adds)
; nasm writes no .note.GNU-stack section; linked with libc's start files (`cc -no-pie x.o`),
; GNU ld then writes PT_GNU_STACK with PF_X ("missing .note.GNU-stack section implies
; executable stack") and code stored on the stack runs (it returns 42).
%include "probe.inc"
%include "execstack.inc"
global main
main:
        run_stack_code_or_report_fault
