import Build
import Processes
import Source
import Support

/// A decided way to run an executable of one format, able to build its command line.
package struct Runner: Sendable, Equatable {
    /// How the executable is started.
    package enum Kind: Sendable, Equatable {
        case native
        /// Under qemu-user: its path, `-cpu` model and the sysroot for libc programs.
        case qemu(path: String, cpu: String?, sysroot: QemuSysroot?)
        /// exec'd directly; the kernel hands it to this binfmt_misc handler.
        case binfmt(handler: String, interpreter: String)
        case custom([String])
    }

    /// `native`, `qemu`, `binfmt` or the custom command text: the name in reports and expectations.
    package let name: String
    /// How the executable is started.
    package let kind: Kind

    package init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Decides the runner for a choice, a program format and the host.
    package static func resolve(
        _ choice: RunnerChoice, format: ObjectFormat, toolchain: Toolchain, policy: RunnerPolicy = RunnerPolicy(),
        cpu: String? = nil
    ) throws -> Runner {
        switch choice {
        case .auto:
            let concrete = toolchain.host.runsNatively(format) ? .native : policy.foreign
            return try resolve(concrete, format: format, toolchain: toolchain, policy: policy, cpu: cpu)
        case .native:
            guard toolchain.host.runsNatively(format) else {
                throw RunnerUnavailable(
                    runner: "native",
                    reason: "\(format.rawValue) programs do not run natively on an \(toolchain.host.architecture) host",
                    fix: "use `--runner qemu`")
            }
            return Runner(name: "native", kind: .native)
        case .qemu:
            let path = try toolchain.qemu(for: format)
            return Runner(name: "qemu", kind: .qemu(path: path, cpu: cpu, sysroot: toolchain.qemuSysroot(for: format)))
        case .binfmt:
            return try binfmt(format: format, host: toolchain.host, registry: policy.binfmt)
        case .custom(let text):
            return try custom(text, locator: toolchain.locator)
        }
    }

    /// A registered, enabled binfmt_misc handler for `format` on a host that needs one.
    static func binfmt(format: ObjectFormat, host: Host, registry: BinfmtMisc) throws -> Runner {
        guard !host.runsNatively(format) else {
            throw RunnerUnavailable(
                runner: "binfmt",
                reason: "\(format.rawValue) programs run natively on an \(host.architecture) host, without a binfmt_misc handler",
                fix: "use `--runner native`")
        }
        let handler = try registry.handler(for: format).get()
        return Runner(name: "binfmt", kind: .binfmt(handler: handler.name, interpreter: handler.interpreter))
    }

    private static func custom(_ text: String, locator: ExecutableLocator) throws -> Runner {
        let words: [String]
        do {
            words = try ShellWords.split(text)
        } catch {
            throw RunnerUnavailable(runner: text, reason: "\(error)", fix: "close the quote in --runner")
        }
        guard !words.isEmpty else {
            throw RunnerUnavailable(
                runner: "''", reason: "the runner command is empty", fix: "name native, qemu, binfmt or a command such as `box64`")
        }
        guard locator.find(words[0]) != nil else {
            throw RunnerUnavailable(
                runner: text, reason: "\(words[0]) not found on PATH", fix: "install it, give its full path, or use native or qemu")
        }
        return Runner(name: text, kind: .custom(words))
    }

    /// The same runner with a program's qemu `-cpu` model applied (other runners are unchanged).
    package func withCPU(_ model: String?) -> Runner {
        guard let model, case .qemu(let path, _, let sysroot) = kind else { return self }
        return Runner(name: name, kind: .qemu(path: path, cpu: model, sysroot: sysroot))
    }

    /// The command that runs `executable` with `arguments`, showing it `argv0` where possible,
    /// in `environment` (`nil`: asmrun's).
    package func command(executable: String, argv0: String, arguments: [String], environment: [String: String]? = nil) -> Command {
        switch kind {
        case .native, .binfmt:
            return Command(executable, arguments, environment: environment, argv0: argv0)
        case .qemu(let path, let cpu, let sysroot):
            var prefix: [String] = []
            if let cpu { prefix += ["-cpu", cpu] }
            prefix += sysroot?.qemuArguments ?? []
            let (assignments, kept) = environment.map(Self.handing) ?? ([], nil)
            return Command(path, prefix + assignments + ["-0", argv0, executable] + arguments, environment: kept)
        case .custom(let words):
            return Command(words[0], Array(words.dropFirst()) + [executable] + arguments, environment: environment)
        }
    }

    /// `environment` handed to qemu so that the program sees it in the order a native program
    /// would: the launcher's, sorted by name. qemu-user builds the guest's environment in a list
    /// whose every entry it puts at the head (util/envlist.c): its own environment first
    /// (reversed that way, or kept in order by versions that load it from the end) and then each
    /// `-E`. So qemu gets `-E` options in reverse and an empty environment of its own (none of
    /// its `QEMU_*` settings from a case's). `-E` splits its value at commas: an assignment with
    /// one stays in qemu's environment, after the others in the guest's (Documentation/testing.md).
    static func handing(_ environment: [String: String]) -> (options: [String], kept: [String: String]) {
        var options: [String] = []
        var kept: [String: String] = [:]
        for (name, value) in environment.sorted(by: { $0.key > $1.key }) {
            if !Self.fitsOption(name, value) {
                kept[name] = value
            } else {
                options += ["-E", name + "=" + value]
            }
        }
        return (options, kept)
    }

    /// A `QEMU_*` variable `handing` would leave in qemu's own environment (it holds a comma),
    /// where qemu would take it for one of its settings (`QEMU_LOG=in_asm,strace`).
    static func settingOfQemu(_ environment: [String: String]) -> String? {
        environment.filter { $0.key.hasPrefix("QEMU_") && !fitsOption($0.key, $0.value) }.keys.min()
    }

    /// Whether `-E NAME=VALUE` carries the assignment whole (qemu splits it at commas).
    private static func fitsOption(_ name: String, _ value: String) -> Bool { !name.isEmpty && !(name + value).contains(",") }

    /// Throws, under qemu or a binfmt handler, for a case's `settingOfQemu`.
    func refuseSettingOfQemu(_ environment: [String: String]) throws {
        guard hasThreadPerProcess, let name = Self.settingOfQemu(environment) else { return }
        throw UsageError(
            "the case's variable \(name.displayEscaped) holds a comma: under qemu it could reach the program only in qemu's own environment, where qemu would read it as its own setting",
            fix: "drop the comma, or run this case on the native runner (`stdout @native` and the like)")
    }

    /// Whether the runner adds a thread to each process of the program: qemu-user's RCU thread
    /// (a binfmt handler may be qemu-user-binfmt).
    var hasThreadPerProcess: Bool {
        switch kind {
        case .qemu, .binfmt: true
        case .native, .custom: false
        }
    }

    /// qemu prints its own line when the guest dies by a signal; it is not the program's output.
    /// A binfmt handler may be qemu-user-binfmt, which prints the same line.
    package var noiseFilter: LineFilter? {
        switch kind {
        case .qemu, .binfmt: LineFilter(droppingLinesStartingWith: "qemu: uncaught target signal")
        case .native, .custom: nil
        }
    }

    /// Why a program that links libc dynamically cannot run under this runner, or `nil`: under
    /// qemu on a foreign host the sysroot must hold the x86 dynamic loader.
    package func libcProblem(program: String) -> RunnerUnavailable? {
        guard case .qemu(_, _, let sysroot?) = kind, !sysroot.isPresent else { return nil }
        let fix =
            sysroot.package.map { "install it with `apt-get install \($0)`, or point QEMU_LD_PREFIX at an x86 root file system" }
            ?? "point QEMU_LD_PREFIX at an x86 root file system that has it"
        return RunnerUnavailable(
            runner: name, reason: "\(program) uses libc, and the x86 loader qemu needs for it, \(sysroot.loader), is missing",
            fix: fix)
    }
}
