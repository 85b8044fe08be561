import CAsmRunSpawn
import Dispatch
import Foundation
import Glibc
import Synchronization

/// `asmrun test`: discover, build, run, compare, report.
public struct TestCommand: Sendable {
    /// The parsed options.
    public let options: TestOptions
    /// Side effects.
    public let context: Context

    /// Creates the command.
    public init(options: TestOptions, context: Context) {
        self.options = options
        self.context = context
    }

    static func main(_ arguments: [String], context: Context) -> Int32 {
        if AsmRun.wantsHelp(arguments) {
            context.console.write(Usage.test)
            return 0
        }
        do {
            return TestCommand(options: try TestOptions(parsing: arguments), context: context).execute()
        } catch {
            context.console.error("\(error)")
            return 2
        }
    }

    /// Runs the suite: 0 when everything passed, 1 on any failure, 2 on a usage or setup error,
    /// 130 when interrupted.
    public func execute() -> Int32 {
        let started = monotonicSeconds()
        var suite = TestSuite(paths: options.paths, shard: options.shard)
        for problem in suite.problems { context.console.error(problem) }
        if suite.missingPaths > 0 { return 2 }
        if suite.programs.isEmpty {
            context.console.error(
                "no programs found in \(options.paths.joined(separator: " ")); name .asm files or folders that hold them")
            return 2
        }
        if let filter = options.filter, let regex = try? Regex(filter) {
            suite.programs = suite.programs.compactMap { program in
                var selected = program
                let names = program.allCases.map(\.name).filter { program.id(of: $0).contains(regex) }
                guard !names.isEmpty else { return nil }
                selected.selection = Set(names)
                return selected
            }
            if suite.programs.isEmpty {
                context.console.error("no case id matches --filter \(filter); `asmrun test --list` shows the ids")
                return 2
            }
        }
        let runners: [ObjectFormat: [Runner]]
        do {
            runners = try resolveRunners(for: suite.programs)
        } catch {
            context.console.error("\(error)")
            return 2
        }
        if options.list {
            for program in suite.programs {
                let names = runners[program.source?.format ?? .elf64]?.map(\.name).joined(separator: ",") ?? ""
                for testCase in program.cases { context.console.write("\(program.id(of: testCase.name)) [\(names)]\n") }
            }
            return 0
        }
        return run(suite, runners, started: started)
    }

    private func run(_ suite: TestSuite, _ runners: [ObjectFormat: [Runner]], started: Double) -> Int32 {
        let total = suite.programs.reduce(0) { $0 + $1.cases.count * (runners[$1.source?.format ?? .elf64]?.count ?? 0) }
        let reporter = ConsoleReporter(console: context.console, verbose: options.verbose, environment: context.environment, total: total)
        let store: ArtifactStore
        let scratch: TemporaryDirectory
        do {
            store = try ArtifactStore(options: options.cache, context: context)
            scratch = try TemporaryDirectory(prefix: "test", environment: context.environment)
        } catch {
            context.console.error("\(error)")
            return 2
        }
        let containment = Containment(writable: scratch.path, isolate: options.isolate)
        defer {
            containment.close(reapingAll: context.ownsProcess)
            store.close()
            scratch.remove()
        }
        for note in containment.notes { reporter.note("note: \(note)") }
        let runner = SuiteRunner(
            programs: suite.programs, runners: runners, options: options, context: context, store: store,
            scratch: scratch.path, containment: containment, emit: reporter.caseFinished, note: reporter.note)
        let interrupts = InterruptHandler { runner.cancel() }
        let outcome = runner.run()
        let interrupted = interrupts.stop()
        let seconds = monotonicSeconds() - started
        for path in outcome.updatedFiles { reporter.note("updated \(path)") }
        var exitStatus: Int32 = reporter.tally.failed > 0 ? 1 : 0
        if let path = options.junitPath, !write({ JUnitReport.render(outcome, seconds: seconds) }, to: path) { exitStatus = 2 }
        if let path = options.jsonPath, !write({ try JSONReport.render(outcome, seconds: seconds) }, to: path) { exitStatus = 2 }
        if !suite.problems.isEmpty {
            reporter.note("\(suite.problems.count) path\(suite.problems.count == 1 ? "" : "s") could not be searched (named above)")
            exitStatus = max(exitStatus, 1)
        }
        reporter.finish(complete: outcome.complete, seconds: seconds)
        if interrupted { return 130 }
        if !outcome.complete && exitStatus == 0 { exitStatus = 1 }
        return exitStatus
    }

    private func write(_ render: () throws -> String, to path: String) -> Bool {
        do {
            try AtomicFile.write(Array(try render().utf8), to: path)
            return true
        } catch {
            context.console.error("\(error)")
            return false
        }
    }

    /// The runners for each format present; `native` is dropped, once, where the host cannot run it.
    private func resolveRunners(for programs: [TestProgram]) throws -> [ObjectFormat: [Runner]] {
        let formats = Set(programs.compactMap { $0.source?.format }).union([.elf64])
        var resolved: [ObjectFormat: [Runner]] = [:]
        var dropped = Set<String>()
        for format in ObjectFormat.allCases where formats.contains(format) {
            var list: [Runner] = []
            for choice in options.runners {
                do {
                    let runner = try Runner.resolve(choice, format: format, toolchain: context.toolchain)
                    if !list.contains(where: { $0.name == runner.name }) { list.append(runner) }
                } catch is RunnerUnavailable where choice == .native {
                    if programs.contains(where: { $0.source?.format == format }), dropped.insert("native").inserted {
                        let host = context.toolchain.host.architecture
                        context.console.error("note: native runner skipped: x86 programs do not run natively on this \(host) host")
                    }
                }
            }
            if list.isEmpty && programs.contains(where: { $0.source?.format == format }) {
                throw UsageError("no runner left for \(format.rawValue) programs on this host; use `--runner qemu`")
            }
            resolved[format] = list
        }
        return resolved
    }
}
