import CAsmRunSpawn
import Glibc
import Processes
import Support

/// Where the builds of programs nobody reviewed run: nasm, the C compiler and the linker enter
/// a network namespace without interfaces and a mount namespace whose root holds only the
/// system's programs and libraries (`/usr` and the links into it, /etc/alternatives,
/// /etc/ld.so.cache), a minimal /dev, the program's folder (the one named on the command line
/// that holds it) read-only and the build's folders (its scratch folder, the cache) writable; nothing else of the host: no home folder, no
/// /root, no /etc/shadow, no reference solution, no other process. Their environment is a fixed
/// one (`environment`), so `%!GITHUB_TOKEN` reads nothing. One per folder named on the command
/// line, made at its first build; its namespaces are closed when the last builder lets it go.
/// Later folders' views are made from a template (`BuildView+Template.swift`).
package final class BuildView: Sendable {
    package let namespaces: Namespaces
    /// A template's, without root: the host's mounts in its user namespace, where folders are
    /// cloned from (`make(folder:from:)`); -1 otherwise.
    let hostMounts: Int32
    /// The whole environment of every tool.
    package let environment: [String: String]
    /// asmrun's working directory, where the tools run (their operands are relative to it).
    package let workingDirectory: String

    init(namespaces: Namespaces, environment: [String: String], workingDirectory: String, hostMounts: Int32 = -1) {
        self.namespaces = namespaces
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.hostMounts = hostMounts
    }

    deinit {
        namespaces.close()
        if hostMounts >= 0 { Glibc.close(hostMounts) }
    }

    /// The environment of contained builds: the system's programs, a home and temporary files in
    /// the build's scratch folder, UTF-8 messages.
    package static func environment(scratch: String) -> [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8"]
    }

    /// Makes the view with `readable` paths (folders or files, read-only; at most 16) and
    /// `writable` folders (at most 3) besides `scratch`, or says why it cannot be made. It
    /// enters `network`'s network namespace (another view's), and without root its user
    /// namespace, rather than new ones: making them took about a millisecond, paid again by
    /// every submission of a run. A `template` keeps, without root, the host's mounts too.
    package static func make(
        readable: [String], writable: [String], scratch: String, workingDirectory: String, sharing network: BuildView? = nil,
        template: Bool = false
    ) -> Result<BuildView, BuildViewError> {
        guard readable.count <= 16, writable.count <= 3 else { return .failure(BuildViewError(step: "view", code: E2BIG)) }
        let root = geteuid() == 0
        if !root && NamespaceSetup.userNamespacesRefused {
            return .failure(BuildViewError(step: "unprivileged user namespace", code: EPERM))
        }
        let made = attempt(
            readable: readable, writable: writable, scratch: scratch, workingDirectory: workingDirectory, sharing: network,
            template: template)
        // Where another view's namespaces cannot be entered (no helper sharing asmrun's memory), new ones.
        guard network != nil, case .failure = made else { return made }
        return attempt(
            readable: readable, writable: writable, scratch: scratch, workingDirectory: workingDirectory, sharing: nil,
            template: template)
    }

    private static func attempt(
        readable: [String], writable: [String], scratch: String, workingDirectory: String, sharing network: BuildView?,
        template: Bool
    ) -> Result<BuildView, BuildViewError> {
        let root = geteuid() == 0
        var namespaces = Namespaces()
        let other = network?.namespaces
        let shared = other.map { fcntl($0.networkNamespace, F_DUPFD_CLOEXEC, 0) } ?? -1
        let sharedUser = root ? -1 : other.map { fcntl($0.userNamespace, F_DUPFD_CLOEXEC, 0) } ?? -1
        // Without root, another view's network namespace is entered only with its user namespace.
        let sharing = shared >= 0 && (root || sharedUser >= 0)
        var step: UnsafePointer<CChar>?
        let visible = readable.map { strdup($0) }
        let open = writable.map { strdup($0) }
        defer { (visible + open).forEach { free($0) } }
        let code = scratch.withCString { cScratch in
            "/tmp".withCString { newRoot in
                workingDirectory.withCString { cwd in
                    visible.map { UnsafePointer($0) }.withUnsafeBufferPointer { visibleList in
                        open.map { UnsafePointer($0) }.withUnsafeBufferPointer { writableList in
                            var view = asmrun_view(
                                scratch: cScratch, visible: visibleList.baseAddress, visible_count: Int32(visibleList.count),
                                scratch_writable: 1, cover_private: 0, new_root: newRoot, writable: writableList.baseAddress,
                                writable_count: Int32(writableList.count), working_directory: cwd,
                                no_network: sharing ? 1 : 0, shared_user_fd: sharing ? sharedUser : -1, hidden: nil, hidden_count: 0)
                            return asmrun_make_namespaces(
                                &view, root ? 0 : 1, &namespaces.userNamespace, &namespaces.networkNamespace,
                                &namespaces.mountNamespace, &step)
                        }
                    }
                }
            }
        }
        if sharing {
            namespaces.networkNamespace = shared
            if sharedUser >= 0 { namespaces.userNamespace = sharedUser }
        } else {
            for fd in [shared, sharedUser] where fd >= 0 { Glibc.close(fd) }
        }
        var hostMounts: Int32 = -1
        var problem = code
        if code == 0, template, !root { problem = asmrun_copy_host_mounts(namespaces.userNamespace, &hostMounts, &step) }
        guard problem == 0, namespaces.networkNamespace >= 0, namespaces.mountNamespace >= 0 else {
            namespaces.close()
            return .failure(BuildViewError(step: step.map { String(cString: $0) } ?? "view", code: problem))
        }
        return .success(
            BuildView(
                namespaces: namespaces, environment: environment(scratch: scratch), workingDirectory: workingDirectory,
                hostMounts: hostMounts))
    }

    /// The build layer as `asmrun doctor` lists it, from a view made in `scratch` for the
    /// working directory.
    package static func layer(scratch: String) -> ContainmentLayer {
        let folder = Files.currentDirectory
        switch make(readable: [folder], writable: [], scratch: scratch, workingDirectory: folder) {
        case .success:
            return .on(
                "build",
                "`asmrun test` builds in a view of its folders (read-only), the system's programs and libraries and its "
                    + "scratch folder and cache: no network, no home, no /etc, no reference, a fixed environment; each tool "
                    + "PID 1 of a PID namespace of its own, so whatever it starts ends with it")
        case .failure(let problem):
            return .off(
                "build",
                "builds run in a fixed environment only, seeing what you see, and a daemon a build starts may outlive it "
                    + "(\(problem.description))")
        }
    }

}

/// Why a build view could not be made: the step that failed and its errno.
package struct BuildViewError: Error, Sendable, Equatable {
    package let step: String
    package let code: Int32

    /// `mount namespace: Operation not permitted`.
    package var description: String { "\(step): \(String(cString: strerror(code)))" }
}
