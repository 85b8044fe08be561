import Build
import Glibc
import Processes
import Sandbox
import Source
import Support

/// What a case gives the program, as plain values.
package struct CaseInput: Sendable {
    package var arguments: [String]
    /// `NAME=VALUE` assignments, in order, on top of the fixed case environment.
    package var environment: [String]
    package var stdin: [UInt8]
    /// A folder whose files every case of the program gets in its working directory.
    package var fileFolder: String?
    /// Files written into the working directory before the program runs, by relative path.
    package var files: [(name: String, bytes: [UInt8])] = []
    /// Collect the files the program creates or changes.
    package var collectsFiles = false

    package init(arguments: [String] = [], environment: [String] = [], stdin: [UInt8] = []) {
        self.arguments = arguments
        self.environment = environment
        self.stdin = stdin
    }
}

/// How a case may run: its time, output and resource limits.
package struct CaseLimits: Sendable, Equatable {
    package var timeout: Double
    /// Bytes kept per output stream; more ends the case.
    package var outputLimit: Int
    /// The program's own limits; the defaults fill in the rest.
    package var resources: ResourceLimits
    /// The command line's limits (`--limit`), over which `resources` are lowered; the defaults
    /// are the ceilings of the rest.
    package var ceilings: ResourceLimits

    package init(
        timeout: Double, outputLimit: Int, resources: ResourceLimits = ResourceLimits(), ceilings: ResourceLimits = ResourceLimits()
    ) {
        self.timeout = timeout
        self.outputLimit = outputLimit
        self.resources = resources
        self.ceilings = ceilings
    }
}

/// What running a case produced.
package struct CaseRun: Sendable {
    /// The process result, with the runner's own noise removed from stderr.
    package var result: ProcessResult
    /// Processes the case left running that asmrun had to end.
    package var leftovers: Int
    /// Files the program created or changed in its folder, by relative path, when collected.
    package var files: [String: [UInt8]]?
    /// Files longer than the output limit (kept cut to it).
    package var oversizedFiles: [String] = []
    /// The size of the case's folder when the case filled it (of bytes, or of files and folders).
    package var filledFolder: Int?
}

/// Runs one case of a built program under one runner in a fresh folder of its own, with a fixed
/// environment, its stdin, limits and whatever containment the run has.
package struct CaseRunner: Sendable {
    let launcher: any ProcessLaunching
    /// The folder under which each case gets its own working directory.
    let scratch: String
    let containment: Containment?
    /// What repeats a crashed case under the debugger, or why nothing can (no gdb installed).
    package let crashProbe: Result<CrashProbe, ToolError>?
    /// What repeats a failed case under the debugger for the ABI checks, or the tool missing for
    /// them (`nil`: `--no-checks`).
    package var abiProbe: Result<AbiProbe, ToolError>?
    /// Told that a case was not checked for want of `abiProbe`'s tool (the run says so once).
    package var abiUnavailable: (@Sendable (ToolError) -> Void)?

    package init(
        launcher: any ProcessLaunching, scratch: String, containment: Containment?, crashProbe: Result<CrashProbe, ToolError>? = nil
    ) {
        self.launcher = launcher
        self.scratch = scratch
        self.containment = containment
        self.crashProbe = crashProbe
    }

    /// The limits every case gets unless its program says otherwise (Documentation/containment.md).
    /// Emulators need more address space than the program: qemu-i386 reserves the whole 4 GiB
    /// guest space up front and qemu's translation buffer takes more. The stack is Linux's
    /// default, 8 MiB, whatever the caller's shell has: `ulimit -s unlimited` would let a deep
    /// recursion pass natively that crashes under qemu, whose guest stack is 8 MiB unless
    /// RLIMIT_STACK is finite and larger (linux-user/main.c), as a larger `ulimit -s` would
    /// make it.
    package static func defaultLimits(timeout: Double, processes: Int?, native: Bool) -> ResourceLimits {
        ResourceLimits(
            addressSpace: native ? 1 << 30 : 6 << 30, fileSize: 64 << 20, cpuSeconds: Int(timeout.rounded(.up)) + 5,
            processes: processes, openFiles: 256, stack: 8 << 20)
    }

    /// What an emulator needs beyond the program's address space, as the defaults leave it:
    /// qemu-i386 reserves 4 GiB up front, and qemu's translation buffer and heap take more.
    static let emulatorOverhead = (6 << 30) - (1 << 30)

    /// `limits` with the program's resources no higher than the command line's or, where it gives
    /// none, the defaults: a source may lower a limit, never raise it. The address space is the
    /// program's: an emulator's process gets `emulatorOverhead` more, as the defaults give it,
    /// so that a program that runs within it natively runs under qemu too. So are its processes:
    /// qemu-user runs a thread of its own in each (its RCU thread), which pids.max and
    /// RLIMIT_NPROC count, so the emulator gets two tasks for each process the program may have.
    func lowered(_ limits: CaseLimits, runner: Runner) -> CaseLimits {
        let defaults = Self.defaultLimits(timeout: limits.timeout, processes: containment?.processLimit, native: true)
        var lowered = limits
        lowered.resources = limits.resources.lowered(to: limits.ceilings.filled(from: defaults))
        if runner.kind != .native, let bytes = lowered.resources.addressSpace {
            lowered.resources.addressSpace = bytes + Self.emulatorOverhead
        }
        if runner.hasThreadPerProcess, let processes = lowered.resources.processes {
            lowered.resources.processes = processes * 2
        }
        return lowered
    }

    /// `limits` for a case whose folder is no warden's tmpfs of `--scratch-limit` bytes: no file
    /// larger than that either (RLIMIT_FSIZE), so one file cannot fill the scratch folder's disk.
    func boundedFiles(_ limits: CaseLimits) -> CaseLimits {
        guard let bytes = containment?.folderBytes else { return limits }
        var bounded = limits
        bounded.resources.fileSize = min(limits.resources.fileSize ?? bytes, bytes)
        return bounded
    }

    /// Runs `executable` (the program `stem`, shown `argv0`; `./stem` by default) with `input`
    /// under `runner`; `length`: the executable is that many bytes at the start of a cache entry.
    package func run(
        _ input: CaseInput, executable: String, length: Int? = nil, stem: String, argv0: String? = nil, runner: Runner,
        limits: CaseLimits
    ) throws -> CaseRun {
        var limits = lowered(limits, runner: runner)
        // A warden's case works in the one folder the warden may write to, emptied after each
        // case (a folder of its own made and removed per case was two system calls more); other
        // cases get a fresh folder in the scratch folder.
        let warden = containment?.warden(processes: limits.resources.processes)
        let made = warden == nil ? try TemporaryDirectory(prefix: "case", environment: ["TMPDIR": scratch]) : nil
        if warden == nil { limits = boundedFiles(limits) }
        // A warden's folder is a tmpfs in its namespace, which asmrun reaches by another path.
        // With namespaces of its own, a case sees its folder at one path (Confinement.caseView).
        let folder = warden?.reachable ?? made!.path
        let view = containment?.confinement.caseNamespaces == true ? Confinement.caseView : nil
        let seen = warden?.folder ?? view ?? made!.path
        defer {
            made?.remove()
            warden?.sweep()
        }
        if let made { try handOver(made.path) }
        let prepared: Prepared
        do {
            prepared = try prepare(
                input, in: folder, seenAs: seen, executable: executable, length: length, stem: stem, argv0: argv0, runner: runner,
                limits: limits)
        } catch is FileCopyStopped {
            var result = ProcessResult(termination: .signaled(SIGKILL))
            result.interrupted = true
            return CaseRun(result: result, leftovers: 0)
        }
        var launch = prepared.launch
        launch.warden = warden
        if warden == nil, view != nil { launch.caseFolder = made?.path }
        let scope = warden == nil ? containment?.beginCase(processes: limits.resources.processes) : nil
        launch.cgroupProcs = scope?.procsFile
        var launched = Result { try launcher.run(prepared.command, options: launch) }
        // A cache entry written by this process a moment ago may still be open for writing in a
        // child forked meanwhile, for the microseconds before it closes what it inherited.
        if length != nil, case .failure(let error) = launched, case .spawnFailed(_, ETXTBSY)? = error as? LaunchError {
            launched = Result { try launcher.run(prepared.command, options: launch) }
        }
        var leftovers = scope.map { containment?.endCase($0) ?? 0 } ?? 0
        var result = try launched.get()
        leftovers += result.leftovers
        if let filter = runner.noiseFilter { result.stderr = filter.apply(to: result.stderr) }
        var run = CaseRun(result: result, leftovers: leftovers)
        if let warden, warden.isFull { run.filledFolder = warden.bytes }
        if input.collectsFiles {
            let skip: Set<String> = prepared.programPath == executable ? [] : [stem]
            (run.files, run.oversizedFiles) = CaseFiles.collect(
                in: folder, inputs: prepared.inputs, skip: skip, limit: limits.outputLimit)
        }
        return run
    }

    /// The case run again under the debugger, in a fresh folder with the same inputs, to say
    /// where and why it crashed; `nil` when the crash did not repeat or the runner cannot be
    /// debugged.
    package func explainCrash(
        _ input: CaseInput, of program: CrashProbe.Program, probe: CrashProbe, stem: String, argv0: String? = nil, runner: Runner,
        limits: CaseLimits, signal: Int32? = nil
    ) throws -> CrashReport? {
        try repeating(input, of: program, stem: stem, argv0: argv0, runner: runner, limits: limits) { run, folder, options in
            var run = run
            run.signal = signal
            return probe.probe(run, in: folder, workingDirectory: folder, options: options)
        }
    }

    /// Runs `body` with the case prepared again in a fresh folder with the same inputs, limits and
    /// containment (gdb allowed more address space), for a run under the debugger.
    func repeating<T>(
        _ input: CaseInput, of program: CrashProbe.Program, stem: String, argv0: String?, runner: Runner, limits: CaseLimits,
        _ body: (CrashProbe.Run, String, LaunchOptions) -> T
    ) throws -> T {
        let limits = boundedFiles(lowered(limits, runner: runner))
        let workspace = try TemporaryDirectory(prefix: "case", environment: ["TMPDIR": scratch])
        defer { workspace.remove() }
        try handOver(workspace.path)
        var prepared = try prepare(
            input, in: workspace.path, seenAs: workspace.path, executable: program.executable, stem: stem, argv0: argv0, runner: runner,
            limits: limits)
        // gdb itself needs more room than the program alone.
        prepared.launch.limits.addressSpace = max(prepared.launch.limits.addressSpace ?? 0, 6 << 30)
        let scope = containment?.beginCase(processes: limits.resources.processes)
        defer { if let scope { _ = containment?.endCase(scope) } }
        prepared.launch.cgroupProcs = scope?.procsFile
        let run = CrashProbe.Run(
            program: program, argv0: argv0 ?? "./" + stem, arguments: input.arguments, environment: prepared.environment,
            runner: runner)
        // The case folder is the one the sandboxed qemu may create its gdbstub socket in.
        return body(run, workspace.path, prepared.launch)
    }

    private struct Prepared {
        var command: Command
        /// The program's environment (not qemu's).
        var environment: [String: String]
        var launch: LaunchOptions
        var inputs: [String: [UInt8]]
        var programPath: String
    }

    /// The case folder filled (at `workspace`; the case sees it at `seen`), and the command and
    /// its launch options.
    private func prepare(
        _ input: CaseInput, in workspace: String, seenAs seen: String, executable: String, length: Int? = nil, stem: String,
        argv0: String?, runner: Runner, limits: CaseLimits
    ) throws -> Prepared {
        let children = launcher.children
        let inputs = try CaseFiles.place(
            folder: input.fileFolder, files: input.files, in: workspace, stop: { children.isEnding }, handOver: handOver)
        var programPath = executable
        if case .custom = runner.kind {
            // A prefix runner sees `./name` in the case folder, so argv[0] is stable. A copy, not
            // a link: the case may write to its folder, and the file is the other cases' program.
            if (try? ExecutableFile.copy(executable, to: workspace + "/" + stem, length: length)) != nil {
                programPath = "./" + stem
            }
        }
        let environment = Self.environment(input.environment, home: seen)
        try runner.refuseSettingOfQemu(environment)
        var command = runner.command(
            executable: programPath, argv0: argv0 ?? "./" + stem, arguments: input.arguments, environment: environment)
        command.workingDirectory = seen
        var launch = LaunchOptions()
        launch.stdin = .bytes(input.stdin)
        launch.stdout = .capture(limit: limits.outputLimit)
        launch.stderr = .capture(limit: limits.outputLimit)
        launch.timeout = limits.timeout
        // No controlling terminal, in the crash report's second run too: nothing a case does
        // reaches the terminal asmrun runs in (its screen, or its input with TIOCSTI).
        launch.withoutTerminal = true
        let defaults = Self.defaultLimits(
            timeout: limits.timeout, processes: containment?.processLimit, native: runner.kind == .native)
        launch.limits = limits.resources.filled(from: defaults)
        // pids.max counts the case's processes; RLIMIT_NPROC would count every process of its
        // user on the host, root's cases beside it included (they run as one user).
        if containment?.countsProcessesInCgroups == true { launch.limits.processes = nil }
        launch.isolation = containment?.namespaces
        launch.confinement = containment?.confinement ?? Confinement()
        return Prepared(command: command, environment: environment, launch: launch, inputs: inputs, programPath: programPath)
    }

    /// Gives a case's folder, or a file put in it, to the user cases run as (see `CaseIdentity`).
    private func handOver(_ path: String) throws {
        guard containment?.handOver(path) ?? true else {
            throw FileError(
                path: path, problem: "cannot be given to the user cases run as (\(errorText()))", fix: "check the scratch folder (TMPDIR)")
        }
    }

    /// The fixed case environment, so output does not depend on who runs the suite or where.
    private static func environment(_ assignments: [String], home: String) -> [String: String] {
        var environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "PWD": home,
            "LANG": "C", "LC_ALL": "C", "TERM": "dumb",
        ]
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            environment[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return environment
    }
}
