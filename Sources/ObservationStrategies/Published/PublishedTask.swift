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
