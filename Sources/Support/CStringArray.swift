import Glibc

/// A NULL-terminated `char *[]` owned until `free()`.
package struct CStringArray {
    package let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    package init(_ strings: [String]) {
        count = strings.count
        pointer = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointer[index] = strdup(string) }
        pointer[strings.count] = nil
    }

    package func free() {
        for index in 0..<count { Glibc.free(pointer[index]) }
        pointer.deallocate()
    }
}

package func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
