import Compare
import Source
import Support

extension TestSuite {
    /// One note per program whose source, or a case of whose `.expect` file, asks for more
    /// than the command line allows: its cases run with the command line's limit (a source
    /// may lower a limit, never raise it). `defaults` are the ceilings `--limit` did not set.
    package func ceilingNotes(_ configuration: SuiteConfiguration, defaults: ResourceLimits) -> [String] {
        let ceilings = configuration.ceilings.filled(from: defaults)
        return programs.compactMap { program in
            guard let settings = program.program?.settings else { return nil }
            var asked: [String] = []
            let timeouts = [settings.timeout] + program.cases.map(\.timeout)
            if let most = timeouts.compactMap({ $0 }).max(), most > configuration.timeout {
                asked.append("timeout \(String(format: "%g", most)) (runs with --timeout \(String(format: "%g", configuration.timeout)))")
            }
            var outputs = [settings.outputLimit]
            var resources = [settings.limits]
            for testCase in program.cases {
                let own = testCase.applyingLimits(to: settings.limits, outputLimit: settings.outputLimit ?? 0)
                resources.append(own.resources)
                outputs.append(own.outputLimit)
            }
            if let most = outputs.compactMap({ $0 }).max(), most > configuration.outputLimit {
                asked.append("limit output \(most) (runs with \(configuration.outputLimit))")
            }
            for (name, value, ceiling) in Self.resourceNames(resources, ceilings) where value > ceiling {
                asked.append("limit \(name) \(value) (runs with \(ceiling))")
            }
            guard !asked.isEmpty else { return nil }
            return "note: \(program.path): asks for more than the command line allows: \(asked.joined(separator: ", ")); "
                + "raise the ceiling with --timeout, --output-limit or --limit NAME=VALUE"
        }
    }

    /// Each resource limit the settings ask for at most, with its ceiling.
    private static func resourceNames(_ limits: [ResourceLimits], _ ceilings: ResourceLimits) -> [(String, Int, Int)] {
        let fields: [(String, KeyPath<ResourceLimits, Int?>)] = [
            ("memory", \.addressSpace), ("file-size", \.fileSize), ("cpu", \.cpuSeconds), ("processes", \.processes),
            ("open-files", \.openFiles),
        ]
        return fields.compactMap { name, field in
            guard let most = limits.compactMap({ $0[keyPath: field] }).max(), let ceiling = ceilings[keyPath: field] else { return nil }
            return (name, most, ceiling)
        }
    }
}
