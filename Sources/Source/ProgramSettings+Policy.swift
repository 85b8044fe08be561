import Support

extension ProgramSettings {
    /// The directives that decide how a program is judged rather than how it is built: the
    /// verdict (`xfail`), whether it counts (`skip`), its limits (`timeout`, `limit`), how its
    /// runners run it (`qemu-cpu`, `argv0`). When a program is graded, only the reference and the
    /// command line may set them.
    static let policyDirectiveNames = ["argv0", "limit", "qemu-cpu", "skip", "timeout", "xfail"]

    /// The policy directives these settings hold, by name, sorted (`skip`, `xfail`).
    package var policyDirectives: [String] {
        var names: [String] = []
        if argv0 != nil { names.append("argv0") }
        if limits != ResourceLimits() || outputLimit != nil { names.append("limit") }
        if qemuCPU != nil { names.append("qemu-cpu") }
        if !skips.isEmpty { names.append("skip") }
        if timeout != nil { names.append("timeout") }
        if !expectedFailures.isEmpty { names.append("xfail") }
        return names
    }

    /// Replaces every policy setting with `policy`'s, keeping what shapes the build (format,
    /// link mode, sources, flags, definitions, include folders).
    package mutating func adoptPolicy(of policy: ProgramSettings) {
        argv0 = policy.argv0
        limits = policy.limits
        outputLimit = policy.outputLimit
        qemuCPU = policy.qemuCPU
        skips = policy.skips
        timeout = policy.timeout
        expectedFailures = policy.expectedFailures
    }
}
