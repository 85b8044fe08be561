import Glibc
import Testing

@testable import Sandbox
@testable import Support

/// The pids cgroups of cases: one that ended empty serves the next case, with that case's limit.
@Suite struct CgroupTreeTests {
    @Test(.enabled(if: CgroupTree.create().map { $0.remove() } != nil, "needs a writable pids cgroup (root)"))
    func aCgroupThatEndedEmptyServesTheNextCaseWithItsOwnLimit() throws {
        let tree = try #require(CgroupTree.create())
        defer { tree.remove() }
        let first = try #require(tree.makeCase(1, maxProcesses: 5))
        #expect(try Files.read(first + "/pids.max") == Array("5\n".utf8))
        #expect(tree.killAll(in: first, keepingWith: 5) == 0)
        #expect(access(first, F_OK) == 0, "kept for the next case")
        let second = try #require(tree.makeCase(2, maxProcesses: 9))
        #expect(second == first)
        #expect(try Files.read(second + "/pids.max") == Array("9\n".utf8))
        #expect(tree.killAll(in: second, keepingWith: nil) == 0)
        #expect(access(second, F_OK) != 0, "removed when not kept")
        let third = try #require(tree.makeCase(3, maxProcesses: 9))
        #expect(third != first)
    }
}
