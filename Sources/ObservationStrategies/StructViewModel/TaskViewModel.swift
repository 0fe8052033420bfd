import Observation

/// The `@Observable` view model the `struct-vm` context makes on demand for one record, and keeps
/// in sync with the record's struct while anything holds it.
@Observable
final class TaskViewModel {
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

    func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }

    func apply(_ value: FieldValue) {
        switch value {
        case .title(let newValue): title = newValue
        case .isComplete(let newValue): isComplete = newValue
        case .priority(let newValue): priority = newValue
        }
    }
}
