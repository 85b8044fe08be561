/// asmrun's own exit statuses, in the style of timeout(1).
public enum ExitStatus {
    /// The program ran past `--timeout`.
    public static let timedOut: Int32 = 124
    /// asmrun itself failed: usage, build, missing tool.
    public static let toolFailure: Int32 = 125
}
