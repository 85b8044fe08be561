import Foundation
import Glibc
import Support
import Testing

/// Reading, listing and removing files without Foundation's file manager.
@Suite struct FilesTests {
    @Test func removeTreeEmptiesLockedFoldersButNeverFollowsLinks() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        let outside = base + "/outside"
        try Fixture.write("keep me", to: outside + "/precious.txt")
        let tree = base + "/case"
        try Fixture.write("x", to: tree + "/a/b/file")
        #expect(symlink(outside, tree + "/a/link-to-outside") == 0)
        #expect(symlink(outside + "/precious.txt", tree + "/file-link") == 0)
        chmod(tree + "/a/b", 0o000)
        chmod(tree + "/a", 0o500)
        Files.removeTree(tree)
        #expect(!Files.exists(tree))
        #expect(try String(contentsOfFile: outside + "/precious.txt", encoding: .utf8) == "keep me")
    }

    @Test func listAndMakeDirectories() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        #expect(Files.makeDirectories(base + "/x/y/z"))
        #expect(Files.isDirectory(base + "/x/y/z"))
        #expect(Files.makeDirectories(base + "/x/y/z"), "an existing folder is fine")
        try Fixture.write("", to: base + "/x/file")
        #expect(!Files.makeDirectories(base + "/x/file/sub"), "a file in the way fails")
        #expect(try Files.list(base + "/x").sorted() == ["file", "y"])
        #expect(throws: Files.ReadFailure.missing) { try Files.list(base + "/nowhere") }
    }

    /// What tells a cache folder this run made (and may tag without looking) from one it found.
    @Test func makeDirectorySaysWhetherThisCallMadeIt() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        #expect(Files.makeDirectory(base + "/a/b/c"), "made, with its parents")
        #expect(!Files.makeDirectory(base + "/a/b/c"), "there already")
        #expect(!Files.makeDirectory(base + "/a/b"), "a parent made on the way")
        try Fixture.write("", to: base + "/a/file")
        #expect(!Files.makeDirectory(base + "/a/file/sub"))
    }

    @Test func readsProcFilesWhoseSizeIsZero() throws {
        let stat = try Files.read("/proc/self/stat")
        #expect(!stat.isEmpty)
        #expect(String(decoding: stat, as: UTF8.self).hasPrefix("\(getpid()) "))
    }

    /// A snapshot of the file `path` holds, as if read `after` seconds after its last change.
    private func snapshot(_ path: String, readAfter after: Double) throws -> FileSnapshot {
        var status = stat()
        try #require(stat(path, &status) == 0)
        let changed = Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9
        return FileSnapshot(status, readStarted: changed + after)
    }

    /// A fresh folder holding `p.asm`, and that file.
    private func folderWithSource() throws -> (base: String, path: String) {
        let base = try Fixture.temporaryDirectory()
        try Fixture.write("global _start\n", to: base + "/p.asm")
        return (base, base + "/p.asm")
    }

    @Test func aSettledSnapshotTellsAFileNothingWroteToFromOneThatChanged() throws {
        let (base, path) = try folderWithSource()
        defer { Files.removeTree(base) }
        let untouched = try snapshot(path, readAfter: 10)
        #expect(untouched.settled)
        #expect(untouched.stillDescribes(path))
        let appended = try snapshot(path, readAfter: 10)
        try Files.append(Array("ret\n".utf8), to: path)
        #expect(!appended.stillDescribes(path), "its size changed")
        // Saved as editors do: a new file renamed over it, of the same size.
        let replaced = try snapshot(path, readAfter: 10)
        try Fixture.write("global _start\nxxx\n", to: base + "/new")
        #expect(rename(base + "/new", path) == 0)
        #expect(!replaced.stillDescribes(path), "another inode")
        #expect(!replaced.stillDescribes(base + "/missing"))
    }

    @Test func aFileChangedJustBeforeItWasReadIsNeverTrustedByItsStatus() throws {
        let (base, path) = try folderWithSource()
        defer { Files.removeTree(base) }
        // Within a second of its change: the next write could keep the change time.
        let racy = try snapshot(path, readAfter: 0.5)
        #expect(!racy.settled)
        #expect(!racy.stillDescribes(path), "read it again to know")
        #expect(try snapshot(path, readAfter: 1.5).stillDescribes(path))
    }

    /// A reader that maps a missing file to `nil` (an expectation file, a cache folder) and
    /// every other failure to one error naming the file and its fix.
    @Test func unlessMissingIsNilForAMissingFileAndAnErrorForAnyOtherFailure() throws {
        let (base, path) = try folderWithSource()
        defer { Files.removeTree(base) }
        let fix = { (failure: Files.ReadFailure) in "not `\(failure.problem)`" }
        func read(_ path: String) throws -> [UInt8]? {
            try Files.unlessMissing(path, fix: fix) { () throws(Files.ReadFailure) in try Files.read(path) }
        }
        #expect(try read(base + "/missing.asm") == nil)
        #expect(try read(path) == Array("global _start\n".utf8))
        #expect(throws: FileError(path: base, problem: "is a directory", fix: "not `is a directory`")) { try read(base) }
    }
}
