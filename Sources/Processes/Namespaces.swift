import Glibc

/// Descriptors of the namespaces every case enters, prepared once per run.
package struct Namespaces: Sendable, Equatable {
    /// An unprivileged user namespace that owns the others (when asmrun is not root), or -1.
    package var userNamespace: Int32 = -1
    /// A network namespace without interfaces, or -1.
    package var networkNamespace: Int32 = -1
    /// The mount namespace cases see (copied per case when they get namespaces of their own), or -1.
    package var mountNamespace: Int32 = -1

    package init() {}

    package func close() {
        for fd in [userNamespace, networkNamespace, mountNamespace] where fd >= 0 { Glibc.close(fd) }
    }
}
