import Run
import Sandbox
import Source
import Support

/// `asmrun debug FILE.asm [options] [--batch] [-- ARGS]`: build as `asmrun FILE.asm` would, then
/// open gdb on the program stopped where it starts.
struct DebugCommand {
    let options: RunOptions
    let context: Context

    static func main(_ arguments: [String], context: Context) -> Int32 {
        if AsmRun.wantsHelp(arguments) {
            context.console.write(Usage.main)
            return ExitStatus.success
        }
        do {
            let options = try RunOptions(parsing: arguments, debugging: true)
            return try DebugCommand(options: options, context: context).execute()
        } catch {
            return ExitStatus.failed(error, in: .run, context.diagnostics)
        }
    }

    func execute() throws -> Int32 {
        let session = try DebugSession(launcher: context.launcher, toolchain: context.toolchain)
        if let stdin = options.stdinFile, !Files.exists(stdin) || Files.isDirectory(stdin) {
            throw FileError(path: stdin, problem: "cannot be read (--stdin)", fix: "name a file the program should read as its input")
        }
        return try RunCommand(options: options, context: context).withDebugRun(prefix: "debug") { run, _, folder in
            ExitStatus.program(
                try session.start(run, batch: options.batch, folder: folder, stdin: options.stdinFile, environment: context.environment))
        }
    }
}
