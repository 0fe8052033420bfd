#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// A record as an `ObservableObject` with `@Published` fields: what the `published` strategy stores.
final class PublishedTask: ObservableObject, TaskFields {
    @Published var title: String
    @Published var isComplete: Bool
    @Published var priority: Int
    #if OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED
        /// Views watching this record (``BuildCanary``): only a write one sees does the extra work.
        @exclusivity(unchecked) var canaryViews = 0
    #endif

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}

extension PublishedTask {
    /// `TaskFields.value(of:)` on `PublishedTask` itself, the static path the store's code takes
    /// (a member of the type is chosen over the protocol extension's): each case calls the
    /// property wrapper's getter directly, as an app's code does, not through `TaskFields`' witness
    /// table: a metadata accessor and a witness thunk per access, and on a write a retain and a
    /// release of the record too (with the render pass's retain of the store, 120 of the 2,442 Ir
    /// that `write-unobserved` counted net of `plain`, against 2,318 for the concrete loop).
    @inline(__always)
    func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }

    /// `TaskFields.apply(_:)` on `PublishedTask` itself: the setters, called directly.
    @inline(__always)
    func apply(_ value: FieldValue) {
        switch value {
        case .title(let newValue): title = newValue
        case .isComplete(let newValue): isComplete = newValue
        case .priority(let newValue): priority = newValue
        }
    }
}
