import CAsmRunSpawn
import Glibc
import Support

/// Starts children with vfork+exec (signal defaults, empty mask, core size 0, rlimits) and
/// supervises them with one `poll` loop on the calling thread: pipes, a pidfd and the deadline.
package struct PosixLauncher: ProcessLaunching {
    private let locator: ExecutableLocator
    package let children: ChildRegistry

    /// A launcher that resolves bare names on `path` and registers its children in `children`.
    package init(path: String?, children: ChildRegistry = ChildRegistry()) {
        locator = ExecutableLocator(path: path)
        self.children = children
        asmrun_ignore_sigpipe()
    }

    package func run(_ command: Command, options: LaunchOptions) throws -> ProcessResult {
        guard let executable = locator.find(command.executable) else {
            throw LaunchError.notFound(command.executable)
        }
        var pipes = try ChildPipes(options: options)
        defer { pipes.closeAll() }
        let start = monotonicSeconds()
        // asmrun_spawn closes the status pipe's write end, whatever happens.
        let statusWriter = pipes.statusWriter
        pipes.statusWriter = -1
        let (pid, privateProc, initStack) = try spawn(executable, command, options, pipes, statusWriter: statusWriter)
        pipes.closeChildEnds()
        var supervisor = Supervisor(pid: pid, options: options, pipes: pipes, start: start)
        var result = supervisor.run()
        // The supervisor reaped the init: nothing runs on its stack any more (a warden's is its own).
        asmrun_release_init_stack(initStack)
        result.privateProc = privateProc
        pipes = supervisor.pipes
        result.interrupted = children.remove(pid)
        return result
    }

    private func spawn(
        _ path: String, _ command: Command, _ options: LaunchOptions, _ pipes: ChildPipes, statusWriter: Int32
    ) throws -> (pid_t, Bool, UnsafeMutableRawPointer?) {
        let argv = CStringArray([command.argv0 ?? command.executable] + command.arguments)
        let envp = command.environment.map { env in
            CStringArray(env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        }
        defer {
            argv.free()
            envp?.free()
        }
        var pid: pid_t = 0
        var initStack: UnsafeMutableRawPointer?
        var step = ASMRUN_STEP_NONE
        var privateProc: Int32 = 0
        let code: Int32 = path.withCString { cPath in
            withOptionalCString(command.workingDirectory) { cwd in
                withOptionalCString(options.cgroupProcs) { cgroup in
                    var request = asmrun_spawn_request()
                    request.path = cPath
                    request.argv = UnsafePointer(argv.pointer)
                    request.envp = envp.map { UnsafePointer($0.pointer) }
                    request.cwd = cwd
                    request.stdin_fd = pipes.childStdin
                    request.stdout_fd = pipes.childStdout
                    request.stderr_fd = pipes.childStderr
                    request.new_process_group = options.newProcessGroup ? 1 : 0
                    request.detach_terminal = options.withoutTerminal ? 1 : 0
                    request.cgroup_procs = cgroup
                    request.enter(options.isolation, ownPIDNamespace: options.ownPIDNamespace)
                    request.limits = options.limits.cLimits
                    request.known_limits = asmrun_process_limits()
                    request.status_write_fd = statusWriter
                    return withConfinement(options, pipes, &request, &privateProc) { request in
                        SpawnGate.spawning {
                            let code: Int32
                            if let warden = options.warden {
                                code = warden.spawn(&request, &step)
                                pid = warden.pid
                            } else {
                                code = asmrun_spawn(&request, &pid, &initStack, &step)
                            }
                            if code == 0 { children.insert(pid, group: options.newProcessGroup) }
                            return code
                        }
                    }
                }
            }
        }
        guard code == 0 else {
            let environment = command.environment.map { $0.map { "\($0.key)=\($0.value)" } } ?? Self.inheritedEnvironment()
            if code == E2BIG, let what = ArgumentSpace.problem(arguments: command.arguments, environment: environment) {
                throw LaunchError.tooLarge(command.executable, what: what)
            }
            throw LaunchError.spawnFailed(Self.describe(step, command), errno: code)
        }
        return (pid, privateProc != 0, initStack)
    }

    /// Fills in the case namespaces, capabilities and filter for the duration of `body`.
    private func withConfinement(
        _ options: LaunchOptions, _ pipes: ChildPipes, _ request: inout asmrun_spawn_request, _ privateProc: inout Int32,
        _ body: (inout asmrun_spawn_request) -> Int32
    ) -> Int32 {
        let confinement = options.confinement
        request.proc_mounted = withUnsafeMutablePointer(to: &privateProc) { $0 }
        request.case_namespaces = confinement.caseNamespaces ? 1 : 0
        request.case_folder = request.cwd
        guard let folder = options.caseFolder, confinement.caseNamespaces else {
            return withFilter(confinement, pipes, &request, body)
        }
        // The case sees its folder (the host's `folder`) at its working directory.
        return folder.withCString { folder in
            request.case_view = request.cwd
            request.case_folder = folder
            return withFilter(confinement, pipes, &request, body)
        }
    }

    private func withFilter(
        _ confinement: Confinement, _ pipes: ChildPipes, _ request: inout asmrun_spawn_request,
        _ body: (inout asmrun_spawn_request) -> Int32
    ) -> Int32 {
        request.status_read_fd = pipes.statusReader
        request.drop_capabilities = confinement.dropCapabilities ? 1 : 0
        request.take(confinement.identity)
        guard let filter = confinement.seccomp?.program else { return body(&request) }
        return filter.withUnsafeBytes { bytes in
            request.seccomp_filter = bytes.baseAddress
            request.seccomp_length = UInt16(bytes.count / 8)
            return body(&request)
        }
    }

    /// asmrun's own environment, which a command without one inherits.
    private static func inheritedEnvironment() -> [String] {
        var assignments: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            assignments.append(String(cString: pointer))
            entry += 1
        }
        return assignments
    }

    /// What was being started, and the step before `exec` that failed, if it was not `exec`.
    private static func describe(_ step: asmrun_step, _ command: Command) -> String {
        let name = command.executable
        switch step {
        case ASMRUN_STEP_FORK: return "\(name): fork failed"
        case ASMRUN_STEP_PROCESS_GROUP: return "\(name): no process group of its own, or asmrun's terminal kept"
        case ASMRUN_STEP_CGROUP: return "\(name): joining its cgroup failed"
        case ASMRUN_STEP_USER_NAMESPACE: return "\(name): entering the user namespace failed"
        case ASMRUN_STEP_NETWORK_NAMESPACE: return "\(name): entering the network namespace failed"
        case ASMRUN_STEP_MOUNT_NAMESPACE: return "\(name): entering the mount namespace failed"
        case ASMRUN_STEP_STDIO: return "\(name): redirecting its standard streams failed"
        case ASMRUN_STEP_WORKING_DIRECTORY: return "\(name) in \(command.workingDirectory ?? ".")"
        case ASMRUN_STEP_CASE_NAMESPACES: return "\(name): making its PID, IPC, UTS and mount namespaces failed"
        case ASMRUN_STEP_CASE_MOUNTS: return "\(name): making its folder writable or its /proc failed"
        case ASMRUN_STEP_CAPABILITIES: return "\(name): dropping its capabilities failed"
        case ASMRUN_STEP_SECCOMP: return "\(name): installing its system call filter failed"
        case ASMRUN_STEP_INIT: return "\(name): its namespace's init ended before starting it"
        case ASMRUN_STEP_IDENTITY: return "\(name): becoming the unprivileged user cases run as failed"
        case ASMRUN_STEP_PID_NAMESPACE: return "\(name): making its PID namespace failed"
        default: return name
        }
    }
}

extension asmrun_spawn_request {
    /// Enters `namespaces` (those it has), then, with `ownPIDNamespace`, a PID namespace of its own.
    mutating func enter(_ namespaces: Namespaces?, ownPIDNamespace: Bool) {
        user_ns_fd = namespaces?.userNamespace ?? -1
        net_ns_fd = namespaces?.networkNamespace ?? -1
        mnt_ns_fd = namespaces?.mountNamespace ?? -1
        new_pid_namespace = ownPIDNamespace ? 1 : 0
    }

    /// Runs the program as `identity` (see `CaseIdentity`), when there is one.
    package mutating func take(_ identity: CaseIdentity?) {
        guard let identity else { return }
        switch_identity = 1
        identity_uid = identity.uid
        identity_gid = identity.gid
    }
}

extension ResourceLimits {
    var cLimits: asmrun_limits {
        func value(_ limit: Int?) -> Int64 { limit.map(Int64.init) ?? -1 }
        return asmrun_limits(
            address_space: value(addressSpace), file_size: value(fileSize),
            cpu_seconds: value(cpuSeconds), processes: value(processes),
            open_files: value(openFiles), stack: value(stack))
    }
}
