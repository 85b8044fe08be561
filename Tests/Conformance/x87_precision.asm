; conformance: other: x87 arithmetic and fsin in 64-bit-mantissa (extended) precision
; divergence: inherent: qemu 7.2 computes fsin (and fcos, fsincos, fptan) through the host's double-precision sin(), so the result has only 53 significant bits; x87 arithmetic (fdiv, fsqrt) is exact in its software floating point
; The x87 unit computes with a 64-bit mantissa (precision control 0x37f at start). 1/3 is
; 0xaaaaaaaaaaaaaaab in it (rounded to nearest); fsqrt(2) is correctly rounded too. For fsin(1)
; CPUs differ in the last bit, so the probe prints only whether the mantissa's low 11 bits, which
; a double lacks, are in use.
%include "probe.inc"
global _start
_start:
        fld1
        fld     qword [rel three]
        fdivp                           ; st0 = 1/3
        fstp    tword [rel result]
        show_hex "1/3 mantissa", [rel result]
        fld     qword [rel two]
        fsqrt
        fstp    tword [rel result]
        show_hex "sqrt(2) mantissa", [rel result]
        fld1
        fsin
        fstp    tword [rel result]
        mov     rax, [rel result]
        test    eax, 0x7ff
        show_if "fsin(1) has bits past a double's 53", nz
        exit_with 0

section .data
three:  dq 3.0
two:    dq 2.0
section .bss
result: rest 1
