import AsmRunTestSupport
import Foundation
import Glibc
import Processes
import Support
import Testing

@testable import Build
@testable import Suite

/// The builder's error handling and hints, with a scripted launcher instead of nasm and the linker.
@Suite struct BuilderTests {
    private func failing(_ tool: String, _ message: String) -> (match: (Command) -> Bool, result: ProcessResult) {
        ({ $0.executable == tool }, ProcessResult(termination: .exited(1), stderr: Array(message.utf8)))
    }

    @Test func pieRelocationErrorGetsAHint() throws {
        let message =
            "/usr/bin/ld: p.o: relocation R_X86_64_32S against `.data' can not be used when making a PIE object; recompile with -fPIE\n"
        let launcher = ScriptedLauncher([failing("cc", message)])
        let failure = try #require(throws: BuildFailure.self) {
            try Builder(launcher: launcher).run(Command("cc", ["-pie"]), stage: .link, source: "p.asm") {
                BuildFailure.linkHint($0, driver: .cDriver, objects: [])
            }
        }
        #expect(failure.rendered.hasPrefix("/usr/bin/ld: p.o: relocation"))
        #expect(failure.rendered.contains("asmrun: p.asm: link failed; absolute addresses cannot go into a PIE: write `default rel`"))
    }

    /// nasm killed by the build's CPU limit (soft and hard equal: SIGKILL, not SIGXCPU) got no
    /// hint; the wall-clock limit's did. A SIGKILL sooner than the CPU limit is something else.
    @Test func aToolKilledByTheCPULimitGetsTheLimitsHint() throws {
        let cpu = Double(Builder.limits.cpuSeconds!)
        for (duration, hinted) in [(cpu + 0.2, true), (cpu - 0.1, true), (2.0, false)] {
            let killed = ProcessResult(termination: .signaled(SIGKILL), duration: duration)
            let failure = try #require(throws: BuildFailure.self) {
                try Builder(launcher: ScriptedLauncher([({ $0.executable == "/usr/bin/nasm" }, killed)]))
                    .run(Command("/usr/bin/nasm"), stage: .assemble, source: "p.asm") { _ in nil }
            }
            #expect(failure.rendered.contains("/usr/bin/nasm ended with signal SIGKILL"), "\(failure.rendered)")
            #expect(failure.rendered.contains("ran past the build's limit") == hinted, "\(duration): \(failure.rendered)")
        }
    }

    /// Seen in a fresh Debian with gcc installed without its recommends: libc6-dev is missing.
    @Test func missingCrt1NamesLibc6Dev() throws {
        let message = "/usr/bin/ld: cannot find crt1.o: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
        let failure = try #require(throws: BuildFailure.self) {
            try Builder(launcher: ScriptedLauncher([failing("cc", message)])).run(Command("cc"), stage: .link, source: "p.asm") {
                BuildFailure.linkHint($0, driver: .cDriver, objects: [])
            }
        }
        #expect(
            failure.rendered.hasSuffix(
                "asmrun: p.asm: link failed; the C library's development files are missing: `apt-get install libc6-dev` (on ARM: libc6-dev-amd64-cross; 32-bit: gcc-multilib)"
            ))
    }

    @Test func aMissingSymbolNamesWhoNeedsIt() throws {
        let output = "/usr/bin/ld: /tmp/1-0-main.o: in function `_start':\nmain.asm:(.text+0x5): undefined reference to `triple'\n"
        let objects = [
            ("main.asm", ElfSymbols(format: .elf64, defined: ["_start"], undefined: ["triple"])),
            ("util.asm", ElfSymbols(format: .elf64, defined: ["double"])),
        ]
        let hint = try #require(BuildFailure.linkHint(output, driver: .linker, objects: objects))
        #expect(hint.hasPrefix("`triple` is used by main.asm but no source defines it"))
        #expect(hint.contains("asmrun main.asm util.asm FILE"))
    }

    @Test func assemblyFailureSaysWhatNasmSaid() throws {
        let launcher = ScriptedLauncher([
            failing("nasm", "p.asm:3: warning: label alone\np.asm:4: error: instruction not supported in 64-bit mode\n")
        ])
        let failure = try #require(throws: BuildFailure.self) {
            try Builder(launcher: launcher).run(Command("nasm"), stage: .assemble, source: "p.asm", hint: BuildFailure.assemblyHint)
        }
        #expect(failure.errorLocation == FileLocation("p.asm", line: 4), "the error's line, not the warning's")
        #expect(failure.hint?.contains("format elf32") == true)
        #expect(failure.rejects64BitCode)
    }

    @Test func warningsOfASuccessfulStepAreReturned() throws {
        let launcher = ScriptedLauncher([
            (
                { $0.executable == "nasm" },
                ProcessResult(termination: .exited(0), stderr: Array("p.asm:2: warning: label alone on a line\n".utf8))
            )
        ])
        let printed = try Builder(launcher: launcher).run(Command("nasm"), stage: .assemble, source: "p.asm") { _ in nil }
        #expect(printed == "p.asm:2: warning: label alone on a line\n")
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

    @Test func theTimingsFileStaysBounded() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        var timings = Timings(cacheRoot: root, now: 1_000_000)
        timings.save(["/s/old.asm": 1], now: 1_000_000)
        timings.save(["/s/new.asm": 2], now: 1_000_000 + Timings.maxAge + 1)
        #expect(Timings(cacheRoot: root).seconds.keys.sorted() == ["/s/new.asm"], "not seen for maxAge: dropped")
        var many = Timings(cacheRoot: root, now: 2_000_000)
        many.save(Dictionary(uniqueKeysWithValues: (0..<(Timings.maxEntries + 50)).map { ("/s/p\($0).asm", 0.1) }), now: 2_000_000)
        #expect(Timings(cacheRoot: root).seconds.count == Timings.maxEntries)
    }

    @Test func aSaveWritesThisRunsProgramsFirstAndCopiesTheOthers() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        let old = "1.5000\t900\t/s/a.asm\n0.2500\t800\t/s/b.asm\n2.0000\t/s/legacy.asm\n"
        try Fixture.write(old, to: root + "/timings")
        var timings = Timings(cacheRoot: root, now: 1000)
        let programs = ["/s/b.asm", "/s/a.asm", "/s/new.asm"].map(TestProgram.init(path:))
        #expect(timings.order(programs) == [2, 1, 0], "new first, then the slowest known")
        timings.save(["/s/b.asm": 0.75], now: 1000)
        let saved = try String(contentsOfFile: root + "/timings", encoding: .utf8)
        #expect(saved == "0.7500\t1000\t/s/b.asm\n1.5000\t900\t/s/a.asm\n2.0000\t1000\t/s/legacy.asm\n")
        timings.save(["/s/new.asm": 3], now: 1001)
        let again = try String(contentsOfFile: root + "/timings", encoding: .utf8)
        #expect(again == "3.0000\t1001\t/s/new.asm\n" + saved, "a second save starts from what the first wrote")
        #expect(timings.order(programs) == [2, 1, 0] && timings.seconds["/s/b.asm"] == 0.75)
    }

    @Test func durationsRoundTripAndBadLinesAreSkipped() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        #expect(Timings.format(0.00004) == "0.0000" && Timings.format(12.34567) == "12.3457" && Timings.format(3) == "3.0000")
        #expect(Timings.decimal(Array("0.0123".utf8)[...]) == 0.0123 && Timings.decimal(Array("7".utf8)[...]) == 7)
        #expect(Timings.decimal(Array("1.2.3".utf8)[...]) == nil && Timings.decimal(Array("-1".utf8)[...]) == nil)
        let lines = "0.5000\t1000\t/s/a.asm\n2.2500\t/s/old-format.asm\nnan\t5\t/s/bad.asm\n\t\t\n1e400\t1\t/s/huge.asm\n"
        try Fixture.write(lines, to: root + "/timings")
        let loaded = Timings(cacheRoot: root, now: 2000)
        #expect(loaded.seconds == ["/s/a.asm": 0.5, "/s/old-format.asm": 2.25])
    }
}

/// Least-recently-used eviction of the build cache.
@Suite struct CacheMaintenanceTests {
    @Test func trimEvictsTheLeastRecentlyUsedFirst() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        try FileManager.default.createDirectory(atPath: root + "/objects", withIntermediateDirectories: true)
        // Entries are named by their key (64 hex digits): one letter repeated stands for each.
        let names = ["old": "a", "middle": "b", "new": "c"].mapValues { String(repeating: $0, count: 64) }
        for (index, name) in ["old", "middle", "new"].enumerated() {
            let path = root + "/objects/" + names[name]!
            try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: path))
            var times = [timeval(tv_sec: 1_000_000 + index * 100, tv_usec: 0), timeval(tv_sec: 1_000_000 + index * 100, tv_usec: 0)]
            #expect(utimes(path, &times) == 0)
        }
        let maintenance = CacheMaintenance(root: root)
        maintenance.trim(toBytes: 2500)
        #expect(try Files.list(root + "/objects").sorted() == [names["middle"]!, names["new"]!])
        maintenance.trim(toBytes: 1000)
        #expect(try Files.list(root + "/objects") == [names["new"]!])
        maintenance.clean()
        #expect(maintenance.entries().isEmpty)
    }

    /// A hit moves an entry's access time (the cache's use order) when it was last used an hour
    /// ago or more, and leaves it otherwise; the modification time, which says the entry is
    /// intact, stays. (Called with the access time its read saw, so the file system's own
    /// `relatime` updates do not enter into it.)
    @Test func aHitMarksAnEntryUsedOnceAnHour() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        let entry = CacheEntry(path: root + "/entry")
        #expect(entry.install([1, 2, 3], warnings: "", staging: root + "/staging", executable: false))
        var before = stat()
        #expect(stat(entry.path, &before) == 0)
        func setAccessed(_ seconds: Int) -> timespec {
            // UTIME_OMIT (from <sys/stat.h>) for the modification time.
            var times = [timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
            _ = utimensat(AT_FDCWD, entry.path, &times, 0)
            return times[0]
        }
        func accessed() -> Int {
            var info = stat()
            _ = stat(entry.path, &info)
            #expect(info.st_mtim.tv_sec == before.st_mtim.tv_sec && info.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
            return Int(info.st_atim.tv_sec)
        }
        entry.touch(accessed: setAccessed(600))
        #expect(accessed() <= time(nil) - 590, "used ten minutes ago: left")
        entry.touch(accessed: setAccessed(7200))
        #expect(accessed() >= time(nil) - 60, "unused for two hours: marked used")
    }

    /// The size ledger: a run that stored entries lists the cache only when the ledger says it
    /// may be past its limit (or there is no ledger), and then the ledger is the exact total.
    @Test func theLedgerSaysWhenToListTheCache() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        try FileManager.default.createDirectory(atPath: root + "/objects", withIntermediateDirectories: true)
        for letter in ["a", "b", "c"] {
            try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: root + "/objects/" + String(repeating: letter, count: 64)))
        }
        let maintenance = CacheMaintenance(root: root)
        func ledger() throws -> String { String(decoding: try Files.read(root + "/size"), as: UTF8.self) }
        maintenance.account(stored: 1000, limit: 10_000)
        #expect(try ledger() == "3000\n", "no ledger: the entries are counted")
        maintenance.account(stored: 500, limit: 10_000)
        #expect(try ledger() == "3500\n", "under the limit: added, nothing listed")
        try Fixture.write("100\n", to: root + "/size")
        maintenance.account(stored: 100, limit: 2500)
        #expect(try ledger() == "200\n" && maintenance.entries().count == 3, "a ledger behind the truth is believed")
        maintenance.account(stored: 2400, limit: 2500)
        #expect(try ledger() == "2000\n" && maintenance.entries().count == 2, "past the limit: counted and trimmed")
        try Fixture.write("garbage\n", to: root + "/size")
        maintenance.account(stored: 1, limit: 1000)
        #expect(try ledger() == "1000\n" && maintenance.entries().count == 1)
        maintenance.clean()
        #expect(!Files.exists(root + "/size"))
    }
}
