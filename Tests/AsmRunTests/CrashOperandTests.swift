import Foundation
import Processes
import Support
import Testing

@testable import Run

/// Crash reports read every memory operand form nasm emits, as gdb prints it: SIB, rip-relative,
/// absolute (`ds:0x0`, no brackets) and segment-prefixed; natively and under qemu, whose gdbstub
/// gives no fault address, so the report works it out from the operand.
struct CrashOperandTests {
    private func report(_ registers: [String: UInt64], thirtyTwoBit: Bool = false) -> CrashReport {
        var report = CrashReport(signal: 11)
        report.thirtyTwoBit = thirtyTwoBit
        report.registers = registers.map { CrashReport.Register(name: $0.key, value: $0.value) }
        return report
    }

    @Test func everyOperandFormGivesItsAddressAndAccess() {
        let registers = report(["rax": 0x1000, "rbx": 0x2000, "rcx": 3, "rsp": 0x7fff_0000, "rdi": 0x5000, "rsi": 0x6000])
        let cases: [(String, UInt64?, String?)] = [
            ("mov DWORD PTR ds:0x0,eax", 0, "writing"),
            ("mov eax,DWORD PTR ds:0x10", 0x10, "reading"),
            ("movabs ds:0x1000,eax", 0x1000, "writing"),
            ("mov DWORD PTR [rip+0xff2],eax        # 0x402000 <table>", 0x402000, "writing"),
            ("mov eax,DWORD PTR [rip+0xff2]        # 0x402000 <table>", 0x402000, "reading"),
            ("mov DWORD PTR [rbx+rcx*4-0x10],eax", 0x2000 + 12 - 0x10, "writing"),
            ("mov eax,DWORD PTR [rcx*8+0x402000]", 0x402000 + 24, "reading"),
            ("mov eax,DWORD PTR es:[rbx]", 0x2000, "reading"),
            ("es mov eax,DWORD PTR [rbx]", 0x2000, "reading"),
            ("fs mov DWORD PTR [rbx],eax", nil, "writing"),
            ("mov DWORD PTR ss:[rax+0x8],0x1", 0x1008, "writing"),
            ("mov rax,QWORD PTR fs:0x28", nil, "reading"),
            ("mov eax,DWORD PTR fs:[rax]", nil, "reading"),
            ("cmp DWORD PTR [rax],0x0", 0x1000, "reading"),
            ("inc DWORD PTR [rax]", 0x1000, "writing"),
            ("stos DWORD PTR es:[rdi],eax", 0x5000, "writing"),
            ("rep stos QWORD PTR es:[rdi],rax", 0x5000, "writing"),
            ("lods al,BYTE PTR ds:[rsi]", 0x6000, "reading"),
            ("movs BYTE PTR es:[rdi],BYTE PTR ds:[rsi]", nil, "writing"),
            ("push rax", 0x7fff_0000 - 8, "writing"),
            ("ret", 0x7fff_0000, "reading"),
            ("call QWORD PTR [rax]", 0x1000, "reading"),
            ("add eax,ebx", nil, nil),
        ]
        for (instruction, address, access) in cases {
            #expect(OperandAddress.of(instruction, in: registers) == address, "\(instruction)")
            #expect(OperandAddress.access(instruction) == access, "\(instruction)")
        }
    }

    @Test func thirtyTwoBitAddressesWrapAtFourGiB() {
        let registers = report(["eax": 0xffff_fff0, "esp": 0xffff_d000], thirtyTwoBit: true)
        #expect(OperandAddress.of("mov DWORD PTR [eax+0x20],0x1", in: registers) == 0x10)
        #expect(OperandAddress.of("mov DWORD PTR ds:0x0,eax", in: registers) == 0)
    }
}

/// The same forms in real programs that crash, natively, under qemu and as on an ARM host.
@Suite(.tags(.integration), .needsTools)
struct CrashOperandRunTests {
    struct Sample: Sendable, CustomStringConvertible {
        var name: String
        var code: String
        var headline: String
        var nearNull: Bool
        var description: String { name }
    }

    static let samples = [
        Sample(name: "absolute", code: "mov eax, 1\nmov [0], eax", headline: "writing address 0x0", nearNull: true),
        Sample(name: "absolute32", code: "bits 32\nmov [0], eax", headline: "writing address 0x0", nearNull: true),
        Sample(name: "absolute_read", code: "mov eax, [16]", headline: "reading address 0x10", nearNull: true),
        Sample(
            name: "sib", code: "xor ebx, ebx\nmov ecx, 2\nmov [rbx+rcx*4+16], eax", headline: "writing address 0x18", nearNull: true),
        Sample(name: "segment", code: "xor ebx, ebx\nmov eax, [es:rbx]", headline: "reading address 0x0", nearNull: true),
        Sample(
            name: "rip_relative", code: "mov [rel constant], eax\nsection .rodata\nconstant: dd 7",
            headline: "writing address 0x402000", nearNull: false),
    ]

    @Test(arguments: samples, CrashReportTests.ways) func theReportNamesTheAddressAndAccess(sample: Sample, way: CrashReportTests.Way)
        throws
    {
        let folder = try Fixture.temporaryDirectory()
        defer { Files.removeTree(folder) }
        let bits32 = sample.code.hasPrefix("bits 32")
        let path = folder + "/\(sample.name).asm"
        try Fixture.write(
            (bits32 ? "; asmrun: format elf32\n" : "") + "section .text\nglobal _start\n_start:\n" + sample.code + "\n", to: path)
        let result = try Fixture.asmrun([path] + way.arguments, environment: way.environment)
        #expect(result.status == .exited(139))
        let lines = result.stderr.split(separator: "\n").map(String.init)
        // nasm warns that an es prefix is ignored in 64-bit code before the report.
        let headline = lines.first { $0.hasPrefix("asmrun: ") }
        #expect(headline?.contains("SIGSEGV (segmentation fault) \(sample.headline)") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  hint: address 0x") && $0.contains("is near zero") } == sample.nearNull, "\(lines)")
    }
}
