/// A system call filter as the kernel's BPF program (`struct sock_filter` array), installed by the
/// spawner just before exec (or inherited from a case's warden). Which calls it refuses, and how it
/// is built, is the containment's (`Sandbox/SeccompFilter+Policy.swift`).
package struct SeccompFilter: Sendable, Equatable {
    /// The `struct sock_filter` array.
    package let program: [UInt8]

    package init(program: [UInt8]) { self.program = program }
}
