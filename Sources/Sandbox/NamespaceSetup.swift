import CAsmRunSpawn
import Glibc
import Support

/// Descriptors of the namespaces every case enters, prepared once per run.
package struct Namespaces: Sendable, Equatable {
    /// An unprivileged user namespace that owns the other two (when asmrun is not root), or -1.
    package var userNamespace: Int32 = -1
    /// A network namespace without interfaces, or -1.
    package var networkNamespace: Int32 = -1
    /// A mount namespace where only the scratch folder is writable, or -1.
    package var mountNamespace: Int32 = -1

    func close() {
        for fd in [userNamespace, networkNamespace, mountNamespace] where fd >= 0 { Glibc.close(fd) }
    }
}

/// Creates the namespaces and tries entering them once, so a security module that forbids
/// entering costs one note, not a failure of every case.
struct NamespaceSetup {
    var namespaces: Namespaces?
    var active: [String] = []
    var notes: [String] = []

    init(writable: String, root: Bool, launcher: any ProcessLaunching) {
        var made = Namespaces()
        var step: UnsafePointer<CChar>?
        let code = writable.withCString {
            asmrun_make_namespaces(
                $0, root ? 0 : 1, &made.userNamespace, &made.networkNamespace, &made.mountNamespace, &step)
        }
        if made.networkNamespace >= 0 || made.mountNamespace >= 0 {
            if let problem = Self.tryEntering(made, launcher: launcher) {
                made.close()
                made = Namespaces()
                notes.append("isolation unavailable: entering the namespaces failed (\(problem))")
            } else {
                namespaces = made
            }
        }
        let how = root ? "" : ", inside an unprivileged user namespace"
        if made.networkNamespace >= 0 { active.append("no network (a network namespace without interfaces\(how))") }
        if made.mountNamespace >= 0 { active.append("read-only file system except the case folders (a mount namespace\(how))") }
        if code != 0 {
            let what = step.map { String(cString: $0) } ?? "namespaces"
            let reason = "\(what) failed (\(errorText(code)))"
            notes.append(
                namespaces == nil
                    ? "isolation unavailable: \(reason); cases run with the network and file system of \(root ? "root" : "the user")"
                    : "isolation incomplete: \(reason)")
        }
    }

    /// Runs `true` inside the namespaces; `nil` when that works, else what went wrong.
    private static func tryEntering(_ namespaces: Namespaces, launcher: any ProcessLaunching) -> String? {
        var options = LaunchOptions()
        options.isolation = namespaces
        options.timeout = 10
        do {
            let result = try launcher.run(Command("/bin/true"), options: options)
            return result.termination == .exited(0) ? nil : "true ended with \(result.termination.summary)"
        } catch {
            return "\(error)"
        }
    }
}
