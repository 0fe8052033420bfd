import Observation

/// A record as an `@Observable` class: what the `observable` strategy stores.
@Observable
final class ObservableTask {
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
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
