import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The derived rows' harness share: the concrete loops' rows are written for `observable`,
/// `published`, `published-context`, `observable-context`, `state-subject` and `struct-vm` (and no other strategy), their views show what a
/// from-scratch computation gives, and the table reads a
/// share off two counts only where they differ beyond their intervals. On constructed counts and
/// on the loops' checks, never on a measured share.
@Suite("derived harness share")
@MainActor
struct DerivedHarnessShareTests {
    static func counted(_ workload: String, _ values: [Double], strategy: String = "observable") -> ResultRow {
        ResultRow(
            runID: "r", suite: Suite.derived.name, workload: workload, strategy: strategy, executor: RowKey.mainActor, objects: 1_000, subscribers: 1,
            concurrency: 1, metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics(values), note: "", rounds: 1)
    }

    @Test("the strategies with a concrete app write concrete-loop rows whose outputs check; another strategy does not")
    func concreteRows() async throws {
        for workload in [FilteredSortedWorkload(.membership) as any Workload, FilteredSortedWorkload(.query), DiamondWorkload(), FanOutWorkload(width: 10)] {
            for entry in [
                StrategyEntry(ObservableStrategy.self), StrategyEntry(PublishedStrategy.self), StrategyEntry(PublishedContextStrategy.self),
                StrategyEntry(ObservableContextStrategy.self), StrategyEntry(StructViewModelStrategy.self),
            ] {
                let rows = try await DerivedSuiteTests.rows(workload, entry)
                #expect(!rows.contains { $0.isError }, "\(rows.filter(\.isError).map(\.note))")
                let concrete = rows.filter { $0.workload == DerivedRows.concreteName(workload.name) && $0.metric == .latency }
                #expect(concrete.count == 1, "\(entry.name) \(workload.name)")
            }
            #expect(workload.writesRows(named: DerivedRows.concreteName(workload.name)))
            let other = try await DerivedSuiteTests.rows(workload, StrategyEntry(DeduplicatedObjectStrategy.self))
            #expect(!other.contains { $0.workload.hasSuffix(DerivedRows.concreteSuffix) })
        }
    }

    @Test(
        "each app's concrete loop follows its writes: the list after a task leaves it and comes back, the diamond and the fan-out after each write",
        arguments: [ConcreteApp.observable, .published, .publishedContext, .observableContext, .stateSubject, .structVM])
    func concreteLoopFollowsWrites(app: ConcreteApp) throws {
        let records = TaskRecord.sample(count: 100)
        var loops = try FilteredSortedWorkload.Write.allCases.map { write in
            (
                "filtered-sorted-\(write.rawValue)",
                ConcreteDerivedLoop.filteredSorted(app, records: records, scenario: try FilteredSortedWorkload.scenario(records: records, write: write))
            )
        }
        loops.append(("diamond", ConcreteDerivedLoop.diamond(app, records: records, scenario: DiamondWorkload.scenario())))
        let fanOut = FanOutWorkload(width: 10)
        loops.append((fanOut.name, ConcreteDerivedLoop.fanOut(app, width: 10, records: records, scenario: fanOut.scenario())))
        for (name, loop) in loops {
            for k in 0..<3 {
                loop.write(k)
                try loop.check(name)
            }
        }
    }

    @Test("a concrete loop whose view missed a write fails its check (a view invalidated, a cache left stale)", arguments: [ConcreteApp.published, .structVM])
    func concreteLoopCheckCatchesAStaleView(app: ConcreteApp) throws {
        let records = TaskRecord.sample(count: 100)
        let fanOut = FanOutWorkload(width: 3)
        let loop = ConcreteDerivedLoop.fanOut(app, width: 3, records: records, scenario: fanOut.scenario())
        loop.write(0)
        try loop.check(fanOut.name)
        loop.writeWithoutRendering(1)
        #expect(throws: DerivedCheckError.self) { try loop.check(fanOut.name) }
    }

    @Test("the share table: a share where two counts differ beyond their intervals, 'within noise' where they overlap; nothing without concrete rows")
    func table() throws {
        let rows = [
            Self.counted("diamond", [3_000, 3_000, 3_000]), Self.counted("diamond-concrete", [1_500, 1_500, 1_500]),
            Self.counted("filtered-sorted-order", [1_000, 1_100, 1_200]), Self.counted("filtered-sorted-order-concrete", [1_050, 1_050, 1_050]),
            Self.counted("diamond", [2_000, 2_000, 2_000], strategy: "published"),
        ]
        let tables = SummaryTable.derivedTables(of: .derived, rows: rows, strategies: ["observable", "published"])
        let share = try #require(tables.first { $0.title == "derived · harness share" })
        #expect(share.columns == ["filtered-sorted-order", "diamond"])
        #expect(share.rows.map(\.strategy) == ["observable", "observable concrete", "harness share"])
        #expect(share.rows[2].cells == ["within noise", "50%"])
        #expect(share.footnotes.contains { $0.hasPrefix("no concrete loop yet for published,") }, "\(share.footnotes)")
        let withoutConcrete = SummaryTable.derivedTables(of: .derived, rows: [Self.counted("diamond", [2_000, 2_000, 2_000])], strategies: ["observable"])
        #expect(!withoutConcrete.contains { $0.title == "derived · harness share" })
    }
}
