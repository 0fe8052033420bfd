import Foundation
import Testing

@testable import ObsBenchKit

/// The tables printed suite by suite (``SummaryStream``) against the tables printed at once after
/// the run, as `obsbench run` printed them before: on committed runs, the same text.
@Suite("Summary stream")
struct SummaryStreamTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Committed runs of every suite, of instruction counts, and of one suite.
    static let runs = [
        "results/reference/all-2026-11-26T20-38-09Z",
        "results/reference/all-2026-11-23T14-36-44Z",
        "results/baseline-instructions",
        "results/reference/hops-2026-11-23",
        "results/reference/memory-2026-11-27T01-37-02Z",
    ]

    /// A committed run's rows (in `results.csv`'s order, the order a run pooled them), its suites
    /// in the order a run takes them, and its strategies in the order rows name them.
    static func run(_ folder: String) throws -> (rows: [ResultRow], suites: [ObsBenchKit.Suite], strategies: [String]) {
        let rows = try ResultsReader.read(file: root.appendingPathComponent(folder).appendingPathComponent("results.csv").path)
        let suites = SuiteRegistry.all.filter { suite in rows.contains { $0.suite == suite.name } }
        var strategies: [String] = []
        for row in rows where row.strategy != RowKey.noStrategy && !strategies.contains(row.strategy) { strategies.append(row.strategy) }
        return (rows, suites, strategies)
    }

    /// What `obsbench run` printed at its end before tables were printed suite by suite.
    static func printedAtOnce(_ style: SummaryStream.Style, suites: [ObsBenchKit.Suite], rows: [ResultRow], strategies: [String]) -> String {
        let tables = suites.flatMap { SummaryTable.tables(suite: $0, rows: rows, strategies: strategies) }
        switch style {
        case .text:
            var text = tables.map { $0.text() }.joined(separator: "\n")
            if !strategies.contains(RowKey.floorStrategy) { text += "(no ratios: `\(RowKey.floorStrategy)` was not run)\n" }
            return text
        case .markdown:
            return tables.map { $0.markdown() }.joined(separator: "\n")
        }
    }

    @Test(
        "suite by suite, each from the rows pooled when it is done, the text is what the whole run printed at once",
        arguments: runs, [SummaryStream.Style.text, .markdown])
    func sameTextAsAtOnce(folder: String, style: SummaryStream.Style) throws {
        let (rows, suites, strategies) = try Self.run(folder)
        #expect(!suites.isEmpty)
        var stream = SummaryStream(style: style, strategies: strategies)
        var printed = ""
        for (index, suite) in suites.enumerated() {
            let done = Set(suites.prefix(index + 1).map(\.name))
            let piece = stream.text(of: suite, rows: rows.filter { done.contains($0.suite) })
            #expect(!piece.isEmpty, "\(suite.name) printed nothing")
            printed += piece
        }
        printed += stream.ending
        let atOnce = Self.printedAtOnce(style, suites: suites, rows: rows, strategies: strategies)
        #expect(printed == atOnce)
    }

    /// What makes printing a suite before later suites have run safe: its tables read no rows but
    /// its own and those of the suites it declares (`Suite.tablesAlsoRead`), which the run waits for.
    @Test("each suite's tables read only its own rows and those of the suites it declares", arguments: runs)
    func tablesReadDeclaredRows(folder: String) throws {
        let (rows, suites, strategies) = try Self.run(folder)
        for suite in suites {
            let declared = Set([suite.name] + suite.tablesAlsoRead)
            let alone = SummaryTable.tables(suite: suite, rows: rows.filter { declared.contains($0.suite) }, strategies: strategies).map { $0.text() }
            let amongAll = SummaryTable.tables(suite: suite, rows: rows, strategies: strategies).map { $0.text() }
            #expect(alone == amongAll, "\(suite.name)'s tables change with the rows of suites it does not declare")
        }
    }

    @Test("store-isolation's tables read the memory suite's bytes per store, and say so")
    func storeIsolationReadsMemory() throws {
        #expect(ObsBenchKit.Suite.storeIsolation.tablesAlsoRead == [ObsBenchKit.Suite.memory.name])
        let (rows, _, _) = try Self.run("results/reference/all-2026-11-26T20-38-09Z")
        let own = rows.filter { $0.suite == ObsBenchKit.Suite.storeIsolation.name }
        let alone = SummaryTable.tables(suite: .storeIsolation, rows: own, strategies: []).map { $0.text() }.joined()
        let withMemory = SummaryTable.tables(suite: .storeIsolation, rows: rows, strategies: []).map { $0.text() }.joined()
        #expect(alone.contains("(memory suite)") && !withMemory.contains("(memory suite)"))
    }

    @Test("tables are a blank line apart, across suites too; the text ends with the no-ratios line only without plain")
    func separatorsAndEnding() throws {
        let (rows, _, _) = try Self.run("results/reference/all-2026-11-26T20-38-09Z")
        var withoutPlain = SummaryStream(style: .text, strategies: ["observable"])
        let hops = withoutPlain.text(of: .hops, rows: rows)
        let consistency = withoutPlain.text(of: .consistency, rows: rows)
        #expect(!hops.hasPrefix("\n"))
        #expect(consistency.hasPrefix("\nconsistency"))
        #expect(withoutPlain.ending == "(no ratios: `plain` was not run)\n")
        #expect(SummaryStream(style: .text, strategies: ["plain", "observable"]).ending.isEmpty)
        #expect(SummaryStream(style: .markdown, strategies: ["observable"]).ending.isEmpty)
    }
}
