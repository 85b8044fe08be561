import Processes
import Support

/// qemu-user with its gdbstub on a Unix socket, for gdb to connect to: the one way to debug an
/// x86 program on a host that cannot run it (and the same way on one that can).
enum Gdbstub {
    /// Starts `qemu` (a qemu runner's command) waiting for a debugger on `socket`, on a thread of
    /// its own; once the socket exists, calls `session` (which runs gdb), then `end` (which makes
    /// sure qemu ends: gdb kills the program when it is done, but a `detach` leaves it running)
    /// and waits for qemu. `nil` when qemu ended or hung without opening the socket.
    static func serve<Result>(
        _ qemu: Command, options: LaunchOptions, socket: String, launcher: any ProcessLaunching, end: () -> Void,
        session: () -> Result
    ) -> Result? {
        var emulator = qemu
        emulator.arguments = ["-g", socket] + emulator.arguments
        let ended = socket + ".ended"
        let finished = Semaphore()
        let started = DetachedThread.start { [emulator] in
            _ = try? launcher.run(emulator, options: options)
            try? AtomicFile.write([], to: ended)
            finished.signal()
        }
        guard started else { return nil }
        defer { finished.wait() }
        guard Files.awaitCreation(socket, seconds: 10, unlessCreated: ended) else {
            end()
            return nil
        }
        let result = session()
        end()
        return result
    }
}
