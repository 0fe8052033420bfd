import Observation

/// The `@Observable` view model the `struct-vm` context makes on demand for one record, and keeps
/// in sync with the record's struct while anything holds it.
@Observable
final class TaskViewModel: TaskFields {
    let id: Int
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
        id = record.id
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}
