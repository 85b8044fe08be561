/// What holds one case beyond the run's namespaces (see `Containment`).
package struct Confinement: Sendable, Equatable {
    /// New PID, IPC, UTS and mount namespaces per case, with an init as PID 1; the case's
    /// working directory is the one folder it may write to.
    package var caseNamespaces = false
    /// No capabilities (bounding set included) and no_new_privs.
    package var dropCapabilities = false
    /// The system call filter installed just before exec.
    package var seccomp: SeccompFilter?

    package init(caseNamespaces: Bool = false, dropCapabilities: Bool = false, seccomp: SeccompFilter? = nil) {
        self.caseNamespaces = caseNamespaces
        self.dropCapabilities = dropCapabilities
        self.seccomp = seccomp
    }
}

/// One layer of containment as `asmrun doctor` lists it: pid, ipc, uts, net, mount, caps,
/// seccomp or cgroup, active (what it does) or not (why).
package struct ContainmentLayer: Sendable, Equatable {
    package let name: String
    package let active: Bool
    /// What it does, or why it is not available.
    package let detail: String

    package static func on(_ name: String, _ detail: String) -> Self { Self(name: name, active: true, detail: detail) }
    package static func off(_ name: String, _ detail: String) -> Self { Self(name: name, active: false, detail: detail) }

    /// `name: detail` as doctor prints it.
    package var line: String { "\(name): \(detail)" }
}
