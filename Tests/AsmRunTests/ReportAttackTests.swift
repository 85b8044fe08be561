import Foundation
import Glibc
import Testing

@testable import Sandbox
@testable import Support

/// What a program can make of the reports about it: the debugger that reads it for a crash
/// report, the lines the report quotes, the text the log shows.
@Suite(
    .tags(.integration), .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)"),
    .enabled(if: Fixture.debugToolsAvailable, "gdb-multiarch or strace is not installed (make deps)"))
struct ReportAttackTests {
    /// A crash whose executable carries a gdb script (`.debug_gdb_scripts`) that would quit the
    /// debugger before it reports; the host's gdb auto-loads every script (a `gdb` first on
    /// PATH that says `set auto-load safe-path /`, as a permissive system gdbinit would).
    static let scripted = """
        global _start
        _start:
            mov byte [0], 1
        section .debug_gdb_scripts progbits noalloc noexec nowrite align=1
            db 4, "gdb.inlined-script", 10
            db "try:", 10
            db "    open('{marker}', 'w').write('loaded')", 10
            db "finally:", 10
            db "    gdb.execute('quit 7')", 10, 0

        """

    @Test func theCrashReportRunsNoScriptOfTheProgram() throws {
        let work = try Fixture.visibleDirectory()
        defer { Files.removeTree(work) }
        let tools = work + "/tools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        let gdb = try #require(Fixture.locator.find(Fixture.nativeHost ? "gdb" : "gdb-multiarch"))
        try Fixture.write("#!/bin/sh\nexec \(gdb) -iex 'set auto-load safe-path /' \"$@\"\n", to: tools + "/gdb")
        chmod(tools + "/gdb", 0o755)
        try FileManager.default.copyItem(atPath: tools + "/gdb", toPath: tools + "/gdb-multiarch")
        let marker = work + "/loaded"
        try Fixture.write(Self.scripted.replacingOccurrences(of: "{marker}", with: marker), to: work + "/scripted.asm")
        try Fixture.write("[case default]\nstatus: signal SIGSEGV\n", to: work + "/scripted.expect")
        let report = work + "/r.json"
        let run = try Fixture.asmrun(
            ["test", work + "/scripted.asm", "--runner", HostileTests.runnersForTests, "-v", "--no-cache", "--json", report],
            environment: ["PATH": tools + ":" + (Fixture.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(run.status == .exited(0), "\(run.stdout)\(run.stderr)")
        let results = try Fixture.json(report)["results"] as? [[String: Any]] ?? []
        #expect(results.count == HostileTests.runnersForTests.split(separator: ",").count)
        for result in results {
            let crash = result["crash"] as? [String: Any]
            #expect(crash?["source_line"] as? String == "    mov byte [0], 1", "the debugger ran to its report: \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "the program's script ran in the debugger")
    }
}
