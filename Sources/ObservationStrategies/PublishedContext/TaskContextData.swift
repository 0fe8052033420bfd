#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The design notes' `Context.Data`: one `ObservableObject` whose `@Published` property holds every
/// record (the notes' properties array; the search query is record 1's title, as in every
/// workload), read by every view as through `@EnvironmentObject`. What the `published-context`
/// strategy stores: a write to any field of any record is a set of `records`, which sends the one
/// `objectWillChange` every view listens to.
final class TaskContextData: ObservableObject {
    @Published var records: [TaskRecord]

    init(records: [TaskRecord]) {
        self.records = records
    }

    /// The record with `id` (1-based, as the store's ids are).
    func task(_ id: Int) -> TaskRecord {
        records[id - 1]
    }
}
