import Foundation
import ObsBenchKit
import Testing

@testable import ObsBenchCLI

/// `obsbench export`: both tracker formats, from committed runs' `results.csv`, decoded back and
/// matched value for value against the rows they came from.
@Suite("Export to CI trackers")
struct ExportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// A quick run of every suite (timings and counts) and an instruction run.
    static let runs = ["results/baseline", "results/baseline-instructions"]

    static func load(_ run: String) throws -> RunResults {
        try RunResults.load(root.appendingPathComponent(run).path)
    }

    @Test("github-action-benchmark: a customSmallerIsBetter array whose every entry is a judged row's value (median; mean over layouts)", arguments: runs)
    func actionBenchmark(run: String) throws {
        let rows = try Self.load(run).rows
        let export = TrackerExport(rows: rows)
        let json = try JSONSerialization.jsonObject(with: try export.data(.githubActionBenchmark))
        // The shape the action reads: an array of objects with name, unit and a numeric value;
        // range and extra, when present, are strings.
        let entries = try #require(json as? [[String: Any]])
        #expect(!entries.isEmpty)
        for entry in entries {
            #expect(Set(entry.keys).isSubset(of: ["name", "unit", "value", "range", "extra"]))
            #expect(entry["name"] is String && entry["unit"] is String && entry["value"] is NSNumber)
            if let range = entry["range"] { #expect((range as? String)?.hasPrefix("± ") == true) }
            if let extra = entry["extra"] { #expect(extra is String) }
        }
        let decoded = try JSONDecoder().decode([TrackerExport.ActionBenchmarkEntry].self, from: try export.data(.githubActionBenchmark))
        let byKey = Dictionary(uniqueKeysWithValues: rows.filter { !$0.isError }.map { (RowKey($0).description, $0) })
        #expect(Set(decoded.map(\.name)).count == decoded.count, "names are unique")
        for entry in decoded {
            let row = try #require(byKey[entry.name], "\(entry.name) is no row of \(run)")
            #expect(entry.value == row.value)
            #expect(entry.unit == row.unit)
            if case .informational = row.metric.gate { Issue.record("\(entry.name) is informational") }
        }
        // Every judged row is there, and only those.
        let judged = rows.filter { row in
            guard !row.isError, row.statistics != nil else { return false }
            if case .informational = row.metric.gate { return false }
            return true
        }
        #expect(decoded.count == judged.count)
        #expect(export.skipped == rows.count - judged.count)
    }

    @Test("BMF: benchmark → measure → value with its interval (the median's, or the layouts' range), matching every judged row", arguments: runs)
    func bencherMetricFormat(run: String) throws {
        let rows = try Self.load(run).rows
        let export = TrackerExport(rows: rows)
        let data = try export.data(.bmf)
        // The shape Bencher reads: benchmark → measure → {value, lower_value?, upper_value?}, numbers only.
        let shape = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: [String: NSNumber]]])
        #expect(shape.values.allSatisfy { $0.values.allSatisfy { Set($0.keys).isSubset(of: ["value", "lower_value", "upper_value"]) } })
        // The values, decoded exactly (JSONSerialization rounds the last digit on Linux).
        let json = try JSONDecoder().decode([String: [String: TrackerExport.BencherMetric]].self, from: data)
        var seen = 0
        for row in export.rows {
            let key = RowKey(row)
            let measure = try #require(json[key.benchmark]?[row.metric.name], "\(key) missing")
            let stats = try #require(row.statistics)
            #expect(measure.value == row.value)
            if row.isMeanOverLayouts {
                // Counted in several layouts: the layouts' range, or none when they agree.
                #expect(stats.min == stats.max ? measure.lowerValue == nil : measure.lowerValue == stats.min && measure.upperValue == stats.max)
            } else if stats.ci95Low == stats.ci95High {
                #expect(measure.lowerValue == nil && measure.upperValue == nil, "an exact count has no interval")
            } else {
                #expect(measure.lowerValue == stats.ci95Low && measure.upperValue == stats.ci95High)
                #expect(stats.ci95Low <= stats.median && stats.median <= stats.ci95High)
            }
            seen += 1
        }
        #expect(seen == json.values.reduce(0) { $0 + $1.count }, "no measure without its row")
    }

    @Test("instruction counts are exported when the run has them")
    func instructionsExported() throws {
        let export = TrackerExport(rows: try Self.load("results/baseline-instructions").rows)
        #expect(export.rows.contains { $0.metric == .instructions })
        #expect(!export.rows.contains { $0.metric == .instructionLoopOverhead })
    }

    @Test("the export command writes a file, and refuses a run it cannot read with status 1")
    func command() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-export-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        var command = try ObsBenchCommand.parseAsRoot(["export", Self.root.appendingPathComponent("results/baseline").path, "--format", "bmf", "--output", file.path])
        try command.run()
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) is [String: Any])
        #expect(obsbenchExitStatus(["export", "/nonexistent/run", "--format", "bmf"]) == 1)
        #expect(obsbenchExitStatus(["export", "results/baseline", "--format", "csv"]) == 64)
    }
}
