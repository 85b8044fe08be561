import Foundation
import Glibc
import Testing

@testable import Support

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
}
