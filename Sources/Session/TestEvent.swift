import Suite

/// What a running `TestSession` tells its front end, in order: `started` once the suite is
/// loaded, then cases as they finish (in report order) with remarks between them.
package enum TestEvent: Sendable {
    /// The suite is loaded and its runners chosen: this many results (cases × runners) will come.
    case started(total: Int)
    /// A case finished under every runner (in discovery order whatever the job count).
    case caseFinished(CaseReport)
    /// Results that finished but are reported later (`--update` records them first).
    case casesRan(Int)
    /// A line about the run (`updated hello.expect`, a containment note, a `+ command` trace).
    case remark(String)
}
