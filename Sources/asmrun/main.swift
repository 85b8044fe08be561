import CLI
import Glibc

exit(AsmRun.main(Array(CommandLine.arguments.dropFirst()), context: .live()))
