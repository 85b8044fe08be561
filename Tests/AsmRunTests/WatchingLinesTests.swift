import Testing

@testable import CLI

/// What both watch modes print between runs: the saves named (escaped, the first few), and the
/// line for events lost, which names its fix.
struct WatchingLinesTests {
    @Test func lostEventsNameTheFix() {
        #expect(
            Watching.overflowLine(then: "running everything again")
                == "asmrun: too many changes at once to follow (the kernel's event queue overflowed): running everything again;"
                + " raise fs.inotify.max_queued_events if it recurs\n")
    }

    @Test func theSavesAreNamedEscapedAndCounted() {
        #expect(Watching.names(["/w/a.asm"]) == "a.asm")
        #expect(Watching.names(["/w/a.asm", "/w/b\u{1B}.inc", "/w/c.asm", "/w/d.asm", "/w/e.asm"]).hasSuffix(", c.asm and 2 more"))
        #expect(!Watching.names(["/w/b\u{1B}.inc"]).contains("\u{1B}"))
    }
}
