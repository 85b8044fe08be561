import Build
import Source
import Support

extension RunCommand {
    /// Refuses an `option` path (`-o`, trace's `--json`) that names a file the program reads:
    /// what it writes (`replacing`) would take its place: a source (`-o hello.asm`), an include
    /// or a C header.
    static func refuseInput(_ output: String, option: String, replacing: String, _ program: Program, headers: [String]) throws {
        let included = program.dependencies.values.flatMap { $0.compactMap(\.path) } + headers
        for input in program.files + included where Files.sameFile(output, input) {
            let what =
                input == program.main.path
                ? "the program's source"
                : program.files.contains(input) ? "a source of the program (\(input))" : "a file the program includes (\(input))"
            let suggestion = option == "-o" ? BuildPlan.operand(program.name) : program.name + ".json"
            throw UsageError(
                "\(option) \(output.displayEscaped) names \(what); \(replacing) would replace it",
                fix: "choose another path, such as \(option) \(suggestion)")
        }
    }
}
