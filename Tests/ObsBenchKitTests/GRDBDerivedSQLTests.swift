import BuiltInStrategies
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// GRDB's `sql` derivation: the filtered, sorted list computed by one SQL query shows exactly what
/// the workload's node computes from scratch (a case-sensitive match, an empty query, a query
/// matching nothing, a membership and an order change), and a write leaving the list unchanged
/// re-runs nothing (`skipsUnchangedDerived`). Semantics only: never a timing.
@Suite("GRDB sql derivation of the filtered, sorted list")
@MainActor
struct GRDBDerivedSQLTests {
    @Test("the SQL list equals the node's from-scratch value after every write", arguments: ["grdb-queue", "grdb-pool"])
    func sqlListMatchesEvaluate(name: String) async throws {
        let entry = try #require(StrategyRegistry.entry(named: name))
        #expect(entry.derivationStyles.first == .sql)
        let records = TaskRecord.sample(count: 40)
        let store = try entry.makeStore(records)
        let graph = FilteredSortedWorkload.graph(count: records.count)
        let view = try store.subscribeDerived(DerivedViewSpec(graph: graph, nodes: [0]), style: .sql)
        func expected() throws -> [DerivedValue] {
            var values: [FieldRef: FieldValue] = [:]
            for id in 1...records.count {
                for field in TaskField.allCases { values[FieldRef(id, field)] = try store.read(field, of: id) }
            }
            return graph.evaluate([0]) { values[$0] ?? .priority(0) }
        }
        func check(_ what: String) async throws {
            await store.settle()
            view.catchUp()
            #expect(view.snapshot.failure == nil, "\(name), \(what): \(view.snapshot.failure ?? "")")
            #expect(view.lastOutput == (try expected()), "\(name), \(what)")
        }
        try await check("subscribed")
        let writes: [(String, FieldWrite)] = [
            ("query \"3\"", FieldWrite(1, .title("3"))),
            ("query \"Task 1\"", FieldWrite(1, .title("Task 1"))),
            ("query \"task\" (lower case: matches nothing)", FieldWrite(1, .title("task"))),
            ("empty query", FieldWrite(1, .title(""))),
            ("query \"zzz\"", FieldWrite(1, .title("zzz"))),
            ("query \"Task\"", FieldWrite(1, .title("Task"))),
            ("task 3 completed", FieldWrite(3, .isComplete(true))),
            ("task 5 reopened", FieldWrite(5, .isComplete(false))),
            ("task 6's priority", FieldWrite(6, .priority(0))),
            ("task 9's title", FieldWrite(9, .title("other"))),
        ]
        for (what, write) in writes {
            try store.transaction([write])
            try await check(what)
        }
        let before = view.snapshot.reruns
        try store.write(try store.read(.priority, of: 6), to: 6)
        try await check("task 6's priority written with its value")
        #expect(view.snapshot.reruns == before, "\(name): a write leaving the list unchanged re-ran the view")
        store.unsubscribeDerived(view)
        await store.tearDown()
    }
}
