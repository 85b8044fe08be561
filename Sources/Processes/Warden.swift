import CAsmRunSpawn
import Glibc
import Support

/// A case init that stays (see `asmrun_warden` in asmrun_spawn.h): PID 1 of namespaces made
/// once, serving the cases of one worker thread one after another, so a case pays for a fork
/// and an exec instead of new namespaces, a copied mount table, a /proc and a filter. It may
/// write only to `folder`, its cases' working directory; `sweep` empties it after each.
///
/// Only the thread that started a warden may use it: the warden runs in asmrun's memory with
/// that thread's thread-local storage (`Containment` keeps one per thread).
package final class Warden: @unchecked Sendable, Equatable {
    /// The warden's pid: a case's process group is the warden's, so ending the group ends the
    /// warden and, with it, its namespaces.
    package let pid: pid_t
    let socket: Int32
    private let stack: UnsafeMutableRawPointer?
    /// The one folder its cases may write to, and their working directory, as they see it: a
    /// tmpfs of `bytes` in the warden's mount namespace, at `Confinement.caseView`.
    package let folder: String
    /// The folder asmrun made for it in the scratch folder (removed with it), covered in its
    /// namespace with the folder holding it.
    package let made: String
    /// The same folder as asmrun reaches it (`/proc/self/fd/N`, a descriptor opened through the
    /// warden's root): put files there, read them, empty it.
    package let reachable: String
    private let reach: Int32
    /// The folder's size.
    package let bytes: Int
    /// Its cgroup, when cases are counted in one.
    package let cgroup: String?
    /// The cgroup's `pids.max`: the case's limit, the warden counted on top.
    package var maxProcesses: Int?
    /// Its namespace's /proc is its own.
    let privateProc: Bool
    private(set) var reaped = false

    package init(_ started: asmrun_warden, folder: String, made: String, reach: Int32, bytes: Int, cgroup: String?, maxProcesses: Int?) {
        self.reach = reach
        reachable = "/proc/self/fd/\(reach)"
        self.bytes = bytes
        pid = started.pid
        socket = started.socket
        stack = started.stack
        privateProc = started.proc_mounted != 0
        self.folder = folder
        self.made = made
        self.cgroup = cgroup
        self.maxProcesses = maxProcesses
    }

    package static func == (left: Warden, right: Warden) -> Bool { left === right }

    /// Starts `request`'s program in the warden (`asmrun_warden_spawn`); 0 or an errno.
    func spawn(_ request: inout asmrun_spawn_request, _ step: inout asmrun_step) -> Int32 {
        var started = asmrun_warden(pid: pid, socket: socket, stack: stack, proc_mounted: privateProc ? 1 : 0)
        return asmrun_warden_spawn(&started, &request, &step)
    }

    /// It still runs (it may have been ended with a case's process group).
    package var isAlive: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { finishReaping() }
        return !reaped
    }

    /// It ended and was reaped by whoever watched it end (the supervisor of a case it ran).
    func reapedElsewhere() { finishReaping() }

    /// Kills it (and so everything in its namespaces), without waiting.
    package func end() {
        if !reaped { kill(pid, SIGKILL) }
    }

    /// Closes its socket (it then ends), ends it and reaps it, and removes its folder's contents.
    package func retire() {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            finishReaping()
        }
        sweep()
    }

    /// Removes whatever is in the folder, its cases' working directory. One that stays in it
    /// (what asmrun cannot remove) ends the warden: the next case gets a new one, and a new folder.
    package func sweep() {
        let names = (try? Files.list(reachable)) ?? []
        guard !names.isEmpty else { return }
        for name in names { Files.removeTree(reachable + "/" + name) }
        if (try? Files.list(reachable))?.isEmpty != true { end() }
    }

    /// Its folder is full, of bytes or of files and folders: the case that ran last filled it.
    package var isFull: Bool {
        var info = statvfs()
        return fstatvfs(reach, &info) == 0 && (info.f_bfree == 0 || info.f_ffree == 0)
    }

    deinit { Glibc.close(reach) }

    private func finishReaping() {
        guard !reaped else { return }
        reaped = true
        Glibc.close(socket)
        // Nothing runs on its stack any more.
        asmrun_release_init_stack(stack)
    }
}
