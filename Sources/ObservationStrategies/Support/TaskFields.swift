/// A record stored as a reference type with the three `TaskRecord` fields, whatever observation it
/// carries (`@Observable`, `@Published`, none): the shared way to read and write a field by name.
protocol TaskFields: AnyObject {
    var title: String { get set }
    var isComplete: Bool { get set }
    var priority: Int { get set }
}

extension TaskFields {
    @inline(__always)
    func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }

    @inline(__always)
    func apply(_ value: FieldValue) {
        switch value {
        case .title(let newValue): title = newValue
        case .isComplete(let newValue): isComplete = newValue
        case .priority(let newValue): priority = newValue
        }
    }
}
