import CAsmRunSpawn
import Glibc
import Processes
import Support
import Synchronization

/// The wardens of a run's worker threads, one per thread; `enabled` until one fails to start
/// (the cases then get inits of their own, as before).
final class WardenTable: Sendable {
    private let table = Mutex<[pthread_t: Warden]>([:])
    private let failed = Atomic<Bool>(false)

    /// ASMRUN_WARDENS=0 gives every case an init of its own (what hosts without wardens do),
    /// so that tests can run that way where wardens work.
    static let allowed = getenv("ASMRUN_WARDENS").map { String(cString: $0) != "0" } ?? true

    var enabled: Bool { Self.allowed && !failed.load(ordering: .relaxed) }

    /// One failed to start: the rest of the run gives each case an init of its own (as safe,
    /// only slower), so nothing more is said.
    func disable() { failed.store(true, ordering: .relaxed) }

    func current() -> Warden? { table.withLock { $0[pthread_self()] } }

    func set(_ warden: Warden?) { table.withLock { $0[pthread_self()] = warden } }

    func removeAll() -> [Warden] {
        table.withLock { table in
            defer { table.removeAll() }
            return Array(table.values)
        }
    }
}

extension Containment {
    /// The calling thread's warden, ready for a case allowed `processes` processes (or the
    /// default); `nil` where cases get inits of their own: without case namespaces, with
    /// ASMRUN_WARDENS=0, or once a warden failed to start.
    package func warden(processes: Int? = nil) -> Warden? {
        guard wardens.enabled, confinement.caseNamespaces, let namespaces else { return nil }
        let limit = cgroups == nil ? nil : (processes ?? Self.maxProcesses) + 1
        if let warden = wardens.current() {
            if warden.isAlive {
                if let limit, let cgroup = warden.cgroup, warden.maxProcesses != limit, cgroups?.setMaxProcesses(limit, in: cgroup) == true
                {
                    warden.maxProcesses = limit
                }
                if warden.maxProcesses == limit { return warden }
            }
            retire(warden)
            wardens.set(nil)
        }
        let warden = startWarden(namespaces, limit: limit)
        wardens.set(warden)
        return warden
    }

    /// Ends a warden and removes its folder and cgroup.
    func retire(_ warden: Warden) {
        warden.retire()
        rmdir(warden.made)
        if let cgroup = warden.cgroup { _ = cgroups?.killAll(in: cgroup, keepingWith: nil) }
    }

    private func startWarden(_ namespaces: Namespaces, limit: Int?) -> Warden? {
        let index = counter.add(1, ordering: .relaxed).newValue
        let folder = writable + "/warden-\(index)"
        guard mkdir(folder, 0o700) == 0, handOver(folder) else {
            wardens.disable()
            return nil
        }
        let cgroup = limit.flatMap { cgroups?.makeCase(index, maxProcesses: $0) }
        if limit != nil && cgroup == nil {
            rmdir(folder)
            wardens.disable()
            return nil
        }
        var started = asmrun_warden()
        var step = ASMRUN_STEP_NONE
        let code = start(&started, &step, folder: folder, cgroup: cgroup, namespaces: namespaces)
        // asmrun reaches the warden's tmpfs through its root; the descriptor keeps it, and the
        // files in it, after the warden ended (a case that timed out ends it).
        let reach = code == 0 ? open("/proc/\(started.pid)/root" + Confinement.caseView, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
        guard code == 0, reach >= 0 else {
            if code == 0 {
                kill(started.pid, SIGKILL)
                while waitpid(started.pid, nil, 0) < 0 && errno == EINTR {}
                asmrun_release_init_stack(started.stack)
                Glibc.close(started.socket)
            }
            rmdir(folder)
            if let cgroup { _ = cgroups?.killAll(in: cgroup, keepingWith: nil) }
            wardens.disable()
            return nil
        }
        return Warden(
            started, folder: Confinement.caseView, made: folder, reach: reach, bytes: folderBytes, cgroup: cgroup, maxProcesses: limit)
    }

    private func start(
        _ started: inout asmrun_warden, _ step: inout asmrun_step, folder: String, cgroup: String?, namespaces: Namespaces
    ) -> Int32 {
        let argv = CStringArray(["asmrun-warden"])
        defer { argv.free() }
        // Its cases see the folder, its tmpfs, at Confinement.caseView.
        let paths = CStringArray([folder, Confinement.caseView])
        defer { paths.free() }
        let cFolder = UnsafePointer(paths.pointer[0]), view = UnsafePointer(paths.pointer[1])
        return withOptionalCString(cgroup.flatMap { cgroup in cgroups?.joinPath(of: cgroup) }) { cProcs in
            var request = asmrun_spawn_request()
            request.path = UnsafePointer(argv.pointer[0])
            request.argv = UnsafePointer(argv.pointer)
            request.cwd = cFolder
            request.case_folder = cFolder
            request.case_view = view
            request.case_folder_bytes = Int64(folderBytes)
            request.case_folder_inodes = Int64(Self.folderInodes)
            request.stdin_fd = -1
            request.stdout_fd = -1
            request.stderr_fd = -1
            request.new_process_group = 1
            // Its cases have no controlling terminal.
            request.detach_terminal = 1
            request.cgroup_procs = cProcs
            request.user_ns_fd = namespaces.userNamespace
            request.net_ns_fd = namespaces.networkNamespace
            request.mnt_ns_fd = namespaces.mountNamespace
            request.case_namespaces = 1
            request.drop_capabilities = confinement.dropCapabilities ? 1 : 0
            request.take(confinement.identity)
            guard let filter = confinement.seccomp?.program else {
                return SpawnGate.spawning { asmrun_warden_start(&request, &started, &step) }
            }
            return filter.withUnsafeBytes { bytes in
                request.seccomp_filter = bytes.baseAddress
                request.seccomp_length = UInt16(bytes.count / 8)
                return SpawnGate.spawning { asmrun_warden_start(&request, &started, &step) }
            }
        }
    }
}
