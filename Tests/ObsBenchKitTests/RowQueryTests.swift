import Testing

@testable import ObsBenchKit

/// The one row query the tables, shares, guide and claims use.
@Suite("Row query")
struct RowQueryTests {
    static func row(_ strategy: String, _ metric: Metric, objects: Int = 1_000, subscribers: Int = 0, value: Double? = 1) -> ResultRow {
        ResultRow(
            runID: "r", suite: "latency", workload: "write-unobserved", strategy: strategy, executor: RowKey.mainActor, objects: objects,
            subscribers: subscribers, concurrency: 1, metric: metric, unit: metric.unit, statistics: value.map { Statistics(exact: $0) })
    }

    @Test("every field given must match and a nil one matches any; valued leaves out error rows and rows without a value; a metric never finds an error row")
    func matches() {
        let rows = [
            Self.row("plain", .latency, value: nil), Self.row("plain", .latency, objects: 10, value: 3), Self.row("observable", .latency, value: 5),
            Self.row("observable", .instructions, subscribers: 1, value: 7), ResultRow.error(runID: "r", suite: "latency", strategy: "plain", message: "boom"),
        ]
        #expect(rows.first(RowQuery(strategy: "plain", metric: .latency))?.objects == 1_000, "the first in the rows' order")
        #expect(rows.first(RowQuery(strategy: "plain", metric: .latency, valued: true))?.value == 3)
        #expect(rows.matching(RowQuery(suite: "latency", metric: .latency)).count == 3)
        #expect(rows.matching(RowQuery(suite: "latency", valued: true)).count == 3, "the error row and the row without a value left out")
        #expect(rows.first(RowQuery(metric: .instructions, subscribers: 0)) == nil)
        #expect(rows.first(RowQuery(strategy: "observable", metric: .instructions, subscribers: 1))?.value == 7)
        #expect(rows.matching(RowQuery(strategy: "plain")).contains { $0.isError }, "no metric named: the error row is a row of plain")
        #expect(!rows.matching(RowQuery(strategy: "plain", metric: .latency)).contains { $0.isError })
    }
}
