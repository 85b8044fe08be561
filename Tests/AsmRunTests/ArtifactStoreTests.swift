import Foundation
import Processes
import Source
import Support
import Testing

@testable import Build

/// A cold build links straight into the cache's staging folder and seals the linker's file as
/// the entry: the case runs the entry, and nothing is left to copy or remove.
@Suite(.tags(.integration), .needsTools)
struct ArtifactStoreTests {
    private let launcher = PosixLauncher(path: Fixture.environment["PATH"])

    private func build(_ directory: String, store: ArtifactStore) throws -> Artifact {
        try Fixture.write(Fixture.hello, to: directory + "/hello.asm")
        let toolchain = Toolchain(host: Host(environment: [:]), locator: Fixture.locator)
        return try store.build(try Program.load(file: directory + "/hello.asm"), toolchain: toolchain)
    }

    /// A store whose cache is `directory`/cache, and that folder.
    private func openStore(in directory: String) throws -> (store: ArtifactStore, root: String) {
        let root = directory + "/cache"
        return (try ArtifactStore(options: CacheOptions(directory: root), environment: [:], launcher: launcher), root)
    }

    private func says(_ artifact: Artifact) throws -> String {
        let command = Fixture.nativeHost ? Command(artifact.executable) : Command("qemu-x86_64", [artifact.executable])
        return String(decoding: try launcher.run(command, options: LaunchOptions()).stdout, as: UTF8.self)
    }

    @Test func aColdBuildRunsTheSealedEntryItself() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let (store, root) = try openStore(in: directory)
        let artifact = try build(directory, store: store)
        #expect(artifact.inCache && artifact.executable.hasPrefix(root + "/objects/"), "\(artifact.executable)")
        #expect(try says(artifact) == "hello\n")
        let entry = try #require(CacheEntry(path: artifact.executable).read(), "an intact entry, trailer and all")
        #expect(entry.runnable && entry.payload.count == artifact.length)
        #expect(try Files.list(root + "/tmp").isEmpty, "the staging file became the entry")
        #expect(try Files.list(store.scratch).filter { !$0.hasPrefix(".") }.isEmpty, "no private copy, no object left")
        store.close()
        let ledger = String(decoding: try Files.read(root + "/size"), as: UTF8.self)
        #expect(ledger == "\(CacheEntry.size(entry.payload, warnings: entry.warnings))\n", "the new cache holds this entry")

        let again = try openStore(in: directory).store
        defer { again.close() }
        #expect(try build(directory, store: again).executable == artifact.executable, "the next run hits the same entry")
    }

    /// A sealed executable's trailer holds no checksum (its bytes are not read back): one whose
    /// modification time moved, its bytes intact, is not trusted but rebuilt in its place.
    @Test func aSealedEntryThatWasTouchedIsRebuilt() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let store = try openStore(in: directory).store
        let artifact = try build(directory, store: store)
        store.close()
        #expect(CacheEntry(path: artifact.executable).read() != nil, "untouched, it is used")
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, artifact.executable, &times, 0) == 0)
        #expect(CacheEntry(path: artifact.executable).read() == nil, "touched, it is not trusted")
        let again = try openStore(in: directory).store
        defer { again.close() }
        let rebuilt = try build(directory, store: again)
        #expect(rebuilt.executable == artifact.executable && CacheEntry(path: rebuilt.executable).read() != nil)
        #expect(try says(rebuilt) == "hello\n")
    }

    /// A build in a new cache whose `folder` (objects or tmp) went away after it was opened: the
    /// program still builds, runs from a private copy, and `remaining` (the other folder) is empty.
    private func buildWithout(_ folder: String, remaining: String, then: (Artifact) -> Void = { _ in }) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let (store, root) = try openStore(in: directory)
        defer { store.close() }
        #expect(rmdir(root + "/" + folder) == 0)
        let artifact = try build(directory, store: store)
        #expect(!artifact.inCache && artifact.executable.hasPrefix(store.scratch + "/"), "\(artifact.executable)")
        #expect(try says(artifact) == "hello\n")
        #expect(try Files.list(root + "/" + remaining).isEmpty)
        then(artifact)
    }

    /// When the entry cannot be sealed (its folder went away), the linked bytes become a private
    /// copy that runs as well, and the staging file is removed.
    @Test func anEntryThatCannotBeSealedLeavesAPrivateCopy() throws {
        try buildWithout("objects", remaining: "tmp") { artifact in
            artifact.release()
            #expect(!Files.exists(artifact.executable))
        }
    }

    /// A cache whose staging folder takes no file (gone here; full, or another user's) costs the
    /// caching, not the build: the linker writes the private copy instead, and nothing is stored.
    @Test func aCacheThatTakesNoFileStillBuilds() throws {
        try buildWithout("tmp", remaining: "objects")
    }

    /// A cache this run made is not listed to count it: it holds what this run stored.
    @Test func aNewCachesLedgerIsWhatTheRunStored() throws {
        let root = try Fixture.temporaryDirectory()
        defer { Files.removeTree(root) }
        try Fixture.write(String(repeating: "x", count: 1000), to: root + "/objects/" + String(repeating: "a", count: 64))
        CacheMaintenance(root: root).account(stored: 10, limit: 10_000, fromEmpty: true)
        #expect(String(decoding: try Files.read(root + "/size"), as: UTF8.self) == "10\n")
        CacheMaintenance(root: root).account(stored: 5, limit: 10_000, fromEmpty: true)
        #expect(String(decoding: try Files.read(root + "/size"), as: UTF8.self) == "15\n", "a ledger written meanwhile is read")
    }
}
