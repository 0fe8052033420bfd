import ObservationStrategies

/// The design notes' property inspector: a searched, filtered, sorted list. Records 2...N are
/// the tasks; record 1's title holds the search query (state the store holds, changed through its
/// ordinary write). The list is the ids of incomplete tasks whose title contains the query, sorted
/// by priority then id; a list view reads it, and a row view reads the title and priority of each
/// task listed when the views are subscribed. One workload per kind of write (``Write``).
public struct FilteredSortedWorkload: Workload {
    /// The write measured: each is a row of its own.
    public enum Write: String, Sendable, CaseIterable {
        /// A listed task is completed, then reopened: it leaves the list and comes back.
        case membership
        /// A listed task's priority moves between its own and another: only the order changes.
        case order
        /// Record 1's priority: a field of the store no derivation and no view reads.
        case unreadField = "unread-field"
        /// A listed task's priority, written with the value it already has.
        case sameValue = "same-value"
        /// The query, between two searches.
        case query
    }

    public let write: Write
    public var name: String { "filtered-sorted-\(write.rawValue)" }
    public var summary: String {
        "a searched, filtered, sorted list of N records and a view per row; write: \(write.rawValue) (every derivation style the strategy has)"
    }
    /// Counted under `--measure instructions` on short loops of write pairs (``CountedWrites``): a
    /// write here can re-run the list over 1,000 records and ~180 row views.
    public let countsInstructions = true

    /// The two queries the `query` write alternates between; the first is the one set at the start.
    public static let queries = ("7", "9")

    public init(_ write: Write) {
        self.write = write
    }

    /// Its rows in every style, and its concrete loop's (``ConcreteApp``).
    public func writesRows(named rowWorkload: String) -> Bool { DerivedRows.isRow(rowWorkload, of: name) || rowWorkload == DerivedRows.concreteName(name) }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let records = TaskRecord.sample(count: context.objects)
        var output = try await context.measureDerived(workload: name) { try Self.scenario(records: records, write: write) }
        output.append(
            try await context.measureConcreteDerived(workload: name) { app in
                ConcreteDerivedLoop.filteredSorted(app, records: records, scenario: try Self.scenario(records: records, write: write))
            })
        return output
    }

    /// The list's graph over `records` (ids 1...N): node 0 is the list.
    public static func graph(count: Int) -> DerivedSpec {
        let tasks = 2...max(2, count)
        let reads = [FieldRef(1, .title)] + tasks.flatMap { [FieldRef($0, .isComplete), FieldRef($0, .title), FieldRef($0, .priority)] }
        return DerivedSpec(nodes: [
            DerivedNode(
                name: "filtered-sorted", reads: count >= 2 ? reads : [FieldRef(1, .title)], shape: .incompleteMatchingSortedByPriority(ids: tasks, queryRecord: 1)
            ) { reader in
                guard case .title(let query) = reader.field(FieldRef(1, .title)) else { return .ids([]) }
                var listed: [(priority: Int, id: Int)] = []
                guard count >= 2 else { return .ids([]) }
                for id in tasks {
                    guard case .isComplete(false) = reader.field(FieldRef(id, .isComplete)) else { continue }
                    guard case .title(let title) = reader.field(FieldRef(id, .title)), title.contains(query) else { continue }
                    guard case .priority(let priority) = reader.field(FieldRef(id, .priority)) else { continue }
                    listed.append((priority, id))
                }
                listed.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
                return .ids(listed.map(\.id))
            }
        ])
    }

    static func scenario(records: [TaskRecord], write: Write) throws -> DerivedScenario {
        let graph = graph(count: records.count)
        var start = records
        if !start.isEmpty { start[0].title = queries.0 }
        let values = Dictionary(uniqueKeysWithValues: start.flatMap { record in TaskField.allCases.map { (FieldRef(record.id, $0), record.value(of: $0)) } })
        guard case .ids(let listed) = graph.evaluate([0], field: { values[$0] ?? .priority(0) })[0], listed.count >= 2 else {
            throw DerivedCheckError.tooFewRecords("the filtered list needs at least two listed tasks (query \"\(queries.0)\"); \(records.count) records list fewer")
        }
        let views = [DerivedViewSpec(graph: graph, nodes: [0])] + listed.map { DerivedViewSpec(graph: graph, nodes: [], fields: [FieldRef($0, .title), FieldRef($0, .priority)]) }
        let first = listed[0]
        let moved = listed[1]
        let movedPriority = records[moved - 1].priority
        let otherPriority = movedPriority == 0 ? 4 : 0
        let samePriority = records[first - 1].priority
        let measured: @Sendable (Int) -> FieldWrite
        let note: String
        switch write {
        case .membership:
            measured = { FieldWrite(first, .isComplete($0 % 2 == 0)) }
            note = "task \(first) completed, then reopened: it leaves the list and comes back"
        case .order:
            measured = { FieldWrite(moved, .priority($0 % 2 == 0 ? otherPriority : movedPriority)) }
            note = "task \(moved)'s priority \(movedPriority) ↔ \(otherPriority): the list's order changes, not its members"
        case .unreadField:
            measured = { FieldWrite(1, .priority($0 % 2 == 0 ? 7 : 0)) }
            note = "record 1's priority, which no derivation and no view reads (record 1 holds the query in its title)"
        case .sameValue:
            measured = { _ in FieldWrite(first, .priority(samePriority)) }
            note = "task \(first)'s priority written with the value it has (\(samePriority))"
        case .query:
            measured = { FieldWrite(1, .title($0 % 2 == 0 ? queries.1 : queries.0)) }
            note = "the query (record 1's title) \"\(queries.0)\" ↔ \"\(queries.1)\""
        }
        return DerivedScenario(
            graph: graph, views: views, setup: [FieldWrite(1, .title(queries.0))], write: measured,
            note: "\(note); \(listed.count) tasks listed, \(views.count) views")
    }
}
