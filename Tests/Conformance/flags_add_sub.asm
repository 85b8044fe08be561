; conformance: flags: AF, PF, OF and CF after add, adc, sub, sbb, neg and cmp
; These instructions define all six status flags: AF is the carry (or borrow) out of bit 3, PF
; the even parity of the result's low byte, OF a signed overflow, CF an unsigned one.
%include "probe.inc"
global _start
_start:
        flags_after "add byte 0x0f + 1", CF|PF|AF|ZF|SF|OF, {mov al, 0x0f}, {add al, 1}
        flags_after "add byte 0x7f + 0x81", CF|PF|AF|ZF|SF|OF, {mov al, 0x7f}, {add al, 0x81}
        flags_after "adc 0x7fffffff + 0 with CF", CF|PF|AF|ZF|SF|OF, stc, {mov eax, 0x7fffffff}, {adc eax, 0}
        flags_after "sub byte 0x10 - 1", CF|PF|AF|ZF|SF|OF, {mov al, 0x10}, {sub al, 1}
        flags_after "sbb 0 - 0 with CF", CF|PF|AF|ZF|SF|OF, {xor eax, eax}, stc, {sbb eax, 0}
        flags_after "neg 0x80000000", CF|PF|AF|ZF|SF|OF, {mov eax, 0x80000000}, neg eax
        flags_after "neg 0", CF|PF|AF|ZF|SF|OF, {xor eax, eax}, neg eax
        flags_after "cmp 5, 7", CF|PF|AF|ZF|SF|OF, {mov eax, 5}, {cmp eax, 7}
        exit_with 0
