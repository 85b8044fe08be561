import Foundation
import Glibc
import Testing

@testable import Build
@testable import Sandbox
@testable import Suite
@testable import Support

/// The builder's error handling, with a scripted launcher instead of nasm and the linker.
@Suite struct BuilderTests {
    private let plan = BuildPlan(
        assemble: Command("nasm", ["p.asm"]), link: Command("cc", ["-no-pie"]), objectPath: "/o/p.o",
        executablePath: "/o/p", format: .elf64, linkMode: .cc)

    private func failing(_ tool: String, _ message: String) -> (match: (Command) -> Bool, result: ProcessResult) {
        ({ $0.executable == tool }, ProcessResult(termination: .exited(1), stderr: Array(message.utf8)))
    }

    private let ok = { (tool: String) -> (match: (Command) -> Bool, result: ProcessResult) in
        ({ $0.executable == tool }, ProcessResult(termination: .exited(0)))
    }

    @Test func pieRelocationErrorGetsAHint() throws {
        let message =
            "/usr/bin/ld: p.o: relocation R_X86_64_32S against `.data' can not be used when making a PIE object; recompile with -fPIE\n"
        let launcher = ScriptedLauncher([ok("nasm"), failing("cc", message)])
        let failure = try #require(throws: BuildFailure.self) { try Builder(launcher: launcher).build(plan, source: "p.asm") }
        #expect(failure.stage == .link)
        #expect(failure.rendered.hasPrefix("/usr/bin/ld: p.o: relocation"))
        #expect(failure.rendered.contains("asmrun: p.asm: link failed; absolute addresses cannot go into a PIE: write `default rel`"))
        #expect(launcher.calls.map(\.executable) == ["nasm", "cc"])
    }

    /// Seen in a fresh Debian with gcc installed without its recommends: libc6-dev is missing.
    @Test func missingCrt1NamesLibc6Dev() throws {
        let message = "/usr/bin/ld: cannot find crt1.o: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
        let launcher = ScriptedLauncher([ok("nasm"), failing("cc", message)])
        let failure = try #require(throws: BuildFailure.self) { try Builder(launcher: launcher).build(plan, source: "p.asm") }
        #expect(
            failure.rendered.hasSuffix(
                "asmrun: p.asm: link failed; the C library's development files are missing: `apt-get install libc6-dev` (on ARM: libc6-dev-amd64-cross)"
            ))
    }

    @Test func assemblyFailureStopsBeforeTheLinker() throws {
        let launcher = ScriptedLauncher([failing("nasm", "p.asm:3: error: instruction not supported in 64-bit mode\n")])
        let failure = try #require(throws: BuildFailure.self) { try Builder(launcher: launcher).build(plan, source: "p.asm") }
        #expect(failure.stage == .assemble)
        #expect(failure.errorLocation == FileLocation("p.asm", line: 3))
        #expect(failure.hint?.contains("format elf32") == true)
        #expect(launcher.calls.count == 1, "the linker never ran")
    }
}

/// Slowest-first scheduling from the previous run's timings.
@Suite struct TimingsTests {
    @Test func slowestKnownProgramsRunFirstAndNewOnesBeforeKnownFastOnes() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        let programs = ["/s/fast.asm", "/s/new.asm", "/s/slow.asm", "/s/middle.asm"].map(TestProgram.init(path:))
        var timings = Timings(cacheRoot: root)
        #expect(timings.order(programs) == [0, 1, 2, 3], "no history: discovery order")
        timings.save(["/s/fast.asm": 0.001, "/s/slow.asm": 2.5, "/s/middle.asm": 0.3])
        let reloaded = Timings(cacheRoot: root)
        #expect(reloaded.order(programs) == [1, 2, 3, 0])
    }
}

/// Least-recently-used eviction of the build cache.
@Suite struct CacheMaintenanceTests {
    @Test func trimEvictsTheLeastRecentlyUsedFirst() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        try FileManager.default.createDirectory(atPath: root + "/objects", withIntermediateDirectories: true)
        for (index, name) in ["old", "middle", "new"].enumerated() {
            let path = root + "/objects/" + name
            try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: path))
            var times = [timeval(tv_sec: 1_000_000 + index * 100, tv_usec: 0), timeval(tv_sec: 1_000_000 + index * 100, tv_usec: 0)]
            #expect(utimes(path, &times) == 0)
        }
        let maintenance = CacheMaintenance(root: root)
        maintenance.trim(toBytes: 2500)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/objects").sorted() == ["middle", "new"])
        maintenance.trim(toBytes: 1000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/objects") == ["new"])
        maintenance.clean()
        #expect(maintenance.entries().isEmpty)
    }
}
