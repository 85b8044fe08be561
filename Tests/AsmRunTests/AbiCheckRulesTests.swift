import Support
import Testing

@testable import Run

/// `AbiCheck`'s rules on stops written by hand (what gdb would print): the frames it follows
/// through tail calls, callbacks from libc and recursion, and objdump's text read into sites.
struct AbiCheckRulesTests {
    typealias Site = AbiSites.Site
    static let place = FileLocation("f.asm", line: 9)

    /// Stops at `site` with rsp, the word at rsp and the callee-saved registers (all `saved`).
    static func stop(_ site: Int, _ pointer: UInt64, _ top: UInt64, saved: UInt64 = 1) -> AbiCheck.Stop {
        AbiCheck.Stop(site: site, values: [pointer, top] + Array(repeating: saved, count: 6))
    }

    /// gdb runs the commands of only the first of two breakpoints at one address once they
    /// `continue`: sites that share an address (a call into C returning onto the next `call`) get
    /// one breakpoint that prints each of them, in order, and so does the stop at the entry.
    @Test func sitesAtOneAddressShareOneBreakpointThatPrintsEach() {
        let sites = [
            Site(address: 0x10, kind: .call(external: true, returnSite: 0x15), location: Self.place, name: "printf"),
            Site(address: 0x15, kind: .returned, location: Self.place, name: "printf"),
            Site(address: 0x15, kind: .call(external: false, returnSite: 0x1a), location: Self.place, name: "down"),
        ]
        let check = AbiCheck(sites: sites, thirtyTwoBit: false)
        let breakpoints = check.script.components(separatedBy: "break *0x")
        #expect(breakpoints.count == 3, "one per address: \(check.script)")
        #expect(breakpoints[2].contains("\", 1, $sp") && breakpoints[2].contains("\", 2, $sp"))
        #expect(check.stopAt(entry: 0x15).components(separatedBy: "printf ").count == 3)
    }

    @Test func aTailCallIntoLibcEndsTheFrameWithoutAFinding() {
        let sites = [
            Site(address: 0x10, kind: .entry, location: Self.place, name: "main"),
            Site(address: 0x14, kind: .call(external: false, returnSite: 0x19), location: Self.place, name: "greet"),
            Site(address: 0x30, kind: .ret, location: Self.place),
        ]
        let check = AbiCheck(sites: sites, thirtyTwoBit: false)
        // main entered from libc, calls greet, which jumps to printf; printf returns to main, whose ret matches.
        #expect(check.findings([Self.stop(0, 0x1008, 0xc0de), Self.stop(1, 0x1000, 0), Self.stop(2, 0x1008, 0xc0de)]).isEmpty)
        // The same with rbx changed at main's ret.
        let changed = check.findings([Self.stop(0, 0x1008, 0xc0de), Self.stop(2, 0x1008, 0xc0de, saved: 2)])
        #expect(changed.count == 1 && changed[0].hasPrefix("f.asm:9: ABI check: `main` (called from C) returns with rbx, rbp, r12"))
    }

    @Test func aCallbackFromLibcIsNotJudgedAndRecursionIs() {
        let sites = [
            Site(address: 0x10, kind: .call(external: true, returnSite: 0x15), location: Self.place, name: "qsort"),
            Site(address: 0x15, kind: .returned, location: Self.place, name: "qsort"),
            Site(address: 0x40, kind: .ret, location: Self.place),
            Site(address: 0x50, kind: .call(external: false, returnSite: 0x55), location: Self.place, name: "fact"),
        ]
        let check = AbiCheck(sites: sites, thirtyTwoBit: false)
        // qsort calls a local comparator, whose ret matches no call seen: silence.
        #expect(check.findings([Self.stop(0, 0x1000, 0), Self.stop(2, 0x0e00, 0x7f00), Self.stop(1, 0x1000, 0)]).isEmpty)
        // fact calls itself twice and returns twice; the third ret is 8 bytes low (a push without its pop).
        let recursion = [Self.stop(3, 0x1000, 0), Self.stop(3, 0x0ff0, 0), Self.stop(2, 0x0fe8, 0x55), Self.stop(2, 0x0ff8, 0x55)]
        #expect(check.findings(recursion).isEmpty)
        // A `ret` in another function than the frame's (entered by a jump, or a global label
        // that is no function) is not judged against it.
        var elsewhere = sites
        elsewhere[2].name = "other"
        #expect(AbiCheck(sites: elsewhere, thirtyTwoBit: false).findings([Self.stop(3, 0x1000, 0), Self.stop(2, 0x0ff0, 0)]).isEmpty)
        let low = check.findings([Self.stop(3, 0x1000, 0), Self.stop(2, 0x0ff0, 0)])
        #expect(
            low == [
                "f.asm:9: ABI check: rsp at `ret` is 8 bytes below its value when `fact` was entered, so `ret` jumps to what was pushed last instead of back to the caller: pop everything `fact` pushed (or add to rsp what it subtracted) before `ret`"
            ])
    }

    @Test func misalignmentIsJudgedAtCallsIntoCInSixtyFourBitCodeOnly() {
        let sites = [Site(address: 0x10, kind: .call(external: true, returnSite: 0x15), location: Self.place, name: "printf")]
        #expect(AbiCheck(sites: sites, thirtyTwoBit: false).findings([Self.stop(0, 0x1008, 0)]).count == 1)
        #expect(AbiCheck(sites: sites, thirtyTwoBit: false).findings([Self.stop(0, 0x1000, 0)]).isEmpty)
        #expect(AbiCheck(sites: sites, thirtyTwoBit: true).findings([AbiCheck.Stop(site: 0, values: [0x1008, 0, 1, 1, 1, 1])]).isEmpty)
    }

    @Test func objdumpTextBecomesSites() {
        let text = """
            0000000000401130 g       .text\t0000000000000000              main
            0000000000401130 <main>:
            main():
            /tmp/x//f.asm:8
              401130:\tpush   rbp
            /tmp/x//f.asm:9
              401131:\tcall   401030 <printf@plt>
              401136:\tcall   401140 <helper>
              40113b:\tcall   QWORD PTR [rip+0x2fe2]        # 403fe8 <puts@GLIBC_2.2.5>
              401141:\tcall   rax
              401143:\tret
            0000000000401150 <libc_thing>:
              401150:\tret
            """
        let sites = AbiSites(objdump: text, sources: ["dir/f.asm"]).sites
        let location = FileLocation("dir/f.asm", line: 8)
        #expect(sites.first == Site(address: 0x401130, kind: .entry, location: location, name: "main"))
        #expect(sites.count == 9, "\(sites)")
        #expect(sites[1].kind == .call(external: true, returnSite: 0x401136) && sites[1].name == "printf")
        #expect(sites[2].kind == .returned && sites[2].address == 0x401136)
        #expect(sites[3].kind == .call(external: true, returnSite: 0x40113b) && sites[3].name == "helper", "not the assembly's: C")
        #expect(sites[5].kind == .call(external: true, returnSite: 0x401141) && sites[5].name == "puts")
        #expect(sites[7].kind == .call(external: nil, returnSite: 0x401143))
        #expect(sites.last?.kind == .ret && sites.last?.address == 0x401143, "the label without lines is not the program's")
        #expect(sites.last?.name == "main")
    }

    /// A source in a folder whose name holds spaces, and objdump's `(discriminator N)` after a line.
    @Test func aSourcePathWithSpacesNamesItsLines() {
        let text = """
            0000000000401130 g       .text\t0000000000000000              main
            0000000000401130 <main>:
            /home/ann/my labs/f.asm:8
              401130:\tpush   rbp
            /home/ann/my labs/f.asm:9 (discriminator 2)
              401131:\tret
            """
        let sites = AbiSites(objdump: text, sources: ["my labs/f.asm"]).sites
        #expect(
            sites == [
                Site(address: 0x401130, kind: .entry, location: FileLocation("my labs/f.asm", line: 8), name: "main"),
                Site(address: 0x401131, kind: .ret, location: FileLocation("my labs/f.asm", line: 9), name: "main"),
            ])
    }
}
