import Foundation
import Glibc
import Support
import Testing

@testable import Build
@testable import Source

/// The record of a build's inputs kept with a cache entry, and how a hit checks it.
struct BuildInputTests {
    @Test func aRecordReadsBackAsItWasWritten() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write("one\n", to: directory + "/a file.inc")
        let inputs = [try #require(BuildInput.file(directory + "/a file.inc")), BuildInput.environment("GREETING", in: ["GREETING": "hi"])]
        #expect(BuildInput.inputs(of: BuildInput.record(inputs)) == inputs)
        #expect(BuildInput.inputs(of: "") == [])
        #expect(BuildInput.inputs(of: "x 1 2\n") == nil, "not a record: a miss, never a trap")
        #expect(BuildInput.hold("f 00 - /nonexistent\nx", environment: [:]) == false)
        #expect(BuildInput.file(directory + "/new\nline") == nil, "a name a record cannot hold")
    }

    @Test func aVariableHoldsWhileItsValueDoes() {
        let greeting = BuildInput.environment("GREETING", in: ["GREETING": "hi"])
        #expect(greeting.holds(environment: ["GREETING": "hi"]))
        #expect(!greeting.holds(environment: ["GREETING": "ho"]))
        #expect(!greeting.holds(environment: [:]), "unset is a value of its own")
        #expect(BuildInput.environment("GREETING", in: [:]).holds(environment: [:]))
        #expect(!BuildInput.environment("GREETING", in: [:]).holds(environment: ["GREETING": ""]))
    }

    /// A settled snapshot that still describes the file is trusted without reading it (here the
    /// recorded digest is wrong, and the input still holds); once the file is written, its
    /// status changes and its digest decides.
    @Test func aSettledStatusSparesTheReadAndAWriteIsSeen() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        let path = directory + "/part.inc"
        try Fixture.write("one\n", to: path)
        var status = stat()
        #expect(stat(path, &status) == 0)
        let text = "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_ctim.tv_sec):\(status.st_ctim.tv_nsec)"
        let snapshot = try #require(FileSnapshot(text: text[...]))
        let wrongDigest = BuildInput.file(path: path, digest: String(repeating: "0", count: 64), snapshot: snapshot)
        #expect(wrongDigest.holds(environment: [:]), "status unchanged: not read")
        let rightDigest = BuildInput.file(path: path, digest: try Files.digest(path), snapshot: snapshot)
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(write(fd, "two\n", 4) == 4)
        close(fd)
        #expect(!wrongDigest.holds(environment: [:]))
        #expect(!rightDigest.holds(environment: [:]), "written (same size): the status moved, the digest differs")
    }

    /// What the scan says nasm reads besides the files it names.
    @Test func theScanFindsVariablesTheClockAndUnnamedFiles() throws {
        func inputs(_ text: String) -> SourceInputs { SourceInputs.of(Array(text.utf8)) }
        #expect(inputs("%defstr W %!GREETING\ndb %!'HOME', %!\"USER\"\n").environmentNames == ["GREETING", "HOME", "USER"])
        #expect(inputs("db %!%1\n").readsComputedEnvironment)
        #expect(inputs("db __?DATE?__\n").readsClock && inputs("db __TIME__\n").readsClock && inputs("dq __?POSIX_TIME?__\n").readsClock)
        #expect(!inputs("db __?FILE?__, __LINE__\nmov eax, __?BITS?__\n").readsClock)
        #expect(inputs("%define P \"x.inc\"\n%include P\n").opaque)
        #expect(inputs("%include \"a\" %+ \"b\"\n").opaque)
        #expect(inputs("%pathsearch F \"x.inc\"\n").opaque && inputs("%depend \"x.bin\"\n").opaque)
        #expect(inputs("incbin FILE\n").opaque)
        let plain = inputs("%include \"x.inc\" ; the macros\nincbin \"b.bin\", 4\n")
        #expect(!plain.opaque && plain.cacheable && plain.environmentNames.isEmpty)
    }
}
