import Build
import CLI
import Foundation
import Processes
import Testing

@testable import Support

extension Tag {
    /// Tests that really run nasm, a linker and qemu.
    @Tag static var integration: Self
}

/// What a suite or test needs of the machine, and the reason it names when skipped.
extension Trait where Self == ConditionTrait {
    static var needsTools: Self {
        .enabled(if: Fixture.toolsAvailable, "nasm, binutils, gcc or qemu-user is not installed (make deps)")
    }
    static var needsDebugTools: Self {
        .enabled(if: Fixture.debugToolsAvailable, "gdb-multiarch or strace is not installed (make deps)")
    }
    static var needsIsolatingRoot: Self {
        .enabled(if: Fixture.rootMayIsolate, "needs root on a kernel that lets root unshare every namespace (unshare(1) says)")
    }
    static var needsNativeHost: Self { .enabled(if: Fixture.nativeHost, "the native runner needs an x86_64 host") }
}

/// Paths and helpers shared by the tests.
enum Fixture {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let corpus = packageRoot + "/asm"

    /// The text of the corpus's asm/hello.asm.
    static let corpusHello = try! String(contentsOfFile: corpus + "/hello.asm", encoding: .utf8)

    /// The `asmrun` binary `swift test` built next to the test bundle.
    static let binary: String = {
        let bundleDirectory = (CommandLine.arguments[0] as NSString).deletingLastPathComponent
        for candidate in [bundleDirectory + "/asmrun", packageRoot + "/.build/debug/asmrun"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return packageRoot + "/.build/debug/asmrun"
    }()

    static let environment = ProcessInfo.processInfo.environment

    static let locator = ExecutableLocator(path: environment["PATH"])

    /// nasm, a linker and qemu are installed (CI installs them; elsewhere the tests say why they skip).
    static let toolsAvailable = ["nasm", "ld", "cc", "qemu-x86_64", "qemu-i386"].allSatisfy { locator.find($0) != nil }

    /// gdb-multiarch (which `make deps` installs on every host: the simulated ARM host needs it)
    /// and strace, for the crash reports, `asmrun debug` and `--strace`.
    static let debugToolsAvailable = ["gdb-multiarch", "strace"].allSatisfy { locator.find($0) != nil }

    /// Root, on a kernel (and in a container) that lets root make every namespace a case gets:
    /// asked of unshare(1), not of asmrun. CI runs as root on such a machine.
    static let rootMayIsolate: Bool = {
        guard geteuid() == 0, let unshare = locator.find("unshare") else { return false }
        let probe = try? PosixLauncher(path: "/usr/bin:/bin").run(
            Command(unshare, ["--pid", "--fork", "--mount", "--ipc", "--uts", "--net", "--mount-proc", "true"]), options: LaunchOptions())
        return probe?.termination == .exited(0)
    }()

    /// The host is x86_64, so the native runner exists.
    static let nativeHost = Host(environment: [:]).runsX86_64

    /// The runner x86 programs run under here.
    static var runner: String { nativeHost ? "native" : "qemu" }

    /// A program that prints `hello` and exits 0.
    static let hello = """
        global _start
        _start:
            mov eax, 1
            mov edi, 1
            lea rsi, [rel msg]
            mov edx, 6
            syscall
            mov eax, 60
            xor edi, edi
            syscall
        section .data
        msg: db "hello", 10

        """

    /// `hello.asm` (`hello`) and the expectation it meets.
    static let helloSuite = ["hello.asm": hello, "hello.expect": "[case default]\nstdout:\n| hello\nstatus: exit 0\n"]

    /// A JSON object read from `path`.
    static func json(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Processes of a process group that are still alive (zombies waiting for a reaper do not count).
    static func liveProcesses(inGroup group: pid_t) -> [pid_t] { liveProcesses(field: 2, is: group) }

    /// Live children of `parent`.
    static func liveChildren(of parent: pid_t) -> [pid_t] { liveProcesses(field: 1, is: parent) }

    /// Live processes whose `/proc/PID/stat` field `field` (after the name: 0 state, 1 parent,
    /// 2 group) is `value`.
    private static func liveProcesses(field: Int, is value: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X", pid_t(fields[field]) == value else { return nil }
            return pid
        }
    }

    /// A toolchain over a folder of empty executables standing in for the real tools (shared by
    /// the tests, one subfolder per tool set; removed with the machine's temporary files).
    static func fakeToolchain(host: String, tools: [String]) throws -> Toolchain {
        let directory = NSTemporaryDirectory() + "/asmrun-fake-tools/" + tools.joined(separator: "+")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Tests run in parallel and share the folder: a tool is written once, renamed into place
        // already executable, so no lookup ever sees it half made.
        for tool in tools where access(directory + "/" + tool, X_OK) != 0 {
            try AtomicFile.write(Array("#!/bin/sh\n".utf8), to: directory + "/" + tool, mode: 0o755)
        }
        return Toolchain(host: Host(architecture: host), locator: ExecutableLocator(path: directory))
    }

    /// A fresh directory removed by the caller.
    static func temporaryDirectory() throws -> String {
        try TemporaryDirectory(prefix: "tests").path
    }

    /// A fresh directory, readable by everyone, in /var/tmp: cases see it (read-only), where they
    /// see /tmp and /dev/shm as fresh, empty folders. Removed by the caller.
    static func visibleDirectory() throws -> String {
        var template = Array("/var/tmp/asmrun-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        chmod(String(cString: made), 0o755)
        return String(cString: made)
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Close-on-exec and under the spawn gate, as asmrun writes executables: a script written
        // here and run next never meets "Text file busy" from a test spawning meanwhile.
        try SpawnGate.exclusive { try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644, keepingMode: false) }
    }

    /// Opens the file at `path` and takes the lock a writer holds on its temporary file
    /// (`AtomicFile`), as a live writer would; closing the descriptor lets it go.
    static func holdAsLiveWriter(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0, "open \(path)")
        try #require(flock(descriptor, LOCK_EX) == 0)
        return descriptor
    }

    /// Runs the built `asmrun` binary (or `executable`, a shell that runs it) and captures everything.
    static func asmrun(
        _ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:],
        stdin: String = "", executable: String = binary
    ) throws -> (stdout: String, stderr: String, status: Termination) {
        var environment = Self.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        for (key, value) in extra { environment[key] = value }
        var options = LaunchOptions()
        options.stdin = .bytes(Array(stdin.utf8))
        options.timeout = 120
        let result = try PosixLauncher(path: environment["PATH"]).run(
            Command(executable, arguments, environment: environment, workingDirectory: directory), options: options)
        return (String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self), result.termination)
    }

    /// A fresh folder holding `files` (text by relative path), removed by the caller.
    static func folder(_ files: [String: String]) throws -> String {
        let directory = try temporaryDirectory()
        try write(files, in: directory)
        return directory
    }

    /// Writes `files` (text by relative path) into `folder`.
    static func write(_ files: [String: String], in folder: String) throws {
        for (name, text) in files { try write(text, to: folder + "/" + name) }
    }

    /// Runs the built `asmrun` binary in a fresh folder holding `files`, removed after.
    static func asmrun(_ arguments: [String], files: [String: String]) throws -> (stdout: String, stderr: String, status: Termination) {
        let directory = try folder(files)
        defer { Files.removeTree(directory) }
        return try asmrun(arguments, in: directory)
    }

    /// Runs `asmrun test` in-process with a buffering console.
    static func test(_ arguments: [String], environment extra: [String: String] = [:]) -> (status: Int32, output: String, errors: String) {
        var environment = Self.environment
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        for (key, value) in extra { environment[key] = value }
        let console = Console(bufferingWithColor: false)
        let context = Context(environment: environment, launcher: PosixLauncher(path: environment["PATH"]), console: console)
        let status = AsmRun.main(["test"] + arguments, context: context)
        return (status, console.capturedOutput, console.capturedError)
    }
}

/// A FIFO that processes under test write a line to when they reach a point, so a test blocks on
/// the event instead of sleeping. The test keeps a writer open itself, so `poll` never reports
/// end-of-file between writers.
final class Readiness {
    let path: String
    private let directory: String
    private let reader: Int32
    private let keeper: Int32

    init(in directory: String) throws {
        self.directory = directory
        path = directory + "/ready.fifo"
        // Writable by everyone, whatever the umask: root's cases run as nobody.
        guard mkfifo(path, 0o666) == 0, chmod(path, 0o666) == 0 else { throw POSIXError(.EEXIST) }
        reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        keeper = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    }

    deinit {
        close(reader)
        close(keeper)
    }

    /// Writes `runner.sh` beside the FIFO, a shell script of `body` for `--runner`; its path.
    func runner(_ body: String) throws -> String {
        let script = directory + "/runner.sh"
        try Fixture.write("#!/bin/sh\n" + body, to: script)
        guard chmod(script, 0o755) == 0 else { throw POSIXError(.EPERM) }
        return script
    }

    /// The first `count` lines written, waiting at most `seconds` for them (fewer on timeout).
    func lines(_ count: Int, within seconds: Double) -> [String] {
        var text = ""
        let deadline = monotonicSeconds() + seconds
        while text.split(separator: "\n").count < count {
            let wait = deadline - monotonicSeconds()
            guard wait > 0 else { break }
            var entry = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(wait * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let got = read(reader, &buffer, buffer.count)
            if got > 0 { text += String(decoding: buffer.prefix(got), as: UTF8.self) }
        }
        return text.split(separator: "\n").prefix(count).map(String.init)
    }

    /// Whether the process `pid` is gone (never a zombie here: asmrun reaps what it starts).
    static func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }
}
