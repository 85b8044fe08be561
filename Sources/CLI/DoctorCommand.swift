import Build
import Foundation
import Run
import Sandbox
import Source
import Support

/// `asmrun doctor`: what this host can do, what is missing and how to install it.
package struct DoctorCommand: Sendable {
    /// Side effects.
    package let context: Context

    /// Creates the command.
    package init(context: Context) { self.context = context }

    /// Prints the report; 0 when hello.asm can be built and run here.
    package func execute() -> Int32 {
        let toolchain = context.toolchain
        let host = toolchain.host
        var lines = ["host: \(host.architecture)\(host.simulated ? " (simulated by ASMRUN_HOST_ARCH)" : "")"]
        lines.append("tools:")
        var missing: [String] = []
        let tools: [(name: String, package: String, versionFlag: String)] = [
            ("nasm", "nasm", "-v"), ("ld", "binutils", "--version"),
            ("x86_64-linux-gnu-ld", "binutils-x86-64-linux-gnu", "--version"),
            ("ld.lld", "lld", "--version"), ("cc", "gcc", "--version"),
            ("x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu", "--version"),
            ("qemu-x86_64", "qemu-user", "--version"), ("qemu-i386", "qemu-user", "--version"),
        ]
        for tool in tools {
            if let path = toolchain.locator.find(tool.name) ?? toolchain.locator.find(tool.name + "-static") {
                lines.append("  \(tool.name): \(path) — \(version(path, tool.versionFlag))")
            } else {
                lines.append("  \(tool.name): missing (apt-get install \(tool.package))")
            }
        }
        lines.append("runners:")
        var usable = 0
        for format in ObjectFormat.allCases {
            for choice in [RunnerChoice.native, .qemu] {
                do {
                    _ = try Runner.resolve(choice, format: format, toolchain: toolchain)
                    lines.append("  \(choice) \(format.rawValue): available")
                    if format == .elf64 { usable += 1 }
                } catch {
                    lines.append("  \(choice) \(format.rawValue): \(error)")
                }
            }
        }
        lines.append("  binfmt_misc: \(binfmtRegistrations())")
        lines.append("build:")
        for (format, mode) in [(ObjectFormat.elf64, LinkMode.ld), (.elf32, .ld), (.elf64, .cc)] {
            do {
                let linker =
                    mode == .cc
                    ? try toolchain.compilerDriver(for: format)
                    : try toolchain.linker(for: format)
                lines.append("  \(format.rawValue) \(mode.rawValue): \(linker)")
            } catch {
                lines.append("  \(format.rawValue) \(mode.rawValue): \(error)")
                missing.append("\(error)")
            }
        }
        lines.append("containment of test cases:")
        if let scratch = try? TemporaryDirectory(prefix: "doctor", environment: context.environment) {
            let containment = Containment(writable: scratch.path, launcher: context.launcher)
            lines += containment.active.map { "  active: \($0)" }
            lines += containment.notes.map { "  unavailable: \($0)" }
            containment.close()
            scratch.remove()
        }
        lines.append("  scratch folder: \(ScratchLocation.base(environment: context.environment))")
        if (try? toolchain.nasm()) == nil { missing.append("\(ToolError(tool: "nasm", packages: ["nasm"]))") }
        lines.append(usable > 0 && missing.isEmpty ? "ready: asmrun can build and run programs here" : "not ready:")
        lines += missing.map { "  \($0)" }
        context.console.write(lines.joined(separator: "\n") + "\n")
        return usable > 0 && (try? toolchain.nasm()) != nil && (try? toolchain.linker(for: .elf64)) != nil ? 0 : 1
    }

    private func version(_ path: String, _ flag: String) -> String {
        var options = LaunchOptions()
        options.timeout = 10
        guard let result = try? context.launcher.run(Command(path, [flag]), options: options) else {
            return "version unknown"
        }
        let text = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? "version unknown"
    }

    private func binfmtRegistrations() -> String {
        let folder = "/proc/sys/fs/binfmt_misc"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0 != "register" && $0 != "status" }
        let x86 = names.filter { name in
            let lower = name.lowercased()
            return lower.contains("x86") || lower.contains("i386") || lower.contains("rosetta")
                || lower.contains("fex") || lower.contains("box64")
        }
        if x86.isEmpty { return names.isEmpty ? "none registered" : "no x86 handlers (\(names.count) others)" }
        return x86.sorted().joined(separator: ", ")
    }
}
