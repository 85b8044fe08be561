import Glibc

/// Why the filter could not be built.
package struct SeccompUnavailable: Error, Sendable, CustomStringConvertible {
    package let description: String

    init(_ step: String, _ code: Int32? = nil) {
        description = code.map { "\(step) failed (\(String(cString: strerror(-$0))))" } ?? step
    }
}
