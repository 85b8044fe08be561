import Processes
import Support
import Synchronization
import Testing

@testable import Suite

/// Workers keep to a processor of their own when there are no more workers than processors.
@Suite struct WorkPoolTests {
    @Test func workersKeepToAProcessorOfTheirOwnWhenThereAreEnough() throws {
        let processors = try #require(Processors.affinityCount())
        for (workers, expected) in [(1, 1), (processors, 1), (processors + 1, processors)] {
            let pool = WorkPool(workers: workers)
            let seen = Mutex<[Int]>([])
            for _ in 0..<(workers * 4) { pool.submit { seen.withLock { $0.append(Processors.affinityCount() ?? 0) } } }
            pool.run()
            #expect(Set(seen.withLock { $0 }) == [expected], "processors each job saw with \(workers) workers")
        }
        #expect(Processors.affinityCount() == processors, "the test's own thread is not narrowed")
    }

    /// A case inherits its worker's processor: the program exits with the processors of its
    /// affinity mask (sched_getaffinity).
    @Test(.tags(.integration), .enabled(if: Fixture.toolsAvailable, "needs nasm, ld and qemu"))
    func aCaseSeesOneProcessorUnlessThereAreMoreWorkersThanProcessors() throws {
        let processors = try #require(Processors.affinityCount())
        let directory = try Fixture.temporaryDirectory()
        defer { Files.removeTree(directory) }
        try Fixture.write(Self.countProcessors, to: directory + "/count.asm")
        for (jobs, expected) in [(1, 1), (processors + 1, processors)] where expected <= 255 {
            try Fixture.write("[case default]\nstatus: exit \(expected)\n", to: directory + "/count.expect")
            let result = Fixture.test([directory, "--runner", Fixture.runner, "-j", "\(jobs)"])
            #expect(result.status == 0, "-j \(jobs): \(result.output)")
        }
    }

    /// Exits with the number of processors in its affinity mask.
    static let countProcessors = """
        section .bss
        mask:   resq 16
        section .text
        global _start
        _start:
            mov     eax, 204            ; sched_getaffinity(0, 128, mask)
            xor     edi, edi
            mov     esi, 128
            lea     rdx, [rel mask]
            syscall
            lea     rsi, [rel mask]
            xor     ecx, ecx
            xor     ebx, ebx
        .next:
            popcnt  rax, [rsi + rbx*8]
            add     rcx, rax
            inc     rbx
            cmp     rbx, 16
            jne     .next
            mov     edi, ecx
            mov     eax, 60
            syscall

        """
}
