import Compare
import Foundation
import Processes
import Run
import Source
import Support

@testable import Suite

/// Programs and reports for unit tests: files written to a fresh folder and loaded as a suite
/// would (reading files only; no tool runs).
package enum UnitFixture {
    /// A program that prints `hello` and exits 0.
    package static let hello = """
        global _start
        _start:
            mov eax, 60
            xor edi, edi
            syscall

        """

    /// The runners of 64-bit programs a scheduler test runs under: `native` and `qemu` (which the
    /// fake stages never start).
    package static let runners: [ObjectFormat: [Runner]] = [
        .elf64: [Runner(name: "native", kind: .native), Runner(name: "qemu", kind: .custom(["qemu"]))]
    ]

    /// A fresh folder, removed by the caller.
    package static func folder() throws -> String {
        try TemporaryDirectory(prefix: "unit").path
    }

    /// `NAME.asm` (and `NAME.expect` with `cases`, each `status: exit 0`) in `folder`, loaded.
    package static func program(_ name: String, cases: [String], in folder: String) throws -> TestProgram {
        let path = folder + "/" + name + ".asm"
        try AtomicFile.write(Array(hello.utf8), to: path)
        let expect = cases.map { "[case \($0)]\nstatus: exit 0\n" }.joined(separator: "\n")
        try AtomicFile.write(Array(expect.utf8), to: folder + "/" + name + ".expect")
        return TestProgram(path: path)
    }

    /// A result of `runner` with `status`.
    package static func result(_ runner: String, _ status: CaseStatus, message: String = "", duration: Double = 0.01) -> RunnerResult {
        var result = RunnerResult(runner: runner, status: status, message: message)
        result.duration = duration
        return result
    }

    /// A case report of `program`'s `caseName` with one result per runner.
    package static func report(_ program: String, _ caseName: String, _ results: [RunnerResult]) -> CaseReport {
        CaseReport(program: program, caseName: caseName, results: results, divergence: nil)
    }
}
