import Foundation
import ObsBenchKit
import Testing

@Suite("CSV and the results header contract")
struct CSVTests {
    static func row(note: String = "plain note", workload: String = "read-untracked") -> ResultRow {
        ResultRow(
            runID: "2026-11-23T10-00-00Z", suite: "latency", workload: workload, strategy: "observable",
            executor: "main-actor", objects: 1000, subscribers: 1, concurrency: 1, metric: .latency, unit: "ns/op",
            statistics: Statistics([10.5, 11, 12.25, 40]), note: note)
    }

    @Test("the header is the documented contract, in order")
    func header() {
        #expect(
            ResultRow.columns == [
                "run_id", "suite", "workload", "strategy", "executor", "objects", "subscribers", "concurrency",
                "metric", "unit", "samples", "median", "p10", "p90", "p99", "min", "max", "mean", "ci95_low", "ci95_high", "note", "rounds",
            ])
    }

    @Test(
        "rows survive a round trip, including quotes, commas and line breaks",
        arguments: [
            "plain note", "a, comma", "a \"quoted\" word", "two\nlines", "", "trailing,", "\"", "ünïcödé µs",
        ])
    func roundTrip(note: String) throws {
        let rows = [Self.row(note: note), Self.row(note: "second", workload: "write, odd")]
        let text = CSV.line(ResultRow.columns) + rows.map { CSV.line($0.fields) }.joined()
        let read = try ResultsReader.parse(text)
        #expect(read.count == 2)
        #expect(read[0].note == note)
        #expect(read[1].workload == "write, odd")
        #expect(read[0].statistics?.median == rows[0].statistics?.median)
        #expect(read[0].statistics?.ci95High == rows[0].statistics?.ci95High)
        #expect(read[0].fields == rows[0].fields)
    }

    @Test("the metric column decodes to the listed Metric; a name this version does not list reads back as itself, an exact count")
    func metricColumn() throws {
        var unknown = Self.row()
        unknown.metric = Metric.named("cpu_seconds_from_a_later_version", unit: unknown.unit)
        let text = CSV.line(ResultRow.columns) + CSV.line(Self.row().fields) + CSV.line(unknown.fields)
        let read = try ResultsReader.parse(text)
        #expect(read[0].metric == .latency && read[0].metric.gate == .timing)
        #expect(read[1].metric.name == "cpu_seconds_from_a_later_version" && read[1].metric.gate == .count && read[1].metric.unit == read[1].unit)
        #expect(read.map(\.fields) == [Self.row().fields, unknown.fields], "written back under the same names")
        // In JSON (a RowKey), a metric is its name.
        let key = RowKey(read[0])
        let json = String(decoding: try JSONEncoder().encode(key), as: UTF8.self)
        #expect(json.contains("\"metric\":\"latency\""))
        #expect(try JSONDecoder().decode(RowKey.self, from: Data(json.utf8)) == key)
    }

    @Test("a row made from a key is the row the key was taken from")
    func rowFromKey() {
        let row = Self.row()
        #expect(ResultRow(runID: row.runID, key: RowKey(row), statistics: row.statistics, note: row.note) == row)
    }

    @Test("a metric counts allocations by its unit: every memory metric of allocations does, and none of bytes, time or retains")
    func allocationMetrics() {
        let counting = Metric.all.values.filter(\.countsAllocations).map(\.name).sorted()
        #expect(counting == ["allocations_per_instance", "allocations_per_store", "allocations_per_write", "fresh_allocations_per_object"])
        #expect(!Metric.bytesAllocatedPerWrite.countsAllocations && !Metric.retains.countsAllocations && !Metric.latency.countsAllocations)
        // A later version's memory metric read from its CSV goes by the unit it was written with.
        #expect(Metric.named("allocations_per_view_from_a_later_version", unit: "allocations/view").countsAllocations)
        #expect(!Metric.named("bytes_per_view_from_a_later_version", unit: "B/view").countsAllocations)
    }

    @Test("error rows have no statistics and keep their message")
    func errorRow() throws {
        let error = ResultRow.error(runID: "r", suite: "latency", strategy: "grdb-pool", message: "worker crashed (signal 11, SIGSEGV)")
        let read = try ResultsReader.parse(CSV.line(ResultRow.columns) + CSV.line(error.fields))
        #expect(read == [error])
        #expect(read[0].isError)
    }

    @Test(
        "a malformed file is rejected with its line and reason",
        arguments: [
            ("", 1, "empty file"),
            ("run_id,suite\n", 1, "missing columns"),
            ("run_id,suit,workload\n", 1, "column 2 is 'suit'"),
            (CSV.line(ResultRow.columns) + "a,b,c\n", 2, "3 fields"),
            (CSV.line(ResultRow.columns) + "\"unterminated,b\n", 2, "never closed"),
            (CSV.line(ResultRow.columns) + CSV.line(CSVTests.row().fields).replacingOccurrences(of: ",1000,", with: ",many,"), 2, "objects 'many' is not a count"),
            (CSV.line(ResultRow.columns) + CSV.line(CSVTests.row().fields).replacingOccurrences(of: ",ns/op,4,", with: ",ns/op,4,nan,"), 2, "fields"),
        ])
    func malformed(text: String, line: Int, reason: String) {
        do {
            _ = try ResultsReader.parse(text, file: "baseline.csv")
            Issue.record("accepted malformed input")
        } catch {
            #expect(error.file == "baseline.csv")
            #expect(error.line == line)
            #expect(error.reason.contains(reason), "reason was: \(error.reason)")
        }
    }

    @Test("NaN and infinity are refused as statistics")
    func nonFinite() {
        var fields = Self.row().fields
        fields[11] = "nan"
        #expect(throws: ResultsReader.ReadError.self) { try ResultsReader.parse(CSV.line(ResultRow.columns) + CSV.line(fields)) }
        fields[11] = "inf"
        #expect(throws: ResultsReader.ReadError.self) { try ResultsReader.parse(CSV.line(ResultRow.columns) + CSV.line(fields)) }
    }

    @Test("samples round trip")
    func samples() throws {
        let samples = (0..<3).map {
            SampleRow(runID: "r", suite: "latency", workload: "w,1", strategy: "plain", metric: .latency, unit: "ns/op", index: $0, value: Double($0) + 0.5)
        }
        let text = CSV.line(SampleRow.columns) + samples.map { CSV.line($0.fields) }.joined()
        #expect(try SamplesReader.parse(text) == samples)
    }
}
