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

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}
