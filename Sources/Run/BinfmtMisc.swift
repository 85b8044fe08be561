import Source
import Support

/// The kernel's binfmt_misc registry as asmrun sees it: whether it is mounted, its global switch,
/// and its entries. Read on demand, never cached: a handler can be enabled between two runs.
package struct BinfmtMisc: Sendable, Equatable {
    /// Where the kernel shows it.
    package static let standardFolder = "/proc/sys/fs/binfmt_misc"

    package let folder: String
    /// The `status` file exists: the binfmt_misc file system is mounted there.
    package let mounted: Bool
    /// The global switch (`status` says `enabled`).
    package let enabled: Bool
    /// Every entry, sorted by name.
    package let handlers: [BinfmtHandler]

    package init(folder: String, mounted: Bool, enabled: Bool, handlers: [BinfmtHandler]) {
        self.folder = folder
        self.mounted = mounted
        self.enabled = enabled
        self.handlers = handlers
    }

    /// Reads the registry in `folder`; an unmounted or unreadable folder reads as not mounted.
    package init(reading folder: String) {
        guard let status = try? Files.read(folder + "/status") else {
            self.init(folder: folder, mounted: false, enabled: false, handlers: [])
            return
        }
        let names = ((try? Files.list(folder)) ?? []).filter { $0 != "status" && $0 != "register" }.sorted()
        let handlers = names.compactMap { name -> BinfmtHandler? in
            guard let bytes = try? Files.read(folder + "/" + name) else { return nil }
            return BinfmtHandler(name: name, text: String(decoding: bytes, as: UTF8.self))
        }
        let enabled = String(decoding: status, as: UTF8.self).hasPrefix("enabled")
        self.init(folder: folder, mounted: true, enabled: enabled, handlers: handlers)
    }

    /// The entries that claim executables of `format`, enabled or not, in the kernel's order of
    /// trying them (by name here: the kernel's order is registration order, which is not shown).
    package func handlers(for format: ObjectFormat) -> [BinfmtHandler] {
        handlers.filter { $0.claims(format) }
    }

    /// The handler the kernel runs an executable of `format` with, or why there is none, with the fix.
    package func handler(for format: ObjectFormat) -> Result<BinfmtHandler, RunnerUnavailable> {
        func unavailable(_ reason: String, _ fix: String) -> Result<BinfmtHandler, RunnerUnavailable> {
            .failure(RunnerUnavailable(runner: "binfmt", reason: reason, fix: fix))
        }
        guard mounted else {
            return unavailable(
                "binfmt_misc is not mounted at \(folder)",
                "mount it with `mount -t binfmt_misc binfmt_misc \(folder)`, or use `--runner qemu`")
        }
        guard enabled else {
            return unavailable("binfmt_misc is disabled (\(folder)/status)", "enable it with `echo 1 > \(folder)/status`")
        }
        let claiming = handlers(for: format)
        guard let handler = claiming.first(where: \.enabled) else {
            if let disabled = claiming.first {
                return unavailable(
                    "the \(format.machineName) handler \(disabled.name) is disabled",
                    "enable it with `echo 1 > \(folder)/\(disabled.name)`")
            }
            return unavailable(
                "no binfmt_misc handler for \(format.machineName) programs is registered",
                "install one (qemu-user-binfmt: `make deps BINFMT=1`; box64, FEX or Rosetta register themselves), or use `--runner qemu`")
        }
        if !handler.flags.contains("F") && !Files.exists(handler.interpreter) {
            return unavailable(
                "the interpreter of handler \(handler.name), \(handler.interpreter), does not exist",
                "reinstall what registered it, or use `--runner qemu`")
        }
        return .success(handler)
    }
}

extension ObjectFormat {
    /// `x86-64` or `i386`: the machine its executables are for.
    package var machineName: String { self == .elf64 ? "x86-64" : "i386" }
}
