import ObservationStrategies

/// Decides whether what a view saw ever existed at a transaction boundary.
///
/// The invariant workload's writers only ever swap completion (un-complete one task, complete
/// another) in one transaction, so every state at a boundary has exactly `completedCount` tasks
/// completed. The view reads `isComplete` and `priority` of every record and derives what a list
/// screen shows: the number of completed tasks and the top `k` of them by priority. A run that
/// counted anything else saw a state between the two halves of a transaction: torn.
public struct ConsistencyChecker: Sendable {
    public var records: Int
    public var completedCount: Int
    public var k: Int

    public init(records: Int, completedCount: Int, k: Int = 5) {
        self.records = records
        self.completedCount = completedCount
        self.k = k
    }

    /// The view's reads: `isComplete` then `priority` of every record, in id order.
    public var viewSpec: ViewSpec {
        ViewSpec(reads: (1...records).map { FieldRef($0, .isComplete) } + (1...records).map { FieldRef($0, .priority) }, recordsHistory: true)
    }

    /// What the view body derives from one run's values: the completed count and the ids of the
    /// top `k` completed tasks by priority (ties by id). Nil for values of the wrong shape.
    public func derive(_ values: [FieldValue]) -> (count: Int, topK: [Int])? {
        guard values.count == 2 * records else { return nil }
        var completed: [(id: Int, priority: Int)] = []
        for index in 0..<records {
            guard case .isComplete(let done) = values[index], case .priority(let priority) = values[records + index] else { return nil }
            if done { completed.append((index + 1, priority)) }
        }
        let top = completed.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.id < $1.id }.prefix(k).map(\.id)
        return (completed.count, Array(top))
    }

    /// Whether one run saw a state that never existed at a transaction boundary: its completed
    /// count is not the boundary count. (The list is derived from the same values, so it always
    /// agrees with the count the same run saw; a torn run shows the user both wrong.)
    public func isTorn(_ values: [FieldValue]) -> Bool {
        guard let derived = derive(values) else { return true }
        return derived.count != completedCount
    }

    /// Torn runs in a view's history (its first run included).
    public func tornRuns(in history: [[FieldValue]]) -> Int {
        history.reduce(0) { $0 + (isTorn($1) ? 1 : 0) }
    }
}
