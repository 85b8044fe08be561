import Processes
import Run
import Source
import Support

/// `asmrun debug FILE.asm [options] [--batch] [-- ARGS]`: build as `asmrun FILE.asm` would, then
/// open gdb on the program stopped where it starts.
struct DebugCommand {
    let options: RunOptions
    let context: Context

    static func main(_ arguments: [String], context: Context) -> Int32 {
        AsmRun.subcommand(arguments, help: Usage.main, failing: .run, context: context) {
            try DebugCommand(options: try RunOptions(parsing: arguments, debugging: true), context: context).execute()
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
