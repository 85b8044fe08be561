import Build
import Processes
import Run
import Sandbox
import Source
import Support

/// `asmrun doctor`: what this host can do, what is missing and how to install it.
struct DoctorCommand: Sendable {
    let context: Context

    init(context: Context) { self.context = context }

    /// Prints the report; 0 exactly when it ends with "ready" (hello.asm and libc programs can be
    /// built and run here), 1 when it says "not ready".
    func execute() -> Int32 {
        let toolchain = context.toolchain
        let host = toolchain.host
        var lines = ["host: \(host.architecture)\(host.simulated ? " (simulated by ASMRUN_HOST_ARCH)" : "")"]
        lines += toolLines(toolchain)
        var missing: [String] = []
        let policy: RunnerPolicy
        do {
            policy = try context.runnerPolicy()
        } catch {
            missing.append("\(error)")
            policy = RunnerPolicy(binfmtFolder: context.environment["ASMRUN_BINFMT_MISC_DIR"] ?? BinfmtMisc.standardFolder)
        }
        let runners = runnerLines(toolchain, policy)
        lines += runners.lines
        lines += Self.binfmtLines(policy.binfmt)
        let build = buildLines(toolchain)
        lines += build.lines
        lines += containmentLines()
        if (try? toolchain.nasm()) == nil { missing.append("\(ToolError(tool: "nasm", packages: ["nasm"]))") }
        if case .failure(let error) = Result(catching: { () throws(ToolError) in try toolchain.debugger() }) {
            lines.append("note: no crash reports and no `asmrun debug` without it: \(error)")
        }
        missing += runners.missing + build.missing
        lines.append(missing.isEmpty ? "ready: asmrun can build and run programs here" : "not ready:")
        lines += missing.map { "  \($0)" }
        // Tool paths and their version lines are the host's text: each stays one plain line.
        context.console.write(lines.map(DisplayText.escape).joined(separator: "\n") + "\n")
        return ExitStatus.doctor(ready: missing.isEmpty)
    }

    private func toolLines(_ toolchain: Toolchain) -> [String] {
        let tools: [(name: String, package: String, versionFlag: String)] = [
            ("nasm", "nasm", "-v"), ("ld", "binutils", "--version"),
            ("x86_64-linux-gnu-ld", "binutils-x86-64-linux-gnu", "--version"),
            ("ld.lld", "lld", "--version"), ("cc", "gcc", "--version"),
            ("x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu", "--version"),
            ("qemu-x86_64", "qemu-user", "--version"), ("qemu-i386", "qemu-user", "--version"),
            ("gdb", "gdb", "--version"), ("gdb-multiarch", "gdb-multiarch", "--version"), ("strace", "strace", "-V"),
        ]
        return ["tools:"]
            + tools.map { tool in
                if let path = toolchain.locator.find(tool.name) ?? toolchain.locator.find(tool.name + "-static") {
                    return "  \(tool.name): \(path) — \(version(path, tool.versionFlag))"
                }
                return "  \(tool.name): missing (apt-get install \(tool.package))"
            }
    }

    /// Each runner per format, and what `auto` picks; missing when `auto` cannot run 64-bit
    /// programs, or qemu lacks the sysroot for libc programs.
    private func runnerLines(_ toolchain: Toolchain, _ policy: RunnerPolicy) -> (lines: [String], missing: [String]) {
        var lines = ["runners:"]
        var missing: [String] = []
        for format in ObjectFormat.allCases {
            for choice in [RunnerChoice.native, .qemu, .binfmt] {
                do {
                    let runner = try Runner.resolve(choice, format: format, toolchain: toolchain, policy: policy)
                    lines.append("  \(choice) \(format.rawValue): available\(Self.detail(runner))")
                    if format == .elf64, let problem = runner.libcProblem(program: "a libc program") {
                        lines.append("    libc programs: \(problem)")
                        missing.append("\(problem)")
                    }
                } catch {
                    lines.append("  \(choice) \(format.rawValue): \(error)")
                }
            }
        }
        for format in ObjectFormat.allCases {
            do {
                let runner = try Runner.resolve(.auto, format: format, toolchain: toolchain, policy: policy)
                lines.append("  auto \(format.rawValue) picks: \(runner.name)\(autoNote(runner, toolchain.host, format))")
            } catch {
                lines.append("  auto \(format.rawValue): \(error)")
                if format == .elf64 { missing.append("\(error)") }
            }
        }
        return (lines, missing)
    }

    private static func detail(_ runner: Runner) -> String {
        switch runner.kind {
        case .qemu(let path, _, let sysroot?) where sysroot.isPresent:
            let prefix = sysroot.qemuArguments.isEmpty ? "the machine's own libraries" : "-L \(sysroot.path)"
            return " (\(path); libc programs: \(prefix))"
        case .qemu(let path, _, _): return " (\(path))"
        case .binfmt(let handler, let interpreter): return " (handler \(handler): \(interpreter))"
        case .native, .custom: return ""
        }
    }

    private func autoNote(_ runner: Runner, _ host: Host, _ format: ObjectFormat) -> String {
        guard !host.runsNatively(format) else { return "" }
        if context.environment["ASMRUN_RUNNER"].map({ !$0.isEmpty }) ?? false { return " (from ASMRUN_RUNNER)" }
        return " (ASMRUN_RUNNER=binfmt would pick the kernel's binfmt_misc handler)"
    }

    private func buildLines(_ toolchain: Toolchain) -> (lines: [String], missing: [String]) {
        var lines = ["build:"]
        var missing: [String] = []
        for (format, mode) in [(ObjectFormat.elf64, LinkMode.ld), (.elf32, .ld), (.elf64, .cc)] {
            do {
                let linker = mode == .cc ? try toolchain.compilerDriver(for: format) : try toolchain.linker(for: format)
                lines.append("  \(format.rawValue) \(mode.rawValue): \(linker)\(Self.fallbackNote(linker))")
            } catch {
                lines.append("  \(format.rawValue) \(mode.rawValue): \(error)")
                missing.append("\(error)")
            }
        }
        return (lines, missing)
    }

    /// What the `ld.lld` fallback changes (Documentation/running.md): the classic build is GNU ld's.
    static func fallbackNote(_ linker: String) -> String {
        guard PathName.lastComponent(of: linker).hasPrefix("ld.lld") else { return "" }
        return " (the fallback: it lays programs out otherwise than GNU ld, so a program reading past its data or"
            + " running code on a 32-bit stack may behave otherwise than in the classic build; install GNU ld for x86:"
            + " apt-get install binutils-x86-64-linux-gnu)"
    }

    private func containmentLines() -> [String] {
        var lines = ["containment of test cases:"]
        if let scratch = try? TemporaryDirectory(prefix: "doctor", environment: context.environment, claimed: true) {
            let containment = Containment(
                writable: scratch.path, cgroupParent: context.environment["ASMRUN_CGROUP_PARENT"], launcher: context.launcher)
            for layer in Containment.alwaysOn + containment.layers + [BuildView.layer(scratch: scratch.path)] {
                lines.append("  \(layer.name): \(layer.active ? "active" : "unavailable"), \(layer.detail)")
            }
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
}
