import Foundation
import Glibc
import Processes
import Support
import Testing

@testable import Sandbox

/// The pids cgroups of cases: one that ended empty serves the next case, with that case's limit.
@Suite struct CgroupTreeTests {
    /// `ASMRUN_CGROUP_PARENT` names a cgroup below the hierarchy's root, never one above or beside it.
    @Test func aCgroupParentIsARelativeNameOfPlainComponents() {
        #expect(CgroupTree.validGroup("ci") == "/ci")
        #expect(CgroupTree.validGroup("ci/asmrun.slice") == "/ci/asmrun.slice")
        for bad in ["", "/ci", "ci/", "../ci", "ci/../..", "ci//x", ".", "ci/./x"] {
            #expect(CgroupTree.validGroup(bad) == nil, "\(bad)")
        }
        #expect(CgroupTree.create(in: "../escape") == nil)
    }

    /// A parent that is refused leaves cases without cgroups, and doctor says why and what to do.
    @Test(.enabled(if: CgroupTree.create().map { $0.remove() } != nil, "needs a writable pids cgroup (root)"))
    func doctorNamesARefusedCgroupParentAndTheFix() throws {
        let run = try Fixture.asmrun(["doctor"], environment: ["ASMRUN_CGROUP_PARENT": "../escape"])
        #expect(run.stdout.contains("cgroup: unavailable, ASMRUN_CGROUP_PARENT=../escape is no cgroup with a writable pids controller"))
        #expect(run.stdout.contains("such as `ci/asmrun`, or unset it"))
        let fine = try Fixture.asmrun(["doctor"])
        #expect(fine.stdout.contains("cgroup: active"))
    }

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

    /// A process of one thread joins by writing 0 to `joinFile` (`tasks` on cgroup v1, which
    /// takes no global lock), and then it and its children are counted against `pids.max`.
    @Test(.enabled(if: CgroupTree.create().map { $0.remove() } != nil, "needs a writable pids cgroup (root)"))
    func aProcessThatJoinsIsCountedWithItsChildren() throws {
        let tree = try #require(CgroupTree.create())
        defer { tree.remove() }
        let cgroup = try #require(tree.makeCase(1, maxProcesses: 3))
        let joinPath = cgroup + "/" + tree.joinFile
        // The forked child makes only async-signal-safe calls: it joins, then forks until the
        // limit refuses, and exits with how many children it got.
        let child = joinPath.withCString { path -> pid_t in
            let pid = fork()
            guard pid == 0 else { return pid }
            let fd = open(path, O_WRONLY)
            guard fd >= 0, write(fd, "0\n", 2) == 2 else { _exit(100) }
            var children: Int32 = 0
            for _ in 0..<6 {
                let grandchild = fork()
                if grandchild == 0 {
                    pause()
                    _exit(0)
                }
                if grandchild < 0 { break }
                children += 1
            }
            _exit(children)
        }
        try #require(child > 0)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7f == 0)
        #expect((status >> 8) & 0xff == 2, "the joiner and two children make pids.max 3")
        #expect(tree.killAll(in: cgroup, keepingWith: nil) == 2, "its children stayed in the cgroup")
    }

    /// A tree is its run's while the run holds the lock on its folder, whatever its name says:
    /// a live one (this process's, the same pid) is kept, one nobody holds is removed.
    @Test(.enabled(if: CgroupTree.create().map { $0.remove() } != nil, "needs a writable pids cgroup (root)"))
    func onlyATreeNobodyHoldsIsSwept() throws {
        let tree = try #require(CgroupTree.create())
        defer { tree.remove() }
        let parent = (tree.base as NSString).deletingLastPathComponent
        let left = parent + "/" + CgroupTree.ownedPrefix + "\(getpid())-999999-0"
        #expect(mkdir(left, 0o755) == 0 && mkdir(left + "/case-1", 0o755) == 0)
        CgroupTree.removeAbandoned(in: parent)
        #expect(access(tree.base, F_OK) == 0, "the live tree is kept")
        #expect(access(left, F_OK) != 0, "the tree nobody holds is removed, though its pid is alive")
    }
}
