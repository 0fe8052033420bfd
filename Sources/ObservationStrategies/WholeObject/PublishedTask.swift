#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A record as an `ObservableObject` with `@Published` fields: what the `published` strategy stores.
final class PublishedTask: ObservableObject {
    @Published var title: String
    @Published var isComplete: Bool
    @Published var priority: Int

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
