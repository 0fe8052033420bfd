import Foundation
import ObsBenchKit
import ObservationStrategies
import Testing

/// The consistency workload as an instrument: it must catch a store that shows half a commit, and
/// find nothing in one that shows every commit whole. Both stores are `published` underneath and
/// differ only in how a transaction (and so a commit from the background) is applied, so what is
/// tested is the workload and its checker, never a strategy under study. What the real strategies
/// show is a finding: it is reported in the run and in docs/findings.md, not asserted here.
@Suite("Torn-state detection", .timeLimit(.minutes(2)))
@MainActor
struct TornStateDetectionTests {
    static func run(_ entry: StrategyEntry, writers: Int, views: InvariantWorkload.Views) async throws -> [ResultRow] {
        let context = WorkloadContext(runID: "test", suite: "consistency", strategy: entry, sampler: .quick, objects: 20, quick: true)
        return try await InvariantWorkload(writers: writers, views: views).run(context).rows
    }

    static func value(_ rows: [ResultRow], _ metric: Metric) -> Double? {
        rows.first { $0.metric == metric }?.value
    }

    @Test(
        "a store that shows a commit write by write is caught tearing, by either view shape, with one writer or two",
        arguments: [1, 2], InvariantWorkload.Views.allCases)
    func tearingStoreIsCaught(writers: Int, views: InvariantWorkload.Views) async throws {
        let workload = InvariantWorkload(writers: writers, views: views)
        let rows = try await Self.run(StrategyEntry(CommitTestStore<WriteByWriteCommits>.self), writers: writers, views: views)
        let commits = Double(writers * InvariantWorkload.commitsPerWriter(quick: true))
        #expect(Self.value(rows, .transactions) == commits)
        let torn = try #require(Self.value(rows, workload.tornMetric))
        #expect(torn > 0, "\(workload.name): half-applied commits were shown and none was flagged")
        // Every commit writes two or three fields, each shown: more than one re-run per commit.
        #expect(try #require(Self.value(rows, .rerunsPerTransaction)) > 1)
    }

    @Test("a store that shows every commit whole is not flagged by one observation, with one writer or two", arguments: [1, 2])
    func wholeStoreIsNotFlagged(writers: Int) async throws {
        let rows = try await Self.run(StrategyEntry(CommitTestStore<WholeCommits>.self), writers: writers, views: .oneObservation)
        #expect(Self.value(rows, .transactions) == Double(writers * InvariantWorkload.commitsPerWriter(quick: true)))
        #expect(Self.value(rows, .tornObservations) == 0, "\(rows.first { $0.metric == .tornObservations }?.note ?? "")")
        // The zero means something: the view re-ran.
        #expect(try #require(Self.value(rows, .rerunsPerTransaction)) > 0)
    }

    @Test("a view that never re-runs shows nothing torn, and the row says that nothing was checked")
    func viewsThatNeverRanCheckNothing() async throws {
        let rows = try await Self.run(StrategyEntry(PlainStrategy.self), writers: 1, views: .oneObservation)
        #expect(Self.value(rows, .rerunsPerTransaction) == 0)
        let torn = try #require(rows.first { $0.metric == .tornObservations })
        #expect(torn.value == 0)
        #expect(torn.note.contains("the views never re-ran, so nothing was checked"))
    }
}

/// How a `CommitTestStore` applies a transaction, and what it declares.
protocol CommitMode {
    static var name: String { get }
    /// Whether the store declares transactions: true only of the mode that keeps them.
    static var transactional: Bool { get }
    /// Applies `writes` to `published`.
    @MainActor static func apply(_ writes: [FieldWrite], to published: PublishedStrategy) throws
}

/// `published`'s own transaction: every write applied, then one render on the main actor, so a
/// view sees the commit whole. Declared transactional, which for this store is true.
enum WholeCommits: CommitMode {
    static let name = "whole-commits"
    static let transactional = true
    @MainActor static func apply(_ writes: [FieldWrite], to published: PublishedStrategy) throws { try published.transaction(writes) }
}

/// Write by write, each write rendered before the next is applied, so a view sees every
/// intermediate state. Declared not transactional, as it is not.
enum WriteByWriteCommits: CommitMode {
    static let name = "write-by-write-commits"
    static let transactional = false
    @MainActor static func apply(_ writes: [FieldWrite], to published: PublishedStrategy) throws {
        for write in writes { _ = try published.read(write.value.field, of: write.id) }
        for write in writes { try published.write(write.value, to: write.id) }
    }
}

/// `published` with its transactions applied as `Mode` says; everything else is `published`'s.
/// The default `commitFromBackground` hops to the main actor and calls `transaction`, so a commit
/// from a background writer is applied the same way.
@MainActor
final class CommitTestStore<Mode: CommitMode>: ObservationStrategy {
    nonisolated static var descriptor: StrategyDescriptor {
        StrategyDescriptor(
            name: Mode.name, summary: "published, applying each transaction as \(Mode.name) (a test store)", dependency: "OpenCombine 0.14",
            capabilities: Capabilities(granularity: .object, deduplicates: false, delivery: .synchronous, transactional: Mode.transactional, coalesces: false))
    }

    private let published: PublishedStrategy

    init(records: [TaskRecord]) throws { published = try PublishedStrategy(records: records) }
    func read(_ field: TaskField, of id: Int) throws -> FieldValue { try published.read(field, of: id) }
    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try published.readInsideView(field, of: id, times: times) }
    func write(_ value: FieldValue, to id: Int) throws { try published.write(value, to: id) }
    func transaction(_ writes: [FieldWrite]) throws { try Mode.apply(writes, to: published) }
    func subscribe(_ spec: ViewSpec) throws -> ViewHandle { try published.subscribe(spec) }
    func unsubscribe(_ view: ViewHandle) { published.unsubscribe(view) }
    func settle() async { await published.settle() }
    func tearDown() async { await published.tearDown() }
    func objectsThatMustBeFreed() -> [AnyObject] { published.objectsThatMustBeFreed() }
}
