import CAsmRunSpawn
import CSeccomp
import Glibc
import Processes

/// The system call filter every case runs under, built once per run with libseccomp and kept as
/// the kernel's BPF program, so a worker's warden (or, without wardens, each case) only installs
/// it: one `seccomp` call.
///
/// It refuses, with EPERM, what a test program never needs and what would take it out of its
/// boundary: mounting and every new mount API call, pivot_root and chroot, entering or making
/// namespaces (setns, unshare, clone with a CLONE_NEW* flag; clone3 answers ENOSYS, so C
/// libraries fall back to clone), attaching to other processes (PTRACE_ATTACH and PTRACE_SEIZE,
/// process_vm_readv/writev), pushing input into a terminal (TIOCSTI, TIOCLINUX), kexec, bpf, the keyring, kernel modules, reboot, swap, quotas,
/// accounting, the clock, perf events, userfaultfd, io_uring (its operations bypass seccomp),
/// and file handles (open_by_handle_at reaches files outside any mount). Native and 32-bit x86
/// programs are filtered alike; a system call of any other architecture, x32 included (system
/// call numbers with bit 30 set, on x86_64), answers ENOSYS without running, as the hardware's
/// kernel does for such a number where x32 is off (Debian's default): `mov al, 60` after a
/// negative rax makes one, and the program goes on. A third copy of every rule for an ABI no
/// test program uses made the filter half as long again, and every install pays for its length
/// when the kernel compiles it.
extension SeccompFilter {
    /// Calls refused by name; a name this libseccomp or architecture does not know is skipped.
    static let refused = [
        "mount", "umount", "umount2", "mount_setattr", "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount",
        "fspick", "pivot_root", "chroot", "setns", "unshare", "kexec_load", "kexec_file_load", "bpf", "add_key",
        "request_key", "keyctl", "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
        "acct", "quotactl", "quotactl_fd", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
        "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
        "process_vm_readv", "process_vm_writev", "open_by_handle_at", "name_to_handle_at", "iopl", "ioperm",
        "syslog", "vhangup", "lookup_dcookie", "fanotify_init", "uselib", "nfsservctl",
    ]

    /// Builds the filter; `nil` with the reason when libseccomp cannot.
    package static func make() -> Result<SeccompFilter, SeccompUnavailable> {
        guard let context = seccomp_init(SCMP_ACT_ALLOW) else { return .failure(SeccompUnavailable("seccomp_init failed")) }
        defer { seccomp_release(context) }
        #if arch(x86_64)
            for arch in [SCMP_ARCH_X86] {
                let code = seccomp_arch_add(context, UInt32(truncatingIfNeeded: arch))
                if code != 0 && code != -EEXIST { return .failure(SeccompUnavailable("adding an architecture", code)) }
            }
        #endif
        _ = seccomp_attr_set(context, SCMP_FLTATR_ACT_BADARCH, errnoAction(ENOSYS))
        // A binary tree over the call numbers instead of one test after another: the kernel runs
        // the filter for every call number of both architectures when a case installs it (its
        // allow cache), and that took 118 µs per case against 44 µs with the tree.
        _ = seccomp_attr_set(context, SCMP_FLTATR_CTL_OPTIMIZE, 2)
        let eperm = errnoAction(EPERM)
        for name in refused {
            let number = seccomp_syscall_resolve_name(name)
            guard number != __NR_SCMP_ERROR else { continue }
            let code = seccomp_rule_add_array(context, eperm, number, 0, nil)
            // -EDOM, -EFAULT: a call that some of the architectures do not have.
            if code != 0 && code != -EDOM && code != -EFAULT { return .failure(SeccompUnavailable("refusing \(name)", code)) }
        }
        if let problem = addArgumentRules(context, eperm) { return .failure(problem) }
        return export(context)
    }

    /// ptrace attaching, clone with a namespace flag, clone3, terminal input injection.
    private static func addArgumentRules(_ context: scmp_filter_ctx, _ eperm: UInt32) -> SeccompUnavailable? {
        let ptrace = seccomp_syscall_resolve_name("ptrace")
        for request in [16, 0x4206] {  // PTRACE_ATTACH, PTRACE_SEIZE
            var compare = scmp_arg_cmp(arg: 0, op: SCMP_CMP_EQ, datum_a: UInt64(request), datum_b: 0)
            let code = seccomp_rule_add_array(context, eperm, ptrace, 1, &compare)
            if code != 0 { return SeccompUnavailable("refusing ptrace attaching", code) }
        }
        let clone = seccomp_syscall_resolve_name("clone")
        let namespaces: [UInt64] = [0x0002_0000, 0x0200_0000, 0x0400_0000, 0x0800_0000, 0x1000_0000, 0x2000_0000, 0x4000_0000]
        for flag in namespaces {
            var compare = scmp_arg_cmp(arg: 0, op: SCMP_CMP_MASKED_EQ, datum_a: flag, datum_b: flag)
            let code = seccomp_rule_add_array(context, eperm, clone, 1, &compare)
            if code != 0 { return SeccompUnavailable("refusing clone with namespaces", code) }
        }
        // TIOCSTI pushes input into a terminal, TIOCLINUX's selection paste too (bubblewrap's
        // filter): a case has no terminal, and this holds wherever one would reach it. The
        // kernel reads the request as 32 bits: the mask keeps high bits from slipping past.
        let ioctl = seccomp_syscall_resolve_name("ioctl")
        for request in [0x5412, 0x541C] {  // TIOCSTI, TIOCLINUX
            var compare = scmp_arg_cmp(arg: 1, op: SCMP_CMP_MASKED_EQ, datum_a: 0xFFFF_FFFF, datum_b: UInt64(request))
            let code = seccomp_rule_add_array(context, eperm, ioctl, 1, &compare)
            if code != 0 { return SeccompUnavailable("refusing terminal input injection", code) }
        }
        let clone3 = seccomp_syscall_resolve_name("clone3")
        if clone3 != __NR_SCMP_ERROR {
            let code = seccomp_rule_add_array(context, errnoAction(ENOSYS), clone3, 0, nil)
            if code != 0 && code != -EDOM { return SeccompUnavailable("answering clone3 with ENOSYS", code) }
        }
        return nil
    }

    /// SCMP_ACT_ERRNO(code), a C macro Swift does not import.
    private static func errnoAction(_ code: Int32) -> UInt32 { 0x0005_0000 | (UInt32(code) & 0xffff) }

    /// The BPF program, through a memory file (libseccomp 2.5 exports only to a descriptor).
    private static func export(_ context: scmp_filter_ctx) -> Result<SeccompFilter, SeccompUnavailable> {
        let fd = asmrun_memfd("asmrun-seccomp")
        guard fd >= 0 else { return .failure(SeccompUnavailable("memfd_create", -errno)) }
        defer { close(fd) }
        let code = seccomp_export_bpf(context, fd)
        guard code == 0 else { return .failure(SeccompUnavailable("exporting the filter", code)) }
        let size = Int(lseek(fd, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: max(0, size))
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard size > 0, read == size, size % 8 == 0, size / 8 <= Int(UInt16.max) else {
            return .failure(SeccompUnavailable("reading the exported filter back", -EIO))
        }
        return .success(SeccompFilter(program: bytes))
    }
}
