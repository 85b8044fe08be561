import Foundation
import Glibc
import Processes
import Support
import Testing

/// Root's cases run as nobody (`CaseIdentity`): a file only root may read is closed to them,
/// while everything a case needs still works from a home only root may enter (as /root is):
/// the cache in it, asmrun's scratch folder in it, files put into the case's folder (which the
/// case may change), and the crash report, whose debugger reads the debug build from the cache.
@Suite(.tags(.integration), .needsTools, .needsIsolatingRoot)
struct IdentityTests {
    /// Appends to the file it was given and writes a new one in the folder it was given.
    static let append = """
        global _start
        _start:
            mov eax, 2
            lea rdi, [rel given]
            mov esi, 0x401          ; O_WRONLY | O_APPEND
            syscall
            test eax, eax
            js fail
            mov edi, eax
            mov eax, 1
            lea rsi, [rel line]
            mov edx, 6
            syscall
            mov eax, 2
            lea rdi, [rel made]
            mov esi, 0x241          ; O_WRONLY | O_CREAT | O_TRUNC
            mov edx, 0o644
            syscall
            test eax, eax
            js fail
            mov eax, 60
            xor edi, edi
            syscall
        fail:
            mov eax, 60
            mov edi, 1
            syscall
        section .data
        given: db "input.txt", 0
        made: db "sub/new.txt", 0
        line: db "added", 10

        """

    @Test func casesOfRootRunAsNobodyFromAPrivateHome() throws {
        // Outside /tmp and /dev/shm, which cases see as fresh folders of their own.
        let home = try Fixture.visibleDirectory()
        defer { Files.removeTree(home) }
        chmod(home, 0o700)
        let suite = home + "/suite"
        try FileManager.default.createDirectory(atPath: home + "/tmp", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: suite, withIntermediateDirectories: true)
        for name in ["writes_files.asm", "attack_private.asm", "attack.inc", "sys.inc"] {
            try FileManager.default.copyItem(atPath: HostileTests.hostile + "/" + name, toPath: suite + "/" + name)
        }
        let secret = home + "/secret"
        try Fixture.write("root's secret\n", to: secret)
        chmod(secret, 0o600)
        try Fixture.write(
            "[case default]\nargs: \(home)/escaped\nstdout:\n| cwd: ok\n| outside: blocked\nstatus: exit 0\n",
            to: suite + "/writes_files.expect")
        try Fixture.write(
            "[case default]\nargs: \(secret)\nstdout:\n| private: refused\nstatus: exit 0\n", to: suite + "/attack_private.expect")
        try Fixture.write(
            [
                "append.asm": Self.append, "append.files/input.txt": "given\n", "append.files/sub/kept.txt": "kept\n",
                "append.expect": "[case default]\nfile input.txt:\n| given\n| added\nfile sub/new.txt:\nstatus: exit 0\n",
                "crash.asm": "global _start\n_start:\n    mov byte [0], 1\n", "crash.expect": "[case default]\nstatus: signal SIGSEGV\n",
            ], in: suite)
        // Cold, then warm: the second run's cases run the cache's entries in the home.
        for round in ["cold", "warm"] {
            let report = home + "/\(round).json"
            let run = try Fixture.asmrun(
                ["test", suite, "--runner", HostileTests.runnersForTests, "-v", "--json", report],
                environment: ["HOME": home, "TMPDIR": home + "/tmp", "XDG_CACHE_HOME": ""])
            #expect(run.status == .exited(0), "\(round): \(run.stdout)\(run.stderr)")
            let results = try Fixture.json(report)["results"] as? [[String: Any]] ?? []
            #expect(results.count == 4 * HostileTests.runnersForTests.split(separator: ",").count)
            for result in results where (result["program"] as? String)?.hasSuffix("/crash.asm") == true {
                let crash = result["crash"] as? [String: Any]
                #expect(crash?["source_line"] as? String == "    mov byte [0], 1", "\(round): \(result)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/.cache/asmrun/objects").count > 0, "the cache is in the home")
        #expect(!FileManager.default.fileExists(atPath: home + "/escaped"))
    }
}
