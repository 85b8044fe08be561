import Synchronization

/// A flag one thread raises and others read (an interrupt that ends a search), shared by
/// reference.
package final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    package init() {}

    /// Raises it; it stays raised.
    package func set() { raised.store(true, ordering: .releasing) }

    /// Raises it; true for the one call that raised it (what is done once, whoever comes first).
    package func raiseFirst() -> Bool { !raised.exchange(true, ordering: .acquiringAndReleasing) }

    /// Whether it was raised.
    package var isSet: Bool { raised.load(ordering: .acquiring) }
}
