import CAsmRunSpawn

/// What holds one case beyond the run's namespaces (see `Containment`).
package struct Confinement: Sendable, Equatable {
    /// New PID, IPC, UTS and mount namespaces per case, with an init as PID 1; the case's
    /// working directory is the one folder it may write to.
    package var caseNamespaces = false
    /// No capabilities, and none an exec could give back: no_new_privs, and locked securebits
    /// (or else an empty bounding set).
    package var dropCapabilities = false
    /// The system call filter: installed just before exec, or inherited from the case's warden.
    package var seccomp: SeccompFilter?
    /// The unprivileged user cases run as when asmrun is root (with `dropCapabilities`).
    package var identity: CaseIdentity?

    /// Where a case with namespaces of its own sees its folder, its working directory, HOME and
    /// TMPDIR: one path in every run and worker, so a program printing it gives the same output
    /// each time (the folder itself is the scratch folder's `warden-N` or `case-XXXXXX`).
    package static let caseView = ASMRUN_CASE_VIEW

    package init(
        caseNamespaces: Bool = false, dropCapabilities: Bool = false, seccomp: SeccompFilter? = nil, identity: CaseIdentity? = nil
    ) {
        self.caseNamespaces = caseNamespaces
        self.dropCapabilities = dropCapabilities
        self.seccomp = seccomp
        self.identity = identity
    }
}

/// The user and group a case of root's runs as, without supplementary groups: files only root
/// may read (mode 0600: /etc/shadow, /root/.ssh, an autograder's sources) are closed to it. Its
/// folder is handed to it (`chown`), and the executables it runs are reached through the view
/// (see `asmrun_view.cover_private`).
package struct CaseIdentity: Sendable, Equatable {
    package var uid: UInt32
    package var gid: UInt32

    /// `nobody` and `nogroup` (65534), the unprivileged user every Linux distribution reserves:
    /// no file of the system belongs to it, and a case's processes are alone in their PID
    /// namespace, so sharing the user with other `nobody` processes of the host gives no reach.
    package static let nobody = CaseIdentity(uid: 65534, gid: 65534)

    /// `uid:gid` as doctor prints it.
    package var description: String { "\(uid):\(gid)" }
}
