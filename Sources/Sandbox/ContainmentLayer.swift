/// One layer of containment as `asmrun doctor` lists it: pid, ipc, uts, net, mount, caps,
/// seccomp or cgroup, active (what it does) or not (why).
package struct ContainmentLayer: Sendable, Equatable {
    package let name: String
    package let active: Bool
    /// What it does, or why it is not available.
    package let detail: String

    static func on(_ name: String, _ detail: String) -> Self { Self(name: name, active: true, detail: detail) }
    static func off(_ name: String, _ detail: String) -> Self { Self(name: name, active: false, detail: detail) }

    /// `name: detail` as doctor prints it.
    var line: String { "\(name): \(detail)" }
}
