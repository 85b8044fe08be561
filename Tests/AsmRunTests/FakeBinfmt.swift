import Foundation
import Support

/// A folder laid out like `/proc/sys/fs/binfmt_misc`, for `ASMRUN_BINFMT_MISC_DIR` (test-only).
struct FakeBinfmt {
    /// An entry as the kernel shows it.
    static func entry(_ interpreter: String, flags: String, magic: String, mask: String) -> String {
        "enabled\ninterpreter \(interpreter)\nflags: \(flags)\noffset 0\nmagic \(magic)\nmask \(mask)\n"
    }

    /// Debian's qemu-user-binfmt entry for x86-64.
    static let qemuX86_64 = entry(
        "/usr/libexec/qemu-binfmt/x86_64-binfmt-P", flags: "PF", magic: "7f454c4602010100000000000000000002003e00",
        mask: "fffffffffffefe00fffffffffffffffffeffffff")
    /// Rosetta for Linux as Lima and OrbStack register it.
    static let rosetta = entry(
        "/mnt/lima-rosetta/rosetta", flags: "OCF", magic: "7f454c4602010100000000000000000002003e00",
        mask: "fffffffffffefe00fffffffffffffffffeffffff")
    static let qemuI386 = entry(
        "/usr/libexec/qemu-binfmt/i386-binfmt-P", flags: "PF", magic: "7f454c4601010100000000000000000002000300",
        mask: "fffffffffffefefcfffffffffffffffffeffffff")
    static let qemuArm = entry(
        "/usr/libexec/qemu-binfmt/arm-binfmt-P", flags: "PF", magic: "7f454c4601010100000000000000000002002800",
        mask: "ffffffffffffff00fffffffffffffffffeffffff")
    static let wine = "enabled\ninterpreter /usr/bin/wine\nflags: \nextension .exe\n"

    let folder: String

    /// `status` (when mounted) and one file per entry; `nil` status means not mounted (an empty folder).
    init(status: String? = "enabled", entries: [String: String]) throws {
        folder = try Fixture.temporaryDirectory()
        if let status { try Fixture.write(status + "\n", to: folder + "/status") }
        if status != nil { try Fixture.write("", to: folder + "/register") }
        for (name, text) in entries { try Fixture.write(text, to: folder + "/" + name) }
    }

    func remove() { Files.removeTree(folder) }
}
