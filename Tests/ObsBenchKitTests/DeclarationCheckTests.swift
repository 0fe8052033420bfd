import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// A run's rows against its strategies' declarations: torn states under a store declaring
/// transactions are named in the consistency table's footnote, the report and the profile guide;
/// none, or torn states a declaration allows, are not. The stores are described here (as `run.json`
/// describes a store of one's own) and the rows made up: what is tested is the tool, never a
/// finding about a built-in strategy.
@Suite("Declarations against measurements")
struct DeclarationCheckTests {
    init() { BuiltInStrategiesKnown.declare() }

    static func store(_ name: String, transactional: Bool) -> StrategyDescriptor {
        StrategyDescriptor(
            name: name, summary: "a store of one's own", dependency: "none",
            capabilities: Capabilities(granularity: .property, deduplicates: false, delivery: .synchronous, transactional: transactional, coalesces: false))
    }

    static let atomic = store("atomic-store", transactional: true)
    static let tearing = store("tearing-store", transactional: true)
    static let honest = store("honest-store", transactional: false)

    /// One strategy's consistency rows: torn states (count, per 1000) per workload, re-runs of 1.
    static func consistencyRows(_ strategy: String, torn: [String: Double], combinedTorn: Double = 0, rounds: Int = 1) -> [ResultRow] {
        func row(_ workload: String, _ metric: Metric, _ statistics: Statistics) -> ResultRow {
            ResultRow(
                runID: "r", suite: "consistency", workload: workload, strategy: strategy, executor: "main-actor", objects: 20, subscribers: 1, concurrency: 1,
                metric: metric, unit: metric.unit, statistics: statistics, rounds: rounds)
        }
        var rows: [ResultRow] = []
        for workload in InvariantWorkload.Views.allCases.flatMap({ views in [1, 2].map { InvariantWorkload(writers: $0, views: views) } }) {
            let count = workload.views == .oneObservation ? torn[workload.name] ?? 0 : combinedTorn
            rows += [
                row(workload.name, workload.tornMetric, Statistics(exact: count)),
                row(workload.name, workload.tornPer1000Metric, Statistics(exact: count * 1_000 / 200)),
                row(workload.name, .rerunsPerTransaction, Statistics(exact: 1)),
            ]
        }
        return rows
    }

    static func metadata(_ strategies: [StrategyDescriptor]) -> RunMetadata {
        RunMetadata(
            runID: "r", time: "t", gitRevision: "g", host: "h", cpuModel: "c", coreCount: 2, swiftVersion: "6.3", buildConfiguration: "release", allocator: "a",
            suites: ["consistency", "latency"], strategies: strategies.map(\.name), quick: true, commandLine: [], status: .completed, finishedTime: nil,
            clockResolutionNanoseconds: 1, clockCallCostNanoseconds: 1, strategyDetails: strategies)
    }

    static func report(_ rows: [ResultRow], _ strategies: [StrategyDescriptor]) -> RunReport {
        RunReport(
            runDirectory: URL(fileURLWithPath: "/nonexistent-run"), rows: rows, metadata: metadata(strategies), claims: .failure(ClaimsError("no claims in this test")),
            chartNote: nil)
    }

    static func footnotes(_ rows: [ResultRow], _ strategies: [StrategyDescriptor]) -> [String] {
        SummaryTable.tables(suite: .consistency, rows: rows, strategies: strategies.map(\.name), descriptors: strategies).flatMap(\.footnotes)
    }

    @Test("torn states under a store declaring transactions are named in the consistency table's footnote, the report and the profile guide")
    func tornStatesContradictTransactions() throws {
        let strategies = [Self.atomic, Self.tearing]
        let rows =
            Self.consistencyRows("atomic-store", torn: [:])
            + Self.consistencyRows("tearing-store", torn: ["invariant-2-writers": 3])
        let check = DeclarationCheck(rows: rows, descriptors: strategies)
        #expect(check.contradictions.count == 1)
        let contradiction = try #require(check.contradictions.first)
        #expect(contradiction.strategy == "tearing-store" && contradiction.suite == "consistency" && contradiction.declaration == "transactional: true")
        let expected =
            "tearing-store declares transactional: true, but one observation showed states that existed at no commit boundary in invariant-2-writers (3 torn, 15 per 1000 transactions): make its commits atomic (commitFromBackground included), or declare transactional: false"
        #expect(contradiction.description == expected)

        #expect(Self.footnotes(rows, strategies) == ["contradicts its declaration: " + expected])
        // The printed table carries it (wrapped at the table's width).
        let printed = SummaryTable.tables(suite: .consistency, rows: rows, strategies: ["atomic-store", "tearing-store"], descriptors: strategies)[0].text()
        #expect(printed.replacingOccurrences(of: "\n  ", with: " ").contains("contradicts its declaration: tearing-store declares transactional: true"))
        // So does the summary streamed while a run goes on.
        var stream = SummaryStream(style: .markdown, strategies: ["atomic-store", "tearing-store"], descriptors: strategies)
        #expect(stream.text(of: .consistency, rows: rows).contains("contradicts its declaration: " + expected))

        let markdown = Self.report(rows, strategies).markdown()
        #expect(markdown.contains("## Declarations against measurements\n\n**1 declaration contradicted by this run.**"))
        #expect(markdown.contains("- " + expected))
        #expect(markdown.contains("- contradicts its declaration: " + expected), "the consistency table's footnote")
        #expect(markdown.contains("Not checked here: re-runs delivered after a transaction or a background commit returned"))
        #expect(Self.report(rows, strategies).html().contains("tearing-store declares transactional: true, but one observation showed"))

        // The profile guide does not crown it, and says why.
        let entry = try #require(ProfileGuide(rows: rows, metadata: Self.metadata(strategies)).entries.first { $0.profile.hasPrefix("Cross-field") })
        let reason = try #require(entry.leftOut.first { $0.strategy == "tearing-store" }?.reason)
        #expect(reason.hasPrefix("its run contradicts its declaration: transactional: true, but one observation showed states"))
        #expect(!entry.ranking.contains { $0.strategy == "tearing-store" })
    }

    @Test("no torn state, or torn states a declaration allows, contradict nothing")
    func nothingContradicted() {
        let strategies = [Self.atomic, Self.honest]
        let rows =
            Self.consistencyRows("atomic-store", torn: [:], combinedTorn: 40)  // two observations combined may tear in any store
            + Self.consistencyRows("honest-store", torn: ["invariant-1-writer": 12, "invariant-2-writers": 30])  // declares no transactions
        #expect(DeclarationCheck(rows: rows, descriptors: strategies).contradictions.isEmpty)
        #expect(!Self.footnotes(rows, strategies).contains { $0.contains("contradicts its declaration") })
        let markdown = Self.report(rows, strategies).markdown()
        #expect(markdown.contains("No row of this run contradicts what its strategy declares"))
        #expect(!markdown.contains("contradicts its declaration"))
    }

    @Test("a torn state in any round contradicts, and a strategy the run does not describe contradicts nothing")
    func anyRoundAndUnknownStrategies() throws {
        var rows = Self.consistencyRows("tearing-store", torn: [:], rounds: 3)
        let index = try #require(rows.firstIndex { $0.workload == "invariant-1-writer" && $0.metric == .tornObservations })
        rows[index].statistics = Statistics([0, 0, 2])
        let contradiction = try #require(DeclarationCheck(rows: rows, descriptors: [Self.tearing]).contradictions.first)
        #expect(contradiction.measured.hasSuffix("in invariant-1-writer (2 torn, the most of its 3 rounds)"))
        #expect(DeclarationCheck(rows: rows, descriptors: []).contradictions.isEmpty, "tearing-store is not built in, and nothing describes it")
    }

    @Test("re-runs after write returned under a store declaring synchronous delivery are named in the latency table's footnote and the report; under an asynchronous one, nothing")
    func lateRerunsContradictSynchronousDelivery() throws {
        func late(_ strategy: String, _ value: Double) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: WriteObservedWorkload().name, strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: 1,
                concurrency: 1, metric: .rerunsAfterWriteReturned, unit: Metric.rerunsAfterWriteReturned.unit, statistics: Statistics(exact: value))
        }
        var asynchronous = Self.store("queued-store", transactional: false)
        asynchronous.capabilities.delivery = .asynchronous
        let strategies = [Self.honest, asynchronous, Self.atomic]
        let rows = [late("honest-store", 1), late("queued-store", 1), late("atomic-store", 0)]
        let check = DeclarationCheck(rows: rows, descriptors: strategies)
        #expect(check.contradictions.map(\.strategy) == ["honest-store"], "\(check.contradictions)")
        let contradiction = try #require(check.contradictions.first)
        #expect(contradiction.declaration == "delivery: .synchronous" && contradiction.suite == "latency")
        #expect(contradiction.description.contains("1 re-runs per write reached its view only after write returned (write-observed)"), "\(contradiction)")
        let footnotes = SummaryTable.tables(suite: .latency, rows: rows, strategies: strategies.map(\.name), descriptors: strategies).flatMap(\.footnotes)
        #expect(footnotes.contains { $0.hasPrefix("contradicts its declaration: honest-store declares delivery: .synchronous") }, "\(footnotes)")
        #expect(Self.report(rows, strategies).markdown().contains("honest-store declares delivery: .synchronous"))
    }
}
