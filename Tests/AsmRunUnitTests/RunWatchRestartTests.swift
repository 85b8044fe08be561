import Glibc
import Support
import Testing

@testable import Session

/// Run mode's watch after the kernel lost events (`FileWatcher.Change.overflowed`): the program
/// restarts only when one of its files changed since the wait started, not for files written
/// beside it (a program that writes thousands would otherwise restart without end).
struct RunWatchRestartTests {
    private func writeInPlace(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    @Test func lostEventsRestartTheProgramOnlyWhenItsFilesChanged() throws {
        let made = try TemporaryDirectory(prefix: "restart")
        defer { made.remove() }
        let real = try #require(Files.realPath(made.path))
        writeInPlace("one\n", to: real + "/wait.asm")
        let single = WatchSet(programs: [.init(path: "wait.asm", inputs: [real + "/wait.asm", real + "/text.inc"])])
        var stamps = InputStamps(single.inputs)
        for index in 0..<100 { writeInPlace("out\n", to: real + "/out\(index).txt") }
        #expect(RunWatch.restart(for: .overflowed, single, since: stamps) == nil)
        // Saved in place.
        writeInPlace("three\n", to: real + "/wait.asm")
        #expect(RunWatch.restart(for: .overflowed, single, since: stamps) == .init(paths: [real + "/wait.asm"], overflowed: true))
        // Replaced by a rename (same size and contents: another inode).
        stamps = InputStamps(single.inputs)
        writeInPlace("three\n", to: real + "/.wait.asm.swp")
        #expect(rename(real + "/.wait.asm.swp", real + "/wait.asm") == 0)
        #expect(RunWatch.restart(for: .overflowed, single, since: stamps) == .init(paths: [real + "/wait.asm"], overflowed: true))
        // An include named before it existed, written now.
        stamps = InputStamps(single.inputs)
        writeInPlace("", to: real + "/text.inc")
        #expect(RunWatch.restart(for: .overflowed, single, since: stamps)?.paths == [real + "/text.inc"])
        // Saves as before: only the program's own files; a wake is no restart.
        #expect(RunWatch.restart(for: .saved([real + "/out1.txt"]), single, since: stamps) == nil)
        #expect(RunWatch.restart(for: .saved([real + "/wait.asm"]), single, since: stamps) == .init(paths: [real + "/wait.asm"]))
        #expect(RunWatch.restart(for: .woken, single, since: stamps) == nil)
    }

    /// A folder program: a new file in its folder is its own, and changes the folder's stamp.
    @Test func lostEventsRestartAFolderProgramForANewFileInItsFolder() throws {
        let made = try TemporaryDirectory(prefix: "restart")
        defer { made.remove() }
        let real = try #require(Files.realPath(made.path))
        let folder = WatchSet(programs: [.init(path: real, inputs: [], folder: real)])
        let stamps = InputStamps(folder.inputs)
        #expect(RunWatch.restart(for: .overflowed, folder, since: stamps) == nil)
        writeInPlace("", to: real + "/helper.asm")
        #expect(RunWatch.restart(for: .overflowed, folder, since: stamps) == .init(paths: [real], overflowed: true))
    }
}
