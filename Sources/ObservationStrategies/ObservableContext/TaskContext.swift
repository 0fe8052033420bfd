import Observation

/// One `@Observable` context holding every record in a single collection property, serving
/// `task(id)`: what the `observable-context` strategy stores. Observation tracks `records` as one
/// property, so reading any record through it tracks the whole collection.
@Observable
final class TaskContext {
    var records: [TaskRecord]

    init(records: [TaskRecord]) {
        self.records = records
    }

    /// The record with `id` (1-based, as the store's ids are).
    func task(_ id: Int) -> TaskRecord {
        records[id - 1]
    }
}
