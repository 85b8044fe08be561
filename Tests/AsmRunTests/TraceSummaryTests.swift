import Testing

@testable import Run

/// How `asmrun trace` folds loops and reads what changed, without running anything.
struct TraceSummaryTests {
    private func visits(_ lines: [Int], file: String = "a.asm") -> [TraceVisit] {
        lines.map { TraceVisit(file: file, line: $0, text: "") }
    }

    /// What the summary shows for `lines`: a line number per visit, `loop first-last xN` per fold.
    private func shown(_ lines: [Int]) -> [String] {
        var summary = TraceSummary(main: "a.asm")
        let entries = visits(lines).flatMap { summary.add($0) } + summary.finish()
        return entries.map { entry in
            switch entry {
            case .visit(let visit): "\(visit.line)"
            case .loop(_, let first, let last, let passes, _, _): "loop \(first)-\(last) x\(passes)"
            }
        }
    }

    @Test func aCountingLoopIsItsFirstPassAndOneLine() {
        #expect(
            shown([6, 7, 9, 10, 11, 12, 9, 10, 11, 12, 9, 10, 11, 12, 9, 10, 11, 12, 13, 14])
                == ["6", "7", "9", "10", "11", "12", "loop 9-12 x4", "13", "14"])
    }

    @Test func anUnfinishedLastPassIsShownAfterTheLoop() {
        #expect(shown([9, 10, 9, 10, 9, 10, 9, 11]) == ["9", "10", "loop 9-10 x3", "9", "11"])
    }

    @Test func aLineThatJumpsToItselfFolds() {
        #expect(shown([4, 5, 5, 5, 5, 6]) == ["4", "5", "loop 5-5 x4", "6"])
    }

    @Test func aSecondPassThatDivergesIsShownInFull() {
        #expect(shown([1, 2, 3, 1, 2, 4]) == ["1", "2", "3", "1", "2", "4"])
        #expect(shown([1, 2, 1]) == ["1", "2", "1"])
    }

    @Test func aLoopRunningToTheEndIsFoldedByFinish() {
        #expect(shown([1, 2, 1, 2, 1, 2]) == ["1", "2", "loop 1-2 x3"])
    }

    @Test func theLastPassKeepsEachRegistersLastValueAndEachAddressesFirstOldByte() {
        var first = TraceVisit(file: "a.asm", line: 1, text: "")
        first.registers = [.init(name: "rax", value: 1), .init(name: "rcx", value: 3)]
        first.memory = [.init(address: 16, symbol: "total", old: [0], new: [1])]
        var second = TraceVisit(file: "a.asm", line: 2, text: "")
        second.registers = [.init(name: "rax", value: 2)]
        second.memory = [.init(address: 16, symbol: "total", old: [1], new: [5])]
        second.events = ["write(1, \"x\", 1) = 1"]
        let merged = TraceVisit.merged([first, second])
        #expect(merged.registers == [.init(name: "rax", value: 2), .init(name: "rcx", value: 3)])
        #expect(merged.memory == [.init(address: 16, symbol: "total", old: [0], new: [5])])
        #expect(merged.events == ["write(1, \"x\", 1) = 1"])
        #expect(TraceText.changes(merged, thirtyTwoBit: false) == "rax=2 rcx=3 total=5 (was 0)")
    }

    @Test func writesAreWidenedToTheAlignedWordHoldingThem() {
        let old: [UInt8] = [0, 0, 0, 0, 0xff, 0, 0, 0, 7]
        let new: [UInt8] = [9, 0, 0, 0, 0x00, 1, 0, 0, 7]
        let writes = Tracer.writes(old, new, at: 0x1000)
        #expect(writes.map(\.address) == [0x1000, 0x1004])
        #expect(writes.map(\.new) == [[9], [0, 1]])
        let text = Tracer.writes([UInt8](repeating: 0, count: 12), Array("hello there\n".utf8), at: 0)
        #expect(text.count == 1 && TraceFormat.memory(text[0].new) == "\"hello there\\n\"")
    }

    @Test func valuesReadAsLearnersWriteThem() {
        #expect(TraceFormat.value(10, thirtyTwoBit: false) == "10")
        #expect(TraceFormat.value(UInt64.max, thirtyTwoBit: false) == "-1")
        #expect(TraceFormat.value(0xffff_ffff, thirtyTwoBit: true) == "-1")
        #expect(TraceFormat.value(0x402000, thirtyTwoBit: false) == "0x402000")
        #expect(SourceText.withoutComment("  mov eax, ';'   ; the quote") == "mov eax, ';'")
        #expect(Tracer.callee("call printf") == "printf")
        #expect(Tracer.callee("mov eax, 1") == nil)
    }

    @Test func systemCallsShowTheirNameArgumentsAndResult() {
        var before = [UInt64](repeating: 0, count: 18)
        before[0] = 1  // write
        before[5] = 1  // rdi
        before[4] = 0x402000  // rsi
        before[3] = 3  // rdx
        var after = before
        after[0] = 3
        let text = SystemCallText.describe(before: before, after: after, thirtyTwoBit: false) { _, count in
            Array("hi\n".utf8.prefix(count))
        }
        #expect(text == "write(1, \"hi\\n\", 3) = 3")
        after[0] = UInt64(bitPattern: -9)
        #expect(
            SystemCallText.describe(before: before, after: after, thirtyTwoBit: false) { _, _ in nil }
                == "write(1, 0x402000, 3) = -9 (EBADF)")
        before[0] = 60
        #expect(SystemCallText.describe(before: before, after: nil, thirtyTwoBit: false) { _, _ in nil } == "exit(1)")
    }

    @Test func theLineTableKeepsTheProgramsOwnLinesAndDataSymbols() {
        let objdump = """
            SYMBOL TABLE:
            0000000000402000 l     O .data\t0000000000000008 total
            0000000000402008 g       .data\t0000000000000000 _edata
            0000000000403e10 l     O .got.plt\t0000000000000000              _GLOBAL_OFFSET_TABLE_
            0000000000401000 g       .text\t0000000000000000 _start

            CU: loop.asm:
            File name                            Line number    Starting address    View    Stmt
            loop.asm                                       6            0x401000               x
            loop.asm                                       7            0x401005               x
            crt1.c                                        12            0x401010               x
            loop.asm                                       -            0x401020
            """
        let table = LineTable(objdump: objdump, sources: ["/src/loop.asm"])
        #expect(table.line(at: 0x401000)?.line == 6)
        #expect(table.line(at: 0x401006)?.line == 7)
        #expect(table.line(at: 0x401010) == nil)
        #expect(table.line(at: 0x400fff) == nil)
        #expect(table.name(of: 0x402004) == "total+4")
        #expect(table.address(of: "_start") == 0x401000)
        #expect(table.isRuntime(0x403e18))
    }
}
