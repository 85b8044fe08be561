import CAsmRunSpawn

/// errno values by their symbolic names, as strace prints them.
package enum ErrorNumber {
    /// `ENOENT` for 2; `nil` for a number with no name.
    package static func name(of number: Int32) -> String? {
        asmrun_errno_name(number).map { String(cString: $0) }
    }
}
