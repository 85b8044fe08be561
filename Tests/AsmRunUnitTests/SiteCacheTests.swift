import Glibc
import Support
import Testing

@testable import Run

/// The ABI checks' sites read once a build (`SiteCache`, `AbiProbe.key`): a failed read is not
/// kept, and a case whose debug build was there does not get the sites read without it.
struct SiteCacheTests {
    private let site = AbiSites.Site(address: 0x401000, kind: .entry, location: nil, name: "main")

    @Test func aFailedReadIsReadAgain() {
        let cache = SiteCache()
        #expect(cache.sites(for: ["build"]) { nil } == nil)
        #expect(cache.sites(for: ["build"]) { [site] } == [site])
        #expect(cache.sites(for: ["build"]) { [] } == [site], "a read that worked is kept")
    }

    @Test func theKeyTellsWhetherADebugBuildWasRead() throws {
        let made = try TemporaryDirectory(prefix: "sites")
        defer { made.remove() }
        for name in ["prog", "prog.debug"] { try AtomicFile.write(Array("x".utf8), to: made.path + "/" + name) }
        var program = CrashProbe.Program(executable: made.path + "/prog", format: .elf64, sources: ["a.asm"], warnings: "")
        let bare = try #require(AbiProbe.key(of: program, sources: ["a.asm"]))
        program.symbols = made.path + "/prog.debug"
        let debug = try #require(AbiProbe.key(of: program, sources: ["a.asm"]))
        #expect(bare != debug)
        // The executable built again (another inode): another key.
        try AtomicFile.write(Array("y".utf8), to: made.path + "/prog")
        #expect(AbiProbe.key(of: program, sources: ["a.asm"]) != debug)
        // The executable gone: no key, nothing kept.
        unlink(made.path + "/prog")
        #expect(AbiProbe.key(of: program, sources: ["a.asm"]) == nil)
    }
}
