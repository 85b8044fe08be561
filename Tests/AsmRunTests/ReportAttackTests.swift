import Foundation
import Glibc
import Processes
import Support
import Testing

/// What a program can make of the reports about it: the debugger that reads it for a crash
/// report, the lines the report quotes, the text the log shows.
@Suite(.tags(.integration), .needsTools, .needsDebugTools)
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

    /// `%line 1+0 FILE` makes the debug build say its last instruction is line 1 of FILE: the
    /// crash report of a program that runs past it quoted that line of any file asmrun may read.
    @Test func theCrashReportQuotesOnlyTheProgramsOwnLines() throws {
        let work = try Fixture.visibleDirectory()
        defer { Files.removeTree(work) }
        let secret = work + "/secret"
        try Fixture.write("TOP SECRET LINE\n", to: secret)
        chmod(secret, 0o600)
        try Fixture.write("global _start\n_start:\n    nop\n%line 1+0 \(secret)\n    nop\n", to: work + "/runs_on.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: work + "/runs_on.expect")
        let report = work + "/r.json"
        let run = try Fixture.asmrun(
            ["test", work + "/runs_on.asm", "--runner", HostileTests.runnersForTests, "--no-cache", "--json", report])
        #expect(run.status == .exited(1))
        #expect(!(run.stdout + run.stderr).contains("TOP SECRET"), "\(run.stdout)")
        #expect(!(try String(contentsOfFile: report, encoding: .utf8)).contains("TOP SECRET"))
        let results = try Fixture.json(report)["results"] as? [[String: Any]] ?? []
        for result in results {
            #expect(result["crash"] != nil, "a report without the quote: \(result)")
        }
    }

    /// A `.expect` file, a `.files` folder or a file in it that is a symbolic link out of the
    /// program's folder: its target never reaches the log, the reports or the case, also when
    /// the program is in the working directory (`asmrun test .`, whose folder is named "").
    @Test(arguments: ["expect", "files folder", "files entry"], [false, true])
    func linksOutOfTheProgramsFolderAreRefused(link: String, fromInside: Bool) throws {
        let work = try Fixture.visibleDirectory()
        defer { Files.removeTree(work) }
        let secret = work + "/elsewhere/secret"
        try Fixture.write("TOP SECRET LINE\n", to: secret)
        chmod(secret, 0o600)
        let suite = work + "/suite"
        try FileManager.default.createDirectory(atPath: suite, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/copy_file.asm", toPath: suite + "/copy_file.asm")
        // On main the case copied the secret and upper-cased it into output.txt, whose diff showed it.
        try Fixture.write("[case default]\nfile output.txt:\n| nothing\nstatus: exit 0\n", to: suite + "/copy_file.expect")
        try FileManager.default.createDirectory(atPath: suite + "/copy_file.files", withIntermediateDirectories: true)
        switch link {
        case "expect":
            try FileManager.default.removeItem(atPath: suite + "/copy_file.expect")
            symlink(secret, suite + "/copy_file.expect")
        case "files folder":
            try FileManager.default.removeItem(atPath: suite + "/copy_file.files")
            symlink(work + "/elsewhere", suite + "/copy_file.files")
            try Fixture.write("TOP SECRET LINE\n", to: work + "/elsewhere/input.txt")
        default:
            symlink(secret, suite + "/copy_file.files/input.txt")
        }
        // A link that stays in the folder is the program's own business.
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/hello.asm", toPath: suite + "/hello.asm")
        try FileManager.default.copyItem(atPath: Fixture.corpus + "/hello.expect", toPath: suite + "/hello.txt")
        symlink("hello.txt", suite + "/hello.expect")
        let report = work + "/r.json"
        let junit = work + "/r.xml"
        let run = try Fixture.asmrun(
            ["test", fromInside ? "." : suite, "--runner", Fixture.runner, "--no-cache", "--json", report, "--junit", junit, "-v"],
            in: suite)
        #expect(run.status == .exited(1))
        let all =
            run.stdout + run.stderr + (try String(contentsOfFile: report, encoding: .utf8))
            + (try String(contentsOfFile: junit, encoding: .utf8))
        #expect(!all.contains("TOP SECRET"), "\(all)")
        #expect(run.stdout.contains("is a symbolic link out of the program's folder"), "\(run.stdout)")
        #expect(run.stdout.contains("PASS  \(fromInside ? "" : suite + "/")hello.asm:default"), "\(run.stdout)")
    }

    /// Lines a program and its build put into the log: nasm's `%warning` and `%error` with `\n`
    /// escapes, and output lines the diff shows as context. Under GitHub Actions none may be a
    /// workflow command the runner obeys (`::error`, `::stop-commands::TOKEN` after leading
    /// blanks, the older `##[error]` anywhere in a line), and none may start like a verdict.
    @Test func programTextStartsNoCommandAndNoVerdict() throws {
        let work = try Fixture.visibleDirectory()
        defer { Files.removeTree(work) }
        let forged =
            "forged\\n::stop-commands::pwned\\n::error file=x.asm,line=1::forged\\n##[error]forged\\nPASS  forged.asm:default [native] (1 ms)"
        let exit = "    mov eax, 60\n    xor edi, edi\n    syscall\n"
        try Fixture.write("%warning `\(forged)`\nglobal _start\n_start:\n\(exit)", to: work + "/warns.asm")
        try Fixture.write("[case default]\nstdout:\n| never printed\n", to: work + "/warns.expect")
        try Fixture.write("%error `\(forged)`\n", to: work + "/fails.asm")
        try Fixture.write("[case default]\nstatus: exit 0\n", to: work + "/fails.expect")
        let lines = ["::stop-commands::pwned", "  ::error::forged", "##[error]forged", "PASS  forged.asm:default [native] (1 ms)"]
        let text = (lines + ["last"]).joined(separator: "\n")
        try Fixture.write(
            "global _start\n_start:\n    mov eax, 1\n    mov edi, 1\n    lea rsi, [rel text]\n    mov edx, \(text.utf8.count + 1)\n    syscall\n"
                + exit + "section .data\ntext: db `\(text.replacingOccurrences(of: "\n", with: "\\n"))`, 10\n",
            to: work + "/prints.asm")
        try Fixture.write(
            "[case default]\nstdout:\n" + (lines + ["not last"]).map { "| \($0)\n" }.joined() + "status: exit 0\n",
            to: work + "/prints.expect")
        let run = try Fixture.asmrun(
            ["test", work, "--runner", Fixture.runner, "--no-cache"],
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": work + "/summary.md"])
        #expect(run.status == .exited(1))
        let log = run.stdout + run.stderr
        let obeyed = Self.workflowCommands(in: log)
        // asmrun's own annotations, one per failure and one more on the source of each program
        // that ran and failed, and nothing else (their data quotes the forged lines, as data).
        let own = obeyed.filter { $0.hasPrefix("::error file=\(work)/") }
        #expect(own.count == 5, "asmrun's own annotations still count: \(obeyed)\n\(log)")
        #expect(own.count == obeyed.count, "commands the runner would obey:\n\(obeyed.joined(separator: "\n"))\n\(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("PASS  forged") }, "\(log)")
    }

    /// The workflow commands GitHub's runner obeys in `log` (actions/runner ActionCommand:
    /// `::name ...::data` after leading blanks, `##[name]` anywhere in a line), none while
    /// `::stop-commands::TOKEN` holds until `::TOKEN::`.
    static func workflowCommands(in log: String) -> [String] {
        var commands: [String] = []
        var stopped: String?
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if let token = stopped {
                if trimmed == "::\(token)::" { stopped = nil }
                continue
            }
            if trimmed.hasPrefix("::"), let end = trimmed.dropFirst(2).range(of: "::") {
                let name = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<end.lowerBound].prefix { $0 != " " }
                if name == "stop-commands" {
                    stopped = String(trimmed[end.upperBound...])
                    continue
                }
                commands.append(String(trimmed))
            } else if line.contains("##[") {
                commands.append(String(line))
            }
        }
        return commands
    }
}
