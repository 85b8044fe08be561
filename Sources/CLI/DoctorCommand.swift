import Build
import Foundation
import Run
import Sandbox
import Source
import Support

/// `asmrun doctor`: what this host can do, what is missing and how to install it.
package struct DoctorCommand: Sendable {
    package let context: Context

    package init(context: Context) { self.context = context }

    /// Prints the report; 0 when hello.asm can be built and run here.
    package func execute() -> Int32 {
        let toolchain = context.toolchain
        let host = toolchain.host
        var lines = ["host: \(host.architecture)\(host.simulated ? " (simulated by ASMRUN_HOST_ARCH)" : "")"]
        lines += toolLines(toolchain)
        let runners = runnerLines(toolchain)
        lines += runners.lines
        let build = buildLines(toolchain)
        lines += build.lines
        lines += containmentLines()
        var missing = build.missing
        if (try? toolchain.nasm()) == nil { missing.append("\(ToolError(tool: "nasm", packages: ["nasm"]))") }
        lines.append(runners.usable && missing.isEmpty ? "ready: asmrun can build and run programs here" : "not ready:")
        lines += missing.map { "  \($0)" }
        context.console.write(lines.joined(separator: "\n") + "\n")
        let buildsHello = (try? toolchain.nasm()) != nil && (try? toolchain.linker(for: .elf64)) != nil
        return runners.usable && buildsHello ? ExitCode.success : ExitCode.failure
    }

    private func toolLines(_ toolchain: Toolchain) -> [String] {
        let tools: [(name: String, package: String, versionFlag: String)] = [
            ("nasm", "nasm", "-v"), ("ld", "binutils", "--version"),
            ("x86_64-linux-gnu-ld", "binutils-x86-64-linux-gnu", "--version"),
            ("ld.lld", "lld", "--version"), ("cc", "gcc", "--version"),
            ("x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu", "--version"),
            ("qemu-x86_64", "qemu-user", "--version"), ("qemu-i386", "qemu-user", "--version"),
        ]
        return ["tools:"]
            + tools.map { tool in
                if let path = toolchain.locator.find(tool.name) ?? toolchain.locator.find(tool.name + "-static") {
                    return "  \(tool.name): \(path) — \(version(path, tool.versionFlag))"
                }
                return "  \(tool.name): missing (apt-get install \(tool.package))"
            }
    }

    /// The runners per format; `usable` when some runner runs 64-bit programs.
    private func runnerLines(_ toolchain: Toolchain) -> (lines: [String], usable: Bool) {
        var lines = ["runners:"]
        var usable = false
        for format in ObjectFormat.allCases {
            for choice in [RunnerChoice.native, .qemu] {
                do {
                    _ = try Runner.resolve(choice, format: format, toolchain: toolchain)
                    lines.append("  \(choice) \(format.rawValue): available")
                    if format == .elf64 { usable = true }
                } catch {
                    lines.append("  \(choice) \(format.rawValue): \(error)")
                }
            }
        }
        lines.append("  binfmt_misc: \(binfmtRegistrations())")
        return (lines, usable)
    }

    private func buildLines(_ toolchain: Toolchain) -> (lines: [String], missing: [String]) {
        var lines = ["build:"]
        var missing: [String] = []
        for (format, mode) in [(ObjectFormat.elf64, LinkMode.ld), (.elf32, .ld), (.elf64, .cc)] {
            do {
                let linker = mode == .cc ? try toolchain.compilerDriver(for: format) : try toolchain.linker(for: format)
                lines.append("  \(format.rawValue) \(mode.rawValue): \(linker)")
            } catch {
                lines.append("  \(format.rawValue) \(mode.rawValue): \(error)")
                missing.append("\(error)")
            }
        }
        return (lines, missing)
    }

    private func containmentLines() -> [String] {
        var lines = ["containment of test cases:"]
        if let scratch = try? TemporaryDirectory(prefix: "doctor", environment: context.environment) {
            let containment = Containment(writable: scratch.path, launcher: context.launcher)
            lines += containment.active.map { "  active: \($0)" }
            lines += containment.notes.map { "  unavailable: \($0)" }
            containment.close()
            scratch.remove()
        }
        lines.append("  scratch folder: \(ScratchLocation.base(environment: context.environment))")
        return lines
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
        let names = ((try? Files.list(folder)) ?? [])
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
