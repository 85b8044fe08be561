import Support

/// The calling convention's rules a failed program is checked against, from what it did at the
/// breakpoints of `AbiSites`: a function called from C returns with a callee-saved register
/// changed; the stack pointer is not a multiple of 16 at a `call` into C (elf64); the stack
/// pointer at `ret` is not what it was at the function's entry. Silent where it cannot tell: a
/// `ret` that matches no call it saw (a callback from libc, a `ret` from `_start`) is not judged.
struct AbiCheck {
    let sites: [AbiSites.Site]
    let thirtyTwoBit: Bool
    /// What starts each stop's line: natively the program's output shares gdb's, so a run's own
    /// marker (`AbiProbe` adds a random one) keeps a program from printing stops of its own.
    var marker = "@@abi"

    /// One stop at a site: its index, then the stack pointer, the word at it and the callee-saved registers.
    struct Stop: Sendable, Equatable {
        var site: Int
        var values: [UInt64]
    }

    private struct Frame {
        /// The stack pointer at the function's first instruction (pointing at the return address).
        var entry: UInt64
        var returnAddress: UInt64
        var name: String?
        /// The callee-saved registers at entry, for a function C called; `nil` otherwise.
        var saved: [UInt64]?
        /// A call into C, ended by its return to `returnAddress`.
        var external = false
    }

    var savedNames: [String] { thirtyTwoBit ? ["ebx", "esi", "edi", "ebp"] : ["rbx", "rbp", "r12", "r13", "r14", "r15"] }
    private var word: UInt64 { thirtyTwoBit ? 4 : 8 }

    /// The gdb commands that set one breakpoint at each address of a site, printing
    /// `MARKER INDEX SP [SP] SAVED…` for each of its sites in order, and going on. One breakpoint
    /// per address, not per site: of two breakpoints at one address gdb runs only the first's
    /// commands once they `continue` (a `call` right after a call's return, a function that
    /// starts with a `call`).
    var script: String {
        var order: [UInt64] = []
        var atAddress: [UInt64: [Int]] = [:]
        for (index, site) in sites.enumerated() {
            if atAddress[site.address] == nil { order.append(site.address) }
            atAddress[site.address, default: []].append(index)
        }
        return order.map { address in
            let prints = atAddress[address, default: []].map(printf).joined(separator: "\n")
            return "break *0x\(String(address, radix: 16))\ncommands\nsilent\n\(prints)\ncontinue\nend\n"
        }.joined()
    }

    /// For a program already stopped at `entry` (qemu's gdbstub waits there), which `continue`
    /// steps over without stopping at its breakpoint: the stops printed at once.
    func stopAt(entry: UInt64) -> String {
        let here = sites.indices.filter { sites[$0].address == entry }
        guard !here.isEmpty else { return "" }
        return "if $pc == 0x\(String(entry, radix: 16))\n\(here.map(printf).joined(separator: "\n"))\nend\n"
    }

    private func printf(_ index: Int) -> String {
        let registers = (["$sp", "*(unsigned \(thirtyTwoBit ? "int" : "long") *)$sp"] + savedNames.map { "$" + $0 })
        let format = Array(repeating: "%lx", count: registers.count).joined(separator: " ")
        // On a line of its own: natively the program's output shares gdb's, and a prompt with
        // no newline would otherwise start the stop's line.
        return "printf \"\\n\(marker) %d \(format)\\n\", \(index), \(registers.joined(separator: ", "))"
    }

    /// The stops gdb printed, in order.
    func stops(in transcript: String) -> [Stop] {
        transcript.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(marker + " ") else { return nil }
            let words = line.split(separator: " ").dropFirst()
            guard let index = words.first.flatMap({ Int($0) }), sites.indices.contains(index) else { return nil }
            let values = words.dropFirst().compactMap { UInt64($0, radix: 16) }
            guard values.count == 2 + savedNames.count else { return nil }
            return Stop(site: index, values: values)
        }
    }

    /// What the stops break, each finding once, in the order they happened.
    func findings(_ stops: [Stop]) -> [String] {
        var frames: [Frame] = []
        var findings: [String] = []
        func add(_ finding: String) { if !findings.contains(finding) { findings.append(finding) } }
        for stop in stops {
            let site = sites[stop.site]
            let (pointer, top) = (stop.values[0], stop.values[1])
            let saved = Array(stop.values.dropFirst(2))
            switch site.kind {
            case .entry:
                // Called from the assembly: its call already made the frame.
                if frames.last.map({ $0.entry == pointer && $0.returnAddress == top }) == true { continue }
                frames.append(Frame(entry: pointer, returnAddress: top, name: site.name, saved: saved))
            case .call(let external, let returnSite):
                if external == true, !thirtyTwoBit, pointer % 16 != 0 { add(misaligned(site, pointer)) }
                var frame = Frame(entry: pointer &- word, returnAddress: returnSite, name: site.name)
                frame.external = external == true
                frames.append(frame)
            case .returned:
                if let index = frames.lastIndex(where: { $0.external && $0.returnAddress == site.address && $0.entry &+ word == pointer }) {
                    frames.removeSubrange(index...)
                }
            case .ret:
                if let finding = returned(site, pointer: pointer, top: top, saved: saved, frames: &frames) { add(finding) }
            }
        }
        return findings
    }

    /// Judges a `ret` against the frame it ends: the innermost whose entry and return address it
    /// matches (frames above it ended by tail calls); without one, the innermost frame of the
    /// assembly if the `ret` is in its function, unless a call into C is still open (a callback).
    private func returned(_ site: AbiSites.Site, pointer: UInt64, top: UInt64, saved: [UInt64], frames: inout [Frame]) -> String? {
        if let index = frames.lastIndex(where: { $0.entry == pointer && $0.returnAddress == top }) {
            let frame = frames[index]
            frames.removeSubrange(index...)
            guard let before = frame.saved else { return nil }
            let changed = savedNames.indices.filter { before[$0] != saved[$0] }
            guard !changed.isEmpty else { return nil }
            return calleeSaved(site, frame, changed.map { savedNames[$0] })
        }
        guard let frame = frames.last, !frame.external, site.name == nil || frame.name == nil || site.name == frame.name else {
            return nil
        }
        frames.removeLast()
        return movedStack(site, frame, pointer: pointer)
    }

    /// `file:line: ABI check: message`, the form editors and CI problem matchers read.
    private func finding(_ site: AbiSites.Site, _ message: String) -> String {
        (site.location.map { "\($0): " } ?? "") + "ABI check: " + message
    }

    private func calleeSaved(_ site: AbiSites.Site, _ frame: Frame, _ changed: [String]) -> String {
        let list = changed.joined(separator: ", ")
        let all = thirtyTwoBit ? "ebx, esi, edi and ebp" : "rbx, rbp and r12–r15"
        return finding(
            site,
            "`\(frame.name ?? "the function")` (called from C) returns with \(list) changed: C expects \(all) "
                + "to be kept across a call; push \(changed.count == 1 ? "it" : "them") at the start of the function and pop "
                + "\(changed.count == 1 ? "it" : "them") before `ret`")
    }

    private func misaligned(_ site: AbiSites.Site, _ pointer: UInt64) -> String {
        let callee = site.name.map { "`call \($0)`" } ?? "a call into C"
        return finding(
            site,
            "rsp is not a multiple of 16 at \(callee) (it is 0x\(String(pointer, radix: 16))): C functions "
                + "expect it aligned at every call; push one more register, or `sub rsp, 8` before the call and `add rsp, 8` after it")
    }

    private func movedStack(_ site: AbiSites.Site, _ frame: Frame, pointer: UInt64) -> String {
        let name = thirtyTwoBit ? "esp" : "rsp"
        let function = frame.name.map { "`\($0)`" } ?? "the function"
        let below = pointer < frame.entry
        let bytes = below ? frame.entry - pointer : pointer - frame.entry
        let why =
            below
            ? "so `ret` jumps to what was pushed last instead of back to the caller: pop everything \(function) pushed "
                + "(or add to \(name) what it subtracted) before `ret`"
            : "so `ret` jumps to whatever lies there: \(function) popped (or added to \(name)) more than it pushed"
        return finding(
            site, "\(name) at `ret` is \(bytes) bytes \(below ? "below" : "above") its value when \(function) was entered, \(why)")
    }
}
