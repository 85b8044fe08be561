import CAsmRunSpawn
import Glibc
import Processes
import Support

/// Creates the run's namespaces and finds, by starting `/bin/true` under each, the most
/// confining setup this host allows, so a kernel or security module that forbids a layer costs
/// one note, never a failure of every case.
struct NamespaceSetup {
    var namespaces: Namespaces?
    var confinement = Confinement()
    var layers: [ContainmentLayer] = []
    /// Why layers that were tried are not in use.
    var problems: [String] = []
    /// Cases get a /proc of their own PID namespace (not the host's).
    var privateProc = false

    /// ASMRUN_USER_NAMESPACES=0 makes a user's run behave as on a host that refuses unprivileged
    /// user namespaces (Ubuntu 24.04's AppArmor default, Docker's seccomp profile), so that tests
    /// can run that way where they work.
    static let userNamespacesRefused = getenv("ASMRUN_USER_NAMESPACES").map { String(cString: $0) == "0" } ?? false

    init(scratch: String, visible: [String], hidden: [String], root: Bool, isolate: Bool, launcher: any ProcessLaunching) {
        let seccomp = SeccompFilter.make()
        let filter = try? seccomp.get()
        if case .failure(let problem) = seccomp { problems.append("seccomp: \(problem)") }
        var chosen: (Namespaces?, Confinement)?
        let identity: CaseIdentity? = root ? .nobody : nil
        // Case folders read-only to all but their own case, then the scratch folder writable to
        // every case, then no namespaces: each with the most confinement that works.
        if !isolate { problems.append("--no-isolation") }
        let refused = !root && Self.userNamespacesRefused
        if refused && isolate { problems.append("unprivileged user namespaces refused (ASMRUN_USER_NAMESPACES=0)") }
        for writableScratch in [false, true] where chosen == nil && isolate && !refused {
            let made = Self.make(
                scratch: scratch, visible: visible, hidden: hidden, writable: writableScratch, root: root, problems: &problems)
            guard made.networkNamespace >= 0 || made.mountNamespace >= 0 else { break }
            let caseNamespaces = !writableScratch && made.mountNamespace >= 0
            // Another user reaches what it runs only through the view's covers (`cover_private`).
            let user = made.mountNamespace >= 0 ? identity : nil
            for candidate in Self.candidates(filter, caseNamespaces: caseNamespaces, identity: user) {
                switch Self.tryCase(made, candidate, folder: scratch, launcher: launcher) {
                case .success(let proc):
                    chosen = (made, candidate)
                    privateProc = proc
                case .failure(let problem):
                    problems.append(problem.problem)
                }
                if chosen != nil { break }
            }
            if chosen == nil { made.close() }
        }
        if chosen == nil {
            for candidate in Self.candidates(filter, caseNamespaces: false, identity: nil) {
                if case .success = Self.tryCase(nil, candidate, folder: scratch, launcher: launcher) {
                    chosen = (nil, candidate)
                    break
                }
            }
        }
        namespaces = chosen?.0
        confinement = chosen?.1 ?? Confinement()
        layers = Self.describe(namespaces, confinement, filter, privateProc: privateProc, root: root, problems: problems)
        layers.append(Self.describe(identity: confinement.identity, root: root, problems: problems))
    }

    /// The confinements worth trying, most confining first.
    private static func candidates(_ filter: SeccompFilter?, caseNamespaces: Bool, identity: CaseIdentity?) -> [Confinement] {
        var list: [Confinement] = []
        for own in caseNamespaces ? [true, false] : [false] {
            for seccomp in filter.map({ [$0, nil] }) ?? [nil] {
                for user in identity.map({ [$0, nil] }) ?? [nil] {
                    list.append(Confinement(caseNamespaces: own, dropCapabilities: true, seccomp: seccomp, identity: user))
                }
            }
        }
        return list
    }

    private static func make(
        scratch: String, visible: [String], hidden: [String], writable: Bool, root: Bool, problems: inout [String]
    ) -> Namespaces {
        var made = Namespaces()
        var step: UnsafePointer<CChar>?
        let paths = visible.map { strdup($0) }
        let covered = hidden.map { strdup($0) }
        defer { (paths + covered).forEach { free($0) } }
        let code = scratch.withCString { cScratch in
            paths.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
                covered.map { UnsafePointer($0) }.withUnsafeBufferPointer { hiddenList in
                    // As root, cases run as another user (`CaseIdentity`), who must reach what they run.
                    var view = asmrun_view(
                        scratch: cScratch, visible: list.baseAddress, visible_count: Int32(list.count),
                        scratch_writable: writable ? 1 : 0, cover_private: root ? 1 : 0, new_root: nil, writable: nil, writable_count: 0,
                        working_directory: nil, no_network: 0, shared_user_fd: -1, hidden: hiddenList.baseAddress,
                        hidden_count: Int32(hiddenList.count))
                    return asmrun_make_namespaces(
                        &view, root ? 0 : 1, &made.userNamespace, &made.networkNamespace, &made.mountNamespace, &step)
                }
            }
        }
        if code != 0 {
            problems.append("\(step.map { String(cString: $0) } ?? "namespaces") failed (\(errorText(code)))")
        }
        return made
    }

    /// Runs `true` as a case would run, in a folder of its own in `folder`; whether /proc was
    /// the case's own, or what went wrong.
    private static func tryCase(
        _ namespaces: Namespaces?, _ confinement: Confinement, folder scratch: String, launcher: any ProcessLaunching
    ) -> Result<Bool, LaunchError> {
        let folder = scratch + "/probe"
        mkdir(folder, 0o700)
        defer { rmdir(folder) }
        if let identity = confinement.identity { chown(folder, identity.uid, identity.gid) }
        var options = LaunchOptions()
        options.isolation = namespaces
        options.confinement = confinement
        options.timeout = 10
        do {
            let result = try launcher.run(Command("/bin/true", workingDirectory: folder), options: options)
            guard result.termination == .exited(0) else {
                return .failure(.spawnFailed("true ended with \(result.termination.summary)", errno: 0))
            }
            return .success(result.privateProc)
        } catch let error as LaunchError {
            return .failure(error)
        } catch {
            return .failure(.spawnFailed("\(error)", errno: 0))
        }
    }
}
