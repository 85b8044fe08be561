import Foundation
import Glibc
import Support
import Testing

/// The cache touches only a folder asmrun tagged as its own, and in it only names it made.
@Suite(.tags(.integration), .needsTools)
struct CacheFolderTests {
    private let hello = Fixture.corpus + "/hello.asm"

    /// A relative `--cache-dir` names the same cache from the case's folder, where a hit's entry
    /// runs: the warm run passes like the cold one (it used to fail every case).
    @Test func aRelativeCacheFolderServesWarmRuns() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        for name in ["hello", "echo"] {
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/\(name).asm", toPath: directory + "/\(name).asm")
            try FileManager.default.copyItem(atPath: Fixture.corpus + "/\(name).expect", toPath: directory + "/\(name).expect")
        }
        for round in ["cold", "warm"] {
            let result = try Fixture.asmrun(["test", ".", "--cache-dir", "cache"], in: directory)
            #expect(result.status == .exited(0), "\(round): \(result.stdout)")
        }
        let run = try Fixture.asmrun(["hello.asm", "--cache-dir", "cache"], in: directory)
        #expect(run.stdout == "Hello, World!\n" && run.status == .exited(0))
    }

    @Test func aFolderThatIsNotACacheIsNeverTouched() throws {
        // What `--cache-dir ~` would name: a home with a tmp and an objects folder of its own.
        let home = try Fixture.temporaryDirectory()
        defer { Files.removeTree(home) }
        try Fixture.write("precious\n", to: home + "/tmp/keep.txt")
        try Fixture.write("mine\n", to: home + "/objects/notes.txt")
        let refusal =
            "asmrun: \(home): is not an asmrun cache (it holds other files and no asmrun CACHEDIR.TAG), so asmrun leaves it alone; "
            + "name a new or empty folder with --cache-dir, such as \(home)/asmrun-cache\n"
        for arguments in [["cache", "clean"], ["cache", "info"]] {
            let result = try Fixture.asmrun(arguments + ["--cache-dir", home])
            #expect(result.status == .exited(2), "\(arguments)")
            #expect(result.stderr == refusal)
        }
        let run = try Fixture.asmrun([hello, "--cache-dir", home])
        #expect(run.status == .exited(125) && run.stderr == refusal)
        let test = try Fixture.asmrun(["test", hello, "--cache-dir", home])
        #expect(test.status == .exited(2) && test.stderr == refusal)
        #expect(try Files.list(home).sorted() == ["objects", "tmp"])
        #expect(try String(contentsOfFile: home + "/tmp/keep.txt", encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: home + "/objects/notes.txt", encoding: .utf8) == "mine\n")
    }

    @Test func infoAndCleanCountAndRemoveOnlyAsmrunsNames() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        let cache = base + "/cache"
        _ = try Fixture.asmrun([hello, "--cache-dir", cache])
        let tag = try String(contentsOfFile: cache + "/CACHEDIR.TAG", encoding: .utf8)
        #expect(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n"))
        try Fixture.write("the user's\n", to: cache + "/notes.txt")
        try Fixture.write("the user's\n", to: cache + "/objects/notes.txt")
        let info = try Fixture.asmrun(["cache", "info", "--cache-dir", cache])
        #expect(info.stdout.hasPrefix("cache: \(cache)\nentries: 1\n"), "notes.txt is not an entry")
        let clean = try Fixture.asmrun(["cache", "clean", "--cache-dir", cache])
        #expect(clean.stdout == "removed 1 entries from \(cache)\n")
        #expect(try Files.list(cache + "/objects") == ["notes.txt"])
        #expect(try Files.list(cache).sorted() == ["CACHEDIR.TAG", "notes.txt", "objects", "tmp"])
        let missing = try Fixture.asmrun(["cache", "info", "--cache-dir", base + "/none"])
        #expect(missing.status == .exited(0) && missing.stdout.contains("(not created yet)\nentries: 0\n"))
        #expect(!Files.exists(base + "/none"), "info creates nothing")
    }

    @Test func aCacheFromBeforeTheTagIsAdopted() throws {
        let cache = try Fixture.temporaryDirectory()
        defer { Files.removeTree(cache) }
        _ = try Fixture.asmrun([hello, "--cache-dir", cache])
        #expect(unlink(cache + "/CACHEDIR.TAG") == 0)
        let info = try Fixture.asmrun(["cache", "info", "--cache-dir", cache])
        #expect(info.status == .exited(0) && info.stdout.contains("entries: 1\n"))
        #expect(!Files.exists(cache + "/CACHEDIR.TAG"), "info changes nothing")
        #expect(try Fixture.asmrun([hello, "--cache-dir", cache]).status == .exited(0))
        #expect(Files.exists(cache + "/CACHEDIR.TAG"), "using it tags it")
    }

    /// Two runs that make the same new cache at once: one finds the other's tag being written
    /// (its temporary, `.CACHEDIR.TAG.asmrun-XXXXXX`) and no tag yet. That folder is asmrun's,
    /// not someone else's (it was refused, and `asmrun test` exited 2).
    @Test func aTagBeingWrittenByAnotherRunIsNoForeignFile() throws {
        let cache = try Fixture.temporaryDirectory()
        defer { Files.removeTree(cache) }
        try Fixture.write("", to: cache + "/.CACHEDIR.TAG.asmrun-Ab12Cd")
        let run = try Fixture.asmrun([hello, "--cache-dir", cache])
        #expect(run.status == .exited(0) && run.stdout == "Hello, World!\n", "\(run.stderr)")
    }

    /// Runs that make the same new cache at once: one makes the folder and writes the tag in
    /// place, the others may read it half-written, and every one of them still runs from it.
    @Test func runsMakingOneNewCacheAtOnceAllUseIt() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        for round in 0..<4 {
            let cache = base + "/\(round)/cache"
            // Started together, not one after another, so they meet in the folder.
            let runs = try (0..<6).map { _ in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Fixture.binary)
                process.arguments = [hello, "--cache-dir", cache]
                process.environment = Fixture.environment
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                try process.run()
                return (process, output)
            }
            for (process, output) in runs {
                let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0 && said == "Hello, World!\n", "\(said)")
            }
            let tag = try String(contentsOfFile: cache + "/CACHEDIR.TAG", encoding: .utf8)
            #expect(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55\n") && tag.contains("asmrun"))
            #expect(try Files.list(cache + "/objects").count == 1)
        }
    }

    /// The tag is written without fsync: a crash can leave it empty or cut short, and such a
    /// tag in a folder of asmrun's own names is asmrun's; another file of that name is not.
    @Test func aTagCutShortIsTakenBackAndAForeignOneRefused() throws {
        let cache = try Fixture.temporaryDirectory()
        defer { Files.removeTree(cache) }
        _ = try Fixture.asmrun([hello, "--cache-dir", cache])
        let tag = try Files.read(cache + "/CACHEDIR.TAG")
        for cut in [[], Array(tag.prefix(20))] {
            try Data(cut).write(to: URL(fileURLWithPath: cache + "/CACHEDIR.TAG"))
            let run = try Fixture.asmrun([hello, "--cache-dir", cache])
            #expect(run.status == .exited(0) && run.stdout == "Hello, World!\n", "\(run.stderr)")
            #expect(try Files.read(cache + "/CACHEDIR.TAG") == tag, "tagged again")
        }
        try Fixture.write("Signature: 8a477f597d28d172789f06886806bc55\n# made by another tool\n", to: cache + "/CACHEDIR.TAG")
        let refused = try Fixture.asmrun([hello, "--cache-dir", cache])
        #expect(refused.status == .exited(125) && refused.stderr.contains("is not an asmrun cache"), "\(refused.stderr)")
    }

    @Test func stagingFilesOfADeadAsmrunAreRemovedAndALiveOnesKept() throws {
        let cache = try Fixture.temporaryDirectory()
        defer { Files.removeTree(cache) }
        _ = try Fixture.asmrun([hello, "--cache-dir", cache])
        let key = String(repeating: "a", count: 64)
        // A pid that cannot exist (above pid_max) stands for a dead asmrun; ours is alive.
        let dead = cache + "/tmp/\(key).2147483000.1"
        let live = cache + "/tmp/\(key).\(getpid()).1"
        try Fixture.write("partial", to: dead)
        try Fixture.write("partial", to: live)
        _ = try Fixture.asmrun([hello, "--cache-dir", cache])
        #expect(!Files.exists(dead))
        #expect(Files.exists(live))
    }
}
