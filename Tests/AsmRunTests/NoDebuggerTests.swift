import Glibc
import Support
import Testing

/// A crash where no debugger is installed (a .deb installed without its recommends): the built
/// binary, with a PATH holding every tool but gdb and gdb-multiarch, says in one line what to
/// install for the crash report, natively, under qemu and as on an ARM host.
@Suite(.needsTools, .serialized)
struct NoDebuggerTests {
    static let segfault = Fixture.corpus + "/segfault.asm"

    enum Way: String, CaseIterable, Sendable {
        case native, qemu, arm
        var arguments: [String] { self == .arm ? [] : ["--runner", rawValue] }
        var environment: [String: String] { self == .arm ? ["ASMRUN_HOST_ARCH": "aarch64"] : [:] }
    }

    /// The debugger of this machine: plain gdb reads x86 programs on an x86 machine (an ARM host
    /// simulated there too), gdb-multiarch on a real ARM one.
    static let package = Fixture.nativeHost ? "gdb" : "gdb-multiarch"

    static let ways = Fixture.nativeHost ? Way.allCases : [.qemu, .arm]

    /// A folder of links to everything on PATH but `left` (the debuggers), first occurrence winning.
    static func path(without left: Set<String> = ["gdb", "gdb-multiarch"]) throws -> String {
        let bin = try Fixture.temporaryDirectory()
        let path = Fixture.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":").map(String.init) {
            guard let entries = try? Files.list(folder) else { continue }
            for name in entries where !left.contains(name) {
                _ = symlink(folder + "/" + name, bin + "/" + name)
            }
        }
        return bin
    }

    @Test(arguments: ways) func aCrashWithoutGdbSaysWhatToInstall(way: Way) throws {
        let bin = try Self.path()
        defer { Files.removeTree(bin) }
        #expect(access(bin + "/gdb", F_OK) != 0 && access(bin + "/nasm", X_OK) == 0)
        let result = try Fixture.asmrun(
            [Self.segfault, "--no-cache"] + way.arguments, environment: way.environment.merging(["PATH": bin]) { $1 })
        #expect(
            result.stderr == """
                asmrun: \(Self.segfault): killed by SIGSEGV (segmentation fault)
                asmrun: no crash report: \(Self.package) not found (needed to say where a program crashed, and for asmrun debug); \
                install it with `apt-get install \(Self.package)`

                """)
        #expect(result.status == .exited(139))
    }
}
