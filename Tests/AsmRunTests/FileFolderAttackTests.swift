import Foundation
import Glibc
import Support
import Synchronization
import Testing

@testable import Run

/// Issue 30, item 6: a `.files` folder with a symbolic link loop was copied into every case until
/// the disk filled, ignoring SIGTERM meanwhile. Links are followed within the program's folder
/// only, never round a loop, and a copy stops at 4096 files and folders or 64 MiB with one line.
@Suite struct FileFolderAttackTests {
    private func folder(_ make: (String) throws -> Void) throws -> (root: String, files: String, target: String) {
        let root = try Fixture.temporaryDirectory()
        let files = root + "/prog.files"
        mkdir(files, 0o755)
        mkdir(root + "/case", 0o755)
        try make(files)
        return (root, files, root + "/case")
    }

    private func copy(_ files: String, to target: String, stop: @escaping () -> Bool = { false }) throws -> [String: [UInt8]] {
        try CaseFiles.place(folder: files, files: [], in: target, stop: stop, handOver: { _ in })
    }

    @Test func aLoopOfLinksIsOneLineNotAFullDisk() throws {
        // Two links to the folder itself: 2^40 paths through them before the kernel's ELOOP.
        let made = try folder { files in
            try Fixture.write("x\n", to: files + "/input.txt")
            symlink(".", files + "/a")
            symlink(".", files + "/b")
        }
        defer { Files.removeTree(made.root) }
        let error = #expect(throws: FileError.self) { try copy(made.files, to: made.target) }
        #expect(error?.problem.contains("is a symbolic link to a folder copied already") == true, "\(String(describing: error))")
        #expect(error?.location?.path.hasSuffix("prog.files/a") == true || error?.location?.path.hasSuffix("prog.files/b") == true)
    }

    @Test func aLinkWithinTheFolderIsFollowed() throws {
        let made = try folder { files in
            mkdir(files + "/data", 0o755)
            try Fixture.write("x\n", to: files + "/data/input.txt")
            symlink("data/input.txt", files + "/alias.txt")
        }
        defer { Files.removeTree(made.root) }
        let placed = try copy(made.files, to: made.target)
        #expect(placed["alias.txt"] == Array("x\n".utf8) && placed["data/input.txt"] == Array("x\n".utf8))
    }

    @Test func tooManyEntriesStopTheCopyWithOneLine() throws {
        let made = try folder { files in
            for index in 0...TreeCopy.maximumEntries { close(open(files + "/f\(index)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)) }
        }
        defer { Files.removeTree(made.root) }
        let error = #expect(throws: FileError.self) { try copy(made.files, to: made.target) }
        #expect(error?.location?.path == made.files)
        #expect(
            error?.problem == "holds more than 4096 files and folders to copy into every case: not copied", "\(String(describing: error))")
    }

    @Test func tooManyBytesStopTheCopyBeforeReadingThem() throws {
        let made = try folder { files in
            let fd = open(files + "/huge", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            ftruncate(fd, off_t(TreeCopy.maximumBytes) + 1)  // sparse: nothing to write, much to copy
            close(fd)
        }
        defer { Files.removeTree(made.root) }
        let error = #expect(throws: FileError.self) { try copy(made.files, to: made.target) }
        #expect(error?.problem == "holds more than 64 MiB to copy into every case: not copied", "\(String(describing: error))")
        #expect(!Files.exists(made.target + "/huge"))
    }

    @Test func anEndingRunStopsTheCopy() throws {
        let made = try folder { files in
            for index in 0..<100 { try Fixture.write("\(index)\n", to: files + "/f\(index)") }
        }
        defer { Files.removeTree(made.root) }
        let copied = Mutex(0)
        #expect(throws: FileCopyStopped.self) {
            _ = try copy(made.files, to: made.target) {
                copied.withLock {
                    $0 += 1; return $0 > 10
                }
            }
        }
        #expect(((try? Files.list(made.target)) ?? []).count == 10, "stopped at the 11th entry")
    }
}
