import Foundation

/// Reads `results.csv` back into rows, checking the header contract. Errors name the line and reason.
public enum ResultsReader {
    public struct ReadError: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    public static func read(file path: String) throws -> [ResultRow] {
        try readNumbered(file: path).map(\.row)
    }

    /// The rows with the line each starts on, for messages about a row.
    public static func readNumbered(file path: String) throws -> [(line: Int, row: ResultRow)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(file: path, line: 0, reason: "cannot be read (missing or unreadable)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ReadError(file: path, line: 0, reason: "is not UTF-8 text")
        }
        return try parseNumbered(text, file: path)
    }

    public static func parse(_ text: String, file: String = "<text>") throws(ReadError) -> [ResultRow] {
        try parseNumbered(text, file: file).map(\.row)
    }

    public static func parseNumbered(_ text: String, file: String = "<text>") throws(ReadError) -> [(line: Int, row: ResultRow)] {
        let records: [(line: Int, fields: [String])]
        do {
            records = try CSV.parse(text)
        } catch {
            throw ReadError(file: file, line: error.line, reason: error.reason)
        }
        guard let header = records.first else { throw ReadError(file: file, line: 1, reason: "empty file: no header") }
        let expected = ResultRow.columns
        // Older files may lack columns added later; every column they have must match in order.
        // A column this build does not know is another schema: refused, not ignored.
        guard header.fields.count <= expected.count else {
            throw ReadError(file: file, line: header.line, reason: "unexpected extra columns: \(header.fields.dropFirst(expected.count).joined(separator: ","))")
        }
        for (index, name) in header.fields.enumerated() where index < expected.count && name != expected[index] {
            throw ReadError(file: file, line: header.line, reason: "column \(index + 1) is '\(name)', expected '\(expected[index])'")
        }
        guard header.fields.count >= expected.firstIndex(of: "ci95_high")! + 1 else {
            throw ReadError(file: file, line: header.line, reason: "missing columns: \(expected.dropFirst(header.fields.count).joined(separator: ","))")
        }
        return try records.dropFirst().map { record throws(ReadError) in
            (record.line, try row(record.fields, width: header.fields.count, line: record.line, file: file))
        }
    }

    private static func row(_ fields: [String], width: Int, line: Int, file: String) throws(ReadError) -> ResultRow {
        guard fields.count == width else {
            throw ReadError(file: file, line: line, reason: "\(fields.count) fields, expected \(width) (truncated row?)")
        }
        func integer(_ index: Int) throws(ReadError) -> Int {
            guard let value = Int(fields[index]), value >= 0 else {
                throw ReadError(file: file, line: line, reason: "\(ResultRow.columns[index]) '\(fields[index])' is not a count (a whole number, 0 or more)")
            }
            return value
        }
        func number(_ index: Int) throws(ReadError) -> Double {
            guard let value = Double(fields[index]), value.isFinite else {
                throw ReadError(file: file, line: line, reason: "\(ResultRow.columns[index]) '\(fields[index])' is not a finite number")
            }
            return value
        }
        let samples = try integer(10)
        var statistics: Statistics?
        if !(samples == 0 && fields[11].isEmpty) {
            statistics = Statistics(exact: 0)
            statistics!.count = samples
            statistics!.median = try number(11)
            statistics!.p10 = try number(12)
            statistics!.p90 = try number(13)
            statistics!.p99 = try number(14)
            statistics!.min = try number(15)
            statistics!.max = try number(16)
            statistics!.mean = try number(17)
            statistics!.ci95Low = try number(18)
            statistics!.ci95High = try number(19)
        }
        return ResultRow(
            runID: fields[0], suite: fields[1], workload: fields[2], strategy: fields[3], executor: fields[4],
            objects: try integer(5), subscribers: try integer(6), concurrency: try integer(7),
            metric: Metric.named(fields[8], unit: fields[9]), unit: fields[9], statistics: statistics,
            note: fields.count > 20 ? fields[20] : "",
            rounds: fields.count > 21 ? try integer(21) : 1
        )
    }
}
