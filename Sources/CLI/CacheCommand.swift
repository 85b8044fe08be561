import Build
import Processes
import Support

/// `asmrun cache info|clean [--cache-dir DIR]`.
enum CacheCommand {
    static func main(_ arguments: [String], context: Context) -> Int32 {
        var scanner = ArgumentScanner(arguments)
        var action: String?
        var options = CacheOptions()
        do {
            while let argument = scanner.next() {
                switch argument {
                case "--cache-dir": options.directory = try scanner.value(for: argument)
                case "info" where action == nil, "clean" where action == nil: action = argument
                default: throw UsageError("usage: asmrun cache info|clean [--cache-dir DIR]")
                }
            }
            guard let action else { throw UsageError("usage: asmrun cache info|clean [--cache-dir DIR]") }
            guard let root = options.root(environment: context.environment) else {
                throw UsageError("no cache folder: set HOME, XDG_CACHE_HOME or --cache-dir")
            }
            // Only a folder with asmrun's tag is touched, and in it only asmrun's own names.
            let folder = try CacheFolder.existing(root)
            let maintenance = folder.map(CacheMaintenance.init)
            if action == "clean" {
                let count = maintenance?.clean() ?? 0
                context.console.write("removed \(count) entries from \(root.displayEscaped)\n")
            } else {
                let entries = maintenance?.entries() ?? []
                let bytes = entries.reduce(0) { $0 + $1.bytes }
                context.console.write(
                    """
                    cache: \(root.displayEscaped)\(folder == nil ? " (not created yet)" : "")
                    entries: \(entries.count)
                    size: \(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB (limit \(options.maxBytes >> 20) MiB, least recently used evicted first)

                    """)
            }
            return ExitStatus.success
        } catch {
            return ExitStatus.failed(error, in: .test, context.diagnostics)
        }
    }
}
