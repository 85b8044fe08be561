import Processes
import Support

/// Where and why a program died by a signal, as the debugger saw it when the run was repeated
/// under it: the faulting instruction's source line, the fault address and kind, the registers,
/// the frames, and hints for the classic mistakes.
package struct CrashReport: Sendable, Equatable {
    /// One register and its value.
    package struct Register: Sendable, Equatable {
        package var name: String
        package var value: UInt64

        init(name: String, value: UInt64) {
            self.name = name
            self.value = value
        }
    }

    /// One frame of the backtrace, innermost first.
    package struct Frame: Sendable, Equatable {
        package var function: String
        package var location: FileLocation?

        package init(function: String, location: FileLocation?) {
            self.function = function
            self.location = location
        }
    }

    package var signal: Int32
    /// The program, named in the headline when no line of it is known.
    package var program = ""
    /// The address the fault was about (`si_addr`), when the kernel reported one.
    package var address: UInt64?
    /// `reading`, `writing` or `executing`, from the instruction and the address.
    package var access: String?
    /// `not mapped` or `protected` (`si_code`), when the kernel reported it.
    package var mapping: String?
    /// The faulting instruction's source file and line.
    package var location: FileLocation?
    /// The program ran past the end of its code: `location` is the last line of it.
    package var ranPastEnd = false
    /// The text of that line, as it is in the source.
    package var sourceLine: String?
    /// The faulting instruction, in Intel syntax (`mov QWORD PTR [rax],rbx`).
    package var instruction: String?
    var instructionAddress: UInt64?
    package var registers: [Register] = []
    package var frames: [Frame] = []
    /// The library function the program called when it crashed inside one (`printf`), from its
    /// call instruction.
    package var calledFunction: String?
    /// The stack pointer just before that call.
    var stackPointerAtCall: UInt64?
    package var hints: [String] = []
    /// Registers are 32-bit (an elf32 program).
    package var thirtyTwoBit = false

    package init(signal: Int32) { self.signal = signal }

    package func register(_ name: String) -> UInt64? { registers.first { $0.name == name }?.value }

    /// The report as asmrun prints it: one headline naming the file and line, the source line,
    /// the registers four to a line, and the hints.
    package func rendered(program: String? = nil) -> String {
        var head =
            "asmrun: \(location?.description ?? program ?? self.program): \(Signal.name(of: signal)) (\(Signal.description(of: signal)))"
        if ranPastEnd { head += " past the end of the code" }
        if let address {
            head += (ranPastEnd ? ", " : " ") + (access.map { "\($0) address" } ?? "at address") + " 0x" + String(address, radix: 16)
            if let mapping { head += " (\(mapping))" }
        }
        var lines = [head]
        if let line = location?.line, let sourceLine { lines.append("    \(line) | \(sourceLine)") }
        if let instruction, location == nil || ranPastEnd {
            lines.append("    \(instructionAddress.map { "0x" + String($0, radix: 16) + ": " } ?? "")\(instruction)")
        }
        let width = thirtyTwoBit ? 8 : 16
        let shown = registers.map { register in
            let digits = String(register.value, radix: 16)
            let name = register.name + String(repeating: " ", count: max(0, 3 - register.name.count))
            return name + " 0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        for start in stride(from: 0, to: shown.count, by: 4) {
            lines.append("  " + shown[start..<min(start + 4, shown.count)].joined(separator: "  "))
        }
        // The calls that led there, when the program's own code had more than one level.
        let located = frames.filter { $0.location != nil }
        if located.count >= 2 {
            lines.append("  stack: " + located.prefix(6).map { "\($0.function) (\($0.location!))" }.joined(separator: " ← "))
        }
        lines += hints.map { "  hint: " + $0 }
        return lines.joined(separator: "\n")
    }
}
