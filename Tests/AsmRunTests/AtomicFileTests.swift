import Foundation
import Glibc
import Support
import Synchronization
import Testing

/// Replacing files: through symlinks, keeping permissions, refusing read-only files and folders
/// (root included), and temporary files that a dead writer left are told from live ones.
@Suite struct AtomicFileTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    private func text(_ path: String) throws -> String { String(decoding: try Files.read(path), as: UTF8.self) }

    @Test func writesThroughSymlinksAndKeepsTheMode() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        try Fixture.write("old\n", to: base + "/real/x.expect")
        chmod(base + "/real/x.expect", 0o640)
        #expect(mkdir(base + "/links", 0o755) == 0)
        #expect(symlink("../real/x.expect", base + "/links/x.expect") == 0)
        #expect(symlink("x.expect", base + "/links/y.expect") == 0)  // a link to a link
        try AtomicFile.write(Array("new\n".utf8), to: base + "/links/y.expect")
        var info = stat()
        #expect(lstat(base + "/links/x.expect", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link stays a link")
        #expect(lstat(base + "/links/y.expect", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try text(base + "/real/x.expect") == "new\n", "the target has the new content")
        #expect(mode(base + "/real/x.expect") == 0o640, "and its mode")
        #expect(try Files.list(base + "/links").sorted() == ["x.expect", "y.expect"], "no temporary file left")
        // A dangling link is written through too: the file it names is created.
        #expect(symlink("../real/z.expect", base + "/links/z.expect") == 0)
        try AtomicFile.write(Array("z\n".utf8), to: base + "/links/z.expect")
        #expect(try text(base + "/real/z.expect") == "z\n" && mode(base + "/real/z.expect") == 0o644)
    }

    /// `--json /dev/null` and `-o /dev/null` throw the output away; as root, a rename over the
    /// device would put a regular file where every program's discarded output then piles up.
    /// A device (made where root may make one) and a pipe are written to, not replaced; a pipe
    /// without a reader and a folder are refused.
    @Test func devicesAndPipesAreWrittenToNotReplaced() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        func kind(_ path: String) -> mode_t {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        }
        if geteuid() == 0 {
            #expect(mknod(base + "/null", S_IFCHR | 0o666, (1 << 8) | 3) == 0)
            try AtomicFile.write(Array("report\n".utf8), to: base + "/null")
            #expect(kind(base + "/null") == S_IFCHR, "still the null device")
        }
        #expect(mkfifo(base + "/pipe", 0o644) == 0)
        #expect(throws: FileError.self, "a pipe nobody reads") { try AtomicFile.write([1], to: base + "/pipe") }
        let reader = open(base + "/pipe", O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try AtomicFile.write(Array("through\n".utf8), to: base + "/pipe")
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &buffer, 16) == 8 && buffer.prefix(8).elementsEqual(Array("through\n".utf8)))
        #expect(kind(base + "/pipe") == S_IFIFO)
        #expect(throws: FileError.self) { try AtomicFile.write([1], to: base) }
        #expect(try Files.list(base).sorted() == (geteuid() == 0 ? ["null", "pipe"] : ["pipe"]), "no temporary file left")
    }

    @Test func readOnlyFilesAndFoldersAreRefusedEvenForRoot() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        try Fixture.write("keep\n", to: base + "/file/x.expect")
        chmod(base + "/file/x.expect", 0o444)
        let file = #expect(throws: FileError.self) { try AtomicFile.write(Array("new\n".utf8), to: base + "/file/x.expect") }
        #expect(
            file?.message
                == "\(base)/file/x.expect: is read-only, so asmrun leaves it as it is; make it writable (chmod u+w) to let asmrun replace it"
        )
        #expect(try text(base + "/file/x.expect") == "keep\n" && mode(base + "/file/x.expect") == 0o444)
        try Fixture.write("keep\n", to: base + "/folder/x.expect")
        chmod(base + "/folder", 0o555)
        defer { chmod(base + "/folder", 0o755) }
        let folder = #expect(throws: FileError.self) { try AtomicFile.write(Array("new\n".utf8), to: base + "/folder/x.expect") }
        #expect(
            folder?.message
                == "\(base)/folder/x.expect: cannot be written: its folder \(base)/folder is read-only; make the folder writable (chmod u+w)"
        )
        #expect(try text(base + "/folder/x.expect") == "keep\n")
    }

    @Test func abandonedTemporaryFilesAreRemovedAndLiveOnesKept() throws {
        let base = try Fixture.folder([
            ".x.expect.asmrun-Ab12Cd": "a dead writer's\n", ".y.expect.asmrun-Ef34Gh": "a live writer's\n",
            ".notes.asmrun-old": "the user's\n", "x.expect": "the user's\n",
        ])
        defer { Files.removeTree(base) }
        let live = try Fixture.holdAsLiveWriter(base + "/.y.expect.asmrun-Ef34Gh")
        defer { close(live) }
        #expect(AtomicFile.removeAbandoned(in: base) == 1)
        #expect(try Files.list(base).sorted() == [".notes.asmrun-old", ".y.expect.asmrun-Ef34Gh", "x.expect"])
        #expect(AtomicFile.isTemporaryName(".hello.expect.asmrun-0aZ9xy"))
        #expect(!AtomicFile.isTemporaryName(".asmrun-0aZ9xy") && !AtomicFile.isTemporaryName("x.asmrun-0aZ9xy"))
    }

    @Test func aSweepRacingWritesNeverBreaksOne() throws {
        let base = try Fixture.temporaryDirectory()
        defer { Files.removeTree(base) }
        let stop = Atomic<Bool>(false)
        let sweeper = Thread {
            while !stop.load(ordering: .relaxed) { AtomicFile.removeAbandoned(in: base) }
        }
        sweeper.start()
        defer { stop.store(true, ordering: .relaxed) }
        for round in 0..<2000 {
            try AtomicFile.write(Array("round \(round)\n".utf8), to: base + "/x.expect")
        }
        #expect(try text(base + "/x.expect") == "round 1999\n")
    }
}
