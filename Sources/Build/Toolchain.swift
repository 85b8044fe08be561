import Processes
import Source

/// Finds nasm, a linker, a C driver and qemu suited to the host, without running any of them.
package struct Toolchain: Sendable {
    package let host: Host
    package let locator: ExecutableLocator
    /// The user's x86 root for qemu (`QEMU_LD_PREFIX`), used instead of Debian's cross folders.
    let qemuPrefix: String?

    package init(host: Host, locator: ExecutableLocator, qemuPrefix: String? = nil) {
        self.host = host
        self.locator = locator
        self.qemuPrefix = qemuPrefix.flatMap { $0.isEmpty ? nil : $0 }
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

    /// The debugger that reads x86 programs here: gdb on x86 machines (which also talks to qemu's
    /// gdbstub), gdb-multiarch on others.
    package func debugger() throws(ToolError) -> String {
        let x86Machine = host.runsX86_64 || host.machine == "x86_64"
        if x86Machine, let path = locator.find(anyOf: ["gdb", "gdb-multiarch"]) { return path }
        if let path = locator.find("gdb-multiarch") { return path }
        let package = x86Machine ? "gdb" : "gdb-multiarch"
        throw ToolError(tool: package, packages: [package], purpose: "needed to say where a program crashed, and for asmrun debug")
    }

    package func qemu(for format: ObjectFormat) throws -> String {
        let base = format == .elf64 ? "qemu-x86_64" : "qemu-i386"
        guard let path = locator.find(anyOf: [base, base + "-static"]) else {
            throw ToolError(tool: base, packages: ["qemu-user"])
        }
        return path
    }

    /// The sysroot qemu needs (`-L`) to run dynamic x86 programs on a foreign host: `QEMU_LD_PREFIX`,
    /// else Debian's cross libc folder; a host simulated on an x86 machine uses the machine's own.
    package func qemuSysroot(for format: ObjectFormat) -> QemuSysroot? {
        guard !host.runsNatively(format) else { return nil }
        let loader = format == .elf64 ? "/lib64/ld-linux-x86-64.so.2" : "/lib/ld-linux.so.2"
        if let qemuPrefix { return QemuSysroot(path: qemuPrefix, loader: qemuPrefix + loader, package: nil) }
        if host.simulated && Host(architecture: host.machine).runsNatively(format) {
            return QemuSysroot(path: "/", loader: loader, package: format == .elf64 ? "libc6" : "libc6-i386")
        }
        let path = format == .elf64 ? "/usr/x86_64-linux-gnu" : "/usr/i686-linux-gnu"
        return QemuSysroot(path: path, loader: path + loader, package: format == .elf64 ? "libc6-amd64-cross" : "libc6-i386-cross")
    }
}
