import Suite

/// Counts of results for the summary line.
package struct Tally: Sendable, Equatable {
    /// pass + xfail.
    package var passed = 0
    /// fail + error + timeout.
    package var failed = 0
    /// skip.
    package var skipped = 0
    /// Expected failures (included in `passed`).
    package var expectedFailures = 0
    /// Errors (included in `failed`).
    package var errors = 0
    /// Timeouts (included in `failed`).
    package var timeouts = 0
    /// Cases whose runners disagreed.
    var divergences = 0
    /// Ended by an interrupt: neither passed nor failed.
    package var interrupted = 0
    /// `--retries`: failed, then passed on a retry; neither passed nor failed.
    package var flaky = 0

    /// Every result counted (passed + failed + flaky + skipped + interrupted).
    package var results: Int { passed + failed + flaky + skipped + interrupted }

    package init() {}

    /// Adds a case's results.
    package mutating func add(_ report: CaseReport) {
        for result in report.results {
            switch result.status {
            case .pass: passed += 1
            case .xfail:
                passed += 1
                expectedFailures += 1
            case .skip: skipped += 1
            case .fail: failed += 1
            case .error:
                failed += 1
                errors += 1
            case .timeout:
                failed += 1
                timeouts += 1
            case .interrupted: interrupted += 1
            case .flaky: flaky += 1
            }
        }
        if report.divergence != nil { divergences += 1 }
    }

    /// `N passed, N failed`, then `, N flaky`, `, N skipped` and `, N interrupted` when any: the
    /// line CI log readers look for.
    var summaryLine: String {
        "\(passed) passed, \(failed) failed" + (flaky > 0 ? ", \(flaky) flaky" : "") + (skipped > 0 ? ", \(skipped) skipped" : "")
            + (interrupted > 0 ? ", \(interrupted) interrupted" : "")
    }

    /// The breakdown printed above it, when there is anything to break down.
    var detailLine: String? {
        var parts: [String] = []
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if timeouts > 0 { parts.append("\(timeouts) timed out") }
        if divergences > 0 { parts.append("\(divergences) divergence\(divergences == 1 ? "" : "s") between runners") }
        if expectedFailures > 0 { parts.append("\(expectedFailures) expected failure\(expectedFailures == 1 ? "" : "s")") }
        return parts.isEmpty ? nil : "(" + parts.joined(separator: ", ") + ")"
    }
}
