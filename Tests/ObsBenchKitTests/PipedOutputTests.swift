import Foundation
import Testing

@testable import ObsBenchKit

/// What a run prints when both of its streams go to one pipe (`> log 2>&1`, `| tee`): the tables
/// on standard output stay whole, and the lines on standard error (progress, `results: …`) come
/// before or after them, never inside; each suite's tables come as soon as it is done, before the
/// next suite's first worker starts. Checked on the release binary (a debug build hands runs to it).
@Suite("Piped output")
struct PipedOutputTests {
    @Test(
        "with stdout and stderr on one pipe, every table row is intact and the results line follows the tables",
        .enabled(if: InstructionCountTests.releaseObsbench != nil, "needs the release build: swift build -c release"))
    func tablesStayWhole() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-piped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let strategies = ["plain", "observable", "published"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: InstructionCountTests.releaseObsbench!)
        process.arguments = ["--suite", "subscription", "--suite", "consistency", "--quick", "--output", output.path] + strategies.flatMap { ["--strategy", $0] }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A table: its rule (dashes, two spaces apart), the header above, one row per strategy below.
        let rules = lines.indices.filter { index in
            let line = lines[index]
            return !line.isEmpty && line.allSatisfy { $0 == "-" || $0 == " " } && line.contains("-")
        }
        #expect(rules.count >= 2, "expected the subscription and consistency tables in:\n\(text)")
        var lastTableLine = 0
        for rule in rules {
            let width = lines[rule].count
            #expect(lines[rule - 1].count <= width)
            let rows = lines[(rule + 1)...].prefix { !$0.isEmpty && strategies.contains(where: $0.hasPrefix) }
            #expect(rows.count == strategies.count, "table at line \(rule) has \(rows.count) intact rows:\n\(text)")
            for row in rows {
                #expect(row.count == width, "a row broken into: \(row)")
                #expect(row.count <= SummaryTable.width)
            }
            lastTableLine = rule + rows.count
        }
        let resultsLine = try #require(lines.firstIndex { $0.hasPrefix("results: ") }, "no results line in:\n\(text)")
        #expect(resultsLine > lastTableLine)

        // The plan runs consistency, then subscription: consistency's table is printed before
        // subscription's first worker starts, subscription's after it.
        let subscriptionStarts = try #require(lines.firstIndex { $0.contains("] subscription · ") }, "no progress line of subscription in:\n\(text)")
        #expect(rules.first.map { $0 < subscriptionStarts } == true, "consistency's table not printed before subscription started:\n\(text)")
        #expect(rules.last.map { $0 > subscriptionStarts } == true)

        // Without standard error's lines (progress, the time by suite, the results line), what is left is exactly the
        // tables printed at once from the run's folder (results.csv, each round's values from
        // samples.csv), as a run printed them at its end before.
        let rows = try RunResults.load(output.appendingPathComponent("latest").path).rows
        func isProgress(_ line: String) -> Bool {  // "[3/12] subscription · plain … 4 s elapsed"
            line.hasPrefix("[") && line.contains("] ") && line.dropFirst().prefix { $0 != "]" }.allSatisfy { $0.isNumber || $0 == "/" }
        }
        let tables = lines.filter { !isProgress($0) && !$0.hasPrefix("results: ") && !$0.hasPrefix(ProgressReporter.timeBySuitePrefix) }.joined(separator: "\n")
        #expect(tables == SummaryStreamTests.printedAtOnce(.text, suites: [.consistency, .subscription], rows: rows, strategies: strategies))
    }
}
