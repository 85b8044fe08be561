import Sandbox
import Source

/// Finds nasm, a linker, a C driver and qemu suited to the host, without running any of them.
package struct Toolchain: Sendable {
    package let host: Host
    package let locator: ExecutableLocator

    package init(host: Host, locator: ExecutableLocator) {
        self.host = host
        self.locator = locator
    }

    package func nasm() throws -> String {
        guard let path = locator.find("nasm") else { throw ToolError(tool: "nasm", packages: ["nasm"]) }
        return path
    }

    /// A linker that produces x86 ELF of `format` on this host (GNU ld and ld.lld take the same flags).
    package func linker(for format: ObjectFormat) throws -> String {
        let gnu: [String]
        if host.runsX86_64 {
            gnu = ["ld"]
        } else {
            gnu = format == .elf64 ? ["x86_64-linux-gnu-ld"] : ["i686-linux-gnu-ld", "x86_64-linux-gnu-ld"]
        }
        if let path = locator.find(anyOf: gnu) { return path }
        if let path = locator.find(anyOf: ["ld.lld", "ld.lld-19", "ld.lld-16", "ld.lld-14"]) {
            return path
        }
        let package = host.runsX86_64 ? "binutils" : "binutils-x86-64-linux-gnu"
        throw ToolError(tool: "a linker for x86 ELF (\(gnu[0]) or ld.lld)", packages: [package])
    }

    /// The C compiler driver that links libc programs of `format`.
    package func compilerDriver(for format: ObjectFormat) throws -> String {
        if host.runsX86_64 {
            guard let path = locator.find(anyOf: ["cc", "gcc"]) else {
                throw ToolError(tool: "cc", packages: ["gcc"], purpose: "needed to link programs that use libc")
            }
            return path
        }
        let names = format == .elf64 ? ["x86_64-linux-gnu-gcc"] : ["i686-linux-gnu-gcc"]
        guard let path = locator.find(anyOf: names) else {
            let packages =
                format == .elf64
                ? ["gcc-x86-64-linux-gnu", "libc6-dev-amd64-cross"]
                : ["gcc-i686-linux-gnu", "libc6-dev-i386-cross"]
            throw ToolError(tool: names[0], packages: packages, purpose: "needed to link libc programs on \(host.architecture)")
        }
        return path
    }

    package func qemu(for format: ObjectFormat) throws -> String {
        let base = format == .elf64 ? "qemu-x86_64" : "qemu-i386"
        guard let path = locator.find(anyOf: [base, base + "-static"]) else {
            throw ToolError(tool: base, packages: ["qemu-user"])
        }
        return path
    }

    /// The sysroot qemu needs (`-L`) to run dynamic x86 programs on a foreign host.
    /// An ARM host simulated on an x86_64 machine links with the machine's own x86 C library
    /// (its `x86_64-linux-gnu-gcc` is the native compiler), so qemu must load that one too.
    package func qemuSysroot(for format: ObjectFormat) -> String? {
        guard !host.runsNatively(format), !(host.simulated && host.machine == "x86_64") else { return nil }
        return format == .elf64 ? "/usr/x86_64-linux-gnu" : "/usr/i686-linux-gnu"
    }
}
