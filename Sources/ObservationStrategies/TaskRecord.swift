/// The one record every strategy stores: a to-do item, as in the app most persistence layers start from.
public struct TaskRecord: Hashable, Sendable, Identifiable {
    /// Record identifiers run from 1 to N in a store of N records.
    public var id: Int
    public var title: String
    public var isComplete: Bool
    public var priority: Int

    public init(id: Int, title: String, isComplete: Bool, priority: Int) {
        self.id = id
        self.title = title
        self.isComplete = isComplete
        self.priority = priority
    }

    /// N deterministic records with ids 1...N, so every strategy starts from the same data.
    public static func sample(count: Int) -> [TaskRecord] {
        (0..<max(count, 0)).map { index in
            TaskRecord(id: index + 1, title: "Task \(index + 1)", isComplete: index % 3 == 0, priority: index % 5)
        }
    }

    /// The value of one field of this record.
    public func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }

    /// Stores `value` into the matching field.
    public mutating func apply(_ value: FieldValue) {
        switch value {
        case .title(let newTitle): title = newTitle
        case .isComplete(let newFlag): isComplete = newFlag
        case .priority(let newPriority): priority = newPriority
        }
    }
}

/// A field of `TaskRecord` that a view can read and a write can change.
public enum TaskField: String, CaseIterable, Hashable, Sendable {
    case title
    case isComplete
    case priority

    /// The SQL column that stores this field in the `grdb` strategies.
    public var columnName: String { rawValue }
}

/// A field together with its value: what a read returns and what a write stores.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
    case title(String)
    case isComplete(Bool)
    case priority(Int)

    public var field: TaskField {
        switch self {
        case .title: .title
        case .isComplete: .isComplete
        case .priority: .priority
        }
    }

    public var description: String {
        switch self {
        case .title(let value): "title=\(value)"
        case .isComplete(let value): "isComplete=\(value)"
        case .priority(let value): "priority=\(value)"
        }
    }
}

/// One field of one record: the unit a view reads.
public struct FieldRef: Hashable, Sendable, CustomStringConvertible {
    public var id: Int
    public var field: TaskField

    public init(_ id: Int, _ field: TaskField) {
        self.id = id
        self.field = field
    }

    public var description: String { "#\(id).\(field.rawValue)" }
}

/// One write inside a transaction: a new value for one field of one record.
public struct FieldWrite: Hashable, Sendable {
    public var id: Int
    public var value: FieldValue

    public init(_ id: Int, _ value: FieldValue) {
        self.id = id
        self.value = value
    }
}

/// Errors every strategy throws for bad input, instead of crashing or returning a default.
public enum StrategyError: Error, Equatable, CustomStringConvertible {
    case unknownRecord(id: Int, validRange: ClosedRange<Int>?)
    case emptyView
    case unknownView
    case storeFailure(String)

    public var description: String {
        switch self {
        case .unknownRecord(let id, let range?):
            "no record with id \(id) (this store holds ids \(range.lowerBound)...\(range.upperBound))"
        case .unknownRecord(let id, nil):
            "no record with id \(id) (this store is empty)"
        case .emptyView:
            "a view must read at least one field"
        case .unknownView:
            "this view was not subscribed to this store, or was already unsubscribed"
        case .storeFailure(let message):
            "the store failed: \(message)"
        }
    }
}
