import CAsmRunSpawn
import Foundation
import Glibc

/// Starts children with vfork+exec (signal defaults, empty mask, core size 0, rlimits) and
/// supervises them with one `poll` loop on the calling thread: pipes, a pidfd and the deadline.
public struct PosixLauncher: ProcessLaunching {
    private let locator: ExecutableLocator

    /// Creates a launcher that resolves bare names on `path`.
    public init(path: String?) {
        locator = ExecutableLocator(path: path)
        asmrun_ignore_sigpipe()
    }

    /// Runs one child to completion.
    public func run(_ command: Command, options: LaunchOptions) throws -> ProcessResult {
        guard let executable = locator.find(command.executable) else {
            throw LaunchError.notFound(command.executable)
        }
        var pipes = try ChildPipes(options: options)
        defer { pipes.closeAll() }
        let start = monotonicSeconds()
        let pid = try spawn(executable, command, options, pipes)
        pipes.closeChildEnds()
        defer { ActiveChildren.shared.remove(pid) }
        var supervisor = Supervisor(pid: pid, options: options, pipes: pipes, start: start)
        let result = supervisor.run()
        pipes = supervisor.pipes
        return result
    }

    private func spawn(
        _ path: String, _ command: Command, _ options: LaunchOptions, _ pipes: ChildPipes
    ) throws -> pid_t {
        let argv = CStringArray([command.argv0 ?? command.executable] + command.arguments)
        let envp = command.environment.map { env in
            CStringArray(env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        }
        defer {
            argv.free()
            envp?.free()
        }
        var pid: pid_t = 0
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
                    request.cgroup_procs = cgroup
                    request.user_ns_fd = options.isolation?.userNamespace ?? -1
                    request.net_ns_fd = options.isolation?.networkNamespace ?? -1
                    request.mnt_ns_fd = options.isolation?.mountNamespace ?? -1
                    request.limits = options.limits.cLimits
                    return SpawnGate.shared.spawning {
                        let code = asmrun_spawn(&request, &pid)
                        if code == 0 { ActiveChildren.shared.insert(pid, group: options.newProcessGroup) }
                        return code
                    }
                }
            }
        }
        guard code == 0 else {
            if code == ENOENT, let cwd = command.workingDirectory,
                !FileManager.default.fileExists(atPath: cwd)
            {
                throw LaunchError.spawnFailed("\(command.executable) in \(cwd)", errno: code)
            }
            throw LaunchError.spawnFailed(command.executable, errno: code)
        }
        return pid
    }
}

extension ResourceLimits {
    var cLimits: asmrun_limits {
        func value(_ limit: Int?) -> Int64 { limit.map(Int64.init) ?? -1 }
        return asmrun_limits(
            address_space: value(addressSpace), file_size: value(fileSize),
            cpu_seconds: value(cpuSeconds), processes: value(processes),
            open_files: value(openFiles))
    }
}

/// A NULL-terminated `char *[]` owned until `free()`.
struct CStringArray {
    let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointer = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointer[index] = strdup(string) }
        pointer[strings.count] = nil
    }

    func free() {
        for index in 0..<count { Glibc.free(pointer[index]) }
        pointer.deallocate()
    }
}

func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
