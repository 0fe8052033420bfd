import Foundation
import Testing

@testable import ObsBenchKit

/// What a run prints when both of its streams go to one pipe (`> log 2>&1`, `| tee`): the tables
/// on standard output stay whole, and the lines on standard error (progress, `results: …`) come
/// before or after them, never inside. Checked on the release binary (a debug build hands runs to it).
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
    }
}
