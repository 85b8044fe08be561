import Processes

extension NamespaceSetup {
    /// The user layer: whom cases run as.
    static func describe(identity: CaseIdentity?, root: Bool, problems: [String]) -> ContainmentLayer {
        guard root else { return .off("user", "not root: cases run as you (files you may read are theirs to read)") }
        guard let identity else {
            let why = problems.isEmpty ? "" : ": " + problems.joined(separator: "; ")
            return .off(
                "user", "cases run as root without capabilities, and read what root owns (another user needs the mount namespace)\(why)")
        }
        return .on(
            "user",
            "cases run as nobody (\(identity.description), no supplementary groups): files only root may read are closed "
                + "to them; their folder is theirs, and what they run is reached through covered private folders")
    }

    /// The pid, ipc, uts, net, mount, caps and seccomp layers of what was chosen.
    static func describe(
        _ namespaces: Namespaces?, _ confinement: Confinement, _ filter: SeccompFilter?, privateProc: Bool, root: Bool,
        problems: [String]
    ) -> [ContainmentLayer] {
        let why = problems.isEmpty ? "" : ": " + problems.joined(separator: "; ")
        let how = root ? "" : ", inside an unprivileged user namespace"
        var layers: [ContainmentLayer] = []
        if confinement.caseNamespaces {
            let proc = privateProc ? "" : "; /proc still lists the host's processes (this host refused a new procfs)"
            layers += [
                .on(
                    "pid",
                    "a PID namespace per worker\(how), whose warden ends every process a case left before the next "
                        + "(per case where no warden starts): a case sees and signals only its own processes "
                        + "(its /proc has hidepid=2: the warden, whose command line is asmrun's, is out of sight)\(proc)"),
                .on("ipc", "an IPC namespace per worker: SysV objects and POSIX message queues removed after each case"),
                .on("uts", "a UTS namespace per worker, host name `asmrun`"),
            ]
        } else {
            let reason = "no namespaces per case\(why)"
            layers += [.off("pid", reason), .off("ipc", reason), .off("uts", reason)]
        }
        if let namespaces, namespaces.networkNamespace >= 0 {
            layers.append(.on("net", "a network namespace without interfaces\(how); abstract Unix sockets are the run's own"))
        } else {
            layers.append(.off("net", "cases have the host's network\(why)"))
        }
        if confinement.caseNamespaces {
            layers.append(
                .on(
                    "mount",
                    "only the worker's folder is writable and in sight (the folder of case folders is an empty tmpfs): "
                        + "its cases work in it, one after another, at \(Confinement.caseView) whatever the run and worker, "
                        + "and it is emptied after each; "
                        + "fresh read-only tmpfs over /tmp, /run, /var/run and /dev/shm, "
                        + "a minimal /dev, the rest of the file system read-only"))
        } else if let namespaces, namespaces.mountNamespace >= 0 {
            layers.append(
                .on(
                    "mount",
                    "read-only file system except the run's case folders (neighbours' included)\(how); fresh tmpfs over /tmp, /run, /dev/shm"
                ))
        } else {
            layers.append(.off("mount", "cases write wherever the user may\(why)"))
        }
        layers.append(
            confinement.dropCapabilities
                ? .on("caps", "no capabilities, and no_new_privs and locked securebits so that no exec gives any back")
                : .off("caps", "cases keep asmrun's capabilities\(why)"))
        if let seccomp = confinement.seccomp {
            layers.append(
                .on(
                    "seccomp",
                    "\(seccomp.program.count / 8) BPF instructions refusing mount, setns, unshare, ptrace attaching, kexec, bpf, "
                        + "keyrings, modules, reboot, io_uring and more"))
        } else {
            layers.append(.off("seccomp", filter == nil ? "no filter\(why)" : "the kernel refused the filter\(why)"))
        }
        return layers
    }
}
