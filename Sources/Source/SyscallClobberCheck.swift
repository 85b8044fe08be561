import Support

/// On x86 hardware `syscall` overwrites rcx (with the address of the next instruction) and r11
/// (with RFLAGS); qemu-user 7.2 leaves both as they were. A program that reads either after a
/// syscall before writing it (a loop counter kept in rcx, an exit status taken from r11) behaves
/// differently natively and under emulation: a loop that ends under qemu never ends on the x86
/// grader. qemu cannot be changed and the executable must stay the classic build's, so asmrun
/// says so at build time, naming the line that reads the register and the syscall before it.
///
/// The check reads the program's 64-bit sources (with what they include, macros expanded) and
/// follows the code from each syscall (`SyscallPaths`). It is made to be silent rather than
/// wrong: where it cannot tell (an indirect jump, an external call, a condition of the
/// preprocessor it cannot decide), it stops following.
package enum SyscallClobberCheck {
    /// Part of the key of every cached executable, whose entry keeps these warnings: a change
    /// in what the check finds changes it, so no entry replays an older check's warnings.
    package static let version = "syscall-check-1"

    /// Warnings shown at most per program (GitHub shows ten per step anyway).
    static let shownLimit = 20

    /// The warnings as a build step prints them, one `file:line: warning:` line each: asmrun's
    /// own, made on a cold build only; kept in the cache entry with the tools' warnings, they are
    /// replayed with them on every hit.
    package static func buildOutput(for program: Program, format: ObjectFormat) -> String {
        // Appended, not `joined`: its generic use costs a cold run's first call a type lookup.
        var text = ""
        for warning in warnings(for: program, format: format) { text += warning.rendered + "\n" }
        return text
    }

    /// The warnings for `program` built as `format` (none for elf32: `syscall` is 64-bit code,
    /// and `int 0x80` leaves rcx and r11 alone), in the order of the files and lines they name.
    package static func warnings(for program: Program, format: ObjectFormat) -> [EmulationWarning] {
        guard format == .elf64 else { return [] }
        var contents: [String: [UInt8]] = [:]
        var (mentioned, counter) = (false, false)
        for source in program.assembly {
            for path in [source.path] + (program.dependencies[source.path] ?? []).compactMap(\.path) where contents[path] == nil {
                guard let bytes = try? Files.read(path) else { continue }
                contents[path] = bytes
                mentioned = mentioned || mentionsSyscall(bytes)
                counter = counter || mentionsCounter(bytes)
            }
        }
        // No syscall, or no word that reads rcx or r11: nothing to follow (hello.asm is read in
        // 10 µs instead of preprocessed in 200).
        guard mentioned && counter else { return [] }
        return warnings(listing(program, contents: contents))
    }

    /// The warnings for sources given as text (their paths name them), for tests.
    static func warnings(sources: [(path: String, text: String)], includes: [String: String] = [:]) -> [EmulationWarning] {
        var listing = Listing()
        for (unit, source) in sources.enumerated() {
            var reader = Preprocessor(listing: listing, unit: unit, defines: [], includes: includes)
            reader.process(path: source.path, bytes: Array(source.text.utf8))
            reader.finish()
            listing = reader.listing
        }
        listing.resolve()
        return warnings(listing)
    }

    private static func listing(_ program: Program, contents: [String: [UInt8]]) -> Listing {
        var listing = Listing()
        for (unit, source) in program.assembly.enumerated() {
            var includes: [String: String] = [:]
            for dependency in program.dependencies[source.path] ?? [] where includes[dependency.name] == nil {
                if let path = dependency.path { includes[dependency.name] = path }
            }
            var defines = program.settings.defines
            if source.path != program.main.path { defines += source.settings.defines }
            var reader = Preprocessor(listing: listing, unit: unit, defines: defines, includes: includes, contents: contents)
            if let bytes = contents[source.path] {
                reader.process(path: source.path, bytes: bytes)
                reader.finish()
            }
            listing = reader.listing
        }
        listing.resolve()
        return listing
    }

    private static func warnings(_ listing: Listing) -> [EmulationWarning] {
        var paths = SyscallPaths(listing)
        var seen: Set<[Int32]> = []
        var shown: [(key: [Int32], warning: EmulationWarning)] = []
        for finding in paths.findings() {
            let read = listing.instructions[Int(finding.read)]
            guard seen.insert([read.file, read.line, Int32(finding.register.rawValue)]).inserted else { continue }
            shown.append(([read.file, read.line], warning(finding, listing)))
        }
        shown.sort { $0.key.lexicographicallyPrecedes($1.key) }
        var result = shown.prefix(shownLimit).map(\.warning)
        if shown.count > shownLimit, let last = result.last {
            result.append(
                EmulationWarning(
                    path: last.path, line: last.line,
                    message:
                        "and \(shown.count - shownLimit) more reads of rcx or r11 after a syscall, which pass under emulation and fail natively"
                ))
        }
        return result
    }

    private static func warning(_ finding: SyscallPaths.Finding, _ listing: Listing) -> EmulationWarning {
        let read = listing.instructions[Int(finding.read)]
        let use = read[finding.register]
        let full = finding.register == .rcx ? "rcx" : "r11"
        let name = use.spelling > 0 ? RegisterNames.spellings[Int(use.spelling)] : full
        var reader = use.spelling == 0 ? " by `\(listing.mnemonics[Int(read.mnemonic)])`" : ""
        if read.macro >= 0 { reader += " (in macro `\(listing.macros[Int(read.macro)])`)" }
        var syscall = place(listing.instructions[Int(finding.syscall)], listing)
        if finding.via >= 0 { syscall += ", returned to after the call at " + place(listing.instructions[Int(finding.via)], listing) }
        let location = listing.instructions[Int(finding.read)]
        let message =
            switch finding.register {
            case .rcx:
                "\(name) is read here\(reader) after the syscall at \(syscall), which overwrites \(name == full ? "it" : "rcx") on x86 "
                    + "hardware (with the return address); qemu leaves it, so this passes under emulation and fails natively: "
                    + "keep the counter in another register or save it around the syscall"
            case .r11:
                "\(name) is read here\(reader) after the syscall at \(syscall); r11 holds RFLAGS after a syscall on hardware, "
                    + "and qemu leaves its old value, so this passes under emulation and fails natively: keep the value in "
                    + "another register or save it around the syscall"
            }
        return EmulationWarning(path: listing.files[Int(location.file)], line: Int(location.line), message: message)
    }

    /// `file:line`, with the macro the instruction came from.
    private static func place(_ instruction: Instruction, _ listing: Listing) -> String {
        let here = "\(listing.files[Int(instruction.file)].displayEscaped):\(instruction.line)"
        return instruction.macro >= 0 ? here + " (in macro `\(listing.macros[Int(instruction.macro)])`)" : here
    }

    /// Whether `syscall` appears in the bytes, in any case.
    static func mentionsSyscall(_ bytes: [UInt8]) -> Bool { WordSearch.contains(Array("syscall".utf8), in: bytes) }
}
