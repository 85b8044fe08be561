/// Follows the code from each `syscall` that returns, once for rcx and once for r11, to the first
/// instruction on each path that reads the register (a finding) or writes all of it (the end of
/// that path). Jumps and both ways of a branch are followed; a `call` to a label of the program
/// is followed into the function and back; a `ret` goes back where the followed call was made,
/// or, when the syscall's own function returns, to after every call of that function. Paths stop
/// at indirect jumps, external calls, data, and where code would fall into another function.
/// Every path is a state (instruction, bytes still overwritten, calls followed), visited once
/// whatever the syscall it came from; the work per syscall and in all is bounded, so a large or
/// pathological program costs at most `totalBudget` steps.
struct SyscallPaths {
    /// A read of an overwritten register: where, which, after which syscall, and the call
    /// returned to on the way (-1: none).
    struct Finding {
        var read: Int32
        var register: ClobberedRegister
        var syscall: Int32
        var via: Int32
    }

    /// A value pushed since the syscall: the overwritten bytes it holds (of a `push rcx`) and
    /// the push.
    private struct Slot: Hashable {
        var mask: UInt8
        var push: Int32
    }

    private struct State: Hashable {
        /// A hash of what tells most states apart (arrays hashed in full cost more than the rest).
        func hash(into hasher: inout Hasher) {
            hasher.combine(Int64(index) << 32 | Int64(context) << 8 | Int64(mask))
            hasher.combine(stack.last ?? -1)
            hasher.combine(saved.count)
        }

        var index: Int32
        var mask: UInt8
        /// The functions the path is in (those of the syscall, or of the call it returned to),
        /// as an index into `contexts`: a `ret` with no followed call returns from them. Paths
        /// from syscalls of the same functions share their states.
        var context: Int32
        /// Return addresses of the calls followed.
        var stack: [Int32]
        /// What was pushed on the way: `push rcx` / `pop rcx` saves and restores the overwritten
        /// value without using it.
        var saved: [Slot] = []
    }

    let listing: Listing
    private var instructions: [Instruction] { listing.instructions }
    /// The calls of each function, by its first instruction.
    private var callers: [Int32: [Int32]] = [:]
    /// The syscalls that never return (`exit`, `exit_group`, `rt_sigreturn`).
    private var endings: Set<Int32> = []
    private var predecessors: (offsets: [Int32], sources: [Int32])?
    private var functions: [Int32: [Int32]] = [:]
    /// Sets of functions paths are in (`State.context`).
    private var contexts: [[Int32]] = []
    private var contextIndex: [[Int32]: Int32] = [:]
    private var budget = SyscallPaths.totalBudget
    private var visited = [Set<State>(minimumCapacity: 64), Set<State>(minimumCapacity: 64)]

    static let totalBudget = 2_000_000
    static let searchBudget = 200_000
    static let callDepth = 8

    init(_ listing: Listing) {
        self.listing = listing
        for (index, instruction) in listing.instructions.enumerated() {
            if instruction.flow == .call && instruction.target >= 0 { callers[instruction.target, default: []].append(Int32(index)) }
            if instruction.flow == .syscall && !returns(index) { endings.insert(Int32(index)) }
        }
    }

    /// Every read of rcx or r11 after a syscall, for each syscall in the order of the code.
    mutating func findings() -> [Finding] {
        var found: [Finding] = []
        for (index, instruction) in listing.instructions.enumerated() where instruction.flow == .syscall {
            guard !endings.contains(Int32(index)) else { continue }
            for register in ClobberedRegister.allCases where budget > 0 { search(from: Int32(index), register, into: &found) }
        }
        return found
    }

    /// Whether the syscall at `index` comes back: not when the constant last put in rax on the
    /// way to it (in straight-line code) is 60, 231 or 15.
    private func returns(_ index: Int) -> Bool {
        guard !instructions[index].labelled else { return true }
        var position = index - 1
        while position >= 0 && position >= index - 64 {
            let instruction = instructions[position]
            if instruction.rax != Instruction.untouched { return ![60, 231, 15].contains(instruction.rax) }
            if instruction.flow != .next || instruction.labelled { return true }
            position -= 1
        }
        return true
    }

    private mutating func search(from syscall: Int32, _ register: ClobberedRegister, into found: inout [Finding]) {
        // One set per register for every search: a state reached again, from another syscall,
        // leads to the reads already found from it (each read is reported once), so the work in
        // all is the number of states, not that times the number of syscalls.
        var visited = self.visited[register.rawValue]
        self.visited[register.rawValue] = []
        defer { self.visited[register.rawValue] = visited }
        var work: [(state: State, via: Int32)] = []
        func visit(_ state: State, _ via: Int32, falling: Bool) {
            guard state.index >= 0, Int(state.index) < instructions.count else { return }
            // Falling into a function's first instruction: the code before it ended (an exit
            // whose number the check cannot see), or it is another function's business.
            if falling && instructions[Int(state.index)].callEntry { return }
            if visited.insert(state).inserted { work.append((state, via)) }
        }
        visit(State(index: syscall + 1, mask: 0xff, context: context(of: syscall), stack: []), -1, falling: true)
        var steps = 0
        while let (before, via) = work.popLast(), steps < Self.searchBudget, budget > 0 {
            steps += 1
            budget -= 1
            let instruction = instructions[Int(before.index)]
            var state = before
            if let read = step(instruction, register, &state) {
                found.append(Finding(read: read, register: register, syscall: syscall, via: via))
                continue
            }
            guard state.mask != 0 || state.saved.contains(where: { $0.mask != 0 }) else { continue }
            let (index, target) = (state.index, instruction.target)
            var next = state
            next.index = index + 1
            var jump = state
            jump.index = target
            switch instruction.flow {
            case .next, .syscall: visit(next, via, falling: true)
            case .jump: visit(jump, via, falling: false)
            case .branch:
                visit(jump, via, falling: false)
                visit(next, via, falling: true)
            case .call:
                guard target >= 0, state.stack.count < Self.callDepth else { continue }
                jump.stack.append(index + 1)
                visit(jump, via, falling: false)
            case .ret: for (back, through) in returns(from: state, via) { visit(back, through, falling: false) }
            case .stop: continue
            }
        }
    }

    /// What `instruction` does to the path: the instruction that reads an overwritten byte (it,
    /// or the push whose saved value is popped elsewhere), or `nil` with the state updated.
    private func step(_ instruction: Instruction, _ register: ClobberedRegister, _ state: inout State) -> Int32? {
        let use = instruction[register]
        switch instruction.stack {
        case .pushRegister where use.read != 0:
            guard state.saved.count < 16 else { return nil }
            state.saved.append(Slot(mask: state.mask & use.read, push: state.index))
            return nil
        case .push, .pushRegister:
            if use.read & state.mask != 0 { return state.index }
            state.saved.append(Slot(mask: 0, push: state.index))
            return nil
        case .pop:
            if use.read & state.mask != 0 { return state.index }
            let slot = state.saved.popLast() ?? Slot(mask: 0, push: -1)
            if use.written == 0 && slot.mask != 0 { return slot.push }
            state.mask = (state.mask & ~use.written) | (slot.mask & use.written)
            return nil
        case .other:
            state.saved = []
        case .none:
            break
        }
        if use.read & state.mask != 0 { return state.index }
        state.mask &= ~use.written
        return nil
    }

    /// Where a `ret` goes: back to the call followed, or, with none, to after every call of the
    /// functions the path is in (what was pushed in them is theirs, and forgotten).
    private mutating func returns(from state: State, _ via: Int32) -> [(State, Int32)] {
        var back = state
        if let address = back.stack.popLast() {
            back.index = address
            return [(back, via)]
        }
        var targets: [(State, Int32)] = []
        for entry in contexts[Int(state.context)] {
            for call in callers[entry] ?? [] {
                targets.append((State(index: call + 1, mask: state.mask, context: context(of: call), stack: []), via >= 0 ? via : call))
            }
        }
        return targets
    }

    /// The index in `contexts` of the functions `index` is in.
    private mutating func context(of index: Int32) -> Int32 {
        let entries = functions(containing: index)
        if let known = contextIndex[entries] { return known }
        contexts.append(entries)
        contextIndex[entries] = Int32(contexts.count - 1)
        return Int32(contexts.count - 1)
    }

    /// The first instructions of the functions `index` is in: the function entries its code is
    /// reached from without passing another entry (found walking the code backwards).
    private mutating func functions(containing index: Int32) -> [Int32] {
        if let known = functions[index] { return known }
        let (offsets, sources) = predecessors ?? Self.predecessors(of: instructions, endings: endings)
        predecessors = (offsets, sources)
        var entries: [Int32] = []
        var seen: Set<Int32> = [index]
        var queue = [index]
        while let node = queue.popLast(), seen.count < 20_000 {
            if instructions[Int(node)].callEntry {
                entries.append(node)
                continue
            }
            for source in sources[Int(offsets[Int(node)])..<Int(offsets[Int(node) + 1])] where seen.insert(source).inserted {
                queue.append(source)
            }
        }
        entries.sort()
        functions[index] = entries
        return entries
    }

    /// For each instruction, those control comes from within a function (falling through,
    /// jumping, returning from a call), as offsets into one array.
    private static func predecessors(of instructions: [Instruction], endings: Set<Int32>) -> ([Int32], [Int32]) {
        var edges: [(to: Int32, from: Int32)] = []
        for (index, instruction) in instructions.enumerated() {
            let from = Int32(index)
            switch instruction.flow {
            case .next, .call, .branch: edges.append((from + 1, from))
            case .syscall where !endings.contains(from): edges.append((from + 1, from))
            default: break
            }
            if (instruction.flow == .jump || instruction.flow == .branch) && instruction.target >= 0 {
                edges.append((instruction.target, from))
            }
        }
        var offsets = [Int32](repeating: 0, count: instructions.count + 2)
        for edge in edges where Int(edge.to) < instructions.count { offsets[Int(edge.to) + 1] += 1 }
        for index in 1..<offsets.count { offsets[index] += offsets[index - 1] }
        var sources = [Int32](repeating: 0, count: Int(offsets[offsets.count - 1]))
        var filled = offsets
        for edge in edges where Int(edge.to) < instructions.count {
            sources[Int(filled[Int(edge.to)])] = edge.from
            filled[Int(edge.to)] += 1
        }
        return (offsets, sources)
    }
}
