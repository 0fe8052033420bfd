import Observation

/// A record as an `@Observable` class: what the `observable` strategy stores.
@Observable
final class ObservableTask: TaskFields {
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}
