import CLI
import Glibc

exit(AsmRun.main(bytes: AsmRun.commandLineBytes(), context: .live()))
