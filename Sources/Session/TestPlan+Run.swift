import Report
import Support

extension TestPlan {
    /// The run these options make on `host` (`run.id` in the JSON report): the same for every
    /// shard of one run, so `asmrun report merge` can refuse shards of different runs. Only what
    /// decides which cases run and how they are judged counts; report paths, `-j`, `--balance`
    /// and `-v` do not.
    func runIdentity(host: String) -> JSONReport.Run {
        var hash = SHA256()
        for field in [host, paths.joined(separator: "\0"), "\(runners)", filter ?? "", referencePath ?? "", "\(untrusted)"] {
            hash.update(field: field)
        }
        for field in [
            "\(timeout)", "\(outputLimit)", "\(ceilings)", "\(scratchLimit)", "\(isolate)", "\(update)", "\(retries)", "\(allowFlaky)",
        ] {
            hash.update(field: field)
        }
        hash.update(field: "\(shard?.count ?? 0)")
        let id = String(hash.hexDigest().prefix(16))
        return JSONReport.Run(id: id, shard: shard.map { "\($0.index)/\($0.count)" })
    }
}
