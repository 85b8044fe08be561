import Run
import Source

extension DoctorCommand {
    /// The binfmt_misc registry: mounted or not, and each x86 handler with its switch and interpreter.
    static func binfmtLines(_ registry: BinfmtMisc) -> [String] {
        guard registry.mounted else {
            return [
                "binfmt_misc: not mounted at \(registry.folder) "
                    + "(`mount -t binfmt_misc binfmt_misc \(registry.folder)` to use registered x86 handlers)"
            ]
        }
        var lines = ["binfmt_misc: \(registry.folder), \(registry.enabled ? "enabled" : "disabled")"]
        let x86 = registry.handlers.filter { handler in ObjectFormat.allCases.contains { handler.claims($0) } }
        for handler in x86 {
            let machines = ObjectFormat.allCases.filter { handler.claims($0) }.map(\.machineName).joined(separator: ", ")
            let flags = handler.flags.isEmpty ? "" : ", flags \(handler.flags)"
            lines.append(
                "  \(handler.name): \(handler.enabled ? "enabled" : "disabled"), \(machines), interpreter \(handler.interpreter)\(flags)")
        }
        let others = registry.handlers.count - x86.count
        if x86.isEmpty { lines.append("  no x86 handler registered") }
        if others > 0 { lines.append("  (\(others) handler\(others == 1 ? "" : "s") for other kinds of files)") }
        return lines
    }
}
