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

    package init(caseNamespaces: Bool = false, dropCapabilities: Bool = false, seccomp: SeccompFilter? = nil) {
        self.caseNamespaces = caseNamespaces
        self.dropCapabilities = dropCapabilities
        self.seccomp = seccomp
    }
}
