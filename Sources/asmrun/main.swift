import CLI
import Glibc

let arguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map {
        Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
    } ?? []
}
exit(AsmRun.main(bytes: arguments, context: .live()))
